// The tables of default values in the doc comments of the exported DEFAULT_* constants (they
// render on the API reference) against the constants themselves: every field documented, each
// with the value the code has. Reads the sources for the tables and the built packages for the
// values (`npm run build` first; CI's build step runs before this).
import { readFileSync } from "node:fs";
import { DEFAULT_CONSUMER_CONFIG, DEFAULT_PRODUCER_CONFIG, DEFAULT_SUBSCRIBER_CONFIG, DEFAULT_TIMERS } from "@ectp/core";
import { DEFAULT_SIMULATION_CONFIG } from "@ectp/simulator";
import { describe, expect, it } from "vitest";

/**
 * The `| field | value |` rows of the doc comment right above `export const <name>` in `source`,
 * as [field, value] pairs. A row may name several fields (`a`, `b`) with one value for all ("4
 * each") or one value each ("1, 4"); a value is a number (its first token: "2000 ms", "25e9"), a
 * backticked JSON literal (`"none"`) or `{}`.
 */
function documentedDefaults(source, name) {
  const doc = new RegExp(String.raw`/\*\*((?:(?!\*/)[\s\S])*)\*/\s*export const ${name}\b`).exec(source);
  if (!doc) throw new Error(`no doc comment above export const ${name}`);
  const pairs = [];
  for (const line of doc[1].split("\n")) {
    const row = /^\s*\*\s*\|(.*)\|(.*)\|\s*$/.exec(line);
    if (!row || /^\s*-+\s*$/.test(row[1]) || row[1].trim() === "field") continue;
    const fields = [...row[1].matchAll(/`(\w+)`/g)].map((m) => m[1]);
    const cell = row[2].trim();
    let values;
    if (cell.startsWith("{}")) values = [{}];
    else if (cell.startsWith("`")) values = [JSON.parse(/^`([^`]*)`/.exec(cell)[1])];
    else values = cell.split(",").map((part) => Number(/^\s*([0-9][0-9.e+]*)/.exec(part)?.[1] ?? Number.NaN));
    if (values.length !== 1 && values.length !== fields.length) throw new Error(`${name}: row "${line.trim()}" has ${fields.length} fields and ${values.length} values`);
    for (const [i, field] of fields.entries()) pairs.push([field, values.length === 1 ? values[0] : values[i]]);
  }
  return pairs;
}

const source = (path) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

describe.each([
  ["packages/core/src/config.ts", "DEFAULT_TIMERS", DEFAULT_TIMERS],
  ["packages/core/src/config.ts", "DEFAULT_CONSUMER_CONFIG", DEFAULT_CONSUMER_CONFIG],
  ["packages/core/src/config.ts", "DEFAULT_PRODUCER_CONFIG", DEFAULT_PRODUCER_CONFIG],
  ["packages/core/src/config.ts", "DEFAULT_SUBSCRIBER_CONFIG", DEFAULT_SUBSCRIBER_CONFIG],
  ["packages/simulator/src/options.ts", "DEFAULT_SIMULATION_CONFIG", DEFAULT_SIMULATION_CONFIG],
])("%s %s", (path, name, constant) => {
  const rows = documentedDefaults(source(path), name);

  it("documents every field once", () => {
    expect(rows.map(([field]) => field).sort()).toEqual(Object.keys(constant).sort());
  });

  it("documents each field's value as the code has it", () => {
    for (const [field, value] of rows) expect({ field, value }).toEqual({ field, value: constant[field] });
  });
});

describe("documentedDefaults", () => {
  const text = [
    "/**",
    " * Defaults:",
    " *",
    " * | field | value |",
    " * | --- | --- |",
    " * | `a` | 2000 ms |",
    " * | `b`, `c` | 4 each |",
    " * | `d`, `e` | 1, 25e9 (bytes) |",
    ' * | `f` | `"none"` (a preset) |',
    " * | `g` | {} (no overrides) |",
    " */",
    "export const X = {};",
  ].join("\n");

  it("reads single, shared and paired values, JSON literals and {}", () => {
    expect(documentedDefaults(text, "X")).toEqual([
      ["a", 2000],
      ["b", 4],
      ["c", 4],
      ["d", 1],
      ["e", 25e9],
      ["f", "none"],
      ["g", {}],
    ]);
  });

  it("refuses a row whose values do not match its fields, and a constant without a doc comment", () => {
    expect(() => documentedDefaults(text.replace("1, 25e9", "1, 2, 3"), "X")).toThrow(/has 2 fields and 3 values/);
    expect(() => documentedDefaults("export const Y = 1;", "Y")).toThrow(/no doc comment/);
  });
});

/**
 * The READMEs' quick starts run as written: each `js` block is extracted and imported. This
 * package's block is pointed at its source (no build of it needed); @ectp/protocol's imports
 * that package's build, as a user's would. The blocks assert their own claims (node:assert), so
 * a README that drifts from the API fails here.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));

/** Import the first ```js block after `## Quick start` in `readme`, with `rewrite` applied to its text. */
async function runQuickStart(readme: string, name: string, rewrite: (code: string) => string = (code) => code): Promise<void> {
  const markdown = readFileSync(readme, "utf8");
  const from = markdown.indexOf("## Quick start");
  const block = /```js\n([\s\S]*?)```/.exec(markdown.slice(from));
  if (from < 0 || block === null) throw new Error(`${readme} has no js block after "## Quick start"`);
  const out = join(here, "../.ectp-out");
  mkdirSync(out, { recursive: true });
  const file = join(out, `readme-${name}.mjs`);
  writeFileSync(file, rewrite(block[1] as string));
  await import(pathToFileURL(file).href);
}

describe("README quick starts", () => {
  it("@ectp/core: the item is read, verified and released, and the producer's pin ends", async () => {
    const source = JSON.stringify(pathToFileURL(join(here, "index.ts")).href);
    await runQuickStart(join(here, "../README.md"), "core", (code) => {
      expect(code).toContain('from "@ectp/core"');
      return code.replace('from "@ectp/core"', `from ${source}`);
    });
  });

  it("@ectp/protocol: an envelope round-trips, bad bytes and descriptors come back as typed errors, frames split a stream", async () => {
    await runQuickStart(join(here, "../../protocol/README.md"), "protocol");
  });
});

describe("README metrics table", () => {
  /** Metric names (`ectp_consumer_*`, `ectp_producer_*`, `ectp_subscriber_*`, `ectp_driver_*`) in the non-test sources under `dir` with extension `ext`. */
  function emitted(dir: string, ext: string): Set<string> {
    const names = new Set<string>();
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith(ext) || /(\.test\.ts|^test_.*\.py)$/.test(entry.name)) continue;
      const text = readFileSync(join(entry.parentPath, entry.name), "utf8");
      for (const m of text.matchAll(/["'](ectp_(?:consumer|producer|subscriber|driver)_[a-z_]+)/g)) names.add(m[1] as string);
    }
    return names;
  }
  const readme = readFileSync(join(here, "../README.md"), "utf8");
  const documented = new Set([...readme.matchAll(/^\| `(ectp_[a-z_]+)` \|/gm)].map((m) => m[1] as string));

  it("lists every metric the consumer, producer, subscriber and driver emit, and none they do not", () => {
    const ts = emitted(here, ".ts");
    expect(ts.size).toBeGreaterThan(20);
    expect([...documented].sort()).toEqual([...ts].sort());
  });

  it("the Python reference emits the same counters and gauges (its Counter holds no histograms, and it has no driver)", () => {
    const py = emitted(join(here, "../../../conformance/testees/python/ectp_py"), ".py");
    const tsOnly = ["ectp_consumer_read_duration_ms", "ectp_consumer_retry_attempt"];
    expect([...py].sort()).toEqual([...documented].filter((n) => !tsOnly.includes(n) && !n.startsWith("ectp_driver_")).sort());
  });
});

describe("README item-level warnings table", () => {
  it("lists exactly the consumer's warnings about one item of one request (those logging a requestId)", () => {
    const readme = readFileSync(join(here, "../README.md"), "utf8");
    const documented = [...readme.matchAll(/^\| `([^`]+)` \| [^|]+ \| `requestId`/gm)].map((m) => m[1]);
    const source = readFileSync(join(here, "consumer/consumer.ts"), "utf8");
    const logged = new Set([...source.matchAll(/logger\.warn\("([^"]+)",\s*\{\s*requestId:/g)].map((m) => m[1]));
    expect(documented.length).toBe(3);
    expect([...logged].sort()).toEqual([...documented].sort());
  });
});

describe("README configuration table", () => {
  const readme = readFileSync(join(here, "../README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1));
  const rows = [...section.matchAll(/^\| `(\w+)` \| (consumer|producer|both) \| (\d+) \|/gm)].map((m) => ({ key: m[1], role: m[2], value: Number(m[3]) }));

  it("lists every key of both cores' config, with its role and its default, and nothing else", async () => {
    const { DEFAULT_CONSUMER_CONFIG, DEFAULT_PRODUCER_CONFIG, DEFAULT_TIMERS } = await import("./config.js");
    const expected = [
      ...Object.entries(DEFAULT_TIMERS).map(([key, value]) => ({ key, role: "both", value })),
      ...Object.entries(DEFAULT_CONSUMER_CONFIG).filter(([k]) => !(k in DEFAULT_TIMERS)).map(([key, value]) => ({ key, role: "consumer", value })),
      ...Object.entries(DEFAULT_PRODUCER_CONFIG).filter(([k]) => !(k in DEFAULT_TIMERS)).map(([key, value]) => ({ key, role: "producer", value })),
    ];
    const order = (a: { key?: string | undefined; role?: string | undefined }, b: { key?: string | undefined; role?: string | undefined }) => `${a.role}/${a.key}`.localeCompare(`${b.role}/${b.key}`);
    expect(rows.sort(order)).toEqual(expected.sort(order));
  });
});

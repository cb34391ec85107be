// The ```js examples of the site's own pages (docs/*.md) run against the built packages, and each
// prints what its comments say: a `console.log(...)` line ending in `// <text>` must print the
// line <text> (a <text> ending in "..." only has to start the line), in order, and nothing else
// may be printed. `npm run build` first (CI's build step runs before this).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
// Inside the repository, so that "@ectp/..." resolves to the workspace packages; git-ignored.
const scratch = join(root, "scripts", ".ectp-out", "docs-examples");

/** The ```js blocks of a markdown text, each as its source and the line its fence opens on. */
function jsBlocks(markdown) {
  const blocks = [];
  let open;
  for (const [i, line] of markdown.split("\n").entries()) {
    if (open === undefined && line === "```js") open = { line: i + 1, source: [] };
    else if (open !== undefined && line === "```") {
      blocks.push({ line: open.line, source: open.source.join("\n") });
      open = undefined;
    } else open?.source.push(line);
  }
  return blocks;
}

/** The `// <text>` comments ending the block's console.log lines, in order. */
function expectedLines(source) {
  return source
    .split("\n")
    .filter((line) => line.includes("console.log("))
    .map((line) => / \/\/ (.*)$/.exec(line)?.[1])
    .filter((text) => text !== undefined);
}

/** Whether a printed line is what a comment said: equal, or starting with the text before "...". */
function matches(printed, expected) {
  return expected.endsWith("...") ? printed.startsWith(expected.slice(0, -3)) : printed === expected;
}

const pages = readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md"));
const examples = pages.flatMap((page) =>
  jsBlocks(readFileSync(join(root, "docs", page), "utf8")).map((block) => ({ name: `docs/${page}:${block.line}`, ...block })),
);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("docs/*.md examples", () => {
  it("there are examples to run", () => {
    expect(examples.length).toBeGreaterThan(0);
  });

  it.each(examples)("$name runs and prints what its comments say", ({ name, source }) => {
    mkdirSync(scratch, { recursive: true });
    const file = join(scratch, `${name.replaceAll(/[/:.]/g, "_")}.mjs`);
    writeFileSync(file, source);
    const run = spawnSync(process.execPath, [file], { encoding: "utf8", timeout: 30_000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const printed = run.stdout.split("\n").filter((line) => line !== "");
    const expected = expectedLines(source);
    expect(printed.length).toBe(expected.length);
    for (const [i, line] of printed.entries()) expect(matches(line, expected[i]), `line ${i + 1}: ${line}`).toBe(true);
  });
});

describe("the example checker", () => {
  it("reads blocks, expected comments and the '...' prefix rule", () => {
    const blocks = jsBlocks(["text", "```js", 'console.log("a"); // a', "```", "```sh", "echo", "```"].join("\n"));
    expect(blocks).toEqual([{ line: 2, source: 'console.log("a"); // a' }]);
    expect(expectedLines('console.log(1); // 1\n// not a log\nconsole.log(2);\nx(); // other')).toEqual(["1"]);
    expect(matches("[X] long message", "[X] long ...")).toBe(true);
    expect(matches("[X] long message", "[X] other ...")).toBe(false);
    expect(matches("1 4096", "1 4096")).toBe(true);
    expect(matches("1 4096 ", "1 4096")).toBe(false);
  });
});

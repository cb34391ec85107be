/**
 * The README's quick start runs as written: its `js` block is extracted, pointed at this
 * package's source (so the test needs no build of it), and imported. The block asserts its own
 * claims (node:assert), so a README that drifts from the API fails here.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));

/** The first ```js block after `heading` in the README. */
function codeBlockAfter(markdown: string, heading: string): string {
  const from = markdown.indexOf(heading);
  const block = /```js\n([\s\S]*?)```/.exec(markdown.slice(from));
  if (from < 0 || block === null) throw new Error(`README.md has no js block after ${JSON.stringify(heading)}`);
  return block[1] as string;
}

describe("README", () => {
  it("the quick start runs: the item is read, verified and released, and the producer's pin ends", async () => {
    const code = codeBlockAfter(readFileSync(join(here, "../README.md"), "utf8"), "## Quick start");
    const source = pathToFileURL(join(here, "index.ts")).href;
    expect(code).toContain('from "@ectp/core"');
    const out = join(here, "../.ectp-out");
    mkdirSync(out, { recursive: true });
    const file = join(out, "readme-quick-start.mjs");
    writeFileSync(file, code.replace('from "@ectp/core"', `from ${JSON.stringify(source)}`));
    await import(pathToFileURL(file).href);
  });
});

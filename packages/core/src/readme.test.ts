/**
 * The READMEs' quick starts run as written: each `js` block is extracted and imported. This
 * package's block is pointed at its source (no build of it needed); @ectp/protocol's imports
 * that package's build, as a user's would. The blocks assert their own claims (node:assert), so
 * a README that drifts from the API fails here.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

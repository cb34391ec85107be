/**
 * The README's "With the real cores", "In real time" and "With a router" examples run as written: each ```ts block is extracted, its
 * import of this package pointed at the source (no build of it needed; @ectp/core and
 * @ectp/protocol come from their builds, as a user's would), and imported. Each block asserts its
 * own claims (the item ends `ready` with the producer's bytes; the router's view follows the
 * store), so an example that drifts from the API, or that reads from or into memory the transport
 * does not know, fails here.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));

/** The first ```ts block after `heading` in this package's README. */
function readmeBlock(heading: string): string {
  const markdown = readFileSync(join(here, "../README.md"), "utf8");
  const from = markdown.indexOf(heading);
  const block = /```ts\n([\s\S]*?)```/.exec(markdown.slice(from));
  if (from < 0 || block === null) throw new Error(`README.md has no ts block after "${heading}"`);
  return block[1] as string;
}

/** Imports `code` with its import of this package pointed at the source; the file is removed after. */
async function runBlock(code: string, name: string): Promise<void> {
  const source = JSON.stringify(pathToFileURL(join(here, "index.ts")).href);
  const out = join(here, "../.ectp-out");
  mkdirSync(out, { recursive: true });
  const file = join(out, `readme-${name}.ts`);
  writeFileSync(file, code.replace('from "@ectp/transport-mock"', `from ${source}`));
  try {
    await import(pathToFileURL(file).href);
  } finally {
    rmSync(file, { force: true });
  }
}

describe("README", () => {
  it('"With the real cores": a ProducerCore and a ConsumerCore load an item byte-exactly through two Drivers', async () => {
    const code = readmeBlock("### With the real cores");
    // Complete, and checking what it claims (a block that stops asserting would pass vacuously).
    for (const text of ['from "@ectp/core"', 'from "@ectp/protocol"', 'from "@ectp/transport-mock"', "new Driver(", "assert.deepEqual("]) {
      expect(code).toContain(text);
    }
    await runBlock(code, "with-the-real-cores");
  });

  it('"In real time": two Drivers run their real-time loops while an engine loop admits, wakes and drains until the item is ready', async () => {
    const code = readmeBlock("### In real time");
    for (const text of [".run()", ".wake()", "drainFailed()", ".close()", "assert.deepEqual("]) expect(code).toContain(text);
    await runBlock(code, "in-real-time");
  });

  it('"With a router": an EventSubscriber syncs, follows an eviction [E1], and its view makes the producer\'s announcement', async () => {
    const code = readmeBlock("### With a router");
    for (const text of ["new EventSubscriber(", "subscriber.follow(", "runOnVirtualTime(", "assert.deepEqual("]) expect(code).toContain(text);
    // The router's Driver logs: why a connection to a producer failed reaches only its logger.
    expect(code).toMatch(/new Driver\(\{[^}]*subscriber, logger: /);
    await runBlock(code, "with-a-router");
  });
});

// Runs without NIXL: a JavaScript stand-in for the addon (test/fake-addon.cjs) shows which engines
// the process-exit hook stops.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));

describe("NixlTransport at process exit", () => {
  // Mutant: no exit hook (process.exit() skipped the addon's teardown, and under AddressSanitizer a
  // stand-in NIXL showed the engine thread reading freed memory while the process exited).
  it("process.exit() stops the engine of every transport not closed, and of no closed one", () => {
    const r = spawnSync(process.execPath, [join(here, "test", "exit-child.mjs")], { encoding: "utf8", timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n")).toEqual(["created left-open and closed-first", "stopEngine left-open"]);
  });
});

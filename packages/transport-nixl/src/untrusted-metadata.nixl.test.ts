/**
 * [I1] Peer bytes NIXL itself would crash on (a segfault or abort inside loadRemoteMD, killing
 * the engine) are refused by the addon before NIXL sees them: a location whose section has a
 * damaged field, and connection metadata of another shape than an agent's. Run in a child
 * process so that a crash fails the test instead of ending the runner. Skipped, with the reason
 * in the title, when the addon is not built.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { NIXL_MISSING, NIXL_SKIP_REASON } from "./test/helpers.js";

const child = fileURLToPath(new URL("./test/damaged-metadata-child.mjs", import.meta.url));

describe.skipIf(NIXL_MISSING)(`NixlTransport with damaged peer metadata${NIXL_SKIP_REASON}`, () => {
  it("[I1] a damaged section is refused (the read fails, the process lives, the peer's metadata stays), and a section passed as connection metadata is refused", () => {
    const run = spawnSync(process.execPath, [child], { encoding: "utf8", timeout: 60_000 });
    expect({ status: run.status, signal: run.signal, stderr: run.status === 0 ? "" : run.stderr.slice(-2000) }).toEqual({
      status: 0,
      signal: null,
      stderr: "",
    });
    const got = JSON.parse(run.stdout.trim().split("\n").pop() as string);
    expect(got).toEqual({
      damagedSection: "failed",
      intactAfter: "done",
      sectionAsMetadata: expect.stringMatching(/^INVALID_ARGUMENT: .*the metadata is not an ECTP NIXL agent.s/),
    });
  }, 90_000);
});

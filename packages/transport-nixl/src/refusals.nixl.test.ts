/**
 * The addon's paths for a NIXL that refuses a call, run on a healthy NIXL under a test-only
 * LD_PRELOAD library (native/nixl/probe/refusing_shim.cpp, built with the addon) in child processes
 * (test/refusal-child.mjs). Each failed on the addon before its fix (review of 2026-12-07): an orphan
 * made by a refused release was never signalled, so the read kept Node alive for good; a
 * registration NIXL refused to undo after a failed registerMemory was shared, with an empty section,
 * by the next registration of its range, whose reads then failed NOT_FOUND.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DIST_MISSING, NIXL_MISSING, NIXL_SKIP_REASON } from "./test/helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const shim = join(here, "../../../native/nixl/build/Release/librefusing_shim.so");
const SHIM_MISSING = !existsSync(shim);
const skip = NIXL_MISSING || DIST_MISSING || SHIM_MISSING;
const reason = NIXL_MISSING ? NIXL_SKIP_REASON : DIST_MISSING ? " [skipped: run npx tsup in packages/transport-nixl first]" : SHIM_MISSING ? " [skipped: the refusing shim is not built (node native/nixl/scripts/build.mjs without --no-probe)]" : "";

/** Run test/refusal-child.mjs in `mode` under the shim; its exit status and its JSON line. */
function child(mode: "release" | "register") {
  const dir = mkdtempSync(join(tmpdir(), "ectp-refusals-"));
  try {
    const r = spawnSync(process.execPath, [join(here, "test/refusal-child.mjs"), mode], {
      encoding: "utf8",
      timeout: 30_000,
      env: { ...process.env, LD_PRELOAD: shim, ECTP_NIXL_REFUSE_DIR: dir },
    });
    const line = r.stdout.trim().split("\n").pop() ?? "";
    return { status: r.status, signal: r.signal, out: line.startsWith("{") ? JSON.parse(line) : line, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(skip)(`NIXL refusing a call${reason}`, () => {
  it("[I5] a release NIXL refuses orphans the transfer, unreported; the orphan does not keep Node alive", () => {
    const r = child("release");
    // Before, the child never exited (killed at the 30 s timeout: status null).
    expect({ status: r.status, signal: r.signal }).toEqual({ status: 0, signal: null });
    expect(r.out).toEqual({ orphaned: 1, releasesRefused: 1, reported: 0 });
  }, 60_000);

  it("[I5] a registration NIXL refuses to undo after a failed registerMemory serves the next registration of its range", () => {
    const r = child("register");
    expect(r.status).toBe(0);
    // Before, the read failed NOT_FOUND (the range was shared with an empty section) and the registration stayed.
    expect(r.out).toEqual({ threw: expect.any(String), kept: 1, read: "done", after: 0 });
  }, 60_000);
});

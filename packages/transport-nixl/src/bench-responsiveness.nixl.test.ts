/**
 * bench/responsiveness.mjs runs to its end where NIXL is (a short run; its figures are not read:
 * performance is the benchmark's to report, never a test's).
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DIST_MISSING, NIXL_MISSING, NIXL_SKIP_REASON } from "./test/helpers.js";

const bench = join(dirname(fileURLToPath(import.meta.url)), "../bench/responsiveness.mjs");
const reason = NIXL_MISSING ? NIXL_SKIP_REASON : DIST_MISSING ? " [skipped: run npx tsup in packages/transport-nixl first]" : "";

describe.skipIf(NIXL_MISSING || DIST_MISSING)(`bench/responsiveness.mjs${reason}`, () => {
  it("a short run prints both tables, one row of figures each, and exits 0", () => {
    const r = spawnSync(process.execPath, [bench, "--rounds", "1", "--large-mib", "4", "--small", "3", "--window-ms", "50"], {
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout.split("\n").filter((l) => /^\| [0-9]/.test(l));
    expect(rows).toHaveLength(2);
    expect(rows[0]?.split("|").filter((c) => c.trim() !== "")).toHaveLength(6); // large READ, idle p50 / slowest, beside p50 / slowest, share
    expect(rows[1]?.split("|").filter((c) => c.trim() !== "")).toHaveLength(3); // pings asleep, streaming, ratio
    expect(r.stdout).toContain("1. 4 KiB startRead calls");
    expect(r.stdout).toContain("2. progress pings per second");
  }, 180_000);
});

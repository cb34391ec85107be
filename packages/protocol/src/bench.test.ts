/**
 * The benchmark behind `npm run bench` keeps running: bench/crc32c.mjs, with one repetition,
 * runs against the built package (dist/, as `npm run bench` does) and prints its table; a flag
 * it does not take is refused before anything is measured. Nothing here times anything.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** How long a benchmark may run before it counts as hung (a guard, not a timing); its tests get a little more. */
const HANG_GUARD_MS = 240_000;
const TEST_LIMIT_MS = HANG_GUARD_MS + 30_000;

const here = dirname(fileURLToPath(import.meta.url));
const bench = join(here, "../bench/crc32c.mjs");
const built = join(here, "../dist/index.js");

/** Run the benchmark with `flags`; its exit status and output. */
function run(flags: string[]) {
  const r = spawnSync(process.execPath, [bench, ...flags], { encoding: "utf8", timeout: HANG_GUARD_MS });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("bench/crc32c.mjs", { timeout: TEST_LIMIT_MS }, () => {
  it("runs against the built package: dist/index.js is there (npm run build first)", () => {
    expect(existsSync(built), `${built} is missing: run \`npm run build\` before these tests`).toBe(true);
  });

  it("prints GB/s and the ratio to the bytewise baseline for every size", () => {
    const r = run(["--reps", "1"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("1 repetitions");
    for (const size of ["64 B", "4 KiB", "64 KiB", "1 MiB", "16 MiB"]) expect(r.stdout).toMatch(new RegExp(`^\\| ${size} \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+x \\|$`, "m"));
  });

  it.each([
    [["--bogus"], "Unknown option '--bogus'"],
    [["--reps", "x"], '--reps must be an integer in [1, 1000]; got "x"'],
    [["--reps", "0"], '--reps must be an integer in [1, 1000]; got "0"'],
    [["7"], "Unexpected argument '7'"],
  ])("%j is refused: %s", (flags, problem) => {
    const r = run(flags);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`bench: ${problem}`);
    expect(r.stderr).toContain("usage: node bench/crc32c.mjs");
    expect(r.stdout).toBe("");
  });
});

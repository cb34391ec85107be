/**
 * The benchmark behind `npm run bench` keeps running: bench/run.mjs, shortened (one run of the
 * default workload each way, a sweep of four seeds, no RSS part), runs against the built
 * package as `npm run bench` does and prints its lines; a flag or value it does not take is
 * refused before anything is measured. Nothing here times anything.
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
const bench = join(here, "../bench/run.mjs");
const built = join(here, "../dist/index.js");

/** Run the benchmark with `flags`; its exit status and output. */
function run(flags: string[]) {
  const r = spawnSync(process.execPath, [bench, ...flags], { encoding: "utf8", timeout: HANG_GUARD_MS });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("simulator bench/run.mjs", { timeout: TEST_LIMIT_MS }, () => {
  it("runs against the built package: dist/index.js is there (npm run build first)", () => {
    expect(existsSync(built), `${built} is missing: run \`npm run build\` before these tests`).toBe(true);
  });

  it("prints the default workload's figures, its baseline and the sweep's rate", () => {
    const r = run(["--reps", "1", "--sweep-runs", "4", "--skip-rss"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/default workload, light faults \(1 runs\): wall best \d+ ms.*violations 0, event-log hash [0-9a-f]{16} \(same in every run\)/);
    expect(r.stdout).toMatch(/baseline, the same runs under V8's default flags: .* median wall with the flags \/ without: [0-9.]+x/);
    expect(r.stdout).toMatch(/sweep of 4 runs \(1 per preset, CI shape, one process\): [0-9.]+ seeds\/s .* violations 0/);
    expect(r.stdout).not.toContain("peak RSS");
  });

  it.each([
    [["--bogus"], "Unknown option '--bogus'"],
    [["--reps", "x"], '--reps must be an integer in [1, 100]; got "x"'],
    [["--reps", "0"], '--reps must be an integer in [1, 100]; got "0"'],
    [["--sweep-runs", "2"], '--sweep-runs must be an integer in [4, 100000]; got "2"'],
    [["--sweep-runs", "6"], "--sweep-runs must be a multiple of 4 (the four presets run in equal shares); got 6"],
    [["3"], "Unexpected argument '3'"],
  ])("%j is refused: %s", (flags, problem) => {
    const r = run(flags);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`bench: ${problem}`);
    expect(r.stderr).toContain("usage: node bench/run.mjs");
    expect(r.stdout).toBe("");
  });
});

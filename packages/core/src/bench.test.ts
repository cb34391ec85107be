/**
 * The benchmarks behind `npm run bench` keep running: each one, shortened, runs against the
 * built package (dist/, as `npm run bench` does) and prints its figures; a value its options do
 * not take is refused before anything is measured. Nothing here times anything: the figures of
 * such short runs mean nothing and are not read.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** How long a benchmark may run before it counts as hung (a guard, not a timing); its tests get a little more. */
const HANG_GUARD_MS = 240_000;
const TEST_LIMIT_MS = HANG_GUARD_MS + 30_000;

const benchDir = join(dirname(fileURLToPath(import.meta.url)), "../bench");

/** Run bench/`file` with `env` added (and `args`); its exit status and output. */
function bench(file: string, env: Record<string, string>, args: string[] = []) {
  const r = spawnSync(process.execPath, [join(benchDir, file), ...args], {
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: HANG_GUARD_MS,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const SHORT = { BENCH_SCALE: "0.02", BENCH_REPS: "1", BENCH_ADMIT_RUNS: "1" };
const built = join(benchDir, "../dist/index.js");

describe("core benchmarks (shortened runs)", { timeout: TEST_LIMIT_MS }, () => {
  it("run against the built package: dist/index.js is there (npm run build first)", () => {
    expect(existsSync(built), `${built} is missing: run \`npm run build\` before these tests`).toBe(true);
  });

  it("run.mjs prints all three parts with their targets", () => {
    const r = bench("run.mjs", SHORT);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("(1) Full item lifecycles");
    expect(r.stdout).toMatch(/objects \(handleEnvelope\) .* >= 1,000,000 (MET|NOT MET)/);
    expect(r.stdout).toContain("baseline: bare bookkeeping");
    expect(r.stdout).toContain("(2) Admission cost");
    expect(r.stdout).toMatch(/^ +100,000 /m);
    expect(r.stdout).toMatch(/target <= 1\.5x \(wall medians, both kinds\): (MET|NOT MET)/);
    expect(r.stdout).toContain("(3) Where a lifecycle's time goes");
  });

  it("run.mjs runs only the parts BENCH_PARTS names", () => {
    const r = bench("run.mjs", { ...SHORT, BENCH_PARTS: "3" });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("(3) Where a lifecycle's time goes");
    expect(r.stdout).not.toContain("(1) Full item lifecycles");
    expect(r.stdout).not.toContain("(2) Admission cost");
  });

  it("consumer.mjs and producer.mjs measure a baseline build beside this one", () => {
    const consumer = bench("consumer.mjs", { ...SHORT, BENCH_BASELINE: built });
    expect(consumer.status).toBe(0);
    expect(consumer.stdout).toContain("ConsumerCore (this build)");
    expect(consumer.stdout).toContain("baseline / current (net medians)");
    const producer = bench("producer.mjs", { ...SHORT, BENCH_BASELINE: built, BENCH_WIRE: "0" });
    expect(producer.status).toBe(0);
    expect(producer.stdout).toContain("speed-up on the object path");
    expect(producer.stdout).not.toContain(" wire ");
  });

  it.each([
    ["run.mjs", { BENCH_REPS: "ten" }, 'BENCH_REPS must be an integer in [1, 1000]; got "ten"'],
    ["run.mjs", { BENCH_SCALE: "0" }, 'BENCH_SCALE must be a number in (0, 100]; got "0"'],
    ["run.mjs", { BENCH_SCALE: "1e3" }, 'BENCH_SCALE must be a number in (0, 100]; got "1e3"'],
    ["run.mjs", { BENCH_PARTS: "4" }, 'BENCH_PARTS must be the parts to run, digits 1 to 3 (e.g. 13); got "4"'],
    ["run.mjs", { BENCH_ADMIT_RUNS: "0" }, 'BENCH_ADMIT_RUNS must be an integer in [1, 100]; got "0"'],
    ["run.mjs", { BENCH_BASELINE: "/no/such/build.js" }, 'BENCH_BASELINE must be the path of an ESM build of @ectp/core'],
    ["consumer.mjs", { BENCH_REPS: "-1" }, 'BENCH_REPS must be an integer in [1, 1000]; got "-1"'],
    ["producer.mjs", { BENCH_WIRE: "yes" }, 'BENCH_WIRE must be 0 or 1; got "yes"'],
  ])("%s refuses %j", (file, env, problem) => {
    const r = bench(file, env);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`bench: ${problem}`);
    expect(r.stdout).toBe("");
  });

  it.each(["run.mjs", "consumer.mjs", "producer.mjs"])("%s refuses a BENCH_* variable no benchmark reads (BENCH_REP ran with the defaults)", (file) => {
    const r = bench(file, { ...SHORT, BENCH_REP: "3" });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "bench: BENCH_REP is not an option of the core benchmarks (did you mean BENCH_REPS?); they take BENCH_SCALE, BENCH_REPS, BENCH_PARTS, BENCH_ADMIT_RUNS, BENCH_BASELINE, BENCH_WIRE\n",
    );
    expect(r.stdout).toBe("");
  });

  it.each(["run.mjs", "consumer.mjs", "producer.mjs"])("%s refuses a command-line argument (its options are environment variables)", (file) => {
    const r = bench(file, SHORT, ["--reps", "3"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'bench: takes no command-line arguments, its options are BENCH_* environment variables (e.g. BENCH_SCALE=0.2 BENCH_REPS=3); got "--reps 3"\n',
    );
    expect(r.stdout).toBe("");
  });
});

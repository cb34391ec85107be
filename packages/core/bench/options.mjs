// The environment options of the core benchmarks (run.mjs, consumer.mjs, producer.mjs), read and
// checked in one place. A value an option does not take stops the benchmark before it measures
// anything: exit status 2 and one line on stderr naming the variable, what it takes and what it
// got, rather than a run with a default nobody asked for (BENCH_REPS=ten used to run 5 quietly).
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { closestName } from "@ectp/protocol";

/**
 * Every BENCH_* variable of the three benchmarks (`npm run bench` runs them all with one
 * environment, so each takes the others' too). The BENCH_CHILD_* ones are set by run.mjs for its
 * part-2 children, not by hand.
 */
const OPTIONS = ["BENCH_SCALE", "BENCH_REPS", "BENCH_PARTS", "BENCH_ADMIT_RUNS", "BENCH_BASELINE", "BENCH_WIRE"];
const CHILD_VARIABLES = ["BENCH_CHILD_LIB", "BENCH_CHILD_ADMIT", "BENCH_CHILD_MEASURED"];

/** Stop with the usage error of variable `name`. */
function refuse(name, takes, got) {
  process.stderr.write(`bench: ${name} must be ${takes}; got ${JSON.stringify(got)}\n`);
  process.exit(2);
}

/** The variable's text, or undefined when unset or empty. */
function raw(name) {
  const v = process.env[name];
  return v === undefined || v === "" ? undefined : v;
}

/**
 * Stop with a usage error when the benchmark was given command-line arguments: its options are the
 * BENCH_* environment variables, and an argument such as `--reps 3` would otherwise be ignored.
 */
export function refuseArguments() {
  const args = process.argv.slice(2);
  if (args.length === 0) return;
  process.stderr.write(`bench: takes no command-line arguments, its options are BENCH_* environment variables (e.g. BENCH_SCALE=0.2 BENCH_REPS=3); got ${JSON.stringify(args.join(" "))}\n`);
  process.exit(2);
}

/**
 * Stop with a usage error when a BENCH_* variable is set that no benchmark reads: a misspelt option
 * (BENCH_REP=3) would otherwise run with the defaults without a word.
 */
export function refuseUnknownVariables() {
  const known = new Set([...OPTIONS, ...CHILD_VARIABLES]);
  for (const name of Object.keys(process.env).sort()) {
    if (!name.startsWith("BENCH_") || known.has(name)) continue;
    const meant = closestName(name, OPTIONS, 3);
    process.stderr.write(
      `bench: ${name} is not an option of the core benchmarks${meant === undefined ? "" : ` (did you mean ${meant}?)`}; they take ${OPTIONS.join(", ")}\n`,
    );
    process.exit(2);
  }
}

/** An integer variable in [min, max], or `fallback` when unset. */
export function intOption(name, fallback, min, max) {
  const v = raw(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!/^[0-9]+$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max) refuse(name, `an integer in [${min}, ${max}]`, v);
  return n;
}

/** BENCH_SCALE: a factor on every run's length (0.2 shortens them for a smoke run), 1 when unset. */
export function scaleOption() {
  const v = raw("BENCH_SCALE");
  if (v === undefined) return 1;
  const n = Number(v);
  if (!/^[0-9]*\.?[0-9]+$/.test(v) || !(n > 0) || n > 100) refuse("BENCH_SCALE", "a number in (0, 100]", v);
  return n;
}

/** A variable taking 0 or 1, `fallback` when unset. */
export function switchOption(name, fallback) {
  const v = raw(name);
  if (v === undefined) return fallback;
  if (v !== "0" && v !== "1") refuse(name, "0 or 1", v);
  return v === "1";
}

/** BENCH_PARTS of run.mjs: which of its parts 1, 2 and 3 to run (e.g. 13), all when unset. */
export function partsOption() {
  const v = raw("BENCH_PARTS");
  if (v === undefined) return "123";
  if (!/^[123]+$/.test(v)) refuse("BENCH_PARTS", "the parts to run, digits 1 to 3 (e.g. 13)", v);
  return v;
}

/**
 * BENCH_BASELINE: another build of @ectp/core to measure beside this one, as a file URL (what
 * `import()` takes), or undefined when unset. A relative path is taken from the working directory.
 */
export function baselineOption() {
  const v = raw("BENCH_BASELINE");
  if (v === undefined) return undefined;
  const path = resolve(v);
  if (!existsSync(path)) refuse("BENCH_BASELINE", "the path of an ESM build of @ectp/core (e.g. an older dist/index.js)", v);
  return pathToFileURL(path).href;
}

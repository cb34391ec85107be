// The command-line flags of the NIXL benchmarks (run.mjs, verify.mjs), checked in one place: a flag
// or value a benchmark does not take stops it before it measures anything, with exit status 2 and
// one line naming the problem, then its usage line.
import { parseArgs } from "node:util";

/**
 * Parse `process.argv` strictly against `options` (as node:util's parseArgs takes them).
 * @returns `values` (the flags given), `usageError(problem)` (print it and the usage, exit 2) and
 *   `intFlag(raw, name, fallback, min, max)` (the integer `raw` in [min, max], `fallback` when absent).
 */
export function benchFlags(usage, options) {
  const usageError = (problem) => {
    console.error(`bench: ${problem}\n${usage}`);
    process.exit(2);
  };
  let values;
  try {
    values = parseArgs({ args: process.argv.slice(2), strict: true, options }).values;
  } catch (e) {
    usageError(e.message);
  }
  const intFlag = (raw, name, fallback, min, max) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isInteger(n) || n < min || n > max) usageError(`--${name} must be an integer in [${min}, ${max}]; got ${JSON.stringify(raw)}`);
    return n;
  };
  return { values, usageError, intFlag };
}

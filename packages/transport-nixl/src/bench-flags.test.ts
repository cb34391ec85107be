/**
 * Always runs (no NIXL needed): bench/run.mjs, bench/verify.mjs and bench/responsiveness.mjs
 * refuse a bad flag or value before they look for NIXL, naming the problem and the usage, with
 * exit status 2.
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const benchDir = join(dirname(fileURLToPath(import.meta.url)), "../bench");

/** Per script: flags it refuses, each with the problem it names. */
const REFUSED: [string, [string[], string][]][] = [
  [
    "run.mjs",
    [
      [["--bogus"], "Unknown option '--bogus'"],
      [["--rounds", "x"], '--rounds must be an integer in [1, 1000]; got "x"'],
      [["--rounds", "0"], '--rounds must be an integer in [1, 1000]; got "0"'],
      [["--depth", "65"], '--depth must be an integer in [1, 64]; got "65"'],
      [["--sizes", "4096,abc"], '--sizes must be an integer in [1, 1073741824]; got "abc"'],
      [["--sizes", "4096,"], '--sizes must be an integer in [1, 1073741824]; got ""'],
      [["--wait-spin-us=-1"], '--wait-spin-us must be an integer in [0, 10000000]; got "-1"'],
      [["--cpu", "first"], '--cpu takes a CPU list such as 1, 0,1 or 0-1 (as taskset -c does); got "first"'],
      [["--cpu", "3-1"], '--cpu takes a CPU list such as 1, 0,1 or 0-1 (as taskset -c does); got "3-1"'],
    ],
  ],
  [
    "verify.mjs",
    [
      [["--bogus"], "Unknown option '--bogus'"],
      [["--sizes", "abc"], '--sizes must be an integer in [1, 1073741824]; got "abc"'],
      [["--reps", "2"], '--reps must be an integer in [3, 100000]; got "2"'],
      [["--reps"], "Option '--reps <value>' argument missing"],
    ],
  ],
  [
    "responsiveness.mjs",
    [
      [["--bogus"], "Unknown option '--bogus'"],
      [["--rounds", "0"], '--rounds must be an integer in [1, 100]; got "0"'],
      [["--large-mib", "2048"], '--large-mib must be an integer in [1, 1024]; got "2048"'],
      [["--small", "1.5"], '--small must be an integer in [1, 100000]; got "1.5"'],
      [["--window-ms", "10"], '--window-ms must be an integer in [50, 60000]; got "10"'],
    ],
  ],
];

describe.each(REFUSED)("bench/%s flags", (script, refused) => {
  it.each(refused)("%j is refused: %s", (flags, problem) => {
    const r = spawnSync(process.execPath, [join(benchDir, script), ...flags], { encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`bench: ${problem}`);
    expect(r.stderr).toContain(`usage: node bench/${script}`);
  });
});

#!/usr/bin/env node
// CI sweep: >= 1,000 seeded runs across the fault presets, zero violations required.
// Each preset runs in its own child process, two at a time (CI has 2 cores).
// Usage: node scripts/sweep.mjs [runsPerPreset=250] [firstSeed=1]
// Exit status: 0 no violation, 1 violations found, 2 a usage error, 70 a preset's child failed:
// exited with another status (its error is printed above, by the child) or was killed by a signal;
// the other preset's child, if one is running, is stopped first.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

// A smaller deployment than the default so 1,000 runs take about a minute: enough
// requests per run to share items, crash and cancel under the heavier presets.
const SHAPE = { producers: 2, consumers: 2, concurrency: 16, requests: 40, budgetMs: 10_000 };
const PRESETS = ["none", "light", "heavy", "chaos"];
/**
 * Per preset, what it changes in SHAPE. In this shape a run moves ~100 items of ~10 MB, so stores of
 * the default 4 GiB (1 GiB under heavy's memory pressure) never fill: heavy runs with stores of 1 GiB
 * nominal (256 MiB under pressure), which evict (~10,000 evictions over its 250 seeds, as chaos's),
 * so [P6] eviction and [I3] under a held grant are swept with heavy's fault mix too.
 */
const PRESET_SHAPE = { heavy: { producerCapacityBytes: 2 ** 30 } };

if (process.argv[2] === "--child") {
  const { runSweep } = await import("@ectp/simulator");
  const [, , , faults, runs, seed] = process.argv;
  const s = await runSweep({ ...SHAPE, ...PRESET_SHAPE[faults], faults, runs: Number(runs), seed: Number(seed) });
  process.stdout.write(`${JSON.stringify(s)}\n`);
  process.exit(0);
}

/** A whole-number argument in [min, max], or a usage message and exit status 2. */
function intArg(index, name, fallback, min, max) {
  const text = process.argv[index];
  if (text === undefined) return fallback;
  const v = Number(text);
  if (/^-?\d+$/.test(text) && Number.isSafeInteger(v) && v >= min && v <= max) return v;
  usageError(`${name} must be an integer from ${min} to ${max}; got ${JSON.stringify(text)}`);
}
/** Print `problem` and the usage, and exit with status 2. */
function usageError(problem) {
  process.stderr.write(`sweep: ${problem}\nUsage: node scripts/sweep.mjs [runsPerPreset=250] [firstSeed=1]\n`);
  process.exit(2);
}
if (process.argv.length > 4) usageError(`at most two arguments; got ${process.argv.length - 2}`);
const runs = intArg(2, "runsPerPreset", 250, 1, 100_000);
const seed = intArg(3, "firstSeed", 1, -(2 ** 31), 2 ** 31 - 1);
// Every preset runs seeds firstSeed .. firstSeed + runs - 1, and a seed is an int32: checked here,
// before any child starts (runSweep checks it too, but in each child, as an error with a stack).
if (seed + runs - 1 > 2 ** 31 - 1)
  usageError(`the last seed, firstSeed + runsPerPreset - 1 = ${seed + runs - 1}, must be at most ${2 ** 31 - 1}; lower firstSeed or runsPerPreset`);
const start = performance.now();
const self = fileURLToPath(import.meta.url);
const results = [];
const queue = [...PRESETS];
/** Children still running: stopped when another fails, so none runs on after this script exits. */
const running = new Set();
async function worker() {
  for (let faults = queue.shift(); faults; faults = queue.shift()) {
    const out = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [self, "--child", faults, String(runs), String(seed)], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      running.add(child);
      let text = "";
      child.stdout.on("data", (d) => {
        text += d;
      });
      child.on("exit", (code, signal) => {
        running.delete(child);
        if (code === 0) resolve(text);
        else reject(new Error(`sweep of ${faults} ${code === null ? `was killed by ${signal}` : `exited ${code}`}`));
      });
    });
    const s = JSON.parse(out);
    results.push(s);
    const r = s.requests;
    console.log(
      `${faults.padEnd(6)} ${s.runs} runs  ${(s.wallTimeMs / 1000).toFixed(1)} s  ${s.seedsPerSecond.toFixed(1)} seeds/s  ` +
        `requests ${r.total} (remote ${r.succeededRemote}, fell back ${r.fellBackLocal}, failed ${r.failed}, cancelled ${r.cancelled}, lost with a crashed consumer ${r.lostInCrash})  ` +
        `evictions ${s.storeEvents.evictions}  violations ${s.violations}  hash ${s.hash}`,
    );
    for (const f of s.failingSeeds.slice(0, 5)) console.log(`  seed ${f.seed}: ${f.first}\n    reproduce: ${f.reproduce}`);
  }
}
try {
  await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, worker));
} catch (error) {
  // Not "violations found" (1): the sweep did not finish, so it says nothing about violations.
  process.stderr.write(`sweep: ${error.message}; the sweep is incomplete\n`);
  for (const child of running) child.kill();
  process.exit(70);
}
const total = results.reduce((n, s) => n + s.runs, 0);
const violations = results.reduce((n, s) => n + s.violations, 0);
console.log(`sweep: ${total} runs, ${violations} violations, ${((performance.now() - start) / 1000).toFixed(1)} s wall`);
process.exit(violations > 0 ? 1 : 0);

#!/usr/bin/env node
// Simulator benchmarks (measured, never asserted in tests):
//  1. wall and CPU time (process.cpuUsage: user + system of every thread, so GC and JIT
//     threads count; on a shared machine it is the steadier number) of the default
//     workload (6,000 requests, 4 + 4 instances, concurrency 96) with light faults, best
//     and median of --reps runs (default 3), each in a fresh child process (so every run
//     pays JIT warm-up, as `ectp simulate` does); the child's whole-process wall time
//     (module loading included) is shown too. As many runs under V8's default flags,
//     alternating with them, are the baseline: the ratio of medians shows what
//     SIMULATION_NODE_FLAGS buy;
//  2. seeds/s of a 1,000-run sweep (--sweep-runs N) on the CI sweep's shape
//     (scripts/sweep.mjs: 2 + 2 instances, concurrency 16, 40 requests, 10 s budget), split
//     evenly over the four fault presets and run in this process one after another (the CI
//     script runs two presets at a time in child processes; this is the one-core rate);
//  3. peak RSS of a 6,000- and a 60,000-request run, each in its own child process,
//     and their ratio (memory must not grow with completed requests: target <= 1.2x);
//     a 20,000-request run too, whose ratio to the 60,000-request one shows whether the
//     peak still grows once every bounded structure (stores, the producers' replay
//     buffers) has filled and V8's heap limit has adapted to the steady live set.
// Every measured child runs with SIMULATION_NODE_FLAGS, the flags the `ectp` executable
// starts Node with (its shebang), so the figures are those of `ectp simulate`. Part 3 also
// compares the 6,000/60,000 pair under V8's default flags (the 6,000-request figure from
// part 1's baseline runs; --skip-defaults leaves the 60,000-request run out).
// The load average is printed first: other work on the machine inflates wall times.
// Usage: node bench/run.mjs [--skip-rss] [--skip-defaults] [--skip-sweep] [--reps N] [--sweep-runs N]
// A flag or value it does not take is refused before anything is measured (exit status 2).
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const self = fileURLToPath(import.meta.url);

if (process.argv[2] === "--child") {
  const { runSimulation } = await import("@ectp/simulator");
  const requests = Number(process.argv[3]);
  const cpu0 = process.cpuUsage();
  const { summary } = await runSimulation({ faults: "light", requests, seed: 1 });
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const rssKb = process.resourceUsage().maxRSS;
  process.stdout.write(
    `${JSON.stringify({ requests, wallTimeMs: summary.wallTimeMs, processMs: performance.now(), cpuMs, hash: summary.eventLog.hash, rssKb, violations: summary.violations.count, throughputRps: summary.throughputRps, scale: summary.bytes.scale, nominalRead: summary.bytes.nominalRead, actualRead: summary.bytes.actualRead })}\n`,
  );
  process.exit(0);
}

/** One run of `requests` in a fresh child process, started with `flags` (default: the CLI's). */
function child(requests, flags = SIMULATION_NODE_FLAGS) {
  return JSON.parse(execFileSync(process.execPath, [...flags, self, "--child", String(requests)], { encoding: "utf8", maxBuffer: 1 << 20 }));
}

const USAGE = "usage: node bench/run.mjs [--skip-rss] [--skip-defaults] [--skip-sweep] [--reps N (1-100, default 3)] [--sweep-runs N (a multiple of 4, the presets, from 4 to 100000; default 1000)]";
/** Stop with a usage error naming `problem`. */
function refuse(problem) {
  process.stderr.write(`bench: ${problem}\n${USAGE}\n`);
  process.exit(2);
}
let flags;
try {
  flags = parseArgs({
    options: {
      reps: { type: "string" },
      "sweep-runs": { type: "string" },
      "skip-rss": { type: "boolean" },
      "skip-defaults": { type: "boolean" },
      "skip-sweep": { type: "boolean" },
    },
    strict: true,
    allowPositionals: false,
  }).values;
} catch (e) {
  refuse(e.message);
}
/** Flag `name`'s integer in [min, max], or `fallback` when not given. */
function option(name, fallback, min, max) {
  const v = flags[name];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!/^[0-9]+$/.test(v) || n < min || n > max) refuse(`--${name} must be an integer in [${min}, ${max}]; got ${JSON.stringify(v)}`);
  return n;
}
const reps = option("reps", 3, 1, 100);
const sweepRuns = option("sweep-runs", 1_000, 4, 100_000);
// The four presets run in equal shares, so that the sweep is exactly the runs asked for.
if (sweepRuns % 4 !== 0) refuse(`--sweep-runs must be a multiple of 4 (the four presets run in equal shares); got ${sweepRuns}`);

const { runSweep, SIMULATION_NODE_FLAGS } = await import("@ectp/simulator");
const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`;
const load = () => loadavg().map((l) => l.toFixed(2)).join(", ");

console.log(`load average ${load()} (cores are shared: wall times are inflated by other work)`);
console.log(`children run as \`ectp simulate\` does: node ${SIMULATION_NODE_FLAGS.join(" ")}`);
// Alternating with runs under V8's defaults (the baseline), so both see the same load.
const runs = [];
const baseline = [];
for (let i = 0; i < reps; i++) {
  runs.push(child(6_000));
  baseline.push(child(6_000, []));
}
const def = runs[0];
const sorted = (list, k) => list.map((r) => r[k]).sort((a, b) => a - b);
const median = (v) => v[Math.floor((v.length - 1) / 2)];
const stat = (k, list = runs) => {
  const v = sorted(list, k);
  return `best ${v[0].toFixed(0)} ms, median ${median(v).toFixed(0)} ms`;
};
/** The median peak RSS of `list`'s runs, and every run's figure. */
const rssOf = (list) => {
  const v = sorted(list, "rssKb");
  return { median: median(v), all: v };
};
console.log(
  `default workload, light faults (${reps} runs): wall ${stat("wallTimeMs")} (target <= 1000 ms); CPU ${stat("cpuMs")}; ` +
    `whole process ${stat("processMs")}; ` +
    `${def.throughputRps.toFixed(1)} req/s simulated, byte scale 1:${def.scale} ` +
    `(${(def.nominalRead / 1e9).toFixed(1)} GB nominal as ${(def.actualRead / 1e6).toFixed(1)} MB), violations ${def.violations}, ` +
    `event-log hash ${def.hash}${[...runs, ...baseline].every((r) => r.hash === def.hash) ? " (same in every run)" : " (DIFFERS between runs: determinism broken)"}`,
);
console.log(
  `baseline, the same runs under V8's default flags: wall ${stat("wallTimeMs", baseline)}; CPU ${stat("cpuMs", baseline)}; whole process ${stat("processMs", baseline)}; ` +
    `median wall with the flags / without: ${(median(sorted(runs, "wallTimeMs")) / median(sorted(baseline, "wallTimeMs"))).toFixed(2)}x`,
);

if (!flags["skip-sweep"]) {
  // The CI sweep's shape (scripts/sweep.mjs), the same four presets in equal shares.
  const SHAPE = { producers: 2, consumers: 2, concurrency: 16, requests: 40, budgetMs: 10_000 };
  const presets = ["none", "light", "heavy", "chaos"];
  const per = sweepRuns / presets.length;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let violations = 0;
  const parts = [];
  for (const faults of presets) {
    const s = await runSweep({ ...SHAPE, faults, runs: per, seed: 1 });
    violations += s.violations;
    parts.push(`${faults} ${s.seedsPerSecond.toFixed(1)}`);
  }
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const n = per * presets.length;
  console.log(
    `sweep of ${n} runs (${per} per preset, CI shape, one process): ${((n * 1000) / wall).toFixed(1)} seeds/s ` +
      `(${(wall / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU; seeds/s by preset: ${parts.join(", ")}), violations ${violations}`,
  );
}

if (!flags["skip-rss"]) {
  const mid = child(20_000);
  const big = child(60_000);
  // The 6,000-request figure is the median of the default runs above (each its own process).
  const small = rssOf(runs);
  const rss6 = small.median;
  console.log(
    `peak RSS: 6,000 requests ${mb(rss6)} (median; ${small.all.map(mb).join(", ")}); 60,000 requests ${mb(big.rssKb)} ` +
      `(${big.wallTimeMs.toFixed(0)} ms wall, ${big.cpuMs.toFixed(0)} ms CPU, hash ${big.hash}, violations ${big.violations})`,
  );
  console.log(`RSS ratio 60k/6k: ${(big.rssKb / rss6).toFixed(3)}x (target <= 1.2x)`);
  console.log(
    `steady state: 20,000 requests ${mb(mid.rssKb)}, ratio 60k/20k ${(big.rssKb / mid.rssKb).toFixed(3)}x (about 1.0 when nothing grows with completed requests)`,
  );
  if (!flags["skip-defaults"]) {
    const small0 = rssOf(baseline).median; // part 1's baseline runs
    const big0 = child(60_000, []);
    console.log(
      `with V8's default flags (informative): 6,000 requests ${mb(small0)} (median), 60,000 requests ${mb(big0.rssKb)}, ` +
        `ratio ${(big0.rssKb / small0).toFixed(3)}x (same live set; the heap grows further before each collection)`,
    );
  }
}
console.log(`load average at the end ${load()}`);

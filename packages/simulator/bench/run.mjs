#!/usr/bin/env node
// Simulator benchmarks (measured, never asserted in tests):
//  1. wall and CPU time (process.cpuUsage: user + system of every thread, so GC and JIT
//     threads count; on a shared machine it is the steadier number) of the default
//     workload (6,000 requests, 4 + 4 instances, concurrency 96) with light faults, best
//     and median of --reps runs (default 3), each in a fresh child process;
//  2. seeds/s of a --runs sweep on the CI sweep's smaller shape;
//  3. peak RSS of a 6,000- and a 60,000-request run, each in its own child process,
//     and their ratio (memory must not grow with completed requests: target <= 1.2x).
// Usage: node bench/run.mjs [--skip-rss] [--reps N]
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

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
    `${JSON.stringify({ requests, wallTimeMs: summary.wallTimeMs, cpuMs, hash: summary.eventLog.hash, rssKb, violations: summary.violations.count, throughputRps: summary.throughputRps, scale: summary.bytes.scale, nominalRead: summary.bytes.nominalRead, actualRead: summary.bytes.actualRead })}\n`,
  );
  process.exit(0);
}

function child(requests) {
  return JSON.parse(execFileSync(process.execPath, [self, "--child", String(requests)], { encoding: "utf8", maxBuffer: 1 << 20 }));
}

const { runSweep } = await import("@ectp/simulator");
const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`;

const repsAt = process.argv.indexOf("--reps");
const reps = Math.max(1, repsAt > 0 ? Number(process.argv[repsAt + 1]) || 3 : 3);
const runs = Array.from({ length: reps }, () => child(6_000));
const def = runs[0];
const stat = (k) => {
  const v = runs.map((r) => r[k]).sort((a, b) => a - b);
  return `best ${v[0].toFixed(0)} ms, median ${v[Math.floor((v.length - 1) / 2)].toFixed(0)} ms`;
};
console.log(
  `default workload, light faults (${reps} runs): wall ${stat("wallTimeMs")} (target <= 1000 ms); CPU ${stat("cpuMs")}; ` +
    `${def.throughputRps.toFixed(1)} req/s simulated, byte scale 1:${def.scale} ` +
    `(${(def.nominalRead / 1e9).toFixed(1)} GB nominal as ${(def.actualRead / 1e6).toFixed(1)} MB), violations ${def.violations}, ` +
    `event-log hash ${def.hash}${runs.every((r) => r.hash === def.hash) ? " (same in every run)" : " (DIFFERS between runs: determinism broken)"}`,
);

const sweep = await runSweep({ producers: 2, consumers: 2, concurrency: 16, requests: 40, budgetMs: 10_000, faults: "light", runs: 20, seed: 1 });
console.log(`sweep (20 runs, 40 requests each, light): ${sweep.seedsPerSecond.toFixed(2)} seeds/s, violations ${sweep.violations}`);

if (!process.argv.includes("--skip-rss")) {
  const big = child(60_000);
  console.log(`peak RSS: 6,000 requests ${mb(def.rssKb)}; 60,000 requests ${mb(big.rssKb)} (${big.wallTimeMs.toFixed(0)} ms wall, ${big.cpuMs.toFixed(0)} ms CPU)`);
  console.log(`RSS ratio 60k/6k: ${(big.rssKb / def.rssKb).toFixed(3)}x (target <= 1.2x)`);
}

#!/usr/bin/env node
/**
 * READ throughput and latency of NixlTransport vs the raw C++ NIXL probe vs memcpy.
 *
 * Both sides run as two processes on this machine through the same NIXL/UCX (defaults:
 * UCX_TLS=tcp,self,sm UCX_NET_DEVICES=lo). For each size the raw probe
 * (native/nixl/build/Release/raw_read) and NixlTransport do the same per-read work: one
 * createXferReq + postXferReq + completion + release per read, reads back to back, the
 * same number of repetitions (~1 GiB per size, 20..2000 reads). memcpy of the same size is
 * timed by the probe in the same run.
 *
 * Usage: node bench/run.mjs [--sizes 4096,1048576,...] [--json]
 * Needs: the addon and the probe built (NIXL_PREFIX=... node native/nixl/scripts/build.mjs)
 * and this package built (npx tsup).
 */
import { spawnSync, fork } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

process.env.UCX_TLS ??= "tcp,self,sm";
process.env.UCX_NET_DEVICES ??= "lo";
const here = dirname(fileURLToPath(import.meta.url));
const probe = join(here, "../../../native/nixl/build/Release/raw_read");
const args = process.argv.slice(2);
const sizesArg = args.includes("--sizes") ? args[args.indexOf("--sizes") + 1] : undefined;
const sizes = sizesArg
  ? sizesArg.split(",").map(Number)
  : [4096, 65536, 1 << 20, 4 << 20, 16 << 20, 64 << 20, 256 << 20];
const asJson = args.includes("--json");

if (!existsSync(probe)) {
  console.error(`bench: ${probe} is missing; build it with NIXL_PREFIX=<nixl prefix> node native/nixl/scripts/build.mjs`);
  process.exit(1);
}
const { NixlTransport } = await import("../dist/index.js");

const repsFor = (size) => Math.min(2000, Math.max(20, Math.floor(2 ** 30 / size)));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function runRaw() {
  const r = spawnSync(probe, sizes.map(String), { encoding: "utf8", maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`raw_read failed (${r.status}): ${r.stderr}`);
  return new Map(r.stdout.trim().split("\n").map((l) => JSON.parse(l)).map((o) => [o.size, o]));
}

async function runTransport() {
  const max = Math.max(...sizes);
  const child = fork(join(here, "target.mjs"), [String(max)], { stdio: "inherit" });
  const hello = await new Promise((resolve) => child.once("message", resolve));
  const t = new NixlTransport({ localId: `bench-reader-${process.pid}` });
  await t.connectPeer(hello.id, 1, Buffer.from(hello.metadata, "base64"));
  const source = new Uint8Array(Buffer.from(hello.location, "base64"));
  const dst = new Uint8Array(max);
  const region = t.registerMemory(dst);
  let nextId = 1;
  async function readOnce(size) {
    const readId = nextId++;
    t.startRead({ readId, peerId: hello.id, source, destination: { region, offset: 0, length: size } });
    for (;;) {
      const act = t.poll();
      const r = act.reads.find((x) => x.readId === readId);
      if (r) {
        if (r.status !== "done") throw new Error(`read ${readId} ${r.status}: ${r.error}`);
        return;
      }
      await t.waitForActivity(50);
    }
  }
  const out = new Map();
  for (const size of sizes) {
    const reps = repsFor(size);
    for (let w = 0; w < 3; w++) await readOnce(size);
    const lat = [];
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) {
      const s = performance.now();
      await readOnce(size);
      lat.push((performance.now() - s) * 1000);
    }
    const seconds = (performance.now() - t0) / 1000;
    for (let i = 0; i < size; i += 4093) if (dst[i] !== ((i * 131 + 7) & 0xff)) throw new Error(`mismatch at ${i}`);
    out.set(size, { reps, seconds, medianUs: median(lat) });
  }
  await t.close();
  child.send("stop");
  await new Promise((resolve) => child.once("exit", resolve));
  return out;
}

const raw = runRaw();
const ts = await runTransport();
const rows = sizes.map((size) => {
  const r = raw.get(size);
  const x = ts.get(size);
  const gbps = (reps, s) => (size * reps) / s / 1e9;
  const rawBw = gbps(r.reps, r.readSeconds);
  const tsBw = gbps(x.reps, x.seconds);
  const memBw = gbps(r.reps, r.memcpySeconds);
  return {
    size,
    reps: x.reps,
    rawGBps: rawBw,
    transportGBps: tsBw,
    memcpyGBps: memBw,
    vsRaw: tsBw / rawBw,
    vsMemcpy: tsBw / memBw,
    rawMedianUs: r.readMedianUs,
    transportMedianUs: x.medianUs,
    latencyVsRaw: x.medianUs / r.readMedianUs,
  };
});
if (asJson) console.log(JSON.stringify(rows, null, 2));
else {
  const fmt = (n, d = 2) => n.toFixed(d);
  const human = (n) => (n >= 1 << 20 ? `${n / (1 << 20)} MiB` : `${n / 1024} KiB`);
  console.log(`UCX_TLS=${process.env.UCX_TLS} UCX_NET_DEVICES=${process.env.UCX_NET_DEVICES}`);
  console.log("| size | reads | raw NIXL GB/s | NixlTransport GB/s | memcpy GB/s | vs raw | vs memcpy | raw p50 µs | transport p50 µs | latency vs raw |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${human(r.size)} | ${r.reps} | ${fmt(r.rawGBps)} | ${fmt(r.transportGBps)} | ${fmt(r.memcpyGBps)} | ${fmt(r.vsRaw)}x | ${fmt(r.vsMemcpy, 3)}x | ${fmt(r.rawMedianUs, 1)} | ${fmt(r.transportMedianUs, 1)} | ${fmt(r.latencyVsRaw)}x |`,
    );
}

#!/usr/bin/env node
/**
 * READ throughput and latency of NixlTransport vs the raw C++ NIXL probe vs memcpy.
 *
 * Two readers, one target, all through the same NIXL/UCX (defaults: UCX_TLS=tcp,self,sm
 * UCX_NET_DEVICES=lo, and the transport's UCX_ENV_DEFAULTS, which the probe inherits: it is
 * spawned after the transport has loaded). The target is one forked NixlTransport owner
 * (target.mjs) for the whole run. The raw probe (native/nixl/build/Release/raw_read --remote)
 * and a NixlTransport reader READ the same registered bytes of it, doing the same per-read
 * work: one createXferReq + postXferReq + completion + release per read, one descriptor per
 * item. Sharing the source matters: on this VM the same reader read one 256 MiB source 10-20 %
 * slower than another depending on which was allocated first (see the package README), and
 * the probe's own forked target is fresh in every probe process. For each size, both sides run:
 *
 * - a warm-up: the probe's clamp(reps/10, 3, 200) reads; the transport's at least as many, and
 *   for small items enough to move 16 MiB (at most 5,000 reads), because 200 reads leave V8's
 *   optimising compiler short of the JS path (4 KiB latency 1.38-1.48x after 200 reads and
 *   1.23-1.29x after 20,000, in alternating runs); compiled C++ needs no such warm-up;
 * - a latency pass: `reps` reads one at a time, per-read p50 (a read that settles inside
 *   startRead is taken by the next poll without an await, as the probe's loop and an
 *   engine's poll loop would; otherwise the loop waits with waitForActivity);
 * - a throughput pass: `reps` reads with `--depth` of them in flight (closed loop: a new read
 *   starts as soon as one completes; all target the same destination range), GB/s. With
 *   depth 1 this is back-to-back single reads; a depth above 1 lets the transport overlap
 *   its thread hand-offs with the next copy, exactly as the probe may overlap its polls;
 * - memcpy of the same size, timed by the probe.
 *
 * `reps` moves ~1 GiB per size and pass (20..2000 reads). A noisy shared machine is handled by
 * `--rounds` rounds; in each, every size is measured by the probe and by the transport back to
 * back (a fresh probe process per size; which goes first alternates by round and size), so a
 * ratio compares two measurements a second or two apart rather than the two halves of a
 * whole-table run: this VM's speed drifts over seconds (the same 4 KiB read loop runs at 5.8 or
 * 9.5 µs per read in back-to-back processes). The table shows the median ratio over rounds with
 * the min–max spread. The load average is printed.
 *
 * `--cpu LIST` runs everything (this process, the probe and the target) on those CPUs (it
 * re-runs itself under `taskset -c LIST`). This VM's CPUs differ in speed and the scheduler moves
 * threads between them, so a probe and a transport run a second apart may not be measured on
 * the same CPU; pinned to one CPU they are. For small items that is the fair latency comparison
 * (the transport's engine thread is idle: reads up to 64 KiB are posted on the JS thread); for
 * items that go to the engine it is not, since the engine's copy then shares one core with the
 * JS thread's spinning wait (1 MiB reads run ~3x slower), while the probe has one thread.
 *
 * Usage: node bench/run.mjs [--sizes 4096,1048576,...] [--rounds 5] [--depth 4] [--wait-spin-us N] [--cpu LIST] [--json]
 * Needs: the addon and the probe built (NIXL_PREFIX=... node native/nixl/scripts/build.mjs)
 * and this package built (npx tsup).
 */
import { fork, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchFlags } from "./flags.mjs";

const { values: flags, usageError, intFlag } = benchFlags(
  "usage: node bench/run.mjs [--sizes 4096,1048576,...] [--rounds 5] [--depth 4] [--wait-spin-us N] [--cpu LIST] [--json]",
  {
    sizes: { type: "string" },
    rounds: { type: "string" },
    depth: { type: "string" },
    "wait-spin-us": { type: "string" },
    cpu: { type: "string" },
    json: { type: "boolean" },
  },
);
const sizes = flags.sizes?.split(",").map((x) => intFlag(x, "sizes", 0, 1, 2 ** 30)) ?? [4096, 65536, 1 << 20, 4 << 20, 16 << 20, 64 << 20, 256 << 20];
const rounds = intFlag(flags.rounds, "rounds", 5, 1, 1000);
const depth = intFlag(flags.depth, "depth", 4, 1, 64);
const asJson = flags.json === true;
// The reader's NixlTransportOptions.waitSpinUs (default: the transport's).
const waitSpinUs = intFlag(flags["wait-spin-us"], "wait-spin-us", undefined, 0, 10_000_000);
const cpu = flags.cpu;
/** Whether `list` is a CPU list taskset accepts: numbers and ascending ranges, comma-separated. */
const cpuList = (list) =>
  list.split(",").every((part) => {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    return m !== null && (m[2] === undefined || Number(m[1]) <= Number(m[2]));
  });
// Set only on the pinned re-run this process starts below (not meant to be set by hand).
const PINNED = "ECTP_BENCH_PINNED_RERUN";
if (cpu !== undefined && process.env[PINNED] !== cpu) {
  if (!cpuList(cpu)) usageError(`--cpu takes a CPU list such as 1, 0,1 or 0-1 (as taskset -c does); got ${JSON.stringify(cpu)}`);
  const script = [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)];
  const pinned = spawnSync("taskset", ["-c", cpu, process.execPath, ...script], {
    stdio: "inherit",
    env: { ...process.env, [PINNED]: cpu },
  });
  if (pinned.error) {
    console.error(`bench: --cpu runs the bench under taskset (util-linux), which could not be started: ${pinned.error.message}`);
    process.exit(1);
  }
  process.exit(pinned.status ?? 1);
}

process.env.UCX_TLS ??= "tcp,self,sm";
process.env.UCX_NET_DEVICES ??= "lo";
const here = dirname(fileURLToPath(import.meta.url));
const probe = join(here, "../../../native/nixl/build/Release/raw_read");

if (!existsSync(probe)) {
  console.error(`bench: ${probe} is missing; build it with NIXL_PREFIX=<nixl prefix> node native/nixl/scripts/build.mjs`);
  process.exit(1);
}
const { NixlTransport, decodeLocation } = await import("../dist/index.js");

const repsFor = (size) => Math.min(2000, Math.max(20, Math.floor(2 ** 30 / size)));
/** Warm-up reads of the transport side (see the header): the probe's count, or more for small items. */
const warmFor = (reps, size) => Math.max(Math.min(200, Math.max(3, Math.floor(reps / 10))), Math.min(5000, Math.floor(2 ** 24 / size)));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The probe's figures for `list` (one fresh probe process and agent), reading the transport's
 * target region described by `remoteFile` (the same source pages the transport reads).
 */
function runRaw(list, remoteFile) {
  const r = spawnSync(probe, ["--depth", String(depth), "--remote", remoteFile, ...list.map(String)], { encoding: "utf8", maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`raw_read failed (${r.status ?? r.signal}): ${r.stderr}`);
  return new Map(
    r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .map((o) => [o.size, { reps: o.reps, seconds: o.readSeconds, medianUs: o.readMedianUs, memcpySeconds: o.memcpySeconds }]),
  );
}

/** One reader transport and one forked target for all rounds. */
async function openTransport() {
  const max = Math.max(...sizes);
  const child = fork(join(here, "target.mjs"), [String(max)], { stdio: "inherit" });
  const hello = await new Promise((resolve) => child.once("message", resolve));
  const t = new NixlTransport({ localId: `bench-reader-${process.pid}`, waitSpinUs });
  await t.connectPeer(hello.id, 1, Buffer.from(hello.metadata, "base64"));
  const source = new Uint8Array(Buffer.from(hello.location, "base64"));
  // For the probe's --remote: u32 LE metadata length | metadata | location.
  const metadata = Buffer.from(hello.metadata, "base64");
  const remoteLength = Buffer.alloc(4);
  remoteLength.writeUInt32LE(metadata.length);
  const remoteFile = join(mkdtempSync(join(tmpdir(), "ectp-bench-")), "remote");
  writeFileSync(remoteFile, Buffer.concat([remoteLength, metadata, source]));
  // A fresh destination per size, as the probe has (a fresh process per size), at the same
  // offset modulo 64 as the source (see "Item alignment" in the package README): the probe's two
  // buffers share theirs by construction (both from mmap), while a fresh Uint8Array may come
  // from the malloc heap at any 16-byte offset, and a mismatch made 1 MiB reads ~5x slower.
  const sourceAddress = decodeLocation(source).address;
  let dst;
  let region;
  let dstOffset = 0;
  let nextId = 1;
  const start = (size) => {
    const readId = nextId++;
    t.startRead({ readId, peerId: hello.id, source, destination: { region, offset: dstOffset, length: size } });
    return readId;
  };
  const check = (r) => {
    if (r.status !== "done") throw new Error(`read ${r.readId} ${r.status}: ${r.error}`);
  };
  /** True when `readId` settled in this poll (checked); false when the caller must wait. */
  const settledNow = (readId) => {
    const { reads } = t.poll();
    for (let i = 0; i < reads.length; i++)
      if (reads[i].readId === readId) {
        check(reads[i]);
        return true;
      }
    return false;
  };
  /**
   * One read, start to settled. Returns undefined when it settled without waiting (a small
   * read the transport completed inside startRead), else a promise: like an engine's poll
   * loop (and the probe's), the bench yields to the event loop only when nothing is ready.
   */
  function readOnce(size) {
    const readId = start(size);
    if (settledNow(readId)) return undefined;
    return (async () => {
      do await t.waitForActivity(50);
      while (!settledNow(readId));
    })();
  }
  async function throughput(size, reps) {
    const inflight = new Set();
    let posted = 0;
    let done = 0;
    const t0 = performance.now();
    for (; posted < depth && posted < reps; posted++) inflight.add(start(size));
    while (done < reps) {
      const { reads } = t.poll();
      for (const r of reads) {
        if (!inflight.delete(r.readId)) continue;
        check(r);
        done++;
        if (posted < reps) {
          inflight.add(start(size));
          posted++;
        }
      }
      if (reads.length === 0) await t.waitForActivity(50);
    }
    return (performance.now() - t0) / 1000;
  }
  /** The transport's figures for `list`, in one process and agent kept across calls. */
  async function run(list) {
    const out = new Map();
    for (const size of list) {
      if (region) t.deregisterMemory(region);
      dst = new Uint8Array(size + 64);
      region = t.registerMemory(dst);
      dstOffset = Number((sourceAddress - decodeLocation(t.describe(region, 0, 1)).address) & 63n);
      const reps = repsFor(size);
      for (let w = warmFor(reps, size); w > 0; w--) await readOnce(size);
      const lat = [];
      for (let i = 0; i < reps; i++) {
        const s = performance.now();
        const waiting = readOnce(size);
        if (waiting) await waiting;
        lat.push((performance.now() - s) * 1000);
      }
      const seconds = await throughput(size, reps);
      for (let i = 0; i < size; i += 4093) if (dst[dstOffset + i] !== ((i * 131 + 7) & 0xff)) throw new Error(`mismatch at ${i}`);
      out.set(size, { reps, seconds, medianUs: median(lat) });
    }
    return out;
  }
  async function close() {
    // Every read was placed at the source's offset modulo 64 (see dstOffset).
    if (t.counters().misalignedReads !== 0) throw new Error(`bench: ${t.counters().misalignedReads} misaligned reads`);
    await t.close();
    child.send("stop");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dirname(remoteFile), { recursive: true, force: true });
  }
  return { run, close, remoteFile };
}

const loadBefore = loadavg();
const transport = await openTransport();
const perRound = [];
for (let round = 0; round < rounds; round++) {
  const raw = new Map();
  const ts = new Map();
  for (let k = 0; k < sizes.length; k++) {
    const size = sizes[k];
    const probeFirst = (round + k) % 2 === 0;
    if (probeFirst) raw.set(size, runRaw([size], transport.remoteFile).get(size));
    ts.set(size, (await transport.run([size])).get(size));
    if (!probeFirst) raw.set(size, runRaw([size], transport.remoteFile).get(size));
  }
  perRound.push({ raw, ts });
}
await transport.close();
const loadAfter = loadavg();

const gbps = (size, reps, s) => (size * reps) / s / 1e9;
const rows = sizes.map((size) => {
  const rawBw = [];
  const tsBw = [];
  const memBw = [];
  const ratio = [];
  const rawLat = [];
  const tsLat = [];
  const latRatio = [];
  for (const { raw, ts } of perRound) {
    const r = raw.get(size);
    const x = ts.get(size);
    rawBw.push(gbps(size, r.reps, r.seconds));
    tsBw.push(gbps(size, x.reps, x.seconds));
    memBw.push(gbps(size, r.reps, r.memcpySeconds));
    ratio.push(tsBw.at(-1) / rawBw.at(-1));
    rawLat.push(r.medianUs);
    tsLat.push(x.medianUs);
    latRatio.push(x.medianUs / r.medianUs);
  }
  return {
    size,
    reps: repsFor(size),
    rawGBps: median(rawBw),
    transportGBps: median(tsBw),
    memcpyGBps: median(memBw),
    vsRaw: median(ratio),
    vsRawMin: Math.min(...ratio),
    vsRawMax: Math.max(...ratio),
    vsMemcpy: median(tsBw) / median(memBw),
    rawMedianUs: median(rawLat),
    transportMedianUs: median(tsLat),
    latencyVsRaw: median(latRatio),
    latencyVsRawMin: Math.min(...latRatio),
    latencyVsRawMax: Math.max(...latRatio),
  };
});
const setup = {
  ucxTls: process.env.UCX_TLS,
  ucxNetDevices: process.env.UCX_NET_DEVICES,
  ucxMemEvents: process.env.UCX_MEM_EVENTS,
  rounds,
  depth,
  cpu: cpu ?? "any",
  loadavgBefore: loadBefore.map((x) => Number(x.toFixed(2))),
  loadavgAfter: loadAfter.map((x) => Number(x.toFixed(2))),
};
if (asJson) console.log(JSON.stringify({ setup, rows }, null, 2));
else {
  const fmt = (n, d = 2) => n.toFixed(d);
  const human = (n) => (n >= 1 << 20 ? `${n / (1 << 20)} MiB` : `${n / 1024} KiB`);
  console.log(
    `UCX_TLS=${setup.ucxTls} UCX_NET_DEVICES=${setup.ucxNetDevices} UCX_MEM_EVENTS=${setup.ucxMemEvents}; CPUs ${setup.cpu}; ${rounds} rounds (probe and transport back to back per size), throughput at depth ${depth}, latency at depth 1; load average ${setup.loadavgBefore.join(" ")} -> ${setup.loadavgAfter.join(" ")}`,
  );
  console.log(
    "| size | reads | raw NIXL GB/s | NixlTransport GB/s | memcpy GB/s | vs raw (min–max) | vs memcpy | raw p50 µs | transport p50 µs | latency vs raw (min–max) |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${human(r.size)} | ${r.reps} | ${fmt(r.rawGBps)} | ${fmt(r.transportGBps)} | ${fmt(r.memcpyGBps)} | ${fmt(r.vsRaw)}x (${fmt(r.vsRawMin)}–${fmt(r.vsRawMax)}) | ${fmt(r.vsMemcpy, 3)}x | ${fmt(r.rawMedianUs, 1)} | ${fmt(r.transportMedianUs, 1)} | ${fmt(r.latencyVsRaw)}x (${fmt(r.latencyVsRawMin)}–${fmt(r.latencyVsRawMax)}) |`,
    );
}

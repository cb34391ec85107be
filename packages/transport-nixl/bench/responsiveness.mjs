#!/usr/bin/env node
/**
 * How responsive a NixlTransport reader stays while its engine thread is busy, in two figures the
 * tests check only for liveness (these machines are too noisy for timed assertions):
 *
 * 1. **A small startRead beside a large READ over TCP.** Over TCP, NIXL 1.4 progresses its worker
 *    until idle inside the engine's getXferStatus, so one such call can run most of a large READ.
 *    A small read (4 KiB, posted on the JS thread when the engine is not inside a NIXL call) must
 *    never wait for that call: it is handed to the engine instead. Per round: `--small` small reads
 *    one at a time with nothing else in flight (the baseline), then one `--large-mib` READ with a
 *    small startRead every 5 ms until it ends. Reported: the time each startRead call took (p50 and
 *    the slowest), idle and beside the large READ, and the slowest beside it as a share of the large
 *    READ's duration. (Before the fix a 4 KiB startRead waited 0.86-1.05 s behind a 256 MiB READ:
 *    a share near 1.)
 * 2. **Progress pings under a stream of commands.** A reader pings the peer it reads from every
 *    20 ms (the owner's deregistration hold counts from the last ping). With the target stopped
 *    (SIGSTOP) under a READ, pings are counted over `--window-ms` twice: with the JS thread asleep
 *    (the baseline) and with it sending a message to another peer in a tight loop, so that the
 *    engine has a command in every round. Reported: pings per second each way (50 are due) and the
 *    ratio. (Before the fix the engine pinged only in rounds with nothing else to do.)
 *
 * One forked target (bench/target.mjs) serving over TCP alone (UCX_TLS=tcp) for the whole run;
 * `--rounds` rounds, each taking both measurements; medians over rounds with the min-max spread.
 *
 * Usage: node bench/responsiveness.mjs [--rounds 3] [--large-mib 128] [--small 50] [--window-ms 300]
 * Needs: the addon built (NIXL_PREFIX=... node native/nixl/scripts/build.mjs) and this package built.
 */
import { fork } from "node:child_process";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchFlags } from "./flags.mjs";

const { values: flags, intFlag } = benchFlags(
  "usage: node bench/responsiveness.mjs [--rounds 3] [--large-mib 128] [--small 50] [--window-ms 300]",
  {
    rounds: { type: "string" },
    "large-mib": { type: "string" },
    small: { type: "string" },
    "window-ms": { type: "string" },
  },
);
const rounds = intFlag(flags.rounds, "rounds", 3, 1, 100);
const largeBytes = intFlag(flags["large-mib"], "large-mib", 128, 1, 1024) << 20;
const smallReads = intFlag(flags.small, "small", 50, 1, 100_000);
const windowMs = intFlag(flags["window-ms"], "window-ms", 300, 50, 60_000);
const SMALL = 4096;
const SMALL_EVERY_MS = 5;
const PING_DUE_PER_S = 50; // one ping every 20 ms to each peer being read from

process.env.UCX_TLS ??= "tcp,self,sm";
process.env.UCX_NET_DEVICES ??= "lo";
const here = dirname(fileURLToPath(import.meta.url));
const { NixlTransport } = await import("../dist/index.js");

// The target serves over TCP alone: UCX then serves a GET in the target's progress, and a
// stopped target holds a READ in flight.
const child = fork(join(here, "target.mjs"), [String(largeBytes)], { stdio: "inherit", env: { ...process.env, UCX_TLS: "tcp" } });
const hello = await new Promise((resolve) => child.once("message", resolve));
const reader = new NixlTransport({ localId: `bench-responsive-${process.pid}` });
const other = new NixlTransport({ localId: `bench-other-${process.pid}` });
await reader.connectPeer(hello.id, 1, Buffer.from(hello.metadata, "base64"));
await reader.connectPeer(other.localId, 1, other.localMetadata());
const source = new Uint8Array(Buffer.from(hello.location, "base64"));
const region = reader.registerMemory(new Uint8Array(largeBytes + SMALL));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

let nextId = 1;
const settled = new Map();
/** Take every settled read off the transport; throw on one that did not end `done`. */
function drain() {
  for (const r of reader.poll().reads) {
    if (r.status !== "done") throw new Error(`read ${r.readId} ended ${r.status}: ${r.error ?? ""}`);
    settled.set(r.readId, r);
  }
  other.poll();
}
async function untilSettled(ids, what) {
  const deadline = performance.now() + 60_000;
  while (!ids.every((id) => settled.has(id))) {
    if (performance.now() > deadline) throw new Error(`bench: ${what} did not settle in 60 s`);
    await reader.waitForActivity(20);
    drain();
  }
}
/** Start a 4 KiB read into the region's tail; returns [its id, ms the startRead call took]. */
function startSmall() {
  const readId = nextId++;
  const t = performance.now();
  reader.startRead({ readId, peerId: hello.id, source, destination: { region, offset: largeBytes, length: SMALL } });
  return [readId, performance.now() - t];
}
function startLarge() {
  const readId = nextId++;
  reader.startRead({ readId, peerId: hello.id, source, destination: { region, offset: 0, length: largeBytes } });
  return readId;
}

/** Measurement 1 for one round. */
async function startReadBesideLargeRead() {
  const idle = [];
  for (let i = 0; i < smallReads; i++) {
    const [id, ms] = startSmall();
    idle.push(ms);
    await untilSettled([id], "a small read");
  }
  const beside = [];
  const smallIds = [];
  const started = performance.now();
  const large = startLarge();
  while (!settled.has(large)) {
    if (performance.now() - started > 60_000) throw new Error("bench: the large read did not end in 60 s");
    await sleep(SMALL_EVERY_MS);
    const [id, ms] = startSmall();
    smallIds.push(id);
    beside.push(ms);
    drain();
  }
  const largeMs = performance.now() - started;
  await untilSettled(smallIds, "the small reads beside the large one");
  return { idle, beside, largeMs };
}

/** Pings sent over one window: with the JS thread asleep, or sending to `other` in a tight loop. */
async function pingsOver(streaming) {
  const before = reader.counters().pingsOut;
  const started = performance.now();
  if (streaming) while (performance.now() - started < windowMs) reader.send(other.localId, new Uint8Array([1]));
  else await sleep(windowMs);
  const seconds = (performance.now() - started) / 1000;
  return (reader.counters().pingsOut - before) / seconds;
}

/** Measurement 2 for one round: a READ held in flight by the stopped target, then both windows. */
async function pingsUnderCommands(round) {
  child.kill("SIGSTOP");
  const held = startLarge();
  await sleep(50);
  // Which window goes first alternates by round (the VM's speed drifts over seconds).
  const first = await pingsOver(round % 2 === 1);
  const second = await pingsOver(round % 2 === 0);
  child.kill("SIGCONT");
  await untilSettled([held], "the READ held by the stopped target");
  return round % 2 === 0 ? { idle: first, streaming: second } : { idle: second, streaming: first };
}

try {
  await untilSettled([startSmall()[0]], "the first read"); // loads the target's section
  const rows = [];
  for (let round = 0; round < rounds; round++) {
    const reads = await startReadBesideLargeRead();
    const pings = await pingsUnderCommands(round);
    rows.push({
      largeMs: reads.largeMs,
      idleP50Us: median(reads.idle) * 1000,
      idleMaxUs: Math.max(...reads.idle) * 1000,
      besideP50Us: median(reads.beside) * 1000,
      besideMaxUs: Math.max(...reads.beside) * 1000,
      besideMaxShare: Math.max(...reads.beside) / reads.largeMs,
      idlePingsPerS: pings.idle,
      streamingPingsPerS: pings.streaming,
      pingRatio: pings.streaming / pings.idle,
    });
  }
  const col = (key, digits) => {
    const xs = rows.map((r) => r[key]);
    const f = (x) => x.toFixed(digits);
    return rows.length === 1 ? f(xs[0]) : `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
  };
  console.log(
    `NixlTransport responsiveness, ${rounds} round(s); target over UCX_TLS=tcp; reader UCX_TLS=${process.env.UCX_TLS}; load ${loadavg()[0].toFixed(2)}`,
  );
  console.log(`\n1. 4 KiB startRead calls: ${smallReads} one at a time idle, and one every ${SMALL_EVERY_MS} ms beside a ${largeBytes >> 20} MiB READ`);
  console.log("| large READ ms | idle p50 µs | idle slowest µs | beside p50 µs | beside slowest µs | slowest beside / large READ |");
  console.log("|---|---|---|---|---|---|");
  console.log(
    `| ${col("largeMs", 0)} | ${col("idleP50Us", 1)} | ${col("idleMaxUs", 1)} | ${col("besideP50Us", 1)} | ${col("besideMaxUs", 1)} | ${col("besideMaxShare", 4)} |`,
  );
  console.log(`\n2. progress pings per second to a stopped target under a READ (${PING_DUE_PER_S} due), windows of ${windowMs} ms`);
  console.log("| JS asleep | JS sending in a tight loop | sending / asleep |");
  console.log("|---|---|---|");
  console.log(`| ${col("idlePingsPerS", 1)} | ${col("streamingPingsPerS", 1)} | ${col("pingRatio", 2)}x |`);
} finally {
  child.kill("SIGCONT");
  await reader.close();
  await other.close();
  child.send("stop");
}

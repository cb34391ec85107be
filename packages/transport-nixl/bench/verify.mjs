#!/usr/bin/env node
/**
 * The cost of verifying an item's checksum [C11] after a NixlTransport READ, two ways, in the
 * same run against one forked target (bench/target.mjs):
 *
 * - baseline, "JS CRC": the read without `crc32c`, then @ectp/protocol's `crc32c` over the
 *   destination on the JS thread (what the consumer does when a transport reports no CRC);
 * - "transport CRC": the read with `crc32c: true`; the addon computes the CRC of the landed
 *   bytes on its engine thread (SSE4.2 where the CPU has it) and reports it with the result.
 *
 * Per size, `--reps` reads one at a time, alternating the two ways read by read; reported:
 * median time from startRead to a verified result (µs), the ratio transport / JS (lower is
 * better), and the median JS-thread time per read spent in the CRC (the baseline's crc32c call;
 * the transport way spends none). The read itself is the same in both.
 *
 * Usage: node bench/verify.mjs [--sizes 65536,1048576,...] [--reps 40]
 * Needs: the addon built (NIXL_PREFIX=... node native/nixl/scripts/build.mjs) and this package built.
 */
import { fork } from "node:child_process";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32c } from "@ectp/protocol";
import { benchFlags } from "./flags.mjs";

const { values: flags, intFlag } = benchFlags("usage: node bench/verify.mjs [--sizes 65536,1048576,...] [--reps 40]", {
  sizes: { type: "string" },
  reps: { type: "string" },
});
const sizes = flags.sizes?.split(",").map((x) => intFlag(x, "sizes", 0, 1, 2 ** 30)) ?? [65536, 1 << 20, 16 << 20, 64 << 20];
const reps = intFlag(flags.reps, "reps", 40, 3, 100_000);

process.env.UCX_TLS ??= "tcp,self,sm";
process.env.UCX_NET_DEVICES ??= "lo";
const here = dirname(fileURLToPath(import.meta.url));
const { NixlTransport, decodeLocation } = await import("../dist/index.js");

const max = Math.max(...sizes);
const child = fork(join(here, "target.mjs"), [String(max)], { stdio: "inherit" });
const hello = await new Promise((resolve) => child.once("message", resolve));
const t = new NixlTransport({ localId: `bench-verify-${process.pid}` });
await t.connectPeer(hello.id, 1, Buffer.from(hello.metadata, "base64"));
const source = new Uint8Array(Buffer.from(hello.location, "base64"));
const sourceAddress = decodeLocation(source).address;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const expected = new Map();
let nextId = 1;

/** One read of `size` bytes, verified one way; returns [µs to a verified result, µs of JS CRC]. */
async function verifiedRead(region, offset, size, transportCrc) {
  const readId = nextId++;
  const s = performance.now();
  t.startRead({ readId, peerId: hello.id, source, destination: { region, offset, length: size }, crc32c: transportCrc });
  let result;
  for (;;) {
    result = t.poll().reads.find((r) => r.readId === readId);
    if (result) break;
    await t.waitForActivity(100);
  }
  if (result.status !== "done") throw new Error(`read ${readId} ${result.status}: ${result.error}`);
  let jsUs = 0;
  let crc = result.crc32c;
  if (!transportCrc) {
    const c0 = performance.now();
    crc = crc32c(region.bytes.subarray(offset, offset + size));
    jsUs = (performance.now() - c0) * 1000;
  }
  if (crc !== expected.get(size)) throw new Error(`read ${readId}: CRC ${crc} differs from the source's ${expected.get(size)}`);
  return [(performance.now() - s) * 1000, jsUs];
}

const rows = [];
for (const size of sizes) {
  const dst = new Uint8Array(size + 64);
  const region = t.registerMemory(dst);
  // The source's offset modulo 64 (see "Item alignment" in the README).
  const offset = Number((sourceAddress - decodeLocation(t.describe(region, 0, 1)).address) & 63n);
  // The target's bytes are (i * 131 + 7) & 0xff (bench/target.mjs).
  expected.set(size, crc32c(Uint8Array.from({ length: size }, (_, i) => (i * 131 + 7) & 0xff)));
  for (let w = 0; w < 3; w++) for (const way of [false, true]) await verifiedRead(region, offset, size, way);
  const js = [];
  const jsCrc = [];
  const native = [];
  for (let i = 0; i < reps; i++) {
    const [a, crcUs] = await verifiedRead(region, offset, size, false);
    js.push(a);
    jsCrc.push(crcUs);
    native.push((await verifiedRead(region, offset, size, true))[0]);
  }
  t.deregisterMemory(region);
  rows.push({ size, jsUs: median(js), jsCrcUs: median(jsCrc), transportUs: median(native) });
}
await t.close();
child.send("stop");

const human = (n) => (n >= 1 << 20 ? `${n / (1 << 20)} MiB` : n >= 1024 ? `${n / 1024} KiB` : `${n} B`);
console.log(`verified READs, ${reps} per way and size, alternating; UCX_TLS=${process.env.UCX_TLS}; load ${loadavg()[0].toFixed(2)}`);
console.log("| size | JS CRC: read + verify µs | of which JS CRC µs | transport CRC: read + verify µs | transport / JS |");
console.log("|---|---|---|---|---|");
for (const r of rows)
  console.log(`| ${human(r.size)} | ${r.jsUs.toFixed(0)} | ${r.jsCrcUs.toFixed(0)} | ${r.transportUs.toFixed(0)} | ${(r.transportUs / r.jsUs).toFixed(2)}x |`);

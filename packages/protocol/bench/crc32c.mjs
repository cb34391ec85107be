// CRC-32C throughput of @ectp/protocol's crc32c (slicing-by-8, one flat table) against the
// byte-at-a-time table method (Sarwate) measured in the same run, at item sizes from 64 B to
// 16 MiB. Both run on the same bytes, alternating, `--reps` times (default 7); the table shows
// median GB/s and the median of the per-repetition ratios. The consumer computes this CRC on
// its own thread for every verified item whose transport does not report one [C11] (see
// `ReadResult.crc32c` in @ectp/core), so GB/s here bounds what one consumer can verify.
//
//   npm run build -w @ectp/protocol && npm run bench -w @ectp/protocol [-- --reps N]
//
// A flag or value it does not take is refused before anything is measured (exit status 2).
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { crc32c } from "../dist/index.js";

const USAGE = "usage: node bench/crc32c.mjs [--reps N]   (N repetitions per size, 1 to 1000; default 7)";
/** Stop with a usage error naming `problem`. */
function refuse(problem) {
  process.stderr.write(`bench: ${problem}\n${USAGE}\n`);
  process.exit(2);
}
let flags;
try {
  flags = parseArgs({ options: { reps: { type: "string" } }, strict: true, allowPositionals: false }).values;
} catch (e) {
  refuse(e.message);
}
const REPS = flags.reps === undefined ? 7 : Number(flags.reps);
if (flags.reps !== undefined && (!/^[0-9]+$/.test(flags.reps) || REPS < 1 || REPS > 1000))
  refuse(`--reps must be an integer in [1, 1000]; got ${JSON.stringify(flags.reps)}`);
const SIZES = [64, 4096, 65536, 1 << 20, 16 << 20];

const SARWATE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  SARWATE[n] = c >>> 0;
}
/** The baseline: one table lookup per byte. */
function sarwate(bytes) {
  let c = ~0;
  for (let i = 0; i < bytes.length; i++) c = SARWATE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** GB/s of `fn` over `bytes`, repeated to about 64 MiB of input. */
function rate(fn, bytes) {
  const n = Math.max(1, Math.round((64 << 20) / bytes.length));
  let sink = 0;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) sink ^= fn(bytes);
  const s = (performance.now() - t0) / 1000;
  if (sink === 0.5) console.log(sink); // keep the result alive
  return (bytes.length * n) / s / 1e9;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`crc32c benchmark (node ${process.version}, ${REPS} repetitions, load ${loadavg()[0].toFixed(2)})`);
console.log("| size | crc32c GB/s | bytewise GB/s | ratio (median) |");
console.log("|---|---|---|---|");
for (const size of SIZES) {
  const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 2654435761) >>> 24);
  if (crc32c(bytes) !== sarwate(bytes)) throw new Error(`crc32c and the bytewise baseline disagree at ${size} bytes`);
  rate(crc32c, bytes); // warm-up
  rate(sarwate, bytes);
  const fast = [];
  const base = [];
  const ratio = [];
  for (let r = 0; r < REPS; r++) {
    fast.push(rate(crc32c, bytes));
    base.push(rate(sarwate, bytes));
    ratio.push(fast.at(-1) / base.at(-1));
  }
  const label = size >= 1 << 20 ? `${size >> 20} MiB` : size >= 1024 ? `${size >> 10} KiB` : `${size} B`;
  console.log(`| ${label} | ${median(fast).toFixed(2)} | ${median(base).toFixed(2)} | ${median(ratio).toFixed(2)}x |`);
}

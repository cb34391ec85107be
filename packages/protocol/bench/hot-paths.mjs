// Micro-benchmark of the protocol hot paths, before (bench/baseline.mjs, the code as it was)
// and after (../dist, the current build), in the same process.
//
//   npx tsup && node bench/hot-paths.mjs
//
// Every case runs ROUNDS alternating rounds (baseline, current, baseline, ...) after a
// warm-up, each round N calls over 4096 distinct inputs; the median ns/op per side is
// reported. The machine this was written on is shared and noisy: compare medians, not
// single rounds. `+get` cases add a Map lookup of the fresh id (as the stores and cores do
// with every key id), so the cost of hashing the returned string counts too.
// Options: BENCH_ROUNDS (default 7), BENCH_N (calls per round, default 200000),
// BENCH_ONLY (a substring of the case names to run).
import * as base from "./baseline.mjs";
import * as cur from "../dist/index.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7) || 7;
const N = Number(process.env.BENCH_N ?? 200000) || 200000;
const ONLY = process.env.BENCH_ONLY ?? "";
const FP = { model: "bench-model", dtype: 7, rowBytes: 0, layoutVersion: 1 };
const LIMITS = { maxItemBytes: Number.MAX_SAFE_INTEGER };
const LIMITS_FP = { maxItemBytes: 1 << 30, fingerprint: FP };

function hash(n, len) {
  const h = new Uint8Array(len);
  new DataView(h.buffer).setUint32(0, n + 1);
  h[len - 1] = 0xab;
  return h;
}
function desc(n, len = 16) {
  return {
    key: { contentHash: hash(n, len), fingerprint: FP },
    sizeBytes: 64,
    checksum: { algorithm: 1, value: new Uint8Array([1, 2, 3, 4]) },
    producerId: "E",
    epoch: 1,
  };
}
const M = 4096;
const plain16 = Array.from({ length: M }, (_, n) => desc(n));
const plain32 = Array.from({ length: M }, (_, n) => desc(n, 32));
const decoded = plain16.map((d) => cur.ectp.v1.ItemDescriptor.decode(cur.ectp.v1.ItemDescriptor.encode(d).finish()));
const ids16 = new Map(plain16.map((d) => [cur.itemKeyId(d.key).value, 1]));
const ids32 = new Map(plain32.map((d) => [cur.itemKeyId(d.key).value, 1]));
const envs = plain16.map((d, n) => ({
  version: cur.SPEC_VERSION,
  senderId: "PD",
  senderEpoch: 1,
  readGrant: { attemptId: n + 1, grantId: n + 7, item: { ...d, location: new Uint8Array([n & 0xff, 1, 2, 3]) }, leaseMs: 5000 },
}));
const wire = envs.map((e) => cur.encodeEnvelope(e));

let sink = 0;
/** Cases: name -> (impl) => per-call function of the input index. */
const cases = {
  "itemKeyId 16B": (impl) => (i) => (sink += impl.itemKeyId(plain16[i].key).value.length),
  "itemKeyId 16B +get": (impl) => (i) => (sink += ids16.get(impl.itemKeyId(plain16[i].key).value)),
  "itemKeyId 32B +get": (impl) => (i) => (sink += ids32.get(impl.itemKeyId(plain32[i].key).value)),
  "validateDescriptor plain +get": (impl) => (i) => (sink += ids16.get(impl.validateDescriptor(plain16[i], LIMITS).value.keyId)),
  "validateDescriptor decoded+fp +get": (impl) => (i) =>
    (sink += ids16.get(impl.validateDescriptor(decoded[i], LIMITS_FP).value.keyId)),
  encodeEnvelope: (impl) => (i) => (sink += impl.encodeEnvelope(envs[i]).length),
  decodeEnvelope: (impl) => (i) => (sink += impl.decodeEnvelope(wire[i]).ok ? 1 : 0),
};

function round(fn) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) fn(i & (M - 1));
  return Number(process.hrtime.bigint() - t) / N;
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

// Same results from both sides, before timing anything.
for (let i = 0; i < 8; i++) {
  const a = base.validateDescriptor(decoded[i], LIMITS_FP);
  const b = cur.validateDescriptor(decoded[i], LIMITS_FP);
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error("validateDescriptor results differ");
  if (base.itemKeyId(plain32[i].key).value !== cur.itemKeyId(plain32[i].key).value) throw new Error("itemKeyId differs");
  if (Buffer.compare(base.encodeEnvelope(envs[i]), cur.encodeEnvelope(envs[i])) !== 0) throw new Error("encoding differs");
}

console.log(`node ${process.version}, ${ROUNDS} alternating rounds of ${N} calls; median ns/op`);
console.log(`${"case".padEnd(36)} ${"before".padStart(8)} ${"after".padStart(8)}  ratio`);
for (const [name, make] of Object.entries(cases)) {
  if (ONLY && !name.includes(ONLY)) continue;
  const fb = make(base);
  const fc = make(cur);
  round(fb);
  round(fc);
  const b = [];
  const c = [];
  for (let r = 0; r < ROUNDS; r++) {
    b.push(round(fb));
    c.push(round(fc));
  }
  const mb = median(b);
  const mc = median(c);
  console.log(`${name.padEnd(36)} ${mb.toFixed(0).padStart(8)} ${mc.toFixed(0).padStart(8)}  ${(mb / mc).toFixed(2)}x`);
}
if (sink === -1) console.log(sink);

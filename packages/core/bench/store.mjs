// Micro-benchmark of MemoryItemStore.put in steady state (every put evicts), before
// (bench/baseline-store.mjs, the store and validateDescriptor as they were) and after
// (../dist), in the same process.
//
//   (cd ../protocol && npx tsup) && npx tsup && node bench/store.mjs
//
// A store of ITEMS live items, full; each operation puts a new item (evicting the oldest
// ready one) and marks it ready, with one listener subscribed (as the producer core is).
// Every 4th operation also pins and unpins a random live item, so the FIFO queue sees
// deletions from the middle too. ROUNDS alternating rounds after a warm-up; median ns/op.
// Options: BENCH_ROUNDS (default 7), BENCH_N (operations per round, default 100000).
import { MemoryItemStore as Before } from "./baseline-store.mjs";
import { MemoryItemStore as After } from "../dist/index.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7) || 7;
const N = Number(process.env.BENCH_N ?? 100000) || 100000;
const FP = { model: "bench-model", dtype: 7, rowBytes: 0, layoutVersion: 1 };
const SIZE = 64;

function hash(n) {
  const h = new Uint8Array(16);
  new DataView(h.buffer).setUint32(0, n + 1);
  h[15] = 0xab;
  return h;
}

function rig(Store, items) {
  const store = new Store({ capacityBytes: items * SIZE });
  let events = 0;
  store.subscribe(() => events++);
  const ids = [];
  let n = 0;
  const op = () => {
    const r = store.put({
      key: { contentHash: hash(n++), fingerprint: FP },
      sizeBytes: SIZE,
      checksum: { algorithm: 1, value: new Uint8Array([1, 2, 3, 4]) },
      producerId: "E",
      epoch: 1,
    });
    if (!r.ok) throw r.error;
    store.markReady(r.value.keyId);
    ids[n % items] = r.value.keyId;
    if ((n & 3) === 0) {
      const k = ids[(n * 7919) % ids.length];
      if (store.get(k)) {
        store.pin(k);
        store.unpin(k);
      }
    }
  };
  for (let i = 0; i < items * 2; i++) op(); // full, and every put evicts from now on
  return { op, events: () => events };
}

function round(op) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) op();
  return Number(process.hrtime.bigint() - t) / N;
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

console.log(`node ${process.version}, ${ROUNDS} alternating rounds of ${N} put+markReady; median ns/op`);
console.log(`${"live items".padEnd(12)} ${"before".padStart(8)} ${"after".padStart(8)}  ratio`);
for (const items of [1024, 16384]) {
  const b = rig(Before, items);
  const a = rig(After, items);
  round(b.op);
  round(a.op);
  const tb = [];
  const ta = [];
  for (let r = 0; r < ROUNDS; r++) {
    tb.push(round(b.op));
    ta.push(round(a.op));
  }
  if (a.events() !== b.events()) throw new Error(`event counts differ: ${b.events()} vs ${a.events()}`);
  const mb = median(tb);
  const ma = median(ta);
  console.log(`${String(items).padEnd(12)} ${mb.toFixed(0).padStart(8)} ${ma.toFixed(0).padStart(8)}  ${(mb / ma).toFixed(2)}x`);
}

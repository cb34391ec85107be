import { ConsumerCore, MemoryItemStore, ProducerCore } from "../dist/index.js";
import { CONSUMER_ID, FP, ITEMS, PRODUCER_ID, RecyclingPool, SIZE, descriptor } from "./fixtures.mjs";
const store = new MemoryItemStore({ capacityBytes: ITEMS * SIZE * 2 });
const producer = new ProducerCore({ id: PRODUCER_ID, epoch: 1, fingerprint: FP, store });
const announcements = [], itemBytes = [];
for (let n = 0; n < ITEMS; n++) { const bytes = new Uint8Array(SIZE).fill(n & 0xff); const r = store.put(descriptor(n), bytes); store.markReady(r.value.keyId); announcements.push(producer.announce(r.value.keyId)); itemBytes.push(bytes); }
producer.poll(0);
const consumer = new ConsumerCore({ id: CONSUMER_ID, epoch: 1, fingerprint: FP, destinations: new RecyclingPool(),
  config: { heartbeatIntervalMs: 1e9, waitBudgetMs: 1e9, grantWaitMs: 1e9 - 1, transferTimeoutMs: 1e6, leaseMs: 1e7, quarantineCapMs: 1e9 } });
const items = announcements.map((announcement) => [{ itemId: "img", announcement, hasModelInput: false }]);
function pump(now) { let moved = true; while (moved) { moved = false;
  const co = consumer.poll(now);
  for (const o of co) { if (o.type === "send") { moved = true; producer.handleEnvelope(CONSUMER_ID, o.envelope, now); }
    else if (o.type === "start-read") { moved = true; const d = o.destination; d.region.bytes.set(itemBytes[o.source[0]], d.offset); consumer.handleReadResult({ readId: o.readId, status: "done", bytesRead: d.length }, now); } }
  const po = producer.poll(now);
  for (const o of po) if (o.type === "send") { moved = true; consumer.handleEnvelope(PRODUCER_ID, o.envelope, now); } } }
let now = 1;
const N = Number(process.env.N ?? 1e6);
const t0 = performance.now();
for (let k = 0; k < N; k++) { const req = { requestId: `r${k}`, items: items[k % ITEMS] };
  consumer.admit(req, now); pump(now); const res = consumer.admit(req, now); if (res.items[0].action !== "ready") throw 1;
  consumer.finishRequest(req.requestId, now); pump(now); now += 0.001; }
console.log(((N / (performance.now() - t0)) * 1000) | 0, "lifecycles/s");

// Producer-only benchmark: the cost of ProducerCore + MemoryItemStore per item lifecycle,
// without the consumer.
//
//   npm run build -w @ectp/protocol && npm run build -w @ectp/core
//   node packages/core/bench/producer.mjs            (or: npm run bench:producer -w @ectp/core)
//
// One lifecycle, as the producer sees it in bench/run.mjs: a ReadRequest envelope (a fresh
// object, keyed by the announcement's key object, as ConsumerCore sends it) ->
// handleEnvelope -> poll (the ReadGrant) -> a ReadComplete(OK) envelope -> handleEnvelope
// -> poll. 1024 ready items, requested round-robin; every grant is checked and released,
// and the tables are checked empty at the end. Paths:
//   objects  handleEnvelope with plain objects (the path of bench/run.mjs's target);
//   wire     handleMessage with encoded bytes (requests pre-encoded untimed; decode timed);
//   harness  the same loop against a stub producer that answers with one canned grant:
//            what the loop itself costs, subtracted to give the producer's net cost.
// Reported: ns per lifecycle by process CPU time (user + system; steadier than wall clock
// on a shared machine), median and best of BENCH_REPS repetitions (default 7), gross and
// net of the harness.
//
// Same-run comparison: BENCH_BASELINE=/path/to/other/index.js loads a second build of
// @ectp/core (an ESM file exporting ProducerCore and MemoryItemStore) and runs it
// interleaved with this one; the ratio baseline / current of the net medians is printed.
// A baseline from an older commit, with its own @ectp/protocol bundled in (from the root):
//   mkdir -p /tmp/base && git archive <commit> packages/core/src packages/protocol/src | tar -x -C /tmp/base
//   NODE_PATH=$PWD/node_modules npx esbuild /tmp/base/packages/core/src/index.ts --bundle --format=esm \
//     --platform=node --alias:@ectp/protocol=/tmp/base/packages/protocol/src/index.ts --outfile=/tmp/base/core.mjs
//   BENCH_BASELINE=/tmp/base/core.mjs node packages/core/bench/producer.mjs
// (the current build imports @ectp/protocol's dist separately; bundle both the same way
// for a strictly like-for-like pair). BENCH_SCALE scales the iteration
// count (default 1 = 300,000 lifecycles per repetition); BENCH_WIRE=0 skips the wire path
// (e.g. for a CPU profile of the object path alone).
import { SPEC_VERSION, encodeEnvelope } from "@ectp/protocol";
import * as current from "../dist/index.js";
import { CONSUMER_ID, FP, ITEMS, PRODUCER_ID, SIZE, contentHash } from "./fixtures.mjs";
import { baselineOption, intOption, refuseArguments, refuseUnknownVariables, scaleOption, switchOption } from "./options.mjs";

refuseArguments();
refuseUnknownVariables();
const SCALE = scaleOption();
const REPS = intOption("BENCH_REPS", 7, 1, 1000);
const N = Math.max(1000, Math.round(300_000 * SCALE));
const WIRE = switchOption("BENCH_WIRE", true);
const BASELINE = baselineOption();
const OK = 1; // COMPLETION_STATUS_OK

function makeRig(lib) {
  const store = new lib.MemoryItemStore({ capacityBytes: ITEMS * SIZE * 2 });
  // Heartbeats far apart: the clock advances 1 µs per lifecycle, and millions of lifecycles
  // must not reach a heartbeat (it would be an output the loop does not expect).
  const producer = new lib.ProducerCore({
    id: PRODUCER_ID,
    epoch: 1,
    fingerprint: FP,
    store,
    config: { heartbeatIntervalMs: 1e9 },
  });
  const keys = [];
  for (let n = 0; n < ITEMS; n++) {
    const r = store.put(
      { key: { contentHash: contentHash(n), fingerprint: FP }, sizeBytes: SIZE, producerId: PRODUCER_ID, epoch: 1 },
      new Uint8Array(SIZE),
    );
    if (!r.ok) throw r.error;
    store.markReady(r.value.keyId);
    // The consumer requests with the key object of the announcement it was handed.
    keys.push(producer.announce(r.value.keyId).item.key);
  }
  producer.handleEnvelope(
    CONSUMER_ID,
    {
      version: SPEC_VERSION,
      senderId: CONSUMER_ID,
      senderEpoch: 1,
      hello: { role: 1, capabilities: [], fingerprint: FP, heartbeatIntervalMs: 1e9 },
    },
    0,
  );
  producer.poll(0);
  return { store, producer, keys };
}

/** The object path: fresh envelope objects, as ConsumerCore builds them. */
function runObjects(rig, n, state) {
  const { producer, keys } = rig;
  let now = state.now;
  let attempt = state.attempt;
  for (let k = 0; k < n; k++) {
    producer.handleEnvelope(
      CONSUMER_ID,
      {
        readRequest: { attemptId: ++attempt, key: keys[k & (ITEMS - 1)], expectedEpoch: 1, expectedSizeBytes: SIZE },
        version: SPEC_VERSION,
        senderId: CONSUMER_ID,
        senderEpoch: 1,
      },
      now,
    );
    const out = producer.poll(now);
    const grant = out.length === 1 ? out[0].envelope.readGrant : undefined;
    if (!grant) throw new Error(`expected one ReadGrant, got ${JSON.stringify(out)}`);
    producer.handleEnvelope(
      CONSUMER_ID,
      {
        readComplete: { grantId: grant.grantId, status: OK, detail: "" },
        version: SPEC_VERSION,
        senderId: CONSUMER_ID,
        senderEpoch: 1,
      },
      now,
    );
    if (producer.poll(now).length !== 0) throw new Error("unexpected output after the ACK");
    now += 0.001;
  }
  state.now = now;
  state.attempt = attempt;
}

/** The wire path: the same messages as bytes (requests encoded untimed; ACKs encoded in the loop). */
function runWire(rig, n, state, requests) {
  const { producer } = rig;
  let now = state.now;
  for (let k = 0; k < n; k++) {
    producer.handleMessage(CONSUMER_ID, requests[k], now);
    const out = producer.poll(now);
    const grant = out.length === 1 ? out[0].envelope.readGrant : undefined;
    if (!grant) throw new Error(`expected one ReadGrant, got ${JSON.stringify(out)}`);
    producer.handleMessage(
      CONSUMER_ID,
      encodeEnvelope({
        readComplete: { grantId: grant.grantId, status: OK, detail: "" },
        version: SPEC_VERSION,
        senderId: CONSUMER_ID,
        senderEpoch: 1,
      }),
      now,
    );
    if (producer.poll(now).length !== 0) throw new Error("unexpected output after the ACK");
    now += 0.001;
  }
  state.now = now;
  state.attempt += n;
}

/** A stand-in producer that does nothing but answer every request with one canned grant. */
class StubProducer {
  out = [];
  grantId = 0;
  handleEnvelope(_from, env, _now) {
    if (env.readRequest) {
      this.out.push({
        type: "send",
        peerId: CONSUMER_ID,
        envelope: { readGrant: { attemptId: env.readRequest.attemptId, grantId: ++this.grantId } },
      });
    }
  }
  poll() {
    const o = this.out;
    this.out = [];
    return o;
  }
}

function cpuNsPer(n, fn) {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return ((c.user + c.system) * 1000) / n;
}

function median(a) {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function checkEmpty(rig) {
  const s = rig.producer.stats();
  if (s.grants !== 0 || s.pins !== 0 || s.pinnedBytes !== 0) throw new Error(`state left behind: ${JSON.stringify(s)}`);
}

/** One contender: a library under test with its rigs and per-path samples. */
function contender(name, lib) {
  const obj = makeRig(lib);
  const wire = makeRig(lib);
  const objState = { now: 1, attempt: 0 };
  const wireState = { now: 1, attempt: 0 };
  const requests = [];
  const encodeRequests = (n) => {
    requests.length = 0;
    for (let k = 0; k < n; k++)
      requests.push(
        encodeEnvelope({
          readRequest: {
            attemptId: wireState.attempt + k + 1,
            key: wire.keys[k & (ITEMS - 1)],
            expectedEpoch: 1,
            expectedSizeBytes: SIZE,
          },
          version: SPEC_VERSION,
          senderId: CONSUMER_ID,
          senderEpoch: 1,
        }),
      );
  };
  return {
    name,
    objects: [],
    wire: [],
    warm() {
      runObjects(obj, 20_000, objState);
      if (!WIRE) return;
      encodeRequests(10_000);
      runWire(wire, 10_000, wireState, requests);
    },
    rep() {
      this.objects.push(cpuNsPer(N, () => runObjects(obj, N, objState)));
      if (!WIRE) return;
      const nw = Math.max(1000, N >> 2);
      encodeRequests(nw);
      this.wire.push(cpuNsPer(nw, () => runWire(wire, nw, wireState, requests)));
    },
    check() {
      checkEmpty(obj);
      checkEmpty(wire);
    },
  };
}

const contenders = [contender("current", current)];
if (BASELINE) {
  const base = await import(BASELINE);
  contenders.push(contender("baseline", base));
}
const stub = new StubProducer();
const stubRig = { producer: stub, keys: makeRig(current).keys };
const harness = [];
const stubState = { now: 1, attempt: 0 };
const runStub = (n) => {
  // runObjects checks for exactly one grant and then no output after the ACK; the stub obliges.
  runObjects(stubRig, n, stubState);
};

for (const c of contenders) c.warm();
runStub(20_000);
for (let r = 0; r < REPS; r++) {
  harness.push(cpuNsPer(N, () => runStub(N)));
  for (const c of contenders) c.rep();
}
for (const c of contenders) c.check();

const { loadavg, cpus } = await import("node:os");
const h = median(harness);
const f = (x) => x.toFixed(0).padStart(7);
console.log(
  `@ectp/core producer benchmark (node ${process.version}, ${N} lifecycles x ${REPS} reps, load ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs)`,
);
console.log("ns of CPU per lifecycle (ReadRequest -> grant -> ReadComplete -> release), median / best");
console.log(`    harness only (stub producer)      ${f(h)} / ${f(Math.min(...harness))}`);
const nets = {};
for (const c of contenders) {
  const mo = median(c.objects);
  const mw = median(c.wire);
  nets[c.name] = mo - h;
  console.log(
    `    ${c.name.padEnd(9)} objects  gross ${f(mo)} / ${f(Math.min(...c.objects))}   net ${f(mo - h)}   (${((1e9 / Math.max(1, mo - h)) / 1e6).toFixed(2)} M/s of producer work)`,
  );
  if (WIRE) console.log(`    ${c.name.padEnd(9)} wire     gross ${f(mw)} / ${f(Math.min(...c.wire))}   (decode + encode of the ACK included)`);
}
if (nets.baseline !== undefined)
  console.log(`    speed-up on the object path (baseline net / current net): ${(nets.baseline / nets.current).toFixed(2)}x`);

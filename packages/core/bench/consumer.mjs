// Consumer-only benchmark: the cost of ConsumerCore per item lifecycle, without the producer.
//
//   npm run build -w @ectp/protocol && npm run build -w @ectp/core
//   node packages/core/bench/consumer.mjs
//
// One lifecycle, as the consumer sees it in bench/run.mjs: admit (a new one-item request with
// a valid announcement: validated, single-flight fetch created, ReadRequest queued) -> poll
// -> a ReadGrant envelope (a fresh object, as ProducerCore sends it) -> handleEnvelope ->
// poll (start-read) -> handleReadResult (done; verified) -> admit again (ready) ->
// finishRequest -> poll (the ReadComplete). 1024 items announced round-robin; the tables are
// checked empty at the end. Paths:
//   objects  the loop above (handleEnvelope with plain objects, the path of bench/run.mjs);
//   harness  the same loop against a stub consumer that returns canned outputs: what the
//            loop itself costs (request objects, grant envelopes, read results), subtracted
//            to give the consumer's net cost.
// Reported: ns per lifecycle by process CPU time (user + system; steadier than wall clock on
// a shared machine), median and best of BENCH_REPS repetitions (default 7), gross and net.
//
// Same-run comparison: BENCH_BASELINE=/path/to/other/index.js loads a second build of
// @ectp/core (an ESM file exporting ConsumerCore, e.g. an older dist/index.js whose
// "@ectp/protocol" import resolves) and runs it interleaved with this one; the ratio
// baseline / current of the net medians is printed. BENCH_SCALE scales the iteration count
// (default 1 = 200,000 lifecycles per repetition).
import { SPEC_VERSION } from "@ectp/protocol";
import * as current from "../dist/index.js";
import { FP, ITEMS, PRODUCER_ID, RecyclingPool, SIZE, descriptor } from "./fixtures.mjs";
import { baselineOption, intOption, refuseArguments, refuseUnknownVariables, scaleOption } from "./options.mjs";

refuseArguments();
refuseUnknownVariables();
const SCALE = scaleOption();
const REPS = intOption("BENCH_REPS", 7, 1, 1000);
const N = Math.max(1000, Math.round(200_000 * SCALE));
const VERSION = { major: 1, minor: 0 };

const CONFIG = { heartbeatIntervalMs: 1e9, waitBudgetMs: 1e9, grantWaitMs: 1e9 - 1, transferTimeoutMs: 1e6, leaseMs: 1e7, quarantineCapMs: 1e9 };

/** Stand-in for ConsumerCore with the same calls and canned outputs: the harness cost. */
class StubConsumer {
  constructor() {
    this.dest = { region: { id: 1, bytes: new Uint8Array(SIZE) }, offset: 0, length: SIZE };
    this.state = 0;
    this.granted = false;
    this.readRequest = { type: "send", peerId: PRODUCER_ID, envelope: { readRequest: { attemptId: 1 } } };
    this.startRead = { type: "start-read", readId: 1, peerId: PRODUCER_ID, source: new Uint8Array(1), destination: this.dest };
    this.defer = { status: "admitted", items: [{ action: "defer", itemId: "img" }] };
    this.ready = { status: "admitted", items: [{ action: "ready", itemId: "img", destination: this.dest }] };
  }
  admit() {
    if (this.state === 3) return this.ready;
    this.state = 1;
    return this.defer;
  }
  poll() {
    if (this.state === 1) {
      this.state = 2;
      return [this.readRequest];
    }
    if (this.state === 2 && this.granted) {
      this.granted = false;
      return [this.startRead];
    }
    return [];
  }
  handleEnvelope() {
    this.granted = true;
  }
  handleReadResult() {
    this.state = 3;
  }
  finishRequest() {
    this.state = 0;
  }
  stats() {
    return { requests: 0, fetches: 0, grantsHeld: 0, readsInFlight: 0 };
  }
}

function makeRig(lib) {
  const consumer = lib === null ? new StubConsumer() : new lib.ConsumerCore({ id: "PD", epoch: 1, fingerprint: FP, destinations: new RecyclingPool(), config: CONFIG });
  const descs = [];
  const items = [];
  for (let n = 0; n < ITEMS; n++) {
    const d = descriptor(n);
    descs.push(d);
    items.push([{ itemId: "img", announcement: { version: VERSION, item: d }, hasModelInput: false }]);
  }
  return { consumer, descs, items, grantId: 0, now: 1 };
}

/** Deliver the consumer's outputs: grant each ReadRequest, settle each read at once. */
function pump(rig, k) {
  const { consumer } = rig;
  for (let round = 0; round < 2; round++) {
    const out = consumer.poll(rig.now);
    for (let i = 0; i < out.length; i++) {
      const o = out[i];
      if (o.type === "send") {
        const rr = o.envelope.readRequest;
        if (rr)
          consumer.handleEnvelope(
            PRODUCER_ID,
            {
              version: SPEC_VERSION,
              senderId: PRODUCER_ID,
              senderEpoch: 1,
              readGrant: { attemptId: rr.attemptId, grantId: ++rig.grantId, item: rig.descs[k % ITEMS], leaseMs: 30_000 },
            },
            rig.now,
          );
      } else if (o.type === "start-read") consumer.handleReadResult({ readId: o.readId, status: "done", bytesRead: o.destination.length }, rig.now);
    }
  }
}

function run(rig, count, offset) {
  const { consumer } = rig;
  for (let k = 0; k < count; k++) {
    const requestId = `r${offset + k}`;
    const req = { requestId, items: rig.items[k % ITEMS] };
    consumer.admit(req, rig.now);
    pump(rig, k);
    const res = consumer.admit(req, rig.now);
    if (res.status !== "admitted" || res.items[0].action !== "ready") throw new Error(`lifecycle ${requestId} did not complete: ${JSON.stringify(res)}`);
    consumer.finishRequest(requestId, rig.now);
    consumer.poll(rig.now); // the ReadComplete
    rig.now += 0.001;
  }
}

function cpuNsPerLifecycle(rig, offset) {
  const c0 = process.cpuUsage();
  run(rig, N, offset);
  const c = process.cpuUsage(c0);
  return ((c.user + c.system) * 1000) / N;
}

function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { median, best: s[0] };
}

const baselinePath = baselineOption();
const baseline = baselinePath ? await import(baselinePath) : undefined;
const subjects = [
  { name: "harness (stub consumer)", rig: makeRig(null), samples: [] },
  { name: "ConsumerCore (this build)", rig: makeRig(current), samples: [] },
];
if (baseline) subjects.push({ name: "ConsumerCore (baseline)", rig: makeRig(baseline), samples: [] });
for (const s of subjects) run(s.rig, Math.min(20_000, N), 0); // warm-up: handshake, JIT, steady table sizes
for (let rep = 0; rep < REPS; rep++) for (const s of subjects) s.samples.push(cpuNsPerLifecycle(s.rig, 1e9 + rep * N));
for (const s of subjects.slice(1)) {
  const st = s.rig.consumer.stats();
  if (st.requests !== 0 || st.fetches !== 0 || st.grantsHeld !== 0 || st.readsInFlight !== 0)
    throw new Error(`state left behind: ${JSON.stringify(st)}`);
}

const fmt = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });
console.log(`@ectp/core consumer-only benchmark (node ${process.version}, ${fmt(N)} lifecycles x ${REPS} repetitions, CPU time)`);
console.log("    subject                         ns/lifecycle median   best    net of harness (median)   lifecycles per CPU-s (net)");
const harness = summary(subjects[0].samples).median;
const nets = [];
for (const s of subjects) {
  const { median, best } = summary(s.samples);
  const net = s === subjects[0] ? undefined : median - harness;
  if (net !== undefined) nets.push(net);
  console.log(
    `    ${s.name.padEnd(32)} ${fmt(median).padStart(10)} ${fmt(best).padStart(8)}    ${net === undefined ? "".padStart(10) : fmt(net).padStart(10)}                ${net === undefined ? "" : fmt(1e9 / net).padStart(12)}`,
  );
}
if (nets.length === 2) console.log(`    baseline / current (net medians): ${(nets[1] / nets[0]).toFixed(2)}x`);

import { EctpError, MAX_REPEATED_ELEMENTS, MAX_SHAPE_DIMS, SPEC_VERSION, decodeEnvelope, ectp, encodeEnvelope } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { EventBatchOutput } from "../outputs.js";
import type { StoreChange } from "./types.js";
import { MemoryItemStore } from "./memory-store.js";
import { ProducerCore } from "./producer.js";
import {
  CountingMetrics,
  FP,
  type Harness,
  PRODUCER,
  RecordingLogger,
  ack,
  desc,
  harness,
  kid,
  readRequest,
  ready,
  request,
  requiredMethodsOf,
  sent,
  wire,
} from "./test-helpers.js";

const FR = ectp.v1.FailureReason;
const HELLO: ectp.v1.IHello = {
  role: ectp.v1.Role.ROLE_CONSUMER,
  fingerprint: FP,
  transportMetadata: new Uint8Array([1, 2, 3]),
  capabilities: [],
};

function grantOf(env: ectp.v1.IEnvelope): ectp.v1.IReadGrant {
  if (!env.readGrant) throw new Error(`expected a grant, got ${JSON.stringify(env.readReject)}`);
  return env.readGrant;
}
function rejectOf(env: ectp.v1.IEnvelope): ectp.v1.IReadReject {
  if (!env.readReject) throw new Error("expected a reject");
  return env.readReject;
}
function batches(outputs: ReturnType<ProducerCore["poll"]>): ectp.v1.IEventBatch[] {
  return outputs.filter((o): o is EventBatchOutput => o.type === "event-batch").map((o) => o.batch);
}

describe("ProducerCore configuration", () => {
  it("rejects invalid options with actionable INVALID_CONFIG messages", () => {
    const store = new MemoryItemStore({ capacityBytes: 10 });
    const base = { id: "E", epoch: 1, fingerprint: FP, store };
    expect(() => new ProducerCore({ ...base, id: "" })).toThrow(
      "[INVALID_CONFIG] options.id must be a non-empty string (the producer's stable peer id)",
    );
    expect(() => new ProducerCore({ ...base, epoch: 0 })).toThrow(
      "[INVALID_CONFIG] options.epoch must be a positive integer, greater on every restart than on the one before [P8]; got 0",
    );
    expect(() => new ProducerCore({ ...base, config: { leaseMs: -1 } })).toThrow(
      "[INVALID_CONFIG] config.leaseMs must be an integer >= 1; got -1. Omit it to use the default 30000",
    );
    expect(() => new ProducerCore({ ...base, config: { leaseMs: 2 ** 33 } })).toThrow(/must fit in 32 bits/);
    expect(() => new ProducerCore({ ...base, store: {} as never })).toThrow(
      "[INVALID_CONFIG] options.store must be an ItemStore (e.g. new MemoryItemStore({ capacityBytes })), but it has no get, pin, unpin, readyItems, totalPins, subscribe methods",
    );
    expect(() => new ProducerCore({ ...base, fingerprint: { model: 3 } as never })).toThrow(EctpError);
    expect(new ProducerCore({ ...base, config: { retryAfterMs: 0 } })).toBeInstanceOf(ProducerCore);
  });

  it("options that are not an object are refused, saying what the options are", () => {
    for (const options of [undefined, null, "E"])
      expect(() => new ProducerCore(options as never)).toThrow("[INVALID_CONFIG] ProducerCore needs an options object { id, epoch, fingerprint, store }");
  });
});

describe("ProducerCore checks [V1][P7][C10]", () => {
  it("[V1][P7] answers a read_request of another major with ReadReject VERSION", () => {
    const h = harness();
    ready(h.store, 1);
    const bytes = encodeEnvelope({ version: { major: 2 }, senderId: "c", senderEpoch: 1, ...readRequest(5, 1) });
    h.producer.handleMessage("c", bytes, 0);
    const [reply] = sent(h.producer.poll(0), "c");
    expect(rejectOf(reply as ectp.v1.IEnvelope)).toMatchObject({
      attemptId: 5,
      reason: FR.FAILURE_REASON_VERSION,
      retryable: false,
    });
    expect(h.store.totalPins()).toBe(0);
  });

  it("[V1][P2] another major's greater epoch voids no grant, whether it comes as bytes or as a decoded envelope (SPEC 3.7)", () => {
    for (const decoded of [false, true]) {
      const h = harness();
      ready(h.store, 1);
      const grant = request(h, "c", 1, 1, 0).readGrant as ectp.v1.IReadGrant;
      const other = { version: { major: 2, minor: 0 }, senderId: "c", senderEpoch: 5, heartbeat: {} };
      if (decoded) h.producer.handleEnvelope("c", other, 1);
      else h.producer.handleMessage("c", ectp.v1.Envelope.encode(other).finish(), 1);
      h.producer.poll(1);
      expect(h.producer.stats().grants).toBe(1);
      expect(h.store.totalPins()).toBe(1);
      // Epoch 1 is still current: its ACK releases the grant.
      ack(h, "c", Number(grant.grantId), 2);
      h.producer.poll(2);
      expect(h.store.totalPins()).toBe(0);
    }
  });

  it("[V1] answers another major's Hello whose body does not parse as a v1 Hello, from its frozen fields", () => {
    const h = harness();
    // version 2.0, sender "v2peer", epoch 7; a Hello (field 10) whose field 3 is not a v1 Fingerprint.
    h.producer.handleMessage("v2peer", Buffer.from("0a02080212067632706565721807520608021a02ffff", "hex"), 0);
    const [reply] = sent(h.producer.poll(0), "v2peer");
    expect(reply?.handshakeReject).toMatchObject({ reason: FR.FAILURE_REASON_VERSION, supported: SPEC_VERSION });
    expect(h.producer.stats()).toMatchObject({ peers: 0, ignoredMessages: 0 });
  });

  it("[V1][P7] answers a Hello of another major with HandshakeReject VERSION naming the supported version", () => {
    const h = harness();
    // (The generated encoder: encodeEnvelope refuses major 0, as no spec has it.)
    const bytes = ectp.v1.Envelope.encode({ version: { major: 0 }, senderId: "c", senderEpoch: 1, hello: HELLO }).finish();
    h.producer.handleMessage("c", bytes, 0);
    const out = h.producer.poll(0);
    // [V1] Nothing of another major's body is acted on: its metadata is not loaded (SPEC.md 4.2).
    expect(out.map((o) => o.type)).toEqual(["send"]);
    const [reply] = sent(out, "c");
    expect(reply?.handshakeReject).toMatchObject({ reason: FR.FAILURE_REASON_VERSION, supported: SPEC_VERSION });
    expect(h.producer.stats().peers).toBe(0);
  });

  it("[C10][I1] ignores and counts garbage, other-version heartbeats, missing senders and spoofed senders", () => {
    const h = harness();
    h.producer.handleMessage("c", new Uint8Array([0xff, 0xff, 0xff]), 0);
    h.producer.handleMessage("c", encodeEnvelope({ version: { major: 9 }, senderId: "c", senderEpoch: 1, heartbeat: {} }), 0);
    h.producer.handleMessage("c", ectp.v1.Envelope.encode({ version: SPEC_VERSION, senderEpoch: 1, ...readRequest(1, 1) }).finish(), 0);
    h.producer.handleMessage("mallory", wire("c", 1, readRequest(1, 1)), 0);
    h.producer.handleMessage("c", wire("c", 1, { readGrant: { attemptId: 1, grantId: 1 } }), 0);
    h.producer.handleEnvelope("c", null as never, 0);
    expect(h.producer.poll(0)).toEqual([]);
    expect(h.producer.stats().ignoredMessages).toBe(6);
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "malformed" })).toBe(3);
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "version" })).toBe(1);
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "sender_mismatch" })).toBe(1);
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "unexpected_body" })).toBe(1);
  });

  it("[P7] checks the key's fingerprint before any lookup or the shutdown state", () => {
    const h = harness();
    const otherKey = { contentHash: new Uint8Array([1]), fingerprint: { ...FP, model: "other" } };
    const get = h.store.get.bind(h.store);
    let lookups = 0;
    h.store.get = (keyId) => {
      lookups++;
      return get(keyId);
    };
    h.producer.shutdown(0);
    h.producer.handleMessage("c", wire("c", 1, { readRequest: { attemptId: 3, key: otherKey } }), 0);
    const [reply] = sent(h.producer.poll(0), "c");
    expect(rejectOf(reply as ectp.v1.IEnvelope)).toMatchObject({ reason: FR.FAILURE_REASON_INCOMPATIBLE, retryable: false });
    expect(reply?.readReject?.detail).toBe('model "other" != "m"');
    expect(lookups).toBe(0);
  });

  it("[P8] rejects a request naming another producer epoch with EPOCH_CHANGED", () => {
    const h = harness();
    ready(h.store, 1);
    const r = rejectOf(request(h, "c", 1, 1, 0, 1, { expectedEpoch: PRODUCER.epoch - 1 }));
    expect(r).toMatchObject({ reason: FR.FAILURE_REASON_EPOCH_CHANGED, retryable: false });
    expect(grantOf(request(h, "c", 2, 1, 0, 1, { expectedEpoch: PRODUCER.epoch }))).toBeDefined();
  });

  it("rejects a request whose expected size differs with INTERNAL", () => {
    const h = harness();
    ready(h.store, 1, 10);
    const r = rejectOf(request(h, "c", 1, 1, 0, 1, { expectedSizeBytes: 11 }));
    expect(r).toMatchObject({ reason: FR.FAILURE_REASON_INTERNAL, retryable: false });
    expect(h.store.totalPins()).toBe(0);
  });

  it("[C10] 64-bit fields given as Long-like { low, high } objects are read as numbers; anything else that is not a number is malformed", () => {
    const h = harness();
    ready(h.store, 1);
    const long = (low: number, high = 0) => ({ low, high }) as unknown as number;
    h.producer.handleEnvelope("c", { version: SPEC_VERSION, senderId: "c", senderEpoch: long(1), ...readRequest(long(5, 1), 1) }, 0);
    const [reply] = sent(h.producer.poll(0), "c");
    expect(grantOf(reply as ectp.v1.IEnvelope).attemptId).toBe(2 ** 32 + 5);
    for (const senderEpoch of [{}, "1", true]) h.producer.handleEnvelope("c", { version: SPEC_VERSION, senderId: "c", senderEpoch, heartbeat: {} } as never, 1);
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "malformed" })).toBe(3);
    expect(h.producer.stats()).toMatchObject({ grants: 1, ignoredMessages: 3 });
  });

  it("[I1][C10] an envelope whose fields throw when read is ignored as malformed and logged, never thrown", () => {
    const h = harness();
    ready(h.store, 1);
    const hostile = Object.defineProperty({ version: SPEC_VERSION, senderId: "c", senderEpoch: 1 }, "readRequest", {
      enumerable: true,
      get() {
        throw new Error("hostile getter");
      },
    });
    expect(() => h.producer.handleEnvelope("c", hostile, 0)).not.toThrow();
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "malformed" })).toBe(1);
    expect(h.logger.warnings.map((w) => w.message)).toEqual(["ERROR producer failed to handle a message"]);
    expect(sent(h.producer.poll(0))).toEqual([]);
    expect(h.producer.stats()).toMatchObject({ grants: 0, pins: 0 });
  });

  it("[P7] a fingerprint that leaves out its zero-valued fields is ours: items stored with it are announced and granted", () => {
    const ours = { model: "m", dtype: 0, rowBytes: 0, layoutVersion: 1 };
    const store = new MemoryItemStore({ capacityBytes: 100 });
    const producer = new ProducerCore({ ...PRODUCER, fingerprint: ours, store });
    const key = { contentHash: new Uint8Array([1]), fingerprint: { model: "m", layoutVersion: 1 } };
    const put = store.put({ key, sizeBytes: 10, producerId: PRODUCER.id, epoch: PRODUCER.epoch });
    if (!put.ok) throw put.error;
    store.markReady(put.value.keyId);
    expect(producer.announce(put.value.keyId)?.item?.key).toEqual(key);
    producer.handleEnvelope("c", { version: SPEC_VERSION, senderId: "c", senderEpoch: 1, readRequest: { attemptId: 1, key } }, 0);
    expect(grantOf(sent(producer.poll(0), "c")[0] as ectp.v1.IEnvelope).item?.key).toEqual(key);
  });

  it("a stored descriptor whose size was changed in place after put (no longer a positive integer) is refused INTERNAL, never granted", () => {
    const h = harness();
    const d = desc(1);
    const put = h.store.put(d);
    if (!put.ok) throw put.error;
    h.store.markReady(kid(1));
    d.sizeBytes = 0; // the engine reused its descriptor object
    const r = rejectOf(request(h, "c", 1, 1, 0));
    expect(r).toMatchObject({ reason: FR.FAILURE_REASON_INTERNAL, retryable: false, detail: "stored descriptor has no valid sizeBytes" });
    expect(h.store.totalPins()).toBe(0);
  });
});

describe("ProducerCore hooks [I1]", () => {
  it("[I1] metrics and logger hooks that throw are contained and counted: grants, rejects and releases go on as with working hooks", () => {
    const fail = (): never => {
      throw new Error("exporter down");
    };
    const store = new MemoryItemStore({ capacityBytes: 1000 });
    const broken: Harness = {
      producer: new ProducerCore({
        ...PRODUCER,
        fingerprint: FP,
        store,
        transportMetadata: new Uint8Array([0xee]),
        metrics: { counter: fail, gauge: fail, histogram: fail },
        logger: { debug: fail, info: fail, warn: fail, error: fail },
      }),
      store,
      metrics: new CountingMetrics(),
      logger: new RecordingLogger(),
    };
    const working = harness();
    const script = (h: Harness) => {
      ready(h.store, 1);
      const replies = [request(h, "a", 1, 1, 0), request(h, "a", 2, 9, 1)]; // a grant, then NOT_FOUND
      ack(h, "a", grantOf(replies[0] as ectp.v1.IEnvelope).grantId as number, 2);
      h.producer.handleMessage("a", new Uint8Array([0xff, 0xff]), 3); // garbage: counted and logged
      return [...replies, h.producer.poll(3), h.producer.stats().pins];
    };
    expect(script(broken)).toEqual(script(working));
    expect(working.metrics.counts.size).toBeGreaterThan(0);
    expect(broken.producer.stats().hookFailures).toBeGreaterThan(0);
    expect({ ...broken.producer.stats(), hookFailures: 0 }).toEqual(working.producer.stats());
  });
});

describe("ProducerCore handshake", () => {
  it("records a consumer, connects its metadata once per epoch and replies with its own Hello", () => {
    const h = harness({ heartbeatIntervalMs: 500 });
    h.producer.handleMessage("c", wire("c", 1, { hello: { ...HELLO, capabilities: ["events.v1", "x.future"] } }), 0);
    const out = h.producer.poll(0);
    expect(out[0]).toMatchObject({ type: "connect-peer", peerId: "c", epoch: 1 });
    expect(Array.from((out[0] as { metadata: Uint8Array }).metadata)).toEqual([1, 2, 3]);
    const [reply] = sent(out, "c");
    expect(reply).toMatchObject({
      senderId: "E",
      senderEpoch: PRODUCER.epoch,
      version: SPEC_VERSION,
      hello: {
        role: ectp.v1.Role.ROLE_PRODUCER,
        capabilities: ["events.v1"],
        fingerprint: FP,
        transportMetadata: new Uint8Array([0xee]),
        heartbeatIntervalMs: 500,
      },
    });
    h.producer.handleMessage("c", wire("c", 1, { hello: HELLO }), 1);
    const again = h.producer.poll(1);
    expect(again.filter((o) => o.type === "connect-peer")).toEqual([]);
    expect(sent(again, "c")[0]?.hello).toBeDefined();
    // A new epoch connects again.
    h.producer.handleMessage("c", wire("c", 2, { hello: HELLO }), 2);
    expect(h.producer.poll(2).filter((o) => o.type === "connect-peer")).toHaveLength(1);
  });

  it("does not ask to connect a peer whose Hello carries no metadata", () => {
    const h = harness();
    h.producer.handleMessage("c", wire("c", 1, { hello: { ...HELLO, transportMetadata: new Uint8Array(0) } }), 0);
    const out = h.producer.poll(0);
    expect(out.map((o) => o.type)).toEqual(["send"]);
  });

  it("[P7] a ReadRequest without a key is answered INTERNAL (check 6), not INCOMPATIBLE", () => {
    const h = harness();
    expect(rejectOf(request(h, "c", 1, 1, 0, 1, { key: null }))).toMatchObject({ reason: FR.FAILURE_REASON_INTERNAL, retryable: false });
  });

  it("[P7] refuses a Hello with another fingerprint (INCOMPATIBLE) without recording the peer", () => {
    const h = harness();
    h.producer.handleMessage("c", wire("c", 1, { hello: { ...HELLO, fingerprint: { ...FP, layoutVersion: 2 } } }), 0);
    const out = h.producer.poll(0);
    expect(out.map((o) => o.type)).toEqual(["connect-peer", "send"]); // SPEC.md 4.2: the metadata first
    expect(sent(out, "c")[0]?.handshakeReject).toMatchObject({
      reason: FR.FAILURE_REASON_INCOMPATIBLE,
      detail: "layoutVersion 2 != 1",
    });
    expect(h.producer.stats().peers).toBe(0);
    // The producer's own log says so (the misconfigured deployment is seen from either side).
    expect(h.logger.warnings).toEqual([
      {
        message: "consumer's Hello refused; it reads nothing from this producer until it changes",
        fields: { peerId: "c", reason: "INCOMPATIBLE", detail: "layoutVersion 2 != 1" },
      },
    ]);
    // Refused again in the same epoch: loaded again (nothing recorded); a Hello without metadata loads nothing.
    h.producer.handleMessage("c", wire("c", 1, { hello: { ...HELLO, fingerprint: { ...FP, layoutVersion: 2 } } }), 1);
    expect(h.producer.poll(1).map((o) => o.type)).toEqual(["connect-peer", "send"]);
    h.producer.handleMessage("d", wire("d", 1, { hello: { ...HELLO, transportMetadata: new Uint8Array(0), fingerprint: { ...FP, layoutVersion: 2 } } }), 2);
    expect(h.producer.poll(2).map((o) => o.type)).toEqual(["send"]);
  });

  it("refuses a Hello without a role as INTERNAL and ignores a producer's Hello", () => {
    const h = harness();
    h.producer.handleMessage("c", wire("c", 1, { hello: { ...HELLO, role: 0 } }), 0);
    h.producer.handleMessage("p", wire("p", 1, { hello: { ...HELLO, role: ectp.v1.Role.ROLE_PRODUCER } }), 0);
    const out = h.producer.poll(0);
    expect(sent(out, "c")[0]?.handshakeReject?.reason).toBe(FR.FAILURE_REASON_INTERNAL);
    expect(sent(out, "p")).toEqual([]);
    expect(h.producer.stats().ignoredMessages).toBe(1);
  });
});

describe("ProducerCore grants", () => {
  it("[P1] absent is NOT_FOUND (terminal); present but not ready is NOT_READY (retryable, with a hint)", () => {
    const h = harness({ retryAfterMs: 75 });
    expect(rejectOf(request(h, "c", 1, 1, 0))).toMatchObject({ reason: FR.FAILURE_REASON_NOT_FOUND, retryable: false });
    h.store.put(desc(1));
    expect(rejectOf(request(h, "c", 2, 1, 0))).toMatchObject({
      reason: FR.FAILURE_REASON_NOT_READY,
      retryable: true,
      retryAfterMs: 75,
    });
    h.store.markReady(kid(1));
    const g = grantOf(request(h, "c", 3, 1, 0));
    expect(g).toMatchObject({ attemptId: 3, leaseMs: 30_000, item: desc(1) });
    expect(h.store.totalPins()).toBe(1);
  });

  it("finds items whatever the key bytes and model name (key ids match itemKeyId exactly)", () => {
    const fp = { model: 'm "quoted" \u00e9\u2028', dtype: 3, rowBytes: 2048, layoutVersion: 9 };
    const store = new MemoryItemStore({ capacityBytes: 10_000 });
    const producer = new ProducerCore({ id: "E", epoch: 1, fingerprint: fp, store });
    for (const hash of [new Uint8Array([0]), new Uint8Array(64).fill(0xff), new Uint8Array([1, 0x0a, 0xab, 0x10])]) {
      const key = { contentHash: hash, fingerprint: fp };
      const r = store.put({ key, sizeBytes: 4, producerId: "E", epoch: 1 });
      if (!r.ok) throw r.error;
      store.markReady(r.value.keyId);
      producer.handleMessage("c", wire("c", 1, { readRequest: { attemptId: 1, key } }), 0);
      expect(grantOf(sent(producer.poll(0), "c")[0] as ectp.v1.IEnvelope).grantId).toBeGreaterThan(0);
    }
  });

  it("[P2] pins once per grant; grant ids are unique and increasing", () => {
    const h = harness();
    ready(h.store, 1);
    ready(h.store, 2);
    const ids = [grantOf(request(h, "a", 1, 1, 0)), grantOf(request(h, "b", 1, 1, 0)), grantOf(request(h, "a", 2, 2, 0))].map(
      (g) => g.grantId,
    );
    const first = ids[0] as number;
    expect(first).toBeGreaterThan(0);
    expect(ids).toEqual([first, first + 1, first + 2]);
    expect(h.store.get(kid(1))?.pins).toBe(2);
    expect(h.producer.stats()).toMatchObject({ grants: 3, pins: 3, pinnedBytes: 30 });
  });

  it("regression background#6 [P2]: two consumers reading one item hold two pins; the first ACK leaves one", () => {
    const h = harness();
    ready(h.store, 1);
    const ga = grantOf(request(h, "a", 1, 1, 0));
    const gb = grantOf(request(h, "b", 1, 1, 0));
    expect(h.store.get(kid(1))?.pins).toBe(2);
    ack(h, "a", ga.grantId as number, 1);
    expect(h.store.get(kid(1))?.pins).toBe(1);
    // The item is still protected for b: pressure cannot evict it.
    expect(h.store.put(desc(2, 995)).ok).toBe(false);
    ack(h, "b", gb.grantId as number, 2);
    expect(h.store.totalPins()).toBe(0);
    expect(h.producer.stats().grants).toBe(0);
  });

  // Mutant: onReadComplete counts an ABANDONED ACK (or another status) under the wrong release cause.
  it("[P2] each ACK releases its grant under the cause its status names: ack_ok, ack_abandoned, ack_failed", () => {
    const h = harness();
    for (const n of [1, 2, 3, 4]) ready(h.store, n);
    const CS = ectp.v1.CompletionStatus;
    const statuses = [CS.COMPLETION_STATUS_OK, CS.COMPLETION_STATUS_ABANDONED, CS.COMPLETION_STATUS_FAILED, CS.COMPLETION_STATUS_UNSPECIFIED];
    statuses.forEach((status, i) => {
      const g = grantOf(request(h, "a", i + 1, i + 1, i));
      ack(h, "a", g.grantId as number, 10 + i, 1, status);
    });
    const released = (cause: string) => h.metrics.get("ectp_producer_releases_total", { cause });
    // An unknown or unspecified status is not a success: ack_failed.
    expect([released("ack_ok"), released("ack_abandoned"), released("ack_failed")]).toEqual([1, 1, 2]);
    expect(h.store.totalPins()).toBe(0);
  });

  it("[P2][C10] a second ACK, an ACK of another consumer's grant, or of an unknown grant is ignored and counted", () => {
    const h = harness();
    ready(h.store, 1);
    const ga = grantOf(request(h, "a", 1, 1, 0));
    const gb = grantOf(request(h, "b", 1, 1, 0));
    ack(h, "a", gb.grantId as number, 1); // not a's grant
    ack(h, "a", 999, 1); // unknown
    ack(h, "a", ga.grantId as number, 1, 2); // a's new epoch does not own an old-epoch grant: it voids it [P8]
    expect(h.store.get(kid(1))?.pins).toBe(1); // a's grant was released by a's restart, b's stays
    ack(h, "b", gb.grantId as number, 1);
    ack(h, "b", gb.grantId as number, 1); // second ACK
    expect(h.store.totalPins()).toBe(0);
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "not_owner" })).toBe(1);
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "unknown_grant" })).toBe(3);
  });

  it("[P2] only the holder's epoch releases a grant: an ACK from an older epoch is stale and ignored", () => {
    const h = harness();
    ready(h.store, 1);
    const g = grantOf(request(h, "a", 1, 1, 0, 3));
    ack(h, "a", g.grantId as number, 1, 2);
    expect(h.store.totalPins()).toBe(1);
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "stale_epoch" })).toBe(1);
    ack(h, "a", g.grantId as number, 1, 3);
    expect(h.store.totalPins()).toBe(0);
  });

  it("[P2][I3] a store without the optional unpinEntry is unpinned by key: ACK, lease and peer loss each release one pin", () => {
    const inner = new MemoryItemStore({ capacityBytes: 1000 });
    const producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store: requiredMethodsOf(inner), config: { leaseMs: 1000 } });
    const h = { producer, store: inner } as unknown as Parameters<typeof request>[0];
    ready(inner, 1);
    ready(inner, 2);
    const g1 = grantOf(request(h, "a", 1, 1, 0));
    grantOf(request(h, "a", 2, 2, 0));
    grantOf(request(h, "b", 1, 1, 500));
    expect(inner.totalPins()).toBe(3);
    ack(h, "a", g1.grantId as number, 10);
    expect(inner.get(kid(1))?.pins).toBe(1);
    producer.poll(1000); // a's grant of item 2 expires
    expect(inner.get(kid(2))?.pins).toBe(0);
    producer.handlePeerUnreachable("b", 1100);
    expect(inner.totalPins()).toBe(0);
    expect(producer.stats().grants).toBe(0);
  });

  it("[P3] each grant expires at its own deadline; a later grant does not extend an earlier one (regression background#7)", () => {
    const h = harness({ leaseMs: 1000 });
    ready(h.store, 1);
    const g1 = grantOf(request(h, "a", 1, 1, 0));
    grantOf(request(h, "b", 1, 1, 600));
    expect(h.producer.announce(kid(1))).toBeDefined(); // re-announcement
    expect(h.producer.nextDeadline()).toBe(1000);
    h.producer.poll(999);
    expect(h.store.get(kid(1))?.pins).toBe(2);
    h.producer.poll(1000);
    expect(h.store.get(kid(1))?.pins).toBe(1);
    expect(h.metrics.get("ectp_producer_lease_expired_total")).toBe(1);
    expect(h.logger.warnings[0]).toMatchObject({
      message: "grant lease expired without an ACK; pin released",
      fields: { grantId: g1.grantId, consumerId: "a", itemKey: kid(1) },
    });
    // The expired grant's late ACK is unknown now.
    ack(h, "a", g1.grantId as number, 1001);
    expect(h.store.get(kid(1))?.pins).toBe(1);
    h.producer.poll(1600);
    expect(h.store.totalPins()).toBe(0);
    expect(h.producer.stats().grants).toBe(0);
  });

  it("[P3] a repeat request from the same consumer replaces its older grant; the old pin is released first", () => {
    const h = harness({ leaseMs: 1000, maxGrantsPerConsumer: 1 });
    ready(h.store, 1);
    const g1 = grantOf(request(h, "a", 1, 1, 0));
    const g2 = grantOf(request(h, "a", 2, 1, 500)); // would be over quota without the replacement
    expect(g2.grantId).not.toBe(g1.grantId);
    expect(h.store.get(kid(1))?.pins).toBe(1);
    // Counted as a replacement, not as a lease expiry (g1's lease has 500 ms left).
    expect(h.metrics.get("ectp_producer_releases_total", { cause: "replaced" })).toBe(1);
    expect(h.metrics.get("ectp_producer_releases_total", { cause: "lease" })).toBe(0);
    ack(h, "a", g1.grantId as number, 600); // the old grant is gone
    expect(h.store.totalPins()).toBe(1);
    h.producer.poll(1000); // g1's deadline: nothing, g2 runs to 1500
    expect(h.store.totalPins()).toBe(1);
    h.producer.poll(1500);
    expect(h.store.totalPins()).toBe(0);
  });

  it("[P3][C11] a duplicated ReadRequest keeps the live grant: resent with the lease it has left, no new pin, no lease change", () => {
    const h = harness({ leaseMs: 1000 });
    ready(h.store, 1);
    const g1 = grantOf(request(h, "a", 5, 1, 0));
    // The same attempt again (the network duplicated the message), later: the consumer counts
    // the lease from receipt, so the resent grant carries only the 600 ms left, not 1000.
    const again = grantOf(request(h, "a", 5, 1, 400));
    expect(again).toEqual({ ...g1, leaseMs: 600 }); // same grant id, attempt and item
    expect(h.store.get(kid(1))?.pins).toBe(1);
    expect(h.producer.stats().grants).toBe(1);
    expect(h.producer.stats().ignoredMessages).toBe(0);
    expect(h.metrics.get("ectp_producer_duplicate_requests_total")).toBe(1);
    expect(h.metrics.get("ectp_producer_releases_total", { cause: "replaced" })).toBe(0);
    // The lease still ends 1000 ms after the first grant, not after the duplicate.
    expect(h.producer.nextDeadline()).toBe(1000);
    h.producer.poll(999);
    expect(h.store.get(kid(1))?.pins).toBe(1);
    // The holder's ACK of the (only) grant releases it.
    ack(h, "a", g1.grantId as number, 999);
    expect(h.store.totalPins()).toBe(0);
    expect(h.producer.stats().grants).toBe(0);
    // With less than 1 ms left nothing is resent (lease_ms 0 would mean 30 000 to the consumer).
    const h2 = harness({ leaseMs: 1000 });
    ready(h2.store, 1);
    request(h2, "a", 5, 1, 0);
    h2.producer.handleMessage("a", wire("a", 1, readRequest(5, 1)), 999.5);
    expect(sent(h2.producer.poll(999.5), "a").filter((e) => e.readGrant)).toEqual([]);
    expect(h2.producer.stats().grants).toBe(1);
  });

  it("[P3][C10] a ReadRequest with a lower attempt id than the live grant is ignored and counted; the grant stays", () => {
    const h = harness({ leaseMs: 1000 });
    ready(h.store, 1);
    const g = grantOf(request(h, "a", 7, 1, 0));
    h.producer.handleMessage("a", wire("a", 1, readRequest(6, 1)), 100); // reordered older attempt
    const out = h.producer.poll(100);
    expect(sent(out, "a").filter((e) => e.readGrant || e.readReject)).toEqual([]);
    expect(h.producer.stats().ignoredMessages).toBe(1);
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "stale_attempt" })).toBe(1);
    expect(h.store.get(kid(1))?.pins).toBe(1);
    expect(h.producer.nextDeadline()).toBe(1000);
    ack(h, "a", g.grantId as number, 200); // the live grant is still the holder's
    expect(h.store.totalPins()).toBe(0);
  });

  it("[P3] attempt ids are compared per consumer and per key: other consumers and other items are unaffected", () => {
    const h = harness({ leaseMs: 1000 });
    ready(h.store, 1);
    ready(h.store, 2);
    const a1 = grantOf(request(h, "a", 5, 1, 0));
    // Another consumer with the same (its own) attempt id gets its own grant and pin.
    const b1 = grantOf(request(h, "b", 5, 1, 0));
    expect(b1.grantId).not.toBe(a1.grantId);
    // The same consumer, a lower attempt id, another item: a normal new grant.
    const a2 = grantOf(request(h, "a", 3, 2, 0));
    expect(a2.grantId).not.toBe(a1.grantId);
    expect(h.store.get(kid(1))?.pins).toBe(2);
    expect(h.store.get(kid(2))?.pins).toBe(1);
    // After the ACK the same attempt id is no longer a duplicate of anything live: a fresh grant.
    ack(h, "a", a1.grantId as number, 10);
    const a3 = grantOf(request(h, "a", 5, 1, 20));
    expect(a3.grantId).not.toBe(a1.grantId);
    expect(h.store.get(kid(1))?.pins).toBe(2);
    expect(h.producer.stats().ignoredMessages).toBe(0);
  });

  it("[P3][P7] a request of a foreign fingerprint is never taken for a duplicate; it is rejected INCOMPATIBLE", () => {
    const h = harness();
    ready(h.store, 1);
    grantOf(request(h, "a", 5, 1, 0));
    const key = { ...desc(1).key, fingerprint: { ...FP, model: "other" } };
    expect(rejectOf(request(h, "a", 5, 1, 0, 1, { key })).reason).toBe(FR.FAILURE_REASON_INCOMPATIBLE);
    expect(h.store.get(kid(1))?.pins).toBe(1);
  });

  it("regression background#8 [P4]: announcing never pins; an announced, unread item stays evictable", () => {
    const h = harness({}, 20);
    h.store.put(desc(1));
    expect(h.producer.announce(kid(1))).toEqual({ version: SPEC_VERSION, item: desc(1), transportMetadata: new Uint8Array([0xee]) });
    h.store.markReady(kid(1));
    for (let i = 0; i < 5; i++) h.producer.announce(kid(1));
    ready(h.store, 2);
    expect(h.store.totalPins()).toBe(0);
    expect(h.store.put(desc(3)).ok).toBe(true); // evicts the announced item 1
    expect(h.producer.announce(kid(1))).toBeUndefined();
  });

  it("[P5] a consumer over its grant or byte quota gets OVERLOADED (retryable); others are unaffected", () => {
    const h = harness({ maxGrantsPerConsumer: 2, maxPinnedBytesPerConsumer: 25, retryAfterMs: 40 });
    ready(h.store, 1);
    ready(h.store, 2);
    ready(h.store, 3);
    ready(h.store, 4, 20);
    grantOf(request(h, "a", 1, 1, 0));
    expect(rejectOf(request(h, "a", 2, 4, 0))).toMatchObject({
      reason: FR.FAILURE_REASON_OVERLOADED,
      retryable: true,
      retryAfterMs: 40,
    });
    const g2 = grantOf(request(h, "a", 3, 2, 0));
    expect(rejectOf(request(h, "a", 4, 3, 0)).reason).toBe(FR.FAILURE_REASON_OVERLOADED);
    grantOf(request(h, "b", 1, 3, 0));
    ack(h, "a", g2.grantId as number, 1);
    grantOf(request(h, "a", 5, 3, 1));
    expect(h.producer.stats().pins).toBe(h.producer.stats().grants);
  });

  it("[P2][P5] live grants and pinned bytes are on gauges, set by a poll when they changed", () => {
    const h = harness();
    ready(h.store, 1, 10);
    ready(h.store, 2, 30);
    const latest = () => {
      const last = (name: string) => h.metrics.gauges.filter((g) => g.name === name).at(-1)?.value;
      return { grants: last("ectp_producer_live_grants"), pinnedBytes: last("ectp_producer_pinned_bytes") };
    };
    h.producer.poll(0);
    expect(latest()).toEqual({ grants: 0, pinnedBytes: 0 });
    const g1 = grantOf(request(h, "a", 1, 1, 0)); // request() polls
    grantOf(request(h, "b", 1, 2, 0));
    expect(latest()).toEqual({ grants: 2, pinnedBytes: 40 });
    const set = h.metrics.gauges.length;
    h.producer.poll(1);
    expect(h.metrics.gauges).toHaveLength(set); // nothing changed: nothing set
    ack(h, "a", g1.grantId as number, 2);
    h.producer.poll(2);
    expect(latest()).toEqual({ grants: 1, pinnedBytes: 30 });
  });

  it("[P3][P5] a grant past its lease deadline is not live even before a poll releases it: no quota held, no duplicate of it", () => {
    const h = harness({ leaseMs: 1000, maxGrantsPerConsumer: 1 });
    ready(h.store, 1);
    ready(h.store, 2);
    grantOf(request(h, "a", 1, 1, 0));
    // Handed over at the deadline, before any poll (a driver hands messages over first): granted.
    const g2 = grantOf(request(h, "a", 2, 2, 1000));
    expect(h.producer.stats()).toMatchObject({ grants: 1, pins: 1 });
    expect(h.store.get(kid(1))?.pins).toBe(0);
    expect(h.metrics.get("ectp_producer_lease_expired_total")).toBe(1);
    // The attempt of an expired grant again is no duplicate: granted afresh, under a new id, one pin.
    const g3 = grantOf(request(h, "a", 2, 2, 2000.5));
    expect(g3.grantId).not.toBe(g2.grantId);
    expect(g3.leaseMs).toBe(1000);
    expect(h.store.get(kid(2))?.pins).toBe(1);
    expect(h.producer.stats()).toMatchObject({ grants: 1, pins: 1 });
  });

  it("[P2][P3][C10] a ReadComplete handled at the lease deadline, before a poll, names a grant no longer live: the lease released it, the ACK is ignored and counted", () => {
    const h = harness({ leaseMs: 1000 });
    ready(h.store, 1);
    const g = grantOf(request(h, "a", 1, 1, 0));
    ack(h, "a", g.grantId as number, 1000);
    expect(h.producer.stats()).toMatchObject({ grants: 0, pins: 0, ignoredMessages: 1 });
    expect(h.metrics.get("ectp_producer_releases_total", { cause: "lease" })).toBe(1);
    expect(h.metrics.get("ectp_producer_releases_total", { cause: "ack_ok" })).toBe(0);
    expect(h.metrics.get("ectp_producer_lease_expired_total")).toBe(1);
  });

  it.each([
    ["the consumer is unreachable", "peer_gone", (h: Harness) => h.producer.handlePeerUnreachable("a", 1000)],
    ["the consumer restarts", "epoch", (h: Harness) => h.producer.handleMessage("a", wire("a", 2, { heartbeat: {} }), 1000)],
    ["the producer shuts down", "shutdown", (h: Harness) => expect(h.producer.shutdown(1000)).toBe(1500)],
  ])("[P3] when %s before a poll, a grant already past its lease deadline is released by its lease; the live one for that cause", (_, cause, act) => {
    const h = harness({ leaseMs: 1000 });
    ready(h.store, 1);
    ready(h.store, 2);
    grantOf(request(h, "a", 1, 1, 0, 1));
    grantOf(request(h, "a", 2, 2, 500, 1));
    act(h);
    expect(h.producer.stats()).toMatchObject({ grants: 0, pins: 0 });
    expect(h.metrics.get("ectp_producer_releases_total", { cause: "lease" })).toBe(1);
    expect(h.metrics.get("ectp_producer_lease_expired_total")).toBe(1);
    expect(h.metrics.get("ectp_producer_releases_total", { cause })).toBe(1);
  });

  it("[P5] an item larger than the byte quota itself is rejected INTERNAL, terminal: no wait can make it grantable", () => {
    const h = harness({ maxPinnedBytesPerConsumer: 25 });
    ready(h.store, 1, 26);
    expect(rejectOf(request(h, "a", 1, 1, 0))).toMatchObject({ reason: FR.FAILURE_REASON_INTERNAL, retryable: false });
    expect(h.producer.stats().pins).toBe(0);
  });

  it("[I3] a store that fails to unpin a released grant is counted and logged, not ignored", () => {
    const h = harness();
    ready(h.store, 1);
    const g = grantOf(request(h, "a", 1, 1, 0));
    h.store.unpinEntry = () => {
      throw new Error("store bug");
    };
    ack(h, "a", g.grantId as number, 1);
    expect(h.metrics.get("ectp_producer_unpin_errors_total")).toBe(1);
    expect(h.logger.warnings.at(-1)?.message).toBe("store refused to unpin a released grant");
  });

  it("[I3][I1] a store whose unpin throws a value that cannot be turned into a string: every grant of a gone consumer is still released, each failure counted", () => {
    const h = harness();
    ready(h.store, 1);
    ready(h.store, 2);
    grantOf(request(h, "a", 1, 1, 0));
    grantOf(request(h, "a", 2, 2, 0));
    h.store.unpinEntry = () => {
      throw Object.create(null);
    };
    expect(() => h.producer.handlePeerUnreachable("a", 1)).not.toThrow();
    // Both grants released; the store's pins stay where its bug left them, visible in stats.
    expect(h.producer.stats()).toMatchObject({ grants: 0, pins: 2 });
    expect(h.metrics.get("ectp_producer_unpin_errors_total")).toBe(2);
    expect(h.logger.warnings.filter((w) => w.message === "store refused to unpin a released grant").map((w) => w.fields)).toEqual([
      expect.objectContaining({ error: "a thrown object that cannot be turned into a string" }),
      expect.objectContaining({ error: "a thrown object that cannot be turned into a string" }),
    ]);
  });

  it("[P6] a granted item is not evicted; once released it is evictable and its eviction is an event", () => {
    const h = harness({}, 20);
    ready(h.store, 1);
    ready(h.store, 2);
    h.producer.poll(0);
    const g = grantOf(request(h, "a", 1, 1, 0));
    expect(h.store.put(desc(3)).ok).toBe(true); // evicts 2, not the pinned 1
    expect(h.store.get(kid(1))).toBeDefined();
    ack(h, "a", g.grantId as number, 1);
    h.store.markReady(kid(3));
    expect(h.store.put(desc(4)).ok).toBe(true); // now 1 goes
    const [batch] = batches(h.producer.poll(2));
    expect(batch?.events?.map((e) => e.removed?.cause ?? (e.stored ? "stored" : "?"))).toEqual([
      ectp.v1.RemovedCause.REMOVED_CAUSE_EVICTED,
      "stored",
      ectp.v1.RemovedCause.REMOVED_CAUSE_EVICTED,
    ]);
  });

  it("[P7] shutdown releases every pin, publishes Cleared(SHUTDOWN) and rejects later requests SHUTTING_DOWN", () => {
    const h = harness();
    ready(h.store, 1);
    h.producer.poll(0);
    grantOf(request(h, "a", 1, 1, 0));
    grantOf(request(h, "b", 1, 1, 700));
    // The memory must outlive the last released lease (the default 30 s, from t=700) [P7].
    expect(h.producer.shutdown(800)).toBe(30_700);
    expect(h.store.totalPins()).toBe(0);
    expect(h.producer.stats()).toMatchObject({ grants: 0, shuttingDown: true });
    const [batch] = batches(h.producer.poll(800));
    expect(batch?.events).toEqual([{ cleared: { cause: ectp.v1.ClearedCause.CLEARED_CAUSE_SHUTDOWN } }]);
    expect(rejectOf(request(h, "a", 2, 1, 802))).toMatchObject({ reason: FR.FAILURE_REASON_SHUTTING_DOWN, retryable: false });
    expect(h.producer.announce(kid(1))).toBeUndefined();
    expect(h.producer.shutdown(803)).toBe(30_700); // idempotent
    expect(batches(h.producer.poll(803))).toEqual([]);
    expect(harness().producer.shutdown(0)).toBeUndefined(); // nothing was granted
  });

  it("[P2][P7] a grant released without its consumer's word (declared gone, or restarted) still counts for shutdown's reuseAfter and stats().readableUntil until its lease ends", () => {
    for (const how of ["unreachable", "restarted"] as const) {
      const h = harness({ leaseMs: 30_000 });
      ready(h.store, 1);
      h.producer.poll(0);
      grantOf(request(h, "c", 1, 1, 0)); // readable until 30000
      if (how === "unreachable") h.producer.handlePeerUnreachable("c", 100);
      else h.producer.handleMessage("c", wire("c", 2, { heartbeat: {} }), 100); // c's epoch 2: its epoch-1 grants are released
      h.producer.poll(150);
      expect(h.producer.stats()).toMatchObject({ grants: 0, pins: 0, readableUntil: 30_000 });
      expect(h.producer.shutdown(200)).toBe(30_000);
      h.producer.poll(30_000);
      expect(h.producer.stats().readableUntil).toBeUndefined();
    }
  });

  it("[P2] stats().readableUntil: the latest live lease; undefined once ACKed or expired", () => {
    const h = harness({ leaseMs: 1_000 });
    ready(h.store, 1);
    h.producer.poll(0);
    expect(h.producer.stats().readableUntil).toBeUndefined();
    const g = grantOf(request(h, "c", 1, 1, 10));
    expect(h.producer.stats().readableUntil).toBe(1_010);
    ack(h, "c", Number(g.grantId), 20);
    expect(h.producer.stats().readableUntil).toBeUndefined();
    grantOf(request(h, "c", 2, 1, 30));
    h.producer.poll(1_030); // the lease ran out: nobody reads past it
    expect(h.producer.stats().readableUntil).toBeUndefined();
  });

  it("[P6] items the store removes are counted by cause (ectp_producer_items_removed_total): evicted, discarded; a clear is not", () => {
    const h = harness({}, 20); // room for two items of 10 bytes
    ready(h.store, 1);
    ready(h.store, 2);
    ready(h.store, 3); // evicts item 1 (FIFO, ready, unpinned)
    const put = h.store.put(desc(4)); // evicts item 2
    if (!put.ok) throw put.error;
    h.store.discard(kid(4));
    h.store.clear("reset");
    expect(h.metrics.counts.get('ectp_producer_items_removed_total{"cause":"evicted"}')).toBe(2);
    expect(h.metrics.counts.get('ectp_producer_items_removed_total{"cause":"discarded"}')).toBe(1);
  });

  it("[I1] a clock reading that is not a finite number is replaced by the last good one (logged): leases still expire", () => {
    const h = harness({ leaseMs: 1000 });
    ready(h.store, 1);
    ready(h.store, 2);
    h.producer.poll(100);
    grantOf(request(h, "a", 1, 1, Number.NaN)); // taken as t=100: expires at 1100
    grantOf(request(h, "b", 1, 2, 200));
    expect(h.logger.warnings.at(-1)?.message).toBe("ERROR the clock reading passed in is not a finite number; the last good one is used");
    h.producer.poll(1_100);
    expect(h.store.totalPins()).toBe(1);
    h.producer.poll(1_200);
    expect(h.store.totalPins()).toBe(0);
  });

  it("[I3] a store reset releases every grant so pins and grants stay equal", () => {
    const h = harness();
    ready(h.store, 1);
    grantOf(request(h, "a", 1, 1, 0));
    ready(h.store, 2);
    grantOf(request(h, "b", 1, 2, 0));
    h.store.clear("reset");
    expect(h.producer.stats()).toMatchObject({ grants: 0, pins: 0, pinnedBytes: 0 });
    // The store dropped the items with their pins: nothing to unpin, so no store-bug alarm [P2].
    expect(h.metrics.get("ectp_producer_unpin_errors_total")).toBe(0);
    expect(h.logger.warnings).toEqual([]);
    expect(h.metrics.get("ectp_producer_releases_total", { cause: "cleared" })).toBe(2);
    h.producer.poll(1); // the released grants left the lease list: only the heartbeat is due
    expect(h.producer.nextDeadline()).toBe(2000);
  });
});

describe("ProducerCore liveness [P8]", () => {
  it("[P8] heartbeats each consumer it keeps a grant for every interval, and stops once it keeps none", () => {
    const h = harness({ heartbeatIntervalMs: 100, leaseMs: 100_000 });
    ready(h.store, 1);
    h.producer.handleMessage("c", wire("c", 1, { hello: HELLO }), 0);
    h.producer.poll(0);
    const g = grantOf(request(h, "c", 1, 1, 0));
    expect(h.producer.nextDeadline()).toBe(100);
    expect(sent(h.producer.poll(99), "c")).toEqual([]);
    const [hb1] = sent(h.producer.poll(100), "c");
    expect(hb1?.heartbeat?.sequence).toBe(1);
    h.producer.handleMessage("c", wire("c", 1, { heartbeat: { sequence: 1 } }), 150);
    expect(sent(h.producer.poll(200), "c")[0]?.heartbeat?.sequence).toBe(2);
    ack(h, "c", Number(g.grantId), 250);
    h.producer.handleMessage("c", wire("c", 1, { heartbeat: { sequence: 2 } }), 250);
    expect(sent(h.producer.poll(300), "c")).toEqual([]); // no business: SPEC.md 4.7 lets it fall silent
  });

  it("[P8][I4] a peer it has no business with gets no heartbeat, so two engines that are both producers let each other go", () => {
    // The other engine's producer heartbeats us while it keeps a grant for us; when neither keeps
    // anything for the other, both fall silent and each side's record of the other goes.
    const h = harness({ heartbeatIntervalMs: 100, heartbeatMisses: 3 });
    h.producer.handleMessage("x", wire("x", 1, { hello: { ...HELLO, role: ectp.v1.Role.ROLE_BOTH, heartbeatIntervalMs: 100 } }), 0);
    expect(sent(h.producer.poll(0), "x").map((e) => Object.keys(e).includes("hello"))).toEqual([true]);
    const heartbeats: number[] = [];
    for (let t = 10; t <= 1000; t += 10) {
      if (t < 200) h.producer.handleMessage("x", wire("x", 1, { heartbeat: { sequence: t } }), t); // its own, then silence
      for (const e of sent(h.producer.poll(t), "x")) if (e.heartbeat) heartbeats.push(t);
    }
    expect(heartbeats).toEqual([]);
    expect(h.producer.stats()).toMatchObject({ peers: 0, grants: 0 });
  });

  it("[P8] a consumer silent for heartbeatMisses intervals is gone: its grants are released and it is forgotten", () => {
    const h = harness({ heartbeatIntervalMs: 100, heartbeatMisses: 3, leaseMs: 100_000 });
    ready(h.store, 1);
    h.producer.handleMessage("c", wire("c", 1, { hello: { ...HELLO, heartbeatIntervalMs: 100 } }), 0);
    grantOf(request(h, "c", 1, 1, 50));
    h.producer.poll(349);
    expect(h.store.totalPins()).toBe(1);
    const out = h.producer.poll(350);
    expect(out).toContainEqual({ type: "disconnect-peer", peerId: "c" });
    expect(h.store.totalPins()).toBe(0);
    expect(h.producer.stats()).toMatchObject({ peers: 0, grants: 0 });
    expect(h.logger.warnings.at(-1)?.message).toBe("consumer is gone; its grants were released");
    expect(h.metrics.get("ectp_producer_peers_gone_total", { cause: "silent", grants: "released" })).toBe(1);
  });

  it("[P8] a consumer that goes quiet holding no grant (idling) is gone too, counted, but not a warning", () => {
    const h = harness({ heartbeatIntervalMs: 100, heartbeatMisses: 3 });
    h.producer.handleMessage("c", wire("c", 1, { hello: { ...HELLO, heartbeatIntervalMs: 100 } }), 0);
    h.producer.poll(0);
    expect(h.producer.poll(300)).toContainEqual({ type: "disconnect-peer", peerId: "c" });
    expect(h.producer.stats().peers).toBe(0);
    expect(h.metrics.get("ectp_producer_peers_gone_total", { cause: "silent", grants: "none" })).toBe(1);
    expect(h.logger.warnings).toEqual([]);
  });

  it.each([
    [1_000, 100, 3_000],
    [0, 500, 6_000], // 0 means 2000 ms (SPEC.md 4.1): a consumer heartbeating every 2 s is not declared gone
    [4_000_000_000, 100, 180_000], // counted as at most 60 s (MAX_PEER_HEARTBEAT_INTERVAL_MS)
    [4_000_000_000, 90_000, 270_000], // ... unless our own interval is longer
  ])("[P8] judges a peer by the longer of its declared interval (%i ms) and ours (%i ms): gone after 3 of them, at %i", (declared, ours, goneAt) => {
    const h = harness({ heartbeatIntervalMs: ours, heartbeatMisses: 3 });
    h.producer.handleMessage("c", wire("c", 1, { hello: { ...HELLO, heartbeatIntervalMs: declared } }), 0);
    h.producer.poll(goneAt - 1);
    expect(h.producer.stats().peers).toBe(1);
    expect(h.producer.poll(goneAt)).toContainEqual({ type: "disconnect-peer", peerId: "c" });
  });

  it("[P8][P7] a refused Hello of a consumer's newer epoch still voids the grants of its old epoch", () => {
    const h = harness();
    ready(h.store, 1);
    grantOf(request(h, "c", 1, 1, 0));
    expect(h.store.totalPins()).toBe(1);
    const foreign = { ...HELLO, fingerprint: { ...HELLO.fingerprint, model: "another-model" } };
    h.producer.handleMessage("c", wire("c", 2, { hello: foreign }), 10);
    expect(sent(h.producer.poll(10), "c").map((e) => e.handshakeReject?.reason)).toEqual([ectp.v1.FailureReason.FAILURE_REASON_INCOMPATIBLE]);
    expect(h.store.totalPins()).toBe(0);
    // An unknown consumer's refused Hello records nothing [P7].
    h.producer.handleMessage("stranger", wire("stranger", 1, { hello: foreign }), 11);
    expect(h.producer.stats().peers).toBe(1);
  });

  it("[P8] a late message of an older epoch is stale even after its consumer was declared gone", () => {
    const h = harness();
    ready(h.store, 1);
    h.producer.handleMessage("c", wire("c", 5, { hello: HELLO }), 0);
    h.producer.handlePeerUnreachable("c", 1);
    // A delayed ReadRequest of epoch 4 gets no grant.
    h.producer.handleMessage("c", wire("c", 4, readRequest(1, 1)), 2);
    expect(sent(h.producer.poll(2), "c").filter((e) => e.readGrant)).toEqual([]);
    expect(h.producer.stats().ignoredMessages).toBe(1);
  });

  it("[P8] handlePeerUnreachable releases the consumer's grants at once", () => {
    const h = harness();
    ready(h.store, 1);
    grantOf(request(h, "c", 1, 1, 0));
    h.producer.handlePeerUnreachable("nobody", 1);
    h.producer.handlePeerUnreachable("c", 1);
    expect(h.store.totalPins()).toBe(0);
    expect(h.producer.poll(1)).toEqual([{ type: "disconnect-peer", peerId: "c" }]);
  });

  it("[P8] a consumer restart (newer epoch) releases the old epoch's grants; older-epoch messages are ignored", () => {
    const h = harness();
    ready(h.store, 1);
    ready(h.store, 2);
    grantOf(request(h, "c", 1, 1, 0, 1));
    grantOf(request(h, "c", 2, 2, 0, 1));
    h.producer.handleMessage("c", wire("c", 2, { heartbeat: {} }), 1);
    expect(h.store.totalPins()).toBe(0);
    // Released for the restart, not as a lost peer (the consumer is alive, at its new epoch).
    expect(h.metrics.get("ectp_producer_releases_total", { cause: "epoch" })).toBe(2);
    expect(h.metrics.get("ectp_producer_releases_total", { cause: "peer_gone" })).toBe(0);
    h.producer.handleMessage("c", wire("c", 1, readRequest(3, 1)), 2);
    expect(sent(h.producer.poll(2), "c")).toEqual([]);
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "stale_epoch" })).toBe(1);
  });

  it("[P8] a forgotten consumer that comes back at the same epoch is reconnected without a new Hello", () => {
    const h = harness({ heartbeatIntervalMs: 100 });
    ready(h.store, 1);
    h.producer.handleMessage("c", wire("c", 1, { hello: HELLO }), 0);
    h.producer.poll(0);
    h.producer.handlePeerUnreachable("c", 10);
    h.producer.poll(10);
    h.producer.handleMessage("c", wire("c", 1, readRequest(1, 1)), 20);
    const out = h.producer.poll(20);
    expect(out[0]).toMatchObject({ type: "connect-peer", peerId: "c", epoch: 1 });
    expect(Array.from((out[0] as { metadata: Uint8Array }).metadata)).toEqual([1, 2, 3]);
    expect(grantOf(sent(out, "c")[0] as ectp.v1.IEnvelope)).toBeDefined();
  });

  it("[C10] a heartbeat from a never-seen peer does not create a peer and is counted as ignored", () => {
    const h = harness();
    h.producer.handleMessage("x", wire("x", 1, { heartbeat: {} }), 0);
    expect(h.producer.stats().peers).toBe(0);
    expect(h.producer.stats().ignoredMessages).toBe(1);
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "unknown_peer" })).toBe(1);
    expect(h.producer.nextDeadline()).toBeUndefined();
  });

  it("[P8][I4] forgotten consumers are bounded by bytes too: 20 gone peers with 4 MiB of metadata keep at most 64 MiB", () => {
    const h = harness();
    const big = new Uint8Array(4 << 20);
    for (let i = 0; i < 20; i++) {
      h.producer.handleMessage(`c${i}`, wire(`c${i}`, 5, { hello: { ...HELLO, transportMetadata: big } }), 0);
      h.producer.handlePeerUnreachable(`c${i}`, 1);
      h.producer.poll(1);
    }
    // The oldest lost their metadata to stay within the bytes bound: c0 comes back without a reconnect...
    h.producer.handleMessage("c0", wire("c0", 5, { heartbeat: {} }), 2);
    expect(h.producer.poll(2).filter((o) => o.type === "connect-peer")).toEqual([]);
    // ...but its epoch is still known: a late message of its older epoch is stale.
    h.producer.handleMessage("c1", wire("c1", 4, readRequest(1, 1)), 3);
    expect(h.producer.stats().ignoredMessages).toBe(1);
    // The newest is reconnected with its metadata.
    h.producer.handleMessage("c19", wire("c19", 5, { heartbeat: {} }), 4);
    const connect = h.producer.poll(4).find((o) => o.type === "connect-peer") as { metadata: Uint8Array } | undefined;
    expect(connect?.metadata.byteLength).toBe(4 << 20);
  });

  it("[P8][I4] a forgotten consumer keeps a copy of its metadata, not the frame it was decoded from", () => {
    const h = harness();
    h.producer.handleMessage("c", wire("c", 1, { hello: HELLO }), 0);
    h.producer.poll(0); // its first connect-peer carries the decoded view
    h.producer.handlePeerUnreachable("c", 1);
    h.producer.poll(1);
    h.producer.handleMessage("c", wire("c", 1, { heartbeat: {} }), 2);
    const connect = h.producer.poll(2).find((o) => o.type === "connect-peer") as { metadata: Uint8Array };
    expect(Array.from(connect.metadata)).toEqual([1, 2, 3]);
    expect(connect.metadata.buffer.byteLength).toBe(3);
  });

  it("[I1] a live consumer's Hello metadata is kept as its own bytes, not the frame it was decoded from (SPEC.md 16)", () => {
    const h = harness();
    h.producer.handleMessage("c", wire("c", 1, { hello: HELLO }), 0);
    const connect = h.producer.poll(0).find((o) => o.type === "connect-peer") as { metadata: Uint8Array };
    expect(Array.from(connect.metadata)).toEqual([1, 2, 3]);
    // Decoded, the metadata viewed the whole frame; kept, it is three bytes of its own.
    expect(connect.metadata.buffer.byteLength).toBe(3);
  });

  it("[P8] a Hello of role PRODUCER from a known consumer's newer epoch is ignored, but still voids the old epoch's grants", () => {
    const h = harness();
    ready(h.store, 1);
    grantOf(request(h, "c", 1, 1, 0, 1));
    expect(h.store.totalPins()).toBe(1);
    h.producer.handleMessage("c", wire("c", 2, { hello: { ...HELLO, role: ectp.v1.Role.ROLE_PRODUCER } }), 1);
    expect(h.store.totalPins()).toBe(0);
    expect(h.producer.stats()).toMatchObject({ grants: 0, ignoredMessages: 1 });
    // The old epoch is stale from now on.
    h.producer.handleMessage("c", wire("c", 1, readRequest(2, 1)), 2);
    expect(sent(h.producer.poll(2), "c").filter((e) => e.readGrant)).toEqual([]);
  });
});

describe("ProducerCore events [E1][E2]", () => {
  it("[E1] publishes pending store changes as ONE batch per poll with sequence +1, to events.v1 subscribers only", () => {
    const h = harness();
    h.producer.handleMessage("sub", wire("sub", 1, { hello: { ...HELLO, capabilities: ["events.v1"] } }), 0);
    h.producer.handleMessage("plain", wire("plain", 1, { hello: HELLO }), 0);
    h.producer.poll(0);
    ready(h.store, 1);
    h.store.put(desc(2));
    h.store.discard(kid(2));
    expect(h.producer.nextDeadline()).toBe(0);
    const out = h.producer.poll(1);
    const [b1] = batches(out);
    expect(b1).toEqual({
      sequence: 1,
      events: [
        { stored: { item: desc(1) } },
        { removed: { key: desc(2).key, cause: ectp.v1.RemovedCause.REMOVED_CAUSE_DISCARDED } },
      ],
    });
    expect(sent(out, "sub").map((e) => e.eventBatch)).toEqual([b1]);
    expect(sent(out, "plain")).toEqual([]);
    expect(batches(h.producer.poll(2))).toEqual([]); // nothing new, no empty batch
    h.store.clear("reset");
    const [b2] = batches(h.producer.poll(3));
    expect(b2).toEqual({ sequence: 2, events: [{ cleared: { cause: ectp.v1.ClearedCause.CLEARED_CAUSE_RESET } }] });
    expect(h.producer.stats().eventSequence).toBe(2);
  });

  it("[P6][E1] an item the engine evicts (MemoryItemStore.evict) is published as Removed(EVICTED); a granted one stays", () => {
    const h = harness();
    h.producer.handleMessage("sub", wire("sub", 1, { hello: { ...HELLO, capabilities: ["events.v1"] } }), 0);
    h.producer.poll(0);
    ready(h.store, 1);
    ready(h.store, 2);
    h.producer.poll(1);
    h.store.pin(kid(2)); // as a grant would
    expect(h.store.evict(kid(2))).toBe("pinned");
    expect(h.store.evict(kid(1))).toBe("evicted");
    expect(batches(h.producer.poll(2))).toEqual([
      { sequence: 2, events: [{ removed: { key: desc(1).key, cause: ectp.v1.RemovedCause.REMOVED_CAUSE_EVICTED } }] },
    ]);
    h.store.unpin(kid(2));
  });

  it("regression background#10 [E2]: replay from within the buffer resends in order; older gives ReplayUnavailable", () => {
    const h = harness({ replayBufferBatches: 3 });
    for (let i = 1; i <= 5; i++) {
      ready(h.store, i);
      h.producer.poll(i);
    }
    expect(h.producer.stats()).toMatchObject({ eventSequence: 5, replayBuffered: 3 });
    h.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 4 } }), 10);
    expect(sent(h.producer.poll(10), "r").map((e) => e.eventBatch?.sequence)).toEqual([4, 5]);
    h.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 2 } }), 11);
    expect(sent(h.producer.poll(11), "r")).toEqual([
      expect.objectContaining({ replayUnavailable: { oldestAvailable: 3, latest: 5 } }),
    ]);
    h.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 6 } }), 12);
    expect(sent(h.producer.poll(12), "r")).toEqual([]);
    // The replaying peer is now a subscriber and gets new batches.
    ready(h.store, 6);
    expect(sent(h.producer.poll(13), "r").map((e) => e.eventBatch?.sequence)).toEqual([6]);
  });

  it("[E2] a replay buffer configured far beyond any use (2^32 batches and more) is accepted, holds what was published and replays it", () => {
    for (const replayBufferBatches of [2 ** 32, Number.MAX_SAFE_INTEGER]) {
      const h = harness({ replayBufferBatches });
      for (let i = 1; i <= 3; i++) {
        ready(h.store, i);
        h.producer.poll(i);
      }
      expect(h.producer.stats()).toMatchObject({ eventSequence: 3, replayBuffered: 3 });
      h.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 1 } }), 10);
      expect(sent(h.producer.poll(10), "r").map((e) => e.eventBatch?.sequence)).toEqual([1, 2, 3]);
    }
  });

  it("[E2] replays a peer asked for while its answers had to wait go out from the lowest sequence asked, whatever the order asked", () => {
    const h = harness(); // resendIntervalMs 500
    for (let i = 1; i <= 3; i++) {
      ready(h.store, i);
      h.producer.poll(i);
    }
    const ask = (fromSequence: number, at: number) => h.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence } }), at);
    const seqs = (at: number) => sent(h.producer.poll(at), "r").flatMap((e) => (e.eventBatch ? [Number(e.eventBatch.sequence)] : []));
    ask(3, 10);
    expect(seqs(10)).toEqual([3]);
    ask(1, 11); // deferred: owed from 1
    ask(2, 12); // a later, higher one does not shrink what is owed
    expect(seqs(510)).toEqual([1, 2, 3]);
  });

  it("[E2] one peer's replays and snapshots resend at most once per resendIntervalMs; what it asks for sooner goes out together afterwards", () => {
    const h = harness(); // resendIntervalMs 500
    for (let i = 1; i <= 3; i++) {
      ready(h.store, i);
      h.producer.poll(i);
    }
    const ask = (body: ectp.v1.IEnvelope, at: number, from = "r") => h.producer.handleMessage(from, wire(from, 1, body), at);
    const seqs = (at: number, to = "r") =>
      sent(h.producer.poll(at), to).flatMap((e): (string | number)[] =>
        e.snapshot ? [`snapshot ${e.snapshot.snapshotId}`] : e.eventBatch ? [Number(e.eventBatch.sequence)] : [],
      ); // (not heartbeats)
    ask({ replayRequest: { fromSequence: 1 } }, 10);
    expect(seqs(10)).toEqual([1, 2, 3]);
    // A peer repeating its requests: nothing is resent before 510, then one replay from the lowest sequence asked.
    ask({ replayRequest: { fromSequence: 3 } }, 11);
    ask({ replayRequest: { fromSequence: 2 } }, 12);
    ask({ replayRequest: { fromSequence: 4 } }, 13); // nothing newer than 3: nothing to send, nothing owed
    expect(seqs(509)).toEqual([]);
    expect(h.producer.nextDeadline()).toBe(510);
    expect(seqs(510)).toEqual([2, 3]);
    expect(h.metrics.counts.get("ectp_producer_deferred_resends_total")).toBe(2);
    // A snapshot covers a replay owed with it; three SnapshotRequests give one snapshot.
    for (const at of [600, 601, 602]) ask({ snapshotRequest: {} }, at);
    ask({ replayRequest: { fromSequence: 1 } }, 603);
    expect(seqs(1009)).toEqual([]);
    expect(seqs(1010)).toEqual(["snapshot 1"]);
    // A request handled once the interval has passed (before the poll that would send what is owed)
    // takes what is owed with it: one answer, not two an interval apart.
    ask({ replayRequest: { fromSequence: 1 } }, 1100); // owed (snapshot answered at 1010)
    ask({ replayRequest: { fromSequence: 3 } }, 1510);
    expect(seqs(1510)).toEqual([1, 2, 3]);
    ask({ snapshotRequest: {} }, 1600); // owed
    ask({ replayRequest: { fromSequence: 2 } }, 2010);
    expect(seqs(2010)).toEqual(["snapshot 2"]); // the snapshot covers the replay
    expect(seqs(2600)).toEqual([]);
    // Cheap answers are not held back: ReplayUnavailable goes out at once.
    const small = harness({ replayBufferBatches: 1 });
    for (let i = 1; i <= 3; i++) {
      ready(small.store, i);
      small.producer.poll(i);
    }
    small.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 3 } }), 10);
    small.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 1 } }), 11);
    expect(sent(small.producer.poll(11), "r").map((e) => e.eventBatch?.sequence ?? e.replayUnavailable?.latest)).toEqual([3, 3]);
    // Each peer has its own interval; resendIntervalMs 0 (or undefined: the default) as configured.
    ask({ snapshotRequest: {} }, 3111, "other");
    expect(seqs(3111, "other")).toEqual(["snapshot 3"]);
    const unbounded = harness({ resendIntervalMs: 0 });
    unbounded.producer.handleMessage("r", wire("r", 1, { snapshotRequest: {} }), 1);
    unbounded.producer.handleMessage("r", wire("r", 1, { snapshotRequest: {} }), 1);
    expect(sent(unbounded.producer.poll(1), "r").map((e) => e.snapshot?.snapshotId)).toEqual([1, 2]);
    const byDefault = harness({ resendIntervalMs: undefined });
    byDefault.producer.handleMessage("r", wire("r", 1, { snapshotRequest: {} }), 1);
    byDefault.producer.handleMessage("r", wire("r", 1, { snapshotRequest: {} }), 1);
    expect(sent(byDefault.producer.poll(1), "r").map((e) => e.snapshot?.snapshotId)).toEqual([1]);
    // SPEC.md section 9: an interval of at most 1 s.
    expect(() => harness({ resendIntervalMs: 1_001 })).toThrow("config.resendIntervalMs must be at most 1000 ms");
  });

  it("[E2] a snapshot lists every ready item as of the latest sequence, publishing pending changes first", () => {
    const h = harness();
    ready(h.store, 1);
    h.producer.poll(0);
    ready(h.store, 2);
    h.store.put(desc(3)); // not ready: not in the snapshot
    h.producer.handleMessage("r", wire("r", 1, { snapshotRequest: {} }), 1);
    const out = h.producer.poll(1);
    const snap = sent(out, "r").find((e) => e.snapshot)?.snapshot;
    expect(snap).toEqual({ sequence: 2, items: [desc(1), desc(2)], snapshotId: 1 });
    expect(batches(out).map((b) => b.sequence)).toEqual([2]);
  });

  it("[E1][E2] items the store held ready before the producer was built are published as Stored in its first batch, so the snapshot's sequence accounts for them", () => {
    const store = new MemoryItemStore({ capacityBytes: 1000 });
    ready(store, 1); // a warm start: the store was filled first
    store.put(desc(2)); // not ready: not published
    const producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store });
    producer.handleMessage("r", wire("r", 1, { hello: { role: ectp.v1.Role.ROLE_CONSUMER, fingerprint: FP, capabilities: ["events.v1"] } }), 0);
    const first = batches(producer.poll(0));
    expect(first.map((b) => [b.sequence, b.events?.map((e) => e.stored?.item)])).toEqual([[1, [desc(1)]]]);
    producer.handleMessage("r", wire("r", 1, { snapshotRequest: {} }), 1);
    expect(sent(producer.poll(1), "r").find((e) => e.snapshot)?.snapshot).toEqual({ sequence: 1, items: [desc(1)], snapshotId: 1 });
  });

  it("[E1] events beyond maxBatchBytes go out as consecutive batches, filled in order; one event larger than the bound travels alone", () => {
    const size = ectp.v1.Event.encode({ stored: { item: desc(1) } }).finish().length;
    const h = harness({ maxBatchBytes: 2 * size });
    h.producer.handleMessage("sub", wire("sub", 1, { hello: { ...HELLO, capabilities: ["events.v1"] } }), 0);
    h.producer.poll(0);
    for (let i = 1; i <= 5; i++) ready(h.store, i);
    const out = h.producer.poll(1);
    const stored = (b: ectp.v1.IEventBatch) => b.events?.map((e) => e.stored?.item);
    expect(batches(out).map((b) => [b.sequence, stored(b)])).toEqual([
      [1, [desc(1), desc(2)]],
      [2, [desc(3), desc(4)]],
      [3, [desc(5)]],
    ]);
    expect(sent(out, "sub").map((e) => e.eventBatch?.sequence)).toEqual([1, 2, 3]);
    // Every batch is in the replay buffer under its own sequence [E2].
    h.producer.handleMessage("sub", wire("sub", 1, { replayRequest: { fromSequence: 2 } }), 2);
    expect(sent(h.producer.poll(2), "sub").map((e) => e.eventBatch?.sequence)).toEqual([2, 3]);
    const tiny = harness({ maxBatchBytes: 1 });
    ready(tiny.store, 1);
    ready(tiny.store, 2);
    expect(batches(tiny.producer.poll(1)).map((b) => b.events?.length)).toEqual([1, 1]);
  });

  it("[E2] a snapshot beyond maxBatchBytes goes out in numbered parts with one sequence; within it, one whole message", () => {
    const size = ectp.v1.ItemDescriptor.encode(desc(1)).finish().length;
    const h = harness({ maxBatchBytes: 2 * size });
    for (let i = 1; i <= 5; i++) ready(h.store, i);
    h.producer.poll(0);
    h.producer.handleMessage("r", wire("r", 1, { snapshotRequest: {} }), 1);
    const parts = sent(h.producer.poll(1), "r").map((e) => e.snapshot);
    const sequence = h.producer.stats().eventSequence; // the Stored events took batches of their own
    expect(parts).toEqual([
      { sequence, items: [desc(1), desc(2)], part: 0, parts: 3, snapshotId: 1 },
      { sequence, items: [desc(3), desc(4)], part: 1, parts: 3, snapshotId: 1 },
      { sequence, items: [desc(5)], part: 2, parts: 3, snapshotId: 1 },
    ]);
    // The next answer has the next id: its parts are never mixed with these [E2]. (It goes out
    // resendIntervalMs after the first.)
    h.producer.handleMessage("r", wire("r", 1, { snapshotRequest: {} }), 2);
    expect(sent(h.producer.poll(501), "r").map((e) => e.snapshot?.snapshotId)).toEqual([2, 2, 2]);
    const whole = harness({ maxBatchBytes: 5 * size });
    for (let i = 1; i <= 5; i++) ready(whole.store, i);
    whole.producer.handleMessage("r", wire("r", 1, { snapshotRequest: {} }), 1);
    const snap = sent(whole.producer.poll(1), "r").flatMap((e) => (e.snapshot ? [e.snapshot] : []));
    expect(snap).toEqual([{ sequence: whole.producer.stats().eventSequence, items: [1, 2, 3, 4, 5].map((n) => desc(n)), snapshotId: 1 }]);
    // An empty store still answers with one (empty) snapshot.
    const empty = harness({ maxBatchBytes: 1 });
    empty.producer.handleMessage("r", wire("r", 1, { snapshotRequest: {} }), 1);
    expect(sent(empty.producer.poll(1), "r").map((e) => e.snapshot)).toEqual([{ sequence: 0, items: [], snapshotId: 1 }]);
  });

  it("[E1][E2] batches and snapshot parts are also cut at MAX_REPEATED_ELEMENTS (items and their shapes' dimensions)", () => {
    const shape = Array.from({ length: MAX_SHAPE_DIMS }, () => 1);
    const h = harness({}, 1_000_000);
    h.producer.handleMessage("sub", wire("sub", 1, { hello: { ...HELLO, capabilities: ["events.v1"] } }), 0);
    h.producer.poll(0);
    const count = 1_100;
    for (let n = 1; n <= count; n++) {
      const r = h.store.put({ ...desc(n), shape });
      if (!r.ok) throw r.error;
      h.store.markReady(r.value.keyId);
    }
    // Each item is 1 + 64 elements: 1,008 of them fit under 65,536, the rest start a new batch.
    const fit = Math.floor(MAX_REPEATED_ELEMENTS / (1 + MAX_SHAPE_DIMS));
    expect(batches(h.producer.poll(1)).map((b) => b.events?.length)).toEqual([fit, count - fit]);
    h.producer.handleMessage("sub", wire("sub", 1, { snapshotRequest: {} }), 2);
    const parts = sent(h.producer.poll(2), "sub").flatMap((e) => (e.snapshot ? [e.snapshot] : []));
    expect(parts.map((p) => [p.items?.length, p.part, p.parts])).toEqual([
      [fit, 0, 2],
      [count - fit, 1, 2],
    ]);
    for (const p of parts) {
      const decoded = decodeEnvelope(encodeEnvelope({ version: SPEC_VERSION, senderId: "E", senderEpoch: 7, snapshot: p }));
      expect(decoded.ok).toBe(true); // within the receiver's limit
    }
  });

  it("[E1] maxBatchBytes must be an integer in [1, 8 MiB] (INVALID_CONFIG naming it)", () => {
    expect(() => harness({ maxBatchBytes: 0 })).toThrow(/config\.maxBatchBytes must be an integer >= 1/);
    expect(() => harness({ maxBatchBytes: 8 * 1024 * 1024 + 1 })).toThrow(/config\.maxBatchBytes must be at most 8388608/);
    expect(() => harness({ maxBatchBytes: 8 * 1024 * 1024 })).not.toThrow();
  });

  it("[E1] sequences start at 1 in every epoch (a restarted producer is a new core)", () => {
    const store = new MemoryItemStore({ capacityBytes: 100 });
    const p1 = new ProducerCore({ id: "E", epoch: 7, fingerprint: FP, store });
    ready(store, 1);
    p1.poll(0);
    ready(store, 2);
    expect(batches(p1.poll(1)).map((b) => b.sequence)).toEqual([2]);
    // The restart: a new core of a new epoch over the same store numbers its batches from 1 again.
    p1.shutdown(2);
    const p2 = new ProducerCore({ id: "E", epoch: 8, fingerprint: FP, store });
    const r = store.put({ ...desc(3), epoch: 8 }); // stored under the new epoch
    if (!r.ok) throw r.error;
    store.markReady(kid(3));
    expect(batches(p2.poll(3)).map((b) => b.sequence)).toEqual([1]);
  });

  it("[P8] an item stored under another producer id or epoch is not announced, published or granted; the error is logged once", () => {
    const h = harness();
    ready(h.store, 1);
    h.producer.poll(0);
    for (const [n, other] of [[2, { epoch: 6 }], [3, { epoch: 9 }], [4, { producerId: "B" }]] as const) {
      const r = h.store.put({ ...desc(n), ...other });
      if (!r.ok) throw r.error;
      h.store.markReady(kid(n));
    }
    expect(h.producer.announce(kid(1))?.item).toMatchObject({ producerId: "E", epoch: 7 });
    for (const n of [2, 3, 4]) expect(h.producer.announce(kid(n))).toBeUndefined();
    // Not published: no Stored event for them.
    expect(batches(h.producer.poll(1))).toEqual([]);
    // Not granted: a terminal INTERNAL reject naming the mismatch.
    h.producer.handleMessage("c", wire("c", 1, { hello: HELLO }), 2);
    h.producer.poll(2);
    const reject = request(h, "c", 1, 4, 3).readReject;
    expect(reject?.reason).toBe(ectp.v1.FailureReason.FAILURE_REASON_INTERNAL);
    expect(reject?.detail).toBe('the store holds the item, but it was stored as producer "B" epoch 7, and this producer is "E" epoch 7');
    request(h, "c", 2, 4, 4);
    const logged = h.logger.warnings.filter((e) => e.message.startsWith("ERROR the item store holds an item of another producer or epoch"));
    expect(logged.map((e) => (e.fields as { reason: string }).reason)).toEqual([
      'it was stored as producer "E" epoch 6, and this producer is "E" epoch 7',
      'it was stored as producer "E" epoch 9, and this producer is "E" epoch 7',
      'it was stored as producer "B" epoch 7, and this producer is "E" epoch 7',
    ]);
    expect(h.metrics.get("ectp_producer_unpublishable_items_total")).toBe(3);
  });

  it("[P7] an item of another fingerprint is not announced or published (every read of it would be refused INCOMPATIBLE); the error is logged once", () => {
    const h = harness();
    const other = { ...desc(5), key: { ...desc(5).key, fingerprint: { ...FP, model: "another" } } };
    const r = h.store.put(other);
    if (!r.ok) throw r.error;
    h.store.markReady(r.value.keyId);
    expect(h.producer.announce(r.value.keyId)).toBeUndefined();
    expect(h.producer.announce(r.value.keyId)).toBeUndefined();
    expect(batches(h.producer.poll(1))).toEqual([]); // no Stored event
    const logged = h.logger.warnings.filter((e) => e.message.startsWith("ERROR the item store holds an item of another fingerprint"));
    expect(logged.map((e) => (e.fields as { reason: string }).reason)).toEqual([
      'its key\'s fingerprint differs from this producer\'s: model "another" != "m"',
    ]);
    expect(h.metrics.get("ectp_producer_unpublishable_items_total")).toBe(1);
    // Its own items are untouched.
    ready(h.store, 1);
    expect(h.producer.announce(kid(1))?.item).toMatchObject({ producerId: "E", epoch: 7 });
  });
});

describe("ProducerCore and a custom ItemStore's descriptors (SPEC.md section 5, [C2])", () => {
  /**
   * A store over a MemoryItemStore that reports item 2 (put valid) with a descriptor no receiver
   * accepts: 65 shape dimensions, or a 70 KiB location. One object per item, as a real store keeps.
   */
  function customStore(bad: (d: ectp.v1.IItemDescriptor) => ectp.v1.IItemDescriptor) {
    const inner = new MemoryItemStore({ capacityBytes: 1000 });
    const swapped = new Map<object, ectp.v1.IItemDescriptor>();
    const report = (d: ectp.v1.IItemDescriptor) => {
      if (d.key?.contentHash?.[0] !== 2) return d;
      const known = swapped.get(d);
      if (known) return known;
      const b = bad(d);
      swapped.set(d, b);
      return b;
    };
    const entry = (e: ReturnType<MemoryItemStore["get"]>) => e && { ...e, descriptor: report(e.descriptor), ready: e.ready, pins: e.pins };
    const store = {
      get: (k: string) => entry(inner.get(k)),
      pin: (k: string) => inner.pin(k),
      unpin: (k: string) => inner.unpin(k),
      readyItems: () => [...inner.readyItems()].map((e) => entry(e) as NonNullable<ReturnType<typeof entry>>),
      totalPins: () => inner.totalPins(),
      subscribe: (l: Parameters<MemoryItemStore["subscribe"]>[0]) =>
        inner.subscribe((c) => l(c.kind === "stored" ? { ...c, descriptor: report(c.descriptor) } : c)),
    };
    const metrics = new CountingMetrics();
    const logger = new RecordingLogger();
    const producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store, metrics, logger });
    return { h: { producer, store: inner, metrics, logger } as Harness, inner };
  }

  const shapes: [string, (d: ectp.v1.IItemDescriptor) => ectp.v1.IItemDescriptor, string][] = [
    ["65 shape dimensions", (d) => ({ ...d, shape: Array.from({ length: MAX_SHAPE_DIMS + 1 }, () => 1) }), "the descriptor is not valid"],
    ["a 70 KiB location", (d) => ({ ...d, location: new Uint8Array(70 * 1024) }), "the descriptor encodes to"],
    ["no descriptor object", () => null as unknown as ectp.v1.IItemDescriptor, "descriptor is missing"],
  ];
  for (const [what, bad, reason] of shapes)
    it(`an item reported with ${what} is never published, snapshotted, announced or granted; the others are; logged and counted once`, () => {
      const { h, inner } = customStore(bad);
      h.producer.handleMessage("sub", wire("sub", 1, { hello: { ...HELLO, capabilities: ["events.v1"] } }), 0);
      h.producer.poll(0);
      ready(inner, 1);
      ready(inner, 2);
      const events = batches(h.producer.poll(1)).flatMap((b) => b.events ?? []);
      expect(events.map((e) => e.stored?.item?.key?.contentHash?.[0])).toEqual([1]);
      h.producer.handleMessage("sub", wire("sub", 1, { snapshotRequest: {} }), 2);
      const snap = sent(h.producer.poll(2), "sub").find((e) => e.snapshot)?.snapshot;
      expect(snap?.items?.map((d) => d.key?.contentHash?.[0])).toEqual([1]);
      expect(h.producer.announce(kid(2))).toBeUndefined();
      expect(h.producer.announce(kid(1))?.item).toEqual(desc(1));
      const r = rejectOf(request(h, "a", 1, 2, 3));
      expect(r.reason).toBe(FR.FAILURE_REASON_INTERNAL);
      expect(r.detail).toContain(reason);
      expect(inner.totalPins()).toBe(0);
      grantOf(request(h, "a", 2, 1, 3));
      expect(h.metrics.get("ectp_producer_unpublishable_items_total")).toBe(1);
      const errors = h.logger.warnings.filter((w) => w.message.startsWith("ERROR the item store reported"));
      expect(errors).toHaveLength(1);
      expect(JSON.stringify(errors[0]?.fields)).toContain(reason);
    });

  it("a removal the store reports with a key no receiver accepts publishes no Removed event: the batch beside it encodes, and so does its replay; logged and counted", () => {
    const inner = new MemoryItemStore({ capacityBytes: 1000 });
    let emit: ((c: StoreChange) => void) | undefined;
    const store = {
      get: (k: string) => inner.get(k),
      pin: (k: string) => inner.pin(k),
      unpin: (k: string) => inner.unpin(k),
      readyItems: () => inner.readyItems(),
      totalPins: () => inner.totalPins(),
      subscribe: (l: (c: StoreChange) => void) => {
        emit = l;
        return inner.subscribe(l);
      },
    };
    const metrics = new CountingMetrics();
    const logger = new RecordingLogger();
    const producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store, metrics, logger });
    producer.handleMessage("sub", wire("sub", 1, { hello: { ...HELLO, capabilities: ["events.v1"] } }), 0);
    producer.poll(0);
    ready(inner, 1);
    emit?.({ kind: "removed", key: { contentHash: "not bytes" as unknown as Uint8Array, fingerprint: FP }, cause: "evicted" });
    emit?.({ kind: "removed", key: desc(3).key as ectp.v1.IItemKey, cause: "discarded" });
    const published = batches(producer.poll(1));
    const events = published.flatMap((b) => b.events ?? []);
    expect(events.map((e) => (e.stored ? `stored ${e.stored.item?.key?.contentHash?.[0]}` : `removed ${e.removed?.key?.contentHash?.[0]}`))).toEqual([
      "stored 1",
      "removed 3",
    ]);
    for (const b of published) expect(() => encodeEnvelope({ version: SPEC_VERSION, senderId: "E", senderEpoch: 7, eventBatch: b })).not.toThrow();
    producer.handleMessage("sub", wire("sub", 1, { replayRequest: { fromSequence: published[0]?.sequence } }), 2_000);
    const replayed = sent(producer.poll(2_000), "sub").filter((e) => e.eventBatch);
    expect(replayed.length).toBeGreaterThan(0);
    for (const e of replayed) expect(() => encodeEnvelope(e)).not.toThrow();
    expect(metrics.get("ectp_producer_unpublishable_items_total")).toBe(1);
    const errors = logger.warnings.filter((w) => w.message.startsWith("ERROR the item store reported the removal"));
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0]?.fields)).toContain("contentHash");
  });
});

import { EctpError, SPEC_VERSION, crc32cBytes, decodeEnvelope, ectp, encodeEnvelope } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { ConsumerCore } from "../consumer/consumer.js";
import type { CoreOutput } from "../outputs.js";
import { MemoryItemStore } from "../producer/memory-store.js";
import { ProducerCore } from "../producer/producer.js";
import { FP, desc, kid } from "../producer/test-helpers.js";
import { EventSubscriber } from "../subscriber/subscriber.js";
import type { TransportActivity } from "../transport.js";
import { Driver, type DriverOptions } from "./driver.js";
import { CountingPool, FakeNet, RecordingCore, connectTo, dest, flush, heartbeatTo, manualClock, routingRig, startRead, waitUntil, wire } from "./test-support.js";

/** The error `new Driver(options)` throws (the test fails if it accepts them). */
function refusal(options: DriverOptions): EctpError {
  try {
    new Driver(options);
  } catch (e) {
    return e as EctpError;
  }
  throw new Error("accepted");
}

describe("Driver", () => {
  it("rejects options without a transport, without any core or subscriber, or with a subscriber beside a core", () => {
    const t = new FakeNet().endpoint("x");
    expect(() => new Driver({} as never)).toThrow("[INVALID_CONFIG] Driver needs options.transport (a Transport implementation)");
    expect(() => new Driver({ transport: t })).toThrow(
      "[INVALID_CONFIG] Driver needs options.consumer, options.producer, both, or options.subscriber",
    );
    expect(() => new Driver({ transport: t, producer: {} as never, maxWaitMs: -1 })).toThrow(EctpError);
    for (const core of [{ consumer: {} as never }, { producer: {} as never }])
      expect(() => new Driver({ transport: t, ...core, subscriber: {} as never })).toThrow(
        /Driver runs a subscriber alone: .* a producer keeps one record \(epoch, grants, subscription\) per peer id/,
      );
    expect(() => new Driver({ transport: t, subscriber: new RecordingCore() as never })).not.toThrow();
  });

  it("refuses a transport, core, subscriber or clock lacking the methods it calls, naming them (not at the first step)", () => {
    const t = new FakeNet().endpoint("x");
    const core = new RecordingCore() as never;
    expect(() => new Driver({ transport: t, subscriber: {} as never })).toThrow(
      "[INVALID_CONFIG] options.subscriber must be an EventSubscriber, but it has no poll, handleMessage, handlePeerUnreachable, nextDeadline methods",
    );
    // Each role's own methods: a consumer's read results and stats, a producer's decoded envelopes.
    const { handleReadResult: _r, stats: _s, ...noReads } = Object.fromEntries(
      ["poll", "handleMessage", "handleEnvelope", "handleReadResult", "handlePeerUnreachable", "nextDeadline", "stats"].map((m) => [m, () => {}]),
    );
    expect(() => new Driver({ transport: t, consumer: noReads as never })).toThrow("options.consumer must be a ConsumerCore, but it has no handleReadResult, stats methods");
    expect(() => new Driver({ transport: t, producer: noReads as never })).not.toThrow();
    expect(() => new Driver({ transport: t, consumer: 5 as never })).toThrow("[INVALID_CONFIG] options.consumer must be a ConsumerCore; got 5");
    const noPoll = { poll: 1, handleMessage() {}, handleEnvelope() {}, nextDeadline() {}, handlePeerUnreachable() {} };
    expect(() => new Driver({ transport: t, producer: noPoll as never })).toThrow("[INVALID_CONFIG] options.producer must be a ProducerCore, but it has no poll method");
    const { send: _, ...noSend } = Object.fromEntries(["poll", "send", "startRead", "cancelRead", "connectPeer", "disconnectPeer", "waitForActivity", "close"].map((m) => [m, () => {}]));
    expect(() => new Driver({ transport: noSend as never, consumer: core })).toThrow(
      "[INVALID_CONFIG] options.transport must be a Transport (see @ectp/core's Transport interface), but it has no send method",
    );
    expect(() => new Driver({ transport: {} as never, consumer: core })).toThrow(/has no poll, send, startRead, cancelRead, connectPeer, disconnectPeer, waitForActivity, close methods/);
    expect(() => new Driver({ transport: t, consumer: core, clock: {} as never })).toThrow(
      "[INVALID_CONFIG] options.clock must be a Clock ({ now(): number }, in ms), but it has no now method",
    );
    expect(() => new Driver({ transport: t, consumer: core, onEventBatch: "log" as never })).toThrow(
      '[INVALID_CONFIG] options.onEventBatch must be a function (batch) => void; got "log"',
    );
    expect(() => new Driver({ transport: t, consumer: core, maxWaitMs: Object.create(null) })).toThrow(
      "[INVALID_CONFIG] options.maxWaitMs must be a non-negative number of ms; got an object. Omit it for the default of 50",
    );
    // Each Driver option's error names the option and the default that leaving it out gives.
    expect(() => new Driver({ transport: t, consumer: core, connectTimeoutMs: 0 })).toThrow(
      "[INVALID_CONFIG] options.connectTimeoutMs must be a positive number of ms; got 0. Omit it for the default of 10000",
    );
    expect(() => new Driver({ transport: t, consumer: core, maxQueuedPerPeer: 1.5 })).toThrow(
      "[INVALID_CONFIG] options.maxQueuedPerPeer must be a positive integer; got 1.5. Omit it for the default of 65536",
    );
  });

  it("refuses a core or subscriber under another role's option (a ConsumerCore as producer), naming what it is and the option it belongs in", () => {
    const net = new FakeNet();
    const t = net.endpoint("x");
    const consumer = new ConsumerCore({ id: "x", epoch: 1, fingerprint: FP, destinations: new CountingPool() });
    const producer = new ProducerCore({ id: "x", epoch: 1, fingerprint: FP, store: new MemoryItemStore({ capacityBytes: 64 }) });
    const subscriber = new EventSubscriber({ id: "r", epoch: 1, fingerprint: FP });
    // Before, a ConsumerCore as the producer was accepted (it has every method the driver calls on
    // one): its reads started, their results went to no one, and items failed TRANSFER_TIMEOUT.
    const swapped = refusal({ transport: t, producer: consumer as never });
    expect(swapped.code).toBe("INVALID_CONFIG");
    expect(swapped.message).toBe("[INVALID_CONFIG] options.producer must be a ProducerCore, but it is a ConsumerCore (it has admit(), and no announce()): pass it as options.consumer");
    expect(swapped.details).toEqual({ option: "producer", belongsIn: "consumer" });
    // Every other swap (the reverse one was refused before too, for lacking handleReadResult and stats, without saying where it belongs).
    expect(refusal({ transport: t, consumer: producer as never }).message).toMatch(/options\.consumer must be a ConsumerCore, but it is a ProducerCore .*: pass it as options\.producer$/);
    expect(refusal({ transport: t, consumer: subscriber as never }).message).toMatch(/but it is an EventSubscriber .*: pass it as options\.subscriber$/);
    expect(refusal({ transport: t, producer: subscriber as never }).message).toMatch(/but it is an EventSubscriber .*: pass it as options\.subscriber$/);
    expect(refusal({ transport: t, subscriber: consumer as never }).message).toMatch(/options\.subscriber must be an EventSubscriber, but it is a ConsumerCore .*: pass it as options\.consumer$/);
    expect(refusal({ transport: t, subscriber: producer as never }).message).toMatch(/but it is a ProducerCore .*: pass it as options\.producer$/);
    expect(refusal({ transport: t, consumer, producer: consumer as never }).message).toMatch(/pass it as options\.consumer$/);
    // Each in its own place is accepted (and a stand-in bearing no kind's mark, as the tests' RecordingCore, anywhere).
    expect(() => new Driver({ transport: t, consumer, producer })).not.toThrow();
    expect(() => new Driver({ transport: net.endpoint("r"), subscriber })).not.toThrow();
  });

  it("[P8] refuses a core whose id is not the transport's localId, and a consumer and producer of different epochs", () => {
    const net = new FakeNet();
    const pool = new CountingPool();
    const store = () => new MemoryItemStore({ capacityBytes: 64 });
    const consumer = (id: string, epoch = 1) => new ConsumerCore({ id, epoch, fingerprint: FP, destinations: pool });
    const producer = (id: string, epoch = 1) => new ProducerCore({ id, epoch, fingerprint: FP, store: store() });
    // Before, each was accepted: peers dropped every envelope (sender_mismatch, logged only there), or
    // took one core's Heartbeats for a restart of the other role (fetches ended, grants released).
    const wrongId = refusal({ transport: net.endpoint("x"), consumer: consumer("prefill-0") });
    expect(wrongId.message).toBe(
      `[INVALID_CONFIG] options.consumer.id is "prefill-0" but the transport's localId is "x": peers drop envelopes whose sender_id is not the sender their transport reports. Construct the consumer with id: transport.localId`,
    );
    expect(wrongId.details).toEqual({ option: "consumer", id: "prefill-0", localId: "x" });
    expect(refusal({ transport: net.endpoint("y"), producer: producer("x") }).message).toMatch(/^\[INVALID_CONFIG\] options\.producer\.id is "x" but/);
    expect(refusal({ transport: net.endpoint("z"), subscriber: new EventSubscriber({ id: "r", epoch: 1, fingerprint: FP }) }).message).toMatch(/options\.subscriber\.id is "r"/);
    const epochs = refusal({ transport: net.endpoint("w"), consumer: consumer("w", 1_700_000_000_001), producer: producer("w", 1_700_000_000_000) });
    expect(epochs.message).toMatch(/^\[INVALID_CONFIG\] options\.consumer\.epoch \(1700000000001\) and options\.producer\.epoch \(1700000000000\) differ: a peer has one epoch/);
    expect(() => new Driver({ transport: net.endpoint("v"), consumer: consumer("v", 5), producer: producer("v", 5) })).not.toThrow();
  });

  it("refuses a second driver over a transport that has one; a constructor that threw leaves the transport free", () => {
    const t = new FakeNet().endpoint("x");
    const core = () => new RecordingCore() as unknown as ConsumerCore;
    expect(refusal({ transport: t, consumer: core(), maxWaitMs: -1 }).message).toContain("maxWaitMs");
    expect(() => new Driver({ transport: t, consumer: core() })).not.toThrow();
    // Before, accepted: each driver's poll took the other's messages, which the wrong core ignored.
    expect(refusal({ transport: t, producer: new RecordingCore() as unknown as ProducerCore }).message).toMatch(
      /^\[INVALID_CONFIG\] options\.transport already has a Driver: .*Run both cores in one Driver/,
    );
  });

  it("refuses a key that is not an option (a misspelt one) with INVALID_CONFIG naming it and the nearest option, as every other options object does", () => {
    const transport = new FakeNet().endpoint("x");
    const producer = new RecordingCore() as unknown as ProducerCore;
    const refused = (options: object): EctpError => refusal({ transport, producer, ...options });
    // Before, each ran silently with the option's default.
    const typo = refused({ connectTimeout: 100 });
    expect(typo.code).toBe("INVALID_CONFIG");
    expect(typo.message).toMatch(/^\[INVALID_CONFIG\] options\.connectTimeout is not an option of Driver \(did you mean connectTimeoutMs\?\); its options are transport, consumer, producer, subscriber, clock, maxWaitMs, connectTimeoutMs, maxQueuedPerPeer, onEventBatch, logger, metrics\./);
    expect(typo.details).toMatchObject({ key: "connectTimeout" });
    expect(refused({ maxWait: 5 }).message).toContain("options.maxWait is not an option of Driver (did you mean maxWaitMs?)");
    expect(refused({ tracer: undefined }).message).toContain("options.tracer is not an option of Driver;"); // (no option near it; set to undefined still counts)
    // A misspelt transport is named as such, not reported as missing.
    expect(() => new Driver({ transprt: transport, producer } as never)).toThrow("options.transprt is not an option of Driver (did you mean transport?)");
  });

  it("a subscriber gets every message as bytes (it uses its followed producers' and ignores and counts the rest [C10]) and every unreachable peer", () => {
    const t = new FakeNet().endpoint("me");
    const subscriber = new RecordingCore();
    const driver = new Driver({ transport: t, subscriber: subscriber as unknown as EventSubscriber, clock: manualClock() });
    t.inject("x", wire("x", { readGrant: { grantId: 1 } }));
    t.inject("p", wire("p", { eventBatch: { sequence: 1 } }));
    t.inject("x", new Uint8Array([0xff]));
    t.unreachableFrom("p");
    driver.step();
    expect(subscriber.calls).toEqual(["unreachable:p", "bytes:x", "bytes:p", "bytes:x"]);
  });

  it("routes each body to the core that handles it; heartbeats and ROLE_BOTH hellos to both", () => {
    const { t, consumer, producer, driver } = routingRig();
    const R = ectp.v1.Role;
    t.inject("p", wire("p", { readGrant: { attemptId: 1, grantId: 1 } }));
    t.inject("p", wire("p", { readReject: { attemptId: 1 } }));
    t.inject("p", wire("p", { handshakeReject: { reason: 4 } }));
    t.inject("p", wire("p", { hello: { role: R.ROLE_PRODUCER } }));
    t.inject("c", wire("c", { readRequest: { attemptId: 1 } }));
    t.inject("c", wire("c", { readComplete: { grantId: 1 } }));
    t.inject("c", wire("c", { replayRequest: { fromSequence: 1 } }));
    t.inject("c", wire("c", { snapshotRequest: {} }));
    t.inject("c", wire("c", { hello: { role: R.ROLE_CONSUMER } }));
    t.inject("x", wire("x", { heartbeat: {} }));
    t.inject("x", wire("x", { hello: { role: R.ROLE_BOTH } }));
    driver.step();
    expect(consumer?.calls).toEqual([
      "env:p:readGrant",
      "env:p:readReject",
      "env:p:handshakeReject",
      "env:p:hello",
      "env:x:heartbeat",
      "env:x:hello",
    ]);
    expect(producer?.calls).toEqual([
      "env:c:readRequest",
      "env:c:readComplete",
      "env:c:replayRequest",
      "env:c:snapshotRequest",
      "env:c:hello",
      "env:x:heartbeat",
      "env:x:hello",
    ]);
  });

  it("[C10] an envelope with a body neither core handles (an EventBatch, or none at all) goes to the consumer alone, which ignores and counts it", () => {
    const { t, consumer, producer, driver } = routingRig();
    t.inject("p", wire("p", { eventBatch: { sequence: 1 } }));
    t.inject("p", wire("p", {}));
    driver.step();
    expect(consumer?.calls).toEqual(["env:p:eventBatch", "env:p:undefined"]);
    expect(producer?.calls).toEqual([]);
  });

  it("gives undecodable bytes to one core: the producer (typed VERSION replies) or by body", () => {
    const { t, consumer, producer, driver } = routingRig();
    t.inject("c", new Uint8Array([0xff, 0xff]));
    t.inject("c", encodeEnvelope({ version: { major: 2 }, senderId: "c", senderEpoch: 1, readRequest: { attemptId: 1 } }));
    t.inject("p", encodeEnvelope({ version: { major: 2 }, senderId: "p", senderEpoch: 1, readGrant: { grantId: 1 } }));
    driver.step();
    expect(producer?.calls).toEqual(["bytes:c", "bytes:c"]);
    expect(consumer?.calls).toEqual(["bytes:p"]);
  });

  it("sends a message for a missing role to the other core, which ignores and counts it [C10]", () => {
    const { t, producer, driver } = routingRig({ producer: true });
    t.inject("p", wire("p", { readGrant: { attemptId: 1, grantId: 1 } }));
    driver.step();
    expect(producer?.calls).toEqual(["env:p:readGrant"]);
  });

  it("[P8][C10] a driver of one core gives it heartbeats, ROLE_BOTH hellos and the other role's bodies (counted there)", () => {
    for (const which of [{ consumer: true }, { producer: true }]) {
      const { t, consumer, producer, driver } = routingRig(which);
      t.inject("x", wire("x", { heartbeat: {} }));
      t.inject("x", wire("x", { hello: { role: ectp.v1.Role.ROLE_BOTH } }));
      driver.step();
      expect((consumer ?? producer)?.calls).toEqual(["env:x:heartbeat", "env:x:hello"]);
    }
    const { t, consumer, driver } = routingRig({ consumer: true });
    t.inject("c", wire("c", { readRequest: { attemptId: 1 } }));
    t.inject("c", wire("c", { hello: { role: ectp.v1.Role.ROLE_CONSUMER } }));
    driver.step();
    expect(consumer?.calls).toEqual(["env:c:readRequest", "env:c:hello"]);
  });

  it("[I1] a logger that throws while a transport fault is reported does not end the step: what arrived is still delivered", () => {
    const net = new FakeNet();
    const t = net.endpoint("me");
    const producer = new RecordingCore();
    const fail = (): never => {
      throw new Error("log sink down");
    };
    const driver = new Driver({
      transport: t,
      producer: producer as unknown as ProducerCore,
      clock: manualClock(),
      logger: { debug: fail, info: fail, warn: fail, error: fail },
    });
    const poll = t.poll.bind(t);
    let calls = 0;
    t.poll = () => {
      if (calls++ === 0) throw new Error("transport fault"); // logged (and the logger throws)
      return poll();
    };
    expect(() => driver.step()).not.toThrow();
    t.inject("c", wire("c", { readRequest: { attemptId: 1 } }));
    driver.step();
    expect(producer.calls).toEqual(["env:c:readRequest"]);
  });

  it("feeds settled reads to the consumer and unreachable peers to both cores", () => {
    const { t, consumer, producer, driver } = routingRig();
    t.send("ghost", new Uint8Array([1])); // no such endpoint: reported unreachable
    t.startRead({ readId: 4, peerId: "ghost", source: new Uint8Array(0), destination: dest(1) });
    driver.step();
    expect(consumer?.calls).toEqual(["read:4:failed", "unreachable:ghost"]);
    expect(producer?.calls).toEqual(["unreachable:ghost"]);
  });

  it("[P3][C11] a grant queued behind a connect is sent with the lease it has left, or not at all once it ran out", async () => {
    const net = new FakeNet();
    const t = net.endpoint("me");
    net.endpoint("c");
    const producer = new RecordingCore();
    const clock = manualClock();
    const driver = new Driver({ transport: t, producer: producer as unknown as ProducerCore, clock });
    const grantTo = (grantId: number, leaseMs: number): CoreOutput => ({
      type: "send",
      peerId: "c",
      envelope: { version: SPEC_VERSION, senderId: "me", senderEpoch: 1, readGrant: { attemptId: 1, grantId, leaseMs } },
    });
    let epoch = 1;
    const connectAndQueue = async (outputs: CoreOutput[], waitMs: number) => {
      let resolve!: () => void;
      t.connectResult = new Promise<void>((r) => {
        resolve = r;
      });
      producer.outputs = [{ type: "connect-peer", peerId: "c", epoch: epoch++, metadata: new Uint8Array([1]) }, ...outputs];
      driver.step();
      clock.advance(waitMs);
      resolve();
      await flush();
    };
    await connectAndQueue([grantTo(1, 30_000), grantTo(2, 0)], 10_000);
    const leases = t.sentTo.map((m) => {
      const d = decodeEnvelope(m.bytes);
      return d.ok ? [Number(d.value.readGrant?.grantId), Number(d.value.readGrant?.leaseMs)] : [];
    });
    expect(leases).toEqual([
      [1, 20_000],
      [2, 20_000], // lease_ms 0 is 30 000
    ]);
    await connectAndQueue([grantTo(3, 5_000)], 6_000);
    expect(t.sentTo).toHaveLength(2);
  });

  it("queues sends and reads to a peer until connectPeer resolves, once per peer epoch, then flushes in order", async () => {
    const net = new FakeNet();
    const t = net.endpoint("me");
    const other = net.endpoint("p");
    const consumer = new RecordingCore();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock() });
    let resolve!: () => void;
    t.connectResult = new Promise<void>((r) => {
      resolve = r;
    });
    const hello = { version: SPEC_VERSION, senderId: "me", senderEpoch: 1, hello: { role: 2 } };
    consumer.outputs = [
      { type: "connect-peer", peerId: "p", epoch: 3, metadata: new Uint8Array([1]) },
      { type: "send", peerId: "p", envelope: hello },
      { type: "connect-peer", peerId: "p", epoch: 3, metadata: new Uint8Array([1]) },
      { type: "start-read", readId: 1, peerId: "p", source: new Uint8Array(0), destination: dest(2), crc32c: true },
      { type: "start-read", readId: 2, peerId: "p", source: new Uint8Array(0), destination: dest(2), crc32c: false },
      { type: "cancel-read", readId: 2 },
    ];
    driver.step();
    expect(t.connects).toEqual([{ peerId: "p", epoch: 3 }]);
    expect(t.sentTo).toEqual([]);
    expect(t.started).toEqual([]);
    resolve();
    await flush();
    expect(t.sentTo.map((s) => s.peerId)).toEqual(["p"]);
    expect(t.started.map((r) => [r.readId, r.crc32c])).toEqual([[1, true]]);
    expect(other.poll().messages).toHaveLength(1);
    driver.step();
    // The cancelled queued read settles once, as cancelled, without reaching the transport.
    expect(consumer.calls).toContain("read:2:cancelled");
    expect(t.cancelled).toEqual([]);
    // Already connected at epoch 3: no second connect; a new epoch connects again.
    consumer.outputs = [{ type: "connect-peer", peerId: "p", epoch: 3, metadata: new Uint8Array([1]) }];
    driver.step();
    t.connectResult = undefined;
    consumer.outputs = [{ type: "connect-peer", peerId: "p", epoch: 4, metadata: new Uint8Array([1]) }];
    driver.step();
    expect(t.connects).toEqual([
      { peerId: "p", epoch: 3 },
      { peerId: "p", epoch: 4 },
    ]);
  });

  it("when connectPeer rejects, queued reads fail (peer gone) and the core that asked learns the peer is unreachable", async () => {
    const { t, consumer, producer, driver } = routingRig();
    t.connectResult = Promise.reject(new EctpError("TRANSPORT_UNAVAILABLE", "bad metadata"));
    (consumer as RecordingCore).outputs = [
      { type: "connect-peer", peerId: "p", epoch: 1, metadata: new Uint8Array([1]) },
      { type: "start-read", readId: 7, peerId: "p", source: new Uint8Array(0), destination: dest(1), crc32c: false },
    ];
    driver.step();
    await flush();
    driver.step();
    expect(consumer?.calls).toEqual(["read:7:failed:gone", "unreachable:p"]);
    expect(producer?.calls).toEqual([]); // it holds no connection to p: nothing of its was lost
    expect(t.started).toEqual([]);
  });

  it.each([
    ["consumer", "producer"],
    ["producer", "consumer"], // the second core to ask for the epoch holds it too
  ] as const)("[P8] with both cores, one core's disconnect-peer leaves the connection the other holds (%s first)", async (first, last) => {
    const rig = routingRig();
    const { net, t, driver } = rig;
    net.endpoint("x");
    (rig.producer as RecordingCore).outputs = [connectTo("x", 1)];
    (rig.consumer as RecordingCore).outputs = [connectTo("x", 1)];
    driver.step();
    await flush();
    expect(t.connects).toEqual([{ peerId: "x", epoch: 1 }]); // once per epoch
    (rig[first] as RecordingCore).outputs = [{ type: "disconnect-peer", peerId: "x" }];
    driver.step();
    expect(t.disconnects).toEqual([]); // the other core still holds it
    (rig[last] as RecordingCore).outputs = [heartbeatTo("x"), { type: "disconnect-peer", peerId: "x" }];
    driver.step();
    expect(t.sentTo.map((m) => m.peerId)).toEqual(["x"]);
    expect(t.disconnects).toEqual(["x"]); // the last holder let go
  });

  it("[P8] a connect-peer for an older epoch than the peer's current connection changes nothing", async () => {
    const { net, t, consumer, producer, driver } = routingRig();
    net.endpoint("x");
    (consumer as RecordingCore).outputs = [connectTo("x", 1)];
    driver.step();
    await flush();
    (producer as RecordingCore).outputs = [connectTo("x", 2)]; // the peer restarted: its Hello reached the producer
    driver.step();
    await flush();
    // The consumer, still acting on the old epoch, asks for it again, then lets go of it.
    (consumer as RecordingCore).outputs = [connectTo("x", 1), heartbeatTo("x"), { type: "disconnect-peer", peerId: "x" }];
    driver.step();
    await flush();
    driver.step();
    expect(t.connects).toEqual([
      { peerId: "x", epoch: 1 },
      { peerId: "x", epoch: 2 },
    ]);
    expect(t.sentTo.map((m) => m.peerId)).toEqual(["x"]); // sent on the current connection, not queued
    expect(t.disconnects).toEqual([]); // the epoch-2 connection is the producer's
    expect([...(consumer?.calls ?? []), ...(producer?.calls ?? [])]).toEqual([]); // nobody told x is unreachable
  });

  it("disconnect-peer forgets the connection and calls transport.disconnectPeer; event batches reach onEventBatch", () => {
    const net = new FakeNet();
    const t = net.endpoint("me");
    const producer = new RecordingCore();
    const batches: ectp.v1.IEventBatch[] = [];
    const driver = new Driver({
      transport: t,
      producer: producer as unknown as ProducerCore,
      clock: manualClock(),
      onEventBatch: (b) => batches.push(b),
    });
    producer.outputs = [
      { type: "connect-peer", peerId: "c", epoch: 1, metadata: new Uint8Array([1]) },
      { type: "disconnect-peer", peerId: "c" },
      { type: "event-batch", batch: { sequence: 1, events: [] } },
    ];
    driver.step();
    expect(t.disconnects).toEqual(["c"]);
    expect(batches).toEqual([{ sequence: 1, events: [] }]);
    producer.outputs = [{ type: "connect-peer", peerId: "c", epoch: 1, metadata: new Uint8Array([1]) }];
    driver.step();
    expect(t.connects).toHaveLength(2);
  });

  /** A driver of a recording producer over a fresh transport, counting the producer's polls (one per step). */
  function pollCountingRig(options: Partial<DriverOptions>) {
    const t = new FakeNet().endpoint("me");
    const producer = new RecordingCore();
    let count = 0;
    producer.poll = () => {
      count++;
      return [];
    };
    const driver = new Driver({ transport: t, producer: producer as unknown as ProducerCore, ...options });
    return { t, driver, polls: () => count };
  }

  /** A driver of a recording producer with nothing due, polling at least every 5 ms. */
  function realTimeRig() {
    const t = new FakeNet().endpoint("me");
    const producer = new RecordingCore();
    producer.deadline = undefined;
    const driver = new Driver({ transport: t, producer: producer as unknown as ProducerCore, maxWaitMs: 5 });
    return { t, producer, driver };
  }

  it("run() loops in real time until stop(), waking for messages", async () => {
    const { t, producer, driver } = realTimeRig();
    const done = driver.run();
    expect(driver.run()).toBe(done);
    expect(driver.isRunning).toBe(true);
    t.inject("c", wire("c", { readRequest: { attemptId: 1 } }));
    for (let i = 0; i < 100 && producer.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 2));
    expect(producer.calls).toEqual(["env:c:readRequest"]);
    driver.stop();
    await done;
    expect(driver.isRunning).toBe(false);
  });

  it("run() keeps the event loop turning when the transport's waits resolve at once every time, or reject", async () => {
    for (const broken of ["resolves", "rejects"] as const) {
      const { t, driver } = realTimeRig();
      t.waitForActivity = () => (broken === "resolves" ? Promise.resolve() : Promise.reject(new Error("closed")));
      const done = driver.run();
      setTimeout(() => driver.stop(), 20); // a timer: runs only if the loop lets the event loop turn
      await done;
      expect(driver.isRunning).toBe(false);
    }
  });

  it("[I1] run() warns once when the transport's waits keep ending early with nothing to poll (the loop spins); a transport that wakes for real activity is not blamed", async () => {
    const turns = async (wait: "at once" | "on a 0 ms timer" | "for activity") => {
      const warned: [string, unknown][] = [];
      const logger = { debug() {}, info() {}, warn: (m: string, f?: unknown) => warned.push([m, f]), error() {} };
      // Waits of 10 s: a turn counts as early when its wait ended before 5 s, which a wait that ends at
      // once (or on a 0 ms timer) does even on a loaded machine. With waits of 50 ms, one turn that a
      // busy CI machine held past 25 ms broke the run of 1,000 and the warning never came.
      const { t, driver, polls } = pollCountingRig({ maxWaitMs: 10_000, logger });
      t.waitForActivity = () => {
        if (wait === "on a 0 ms timer") return new Promise((resolve) => setTimeout(resolve, 0)); // 1 ms or more, still far short of 10 s
        // Activity each time: a message the next poll brings (what an edge-triggered wait wakes for).
        if (wait === "for activity") t.inject("c", wire("c", { heartbeat: {} }));
        return Promise.resolve();
      };
      const done = driver.run();
      // 1,100 turns: past the 1,000 in a row that make a spin (a 0 ms timer takes 1 ms or more a turn).
      for (let i = 0; i < 4000 && polls() < 1100; i++) await new Promise((r) => setTimeout(r, 5));
      driver.stop();
      await done;
      expect(polls()).toBeGreaterThanOrEqual(1100);
      return warned;
    };
    const spinning = [
      [
        "transport.waitForActivity keeps ending early with nothing to poll, so Driver.run spins; a wait must sleep until new activity or its timeout (edge-triggered: see Transport.waitForActivity)",
        { turns: 1000 },
      ],
    ];
    expect(await turns("at once")).toEqual(spinning);
    expect(await turns("on a 0 ms timer")).toEqual(spinning);
    expect(await turns("for activity")).toEqual([]);
  }, 60_000);

  // Mutant: a rejected waitForActivity is followed by the next step at once (217,000 steps and
  // error lines a second on an idle producer).
  it("run() sleeps its wait on a timer while waitForActivity keeps rejecting, logging the first rejection and the recovery", async () => {
    const logged: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) };
    const { t, driver, polls } = pollCountingRig({ maxWaitMs: 20, logger });
    let failing = true;
    t.waitForActivity = (ms) => (failing ? Promise.reject(new Error("closed")) : new Promise((r) => setTimeout(r, ms)));
    const done = driver.run();
    await new Promise((r) => setTimeout(r, 200));
    failing = false;
    await new Promise((r) => setTimeout(r, 60));
    driver.stop();
    await done;
    // 200 ms of 20 ms sleeps is about 10 steps (fewer on a slow machine; a spin makes thousands).
    expect(polls()).toBeLessThan(100);
    expect(logged).toEqual(["transport.waitForActivity rejected; sleeping on a timer until it works again", "transport.waitForActivity works again"]);
  });

  // Mutant: the fallback sleep passes maxWaitMs to setTimeout as is (Node fires a delay past 2^31 - 1
  // ms after 1 ms: 158 steps in 200 ms with maxWaitMs 3e9).
  it("run()'s sleep after a rejected waitForActivity does not spin with a maxWaitMs past what a timer takes", async () => {
    const { t, driver, polls } = pollCountingRig({ maxWaitMs: 3e9 });
    t.waitForActivity = () => Promise.reject(new Error("closed"));
    const done = driver.run();
    await new Promise((r) => setTimeout(r, 100));
    driver.stop();
    await done;
    expect(polls()).toBeLessThan(5);
  });

  it("run() hears of a failed connect, and of stop(), during a wait the transport never ends", async () => {
    const t = new FakeNet().endpoint("me");
    t.waitForActivity = () => new Promise<void>(() => {}); // no activity, no timeout: only the driver can wake
    let refuse: (cause: Error) => void = () => {};
    t.connectResult = new Promise<void>((_, reject) => (refuse = reject));
    const consumer = new RecordingCore();
    consumer.deadline = undefined;
    consumer.outputs = [{ type: "connect-peer", peerId: "p", epoch: 1, metadata: new Uint8Array([1]) }];
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, maxWaitMs: 3_600_000 });
    const done = driver.run();
    await new Promise((r) => setTimeout(r, 1)); // the loop is in its hour-long wait
    refuse(new Error("bad metadata"));
    for (let i = 0; i < 100 && consumer.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 2));
    expect(consumer.calls).toEqual(["unreachable:p"]);
    driver.stop();
    await done;
    expect(driver.isRunning).toBe(false);
  });

  it("run() hears of a queued read that fails to start once its connection is up, during a wait the transport never ends", async () => {
    const t = new FakeNet().endpoint("me");
    t.waitForActivity = () => new Promise<void>(() => {}); // no activity, no timeout: only the driver can wake
    let connected: () => void = () => {};
    t.connectResult = new Promise<void>((resolve) => (connected = resolve));
    t.startRead = () => {
      throw new Error("no such region");
    };
    const consumer = new RecordingCore();
    consumer.deadline = undefined;
    const destination = { region: { id: 1, bytes: new Uint8Array(4) }, offset: 0, length: 4 };
    consumer.outputs = [
      { type: "connect-peer", peerId: "p", epoch: 1, metadata: new Uint8Array([1]) },
      { type: "start-read", readId: 7, peerId: "p", source: new Uint8Array([1]), destination, crc32c: false },
    ];
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, maxWaitMs: 3_600_000 });
    const done = driver.run();
    await new Promise((r) => setTimeout(r, 1)); // the loop is in its hour-long wait, the read queued
    connected();
    for (let i = 0; i < 100 && consumer.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 2));
    expect(consumer.calls).toEqual(["read:7:failed"]);
    driver.stop();
    await done;
  });

  it("run() keeps news that arrives while it passes through the event loop (every 64th turn) for the next wait", async () => {
    for (const news of ["connect failure", "stop"] as const) {
      const t = new FakeNet().endpoint("me");
      let waits = 0;
      // The first 63 waits end at once; from the 64th on, only the driver can end them.
      t.waitForActivity = () => (++waits < 64 ? Promise.resolve() : new Promise<void>(() => {}));
      t.connectResult = Promise.reject(new Error("bad metadata"));
      t.connectResult.catch(() => {});
      const consumer = new RecordingCore();
      consumer.deadline = undefined;
      let polls = 0;
      consumer.poll = () => {
        // The 64th step asks for a connect that fails at once: its rejection lands while run()
        // is in the setImmediate before the 64th wait.
        if (++polls === 64 && news === "connect failure") return [{ type: "connect-peer", peerId: "p", epoch: 1, metadata: new Uint8Array([1]) }];
        if (polls === 64) queueMicrotask(() => driver.stop());
        return [];
      };
      const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, maxWaitMs: 3_600_000 });
      const done = driver.run();
      for (let i = 0; i < 100 && consumer.calls.length === 0 && driver.isRunning; i++) await new Promise((r) => setTimeout(r, 2));
      if (news === "connect failure") {
        expect(consumer.calls).toEqual(["unreachable:p"]);
        driver.stop();
      }
      await done;
      expect(driver.isRunning).toBe(false);
    }
  });

  it("run() right after stop(), before the loop has ended, keeps that loop running", async () => {
    const { t, producer, driver } = realTimeRig();
    const done = driver.run();
    await new Promise((r) => setTimeout(r, 1)); // the loop is waiting
    driver.stop();
    expect(driver.run()).toBe(done);
    t.inject("c", wire("c", { readRequest: { attemptId: 1 } }));
    for (let i = 0; i < 100 && producer.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 2));
    expect(producer.calls).toEqual(["env:c:readRequest"]);
    expect(driver.isRunning).toBe(true);
    driver.stop();
    await done;
  });
});

describe("Driver: slow or faulty connects and transports, and run()'s wake-ups", () => {
  it("[P8] a connect still pending after connectTimeoutMs fails: queued reads fail (peer gone), sends are dropped, the core hears the peer is unreachable", async () => {
    const t = new FakeNet().endpoint("me");
    let resolveLate!: () => void;
    t.connectResult = new Promise<void>((r) => (resolveLate = r)); // a metadata load that hangs
    const consumer = new RecordingCore();
    const clock = manualClock();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock, connectTimeoutMs: 1_000 });
    consumer.outputs = [connectTo(), heartbeatTo("p"), startRead(7)];
    driver.step();
    clock.advance(999);
    driver.step();
    expect(consumer.calls).toEqual([]); // still within the timeout
    clock.advance(1);
    driver.step();
    expect(consumer.calls).toEqual(["read:7:failed:gone", "unreachable:p"]);
    expect(t.disconnects).toEqual(["p"]); // the transport is told to give up the load
    // The load completes after all: undone, and nothing queued goes out.
    resolveLate();
    await flush();
    expect(t.disconnects).toEqual(["p", "p"]);
    expect(t.sentTo).toEqual([]);
    expect(t.started).toEqual([]);
    // A new connect-peer (the core reconnecting) starts afresh.
    t.connectResult = undefined;
    consumer.outputs = [connectTo(), heartbeatTo("p")];
    driver.step();
    await flush();
    expect(t.sentTo.map((m) => m.peerId)).toEqual(["p"]);
  });

  it("run() wakes for a connect's timeout, not only after maxWaitMs", async () => {
    const t = new FakeNet().endpoint("me");
    t.waitForActivity = (ms) => new Promise<void>((r) => setTimeout(r, ms));
    t.connectResult = new Promise<void>(() => {});
    const consumer = new RecordingCore();
    consumer.deadline = undefined;
    consumer.outputs = [connectTo()];
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, maxWaitMs: 3_600_000, connectTimeoutMs: 5 });
    const done = driver.run();
    await waitUntil(() => consumer.calls.length > 0);
    expect(consumer.calls).toEqual(["unreachable:p"]);
    driver.stop();
    await done;
  });

  it("run() wakes at a core's own deadline, not only after maxWaitMs", async () => {
    const t = new FakeNet().endpoint("me");
    t.waitForActivity = (ms) => new Promise<void>((r) => setTimeout(r, ms));
    const producer = new RecordingCore();
    let polls = 0;
    producer.deadline = performance.now() + 20;
    producer.poll = () => {
      polls++;
      if (producer.deadline !== undefined && performance.now() >= producer.deadline) producer.deadline = undefined;
      return [];
    };
    const driver = new Driver({ transport: t, producer: producer as unknown as ProducerCore, maxWaitMs: 3_600_000 });
    const done = driver.run();
    await waitUntil(() => polls >= 2);
    expect(polls).toBeGreaterThanOrEqual(2);
    driver.stop();
    await done;
  });

  it("run() sleeps at most maxWaitMs when the cores' next deadline is later", async () => {
    const t = new FakeNet().endpoint("me");
    const waits: number[] = [];
    t.waitForActivity = (ms) => {
      waits.push(ms);
      return new Promise<void>((r) => setTimeout(r, Math.min(ms, 5)));
    };
    const producer = new RecordingCore();
    producer.deadline = performance.now() + 3_600_000;
    const driver = new Driver({ transport: t, producer: producer as unknown as ProducerCore, maxWaitMs: 20 });
    const done = driver.run();
    await waitUntil(() => waits.length >= 2);
    driver.stop();
    await done;
    expect(waits.length).toBeGreaterThanOrEqual(2);
    for (const ms of waits) expect(ms).toBeLessThanOrEqual(20);
  });

  it("run() hands a queued read cancelled in a step its result at once, not after the wait", async () => {
    const t = new FakeNet().endpoint("me");
    t.waitForActivity = () => new Promise<void>(() => {});
    t.connectResult = new Promise<void>(() => {});
    const consumer = new RecordingCore();
    consumer.outputs = [connectTo(), startRead(1), { type: "cancel-read", readId: 1 }];
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, maxWaitMs: 3_600_000, connectTimeoutMs: 3_600_000 });
    const done = driver.run();
    await waitUntil(() => consumer.calls.length > 0);
    expect(consumer.calls).toEqual(["read:1:cancelled"]);
    driver.stop();
    await done;
  });

  it("one message or read past maxQueuedPerPeer fails the pending connect; what the core still sends the peer in that step is dropped", () => {
    const net = new FakeNet();
    const t = net.endpoint("me");
    net.endpoint("q");
    t.connectResult = new Promise<void>(() => {});
    const consumer = new RecordingCore();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock(), maxQueuedPerPeer: 2 });
    consumer.outputs = [connectTo(), heartbeatTo("p"), startRead(1), startRead(2), heartbeatTo("p"), startRead(3), heartbeatTo("q")];
    driver.step();
    expect(t.disconnects).toEqual(["p"]);
    expect(t.sentTo.map((m) => m.peerId)).toEqual(["q"]); // nothing reaches p unconnected
    expect(t.started).toEqual([]);
    driver.step();
    expect(consumer.calls).toEqual(["read:1:failed:gone", "read:2:failed:gone", "read:3:failed:gone", "unreachable:p"]);
  });

  it("rejects a connectTimeoutMs or maxQueuedPerPeer that is not positive with INVALID_CONFIG naming it", () => {
    const transport = new FakeNet().endpoint("me");
    const producer = new RecordingCore() as unknown as ProducerCore;
    expect(() => new Driver({ transport, producer, maxWaitMs: 0 })).not.toThrow(); // non-negative, as documented
    for (const [options, name] of [
      [{ connectTimeoutMs: 0 }, "connectTimeoutMs"],
      [{ connectTimeoutMs: Number.NaN }, "connectTimeoutMs"],
      [{ maxQueuedPerPeer: 0 }, "maxQueuedPerPeer"],
      [{ maxQueuedPerPeer: 1.5 }, "maxQueuedPerPeer"],
    ] as const) {
      expect(() => new Driver({ transport, producer, ...options })).toThrow(name);
      try {
        new Driver({ transport, producer, ...options });
      } catch (e) {
        expect((e as EctpError).code).toBe("INVALID_CONFIG");
      }
    }
  });

  it("[I1] a transport breaking its contract does not throw into the engine: connectPeer returning no promise connected; a poll missing lists counts them empty", () => {
    const logged: string[] = [];
    const fields: unknown[] = [];
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (m: string, f?: unknown) => {
        logged.push(m);
        fields.push(f);
      },
    };
    const net = new FakeNet();
    const t = net.endpoint("me");
    net.endpoint("p");
    t.connectPeer = () => undefined as unknown as Promise<void>;
    const consumer = new RecordingCore();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock(), logger });
    consumer.outputs = [connectTo(), heartbeatTo("p")];
    expect(() => driver.step()).not.toThrow();
    const poll = t.poll.bind(t);
    t.poll = () => ({ messages: poll().messages }) as TransportActivity; // no reads, no unreachable
    t.inject("p", wire("p", { readGrant: { attemptId: 1 } }));
    expect(() => driver.step()).not.toThrow();
    expect(consumer.calls).toEqual(["env:p:readGrant"]);
    expect(logged).toEqual([
      "transport.poll returned no { messages, reads, unreachable } lists; a missing list counts as empty (logged once: later polls like it are taken the same way)",
    ]);
    expect(fields).toEqual([{ poll: "an object", missing: ["reads", "unreachable"] }]);
    t.inject("p", wire("p", { readGrant: { attemptId: 2 } }));
    expect(() => driver.step()).not.toThrow();
    expect(consumer.calls).toEqual(["env:p:readGrant", "env:p:readGrant"]);
    expect(logged).toHaveLength(1); // once per driver: a broken transport breaks every poll
    return flush().then(() => expect(t.sentTo.map((m) => m.peerId)).toEqual(["p"])); // the send queued behind the connect went out
  });

  it("[P3][C11] a grant queued behind a connect has its lease counted from the step that polled it, not from later in that step", async () => {
    const t = new FakeNet().endpoint("me");
    let connected!: () => void;
    t.connectResult = new Promise<void>((r) => (connected = r));
    const producer = new RecordingCore();
    const clock = manualClock();
    const driver = new Driver({ transport: t, producer: producer as unknown as ProducerCore, clock });
    const grant: CoreOutput = {
      type: "send",
      peerId: "c",
      envelope: { version: SPEC_VERSION, senderId: "me", senderEpoch: 1, readGrant: { attemptId: 1, grantId: 1, leaseMs: 30_000 } },
    };
    // A slow step: 100 ms pass between the poll and the output being carried out.
    producer.poll = () => {
      const o = [connectTo("c"), grant];
      clock.advance(100);
      return o;
    };
    driver.step();
    connected();
    await flush();
    const sent = decodeEnvelope(t.sentTo[0]?.bytes ?? new Uint8Array());
    expect(sent.ok && Number(sent.value.readGrant?.leaseMs)).toBe(29_900);
  });

  it("run() after a stop() made inside its first step starts a new loop (the ended one is not kept)", async () => {
    const t = new FakeNet().endpoint("me");
    t.waitForActivity = (ms) => new Promise<void>((r) => setTimeout(r, ms));
    const producer = new RecordingCore();
    producer.deadline = undefined;
    const driver = new Driver({ transport: t, producer: producer as unknown as ProducerCore, maxWaitMs: 2 });
    let polls = 0;
    producer.poll = () => {
      if (++polls === 1) driver.stop(); // e.g. from a hook the step calls
      return [];
    };
    const first = driver.run();
    await first;
    expect(driver.isRunning).toBe(false);
    const second = driver.run();
    expect(second).not.toBe(first);
    for (let i = 0; i < 100 && polls < 3; i++) await new Promise((r) => setTimeout(r, 2));
    expect(polls).toBeGreaterThanOrEqual(3); // the new loop steps
    driver.stop();
    await second;
    expect(driver.isRunning).toBe(false);
  });

  it("wake() ends run()'s wait: work given to a core between steps goes out at once, not after maxWaitMs", async () => {
    const net = new FakeNet();
    const t = net.endpoint("me");
    net.endpoint("c");
    t.waitForActivity = () => new Promise<void>(() => {}); // only the driver can end the wait
    const producer = new RecordingCore();
    producer.deadline = undefined;
    const driver = new Driver({ transport: t, producer: producer as unknown as ProducerCore, maxWaitMs: 3_600_000 });
    const done = driver.run();
    await new Promise((r) => setTimeout(r, 1)); // the loop is in its hour-long wait
    producer.outputs = [heartbeatTo("c")]; // what an engine call (admit, markReady...) queued
    driver.wake();
    for (let i = 0; i < 100 && t.sentTo.length === 0; i++) await new Promise((r) => setTimeout(r, 2));
    expect(t.sentTo.map((m) => m.peerId)).toEqual(["c"]);
    driver.stop();
    await done;
  });
});

// ---------------------------------------------------------------------------------------
// End to end: a real producer and consumer through the fake transport.
// ---------------------------------------------------------------------------------------


describe("Driver end to end", () => {
  it("[P8] a report that a consumer is unreachable, polled with the Hello of its next run, ends the run it was about, not the new one", async () => {
    const net = new FakeNet();
    const t = net.endpoint("E");
    net.endpoint("pd"); // (sends to it are delivered: only the report below says it is unreachable)
    const clock = manualClock(1_000);
    const store = new MemoryItemStore({ capacityBytes: 1024 });
    store.put(desc(1));
    store.markReady(kid(1));
    const producer = new ProducerCore({ id: "E", epoch: 7, fingerprint: FP, store, transportMetadata: t.localMetadata() });
    const driver = new Driver({ transport: t, producer, clock });
    const from = (epoch: number, body: ectp.v1.IEnvelope) => encodeEnvelope({ version: SPEC_VERSION, senderId: "pd", senderEpoch: epoch, ...body });
    const hello = { role: ectp.v1.Role.ROLE_CONSUMER, fingerprint: FP, transportMetadata: new Uint8Array([9]) };
    const ask = (attemptId: number) => ({ readRequest: { attemptId, key: desc(1).key, expectedEpoch: 7, expectedSizeBytes: 10 } });
    t.inject("pd", from(1, { hello }));
    t.inject("pd", from(1, ask(1)));
    driver.step();
    await flush();
    driver.step();
    expect(producer.stats().grants).toBe(1);
    // The consumer restarts. A send to its first run failed; the report comes in one poll with the new run's Hello and ReadRequest.
    const sentBefore = t.sentTo.length;
    t.unreachableFrom("pd");
    t.inject("pd", from(2, { hello }));
    t.inject("pd", from(2, ask(1)));
    driver.step();
    await flush();
    driver.step();
    // The first run's grant is released, the second's is live and was sent (before, both were released and nothing was sent).
    expect([producer.stats().grants, store.totalPins()]).toEqual([1, 1]);
    const replies = t.sentTo.slice(sentBefore).map((m) => {
      const d = decodeEnvelope(m.bytes);
      if (!d.ok) throw d.error;
      return d.value;
    });
    expect(replies.filter((e) => e.readGrant != null).map((e) => [Number(e.senderEpoch), Number(e.readGrant?.attemptId)])).toEqual([[7, 1]]);
  });

  it("[E1][E2][P8] a router's subscriber, driven over a transport that connects first, follows a producer's ready items and reconnects after losing it", async () => {
    const net = new FakeNet();
    const tp = net.endpoint("E");
    const tr = net.endpoint("router");
    const clock = manualClock(1_000);
    const store = new MemoryItemStore({ capacityBytes: 3 * 64 }); // a fourth item evicts the oldest [P6]
    const producer = new ProducerCore({ id: "E", epoch: 7, fingerprint: FP, store, transportMetadata: tp.localMetadata() });
    const subscriber = new EventSubscriber({ id: "router", epoch: 1, fingerprint: FP, transportMetadata: tr.localMetadata(), heartbeatIntervalMs: 100, retryMs: 200 });
    const dp = new Driver({ transport: tp, producer, clock });
    const dr = new Driver({ transport: tr, subscriber, clock });
    subscriber.follow("E", clock.now(), { epoch: 7, metadata: tp.localMetadata() });
    const settle = async () => {
      for (let i = 0; i < 6; i++) {
        dr.step();
        await flush();
        dp.step();
        await flush();
        clock.advance(1);
      }
    };
    for (const n of [1, 2, 3]) {
      expect(store.put(desc(n, 64)).ok).toBe(true);
      store.markReady(kid(n));
    }
    await settle();
    expect([...(subscriber.view("E")?.keys() ?? [])].sort()).toEqual([kid(1), kid(2), kid(3)].sort());
    expect(tr.connects).toEqual([{ peerId: "E", epoch: 7 }]); // before the Hello went out
    expect(tp.connects).toEqual([{ peerId: "router", epoch: 1 }]);
    expect(store.put(desc(4, 64)).ok).toBe(true);
    store.markReady(kid(4));
    await settle();
    expect([...(subscriber.view("E")?.keys() ?? [])].sort()).toEqual([kid(2), kid(3), kid(4)].sort());
    // The transport loses the producer: forgotten at once, then subscribed to anew (connected first) after retryMs.
    tr.unreachableFrom("E");
    dr.step();
    expect(tr.disconnects).toEqual(["E"]);
    clock.advance(500); // past retryMs, and past the producer's resendIntervalMs since its first snapshot
    await settle();
    expect(tr.connects).toEqual([{ peerId: "E", epoch: 7 }, { peerId: "E", epoch: 7 }]);
    expect(subscriber.stats()).toMatchObject({ producers: 1, synced: 1 });
  });

  it("[P2][C11] one item is granted, read, verified and ACKed through the driver; the grant is released", async () => {
    const net = new FakeNet();
    const tp = net.endpoint("E");
    const tc = net.endpoint("pd");
    const clock = manualClock(1_000);
    const bytes = new Uint8Array(64).map((_, i) => (i * 7 + 3) & 0xff);
    const store = new MemoryItemStore({
      capacityBytes: 1024,
      locate: (_k, b) => tp.describe(tp.registerMemory(b), 0, b.length),
    });
    const producer = new ProducerCore({
      id: "E",
      epoch: 7,
      fingerprint: FP,
      store,
      transportMetadata: tp.localMetadata(),
    });
    const pool = new CountingPool();
    const consumer = new ConsumerCore({
      id: "pd",
      epoch: 1,
      fingerprint: FP,
      destinations: pool,
      transportMetadata: tc.localMetadata(),
    });
    const dp = new Driver({ transport: tp, producer, clock });
    const dc = new Driver({ transport: tc, consumer, clock });

    const d = { ...desc(1, 64), checksum: { algorithm: 1, value: crc32cBytes(bytes) } };
    expect(store.put(d, bytes).ok).toBe(true);
    store.markReady(kid(1));
    const announcement = producer.announce(kid(1));
    expect(producer.stats().pins).toBe(0); // [P4]
    const request = { requestId: "r1", items: [{ itemId: "img0", announcement, hasModelInput: false }] };

    let result = consumer.admit(request, clock.now());
    for (let i = 0; i < 20 && result.status === "admitted" && result.items[0]?.action !== "ready"; i++) {
      dc.step();
      await flush();
      dp.step();
      await flush();
      clock.advance(1);
      result = consumer.admit(request, clock.now());
    }
    expect(result.status).toBe("admitted");
    const decision = result.status === "admitted" ? result.items[0] : undefined;
    expect(decision?.action).toBe("ready");
    const destination = decision?.action === "ready" ? decision.destination : undefined;
    expect(destination && Array.from(destination.region.bytes.subarray(destination.offset, destination.offset + 64))).toEqual(
      Array.from(bytes),
    );
    // The ACK reaches the producer: the grant and its pin are gone [P2][I3].
    for (let i = 0; i < 5 && producer.stats().grants > 0; i++) {
      dc.step();
      await flush();
      dp.step();
    }
    expect(producer.stats()).toMatchObject({ grants: 0, pins: 0 });
    expect(tc.connects).toEqual([{ peerId: "E", epoch: 7 }]);
    expect(tp.connects).toEqual([{ peerId: "pd", epoch: 1 }]);
    consumer.finishRequest("r1", clock.now());
    expect(consumer.stats()).toMatchObject({ requests: 0, grantsHeld: 0, readsInFlight: 0 });
    expect(pool.live).toBe(0);
  });
});

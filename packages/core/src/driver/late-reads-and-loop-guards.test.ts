/**
 * Driver edges: reads a closed transport fails through `poll` (as transport-nixl does) still
 * reach the consumer before `close()` resolves [I5]; `run()` survives a core's `nextDeadline` that
 * throws or is NaN [I1]; `isRunning` until the loop ends; a connection the transport reported
 * unreachable is connected again at the same epoch [P8]. Each test failed before its fix.
 */
import { crc32cBytes, decodeEnvelope } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { ConsumerCore } from "../consumer/consumer.js";
import { MemoryItemStore } from "../producer/memory-store.js";
import { ProducerCore } from "../producer/producer.js";
import { FP, desc, kid } from "../producer/test-helpers.js";
import type { ReadResult } from "../transport.js";
import { Driver } from "./driver.js";
import { CountingPool, FakeNet, RecordingCore, connectTo, deferred, flush, heartbeatTo, manualClock, routingRig, startRead, waitUntil } from "./test-support.js";


describe("Driver.close() and reads a closed transport fails later", () => {
  it("[I5] a read started after the transport closed, failed through poll (as transport-nixl does), reaches the consumer before close() resolves", async () => {
    const net = new FakeNet();
    const t = net.endpoint("me");
    net.endpoint("q");
    const consumer = new RecordingCore();
    let closed = false;
    const failedAfterClose: ReadResult[] = [];
    const poll = t.poll.bind(t);
    t.poll = () => {
      const a = poll();
      const reads = [...a.reads, ...failedAfterClose.splice(0)];
      return { ...a, reads };
    };
    t.startRead = (op) => {
      // transport-nixl's startRead on a closed transport: failLocally(), reported by the next poll.
      if (closed) failedAfterClose.push({ readId: op.readId, status: "failed", error: "transport closed" });
    };
    t.close = async () => {
      closed = true;
      // What the last step's poll brings (a grant that arrived meanwhile) makes the core start a read.
      consumer.outputs = [startRead(5, "q")];
    };
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock() });
    await driver.close();
    expect(consumer.calls).toEqual(["read:5:failed"]);
  });
});

describe("Driver.close() with real cores", () => {
  it("[I5][I4] a grant arriving while close() closes a transport that fails later reads through poll: the consumer hears the read's result and releases its destination", async () => {
    const net = new FakeNet();
    const tp = net.endpoint("E");
    const tc = net.endpoint("pd");
    const clock = manualClock(1_000);
    const bytes = new Uint8Array(64).map((_, i) => (i * 7 + 3) & 0xff);
    const store = new MemoryItemStore({ capacityBytes: 1024, locate: (_k, b) => tp.describe(tp.registerMemory(b), 0, b.length) });
    const producer = new ProducerCore({ id: "E", epoch: 7, fingerprint: FP, store, transportMetadata: tp.localMetadata() });
    const pool = new CountingPool();
    const consumer = new ConsumerCore({ id: "pd", epoch: 1, fingerprint: FP, destinations: pool, transportMetadata: tc.localMetadata() });
    const dp = new Driver({ transport: tp, producer, clock });
    const dc = new Driver({ transport: tc, consumer, clock });
    // The producer's grants are held back in the network until the consumer's transport closes.
    const heldGrants: Uint8Array[] = [];
    const send = tp.send.bind(tp);
    tp.send = (peerId, message) => {
      const e = decodeEnvelope(message);
      if (e.ok && e.value.readGrant) heldGrants.push(message);
      else send(peerId, message);
    };
    // transport-nixl after close: startRead fails the read locally, reported by the next poll.
    let closed = false;
    const failed: ReadResult[] = [];
    const startRead = tc.startRead.bind(tc);
    tc.startRead = (op) => (closed ? failed.push({ readId: op.readId, status: "failed", error: "transport closed" }) : startRead(op));
    const poll = tc.poll.bind(tc);
    tc.poll = () => {
      const a = poll();
      return { ...a, reads: [...a.reads, ...failed.splice(0)] };
    };
    tc.close = async () => {
      closed = true;
      for (const g of heldGrants.splice(0)) tc.deliver("E", g); // the grant lands as the transport closes
    };

    const d = { ...desc(1, 64), checksum: { algorithm: 1, value: crc32cBytes(bytes) } };
    expect(store.put(d, bytes).ok).toBe(true);
    store.markReady(kid(1));
    const request = { requestId: "r1", items: [{ itemId: "img0", announcement: producer.announce(kid(1)), hasModelInput: false }] };
    consumer.admit(request, clock.now());
    for (let i = 0; i < 20 && heldGrants.length === 0; i++) {
      dc.step();
      await flush();
      dp.step();
      await flush();
      clock.advance(1);
    }
    expect(heldGrants.length).toBe(1);
    await dc.close();
    expect(consumer.stats()).toMatchObject({ readsInFlight: 0 });
  });
});
describe("run()'s waits", () => {
  it("[I1] a core deadline that is not a number (NaN) does not turn run() into a spin: it sleeps up to maxWaitMs", async () => {
    const t = new FakeNet().endpoint("me");
    const core = new RecordingCore();
    core.deadline = Number.NaN;
    const driver = new Driver({ transport: t, consumer: core as unknown as ConsumerCore, maxWaitMs: 50 });
    const done = driver.run();
    await new Promise((r) => setTimeout(r, 120));
    driver.stop();
    await done;
    expect(core.polls).toBeLessThan(20); // ~3 steps at one per 50 ms; a spin takes thousands
  });
});

describe("a core that throws in poll or nextDeadline, driven step by step (found by a review, 2026-12-05)", () => {
  /** A Driver over a consumer and a producer whose `method` throws; what it logs at error level. */
  function withBrokenProducer(method: "poll" | "nextDeadline") {
    const t = new FakeNet().endpoint("me");
    const producer = new RecordingCore();
    producer[method] = () => {
      throw new Error(`producer.${method} bug`);
    };
    const consumer = new RecordingCore();
    const errors: unknown[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (_m: string, f?: unknown) => errors.push(f) };
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, producer: producer as unknown as ProducerCore, logger });
    return { t, consumer, driver, errors };
  }

  it("[I1] a core's poll that throws loses that core's outputs of the step alone: step() does not throw, the other core's outputs go out, and it is logged", () => {
    const { t, consumer, driver, errors } = withBrokenProducer("poll");
    consumer.outputs = [heartbeatTo("q")];
    expect(() => driver.step()).not.toThrow();
    expect(t.sentTo.map((m) => m.peerId)).toEqual(["q"]);
    expect(errors).toEqual([{ core: "producer", error: "Error: producer.poll bug" }]);
  });

  it("[I1] a core's nextDeadline that throws is no deadline: driver.nextDeadline() does not throw, the other core's deadline stands, and it is logged", () => {
    const { consumer, driver, errors } = withBrokenProducer("nextDeadline");
    consumer.deadline = 250;
    expect(driver.nextDeadline()).toBe(250);
    expect(errors).toEqual([{ error: "Error: producer.nextDeadline bug" }]);
  });
});

describe("run() survives what it survives in a step", () => {
  it("[I1] run() keeps looping after a core's nextDeadline threw once (as it does after a core's poll threw), until stop()", async () => {
    const t = new FakeNet().endpoint("me");
    const core = new RecordingCore();
    let deadlines = 0;
    core.nextDeadline = () => {
      if (++deadlines === 1) throw new Error("core bug");
      return undefined;
    };
    const driver = new Driver({ transport: t, consumer: core as unknown as ConsumerCore, maxWaitMs: 2 });
    const done = driver.run();
    done.catch(() => {});
    // Steps go on after the throw (a loop that died there would stop at 1 or 2; waited for, not timed).
    await waitUntil(() => core.polls >= 3);
    const running = driver.isRunning;
    driver.stop();
    await expect(done).resolves.toBeUndefined();
    expect(running).toBe(true);
    expect(core.polls).toBeGreaterThanOrEqual(3);
  });
});

describe("Driver.isRunning", () => {
  it("is true until the loop has ended after stop() (JSDoc: 'True between run() and the end of the loop after stop()')", async () => {
    const t = new FakeNet().endpoint("me");
    const core = new RecordingCore();
    const driver = new Driver({ transport: t, consumer: core as unknown as ConsumerCore, maxWaitMs: 1_000 });
    const done = driver.run();
    await flush();
    let ended = false;
    done.then(() => (ended = true));
    driver.stop();
    const states: [boolean, boolean][] = [[driver.isRunning, ended]];
    await done;
    // While the loop has not ended, isRunning should still read true.
    expect(states[0]).toEqual([true, false]);
  });
});

describe("a connection the transport reported unreachable", () => {
  it("[P8] after the transport reports a peer unreachable (NIXL drops its metadata), a core's connect-peer for the same epoch reaches transport.connectPeer though the other core still holds the connection", async () => {
    const { t, consumer, producer, driver } = routingRig();
    if (!consumer || !producer) throw new Error("rig");
    consumer.outputs = [connectTo("p", 1)];
    producer.outputs = [connectTo("p", 1)]; // e.g. loadBeforeRefusal: a connection the producer keeps without a peer record
    driver.step();
    await flush();
    expect(t.connects).toEqual([{ peerId: "p", epoch: 1 }]);
    // NIXL REMOTE_DISCONNECT: markUnreachable(p, gone) drops the peer's metadata ("a later connectPeer reloads it").
    t.unreachableFrom("p");
    consumer.outputs = [{ type: "disconnect-peer", peerId: "p" }]; // the consumer's peerGone
    driver.step();
    expect(consumer.calls).toContain("unreachable:p");
    // The peer answers again at the same epoch (a network blip, no restart): the consumer connects again.
    consumer.outputs = [connectTo("p", 1), startRead(1, "p")];
    driver.step();
    await flush();
    expect(t.connects).toEqual([
      { peerId: "p", epoch: 1 },
      { peerId: "p", epoch: 1 },
    ]);
  });
  it("[P8] an older epoch's connect-peer (a core acting on a stale announcement) does not replace the newer connection after an unreachable report", async () => {
    const { t, consumer, producer, driver } = routingRig();
    if (!consumer || !producer) throw new Error("rig");
    consumer.outputs = [connectTo("p", 2)];
    driver.step();
    await flush();
    expect(t.connects).toEqual([{ peerId: "p", epoch: 2 }]);
    t.unreachableFrom("p");
    driver.step();
    // The producer core still acts on epoch 1's announcement.
    producer.outputs = [connectTo("p", 1)];
    driver.step();
    await flush();
    // SPEC/driver: "An older epoch's metadata never replaces a newer connection".
    expect(t.connects).toEqual([{ peerId: "p", epoch: 2 }]);
  });
  it("[P8] a superseded connect answering late after an unreachable report leaves the peer's transport connection alone while a core still holds it", async () => {
    const { t, consumer, producer, driver } = routingRig();
    if (!consumer || !producer) throw new Error("rig");
    const older = deferred();
    const answers = [older.promise];
    t.connectPeer = (peerId, epoch) => {
      t.connects.push({ peerId, epoch });
      return answers.shift() ?? Promise.resolve();
    };
    consumer.outputs = [connectTo("p", 1)];
    driver.step(); // epoch 1's load is slow
    consumer.outputs = [connectTo("p", 2)];
    driver.step();
    await flush(); // epoch 2 is up
    t.unreachableFrom("p"); // a blip the transport reported; the cores keep holding p
    driver.step();
    older.resolve(); // epoch 1's superseded load completes now
    await flush();
    expect(t.disconnects).toEqual([]);
  });
});

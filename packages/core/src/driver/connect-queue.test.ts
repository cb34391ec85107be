// What the driver queues behind a pending connect-peer, and who owns a connection: every read
// gets exactly one result, nothing queued is lost to a newer epoch's connect, a late answer of a
// superseded connect leaves the newer connection alone, and a grant never leaves with a lease
// that ran out while it waited. Each test was written against a change of driver.ts that every
// other test let through.
import { SPEC_VERSION, decodeEnvelope, type ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { ConsumerCore } from "../consumer/consumer.js";
import { type Logger, NOOP_LOGGER } from "../observability.js";
import type { CoreOutput } from "../outputs.js";
import type { ProducerCore } from "../producer/producer.js";
import { type Clock, Driver } from "./driver.js";
import { FakeNet, RecordingCore, connectTo, deferred, flush, heartbeatTo, manualClock, pendingConnect, routingRig, startRead } from "./test-support.js";

/** A consumer-only driver over a fresh transport `me` (peer `p` exists), on a manual clock. */
function consumerRig(options: { maxQueuedPerPeer?: number; connectTimeoutMs?: number } = {}) {
  const net = new FakeNet();
  const t = net.endpoint("me");
  net.endpoint("p");
  const consumer = new RecordingCore();
  const clock = manualClock();
  const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock, ...options });
  return { t, consumer, driver, clock };
}

/** Make `t.connectPeer` answer its first two calls with promises the test settles: `older`, then `newer`. */
function answerConnectsLater(t: ReturnType<typeof consumerRig>["t"]) {
  const older = deferred();
  const newer = deferred();
  const answers = [older, newer];
  t.connectPeer = (peerId, epoch) => {
    t.connects.push({ peerId, epoch });
    return (answers.shift() ?? deferred()).promise;
  };
  return { older, newer };
}

describe("Driver: the queue behind a pending connect", () => {
  it("exactly maxQueuedPerPeer queued items do not fail the connect; all of them go out once it resolves", async () => {
    const { t, consumer, driver } = consumerRig({ maxQueuedPerPeer: 2 });
    const d = deferred();
    t.connectResult = d.promise;
    consumer.outputs = [connectTo(), startRead(1), startRead(2)];
    driver.step();
    driver.step();
    expect(consumer.calls).toEqual([]);
    expect(t.disconnects).toEqual([]);
    d.resolve();
    await flush();
    expect(t.started.map((r) => r.readId)).toEqual([1, 2]);
  });

  it("[C7][I5] a read started from the queue is cancelled through the transport, and gets one result", async () => {
    const { t, consumer, driver } = consumerRig();
    const d = deferred();
    t.connectResult = d.promise;
    consumer.outputs = [connectTo(), startRead(1)];
    driver.step();
    d.resolve();
    await flush();
    expect(t.started.map((r) => r.readId)).toEqual([1]);
    // No longer queued: a made-up "cancelled" would free memory the transport may still write into.
    consumer.outputs = [{ type: "cancel-read", readId: 1 }];
    driver.step();
    driver.step();
    expect(t.cancelled).toEqual([1]);
    expect(consumer.calls.filter((c) => c.startsWith("read:1:"))).toHaveLength(1);
  });

  it("[I2] disconnect-peer while its connect is pending fails the queued reads (peer gone); none starts", () => {
    const { t, consumer, driver } = consumerRig();
    t.connectResult = new Promise<void>(() => {});
    consumer.outputs = [connectTo(), startRead(7), { type: "disconnect-peer", peerId: "p" }];
    driver.step();
    driver.step();
    expect(consumer.calls).toEqual(["read:7:failed:gone"]);
    expect(t.started).toEqual([]);
  });

  it("a read failed with its connect is no longer queued: a later cancel goes to the transport, with no second result", () => {
    const { t, consumer, driver } = consumerRig({ maxQueuedPerPeer: 1 });
    t.connectResult = new Promise<void>(() => {});
    consumer.outputs = [connectTo(), startRead(1), startRead(2)]; // one past the limit: the connect fails
    driver.step();
    consumer.outputs = [{ type: "cancel-read", readId: 1 }];
    driver.step();
    driver.step();
    expect(consumer.calls.filter((c) => c.startsWith("read:1:"))).toEqual(["read:1:failed:gone"]);
    expect(t.cancelled).toEqual([1]);
  });

  it("[P8] a connect for a newer epoch while the older one is pending keeps what was queued for the peer", async () => {
    const { t, consumer, driver } = consumerRig();
    const d = deferred();
    t.connectResult = d.promise;
    consumer.outputs = [connectTo("p", 1), heartbeatTo("p"), startRead(1)];
    driver.step();
    consumer.outputs = [connectTo("p", 2)];
    driver.step();
    d.resolve();
    await flush();
    expect(t.sentTo.map((m) => m.peerId)).toEqual(["p"]);
    expect(t.started.map((r) => r.readId)).toEqual([1]);
  });

  it("[P8] a superseded connect answering late, resolved or rejected, leaves the newer connection and its reads alone", async () => {
    for (const how of ["resolve", "reject"] as const) {
      const { t, consumer, driver } = consumerRig();
      const { older, newer } = answerConnectsLater(t);
      consumer.outputs = [connectTo("p", 1)];
      driver.step();
      consumer.outputs = [connectTo("p", 2), startRead(5)];
      driver.step();
      newer.resolve();
      await flush();
      if (how === "resolve") older.resolve();
      else older.reject(new Error("late"));
      await flush();
      driver.step();
      expect(t.disconnects, how).toEqual([]);
      // The fake transport's one result (its source is unknown): no "unreachable:p", no second "failed:gone".
      expect(consumer.calls, how).toEqual(["read:5:failed"]);
      expect(t.started.map((r) => r.readId), how).toEqual([5]);
    }
  });

  it("[P8] a timed-out connect answering late leaves a new connect of the same epoch and its queued read alone", async () => {
    const { t, consumer, driver, clock } = consumerRig({ connectTimeoutMs: 100 });
    const { older, newer } = answerConnectsLater(t);
    consumer.outputs = [connectTo("p", 1)];
    driver.step();
    clock.advance(100);
    driver.step(); // timed out: the core hears the peer is unreachable and asks again, for the same epoch
    consumer.outputs = [connectTo("p", 1), startRead(5)];
    driver.step();
    older.resolve(); // the first load completes after all
    await flush();
    driver.step();
    expect(t.started).toEqual([]); // still queued behind the second connect
    newer.resolve();
    await flush();
    driver.step();
    expect(t.started.map((r) => r.readId)).toEqual([5]);
    expect(consumer.calls).toEqual(["unreachable:p", "read:5:failed"]); // the fake transport's one result (unknown source)
  });

  it("[P8] the older connect resolving while a newer epoch's is pending sends and starts nothing: the queue waits for the newer one", async () => {
    const { t, consumer, driver } = consumerRig();
    const { older, newer } = answerConnectsLater(t);
    consumer.outputs = [connectTo("p", 1), heartbeatTo("p")];
    driver.step();
    consumer.outputs = [connectTo("p", 2), startRead(5)];
    driver.step();
    older.resolve(); // epoch 1's metadata loaded; epoch 2's is not yet
    await flush();
    driver.step();
    expect(t.sentTo).toEqual([]);
    expect(t.started).toEqual([]);
    newer.resolve();
    await flush();
    expect(t.sentTo.map((m) => m.peerId)).toEqual(["p"]);
    expect(t.started.map((r) => r.readId)).toEqual([5]);
    // Connected at epoch 2: a connect-peer for epoch 2 again starts nothing.
    consumer.outputs = [connectTo("p", 2)];
    driver.step();
    expect(t.connects).toEqual([
      { peerId: "p", epoch: 1 },
      { peerId: "p", epoch: 2 },
    ]);
  });

  it("[I1] a connectPeer that throws at once counts as a failed connect: the core hears the peer is unreachable", async () => {
    const { t, consumer, driver } = consumerRig();
    t.connectPeer = () => {
      throw new Error("boom");
    };
    consumer.outputs = [connectTo("p"), startRead(3)];
    expect(() => driver.step()).not.toThrow();
    await flush();
    driver.step();
    expect(consumer.calls).toEqual(["read:3:failed:gone", "unreachable:p"]);
    expect(t.started).toEqual([]);
  });

  it("[P3][C11] a queued grant with less than 1 ms of lease left is not sent; the lease left is rounded down", async () => {
    const cases: { leaseMs: number; waitedMs: number; sent: number[] }[] = [
      { leaseMs: 5_000, waitedMs: 5_000, sent: [] },
      { leaseMs: 5_000, waitedMs: 4_999.5, sent: [] }, // lease_ms 0 would read as 30 000
      { leaseMs: 30_000, waitedMs: 100.5, sent: [29_899] },
    ];
    for (const { leaseMs, waitedMs, sent } of cases) {
      const clock = manualClock();
      expect(await leasesSentAfterConnect(clock, leaseMs, () => clock.advance(waitedMs)), `lease ${leaseMs} after ${waitedMs} ms`).toEqual(sent);
    }
  });

  // Mutant: flushGrant reads the raw clock (a reading 10 s back gave a 40 s lease for a 30 s pin;
  // a NaN one threw out of the connect's callback, an unhandled rejection that ended Node).
  it("[I1][P3] a queued grant leaves with at most its lease whatever the clock reads when the connect resolves", async () => {
    for (const reading of [-10_000, Number.NaN, "throws"] as const) {
      let now = 1_000;
      const clock = {
        now: () => {
          if (now === -1) throw new Error("clock broke");
          return now;
        },
      };
      const moveClock = () => {
        now = reading === "throws" ? -1 : now + reading;
      };
      expect(await leasesSentAfterConnect(clock, 30_000, moveClock), `clock reading ${String(reading)}`).toEqual([30_000]);
    }
  });

  it("[I1] a queued grant that no longer encodes when its connect resolves (its envelope changed meanwhile) is dropped and logged; what was queued behind it is sent", async () => {
    const errors: string[] = [];
    const logger = { ...NOOP_LOGGER, error: (message: string) => errors.push(message) };
    const readGrant = { attemptId: 1, grantId: 1, leaseMs: 30_000 };
    const sent = await sentAfterConnect({ clock: manualClock(), readGrant, behind: [heartbeatTo("c")], logger }, () => {
      readGrant.grantId = -1; // no longer a uint64
    });
    expect(errors).toEqual(["a queued grant does not encode; dropped"]);
    expect(sent.map((e) => e !== undefined && e.heartbeat !== undefined && e.heartbeat !== null)).toEqual([true]);
  });
});

/**
 * What a producer's driver sends (decoded; undefined for what does not decode) for one grant
 * queued behind a pending connect to "c", then `behind`; `meanwhile` runs (e.g. moving the clock
 * or changing the grant) before the connect resolves.
 */
async function sentAfterConnect(
  rig: { clock: Clock; readGrant: ectp.v1.IReadGrant; behind?: CoreOutput[]; logger?: Logger },
  meanwhile: () => void,
): Promise<(ectp.v1.IEnvelope | undefined)[]> {
  const { t, d } = pendingConnect("c");
  const producer = new RecordingCore();
  const driver = new Driver({ transport: t, producer: producer as unknown as ProducerCore, clock: rig.clock, logger: rig.logger });
  const grant: CoreOutput = { type: "send", peerId: "c", envelope: { version: SPEC_VERSION, senderId: "me", senderEpoch: 1, readGrant: rig.readGrant } };
  producer.outputs = [connectTo("c"), grant, ...(rig.behind ?? [])];
  driver.step();
  meanwhile();
  d.resolve();
  await flush();
  return t.sentTo.map((m) => {
    const e = decodeEnvelope(m.bytes);
    return e.ok ? e.value : undefined;
  });
}

/** The `lease_ms` of each grant {@link sentAfterConnect} sends for a grant of `leaseMs`; -1 for what does not decode. */
async function leasesSentAfterConnect(clock: Clock, leaseMs: number, meanwhile: () => void): Promise<number[]> {
  const sent = await sentAfterConnect({ clock, readGrant: { attemptId: 1, grantId: 1, leaseMs } }, meanwhile);
  return sent.map((e) => (e === undefined ? -1 : Number(e.readGrant?.leaseMs)));
}

describe("Driver: one connection shared by both cores", () => {
  // Mutant: a core asking for another epoch than the connection's does not hold it (a peer running
  // both roles announced epoch 1 to our consumer and 3 to our producer: the producer's disconnect of
  // that idle consumer cut our consumer's read from that healthy producer, PEER_UNREACHABLE).
  it("[P8] a connection is held by every core that asked for its peer, whatever epoch each asked for", async () => {
    for (const order of [["consumer", 1, "producer", 3], ["producer", 3, "consumer", 1], ["consumer", 3, "producer", 1]] as const) {
      const { net, t, consumer, producer, driver } = routingRig();
      net.endpoint("x");
      const core = (role: string) => (role === "consumer" ? consumer : producer) as RecordingCore;
      core(order[0]).outputs = [connectTo("x", order[1])];
      driver.step();
      await flush();
      core(order[2]).outputs = [connectTo("x", order[3])];
      driver.step();
      await flush();
      core(order[0]).outputs = [{ type: "disconnect-peer", peerId: "x" }];
      driver.step();
      expect(t.disconnects, `${order.join(" ")}: one holder left`).toEqual([]);
      core(order[2]).outputs = [{ type: "disconnect-peer", peerId: "x" }];
      driver.step();
      expect(t.disconnects, `${order.join(" ")}: none left`).toEqual(["x"]);
    }
  });

  it("[P8] both cores asking for a new epoch of a connected peer start one connect", async () => {
    const { net, t, consumer, producer, driver } = routingRig();
    net.endpoint("x");
    (consumer as RecordingCore).outputs = [connectTo("x", 1)];
    driver.step();
    await flush();
    t.connectResult = new Promise<void>(() => {});
    (producer as RecordingCore).outputs = [connectTo("x", 2)];
    (consumer as RecordingCore).outputs = [connectTo("x", 2)];
    driver.step();
    expect(t.connects).toEqual([
      { peerId: "x", epoch: 1 },
      { peerId: "x", epoch: 2 },
    ]);
  });
});

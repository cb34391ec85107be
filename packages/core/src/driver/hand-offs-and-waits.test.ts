// [I1] What the driver hands on and how long it sleeps, found by a review: an async onEventBatch's
// rejection, a step() called from inside a step, one core's throw on a message for both cores, a
// queued grant that throws in the connect's callback, a deadline that is not a number, a wait
// longer than a Node timer takes, a wake() or stop() made while the transport's wait runs. Each test
// failed before its fix.
import { SPEC_VERSION } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { ConsumerCore } from "../consumer/consumer.js";
import type { CoreOutput } from "../outputs.js";
import type { ProducerCore } from "../producer/producer.js";
import { FP } from "../producer/test-helpers.js";
import { Driver } from "./driver.js";
import { FakeNet, RecordingCore, connectTo, flush, manualClock, pendingConnect, routingRig, startRead, waitUntil, wire } from "./test-support.js";

const recorder = (logged: string[]) => ({ debug() {}, info() {}, warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) });

/** The longest delay a Node timer takes as given. */
const MAX_TIMER_MS = 2 ** 31 - 1;

describe("Driver: hand-offs that must not escape or be lost [I1]", () => {
  it("[I1] an async onEventBatch that rejects is logged as a throw is, never left an unhandled rejection", async () => {
    const t = new FakeNet().endpoint("me");
    const core = new RecordingCore();
    core.outputs = [{ type: "event-batch", batch: { sequence: 1 } }];
    const logged: string[] = [];
    const onEventBatch = async (): Promise<void> => {
      throw new Error("router down");
    };
    const driver = new Driver({ transport: t, producer: core as unknown as ProducerCore, clock: manualClock(), logger: recorder(logged), onEventBatch });
    driver.step();
    await flush();
    expect(logged).toEqual(["onEventBatch rejected"]);
  });

  it("[I1] step() called from a core's hook inside a step does nothing: what arrived meanwhile reaches the core in the next step, not a refusal (REENTRANT_CALL)", () => {
    const t = new FakeNet().endpoint("me");
    let driver: Driver | undefined;
    let hooked = 0;
    const garbage = new Uint8Array([0xff, 0xff, 0xff]);
    // e.g. an engine that flushes the driver from a metric: a second message arrives meanwhile.
    const counter = () => {
      if (hooked++ > 0) return;
      t.inject("y", garbage);
      driver?.step();
    };
    const consumer = new ConsumerCore({
      id: "me",
      epoch: 1,
      fingerprint: FP,
      metrics: { counter, gauge() {}, histogram() {} },
      destinations: { allocate: () => undefined, release() {}, view: () => undefined },
      transportMetadata: t.localMetadata(),
    });
    const logged: string[] = [];
    driver = new Driver({ transport: t, consumer, clock: manualClock(), logger: recorder(logged) });
    t.inject("x", garbage); // ignored and counted [C10]: the counter hook runs inside handleMessage
    driver.step();
    driver.step();
    expect(consumer.stats().ignoredMessages).toBe(2);
    expect(logged).toEqual([]);
  });

  it("[I1] a message for both cores (a heartbeat, a ROLE_BOTH hello) still reaches the producer when the consumer's handleEnvelope throws", () => {
    const { t, consumer, producer, driver } = routingRig();
    if (!consumer || !producer) throw new Error("rig");
    consumer.handleEnvelope = () => {
      throw new Error("core bug");
    };
    t.inject("p", wire("p", { heartbeat: { sequence: 1 } }));
    t.inject("p", wire("p", { hello: { role: 3 } }));
    driver.step();
    expect(producer.calls).toEqual(["env:p:heartbeat", "env:p:hello"]);
  });

  it("[I1][I5] a queued grant whose envelope lost its body before its connect resolved is dropped and logged; the read queued behind it starts", async () => {
    const { t, d } = pendingConnect("c");
    const core = new RecordingCore();
    const logged: string[] = [];
    const driver = new Driver({ transport: t, producer: core as unknown as ProducerCore, clock: manualClock(), logger: recorder(logged) });
    const envelope: { readGrant?: unknown } & Record<string, unknown> = { version: SPEC_VERSION, senderId: "me", senderEpoch: 1, readGrant: { attemptId: 1, grantId: 1, leaseMs: 30_000 } };
    core.outputs = [connectTo("c"), { type: "send", peerId: "c", envelope } as CoreOutput, startRead(5, "c")];
    driver.step();
    envelope.readGrant = null; // (a core that reuses its envelopes)
    d.resolve();
    await flush();
    expect(logged).toEqual(["a queued grant does not encode; dropped"]);
    expect(t.started.map((r) => r.readId)).toEqual([5]);
  });
});

describe("Driver: run()'s waits [I1]", () => {
  /** The waits run() asks of `t` until its first one, which stops it. */
  async function firstWaits(driver: Driver, t: ReturnType<FakeNet["endpoint"]>): Promise<number[]> {
    const waits: number[] = [];
    t.waitForActivity = (ms: number) => {
      waits.push(ms);
      driver.stop();
      return Promise.resolve();
    };
    await driver.run();
    return waits;
  }

  it("[I1] a core deadline that is not a number (null) is no deadline: nextDeadline() is undefined and run() waits maxWaitMs", async () => {
    const t = new FakeNet().endpoint("me");
    const core = new RecordingCore();
    core.deadline = null as unknown as number;
    const driver = new Driver({ transport: t, producer: core as unknown as ProducerCore, clock: manualClock(100), maxWaitMs: 25 });
    expect(driver.nextDeadline()).toBeUndefined();
    expect(await firstWaits(driver, t)).toEqual([25]);
  });

  it("[I1] run() never asks the transport to wait longer than a Node timer takes (2^31 - 1 ms), whatever maxWaitMs and the next deadline", async () => {
    for (const deadline of [undefined, 2 ** 45]) {
      const t = new FakeNet().endpoint("me");
      const core = new RecordingCore();
      core.deadline = deadline;
      const driver = new Driver({ transport: t, producer: core as unknown as ProducerCore, clock: manualClock(), maxWaitMs: 2 ** 40 });
      expect(await firstWaits(driver, t), `deadline ${deadline}`).toEqual([MAX_TIMER_MS]);
    }
  });

  it("[I1] a wake() or stop() made while transport.waitForActivity runs (engine code it calls, e.g. a mock network's observer) ends that wait", async () => {
    for (const call of ["wake", "stop"] as const) {
      const t = new FakeNet().endpoint("me");
      const core = new RecordingCore();
      const driver = new Driver({ transport: t, producer: core as unknown as ProducerCore, clock: manualClock(), maxWaitMs: 3_600_000 });
      let waits = 0;
      // A wait that ends only when run() abandons it: an hour otherwise.
      t.waitForActivity = (_ms: number, signal?: AbortSignal) => {
        if (++waits === 1) driver[call]();
        return new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve()));
      };
      const loop = driver.run();
      await waitUntil(() => (call === "wake" ? core.polls >= 2 : !driver.isRunning));
      const seen = { call, polls: core.polls, running: driver.isRunning };
      driver.stop();
      await loop;
      // wake: the loop stepped again at once (and waits again); stop: the loop ended after its one step.
      expect(seen).toEqual({ call, polls: call === "wake" ? 2 : 1, running: call === "wake" });
    }
  });
});

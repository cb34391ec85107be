// [I1] What the driver calls on the engine's behalf (the transport, the event-batch hook) and an
// envelope a core produced that does not encode: a throw is logged and contained, the step goes
// on with the outputs after it, and run() keeps looping past a step that threw.
import { SPEC_VERSION } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { ConsumerCore } from "../consumer/consumer.js";
import type { CoreOutput } from "../outputs.js";
import type { ProducerCore } from "../producer/producer.js";
import { Driver } from "./driver.js";
import { type FakeTransport, FakeNet, RecordingCore, heartbeatTo, manualClock, waitUntil, wire } from "./test-support.js";

/** What `boom` throws: an Error, or (set per test) a value that cannot be turned into a string. */
let thrown: () => unknown = () => new Error("boom");
const boom = (): never => {
  throw thrown();
};

/** A producer-only driver over transport `me` (peer `q` exists) whose core outputs `outputs` once; `patch` breaks the transport. */
function rig(patch: (t: FakeTransport) => void, outputs: CoreOutput[], onEventBatch?: () => void) {
  const net = new FakeNet();
  const t = net.endpoint("me");
  net.endpoint("q");
  patch(t);
  const logged: string[] = [];
  const core = new RecordingCore();
  core.outputs = outputs;
  const logger = { debug() {}, info() {}, warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) };
  const driver = new Driver({ transport: t, producer: core as unknown as ProducerCore, clock: manualClock(), onEventBatch, logger });
  return { t, driver, logged };
}

describe("Driver: failures around a step are contained [I1]", () => {
  const cases: [string, (t: FakeTransport) => void, CoreOutput, string, (() => void)?][] = [
    ["transport.cancelRead", (t) => (t.cancelRead = boom), { type: "cancel-read", readId: 9 }, "transport.cancelRead threw"],
    ["transport.disconnectPeer", (t) => (t.disconnectPeer = boom), { type: "disconnect-peer", peerId: "p" }, "transport.disconnectPeer threw"],
    ["the onEventBatch hook", () => {}, { type: "event-batch", batch: { sequence: 1 } }, "onEventBatch threw", boom],
    [
      "transport.send",
      (t) => {
        const send = t.send.bind(t);
        t.send = (peerId, bytes) => (peerId === "a" ? boom() : send(peerId, bytes));
      },
      heartbeatTo("a"),
      "transport.send threw; message dropped",
    ],
    [
      "an envelope that does not encode (two bodies)",
      () => {},
      { type: "send", peerId: "q", envelope: { version: SPEC_VERSION, senderId: "me", senderEpoch: 1, heartbeat: {}, hello: {} } },
      "a core produced an envelope that does not encode; dropped",
    ],
  ];
  it.each(cases)("%s throwing is logged; the outputs after it still go out", (_what, patch, output, message, onEventBatch) => {
    const { t, driver, logged } = rig(patch, [output, heartbeatTo("q")], onEventBatch);
    expect(() => driver.step()).not.toThrow();
    expect(t.sentTo.map((m) => m.peerId)).toEqual(["q"]);
    expect(logged).toContain(message);
  });

  it.each(cases)("%s throwing a value that cannot be turned into a string is logged all the same", (_what, patch, output, message, onEventBatch) => {
    thrown = () => Object.create(null);
    try {
      const { t, driver, logged } = rig(patch, [output, heartbeatTo("q")], onEventBatch);
      expect(() => driver.step()).not.toThrow();
      expect(t.sentTo.map((m) => m.peerId)).toEqual(["q"]);
      expect(logged).toContain(message);
    } finally {
      thrown = () => new Error("boom");
    }
  });

  it("transport.poll throwing is logged and counts as nothing received; the cores' outputs still go out", () => {
    const { t, driver, logged } = rig((t) => (t.poll = boom), [heartbeatTo("q")]);
    expect(() => driver.step()).not.toThrow();
    expect(t.sentTo.map((m) => m.peerId)).toEqual(["q"]);
    expect(logged).toEqual(["transport.poll threw; nothing received this step"]);
  });

  it("run() keeps looping after a step that threw (a core's poll), until stop()", async () => {
    const t = new FakeNet().endpoint("me");
    const core = new RecordingCore();
    let polls = 0;
    core.poll = () => {
      if (++polls === 1) throw new Error("core bug");
      return [];
    };
    const driver = new Driver({ transport: t, producer: core as unknown as ProducerCore, maxWaitMs: 2 });
    const done = driver.run();
    await waitUntil(() => polls >= 3);
    expect(polls).toBeGreaterThanOrEqual(3);
    expect(driver.isRunning).toBe(true);
    driver.stop();
    await expect(done).resolves.toBeUndefined();
  });
});

const quiet = (logged: string[]) => ({ debug() {}, info() {}, warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) });

describe("Driver: a core call that throws, in a step or while closing [I1]", () => {
  it("close() still closes the transport (and ends) when the step it takes first throws, as run() survives such a step", async () => {
    const net = new FakeNet();
    const t = net.endpoint("me");
    let closed = 0;
    t.close = async () => {
      closed++;
    };
    const core = new RecordingCore();
    let polls = 0;
    core.poll = () => {
      if (++polls === 1) throw new Error("core bug");
      return [];
    };
    const logged: string[] = [];
    const driver = new Driver({ transport: t, producer: core as unknown as ProducerCore, clock: manualClock(), logger: quiet(logged) });
    await driver.close().catch(() => {});
    expect(closed).toBe(1);
  });

  it("a step in which one core call throws still hands the cores the rest of what the transport gave (a read result is never lost)", () => {
    const net = new FakeNet();
    const t = net.endpoint("me");
    const core = new RecordingCore();
    const handle = core.handleEnvelope.bind(core);
    let n = 0;
    core.handleEnvelope = (from, env) => {
      if (++n === 1) throw new Error("core bug");
      handle(from, env);
    };
    const logged: string[] = [];
    const driver = new Driver({ transport: t, consumer: core as unknown as ConsumerCore, clock: manualClock(), logger: quiet(logged) });
    t.inject("p", wire("p", { readGrant: { grantId: 1 } }));
    t.inject("p", wire("p", { readGrant: { grantId: 2 } }));
    (t as unknown as { reads: unknown[] }).reads.push({ readId: 5, status: "done", bytesRead: 1 });
    try {
      driver.step();
    } catch {}
    driver.step();
    expect(core.calls).toEqual(["read:5:done", "env:p:readGrant"]);
  });

  it.each(["reads", "messages"] as const)(
    "a transport entry in %s whose getters throw is lost alone, logged: the step does not throw and the read result after it reaches the consumer",
    (list) => {
      const net = new FakeNet();
      const t = net.endpoint("me");
      const core = new RecordingCore();
      const logged: string[] = [];
      const driver = new Driver({ transport: t, consumer: core as unknown as ConsumerCore, clock: manualClock(), logger: quiet(logged) });
      const hostile = new Proxy(
        {},
        {
          get() {
            throw new Error("trap");
          },
        },
      );
      const queues = t as unknown as { reads: unknown[]; inbox: unknown[] };
      (list === "reads" ? queues.reads : queues.inbox).push(hostile);
      queues.reads.push({ readId: 5, status: "done", bytesRead: 1 });
      expect(() => driver.step()).not.toThrow();
      expect(core.calls).toContain("read:5:done");
      expect(logged.some((m) => m.includes("that input is lost"))).toBe(true);
    },
  );

  it("a core whose handlePeerUnreachable throws does not keep the other core from hearing the peer is unreachable", () => {
    const net = new FakeNet();
    const t = net.endpoint("me");
    const consumer = new RecordingCore();
    consumer.handlePeerUnreachable = () => {
      throw new Error("core bug");
    };
    const producer = new RecordingCore();
    const logged: string[] = [];
    const driver = new Driver({
      transport: t,
      consumer: consumer as unknown as ConsumerCore,
      producer: producer as unknown as ProducerCore,
      clock: manualClock(),
      logger: quiet(logged),
    });
    t.unreachableFrom("p");
    driver.step();
    expect(producer.calls).toEqual(["unreachable:p"]);
    expect(logged.some((m) => m.includes("a core threw"))).toBe(true);
  });
});

describe("Driver.run over a transport whose wait is not a promise", () => {
  it("sleeps (as for a rejected wait) instead of stepping thousands of times while idle", async () => {
    const t = new FakeNet().endpoint("me");
    (t as unknown as { waitForActivity: () => undefined }).waitForActivity = () => undefined;
    const core = new RecordingCore();
    const driver = new Driver({ transport: t, producer: core as unknown as ProducerCore, maxWaitMs: 50 });
    const done = driver.run();
    await new Promise((r) => setTimeout(r, 200));
    driver.stop();
    await done;
    expect(core.polls).toBeLessThan(50);
  });
});

describe("Driver.close() called from engine code running inside a core call", () => {
  it("does not step the cores re-entrantly (REENTRANT_CALL) and still closes the transport", async () => {
    const { ConsumerCore } = await import("../consumer/consumer.js");
    const { FP } = await import("../producer/test-helpers.js");
    const t = new FakeNet().endpoint("me");
    let closed = 0;
    t.close = async () => {
      closed++;
    };
    const logged: string[] = [];
    let driver: Driver | undefined;
    let closing: Promise<void> | undefined;
    const metrics = {
      counter() {
        // e.g. an engine that shuts down when a metric crosses a threshold
        closing ??= driver?.close();
      },
      gauge() {
        closing ??= driver?.close();
      },
      histogram() {
        closing ??= driver?.close();
      },
    };
    const consumer = new ConsumerCore({
      id: "me",
      epoch: 1,
      fingerprint: FP,
      metrics,
      destinations: { allocate: () => undefined, release() {}, view: () => undefined },
      transportMetadata: t.localMetadata(),
    });
    driver = new Driver({ transport: t, consumer, clock: manualClock(), logger: quiet(logged) });
    consumer.admit({ requestId: "r1", items: [{ itemId: "i0", hasModelInput: true, announcement: { key: { contentHash: new Uint8Array([1]), fingerprint: { ...FP, model: "other" } }, producerId: "E", producerEpoch: 1, sizeBytes: 64 } as never }] }, 0);
    consumer.finishRequest("r1", 0);
    expect(closing).toBeDefined();
    let error: unknown;
    await closing?.catch((e) => (error = e));
    expect(closed).toBe(1);
    expect(error).toBeUndefined();
    expect(consumer.stats().hookFailures).toBe(0);
  });
});

describe("Driver.run() started from engine code running inside a core call", () => {
  it("does not take the transport's activity into a re-entrant step that loses it", async () => {
    const { ConsumerCore } = await import("../consumer/consumer.js");
    const { FP } = await import("../producer/test-helpers.js");
    const t = new FakeNet().endpoint("me");
    const logged: string[] = [];
    let driver: Driver | undefined;
    let loop: Promise<void> | undefined;
    const start = () => {
      loop ??= driver?.run(); // e.g. an engine that starts its loop lazily, on its first metric
    };
    const consumer = new ConsumerCore({
      id: "me",
      epoch: 1,
      fingerprint: FP,
      metrics: { counter: start, gauge: start, histogram: start },
      destinations: { allocate: () => undefined, release() {}, view: () => undefined },
      transportMetadata: t.localMetadata(),
    });
    driver = new Driver({ transport: t, consumer, clock: manualClock(), logger: quiet(logged), maxWaitMs: 5 });
    t.inject("x", new Uint8Array([0xff, 0xff, 0xff])); // garbage: ignored and counted [C10] once the consumer gets it
    consumer.admit({ requestId: "r1", items: [{ itemId: "i0", hasModelInput: true, announcement: { key: { contentHash: new Uint8Array([1]), fingerprint: { ...FP, model: "other" } }, producerId: "E", producerEpoch: 1, sizeBytes: 64 } as never }] }, 0);
    expect(loop).toBeDefined();
    await waitUntil(() => consumer.stats().ignoredMessages > 0);
    driver.stop();
    await loop;
    expect(consumer.stats().ignoredMessages).toBeGreaterThan(0);
    expect(logged).not.toContain("driver step failed; continuing");
  });
});

// [I1] What the driver calls on the engine's behalf (the transport, the event-batch hook) and an
// envelope a core produced that does not encode: a throw is logged and contained, the step goes
// on with the outputs after it, and run() keeps looping past a step that threw.
import { SPEC_VERSION } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { CoreOutput } from "../outputs.js";
import type { ProducerCore } from "../producer/producer.js";
import { Driver } from "./driver.js";
import { type FakeTransport, FakeNet, RecordingCore, heartbeatTo, manualClock, waitUntil } from "./test-support.js";

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

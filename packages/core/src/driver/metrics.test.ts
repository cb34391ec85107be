// The driver's metrics hook: what the driver itself loses is counted, not only logged (an operator
// alerting on metrics saw dropped sends, failed connects and reads failed before they started nowhere).
import { SPEC_VERSION } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { ConsumerCore } from "../consumer/consumer.js";
import type { Labels, MetricsSink } from "../observability.js";
import type { CoreOutput } from "../outputs.js";
import { Driver } from "./driver.js";
import { FakeNet, RecordingCore, connectTo, heartbeatTo, manualClock, startRead } from "./test-support.js";

/** Counter totals by `name{label=value}`. */
class Totals implements MetricsSink {
  readonly counts = new Map<string, number>();
  counter(name: string, value = 1, labels?: Labels): void {
    const key = labels === undefined ? name : `${name}{${Object.entries(labels).map(([k, v]) => `${k}=${v}`)}}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + value);
  }
  gauge(): void {}
  histogram(): void {}
}

/** A consumer-only driver over transport `me` (peers `p` and `q` exist) whose core outputs `outputs` once. */
function rig(outputs: CoreOutput[], metrics: MetricsSink = new Totals(), maxQueuedPerPeer?: number) {
  const net = new FakeNet();
  const t = net.endpoint("me");
  net.endpoint("p");
  net.endpoint("q");
  const core = new RecordingCore();
  core.outputs = outputs;
  const errors: [string, unknown][] = [];
  const logger = { debug() {}, info() {}, warn() {}, error: (m: string, f: unknown) => errors.push([m, f]) };
  const clock = manualClock();
  const driver = new Driver({ transport: t, consumer: core as unknown as ConsumerCore, clock, connectTimeoutMs: 100, logger, metrics, maxQueuedPerPeer });
  return { t, driver, core, clock, errors, metrics };
}

describe("Driver metrics", () => {
  it("a message the transport refused, and one that does not encode, are counted as dropped by cause", () => {
    const totals = new Totals();
    const { t, driver } = rig(
      [heartbeatTo("p"), { type: "send", peerId: "q", envelope: { version: SPEC_VERSION, senderId: "me", senderEpoch: 1, heartbeat: {}, hello: {} } }],
      totals,
    );
    t.send = () => {
      throw new Error("link down");
    };
    driver.step();
    expect(Object.fromEntries(totals.counts)).toEqual({
      "ectp_driver_sends_dropped_total{cause=send_threw}": 1,
      "ectp_driver_sends_dropped_total{cause=not_encodable}": 1,
    });
  });

  it("a read the transport refused to start is counted as failed (start_threw)", () => {
    const totals = new Totals();
    const { t, driver } = rig([startRead(1)], totals);
    t.startRead = () => {
      throw new Error("no such region");
    };
    driver.step();
    expect(Object.fromEntries(totals.counts)).toEqual({ "ectp_driver_reads_failed_total{cause=start_threw}": 1 });
  });

  it("a connect that times out is counted, with the messages and reads queued behind it (connect_failed)", () => {
    const totals = new Totals();
    const { t, driver, core, clock } = rig([connectTo("p", 7), heartbeatTo("p"), heartbeatTo("p"), startRead(3)], totals);
    t.connectResult = new Promise<void>(() => {});
    driver.step();
    clock.advance(100);
    core.outputs = [];
    driver.step();
    expect(Object.fromEntries(totals.counts)).toEqual({
      ectp_driver_connect_failures_total: 1,
      "ectp_driver_sends_dropped_total{cause=connect_failed}": 2,
      "ectp_driver_reads_failed_total{cause=connect_failed}": 1,
    });
  });

  it("a read a core starts toward a peer whose connect failed earlier in the same step is counted as failed (connect_failed), as a send is", () => {
    const totals = new Totals();
    // The second read overflows the queue (one item at most): the connect fails, then read 3 and a heartbeat follow in that step.
    const { t, driver, core } = rig([connectTo("p"), startRead(1), startRead(2), startRead(3), heartbeatTo("p")], totals, 1);
    t.connectResult = new Promise<void>(() => {});
    driver.step();
    driver.step();
    expect(core.calls.filter((c) => c.startsWith("read:"))).toEqual(["read:1:failed:gone", "read:2:failed:gone", "read:3:failed:gone"]);
    expect(totals.counts.get("ectp_driver_reads_failed_total{cause=connect_failed}")).toBe(3);
    expect(totals.counts.get("ectp_driver_sends_dropped_total{cause=connect_failed}")).toBe(1);
  });

  it("what a core's own disconnect, or close(), gives up behind a pending connect is counted as disconnected, or closed, not as a failed connect", async () => {
    const totals = new Totals();
    const { t, driver, core } = rig([connectTo("p", 7), heartbeatTo("p"), startRead(3), { type: "disconnect-peer", peerId: "p" }], totals);
    t.connectResult = new Promise<void>(() => {});
    driver.step();
    core.outputs = [connectTo("q", 1), heartbeatTo("q"), startRead(4, "q")];
    driver.step();
    await driver.close();
    // (Before, all four were counted connect_failed, with no connect failure to explain them.)
    expect(Object.fromEntries(totals.counts)).toEqual({
      "ectp_driver_sends_dropped_total{cause=disconnected}": 1,
      "ectp_driver_reads_failed_total{cause=disconnected}": 1,
      "ectp_driver_sends_dropped_total{cause=closed}": 1,
      "ectp_driver_reads_failed_total{cause=closed}": 1,
    });
  });

  it("[I1] a metrics hook that throws is contained: the step goes on, and its first failure is logged once", () => {
    const throwing: MetricsSink = {
      counter() {
        throw new Error("exporter refused the label set");
      },
      gauge() {},
      histogram() {},
    };
    const { t, driver, errors } = rig([heartbeatTo("p"), heartbeatTo("p"), heartbeatTo("q")], throwing);
    const send = t.send.bind(t);
    t.send = (peerId, bytes) => {
      if (peerId === "p") throw new Error("link down");
      send(peerId, bytes);
    };
    expect(() => driver.step()).not.toThrow();
    expect(t.sentTo.map((m) => m.peerId)).toEqual(["q"]);
    const hookErrors = errors.filter(([m]) => m.startsWith("the driver's metrics hook threw"));
    expect(hookErrors).toEqual([
      [
        "the driver's metrics hook threw: its samples are lost while it does (logged once)",
        { metric: "ectp_driver_sends_dropped_total", kind: "counter", labels: { cause: "send_threw" }, error: "Error: exporter refused the label set" },
      ],
    ]);
  });

  it("a metrics option lacking a method is refused when the driver is built (INVALID_CONFIG)", () => {
    const t = new FakeNet().endpoint("me");
    const consumer = new RecordingCore() as unknown as ConsumerCore;
    expect(() => new Driver({ transport: t, consumer, metrics: { counter() {} } as unknown as MetricsSink })).toThrow(
      // (Before the option existed, `metrics` was refused too, as an unknown option: this names the missing methods.)
      expect.objectContaining({ code: "INVALID_CONFIG", message: expect.stringContaining("options.metrics must be a MetricsSink { counter, gauge, histogram }, but it has no gauge, histogram methods") }),
    );
  });
});

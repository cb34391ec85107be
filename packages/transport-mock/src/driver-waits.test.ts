/**
 * A real-time Driver over the mock (external clock): the waits it abandons (woken early by
 * `wake()`, or ended by `stop()`) are dropped by the network at once, not kept until their
 * timeout with a real timer armed for them (Transport.waitForActivity's `signal`).
 */
import { EventEmitter } from "node:events";
import { Driver, type ProducerCore } from "@ectp/core";
import { describe, expect, it } from "vitest";
import { MockNetwork } from "./network.js";

/** A producer core that never has anything to do. */
const idleCore = () =>
  ({ handleEnvelope() {}, handleMessage() {}, handleReadResult() {}, handlePeerUnreachable() {}, poll: () => [], nextDeadline: () => undefined }) as unknown as ProducerCore;

/** The mock's internals these tests read. */
const fabricOf = (net: MockNetwork) =>
  (net as unknown as { fabric: { endpoints: Map<string, { waiters: unknown[] }>; waits: { timer: unknown } } }).fabric;

/** The mock's pending waits of endpoint `id`. */
function pendingWaits(net: MockNetwork, id: string): number {
  return fabricOf(net).endpoints.get(id)?.waiters.length ?? 0;
}

describe("waits a real-time Driver abandons", () => {
  it("do not pile up in the mock while run() is woken often (each would be scanned by every timer re-arm)", async () => {
    const net = new MockNetwork({ seed: 1, clock: { now: () => performance.now() } });
    const t = net.endpoint("me");
    const driver = new Driver({ transport: t, producer: idleCore(), maxWaitMs: 5_000 });
    const loop = driver.run();
    for (let i = 0; i < 200; i++) {
      driver.wake();
      await new Promise((r) => setImmediate(r));
    }
    const pending = pendingWaits(net, "me");
    driver.stop();
    await loop;
    await t.close();
    expect(pending).toBeLessThanOrEqual(2);
  });

  it("after run() is stopped, no real timer stays armed for the abandoned wait", async () => {
    const net = new MockNetwork({ seed: 1, clock: { now: () => performance.now() } });
    const t = net.endpoint("me");
    const driver = new Driver({ transport: t, producer: idleCore(), maxWaitMs: 60_000 });
    const loop = driver.run();
    await new Promise((r) => setTimeout(r, 5));
    expect(fabricOf(net).waits.timer).toBeDefined(); // armed for the wait's 60 s timeout
    driver.stop();
    await loop;
    expect(pendingWaits(net, "me")).toBe(0);
    // The network's own timer, not the process's count of timers: another test's timer ending
    // meanwhile made that count drop (fresh-clone CI failed it once, 0 where 1 was expected).
    expect(fabricOf(net).waits.timer).toBeUndefined();
  });
});

describe("a signal passed to many waits", () => {
  it("keeps no abort listener for a wait woken by activity or its timeout", async () => {
    const net = new MockNetwork({ seed: 1, clock: { now: () => performance.now() } });
    const a = net.endpoint("a");
    const b = net.endpoint("b");
    await a.connectPeer("b", 1, b.localMetadata());
    const signal = new AbortController().signal;
    for (let i = 0; i < 20; i++) {
      const wait = b.waitForActivity(60_000, signal);
      a.send("b", new Uint8Array([i]));
      await wait; // woken by the message
      b.poll();
    }
    await b.waitForActivity(1, signal); // woken by its timeout
    expect(EventEmitter.getEventListeners(signal, "abort")).toHaveLength(0);
    await a.close();
    await b.close();
  });
});

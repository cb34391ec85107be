/**
 * Findings of a review of the fabric: what a message both reordered and duplicated does (one copy in
 * order, the held one late: now documented, and pinned here, since the simulator's late-duplicate
 * scenarios rely on it), and an observer that starts a read while `deregisterMemory` or `close`
 * settles the reads in flight could get a `done` result with nothing written, or a read the close
 * never settled [I5], and a `runOnVirtualTime` call refused for its options ran the network's due
 * events first (each of these three tests failed on the code before its fix).
 */
import { describe, expect, it } from "vitest";
import { pair, read } from "./test-helpers.js";

describe("reorder with duplicate", () => {
  it("a message picked by both arrives in order once and again after the link's next message (a late retransmission), as the docs say", async () => {
    const { net, p, c } = await pair();
    net.setFaults({ links: [{ from: "c", to: "p", reorder: { probability: 1, maxHoldMs: 5 }, duplicate: 1 }] });
    c.send("p", new Uint8Array([1])); // held, and duplicated
    net.setFaults({});
    c.send("p", new Uint8Array([2])); // the link's next message
    const got: number[] = [];
    for (let t = net.nextEventTime(); t !== undefined; t = net.nextEventTime()) {
      net.advanceTo(Math.max(t, net.now()));
      for (const m of p.poll().messages) got.push(m.bytes[0] as number);
    }
    expect(got).toEqual([1, 2, 1]);
    expect(net.faultCounts()).toMatchObject({ reorder: 1, duplicate: 1 });
  });
});

describe("[I5] reads started by an observer while reads are settled", () => {
  /**
   * Read 1 (4 bytes of "p" into `dst` of "c") in flight, and an observer that tries to start read 2
   * into the same destination as soon as read 1 settles; `refused` collects what that start threw.
   */
  async function secondReadOnSettle() {
    const { net, p, c } = await pair();
    const src = p.registerMemory(new Uint8Array([7, 7, 7, 7]));
    const dst = c.registerMemory(new Uint8Array(4));
    read(c, p, 1, src, 0, dst, 0, 4);
    const refused: string[] = [];
    net.observe({
      onSettle: (e) => {
        if (e.readId !== 1) return;
        try {
          read(c, p, 2, src, 0, dst, 0, 4);
        } catch (error) {
          refused.push(String(error));
        }
      },
    });
    return { net, c, dst, refused };
  }

  it("a read into a region being deregistered is refused: nothing is reported done with no bytes written", async () => {
    const { net, c, dst, refused } = await secondReadOnSettle();
    c.deregisterMemory(dst);
    net.advanceTo(1);
    expect(refused).toEqual([expect.stringContaining("not registered")]);
    expect(c.poll().reads.map((r) => [r.readId, r.status])).toEqual([[1, "failed"]]);
    expect([...dst.bytes]).toEqual([0, 0, 0, 0]);
  });

  it("a read started while the endpoint closes is refused: every read the close met settles cancelled, none later", async () => {
    const { net, c, refused } = await secondReadOnSettle();
    await c.close();
    expect(refused).toEqual([expect.stringContaining('"c" is closing')]);
    expect(c.poll().reads).toEqual([{ readId: 1, status: "cancelled" }]);
    expect(net.unsettledWrites("c")).toEqual([]);
    net.advanceTo(1);
    expect(c.poll().reads).toEqual([]);
  });
});

describe("runOnVirtualTime refuses before it changes anything", () => {
  it("a call refused for its endTimeMs has not run the network's due deliveries", async () => {
    const { runOnVirtualTime } = await import("./run-on-virtual-time.js");
    const { net, p, c } = await pair({ latencyMs: 0 });
    net.advanceTo(5);
    c.send("p", new Uint8Array(0)); // no latency, no bytes: due now (5), not run yet
    expect(net.nextEventTime()).toBe(5);
    const driver = { step() {}, hasWork: false, nextDeadline: () => undefined, clock: net };
    await expect(runOnVirtualTime(net, [driver], () => true, { endTimeMs: 1 })).rejects.toThrow(/endTimeMs must be a finite time at or after now/);
    expect(p.hasActivity()).toBe(false);
    expect(net.nextEventTime()).toBe(5);
  });
});

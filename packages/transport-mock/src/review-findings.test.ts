/**
 * Found by a review of the mock against its docs (each test failed before its fix): the [I5]
 * checkers answered "nothing writes there" for arguments they cannot judge, `describe` on a closed
 * or crashed endpoint advised registering memory it can no longer register, and `runOnVirtualTime`
 * threw a TypeError for `null` options and ran a misspelt option as no option. A later review
 * found an observer's throw leaving `deregisterMemory` half-way, location blobs each keeping a
 * 16 KB message slab alive, `connectPeer` storing an epoch of `NaN`, `maxRounds: null` run as the
 * default, and `send`/`observe` naming a bad argument by its `typeof`.
 */
import { describe, expect, it } from "vitest";
import { MockNetwork } from "./network.js";
import { runOnVirtualTime } from "./run-on-virtual-time.js";
import { drainReads, ectpErrorOf, pair, pattern, read } from "./test-helpers.js";

describe("the [I5] checkers refuse what they cannot judge", () => {
  it("[I5] hasUnsettledWriteInto and unsettledWrites refuse an endpoint id, region id, offset or length that is no such thing with INVALID_ARGUMENT, never answering that nothing writes there", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(8));
    const dst = c.registerMemory(new Uint8Array(8));
    read(c, p, 1, src, 0, dst, 0, 8); // may write all of dst until it settles
    const bad: [string, () => unknown][] = [
      ["offset NaN", () => net.hasUnsettledWriteInto("c", dst, Number.NaN)],
      ["offset as a string", () => net.hasUnsettledWriteInto("c", dst, "0" as unknown as number)],
      ["negative offset", () => net.hasUnsettledWriteInto("c", dst, -1, 4)],
      ["length NaN", () => net.hasUnsettledWriteInto("c", dst, 0, Number.NaN)],
      ["negative length", () => net.hasUnsettledWriteInto("c", dst, 0, -1)],
      ["region id NaN", () => net.hasUnsettledWriteInto("c", Number.NaN)],
      ["endpoint id not a string", () => net.hasUnsettledWriteInto(1 as unknown as string, dst)],
      ["unsettledWrites of an endpoint id not a string", () => net.unsettledWrites({} as unknown as string)],
    ];
    for (const [what, call] of bad) expect(ectpErrorOf(call, "INVALID_ARGUMENT").message, what).toMatch(/hasUnsettledWriteInto|unsettledWrites/);
    // What it can judge is still answered.
    expect(net.hasUnsettledWriteInto("c", dst, 0, Number.POSITIVE_INFINITY)).toBe(true);
    expect(net.unsettledWrites("c")).toHaveLength(1);
    drainReads(net, c);
    expect(net.hasUnsettledWriteInto("c", dst)).toBe(false);
  });
});

describe("describe() on an endpoint that is no longer live", () => {
  it("names the endpoint's state (closed, crashed) instead of telling the caller to register the region first, which it cannot", async () => {
    const net = new MockNetwork({ seed: 1 });
    const closed = net.endpoint("closed");
    const crashed = net.endpoint("crashed");
    const a = closed.registerMemory(new Uint8Array(4));
    const b = crashed.registerMemory(new Uint8Array(4));
    await closed.close();
    net.crash("crashed");
    for (const [t, region, state] of [[closed, a, "closed"], [crashed, b, "crashed"]] as const) {
      const message = ectpErrorOf(() => t.describe(region, 0, 4), "INVALID_ARGUMENT").message;
      expect(message).toContain(`is ${state}`);
      expect(message).not.toContain("register it with this transport");
    }
  });
});

describe("runOnVirtualTime's options", () => {
  const idle = { step() {}, hasWork: false, nextDeadline: () => undefined };

  it("refuses null options and a misspelt option with INVALID_ARGUMENT naming it, before any step", async () => {
    const net = new MockNetwork({ seed: 1 });
    let steps = 0;
    const counting = { ...idle, step: () => void steps++ };
    await expect(runOnVirtualTime(net, [counting], () => false, null as unknown as { maxRounds: number })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    const misspelt = runOnVirtualTime(net, [counting], () => false, { endTime: 5 } as unknown as { endTimeMs: number });
    await expect(misspelt).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("endTime") });
    expect(steps).toBe(0);
    // The known options still run.
    expect(await runOnVirtualTime(net, [idle], () => false, { endTimeMs: 5, maxRounds: 10 })).toMatchObject({ ended: "end-time", now: 5 });
  });
});

describe("deregisterMemory with an observer that throws", () => {
  it("[I5] settles every read writing into the freed region and records the unsafe deregistration, then throws the observer's first error", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(8));
    const dst = c.registerMemory(new Uint8Array(8));
    for (const id of [1, 2, 3]) read(c, p, id, src, 0, dst, (id - 1) * 2, 2);
    let settles = 0;
    net.observe({
      onSettle: () => {
        settles++;
        throw new Error(`checker says no ${settles}`);
      },
    });
    expect(() => c.deregisterMemory(dst)).toThrow("checker says no 1");
    expect(settles).toBe(3);
    expect(net.unsettledWrites("c")).toEqual([]);
    expect(c.poll().reads.map((r) => [r.readId, r.status])).toEqual([[1, "failed"], [2, "failed"], [3, "failed"]]);
    expect(net.unsafeDeregistrations()).toMatchObject([{ side: "destination", endpointId: "c", regionId: dst.id, reads: [{ readId: 1 }, { readId: 2 }, { readId: 3 }] }]);
  });
});

describe("location blobs", () => {
  it("own their memory: a kept location holds only its own bytes, not a slab shared with message copies", async () => {
    const { p } = await pair();
    const region = p.registerMemory(new Uint8Array(16));
    p.send("c", new Uint8Array(100)); // a message copy carved from a slab first
    const loc = p.describe(region, 0, 16);
    expect(loc.byteOffset).toBe(0);
    expect(loc.buffer.byteLength).toBe(loc.byteLength);
  });
});

describe("connectPeer's epoch", () => {
  it("rejects an epoch that is not a non-negative safe integer with INVALID_ARGUMENT naming it, storing no connection", async () => {
    const net = new MockNetwork({ seed: 1 });
    const p = net.endpoint("p");
    const c = net.endpoint("c");
    const cases: [unknown, string][] = [[Number.NaN, "NaN"], [undefined, "nothing"], [-1, "-1"], [1.5, "1.5"], ["2", '"2"'], [2 ** 53, String(2 ** 53)]];
    for (const [epoch, shown] of cases) {
      const rejection = c.connectPeer("p", epoch as number, p.localMetadata());
      await expect(rejection, shown).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining(`got ${shown}`) });
    }
    c.send("p", new Uint8Array([1]));
    expect(c.poll().unreachable).toEqual(["p"]);
    // A valid epoch connects, and a newer one then replaces it (never blocked by a refused one).
    await c.connectPeer("p", 0, p.localMetadata());
    const src = p.registerMemory(pattern(4));
    const dst = c.registerMemory(new Uint8Array(4));
    read(c, p, 1, src, 0, dst, 0, 4);
    await c.connectPeer("p", 2, p.localMetadata());
    expect(drainReads(net, c)).toMatchObject([{ readId: 1, status: "failed", error: expect.stringContaining("not connected") }]);
  });
});

describe("runOnVirtualTime's maxRounds", () => {
  it("refuses maxRounds: null with INVALID_ARGUMENT, as it does endTimeMs: null (only an absent one takes the default)", async () => {
    const net = new MockNetwork({ seed: 1 });
    const idle = { step() {}, hasWork: false, nextDeadline: () => undefined };
    const run = runOnVirtualTime(net, [idle], () => false, { maxRounds: null as unknown as number });
    await expect(run).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("maxRounds must be an integer >= 1, got null") });
  });
});

describe("messages for a bad send or observe argument", () => {
  it("show the value as describeValue does, not its typeof", async () => {
    const { net, c } = await pair();
    expect(ectpErrorOf(() => c.send("p", {} as never), "INVALID_ARGUMENT").message).toMatch(/needs the message as a Uint8Array, got an object$/);
    expect(ectpErrorOf(() => c.send("p", [1] as never), "INVALID_ARGUMENT").message).toMatch(/got an array$/);
    expect(ectpErrorOf(() => net.observe(5 as never), "INVALID_ARGUMENT").message).toMatch(/got 5$/);
    expect(ectpErrorOf(() => net.observe({ onSettle: 5 } as never), "INVALID_ARGUMENT").message).toMatch(/its onSettle is 5$/);
  });
});

/**
 * Found by a review of the mock against its docs (each test failed before its fix): the [I5]
 * checkers answered "nothing writes there" for arguments they cannot judge, `describe` on a closed
 * or crashed endpoint advised registering memory it can no longer register, and `runOnVirtualTime`
 * threw a TypeError for `null` options and ran a misspelt option as no option.
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

import { Driver, NOOP_LOGGER, type ProducerCore } from "@ectp/core";
import { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { MockNetwork } from "./network.js";
import { type SteppedDriver, type VirtualRunOptions, runOnVirtualTime } from "./run-on-virtual-time.js";

/**
 * A stand-in driver on `net`: it records the virtual time of each step, its deadline is the first
 * of `deadlines` still ahead, and a step at a time in `workAt` (the first step there) leaves it
 * holding work of its own until its next step (as a Driver after settling a failed connect).
 */
function fakeDriver(net: MockNetwork, deadlines: number[], workAt: number[] = []) {
  const steps: number[] = [];
  const workTimes = new Set(workAt);
  let work = false;
  const driver: SteppedDriver = {
    step() {
      steps.push(net.now());
      work = workTimes.delete(net.now());
    },
    get hasWork() {
      return work;
    },
    nextDeadline: () => deadlines.find((d) => d > net.now()),
  };
  return { driver, steps };
}

describe("runOnVirtualTime", () => {
  it("jumps to the earliest deadline or network event, and steps again at the same time while a driver holds work", async () => {
    const net = new MockNetwork({ seed: 1 });
    const a = fakeDriver(net, [10, 25], [10]);
    const b = fakeDriver(net, [17]);
    const result = await runOnVirtualTime(net, [a.driver, b.driver], () => false);
    expect(a.steps).toEqual([0, 10, 10, 17, 25]);
    expect(b.steps).toEqual(a.steps);
    expect(result).toEqual({ ended: "idle", rounds: 5, now: 25 });
  });

  it("moves to the network's next event too (a message in flight), and ends when until() returns true", async () => {
    const net = new MockNetwork({ seed: 1, latencyMs: 3 });
    const e = net.endpoint("e");
    const p = net.endpoint("p");
    await e.connectPeer("p", 1, p.localMetadata());
    e.send("p", new Uint8Array([7]));
    const got: number[] = [];
    const a = fakeDriver(net, []);
    const result = await runOnVirtualTime(net, [a.driver], () => {
      for (const m of p.poll().messages) got.push(m.bytes[0] as number);
      return got.length > 0;
    });
    expect(got).toEqual([7]);
    expect(result).toMatchObject({ ended: "done", rounds: 2 });
    expect(result.now).toBeGreaterThanOrEqual(3);
  });

  it("stops after maxRounds when until() never holds and time keeps moving", async () => {
    const net = new MockNetwork({ seed: 1 });
    const a = fakeDriver(net, Array.from({ length: 100 }, (_, i) => i + 1));
    expect(await runOnVirtualTime(net, [a.driver], () => false, { maxRounds: 5 })).toEqual({ ended: "max-rounds", rounds: 5, now: 5 });
    expect(a.steps).toEqual([0, 1, 2, 3, 4]);
  });

  it("with endTimeMs, never moves past it: ends there, having stepped at it, also when nothing else is scheduled", async () => {
    const net = new MockNetwork({ seed: 1 });
    const a = fakeDriver(net, [10, 25, 40]);
    expect(await runOnVirtualTime(net, [a.driver], () => false, { endTimeMs: 30 })).toEqual({ ended: "end-time", rounds: 4, now: 30 });
    expect(a.steps).toEqual([0, 10, 25, 30]);
    const b = fakeDriver(net, []);
    expect(await runOnVirtualTime(net, [b.driver], () => false, { endTimeMs: 100 })).toEqual({ ended: "end-time", rounds: 2, now: 100 });
    expect(b.steps).toEqual([30, 100]);
  });

  it("refuses a network on an external clock, and bad arguments, with INVALID_ARGUMENT before any step", async () => {
    const external = new MockNetwork({ seed: 1, clock: { now: () => 0 } });
    const real = new MockNetwork({ seed: 1 });
    const a = fakeDriver(real, [5]);
    const refusals: [MockNetwork, unknown, unknown, unknown, RegExp][] = [
      [external, [a.driver], () => true, {}, /external clock/],
      [real, [], () => true, {}, /at least one driver, got an empty array/],
      [real, undefined, () => true, {}, /at least one driver/],
      [real, [a.driver], "done", {}, /until, a function/],
      [real, [a.driver], () => true, { maxRounds: 0 }, /maxRounds must be an integer >= 1, got 0/],
      [real, [a.driver], () => true, { maxRounds: 1.5 }, /maxRounds must be an integer >= 1, got 1\.5/],
      [real, [a.driver], () => true, { endTimeMs: -1 }, /endTimeMs must be a finite time at or after now \(0 ms\), got -1/],
      [real, [a.driver], () => true, { endTimeMs: Number.NaN }, /endTimeMs must be a finite time at or after now \(0 ms\), got NaN/],
    ];
    for (const [net, drivers, until, options, message] of refusals) {
      const run = runOnVirtualTime(net, drivers as SteppedDriver[], until as () => boolean, options as VirtualRunOptions);
      await expect(run).rejects.toBeInstanceOf(EctpError);
      await expect(run).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message });
    }
    expect(a.steps).toEqual([]);
  });

  it("refuses a Driver left on another clock than the network's, naming it (it ran, and its reads timed out at random)", async () => {
    const idle = { handleEnvelope() {}, handleMessage() {}, handleReadResult() {}, handlePeerUnreachable() {}, poll: () => [], nextDeadline: () => undefined };
    const net = new MockNetwork({ seed: 1 });
    const onNet = new Driver({ transport: net.endpoint("a"), producer: idle as unknown as ProducerCore, clock: net });
    const wrapped = new Driver({ transport: net.endpoint("b"), producer: idle as unknown as ProducerCore, clock: { now: () => net.now() } });
    const realTime = new Driver({ transport: net.endpoint("c"), producer: idle as unknown as ProducerCore });
    const run = runOnVirtualTime(net, [onNet, wrapped, realTime], () => true);
    await expect(run).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringMatching(/runOnVirtualTime: drivers\[2\]'s clock reads [\d.]+ ms while the network's virtual time is 0 ms; build every driver with clock: net/),
    });
    // The network's own clock, and one reading the same time, are the network's; a clock that throws is
    // left to its driver (which logs it and keeps its last good reading), not refused.
    const throwing = new Driver({ transport: net.endpoint("d"), producer: idle as unknown as ProducerCore, clock: { now: () => { throw new Error("no clock"); } }, logger: { ...NOOP_LOGGER } });
    expect(await runOnVirtualTime(net, [onNet, wrapped, throwing], () => true)).toEqual({ ended: "done", rounds: 1, now: 0 });
  });
});

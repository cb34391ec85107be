/**
 * Fault plans and network options are checked when given: a wrong type, a null, a misspelt key
 * or a structurally bad plan is an `INVALID_CONFIG` naming it (it used to be accepted and then
 * either never fire or fail a later send or read with a TypeError); the plan held is a deep
 * copy; seeds differing by a multiple of 2^32 are different seeds.
 */
import type { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { MockNetwork } from "./network.js";
import { drainReads, ectpErrorOf, pair, pattern, read } from "./test-helpers.js";

const configError = (f: () => unknown): EctpError => ectpErrorOf(f, "INVALID_CONFIG");

describe("fault plans are checked when set", () => {
  it.each([
    ["delay: null", { delay: null }, /faults\.default\.delay must be an object .* got null/],
    ["reorder: null", { reorder: null }, /faults\.default\.reorder must be an object .* got null/],
    ["stallRead: null", { stallRead: null }, /faults\.default\.stallRead must be an object .* got null/],
    ["delay as a number", { delay: 1 }, /faults\.default\.delay must be an object .* got 1/],
    ["reorder as a number", { reorder: 1 }, /faults\.default\.reorder must be an object/],
    ["stallRead as a number", { stallRead: 1 }, /faults\.default\.stallRead must be an object/],
    ["delay as a string", { delay: "x" }, /faults\.default\.delay must be an object .* got "x"/],
    ["partitioned not a boolean", { partitioned: "yes" }, /faults\.default\.partitioned must be true or false, got "yes"/],
    ["a misspelt fault", { dorp: 1 }, /faults\.default\.dorp is not a fault setting \(the settings are drop, delay/],
    ["a misspelt nested setting", { delay: { probability: 1, maxMS: 5 } }, /faults\.default\.delay\.maxMS is not a fault setting \(the settings are probability, minMs, maxMs\)/],
    ["a non-number probability", { stallRead: { probability: "1" } }, /faults\.default\.stallRead\.probability must be a probability in \[0, 1\]/],
  ])("%s is refused by setFaults and by the constructor", (_name, config, message) => {
    const net = new MockNetwork({ seed: 1 });
    expect(configError(() => net.setFaults({ default: config as never })).message).toMatch(message);
    expect(configError(() => new MockNetwork({ seed: 1, faults: { default: config as never } })).message).toMatch(message);
    // A refused plan changes nothing: the network keeps the plan it had.
    expect(net.faults()).toEqual({ default: {}, links: [] });
  });

  it.each([
    ["a null plan", null, /faults must be a fault plan object .* got null/],
    ["a number", 5, /faults must be a fault plan object .* got 5/],
    ["links: [null]", { links: [null] }, /faults\.links\[0\] must be an object of faults, got null/],
    ["links: {}", { links: {} }, /faults\.links must be an array of link entries, got an object/],
    ["links: \"x\"", { links: "x" }, /faults\.links must be an array of link entries, got "x"/],
    ["default: 5", { default: 5 }, /faults\.default must be an object of faults, got 5/],
    ["a misspelt plan key", { defaults: { drop: 1 } }, /faults\.defaults is not a fault setting \(the settings are default, links\)/],
    ["a link without from", { links: [{ to: "b", drop: 1 }] }, /faults\.links\[0\] needs string `from` and `to`/],
    ["a misspelt link fault", { links: [{ from: "a", to: "b", drop: 1, dealy: {} }] }, /faults\.links\[0\]\.dealy is not a fault setting/],
  ])("%s is refused", (_name, plan, message) => {
    const net = new MockNetwork({ seed: 1 });
    expect(configError(() => net.setFaults(plan as never)).message).toMatch(message);
  });

  it("a valid plan still sets every fault (a link entry's from and to are not faults)", async () => {
    const plan = {
      default: { drop: 0, duplicate: 0, failRead: 0, corruptRead: 0, partitioned: false },
      links: [
        {
          from: "c",
          to: "p",
          delay: { probability: 1, minMs: 1, maxMs: 2 },
          reorder: { probability: 0, maxHoldMs: 1 },
          stallRead: { probability: 0, durationMs: 5, settle: "failed" as const },
        },
      ],
    };
    const { net, c } = await pair({ faults: plan });
    expect(net.faults()).toEqual(plan);
    c.send("p", new Uint8Array(1));
    expect(net.faultCounts().delay).toBe(1);
  });
});

describe("the plan held is the network's own", () => {
  it("changing the plan faults() returned changes nothing", () => {
    const net = new MockNetwork({ seed: 1, faults: { default: { delay: { probability: 0 } }, links: [{ from: "a", to: "b", stallRead: { probability: 0 } }] } });
    const copy = net.faults() as unknown as { default: { delay: { probability: number } }; links: { stallRead: { probability: number } }[] };
    copy.default.delay.probability = 1;
    (copy.links[0] as { stallRead: { probability: number } }).stallRead.probability = 1;
    expect(net.faults().default?.delay?.probability).toBe(0);
    expect(net.faults().links?.[0]?.stallRead?.probability).toBe(0);
  });

  it("changing the caller's objects after setFaults changes nothing", async () => {
    const { net, p, c } = await pair();
    const delay = { probability: 0 };
    const stallRead = { probability: 0 };
    net.setFaults({ default: { delay }, links: [{ from: "c", to: "p", stallRead }] });
    delay.probability = 1;
    stallRead.probability = 1;
    c.send("p", new Uint8Array(1));
    const src = p.registerMemory(pattern(8));
    read(c, p, 1, src, 0, c.registerMemory(new Uint8Array(8)), 0, 8);
    expect(drainReads(net, c)).toEqual([{ readId: 1, status: "done", bytesRead: 8 }]);
    expect(net.faultCounts()).toMatchObject({ delay: 0, stallRead: 0 });
  });
});

describe("network options", () => {
  it("seeds that differ by a multiple of 2^32 give different fault schedules; a 32-bit seed's schedule is unchanged", async () => {
    const drops = async (seed: number) => {
      const net = new MockNetwork({ seed, faults: { default: { drop: 0.5 } } });
      const a = net.endpoint("a");
      await a.connectPeer("b", 1, net.endpoint("b").localMetadata());
      const at: number[] = [];
      net.observe({ onFault: (f) => at.push(f.at) });
      for (let i = 0; i < 64; i++) {
        a.send("b", new Uint8Array(1));
        net.advanceBy(1);
      }
      return at;
    };
    const one = await drops(1);
    expect(await drops(2 ** 32 + 1)).not.toEqual(one);
    expect(await drops(-(2 ** 32) + 1)).not.toEqual(one);
    expect(await drops(1)).toEqual(one);
  });

  it.each([
    [-1, "-1"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    ["5", "\"5\""], // a string, shown quoted
    [Object.create(null), "an object"], // not a TypeError from String()
  ])("refuses latencyMs %s: it must be a finite number >= 0", (latencyMs, shown) => {
    expect(configError(() => new MockNetwork({ seed: 1, latencyMs: latencyMs as number })).message).toBe(
      `[INVALID_CONFIG] latencyMs must be a finite number >= 0, got ${shown}`,
    );
  });

  it.each([
    ["latencyMs", /^\[INVALID_CONFIG\] latencyMs must be a finite number >= 0, got null$/],
    ["bandwidthBytesPerMs", /^\[INVALID_CONFIG\] bandwidthBytesPerMs must be a finite number > 0, got null$/],
    ["startTimeMs", /^\[INVALID_CONFIG\] startTimeMs must be a finite number, got null$/],
    ["faults", /^\[INVALID_CONFIG\] invalid fault plan: faults must be a fault plan object .* got null$/],
  ])("%s: null is refused, naming the option, not silently taken as the default (only undefined is)", (key, message) => {
    expect(configError(() => new MockNetwork({ seed: 1, [key]: null } as never)).message).toMatch(message);
    expect(() => new MockNetwork({ seed: 1, [key]: undefined })).not.toThrow();
  });

  it("refuses a seed past 2^53, a null clock and a bandwidth that is not a number, naming each", () => {
    expect(configError(() => new MockNetwork({ seed: 2 ** 53 })).message).toMatch(/integer `seed` \(a safe integer\), got 9007199254740992/);
    expect(configError(() => new MockNetwork({ seed: 1, clock: null as never })).message).toMatch(/clock must be an object with a now\(\): number method/);
    expect(configError(() => new MockNetwork({ seed: 1, clock: { now: 5 } as never })).message).toMatch(/clock must be an object/);
    for (const bandwidthBytesPerMs of ["5", true])
      expect(configError(() => new MockNetwork({ seed: 1, bandwidthBytesPerMs: bandwidthBytesPerMs as never })).message).toMatch(
        /bandwidthBytesPerMs must be a finite number > 0/,
      );
  });
});

describe("fault plans: merging and defaults", () => {
  it("a link entry's field set to undefined keeps the default", async () => {
    const { net, p, c } = await pair({
      faults: { default: { drop: 1 }, links: [{ from: "c", to: "p", drop: undefined }] },
    });
    for (let i = 0; i < 10; i++) c.send("p", new Uint8Array([i]));
    net.advanceBy(10);
    expect(p.poll().messages).toEqual([]);
    expect(net.faultCounts().drop).toBe(10);
  });

  it("a delay whose minMs is above the default maxMs (10) is refused", () => {
    const net = new MockNetwork({ seed: 1 });
    expect(() => net.setFaults({ default: { delay: { probability: 1, minMs: 20 } } })).toThrow(/INVALID_CONFIG/);
  });

  it.each(["drop", "duplicate", "failRead", "corruptRead"] as const)("%s outside [0, 1] is refused", (field) => {
    const net = new MockNetwork({ seed: 1 });
    expect(() => net.setFaults({ default: { [field]: 2 } })).toThrow(/INVALID_CONFIG/);
    expect(() => net.setFaults({ links: [{ from: "a", to: "b", [field]: -0.5 }] })).toThrow(/INVALID_CONFIG/);
  });

  it("stallRead without durationMs settles 30 000 ms after the start", async () => {
    const { net, p, c } = await pair({ faults: { default: { stallRead: { probability: 1 } } } });
    const src = p.registerMemory(pattern(8));
    const dst = c.registerMemory(new Uint8Array(8));
    read(c, p, 1, src, 0, dst, 0, 8);
    expect(net.unsettledWrites("c")).toMatchObject([{ readId: 1, stalled: true, dueAt: 30_000 }]);
    net.advanceTo(29_999);
    expect(c.poll().reads).toEqual([]);
    net.advanceTo(30_000);
    expect(c.poll().reads).toEqual([{ readId: 1, status: "done", bytesRead: 8 }]);
  });

  it("a stalled read is never also corrupted: only a read without another fault gets a flipped byte", async () => {
    const { net, p, c } = await pair({
      faults: { default: { stallRead: { probability: 1, durationMs: 10 }, corruptRead: 1 } },
    });
    const bytes = pattern(64, 5);
    const src = p.registerMemory(bytes);
    const landing = new Uint8Array(64);
    const dst = c.registerMemory(landing);
    read(c, p, 1, src, 0, dst, 0, 64);
    expect(drainReads(net, c)).toEqual([{ readId: 1, status: "done", bytesRead: 64 }]);
    expect(landing).toEqual(bytes);
    expect(net.faultCounts()).toMatchObject({ stallRead: 1, corruptRead: 0 });
  });
});


/**
 * A caller's value that cannot be turned into a string (`Object.create(null)`, a symbol) or prints
 * badly (an array, an object, a bigint, a function) is refused with a typed `EctpError` whose
 * message shows it as `describeValue` does ("an object", "5n", ...). These used to throw a raw
 * TypeError ("Cannot convert object to primitive value", "Cannot mix BigInt and other types") from
 * the message being built, or print "got [object Object]" / "got " / a function's source.
 */
import type { MemoryRegion, ReadOperation } from "@ectp/core";
import { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { MockNetwork } from "./network.js";
import { ectpErrorOf, pair } from "./test-helpers.js";

const thrown = (f: () => unknown): EctpError => ectpErrorOf(f);

const bare = (): unknown => Object.create(null);

describe("MockNetwork options that cannot be printed", () => {
  it.each(["seed", "latencyMs", "bandwidthBytesPerMs", "startTimeMs"] as const)(
    "%s: Object.create(null) is INVALID_CONFIG naming the option, not a TypeError",
    (key) => {
      const options = { seed: 1, [key]: bare() } as never;
      const e = thrown(() => new MockNetwork(options));
      expect(e.code).toBe("INVALID_CONFIG");
      expect(e.message).toContain(key);
      expect(e.message).toMatch(/got an object$/);
    },
  );

  it.each([
    ["an array", [], "an array"],
    ["a plain object", { n: 5 }, "an object"],
    ["a bigint", 5n, "5n"],
    ["a symbol", Symbol("x"), "Symbol(x)"],
  ])("latencyMs as %s is shown as describeValue shows it (not 'got ', 'got [object Object]' or a TypeError)", (_name, value, shown) => {
    const e = thrown(() => new MockNetwork({ seed: 1, latencyMs: value as never }));
    expect(e.code).toBe("INVALID_CONFIG");
    expect(e.message).toBe(`[INVALID_CONFIG] latencyMs must be a finite number >= 0, got ${shown}`);
  });

  it("a seed given as [] or a bigint is shown as describeValue shows it", () => {
    expect(thrown(() => new MockNetwork({ seed: [] as never })).message).toMatch(/safe integer\), got an array$/);
    expect(thrown(() => new MockNetwork({ seed: 1n as never })).message).toMatch(/safe integer\), got 1n$/);
    expect(thrown(() => new MockNetwork({ seed: 1, startTimeMs: [] as never })).message).toMatch(/startTimeMs must be a finite number, got an array$/);
  });
});

describe("advanceTo and advanceBy", () => {
  it.each([
    ["Object.create(null)", bare(), "an object"],
    ["[]", [], "an array"],
    ["a symbol", Symbol("t"), "Symbol(t)"],
    ["a bigint", 10n, "10n"],
    ["a string", "10", '"10"'],
  ])("advanceTo(%s) is INVALID_ARGUMENT showing the value as describeValue does", (_name, value, shown) => {
    const net = new MockNetwork({ seed: 1 });
    const e = thrown(() => net.advanceTo(value as never));
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(e.message).toBe(`[INVALID_ARGUMENT] advanceTo needs a finite time in ms, got ${shown}`);
    expect(net.now()).toBe(0);
  });

  it.each([
    ["10n", 10n, "10n"],
    ["Object.create(null)", bare(), "an object"],
    ["NaN", Number.NaN, "NaN"],
    ["-1", -1, "-1"],
    ["Infinity", Number.POSITIVE_INFINITY, "Infinity"],
  ])("advanceBy(%s) is INVALID_ARGUMENT naming advanceBy, and time does not move", (_name, value, shown) => {
    const net = new MockNetwork({ seed: 1, startTimeMs: 5 });
    const e = thrown(() => net.advanceBy(value as never));
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(e.message).toBe(`[INVALID_ARGUMENT] advanceBy needs a finite number of ms >= 0, got ${shown}`);
    expect(net.now()).toBe(5);
  });

  it("advanceBy with a good number still moves time", () => {
    const net = new MockNetwork({ seed: 1 });
    net.advanceBy(2.5);
    net.advanceBy(0);
    expect(net.now()).toBe(2.5);
  });
});

describe("fault plans", () => {
  it.each([
    ["a probability", { drop: bare() }, /faults\.default\.drop must be a probability in \[0, 1\], got an object/],
    ["a nested probability", { delay: { probability: bare() } }, /faults\.default\.delay\.probability must be a probability in \[0, 1\], got an object/],
    ["a duration", { stallRead: { probability: 0, durationMs: bare() } }, /faults\.default\.stallRead\.durationMs must be a finite number of ms >= 0, got an object/],
    ["a settle", { stallRead: { probability: 0, settle: bare() } }, /faults\.default\.stallRead\.settle must be "done" or "failed", got an object/],
    ["a settle array", { stallRead: { probability: 0, settle: ["done"] } }, /settle must be "done" or "failed", got an array/],
    ["a bigint probability", { corruptRead: 1n }, /faults\.default\.corruptRead must be a probability in \[0, 1\], got 1n/],
    ["a symbol delay", { delay: Symbol("d") }, /faults\.default\.delay must be an object .* got Symbol\(d\)/],
    ["a partitioned object", { partitioned: bare() }, /faults\.default\.partitioned must be true or false, got an object/],
  ])("%s given as an unprintable value is INVALID_CONFIG naming it", (_name, config, message) => {
    const net = new MockNetwork({ seed: 1 });
    const e = thrown(() => net.setFaults({ default: config as never }));
    expect(e.code).toBe("INVALID_CONFIG");
    expect(e.message).toMatch(message);
  });

  it("a function in a plan is named as a function, not printed as its source", () => {
    const net = new MockNetwork({ seed: 1 });
    const e = thrown(() => net.setFaults({ default: { delay: (() => "secret source") as never } }));
    expect(e.message).toMatch(/faults\.default\.delay must be an object .* got a function$/);
    expect(e.message).not.toContain("secret source");
  });

  it("a long string in a plan is cut to 40 characters", () => {
    const net = new MockNetwork({ seed: 1 });
    const e = thrown(() => net.setFaults({ default: { reorder: "x".repeat(500) as never } }));
    expect(e.message).toMatch(/got "x{40}\.\.\."$/);
  });
});

describe("endpoint ids and endpoint arguments", () => {
  it("crash, restart, partition and heal refuse an id that is not a string with INVALID_ARGUMENT", () => {
    const net = new MockNetwork({ seed: 1 });
    net.endpoint("a");
    for (const id of [bare(), Symbol("id"), 7]) {
      const crash = thrown(() => net.crash(id as never));
      expect(crash.code).toBe("INVALID_ARGUMENT");
      expect(crash.message).toMatch(/^\[INVALID_ARGUMENT\] crash needs an endpoint id \(a string\), got /);
      expect(thrown(() => net.restart(id as never)).message).toMatch(/^\[INVALID_ARGUMENT\] restart needs an endpoint id \(a string\), got /);
      expect(thrown(() => net.partition("a", id as never)).message).toMatch(/^\[INVALID_ARGUMENT\] partition needs two endpoint ids \(strings\), got "a" and /);
      expect(thrown(() => net.heal(id as never, "a")).message).toMatch(/^\[INVALID_ARGUMENT\] heal needs two endpoint ids \(strings\)/);
    }
    expect(thrown(() => net.crash(bare() as never)).message).toBe("[INVALID_ARGUMENT] crash needs an endpoint id (a string), got an object");
    // The plan is untouched by a refused partition.
    expect(net.faults()).toEqual({ default: {}, links: [] });
  });

  it("endpoint() with an id that is not a non-empty string says what it got", () => {
    const net = new MockNetwork({ seed: 1 });
    expect(thrown(() => net.endpoint(bare() as never)).message).toBe("[INVALID_ARGUMENT] an endpoint id must be a non-empty string, got an object");
    expect(thrown(() => net.endpoint("")).message).toBe('[INVALID_ARGUMENT] an endpoint id must be a non-empty string, got ""');
  });

  it("send of a non-message to an unprintable peer id is INVALID_ARGUMENT", async () => {
    const { c } = await pair();
    const e = thrown(() => c.send(bare() as never, "not bytes" as never));
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(e.message).toBe('[INVALID_ARGUMENT] send to an object needs the message as a Uint8Array, got "not bytes"');
  });

  it("connectPeer with an unprintable peer id rejects with PEER_UNREACHABLE, not a TypeError", async () => {
    const { net, c } = await pair();
    const rejection = await c.connectPeer(bare() as never, 1, net.endpoint("p").localMetadata()).catch((e: unknown) => e);
    expect(rejection).toBeInstanceOf(EctpError);
    expect((rejection as EctpError).code).toBe("PEER_UNREACHABLE");
    expect((rejection as EctpError).message).toContain('the metadata belongs to endpoint "p", not an object');
  });

  it("startRead refuses an unprintable readId, peerId or destination offset with INVALID_ARGUMENT", async () => {
    const { p, c } = await pair();
    const src = p.describe(p.registerMemory(new Uint8Array(8)), 0, 8);
    const region = c.registerMemory(new Uint8Array(8));
    const op = (over: Partial<Record<keyof ReadOperation, unknown>>, destination: Record<string, unknown> = {}) =>
      ({ readId: 1, peerId: "p", source: src, destination: { region, offset: 0, length: 8, ...destination }, ...over }) as never;
    expect(thrown(() => c.startRead(op({ readId: bare() }))).message).toBe("[INVALID_ARGUMENT] startRead needs an integer readId, got an object");
    expect(thrown(() => c.startRead(op({ peerId: bare() }))).message).toBe(
      "[INVALID_ARGUMENT] startRead needs the peer's id as a string peerId, got an object",
    );
    expect(thrown(() => c.startRead(op({ peerId: 5 }))).message).toMatch(/string peerId, got 5$/);
    expect(thrown(() => c.startRead(op({}, { offset: bare() }))).message).toBe(
      "[INVALID_ARGUMENT] startRead destination needs non-negative integer offset and length, got an object, 8",
    );
    expect(thrown(() => c.startRead(op({}, { region: { id: bare(), bytes: new Uint8Array(8) } }))).message).toMatch(
      /^\[INVALID_ARGUMENT\] startRead destination: region an object is not registered with endpoint "c"/,
    );
    // Nothing was started: the same read id is free.
    c.startRead(op({}));
    expect(c.poll().reads).toEqual([]);
  });

  it("startRead on a closed endpoint with an unprintable readId is INVALID_ARGUMENT", async () => {
    const { c } = await pair();
    await c.close();
    expect(thrown(() => c.startRead({ readId: bare() } as never)).message).toMatch(/^\[INVALID_ARGUMENT\] startRead: "c" is closed, so read an object is not started/);
  });

  it("describe and deregisterMemory refuse unprintable offsets and region ids with INVALID_ARGUMENT", async () => {
    const { p } = await pair();
    const region = p.registerMemory(new Uint8Array(8));
    expect(thrown(() => p.describe(region, bare() as never, 1n as never)).message).toBe(
      "[INVALID_ARGUMENT] describe needs non-negative integer offset and length, got offset an object, length 1n",
    );
    const forged = { id: bare(), bytes: new Uint8Array(1) } as unknown as MemoryRegion;
    expect(thrown(() => p.deregisterMemory(forged)).message).toMatch(/^\[INVALID_ARGUMENT\] deregisterMemory: region an object is not registered/);
  });
});

/**
 * NixlTransport's read and registration arguments (taken read ids, another transport's region,
 * ranges past a region's end, an empty registration: thrown at the call, nothing started; a source
 * location wrapping past 2^64 refused; SharedArrayBuffer views as memory, metadata, messages) and its
 * waits (no spin for a read that cannot end soon; activity a spin reported does not wake the next
 * wait; an idle engine sleeps). Skipped, with the reason in the title, when the addon is not built.
 */
import type { ReadResult } from "@ectp/core";
import { EctpError } from "@ectp/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { encodeLocation } from "./location.js";
import {
  NIXL_MISSING,
  NIXL_SKIP_REASON,
  expectNextWaitSleeps,
  makeTransport,
  open,
  pair,
  pattern,
  resolvedAtOnce,
  until,
} from "./test/helpers.js";

const invalidArgument = expect.objectContaining({ code: "INVALID_ARGUMENT" });

describe.skipIf(NIXL_MISSING)(`NixlTransport read arguments and waits over NIXL${NIXL_SKIP_REASON}`, () => {
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  }, 30_000);

  it("startRead refuses a read id still in flight, or settled but not yet polled", async () => {
    const { a, b } = await pair();
    const size = 64 << 20;
    const source = b.describe(b.registerMemory(pattern(size, 1)), 0, size);
    const region = a.registerMemory(new Uint8Array(2 * size));
    a.startRead({ readId: 5, peerId: b.localId, source, destination: { region, offset: 0, length: size } });
    expect(() => a.startRead({ readId: 5, peerId: b.localId, source, destination: { region, offset: size, length: size } })).toThrow(invalidArgument);
    // A refused location settles inside startRead and is reported by the next poll: the id is taken until then.
    const refused = { readId: 6, peerId: b.localId, source: new Uint8Array(3), destination: { region, offset: 0, length: 16 } };
    a.startRead(refused);
    expect(() => a.startRead(refused)).toThrow(invalidArgument);
    const got: ReadResult[] = [];
    await until([a, b], () => got.push(...a.poll().reads) >= 2, "reads 5 and 6");
    expect(got.map((r) => r.readId).sort()).toEqual([5, 6]);
  }, 60_000);

  it("startRead and describe refuse another transport's region that has the same id, and nothing lands", async () => {
    const { a, b } = await pair();
    const mine = new Uint8Array(16);
    const ours = a.registerMemory(mine);
    const theirs = b.registerMemory(pattern(16, 3));
    expect(theirs.id).toBe(ours.id);
    const source = b.describe(theirs, 0, 16);
    expect(() => a.startRead({ readId: 1, peerId: b.localId, source, destination: { region: theirs, offset: 0, length: 16 } })).toThrow(invalidArgument);
    expect(() => a.describe(theirs, 0, 16)).toThrow(invalidArgument);
    await new Promise((r) => setTimeout(r, 50));
    expect(a.poll().reads).toEqual([]);
    expect(mine.every((x) => x === 0)).toBe(true);
  });

  it("startRead and describe throw INVALID_ARGUMENT for a range past the region's end", async () => {
    const { a, b } = await pair();
    const source = b.describe(b.registerMemory(pattern(64, 1)), 0, 16);
    const region = a.registerMemory(new Uint8Array(16));
    expect(() => a.startRead({ readId: 1, peerId: b.localId, source, destination: { region, offset: 8, length: 16 } })).toThrow(invalidArgument);
    expect(a.poll().reads).toEqual([]);
    const own = a.registerMemory(new Uint8Array(64));
    expect(() => a.describe(own, 60, 8)).toThrow(invalidArgument);
    expect(() => a.describe(own, 0, 65)).toThrow(invalidArgument);
  });

  it("registerMemory of an empty buffer throws INVALID_ARGUMENT", () => {
    const a = makeTransport("a");
    open.push(a);
    let err: unknown;
    try {
      a.registerMemory(new Uint8Array(0));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EctpError);
    expect(err).toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("[I1] a source location whose address range wraps past 2^64 is refused before NIXL sees it: the read fails, the live peer stays", async () => {
    // NIXL checks a remote descriptor against the peer's loaded sections as addr + len, which wraps:
    // such a range passed, the GET went to a bogus address, and the reader dropped its live peer as gone.
    const { a, b } = await pair();
    const src = b.registerMemory(pattern(1 << 16, 4));
    const region = a.registerMemory(new Uint8Array(1 << 16));
    const got: ReadResult[] = [];
    a.startRead({ readId: 1, peerId: b.localId, source: b.describe(src, 0, 4096), destination: { region, offset: 0, length: 4096 } });
    await until([a, b], () => got.push(...a.poll().reads) > 0, "read 1"); // b's section is loaded now
    const posted = a.counters().totalReads;
    const wrapping = encodeLocation({ address: 2n ** 64n - 4096n, length: 8192, agent: b.localId, section: new Uint8Array(0) });
    a.startRead({ readId: 2, peerId: b.localId, source: wrapping, destination: { region, offset: 0, length: 8192 } });
    const after = a.poll();
    expect(after.reads).toEqual([{ readId: 2, status: "failed", error: "malformed source location: location address range wraps past 2^64" }]);
    expect(after.unreachable).toEqual([]);
    expect(a.counters().totalReads).toBe(posted);
    a.startRead({ readId: 3, peerId: b.localId, source: b.describe(src, 4096, 4096), destination: { region, offset: 4096, length: 4096 } });
    await until([a, b], () => got.push(...a.poll().reads) > 1, "read 3");
    expect(got[1]).toEqual({ readId: 3, status: "done", bytesRead: 4096 });
    expect(region.bytes.subarray(4096, 8192)).toEqual(src.bytes.subarray(4096, 8192));
  });

  it("SharedArrayBuffer views work as registered memory, metadata and messages; a growable SharedArrayBuffer is refused", async () => {
    // The addon took a view's bytes through its ArrayBuffer, which N-API refuses for a
    // SharedArrayBuffer: registering threw INTERNAL, connectPeer threw an untyped error at the
    // call, and a send reported the live peer unreachable.
    const shared = (bytes: Uint8Array) => {
      const out = new Uint8Array(new SharedArrayBuffer(bytes.length + 8), 8, bytes.length);
      out.set(bytes);
      return out;
    };
    const a = makeTransport("a");
    const b = makeTransport("b");
    open.push(a, b);
    await a.connectPeer(b.localId, 1, shared(b.localMetadata()));
    await b.connectPeer(a.localId, 1, shared(a.localMetadata()));
    const src = b.registerMemory(shared(pattern(1 << 17, 6)));
    const region = a.registerMemory(shared(new Uint8Array(1 << 17)));
    const got: ReadResult[] = [];
    a.startRead({ readId: 1, peerId: b.localId, source: b.describe(src, 0, 1 << 17), destination: { region, offset: 0, length: 1 << 17 } });
    a.send(b.localId, shared(new Uint8Array([1, 0, 2])));
    const messages: Uint8Array[] = [];
    let unreachable = 0;
    await until(
      [a, b],
      () => {
        const act = a.poll();
        got.push(...act.reads);
        unreachable += act.unreachable.length;
        messages.push(...b.poll().messages.map((m) => m.bytes));
        return got.length > 0 && messages.length > 0;
      },
      "the read and the message",
    );
    expect(got).toEqual([{ readId: 1, status: "done", bytesRead: 1 << 17 }]);
    expect(region.bytes).toEqual(src.bytes);
    expect(messages).toEqual([new Uint8Array([1, 0, 2])]);
    expect(unreachable).toBe(0);
    const Growable = SharedArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => SharedArrayBuffer;
    expect(() => a.registerMemory(new Uint8Array(new Growable(4096, { maxByteLength: 8192 })))).toThrow(invalidArgument);
  });

  it.each(["cancelled", "deregistered", "disconnected"] as const)("a wait does not spin for a %s read", async (how) => {
    const { a, b } = await pair({ waitSpinUs: 1000 }); // spins for reads of at most 10 MB
    const size = 8 << 20;
    const source = b.describe(b.registerMemory(pattern(size, 5)), 0, size);
    const region = a.registerMemory(new Uint8Array(size));
    a.poll();
    a.startRead({ readId: 1, peerId: b.localId, source, destination: { region, offset: 0, length: size } });
    if (how === "cancelled") a.cancelRead(1);
    else if (how === "deregistered") a.deregisterMemory(region);
    else a.disconnectPeer(b.localId);
    await a.waitForActivity(5);
    expect(a.counters().spinningWaits).toBe(0);
    if (how !== "disconnected") {
      const got: ReadResult[] = [];
      await until([a, b], () => got.push(...a.poll().reads) > 0, "read 1");
      expect(got).toHaveLength(1);
    }
  });

  it("activity a spinning wait reported does not wake the next wait through the engine's late signal, even unpolled", async () => {
    const { a, b } = await pair({ waitSpinUs: 10_000_000 });
    const size = 8 << 20;
    const source = b.describe(b.registerMemory(pattern(size, 3)), 0, size);
    const region = a.registerMemory(new Uint8Array(size));
    a.poll();
    a.startRead({ readId: 1, peerId: b.localId, source, destination: { region, offset: 0, length: size } });
    expect(await resolvedAtOnce(a.waitForActivity(60_000))).toBe(true); // the spin saw the read land
    await new Promise((r) => setTimeout(r, 50)); // the engine's signal arrives now; nobody polls
    await expectNextWaitSleeps(a);
    expect(a.poll().reads).toEqual([{ readId: 1, status: "done", bytesRead: size }]);
  });

  it("an idle agent's engine sleeps once busyWindowMs has passed: a few loop turns per 5 ms, not a spin", async () => {
    const a = makeTransport("a");
    open.push(a);
    await new Promise((r) => setTimeout(r, 300)); // past busyWindowMs (100 ms) since the last activity
    const rounds0 = a.counters().engineRounds;
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 500));
    const rounds = a.counters().engineRounds - rounds0;
    // Backed off to idlePollMaxUs (5 ms), it turns ~100 times in 500 ms; a spinning engine, millions.
    expect(rounds).toBeLessThan((performance.now() - t0) * 2 + 1000);
  });
});

describe.skipIf(NIXL_MISSING)(`NixlTransport counters over NIXL${NIXL_SKIP_REASON}`, () => {
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  }, 30_000);

  it("notifsIn counts every message received, also those taken in by a read's probe of its peer before a section load", async () => {
    const { a, b } = await pair();
    const rounds = 40;
    const perRound = 25;
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < perRound; i++) b.send(a.localId, new Uint8Array([round, i, 0xec]));
      // A region whose section `a` has not loaded: the read goes to the engine, which pings the
      // peer and takes in its pending notifications before loading the section.
      const source = b.describe(b.registerMemory(pattern(64, round)), 0, 64);
      const region = a.registerMemory(new Uint8Array(64));
      a.startRead({ readId: round, peerId: b.localId, source, destination: { region, offset: 0, length: 64 } });
    }
    let messages = 0;
    let reads = 0;
    await until(
      [a, b],
      () => {
        const got = a.poll();
        messages += got.messages.length;
        reads += got.reads.length;
        return messages >= rounds * perRound && reads >= rounds;
      },
      "every message and read",
    );
    expect(messages).toBe(rounds * perRound);
    expect(a.counters().notifsIn).toBe(messages);
  }, 60_000);
});

import { EctpError } from "@ectp/protocol";
/**
 * Edges of the transport contract (core/src/transport.ts) the other tests did not pin down: reads
 * whose ranges touch, forged or overlong locations, reads of a crashed owner, reordered messages
 * at their hold limit, reconnection to a restarted peer, location format checks, crash
 * bookkeeping, an observer that polls. Each test fails on a small change of the mock that the
 * other tests let pass (found by mutation testing).
 */
import { describe, expect, it } from "vitest";
import { decodeLocation, encodeLocation } from "./location.js";
import { MockNetwork } from "./network.js";
import { drainReads, pair, pattern, read, readsAt } from "./test-helpers.js";

describe("reads at their edges", () => {
  it("a corrupted zero-length read writes nothing, not even the byte at its offset", async () => {
    const { net, p, c } = await pair({ faults: { default: { corruptRead: 1 } } });
    const src = p.registerMemory(pattern(8));
    const landing = new Uint8Array(8).fill(0xaa);
    const dst = c.registerMemory(landing);
    read(c, p, 1, src, 2, dst, 2, 0);
    expect(drainReads(net, c)).toEqual([{ readId: 1, status: "done", bytesRead: 0 }]);
    expect(landing).toEqual(new Uint8Array(8).fill(0xaa));
  });

  it("hasUnsettledWriteInto: adjacent ranges do not overlap; the default is the whole region", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(8));
    const dst = c.registerMemory(new Uint8Array(8));
    read(c, p, 1, src, 0, dst, 4, 4);
    expect(net.hasUnsettledWriteInto("c", dst, 0, 4)).toBe(false);
    expect(net.hasUnsettledWriteInto("c", dst, 3, 1)).toBe(false);
    expect(net.hasUnsettledWriteInto("c", dst, 3, 2)).toBe(true);
    expect(net.hasUnsettledWriteInto("c", dst)).toBe(true);
    expect(net.hasUnsettledWriteInto("c", dst.id)).toBe(true);
    drainReads(net, c);
    expect(net.hasUnsettledWriteInto("c", dst)).toBe(false);
  });

  it("[I5] hasUnsettledWriteInto: a zero-length read writes nothing at any offset, and a zero-length range holds nothing", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(8));
    const a = c.registerMemory(new Uint8Array(8));
    const b = c.registerMemory(new Uint8Array(8));
    read(c, p, 1, src, 0, a, 0, 0);
    read(c, p, 2, src, 0, b, 5, 0);
    expect(net.unsettledWrites("c")).toHaveLength(2); // both still unsettled
    for (const region of [a, b]) {
      expect(net.hasUnsettledWriteInto("c", region)).toBe(false);
      expect(net.hasUnsettledWriteInto("c", region, 0, 8)).toBe(false);
      expect(net.hasUnsettledWriteInto("c", region, 5, 1)).toBe(false);
    }
    read(c, p, 3, src, 0, a, 2, 4); // writes [2, 6) of a
    expect(net.hasUnsettledWriteInto("c", a, 3, 0)).toBe(false); // an empty range inside it
    expect(net.hasUnsettledWriteInto("c", a, 3, 1)).toBe(true);
    drainReads(net, c);
  });

  it("two reads of one source region: after one settles, deregistering it still records the other", async () => {
    const { net, p, c } = await pair({ bandwidthBytesPerMs: 1, latencyMs: 1 });
    const src = p.registerMemory(pattern(8));
    const dst = c.registerMemory(new Uint8Array(16));
    read(c, p, 1, src, 0, dst, 0, 4); // due 5
    read(c, p, 2, src, 4, dst, 8, 4); // queued behind it: due 9
    net.advanceTo(5);
    expect(c.poll().reads).toEqual([{ readId: 1, status: "done", bytesRead: 4 }]);
    p.deregisterMemory(src);
    expect(net.unsafeDeregistrations()).toMatchObject([
      { side: "source", endpointId: "p", regionId: src.id, reads: [{ endpointId: "c", readId: 2 }] },
    ]);
    expect(drainReads(net, c)).toMatchObject([{ readId: 2, status: "failed" }]);
  });

  it("a (forged) source location longer than the destination fails and writes nothing outside the destination [I5][I6]", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(8, 9));
    const landing = new Uint8Array(12).fill(0xaa);
    const dst = c.registerMemory(landing);
    c.startRead({ readId: 1, peerId: "p", source: p.describe(src, 0, 8), destination: { region: dst, offset: 2, length: 4 } });
    const results = drainReads(net, c);
    expect(results).toMatchObject([{ readId: 1, status: "failed" }]);
    expect(results[0]?.error).toMatch(/covers 8 bytes but the destination expects 4/);
    expect(landing).toEqual(new Uint8Array(12).fill(0xaa));
    // Near the region's end the overlong copy would not even fit: still a failed read, never a throw.
    c.startRead({ readId: 2, peerId: "p", source: p.describe(src, 0, 8), destination: { region: dst, offset: 8, length: 4 } });
    expect(drainReads(net, c)).toMatchObject([{ readId: 2, status: "failed" }]);
  });

  it("a read started after its owner crashed (connection not yet renewed) fails with peerGone [P8]", async () => {
    const { net, p, c } = await pair();
    const source = p.describe(p.registerMemory(pattern(8)), 0, 8);
    const dst = c.registerMemory(new Uint8Array(8));
    net.crash("p");
    c.startRead({ readId: 1, peerId: "p", source, destination: { region: dst, offset: 0, length: 8 } });
    expect(drainReads(net, c)).toMatchObject([{ readId: 1, status: "failed", peerGone: true }]);
    expect(net.faultCounts().crashRead).toBe(1);
  });
});

describe("the data path: a read settled before its transfer ended gives the rest of its slot back", () => {
  it("a read cancelled while transferring gives the rest of its slot back: the reads queued behind it complete earlier", async () => {
    const { net, p, c } = await pair({ bandwidthBytesPerMs: 1, latencyMs: 1 });
    const src = p.registerMemory(pattern(16));
    const dst = c.registerMemory(new Uint8Array(16));
    read(c, p, 1, src, 0, dst, 0, 4); // transfers 0..4, due 5
    read(c, p, 2, src, 4, dst, 4, 4); // queued: 4..8, due 9
    read(c, p, 3, src, 8, dst, 8, 4); // queued: 8..12, due 13
    net.advanceTo(1);
    c.cancelRead(1); // 3 ms of its slot unused: the others move to 1..5 and 5..9
    expect(c.poll().reads).toEqual([{ readId: 1, status: "cancelled" }]);
    expect(readsAt(net, c, 6)).toEqual([{ readId: 2, status: "done", bytesRead: 4 }]);
    // Read 3 (5..9) cancelled at 6: the read queued behind it moves from 9..13 to 6..10, due 11.
    read(c, p, 4, src, 12, dst, 12, 4);
    c.cancelRead(3);
    expect(readsAt(net, c, 10)).toEqual([{ readId: 3, status: "cancelled" }]);
    expect(readsAt(net, c, 11)).toEqual([{ readId: 4, status: "done", bytesRead: 4 }]);
  });

  it("cancelling a read still queued on the data path gives back exactly its slot; the read ahead of it keeps its time, the one behind moves up by the slot only", async () => {
    // README, Model table, Reads: reads on one path queue; a read settled before its transfer ends
    // gives "the rest of its time on the path back: the reads queued behind it move earlier by that much".
    const { net, p, c } = await pair({ bandwidthBytesPerMs: 1, latencyMs: 1 });
    const src = p.registerMemory(pattern(210));
    const dst = c.registerMemory(new Uint8Array(210));
    read(c, p, 1, src, 0, dst, 0, 100); // transfers 0..100, due 101
    read(c, p, 2, src, 100, dst, 100, 100); // queued 100..200, due 201
    read(c, p, 3, src, 200, dst, 200, 10); // queued 200..210, due 211
    net.advanceTo(10);
    c.cancelRead(2); // never started: its whole 100 ms slot is freed, not 190 ms
    expect(c.poll().reads).toEqual([{ readId: 2, status: "cancelled" }]);
    // Read 1 is ahead of the cancelled one: unaffected. Read 3 moves to 100..110, due 111: it cannot
    // transfer while read 1 still holds the path.
    expect(readsAt(net, c, 100)).toEqual([]);
    expect(readsAt(net, c, 101)).toEqual([{ readId: 1, status: "done", bytesRead: 100 }]);
    expect(readsAt(net, c, 110)).toEqual([]);
    expect(readsAt(net, c, 111)).toEqual([{ readId: 3, status: "done", bytesRead: 10 }]);
  });

  it("reads of an owner that crashed give their slots back: a read of its next incarnation is not queued behind them", async () => {
    const { net, p, c } = await pair({ bandwidthBytesPerMs: 1, latencyMs: 1 });
    const src = p.registerMemory(pattern(100));
    const dst = c.registerMemory(new Uint8Array(108));
    read(c, p, 1, src, 0, dst, 0, 100); // 0..100, due 101
    net.crash("p");
    expect(readsAt(net, c, 1)).toMatchObject([{ readId: 1, status: "failed", peerGone: true }]); // one latency later
    const p2 = net.restart("p");
    await c.connectPeer("p", 2, p2.localMetadata());
    const src2 = p2.registerMemory(pattern(8));
    const at = net.now();
    read(c, p2, 2, src2, 0, dst, 100, 8);
    // its own 8 ms and the latency, not behind the rest of the crashed read's 100
    expect(readsAt(net, c, at + 9)).toEqual([{ readId: 2, status: "done", bytesRead: 8 }]);
  });

  it("[P8] every queued read of a crashed owner fails one latency later, also when an earlier read on the path gives its slot back first", async () => {
    // README, faults table: net.crash(id) -> "peers' reads of it fail with peerGone: true one latency later".
    // Two reads queue on the p -> c path (1 byte/ms): read 1 transfers 0..100, read 2 100..200.
    const { net, p, c } = await pair({ bandwidthBytesPerMs: 1, latencyMs: 1 });
    const src = p.registerMemory(pattern(200));
    const dst = c.registerMemory(new Uint8Array(200));
    read(c, p, 1, src, 0, dst, 0, 100);
    read(c, p, 2, src, 100, dst, 100, 100);
    net.advanceTo(10);
    net.crash("p");
    // At 11 read 1 settles and frees the rest of its slot; read 2 moves earlier on the path, but its
    // owner is gone, so it must still settle now, not when its (moved) transfer would have ended.
    expect(readsAt(net, c, 11)).toMatchObject([
      { readId: 1, status: "failed", peerGone: true },
      { readId: 2, status: "failed", peerGone: true },
    ]);
    expect(net.unsettledWrites("c")).toEqual([]);
  });

  it("a crashed reader's reads give their path slots back, so its next incarnation's read is not queued behind them", async () => {
    // README, Model table, Reads: a read that settles before its transfer ends ("cancelled, failed, its
    // owner gone, or its reader crashed") gives the rest of its time on the path back.
    const { net, p, c } = await pair({ bandwidthBytesPerMs: 1, latencyMs: 1 });
    const src = p.registerMemory(pattern(108));
    const dst = c.registerMemory(new Uint8Array(100));
    read(c, p, 1, src, 0, dst, 0, 100); // p -> c path: 0..100, due 101
    net.advanceTo(10);
    net.crash("c");
    const c2 = net.restart("c");
    await c2.connectPeer("p", 1, p.localMetadata());
    const dst2 = c2.registerMemory(new Uint8Array(8));
    read(c2, p, 2, src, 100, dst2, 0, 8); // the same p -> c path, free since the crash: 10..18, due 19
    expect(readsAt(net, c2, 19)).toEqual([{ readId: 2, status: "done", bytesRead: 8 }]);
  });
});

describe("nextEventTime names only events that still do something", () => {
  // README / MockNetwork.nextEventTime: "when the next scheduled event (delivery, read completion,
  // held-message flush) is due": a read settled early (cancelled, its reader crashed) or moved earlier
  // on its path, or a held message already released, has nothing left to do at its old time.
  it("a cancelled read's, a crashed reader's and a moved read's old completion times are not named", async () => {
    const { net, p, c } = await pair({ bandwidthBytesPerMs: 1, latencyMs: 1 });
    const src = p.registerMemory(pattern(200));
    const dst = c.registerMemory(new Uint8Array(200));
    read(c, p, 1, src, 0, dst, 0, 100); // 0..100, due 101
    read(c, p, 2, src, 100, dst, 100, 100); // 100..200, due 201
    c.cancelRead(1); // settles now; read 2 moves to 0..100, due 101
    expect(c.poll().reads).toEqual([{ readId: 1, status: "cancelled" }]);
    expect(net.nextEventTime()).toBe(101); // read 2's new time, not read 1's (101) then read 2's old one (201)
    net.advanceTo(101);
    expect(c.poll().reads).toEqual([{ readId: 2, status: "done", bytesRead: 100 }]);
    expect(net.nextEventTime()).toBeUndefined(); // read 2's old time (201) has nothing left to do
    read(c, p, 3, src, 0, dst, 0, 100);
    net.crash("c");
    expect(net.nextEventTime()).toBeUndefined();
  });

  it("a held message released by the link's next message is not named at its hold limit", async () => {
    const { net, p, c } = await pair({ latencyMs: 1, faults: { default: { reorder: { probability: 1, maxHoldMs: 50 } } } });
    c.send("p", new Uint8Array([1])); // held until 50 and more
    net.setFaults({});
    c.send("p", new Uint8Array([2])); // releases the held one behind it
    net.advanceTo(5);
    expect(p.poll().messages.map((m) => m.bytes[0])).toEqual([2, 1]);
    expect(net.nextEventTime()).toBeUndefined();
  });
});

describe("message order and reconnection", () => {
  it("a held (reordered) message goes behind the link's next message due exactly at its hold limit", async () => {
    const { net, p, c } = await pair({
      latencyMs: 1,
      bandwidthBytesPerMs: 1,
      faults: { default: { reorder: { probability: 1, maxHoldMs: 2 } } },
    });
    c.send("p", new Uint8Array([1])); // due 2, held until 4
    net.setFaults({});
    expect(net.nextEventTime()).toBe(4);
    net.advanceTo(2);
    c.send("p", new Uint8Array([2])); // due 4: exactly the first one's hold limit
    net.advanceTo(4);
    expect(p.poll().messages.map((m) => m.bytes[0])).toEqual([2, 1]);
  });

  it("after a peer restarts, connecting to the new incarnation with a lower epoch replaces the old connection", async () => {
    const net = new MockNetwork({ seed: 1 });
    const c = net.endpoint("c");
    await c.connectPeer("p", 5, net.endpoint("p").localMetadata());
    const p2 = net.restart("p");
    await c.connectPeer("p", 1, p2.localMetadata());
    c.send("p", new Uint8Array([7]));
    net.advanceBy(1);
    expect(c.poll().unreachable).toEqual([]);
    expect(p2.poll().messages.map((m) => [...m.bytes])).toEqual([[7]]);
  });

  it("a delayed message also held by reorder is released behind the link's next message, but never before its own (delayed) due time", async () => {
    // README, Faults table: delay -> "message arrives later"; reorder -> "held until the link's next
    // message went ahead". Releasing a held message must not cancel the delay it was sent with.
    const { net, p, c } = await pair({ latencyMs: 1, bandwidthBytesPerMs: 1e9 });
    net.setFaults({ links: [{ from: "c", to: "p", delay: { probability: 1, minMs: 5, maxMs: 5 }, reorder: { probability: 1, maxHoldMs: 100 } }] });
    c.send("p", new Uint8Array([1])); // due 1 + 5 (delay), held until the next message or 106
    net.setFaults({});
    c.send("p", new Uint8Array([2])); // due 1: goes first and releases the held one
    expect(net.faultCounts()).toMatchObject({ delay: 1, reorder: 1 });
    net.advanceTo(2);
    expect(p.poll().messages.map((m) => [...m.bytes])).toEqual([[2]]);
    net.advanceTo(5.5);
    expect(p.poll().messages).toEqual([]);
    net.advanceTo(7);
    expect(p.poll().messages.map((m) => [...m.bytes])).toEqual([[1]]);
  });
});

describe("location blobs", () => {
  it("an endpoint id with a lone 0x80 byte is invalid UTF-8, not U+0080", () => {
    const bytes = encodeLocation({ endpointId: "x", incarnation: 1, regionId: 1, offset: 0, length: 1 }, new Uint8Array([0x61, 0x80]));
    expect(decodeLocation(bytes).ok).toBe(false);
  });

  it("a location of another format version is refused", () => {
    const bytes = encodeLocation({ endpointId: "p", incarnation: 1, regionId: 1, offset: 0, length: 1 });
    bytes[3] = 2;
    const d = decodeLocation(bytes);
    expect(d.ok).toBe(false);
    expect(d.ok ? "" : d.error).toMatch(/version 2/);
  });
});

describe("local misuse and crash bookkeeping", () => {
  it("a negative destination offset throws INVALID_ARGUMENT at startRead, not a RangeError later", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(8));
    const dst = c.registerMemory(new Uint8Array(8));
    const op = { readId: 1, peerId: "p", source: p.describe(src, 0, 4), destination: { region: dst, offset: -1, length: 4 } };
    expect(() => c.startRead(op)).toThrow(/INVALID_ARGUMENT/);
    expect(() => drainReads(net, c)).not.toThrow();
  });

  it("a crash loses the settled reads and unreachable peers it had queued, not only messages", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(8));
    const dst = c.registerMemory(new Uint8Array(8));
    read(c, p, 1, src, 0, dst, 0, 8);
    c.cancelRead(1); // a settled read queued for poll
    c.send("nobody", new Uint8Array(1)); // an unreachable peer queued for poll
    expect(c.hasActivity()).toBe(true);
    net.crash("c");
    expect(c.hasActivity()).toBe(false);
    expect(c.poll()).toEqual({ messages: [], reads: [], unreachable: [] });
  });

  it("unsettledWrites(endpointId) lists that endpoint's reads only", async () => {
    const { net, p, c } = await pair();
    const cSrc = c.registerMemory(pattern(8, 1));
    const pSrc = p.registerMemory(pattern(8, 2));
    read(c, p, 1, pSrc, 0, c.registerMemory(new Uint8Array(8)), 0, 8);
    read(p, c, 2, cSrc, 0, p.registerMemory(new Uint8Array(8)), 0, 8);
    expect(net.unsettledWrites("c").map((w) => [w.endpointId, w.readId])).toEqual([["c", 1]]);
    expect(net.unsettledWrites("p").map((w) => [w.endpointId, w.readId])).toEqual([["p", 2]]);
    expect(net.unsettledWrites()).toHaveLength(2);
  });
});

describe("re-entry and status", () => {
  it("an observer that polls during a delivery does not run later events nested inside it", async () => {
    const { net, p, c } = await pair();
    const seen: number[][] = [];
    net.observe({ onDeliver: () => seen.push(p.poll().messages.map((m) => m.bytes[0]!)) });
    c.send("p", new Uint8Array([1]));
    c.send("p", new Uint8Array([2])); // due at the same time
    net.advanceTo(net.nextEventTime()!);
    expect(seen).toEqual([[1], [2]]);
  });

  it("during an event, net.now() is that event's time, also for what an observer does then", async () => {
    const { net, p, c } = await pair();
    const seen: { at: number; now: number }[] = [];
    net.observe({
      onDeliver: (e) => {
        seen.push({ at: e.at, now: net.now() });
        if (e.to === "p") p.send("c", new Uint8Array([2])); // an in-process responder answers at once
      },
    });
    c.send("p", new Uint8Array([1]));
    const due = net.nextEventTime()!;
    net.advanceTo(100); // one advance runs the delivery and the answer it triggers
    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual({ at: due, now: due });
    expect(seen[1]!.now).toBe(seen[1]!.at);
    expect(seen[1]!.at).toBeCloseTo(2 * due, 9); // the answer left at `due`, not at the advance's start
  });

  it("live is false after close as well as after a crash", async () => {
    const net = new MockNetwork({ seed: 1 });
    const a = net.endpoint("a");
    const b = net.endpoint("b");
    expect([a.live, b.live]).toEqual([true, true]);
    await a.close();
    net.crash("b");
    expect([a.live, a.status, b.live, b.status]).toEqual([false, "closed", false, "crashed"]);
  });

  it("a negative timeout has already run out, so the wait resolves at once on virtual time (as 0 does)", async () => {
    // Transport.waitForActivity: resolve when poll may have something new "or after timeoutMs, whichever
    // comes first"; waits.ts treats NaN as 0, "never as forever". Nothing is due here, so a wait that
    // is not resolved at once would need someone to advance the network.
    const { c } = await pair();
    let resolved = false;
    void c.waitForActivity(-5).then(() => {
      resolved = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(resolved).toBe(true);
  });
});

describe("local misuse and documented orders", () => {
  it("observe(null) is refused with a typed error, not accepted and then a TypeError out of a later advance (that leaves a read unsettled)", async () => {
    const { net, p, c } = await pair();
    let refused: unknown;
    try {
      net.observe(null as never);
    } catch (e) {
      refused = e;
    }
    const src = p.registerMemory(pattern(4));
    const dst = c.registerMemory(new Uint8Array(4));
    read(c, p, 1, src, 0, dst, 0, 4);
    let later: unknown;
    try {
      net.advanceBy(1);
    } catch (e) {
      later = e;
    }
    expect(refused).toBeInstanceOf(EctpError);
    expect(later).toBeUndefined();
  });

  it("an observer that throws while a read completes fails that call, not the read: it settles failed once, its id is free again", async () => {
    for (const [observer, faults] of [
      ["onWrite", undefined],
      ["onFault", { links: [{ from: "c", to: "p", failRead: 1 }] }],
      ["onFault", { links: [{ from: "c", to: "p", corruptRead: 1 }] }],
    ] as const) {
      const { net, p, c } = await pair();
      if (faults !== undefined) net.setFaults(faults);
      let throws = 1;
      net.observe({
        [observer]: () => {
          if (throws-- > 0) throw new Error("observer assertion failed");
        },
      });
      const src = p.registerMemory(pattern(4));
      const dst = c.registerMemory(new Uint8Array(4));
      read(c, p, 1, src, 0, dst, 0, 4);
      expect(() => net.advanceBy(1), observer).toThrow("observer assertion failed");
      expect(drainReads(net, c).map((r) => [r.readId, r.status]), observer).toEqual([[1, "failed"]]);
      expect([net.unsettledWrites(), net.nextEventTime()], observer).toEqual([[], undefined]);
      read(c, p, 1, src, 0, dst, 0, 4); // the id may be used again
      expect(drainReads(net, c).map((r) => r.readId), observer).toEqual([1]);
    }
  });

  it("a fault plan whose links array has a hole is refused INVALID_CONFIG naming the hole, never a TypeError at send", () => {
    // biome-ignore lint/suspicious/noSparseArray: the point of the test
    const links = [, { from: "c", to: "p", drop: 1 }] as never;
    expect(() => new MockNetwork({ seed: 1, faults: { links } })).toThrow(
      expect.objectContaining({ code: "INVALID_CONFIG", message: expect.stringContaining("faults.links[0] must be an object of faults, got nothing") }),
    );
  });

  it("unsettledWrites() lists reads in start order across endpoints, as documented", async () => {
    const net = new MockNetwork({ seed: 1, latencyMs: 10 });
    const p = net.endpoint("p");
    const c1 = net.endpoint("c1");
    const c2 = net.endpoint("c2");
    await c1.connectPeer("p", 1, p.localMetadata());
    await c2.connectPeer("p", 1, p.localMetadata());
    const src = p.registerMemory(pattern(4));
    const d1 = c1.registerMemory(new Uint8Array(4));
    const d2 = c2.registerMemory(new Uint8Array(4));
    read(c2, p, 1, src, 0, d2, 0, 4);
    net.advanceBy(1);
    read(c1, p, 1, src, 0, d1, 0, 4);
    expect(net.unsettledWrites().map((w) => w.endpointId)).toEqual(["c2", "c1"]);
    drainReads(net, c1);
  });

  it("deregisterMemory refuses another endpoint's region that wraps the same bytes (a foreign region)", async () => {
    const { p, c } = await pair();
    const shared = new Uint8Array(8);
    const mine = c.registerMemory(shared);
    const theirs = p.registerMemory(shared);
    expect(theirs.id).toBe(mine.id);
    expect(() => c.deregisterMemory(theirs)).toThrow(EctpError);
  });
});

describe("fault plans: a required field missing", () => {
  it.each(["delay", "reorder", "stallRead"])("a %s fault without its (required) probability is refused INVALID_CONFIG instead of silently never firing", (name) => {
    expect(() => new MockNetwork({ seed: 1, faults: { default: { [name]: {} } as never } })).toThrow(EctpError);
  });
});

describe("a crash of an owner whose reader had already disconnected it", () => {
  it("a read still in flight from the crashed owner fails with peerGone one latency after the crash, as for a connected reader", async () => {
    const { net, p, c } = await pair({ faults: { links: [{ from: "c", to: "p", stallRead: { probability: 1, durationMs: 30_000 } }] } });
    const src = p.registerMemory(pattern(4));
    const dst = c.registerMemory(new Uint8Array(4));
    read(c, p, 1, src, 0, dst, 0, 4);
    c.disconnectPeer("p"); // e.g. the consumer dropped the peer after a send to it was reported unreachable
    net.advanceBy(1);
    net.crash("p");
    net.advanceBy(1); // one latency (0.05 ms) and more
    expect(c.poll().reads).toEqual([expect.objectContaining({ readId: 1, status: "failed", peerGone: true })]);
  });
});

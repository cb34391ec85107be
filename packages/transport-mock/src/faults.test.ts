import { crc32c } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { FaultPlan } from "./faults.js";
import type { FaultEvent, WriteEvent } from "./observer.js";
import { DEFAULT_LATENCY_MS, MockNetwork } from "./network.js";
import { drainReads, pair, pattern, read } from "./test-helpers.js";

/** Send `n` two-byte numbered messages c -> p and return the numbers p received, in order. */
async function numbered(n: number, faults: FaultPlan, seed = 7) {
  const { net, p, c } = await pair({ seed, faults });
  for (let i = 0; i < n; i++) {
    c.send("p", new Uint8Array([i >> 8, i & 0xff]));
    net.advanceBy(0.01);
  }
  const got: number[] = [];
  for (let next = net.nextEventTime(); next !== undefined; next = net.nextEventTime()) {
    net.advanceTo(Math.max(next, net.now()));
    for (const m of p.poll().messages) got.push((m.bytes[0]! << 8) | m.bytes[1]!);
  }
  return { net, got };
}

describe("fault injector: control messages", () => {
  it("drop loses messages and counts each loss", async () => {
    const { net, got } = await numbered(300, { default: { drop: 0.3 } });
    const dropped = net.faultCounts().drop;
    expect(dropped).toBeGreaterThan(50);
    expect(dropped).toBeLessThan(130);
    expect(got.length).toBe(300 - dropped);
    expect(got).toEqual([...got].sort((a, b) => a - b)); // what survives keeps its order
  });

  it("delay holds a message back by the configured extra time", async () => {
    const { net, p, c } = await pair({ faults: { default: { delay: { probability: 1, minMs: 5, maxMs: 5 } } } });
    c.send("p", new Uint8Array([1]));
    net.advanceTo(DEFAULT_LATENCY_MS + 4.9);
    expect(p.poll().messages).toEqual([]);
    net.advanceTo(DEFAULT_LATENCY_MS + 5.1);
    expect(p.poll().messages).toHaveLength(1);
    expect(net.faultCounts().delay).toBe(1);
  });

  it("delay without minMs and maxMs adds between 0 and 10 ms (the defaults)", async () => {
    const { net, p, c } = await pair({ faults: { default: { delay: { probability: 1 } } } });
    const extra: number[] = [];
    let sentAt = 0;
    net.observe({ onDeliver: (e) => extra.push(e.at - sentAt - DEFAULT_LATENCY_MS - 1 / 10_000_000) });
    for (let i = 0; i < 40; i++) {
      sentAt = net.now();
      c.send("p", new Uint8Array([i]));
      net.advanceBy(20); // past the longest delay: each delivery is measured from its own send
      expect(p.poll().messages).toHaveLength(1);
    }
    expect(extra).toHaveLength(40);
    expect(Math.min(...extra)).toBeGreaterThanOrEqual(-1e-9);
    expect(Math.max(...extra)).toBeLessThanOrEqual(10 + 1e-9);
    expect(Math.max(...extra)).toBeGreaterThan(5); // spread over the whole default range, not a narrower one
  });

  it("delay lets later messages overtake a delayed one", async () => {
    const { net, got } = await numbered(200, { default: { delay: { probability: 0.2, minMs: 0, maxMs: 3 } } });
    expect(net.faultCounts().delay).toBeGreaterThan(10);
    expect([...got].sort((a, b) => a - b)).toEqual([...Array(200).keys()]);
    expect(got).not.toEqual([...Array(200).keys()]);
  });

  it("duplicate delivers two independent copies", async () => {
    const { net, p, c } = await pair({ faults: { default: { duplicate: 1 } } });
    c.send("p", new Uint8Array([5, 6]));
    net.advanceBy(1);
    const got = p.poll().messages;
    expect(got.map((m) => [...m.bytes])).toEqual([
      [5, 6],
      [5, 6],
    ]);
    got[0]!.bytes[0] = 0;
    expect(got[1]!.bytes[0]).toBe(5);
    expect(got.map((m) => m.attachment)).toEqual([undefined, undefined]);
    expect(net.faultCounts().duplicate).toBe(1);
  });

  it("duplicate of a send with an attachment delivers the sender's object and bytes twice, as handed over", async () => {
    const { net, p, c } = await pair({ faults: { default: { duplicate: 1 } } });
    const envelope = { readRequest: {} };
    const bytes = new Uint8Array([5, 6]);
    c.send("p", bytes, envelope);
    net.advanceBy(1);
    const got = p.poll().messages;
    expect(got).toHaveLength(2);
    for (const m of got) {
      expect(m.attachment).toBe(envelope);
      expect(m.bytes).toBe(bytes);
    }
    expect(net.faultCounts().duplicate).toBe(1);
  });

  it("reorder delivers a held message after the link's next one, and never loses it", async () => {
    const { net, got } = await numbered(200, { default: { reorder: { probability: 0.2 } } });
    const reordered = net.faultCounts().reorder;
    expect(reordered).toBeGreaterThan(10);
    expect([...got].sort((a, b) => a - b)).toEqual([...Array(200).keys()]);
    let inversions = 0;
    for (let i = 1; i < got.length; i++) if (got[i]! < got[i - 1]!) inversions++;
    expect(inversions).toBeGreaterThan(0);
    expect(inversions).toBeLessThanOrEqual(reordered);
    // A lone held message with no later message is flushed after maxHoldMs.
    const lone = await numbered(1, { default: { reorder: { probability: 1, maxHoldMs: 2 } } });
    expect(lone.got).toEqual([0]);
    expect(lone.net.now()).toBeCloseTo(DEFAULT_LATENCY_MS + 2 / 1e7 + 2, 6); // sent at 0, due + maxHoldMs
  });

  it("reorder holds a message at most maxHoldMs past its due time, even when the next message is delayed", async () => {
    const { net, p, c } = await pair();
    const arrivals: { at: number }[] = [];
    net.observe({ onDeliver: (e) => arrivals.push({ at: e.at }) });
    const drain = () => {
      const got: number[] = [];
      for (let next = net.nextEventTime(); next !== undefined; next = net.nextEventTime()) {
        net.advanceTo(Math.max(next, net.now()));
        for (const m of p.poll().messages) got.push(m.bytes[0]!);
      }
      return got;
    };
    const due1 = DEFAULT_LATENCY_MS + 1 / 1e7;
    // Message 1 is held (at most 5 ms); message 2, sent 1 ms later, is delayed by 2 s.
    net.setFaults({ default: { reorder: { probability: 1, maxHoldMs: 5 } } });
    c.send("p", new Uint8Array([1]));
    net.advanceBy(1);
    net.setFaults({ default: { delay: { probability: 1, minMs: 2000, maxMs: 2000 } } });
    c.send("p", new Uint8Array([2]));
    net.setFaults({});
    expect(drain()).toEqual([1, 2]);
    expect(arrivals[0]!.at).toBeCloseTo(due1 + 5, 9); // its own due time + maxHoldMs, not message 2's
    expect(arrivals[1]!.at).toBeCloseTo(1 + due1 + 2000, 9);
    expect(net.faultCounts()).toMatchObject({ reorder: 1, delay: 1 });

    // Still reordered behind a next message due within the hold: delivered right after it.
    const t0 = net.now();
    arrivals.length = 0;
    net.setFaults({ default: { reorder: { probability: 1, maxHoldMs: 5 } } });
    c.send("p", new Uint8Array([3]));
    net.advanceBy(1);
    net.setFaults({});
    c.send("p", new Uint8Array([4]));
    expect(drain()).toEqual([4, 3]);
    expect(arrivals.map((x) => x.at - t0)).toEqual([1 + due1, 1 + due1].map((x) => expect.closeTo(x, 9)));

    // A held message passed by a delayed message can still be overtaken by a later one within its hold.
    const t1 = net.now();
    arrivals.length = 0;
    net.setFaults({ default: { reorder: { probability: 1, maxHoldMs: 5 } } });
    c.send("p", new Uint8Array([5]));
    net.advanceBy(1);
    net.setFaults({ default: { delay: { probability: 1, minMs: 2000, maxMs: 2000 } } });
    c.send("p", new Uint8Array([6]));
    net.advanceBy(1);
    net.setFaults({});
    c.send("p", new Uint8Array([7]));
    expect(drain()).toEqual([7, 5, 6]);
    expect(arrivals.map((x) => x.at - t1)).toEqual([2 + due1, 2 + due1, 1 + due1 + 2000].map((x) => expect.closeTo(x, 9)));
  });

  it("partition loses messages both ways until healed, and counts them", async () => {
    const { net, p, c } = await pair();
    net.partition("c", "p");
    c.send("p", new Uint8Array([1]));
    p.send("c", new Uint8Array([2]));
    net.advanceBy(1);
    expect(p.poll()).toEqual({ messages: [], reads: [], unreachable: [] });
    expect(c.poll().messages).toEqual([]);
    expect(net.faultCounts().partitionMessage).toBe(2);
    net.heal("c", "p");
    c.send("p", new Uint8Array([3]));
    net.advanceBy(1);
    expect(p.poll().messages.map((m) => [...m.bytes])).toEqual([[3]]);
  });

  it("per-link faults override the default only on their directed link, and can change at run time", async () => {
    const { net, p, c } = await pair();
    net.setFaults({ links: [{ from: "c", to: "p", drop: 1 }] });
    c.send("p", new Uint8Array([1]));
    p.send("c", new Uint8Array([2]));
    net.advanceBy(1);
    expect(p.poll().messages).toEqual([]);
    expect(c.poll().messages).toHaveLength(1);
    expect(net.faultCounts().drop).toBe(1);
    net.setFaults({});
    c.send("p", new Uint8Array([3]));
    net.advanceBy(1);
    expect(p.poll().messages).toHaveLength(1);
    expect(net.faults()).toEqual({ default: {}, links: [] });
  });

  it("messages in flight vanish when their receiver or sender crashes", async () => {
    const { net, p, c } = await pair();
    const x = net.endpoint("x");
    await c.connectPeer("x", 1, x.localMetadata());
    c.send("p", new Uint8Array([1]));
    c.send("x", new Uint8Array([2]));
    net.crash("x"); // receiver
    net.crash("c"); // sender
    net.advanceBy(1);
    expect(p.poll().messages).toEqual([]);
    expect(net.faultCounts().crashMessage).toBe(2);
  });
});

describe("fault injector: reads", () => {
  it("failRead fails the read after writing a partial prefix", async () => {
    const { net, p, c } = await pair({ faults: { default: { failRead: 1 } } });
    const srcBytes = pattern(1000, 1);
    const dstBytes = new Uint8Array(1000);
    const writes: WriteEvent[] = [];
    net.observe({ onWrite: (e) => writes.push(e) });
    read(c, p, 1, p.registerMemory(srcBytes), 0, c.registerMemory(dstBytes), 0, 1000);
    expect(drainReads(net, c)).toEqual([{ readId: 1, status: "failed", error: "injected transfer failure (failRead fault)" }]);
    expect(net.faultCounts().failRead).toBe(1);
    expect(writes).toHaveLength(1);
    const w = writes[0]!;
    expect(w.partial).toBe(true);
    expect(w.length).toBeLessThan(1000);
    expect(dstBytes.subarray(0, w.length)).toEqual(srcBytes.subarray(0, w.length));
    expect(dstBytes.subarray(w.length).every((x) => x === 0)).toBe(true);
  });

  it("stallRead holds a read past its timeout, ignores cancel, then settles late as done [C8]", async () => {
    const { net, p, c } = await pair({ faults: { default: { stallRead: { probability: 1, durationMs: 30_000 } } } });
    const srcBytes = pattern(4096, 2);
    const dstBytes = new Uint8Array(4096);
    const dst = c.registerMemory(dstBytes);
    read(c, p, 1, p.registerMemory(srcBytes), 0, dst, 0, 4096);
    net.advanceTo(20_000); // the consumer's transfer timeout would fire here and cancel
    c.cancelRead(1);
    expect(c.poll().reads).toEqual([]);
    expect(net.unsettledWrites()).toMatchObject([{ endpointId: "c", readId: 1, stalled: true, dueAt: 30_000 }]);
    expect(net.hasUnsettledWriteInto("c", dst, 100, 1)).toBe(true); // quarantine must keep this memory
    net.advanceTo(30_000);
    expect(c.poll().reads).toEqual([{ readId: 1, status: "done", bytesRead: 4096 }]);
    expect(dstBytes).toEqual(srcBytes); // the late write really happens
    expect(net.faultCounts().stallRead).toBe(1);
  });

  it("stallRead with settle 'failed' settles late as failed without writing", async () => {
    const { net, p, c } = await pair({
      faults: { default: { stallRead: { probability: 1, durationMs: 500, settle: "failed" } } },
    });
    const dstBytes = new Uint8Array(8);
    read(c, p, 1, p.registerMemory(pattern(8, 1)), 0, c.registerMemory(dstBytes), 0, 8);
    net.advanceTo(499);
    expect(c.poll().reads).toEqual([]);
    net.advanceTo(500);
    expect(c.poll().reads).toEqual([
      { readId: 1, status: "failed", error: "injected stalled read ended in failure (stallRead fault)" },
    ]);
    expect(dstBytes.every((x) => x === 0)).toBe(true);
  });

  it("failRead writes a strict prefix: never the whole destination, so a 1-byte read writes nothing", async () => {
    const { net, p, c } = await pair({ faults: { default: { failRead: 1 } } });
    const src = p.registerMemory(pattern(32, 3).map((x) => x | 1)); // no zero byte: any write shows
    const dstBytes = new Uint8Array(32);
    const dst = c.registerMemory(dstBytes);
    const writes: WriteEvent[] = [];
    net.observe({ onWrite: (e) => writes.push(e) });
    for (let i = 0; i < 32; i++) read(c, p, i + 1, src, i, dst, i, 1);
    const results = drainReads(net, c);
    expect(results).toHaveLength(32);
    expect(results.every((r) => r.status === "failed")).toBe(true);
    expect(writes.map((w) => w.length)).toEqual(Array(32).fill(0));
    expect(dstBytes.every((x) => x === 0)).toBe(true);
  });

  it("stallRead with settle 'failed' ignores cancel too, and settles late as failed [C8]", async () => {
    const { net, p, c } = await pair({
      faults: { default: { stallRead: { probability: 1, durationMs: 500, settle: "failed" } } },
    });
    read(c, p, 1, p.registerMemory(pattern(8, 1)), 0, c.registerMemory(new Uint8Array(8)), 0, 8);
    net.advanceTo(100);
    c.cancelRead(1);
    expect(c.poll().reads).toEqual([]);
    expect(net.unsettledWrites()).toMatchObject([{ endpointId: "c", readId: 1, stalled: true, dueAt: 500 }]);
    net.advanceTo(500);
    expect(c.poll().reads).toEqual([
      { readId: 1, status: "failed", error: "injected stalled read ended in failure (stallRead fault)" },
    ]);
  });

  it("corruptRead flips exactly one destination byte so a checksum catches it [C11]", async () => {
    const { net, p, c } = await pair({ faults: { default: { corruptRead: 1 } } });
    const srcBytes = pattern(65_536, 4);
    const dstBytes = new Uint8Array(65_536);
    read(c, p, 1, p.registerMemory(srcBytes), 0, c.registerMemory(dstBytes), 0, 65_536);
    expect(drainReads(net, c)).toEqual([{ readId: 1, status: "done", bytesRead: 65_536 }]);
    let differing = 0;
    for (let i = 0; i < srcBytes.length; i++) if (srcBytes[i] !== dstBytes[i]) differing++;
    expect(differing).toBe(1);
    expect(crc32c(dstBytes)).not.toBe(crc32c(srcBytes));
    expect(net.faultCounts().corruptRead).toBe(1);
  });

  it("a read that asks for crc32c reports the CRC-32C of the bytes that landed, corruption included [C11]", async () => {
    const { net, p, c } = await pair({ faults: { default: { corruptRead: 1 } } });
    const srcBytes = pattern(4096, 5);
    const dstBytes = new Uint8Array(4096 + 8);
    const src = p.registerMemory(srcBytes);
    c.startRead({
      readId: 1,
      peerId: p.localId,
      source: p.describe(src, 0, 4096),
      destination: { region: c.registerMemory(dstBytes), offset: 8, length: 4096 },
      crc32c: true,
    });
    c.startRead({ readId: 2, peerId: p.localId, source: p.describe(src, 0, 4096), destination: { region: c.registerMemory(new Uint8Array(4096)), offset: 0, length: 4096 } });
    const [asked, plain] = drainReads(net, c);
    expect(asked).toEqual({ readId: 1, status: "done", bytesRead: 4096, crc32c: crc32c(dstBytes.subarray(8)) });
    expect(asked?.crc32c).not.toBe(crc32c(srcBytes));
    expect(plain).toEqual({ readId: 2, status: "done", bytesRead: 4096 });
  });

  it("a partitioned link fails reads at their due time; counts them", async () => {
    const { net, p, c } = await pair();
    net.partition("c", "p", true);
    read(c, p, 1, p.registerMemory(pattern(8)), 0, c.registerMemory(new Uint8Array(8)), 0, 8);
    expect(drainReads(net, c)).toEqual([{ readId: 1, status: "failed", error: 'the link "c" -> "p" is partitioned' }]);
    expect(net.faultCounts().partitionRead).toBe(1);
  });

  it("[P8] a partitioned read of an owner that crashes fails with peerGone one latency later, counted crashRead, not partitionRead", async () => {
    const { net, p, c } = await pair({ bandwidthBytesPerMs: 1 }); // a 64-byte read takes 64 ms
    const src = p.registerMemory(pattern(64));
    const dst = c.registerMemory(new Uint8Array(64));
    net.partition("c", "p");
    read(c, p, 1, src, 0, dst, 0, 64);
    net.advanceBy(1);
    net.crash("p");
    net.advanceBy(1); // one latency (0.05 ms) and more
    expect(c.poll().reads).toEqual([{ readId: 1, status: "failed", error: 'peer "p" is gone (crashed during the read)', peerGone: true }]);
    expect(net.faultCounts()).toMatchObject({ crashRead: 1, partitionRead: 0 });
  });

  it("fault probabilities near their configured rate, and onFault reports each one", async () => {
    const { net, p, c } = await pair({ seed: 11, faults: { default: { failRead: 0.25, corruptRead: 0.25 } } });
    const faults: FaultEvent[] = [];
    net.observe({ onFault: (e) => faults.push(e) });
    const src = p.registerMemory(pattern(64));
    const dst = c.registerMemory(new Uint8Array(64 * 400));
    for (let i = 0; i < 400; i++) read(c, p, i, src, 0, dst, i * 64, 64);
    const results = drainReads(net, c);
    const counts = net.faultCounts();
    expect(results.filter((r) => r.status === "failed")).toHaveLength(counts.failRead);
    expect(counts.failRead).toBeGreaterThan(60);
    expect(counts.failRead).toBeLessThan(140);
    expect(counts.corruptRead).toBeGreaterThan(40); // 0.25 of the ~300 that did not fail
    expect(faults.filter((f) => f.kind === "failRead")).toHaveLength(counts.failRead);
    expect(faults.filter((f) => f.kind === "corruptRead")).toHaveLength(counts.corruptRead);
  });
});

describe("fault plans: scope and validation", () => {
  it("a per-link fault applies to that directed link only, not to links sharing its sender or its receiver", async () => {
    const net = new MockNetwork({ seed: 1, faults: { links: [{ from: "a", to: "b", drop: 1 }] } });
    const a = net.endpoint("a");
    const b = net.endpoint("b");
    const c = net.endpoint("c");
    await a.connectPeer("c", 1, c.localMetadata());
    await c.connectPeer("b", 1, b.localMetadata());
    a.send("c", new Uint8Array([1]));
    c.send("b", new Uint8Array([2]));
    net.advanceBy(1);
    expect(c.poll().messages).toHaveLength(1);
    expect(b.poll().messages).toHaveLength(1);
    expect(net.faultCounts().drop).toBe(0);
  });

  it("plans with minMs above maxMs, an unknown stall outcome or an infinite hold are refused", () => {
    const net = new MockNetwork({ seed: 1 });
    expect(() => net.setFaults({ default: { delay: { probability: 1, minMs: 20, maxMs: 5 } } })).toThrow(/delay\.minMs \(20\) is larger than maxMs \(5\)/);
    expect(() => net.setFaults({ default: { stallRead: { probability: 1, settle: "late" as never } } })).toThrow(/stallRead\.settle must be "done" or "failed"/);
    expect(() => net.setFaults({ default: { reorder: { probability: 1, maxHoldMs: Number.POSITIVE_INFINITY } } })).toThrow(/maxHoldMs must be a finite number/);
  });

  it("heal() keeps a user's own link entry that also sets other faults, and adds its own after it", () => {
    const net = new MockNetwork({ seed: 1, faults: { links: [{ from: "a", to: "b", partitioned: true, drop: 1 }] } });
    net.heal("a", "b", true);
    expect(net.faults().links).toEqual([
      { from: "a", to: "b", partitioned: true, drop: 1 },
      { from: "a", to: "b", partitioned: false },
    ]);
  });

  it("[I5] a corrupted read cancelled by an observer during its write gets no flipped byte after the cancel", async () => {
    const { net, p, c } = await pair({ faults: { default: { corruptRead: 1 } } });
    const dst = new Uint8Array(16);
    const region = c.registerMemory(dst);
    let atCancel: Uint8Array | undefined;
    net.observe({
      onWrite: (e) => {
        if (e.readId !== 1 || atCancel) return;
        c.cancelRead(1);
        atCancel = dst.slice();
      },
    });
    read(c, p, 1, p.registerMemory(pattern(16)), 0, region, 0, 16);
    net.advanceBy(10);
    expect(c.poll().reads).toEqual([{ readId: 1, status: "cancelled" }]);
    expect(dst).toEqual(atCancel);
    expect(net.faultCounts().corruptRead).toBe(0);
  });
});

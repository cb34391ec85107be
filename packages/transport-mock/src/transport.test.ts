import type { MemoryRegion, ReadOperation } from "@ectp/core";
import { EctpError } from "@ectp/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_BANDWIDTH_BYTES_PER_MS, DEFAULT_LATENCY_MS, MockNetwork } from "./network.js";
import { drainReads, pair, pattern, read } from "./test-helpers.js";

describe("MockTransport reads", () => {
  it.each([1, 2, 7, 255, 4096, 65_537, 1 << 20, 4 << 20])("copies %i bytes byte-exactly at odd offsets [I6]", async (n) => {
    const { net, p, c } = await pair();
    const srcBytes = pattern(n + 13, n);
    const src = p.registerMemory(srcBytes);
    const dstBytes = new Uint8Array(n + 20).fill(0xaa);
    const dst = c.registerMemory(dstBytes);
    read(c, p, 1, src, 13, dst, 3, n);
    expect(dstBytes[3]).toBe(0xaa); // nothing lands before completion
    const results = drainReads(net, c);
    expect(results).toEqual([{ readId: 1, status: "done", bytesRead: n }]);
    expect(Buffer.compare(dstBytes.subarray(3, 3 + n), srcBytes.subarray(13, 13 + n))).toBe(0);
    // Bytes around the destination are untouched.
    expect(dstBytes[2]).toBe(0xaa);
    expect(dstBytes[3 + n]).toBe(0xaa);
  });

  it("completes after size / bandwidth + latency of virtual time", async () => {
    const { net, p, c } = await pair();
    const n = 1 << 20;
    const src = p.registerMemory(pattern(n));
    const dst = c.registerMemory(new Uint8Array(n));
    read(c, p, 1, src, 0, dst, 0, n);
    const due = n / DEFAULT_BANDWIDTH_BYTES_PER_MS + DEFAULT_LATENCY_MS;
    expect(net.nextEventTime()).toBeCloseTo(due, 9);
    net.advanceTo(due * 0.99);
    expect(c.poll().reads).toEqual([]);
    net.advanceTo(due);
    expect(c.poll().reads).toEqual([{ readId: 1, status: "done", bytesRead: n }]);
  });

  it("runs concurrent reads into disjoint destinations, queued on the owner -> reader path", async () => {
    const { net, p, c } = await pair({ bandwidthBytesPerMs: 1000, latencyMs: 1 });
    const srcBytes = pattern(10_000, 3);
    const src = p.registerMemory(srcBytes);
    const dstBytes = new Uint8Array(10_000);
    const dst = c.registerMemory(dstBytes);
    for (let i = 0; i < 10; i++) read(c, p, 100 + i, src, i * 1000, dst, (9 - i) * 1000, 1000);
    expect(net.unsettledWrites("c").map((w) => w.dueAt)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const results = drainReads(net, c);
    expect(results.map((r) => r.readId)).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109]);
    expect(results.every((r) => r.status === "done")).toBe(true);
    for (let i = 0; i < 10; i++) {
      expect(dstBytes.subarray((9 - i) * 1000, (10 - i) * 1000)).toEqual(srcBytes.subarray(i * 1000, (i + 1) * 1000));
    }
  });

  it("property: any in-range slice reads back exactly [I6]", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3000 }),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: 50 }),
        async (length, a, b, pad) => {
          const { net, p, c } = await pair();
          const srcBytes = pattern(length + pad, a);
          const srcOffset = a % (pad + 1);
          const dstBytes = new Uint8Array(length + pad);
          const dstOffset = b % (pad + 1);
          read(c, p, 9, p.registerMemory(srcBytes), srcOffset, c.registerMemory(dstBytes), dstOffset, length);
          expect(drainReads(net, c)).toEqual([{ readId: 9, status: "done", bytesRead: length }]);
          expect(dstBytes.subarray(dstOffset, dstOffset + length)).toEqual(srcBytes.subarray(srcOffset, srcOffset + length));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("cancel settles the read as cancelled and never writes", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(64));
    const dstBytes = new Uint8Array(64);
    const dst = c.registerMemory(dstBytes);
    const writes: number[] = [];
    net.observe({ onWrite: (e) => writes.push(e.readId) });
    read(c, p, 1, src, 0, dst, 0, 64);
    c.cancelRead(1);
    c.cancelRead(1); // idempotent
    c.cancelRead(999); // unknown: ignored
    expect(net.unsettledWrites()).toEqual([]);
    expect(drainReads(net, c)).toEqual([{ readId: 1, status: "cancelled" }]);
    expect(writes).toEqual([]);
    expect(dstBytes.every((x) => x === 0)).toBe(true);
  });

  it("fails reads of a peer that crashes mid-read with peerGone", async () => {
    const { net, p, c } = await pair({ bandwidthBytesPerMs: 100 });
    const src = p.registerMemory(pattern(1000));
    const dstBytes = new Uint8Array(1000);
    const dst = c.registerMemory(dstBytes);
    read(c, p, 1, src, 0, dst, 0, 1000); // due at ~10 ms
    net.advanceTo(2);
    expect(net.crash("p")).toBe(true);
    expect(net.crash("p")).toBe(false);
    net.advanceTo(2 + DEFAULT_LATENCY_MS); // the reader learns one latency after the crash, not at the due time
    const results = c.poll().reads;
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ readId: 1, status: "failed", peerGone: true });
    expect(results[0]?.error).toBe('peer "p" is gone (crashed during the read)');
    expect(drainReads(net, c)).toEqual([]);
    expect(dstBytes.every((x) => x === 0)).toBe(true);
    expect(net.faultCounts()).toMatchObject({ crash: 1, crashRead: 1 });
  });

  it("a read in flight when its owner crashes fails with peerGone whatever the reader's connection does afterwards", async () => {
    // Reconnecting to the restarted owner (a new epoch [P8]), or dropping the connection,
    // within the latency must not turn the crash into a stale-location or not-connected error.
    for (const after of ["reconnect", "disconnect", "nothing"] as const) {
      const { net, p, c } = await pair({ bandwidthBytesPerMs: 100 });
      const settledAt: number[] = [];
      net.observe({ onSettle: (e) => settledAt.push(e.at) });
      const dstBytes = new Uint8Array(1000);
      read(c, p, 1, p.registerMemory(pattern(1000)), 0, c.registerMemory(dstBytes), 0, 1000); // due at ~10 ms
      net.advanceTo(2);
      const p2 = net.restart("p");
      if (after === "reconnect") await c.connectPeer("p", 2, p2.localMetadata());
      if (after === "disconnect") c.disconnectPeer("p");
      expect(drainReads(net, c), after).toEqual([
        { readId: 1, status: "failed", peerGone: true, error: 'peer "p" is gone (crashed during the read)' },
      ]);
      expect(settledAt, after).toEqual([expect.closeTo(2 + DEFAULT_LATENCY_MS, 9)]); // one latency after the crash
      expect(net.faultCounts(), after).toMatchObject({ crash: 1, restart: 1, crashRead: 1 });
      expect(dstBytes.every((x) => x === 0), after).toBe(true);
    }
  });

  it("a read in flight when its owner closes fails with peerGone after the reader connects to the next incarnation, and is no fault", async () => {
    const { net, p, c } = await pair({ bandwidthBytesPerMs: 100 });
    read(c, p, 1, p.registerMemory(pattern(1000)), 0, c.registerMemory(new Uint8Array(1000)), 0, 1000);
    net.advanceTo(2);
    await p.close();
    const p2 = net.endpoint("p");
    await c.connectPeer("p", 2, p2.localMetadata());
    expect(drainReads(net, c)).toEqual([
      { readId: 1, status: "failed", peerGone: true, error: 'peer "p" is gone (closed during the read)' },
    ]);
    expect(net.faultCounts().crashRead).toBe(0); // closing is not a fault
  });

  it("deregistering a destination with a read in flight fails the read, never writes, and is recorded [I5]", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(128));
    const dstBytes = new Uint8Array(128);
    const dst = c.registerMemory(dstBytes);
    const seen: string[] = [];
    net.observe({ onUnsafeDeregistration: (e) => seen.push(`${e.side}:${e.endpointId}:${e.regionId}`) });
    read(c, p, 1, src, 0, dst, 0, 128);
    expect(net.hasUnsettledWriteInto("c", dst)).toBe(true);
    expect(net.hasUnsettledWriteInto("c", dst, 128, 10)).toBe(false);
    c.deregisterMemory(dst);
    expect(net.hasUnsettledWriteInto("c", dst)).toBe(false);
    expect(c.poll().reads).toEqual([
      {
        readId: 1,
        status: "failed",
        error:
          "destination region 1 was deregistered while the read was in flight; wait for a read to settle before freeing its destination [I5]",
      },
    ]);
    expect(drainReads(net, c)).toEqual([]);
    expect(dstBytes.every((x) => x === 0)).toBe(true);
    expect(seen).toEqual(["destination:c:1"]);
    expect(net.unsafeDeregistrations()).toMatchObject([{ side: "destination", reads: [{ endpointId: "c", readId: 1 }] }]);
  });

  it("deregistering a source with a read in flight fails the read and is recorded on the source side", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(16));
    const dst = c.registerMemory(new Uint8Array(16));
    read(c, p, 4, src, 0, dst, 0, 16);
    p.deregisterMemory(src);
    expect(drainReads(net, c)).toEqual([
      { readId: 4, status: "failed", error: 'source region 1 of "p" is not registered (deregistered, or never registered)' },
    ]);
    expect(net.unsafeDeregistrations()).toMatchObject([
      { side: "source", endpointId: "p", regionId: 1, reads: [{ endpointId: "c", readId: 4 }] },
    ]);
  });

  it("deregistering a source records only reads still unsettled: not settled, cancelled or crashed readers' reads", async () => {
    const { net, p, c } = await pair();
    const regions = [1, 2, 3, 4].map(() => p.registerMemory(pattern(16)));
    const dst = c.registerMemory(new Uint8Array(64));
    const [r1, r2, r3, r4] = regions as [MemoryRegion, MemoryRegion, MemoryRegion, MemoryRegion];
    read(c, p, 1, r1, 0, dst, 0, 16);
    drainReads(net, c); // read 1 settled
    read(c, p, 2, r2, 0, dst, 16, 16);
    c.cancelRead(2); // read 2 settled as cancelled
    read(c, p, 3, r3, 0, dst, 32, 16); // read 3 in flight
    p.deregisterMemory(r1);
    p.deregisterMemory(r2);
    expect(net.unsafeDeregistrations()).toEqual([]);
    p.deregisterMemory(r3);
    expect(net.unsafeDeregistrations()).toMatchObject([{ side: "source", regionId: r3.id, reads: [{ readId: 3 }] }]);
    read(c, p, 4, r4, 0, dst, 48, 16);
    net.crash("c"); // the reader's reads are forgotten
    p.deregisterMemory(r4);
    expect(net.unsafeDeregistrations()).toHaveLength(1);
  });

  it.each([
    ["empty", new Uint8Array(0), "malformed source location: source location is 0 bytes, shorter than the 30-byte minimum; it was not made by @ectp/transport-mock"],
    ["random", new Uint8Array(40).fill(7), 'malformed source location: source location does not start with the mock transport\'s magic "EM"; it was made by another transport or is corrupt'],
  ])("a %s source location fails the read with a clear error, never a throw [I1]", async (_name, source, error) => {
    const { net, p, c } = await pair();
    const dst = c.registerMemory(new Uint8Array(8));
    c.startRead({ readId: 1, peerId: "p", source, destination: { region: dst, offset: 0, length: 8 } });
    expect(drainReads(net, c)).toEqual([{ readId: 1, status: "failed", error }]);
    void p;
  });

  it("[I1] a location or metadata blob whose size disagrees with its endpoint id length is refused, naming both sizes", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(8));
    const dst = c.registerMemory(new Uint8Array(16));
    const location = p.describe(src, 0, 8); // 30 fixed bytes and the 1-byte id "p"
    const longer = new Uint8Array(location.length + 1);
    longer.set(location);
    c.startRead({ readId: 1, peerId: "p", source: longer, destination: { region: dst, offset: 0, length: 8 } });
    c.startRead({ readId: 2, peerId: "p", source: location.slice(0, -1), destination: { region: dst, offset: 8, length: 8 } });
    expect(drainReads(net, c)).toEqual([
      { readId: 1, status: "failed", error: "malformed source location: source location is 32 bytes but its endpoint id length says 31" },
      { readId: 2, status: "failed", error: "malformed source location: source location is 30 bytes but its endpoint id length says 31" },
    ]);
    const x = net.endpoint("x");
    const meta = p.localMetadata();
    const longerMeta = new Uint8Array(meta.length + 1);
    longerMeta.set(meta);
    await expect(x.connectPeer("p", 1, longerMeta)).rejects.toMatchObject({
      code: "PEER_UNREACHABLE",
      message:
        '[PEER_UNREACHABLE] cannot connect "x" to peer "p": peer metadata is 12 bytes but its endpoint id length says 11; pass the bytes of the peer\'s localMetadata()',
      details: { reason: "malformed-metadata" },
    });
  });

  it("[I1] metadata that throws as it is read (a Proxy of the caller's) is a PEER_UNREACHABLE rejection too: connectPeer never throws", async () => {
    const { net, p } = await pair();
    const x = net.endpoint("x");
    const throwing = new Proxy(p.localMetadata(), {
      get() {
        throw new Error("trap");
      },
    });
    let connect: Promise<void> | undefined;
    expect(() => {
      connect = x.connectPeer("p", 1, throwing);
    }).not.toThrow();
    await expect(connect).rejects.toMatchObject({
      code: "PEER_UNREACHABLE",
      message: `[PEER_UNREACHABLE] cannot connect "x" to peer "p": peer metadata cannot be read (trap); pass the bytes of the peer's localMetadata()`,
      details: { reason: "malformed-metadata" },
    });
  });

  it("rejects a location of another endpoint, a wrong length, or an out-of-range slice as failed reads", async () => {
    const { net, p, c } = await pair();
    const own = c.registerMemory(new Uint8Array(8));
    const src = p.registerMemory(pattern(8));
    const dst = c.registerMemory(new Uint8Array(16));
    c.startRead({ readId: 1, peerId: "p", source: c.describe(own, 0, 8), destination: { region: dst, offset: 0, length: 8 } });
    c.startRead({ readId: 2, peerId: "p", source: p.describe(src, 0, 4), destination: { region: dst, offset: 0, length: 8 } });
    const results = drainReads(net, c);
    expect(results).toEqual([
      { readId: 1, status: "failed", error: 'the source location names endpoint "c" but the read targets peer "p"' },
      { readId: 2, status: "failed", error: "the source location covers 4 bytes but the destination expects 8" },
    ]);
  });

  it("throws INVALID_ARGUMENT for local misuse: foreign destination, out-of-range destination, duplicate read id", async () => {
    const { p, c } = await pair();
    const src = p.registerMemory(pattern(8));
    const dst = c.registerMemory(new Uint8Array(8));
    const source = p.describe(src, 0, 8);
    expect(() => c.startRead({ readId: 1, peerId: "p", source, destination: { region: src, offset: 0, length: 8 } })).toThrow(
      '[INVALID_ARGUMENT] startRead destination: region 1 is not registered with endpoint "c" (already deregistered, or registered with another transport); register it with this transport first',
    );
    expect(() => c.startRead({ readId: 1, peerId: "p", source, destination: { region: dst, offset: 4, length: 8 } })).toThrow(
      "[INVALID_ARGUMENT] startRead destination [4, 12) is outside region 1 of 8 bytes",
    );
    c.startRead({ readId: 1, peerId: "p", source, destination: { region: dst, offset: 0, length: 8 } });
    expect(() => c.startRead({ readId: 1, peerId: "p", source, destination: { region: dst, offset: 0, length: 8 } })).toThrow(
      '[INVALID_ARGUMENT] startRead: read 1 is still unsettled on "c"; read ids must be unique among unsettled reads',
    );
    expect(() => p.describe(src, 4, 5)).toThrow("[INVALID_ARGUMENT] describe: range [4, 9) is outside region 1 of 8 bytes");
    const foreign: MemoryRegion = { id: 77, bytes: new Uint8Array(1) };
    expect(() => c.deregisterMemory(foreign)).toThrowError(EctpError);
  });

  it("throws INVALID_ARGUMENT for malformed arguments instead of a TypeError or a silent wrong delivery", async () => {
    const { net, p, c } = await pair();
    const misuse: [string, () => unknown][] = [
      ["startRead(null)", () => c.startRead(null as unknown as ReadOperation)],
      ["send(undefined)", () => c.send("p", undefined as unknown as Uint8Array)],
      ["send(string)", () => c.send("p", "text" as unknown as Uint8Array)],
      ["hasUnsettledWriteInto(undefined)", () => net.hasUnsettledWriteInto("c", undefined as unknown as number)],
    ];
    for (const [what, call] of misuse) expect(() => call(), what).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    net.advanceBy(10);
    expect(p.poll().messages).toEqual([]); // nothing was delivered for the string
    await c.waitForActivity(Number.NaN); // NaN is no timeout: at once, never "forever"
  });

  it("fails a read from a peer that was never connected, without peerGone", async () => {
    const net = new MockNetwork({ seed: 1 });
    const p = net.endpoint("p");
    const c = net.endpoint("c");
    const src = p.registerMemory(pattern(8));
    read(c, p, 1, src, 0, c.registerMemory(new Uint8Array(8)), 0, 8);
    expect(drainReads(net, c)).toEqual([
      { readId: 1, status: "failed", error: 'not connected to peer "p": call connectPeer with its metadata before reading' },
    ]);
  });
});

describe("reads and the connection they started under", () => {
  const notConnected = { readId: 1, status: "failed", error: 'not connected to peer "p": call connectPeer with its metadata before reading' };

  it.each(["disconnect", "disconnect, then connect again", "connect with a newer epoch"] as const)(
    "a read in flight whose connection goes (%s) fails 'not connected' at its due time and writes nothing",
    async (change) => {
      const { net, p, c } = await pair();
      const landing = new Uint8Array(8);
      read(c, p, 1, p.registerMemory(pattern(8)), 0, c.registerMemory(landing), 0, 8);
      if (change !== "connect with a newer epoch") c.disconnectPeer("p");
      if (change !== "disconnect") await c.connectPeer("p", 2, p.localMetadata()); // before the read is due
      expect(drainReads(net, c)).toEqual([notConnected]);
      expect(landing).toEqual(new Uint8Array(8));
    },
  );

  it("a read started while the peer is not connected fails 'not connected', also when a connect comes before its due time (reads start once connectPeer resolved)", async () => {
    const net = new MockNetwork({ seed: 1 });
    const p = net.endpoint("p");
    const c = net.endpoint("c");
    const landing = new Uint8Array(8);
    read(c, p, 1, p.registerMemory(pattern(8)), 0, c.registerMemory(landing), 0, 8);
    await c.connectPeer("p", 1, p.localMetadata());
    expect(drainReads(net, c)).toEqual([notConnected]);
    expect(landing).toEqual(new Uint8Array(8));
  });

  it("connecting again with the same epoch keeps the connection: the read in flight completes", async () => {
    const { net, p, c } = await pair();
    read(c, p, 1, p.registerMemory(pattern(8)), 0, c.registerMemory(new Uint8Array(8)), 0, 8);
    await c.connectPeer("p", 1, p.localMetadata());
    expect(drainReads(net, c)).toEqual([{ readId: 1, status: "done", bytesRead: 8 }]);
  });
});

describe("MockTransport messages and peers", () => {
  it("delivers an independent copy after latency, in order", async () => {
    const { net, p, c } = await pair();
    const buf = new Uint8Array([1, 2, 3]);
    c.send("p", buf);
    buf[0] = 99; // the sender reuses its buffer
    c.send("p", new Uint8Array([4]));
    expect(p.poll().messages).toEqual([]);
    net.advanceBy(1);
    const got = p.poll().messages;
    expect(got.map((m) => [m.from, [...m.bytes]])).toEqual([
      ["c", [1, 2, 3]],
      ["c", [4]],
    ]);
    expect(p.poll().messages).toEqual([]); // poll drains
  });

  it("hands a send's attachment and its bytes over as they are; without one the bytes are copied and attachment is undefined", async () => {
    const { net, p, c } = await pair();
    const envelope = { heartbeat: {} };
    const handed = new Uint8Array([1, 2]);
    const copied = new Uint8Array([3]);
    c.send("p", handed, envelope);
    c.send("p", copied);
    net.advanceBy(1);
    const got = p.poll().messages;
    expect(got.map((m) => [...m.bytes])).toEqual([[1, 2], [3]]);
    expect(got[0]?.attachment).toBe(envelope);
    expect(got[0]?.bytes).toBe(handed);
    expect(got[1]?.attachment).toBeUndefined();
    expect(got[1]?.bytes).not.toBe(copied);
  });

  it("an attachment changes no timing: the delivery time depends on the bytes only", async () => {
    const { net, p, c } = await pair({ bandwidthBytesPerMs: 1, latencyMs: 1 });
    c.send("p", new Uint8Array(3), { big: new Uint8Array(1000) });
    expect(net.nextEventTime()).toBe(4);
    net.advanceTo(4);
    expect(p.poll().messages).toHaveLength(1);
  });

  it("copies a Node Buffer too (Buffer#slice would share memory)", async () => {
    const { net, p, c } = await pair();
    const buf = Buffer.from([5, 6, 7]);
    c.send("p", buf);
    buf[0] = 99;
    net.advanceBy(1);
    expect(p.poll().messages.map((m) => [...m.bytes])).toEqual([[5, 6, 7]]);
  });

  it("hasActivity says whether poll has a message, a settled read or an unreachable peer queued, and takes nothing", async () => {
    const { net, p, c } = await pair();
    expect(p.hasActivity()).toBe(false);
    c.send("p", new Uint8Array([1]));
    expect(p.hasActivity()).toBe(false); // not delivered yet
    net.advanceBy(1);
    expect(p.hasActivity()).toBe(true);
    expect(p.hasActivity()).toBe(true); // asking takes nothing
    expect(p.poll().messages).toHaveLength(1);
    expect(p.hasActivity()).toBe(false);
    const src = p.registerMemory(pattern(8));
    const dst = c.registerMemory(new Uint8Array(8));
    read(c, p, 1, src, 0, dst, 0, 8);
    expect(c.hasActivity()).toBe(false);
    net.advanceBy(1);
    expect(c.hasActivity()).toBe(true);
    expect(c.poll().reads).toEqual([{ readId: 1, status: "done", bytesRead: 8 }]);
    expect(c.hasActivity()).toBe(false);
    c.send("nobody", new Uint8Array([2]));
    expect(c.hasActivity()).toBe(true);
    expect(c.poll().unreachable).toEqual(["nobody"]);
    expect(c.hasActivity()).toBe(false);
  });

  it("delivers every message intact and independent, small ones sharing slabs and large ones not", async () => {
    const { net, p, c } = await pair();
    const sizes = [0, 1, 7, 8, 100, 1023, 1024, 1025, 5000, 300, 300, 300, 300, 300, 300, 300, 300];
    for (let round = 0; round < 8; round++) for (const [i, n] of sizes.entries()) c.send("p", pattern(n, round * 100 + i));
    net.advanceBy(10);
    const got = p.poll().messages;
    expect(got).toHaveLength(8 * sizes.length);
    for (let round = 0; round < 8; round++)
      for (const [i, n] of sizes.entries()) expect(got[round * sizes.length + i]?.bytes).toEqual(pattern(n, round * 100 + i));
    // Writing one message never changes another.
    for (const [j, m] of got.entries()) m.bytes.fill(j & 0xff);
    for (const [j, m] of got.entries()) expect(m.bytes.every((b) => b === (j & 0xff))).toBe(true);
  });

  it("delivers plain Uint8Array copies, also of a Node Buffer", async () => {
    const { net, p, c } = await pair();
    c.send("p", Buffer.from([1, 2]));
    net.advanceBy(1);
    const [m] = p.poll().messages;
    expect(Buffer.isBuffer(m?.bytes)).toBe(false);
    expect(m?.bytes).toEqual(new Uint8Array([1, 2]));
  });

  it("rejects connectPeer for unknown, malformed, mismatched and stale metadata with PEER_UNREACHABLE", async () => {
    const net = new MockNetwork({ seed: 1 });
    const a = net.endpoint("a");
    const b = net.endpoint("b");
    await expect(a.connectPeer("zz", 1, b.localMetadata())).rejects.toThrow(
      '[PEER_UNREACHABLE] cannot connect "a" to peer "zz": the metadata belongs to endpoint "b", not "zz"',
    );
    const ghost = new MockNetwork({ seed: 1 }).endpoint("ghost");
    await expect(a.connectPeer("ghost", 1, ghost.localMetadata())).rejects.toMatchObject({
      code: "PEER_UNREACHABLE",
      message: '[PEER_UNREACHABLE] cannot connect "a" to peer "ghost": no endpoint "ghost" exists on this MockNetwork',
    });
    await expect(a.connectPeer("b", 1, new Uint8Array([1, 2, 3]))).rejects.toMatchObject({
      code: "PEER_UNREACHABLE",
      details: { reason: "malformed-metadata" },
    });
    const oldMeta = b.localMetadata();
    const b2 = net.restart("b");
    await expect(a.connectPeer("b", 1, oldMeta)).rejects.toThrow(
      '[PEER_UNREACHABLE] cannot connect "a" to peer "b": the metadata is from incarnation 1 but "b" is now incarnation 2 (it restarted); use its new localMetadata()',
    );
    await expect(a.connectPeer("b", 2, b2.localMetadata())).resolves.toBeUndefined();
  });

  it("drops sends to unconnected, disconnected and crashed peers and reports them unreachable once per poll", async () => {
    const { net, p, c } = await pair();
    const x = net.endpoint("x");
    c.send("x", new Uint8Array([1])); // never connected
    c.disconnectPeer("p");
    c.disconnectPeer("p"); // idempotent
    c.send("p", new Uint8Array([2]));
    c.send("p", new Uint8Array([3]));
    expect(c.poll().unreachable).toEqual(["x", "p"]);
    expect(c.poll().unreachable).toEqual([]);
    await c.connectPeer("x", 1, x.localMetadata());
    net.crash("x");
    c.send("x", new Uint8Array([4]));
    expect(c.poll().unreachable).toEqual(["x"]);
    net.advanceBy(5);
    expect(p.poll().messages).toEqual([]);
  });

  it("close cancels unsettled reads, releases memory, and a new endpoint() is the next incarnation", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(32));
    const dst = c.registerMemory(new Uint8Array(32));
    read(c, p, 1, src, 0, dst, 0, 32);
    const pRead = c.registerMemory(new Uint8Array(4));
    p.startRead({ readId: 5, peerId: "c", source: c.describe(pRead, 0, 4), destination: { region: p.registerMemory(new Uint8Array(4)), offset: 0, length: 4 } });
    await c.close();
    expect(c.status).toBe("closed");
    expect(c.poll().reads).toEqual([{ readId: 1, status: "cancelled" }]);
    const pResults = drainReads(net, p);
    expect(pResults).toEqual([{ readId: 5, status: "failed", peerGone: true, error: 'peer "c" is gone (closed during the read)' }]);
    expect(net.faultCounts().crashRead).toBe(0); // closing is not a fault
    c.send("p", new Uint8Array([1])); // no-op, no throw
    const c2 = net.endpoint("c");
    expect(c2.incarnation).toBe(2);
    expect(c2).not.toBe(c);
    expect(net.endpoint("c")).toBe(c2);
  });

  it("endpoint() refuses a crashed id, restart() brings it back under a new incarnation", async () => {
    const net = new MockNetwork({ seed: 3 });
    const a = net.endpoint("a");
    net.crash("a");
    expect(a.status).toBe("crashed");
    expect(() => net.endpoint("a")).toThrow('[INVALID_ARGUMENT] endpoint "a" crashed; call restart("a") to bring it back');
    const a2 = net.restart("a");
    expect(a2.incarnation).toBe(2);
    expect(net.faultCounts()).toMatchObject({ crash: 1, restart: 1 });
    net.restart("a"); // restart of a live endpoint crashes it first
    expect(net.faultCounts()).toMatchObject({ crash: 2, restart: 2 });
    expect(() => net.restart("nope")).toThrowError(EctpError);
    expect(() => net.crash("nope")).toThrowError(EctpError);
  });

  it("a read with a location from before the owner's restart fails even after reconnecting [P8]", async () => {
    const { net, p, c } = await pair();
    const oldSource = p.describe(p.registerMemory(pattern(8)), 0, 8);
    const p2 = net.restart("p");
    p2.registerMemory(pattern(8)); // same region id 1 in the new incarnation
    await c.connectPeer("p", 2, p2.localMetadata());
    c.startRead({ readId: 1, peerId: "p", source: oldSource, destination: { region: c.registerMemory(new Uint8Array(8)), offset: 0, length: 8 } });
    expect(drainReads(net, c)).toEqual([
      {
        readId: 1,
        status: "failed",
        error: 'the source location is from incarnation 1 of "p", now incarnation 2; the memory it named is gone',
      },
    ]);
  });
});

describe("MockNetwork time and waiting", () => {
  it("a message is due latencyMs + size / bandwidth after its send, also on a network that starts at a negative time", async () => {
    const { net, p, c } = await pair({ startTimeMs: -1_000, latencyMs: 1 });
    c.send("p", new Uint8Array(10));
    const due = -1_000 + 1 + 10 / DEFAULT_BANDWIDTH_BYTES_PER_MS;
    expect(net.nextEventTime()).toBe(due); // not 0, 1 000 ms late
    net.advanceTo(due);
    expect(p.poll().messages).toHaveLength(1);
  });

  it("waitForActivity resolves at once when something is due, else when an advance delivers", async () => {
    const { net, p, c } = await pair();
    await p.waitForActivity(0); // timeout 0: at once
    let woke = false;
    const waiting = p.waitForActivity(1000).then(() => {
      woke = true;
    });
    c.send("p", new Uint8Array([1]));
    await Promise.resolve();
    expect(woke).toBe(false);
    net.advanceTo(net.nextEventTime()!);
    await waiting;
    expect(woke).toBe(true);
    await p.waitForActivity(1000); // a message is queued: at once
    expect(p.poll().messages).toHaveLength(1);
  });

  it("waitForActivity is edge-triggered: a wait repeated without a poll sleeps until something new", async () => {
    const { net, p, c } = await pair();
    c.send("p", new Uint8Array([1]));
    net.advanceTo(net.nextEventTime()!);
    await p.waitForActivity(1000); // the message is new: at once
    let woke = false;
    const again = p.waitForActivity(1000).then(() => {
      woke = true;
    });
    await Promise.resolve();
    expect(woke).toBe(false); // the same message does not wake a second wait
    c.send("p", new Uint8Array([2]));
    net.advanceTo(net.nextEventTime()!);
    await again; // a new message does
    expect(p.poll().messages.map((m) => m.bytes[0])).toEqual([1, 2]);
    // A loop waiting on both endpoints but polling only c sleeps: c's wait is the one that
    // wakes (by its timeout here), because p's unpolled messages were reported already.
    c.send("p", new Uint8Array([3]));
    net.advanceTo(net.nextEventTime()!);
    await Promise.race([p.waitForActivity(10), c.waitForActivity(10)]); // p: new, at once
    let raced = false;
    const race = Promise.race([p.waitForActivity(10), c.waitForActivity(10)]).then(() => {
      raced = true;
    });
    await Promise.resolve();
    expect(raced).toBe(false);
    net.advanceBy(10);
    await race;
    expect(raced).toBe(true);
  });

  it("waitForActivity resolves when virtual time passes its timeout", async () => {
    const net = new MockNetwork({ seed: 1 });
    const a = net.endpoint("a");
    let woke = false;
    const waiting = a.waitForActivity(10).then(() => {
      woke = true;
    });
    net.advanceTo(9);
    await Promise.resolve();
    expect(woke).toBe(false);
    net.advanceTo(10);
    await waiting;
    expect(woke).toBe(true);
  });

  it("with an external clock, events run when due on that clock and waits use real timers", async () => {
    const start = performance.now();
    const clock = { now: () => performance.now() - start };
    const net = new MockNetwork({ seed: 1, clock, latencyMs: 50 });
    const a = net.endpoint("a");
    const b = net.endpoint("b");
    await a.connectPeer("b", 1, b.localMetadata());
    const sentBy = clock.now(); // the send reads the clock no earlier: the message is due at sentBy + 50 or later
    a.send("b", new Uint8Array([42]));
    const early = b.poll().messages;
    // Not delivered before it is due on that clock. (Judged by the clock after the poll, which read it no
    // later: on a machine that stalled 50 ms between the send and the poll the message is due by then.)
    if (clock.now() < sentBy + 50) expect(early).toEqual([]);
    await b.waitForActivity(5000);
    expect(b.poll().messages.map((m) => [...m.bytes])).toEqual([[42]]);
    expect(() => net.advanceBy(1)).toThrow("[INVALID_ARGUMENT] this MockNetwork follows an external clock");
  });

  it("waitForActivity resolves when the endpoint crashes or closes", async () => {
    const net = new MockNetwork({ seed: 1 });
    const a = net.endpoint("a");
    const b = net.endpoint("b");
    const waits = [a.waitForActivity(Number.POSITIVE_INFINITY), b.waitForActivity(1e9)];
    net.crash("a");
    await b.close();
    await expect(Promise.all(waits)).resolves.toEqual([undefined, undefined]);
  });

  it("an old handle's wait times out after its endpoint id was restarted or reopened (virtual and external clock)", async () => {
    for (const external of [false, true]) {
      let t = 0;
      const net = external ? new MockNetwork({ seed: 1, clock: { now: () => t } }) : new MockNetwork({ seed: 1 });
      for (const replace of ["restart", "reopen"] as const) {
        const id = `a-${replace}`;
        const a = net.endpoint(id);
        const early = a.waitForActivity(1e9); // pending when the id is replaced
        if (replace === "restart") net.restart(id);
        else {
          await a.close();
          net.endpoint(id);
        }
        await early; // woken by the end
        await a.waitForActivity(1e9); // the end is news once: at once
        let woken = false;
        void a.waitForActivity(10).then(() => {
          woken = true;
        });
        if (external) {
          t += 10;
          await new Promise((r) => setTimeout(r, 30));
        } else {
          net.advanceBy(10);
          await new Promise((r) => setImmediate(r));
        }
        expect(woken, `${replace}, ${external ? "external" : "virtual"} clock`).toBe(true);
      }
    }
  });

  it("a closed or crashed endpoint wakes one wait at once, then its waits sleep until their timeout (a waiting loop must not spin)", async () => {
    const net = new MockNetwork({ seed: 1 });
    const a = net.endpoint("a");
    const b = net.endpoint("b");
    net.crash("a");
    await b.close();
    for (const t of [a, b]) {
      await t.waitForActivity(1e9); // the end is news: at once
      let woken = false;
      void t.waitForActivity(50).then(() => {
        woken = true;
      });
      await new Promise((r) => setImmediate(r));
      expect(woken).toBe(false);
      net.advanceBy(50);
      await new Promise((r) => setImmediate(r));
      expect(woken).toBe(true);
    }
  });

  it("a closed or crashed endpoint's later wait is not woken by short advances or by other endpoints' polls and waits", async () => {
    const net = new MockNetwork({ seed: 1 });
    const a = net.endpoint("a");
    const b = net.endpoint("b");
    const live = net.endpoint("live");
    net.crash("a");
    await b.close();
    for (const t of [a, b]) {
      await t.waitForActivity(1e9); // the end is news once: at once
      const start = net.now();
      let woken = false;
      void t.waitForActivity(1000).then(() => {
        woken = true;
      });
      const settle = () => new Promise((r) => setImmediate(r));
      net.advanceBy(0.001);
      await settle();
      expect(woken, `${t.localId} after a short advance`).toBe(false);
      live.poll();
      void live.waitForActivity(0);
      t.poll();
      await settle();
      expect(woken, `${t.localId} after polls and waits elsewhere`).toBe(false);
      net.advanceTo(start + 999);
      await settle();
      expect(woken, `${t.localId} just before its timeout`).toBe(false);
      net.advanceTo(start + 1000);
      await settle();
      expect(woken, `${t.localId} at its timeout`).toBe(true);
    }
  });

  it("poll-then-wait loops on two closed endpoints sleep: each wakes once per timeout, not each time the other polls", async () => {
    const net = new MockNetwork({ seed: 1 });
    const a = net.endpoint("a");
    const b = net.endpoint("b");
    await a.close();
    await b.close();
    const turns = { a: 0, b: 0 };
    let stop = false;
    const loop = async (t: typeof a, k: "a" | "b") => {
      while (!stop && turns[k] < 1000) {
        t.poll();
        await t.waitForActivity(60_000);
        turns[k]++;
      }
    };
    const loops = [loop(a, "a"), loop(b, "b")];
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(turns).toEqual({ a: 0, b: 0 }); // each loop polled (seeing the close), then sleeps
    net.advanceBy(60_000);
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(turns).toEqual({ a: 1, b: 1 });
    stop = true;
    net.advanceBy(60_000);
    await Promise.all(loops);
    expect(net.now()).toBe(120_000);
  });

  it("an observer that cancels a read while it is written or faulted leaves exactly one result and nothing written after it [I5]", async () => {
    for (const hook of ["onWrite", "onFault"] as const) {
      const { net, p, c } = await pair(hook === "onFault" ? { faults: { links: [{ from: "c", to: "p", failRead: 1 }] } } : {});
      const dst = new Uint8Array(16);
      const region = c.registerMemory(dst);
      let afterCancel: Uint8Array | undefined;
      net.observe({
        [hook]: (e: { readId?: number }) => {
          if (e.readId !== 1 || afterCancel) return;
          c.cancelRead(1);
          afterCancel = dst.slice();
        },
      });
      read(c, p, 1, p.registerMemory(pattern(16)), 0, region, 0, 16);
      net.advanceBy(10);
      const results = c.poll().reads;
      expect(results, hook).toEqual([{ readId: 1, status: "cancelled" }]);
      expect(dst, hook).toEqual(afterCancel);
    }
  });

  it("observers see deliveries, writes and settlements in order, until unsubscribed", async () => {
    const { net, p, c } = await pair();
    const seen: string[] = [];
    const stop = net.observe({
      onDeliver: (e) => seen.push(`deliver ${e.from}->${e.to} ${e.length}B`),
      onWrite: (e) => seen.push(`write ${e.endpointId}#${e.readId} ${e.offset}+${e.length}`),
      onSettle: (e) => seen.push(`settle ${e.endpointId}#${e.readId} ${e.status}`),
    });
    c.send("p", new Uint8Array(3));
    read(c, p, 1, p.registerMemory(pattern(8)), 0, c.registerMemory(new Uint8Array(10)), 2, 8);
    net.advanceBy(1);
    expect(seen).toEqual(["deliver c->p 3B", "write c#1 2+8", "settle c#1 done"]);
    stop();
    c.send("p", new Uint8Array(3));
    net.advanceBy(1);
    expect(seen).toHaveLength(3);
  });

  it("state stays bounded: a link reordering every message, partition/heal flapping, reads naming many endpoints", async () => {
    const internals = (net: MockNetwork) =>
      (net as unknown as { fabric: { links: Map<string, Map<string, { held?: unknown[] }>>; reads: { readsNaming: Map<string, unknown> } } }).fabric;
    const reordering = new MockNetwork({ seed: 1, faults: { default: { reorder: { probability: 1 } } } });
    const a = reordering.endpoint("a");
    const b = reordering.endpoint("b");
    await a.connectPeer("b", 1, b.localMetadata());
    for (let i = 0; i < 2000; i++) {
      a.send("b", new Uint8Array(100));
      reordering.advanceBy(1);
      b.poll();
    }
    expect(reordering.faultCounts().reorder).toBe(2000);
    expect(internals(reordering).links.get("a")?.get("b")?.held?.length ?? 0).toBeLessThanOrEqual(32);

    const flapping = new MockNetwork({ seed: 1 });
    flapping.endpoint("a");
    flapping.endpoint("b");
    for (let i = 0; i < 1000; i++) {
      flapping.partition("a", "b");
      flapping.heal("a", "b");
    }
    expect(flapping.faults().links).toEqual([
      { from: "a", to: "b", partitioned: false },
      { from: "b", to: "a", partitioned: false },
    ]);

    const { net, c, p } = await pair();
    const dst = c.registerMemory(new Uint8Array(8));
    for (let i = 0; i < 200; i++) {
      const e = net.endpoint(`e${i}`); // a location naming another endpoint (as a faulty peer may send)
      const source = e.describe(e.registerMemory(new Uint8Array(8)), 0, 8);
      await e.close();
      c.startRead({ readId: i, peerId: "p", source, destination: { region: dst, offset: 0, length: 8 } });
      net.advanceBy(10);
      c.poll();
    }
    expect(internals(net).reads.readsNaming.size).toBe(0);
    expect(p.poll().reads).toEqual([]);
  });

  it("refuses to move time backwards and validates options", () => {
    const net = new MockNetwork({ seed: 1, startTimeMs: 100 });
    expect(net.now()).toBe(100);
    expect(() => net.advanceTo(50)).toThrow("[INVALID_ARGUMENT] advanceTo(50) would move virtual time backwards from 100");
    expect(() => new MockNetwork({ seed: 1.5 })).toThrow("[INVALID_CONFIG] MockNetwork needs an integer `seed` (a safe integer), got 1.5");
    expect(() => new MockNetwork({ seed: 1, bandwidthBytesPerMs: 0 })).toThrow("[INVALID_CONFIG] bandwidthBytesPerMs must be a finite number > 0, got 0");
    expect(() => new MockNetwork({ seed: 1, faults: { default: { drop: 2 } } })).toThrow(
      "[INVALID_CONFIG] invalid fault plan: faults.default.drop must be a probability in [0, 1], got 2",
    );
  });
});

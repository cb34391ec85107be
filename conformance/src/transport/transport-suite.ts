/**
 * The transport level: behaviour every `Transport` (core's interface) must show, run by
 * name against any implementation through a small harness, so the mock cannot drift from
 * NIXL (house style 3: the same test body over every transport).
 * @module
 */
import type { MemoryRegion, ReadResult, Transport } from "@ectp/core";
import type { CaseResult } from "../runner/suite.js";

/** How the suite drives one transport implementation. */
export interface TransportHarness {
  /** Implementation name, used in case names (`transport/<name>/...`). */
  readonly name: string;
  /** Two endpoints that can reach each other (connectPeer done both ways): `reader` reads `owner`'s memory. */
  createPeers(): Promise<{
    /** The endpoint that reads. */
    reader: Transport;
    /** The endpoint whose memory is read. */
    owner: Transport;
  }>;
  /**
   * Let time or I/O pass: on virtual time, move to the next scheduled event; on a real
   * transport, wait a little. Resolve false when nothing can ever happen again.
   */
  advance(): Promise<boolean>;
  /** Kill a peer as a crash would (its memory and endpoint vanish without goodbye). */
  killPeer(transport: Transport): Promise<void>;
  /** Release everything. Default: nothing. */
  dispose?(): Promise<void>;
}

/** Options of {@link runTransportConformance}. */
export interface TransportSuiteOptions {
  /** Largest read size tried, bytes. Default 64 MiB. */
  maxReadBytes?: number;
  /** Iterations of `advance` before a wait counts as a hang. Default 100000. */
  maxSteps?: number;
}

class TransportFailure extends Error {}

function pattern(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** Collects reads and messages across polls (poll returns each thing once). */
class Collector {
  readonly reads = new Map<number, ReadResult[]>();
  readonly messages: { from: string; bytes: Uint8Array }[] = [];
  constructor(private readonly t: Transport) {}
  poll(): void {
    const a = this.t.poll();
    for (const r of a.reads) {
      const list = this.reads.get(r.readId) ?? [];
      list.push(r);
      this.reads.set(r.readId, list);
    }
    for (const m of a.messages) this.messages.push(m);
  }
}

/**
 * Run the transport cases against one harness. Returns one CaseResult per case
 * (`transport/<name>/<case>`, level TRANSPORT); never throws for transport behaviour.
 */
export async function runTransportConformance(h: TransportHarness, options: TransportSuiteOptions = {}): Promise<CaseResult[]> {
  const maxSteps = options.maxSteps ?? 100_000;
  const max = options.maxReadBytes ?? 64 * 1024 * 1024;
  const results: CaseResult[] = [];

  async function until(c: Collector, cond: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < maxSteps; i++) {
      c.poll();
      if (cond()) return;
      if (!(await h.advance())) {
        c.poll();
        if (cond()) return;
        break;
      }
    }
    throw new TransportFailure(`${what}: never happened (the transport hung)`);
  }

  async function read(
    reader: Transport,
    owner: Transport,
    c: Collector,
    readId: number,
    size: number,
    srcOff: number,
    dstOff: number,
  ): Promise<{ src: Uint8Array; dst: MemoryRegion }> {
    const src = pattern(size + srcOff + 5, readId);
    const srcRegion = owner.registerMemory(src);
    const dst = reader.registerMemory(new Uint8Array(size + dstOff + 5));
    reader.startRead({
      readId,
      peerId: owner.localId,
      source: owner.describe(srcRegion, srcOff, size),
      destination: { region: dst, offset: dstOff, length: size },
    });
    return { src: src.subarray(srcOff, srcOff + size), dst };
  }

  const cases: [string, string[], () => Promise<void>][] = [
    [
      "byte-exact-reads-at-odd-offsets",
      ["C11", "I6"],
      async () => {
        const { reader, owner } = await h.createPeers();
        const c = new Collector(reader);
        const sizes = [1, 3, 4097, 1_000_003, max].filter((s, i, a) => s <= max && a.indexOf(s) === i);
        let id = 1;
        for (const size of sizes) {
          const rid = id++;
          const { src, dst } = await read(reader, owner, c, rid, size, 3, 7);
          await until(c, () => c.reads.has(rid), `read of ${size} bytes`);
          const r = (c.reads.get(rid) as ReadResult[])[0] as ReadResult;
          if (r.status !== "done") throw new TransportFailure(`read of ${size} bytes ended ${r.status}: ${r.error ?? ""}`);
          const got = dst.bytes.subarray(7, 7 + size);
          if (Buffer.compare(Buffer.from(got), Buffer.from(src)) !== 0) throw new TransportFailure(`read of ${size} bytes at offsets 3 -> 7 is not byte-exact`);
          if (dst.bytes[6] !== 0 || dst.bytes[7 + size] !== 0) throw new TransportFailure(`read of ${size} bytes wrote outside its destination`);
        }
      },
    ],
    [
      "concurrent-reads-settle-once-each",
      ["C9", "I6"],
      async () => {
        const { reader, owner } = await h.createPeers();
        const c = new Collector(reader);
        const reads: { id: number; src: Uint8Array; dst: MemoryRegion }[] = [];
        for (let i = 1; i <= 16; i++) reads.push({ id: i, ...(await read(reader, owner, c, i, 1000 + i * 37, i, 2 * i)) });
        await until(c, () => reads.every((r) => c.reads.has(r.id)), "16 concurrent reads");
        for (let k = 0; k < 50; k++) if (!(await h.advance())) break;
        c.poll();
        for (const r of reads) {
          const list = c.reads.get(r.id) as ReadResult[];
          if (list.length !== 1) throw new TransportFailure(`read ${r.id} settled ${list.length} times; exactly once is required`);
          if (list[0]?.status !== "done") throw new TransportFailure(`read ${r.id} ended ${list[0]?.status}`);
          const got = r.dst.bytes.subarray(2 * r.id, 2 * r.id + r.src.length);
          if (Buffer.compare(Buffer.from(got), Buffer.from(r.src)) !== 0) throw new TransportFailure(`read ${r.id} is not byte-exact`);
        }
      },
    ],
    [
      "read-from-gone-peer-fails",
      ["P8", "I1"],
      async () => {
        const { reader, owner } = await h.createPeers();
        const c = new Collector(reader);
        const srcRegion = owner.registerMemory(pattern(4096, 9));
        const source = owner.describe(srcRegion, 0, 4096);
        const ownerId = owner.localId;
        await h.killPeer(owner);
        const dst = reader.registerMemory(new Uint8Array(4096));
        reader.startRead({ readId: 1, peerId: ownerId, source, destination: { region: dst, offset: 0, length: 4096 } });
        await until(c, () => c.reads.has(1), "read from a killed peer");
        const r = (c.reads.get(1) as ReadResult[])[0] as ReadResult;
        if (r.status === "done") throw new TransportFailure("a read from a killed peer reported done");
      },
    ],
    [
      "cancel-settles-exactly-once",
      ["C7", "C8"],
      async () => {
        const { reader, owner } = await h.createPeers();
        const c = new Collector(reader);
        await read(reader, owner, c, 1, Math.min(max, 8 * 1024 * 1024), 0, 0);
        reader.cancelRead(1);
        await until(c, () => c.reads.has(1), "cancelled read");
        for (let k = 0; k < 50; k++) if (!(await h.advance())) break;
        c.poll();
        const list = c.reads.get(1) as ReadResult[];
        if (list.length !== 1) throw new TransportFailure(`a cancelled read settled ${list.length} times`);
      },
    ],
    [
      "deregistration-during-read-settles-failed",
      ["C8", "I5"],
      async () => {
        const { reader, owner } = await h.createPeers();
        const c = new Collector(reader);
        const { dst } = await read(reader, owner, c, 1, Math.min(max, 8 * 1024 * 1024), 0, 0);
        reader.deregisterMemory(dst);
        const snapshot = Buffer.from(dst.bytes.subarray(0, 64));
        await until(c, () => c.reads.has(1), "read into a deregistered region");
        const r = (c.reads.get(1) as ReadResult[])[0] as ReadResult;
        if (r.status === "done") throw new TransportFailure("a read into a region deregistered mid-flight reported done");
        if (Buffer.compare(snapshot, Buffer.from(dst.bytes.subarray(0, 64))) !== 0)
          throw new TransportFailure("[I5] bytes changed in a deregistered destination");
      },
    ],
    [
      "messages-arrive-intact",
      ["I1"],
      async () => {
        const { reader, owner } = await h.createPeers();
        const c = new Collector(reader);
        const payload = pattern(300, 4);
        owner.send(reader.localId, payload);
        await until(c, () => c.messages.length > 0, "a control message");
        const m = c.messages[0] as { from: string; bytes: Uint8Array };
        if (m.from !== owner.localId || Buffer.compare(Buffer.from(m.bytes), Buffer.from(payload)) !== 0)
          throw new TransportFailure("a control message arrived altered or from the wrong sender");
      },
    ],
  ];

  for (const [name, reqs, body] of cases) {
    const t0 = performance.now();
    let status: "passed" | "failed" = "passed";
    let message: string | undefined;
    try {
      await body();
    } catch (err) {
      status = "failed";
      message = err instanceof TransportFailure ? err.message : `transport threw: ${(err as Error)?.stack ?? String(err)}`;
    }
    results.push({
      name: `transport/${h.name}/${name}`,
      level: "TRANSPORT",
      requirements: reqs,
      catches: [],
      status,
      ...(message ? { message } : {}),
      durationMs: Math.round(performance.now() - t0),
    });
  }
  await h.dispose?.();
  return results;
}

/**
 * The transport level: behaviour every `Transport` (core's interface) must show, run by
 * name against any implementation through a small harness, so the mock cannot drift from
 * NIXL (house style 3: the same test body over every transport).
 * @module
 */
import type { MemoryRegion, ReadResult, Transport } from "@ectp/core";
import { EctpError, crc32c, describeValue } from "@ectp/protocol";
import { checkFunction, checkOptions } from "../arguments.js";
import type { CaseResult } from "../runner/suite.js";
import { thrownStack } from "../thrown.js";

/** How the suite drives one transport implementation. */
export interface TransportHarness {
  /** Implementation name, used in case names (`transport/<name>/...`). */
  readonly name: string;
  /**
   * Set when the implementation cannot run here (e.g. its native addon is not built): every
   * case is then reported `skipped` with this text, which should say how to fix it, and
   * nothing else of the harness is called. Default: undefined (run the cases).
   */
  readonly skipReason?: string;
  /**
   * Two endpoints that can reach each other (connectPeer done both ways): `reader` reads
   * `owner`'s memory. Called once per case; the suite closes both when the case ends.
   */
  createPeers(): Promise<{
    /** The endpoint that reads. */
    reader: Transport;
    /** The endpoint whose memory is read. */
    owner: Transport;
  }>;
  /**
   * Let time or I/O pass: on virtual time, move to the next scheduled event; on a real
   * transport, wait a little (e.g. `waitForActivity(20)` on the current peers). Resolve
   * false when nothing can ever happen again.
   */
  advance(): Promise<boolean>;
  /** Kill a peer as a crash would (its memory and endpoint vanish without an ECTP goodbye). */
  killPeer(transport: Transport): Promise<void>;
  /** Release everything, once, after the last case. Default: nothing. */
  dispose?(): Promise<void>;
}

/** Options of {@link runTransportConformance}. */
export interface TransportSuiteOptions {
  /** Largest read size tried, bytes. Default 64 MiB. */
  maxReadBytes?: number | undefined;
  /** Iterations of `advance` before a wait counts as a hang. Default 100000. */
  maxSteps?: number | undefined;
  /**
   * Wall-clock bound of one wait, in ms, after which it counts as a hang. This is what bounds
   * a real transport (whose `advance` always resolves true); virtual-time harnesses hit
   * `maxSteps` first. Default 30000.
   */
  waitTimeoutMs?: number | undefined;
  /**
   * How long, in wall-clock ms, the suite lets a transport run on after a result to catch late
   * duplicates or late writes (at most 50 `advance` steps either way). Default 250.
   */
  settleMs?: number | undefined;
  /** Which cases to run, by full name (`transport/<name>/<case>`); the others are neither run nor reported. Default: all. */
  select?: ((name: string) => boolean) | undefined;
  /** Called after each case (progress output). Default: nothing. */
  onResult?: ((result: CaseResult) => void) | undefined;
}

/** The keys of {@link TransportSuiteOptions}. */
const TRANSPORT_SUITE_OPTIONS: readonly string[] = Object.keys({ maxReadBytes: true, maxSteps: true, waitTimeoutMs: true, settleMs: true, select: true, onResult: true } satisfies Record<keyof TransportSuiteOptions, true>);

/** Refuses a harness {@link runTransportConformance} cannot run (see there). */
function checkHarness(h: TransportHarness): void {
  const owner = "runTransportConformance";
  if (h === null || typeof h !== "object")
    throw new EctpError("INVALID_ARGUMENT", `${owner}: h must be a TransportHarness object, such as mockTransportHarness(); got ${describeValue(h)}`);
  if (typeof h.name !== "string" || h.name === "")
    throw new EctpError("INVALID_ARGUMENT", `${owner}: h.name must be the implementation's name (a non-empty string), used in case names; got ${describeValue(h.name)}`);
  if (h.skipReason !== undefined) return; // nothing else of the harness is called
  checkFunction(owner, "h.createPeers", h.createPeers, "resolves with two endpoints, { reader, owner }");
  checkFunction(owner, "h.advance", h.advance, "lets time or I/O pass");
  checkFunction(owner, "h.killPeer", h.killPeer, "kills a peer as a crash would");
}

/** One transport case: name (kebab-case, after `transport/<impl>/`), requirement ids, body. */
type TransportCase = readonly [string, readonly string[], () => Promise<void>];

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

function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
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
  only(readId: number, what: string): ReadResult {
    const list = this.reads.get(readId) ?? [];
    if (list.length !== 1) throw new TransportFailure(`${what} settled ${list.length} times; exactly once is required`);
    return list[0] as ReadResult;
  }
}

/**
 * Run the transport cases against one harness. Returns one CaseResult per case
 * (`transport/<name>/<case>`, level TRANSPORT); never throws for transport behaviour.
 * Every case runs on fresh peers from `createPeers`, which the suite closes afterwards.
 * A wrong call rejects at once, before any case runs, with EctpError(INVALID_ARGUMENT) naming what
 * is wrong: `h` that is not an object, a `name` that is not a non-empty string, a `createPeers`,
 * `advance` or `killPeer` that is not a function (unless `skipReason` is set), or options that are
 * not an object or have an option it does not take.
 */
export async function runTransportConformance(h: TransportHarness, options: TransportSuiteOptions = {}): Promise<CaseResult[]> {
  checkHarness(h);
  checkOptions("runTransportConformance", options, TRANSPORT_SUITE_OPTIONS);
  const maxSteps = options.maxSteps ?? 100_000;
  const waitTimeoutMs = options.waitTimeoutMs ?? 30_000;
  const settleMs = options.settleMs ?? 250;
  const max = options.maxReadBytes ?? 64 * 1024 * 1024;
  const results: CaseResult[] = [];
  const report = (r: CaseResult): void => {
    results.push(r);
    options.onResult?.(r);
  };

  const open: Transport[] = [];
  async function peers(): Promise<{ reader: Transport; owner: Transport }> {
    const p = await h.createPeers();
    open.push(p.reader, p.owner);
    return p;
  }

  async function until(c: Collector, cond: () => boolean, what: string): Promise<void> {
    const deadline = performance.now() + waitTimeoutMs;
    let steps = 0;
    for (; steps < maxSteps && performance.now() <= deadline; steps++) {
      c.poll();
      if (cond()) return;
      if (!(await h.advance())) {
        c.poll();
        if (cond()) return;
        throw new TransportFailure(`${what}: never happened, and the harness's advance says nothing can happen any more (the transport hung)`);
      }
    }
    // Which bound ended the wait: a transport whose waits end at once uses up its steps long before the time.
    const bound =
      steps >= maxSteps
        ? `in ${maxSteps} advance steps (maxSteps; a transport whose waitForActivity resolves at once uses them up fast)`
        : `in ${waitTimeoutMs} ms (waitTimeoutMs)`;
    throw new TransportFailure(`${what}: never happened ${bound} (the transport hung)`);
  }

  /** Let the transport run on for a while (late duplicate results, late writes), then poll. */
  async function settleFurther(c: Collector): Promise<void> {
    const deadline = performance.now() + settleMs;
    for (let k = 0; k < 50 && performance.now() <= deadline; k++) if (!(await h.advance())) break;
    c.poll();
  }

  async function read(
    reader: Transport,
    owner: Transport,
    readId: number,
    size: number,
    srcOff: number,
    dstOff: number,
    crc32c = false,
  ): Promise<{ src: Uint8Array; dst: MemoryRegion }> {
    const src = pattern(size + srcOff + 5, readId);
    const srcRegion = owner.registerMemory(src);
    const dst = reader.registerMemory(new Uint8Array(size + dstOff + 5));
    reader.startRead({
      readId,
      peerId: owner.localId,
      source: owner.describe(srcRegion, srcOff, size),
      destination: { region: dst, offset: dstOff, length: size },
      crc32c,
    });
    return { src: src.subarray(srcOff, srcOff + size), dst };
  }

  const cases: TransportCase[] = [
    [
      "byte-exact-reads-at-odd-offsets",
      ["C11", "I6"],
      async () => {
        const { reader, owner } = await peers();
        const c = new Collector(reader);
        const sizes = [1, 3, 4097, 100_000, 1_000_003, max].filter((s, i, a) => s <= max && a.indexOf(s) === i);
        let id = 1;
        for (const size of sizes) {
          const rid = id++;
          const { src, dst } = await read(reader, owner, rid, size, 3, 7);
          await until(c, () => c.reads.has(rid), `read of ${size} bytes`);
          const r = c.only(rid, `read of ${size} bytes`);
          if (r.status !== "done") throw new TransportFailure(`read of ${size} bytes ended ${r.status}: ${r.error ?? ""}`);
          if (r.bytesRead !== size) throw new TransportFailure(`read of ${size} bytes reported bytesRead ${r.bytesRead}`);
          if (!same(dst.bytes.subarray(7, 7 + size), src)) throw new TransportFailure(`read of ${size} bytes at offsets 3 -> 7 is not byte-exact`);
          if (dst.bytes[6] !== 0 || dst.bytes[7 + size] !== 0) throw new TransportFailure(`read of ${size} bytes wrote outside its destination`);
        }
        // "done" is reported exactly once per read, however long the transport runs on.
        await settleFurther(c);
        for (let rid = 1; rid < id; rid++) c.only(rid, `read ${rid}`);
      },
    ],
    [
      "reported-crc32c-is-that-of-the-landed-bytes",
      ["C11"],
      async () => {
        // ReadResult.crc32c is optional, but one a transport reports replaces the consumer's own check.
        const { reader, owner } = await peers();
        const c = new Collector(reader);
        let id = 1;
        for (const size of [1, 4097, 1_000_003].filter((s) => s <= max)) {
          for (const asked of [true, false]) {
            const rid = id++;
            const { dst } = await read(reader, owner, rid, size, rid % 8, 5, asked);
            await until(c, () => c.reads.has(rid), `read of ${size} bytes`);
            const r = c.only(rid, `read of ${size} bytes`);
            if (r.status !== "done") throw new TransportFailure(`read of ${size} bytes ended ${r.status}: ${r.error ?? ""}`);
            const want = crc32c(dst.bytes.subarray(5, 5 + size));
            if (!asked && r.crc32c !== undefined) throw new TransportFailure(`read of ${size} bytes reported crc32c ${r.crc32c} without being asked`);
            if (asked && r.crc32c !== undefined && r.crc32c !== want)
              throw new TransportFailure(`read of ${size} bytes reported crc32c ${r.crc32c}; the landed bytes' CRC-32C is ${want}`);
          }
        }
      },
    ],
    [
      "concurrent-reads-settle-once-each",
      ["C9", "I6"],
      async () => {
        const { reader, owner } = await peers();
        const c = new Collector(reader);
        const reads: { id: number; src: Uint8Array; dst: MemoryRegion }[] = [];
        for (let i = 1; i <= 16; i++) reads.push({ id: i, ...(await read(reader, owner, i, 1000 + i * 37, i, 2 * i)) });
        await until(c, () => reads.every((r) => c.reads.has(r.id)), "16 concurrent reads");
        await settleFurther(c);
        for (const r of reads) {
          const result = c.only(r.id, `read ${r.id}`);
          if (result.status !== "done") throw new TransportFailure(`read ${r.id} ended ${result.status}`);
          if (!same(r.dst.bytes.subarray(2 * r.id, 2 * r.id + r.src.length), r.src)) throw new TransportFailure(`read ${r.id} is not byte-exact`);
        }
      },
    ],
    [
      "read-from-gone-peer-fails",
      ["P8", "I1"],
      async () => {
        const { reader, owner } = await peers();
        const c = new Collector(reader);
        const srcRegion = owner.registerMemory(pattern(4096, 9));
        const source = owner.describe(srcRegion, 0, 4096);
        const ownerId = owner.localId;
        await h.killPeer(owner);
        const dst = reader.registerMemory(new Uint8Array(4096));
        reader.startRead({ readId: 1, peerId: ownerId, source, destination: { region: dst, offset: 0, length: 4096 } });
        await until(c, () => c.reads.has(1), "read from a killed peer");
        const r = c.only(1, "a read from a killed peer");
        // Nobody cancelled it: "cancelled" would send the consumer down the quarantine path instead of a failure.
        if (r.status !== "failed") throw new TransportFailure(`a read from a killed peer ended ${r.status}; failed is required`);
      },
    ],
    [
      "cancel-settles-exactly-once",
      ["C7", "C8", "I5"],
      async () => {
        const { reader, owner } = await peers();
        const c = new Collector(reader);
        // A small read (may finish before the cancel lands) and a large one (cancelled in flight).
        const sizes = [4096, Math.min(max, 8 * 1024 * 1024)];
        const dsts: MemoryRegion[] = [];
        for (const [i, size] of sizes.entries()) {
          dsts.push((await read(reader, owner, i + 1, size, 0, 0)).dst);
          reader.cancelRead(i + 1);
        }
        await until(c, () => sizes.every((_, i) => c.reads.has(i + 1)), "cancelled reads");
        for (const [i, size] of sizes.entries()) {
          const r = c.only(i + 1, `a cancelled read of ${size} bytes`);
          if (r.status !== "cancelled" && r.status !== "done" && r.status !== "failed")
            throw new TransportFailure(`a cancelled read of ${size} bytes ended with unknown status ${String(r.status)}`);
          // [I5] "cancelled" promises that nothing was written.
          if (r.status === "cancelled" && !(dsts[i] as MemoryRegion).bytes.every((x) => x === 0))
            throw new TransportFailure(`a read of ${size} bytes reported cancelled but wrote into its destination`);
          reader.cancelRead(i + 1); // after settlement: ignored, no second result
        }
        await settleFurther(c);
        for (const [i, size] of sizes.entries()) {
          const r = c.only(i + 1, `a cancelled read of ${size} bytes (after a late cancel)`);
          // [I5][C8] nor later: a transport that reports "cancelled" while the read runs on would let it land.
          if (r.status === "cancelled" && !(dsts[i] as MemoryRegion).bytes.every((x) => x === 0))
            throw new TransportFailure(`a read of ${size} bytes reported cancelled, then wrote into its destination after settling`);
        }
      },
    ],
    [
      "deregistration-during-read-settles-failed",
      ["C8", "I5"],
      async () => {
        const { reader, owner } = await peers();
        const c = new Collector(reader);
        const { dst } = await read(reader, owner, 1, Math.min(max, 8 * 1024 * 1024), 0, 0);
        reader.deregisterMemory(dst);
        await until(c, () => c.reads.has(1), "read into a deregistered region");
        const r = c.only(1, "a read into a deregistered region");
        if (r.status !== "failed") throw new TransportFailure(`a read into a region deregistered mid-flight ended ${r.status}; failed is required`);
        // [I5] once settled, nothing more lands in the memory.
        const snapshot = dst.bytes.slice();
        await settleFurther(c);
        if (!same(snapshot, dst.bytes)) throw new TransportFailure("[I5] bytes changed in a deregistered destination after its read settled");
      },
    ],
    [
      "messages-arrive-once-intact-as-copies",
      ["I1"],
      async () => {
        const { reader, owner } = await peers();
        for (const [from, to] of [
          [owner, reader],
          [reader, owner],
        ] as const) {
          const c = new Collector(to);
          const payload = pattern(300, from === owner ? 4 : 5);
          const sent = payload.slice();
          from.send(to.localId, sent);
          sent.fill(0); // the sender reuses its buffer at once: the message must be a copy
          await until(c, () => c.messages.length > 0, `a control message from ${from.localId}`);
          await settleFurther(c);
          if (c.messages.length !== 1) throw new TransportFailure(`one message sent, ${c.messages.length} arrived`);
          const m = c.messages[0] as { from: string; bytes: Uint8Array };
          if (m.from !== from.localId) throw new TransportFailure(`a control message from ${from.localId} arrived as from ${m.from}`);
          if (!same(m.bytes, payload)) throw new TransportFailure("a control message arrived altered (or shares the sender's buffer)");
        }
      },
    ],
    [
      "reads-stay-within-the-destination-and-the-location",
      ["C11", "I5", "I6"],
      async () => {
        // ReadOperation.destination: a source covering fewer bytes than the destination fails the read
        // and writes nothing (reading on would read the owner's other memory); one covering more fails
        // so too, or is read from its start, destination.length bytes. Never a byte past the
        // destination: copying whatever the location covers would overwrite the next slice of a slab.
        const { reader, owner } = await peers();
        const c = new Collector(reader);
        const size = 4096;
        const src = pattern(2 * size, 11);
        const srcRegion = owner.registerMemory(src);
        for (const [rid, covered] of [
          [1, size + 64],
          [2, size - 1],
        ] as const) {
          const dst = reader.registerMemory(new Uint8Array(2 * size));
          reader.startRead({ readId: rid, peerId: owner.localId, source: owner.describe(srcRegion, 0, covered), destination: { region: dst, offset: 8, length: size } });
          const what = `a read of ${size} bytes from a location of ${covered}`;
          await until(c, () => c.reads.has(rid), what);
          await settleFurther(c);
          const r = c.only(rid, what);
          const outside = dst.bytes.subarray(0, 8).some((x) => x !== 0) || dst.bytes.subarray(8 + size).some((x) => x !== 0);
          if (outside) throw new TransportFailure(`${what} wrote outside its destination`);
          if (r.status === "done" && covered > size) {
            if (r.bytesRead !== size || !same(dst.bytes.subarray(8, 8 + size), src.subarray(0, size)))
              throw new TransportFailure(`${what} ended done but did not read the location's first ${size} bytes (bytesRead ${r.bytesRead})`);
            continue;
          }
          if (r.status !== "failed" || typeof r.error !== "string")
            throw new TransportFailure(`${what} ended ${r.status} (error ${String(r.error)}); failed with a reason is required`);
          if (dst.bytes.some((x) => x !== 0)) throw new TransportFailure(`${what} failed but wrote into its destination`);
        }
      },
    ],
    [
      "messages-arrive-from-peers-not-connected",
      ["I1"],
      async () => {
        // TransportActivity.messages: receiving needs no connection. A producer connects to a consumer
        // only once its Hello has arrived; a transport that dropped messages from peers it has not
        // connected to would stall every handshake.
        const { reader, owner } = await peers();
        owner.disconnectPeer(reader.localId);
        const c = new Collector(owner);
        const payload = pattern(64, 12);
        reader.send(owner.localId, payload);
        await until(c, () => c.messages.length > 0, `a message from ${reader.localId}, which ${owner.localId} is not connected to`);
        const m = c.messages[0] as { from: string; bytes: Uint8Array };
        if (m.from !== reader.localId || !same(m.bytes, payload))
          throw new TransportFailure(`a message from a peer not connected arrived as from ${m.from}${same(m.bytes, payload) ? "" : ", altered"}`);
      },
    ],
    [
      "malformed-location-fails-read",
      ["I1"],
      async () => {
        const { reader, owner } = await peers();
        const c = new Collector(reader);
        const region = reader.registerMemory(new Uint8Array(16));
        try {
          reader.startRead({ readId: 1, peerId: owner.localId, source: new Uint8Array([0xde, 0xad]), destination: { region, offset: 0, length: 16 } });
        } catch (err) {
          throw new TransportFailure(`[I1] startRead threw for a malformed source location a peer sent: ${(err as Error).message}`);
        }
        await until(c, () => c.reads.has(1), "a read of a malformed location");
        const r = c.only(1, "a read of a malformed location");
        if (r.status !== "failed" || typeof r.error !== "string")
          throw new TransportFailure(`a read of a malformed location ended ${r.status} (error ${String(r.error)}); failed with a reason is required`);
      },
    ],
    [
      "connect-rejects-unusable-metadata",
      ["I1"],
      async () => {
        const { reader } = await peers();
        let outcome: unknown = "resolved";
        try {
          await reader.connectPeer("nobody", 1, new Uint8Array([1, 2, 3]));
        } catch (err) {
          outcome = err;
        }
        if (!(outcome instanceof EctpError))
          throw new TransportFailure(
            `connectPeer with unusable metadata must reject with an EctpError; it ${outcome === "resolved" ? "resolved" : `rejected with ${String(outcome)}`}`,
          );
      },
    ],
    [
      "wait-is-edge-triggered",
      ["I1"],
      async () => {
        // A driver that races waits on several transports but polls only some of them must
        // sleep, not spin: a wait repeated without a poll may resolve at once for activity no
        // wait was told of yet, never again and again for the same unpolled activity.
        const { reader, owner } = await peers();
        reader.send(owner.localId, pattern(16, 9));
        const resolvesAtOnce = async (t: Transport): Promise<boolean> => {
          let resolved = false;
          void t.waitForActivity(50).then(() => {
            resolved = true;
          });
          await new Promise<void>((r) => setImmediate(r));
          return resolved;
        };
        let worst = 0;
        for (let round = 0; round < 5; round++) {
          await h.advance(); // delivers the message (virtual time) or sleeps a little (real time)
          let atOnce = 0;
          for (let k = 0; k < 10; k++) if (await resolvesAtOnce(owner)) atOnce++;
          worst = Math.max(worst, atOnce);
        }
        const c = new Collector(owner);
        c.poll();
        if (c.messages.length !== 1) throw new TransportFailure(`one message sent to the owner, ${c.messages.length} arrived`);
        // One wait may consume the activity; a few more may see genuinely new activity.
        if (worst > 3)
          throw new TransportFailure(
            `[I1] ${worst} of 10 consecutive waitForActivity calls without a poll resolved at once for the same unpolled message: a loop that polls other transports would spin`,
          );
      },
    ],
    [
      "close-settles-unsettled-reads",
      ["I5"],
      async () => {
        const { reader, owner } = await peers();
        const c = new Collector(reader);
        const size = Math.min(max, 1024 * 1024);
        const { src, dst } = await read(reader, owner, 1, size, 0, 0);
        await reader.close();
        await until(c, () => c.reads.has(1), "a read left unsettled by close()");
        await settleFurther(c);
        // Transport.close: unsettled reads settle as "cancelled" (one that finished first is "done", its bytes landed).
        const r = c.only(1, "a read left unsettled by close()");
        if (r.status !== "cancelled" && r.status !== "done") throw new TransportFailure(`a read left unsettled by close() ended ${r.status}; cancelled is required`);
        if (r.status === "done" && !same(dst.bytes.subarray(0, size), src.subarray(0, size)))
          throw new TransportFailure("a read reported done by close() is not byte-exact");
      },
    ],
  ];

  if (h.skipReason !== undefined) {
    for (const [name, requirements] of cases) {
      if (options.select && !options.select(`transport/${h.name}/${name}`)) continue;
      report({
        name: `transport/${h.name}/${name}`,
        level: "TRANSPORT",
        requirements,
        catches: [],
        status: "skipped",
        message: h.skipReason,
        durationMs: 0,
      });
    }
    return results;
  }

  for (const [name, reqs, body] of cases) {
    if (options.select && !options.select(`transport/${h.name}/${name}`)) continue;
    const t0 = performance.now();
    let status: "passed" | "failed" = "passed";
    let message: string | undefined;
    try {
      await body();
    } catch (err) {
      status = "failed";
      message = err instanceof TransportFailure ? err.message : `transport threw: ${thrownStack(err)}`;
    }
    // Closing the peers is part of the case: a close() that throws (at once, or by rejecting) fails
    // it, as any other throw of the transport does, after a failure of the case's own.
    let closing: string | undefined;
    for (const t of open.splice(0)) {
      try {
        await t.close();
      } catch (err) {
        closing ??= `transport threw closing the case's peers: ${thrownStack(err)}`;
      }
    }
    if (closing !== undefined) {
      message = status === "failed" ? `${message}\nthen ${closing}` : closing;
      status = "failed";
    }
    report({
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

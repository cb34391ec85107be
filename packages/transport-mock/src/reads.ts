/**
 * One-sided reads on the mock network: starting and cancelling them, when each completes (its
 * data path's bandwidth, stalls, its source's owner gone), what it writes and how it settles, and
 * the bookkeeping that finds the unsettled reads a deregistration or an invariant checker asks
 * about. Internal.
 * @module
 */

import type { MemoryRegion, ReadDestination, ReadOperation, ReadResult } from "@ectp/core";
import { crc32c, describeValue } from "@ectp/protocol";
import { invalid } from "./errors.js";
import type { ScheduledEvent } from "./event-queue.js";
import type { Connection, EndpointState, Fabric, Link } from "./fabric.js";
import { type Decoded, type MockLocation, decodeLocation } from "./location.js";
import type { NetworkObserver, ReadRef, UnsettledWrite, WriteEvent } from "./observer.js";

/** The fault a read was dealt when it started: none, a partitioned link, an injected failure, or a stall that ends done or failed. */
type ReadFault = "none" | "partition" | "fail" | "stall-done" | "stall-failed";

/** One read, from its start to its settlement: what it reads, where it lands, its faults and its place on its data path. Internal. */
export interface ReadState {
  /** The endpoint doing the read: its destination is this endpoint's memory (the source's owner is the peer). */
  readonly reader: EndpointState;
  readonly readId: number;
  readonly peerId: string;
  readonly location: Decoded<MockLocation>;
  readonly destination: ReadDestination;
  readonly startedAt: number;
  /**
   * The reader's connection to the peer when the read started (undefined: not connected then). The
   * read is judged against it: unless it is still the reader's connection at the due time (no
   * disconnectPeer, no connectPeer that replaced it), the read fails "not connected".
   */
  readonly connection: Connection | undefined;
  /** The endpoint that connection reached (undefined: not connected when the read started). */
  readonly target: EndpointState | undefined;
  /** Its place among every read started on the network (0, 1, ...): {@link Reads.unsettledWrites} lists in this order. */
  readonly startSeq: number;
  readonly fault: ReadFault;
  readonly corrupt: boolean;
  /** Report the landed bytes' CRC-32C (`ReadOperation.crc32c`). */
  readonly wantCrc: boolean;
  /** The data path (owner -> reader link) it occupies from `transferStart` to `transferEnd`. */
  readonly path: Link;
  transferStart: number;
  transferEnd: number;
  /** A stalled read completes no sooner than this (-Infinity when not stalled). */
  readonly stallUntil: number;
  dueAt: number;
  generation: number;
  settled: boolean;
  /**
   * The owner incarnation the read was reading from when that incarnation crashed or closed
   * (set by {@link Reads.failReadsOf}): the read fails with `peerGone` whatever the reader's
   * connection does afterwards (reconnecting to the next incarnation, disconnecting).
   */
  goneTarget: EndpointState | undefined;
}

/** A read's completion event at a time it was moved to: it stands while the read's generation is still `generation`. */
interface Rescheduled {
  readonly read: ReadState;
  readonly generation: number;
}

/** Whether a read's completion event of `generation` has nothing left to do: the read settled, or was rescheduled since. */
function isStale(r: ReadState, generation: number): boolean {
  return r.settled || generation !== r.generation;
}

/**
 * The reads of one {@link Fabric}: it starts them, schedules their completion on the fabric's event
 * queue and settles each exactly once. Unsettled reads live in their reader's
 * {@link EndpointState.reads} and on their data path's {@link Link.transfers}. Internal.
 */
export class Reads {
  private readonly fabric: Fabric;
  /** Reads started on this network so far (each read's `startSeq`). */
  private started = 0;
  /**
   * Unsettled reads (in some endpoint's `reads`) by the endpoint id and region id their
   * decoded source location names, counted: lets deregisterMemory skip its scan for unsafe
   * source reads unless some read names that very region.
   */
  private readonly readsNaming = new Map<string, Map<number, number>>();

  constructor(fabric: Fabric) {
    this.fabric = fabric;
  }

  /** Start read `op` of endpoint `ep` (`Transport.startRead`): validated, its faults decided, its completion scheduled. */
  start(ep: EndpointState, op: ReadOperation): void {
    // A read needs a result exactly once: a closed endpoint can deliver none, so it starts none and
    // says so (a driver settles a read whose start threw as failed). A crashed one is a dead process.
    if (ep.status === "closed" || ep.closing)
      throw invalid(`startRead: "${ep.id}" is ${ep.status === "closed" ? "closed" : "closing"}, so read ${describeValue(op?.readId)} is not started and no result will arrive; make a new endpoint`);
    if (ep.status !== "live") return;
    if (op === null || typeof op !== "object") throw invalid(`startRead needs a ReadOperation { readId, peerId, source, destination }, got ${describeValue(op)}`);
    if (!Number.isSafeInteger(op.readId)) throw invalid(`startRead needs an integer readId, got ${describeValue(op.readId)}`);
    if (typeof op.peerId !== "string") throw invalid(`startRead needs the peer's id as a string peerId, got ${describeValue(op.peerId)}`);
    if (ep.reads.has(op.readId) || (ep.results.length > 0 && ep.results.some((x) => x.readId === op.readId))) {
      throw invalid(`startRead: read ${op.readId} is still unsettled on "${ep.id}"; read ids must be unique among unsettled reads`);
    }
    const d = op.destination;
    if (d?.region === undefined) throw invalid(`startRead needs a destination { region, offset, length }, got ${describeValue(d)}`);
    const region = this.fabric.registered(ep, d.region, "startRead destination");
    if (!Number.isSafeInteger(d.offset) || !Number.isSafeInteger(d.length) || d.offset < 0 || d.length < 0) {
      throw invalid(`startRead destination needs non-negative integer offset and length, got ${describeValue(d.offset)}, ${describeValue(d.length)}`);
    }
    if (d.offset + d.length > region.bytes.length) {
      throw invalid(
        `startRead destination [${d.offset}, ${d.offset + d.length}) is outside region ${region.id} of ${region.bytes.length} bytes; offset + length must be <= ${region.bytes.length}`,
      );
    }
    const now = this.fabric.now();
    const peerId = op.peerId;
    // The source is peer-provided: decode it now (decoding keeps no reference to the bytes,
    // so later changes to the caller's array cannot affect the read), judge it only at
    // completion (never throw).
    const location = decodeLocation(op.source instanceof Uint8Array ? op.source : new Uint8Array());
    const link = this.fabric.link(ep.id, peerId);
    const f = this.fabric.faultsFor(ep.id, peerId, link);
    const rng = this.fabric.random(ep.id, peerId, link);
    let fault: ReadFault = "none";
    if (f.partitioned === true) fault = "partition";
    else if (rng.chance(f.failRead)) fault = "fail";
    else if (f.stallRead !== undefined && rng.chance(f.stallRead.probability)) {
      fault = f.stallRead.settle === "failed" ? "stall-failed" : "stall-done";
    }
    const corrupt = fault === "none" && rng.chance(f.corruptRead);
    // Counted (and observed) before anything is started: an observer that throws fails this call,
    // and a startRead that throws must have started nothing (Transport.startRead).
    if (fault === "stall-done" || fault === "stall-failed") this.fabric.fault("stallRead", ep.id, peerId, now, op.readId);
    // Bandwidth is per directed data path (owner -> reader): reads on one path transfer one after another.
    const path = this.fabric.link(peerId, ep.id);
    const start = Math.max(now, path.busyUntil ?? now);
    const end = start + d.length / this.fabric.bandwidthBytesPerMs;
    path.busyUntil = end;
    const stallUntil = fault === "stall-done" || fault === "stall-failed" ? now + (f.stallRead?.durationMs ?? 30_000) : Number.NEGATIVE_INFINITY;
    const dueAt = Math.max(end + this.fabric.latencyMs, stallUntil);
    const connection = ep.connections.get(peerId);
    const r: ReadState = {
      reader: ep,
      readId: op.readId,
      peerId,
      location,
      destination: { region, offset: d.offset, length: d.length },
      startedAt: now,
      connection,
      target: connection?.target,
      startSeq: this.started++,
      fault,
      corrupt,
      wantCrc: op.crc32c === true,
      path,
      transferStart: start,
      transferEnd: end,
      stallUntil,
      dueAt,
      generation: 0,
      settled: false,
      goneTarget: undefined,
    };
    ep.reads.set(op.readId, r);
    if (path.transfers === undefined) path.transfers = [r];
    else path.transfers.push(r);
    if (location.ok) {
      const { endpointId, regionId } = location.value;
      let byRegion = this.readsNaming.get(endpointId);
      if (byRegion === undefined) {
        byRegion = new Map();
        this.readsNaming.set(endpointId, byRegion);
      }
      byRegion.set(regionId, (byRegion.get(regionId) ?? 0) + 1);
    }
    this.fabric.schedule(dueAt, this.completeFirst, r);
  }

  /** Cancel read `readId` of `ep` (`Transport.cancelRead`): it settles as cancelled now, unless it is stalled. */
  cancel(ep: EndpointState, readId: number): void {
    if (ep.status !== "live") return;
    const r = ep.reads.get(readId);
    if (r === undefined) return; // unknown or already settled: nothing to do
    if (r.fault === "stall-done" || r.fault === "stall-failed") return; // a stuck transfer ignores cancel [C8]
    this.settle(r, this.fabric.now(), { readId, status: "cancelled" });
  }

  /** Event handler: a read's first (not rescheduled) completion time. */
  private readonly completeFirst = (at: number, r: ReadState): void => this.complete(r, 0, at);

  /** Event handler: a read's completion at a time it was moved to (generation 1, 2, ...). */
  private readonly completeAgain = (at: number, e: Rescheduled): void => this.complete(e.read, e.generation, at);

  /**
   * Whether scheduled event `ev` is a read's completion with nothing left to do: the read settled
   * (cancelled, failed early, its reader crashed) or was rescheduled since. False for any other event.
   */
  isSpent(ev: ScheduledEvent): boolean {
    if (ev.run === this.completeFirst) return isStale(ev.arg as ReadState, 0);
    if (ev.run === this.completeAgain) {
      const { read, generation } = ev.arg as Rescheduled;
      return isStale(read, generation);
    }
    return false;
  }

  /** Where the source bytes are, or why they cannot be read. */
  private source(r: ReadState): { ok: true; bytes: Uint8Array } | { ok: false; error: string; peerGone: boolean } {
    // Judged against the incarnation read from when it went, not the connection now.
    const gone = r.goneTarget;
    if (gone !== undefined) return { ok: false, peerGone: true, error: `peer "${r.peerId}" is gone (${gone.status} during the read)` };
    // Judged against the connection the read started under: none then, or dropped or replaced since
    // (disconnectPeer, a newer epoch's connectPeer), is no connection (Transport.connectPeer: reads may
    // start once it resolved).
    const conn = r.connection;
    if (conn === undefined || r.reader.connections.get(r.peerId) !== conn) {
      return {
        ok: false,
        peerGone: false,
        error: `not connected to peer "${r.peerId}": call connectPeer with its metadata before reading`,
      };
    }
    const target = conn.target;
    if (target.status !== "live") {
      return { ok: false, peerGone: true, error: `peer "${r.peerId}" is gone (${target.status} during the read)` };
    }
    if (!r.location.ok) return { ok: false, peerGone: false, error: `malformed source location: ${r.location.error}` };
    const loc = r.location.value;
    if (loc.endpointId !== r.peerId) {
      return {
        ok: false,
        peerGone: false,
        error: `the source location names endpoint "${loc.endpointId}" but the read targets peer "${r.peerId}"`,
      };
    }
    if (loc.incarnation !== target.incarnation) {
      return {
        ok: false,
        peerGone: false,
        error: `the source location is from incarnation ${loc.incarnation} of "${r.peerId}", now incarnation ${target.incarnation}; the memory it named is gone`,
      };
    }
    const region = target.regions.get(loc.regionId);
    if (region === undefined) {
      return {
        ok: false,
        peerGone: false,
        error: `source region ${loc.regionId} of "${r.peerId}" is not registered (deregistered, or never registered)`,
      };
    }
    if (loc.offset + loc.length > region.bytes.length) {
      return {
        ok: false,
        peerGone: false,
        error: `source range [${loc.offset}, ${loc.offset + loc.length}) is outside region ${loc.regionId} of ${region.bytes.length} bytes`,
      };
    }
    if (loc.length !== r.destination.length) {
      return {
        ok: false,
        peerGone: false,
        error: `the source location covers ${loc.length} bytes but the destination expects ${r.destination.length}`,
      };
    }
    return { ok: true, bytes: region.bytes.subarray(loc.offset, loc.offset + loc.length) };
  }

  private complete(r: ReadState, generation: number, at: number): void {
    if (isStale(r, generation)) return;
    try {
      this.finishRead(r, at);
    } finally {
      // An observer that threw (onWrite, onFault) fails the call that triggered it, not the read: it
      // still gets its one result (its bytes may have landed, so not "done"), or it stayed in flight
      // for good, its id unusable and its destination written but never settled [I5].
      if (!r.settled) this.settle(r, at, { readId: r.readId, status: "failed", error: "a network observer threw while the read completed" });
    }
  }

  /** The end of read `r` at `at`: its bytes, faults and result. */
  private finishRead(r: ReadState, at: number): void {
    const readId = r.readId;
    const src = this.source(r);
    // A gone owner comes first: its NIC is gone whatever the link does, so a partitioned read of it
    // fails with peerGone (counted crashRead) like any other read of it.
    if (r.fault === "partition" && (src.ok || !src.peerGone)) {
      this.fabric.fault("partitionRead", r.reader.id, r.peerId, at, r.readId);
      this.settle(r, at, { readId, status: "failed", error: `the link "${r.reader.id}" -> "${r.peerId}" is partitioned` });
      return;
    }
    if (!src.ok) {
      if (src.peerGone && (r.goneTarget ?? r.target)?.status === "crashed") {
        this.fabric.fault("crashRead", r.reader.id, r.peerId, at, r.readId);
      }
      this.settle(r, at, src.peerGone ? { readId, status: "failed", error: src.error, peerGone: true } : { readId, status: "failed", error: src.error });
      return;
    }
    const d = r.destination;
    if (d.offset + d.length > d.region.bytes.length) {
      // Detached under the read anyway (ArrayBuffer.prototype.transfer ignores the untransferable mark): nothing can land.
      this.settle(r, at, { readId, status: "failed", error: `destination region ${d.region.id} is now ${d.region.bytes.length} bytes (its buffer was detached)` });
      return;
    }
    if (r.fault === "fail") {
      // A failed read may leave partial data: write a random strict prefix.
      const n = this.fabric.random(r.reader.id, r.peerId).int(r.destination.length);
      this.write(r, src.bytes, n, true, at);
      if (r.settled) return; // an observer cancelled it (or crashed its reader) while it wrote
      this.fabric.fault("failRead", r.reader.id, r.peerId, at, r.readId);
      this.settle(r, at, { readId, status: "failed", error: "injected transfer failure (failRead fault)" });
      return;
    }
    if (r.fault === "stall-failed") {
      this.settle(r, at, { readId, status: "failed", error: "injected stalled read ended in failure (stallRead fault)" });
      return;
    }
    if (!this.write(r, src.bytes, src.bytes.length, false, at)) {
      // Never `done` for bytes that did not land.
      this.settle(r, at, { readId, status: "failed", error: `destination region ${d.region.id} is no longer registered; nothing was written` });
      return;
    }
    if (r.settled) return; // settled by an observer of the write: nothing more may touch the destination [I5]
    if (r.corrupt && r.destination.length > 0) {
      // Flip one byte so the consumer's checksum check [C11] has something to catch.
      const i = this.fabric.random(r.reader.id, r.peerId).int(r.destination.length);
      const dest = r.destination.region.bytes;
      dest[r.destination.offset + i] = (dest[r.destination.offset + i]! ^ 0xff) & 0xff;
      this.fabric.fault("corruptRead", r.reader.id, r.peerId, at, r.readId);
    }
    const done: ReadResult = { readId, status: "done", bytesRead: d.length };
    // Computed over the destination after the bytes (and any corruption) landed, as ReadResult.crc32c requires.
    this.settle(r, at, r.wantCrc ? { ...done, crc32c: crc32c(d.region.bytes.subarray(d.offset, d.offset + d.length)) } : done);
  }

  /** Write the read's bytes into its destination; false (nothing written) when the destination is no longer registered. */
  private write(r: ReadState, src: Uint8Array, n: number, partial: boolean, at: number): boolean {
    const d = r.destination;
    // Never write into memory that is no longer registered [I5] (deregistration settles its reads first, and
    // refuses new ones into the region while it does, so this is a last guard).
    if (r.reader.regions.get(d.region.id) !== d.region) return false;
    d.region.bytes.set(n === src.length ? src : src.subarray(0, n), d.offset);
    const list = this.fabric.observers;
    if (list.length > 0) {
      let event: WriteEvent | undefined;
      for (let i = 0; i < list.length; i++) {
        const o = list[i] as NetworkObserver;
        if (o.onWrite === undefined) continue;
        event ??= { at, endpointId: r.reader.id, readId: r.readId, regionId: d.region.id, offset: d.offset, length: n, partial };
        o.onWrite(event);
      }
    }
    return true;
  }

  /**
   * Settle read `r` at `at` with `result`: it leaves its reader's unsettled reads and its data path, its
   * result is queued for `poll`, and its waits and observers hear of it. A settled read is left as it is.
   */
  settle(r: ReadState, at: number, result: ReadResult): void {
    if (r.settled) return; // exactly one result per read, whatever an observer did meanwhile
    r.settled = true;
    r.reader.reads.delete(r.readId);
    this.untrack(r);
    this.leavePath(r, at);
    r.reader.results.push(result);
    r.reader.unreported = true;
    // Before the observers: one that throws must not leave a wait asleep on a result already queued.
    this.fabric.waits.wake(r.reader);
    const list = this.fabric.observers;
    if (list.length > 0) {
      let event: { at: number; endpointId: string; readId: number; status: ReadResult["status"]; error?: string; peerGone?: boolean } | undefined;
      for (let i = 0; i < list.length; i++) {
        const o = list[i] as NetworkObserver;
        if (o.onSettle === undefined) continue;
        if (event === undefined) {
          event = { at, endpointId: r.reader.id, readId: r.readId, status: result.status };
          if (result.error !== undefined) event.error = result.error;
          if (result.peerGone !== undefined) event.peerGone = result.peerGone;
        }
        o.onSettle(event);
      }
    }
  }

  /**
   * A read settled (or its reader crashed): it gives up its slot on the data path. Settled before
   * its transfer ended (cancelled, failed, its owner gone), the rest of its slot is freed: the reads
   * queued behind it move earlier by that much, and those not already ending sooner complete earlier.
   */
  private leavePath(r: ReadState, at: number): void {
    const path = r.path;
    const list = path.transfers as ReadState[];
    const i = list.indexOf(r);
    list.splice(i, 1);
    const freed = r.transferEnd - Math.max(at, r.transferStart);
    if (freed > 0) {
      for (let j = i; j < list.length; j++) {
        const q = list[j] as ReadState;
        q.transferStart -= freed;
        q.transferEnd -= freed;
        const due = Math.max(q.transferEnd + this.fabric.latencyMs, q.stallUntil);
        if (due >= q.dueAt) continue; // (an owner gone makes it end sooner already)
        q.dueAt = due;
        this.fabric.schedule(due, this.completeAgain, { read: q, generation: ++q.generation });
      }
    }
    path.busyUntil = list.length > 0 ? (list[list.length - 1] as ReadState).transferEnd : undefined;
  }

  /** A read left its reader's unsettled reads: it no longer counts in {@link Reads.readsNaming}. */
  private untrack(r: ReadState): void {
    if (!r.location.ok) return;
    const { endpointId, regionId } = r.location.value;
    const byRegion = this.readsNaming.get(endpointId);
    if (byRegion === undefined) return;
    const n = (byRegion.get(regionId) ?? 0) - 1;
    if (n > 0) byRegion.set(regionId, n);
    else {
      byRegion.delete(regionId);
      if (byRegion.size === 0) this.readsNaming.delete(endpointId); // ids named by forged locations too
    }
  }

  /**
   * Endpoint `ep` crashed or closed at `at`: every unsettled read of its memory (started over a
   * connection to it) fails with `peerGone`, one latency later at the latest.
   */
  failReadsOf(ep: EndpointState, at: number): void {
    const soon = at + this.fabric.latencyMs;
    for (const other of this.fabric.endpoints.values()) {
      for (const r of other.reads.values()) {
        // A read of ep's memory: started over a connection to ep (the reader may have disconnected
        // since). A read started under no connection, or another one, never reads ep's memory.
        if (r.target !== ep) continue;
        // Whatever the reader's connection does from now on, this read of ep's memory fails with peerGone.
        r.goneTarget = ep;
        if (r.dueAt <= soon) continue;
        // The owner's NIC is gone: the reader learns of it after one latency, stalled or not.
        r.dueAt = soon;
        this.fabric.schedule(soon, this.completeAgain, { read: r, generation: ++r.generation });
      }
    }
  }

  /** Endpoint `ep` crashed at `at`: the reads it issued end with no result and give up their place on their data paths. */
  forgetReadsBy(ep: EndpointState, at: number): void {
    for (const r of ep.reads.values()) {
      r.settled = true; // a dead process never hears back
      this.untrack(r);
      this.leavePath(r, at);
    }
    ep.reads.clear();
  }

  /** The unsettled reads of `ep` that write into its region `regionId`, in start order (undefined: none). */
  writingInto(ep: EndpointState, regionId: number): ReadState[] | undefined {
    // No list and no scan without unsettled reads.
    let dest: ReadState[] | undefined;
    if (ep.reads.size > 0) {
      for (const r of ep.reads.values()) {
        if (r.destination.region.id !== regionId) continue;
        if (dest === undefined) dest = [];
        dest.push(r);
      }
    }
    return dest;
  }

  /**
   * The unsettled reads of region `regionId` of `ep` (by any endpoint) whose connection to `ep`, the
   * one they started under, still stands (undefined: none).
   */
  readingFrom(ep: EndpointState, regionId: number): ReadRef[] | undefined {
    // Only reads whose location names this endpoint and region can be such reads: skip the scan without one.
    if (this.readsNaming.get(ep.id)?.has(regionId) !== true) return undefined;
    let src: ReadRef[] | undefined;
    for (const other of this.fabric.endpoints.values()) {
      for (const r of other.reads.values()) {
        // Only a read whose connection to ep (the one it started under) still stands reads ep's memory.
        const conn = r.connection;
        if (conn === undefined || conn.target !== ep || other.connections.get(r.peerId) !== conn || !r.location.ok) continue;
        const loc = r.location.value;
        if (loc.endpointId === ep.id && loc.incarnation === ep.incarnation && loc.regionId === regionId) {
          if (src === undefined) src = [];
          src.push({ endpointId: other.id, readId: r.readId });
        }
      }
    }
    return src;
  }

  /** The unsettled reads of `endpointId` (all endpoints when undefined), in start order: see `MockNetwork.unsettledWrites`. */
  unsettledWrites(endpointId?: string): UnsettledWrite[] {
    const reads: ReadState[] = [];
    for (const ep of this.fabric.endpoints.values())
      if (endpointId === undefined || ep.id === endpointId) for (const r of ep.reads.values()) reads.push(r);
    reads.sort((a, b) => a.startSeq - b.startSeq); // start order, across endpoints
    return reads.map((r) => ({
      endpointId: r.reader.id,
      readId: r.readId,
      peerId: r.peerId,
      regionId: r.destination.region.id,
      offset: r.destination.offset,
      length: r.destination.length,
      startedAt: r.startedAt,
      dueAt: r.dueAt,
      stalled: r.fault === "stall-done" || r.fault === "stall-failed",
    }));
  }

  /**
   * Whether an unsettled read of `endpointId` may still write into `[offset, offset + length)`
   * of region `regionId`: {@link Reads.unsettledWrites} filtered, without building the list. A
   * zero-length read writes nothing, and a zero-length range holds nothing to write into.
   *
   * [I5] See `MockNetwork.hasUnsettledWriteInto`. A region object is matched by identity: a read's
   * destination region is the very object `registerMemory` returned (startRead refuses any other),
   * so an object of another endpoint or incarnation with the same id is never taken for it.
   */
  hasUnsettledWriteInto(endpointId: string, region: MemoryRegion | number, offset: number, length: number): boolean {
    const ep = this.fabric.endpoints.get(endpointId);
    if (ep === undefined || ep.reads.size === 0 || !(length > 0)) return false;
    for (const r of ep.reads.values()) {
      const d = r.destination;
      const same = typeof region === "number" ? d.region.id === region : d.region === region;
      if (same && d.length > 0 && d.offset < offset + length && offset < d.offset + d.length) return true;
    }
    return false;
  }
}

/**
 * The engine behind {@link MockNetwork} and {@link MockTransport}: endpoints, the
 * virtual-time event queue, fault decisions, byte copies and invariant bookkeeping.
 * Internal; the public classes are thin facades over it.
 * @module
 */

import type {
  MemoryRegion,
  ReadDestination,
  ReadOperation,
  ReadResult,
} from "@ectp/core";
import { EctpError, crc32c, describeValue, thrownMessage } from "@ectp/protocol";
import { markAsUntransferable } from "node:worker_threads";
import { EventQueue, type ScheduledEvent } from "./event-queue.js";
import {
  type FaultConfig,
  type FaultCounts,
  type FaultKind,
  type FaultPlan,
  copyFaultConfig,
  validateFaultPlan,
  zeroCounts,
} from "./faults.js";
import {
  type Decoded,
  type MockLocation,
  decodeLocation,
  decodeMetadata,
  encodeId,
  encodeLocation,
  encodeMetadata,
} from "./location.js";
import type { MockActivity, MockReceivedMessage } from "./transport.js";
import type { DeliverEvent, NetworkObserver, UnsafeDeregistration, UnsettledWrite, WriteEvent } from "./observer.js";
import { LinkRandom, linkSeed } from "./random.js";

/** A time source the network can follow instead of its own virtual clock. */
export interface ExternalClock {
  /**
   * Current time in ms: a finite number that never goes backwards. A reading that is not a finite
   * number is refused where the network reads it: the call that read it throws `EctpError`
   * `INVALID_CONFIG` (`waitForActivity` rejects with it).
   */
  now(): number;
}

/** Resolved construction options. Internal. */
export interface FabricOptions {
  readonly seed: number;
  readonly clock: ExternalClock | undefined;
  readonly startTimeMs: number;
  readonly latencyMs: number;
  readonly bandwidthBytesPerMs: number;
  readonly faults: FaultPlan;
}

interface Connection {
  readonly epoch: number;
  /** The incarnation connected to; the peer is gone when it is no longer live. */
  readonly target: EndpointState;
}

interface Waiter {
  readonly wakeAt: number;
  readonly resolve: () => void;
}

type ReadFault = "none" | "partition" | "fail" | "stall-done" | "stall-failed";

interface ReadState {
  readonly owner: EndpointState;
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
  /** Its place among every read started on the network (0, 1, ...): {@link Fabric.unsettledWrites} lists in this order. */
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
   * (set by {@link Fabric.gone}): the read fails with `peerGone` whatever the reader's
   * connection does afterwards (reconnecting to the next incarnation, disconnecting).
   */
  goneTarget: EndpointState | undefined;
}

/** One endpoint incarnation's state. Internal. */
export interface EndpointState {
  readonly id: string;
  readonly incarnation: number;
  status: "live" | "closed" | "crashed";
  /** Set by `close` before it settles the reads in flight: a read started meanwhile (by an observer) is refused, as after the close. */
  closing: boolean;
  nextRegionId: number;
  readonly regions: Map<number, MemoryRegion>;
  readonly connections: Map<string, Connection>;
  /** Unsettled reads issued by this endpoint, in start order. */
  readonly reads: Map<number, ReadState>;
  inbox: MockReceivedMessage[];
  results: ReadResult[];
  readonly unreachable: Set<string>;
  /**
   * Something was queued for `poll` since the last poll and no wait has returned at once for
   * it yet (see {@link Fabric.waitForActivity}).
   */
  unreported: boolean;
  waiters: Waiter[];
  /** The id's UTF-8 bytes (encoded once, for locations). */
  readonly idBytes: Uint8Array;
}

/**
 * Per directed link (from -> to) state, found with two Map lookups instead of building a
 * `from\u0000to` string key per send or read. Internal.
 */
interface Link {
  /** The link's own fault stream (created on first use). */
  rng: LinkRandom | undefined;
  /** The link's resolved faults, valid while `faultsVersion` matches the fabric's. */
  faults: FaultConfig | undefined;
  faultsVersion: number;
  /** Due time of the last message sent on the link (keeps the link's send order). */
  lastMessageDue: number | undefined;
  /** Messages held back by a reorder fault until the link's next message. */
  held: Message[] | undefined;
  /** When the data path (this link as owner -> reader) finishes its current reads. */
  busyUntil: number | undefined;
  /** Unsettled reads holding a slot on that path, in start order (undefined: none yet). */
  transfers: ReadState[] | undefined;
}

interface Message {
  readonly from: EndpointState;
  readonly to: EndpointState;
  readonly bytes: Uint8Array;
  /** What the sender attached (handed over as is, never copied); undefined when nothing. */
  readonly attachment: unknown;
  readonly dueAt: number;
  /**
   * A message held by a reorder fault: the latest it may be delivered (`dueAt` + the
   * `maxHoldMs` in force when it was sent), when its `deliverHeld` event is due. Others: `dueAt`.
   */
  readonly holdUntil: number;
  released: boolean;
}

/** The empty list {@link Fabric.poll} hands out (shared, frozen). */
const EMPTY_LIST: never[] = Object.freeze([]) as never[];
/** What {@link Fabric.poll} returns when nothing is queued (shared, frozen). */
const EMPTY_ACTIVITY: MockActivity = Object.freeze({
  messages: EMPTY_LIST,
  reads: EMPTY_LIST,
  unreachable: EMPTY_LIST,
});

/** The longest delay a Node timer takes as given (a longer one fires after 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Size of the shared slabs small arrays (message copies, location blobs) are carved from. */
const SMALL_SLAB_BYTES = 16 * 1024;
/** Arrays larger than this get their own buffer. */
const SMALL_MAX = 1024;

/**
 * Small byte arrays carved from shared slabs, like Node's own buffer pool: independent
 * copies of control messages as plain `Uint8Array`s (also of a Node `Buffer`, whose
 * `slice` would share memory with the sender's and whose species constructor is slow to
 * call per message), and location blobs. A copy of a few hundred bytes would otherwise
 * need its own separately allocated backing store, and a 32-byte blob its own buffer
 * object (a producer keeps one per stored item). An array never overlaps another one and
 * a slab is never reused; it is freed once no array carved from it is referenced.
 */
class SmallBytes {
  private slab = new Uint8Array(0);
  private used = 0;

  /** A fresh zeroed array of `n` bytes. */
  readonly take = (n: number): Uint8Array => {
    if (n > SMALL_MAX) return new Uint8Array(n);
    if (this.used + n > this.slab.length) {
      this.slab = new Uint8Array(SMALL_SLAB_BYTES);
      this.used = 0;
    }
    const out = this.slab.subarray(this.used, this.used + n);
    this.used = (this.used + n + 7) & ~7;
    return out;
  };

  /** An independent copy of `bytes`. */
  copy(bytes: Uint8Array): Uint8Array {
    const out = this.take(bytes.length);
    out.set(bytes);
    return out;
  }
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

/** An EctpError(INVALID_ARGUMENT) with `details` (the mock's refusal of a caller's bad argument). */
export function invalid(message: string, details: Record<string, unknown> = {}): EctpError {
  return new EctpError("INVALID_ARGUMENT", message, { details });
}

/** A reading of the external clock, or `NaN` when it is not a finite number or `now()` threw: for the reads that must not throw. */
function peekClock(clock: ExternalClock): number {
  try {
    const t: unknown = clock.now();
    return typeof t === "number" && Number.isFinite(t) ? t : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** A UTF-16 surrogate that is not half of a pair (in a `u` regex a pair is one code point, not `Cs`). */
const LONE_SURROGATE = /\p{Cs}/u;

/** An id the caller passed, for a message: a string in quotes (as every message shows ids), anything else as {@link describeValue} shows it. */
function quotedId(id: unknown): string {
  return typeof id === "string" ? `"${id}"` : describeValue(id);
}

/** The shared engine. Internal. */
export class Fabric {
  readonly latencyMs: number;
  readonly bandwidthBytesPerMs: number;
  private readonly seed: number;
  private readonly clock: ExternalClock | undefined;
  private time: number;
  private readonly queue = new EventQueue();
  /** Reads started on this network so far (each read's `startSeq`). */
  private readsStarted = 0;
  private readonly copier = new SmallBytes();
  private readonly endpoints = new Map<string, EndpointState>();
  /**
   * Replaced incarnations (after a restart, or a new endpoint under a closed one's id) that still
   * have waiters: their old handles' waits time out like any other, until none is left.
   */
  private readonly replaced = new Set<EndpointState>();
  /** Per-link state by sender, then receiver. */
  private readonly links = new Map<string, Map<string, Link>>();
  /**
   * Unsettled reads (in some endpoint's `reads`) by the endpoint id and region id their
   * decoded source location names, counted: lets deregisterMemory skip its scan for unsafe
   * source reads unless some read names that very region.
   */
  private readonly readsNaming = new Map<string, Map<number, number>>();
  /** Bumped by every setFaults, so links re-resolve their faults lazily. */
  private faultsVersion = 0;
  /**
   * Observers, each once, as an array replaced (never mutated) when one is added or removed:
   * the hot paths walk it by index (a Set's for-of allocates an iterator per delivery, write
   * and settlement). An observer added or removed during a notification takes effect from
   * the next event on.
   */
  private observers: readonly NetworkObserver[] = [];
  private readonly unsafe: UnsafeDeregistration[] = [];
  private counts: FaultCounts = zeroCounts();
  private plan: FaultPlan = {};
  private processing = false;
  /** In {@link Fabric.wakeAll}, which re-arms the timer once at its end. */
  private wakingAll = false;
  /** Unresolved waiters over all endpoints (every push and every wake keep it exact). */
  private waiterCount = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  /**
   * What an observer threw while the network's own timer (external clock) ran due events: nobody
   * could catch it there, so the next `poll` (throws it) or `waitForActivity` (rejects with it) of
   * any endpoint reports it, once. The first one is kept.
   */
  private timerError: { readonly error: unknown } | undefined;

  constructor(options: FabricOptions) {
    this.seed = options.seed;
    this.clock = options.clock;
    this.time = options.startTimeMs;
    this.latencyMs = options.latencyMs;
    this.bandwidthBytesPerMs = options.bandwidthBytesPerMs;
    this.setFaults(options.faults);
  }

  // ---- time -------------------------------------------------------------------------

  /** The current time; the external clock's reading is refused (`INVALID_CONFIG`) unless it is a finite number. */
  now(): number {
    const clock = this.clock;
    if (clock === undefined) return this.time;
    const t: unknown = clock.now();
    if (typeof t === "number" && Number.isFinite(t)) return t;
    throw new EctpError(
      "INVALID_CONFIG",
      `the \`clock\` of this MockNetwork returned ${describeValue(t)} from now(); it must return a finite time in ms that never goes backwards (for example performance.now())`,
      { details: { now: t } },
    );
  }

  /** When the next event that still does something is due (events left with nothing to do are dropped first). */
  nextEventTime(): number | undefined {
    let ev = this.queue.peek();
    while (ev !== undefined && this.isSpent(ev)) {
      this.queue.pop();
      ev = this.queue.peek();
    }
    return ev?.time;
  }

  /**
   * Whether a scheduled event has nothing left to do: a read's completion after the read settled
   * (cancelled, failed early, its reader crashed) or was rescheduled, or a held message's flush
   * after the link's next message released it. Running one would change nothing.
   */
  private isSpent(ev: ScheduledEvent): boolean {
    if (ev.run === this.completeFirst) return isStale(ev.arg as ReadState, 0);
    if (ev.run === this.completeAgain) {
      const { read, generation } = ev.arg as Rescheduled;
      return isStale(read, generation);
    }
    if (ev.run === this.deliverHeld) return (ev.arg as Message).released;
    return false;
  }

  /** Move virtual time to `t`, running every event due by then in (time, sequence) order. */
  advanceTo(t: number): void {
    if (this.clock !== undefined) {
      throw new EctpError(
        "INVALID_ARGUMENT",
        "this MockNetwork follows an external clock, so it cannot be advanced; advance that clock instead (or create the network without `clock` to use virtual time)",
      );
    }
    if (typeof t !== "number" || !Number.isFinite(t)) throw invalid(`advanceTo needs a finite time in ms, got ${describeValue(t)}`, { t });
    if (t < this.time) throw invalid(`advanceTo(${t}) would move virtual time backwards from ${this.time}; pass a time >= ${this.time}`, { now: this.time });
    // The loop running now goes only to its own time: a later one asked from inside it would silently not be reached.
    if (this.processing && t > this.time)
      throw invalid(
        `advanceTo(${t}) was called from inside the network's own work at ${this.time} (a network observer, or a callback it ran); virtual time cannot move ahead from there: return, and advance from outside`,
        { now: this.time },
      );
    this.processDue(t);
  }

  /** Run every event due at or before `t`, then wake waiters whose condition holds. */
  processDue(t: number): void {
    if (this.processing) return; // re-entry from an observer: the outer loop finishes the work
    this.processing = true;
    try {
      for (let ev = this.queue.peek(); ev !== undefined && ev.time <= t; ev = this.queue.peek()) {
        this.queue.pop();
        if (this.clock === undefined && ev.time > this.time) this.time = ev.time;
        ev.run(ev.time, ev.arg);
      }
      if (this.clock === undefined && t > this.time) this.time = t;
    } finally {
      this.processing = false;
    }
    this.wakeAll();
  }

  /** Run `run(at, arg)` at virtual time `time`; hot paths pass a function made once per fabric and the state as `arg`. */
  private schedule<A>(time: number, run: (at: number, arg: A) => void, arg: A): void {
    this.queue.push(time, run, arg);
    if (this.clock !== undefined && time < this.timerAt && this.hasWaiters()) this.armTimer();
  }

  // ---- faults -----------------------------------------------------------------------

  setFaults(plan: FaultPlan): void {
    const problems = validateFaultPlan(plan);
    if (problems.length > 0) {
      throw new EctpError("INVALID_CONFIG", `invalid fault plan: ${problems.join("; ")}`, { details: { problems } });
    }
    this.plan = { default: copyFaultConfig(plan.default ?? {}), links: (plan.links ?? []).map(copyFaultConfig) };
    this.faultsVersion++;
  }

  faults(): FaultPlan {
    return { default: copyFaultConfig(this.plan.default ?? {}), links: (this.plan.links ?? []).map(copyFaultConfig) };
  }

  /** Faults of link from -> to: the default, overridden field by field by matching link entries in order. */
  private faultsFor(from: string, to: string, l: Link = this.link(from, to)): FaultConfig {
    let f = l.faults;
    if (f === undefined || l.faultsVersion !== this.faultsVersion) {
      const merged: Record<string, unknown> = { ...this.plan.default };
      for (const link of this.plan.links ?? []) {
        if (link.from !== from || link.to !== to) continue;
        for (const [k, v] of Object.entries(link)) if (k !== "from" && k !== "to" && v !== undefined) merged[k] = v;
      }
      f = merged as FaultConfig;
      l.faults = f;
      l.faultsVersion = this.faultsVersion;
    }
    return f;
  }

  /** The state of link from -> to (created on first use; it outlives endpoint incarnations). */
  private link(from: string, to: string): Link {
    let byTo = this.links.get(from);
    if (byTo === undefined) {
      byTo = new Map();
      this.links.set(from, byTo);
    }
    let l = byTo.get(to);
    if (l === undefined) {
      l = { rng: undefined, faults: undefined, faultsVersion: -1, lastMessageDue: undefined, held: undefined, busyUntil: undefined, transfers: undefined };
      byTo.set(to, l);
    }
    return l;
  }

  private random(from: string, to: string, l: Link = this.link(from, to)): LinkRandom {
    let r = l.rng;
    if (r === undefined) {
      r = new LinkRandom(linkSeed(this.seed, from, to));
      l.rng = r;
    }
    return r;
  }

  private fault(kind: FaultKind, from: string, to: string, at: number, readId?: number): void {
    this.counts[kind]++;
    const list = this.observers;
    for (let i = 0; i < list.length; i++) list[i]?.onFault?.({ at, kind, from, to, ...(readId === undefined ? {} : { readId }) });
  }

  faultCounts(): FaultCounts {
    return { ...this.counts };
  }

  // ---- observers and invariant bookkeeping ----------------------------------------------

  observe(observer: NetworkObserver): () => void {
    const hooks = ["onWrite", "onSettle", "onDeliver", "onFault", "onUnsafeDeregistration"] as const;
    if (observer === null || typeof observer !== "object" || hooks.some((h) => observer[h] !== undefined && typeof observer[h] !== "function"))
      throw invalid(`observe needs an object whose ${hooks.join(", ")} are functions or absent; got ${observer === null ? "null" : typeof observer}`);
    if (!this.observers.includes(observer)) this.observers = [...this.observers, observer];
    return () => {
      this.observers = this.observers.filter((o) => o !== observer);
    };
  }

  unsafeDeregistrations(): UnsafeDeregistration[] {
    return this.unsafe.map((u) => ({ ...u, reads: u.reads.map((r) => ({ ...r })) }));
  }

  unsettledWrites(endpointId?: string): UnsettledWrite[] {
    const reads: ReadState[] = [];
    for (const ep of this.endpoints.values())
      if (endpointId === undefined || ep.id === endpointId) for (const r of ep.reads.values()) reads.push(r);
    reads.sort((a, b) => a.startSeq - b.startSeq); // start order, across endpoints
    return reads.map((r) => ({
      endpointId: r.owner.id,
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
   * of region `regionId`: {@link Fabric.unsettledWrites} filtered, without building the list. A
   * zero-length read writes nothing, and a zero-length range holds nothing to write into.
   */
  /**
   * [I5] See `MockNetwork.hasUnsettledWriteInto`. A region object is matched by identity: a read's
   * destination region is the very object `registerMemory` returned (startRead refuses any other),
   * so an object of another endpoint or incarnation with the same id is never taken for it.
   */
  hasUnsettledWriteInto(endpointId: string, region: MemoryRegion | number, offset: number, length: number): boolean {
    const ep = this.endpoints.get(endpointId);
    if (ep === undefined || ep.reads.size === 0 || !(length > 0)) return false;
    for (const r of ep.reads.values()) {
      const d = r.destination;
      const same = typeof region === "number" ? d.region.id === region : d.region === region;
      if (same && d.length > 0 && d.offset < offset + length && offset < d.offset + d.length) return true;
    }
    return false;
  }

  // ---- endpoints --------------------------------------------------------------------

  current(id: string): EndpointState | undefined {
    return this.endpoints.get(id);
  }

  ids(): string[] {
    return [...this.endpoints.keys()];
  }

  /** Create the next incarnation of `id` (1 for a new id). */
  create(id: string): EndpointState {
    if (typeof id !== "string" || id.length === 0) throw invalid(`an endpoint id must be a non-empty string, got ${describeValue(id)}`);
    // Metadata and locations carry the id as UTF-8, which has no lone surrogate: encoding would replace it
    // with U+FFFD, and every peer's connect would then fail as "the metadata belongs to another endpoint".
    const lone = LONE_SURROGATE.exec(id);
    if (lone !== null) {
      const unit = id.charCodeAt(lone.index).toString(16).toUpperCase();
      throw invalid(
        `an endpoint id must be well-formed Unicode: ${describeValue(id)} has a lone surrogate (U+${unit} at index ${lone.index}), which UTF-8 cannot carry, so no peer could connect to it or read from it; use an id without one`,
        { index: lone.index },
      );
    }
    // Locations and metadata carry the id's UTF-8 length in a u16: a longer id could not be connected to or read from.
    const idBytes = Buffer.byteLength(id, "utf8");
    if (idBytes > 0xffff) throw invalid(`an endpoint id must be at most 65535 UTF-8 bytes, got ${idBytes}`);
    const previous = this.endpoints.get(id);
    const state: EndpointState = {
      id,
      incarnation: (previous?.incarnation ?? 0) + 1,
      status: "live",
      closing: false,
      nextRegionId: 1,
      regions: new Map(),
      connections: new Map(),
      reads: new Map(),
      inbox: [],
      results: [],
      unreachable: new Set(),
      unreported: false,
      waiters: [],
      idBytes: encodeId(id),
    };
    if (previous !== undefined && previous.waiters.length > 0) this.replaced.add(previous);
    this.endpoints.set(id, state);
    return state;
  }

  /** Crash a live endpoint: memory gone, its own reads forgotten, its in-flight traffic lost. */
  crash(ep: EndpointState): void {
    if (ep.status !== "live") return;
    const at = this.now();
    for (const r of ep.reads.values()) {
      r.settled = true; // a dead process never hears back
      this.untrack(r);
      this.leavePath(r, at);
    }
    ep.reads.clear();
    ep.inbox.length = 0;
    ep.results.length = 0;
    ep.unreachable.clear();
    ep.unreported = false;
    this.gone(ep, "crashed", at);
    this.fault("crash", ep.id, ep.id, at);
  }

  countRestart(id: string): void {
    this.fault("restart", id, id, this.now());
  }

  /**
   * Shared by crash and close: memory and connections go, reads of its memory fail soon. `at` is
   * the time the caller read before changing anything (no second clock read half-way through).
   */
  private gone(ep: EndpointState, status: "crashed" | "closed", at: number): void {
    ep.status = status;
    ep.unreported = true; // the next wait returns at once (see waitForActivity)
    ep.regions.clear();
    ep.connections.clear();
    const soon = at + this.latencyMs;
    for (const other of this.endpoints.values()) {
      for (const r of other.reads.values()) {
        // A read of ep's memory: started over a connection to ep (the reader may have disconnected
        // since). A read started under no connection, or another one, never reads ep's memory.
        if (r.target !== ep) continue;
        // Whatever the reader's connection does from now on, this read of ep's memory fails with peerGone.
        r.goneTarget = ep;
        if (r.dueAt <= soon) continue;
        // The owner's NIC is gone: the reader learns of it after one latency, stalled or not.
        r.dueAt = soon;
        this.schedule(soon, this.completeAgain, { read: r, generation: ++r.generation });
      }
    }
    this.wake(ep, true);
    // The waits it just ended no longer need the network's timer (an external clock's): re-armed
    // for what is left, or cleared, so a closed network keeps no timer alive.
    if (this.clock !== undefined) this.armTimer();
  }

  // ---- endpoint operations (called by MockTransport) ------------------------------------

  metadata(ep: EndpointState): Uint8Array {
    return encodeMetadata({ endpointId: ep.id, incarnation: ep.incarnation });
  }

  connectPeer(ep: EndpointState, peerId: string, epoch: number, metadata: Uint8Array): Promise<void> {
    const unreachable = (why: string, reason: string) =>
      Promise.reject(
        new EctpError("PEER_UNREACHABLE", `cannot connect "${ep.id}" to peer ${quotedId(peerId)}: ${why}`, {
          details: { peerId, epoch, reason },
        }),
      );
    if (ep.status !== "live") return unreachable(`this endpoint is ${ep.status}; create a new one`, "local-closed");
    let meta: ReturnType<typeof decodeMetadata>;
    try {
      meta = decodeMetadata(metadata);
    } catch (cause) {
      // [I1] The caller's own object threw as it was read (a Proxy, a getter): a rejection like any malformed metadata, never a throw.
      meta = { ok: false, error: `peer metadata cannot be read (${thrownMessage(cause)})` };
    }
    if (!meta.ok) return unreachable(`${meta.error}; pass the bytes of the peer's localMetadata()`, "malformed-metadata");
    if (meta.value.endpointId !== peerId) {
      return unreachable(`the metadata belongs to endpoint "${meta.value.endpointId}", not ${quotedId(peerId)}`, "wrong-peer");
    }
    const target = this.endpoints.get(peerId);
    if (target === undefined) return unreachable(`no endpoint "${peerId}" exists on this MockNetwork`, "unknown-peer");
    if (target.incarnation !== meta.value.incarnation) {
      return unreachable(
        `the metadata is from incarnation ${meta.value.incarnation} but "${peerId}" is now incarnation ${target.incarnation} (it restarted); use its new localMetadata()`,
        "stale-metadata",
      );
    }
    if (target.status !== "live") return unreachable(`"${peerId}" is ${target.status}`, `peer-${target.status}`);
    const existing = ep.connections.get(peerId);
    // A newer epoch replaces older metadata (a new connection: reads started under the old one fail
    // "not connected"); a repeated call for the same epoch, or a late one for an older epoch, changes nothing.
    if (existing === undefined || epoch > existing.epoch || existing.target !== target) {
      ep.connections.set(peerId, { epoch, target });
    }
    return Promise.resolve();
  }

  disconnectPeer(ep: EndpointState, peerId: string): void {
    ep.connections.delete(peerId);
  }

  send(ep: EndpointState, peerId: string, message: Uint8Array, attachment: unknown = undefined): void {
    if (ep.status !== "live") return;
    if (!(message instanceof Uint8Array))
      throw invalid(`send to ${quotedId(peerId)} needs the message as a Uint8Array, got ${message === null ? "null" : typeof message}`);
    const conn = ep.connections.get(peerId);
    if (conn === undefined || conn.target.status !== "live") {
      // Not connected, or the peer crashed/closed/restarted since: dropped, reported through poll().
      ep.unreachable.add(peerId);
      ep.unreported = true;
      this.wake(ep);
      return;
    }
    const now = this.now();
    const link = this.link(ep.id, peerId);
    const f = this.faultsFor(ep.id, peerId, link);
    const rng = this.random(ep.id, peerId, link);
    if (f.partitioned === true) {
      this.fault("partitionMessage", ep.id, peerId, now);
      return;
    }
    if (rng.chance(f.drop)) {
      this.fault("drop", ep.id, peerId, now);
      return;
    }
    // Messages on one link keep their order (like one ordered connection) unless a fault intervenes.
    let dueAt = Math.max(now + this.latencyMs + message.length / this.bandwidthBytesPerMs, link.lastMessageDue ?? Number.NEGATIVE_INFINITY);
    link.lastMessageDue = dueAt;
    if (f.delay !== undefined && rng.chance(f.delay.probability)) {
      dueAt += rng.between(f.delay.minMs ?? 0, f.delay.maxMs ?? 10);
      this.fault("delay", ep.id, peerId, now);
    }
    // With an attachment the sender hands the bytes over too (see MockTransport.send): no copy.
    const bytes = attachment === undefined ? this.copier.copy(message) : message;
    const reorder = f.reorder !== undefined && rng.chance(f.reorder.probability);
    const holdUntil = reorder ? dueAt + (f.reorder?.maxHoldMs ?? 5) : dueAt;
    const msg: Message = { from: ep, to: conn.target, bytes, attachment, dueAt, holdUntil, released: false };
    if (reorder) {
      // Hold it until the link's next message has been scheduled ahead of it. Messages whose
      // hold ran out (delivered by deliverHeld) are dropped from the list now and then, so a
      // link that reorders every message does not keep them all.
      let held = link.held ?? [];
      if (held.length >= 32) held = held.filter((h) => !h.released);
      held.push(msg);
      link.held = held;
      this.schedule(holdUntil, this.deliverHeld, msg);
      this.fault("reorder", ep.id, peerId, now);
    } else {
      this.schedule(dueAt, this.deliverNow, msg);
      const held = link.held;
      if (held !== undefined) {
        // Each held message goes right behind this one, unless this one is due after the
        // held one's hold runs out (a delay fault, or a send within one latency of the end of
        // the hold): then the held one stays held, delivered by its deliverHeld event at
        // holdUntil (maxHoldMs past its own due time) at the latest, or behind a later
        // message due earlier.
        let kept: Message[] | undefined;
        for (const h of held) {
          if (h.released) continue;
          if (dueAt > h.holdUntil) {
            kept ??= [];
            kept.push(h);
            continue;
          }
          h.released = true;
          this.schedule(Math.max(dueAt, h.dueAt), this.deliverNow, h);
        }
        link.held = kept;
      }
    }
    if (rng.chance(f.duplicate)) {
      const copy: Message = {
        from: msg.from,
        to: msg.to,
        bytes: msg.attachment === undefined ? this.copier.copy(msg.bytes) : msg.bytes,
        attachment: msg.attachment,
        dueAt: msg.dueAt,
        holdUntil: msg.dueAt,
        released: true,
      };
      // The copy is never held: of a message `reorder` holds, one copy arrives in order and the held
      // one after the link's next message, as a late retransmission would (what a receiver must
      // take as a duplicate after it answered the first, e.g. a ReadRequest after its grant's ACK).
      this.schedule(dueAt, this.deliverNow, copy);
      this.fault("duplicate", ep.id, peerId, now);
    }
  }

  /** Event handler: deliver a message (made once, so scheduling a delivery allocates no closure). */
  private readonly deliverNow = (at: number, msg: Message): void => this.deliver(msg, at);

  /** Event handler: deliver a reordered message unless the link's next message released it first. */
  private readonly deliverHeld = (at: number, msg: Message): void => {
    if (msg.released) return;
    msg.released = true;
    this.deliver(msg, at);
  };

  /** Event handler: a read's first (not rescheduled) completion time. */
  private readonly completeFirst = (at: number, r: ReadState): void => this.complete(r, 0, at);

  /** Event handler: a read's completion at a time it was moved to (generation 1, 2, ...). */
  private readonly completeAgain = (at: number, e: Rescheduled): void => this.complete(e.read, e.generation, at);

  private deliver(msg: Message, at: number): void {
    if (msg.from.status === "crashed" || msg.to.status === "crashed") {
      this.fault("crashMessage", msg.from.id, msg.to.id, at);
      return;
    }
    if (msg.to.status !== "live") return; // closed receiver: nobody listens any more
    msg.to.inbox.push({ from: msg.from.id, bytes: msg.bytes, attachment: msg.attachment });
    msg.to.unreported = true;
    const list = this.observers;
    if (list.length > 0) {
      // The event is built only for an observer that has the hook (the same object for all of them).
      let event: DeliverEvent | undefined;
      for (let i = 0; i < list.length; i++) {
        const o = list[i] as NetworkObserver;
        if (o.onDeliver === undefined) continue;
        event ??= { at, from: msg.from.id, to: msg.to.id, length: msg.bytes.length };
        o.onDeliver(event);
      }
    }
    this.wake(msg.to);
  }

  registerMemory(ep: EndpointState, bytes: Uint8Array): MemoryRegion {
    if (ep.status !== "live") throw invalid(`cannot register memory on "${ep.id}": the endpoint is ${ep.status}`);
    if (!(bytes instanceof Uint8Array)) throw invalid(`registerMemory needs a Uint8Array, got ${describeValue(bytes)}`);
    // As NixlTransport: registered memory cannot shrink or be detached (transferred) under a read.
    const buffer = bytes.buffer;
    if ((buffer as { resizable?: boolean }).resizable === true || (buffer as { growable?: boolean }).growable === true)
      throw invalid("registerMemory needs memory that cannot shrink: pass a Uint8Array over a fixed-length ArrayBuffer, not a resizable one");
    if (!(buffer instanceof SharedArrayBuffer)) markAsUntransferable(buffer);
    const region: MemoryRegion = Object.freeze({ id: ep.nextRegionId++, bytes });
    ep.regions.set(region.id, region);
    return region;
  }

  private registered(ep: EndpointState, region: MemoryRegion, what: string): MemoryRegion {
    const own = ep.regions.get(region?.id);
    // The very object registerMemory returned: another endpoint's region over the same bytes has the same id.
    if (own === undefined || own !== region) {
      throw invalid(
        `${what}: region ${describeValue(region?.id)} is not registered with endpoint "${ep.id}" (already deregistered, or registered with another transport); register it with this transport first`,
        { endpointId: ep.id, regionId: region?.id },
      );
    }
    return own;
  }

  deregisterMemory(ep: EndpointState, region: MemoryRegion): void {
    if (ep.status !== "live") return; // closing or crashing already released everything
    this.registered(ep, region, "deregisterMemory");
    const at = this.now();
    // [I5] Reads writing into this region settle as failed now and never write afterwards.
    // Collected first (settling deletes from ep.reads); no list and no scan without unsettled reads.
    let dest: ReadState[] | undefined;
    if (ep.reads.size > 0) {
      for (const r of ep.reads.values()) {
        if (r.destination.region.id !== region.id) continue;
        if (dest === undefined) dest = [];
        dest.push(r);
      }
    }
    // Gone before the reads settle: an observer of their settlement can start no read into it.
    ep.regions.delete(region.id);
    if (dest !== undefined) {
      for (const r of dest) {
        this.settle(r, at, {
          readId: r.readId,
          status: "failed",
          error: `destination region ${region.id} was deregistered while the read was in flight; wait for a read to settle before freeing its destination [I5]`,
        });
      }
    }
    if (dest !== undefined) {
      this.recordUnsafe({
        at,
        side: "destination",
        endpointId: ep.id,
        regionId: region.id,
        reads: dest.map((r) => ({ endpointId: ep.id, readId: r.readId })),
      });
    }
    // Reads of this region by others fail at their due time (the source is gone). Only
    // reads whose location names this endpoint and region can be such reads: skip the scan without one.
    if (this.readsNaming.get(ep.id)?.has(region.id) !== true) return;
    const src: { endpointId: string; readId: number }[] = [];
    for (const other of this.endpoints.values()) {
      for (const r of other.reads.values()) {
        // Only a read whose connection to ep (the one it started under) still stands reads ep's memory.
        const conn = r.connection;
        if (conn === undefined || conn.target !== ep || other.connections.get(r.peerId) !== conn || !r.location.ok) continue;
        const loc = r.location.value;
        if (loc.endpointId === ep.id && loc.incarnation === ep.incarnation && loc.regionId === region.id) {
          src.push({ endpointId: other.id, readId: r.readId });
        }
      }
    }
    if (src.length > 0) this.recordUnsafe({ at, side: "source", endpointId: ep.id, regionId: region.id, reads: src });
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
        const due = Math.max(q.transferEnd + this.latencyMs, q.stallUntil);
        if (due >= q.dueAt) continue; // (an owner gone makes it end sooner already)
        q.dueAt = due;
        this.schedule(due, this.completeAgain, { read: q, generation: ++q.generation });
      }
    }
    path.busyUntil = list.length > 0 ? (list[list.length - 1] as ReadState).transferEnd : undefined;
  }

  /** A read left its owner's unsettled reads: it no longer counts in {@link Fabric.readsNaming}. */
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

  private recordUnsafe(event: UnsafeDeregistration): void {
    this.unsafe.push(event);
    const list = this.observers;
    for (let i = 0; i < list.length; i++) list[i]?.onUnsafeDeregistration?.(event);
  }

  describe(ep: EndpointState, region: MemoryRegion, offset: number, length: number): Uint8Array {
    // Its memory went with it: "register it first" would be advice the endpoint can no longer take.
    if (ep.status !== "live") throw invalid(`describe: "${ep.id}" is ${ep.status}, so its memory is released and no peer can read it; describe regions of a live endpoint (MockNetwork.endpoint or restart)`);
    const own = this.registered(ep, region, "describe");
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      throw invalid(`describe needs non-negative integer offset and length, got offset ${describeValue(offset)}, length ${describeValue(length)}`);
    }
    if (offset + length > own.bytes.length) {
      throw invalid(
        `describe: range [${offset}, ${offset + length}) is outside region ${own.id} of ${own.bytes.length} bytes; offset + length must be <= ${own.bytes.length}`,
        { regionId: own.id, offset, length, regionLength: own.bytes.length },
      );
    }
    return encodeLocation(
      { endpointId: ep.id, incarnation: ep.incarnation, regionId: own.id, offset, length },
      ep.idBytes,
      this.copier.take,
    );
  }

  startRead(ep: EndpointState, op: ReadOperation): void {
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
    const region = this.registered(ep, d.region, "startRead destination");
    if (!Number.isSafeInteger(d.offset) || !Number.isSafeInteger(d.length) || d.offset < 0 || d.length < 0) {
      throw invalid(`startRead destination needs non-negative integer offset and length, got ${describeValue(d.offset)}, ${describeValue(d.length)}`);
    }
    if (d.offset + d.length > region.bytes.length) {
      throw invalid(
        `startRead destination [${d.offset}, ${d.offset + d.length}) is outside region ${region.id} of ${region.bytes.length} bytes; offset + length must be <= ${region.bytes.length}`,
      );
    }
    const now = this.now();
    const peerId = op.peerId;
    // The source is peer-provided: decode it now (decoding keeps no reference to the bytes,
    // so later changes to the caller's array cannot affect the read), judge it only at
    // completion (never throw).
    const location = decodeLocation(op.source instanceof Uint8Array ? op.source : new Uint8Array());
    const link = this.link(ep.id, peerId);
    const f = this.faultsFor(ep.id, peerId, link);
    const rng = this.random(ep.id, peerId, link);
    let fault: ReadFault = "none";
    if (f.partitioned === true) fault = "partition";
    else if (rng.chance(f.failRead)) fault = "fail";
    else if (f.stallRead !== undefined && rng.chance(f.stallRead.probability)) {
      fault = f.stallRead.settle === "failed" ? "stall-failed" : "stall-done";
    }
    const corrupt = fault === "none" && rng.chance(f.corruptRead);
    // Counted (and observed) before anything is started: an observer that throws fails this call,
    // and a startRead that throws must have started nothing (Transport.startRead).
    if (fault === "stall-done" || fault === "stall-failed") this.fault("stallRead", ep.id, peerId, now, op.readId);
    // Bandwidth is per directed data path (owner -> reader): reads on one path transfer one after another.
    const path = this.link(peerId, ep.id);
    const start = Math.max(now, path.busyUntil ?? now);
    const end = start + d.length / this.bandwidthBytesPerMs;
    path.busyUntil = end;
    const stallUntil = fault === "stall-done" || fault === "stall-failed" ? now + (f.stallRead?.durationMs ?? 30_000) : Number.NEGATIVE_INFINITY;
    const dueAt = Math.max(end + this.latencyMs, stallUntil);
    const connection = ep.connections.get(peerId);
    const r: ReadState = {
      owner: ep,
      readId: op.readId,
      peerId,
      location,
      destination: { region, offset: d.offset, length: d.length },
      startedAt: now,
      connection,
      target: connection?.target,
      startSeq: this.readsStarted++,
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
    this.schedule(dueAt, this.completeFirst, r);
  }

  cancelRead(ep: EndpointState, readId: number): void {
    if (ep.status !== "live") return;
    const r = ep.reads.get(readId);
    if (r === undefined) return; // unknown or already settled: nothing to do
    if (r.fault === "stall-done" || r.fault === "stall-failed") return; // a stuck transfer ignores cancel [C8]
    this.settle(r, this.now(), { readId, status: "cancelled" });
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
    if (conn === undefined || r.owner.connections.get(r.peerId) !== conn) {
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
      this.fault("partitionRead", r.owner.id, r.peerId, at, r.readId);
      this.settle(r, at, { readId, status: "failed", error: `the link "${r.owner.id}" -> "${r.peerId}" is partitioned` });
      return;
    }
    if (!src.ok) {
      if (src.peerGone && (r.goneTarget ?? r.target)?.status === "crashed") {
        this.fault("crashRead", r.owner.id, r.peerId, at, r.readId);
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
      const n = this.random(r.owner.id, r.peerId).int(r.destination.length);
      this.write(r, src.bytes, n, true, at);
      if (r.settled) return; // an observer cancelled it (or crashed its owner) while it wrote
      this.fault("failRead", r.owner.id, r.peerId, at, r.readId);
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
      const i = this.random(r.owner.id, r.peerId).int(r.destination.length);
      const dest = r.destination.region.bytes;
      dest[r.destination.offset + i] = (dest[r.destination.offset + i]! ^ 0xff) & 0xff;
      this.fault("corruptRead", r.owner.id, r.peerId, at, r.readId);
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
    if (r.owner.regions.get(d.region.id) !== d.region) return false;
    d.region.bytes.set(n === src.length ? src : src.subarray(0, n), d.offset);
    const list = this.observers;
    if (list.length > 0) {
      let event: WriteEvent | undefined;
      for (let i = 0; i < list.length; i++) {
        const o = list[i] as NetworkObserver;
        if (o.onWrite === undefined) continue;
        event ??= { at, endpointId: r.owner.id, readId: r.readId, regionId: d.region.id, offset: d.offset, length: n, partial };
        o.onWrite(event);
      }
    }
    return true;
  }

  private settle(r: ReadState, at: number, result: ReadResult): void {
    if (r.settled) return; // exactly one result per read, whatever an observer did meanwhile
    r.settled = true;
    r.owner.reads.delete(r.readId);
    this.untrack(r);
    this.leavePath(r, at);
    r.owner.results.push(result);
    r.owner.unreported = true;
    // Before the observers: one that throws must not leave a wait asleep on a result already queued.
    this.wake(r.owner);
    const list = this.observers;
    if (list.length > 0) {
      let event: { at: number; endpointId: string; readId: number; status: ReadResult["status"]; error?: string; peerGone?: boolean } | undefined;
      for (let i = 0; i < list.length; i++) {
        const o = list[i] as NetworkObserver;
        if (o.onSettle === undefined) continue;
        if (event === undefined) {
          event = { at, endpointId: r.owner.id, readId: r.readId, status: result.status };
          if (result.error !== undefined) event.error = result.error;
          if (result.peerGone !== undefined) event.peerGone = result.peerGone;
        }
        o.onSettle(event);
      }
    }
  }

  poll(ep: EndpointState): MockActivity {
    this.throwTimerError();
    this.processDue(this.now());
    // Hand over the queues themselves and start new ones (no copy); an empty list is one
    // shared frozen array, and nothing at all one shared frozen result.
    const noMessages = ep.inbox.length === 0;
    const noReads = ep.results.length === 0;
    ep.unreported = false;
    if (noMessages && noReads && ep.unreachable.size === 0) return EMPTY_ACTIVITY;
    let messages: MockReceivedMessage[] = EMPTY_LIST;
    if (!noMessages) {
      messages = ep.inbox;
      ep.inbox = [];
    }
    let reads: ReadResult[] = EMPTY_LIST;
    if (!noReads) {
      reads = ep.results;
      ep.results = [];
    }
    let unreachable: string[] = EMPTY_LIST;
    if (ep.unreachable.size > 0) {
      unreachable = [...ep.unreachable];
      ep.unreachable.clear();
    }
    return { messages, reads, unreachable };
  }

  close(ep: EndpointState): void {
    if (ep.status !== "live") return;
    const at = this.now();
    // Unsettled reads settle as cancelled first; the transport never writes afterwards. An observer
    // that throws fails the close (its first error, once the endpoint is closed), never half-way:
    // every read still settles and the endpoint still closes.
    let thrown: { readonly error: unknown } | undefined;
    ep.closing = true; // (an observer of these settlements can start no read the close would leave unsettled)
    for (const r of [...ep.reads.values()])
      try {
        this.settle(r, at, { readId: r.readId, status: "cancelled" });
      } catch (error) {
        thrown ??= { error };
      }
    this.gone(ep, "closed", at);
    if (thrown !== undefined) throw thrown.error;
  }

  // ---- waiting ------------------------------------------------------------------------

  /** Whether `poll` of `ep` would hand over anything queued so far (messages, settled reads, unreachable peers). */
  hasActivity(ep: EndpointState): boolean {
    return ep.inbox.length > 0 || ep.results.length > 0 || ep.unreachable.size > 0;
  }

  /**
   * Resolve when `ep` closes or crashes (a wait pending then, or the first one after), when
   * something is queued for its `poll` that no wait has been told of, or after `timeoutMs`. Activity wakes every pending wait and is
   * remembered for the next wait, which returns at once and consumes it; a wait repeated
   * without a `poll` sleeps until new activity. So a loop that waits on several endpoints
   * but polls only some of them sleeps instead of spinning.
   */
  waitForActivity(ep: EndpointState, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    let now: number;
    try {
      this.throwTimerError();
      now = this.now();
      this.processDue(now);
    } catch (e) {
      // An external clock's bad reading, or an observer's throw (now, or kept from the network's timer): the wait fails with it.
      return Promise.reject(e);
    }
    // NaN (or a non-number) is no timeout at all: treated as 0, never as "forever".
    const timeout = typeof timeoutMs !== "number" || Number.isNaN(timeoutMs) ? 0 : Math.max(0, timeoutMs);
    // A closed or crashed endpoint wakes its first wait (the end is news, `unreported` set by
    // gone(), taken by that wait or by a poll like any activity), then sleeps like any other:
    // resolving every wait at once would spin a waiting loop without end (see wake()).
    // A wait that returns at once for activity is the wait told of it, whatever its timeout (edge-triggered).
    if (ep.unreported) {
      ep.unreported = false;
      return Promise.resolve();
    }
    if (timeout === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      if (signal === undefined) {
        this.addWait(ep, { wakeAt: now + timeout, resolve });
        return;
      }
      // The abort listener lives as long as the wait: a wait woken any other way takes it off,
      // so one signal reused across many waits does not collect a listener per wait.
      const onAbort = () => this.dropWait(ep, waiter);
      const waiter: Waiter = {
        wakeAt: now + timeout,
        resolve: () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      this.addWait(ep, waiter);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  private addWait(ep: EndpointState, waiter: Waiter): void {
    ep.waiters.push(waiter);
    this.waiterCount++;
    if (this.endpoints.get(ep.id) !== ep) this.replaced.add(ep); // an old handle's wait still times out
    if (this.clock !== undefined) this.armTimer();
  }

  /** An abandoned wait (its signal aborted): resolved, forgotten, and no timer kept for it. */
  private dropWait(ep: EndpointState, waiter: Waiter): void {
    const i = ep.waiters.indexOf(waiter);
    if (i < 0) return; // already woken
    ep.waiters.splice(i, 1);
    this.waiterCount--;
    if (ep.waiters.length === 0) this.replaced.delete(ep); // (a live incarnation is never in it)
    waiter.resolve();
    if (this.clock !== undefined) this.armTimer();
  }

  /**
   * Resolve the waiters of `ep` whose condition holds (or all of them). A closed or crashed
   * endpoint is no activity in itself: {@link Fabric.gone} wakes the waits pending then and
   * leaves the end as news (`unreported`) for the next wait; after that its waits sleep until
   * their timeout, however often other endpoints poll, wait or move time.
   */
  private wake(ep: EndpointState, all = false): void {
    if (ep.waiters.length === 0) return;
    // Called half-way through other work: a bad clock reading (NaN) does not throw here, it wakes
    // no wait by timeout (the caller's own read of the clock reported it, or the next one will).
    const now = this.clock === undefined ? this.time : peekClock(this.clock);
    const activity = all || ep.unreported;
    const keep: Waiter[] = [];
    for (const w of ep.waiters) {
      if (activity || w.wakeAt <= now) w.resolve();
      else keep.push(w);
    }
    const woken = ep.waiters.length - keep.length;
    this.waiterCount -= woken;
    ep.waiters = keep;
    // Woken outside processDue (a cancel, a deregistration, a send to an unknown peer): the
    // network's timer may have been armed for a deadline of a wait that just ended.
    if (woken > 0 && this.clock !== undefined && !this.processing && !this.wakingAll) this.armTimer();
  }

  /**
   * Wake the waits of every endpoint that are due (`every`: all of them, when the external clock gave
   * a bad reading), dropping replaced endpoints nobody waits on any more; then re-arm the timer.
   */
  private wakeAll(every = false): void {
    // Nobody waiting (a virtual-time loop such as the simulator's never waits): no walk over the endpoints.
    if (this.waiterCount > 0) {
      this.wakingAll = true;
      try {
        for (const ep of this.endpoints.values()) this.wake(ep, every);
        for (const ep of this.replaced) {
          this.wake(ep, every);
          if (ep.waiters.length === 0) this.replaced.delete(ep);
        }
      } finally {
        this.wakingAll = false;
      }
    }
    if (this.clock !== undefined) this.armTimer();
  }

  /** Throw what an observer threw from the network's timer, if anything (once: it is forgotten). */
  private throwTimerError(): void {
    const kept = this.timerError;
    if (kept === undefined) return;
    this.timerError = undefined;
    throw kept.error;
  }

  private hasWaiters(): boolean {
    return this.waiterCount > 0;
  }

  /** External-clock mode only: one real timer for the earliest event or waiter deadline. */
  private armTimer(): void {
    const clock = this.clock;
    if (clock === undefined) return;
    let target = Number.POSITIVE_INFINITY;
    if (this.hasWaiters()) {
      target = this.queue.peek()?.time ?? target;
      for (const ep of this.endpoints.values()) for (const w of ep.waiters) target = Math.min(target, w.wakeAt);
      for (const ep of this.replaced) for (const w of ep.waiters) target = Math.min(target, w.wakeAt);
    }
    if (target === this.timerAt) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = target;
    if (target === Number.POSITIVE_INFINITY) return;
    const now = peekClock(clock);
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Number.POSITIVE_INFINITY;
        const at = peekClock(clock);
        // No throw from a timer (nobody would catch it): a bad reading ends every wait instead, and
        // the waiting loop's next call (poll, waitForActivity) reads the clock and reports it.
        if (Number.isNaN(at)) {
          this.wakeAll(true);
          return;
        }
        try {
          this.processDue(at);
        } catch (e) {
          // An observer threw (an [I5] checker): kept for the next poll or wait, which reports it, and
          // every wait ends (processDue woke none and re-armed nothing), so that the loop makes that call.
          this.timerError ??= { error: e };
          this.wakeAll(true);
        }
      },
      // A longer delay than a Node timer takes would fire after 1 ms, every time: re-armed when it fires.
      // A bad reading (NaN) fires at once, to end the waits (above).
      Number.isNaN(now) ? 0 : Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil(target - now))),
    );
  }
}

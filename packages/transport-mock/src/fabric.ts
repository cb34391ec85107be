/**
 * The engine behind {@link MockNetwork} and {@link MockTransport}: endpoints, the
 * virtual-time event queue, fault decisions, messages, memory registration and invariant
 * bookkeeping. Its one-sided reads ({@link Reads}) and the waits for activity ({@link Waits})
 * are parts it owns, each in a module of its own. Internal; the public classes are thin
 * facades over it.
 * @module
 */

import type { MemoryRegion, ReadResult } from "@ectp/core";
import { EctpError, describeValue, thrownMessage } from "@ectp/protocol";
import { markAsUntransferable } from "node:worker_threads";
import { invalid } from "./errors.js";
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
import { decodeMetadata, encodeId, encodeLocation, encodeMetadata } from "./location.js";
import type { MockActivity, MockReceivedMessage } from "./transport.js";
import type { DeliverEvent, NetworkObserver, UnsafeDeregistration } from "./observer.js";
import { type ReadState, Reads } from "./reads.js";
import { LinkRandom, linkSeed } from "./random.js";
import { SmallBytes } from "./small-bytes.js";
import { type Waiter, Waits } from "./waits.js";

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

/** An endpoint's connection to a peer (`connectPeer`). Internal. */
export interface Connection {
  readonly epoch: number;
  /** The incarnation connected to; the peer is gone when it is no longer live. */
  readonly target: EndpointState;
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
   * it yet (see {@link Waits.waitForActivity}).
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
export interface Link {
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

/** A message on its way over a link, from `send` to its delivery. */
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
  /** The time source followed instead of virtual time (undefined: virtual time). */
  readonly clock: ExternalClock | undefined;
  private time: number;
  /** Every scheduled event (future ones, and spent ones not yet taken out), in (time, sequence) order. */
  readonly queue = new EventQueue();
  private readonly copier = new SmallBytes();
  /** The current incarnation of each endpoint id. */
  readonly endpoints = new Map<string, EndpointState>();
  /** Per-link state by sender, then receiver. */
  private readonly links = new Map<string, Map<string, Link>>();
  /** Bumped by every setFaults, so links re-resolve their faults lazily. */
  private faultsVersion = 0;
  /** {@link Fabric.observers}' array, replaced by {@link Fabric.observe} and its undo. */
  private observerList: readonly NetworkObserver[] = [];
  private readonly unsafe: UnsafeDeregistration[] = [];
  private counts: FaultCounts = zeroCounts();
  private plan: FaultPlan = {};
  /** {@link Fabric.processing}'s flag, set by {@link Fabric.processDue}. */
  private inProcessDue = false;
  /** The one-sided reads: started, completed and settled. */
  readonly reads = new Reads(this);
  /** The waits for activity, and the external clock's timer. */
  readonly waits = new Waits(this);

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
    if (ev.run === this.deliverHeld) return (ev.arg as Message).released;
    return this.reads.isSpent(ev);
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

  /**
   * Observers, each once, as an array replaced (never mutated) when one is added or removed:
   * the hot paths walk it by index (a Set's for-of allocates an iterator per delivery, write
   * and settlement). An observer added or removed during a notification takes effect from
   * the next event on. Changed only through {@link Fabric.observe}.
   */
  get observers(): readonly NetworkObserver[] {
    return this.observerList;
  }

  /** Whether {@link Fabric.processDue}'s loop over due events is running (an observer called from it re-enters it). */
  get processing(): boolean {
    return this.inProcessDue;
  }

  /** Run every event due at or before `t`, then wake waiters whose condition holds. */
  processDue(t: number): void {
    if (this.inProcessDue) return; // re-entry from an observer: the outer loop finishes the work
    this.inProcessDue = true;
    try {
      for (let ev = this.queue.peek(); ev !== undefined && ev.time <= t; ev = this.queue.peek()) {
        this.queue.pop();
        if (this.clock === undefined && ev.time > this.time) this.time = ev.time;
        ev.run(ev.time, ev.arg);
      }
      if (this.clock === undefined && t > this.time) this.time = t;
    } finally {
      this.inProcessDue = false;
    }
    this.waits.wakeAll();
  }

  /** Run `run(at, arg)` at virtual time `time`; hot paths pass a function made once per fabric and the state as `arg`. */
  schedule<A>(time: number, run: (at: number, arg: A) => void, arg: A): void {
    this.queue.push(time, run, arg);
    this.waits.eventScheduled(time);
  }

  // ---- faults -----------------------------------------------------------------------

  /** Replace the fault plan with a copy of `plan`; throws `INVALID_CONFIG` naming every problem of an invalid one (the old plan then stays). */
  setFaults(plan: FaultPlan): void {
    const problems = validateFaultPlan(plan);
    if (problems.length > 0) {
      throw new EctpError("INVALID_CONFIG", `invalid fault plan: ${problems.join("; ")}`, { details: { problems } });
    }
    this.plan = { default: copyFaultConfig(plan.default ?? {}), links: (plan.links ?? []).map(copyFaultConfig) };
    this.faultsVersion++;
  }

  /** A copy of the fault plan in force (`default` and `links` always present). */
  faults(): FaultPlan {
    return { default: copyFaultConfig(this.plan.default ?? {}), links: (this.plan.links ?? []).map(copyFaultConfig) };
  }

  /** Faults of link from -> to: the default, overridden field by field by matching link entries in order. */
  faultsFor(from: string, to: string, l: Link = this.link(from, to)): FaultConfig {
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
  link(from: string, to: string): Link {
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

  /** The fault stream of link from -> to (created on first use). */
  random(from: string, to: string, l: Link = this.link(from, to)): LinkRandom {
    let r = l.rng;
    if (r === undefined) {
      r = new LinkRandom(linkSeed(this.seed, from, to));
      l.rng = r;
    }
    return r;
  }

  /** Count an injected fault (or a crash or restart) and tell the observers of it. */
  fault(kind: FaultKind, from: string, to: string, at: number, readId?: number): void {
    this.counts[kind]++;
    const list = this.observers;
    for (let i = 0; i < list.length; i++) list[i]?.onFault?.({ at, kind, from, to, ...(readId === undefined ? {} : { readId }) });
  }

  /** A copy of the counts of faults injected so far (crashes and restarts included), by kind. */
  faultCounts(): FaultCounts {
    return { ...this.counts };
  }

  // ---- observers and invariant bookkeeping ----------------------------------------------

  /** Add `observer` (once, however often it is passed); returns the function that removes it. Refuses one that is not an object of hook functions. */
  observe(observer: NetworkObserver): () => void {
    const hooks = ["onWrite", "onSettle", "onDeliver", "onFault", "onUnsafeDeregistration"] as const;
    const needs = `observe needs an object whose ${hooks.join(", ")} are functions or absent`;
    if (observer === null || typeof observer !== "object") throw invalid(`${needs}; got ${describeValue(observer)}`);
    const bad = hooks.find((h) => observer[h] !== undefined && typeof observer[h] !== "function");
    if (bad !== undefined) throw invalid(`${needs}; its ${bad} is ${describeValue(observer[bad])}`);
    if (!this.observerList.includes(observer)) this.observerList = [...this.observerList, observer];
    return () => {
      this.observerList = this.observerList.filter((o) => o !== observer);
    };
  }

  /** A copy of every unsafe deregistration recorded so far, in the order they happened. */
  unsafeDeregistrations(): UnsafeDeregistration[] {
    return this.unsafe.map((u) => ({ ...u, reads: u.reads.map((r) => ({ ...r })) }));
  }

  // ---- endpoints --------------------------------------------------------------------

  /** The current incarnation of endpoint `id` (live, closed or crashed); undefined for an id never created. */
  current(id: string): EndpointState | undefined {
    return this.endpoints.get(id);
  }

  /** The id of every endpoint created so far, in the order each was first created. */
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
    if (previous !== undefined) this.waits.endpointReplaced(previous);
    this.endpoints.set(id, state);
    return state;
  }

  /** Crash a live endpoint: memory gone, its own reads forgotten, its in-flight traffic lost. */
  crash(ep: EndpointState): void {
    if (ep.status !== "live") return;
    const at = this.now();
    this.reads.forgetReadsBy(ep, at);
    ep.inbox.length = 0;
    ep.results.length = 0;
    ep.unreachable.clear();
    ep.unreported = false;
    this.gone(ep, "crashed", at);
    this.fault("crash", ep.id, ep.id, at);
  }

  /** Count a restart of endpoint `id` (a `restart` fault, told to the observers). */
  countRestart(id: string): void {
    this.fault("restart", id, id, this.now());
  }

  /**
   * Shared by crash and close: memory and connections go, reads of its memory fail soon. `at` is
   * the time the caller read before changing anything (no second clock read half-way through).
   */
  private gone(ep: EndpointState, status: "crashed" | "closed", at: number): void {
    ep.status = status;
    ep.unreported = true; // the next wait returns at once (see Waits.waitForActivity)
    ep.regions.clear();
    ep.connections.clear();
    this.reads.failReadsOf(ep, at);
    this.waits.wake(ep, true);
    // The waits it just ended no longer need the network's timer (an external clock's): re-armed
    // for what is left, or cleared, so a closed network keeps no timer alive.
    this.waits.armTimer();
  }

  // ---- endpoint operations (called by MockTransport) ------------------------------------

  /** `ep`'s metadata (endpoint id and incarnation) for peers' `connectPeer`. */
  metadata(ep: EndpointState): Uint8Array {
    return encodeMetadata({ endpointId: ep.id, incarnation: ep.incarnation });
  }

  /** Connect `ep` to the peer `metadata` names (see `MockTransport.connectPeer`); resolves at once, or rejects with why not. */
  connectPeer(ep: EndpointState, peerId: string, epoch: number, metadata: Uint8Array): Promise<void> {
    const unreachable = (why: string, reason: string) =>
      Promise.reject(
        new EctpError("PEER_UNREACHABLE", `cannot connect "${ep.id}" to peer ${quotedId(peerId)}: ${why}`, {
          details: { peerId, epoch, reason },
        }),
      );
    if (ep.status !== "live") return unreachable(`this endpoint is ${ep.status}; create a new one`, "local-closed");
    // [P8] Epochs are compared to tell a newer connection from a late call: one that is no whole number
    // (NaN, undefined) compares as neither, and once stored no later epoch would replace it.
    if (!Number.isSafeInteger(epoch) || epoch < 0)
      return Promise.reject(
        invalid(`connectPeer of "${ep.id}" to peer ${quotedId(peerId)}: epoch must be a non-negative safe integer (the peer's epoch), got ${describeValue(epoch)}`, {
          peerId,
          epoch,
        }),
      );
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
    // "not connected"), and so does any epoch for another incarnation (the peer restarted); a repeated
    // call for the same epoch, or a late one for an older epoch, of the same incarnation changes nothing.
    if (existing === undefined || epoch > existing.epoch || existing.target !== target) {
      ep.connections.set(peerId, { epoch, target });
    }
    return Promise.resolve();
  }

  /** Forget `ep`'s connection to `peerId`, if any. */
  disconnectPeer(ep: EndpointState, peerId: string): void {
    ep.connections.delete(peerId);
  }

  /** Send `message` from `ep` to `peerId` (see `MockTransport.send`): scheduled for delivery, dropped by a fault, or the peer reported unreachable. */
  send(ep: EndpointState, peerId: string, message: Uint8Array, attachment: unknown = undefined): void {
    if (ep.status !== "live") return;
    if (!(message instanceof Uint8Array))
      throw invalid(`send to ${quotedId(peerId)} needs the message as a Uint8Array, got ${describeValue(message)}`);
    const conn = ep.connections.get(peerId);
    if (conn === undefined || conn.target.status !== "live") {
      // Not connected, or the peer crashed/closed/restarted since: dropped, reported through poll().
      ep.unreachable.add(peerId);
      ep.unreported = true;
      this.waits.wake(ep);
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
    this.waits.wake(msg.to);
  }

  /** Register `bytes` (no copy) as a new region of `ep`; returns the region, frozen. */
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

  /** `region` itself, when it is registered with `ep` (the very object registerMemory returned); else `what` is refused. */
  registered(ep: EndpointState, region: MemoryRegion, what: string): MemoryRegion {
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

  /** Deregister `region` of `ep`: reads writing into it fail now, reads of it at their due time, both recorded as unsafe [I5]. */
  deregisterMemory(ep: EndpointState, region: MemoryRegion): void {
    if (ep.status !== "live") return; // closing or crashing already released everything
    this.registered(ep, region, "deregisterMemory");
    const at = this.now();
    // [I5] Reads writing into this region settle as failed now and never write afterwards.
    // Collected first (settling deletes from ep.reads).
    const dest = this.reads.writingInto(ep, region.id);
    // Gone before the reads settle: an observer of their settlement can start no read into it.
    ep.regions.delete(region.id);
    // An observer that throws fails the call (its first error, at the end), never half-way, as in
    // close: every read still settles and every unsafe deregistration is still recorded.
    let thrown: { readonly error: unknown } | undefined;
    if (dest !== undefined) {
      for (const r of dest)
        try {
          this.reads.settle(r, at, {
            readId: r.readId,
            status: "failed",
            error: `destination region ${region.id} was deregistered while the read was in flight; wait for a read to settle before freeing its destination [I5]`,
          });
        } catch (error) {
          thrown ??= { error };
        }
      try {
        this.recordUnsafe({
          at,
          side: "destination",
          endpointId: ep.id,
          regionId: region.id,
          reads: dest.map((r) => ({ endpointId: ep.id, readId: r.readId })),
        });
      } catch (error) {
        thrown ??= { error };
      }
    }
    // Reads of this region by others fail at their due time (the source is gone).
    const src = this.reads.readingFrom(ep, region.id);
    try {
      if (src !== undefined) this.recordUnsafe({ at, side: "source", endpointId: ep.id, regionId: region.id, reads: src });
    } catch (error) {
      thrown ??= { error };
    }
    if (thrown !== undefined) throw thrown.error;
  }

  /** Record an unsafe deregistration, then tell the observers of it. */
  private recordUnsafe(event: UnsafeDeregistration): void {
    this.unsafe.push(event);
    const list = this.observers;
    for (let i = 0; i < list.length; i++) list[i]?.onUnsafeDeregistration?.(event);
  }

  /** Location bytes for `[offset, offset + length)` of `ep`'s `region` (see `MockTransport.describe`), in a buffer of their own. */
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
    // A buffer of its own, not carved from the message copies' slabs: a location is kept as long as
    // its item is stored, and a kept blob would keep a whole slab alive.
    return encodeLocation({ endpointId: ep.id, incarnation: ep.incarnation, regionId: own.id, offset, length }, ep.idBytes);
  }

  /** Whether `poll` of `ep` would hand over anything queued so far (messages, settled reads, unreachable peers). */
  hasActivity(ep: EndpointState): boolean {
    return ep.inbox.length > 0 || ep.results.length > 0 || ep.unreachable.size > 0;
  }

  /** Run what is due now, then hand over and clear `ep`'s received messages, settled reads and unreachable peers. */
  poll(ep: EndpointState): MockActivity {
    this.waits.throwTimerError();
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

  /** Close `ep`: its unsettled reads settle `cancelled`, then its memory and connections go. A no-op unless it is live. */
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
        this.reads.settle(r, at, { readId: r.readId, status: "cancelled" });
      } catch (error) {
        thrown ??= { error };
      }
    this.gone(ep, "closed", at);
    if (thrown !== undefined) throw thrown.error;
  }
}

/**
 * {@link MockNetwork}: a virtual network of in-process ECTP endpoints on virtual time,
 * with a seeded fault injector and hooks for invariant checkers.
 * @module
 */

import type { MemoryRegion } from "@ectp/core";
import { EctpError, describeValue, refuseUnknownOptions } from "@ectp/protocol";
import { invalid } from "./errors.js";
import { type ExternalClock, Fabric } from "./fabric.js";
import type { FaultCounts, FaultPlan, LinkFaults } from "./faults.js";
import type { NetworkObserver, UnsafeDeregistration, UnsettledWrite } from "./observer.js";
import { MockTransport } from "./transport.js";

/** Default one-way latency of messages and reads: 0.05 ms (50 µs, a fast datacenter link). */
export const DEFAULT_LATENCY_MS = 0.05;

/** Default bandwidth: 10 000 000 bytes per ms, i.e. 10 GB/s (roughly one 100 Gb/s NIC). */
export const DEFAULT_BANDWIDTH_BYTES_PER_MS = 10_000_000;

/**
 * Options of a {@link MockNetwork}. Only these keys are accepted: any other key (a misspelt
 * `latncyMs`) is refused with `EctpError` `INVALID_CONFIG`, so a setting never silently falls
 * back to its default. An option left out or set to `undefined` takes its default; `null` is
 * checked like any other value (and refused: no option takes `null`).
 */
export interface MockNetworkOptions {
  /**
   * Seed of every fault decision (a safe integer). The same seed and the same sequence of calls give the
   * same deliveries, read results and fault counts. Required, so a failing run can always
   * be replayed.
   */
  readonly seed: number;
  /**
   * A time source to follow instead of the network's own virtual clock, for example
   * `{ now: () => performance.now() }` to use the mock under a real-time `Driver.run()`.
   * With it, time cannot be advanced by hand ({@link MockNetwork.advanceTo} throws), due
   * events run whenever an endpoint polls or waits, and `waitForActivity` sleeps on real
   * timers. `now()` must return a finite number of ms that never goes backwards: a reading that is
   * not a finite number (`NaN`, `Infinity`, a string) is refused where it is read, with `EctpError`
   * `INVALID_CONFIG` thrown by the call that read it ({@link MockNetwork.now}, an endpoint's `poll`,
   * `send`, `startRead`, ...; `waitForActivity` rejects with it). Default: none (virtual time,
   * starting at `startTimeMs`, moved only by {@link MockNetwork.advanceTo}/{@link MockNetwork.advanceBy}).
   */
  readonly clock?: ExternalClock | undefined;
  /** Virtual time at creation, in ms. Ignored with `clock`. Default: 0. */
  readonly startTimeMs?: number | undefined;
  /** One-way latency of every message and read, in ms. Default: {@link DEFAULT_LATENCY_MS} (0.05). */
  readonly latencyMs?: number | undefined;
  /**
   * Bytes per ms a message or read moves: a read of `n` bytes takes `n / bandwidthBytesPerMs`
   * ms on its owner -> reader path, plus latency. Default: {@link DEFAULT_BANDWIDTH_BYTES_PER_MS}
   * (10 GB/s).
   */
  readonly bandwidthBytesPerMs?: number | undefined;
  /** The initial fault plan; change it any time with {@link MockNetwork.setFaults}. Default: no faults. */
  readonly faults?: FaultPlan | undefined;
}

/** Every key {@link MockNetworkOptions} has; the constructor refuses any other. */
const OPTION_KEYS: readonly (keyof MockNetworkOptions)[] = ["seed", "clock", "startTimeMs", "latencyMs", "bandwidthBytesPerMs", "faults"];

function config(message: string, details: Record<string, unknown>): EctpError {
  return new EctpError("INVALID_CONFIG", message, { details });
}

/**
 * A virtual network of any number of {@link MockTransport} endpoints in one process.
 *
 * Why: engine authors (and this repository's simulator and conformance testees) need to
 * run real producer and consumer cores against each other quickly, deterministically
 * and under failure, without GPUs or NIXL. Every endpoint moves real bytes between
 * `Uint8Array`s; time is virtual, so a 30 s stall costs nothing to simulate; every fault
 * is drawn from a seeded per-link stream and counted.
 *
 * Time only moves when you call {@link MockNetwork.advanceTo} or
 * {@link MockNetwork.advanceBy} (unless you pass an external `clock`). Each endpoint's
 * `poll()` first runs whatever is due at the current time. The network is itself a
 * clock (`now()`), so it can be handed to `Driver` as its `Clock`.
 *
 * @example
 * ```ts
 * const net = new MockNetwork({ seed: 1 });
 * const producer = net.endpoint("producer");
 * const consumer = net.endpoint("consumer");
 * await consumer.connectPeer("producer", 1, producer.localMetadata());
 * const src = producer.registerMemory(new Uint8Array([1, 2, 3, 4]));
 * const dst = consumer.registerMemory(new Uint8Array(4));
 * consumer.startRead({ readId: 1, peerId: "producer", source: producer.describe(src, 0, 4),
 *   destination: { region: dst, offset: 0, length: 4 } });
 * net.advanceTo(net.nextEventTime()!);
 * consumer.poll().reads; // [{ readId: 1, status: "done", bytesRead: 4 }]
 * ```
 */
export class MockNetwork {
  private readonly fabric: Fabric;
  private readonly transports = new Map<string, MockTransport>();

  /**
   * Throws `EctpError` `INVALID_CONFIG` for options that are not an object, a key that is not one of
   * {@link MockNetworkOptions} (a misspelt option; the message names it and lists the known ones), a
   * seed that is not a safe integer, a latency that is not a finite number >= 0, a bandwidth that is
   * not a finite number > 0, a start time that is not a finite number, a clock without `now()`, or an
   * invalid fault plan. `null` is such a value too (a `null` fault plan is invalid): only an option left
   * out or set to `undefined` takes its default.
   */
  constructor(options: MockNetworkOptions) {
    if (typeof options !== "object" || options === null || Array.isArray(options)) {
      throw config(`MockNetwork needs an options object ({ seed, ... }), got ${describeValue(options)}`, {});
    }
    refuseUnknownOptions("MockNetwork", options, OPTION_KEYS);
    const seed = options.seed;
    if (!Number.isSafeInteger(seed)) throw config(`MockNetwork needs an integer \`seed\` (a safe integer), got ${describeValue(seed)}`, { seed });
    // Only a missing (or undefined) option takes its default: null is checked like any other value.
    const latencyMs = options.latencyMs === undefined ? DEFAULT_LATENCY_MS : options.latencyMs;
    if (!(Number.isFinite(latencyMs) && latencyMs >= 0)) {
      throw config(`latencyMs must be a finite number >= 0, got ${describeValue(latencyMs)}`, { latencyMs });
    }
    const bandwidthBytesPerMs = options.bandwidthBytesPerMs === undefined ? DEFAULT_BANDWIDTH_BYTES_PER_MS : options.bandwidthBytesPerMs;
    if (typeof bandwidthBytesPerMs !== "number" || !(bandwidthBytesPerMs > 0 && bandwidthBytesPerMs !== Number.POSITIVE_INFINITY)) {
      throw config(`bandwidthBytesPerMs must be a finite number > 0, got ${describeValue(bandwidthBytesPerMs)}`, {
        bandwidthBytesPerMs,
      });
    }
    const startTimeMs = options.startTimeMs === undefined ? 0 : options.startTimeMs;
    if (!Number.isFinite(startTimeMs)) throw config(`startTimeMs must be a finite number, got ${describeValue(startTimeMs)}`, { startTimeMs });
    const clock: unknown = options.clock;
    if (clock !== undefined && (typeof clock !== "object" || clock === null || typeof (clock as { now?: unknown }).now !== "function")) {
      throw config(`clock must be an object with a now(): number method, got ${describeValue(clock)}`, {});
    }
    this.fabric = new Fabric({
      seed,
      clock: options.clock,
      startTimeMs,
      latencyMs,
      bandwidthBytesPerMs,
      faults: options.faults === undefined ? {} : options.faults,
    });
  }

  /**
   * The live endpoint with this id, created (incarnation 1) on first use. After the
   * endpoint was closed this creates its next incarnation. Throws `INVALID_ARGUMENT` when
   * the id was crashed: use {@link MockNetwork.restart}, so the restart is counted; and for an
   * id that is not a non-empty string, has a lone UTF-16 surrogate (UTF-8 cannot carry it, so no
   * peer could reach it) or is over 65,535 UTF-8 bytes.
   */
  endpoint(id: string): MockTransport {
    const existing = this.transports.get(id);
    if (existing?.status === "live") return existing;
    if (existing?.status === "crashed") {
      throw new EctpError("INVALID_ARGUMENT", `endpoint "${id}" crashed; call restart("${id}") to bring it back`, {
        details: { id },
      });
    }
    return this.spawn(id);
  }

  private spawn(id: string): MockTransport {
    const t = new MockTransport(this.fabric, this.fabric.create(id));
    this.transports.set(id, t);
    return t;
  }

  /** Ids of every endpoint ever created, in creation order. */
  endpointIds(): string[] {
    return this.fabric.ids();
  }

  /**
   * Current time in ms (virtual, or the external clock's). Lets the network serve as a `Driver` clock.
   * Throws `EctpError` `INVALID_CONFIG` when the external `clock`'s `now()` returns anything but a
   * finite number.
   */
  now(): number {
    return this.fabric.now();
  }

  /**
   * Move virtual time forward to `t` ms, running every delivery and read completion due
   * by then in order, so they become visible to the endpoints' `poll()`. Throws
   * `INVALID_ARGUMENT` for a time that is not a finite number, a time in the past, and when
   * following an external clock.
   */
  advanceTo(t: number): void {
    this.fabric.advanceTo(t);
  }

  /**
   * {@link MockNetwork.advanceTo} `now() + ms`. Throws `INVALID_ARGUMENT` when `ms` is not a finite
   * number >= 0 (a bigint included), and when following an external clock.
   */
  advanceBy(ms: number): void {
    if (typeof ms !== "number" || !(Number.isFinite(ms) && ms >= 0)) {
      throw invalid(`advanceBy needs a finite number of ms >= 0, got ${describeValue(ms)}`, { ms });
    }
    this.fabric.advanceTo(this.fabric.now() + ms);
  }

  /**
   * When the next scheduled event (delivery, read completion, held-message flush) is due,
   * or `undefined` when nothing is scheduled: a simulator jumps time there instead of
   * ticking. A returned time may be at or before `now()` when an event is already due.
   * Events left with nothing to do are not named: the completion of a read that settled
   * early (cancelled, failed, its reader crashed) or moved earlier on its path, and the flush
   * of a held message the link's next message already released.
   */
  nextEventTime(): number | undefined {
    return this.fabric.nextEventTime();
  }

  /** How many times each fault has been injected so far (a copy). */
  faultCounts(): FaultCounts {
    return this.fabric.faultCounts();
  }

  /** Replace the fault plan; takes effect for messages sent and reads started from now on. Throws `INVALID_CONFIG` for an invalid plan. */
  setFaults(plan: FaultPlan): void {
    this.fabric.setFaults(plan);
  }

  /** The current fault plan (a copy). */
  faults(): FaultPlan {
    return this.fabric.faults();
  }

  /**
   * Cut the links between `a` and `b` in both directions (or only `a -> b` with
   * `oneWay`): messages sent and reads started while the cut holds are lost, the reads failing
   * at their due time (a read of an owner that crashed or closed fails with `peerGone` instead),
   * also when {@link MockNetwork.heal} came before that time. Like every fault, it is drawn when
   * a message is sent or a read starts: what was already in flight goes through. Sugar over
   * {@link MockNetwork.setFaults}. Throws `INVALID_ARGUMENT` when `a` or `b` is not a string.
   */
  partition(a: string, b: string, oneWay = false): void {
    this.setPartitioned(a, b, oneWay, true);
  }

  /**
   * Undo {@link MockNetwork.partition} for `a` and `b` (both directions, or only `a -> b` with `oneWay`).
   * Throws `INVALID_ARGUMENT` when `a` or `b` is not a string.
   */
  heal(a: string, b: string, oneWay = false): void {
    this.setPartitioned(a, b, oneWay, false);
  }

  private setPartitioned(a: string, b: string, oneWay: boolean, partitioned: boolean): void {
    if (typeof a !== "string" || typeof b !== "string") {
      const what = partitioned ? "partition" : "heal";
      throw invalid(`${what} needs two endpoint ids (strings), got ${describeValue(a)} and ${describeValue(b)}`, { a, b });
    }
    const plan = this.fabric.faults();
    const links: LinkFaults[] = [...(plan.links ?? [])];
    const pairs: [string, string][] = oneWay ? [[a, b]] : [[a, b], [b, a]];
    for (const [from, to] of pairs) {
      // The pair's earlier partition/heal entries go (the new one decides): flapping a link
      // must not grow the plan, which every link re-reads after a change.
      for (let i = links.length - 1; i >= 0; i--) if (isPartitionEntry(links[i] as LinkFaults, from, to)) links.splice(i, 1);
      links.push({ from, to, partitioned });
    }
    this.fabric.setFaults({ ...plan, links });
  }

  /**
   * Crash an endpoint, like `kill -9` of its process: its registered memory is gone, its
   * own unsettled reads are forgotten (a dead process hears nothing), messages in flight
   * to or from it vanish, peers' reads of its memory fail with `peerGone: true` one
   * latency from now (over a partitioned link too), and peers' sends to it are reported
   * `unreachable`. Returns false (and counts nothing) when it was already closed or crashed.
   * Throws `INVALID_ARGUMENT` for an id that is not a string or was never created.
   */
  crash(id: string): boolean {
    checkId(id, "crash");
    const t = this.transports.get(id);
    if (t === undefined) throw invalid(`no endpoint "${id}" exists on this MockNetwork; create it with endpoint("${id}") first`, { id });
    const state = this.fabric.current(id);
    if (state === undefined || state.status !== "live") return false;
    this.fabric.crash(state);
    return true;
  }

  /**
   * Restart an endpoint: crash it if it is live, then return a fresh endpoint under the
   * same id with the next {@link MockTransport.incarnation} (no memory, no connections).
   * Its owner should start a new epoch [P8]; peers must reconnect with its new
   * `localMetadata()` (the old one is rejected). Throws `INVALID_ARGUMENT` for an id that is not a
   * string or was never created.
   */
  restart(id: string): MockTransport {
    checkId(id, "restart");
    if (!this.transports.has(id)) throw invalid(`no endpoint "${id}" exists on this MockNetwork; use endpoint("${id}")`, { id });
    this.crash(id);
    const t = this.spawn(id);
    this.fabric.countRestart(id);
    return t;
  }

  /**
   * Every read that may still write into its destination (optionally of one endpoint), in
   * start order. An [I5] checker asserts that no listed range is reused or freed. Throws
   * `INVALID_ARGUMENT` for an `endpointId` that is not a string (it would list nothing).
   */
  unsettledWrites(endpointId?: string): UnsettledWrite[] {
    // [I5] A checker given what it cannot judge says so: an empty list would read as "nothing writes".
    if (endpointId !== undefined) checkId(endpointId, "unsettledWrites");
    return this.fabric.reads.unsettledWrites(endpointId);
  }

  /**
   * Whether an unsettled read of `endpointId` may still write into
   * `[offset, offset + length)` of `region` (default: the whole region): the very `MemoryRegion`
   * object its `registerMemory` returned (a region of another endpoint or of an earlier
   * incarnation, with the same id, is not it), or a region id of its current incarnation. Call it before
   * reusing or freeing destination memory to check [I5]. A zero-length read writes nothing, and a
   * zero-length range holds nothing to write into: neither ever counts. Throws `INVALID_ARGUMENT`
   * for an `endpointId` that is not a string, a region that is neither a `MemoryRegion` nor an
   * integer id, an `offset` that is not a finite number >= 0, or a `length` that is not a number
   * >= 0 (`Infinity`, the default, is the rest of the region): `false` would read as "safe to reuse".
   */
  hasUnsettledWriteInto(endpointId: string, region: MemoryRegion | number, offset = 0, length = Number.POSITIVE_INFINITY): boolean {
    checkId(endpointId, "hasUnsettledWriteInto");
    if (typeof region !== "number" && (region === null || typeof region !== "object"))
      throw new EctpError("INVALID_ARGUMENT", `hasUnsettledWriteInto needs a MemoryRegion or a region id; got ${describeValue(region)}`, { details: { endpointId } });
    const regionId: unknown = typeof region === "number" ? region : region.id;
    // [I5] A range it cannot judge (NaN, a string, a negative number) is refused, never answered "nothing writes there".
    if (!Number.isSafeInteger(regionId))
      throw invalid(`hasUnsettledWriteInto needs a region id that is an integer, got ${describeValue(regionId)}`, { endpointId });
    if (typeof offset !== "number" || !Number.isFinite(offset) || offset < 0)
      throw invalid(`hasUnsettledWriteInto needs an offset that is a finite number >= 0 (bytes into the region), got ${describeValue(offset)}`, { endpointId });
    if (typeof length !== "number" || !(length >= 0))
      throw invalid(`hasUnsettledWriteInto needs a length that is a number >= 0 (Infinity: the rest of the region), got ${describeValue(length)}`, { endpointId });
    return this.fabric.reads.hasUnsettledWriteInto(endpointId, typeof region === "number" ? region : (region as MemoryRegion), offset, length);
  }

  /** Every deregistration that happened while reads still involved the region (a copy; see {@link UnsafeDeregistration}). */
  unsafeDeregistrations(): UnsafeDeregistration[] {
    return this.fabric.unsafeDeregistrations();
  }

  /**
   * Subscribe to writes, settlements, deliveries, faults and unsafe deregistrations
   * (called synchronously, in order). Returns a function that unsubscribes. An observer that
   * throws fails the call that triggered it; with an external `clock`, when the network's own
   * timer triggered it, the next `poll` of any endpoint throws it (or its next `waitForActivity`
   * rejects with it), and every pending wait ends so that the waiting loop makes that call.
   */
  observe(observer: NetworkObserver): () => void {
    return this.fabric.observe(observer);
  }
}

/** Refuses an endpoint id that is not a string (`INVALID_ARGUMENT`, naming `method`), before the id goes into any message. */
function checkId(id: unknown, method: string): asserts id is string {
  if (typeof id !== "string") throw invalid(`${method} needs an endpoint id (a string), got ${describeValue(id)}`, { id });
}

/** Whether `l` is exactly an entry {@link MockNetwork.partition} or `heal` adds for `from -> to`. */
function isPartitionEntry(l: LinkFaults, from: string, to: string): boolean {
  const keys = Object.keys(l);
  return l.from === from && l.to === to && keys.length === 3 && "partitioned" in l;
}

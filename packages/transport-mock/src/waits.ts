/**
 * Waiting for activity (`Transport.waitForActivity`): the waits pending on each endpoint, what
 * wakes them (activity, their timeout, their signal, the endpoint's end), and, when the network
 * follows an external clock, the one real timer that ends them on time and runs the events due
 * meanwhile. Internal.
 * @module
 */

import type { EndpointState, ExternalClock, Fabric } from "./fabric.js";

/** One pending wait: resolved by activity, at its timeout `wakeAt`, or when its signal aborts. Internal. */
export interface Waiter {
  readonly wakeAt: number;
  readonly resolve: () => void;
}

/** The longest delay a Node timer takes as given (a longer one fires after 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A reading of the external clock, or `NaN` when it is not a finite number or `now()` threw: for the reads that must not throw. */
function peekClock(clock: ExternalClock): number {
  try {
    const t: unknown = clock.now();
    return typeof t === "number" && Number.isFinite(t) ? t : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * The waits of one {@link Fabric}'s endpoints. Each endpoint keeps its own pending waits
 * ({@link EndpointState.waiters}); this keeps their count, the replaced incarnations that still
 * have some, and the external clock's timer. Internal.
 */
export class Waits {
  private readonly fabric: Fabric;
  /**
   * Replaced incarnations (after a restart, or a new endpoint under a closed one's id) that still
   * have waiters: their old handles' waits time out like any other, until none is left.
   */
  private readonly replaced = new Set<EndpointState>();
  /** In {@link Waits.wakeAll}, which re-arms the timer once at its end. */
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

  constructor(fabric: Fabric) {
    this.fabric = fabric;
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
      now = this.fabric.now();
      this.fabric.processDue(now);
    } catch (e) {
      // An external clock's bad reading, or an observer's throw (now, or kept from the network's timer): the wait fails with it.
      return Promise.reject(e);
    }
    // NaN (or a non-number) is no timeout at all: treated as 0, never as "forever".
    const timeout = typeof timeoutMs !== "number" || Number.isNaN(timeoutMs) ? 0 : Math.max(0, timeoutMs);
    // A closed or crashed endpoint wakes its first wait (the end is news, `unreported` set by
    // Fabric.gone(), taken by that wait or by a poll like any activity), then sleeps like any other:
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

  /** Keep `waiter` pending on `ep` until activity, its timeout or its signal ends it. */
  private addWait(ep: EndpointState, waiter: Waiter): void {
    ep.waiters.push(waiter);
    this.waiterCount++;
    if (this.fabric.endpoints.get(ep.id) !== ep) this.replaced.add(ep); // an old handle's wait still times out
    if (this.fabric.clock !== undefined) this.armTimer();
  }

  /** An abandoned wait (its signal aborted): resolved, forgotten, and no timer kept for it. */
  private dropWait(ep: EndpointState, waiter: Waiter): void {
    const i = ep.waiters.indexOf(waiter);
    if (i < 0) return; // already woken
    ep.waiters.splice(i, 1);
    this.waiterCount--;
    if (ep.waiters.length === 0) this.replaced.delete(ep); // (a live incarnation is never in it)
    waiter.resolve();
    if (this.fabric.clock !== undefined) this.armTimer();
  }

  /**
   * `ep` was replaced by a new incarnation (a restart, or a new endpoint under a closed one's id):
   * the waits pending on it still time out, until none is left.
   */
  endpointReplaced(ep: EndpointState): void {
    if (ep.waiters.length > 0) this.replaced.add(ep);
  }

  /** An event was scheduled at `time`: with an external clock, the timer is re-armed if a wait is pending and the event is due before it. */
  eventScheduled(time: number): void {
    if (this.fabric.clock !== undefined && time < this.timerAt && this.hasWaiters()) this.armTimer();
  }

  /**
   * Resolve the waiters of `ep` whose condition holds (or all of them). A closed or crashed
   * endpoint is no activity in itself: {@link Fabric.gone} wakes the waits pending then and
   * leaves the end as news (`unreported`) for the next wait; after that its waits sleep until
   * their timeout, however often other endpoints poll, wait or move time.
   */
  wake(ep: EndpointState, all = false): void {
    if (ep.waiters.length === 0) return;
    // Called half-way through other work: a bad reading of an external clock (NaN) does not throw
    // here, it wakes no wait by timeout (the caller's own read of the clock reported it, or the next
    // one will). Virtual time (no external clock) is read with now(), which then never throws.
    const clock = this.fabric.clock;
    const now = clock === undefined ? this.fabric.now() : peekClock(clock);
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
    if (woken > 0 && this.fabric.clock !== undefined && !this.fabric.processing && !this.wakingAll) this.armTimer();
  }

  /**
   * Wake the waits of every endpoint that are due (`every`: all of them, when the external clock gave
   * a bad reading), dropping replaced endpoints nobody waits on any more; then re-arm the timer.
   */
  wakeAll(every = false): void {
    // Nobody waiting (a virtual-time loop such as the simulator's never waits): no walk over the endpoints.
    if (this.waiterCount > 0) {
      this.wakingAll = true;
      try {
        for (const ep of this.fabric.endpoints.values()) this.wake(ep, every);
        for (const ep of this.replaced) {
          this.wake(ep, every);
          if (ep.waiters.length === 0) this.replaced.delete(ep);
        }
      } finally {
        this.wakingAll = false;
      }
    }
    if (this.fabric.clock !== undefined) this.armTimer();
  }

  /** Throw what an observer threw from the network's timer, if anything (once: it is forgotten). */
  throwTimerError(): void {
    const kept = this.timerError;
    if (kept === undefined) return;
    this.timerError = undefined;
    throw kept.error;
  }

  /** Whether any wait is pending, on any endpoint. */
  private hasWaiters(): boolean {
    return this.waiterCount > 0;
  }

  /** External-clock mode only: one real timer for the earliest event or waiter deadline. */
  armTimer(): void {
    const clock = this.fabric.clock;
    if (clock === undefined) return;
    let target = Number.POSITIVE_INFINITY;
    if (this.hasWaiters()) {
      target = this.fabric.queue.peek()?.time ?? target;
      for (const ep of this.fabric.endpoints.values()) for (const w of ep.waiters) target = Math.min(target, w.wakeAt);
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
          this.fabric.processDue(at);
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

/**
 * The loop an engine or a test runs to drive `Driver`s on a {@link MockNetwork}'s virtual time.
 * @module
 */
import type { Driver } from "@ectp/core";
import { describeValue, refuseUnknownOptions } from "@ectp/protocol";
import { invalid } from "./errors.js";
import type { MockNetwork } from "./network.js";

/**
 * The part of a `Driver` (from `@ectp/core`) that {@link runOnVirtualTime} uses: its `clock` is
 * read, when it has one, to refuse a driver on another clock than the network's.
 */
export type SteppedDriver = Pick<Driver, "step" | "hasWork" | "nextDeadline"> & Partial<Pick<Driver, "clock">>;

/** Options of {@link runOnVirtualTime}. */
export interface VirtualRunOptions {
  /** The most rounds to run (each steps every driver once): an integer >= 1. Default 100,000. */
  readonly maxRounds?: number | undefined;
  /**
   * A virtual time (ms) not to advance past: the run ends at it (`end-time`) once the round run there
   * leaves no work due at once, also when nothing else was scheduled (time then jumps to it).
   * Default: none.
   */
  readonly endTimeMs?: number | undefined;
}

/** How {@link runOnVirtualTime} ended. */
export interface VirtualRunResult {
  /**
   * `done`: `until()` returned true. `idle`: nothing was left to happen (no driver holds work, no
   * deadline, no network event) and `until()` still returned false. `end-time`: virtual time reached
   * `endTimeMs`. `max-rounds`: the rounds ran out.
   */
  readonly ended: "done" | "idle" | "end-time" | "max-rounds";
  /** The rounds run. */
  readonly rounds: number;
  /** The network's virtual time at the end, in ms. */
  readonly now: number;
}

/** Every key {@link VirtualRunOptions} has; {@link runOnVirtualTime} refuses any other. */
const OPTION_KEYS: readonly (keyof VirtualRunOptions)[] = ["maxRounds", "endTimeMs"];

/** Default {@link VirtualRunOptions.maxRounds}. */
export const DEFAULT_MAX_ROUNDS = 100_000;

/**
 * Drives `drivers` (each built with `clock: net`) on `net`'s virtual time until `until()` returns
 * true. Each round steps every driver once, lets the transport's promises settle (a macrotask:
 * `connectPeer` resolves there), and asks `until()` (where an engine re-admits its requests); then,
 * unless a driver holds work due at once (`hasWork`: what it settled itself, such as a failed
 * connect's reads, is handed to its cores on the next step, before time moves), it advances `net`
 * to the earliest of its next event and the drivers' deadlines. Nothing else moves virtual time, so
 * a run is deterministic for a given seed. `Driver.run()` is the loop for real time; on a clock only
 * its caller advances, its deadlines would never come.
 * With `endTimeMs`, time never moves past it, so a test can run a stretch of virtual time exactly.
 *
 * It sees only the network's events and the drivers' deadlines, not the engine's own work: requests
 * that arrive later, local encodes that finish, a scheduler's step. With none of those pending it ends
 * `idle` while requests still wait for such work, or jumps time straight past when it was due (to the
 * next deadline, up to `endTimeMs`). An engine with a timeline of its own runs in ticks: each call
 * runs up to the engine's next piece of work (`endTimeMs`), then the engine does it, for example
 * `while (engine.busy()) { await runOnVirtualTime(net, drivers, () => false, { endTimeMs: Math.min(engine.nextWorkAt(), net.now() + stepMs) }); engine.step(net.now()); }`
 * (a fixed `stepMs` alone, 1 ms say, also works: more rounds, no missed work).
 * @throws EctpError(INVALID_ARGUMENT) for a network that follows an external clock (it cannot be
 *   advanced), a driver whose `clock` reads another time than the network (one left on the default,
 *   real time: its deadlines would never match the network's time, and reads would time out at
 *   random), an empty `drivers`, an `until` that is not a function, `options` that are not an
 *   object or hold a key other than `maxRounds` and `endTimeMs` (a misspelt option, named), a
 *   `maxRounds` that is not an integer >= 1, or an `endTimeMs` that is not a finite number at or
 *   after `net.now()`. What a driver's `step` or `until` throws reaches the caller.
 */
export async function runOnVirtualTime(
  net: MockNetwork,
  drivers: readonly SteppedDriver[],
  until: () => boolean,
  options: VirtualRunOptions = {},
): Promise<VirtualRunResult> {
  // A misspelt option would run as no option (a run past the intended end): refused, as MockNetwork's are.
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw invalid(`runOnVirtualTime's options must be an object ({ maxRounds?, endTimeMs? }), got ${describeValue(options)}`);
  refuseUnknownOptions("runOnVirtualTime", options, OPTION_KEYS, "INVALID_ARGUMENT");
  // Only an absent maxRounds takes the default: a null one is refused below, as a null endTimeMs is.
  const maxRounds = options.maxRounds === undefined ? DEFAULT_MAX_ROUNDS : options.maxRounds;
  const endTimeMs = options.endTimeMs ?? Number.POSITIVE_INFINITY;
  if (!Array.isArray(drivers) || drivers.length === 0) throw invalid(`runOnVirtualTime needs at least one driver, got ${describeValue(drivers)}`);
  if (typeof until !== "function") throw invalid(`runOnVirtualTime needs until, a function returning true when done, got ${describeValue(until)}`);
  if (!Number.isSafeInteger(maxRounds) || maxRounds < 1) throw invalid(`maxRounds must be an integer >= 1, got ${describeValue(maxRounds)}`);
  for (const [i, driver] of drivers.entries()) refuseOtherClock(net, driver, i);
  if (options.endTimeMs !== undefined && !(typeof options.endTimeMs === "number" && Number.isFinite(options.endTimeMs) && options.endTimeMs >= net.now()))
    throw invalid(`endTimeMs must be a finite time at or after now (${net.now()} ms), got ${describeValue(options.endTimeMs)}`);
  // Refuses a network on an external clock, before any driver steps; the last check, since on a
  // virtual clock it runs what is due now (a refused call changes nothing).
  net.advanceTo(net.now());
  for (let round = 1; round <= maxRounds; round++) {
    for (const driver of drivers) driver.step();
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (until()) return { ended: "done", rounds: round, now: net.now() };
    if (drivers.some((driver) => driver.hasWork)) continue;
    if (net.now() >= endTimeMs) return { ended: "end-time", rounds: round, now: net.now() };
    let next = net.nextEventTime() ?? Number.POSITIVE_INFINITY;
    for (const driver of drivers) next = Math.min(next, driver.nextDeadline() ?? Number.POSITIVE_INFINITY);
    if (next === Number.POSITIVE_INFINITY && endTimeMs === Number.POSITIVE_INFINITY) return { ended: "idle", rounds: round, now: net.now() };
    net.advanceTo(Math.max(Math.min(next, endTimeMs), net.now()));
  }
  return { ended: "max-rounds", rounds: maxRounds, now: net.now() };
}

/**
 * Refuses a driver whose clock is not the network's: one that is neither `net` itself nor reads the
 * same time now (a wrapper around `net.now()` does). A clock that throws is left to the driver,
 * which logs it and keeps its last good reading.
 */
function refuseOtherClock(net: MockNetwork, driver: SteppedDriver, index: number): void {
  const clock = driver.clock;
  if (clock === undefined || clock === net) return;
  let reading: unknown;
  try {
    reading = clock.now();
  } catch {
    return;
  }
  if (reading !== net.now())
    throw invalid(
      `runOnVirtualTime: drivers[${index}]'s clock reads ${describeValue(reading)} ms while the network's virtual time is ${net.now()} ms; build every driver with clock: net (a driver left on the default clock, real time, sees deadlines the network never reaches)`,
    );
}

/**
 * The injected clock's readings as the cores accept them.
 * @module
 */
import { describeValue } from "@ectp/protocol";
import type { Logger } from "./observability.js";

/**
 * [I1] The later of `now` and `lastGood` (the latest reading accepted) when `now` is a finite
 * number, else `lastGood` (logged at error level). A deadline computed from NaN never fires and
 * blocks every timer behind it (a lease never expires, a budget never runs out); a reading earlier
 * than the latest would undo deadlines already passed (a consumer would load bytes handled after
 * its read's deadline [C11]). So inside a core time never goes back.
 */
export function checkedNow(now: number, lastGood: number, logger: Logger): number {
  // The common case first: a finite reading at or after the latest is itself the result, handed
  // back as given (no new number is boxed on every call). 0 is left to Math.max (-0 and +0 compare equal).
  if (Number.isFinite(now)) {
    if (now >= lastGood && now !== 0) return now;
    if (lastGood - now > CLOCK_BEHIND_WARN_MS) warnClockBehind(now, lastGood, logger);
    return Math.max(now, lastGood);
  }
  logger.error("the clock reading passed in is not a finite number; the last good one is used", { now: describeValue(now) });
  return Number.isFinite(lastGood) ? lastGood : 0; // no good reading yet: 0
}

/**
 * How far behind the latest reading a reading may be before it is taken for one from another
 * clock (an engine passing `Date.now()` to a core its Driver gives `performance.now()`): ms.
 */
export const CLOCK_BEHIND_WARN_MS = 60_000;

/** The loggers already warned of a reading far behind (one warning per core: each has its own logger). */
const warnedClockBehind = new WeakSet<Logger>();

/**
 * [I1] A reading far behind the latest is taken as the latest, like any earlier one, so the core's
 * timers stand still until the readings catch up: say so once, or requests would hang silently.
 */
function warnClockBehind(now: number, lastGood: number, logger: Logger): void {
  if (warnedClockBehind.has(logger)) return;
  warnedClockBehind.add(logger);
  logger.warn(
    "a clock reading is far behind the latest this core was given: are two clocks in use (e.g. Date.now() and performance.now())? " +
      "Every now passed to a core must come from one clock (the Driver's, where there is one); until the readings catch up, the core's timers stand still",
    { now, latest: lastGood, behindMs: lastGood - now },
  );
}

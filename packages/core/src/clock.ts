/**
 * The injected clock's readings as the cores accept them.
 * @module
 */
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
  if (Number.isFinite(now)) return now >= lastGood && now !== 0 ? now : Math.max(now, lastGood);
  logger.error("the clock reading passed in is not a finite number; the last good one is used", { now: describeNow(now) });
  return Number.isFinite(lastGood) ? lastGood : 0; // no good reading yet: 0
}

/** `now` for the log: never throws, whatever it is (a detached typed array or a Proxy throws in `String`). */
function describeNow(now: unknown): string {
  if (typeof now !== "object" && typeof now !== "function") return String(now);
  return now === null ? "null" : Array.isArray(now) ? "an array" : typeof now;
}

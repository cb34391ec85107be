/**
 * The injected clock's readings as the cores accept them.
 * @module
 */
import type { Logger } from "./observability.js";

/**
 * [I1] `now` when it is a finite number, else `lastGood` (logged at error level): a deadline
 * computed from NaN never fires and blocks every timer behind it (a lease never expires, a
 * budget never runs out).
 */
export function checkedNow(now: number, lastGood: number, logger: Logger): number {
  if (Number.isFinite(now)) return now;
  logger.error("the clock reading passed in is not a finite number; the last good one is used", { now: String(now) });
  return lastGood;
}

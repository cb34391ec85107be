/**
 * Retry backoff of the consumer [C4].
 * @module
 */
import type { SeededRandom } from "../random.js";

/**
 * Delay before retry number `attempt` (1-based) [C4]: `d = min(maxMs, initialMs * 2^(attempt-1))`,
 * jittered uniformly in `[d/2, d)` (within SPEC's `[d/2, d]`: `random` draws from `[0, 1)`), so many consumers retrying the same
 * producer spread out while one seed still gives one schedule.
 */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number, random: SeededRandom): number {
  // 2^(attempt-1) overflows to Infinity for huge attempts; min() then caps it at maxMs.
  const d = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
  return d / 2 + random.next() * (d / 2); // [C4] every retry its own draw from the one seeded stream
}

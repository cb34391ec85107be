/**
 * Latency histogram: exact counts per whole millisecond, in fixed memory up to a cap and in a
 * sparse map (one entry per distinct value) above it. The simulator keeps no per-request state
 * after a request completes, so percentiles must come from a structure that does not grow with
 * the requests; values above the cap (waits past 5 minutes) are rare and stay exact.
 *
 * Counts live in blocks of {@link BLOCK} milliseconds, each allocated on the first
 * observation that falls in it, with one running total per block: a run creates the
 * histogram in O(1) (no 1.2 MB array to zero per run, which dominated short sweep runs)
 * and a quantile walks block totals before one block, not 300,000 single counts.
 * @module
 */

/** Milliseconds per block of counts. */
const BLOCK = 1024;

/** Counts of integer-millisecond observations, exact up to `maxMs`. */
export class MillisHistogram {
  /** Counts per block, allocated when first needed. */
  private readonly blocks: (Uint32Array | undefined)[];
  /** Observations per block. */
  private readonly blockTotals: Float64Array;
  /** Counts of the values above `maxMs`, by value. */
  private readonly overflow = new Map<number, number>();
  private total = 0;
  private sumMs = 0;
  /** Largest observation, exact (0 when empty). */
  private maxSeen = 0;

  /** @param maxMs - largest value counted exactly (default 300,000 = 5 minutes). */
  constructor(private readonly maxMs = 300_000) {
    const n = Math.floor(maxMs / BLOCK) + 1;
    this.blocks = new Array(n).fill(undefined);
    this.blockTotals = new Float64Array(n);
  }

  /** Record one observation in milliseconds (rounded to the nearest integer, floored at 0). */
  record(ms: number): void {
    const v = Math.max(0, Math.round(ms));
    this.total++;
    this.sumMs += v;
    if (v > this.maxSeen) this.maxSeen = v;
    if (v > this.maxMs) {
      this.overflow.set(v, (this.overflow.get(v) ?? 0) + 1);
      return;
    }
    const b = Math.floor(v / BLOCK);
    let block = this.blocks[b];
    if (block === undefined) {
      block = new Uint32Array(BLOCK);
      this.blocks[b] = block;
    }
    block[v - b * BLOCK] = (block[v - b * BLOCK] as number) + 1;
    this.blockTotals[b] = (this.blockTotals[b] as number) + 1;
  }

  /** Observations recorded. */
  get count(): number {
    return this.total;
  }

  /** Mean, 0 when empty. */
  mean(): number {
    return this.total === 0 ? 0 : this.sumMs / this.total;
  }

  /** The smallest value v such that at least `q` of the observations are <= v (0 when empty). */
  quantile(q: number): number {
    if (this.total === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * this.total));
    let seen = 0;
    for (let b = 0; b < this.blocks.length; b++) {
      const inBlock = this.blockTotals[b] as number;
      if (seen + inBlock < rank) {
        seen += inBlock;
        continue;
      }
      const block = this.blocks[b] as Uint32Array;
      const last = Math.min(BLOCK, this.maxMs - b * BLOCK + 1);
      for (let i = 0; i < last; i++) {
        seen += block[i] as number;
        if (seen >= rank) return b * BLOCK + i;
      }
    }
    for (const v of [...this.overflow.keys()].sort((x, y) => x - y)) {
      seen += this.overflow.get(v) as number;
      if (seen >= rank) return v;
    }
    return this.maxSeen; // not reached: the counts add up to the total
  }

  /** Largest observation (0 when empty). */
  max(): number {
    return this.maxSeen;
  }
}

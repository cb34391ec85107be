/**
 * Constant-memory latency histogram: exact counts per whole millisecond up to a cap,
 * one overflow bucket above it. The simulator keeps no per-request state after a
 * request completes, so percentiles must come from a structure that does not grow.
 * @module
 */

/** Counts of integer-millisecond observations, exact up to `maxMs`. */
export class MillisHistogram {
  private readonly counts: Uint32Array;
  private overflow = 0;
  private overflowMax = 0;
  private total = 0;
  private sumMs = 0;

  /** @param maxMs - largest value counted exactly (default 300,000 = 5 minutes). */
  constructor(private readonly maxMs = 300_000) {
    this.counts = new Uint32Array(maxMs + 1);
  }

  /** Record one observation in milliseconds (rounded to the nearest integer, floored at 0). */
  record(ms: number): void {
    const v = Math.max(0, Math.round(ms));
    this.total++;
    this.sumMs += v;
    if (v > this.maxMs) {
      this.overflow++;
      this.overflowMax = Math.max(this.overflowMax, v);
    } else {
      this.counts[v] = (this.counts[v] as number) + 1;
    }
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
    for (let v = 0; v < this.counts.length; v++) {
      seen += this.counts[v] as number;
      if (seen >= rank) return v;
    }
    return this.overflowMax;
  }

  /** Largest observation (0 when empty). */
  max(): number {
    if (this.overflow > 0) return this.overflowMax;
    for (let v = this.counts.length - 1; v >= 0; v--) if ((this.counts[v] as number) > 0) return v;
    return 0;
  }
}

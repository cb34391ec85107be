/**
 * A small seeded pseudo-random source (sfc32), so jitter [C4], fault schedules and
 * simulations are reproducible from one integer seed.
 * @module
 */
import { EctpError, describeValue } from "@ectp/protocol";

/** Deterministic pseudo-random numbers from a 32-bit seed. Not for cryptography. */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /**
   * @param seed - a safe integer; only its low 32 bits count (`seed | 0`), so seeds that differ by
   * a multiple of 2^32 give the same sequence, and the same seed always gives the same sequence.
   * @throws EctpError(INVALID_ARGUMENT) when `seed` is not a safe integer (NaN, 1.5, "5", {}, a
   *   bigint, a symbol): coerced, NaN and {} would silently give seed 0's sequence and "5" seed 5's,
   *   and a bigint or a symbol would throw a TypeError.
   */
  constructor(seed: number) {
    if (!Number.isSafeInteger(seed))
      throw new EctpError(
        "INVALID_ARGUMENT",
        `SeededRandom: seed must be a safe integer (only its low 32 bits are used); got ${describeValue(seed)}. Pass e.g. 1, or a recorded seed to replay its sequence.`,
      );
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = (seed | 0) ^ 0xdeadbeef;
    for (let i = 0; i < 15; i++) this.nextUint32();
  }

  /** The next unsigned 32-bit integer. */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [0, n). `n` must be a positive integer. */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return p > 0 && this.next() < p;
  }

  /** A new independent source derived from this one (for per-link or per-peer streams). */
  fork(): SeededRandom {
    return new SeededRandom(this.nextUint32());
  }
}

/**
 * A seed derived from an identity (an endpoint id and its epoch): FNV-1a over the id's UTF-16
 * code units, mixed with the epoch. The same identity gives the same seed in every process (unlike
 * the tables' hashes, which are seeded per process), so a core given no seed is still reproducible.
 * @internal
 */
export function identitySeed(id: string, epoch: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (epoch >>> 0), 0x85ebca6b);
  h = Math.imul(h ^ Math.floor(epoch / 4294967296), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Seeded pseudo-random streams for the fault injector.
 *
 * The mock keeps its own tiny sfc32 (the same algorithm as `SeededRandom` in
 * `@ectp/core`) so the fault schedule does not depend on the core's runtime build,
 * and derives one independent stream per directed link from the network seed: traffic
 * on one link then never shifts the faults drawn on another, which keeps a failing
 * seed reproducible even when an unrelated link changes.
 * @module
 */

/** sfc32 generator; deterministic for a given seed. Internal. */
export class LinkRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = (seed | 0) ^ 0xdeadbeef;
    for (let i = 0; i < 15; i++) this.nextUint32();
  }

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

  /** An integer in [0, n); 0 when n <= 0. */
  int(n: number): number {
    return n <= 0 ? 0 : Math.floor(this.next() * n);
  }

  /** True with probability `p` (never draws when p <= 0, so an unset fault costs nothing). */
  chance(p: number | undefined): boolean {
    return p !== undefined && p > 0 && this.next() < p;
  }

  /** A float uniformly in [min, max]. */
  between(min: number, max: number): number {
    return max <= min ? min : min + this.next() * (max - min);
  }
}

/** FNV-1a over a string's UTF-16 code units, mixed with a seed: the seed of one link's stream. */
export function linkSeed(seed: number, from: string, to: string): number {
  let h = (0x811c9dc5 ^ (seed | 0)) >>> 0;
  const key = `${from}\u0000${to}`;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h | 0;
}

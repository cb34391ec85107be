/**
 * The seeded random source of the randomised levels: xorshift32, so that a schedule can be
 * reproduced from its seed in any language a reader ports it to.
 * @internal
 * @module
 */

/** xorshift32: small, seedable, identical in every language a reader might port the schedule to. */
export class Rng {
  private x: number;
  constructor(seed: number) {
    // Exact for any safe-integer seed: the high word is mixed in (a product past 2^53 lost its low
    // bits, so seed 2^40 ran as seed 0); a 32-bit seed's schedule is unchanged.
    const high = (seed - (seed | 0)) / 2 ** 32;
    this.x = (Math.imul(seed | 0, 2654435761) ^ Math.imul(high, 0x85ebca6b)) >>> 0 || 1;
    for (let i = 0; i < 8; i++) this.u32();
  }
  u32(): number {
    let x = this.x;
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    this.x = x >>> 0;
    return this.x;
  }
  next(): number {
    return this.u32() / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

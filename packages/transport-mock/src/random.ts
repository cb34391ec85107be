/**
 * Seeded pseudo-random streams for the fault injector: the core's `SeededRandom` (sfc32),
 * one independent stream per directed link derived from the network seed, so traffic on
 * one link never shifts the faults drawn on another and a failing seed stays
 * reproducible when an unrelated link changes.
 * @module
 */
import { SeededRandom } from "@ectp/core";

/** One link's stream, with the two helpers the fault injector needs. Internal. */
export class LinkRandom extends SeededRandom {
  /** An integer in [0, n); 0 without drawing when n <= 0. */
  override int(n: number): number {
    return n <= 0 ? 0 : super.int(n);
  }

  /** True with probability `p` (never draws when p is unset or <= 0, so an unset fault costs nothing). */
  override chance(p: number | undefined): boolean {
    return p !== undefined && super.chance(p);
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

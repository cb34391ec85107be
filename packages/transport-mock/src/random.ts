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

/**
 * The seed of link from -> to's stream: FNV-1a over the link's key (the two ids, separated by
 * U+0000) in UTF-16 code units, its offset basis mixed with the network seed (a safe integer): the
 * seed's low 32 bits, and for a seed outside [-2^31, 2^31) its high bits too, so seeds that differ
 * by a multiple of 2^32 give different streams.
 */
export function linkSeed(seed: number, from: string, to: string): number {
  const low = seed | 0;
  const high = (seed - low) / 2 ** 32; // an integer within +-2^21; 0 for every seed in [-2^31, 2^31)
  let h = (0x811c9dc5 ^ low) >>> 0;
  if (high !== 0) h = Math.imul(h ^ high, 0x01000193) >>> 0;
  // U+0000 separates the ids; when an id holds one, the key starts with the sender id's length, so that
  // ("a\0b", "c") and ("a", "b\0c") get streams of their own.
  const key = from.includes("\u0000") || to.includes("\u0000") ? `${from.length}\u0001${from}\u0000${to}` : `${from}\u0000${to}`;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h | 0;
}

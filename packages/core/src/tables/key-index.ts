/**
 * Records by (owner, item key), at most one per pair: the producer's "this consumer's
 * live grant of this item" [P3].
 *
 * Why not a `Map` per consumer keyed by key id: one insert and one delete per grant, each
 * key new in the common one-read-per-item workload, make a `Map` rehash and allocate over
 * and over; here nothing is allocated unless the table grows or shrinks. Why not a `StringTable`: the
 * pair has two parts, one compared by identity, and records carry their own address (the
 * key's `hashBytes` of its content hash mixed with the owner's salt by
 * {@link keyIndexHash}), so the table stores the records themselves and a deletion names
 * the record rather than re-hashing its key.
 * @internal
 * @module
 */
import { SHRINK_FLOOR_SLOTS } from "./shrink-floor.js";

/**
 * A record of a {@link KeyIndex}: one item key held by one owner.
 * @internal
 */
export interface KeyedRecord<O> {
  /** Who holds it (compared by identity). */
  readonly owner: O;
  /** The item's key id (compared by value). */
  readonly keyId: string;
  /** {@link keyIndexHash} of the key's `hashBytes(contentHash)` and the owner's salt, fixed at creation. */
  readonly indexHash: number;
}

/**
 * The address of (key, owner) in a {@link KeyIndex}: the key's hash code (`hashBytes` of
 * its content hash) mixed with the owner's salt, so one item's grants to different
 * consumers land in different probe runs.
 * @internal
 */
export function keyIndexHash(hashCode: number, ownerSalt: number): number {
  const h = Math.imul(hashCode ^ ownerSalt, 0x9e3779b1);
  return h ^ (h >>> 16);
}

/**
 * Records by (owner, key id), at most one per pair: the producer's "this consumer's live
 * grant of this item" [P3]. Open addressing (linear probing, backward-shift deletion)
 * over a power-of-two array of the records, addressed by each record's `indexHash`; a
 * lookup compares the owner by identity and the key id by value. It grows past half full and
 * [I4] shrinks back after a burst, as `IdTable` does: by half when a deletion leaves it under an
 * eighth full (then under a quarter full: a size bouncing around that point reallocates nothing),
 * never below {@link SHRINK_FLOOR_SLOTS} nor the capacity it was made with.
 * @internal
 */
export class KeyIndex<O, T extends KeyedRecord<O>> {
  private slots: (T | undefined)[];
  private mask: number;
  private count = 0;
  /** The fewest slots it shrinks to: the floor, or the capacity it was made with when larger. */
  private readonly minSlots: number;
  /** [I4] A deletion that leaves fewer records than this halves the table (0 at `minSlots`): one comparison per deletion. */
  private shrinkBelow = 0;

  /** @param capacity - initial slots (rounded up to a power of two, at least 16). */
  constructor(capacity = 16) {
    let n = 16;
    while (n < capacity) n *= 2;
    this.slots = new Array<T | undefined>(n).fill(undefined);
    this.mask = n - 1;
    this.minSlots = Math.max(n, SHRINK_FLOOR_SLOTS);
  }

  /** Records held. */
  get size(): number {
    return this.count;
  }

  /** The record of `owner` for `keyId` (addressed by `indexHash`), or `undefined`. */
  get(owner: O, indexHash: number, keyId: string): T | undefined {
    const slots = this.slots;
    const mask = this.mask;
    for (let i = indexHash & mask; ; i = (i + 1) & mask) {
      const r = slots[i];
      if (r === undefined) return undefined;
      if (r.owner === owner && r.indexHash === indexHash && r.keyId === keyId) return r;
    }
  }

  /** Add a record; the caller guarantees its (owner, key id) pair is not in the table. */
  add(r: T): void {
    if ((this.count + 1) * 2 > this.slots.length) this.resize(this.slots.length * 2);
    this.place(r);
    this.count++;
  }

  /** Remove this very record; false when it is not in the table. */
  delete(r: T): boolean {
    const slots = this.slots;
    const mask = this.mask;
    let i = r.indexHash & mask;
    for (;;) {
      const s = slots[i];
      if (s === undefined) return false;
      if (s === r) break;
      i = (i + 1) & mask;
    }
    let hole = i;
    for (let j = (i + 1) & mask; ; j = (j + 1) & mask) {
      const s = slots[j];
      if (s === undefined) break;
      const home = s.indexHash & mask;
      if (hole <= j ? home <= hole || home > j : home <= hole && home > j) {
        slots[hole] = s;
        hole = j;
      }
    }
    slots[hole] = undefined;
    this.count--;
    // [I4] back toward the baseline size once a burst is over (SPEC.md: no leaks).
    if (this.count < this.shrinkBelow) this.resize(slots.length / 2);
    return true;
  }

  private place(r: T): void {
    const slots = this.slots;
    const mask = this.mask;
    let i = r.indexHash & mask;
    while (slots[i] !== undefined) i = (i + 1) & mask;
    slots[i] = r;
  }

  /** Re-place every record in a table of `size` slots (a power of two; growing or shrinking). */
  private resize(size: number): void {
    const old = this.slots;
    this.slots = new Array<T | undefined>(size).fill(undefined);
    this.mask = size - 1;
    // Under an eighth full: after the halving it is still under a quarter full, far from growing again.
    this.shrinkBelow = size > this.minSlots ? size / 8 : 0;
    for (const r of old) if (r !== undefined) this.place(r);
  }
}

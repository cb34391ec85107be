/**
 * Allocation-free hash tables for the producer's live grants: by grant id, and by
 * (consumer, item key).
 * @internal
 * @module
 */

/**
 * Records by integer id: an open-addressing hash table (linear probing, backward-shift
 * deletion) over a power-of-two array.
 *
 * Why not a `Map`: the producer inserts one grant and deletes one per item lifecycle, every
 * id new. A `Map` keeps deleted slots until it rehashes into a new table, so that churn
 * allocates and rehashes all the time (about 100 ns a lifecycle); here a delete frees its
 * slot at once and nothing is allocated unless the table grows. Grant ids are consecutive,
 * so `id & mask` spreads live ids evenly and probe runs stay short.
 *
 * Iteration order is not insertion order: {@link IdTable.valuesById} sorts.
 * @internal
 */
export class IdTable<T extends { readonly id: number }> {
  private slots: (T | undefined)[];
  private mask: number;
  private count = 0;

  /** @param capacity - initial slots (rounded up to a power of two, at least 16). */
  constructor(capacity = 16) {
    let n = 16;
    while (n < capacity) n *= 2;
    this.slots = new Array<T | undefined>(n).fill(undefined);
    this.mask = n - 1;
  }

  /** Records held. */
  get size(): number {
    return this.count;
  }

  /** The record with this id, or `undefined`. */
  get(id: number): T | undefined {
    const slots = this.slots;
    const mask = this.mask;
    for (let i = id & mask; ; i = (i + 1) & mask) {
      const r = slots[i];
      if (r === undefined || r.id === id) return r;
    }
  }

  /** Add a record whose id is not in the table (ids are never reused). */
  add(r: T): void {
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    this.place(r);
    this.count++;
  }

  /** Remove the record with this id; false when absent. */
  delete(id: number): boolean {
    const slots = this.slots;
    const mask = this.mask;
    let i = id & mask;
    for (;;) {
      const r = slots[i];
      if (r === undefined) return false;
      if (r.id === id) break;
      i = (i + 1) & mask;
    }
    // Backward-shift deletion: move later members of the probe run into the hole, so no
    // tombstones are left behind.
    let hole = i;
    for (let j = (i + 1) & mask; ; j = (j + 1) & mask) {
      const r = slots[j];
      if (r === undefined) break;
      const home = r.id & mask;
      // r may move into the hole when its home is not in the cyclic range (hole, j].
      if (hole <= j ? home <= hole || home > j : home <= hole && home > j) {
        slots[hole] = r;
        hole = j;
      }
    }
    slots[hole] = undefined;
    this.count--;
    return true;
  }

  /** Every record, in increasing id order (a copy: the table may change while it is used). */
  valuesById(): T[] {
    const out: T[] = [];
    for (const r of this.slots) if (r !== undefined) out.push(r);
    return out.sort((a, b) => a.id - b.id);
  }

  private place(r: T): void {
    const slots = this.slots;
    const mask = this.mask;
    let i = r.id & mask;
    while (slots[i] !== undefined) i = (i + 1) & mask;
    slots[i] = r;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Array<T | undefined>(old.length * 2).fill(undefined);
    this.mask = this.slots.length - 1;
    for (const r of old) if (r !== undefined) this.place(r);
  }
}

/** A record of a {@link KeyIndex}: one item key held by one owner. */
export interface KeyedRecord<O> {
  /** Who holds it (compared by identity). */
  readonly owner: O;
  /** The item's key id (compared by value). */
  readonly keyId: string;
  /** {@link keyIndexHash} of the key's content hash and the owner's salt, fixed at creation. */
  readonly indexHash: number;
}

/**
 * FNV-1a of a content hash's bytes: the cheap, well-spread number a {@link KeyIndex} is
 * addressed by (hashing the bytes beats hashing the hex key id, which is twice as long).
 */
export function contentHashCode(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h;
}

/** The address of (key, owner) in a {@link KeyIndex}: the key's hash code mixed with the owner's salt. */
export function keyIndexHash(hashCode: number, ownerSalt: number): number {
  const h = Math.imul(hashCode ^ ownerSalt, 0x9e3779b1);
  return h ^ (h >>> 16);
}

/**
 * Records by (owner, key id), at most one per pair: the producer's "this consumer's live
 * grant of this item" [P3]. Open addressing as in {@link IdTable}, addressed by each
 * record's `indexHash`; a lookup compares the owner by identity and the key id by value.
 *
 * Why not a `Map` per consumer keyed by key id: one insert and one delete per grant, each
 * key new in the common one-read-per-item workload, make a `Map` rehash and allocate over
 * and over; here nothing is allocated unless the table grows.
 * @internal
 */
export class KeyIndex<O, T extends KeyedRecord<O>> {
  private slots: (T | undefined)[];
  private mask: number;
  private count = 0;

  /** @param capacity - initial slots (rounded up to a power of two, at least 16). */
  constructor(capacity = 16) {
    let n = 16;
    while (n < capacity) n *= 2;
    this.slots = new Array<T | undefined>(n).fill(undefined);
    this.mask = n - 1;
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
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
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
    return true;
  }

  private place(r: T): void {
    const slots = this.slots;
    const mask = this.mask;
    let i = r.indexHash & mask;
    while (slots[i] !== undefined) i = (i + 1) & mask;
    slots[i] = r;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Array<T | undefined>(old.length * 2).fill(undefined);
    this.mask = this.slots.length - 1;
    for (const r of old) if (r !== undefined) this.place(r);
  }
}

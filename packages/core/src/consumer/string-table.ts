/**
 * A string-keyed hash table for the consumer's request and item-key tables.
 *
 * Why not a `Map`: those tables gain and lose an entry on every item lifecycle, and a `Map`
 * that churns like that keeps reallocating its backing store (V8 shrinks a table as soon
 * as it is a quarter full, and rebuilds it once deleted entries fill it). This table is
 * open addressing with linear probing and backward-shift deletion over parallel arrays:
 * deletions leave no tombstones, nothing is allocated except to grow (or shrink when at
 * most an eighth full), and each slot keeps its key's 32-bit hash next to it, so a probe
 * touches a key string only when the hashes match.
 * @module
 */

/** Smallest capacity (a power of two). */
const MIN_CAPACITY = 16;

/**
 * The table's hash of a string: FNV-1a over the UTF-16 code units, then a final avalanche
 * (sequential ids spread evenly). Callers that look the same key up repeatedly compute it
 * once and pass it to the `...Hashed` methods.
 */
export function hashString(s: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h | 0;
}

/** A map from strings to (non-undefined) values with `get`, `set`, `delete` and `size`. */
export class StringTable<V> {
  private keys: (string | undefined)[];
  private vals: (V | undefined)[];
  private hashes: Int32Array;
  private mask: number;
  private count = 0;

  constructor() {
    this.keys = new Array<string | undefined>(MIN_CAPACITY).fill(undefined);
    this.vals = new Array<V | undefined>(MIN_CAPACITY).fill(undefined);
    this.hashes = new Int32Array(MIN_CAPACITY);
    this.mask = MIN_CAPACITY - 1;
  }

  /** Entries stored. */
  get size(): number {
    return this.count;
  }

  /** The value of `key`, or `undefined`. */
  get(key: string): V | undefined {
    return this.getHashed(key, hashString(key));
  }

  /** {@link StringTable.get} with `h = hashString(key)` already computed. */
  getHashed(key: string, h: number): V | undefined {
    const mask = this.mask;
    const keys = this.keys;
    const hashes = this.hashes;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const k = keys[i];
      if (k === undefined) return undefined;
      if (hashes[i] === h && k === key) return this.vals[i];
    }
  }

  /** Store `value` (not `undefined`) under `key`, replacing any previous value. */
  set(key: string, value: V): void {
    this.setHashed(key, hashString(key), value);
  }

  /** {@link StringTable.set} with `h = hashString(key)` already computed. */
  setHashed(key: string, h: number, value: V): void {
    if ((this.count + 1) * 2 > this.mask + 1) this.resize((this.mask + 1) * 2);
    this.insert(key, value, h);
  }

  /** Remove `key`. Returns whether it was present. */
  delete(key: string): boolean {
    return this.deleteHashed(key, hashString(key));
  }

  /** {@link StringTable.delete} with `h = hashString(key)` already computed. */
  deleteHashed(key: string, h: number): boolean {
    const mask = this.mask;
    const keys = this.keys;
    const vals = this.vals;
    const hashes = this.hashes;
    let i = h & mask;
    for (;; i = (i + 1) & mask) {
      const k = keys[i];
      if (k === undefined) return false;
      if (hashes[i] === h && k === key) break;
    }
    // Backward shift: move later entries of the probe run into the hole when their home allows it.
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const kj = keys[j];
      if (kj === undefined) break;
      const home = (hashes[j] as number) & mask;
      // The entry at j may move to i when i lies cyclically in [home, j).
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        keys[i] = kj;
        vals[i] = vals[j];
        hashes[i] = hashes[j] as number;
        i = j;
      }
    }
    keys[i] = undefined;
    vals[i] = undefined;
    this.count--;
    const capacity = mask + 1;
    if (capacity > MIN_CAPACITY && this.count * 8 < capacity) this.resize(capacity >> 1);
    return true;
  }

  private insert(key: string, value: V, h: number): void {
    const mask = this.mask;
    const keys = this.keys;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const k = keys[i];
      if (k === undefined) {
        keys[i] = key;
        this.vals[i] = value;
        this.hashes[i] = h;
        this.count++;
        return;
      }
      if (this.hashes[i] === h && k === key) {
        this.vals[i] = value;
        return;
      }
    }
  }

  private resize(capacity: number): void {
    const keys = this.keys;
    const vals = this.vals;
    const hashes = this.hashes;
    this.keys = new Array<string | undefined>(capacity).fill(undefined);
    this.vals = new Array<V | undefined>(capacity).fill(undefined);
    this.hashes = new Int32Array(capacity);
    this.mask = capacity - 1;
    this.count = 0;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k !== undefined) this.insert(k, vals[i] as V, hashes[i] as number);
    }
  }
}

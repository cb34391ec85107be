/**
 * A string-keyed hash table whose entries are stored in insertion order, for the
 * consumer's request table.
 *
 * Why: an engine re-admits its waiting requests on every step, roughly in the order it
 * admitted them. With entries stored densely in insertion order such a pass walks the
 * entry arrays sequentially (the hardware prefetches them) and only the bucket array is
 * hit at random; each entry keeps its key's hash, so a bucket chain is walked without
 * reading the other keys' strings (a cache miss each in a `Map` with 10^5 entries).
 * Deleting leaves a hole that is reclaimed by compacting the entries in place when the
 * arrays fill up, so a table whose size goes up and down by one per request never
 * reallocates (a `Map` rebuilds its table each time it drops below a quarter full).
 * Keys are hashed with `hashString` (./hash.ts) and may be passed pre-hashed.
 *
 * A lookup first tries the entry after the one found last: in such an in-order pass that
 * is the one wanted, read from the sequentially walked entry arrays, so the bucket array
 * (a random access, a cache miss once the table outgrows the cache) is not touched at all.
 * The guess is checked like any chain entry (hash and key), so a wrong or stale guess
 * (after a deletion, compaction or rebuild) only costs the two reads.
 * @internal
 * @module
 */
import { hashString } from "./hash.js";
import { SHRINK_FLOOR_SLOTS } from "./shrink-floor.js";

/** Smallest capacity (a power of two). */
const MIN_CAPACITY = 16;

/**
 * A map from strings to (non-undefined) values with `get`, `set`, `delete` and `size`,
 * entries kept in insertion order.
 * @internal
 */
export class OrderedTable<V> {
  /** Head entry of each bucket's chain; -1 for none. One bucket per entry slot. */
  private buckets: Int32Array;
  private eHash: Int32Array;
  /** Next entry in the same bucket; -1 at the end. */
  private eNext: Int32Array;
  /** Keys; `undefined` marks a deleted entry (a hole until the next compaction). */
  private eKey: (string | undefined)[];
  private eVal: (V | undefined)[];
  /** Entries appended so far (live and holes). */
  private used = 0;
  private count = 0;
  /** Entry index of the last successful lookup (-1: none); the next lookup tries the one after. */
  private last = -1;

  constructor() {
    this.buckets = new Int32Array(MIN_CAPACITY).fill(-1);
    this.eHash = new Int32Array(MIN_CAPACITY);
    this.eNext = new Int32Array(MIN_CAPACITY);
    this.eKey = new Array<string | undefined>(MIN_CAPACITY).fill(undefined);
    this.eVal = new Array<V | undefined>(MIN_CAPACITY).fill(undefined);
  }

  /** Entries stored. */
  get size(): number {
    return this.count;
  }

  /** The value of `key`, or `undefined`. */
  get(key: string): V | undefined {
    return this.getHashed(key, hashString(key));
  }

  /** {@link OrderedTable.get} with `h = hashString(key)` already computed. */
  getHashed(key: string, h: number): V | undefined {
    const eHash = this.eHash;
    const guess = this.last + 1;
    if (guess < this.used && eHash[guess] === h && this.eKey[guess] === key) {
      this.last = guess;
      return this.eVal[guess];
    }
    const eNext = this.eNext;
    for (let e = this.buckets[h & (this.buckets.length - 1)] as number; e !== -1; e = eNext[e] as number)
      if (eHash[e] === h && this.eKey[e] === key) {
        this.last = e;
        return this.eVal[e];
      }
    return undefined;
  }

  /** Store `value` (not `undefined`) under `key`, replacing any previous value. */
  set(key: string, value: V): void {
    this.setHashed(key, hashString(key), value);
  }

  /** {@link OrderedTable.set} with `h = hashString(key)` already computed. */
  setHashed(key: string, h: number, value: V): void {
    const eHash = this.eHash;
    const eNext = this.eNext;
    for (let e = this.buckets[h & (this.buckets.length - 1)] as number; e !== -1; e = eNext[e] as number)
      if (eHash[e] === h && this.eKey[e] === key) {
        this.eVal[e] = value;
        return;
      }
    const capacity = this.eKey.length;
    if (this.used === capacity) {
      // Full: grow when mostly live, else reclaim the holes in place.
      if (this.count * 4 >= capacity * 3) this.rebuild(capacity * 2);
      else this.compact();
    }
    const e = this.used++;
    this.eHash[e] = h;
    this.eKey[e] = key;
    this.eVal[e] = value;
    const b = h & (this.buckets.length - 1);
    this.eNext[e] = this.buckets[b] as number;
    this.buckets[b] = e;
    this.count++;
  }

  /** Remove `key`. Returns whether it was present. */
  delete(key: string): boolean {
    return this.deleteHashed(key, hashString(key));
  }

  /** {@link OrderedTable.delete} with `h = hashString(key)` already computed. */
  deleteHashed(key: string, h: number): boolean {
    const b = h & (this.buckets.length - 1);
    const eNext = this.eNext;
    let prev = -1;
    for (let e = this.buckets[b] as number; e !== -1; prev = e, e = eNext[e] as number) {
      if (this.eHash[e] !== h || this.eKey[e] !== key) continue;
      if (prev === -1) this.buckets[b] = eNext[e] as number;
      else eNext[prev] = eNext[e] as number;
      this.eKey[e] = undefined;
      this.eVal[e] = undefined;
      this.count--;
      const capacity = this.eKey.length;
      if (capacity > SHRINK_FLOOR_SLOTS && this.count * 8 < capacity) this.rebuild(capacity >> 1);
      return true;
    }
    return false;
  }

  /** Move the live entries to the front (order kept) and rebuild the chains, without allocating. */
  private compact(): void {
    const eKey = this.eKey;
    const eVal = this.eVal;
    const eHash = this.eHash;
    let w = 0;
    for (let r = 0; r < this.used; r++) {
      const k = eKey[r];
      if (k === undefined) continue;
      if (w !== r) {
        eKey[w] = k;
        eVal[w] = eVal[r];
        eHash[w] = eHash[r] as number;
        eKey[r] = undefined;
        eVal[r] = undefined;
      }
      w++;
    }
    this.used = w;
    this.relink();
  }

  /** Reallocate at `capacity` (live entries kept in order). */
  private rebuild(capacity: number): void {
    const oKey = this.eKey;
    const oVal = this.eVal;
    const oHash = this.eHash;
    const n = this.used;
    this.buckets = new Int32Array(capacity);
    this.eHash = new Int32Array(capacity);
    this.eNext = new Int32Array(capacity);
    this.eKey = new Array<string | undefined>(capacity).fill(undefined);
    this.eVal = new Array<V | undefined>(capacity).fill(undefined);
    let w = 0;
    for (let r = 0; r < n; r++) {
      const k = oKey[r];
      if (k === undefined) continue;
      this.eKey[w] = k;
      this.eVal[w] = oVal[r];
      this.eHash[w] = oHash[r] as number;
      w++;
    }
    this.used = w;
    this.relink();
  }

  /** Rebuild every bucket chain from the entries `[0, used)`. */
  private relink(): void {
    const buckets = this.buckets;
    const mask = buckets.length - 1;
    buckets.fill(-1);
    for (let e = 0; e < this.used; e++) {
      const b = (this.eHash[e] as number) & mask;
      this.eNext[e] = buckets[b] as number;
      buckets[b] = e;
    }
  }
}

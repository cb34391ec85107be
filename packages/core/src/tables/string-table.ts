/**
 * A string-keyed hash table, for the consumer's item-key table (item key id -> its fetch
 * or loaded record).
 *
 * Why not a `Map`: that table gains and loses an entry on every item lifecycle, and a `Map`
 * that churns like that keeps reallocating its backing store (V8 shrinks a table as soon
 * as it is a quarter full, and rebuilds it once deleted entries fill it). This table is
 * open addressing with linear probing and backward-shift deletion: deletions leave no
 * tombstones and nothing is allocated except to grow (or to halve, down to 1024 slots, once
 * under an eighth full). A slot is three consecutive elements of one array (key, hash,
 * value), so a lookup in a big table costs one cache line rather than one per parallel
 * array, and a probe touches a key string only when the hashes match. Keys are hashed with
 * `hashString` (or, by callers that key by content, `hashBytes`, both in ./hash.ts) and may
 * be passed pre-hashed.
 * @internal
 * @module
 */
import { hashString } from "./hash.js";
import { SHRINK_FLOOR_SLOTS } from "./shrink-floor.js";

/** Smallest capacity (a power of two). */
const MIN_CAPACITY = 16;

/**
 * A map from strings to (non-undefined) values with `get`, `set`, `delete` and `size`.
 * @internal
 */
export class StringTable<V> {
  /** Slot i is `[3i] key (undefined: empty), [3i+1] hash, [3i+2] value`. */
  private slots: (string | number | V | undefined)[];
  private mask: number;
  private count = 0;

  constructor() {
    this.slots = StringTable.emptySlots(MIN_CAPACITY);
    this.mask = MIN_CAPACITY - 1;
  }

  private static emptySlots<V>(capacity: number): (string | number | V | undefined)[] {
    const slots = new Array<string | number | V | undefined>(capacity * 3).fill(undefined);
    for (let i = 1; i < slots.length; i += 3) slots[i] = 0;
    return slots;
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
    const slots = this.slots;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const at = i * 3;
      const k = slots[at];
      if (k === undefined) return undefined;
      if (slots[at + 1] === h && k === key) return slots[at + 2] as V;
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
    const slots = this.slots;
    let i = h & mask;
    for (;; i = (i + 1) & mask) {
      const k = slots[i * 3];
      if (k === undefined) return false;
      if (slots[i * 3 + 1] === h && k === key) break;
    }
    // Backward shift: move later entries of the probe run into the hole when their home allows it.
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const kj = slots[j * 3];
      if (kj === undefined) break;
      const hj = slots[j * 3 + 1] as number;
      const home = hj & mask;
      // The entry at j may move to i when i lies cyclically in [home, j).
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        slots[i * 3] = kj;
        slots[i * 3 + 1] = hj;
        slots[i * 3 + 2] = slots[j * 3 + 2];
        i = j;
      }
    }
    slots[i * 3] = undefined;
    slots[i * 3 + 1] = 0;
    slots[i * 3 + 2] = undefined;
    this.count--;
    const capacity = mask + 1;
    if (capacity > SHRINK_FLOOR_SLOTS && this.count * 8 < capacity) this.resize(capacity >> 1);
    return true;
  }

  private insert(key: string, value: V, h: number): void {
    const mask = this.mask;
    const slots = this.slots;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const at = i * 3;
      const k = slots[at];
      if (k === undefined) {
        slots[at] = key;
        slots[at + 1] = h;
        slots[at + 2] = value;
        this.count++;
        return;
      }
      if (slots[at + 1] === h && k === key) {
        slots[at + 2] = value;
        return;
      }
    }
  }

  private resize(capacity: number): void {
    const old = this.slots;
    this.slots = StringTable.emptySlots<V>(capacity);
    this.mask = capacity - 1;
    this.count = 0;
    for (let at = 0; at < old.length; at += 3) {
      const k = old[at];
      if (k !== undefined) this.insert(k as string, old[at + 2] as V, old[at + 1] as number);
    }
  }
}

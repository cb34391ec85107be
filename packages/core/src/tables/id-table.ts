/**
 * The core's one table from positive numeric ids to values: the consumer's attempts, reads
 * and per-peer grants, and the producer's live grants.
 *
 * Why not a `Map`: every item lifecycle inserts and deletes a few ids, each one new, and a
 * `Map` that churns like that keeps reallocating its backing store (small maps shrink and
 * grow back; big ones are rebuilt once their deleted entries fill them). This table is open
 * addressing over a `Float64Array` of keys (Fibonacci hashing, linear probing,
 * backward-shift deletion): no tombstones, no allocation except to grow or shrink, and
 * expected O(1) at any size. Keys that are not positive numbers are simply never found,
 * so a peer's malformed id cannot disturb it. Ids from a peer are hashed too, so they
 * cannot be chosen to collide cheaply in large numbers. Iteration ({@link IdTable.values})
 * is in slot order, a function of the ids and the operations only: deterministic, but not
 * insertion order (sort a snapshot where order must not depend on the table).
 * @internal
 * @module
 */

/** Smallest capacity (a power of two). */
const MIN_BITS = 3;

/** Slot of `id` in a table of 2^bits slots: Fibonacci hashing of its low and high 32 bits. */
function home(id: number, shift: number): number {
  const hi = (id / 4294967296) | 0;
  return Math.imul((id | 0) ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1) >>> shift;
}

/**
 * A map from positive numeric ids to (non-undefined) values with `get`, `has`, `set`,
 * `delete`, `size` and `values`.
 * @internal
 */
export class IdTable<V> {
  /** Keys; 0 marks an empty slot. */
  private keys: Float64Array;
  private vals: (V | undefined)[];
  private bits: number;
  private shift: number;
  private count = 0;

  constructor() {
    this.bits = MIN_BITS;
    this.shift = 32 - MIN_BITS;
    this.keys = new Float64Array(1 << MIN_BITS);
    this.vals = new Array<V | undefined>(1 << MIN_BITS).fill(undefined);
  }

  /** Entries stored. */
  get size(): number {
    return this.count;
  }

  /** The value of `id`, or `undefined` (always for ids that are not positive numbers). */
  get(id: number): V | undefined {
    if (!(id > 0)) return undefined;
    const keys = this.keys;
    const mask = keys.length - 1;
    for (let i = home(id, this.shift); ; i = (i + 1) & mask) {
      const k = keys[i] as number;
      if (k === id) return this.vals[i];
      if (k === 0) return undefined;
    }
  }

  /** Whether `id` is present. */
  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  /** Store `value` (not `undefined`) under the positive id `id`, replacing any previous value. */
  set(id: number, value: V): void {
    if ((this.count + 1) * 2 > this.keys.length) this.resize(this.bits + 1);
    this.insert(id, value);
  }

  /** Remove `id`. Returns whether it was present. */
  delete(id: number): boolean {
    if (!(id > 0)) return false;
    const keys = this.keys;
    const vals = this.vals;
    const mask = keys.length - 1;
    const shift = this.shift;
    let i = home(id, shift);
    for (;; i = (i + 1) & mask) {
      const k = keys[i] as number;
      if (k === id) break;
      if (k === 0) return false;
    }
    // Backward shift: move later entries of the probe run into the hole when their home allows it.
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const kj = keys[j] as number;
      if (kj === 0) break;
      const h = home(kj, shift);
      // The entry at j may move to i when i lies cyclically in [h, j).
      if (i <= j ? h <= i || h > j : h <= i && h > j) {
        keys[i] = kj;
        vals[i] = vals[j];
        i = j;
      }
    }
    keys[i] = 0;
    vals[i] = undefined;
    this.count--;
    if (this.bits > MIN_BITS && this.count * 8 < keys.length) this.resize(this.bits - 1);
    return true;
  }

  /** The values, as a snapshot array (in slot order). */
  values(): V[] {
    const list: V[] = [];
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== 0) list.push(this.vals[i] as V);
    return list;
  }

  private insert(id: number, value: V): void {
    const keys = this.keys;
    const mask = keys.length - 1;
    for (let i = home(id, this.shift); ; i = (i + 1) & mask) {
      const k = keys[i] as number;
      if (k === 0) {
        keys[i] = id;
        this.vals[i] = value;
        this.count++;
        return;
      }
      if (k === id) {
        this.vals[i] = value;
        return;
      }
    }
  }

  private resize(bits: number): void {
    const keys = this.keys;
    const vals = this.vals;
    this.bits = bits;
    this.shift = 32 - bits;
    this.keys = new Float64Array(1 << bits);
    this.vals = new Array<V | undefined>(1 << bits).fill(undefined);
    this.count = 0;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as number;
      if (k !== 0) this.insert(k, vals[i] as V);
    }
  }
}

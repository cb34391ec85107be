/**
 * The core's one table from positive numeric ids to values: the consumer's attempts, reads
 * and per-peer grants, and the producer's live grants.
 *
 * Why not a `Map`: every item lifecycle inserts and deletes a few ids, each one new, and a
 * `Map` that churns like that keeps reallocating its backing store (small maps shrink and
 * grow back; big ones are rebuilt once their deleted entries fill them). This table is open
 * addressing over a `Float64Array` of keys (linear probing, backward-shift deletion): no
 * tombstones, no allocation except to grow or shrink, and expected O(1) at any size.
 *
 * Placement. Ids a peer chooses (the grant ids a consumer is given) are **scattered**:
 * Fibonacci hashing, so ids a peer picks without regard to this table (counters, random
 * numbers) spread evenly. The hash is public and invertible, so a peer could pick colliding
 * ids on purpose; it can only insert as many as the grants it makes the consumer hold. Ids this
 * process hands out from a counter (attempt, read and grant ids) are **sequential**: an id's
 * home is its low bits, so consecutive ids fill consecutive slots and an insert or a lookup of
 * a recent id touches the cache lines its neighbours just did. With 10^5 outstanding requests
 * a scattered insert missed the cache twice (a key line and a value line) on every admission.
 *
 * Lookups stop after `maxDisplacement` probes: no entry lies further than that from its home,
 * so an absent id costs O(1 + maxDisplacement) even where a long run of consecutive ids forms
 * one probe run (a peer's unknown id landing in a run of 10^5 live ids would otherwise scan
 * it). Should sequential placement ever put an entry more than {@link SEQUENTIAL_LIMIT} slots
 * from its home (ids far apart that share low bits, e.g. a peer answering only every 1024th
 * attempt), the table rebuilds itself scattered, for good.
 *
 * Keys that are not positive numbers are simply never found, so a peer's malformed id cannot
 * disturb it. Iteration ({@link IdTable.values}) is in slot order, a function of the ids and
 * the operations only: deterministic, but not insertion order (sort a snapshot where order
 * must not depend on the table).
 * @internal
 * @module
 */
import { SHRINK_FLOOR_BITS } from "./shrink-floor.js";

/** Smallest capacity (a power of two). */
const MIN_BITS = 3;

/** The largest displacement sequential placement tolerates before the table turns scattered. */
export const SEQUENTIAL_LIMIT = 32;

/** How an {@link IdTable} places ids (see the module comment). @internal */
export type IdPlacement = "sequential" | "scattered";

/** Scattered home of `id` in a table of 2^(32 - shift) slots: Fibonacci hashing of its low and high 32 bits. */
function scatteredHome(id: number, shift: number): number {
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
  private mask: number;
  private count = 0;
  private scattered: boolean;
  /** No entry lies further than this from its home slot (an upper bound, reset by a rebuild). */
  private maxDisplacement = 0;

  /** @param placement `sequential` for ids handed out by a counter here, `scattered` (default) for ids a peer chooses. */
  constructor(placement: IdPlacement = "scattered") {
    this.scattered = placement === "scattered";
    this.bits = MIN_BITS;
    this.shift = 32 - MIN_BITS;
    this.mask = (1 << MIN_BITS) - 1;
    this.keys = new Float64Array(1 << MIN_BITS);
    this.vals = new Array<V | undefined>(1 << MIN_BITS).fill(undefined);
  }

  /** Entries stored. */
  get size(): number {
    return this.count;
  }

  /** How ids are placed now: `scattered` once a sequential table has rebuilt itself (see the module comment). */
  get placement(): IdPlacement {
    return this.scattered ? "scattered" : "sequential";
  }

  /** The value of `id`, or `undefined` (always for ids that are not positive numbers). */
  get(id: number): V | undefined {
    if (!(id > 0)) return undefined;
    const keys = this.keys;
    const mask = this.mask;
    let i = this.home(id);
    for (let d = this.maxDisplacement; d >= 0; d--, i = (i + 1) & mask) {
      const k = keys[i] as number;
      if (k === id) return this.vals[i];
      if (k === 0) return undefined;
    }
    return undefined;
  }

  /** Whether `id` is present. */
  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  /** Store `value` (not `undefined`) under the positive id `id`, replacing any previous value. */
  set(id: number, value: V): void {
    if ((this.count + 1) * 2 > this.keys.length) this.rebuild(this.bits + 1);
    this.insert(id, value);
  }

  /** Remove `id`. Returns whether it was present. */
  delete(id: number): boolean {
    if (!(id > 0)) return false;
    const keys = this.keys;
    const vals = this.vals;
    const mask = this.mask;
    let i = this.home(id);
    for (let d = this.maxDisplacement; ; d--, i = (i + 1) & mask) {
      const k = keys[i] as number;
      if (k === id) break;
      if (k === 0 || d === 0) return false;
    }
    // Backward shift: move later entries of the probe run into the hole when their home allows it
    // (an entry only ever moves towards its home, so maxDisplacement stays an upper bound). An
    // entry more than maxDisplacement slots past the hole cannot have its home at or before the
    // hole, nor can any after it: stop there, or deleting the oldest of a run of consecutive ids
    // (sequential placement) would walk the whole run.
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const kj = keys[j] as number;
      if (kj === 0 || ((j - i) & mask) > this.maxDisplacement) break;
      const h = this.home(kj);
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
    if (this.bits > SHRINK_FLOOR_BITS && this.count * 8 < keys.length) this.rebuild(this.bits - 1);
    return true;
  }

  /** The values, as a snapshot array (in slot order). */
  values(): V[] {
    const list: V[] = [];
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== 0) list.push(this.vals[i] as V);
    return list;
  }

  /** Home slot of `id` under the current placement. */
  private home(id: number): number {
    // `id >>> 0` is id mod 2^32 for any integral id, so ids above 2^32 stay sequential too.
    return this.scattered ? scatteredHome(id, this.shift) : (id >>> 0) & this.mask;
  }

  private insert(id: number, value: V): void {
    const keys = this.keys;
    const mask = this.mask;
    let i = this.home(id);
    for (let d = 0; ; d++, i = (i + 1) & mask) {
      const k = keys[i] as number;
      if (k === 0) {
        keys[i] = id;
        this.vals[i] = value;
        this.count++;
        if (d > this.maxDisplacement) {
          this.maxDisplacement = d;
          // Sequential placement gone wrong (see the module comment): scatter from now on.
          if (d > SEQUENTIAL_LIMIT && !this.scattered) {
            this.scattered = true;
            this.rebuild(this.bits);
          }
        }
        return;
      }
      if (k === id) {
        this.vals[i] = value;
        return;
      }
    }
  }

  /** Re-place every entry in a table of 2^bits slots (growing, shrinking, or turning scattered). */
  private rebuild(bits: number): void {
    const keys = this.keys;
    const vals = this.vals;
    this.bits = bits;
    this.shift = 32 - bits;
    this.mask = (1 << bits) - 1;
    this.keys = new Float64Array(1 << bits);
    this.vals = new Array<V | undefined>(1 << bits).fill(undefined);
    this.count = 0;
    this.maxDisplacement = 0;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as number;
      if (k !== 0) this.insert(k, vals[i] as V);
    }
  }
}

/**
 * The one string hash and the one byte hash of the core's hand-written tables
 * (`StringTable`, `OrderedTable`, `KeyIndex`).
 *
 * Why here and not per table: every string- or content-keyed table in the core hashes the
 * same way, so a key hashed once (a request id at admission, an item's content hash when
 * its descriptor arrives) can be handed to any table's `...Hashed` method or stored as an
 * address. Both are seeded per process, so keys crafted to collide (content hashes come
 * from announcements and peers) cannot be prepared offline. Hash values never reach any
 * output: the cores stay deterministic for the same inputs.
 * @internal
 * @module
 */
/** Per-process seed of the hashes below (an FNV-1a offset basis with random bits mixed in). */
const SEED = (0x811c9dc5 ^ Math.floor(Math.random() * 4294967296)) | 0;

/**
 * The tables' hash of a string: FNV-1a (seeded) over the UTF-16 code units, then a final
 * avalanche (sequential ids spread evenly). Callers that look the same key up repeatedly
 * compute it once and pass it to the `...Hashed` methods.
 * @internal
 */
export function hashString(s: string): number {
  let h = SEED;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h & 0x3fffffff; // 30 bits: always a small integer, stored unboxed
}

/**
 * A hash of bytes with the same mixing as {@link hashString}, for keys that are functions
 * of a byte string (an item key id is the hex of its content hash plus the fingerprint, so
 * the content hash alone spreads the keys of one fingerprint at half the work).
 * @internal
 */
export function hashBytes(b: Uint8Array): number {
  let h = SEED;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ (b[i] as number), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h & 0x3fffffff;
}

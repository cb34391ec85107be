/**
 * The string-keyed tables against a `Map` model with the keys a peer or a careless engine could
 * hand them: different keys forced onto one hash (as a peer that learnt the seed could choose),
 * the empty string, lone and reversed surrogates, NUL, and long keys differing only at their end;
 * hashed for real or forced through the `...Hashed` methods, through growth, compaction and
 * shrinking, and (OrderedTable) in-order passes that lean on the next-entry guess.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashString } from "./hash.js";
import { OrderedTable } from "./ordered-table.js";
import { StringTable } from "./string-table.js";
import { type MapLike, runAgainstMap } from "./test-support.js";

/** The pre-hashed surface both tables offer. */
interface Hashed<V> {
  readonly size: number;
  getHashed(key: string, h: number): V | undefined;
  setHashed(key: string, h: number, value: V): void;
  deleteHashed(key: string, h: number): boolean;
}

/** `t` as a {@link MapLike} whose every key is hashed by `hashOf` (a function of the key alone). */
function viaHash<V>(t: Hashed<V>, hashOf: (key: string) => number): MapLike<string, V> {
  return {
    get size() {
      return t.size;
    },
    get: (k) => t.getHashed(k, hashOf(k)),
    set: (k, v) => t.setHashed(k, hashOf(k), v),
    delete: (k) => t.deleteHashed(k, hashOf(k)),
  };
}

const LONG = "x".repeat(4_000);
/** Prefixes that stress the hashing and the key comparison. */
const ODD = ["", "\u0000", "\ud800", "\udfff", "\udc00\ud800", "\ud83d\ude00", LONG, `${LONG}\ud800`];
/** Code units that keep a random key short and still awkward (lone halves of surrogate pairs among them). */
const unitArb = fc.constantFrom(0x00, 0x61, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffe);
const awkwardKey = fc.oneof(
  fc.constantFrom(...ODD),
  fc.array(unitArb, { maxLength: 4 }).map((units) => String.fromCharCode(...units)),
  fc.tuple(fc.constantFrom(...ODD), fc.nat(40)).map(([p, n]) => `${p}${n}`),
);
/** Forced hashes: at both ends of the 30-bit range and at the edges of small tables' masks. */
const forcedHashes = fc.uniqueArray(fc.constantFrom(0, 1, 15, 16, 1_023, 1_024, 0x3fffffff), { minLength: 1, maxLength: 3 });

describe.each([
  { name: "StringTable", make: () => new StringTable<number>() },
  { name: "OrderedTable", make: () => new OrderedTable<number>() },
])("$name with adversarial keys", ({ make }) => {
  it("behaves like a Map when different keys share a hash (forced through the ...Hashed methods), awkward keys included", () => {
    const op = fc.tuple(fc.integer({ min: 0, max: 3 }), awkwardKey);
    fc.assert(
      fc.property(forcedHashes, fc.array(op, { maxLength: 400 }), (hashes, ops) => {
        const t = make();
        const hashOf = (k: string) => hashes[hashString(k) % hashes.length] as number;
        // Kind 3, an in-order pass over the live keys, is where the OrderedTable's next-entry guess meets colliding neighbours.
        runAgainstMap(viaHash(t, hashOf), ops);
      }),
      { numRuns: 200 },
    );
  });

  it("behaves like a Map with awkward real-hashed keys through growth past 1024 slots, compaction and shrinking back", () => {
    // 1600 keys grow the table past the shrink floor; 800 of them deleted and 600 more added make
    // an OrderedTable compact its entries in place. Then random bursts over a range of keys of one
    // awkward prefix: 0 set, 1 delete, 2 get, 3 a sliding window (set n, delete n - gap: the
    // engine's pattern). At the end every key is deleted, so the table shrinks back, and a last
    // few are added to the shrunk table.
    const burst = fc.record({
      kind: fc.integer({ min: 0, max: 3 }),
      prefix: fc.constantFrom(...ODD),
      from: fc.nat(1_000),
      len: fc.nat(600),
      gap: fc.integer({ min: 1, max: 700 }),
    });
    fc.assert(
      fc.property(fc.constantFrom(...ODD), fc.array(burst, { maxLength: 6 }), (first, more) => {
        const ops: [number, string][] = [];
        const range = (kind: number, prefix: string, from: number, len: number) => {
          for (let n = from; n < from + len; n++) ops.push([kind, `${prefix}${n}`]);
        };
        range(0, first, 0, 1_600);
        range(1, first, 200, 800);
        range(0, first, 1_600, 600);
        for (const { kind, prefix, from, len, gap } of more)
          if (kind === 3) for (let n = from; n < from + len; n++) ops.push([0, `${prefix}${n}`], [1, `${prefix}${n - gap}`]);
          else range(kind, prefix, from, len);
        for (const prefix of new Set([first, ...more.map((b) => b.prefix)])) range(1, prefix, -700, 2_900);
        range(0, first, 5, 20);
        const t = make();
        const model = runAgainstMap(t, ops);
        expect(model.size).toBe(20);
      }),
      { numRuns: 8 },
    );
  });
});


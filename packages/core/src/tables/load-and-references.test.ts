/**
 * What the Map-model tests of the tables cannot see: load factors (a lookup of an absent key must
 * meet an empty slot), no reallocation when a size bounces at a boundary, no reference kept to a
 * deleted or moved value, the cost of an in-order pass, pre-hashed and colliding keys, and the
 * hashes' seeding and mixing. Each test fails on a hand mutant that the other tests let pass.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { hashBytes, hashString } from "./hash.js";
import { IdTable, type IdPlacement, SEQUENTIAL_LIMIT } from "./id-table.js";
import { KeyIndex, keyIndexHash } from "./key-index.js";
import { OrderedTable } from "./ordered-table.js";
import { StringTable } from "./string-table.js";

/** Count the indexed reads of a typed or plain array (as the id-table tests do for `keys`). */
function counting<A extends object>(target: A, reads: number[]): A {
  return new Proxy(target, {
    get(t, prop) {
      if (typeof prop === "string" && /^\d+$/.test(prop)) reads.push(Number(prop));
      const v = Reflect.get(t, prop);
      return typeof v === "function" ? v.bind(t) : v;
    },
  });
}

describe("IdTable", () => {
  const keysOf = (t: IdTable<unknown>) => (t as unknown as { keys: Float64Array }).keys;

  it.each<IdPlacement>(["scattered", "sequential"])("never fills past half its slots (grows at load 1/2), %s", (placement) => {
    const t = new IdTable<number>(placement);
    for (let id = 1; id <= 5_000; id++) {
      t.set(id * 7, id);
      expect(keysOf(t).length).toBeGreaterThanOrEqual(2 * t.size);
    }
  });

  it.each<IdPlacement>(["scattered", "sequential"])(
    "a size going up and down by one around a shrink/grow boundary never reallocates (hysteresis), %s",
    (placement) => {
      const t = new IdTable<number>(placement);
      for (let id = 1; id <= 3_000; id++) t.set(id, id); // 8192 slots: grew at 2049
      const keys = keysOf(t);
      let id = 3_001;
      for (let k = 0; k < 200; k++) {
        t.delete(id - 3_000);
        t.set(id, id);
        id++;
      }
      expect(keysOf(t)).toBe(keys);
      expect(t.size).toBe(3_000);
    },
  );

  it("a deleted record is no longer referenced by the table", () => {
    const t = new IdTable<{ id: number }>("sequential");
    const recs = Array.from({ length: 50 }, (_, i) => ({ id: i + 1 }));
    for (const r of recs) t.set(r.id, r);
    for (const r of recs.filter((r) => r.id % 2 === 0)) t.delete(r.id);
    const vals = (t as unknown as { vals: unknown[] }).vals;
    for (const r of recs) expect(vals.includes(r)).toBe(r.id % 2 === 1);
  });

  it("scattered placement spreads ids that differ only in their high 32 bits (no long probe runs)", () => {
    const t = new IdTable<number>("scattered");
    for (let k = 1; k <= 2_000; k++) t.set(k * 2 ** 32 + 1, k);
    expect((t as unknown as { maxDisplacement: number }).maxDisplacement).toBeLessThan(32);
    for (let k = 1; k <= 2_000; k++) expect(t.get(k * 2 ** 32 + 1)).toBe(k);
  });

  it("after turning scattered, the displacement bound is the rebuilt table's own (absent ids cost O(1) again)", () => {
    const t = new IdTable<number>("sequential");
    for (let k = 1; k <= 40; k++) t.set(k * 2 ** 20, k); // same low bits: turns scattered at the 34th
    expect(t.placement).toBe("scattered");
    expect((t as unknown as { maxDisplacement: number }).maxDisplacement).toBeLessThan(SEQUENTIAL_LIMIT);
    for (let k = 1; k <= 40; k++) expect(t.get(k * 2 ** 20)).toBe(k);
  });
});

describe("StringTable", () => {
  type Inner = { slots: unknown[]; mask: number };

  it("never fills past half its slots, so a lookup of an absent key always meets an empty slot", () => {
    const t = new StringTable<number>();
    for (let i = 0; i < 3_000; i++) {
      t.set(`k${i}`, i);
      expect((t as unknown as Inner).mask + 1).toBeGreaterThanOrEqual(2 * t.size);
    }
  });

  it("pre-hashed keys (hashBytes, as the item-key table uses) stay reachable through growth and shrinking", () => {
    const t = new StringTable<number>();
    const keyHash = (i: number) => hashBytes(Uint8Array.of(i & 0xff, i >> 8, 7));
    for (let i = 0; i < 2_000; i++) t.setHashed(`item-${i}`, keyHash(i), i);
    for (let i = 0; i < 2_000; i++) expect(t.getHashed(`item-${i}`, keyHash(i))).toBe(i);
    for (let i = 0; i < 1_990; i++) expect(t.deleteHashed(`item-${i}`, keyHash(i))).toBe(true); // shrinks
    for (let i = 1_990; i < 2_000; i++) expect(t.getHashed(`item-${i}`, keyHash(i))).toBe(i);
    expect(t.size).toBe(10);
  });

  it("a delete in a run that wrapped past the end leaves an entry sitting at its own home (slot 0) in place", () => {
    // 16 slots: A and B (home 14) fill 14 and 15, C (home 0) sits at 0; deleting A moves B to 14, not C.
    const t = new StringTable<string>();
    t.setHashed("A", 14, "a");
    t.setHashed("B", 14, "b");
    t.setHashed("C", 16, "c"); // 16 & 15 = 0
    expect(t.deleteHashed("A", 14)).toBe(true);
    expect(t.getHashed("B", 14)).toBe("b");
    expect(t.getHashed("C", 16)).toBe("c");
    expect(t.size).toBe(2);
  });

  it("a deleted value is no longer referenced by the table", () => {
    const t = new StringTable<{ n: number }>();
    const vals = Array.from({ length: 40 }, (_, n) => ({ n }));
    for (const v of vals) t.set(`v${v.n}`, v);
    for (const v of vals) if (v.n % 2 === 0) t.delete(`v${v.n}`);
    const slots = (t as unknown as Inner).slots;
    for (const v of vals) expect(slots.includes(v)).toBe(v.n % 2 === 1);
  });

  it("a size going up and down by one around a shrink/grow boundary never reallocates (hysteresis)", () => {
    const t = new StringTable<number>();
    for (let i = 0; i < 300; i++) t.set(`s${i}`, i); // 1024 slots: grew at 257
    const slots = (t as unknown as Inner).slots;
    for (let i = 300; i < 500; i++) {
      t.delete(`s${i - 300}`);
      t.set(`s${i}`, i);
    }
    expect((t as unknown as Inner).slots).toBe(slots);
  });
});

describe("OrderedTable", () => {
  type Inner = { buckets: Int32Array; eKey: unknown[]; eVal: unknown[]; used: number };

  it("keys sharing a hash are told apart by the next-entry guess (it compares the key, not only the hash)", () => {
    const t = new OrderedTable<string>();
    t.setHashed("a", 5, "A");
    t.setHashed("b", 5, "B");
    expect(t.getHashed("a", 5)).toBe("A"); // the guess is now entry 1 ("b")
    expect(t.getHashed("c", 5)).toBeUndefined();
    expect(t.getHashed("a", 5)).toBe("A");
    expect(t.getHashed("b", 5)).toBe("B");
  });

  it("an in-order pass, even one starting in the middle, reads no bucket after its first lookup (the next-entry guess)", () => {
    const t = new OrderedTable<number>();
    for (let i = 0; i < 1_000; i++) t.set(`r${i}`, i);
    const inner = t as unknown as Inner;
    const buckets = inner.buckets;
    const reads: number[] = [];
    inner.buckets = counting(buckets, reads);
    expect(t.get("r500")).toBe(500); // from the chain: the guess is 0
    const afterFirst = reads.length;
    for (let i = 501; i < 1_000; i++) expect(t.get(`r${i}`)).toBe(i);
    expect(reads.length).toBe(afterFirst);
    // And a fresh table's first pass from its first entry reads none at all.
    const u = new OrderedTable<number>();
    for (let i = 0; i < 100; i++) u.set(`q${i}`, i);
    const uReads: number[] = [];
    (u as unknown as Inner).buckets = counting((u as unknown as Inner).buckets, uReads);
    for (let i = 0; i < 100; i++) expect(u.get(`q${i}`)).toBe(i);
    expect(uReads).toEqual([]);
    inner.buckets = buckets;
  });

  it("deleted and compacted-away values are no longer referenced by the entry arrays", () => {
    const t = new OrderedTable<{ n: number }>();
    const vals = Array.from({ length: 16 }, (_, n) => ({ n }));
    for (const v of vals) t.set(`v${v.n}`, v); // the 16 entries are full
    for (const v of vals) if (v.n % 2 === 0) t.delete(`v${v.n}`);
    const inner = t as unknown as Inner;
    for (const v of vals) expect(inner.eVal.includes(v)).toBe(v.n % 2 === 1);
    // The next insert compacts in place (8 live of 16): the 8 live entries move to the front.
    const eKey = inner.eKey;
    t.set("w", { n: 99 });
    expect(inner.eKey).toBe(eKey);
    expect(inner.used).toBe(9);
    expect(inner.eVal.slice(inner.used).every((v) => v === undefined)).toBe(true);
    expect(inner.eKey.slice(inner.used).every((k) => k === undefined)).toBe(true);
    for (const v of vals) expect(t.get(`v${v.n}`)).toBe(v.n % 2 === 0 ? undefined : v);
  });
});

describe("OrderedTable: growth, compaction and the shrink floor", () => {
  it("a burst of 200 keys coming and going reuses its arrays after the first (no shrink below 1024 entries)", () => {
    const t = new OrderedTable<number>();
    const eKey = () => (t as unknown as { eKey: unknown[] }).eKey;
    let n = 0;
    const burst = () => {
      const keys: string[] = [];
      for (let i = 0; i < 200; i++) {
        keys.push(`b${n++}`);
        t.set(keys[i] as string, i);
      }
      for (const k of keys) t.delete(k);
    };
    burst();
    const after = eKey();
    for (let round = 0; round < 5; round++) burst();
    expect(eKey()).toBe(after);
    expect(t.size).toBe(0);
  });

  it("a nearly full table grows instead of compacting on every insert (a sliding window costs O(1) amortized)", () => {
    const compact = vi.spyOn(OrderedTable.prototype as unknown as { compact: () => void }, "compact");
    try {
      const t = new OrderedTable<number>();
      for (let i = 0; i < 1_024; i++) t.set(`w${i}`, i);
      for (let i = 1_024; i < 3_024; i++) {
        t.delete(`w${i - 1_024}`);
        t.set(`w${i}`, i);
      }
      expect(compact.mock.calls.length).toBeLessThanOrEqual(4);
      for (let i = 2_000; i < 3_024; i++) expect(t.get(`w${i}`)).toBe(i);
    } finally {
      compact.mockRestore();
    }
  });
});

describe("KeyIndex", () => {
  type Owner = { salt: number };
  type Rec = { owner: Owner; keyId: string; indexHash: number };

  it("never fills past half its slots, so a lookup of an absent pair always meets an empty slot", () => {
    const owner = { salt: 0 };
    const index = new KeyIndex<Owner, Rec>();
    for (let k = 0; k < 500; k++) {
      index.add({ owner, keyId: `k${k}`, indexHash: keyIndexHash(hashString(`k${k}`), owner.salt) });
      expect((index as unknown as { slots: unknown[] }).slots.length).toBeGreaterThanOrEqual(2 * index.size);
    }
  });

  it("a deleted record is no longer referenced by the index", () => {
    const owner = { salt: 1 };
    const index = new KeyIndex<Owner, Rec>();
    const recs = Array.from({ length: 6 }, (_, k) => ({ owner, keyId: `k${k}`, indexHash: 3 }));
    for (const r of recs) index.add(r);
    for (const r of recs) expect(index.delete(r)).toBe(true);
    expect((index as unknown as { slots: unknown[] }).slots.every((s) => s === undefined)).toBe(true);
  });
});

describe("hashString / hashBytes", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it("every byte counts, the last one too (content hashes differing in their last byte do not collide)", () => {
    const seen = new Set<number>();
    for (let b = 0; b < 256; b++) {
      const bytes = new Uint8Array(32).fill(9);
      bytes[31] = b;
      seen.add(hashBytes(bytes));
    }
    expect(seen.size).toBe(256);
    const firsts = new Set<number>();
    for (let c = 0; c < 256; c++) firsts.add(hashString(`${String.fromCharCode(c)}-same-tail`));
    expect(firsts.size).toBe(256);
  });

  it("are seeded per process: another seed gives other hashes of the same inputs", async () => {
    vi.resetModules();
    vi.spyOn(Math, "random").mockReturnValue(0.123456);
    const a = await import("./hash.js");
    vi.resetModules();
    vi.spyOn(Math, "random").mockReturnValue(0.654321);
    const b = await import("./hash.js");
    const inputs = ["req-1", "req-2", "item-key"];
    expect(inputs.map(a.hashString)).not.toEqual(inputs.map(b.hashString));
    expect(a.hashBytes(Uint8Array.of(1, 2, 3))).not.toBe(b.hashBytes(Uint8Array.of(1, 2, 3)));
  });

  it("hashBytes avalanches: inputs differing in one low bit of their last byte differ in many bits", () => {
    let total = 0;
    for (let i = 0; i < 256; i++) {
      const x = Uint8Array.of(i, 17, 0);
      const y = Uint8Array.of(i, 17, 1);
      let d = hashBytes(x) ^ hashBytes(y);
      while (d) {
        total += d & 1;
        d >>>= 1;
      }
    }
    // A good 30-bit hash differs in about 15 bits on average (without the final multiply: about 10).
    expect(total / 256).toBeGreaterThan(12.5);
  });
});

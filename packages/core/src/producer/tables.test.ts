import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdTable, KeyIndex, contentHashCode, keyIndexHash } from "./tables.js";

describe("IdTable", () => {
  it("get / add / delete / size / valuesById agree with a Map over random operations (clustered and wrapping ids)", () => {
    const op = fc.oneof(
      fc.record({
        t: fc.constant("add" as const),
        // Ids sharing the last slots of a 16- or 32-slot table make probe runs wrap around.
        id: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constantFrom(14, 15, 30, 31, 46, 47, 63, 16, 32, 48, 64), fc.integer({ min: 1, max: 2 ** 40 })),
      }),
      fc.record({ t: fc.constant("del" as const), pick: fc.nat() }),
      fc.record({ t: fc.constant("delAbsent" as const), id: fc.integer({ min: 1, max: 2 ** 40 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const table = new IdTable<{ id: number }>();
        const ref = new Map<number, { id: number }>();
        for (const o of ops) {
          if (o.t === "add") {
            if (ref.has(o.id)) continue; // ids are never reused
            const r = { id: o.id };
            table.add(r);
            ref.set(o.id, r);
          } else if (o.t === "del") {
            const ids = [...ref.keys()];
            if (ids.length === 0) continue;
            const id = ids[o.pick % ids.length] as number;
            expect(table.delete(id)).toBe(true);
            ref.delete(id);
          } else {
            expect(table.delete(o.id)).toBe(ref.delete(o.id));
          }
          expect(table.size).toBe(ref.size);
          for (const [id, r] of ref) expect(table.get(id)).toBe(r);
        }
        expect(table.valuesById()).toEqual([...ref.values()].sort((a, b) => a.id - b.id));
        for (const id of [0, 41, 2 ** 41]) expect(table.get(id)).toBeUndefined();
      }),
      { numRuns: 150 },
    );
  });

  it("a delete inside a probe run that wrapped past the end of the table moves the wrapped records back", () => {
    // 16 slots: ids 15, 31, 47 and 63 all start at slot 15 and wrap to slots 0, 1 and 2.
    for (const victim of [15, 31, 47]) {
      const table = new IdTable<{ id: number }>();
      const recs = [15, 31, 47, 63].map((id) => ({ id }));
      for (const r of recs) table.add(r);
      expect(table.delete(victim)).toBe(true);
      for (const r of recs) expect(table.get(r.id)).toBe(r.id === victim ? undefined : r);
    }
  });

  it("consecutive ids churned far past the capacity stay exact (deletes out of order)", () => {
    const table = new IdTable<{ id: number }>();
    const live: { id: number }[] = [];
    let failedDeletes = 0;
    for (let id = 1; id <= 100_000; id++) {
      const r = { id };
      table.add(r);
      live.push(r);
      if (live.length > 5) {
        const old = live.splice(id % 5, 1)[0] as { id: number };
        if (!table.delete(old.id) || table.get(old.id) !== undefined) failedDeletes++;
      }
    }
    expect(failedDeletes).toBe(0);
    expect(table.size).toBe(5);
    for (const r of live) expect(table.get(r.id)).toBe(r);
    expect(table.valuesById().map((r) => r.id)).toEqual(live.map((r) => r.id).sort((a, b) => a - b));
  });
});

describe("KeyIndex", () => {
  type Owner = { salt: number };
  type Rec = { owner: Owner; keyId: string; indexHash: number };
  const owners: Owner[] = [{ salt: 0 }, { salt: 0x61c88647 }, { salt: Math.imul(3, 0x61c88647) }];
  // Few distinct content hashes over three owners: probe runs collide and wrap in 16 slots.
  const hashes = [Uint8Array.of(1), Uint8Array.of(2), Uint8Array.of(1, 2), new Uint8Array(16).fill(7), new Uint8Array(32)];
  const keyIds = hashes.map((h, i) => `k${i}:${Array.from(h).join(",")}`);

  it("get / add / delete agree with a Map keyed by (owner, key id) over random operations", () => {
    const op = fc.record({ add: fc.boolean(), o: fc.nat(owners.length - 1), k: fc.nat(hashes.length - 1) });
    fc.assert(
      // `force` puts records at two or three neighbouring addresses at the end of the 16-slot
      // table, so probe runs are long and wrap around to its start.
      fc.property(fc.array(op, { maxLength: 300 }), fc.option(fc.constantFrom(13, 14, 15)), (ops, force) => {
        const index = new KeyIndex<Owner, Rec>();
        const ref = new Map<string, Rec>();
        for (const { add, o, k } of ops) {
          const owner = owners[o] as Owner;
          const keyId = keyIds[k] as string;
          const indexHash = force !== null ? force + (k % 3) : keyIndexHash(contentHashCode(hashes[k] as Uint8Array), owner.salt);
          const name = `${o}/${keyId}`;
          const held = ref.get(name);
          expect(index.get(owner, indexHash, keyId)).toBe(held);
          if (add && held === undefined) {
            const r = { owner, keyId, indexHash };
            index.add(r);
            ref.set(name, r);
          } else if (!add && held !== undefined) {
            expect(index.delete(held)).toBe(true);
            expect(index.delete(held)).toBe(false);
            ref.delete(name);
          }
          expect(index.size).toBe(ref.size);
        }
        for (const [name, r] of ref) {
          expect(index.get(r.owner, r.indexHash, r.keyId), name).toBe(r);
          // Another owner never gets it, even at the same address (only its own record, if any).
          for (const other of owners) if (other !== r.owner) expect(index.get(other, r.indexHash, r.keyId)).not.toBe(r);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a delete inside a probe run that wrapped past the end of the table moves the wrapped records back", () => {
    const owner = { salt: 0 };
    for (const victim of [0, 1, 2]) {
      const index = new KeyIndex<Owner, Rec>();
      // Four keys at address 15 of 16 slots: they fill slots 15, 0, 1 and 2.
      const recs = [0, 1, 2, 3].map((k) => ({ owner, keyId: `k${k}`, indexHash: 15 }));
      for (const r of recs) index.add(r);
      expect(index.delete(recs[victim] as Rec)).toBe(true);
      for (const [k, r] of recs.entries()) expect(index.get(owner, 15, r.keyId)).toBe(k === victim ? undefined : r);
    }
  });

  it("contentHashCode spreads consecutive counters over the low bits", () => {
    const seen = new Set<number>();
    for (let n = 0; n < 1024; n++) {
      const h = new Uint8Array(16);
      new DataView(h.buffer).setUint32(0, n);
      seen.add(keyIndexHash(contentHashCode(h), 0) & 1023);
    }
    // A random function would hit about 1024 * (1 - 1/e) = 647 of 1024 buckets.
    expect(seen.size).toBeGreaterThan(550);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashBytes } from "./hash.js";
import { KeyIndex, keyIndexHash } from "./key-index.js";
import { SHRINK_FLOOR_SLOTS } from "./shrink-floor.js";

describe("KeyIndex (the producer's live grant per consumer and item [P3])", () => {
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
          const indexHash = force !== null ? force + (k % 3) : keyIndexHash(hashBytes(hashes[k] as Uint8Array), owner.salt);
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

  describe("[I4] shrinking after a burst", () => {
    const slotsOf = (index: KeyIndex<Owner, Rec>) => (index as unknown as { slots: unknown[] }).slots;
    /** `n` records of one owner, each at the address its own content hash gives. */
    function burst(n: number, owner: Owner = owners[1] as Owner): Rec[] {
      return Array.from({ length: n }, (_, k) => {
        const keyId = `b${k}`;
        return { owner, keyId, indexHash: keyIndexHash(hashBytes(Uint8Array.of(k & 0xff, (k >> 8) & 0xff, k >> 16)), owner.salt) };
      });
    }

    it("[I4] after a burst of 50,000 records all deleted, it is back to the shrink floor (it kept 131,072 slots)", () => {
      const index = new KeyIndex<Owner, Rec>();
      const recs = burst(50_000);
      for (const r of recs) index.add(r);
      expect(slotsOf(index).length).toBe(131_072);
      // Deleted in an order unlike the insertion's, checking that the rest stays reachable as it shrinks.
      const order = [...recs.keys()].sort((a, b) => ((a * 7919) % 50_000) - ((b * 7919) % 50_000));
      const deletedAt = new Array<number>(recs.length);
      for (const [done, k] of order.entries()) deletedAt[k] = done;
      for (const [done, k] of order.entries()) {
        expect(index.delete(recs[k] as Rec)).toBe(true);
        if (done % 5_000 === 4_999 || done > 49_990) {
          let wrong = 0;
          for (const [j, r] of recs.entries()) if (index.get(r.owner, r.indexHash, r.keyId) !== ((deletedAt[j] as number) > done ? r : undefined)) wrong++;
          expect(wrong, `after ${done + 1} deletes`).toBe(0);
        }
      }
      expect(index.size).toBe(0);
      expect(slotsOf(index).length).toBe(SHRINK_FLOOR_SLOTS);
    });

    it("[I4] it shrinks only below an eighth full, one halving at a time, and never below the floor nor the capacity it was made with", () => {
      const index = new KeyIndex<Owner, Rec>();
      const recs = burst(1025); // 1025 records need 4096 slots (at most half full)
      for (const r of recs) index.add(r);
      expect(slotsOf(index).length).toBe(4096);
      for (const r of recs.slice(0, 1025 - 512)) index.delete(r);
      expect([index.size, slotsOf(index).length]).toEqual([512, 4096]); // an eighth full: kept
      index.delete(recs[1025 - 512] as Rec);
      expect([index.size, slotsOf(index).length]).toEqual([511, 2048]); // below an eighth: halved
      // A size bouncing by one at the shrink point reallocates nothing more (a quarter full now).
      const slots = slotsOf(index);
      for (let i = 0; i < 100; i++) {
        index.add(recs[1025 - 512] as Rec);
        index.delete(recs[1025 - 512] as Rec);
      }
      expect(slotsOf(index)).toBe(slots);
      for (const r of recs.slice(1025 - 511)) index.delete(r);
      expect(slotsOf(index).length).toBe(SHRINK_FLOOR_SLOTS);
      // A table made larger than the floor keeps the size it was made with.
      const presized = new KeyIndex<Owner, Rec>(8192);
      for (const r of recs) presized.add(r);
      for (const r of recs) presized.delete(r);
      expect(slotsOf(presized).length).toBe(8192);
    });
  });
});

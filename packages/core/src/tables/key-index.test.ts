import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashBytes } from "./hash.js";
import { KeyIndex, keyIndexHash } from "./key-index.js";

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
});

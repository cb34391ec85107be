import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdTable } from "./id-table.js";

describe("IdTable", () => {
  it("get / add / delete / size / valuesById agree with a Map over random operations (clustered and wrapping ids)", () => {
    const op = fc.oneof(
      fc.record({ t: fc.constant("add" as const), id: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 2 ** 40 })) }),
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
      { numRuns: 300 },
    );
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

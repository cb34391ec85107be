import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdTable } from "./id-table.js";

describe("IdTable (attempt, read and grant ids of the consumer)", () => {
  it("behaves like a Map under random sets, gets and deletes (growth, shrinking and backward-shift deletion included)", () => {
    const idArb = fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), idArb), { maxLength: 1_500 }), (ops) => {
        const t = new IdTable<number>();
        const m = new Map<number, number>();
        ops.forEach(([op, id], i) => {
          if (op === 0) {
            t.set(id, i);
            m.set(id, i);
          } else if (op === 1) expect(t.delete(id)).toBe(m.delete(id));
          else expect(t.get(id)).toBe(m.get(id));
          expect(t.size).toBe(m.size);
        });
        for (const [id, v] of m) expect(t.get(id)).toBe(v);
        expect(t.values().sort((a, b) => a - b)).toEqual([...m.values()].sort((a, b) => a - b));
      }),
    );
  });

  it("[C10] ids that are not positive numbers are never found and never disturb it", () => {
    const t = new IdTable<string>();
    t.set(1, "a");
    t.set(2 ** 40 + 1, "b");
    for (const bad of [0, -1, Number.NaN, 1.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(t.get(bad)).toBeUndefined();
      expect(t.has(bad)).toBe(false);
      expect(t.delete(bad)).toBe(false);
    }
    expect(t.get(1)).toBe("a");
    expect(t.get(2 ** 40 + 1)).toBe("b");
    expect(t.size).toBe(2);
  });

  it("keeps sequential ids reachable through heavy churn", () => {
    const t = new IdTable<number>();
    for (let i = 1; i <= 50_000; i++) t.set(i, i);
    for (let i = 1; i <= 50_000; i += 3) t.delete(i);
    for (let i = 1; i <= 50_000; i++) expect(t.get(i)).toBe((i - 1) % 3 === 0 ? undefined : i);
    for (let i = 1; i <= 50_000; i++) t.delete(i);
    expect(t.size).toBe(0);
  });
});

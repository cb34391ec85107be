import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdTable } from "./id-table.js";
import { runAgainstMap } from "./test-support.js";

/** The slot `id` lands in when it is alone in a fresh table (its home in the smallest table). */
function homeSlot(id: number): number {
  const t = new IdTable<number>();
  t.set(id, 1);
  return (t as unknown as { keys: Float64Array }).keys.indexOf(id);
}

describe("IdTable (the consumer's attempt, read and grant ids; the producer's grant ids)", () => {
  it("behaves like a Map under random sets, gets and deletes (growth, shrinking and backward-shift deletion included)", () => {
    // Small ids collide and cluster; large ones exercise the high 32 bits of the hash.
    const idArb = fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), idArb), { maxLength: 1_500 }), (ops) => {
        const t = new IdTable<number>();
        const m = runAgainstMap(t, ops);
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

  it("a delete inside a probe run that wrapped past the end of the table moves the wrapped records back", () => {
    // Four ids whose home is the last of the 8 slots: they fill slots 7, 0, 1 and 2.
    const last = (new IdTable<number>() as unknown as { keys: Float64Array }).keys.length - 1;
    const ids: number[] = [];
    for (let id = 1; ids.length < 4; id++) if (homeSlot(id) === last) ids.push(id);
    for (const victim of ids) {
      const t = new IdTable<{ id: number }>();
      const recs = ids.map((id) => ({ id }));
      for (const r of recs) t.set(r.id, r);
      const keys = (t as unknown as { keys: Float64Array }).keys;
      expect([...keys.slice(0, 3), keys[last] as number].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
      expect(t.delete(victim)).toBe(true);
      for (const r of recs) expect(t.get(r.id)).toBe(r.id === victim ? undefined : r);
      expect(t.size).toBe(3);
    }
  });

  it("keeps sequential ids reachable through heavy churn (growing, then shrinking)", () => {
    const t = new IdTable<number>();
    for (let i = 1; i <= 50_000; i++) t.set(i, i);
    for (let i = 1; i <= 50_000; i += 3) t.delete(i);
    for (let i = 1; i <= 50_000; i++) expect(t.get(i)).toBe((i - 1) % 3 === 0 ? undefined : i);
    for (let i = 1; i <= 50_000; i++) t.delete(i);
    expect(t.size).toBe(0);
  });

  it("consecutive ids churned far past the capacity stay exact (the producer's grants: deletes out of order)", () => {
    const t = new IdTable<{ id: number }>();
    const live: { id: number }[] = [];
    let failedDeletes = 0;
    for (let id = 1; id <= 100_000; id++) {
      const r = { id };
      t.set(id, r);
      live.push(r);
      if (live.length > 5) {
        const old = live.splice(id % 5, 1)[0] as { id: number };
        if (!t.delete(old.id) || t.get(old.id) !== undefined) failedDeletes++;
      }
    }
    expect(failedDeletes).toBe(0);
    expect(t.size).toBe(5);
    for (const r of live) expect(t.get(r.id)).toBe(r);
    expect(t.values().map((r) => r.id).sort((a, b) => a - b)).toEqual(live.map((r) => r.id).sort((a, b) => a - b));
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdTable, type IdPlacement, SEQUENTIAL_LIMIT } from "./id-table.js";
import { runAgainstMap } from "./test-support.js";

/** The slot `id` lands in when it is alone in a fresh table (its home in the smallest table). */
function homeSlot(id: number): number {
  const t = new IdTable<number>();
  t.set(id, 1);
  return (t as unknown as { keys: Float64Array }).keys.indexOf(id);
}

describe("IdTable (the consumer's attempt, read and grant ids; the producer's grant ids)", () => {
  it.each<IdPlacement>(["scattered", "sequential"])(
    "behaves like a Map under random sets, gets and deletes (growth, shrinking and backward-shift deletion included), %s",
    (placement) => {
      // Small ids collide and cluster; large ones exercise the high 32 bits; multiples of 2^16
      // share their low bits (sequential placement's worst case: it turns scattered).
      const idArb = fc.oneof(
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 1, max: 200 }).map((k) => k * 65_536),
      );
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), idArb), { maxLength: 1_500 }), (ops) => {
          const t = new IdTable<number>(placement);
          const m = runAgainstMap(t, ops);
          expect(t.values().sort((a, b) => a - b)).toEqual([...m.values()].sort((a, b) => a - b));
        }),
      );
    },
  );

  it.each<IdPlacement>(["scattered", "sequential"])("a burst of 500 ids (a large engine step's) coming and going reuses its arrays after the first (no shrink below 1024 slots), %s", (placement) => {
    const t = new IdTable<number>(placement);
    const keysOf = () => (t as unknown as { keys: Float64Array }).keys;
    let id = 1;
    const burst = () => {
      const ids: number[] = [];
      for (let i = 0; i < 500; i++) {
        t.set(id, id);
        ids.push(id++);
      }
      for (const x of ids) t.delete(x);
    };
    burst();
    const after = keysOf();
    for (let round = 0; round < 5; round++) burst();
    expect(keysOf()).toBe(after);
    expect(t.size).toBe(0);
  });

  it.each<IdPlacement>(["scattered", "sequential"])("setting an id already present replaces its value in place: the size stays, every other id keeps its value, %s", (placement) => {
    const t = new IdTable<number>(placement);
    const ids = Array.from({ length: 50 }, (_, i) => 1 + i * 65_536); // colliding low bits: probe chains
    for (const id of ids) t.set(id, id);
    for (const id of ids.filter((_, i) => i % 7 === 0)) t.set(id, -id);
    expect(t.size).toBe(50);
    for (const [i, id] of ids.entries()) expect(t.get(id)).toBe(i % 7 === 0 ? -id : id);
    for (const id of ids) expect(t.delete(id)).toBe(true);
    expect(t.size).toBe(0);
    expect(t.get(ids[0] as number)).toBeUndefined();
  });

  it("sequential placement puts consecutive ids in consecutive slots, each at its home (nothing displaced)", () => {
    const t = new IdTable<number>("sequential");
    const first = 2 ** 40 + 5; // above 2^32 too: the home is the id mod 2^32, masked
    for (let id = first; id < first + 10_000; id++) t.set(id, id);
    const inside = t as unknown as { keys: Float64Array; maxDisplacement: number };
    const mask = inside.keys.length - 1;
    for (let id = first; id < first + 10_000; id++) expect(inside.keys[(id >>> 0) & mask]).toBe(id);
    expect(inside.maxDisplacement).toBe(0);
    expect(t.placement).toBe("sequential");
  });

  it("[C10] an unknown id landing inside a run of 10,000 live consecutive ids is answered after one probe", () => {
    const t = new IdTable<number>("sequential");
    for (let id = 1; id <= 10_000; id++) t.set(id, id);
    const keys = (t as unknown as { keys: Float64Array }).keys;
    const reads: number[] = [];
    // Count the slots a lookup reads: the unknown id's home is slot 5000, inside the run.
    const counting = new Proxy(keys, {
      get(target, prop) {
        if (typeof prop === "string" && /^\d+$/.test(prop)) reads.push(Number(prop));
        const v = Reflect.get(target, prop);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    (t as unknown as { keys: Float64Array }).keys = counting;
    expect(t.get(keys.length + 5_000)).toBeUndefined();
    expect(t.delete(keys.length + 5_000)).toBe(false);
    expect(reads).toEqual([5_000, 5_000]);
    expect(t.get(5_000)).toBe(5_000);
  });

  it("deleting the oldest of a run of 10,000 consecutive ids reads a few slots, not the run (the backward shift stops past maxDisplacement)", () => {
    const t = new IdTable<number>("sequential");
    for (let id = 1; id <= 10_000; id++) t.set(id, id);
    const inside = t as unknown as { keys: Float64Array };
    const keys = inside.keys;
    let reads = 0;
    inside.keys = new Proxy(keys, {
      get(target, prop) {
        if (typeof prop === "string" && /^\d+$/.test(prop)) reads++;
        const v = Reflect.get(target, prop);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    expect(t.delete(1)).toBe(true);
    expect(reads).toBeLessThanOrEqual(3);
    inside.keys = keys;
    for (let id = 2; id <= 10_000; id++) expect(t.get(id)).toBe(id);
  });

  it(`sequential placement turns scattered once an id lands more than ${SEQUENTIAL_LIMIT} slots from its home, and every id stays reachable`, () => {
    const t = new IdTable<number>("sequential");
    // Ids sharing their low 20 bits all have the same home while the table is small.
    const ids = Array.from({ length: SEQUENTIAL_LIMIT + 2 }, (_, k) => (k + 1) * 2 ** 20);
    for (const id of ids.slice(0, SEQUENTIAL_LIMIT + 1)) t.set(id, id);
    expect(t.placement).toBe("sequential");
    t.set(ids[SEQUENTIAL_LIMIT + 1] as number, 0);
    expect(t.placement).toBe("scattered");
    for (const id of ids) expect(t.get(id)).toBe(id === ids[SEQUENTIAL_LIMIT + 1] ? 0 : id);
    for (const id of ids) expect(t.delete(id)).toBe(true);
    expect(t.size).toBe(0);
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

  it.each<IdPlacement>(["scattered", "sequential"])("keeps consecutive ids reachable through heavy churn (growing, then shrinking), %s", (placement) => {
    const t = new IdTable<number>(placement);
    for (let i = 1; i <= 50_000; i++) t.set(i, i);
    for (let i = 1; i <= 50_000; i += 3) t.delete(i);
    for (let i = 1; i <= 50_000; i++) expect(t.get(i)).toBe((i - 1) % 3 === 0 ? undefined : i);
    for (let i = 1; i <= 50_000; i++) t.delete(i);
    expect(t.size).toBe(0);
  });

  it.each<IdPlacement>(["scattered", "sequential"])("consecutive ids churned far past the capacity stay exact (the producer's grants: deletes out of order), %s", (placement) => {
    const t = new IdTable<{ id: number }>(placement);
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

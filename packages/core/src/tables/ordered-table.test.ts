import { describe, expect, it } from "vitest";
import { OrderedTable } from "./ordered-table.js";

// Its behaviour as a map is checked with StringTable's in string-table.test.ts.
describe("OrderedTable internals", () => {
  it("reuses its arrays when a request comes and goes (compaction in place, no growth)", () => {
    const t = new OrderedTable<number>();
    t.set("keep", 0);
    const before = (t as unknown as { eKey: unknown[] }).eKey;
    for (let i = 0; i < 1_000; i++) {
      t.set(`r${i}`, i);
      expect(t.get(`r${i}`)).toBe(i);
      t.delete(`r${i}`);
    }
    expect((t as unknown as { eKey: unknown[] }).eKey).toBe(before);
    expect(t.get("keep")).toBe(0);
    expect(t.size).toBe(1);
  });

  it("finds every key in in-order passes (the next-entry guess) and after deletions, compaction and growth", () => {
    const t = new OrderedTable<number>();
    const live = new Map<string, number>();
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 300; i++) {
        const key = `r${round}.${i}`;
        t.set(key, round * 1000 + i);
        live.set(key, round * 1000 + i);
      }
      // Delete every third key of the previous round (holes between guesses), then look everything up in order, twice.
      for (const key of [...live.keys()]) if (key.startsWith(`r${round - 1}.`) && Number(key.split(".")[1]) % 3 === 0) {
        expect(t.delete(key)).toBe(true);
        live.delete(key);
      }
      for (let pass = 0; pass < 2; pass++) for (const [key, value] of live) expect(t.get(key)).toBe(value);
      // Out of order and absent keys too.
      for (const [key, value] of [...live].reverse()) expect(t.get(key)).toBe(value);
      expect(t.get(`r${round - 1}.0`)).toBeUndefined();
      expect(t.size).toBe(live.size);
    }
  });
});

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
});

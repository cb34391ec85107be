import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OrderedTable } from "./ordered-table.js";

describe("OrderedTable (the consumer's request table)", () => {
  it("behaves like a Map under random sets, gets and deletes (revivals and rebuilds included)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 600 })), { maxLength: 3_000 }),
        (ops) => {
          const t = new OrderedTable<number>();
          const m = new Map<string, number>();
          ops.forEach(([op, k], i) => {
            const key = `k${k}`;
            if (op === 0) {
              t.set(key, i);
              m.set(key, i);
            } else if (op === 1) expect(t.delete(key)).toBe(m.delete(key));
            else expect(t.get(key)).toBe(m.get(key));
            expect(t.size).toBe(m.size);
          });
          for (let k = 0; k <= 600; k++) expect(t.get(`k${k}`)).toBe(m.get(`k${k}`));
        },
      ),
    );
  });

  it("keeps every key of a large table reachable through heavy churn", () => {
    const t = new OrderedTable<number>();
    for (let i = 0; i < 20_000; i++) t.set(`o${i}`, i);
    for (let i = 0; i < 20_000; i += 2) expect(t.delete(`o${i}`)).toBe(true);
    for (let i = 0; i < 20_000; i++) expect(t.get(`o${i}`)).toBe(i % 2 === 0 ? undefined : i);
    expect(t.size).toBe(10_000);
    for (let i = 1; i < 20_000; i += 2) t.delete(`o${i}`);
    expect(t.size).toBe(0);
  });
});

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

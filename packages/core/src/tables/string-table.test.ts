import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OrderedTable } from "./ordered-table.js";
import { StringTable } from "./string-table.js";
import { runAgainstMap } from "./test-support.js";

describe.each([
  { name: "StringTable (the consumer's item-key table)", make: () => new StringTable<number>() },
  { name: "OrderedTable (the consumer's request table)", make: () => new OrderedTable<number>() },
])("$name", ({ make }) => {
  it("behaves like a Map under random sets, gets and deletes (revivals, growth and shrinking included)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 600 })), { maxLength: 3_000 }),
        (ops) => {
          const t = make();
          const m = runAgainstMap(
            t,
            ops.map(([op, k]) => [op, `k${k}`] as const),
          );
          for (let k = 0; k <= 600; k++) expect(t.get(`k${k}`)).toBe(m.get(`k${k}`));
        },
      ),
    );
  });

  it("a burst of 500 keys (a large engine step's requests) coming and going reuses its arrays after the first (no shrink below 1024 slots)", () => {
    const t = make();
    const inner = t as unknown as { slots?: unknown[]; eKey?: unknown[] };
    const arrays = () => inner.slots ?? inner.eKey;
    let n = 0;
    const burst = () => {
      const keys: string[] = [];
      for (let i = 0; i < 500; i++) {
        keys.push(`b${n++}`);
        t.set(keys[i] as string, i);
      }
      for (const k of keys) t.delete(k);
    };
    burst();
    const after = arrays();
    for (let round = 0; round < 5; round++) burst();
    expect(arrays()).toBe(after);
    expect(t.size).toBe(0);
  });

  it("keeps every key of a large table reachable through heavy churn", () => {
    const t = make();
    for (let i = 0; i < 20_000; i++) t.set(`o${i}`, i);
    for (let i = 0; i < 20_000; i += 2) expect(t.delete(`o${i}`)).toBe(true);
    for (let i = 0; i < 20_000; i++) expect(t.get(`o${i}`)).toBe(i % 2 === 0 ? undefined : i);
    expect(t.size).toBe(10_000);
    for (let i = 1; i < 20_000; i += 2) t.delete(`o${i}`);
    expect(t.size).toBe(0);
  });

  it("setting a key already present replaces its value in place: the size stays, every other key keeps its value", () => {
    const t = make();
    for (let i = 0; i < 50; i++) t.set(`k${i}`, i);
    for (let i = 0; i < 50; i += 7) t.set(`k${i}`, -i);
    expect(t.size).toBe(50);
    for (let i = 0; i < 50; i++) expect(t.get(`k${i}`)).toBe(i % 7 === 0 ? -i : i);
    for (let i = 0; i < 50; i++) expect(t.delete(`k${i}`)).toBe(true);
    expect(t.size).toBe(0);
    expect(t.get("k0")).toBeUndefined();
  });
});

describe("StringTable: when it shrinks", () => {
  it("halves once under an eighth full (not at exactly an eighth), and never below 1024 slots", () => {
    const t = new StringTable<number>();
    const slots = () => (t as unknown as { mask: number }).mask + 1;
    for (let i = 0; i < 1_025; i++) t.set(`s${i}`, i);
    expect(slots()).toBe(4_096);
    let next = 0;
    const shrinkTo = (size: number) => {
      while (t.size > size) expect(t.delete(`s${next++}`)).toBe(true);
    };
    shrinkTo(512); // exactly an eighth of 4096
    expect(slots()).toBe(4_096);
    shrinkTo(511);
    expect(slots()).toBe(2_048);
    shrinkTo(256); // exactly an eighth of 2048
    expect(slots()).toBe(2_048);
    shrinkTo(255);
    expect(slots()).toBe(1_024);
    shrinkTo(0);
    expect(slots()).toBe(1_024);
    for (let i = next; i < 1_025; i++) expect(t.get(`s${i}`)).toBeUndefined();
  });
});

/**
 * Table behaviour the other table tests leave open: the initial capacity of a KeyIndex is
 * rounded up to a power of two (a probe run that reaches the last slot wraps to slot 0); an
 * OrderedTable shrinks only below an eighth full; hashString mixes its last character into
 * every bit, as hashBytes does.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { KeyIndex } from "./key-index.js";
import { OrderedTable } from "./ordered-table.js";

describe("KeyIndex: initial capacity", () => {
  type Owner = { salt: number };
  type Rec = { owner: Owner; keyId: string; indexHash: number };
  const slotsOf = (index: KeyIndex<Owner, Rec>) => (index as unknown as { slots: unknown[] }).slots;

  it.each([
    [0, 16],
    [16, 16],
    [17, 32],
    [40, 64],
    [100, 128],
  ])("a capacity of %i gives %i slots (a power of two, at least 16)", (capacity, slots) => {
    expect(slotsOf(new KeyIndex<Owner, Rec>(capacity)).length).toBe(slots);
  });

  it("with a capacity of 40, records addressed at the last slot wrap to slot 0 and stay reachable", () => {
    const owner = { salt: 0 };
    const index = new KeyIndex<Owner, Rec>(40);
    const recs = Array.from({ length: 10 }, (_, k) => ({ owner, keyId: `k${k}`, indexHash: 63 }));
    for (const r of recs) index.add(r);
    const slots = slotsOf(index);
    expect(slots[63]).toBe(recs[0]);
    expect(slots[0]).toBe(recs[1]);
    for (const r of recs) expect(index.get(owner, 63, r.keyId)).toBe(r);
    for (const r of recs.slice(0, 5)) expect(index.delete(r)).toBe(true);
    for (const r of recs.slice(5)) expect(index.get(owner, 63, r.keyId)).toBe(r);
    expect(index.size).toBe(5);
  });
});

describe("OrderedTable: shrink hysteresis", () => {
  it("a size bouncing by one just under half of a 512-entry table never reallocates (it shrinks only below an eighth)", () => {
    const t = new OrderedTable<number>();
    const keyArray = () => (t as unknown as { eKey: unknown[] }).eKey;
    for (let i = 0; i < 300; i++) t.set(`r${i}`, i); // grew to 512 entries at the 257th key
    for (let i = 0; i < 45; i++) expect(t.delete(`r${i}`)).toBe(true);
    const arrays = keyArray();
    expect(arrays.length).toBe(512);
    let next = 300;
    for (let k = 0; k < 600; k++) {
      t.set(`r${next}`, next);
      next++;
      expect(t.delete(`r${next - 256}`)).toBe(true);
    }
    expect(keyArray()).toBe(arrays);
    expect(t.size).toBe(255);
    for (let i = next - 255; i < next; i++) expect(t.get(`r${i}`)).toBe(i);
    expect(t.get(`r${next - 256}`)).toBeUndefined();
  });
});

describe("hashString avalanche", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it("strings differing in one low bit of their last character differ in about half the 30 bits", async () => {
    vi.resetModules();
    vi.spyOn(Math, "random").mockReturnValue(0.3141592);
    const { hashString } = await import("./hash.js");
    let total = 0;
    for (let i = 0; i < 1024; i++) {
      let d = hashString(`req-${i}:a`) ^ hashString(`req-${i}:\``);
      while (d) {
        total += d & 1;
        d >>>= 1;
      }
    }
    // About 15 bits on average with the final multiply, about 10 without it.
    expect(total / 1024).toBeGreaterThan(12.5);
  });
});

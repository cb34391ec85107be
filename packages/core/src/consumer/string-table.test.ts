import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StringTable, hashBytes, hashString } from "./string-table.js";

describe("StringTable (the consumer's request and item-key tables)", () => {
  it("behaves like a Map under random sets, gets and deletes (revivals and rebuilds included)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 600 })), { maxLength: 3_000 }),
        (ops) => {
          const t = new StringTable<number>();
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
    const t = new StringTable<number>();
    for (let i = 0; i < 20_000; i++) t.set(`o${i}`, i);
    for (let i = 0; i < 20_000; i += 2) expect(t.delete(`o${i}`)).toBe(true);
    for (let i = 0; i < 20_000; i++) expect(t.get(`o${i}`)).toBe(i % 2 === 0 ? undefined : i);
    expect(t.size).toBe(10_000);
    for (let i = 1; i < 20_000; i += 2) t.delete(`o${i}`);
    expect(t.size).toBe(0);
  });

  it("hashes are 30-bit integers, equal for equal inputs", () => {
    fc.assert(
      fc.property(fc.string(), fc.uint8Array({ maxLength: 64 }), (str, bytes) => {
        const h = hashString(str);
        expect(h).toBe(hashString(`${str}`));
        expect(Number.isInteger(h) && h >= 0 && h < 2 ** 30).toBe(true);
        const b = hashBytes(bytes);
        expect(b).toBe(hashBytes(Uint8Array.from(bytes)));
        expect(Number.isInteger(b) && b >= 0 && b < 2 ** 30).toBe(true);
      }),
    );
  });
});

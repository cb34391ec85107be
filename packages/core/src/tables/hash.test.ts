import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashBytes, hashString } from "./hash.js";
import { keyIndexHash } from "./key-index.js";

describe("hashString / hashBytes", () => {
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

  it("spread consecutive counters over the low bits (alone and mixed by keyIndexHash)", () => {
    const bytes = new Set<number>();
    const mixed = new Set<number>();
    const strings = new Set<number>();
    for (let n = 0; n < 1024; n++) {
      const h = new Uint8Array(16);
      new DataView(h.buffer).setUint32(0, n);
      bytes.add(hashBytes(h) & 1023);
      mixed.add(keyIndexHash(hashBytes(h), 0x61c88647) & 1023);
      strings.add(hashString(`req-${n}`) & 1023);
    }
    // A random function would hit about 1024 * (1 - 1/e) = 647 of 1024 buckets.
    for (const seen of [bytes, mixed, strings]) expect(seen.size).toBeGreaterThan(550);
  });
});

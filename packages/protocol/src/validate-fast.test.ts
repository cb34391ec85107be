import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { fingerprintsEqual, itemKeyId, keyCacheHash, normalizeFingerprint, tryItemKeyId, validateDescriptor } from "./validate.js";

const FP = { model: "m", dtype: 3, rowBytes: 0, layoutVersion: 1 };
const base = { key: { contentHash: new Uint8Array([1]), fingerprint: FP }, sizeBytes: 8, producerId: "E", epoch: 1 };

describe("validateDescriptor hot-path rewrite keeps its results", () => {
  it("checksum is an own property only when present", () => {
    const plain = validateDescriptor(base, { maxItemBytes: 100 });
    if (!plain.ok) throw plain.error;
    expect("checksum" in plain.value).toBe(false);
    const withCs = validateDescriptor({ ...base, checksum: { algorithm: 1, value: new Uint8Array([0, 0, 0, 1]) } }, { maxItemBytes: 100 });
    if (!withCs.ok) throw withCs.error;
    expect(withCs.value.checksum).toEqual({ algorithm: 1, crc32c: 1 });
  });

  it("[C2] shape: a hole is no dimension (the shape would not encode), negative dims are rejected, too many dims before any is read", () => {
    // biome-ignore lint/suspicious/noSparseArray: the point of the test
    const holey = validateDescriptor({ ...base, dtype: 0, shape: [2, , 4] }, { maxItemBytes: 100 });
    expect(!holey.ok && holey.error.message).toBe("[INVALID_DESCRIPTOR] shape must be a list of integers in [0, 2^53 - 1]");
    expect(validateDescriptor({ ...base, shape: [2, -1] }, { maxItemBytes: 100 }).ok).toBe(false);
    // 2^28 holes: refused by their count at once (reading them took seconds).
    const huge = validateDescriptor({ ...base, dtype: 0, shape: new Array(2 ** 28) }, { maxItemBytes: 100 });
    expect(!huge.ok && huge.error.message).toBe(`[INVALID_DESCRIPTOR] shape has ${2 ** 28} dimensions; at most 64 are allowed`);
  });

  it("[C2] the expected fingerprint is compared exactly as fingerprintsEqual compares it", () => {
    const limitsList: unknown[] = [FP, { ...FP }, { ...FP, model: "n" }, { ...FP, dtype: 4 }, { ...FP, rowBytes: 2 }, { ...FP, layoutVersion: 0 }, null, { model: 5 }, { ...FP, dtype: -1 }, "x"];
    for (const limits of limitsList) {
      const r = validateDescriptor(base, { maxItemBytes: 100, fingerprint: limits as never });
      const expected = limits === null ? false : fingerprintsEqual(FP, limits);
      expect(r.ok, JSON.stringify(limits)).toBe(expected);
      if (!r.ok) expect(r.error.code).toBe("INCOMPATIBLE");
    }
    const noFp = { ...base, key: { contentHash: new Uint8Array([1]) } };
    expect(validateDescriptor(noFp, { maxItemBytes: 100, fingerprint: null }).ok).toBe(true);
    expect(validateDescriptor(noFp, { maxItemBytes: 100, fingerprint: {} }).ok).toBe(true);
  });
});

describe("itemKeyId's key-id cache never returns a stale id", () => {
  /** The key id as the spec defines it, built from scratch. */
  const reference = (hash: Uint8Array, fp: { model: string; dtype: number; rowBytes: number; layoutVersion: number }) =>
    `${Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("")}|${JSON.stringify(fp.model)}|${fp.dtype}|${fp.rowBytes}|${fp.layoutVersion}`;

  it("a hash mutated in place gets the id of its new bytes", () => {
    const hash = new Uint8Array(16).fill(7);
    const key = { contentHash: hash, fingerprint: FP };
    const first = itemKeyId(key);
    hash[3] = 8;
    const second = itemKeyId(key);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.value).toBe(reference(hash, FP));
    expect(second.value).not.toBe(first.value);
    hash[3] = 7;
    expect(itemKeyId(key)).toEqual(first);
  });

  it("the same bytes under another fingerprint get another id", () => {
    const hash = Uint8Array.of(1, 2, 3);
    const a = itemKeyId({ contentHash: hash, fingerprint: FP });
    const b = itemKeyId({ contentHash: hash, fingerprint: { ...FP, layoutVersion: 2 } });
    const c = itemKeyId({ contentHash: hash, fingerprint: FP });
    expect(a.ok && b.ok && c.ok && a.value !== b.value && a.value === c.value).toBe(true);
  });

  it("property: ids equal the reference over colliding, repeated and long keys", () => {
    const fpArb = fc.record({
      model: fc.constantFrom("m", "n", 'q"x'),
      dtype: fc.nat(12),
      rowBytes: fc.constantFrom(0, 4096),
      layoutVersion: fc.nat(3),
    });
    // Short hashes from a tiny alphabet collide in the direct-mapped cache and repeat often.
    const hashArb = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 3, max: 3 }),
      fc.uint8Array({ minLength: 1, maxLength: 64 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(hashArb, fpArb), { minLength: 1, maxLength: 200 }), (keys) => {
        for (let round = 0; round < 2; round++)
          for (const [hash, fp] of keys) {
            const r = itemKeyId({ contentHash: hash, fingerprint: fp });
            if (!r.ok) return false;
            if (r.value !== reference(hash, fp)) return false;
          }
        return true;
      }),
      { numRuns: 200 },
    );
  });

  it("more distinct keys than cache slots still get exact ids", () => {
    for (let n = 0; n < 5000; n++) {
      const hash = new Uint8Array(16);
      new DataView(hash.buffer).setUint32(0, n);
      const r = itemKeyId({ contentHash: hash, fingerprint: FP });
      expect(r.ok && r.value === reference(hash, FP)).toBe(true);
    }
  });

  it("counters laid out in any sampled position spread over the cache sets", () => {
    const layouts: [number, (v: DataView, n: number) => void][] = [
      [16, (v, n) => v.setUint32(0, n)], // big-endian at the start (bench keys)
      [16, (v, n) => v.setUint32(0, n, true)],
      [16, (v, n) => v.setUint32(12, n)],
      [32, (v, n) => v.setUint32(14, n, true)],
      [32, (v, n) => v.setUint32(28, n)],
      [4, (v, n) => v.setUint32(0, n)],
    ];
    for (const [len, write] of layouts) {
      const sets = new Set<number>();
      for (let n = 1; n <= 1024; n++) {
        const hash = new Uint8Array(len);
        write(new DataView(hash.buffer), n);
        sets.add(keyCacheHash(hash, len) & 1023);
      }
      // 1024 keys over 1024 buckets at random would reach about 647 of them.
      expect(sets.size, `${len} bytes`).toBeGreaterThan(550);
    }
  });

  it("keys that differ only in bytes the set index does not sample share a set and still get exact ids", () => {
    for (let round = 0; round < 2; round++)
      for (let v = 0; v < 256; v += 3) {
        const hash = new Uint8Array(16).fill(9);
        hash[4] = v; // bytes 4-5 and 10-11 of a 16-byte hash are not sampled
        hash[11] = 255 - v;
        const r = itemKeyId({ contentHash: hash, fingerprint: FP });
        expect(r.ok && r.value === reference(hash, FP)).toBe(true);
      }
  });

  it("malformed fingerprints give the same errors as normalizeFingerprint", () => {
    for (const fp of ["x", { model: 5 }, { dtype: -1 }, { rowBytes: 1.5 }, { layoutVersion: "1" }]) {
      const r = itemKeyId({ contentHash: Uint8Array.of(1), fingerprint: fp });
      const n = normalizeFingerprint(fp);
      expect(r.ok).toBe(false);
      expect(n.ok).toBe(false);
      if (!r.ok && !n.ok) expect(r.error.message).toBe(n.error.message);
    }
  });
});

describe("tryItemKeyId", () => {
  it("property: equals itemKeyId's id when valid and is undefined exactly when itemKeyId errs", () => {
    const field = <T>(a: fc.Arbitrary<T>) => fc.oneof(a, fc.constantFrom(undefined, null, -1, 1.5, "x", 2 ** 60));
    const fpArb = fc.oneof(
      fc.constantFrom(undefined, null, "x", 5),
      fc.record({ model: field(fc.string()), dtype: field(fc.nat(20)), rowBytes: field(fc.nat()), layoutVersion: field(fc.nat(3)) }),
    );
    const hashArb = fc.oneof(fc.uint8Array({ minLength: 0, maxLength: 70 }), fc.constantFrom(undefined, null, "ab", [1, 2]));
    const keyArb = fc.oneof(fc.constantFrom(undefined, null, 7, "k"), fc.record({ contentHash: hashArb, fingerprint: fpArb }));
    fc.assert(
      fc.property(keyArb, (key) => {
        const r = itemKeyId(key);
        expect(tryItemKeyId(key)).toBe(r.ok ? r.value : undefined);
      }),
      { numRuns: 500 },
    );
  });
});

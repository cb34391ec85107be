import { describe, expect, it } from "vitest";
import { fingerprintsEqual, validateDescriptor } from "./validate.js";

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

  it("shape: holes are skipped as before, negative dims are rejected", () => {
    // biome-ignore lint/suspicious/noSparseArray: the point of the test
    expect(validateDescriptor({ ...base, dtype: 0, shape: [2, , 4] }, { maxItemBytes: 100 }).ok).toBe(true);
    expect(validateDescriptor({ ...base, shape: [2, -1] }, { maxItemBytes: 100 }).ok).toBe(false);
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

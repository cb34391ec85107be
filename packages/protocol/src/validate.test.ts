import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { crc32c } from "./checksum.js";
import { ectp } from "./gen/ectp.js";
import { decodeEnvelope, encodeEnvelope } from "./envelope.js";
import { MAX_SHAPE_DIMS } from "./limits.js";
import { dtypeSize, fingerprintsEqual, itemKeyId, normalizeFingerprint, tryItemKeyId, validateDescriptor } from "./validate.js";
import { SPEC_VERSION } from "./version.js";

const fingerprint = { model: "m@1", dtype: ectp.v1.Dtype.DTYPE_BFLOAT16, rowBytes: 4096, layoutVersion: 1 };
const base = () => ({
  key: { contentHash: new Uint8Array(32).fill(1), fingerprint },
  sizeBytes: 2 * 4 * 8,
  dtype: ectp.v1.Dtype.DTYPE_BFLOAT16,
  shape: [4, 8],
  producerId: "encoder-0",
  epoch: 3,
  location: new Uint8Array([1]),
});
const limits = { maxItemBytes: 1024 };

function message(descriptor: unknown, lim: Parameters<typeof validateDescriptor>[1] = limits): string {
  const r = validateDescriptor(descriptor, lim);
  if (r.ok) throw new Error("expected an invalid descriptor");
  return r.error.message;
}

describe("validateDescriptor [C2]", () => {
  it("accepts a well-formed descriptor and normalises it", () => {
    const r = validateDescriptor(base(), limits);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.sizeBytes).toBe(64);
    expect(r.value.keyId).toBe(`${"01".repeat(32)}|"m@1"|3|4096|1`);
    expect(r.value.checksum).toBeUndefined();
  });

  it("keeps nothing of the caller's descriptor object or its key: only the values read from them (its byte arrays and shape by reference)", () => {
    const d = base();
    const r = validateDescriptor(d, limits);
    if (!r.ok) throw r.error;
    // A consumer holds a validated descriptor per outstanding fetch: holding the engine's object too
    // would keep it (and what it references) alive as long, and let later changes to it show through.
    const held = Object.values(r.value);
    expect(held).not.toContain(d);
    expect(held).not.toContain(d.key);
    expect(held).not.toContain(d.key.fingerprint);
    expect(Object.keys(r.value).sort()).toEqual(["contentHash", "dtype", "epoch", "fingerprint", "keyId", "location", "producerId", "shape", "sizeBytes"]);
    expect({ contentHash: r.value.contentHash === d.key.contentHash, location: r.value.location === d.location }).toEqual({ contentHash: true, location: true });
  });

  it.each([
    ["null", null, "null"],
    ["NaN", Number.NaN, "NaN"],
    ["a string", "64", '"64"'],
    ["negative", -1, "-1"],
    ["zero", 0, "0"],
    ["2^53", 2 ** 53, "9007199254740992"],
    ["a fraction", 1.5, "1.5"],
    ["absent", undefined, "nothing"],
  ])("[C2] rejects sizeBytes %s with an exact message", (_name, sizeBytes, shown) => {
    expect(message({ ...base(), sizeBytes, shape: [] })).toBe(
      `[INVALID_DESCRIPTOR] sizeBytes must be an integer in [1, 1024]; got ${shown}`,
    );
  });

  it("descriptors without a location share one empty location that can be neither changed nor transferred away", () => {
    const bare = { key: { contentHash: Uint8Array.of(1) }, sizeBytes: 4, producerId: "E", epoch: 1 };
    const first = validateDescriptor(bare, { maxItemBytes: 16 });
    if (!first.ok) throw first.error;
    expect(Object.isFrozen(first.value.location)).toBe(true);
    try {
      structuredClone(first.value.location, { transfer: [first.value.location.buffer as ArrayBuffer] }); // Node 20 copies an untransferable buffer
    } catch {
      // (later Node versions refuse to transfer it)
    }
    const later = validateDescriptor(bare, { maxItemBytes: 16 });
    if (!later.ok) throw later.error;
    expect(() => new Uint8Array(later.value.location.buffer)).not.toThrow(); // a detached buffer cannot be viewed
    expect(crc32c(later.value.location)).toBe(0);
  });

  it("[C2] a shape of at most MAX_SHAPE_DIMS dimensions is valid; one more is not, with or without a dtype", () => {
    const ones = (n: number) => Array.from({ length: n }, () => 1);
    expect(validateDescriptor({ ...base(), dtype: 0, shape: ones(MAX_SHAPE_DIMS) }, limits).ok).toBe(true);
    expect(message({ ...base(), dtype: 0, shape: ones(MAX_SHAPE_DIMS + 1) })).toBe(
      `[INVALID_DESCRIPTOR] shape has ${MAX_SHAPE_DIMS + 1} dimensions; at most ${MAX_SHAPE_DIMS} are allowed`,
    );
    expect(validateDescriptor({ ...base(), shape: [...ones(MAX_SHAPE_DIMS), 32] }, limits).ok).toBe(false);
  });

  it("[C2] results of one fingerprint share one frozen normalised fingerprint; a changed one never gets a stale value", () => {
    const a = validateDescriptor(base(), limits);
    const b = validateDescriptor({ ...base(), key: { contentHash: new Uint8Array([9]), fingerprint: { ...fingerprint } } }, limits);
    if (!a.ok || !b.ok) throw new Error("expected valid descriptors");
    expect(a.value.fingerprint).toBe(b.value.fingerprint);
    expect(Object.isFrozen(a.value.fingerprint)).toBe(true);
    const fp = { ...fingerprint };
    const d = { ...base(), key: { contentHash: new Uint8Array([9]), fingerprint: fp } };
    fp.layoutVersion = 2;
    const c = validateDescriptor(d, limits);
    expect(c.ok && c.value.fingerprint).toEqual({ ...fingerprint, layoutVersion: 2 });
    const e = validateDescriptor({ ...base(), shape: undefined, dtype: undefined }, limits);
    expect(e.ok && e.value.shape).toEqual([]);
    expect(e.ok && Object.isFrozen(e.value.shape)).toBe(true);
  });

  it("[C2] rejects a size above maxItemBytes", () => {
    expect(message({ ...base(), sizeBytes: 1025, shape: [] })).toBe(
      "[INVALID_DESCRIPTOR] sizeBytes must be an integer in [1, 1024]; got 1025",
    );
  });

  it("[C2] limits without a maxItemBytes number >= 1 are the caller's mistake: INVALID_ARGUMENT, whatever the descriptor", () => {
    for (const [max, got] of [[Number.NaN, "NaN"], [0, "0"], [-1, "-1"], [undefined, "nothing"], ["64", '"64"'], [null, "null"]] as const) {
      const lim = { maxItemBytes: max } as unknown as Parameters<typeof validateDescriptor>[1];
      expect(message(base(), lim)).toBe(`[INVALID_ARGUMENT] limits.maxItemBytes must be a number of bytes >= 1; got ${got}`);
    }
    expect(message(base(), null as never)).toBe("[INVALID_ARGUMENT] limits.maxItemBytes must be a number of bytes >= 1; got nothing");
    const hostile = Object.defineProperty({}, "maxItemBytes", {
      get() {
        throw new Error("boom");
      },
    });
    expect(message(base(), hostile as never)).toBe("[INVALID_ARGUMENT] limits could not be read");
    // A bound past 2^53 - 1 (or Infinity) bounds nothing more than the safe-integer size check does.
    expect(validateDescriptor({ ...base(), sizeBytes: 2 ** 40, shape: [] }, { maxItemBytes: Number.POSITIVE_INFINITY }).ok).toBe(true);
  });

  it("[C2] rejects a size that differs from dtype x shape", () => {
    expect(message({ ...base(), sizeBytes: 63 })).toBe(
      "[INVALID_DESCRIPTOR] sizeBytes 63 differs from dtype x shape = 64; sizeBytes must equal the element size of dtype times every dimension of shape",
    );
  });

  it("[C2] skips the dtype x shape check for an unspecified or unknown dtype, or an empty shape", () => {
    expect(validateDescriptor({ ...base(), sizeBytes: 63, dtype: 0 }, limits).ok).toBe(true);
    expect(validateDescriptor({ ...base(), sizeBytes: 63, dtype: 999 }, limits).ok).toBe(true);
    expect(validateDescriptor({ ...base(), sizeBytes: 63, shape: [] }, limits).ok).toBe(true);
  });

  it("[C2] rejects a shape that is not a list of integers in [0, 2^53 - 1], naming that range (a dimension of 2^53 is a non-negative integer)", () => {
    for (const shape of [[4, -8], [4, 2 ** 53], [4, 2 ** 60]])
      expect(message({ ...base(), dtype: 0, shape })).toBe("[INVALID_DESCRIPTOR] shape must be a list of integers in [0, 2^53 - 1]");
  });

  it("[C2] rejects a missing key or a content hash outside 1..64 bytes", () => {
    expect(message({ ...base(), key: undefined })).toBe(
      "[INVALID_DESCRIPTOR] item key is missing; every descriptor needs key.contentHash",
    );
    for (const [contentHash, got] of [
      [new Uint8Array(0), "0 bytes"],
      [new Uint8Array(65), "65 bytes"],
      [undefined, "nothing"],
    ] as const)
      expect(message({ ...base(), key: { contentHash, fingerprint } })).toBe(`[INVALID_DESCRIPTOR] key.contentHash must be 1 to 64 bytes; got ${got}`);
    // A string is base64 from parsed JSON, most likely: the message says where proto3 JSON is read.
    expect(message({ ...base(), key: { contentHash: "q83v", fingerprint } })).toBe(
      '[INVALID_DESCRIPTOR] key.contentHash must be 1 to 64 bytes; got "q83v" (proto3 JSON? read an announcement with announcementFromJson first)',
    );
  });

  it("accepts a Uint8Array of another realm (node:vm) as hash, location and checksum value, as encodeEnvelope does (it was \"got a Uint8Array\")", () => {
    const foreign = (code: string) => runInNewContext(code) as Uint8Array;
    const hash = foreign("new Uint8Array(32).fill(1)");
    expect(hash instanceof Uint8Array).toBe(false);
    const key = { contentHash: hash, fingerprint };
    expect(itemKeyId(key)).toEqual({ ok: true, value: `${"01".repeat(32)}|"m@1"|3|4096|1` });
    expect(tryItemKeyId(key)).toBe(`${"01".repeat(32)}|"m@1"|3|4096|1`);
    const checksum = { algorithm: 1, value: foreign("Uint8Array.of(0xe3, 0x06, 0x92, 0x83)") };
    const r = validateDescriptor({ ...base(), key, location: foreign("new Uint8Array([7])"), checksum }, limits);
    expect(r.ok && [r.value.keyId, [...r.value.location], r.value.checksum]).toEqual([`${"01".repeat(32)}|"m@1"|3|4096|1`, [7], { algorithm: 1, crc32c: 0xe3069283 }]);
    // Another realm's other typed arrays are still no bytes.
    expect(message({ ...base(), key: { contentHash: foreign("new Int8Array(32)"), fingerprint } })).toBe(
      "[INVALID_DESCRIPTOR] key.contentHash must be 1 to 64 bytes; got an Int8Array",
    );
  });

  it("[C11] rejects a CRC32C checksum that is not 4 bytes", () => {
    const checksum = { algorithm: ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C, value: new Uint8Array(3) };
    expect(message({ ...base(), checksum })).toBe("[INVALID_DESCRIPTOR] a CRC32C checksum value must be exactly 4 bytes; got 3 bytes");
  });

  it("[C11] reads a 4-byte big-endian CRC32C", () => {
    const checksum = { algorithm: 1, value: Uint8Array.of(0xe3, 0x06, 0x92, 0x83) };
    const r = validateDescriptor({ ...base(), checksum }, limits);
    expect(r.ok && r.value.checksum).toEqual({ algorithm: 1, crc32c: 0xe3069283 });
  });

  it("[C2] rejects an unknown checksum algorithm rather than load unverifiable bytes", () => {
    expect(message({ ...base(), checksum: { algorithm: 7, value: new Uint8Array(4) } })).toBe(
      "[INVALID_DESCRIPTOR] checksum algorithm 7 is not supported; unverifiable bytes are never loaded",
    );
  });

  it("[C2] a checksum algorithm that is no enum value (a name, a decimal string) is refused as such, not as an unsupported algorithm", () => {
    for (const [algorithm, shown] of [["CHECKSUM_ALGORITHM_CRC32C", '"CHECKSUM_ALGORITHM_CRC32C"'], ["1", '"1"'], [1.5, "1.5"], [-1, "-1"], [true, "true"]] as const)
      expect(message({ ...base(), checksum: { algorithm, value: new Uint8Array(4) } })).toBe(
        `[INVALID_DESCRIPTOR] checksum.algorithm must be a ChecksumAlgorithm enum value (an integer in [0, 2^31), e.g. ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C = 1); got ${shown}`,
      );
  });

  it("treats an UNSPECIFIED checksum as absent", () => {
    const r = validateDescriptor({ ...base(), checksum: { algorithm: 0 } }, limits);
    expect(r.ok && r.value.checksum).toBeUndefined();
  });

  it("[C2] reports a fingerprint mismatch as INCOMPATIBLE", () => {
    const r = validateDescriptor(base(), { ...limits, fingerprint: { ...fingerprint, layoutVersion: 2 } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("INCOMPATIBLE");
    expect(r.error.message).toBe("[INCOMPATIBLE] item fingerprint differs from the expected fingerprint");
    expect(validateDescriptor(base(), { ...limits, fingerprint }).ok).toBe(true);
  });

  it("rejects a missing producer id or a non-positive epoch", () => {
    expect(message({ ...base(), producerId: "" })).toBe('[INVALID_DESCRIPTOR] producerId must be a non-empty string; got ""');
    expect(message({ ...base(), epoch: 0 })).toBe("[INVALID_DESCRIPTOR] epoch must be an integer in [1, 2^53 - 1]; got 0");
  });

  it("rejects non-objects", () => {
    for (const d of [undefined, null]) expect(message(d)).toBe("[INVALID_DESCRIPTOR] descriptor is missing; pass an ectp.v1.IItemDescriptor");
    for (const [d, shown] of [[5, "5"], ["descriptor", '"descriptor"']] as const)
      expect(message(d)).toBe(`[INVALID_DESCRIPTOR] descriptor must be an object (ectp.v1.IItemDescriptor); got ${shown}`);
  });

  it("never throws on hostile objects (throwing getters, proxies)", () => {
    const hostile = {
      ...base(),
      get sizeBytes(): number {
        throw new Error("boom");
      },
    };
    const r = validateDescriptor(hostile, limits);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toBe("[INVALID_DESCRIPTOR] descriptor could not be read");
    expect((r.error.cause as Error).message).toBe("boom");
    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error("trap");
        },
      },
    );
    expect(validateDescriptor(proxy, limits).ok).toBe(false);
    expect(validateDescriptor({ ...base(), key: proxy }, limits).ok).toBe(false);
  });
});

describe("keys and fingerprints", () => {
  it("itemKeyId separates keys whose fingerprints differ in any field", () => {
    const id = (fp: unknown) => {
      const r = itemKeyId({ contentHash: Uint8Array.of(1), fingerprint: fp });
      if (!r.ok) throw r.error;
      return r.value;
    };
    const ids = new Set([
      id(fingerprint),
      id({ ...fingerprint, model: "m@2" }),
      id({ ...fingerprint, dtype: 1 }),
      id({ ...fingerprint, rowBytes: 1 }),
      id({ ...fingerprint, layoutVersion: 2 }),
      id(undefined),
    ]);
    expect(ids.size).toBe(6);
    expect(id(undefined)).toBe(id({}));
  });

  it("normalizeFingerprint fills defaults and rejects malformed fields", () => {
    expect(normalizeFingerprint(undefined)).toEqual({ ok: true, value: { model: "", dtype: 0, rowBytes: 0, layoutVersion: 0 } });
    const r = normalizeFingerprint({ model: 5 });
    expect(r.ok || r.error.message).toBe("[INVALID_DESCRIPTOR] fingerprint.model must be a string; got 5");
  });

  it("fingerprintsEqual compares field by field, absent equals all-default", () => {
    expect(fingerprintsEqual(fingerprint, { ...fingerprint })).toBe(true);
    expect(fingerprintsEqual(undefined, { model: "", dtype: 0 })).toBe(true);
    expect(fingerprintsEqual(fingerprint, { ...fingerprint, rowBytes: 1 })).toBe(false);
    expect(fingerprintsEqual({ model: 1 }, { model: 1 })).toBe(false);
  });

  it("[C2] fingerprint and dtype values the wire cannot carry are rejected: a key id must survive encoding", () => {
    const keyWith = (fp: Record<string, unknown>) => ({ contentHash: new Uint8Array([1, 2, 3]), fingerprint: { ...fingerprint, ...fp } });
    expect(itemKeyId(keyWith({ rowBytes: 2 ** 32 + 4096 })).ok).toBe(false); // uint32 on the wire: would arrive as 4096
    expect(itemKeyId(keyWith({ layoutVersion: 2 ** 32 })).ok).toBe(false);
    expect(itemKeyId(keyWith({ dtype: 2 ** 31 })).ok).toBe(false); // int32 enum: would arrive as -2^31
    expect(tryItemKeyId(keyWith({ rowBytes: 2 ** 32 }))).toBeUndefined();
    expect(fingerprintsEqual({ ...fingerprint, rowBytes: 2 ** 32 + 4096 }, { ...fingerprint, rowBytes: 4096 })).toBe(false);
    const r = normalizeFingerprint({ rowBytes: 2 ** 32 });
    expect(r.ok || r.error.message).toBe("[INVALID_DESCRIPTOR] fingerprint.rowBytes must be a uint32 (an integer in [0, 2^32)); got 4294967296");
    expect(message({ ...base(), dtype: 2 ** 31 })).toContain("dtype must be a Dtype enum value");
    // The largest values the wire carries are accepted, and the key id is the same after a round trip.
    const key = keyWith({ dtype: 2 ** 31 - 1, rowBytes: 2 ** 32 - 1, layoutVersion: 2 ** 32 - 1 });
    const id = itemKeyId(key);
    const sent = decodeEnvelope(
      encodeEnvelope({ version: SPEC_VERSION, senderId: "c", senderEpoch: 1, readRequest: { attemptId: 1, key } }),
    );
    expect(sent.ok && itemKeyId(sent.value.readRequest?.key)).toEqual(id);
    expect(id.ok).toBe(true);
  });

  it("[I1] key and fingerprint helpers never throw on hostile objects (throwing getters, proxies)", () => {
    const throwing = new Proxy(
      {},
      {
        get() {
          throw new RangeError("trap");
        },
      },
    );
    const key = Object.defineProperty({}, "contentHash", {
      get() {
        throw new TypeError("boom");
      },
    });
    const r = itemKeyId(key);
    expect(r.ok || r.error.code).toBe("INVALID_DESCRIPTOR");
    expect(tryItemKeyId(key)).toBeUndefined();
    expect(itemKeyId({ contentHash: new Uint8Array([1]), fingerprint: throwing }).ok).toBe(false);
    expect(normalizeFingerprint(throwing).ok).toBe(false);
    expect(fingerprintsEqual(throwing, {})).toBe(false);
    expect(fingerprintsEqual({}, throwing)).toBe(false);
  });

  it("dtypeSize knows every named dtype and nothing else", () => {
    for (const [name, value] of Object.entries(ectp.v1.Dtype) as [string, number][]) {
      if (name === "DTYPE_UNSPECIFIED") expect(dtypeSize(value)).toBeUndefined();
      else expect(dtypeSize(value), name).toBeGreaterThan(0);
    }
    expect(dtypeSize(999)).toBeUndefined();
    // Untyped callers: array properties are no dtypes.
    for (const other of ["length", "1"]) expect(dtypeSize(other as unknown as number), other).toBeUndefined();
    expect(dtypeSize(-1)).toBeUndefined();
    expect(dtypeSize(1.5)).toBeUndefined();
    const D = ectp.v1.Dtype;
    const sizes: Record<string, number> = {
      DTYPE_FLOAT32: 4,
      DTYPE_FLOAT16: 2,
      DTYPE_BFLOAT16: 2,
      DTYPE_FLOAT8_E4M3: 1,
      DTYPE_FLOAT8_E5M2: 1,
      DTYPE_INT8: 1,
      DTYPE_UINT8: 1,
      DTYPE_INT32: 4,
      DTYPE_FLOAT64: 8,
    };
    for (const [name, size] of Object.entries(sizes)) expect(dtypeSize(D[name as keyof typeof D] as number), name).toBe(size);
    expect(dtypeSize(ectp.v1.Dtype.DTYPE_FLOAT64)).toBe(8);
    expect(dtypeSize(ectp.v1.Dtype.DTYPE_UINT8)).toBe(1);
  });
});

import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { EctpError } from "./errors.js";
import { FrameDecoder, encodeFrame } from "./framing.js";
import { fingerprintsEqual, itemKeyId, keyCacheChars, keyCacheHash, normalizeFingerprint, tryItemKeyId, validateDescriptor } from "./validate.js";

type Fp = { model: string; dtype: number; rowBytes: number; layoutVersion: number };
const FULL: Fp = { model: "m@1", dtype: 3, rowBytes: 4096, layoutVersion: 1 };
const DEFAULT: Fp = { model: "", dtype: 0, rowBytes: 0, layoutVersion: 0 };

/** The key id as SPEC.md section 3.1 defines its parts, built from scratch. */
const reference = (hash: Uint8Array, fp: Fp) =>
  `${Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("")}|${JSON.stringify(fp.model)}|${fp.dtype}|${fp.rowBytes}|${fp.layoutVersion}`;

const base = () => ({
  key: { contentHash: new Uint8Array([1, 2, 3]), fingerprint: FULL },
  sizeBytes: 64,
  dtype: 2, // FLOAT16
  shape: [4, 8],
  producerId: "encoder-0",
  epoch: 3,
});
const limits = { maxItemBytes: 1024 };

function error(descriptor: unknown, lim: Parameters<typeof validateDescriptor>[1] = limits): EctpError {
  const r = validateDescriptor(descriptor, lim);
  if (r.ok) throw new Error("expected an invalid descriptor");
  return r.error;
}

function thrown(fn: () => unknown): EctpError {
  try {
    fn();
  } catch (e) {
    if (EctpError.is(e)) return e;
    throw e;
  }
  throw new Error("expected a throw");
}

describe("key ids and fingerprints [C2]", () => {
  it("[C2] each fingerprint field changing to and from its default changes the key id in every helper (no stale cached suffix)", () => {
    const hash = new Uint8Array([0xab, 0x01]);
    const sequence: Fp[] = [
      FULL,
      { ...FULL, rowBytes: 0 },
      FULL,
      { ...FULL, layoutVersion: 0 },
      FULL,
      { ...FULL, dtype: 0 },
      FULL,
      { ...FULL, model: "" },
      FULL,
      DEFAULT,
      { ...DEFAULT, rowBytes: 7 },
      DEFAULT,
      { ...DEFAULT, layoutVersion: 7 },
      DEFAULT,
      { ...DEFAULT, dtype: 7 },
      DEFAULT,
      { ...DEFAULT, model: "x" },
      DEFAULT,
    ];
    for (const fp of sequence) {
      const want = reference(hash, fp);
      const key = { contentHash: hash, fingerprint: fp };
      expect(itemKeyId(key), JSON.stringify(fp)).toEqual({ ok: true, value: want });
      expect(tryItemKeyId(key), JSON.stringify(fp)).toBe(want);
      const r = validateDescriptor({ ...base(), key, shape: [] }, limits);
      expect(r.ok && r.value.keyId, JSON.stringify(fp)).toBe(want);
      expect(r.ok && r.value.fingerprint, JSON.stringify(fp)).toEqual(fp);
    }
  });

  it("[C2] consecutive descriptors differing only in the fingerprint's model (or dtype, or rowBytes) get their own normalised fingerprint", () => {
    for (const other of [{ ...FULL, model: "m@2" }, { ...FULL, dtype: 4 }, { ...FULL, rowBytes: 8 }]) {
      const a = validateDescriptor({ ...base(), key: { contentHash: new Uint8Array([1]), fingerprint: FULL }, shape: [] }, limits);
      const b = validateDescriptor({ ...base(), key: { contentHash: new Uint8Array([1]), fingerprint: other }, shape: [] }, limits);
      expect(a.ok && a.value.fingerprint).toEqual(FULL);
      expect(b.ok && b.value.fingerprint).toEqual(other);
    }
  });

  it("[I4] keys with a long fingerprint model get their ids, and the process-wide key-id cache keeps none of them", () => {
    const fp = { model: "m".repeat(100_000), dtype: 1 };
    const before = keyCacheChars();
    for (let i = 0; i < 100; i++) {
      const hash = Uint8Array.of(i, 1, 2, 3, 4, 5, 6, 7);
      expect(tryItemKeyId({ contentHash: hash, fingerprint: fp })).toBe(reference(hash, { model: fp.model, dtype: 1, rowBytes: 0, layoutVersion: 0 }));
    }
    // Each lookup may replace one slot's short strings; cached, the ids alone were 10 million characters.
    expect(keyCacheChars() - before).toBeLessThan(100 * 400);
  });

  it("[C2] a content hash whose cache tag equals a longer cached hash's (its one-byte extension) still gets its own id", () => {
    // FNV-1a of these five bytes is 0, and appending a zero byte keeps it 0: both hashes share a cache tag.
    const short = Uint8Array.of(140, 81, 0, 148, 122);
    const long = Uint8Array.of(140, 81, 0, 148, 122, 0);
    expect(keyCacheHash(short, short.length)).toBe(keyCacheHash(long, long.length));
    expect(itemKeyId({ contentHash: long })).toEqual({ ok: true, value: reference(long, DEFAULT) });
    expect(itemKeyId({ contentHash: short })).toEqual({ ok: true, value: reference(short, DEFAULT) });
    expect(tryItemKeyId({ contentHash: long })).toBe(reference(long, DEFAULT));
    expect(tryItemKeyId({ contentHash: short })).toBe(reference(short, DEFAULT));
  });

  it("[C2] keys that differ only in an unsampled byte, the other bytes zero, get their own ids (a cache hit compares every byte of the key)", () => {
    // Bytes 4-13 and 18-27 of a 32-byte hash are not sampled by the cache hash: both keys share a set and a tag.
    const a = new Uint8Array(32);
    a[5] = 7;
    const b = new Uint8Array(32);
    expect(keyCacheHash(a, 32)).toBe(keyCacheHash(b, 32));
    expect(itemKeyId({ contentHash: a })).toEqual({ ok: true, value: reference(a, DEFAULT) });
    expect(itemKeyId({ contentHash: b })).toEqual({ ok: true, value: reference(b, DEFAULT) });
    expect(tryItemKeyId({ contentHash: a })).toBe(reference(a, DEFAULT));
    expect(tryItemKeyId({ contentHash: b })).toBe(reference(b, DEFAULT));
  });

  it("[C2] keys whose unsampled bytes hold the same value at another place in a word get their own ids (a cache hit compares each byte at its place)", () => {
    // Bytes 4-7 of a 32-byte hash (one 32-bit word of the cache's copy) are not sampled by the cache hash: these keys share a set and a tag.
    for (const v of [1, 0x80, 0xff])
      for (let p = 4; p < 8; p++)
        for (let q = 4; q < 8; q++) {
          if (p === q) continue;
          const a = new Uint8Array(32);
          a[p] = v;
          const b = new Uint8Array(32);
          b[q] = v;
          expect(keyCacheHash(a, 32)).toBe(keyCacheHash(b, 32));
          for (const key of [a, b, a]) expect(tryItemKeyId({ contentHash: key }), `${v} at ${p} or ${q}`).toBe(reference(key, DEFAULT));
        }
  });

  it("[C2] hashes longer than the cache's 32-byte copies leave the cached keys' ids alone", () => {
    // 32-byte keys that differ only in bytes 4-7 (not sampled by the cache hash) share a set and a tag: eight fill the set.
    const short = (x: number) => {
      const h = new Uint8Array(32).fill(0x5a);
      new DataView(h.buffer).setUint32(4, x);
      return h;
    };
    const low = keyCacheHash(short(0), 32) & 0xffff;
    // A 40-byte key whose cache hash picks the same set, and whose bytes 32-39 are those of short(z): were its bytes
    // copied into a 32-byte slot, they would run into the next slot, making its key read as short(z).
    const long = (z: number) => {
      for (let s = 0; ; s++) {
        const h = new Uint8Array(40).fill(0x5a);
        new DataView(h.buffer).setUint32(0, s);
        new DataView(h.buffer).setUint32(36, z);
        if ((keyCacheHash(h, 40) & 0xffff) === low) return h;
      }
    };
    for (let x = 1; x <= 8; x++) expect(tryItemKeyId({ contentHash: short(x) })).toBe(reference(short(x), DEFAULT));
    // Twice: one of the two long keys lands in a slot followed by one of the set's.
    for (const z of [100, 101]) {
      const l = long(z);
      expect(tryItemKeyId({ contentHash: l })).toBe(reference(l, DEFAULT));
      expect(tryItemKeyId({ contentHash: short(z) }), `short(${z})`).toBe(reference(short(z), DEFAULT));
    }
  });

  it("[C2] a null fingerprint is an absent one (the all-default fingerprint); a fingerprint that is not an object is malformed", () => {
    const hash = new Uint8Array([5]);
    const want = reference(hash, DEFAULT);
    expect(itemKeyId({ contentHash: hash, fingerprint: null })).toEqual({ ok: true, value: want });
    expect(tryItemKeyId({ contentHash: hash, fingerprint: null })).toBe(want);
    expect(normalizeFingerprint(null)).toEqual({ ok: true, value: DEFAULT });
    const r = validateDescriptor({ ...base(), key: { contentHash: hash, fingerprint: null }, shape: [] }, limits);
    expect(r.ok && r.value.keyId).toBe(want);
    for (const [fp, shown] of [[5, "5"], ["m@1", '"m@1"'], [true, "true"]] as const) {
      const id = itemKeyId({ contentHash: hash, fingerprint: fp });
      expect(!id.ok && id.error.message, String(fp)).toBe(`[INVALID_DESCRIPTOR] fingerprint must be an object (ectp.v1.IFingerprint: model, dtype, rowBytes, layoutVersion); got ${shown}`);
      expect(tryItemKeyId({ contentHash: hash, fingerprint: fp }), String(fp)).toBeUndefined();
      expect(normalizeFingerprint(fp).ok, String(fp)).toBe(false);
      expect(error({ ...base(), key: { contentHash: hash, fingerprint: fp } }).message).toBe(`[INVALID_DESCRIPTOR] fingerprint must be an object (ectp.v1.IFingerprint: model, dtype, rowBytes, layoutVersion); got ${shown}`);
    }
  });

  it("[C2] fingerprint dtype, rowBytes and layoutVersion must be non-negative integers, in every helper, with exact messages", () => {
    const cases: [Partial<Fp> | Record<string, unknown>, string][] = [
      [{ dtype: 1.5 }, "fingerprint.dtype must be a Dtype enum value (an integer in [0, 2^31)); got 1.5"],
      [{ dtype: -1 }, "fingerprint.dtype must be a Dtype enum value (an integer in [0, 2^31)); got -1"],
      [{ dtype: "1" }, 'fingerprint.dtype must be a Dtype enum value (an integer in [0, 2^31)); got "1"'],
      [{ rowBytes: -1 }, "fingerprint.rowBytes must be a uint32 (an integer in [0, 2^32)); got -1"],
      [{ rowBytes: 0.5 }, "fingerprint.rowBytes must be a uint32 (an integer in [0, 2^32)); got 0.5"],
      [{ layoutVersion: -2 }, "fingerprint.layoutVersion must be a uint32 (an integer in [0, 2^32)); got -2"],
      [{ layoutVersion: 1.25 }, "fingerprint.layoutVersion must be a uint32 (an integer in [0, 2^32)); got 1.25"],
    ];
    for (const [bad, message] of cases) {
      const fp = { ...FULL, ...bad };
      const key = { contentHash: new Uint8Array([1]), fingerprint: fp };
      const id = itemKeyId(key);
      expect(!id.ok && id.error.message, message).toBe(`[INVALID_DESCRIPTOR] ${message}`);
      expect(tryItemKeyId(key), message).toBeUndefined();
      const n = normalizeFingerprint(fp);
      expect(!n.ok && n.error.message, message).toBe(`[INVALID_DESCRIPTOR] ${message}`);
      expect(fingerprintsEqual(fp, fp), message).toBe(false);
      expect(error({ ...base(), key }).message, message).toBe(`[INVALID_DESCRIPTOR] ${message}`);
    }
  });

  it("[C2] fingerprintsEqual compares the dtype too", () => {
    expect(fingerprintsEqual(FULL, { ...FULL, dtype: 4 })).toBe(false);
    expect(fingerprintsEqual(FULL, { ...FULL, model: "m@2" })).toBe(false);
    expect(fingerprintsEqual(FULL, { ...FULL, layoutVersion: 2 })).toBe(false);
    expect(fingerprintsEqual(FULL, { ...FULL })).toBe(true);
  });

  it("[I1] itemKeyId reports a key whose fields cannot be read with an exact message", () => {
    const key = Object.defineProperty({}, "contentHash", {
      get() {
        throw new TypeError("boom");
      },
    });
    const r = itemKeyId(key);
    expect(!r.ok && r.error.message).toBe("[INVALID_DESCRIPTOR] item key could not be read");
    expect(!r.ok && (r.error.cause as Error).message).toBe("boom");
  });

  it("[C2] tryItemKeyId refuses a key given as an array or as bytes (holding a contentHash property), as itemKeyId does", () => {
    const contentHash = new Uint8Array([1, 2, 3]);
    for (const key of [Object.assign([], { contentHash }), Object.assign(new Uint8Array(4), { contentHash }), Object.assign(new DataView(new ArrayBuffer(4)), { contentHash })]) {
      expect(itemKeyId(key).ok).toBe(false);
      expect(tryItemKeyId(key)).toBeUndefined();
    }
    // The object form still has its id in both.
    expect(tryItemKeyId({ contentHash })).toBe((itemKeyId({ contentHash }) as { value: string }).value);
  });
});

describe("validateDescriptor [C2]", () => {
  it("[C2] a null limits.fingerprint is the all-default fingerprint: a key differing from it in any one field is INCOMPATIBLE", () => {
    for (const fp of [{ layoutVersion: 1 }, { rowBytes: 1 }, { dtype: 1 }, { model: "m" }]) {
      const d = { ...base(), key: { contentHash: new Uint8Array([1]), fingerprint: fp }, shape: [] };
      expect(error(d, { ...limits, fingerprint: null }).code, JSON.stringify(fp)).toBe("INCOMPATIBLE");
    }
    const plain = { ...base(), key: { contentHash: new Uint8Array([1]) }, shape: [] };
    expect(validateDescriptor(plain, { ...limits, fingerprint: null }).ok).toBe(true);
    for (const expected of ["m@1", 5, true]) expect(error(base(), { ...limits, fingerprint: expected as never }).code).toBe("INCOMPATIBLE");
  });

  it("[C2] an INCOMPATIBLE result names the fingerprint it got and the expected one, or undefined when that is malformed", () => {
    const other = { ...FULL, layoutVersion: 9 };
    expect(error(base(), { ...limits, fingerprint: other }).details).toEqual({ got: FULL, expected: other });
    const malformed = { ...FULL, rowBytes: -1 };
    expect(error(base(), { ...limits, fingerprint: malformed }).details).toEqual({ got: FULL, expected: undefined });
  });

  it("[C2] sizeBytes is at most 2^53 - 1 even when maxItemBytes bounds nothing, and the message names that bound", () => {
    const unbounded = { maxItemBytes: Number.POSITIVE_INFINITY };
    const r = validateDescriptor({ ...base(), sizeBytes: 2 ** 53 - 1, shape: [] }, unbounded);
    expect(r.ok && r.value.sizeBytes).toBe(2 ** 53 - 1);
    for (const [sizeBytes, shown] of [[2 ** 53, "9007199254740992"], [2 ** 53 + 2, "9007199254740994"]] as const)
      expect(error({ ...base(), sizeBytes, shape: [] }, unbounded).message).toBe(
        `[INVALID_DESCRIPTOR] sizeBytes must be an integer in [1, 9007199254740991]; got ${shown}`,
      );
  });

  it("[C2] a descriptor without a dtype is UNSPECIFIED: its dtype x shape check is skipped", () => {
    const d = { ...base(), dtype: undefined, sizeBytes: 63, shape: [4, 8] };
    const r = validateDescriptor(d, limits);
    expect(r.ok && r.value.dtype).toBe(0);
    expect(validateDescriptor({ ...d, dtype: null }, limits).ok).toBe(true);
  });

  it("[C2] the descriptor's dtype must be a non-negative integer enum value", () => {
    for (const [dtype, shown] of [[1.5, "1.5"], [-1, "-1"], ["2", '"2"'], [true, "true"]] as const)
      expect(error({ ...base(), dtype }).message).toBe(
        `[INVALID_DESCRIPTOR] dtype must be a Dtype enum value (an integer in [0, 2^31)); got ${shown}`,
      );
  });

  it("[C2] epoch is an integer in [1, 2^53 - 1], with an exact message naming that range (2^53 is a positive integer)", () => {
    expect(validateDescriptor({ ...base(), epoch: 2 ** 53 - 1 }, limits).ok).toBe(true);
    for (const [epoch, shown] of [[2 ** 53, "9007199254740992"], [1.5, "1.5"], [-3, "-3"], ["3", '"3"'], [null, "null"], [undefined, "nothing"]] as const)
      expect(error({ ...base(), epoch }).message).toBe(`[INVALID_DESCRIPTOR] epoch must be an integer in [1, 2^53 - 1]; got ${shown}`);
  });

  it("[C2] producerId must be a string; location, when present, must be bytes", () => {
    for (const [producerId, shown] of [[5, "5"], [undefined, "nothing"], [null, "null"], [["p"], "an array"]])
      expect(error({ ...base(), producerId }).message).toBe(`[INVALID_DESCRIPTOR] producerId must be a non-empty string; got ${shown}`);
    for (const [location, shown] of [["abc", '"abc"'], [[1, 2], "an array"], [{}, "an object"], [7, "7"]])
      expect(error({ ...base(), location }).message).toBe(`[INVALID_DESCRIPTOR] location must be bytes (a Uint8Array) or absent; got ${shown}`);
    for (const location of [undefined, null]) {
      const r = validateDescriptor({ ...base(), location }, limits);
      expect(r.ok && r.value.location).toEqual(new Uint8Array(0));
    }
  });

  it("[C2] a checksum must be an object; a negative or unknown algorithm is refused, never read as UNSPECIFIED", () => {
    for (const [checksum, shown] of [[5, "5"], ["crc32c", '"crc32c"'], [true, "true"]] as const)
      expect(error({ ...base(), checksum }).message).toBe(`[INVALID_DESCRIPTOR] checksum must be an object (ectp.v1.IChecksum: algorithm and value); got ${shown}`);
    expect(error({ ...base(), checksum: { algorithm: 2, value: new Uint8Array(4) } }).message).toBe(
      "[INVALID_DESCRIPTOR] checksum algorithm 2 is not supported; unverifiable bytes are never loaded",
    );
    for (const [algorithm, shown] of [[-1, "-1"], [1.5, "1.5"]] as const)
      expect(error({ ...base(), checksum: { algorithm, value: new Uint8Array(4) } }).message).toMatch(new RegExp(`checksum\\.algorithm must be a ChecksumAlgorithm enum value .*; got ${shown}$`));
    const r = validateDescriptor({ ...base(), checksum: { value: new Uint8Array(4) } }, limits);
    expect(r.ok && "checksum" in r.value).toBe(false);
  });

  it("[C2][C11] a checksum given as its bytes, or as an array, is refused: it read as no checksum, and the item was loaded unverified", () => {
    const crc = new Uint8Array([0xde, 0xad, 0xbe, 0xef]); // what crc32cBytes returns
    expect(error({ ...base(), checksum: crc }).message).toBe(
      "[INVALID_DESCRIPTOR] checksum must be an object (ectp.v1.IChecksum: algorithm and value); got a Uint8Array; " +
        "write { algorithm: ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C, value: crc32cBytes(data) }",
    );
    expect(error({ ...base(), checksum: new DataView(crc.buffer) }).message).toContain("checksum must be an object (ectp.v1.IChecksum: algorithm and value); got a DataView;");
    expect(error({ ...base(), checksum: crc.buffer }).message).toContain("checksum must be an object (ectp.v1.IChecksum: algorithm and value); got an ArrayBuffer");
    expect(error({ ...base(), checksum: [0xde, 0xad, 0xbe, 0xef] }).message).toBe(
      "[INVALID_DESCRIPTOR] checksum must be an object (ectp.v1.IChecksum: algorithm and value); got an array",
    );
    // The object form is what is accepted.
    const r = validateDescriptor({ ...base(), checksum: { algorithm: 1, value: crc } }, limits);
    expect(r.ok && r.value.checksum).toEqual({ algorithm: 1, crc32c: 0xdeadbeef });
  });

  it("[C2][C11] a checksum given as another realm's buffer (node:vm) is refused as this realm's is: it read as no checksum", () => {
    for (const [code, shown] of [["new ArrayBuffer(4)", "an ArrayBuffer"], ["new SharedArrayBuffer(4)", "a SharedArrayBuffer"]] as const) {
      const foreign = runInNewContext(code);
      expect(foreign instanceof ArrayBuffer || foreign instanceof SharedArrayBuffer).toBe(false); // what made it pass as a message
      expect(error({ ...base(), checksum: foreign }).message).toBe(
        `[INVALID_DESCRIPTOR] checksum must be an object (ectp.v1.IChecksum: algorithm and value); got ${shown}`,
      );
    }
    // Another realm's object of fields is a checksum like any other.
    const r = validateDescriptor({ ...base(), checksum: runInNewContext("({ algorithm: 1, value: new Uint8Array([0xde, 0xad, 0xbe, 0xef]) })") }, limits);
    expect(r.ok && r.value.checksum).toEqual({ algorithm: 1, crc32c: 0xdeadbeef });
    expect(validateDescriptor({ ...base(), checksum: runInNewContext("({})") }, limits).ok).toBe(true); // UNSPECIFIED: none
  });

  it("[C2] a fingerprint, key or descriptor given as an array or bytes is refused by every helper (it read as the all-default fingerprint, another item's key)", () => {
    const hash = new Uint8Array([1, 2, 3]);
    for (const [fp, shown] of [[["m@1", 3, 4096, 1], "an array"], [new Uint8Array(4), "a Uint8Array"], [new Float32Array(1), "a Float32Array"]] as const) {
      const want = `[INVALID_DESCRIPTOR] fingerprint must be an object (ectp.v1.IFingerprint: model, dtype, rowBytes, layoutVersion); got ${shown}`;
      const id = itemKeyId({ contentHash: hash, fingerprint: fp });
      expect(!id.ok && id.error.message).toBe(want);
      expect(tryItemKeyId({ contentHash: hash, fingerprint: fp })).toBeUndefined();
      const normalized = normalizeFingerprint(fp);
      expect(!normalized.ok && normalized.error.message).toBe(want);
      expect(fingerprintsEqual(fp, undefined)).toBe(false);
      expect(error({ ...base(), key: { contentHash: hash, fingerprint: fp } }).message).toBe(want);
      // As the expected fingerprint of limits: no descriptor matches it.
      const d = { ...base(), key: { contentHash: hash } };
      expect(error(d, { ...limits, fingerprint: fp as never }).code).toBe("INCOMPATIBLE");
    }
    const keyMessage = "[INVALID_DESCRIPTOR] key must be an object (ectp.v1.IItemKey: contentHash and fingerprint); got a Uint8Array";
    const id = itemKeyId(hash);
    expect(!id.ok && id.error.message).toBe(keyMessage);
    expect(error({ ...base(), key: hash }).message).toBe(keyMessage);
    expect(error({ ...base(), key: Object.assign([], { contentHash: hash }) }).message).toContain("key must be an object (ectp.v1.IItemKey: contentHash and fingerprint); got an array");
    expect(error(Object.assign([], base())).message).toBe("[INVALID_DESCRIPTOR] descriptor must be an object (ectp.v1.IItemDescriptor); got an array");
  });

  it("[C2] a descriptor judged valid can always be sent: a producerId or fingerprint model with a lone surrogate is refused, as the encoders refuse it", () => {
    expect(error({ ...base(), producerId: "enc\ud800" }).message).toBe(
      '[INVALID_DESCRIPTOR] producerId must be well-formed UTF-16 (no lone surrogate, which UTF-8 cannot carry); got "enc\\ud800"',
    );
    const want = '[INVALID_DESCRIPTOR] fingerprint.model must be well-formed UTF-16 (no lone surrogate, which UTF-8 cannot carry); got "m\\udc00"';
    const key = { contentHash: new Uint8Array([9, 9, 9]), fingerprint: { ...FULL, model: "m\udc00" } };
    expect(error({ ...base(), key }).message).toBe(want);
    const id = itemKeyId(key);
    expect(!id.ok && id.error.message).toBe(want);
    expect(tryItemKeyId(key)).toBeUndefined();
    expect(normalizeFingerprint(key.fingerprint).ok).toBe(false);
    // Nor does an UNSPECIFIED checksum (read as none) carry a value that is not bytes.
    expect(error({ ...base(), checksum: { algorithm: 0, value: "abc" } }).message).toBe('[INVALID_DESCRIPTOR] checksum.value must be bytes (a Uint8Array); got "abc"');
    expect(validateDescriptor({ ...base(), checksum: { algorithm: 0, value: new Uint8Array(2) } }, limits).ok).toBe(true);
    // A surrogate pair is well formed.
    expect(validateDescriptor({ ...base(), producerId: "enc\ud83d\ude00", key: { ...key, fingerprint: { ...FULL, model: "m\ud83d\ude00" } } }, limits).ok).toBe(true);
  });

  it("[C2] a long string value is shown cut to 40 characters in the message", () => {
    expect(error({ ...base(), sizeBytes: "y".repeat(41), shape: [] }).message).toBe(
      `[INVALID_DESCRIPTOR] sizeBytes must be an integer in [1, 1024]; got "${"y".repeat(40)}..."`,
    );
    expect(error({ ...base(), sizeBytes: "y".repeat(40), shape: [] }).message).toBe(
      `[INVALID_DESCRIPTOR] sizeBytes must be an integer in [1, 1024]; got "${"y".repeat(40)}"`,
    );
  });
});

describe("framing (SPEC.md section 5)", () => {
  it("maxFrameBytes may be any integer up to 2^32 - 1, the largest length a prefix can express", () => {
    expect(new FrameDecoder({ maxFrameBytes: 0xffffffff }).maxFrameBytes).toBe(0xffffffff);
    expect([...encodeFrame(Uint8Array.of(1), { maxFrameBytes: 0xffffffff })]).toEqual([0, 0, 0, 1, 1]);
    const d = new FrameDecoder({ maxFrameBytes: 0xffffffff });
    expect(d.push(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 1))).toEqual([]); // accepted, payload in progress
    const err = thrown(() => new FrameDecoder({ maxFrameBytes: 2 ** 32 }));
    expect(err.code).toBe("INVALID_CONFIG");
    expect(err.details).toEqual({ maxFrameBytes: 2 ** 32 });
  });

  it("encodeFrame accepts a payload of exactly maxFrameBytes (0 included) and refuses one byte more", () => {
    expect([...encodeFrame(Uint8Array.of(1, 2, 3), { maxFrameBytes: 3 })]).toEqual([0, 0, 0, 3, 1, 2, 3]);
    expect([...encodeFrame(new Uint8Array(0), { maxFrameBytes: 0 })]).toEqual([0, 0, 0, 0]);
    expect(thrown(() => encodeFrame(new Uint8Array(1), { maxFrameBytes: 0 })).code).toBe("FRAME_TOO_LARGE");
    expect(thrown(() => encodeFrame(new Uint8Array(4), { maxFrameBytes: 3 })).details).toEqual({ length: 4, maxFrameBytes: 3, frames: [] });
  });

  it("a decoder with maxFrameBytes 0 takes empty frames only (0 is a limit, not 'the default')", () => {
    const d = new FrameDecoder({ maxFrameBytes: 0 });
    expect(d.maxFrameBytes).toBe(0);
    expect(d.push(Uint8Array.of(0, 0, 0, 0))).toEqual([new Uint8Array(0)]);
    expect(thrown(() => d.push(Uint8Array.of(0, 0, 0, 1))).code).toBe("FRAME_TOO_LARGE");
  });

  it("end() inside a header names no expected payload length", () => {
    const d = new FrameDecoder();
    d.push(Uint8Array.of(0, 0, 0));
    expect(thrown(() => d.end()).details).toEqual({ bufferedBytes: 3, expectedPayloadBytes: undefined });
  });
});

describe("framing: local misuse is a typed error [I1]", () => {
  // (`thrown` rethrows an untyped error, which fails the test.)
  const thrownCode = (fn: () => unknown) => thrown(fn).code;

  it("a maxFrameBytes that String() cannot convert is INVALID_CONFIG, not a TypeError", () => {
    const nullProto = Object.create(null) as number;
    const throwing = {
      toString: () => {
        throw new Error("x");
      },
    } as unknown as number;
    for (const maxFrameBytes of [nullProto, throwing]) {
      expect(thrownCode(() => new FrameDecoder({ maxFrameBytes }))).toBe("INVALID_CONFIG");
      expect(thrownCode(() => encodeFrame(new Uint8Array(1), { maxFrameBytes }))).toBe("INVALID_CONFIG");
    }
  });

  it("a chunk or payload that traps on every read (a Proxy) is INVALID_ARGUMENT, and the decoder keeps its state", () => {
    const traps = {
      get() {
        throw new Error("trap");
      },
      getPrototypeOf() {
        throw new Error("trap");
      },
    };
    const trap = new Proxy({}, traps) as unknown as Uint8Array;
    const d = new FrameDecoder();
    expect(d.push(Uint8Array.of(0, 0, 0, 1))).toEqual([]);
    expect(thrownCode(() => d.push(trap))).toBe("INVALID_ARGUMENT");
    expect(thrownCode(() => encodeFrame(trap))).toBe("INVALID_ARGUMENT");
    expect(d.push(Uint8Array.of(9))).toEqual([Uint8Array.of(9)]);
  });
});

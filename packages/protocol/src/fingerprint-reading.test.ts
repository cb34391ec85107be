/**
 * Every place in validate.ts that reads a raw fingerprint reads it alike [C2]: validateDescriptor (the
 * key's fingerprint, and `limits.fingerprint`), itemKeyId, tryItemKeyId, normalizeFingerprint and
 * fingerprintsEqual accept the same fingerprints, refuse the same ones (with the same code and message,
 * naming the first malformed field), read each field once in the same order, and say the same of one
 * that cannot be read. Pinned here per place, so that a change to one of them cannot go unseen.
 */
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { ectp } from "./gen/ectp.js";
import { fingerprintsEqual, itemKeyId, normalizeFingerprint, tryItemKeyId, validateDescriptor } from "./validate.js";

type Fp = { model: string; dtype: number; rowBytes: number; layoutVersion: number };
const DEFAULT: Fp = { model: "", dtype: 0, rowBytes: 0, layoutVersion: 0 };
const hash = new Uint8Array([0xfe, 0x01, 0x7a]);
const limits = { maxItemBytes: 1024 };

/** A descriptor valid in every field but its key's fingerprint, which is `fp`. */
const descriptorWith = (fp: unknown) => ({ key: { contentHash: hash, fingerprint: fp }, sizeBytes: 8, producerId: "p", epoch: 1 });

/** The key id as SPEC.md section 3.1 defines its parts, built from scratch. */
const reference = (fp: Fp) => `fe017a|${JSON.stringify(fp.model)}|${fp.dtype}|${fp.rowBytes}|${fp.layoutVersion}`;

/** How each refusal's message begins: a fingerprint that is no object of fields, then each malformed field. */
const NOT_A_MESSAGE = "fingerprint must be an object (ectp.v1.IFingerprint: model, dtype, rowBytes, layoutVersion); got";
const MODEL_STRING = "fingerprint.model must be a string; got";
const MODEL_UTF16 = "fingerprint.model must be well-formed UTF-16 (no lone surrogate, which UTF-8 cannot carry); got";
const DTYPE = "fingerprint.dtype must be a Dtype enum value (an integer in [0, 2^31)); got";
const ROW_BYTES = "fingerprint.rowBytes must be a uint32 (an integer in [0, 2^32)); got";
const LAYOUT = "fingerprint.layoutVersion must be a uint32 (an integer in [0, 2^32)); got";

/** Malformed fingerprints and the message of each, the first malformed field in order model, dtype, rowBytes, layoutVersion. */
const MALFORMED: [string, unknown, string][] = [
  ["a number", 5, `${NOT_A_MESSAGE} 5`],
  ["a string", "m@1", `${NOT_A_MESSAGE} "m@1"`],
  ["a boolean", true, `${NOT_A_MESSAGE} true`],
  ["an array", ["m@1", 3, 4096, 1], `${NOT_A_MESSAGE} an array`],
  ["bytes", new Uint8Array(4), `${NOT_A_MESSAGE} a Uint8Array`],
  ["another view", new DataView(new ArrayBuffer(4)), `${NOT_A_MESSAGE} a DataView`],
  ["an ArrayBuffer", new ArrayBuffer(4), `${NOT_A_MESSAGE} an ArrayBuffer`],
  ["a SharedArrayBuffer", new SharedArrayBuffer(4), `${NOT_A_MESSAGE} a SharedArrayBuffer`],
  // Another realm's (a node:vm context's) is no `instanceof ArrayBuffer` here: it read as the all-default fingerprint.
  ["an ArrayBuffer of another realm (node:vm)", runInNewContext("new ArrayBuffer(4)"), `${NOT_A_MESSAGE} an ArrayBuffer`],
  ["a SharedArrayBuffer of another realm (node:vm)", runInNewContext("new SharedArrayBuffer(4)"), `${NOT_A_MESSAGE} a SharedArrayBuffer`],
  ["bytes of another realm (node:vm)", runInNewContext("new Uint8Array(4)"), `${NOT_A_MESSAGE} a Uint8Array`],
  ["another view of another realm (node:vm)", runInNewContext("new DataView(new ArrayBuffer(4))"), `${NOT_A_MESSAGE} a DataView`],
  ["an array of another realm (node:vm)", runInNewContext('["m@1", 3, 4096, 1]'), `${NOT_A_MESSAGE} an array`],
  ["a model that is a number", { model: 5 }, `${MODEL_STRING} 5`],
  ["a model with a lone surrogate", { model: "m\ud800" }, `${MODEL_UTF16} "m\\ud800"`],
  ["a model that is no string, and a bad dtype", { model: 5, dtype: -1 }, `${MODEL_STRING} 5`],
  ["a lone surrogate, and a bad dtype", { model: "m\udc00", dtype: -1, rowBytes: -1 }, `${MODEL_UTF16} "m\\udc00"`],
  ["a dtype of 2^31", { dtype: 2 ** 31 }, `${DTYPE} 2147483648`],
  ["a fractional dtype", { model: "m", dtype: 1.5 }, `${DTYPE} 1.5`],
  ["a dtype given as its name", { dtype: "DTYPE_FLOAT32" }, `${DTYPE} "DTYPE_FLOAT32"`],
  ["a NaN dtype, and a bad rowBytes", { dtype: Number.NaN, rowBytes: -1 }, `${DTYPE} NaN`],
  ["a rowBytes of 2^32", { rowBytes: 2 ** 32 }, `${ROW_BYTES} 4294967296`],
  ["a negative rowBytes, and a bad layoutVersion", { dtype: 3, rowBytes: -1, layoutVersion: -1 }, `${ROW_BYTES} -1`],
  ["a layoutVersion of 2^32", { layoutVersion: 2 ** 32 }, `${LAYOUT} 4294967296`],
  ["a bigint layoutVersion", { model: "m", dtype: 1, rowBytes: 8, layoutVersion: 1n }, `${LAYOUT} 1n`],
];

/** Fingerprints every place accepts, and what each reads as (absent fields, and null ones, as their defaults). */
const ACCEPTED: [string, unknown, Fp][] = [
  ["undefined", undefined, DEFAULT],
  ["null", null, DEFAULT],
  ["an empty object", {}, DEFAULT],
  ["null fields", { model: null, dtype: null, rowBytes: null, layoutVersion: null }, DEFAULT],
  [
    "the largest values the wire carries",
    { model: "m@1", dtype: 2 ** 31 - 1, rowBytes: 2 ** 32 - 1, layoutVersion: 2 ** 32 - 1 },
    { model: "m@1", dtype: 2 ** 31 - 1, rowBytes: 2 ** 32 - 1, layoutVersion: 2 ** 32 - 1 },
  ],
  ["an unknown dtype value, kept", { model: "m", dtype: 99 }, { model: "m", dtype: 99, rowBytes: 0, layoutVersion: 0 }],
  // Objects of fields outside this realm's prototype chains are read as any other.
  ["an object of another realm (node:vm)", runInNewContext('({ model: "m@4", dtype: 1 })'), { model: "m@4", dtype: 1, rowBytes: 0, layoutVersion: 0 }],
  ["an empty object of another realm (node:vm)", runInNewContext("({})"), DEFAULT],
  ["an empty null-prototype object", Object.create(null), DEFAULT],
  ["inherited fields", Object.create({ model: "m@2", dtype: 3, rowBytes: 16 }), { model: "m@2", dtype: 3, rowBytes: 16, layoutVersion: 0 }],
  [
    "a decoded message",
    ectp.v1.Fingerprint.decode(ectp.v1.Fingerprint.encode({ model: "m@3", layoutVersion: 2 }).finish()),
    { model: "m@3", dtype: 0, rowBytes: 0, layoutVersion: 2 },
  ],
];

describe("[C2] one reading of a raw fingerprint, in every place that reads one", () => {
  it.each(MALFORMED)("%s is refused by each, with the same code and message", (_, fp, message) => {
    const want = { code: "INVALID_DESCRIPTOR", message: `[INVALID_DESCRIPTOR] ${message}` };
    const pick = (r: { ok: boolean; error?: { code: string; message: string } }) => (r.ok ? "accepted" : { code: r.error?.code, message: r.error?.message });
    expect(pick(normalizeFingerprint(fp))).toEqual(want);
    expect(pick(itemKeyId({ contentHash: hash, fingerprint: fp }))).toEqual(want);
    expect(pick(validateDescriptor(descriptorWith(fp), limits))).toEqual(want);
    expect(tryItemKeyId({ contentHash: hash, fingerprint: fp })).toBeUndefined();
    expect(fingerprintsEqual(fp, fp)).toBe(false);
    // As the expected fingerprint it matches no descriptor, not even the all-default one (which a
    // fingerprint given as an array, bytes or a string would read as).
    const r = validateDescriptor(descriptorWith(undefined), { ...limits, fingerprint: fp as ectp.v1.IFingerprint });
    expect(r.ok || { code: r.error.code, message: r.error.message, details: r.error.details }).toEqual({
      code: "INCOMPATIBLE",
      message: "[INCOMPATIBLE] item fingerprint differs from the expected fingerprint",
      details: { got: DEFAULT, expected: undefined },
    });
  });

  it.each(ACCEPTED)("%s is accepted by each, as the same fingerprint", (_, fp, want) => {
    expect(normalizeFingerprint(fp)).toEqual({ ok: true, value: want });
    expect(itemKeyId({ contentHash: hash, fingerprint: fp })).toEqual({ ok: true, value: reference(want) });
    expect(tryItemKeyId({ contentHash: hash, fingerprint: fp })).toBe(reference(want));
    const r = validateDescriptor(descriptorWith(fp), limits);
    expect(r.ok && { keyId: r.value.keyId, fingerprint: r.value.fingerprint }).toEqual({ keyId: reference(want), fingerprint: want });
    expect(fingerprintsEqual(fp, want)).toBe(true);
    expect(fingerprintsEqual(fp, { ...want, layoutVersion: want.layoutVersion + 1 })).toBe(false);
    // As the expected fingerprint: the descriptor of that fingerprint matches, one differing in a field does not
    // (an undefined one is no expected fingerprint: every descriptor passes).
    expect(validateDescriptor(descriptorWith(want), { ...limits, fingerprint: fp as ectp.v1.IFingerprint }).ok).toBe(true);
    const other = (n: number) => (n === 0 ? 1 : n - 1);
    const variants: Fp[] = [
      { ...want, model: `${want.model}x` },
      { ...want, dtype: other(want.dtype) },
      { ...want, rowBytes: other(want.rowBytes) },
      { ...want, layoutVersion: other(want.layoutVersion) },
    ];
    for (const variant of variants) {
      const r = validateDescriptor(descriptorWith(variant), { ...limits, fingerprint: fp as ectp.v1.IFingerprint });
      expect(r.ok || r.error.code, JSON.stringify(variant)).toBe(fp === undefined ? true : "INCOMPATIBLE");
    }
  });

  it("each reads the four fields once, in the order model, dtype, rowBytes, layoutVersion", () => {
    const fields = { model: "m@1", dtype: 3, rowBytes: 4096, layoutVersion: 1 };
    const reads: (string | symbol)[] = [];
    const logged = new Proxy(fields, {
      get(target, name, receiver) {
        reads.push(name);
        return Reflect.get(target, name, receiver);
      },
    });
    const readsOf = (use: () => unknown) => {
      reads.length = 0;
      use();
      return [...reads];
    };
    const ORDER = ["model", "dtype", "rowBytes", "layoutVersion"];
    expect(readsOf(() => normalizeFingerprint(logged))).toEqual(ORDER);
    expect(readsOf(() => itemKeyId({ contentHash: hash, fingerprint: logged }))).toEqual(ORDER);
    expect(readsOf(() => tryItemKeyId({ contentHash: hash, fingerprint: logged }))).toEqual(ORDER);
    expect(readsOf(() => validateDescriptor(descriptorWith(logged), limits))).toEqual(ORDER);
    expect(readsOf(() => validateDescriptor(descriptorWith(fields), { ...limits, fingerprint: logged }))).toEqual(ORDER);
    expect(readsOf(() => fingerprintsEqual(logged, fields))).toEqual(ORDER);
  });

  it("[C2] validateDescriptor reads limits.fingerprint once: an INCOMPATIBLE result names the fingerprint it compared", () => {
    // A getter that says another thing at each read: a second reading (for the result) reported another
    // fingerprint than the one compared, and ran the caller's getters twice.
    let reads = 0;
    const drifting = {
      model: "m@1",
      dtype: 3,
      rowBytes: 4096,
      get layoutVersion() {
        reads++;
        return reads === 1 ? 7 : 1;
      },
    };
    const got = { model: "m@1", dtype: 3, rowBytes: 4096, layoutVersion: 1 };
    let r = validateDescriptor(descriptorWith(got), { ...limits, fingerprint: drifting });
    expect(r.ok || { code: r.error.code, details: r.error.details }).toEqual({ code: "INCOMPATIBLE", details: { got, expected: { ...got, layoutVersion: 7 } } });
    expect(reads).toBe(1);
    // One malformed at its first read and well-formed after it: compared malformed (it matches no
    // descriptor), and so reported, as no expected fingerprint, not as the well-formed one read later.
    reads = 0;
    const malformedFirst = {
      get layoutVersion() {
        reads++;
        return reads === 1 ? -1 : 0;
      },
    };
    r = validateDescriptor(descriptorWith(undefined), { ...limits, fingerprint: malformedFirst });
    expect(r.ok || { code: r.error.code, details: r.error.details }).toEqual({ code: "INCOMPATIBLE", details: { got: DEFAULT, expected: undefined } });
    expect(reads).toBe(1);
  });

  it("[I1] a fingerprint that cannot be read: each says so in its own words, and none throws", () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new RangeError("trap");
        },
      },
    );
    const pick = (r: { ok: boolean; error?: { code: string; message: string; cause?: unknown } }) =>
      r.ok ? "accepted" : { code: r.error?.code, message: r.error?.message, cause: (r.error?.cause as Error | undefined)?.message };
    const unread = (what: string) => ({ code: "INVALID_DESCRIPTOR", message: `[INVALID_DESCRIPTOR] ${what} could not be read`, cause: "trap" });
    expect(pick(normalizeFingerprint(trap))).toEqual(unread("fingerprint"));
    expect(pick(itemKeyId({ contentHash: hash, fingerprint: trap }))).toEqual(unread("item key"));
    expect(pick(validateDescriptor(descriptorWith(trap), limits))).toEqual(unread("descriptor"));
    // The expected fingerprint is the caller's own: its mistake, not the peer's descriptor.
    expect(pick(validateDescriptor(descriptorWith(undefined), { ...limits, fingerprint: trap }))).toEqual({
      code: "INVALID_ARGUMENT",
      message: "[INVALID_ARGUMENT] limits.fingerprint could not be read",
      cause: "trap",
    });
    expect(tryItemKeyId({ contentHash: hash, fingerprint: trap })).toBeUndefined();
    expect(fingerprintsEqual(trap, undefined)).toBe(false);
    expect(fingerprintsEqual(undefined, trap)).toBe(false);
  });
});

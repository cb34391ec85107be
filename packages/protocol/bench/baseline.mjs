// Baseline (before the hot-path work): validate.ts and envelope.ts as they were at c629967,
// compiled by tsup, kept verbatim so bench/hot-paths.mjs can report before/after in one run.
// Not part of the package (bench/ is not published); do not import it from src.
import { EctpError, SPEC_MAJOR, ectp } from "../dist/index.js";

function encodeEnvelope(envelope) {
  try {
    return ectp.v1.Envelope.encode(envelope).finish();
  } catch (cause) {
    throw new EctpError("INVALID_ARGUMENT", "envelope could not be encoded; check field types", { cause });
  }
}
function decodeEnvelope(bytes) {
  let env;
  try {
    env = ectp.v1.Envelope.decode(bytes);
  } catch (cause) {
    return {
      ok: false,
      error: new EctpError("MALFORMED_MESSAGE", `envelope of ${bytes.length} bytes is not valid protobuf`, { cause })
    };
  }
  const major = env.version?.major ?? 0;
  if (major !== SPEC_MAJOR)
    return {
      ok: false,
      error: new EctpError("VERSION", `envelope speaks spec major ${major}; this implementation speaks ${SPEC_MAJOR}`, {
        details: { major }
      }),
      envelope: env
    };
  if (!env.senderId || !Number.isSafeInteger(env.senderEpoch) || env.senderEpoch < 1)
    return {
      ok: false,
      error: new EctpError("MALFORMED_MESSAGE", "envelope lacks sender_id or a positive sender_epoch", {}),
      envelope: env
    };
  return { ok: true, value: env };
}

function dtypeSize(dtype) {
  switch (dtype) {
    case ectp.v1.Dtype.DTYPE_FLOAT64:
      return 8;
    case ectp.v1.Dtype.DTYPE_FLOAT32:
    case ectp.v1.Dtype.DTYPE_INT32:
      return 4;
    case ectp.v1.Dtype.DTYPE_FLOAT16:
    case ectp.v1.Dtype.DTYPE_BFLOAT16:
      return 2;
    case ectp.v1.Dtype.DTYPE_FLOAT8_E4M3:
    case ectp.v1.Dtype.DTYPE_FLOAT8_E5M2:
    case ectp.v1.Dtype.DTYPE_INT8:
    case ectp.v1.Dtype.DTYPE_UINT8:
      return 1;
    default:
      return void 0;
  }
}
var HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
function toHex(bytes) {
  let s = "";
  for (const b of bytes) s += HEX[b];
  return s;
}
function isBytes(v) {
  return v instanceof Uint8Array;
}
function isSafeNonNegative(v) {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}
function allSafeNonNegative(a) {
  for (let i = 0; i < a.length; i++) if (!isSafeNonNegative(a[i]) && i in a) return false;
  return true;
}
var EMPTY_LOCATION = new Uint8Array(0);
function normalizeFingerprint(fp) {
  if (fp === void 0 || fp === null) return { ok: true, value: { model: "", dtype: 0, rowBytes: 0, layoutVersion: 0 } };
  if (typeof fp !== "object") return fail("INVALID_DESCRIPTOR", "fingerprint must be an object", { got: typeof fp });
  const f = fp;
  const model = f.model ?? "";
  const dtype = f.dtype ?? 0;
  const rowBytes = f.rowBytes ?? 0;
  const layoutVersion = f.layoutVersion ?? 0;
  if (typeof model !== "string") return fail("INVALID_DESCRIPTOR", "fingerprint.model must be a string", {});
  if (!isSafeNonNegative(dtype)) return fail("INVALID_DESCRIPTOR", "fingerprint.dtype must be a non-negative integer", {});
  if (!isSafeNonNegative(rowBytes)) return fail("INVALID_DESCRIPTOR", "fingerprint.rowBytes must be a non-negative integer", {});
  if (!isSafeNonNegative(layoutVersion))
    return fail("INVALID_DESCRIPTOR", "fingerprint.layoutVersion must be a non-negative integer", {});
  return { ok: true, value: { model, dtype, rowBytes, layoutVersion } };
}
function fingerprintsEqual(a, b) {
  const x = normalizeFingerprint(a);
  const y = normalizeFingerprint(b);
  if (!x.ok || !y.ok) return false;
  return x.value.model === y.value.model && x.value.dtype === y.value.dtype && x.value.rowBytes === y.value.rowBytes && x.value.layoutVersion === y.value.layoutVersion;
}
function itemKeyId(key) {
  if (key === void 0 || key === null || typeof key !== "object")
    return fail("INVALID_DESCRIPTOR", "item key is missing; every descriptor needs key.contentHash", {});
  const k = key;
  const hash = k.contentHash;
  if (!isBytes(hash) || hash.length < 1 || hash.length > 64)
    return fail("INVALID_DESCRIPTOR", "key.contentHash must be 1 to 64 bytes", {
      length: isBytes(hash) ? hash.length : void 0
    });
  const fp = normalizeFingerprint(k.fingerprint);
  if (!fp.ok) return fp;
  const f = fp.value;
  return { ok: true, value: `${toHex(hash)}|${JSON.stringify(f.model)}|${f.dtype}|${f.rowBytes}|${f.layoutVersion}` };
}
function fingerprintEquals(a, raw) {
  if (raw === void 0 || raw === null) return a.model === "" && a.dtype === 0 && a.rowBytes === 0 && a.layoutVersion === 0;
  if (typeof raw !== "object") return false;
  const f = raw;
  const model = f.model ?? "";
  const dtype = f.dtype ?? 0;
  const rowBytes = f.rowBytes ?? 0;
  const layoutVersion = f.layoutVersion ?? 0;
  if (typeof model !== "string" || !isSafeNonNegative(dtype) || !isSafeNonNegative(rowBytes) || !isSafeNonNegative(layoutVersion))
    return false;
  return a.model === model && a.dtype === dtype && a.rowBytes === rowBytes && a.layoutVersion === layoutVersion;
}
function validateDescriptor(descriptor, limits) {
  try {
    return validateUnsafe(descriptor, limits);
  } catch (cause) {
    return fail("INVALID_DESCRIPTOR", "descriptor could not be read", {}, cause);
  }
}
function validateUnsafe(descriptor, limits) {
  if (descriptor === void 0 || descriptor === null || typeof descriptor !== "object")
    return fail("INVALID_DESCRIPTOR", "descriptor is missing", {});
  const d = descriptor;
  const keyId = itemKeyId(d.key);
  if (!keyId.ok) return keyId;
  const key = d.key;
  const normalized = normalizeFingerprint(key.fingerprint);
  if (!normalized.ok) return normalized;
  const fingerprint = normalized.value;
  if (limits.fingerprint !== void 0 && !fingerprintEquals(fingerprint, limits.fingerprint))
    return fail("INCOMPATIBLE", "item fingerprint differs from the expected fingerprint", {
      got: fingerprint,
      expected: normalizeFingerprint(limits.fingerprint).ok ? limits.fingerprint : void 0
    });
  const size = d.sizeBytes;
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 1 || size > limits.maxItemBytes)
    return fail(
      "INVALID_DESCRIPTOR",
      `sizeBytes must be an integer in [1, ${limits.maxItemBytes}]; got ${describe(size)}`,
      { sizeBytes: size, maxItemBytes: limits.maxItemBytes }
    );
  const dtype = d.dtype ?? 0;
  if (!isSafeNonNegative(dtype)) return fail("INVALID_DESCRIPTOR", `dtype must be an enum value; got ${describe(dtype)}`, {});
  const rawShape = d.shape ?? [];
  if (!Array.isArray(rawShape) || !allSafeNonNegative(rawShape))
    return fail("INVALID_DESCRIPTOR", "shape must be a list of non-negative integers", {});
  const shape = rawShape;
  const elem = dtypeSize(dtype);
  if (elem !== void 0 && shape.length > 0) {
    let expected = elem;
    for (const dim of shape) expected *= dim;
    if (expected !== size)
      return fail("INVALID_DESCRIPTOR", `sizeBytes ${size} differs from dtype x shape = ${expected}`, {
        sizeBytes: size,
        shape,
        dtype
      });
  }
  const producerId = d.producerId;
  if (typeof producerId !== "string" || producerId.length === 0)
    return fail("INVALID_DESCRIPTOR", "producerId must be a non-empty string", {});
  const epoch = d.epoch;
  if (typeof epoch !== "number" || !Number.isSafeInteger(epoch) || epoch < 1)
    return fail("INVALID_DESCRIPTOR", `epoch must be a positive integer; got ${describe(epoch)}`, {});
  const location = d.location ?? EMPTY_LOCATION;
  if (!isBytes(location)) return fail("INVALID_DESCRIPTOR", "location must be bytes", {});
  let checksum;
  const cs = d.checksum;
  if (cs !== void 0 && cs !== null) {
    if (typeof cs !== "object") return fail("INVALID_DESCRIPTOR", "checksum must be an object", {});
    const c = cs;
    const algorithm = c.algorithm ?? 0;
    if (algorithm === ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C) {
      const v = c.value;
      if (!isBytes(v) || v.length !== 4)
        return fail("INVALID_DESCRIPTOR", "a CRC32C checksum value must be exactly 4 bytes", {});
      const crc = (v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3]) >>> 0;
      checksum = { algorithm: ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C, crc32c: crc };
    } else if (algorithm !== 0) {
      return fail(
        "INVALID_DESCRIPTOR",
        `checksum algorithm ${describe(algorithm)} is not supported; unverifiable bytes are never loaded`,
        {}
      );
    }
  }
  const value = {
    keyId: keyId.value,
    contentHash: key.contentHash,
    fingerprint,
    sizeBytes: size,
    dtype,
    shape,
    producerId,
    epoch,
    location,
    raw: d
  };
  if (checksum) value.checksum = checksum;
  return { ok: true, value };
}
function describe(v) {
  if (v === void 0) return "nothing";
  if (v === null) return "null";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  return typeof v;
}
function fail(code, message, details, cause) {
  return { ok: false, error: new EctpError(code, message, { details, cause }) };
}
export { itemKeyId, validateDescriptor, normalizeFingerprint, fingerprintsEqual, encodeEnvelope, decodeEnvelope };

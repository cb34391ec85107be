/**
 * Byte formats of the mock's opaque blobs: source locations (`describe`) and endpoint
 * metadata (`localMetadata`). Both start with a magic, a kind and a version so a blob
 * from another transport, a truncated one or random bytes are recognised and reported
 * as a clear read failure or connect rejection instead of a throw ([I1]).
 *
 * Location (kind 1): magic "EM", kind u8, version u8, incarnation u32, region id u32,
 * offset u64, length u64, id length u16, endpoint id UTF-8 - all big-endian.
 * Metadata (kind 2): magic "EM", kind u8, version u8, incarnation u32, id length u16, id.
 * @module
 */

const MAGIC0 = 0x45; // 'E'
const MAGIC1 = 0x4d; // 'M'
const VERSION = 1;
const KIND_LOCATION = 1;
const KIND_METADATA = 2;
const LOCATION_FIXED = 4 + 4 + 4 + 8 + 8 + 2;
const METADATA_FIXED = 4 + 4 + 2;

/** A decoded source location. Internal. */
export interface MockLocation {
  readonly endpointId: string;
  readonly incarnation: number;
  readonly regionId: number;
  readonly offset: number;
  readonly length: number;
}

/** A decoded endpoint metadata blob. Internal. */
export interface MockMetadata {
  readonly endpointId: string;
  readonly incarnation: number;
}

/** Decoding outcome: a value, or a sentence saying what was wrong. Internal. */
export type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/*
 * Big-endian fields are read and written byte by byte rather than through a DataView: a
 * blob this small lives on the JS heap, and asking for its `.buffer` (which a DataView
 * needs) would move it to a separately allocated backing store, once per location.
 */

function header(kind: number, fixed: number, id: Uint8Array, alloc?: (n: number) => Uint8Array): Uint8Array {
  const bytes = alloc ? alloc(fixed + id.length) : new Uint8Array(fixed + id.length);
  bytes[0] = MAGIC0;
  bytes[1] = MAGIC1;
  bytes[2] = kind;
  bytes[3] = VERSION;
  return bytes;
}

function setU16(bytes: Uint8Array, at: number, v: number): void {
  bytes[at] = v >>> 8;
  bytes[at + 1] = v;
}

function setU32(bytes: Uint8Array, at: number, v: number): void {
  bytes[at] = v >>> 24;
  bytes[at + 1] = v >>> 16;
  bytes[at + 2] = v >>> 8;
  bytes[at + 3] = v;
}

function getU16(bytes: Uint8Array, at: number): number {
  return ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
}

function getU32(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at] as number) * 0x1000000 + (((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number))
  );
}

/** UTF-8 bytes of an endpoint id (an endpoint encodes its own once). Internal. */
export function encodeId(endpointId: string): Uint8Array {
  return encoder.encode(endpointId);
}

/** Write a safe non-negative integer as a big-endian u64 (two u32 halves, no BigInt). */
function setU64(bytes: Uint8Array, at: number, v: number): void {
  setU32(bytes, at, Math.floor(v / 4294967296));
  setU32(bytes, at + 4, v >>> 0);
}

/**
 * Encode a location; `idBytes`, when given, must be {@link encodeId}`(loc.endpointId)`;
 * `alloc`, when given, returns a zeroed array of the asked size to write it into. Internal.
 */
export function encodeLocation(loc: MockLocation, idBytes?: Uint8Array, alloc?: (n: number) => Uint8Array): Uint8Array {
  const id = idBytes ?? encoder.encode(loc.endpointId);
  const bytes = header(KIND_LOCATION, LOCATION_FIXED, id, alloc);
  setU32(bytes, 4, loc.incarnation);
  setU32(bytes, 8, loc.regionId);
  setU64(bytes, 12, loc.offset);
  setU64(bytes, 20, loc.length);
  setU16(bytes, 28, id.length);
  bytes.set(id, LOCATION_FIXED);
  return bytes;
}

/** Encode endpoint metadata. Internal. */
export function encodeMetadata(meta: MockMetadata): Uint8Array {
  const id = encoder.encode(meta.endpointId);
  const bytes = header(KIND_METADATA, METADATA_FIXED, id);
  setU32(bytes, 4, meta.incarnation);
  setU16(bytes, 8, id.length);
  bytes.set(id, METADATA_FIXED);
  return bytes;
}

function checkHeader(bytes: Uint8Array, kind: number, fixed: number, what: string): string | undefined {
  if (!(bytes instanceof Uint8Array)) return `${what} is not a Uint8Array`;
  if (bytes.length < fixed) {
    return `${what} is ${bytes.length} bytes, shorter than the ${fixed}-byte minimum; it was not made by @ectp/transport-mock`;
  }
  if (bytes[0] !== MAGIC0 || bytes[1] !== MAGIC1) {
    return `${what} does not start with the mock transport's magic "EM"; it was made by another transport or is corrupt`;
  }
  if (bytes[2] !== kind) return `${what} has kind ${bytes[2]}, expected ${kind}; a metadata blob and a location were swapped`;
  if (bytes[3] !== VERSION) return `${what} has format version ${bytes[3]}, this mock understands version ${VERSION}`;
  return undefined;
}

function readId(bytes: Uint8Array, lengthAt: number, fixed: number, what: string): Decoded<string> {
  const idLength = getU16(bytes, lengthAt);
  if (bytes.length !== fixed + idLength) {
    return { ok: false, error: `${what} is ${bytes.length} bytes but its endpoint id length says ${fixed + idLength}` };
  }
  // Fast path: ASCII ids (always valid UTF-8) decode without the TextDecoder.
  if (idLength <= 64) {
    let ascii = "";
    let i = fixed;
    for (; i < bytes.length; i++) {
      const c = bytes[i] as number;
      if (c >= 0x80) break;
      ascii += String.fromCharCode(c);
    }
    if (i === bytes.length) return { ok: true, value: ascii };
  }
  try {
    return { ok: true, value: decoder.decode(bytes.subarray(fixed)) };
  } catch {
    return { ok: false, error: `${what} holds an endpoint id that is not valid UTF-8` };
  }
}

/** Decode a location; never throws. Internal. */
export function decodeLocation(bytes: Uint8Array): Decoded<MockLocation> {
  const what = "source location";
  const bad = checkHeader(bytes, KIND_LOCATION, LOCATION_FIXED, what);
  if (bad !== undefined) return { ok: false, error: bad };
  // u64 as two u32 halves: a high half above 0x1fffff means the value exceeds 2^53 - 1.
  const offsetHi = getU32(bytes, 12);
  const lengthHi = getU32(bytes, 20);
  if (offsetHi > 0x1fffff || lengthHi > 0x1fffff) {
    return { ok: false, error: `${what} has an offset or length beyond 2^53` };
  }
  const offset = offsetHi * 4294967296 + getU32(bytes, 16);
  const length = lengthHi * 4294967296 + getU32(bytes, 24);
  const id = readId(bytes, 28, LOCATION_FIXED, what);
  if (!id.ok) return id;
  return {
    ok: true,
    value: {
      endpointId: id.value,
      incarnation: getU32(bytes, 4),
      regionId: getU32(bytes, 8),
      offset,
      length,
    },
  };
}

/** Decode endpoint metadata; never throws. Internal. */
export function decodeMetadata(bytes: Uint8Array): Decoded<MockMetadata> {
  const what = "peer metadata";
  const bad = checkHeader(bytes, KIND_METADATA, METADATA_FIXED, what);
  if (bad !== undefined) return { ok: false, error: bad };
  const id = readId(bytes, 8, METADATA_FIXED, what);
  if (!id.ok) return id;
  return { ok: true, value: { endpointId: id.value, incarnation: getU32(bytes, 4) } };
}

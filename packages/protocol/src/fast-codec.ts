/**
 * Hand-written encoder and decoder for the envelopes of the read path (read_request,
 * read_grant, read_reject, read_complete, heartbeat).
 *
 * Why: the generated protobufjs code costs 1-3 µs per hot message (a Writer with forks,
 * a Reader object, LongBits for every uint64, the oneof setter deleting twelve fields);
 * these take a fraction of that. They are not a second codec with its own rules: each one
 * accepts a strict subset of its inputs and *declines* (returns `undefined`) everything
 * else, which then goes to the generated code, so errors, odd values and rare bodies keep
 * exactly the generated behaviour.
 *
 * The contract, proven by fast-codec.test.ts against the generated code:
 * - {@link fastEncodeEnvelope}: when it returns bytes they equal
 *   `ectp.v1.Envelope.encode(envelope).finish()` byte for byte, in a buffer of the same
 *   type (protobufjs's `util.Buffer`, a Node Buffer). Accepted: own data properties whose
 *   values are numbers (uint64: safe integers >= 0; uint32: integers in [0, 2^32); int32 and
 *   enums: integers in [0, 2^31), a negative one taking ten bytes), booleans, ASCII strings, Uint8Arrays and plain sub-objects, exactly
 *   the fields the generated encoder reads, with its presence rules (`!= null`, own
 *   property, non-default). Declined: Long objects, unsafe or negative integers,
 *   non-ASCII strings, `$unknowns`, any other body, anything of another type.
 * - {@link fastDecodeEnvelope}: when it returns an envelope it equals
 *   `ectp.v1.Envelope.decode(bytes)`: same classes, same own properties in the same order,
 *   same values, byte fields as views of the input of the same type (Buffer.slice for a
 *   Buffer, subarray otherwise). Accepted: every field at most once in ascending field order
 *   with its declared wire type, packed shape, ASCII strings, uint64 varints of at most 8
 *   bytes, uint32 and enum varints of at most 5 bytes (a fifth byte without continuation
 *   bit), which also admits some encodings a canonical encoder does not write (overlong
 *   varints, tags and lengths within those bounds, explicit zeros, a fifth uint32 byte with
 *   high bits set): each decodes to the generated decoder's value, so re-encoding it need not
 *   give the same bytes back. Declined: anything else, including every malformed input, so malformed
 *   bytes still fail exactly as before (typed MALFORMED_MESSAGE in decodeEnvelope).
 * Not exported from the package index: internal to encodeEnvelope / decodeEnvelope.
 * @module
 * @internal
 */
import { markAsUntransferable } from "node:worker_threads";
import $protobuf from "protobufjs/minimal.js";
import { ectp } from "./gen/ectp.js";
import { MAX_REPEATED_ELEMENTS } from "./limits.js";

const V = ectp.v1;
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The Buffer class protobufjs writes into and slices from (null outside Node): the fast
 * paths produce the same types or decline.
 */
const PBBuffer = ($protobuf.util as unknown as { Buffer: typeof Buffer | null }).Buffer;

// ------------------------------------------------------------------------------ encode
//
// Every writer takes the output bytes and the position and returns the new position, or
// -1 to decline. Output goes straight into a slab (an ArrayBuffer shared by consecutive
// results, as Node's Buffer pool shares one); each result is a Buffer view of its own
// range, so nothing is copied. An envelope that would overrun the slab declines (the
// generated encoder handles any size).

/** Bytes per slab: a result keeps its slab alive, as a pooled Buffer keeps Node's 8 KiB pool. */
const SLAB_BYTES = 32 * 1024;
/** A new slab is started when less than this is left (read-path envelopes are far smaller). */
const SLAB_ROOM = 4096;

/**
 * A new slab, untransferable as Node's Buffer pool is: transferring one result's buffer (a
 * `postMessage` transfer list) would detach the slab and empty every other result in it.
 */
function newSlab(): Uint8Array {
  const b = new Uint8Array(SLAB_BYTES);
  markAsUntransferable(b.buffer);
  return b;
}

let slab = newSlab();
/** Bytes of `slab` handed out (8-byte aligned, as Node aligns its pool). */
let slabUsed = 0;
/** Set while an encode runs: a re-entrant call (from a getter) declines instead of sharing the slab. */
let encoding = false;

/** Varint of a uint32 at `i` (room checked by the caller); returns the new position. */
function varint32(b: Uint8Array, i: number, v: number): number {
  while (v > 127) {
    b[i++] = (v & 127) | 128;
    v >>>= 7;
  }
  b[i++] = v;
  return i;
}

/** Varint of a safe non-negative integer (exact: division by 128 of values below 2^53). */
function varint53(b: Uint8Array, i: number, v: number): number {
  while (v > 0x7fffffff) {
    b[i++] = (v % 128) | 128;
    v = Math.floor(v / 128);
  }
  return varint32(b, i, v);
}

/** Field tag (field number and wire type); every tag here is below 2^14. */
function tag(b: Uint8Array, i: number, t: number): number {
  if (t < 128) b[i++] = t;
  else {
    b[i++] = (t & 127) | 128;
    b[i++] = t >>> 7;
  }
  return i;
}

/** uint64 field: `writer.uint64` of a number. -1 to decline (Long, unsafe, negative, fraction, NaN). */
function putU64(b: Uint8Array, i: number, t: number, v: unknown): number {
  if (typeof v !== "number") return -1;
  if (v === 0) return i; // the generated encoder skips 0 (and -0)
  if (!Number.isSafeInteger(v) || v < 0 || i + 12 > b.length) return -1;
  return varint53(b, tag(b, i, t), v);
}

/** uint32 field. -1 to decline a value outside [0, 2^32) or a fraction (the generated encoder refuses it). */
function putU32(b: Uint8Array, i: number, t: number, v: unknown): number {
  if (typeof v !== "number") return -1;
  if (v === 0) return i;
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff || i + 7 > b.length) return -1;
  return varint32(b, tag(b, i, t), v);
}

/** int32 / enum field. -1 to decline a negative value (ten bytes: the generated encoder writes it) or a non-int32. */
function putI32(b: Uint8Array, i: number, t: number, v: unknown): number {
  if (typeof v !== "number") return -1;
  if (v === 0) return i;
  if (!Number.isInteger(v) || v < 0 || v > 0x7fffffff || i + 7 > b.length) return -1;
  return varint32(b, tag(b, i, t), v);
}

/** bool field: written when not `false`. */
function putBool(b: Uint8Array, i: number, t: number, v: unknown): number {
  if (typeof v !== "boolean") return -1;
  if (!v) return i;
  if (i + 3 > b.length) return -1;
  i = tag(b, i, t);
  b[i++] = 1;
  return i;
}

/** string field: ASCII only (one byte per char, as UTF-8 writes it); other strings decline. */
function putStr(b: Uint8Array, i: number, t: number, v: unknown): number {
  if (typeof v !== "string") return -1;
  const n = v.length;
  if (n === 0) return i;
  if (i + n + 7 > b.length) return -1;
  i = varint32(b, tag(b, i, t), n);
  for (let k = 0; k < n; k++) {
    const c = v.charCodeAt(k);
    if (c >= 128) return -1;
    b[i++] = c;
  }
  return i;
}

/** bytes field: a Uint8Array, written when not empty. */
function putBytes(b: Uint8Array, i: number, t: number, v: unknown): number {
  if (!(v instanceof Uint8Array)) return -1;
  const n = v.length;
  if (n === 0) return i;
  if (i + n + 7 > b.length) return -1;
  i = varint32(b, tag(b, i, t), n);
  if (n <= 64) for (let k = 0; k < n; k++) b[i + k] = v[k] as number;
  else b.set(v, i);
  return i + n;
}

/**
 * Finish a sub-message whose reserved length byte is at `at` and whose end is `i`: writes
 * its length, widening the reserved byte when needed. Returns the new end.
 */
function close(b: Uint8Array, at: number, i: number): number {
  const len = i - at - 1;
  if (len < 128) {
    b[at] = len;
    return i;
  }
  const n = len < 16384 ? 2 : len < 2097152 ? 3 : len < 268435456 ? 4 : 5;
  if (i + n - 1 > b.length) return -1;
  b.copyWithin(at + n, at + 1, i);
  varint32(b, at, len);
  return i + n - 1;
}

/** Object.prototype, whose own value of a field name is read at each call site of {@link has}. */
const OP = Object.prototype as unknown as Record<string, unknown>;

/**
 * A field present as the generated encoder sees it: `v` (read once as `m[name]`) is not
 * null and `name` is an own property of `m`. For a plain object (`plain`: its prototype is
 * Object.prototype) a non-null value can only be inherited from Object.prototype, so when
 * `inherited` (Object.prototype's value of `name`) is null the value is own and the
 * hasOwnProperty call (~15 ns) is skipped; any other object is asked.
 */
function has(m: object, plain: boolean, v: unknown, inherited: unknown, name: string): boolean {
  return v != null && ((plain && inherited == null) || hasOwn.call(m, name));
}

/** Whether `m`'s prototype is Object.prototype (see {@link has}). */
function isPlain(m: object): boolean {
  return Object.getPrototypeOf(m) === OP;
}

/** A message with `$unknowns` to re-emit declines (the generated encoder writes them). */
function hasUnknowns(m: object, plain: boolean): boolean {
  return has(m, plain, (m as { $unknowns?: unknown }).$unknowns, OP.$unknowns, "$unknowns");
}

type Obj = Record<string, unknown>;
type Enc = (b: Uint8Array, i: number, m: Obj) => number;

/**
 * A sub-message field whose value `v` the caller read as `m[name]` (a constant name at each
 * call site, so the property load stays monomorphic): present -> an object, encoded by `enc`
 * after its tag and a reserved length byte.
 */
function putMsg(b: Uint8Array, i: number, m: Obj, plain: boolean, v: unknown, inherited: unknown, name: string, t: number, enc: Enc): number {
  if (!has(m, plain, v, inherited, name)) return i;
  if (typeof v !== "object" || Array.isArray(v) || ArrayBuffer.isView(v) || v instanceof ArrayBuffer || i + 3 > b.length) return -1; // (the generated encoder refuses these)
  i = tag(b, i, t);
  const at = i;
  const e = enc(b, i + 1, v as Obj);
  return e < 0 ? -1 : close(b, at, e);
}

function encSpecVersion(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  let v = m.major;
  if (has(m, plain, v, OP.major, "major")) {
    i = putU32(b, i, 8, v);
    if (i < 0) return -1;
  }
  v = m.minor;
  if (has(m, plain, v, OP.minor, "minor")) {
    i = putU32(b, i, 16, v);
    if (i < 0) return -1;
  }
  return hasUnknowns(m, plain) ? -1 : i;
}

function encFingerprint(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  let v = m.model;
  if (has(m, plain, v, OP.model, "model")) {
    i = putStr(b, i, 10, v);
    if (i < 0) return -1;
  }
  v = m.dtype;
  if (has(m, plain, v, OP.dtype, "dtype")) {
    i = putI32(b, i, 16, v);
    if (i < 0) return -1;
  }
  v = m.rowBytes;
  if (has(m, plain, v, OP.rowBytes, "rowBytes")) {
    i = putU32(b, i, 24, v);
    if (i < 0) return -1;
  }
  v = m.layoutVersion;
  if (has(m, plain, v, OP.layoutVersion, "layoutVersion")) {
    i = putU32(b, i, 32, v);
    if (i < 0) return -1;
  }
  return hasUnknowns(m, plain) ? -1 : i;
}

function encItemKey(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  const v = m.contentHash;
  // Generated: `!= null && own && v.length`; a non-Uint8Array declines before its length is read.
  if (has(m, plain, v, OP.contentHash, "contentHash")) {
    i = putBytes(b, i, 10, v);
    if (i < 0) return -1;
  }
  i = putMsg(b, i, m, plain, m.fingerprint, OP.fingerprint, "fingerprint", 18, encFingerprint);
  if (i < 0) return -1;
  return hasUnknowns(m, plain) ? -1 : i;
}

function encChecksum(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  let v = m.algorithm;
  if (has(m, plain, v, OP.algorithm, "algorithm")) {
    i = putI32(b, i, 8, v);
    if (i < 0) return -1;
  }
  v = m.value;
  if (has(m, plain, v, OP.value, "value")) {
    i = putBytes(b, i, 18, v);
    if (i < 0) return -1;
  }
  return hasUnknowns(m, plain) ? -1 : i;
}

function encShape(b: Uint8Array, i: number, shape: unknown): number {
  // Repeated: the generated encoder checks `!= null && length` only (no own-property test).
  if (shape == null) return i;
  if (!Array.isArray(shape)) return -1;
  const n = shape.length;
  if (n === 0) return i;
  if (i + 3 + 8 * n > b.length) return -1;
  i = tag(b, i, 34);
  const at = i++;
  for (let k = 0; k < n; k++) {
    const d: unknown = shape[k];
    if (typeof d !== "number" || !Number.isSafeInteger(d) || d < 0) return -1;
    i = varint53(b, i, d);
  }
  return close(b, at, i);
}

function encItemDescriptor(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  i = putMsg(b, i, m, plain, m.key, OP.key, "key", 10, encItemKey);
  if (i < 0) return -1;
  let v = m.sizeBytes;
  if (has(m, plain, v, OP.sizeBytes, "sizeBytes")) {
    i = putU64(b, i, 16, v);
    if (i < 0) return -1;
  }
  v = m.dtype;
  if (has(m, plain, v, OP.dtype, "dtype")) {
    i = putI32(b, i, 24, v);
    if (i < 0) return -1;
  }
  i = encShape(b, i, m.shape);
  if (i < 0) return -1;
  i = putMsg(b, i, m, plain, m.checksum, OP.checksum, "checksum", 42, encChecksum);
  if (i < 0) return -1;
  v = m.producerId;
  if (has(m, plain, v, OP.producerId, "producerId")) {
    i = putStr(b, i, 50, v);
    if (i < 0) return -1;
  }
  v = m.epoch;
  if (has(m, plain, v, OP.epoch, "epoch")) {
    i = putU64(b, i, 56, v);
    if (i < 0) return -1;
  }
  v = m.location;
  if (has(m, plain, v, OP.location, "location")) {
    i = putBytes(b, i, 66, v);
    if (i < 0) return -1;
  }
  return hasUnknowns(m, plain) ? -1 : i;
}

function encStored(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  i = putMsg(b, i, m, plain, m.item, OP.item, "item", 10, encItemDescriptor);
  if (i < 0) return -1;
  return hasUnknowns(m, plain) ? -1 : i;
}

function encRemoved(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  i = putMsg(b, i, m, plain, m.key, OP.key, "key", 10, encItemKey);
  if (i < 0) return -1;
  const v = m.cause;
  if (has(m, plain, v, OP.cause, "cause")) {
    i = putI32(b, i, 16, v);
    if (i < 0) return -1;
  }
  return hasUnknowns(m, plain) ? -1 : i;
}

function encCleared(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  const v = m.cause;
  if (has(m, plain, v, OP.cause, "cause")) {
    i = putI32(b, i, 8, v);
    if (i < 0) return -1;
  }
  return hasUnknowns(m, plain) ? -1 : i;
}

function encEvent(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  i = putMsg(b, i, m, plain, m.stored, OP.stored, "stored", 10, encStored);
  if (i < 0) return -1;
  i = putMsg(b, i, m, plain, m.removed, OP.removed, "removed", 18, encRemoved);
  if (i < 0) return -1;
  i = putMsg(b, i, m, plain, m.cleared, OP.cleared, "cleared", 26, encCleared);
  if (i < 0) return -1;
  return hasUnknowns(m, plain) ? -1 : i;
}

function encReadRequest(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  let v = m.attemptId;
  if (has(m, plain, v, OP.attemptId, "attemptId")) {
    i = putU64(b, i, 8, v);
    if (i < 0) return -1;
  }
  i = putMsg(b, i, m, plain, m.key, OP.key, "key", 18, encItemKey);
  if (i < 0) return -1;
  v = m.expectedEpoch;
  if (has(m, plain, v, OP.expectedEpoch, "expectedEpoch")) {
    i = putU64(b, i, 24, v);
    if (i < 0) return -1;
  }
  v = m.expectedSizeBytes;
  if (has(m, plain, v, OP.expectedSizeBytes, "expectedSizeBytes")) {
    i = putU64(b, i, 32, v);
    if (i < 0) return -1;
  }
  return hasUnknowns(m, plain) ? -1 : i;
}

function encReadGrant(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  let v = m.attemptId;
  if (has(m, plain, v, OP.attemptId, "attemptId")) {
    i = putU64(b, i, 8, v);
    if (i < 0) return -1;
  }
  v = m.grantId;
  if (has(m, plain, v, OP.grantId, "grantId")) {
    i = putU64(b, i, 16, v);
    if (i < 0) return -1;
  }
  i = putMsg(b, i, m, plain, m.item, OP.item, "item", 26, encItemDescriptor);
  if (i < 0) return -1;
  v = m.leaseMs;
  if (has(m, plain, v, OP.leaseMs, "leaseMs")) {
    i = putU32(b, i, 32, v);
    if (i < 0) return -1;
  }
  return hasUnknowns(m, plain) ? -1 : i;
}

function encReadReject(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  let v = m.attemptId;
  if (has(m, plain, v, OP.attemptId, "attemptId")) {
    i = putU64(b, i, 8, v);
    if (i < 0) return -1;
  }
  v = m.reason;
  if (has(m, plain, v, OP.reason, "reason")) {
    i = putI32(b, i, 16, v);
    if (i < 0) return -1;
  }
  v = m.retryable;
  if (has(m, plain, v, OP.retryable, "retryable")) {
    i = putBool(b, i, 24, v);
    if (i < 0) return -1;
  }
  v = m.retryAfterMs;
  if (has(m, plain, v, OP.retryAfterMs, "retryAfterMs")) {
    i = putU32(b, i, 32, v);
    if (i < 0) return -1;
  }
  v = m.detail;
  if (has(m, plain, v, OP.detail, "detail")) {
    i = putStr(b, i, 42, v);
    if (i < 0) return -1;
  }
  return hasUnknowns(m, plain) ? -1 : i;
}

function encReadComplete(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  let v = m.grantId;
  if (has(m, plain, v, OP.grantId, "grantId")) {
    i = putU64(b, i, 8, v);
    if (i < 0) return -1;
  }
  v = m.status;
  if (has(m, plain, v, OP.status, "status")) {
    i = putI32(b, i, 16, v);
    if (i < 0) return -1;
  }
  v = m.detail;
  if (has(m, plain, v, OP.detail, "detail")) {
    i = putStr(b, i, 26, v);
    if (i < 0) return -1;
  }
  return hasUnknowns(m, plain) ? -1 : i;
}

function encHeartbeat(b: Uint8Array, i: number, m: Obj): number {
  const plain = isPlain(m);
  const v = m.sequence;
  if (has(m, plain, v, OP.sequence, "sequence")) {
    i = putU64(b, i, 8, v);
    if (i < 0) return -1;
  }
  return hasUnknowns(m, plain) ? -1 : i;
}

function encEnvelope(b: Uint8Array, start: number, m: Obj): number {
  const plain = isPlain(m);
  let i = putMsg(b, start, m, plain, m.version, OP.version, "version", 10, encSpecVersion);
  if (i < 0) return -1;
  let v = m.senderId;
  if (has(m, plain, v, OP.senderId, "senderId")) {
    i = putStr(b, i, 18, v);
    if (i < 0) return -1;
  }
  v = m.senderEpoch;
  if (has(m, plain, v, OP.senderEpoch, "senderEpoch")) {
    i = putU64(b, i, 24, v);
    if (i < 0) return -1;
  }
  // Bodies in field order (10..22), as the generated encoder writes every one present.
  // A body without a fast encoder declines, present as own property or not.
  if (m.hello != null || m.handshakeReject != null) return -1;
  i = putMsg(b, i, m, plain, m.readRequest, OP.readRequest, "readRequest", 98, encReadRequest);
  if (i < 0) return -1;
  i = putMsg(b, i, m, plain, m.readGrant, OP.readGrant, "readGrant", 106, encReadGrant);
  if (i < 0) return -1;
  i = putMsg(b, i, m, plain, m.readReject, OP.readReject, "readReject", 114, encReadReject);
  if (i < 0) return -1;
  i = putMsg(b, i, m, plain, m.readComplete, OP.readComplete, "readComplete", 122, encReadComplete);
  if (i < 0) return -1;
  i = putMsg(b, i, m, plain, m.heartbeat, OP.heartbeat, "heartbeat", 130, encHeartbeat);
  if (i < 0) return -1;
  if (
    m.eventBatch != null ||
    m.replayRequest != null ||
    m.replayUnavailable != null ||
    m.snapshotRequest != null ||
    m.snapshot != null ||
    m.announcement != null
  )
    return -1;
  return hasUnknowns(m, plain) ? -1 : i;
}

/**
 * The bytes `ectp.v1.Envelope.encode(envelope).finish()` would return, or `undefined` when
 * the envelope is outside the fast subset (see the module comment). A throwing getter
 * propagates, as it would from the generated encoder.
 * @internal
 */
export function fastEncodeEnvelope(envelope: unknown): Uint8Array | undefined {
  if (PBBuffer === null || encoding || envelope === null || typeof envelope !== "object") return undefined;
  encoding = true;
  try {
    let b = slab;
    let start = slabUsed;
    if (start + SLAB_ROOM > b.length) {
      b = newSlab();
      slab = b;
      start = 0;
    }
    const end = encEnvelope(b, start, envelope as Obj);
    if (end < 0) return undefined;
    slabUsed = (end + 7) & ~7;
    // BufferWriter.finish returns a Buffer of exactly the message: so does this (a view, no copy).
    return PBBuffer.from(b.buffer, start, end - start);
  } finally {
    encoding = false;
  }
}

/** Where length-only encodes write (never handed out); larger messages decline. */
const lengthScratch = new Uint8Array(4096);

/** Encoded length of `m` by `enc`, or -1 to decline (outside the fast subset, or re-entrant). */
function encodedLength(enc: Enc, m: unknown): number {
  if (encoding || m === null || typeof m !== "object") return -1;
  encoding = true;
  try {
    return enc(lengthScratch, 0, m as Obj);
  } finally {
    encoding = false;
  }
}

/**
 * The length of `ectp.v1.Event.encode(event).finish()`, or -1 when the event is outside the
 * fast subset (the caller then asks the generated encoder).
 * @internal
 */
export function fastEventLength(event: unknown): number {
  return encodedLength(encEvent, event);
}

/**
 * The length of `ectp.v1.ItemDescriptor.encode(descriptor).finish()`, or -1 (see
 * {@link fastEventLength}).
 * @internal
 */
export function fastItemDescriptorLength(descriptor: unknown): number {
  return encodedLength(encItemDescriptor, descriptor);
}

// ------------------------------------------------------------------------------ decode

/** The input being decoded, and what its byte-field views are (see {@link bytesField}). */
let src: Uint8Array = new Uint8Array(0);
const BUFFER = 0;
const PLAIN = 1;
const OTHER = 2;
let kind = OTHER;
let q = 0;
/** Set while a decode runs (a re-entrant call declines instead of sharing the cursor). */
let decoding = false;

/**
 * A varint of at most `max` bytes ending before `end`, or -1 (decline). Up to seven bytes
 * the value (< 2^49) is exact; the eighth adds once more, so an 8-byte value is the one
 * rounding of the true value to a double, as LongBits.toNumber's `lo + hi * 2^32` is.
 */
function rv(end: number, max: number): number {
  let v = 0;
  let scale = 1;
  for (let i = 0; i < max; i++) {
    if (q >= end) return -1;
    const b = src[q++] as number;
    v += (b & 127) * scale;
    if (b < 128) return v;
    scale *= 128;
  }
  return -1;
}

/**
 * A uint32 varint as Reader.uint32 reads it: up to five bytes, the fifth contributing its
 * low four bits (`<< 28 >>> 0`). A fifth byte with its continuation bit set (Reader.uint32
 * would read on) declines: -1. int32 fields apply `| 0` to the result, as Reader.int32 does.
 */
function rv32(end: number): number {
  let v = 0;
  let scale = 1;
  for (let i = 0; i < 4; i++) {
    if (q >= end) return -1;
    const b = src[q++] as number;
    v += (b & 127) * scale;
    if (b < 128) return v;
    scale *= 128;
  }
  if (q >= end) return -1;
  const b = src[q++] as number;
  if (b >= 128) return -1;
  return v + (b & 15) * 268435456;
}

/** End of a length-delimited field that starts at the cursor, or -1 when it overruns `end`. */
function delimited(end: number): number {
  const n = rv(end, 4);
  if (n < 0 || q + n > end) return -1;
  return q + n;
}

/**
 * A byte field's value: a view of the input, as Reader.bytes makes it. BufferReader slices
 * a Buffer with Buffer.prototype.slice, which is `new FastBuffer(buffer, byteOffset + start,
 * length)`: Buffer.from(arrayBuffer, offset, length) builds the same view without the
 * argument normalisation. A plain Uint8Array (its constructor Uint8Array) gets
 * `subarray`'s result built directly too; any other Uint8Array subclass calls its own
 * `subarray`, as Reader does. (Built-ins are assumed unpatched.)
 */
function bytesField(end: number): Uint8Array | undefined {
  const e = delimited(end);
  if (e < 0) return undefined;
  const s = q;
  q = e;
  if (kind === BUFFER) return (PBBuffer as typeof Buffer).from(src.buffer, src.byteOffset + s, e - s);
  if (kind === PLAIN) return new Uint8Array(src.buffer, src.byteOffset + s, e - s);
  return src.subarray(s, e);
}

/** Recently decoded strings (ids, details): a hit reuses one flat string, checked byte by byte. */
const STRINGS = 64;
const stringCache: string[] = new Array<string>(STRINGS).fill("");

/** An ASCII string field, or undefined (decline) for a non-ASCII or overrunning one. */
function stringField(end: number): string | undefined {
  const e = delimited(end);
  if (e < 0 || e - q > 4096) return undefined;
  const s = q;
  const n = e - s;
  let h = n;
  for (let i = s; i < e; i++) {
    const c = src[i] as number;
    if (c >= 128) return undefined;
    h = Math.imul(h ^ c, 0x01000193);
  }
  q = e;
  if (n === 0) return "";
  const slot = (h ^ (h >>> 15)) & (STRINGS - 1);
  const cached = stringCache[slot] as string;
  if (cached.length === n) {
    let i = 0;
    while (i < n && cached.charCodeAt(i) === src[s + i]) i++;
    if (i === n) return cached;
  }
  const str = String.fromCharCode.apply(null, src.subarray(s, e) as unknown as number[]);
  stringCache[slot] = str;
  return str;
}

/** Reads the next tag; -1 when it is absent, too long, or not after `last` (fields ascend). */
function nextField(end: number, last: number): number {
  const t = rv(end, 2);
  if (t < 0 || t >>> 3 <= last) return -1;
  return t;
}

function decSpecVersion(end: number): ectp.v1.SpecVersion | undefined {
  const m = new V.SpecVersion();
  let last = 0;
  while (q < end) {
    const t = nextField(end, last);
    last = t >>> 3;
    if (t === 8 || t === 16) {
      const v = rv32(end);
      if (v < 0) return undefined;
      if (v !== 0) {
        if (t === 8) m.major = v;
        else m.minor = v;
      }
    } else return undefined;
  }
  return m;
}

function decFingerprint(end: number): ectp.v1.Fingerprint | undefined {
  const m = new V.Fingerprint();
  let last = 0;
  while (q < end) {
    const t = nextField(end, last);
    last = t >>> 3;
    if (t === 10) {
      const s = stringField(end);
      if (s === undefined) return undefined;
      if (s.length) m.model = s;
    } else if (t === 16 || t === 24 || t === 32) {
      let v = rv32(end);
      if (v < 0) return undefined;
      if (t === 16) v |= 0; // int32
      if (v !== 0) {
        if (t === 16) m.dtype = v;
        else if (t === 24) m.rowBytes = v;
        else m.layoutVersion = v;
      }
    } else return undefined;
  }
  return m;
}

function decItemKey(end: number): ectp.v1.ItemKey | undefined {
  const m = new V.ItemKey();
  let last = 0;
  while (q < end) {
    const t = nextField(end, last);
    last = t >>> 3;
    if (t === 10) {
      const b = bytesField(end);
      if (b === undefined) return undefined;
      if (b.length) m.contentHash = b;
    } else if (t === 18) {
      const e = delimited(end);
      if (e < 0) return undefined;
      const f = decFingerprint(e);
      if (f === undefined) return undefined;
      m.fingerprint = f;
    } else return undefined;
  }
  return m;
}

function decChecksum(end: number): ectp.v1.Checksum | undefined {
  const m = new V.Checksum();
  let last = 0;
  while (q < end) {
    const t = nextField(end, last);
    last = t >>> 3;
    if (t === 8) {
      const v = rv32(end);
      if (v < 0) return undefined;
      if (v | 0) m.algorithm = v | 0; // int32
    } else if (t === 18) {
      const b = bytesField(end);
      if (b === undefined) return undefined;
      if (b.length) m.value = b;
    } else return undefined;
  }
  return m;
}

function decItemDescriptor(end: number): ectp.v1.ItemDescriptor | undefined {
  const m = new V.ItemDescriptor();
  let last = 0;
  while (q < end) {
    const t = nextField(end, last);
    last = t >>> 3;
    switch (t) {
      case 10: {
        const e = delimited(end);
        if (e < 0) return undefined;
        const k = decItemKey(e);
        if (k === undefined) return undefined;
        m.key = k;
        break;
      }
      case 16:
      case 56: {
        const v = rv(end, 8);
        if (v < 0) return undefined;
        if (v !== 0) {
          if (t === 16) m.sizeBytes = v;
          else m.epoch = v;
        }
        break;
      }
      case 24: {
        const v = rv32(end);
        if (v < 0) return undefined;
        if (v | 0) m.dtype = v | 0; // int32
        break;
      }
      case 34: {
        // Packed shape only (the unpacked form declines).
        const e = delimited(end);
        if (e < 0) return undefined;
        const shape: number[] = [];
        while (q < e) {
          if (shape.length === MAX_REPEATED_ELEMENTS) return undefined; // the generated decoder refuses it
          const v = rv(e, 8);
          if (v < 0) return undefined;
          shape.push(v);
        }
        m.shape = shape;
        break;
      }
      case 42: {
        const e = delimited(end);
        if (e < 0) return undefined;
        const c = decChecksum(e);
        if (c === undefined) return undefined;
        m.checksum = c;
        break;
      }
      case 50: {
        const s = stringField(end);
        if (s === undefined) return undefined;
        if (s.length) m.producerId = s;
        break;
      }
      case 66: {
        const b = bytesField(end);
        if (b === undefined) return undefined;
        if (b.length) m.location = b;
        break;
      }
      default:
        return undefined;
    }
  }
  return m;
}

function decReadRequest(end: number): ectp.v1.ReadRequest | undefined {
  const m = new V.ReadRequest();
  let last = 0;
  while (q < end) {
    const t = nextField(end, last);
    last = t >>> 3;
    if (t === 8 || t === 24 || t === 32) {
      const v = rv(end, 8);
      if (v < 0) return undefined;
      if (v !== 0) {
        if (t === 8) m.attemptId = v;
        else if (t === 24) m.expectedEpoch = v;
        else m.expectedSizeBytes = v;
      }
    } else if (t === 18) {
      const e = delimited(end);
      if (e < 0) return undefined;
      const k = decItemKey(e);
      if (k === undefined) return undefined;
      m.key = k;
    } else return undefined;
  }
  return m;
}

function decReadGrant(end: number): ectp.v1.ReadGrant | undefined {
  const m = new V.ReadGrant();
  let last = 0;
  while (q < end) {
    const t = nextField(end, last);
    last = t >>> 3;
    if (t === 8 || t === 16) {
      const v = rv(end, 8);
      if (v < 0) return undefined;
      if (v !== 0) {
        if (t === 8) m.attemptId = v;
        else m.grantId = v;
      }
    } else if (t === 26) {
      const e = delimited(end);
      if (e < 0) return undefined;
      const d = decItemDescriptor(e);
      if (d === undefined) return undefined;
      m.item = d;
    } else if (t === 32) {
      const v = rv32(end);
      if (v < 0) return undefined;
      if (v !== 0) m.leaseMs = v;
    } else return undefined;
  }
  return m;
}

function decReadReject(end: number): ectp.v1.ReadReject | undefined {
  const m = new V.ReadReject();
  let last = 0;
  while (q < end) {
    const t = nextField(end, last);
    last = t >>> 3;
    if (t === 8) {
      const v = rv(end, 8);
      if (v < 0) return undefined;
      if (v !== 0) m.attemptId = v;
    } else if (t === 16 || t === 32) {
      let v = rv32(end);
      if (v < 0) return undefined;
      if (t === 16) v |= 0; // int32
      if (v !== 0) {
        if (t === 16) m.reason = v;
        else m.retryAfterMs = v;
      }
    } else if (t === 24) {
      // One byte, 0 or 1 (Reader.bool reads any varint; longer forms decline).
      if (q >= end) return undefined;
      const b = src[q++] as number;
      if (b > 1) return undefined;
      if (b === 1) m.retryable = true;
    } else if (t === 42) {
      const s = stringField(end);
      if (s === undefined) return undefined;
      if (s.length) m.detail = s;
    } else return undefined;
  }
  return m;
}

function decReadComplete(end: number): ectp.v1.ReadComplete | undefined {
  const m = new V.ReadComplete();
  let last = 0;
  while (q < end) {
    const t = nextField(end, last);
    last = t >>> 3;
    if (t === 8) {
      const v = rv(end, 8);
      if (v < 0) return undefined;
      if (v !== 0) m.grantId = v;
    } else if (t === 16) {
      const v = rv32(end);
      if (v < 0) return undefined;
      if (v | 0) m.status = v | 0; // int32
    } else if (t === 26) {
      const s = stringField(end);
      if (s === undefined) return undefined;
      if (s.length) m.detail = s;
    } else return undefined;
  }
  return m;
}

function decHeartbeat(end: number): ectp.v1.Heartbeat | undefined {
  const m = new V.Heartbeat();
  let last = 0;
  while (q < end) {
    const t = nextField(end, last);
    last = t >>> 3;
    if (t !== 8) return undefined;
    const v = rv(end, 8);
    if (v < 0) return undefined;
    if (v !== 0) m.sequence = v;
  }
  return m;
}

function decEnvelope(end: number): ectp.v1.Envelope | undefined {
  const m = new V.Envelope();
  let last = 0;
  let body = false;
  while (q < end) {
    const t = nextField(end, last);
    last = t >>> 3;
    if (t === 10) {
      const e = delimited(end);
      if (e < 0) return undefined;
      const v = decSpecVersion(e);
      if (v === undefined) return undefined;
      m.version = v;
    } else if (t === 18) {
      const s = stringField(end);
      if (s === undefined) return undefined;
      if (s.length) m.senderId = s;
    } else if (t === 24) {
      const v = rv(end, 8);
      if (v < 0) return undefined;
      if (v !== 0) m.senderEpoch = v;
    } else {
      // One body at most: the generated decoder's oneof setter would drop an earlier one.
      if (body) return undefined;
      body = true;
      const e = t === 98 || t === 106 || t === 114 || t === 122 || t === 130 ? delimited(end) : -1;
      if (e < 0) return undefined;
      // The oneof setter (`message.body = name`) only deletes the other members, which a
      // fresh envelope does not have: assigning the member alone gives the same object.
      if (t === 98) {
        const b = decReadRequest(e);
        if (b === undefined) return undefined;
        m.readRequest = b;
      } else if (t === 106) {
        const b = decReadGrant(e);
        if (b === undefined) return undefined;
        m.readGrant = b;
      } else if (t === 114) {
        const b = decReadReject(e);
        if (b === undefined) return undefined;
        m.readReject = b;
      } else if (t === 122) {
        const b = decReadComplete(e);
        if (b === undefined) return undefined;
        m.readComplete = b;
      } else {
        const b = decHeartbeat(e);
        if (b === undefined) return undefined;
        m.heartbeat = b;
      }
    }
  }
  return m;
}

/**
 * The envelope `ectp.v1.Envelope.decode(bytes)` would return, or `undefined` when the
 * bytes are outside the fast subset (see the module comment), malformed ones
 * included. Never throws.
 * @internal
 */
export function fastDecodeEnvelope(bytes: Uint8Array): ectp.v1.Envelope | undefined {
  if (PBBuffer === null || decoding || !(bytes instanceof Uint8Array)) return undefined;
  decoding = true;
  try {
    // Inside the try: a hostile view's getters (constructor, length) must not leave `decoding` set.
    src = bytes;
    kind = PBBuffer.isBuffer(bytes) ? BUFFER : bytes.constructor === Uint8Array ? PLAIN : OTHER;
    q = 0;
    return decEnvelope(bytes.length);
  } catch {
    return undefined;
  } finally {
    src = EMPTY;
    decoding = false;
  }
}

const EMPTY = new Uint8Array(0);

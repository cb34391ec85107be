/**
 * Validation of descriptors and keys [C2], shared by every role.
 *
 * Everything here takes untrusted input (decoded from a peer, or built by an
 * orchestrator from JSON) and returns a result; nothing throws.
 * @module
 */
import { types } from "node:util";
import { markAsUntransferable } from "node:worker_threads";
import { ectp } from "./gen/ectp.js";
import { EctpError, describeValue as describe } from "./errors.js";
import { MAX_SHAPE_DIMS } from "./limits.js";

/**
 * Bytes per element of each known dtype; `undefined` for UNSPECIFIED and unknown values.
 * A lookup table indexed by the enum value (validate.test.ts checks every ectp.v1.Dtype
 * name against it), not a switch that loads the enum object for every case it tries.
 */
export function dtypeSize(dtype: number): number | undefined {
  // Only index values: "length" (or any other non-number from untyped JS) reads no array property.
  return typeof dtype === "number" ? DTYPE_SIZES[dtype] : undefined;
}

/**
 * Element size in bytes by ectp.v1.Dtype value: FLOAT32 (1) = 4, FLOAT16 (2) = 2, BFLOAT16 (3) = 2,
 * FLOAT8_E4M3 (4) = 1, FLOAT8_E5M2 (5) = 1, INT8 (6) = 1, UINT8 (7) = 1, INT32 (8) = 4, FLOAT64 (9) = 8.
 */
const DTYPE_SIZES: readonly (number | undefined)[] = Object.freeze([undefined, 4, 2, 2, 1, 1, 1, 1, 4, 8]);

/** A fingerprint with every field present, as compared field by field. */
export interface NormalizedFingerprint {
  /** Model identifier. */
  readonly model: string;
  /** Raw dtype value (unknown values kept as received). */
  readonly dtype: number;
  /** Bytes per row; 0 when not given. */
  readonly rowBytes: number;
  /** Layout version; 0 when not given. */
  readonly layoutVersion: number;
}

/** A checksum the consumer can verify. */
export interface NormalizedChecksum {
  /** The algorithm; only CRC32C exists in v1. */
  readonly algorithm: ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C;
  /** The expected CRC-32C as an unsigned 32-bit integer. */
  readonly crc32c: number;
}

/** A descriptor that passed {@link validateDescriptor}: every field present and well formed. */
export interface ValidDescriptor {
  /** Canonical string id of the key (see {@link itemKeyId}). */
  readonly keyId: string;
  /** The key's content hash. */
  readonly contentHash: Uint8Array;
  /** The key's fingerprint. */
  readonly fingerprint: NormalizedFingerprint;
  /** Size in bytes: a safe integer in [1, maxItemBytes]. */
  readonly sizeBytes: number;
  /** Raw dtype value. */
  readonly dtype: number;
  /** Shape (empty when not given). */
  readonly shape: readonly number[];
  /** Checksum to verify, when present. */
  readonly checksum?: NormalizedChecksum;
  /** Producer id (non-empty). */
  readonly producerId: string;
  /** Producer epoch (positive safe integer). */
  readonly epoch: number;
  /** Opaque transport location (possibly empty). */
  readonly location: Uint8Array;
}

/** Limits and expectations for {@link validateDescriptor}. */
export interface DescriptorLimits {
  /** Largest acceptable size in bytes [C2]. */
  readonly maxItemBytes: number;
  /**
   * The descriptor's fingerprint must equal it [C2] (field by field, an absent field as its default).
   * `null` is a fingerprint too: the descriptor's must then be the all-default one. Only `undefined`
   * (or leaving it out) skips the check.
   */
  readonly fingerprint?: ectp.v1.IFingerprint | null | undefined;
}

/** Outcome of a validation: the valid value, or one typed error naming what was wrong. */
export type Validation<T> =
  | {
      /** True: the input was valid. */
      readonly ok: true;
      /** The validated, normalised value. */
      readonly value: T;
    }
  | {
      /** False: the input was invalid. */
      readonly ok: false;
      /** What was wrong and what to do, as a typed error (never thrown). */
      readonly error: EctpError;
    };

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * Scratch arrays for {@link buildKeyId}, one per hash length (index = length): the hex pairs,
 * then the suffix, joined once. `join` writes one flat string; building it with `+=` left
 * a rope of ~18 parts that every Map lookup had to flatten before hashing.
 */
const KEY_PARTS: string[][] = [];

/**
 * One-entry cache of the last fingerprint's key-id suffix, compared by value (so a mutated
 * fingerprint object can never get a stale suffix). Peers use one fingerprint almost always.
 */
let suffixModel = "";
let suffixDtype = 0;
let suffixRowBytes = 0;
let suffixLayoutVersion = 0;
let suffix = '|""|0|0|0';

/** `|"model"|dtype|rowBytes|layoutVersion`, the fingerprint part of a key id, from checked fields. */
function suffixOf(model: string, dtype: number, rowBytes: number, layoutVersion: number): string {
  if (
    model !== suffixModel ||
    dtype !== suffixDtype ||
    rowBytes !== suffixRowBytes ||
    layoutVersion !== suffixLayoutVersion
  ) {
    suffix = `|${JSON.stringify(model)}|${dtype}|${rowBytes}|${layoutVersion}`;
    suffixModel = model;
    suffixDtype = dtype;
    suffixRowBytes = rowBytes;
    suffixLayoutVersion = layoutVersion;
  }
  return suffix;
}

/** The key-id suffix of a normalised fingerprint. */
function keySuffix(f: NormalizedFingerprint): string {
  return suffixOf(f.model, f.dtype, f.rowBytes, f.layoutVersion);
}

/*
 * Key-id cache: 8-way set associative, KEY_CACHE_SETS sets chosen by keyCacheHash of the
 * content hash, round-robin replacement within a set. A slot holds that 32-bit hash as a
 * tag, a copy of the hash bytes (hashes up to KEY_CACHE_MAX_BYTES), the suffix and the id
 * built from them; a hit needs an equal tag, the same bytes, compared by value now, and
 * the same suffix, so a reused or mutated Uint8Array can never get a stale id. Why:
 * building the hex string costs more than anything else in a key lookup, and a fresh
 * string must be hashed again by every Map it is looked up in; a cached id is the same
 * string object every time, its hash computed once. The tags let a lookup skip the other
 * keys of its set without reading their bytes. Bounded: 128 KiB of byte copies, allocated on
 * first use, and strings of at most KEY_CACHE_MAX_SUFFIX characters of suffix each (under 5 MiB
 * in all, some 600 KiB for the usual short model names); a miss costs one rebuild.
 */
const KEY_CACHE_SETS = 512;
const KEY_CACHE_WAYS = 8;
const KEY_CACHE_SLOTS = KEY_CACHE_SETS * KEY_CACHE_WAYS;
const KEY_CACHE_MAX_BYTES = 32;
/**
 * [I4] The longest key-id suffix (the fingerprint part: model name in quotes, dtype, row bytes,
 * layout version) whose ids are cached. The cache is the process's, shared by every core, and no
 * receiver's bound covers it: a peer sending keys of distinct hashes with long models (a frame
 * allows models of megabytes) filled its 4,096 slots with ids of that length, a gigabyte kept after
 * the peer's state was gone. Real model names are far shorter; a longer one's id is built each time.
 */
const KEY_CACHE_MAX_SUFFIX = 256;
/** 32-bit words per slot in {@link keyCacheWords}. */
const KEY_CACHE_SLOT_WORDS = KEY_CACHE_MAX_BYTES / 4;
/**
 * Per slot: the hash bytes as little-endian 32-bit words (see {@link hashWord}), the last one
 * zero-padded; with the lengths equal, equal words mean equal bytes. Compared a word at a time:
 * a byte-at-a-time loop over two typed arrays cost several times as many instructions.
 */
let keyCacheWords: Int32Array | undefined;
/** Per slot: the tag at 2 * slot, the hash length at 2 * slot + 1 (a set's eight in one cache line). */
const keyCacheMeta = new Int32Array(KEY_CACHE_SLOTS * 2);
const keyCacheVictim = new Uint8Array(KEY_CACHE_SETS);
/** Per slot: the suffix at 2 * slot, the id at 2 * slot + 1 (read together on a hit). */
const keyCacheText: string[] = new Array<string>(KEY_CACHE_SLOTS * 2).fill("");

/**
 * The cache hash of a content hash (a signed 32-bit integer; its low bits pick the set).
 * Hashes shorter than 8 bytes: FNV-1a of every byte. Longer ones: three 4-byte words
 * (first, middle, last) mixed murmur3-style, which is enough to spread content hashes
 * (digests) and reads far fewer bytes. A family of keys that differ only in unsampled bytes
 * shares a set and a tag: slower (rebuilt ids), never wrong, since a hit compares every
 * byte. Exported for tests only (not part of the package's API).
 * @internal
 */
export function keyCacheHash(hash: Uint8Array, n: number): number {
  let h: number;
  if (n < 8) {
    h = 0x811c9dc5;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ (hash[i] as number), 0x01000193);
  } else {
    const m = (n >> 1) - 2;
    const e = n - 4;
    // Each word multiplied and folded, so every input bit reaches the low bits.
    h = Math.imul(((hash[0] as number) | ((hash[1] as number) << 8) | ((hash[2] as number) << 16) | ((hash[3] as number) << 24)) ^ n, 0xcc9e2d51);
    h ^= h >>> 15;
    h = Math.imul(h ^ ((hash[m] as number) | ((hash[m + 1] as number) << 8) | ((hash[m + 2] as number) << 16) | ((hash[m + 3] as number) << 24)), 0x1b873593);
    h ^= h >>> 13;
    h = Math.imul(h ^ ((hash[e] as number) | ((hash[e + 1] as number) << 8) | ((hash[e + 2] as number) << 16) | ((hash[e + 3] as number) << 24)), 0xcc9e2d51);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

/** Bytes `i .. i + 3` of an `n`-byte hash as a little-endian 32-bit word (bytes past `n` read as 0). */
function hashWord(hash: Uint8Array, i: number, n: number): number {
  if (i + 4 <= n)
    return (hash[i] as number) | ((hash[i + 1] as number) << 8) | ((hash[i + 2] as number) << 16) | ((hash[i + 3] as number) << 24);
  let w = 0;
  for (let k = 0; i + k < n; k++) w |= (hash[i + k] as number) << (8 * k);
  return w;
}

/** The key id of a checked 1-64 byte hash and a key-id suffix, as one flat string. */
function keyIdOf(hash: Uint8Array, sfx: string): string {
  const n = hash.length;
  if (n > KEY_CACHE_MAX_BYTES || sfx.length > KEY_CACHE_MAX_SUFFIX) return buildKeyId(hash, sfx); // [I4]
  const tag = keyCacheHash(hash, n);
  const set = tag & (KEY_CACHE_SETS - 1);
  let words = keyCacheWords;
  if (words === undefined) {
    words = new Int32Array(KEY_CACHE_SLOTS * KEY_CACHE_SLOT_WORDS);
    keyCacheWords = words;
  }
  const first = set * KEY_CACHE_WAYS;
  for (let slot = first; slot < first + KEY_CACHE_WAYS; slot++) {
    // A slot never filled has length 0, and no hash here is empty.
    if (keyCacheMeta[2 * slot] !== tag || keyCacheMeta[2 * slot + 1] !== n || keyCacheText[2 * slot] !== sfx) continue;
    const base = slot * KEY_CACHE_SLOT_WORDS;
    let i = 0;
    while (i < n && words[base + (i >> 2)] === hashWord(hash, i, n)) i += 4;
    if (i >= n) return keyCacheText[2 * slot + 1] as string;
  }
  const id = buildKeyId(hash, sfx);
  const way = keyCacheVictim[set] as number;
  keyCacheVictim[set] = (way + 1) & (KEY_CACHE_WAYS - 1);
  const slot = first + way;
  const base = slot * KEY_CACHE_SLOT_WORDS;
  for (let i = 0; i < n; i += 4) words[base + (i >> 2)] = hashWord(hash, i, n);
  keyCacheMeta[2 * slot] = tag;
  keyCacheMeta[2 * slot + 1] = n;
  keyCacheText[2 * slot] = sfx;
  keyCacheText[2 * slot + 1] = id;
  return id;
}

/**
 * The characters the key-id cache's strings hold (suffixes and ids, a suffix shared by slots counted
 * once per slot). Exported for tests only (not part of the package's API).
 * @internal
 */
export function keyCacheChars(): number {
  let chars = 0;
  for (const text of keyCacheText) chars += text.length;
  return chars;
}

/** Hex of the hash, then the suffix, joined into one flat string. */
function buildKeyId(hash: Uint8Array, sfx: string): string {
  const n = hash.length;
  let parts = KEY_PARTS[n];
  if (parts === undefined) {
    parts = new Array<string>(n + 1).fill("");
    KEY_PARTS[n] = parts;
  }
  for (let i = 0; i < n; i++) parts[i] = HEX[hash[i] as number] as string;
  parts[n] = sfx;
  const id = parts.join("");
  parts[n] = ""; // [I4] (the scratch keeps no model name: it may be long)
  return id;
}

/**
 * Whether a reader's result is its error. The readers here return either an `EctpError` or
 * a value that is never an `Error` (bytes, a string, a plain object), so the plain prototype
 * check suffices; `instanceof EctpError` would call its cross-realm `Symbol.hasInstance`.
 */
function isError<T>(v: T | EctpError): v is EctpError {
  return v instanceof Error;
}

/** `%TypedArray%.prototype[Symbol.toStringTag]`: a typed array's name (any realm), undefined for anything else; never throws. */
const typedArrayName = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag)?.get as (this: unknown) => string | undefined;

/**
 * Whether `v` is a Uint8Array (a Buffer included) of any realm: one made in a `node:vm` context is
 * no `instanceof Uint8Array` here, yet the encoders and `crc32c` take it.
 */
function isBytes(v: unknown): v is Uint8Array {
  return v instanceof Uint8Array || (ArrayBuffer.isView(v) && typedArrayName.call(v) === "Uint8Array");
}

/**
 * Whether `v` can be read as a message (an object of fields), as the encoders read one: an array or
 * bytes (a Uint8Array, any ArrayBuffer view, an ArrayBuffer) is none, though `typeof` says "object";
 * read as one, it would be a message of no fields (`checksum: crc32cBytes(data)` no checksum at all)
 * [C11]. Arrays and views of any realm are told by their internal slots; buffers by this realm's
 * constructors only (a cheap check on a hot path): where another realm's buffer would read as a
 * message of no fields (an all-default fingerprint, no checksum), {@link isForeignBuffer} is asked
 * too. Shared with the envelope encoder and the JSON reader (not exported from the package).
 */
export function isMessageObject(v: unknown): v is object {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v) && !isArrayBuffer(v);
}

/** Whether `v` is an ArrayBuffer or a SharedArrayBuffer (this realm's: a cheap check on a hot path), bytes with no view over them. */
function isArrayBuffer(v: object): boolean {
  return v instanceof ArrayBuffer || v instanceof SharedArrayBuffer;
}

/**
 * Whether `v`, an object {@link isMessageObject} passed, is an ArrayBuffer or a SharedArrayBuffer after
 * all: one of another realm (made in a `node:vm` context), which is no `instanceof ArrayBuffer` here.
 * This realm's objects were judged by its constructors already; only one outside its prototype chains
 * (another realm's, or of a null prototype) is asked its internal slot, which costs a call into the
 * runtime: call it only where `v` would otherwise read as a message of no fields, off the hot path.
 */
function isForeignBuffer(v: object): boolean {
  return !(v instanceof Object) && types.isAnyArrayBuffer(v);
}

/** The error for a message-typed field given something that is not an object of fields (see {@link isMessageObject}). */
function notAMessage(field: string, type: string, v: unknown, hint = ""): EctpError {
  return fail("INVALID_DESCRIPTOR", `${field} must be an object (${type}); got ${describe(v)}${hint}`, {}).error;
}

/** The last string {@link isWellFormed} passed: one producer id and one model come in every descriptor (checked per admit). */
let lastWellFormed = "";

/**
 * Whether `s` is well-formed UTF-16 (no lone surrogate): the wire carries strings as UTF-8, which
 * has no form for a lone surrogate, so the encoders refuse such a string. `String.prototype.isWellFormed`
 * (in every Node this package supports), which lib ES2022 does not declare.
 */
function isWellFormed(s: string): boolean {
  if (s === lastWellFormed) return true;
  if (!(s as string & { isWellFormed(): boolean }).isWellFormed()) return false;
  lastWellFormed = s;
  return true;
}

function isSafeNonNegative(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}

/**
 * A value the wire can carry in an enum field (int32), non-negative as the spec's enums are:
 * a larger one would come back as another value after encoding, and so another key id.
 */
function isEnumValue(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 0x7fffffff;
}

/** A value the wire can carry in a uint32 field (see {@link isEnumValue}). */
function isUint32(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
}

function allSafeNonNegative(a: readonly unknown[]): boolean {
  // A hole is no dimension (reading it gives undefined): the shape is invalid, as it would not encode.
  for (let i = 0; i < a.length; i++) if (!isSafeNonNegative(a[i])) return false;
  return true;
}

/**
 * The location of a descriptor without one, shared by every such result: frozen, and untransferable
 * (a caller transferring one result's location must not detach every later one's).
 */
const EMPTY_LOCATION: Uint8Array = Object.freeze(new Uint8Array(0));
markAsUntransferable(EMPTY_LOCATION.buffer);
/** The shape of a descriptor without one: frozen, so sharing it between results is safe. */
const EMPTY_SHAPE: readonly number[] = Object.freeze([]);
/** The refusal of a shape that is not a list of dimensions a JavaScript number holds exactly [C2] (SPEC.md section 3.8). */
const SHAPE_RANGE = "shape must be a list of integers in [0, 2^53 - 1]";

/**
 * One-entry cache of the last normalised fingerprint of {@link validateDescriptor}, compared
 * by value, so descriptors of one fingerprint (nearly all of them) share one frozen object
 * instead of allocating one per validation. Frozen: a shared value nobody can change.
 */
let lastFingerprint: NormalizedFingerprint = Object.freeze({ model: "", dtype: 0, rowBytes: 0, layoutVersion: 0 });

/** {@link readFingerprint} for validateDescriptor: the same checks and errors, the value shared (frozen). */
function readSharedFingerprint(fp: unknown): NormalizedFingerprint | EctpError {
  return readFingerprintWith(fp, sharedFingerprint, true);
}

/** The frozen normalised fingerprint of checked fields: the last one when equal, else a new last one. */
function sharedFingerprint(model: string, dtype: number, rowBytes: number, layoutVersion: number): NormalizedFingerprint {
  const l = lastFingerprint;
  if (l.model === model && l.dtype === dtype && l.rowBytes === rowBytes && l.layoutVersion === layoutVersion) return l;
  lastFingerprint = Object.freeze({ model, dtype, rowBytes, layoutVersion });
  return lastFingerprint;
}

/** Normalise a possibly absent fingerprint to all four fields. Non-conforming fields become an error. */
export function normalizeFingerprint(fp: unknown): Validation<NormalizedFingerprint> {
  try {
    const f = readFingerprint(fp);
    return isError(f) ? { ok: false, error: f } : { ok: true, value: f };
  } catch (cause) {
    // [I1] A hostile object (throwing getter, proxy) is a malformed fingerprint, never an exception.
    return fail("INVALID_DESCRIPTOR", "fingerprint could not be read", {}, cause);
  }
}

/** {@link normalizeFingerprint} without the result wrapper: the value, or the error. */
function readFingerprint(fp: unknown): NormalizedFingerprint | EctpError {
  return readFingerprintWith(fp, freshFingerprint, true);
}

/** A new normalised fingerprint of checked fields. */
function freshFingerprint(model: string, dtype: number, rowBytes: number, layoutVersion: number): NormalizedFingerprint {
  return { model, dtype, rowBytes, layoutVersion };
}

/** A fingerprint's type and fields, as the refusal of one that is no object of fields names them. */
const FINGERPRINT_TYPE = "ectp.v1.IFingerprint: model, dtype, rowBytes, layoutVersion";

/** What {@link readFingerprintWith} makes of a fingerprint's checked fields: a fresh or shared object, a key-id suffix. */
type FingerprintMaker<T> = (model: string, dtype: number, rowBytes: number, layoutVersion: number) => T;

/**
 * The one reading and check of a raw fingerprint, for every place that takes one (validateDescriptor's
 * key and expected fingerprint, itemKeyId, tryItemKeyId, normalizeFingerprint and fingerprintsEqual):
 * absent (`undefined`, `null`) means all-default; anything but an object of fields (an array or bytes,
 * of any realm) is refused; each field is read once, in the order model, dtype, rowBytes, layoutVersion
 * (absent or null as its default), then checked in that order. A well-formed one gives `make` of its
 * fields, built without an intermediate object. A malformed one gives the error naming the first
 * malformed field when `explain` is true, else `undefined` (for the callers that only need to know,
 * on hot paths: no error is built). Throws what a hostile object's reads throw; the callers catch it.
 */
function readFingerprintWith<T>(fp: unknown, make: FingerprintMaker<T>, explain: true): T | EctpError;
function readFingerprintWith<T>(fp: unknown, make: FingerprintMaker<T>, explain: false): T | undefined;
function readFingerprintWith<T>(fp: unknown, make: FingerprintMaker<T>, explain: boolean): T | EctpError | undefined {
  if (fp === undefined || fp === null) return make("", 0, 0, 0);
  // [C2] An array or bytes would read as the all-default fingerprint, and so as another item's key.
  if (typeof fp !== "object" || !isMessageObject(fp))
    return explain ? notAMessage("fingerprint", FINGERPRINT_TYPE, fp) : undefined;
  const f = fp as Record<string, unknown>;
  const model = f.model ?? "";
  const dtype = f.dtype ?? 0;
  const rowBytes = f.rowBytes ?? 0;
  const layoutVersion = f.layoutVersion ?? 0;
  // [C2] Another realm's ArrayBuffer passed isMessageObject and has no fields: the all-default fingerprint,
  // and so another item's key, unless refused as this realm's is. Asked only of an all-default reading
  // (the first comparison fails for any fingerprint with a model), so the hot path pays nothing for it.
  if (model === "" && dtype === 0 && rowBytes === 0 && layoutVersion === 0 && isForeignBuffer(fp))
    return explain ? notAMessage("fingerprint", FINGERPRINT_TYPE, fp) : undefined;
  if (typeof model !== "string") return refuseField(explain, "fingerprint.model must be a string", model);
  // A key the encoders refuse to send is no key: one judged valid here can always be sent. (The model
  // of the cached key-id suffix passed this check already: the usual one is not looked at again.)
  if (model !== suffixModel && !isWellFormed(model))
    return refuseField(explain, "fingerprint.model must be well-formed UTF-16 (no lone surrogate, which UTF-8 cannot carry)", model);
  if (!isEnumValue(dtype)) return refuseField(explain, "fingerprint.dtype must be a Dtype enum value (an integer in [0, 2^31))", dtype);
  if (!isUint32(rowBytes)) return refuseField(explain, "fingerprint.rowBytes must be a uint32 (an integer in [0, 2^32))", rowBytes);
  if (!isUint32(layoutVersion)) return refuseField(explain, "fingerprint.layoutVersion must be a uint32 (an integer in [0, 2^32))", layoutVersion);
  return make(model, dtype, rowBytes, layoutVersion);
}

/** {@link readFingerprintWith}'s refusal of a field: the error `<rule>; got <the value>` when `explain`, else `undefined`. */
function refuseField(explain: boolean, rule: string, got: unknown): EctpError | undefined {
  return explain ? fail("INVALID_DESCRIPTOR", `${rule}; got ${describe(got)}`, {}).error : undefined;
}

/**
 * The key-id suffix of a raw fingerprint, checked exactly as {@link readFingerprint} checks
 * it (same reads, same errors) but without building the normalised object.
 */
function readSuffix(fp: unknown): string | EctpError {
  return readFingerprintWith(fp, suffixOf, true);
}

/**
 * Whether two fingerprints are the same (field by field; absent equals all-default). False when
 * either is malformed (one that {@link normalizeFingerprint} refuses), even two identical malformed ones.
 */
export function fingerprintsEqual(a: unknown, b: unknown): boolean {
  const x = normalizeFingerprint(a);
  const y = normalizeFingerprint(b);
  if (!x.ok || !y.ok) return false;
  return (
    x.value.model === y.value.model &&
    x.value.dtype === y.value.dtype &&
    x.value.rowBytes === y.value.rowBytes &&
    x.value.layoutVersion === y.value.layoutVersion
  );
}

/**
 * Canonical string id of an item key: hex content hash, then the fingerprint fields.
 * Two keys have the same id exactly when they name the same item. Returns an error for
 * a key without a 1-64 byte content hash or with a malformed fingerprint (a key or fingerprint
 * given as an array or as bytes, a model with a lone surrogate, which no encoder sends, included).
 */
export function itemKeyId(key: unknown): Validation<string> {
  try {
    const hash = readHash(key);
    if (isError(hash)) return { ok: false, error: hash };
    const sfx = readSuffix((key as Record<string, unknown>).fingerprint);
    if (isError(sfx)) return { ok: false, error: sfx };
    return { ok: true, value: keyIdOf(hash, sfx) };
  } catch (cause) {
    // [I1] A hostile object (throwing getter, proxy) is a malformed key, never an exception.
    return fail("INVALID_DESCRIPTOR", "item key could not be read", {}, cause);
  }
}

/**
 * {@link itemKeyId} for hot paths: the same id when the key is valid, `undefined` when
 * `itemKeyId` would return an error (call it then for the error). Allocates nothing when
 * the id is cached, which it is for keys seen recently (put, announced or requested).
 */
export function tryItemKeyId(key: unknown): string | undefined {
  try {
    return tryItemKeyIdUnsafe(key);
  } catch {
    return undefined; // [I1] a hostile object: itemKeyId reports it as an error
  }
}

function tryItemKeyIdUnsafe(key: unknown): string | undefined {
  // [C2] An array or bytes is no key (as readHash says for itemKeyId), whatever properties it carries.
  if (key === undefined || key === null || typeof key !== "object" || !isMessageObject(key)) return undefined;
  const k = key as Record<string, unknown>;
  const hash = k.contentHash;
  if (!isBytes(hash) || hash.length < 1 || hash.length > 64) return undefined;
  const sfx = readFingerprintWith(k.fingerprint, suffixOf, false);
  return sfx === undefined ? undefined : keyIdOf(hash, sfx);
}

/** The content hash of a key, checked as {@link itemKeyId} checks it, or the error. */
function readHash(key: unknown): Uint8Array | EctpError {
  if (key === undefined || key === null)
    return fail("INVALID_DESCRIPTOR", "item key is missing; every descriptor needs key.contentHash", {}).error;
  // [C2] Bytes (the content hash itself, say) or an array are no key: the encoders refuse them.
  if (typeof key !== "object" || !isMessageObject(key)) return notAMessage("key", "ectp.v1.IItemKey: contentHash and fingerprint", key);
  const hash = (key as Record<string, unknown>).contentHash;
  if (!isBytes(hash) || hash.length < 1 || hash.length > 64) {
    // A string here is most likely base64 from parsed JSON: say where proto3 JSON is read.
    const got = isBytes(hash) ? `${hash.length} bytes` : describe(hash);
    const hint = typeof hash === "string" ? " (proto3 JSON? read an announcement with announcementFromJson first)" : "";
    return fail("INVALID_DESCRIPTOR", `key.contentHash must be 1 to 64 bytes; got ${got}${hint}`, {
      length: isBytes(hash) ? hash.length : undefined,
    }).error;
  }
  return hash;
}

/** Whether two normalised fingerprints are the same, field by field (as {@link fingerprintsEqual}). */
function sameFingerprint(a: NormalizedFingerprint, b: NormalizedFingerprint): boolean {
  return a === b || (a.model === b.model && a.dtype === b.dtype && a.rowBytes === b.rowBytes && a.layoutVersion === b.layoutVersion);
}

/**
 * Validate a descriptor [C2]: key, size in [1, maxItemBytes] and equal to dtype x shape
 * when both are given, a shape of at most {@link MAX_SHAPE_DIMS} dimensions, fingerprint
 * equal to `limits.fingerprint` when given, producer id non-empty, epoch a positive safe
 * integer, checksum of a known algorithm and length. Every descriptor it accepts can be sent:
 * a message-typed field (the descriptor, its key, fingerprint, checksum) given as an array or as
 * bytes, which would read as a message of no fields (a checksum as none at all [C11]), and a
 * producer id or model with a lone surrogate are refused, as the encoders refuse them.
 * Fields are read as properties, inherited ones included (a decoded message keeps its defaults on
 * its prototype), but the encoders write own properties only: a value that is not an own property
 * (a class's getter, a template's value under `Object.create`) is validated here and not sent, so
 * give descriptors, keys, fingerprints and checksums as plain objects or decoded messages.
 * Accepts anything (e.g. JSON with `sizeBytes: null`) and never throws; limits without a
 * `maxItemBytes` number >= 1, or that cannot be read (the caller's mistake), give
 * `INVALID_ARGUMENT`. `limits.fingerprint` is read once per call; an `INCOMPATIBLE` result's
 * `details` name the two fingerprints compared, normalised (`got`, the key's; `expected`, that one
 * reading of `limits.fingerprint`), and one that is no valid fingerprint matches no descriptor
 * (`INCOMPATIBLE`, its `details.expected` undefined).
 */
export function validateDescriptor(descriptor: unknown, limits: DescriptorLimits): Validation<ValidDescriptor> {
  try {
    return validateUnsafe(descriptor, limits);
  } catch (cause) {
    // A hostile object (throwing getter, proxy) must still not escape as an exception.
    return fail("INVALID_DESCRIPTOR", "descriptor could not be read", {}, cause);
  }
}

function validateUnsafe(descriptor: unknown, limits: DescriptorLimits): Validation<ValidDescriptor> {
  // The caller's own limits, read once and checked first: NaN or a non-number would accept every
  // size, 0 or less refuse every one; limits that cannot be read are the caller's mistake too.
  let max: unknown;
  let expected: ectp.v1.IFingerprint | null | undefined;
  try {
    const l = limits as DescriptorLimits | null | undefined;
    max = l?.maxItemBytes;
    expected = l?.fingerprint;
  } catch (cause) {
    return fail("INVALID_ARGUMENT", "limits could not be read", {}, cause);
  }
  if (typeof max !== "number" || !(max >= 1))
    return fail("INVALID_ARGUMENT", `limits.maxItemBytes must be a number of bytes >= 1; got ${describe(max)}`, {});
  if (descriptor === undefined || descriptor === null) return fail("INVALID_DESCRIPTOR", "descriptor is missing; pass an ectp.v1.IItemDescriptor", {});
  if (typeof descriptor !== "object" || !isMessageObject(descriptor))
    return { ok: false, error: notAMessage("descriptor", "ectp.v1.IItemDescriptor", descriptor) };
  const d = descriptor as Record<string, unknown>;
  // The key is read and checked once (it used to be normalised twice: in itemKeyId, then here).
  const key = d.key;
  const contentHash = readHash(key);
  if (isError(contentHash)) return { ok: false, error: contentHash };
  const fingerprint = readSharedFingerprint((key as Record<string, unknown>).fingerprint);
  if (isError(fingerprint)) return { ok: false, error: fingerprint };
  const keyId = keyIdOf(contentHash, keySuffix(fingerprint));
  if (expected !== undefined) {
    // [C2] `limits.fingerprint` is read once, as the shared fingerprint (when it equals the key's, the
    // last one readSharedFingerprint read: the same object, nothing allocated), and that one reading is
    // both compared and reported: read again for the result, a getter would run twice, and the result
    // could name another fingerprint than the one compared (or a well-formed one for a malformed one).
    let want: NormalizedFingerprint | undefined;
    try {
      want = readFingerprintWith(expected, sharedFingerprint, false);
    } catch (cause) {
      // The caller's own fingerprint (a throwing getter, a Proxy): its mistake, not the peer's descriptor.
      return fail("INVALID_ARGUMENT", "limits.fingerprint could not be read", {}, cause);
    }
    // A malformed expected fingerprint matches no descriptor, and is named as none (undefined).
    if (want === undefined || !sameFingerprint(fingerprint, want))
      return fail("INCOMPATIBLE", "item fingerprint differs from the expected fingerprint", { got: fingerprint, expected: want });
  }
  const size = d.sizeBytes;
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 1 || size > max)
    return fail(
      "INVALID_DESCRIPTOR",
      // [C2] The range applied: at most 2^53 - 1 (SPEC.md section 3.8), whatever a larger maxItemBytes says.
      `sizeBytes must be an integer in [1, ${Math.min(max, Number.MAX_SAFE_INTEGER)}]; got ${describe(size)}`,
      { sizeBytes: size, maxItemBytes: max },
    );
  const dtype = d.dtype ?? 0;
  if (!isEnumValue(dtype))
    return fail("INVALID_DESCRIPTOR", `dtype must be a Dtype enum value (an integer in [0, 2^31)); got ${describe(dtype)}`, {});
  const rawShape = d.shape ?? EMPTY_SHAPE;
  if (!Array.isArray(rawShape)) return fail("INVALID_DESCRIPTOR", SHAPE_RANGE, {});
  // [C2] a descriptor always fits a message's repeated-element limit (SPEC.md section 5). Checked
  // before the elements: a shape of 2^28 dimensions is refused at once, not after reading them all.
  if (rawShape.length > MAX_SHAPE_DIMS)
    return fail("INVALID_DESCRIPTOR", `shape has ${rawShape.length} dimensions; at most ${MAX_SHAPE_DIMS} are allowed`, {});
  // [C2] A dimension above 2^53 - 1 (which the uint64 field can carry) is refused too: the message names that range.
  if (!allSafeNonNegative(rawShape)) return fail("INVALID_DESCRIPTOR", SHAPE_RANGE, {});
  const shape = rawShape as readonly number[];
  const elem = dtypeSize(dtype);
  if (elem !== undefined && shape.length > 0) {
    let expected = elem;
    for (const dim of shape) expected *= dim;
    if (expected !== size)
      return fail("INVALID_DESCRIPTOR", `sizeBytes ${size} differs from dtype x shape = ${expected}; sizeBytes must equal the element size of dtype times every dimension of shape`, {
        sizeBytes: size,
        shape,
        dtype,
      });
  }
  const producerId = d.producerId;
  if (typeof producerId !== "string" || producerId.length === 0)
    return fail("INVALID_DESCRIPTOR", `producerId must be a non-empty string; got ${describe(producerId)}`, {});
  // A descriptor judged valid can always be sent: the encoders refuse a lone surrogate (no UTF-8 form).
  if (!isWellFormed(producerId))
    return fail("INVALID_DESCRIPTOR", `producerId must be well-formed UTF-16 (no lone surrogate, which UTF-8 cannot carry); got ${describe(producerId)}`, {});
  const epoch = d.epoch;
  // [C2] `epoch` is an integer in [1, 2^53 - 1]: the message names the upper bound, which a peer's 2^60 breaks.
  if (typeof epoch !== "number" || !Number.isSafeInteger(epoch) || epoch < 1)
    return fail("INVALID_DESCRIPTOR", `epoch must be an integer in [1, 2^53 - 1]; got ${describe(epoch)}`, {});
  const location = d.location ?? EMPTY_LOCATION;
  if (!isBytes(location)) return fail("INVALID_DESCRIPTOR", `location must be bytes (a Uint8Array) or absent; got ${describe(location)}`, {});
  let checksum: NormalizedChecksum | undefined;
  const cs = d.checksum;
  if (cs !== undefined && cs !== null) {
    // [C2][C11] Bytes that cannot be verified are never loaded: a checksum given as its bytes (or an
    // array) would read as no checksum at all, and the item would be loaded unverified.
    if (typeof cs !== "object" || !isMessageObject(cs))
      return {
        ok: false,
        error: notAMessage(
          "checksum",
          "ectp.v1.IChecksum: algorithm and value",
          cs,
          ArrayBuffer.isView(cs) ? "; write { algorithm: ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C, value: crc32cBytes(data) }" : "",
        ),
      };
    const c = cs as Record<string, unknown>;
    const algorithm = c.algorithm ?? 0;
    if (algorithm === ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C) {
      const v = c.value;
      if (!isBytes(v) || v.length !== 4)
        return fail("INVALID_DESCRIPTOR", `a CRC32C checksum value must be exactly 4 bytes; got ${isBytes(v) ? `${v.length} bytes` : describe(v)}`, {});
      const crc = (((v[0] as number) << 24) | ((v[1] as number) << 16) | ((v[2] as number) << 8) | (v[3] as number)) >>> 0;
      checksum = new CheckedChecksum(crc);
    } else if (!isEnumValue(algorithm)) {
      // [C2] Not a value the wire can carry (an enum name, a decimal string, a fraction): say so,
      // rather than that its algorithm, which may well be CRC32C, is not supported.
      return fail(
        "INVALID_DESCRIPTOR",
        `checksum.algorithm must be a ChecksumAlgorithm enum value (an integer in [0, 2^31), e.g. ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C = 1); got ${describe(algorithm)}`,
        {},
      );
    } else if (algorithm !== 0) {
      return fail(
        "INVALID_DESCRIPTOR",
        `checksum algorithm ${describe(algorithm)} is not supported; unverifiable bytes are never loaded`,
        {},
      );
    } else if (isForeignBuffer(cs)) {
      // [C2][C11] Another realm's ArrayBuffer passed isMessageObject, and reads as an UNSPECIFIED checksum:
      // none at all. Refused as this realm's is (asked only here: a CRC32C checksum never comes this way).
      return { ok: false, error: notAMessage("checksum", "ectp.v1.IChecksum: algorithm and value", cs) };
    } else if (c.value != null && !isBytes(c.value)) {
      // An UNSPECIFIED checksum is none, but its value still goes on the wire: the encoders refuse other than bytes.
      return fail("INVALID_DESCRIPTOR", `checksum.value must be bytes (a Uint8Array); got ${describe(c.value)}`, {});
    }
  }
  const value = new CheckedDescriptor(keyId, contentHash, fingerprint, size, dtype, shape, producerId, epoch, location);
  if (checksum) value.checksum = checksum; // own property only when present (as before)
  return { ok: true, value };
}

/**
 * A {@link ValidDescriptor} as {@link validateDescriptor} makes it: a class instance, not an object
 * literal, because V8 pretenures a literal's allocation site once most of its objects survive (a
 * consumer keeps one per outstanding fetch), and from then on allocates every object of that site in
 * the old generation, the short-lived ones too (each admission validates announcements whose
 * descriptors are dropped at once): with 10^5 fetches outstanding, admission cost doubled. V8 does
 * not pretenure by constructor. For the same reason it keeps nothing of the caller's descriptor
 * object itself (only its byte arrays and shape): a core holding it per fetch would have the
 * engine's own descriptor literals pretenured.
 */
class CheckedDescriptor implements ValidDescriptor {
  declare checksum?: NormalizedChecksum;
  constructor(
    readonly keyId: string,
    readonly contentHash: Uint8Array,
    readonly fingerprint: NormalizedFingerprint,
    readonly sizeBytes: number,
    readonly dtype: number,
    readonly shape: readonly number[],
    readonly producerId: string,
    readonly epoch: number,
    readonly location: Uint8Array,
  ) {}
}

/** A checked CRC-32C checksum (a class for the reason {@link CheckedDescriptor} is one). */
class CheckedChecksum implements NormalizedChecksum {
  readonly algorithm = ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C;
  constructor(readonly crc32c: number) {}
}

function fail(
  code: "INVALID_DESCRIPTOR" | "INCOMPATIBLE" | "INVALID_ARGUMENT",
  message: string,
  details: Record<string, unknown>,
  cause?: unknown,
): { ok: false; error: EctpError } {
  return { ok: false, error: new EctpError(code, message, { details, cause }) };
}

/**
 * Byte input of the public functions that take bytes (framing, CRC-32C).
 * @module
 * @internal
 */
import { EctpError, describeValue, thrownText } from "./errors.js";

const objectTag = Object.prototype.toString;

/** `%TypedArray%.prototype[Symbol.toStringTag]`: a typed array's name, undefined for anything else (a DataView); never throws. */
const typedArrayName = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag)?.get as (this: unknown) => string | undefined;

/**
 * `DataView.prototype.byteLength`: throws for a DataView whose bytes are gone (over a detached
 * buffer, or out of bounds of a resizable one that shrank), whatever the view's own properties say.
 */
const dataViewByteLength = Object.getOwnPropertyDescriptor(DataView.prototype, "byteLength")?.get as (this: unknown) => number;

/** `%TypedArray%.prototype.length`: a typed array's real length, whatever its own `length` property says. */
const typedArrayLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), "length")?.get as (this: unknown) => number;

/**
 * The `byteLength` getters of ArrayBuffer and SharedArrayBuffer: they throw for anything without
 * the buffer's internal slot, so they tell a real buffer (of any realm) from an object whose
 * `Symbol.toStringTag` says "ArrayBuffer", or a Proxy of a buffer, which `new Uint8Array(x)` would
 * read as an empty or array-like input.
 */
const bufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength")?.get as (this: unknown) => number;
const sharedBufferByteLength =
  typeof SharedArrayBuffer === "function"
    ? (Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, "byteLength")?.get as (this: unknown) => number)
    : undefined;

/**
 * `value` as a Uint8Array over the same memory: a Uint8Array (of any realm) as it is, another
 * typed array or DataView as its bytes, an ArrayBuffer or SharedArrayBuffer whole. Anything
 * else is local misuse: `EctpError(INVALID_ARGUMENT)` naming `what`, never a silent empty or
 * reinterpreted input.
 */
export function byteView(value: unknown, what: string): Uint8Array {
  let tag: string;
  try {
    // ArrayBuffer.isView first: it is true only for a real view (a Proxy of one has no view
    // slot, and its typed-array getters throw when read through it).
    if (ArrayBuffer.isView(value)) {
      if (value instanceof Uint8Array) {
        if (isGoneView(value)) return throwDetached(what);
        // [I1] Callers read `length`: one that throws, or says other than the bytes there are, is refused here.
        if (value.length !== typedArrayLength.call(value))
          throw new EctpError("INVALID_ARGUMENT", `${what} is a Uint8Array whose length property says other than its bytes; pass a plain Uint8Array`);
        return value;
      }
      return isGoneView(value) ? throwDetached(what) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    }
    tag = objectTag.call(value);
  } catch (cause) {
    if (cause instanceof EctpError) throw cause; // a detached view, named as such
    // [I1] A value that cannot even be looked at (a Proxy whose traps throw) is not bytes either.
    throw new EctpError("INVALID_ARGUMENT", `${what} must be bytes (a Uint8Array, an ArrayBuffer or a view of one); got an object that cannot be read (${thrownText(cause)})`, { cause });
  }
  if (tag === "[object ArrayBuffer]" || tag === "[object SharedArrayBuffer]") {
    if (!isBuffer(value, tag))
      throw new EctpError(
        "INVALID_ARGUMENT",
        `${what} must be bytes (a Uint8Array, an ArrayBuffer or a view of one); got an object that only looks like an ArrayBuffer (a Proxy, or a Symbol.toStringTag)`,
      );
    try {
      return new Uint8Array(value as ArrayBuffer);
    } catch (cause) {
      // The only buffer that cannot be viewed is a detached one (transferred or structuredClone'd away).
      return throwDetached(what, cause);
    }
  }
  throw new EctpError(
    "INVALID_ARGUMENT",
    `${what} must be bytes (a Uint8Array, an ArrayBuffer or a view of one); got ${describeValue(value)}`,
  );
}

/** Whether `value` (whose tag is `tag`) really is an ArrayBuffer or SharedArrayBuffer (see {@link bufferByteLength}). */
function isBuffer(value: unknown, tag: string): boolean {
  const getter = tag === "[object ArrayBuffer]" ? bufferByteLength : sharedBufferByteLength;
  if (getter === undefined) return false;
  try {
    getter.call(value); // a detached ArrayBuffer reads 0 here; it is named as detached below
    return true;
  } catch {
    return false;
  }
}

/** An error naming bytes that are gone (a detached or shrunk buffer), which is not the same as no bytes. */
function throwDetached(what: string, cause?: unknown): never {
  throw new EctpError(
    "INVALID_ARGUMENT",
    `${what} is over a detached ArrayBuffer (transferred away, e.g. by postMessage or structuredClone) or out of bounds of a resizable one that shrank: its bytes are gone; pass bytes the caller still owns`,
    { cause },
  );
}

/** The target of {@link isGoneView}'s probe: a copy of no bytes. */
const NO_BYTES = new Uint8Array(0);

/**
 * Whether `view` (a real view: `ArrayBuffer.isView` said so) has its bytes gone: it is over a
 * detached ArrayBuffer, or out of bounds of a resizable one that shrank. Such a typed array reads
 * as empty (a DataView throws), and would otherwise be framed or checksummed as no bytes, or
 * reported as unreadable. Never throws; only views that read as empty are looked at closely, so
 * the common path costs one length read.
 */
function isGoneView(view: ArrayBufferView): boolean {
  try {
    if (view.byteLength !== 0) return false;
  } catch {
    // A DataView whose bytes are gone throws here; a view whose own getters throw is looked at below.
  }
  // A DataView (of any realm): its own byteLength getter throws exactly when its bytes are gone,
  // detached or out of bounds alike (the buffer probe below sees only a detached buffer).
  if (typedArrayName.call(view) === undefined)
    try {
      dataViewByteLength.call(view);
      return false;
    } catch {
      return true;
    }
  // Reading a typed array whose bytes are gone throws (copying none of a truly empty one does not).
  try {
    NO_BYTES.set(view as Uint8Array);
  } catch {
    return true;
  }
  let buffer: unknown;
  try {
    buffer = view.buffer;
  } catch {
    return false; // left to its reader, as any view whose getters throw
  }
  // (A SharedArrayBuffer cannot be detached.)
  if (objectTag.call(buffer) !== "[object ArrayBuffer]") return false;
  try {
    new Uint8Array(buffer as ArrayBuffer); // throws only over a detached buffer
    return false;
  } catch {
    return true;
  }
}

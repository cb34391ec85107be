/**
 * Byte input of the public functions that take bytes (framing, CRC-32C).
 * @module
 * @internal
 */
import { EctpError } from "./errors.js";

const objectTag = Object.prototype.toString;

/**
 * `value` as a Uint8Array over the same memory: a Uint8Array (of any realm) as it is, another
 * typed array or DataView as its bytes, an ArrayBuffer or SharedArrayBuffer whole. Anything
 * else is local misuse: `EctpError(INVALID_ARGUMENT)` naming `what`, never a silent empty or
 * reinterpreted input.
 */
export function byteView(value: unknown, what: string): Uint8Array {
  let tag: string;
  try {
    if (value instanceof Uint8Array) return isDetachedView(value) ? throwDetached(what) : value;
    if (ArrayBuffer.isView(value))
      return isDetachedView(value) ? throwDetached(what) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    tag = objectTag.call(value);
  } catch (cause) {
    if (cause instanceof EctpError) throw cause; // a detached view, named as such
    // [I1] A value that cannot even be looked at (a Proxy whose traps throw) is not bytes either.
    throw new EctpError("INVALID_ARGUMENT", `${what} must be bytes (a Uint8Array, an ArrayBuffer or a view of one); got an object that cannot be read`, { cause });
  }
  if (tag === "[object ArrayBuffer]" || tag === "[object SharedArrayBuffer]") {
    try {
      return new Uint8Array(value as ArrayBuffer);
    } catch (cause) {
      // The only buffer that cannot be viewed is a detached one (transferred or structuredClone'd away).
      return throwDetached(what, cause);
    }
  }
  throw new EctpError(
    "INVALID_ARGUMENT",
    `${what} must be bytes (a Uint8Array, an ArrayBuffer or a view of one); got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`,
  );
}

/** An error naming a detached buffer: its bytes are gone, which is not the same as no bytes. */
function throwDetached(what: string, cause?: unknown): never {
  throw new EctpError(
    "INVALID_ARGUMENT",
    `${what} is over a detached ArrayBuffer (transferred away, e.g. by postMessage or structuredClone): its bytes are gone; pass bytes the caller still owns`,
    { cause },
  );
}

/**
 * Whether `view` is over a detached ArrayBuffer: such a typed array reads as empty (a DataView
 * throws), and would otherwise be framed or checksummed as no bytes. Never throws; only views
 * that read as empty are looked at closely, so the common path costs one length read.
 */
function isDetachedView(view: ArrayBufferView): boolean {
  try {
    if (view.byteLength !== 0) return false;
  } catch {
    // A detached DataView throws here; a view whose own getters throw is looked at below.
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

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
    if (value instanceof Uint8Array) return value;
    if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    tag = objectTag.call(value);
  } catch (cause) {
    // [I1] A value that cannot even be looked at (a Proxy whose traps throw) is not bytes either.
    throw new EctpError("INVALID_ARGUMENT", `${what} must be bytes (a Uint8Array, an ArrayBuffer or a view of one); got an object that cannot be read`, { cause });
  }
  if (tag === "[object ArrayBuffer]" || tag === "[object SharedArrayBuffer]") return new Uint8Array(value as ArrayBuffer);
  throw new EctpError(
    "INVALID_ARGUMENT",
    `${what} must be bytes (a Uint8Array, an ArrayBuffer or a view of one); got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`,
  );
}

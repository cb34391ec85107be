/**
 * SPEC.md section 16: what a core keeps past a call, or hands to a logger, must not refer to the
 * message it came in. Decoded bytes fields are views into the frame they were decoded from, and a
 * V8 substring refers to the string it was cut from, so keeping either keeps that whole frame or
 * string alive: one byte of transport metadata sent with 16 MiB of unknown fields held 16 MiB per
 * peer, and a 200-character cut of a 16 MiB `detail` held 16 MiB per failed item.
 * @internal
 * @module
 */

/** Whether `b` is bytes viewing only part of their buffer (a decoded field, a Buffer's slice). */
export function isPartialView(b: unknown): b is Uint8Array {
  return b instanceof Uint8Array && b.byteLength !== b.buffer.byteLength;
}

/** `b` as bytes of its own: a copy when it views only part of its buffer, else `b`. */
export function ownBytes(b: Uint8Array): Uint8Array {
  return isPartialView(b) ? new Uint8Array(b) : b;
}

/**
 * A peer's text to keep or log: at most `max` characters of it, as a string of its own (a cut is
 * copied out of the string it was cut from); "" for anything but a string.
 */
export function ownText(v: unknown, max: number): string {
  if (typeof v !== "string") return "";
  if (v.length <= max) return v;
  // JSON's round trip builds a new flat string; `slice`, templates and concatenation refer to `v`.
  return JSON.parse(JSON.stringify(v.slice(0, max))) as string;
}

/**
 * CRC-32C (Castagnoli), the checksum of `CHECKSUM_ALGORITHM_CRC32C` [C11].
 * @module
 */
import { byteView } from "./bytes.js";
import { EctpError } from "./errors.js";

/**
 * Slicing-by-8 tables for the reflected polynomial 0x82F63B78, flat: table `t` is
 * `TABLE[t * 256 .. t * 256 + 255]`. One Int32Array (one base, no `>>> 0` per lookup) runs
 * about twice as fast in V8 as eight separate Uint32Arrays (`npm run bench` in this package).
 */
const TABLE: Int32Array = (() => {
  const t = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let i = 256; i < t.length; i++) {
    const p = t[i - 256] as number;
    t[i] = (p >>> 8) ^ (t[p & 0xff] as number);
  }
  return t;
})();

/**
 * CRC-32C of `bytes`, continuing from `previous` (0 to start, else what an earlier call
 * returned, or the same 32 bits as a signed integer, as `crc | 0` gives). Returns an unsigned
 * 32-bit integer.
 * `crc32c(new TextEncoder().encode("123456789")) === 0xe3069283`. An ArrayBuffer or any view
 * of one is checksummed as its bytes; anything else, or a `previous` that is not an integer in
 * [-2^31, 2^32), throws `EctpError(INVALID_ARGUMENT)`.
 */
export function crc32c(input: Uint8Array | ArrayBuffer | ArrayBufferView, previous = 0): number {
  // A previous value of another type or range would be folded silently into some other checksum.
  if (previous !== 0 && (typeof previous !== "number" || (previous >>> 0 !== previous && (previous | 0) !== previous)))
    throw new EctpError(
      "INVALID_ARGUMENT",
      `crc32c: previous must be the 32-bit value an earlier crc32c call returned, unsigned or signed (0 to start); got ${typeof previous === "number" ? previous : typeof previous}.`,
    );
  // [I1] Through byteView always: a Proxy of a Uint8Array passes instanceof but cannot be read, and a
  // Uint8Array's own `length` may throw or lie (byteView refuses both).
  const bytes = byteView(input, "crc32c input");
  const t = TABLE;
  let crc = ~previous;
  let i = 0;
  const n = bytes.length;
  for (const end = n - 7; i < end; i += 8) {
    const a = crc ^ ((bytes[i] as number) | ((bytes[i + 1] as number) << 8) | ((bytes[i + 2] as number) << 16) | ((bytes[i + 3] as number) << 24));
    crc =
      (t[1792 + (a & 0xff)] as number) ^
      (t[1536 + ((a >>> 8) & 0xff)] as number) ^
      (t[1280 + ((a >>> 16) & 0xff)] as number) ^
      (t[1024 + (a >>> 24)] as number) ^
      (t[768 + (bytes[i + 4] as number)] as number) ^
      (t[512 + (bytes[i + 5] as number)] as number) ^
      (t[256 + (bytes[i + 6] as number)] as number) ^
      (t[bytes[i + 7] as number] as number);
  }
  for (; i < n; i++) crc = (t[(crc ^ (bytes[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return ~crc >>> 0;
}

/** The 4-byte big-endian encoding of the CRC-32C of `bytes` (as {@link crc32c} reads them), as carried in `Checksum.value`. */
export function crc32cBytes(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): Uint8Array {
  const v = crc32c(bytes);
  return new Uint8Array([v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]);
}

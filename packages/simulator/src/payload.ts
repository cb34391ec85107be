/**
 * Scaled-down item bytes. A 20 MB nominal encoding is moved as `ceil(20 MB / scale)` real
 * bytes of a pattern derived from the item's seed, with the CRC-32C of that pattern in
 * the descriptor, so the consumer's checksum check [C11] and the simulator's [I6] check
 * still catch any corruption while a 150 GB workload moves only tens of megabytes.
 * @module
 */
import { crc32c } from "@ectp/protocol";

/** Real bytes moved for an item of `nominalBytes` at byte scale `scale` (at least 1). */
export function scaledSize(nominalBytes: number, scale: number): number {
  return Math.max(1, Math.ceil(nominalBytes / scale));
}

/** Deterministic bytes of length `size` for an item seed (xorshift32 words). */
export function patternBytes(seed: number, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  const words = new Uint32Array(bytes.buffer, 0, size >>> 2);
  let x = (seed | 0) ^ 0x6d2b79f5 || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  for (let i = words.length * 4; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

/** CRC-32C of {@link patternBytes}`(seed, size)`: what the producer's bytes must hash to [I6]. */
export function patternCrc(seed: number, size: number): number {
  return crc32c(patternBytes(seed, size));
}

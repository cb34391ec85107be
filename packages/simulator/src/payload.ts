/**
 * Scaled-down item bytes. A 20 MB nominal encoding is moved as `ceil(20 MB / scale)` real
 * bytes of a pattern derived from the item's seed, with the CRC-32C of that pattern in
 * the descriptor, so the consumer's checksum check [C11] and the simulator's [I6] check
 * still catch any corruption while a 150 GB workload moves only tens of megabytes.
 * @module
 */
import { EctpError, crc32c, describeValue } from "@ectp/protocol";
import { SIMULATION_LIMITS } from "./options.js";

/** Real bytes moved for an item of `nominalBytes` at byte scale `scale` (at least 1). */
export function scaledSize(nominalBytes: number, scale: number): number {
  return Math.max(1, Math.ceil(nominalBytes / scale));
}

/**
 * Largest `size` of {@link patternBytes} and {@link patternCrc}: `SIMULATION_LIMITS.maxItemBytes`
 * (4 GiB), the largest item a simulation has (its real size at byte scale 1), which is also the
 * longest byte array the JavaScript engine makes.
 */
const MAX_PATTERN_BYTES = SIMULATION_LIMITS.maxItemBytes;

/**
 * Throws EctpError(INVALID_ARGUMENT) naming `fn` unless `seed` is an integer and `size` a whole
 * number of bytes from 0 to {@link MAX_PATTERN_BYTES}.
 */
function checkPatternArgs(fn: string, seed: unknown, size: unknown): void {
  if (typeof seed !== "number" || !Number.isInteger(seed))
    throw new EctpError("INVALID_ARGUMENT", `${fn}: seed must be an integer (an item's seed; its low 32 bits are used); got ${describeValue(seed)}`, {
      details: { seed: describeValue(seed) },
    });
  if (typeof size === "number" && Number.isSafeInteger(size) && size >= 0 && size <= MAX_PATTERN_BYTES) return;
  throw new EctpError(
    "INVALID_ARGUMENT",
    `${fn}: size must be a whole number of bytes from 0 to ${MAX_PATTERN_BYTES} (SIMULATION_LIMITS.maxItemBytes); got ${describeValue(size)}`,
    { details: { size: describeValue(size), max: MAX_PATTERN_BYTES } },
  );
}

/**
 * Deterministic bytes of length `size` for an item seed (xorshift32 words).
 * @throws EctpError(INVALID_ARGUMENT) when `size` is not a whole number of bytes from 0 to
 *   `SIMULATION_LIMITS.maxItemBytes` (4 GiB): negative, fractional, NaN or not a number; or when
 *   `seed` is not an integer.
 */
export function patternBytes(seed: number, size: number): Uint8Array {
  checkPatternArgs("patternBytes", seed, size);
  const bytes = new Uint8Array(size);
  patternInto(seed, bytes);
  return bytes;
}

/** The first xorshift32 state of an item seed's pattern. */
function patternState(seed: number): number {
  return (seed | 0) ^ 0x6d2b79f5 || 1;
}

/** The next xorshift32 state (13, 17, 5): one word of the pattern. */
function xorshift32(x: number): number {
  x ^= x << 13;
  x ^= x >>> 17;
  return x ^ (x << 5);
}

/**
 * Fill `bytes` with {@link patternBytes}`(seed, bytes.length)` in place (no allocation).
 * Whole 32-bit words are written through a word view when `bytes` is 4-byte aligned in
 * its buffer, byte by byte (same values, platform byte order) otherwise.
 */
export function patternInto(seed: number, bytes: Uint8Array): void {
  const size = bytes.length;
  const nWords = size >>> 2;
  let x = patternState(seed);
  if ((bytes.byteOffset & 3) === 0) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, nWords);
    for (let i = 0; i < nWords; i++) {
      x = xorshift32(x);
      words[i] = x >>> 0;
    }
  } else {
    const tmp = new Uint32Array(1);
    const tmpBytes = new Uint8Array(tmp.buffer);
    for (let i = 0; i < nWords; i++) {
      x = xorshift32(x);
      tmp[0] = x >>> 0;
      bytes.set(tmpBytes, i * 4);
    }
  }
  for (let i = nWords * 4; i < size; i++) {
    x = xorshift32(x);
    bytes[i] = x & 0xff;
  }
}

/**
 * Whether `bytes` is exactly {@link patternBytes}`(seed, bytes.length)`, compared word by
 * word without building the pattern: the simulator's [I6] check that loaded bytes are the
 * producer's bytes (exact equality, stronger than comparing checksums).
 */
export function patternEquals(seed: number, bytes: Uint8Array): boolean {
  const size = bytes.length;
  const nWords = size >>> 2;
  let x = patternState(seed);
  if ((bytes.byteOffset & 3) === 0) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, nWords);
    for (let i = 0; i < nWords; i++) {
      x = xorshift32(x);
      if (words[i] !== x >>> 0) return false;
    }
  } else {
    const tmp = new Uint32Array(1);
    const tmpBytes = new Uint8Array(tmp.buffer);
    for (let i = 0; i < nWords; i++) {
      x = xorshift32(x);
      tmp[0] = x >>> 0;
      const at = i * 4;
      if (bytes[at] !== tmpBytes[0] || bytes[at + 1] !== tmpBytes[1] || bytes[at + 2] !== tmpBytes[2] || bytes[at + 3] !== tmpBytes[3])
        return false;
    }
  }
  for (let i = nWords * 4; i < size; i++) {
    x = xorshift32(x);
    if (bytes[i] !== (x & 0xff)) return false;
  }
  return true;
}

/**
 * Hands out zeroed, 8-byte aligned byte arrays carved from shared slabs: one backing
 * buffer per slab instead of one per item, which keeps tens of thousands of small
 * item and destination buffers off the allocator and the garbage collector. Nothing is
 * ever handed out twice (a slab is only bump-allocated, never reused), so every array
 * behaves like a fresh `new Uint8Array(size)`; a slab is freed by the garbage collector
 * once no array carved from it is referenced. Slabs start small and double up to
 * `slabBytes`, so a short run (a sweep makes thousands) does not zero a large slab it
 * never fills. Arrays larger than a quarter of `slabBytes` get their own buffer.
 */
export class ByteSlab {
  private slab: Uint8Array | undefined;
  private used = 0;
  /** Size of the next slab. */
  private nextSlab: number;

  /**
   * @param slabBytes - size of the largest shared slab (default 256 KiB).
   * @param firstSlabBytes - size of the first slab; later ones double (default 8 KiB, at most `slabBytes`).
   */
  constructor(
    private readonly slabBytes = 256 * 1024,
    firstSlabBytes = 8 * 1024,
  ) {
    this.nextSlab = Math.min(slabBytes, firstSlabBytes);
  }

  /** A fresh zeroed array of `size` bytes. */
  take(size: number): Uint8Array {
    if (size > this.slabBytes >>> 2) return new Uint8Array(size);
    let slab = this.slab;
    if (slab === undefined || this.used + size > slab.length) {
      while (this.nextSlab < size) this.nextSlab *= 2;
      slab = new Uint8Array(this.nextSlab);
      this.nextSlab = Math.min(this.slabBytes, this.nextSlab * 2);
      this.slab = slab;
      this.used = 0;
    }
    const out = slab.subarray(this.used, this.used + size);
    this.used = (this.used + size + 7) & ~7;
    return out;
  }
}

/** Granularity of {@link BytePool} size classes, bytes. */
const POOL_CLASS = 64;
/** Largest array a {@link BytePool} recycles; larger ones are plain allocations. */
const POOL_MAX = 16 * 1024;

/**
 * A {@link ByteSlab} that takes arrays back: {@link BytePool.give} returns an array to a
 * free list of its size class (multiples of 64 bytes) and {@link BytePool.take} hands it
 * out again, zeroed, before carving new memory. Item bytes and destination buffers come
 * and go with every request; recycling them keeps the run's memory flat instead of
 * leaving dead buffers for the garbage collector (they outlive young-generation
 * collections, so each would wait for a full one). Every array handed out still behaves
 * like a fresh `new Uint8Array(size)`: zeroed, and not shared with any array that has not
 * been given back. The caller gives each array back at most once, and only when nothing
 * may read or write it any more (a deregistered region, an evicted item).
 */
export class BytePool {
  private readonly slab = new ByteSlab();
  /** Free blocks by size class (index = size in units of {@link POOL_CLASS}, rounded up). */
  private readonly free: Uint8Array[][] = [];

  /** A zeroed array of `size` bytes: a recycled block when one of its class is free. */
  take(size: number): Uint8Array {
    if (size > POOL_MAX || size === 0) return new Uint8Array(size);
    const cls = Math.ceil(size / POOL_CLASS);
    const block = this.free[cls]?.pop();
    if (block === undefined) return this.slab.take(cls * POOL_CLASS).subarray(0, size);
    const out = block.length === size ? block : block.subarray(0, size);
    out.fill(0);
    return out;
  }

  /** Return an array from {@link BytePool.take} for reuse (its whole size-class block). */
  give(bytes: Uint8Array): void {
    const size = bytes.length;
    if (size > POOL_MAX || size === 0) return;
    const cls = Math.ceil(size / POOL_CLASS);
    let list = this.free[cls];
    if (list === undefined) {
      list = [];
      this.free[cls] = list;
    }
    list.push(new Uint8Array(bytes.buffer, bytes.byteOffset, cls * POOL_CLASS));
  }
}

/**
 * CRC-32C of {@link patternBytes}`(seed, size)`: what the producer's bytes must hash to [I6].
 * @throws EctpError(INVALID_ARGUMENT) for a `seed` or `size` {@link patternBytes} refuses, naming patternCrc.
 */
export function patternCrc(seed: number, size: number): number {
  checkPatternArgs("patternCrc", seed, size);
  return crc32c(patternBytes(seed, size));
}

/**
 * CRC-32C (Castagnoli), the checksum of `CHECKSUM_ALGORITHM_CRC32C` [C11].
 * @module
 */

const TABLES: Uint32Array[] = (() => {
  // Slicing-by-8 tables for the reflected polynomial 0x82F63B78.
  const tables: Uint32Array[] = [];
  const t0 = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t0[n] = c >>> 0;
  }
  tables.push(t0);
  for (let t = 1; t < 8; t++) {
    const prev = tables[t - 1] as Uint32Array;
    const cur = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      const p = prev[n] as number;
      cur[n] = ((p >>> 8) ^ (t0[p & 0xff] as number)) >>> 0;
    }
    tables.push(cur);
  }
  return tables;
})();

/**
 * CRC-32C of `bytes`, continuing from `previous` (0 to start). Returns an unsigned
 * 32-bit integer. `crc32c(new TextEncoder().encode("123456789")) === 0xe3069283`.
 */
export function crc32c(bytes: Uint8Array, previous = 0): number {
  const [t0, t1, t2, t3, t4, t5, t6, t7] = TABLES as [
    Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array,
  ];
  let crc = ~previous >>> 0;
  let i = 0;
  const n = bytes.length;
  while (n - i >= 8) {
    const a = (crc ^ ((bytes[i] as number) | ((bytes[i + 1] as number) << 8) | ((bytes[i + 2] as number) << 16) | ((bytes[i + 3] as number) << 24))) >>> 0;
    crc =
      ((t7[a & 0xff] as number) ^
        (t6[(a >>> 8) & 0xff] as number) ^
        (t5[(a >>> 16) & 0xff] as number) ^
        (t4[a >>> 24] as number) ^
        (t3[bytes[i + 4] as number] as number) ^
        (t2[bytes[i + 5] as number] as number) ^
        (t1[bytes[i + 6] as number] as number) ^
        (t0[bytes[i + 7] as number] as number)) >>>
      0;
    i += 8;
  }
  while (i < n) {
    crc = ((t0[(crc ^ (bytes[i] as number)) & 0xff] as number) ^ (crc >>> 8)) >>> 0;
    i++;
  }
  return ~crc >>> 0;
}

/** The 4-byte big-endian encoding of a CRC-32C value, as carried in `Checksum.value`. */
export function crc32cBytes(bytes: Uint8Array): Uint8Array {
  const v = crc32c(bytes);
  return new Uint8Array([v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]);
}

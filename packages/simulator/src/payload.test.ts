import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BytePool, ByteSlab, patternBytes, patternCrc, patternEquals, patternInto } from "./payload.js";

describe("item byte patterns", () => {
  it("[I6] patternInto fills exactly patternBytes, aligned or not", () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 7 }), (seed, size, shift) => {
        const buf = new Uint8Array(size + 8);
        const view = buf.subarray(shift, shift + size);
        patternInto(seed, view);
        expect(view).toEqual(patternBytes(seed, size));
      }),
    );
  });

  it("[I6] patternEquals accepts the producer's bytes and rejects any single changed byte", () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 0, max: 7 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (seed, size, shift, at, flip) => {
          const buf = new Uint8Array(size + 8);
          const view = buf.subarray(shift, shift + size);
          view.set(patternBytes(seed, size));
          expect(patternEquals(seed, view)).toBe(true);
          view[at % size] = ((view[at % size] as number) ^ flip) & 0xff;
          expect(patternEquals(seed, view)).toBe(false);
        },
      ),
    );
  });

  it("[I6] patternEquals rejects another seed's bytes", () => {
    expect(patternEquals(2, patternBytes(1, 64))).toBe(false);
  });

  it("[I6] patternCrc is the CRC-32C (Castagnoli) of patternBytes, as a bitwise reference computes it", () => {
    /** CRC-32C one bit at a time (reflected polynomial 0x82f63b78): slow, obviously right. */
    const reference = (bytes: Uint8Array): number => {
      let crc = 0xffffffff;
      for (const b of bytes) {
        crc ^= b;
        for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
      }
      return (crc ^ 0xffffffff) >>> 0;
    };
    expect(reference(new TextEncoder().encode("123456789"))).toBe(0xe3069283); // the standard check value
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 300 }), (seed, size) => {
        expect(patternCrc(seed, size)).toBe(reference(patternBytes(seed, size)));
      }),
    );
  });
});

describe("ByteSlab", () => {
  it.each([
    ["fixed slabs", 1024, 1024],
    ["slabs growing from 16 bytes", 1024, 16],
  ])("hands out zeroed, 8-byte aligned, non-overlapping arrays of the asked size (%s)", (_name, slabBytes, first) => {
    const slab = new ByteSlab(slabBytes, first);
    const taken: Uint8Array[] = [];
    for (const size of [1, 7, 8, 100, 255, 256, 300, 3, 513, 64, 200, 200, 200]) {
      const a = slab.take(size);
      expect(a.length).toBe(size);
      expect(a.every((b) => b === 0)).toBe(true);
      if (size <= 256) expect(a.byteOffset % 8).toBe(0);
      a.fill(0xff);
      taken.push(a);
    }
    // Writing every array never touched another one (they were all zero when handed out,
    // and each now holds only its own 0xff bytes).
    for (const a of taken) expect(a.every((b) => b === 0xff)).toBe(true);
    for (let i = 0; i < taken.length; i++)
      for (let j = i + 1; j < taken.length; j++) {
        const x = taken[i] as Uint8Array;
        const y = taken[j] as Uint8Array;
        if (x.buffer !== y.buffer) continue;
        const overlap = x.byteOffset < y.byteOffset + y.length && y.byteOffset < x.byteOffset + x.length;
        expect(overlap).toBe(false);
      }
  });
});

describe("BytePool", () => {
  it("hands out zeroed arrays of the asked size that never overlap a live one, recycling given-back ones", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 20_000 }), fc.nat()), { maxLength: 120 }),
        (ops) => {
          const pool = new BytePool();
          const live: { bytes: Uint8Array; fill: number }[] = [];
          let fill = 1;
          for (const [give, size, pick] of ops) {
            if (give && live.length > 0) {
              const [gone] = live.splice(pick % live.length, 1);
              pool.give((gone as { bytes: Uint8Array }).bytes);
              continue;
            }
            const bytes = pool.take(size);
            expect(bytes.length).toBe(size);
            expect(bytes.every((b) => b === 0)).toBe(true);
            const f = fill++ & 0xff || 1;
            bytes.fill(f);
            live.push({ bytes, fill: f });
          }
          // Every live array still holds only what its owner wrote: no two live arrays share bytes.
          for (const { bytes, fill: f } of live) expect(bytes.every((b) => b === f)).toBe(true);
        },
      ),
    );
  });

  it("reuses a given-back block for the next array of its size class", () => {
    const pool = new BytePool();
    const a = pool.take(100);
    a.fill(9);
    pool.give(a);
    const b = pool.take(70); // same 128-byte class
    expect(b.buffer).toBe(a.buffer);
    expect(b.byteOffset).toBe(a.byteOffset);
    expect(b.every((x) => x === 0)).toBe(true);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteSlab, patternBytes, patternEquals, patternInto } from "./payload.js";

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

/**
 * SeededRandom: a zero (or negative) probability draws nothing, so turning a fault off keeps
 * every other draw of the same seed where it was.
 */
import { describe, expect, it } from "vitest";
import { SeededRandom } from "./random.js";

describe("SeededRandom.chance", () => {
  it("chance(0) and chance(-1) are false and leave the sequence untouched", () => {
    const a = new SeededRandom(42);
    const b = new SeededRandom(42);
    for (let i = 0; i < 5; i++) {
      expect(a.chance(0)).toBe(false);
      expect(a.chance(-1)).toBe(false);
      expect(a.nextUint32()).toBe(b.nextUint32());
    }
  });

  it("chance(p) for p > 0 draws exactly one number", () => {
    const a = new SeededRandom(7);
    const b = new SeededRandom(7);
    a.chance(0.5);
    b.next();
    expect(a.nextUint32()).toBe(b.nextUint32());
  });
});

describe("SeededRandom.fork", () => {
  it("a fork is seeded with its parent's next 32-bit output, so a recorded seed replays every forked stream", () => {
    const parent = new SeededRandom(2024);
    const seed = new SeededRandom(2024).nextUint32();
    const child = parent.fork();
    const expected = new SeededRandom(seed);
    for (let i = 0; i < 4; i++) expect(child.nextUint32()).toBe(expected.nextUint32());
  });
});

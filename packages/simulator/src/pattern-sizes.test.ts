/**
 * patternBytes and patternCrc take a size that is a whole number of bytes from 0 to
 * SIMULATION_LIMITS.maxItemBytes (4 GiB, the largest item and the longest byte array the engine
 * makes) and an integer seed; anything else is an EctpError(INVALID_ARGUMENT) naming the function,
 * not a RangeError from Uint8Array or a silently empty pattern.
 */
import { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { SIMULATION_LIMITS, patternBytes, patternCrc } from "./index.js";
import { thrownBy } from "./test-support.js";

function expectInvalid(e: unknown, message: string): void {
  expect(EctpError.is(e), String(e)).toBe(true);
  expect((e as EctpError).code).toBe("INVALID_ARGUMENT");
  expect((e as EctpError).message).toBe(`[INVALID_ARGUMENT] ${message}`);
}

describe("pattern sizes", () => {
  it.each([
    ["negative", -1, "-1"],
    ["past the largest item (2^40)", 2 ** 40, String(2 ** 40)],
    ["one past the largest item", SIMULATION_LIMITS.maxItemBytes + 1, String(SIMULATION_LIMITS.maxItemBytes + 1)],
    ["NaN (an empty pattern before)", Number.NaN, "NaN"],
    ["fractional", 1.5, "1.5"],
    ["infinite", Number.POSITIVE_INFINITY, "Infinity"],
    ["a numeric string", "4" as never, '"4"'],
    ["nothing", undefined as never, "nothing"],
    ["a bigint", 4n as never, "4n"],
  ])("a size that is %s is refused by patternBytes and patternCrc", (_what, size, shown) => {
    for (const [name, f] of [
      ["patternBytes", patternBytes],
      ["patternCrc", patternCrc],
    ] as const) {
      const e = thrownBy(() => f(1, size));
      expectInvalid(e, `${name}: size must be a whole number of bytes from 0 to 4294967296 (SIMULATION_LIMITS.maxItemBytes); got ${shown}`);
      expect((e as EctpError).details).toEqual({ size: shown, max: 4294967296 });
    }
  });

  it.each([
    ["NaN", Number.NaN, "NaN"],
    ["fractional", 0.5, "0.5"],
    ["a string", "1" as never, '"1"'],
    ["an object without a prototype", Object.create(null), "an object"],
    ["a symbol", Symbol("seed") as never, "Symbol(seed)"],
  ])("a seed that is %s is refused", (_what, seed, shown) => {
    expectInvalid(thrownBy(() => patternBytes(seed, 4)), `patternBytes: seed must be an integer (an item's seed; its low 32 bits are used); got ${shown}`);
    expectInvalid(thrownBy(() => patternCrc(seed, 4)), `patternCrc: seed must be an integer (an item's seed; its low 32 bits are used); got ${shown}`);
  });

  it("sizes 0 and up, and any integer seed, still work", () => {
    expect(patternBytes(1, 0)).toEqual(new Uint8Array(0));
    expect(patternBytes(-5, 7)).toHaveLength(7);
    expect(patternBytes(2 ** 40, 3)).toEqual(patternBytes(0, 3)); // the low 32 bits of the seed
    expect(patternCrc(1, 0)).toBe(0);
  });
});

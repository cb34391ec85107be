/**
 * SeededRandom's seed: a safe integer, or EctpError(INVALID_ARGUMENT). Coerced, NaN and {} were
 * silently seed 0 and "5" seed 5, and a bigint, a symbol or a null-prototype object threw a raw
 * TypeError.
 */
import { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { SeededRandom, identitySeed } from "./random.js";

describe("SeededRandom's seed", () => {
  it.each([
    ["NaN", Number.NaN, "NaN"],
    ["a fraction", 1.5, "1.5"],
    ["Infinity", Number.POSITIVE_INFINITY, "Infinity"],
    ["past 2^53", 2 ** 53, "9007199254740992"],
    ["a numeric string", "5", '"5"'],
    ["a plain object", {}, "an object"],
    ["a null-prototype object", Object.create(null), "an object"],
    ["a bigint", 10n, "10n"],
    ["a symbol", Symbol("s"), "Symbol(s)"],
    ["absent", undefined, "nothing"],
    ["null", null, "null"],
  ])("%s is refused with INVALID_ARGUMENT describing it, never coerced or a TypeError", (_name, seed, shown) => {
    let caught: unknown;
    try {
      new SeededRandom(seed as number);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(EctpError);
    expect((caught as EctpError).code).toBe("INVALID_ARGUMENT");
    expect((caught as EctpError).message).toBe(
      `[INVALID_ARGUMENT] SeededRandom: seed must be a safe integer (only its low 32 bits are used); got ${shown}. Pass e.g. 1, or a recorded seed to replay its sequence.`,
    );
  });

  it("[C4] every safe integer is accepted, negative and past 32 bits included, with the sequence of its low 32 bits", () => {
    const first = (seed: number) => new SeededRandom(seed).nextUint32();
    for (const seed of [0, -0, 1, -7, 2 ** 31, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) expect(() => new SeededRandom(seed)).not.toThrow();
    expect(first(2 ** 32 + 5)).toBe(first(5));
    expect(first(-0)).toBe(first(0));
  });

  it("[C4] the seeds the core makes itself are safe integers: forks and identity seeds still work", () => {
    const parent = new SeededRandom(2024);
    for (let i = 0; i < 100; i++) expect(() => parent.fork().nextUint32()).not.toThrow();
    for (const [id, epoch] of [["c", 1], ["", 2 ** 53 - 1], ["pd-\u00e9", 1_733_000_000]] as const)
      expect(() => new SeededRandom(identitySeed(id, epoch))).not.toThrow();
  });
});

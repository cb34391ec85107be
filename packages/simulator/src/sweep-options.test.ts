/**
 * validateSweep and runSweep refuse options that are not an object as runSimulation does: one
 * problem, "options must be an object of SimulationOptions", an EctpError(INVALID_ARGUMENT) from
 * runSweep before any run; never a raw TypeError, and never a sweep silently run with defaults.
 */
import { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { runSimulation, runSweep, validateConfig, validateSweep } from "./index.js";
import { rejection } from "./test-support.js";

const NOT_OBJECTS: [string, unknown, string][] = [
  ["null", null, "null"],
  ["a number", 5, "5"],
  ["a string", "abc", '"abc"'],
  ["an array", [], "an array"],
  ["a boolean", true, "true"],
  ["a bigint", 5n, "5n"],
  ["a symbol", Symbol("s"), "Symbol(s)"],
];

describe("sweep options that are not an object", () => {
  it.each(NOT_OBJECTS)("validateSweep(%s) is the one problem validateConfig reports", (_what, value, shown) => {
    const expected = `options must be an object of SimulationOptions (e.g. { requests: 100 }); got ${shown}`;
    expect(validateSweep(value as never)).toEqual([expected]);
    expect(validateConfig(value as never)).toEqual([expected]);
  });

  it.each(NOT_OBJECTS)("runSweep(%s) rejects with INVALID_ARGUMENT, as runSimulation does", async (_what, value, shown) => {
    for (const run of [() => runSweep(value as never), () => runSimulation(value as never)]) {
      const e = await rejection(run());
      expect(EctpError.is(e), String(e)).toBe(true);
      expect((e as EctpError).code).toBe("INVALID_ARGUMENT");
      expect((e as EctpError).message).toBe(`[INVALID_ARGUMENT] options must be an object of SimulationOptions (e.g. { requests: 100 }); got ${shown}`);
      expect((e as EctpError).details).toEqual({ problems: [expect.stringMatching(/^options must be an object/)] });
    }
  });

  it("no options at all are the defaults, for the validators as for runSimulation", () => {
    expect(validateSweep()).toEqual([]);
    expect(validateSweep(undefined)).toEqual([]);
    expect(validateConfig()).toEqual([]);
    expect(validateConfig(undefined)).toEqual([]);
  });

  it("a runs value that is a bigint is shown as one, not as the number it reads like", () => {
    expect(validateSweep({ runs: 2n as never })).toEqual(["runs must be an integer from 1 to 100000; got 2n"]);
  });
});

/**
 * parseDuration returns a typed result for every input: a value that is not a string (null, a
 * number, nothing, an object without a prototype, a bigint, a symbol) is an INVALID_ARGUMENT
 * result naming what was given, never a thrown TypeError.
 */
import { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { parseDuration } from "./index.js";

describe("parseDuration with a value that is not a string", () => {
  it.each([
    ["null", null, "null"],
    ["a number (a duration without its unit)", 5, "5"],
    ["nothing", undefined, "nothing"],
    ["an object without a prototype", Object.create(null), "an object"],
    ["a bigint", 5n, "5n"],
    ["a symbol", Symbol("10ms"), "Symbol(10ms)"],
    ["an array", ["10ms"], "an array"],
  ])("%s is a typed INVALID_ARGUMENT result, not a throw", (_what, value, shown) => {
    const r = parseDuration(value as never);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(EctpError.is(r.error)).toBe(true);
    expect(r.error.code).toBe("INVALID_ARGUMENT");
    expect(r.error.message).toBe(
      `[INVALID_ARGUMENT] a duration must be a string with a unit: ms, s or m (e.g. "10ms", "2s", "1m"); got ${shown}`,
    );
  });

  it("a duration too long to hold as a number of milliseconds is refused, not read as Infinity", () => {
    const r = parseDuration(`1${"0".repeat(400)}ms`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/is too long a duration to hold as a number of milliseconds; write a shorter one$/);
    expect(parseDuration(`1${"0".repeat(306)}m`).ok).toBe(false); // 6e310 ms
  });

  it("a string still parses as before", () => {
    expect(parseDuration(" 1.5s ")).toEqual({ ok: true, ms: 1_500 });
    const bad = parseDuration("10");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toMatch(/"10" is not a duration/);
  });
});

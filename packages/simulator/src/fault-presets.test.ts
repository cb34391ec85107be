/**
 * faultPreset of a name that is not a preset throws EctpError(INVALID_ARGUMENT) naming the
 * presets (its return type promises a FaultProfile, so it never returns undefined); the names of
 * FAULT_PRESETS keep working, and isFaultPresetName is the check that avoids the throw.
 */
import { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { FAULT_PRESETS, faultPreset, isFaultPresetName, validateConfig } from "./index.js";

describe("faultPreset", () => {
  it("returns the profile of every preset", () => {
    for (const name of FAULT_PRESETS) {
      expect(isFaultPresetName(name)).toBe(true);
      expect(faultPreset(name).memoryPressure).toBeGreaterThan(0);
    }
  });

  it.each([
    ["an unknown name", "bogus", '"bogus"'],
    ["a name in the wrong case", "Light", '"Light"'],
    ["a name of Object.prototype", "toString", '"toString"'],
    ["nothing", undefined, "nothing"],
    ["null", null, "null"],
    ["a number", 1, "1"],
    ["an object without a prototype", Object.create(null), "an object"],
  ])("throws INVALID_ARGUMENT naming the presets for %s", (_what, name, shown) => {
    let thrown: unknown;
    try {
      faultPreset(name as never);
    } catch (e) {
      thrown = e;
    }
    expect(EctpError.is(thrown), String(thrown)).toBe(true);
    expect((thrown as EctpError).code).toBe("INVALID_ARGUMENT");
    expect((thrown as EctpError).message).toBe(
      `[INVALID_ARGUMENT] faultPreset: ${shown} is not a fault preset; use one of none, light, heavy, chaos`,
    );
    expect((thrown as EctpError).details).toEqual({ presets: [...FAULT_PRESETS] });
    if (typeof name === "string") expect(isFaultPresetName(name)).toBe(false);
  });

  it("an unknown preset given to a simulation is still a problem of validateConfig, not a throw", () => {
    expect(validateConfig({ faults: "bogus" as never })).toEqual([
      'faults must be one of none, light, heavy, chaos or a FaultProfile object; got "bogus"',
    ]);
  });
});

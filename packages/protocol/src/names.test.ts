import { describe, expect, it } from "vitest";
import { EctpError } from "./errors.js";
import { closestName, refuseUnknownOptions } from "./names.js";

describe("closestName (did-you-mean suggestions)", () => {
  const options = ["waitBudgetMs", "grantWaitMs", "leaseMs", "maxItemBytes"];

  it("prefers the same letters in another case, wherever it stands", () => {
    expect(closestName("LEASEMS", options, 0)).toBe("leaseMs");
    expect(closestName("waitbudgetms", ["waitBudgetMx", "waitBudgetMs"], 2)).toBe("waitBudgetMs");
  });

  it("else the nearest within maxEdits, the first of equals", () => {
    expect(closestName("waitBudgetMS", options, 2)).toBe("waitBudgetMs"); // case only: same letters
    expect(closestName("grantWaitMz", options, 2)).toBe("grantWaitMs"); // one substitution
    expect(closestName("leasMs", options, 1)).toBe("leaseMs"); // one deletion
    expect(closestName("leaseeMs", options, 1)).toBe("leaseMs"); // one insertion
    expect(closestName("ab", ["ax", "ay"], 1)).toBe("ax");
  });

  it("nothing when every candidate is further than maxEdits", () => {
    expect(closestName("leMs", options, 2)).toBeUndefined(); // three deletions from leaseMs
    expect(closestName("leMs", options, 3)).toBe("leaseMs");
    expect(closestName("x", [], 5)).toBeUndefined();
  });
});

describe("closestName: wrong types get a typed error, not a TypeError", () => {
  const refusal = (call: () => unknown): string => {
    try {
      call();
    } catch (e) {
      expect(e).toBeInstanceOf(EctpError);
      expect((e as EctpError).code).toBe("INVALID_ARGUMENT");
      return (e as EctpError).message;
    }
    throw new Error("no error");
  };

  it("refuses a name that is not a string, candidates that are not iterable, a maxEdits that is not a non-negative integer", () => {
    expect(refusal(() => closestName(7 as unknown as string, ["a"], 1))).toContain("closestName: name must be a string; got 7.");
    expect(refusal(() => closestName("a", null as unknown as string[], 1))).toContain("candidates must be an iterable of strings");
    expect(refusal(() => closestName("a", { length: 1 } as unknown as string[], 1))).toContain("got an object");
    expect(refusal(() => closestName("a", ["a"], -1))).toContain("closestName: maxEdits must be a non-negative integer; got -1.");
    expect(refusal(() => closestName("a", ["a"], 1.5))).toContain("got 1.5");
    expect(refusal(() => closestName("a", ["a"], Number.NaN))).toContain("got NaN");
  });

  it("skips candidates that are not strings", () => {
    expect(closestName("leaseMs", [7, null, "leaseMz"] as unknown as string[], 1)).toBe("leaseMz");
    expect(closestName("a", new Set(["A"]), 0)).toBe("A");
  });
});

describe("refuseUnknownOptions (the packages' option checks)", () => {
  const known = ["seed", "latencyMs", "faults"];

  it("accepts known keys (also set to undefined) and refuses the first unknown one, naming the nearest option and every option", () => {
    expect(() => refuseUnknownOptions("Thing", { seed: 1, faults: undefined }, known)).not.toThrow();
    let caught: unknown;
    try {
      refuseUnknownOptions("Thing", { seed: 1, latncyMs: 5, other: 1 }, known);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(EctpError);
    expect((caught as EctpError).code).toBe("INVALID_CONFIG");
    expect((caught as EctpError).message).toBe(
      "[INVALID_CONFIG] options.latncyMs is not an option of Thing (did you mean latencyMs?); its options are seed, latencyMs, faults. Check the spelling, or remove it.",
    );
    expect((caught as EctpError).details).toEqual({ key: "latncyMs", knownKeys: known });
  });

  it("takes the code of a function's arguments, quotes a key that is no identifier, and suggests nothing when nothing is near", () => {
    expect(() => refuseUnknownOptions("f", { "odd key": 1 }, known, "INVALID_ARGUMENT")).toThrow(
      '[INVALID_ARGUMENT] options["odd key"] is not an option of f; its options are seed, latencyMs, faults. Check the spelling, or remove it.',
    );
  });

  it("a key list that cannot be read (a Proxy whose ownKeys throws) is left to the reads that follow", () => {
    const proxy = new Proxy({}, { ownKeys: () => { throw new Error("no keys"); } });
    expect(() => refuseUnknownOptions("Thing", proxy, known)).not.toThrow();
  });
});

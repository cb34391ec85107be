import { describe, expect, it } from "vitest";
import { EctpError } from "./errors.js";
import { closestName } from "./names.js";

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
    expect(refusal(() => closestName("a", { length: 1 } as unknown as string[], 1))).toContain("got object");
    expect(refusal(() => closestName("a", ["a"], -1))).toContain("closestName: maxEdits must be a non-negative integer; got -1.");
    expect(refusal(() => closestName("a", ["a"], 1.5))).toContain("got 1.5");
    expect(refusal(() => closestName("a", ["a"], Number.NaN))).toContain("got NaN");
  });

  it("skips candidates that are not strings", () => {
    expect(closestName("leaseMs", [7, null, "leaseMz"] as unknown as string[], 1)).toBe("leaseMz");
    expect(closestName("a", new Set(["A"]), 0)).toBe("A");
  });
});

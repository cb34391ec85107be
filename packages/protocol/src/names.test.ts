import { describe, expect, it } from "vitest";
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

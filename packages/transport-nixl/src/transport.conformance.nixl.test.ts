/**
 * The conformance suite's transport level (`runTransportConformance` of @ectp/conformance, the
 * same cases the mock passes there) over two real NIXL agents in this process, through the
 * exported `nixlTransportHarness`. Skipped, with the reason in the title, without the addon.
 * Needs @ectp/conformance built (it is imported from its dist, through the workspace link).
 */
import { runTransportConformance } from "@ectp/conformance";
import { describe, expect, it } from "vitest";
import { nixlTransportHarness } from "./harness.js";
import { NIXL_MISSING, NIXL_SKIP_REASON } from "./test/helpers.js";

describe("nixlTransportHarness", () => {
  it("names its cases transport/nixl/* and, without the addon, carries the actionable load error as its skip reason", () => {
    const h = nixlTransportHarness();
    expect(h.name).toBe("nixl");
    if (NIXL_MISSING) expect(h.skipReason).toMatch(/^\[TRANSPORT_UNAVAILABLE\] .*tried: .*Fix: install NVIDIA NIXL/s);
    else expect(h.skipReason).toBeUndefined();
  });

  it("without a loadable addon every transport case is reported skipped with that reason", async () => {
    const h = nixlTransportHarness({ transport: { addonPath: "/nonexistent/ectp_nixl.node" } });
    const results = await runTransportConformance(h);
    expect(results.length).toBeGreaterThanOrEqual(9);
    for (const r of results) {
      expect(r.name).toMatch(/^transport\/nixl\//);
      expect(r.status).toBe("skipped");
      expect(r.message).toContain("/nonexistent/ectp_nixl.node");
    }
  });
});

describe.skipIf(NIXL_MISSING)(`transport level of the conformance suite over NIXL${NIXL_SKIP_REASON}`, () => {
  it("NixlTransport passes every transport/nixl/* case", async () => {
    const results = await runTransportConformance(nixlTransportHarness());
    expect(results.map((r) => `${r.name} ${r.status} ${r.message ?? ""}`)).toEqual(results.map((r) => `${r.name} passed `));
    expect(results.length).toBeGreaterThanOrEqual(9);
  }, 120_000);
});

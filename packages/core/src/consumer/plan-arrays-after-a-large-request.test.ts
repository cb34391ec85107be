/**
 * [I4] Admission's scratch arrays after one outsized request: they grow to its item count, and the
 * next admission of an ordinary request lets them go, so that the core does not keep that memory for
 * good. Requests of up to PLAN_KEPT_ITEMS (4,096) items keep the arrays they grew between calls.
 */
import { describe, expect, it } from "vitest";
import type { ConsumerCore } from "./consumer.js";
import { QUIET, expectIdle, makeConsumer, remote } from "./test-support.js";
import type { AdmitItem } from "./types.js";

/** The longest of the consumer's plan arrays (each grows to the largest request it classified). */
function longestPlanArray(core: ConsumerCore): number {
  const fields = core as unknown as Record<string, unknown>;
  let longest = 0;
  for (const [name, value] of Object.entries(fields)) if (name.startsWith("plan") && Array.isArray(value)) longest = Math.max(longest, value.length);
  return longest;
}

/** A request of `n` items the engine encodes itself (no announcement, model input held). */
function localItems(n: number): AdmitItem[] {
  return Array.from({ length: n }, (_, i) => ({ itemId: `i${i}`, hasModelInput: true }));
}

describe("[I4] admission's scratch arrays after an outsized request", () => {
  it("[I4] the next admission of at most 4,096 items lets the arrays of a 20,000-item request go", () => {
    const h = makeConsumer(QUIET);
    expect(h.core.admit({ requestId: "big", items: localItems(20_000) }, 0).status).toBe("admitted");
    expect(longestPlanArray(h.core)).toBe(20_000);
    h.core.finishRequest("big", 1);
    expect(h.core.admit({ requestId: "small", items: [remote("a", "k1")] }, 2).status).toBe("admitted");
    expect(longestPlanArray(h.core)).toBe(1);
    h.core.finishRequest("small", 3);
    h.core.poll(3);
    expectIdle(h);
  });

  it("[I4] a request of 4,096 items keeps its arrays for the next call, and the one after an outsized request is still decided in full", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "kept", items: localItems(4_096) }, 0);
    h.core.admit({ requestId: "small", items: localItems(2) }, 1);
    expect(longestPlanArray(h.core)).toBe(4_096);
    h.core.admit({ requestId: "big", items: localItems(5_000) }, 2);
    const next = h.core.admit({ requestId: "after", items: localItems(3) }, 3);
    expect(next.status === "admitted" ? next.items.map((d) => [d.itemId, d.action]) : next).toEqual([
      ["i0", "local-encode"],
      ["i1", "local-encode"],
      ["i2", "local-encode"],
    ]);
    expect(longestPlanArray(h.core)).toBe(3);
  });
});

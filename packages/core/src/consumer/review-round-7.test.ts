/**
 * Findings of a seventh review of the consumer (a code read against SPEC.md, with reproductions run
 * against the built core): a request of very many items whose budgets ran out in the same poll as
 * another failure lost every outcome of that poll [I2]; a checksum that joins a read in flight, on a
 * destination pool with no host view, ended CHECKSUM_MISMATCH though the transport reported the
 * right CRC [C11]. Each test failed on the code before its fix.
 */
import { describe, expect, it } from "vitest";
import type { AdmitItem } from "./types.js";
import { QUIET, announce, grant, makeConsumer, remote, sent } from "./test-support.js";

describe("[I2] a request of 130,000 items whose budgets run out in the poll that times its read out", () => {
  it("[I2][C3] both requests waiting on the read are reported failed at that poll, none left deferred", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 5_000, grantWaitMs: 4_500, transferTimeoutMs: 1_000, quarantineCapMs: 1_000 });
    const shared = announce("k1");
    const items: AdmitItem[] = [remote("i0", "k0")];
    for (let i = 1; i <= 130_000; i++) items.push({ itemId: `i${i}`, announcement: shared, hasModelInput: false });
    expect(h.core.admit({ requestId: "big", items }, 0).status).toBe("admitted");
    h.core.admit({ requestId: "small", items: [remote("s0", "k0")] }, 0);
    const attempts = sent(h.core.poll(0), "readRequest").map((s) => s.envelope.readRequest);
    const k0 = attempts.find((r) => new TextDecoder().decode(r?.key?.contentHash ?? new Uint8Array()) === "k0");
    // The read's deadline is 3,999 + 1,000 = 4,999, one ms before the budgets; the next poll is at 5,000.
    grant(h, Number(k0?.attemptId), 11, "k0", 3_999);
    h.core.poll(5_000);
    expect(h.logger.at("error")).toEqual([]);
    expect(
      h.core
        .drainFailed()
        .map((f) => f.requestId)
        .sort(),
    ).toEqual(["big", "small"]);
  });
});

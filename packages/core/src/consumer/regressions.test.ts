/**
 * Regression tests for the failures of docs/failures.md that concern the consumer
 * (1, 2, 3, 4, 5 and 9), each named after the failure and the rule that prevents it.
 */
import { ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { announce, env, makeConsumer, onlyAttempt, sent, starts } from "./test-support.js";

const P = "e-1";
const NOT_READY = ectp.v1.FailureReason.FAILURE_REASON_NOT_READY;

describe("background failure regressions (consumer side)", () => {
  it("failure 1 [C1][C5][C6]: a failed remote read of a metadata-only request fails that request, never falls back or throws", () => {
    const h = makeConsumer({ heartbeatIntervalMs: 1_000_000 });
    const metadataOnly = { requestId: "r", items: [{ itemId: "img", announcement: announce("h1"), hasModelInput: false }] };
    const other = { requestId: "ok", items: [{ itemId: "img", announcement: announce("h2"), hasModelInput: true }] };
    h.core.admit(metadataOnly, 0);
    h.core.admit(other, 0);
    const out = h.core.poll(0);
    const reqs = sent(out, "readRequest");
    const a1 = Number(reqs[0]?.envelope.readRequest?.attemptId);
    h.core.handleEnvelope(
      P,
      env(P, 1, { readGrant: { attemptId: a1, grantId: 1, item: announce("h1").item, leaseMs: 30_000 } }),
      1,
    );
    const start = starts(h.core.poll(1))[0];
    h.core.handleReadResult({ readId: start?.readId as number, status: "failed", error: "remote disconnect" }, 2);
    const again = h.core.admit(metadataOnly, 3);
    expect(again).toEqual({ status: "failed", failures: [{ itemId: "img", reason: "TRANSFER_FAILED", attempts: 1 }] });
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "img", reason: "TRANSFER_FAILED", attempts: 1 }] }]);
    // The engine keeps serving: the other request is still waiting, not disturbed.
    expect(h.core.admit(other, 4)).toEqual({ status: "admitted", items: [{ action: "defer", itemId: "img" }] });
  });

  it("failure 2 [C4]: NOT_READY is retried, not reported as missing", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [{ itemId: "a", announcement: announce("h1"), hasModelInput: false }] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: a1, reason: NOT_READY, retryable: true } }), 1);
    expect(h.core.drainFailed()).toEqual([]);
    const a2 = onlyAttempt(h.core.poll(100));
    expect(a2).not.toBe(a1);
  });

  it("failure 3 [C4]: a grant (ACK) wait timeout is retried and logged, and lasts 30 s by default, not 2 s", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [{ itemId: "a", announcement: announce("h1"), hasModelInput: false }] }, 0);
    h.core.poll(0);
    // Keep the producer alive (heartbeats) but silent about the request.
    for (let t = 1_000; t < 30_000; t += 1_000) {
      h.core.handleEnvelope(P, env(P, 1, { heartbeat: {} }), t);
      expect(sent(h.core.poll(t), "readRequest")).toHaveLength(0);
    }
    h.core.handleEnvelope(P, env(P, 1, { heartbeat: {} }), 30_000);
    h.core.poll(30_000);
    h.core.handleEnvelope(P, env(P, 1, { heartbeat: {} }), 30_100);
    expect(sent(h.core.poll(30_100), "readRequest")).toHaveLength(1);
    expect(h.core.drainFailed()).toEqual([]);
    expect(h.logger.at("info").some((r) => r.message.includes("no grant"))).toBe(true);
  });

  it("failure 4 [C3]: retries never reset the budget; the request fails at first wait + 60 s", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [{ itemId: "a", announcement: announce("h1"), hasModelInput: false }] }, 0);
    let out = h.core.poll(0);
    let t = 0;
    let retries = 0;
    while (t < 60_000) {
      const reqs = sent(out, "readRequest");
      for (const r of reqs) {
        const attemptId = Number(r.envelope.readRequest?.attemptId);
        h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId, reason: NOT_READY, retryable: true } }), t);
        retries++;
      }
      expect(h.core.drainFailed()).toEqual([]);
      t = Math.min(60_000, h.core.nextDeadline() as number);
      out = h.core.poll(t);
    }
    expect(retries).toBeGreaterThan(20);
    expect(h.core.drainFailed()).toEqual([
      { requestId: "r", failures: [{ itemId: "a", reason: "BUDGET_EXHAUSTED", attempts: expect.any(Number) }] },
    ]);
  });

  it("failure 5 [C3]: budgets are keyed by (request, item); a second request for the item is not failed on arrival", () => {
    const h = makeConsumer({ heartbeatIntervalMs: 1_000_000 });
    const item = { itemId: "a", announcement: announce("h1"), hasModelInput: false };
    h.core.admit({ requestId: "r1", items: [item] }, 0);
    h.core.poll(0);
    h.core.poll(59_000);
    const second = h.core.admit({ requestId: "r2", items: [item] }, 59_000);
    expect(second).toEqual({ status: "admitted", items: [{ action: "defer", itemId: "a" }] });
    h.core.poll(60_000);
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r1"]);
    expect(h.core.admit({ requestId: "r2", items: [item] }, 60_001).status).toBe("admitted");
    h.core.poll(119_000);
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r2"]);
  });

  it.each([
    ["missing", undefined],
    ["null", null],
    ["non-numeric", "4.5MB"],
    ["NaN", Number.NaN],
    ["fractional", 1.5],
    ["negative", -4],
    ["an object", { value: 5 }],
  ])("failure 9 [C2]: a %s size is a request failure, never an exception", (_name, size) => {
    const h = makeConsumer();
    const a = announce("h1");
    const bad = { ...a, item: { ...a.item, sizeBytes: size } };
    const admit = () => h.core.admit({ requestId: "r", items: [{ itemId: "a", announcement: bad as never, hasModelInput: false }] }, 0);
    expect(admit).not.toThrow();
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "INVALID_ANNOUNCEMENT", attempts: 0 }] }]);
  });
});

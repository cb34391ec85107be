/**
 * [C6] One failure report names every item that ended at the event that failed the request: reads
 * of one request timing out at the same poll, producers found silent at the same poll, and items
 * whose budgets ran out at the instant another input failed the request [C3]. Each test failed
 * before its fix.
 */
import { describe, expect, it } from "vitest";
import { announce, env, makeConsumer, P, QUIET, remote, sent, starts } from "./test-support.js";

/** The request's one failure report names both its items, a and b, with `reason`. */
function expectOneReportNamingBoth(h: ReturnType<typeof makeConsumer>, reason: string): void {
  const failed = h.core.drainFailed();
  expect(failed).toHaveLength(1);
  expect(failed[0]?.failures.map((f) => [f.itemId, f.reason]).sort()).toEqual([
    ["a", reason],
    ["b", reason],
  ]);
}

describe("one failure report per request names every item ended at that event", () => {
  it("[C6] two reads of one request timing out at the same poll are both named in its one report", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 0);
    const reqs = sent(h.core.poll(0), "readRequest");
    expect(reqs).toHaveLength(2);
    const a1 = Number(reqs[0]?.envelope.readRequest?.attemptId);
    const a2 = Number(reqs[1]?.envelope.readRequest?.attemptId);
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: a1, grantId: 1, item: announce("h1").item, leaseMs: 30_000 } }), 1);
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: a2, grantId: 2, item: announce("h2").item, leaseMs: 30_000 } }), 1);
    expect(starts(h.core.poll(1))).toHaveLength(2);
    h.core.handleEnvelope(P, env(P, 1, { heartbeat: {} }), 20_000);
    h.core.poll(20_001); // both reads' deadlines (1 + 20 s) pass at this one poll
    expectOneReportNamingBoth(h, "TRANSFER_TIMEOUT");
  });

  it("[C6] two producers found silent at the same poll: both items of the request named", () => {
    const h = makeConsumer({ heartbeatIntervalMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2", false, { producer: "e-2" })] }, 0);
    const out = h.core.poll(0);
    const byPeer = (peer: string) => Number(sent(out, "readRequest").find((o) => o.peerId === peer)?.envelope.readRequest?.attemptId);
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: byPeer(P), grantId: 1, item: announce("h1").item, leaseMs: 30_000 } }), 0);
    h.core.handleEnvelope("e-2", env("e-2", 1, { readGrant: { attemptId: byPeer("e-2"), grantId: 1, item: announce("h2", { producer: "e-2" }).item, leaseMs: 30_000 } }), 0);
    expect(starts(h.core.poll(0))).toHaveLength(2);
    h.core.poll(10_000); // both silent past their heartbeats: granted work fails PEER_UNREACHABLE
    expectOneReportNamingBoth(h, "PEER_UNREACHABLE");
  });

  it("[C6][C3] a read result handled at the budget deadline names every item whose budget ran out then, as a poll would", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 0);
    const reqs = sent(h.core.poll(0), "readRequest");
    const a1 = Number(reqs[0]?.envelope.readRequest?.attemptId);
    h.core.handleEnvelope(P, env(P, 1, { heartbeat: {} }), 50_000);
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: a1, grantId: 1, item: announce("h1").item, leaseMs: 30_000 } }), 50_000);
    const start = starts(h.core.poll(50_000))[0];
    // Both budgets (0 + 60 s) have run out; the read's failure is handled before the poll at 60 s.
    h.core.handleReadResult({ readId: start?.readId as number, status: "failed" }, 60_000);
    expectOneReportNamingBoth(h, "BUDGET_EXHAUSTED");
  });
});

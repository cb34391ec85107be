/**
 * Review, fifth round: sequences where rules meet. A fetch shared by several requests [C9] whose
 * waiters leave by budget [C3] and finish [C7] while its read runs or is quarantined [C8]; a
 * producer's new epoch [P8] during a read later cancelled or quarantined; failure reports of a
 * request whose items end at different polls [C6]; and the return of stats() to baseline [I4].
 */
import { ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { P, QUIET, acks, announce, env, expectIdle, fill, grant, makeConsumer, onlyAttempt, remote, sent, starts } from "./test-support.js";

const ABANDONED = ectp.v1.CompletionStatus.COMPLETION_STATUS_ABANDONED;
const OK = ectp.v1.CompletionStatus.COMPLETION_STATUS_OK;
const R = ectp.v1.FailureReason;
type Start = ReturnType<typeof starts>[0];

/** r (budget from 0) and s (joining at `joinAt`) share the fetch of h1; its read starts at 1. */
function sharedRead(config: Parameters<typeof makeConsumer>[0] = {}, joinAt = 0, sModel = false, rModel = false) {
  const h = makeConsumer({ ...QUIET, ...config });
  h.core.admit({ requestId: "r", items: [remote("a", "h1", rModel)] }, 0);
  const attempt = onlyAttempt(h.core.poll(0));
  h.core.admit({ requestId: "s", items: [remote("b", "h1", sModel)] }, joinAt);
  h.core.poll(joinAt);
  const start = starts(grant(h, attempt, 8, "h1", Math.max(1, joinAt)))[0] as Start;
  if (start === undefined) throw new Error("no read started");
  return { h, start };
}

/** Request r alone waits for h1; granted at 0 (grant id 8), its read starts. */
function oneRead(config: Parameters<typeof makeConsumer>[0] = {}) {
  const h = makeConsumer({ ...QUIET, ...config });
  h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
  const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0))[0] as Start;
  if (start === undefined) throw new Error("no read started");
  return { h, start };
}

/** sharedRead's read quarantined at its transfer deadline (20 001), both failures drained, r and s finished. */
function quarantinedAndFinished() {
  const rig = sharedRead();
  rig.h.core.poll(20_001);
  rig.h.core.drainFailed();
  rig.h.core.finishRequest("r", 20_002);
  rig.h.core.finishRequest("s", 20_003);
  return rig;
}

describe("[C9][C3][C7][C8] a shared read whose waiters leave", () => {
  it("[C9][C3][C7] r's budget ends (model input), s finishes: the read is cancelled, its grant released ABANDONED when it settles, and all returns to baseline", () => {
    const { h, start } = sharedRead({ waitBudgetMs: 5_000, transferTimeoutMs: 20_000 }, 0, false, true);
    h.core.poll(5_000); // r's budget ends: local encode for r
    expect(h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 5_000)).toMatchObject({ status: "admitted", items: [{ action: "local-encode" }] });
    h.core.finishRequest("r", 5_001);
    expect(h.core.drainFailed()).toEqual([{ requestId: "s", failures: [{ itemId: "b", reason: "BUDGET_EXHAUSTED", attempts: 1 }] }]);
    h.core.finishRequest("s", 5_002);
    const out = h.core.poll(5_002);
    expect(acks(out)).toEqual([]);
    h.core.handleReadResult({ readId: start.readId, status: "cancelled" }, 5_003);
    expect(acks(h.core.poll(5_003))).toEqual([[8, ABANDONED]]);
    expectIdle(h);
  });

  it("[C3][C1] bytes the shared read loads after r's budget ended do not revive r: re-presented, r stays local-encode while s is ready", () => {
    const { h, start } = sharedRead({ waitBudgetMs: 5_000, transferTimeoutMs: 20_000 }, 3_000, false, true);
    h.core.poll(5_000); // r's budget ends (model input); s, joined at 3 000, waits until 8 000
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 6_000);
    expect(acks(h.core.poll(6_000))).toEqual([[8, OK]]);
    expect(h.core.admit({ requestId: "s", items: [remote("b", "h1")] }, 6_001)).toMatchObject({ items: [{ action: "ready" }] });
    expect(h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 6_001)).toMatchObject({
      items: [{ action: "local-encode", reason: "BUDGET_EXHAUSTED" }],
    });
    h.core.finishRequest("r", 6_002);
    h.core.finishRequest("s", 6_002);
    expectIdle(h);
  });

  it("[C9][C7] s finishes while r still waits: the read goes on and loads for r", () => {
    const { h, start } = sharedRead();
    h.core.finishRequest("s", 2);
    expect(h.core.poll(2).filter((o) => o.type === "cancel-read")).toEqual([]);
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 3);
    expect(acks(h.core.poll(3))).toEqual([[8, OK]]);
    expect(h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 4)).toMatchObject({ items: [{ action: "ready" }] });
    h.core.finishRequest("r", 5);
    expectIdle(h);
  });

  it("[C8][C6] a shared read quarantined fails both waiters with TRANSFER_TIMEOUT, each reported once; a late done result loads nothing; cap or settle, baseline", () => {
    const { h, start } = sharedRead();
    const out = h.core.poll(20_001);
    expect(out).toContainEqual({ type: "cancel-read", readId: start.readId });
    const failed = h.core.drainFailed();
    expect(failed.map((f) => [f.requestId, f.failures.map((x) => x.reason)]).sort()).toEqual([
      ["r", ["TRANSFER_TIMEOUT"]],
      ["s", ["TRANSFER_TIMEOUT"]],
    ]);
    expect(h.core.drainFailed()).toEqual([]);
    h.core.finishRequest("r", 20_002);
    h.core.finishRequest("s", 20_003);
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 30_000);
    h.core.poll(30_000);
    expect(h.core.stats().loadedItems).toBe(0);
    expectIdle(h);
  });

  it("[C8][I4] a shared read quarantined, both finished, cap passes with no settlement: baseline; a later settlement is ignored", () => {
    const { h, start } = quarantinedAndFinished();
    h.core.poll(80_001);
    expectIdle(h);
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 90_000);
    h.core.poll(90_000);
    expectIdle(h);
  });

  it("[C8][C9] quarantined read of h1 still unsettled (its deadline passed): a new request for h1 fetches at once, and loads", () => {
    const { h, start } = quarantinedAndFinished();
    h.core.admit({ requestId: "t", items: [remote("c", "h1")] }, 21_000);
    const attempt = onlyAttempt(h.core.poll(21_000));
    h.core.handleReadResult({ readId: start.readId, status: "cancelled" }, 22_000);
    const st = starts(grant(h, attempt, 9, "h1", 22_001))[0] as Start;
    fill(st, "h1");
    h.core.handleReadResult({ readId: st.readId, status: "done", bytesRead: 16 }, 22_002);
    h.core.poll(22_002);
    h.core.finishRequest("t", 22_003);
    expectIdle(h);
  });
});

describe("[P8][C7][C8] a new producer epoch during a read", () => {
  it("[P8][C7] a new epoch voids the grant; r finished before the read settles: no ACK owed, baseline after settlement", () => {
    const { h, start } = oneRead();
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 2);
    h.core.poll(2);
    h.core.drainFailed();
    h.core.finishRequest("r", 3);
    h.core.poll(3);
    h.core.handleReadResult({ readId: start.readId, status: "cancelled" }, 4);
    expect(acks(h.core.poll(4))).toEqual([]);
    expectIdle(h);
  });

  it("[P8][C1] a greater-epoch announcement while the read runs: r joins it; the read then fails: the fetch retries at epoch 2, within budget", () => {
    const { h, start } = oneRead();
    h.core.admit({ requestId: "s", items: [remote("b", "h1", false, { epoch: 2 })] }, 2);
    h.core.poll(2);
    h.core.handleReadResult({ readId: start.readId, status: "failed", error: "x" }, 3);
    const out = h.core.poll(3);
    expect(h.core.drainFailed()).toEqual([]);
    let reqs = sent(out, "readRequest");
    if (reqs.length === 0) reqs = sent(h.core.poll(h.core.nextDeadline() ?? 3), "readRequest");
    expect(reqs.map((o) => o.envelope.readRequest?.expectedEpoch)).toEqual([2]);
  });

  it("[P8][C8] a new epoch then a quarantine-cap: r (model input) local-encodes; grants from epoch 2 for the old attempt are not taken; baseline", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    const start = starts(grant(h, attempt, 8, "h1", 1))[0] as Start;
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 2);
    h.core.poll(2);
    expect(h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 3)).toMatchObject({ items: [{ action: "local-encode" }] });
    h.core.finishRequest("r", 4);
    h.core.poll(80_001);
    expectIdle(h);
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 80_002);
    h.core.poll(80_002);
    expectIdle(h);
  });
});

describe("[C6] a request whose items fail at different polls", () => {
  it("[C6] two items, one rejected NOT_FOUND at 1, the other's budget runs out later: one report naming the first; a re-admission answers the same", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 0);
    const ids = sent(h.core.poll(0), "readRequest").map((o) => Number(o.envelope.readRequest?.attemptId));
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: ids[0] as number, reason: R.FAILURE_REASON_NOT_FOUND } }), 1);
    h.core.poll(1);
    h.core.poll(1_000);
    const f = h.core.drainFailed();
    expect(f).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "NOT_FOUND", attempts: 1 }] }]);
    expect(h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 1_001)).toEqual({ status: "failed", failures: f[0]?.failures });
    expect(h.core.drainFailed()).toEqual([]);
    h.core.finishRequest("r", 1_002);
    h.core.poll(1_002);
    expectIdle(h);
  });

  it("[C6] two items of one request end at the same poll by budgets: both named", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 0);
    h.core.poll(0);
    h.core.poll(1_000);
    const f = h.core.drainFailed();
    expect(f[0]?.failures.map((x) => x.itemId)).toEqual(["a", "b"]);
  });

  it("[C6] items a and b share one fetch (same key) in one request: a terminal reject names both", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: attempt, reason: R.FAILURE_REASON_NOT_FOUND } }), 1);
    h.core.poll(1);
    const f = h.core.drainFailed();
    expect(f).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "NOT_FOUND", attempts: 1 }, { itemId: "b", reason: "NOT_FOUND", attempts: 1 }] }]);
    h.core.finishRequest("r", 2);
    expectIdle(h);
  });

  it("[C6][C7] a's read loaded, b fails later; the failed request is finished: destination released, baseline", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 0);
    const ids = sent(h.core.poll(0), "readRequest").map((o) => Number(o.envelope.readRequest?.attemptId));
    const st = starts(grant(h, ids[0] as number, 8, "h1", 1))[0] as Start;
    const st2 = starts(grant(h, ids[1] as number, 9, "h2", 1))[0] as Start;
    fill(st, "h1");
    h.core.handleReadResult({ readId: st.readId, status: "done", bytesRead: 16 }, 2);
    h.core.poll(1_000); // b's read in flight; b's budget ends: r fails; the read of h2 is abandoned
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "b", reason: "BUDGET_EXHAUSTED", attempts: 1 }] }]);
    h.core.finishRequest("r", 1_001);
    h.core.handleReadResult({ readId: st2.readId, status: "cancelled" }, 1_002);
    expect(acks(h.core.poll(1_002))).toEqual([[9, ABANDONED]]);
    expectIdle(h);
  });
});

describe("[I4] grants released unread", () => {
  it("[C7][I4] a grant arriving after the only waiter finished is released ABANDONED at once; baseline", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.finishRequest("r", 1);
    expect(acks(grant(h, attempt, 8, "h1", 2))).toEqual([[8, ABANDONED]]);
    expectIdle(h);
  });

  it("[C7][I4] a grant arriving after the only waiter's budget ended (with model input) is released ABANDONED at once", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.poll(1_000);
    expect(acks(grant(h, attempt, 8, "h1", 1_001))).toEqual([[8, ABANDONED]]);
    h.core.finishRequest("r", 1_002);
    expectIdle(h);
  });
});

describe("[C9][C8] more", () => {
  it("[C7][C8] a read abandoned by its only waiter, unsettled at its deadline: quarantined, grant released ABANDONED then, cap frees it: baseline", () => {
    const { h, start } = oneRead();
    h.core.finishRequest("r", 1);
    expect(h.core.poll(1)).toContainEqual({ type: "cancel-read", readId: start.readId });
    expect(acks(h.core.poll(19_999))).toEqual([]);
    expect(acks(h.core.poll(20_000))).toEqual([[8, ABANDONED]]);
    expect(h.pool.live.size).toBe(1);
    h.core.poll(80_000);
    expectIdle(h);
  });

  it("[P8][C1] s joined with a greater-epoch announcement; then epoch 2 is seen during the read: the fetch does not end, it retries at epoch 2", () => {
    const { h, start } = oneRead();
    h.core.admit({ requestId: "s", items: [remote("b", "h1", false, { epoch: 2 })] }, 2);
    h.core.poll(2);
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 3);
    const out = h.core.poll(3);
    expect(out).toContainEqual({ type: "cancel-read", readId: start.readId });
    expect(h.core.drainFailed()).toEqual([]);
    let reqs = sent(out, "readRequest");
    for (let t = 4; reqs.length === 0 && t < 20_000; t = Math.max(t + 1, h.core.nextDeadline() ?? t + 1)) reqs = sent(h.core.poll(t), "readRequest");
    expect(reqs[0]?.envelope.readRequest?.expectedEpoch).toBe(2);
  });

  it("[C3][C9] a read done handled exactly at r's budget deadline: r ends BUDGET_EXHAUSTED, s (later budget) loads", () => {
    const { h, start } = sharedRead({ waitBudgetMs: 1_000 }, 500);
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 1_000);
    h.core.poll(1_000);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "BUDGET_EXHAUSTED", attempts: 1 }] }]);
    expect(h.core.admit({ requestId: "s", items: [remote("b", "h1")] }, 1_000)).toMatchObject({ items: [{ action: "ready" }] });
    h.core.finishRequest("r", 1_001);
    h.core.finishRequest("s", 1_002);
    expectIdle(h);
  });

  it("[C7][I4] an abandoned read that settles done: nothing loaded for nobody, its grant released ABANDONED, baseline", () => {
    const { h, start } = oneRead();
    h.core.finishRequest("r", 1);
    h.core.poll(1);
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2);
    expect(acks(h.core.poll(2))).toEqual([[8, ABANDONED]]);
    expectIdle(h);
  });

  it("[C9] a request for an item whose abandoned read still runs sends no ReadRequest before it settles; then it is served", () => {
    const { h, start } = oneRead();
    h.core.finishRequest("r", 1);
    h.core.poll(1);
    h.core.admit({ requestId: "t", items: [remote("c", "h1")] }, 2);
    expect(sent(h.core.poll(2), "readRequest")).toEqual([]);
    h.core.handleReadResult({ readId: start.readId, status: "cancelled" }, 3);
    const out = h.core.poll(3);
    expect(acks(out)).toEqual([[8, ABANDONED]]);
    const attempt = onlyAttempt(out);
    const st = starts(grant(h, attempt, 9, "h1", 4))[0] as Start;
    fill(st, "h1");
    h.core.handleReadResult({ readId: st.readId, status: "done", bytesRead: 16 }, 5);
    h.core.poll(5);
    expect(h.core.admit({ requestId: "t", items: [remote("c", "h1")] }, 6)).toMatchObject({ items: [{ action: "ready" }] });
    h.core.finishRequest("t", 7);
    expectIdle(h);
  });

  it("[C9][C3] waiting on an abandoned read: t's budget ends first (BUDGET_EXHAUSTED); baseline after the read settles", () => {
    const { h, start } = oneRead({ waitBudgetMs: 1_000 });
    h.core.finishRequest("r", 1);
    h.core.poll(1);
    h.core.admit({ requestId: "t", items: [remote("c", "h1")] }, 2);
    h.core.poll(2);
    h.core.poll(1_002);
    expect(h.core.drainFailed()).toEqual([{ requestId: "t", failures: [{ itemId: "c", reason: "BUDGET_EXHAUSTED", attempts: 0 }] }]);
    h.core.finishRequest("t", 1_003);
    h.core.handleReadResult({ readId: start.readId, status: "cancelled" }, 1_004);
    expect(acks(h.core.poll(1_004))).toEqual([[8, ABANDONED]]);
    expectIdle(h);
  });

  it("[C8][C6] the quarantine cap passes before the failed requests are finished: destination freed, then finishing returns to baseline", () => {
    const { h } = sharedRead();
    h.core.poll(20_001);
    h.core.poll(80_001);
    expect(h.pool.live.size).toBe(0);
    expect(h.core.drainFailed()).toHaveLength(2);
    h.core.finishRequest("r", 80_002);
    h.core.finishRequest("s", 80_003);
    expectIdle(h);
  });

  it("[P8][C7] epoch 2 seen while an abandoned read settles: no ACK to the old epoch; baseline", () => {
    const { h, start } = oneRead();
    h.core.finishRequest("r", 1);
    h.core.poll(1);
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 2);
    h.core.poll(2);
    h.core.handleReadResult({ readId: start.readId, status: "cancelled" }, 3);
    expect(acks(h.core.poll(3))).toEqual([]);
    expectIdle(h);
  });

  it("[C4][C3] retry time past r's budget: no retry, r ends at its deadline; t joining before the retry time resumes the fetch at that time, not sooner", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: attempt, reason: R.FAILURE_REASON_NOT_READY, retryable: true, retryAfterMs: 1_500 } }), 10);
    h.core.poll(10);
    expect(h.core.drainFailed()).toEqual([]);
    h.core.admit({ requestId: "t", items: [remote("c", "h1")] }, 800);
    expect(sent(h.core.poll(800), "readRequest")).toEqual([]);
    expect(sent(h.core.poll(1_000), "readRequest")).toEqual([]);
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r"]);
    expect(sent(h.core.poll(1_509), "readRequest")).toEqual([]);
    expect(sent(h.core.poll(1_510), "readRequest")).toHaveLength(1);
  });

  it("[C3][C8] r's budget deadline ties the read's transfer deadline: r ends BUDGET_EXHAUSTED, s TRANSFER_TIMEOUT", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 20_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0); // the read's deadline: 20 000
    h.core.admit({ requestId: "s", items: [remote("b", "h1")] }, 5);
    h.core.poll(5);
    h.core.poll(20_000);
    const f = h.core.drainFailed().map((x) => [x.requestId, x.failures[0]?.reason]).sort();
    expect(f).toEqual([
      ["r", "BUDGET_EXHAUSTED"],
      ["s", "TRANSFER_TIMEOUT"],
    ]);
  });

  it("[C3][C5] a terminal reject handled exactly at r's deadline: r BUDGET_EXHAUSTED, s NOT_FOUND, both in one drain", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.admit({ requestId: "s", items: [remote("b", "h1")] }, 5);
    h.core.poll(5);
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: attempt, reason: R.FAILURE_REASON_NOT_FOUND } }), 1_000);
    const f = h.core.drainFailed().map((x) => [x.requestId, x.failures[0]?.reason]).sort();
    expect(f).toEqual([
      ["r", "BUDGET_EXHAUSTED"],
      ["s", "NOT_FOUND"],
    ]);
  });

  it("[C6] a failed request re-admitted before the drain: one report, the same failure; after finish, the id starts afresh", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 0);
    const ids = sent(h.core.poll(0), "readRequest").map((o) => Number(o.envelope.readRequest?.attemptId));
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: ids[1] as number, reason: R.FAILURE_REASON_NOT_FOUND } }), 1);
    const again = h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 2);
    expect(again).toEqual({ status: "failed", failures: [{ itemId: "b", reason: "NOT_FOUND", attempts: 1 }] });
    expect(sent(h.core.poll(2), "readRequest")).toEqual([]);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "b", reason: "NOT_FOUND", attempts: 1 }] }]);
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 3);
    expect(h.core.drainFailed()).toEqual([]);
    h.core.finishRequest("r", 4);
    h.core.poll(4);
    expectIdle(h);
    expect(h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 5)).toMatchObject({ status: "admitted", items: [{ action: "defer" }] });
  });

  it("[C8][C11] a shared read past its lease deadline (earlier than the transfer deadline): both waiters LEASE_EXPIRED; baseline after cap", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.admit({ requestId: "s", items: [remote("b", "h1", true)] }, 0);
    h.core.poll(0);
    const start = starts(grant(h, attempt, 8, "h1", 0, { leaseMs: 10_000 }))[0] as Start; // lease deadline 5 000
    expect(h.core.poll(5_000)).toContainEqual({ type: "cancel-read", readId: start.readId });
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "LEASE_EXPIRED", attempts: 1 }] }]);
    expect(h.core.admit({ requestId: "s", items: [remote("b", "h1", true)] }, 5_001)).toMatchObject({ items: [{ action: "local-encode" }] });
    h.core.finishRequest("r", 5_002);
    h.core.finishRequest("s", 5_003);
    h.core.poll(65_000);
    expectIdle(h);
  });

  it("[P8][C1][C9] a greater-epoch announcement joins while the attempt is unanswered: the fetch moves to epoch 2 at once; the old attempt's grant is released ABANDONED", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const old = onlyAttempt(h.core.poll(0));
    h.core.admit({ requestId: "s", items: [remote("b", "h1", false, { epoch: 2 })] }, 1);
    const out = h.core.poll(1);
    const reqs = sent(out, "readRequest");
    expect(reqs.map((o) => o.envelope.readRequest?.expectedEpoch)).toEqual([2]);
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: old, grantId: 8, item: announce("h1").item, leaseMs: 30_000 } }), 2);
    expect(acks(h.core.poll(2))).toEqual([[8, ABANDONED]]);
    expect(h.core.drainFailed()).toEqual([]);
  });
});

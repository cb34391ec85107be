/**
 * Sequences of the consumer's rules that no other test walked through: quarantine that starts
 * late or early [C8], a fetch shared by requests with separate budgets [C9][C3], liveness and
 * epochs [P8][C10], retries and their reasons [C4], ACKs and release [C7], failure reports [C6],
 * stats. Each test was written against a hand mutant of consumer.ts that the other tests (and,
 * for all but one, the conformance suite) let pass; the mutant is named above it (review of
 * 2026-12-01, second round).
 */
import { announcementToJson, ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { CoreOutput } from "../outputs.js";
import { ConsumerCore } from "./consumer.js";
import { FP, P, QUIET, TestPool, acks, announce, decision, descriptor, env, expectIdle, fill, grant, makeConsumer, onlyAttempt, remote, sent, starts } from "./test-support.js";

const OK = ectp.v1.CompletionStatus.COMPLETION_STATUS_OK;
const ABANDONED = ectp.v1.CompletionStatus.COMPLETION_STATUS_ABANDONED;
const R = ectp.v1.FailureReason;

type H = ReturnType<typeof makeConsumer>;
type Start = ReturnType<typeof starts>[0];

function reject(h: H, attemptId: number, now: number, retryAfterMs = 0) {
  h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId, reason: R.FAILURE_REASON_NOT_READY, retryable: true, retryAfterMs } }), now);
}

describe("consumer sequences: quarantine [C8]", () => {
  // Mutant: quarantine() schedules the cap at `r.deadline + cap` instead of `max(now, r.deadline) + cap`.
  it("[C8][I5] the quarantine cap runs from the start of the quarantine: a read quarantined by a late poll keeps its destination a full cap", () => {
    const h = makeConsumer(QUIET); // transfer timeout 20 s, cap 60 s
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0))[0] as Start;
    // The driver polls late: the read's deadline (20 s) passed at 50 s, so the quarantine starts at 50 s.
    const out = h.core.poll(50_000);
    expect(out).toContainEqual({ type: "cancel-read", readId: start.readId });
    expect(h.core.stats().quarantined).toBe(1);
    h.core.poll(80_000); // deadline + cap, but only 30 s into the quarantine
    expect(h.pool.live.has(start.destination)).toBe(true);
    h.core.poll(109_999);
    expect(h.pool.live.has(start.destination)).toBe(true);
    h.core.poll(110_000);
    expect(h.pool.live.size).toBe(0);
    expect(h.metrics.total("ectp_consumer_quarantine_cap_releases_total")).toBe(1);
    h.core.finishRequest("r", 110_001);
    h.core.drainFailed();
    expectIdle(h);
  });
  // Mutant: quarantine() schedules the cap at `now + cap` (a read orphaned early is released before its deadline + cap).
  // (Only the random property test killed it, on some seeds.)
  it("[C8][I5] a read cancelled early by a producer restart keeps its destination until its own deadline plus the cap", () => {
    const h = makeConsumer(QUIET); // transfer timeout 20 s, cap 60 s
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0))[0] as Start;
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 1); // new epoch: the read is cancelled at 1 ms
    expect(h.core.poll(1)).toContainEqual({ type: "cancel-read", readId: start.readId });
    h.core.poll(60_001); // a cap after the cancel, but before the read's deadline (20 s) + the cap
    expect(h.pool.live.has(start.destination)).toBe(true);
    h.core.poll(79_999);
    expect(h.pool.live.has(start.destination)).toBe(true);
    h.core.poll(80_000);
    expect(h.pool.live.size).toBe(0);
  });
});

describe("consumer sequences: a fetch ended during its read [C5][C7][C8]", () => {
  const FAILED = ectp.v1.CompletionStatus.COMPLETION_STATUS_FAILED;
  /** r waits for a; its read is in flight when the producer refuses C1's Hello at 10 ms. */
  function refusedDuringRead() {
    const h = makeConsumer(QUIET); // transfer timeout 20 s
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0))[0] as Start;
    h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE } }), 10);
    const out = h.core.poll(10);
    return { h, start, out };
  }

  // SPEC 4.6: no ReadComplete under a READ that may still be running (the producer would free its source memory).
  it("[C5][C7] a HandshakeReject during a read fails the request at once and cancels the read; the grant is released FAILED once the read settles", () => {
    const { h, start, out } = refusedDuringRead();
    expect(out).toContainEqual({ type: "cancel-read", readId: start.readId });
    expect(acks(out)).toEqual([]);
    expect(h.core.drainFailed().map((f) => f.failures[0]?.reason)).toEqual(["INCOMPATIBLE"]);
    expect(h.core.stats()).toMatchObject({ grantsHeld: 1, destinations: 1, quarantined: 0 });
    h.core.handleReadResult({ readId: start.readId, status: "cancelled" }, 11);
    expect(acks(h.core.poll(11))).toEqual([[8, FAILED]]);
    expect(h.pool.live.size).toBe(0);
    h.core.finishRequest("r", 12);
    expectIdle(h);
  });

  it("[C5][C8] such a read still unsettled at its deadline is quarantined then, and its grant released FAILED then, once", () => {
    const { h, start } = refusedDuringRead();
    h.core.drainFailed();
    expect(acks(h.core.poll(19_999))).toEqual([]);
    expect(acks(h.core.poll(20_000))).toEqual([[8, FAILED]]);
    expect(h.core.stats()).toMatchObject({ grantsHeld: 0, quarantined: 1 });
    h.core.handleReadResult({ readId: start.readId, status: "cancelled" }, 20_001);
    expect(acks(h.core.poll(20_001))).toEqual([]);
    expect(h.pool.live.size).toBe(0);
    h.core.finishRequest("r", 20_002);
    expectIdle(h);
  });
});

describe("consumer sequences: a failed request's verified bytes [C6][C7]", () => {
  it("[C6][C7] a request that fails keeps the bytes of an item it reported ready until it is finished; they serve other requests meanwhile", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 0);
    const out = h.core.poll(0);
    const [a] = sent(out, "readRequest").map((o) => Number(o.envelope.readRequest?.attemptId));
    const [start] = starts(grant(h, a as number, 7, "h1", 1));
    if (start === undefined) throw new Error("no read started");
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: start.destination.length }, 2);
    const ready = decision(h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 3));
    expect(ready).toMatchObject({ action: "ready", destination: start.destination });
    h.core.poll(1_000); // b's budget runs out between the engine's calls: r fails (no model input for b)
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r"]);
    expect(h.pool.live.has(start.destination)).toBe(true); // the engine may still be copying a
    expect(decision(h.core.admit({ requestId: "s", items: [remote("a", "h1")] }, 1_001))).toMatchObject({ action: "ready", destination: start.destination });
    h.core.finishRequest("r", 1_002);
    expect(h.pool.live.has(start.destination)).toBe(true); // s still holds it
    h.core.finishRequest("s", 1_003);
    expect(h.pool.live.size).toBe(0);
    expectIdle(h);
  });
});

describe("consumer sequences: the default jitter seed [C4]", () => {
  // Mutants: without options.seed the seed is a constant, or ignores the id or the epoch.
  it("[C4] without a seed the retries' jitter comes from the id and the epoch: the same options give the same schedule, another id or epoch another", () => {
    const firstRetryAt = (id: string, epoch: number) => {
      const config = { ...QUIET, waitBudgetMs: 60_000, backoffInitialMs: 10_000, backoffMaxMs: 10_000 };
      const core = new ConsumerCore({ id, epoch, fingerprint: FP, destinations: new TestPool(), transportMetadata: new Uint8Array([9]), config });
      core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
      const attemptId = onlyAttempt(core.poll(0));
      core.handleEnvelope(P, env(P, 1, { readReject: { attemptId, reason: R.FAILURE_REASON_NOT_READY, retryable: true } }), 0);
      core.poll(0);
      return core.nextDeadline() as number; // the retry, jittered in [5 000, 10 000]
    };
    const first = firstRetryAt("pd-a", 1);
    expect(first).toBeGreaterThanOrEqual(5_000);
    expect(first).toBeLessThanOrEqual(10_000);
    expect(firstRetryAt("pd-a", 1)).toBe(first);
    expect(firstRetryAt("pd-b", 1)).not.toBe(first);
    expect(firstRetryAt("pd-a", 2)).not.toBe(first);
  });
});

describe("consumer sequences: single flight, separate budgets [C9][C3][C4]", () => {
  // Mutant: retryFetch looks only at the first waiter's budget to decide whether a retry is worth scheduling.
  it("[C9][C4] a retry is scheduled when a later waiter still has budget at the retry time, though the first waiter's ends before", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // budget ends 1 000
    const a1 = onlyAttempt(h.core.poll(0));
    h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 500); // budget ends 1 500
    h.core.poll(500);
    reject(h, a1, 600, 700); // retry at 1 300 (hint 700 > backoff): after r1's budget, inside r2's
    h.core.poll(600);
    h.core.poll(1_000);
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r1"]);
    expect(sent(h.core.poll(1_300), "readRequest")).toHaveLength(1);
  });

  // Mutant: onFetchTimer looks only at the first waiter's budget before sending the retry.
  it("[C9][C4] a retry handled by a late poll is sent for a later waiter with budget, though the first waiter's budget passed", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // budget ends 1 000
    const a1 = onlyAttempt(h.core.poll(0));
    h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 500); // budget ends 1 500
    h.core.poll(500);
    reject(h, a1, 600, 300); // retry due at 900
    h.core.poll(600);
    const out = h.core.poll(1_200); // late: the retry (900) and r1's budget (1 000) both fall due
    expect(sent(out, "readRequest")).toHaveLength(1);
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r1"]);
  });

  // Mutant: budgetsOver looks only at the first waiter.
  it("[C9][C3] a grant arriving after the first waiter's budget but inside a later waiter's is read, not released", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // budget ends 1 000
    const a1 = onlyAttempt(h.core.poll(0));
    h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 500); // budget ends 1 500
    h.core.poll(500);
    const out = grant(h, a1, 7, "h1", 1_200); // before any poll past 1 000: r1 is still a waiter
    expect(acks(out)).toEqual([]);
    const start = starts(out)[0] as Start;
    expect(start).toBeDefined();
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r1"]);
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 1_300);
    expect(acks(h.core.poll(1_300))).toEqual([[7, OK]]);
    expect(decision(h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 1_300))).toEqual({ action: "ready", itemId: "b", destination: start.destination });
    h.core.finishRequest("r1", 1_301);
    h.core.finishRequest("r2", 1_301);
    expectIdle(h);
  });
});

describe("consumer sequences: waiter lists and budget timers [C9][C7][C3]", () => {
  // Mutant: unlinkWaiter does not relink `prev.wNext` (a middle waiter leaving stays reachable from its predecessor).
  it("[C9][C7] a middle waiter leaving a shared fetch is gone from it: the loaded item is freed with its last remaining holder", () => {
    const h = makeConsumer(QUIET);
    for (const r of ["r1", "r2", "r3"]) h.core.admit({ requestId: r, items: [remote(`i-${r}`, "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.finishRequest("r2", 1); // the middle of three waiters
    const start = starts(grant(h, attempt, 7, "h1", 2))[0] as Start;
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 3);
    expect(acks(h.core.poll(3))).toEqual([[7, OK]]);
    expect(decision(h.core.admit({ requestId: "r3", items: [remote("i-r3", "h1")] }, 4))).toMatchObject({ action: "ready" });
    h.core.finishRequest("r1", 5);
    h.core.finishRequest("r3", 5);
    expectIdle(h);
  });

  // Mutant: a waiter made ready by a load keeps its budget timer.
  it("[C3] once an item is loaded its waiter's budget timer is gone: nextDeadline names no budget of a ready item", () => {
    const h = makeConsumer(QUIET); // budget 60 s, heartbeats 1 000 s
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1))[0] as Start;
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2);
    h.core.poll(2);
    expect(decision(h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 3))).toMatchObject({ action: "ready" });
    expect(h.core.nextDeadline() ?? Number.POSITIVE_INFINITY).toBeGreaterThan(60_000);
  });

  // Mutant: a waiter ended by a terminal outcome (local encode with model input) keeps its budget timer.
  it("[C5][C3] once a terminal outcome resolves an item to local encode its budget timer is gone", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: attempt, reason: R.FAILURE_REASON_NOT_FOUND } }), 1);
    h.core.poll(1);
    expect(decision(h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 2))).toEqual({ action: "local-encode", itemId: "a", reason: "NOT_FOUND" });
    expect(h.core.nextDeadline() ?? Number.POSITIVE_INFINITY).toBeGreaterThan(60_000);
  });
});

describe("consumer sequences: liveness and epochs [P8][C10]", () => {
  // Found by a review (2026-12-05): the greeting was forgotten with the peer, and the refusal dropped as unsolicited.
  it("[C10][C5] a refusal of our Hello that arrives after the producer was declared gone still answers it: no new request goes to the refused epoch", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    expect(sent(h.core.poll(0), "hello")).toHaveLength(1);
    h.core.handlePeerUnreachable(P, 10);
    h.core.poll(10);
    h.core.finishRequest("r1", 10); // no fetch left
    h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE, detail: "fingerprint differs" } }), 20);
    expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "unexpected"])).toBe(0);
    expect(h.core.admit({ requestId: "r2", items: [remote("b", "h2")] }, 30)).toMatchObject({ status: "failed", failures: [{ itemId: "b", reason: "INCOMPATIBLE" }] });
    expect(sent(h.core.poll(30), "readRequest")).toEqual([]);
    // A second refusal of the same epoch answers nothing now: its greeting was refused already [C10].
    h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE } }), 40);
    expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "unexpected"])).toBe(1);
  });

  // Mutant: `peer.lastHeard = now` before the stale-epoch check (a stale message counts as a sign of life).
  it("[P8][C10] messages of an older producer epoch are no sign of life: the producer is gone after the misses all the same", () => {
    const h = makeConsumer(); // heartbeats 2 s, 3 misses
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: { sequence: 1 } }), 0);
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { epoch: 2 })] }, 0);
    expect(sent(h.core.poll(0), "readRequest")).toHaveLength(1);
    for (const t of [1_000, 3_000, 5_000]) {
      h.core.handleEnvelope(P, env(P, 1, { heartbeat: { sequence: t } }), t); // stale: ignored and counted
      h.core.poll(t);
    }
    expect(h.core.stats().ignoredMessages).toBe(3);
    expect(h.core.poll(6_000)).toContainEqual({ type: "disconnect-peer", peerId: P });
  });

  // Mutant: heartbeats sent with sequence `peer.heartbeatSeq` (0) instead of `++peer.heartbeatSeq`.
  it("[P8] heartbeats to a producer count from 1 (section 4.7)", () => {
    const h = makeConsumer(); // heartbeats 2 s
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    h.core.poll(0);
    const seqs = [2_000, 4_000].flatMap((t) => {
      h.core.handleEnvelope(P, env(P, 1, { heartbeat: { sequence: 1 } }), t); // the producer is alive
      return sent(h.core.poll(t), "heartbeat").map((o) => Number(o.envelope.heartbeat?.sequence));
    });
    expect(seqs).toEqual([1, 2]);
  });

  // Mutant: peerGone's `hadState` ignores ack waiters (a producer holding only an abandoned read's grant).
  it("[P8][C7] a producer gone silent while it holds only an abandoned read's grant is gone: disconnected, and no ReadComplete goes to it", () => {
    const h = makeConsumer(); // heartbeats 2 s, 3 misses; no transport metadata: never connected
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const s = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0))[0] as Start;
    h.core.finishRequest("r", 1); // abandoned: its ACK waits for settlement
    h.core.poll(1);
    expect(h.core.poll(6_000)).toContainEqual({ type: "disconnect-peer", peerId: P });
    expect(h.core.stats().grantsHeld).toBe(0); // the gone producer released it for us
    h.core.handleReadResult({ readId: s.readId, status: "cancelled" }, 7_000);
    expect(acks(h.core.poll(7_000))).toEqual([]);
    expectIdle(h);
  });

  // Mutant: onNewEpoch keeps `peer.intervalMs` (the old epoch's Hello interval judges the new epoch's silence).
  it("[P8] a restarted producer is judged by our own interval until its new epoch's Hello: the old epoch's long interval is dropped", () => {
    const h = makeConsumer(); // heartbeats 2 s, 3 misses
    h.core.handleEnvelope(P, env(P, 1, { hello: { role: ectp.v1.Role.ROLE_PRODUCER, heartbeatIntervalMs: 60_000 } }), 0);
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: { sequence: 1 } }), 0); // restarted, no Hello yet
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { epoch: 2 })] }, 0);
    expect(sent(h.core.poll(0), "readRequest")).toHaveLength(1);
    expect(h.core.poll(6_000)).toContainEqual({ type: "disconnect-peer", peerId: P }); // 3 x 2 s, not 3 x 60 s
  });

  // Mutant: ensurePeerTimer restarts a running liveness timer (every new attempt restarts the silence count).
  it("[P8] a new attempt to a silent producer does not restart its silence: it is gone heartbeat_misses intervals after business began", () => {
    const h = makeConsumer(); // heartbeats 2 s, 3 misses
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    h.core.poll(0);
    h.core.admit({ requestId: "r2", items: [remote("b", "h2")] }, 5_000);
    expect(sent(h.core.poll(5_000), "readRequest")).toHaveLength(1);
    expect(h.core.poll(6_000)).toContainEqual({ type: "disconnect-peer", peerId: P });
  });
});

describe("consumer sequences: retries [C4]", () => {
  // Mutant: sendAttempt counts the first attempt as a retry (`f.attempts >= 1`).
  it("[C4] only retries are counted in ectp_consumer_retries_total: a first attempt is not", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    expect(h.metrics.total("ectp_consumer_retries_total")).toBe(0);
    expect(h.logger.records.filter((r) => r.message === "retrying remote read")).toEqual([]);
    reject(h, a1, 10);
    expect(sent(h.core.poll(100), "readRequest")).toHaveLength(1);
    expect(h.metrics.total("ectp_consumer_retries_total")).toBe(1);
  });

  // Mutant: a grant-wait timeout is retried with reason OVERLOADED.
  it("[C4] a retry after the grant wait ran out is counted and logged with reason GRANT_TIMEOUT", () => {
    const h = makeConsumer({ ...QUIET, grantWaitMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    h.core.poll(0);
    h.core.poll(1_000); // no answer: GRANT_TIMEOUT, retryable
    expect(sent(h.core.poll(1_100), "readRequest")).toHaveLength(1);
    expect(h.metrics.total("ectp_consumer_retries_total", ["reason", "GRANT_TIMEOUT"])).toBe(1);
    expect(h.logger.records.find((r) => r.message === "retrying remote read")).toMatchObject({ level: "info", fields: { reason: "GRANT_TIMEOUT", attempt: 2 } });
  });

  // Mutant: every retry is logged at info level (174 lines in 100 ms under a producer's quota).
  it("[C4] a retry the producer asked for (OVERLOADED, NOT_READY) is logged at debug level, a retry after a fault at info", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const overloaded = (attemptId: number, now: number) =>
      h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId, reason: R.FAILURE_REASON_OVERLOADED, retryable: true } }), now);
    overloaded(onlyAttempt(h.core.poll(0)), 10);
    reject(h, onlyAttempt(h.core.poll(100)), 110);
    h.core.poll(300);
    const levels = h.logger.records.filter((r) => r.message === "retrying remote read").map((r) => [r.level, r.fields?.reason]);
    expect(levels).toEqual([
      ["debug", "OVERLOADED"],
      ["debug", "NOT_READY"],
    ]);
    expect(h.metrics.total("ectp_consumer_retries_total", ["reason", "OVERLOADED"])).toBe(1);
    expect(h.metrics.total("ectp_consumer_retries_total", ["reason", "NOT_READY"])).toBe(1);
  });

  // Mutant: a pre-grant attempt ended by peer loss is retried with reason GRANT_TIMEOUT.
  it("[C4][P8] a retry after the producer was reported unreachable is counted and logged with reason PEER_UNREACHABLE", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    h.core.poll(0);
    h.core.handlePeerUnreachable(P, 10);
    h.core.poll(10);
    expect(sent(h.core.poll(100), "readRequest")).toHaveLength(1); // backoff 25..50 ms
    expect(h.metrics.total("ectp_consumer_retries_total", ["reason", "PEER_UNREACHABLE"])).toBe(1);
    expect(h.logger.records.find((r) => r.message === "retrying remote read")?.fields).toMatchObject({ reason: "PEER_UNREACHABLE", attempt: 2 });
  });

  // Mutant: a grant given back for lack of a destination is retried with reason NOT_READY.
  it("[C4] a retry after a full destination pool is counted with reason OVERLOADED", () => {
    const h = makeConsumer(QUIET);
    h.pool.full = true;
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    expect(acks(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1))).toEqual([[7, ABANDONED]]);
    expect(sent(h.core.poll(100), "readRequest")).toHaveLength(1);
    expect(h.metrics.total("ectp_consumer_retries_total", ["reason", "OVERLOADED"])).toBe(1);
  });
  // Mutant: retryFetch does not cancel the grant-wait timer when no retry is scheduled (a joining request cannot resume the fetch).
  it("[C4][C9] a request joining a fetch stalled in its backoff resumes it when the backoff ends, not at the old grant-wait deadline", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 }); // grant wait 30 s
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // budget ends 1 000
    const a1 = onlyAttempt(h.core.poll(0));
    reject(h, a1, 10, 1_490); // retry at 1 500: past r1's budget, so none is scheduled (stalled)
    h.core.poll(10);
    h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 900); // budget ends 1 900: resumes the fetch at 1 500
    h.core.poll(900);
    h.core.poll(1_000);
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r1"]);
    expect(sent(h.core.poll(1_500), "readRequest")).toHaveLength(1);
  });
  // Mutant: onGrant does not cancel the attempt's grant-wait timer (a grant released for lack of budget leaves it pending).
  it("[C3][C4] a request joining a fetch whose grant was released for lack of budget resumes it at once, not at the old grant-wait deadline", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 }); // grant wait 30 s
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    // At r1's budget deadline (before the poll that ends r1) the grant is released unread.
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: attempt, grantId: 7, item: descriptor("h1"), leaseMs: 30_000 } }), 1_000);
    h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 1_000); // joins before that poll
    const out = h.core.poll(1_000);
    expect(acks(out)).toEqual([[7, ABANDONED]]);
    expect(sent(out, "readRequest")).toHaveLength(1);
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r1"]);
  });
});

describe("consumer sequences: release, failure reports, stats and timers [C7][C6][I4]", () => {
  // Mutant: releasing the last holder of a loaded item frees its destination but leaves it in the key map.
  it("[C7][I5] once the last request using a loaded item finishes, a new request for the key fetches it again (never the freed destination)", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1))[0] as Start;
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2);
    h.core.poll(2);
    h.core.finishRequest("r1", 3);
    expect(h.pool.live.size).toBe(0);
    expect(decision(h.core.admit({ requestId: "r2", items: [remote("a", "h1")] }, 4))).toEqual({ action: "defer", itemId: "a" });
    expect(sent(h.core.poll(4), "readRequest")).toHaveLength(1);
  });

  // Mutant: endWaiter starts a new failure list per waiter (two items of one request on one fetch: one reported).
  it("[C6][C9] two items of one request waiting on one fetch are both reported, in one failure report", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0)); // single flight: one ReadRequest for the key
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: attempt, reason: R.FAILURE_REASON_NOT_FOUND } }), 1);
    h.core.poll(1);
    expect(h.core.drainFailed()).toEqual([
      {
        requestId: "r",
        failures: [
          { itemId: "a", reason: "NOT_FOUND", attempts: 1 },
          { itemId: "b", reason: "NOT_FOUND", attempts: 1 },
        ],
      },
    ]);
    expect(h.core.drainFailed()).toEqual([]);
  });

  // Mutant: dropGrant leaves the read among its producer's ACK waiters (business that never ends).
  it("[C7][P8] once an abandoned read's grant is ACKed at its deadline the producer is no longer business: no heartbeats, never declared gone", () => {
    const h = makeConsumer(); // heartbeats 2 s, 3 misses; transfer timeout 20 s
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0);
    h.core.finishRequest("r", 1); // abandoned: ACK at settlement or at the deadline
    const outs: CoreOutput[] = [];
    for (let t = 1; t <= 20_000; t += 1_000) {
      h.core.handleEnvelope(P, env(P, 1, { heartbeat: { sequence: t } }), t); // the producer is alive until 20 s
      outs.push(...h.core.poll(t));
    }
    outs.push(...h.core.poll(20_000));
    expect(acks(outs)).toEqual([[8, ABANDONED]]);
    const later: CoreOutput[] = [];
    for (let t = 21_000; t <= 40_000; t += 1_000) later.push(...h.core.poll(t));
    expect(later.filter((o) => o.type === "disconnect-peer")).toEqual([]);
    expect(sent(later, "heartbeat")).toEqual([]);
  });

  // Mutant: onReadTimer emits cancel-read even for a read already cancelled (abandoned).
  it("[C7][C8] an abandoned read is cancelled once: not again at its deadline", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0))[0] as Start;
    h.core.finishRequest("r", 1);
    const outs = [...h.core.poll(1), ...h.core.poll(20_000)];
    expect(outs.filter((o) => o.type === "cancel-read")).toEqual([{ type: "cancel-read", readId: start.readId }]);
    expect(acks(outs)).toEqual([[8, ABANDONED]]);
  });

  // Mutant: stats().readsInFlight leaves quarantined reads out.
  it("[C8][I4] stats().readsInFlight counts quarantined reads until they settle or reach the cap", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0))[0] as Start;
    h.core.poll(20_000);
    expect(h.core.stats()).toMatchObject({ readsInFlight: 1, quarantined: 1, grantsHeld: 0, destinations: 1 });
    h.core.handleReadResult({ readId: start.readId, status: "cancelled" }, 20_001);
    expect(h.core.stats()).toMatchObject({ readsInFlight: 0, quarantined: 0, destinations: 0 });
  });
});

describe("consumer sequences: a failure's warning says where it came from", () => {
  const warning = (h: ReturnType<typeof makeConsumer>, message: string) => h.logger.records.find((r) => r.level === "warn" && r.message === message)?.fields;

  it("a terminal ReadReject: the request's warning names the item key, the producer and its detail", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: attempt, reason: R.FAILURE_REASON_NOT_FOUND, detail: "item not held" } }), 1);
    expect(warning(h, "request failed")).toMatchObject({ requestId: "r", itemId: "a", reason: "NOT_FOUND", attempts: 1, producer: P, detail: "item not held" });
    expect((warning(h, "request failed") as { itemKey?: string }).itemKey).toMatch(/\|/);
  });

  it("[C5] decided at admission: a stale announcement's failure or fallback warning names its item key and producer", () => {
    const h = makeConsumer(QUIET);
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 0); // the producer is known at epoch 2
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { epoch: 1 })] }, 1);
    expect(warning(h, "request failed")).toMatchObject({ requestId: "r", itemId: "a", reason: "EPOCH_CHANGED", attempts: 0, producer: P });
    expect((warning(h, "request failed") as { itemKey?: string }).itemKey).toMatch(/\|/);
    h.core.admit({ requestId: "s", items: [remote("b", "h2", true, { epoch: 1 })] }, 1);
    expect(warning(h, "item falls back to local encode")).toMatchObject({ requestId: "s", itemId: "b", reason: "EPOCH_CHANGED", attempts: 0, producer: P });
    expect((warning(h, "item falls back to local encode") as { itemKey?: string }).itemKey).toMatch(/\|/);
  });

  it("[C3] a budget that ran out before a grant: the warning names the item key, the producer and why the last attempt ended", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    h.core.admit({ requestId: "s", items: [remote("b", "h2", true)] }, 0);
    h.core.poll(0);
    h.core.handlePeerUnreachable(P, 10); // the producer is gone: the attempts retry until the budgets end
    for (let t = 10; t <= 1_000; t += 10) h.core.poll(t);
    expect(h.core.drainFailed()[0]?.failures).toEqual([{ itemId: "a", reason: "BUDGET_EXHAUSTED", attempts: expect.any(Number) }]);
    const failed = warning(h, "request failed") as { attempts: number; itemKey?: string };
    expect(failed).toMatchObject({ requestId: "r", itemId: "a", reason: "BUDGET_EXHAUSTED", producer: P, lastRetryReason: "PEER_UNREACHABLE" });
    expect(["grant", "retry"]).toContain((failed as { waitingFor?: string }).waitingFor);
    expect(failed.attempts).toBeGreaterThan(1);
    expect(failed.itemKey).toMatch(/\|/);
    const local = warning(h, "item falls back to local encode");
    expect(local).toMatchObject({ requestId: "s", itemId: "b", reason: "BUDGET_EXHAUSTED", producer: P, lastRetryReason: "PEER_UNREACHABLE" });
  });

  it("[C3] a budget that ran out on the first attempt names no last reason: nothing ended yet", () => {
    const g = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    g.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    g.core.poll(0);
    g.core.poll(1_000);
    expect(warning(g, "request failed")).toMatchObject({ reason: "BUDGET_EXHAUSTED", attempts: 1, producer: P, waitingFor: "grant" });
    expect(warning(g, "request failed")).not.toHaveProperty("lastRetryReason");
  });

  it("[C3] a budget that ran out during a read names the read, not the retry before its grant", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 5_000, transferTimeoutMs: 20_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    h.core.poll(0);
    h.core.handlePeerUnreachable(P, 10);
    let attempt = 0;
    for (let t = 10; t <= 3_000 && attempt === 0; t += 10) {
      const rr = sent(h.core.poll(t), "readRequest");
      if (rr.length > 0) attempt = Number(rr[0]?.envelope.readRequest?.attemptId);
    }
    expect(starts(grant(h, attempt, 8, "h1", 3_000))).toHaveLength(1); // granted; the read stays in flight
    h.core.poll(5_000);
    const failed = warning(h, "request failed");
    expect(failed).toMatchObject({ reason: "BUDGET_EXHAUSTED", producer: P, waitingFor: "read" });
    expect(failed).not.toHaveProperty("lastRetryReason");
  });

  it("[C3] a budget that ends as a terminal reject arrives names the retry it was waiting on", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const first = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: first, reason: R.FAILURE_REASON_NOT_READY, retryable: true } }), 1);
    let second = 0;
    for (let t = 1; t <= 999 && second === 0; t++) {
      const rr = sent(h.core.poll(t), "readRequest");
      if (rr.length > 0) second = Number(rr[0]?.envelope.readRequest?.attemptId);
    }
    // The terminal reject is handled at the budget's deadline, before any poll runs the budget timer.
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: second, reason: R.FAILURE_REASON_NOT_FOUND } }), 1_000);
    expect(warning(h, "request failed")).toMatchObject({ reason: "BUDGET_EXHAUSTED", attempts: 2, producer: P, waitingFor: "grant", lastRetryReason: "NOT_READY" });
  });

  it("[C2][C5] an invalid announcement: the warning says what was wrong with it", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { size: 0 })] }, 0);
    expect(warning(h, "request failed")).toMatchObject({ requestId: "r", itemId: "a", reason: "INVALID_ANNOUNCEMENT", detail: expect.stringMatching(/size/i) });
    h.core.admit({ requestId: "s", items: [{ itemId: "b", announcement: { ...announce("h2"), version: { major: 2 } }, hasModelInput: true }] }, 0);
    expect(warning(h, "item falls back to local encode")).toMatchObject({ reason: "INVALID_ANNOUNCEMENT", detail: "the announcement's spec version is not major 1" });
    const throwing = Object.defineProperty(announce("h3"), "item", {
      get() {
        throw new Error("boom");
      },
    });
    h.core.admit({ requestId: "t", items: [{ itemId: "c", announcement: throwing, hasModelInput: false }] }, 0);
    expect(h.logger.records.filter((r) => r.message === "request failed").map((r) => r.fields?.detail)).toContainEqual(expect.stringMatching(/could not be read \(.*boom/));
    h.core.admit({ requestId: "u", items: [{ itemId: "d", announcement: 5 as never, hasModelInput: false }] }, 0);
    expect(h.logger.records.filter((r) => r.message === "request failed").map((r) => r.fields?.detail)).toContain("the announcement is 5, not an object");
  });

  it("[C2][C5] an announcement given as wire bytes, a JSON string or parsed JSON: the warning says what to read it with", () => {
    const h = makeConsumer(QUIET);
    const details = () => h.logger.records.filter((r) => r.message === "request failed").map((r) => r.fields?.detail);
    const bytes = ectp.v1.Announcement.encode(announce("h1")).finish();
    h.core.admit({ requestId: "r", items: [{ itemId: "a", announcement: bytes as never, hasModelInput: false }] }, 0);
    expect(details()).toContain(`the announcement is ${bytes.length} bytes, not the object form: decode it first (ectp.v1.Announcement.decode)`);
    const json = announcementToJson(announce("h2"));
    h.core.admit({ requestId: "s", items: [{ itemId: "b", announcement: json as never, hasModelInput: false }] }, 0);
    expect(details()).toContainEqual(expect.stringMatching(/^the announcement is ".*", not an object \(proto3 JSON\? read it with announcementFromJson first\)$/));
    h.core.admit({ requestId: "t", items: [{ itemId: "c", announcement: JSON.parse(json), hasModelInput: false }] }, 0);
    expect(details()).toContainEqual(expect.stringMatching(/^\[INVALID_DESCRIPTOR\] key\.contentHash must be 1 to 64 bytes; got ".*" \(proto3 JSON\? read an announcement with announcementFromJson first\)$/));
    expect(h.core.drainFailed().map((f) => f.failures[0]?.reason)).toEqual(["INVALID_ANNOUNCEMENT", "INVALID_ANNOUNCEMENT", "INVALID_ANNOUNCEMENT"]);
  });

  it("a HandshakeReject: its detail (what differed) reaches the warning of each item it ends", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 0);
    h.core.poll(0);
    h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE, detail: 'model "x" != "m"' } }), 1);
    expect(warning(h, "remote read failed; item falls back to local encode")).toMatchObject({ reason: "INCOMPATIBLE", producer: P, detail: 'model "x" != "m"' });
  });

  it("a failed read: the transport's error; corrupted bytes: the CRC read and the one announced", () => {
    for (const [corrupt, reason, detail] of [
      [false, "TRANSFER_FAILED", "read failed: NIC reset"],
      [true, "CHECKSUM_MISMATCH", /^CRC-32C of the bytes read \d+, announced \d+$/],
    ] as const) {
      const h = makeConsumer(QUIET);
      h.core.admit({ requestId: "r", items: [remote("a", "h1", true, { checksum: true })] }, 0);
      const attempt = onlyAttempt(h.core.poll(0));
      const [start] = starts(grant(h, attempt, 7, "h1", 1, { checksum: true }));
      if (start === undefined) throw new Error("no read started");
      if (corrupt) {
        fill(start, "h1", true);
        h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: start.destination.length }, 2);
      } else h.core.handleReadResult({ readId: start.readId, status: "failed", bytesRead: 0, error: "NIC reset" }, 2);
      expect(warning(h, "remote read failed; item falls back to local encode")).toMatchObject({ reason, producer: P, detail: expect.stringMatching(detail) });
    }
  });
});

describe("consumer sequences: one warning and one count per outage [P8]", () => {
  it("a producer declared gone again with nothing heard since is logged at info and not counted; heard from, the next outage warns and counts again", () => {
    const h = makeConsumer({ heartbeatIntervalMs: 100, grantWaitMs: 100_000, waitBudgetMs: 100_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const gone = () => h.logger.records.filter((r) => r.message.startsWith("producer is gone") || r.message.startsWith("producer still gone")).map((r) => r.level);
    for (let t = 0; t <= 3_000 && gone().length < 3; t += 10) h.core.poll(t);
    expect(gone()).toEqual(["warn", "info", "info"]);
    // Heard from again: a later outage is a new one.
    h.core.handleEnvelope(P, env(P, 1, { heartbeat: {} }), 3_001);
    for (let t = 3_010; t <= 6_000 && gone().length < 4; t += 10) h.core.poll(t);
    expect(gone()).toEqual(["warn", "info", "info", "warn"]);
    expect(h.metrics.total("ectp_consumer_peers_gone_total")).toBe(2); // counted per outage, as warned
  });
});

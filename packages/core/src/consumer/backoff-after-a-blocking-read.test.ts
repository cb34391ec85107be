/**
 * [C4][C9] A fetch held back by an earlier, abandoned read of its item asks once that read ends or
 * at its deadline; once it has asked, the read settling later must not cut its backoff short.
 */
import { ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { StartReadOutput } from "../outputs.js";
import { P, QUIET, acks, env, grant, makeConsumer, onlyAttempt, remote, sent, starts } from "./test-support.js";

const ABANDONED = ectp.v1.CompletionStatus.COMPLETION_STATUS_ABANDONED;
const OVERLOADED = ectp.v1.FailureReason.FAILURE_REASON_OVERLOADED;

describe("[C4][C9] a fetch once held back by an abandoned read keeps its backoff when that read settles later", () => {
  /** A's read of h1 is abandoned and runs past its deadline (quarantined at 20 001); B's fetch asks then, and is told OVERLOADED. */
  function overloadedAfterQuarantine(config: Parameters<typeof makeConsumer>[0] = {}) {
    const h = makeConsumer({ ...QUIET, ...config });
    h.core.admit({ requestId: "A", items: [remote("i", "h1")] }, 0);
    const first = starts(grant(h, onlyAttempt(h.core.poll(0)), 1, "h1", 1))[0] as StartReadOutput;
    h.core.finishRequest("A", 2);
    h.core.admit({ requestId: "B", items: [remote("i", "h1")] }, 3);
    expect(sent(h.core.poll(3), "readRequest")).toEqual([]); // [C9] held back under A's read
    const atDeadline = h.core.poll(20_001);
    expect(acks(atDeadline)).toEqual([[1, ABANDONED]]); // A's read quarantined [C8]
    const a2 = onlyAttempt(atDeadline);
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: a2, reason: OVERLOADED, retryAfterMs: 5_000 } }), 20_002);
    h.core.poll(20_002);
    return { h, first };
  }

  it("[C4] A's quarantined read settling during B's backoff does not send B's retry before the backoff ends", () => {
    const { h, first } = overloadedAfterQuarantine();
    h.core.handleReadResult({ readId: first.readId, status: "cancelled" }, 20_003);
    expect(sent(h.core.poll(20_003), "readRequest")).toEqual([]); // before the fix: B's retry, 5 s early
    expect(sent(h.core.poll(25_001), "readRequest")).toEqual([]);
    expect(sent(h.core.poll(25_002), "readRequest")).toHaveLength(1); // the producer's hint: 5 s from 20 002
  });

  it("[C4][C3] no retry is sent when every budget ends before the retry time, even when A's read settles meanwhile", () => {
    const { h, first } = overloadedAfterQuarantine({ waitBudgetMs: 22_000 }); // B's budget ends at 22 003, before 25 002
    h.core.handleReadResult({ readId: first.readId, status: "cancelled" }, 20_003);
    let asked = sent(h.core.poll(20_003), "readRequest").length; // before the fix: 1
    asked += sent(h.core.poll(22_003), "readRequest").length;
    expect(asked).toBe(0);
    expect(h.core.drainFailed()).toMatchObject([{ requestId: "B", failures: [{ itemId: "i", reason: "BUDGET_EXHAUSTED" }] }]);
  });
});

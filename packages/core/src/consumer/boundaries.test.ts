/**
 * Exact boundaries of the consumer's rules: deadlines hit to the millisecond, jitter, messages
 * that name our attempt but come from elsewhere, verification corner cases, epochs, and the timer
 * queue's order after cancels. Each test was written against a hand mutant of the enforcing line
 * that no other test (nor the conformance suite) caught (a review of 2026-12-01).
 */
import { SPEC_VERSION, crc32c, ectp, encodeEnvelope } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { SeededRandom } from "../random.js";
import { type Timed, TimerQueue } from "./timer-queue.js";
import type { StartReadOutput } from "../outputs.js";
import { P, QUIET, acks, announce, decision, descriptor, env, expectIdle, fill, grant, itemBytes, makeConsumer, onlyAttempt, refusedByEpoch5InMajor2, remote, sent, starts } from "./test-support.js";
import type { AdmitItem } from "./types.js";

const OTHER = "e-2";
const FAILED = ectp.v1.CompletionStatus.COMPLETION_STATUS_FAILED;
const ABANDONED = ectp.v1.CompletionStatus.COMPLETION_STATUS_ABANDONED;
const OK = ectp.v1.CompletionStatus.COMPLETION_STATUS_OK;
const R = ectp.v1.FailureReason;

describe("consumer boundaries: the wait budget [C3]", () => {
  // Mutant: consumer.ts budgetsOver `w.budgetAt > now` -> `w.budgetAt >= now`.
  it("[C3][C7] a grant arriving at exactly the budget deadline (before the poll) is released unread", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const out = grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 60_000);
    expect(starts(out)).toEqual([]);
    expect(acks(out)).toEqual([[7, ABANDONED]]);
    expect(h.pool.live.size).toBe(0);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "BUDGET_EXHAUSTED", attempts: 1 }] }]);
  });

  // Mutant: consumer.ts onFetchTimer `w.budgetAt > now` -> `w.budgetAt >= now`.
  it("[C4][C3] a retry falling due exactly at the only waiter's budget deadline is not sent", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    // Retry hint 1 990 ms: retry at 2 000, after r1's budget (1 000): no retry is scheduled (stalled fetch).
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: a1, reason: R.FAILURE_REASON_NOT_READY, retryable: true, retryAfterMs: 1_990 } }), 10);
    expect(sent(h.core.poll(10), "readRequest")).toEqual([]);
    // r2 joins at 1 000 (before the poll that ends r1): its budget ends at 2 000, the retry time.
    h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 1_000);
    h.core.poll(1_000);
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r1"]);
    const out = h.core.poll(2_000);
    expect(sent(out, "readRequest")).toEqual([]);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r2", failures: [{ itemId: "b", reason: "BUDGET_EXHAUSTED", attempts: 1 }] }]);
  });

  it("[C3] a terminal reject handled exactly at the only waiter's budget deadline (before the poll) leaves it BUDGET_EXHAUSTED (SPEC 4.4: it no longer waits)", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000, grantWaitMs: 5_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: a1, reason: R.FAILURE_REASON_NOT_FOUND } }), 1_000);
    h.core.poll(1_000);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "BUDGET_EXHAUSTED", attempts: 1 }] }]);
  });

  it("[C6][C3] items whose budgets run out at the same poll are all reported BUDGET_EXHAUSTED, as an admit at that instant reports them", () => {
    const viaPoll = makeConsumer({ ...QUIET, waitBudgetMs: 1_000, grantWaitMs: 5_000 });
    const viaAdmit = makeConsumer({ ...QUIET, waitBudgetMs: 1_000, grantWaitMs: 5_000 });
    const req = { requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] };
    for (const h of [viaPoll, viaAdmit]) {
      h.core.admit(req, 0);
      h.core.poll(0);
    }
    const both = [
      {
        requestId: "r",
        failures: [
          { itemId: "a", reason: "BUDGET_EXHAUSTED", attempts: 1 },
          { itemId: "b", reason: "BUDGET_EXHAUSTED", attempts: 1 },
        ],
      },
    ];
    viaAdmit.core.admit(req, 1_000);
    expect(viaAdmit.core.drainFailed()).toEqual(both);
    viaPoll.core.poll(1_000);
    expect(viaPoll.core.drainFailed()).toEqual(both);
  });
});

describe("consumer boundaries: retries [C4]", () => {
  // Mutant: backoff.ts `return d / 2 + random.next() * (d / 2)` -> `return d` (no jitter).
  it("[C4] retry delays are jittered in [d/2, d], not always d", () => {
    const h = makeConsumer({ waitBudgetMs: 1_000_000, grantWaitMs: 1_000_000, heartbeatIntervalMs: 1_000_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    let attempt = onlyAttempt(h.core.poll(0));
    let t = 0;
    let belowCap = 0;
    for (let n = 1; n <= 8; n++) {
      h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: attempt, reason: R.FAILURE_REASON_NOT_READY, retryable: true } }), t);
      h.core.poll(t);
      const at = h.core.nextDeadline() as number;
      const d = Math.min(2_000, 50 * 2 ** (n - 1));
      expect(at - t).toBeGreaterThanOrEqual(d / 2);
      expect(at - t).toBeLessThanOrEqual(d);
      if (at - t < d) belowCap++;
      t = at;
      attempt = onlyAttempt(h.core.poll(t));
    }
    expect(belowCap).toBeGreaterThan(0);
  });

  // Mutant: consumer.ts applyPlan `schedule(f, Math.max(now, f.retryAt), ...)` -> `schedule(f, now, ...)`.
  it("[C4] a request joining a fetch stalled in its backoff does not retry before the backoff ends", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 100, backoffInitialMs: 1_000, backoffMaxMs: 1_000 });
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    // Backoff >= 500 ms: past r1's budget, so no retry timer runs (stalled).
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: a1, reason: R.FAILURE_REASON_NOT_READY, retryable: true } }), 10);
    h.core.poll(10);
    h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 20); // joins, with budget left
    expect(sent(h.core.poll(20), "readRequest")).toEqual([]);
    expect(sent(h.core.poll(100), "readRequest")).toEqual([]);
  });
});

describe("consumer boundaries: terminal outcomes [C5]", () => {
  // Mutant: consumer.ts endWaiter: the warn log of the model-input branch removed.
  it("[C5] a terminal outcome of an item with model input is logged at warning with request id, item id and key, reason and attempts", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 0);
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: onlyAttempt(h.core.poll(0)), reason: R.FAILURE_REASON_NOT_FOUND } }), 5);
    expect(decision(h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 6))).toEqual({ action: "local-encode", itemId: "a", reason: "NOT_FOUND" });
    const warn = h.logger.at("warn").find((r) => r.fields?.reason === "NOT_FOUND");
    expect(warn?.fields).toMatchObject({ requestId: "r", itemId: "a", reason: "NOT_FOUND", attempts: 1 });
    expect(warn?.fields?.itemKey).toBeDefined();
  });
});

describe("consumer boundaries: messages that do not fit the state [C10][V1]", () => {
  // Mutant: consumer.ts onGrant: `f.peer !== peer` dropped.
  it("[C10] a grant from another producer naming our attempt is released at once, never read", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    const foreign = grant(h, a1, 5, "h1", 1, { from: OTHER });
    expect(starts(foreign)).toEqual([]);
    expect(acks(foreign)).toEqual([[5, ABANDONED]]);
    expect(sent(foreign, "readComplete")[0]?.peerId).toBe(OTHER);
    // The attempt to e-1 is still the current one: its own grant is read.
    const own = grant(h, a1, 6, "h1", 2);
    expect(starts(own)).toHaveLength(1);
    expect(starts(own)[0]?.peerId).toBe(P);
  });

  // Mutant: consumer.ts onReject: `f.peer !== peer` dropped.
  it("[C10] a reject from another producer naming our attempt is ignored and counted", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(OTHER, env(OTHER, 1, { readReject: { attemptId: a1, reason: R.FAILURE_REASON_NOT_FOUND } }), 1);
    h.core.poll(1);
    expect(h.core.drainFailed()).toEqual([]);
    expect(h.core.stats().ignoredMessages).toBe(1);
    expect(starts(grant(h, a1, 6, "h1", 2))).toHaveLength(1);
  });

  // Mutant: consumer.ts onHello: the role check dropped.
  it("[C10] a Hello of a role other than producer is ignored and counted", () => {
    for (const role of [ectp.v1.Role.ROLE_UNSPECIFIED, ectp.v1.Role.ROLE_CONSUMER, 7]) {
      const h = makeConsumer();
      h.core.handleEnvelope("c-9", env("c-9", 1, { hello: { role, heartbeatIntervalMs: 2_000 } }), 0);
      expect(h.core.stats().ignoredMessages).toBe(1);
      expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "unexpected"])).toBe(1);
    }
  });

  // Mutants: consumer.ts onEnvelope: `!isPositiveId(senderEpoch)` dropped; the envelope's major not compared.
  it("[C10][V1] a decoded envelope with sender_epoch 0 (or none), or of another major, is ignored and counted before its body is looked at", () => {
    for (const [header, reason] of [
      [{ version: SPEC_VERSION, senderEpoch: 0 }, "malformed"],
      [{ version: SPEC_VERSION, senderEpoch: undefined }, "malformed"],
      [{ version: { major: 2, minor: 0 }, senderEpoch: 1 }, "version"],
      // SPEC 3.7: another major's greater epoch voids nothing: the epoch-1 grant below is still read.
      [{ version: { major: 2, minor: 0 }, senderEpoch: 9 }, "version"],
    ] as const) {
      const h = makeConsumer(QUIET);
      h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
      const a1 = onlyAttempt(h.core.poll(0));
      h.core.handleEnvelope(P, { version: SPEC_VERSION, senderId: P, senderEpoch: 1, heartbeat: {} }, 1); // epoch 1 known
      h.core.handleEnvelope(P, { ...header, senderId: P, readReject: { attemptId: a1, reason: R.FAILURE_REASON_NOT_FOUND } }, 1);
      h.core.poll(1);
      expect(h.core.drainFailed()).toEqual([]);
      expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", reason])).toBe(1);
      expect(starts(grant(h, a1, 6, "h1", 2))).toHaveLength(1);
    }
  });

  // Mutant: consumer.ts onGrant: `!isPositiveId(grantId)` check dropped.
  it("[C10] a grant with grant_id 0 is malformed: ignored and counted, nothing read", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    const out = grant(h, a1, 0, "h1", 1);
    expect(starts(out)).toEqual([]);
    expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "malformed"])).toBe(1);
    expect(starts(grant(h, a1, 6, "h1", 2))).toHaveLength(1);
  });
});

describe("consumer boundaries: verification [C11]", () => {
  it("[C11] a failed read reporting the peer gone, handled exactly at its transfer deadline, ends TRANSFER_TIMEOUT: the deadline names the outcome", () => {
    const h = makeConsumer(QUIET); // transfer timeout 20 s, lease 30 s - 5 s
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const s = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 0))[0];
    h.core.handleReadResult({ readId: s?.readId as number, status: "failed", error: "gone", peerGone: true }, 20_000);
    h.core.poll(20_000);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "TRANSFER_TIMEOUT", attempts: 1 }] }]);
  });

  // Mutant: consumer.ts verify: `(r.checksumB !== -1 && crc !== r.checksumB)` dropped.
  it("[C11] the grant's own checksum is verified when the announcement carries none", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0); // announcement without checksum
    const s = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0, { checksum: true }))[0] as ReturnType<typeof starts>[0];
    expect(s.crc32c).toBe(true);
    fill(s, "h1", true); // bytes differ from the grant's checksum
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 5);
    expect(acks(h.core.poll(5))).toEqual([[8, FAILED]]);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "CHECKSUM_MISMATCH", attempts: 1 }] }]);
    expect(h.core.stats().loadedItems).toBe(0);
  });

  // Mutant: consumer.ts verify: `crc >>> 0 !== crc` range check dropped.
  it("[C11] a reported CRC-32C that is not a 32-bit unsigned integer is ignored: correct bytes still load", () => {
    const good = crc32c(itemBytes("h1", 16));
    for (const bogus of [-1, 2 ** 32 + good, 1.5, Number.NaN]) {
      const h = makeConsumer(QUIET);
      h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { checksum: true })] }, 0);
      const s = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0, { checksum: true }))[0] as ReturnType<typeof starts>[0];
      fill(s, "h1");
      h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16, crc32c: bogus }, 5);
      expect(acks(h.core.poll(5)), String(bogus)).toEqual([[8, OK]]);
      expect(h.core.drainFailed()).toEqual([]);
      expect(h.core.stats().loadedItems).toBe(1);
    }
  });

  // Mutant: consumer.ts checkGrantedDescriptor (from onGrant): an invalid descriptor always ends INVALID_ANNOUNCEMENT.
  it("[C11] a grant with an invalid descriptor whose size differs from the announcement's ends SIZE_MISMATCH (section 4.4)", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    const item = { ...descriptor("h1", { size: 17 }), producerId: "" }; // invalid (no producer) and of another size
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: a1, grantId: 8, item, leaseMs: 30_000 } }), 1);
    const out = h.core.poll(1);
    expect(starts(out)).toEqual([]);
    expect(acks(out)).toEqual([[8, FAILED]]);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "SIZE_MISMATCH", attempts: 1 }] }]);
  });
});

describe("consumer boundaries: a grant without a size [C11]", () => {
  it("[C11] a grant handed over as an object without sizeBytes ends SIZE_MISMATCH, as the same grant decoded from bytes does (section 4.4)", () => {
    for (const path of ["object", "bytes"] as const) {
      const h = makeConsumer(QUIET);
      h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
      const a1 = onlyAttempt(h.core.poll(0));
      const item: ectp.v1.IItemDescriptor = { ...descriptor("h1") };
      delete item.sizeBytes; // absent: 0 on the wire
      const grantEnv = env(P, 1, { readGrant: { attemptId: a1, grantId: 8, item, leaseMs: 30_000 } });
      if (path === "object") h.core.handleEnvelope(P, grantEnv, 1);
      else h.core.handleMessage(P, ectp.v1.Envelope.encode(grantEnv).finish(), 1);
      expect(acks(h.core.poll(1)), path).toEqual([[8, FAILED]]);
      expect(h.core.drainFailed(), path).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "SIZE_MISMATCH", attempts: 1 }] }]);
    }
  });

  it("[C11] a grant without any descriptor reads as size 0 (proto3): SIZE_MISMATCH, by either path", () => {
    for (const path of ["object", "bytes"] as const) {
      const h = makeConsumer(QUIET);
      h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
      const a1 = onlyAttempt(h.core.poll(0));
      const grantEnv = env(P, 1, { readGrant: { attemptId: a1, grantId: 8, leaseMs: 30_000 } });
      if (path === "object") h.core.handleEnvelope(P, grantEnv, 1);
      else h.core.handleMessage(P, ectp.v1.Envelope.encode(grantEnv).finish(), 1);
      expect(acks(h.core.poll(1)), path).toEqual([[8, FAILED]]);
      expect(h.core.drainFailed(), path).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "SIZE_MISMATCH", attempts: 1 }] }]);
    }
  });
});

describe("consumer boundaries: epochs and liveness [P8]", () => {
  it("[P8] a Hello of an older epoch than the one connected does not connect back to it", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { epoch: 5, metadata: new Uint8Array([5]) })] }, 0);
    expect(h.core.poll(0).filter((o) => o.type === "connect-peer")).toEqual([{ type: "connect-peer", peerId: P, epoch: 5, metadata: new Uint8Array([5]) }]);
    // Nothing heard from epoch 5 yet, so epoch 3's Hello is not stale; it is older than the epoch connected.
    h.core.handleEnvelope(P, env(P, 3, { hello: { role: ectp.v1.Role.ROLE_PRODUCER, transportMetadata: new Uint8Array([3]) } }), 1);
    expect(h.core.poll(1).filter((o) => o.type === "connect-peer")).toEqual([]);
  });

  it("[I1] a producer's transport metadata, from a Hello frame or an announcement, is kept as its own bytes (SPEC.md 16)", () => {
    const h = makeConsumer(QUIET);
    const inFrame = new Uint8Array(1 << 16).fill(7).subarray(100, 102); // as an engine's decoded announcement gives it
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { epoch: 5, metadata: inFrame })] }, 0);
    const first = h.core.poll(0).find((o) => o.type === "connect-peer") as { metadata: Uint8Array };
    expect([Array.from(first.metadata), first.metadata.buffer.byteLength]).toEqual([[7, 7], 2]);
    // The producer restarts and greets with its new metadata in a frame: decoded, it views the frame.
    h.core.handleMessage(P, encodeEnvelope(env(P, 6, { hello: { role: ectp.v1.Role.ROLE_PRODUCER, transportMetadata: new Uint8Array([6, 6, 6]) } })), 1);
    h.core.admit({ requestId: "s", items: [remote("b", "h2", false, { epoch: 6 })] }, 2);
    const second = h.core.poll(2).find((o) => o.type === "connect-peer") as { metadata: Uint8Array; epoch: number };
    expect([second.epoch, Array.from(second.metadata), second.metadata.buffer.byteLength]).toEqual([6, [6, 6, 6], 3]);
  });

  // Mutant: consumer.ts onReadResult: `r.epoch === r.peer.knownEpoch` dropped from the peerGone branch.
  it("[P8] a peer_gone failure of a read of an older producer epoch does not end the current epoch's reads", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    const s1 = starts(grant(h, onlyAttempt(h.core.poll(0)), 11, "h1", 1))[0] as ReturnType<typeof starts>[0];
    h.core.finishRequest("r1", 2); // abandoned: cancelled, ACK waits for settlement
    h.core.poll(2);
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 3); // the producer restarted
    h.core.poll(3);
    h.core.admit({ requestId: "r2", items: [remote("b", "h2", false, { epoch: 2 })] }, 4);
    const s2 = starts(grant(h, onlyAttempt(h.core.poll(4)), 21, "h2", 5, { epoch: 2 }))[0] as ReturnType<typeof starts>[0];
    // The old epoch's read fails "peer gone": that epoch is gone indeed, the current one is not.
    h.core.handleReadResult({ readId: s1.readId, status: "failed", peerGone: true }, 6);
    const out = h.core.poll(6);
    expect(out.filter((o) => o.type === "cancel-read" || o.type === "disconnect-peer")).toEqual([]);
    expect(h.core.drainFailed()).toEqual([]);
    fill(s2, "h2");
    h.core.handleReadResult({ readId: s2.readId, status: "done", bytesRead: 16 }, 7);
    expect(acks(h.core.poll(7))).toEqual([[21, OK]]);
    expect(decision(h.core.admit({ requestId: "r2", items: [remote("b", "h2", false, { epoch: 2 })] }, 8))).toMatchObject({ action: "ready" });
  });

  // Mutant: consumer.ts onPeerTimer: `&& peer.ackWaiters.size === 0` dropped (no business while an abandoned read holds a grant).
  it("[P8] heartbeats go on while an abandoned read still holds a grant of the producer (section 4.7)", () => {
    const h = makeConsumer(); // heartbeat 2 s
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const s = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0))[0] as ReturnType<typeof starts>[0];
    h.core.finishRequest("r", 1);
    expect(h.core.poll(1)).toEqual([{ type: "cancel-read", readId: s.readId }]);
    expect(h.core.stats().grantsHeld).toBe(1);
    expect(sent(h.core.poll(2_000), "heartbeat")).toHaveLength(1);
  });
});

describe("consumer boundaries: timer queue order [C3][C4][C8]", () => {
  interface Rec extends Timed {
    id: number;
  }
  // Mutant: timer-queue.ts removeAt always sifts down (a moved element smaller than its parent stays below it).
  it("[C3][C4] cancelling heap entries keeps the earliest-deadline-first order (random schedules vs. a sorted reference)", () => {
    const rnd = new SeededRandom(7);
    for (let round = 0; round < 50; round++) {
      const q = new TimerQueue<Rec>(1);
      const recs: Rec[] = [];
      for (let i = 0; i < 40; i++) {
        const r: Rec = { id: i, tAt: 0, tSeq: 0, tLane: -1, tPos: 0 };
        recs.push(r);
        q.schedule(r, Math.floor(rnd.next() * 1_000), 0);
      }
      for (const r of recs) if (rnd.next() < 0.4) q.cancel(r);
      const live = recs.filter((r) => q.scheduled(r)).map((r) => ({ id: r.id, at: r.tAt, seq: r.tSeq }));
      live.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const popped: number[] = [];
      for (let rec = q.popDue(Number.MAX_SAFE_INTEGER); rec !== undefined; rec = q.popDue(Number.MAX_SAFE_INTEGER)) popped.push(rec.id);
      expect(popped).toEqual(live.map((r) => r.id));
    }
  });
});

/** An announcement of h1 (16 bytes) whose checksum is that of `hashOf`'s bytes. */
function withChecksumOf(itemId: string, hashOf: string, o: { epoch?: number } = {}): AdmitItem {
  const a = announce("h1", o);
  const crc = crc32c(itemBytes(hashOf, 16));
  (a.item as ectp.v1.IItemDescriptor).checksum = { algorithm: 1, value: new Uint8Array([crc >>> 24, crc >>> 16, crc >>> 8, crc]) };
  return { itemId, announcement: a, hasModelInput: false };
}

describe("consumer boundaries: checksums are checked per announcement [C11]", () => {
  // SPEC [C11]: "Checksums are checked per announcement: ... one that joins a fetch in flight is checked
  // against its own checksum when the bytes arrive (its item alone ends CHECKSUM_MISMATCH when they
  // differ; the others waiting load them)." and "the checksum of the bytes MUST equal every checksum
  // present in the announcement's and the grant's descriptors".
  it("[C9][C11] the fetch's first announcement carrying a wrong checksum fails its own item alone; a joiner with the right checksum (or none) loads", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [withChecksumOf("a", "zz")] }, 0); // starts the fetch, wrong checksum
    h.core.admit({ requestId: "r2", items: [withChecksumOf("b", "h1")] }, 0); // joins, right checksum
    h.core.admit({ requestId: "r3", items: [remote("c", "h1")] }, 0); // joins, no checksum
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 1, "h1", 1))[0] as StartReadOutput; // grant without a checksum
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2);
    expect(acks(h.core.poll(2))).toEqual([[1, OK]]);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r1", failures: [{ itemId: "a", reason: "CHECKSUM_MISMATCH", attempts: 1 }] }]);
    expect(decision(h.core.admit({ requestId: "r2", items: [withChecksumOf("b", "h1")] }, 3))?.action).toBe("ready");
    expect(decision(h.core.admit({ requestId: "r3", items: [remote("c", "h1")] }, 3))?.action).toBe("ready");
    for (const r of ["r1", "r2", "r3"]) h.core.finishRequest(r, 4);
    expectIdle(h);
  });

  it("[C7][C11] once the request whose announcement carried the wrong checksum has finished, the remaining waiter (no checksum) loads the bytes", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [withChecksumOf("a", "zz")] }, 0);
    h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.finishRequest("r1", 1); // the wrong announcement is gone
    const start = starts(grant(h, attempt, 1, "h1", 2))[0] as StartReadOutput;
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 3);
    expect(acks(h.core.poll(3))).toEqual([[1, OK]]);
    expect(h.core.drainFailed()).toEqual([]);
    expect(decision(h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 4))?.action).toBe("ready");
    h.core.finishRequest("r2", 5);
    expectIdle(h);
  });

  // SPEC [C1] step 3: "the fetch moves to the greater epoch ...; the requests already waiting stay joined,
  // each verified against its own announcement's size and checksum [C11]".
  it("[C1][C11] a fetch moved to a newer epoch by an announcement with a wrong checksum still loads for the earlier waiter announced without one", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // epoch 1, no checksum
    h.core.poll(0);
    h.core.admit({ requestId: "r2", items: [withChecksumOf("b", "zz", { epoch: 2 })] }, 1); // epoch 2, wrong checksum: the fetch moves
    const start = starts(grant(h, onlyAttempt(h.core.poll(1)), 4, "h1", 2, { epoch: 2 }))[0] as StartReadOutput;
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 3);
    expect(acks(h.core.poll(3))).toEqual([[4, OK]]);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r2", failures: [{ itemId: "b", reason: "CHECKSUM_MISMATCH", attempts: 2 }] }]);
    expect(decision(h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 4))?.action).toBe("ready");
    for (const r of ["r1", "r2"]) h.core.finishRequest(r, 5);
    expectIdle(h);
  });

  it("[C11] bytes that match no waiter's announcement are not loaded: FAILED, CHECKSUM_MISMATCH for every waiter", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [withChecksumOf("a", "zz")] }, 0);
    h.core.admit({ requestId: "r2", items: [withChecksumOf("b", "yy")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 1, "h1", 1))[0] as StartReadOutput;
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2);
    expect(acks(h.core.poll(2))).toEqual([[1, FAILED]]);
    expect(h.core.drainFailed().map((f) => [f.requestId, f.failures[0]?.reason])).toEqual([
      ["r1", "CHECKSUM_MISMATCH"],
      ["r2", "CHECKSUM_MISMATCH"],
    ]);
    expect(h.pool.live.size).toBe(0);
    for (const r of ["r1", "r2"]) h.core.finishRequest(r, 3);
    expectIdle(h);
  });
});

describe("consumer boundaries: rare paths of epochs, refusals and grant checks [C1][C11][V1]", () => {
  // Mutant: consumer.ts moveToEpoch `if (!f.otherChecksums.has(w)) f.otherChecksums.set(w, before);`
  // -> `f.otherChecksums.set(w, before);` (a waiter that had joined with its own, different checksum
  // is re-keyed to the checksum of the announcement the fetch was started by).
  // SPEC [C1] step 3: when the fetch moves to the greater epoch "the requests already waiting stay
  // joined, each verified against its own announcement's size and checksum [C11]"; [C11]: one that
  // joined a fetch in flight "is checked against its own checksum when the bytes arrive (its item
  // alone ends CHECKSUM_MISMATCH when they differ; the others waiting load them)".
  it("[C1][C11] a fetch moved to a newer epoch keeps checking a waiter that joined with its own differing checksum against that checksum", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [withChecksumOf("a", "h1")] }, 0); // epoch 1, the bytes' checksum
    h.core.poll(0);
    h.core.admit({ requestId: "r2", items: [withChecksumOf("b", "zz")] }, 1); // epoch 1, joins with a wrong checksum
    expect(h.core.poll(1)).toEqual([]);
    // Epoch 2 announced without a checksum: the fetch moves (a new attempt to epoch 2 goes out at once).
    h.core.admit({ requestId: "r3", items: [remote("c", "h1", false, { epoch: 2 })] }, 2);
    const start = starts(grant(h, onlyAttempt(h.core.poll(2)), 4, "h1", 3, { epoch: 2 }))[0] as StartReadOutput;
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 4);
    expect(acks(h.core.poll(4))).toEqual([[4, OK]]);
    // r2's own announcement disagrees with the bytes: it alone fails; r1 and r3 load them.
    expect(h.core.drainFailed()).toEqual([{ requestId: "r2", failures: [{ itemId: "b", reason: "CHECKSUM_MISMATCH", attempts: 2 }] }]);
    expect(decision(h.core.admit({ requestId: "r1", items: [withChecksumOf("a", "h1")] }, 5))?.action).toBe("ready");
    expect(decision(h.core.admit({ requestId: "r3", items: [remote("c", "h1", false, { epoch: 2 })] }, 5))?.action).toBe("ready");
    for (const r of ["r1", "r2", "r3"]) h.core.finishRequest(r, 6);
    expectIdle(h);
  });

  // Mutant: consumer.ts handleMessage `(!isPositiveId(epoch) || epoch >= peer.knownEpoch)` ->
  // `epoch > peer.knownEpoch` (a VERSION refusal by the producer epoch already known from an
  // envelope of our major is only counted, and the fetch waits out its budget).
  // SPEC [V1]: a consumer that counts a HandshakeReject of another major "also acts on it as
  // section 4.2 says, as a VERSION refusal by the epoch its frozen sender_epoch names (unless that
  // epoch is older than the greatest it knows, or the refusal answers no Hello of its own: then it
  // is only counted)"; 4.2: it "ends every fetch from that producer with the reject's reason".
  it("[V1] a HandshakeReject of another major from the producer epoch already known (not older) ends the fetch with VERSION", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const out = h.core.poll(0);
    expect(sent(out, "hello")).toHaveLength(1);
    expect(sent(out, "readRequest")).toHaveLength(1);
    // Epoch 1 is known from an envelope of our major (a heartbeat), then refuses our Hello in major 2.
    h.core.handleEnvelope(P, env(P, 1, { heartbeat: { sequence: 1 } }), 1);
    const reject = { version: { major: 2, minor: 0 }, senderId: P, senderEpoch: 1, handshakeReject: { reason: R.FAILURE_REASON_VERSION } };
    h.core.handleMessage(P, encodeEnvelope(reject), 2);
    h.core.poll(2);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "VERSION", attempts: 1 }] }]);
    // No Hello and no ReadRequest to that epoch any more (SPEC 4.2).
    const again = h.core.admit({ requestId: "r2", items: [remote("b", "h2", true)] }, 3);
    expect(again).toEqual({ status: "admitted", items: [{ action: "local-encode", itemId: "b", reason: "VERSION" }] });
    const later = h.core.poll(3);
    expect([...sent(later, "readRequest"), ...sent(later, "hello")]).toEqual([]);
  });

  // SPEC 4.2: no ReadRequests to the rejecting peer "until it sees a greater epoch of it": a later
  // refusal by an older epoch (still solicited: a greater epoch's fetch greeted it) narrows nothing.
  it("[V1][P8] a refusal by an older epoch after one by a greater epoch keeps the greater one refused", () => {
    const h = makeConsumer(QUIET);
    refusedByEpoch5InMajor2(h);
    h.core.admit({ requestId: "r2", items: [remote("b", "h2", false, { epoch: 6 })] }, 2); // epoch 6 greeted: solicited
    h.core.poll(2);
    h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE } }), 3); // epoch 1 refuses too
    const stale = h.core.admit({ requestId: "r3", items: [remote("c", "h3", false, { epoch: 3 })] }, 4);
    expect(stale).toEqual({ status: "failed", failures: [{ itemId: "c", reason: "VERSION", attempts: 0 }] }); // epoch 3 <= 5: still refused
    expect(sent(h.core.poll(4), "readRequest")).toEqual([]);
  });

  // Mutant: consumer.ts checkGrantedDescriptor (from onGrant) checks the grant descriptor's `size_bytes` before its `epoch`
  // (the two `if` lines swapped): a grant whose descriptor differs from the announcement in
  // both ends the fetch SIZE_MISMATCH instead of EPOCH_CHANGED.
  // SPEC 4.4 step 2: "on the first difference, in this order, ... EPOCH_CHANGED when its epoch
  // differs, SIZE_MISMATCH when its size_bytes differs, and EPOCH_CHANGED when the envelope's sender
  // epoch differs".
  it("[C2][P8] a grant whose valid descriptor differs from the announcement in epoch and in size ends the fetch EPOCH_CHANGED (epoch is compared first)", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0); // epoch 1, 16 bytes
    const attemptId = onlyAttempt(h.core.poll(0));
    // From the announced epoch (1), a descriptor naming epoch 2 and 32 bytes: valid, but not the announced item.
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId, grantId: 7, item: descriptor("h1", { epoch: 2, size: 32 }), leaseMs: 30_000 } }), 1);
    const out = h.core.poll(1);
    expect(starts(out)).toEqual([]);
    expect(acks(out)).toEqual([[7, FAILED]]);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "EPOCH_CHANGED", attempts: 1 }] }]);
    h.core.finishRequest("r", 2);
    expectIdle(h);
  });
});

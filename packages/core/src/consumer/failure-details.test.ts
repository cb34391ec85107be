/**
 * [C5] Every terminal failure of the remote path says why in its warning's `detail`: what the
 * producer said, what the read found, or which deadline or check ended it. And [C8][I5]: a read
 * result whose status is not one of the settled ones frees nothing.
 */
import { ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { P, QUIET, acks, descriptor, env, fill, grant, makeConsumer, onlyAttempt, remote, starts } from "./test-support.js";

const OK = ectp.v1.CompletionStatus.COMPLETION_STATUS_OK;

/** A consumer whose request `r` waits for item `a` (test item "h1"), with its read started at 0 (grant 7). */
function reading(config = {}) {
  const h = makeConsumer({ ...QUIET, ...config });
  h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
  const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 0))[0];
  if (start === undefined) throw new Error("no read started");
  return { h, start };
}

/** The `detail` of the "request failed" warning for item `a` of request `r`, and its reason. */
function failureWarning(h: ReturnType<typeof makeConsumer>) {
  const w = h.logger.at("warn").find((l) => l.message === "request failed" && l.fields?.requestId === "r");
  if (w === undefined) throw new Error(`no failure warning: ${JSON.stringify(h.logger.at("warn"))}`);
  return { reason: w.fields?.reason, detail: w.fields?.detail };
}

describe("[C5] the failure warning's detail names the cause", () => {
  it("[C5][P8] a read failed with the producer gone: the transport's error", () => {
    const { h, start } = reading();
    h.core.handleReadResult({ readId: start.readId, status: "failed", peerGone: true, error: "remote disconnect (UCX)" }, 5);
    h.core.poll(5);
    expect(failureWarning(h)).toEqual({ reason: "PEER_UNREACHABLE", detail: "the read failed with the producer gone: remote disconnect (UCX)" });
  });

  it("[C5][P8] the producer reported unreachable during the read", () => {
    const { h } = reading();
    h.core.handlePeerUnreachable(P, 5);
    h.core.poll(5);
    expect(failureWarning(h)).toEqual({ reason: "PEER_UNREACHABLE", detail: "the transport reported the producer unreachable during the read" });
  });

  it("[C5][P8] the producer silent during the read: how many heartbeat intervals", () => {
    const { h } = reading({ heartbeatIntervalMs: 1_000, heartbeatMisses: 3 });
    for (let t = 0; t <= 4_000; t += 500) h.core.poll(t);
    expect(failureWarning(h)).toEqual({ reason: "PEER_UNREACHABLE", detail: "nothing heard from the producer in 3 heartbeat intervals during the read" });
  });

  it("[C5][C8] a read unsettled at its transfer deadline: the timeout, and that it is quarantined", () => {
    const { h } = reading({ transferTimeoutMs: 2_000 });
    h.core.poll(2_000);
    expect(failureWarning(h)).toEqual({
      reason: "TRANSFER_TIMEOUT",
      detail: "the read had not settled after transferTimeoutMs (2000 ms); it is cancelled and quarantined",
    });
  });

  it("[C5][C8] a read unsettled when its lease ends", () => {
    const h = makeConsumer(QUIET); // transfer timeout 20 s, lease safety margin 5 s
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 0, { leaseMs: 10_000 });
    h.core.poll(5_000);
    expect(failureWarning(h)).toEqual({
      reason: "LEASE_EXPIRED",
      detail: "the read had not settled when the grant's lease (less the safety margin) ended; it is cancelled and quarantined",
    });
  });

  it("[C5][P8] the producer restarted during the read: both epochs", () => {
    const { h } = reading();
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: { sequence: 1 } }), 5);
    h.core.poll(5);
    expect(failureWarning(h)).toEqual({ reason: "EPOCH_CHANGED", detail: "the producer restarted as epoch 2; the item was announced in epoch 1" });
  });

  it("[C5][C11] a grant naming another size: both sizes", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 0, { size: 32 });
    expect(failureWarning(h)).toEqual({ reason: "SIZE_MISMATCH", detail: "the grant names 32 bytes, the announcement 16" });
  });

  it("[C5][P8] a grant from another epoch than the one announced", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 0, { epoch: 2 });
    const w = failureWarning(h);
    expect(w.reason).toBe("EPOCH_CHANGED");
    expect(w.detail).toMatch(/epoch 2.*1/);
  });

  it("[C5][C11] a grant whose descriptor names another key, another epoch than its sender's, or is invalid: what is wrong with it", () => {
    const send = (item: ectp.v1.IItemDescriptor) => {
      const h = makeConsumer(QUIET);
      h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
      const attemptId = onlyAttempt(h.core.poll(0));
      h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId, grantId: 7, item, leaseMs: 30_000 } }), 0);
      h.core.poll(0);
      return failureWarning(h);
    };
    expect(send(descriptor("h2"))).toEqual({ reason: "INVALID_ANNOUNCEMENT", detail: "the grant's descriptor names another item key than the one requested" });
    expect(send(descriptor("h1", { epoch: 2 }))).toEqual({ reason: "EPOCH_CHANGED", detail: "the grant's descriptor names epoch 2, the announcement 1" });
    const invalid = send({ ...descriptor("h1"), producerId: "" });
    expect(invalid.reason).toBe("INVALID_ANNOUNCEMENT");
    expect(invalid.detail).toMatch(/^the grant's descriptor is invalid: .*producer/);
  });

  it("[C5] a destination of another length than the item: both lengths", () => {
    const h = makeConsumer(QUIET);
    const allocate = h.pool.allocate.bind(h.pool);
    h.pool.allocate = (keyId, size) => {
      const d = allocate(keyId, size);
      return d === undefined ? d : { ...d, length: size / 2 };
    };
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 0);
    expect(failureWarning(h)).toEqual({ reason: "INTERNAL", detail: "the destination pool returned 8 bytes for an item of 16" });
  });

  it("[C5][C11] a grant whose lease leaves nothing past the safety margin: the lease and the margin", () => {
    const h = makeConsumer({ ...QUIET, leaseSafetyMarginMs: 5_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 0, { leaseMs: 4_000 });
    expect(failureWarning(h)).toEqual({
      reason: "LEASE_EXPIRED",
      detail: "the grant's lease of 4000 ms (at most leaseMs, 30000 ms) is not longer than leaseSafetyMarginMs (5000 ms)",
    });
  });
});

describe("[C8][I5] a read result with a status that is not done, failed or cancelled", () => {
  it("frees nothing, is counted and logged, and the read settles later as usual", () => {
    const { h, start } = reading();
    for (const status of ["in-progress", undefined, 1, "DONE"]) {
      h.core.handleReadResult({ readId: start.readId, status, bytesRead: 16 } as never, 5);
      h.core.poll(5);
    }
    expect(h.pool.live.size).toBe(1); // the destination is still the transport's
    expect(h.pool.violations).toEqual([]);
    expect(h.core.stats().readsInFlight).toBe(1);
    expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "malformed_read_result"])).toBe(4);
    expect(h.logger.at("error").map((l) => l.fields?.status)).toEqual(["in-progress", "nothing", "1", "DONE"]);
    expect(h.core.drainFailed()).toEqual([]);
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 6);
    expect(acks(h.core.poll(6))).toEqual([[7, OK]]);
    expect(h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 6)).toMatchObject({ items: [{ action: "ready" }] });
  });

  it("[I1] a result whose field throws when read frees nothing either: counted, logged, and the read settles later as usual", () => {
    const { h, start } = reading();
    const throwing = { readId: start.readId, status: "done" as const, get bytesRead(): number { throw new Error("detached"); } };
    h.core.handleReadResult(throwing, 5);
    expect(acks(h.core.poll(5))).toEqual([]); // no ACK: the grant is still the read's
    expect(h.pool.live.size).toBe(1);
    expect(h.core.stats()).toMatchObject({ readsInFlight: 1, grantsHeld: 1 });
    expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "malformed_read_result"])).toBe(1);
    expect(h.logger.at("error").map((l) => l.fields?.error)).toEqual(["Error: detached"]);
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 6);
    expect(acks(h.core.poll(6))).toEqual([[7, OK]]);
    expect(h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 6)).toMatchObject({ items: [{ action: "ready" }] });
    h.core.finishRequest("r", 7);
    expect(h.core.stats()).toMatchObject({ grantsHeld: 0, destinations: 0 });
  });

  it("left unsettled, the read ends at its deadline and is quarantined, its destination held until a known status", () => {
    const { h, start } = reading({ transferTimeoutMs: 2_000 });
    h.core.handleReadResult({ readId: start.readId, status: "pending" } as never, 5);
    h.core.poll(2_000);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "TRANSFER_TIMEOUT", attempts: 1 }] }]);
    expect(h.core.stats().quarantined).toBe(1);
    expect(h.pool.live.size).toBe(1);
    h.core.handleReadResult({ readId: start.readId, status: "cancelled" }, 2_001);
    expect(h.core.stats().quarantined).toBe(0);
    expect(h.pool.live.size).toBe(0);
  });
});

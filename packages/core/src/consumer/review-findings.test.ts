/**
 * Findings of a review of the consumer against SPEC.md and the package README (third round): what a
 * warning says about a budget that ended as a grant arrived [C3], what a read found for one waiter
 * whose own announced checksum differs [C5][C11], which producer losses count as outages [P8], and
 * the README's bound for a clock reading far behind [I1]. Each test failed on the code before its fix
 * (the last one pins the code, whose README sentence was the wrong half).
 */
import { crc32c } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { StartReadOutput } from "../outputs.js";
import { P, QUIET, announce, env, fill, grant, itemBytes, makeConsumer, onlyAttempt, remote, starts } from "./test-support.js";

type H = ReturnType<typeof makeConsumer>;

/** The fields of the "request failed" warning of request `requestId`. */
function failedWarning(h: H, requestId: string) {
  const w = h.logger.at("warn").find((l) => l.message === "request failed" && l.fields?.requestId === requestId);
  if (w === undefined) throw new Error(`no failure warning for ${requestId}: ${JSON.stringify(h.logger.at("warn"))}`);
  return w.fields;
}

describe("[C3] a budget that ends as its grant arrives", () => {
  it("[C3] a grant refused (another size) exactly at one waiter's budget deadline: that waiter's warning says it waited for the grant, not a retry", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0); // budget ends at 1000
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.admit({ requestId: "s", items: [remote("b", "h1")] }, 500); // joins; budget ends at 1500
    h.core.poll(500);
    // The first attempt's grant, naming another size, handled at r's deadline before any poll.
    const item = { ...announce("h1").item, sizeBytes: 32 };
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: attempt, grantId: 3, item, leaseMs: 30_000 } }), 1_000);
    expect(failedWarning(h, "r")).toMatchObject({ reason: "BUDGET_EXHAUSTED", attempts: 1, producer: P, waitingFor: "grant" });
    expect(failedWarning(h, "r")).not.toHaveProperty("lastRetryReason"); // no attempt had ended
    expect(failedWarning(h, "s")).toMatchObject({ reason: "SIZE_MISMATCH", detail: "the grant names 32 bytes, the announcement 16" });
  });
});

describe("[C5][C11] one waiter's own checksum differs from the bytes read", () => {
  /** Requests r1 (announced without a checksum) and r2 (announced with `value`) share one fetch of h1; its read lands h1's bytes. */
  function sharedRead(value: Uint8Array, viewable = true): H {
    const h = makeConsumer(QUIET);
    h.pool.viewable = viewable;
    const other = announce("h1");
    (other.item as { checksum?: unknown }).checksum = { algorithm: 1, value };
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    h.core.admit({ requestId: "r2", items: [{ itemId: "b", announcement: other, hasModelInput: false }] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 1, "h1", 1))[0] as StartReadOutput;
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2);
    h.core.poll(2);
    return h;
  }

  it("[C5][C11] its warning names the CRC-32C of the bytes read and the one its announcement carried", () => {
    const h = sharedRead(new Uint8Array([1, 2, 3, 4]));
    expect(h.core.drainFailed()).toEqual([{ requestId: "r2", failures: [{ itemId: "b", reason: "CHECKSUM_MISMATCH", attempts: 1 }] }]);
    const read = crc32c(itemBytes("h1", 16));
    expect(failedWarning(h, "r2")).toMatchObject({ producer: P, detail: `CRC-32C of the bytes read ${read}, announced ${0x01020304}` });
  });

  it("[C5][C11] bytes the pool cannot show, without a CRC from the transport: its warning says the checksum was not verifiable", () => {
    const h = sharedRead(new Uint8Array([1, 2, 3, 4]), false);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r2", failures: [{ itemId: "b", reason: "CHECKSUM_MISMATCH", attempts: 1 }] }]);
    expect(failedWarning(h, "r2")).toMatchObject({
      detail: "checksum not verifiable: the pool gives no view of the destination and the transport reported no CRC-32C",
    });
  });
});

describe("[P8] which producer losses are outages (ectp_consumer_peers_gone_total, the 'producer is gone' warning)", () => {
  const gone = (h: H) => h.metrics.total("ectp_consumer_peers_gone_total");
  const goneWarnings = (h: H) => h.logger.at("warn").filter((l) => l.message.startsWith("producer is gone"));

  it("[P8] an idle producer whose connection is still held, reported unreachable, is no outage: disconnected, not counted, logged at info; the next real outage is warned of", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { metadata: new Uint8Array([5]) })] }, 0);
    const out = h.core.poll(0);
    expect(out.filter((o) => o.type === "connect-peer")).toHaveLength(1);
    const start = starts(grant(h, onlyAttempt(out), 1, "h1", 1))[0] as StartReadOutput;
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2);
    h.core.finishRequest("r", 3);
    h.core.poll(3); // no business left; the connection is kept until idlePeerMs
    h.core.handlePeerUnreachable(P, 10);
    expect(h.core.poll(10)).toEqual([{ type: "disconnect-peer", peerId: P }]);
    expect(gone(h)).toBe(0);
    expect(goneWarnings(h)).toEqual([]);
    expect(h.logger.at("info").map((l) => l.message)).toContain("idle producer reported unreachable; its connection is let go");
    // Business again, and the producer lost during it: an outage, warned of (not "still gone").
    h.core.admit({ requestId: "s", items: [remote("b", "h2")] }, 20);
    h.core.poll(20);
    h.core.handlePeerUnreachable(P, 30);
    h.core.poll(30);
    expect(gone(h)).toBe(1);
    expect(goneWarnings(h)).toHaveLength(1);
  });

  it("[P8] a producer found gone by a read the transport failed (peer_gone) is an outage, also with no connection to drop", () => {
    const h = makeConsumer(QUIET); // announcements without metadata: nothing is connected
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 0))[0] as StartReadOutput;
    h.core.handleReadResult({ readId: start.readId, status: "failed", peerGone: true, error: "gone" }, 5);
    h.core.poll(5);
    expect(h.metrics.total("ectp_consumer_peers_gone_total", ["cause", "unreachable"])).toBe(1);
    expect(goneWarnings(h)).toHaveLength(1);
    expect(failedWarning(h, "r")).toMatchObject({ reason: "PEER_UNREACHABLE" });
  });
});

describe("[I1] a clock reading far behind the latest (README: One clock)", () => {
  it("[I1] a reading exactly 60 s behind the latest is taken as the latest without a warning; one more than 60 s behind is warned of, once", () => {
    const h = makeConsumer(QUIET);
    const behind = () => h.logger.at("warn").filter((l) => l.message.startsWith("a clock reading is far behind"));
    h.core.poll(100_000);
    h.core.poll(40_000); // exactly 60 s behind
    expect(behind()).toEqual([]);
    h.core.poll(39_999);
    expect(behind()).toHaveLength(1);
    h.core.poll(0);
    expect(behind()).toHaveLength(1);
    expect(h.core.nextDeadline()).toBeUndefined();
  });
});

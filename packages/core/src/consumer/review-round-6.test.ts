/**
 * Findings of a sixth review of the consumer (a code read against SPEC.md, and an operator's run of
 * every failure with the metrics and logs recorded): a refusal forgotten once a greater epoch was seen
 * and the peer record swept (SPEC 4.2), the reason a fetch resumed after a grant that came too late is
 * retried under [C3][C4], grant timeouts counted [C4], a read that settles after the quarantine cap
 * released its destination [C8], the quarantine-cap warning naming the producer, and a metrics hook
 * that throws logged once [I1], and the producer and key of an invalid announcement in its warning
 * [C5]. Each test failed on the code before its fix.
 */
import { describe, expect, it } from "vitest";
import type { StartReadOutput } from "../outputs.js";
import { ConsumerCore } from "./consumer.js";
import { FP, P, QUIET, RecordingLogger, TestPool, env, fill, grant, makeConsumer, onlyAttempt, remote, sent, starts } from "./test-support.js";

describe("SPEC 4.2 a refused epoch is never asked again", () => {
  it("[P8] after a greater epoch was seen and 1,100 other senders swept the peer table, the refused epoch is still refused", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", false, { epoch: 2 })] }, 0);
    h.core.poll(0);
    h.core.handleEnvelope(P, env(P, 2, { handshakeReject: { reason: 4 } }), 1); // INCOMPATIBLE
    h.core.poll(1);
    expect(h.core.drainFailed().map((f) => f.failures[0]?.reason)).toEqual(["INCOMPATIBLE"]);
    h.core.finishRequest("r1", 1);
    h.core.handleEnvelope(P, env(P, 3, { heartbeat: {} }), 2); // the producer restarted as epoch 3
    h.core.poll(2_000_000);
    for (let i = 0; i < 1_100; i++) h.core.handleEnvelope(`x-${i}`, env(`x-${i}`, 1, { heartbeat: {} }), 2_000_001);
    const r = h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { epoch: 2 })] }, 2_000_002);
    expect(r.status).toBe("failed");
    expect(sent(h.core.poll(2_000_002), "readRequest")).toEqual([]);
  });
});

describe("[C3][C4] a grant that comes when every waiter's budget is over", () => {
  it("[C3] the waiter's warning says it waited for the grant, not a retry", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000, grantWaitMs: 5_000 });
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", true)] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: attempt, grantId: 7, item: remote("a", "h1").announcement?.item, leaseMs: 30_000 } }), 1_000);
    h.core.poll(1_000);
    const w = h.logger.at("warn").find((l) => l.message === "item falls back to local encode");
    expect(w?.fields).toMatchObject({ requestId: "r1", reason: "BUDGET_EXHAUSTED", waitingFor: "grant" });
  });

  it("[C4] a request joining the parked fetch resumes it, counted and logged as a retry for BUDGET_EXHAUSTED, not INTERNAL", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000, grantWaitMs: 5_000 });
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", true)] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: attempt, grantId: 7, item: remote("a", "h1").announcement?.item, leaseMs: 30_000 } }), 1_000);
    h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 1_000);
    expect(sent(h.core.poll(1_000), "readRequest")).toHaveLength(1);
    expect(h.metrics.total("ectp_consumer_retries_total", ["reason", "BUDGET_EXHAUSTED"])).toBe(1);
    expect(h.metrics.total("ectp_consumer_retries_total", ["reason", "INTERNAL"])).toBe(0);
    expect(h.logger.records.find((l) => l.message === "retrying remote read")?.fields).toMatchObject({ attempt: 2, reason: "BUDGET_EXHAUSTED" });
  });
});

describe("[C4] grant timeouts are counted, also the one no retry follows", () => {
  it("[C4] ectp_consumer_grant_timeouts_total counts an attempt with no answer in grantWaitMs, though its backoff passes the budget; the log names the producer", () => {
    // The backoff after the timeout at 700 is 500 to 1000 ms: past the budget's end at 1000.
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000, grantWaitMs: 700, backoffInitialMs: 1_000, backoffMaxMs: 1_000 });
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", true)] }, 0);
    for (let t = 0; t <= 1_000; t += 10) h.core.poll(t);
    expect(h.metrics.total("ectp_consumer_grant_timeouts_total")).toBe(1);
    expect(h.metrics.total("ectp_consumer_retries_total")).toBe(0);
    const timeouts = h.logger.records.filter((l) => l.message === "no grant within the grant wait");
    expect(timeouts.map((l) => l.fields)).toEqual([{ itemKey: expect.any(String), producer: P, attempt: 1 }]);
    expect(h.logger.records.filter((l) => l.message.startsWith("remote read not retried")).map((l) => l.fields)).toEqual([
      { itemKey: expect.any(String), producer: P, reason: "GRANT_TIMEOUT", attempt: 1, delayMs: expect.any(Number) },
    ]);
  });
});

describe("[C8] a read that settles after the quarantine cap released its destination", () => {
  it("[C8] is warned of with its read, item key and producer, and counted as settled_after_cap, not unknown_read", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 100_000, transferTimeoutMs: 1_000, quarantineCapMs: 5_000 });
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", true)] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1))[0] as StartReadOutput;
    for (let t = 1; t <= 8_000; t += 100) h.core.poll(t); // the read times out at 1001, the cap releases it at 6001
    const capWarning = h.logger.at("warn").find((l) => l.message.startsWith("quarantined read never settled"));
    expect(capWarning?.fields).toEqual({ readId: start.readId, itemKey: expect.any(String), producer: P });
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 9_000);
    expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "settled_after_cap"])).toBe(1);
    expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "unknown_read"])).toBe(0);
    const late = h.logger.at("warn").find((l) => l.message.startsWith("a read settled after the quarantine cap released its destination"));
    expect(late?.fields).toEqual({ readId: start.readId, itemKey: capWarning?.fields?.itemKey, producer: P, afterCapMs: expect.any(Number) });
    // Once only: a second result of it is an unknown read.
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 9_001);
    expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "unknown_read"])).toBe(1);
  });
});

describe("[I1] a metrics hook that throws", () => {
  it("[I1] is contained and counted, and logged once at error level with the metric, its labels and the error", () => {
    const logger = new RecordingLogger();
    const throwing = {
      counter: () => {
        throw new Error("label set not declared");
      },
      gauge: () => {},
      histogram: () => {},
    };
    const core = new ConsumerCore({ id: "pd-1", epoch: 1, fingerprint: FP, destinations: new TestPool(), config: QUIET, metrics: throwing, logger });
    core.admit({ requestId: "r1", items: [{ itemId: "a", hasModelInput: true }] }, 0); // the first counter sample: items admitted
    core.handleMessage(P, new Uint8Array([0xff]), 1); // ignored: a counter sample
    core.handleMessage(P, new Uint8Array([0xfe]), 2);
    expect(core.stats().hookFailures).toBeGreaterThanOrEqual(2);
    const errors = logger.at("error").filter((l) => l.message.startsWith("the metrics hook threw"));
    expect(errors.map((l) => l.fields)).toEqual([{ metric: "ectp_consumer_items_admitted_total", kind: "counter", labels: { path: "local_encode" }, error: "Error: label set not declared" }]);
  });
});

describe("[C2][C5] the warning of an item with an invalid announcement", () => {
  it("[C5] names the producer and the item key where the announcement names them readably (a wrong model, a size of 0)", () => {
    const h = makeConsumer(QUIET);
    const otherModel = remote("a", "h1");
    const key = otherModel.announcement?.item?.key as { fingerprint: object };
    key.fingerprint = { ...key.fingerprint, model: "other" }; // (a copy: the test fingerprint is shared)
    const zeroSize = remote("b", "h2");
    (zeroSize.announcement?.item as { sizeBytes: number }).sizeBytes = 0;
    h.core.admit({ requestId: "r1", items: [otherModel] }, 0);
    h.core.admit({ requestId: "r2", items: [zeroSize] }, 0);
    const warned = h.logger.at("warn").filter((l) => l.message === "request failed");
    expect(warned.map((l) => l.fields)).toEqual([
      expect.objectContaining({ requestId: "r1", reason: "INVALID_ANNOUNCEMENT", producer: P, itemKey: expect.any(String), detail: expect.stringContaining("model") }),
      expect.objectContaining({ requestId: "r2", reason: "INVALID_ANNOUNCEMENT", producer: P, itemKey: expect.any(String), detail: expect.stringContaining("sizeBytes") }),
    ]);
  });

  it("[C5] leaves them out where it cannot read them (no item, a producer id that is not a string)", () => {
    const h = makeConsumer(QUIET);
    const noProducer = remote("a", "h1");
    (noProducer.announcement?.item as { producerId: unknown }).producerId = 7;
    h.core.admit({ requestId: "r1", items: [{ itemId: "a", announcement: { version: { major: 1, minor: 0 } }, hasModelInput: false }] }, 0);
    h.core.admit({ requestId: "r2", items: [noProducer] }, 0);
    const [first, second] = h.logger.at("warn").filter((l) => l.message === "request failed").map((l) => l.fields);
    expect(first).not.toHaveProperty("producer");
    expect(first).not.toHaveProperty("itemKey");
    expect(second).not.toHaveProperty("producer");
    expect(second).toHaveProperty("itemKey");
  });

  it("[I1][C2] an announcement whose producer id throws as it is read is an invalid announcement, logged without it, never a throw", () => {
    const h = makeConsumer(QUIET);
    const throwing = remote("a", "h1");
    Object.defineProperty(throwing.announcement?.item, "producerId", {
      get() {
        throw new Error("getter");
      },
    });
    expect(h.core.admit({ requestId: "r1", items: [throwing] }, 0)).toMatchObject({ status: "failed", failures: [{ reason: "INVALID_ANNOUNCEMENT" }] });
    const [warning] = h.logger.at("warn").filter((l) => l.message === "request failed").map((l) => l.fields);
    expect(warning).toMatchObject({ requestId: "r1", reason: "INVALID_ANNOUNCEMENT", itemKey: expect.any(String) }); // (read before the producer id)
    expect(warning).not.toHaveProperty("producer");
  });
});

describe("[C1] items admitted are counted by their first decision's path", () => {
  it("[C1] ectp_consumer_items_admitted_total{path}: local, loaded, remote, local_encode; a failed request's items are not counted there", () => {
    const h = makeConsumer(QUIET);
    const paths = () =>
      Object.fromEntries(["local", "loaded", "remote", "local_encode"].map((p) => [p, h.metrics.total("ectp_consumer_items_admitted_total", ["path", p])]));
    h.core.admit(
      {
        requestId: "r1",
        items: [{ itemId: "own", hasModelInput: true, local: true }, remote("a", "h1"), { itemId: "none", hasModelInput: true }],
      },
      0,
    );
    expect(paths()).toEqual({ local: 1, loaded: 0, remote: 1, local_encode: 1 });
    // h1 loaded: a later request's item of the same key is served by the bytes held.
    const attempt = onlyAttempt(h.core.poll(0));
    const start = starts(grant(h, attempt, 5, "h1", 1))[0] as StartReadOutput;
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2);
    h.core.poll(2);
    h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 3);
    expect(paths()).toEqual({ local: 1, loaded: 1, remote: 1, local_encode: 1 });
    // Re-admissions count nothing; a request failed at admission is counted by its failures only.
    h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 4);
    expect(h.core.admit({ requestId: "r3", items: [{ itemId: "x", hasModelInput: false }] }, 4).status).toBe("failed");
    expect(paths()).toEqual({ local: 1, loaded: 1, remote: 1, local_encode: 1 });
  });
});

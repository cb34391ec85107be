/**
 * The `peerLabels` option of both cores (the operator review of 2026-12-06: no metric said which
 * peer): on, the samples about one peer also name it (`producer` on a consumer's, `consumer` on a
 * producer's); off, the default, their labels are as they were. Label sets are made once and kept.
 */
import { EctpError, ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { ConsumerCore } from "./consumer/consumer.js";
import { FP, P, QUIET, RecordingLogger, RecordingMetrics, TestPool, env, fill, grant, onlyAttempt, remote, starts } from "./consumer/test-support.js";
import { PeerLabels } from "./observability.js";
import { MemoryItemStore } from "./producer/memory-store.js";
import { ProducerCore } from "./producer/producer.js";
import { CountingMetrics, FP as PRODUCER_FP, ack, ready, request } from "./producer/test-helpers.js";

const R = ectp.v1.FailureReason;

/** A consumer whose samples are recorded, with `peerLabels` as given (shaped as test-support's makeConsumer's). */
function consumer(peerLabels?: boolean) {
  const pool = new TestPool();
  const metrics = new RecordingMetrics();
  const logger = new RecordingLogger();
  const core = new ConsumerCore({ id: "pd-1", epoch: 1, fingerprint: FP, destinations: pool, config: QUIET, metrics, logger, peerLabels });
  return { core, pool, metrics, logger };
}

/** Item "a" (test item h1) loaded from P; item "b" (h2) refused NOT_FOUND, its request failing; item "c" (h3) retried after OVERLOADED. */
function drive(h: ReturnType<typeof consumer>) {
  h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
  const [start] = starts(grant(h, onlyAttempt(h.core.poll(0)), 1, "h1", 1));
  if (start === undefined) throw new Error("no read started");
  fill(start, "h1");
  h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2);
  h.core.poll(2);
  h.core.admit({ requestId: "r2", items: [remote("b", "h2")] }, 3);
  h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: onlyAttempt(h.core.poll(3)), reason: R.FAILURE_REASON_NOT_FOUND } }), 4);
  h.core.admit({ requestId: "r3", items: [remote("c", "h3")] }, 5);
  h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: onlyAttempt(h.core.poll(5)), reason: R.FAILURE_REASON_OVERLOADED, retryable: true } }), 6);
  for (let t = 6; t <= 2_000; t += 50) h.core.poll(t); // the retry of "c" goes out
}

/** The label sets a counter was sampled with. */
const labelsOf = (m: RecordingMetrics, name: string) => m.counters.filter((c) => c.name === name).map((c) => c.labels);

describe("peerLabels: the consumer names the producer of a sample", () => {
  it("on: loaded items, their read durations, item failures and retries carry producer", () => {
    const h = consumer(true);
    drive(h);
    expect(labelsOf(h.metrics, "ectp_consumer_items_loaded_total")).toEqual([{ producer: P }]);
    expect(h.metrics.histograms.filter((x) => x.name === "ectp_consumer_read_duration_ms").map((x) => x.labels)).toEqual([{ producer: P }]);
    expect(labelsOf(h.metrics, "ectp_consumer_item_failures_total")).toEqual([{ reason: "NOT_FOUND", producer: P }]);
    expect(labelsOf(h.metrics, "ectp_consumer_retries_total")).toEqual([{ reason: "OVERLOADED", producer: P }]);
    // Items admitted are counted by path only (an item's path is known before its producer answers).
    expect(labelsOf(h.metrics, "ectp_consumer_items_admitted_total")).toEqual([{ path: "remote" }, { path: "remote" }, { path: "remote" }]);
  });

  it("off (the default): the same samples carry their own labels only", () => {
    const h = consumer();
    drive(h);
    expect(labelsOf(h.metrics, "ectp_consumer_items_loaded_total")).toEqual([undefined]);
    expect(labelsOf(h.metrics, "ectp_consumer_item_failures_total")).toEqual([{ reason: "NOT_FOUND" }]);
    expect(labelsOf(h.metrics, "ectp_consumer_retries_total")).toEqual([{ reason: "OVERLOADED" }]);
  });

  it("an item refused before any producer was asked (no announcement) carries no producer label", () => {
    const h = consumer(true);
    h.core.admit({ requestId: "r1", items: [{ itemId: "a", hasModelInput: false }] }, 0);
    expect(labelsOf(h.metrics, "ectp_consumer_item_failures_total")).toEqual([{ reason: "UNAVAILABLE" }]);
  });
});

describe("peerLabels: the producer names the consumer of a sample", () => {
  function producer(peerLabels?: boolean) {
    const store = new MemoryItemStore({ capacityBytes: 1000 });
    const metrics = new CountingMetrics();
    const core = new ProducerCore({ id: "E", epoch: 7, fingerprint: PRODUCER_FP, store, metrics, peerLabels });
    ready(store, 1);
    return { producer: core, store, metrics, logger: undefined as never };
  }

  it("on: grants, releases and rejects carry consumer", () => {
    const h = producer(true);
    const granted = request(h, "pd-9", 1, 1, 0).readGrant;
    ack(h, "pd-9", granted?.grantId as number, 1);
    h.producer.poll(1);
    expect(request(h, "pd-9", 2, 2, 2).readReject?.reason).toBe(R.FAILURE_REASON_NOT_FOUND);
    expect(h.metrics.get("ectp_producer_grants_total", { consumer: "pd-9" })).toBe(1);
    expect(h.metrics.get("ectp_producer_releases_total", { cause: "ack_ok", consumer: "pd-9" })).toBe(1);
    expect(h.metrics.get("ectp_producer_rejects_total", { reason: "NOT_FOUND", consumer: "pd-9" })).toBe(1);
  });

  it("off (the default): they carry their own labels only", () => {
    const h = producer();
    const granted = request(h, "pd-9", 1, 1, 0).readGrant;
    ack(h, "pd-9", granted?.grantId as number, 1);
    h.producer.poll(1);
    expect(h.metrics.get("ectp_producer_grants_total")).toBe(1);
    expect(h.metrics.get("ectp_producer_releases_total", { cause: "ack_ok" })).toBe(1);
  });
});

describe("peerLabels option", () => {
  it("anything but a boolean is INVALID_CONFIG, naming the option", () => {
    for (const bad of ["yes", 1, null, {}]) {
      const make = () => new ConsumerCore({ id: "pd-1", epoch: 1, fingerprint: FP, destinations: new TestPool(), peerLabels: bad as never });
      expect(make).toThrow(EctpError);
      expect(make).toThrow(/options\.peerLabels must be a boolean/);
      const store = new MemoryItemStore({ capacityBytes: 10 });
      expect(() => new ProducerCore({ id: "E", epoch: 1, fingerprint: PRODUCER_FP, store, peerLabels: bad as never })).toThrow(/options\.peerLabels must be a boolean/);
    }
  });

  it("label sets are made once per (own labels, peer), frozen, and not kept past the cap", () => {
    const own = Object.freeze({ reason: "NOT_FOUND" });
    const labels = new PeerLabels("producer");
    const first = labels.with(own, "e-1");
    expect(first).toEqual({ reason: "NOT_FOUND", producer: "e-1" });
    expect(Object.isFrozen(first)).toBe(true);
    expect(labels.with(own, "e-1")).toBe(first);
    expect(labels.with(own, undefined)).toBe(own);
    expect(new PeerLabels(undefined).with(own, "e-1")).toBe(own);
    for (let i = 0; i < 5_000; i++) labels.with(own, `p${i}`);
    const late = labels.with(own, "p4999");
    expect(late).toEqual({ reason: "NOT_FOUND", producer: "p4999" });
    expect(labels.with(own, "p4999")).not.toBe(late); // beyond the cap: made afresh each time
    expect(labels.with(own, "e-1")).toBe(first);
  });
});

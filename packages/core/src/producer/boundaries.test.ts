import { SPEC_VERSION, ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { EventBatchOutput } from "../outputs.js";
import { MemoryItemStore } from "./memory-store.js";
import { ProducerCore } from "./producer.js";
import { FP, PRODUCER, ack, desc, harness, kid, readRequest, ready, request, sent, wire } from "./test-helpers.js";

const FR = ectp.v1.FailureReason;
const HELLO: ectp.v1.IHello = { role: ectp.v1.Role.ROLE_CONSUMER, fingerprint: FP, capabilities: [] };
const batches = (o: ReturnType<ReturnType<typeof harness>["producer"]["poll"]>) =>
  o.filter((x): x is EventBatchOutput => x.type === "event-batch").map((x) => x.batch);

/**
 * Exact boundaries and orders of the producer's rules, each test written against a mutant of the
 * enforcing line that no other test caught (a review by hand mutation, 2026-12-01): quota limits
 * [P5], the order of the ReadRequest checks [P7], subscriptions [E1], replay [E2], shutdown and
 * heartbeat intervals [P8], the store's put contract.
 */
describe("producer boundaries and check order", () => {
  it("[E1] a subscriber that shows a new epoch without events.v1 stops receiving batches", () => {
    const h = harness();
    h.producer.handleMessage("c", wire("c", 1, { hello: { ...HELLO, capabilities: ["events.v1"] } }), 0);
    h.producer.handleMessage("c", wire("c", 2, { hello: HELLO }), 1);
    h.producer.poll(1);
    ready(h.store, 1);
    expect(sent(h.producer.poll(2), "c").filter((e) => e.eventBatch)).toEqual([]);
  });
  it("a store whose lookup throws answers the ReadRequest INTERNAL, not a message dropped as malformed", () => {
    const h = harness();
    ready(h.store, 1);
    const get = h.store.get.bind(h.store);
    let fail = true;
    h.store.get = (keyId) => {
      if (fail) {
        fail = false;
        throw new Error("backend timeout");
      }
      return get(keyId);
    };
    const answer = request(h, "c", 1, 1, 0);
    expect(answer.readReject).toMatchObject({ attemptId: 1, reason: FR.FAILURE_REASON_INTERNAL, detail: "store could not look the item up" });
    expect(h.producer.stats().ignoredMessages).toBe(0);
    expect(h.logger.warnings.some((r) => r.message.startsWith("ERROR ") && JSON.stringify(r.fields).includes("backend timeout"))).toBe(true);
    expect(request(h, "c", 2, 1, 0).readGrant).toBeDefined(); // the next lookup works: nothing was left behind
  });
  it("[I1] announce() and stats() over a store that throws log it and return; the engine's call goes on", () => {
    const h = harness();
    ready(h.store, 1);
    const announced = h.producer.announce(kid(1));
    expect(announced?.item).toBeDefined();
    h.store.get = () => {
      throw new Error("backend timeout");
    };
    h.store.totalPins = () => {
      throw new Error("backend gone");
    };
    expect(h.producer.announce(kid(1))).toBeUndefined();
    expect(h.producer.stats()).toMatchObject({ grants: 0, pins: -1 });
    const errors = h.logger.warnings.filter((r) => r.message.startsWith("ERROR ")).map((r) => JSON.stringify(r.fields));
    expect(errors.some((f) => f.includes("backend timeout"))).toBe(true);
    expect(errors.some((f) => f.includes("backend gone"))).toBe(true);
  });
  it("[I1][E2] a store that cannot list its items: no snapshot, nothing thrown from poll, the answer owed until it can", () => {
    const h = harness({ resendIntervalMs: 100 });
    ready(h.store, 1);
    h.producer.poll(0);
    const list = h.store.readyItems.bind(h.store);
    h.store.readyItems = () => {
      throw new Error("backend timeout");
    };
    h.producer.handleMessage("s", wire("s", 1, { snapshotRequest: {} }), 0); // answered at once: fails
    expect(sent(h.producer.poll(0), "s").filter((e) => e.snapshot)).toEqual([]);
    expect(h.producer.stats().ignoredMessages).toBe(0); // the store failed, not the message
    h.producer.handleMessage("s", wire("s", 1, { snapshotRequest: {} }), 10); // deferred: answered by a poll
    expect(() => h.producer.poll(100)).not.toThrow();
    h.store.readyItems = list;
    const snaps = sent(h.producer.poll(200), "s").filter((e) => e.snapshot);
    expect(snaps.map((e) => e.snapshot?.items?.length)).toEqual([1]);
    expect(h.logger.warnings.some((r) => r.message.startsWith("ERROR ") && JSON.stringify(r.fields).includes("backend timeout"))).toBe(true);
  });
  it("[I1][P7][E1] shutdown over a store whose unsubscribe throws logs it and completes; store changes it still hears are not published", () => {
    const store = new MemoryItemStore({ capacityBytes: 1 << 20 });
    const subscribe = store.subscribe.bind(store);
    store.subscribe = (listener) => {
      subscribe(listener);
      return () => {
        throw new Error("listener table locked");
      };
    };
    const producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store });
    producer.handleMessage("s", wire("s", 1, { hello: { role: ectp.v1.Role.ROLE_CONSUMER, fingerprint: FP, capabilities: ["events.v1"] } }), 0);
    expect(() => producer.shutdown(1)).not.toThrow();
    expect(producer.stats().shuttingDown).toBe(true);
    const events = (o: ReturnType<ProducerCore["poll"]>) => batches(o).flatMap((b) => b.events ?? []);
    expect(events(producer.poll(1)).map((e) => e.cleared?.cause)).toEqual([ectp.v1.ClearedCause.CLEARED_CAUSE_SHUTDOWN]);
    // [P7][E1][E2] Still subscribed, the producer hears the engine's later writes and a reset, and
    // publishes neither: after Cleared(SHUTDOWN) its snapshot lists nothing, and no batch may differ.
    ready(store, 1);
    store.clear("reset");
    expect(events(producer.poll(2))).toEqual([]);
    producer.handleMessage("s", wire("s", 1, { snapshotRequest: {} }), 3);
    const snapshot = sent(producer.poll(3), "s").find((e) => e.snapshot)?.snapshot;
    expect(snapshot).toMatchObject({ sequence: 1 });
    expect(snapshot?.items ?? []).toEqual([]);
  });
  it("[P7] expected_size_bytes smaller than the item is INTERNAL", () => {
    const h = harness();
    ready(h.store, 1, 10);
    expect(request(h, "c", 1, 1, 0, 1, { expectedSizeBytes: 9 }).readReject?.reason).toBe(FR.FAILURE_REASON_INTERNAL);
  });
  it("[P5] an item exactly the byte quota is granted", () => {
    const h = harness({ maxPinnedBytesPerConsumer: 25 });
    ready(h.store, 1, 25);
    expect(request(h, "c", 1, 1, 0).readGrant).toBeDefined();
  });
  it("[P5] a grant that brings pinned bytes exactly to the quota is granted", () => {
    const h = harness({ maxPinnedBytesPerConsumer: 25 });
    ready(h.store, 1, 15);
    ready(h.store, 2, 10);
    expect(request(h, "c", 1, 1, 0).readGrant).toBeDefined();
    expect(request(h, "c", 2, 2, 0).readGrant).toBeDefined();
  });
  it("[P5] grant count quota: exactly maxGrants granted, the next OVERLOADED (bytes far below)", () => {
    const h = harness({ maxGrantsPerConsumer: 2 });
    ready(h.store, 1);
    ready(h.store, 2);
    ready(h.store, 3);
    expect(request(h, "c", 1, 1, 0).readGrant).toBeDefined();
    expect(request(h, "c", 2, 2, 0).readGrant).toBeDefined();
    expect(request(h, "c", 3, 3, 0).readReject?.reason).toBe(FR.FAILURE_REASON_OVERLOADED);
  });
  it("[E2][P7] a snapshot after shutdown lists no items", () => {
    const h = harness();
    ready(h.store, 1);
    h.producer.poll(0);
    h.producer.shutdown(1);
    h.producer.handleMessage("s", wire("s", 1, { snapshotRequest: {} }), 2);
    const snaps = sent(h.producer.poll(2), "s").filter((e) => e.snapshot);
    expect(snaps).toHaveLength(1);
    expect(snaps[0]?.snapshot?.items ?? []).toEqual([]);
    expect(snaps[0]?.snapshot?.sequence).toBe(2);
  });
  it("[E2] ReplayRequest from_sequence 0 means 1: every buffered batch", () => {
    const h = harness();
    h.producer.handleMessage("s", wire("s", 1, { hello: { ...HELLO } }), 0);
    ready(h.store, 1);
    h.producer.poll(0);
    ready(h.store, 2);
    h.producer.poll(0);
    h.producer.handleMessage("s", wire("s", 1, { replayRequest: { fromSequence: 0 } }), 1);
    const out = sent(h.producer.poll(1), "s");
    expect(out.filter((e) => e.eventBatch).map((e) => e.eventBatch?.sequence)).toEqual([1, 2]);
    expect(out.filter((e) => e.replayUnavailable)).toEqual([]);
  });
  it("[E2][C10] a ReplayRequest whose from_sequence is not a safe non-negative integer is ignored as malformed: nothing is replayed", () => {
    const h = harness();
    ready(h.store, 1);
    h.producer.poll(0);
    const fromSequences = [-1, 1.5, 2 ** 53, "1", {}];
    for (const fromSequence of fromSequences)
      h.producer.handleEnvelope("s", { version: SPEC_VERSION, senderId: "s", senderEpoch: 1, replayRequest: { fromSequence } } as never, 1);
    expect(sent(h.producer.poll(1), "s")).toEqual([]);
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "malformed" })).toBe(fromSequences.length);
    expect(h.producer.stats().ignoredMessages).toBe(fromSequences.length);
    // Ignored means no subscription either: the next batch does not go to "s".
    ready(h.store, 2);
    expect(sent(h.producer.poll(2), "s")).toEqual([]);
  });
  it.each([
    ["ReplayRequest", { replayRequest: { fromSequence: -1 } }],
    ["ReadRequest", { readRequest: { attemptId: 0, key: { contentHash: new Uint8Array([1]), fingerprint: FP }, expectedSizeBytes: 100 } }],
  ])("[P8][C10] a malformed %s from a subscriber declared gone is ignored before it can bring the subscriber back", (_name, body) => {
    const h = harness();
    h.producer.handleMessage("s", wire("s", 1, { hello: { ...HELLO } }), 0);
    h.producer.handleMessage("s", wire("s", 1, { snapshotRequest: {} }), 0);
    h.producer.poll(0);
    h.producer.handlePeerUnreachable("s", 1);
    h.producer.poll(1);
    h.producer.handleEnvelope("s", { version: SPEC_VERSION, senderId: "s", senderEpoch: 1, ...body } as never, 2);
    expect(h.producer.stats()).toMatchObject({ peers: 0, ignoredMessages: 1 });
    // Neither reconnected nor subscribed again: the next batch does not go to "s".
    ready(h.store, 1);
    expect(h.producer.poll(3)).toEqual([expect.objectContaining({ type: "event-batch" })]);
    // A well-formed message of the same epoch still brings it back, subscription included [P8].
    h.producer.handleMessage("s", wire("s", 1, { heartbeat: {} }), 4);
    ready(h.store, 2);
    expect(sent(h.producer.poll(4), "s").map((e) => e.eventBatch?.sequence)).toEqual([2]);
  });
  it("[P8] a consumer's new epoch is judged by our interval until its new Hello", () => {
    const h = harness({ heartbeatIntervalMs: 2000, heartbeatMisses: 3 });
    ready(h.store, 1);
    h.producer.handleMessage("c", wire("c", 1, { hello: { ...HELLO, heartbeatIntervalMs: 60000 } }), 0);
    expect(request(h, "c", 1, 1, 10, 2).readGrant).toBeDefined(); // epoch 2, no Hello
    for (let t = 1000; t <= 7000; t += 1000) h.producer.poll(t);
    expect(h.producer.stats().peers).toBe(0);
    expect(h.producer.stats().pins).toBe(0);
  });
  it("[V1] handleEnvelope: an envelope without a version is refused VERSION, never acted on", () => {
    const h = harness();
    ready(h.store, 1);
    h.producer.handleEnvelope("c", { senderId: "c", senderEpoch: 1, ...readRequest(1, 1) }, 0);
    const out = sent(h.producer.poll(0), "c");
    expect(out.map((e) => e.readReject?.reason)).toEqual([FR.FAILURE_REASON_VERSION]);
    expect(h.producer.stats().pins).toBe(0);
  });
  it("[E1] a peer that sent a SnapshotRequest is a subscriber", () => {
    const h = harness();
    h.producer.handleMessage("s", wire("s", 1, { hello: HELLO }), 0);
    h.producer.handleMessage("s", wire("s", 1, { snapshotRequest: {} }), 0);
    h.producer.poll(0);
    ready(h.store, 1);
    expect(sent(h.producer.poll(1), "s").filter((e) => e.eventBatch)).toHaveLength(1);
  });
  it("[P7] a ReadRequest with attempt_id 0 is ignored (no answer, no pin)", () => {
    const h = harness();
    ready(h.store, 1);
    h.producer.handleMessage("c", wire("c", 1, readRequest(0, 1)), 0);
    expect(sent(h.producer.poll(0), "c").filter((e) => e.readGrant || e.readReject)).toEqual([]);
    expect(h.producer.stats().pins).toBe(0);
    expect(h.producer.stats().ignoredMessages).toBe(1);
  });
  it("[E1][P7] nothing is published after Cleared(SHUTDOWN)", () => {
    const h = harness();
    h.store.put(desc(1));
    h.producer.shutdown(0);
    expect(batches(h.producer.poll(0))).toHaveLength(1);
    h.store.markReady(kid(1));
    expect(batches(h.producer.poll(1))).toEqual([]);
  });
  it("[P7] shutting down (check 4) answers before a wrong expected_epoch (check 5)", () => {
    const h = harness();
    ready(h.store, 1);
    h.producer.shutdown(0);
    expect(request(h, "c", 1, 1, 0, 1, { expectedEpoch: PRODUCER.epoch + 1 }).readReject?.reason).toBe(FR.FAILURE_REASON_SHUTTING_DOWN);
  });
  it("[P7] a newer attempt with a wrong expected size is INTERNAL and leaves the live grant", () => {
    const h = harness();
    ready(h.store, 1, 10);
    expect(request(h, "c", 1, 1, 0).readGrant).toBeDefined();
    expect(request(h, "c", 2, 1, 0, 1, { expectedSizeBytes: 11 }).readReject?.reason).toBe(FR.FAILURE_REASON_INTERNAL);
    expect(h.producer.stats()).toMatchObject({ grants: 1, pins: 1 });
  });
  it("[I6] put refuses bytes longer than sizeBytes, storing nothing", () => {
    const s = new MemoryItemStore({ capacityBytes: 100 });
    const r = s.put(desc(1, 10), new Uint8Array(11));
    expect(r.ok).toBe(false);
    expect(s.get(kid(1))).toBeUndefined();
  });
  it("[E1] events totalling exactly MAX_REPEATED_ELEMENTS go out in one batch", () => {
    const h = harness({}, 1 << 30);
    // 32768 stored events with one shape dim each = 65536 elements
    for (let n = 0; n < 32768; n++) {
      const d = { ...desc(n, 1), key: { contentHash: new Uint8Array([n & 0xff, n >> 8, 1]), fingerprint: FP }, dtype: ectp.v1.Dtype.DTYPE_UINT8, shape: [1] };
      const r = h.store.put(d);
      if (!r.ok) throw r.error;
      h.store.markReady(r.value.keyId);
    }
    expect(batches(h.producer.poll(0))).toHaveLength(1);
  });

  it("[P8] a forgotten consumer's greater epoch counts though its message is refused or ignored: the older epoch's late request is stale", () => {
    const other = { ...FP, model: "other" };
    for (const body of [
      { hello: { ...HELLO, fingerprint: other } }, // refused: INCOMPATIBLE
      { hello: { ...HELLO, role: ectp.v1.Role.ROLE_PRODUCER } }, // ignored: another role
      { heartbeat: { sequence: 1 } }, // ignored: no Hello of this epoch
    ]) {
      const h = harness({ heartbeatIntervalMs: 2000, heartbeatMisses: 3 });
      ready(h.store, 1);
      h.producer.handleMessage("c", wire("c", 3, { hello: { ...HELLO, transportMetadata: new Uint8Array([3]) } }), 0);
      expect(request(h, "c", 1, 1, 0, 3).readGrant).toBeDefined();
      for (let t = 1000; t <= 7000; t += 1000) h.producer.poll(t); // silent: gone, remembered at epoch 3
      expect(h.producer.stats()).toMatchObject({ peers: 0, pins: 0 });
      h.producer.handleMessage("c", wire("c", 4, body), 7001);
      h.producer.poll(7001);
      h.producer.handleMessage("c", wire("c", 3, readRequest(2, 1)), 7002); // a late request of the dead epoch
      expect(h.producer.poll(7002)).toEqual([]);
      expect(h.producer.stats()).toMatchObject({ peers: 0, pins: 0 });
    }
  });

  it("[P8] a known consumer's greater epoch voids its old epoch's grants though its ReadRequest or ReplayRequest is ignored as malformed: the older epoch's late request is stale", () => {
    for (const body of [readRequest(0, 1), { replayRequest: { fromSequence: -1 } }]) {
      const h = harness();
      ready(h.store, 1);
      expect(request(h, "c", 1, 1, 0, 3).readGrant).toBeDefined();
      // Malformed: ignored, but epoch 4 is seen.
      h.producer.handleEnvelope("c", { version: SPEC_VERSION, senderId: "c", senderEpoch: 4, ...body } as never, 1);
      expect(h.producer.stats()).toMatchObject({ grants: 0, pins: 0, ignoredMessages: 1 });
      h.producer.handleMessage("c", wire("c", 3, readRequest(2, 1)), 2); // a late request of the dead epoch
      expect(sent(h.producer.poll(2))).toEqual([]);
      expect(h.producer.stats()).toMatchObject({ grants: 0, pins: 0, ignoredMessages: 2 });
    }
  });

  it("[P8][C10] heartbeats of a forgotten consumer's greater epoch, with no Hello of it, make no record", () => {
    const h = harness({ heartbeatIntervalMs: 2000, heartbeatMisses: 3 });
    h.producer.handleMessage("c", wire("c", 1, { hello: HELLO }), 0);
    h.producer.poll(0);
    h.producer.poll(7000); // silent: gone, remembered at epoch 1
    for (const t of [7100, 7200]) {
      h.producer.handleMessage("c", wire("c", 2, { heartbeat: { sequence: 1 } }), t);
      h.producer.poll(t);
    }
    expect(h.producer.stats().peers).toBe(0);
    expect(sent(h.producer.poll(9300), "c").filter((e) => e.heartbeat)).toEqual([]);
  });

  it("[P8] a second Hello of the same consumer epoch is answered and changes nothing: not its interval, capabilities or metadata (SPEC 4.1)", () => {
    const h = harness({ heartbeatIntervalMs: 2000, heartbeatMisses: 3 });
    ready(h.store, 1);
    h.producer.handleMessage("c", wire("c", 1, { hello: { ...HELLO, transportMetadata: new Uint8Array([1]) } }), 0);
    expect(sent(h.producer.poll(0), "c").filter((e) => e.hello)).toHaveLength(1);
    const dup = { ...HELLO, heartbeatIntervalMs: 60_000, capabilities: ["events.v1"], transportMetadata: new Uint8Array([2]) };
    h.producer.handleMessage("c", wire("c", 1, { hello: dup }), 0);
    expect(sent(h.producer.poll(0), "c").filter((e) => e.hello)).toHaveLength(1); // answered: its answer may have been lost
    expect(request(h, "c", 1, 1, 0).readGrant).toBeDefined();
    ready(h.store, 2);
    expect(sent(h.producer.poll(1), "c").filter((e) => e.eventBatch)).toEqual([]); // not subscribed by the duplicate
    // Judged by the first Hello's interval (ours, 2 s): gone and released after 6 s, not held for 180 s.
    for (let t = 1000; t <= 7000; t += 1000) h.producer.poll(t);
    expect(h.producer.stats()).toMatchObject({ peers: 0, pins: 0 });
  });

  it("[V1] a Hello of an unknown role value is refused INTERNAL (SPEC 4.1)", () => {
    const h = harness();
    h.producer.handleMessage("c", wire("c", 1, { hello: { ...HELLO, role: 9 as ectp.v1.Role } }), 0);
    expect(sent(h.producer.poll(0), "c").map((e) => e.handshakeReject?.reason)).toEqual([FR.FAILURE_REASON_INTERNAL]);
    expect(h.producer.stats().peers).toBe(0);
  });

  it("[P7] an absent item asked for at another epoch is EPOCH_CHANGED (check 5 before check 6)", () => {
    const h = harness();
    expect(request(h, "c", 1, 1, 0, 1, { expectedEpoch: PRODUCER.epoch + 1 }).readReject?.reason).toBe(FR.FAILURE_REASON_EPOCH_CHANGED);
  });

  it("[P7] a newer attempt naming another epoch changes no grant: the live one stays pinned", () => {
    const h = harness();
    ready(h.store, 1);
    expect(request(h, "c", 1, 1, 0).readGrant).toBeDefined();
    expect(request(h, "c", 2, 1, 0, 1, { expectedEpoch: PRODUCER.epoch + 1 }).readReject?.reason).toBe(FR.FAILURE_REASON_EPOCH_CHANGED);
    expect(h.producer.stats()).toMatchObject({ grants: 1, pins: 1 });
  });

  it("[V1] a ReadComplete of an absent or unknown status counts as FAILED: the grant is released (SPEC 4.6)", () => {
    for (const status of [0, 9]) {
      const h = harness();
      ready(h.store, 1);
      const grantId = Number(request(h, "c", 1, 1, 0).readGrant?.grantId);
      ack(h, "c", grantId, 1, 1, status);
      expect(h.producer.stats()).toMatchObject({ grants: 0, pins: 0 });
    }
  });
});

/**
 * Sequences of the producer's rules that no other test walked through: batch counting [E1], owed
 * replays and snapshots and their resend interval [E2], a lease deadline hit exactly [P3], release
 * exactly once under a re-entrant store [P2][I3], and the bounded table of gone peers [P8][I4].
 * Each test fails on the mutant of producer.ts named above it, which the other tests (and the
 * conformance suite, for those it can see) let pass (review of 2026-12-01, second round).
 */
import { SPEC_VERSION, ectp, itemKeyId } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { EventBatchOutput } from "../outputs.js";
import { MemoryItemStore } from "./memory-store.js";
import { ProducerCore } from "./producer.js";
import type { StoreEntry } from "./types.js";
import { CountingMetrics, FP, PRODUCER, ack, desc, harness, kid, readRequest, ready, refillingStore, request, sent, wire } from "./test-helpers.js";

/** The key id of a key in an event or snapshot (a case bug when it is not a valid key). */
function keyIdOf(key: ectp.v1.IItemKey | null | undefined): string {
  const r = itemKeyId(key);
  if (!r.ok) throw r.error;
  return r.value;
}

const HELLO: ectp.v1.IHello = { role: ectp.v1.Role.ROLE_CONSUMER, fingerprint: FP, capabilities: [] };
const batches = (o: ReturnType<ReturnType<typeof harness>["producer"]["poll"]>) =>
  o.filter((x): x is EventBatchOutput => x.type === "event-batch").map((x) => x.batch);

type Harness = ReturnType<typeof harness>;
/** 4 MiB of transport metadata: 16 gone peers holding it fill the forgotten table's 64 MiB byte bound. */
const BIG = new Uint8Array(4 << 20);

/** `id` greets at epoch 5 with `hello`'s fields at t=0 and is reported unreachable at t=1: gone, remembered. */
function gone(h: Harness, id: string, hello: ectp.v1.IHello = { transportMetadata: BIG }): void {
  h.producer.handleEnvelope(id, { version: SPEC_VERSION, senderId: id, senderEpoch: 5, hello: { ...HELLO, ...hello } }, 0);
  h.producer.handlePeerUnreachable(id, 1);
}

/** The metadata the producer reconnects gone peer `id` with when it heartbeats (epoch 5) at `now`, if any. */
function reconnectMetadata(h: Harness, id: string, now: number): Uint8Array | undefined {
  h.producer.handleMessage(id, wire(id, 5, { heartbeat: {} }), now);
  const connect = h.producer.poll(now).find((o) => o.type === "connect-peer");
  return connect?.type === "connect-peer" ? connect.metadata : undefined;
}

/** Items 1..3 become ready one poll apart: EventBatches 1, 2 and 3 are published. */
function publishThree(h: Harness): void {
  for (let i = 1; i <= 3; i++) {
    ready(h.store, i);
    h.producer.poll(i);
  }
}

/** The EventBatch sequences the producer sends to subscriber "r" when polled at `at`. */
function batchesTo(h: Harness, at: number): number[] {
  return sent(h.producer.poll(at), "r").flatMap((e) => (e.eventBatch ? [Number(e.eventBatch.sequence)] : []));
}

describe("producer sequences: events, leases, gone peers, shutdown", () => {
  // Mutant: flushEvents no longer counts ectp_producer_event_batches_total.
  it("[E1] every published batch is counted once in ectp_producer_event_batches_total, split batches included", () => {
    const size = ectp.v1.Event.encode({ stored: { item: desc(1) } }).finish().length;
    const h = harness({ maxBatchBytes: 2 * size });
    for (let i = 1; i <= 5; i++) ready(h.store, i);
    expect(batches(h.producer.poll(1))).toHaveLength(3);
    expect(h.metrics.get("ectp_producer_event_batches_total")).toBe(3);
  });

  // Mutant: an owed replay whose from_sequence has left the buffer is dropped silently instead of answered ReplayUnavailable.
  it("[E2] an owed replay whose first batch was evicted meanwhile is answered ReplayUnavailable along with the newer request", () => {
    const h = harness({ replayBufferBatches: 2 }); // resendIntervalMs 500
    for (let i = 1; i <= 3; i++) {
      ready(h.store, i);
      h.producer.poll(i);
    }
    h.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 3 } }), 10);
    expect(sent(h.producer.poll(10), "r").map((e) => e.eventBatch?.sequence)).toEqual([3]);
    h.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 2 } }), 11); // owed (2 is buffered now)
    for (const t of [12, 13]) {
      ready(h.store, t);
      h.producer.poll(t); // batches 4 and 5 evict 2 and 3
    }
    h.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 5 } }), 510);
    const out = sent(h.producer.poll(510), "r").filter((e) => !e.heartbeat);
    expect(out.map((e) => e.replayUnavailable ?? e.eventBatch?.sequence)).toEqual([{ oldestAvailable: 4, latest: 5 }, 5]);
  });
  // Mutant: a replay answered at once leaves the owed from_sequence it took with it in place.
  it("[E2] a replay answered together with what was owed clears the debt: nothing is resent an interval later", () => {
    const h = harness(); // resendIntervalMs 500
    publishThree(h);
    h.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 3 } }), 10);
    expect(batchesTo(h, 10)).toEqual([3]);
    h.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 2 } }), 11); // owed
    h.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 3 } }), 510); // takes the owed one along
    expect(batchesTo(h, 510)).toEqual([2, 3]);
    expect(batchesTo(h, 1010)).toEqual([]);
    expect(batchesTo(h, 1600)).toEqual([]);
  });
  // Mutant: a peer scan that finds an owed answer not yet due forgets its time (peerCheckAt skips past it).
  it("[E2] an owed answer goes out when its resend interval has passed, though a heartbeat scan ran in between", () => {
    const h = harness({ heartbeatIntervalMs: 400 }); // resendIntervalMs 500
    publishThree(h);
    h.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 3 } }), 10);
    expect(batchesTo(h, 10)).toEqual([3]);
    h.producer.handleMessage("r", wire("r", 1, { replayRequest: { fromSequence: 2 } }), 11); // owed until 510
    expect(sent(h.producer.poll(410), "r").map((e) => e.heartbeat !== undefined)).toEqual([true]); // a scan before 510
    expect(h.producer.nextDeadline()).toBe(510);
    expect(batchesTo(h, 510)).toEqual([2, 3]);
  });
  // Mutant: a peer's new epoch keeps the snapshot its old epoch was owed.
  it("[E1][E2] a subscriber's new epoch drops what its old epoch was owed: no snapshot, and no subscription, follows", () => {
    const h = harness();
    ready(h.store, 1);
    h.producer.poll(1);
    h.producer.handleMessage("r", wire("r", 1, { snapshotRequest: {} }), 10);
    expect(sent(h.producer.poll(10), "r").filter((e) => e.snapshot)).toHaveLength(1);
    h.producer.handleMessage("r", wire("r", 1, { snapshotRequest: {} }), 11); // owed until 510
    h.producer.handleMessage("r", wire("r", 2, { heartbeat: {} }), 12); // restarted, no Hello of events.v1 yet
    expect(sent(h.producer.poll(510), "r").filter((e) => e.snapshot || e.eventBatch)).toEqual([]);
    ready(h.store, 2);
    expect(sent(h.producer.poll(600), "r").filter((e) => e.eventBatch)).toEqual([]);
  });
  // Mutant: release() loses its "already released" guard.
  it("[P2][I3] a grant is released exactly once even when the store resets itself while shutdown is releasing pins", () => {
    // A store that resets on the first unpin (say its memory region failed): the reset releases the
    // other grants, which shutdown then reaches in its own loop.
    class ResettingStore extends MemoryItemStore {
      private reset = false;
      override unpinEntry(entry: StoreEntry): void {
        super.unpinEntry(entry);
        if (!this.reset) {
          this.reset = true;
          this.clear("reset");
        }
      }
    }
    const store = new ResettingStore({ capacityBytes: 1000 });
    const metrics = new CountingMetrics();
    const producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store, metrics });
    const h = { producer, store, metrics } as unknown as ReturnType<typeof harness>;
    for (const n of [1, 2, 3]) {
      ready(store, n);
      expect(request(h, "c", n, n, 0).readGrant).toBeDefined();
    }
    producer.shutdown(1);
    expect(producer.stats()).toMatchObject({ grants: 0, pins: 0, pinnedBytes: 0 });
    expect(metrics.get("ectp_producer_unpin_errors_total")).toBe(0);
    expect(metrics.get("ectp_producer_releases_total", { cause: "shutdown" })).toBe(1);
    expect(metrics.get("ectp_producer_releases_total", { cause: "cleared" })).toBe(2);
  });
  it("[P2][P8] a ReadComplete sent before the producer restarted releases no grant of its new epoch (grant ids are not reused across epochs)", () => {
    const before = harness();
    ready(before.store, 1);
    const old = request(before, "c", 1, 1, 0).readGrant;
    // The restart: a greater epoch, a fresh store; the same consumer asks it for item 2.
    const after = harness({}, 1000, PRODUCER.epoch + 1);
    const put = after.store.put({ ...desc(2), epoch: PRODUCER.epoch + 1 });
    if (!put.ok) throw put.error;
    after.store.markReady(kid(2));
    const fresh = request(after, "c", 2, 2, 10).readGrant;
    expect(fresh?.grantId).not.toBe(old?.grantId);
    // The consumer's ACK of the old epoch's grant, late: nothing of the new epoch is released.
    ack(after, "c", old?.grantId as number, 20);
    expect(after.producer.stats()).toMatchObject({ grants: 1, pins: 1 });
    expect(after.store.get(kid(2))?.pins).toBe(1);
    ack(after, "c", fresh?.grantId as number, 30);
    expect(after.producer.stats()).toMatchObject({ grants: 0, pins: 0 });
  });

  // Mutant: a grant whose deadline equals now still counts as live for duplicate detection.
  it("[P3] a ReadRequest at exactly the lease deadline is not a duplicate: the expired grant is released and a new one granted", () => {
    const h = harness({ leaseMs: 100 });
    ready(h.store, 1);
    const first = request(h, "c", 1, 1, 0).readGrant;
    expect(first?.grantId).toBeGreaterThan(0);
    // The same attempt again at 100, before any poll: the old grant's lease is over.
    const again = request(h, "c", 1, 1, 100).readGrant;
    expect(again?.grantId).toBe((first?.grantId as number) + 1);
    expect(again?.leaseMs).toBe(100);
    expect(h.producer.stats()).toMatchObject({ grants: 1, pins: 1 });
  });
  // Mutant: the forgotten-peer table keeps one entry more than FORGOTTEN_PEERS_CAP (1,024).
  it("[P8][I4] at most 1,024 gone peers are remembered: the 1,025th forgets the oldest, whose old epoch is no longer known", () => {
    const h = harness();
    for (let i = 0; i <= 1024; i++) gone(h, `c${i}`, {});
    h.producer.poll(1);
    // c1 is still remembered: its epoch 4 is stale.
    h.producer.handleMessage("c1", wire("c1", 4, readRequest(1, 1)), 2);
    expect(h.producer.stats().ignoredMessages).toBe(1);
    expect(sent(h.producer.poll(2), "c1")).toEqual([]);
    // c0 was the oldest of 1,025: forgotten, so its epoch 4 is new to the producer and answered.
    h.producer.handleMessage("c0", wire("c0", 4, readRequest(1, 1)), 3);
    expect(h.producer.stats().ignoredMessages).toBe(1);
    expect(sent(h.producer.poll(3), "c0").map((e) => e.readReject?.reason)).toEqual([ectp.v1.FailureReason.FAILURE_REASON_NOT_FOUND]);
  });
  // Mutant: the forgotten peers' byte bound strips metadata already when the total equals 64 MiB.
  it("[P8][I4] gone peers holding exactly 64 MiB of metadata together all keep it: the oldest still reconnects without a Hello", () => {
    const h = harness();
    for (let i = 0; i < 16; i++) gone(h, `c${i}`);
    h.producer.poll(1);
    expect(reconnectMetadata(h, "c0", 2)?.byteLength).toBe(4 << 20);
  });

  // Mutant: forgetEpoch does not take the dropped metadata off the forgotten peers' byte count.
  it("[P8][I4] a gone peer seen at a newer epoch frees its metadata's bytes for the byte bound", () => {
    const h = harness();
    for (let i = 0; i < 16; i++) gone(h, `c${i}`); // exactly 64 MiB remembered
    h.producer.handleMessage("c0", wire("c0", 6, { heartbeat: {} }), 1); // c0's epoch 5 is over: 60 MiB
    gone(h, "c16"); // 64 MiB again: nothing is stripped
    h.producer.poll(1);
    expect(reconnectMetadata(h, "c1", 2)?.byteLength).toBe(4 << 20);
  });
  it("[P8][I4] capability names are not kept: 17 gone peers that listed 4 MiB of names each all come back with their metadata", () => {
    const h = harness();
    const caps = [...Array.from({ length: 4 }, (_, i) => String(i).repeat(1 << 20)), "events.v1"]; // 4 MiB of names
    for (let i = 0; i < 17; i++) gone(h, `c${i}`, { transportMetadata: new Uint8Array([1, 2, 3]), capabilities: caps });
    h.producer.poll(1);
    // Counted, the names (68 MiB) would have stripped c0 past the 64 MiB bound.
    expect(reconnectMetadata(h, "c0", 2)).toEqual(new Uint8Array([1, 2, 3]));
    expect(reconnectMetadata(h, "c16", 3)).toEqual(new Uint8Array([1, 2, 3]));
  });
  // Mutant: past the byte bound the oldest forgotten peer is deleted outright instead of keeping its epoch.
  it("[P8][I4] a forgotten peer stripped of its metadata by the byte bound still knows its epoch: older ones stay stale", () => {
    const h = harness();
    for (let i = 0; i < 17; i++) gone(h, `c${i}`);
    h.producer.poll(1); // 68 MiB: c0 lost its metadata
    h.producer.handleMessage("c0", wire("c0", 4, readRequest(1, 1)), 2);
    expect(sent(h.producer.poll(2), "c0")).toEqual([]);
    expect(h.metrics.get("ectp_producer_ignored_messages_total", { reason: "stale_epoch" })).toBe(1);
  });

  // Mutant: takeForgotten does not take a returning peer's bytes off the forgotten peers' byte count.
  it("[P8][I4] a gone peer that comes back frees its bytes in the forgotten table", () => {
    const h = harness();
    for (let i = 0; i < 16; i++) gone(h, `c${i}`); // exactly 64 MiB remembered
    h.producer.handleMessage("c0", wire("c0", 5, { heartbeat: {} }), 1); // c0 is back: 60 MiB
    gone(h, "c16"); // 64 MiB again: nothing is stripped
    h.producer.poll(1);
    expect(reconnectMetadata(h, "c1", 2)?.byteLength).toBe(4 << 20);
  });
  // Mutant: ectp_producer_peers_gone_total is always labelled cause "silent".
  it("[P8] a peer lost by the transport is counted as gone with cause unreachable, a silent one with cause silent", () => {
    const h = harness({ heartbeatIntervalMs: 100, heartbeatMisses: 3 });
    h.producer.handleMessage("a", wire("a", 1, { hello: { ...HELLO, heartbeatIntervalMs: 100 } }), 0);
    h.producer.handleMessage("b", wire("b", 1, { hello: { ...HELLO, heartbeatIntervalMs: 100 } }), 0);
    h.producer.handlePeerUnreachable("a", 1);
    h.producer.poll(300);
    expect(h.metrics.get("ectp_producer_peers_gone_total", { cause: "unreachable", grants: "none" })).toBe(1);
    expect(h.metrics.get("ectp_producer_peers_gone_total", { cause: "silent", grants: "none" })).toBe(1);
  });
});

describe("producer sequences: a store written from its own release callback", () => {
  // [E1] "Events are published in batches, in the order the changes happened"; [E2] a snapshot's
  // items reflect exactly the batches up to its sequence.
  it("[E1][E2] an item made ready by a release callback during clear() is published after the Cleared it followed: the batches agree with the snapshot", () => {
    // The region's owner reacts to a deregistration by writing a new item (after the reset).
    const store = refillingStore();
    const producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store });
    ready(store, 1);
    producer.poll(0);
    store.clear("reset"); // item 1 leaves (its release called), then item 99 is written and made ready
    const view = new Set<string>([kid(1)]);
    for (const o of producer.poll(1))
      if (o.type === "event-batch")
        for (const e of o.batch.events ?? []) {
          if (e.stored) view.add(keyIdOf(e.stored.item?.key));
          else if (e.removed) view.delete(keyIdOf(e.removed.key));
          else if (e.cleared) view.clear();
        }
    producer.handleMessage("s", wire("s", 1, { snapshotRequest: {} }), 2);
    const snapshot = sent(producer.poll(2), "s").find((e) => e.snapshot)?.snapshot;
    expect((snapshot?.items ?? []).map((d) => keyIdOf(d.key))).toEqual([kid(99)]);
    expect([...view]).toEqual([kid(99)]);
  });
});

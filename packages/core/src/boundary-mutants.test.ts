/**
 * Boundaries no other test pinned: each test here was written against a boundary mutant (one
 * `<`, `<=`, `>` or `>=` of the core flipped to its neighbour) that the core's unit tests let
 * survive, and fails on that mutant (named above each test). A hunt of 2026-12-06.
 */
import { ectp, encodeEnvelope, itemDescriptorByteLength } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { CoreOutput } from "./outputs.js";
import { MemoryItemStore } from "./producer/memory-store.js";
import { desc } from "./producer/test-helpers.js";
import { P as SP, env as subEnv, batch, following, key, viewKeys } from "./subscriber/test-support.js";
import { P, QUIET, env, grant, makeConsumer, onlyAttempt, refusedByEpoch5InMajor2, remote, sent, starts } from "./consumer/test-support.js";

const R = ectp.v1.FailureReason;

/** What a subscriber counts test item `n` as holding: its key id plus its encoded descriptor. */
const viewBytesOf = (n: number): number => key(n).length + itemDescriptorByteLength(desc(n));

/** The body names of the envelopes sent, and the types of the other outputs, in order. */
function kinds(out: CoreOutput[]): string[] {
  return out.map((o) => (o.type === "send" ? (Object.keys(o.envelope).find((k) => !["version", "senderId", "senderEpoch"].includes(k)) ?? "") : o.type));
}

describe("consumer boundaries found by mutation", () => {
  // Mutant: consumer.ts validateAnnouncement `meta.length > 0` -> `meta.length >= 0`.
  it("[P8] an announcement with empty transport metadata loads nothing; the producer's Hello then connects (SPEC 4)", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { metadata: new Uint8Array(0) })] }, 0);
    expect(h.core.poll(0).filter((o) => o.type === "connect-peer")).toEqual([]);
    h.core.handleEnvelope(P, env(P, 1, { hello: { role: ectp.v1.Role.ROLE_PRODUCER, transportMetadata: new Uint8Array([4]) } }), 1);
    expect(h.core.poll(1).filter((o) => o.type === "connect-peer")).toEqual([
      { type: "connect-peer", peerId: P, epoch: 1, metadata: new Uint8Array([4]) },
    ]);
  });

  // Mutant: consumer.ts noteMetadata `epoch > peer.metadataEpoch` -> `epoch >= peer.metadataEpoch`.
  it("[P8] a Hello's transport metadata, noted while idle, wins over an announcement's of the same epoch (SPEC 4)", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // announcement without metadata: nothing to load
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: attempt, reason: R.FAILURE_REASON_NOT_FOUND } }), 1);
    h.core.poll(1);
    h.core.finishRequest("r1", 2);
    h.core.drainFailed();
    // The Hello arrives with no business left: its metadata is noted, not loaded.
    h.core.handleEnvelope(P, env(P, 1, { hello: { role: ectp.v1.Role.ROLE_PRODUCER, transportMetadata: new Uint8Array([5]) } }), 3);
    expect(h.core.poll(3).filter((o) => o.type === "connect-peer")).toEqual([]);
    h.core.admit({ requestId: "r2", items: [remote("b", "h2", false, { metadata: new Uint8Array([6]) })] }, 10);
    expect(h.core.poll(10).filter((o) => o.type === "connect-peer")).toEqual([
      { type: "connect-peer", peerId: P, epoch: 1, metadata: new Uint8Array([5]) },
    ]);
  });

  // Mutant: consumer.ts createFetch `now - peer.quietSince >= this.config.idlePeerMs` -> `>`.
  it("[P8] a producer without business for exactly idlePeerMs is greeted again by the next fetch (SPEC 12: a deadline has passed at now >= deadline)", () => {
    const h = makeConsumer({ idlePeerMs: 10_000 }); // heartbeats every 2 s
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // no metadata: no connection to let go
    expect(kinds(h.core.poll(0))).toEqual(["hello", "readRequest"]);
    h.core.finishRequest("r1", 1);
    expect(kinds(h.core.poll(2_000))).toEqual([]); // the peer's timer finds no business: quiet from 2 000
    h.core.admit({ requestId: "r2", items: [remote("b", "h2")] }, 12_000);
    expect(kinds(h.core.poll(12_000))).toEqual(["hello", "readRequest"]);
  });

  // Mutant: consumer.ts terminateFetch `f.successor.desc.epoch > refusedEpoch` -> `>=`.
  it("[V1][C5] a refusal of the epoch a fetch would move to ends the fetch: no ReadRequest goes to the refusing epoch (SPEC 4.2)", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // epoch 1
    const read = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1))[0];
    expect(read).toBeDefined();
    // The producer restarted as epoch 2 during the read: the fetch would move there should the read fail.
    h.core.admit({ requestId: "r2", items: [remote("b", "h1", false, { epoch: 2 })] }, 2);
    h.core.poll(2);
    // Epoch 2 refuses our Hello in major 2 (its frozen sender_epoch names 2): epochs up to 2 are refused.
    const reject = { version: { major: 2, minor: 0 }, senderId: P, senderEpoch: 2, handshakeReject: { reason: R.FAILURE_REASON_VERSION } };
    h.core.handleMessage(P, encodeEnvelope(reject), 3);
    h.core.poll(3);
    expect(h.core.drainFailed()).toEqual([
      { requestId: "r1", failures: [{ itemId: "a", reason: "VERSION", attempts: 1 }] },
      { requestId: "r2", failures: [{ itemId: "b", reason: "VERSION", attempts: 1 }] },
    ]);
    expect(sent(h.core.poll(10_000), "readRequest")).toEqual([]);
  });

  // Mutant: consumer.ts onHello `meta.length > 0` -> `meta.length >= 0`.
  it("[P8] a Hello with empty transport metadata loads nothing (SPEC 4)", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0); // announcement without metadata
    h.core.poll(0);
    h.core.handleEnvelope(P, env(P, 1, { hello: { role: ectp.v1.Role.ROLE_PRODUCER, transportMetadata: new Uint8Array(0) } }), 1);
    expect(h.core.poll(1).filter((o) => o.type === "connect-peer")).toEqual([]);
  });

  // Mutant: consumer.ts onHello `peer.connectedEpoch < epoch` -> `peer.connectedEpoch <= epoch`.
  it("[P8] the Hello of the epoch already connected (by an announcement's metadata) is not loaded again: once per epoch (SPEC 4)", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { metadata: new Uint8Array([5]) })] }, 0);
    expect(kinds(h.core.poll(0))).toEqual(["connect-peer", "hello", "readRequest"]);
    h.core.handleEnvelope(P, env(P, 1, { hello: { role: ectp.v1.Role.ROLE_PRODUCER, transportMetadata: new Uint8Array([6]) } }), 1);
    expect(h.core.poll(1).filter((o) => o.type === "connect-peer")).toEqual([]);
  });

  // Mutant: consumer.ts startRead `location.length > 0 ? location : f.desc.location` -> `>= 0`.
  it("[C11] a grant whose descriptor has an empty location is read from the announcement's location (SPEC 4.4)", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { location: new Uint8Array([7, 7]) })] }, 0);
    const read = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1, { location: new Uint8Array(0) }))[0];
    expect(read?.source).toEqual(new Uint8Array([7, 7]));
  });

  // Mutant: consumer.ts handleReadResult (peer gone) `now >= r.leaseDeadline` -> `now > r.leaseDeadline`.
  it("[C11][C8] a read failed with its producer gone, handled exactly at its lease deadline, ends LEASE_EXPIRED", () => {
    const h = makeConsumer(QUIET); // lease margin 5 s, transfer timeout 20 s
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    // Lease 10 s from receipt at 1: lease deadline 1 + 10 000 - 5 000 = 5 001, before the transfer deadline (20 001).
    const read = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1, { leaseMs: 10_000 }))[0];
    if (read === undefined) throw new Error("no read started");
    h.core.handleReadResult({ readId: read.readId, status: "failed", peerGone: true }, 5_001);
    h.core.poll(5_001);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "LEASE_EXPIRED", attempts: 1 }] }]);
  });

  // Mutant: consumer.ts onNewEpoch `peer.rejectedEpoch < epoch` -> `peer.rejectedEpoch <= epoch`.
  it("[V1][P8] a refusal stands when an envelope of the refusing epoch itself arrives: only a greater epoch lifts it (SPEC 4.2)", () => {
    const h = makeConsumer(QUIET);
    refusedByEpoch5InMajor2(h);
    h.core.handleEnvelope(P, env(P, 5, { heartbeat: { sequence: 1 } }), 2); // epoch 5 now known from our major
    const again = h.core.admit({ requestId: "r2", items: [remote("b", "h2", false, { epoch: 5 })] }, 3);
    expect(again).toEqual({ status: "failed", failures: [{ itemId: "b", reason: "VERSION", attempts: 0 }] });
    expect(sent(h.core.poll(3), "readRequest")).toEqual([]);
  });

  // Mutant: consumer.ts getPeer `this.peers.size >= this.peerSweepAt` -> `>`.
  it("[C10] holding 1 024 producer records, the consumer drops the idle ones before adding one more: a dropped sender is new to it (SPEC 3.7)", () => {
    const h = makeConsumer(QUIET);
    for (let i = 0; i < 1_024; i++) h.core.handleEnvelope(`p-${i}`, env(`p-${i}`, 5, { heartbeat: { sequence: 1 } }), 0);
    h.core.handleEnvelope("p-1024", env("p-1024", 5, { heartbeat: { sequence: 1 } }), 0); // the 1 025th record
    const ignored = h.core.stats().ignoredMessages;
    // p-0's record (epoch 5) was dropped: its older epoch is not stale any more.
    h.core.handleEnvelope("p-0", env("p-0", 4, { heartbeat: { sequence: 2 } }), 1);
    expect(h.core.stats().ignoredMessages).toBe(ignored);
  });

  // Mutant: consumer.ts admit `n <= PAIRWISE_MAX_ITEMS` -> `n < PAIRWISE_MAX_ITEMS` (at exactly 32
  // items neither the pairwise nor the hashed duplicate check runs). Not a SPEC rule: admit's API
  // contract (an engine programming error, README "Only engine programming errors ...").
  it("admit refuses a duplicate item id in a request of exactly 32 items, the largest checked pairwise", () => {
    const h = makeConsumer(QUIET);
    const items = Array.from({ length: 32 }, (_, i) => ({ itemId: i === 31 ? "i0" : `i${i}`, hasModelInput: true }));
    expect(() => h.core.admit({ requestId: "r", items }, 0)).toThrow(/duplicate itemId "i0"/);
  });

  // Mutant: consumer.ts admit (hashed duplicate check) `i < n` -> `i <= n`: it reads one item id
  // past the request, left there by an earlier, larger request, and refuses a request without duplicates.
  it("[C1] admission of a request of more than 32 items is not refused for an item id of an earlier, larger request", () => {
    const h = makeConsumer(QUIET);
    const local = (itemId: string) => ({ itemId, hasModelInput: true });
    h.core.admit({ requestId: "r1", items: Array.from({ length: 40 }, (_, i) => local(`a${i}`)) }, 0);
    const items = [...Array.from({ length: 32 }, (_, i) => local(`b${i}`)), local("a33")];
    const result = h.core.admit({ requestId: "r2", items }, 0);
    expect(result.status).toBe("admitted");
  });
});

describe("a consumer whose clock reads below zero (found by the same hunt: its 'never' marks were -1, a reading it accepts)", () => {
  // The core takes any finite reading, negative ones included (clock.ts): a clock may start below zero.
  it("[P8] a producer quiet since a negative reading, for idlePeerMs, is greeted again by the next fetch", () => {
    const h = makeConsumer({ idlePeerMs: 10_000 }); // heartbeats every 2 s
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, -20_000); // no metadata: no connection to let go
    expect(kinds(h.core.poll(-20_000))).toEqual(["hello", "readRequest"]);
    h.core.finishRequest("r1", -19_999);
    expect(kinds(h.core.poll(-18_000))).toEqual([]); // the peer's timer finds no business: quiet from -18 000
    h.core.admit({ requestId: "r2", items: [remote("b", "h2")] }, -8_000);
    expect(kinds(h.core.poll(-8_000))).toEqual(["hello", "readRequest"]);
  });

  it("[P8] a connection found idle at the reading -1 is let go idlePeerMs later, not twice that", () => {
    const h = makeConsumer({ idlePeerMs: 10_000 }); // heartbeats every 2 s
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", false, { metadata: new Uint8Array([3]) })] }, -2_001);
    expect(kinds(h.core.poll(-2_001))).toEqual(["connect-peer", "hello", "readRequest"]);
    h.core.finishRequest("r1", -2_000);
    expect(kinds(h.core.poll(-1))).toEqual([]); // the peer's timer at -1 finds no business: idle from -1
    expect(kinds(h.core.poll(9_999))).toEqual(["disconnect-peer"]);
  });
});

describe("producer store boundaries found by mutation", () => {
  // Mutant: memory-store.ts constructor `cap < 1` -> `cap <= 1`. Not a SPEC rule: the store's API
  // contract ("capacityBytes must be a positive integer").
  it("MemoryItemStore takes the smallest positive capacity, 1 byte, and holds a 1-byte item in it", () => {
    const store = new MemoryItemStore({ capacityBytes: 1 });
    expect(store.put(desc(1, 1)).ok).toBe(true);
  });
});

describe("subscriber boundaries found by mutation", () => {
  // Mutant: subscriber.ts follow `connection.epoch > known.epoch && known.epoch !== 0` -> `>=`.
  it("[P8] following again with a connection of the epoch already heard keeps the view: only a newer epoch drops it", () => {
    const sub = following();
    sub.handleEnvelope(SP, subEnv(7, { snapshot: { sequence: 0, snapshotId: 1, items: [desc(1)] } }), 1);
    expect(viewKeys(sub)).toEqual([key(1)]);
    sub.follow(SP, 2, { epoch: 7, metadata: new Uint8Array([7]) });
    expect(viewKeys(sub)).toEqual([key(1)]);
  });

  // Mutant: subscriber.ts poll `now >= f.assemblyAt + this.retryMs` -> `>`.
  it("[E2] an incomplete snapshot nobody awaits is discarded exactly retry_ms after its latest part (SPEC 9, SPEC 12: a deadline has passed at now >= deadline)", () => {
    const sub = following(); // retry_ms 2 000
    sub.handleEnvelope(SP, subEnv(7, { snapshot: { sequence: 0, snapshotId: 1, items: [desc(1)] } }), 1);
    expect(viewKeys(sub)).toEqual([key(1)]);
    // An answer in two parts that nobody asked for: its first part at 10, then nothing for retry_ms.
    const part = (n: number) => ({ snapshot: { sequence: 3, snapshotId: 2, parts: 2, part: n, items: [desc(2 + n)] } });
    sub.handleEnvelope(SP, subEnv(7, part(0)), 10);
    sub.poll(2_010);
    // Discarded: the second part alone completes nothing.
    sub.handleEnvelope(SP, subEnv(7, part(1)), 2_010);
    expect(viewKeys(sub)).toEqual([key(1)]);
  });

  // Mutant: subscriber.ts onBatch `f.viewBytes > this.maxViewBytes` -> `>=`.
  it("[E2] a batch that brings the view to exactly maxViewBytes keeps it: only one past the bound drops it", () => {
    const sub = following({ maxViewBytes: 2 * viewBytesOf(1) }); // test items' descriptors are all one size
    sub.handleEnvelope(SP, subEnv(7, { snapshot: { sequence: 0, snapshotId: 1, items: [desc(1)] } }), 1);
    sub.handleEnvelope(SP, subEnv(7, batch(1, 2)), 2);
    expect(viewKeys(sub)).toEqual([key(1), key(2)].sort());
  });

  // Mutant: subscriber.ts onBatch `f.heldBytes + bytes <= this.maxHeldBytes` -> `<`.
  it("[E2] a batch behind a gap that fills the hold to exactly maxHeldBytes is held, and applied once the gap closes", () => {
    const sub = following({ maxHeldBytes: viewBytesOf(2) });
    sub.handleEnvelope(SP, subEnv(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handleEnvelope(SP, subEnv(7, batch(2, 2)), 2); // 1 is missing: 2 is held
    sub.handleEnvelope(SP, subEnv(7, batch(1, 1)), 3); // the gap closes: 1, then the held 2, are applied
    expect(viewKeys(sub)).toEqual([key(1), key(2)].sort());
  });

  // Mutant: subscriber.ts drainHeld `f.viewBytes > this.maxViewBytes` -> `>=`.
  it("[E2] held batches that bring the view to exactly maxViewBytes once a gap closes keep it", () => {
    const sub = following({ maxViewBytes: 2 * viewBytesOf(1) });
    sub.handleEnvelope(SP, subEnv(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handleEnvelope(SP, subEnv(7, batch(2, 2)), 2); // held: 1 is missing
    sub.handleEnvelope(SP, subEnv(7, batch(1, 1)), 3); // 1 applied, then the held 2: the view is at its bound
    expect(viewKeys(sub)).toEqual([key(1), key(2)].sort());
  });
});


/**
 * Boundaries of the subscriber's rules that hand mutation testing showed no other test (and, for
 * most, no conformance case) pinned down: catch-up and deadlines, epochs greeted through a
 * connection, stale ReplayUnavailable, the held-batch bounds, snapshot parts, give-up counting,
 * synced stats, the silence bound, the Hello's interval [E2][P8][C10]. Each test fails on the
 * mutant of subscriber.ts named above it (review of 2026-12-01, second round).
 */
import { EctpError, ectp, encodeEnvelope } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { CountingMetrics, desc } from "../producer/test-helpers.js";
import { P, batch, bodies, env, following, key, replayFrom } from "./test-support.js";
import { EventSubscriber } from "./subscriber.js";

const IGNORED = "ectp_subscriber_ignored_messages_total";

const keys = (sub: EventSubscriber) => [...(sub.view(P)?.keys() ?? [])].sort();


describe("EventSubscriber boundaries", () => {
  it("[E1][C2] a Stored event with an invalid item key is left out of the view; the rest of a descriptor is not validated (consumers do, at admission)", () => {
    const sub = following();
    const noHash = { ...desc(2), key: { fingerprint: desc(2).key?.fingerprint } };
    const sizeZero = { ...desc(3), sizeBytes: 0 };
    const events = [{ stored: { item: desc(1) } }, { stored: { item: noHash } }, { stored: { item: sizeZero } }];
    sub.handleEnvelope(P, env(7, { snapshot: { snapshotId: 1, sequence: 0, items: [] } }), 1);
    sub.handleEnvelope(P, env(7, { eventBatch: { sequence: 1, events } }), 2);
    expect([...(sub.view(P)?.keys() ?? [])].sort()).toEqual([key(1), key(3)].sort());
    expect(sub.stats().ignoredMessages).toBe(0);
  });

  it("[V1][C10] another major's greater epoch voids no view, as bytes or as a decoded envelope (SPEC 3.7): the current epoch's next batch still applies", () => {
    for (const decoded of [false, true]) {
      const sub = following();
      sub.handleEnvelope(P, env(7, { snapshot: { snapshotId: 1, sequence: 0, items: [desc(1)] } }), 1);
      const other = { version: { major: 2, minor: 0 }, senderId: P, senderEpoch: 9, heartbeat: {} };
      if (decoded) sub.handleEnvelope(P, other, 2);
      else sub.handleMessage(P, ectp.v1.Envelope.encode(other).finish(), 2);
      sub.handleEnvelope(P, env(7, batch(1, 2)), 3);
      expect(keys(sub)).toEqual([key(1), key(2)].sort());
      expect(sub.stats().ignoredMessages).toBe(1);
    }
  });

  // Mutant: the catch-up ReplayRequest asks from the last applied sequence instead of the one after it.
  it("[E2] the catch-up request of an up-to-date subscriber asks for the sequence after the last one applied", () => {
    const sub = following({ catchUpMs: 100 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 4, snapshotId: 1, items: [desc(1)] } }), 1);
    expect(replayFrom(sub.poll(50))).toEqual([]);
    expect(replayFrom(sub.poll(101))).toEqual([5]);
  });

  // Mutant: nextDeadline leaves out the catch-up time of an up-to-date producer.
  it("[E2] nextDeadline is the catch-up time when that comes before the heartbeat", () => {
    const sub = following({ heartbeatIntervalMs: 10_000, catchUpMs: 500 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    expect(sub.poll(1)).toEqual([]);
    expect(sub.nextDeadline()).toBe(501);
  });

  // Mutant: nextDeadline leaves out the new subscription of a producer reported unreachable.
  it("[P8] nextDeadline of a producer reported unreachable is retryMs after the last request, when it subscribes anew", () => {
    const sub = following({ heartbeatIntervalMs: 10_000, catchUpMs: 50_000, retryMs: 1_000 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handlePeerUnreachable(P, 2);
    expect(sub.poll(2)).toEqual([]);
    expect(sub.nextDeadline()).toBe(1_000);
    expect(bodies(sub.poll(1_000))).toEqual(["hello", "snapshotRequest"]);
  });

  // Mutant: nextDeadline ignores outputs already queued (a ReplayRequest a batch caused).
  it("[E2] nextDeadline is now while a message is queued: a gap's ReplayRequest goes out at the next poll", () => {
    const sub = following();
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handleEnvelope(P, env(7, batch(3, 1)), 2);
    expect(sub.nextDeadline()).toBe(2);
    expect(replayFrom(sub.poll(2))).toEqual([1]);
  });

  /** A subscriber following P, synced with its epoch 7 (an empty view), then given epoch 8's connection at t=2 (not polled). */
  function toldOfEpoch8(): EventSubscriber {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow(P, 0, { epoch: 7, metadata: new Uint8Array([7]) });
    sub.poll(0);
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.follow(P, 2, { epoch: 8, metadata: new Uint8Array([8]) });
    return sub;
  }

  // Mutant: follow() with a newer epoch's connection does not remember that epoch as greeted and asked.
  it("[P8] an epoch greeted through a newer connection is not greeted again when it first speaks", () => {
    const sub = toldOfEpoch8();
    expect(bodies(sub.poll(2))).toEqual(["connect-peer", "hello", "snapshotRequest"]);
    sub.handleEnvelope(P, env(8, { hello: { role: ectp.v1.Role.ROLE_PRODUCER } }), 5);
    expect(bodies(sub.poll(5))).toEqual([]);
    sub.handleEnvelope(P, env(8, { snapshot: { sequence: 1, snapshotId: 1, items: [desc(2)] } }), 6);
    expect(keys(sub)).toEqual([key(2)]);
  });
  it("[P8][E2] after follow() with a newer epoch's connection the older epoch's answers are stale, and the new epoch, which they may have been meant for, is greeted and asked when it speaks", () => {
    const sub = toldOfEpoch8();
    sub.poll(2);
    const ignored = sub.stats().ignoredMessages;
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 1, snapshotId: 2, items: [desc(1)] } }), 3);
    sub.handleEnvelope(P, env(7, { replayUnavailable: { oldestAvailable: 5, latest: 6 } }), 4);
    expect([bodies(sub.poll(4)), sub.view(P), sub.stats().ignoredMessages - ignored]).toEqual([[], undefined, 2]);
    sub.handleEnvelope(P, env(8, { hello: { role: ectp.v1.Role.ROLE_PRODUCER } }), 5);
    expect(bodies(sub.poll(5))).toEqual(["hello", "snapshotRequest"]);
    sub.handleEnvelope(P, env(8, { snapshot: { sequence: 1, snapshotId: 1, items: [desc(2)] } }), 6);
    expect(keys(sub)).toEqual([key(2)]);
  });
  // Mutant: a newer producer epoch emits disconnect-peer even when the older connection was already forgotten.
  it("[P8] a newer epoch of a producer already forgotten (unreachable) emits no second disconnect-peer", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow(P, 0, { epoch: 7, metadata: new Uint8Array([7]) });
    sub.poll(0);
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handlePeerUnreachable(P, 2);
    expect(bodies(sub.poll(2))).toEqual(["disconnect-peer"]);
    sub.handleEnvelope(P, env(8, { heartbeat: { sequence: 1 } }), 3);
    expect(bodies(sub.poll(3))).toEqual(["hello", "snapshotRequest"]);
  });
  // Mutant: a newer epoch counts as asked already whenever follow() greeted it, even with no SnapshotRequest outstanding.
  it("[E2][P8] a newer epoch greeted through a connection, whose request the older epoch answered, is asked for a snapshot at once", () => {
    const sub = toldOfEpoch8();
    sub.poll(2);
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 1, snapshotId: 2, items: [desc(1)] } }), 3); // the older epoch answered it
    sub.handleEnvelope(P, env(8, { heartbeat: { sequence: 1 } }), 4);
    expect(sub.view(P)).toBeUndefined();
    expect(bodies(sub.poll(4))).toContain("snapshotRequest");
  });
  // Mutant: ReplayUnavailable whose latest equals the last applied sequence asks for a snapshot.
  it("[E2][C10] a ReplayUnavailable whose latest equals the last sequence applied is stale: counted, no SnapshotRequest", () => {
    const sub = following({ catchUpMs: 100_000 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 4, snapshotId: 1, items: [desc(1)] } }), 1);
    const before = sub.stats().ignoredMessages;
    sub.handleEnvelope(P, env(7, { replayUnavailable: { oldestAvailable: 3, latest: 4 } }), 2);
    expect(bodies(sub.poll(2))).toEqual([]);
    expect(sub.stats()).toMatchObject({ ignoredMessages: before + 1, snapshotRequests: 1, synced: 1 });
  });
  // Mutant: maxHeldEvents is exclusive (a batch that brings the held events exactly to the bound is dropped).
  it("[E2] held batches may carry exactly maxHeldEvents events together; one more is not held, and counted ignored", () => {
    const sub = following({ maxHeldEvents: 2 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handleEnvelope(P, env(7, batch(3, 1)), 2);
    sub.handleEnvelope(P, env(7, batch(4, 2)), 3);
    expect(sub.stats()).toMatchObject({ heldBatches: 2, ignoredMessages: 0 });
    sub.handleEnvelope(P, env(7, batch(5, 3)), 4);
    expect(sub.stats()).toMatchObject({ heldBatches: 2, ignoredMessages: 1 });
  });
  // Mutant: a second copy of a held batch is held again, its events counted twice against maxHeldEvents.
  it("[E2] a duplicate of a held batch takes no more room: the events bound still holds the next batch", () => {
    const sub = following({ maxHeldEvents: 2 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handleEnvelope(P, env(7, batch(3, 1)), 2);
    sub.handleEnvelope(P, env(7, batch(3, 1)), 3); // delivered twice
    sub.handleEnvelope(P, env(7, batch(4, 2)), 4);
    expect(sub.stats().heldBatches).toBe(2);
    // The gap closes: everything held applies, and the hold is empty again.
    sub.handleEnvelope(P, env(7, batch(1, 5)), 5);
    sub.handleEnvelope(P, env(7, batch(2, 6)), 6);
    expect(keys(sub)).toEqual([key(1), key(2), key(5), key(6)].sort());
    expect(sub.stats()).toMatchObject({ heldBatches: 0, synced: 1 });
  });
  // Mutant: a part numbered equal to its parts count is accepted (part > parts instead of >=).
  it("[E2][C10] a snapshot part whose part equals its parts count is ignored and counted: it never completes an assembly", () => {
    const sub = following();
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 1, part: 0, parts: 2, items: [desc(1)] } }), 1);
    const before = sub.stats().ignoredMessages;
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 1, part: 2, parts: 2, items: [desc(9)] } }), 2);
    expect(sub.view(P)).toBeUndefined();
    expect(sub.stats()).toMatchObject({ ignoredMessages: before + 1, snapshotParts: 1, snapshotsApplied: 0 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 1, part: 1, parts: 2, items: [desc(2)] } }), 3);
    expect(keys(sub)).toEqual([key(1), key(2)].sort());
  });
  // Mutant: a snapshot whose id equals the last one applied is taken as new (id < lastSnapshotId instead of <=).
  it("[E2][C10] a late duplicate of the snapshot applied is ignored and counted; a late part of it starts no assembly", () => {
    const sub = following();
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, part: 0, parts: 2, items: [desc(1)] } }), 1);
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, part: 1, parts: 2, items: [] } }), 2);
    sub.handleEnvelope(P, env(7, batch(1, 2)), 3);
    const before = sub.stats().ignoredMessages;
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, part: 0, parts: 2, items: [desc(1)] } }), 4);
    expect(sub.stats()).toMatchObject({ ignoredMessages: before + 1, snapshotParts: 0, snapshotsApplied: 1, synced: 1 });
    expect(keys(sub)).toEqual([key(1), key(2)].sort());
  });
  // Mutant: a part whose sequence differs from its assembly's is accepted into it.
  it("[E2][C10] a part of the same snapshot_id whose sequence differs from the assembly's is ignored and counted", () => {
    const sub = following();
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 1, part: 0, parts: 2, items: [desc(1)] } }), 1);
    const before = sub.stats().ignoredMessages;
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 5, snapshotId: 1, part: 1, parts: 2, items: [desc(2)] } }), 2);
    expect(sub.view(P)).toBeUndefined();
    expect(sub.stats()).toMatchObject({ ignoredMessages: before + 1, snapshotParts: 1, snapshotsApplied: 0 });
  });
  // Mutant: a duplicate part of the snapshot being assembled is taken again (overwriting the first copy), not counted.
  it("[E2][C10] a duplicate snapshot part is ignored and counted; the first copy stays", () => {
    const sub = following();
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 1, part: 0, parts: 2, items: [desc(1)] } }), 1);
    const before = sub.stats().ignoredMessages;
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 1, part: 0, parts: 2, items: [desc(9)] } }), 2);
    expect(sub.stats()).toMatchObject({ ignoredMessages: before + 1, snapshotParts: 1 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 1, part: 1, parts: 2, items: [desc(2)] } }), 3);
    expect(keys(sub)).toEqual([key(1), key(2)].sort());
  });
  // Mutant: a newer snapshot answer at the sequence already applied replaces the view and counts as applied.
  it("[E2] a newer snapshot answer at the sequence already applied changes nothing and is not counted as applied", () => {
    const sub = following();
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 2, snapshotId: 1, items: [desc(1)] } }), 1);
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 2, snapshotId: 2, items: [desc(1), desc(2)] } }), 2);
    expect(keys(sub)).toEqual([key(1)]);
    expect(sub.stats()).toMatchObject({ snapshotsApplied: 1, synced: 1, snapshotParts: 0 });
  });
  // Mutant: held batches applied when their gap closes keep counting against maxHeldEvents.
  it("[E2] held batches applied when the gap closes free their room: the next gap's batches are held again", () => {
    const sub = following({ maxHeldEvents: 2 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handleEnvelope(P, env(7, batch(3, 3)), 2);
    sub.handleEnvelope(P, env(7, batch(2, 2)), 3);
    sub.handleEnvelope(P, env(7, batch(1, 1)), 4); // closes the gap: 1, 2, 3 applied
    expect(sub.stats()).toMatchObject({ heldBatches: 0, synced: 1 });
    sub.handleEnvelope(P, env(7, batch(6, 6)), 5);
    sub.handleEnvelope(P, env(7, batch(5, 5)), 6);
    expect(sub.stats().heldBatches).toBe(2);
  });
  // Mutant: the held batches dropped when a gap is given up are not counted as ignored.
  it("[E2][C10] batches dropped when a gap is given up after three retries are counted as ignored", () => {
    const metrics = new CountingMetrics();
    const sub = following({ retryMs: 50, metrics });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handleEnvelope(P, env(7, batch(5, 1)), 2);
    sub.handleEnvelope(P, env(7, batch(6, 2)), 2);
    expect(replayFrom(sub.poll(2))).toEqual([1]);
    const before = sub.stats().ignoredMessages;
    for (const t of [52, 102, 152]) expect(replayFrom(sub.poll(t))).toEqual([1]);
    expect(replayFrom(sub.poll(202))).toEqual([]); // given up
    expect(sub.stats()).toMatchObject({ ignoredMessages: before + 2, heldBatches: 0, synced: 1 });
    expect(metrics.get(IGNORED, { reason: "gap_given_up" })).toBe(2); // the metric says why
  });
  // Mutant: the synced count ignores batches seen but not applied (a gap a gone producer was not yet asked to replay).
  it("[E2] stats count a producer with a gap as not synced, even while it is gone and asked nothing", () => {
    const sub = following();
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handlePeerUnreachable(P, 2);
    sub.handleEnvelope(P, env(7, batch(3, 1)), 3); // a late batch: a gap, but nothing goes to a gone producer
    expect(bodies(sub.poll(3))).toEqual([]);
    expect(sub.stats()).toMatchObject({ synced: 0, heldBatches: 1 });
  });

  // Mutant: the silence allowed a producer leaves out retryMs (3 x the larger heartbeat interval only).
  it("[P8] a producer is not subscribed to anew before three times the longest of the heartbeat intervals and retryMs", () => {
    const sub = following({ retryMs: 5_000, heartbeatIntervalMs: 100 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    expect(bodies(sub.poll(6_001))).not.toContain("hello");
    expect(bodies(sub.poll(15_001))).toContain("hello");
  });

  // Mutant: a gap seen while a SnapshotRequest is outstanding sends a ReplayRequest and replaces the snapshot request.
  it("[E2] while a snapshot is awaited, a gap behind a batch applied in sequence asks no replay, and the snapshot is asked again", () => {
    const sub = following({ retryMs: 50 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handleEnvelope(P, env(7, batch(3, 3)), 2);
    expect(replayFrom(sub.poll(2))).toEqual([1]);
    sub.handleEnvelope(P, env(7, { replayUnavailable: { oldestAvailable: 2, latest: 3 } }), 3);
    expect(bodies(sub.poll(3))).toEqual(["snapshotRequest"]);
    sub.handleEnvelope(P, env(7, batch(1, 1)), 4); // applies; 2 is still missing
    expect(bodies(sub.poll(4))).toEqual([]);
    expect(bodies(sub.poll(53))).toEqual(["snapshotRequest"]);
  });
  // Mutant: a disconnect-peer handed out does not clear the record of a connection handed out, so unfollow forgets it twice.
  it("[P8] unfollowing a producer whose connection the transport already forgot emits no second disconnect-peer", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow(P, 0, { epoch: 7, metadata: new Uint8Array([7]) });
    expect(bodies(sub.poll(0))).toEqual(["connect-peer", "hello", "snapshotRequest"]);
    sub.handlePeerUnreachable(P, 1);
    expect(bodies(sub.poll(1))).toEqual(["disconnect-peer"]);
    sub.unfollow(P);
    expect(sub.poll(2)).toEqual([]);
  });
  // Mutant: the Hello tells heartbeat_interval_ms 0 (the default) instead of the subscriber's own interval.
  it("[P8] the Hello tells the subscriber's own heartbeat interval", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1, heartbeatIntervalMs: 700 });
    sub.follow(P, 0);
    const hello = sub.poll(0).flatMap((o) => (o.type === "send" && o.envelope.hello ? [o.envelope.hello] : []));
    expect(hello).toHaveLength(1);
    expect(hello[0]?.heartbeatIntervalMs).toBe(700);
  });

  // Mutant: a snapshot applied does not reset the replay retries, so the next gap is given up after fewer of them.
  it("[E2] the retries of a gap a snapshot resolved are not carried over to the gap left behind it: three retries again", () => {
    const sub = following({ retryMs: 50, catchUpMs: 100_000 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handleEnvelope(P, env(7, batch(5, 5)), 2);
    expect(replayFrom(sub.poll(2))).toEqual([1]);
    expect(replayFrom(sub.poll(52))).toEqual([1]);
    expect(replayFrom(sub.poll(102))).toEqual([1]);
    // (A producer whose buffer starts past 1 and whose latest is 3, though batch 5 was seen: a gap is left.)
    sub.handleEnvelope(P, env(7, { replayUnavailable: { oldestAvailable: 2, latest: 3 } }), 103);
    expect(bodies(sub.poll(103))).toEqual(["snapshotRequest"]);
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 2, items: [desc(3)] } }), 104); // 4 still missing
    expect(replayFrom(sub.poll(104))).toEqual([4]);
    for (const t of [154, 204, 254]) expect(replayFrom(sub.poll(t))).toEqual([4]);
    expect(replayFrom(sub.poll(304))).toEqual([]); // given up after three retries
  });
  // Mutant: a snapshot applied does not end the new subscription, so a later unanswered SnapshotRequest goes again with a Hello.
  it("[E2][P8] once a snapshot answered the subscription, an unanswered SnapshotRequest is sent again alone (no Hello)", () => {
    const sub = following({ heartbeatIntervalMs: 100_000, catchUpMs: 100_000 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handlePeerUnreachable(P, 2);
    expect(bodies(sub.poll(2_000))).toEqual(["hello", "snapshotRequest"]); // subscribed to anew, same epoch
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 2, items: [] } }), 2_001);
    sub.handleEnvelope(P, env(7, { replayUnavailable: { oldestAvailable: 3, latest: 5 } }), 2_002);
    expect(bodies(sub.poll(2_002))).toEqual(["snapshotRequest"]);
    expect(bodies(sub.poll(4_002))).toEqual(["snapshotRequest"]);
  });
});

describe("EventSubscriber: unfollow, unreachable reports and empty repeated fields", () => {
  const meta7 = new Uint8Array([7, 7]);

  // [P8] SPEC 4: a message of the epoch ends the new subscription's "unanswered" state, so a still
  // newer epoch is greeted anew (a subscription flag kept set would take it as already asked).
  it("[P8] a newer epoch heard after the first epoch's first message gets its own Hello and SnapshotRequest", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow(P, 0);
    sub.poll(0);
    sub.handleEnvelope(P, env(7, { heartbeat: { sequence: 1 } }), 10);
    sub.handleEnvelope(P, env(8, batch(1, 3)), 20);
    expect(bodies(sub.poll(20))).toEqual(["hello", "snapshotRequest"]);
  });

  it("[P8] unfollow, follow again, unfollow again before a poll still forgets the connection the transport holds", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow(P, 0, { epoch: 7, metadata: meta7 });
    expect(bodies(sub.poll(0))).toEqual(["connect-peer", "hello", "snapshotRequest"]); // the transport now holds a connection
    sub.unfollow(P); // queues disconnect-peer
    sub.follow(P, 1); // followed again (no connection given)
    sub.unfollow(P); // and dropped again: the queued disconnect-peer must survive
    expect(sub.poll(2)).toEqual([{ type: "disconnect-peer", peerId: P }]);
  });

  it("[P8] a producer reported unreachable is sent nothing before the new Hello: a ReplayRequest queued before the report does not go out", () => {
    const sub = following({ retryMs: 1_000, heartbeatIntervalMs: 100_000, catchUpMs: 100_000 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 1, snapshotId: 1, items: [] } }), 1);
    sub.poll(1);
    sub.handleEnvelope(P, env(7, batch(3, 3)), 2); // a gap: a ReplayRequest is queued
    sub.handlePeerUnreachable(P, 3); // before the driver polled
    const out = sub.poll(3);
    expect(bodies(out)).not.toContain("replayRequest");
  });

  it("[E1] a batch with no events field (an IEventBatch whose optional events is omitted) changes nothing; its sequence still counts", () => {
    const sub = following({ retryMs: 1_000, heartbeatIntervalMs: 100_000, catchUpMs: 100_000 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 1, snapshotId: 1, items: [] } }), 1);
    sub.handleEnvelope(P, env(7, { eventBatch: { sequence: 2 } }), 2); // holds no event
    sub.handleEnvelope(P, env(7, batch(3, 3)), 3);
    expect(sub.stats().ignoredMessages).toBe(0);
    expect([...(sub.view(P)?.keys() ?? [])]).toEqual([key(3)]);
    expect(sub.isSynced(P)).toBe(true);
  });

  it("[E2] a snapshot with no items field (an ISnapshot whose optional items is omitted) is the empty set, not malformed", () => {
    const sub = following({ retryMs: 1_000 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1 } }), 1);
    expect(sub.view(P)?.size).toBe(0);
    expect(sub.isSynced(P)).toBe(true);
  });

  it("[E1] a batch 2 that omits its (empty) events, replayed faithfully, lets the view reach batch 3 (it was refused as malformed: the gap never closed)", () => {
    const sub = following({ retryMs: 100, heartbeatIntervalMs: 100_000, catchUpMs: 200 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 1, snapshotId: 1, items: [] } }), 1);
    const two = env(7, { eventBatch: { sequence: 2 } }); // what a hand-built / JSON-decoded empty batch looks like
    sub.handleEnvelope(P, two, 2);
    sub.handleEnvelope(P, env(7, batch(3, 3)), 3);
    // The producer answers every ReplayRequest faithfully, with batches 2 and 3 as published.
    for (let t = 10; t <= 20_000; t += 10) {
      const out = sub.poll(t);
      for (const from of replayFrom(out))
        for (let s = Number(from); s <= 3; s++) sub.handleEnvelope(P, s === 2 ? two : env(7, batch(3, 3)), t);
      sub.handleEnvelope(P, env(7, { heartbeat: { sequence: 1 } }), t);
    }
    expect([...(sub.view(P)?.keys() ?? [])]).toEqual([key(3)]);
  });
});

describe("EventSubscriber options", () => {
  // A malformed fingerprint was taken as given: its Hello could not be encoded, a driver drops an
  // envelope that does not encode, and the subscriber followed nothing, without an error.
  it("a fingerprint that could not travel in the Hello is refused with INVALID_CONFIG naming it", () => {
    for (const fingerprint of [{ model: 5 }, "abc", { model: "m", rowBytes: 2 ** 64 }, { dtype: -1 }]) {
      const make = () => new EventSubscriber({ id: "R", epoch: 1, fingerprint: fingerprint as unknown as ectp.v1.IFingerprint });
      expect(make).toThrow(EctpError);
      expect(make).toThrow(/INVALID_CONFIG.*options\.fingerprint/);
    }
    expect(() => new EventSubscriber({ id: "R", epoch: 1, fingerprint: { model: "m", dtype: 3 } })).not.toThrow();
    expect(() => new EventSubscriber({ id: "R", epoch: 1, fingerprint: undefined })).not.toThrow();
  });

  it("[P8] an epoch that is not a positive integer is refused with INVALID_CONFIG giving it", () => {
    for (const [epoch, shown] of [[0, "0"], [-1, "-1"], [1.5, "1.5"], [Number.NaN, "NaN"], [undefined, "nothing"], ["1", '"1"']] as const)
      expect(() => new EventSubscriber({ id: "R", epoch: epoch as number })).toThrow(`[INVALID_CONFIG] options.epoch must be a positive integer; got ${shown}`);
    expect(() => new EventSubscriber({ id: "R", epoch: 1 })).not.toThrow();
  });

  // Mutant: kept descriptors are the decoded ones, views into their frame (60 held batches, each a
  // small descriptor sent with 4 MiB of unknown fields, held 240 MiB; 1,024 could hold 16 GiB).
  it("[E2] descriptors kept from a frame (view, held batches, snapshot parts) hold their own bytes, not the frame's", () => {
    const frame = (body: ectp.v1.IEnvelope) => {
      const bytes = encodeEnvelope(env(1, body));
      // An unknown field 99 of 64 KiB after the body: a receiver skips it, the frame grows.
      const padded = new Uint8Array(bytes.length + 5 + (1 << 16));
      padded.set(bytes);
      padded.set([0x9a, 0x06, 0x80, 0x80, 0x04], bytes.length); // tag (99 << 3 | 2), length 65 536
      return padded;
    };
    const sub = following();
    sub.handleMessage(P, frame({ snapshot: { sequence: 1, snapshotId: 1, parts: 2, part: 0, items: [{ ...desc(1), location: Uint8Array.of(7), checksum: { algorithm: 1, value: Uint8Array.of(1, 2, 3, 4) } }] } }), 1);
    sub.handleMessage(P, frame(batch(3, 3)), 1); // held: 2 is missing
    sub.handleMessage(P, frame({ snapshot: { sequence: 1, snapshotId: 1, parts: 2, part: 1, items: [desc(2)] } }), 1);
    sub.handleMessage(P, frame(batch(2, 4)), 1); // applies, then the held batch 3
    const view = sub.view(P);
    expect([...(view?.keys() ?? [])].sort()).toEqual([key(1), key(2), key(3), key(4)].sort());
    for (const d of view?.values() ?? []) {
      for (const b of [d.key?.contentHash, d.location, d.checksum?.value])
        if (b instanceof Uint8Array) expect(b.buffer.byteLength, "a kept bytes field's buffer").toBe(b.byteLength);
    }
    const one = view?.get(key(1));
    expect(one?.checksum?.value).toEqual(Uint8Array.of(1, 2, 3, 4));
    expect(one?.location).toEqual(Uint8Array.of(7));
    expect(one?.sizeBytes).toBe(desc(1).sizeBytes);
  });

  // Mutant: the subscriber counts ignored messages only in stats() (SPEC.md [C10] names the metric).
  it("[C10] ignored messages are counted in ectp_subscriber_ignored_messages_total by reason, as in stats()", () => {
    const metrics = new CountingMetrics();
    const sub = following({ metrics });
    sub.handleMessage(P, Uint8Array.of(0xff), 1); // malformed
    sub.handleEnvelope("X", { ...env(1, batch(1, 1)), senderId: "X" }, 1); // not followed
    sub.handleEnvelope(P, { ...env(1, batch(1, 1)), senderId: "Y" }, 1); // another id than the peer's
    sub.handleEnvelope(P, { ...env(1, batch(1, 1)), version: { major: 2 } }, 1); // another major
    sub.handleEnvelope(P, env(1, { snapshot: { sequence: 1, snapshotId: 1, items: [desc(1)] } }), 1);
    sub.handleEnvelope(P, env(1, batch(1, 2)), 1); // applied already
    sub.handleEnvelope(P, env(1, { readRequest: { attemptId: 1 } }), 1); // a body a subscriber does not use
    sub.handleEnvelope(P, env(1, { handshakeReject: { reason: 4 } }), 1);
    const reasons = ["malformed", "unknown_peer", "sender_mismatch", "version", "duplicate", "unexpected", "refused"];
    expect(reasons.map((reason) => metrics.get(IGNORED, { reason }))).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(sub.stats().ignoredMessages).toBe(7);
  });

  it("[C10] a message of the followed producer whose sender epoch is absent, 0 or not a safe integer is ignored as malformed", () => {
    const metrics = new CountingMetrics();
    const sub = following({ metrics });
    const epochs = [undefined, 0, -1, 1.5, 2 ** 53, "1"];
    for (const senderEpoch of epochs) sub.handleEnvelope(P, { ...env(1, batch(1, 1)), senderEpoch } as never, 1);
    expect(metrics.get(IGNORED, { reason: "malformed" })).toBe(epochs.length);
    expect(sub.stats().ignoredMessages).toBe(epochs.length);
    expect(sub.view(P)).toBeUndefined();
  });

  // Mutant: subscriber.ts poll, in the branch that subscribes anew to a producer reported
  // unreachable, drops `f.lastHeard = now;`: the silence of the new subscription is counted from
  // the last message heard before the loss, so it is found again one second after the new
  // SnapshotRequest and the subscription (Hello, SnapshotRequest) is sent again before retry_ms.
  // SPEC [P8] subscriber side: it "MAY wait up to its request timeout after its last request to
  // that producer ... (the reference subscribers wait exactly that), so that a producer that stays
  // unreachable costs one attempt per timeout"; section 12: a gone producer is subscribed to anew,
  // and an unanswered SnapshotRequest asked again, after retry_ms (2 s); [P8] "silence is never
  // found between a request and its timeout".
  it("[P8][E2] a producer reported unreachable is subscribed to anew once per retry_ms, not again when its old silence runs out", () => {
    const sub = following(); // retryMs 2 000, heartbeats 2 000: silence is 6 000 ms
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.poll(1);
    sub.handlePeerUnreachable(P, 5_000);
    const anew = bodies(sub.poll(5_000)).filter((b) => b !== "heartbeat");
    expect(anew).toEqual(["hello", "snapshotRequest"]);
    // 6 001: 6 s after the last message of the producer, but only 1 s after the new request: nothing yet.
    expect(bodies(sub.poll(6_001)).filter((b) => b === "hello" || b === "snapshotRequest")).toEqual([]);
    // The request's own timeout (5 000 + retry_ms) sends the subscription again.
    expect(bodies(sub.poll(7_000)).filter((b) => b === "hello" || b === "snapshotRequest")).toEqual(["hello", "snapshotRequest"]);
  });
  /** Polls at `sub.nextDeadline()` from `now`; the times after which it named a deadline already passed. */
  const stuckPolls = (sub: EventSubscriber, now: number, rounds: number): number[] => {
    const stuck: number[] = [];
    for (let i = 0; i < rounds && stuck.length < 5; i++) {
      const next = sub.nextDeadline() as number;
      if (next <= now) stuck.push(now);
      now = Math.max(next, now);
      sub.poll(now);
    }
    return stuck;
  };

  it("[P8] nextDeadline() after a poll is never at or before now, at fractional times too: a silent producer's deadline is when poll judges it silent", () => {
    const sub = new EventSubscriber({ id: "router", epoch: 1 });
    const now = 29510.0500661; // e.g. a mock network's 0.05 ms latency, or performance.now(): 29510.0500661 + 6000 - 29510.0500661 < 6000
    sub.follow(P, now);
    sub.poll(now);
    expect(stuckPolls(sub, now, 100)).toEqual([]);
  });

  it("[P8] nextDeadline() of a producer reported unreachable is its resubscription, not the silence poll no longer judges (a driver would spin until then)", () => {
    const sub = new EventSubscriber({ id: "router", epoch: 1 });
    const metadata = new Uint8Array([1]);
    sub.follow(P, 0, { epoch: 1, metadata });
    for (const t of [0, 2000, 4000]) sub.poll(t); // never answers
    sub.follow(P, 4500, { epoch: 2, metadata }); // replaced by the deployment 4.5 s after last heard
    sub.poll(4500);
    sub.handlePeerUnreachable(P, 4600); // its new endpoint is not up yet
    sub.poll(4600);
    expect(sub.nextDeadline()).toBeGreaterThan(4600);
    expect(stuckPolls(sub, 4600, 50)).toEqual([]);
  });
});

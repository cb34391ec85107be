/**
 * Found by a review of the subscriber: requests dropped before a poll handed them out were counted
 * as sent; a first snapshot whose `snapshot_id` is 0 (a producer that breaks the id rule) was
 * ignored as a late duplicate of a snapshot never applied; and a producer reported unreachable
 * just after a catch-up ReplayRequest was subscribed to anew at once, not `retryMs` after it.
 */
import { describe, expect, it } from "vitest";
import { desc } from "../producer/test-helpers.js";
import { EventSubscriber } from "./subscriber.js";
import { P, bodies, env, following, viewKeys, key } from "./test-support.js";

describe("stats() counts the requests handed out", () => {
  it("[E2][P8] a SnapshotRequest or ReplayRequest dropped before a poll (by handlePeerUnreachable or unfollow) is not counted as sent", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow(P, 0);
    // [P8] reported unreachable before the poll: the Hello and SnapshotRequest never go out.
    sub.handlePeerUnreachable(P, 0);
    expect(bodies(sub.poll(0))).toEqual([]);
    expect(sub.stats().snapshotRequests).toBe(0);
    // retryMs later it is subscribed to anew: that one goes out, and is counted.
    expect(bodies(sub.poll(2_000)).filter((b) => b !== "heartbeat")).toEqual(["hello", "snapshotRequest"]);
    expect(sub.stats().snapshotRequests).toBe(1);
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 1, snapshotId: 1, items: [] } }), 2_001);
    // [E2] A gap asks for a replay; unfollowed before a poll, the request never goes out.
    sub.handleEnvelope(P, env(7, { eventBatch: { sequence: 3, events: [{ stored: { item: desc(1) } }] } }), 2_002);
    sub.unfollow(P);
    expect(bodies(sub.poll(2_002))).toEqual([]);
    expect(sub.stats()).toMatchObject({ snapshotRequests: 1, replayRequests: 0 });
  });
});

describe("the first snapshot of a producer epoch", () => {
  it("[E2] is taken whatever its snapshot_id: one of id 0 at sequence 0 (a producer that breaks the id rule) is no late duplicate, since none was applied", () => {
    const sub = following();
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 0, items: [desc(1)] } }), 1);
    expect({ synced: sub.isSynced(P), view: viewKeys(sub), applied: sub.stats().snapshotsApplied }).toEqual({
      synced: true,
      view: [key(1)],
      applied: 1,
    });
    // Once applied, a copy of it is a late duplicate: ignored and counted [C10], the view kept.
    const ignored = sub.stats().ignoredMessages;
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 0, items: [] } }), 2);
    expect({ ignored: sub.stats().ignoredMessages - ignored, view: viewKeys(sub) }).toEqual({ ignored: 1, view: [key(1)] });
  });

  it("[E2][P8] of a restarted producer is taken with snapshot_id 0 too (ids start over with the epoch)", () => {
    const sub = following();
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 0, items: [desc(1)] } }), 1);
    sub.handleEnvelope(P, env(8, { snapshot: { sequence: 0, snapshotId: 0, items: [desc(2)] } }), 2);
    expect({ synced: sub.isSynced(P), view: viewKeys(sub) }).toEqual({ synced: true, view: [key(2)] });
  });
});

describe("a producer reported unreachable", () => {
  it("[P8] just after a catch-up ReplayRequest is subscribed to anew retryMs after that request, not at once", () => {
    const sub = following(); // retryMs 2 000, catchUpMs 5 000
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.poll(1);
    for (let t = 1_000; t <= 5_000; t += 1_000) sub.handleEnvelope(P, env(7, { heartbeat: { sequence: t } }), t);
    expect(bodies(sub.poll(5_001))).toContain("replayRequest"); // the catch-up
    sub.handlePeerUnreachable(P, 5_002);
    // [P8] "It MAY wait up to its request timeout after its last request to that producer ... (the
    // reference subscribers wait exactly that for a producer reported unreachable)".
    expect(bodies(sub.poll(5_002))).not.toContain("hello");
    expect(sub.nextDeadline()).toBe(7_001);
    expect(bodies(sub.poll(7_000))).not.toContain("hello");
    expect(bodies(sub.poll(7_001)).filter((b) => b !== "heartbeat")).toEqual(["hello", "snapshotRequest"]);
  });
});

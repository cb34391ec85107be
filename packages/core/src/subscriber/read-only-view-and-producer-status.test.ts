/**
 * What a router reviewing the subscriber from the outside found missing (2026-12 review): `view()`
 * handed out the live map, so a caller's `delete` left a holders entry behind for good [E1][I4];
 * nothing said whether a producer that is not synced waits for a new connection or is only silent,
 * nor which epochs were followed and heard [P8]; a producer heard at a lower epoch than the one
 * followed was only counted [P8][C10]; and `follow(id, now, null)` blamed `connection.epoch`.
 */
import type { ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { desc } from "../producer/test-helpers.js";
import { EventSubscriber } from "./subscriber.js";
import { P, env, key } from "./test-support.js";

/** A connection of producer epoch `epoch`. */
const conn = (epoch: number) => ({ epoch, metadata: new Uint8Array([epoch]) });

/** A whole snapshot (id 1) as of `sequence`, holding test items `items`. */
const snapshot = (sequence: number, items: number[]) => ({ snapshot: { snapshotId: 1, sequence, items: items.map((n) => desc(n)) } });

/** A heartbeat body. */
const heartbeat = { heartbeat: { sequence: 1 } };

/** A logger that keeps its warnings, with their fields. */
function warnings(): { logger: ConstructorParameters<typeof EventSubscriber>[0]["logger"]; seen: { message: string; fields: unknown }[] } {
  const seen: { message: string; fields: unknown }[] = [];
  return { seen, logger: { debug() {}, info() {}, warn: (message, fields) => seen.push({ message, fields }), error() {} } };
}

/** A subscriber following P through a connection of epoch 7, synced on a snapshot of items 1 and 2 at time 1. */
function synced(options: Partial<ConstructorParameters<typeof EventSubscriber>[0]> = {}): EventSubscriber {
  const sub = new EventSubscriber({ id: "R", epoch: 1, ...options });
  sub.follow(P, 0, conn(7));
  sub.poll(0);
  sub.handleEnvelope(P, env(7, snapshot(0, [1, 2])), 1);
  return sub;
}

describe("EventSubscriber.view: a read-only window on the live view [E1][I4]", () => {
  it("[E1][I4] a caller's set, delete or clear through what view() returns throws and changes nothing: holders() still follows the producer", () => {
    const sub = synced();
    const v = sub.view(P);
    const asMap = v as unknown as Map<string, ectp.v1.IItemDescriptor>;
    const mutations = [
      () => asMap.delete(key(1)),
      () => asMap.set(key(3), desc(3)),
      () => asMap.clear(),
      () => Map.prototype.delete.call(v, key(1)),
      () => Map.prototype.clear.call(v),
    ];
    for (const mutate of mutations) expect(mutate).toThrow(TypeError);
    expect([...(sub.view(P)?.keys() ?? [])].sort()).toEqual([key(1), key(2)].sort());
    expect(sub.holders(key(1))).toEqual([P]);
    expect(sub.stats().viewBytes).toBeGreaterThan(0);
    // The producer evicts item 1: nobody holds it any more, and the index keeps no entry for it [I4].
    sub.handleEnvelope(P, env(7, { eventBatch: { sequence: 1, events: [{ removed: { key: desc(1).key } }] } }), 2);
    expect(sub.holders(key(1))).toEqual([]);
    expect((sub as unknown as { holderIndex: Map<string, unknown> }).holderIndex.has(key(1))).toBe(false);
    expect([...(sub.view(P)?.keys() ?? [])]).toEqual([key(2)]);
  });

  it("[E1] the window is the same object on every call and live (no copy): it shows later batches, and forEach hands it, not the map behind it", () => {
    const sub = synced();
    const v = sub.view(P);
    sub.handleEnvelope(P, env(7, { eventBatch: { sequence: 1, events: [{ stored: { item: desc(3) } }] } }), 2);
    expect(sub.view(P)).toBe(v);
    expect(v?.size).toBe(3);
    expect(v?.get(key(3))).toEqual(desc(3));
    expect([...(v?.entries() ?? [])].map(([k]) => k).sort()).toEqual([key(1), key(2), key(3)].sort());
    expect([...(v?.values() ?? [])]).toHaveLength(3);
    const thirds = new Set<unknown>();
    v?.forEach(function (this: unknown, _d, _k, map) {
      thirds.add(map);
      thirds.add(this);
    }, "this");
    expect([...thirds]).toEqual([v, "this"]);
    const copy = new Map(v ?? []);
    sub.handleEnvelope(P, env(7, { eventBatch: { sequence: 2, events: [{ cleared: {} }] } }), 3);
    expect([v?.size, copy.size]).toEqual([0, 3]);
  });
});

describe("EventSubscriber.producerStatus [P8]", () => {
  it("is undefined for a producer not followed", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    expect(sub.producerStatus(P)).toBeUndefined();
    sub.follow(P, 0);
    sub.unfollow(P);
    expect(sub.producerStatus(P)).toBeUndefined();
  });

  it("[P8] a restart heard first voids the connection given: awaitingConnection until follow() gives the new epoch's, with the epochs followed and heard", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow(P, 0, conn(7));
    sub.poll(0);
    expect(sub.producerStatus(P)).toEqual({ synced: false, epoch: 7, heardEpoch: 0, awaitingConnection: false });
    sub.handleEnvelope(P, env(7, snapshot(0, [1])), 1);
    expect(sub.producerStatus(P)).toEqual({ synced: true, epoch: 7, heardEpoch: 7, awaitingConnection: false });
    sub.handleEnvelope(P, env(8, heartbeat), 2); // restarted, heard before the deployment told
    expect(sub.producerStatus(P)).toEqual({ synced: false, epoch: 8, heardEpoch: 8, awaitingConnection: true });
    sub.follow(P, 3, conn(6)); // older than the epoch heard: ignored, still waiting
    expect(sub.producerStatus(P)?.awaitingConnection).toBe(true);
    sub.follow(P, 4, conn(8));
    expect(sub.producerStatus(P)).toEqual({ synced: false, epoch: 8, heardEpoch: 8, awaitingConnection: false });
    sub.poll(4);
    sub.handleEnvelope(P, env(8, snapshot(0, [2])), 5);
    expect(sub.producerStatus(P)).toEqual({ synced: true, epoch: 8, heardEpoch: 8, awaitingConnection: false });
  });

  it("[P8] plain silence is not a wait for a connection: not synced, the same epoch, awaitingConnection false", () => {
    const sub = synced();
    sub.poll(1);
    sub.poll(6_001); // silent for 3 x 2 000 ms: subscribed to anew
    expect(sub.producerStatus(P)).toEqual({ synced: false, epoch: 7, heardEpoch: 7, awaitingConnection: false });
  });

  it("[P8] a newer epoch told by follow() is the epoch followed; heardEpoch is the greatest heard, stale messages included", () => {
    const sub = synced();
    sub.follow(P, 2, conn(9));
    expect(sub.producerStatus(P)).toEqual({ synced: false, epoch: 9, heardEpoch: 7, awaitingConnection: false });
    sub.handleEnvelope(P, env(8, heartbeat), 3); // older than the connection: stale, but heard
    expect(sub.producerStatus(P)).toEqual({ synced: false, epoch: 9, heardEpoch: 8, awaitingConnection: false });
  });

  it("[P8] followed without a connection: epoch 0 until heard, and a restart leaves no connection to wait for", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow(P, 0);
    expect(sub.producerStatus(P)).toEqual({ synced: false, epoch: 0, heardEpoch: 0, awaitingConnection: false });
    sub.handleEnvelope(P, env(7, heartbeat), 1);
    sub.handleEnvelope(P, env(8, heartbeat), 2);
    expect(sub.producerStatus(P)).toEqual({ synced: false, epoch: 8, heardEpoch: 8, awaitingConnection: false });
  });

  it("[P8] a bogus huge epoch shows in the status; follow() with the real epoch does not bring the producer back, unfollow() then follow() does", () => {
    const sub = synced();
    const huge = Number.MAX_SAFE_INTEGER;
    sub.handleEnvelope(P, env(huge, heartbeat), 2);
    expect(sub.producerStatus(P)).toEqual({ synced: false, epoch: huge, heardEpoch: huge, awaitingConnection: true });
    expect(sub.view(P)).toBeUndefined();
    sub.follow(P, 3, conn(7));
    sub.handleEnvelope(P, env(7, snapshot(0, [1])), 4); // the real producer: stale
    expect(sub.producerStatus(P)).toMatchObject({ synced: false, epoch: huge });
    sub.unfollow(P);
    sub.follow(P, 5, conn(7));
    sub.poll(5);
    sub.handleEnvelope(P, env(7, snapshot(0, [1])), 6);
    expect(sub.producerStatus(P)).toEqual({ synced: true, epoch: 7, heardEpoch: 7, awaitingConnection: false });
  });
});

describe("EventSubscriber: a producer heard at a lower epoch than the one followed [P8][C10]", () => {
  it("[P8][C10] is warned of at most once per lower epoch, naming the producer and both epochs, after the late messages' grace; every message is still counted", () => {
    const { logger, seen } = warnings();
    const sub = new EventSubscriber({ id: "R", epoch: 1, logger });
    sub.follow(P, 0);
    sub.poll(0);
    sub.handleEnvelope(P, env(8, snapshot(0, [1])), 1); // epoch 8 followed from time 1
    const ignored = sub.stats().ignoredMessages;
    sub.handleEnvelope(P, env(7, heartbeat), 2); // a late message of the epoch before: no warning
    expect(seen).toEqual([]);
    // Past the silence bound (3 x 2 000 ms) epoch 6 still speaks: it runs. One warning, however many messages.
    for (let t = 6_001; t < 20_000; t += 2_000) sub.handleEnvelope(P, env(6, heartbeat), t);
    sub.handleEnvelope(P, env(7, heartbeat), 20_000); // another lower epoch: its own warning
    sub.handleEnvelope(P, env(7, heartbeat), 22_000);
    sub.handleEnvelope(P, env(6, heartbeat), 24_000);
    sub.handleEnvelope(P, env(5, heartbeat), 26_000); // below one warned of: not warned (one number kept per producer)
    const lower = seen.filter((w) => w.message.startsWith("producer heard at an epoch lower than the one followed"));
    expect(lower.map((w) => w.fields)).toEqual([
      { producerId: P, heardEpoch: 6, followedEpoch: 8 },
      { producerId: P, heardEpoch: 7, followedEpoch: 8 },
    ]);
    expect(lower[0]?.message).toMatch(/epoch must grow with every restart.*unfollow\(\) and follow\(\)/);
    expect(sub.stats().ignoredMessages - ignored).toBe(12); // every one of them counted (stale_epoch)
    expect(sub.view(P)?.has(key(1))).toBe(true);
  });

  it("[P8] below the epoch of the connection follow() gave: warned once that epoch's grace is over", () => {
    const { logger, seen } = warnings();
    const sub = synced({ logger });
    sub.follow(P, 10, conn(8)); // the deployment tells of epoch 8 at time 10
    sub.handleEnvelope(P, env(7, heartbeat), 5_000); // late
    sub.handleEnvelope(P, env(7, heartbeat), 6_010);
    sub.handleEnvelope(P, env(7, heartbeat), 8_010);
    expect(seen.map((w) => w.fields)).toEqual([{ producerId: P, heardEpoch: 7, followedEpoch: 8 }]);
  });
});

describe("EventSubscriber.follow: a connection that is not an object", () => {
  it("null or a number is an INVALID_ARGUMENT saying the connection must be an object { epoch, metadata } or undefined; nothing is followed", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    for (const [bad, got] of [
      [null, "null"],
      [7, "7"],
    ] as const)
      expect(() => sub.follow(P, 0, bad as unknown as { epoch: number; metadata: Uint8Array })).toThrow(
        `[INVALID_ARGUMENT] follow(${P}): connection must be an object { epoch, metadata } (the producer's epoch and its transport metadata for that epoch) or undefined; got ${got}`,
      );
    expect(sub.isFollowing(P)).toBe(false);
  });
});

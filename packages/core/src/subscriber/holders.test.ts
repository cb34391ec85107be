/**
 * `holders(keyId)`: the followed producers whose view holds a key, for a router that sends each
 * request where its item already is [E1][E2]. It never disagrees with `view()`, through batches,
 * snapshots replacing views, epoch changes, views dropped for `maxViewBytes`, unreachable reports
 * and unfollows, and it keeps nothing once the views are gone [I4].
 */
import { EctpError, SPEC_VERSION, type ectp, itemDescriptorByteLength } from "@ectp/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FP, desc } from "../producer/test-helpers.js";
import { EventSubscriber, type SubscriberOptions } from "./subscriber.js";
import { key } from "./test-support.js";

/** An envelope from producer `p` at `epoch` carrying `body`. */
function from(p: string, epoch: number, body: ectp.v1.IEnvelope): ectp.v1.IEnvelope {
  return { version: SPEC_VERSION, senderId: p, senderEpoch: epoch, ...body };
}

/** A whole snapshot `snapshotId` as of `sequence`, holding test items `items`. */
function snapshot(snapshotId: number, sequence: number, items: number[]): ectp.v1.IEnvelope {
  return { snapshot: { snapshotId, sequence, items: items.map((n) => desc(n)) } };
}

/** A subscriber following `producers`, in that order, from time 0. */
function followingAll(producers: string[], options: Partial<SubscriberOptions> = {}): EventSubscriber {
  const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP, ...options });
  for (const p of producers) sub.follow(p, 0);
  sub.poll(0);
  return sub;
}

/** [I4] The subscriber's key index, read for the leak checks only. */
function indexSize(sub: EventSubscriber): number {
  return (sub as unknown as { holderIndex: Map<string, unknown> }).holderIndex.size;
}

/** What the subscriber counts one test item as holding (every test item's is the same size). */
const ITEM_BYTES = key(1).length + itemDescriptorByteLength(desc(1));

describe("EventSubscriber.holders [E1][E2]", () => {
  it("[E1][E2] lists the producers whose view holds the key, in the order they were followed, whatever order their views came in", () => {
    const sub = followingAll(["A", "B", "C"]);
    expect(sub.holders(key(1))).toEqual([]); // no view yet
    sub.handleEnvelope("C", from("C", 7, snapshot(1, 0, [1])), 1);
    sub.handleEnvelope("A", from("A", 7, snapshot(1, 0, [1, 2])), 2);
    sub.handleEnvelope("B", from("B", 7, snapshot(1, 0, [1, 3])), 3);
    expect(sub.holders(key(1))).toEqual(["A", "B", "C"]);
    expect(sub.holders(key(2))).toEqual(["A"]);
    expect(sub.holders(key(3))).toEqual(["B"]);
    expect(sub.holders(key(9))).toEqual([]);
    expect(sub.holders("not a key id")).toEqual([]);
  });

  it("[E1] batches change it as they change the view: Stored adds, Stored again changes nothing, Removed and Cleared take away", () => {
    const sub = followingAll(["A", "B"]);
    sub.handleEnvelope("A", from("A", 7, snapshot(1, 0, [])), 1);
    sub.handleEnvelope("B", from("B", 7, snapshot(1, 0, [1])), 1);
    sub.handleEnvelope("A", from("A", 7, { eventBatch: { sequence: 1, events: [{ stored: { item: desc(1) } }, { stored: { item: desc(1) } }, { stored: { item: desc(2) } }] } }), 2);
    expect([sub.holders(key(1)), sub.holders(key(2))]).toEqual([["A", "B"], ["A"]]);
    sub.handleEnvelope("B", from("B", 7, { eventBatch: { sequence: 1, events: [{ removed: { key: desc(1).key } }, { removed: { key: desc(2).key } }] } }), 3);
    expect([sub.holders(key(1)), sub.holders(key(2))]).toEqual([["A"], ["A"]]);
    sub.handleEnvelope("A", from("A", 7, { eventBatch: { sequence: 2, events: [{ cleared: {} }, { stored: { item: desc(3) } }] } }), 4);
    expect([sub.holders(key(1)), sub.holders(key(2)), sub.holders(key(3))]).toEqual([[], [], ["A"]]);
  });

  it("[E2] a batch held behind a gap counts only once applied", () => {
    const sub = followingAll(["A"]);
    sub.handleEnvelope("A", from("A", 7, snapshot(1, 0, [])), 1);
    sub.handleEnvelope("A", from("A", 7, { eventBatch: { sequence: 2, events: [{ stored: { item: desc(2) } }] } }), 2);
    expect(sub.holders(key(2))).toEqual([]);
    sub.handleEnvelope("A", from("A", 7, { eventBatch: { sequence: 1, events: [{ stored: { item: desc(1) } }] } }), 3);
    expect([sub.holders(key(1)), sub.holders(key(2))]).toEqual([["A"], ["A"]]);
  });

  it("[E2] a snapshot replacing a view replaces the producer's keys: those it no longer holds lose it, the others keep it", () => {
    const sub = followingAll(["A", "B"]);
    sub.handleEnvelope("A", from("A", 7, snapshot(1, 0, [1, 2])), 1);
    sub.handleEnvelope("B", from("B", 7, snapshot(1, 0, [2])), 1);
    sub.handleEnvelope("A", from("A", 7, snapshot(2, 5, [2, 3])), 2);
    expect([sub.holders(key(1)), sub.holders(key(2)), sub.holders(key(3))]).toEqual([[], ["A", "B"], ["A"]]);
  });

  it("[E2][P8] a newer epoch of a producer takes it off every key (its view is gone) until that epoch's snapshot", () => {
    const sub = followingAll(["A", "B"]);
    sub.handleEnvelope("A", from("A", 7, snapshot(1, 0, [1])), 1);
    sub.handleEnvelope("B", from("B", 7, snapshot(1, 0, [1])), 1);
    sub.handleEnvelope("A", from("A", 8, { heartbeat: { sequence: 1 } }), 2);
    expect(sub.view("A")).toBeUndefined();
    expect(sub.holders(key(1))).toEqual(["B"]);
    sub.handleEnvelope("A", from("A", 8, snapshot(1, 0, [1])), 3);
    expect(sub.holders(key(1))).toEqual(["A", "B"]);
  });

  // A router told of a restart by its deployment (follow with the new epoch's connection) went on routing to
  // the dead epoch's items until the new epoch first spoke (found by a router walkthrough).
  it("[P8][E2] follow() with a newer epoch's connection takes the producer off every key at once", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP });
    sub.follow("A", 0, { epoch: 7, metadata: new Uint8Array([7]) });
    sub.follow("B", 0, { epoch: 7, metadata: new Uint8Array([7]) });
    sub.poll(0);
    sub.handleEnvelope("A", from("A", 7, snapshot(1, 0, [1])), 1);
    sub.handleEnvelope("B", from("B", 7, snapshot(1, 0, [1])), 1);
    sub.follow("A", 2, { epoch: 7, metadata: new Uint8Array([7]) }); // the same epoch again: nothing changes
    expect(sub.holders(key(1))).toEqual(["A", "B"]);
    sub.follow("A", 3, { epoch: 8, metadata: new Uint8Array([8]) });
    expect([sub.view("A"), sub.isSynced("A"), sub.holders(key(1))]).toEqual([undefined, false, ["B"]]);
    sub.handleEnvelope("A", from("A", 8, snapshot(1, 0, [1, 2])), 4);
    expect([sub.holders(key(1)), sub.holders(key(2))]).toEqual([["A", "B"], ["A"]]);
  });

  // The older epoch's answers still in flight used to sync the dropped view again.
  it("[P8][E2] after follow() with a newer epoch's connection, the older epoch's messages are stale: they bring no view back", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP });
    sub.follow("A", 0, { epoch: 7, metadata: new Uint8Array([7]) });
    sub.poll(0);
    sub.handleEnvelope("A", from("A", 7, snapshot(1, 0, [1])), 1);
    sub.follow("A", 2, { epoch: 8, metadata: new Uint8Array([8]) });
    const ignored = sub.stats().ignoredMessages;
    sub.handleEnvelope("A", from("A", 7, snapshot(2, 0, [1])), 3);
    sub.handleEnvelope("A", from("A", 7, { eventBatch: { sequence: 1, events: [{ stored: { item: desc(2) } }] } }), 3);
    expect([sub.view("A"), sub.isSynced("A"), sub.holders(key(1)), sub.stats().ignoredMessages - ignored]).toEqual([undefined, false, [], 2]);
    sub.handleEnvelope("A", from("A", 8, snapshot(1, 0, [2])), 4);
    expect([sub.isSynced("A"), sub.holders(key(1)), sub.holders(key(2))]).toEqual([true, [], ["A"]]);
  });

  it("[E2] a view dropped for passing maxViewBytes takes the producer off every key, until a snapshot that fits", () => {
    const sub = followingAll(["A", "B"], { maxViewBytes: ITEM_BYTES * 2 + 5 });
    sub.handleEnvelope("A", from("A", 7, snapshot(1, 0, [1])), 1);
    sub.handleEnvelope("B", from("B", 7, snapshot(1, 0, [1])), 1);
    sub.handleEnvelope("A", from("A", 7, { eventBatch: { sequence: 1, events: [2, 3].map((n) => ({ stored: { item: desc(n) } })) } }), 2);
    expect(sub.view("A")).toBeUndefined();
    expect([sub.holders(key(1)), sub.holders(key(2)), sub.holders(key(3))]).toEqual([["B"], [], []]);
    sub.handleEnvelope("A", from("A", 7, snapshot(2, 1, [2])), 3);
    expect([sub.holders(key(1)), sub.holders(key(2))]).toEqual([["B"], ["A"]]);
  });

  it("[P8] a producer reported unreachable keeps its keys for as long as view() keeps its view", () => {
    const sub = followingAll(["A"]);
    sub.handleEnvelope("A", from("A", 7, snapshot(1, 0, [1])), 1);
    sub.handlePeerUnreachable("A", 2);
    expect(sub.view("A")?.has(key(1))).toBe(true);
    expect(sub.holders(key(1))).toEqual(["A"]);
  });

  it("[I4] unfollow takes the producer off every key; following it again puts it last; after unfollowing all, nothing is kept", () => {
    const sub = followingAll(["A", "B"]);
    sub.handleEnvelope("A", from("A", 7, snapshot(1, 0, [1, 2])), 1);
    sub.handleEnvelope("B", from("B", 7, snapshot(1, 0, [1])), 1);
    sub.unfollow("A");
    expect([sub.holders(key(1)), sub.holders(key(2))]).toEqual([["B"], []]);
    sub.follow("A", 2);
    sub.handleEnvelope("A", from("A", 7, snapshot(1, 0, [1])), 3);
    expect(sub.holders(key(1))).toEqual(["B", "A"]);
    sub.unfollow("A");
    sub.unfollow("B");
    expect([sub.holders(key(1)), sub.holders(key(2))]).toEqual([[], []]);
    expect(indexSize(sub)).toBe(0);
  });

  it("returns the caller's own array: changing it changes nothing in the subscriber", () => {
    const sub = followingAll(["A"]);
    sub.handleEnvelope("A", from("A", 7, snapshot(1, 0, [1])), 1);
    (sub.holders(key(1)) as string[]).push("X");
    expect(sub.holders(key(1))).toEqual(["A"]);
  });

  it("a keyId that is not a string is an INVALID_ARGUMENT naming it", () => {
    const sub = followingAll(["A"]);
    for (const keyId of [undefined, null, 1, { keyId: "k" }, desc(1).key]) {
      let thrown: unknown;
      try {
        sub.holders(keyId as unknown as string);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(EctpError);
      expect((thrown as EctpError).code).toBe("INVALID_ARGUMENT");
      expect((thrown as EctpError).message).toContain("keyId must be a string");
    }
  });
});

/** The producers of the model test, and the items they hold (few, so that views overlap). */
const PRODUCERS = ["A", "B", "C"] as const;
const ITEMS = [1, 2, 3, 4, 5, 6];

type Op = [kind: string, producer: number, n: number, items: number[]];

describe("EventSubscriber.holders never disagrees with view() [E1][E2][I4]", () => {
  // "connect" is a restart the deployment tells of (follow() with the new epoch's connection), "stale" an
  // older epoch's batch or snapshot answer still in flight; "follow" gives the current epoch's connection when n is odd.
  it("[E1][E2][I4][P8] property: after every step, holders(k) is exactly the followed producers (in follow order) whose view() holds k, and none has a view of an epoch older than the one it was last told of; nothing is kept after unfollowing all", () => {
    const op: fc.Arbitrary<Op> = fc.tuple(
      fc.constantFrom("batch", "batch", "batch", "replay", "snapshot", "snapshot", "restart", "unfollow", "follow", "unreachable", "wait", "bulk", "stale", "stale", "connect"),
      fc.integer({ min: 0, max: PRODUCERS.length - 1 }),
      fc.integer({ min: 0, max: 11 }),
      fc.array(fc.constantFrom(...ITEMS), { maxLength: 5 }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 80 }), (ops) => {
        // Room for four of the six items: a batch or snapshot storing more passes maxViewBytes.
        const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP, retryMs: 50, heartbeatIntervalMs: 100, catchUpMs: 100, maxViewBytes: ITEM_BYTES * 4 + 5 });
        // `told`: the subscriber's record of it was told of `epoch` (a message of it, or its connection); `synced`: a
        // complete snapshot of `epoch` was delivered since. Told and not synced, it has no view [E2][P8].
        const model = PRODUCERS.map(() => ({ epoch: 7, seq: 0, snapshotId: 0, lost: new Map<number, ectp.v1.IEvent[]>(), told: false, synced: false }));
        let order: string[] = [];
        let now = 0;
        const follow = (p: string, connection?: { epoch: number; metadata: Uint8Array }) => {
          if (!order.includes(p)) order.push(p);
          sub.follow(p, now, connection);
        };
        const deliver = (p: string, m: (typeof model)[number], body: ectp.v1.IEnvelope) => {
          // A producer not followed is not listened to [C10]: its epoch is news only to a record that exists.
          if (order.includes(p)) m.told = true;
          sub.handleEnvelope(p, from(p, m.epoch, body), now);
        };
        const check = (step: string) => {
          for (const n of ITEMS) {
            const k = key(n);
            expect(sub.holders(k), `${step}: item ${n}`).toEqual(order.filter((p) => sub.view(p)?.has(k) === true));
          }
          for (const [pi, p] of PRODUCERS.entries()) {
            const m = model[pi] as (typeof model)[number];
            if (m.told && !m.synced) expect(sub.view(p), `${step}: ${p} has a view of an older epoch`).toBeUndefined();
          }
        };
        for (const p of PRODUCERS) follow(p);
        for (const [i, [kind, pi, n, items]] of ops.entries()) {
          const p = PRODUCERS[pi] as string;
          const m = model[pi] as (typeof model)[number];
          now += 10;
          if (kind === "batch" || kind === "bulk") {
            const events: ectp.v1.IEvent[] =
              kind === "bulk"
                ? ITEMS.map((x) => ({ stored: { item: desc(x) } }))
                : items.map((x, j) => (n === 11 && j === 0 ? { cleared: {} } : (x + j + n) % 3 === 0 ? { removed: { key: desc(x).key } } : { stored: { item: desc(x) } }));
            const sequence = ++m.seq;
            if (n % 4 === 0) m.lost.set(sequence, events); // lost: a later batch is held behind the gap
            else deliver(p, m, { eventBatch: { sequence, events } });
          } else if (kind === "replay") {
            const first = [...m.lost.keys()].sort((a, b) => a - b)[0];
            if (first !== undefined) {
              deliver(p, m, { eventBatch: { sequence: first, events: m.lost.get(first) } });
              m.lost.delete(first);
            }
          } else if (kind === "snapshot") {
            const snapshotId = ++m.snapshotId;
            const all = items.map((x) => desc(x));
            if (n % 3 === 0 && all.length >= 2) {
              // in two parts; the second is lost when n is odd
              const half = all.length >> 1;
              deliver(p, m, { snapshot: { snapshotId, sequence: m.seq, part: 0, parts: 2, items: all.slice(0, half) } });
              check(`step ${i}: first part`);
              if (n % 2 === 0) {
                deliver(p, m, { snapshot: { snapshotId, sequence: m.seq, part: 1, parts: 2, items: all.slice(half) } });
                m.synced = true;
              }
            } else {
              deliver(p, m, { snapshot: { snapshotId, sequence: m.seq, items: all } });
              m.synced = true;
            }
          } else if (kind === "restart" || kind === "connect") {
            m.epoch++;
            m.seq = 0;
            m.snapshotId = 0;
            m.lost.clear();
            m.synced = false;
            // A restart heard (a heartbeat of the new epoch), or told by the deployment [P8].
            if (kind === "restart") deliver(p, m, { heartbeat: { sequence: now } });
            else {
              m.told = true;
              follow(p, { epoch: m.epoch, metadata: new Uint8Array([m.epoch]) });
            }
          } else if (kind === "stale") {
            // An older epoch's batch, or its answer to a request (a snapshot of items, on top of the view's).
            const stale: ectp.v1.IEnvelope =
              n % 2 === 0 ? { eventBatch: { sequence: m.seq + 1, events: [{ cleared: {} }] } } : { snapshot: { snapshotId: 99, sequence: m.seq + 5, items: items.map((x) => desc(x)) } };
            sub.handleEnvelope(p, from(p, m.epoch - 1, stale), now);
          } else if (kind === "unfollow") {
            sub.unfollow(p);
            order = order.filter((q) => q !== p);
            m.told = false; // a record followed anew knows nothing of it
            m.synced = false;
          } else if (kind === "follow") {
            // With its current epoch's metadata (given only now) when n is odd.
            follow(p, n % 2 === 1 ? { epoch: m.epoch, metadata: new Uint8Array([m.epoch]) } : undefined);
            if (n % 2 === 1) m.told = true;
          }
          else if (kind === "unreachable") sub.handlePeerUnreachable(p, now);
          else if (kind === "wait") now += n * 100;
          sub.poll(now);
          check(`step ${i}: ${kind} ${p}`);
        }
        for (const p of PRODUCERS) sub.unfollow(p);
        for (const n of ITEMS) expect(sub.holders(key(n))).toEqual([]);
        expect(indexSize(sub)).toBe(0); // [I4] the index does not outlive the views
      }),
      { numRuns: 400 },
    );
  });
});

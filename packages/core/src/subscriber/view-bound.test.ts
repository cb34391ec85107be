/**
 * A producer's view is bounded in bytes (`maxViewBytes`) [E2][I4]: what the subscriber counts is
 * exact through every kind of event; a snapshot whose parts pass the bound is dropped as they
 * arrive, and a batch that takes the view past it drops the view; after a drop the next
 * SnapshotRequest waits, longer after each drop in a row, and the wait never outlives the producer
 * epoch or the request it was for. (Several of these cases come from a review of the first version.)
 */
import { EctpError, type ectp, itemDescriptorByteLength } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { desc } from "../producer/test-helpers.js";
import { EventSubscriber } from "./subscriber.js";
import { P, batch, bodies, env, following, key, viewKeys } from "./test-support.js";

/** What the subscriber counts item `n` as holding: its key id's length plus its descriptor's encoded size. */
const bytesOf = (n: number): number => key(n).length + itemDescriptorByteLength(desc(n));
/** Room for three test items (their descriptors are all the same size). */
const THREE = bytesOf(1) * 3 + 10;

/** The bytes `sub`'s view of P holds, summed from the view itself. */
function viewedBytes(sub: EventSubscriber): number {
  let n = 0;
  for (const [k, d] of sub.view(P) ?? new Map()) n += k.length + itemDescriptorByteLength(d);
  return n;
}

/** A subscriber whose metric counts (by reason) and warnings are recorded. */
function recorded(options: { maxViewBytes: number; retryMs?: number }) {
  const ignored = new Map<string, number>();
  const warnings: string[] = [];
  const sub = following({
    ...options,
    metrics: {
      counter: (_name, value, labels) => ignored.set(String(labels?.reason), (ignored.get(String(labels?.reason)) ?? 0) + (value ?? 1)),
      gauge() {},
      histogram() {},
    },
    logger: { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} },
  });
  return { sub, ignored, warnings };
}

/** A whole snapshot `snapshotId` as of `sequence`, holding test items `items`. */
const snap = (snapshotId: number, sequence: number, items: number[]): ectp.v1.IEnvelope => ({
  snapshot: { snapshotId, sequence, items: items.map((n) => desc(n)) },
});
/** Part `index` of `parts` of snapshot `snapshotId` (as of sequence 0), holding test items `items`. */
const part = (snapshotId: number, index: number, parts: number, items: number[]): ectp.v1.IEnvelope => ({
  snapshot: { snapshotId, sequence: 0, part: index, parts, items: items.map((n) => desc(n)) },
});
/** Batch `sequence` removing test item `n`. */
const removed = (sequence: number, n: number): ectp.v1.IEnvelope => ({ eventBatch: { sequence, events: [{ removed: { key: desc(n).key } }] } });

/**
 * When, from `from` on (polled every 100 ms while P's epoch `epoch` heartbeats, for at most a
 * minute), `sub` next sends a SnapshotRequest.
 */
function nextSnapshotRequest(sub: EventSubscriber, from: number, epoch = 7): number | undefined {
  for (let t = from; t <= from + 60_000; t += 100) {
    sub.handleEnvelope(P, env(epoch, { heartbeat: { sequence: t } }), t);
    if (bodies(sub.poll(t)).includes("snapshotRequest")) return t;
  }
  return undefined;
}

describe("EventSubscriber maxViewBytes [E2][I4]", () => {
  it("counts exactly what the view holds through snapshots, Stored, a Stored again, Removed and Cleared", () => {
    const sub = following();
    sub.handleEnvelope(P, env(7, { snapshot: { snapshotId: 1, sequence: 0, items: [desc(1), desc(2), desc(1)] } }), 10); // item 1 twice
    expect(sub.stats().viewBytes).toBe(bytesOf(1) + bytesOf(2));
    const bigger: ectp.v1.IItemDescriptor = { ...desc(2), location: new Uint8Array(300) };
    const steps: ectp.v1.IEvent[][] = [
      [{ stored: { item: desc(3) } }, { stored: { item: desc(4) } }],
      [{ stored: { item: bigger } }], // item 2 again, with a location: replaced
      [{ removed: { key: desc(1).key } }, { removed: { key: desc(9).key } }], // 9 was never there
      [{ cleared: {} }, { stored: { item: desc(5) } }],
    ];
    steps.forEach((events, i) => {
      sub.handleEnvelope(P, env(7, { eventBatch: { sequence: i + 1, events } }), 20 + i);
      expect(sub.stats().viewBytes, `after batch ${i + 1}`).toBe(viewedBytes(sub));
    });
    expect(viewKeys(sub)).toEqual([key(5)]);
  });

  it("counts an entry as it was when set: a descriptor changed afterwards by its owner cannot make the count drift", () => {
    const sub = following({ maxViewBytes: THREE });
    sub.handleEnvelope(P, env(7, snap(1, 0, [])), 10);
    let seq = 0;
    for (let i = 0; i < 5; i++) {
      const d: ectp.v1.IItemDescriptor = { ...desc(1) };
      sub.handleEnvelope(P, env(7, { eventBatch: { sequence: ++seq, events: [{ stored: { item: d } }] } }), 20 + i);
      d.location = new Uint8Array(100_000); // kept by reference, then grown by whoever built it
      sub.handleEnvelope(P, env(7, removed(++seq, 1)), 20 + i);
    }
    expect(sub.stats().viewBytes).toBe(0);
    for (let n = 2; n <= 20; n++) sub.handleEnvelope(P, env(7, batch(++seq, n)), 100 + n);
    expect(sub.stats().viewBytes).toBeLessThanOrEqual(THREE);
  });

  it("drops a snapshot whose parts pass it, ignores its other parts, asks again with doubling waits, and takes an answer that fits", () => {
    const { sub, ignored, warnings } = recorded({ maxViewBytes: THREE, retryMs: 1_000 });
    sub.handleEnvelope(P, env(7, part(1, 0, 3, [1, 2])), 100);
    expect(sub.stats().snapshotParts).toBe(1);
    sub.handleEnvelope(P, env(7, part(1, 1, 3, [3, 4])), 200); // four items: past the bound
    sub.handleEnvelope(P, env(7, part(1, 2, 3, [5])), 300); // the rest of the dropped answer
    expect(sub.stats()).toMatchObject({ snapshotParts: 0, viewBytes: 0, snapshotsApplied: 0 });
    expect(sub.view(P)).toBeUndefined();
    expect(ignored.get("view_full")).toBe(2);
    expect(warnings.filter((w) => w.startsWith("snapshot dropped: it holds more than maxViewBytes"))).toHaveLength(1);
    // Asked again retryMs after the drop (t = 200), then each drop in a row doubles the wait.
    expect(nextSnapshotRequest(sub, 300)).toBe(1_200);
    sub.handleEnvelope(P, env(7, part(2, 0, 1, [1, 2, 3, 4])), 1_300); // the second drop in a row
    expect(nextSnapshotRequest(sub, 1_300)).toBe(3_300); // 2 x retryMs
    sub.handleEnvelope(P, env(7, part(3, 0, 1, [1, 2, 3, 4])), 3_400); // the third
    expect(nextSnapshotRequest(sub, 3_400)).toBe(7_400); // 4 x retryMs
    // The producer evicted one: its answer fits, and is taken.
    sub.handleEnvelope(P, env(7, part(4, 0, 1, [1, 2, 3])), 7_500);
    expect({ synced: sub.isSynced(P), view: viewKeys(sub), bytes: sub.stats().viewBytes }).toEqual({
      synced: true,
      view: [key(1), key(2), key(3)].sort(),
      bytes: bytesOf(1) * 3,
    });
  });

  it("the waits stop doubling at 32 x retryMs, and start over once the view stayed within the bound until a catch-up", () => {
    const { sub } = recorded({ maxViewBytes: bytesOf(1) * 2 + 10, retryMs: 100 });
    let t = 0;
    const waits: number[] = [];
    for (let id = 1; id <= 8; id++) {
      sub.handleEnvelope(P, env(7, snap(id, 0, [1, 2, 3])), t);
      const next = nextSnapshotRequest(sub, t + 100) as number;
      waits.push(next - t);
      t = next;
    }
    expect(waits).toEqual([100, 200, 400, 800, 1_600, 3_200, 3_200, 3_200]);
    // An answer that fits, then a catch-up (5 s later) with the view still within the bound.
    sub.handleEnvelope(P, env(7, snap(9, 0, [1, 2])), t);
    expect(sub.isSynced(P)).toBe(true);
    t += 5_100;
    sub.handleEnvelope(P, env(7, { heartbeat: { sequence: t } }), t);
    expect(bodies(sub.poll(t))).toContain("replayRequest");
    sub.handleEnvelope(P, env(7, batch(1, 3)), t + 50); // three items: dropped, the first drop in a row again
    expect((nextSnapshotRequest(sub, t + 60) as number) - (t + 50)).toBe(110); // retryMs (polled at t + 60, 160, ...), not 32 x
  });

  it("a producer sitting at the bound, storing then evicting one item at a time, is not asked for a whole snapshot per batch", () => {
    const sub = following({ maxViewBytes: THREE, retryMs: 1_000 });
    sub.handleEnvelope(P, env(7, snap(1, 0, [1, 2, 3])), 10);
    let requests = 0;
    let seq = 0;
    for (let i = 0; i < 20; i++) {
      const t = 100 + i * 100;
      sub.handleEnvelope(P, env(7, batch(++seq, 4 + i)), t); // four items: past the bound
      sub.handleEnvelope(P, env(7, removed(++seq, 1 + i)), t + 1);
      sub.handleEnvelope(P, env(7, { heartbeat: { sequence: t } }), t + 2);
      const asked = bodies(sub.poll(t + 2)).filter((b) => b === "snapshotRequest").length;
      requests += asked;
      if (asked > 0) sub.handleEnvelope(P, env(7, snap(100 + i, seq, [2 + i, 3 + i, 4 + i])), t + 3); // an answer that fits
    }
    expect(requests).toBeLessThanOrEqual(4);
  });

  it("a batch that takes the view past it drops the view and asks for a snapshot once the wait is over; batches held meanwhile apply after the answer", () => {
    const { sub, ignored, warnings } = recorded({ maxViewBytes: THREE, retryMs: 1_000 });
    sub.handleEnvelope(P, env(7, snap(1, 0, [1, 2])), 10);
    sub.handleEnvelope(P, env(7, batch(1, 3)), 20); // three items: fits
    expect(sub.isSynced(P)).toBe(true);
    sub.handleEnvelope(P, env(7, batch(2, 4)), 30); // four: past it
    expect({ view: sub.view(P), synced: sub.isSynced(P), bytes: sub.stats().viewBytes }).toEqual({ view: undefined, synced: false, bytes: 0 });
    expect(ignored.get("view_full")).toBe(1);
    expect(warnings.filter((w) => w.startsWith("view dropped: the producer's items passed maxViewBytes"))).toHaveLength(1);
    // Batch 3 (item 1 removed) arrives while the view is dropped, and is held.
    sub.handleEnvelope(P, env(7, removed(3, 1)), 40);
    expect(nextSnapshotRequest(sub, 40)).toBe(1_040); // retryMs after the drop
    // The answer, as of sequence 2 (four items), does not fit: the second drop in a row.
    sub.handleEnvelope(P, env(7, snap(2, 2, [1, 2, 3, 4])), 1_050);
    expect(sub.view(P)).toBeUndefined();
    // The producer evicts item 4 (batch 4, held too); the next answer, as of sequence 4, fits.
    sub.handleEnvelope(P, env(7, removed(4, 4)), 1_060);
    expect(nextSnapshotRequest(sub, 1_100)).toBe(3_100); // 2 x retryMs after the drop at 1,050 (rounded up to the poll)
    sub.handleEnvelope(P, env(7, snap(3, 2, [1, 2, 3])), 3_150);
    // Taken as of sequence 2; the held batches 3 and 4 then apply.
    expect({ synced: sub.isSynced(P), view: viewKeys(sub), bytes: sub.stats().viewBytes }).toEqual({
      synced: true,
      view: [key(2), key(3)].sort(),
      bytes: bytesOf(2) * 2,
    });
  });

  it("held batches applied after a snapshot are bounded too: the one that passes it drops the view, and the rest stay held", () => {
    const { sub, ignored } = recorded({ maxViewBytes: THREE });
    // Batches 1 to 3 (items 3, 4, 5) arrive before the first snapshot, and are held.
    for (let s = 1; s <= 3; s++) sub.handleEnvelope(P, env(7, batch(s, s + 2)), 10 * s);
    expect(sub.stats().heldBatches).toBe(3);
    sub.handleEnvelope(P, env(7, snap(1, 0, [1, 2])), 40);
    // Batch 1 fits (three items), batch 2 passes the bound: the view is dropped and batch 3 stays held.
    expect({ view: sub.view(P), held: sub.stats().heldBatches, full: ignored.get("view_full"), bytes: sub.stats().viewBytes }).toEqual({
      view: undefined,
      held: 1,
      full: 1,
      bytes: 0,
    });
    expect(nextSnapshotRequest(sub, 40)).toBe(2_040); // retryMs (default 2 s) after the drop
  });

  it("empty parts of a snapshot in parts count against it (64 bytes each): an answer of endless empty parts is dropped, not held", () => {
    const { sub, ignored } = recorded({ maxViewBytes: 1_000 });
    const empty = (index: number, parts: number, items: number[] = []): ectp.v1.IEnvelope => ({
      snapshot: { snapshotId: 1, sequence: 0, part: index, parts, items: items.map((n) => desc(n)) },
    });
    // 15 empty parts of 1,000,000 are 960 bytes: held. The 16th passes the bound: the answer is dropped.
    for (let i = 0; i < 15; i++) sub.handleEnvelope(P, env(7, empty(i, 1_000_000)), 1 + i);
    expect(sub.stats().snapshotParts).toBe(15);
    sub.handleEnvelope(P, env(7, empty(15, 1_000_000)), 20);
    expect({ parts: sub.stats().snapshotParts, full: ignored.get("view_full") }).toEqual({ parts: 0, full: 1 });
    // A whole empty snapshot costs nothing, and a part holding an item counts only its item.
    const fresh = recorded({ maxViewBytes: bytesOf(1) }).sub;
    fresh.handleEnvelope(P, env(7, { snapshot: { snapshotId: 1, sequence: 0, items: [] } }), 1);
    expect(fresh.stats()).toMatchObject({ snapshotsApplied: 1, viewBytes: 0 });
    fresh.handleEnvelope(P, env(7, { snapshot: { snapshotId: 2, sequence: 1, part: 0, parts: 2, items: [desc(1)] } }), 2);
    expect(fresh.stats().snapshotParts).toBe(1);
  });

  it("a producer publishing Stored events without end never takes the view past it", () => {
    const max = 50_000;
    const { sub } = recorded({ maxViewBytes: max });
    sub.handleEnvelope(P, env(7, snap(1, 0, [])), 10);
    let most = 0;
    for (let s = 1; s <= 2_000; s++) {
      sub.handleEnvelope(P, env(7, batch(s, s)), 10 + s);
      most = Math.max(most, sub.stats().viewBytes);
    }
    expect(most).toBeGreaterThan(max / 2);
    expect(most).toBeLessThanOrEqual(max);
  });

  it("a producer whose snapshot_id does not grow is still followed once its answer fits", () => {
    const sub = following({ maxViewBytes: THREE, retryMs: 1_000 });
    sub.handleEnvelope(P, env(7, snap(1, 0, [1, 2, 3, 4])), 100); // too large: dropped
    sub.handleEnvelope(P, env(7, removed(1, 4)), 150); // the producer evicts item 4
    for (let t = 200; t <= 60_000 && !sub.isSynced(P); t += 100) {
      sub.handleEnvelope(P, env(7, { heartbeat: { sequence: t } }), t);
      if (bodies(sub.poll(t)).includes("snapshotRequest")) sub.handleEnvelope(P, env(7, snap(1, 1, [1, 2, 3])), t); // id 1 again
    }
    expect(viewKeys(sub)).toEqual([key(1), key(2), key(3)].sort());
  });

  it("late parts of an answer dropped before the latest one are ignored, not assembled", () => {
    const { sub, ignored } = recorded({ maxViewBytes: THREE, retryMs: 1_000 });
    const p10 = (id: number, i: number) => env(7, { snapshot: { snapshotId: id, sequence: 0, part: i, parts: 10, items: [desc(i + 1)] } });
    for (let i = 0; i <= 3; i++) sub.handleEnvelope(P, p10(5, i), 100 + i); // answer 5 dropped at its part 3
    for (let i = 0; i <= 3; i++) sub.handleEnvelope(P, p10(6, i), 1_200 + i); // answer 6 dropped at its part 3
    for (let i = 4; i <= 6; i++) sub.handleEnvelope(P, p10(5, i), 1_300 + i); // answer 5's tail, late
    expect(sub.stats().snapshotParts).toBe(0);
    expect(ignored.get("view_full")).toBe(5); // two drops and three late parts
  });

  it("the wait after a drop never outlives the producer epoch: a restarted producer is asked within retryMs", () => {
    const sub = following({ maxViewBytes: THREE, retryMs: 1_000 });
    sub.handleEnvelope(P, env(7, snap(1, 0, [1])), 10);
    expect(bodies(sub.poll(7_000))).toContain("snapshotRequest"); // silent for 6 s: subscribed to anew
    let t = 7_100;
    for (let id = 2; id <= 7; id++) {
      sub.handleEnvelope(P, env(7, snap(id, 0, [1, 2, 3, 4])), t); // six drops in a row: the wait is 32 s
      if (id < 7) t = nextSnapshotRequest(sub, t + 100) as number;
    }
    const restart = t + 100;
    sub.handleEnvelope(P, env(8, { hello: { role: 1 as ectp.v1.Role, heartbeatIntervalMs: 500 } }), restart);
    expect((nextSnapshotRequest(sub, restart, 8) as number) - restart).toBeLessThanOrEqual(1_000);
  });

  it("an answer that fits ends the wait (it never outlives the request it was for): a ReplayUnavailable then asks at once, and a producer found unreachable is greeted and asked within retryMs", () => {
    /** Six drops in a row (a 32 s wait), then a late answer that fits; returns when it was taken. */
    const syncedAfterSixDrops = (sub: EventSubscriber): number => {
      let t = 100;
      for (let id = 1; id <= 6; id++) {
        sub.handleEnvelope(P, env(7, snap(id, 0, [1, 2, 3, 4])), t);
        if (id < 6) t = nextSnapshotRequest(sub, t + 100) as number;
      }
      sub.handleEnvelope(P, env(7, removed(1, 4)), t + 10);
      sub.handleEnvelope(P, env(7, snap(7, 1, [1, 2, 3])), t + 20);
      expect(sub.isSynced(P)).toBe(true);
      sub.poll(t + 20);
      return t + 20;
    };
    const replay = following({ maxViewBytes: THREE, retryMs: 1_000 });
    const t = syncedAfterSixDrops(replay);
    replay.handleEnvelope(P, env(7, batch(3, 5)), t + 100); // a gap
    replay.poll(t + 100);
    replay.handleEnvelope(P, env(7, { replayUnavailable: { oldestAvailable: 3, latest: 3 } }), t + 200);
    expect(bodies(replay.poll(t + 200))).toContain("snapshotRequest");

    const gone = following({ maxViewBytes: THREE, retryMs: 1_000 });
    const u = syncedAfterSixDrops(gone);
    gone.handlePeerUnreachable(P, u + 500);
    let asked: number | undefined;
    let out: (string | undefined)[] = [];
    for (let v = u + 500; v <= u + 60_000 && asked === undefined; v += 100) {
      out = bodies(gone.poll(v));
      if (out.includes("snapshotRequest")) asked = v;
    }
    expect((asked as number) - (u + 500)).toBeLessThanOrEqual(1_000);
    expect(out.indexOf("hello")).toBeGreaterThanOrEqual(0);
    expect(out.indexOf("hello")).toBeLessThan(out.indexOf("snapshotRequest")); // greeted first [P8]
  });

  it("a new epoch's first message, a snapshot part dropped for size, is not answered with a SnapshotRequest at once", () => {
    const sub = following({ maxViewBytes: THREE, retryMs: 1_000 });
    sub.handleEnvelope(P, env(7, snap(1, 0, [1])), 10);
    sub.poll(10);
    sub.handleEnvelope(P, env(8, { snapshot: { snapshotId: 1, sequence: 0, part: 0, parts: 2, items: [1, 2, 3, 4].map((n) => desc(n)) } }), 100);
    const asked = (t: number) => bodies(sub.poll(t)).filter((b) => b === "snapshotRequest").length;
    expect(asked(100)).toBe(0);
    expect(asked(1_100)).toBe(1); // retryMs after the drop
  });

  it("a newer epoch starts afresh: an answer with the id of one dropped at the older epoch is taken", () => {
    const { sub } = recorded({ maxViewBytes: bytesOf(1) * 2 + 10 });
    sub.handleEnvelope(P, env(7, snap(1, 0, [1, 2, 3])), 10);
    sub.handleEnvelope(P, env(8, snap(1, 0, [1, 2])), 20); // the producer restarted; its ids start over
    expect(viewKeys(sub)).toEqual([key(1), key(2)].sort());
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses maxViewBytes %s (INVALID_CONFIG)", (maxViewBytes) => {
    expect(() => new EventSubscriber({ id: "R", epoch: 1, maxViewBytes })).toThrow(EctpError);
    expect(() => new EventSubscriber({ id: "R", epoch: 1, maxViewBytes })).toThrow(/options\.maxViewBytes must be a positive integer/);
  });
});

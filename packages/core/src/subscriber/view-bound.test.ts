/**
 * A producer's view is bounded in bytes (`maxViewBytes`) [E2][I4]: what the subscriber counts is
 * exact through every kind of event; a snapshot whose parts pass the bound is dropped as they
 * arrive and asked for again, waiting longer after each answer dropped in a row; a batch that takes
 * the view past it drops the view and asks for a snapshot, taken once the producer holds less.
 */
import { EctpError, type ectp, itemDescriptorByteLength } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { desc } from "../producer/test-helpers.js";
import { EventSubscriber } from "./subscriber.js";
import { P, batch, bodies, env, following, key, viewKeys } from "./test-support.js";

/** What the subscriber counts item `n` as holding: its key id's length plus its descriptor's encoded size. */
const bytesOf = (n: number): number => key(n).length + itemDescriptorByteLength(desc(n));

/** The bytes `sub`'s view of P holds, summed from the view itself. */
function viewedBytes(sub: EventSubscriber): number {
  let n = 0;
  for (const [k, d] of sub.view(P) ?? new Map()) n += k.length + itemDescriptorByteLength(d);
  return n;
}

/** A subscriber whose metric counts and warnings are recorded. */
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

/** A snapshot part of answer `snapshotId` (as of sequence 0) holding test items `items`. */
function part(snapshotId: number, index: number, parts: number, items: number[]): ectp.v1.IEnvelope {
  return { snapshot: { snapshotId, sequence: 0, part: index, parts, items: items.map((n) => desc(n)) } };
}

/** When, from `from` on (polled every 100 ms while P heartbeats, for at most a minute), `sub` next sends a SnapshotRequest. */
function nextSnapshotRequest(sub: EventSubscriber, from: number): number | undefined {
  for (let t = from; t <= from + 60_000; t += 100) {
    sub.handleEnvelope(P, env(7, { heartbeat: { sequence: t } }), t);
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

  it("drops a snapshot whose parts pass it, ignores its other parts, asks again with doubling waits, and takes an answer that fits", () => {
    const max = bytesOf(1) * 3 + 10; // room for three test items (their descriptors are the same size)
    const { sub, ignored, warnings } = recorded({ maxViewBytes: max, retryMs: 1_000 });
    sub.handleEnvelope(P, env(7, part(1, 0, 3, [1, 2])), 100);
    expect(sub.stats().snapshotParts).toBe(1);
    sub.handleEnvelope(P, env(7, part(1, 1, 3, [3, 4])), 200); // four items: past the bound
    sub.handleEnvelope(P, env(7, part(1, 2, 3, [5])), 300); // the rest of the dropped answer
    expect(sub.stats()).toMatchObject({ snapshotParts: 0, viewBytes: 0, snapshotsApplied: 0 });
    expect(sub.view(P)).toBeUndefined();
    expect(ignored.get("view_full")).toBe(2);
    expect(warnings.filter((w) => w.startsWith("snapshot dropped: it holds more than maxViewBytes"))).toHaveLength(1);
    // Asked again retryMs after the last part taken (t = 200), then each dropped answer doubles the wait.
    expect(nextSnapshotRequest(sub, 300)).toBe(1_200);
    sub.handleEnvelope(P, env(7, part(2, 0, 1, [1, 2, 3, 4])), 1_300); // dropped again (second in a row)
    expect(nextSnapshotRequest(sub, 1_300)).toBe(3_300); // 2 x retryMs
    sub.handleEnvelope(P, env(7, part(3, 0, 1, [1, 2, 3, 4])), 3_400); // third in a row
    expect(nextSnapshotRequest(sub, 3_400)).toBe(7_400); // 4 x retryMs
    // The producer evicted one: its answer fits, and is taken.
    sub.handleEnvelope(P, env(7, part(4, 0, 1, [1, 2, 3])), 7_500);
    expect({ synced: sub.isSynced(P), view: viewKeys(sub), bytes: sub.stats().viewBytes }).toEqual({
      synced: true,
      view: [key(1), key(2), key(3)].sort(),
      bytes: bytesOf(1) * 3,
    });
    // Applied: the next drop waits retryMs again, not 8 x.
    sub.handleEnvelope(P, env(7, { replayUnavailable: { oldestAvailable: 5, latest: 9 } }), 7_600);
    sub.poll(7_600);
    sub.handleEnvelope(P, env(7, part(5, 0, 1, [1, 2, 3, 4])), 7_700);
    expect(nextSnapshotRequest(sub, 7_700)).toBe(8_700);
  });

  it("the waits stop doubling at 32 x retryMs", () => {
    const { sub } = recorded({ maxViewBytes: bytesOf(1), retryMs: 100 });
    let t = 0;
    const waits: number[] = [];
    for (let id = 1; id <= 8; id++) {
      sub.handleEnvelope(P, env(7, part(id, 0, 1, [1, 2])), t);
      const next = nextSnapshotRequest(sub, t + 100) as number;
      waits.push(next - t);
      t = next;
    }
    expect(waits).toEqual([100, 200, 400, 800, 1_600, 3_200, 3_200, 3_200]);
  });

  it("a batch that takes the view past it drops the view and asks for a snapshot; batches held meanwhile apply after the answer", () => {
    const max = bytesOf(1) * 3 + 10;
    const { sub, ignored, warnings } = recorded({ maxViewBytes: max });
    sub.handleEnvelope(P, env(7, { snapshot: { snapshotId: 1, sequence: 0, items: [desc(1), desc(2)] } }), 10);
    sub.handleEnvelope(P, env(7, batch(1, 3)), 20); // three items: fits
    expect(sub.isSynced(P)).toBe(true);
    sub.handleEnvelope(P, env(7, batch(2, 4)), 30); // four: past it
    expect({ view: sub.view(P), synced: sub.isSynced(P), bytes: sub.stats().viewBytes }).toEqual({ view: undefined, synced: false, bytes: 0 });
    expect(ignored.get("view_full")).toBe(1);
    expect(warnings.filter((w) => w.startsWith("view dropped: the producer's items passed maxViewBytes"))).toHaveLength(1);
    expect(bodies(sub.poll(30))).toContain("snapshotRequest");
    // Batch 3 removes item 1 and arrives before the answer (as of sequence 2, four items: too many).
    sub.handleEnvelope(P, env(7, { eventBatch: { sequence: 3, events: [{ removed: { key: desc(1).key } }] } }), 40);
    sub.handleEnvelope(P, env(7, { snapshot: { snapshotId: 2, sequence: 2, items: [1, 2, 3, 4].map((n) => desc(n)) } }), 50);
    expect(sub.view(P)).toBeUndefined();
    // The producer evicted item 4 (batch 4); its next answer, as of sequence 4, fits.
    sub.handleEnvelope(P, env(7, { eventBatch: { sequence: 4, events: [{ removed: { key: desc(4).key } }] } }), 60);
    sub.handleEnvelope(P, env(7, { snapshot: { snapshotId: 3, sequence: 2, items: [1, 2, 3].map((n) => desc(n)) } }), 2_100);
    // Taken as of sequence 2; held batches 3 and 4 then apply.
    expect({ synced: sub.isSynced(P), view: viewKeys(sub), bytes: sub.stats().viewBytes }).toEqual({
      synced: true,
      view: [key(2), key(3)].sort(),
      bytes: bytesOf(2) * 2,
    });
  });

  it("held batches applied after a snapshot are bounded too: the one that passes it drops the view, and the rest stay held", () => {
    const { sub, ignored } = recorded({ maxViewBytes: bytesOf(1) * 3 + 10 });
    // Batches 1 to 3 (items 3, 4, 5) arrive before the first snapshot, and are held.
    for (let s = 1; s <= 3; s++) sub.handleEnvelope(P, env(7, batch(s, s + 2)), 10 * s);
    expect(sub.stats().heldBatches).toBe(3);
    sub.handleEnvelope(P, env(7, { snapshot: { snapshotId: 1, sequence: 0, items: [desc(1), desc(2)] } }), 40);
    // Batch 1 fits (three items), batch 2 passes the bound: the view is dropped and batch 3 stays held.
    expect({ view: sub.view(P), held: sub.stats().heldBatches, full: ignored.get("view_full"), bytes: sub.stats().viewBytes }).toEqual({
      view: undefined,
      held: 1,
      full: 1,
      bytes: 0,
    });
    expect(bodies(sub.poll(40))).toContain("snapshotRequest");
  });

  it("a producer publishing Stored events without end never takes the view past it", () => {
    const max = 50_000;
    const { sub } = recorded({ maxViewBytes: max });
    sub.handleEnvelope(P, env(7, { snapshot: { snapshotId: 1, sequence: 0 } }), 10);
    let most = 0;
    for (let s = 1; s <= 2_000; s++) {
      sub.handleEnvelope(P, env(7, batch(s, s)), 10 + s);
      most = Math.max(most, sub.stats().viewBytes);
    }
    expect(most).toBeGreaterThan(max / 2);
    expect(most).toBeLessThanOrEqual(max);
  });

  it("a newer epoch starts afresh: an answer with the id of one dropped at the older epoch is taken", () => {
    const { sub } = recorded({ maxViewBytes: bytesOf(1) * 2 + 10 });
    sub.handleEnvelope(P, env(7, part(1, 0, 1, [1, 2, 3])), 10);
    sub.handleEnvelope(P, env(8, part(1, 0, 1, [1, 2])), 20); // the producer restarted; its ids start over
    expect(viewKeys(sub)).toEqual([key(1), key(2)].sort());
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses maxViewBytes %s (INVALID_CONFIG)", (maxViewBytes) => {
    expect(() => new EventSubscriber({ id: "R", epoch: 1, maxViewBytes })).toThrow(EctpError);
    expect(() => new EventSubscriber({ id: "R", epoch: 1, maxViewBytes })).toThrow(/options\.maxViewBytes must be a positive integer/);
  });
});

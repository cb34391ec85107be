/**
 * Snapshot assemblies nobody completes, a late answer to an older SnapshotRequest, and the held
 * batches' byte bound against key ids (a review of 2026-12-04): each test failed before its fix.
 */
import { encodeEnvelope } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { desc } from "../producer/test-helpers.js";
import type { EventSubscriber } from "./subscriber.js";
import { P, batch, bodies, env, following } from "./test-support.js";

/** [I4] What a subscriber's private tables hold beyond its views, each as a line ([] when nothing). */
function subscriberTablesLeft(sub: EventSubscriber): string[] {
  const t = sub as unknown as {
    followed: Map<string, { id: string; held: { size: number }; heldEvents: number; heldBytes: number; assembly?: { got: { size: number } } }>;
    transportHolds: Set<string>;
  };
  const left: string[] = [];
  for (const f of t.followed.values()) {
    if (f.held.size !== 0 || f.heldEvents !== 0 || f.heldBytes !== 0) left.push(`${f.id} held: ${f.held.size} (${f.heldEvents} events, ${f.heldBytes} bytes)`);
    if (f.assembly !== undefined) left.push(`${f.id} assembly: ${f.assembly.got.size} parts`);
  }
  for (const p of t.transportHolds) if (!t.followed.has(p)) left.push(`transport hold of unfollowed ${p}`);
  return left;
}

/**
 * Drive `sub` from `from` to `to` ms, every 100 ms, as a live producer (a heartbeat each time) that
 * answers each SnapshotRequest at once with a whole snapshot of `item` at `sequence`, its ids
 * counting 2, 3, ...; returns how many SnapshotRequests it got.
 */
function answerSnapshotRequests(sub: EventSubscriber, from: number, to: number, sequence: number, item: number): number {
  let requests = 0;
  let id = 2;
  for (let t = from; t <= to; t += 100) {
    for (const o of sub.poll(t))
      if (o.type === "send" && o.envelope.snapshotRequest) {
        requests++;
        sub.handleEnvelope(P, env(7, { snapshot: { sequence, snapshotId: id++, items: [desc(item)] } }), t);
      }
    sub.handleEnvelope(P, env(7, { heartbeat: { sequence: t } }), t);
  }
  return requests;
}

describe("snapshot assemblies nobody completes", () => {
  it("[I4][E2] a part of a second answer (the retry's) whose other parts are lost is not kept for good by a synced subscriber", () => {
    const sub = following({ retryMs: 2_000 });
    // The first answer arrives late (after the retry went out): whole, applied.
    sub.poll(2_000); // the retry SnapshotRequest
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 1, items: [desc(1)] } }), 2_100);
    // The answer to the retry is split; its part 1 is lost.
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 2, part: 0, parts: 2, items: [desc(1)] } }), 2_200);
    expect(sub.isSynced(P)).toBe(true);
    // An hour of an idle, live producer.
    for (let t = 2_300; t <= 3_600_000; t += 1_000) {
      sub.handleEnvelope(P, env(7, { heartbeat: { sequence: t } }), t);
      sub.poll(t);
    }
    expect(sub.isSynced(P)).toBe(true);
    expect({ stats: sub.stats().snapshotParts, tables: subscriberTablesLeft(sub) }).toEqual({ stats: 0, tables: [] });
  });

  it("[E2] one stray part with an absurd snapshot_id does not make every later snapshot answer ignored (asked for snapshots without end)", () => {
    const sub = following({ retryMs: 2_000 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1 } }), 10);
    // A buggy or hostile part: parts 2, the other never sent.
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: Number.MAX_SAFE_INTEGER - 1, part: 0, parts: 2, items: [desc(9)] } }), 20);
    sub.handleEnvelope(P, env(7, { replayUnavailable: { oldestAvailable: 5, latest: 9 } }), 30); // a gap the buffer cannot fill
    const requests = answerSnapshotRequests(sub, 30, 60_030, 9, 1);
    expect({ synced: sub.isSynced(P), fewRequests: requests <= 5 }).toEqual({ synced: true, fewRequests: true });
  });
});

describe("a late answer to an older SnapshotRequest", () => {
  it("[E2] does not close the SnapshotRequest a ReplayUnavailable made: isSynced stays false, no ReplayRequest the producer just refused goes out, and the request is retried after retryMs", () => {
    const sub = following({ retryMs: 2_000, catchUpMs: 5_000 });
    sub.poll(2_000); // the first answer is slow: the SnapshotRequest goes again
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 1, items: [desc(1)] } }), 2_100); // answer to the first
    for (let s = 4; s <= 10; s++) sub.handleEnvelope(P, env(7, batch(s, s)), 2_100 + s);
    expect(sub.isSynced(P)).toBe(true);
    // The producer published 11..20, all lost, and its buffer no longer holds 11: the catch-up is refused.
    sub.handleEnvelope(P, env(7, { replayUnavailable: { oldestAvailable: 15, latest: 20 } }), 2_500);
    expect(bodies(sub.poll(2_500))).toContain("snapshotRequest");
    expect(sub.isSynced(P)).toBe(false);
    // The answer to the retry of t=2000 arrives now, late: it reflects sequence 3, older than the view.
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 2, items: [desc(1)] } }), 2_600);
    // The view is still at 10 of the producer's 20: the SnapshotRequest of t=2500 is still unanswered (and its answer is lost).
    expect(sub.isSynced(P)).toBe(false);
    const requests = (t: number) => bodies(sub.poll(t)).filter((b) => b !== "heartbeat");
    expect(requests(2_600)).toEqual([]); // not a replay from 11: the buffer starts at 15
    expect(requests(4_600)).toEqual(["snapshotRequest"]);
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 20, snapshotId: 3, items: [desc(2)] } }), 4_700);
    expect({ synced: sub.isSynced(P), out: requests(4_700) }).toEqual({ synced: true, out: [] });
  });

  it("[E2] a producer whose ReplayUnavailable names a latest its snapshots never reach is not asked for snapshots without end: the request's one retry takes any answer, and the gap left is given up", () => {
    const sub = following({ retryMs: 2_000, catchUpMs: 5_000 });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 10, snapshotId: 1, items: [desc(1)] } }), 10);
    sub.handleEnvelope(P, env(7, { replayUnavailable: { oldestAvailable: 1, latest: 100 } }), 20); // wrong: it published 10
    const snapshotRequests = answerSnapshotRequests(sub, 20, 120_000, 10, 1);
    expect({ synced: sub.isSynced(P), snapshotRequests }).toEqual({ synced: true, snapshotRequests: 2 });
  });
});

describe("the held batches' byte bound", () => {
  it("[E2][I4] Removed events whose keys carry a large fingerprint model count against maxHeldBytes: they cannot make the hold grow past it", () => {
    const maxHeldBytes = 1 << 20;
    const sub = following({ maxHeldBytes });
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1 } }), 10);
    // One Removed event per batch whose key's model is 512 KiB (a frame may carry 16 MiB): batch 1 is lost, 2..17 arrive.
    const model = "m".repeat(512 << 10);
    for (let s = 2; s <= 17; s++) {
      const key = { contentHash: new Uint8Array([s]), fingerprint: { model } };
      // Over the wire, as a driver hands it: each decoded key is its own string.
      sub.handleMessage(P, encodeEnvelope(env(7, { eventBatch: { sequence: s, events: [{ removed: { key } }] } })), 20);
    }
    const f = (sub as unknown as { followed: Map<string, { held: Map<number, { ops: { keyId?: string }[] }> }> }).followed.get(P);
    let keptChars = 0;
    for (const b of f?.held.values() ?? []) for (const op of b.ops) keptChars += op.keyId?.length ?? 0;
    // 16 batches x 512 KiB of key ids are held against a 1 MiB bound (SPEC.md section 9: "a producer or a
    // network that sends thousands of batches past a gap cannot grow the subscriber's memory").
    expect({ fewHeld: sub.stats().heldBatches <= 2, withinBound: keptChars <= maxHeldBytes }).toEqual({ fewHeld: true, withinBound: true });
  });
});

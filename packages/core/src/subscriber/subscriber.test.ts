import { SPEC_VERSION, ectp, encodeEnvelope } from "@ectp/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryItemStore } from "../producer/memory-store.js";
import { ProducerCore } from "../producer/producer.js";
import { SeededRandom } from "../random.js";
import { CountingMetrics, FP, desc } from "../producer/test-helpers.js";
import type { Logger, MetricsSink } from "../observability.js";
import type { SendOutput } from "../outputs.js";
import { P, batch, bodies, env, following, key, readyKeys, replayFrom, viewKeys } from "./test-support.js";
import { EventSubscriber, type SubscriberOutput } from "./subscriber.js";


/** A producer (over its store) and a subscriber, linked by a network that may lose, duplicate and reorder. */
function rig(
  opts: {
    maxBatchBytes?: number;
    replayBufferBatches?: number;
    resendIntervalMs?: number;
    loss?: number;
    dup?: number;
    reorder?: number;
    seed?: number;
    logger?: Logger;
    metrics?: MetricsSink;
  } = {},
) {
  // Room for 12 items of 10 bytes: further puts evict the oldest ready ones [P6].
  const store = new MemoryItemStore({ capacityBytes: 120 });
  let epoch = 7;
  const config = { maxBatchBytes: opts.maxBatchBytes ?? 1 << 20, replayBufferBatches: opts.replayBufferBatches ?? 1024, resendIntervalMs: opts.resendIntervalMs, heartbeatIntervalMs: 100 };
  let producer = new ProducerCore({ id: P, epoch, fingerprint: FP, store, config });
  const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP, retryMs: 50, heartbeatIntervalMs: 100, catchUpMs: 100, logger: opts.logger, metrics: opts.metrics });
  const rnd = new SeededRandom(opts.seed ?? 1);
  let wire: { to: "producer" | "subscriber"; bytes: Uint8Array }[] = [];
  const faults = { loss: opts.loss ?? 0, dup: opts.dup ?? 0, reorder: opts.reorder ?? 0 };
  const post = (to: "producer" | "subscriber", env: ectp.v1.IEnvelope) => {
    if (rnd.next() < faults.loss) return;
    const bytes = encodeEnvelope(env);
    const copies = rnd.next() < faults.dup ? 2 : 1;
    for (let c = 0; c < copies; c++)
      if (rnd.next() < faults.reorder) wire.splice(Math.floor(rnd.next() * (wire.length + 1)), 0, { to, bytes });
      else wire.push({ to, bytes });
  };
  let now = 0;
  const step = (ms = 10) => {
    now += ms;
    for (const o of producer.poll(now)) if (o.type === "send" && o.peerId === "R") post("subscriber", o.envelope);
    for (const o of sub.poll(now)) if (o.type === "send") post("producer", o.envelope);
    const inFlight = wire;
    wire = [];
    for (const m of inFlight)
      if (m.to === "producer") producer.handleMessage("R", m.bytes, now);
      else sub.handleMessage(P, m.bytes, now);
  };
  const ready = () => readyKeys(store);
  const viewed = () => viewKeys(sub);
  const restart = () => {
    producer.shutdown(now);
    store.clear("reset");
    producer = new ProducerCore({ id: P, epoch: ++epoch, fingerprint: FP, store, config });
  };
  return { store, sub, step, ready, viewed, restart, faults, get now() { return now; }, get producer() { return producer; }, get epoch() { return epoch; } };
}

/** Put test item `n` (ready unless told otherwise) as the producer of `epoch` stores it (default 7, the first). */
function put(store: MemoryItemStore, n: number, ready = true, epoch = 7): void {
  const r = store.put({ ...desc(n), epoch });
  if (r.ok && ready) store.markReady(r.value.keyId);
}



describe("EventSubscriber [E1][E2]", () => {
  it("[E2] follows a producer: snapshot first, then batches; the view is its ready items", () => {
    const r = rig();
    put(r.store, 1);
    r.sub.follow(P, 0);
    expect(r.sub.view(P)).toBeUndefined();
    for (let i = 0; i < 3; i++) r.step();
    expect(r.viewed()).toEqual([key(1)]);
    put(r.store, 2);
    put(r.store, 3, false);
    r.store.discard(key(3));
    r.step();
    r.step();
    expect(r.viewed()).toEqual([key(1), key(2)].sort());
    for (let n = 10; n < 22; n++) put(r.store, n); // evicts 1 and 2 [P6]
    r.step();
    r.step();
    expect(r.viewed()).toEqual(r.ready());
    expect(r.viewed()).not.toContain(key(1));
    expect(r.sub.stats()).toMatchObject({ producers: 1, synced: 1, snapshotsApplied: 1 });
  });

  it("[E2] assembles a split snapshot by snapshot_id: parts of two answers are never mixed, older answers and bad parts are ignored", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow(P, 0);
    const snap = (snapshot: ectp.v1.ISnapshot) => sub.handleEnvelope(P, { version: SPEC_VERSION, senderId: P, senderEpoch: 7, snapshot }, 1);
    // Answer 2 (parts A,B | C) interleaved with answer 1 (parts D | E) of the same sequence.
    snap({ sequence: 3, snapshotId: 2, part: 1, parts: 2, items: [desc(3)] });
    snap({ sequence: 3, snapshotId: 1, part: 0, parts: 2, items: [desc(4)] }); // older answer: ignored
    snap({ sequence: 3, snapshotId: 2, part: 5, parts: 2, items: [desc(9)] }); // part >= parts: ignored
    snap({ sequence: 3, snapshotId: 2, part: 0, parts: 3, items: [desc(9)] }); // inconsistent count: ignored
    expect(sub.view(P)).toBeUndefined();
    snap({ sequence: 3, snapshotId: 2, part: 0, parts: 2, items: [desc(1), desc(2)] });
    expect([...(sub.view(P)?.keys() ?? [])].sort()).toEqual([key(1), key(2), key(3)].sort());
    snap({ sequence: 3, snapshotId: 1, part: 1, parts: 2, items: [desc(5)] }); // after the newer one: ignored
    expect(sub.view(P)?.size).toBe(3);
    expect(sub.stats()).toMatchObject({ snapshotsApplied: 1, ignoredMessages: 4 });
  });

  it("[C10][E2] a duplicate of a batch held behind a gap is ignored and counted, and the first copy is kept", () => {
    const sub = following();
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.handleEnvelope(P, env(7, batch(3, 3)), 2); // held: 1 and 2 are missing
    sub.handleEnvelope(P, env(7, batch(3, 3)), 3); // delivered again (at least once)
    sub.handleEnvelope(P, env(7, batch(3, 9)), 3); // a different body under the same sequence: not the one held
    expect(sub.stats()).toMatchObject({ heldBatches: 1, ignoredMessages: 2 });
    sub.handleEnvelope(P, env(7, batch(1, 1)), 4);
    sub.handleEnvelope(P, env(7, batch(2, 2)), 4);
    expect([...(sub.view(P)?.keys() ?? [])].sort()).toEqual([key(1), key(2), key(3)].sort());
  });

  it("[E2] a gap is replayed; a gap the producer's buffer no longer holds is resolved by a new snapshot", () => {
    for (const replayBufferBatches of [1024, 2]) {
      const r = rig({ replayBufferBatches, resendIntervalMs: 0 }); // the second snapshot comes at once
      r.sub.follow(P, 0);
      r.step();
      r.step();
      r.faults.loss = 1; // batches 1..4 are lost
      for (let n = 1; n <= 4; n++) {
        put(r.store, n);
        r.step();
      }
      r.faults.loss = 0;
      put(r.store, 5);
      for (let i = 0; i < 5; i++) r.step();
      expect(r.viewed()).toEqual(r.ready());
      expect(r.sub.stats()).toMatchObject({ replayRequests: 1, snapshotsApplied: replayBufferBatches === 2 ? 2 : 1 });
    }
  });

  it("[E2][P8] a restarted producer (new epoch) is found again: the view is rebuilt from its snapshot; isSynced is false meanwhile", () => {
    const r = rig();
    put(r.store, 1);
    expect(r.sub.isSynced(P)).toBe(false); // not followed
    r.sub.follow(P, 0);
    expect(r.sub.isSynced(P)).toBe(false); // no snapshot yet
    for (let i = 0; i < 3; i++) r.step();
    expect(r.sub.isSynced(P)).toBe(true);
    r.restart();
    put(r.store, 2, true, r.epoch);
    const synced: boolean[] = [];
    for (let i = 0; i < 60; i++) {
      r.step(); // silence (3 x 100 ms), then a new Hello and SnapshotRequest reach the new epoch
      synced.push(r.sub.isSynced(P));
      // Meanwhile: the last view known (of the dead epoch), then none once the new epoch is heard.
      if (!synced.at(-1)) expect([JSON.stringify([key(1)]), undefined]).toContain(JSON.stringify(r.viewed()));
    }
    expect(synced).toContain(false);
    expect(synced.at(-1)).toBe(true);
    expect(r.viewed()).toEqual([key(2)]);
    expect(r.sub.stats()).toMatchObject({ snapshotsApplied: 2, synced: 1 });
    // Reported unreachable: not synced at once, though the view stays.
    r.sub.handlePeerUnreachable(P, r.now);
    expect(r.sub.isSynced(P)).toBe(false);
    expect(r.sub.stats().synced).toBe(0);
    expect(r.viewed()).toEqual([key(2)]);
  });

  it("[P8] a lost producer (silent, or reported unreachable) is counted and warned of once per outage, and logged when synced again; the synced gauge follows", () => {
    const logged: string[] = [];
    const record = (level: string) => (message: string, fields?: unknown) => logged.push(`${level}: ${message} ${JSON.stringify(fields)}`);
    const logger = { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") };
    const metrics = new CountingMetrics();
    const r = rig({ logger, metrics });
    r.sub.follow(P, 0);
    for (let i = 0; i < 3; i++) r.step();
    expect(r.sub.isSynced(P)).toBe(true);
    r.faults.loss = 1; // nothing gets through: silent past 3 x its 100 ms heartbeats, then again after each new subscription
    for (let i = 0; i < 150; i++) r.step();
    r.sub.handlePeerUnreachable(P, r.now); // within the same outage
    r.faults.loss = 0;
    for (let i = 0; i < 20 && !r.sub.isSynced(P); i++) r.step();
    expect(r.sub.isSynced(P)).toBe(true);
    r.step(); // the poll that finds it synced ends the outage
    r.sub.handlePeerUnreachable(P, r.now); // a new outage
    r.step();
    const lost = logged.filter((l) => l.includes("producer lost"));
    expect(lost).toEqual([
      `warn: producer lost; following it anew (it is not synced, and its view is kept until it answers) {"producerId":"E","epoch":7,"cause":"silent"}`,
      `warn: producer lost; following it anew (it is not synced, and its view is kept until it answers) {"producerId":"E","epoch":7,"cause":"unreachable"}`,
    ]);
    expect(logged.filter((l) => l.startsWith("debug: producer still lost")).length).toBeGreaterThan(1);
    expect(logged.filter((l) => l.startsWith("info: producer synced again"))).toEqual([
      expect.stringMatching(/^info: producer synced again \{"producerId":"E","epoch":7,"lostForMs":\d+(\.\d+)?\}$/),
    ]);
    expect(metrics.get("ectp_subscriber_producers_lost_total", { cause: "silent" })).toBe(1);
    expect(metrics.get("ectp_subscriber_producers_lost_total", { cause: "unreachable" })).toBe(1);
    expect(metrics.gauges.filter((g) => g.name === "ectp_subscriber_synced_producers").map((g) => g.value)).toEqual([0, 1, 0, 1, 0]);
  });

  it("[P8] a producer is judged by its Hello's interval, counted as at most 60 s: silent 3 x 60 s, it is subscribed to anew", () => {
    for (const [announced, againAt] of [
      [10_000, 31_000], // 3 x 10 s after its last message (at 1 s)
      [4_000_000_000, 181_000], // 3 x MAX_PEER_HEARTBEAT_INTERVAL_MS, not 3 x 46 days
    ] as const) {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      sub.follow(P, 0);
      sub.poll(0);
      sub.handleEnvelope(P, { version: SPEC_VERSION, senderId: P, senderEpoch: 7, hello: { role: ectp.v1.Role.ROLE_PRODUCER, heartbeatIntervalMs: announced } }, 1_000);
      sub.handleEnvelope(P, { version: SPEC_VERSION, senderId: P, senderEpoch: 7, snapshot: { snapshotId: 1, sequence: 0, items: [] } }, 1_000); // answered: no retry
      let helloAt: number | undefined;
      for (let t = 1_000; t <= 200_000 && helloAt === undefined; t += 1_000)
        if (sub.poll(t).some((o) => o.type === "send" && o.envelope.hello)) helloAt = t;
      expect(helloAt, `Hello interval ${announced}`).toBe(againAt);
    }
  });

  it("[C10] a Hello of a role that serves no events (CONSUMER, or none) is counted and not applied: its interval is not used", () => {
    for (const role of [ectp.v1.Role.ROLE_CONSUMER, undefined]) {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      sub.follow(P, 0);
      sub.poll(0);
      sub.handleEnvelope(P, { version: SPEC_VERSION, senderId: P, senderEpoch: 7, hello: { role, heartbeatIntervalMs: 10_000 } }, 1_000);
      sub.handleEnvelope(P, { version: SPEC_VERSION, senderId: P, senderEpoch: 7, snapshot: { snapshotId: 1, sequence: 0, items: [] } }, 1_000); // answered: no retry
      expect(sub.stats().ignoredMessages, `role ${role}`).toBe(1);
      let helloAt: number | undefined;
      for (let t = 1_000; t <= 60_000 && helloAt === undefined; t += 1_000)
        if (sub.poll(t).some((o) => o.type === "send" && o.envelope.hello)) helloAt = t;
      expect(helloAt, `role ${role}`).toBe(7_000); // 3 x its own 2 s after the last message, not 3 x 10 s
    }
  });

  describe("gone producers, restarts and sequence limits", () => {
    const wireOf = (epoch: number, body: ectp.v1.IEnvelope) => encodeEnvelope({ version: SPEC_VERSION, senderId: P, senderEpoch: epoch, ...body });
    const show = (outs: SubscriberOutput[]) =>
      outs.map((o) =>
        o.type === "send" ? (Object.keys(o.envelope).find((k) => !["version", "senderId", "senderEpoch"].includes(k)) as string) : `${o.type}${o.type === "connect-peer" ? `(${o.epoch})` : ""}`,
      );

    it("[P8] a gone producer is sent nothing before the new Hello, even when its late batch shows a gap or it answers ReplayUnavailable", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1, retryMs: 1_000 });
      sub.follow(P, 0, { epoch: 7, metadata: new Uint8Array([7]) });
      sub.poll(0);
      sub.handleMessage(P, wireOf(7, { snapshot: { sequence: 3, snapshotId: 1, items: [] } }), 1);
      sub.poll(1);
      sub.handlePeerUnreachable(P, 500);
      expect(show(sub.poll(500))).toEqual(["disconnect-peer"]);
      // A batch sent before the loss arrives late, past a gap (4 is missing): no ReplayRequest, no reconnect.
      sub.handleMessage(P, wireOf(7, { eventBatch: { sequence: 5, events: [{ stored: { item: desc(5) } }] } }), 600);
      expect(show(sub.poll(600))).toEqual([]);
      sub.handleMessage(P, wireOf(7, { replayUnavailable: { oldestAvailable: 5, latest: 9 } }), 700);
      expect(show(sub.poll(700))).toEqual([]);
      // retryMs after the last request: the new subscription, Hello first.
      expect(show(sub.poll(1_001))).toEqual(["connect-peer(7)", "hello", "snapshotRequest"]);
    });

    it("[P8] a producer gone through silence is forgotten as an unreachable one is: disconnect-peer, then connect-peer before the new Hello", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1, retryMs: 1_000, heartbeatIntervalMs: 1_000, catchUpMs: 1_000_000 });
      sub.follow(P, 0, { epoch: 7, metadata: new Uint8Array([7]) });
      expect(show(sub.poll(0))).toEqual(["connect-peer(7)", "hello", "snapshotRequest"]);
      sub.handleMessage(P, wireOf(7, { snapshot: { sequence: 3, snapshotId: 1, items: [] } }), 1);
      // Silent from 1 on: gone at 1 + 3 x 2 s (the default interval: its Hello never came).
      expect(show(sub.poll(6_000))).toEqual(["heartbeat"]);
      expect(show(sub.poll(6_001))).toEqual(["disconnect-peer", "connect-peer(7)", "hello", "snapshotRequest"]);
    });

    it("[P8] a newer producer epoch voids the older epoch's connection: disconnect-peer, and no reconnect with its metadata", () => {
      const warnings: [string, unknown][] = [];
      const logger = { debug() {}, info() {}, warn: (m: string, f?: unknown) => warnings.push([m, f]), error() {} };
      const sub = new EventSubscriber({ id: "R", epoch: 1, retryMs: 1_000, logger });
      sub.follow(P, 0, { epoch: 7, metadata: new Uint8Array([7]) });
      expect(show(sub.poll(0))).toEqual(["connect-peer(7)", "hello", "snapshotRequest"]);
      sub.handleMessage(P, wireOf(7, { snapshot: { sequence: 3, snapshotId: 1, items: [] } }), 1);
      sub.handleMessage(P, wireOf(8, { hello: { role: ectp.v1.Role.ROLE_PRODUCER } }), 10);
      expect(show(sub.poll(10))).toEqual(["disconnect-peer", "hello", "snapshotRequest"]);
      // The router is told what it must do: only the deployment knows epoch 8's metadata.
      expect(warnings).toEqual([[expect.stringContaining("call follow() with the new epoch's metadata"), { producerId: P, epoch: 8, connectionEpoch: 7 }]]);
      sub.handlePeerUnreachable(P, 20);
      expect(show(sub.poll(2_000))).toEqual(["hello", "snapshotRequest", "heartbeat"]); // no connect-peer(7)
      // A connection of an older epoch than the one seen is ignored; the new epoch's is used.
      sub.follow(P, 2_001, { epoch: 7, metadata: new Uint8Array([7]) });
      expect(show(sub.poll(2_001))).toEqual([]);
      sub.follow(P, 2_002, { epoch: 8, metadata: new Uint8Array([8]) });
      expect(show(sub.poll(2_002))).toEqual(["connect-peer(8)", "hello", "snapshotRequest"]);
    });

    it("[P8] a newer epoch that shows up while a new subscription is unanswered is greeted again, not asked again (SPEC.md 4: a Hello first to each epoch)", () => {
      // The subscription after silence (Hello, SnapshotRequest) may have gone out before the producer
      // restarted and reached the older epoch; the heartbeat that follows reached the new one. Without
      // a Hello now, the new epoch's first message from us would be that heartbeat or the next.
      const sub = new EventSubscriber({ id: "R", epoch: 1, retryMs: 50, heartbeatIntervalMs: 100, catchUpMs: 100_000 });
      sub.follow(P, 0);
      sub.poll(0);
      sub.handleMessage(P, wireOf(5, { snapshot: { sequence: 3, snapshotId: 1, items: [] } }), 1);
      expect(show(sub.poll(6_001))).toEqual(["hello", "snapshotRequest", "heartbeat"]); // silent 3 x 2 s: subscribed anew
      sub.handleMessage(P, wireOf(6, { hello: { role: ectp.v1.Role.ROLE_PRODUCER } }), 6_010);
      expect(show(sub.poll(6_010))).toEqual(["hello"]);
      expect(sub.stats().snapshotRequests).toBe(2); // the follow's and the new subscription's: none for the Hello
      // The first epoch heard of after following is not greeted again: the follow's Hello went to it or before it.
      const fresh = new EventSubscriber({ id: "R", epoch: 1, retryMs: 50 });
      fresh.follow(P, 0);
      fresh.poll(0);
      fresh.handleMessage(P, wireOf(5, { hello: { role: ectp.v1.Role.ROLE_PRODUCER } }), 10);
      expect(show(fresh.poll(10))).toEqual([]);
    });

    it("[P8][E2] a restart found through silence is subscribed to once: its Hello answers our new subscription (one snapshot)", () => {
      const store = new MemoryItemStore({ capacityBytes: 120 });
      const config = { heartbeatIntervalMs: 100 };
      let producer = new ProducerCore({ id: P, epoch: 7, fingerprint: FP, store, config });
      // No catch-up requests: the restart is found through silence alone.
      const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP, retryMs: 50, heartbeatIntervalMs: 100, catchUpMs: 100_000 });
      let now = 0;
      const step = () => {
        now += 10;
        const toSub = producer.poll(now).flatMap((o) => (o.type === "send" ? [encodeEnvelope(o.envelope)] : []));
        for (const o of sub.poll(now)) if (o.type === "send") producer.handleMessage("R", encodeEnvelope(o.envelope), now);
        for (const b of toSub) sub.handleMessage(P, b, now);
      };
      put(store, 1);
      sub.follow(P, 0);
      for (let i = 0; i < 10; i++) step();
      producer.shutdown(now);
      step();
      // The restarted process holds its item anew, stored under its own epoch.
      store.clear("reset");
      producer = new ProducerCore({ id: P, epoch: 8, fingerprint: FP, store, config });
      put(store, 1, true, 8);
      const before = sub.stats().snapshotRequests;
      for (let i = 0; i < 100; i++) step();
      expect(sub.view(P)?.size).toBe(1);
      expect(sub.stats().snapshotRequests - before).toBe(1);
    });

    it("[E2] a snapshot whose parts arrive slower than retryMs is not asked for again while they keep coming", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1, retryMs: 2_000 });
      sub.follow(P, 0);
      sub.poll(0);
      const part = (p: number) => wireOf(7, { snapshot: { sequence: 3, snapshotId: 1, part: p, parts: 3, items: [{ ...desc(p), epoch: 7 }] } });
      sub.handleMessage(P, part(0), 1_500);
      expect(show(sub.poll(2_500))).not.toContain("snapshotRequest"); // 2.5 s after the request, 1 s after a part
      sub.handleMessage(P, part(1), 3_000);
      expect(show(sub.poll(4_500))).not.toContain("snapshotRequest");
      sub.handleMessage(P, part(2), 4_600);
      expect(sub.view(P)?.size).toBe(3);
      expect(sub.stats().snapshotRequests).toBe(1);
      // Parts that stop coming are asked for again retryMs after the latest one.
      const other = new EventSubscriber({ id: "R", epoch: 1, retryMs: 2_000 });
      other.follow(P, 0);
      other.poll(0);
      other.handleMessage(P, part(0), 1_500);
      expect(show(other.poll(3_499))).not.toContain("snapshotRequest");
      expect(show(other.poll(3_500))).toContain("snapshotRequest");
    });

    it("[E2] held batches are bounded by their events too (maxHeldEvents); one past the bound is replayed, none is lost", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1, maxHeldEvents: 5 });
      sub.follow(P, 0);
      sub.poll(0);
      const stored = (...ns: number[]) => ns.map((n) => ({ stored: { item: { ...desc(n), epoch: 7 } } }));
      const batchOf = (sequence: number, ...ns: number[]) => wireOf(7, { eventBatch: { sequence, events: stored(...ns) } });
      sub.handleMessage(P, wireOf(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
      sub.handleMessage(P, batchOf(2, 4, 5, 6), 2); // past a gap: held (3 events)
      sub.handleMessage(P, batchOf(3, 7, 8, 9), 3); // 3 + 3 > 5: not held
      expect(sub.stats().heldBatches).toBe(1);
      sub.handleMessage(P, batchOf(1, 1, 2, 3), 4); // the gap filled: 1 and the held 2 apply
      expect(sub.view(P)?.size).toBe(6);
      expect(show(sub.poll(4))).toContain("replayRequest"); // from 3, seen but not held
      sub.handleMessage(P, batchOf(3, 7, 8, 9), 5);
      expect(sub.view(P)?.size).toBe(9);
      expect(sub.stats().heldBatches).toBe(0);
      expect(() => new EventSubscriber({ id: "R", epoch: 1, maxHeldEvents: 0 })).toThrow(/options.maxHeldEvents must be a positive integer/);
    });

    it("[E2][P8] a newer epoch whose first message is a snapshot part gets a Hello and no request; a still newer one is greeted and asked", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      sub.follow(P, 0);
      sub.poll(0);
      sub.handleMessage(P, wireOf(7, { snapshot: { sequence: 3, snapshotId: 1, items: [] } }), 1);
      sub.poll(1);
      sub.handleMessage(P, wireOf(8, { snapshot: { sequence: 0, snapshotId: 1, part: 0, parts: 2, items: [] } }), 2);
      expect(show(sub.poll(2))).toEqual(["hello"]); // the answer may be whole: no SnapshotRequest yet
      sub.handleMessage(P, wireOf(9, { eventBatch: { sequence: 1, events: [{ stored: { item: { ...desc(1), epoch: 9 } } }] } }), 3);
      expect(show(sub.poll(3))).toEqual(["hello", "snapshotRequest"]);
    });

    it("[E2][P8][C10] a newer epoch whose first message is a snapshot it ignores is greeted and asked at once: an ignored answer answers nothing", () => {
      // The ignored snapshots: a part numbered past its parts, and one of sequence 2^53 - 1 (malformed: the
      // ReplayRequest after it could not be sent). (One without a snapshot_id, the first of its epoch, is taken.)
      for (const snapshot of [
        { sequence: 0, snapshotId: 1, part: 2, parts: 2, items: [] },
        { sequence: Number.MAX_SAFE_INTEGER, snapshotId: 1, items: [] },
      ]) {
        const sub = new EventSubscriber({ id: "R", epoch: 1, retryMs: 1_000 });
        sub.follow(P, 0);
        sub.poll(0);
        sub.handleMessage(P, wireOf(7, { snapshot: { sequence: 3, snapshotId: 1, items: [] } }), 1);
        sub.poll(1);
        sub.handleMessage(P, wireOf(8, { snapshot }), 2);
        expect(sub.stats().ignoredMessages).toBe(1);
        expect(show(sub.poll(2))).toEqual(["hello", "snapshotRequest"]); // not only a retry_ms later
        expect(sub.stats().snapshotRequests).toBe(2);
        sub.handleMessage(P, wireOf(8, { snapshot: { sequence: 0, snapshotId: 1, items: [{ ...desc(1), epoch: 8 }] } }), 3);
        expect(sub.view(P)?.size).toBe(1);
      }
    });

    it("[P8][E2] an unanswered new subscription is sent again whole (Hello first); a later unanswered SnapshotRequest alone", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1, retryMs: 1_000, heartbeatIntervalMs: 10_000 });
      sub.follow(P, 0);
      expect(show(sub.poll(0))).toEqual(["hello", "snapshotRequest"]);
      // The retry may reach a restarted producer, which must be greeted before it is asked.
      expect(show(sub.poll(1_000))).toEqual(["hello", "snapshotRequest"]);
      sub.handleMessage(P, wireOf(7, { snapshot: { sequence: 3, snapshotId: 1, items: [] } }), 1_500);
      sub.handleMessage(P, wireOf(7, { replayUnavailable: { oldestAvailable: 9, latest: 12 } }), 1_600);
      expect(show(sub.poll(1_600))).toEqual(["snapshotRequest"]);
      expect(show(sub.poll(2_600))).toEqual(["snapshotRequest"]); // the epoch was greeted: asked again only
    });

    it("[P8][E2] a subscription still unanswered after the producer's first message (its Hello) is sent again whole, Hello first", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1, retryMs: 1_000, heartbeatIntervalMs: 10_000 });
      sub.follow(P, 0);
      expect(show(sub.poll(0))).toEqual(["hello", "snapshotRequest"]);
      sub.handleMessage(P, wireOf(7, { hello: { role: ectp.v1.Role.ROLE_PRODUCER } }), 10);
      // The SnapshotRequest was lost (or reached an epoch that restarted since): the retry may reach one we never greeted.
      expect(show(sub.poll(1_000))).toEqual(["hello", "snapshotRequest"]);
      sub.handleMessage(P, wireOf(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1_100);
      expect(sub.isSynced(P)).toBe(true);
    });

    it("[I1] a batch or snapshot sequence of 2^53 - 1 is malformed: the ReplayRequest after it could not be encoded", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      sub.follow(P, 0);
      sub.poll(0);
      const max = Number.MAX_SAFE_INTEGER;
      sub.handleMessage(P, wireOf(7, { snapshot: { sequence: max, snapshotId: 1, items: [] } }), 1);
      sub.handleMessage(P, wireOf(7, { snapshot: { sequence: 3, snapshotId: 2, items: [] } }), 2);
      sub.handleMessage(P, wireOf(7, { eventBatch: { sequence: max, events: [{ stored: { item: desc(1) } }] } }), 3);
      expect(sub.stats().ignoredMessages).toBe(2);
      for (const o of sub.poll(10_000)) if (o.type === "send") expect(() => encodeEnvelope(o.envelope)).not.toThrow();
      expect(sub.view(P)?.size).toBe(0);
    });
  });

  it("[I1][C10] ignores what it cannot use: unknown senders, spoofed ids, stale epochs, garbage, throwing getters", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow(P, 0);
    sub.handleMessage(P, new Uint8Array([0xff, 0xff]), 1);
    sub.handleEnvelope("X", { version: SPEC_VERSION, senderId: "X", senderEpoch: 1, eventBatch: { sequence: 1, events: [] } }, 1);
    sub.handleEnvelope(P, { version: SPEC_VERSION, senderId: "other", senderEpoch: 1, eventBatch: { sequence: 1, events: [] } }, 1);
    sub.handleEnvelope(P, { version: SPEC_VERSION, senderId: P, senderEpoch: 5, snapshot: { sequence: 0, snapshotId: 1, items: [] } }, 1);
    sub.handleEnvelope(P, { version: SPEC_VERSION, senderId: P, senderEpoch: 4, snapshot: { sequence: 0, snapshotId: 2, items: [] } }, 1);
    const hostile = Object.defineProperty({ version: SPEC_VERSION, senderId: P, senderEpoch: 5 }, "eventBatch", {
      get() {
        throw new Error("boom");
      },
    });
    expect(() => sub.handleEnvelope(P, hostile, 1)).not.toThrow();
    expect(sub.stats().ignoredMessages).toBe(5);
    expect(sub.view(P)?.size).toBe(0);
    expect(() => new EventSubscriber({ id: "", epoch: 1 })).toThrow(/options.id/);
    expect(() => new EventSubscriber({ id: "R", epoch: 1, retryMs: 0 })).toThrow(/options.retryMs must be a positive integer/);
    // [P8] the interval travels in every Hello as a uint32
    expect(() => new EventSubscriber({ id: "R", epoch: 1, heartbeatIntervalMs: 2 ** 32 })).toThrow(/options\.heartbeatIntervalMs must fit in 32 bits/);
    expect(() => new EventSubscriber({ id: "R", epoch: 1, heartbeatIntervalMs: 2 ** 32 - 1 })).not.toThrow();
  });

  describe("connections (transports that load a producer's metadata first)", () => {
    const meta7 = new Uint8Array([7, 7]);
    const meta8 = new Uint8Array([8, 8]);

    it("[P8] follow with a connection emits connect-peer before the first message; without one, none", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      sub.follow(P, 0, { epoch: 7, metadata: meta7 });
      sub.follow("other", 0);
      const out = sub.poll(0);
      expect(bodies(out)).toEqual(["connect-peer", "hello", "snapshotRequest", "hello", "snapshotRequest"]);
      expect(out[0]).toEqual({ type: "connect-peer", peerId: P, epoch: 7, metadata: meta7 });
      expect(out.slice(3).every((o) => o.type === "send" && o.peerId === "other")).toBe(true);
      expect(sub.isFollowing(P) && sub.isFollowing("other") && !sub.isFollowing("R")).toBe(true);
    });

    it("[P8] a producer the transport lost is forgotten at once (disconnect-peer) and subscribed to anew after retryMs, connecting first", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1, heartbeatIntervalMs: 100, retryMs: 1_000 });
      sub.follow(P, 0, { epoch: 7, metadata: meta7 });
      sub.poll(0);
      sub.handleEnvelope(P, { version: SPEC_VERSION, senderId: P, senderEpoch: 7, snapshot: { sequence: 0, snapshotId: 1, items: [] } }, 1);
      expect(bodies(sub.poll(100))).toEqual(["heartbeat"]);
      sub.handlePeerUnreachable(P, 101);
      sub.handlePeerUnreachable("unknown", 101); // ignored
      expect(bodies(sub.poll(102))).toEqual(["disconnect-peer"]);
      sub.handlePeerUnreachable(P, 103); // already forgotten: nothing more to forget
      expect(bodies(sub.poll(103))).toEqual([]);
      expect(sub.nextDeadline()).toBe(200); // the heartbeat; the new subscription waits for retryMs after the request at 0
      const out = sub.poll(1_000);
      expect(bodies(out)).toEqual(["connect-peer", "hello", "snapshotRequest", "heartbeat"]);
      expect(out[0]).toEqual({ type: "connect-peer", peerId: P, epoch: 7, metadata: meta7 });
      expect(sub.view(P)?.size).toBe(0); // the view stays until an answer replaces it
      // Still unreachable: the next attempt comes retryMs after this one, not at every poll.
      sub.handlePeerUnreachable(P, 1_001);
      expect(bodies(sub.poll(1_001))).toEqual(["disconnect-peer"]);
      expect(bodies(sub.poll(1_500))).toEqual([]); // nothing, not even a heartbeat, before the new Hello
      expect(bodies(sub.poll(2_000))).toContain("snapshotRequest");
    });

    it("[P8] following again: the same or an older epoch's connection changes nothing; a newer one reconnects and subscribes anew", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      sub.follow(P, 0, { epoch: 7, metadata: meta7 });
      sub.poll(0);
      sub.follow(P, 1, { epoch: 7, metadata: meta8 });
      sub.follow(P, 1, { epoch: 6, metadata: meta8 });
      sub.follow(P, 1);
      expect(bodies(sub.poll(1))).toEqual([]);
      sub.follow(P, 2, { epoch: 8, metadata: meta8 });
      const out = sub.poll(2);
      expect(bodies(out)).toEqual(["connect-peer", "hello", "snapshotRequest"]);
      expect(out[0]).toEqual({ type: "connect-peer", peerId: P, epoch: 8, metadata: meta8 });
      // A producer followed without a connection can be given one later.
      sub.follow("other", 3);
      sub.poll(3);
      sub.follow("other", 4, { epoch: 1, metadata: meta7 });
      expect(bodies(sub.poll(4))).toEqual(["connect-peer", "hello", "snapshotRequest"]);
    });

    it("unfollow drops what is still queued for the producer and forgets a connection the transport made", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      sub.follow(P, 0, { epoch: 7, metadata: meta7 });
      sub.follow("other", 0);
      sub.unfollow(P); // its connect, Hello and SnapshotRequest never went out: nothing to forget
      expect(sub.poll(0).every((o) => o.peerId === "other")).toBe(true);
      sub.follow(P, 1, { epoch: 7, metadata: meta7 });
      sub.poll(1);
      sub.unfollow(P);
      sub.unfollow("never-followed");
      expect(sub.poll(2)).toEqual([{ type: "disconnect-peer", peerId: P }]);
      expect(sub.isFollowing(P)).toBe(false);
      // A newer epoch's connect still queued does not stand for the connection already made: that
      // one is forgotten all the same.
      sub.follow(P, 3, { epoch: 7, metadata: meta7 });
      sub.poll(3);
      sub.follow(P, 4, { epoch: 8, metadata: meta7 });
      sub.unfollow(P);
      expect(sub.poll(5)).toEqual([{ type: "disconnect-peer", peerId: P }]);
    });

    it("[P8] a producer epoch greeted through a newer connection is not greeted again when its first message arrives", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      sub.follow(P, 0, { epoch: 7, metadata: meta7 });
      sub.handleEnvelope(P, { version: SPEC_VERSION, senderId: P, senderEpoch: 7, snapshot: { sequence: 0, snapshotId: 1, items: [] } }, 1);
      sub.poll(1);
      sub.follow(P, 2, { epoch: 8, metadata: meta8 });
      expect(bodies(sub.poll(2))).toEqual(["connect-peer", "hello", "snapshotRequest"]);
      sub.handleEnvelope(P, { version: SPEC_VERSION, senderId: P, senderEpoch: 8, hello: { role: ectp.v1.Role.ROLE_PRODUCER } }, 3);
      expect(bodies(sub.poll(3))).toEqual([]);
      expect(sub.view(P)).toBeUndefined(); // the old epoch's view is void
      sub.handleEnvelope(P, { version: SPEC_VERSION, senderId: P, senderEpoch: 8, snapshot: { sequence: 2, snapshotId: 1, items: [desc(1)] } }, 4);
      expect([...(sub.view(P)?.keys() ?? [])]).toEqual([key(1)]);
    });

    it("a malformed connection is an INVALID_ARGUMENT naming the field", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      expect(() => sub.follow(P, 0, { epoch: 0, metadata: meta7 })).toThrow(/connection.epoch must be a positive integer/);
      expect(() => sub.follow(P, 0, { epoch: 1.5, metadata: meta7 })).toThrow(/connection.epoch must be a positive integer \(the producer's epoch\); got 1.5$/);
      expect(() => sub.follow(P, 0, { epoch: 1, metadata: [1] as unknown as Uint8Array })).toThrow(/connection.metadata must be a Uint8Array \(the producer's transport metadata\); got an array$/);
      expect(() => sub.follow(P, 0, null as unknown as { epoch: number; metadata: Uint8Array })).toThrow(/connection must be an object/);
      expect(sub.isFollowing(P)).toBe(false);
    });

    it("a producer id that is not a non-empty string is an INVALID_ARGUMENT; nothing is followed", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      for (const [producerId, shown] of [["", '""'], [undefined, "nothing"], [7, "7"]])
        expect(() => sub.follow(producerId as string, 0)).toThrow(
          `[INVALID_ARGUMENT] follow: producerId must be a non-empty string (the producer's peer id); got ${shown}`,
        );
      expect(sub.poll(0)).toEqual([]);
      expect(sub.nextDeadline()).toBeUndefined();
    });
  });

  describe("review regressions", () => {
    it("[E2] a new epoch drops the older epoch's snapshot assembly and held batches: its own snapshot (ids from 1) syncs, nothing old applies", () => {
      const sub = following();
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 2, snapshotId: 4, items: [desc(1)] } }), 1);
      sub.handleEnvelope(P, env(7, batch(5, 2)), 2); // held behind a gap (3 and 4 missing)
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 6, snapshotId: 9, items: [desc(3)], part: 0, parts: 2 } }), 3); // half an answer
      expect(sub.stats()).toMatchObject({ synced: 0, heldBatches: 1 }); // behind a gap
      // Restarted: epoch 8's first snapshot (id 1, below the older epoch's 9) at sequence 4.
      sub.handleEnvelope(P, env(8, { snapshot: { sequence: 4, snapshotId: 1, items: [desc(7)] } }), 4);
      sub.handleEnvelope(P, env(8, batch(5, 8)), 5); // epoch 8's own batch 5 applies, not epoch 7's held one
      expect([...(sub.view(P)?.keys() ?? [])].sort()).toEqual([key(7), key(8)].sort());
      expect(sub.stats()).toMatchObject({ synced: 1, heldBatches: 0 });
    });

    it("[E2] held batches a snapshot has covered are dropped, not kept in the hold", () => {
      const sub = following();
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 2, snapshotId: 1, items: [] } }), 1);
      sub.handleEnvelope(P, env(7, batch(4, 1)), 2); // held: 3 is missing
      sub.handleEnvelope(P, env(7, { replayUnavailable: { oldestAvailable: 5, latest: 6 } }), 3);
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 6, snapshotId: 2, items: [desc(2)] } }), 4);
      expect(sub.stats()).toMatchObject({ synced: 1, heldBatches: 0 });
      expect([...(sub.view(P)?.keys() ?? [])]).toEqual([key(2)]);
    });

    // Mutant: drainHeld keeps a held batch whose sequence equals the applied one (`s >= applied`).
    it("[E2][I4] a held batch the snapshot's own sequence covers is dropped too, not kept in the hold", () => {
      const sub = following();
      sub.handleEnvelope(P, env(7, batch(6, 1)), 1); // before any snapshot: held
      expect(sub.stats()).toMatchObject({ synced: 0, heldBatches: 1 });
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 6, snapshotId: 1, items: [desc(2)] } }), 2); // as of batch 6
      expect(sub.stats()).toMatchObject({ synced: 1, heldBatches: 0 });
      expect([...(sub.view(P)?.keys() ?? [])]).toEqual([key(2)]);
    });

    it("[E2] a re-request sent by a batch still behind the gap counts as a retry too (polled only when batches arrive)", () => {
      const sub = following({ retryMs: 50, catchUpMs: 5_000 });
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 1, items: [] } }), 10);
      sub.handleEnvelope(P, env(7, batch(20, 250)), 10); // a buggy producer's batch, 17 ahead
      let replays = 0;
      for (let seq = 4; seq < 30; seq++) {
        const t = 10 + 30 * (seq - 3); // a real batch every 30 ms, more often than the retries
        sub.handleEnvelope(P, env(7, batch(seq, seq)), t);
        replays += replayFrom(sub.poll(t)).length;
        expect(sub.view(P)?.has(key(250))).toBe(false);
      }
      expect(replays).toBeLessThanOrEqual(4); // the request and three retries, then it is given up
      expect(sub.stats()).toMatchObject({ synced: 1, heldBatches: 0 });
      expect(sub.view(P)?.has(key(20))).toBe(true); // the real batch 20
    });

    it("[C10] an envelope without a body, or with one a subscriber never receives, is ignored and counted (SPEC.md 4)", () => {
      const sub = following();
      sub.handleEnvelope(P, env(7, { heartbeat: { sequence: 1 } }), 1); // liveness only: not counted
      expect(sub.stats().ignoredMessages).toBe(0);
      const head = { version: SPEC_VERSION, senderId: P, senderEpoch: 7 };
      sub.handleMessage(P, encodeEnvelope(head), 2); // no body
      sub.handleMessage(P, Uint8Array.from([...encodeEnvelope(head), 0xfa, 0x01, 0x00]), 3); // a newer minor's body (field 31)
      for (const body of [{ readRequest: { attemptId: 1 } }, { readGrant: { grantId: 1 } }, { snapshotRequest: {} }, { announcement: {} }])
        sub.handleEnvelope(P, env(7, body), 4);
      expect(sub.stats().ignoredMessages).toBe(6);
    });

    it("[E2] the retries of a gap that closed are not carried over to the next gap", () => {
      const sub = following({ retryMs: 50, catchUpMs: 5_000 });
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 2, snapshotId: 1, items: [] } }), 1);
      sub.handleEnvelope(P, env(7, batch(4, 1)), 10); // 3 is missing: asked for, then twice again
      for (const t of [10, 60, 110]) sub.poll(t);
      sub.handleEnvelope(P, env(7, batch(3, 2)), 120); // the gap closes
      sub.handleEnvelope(P, env(7, batch(6, 3)), 200); // a new gap: 5 is missing
      for (const t of [200, 250, 300]) sub.poll(t); // two retries for this gap: not given up
      sub.handleEnvelope(P, env(7, batch(5, 4)), 320);
      expect([...(sub.view(P)?.keys() ?? [])].sort()).toEqual([key(1), key(2), key(3), key(4)].sort());
      expect(sub.stats()).toMatchObject({ synced: 1, heldBatches: 0 });
    });

    it("[P8][C10] a second Hello of the same producer epoch is a duplicate: its interval changes nothing (SPEC.md 4.1)", () => {
      const sub = following({ heartbeatIntervalMs: 100, retryMs: 50 });
      sub.handleEnvelope(P, env(7, { hello: { role: ectp.v1.Role.ROLE_PRODUCER, heartbeatIntervalMs: 10_000 } }), 1);
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
      sub.handleEnvelope(P, env(7, { hello: { role: ectp.v1.Role.ROLE_PRODUCER, heartbeatIntervalMs: 500 } }), 2);
      expect(sub.stats()).toMatchObject({ synced: 1, ignoredMessages: 1 });
      sub.poll(2);
      // Silent from t=2: subscribed to anew after 3 x 10 s (the first Hello's), not 3 x 2 s.
      expect(bodies(sub.poll(30_001))).not.toContain("hello");
      expect(bodies(sub.poll(30_002))).toContain("hello");
      // The Hello answering that new subscription is applied afresh, not counted as a duplicate.
      sub.handleEnvelope(P, env(7, { hello: { role: ectp.v1.Role.ROLE_PRODUCER, heartbeatIntervalMs: 20_000 } }), 30_003);
      expect(sub.stats().ignoredMessages).toBe(1);
      // Its snapshot does not come: the subscription goes again whole, but nobody was declared gone
      // since that Hello, so the producer's answering Hello is a duplicate again [C10].
      expect(bodies(sub.poll(30_052))).toEqual(["hello", "snapshotRequest"]);
      sub.handleEnvelope(P, env(7, { hello: { role: ectp.v1.Role.ROLE_PRODUCER, heartbeatIntervalMs: 500 } }), 30_053);
      expect(sub.stats().ignoredMessages).toBe(2);
    });

    it("[P8] a new producer epoch is judged by the default interval until its own Hello, not the older epoch's", () => {
      const sub = following({ heartbeatIntervalMs: 100, retryMs: 50 });
      sub.handleEnvelope(P, env(7, { hello: { role: ectp.v1.Role.ROLE_PRODUCER, heartbeatIntervalMs: 60_000 } }), 1);
      // Restarted: its snapshot arrives (its Hello is lost) and the subscriber is synced with epoch 8.
      sub.handleEnvelope(P, env(8, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 2);
      sub.poll(2);
      expect(sub.stats()).toMatchObject({ synced: 1 });
      // Silent from t=2: subscribed to anew after 3 x 2 s (the default), not 3 x 60 s.
      expect(bodies(sub.poll(6_001))).not.toContain("hello");
      expect(bodies(sub.poll(6_002))).toContain("hello");
    });

    it("[E2] greets each producer with a Hello (events.v1, its fingerprint) before the SnapshotRequest; ignores another major", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP });
      sub.follow(P, 0);
      const out = sub.poll(0);
      expect(bodies(out)).toEqual(["hello", "snapshotRequest"]);
      expect((out[0] as SendOutput).envelope.hello).toMatchObject({ role: ectp.v1.Role.ROLE_CONSUMER, capabilities: ["events.v1"], fingerprint: FP });
      sub.handleEnvelope(P, { ...env(7, batch(1, 1)), version: { major: 2 } }, 1);
      expect(sub.stats().ignoredMessages).toBe(1);
    });

    it("[E2] a snapshot no newer than the view still lets held batches apply, and a gap behind them is replayed", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      sub.follow(P, 0);
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 5, snapshotId: 1, items: [] } }), 1);
      sub.handleEnvelope(P, env(7, batch(6, 6)), 2);
      sub.handleEnvelope(P, env(7, batch(8, 8)), 3); // 7 is missing
      sub.poll(3);
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 5, snapshotId: 2, items: [] } }), 4); // an old answer arrives
      expect(replayFrom(sub.poll(2_500))).toEqual([7]); // retried after retryMs (2 s), before the producer counts as silent
      sub.handleEnvelope(P, env(7, batch(7, 7)), 2_501);
      expect([...(sub.view(P)?.keys() ?? [])].sort()).toEqual([key(6), key(7), key(8)].sort());
      expect(sub.stats().synced).toBe(1);
    });

    it("[E2] batches dropped while the hold is full are replayed once the snapshot is applied", () => {
      const metrics = new CountingMetrics();
      const sub = new EventSubscriber({ id: "R", epoch: 1, maxHeldBatches: 1, metrics });
      sub.follow(P, 0);
      sub.handleEnvelope(P, env(7, batch(1, 1)), 1); // held
      sub.handleEnvelope(P, env(7, batch(2, 2)), 1); // dropped: the hold is full
      expect(sub.stats().heldBatches).toBe(1);
      expect(metrics.get("ectp_subscriber_ignored_messages_total", { reason: "hold_full" })).toBe(1);
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 2);
      expect(replayFrom(sub.poll(2))).toEqual([2]);
      expect(sub.stats()).toMatchObject({ synced: 0, heldBatches: 0 });
    });

    it("[E2] stats count the batches held and the snapshot parts being assembled; unfollow releases both", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      sub.follow(P, 0);
      for (let seq = 2; seq <= 4; seq++) sub.handleEnvelope(P, env(7, batch(seq, seq)), 1); // held: batch 1 is missing
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, part: 0, parts: 3, items: [desc(8)] } }), 1);
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, part: 2, parts: 3, items: [desc(9)] } }), 1);
      expect(sub.stats()).toMatchObject({ heldBatches: 3, snapshotParts: 2 });
      sub.unfollow(P);
      expect(sub.stats()).toMatchObject({ producers: 0, heldBatches: 0, snapshotParts: 0 });
    });

    it("[E2] a new producer epoch first seen in one part of a split snapshot is asked again when the rest is lost", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1, retryMs: 100 });
      sub.follow(P, 0);
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 3, snapshotId: 1, items: [desc(1)] } }), 1);
      sub.poll(1);
      sub.handleEnvelope(P, env(8, { snapshot: { sequence: 0, snapshotId: 1, part: 0, parts: 2, items: [desc(7)] } }), 10);
      expect(bodies(sub.poll(10))).toEqual(["hello"]); // the first message to epoch 8; this answer may still complete
      expect(bodies(sub.poll(110))).toContain("snapshotRequest");
      expect(sub.view(P)).toBeUndefined();
    });

    it("[E2] ReplayUnavailable: of a new epoch, one Hello and one SnapshotRequest; a stale one changes nothing", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      sub.follow(P, 0);
      sub.handleEnvelope(P, env(7, { snapshot: { sequence: 4, snapshotId: 1, items: [] } }), 1);
      sub.poll(1);
      sub.handleEnvelope(P, env(7, { replayUnavailable: { oldestAvailable: 1, latest: 3 } }), 2); // behind what we applied
      expect(bodies(sub.poll(2))).toEqual([]);
      sub.handleEnvelope(P, env(8, { replayUnavailable: { oldestAvailable: 0, latest: 0 } }), 3);
      expect(bodies(sub.poll(3))).toEqual(["hello", "snapshotRequest"]);
      expect(sub.view(P)).toBeUndefined();
    });

    it("[I1] a batch or snapshot whose getter throws half-way is ignored whole: the view keeps its state", () => {
      const sub = new EventSubscriber({ id: "R", epoch: 1 });
      sub.follow(P, 0);
      sub.handleEnvelope(P, env(3, { snapshot: { sequence: 4, snapshotId: 1, items: [desc(1)] } }), 1);
      const before = [key(1)];
      expect([...(sub.view(P)?.keys() ?? [])]).toEqual(before);
      const throwing = <T extends object>(target: T, field: string): T =>
        Object.defineProperty(target, field, {
          get() {
            throw new Error("boom");
          },
        });
      // The first two events are readable, the third is not: nothing of the batch applies.
      const events = [{ removed: { key: desc(1).key } }, { stored: { item: desc(2) } }, throwing({}, "stored")];
      sub.handleEnvelope(P, env(3, { eventBatch: { sequence: 5, events } }), 2);
      expect([...(sub.view(P)?.keys() ?? [])]).toEqual(before);
      // A newer snapshot whose second item's key throws: the view is not cleared nor half-filled.
      sub.handleEnvelope(P, env(3, { snapshot: { sequence: 9, snapshotId: 2, items: [desc(3), throwing(desc(4), "key")] } }), 3);
      expect([...(sub.view(P)?.keys() ?? [])]).toEqual(before);
      expect(sub.stats().ignoredMessages).toBe(2);
      // The readable batch 5 still applies: the failed one left `applied` where it was.
      sub.handleEnvelope(P, env(3, { eventBatch: { sequence: 5, events: events.slice(0, 2) } }), 4);
      expect([...(sub.view(P)?.keys() ?? [])]).toEqual([key(2)]);
      // Held behind a gap: batch 7 throws on receipt, so it is never held; 8 is. Batch 6 then
      // applies, 8 stays held behind the missing 7, and no event of 7 shows.
      sub.handleEnvelope(P, env(3, { eventBatch: { sequence: 7, events: [{ stored: { item: desc(7) } }, throwing({}, "removed")] } }), 5);
      sub.handleEnvelope(P, env(3, { eventBatch: { sequence: 8, events: [{ stored: { item: desc(8) } }] } }), 5);
      sub.handleEnvelope(P, env(3, { eventBatch: { sequence: 6, events: [{ stored: { item: desc(6) } }] } }), 6);
      expect([...(sub.view(P)?.keys() ?? [])].sort()).toEqual([key(2), key(6)].sort());
      sub.handleEnvelope(P, env(3, { eventBatch: { sequence: 7, events: [{ stored: { item: desc(7) } }] } }), 7); // the replay
      expect([...(sub.view(P)?.keys() ?? [])].sort()).toEqual([key(2), key(6), key(7), key(8)].sort());
      expect(sub.stats().ignoredMessages).toBe(3);
    });

    it("a producer's HandshakeReject is counted and logged; unfollow drops the producer and its view", () => {
      const warnings: string[] = [];
      const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
      const sub = new EventSubscriber({ id: "R", epoch: 1, logger });
      sub.follow(P, 0);
      sub.handleEnvelope(P, env(7, { handshakeReject: { reason: ectp.v1.FailureReason.FAILURE_REASON_INCOMPATIBLE } }), 1);
      expect(warnings).toEqual(["producer refused this subscriber's Hello"]);
      expect(sub.stats()).toMatchObject({ ignoredMessages: 1, producers: 1 });
      sub.unfollow(P);
      expect(sub.stats().producers).toBe(0);
      expect(sub.view(P)).toBeUndefined();
      sub.poll(1); // what follow() queued still goes out
      expect(sub.nextDeadline()).toBeUndefined();
    });

    it("[E2] a batch far past anything the producer published is dropped after three unanswered replays; catching up goes on", () => {
      const warnings: string[] = [];
      const r = rig({ logger: { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} } });
      r.sub.follow(P, 0);
      for (let i = 0; i < 3; i++) r.step();
      put(r.store, 1);
      r.step();
      r.step();
      expect(r.sub.stats()).toMatchObject({ synced: 1 });
      // A buggy producer's batch: sequence 1000 of its current epoch, nothing published between.
      const forged: ectp.v1.IEnvelope = { version: SPEC_VERSION, senderId: P, senderEpoch: 7, eventBatch: { sequence: 1000, events: [] } };
      const before = r.sub.stats().replayRequests;
      r.sub.handleMessage(P, encodeEnvelope(forged), r.now); // its ReplayRequest is queued at once
      expect(r.sub.stats()).toMatchObject({ synced: 0, heldBatches: 1 });
      const t0 = r.now;
      for (let i = 0; i < 100 && r.sub.stats().synced === 0; i++) r.step(10); // retryMs 50, catchUpMs 100
      // Exactly the first ReplayRequest and three retries (every retryMs), then it is given up.
      expect(r.sub.stats()).toMatchObject({ synced: 1, heldBatches: 0, replayRequests: before + 4 });
      expect(r.now - t0).toBe(200);
      for (let i = 0; i < 100; i++) r.step(10); // a second of catching up: one request per catchUpMs, no more retries
      expect(r.sub.stats().replayRequests - before).toBeLessThanOrEqual(4 + 10);
      put(r.store, 2); // the producer's next real batch (sequence 2) still applies
      r.step();
      r.step();
      expect(r.viewed()).toEqual(r.ready());
      expect(warnings).toEqual(["replay retries did not close the gap; dropping the batches seen beyond it"]);
    });

    it("[E2] a batch past anything published is given up after three retries while the producer keeps publishing, and never applied", () => {
      const r = rig();
      r.sub.follow(P, 0);
      for (let i = 0; i < 3; i++) r.step();
      put(r.store, 1);
      r.step();
      r.step();
      expect(r.sub.stats()).toMatchObject({ synced: 1 });
      const applied = r.producer.stats().eventSequence;
      // A buggy producer's batch 15 sequences ahead, storing an item it never held.
      const forged: ectp.v1.IEnvelope = {
        version: SPEC_VERSION,
        senderId: P,
        senderEpoch: 7,
        eventBatch: { sequence: applied + 15, events: [{ stored: { item: desc(250) } }] },
      };
      r.sub.handleMessage(P, encodeEnvelope(forged), r.now);
      const before = r.sub.stats().replayRequests;
      // A real batch every 30 ms, more often than the retries (retryMs 50): each one applies in order.
      for (let n = 2; n < 40; n++) {
        put(r.store, n);
        for (let i = 0; i < 3; i++) r.step(10);
        expect(r.viewed()).not.toContain(key(250));
      }
      for (let i = 0; i < 20; i++) r.step(10);
      expect(r.producer.stats().eventSequence).toBeGreaterThan(applied + 15); // the real batch of that sequence was applied
      expect(r.viewed()).toEqual(r.ready());
      // The first ReplayRequest and three retries, then catching up (one per catchUpMs over about 1.3 s).
      expect(r.sub.stats().replayRequests - before).toBeLessThanOrEqual(4 + 14);
      expect(r.sub.stats()).toMatchObject({ synced: 1, heldBatches: 0 });
    });

    it("[E2] a lost last batch is caught up while the producer is idle; an idle producer gets no repeated snapshot requests", () => {
      const r = rig();
      r.sub.follow(P, 0);
      for (let i = 0; i < 3; i++) r.step();
      r.faults.loss = 1;
      put(r.store, 1);
      r.step();
      r.faults.loss = 0;
      for (let i = 0; i < 600; i++) r.step(100); // one idle minute
      expect(r.viewed()).toEqual([key(1)]);
      expect(r.sub.stats()).toMatchObject({ snapshotRequests: 1, synced: 1 });
    });
  });

  it("[E1][E2] property: over a lossy, duplicating, reordering network with split batches and snapshots and producer restarts, the view converges to the producer's ready items", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1 << 30 }),
        fc.array(fc.tuple(fc.constantFrom("put", "unready", "discard", "clear", "restart", "wait"), fc.integer({ min: 1, max: 30 })), {
          maxLength: 60,
        }),
        (seed, ops) => {
          const r = rig({ seed, maxBatchBytes: 200, loss: 0.2, dup: 0.2, reorder: 0.3 });
          r.sub.follow(P, 0);
          for (const [op, n] of ops) {
            if (op === "put") put(r.store, n, true, r.epoch);
            else if (op === "unready") put(r.store, n, false, r.epoch);
            else if (op === "discard" && r.store.get(key(n))?.ready === false) r.store.discard(key(n));
            else if (op === "clear") r.store.clear("reset");
            else if (op === "restart") r.restart();
            r.step(op === "wait" ? n * 10 : 10);
          }
          // Heal the network; within a bounded time the view is exact.
          r.faults.loss = 0;
          r.faults.dup = 0;
          r.faults.reorder = 0;
          for (let i = 0; i < 100 && JSON.stringify(r.viewed()) !== JSON.stringify(r.ready()); i++) r.step();
          expect(r.viewed()).toEqual(r.ready());
        },
      ),
      { numRuns: 150 },
    );
  });
});

import { SPEC_VERSION, ectp, encodeEnvelope } from "@ectp/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { IdTable } from "../tables/id-table.js";
import { FP, desc, harness, kid, readRequest, sent, wire } from "./test-helpers.js";
import type { ProducerCore } from "./producer.js";

const CONSUMERS = ["a", "b", "c"] as const;

type Cmd =
  | { t: "hello"; c: number; e: number; events: boolean }
  | { t: "req"; c: number; e: number; n: number; exp: number }
  | { t: "ack"; c: number; e: number; pick: number; status: number }
  | { t: "ackRandom"; c: number; grantId: number }
  | { t: "garbage"; bytes: Uint8Array }
  | { t: "otherVersion"; c: number; n: number }
  | { t: "time"; dt: number }
  | { t: "put"; n: number; size: number }
  | { t: "ready"; n: number }
  | { t: "putReady"; n: number; size: number }
  | { t: "discard"; n: number }
  | { t: "heartbeat"; c: number; e: number }
  | { t: "unreachable"; c: number }
  | { t: "replay"; c: number; from: number }
  | { t: "snapshot"; c: number }
  | { t: "clear" };

const consumer = fc.nat(CONSUMERS.length - 1);
/** Which epoch a message carries: the consumer's current one mostly, sometimes a restart (+1) or a stale one (-1). */
const epoch = fc.oneof(
  { weight: 12, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.constant(1) },
  { weight: 1, arbitrary: fc.constant(-1) },
);
const item = fc.integer({ min: 1, max: 4 });

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ t: fc.constant("hello" as const), c: consumer, e: epoch, events: fc.boolean() }) },
  {
    weight: 8,
    arbitrary: fc.record({
      t: fc.constant("req" as const),
      c: consumer,
      e: epoch,
      n: item,
      exp: fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 0, 7, 6),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({ t: fc.constant("ack" as const), c: consumer, e: epoch, pick: fc.nat(), status: fc.nat(4) }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("ackRandom" as const), c: consumer, grantId: fc.nat(50) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("garbage" as const), bytes: fc.uint8Array({ maxLength: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("otherVersion" as const), c: consumer, n: item }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant("time" as const), dt: fc.integer({ min: 0, max: 3000 }) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("put" as const), n: item, size: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("ready" as const), n: item }) },
  {
    weight: 4,
    arbitrary: fc.record({ t: fc.constant("putReady" as const), n: item, size: fc.integer({ min: 1, max: 40 }) }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("discard" as const), n: item }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("heartbeat" as const), c: consumer, e: epoch }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("unreachable" as const), c: consumer }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("replay" as const), c: consumer, from: fc.nat(8) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("snapshot" as const), c: consumer }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("clear" as const) }) },
);

/** The producer's live grants (its private table: what [I3] compares each item's pins with). */
function liveGrants(producer: ProducerCore): { keyId: string }[] {
  return (producer as unknown as { grants: IdTable<{ keyId: string }> }).grants.values();
}

/** The private tables {@link tablesLeft} reads (a test's view of them: not part of the API). */
interface ProducerTables {
  byKey: { size: number };
  leaseHead: unknown;
  pinnedBytesTotal: number;
  peers: Map<string, { id: string; grantHead: unknown; liveGrants: number; pinnedBytes: number }>;
}

/**
 * [I3][I4] What a producer's own grant tables still hold once no grant is live, each as a line
 * ([] when nothing): the key index, the lease list and each peer's grant list and quota counts,
 * none of which `stats()` reports (it counts the grant table and the store's pins).
 */
function tablesLeft(producer: ProducerCore): string[] {
  const t = producer as unknown as ProducerTables;
  const left: string[] = [];
  if (t.byKey.size !== 0) left.push(`byKey: ${t.byKey.size}`);
  if (t.leaseHead !== undefined) left.push("the lease list is not empty");
  if (t.pinnedBytesTotal !== 0) left.push(`pinned bytes: ${t.pinnedBytesTotal}`);
  for (const p of t.peers.values())
    if (p.grantHead !== undefined || p.liveGrants !== 0 || p.pinnedBytes !== 0)
      left.push(`peer ${p.id}: ${p.liveGrants} grants, ${p.pinnedBytes} bytes${p.grantHead === undefined ? "" : ", a grant listed"}`);
  return left;
}

describe("ProducerCore properties", () => {
  it("[I1][I3] random requests, ACKs, garbage, time, evictions and writes from several consumers: never throws, each item's pins === its live grants always, zero after all leases pass", () => {
    fc.assert(
      // A shutdown (at most one, at a random point) is drawn apart: after it every request is
      // refused, so drawing it as a frequent command would leave little to explore.
      fc.property(fc.array(cmd, { minLength: 10, maxLength: 150, size: "max" }), fc.option(fc.nat(400)), (cmds, shutdownAt) => {
        const leaseMs = 5_000;
        const h = harness({ leaseMs, heartbeatIntervalMs: 1_000, maxGrantsPerConsumer: 3, maxPinnedBytesPerConsumer: 80 }, 100);
        const { producer, store } = h;
        let now = 0;
        const granted: { consumer: string; grantId: number }[] = [];
        const epochs = [1, 1, 1];
        const ep = (c: number, delta: number): number => {
          if (delta > 0) epochs[c] = (epochs[c] as number) + 1;
          return Math.max(1, (epochs[c] as number) + Math.min(delta, 0));
        };
        // Plain checks in the hot loop (expect() per step would dominate the run time).
        const check = (): void => {
          const s = producer.stats();
          if (store.totalPins() !== s.grants || s.pins !== s.grants) // [I3]
            throw new Error(`[I3] pins ${store.totalPins()} != grants ${s.grants}`);
          for (let n = 1; n <= 4; n++) {
            // [I3] per item: each item's pins are its own live grants (not merely the same total).
            const keyId = kid(n);
            const live = liveGrants(producer).filter((g) => g.keyId === keyId).length;
            const pins = store.get(keyId)?.pins ?? 0;
            if (pins !== live) throw new Error(`[I3] item ${n}: ${pins} pins, ${live} live grants`);
          }
          if (s.pinnedBytes < 0 || (s.grants === 0 && s.pinnedBytes !== 0))
            throw new Error(`pinnedBytes ${s.pinnedBytes} with ${s.grants} grants`);
        };
        const collect = (): void => {
          for (const o of producer.poll(now))
            if (o.type === "send" && o.envelope.readGrant)
              granted.push({ consumer: o.peerId, grantId: o.envelope.readGrant.grantId as number });
        };
        for (const [i, c] of cmds.entries()) {
          if (i === shutdownAt) producer.shutdown(now);
          switch (c.t) {
            case "hello": {
              const id = CONSUMERS[c.c] as string;
              const hello = {
                role: ectp.v1.Role.ROLE_CONSUMER,
                fingerprint: FP,
                transportMetadata: new Uint8Array([c.c]),
                capabilities: c.events ? ["events.v1"] : [],
              };
              producer.handleMessage(id, wire(id, ep(c.c, c.e), { hello }), now);
              break;
            }
            case "req": {
              const id = CONSUMERS[c.c] as string;
              producer.handleMessage(id, wire(id, ep(c.c, c.e), readRequest(1 + granted.length, c.n, { expectedEpoch: c.exp })), now);
              break;
            }
            case "ack": {
              const g = granted.length > 0 ? granted[c.pick % granted.length] : undefined;
              const id = g && c.c === 0 ? g.consumer : (CONSUMERS[c.c] as string);
              producer.handleMessage(id, wire(id, ep(CONSUMERS.indexOf(id as never), c.e), { readComplete: { grantId: g?.grantId ?? 1, status: c.status } }), now);
              break;
            }
            case "ackRandom": {
              const id = CONSUMERS[c.c] as string;
              producer.handleEnvelope(id, { version: SPEC_VERSION, senderId: id, senderEpoch: 1, readComplete: { grantId: c.grantId } }, now);
              break;
            }
            case "garbage":
              producer.handleMessage("a", c.bytes, now);
              break;
            case "otherVersion": {
              const id = CONSUMERS[c.c] as string;
              producer.handleMessage(
                id,
                encodeEnvelope({ version: { major: 3 }, senderId: id, senderEpoch: 1, ...readRequest(9, c.n) }),
                now,
              );
              break;
            }
            case "time":
              now += c.dt;
              break;
            case "put":
              store.put(desc(c.n, c.size));
              break;
            case "putReady":
              store.put(desc(c.n, c.size));
              if (store.get(kid(c.n))) store.markReady(kid(c.n));
              break;
            case "ready":
              if (store.get(kid(c.n))) store.markReady(kid(c.n));
              break;
            case "discard":
              if (store.get(kid(c.n)) && !store.get(kid(c.n))?.ready) store.discard(kid(c.n));
              break;
            case "heartbeat": {
              const id = CONSUMERS[c.c] as string;
              producer.handleMessage(id, wire(id, ep(c.c, c.e), { heartbeat: {} }), now);
              break;
            }
            case "unreachable":
              producer.handlePeerUnreachable(CONSUMERS[c.c] as string, now);
              break;
            case "replay": {
              const id = CONSUMERS[c.c] as string;
              producer.handleMessage(id, wire(id, 1, { replayRequest: { fromSequence: c.from } }), now);
              break;
            }
            case "snapshot": {
              const id = CONSUMERS[c.c] as string;
              producer.handleMessage(id, wire(id, 1, { snapshotRequest: {} }), now);
              break;
            }
            case "clear":
              store.clear("reset");
              break;
          }
          check();
          collect();
          check();
          const d = producer.nextDeadline();
          if (d !== undefined && !Number.isFinite(d)) throw new Error(`nextDeadline ${d}`);
        }
        // Quiescence, first by leases alone: every lease passes while every consumer keeps
        // heartbeating, so no grant is released for its peer going silent.
        for (const until = now + leaseMs + 1_000; now < until; ) {
          now += 500;
          for (const [i, id] of CONSUMERS.entries()) producer.handleMessage(id, wire(id, epochs[i] as number, { heartbeat: { sequence: 1 } }), now);
          producer.poll(now);
          check();
        }
        expect(producer.stats()).toMatchObject({ grants: 0, pins: 0, pinnedBytes: 0 });
        expect(tablesLeft(producer)).toEqual([]);
        // Then every peer goes silent and is forgotten.
        now += 10_000;
        producer.poll(now);
        check();
        expect(producer.stats()).toMatchObject({ grants: 0, pins: 0, pinnedBytes: 0, peers: 0 });
        expect(tablesLeft(producer)).toEqual([]);
        expect(store.totalPins()).toBe(0);
        expect(sent(producer.poll(now))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe("ProducerCore lease list (property)", () => {
  it("[P3] leases end in (deadline, grant id) order at exactly their own deadline, a clock stepping back read as its latest reading; nextDeadline is the earliest lease", () => {
    type Op = { t: "req"; c: number; n: number; at: number } | { t: "ack"; pick: number; at: number } | { t: "poll"; at: number };
    const at = fc.integer({ min: 0, max: 400 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 4, arbitrary: fc.record({ t: fc.constant("req" as const), c: fc.nat(2), n: fc.integer({ min: 1, max: 5 }), at }) },
      { weight: 1, arbitrary: fc.record({ t: fc.constant("ack" as const), pick: fc.nat(), at }) },
      { weight: 2, arbitrary: fc.record({ t: fc.constant("poll" as const), at }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.integer({ min: 1, max: 100 }), (ops, leaseMs) => {
        // Heartbeats far away, so every deadline below 1e6 is a lease.
        const h = harness({ leaseMs, heartbeatIntervalMs: 1e7, maxGrantsPerConsumer: 100, maxPinnedBytesPerConsumer: 1e6 }, 1e6);
        for (let n = 1; n <= 5; n++) {
          const r = h.store.put(desc(n));
          if (!r.ok) throw r.error;
          h.store.markReady(kid(n));
        }
        // Reference: live grants with their deadlines; expiry order sorted by (deadline, id).
        const live = new Map<number, { deadline: number; c: number; n: number }>();
        let attempt = 0;
        let latest = 0; // inside the core time never goes back: an earlier reading is the latest one
        for (const op of ops) {
          latest = Math.max(latest, op.at);
          const o = { ...op, at: latest };
          if (o.t === "req") {
            const from = CONSUMERS[o.c] as string;
            h.producer.handleMessage(from, wire(from, 1, readRequest(++attempt, o.n)), o.at);
            const out = sent(h.producer.poll(o.at), from);
            // poll also expired whatever was due at o.at: drop those from the reference first.
            const expired = [...live].filter(([, g]) => g.deadline <= o.at).sort((x, y) => x[1].deadline - y[1].deadline || x[0] - y[0]);
            for (const [id] of expired) live.delete(id);
            const grant = out.find((e) => e.readGrant)?.readGrant;
            expect(grant).toBeDefined();
            // A newer attempt of the same consumer for the same item replaced its older grant.
            for (const [id, g] of live) if (g.c === o.c && g.n === o.n) live.delete(id);
            live.set(Number(grant?.grantId), { deadline: o.at + leaseMs, c: o.c, n: o.n });
          } else if (o.t === "ack") {
            const ids = [...live.keys()];
            if (ids.length === 0) continue;
            const id = ids[o.pick % ids.length] as number;
            const g = live.get(id) as { c: number };
            const from = CONSUMERS[g.c] as string;
            h.producer.handleMessage(from, wire(from, 1, { readComplete: { grantId: id, status: 1 } }), o.at);
            // [P3] a ReadComplete first releases every grant past its lease (that one included: its ACK then names a released grant).
            for (const [gid, x] of live) if (x.deadline <= o.at) live.delete(gid);
            live.delete(id);
          } else {
            const before = h.logger.warnings.length;
            h.producer.poll(o.at);
            const got = h.logger.warnings.slice(before).map((w) => (w.fields as { grantId: number }).grantId);
            const expected = [...live]
              .filter(([, g]) => g.deadline <= o.at)
              .sort((x, y) => x[1].deadline - y[1].deadline || x[0] - y[0])
              .map(([id]) => id);
            expect(got).toEqual(expected);
            for (const id of expected) live.delete(id);
          }
          expect(h.producer.stats().grants).toBe(live.size);
          expect(h.store.totalPins()).toBe(live.size);
          const earliest = Math.min(...[...live.values()].map((g) => g.deadline));
          if (live.size > 0 && o.t === "poll") expect(h.producer.nextDeadline()).toBe(earliest);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("ProducerCore wire path (property) [I1][C10]", () => {
  /** One message of any body a producer may meet, from consumer `c`. */
  const message = fc.record({
    c: fc.constantFrom("a", "b"),
    body: fc.constantFrom(
      "hello",
      "readRequest",
      "readComplete",
      "heartbeat",
      "replayRequest",
      "snapshotRequest",
      "readGrant",
      "eventBatch",
      "none",
    ),
    n: fc.integer({ min: 1, max: 3 }),
    id: fc.integer({ min: 1, max: 6 }),
  });
  const bodyOf = (m: { body: string; n: number; id: number }): ectp.v1.IEnvelope => {
    switch (m.body) {
      case "hello":
        return { hello: { role: ectp.v1.Role.ROLE_CONSUMER, fingerprint: FP, capabilities: ["events.v1"] } };
      case "readRequest":
        return readRequest(m.id, m.n);
      case "readComplete":
        return { readComplete: { grantId: m.id, status: 1 } };
      case "heartbeat":
        return { heartbeat: { sequence: m.id } };
      case "replayRequest":
        return { replayRequest: { fromSequence: m.id } };
      case "snapshotRequest":
        return { snapshotRequest: {} };
      case "readGrant":
        return { readGrant: { attemptId: m.id, grantId: m.id } };
      case "eventBatch":
        return { eventBatch: { sequence: m.id } };
      default:
        return {};
    }
  };

  it("handleMessage(bytes) dispatches every body as handleEnvelope(object) does (same outputs, same stats)", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 30 }), (msgs) => {
        const byWire = harness();
        const byObject = harness();
        for (const h of [byWire, byObject]) for (let n = 1; n <= 3; n++) {
          const r = h.store.put(desc(n));
          if (!r.ok) throw r.error;
          h.store.markReady(kid(n));
        }
        let now = 1;
        for (const m of msgs) {
          const env: ectp.v1.IEnvelope = { version: SPEC_VERSION, senderId: m.c, senderEpoch: 1, ...bodyOf(m) };
          byWire.producer.handleMessage(m.c, encodeEnvelope(env), now);
          byObject.producer.handleEnvelope(m.c, env, now);
          const a = JSON.stringify(sent(byWire.producer.poll(now)));
          const b = JSON.stringify(sent(byObject.producer.poll(now)));
          expect(a).toBe(b);
          expect(byWire.producer.stats()).toEqual(byObject.producer.stats());
          now += 10;
        }
      }),
      { numRuns: 300 },
    );
  });
});

// A router following producers of several models: each producer is greeted with its own
// fingerprint (`follow`'s fourth argument), so none refuses the Hello [P7] (SPEC.md 4.1).
import { EctpError, SPEC_VERSION, type ectp, encodeEnvelope } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { MemoryItemStore } from "../producer/memory-store.js";
import { ProducerCore } from "../producer/producer.js";
import { CountingMetrics, FP } from "../producer/test-helpers.js";
import { EventSubscriber } from "./subscriber.js";

const OTHER: ectp.v1.IFingerprint = { model: "another-model", dtype: FP.dtype, rowBytes: 0, layoutVersion: 1 };

/** A producer of `fingerprint` holding one ready item, counting what it refuses. */
function producerOf(id: string, fingerprint: ectp.v1.IFingerprint) {
  const store = new MemoryItemStore({ capacityBytes: 100 });
  const metrics = new CountingMetrics();
  const producer = new ProducerCore({ id, epoch: 1, fingerprint, store, metrics });
  const put = store.put({ key: { contentHash: new Uint8Array([id.length]), fingerprint }, sizeBytes: 10, producerId: id, epoch: 1 });
  if (!put.ok) throw put.error;
  store.markReady(put.value.keyId);
  return { id, producer, metrics, keyId: put.value.keyId };
}

/** Deliver every message between the subscriber and the producers until all are quiet. */
function run(sub: EventSubscriber, producers: ReturnType<typeof producerOf>[], now: number): void {
  for (let round = 0; round < 20; round++) {
    let moved = false;
    for (const o of sub.poll(now))
      if (o.type === "send") {
        moved = true;
        producers.find((p) => p.id === o.peerId)?.producer.handleEnvelope("R", o.envelope, now);
      }
    for (const p of producers)
      for (const o of p.producer.poll(now))
        if (o.type === "send" && o.peerId === "R") {
          moved = true;
          sub.handleEnvelope(p.id, o.envelope, now);
        }
    if (!moved) return;
  }
}

describe("EventSubscriber.follow with a producer's own fingerprint [P7]", () => {
  it("[P7][E2] greets each producer with its model's fingerprint: neither refuses the Hello, both views sync", () => {
    const a = producerOf("E-a", FP);
    const b = producerOf("E-b", OTHER);
    const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP });
    sub.follow(a.id, 0); // the subscriber's own fingerprint
    sub.follow(b.id, 0, undefined, OTHER);
    const first = sub.poll(0);
    const hellos = first.flatMap((o) => (o.type === "send" && o.envelope.hello ? [[o.peerId, o.envelope.hello.fingerprint?.model]] : []));
    expect(hellos).toEqual([
      [a.id, FP.model],
      [b.id, OTHER.model],
    ]);
    for (const o of first) if (o.type === "send") [a, b].find((p) => p.id === o.peerId)?.producer.handleEnvelope("R", o.envelope, 0);
    run(sub, [a, b], 1);
    expect([sub.isSynced(a.id), sub.isSynced(b.id)]).toEqual([true, true]);
    expect([sub.holders(a.keyId), sub.holders(b.keyId)]).toEqual([[a.id], [b.id]]);
    for (const o of [a, b]) expect([...o.metrics.counts.keys()].filter((k) => k.startsWith("ectp_producer_handshake_rejects_total"))).toEqual([]);
  });

  it("[P7] without it, the producer of the other model refuses the subscriber's Hello, and the warning names the reason", () => {
    const b = producerOf("E-b", OTHER);
    const warnings: unknown[] = [];
    const logger = { debug() {}, info() {}, warn: (message: string, fields?: unknown) => warnings.push([message, fields]), error() {} };
    const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP, logger });
    sub.follow(b.id, 0);
    run(sub, [b], 0);
    expect([...b.metrics.counts.keys()].some((k) => k.startsWith("ectp_producer_handshake_rejects_total"))).toBe(true);
    // By name, as the metrics label it (it was the wire number, 4).
    expect(warnings).toEqual([["producer refused this subscriber's Hello", { producerId: b.id, reason: "INCOMPATIBLE", detail: expect.stringContaining("another-model") }]]);
  });

  it("a malformed fingerprint, or another one for a producer already followed, is an INVALID_ARGUMENT naming it; the same one again is fine", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP });
    const refused = (fn: () => void) => {
      try {
        fn();
      } catch (err) {
        return err instanceof EctpError ? err.message : String(err);
      }
      return "no error";
    };
    expect(refused(() => sub.follow("E-b", 0, undefined, { modle: "m" } as ectp.v1.IFingerprint))).toBe(
      "[INVALID_ARGUMENT] follow(E-b): fingerprint.modle is not a fingerprint field (did you mean model?); the fields are model, dtype, rowBytes, layoutVersion.",
    );
    expect(sub.isFollowing("E-b")).toBe(false);
    sub.follow("E-b", 0, undefined, OTHER);
    sub.follow("E-b", 0, undefined, { ...OTHER }); // equal: nothing changes
    sub.follow("E-b", 0); // none given: nothing changes
    expect(refused(() => sub.follow("E-b", 0, undefined, FP))).toBe(
      "[INVALID_ARGUMENT] follow(E-b): the producer is followed with another fingerprint; unfollow it first to follow it as a producer of another model",
    );
    sub.unfollow("E-b");
    sub.follow("E-b", 0, undefined, FP);
    const hello = sub.poll(0).find((o) => o.type === "send" && o.envelope.hello);
    expect(hello?.type === "send" ? hello.envelope.hello?.fingerprint?.model : undefined).toBe(FP.model);
  });

  // The refusal came after the call's time was taken as the subscriber's clock: later calls at the
  // caller's real time were read as that time (here: the retry, the heartbeat and the silence all due).
  it("[P7][I1] a follow() refused for another fingerprint changes nothing, the subscriber's clock included", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP });
    sub.follow("E-b", 0, undefined, OTHER);
    sub.poll(0);
    expect(() => sub.follow("E-b", 60_000, undefined, FP)).toThrow(EctpError);
    expect([sub.poll(1), sub.nextDeadline()]).toEqual([[], 2_000]);
  });
});

describe("EventSubscriber: its fingerprint is taken once, at construction [P7]", () => {
  /** The fingerprints of the Hellos `sub` sends at its next poll. */
  function helloFingerprints(sub: EventSubscriber, now: number): ectp.v1.IFingerprint[] {
    return sub.poll(now).flatMap((o) => (o.type === "send" && o.envelope.hello ? [o.envelope.hello.fingerprint as ectp.v1.IFingerprint] : []));
  }

  it("[P7] its Hellos carry the fingerprint given at construction, frozen and normalised, though the caller changes its object later", () => {
    const fingerprint: ectp.v1.IFingerprint = { model: FP.model, dtype: FP.dtype, layoutVersion: 1 };
    const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint });
    fingerprint.model = "changed";
    sub.follow("E-a", 0);
    const sent = helloFingerprints(sub, 0);
    expect(sent).toEqual([{ ...FP, rowBytes: 0 }]);
    expect(sent.every((f) => Object.isFrozen(f))).toBe(true);
  });

  it("[P7] without a fingerprint it sends the all-default one (as before on the wire), frozen", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow("E-a", 0);
    const sent = helloFingerprints(sub, 0);
    expect(sent).toHaveLength(1);
    expect(encodeEnvelope({ version: SPEC_VERSION, senderId: "R", senderEpoch: 1, hello: { role: 2, fingerprint: sent[0] } }).length).toBe(
      encodeEnvelope({ version: SPEC_VERSION, senderId: "R", senderEpoch: 1, hello: { role: 2, fingerprint: {} } }).length,
    );
    expect(Object.isFrozen(sent[0])).toBe(true);
  });

  it("[P7] a producer's own fingerprint given to follow() is kept as a frozen copy too", () => {
    const own: ectp.v1.IFingerprint = { ...OTHER };
    const sub = new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP });
    sub.follow("E-b", 0, undefined, own);
    own.model = "changed";
    const sent = helloFingerprints(sub, 0);
    expect(sent).toEqual([OTHER]);
    expect(Object.isFrozen(sent[0])).toBe(true);
  });
});

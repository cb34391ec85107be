import { describe, expect, it } from "vitest";
import { MemoryItemStore } from "./memory-store.js";
import { ProducerCore } from "./producer.js";
import { FP, PRODUCER, kid, readRequest, ready, refillingStore, sent, wire } from "./test-helpers.js";
import type { ItemStore } from "./types.js";

/**
 * A custom store (no `unpinEntry`) whose `get` builds a new entry object on every lookup, as an
 * adapter over another cache naturally does: nothing in {@link ItemStore} asks `get` to hand back the
 * same object. Before the fix every grant it released left its pin behind [I3].
 */
function freshEntries(inner: MemoryItemStore): ItemStore {
  return {
    get: (k) => {
      const e = inner.get(k);
      return e && { descriptor: e.descriptor, keyId: e.keyId, ready: e.ready, pins: e.pins };
    },
    pin: (k) => inner.pin(k),
    unpin: (k) => inner.unpin(k),
    readyItems: () => inner.readyItems(),
    totalPins: () => inner.totalPins(),
    subscribe: (listener) => inner.subscribe(listener),
  };
}

/** The grant ids sent to `to`. */
function grantIds(producer: ProducerCore, to: string, now: number): number[] {
  return sent(producer.poll(now), to).flatMap((e) => (e.readGrant ? [Number(e.readGrant.grantId)] : []));
}

describe("a store whose get returns a new entry object per lookup", () => {
  it("[I3][P2] every way a grant ends (ACK, replacement, lease, peer loss, consumer restart, shutdown) releases its pin", () => {
    const inner = new MemoryItemStore({ capacityBytes: 1000 });
    const producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store: freshEntries(inner), config: { leaseMs: 1_000 } });
    for (let n = 1; n <= 6; n++) ready(inner, n);
    const pins = (): number[] => [1, 2, 3, 4, 5, 6].map((n) => inner.get(kid(n))?.pins ?? -1);
    for (const [n, c] of [[1, "a"], [2, "a"], [3, "b"], [4, "c"], [5, "d"], [6, "d"]] as const)
      producer.handleMessage(c, wire(c, 1, readRequest(10 + n, n)), 1);
    const [g1] = grantIds(producer, "a", 1);
    expect(pins()).toEqual([1, 1, 1, 1, 1, 1]);
    producer.handleMessage("a", wire("a", 1, { readComplete: { grantId: g1, status: 1 } }), 2); // ACK
    producer.handleMessage("a", wire("a", 1, readRequest(20, 2)), 2); // replaces a's grant of item 2
    producer.handlePeerUnreachable("b", 2); // peer loss
    producer.handleMessage("c", wire("c", 2, { heartbeat: {} }), 2); // consumer restart
    expect(pins()).toEqual([0, 1, 0, 0, 1, 1]);
    expect(producer.stats()).toMatchObject({ grants: 3, pins: 3 });
    producer.poll(1_001); // d's leases (granted at 1) end now; a's second grant of item 2 (granted at 2) is still live
    expect(pins()).toEqual([0, 1, 0, 0, 0, 0]);
    producer.shutdown(1_001);
    expect(pins()).toEqual([0, 0, 0, 0, 0, 0]);
    expect(producer.stats()).toMatchObject({ grants: 0, pins: 0 });
  });

  it("[P2][I3] a grant made while a clear is being announced stays live with its pin; the old grant's release takes no pin of it", () => {
    let producer!: ProducerCore;
    let first = 0;
    const inner = refillingStore(() => {
      producer.handleMessage("c2", wire("c2", 1, readRequest(1, 99)), 2); // a grant on the entry written again
      producer.handleMessage("c1", wire("c1", 1, { readComplete: { grantId: first, status: 1 } }), 2); // the old grant's late ACK
    });
    producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store: freshEntries(inner) });
    ready(inner, 99);
    producer.handleMessage("c1", wire("c1", 1, readRequest(1, 99)), 1);
    first = grantIds(producer, "c1", 1)[0] as number;
    inner.clear("reset");
    const [second] = grantIds(producer, "c2", 2);
    expect(second).toBeDefined();
    expect(producer.stats()).toMatchObject({ grants: 1, pins: 1 }); // [I3]
    producer.handleMessage("c2", wire("c2", 1, { readComplete: { grantId: second, status: 1 } }), 3);
    expect(producer.stats()).toMatchObject({ grants: 0, pins: 0 });
    expect(inner.get(kid(99))?.pins).toBe(0);
  });
});

import { describe, expect, it } from "vitest";
import { MemoryItemStore } from "./memory-store.js";
import { ProducerCore } from "./producer.js";
import { DEFAULT_PRODUCER_CONFIG } from "../config.js";
import { FP, PRODUCER, desc, kid, readRequest, ready, refillingStore, requiredMethodsOf, sent, wire } from "./test-helpers.js";

/**
 * A store reset whose Cleared change reaches the producer after the producer was called back in
 * (from the store's release callback, or from an earlier store listener of the Cleared change):
 * the grant made in between kept its pin while the Cleared released it [P2][I3]. Each test failed
 * before its fix.
 */
describe("grants made while a clear is being announced", () => {
  it("[P2][I3] a release callback during clear() that re-enters the producer: the grant on the re-put item is not dropped without its pin", () => {
    let producer!: ProducerCore;
    const store = refillingStore(() => producer.handleMessage("c", wire("c", 1, readRequest(1, 99)), 1));
    producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store });
    ready(store, 1);
    store.clear("reset");
    const grant = sent(producer.poll(1), "c").find((e) => e.readGrant)?.readGrant;
    expect(grant).toBeDefined();
    const s = producer.stats();
    expect(s.pins).toBe(s.grants); // [I3]
  });
  it("[P2][I3] a store listener reacting to Cleared by writing an item and handing the producer a ReadRequest for it: pins === grants [I3]", () => {
    const store = new MemoryItemStore({ capacityBytes: 1000 });
    let producer!: ProducerCore;
    // The engine's listener, subscribed before the producer's.
    store.subscribe((c) => {
      if (c.kind !== "cleared") return;
      ready(store, 99);
      producer.handleMessage("c", wire("c", 1, readRequest(1, 99)), 1);
    });
    producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store });
    store.clear("reset");
    const grant = sent(producer.poll(1), "c").find((e) => e.readGrant)?.readGrant;
    expect(grant).toBeDefined();
    expect(producer.stats()).toMatchObject({ grants: 1, pins: 1 });
    // Its ACK releases the pin: the item is evictable again.
    producer.handleMessage("c", wire("c", 1, { readComplete: { grantId: grant?.grantId, status: 1 } }), 2);
    expect(producer.stats()).toMatchObject({ grants: 0, pins: 0 });
    expect(store.get(kid(99))?.pins).toBe(0);
  });

  // A store without unpinEntry is unpinned by key: the old grant's release, while the clear is being
  // announced, must not take the pin of the grant made on the entry written again under that key.
  const LEASE_END = 1 + DEFAULT_PRODUCER_CONFIG.leaseMs;
  for (const [ending, release, at] of [
    ["its late ACK", (p: ProducerCore, grantId: number) => p.handleMessage("c1", wire("c1", 1, { readComplete: { grantId, status: 1 } }), 2), 2],
    ["its lease running out", (p: ProducerCore) => p.handleMessage("c2", wire("c2", 1, { heartbeat: {} }), LEASE_END), LEASE_END],
  ] as const)
    it(`[P2][I3] a grant of an entry a clear removed, released by ${ending}, leaves the pin of the grant on the entry written again (store without unpinEntry)`, () => {
      let producer!: ProducerCore;
      let first = 0;
      const inner = refillingStore(() => {
        producer.handleMessage("c2", wire("c2", 1, readRequest(1, 99)), 2); // a grant on the new entry
        release(producer, first);
      });
      producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store: requiredMethodsOf(inner) });
      ready(inner, 99);
      producer.handleMessage("c1", wire("c1", 1, readRequest(1, 99)), 1);
      first = sent(producer.poll(1), "c1")[0]?.readGrant?.grantId as number;
      inner.clear("reset");
      expect(sent(producer.poll(at), "c2").find((e) => e.readGrant)).toBeDefined();
      expect(producer.stats()).toMatchObject({ grants: 1, pins: 1 }); // [I3]
      expect(inner.get(kid(99))?.pins).toBe(1);
      expect(inner.put(desc(5, 995)).ok).toBe(false); // it needs item 99's room: refused, item 99 not evicted [P6]
    });

  it("[P2][I3] a store without unpinEntry whose get throws when a grant is released is still unpinned by key (the entry may still be there)", () => {
    const inner = new MemoryItemStore({ capacityBytes: 1000 });
    let getThrows = false;
    const store = { ...requiredMethodsOf(inner), get: (k: string) => {
      if (getThrows) throw new Error("store lookup failed");
      return inner.get(k);
    } };
    const metrics = new Map<string, number>();
    const producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store, metrics: { counter: (n, v = 1) => void metrics.set(n, (metrics.get(n) ?? 0) + v), gauge() {}, histogram() {} } });
    ready(inner, 99);
    producer.handleMessage("c1", wire("c1", 1, readRequest(1, 99)), 1);
    const grantId = sent(producer.poll(1), "c1")[0]?.readGrant?.grantId;
    expect(inner.get(kid(99))?.pins).toBe(1);
    getThrows = true;
    producer.handleMessage("c1", wire("c1", 1, { readComplete: { grantId, status: 1 } }), 2);
    expect(inner.get(kid(99))?.pins).toBe(0); // (inner.get itself works)
    expect(producer.stats()).toMatchObject({ grants: 0, pins: 0 });
    expect(metrics.get("ectp_producer_unpin_errors_total")).toBeUndefined();
  });
});

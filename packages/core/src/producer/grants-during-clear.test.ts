import { describe, expect, it } from "vitest";
import { MemoryItemStore } from "./memory-store.js";
import { ProducerCore } from "./producer.js";
import { FP, PRODUCER, kid, readRequest, ready, refillingStore, sent, wire } from "./test-helpers.js";

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
});

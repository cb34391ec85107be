/**
 * [I4] A producer's grant tables go back to their baseline size once a burst of grants is over:
 * the key index of live grants per consumer and item (`byKey`) kept the slots of its largest
 * burst for good (131,072 after 50,000 grants), while the grant table shrank. Failed before the fix.
 */
import { ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { SHRINK_FLOOR_SLOTS } from "../tables/shrink-floor.js";
import { MemoryItemStore } from "./memory-store.js";
import { ProducerCore } from "./producer.js";
import { FP, PRODUCER, desc, sent, wire } from "./test-helpers.js";

/** The slot counts of a producer's two grant tables (private: `stats()` reports only what they hold). */
function slots(producer: ProducerCore): { byKey: number; grants: number } {
  const t = producer as unknown as { byKey: { slots: unknown[] }; grants: { keys: Float64Array } };
  return { byKey: t.byKey.slots.length, grants: t.grants.keys.length };
}

describe("the producer's grant tables after a burst [I4]", () => {
  it("[I4] 5,000 grants to one consumer, all ACKed: the key index is back to the shrink floor, as the grant table is", () => {
    const N = 5_000;
    const store = new MemoryItemStore({ capacityBytes: N * 10 });
    const producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store, config: { maxGrantsPerConsumer: N, heartbeatIntervalMs: 1e6 } });
    for (let n = 0; n < N; n++) {
      const r = store.put(desc(n));
      if (!r.ok) throw r.error;
      store.markReady(r.value.keyId);
    }
    for (let n = 0; n < N; n++) producer.handleMessage("c", wire("c", 1, { readRequest: { attemptId: n + 1, key: desc(n).key } }), 0);
    const grants = sent(producer.poll(0), "c").flatMap((e) => (e.readGrant ? [e.readGrant.grantId as number] : []));
    expect(grants).toHaveLength(N);
    expect(slots(producer).byKey).toBeGreaterThan(2 * N);
    for (const grantId of grants)
      producer.handleMessage("c", wire("c", 1, { readComplete: { grantId, status: ectp.v1.CompletionStatus.COMPLETION_STATUS_OK } }), 1);
    producer.poll(1);
    expect(producer.stats().grants).toBe(0);
    expect(slots(producer)).toEqual({ byKey: SHRINK_FLOOR_SLOTS, grants: SHRINK_FLOOR_SLOTS });
  });
});

import { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { EventBatchOutput } from "../outputs.js";
import { MemoryItemStore } from "./memory-store.js";
import { ProducerCore } from "./producer.js";
import { FP, PRODUCER, RecordingLogger, harness, kid, ready, requiredMethodsOf, sent, wire } from "./test-helpers.js";
import type { StoreEntry } from "./types.js";

/** What constructing a producer over `store` threw (undefined when it did not). */
function constructionError(store: ConstructorParameters<typeof ProducerCore>[0]["store"]): unknown {
  try {
    new ProducerCore({ ...PRODUCER, fingerprint: FP, store });
  } catch (e) {
    return e;
  }
  return undefined;
}

/**
 * The engine's item store failing at the producer's edges (a fresh-eyes review, each test failing
 * before its fix): when the core is built, and when a snapshot cannot be listed with no resend interval.
 */
describe("producer over an item store that throws", () => {
  it("[E1] a store whose subscribe throws when the producer is built is refused with EctpError(INVALID_CONFIG) naming it, not the store's own error", () => {
    const store = { ...requiredMethodsOf(new MemoryItemStore({ capacityBytes: 100 })), subscribe: (): (() => void) => { throw new Error("listener table locked"); } };
    const error = constructionError(store);
    expect(error).toBeInstanceOf(EctpError);
    expect((error as EctpError).code).toBe("INVALID_CONFIG");
    expect((error as EctpError).message).toContain("options.store.subscribe threw");
    expect((error as EctpError).message).toContain("listener table locked");
  });

  it("[E2][I1] with resendIntervalMs 0, a snapshot the store cannot list is tried again 500 ms later, not at every poll (a driver polling at nextDeadline would spin)", () => {
    const h = harness({ resendIntervalMs: 0, heartbeatIntervalMs: 10_000 });
    ready(h.store, 1);
    h.producer.poll(0);
    const list = h.store.readyItems.bind(h.store);
    h.store.readyItems = () => {
      throw new Error("backend timeout");
    };
    const errors = (): number => h.logger.warnings.filter((w) => w.message.startsWith("ERROR ")).length;
    h.producer.handleMessage("s", wire("s", 1, { snapshotRequest: {} }), 0); // answered at once: fails
    expect(sent(h.producer.poll(0), "s").filter((e) => e.snapshot)).toEqual([]);
    expect(errors()).toBe(1);
    expect(h.producer.nextDeadline()).toBe(500);
    for (const t of [0, 1, 250, 499]) h.producer.poll(t);
    expect(errors()).toBe(1); // not asked again before the retry is due
    h.store.readyItems = list;
    expect(sent(h.producer.poll(499), "s").filter((e) => e.snapshot)).toEqual([]);
    expect(sent(h.producer.poll(500), "s").map((e) => e.snapshot?.items?.length)).toEqual([1]);
    // Answered, the peer's later requests go out at once again (no resend interval).
    h.producer.handleMessage("s", wire("s", 1, { snapshotRequest: {} }), 501);
    expect(sent(h.producer.poll(501), "s").filter((e) => e.snapshot)).toHaveLength(1);
  });

  it("[E1] items the store listed at start before its listing failed are published as Stored, and the error log says so", () => {
    const inner = new MemoryItemStore({ capacityBytes: 100 });
    ready(inner, 1);
    const store = {
      ...requiredMethodsOf(inner),
      *readyItems(): Iterable<StoreEntry> {
        yield inner.get(kid(1)) as StoreEntry;
        throw new Error("backend timeout");
      },
    };
    const logger = new RecordingLogger();
    const producer = new ProducerCore({ ...PRODUCER, fingerprint: FP, store, logger });
    const batches = producer.poll(0).filter((o): o is EventBatchOutput => o.type === "event-batch");
    expect(batches.flatMap((o) => o.batch.events ?? []).map((e) => e.stored?.item?.key)).toEqual([inner.get(kid(1))?.descriptor.key]);
    const error = logger.warnings.find((w) => w.message.startsWith("ERROR "));
    expect(error?.message).toContain("those listed before the failure (`published`) are published as Stored");
    expect(error?.fields).toMatchObject({ published: 1 });
  });
});

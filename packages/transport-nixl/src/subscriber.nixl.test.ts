/**
 * A router over NIXL: an `EventSubscriber` driven by a `Driver` over one `NixlTransport`
 * follows a `ProducerCore` driven over another. NIXL can send to a peer only once that peer's
 * metadata is loaded, so the subscriber is given the producer's (epoch, metadata) and must emit
 * `connect-peer` before its Hello; the producer connects back from the metadata in that Hello.
 */
import { Driver, EventSubscriber, MemoryItemStore, ProducerCore } from "@ectp/core";
import { itemKeyId } from "@ectp/protocol";
import { afterEach, describe, expect, it } from "vitest";
import type { NixlTransport } from "./transport.js";
import { NIXL_MISSING, NIXL_SKIP_REASON, makeTransport, until } from "./test/helpers.js";

const FP = { model: "router-test", dtype: 1, rowBytes: 0, layoutVersion: 1 };

/** Item `n`: a 64-byte item of producer `producerId`, epoch 1. */
function descriptor(n: number, producerId: string) {
  const contentHash = new Uint8Array(16).fill(n);
  return { key: { contentHash, fingerprint: FP }, sizeBytes: 64, producerId, epoch: 1 };
}

const open: NixlTransport[] = [];

describe.skipIf(NIXL_MISSING)(`EventSubscriber over NIXL${NIXL_SKIP_REASON}`, () => {
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  }, 30_000);

  it("[E1][E2][P8] a router given the producer's connection follows its ready items through a Driver", async () => {
    const tp = makeTransport("producer");
    const tr = makeTransport("router");
    open.push(tp, tr);
    const store = new MemoryItemStore({ capacityBytes: 3 * 64 }); // a fourth item evicts the oldest [P6]
    const producer = new ProducerCore({ id: tp.localId, epoch: 1, fingerprint: FP, store, transportMetadata: tp.localMetadata() });
    const subscriber = new EventSubscriber({ id: tr.localId, epoch: 1, fingerprint: FP, transportMetadata: tr.localMetadata() });
    const dp = new Driver({ transport: tp, producer });
    const dr = new Driver({ transport: tr, subscriber });
    const viewed = () => [...(subscriber.view(tp.localId)?.keys() ?? [])].sort();
    const ids = (...ns: number[]) => ns.map((n) => itemKeyId(descriptor(n, tp.localId).key)).map((r) => (r.ok ? r.value : "")).sort();
    const ready = (n: number) => {
      const r = store.put(descriptor(n, tp.localId));
      if (!r.ok) throw r.error;
      store.markReady(r.value.keyId);
    };
    const stepUntil = async (done: () => boolean, what: string) =>
      until([tp, tr], () => {
        dp.step();
        dr.step();
        return done();
      }, what);

    for (const n of [1, 2, 3]) ready(n);
    subscriber.follow(tp.localId, performance.now(), { epoch: 1, metadata: tp.localMetadata() });
    await stepUntil(() => viewed().length === 3, "the router's first view");
    expect(viewed()).toEqual(ids(1, 2, 3));
    ready(4);
    await stepUntil(() => viewed().includes(ids(4)[0] as string), "the batch storing item 4");
    expect(viewed()).toEqual(ids(2, 3, 4));
    expect(subscriber.stats()).toMatchObject({ producers: 1, synced: 1 });
  }, 60_000);
});

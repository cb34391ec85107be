// Inputs shared by the core benchmarks (run.mjs, consumer.mjs, producer.mjs), so that all
// three measure the same items: ITEMS keys of SIZE bytes under one fingerprint, announced by
// producer PRODUCER_ID to consumer CONSUMER_ID.

export const ITEMS = 1024;
export const SIZE = 64;
export const FP = { model: "bench-model", dtype: 7, rowBytes: 0, layoutVersion: 1 };
export const PRODUCER_ID = "E";
export const CONSUMER_ID = "PD";

/** The content hash of item `n`: 16 bytes, distinct per `n`. */
export function contentHash(n) {
  const h = new Uint8Array(16);
  new DataView(h.buffer).setUint32(0, n + 1);
  h[15] = 0xab;
  return h;
}

/** The descriptor of item `n` (its location names the item by its low byte). */
export function descriptor(n, epoch = 1) {
  return {
    key: { contentHash: contentHash(n), fingerprint: FP },
    sizeBytes: SIZE,
    producerId: PRODUCER_ID,
    epoch,
    location: new Uint8Array([n & 0xff]),
  };
}

/** A destination pool that recycles fixed buffers (allocation is not what we measure). */
export class RecyclingPool {
  free = [];
  allocate(_keyId, sizeBytes) {
    return this.free.pop() ?? { region: { id: 1, bytes: new Uint8Array(sizeBytes) }, offset: 0, length: sizeBytes };
  }
  release(d) {
    this.free.push(d);
  }
  view(d) {
    return d.region.bytes;
  }
}

/**
 * MemoryItemStore's argument checks (typed errors naming what was wrong, at the call) and a
 * checksum given at markReady for an item written in place [C11].
 */
import { MAX_DESCRIPTOR_BYTES, crc32cBytes, ectp, itemKeyId } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { MemoryItemStore } from "./memory-store.js";
import { ProducerCore } from "./producer.js";
import type { StoreChange } from "./types.js";

const FP: ectp.v1.IFingerprint = { model: "m", dtype: 2, rowBytes: 4, layoutVersion: 1 };
const CRC32C = ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C;
const desc = (n: number): ectp.v1.IItemDescriptor => ({ key: { contentHash: new Uint8Array([n]), fingerprint: FP }, sizeBytes: 8, producerId: "E", epoch: 1 });
function kid(n: number): string {
  const r = itemKeyId(desc(n).key);
  if (!r.ok) throw r.error;
  return r.value;
}

describe("MemoryItemStore refuses bad options and arguments with typed errors", () => {
  it("options: not an object, an unknown key (a misspelt release), a capacity or callback of the wrong type", () => {
    const refusal = (options: unknown) => {
      try {
        new MemoryItemStore(options as never);
      } catch (e) {
        return (e as Error).message;
      }
      return "accepted";
    };
    expect(refusal(null)).toBe("[INVALID_CONFIG] MemoryItemStore needs an options object { capacityBytes, locate?, release? }; got null");
    expect(refusal({ capacityBytes: 64, relase: () => {} })).toBe(
      "[INVALID_CONFIG] options.relase is not an option of MemoryItemStore (did you mean release?); its options are capacityBytes, locate, release. Check the spelling, or remove it.",
    );
    expect(refusal({ capacityBytes: Object.create(null) })).toBe(
      "[INVALID_CONFIG] capacityBytes must be a positive integer number of bytes; got an object. Pass e.g. { capacityBytes: 1 << 30 }",
    );
    expect(refusal({ capacityBytes: 64, locate: 5 })).toBe("[INVALID_CONFIG] options.locate must be a function when given; got 5");
    expect(refusal({ capacityBytes: 64, release: "free" })).toBe('[INVALID_CONFIG] options.release must be a function when given; got "free"');
    expect(refusal({ capacityBytes: 64, locate: undefined, release: () => {} })).toBe("accepted");
  });

  it("clear with another cause, subscribe without a function, unpinEntry of nothing", () => {
    const store = new MemoryItemStore({ capacityBytes: 64 });
    expect(() => store.clear("x" as never)).toThrow('[INVALID_ARGUMENT] clear: the cause must be "reset" or "shutdown"; got "x"');
    expect(() => store.subscribe(5 as never)).toThrow("[INVALID_ARGUMENT] subscribe needs a function (change) => void; got 5");
    expect(() => store.unpinEntry(null as never)).toThrow("[INVALID_ARGUMENT] unpinEntry needs a StoreEntry this store returned; got null");
    expect(() => store.pin(Object.create(null))).toThrow("[INVALID_ARGUMENT] pin: item an object is not in the store");
  });
});

describe("[C11] markReady with a checksum: an item written in place carries one", () => {
  it("the descriptor granted and published carries it; the one put is left as it was", () => {
    const store = new MemoryItemStore({ capacityBytes: 64, locate: () => new Uint8Array([7]) });
    const producer = new ProducerCore({ id: "E", epoch: 1, fingerprint: FP, store });
    const changes: StoreChange[] = [];
    store.subscribe((c) => changes.push(c));
    const put = desc(1);
    const r = store.put(put); // no bytes: the store allocates them for the encoder to write into
    if (!r.ok) throw r.error;
    const bytes = store.bytes(kid(1)) as Uint8Array;
    bytes.set([1, 2, 3, 4, 5, 6, 7, 8]); // the encoder writes in place
    const checksum = { algorithm: CRC32C, value: crc32cBytes(bytes) };
    store.markReady(kid(1), checksum);
    expect(store.get(kid(1))?.descriptor.checksum).toEqual(checksum);
    expect(put.checksum).toBeUndefined();
    expect(changes).toEqual([{ kind: "stored", descriptor: expect.objectContaining({ checksum }) }]);
    expect(producer.announce(kid(1))?.item?.checksum).toEqual(checksum);
    // The same checksum again (an idempotent markReady) is accepted.
    expect(() => store.markReady(kid(1), { ...checksum })).not.toThrow();
  });

  it("refuses a checksum that is not CRC-32C, that differs from the one put, or that comes after the item is ready", () => {
    const store = new MemoryItemStore({ capacityBytes: 64 });
    for (const n of [1, 2, 3]) {
      const r = store.put(n === 2 ? { ...desc(n), checksum: { algorithm: CRC32C, value: new Uint8Array([0, 0, 0, 42]) } } : desc(n));
      if (!r.ok) throw r.error;
    }
    expect(() => store.markReady(kid(1), { algorithm: 0, value: new Uint8Array(4) })).toThrow(/algorithm must be CHECKSUM_ALGORITHM_CRC32C \(1\); got 0/);
    expect(() => store.markReady(kid(1), { algorithm: CRC32C, value: new Uint8Array(3) })).toThrow(/must be the 4 bytes of a CRC-32C .*; got 3 bytes/);
    expect(() => store.markReady(kid(1), { algorithm: CRC32C, value: 5 as never })).toThrow(/must be the 4 bytes of a CRC-32C .*; got 5/);
    expect(() => store.markReady(kid(1), "crc" as never)).toThrow(/must be an object \{ algorithm, value \}; got "crc"/);
    expect(store.get(kid(1))?.ready).toBe(false); // nothing changed by a refused call
    expect(() => store.markReady(kid(2), { algorithm: CRC32C, value: new Uint8Array([0, 0, 0, 43]) })).toThrow("its descriptor already carries another checksum");
    expect(() => store.markReady(kid(2), { algorithm: CRC32C, value: new Uint8Array([0, 0, 0, 42]) })).not.toThrow();
    store.markReady(kid(3));
    expect(() => store.markReady(kid(3), { algorithm: CRC32C, value: new Uint8Array(4) })).toThrow(/already ready/);
    expect(store.get(kid(3))?.descriptor.checksum).toBeUndefined();
    expect(() => store.markReady(kid(1), null)).not.toThrow(); // null, as protobuf types an absent checksum: none given
    expect(store.get(kid(1))?.descriptor.checksum).toBeUndefined();
  });

  it("[C2][C11] an item put with a checksum of algorithm UNSPECIFIED (or none), which is no checksum, takes the CRC-32C given at markReady", () => {
    const store = new MemoryItemStore({ capacityBytes: 64 });
    const producer = new ProducerCore({ id: "E", epoch: 1, fingerprint: FP, store });
    const crc = { algorithm: CRC32C, value: crc32cBytes(new Uint8Array(8)) };
    const none: ectp.v1.IChecksum[] = [
      { algorithm: ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_UNSPECIFIED, value: new Uint8Array(0) },
      { algorithm: ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_UNSPECIFIED, value: new Uint8Array([0, 0, 0, 42]) },
      { value: new Uint8Array(0) }, // as ectp.v1.Checksum.create() and JSON leave an empty checksum message
      { algorithm: null, value: null },
    ];
    for (const [i, checksum] of none.entries()) {
      const r = store.put({ ...desc(i + 1), checksum });
      if (!r.ok) throw r.error;
      expect(() => store.markReady(kid(i + 1), crc), `checksum ${i}`).not.toThrow();
      expect(store.get(kid(i + 1))?.descriptor.checksum, `checksum ${i}`).toEqual(crc);
      expect(producer.announce(kid(i + 1))?.item?.checksum, `checksum ${i}`).toEqual(crc);
    }
  });

  it("refuses a checksum that would take a descriptor put at the size limit past it (SPEC section 5)", () => {
    const store = new MemoryItemStore({ capacityBytes: 64 });
    const base = desc(1);
    const bytesOf = (d: ectp.v1.IItemDescriptor) => ectp.v1.ItemDescriptor.encode(d).finish().length;
    // A location that brings the descriptor to exactly MAX_DESCRIPTOR_BYTES.
    let location = new Uint8Array(MAX_DESCRIPTOR_BYTES - bytesOf(base) - 4);
    while (bytesOf({ ...base, location }) < MAX_DESCRIPTOR_BYTES) location = new Uint8Array(location.length + 1);
    while (bytesOf({ ...base, location }) > MAX_DESCRIPTOR_BYTES) location = new Uint8Array(location.length - 1);
    const r = store.put({ ...base, location });
    if (!r.ok) throw r.error;
    expect(() => store.markReady(kid(1), { algorithm: CRC32C, value: new Uint8Array(4) })).toThrow(/with the checksum, the descriptor encodes to \d+ bytes, over the 65536/);
    expect(store.get(kid(1))?.ready).toBe(false);
    expect(store.get(kid(1))?.descriptor.checksum).toBeUndefined();
  });
});

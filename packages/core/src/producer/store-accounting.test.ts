import { MAX_DESCRIPTOR_BYTES, type ectp, itemDescriptorByteLength, itemKeyId } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { MemoryItemStore, descriptorSizeProblem } from "./memory-store.js";
import { desc, kid, ready } from "./test-helpers.js";
import type { StoreChange } from "./types.js";

function removedKeys(seen: StoreChange[]): string[] {
  return seen.flatMap((c) => {
    if (c.kind !== "removed") return [];
    const id = itemKeyId(c.key);
    return id.ok ? [id.value] : [];
  });
}

describe("MemoryItemStore accounting at its bounds", () => {
  it("accepts a descriptor encoding to exactly MAX_DESCRIPTOR_BYTES and refuses one byte more", () => {
    // Find a location length whose descriptor encodes to exactly the limit.
    let exact: ectp.v1.IItemDescriptor | undefined;
    for (let len = MAX_DESCRIPTOR_BYTES - 200; len < MAX_DESCRIPTOR_BYTES && exact === undefined; len++) {
      const d = { ...desc(1), location: new Uint8Array(len) };
      if (itemDescriptorByteLength(d) === MAX_DESCRIPTOR_BYTES) exact = d;
    }
    if (exact === undefined) throw new Error("no location length gives a descriptor of exactly MAX_DESCRIPTOR_BYTES");
    expect(descriptorSizeProblem(exact)).toBeUndefined();
    const store = new MemoryItemStore({ capacityBytes: 100 });
    expect(store.put(exact).ok).toBe(true);
    const over = { ...exact, key: desc(2).key, location: new Uint8Array((exact.location as Uint8Array).length + 1) };
    expect(itemDescriptorByteLength(over)).toBe(MAX_DESCRIPTOR_BYTES + 1);
    expect(descriptorSizeProblem(over)).toMatch(/over the/);
    expect(store.put(over).ok).toBe(false);
  });

  it("[P6] a put needing one byte more than every evictable item frees is OVERLOADED, evicts nothing and keeps usedBytes", () => {
    const store = new MemoryItemStore({ capacityBytes: 30 });
    const seen: StoreChange[] = [];
    store.subscribe((c) => seen.push(c));
    ready(store, 1, 10); // evictable
    expect(store.put(desc(2, 15)).ok).toBe(true); // not ready: stays
    // used 25; a put of 16 needs 11 bytes freed, only 10 are evictable.
    const r = store.put(desc(3, 16));
    expect(!r.ok && r.error.code).toBe("OVERLOADED");
    expect(store.usedBytes()).toBe(25);
    expect(store.get(kid(1))).toBeDefined();
    expect(removedKeys(seen)).toEqual([]);
    // Exactly the evictable bytes: fits by evicting the ready item, never more than capacity.
    expect(store.put(desc(4, 15)).ok).toBe(true);
    expect(removedKeys(seen)).toEqual([kid(1)]);
    expect(store.usedBytes()).toBe(30);
  });

  it("[P6] sizes the eviction by the store as a locate callback left it: a callback that adds an item still leaves usedBytes within capacity", () => {
    let inner: MemoryItemStore | undefined;
    const store = new MemoryItemStore({
      capacityBytes: 30,
      locate: (keyId) => {
        // While item 2 is located, item 3 is stored: 15 more bytes the outer put must make room for.
        if (keyId === kid(2)) expect(inner?.put(desc(3, 15)).ok).toBe(true);
        return new Uint8Array([1]);
      },
    });
    inner = store;
    ready(store, 1, 10);
    expect(store.put(desc(2, 10)).ok).toBe(true);
    expect(store.get(kid(1))).toBeUndefined(); // evicted to make room
    expect(store.usedBytes()).toBe(25);
    expect(store.usedBytes()).toBeLessThanOrEqual(store.capacityBytes);
  });

  it("clear leaves an entry handed out earlier with no pins", () => {
    const store = new MemoryItemStore({ capacityBytes: 100 });
    const k = ready(store, 1);
    const entry = store.get(k);
    store.pin(k);
    store.pin(k);
    expect(entry?.pins).toBe(2);
    store.clear("reset");
    expect(entry?.pins).toBe(0);
    expect(store.totalPins()).toBe(0);
    expect(store.usedBytes()).toBe(0);
  });

  it("[P6] counts exactly near Number.MAX_SAFE_INTEGER: a put whose used + size passes 2^53 is OVERLOADED when it does not fit", () => {
    const cap = Number.MAX_SAFE_INTEGER;
    const store = new MemoryItemStore({ capacityBytes: cap });
    const seen: StoreChange[] = [];
    store.subscribe((c) => seen.push(c));
    expect(store.put(desc(1, 1)).ok).toBe(true); // not ready: stays
    ready(store, 2, 1); // evictable: frees 1 byte of the 2 a put of `cap` bytes needs
    const r = store.put(desc(3, cap));
    expect(!r.ok && r.error.code).toBe("OVERLOADED");
    expect(store.usedBytes()).toBe(2);
    expect(removedKeys(seen)).toEqual([]);
    // With the not-ready item gone, the same put fits exactly, evicting the ready one.
    expect(store.discard(kid(1))).toBe(true);
    expect(store.put(desc(3, cap)).ok).toBe(true);
    expect(store.usedBytes()).toBe(cap);
    expect(removedKeys(seen)).toEqual([kid(1), kid(2)]);
  });

  it("[P6] an item larger than the whole capacity is INVALID_ARGUMENT, not retryable, with a message that says no retry makes it fit", () => {
    const store = new MemoryItemStore({ capacityBytes: 30 });
    const r = store.put(desc(1, 31));
    expect(!r.ok && r.error.code).toBe("INVALID_ARGUMENT");
    expect(!r.ok && r.error.retryable).toBe(false);
    expect(!r.ok && r.error.message).toBe(
      "[INVALID_ARGUMENT] put: the item's 31 bytes exceed the store's whole capacity of 30 bytes; no retry makes it fit: raise capacityBytes",
    );
  });

  it("a put the store cannot allocate bytes for (locate set, no bytes given) is an INTERNAL result, not a thrown RangeError, and evicts nothing", () => {
    const cap = Number.MAX_SAFE_INTEGER;
    const located: string[] = [];
    const store = new MemoryItemStore({
      capacityBytes: cap,
      locate: (k) => {
        located.push(k);
        return new Uint8Array([1]);
      },
    });
    const seen: StoreChange[] = [];
    store.subscribe((c) => seen.push(c));
    ready(store, 1, 1); // evictable: the put below would evict it
    let r: ReturnType<MemoryItemStore["put"]> | undefined;
    expect(() => {
      r = store.put(desc(2, cap)); // no typed array of 2^53 - 1 bytes can be made
    }).not.toThrow();
    expect(r?.ok === false && r.error.code).toBe("INTERNAL");
    expect(r?.ok === false && r.error.message).toMatch(/cannot allocate .* pass the item's bytes to put/);
    expect(located).toEqual([kid(1)]);
    expect(store.get(kid(1))).toBeDefined();
    expect(store.usedBytes()).toBe(1);
    expect(seen.filter((c) => c.kind !== "stored")).toEqual([]);
  });
});

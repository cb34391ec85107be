import { EctpError, MAX_DESCRIPTOR_BYTES, type ectp, itemKeyId } from "@ectp/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryItemStore } from "./memory-store.js";
import type { StoreChange } from "./types.js";

const FP: ectp.v1.IFingerprint = { model: "m", dtype: 2, rowBytes: 4, layoutVersion: 1 };

function desc(n: number, size = 10): ectp.v1.IItemDescriptor {
  return { key: { contentHash: new Uint8Array([n]), fingerprint: FP }, sizeBytes: size, producerId: "E", epoch: 1 };
}
function kid(n: number): string {
  const r = itemKeyId(desc(n).key);
  if (!r.ok) throw r.error;
  return r.value;
}
function record(store: MemoryItemStore): StoreChange[] {
  const seen: StoreChange[] = [];
  store.subscribe((c) => seen.push(c));
  return seen;
}
function putReady(store: MemoryItemStore, n: number, size = 10): string {
  const r = store.put(desc(n, size));
  expect(r.ok).toBe(true);
  store.markReady(kid(n));
  return kid(n);
}

/** A store whose `locate`/`release` keep `registered` (what a transport would hold); `onRelease` runs after each release. */
function registeringStore(capacityBytes: number, onRelease: (store: MemoryItemStore, keyId: string) => void) {
  const registered = new Set<string>();
  const store: MemoryItemStore = new MemoryItemStore({
    capacityBytes,
    locate: (k) => {
      registered.add(k);
      return new Uint8Array([1]);
    },
    release: (k) => {
      registered.delete(k);
      onRelease(store, k);
    },
  });
  return { store, registered };
}

describe("MemoryItemStore", () => {
  it("rejects a capacity that is not a positive integer with an actionable message", () => {
    expect(() => new MemoryItemStore({ capacityBytes: 0 })).toThrow(
      "[INVALID_CONFIG] capacityBytes must be a positive integer number of bytes; got 0. Pass e.g. { capacityBytes: 1 << 30 }",
    );
    expect(() => new MemoryItemStore({ capacityBytes: 1.5 })).toThrow(EctpError);
  });

  it("put adds a not-ready entry counted in sizeBytes; markReady emits stored", () => {
    const store = new MemoryItemStore({ capacityBytes: 100 });
    const seen = record(store);
    const r = store.put(desc(1, 30));
    expect(r.ok && r.value.ready).toBe(false);
    expect(store.usedBytes()).toBe(30);
    expect(seen).toEqual([]);
    store.markReady(kid(1));
    expect(store.get(kid(1))?.ready).toBe(true);
    expect(seen).toEqual([{ kind: "stored", descriptor: desc(1, 30) }]);
    store.markReady(kid(1)); // idempotent
    expect(seen).toHaveLength(1);
    expect([...store.readyItems()].map((e) => e.keyId)).toEqual([kid(1)]);
  });

  it("put of a key already present is an INVALID_ARGUMENT result, not a throw, whose advice works for the item's state", () => {
    const store = new MemoryItemStore({ capacityBytes: 100 });
    store.put(desc(1));
    const r = store.put(desc(1));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("INVALID_ARGUMENT");
      expect(r.error.message).toContain(`is already stored, not yet ready; finish it with markReady(keyId), or drop it first with discard(keyId)`);
    }
    // A ready item cannot be discarded (discard throws for it): the advice is evict, which removes it.
    store.markReady(kid(1));
    const again = store.put(desc(1));
    expect(!again.ok && again.error.message).toContain("is already stored and ready; use that copy, or remove it first with evict(keyId)");
    expect(() => store.discard(kid(1))).toThrow(/is ready; only not-ready items can be discarded/);
    expect(store.evict(kid(1))).toBe("evicted");
    expect(store.put(desc(1)).ok).toBe(true);
  });

  it("put of a malformed descriptor or wrong-length bytes is an INVALID_ARGUMENT result", () => {
    const store = new MemoryItemStore({ capacityBytes: 100 });
    const bad = store.put({ ...desc(1), sizeBytes: null });
    expect(!bad.ok && bad.error.code).toBe("INVALID_ARGUMENT");
    const short = store.put(desc(2, 10), new Uint8Array(3));
    expect(!short.ok && short.error.message).toContain("exactly sizeBytes = 10; got 3 bytes");
    expect(store.usedBytes()).toBe(0);
  });

  it("put of bytes that are not a Uint8Array is an INVALID_ARGUMENT result naming their type, even at the right length", () => {
    const store = new MemoryItemStore({ capacityBytes: 100 });
    const array = store.put(desc(1, 10), new Array(10).fill(0) as unknown as Uint8Array);
    expect(!array.ok && array.error.message).toBe(
      "[INVALID_ARGUMENT] put: bytes must be a Uint8Array of exactly sizeBytes = 10; got an array",
    );
    const text = store.put(desc(2, 10), "0123456789" as unknown as Uint8Array);
    expect(!text.ok && text.error.message).toContain('exactly sizeBytes = 10; got "0123456789"');
    expect(store.usedBytes()).toBe(0);
  });

  it("put refuses a descriptor encoding to more than MAX_DESCRIPTOR_BYTES (with its location), evicting nothing", () => {
    const store = new MemoryItemStore({ capacityBytes: 10 }); // room for one item
    const first = store.put(desc(1));
    if (first.ok) store.markReady(first.value.keyId);
    const big = store.put({ ...desc(2), location: new Uint8Array(MAX_DESCRIPTOR_BYTES) });
    expect(!big.ok && big.error.message).toMatch(/^\[INVALID_ARGUMENT\] put: the descriptor encodes to \d+ bytes, over the 65536/);
    expect(store.get(kid(1))).toBeDefined(); // nothing was evicted for it
    const released: string[] = [];
    const located = new MemoryItemStore({ capacityBytes: 20, locate: () => new Uint8Array(MAX_DESCRIPTOR_BYTES), release: (k) => released.push(k) });
    expect(located.put(desc(3)).ok).toBe(false);
    expect(released).toEqual([kid(3)]); // what locate registered is deregistered: nothing was stored
    expect(store.put({ ...desc(4), location: new Uint8Array(1000) }).ok).toBe(true); // within: the first is evicted
    expect(store.get(kid(1))).toBeUndefined();
    // A getter that answers validation and then throws: the encoder's error becomes the result.
    let reads = 0;
    const fickle = Object.defineProperty({ ...desc(5) }, "producerId", {
      enumerable: true,
      get: () => {
        if (++reads > 1) throw new Error("gone");
        return "E";
      },
    });
    const unencodable = new MemoryItemStore({ capacityBytes: 10 }).put(fickle);
    expect(!unencodable.ok && unencodable.error.message).toContain("put: the descriptor cannot be encoded");
  });

  it("[P6] evicts only ready unpinned items, FIFO by the time each became evictable, and emits removed(evicted)", () => {
    const store = new MemoryItemStore({ capacityBytes: 30 });
    putReady(store, 1);
    putReady(store, 2);
    putReady(store, 3);
    // 1 is pinned then unpinned: it becomes evictable again after 2 and 3.
    store.pin(kid(1));
    store.unpin(kid(1));
    const seen = record(store);
    expect(store.put(desc(4)).ok).toBe(true);
    expect(seen).toEqual([{ kind: "removed", key: desc(2).key, cause: "evicted" }]);
    expect(store.get(kid(2))).toBeUndefined();
    store.markReady(kid(4));
    expect(store.put(desc(5)).ok).toBe(true);
    expect(store.get(kid(3))).toBeUndefined();
    expect(store.get(kid(1))).toBeDefined();
  });

  it("[P6] eviction order matches a reference FIFO model over random put/pin/unpin/evict sequences", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 11 })), { maxLength: 80 }), (ops) => {
        const store = new MemoryItemStore({ capacityBytes: 50 });
        const evicted: string[] = [];
        store.subscribe((c) => {
          if (c.kind !== "removed" || c.cause !== "evicted") return;
          const r = itemKeyId(c.key);
          evicted.push(r.ok ? r.value : "?");
        });
        // Reference: evictable keys in the order they became evictable; pins per key.
        const order: string[] = [];
        const pins = new Map<string, number>();
        const ready = new Set<string>();
        const held = new Set<string>();
        const expected: string[] = [];
        for (const [op, n] of ops) {
          const k = kid(n);
          if (op === 0 && !held.has(k)) {
            let need = held.size * 10 + 10 - 50; // used + size - capacity
            const r = store.put(desc(n));
            if (need > order.length * 10) {
              expect(r.ok).toBe(false);
              continue;
            }
            expect(r.ok).toBe(true);
            while (need > 0) {
              const victim = order.shift() as string;
              held.delete(victim);
              ready.delete(victim);
              expected.push(victim);
              need -= 10;
            }
            held.add(k);
            store.markReady(k);
            ready.add(k);
            order.push(k);
          } else if (op === 1 && ready.has(k)) {
            store.pin(k);
            pins.set(k, (pins.get(k) ?? 0) + 1);
            if (pins.get(k) === 1) order.splice(order.indexOf(k), 1);
          } else if (op === 2 && (pins.get(k) ?? 0) > 0) {
            store.unpin(k);
            pins.set(k, (pins.get(k) as number) - 1);
            if (pins.get(k) === 0) order.push(k);
          } else if (op === 3) {
            // evict(k): only a held, unpinned item goes (every held item here is ready).
            const want = !held.has(k) ? "absent" : (pins.get(k) ?? 0) > 0 ? "pinned" : "evicted";
            expect(store.evict(k)).toBe(want);
            if (want === "evicted") {
              order.splice(order.indexOf(k), 1);
              held.delete(k);
              ready.delete(k);
              expected.push(k);
            }
          }
        }
        expect(evicted).toEqual(expected);
        expect(store.usedBytes()).toBe(held.size * 10);
        // Entries stay plain data: the list links are invisible to serialisation.
        for (const k of held) {
          const e = store.get(k);
          expect(Object.keys(e as object).sort()).toEqual(["bytes", "descriptor", "keyId", "pins", "ready", "sizeBytes"]);
          expect(() => JSON.stringify(e)).not.toThrow();
        }
      }),
    );
  });

  it("[P6] eviction stays FIFO across clear, re-put of an evicted key, and unpin to the back (one long-lived eviction cursor)", () => {
    const store = new MemoryItemStore({ capacityBytes: 30 });
    const evicted: string[] = [];
    store.subscribe((c) => {
      if (c.kind !== "removed" || c.cause !== "evicted") return;
      const r = itemKeyId(c.key);
      evicted.push(r.ok ? r.value : "?");
    });
    for (const n of [1, 2, 3]) putReady(store, n);
    putReady(store, 4); // evicts 1
    putReady(store, 1); // the evicted key again, now the newest: evicts 2
    store.pin(kid(3));
    store.unpin(kid(3)); // 3 goes to the back: order 4, 1, 3
    putReady(store, 5); // evicts 4
    expect(evicted).toEqual([kid(1), kid(2), kid(4)]);
    store.clear("reset");
    for (const n of [6, 7, 8]) putReady(store, n);
    putReady(store, 9); // after a clear the oldest is 6
    expect(evicted.slice(3)).toEqual([kid(6)]);
  });

  it.each(["a listener", "the release callback"] as const)("[P6] %s acting on the store while a put evicts cannot push it past its capacity", (who) => {
    for (const act of ["pin the next victim", "put another item"] as const) {
      const released: string[] = [];
      const answers: boolean[] = [];
      let once = true;
      let store: MemoryItemStore;
      const actOnStore = () => {
        if (!once) return;
        once = false;
        if (act === "put another item") answers.push(store.put(desc(8)).ok);
        else
          try {
            store.pin(kid(2));
            answers.push(true);
          } catch {
            answers.push(false); // evicted too by then
          }
      };
      store = new MemoryItemStore({
        capacityBytes: 30,
        release: (k) => {
          released.push(k);
          if (who === "the release callback") actOnStore();
        },
      });
      if (who === "a listener") store.subscribe((c) => c.kind === "removed" && actOnStore());
      putReady(store, 1);
      putReady(store, 2);
      expect(store.put(desc(3)).ok).toBe(true); // not ready: the store is full
      expect(store.put(desc(9, 20)).ok, act).toBe(true); // evicts 1 and 2
      expect(answers, act).toEqual([false]); // 2 is gone by then; no room for 8
      expect(store.usedBytes(), act).toBe(30);
      expect(released, act).toEqual([kid(1), kid(2)]);
    }
  });

  it("[P6][E1] an item a listener puts again while its eviction is being announced is announced removed, then stored, and keeps its registration", () => {
    const log: string[] = [];
    const store = new MemoryItemStore({
      capacityBytes: 30,
      locate: (k) => {
        log.push(`locate ${k === kid(2) ? 2 : k}`);
        return new Uint8Array([1]);
      },
      release: (k) => log.push(`release ${k === kid(1) ? 1 : k === kid(2) ? 2 : k}`),
    });
    putReady(store, 1, 5);
    putReady(store, 2, 10);
    store.put(desc(3, 15)); // not ready
    log.length = 0;
    const events: string[] = [];
    let again = true;
    store.subscribe((c) => {
      const n = (key: ectp.v1.IItemKey) => (itemKeyId(key).ok && (itemKeyId(key) as { value: string }).value === kid(1) ? 1 : 2);
      events.push(c.kind === "stored" ? `stored ${n(c.descriptor.key as ectp.v1.IItemKey)}` : c.kind === "removed" ? `removed ${n(c.key)}` : c.kind);
      if (c.kind === "removed" && again) {
        again = false;
        putReady(store, 2, 5); // the key whose eviction is announced next
      }
    });
    expect(store.put(desc(9, 6)).ok).toBe(true); // evicts 1 and 2
    expect(events).toEqual(["removed 1", "removed 2", "stored 2"]);
    expect(log).toEqual([`locate ${kid(9)}`, "release 1", "release 2", "locate 2"]); // 2 released before its new registration
    expect(store.get(kid(2))?.descriptor.sizeBytes).toBe(5);
    expect(store.usedBytes()).toBe(15 + 6 + 5);
  });

  // The release callback is engine code that may act on the store (put an item again, pin one):
  // it runs once the store is whole and the removal is queued for announcement, so what it changes
  // is announced after the removal and counted against the capacity like any other change.
  it("[P6][E1] an item its release callback puts again (evicted, or discarded) is announced removed, then stored", () => {
    for (const how of ["evicted", "discarded"] as const) {
      let store: MemoryItemStore;
      let again = true;
      store = new MemoryItemStore({
        capacityBytes: 20,
        release: (k) => {
          if (k !== kid(1) || !again) return;
          again = false;
          putReady(store, 1);
        },
      });
      if (how === "evicted") putReady(store, 1);
      else expect(store.put(desc(1)).ok).toBe(true);
      putReady(store, 2);
      const seen = record(store);
      if (how === "evicted") expect(store.put(desc(3)).ok).toBe(true); // evicts 1, which its callback puts again (evicting 2)
      else store.discard(kid(1));
      const named = seen.map((c) => {
        const key = c.kind === "stored" ? c.descriptor.key : c.kind === "removed" ? c.key : undefined;
        const id = key ? itemKeyId(key) : undefined;
        return `${c.kind} ${id?.ok ? [1, 2].find((n) => kid(n) === id.value) : "?"}`;
      });
      expect(named, how).toEqual(how === "evicted" ? ["removed 1", "removed 2", "stored 1"] : ["removed 1", "stored 1"]);
      expect(store.get(kid(1))?.ready, how).toBe(true);
      expect(store.usedBytes(), how).toBe(20);
    }
  });

  it("a release callback during clear() cannot put an item whose own release is still due, so no item held loses its registration", () => {
    const answers: string[] = [];
    let again = true;
    const { store, registered } = registeringStore(100, (store, k) => {
      if (k !== kid(1) || !again) return;
      again = false;
      const r = store.put(desc(2)); // 2's release comes next: it would deregister the new 2
      answers.push(r.ok ? "ok" : r.error.message);
    });
    putReady(store, 1);
    putReady(store, 2);
    store.clear("reset");
    expect(answers).toEqual([`[INVALID_ARGUMENT] put: item ${kid(2)} is still being released; put it again from its own release callback or after it`]);
    expect([...registered]).toEqual([]);
    putReady(store, 2); // once released, it is stored and registered anew
    expect([...registered]).toEqual([kid(2)]);
  });

  it("a release callback whose discard runs release callbacks of its own still cannot put a key whose release is still due", () => {
    const answers: boolean[] = [];
    let once = true;
    const { store, registered } = registeringStore(100, (store, k) => {
      if (!once || k !== kid(1)) return;
      once = false;
      store.discard(kid(9)); // a nested release, of 9, which frees room for 2
      answers.push(store.put(desc(2)).ok); // 2's release (evicted with 1) is still to run
    });
    expect(store.put(desc(9)).ok).toBe(true); // not ready
    putReady(store, 1, 45);
    putReady(store, 2, 45);
    expect(store.put(desc(3, 90)).ok).toBe(true); // evicts 1 then 2
    expect(answers).toEqual([false]);
    expect([...registered]).toEqual([kid(3)]);
  });

  it("[P6] a locate callback that fills the store makes the outer put OVERLOADED, evicting nothing, and undoes its own registration", () => {
    const released: string[] = [];
    let store: MemoryItemStore;
    let inner = true;
    store = new MemoryItemStore({
      capacityBytes: 20,
      locate: () => {
        if (inner) {
          inner = false;
          expect(store.put(desc(2, 15)).ok).toBe(true); // not ready: never evictable
        }
        return new Uint8Array([1]);
      },
      release: (k) => released.push(k),
    });
    const r = store.put(desc(1, 10));
    expect(r.ok ? "ok" : r.error.code).toBe("OVERLOADED");
    expect(released).toEqual([kid(1)]);
    expect(store.usedBytes()).toBe(15);
  });

  it("a locate callback that puts the same item makes the outer put fail, and the store's bytes stay right", () => {
    let store: MemoryItemStore;
    let inner = true;
    store = new MemoryItemStore({
      capacityBytes: 100,
      locate: () => {
        if (inner) {
          inner = false;
          expect(store.put(desc(1)).ok).toBe(true);
        }
        return new Uint8Array([1]);
      },
    });
    const r = store.put(desc(1));
    expect(r.ok).toBe(false);
    expect(r.ok ? "" : r.error.message).toMatch(/was stored by options.locate itself/);
    expect(store.usedBytes()).toBe(10);
    store.discard(kid(1));
    expect(store.usedBytes()).toBe(0);
  });

  it("[P6] never evicts pinned or not-ready items: a put that cannot fit is OVERLOADED and evicts nothing", () => {
    const store = new MemoryItemStore({ capacityBytes: 30 });
    putReady(store, 1);
    putReady(store, 2);
    store.put(desc(3)); // not ready
    store.pin(kid(1));
    const seen = record(store);
    const r = store.put(desc(4, 20)); // would need 1 (pinned) and 2: only 10 evictable
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("OVERLOADED");
      expect(r.error.retryable).toBe(true);
    }
    expect(seen).toEqual([]);
    expect(store.get(kid(2))).toBeDefined();
    expect(store.usedBytes()).toBe(30);
    // An item larger than the whole region never fits.
    expect(store.put(desc(9, 31)).ok).toBe(false);
  });

  it("discard drops a not-ready item with removed(discarded); a ready one throws INVALID_ARGUMENT", () => {
    const store = new MemoryItemStore({ capacityBytes: 100 });
    const seen = record(store);
    store.put(desc(1));
    expect(store.discard(kid(1))).toBe(true);
    expect(store.discard(kid(1))).toBe(false);
    expect(seen).toEqual([{ kind: "removed", key: desc(1).key, cause: "discarded" }]);
    expect(store.usedBytes()).toBe(0);
    putReady(store, 2);
    expect(() => store.discard(kid(2))).toThrow(/only not-ready items can be discarded/);
  });

  it("[P6][E1] evict removes one ready, unpinned item with removed(evicted), runs its release and frees its room", () => {
    const { store, registered } = registeringStore(30, () => {});
    const seen = record(store);
    for (const n of [1, 2, 3]) putReady(store, n);
    seen.length = 0;
    expect(store.evict(kid(2))).toBe("evicted");
    expect(seen).toEqual([{ kind: "removed", key: desc(2).key, cause: "evicted" }]);
    expect(store.get(kid(2))).toBeUndefined();
    expect(registered.has(kid(2))).toBe(false);
    expect(store.usedBytes()).toBe(20);
    // The room is free: a new item fits without evicting another, and the others keep their FIFO order.
    putReady(store, 4);
    expect(seen.filter((c) => c.kind === "removed")).toHaveLength(1);
    putReady(store, 5); // evicts 1, the oldest
    expect(seen.at(-2)).toEqual({ kind: "removed", key: desc(1).key, cause: "evicted" });
    expect(store.evict(kid(2))).toBe("absent");
  });

  it("[P6] evict leaves a pinned item, a not-ready one and an absent key as they are, and says which", () => {
    const store = new MemoryItemStore({ capacityBytes: 100 });
    putReady(store, 1);
    store.put(desc(2));
    const seen = record(store);
    store.pin(kid(1));
    expect(store.evict(kid(1))).toBe("pinned");
    expect(store.evict(kid(2))).toBe("not-ready");
    expect(store.evict(kid(3))).toBe("absent");
    expect(seen).toEqual([]);
    expect(store.usedBytes()).toBe(20);
    store.unpin(kid(1));
    expect(store.evict(kid(1))).toBe("evicted"); // once its grant is released
    expect(store.totalPins()).toBe(0);
  });

  it("pin and unpin count per call; misuse throws INVALID_ARGUMENT naming the fix", () => {
    const store = new MemoryItemStore({ capacityBytes: 100 });
    store.put(desc(1));
    expect(() => store.pin(kid(1))).toThrow(/not ready; only ready items can be granted \[P1\]/);
    expect(() => store.pin(kid(7))).toThrow(/is not in the store; put it first/);
    // A key of the wrong type (a symbol cannot go into a message template) still gets the typed error.
    const wrongKey = Symbol("k") as unknown as string;
    for (const call of [() => store.pin(wrongKey), () => store.unpin(wrongKey), () => store.markReady(wrongKey)])
      expect(call).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/item Symbol\(k\) (is not in the store|has no pin)/) }));
    // A wrong id of any length is named by its first 100 characters; details keep it whole.
    const long = "k".repeat(100_000);
    for (const call of [() => store.pin(long), () => store.unpin(long), () => store.markReady(long)])
      expect(call).toThrow(
        expect.objectContaining({ message: expect.stringContaining(`item ${"k".repeat(100)}... `), details: { keyId: long } }),
      );
    store.markReady(kid(1));
    store.pin(kid(1));
    store.pin(kid(1));
    expect(store.totalPins()).toBe(2);
    expect(store.get(kid(1))?.pins).toBe(2);
    store.unpin(kid(1));
    store.unpin(kid(1));
    expect(store.totalPins()).toBe(0);
    expect(() => store.unpin(kid(1))).toThrow(/has no pin/);
    try {
      store.unpin(kid(1));
    } catch (e: unknown) {
      expect(EctpError.is(e) && e.code).toBe("INVALID_ARGUMENT");
    }
  });

  it("clear drops everything, pins included, and emits one cleared change", () => {
    const released: string[] = [];
    const store = new MemoryItemStore({ capacityBytes: 100, release: (k) => released.push(k) });
    putReady(store, 1);
    store.put(desc(2));
    store.pin(kid(1));
    const seen = record(store);
    store.clear("reset");
    expect(seen).toEqual([{ kind: "cleared", cause: "reset" }]);
    expect(store.totalPins()).toBe(0);
    expect(store.usedBytes()).toBe(0);
    expect(released.sort()).toEqual([kid(1), kid(2)].sort());
    // The accounting starts afresh: three new items fill the store, and a fourth that would need
    // an eviction finds nothing evictable (they are not ready) instead of counting cleared ones.
    const small = new MemoryItemStore({ capacityBytes: 30 });
    for (const n of [1, 2, 3]) putReady(small, n);
    small.clear("reset");
    for (const n of [4, 5, 6]) expect(small.put(desc(n)).ok).toBe(true);
    const over = small.put(desc(7));
    expect(over.ok ? "ok" : over.error.code).toBe("OVERLOADED");
    expect(small.usedBytes()).toBe(30);
  });

  it("locate registers bytes and sets the location; release is called when the item leaves", () => {
    const located: string[] = [];
    const released: string[] = [];
    const store = new MemoryItemStore({
      capacityBytes: 20,
      locate: (k, bytes) => {
        located.push(k);
        return new Uint8Array([bytes.length]);
      },
      release: (k) => released.push(k),
    });
    const r = store.put(desc(1), new Uint8Array(10).fill(7));
    expect(r.ok && Array.from(r.value.descriptor.location as Uint8Array)).toEqual([10]);
    expect(store.bytes(kid(1))?.[0]).toBe(7);
    store.put(desc(2)); // no bytes given: the store allocates them for the engine to fill
    expect(store.bytes(kid(2))).toHaveLength(10);
    store.markReady(kid(1));
    store.markReady(kid(2));
    store.put(desc(3));
    expect(located).toEqual([kid(1), kid(2), kid(3)]);
    expect(released).toEqual([kid(1)]);
  });

  it("a throwing locate is an INTERNAL result and evicts nothing", () => {
    let fail = false;
    const store = new MemoryItemStore({
      capacityBytes: 20,
      locate: () => {
        if (fail) throw new Error("no memory to register");
        return new Uint8Array([1]);
      },
    });
    store.put(desc(1));
    store.put(desc(2));
    store.markReady(kid(1));
    store.markReady(kid(2));
    fail = true;
    const r = store.put(desc(3)); // would evict item 1 to make room
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe("INTERNAL");
    expect([store.get(kid(1)) !== undefined, store.get(kid(2)) !== undefined, store.usedBytes()]).toEqual([true, true, 20]);
  });

  it("keeps no bytes when neither bytes nor locate are given", () => {
    const store = new MemoryItemStore({ capacityBytes: 20 });
    store.put(desc(1));
    expect(store.bytes(kid(1))).toBeUndefined();
  });

  it("a throwing listener neither corrupts the store nor starves other listeners", () => {
    const store = new MemoryItemStore({ capacityBytes: 20 });
    store.subscribe(() => {
      throw new Error("boom");
    });
    const seen = record(store);
    putReady(store, 1);
    expect(seen).toHaveLength(1);
    const unsub = store.subscribe(() => seen.push({ kind: "cleared", cause: "reset" }));
    unsub();
    putReady(store, 2);
    expect(seen).toHaveLength(2);
  });

  it("[P6] pin right after get pins that entry; one evicted, discarded or cleared in between is not pinned", () => {
    const store = new MemoryItemStore({ capacityBytes: 20 });
    const k1 = putReady(store, 1);
    store.get(k1);
    store.pin(k1);
    expect(store.get(k1)?.pins).toBe(1);
    store.unpin(k1);
    // Looked up, then evicted by a put, then put again under the same key: the new entry is pinned.
    store.get(k1);
    putReady(store, 2);
    putReady(store, 3); // evicts 1 (oldest evictable)
    expect(store.get(k1)).toBeUndefined();
    expect(() => store.pin(k1)).toThrow(EctpError);
    store.get(kid(2));
    putReady(store, 1); // evicts 2; 1 is a new entry
    expect(() => store.pin(kid(2))).toThrow(EctpError);
    store.pin(k1);
    expect(store.get(k1)?.pins).toBe(1);
    expect(store.totalPins()).toBe(1);
    // Cleared between get and pin.
    store.get(k1);
    store.clear("reset");
    expect(() => store.pin(k1)).toThrow(EctpError);
    // A not-ready entry looked up last is still refused [P1].
    const r = store.put(desc(4));
    expect(r.ok).toBe(true);
    store.get(kid(4));
    expect(() => store.pin(kid(4))).toThrow(/not ready/);
    // Discarded between get and pin.
    store.get(kid(4));
    store.discard(kid(4));
    expect(() => store.pin(kid(4))).toThrow(EctpError);
    expect(store.totalPins()).toBe(0);
    // Another key pinned right after a get pins that key, not the one looked up.
    const k5 = putReady(store, 5);
    const k6 = putReady(store, 6);
    store.get(k6);
    store.pin(k5);
    expect([store.get(k6)?.pins, store.get(k5)?.pins]).toEqual([0, 1]);
  });

  it("[P2][P6] unpinEntry acts as unpin for a held entry, refuses one no longer held, and takes foreign entries by key", () => {
    const store = new MemoryItemStore({ capacityBytes: 30 });
    const k1 = putReady(store, 1);
    const e1 = store.get(k1);
    if (!e1) throw new Error("missing");
    store.pin(k1);
    store.pin(k1);
    store.unpinEntry(e1);
    expect(store.get(k1)?.pins).toBe(1);
    putReady(store, 2);
    store.unpinEntry(e1); // last pin: 1 is evictable again, behind 2
    expect(store.totalPins()).toBe(0);
    expect(() => store.unpinEntry(e1)).toThrow(/has no pin/);
    putReady(store, 3);
    putReady(store, 4); // evicts 2 (became evictable before 1 did)
    expect(store.get(kid(2))).toBeUndefined();
    expect(store.get(k1)).toBeDefined();
    // Evicted, then the key put again and pinned: the old entry is refused, the new one keeps its pin.
    putReady(store, 5); // evicts 1
    expect(store.get(k1)).toBeUndefined();
    store.clear("reset");
    putReady(store, 1);
    store.pin(k1);
    expect(() => store.unpinEntry(e1)).toThrow(EctpError);
    expect(store.get(k1)?.pins).toBe(1);
    // A plain object, or an entry of another store, is unpinned by its key.
    store.unpinEntry({ ...(store.get(k1) as object) } as never);
    expect(store.get(k1)?.pins).toBe(0);
    const other = new MemoryItemStore({ capacityBytes: 30 });
    putReady(other, 1);
    store.pin(k1);
    store.unpinEntry(other.get(k1) as never);
    expect(store.get(k1)?.pins).toBe(0);
    expect(other.get(k1)?.pins).toBe(0);
  });
});

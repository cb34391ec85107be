import { itemKeyId } from "@ectp/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryItemStore } from "./memory-store.js";
import { desc, kid } from "./test-helpers.js";
import type { StoreChange } from "./types.js";

/** One operation on the store: `n` names the item (1 to 5). */
type Op =
  | { t: "put"; n: number; size: number; withBytes: boolean }
  | { t: "ready"; n: number }
  | { t: "pin"; n: number }
  | { t: "unpin"; n: number }
  | { t: "discard"; n: number }
  | { t: "clear" };

/** The reference model of one item; bytes in BigInt so that the model's sums are exact at any size. */
interface ModelItem {
  size: bigint;
  ready: boolean;
  pins: number;
}

/** A change as the model writes it: "stored k", "evicted k", "discarded k" or "cleared". */
function changeText(c: StoreChange): string {
  if (c.kind === "cleared") return "cleared";
  const r = itemKeyId(c.kind === "stored" ? c.descriptor.key : c.key);
  return `${c.kind === "stored" ? "stored" : c.cause} ${r.ok ? r.value : "?"}`;
}

/** Up to `maxLength` operations over items 1 to 5 with sizes drawn by `size`. */
function ops(size: fc.Arbitrary<number>, maxLength = 60): fc.Arbitrary<Op[]> {
  const n = fc.integer({ min: 1, max: 5 });
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 4, arbitrary: fc.record({ t: fc.constant("put" as const), n, size, withBytes: fc.boolean() }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant("ready" as const), n }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant("pin" as const), n }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant("unpin" as const), n }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant("discard" as const), n }) },
    { weight: 1, arbitrary: fc.constant({ t: "clear" as const }) },
  );
  return fc.array(op, { maxLength, size: "max" }); // long runs: items pinned twice, evicted, put again
}

/**
 * Run `list` on a store of `capacity` bytes and on a reference model, checking after every step
 * that both agree: bytes used, pins per item and in total, which items are held and ready, which
 * puts succeed, and which changes are announced (in order).
 */
function check(capacity: number, list: Op[]): void {
  const store = new MemoryItemStore({ capacityBytes: capacity });
  const seen: StoreChange[] = [];
  store.subscribe((c) => seen.push(c));
  const cap = BigInt(capacity);
  const model = new Map<string, ModelItem>();
  /** Ready, unpinned keys in the order they became evictable [P6]. */
  let fifo: string[] = [];
  const expected: string[] = []; // changes as "stored k", "evicted k", "discarded k", "cleared"
  const used = () => [...model.values()].reduce((s, m) => s + m.size, 0n);
  for (const op of list) {
    if (op.t === "clear") {
      store.clear("reset");
      model.clear();
      fifo = [];
      expected.push("cleared");
    } else {
      const k = kid(op.n);
      const m = model.get(k);
      if (op.t === "put") {
        // (Only small items come with bytes: see the generators.)
        const r = store.put(desc(op.n, op.size), op.withBytes ? new Uint8Array(op.size) : undefined);
        if (m !== undefined) {
          expect(!r.ok && r.error.code).toBe("INVALID_ARGUMENT"); // already stored
        } else {
          const size = BigInt(op.size);
          let need = used() + size - cap;
          const evictable = fifo.reduce((s, f) => s + (model.get(f) as ModelItem).size, 0n);
          if (need > evictable) {
            // [P6] refuse rather than evict part, or evict a pinned or not-ready item.
            expect(!r.ok && r.error.code).toBe("OVERLOADED");
          } else {
            expect(r.ok).toBe(true);
            while (need > 0n) {
              const victim = fifo.shift() as string;
              need -= (model.get(victim) as ModelItem).size;
              model.delete(victim);
              expected.push(`evicted ${victim}`);
            }
            model.set(k, { size, ready: false, pins: 0 });
          }
        }
      } else if (op.t === "ready") {
        if (m === undefined) expect(() => store.markReady(k)).toThrow(/INVALID_ARGUMENT/);
        else {
          store.markReady(k);
          if (!m.ready) {
            m.ready = true;
            fifo.push(k);
            expected.push(`stored ${k}`); // [E1] once, when it becomes ready
          }
        }
      } else if (op.t === "pin") {
        if (m === undefined || !m.ready) expect(() => store.pin(k)).toThrow(/INVALID_ARGUMENT/);
        else {
          store.pin(k);
          if (m.pins++ === 0) fifo.splice(fifo.indexOf(k), 1);
        }
      } else if (op.t === "unpin") {
        if (m === undefined || m.pins === 0) expect(() => store.unpin(k)).toThrow(/INVALID_ARGUMENT/);
        else {
          store.unpin(k);
          if (--m.pins === 0) fifo.push(k);
        }
      } else if (op.t === "discard") {
        if (m === undefined) expect(store.discard(k)).toBe(false);
        else if (m.ready) expect(() => store.discard(k)).toThrow(/INVALID_ARGUMENT/);
        else {
          expect(store.discard(k)).toBe(true);
          model.delete(k);
          expected.push(`discarded ${k}`);
        }
      }
    }
    // The accounting invariants, after every step.
    expect(BigInt(store.usedBytes())).toBe(used());
    expect(store.usedBytes()).toBeLessThanOrEqual(capacity);
    expect(store.totalPins()).toBe([...model.values()].reduce((s, m) => s + m.pins, 0));
    for (let n = 1; n <= 5; n++) {
      const e = store.get(kid(n));
      const m = model.get(kid(n));
      expect(e === undefined ? undefined : { ready: e.ready, pins: e.pins }).toEqual(m && { ready: m.ready, pins: m.pins });
    }
    expect(new Set([...store.readyItems()].map((e) => e.keyId))).toEqual(new Set([...model].filter(([, m]) => m.ready).map(([k]) => k)));
    expect(seen.map(changeText)).toEqual(expected);
  }
  // [I4] back to baseline: a clear leaves nothing held and no pin.
  store.clear("shutdown");
  expect(store.usedBytes()).toBe(0);
  expect(store.totalPins()).toBe(0);
  expect([...store.readyItems()]).toEqual([]);
}

describe("MemoryItemStore accounting over random operations (model-based)", () => {
  it("[P1][P2][P6][E1][I3] bytes, pins, FIFO evictions and changes match a reference model (small items, sizes differing)", () => {
    fc.assert(fc.property(ops(fc.integer({ min: 1, max: 40 })), (list) => check(60, list)));
  });

  it("[P6][I3] bytes stay exact and within capacity for items near Number.MAX_SAFE_INTEGER", () => {
    const cap = Number.MAX_SAFE_INTEGER;
    // Small items (held, pinned or evictable), then items so large that used + size passes 2^53.
    const n = fc.integer({ min: 1, max: 5 });
    const huge: fc.Arbitrary<Op> = fc.record({
      t: fc.constant("put" as const),
      n,
      size: fc.integer({ min: cap - 3, max: cap }),
      withBytes: fc.constant(false),
    });
    const tail = fc.array(fc.oneof(huge, fc.record({ t: fc.constant("ready" as const), n })), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(ops(fc.integer({ min: 1, max: 3 }), 12), tail, (head, rest) => check(cap, [...head, ...rest])),
      { numRuns: 300 },
    );
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SeededRandom } from "../random.js";
import { backoffDelay } from "./backoff.js";
import { TimerQueue } from "./timer-queue.js";

describe("TimerQueue (deadlines for [C3][C4][C8][P8])", () => {
  it("pops due entries in (time, insertion) order and nothing early", () => {
    const q = new TimerQueue<string>();
    q.push(30, 0, "c");
    q.push(10, 0, "a");
    q.push(10, 0, "b");
    expect(q.popDue(9)).toBeUndefined();
    expect(q.popDue(10)?.ref).toBe("a");
    expect(q.popDue(10)?.ref).toBe("b");
    expect(q.popDue(29)).toBeUndefined();
    expect(q.peekAt()).toBe(30);
    expect(q.popDue(100)?.ref).toBe("c");
    expect(q.peekAt()).toBeUndefined();
  });

  it("a cancelled entry no longer references its target (dead entries retain nothing until reclaimed)", () => {
    const q = new TimerQueue<{ big: Uint8Array }>();
    const target = { big: new Uint8Array(8) };
    const e = q.push(10, 1, target);
    q.push(20, 1, { big: new Uint8Array(1) });
    expect(e.ref).toBe(target);
    q.cancel(e);
    expect(e.live).toBe(false);
    expect(e.ref).toBeUndefined();
    expect(q.size).toBe(1);
    expect(q.popDue(30)?.at).toBe(20);
    expect(q.popDue(30)).toBeUndefined();
  });

  it("cancelled entries never fire and compaction keeps the order", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.boolean()), { maxLength: 400 }), (ops) => {
        const q = new TimerQueue<number>();
        const expected: { at: number; i: number }[] = [];
        ops.forEach(([at, cancel], i) => {
          const e = q.push(at, 0, i);
          if (cancel) q.cancel(e);
          else expected.push({ at, i });
        });
        expect(q.size).toBe(expected.length);
        expected.sort((x, y) => x.at - y.at || x.i - y.i);
        const got: number[] = [];
        for (let e = q.popDue(1000); e !== undefined; e = q.popDue(1000)) got.push(e.ref);
        expect(got).toEqual(expected.map((x) => x.i));
      }),
    );
  });
});

describe("backoffDelay [C4]", () => {
  it("[C4] doubles from the initial delay up to the cap, jittered in [d/2, d]", () => {
    const r = new SeededRandom(7);
    for (let n = 1; n <= 12; n++) {
      const d = Math.min(2000, 50 * 2 ** (n - 1));
      for (let k = 0; k < 50; k++) {
        const v = backoffDelay(n, 50, 2000, r);
        expect(v).toBeGreaterThanOrEqual(d / 2);
        expect(v).toBeLessThanOrEqual(d);
      }
    }
    expect(backoffDelay(5000, 50, 2000, r)).toBeLessThanOrEqual(2000);
  });

  it("[C4] the same seed gives the same schedule", () => {
    const a = new SeededRandom(3);
    const b = new SeededRandom(3);
    for (let n = 1; n < 10; n++) expect(backoffDelay(n, 50, 2000, a)).toBe(backoffDelay(n, 50, 2000, b));
  });
});

/**
 * TimerQueue against a sorted model where the random test in timer-queue.test.ts does not go: a
 * lane holding more than 64 cancelled slots, so it is compacted (that test's 41 records never get
 * there), with deadlines tied in groups and records cancelled or rescheduled at the lane's last
 * deadline in between; then random schedules, cancels and pops over the lanes and the heap, and a
 * final drain that must leave no record referenced.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Timed, TimerQueue } from "./timer-queue.js";

interface Rec extends Timed {
  name: string;
}

function rec(name: string): Rec {
  return { name, tAt: 0, tSeq: 0, tLane: -1, tPos: 0 };
}

describe("TimerQueue: compaction under a model", () => {
  it("fires in (time, scheduling) order and loses nothing through lane compaction, equal-deadline reschedules and random operations", () => {
    const setup = fc.integer({ min: 130, max: 260 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        tie: fc.integer({ min: 1, max: 6 }),
        // Never record 0: the head stays live, so cancelled slots pile up behind it until compaction.
        touched: fc.shuffledSubarray(
          Array.from({ length: n - 1 }, (_, i) => i + 1),
          { minLength: Math.ceil(n * 0.55) },
        ),
        reschedule: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      }),
    );
    const op = fc.tuple(fc.integer({ min: 0, max: 9 }), fc.nat(1_000), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 2 }));
    fc.assert(
      fc.property(setup, fc.array(op, { maxLength: 300 }), ({ n, tie, touched, reschedule }, ops) => {
        const q = new TimerQueue<Rec>(2);
        const recs = Array.from({ length: n }, (_, i) => rec(`r${i}`));
        const pending = new Map<Rec, [at: number, seq: number]>();
        let seq = 0;
        const schedule = (r: Rec, at: number, lane: number) => {
          q.schedule(r, at, lane);
          pending.set(r, [at, seq++]);
        };
        const due = (now: number) =>
          [...pending].filter(([, [at]]) => at <= now).sort((x, y) => x[1][0] - y[1][0] || x[1][1] - y[1][1]);
        // Deadlines in non-decreasing order, `tie` records each: all go to lane 1.
        for (const [i, r] of recs.entries()) schedule(r, 10 + Math.floor(i / tie), 1);
        const lastAt = 10 + Math.floor((n - 1) / tie);
        // More than half of the lane cancelled, or rescheduled at its last deadline (a tie, appended).
        for (const i of touched) {
          const r = recs[i] as Rec;
          if (reschedule[i]) schedule(r, lastAt, 1);
          else {
            q.cancel(r);
            pending.delete(r);
          }
          expect(q.size).toBe(pending.size);
        }
        let now = 10;
        for (const [kind, target, dt, lane] of ops) {
          const r = recs[target % n] as Rec;
          if (kind <= 4) schedule(r, now + dt, lane);
          else if (kind <= 6) {
            q.cancel(r);
            pending.delete(r);
          } else {
            now += dt >> 1;
            for (const [want] of due(now)) {
              expect(q.popDue(now)).toBe(want);
              pending.delete(want);
            }
            expect(q.popDue(now)).toBeUndefined();
          }
          expect(q.size).toBe(pending.size);
        }
        for (const r of recs) expect(q.scheduled(r)).toBe(pending.has(r));
        for (const [want] of due(Number.POSITIVE_INFINITY)) expect(q.popDue(Number.POSITIVE_INFINITY)).toBe(want);
        expect(q.size).toBe(0);
        expect(q.peekAt()).toBeUndefined();
        // Nothing cancelled or fired is still referenced by a lane or the heap.
        const inner = q as unknown as { heap: Rec[]; lanes: { ring: (Rec | undefined)[] }[] };
        expect(inner.heap).toEqual([]);
        for (const l of inner.lanes) expect(l.ring.every((x) => x === undefined)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

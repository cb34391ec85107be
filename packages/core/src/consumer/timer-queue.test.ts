import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SeededRandom } from "../random.js";
import { backoffDelay } from "./backoff.js";
import { type Timed, TimerQueue } from "./timer-queue.js";

/** A record with the timer fields, for the tests. */
interface Rec extends Timed {
  name: string;
}

function rec(name: string): Rec {
  return { name, tAt: 0, tSeq: 0, tLane: -1, tPos: 0 };
}

describe("TimerQueue (deadlines for [C3][C4][C8][P8])", () => {
  it("pops due records in (time, scheduling) order and nothing early, across lanes and the heap", () => {
    const q = new TimerQueue<Rec>(2);
    const [a, b, c, d] = [rec("a"), rec("b"), rec("c"), rec("d")];
    q.schedule(c, 30, 1);
    q.schedule(a, 10, 0);
    q.schedule(b, 10, 2);
    q.schedule(d, 10, 1); // earlier than lane 1's last deadline: goes to the heap
    expect(q.size).toBe(4);
    expect(q.popDue(9)).toBeUndefined();
    expect(q.popDue(10)?.name).toBe("a");
    expect(q.popDue(10)?.name).toBe("b");
    expect(q.popDue(10)?.name).toBe("d");
    expect(q.popDue(29)).toBeUndefined();
    expect(q.peekAt()).toBe(30);
    expect(q.popDue(100)?.name).toBe("c");
    expect(q.peekAt()).toBeUndefined();
    expect(q.size).toBe(0);
  });

  it("a cancelled record is no longer referenced by the queue and never fires", () => {
    const q = new TimerQueue<Rec>(1);
    const target = rec("t");
    const other = rec("o");
    q.schedule(other, 5, 1);
    q.schedule(target, 10, 1);
    q.schedule(rec("x"), 20, 1);
    q.cancel(target);
    expect(q.scheduled(target)).toBe(false);
    expect(q.size).toBe(2);
    const lane = (q as unknown as { lanes: { ring: (Rec | undefined)[] }[] }).lanes[0];
    expect(lane?.ring.includes(target)).toBe(false);
    q.cancel(target); // idempotent
    expect(q.size).toBe(2);
    expect(q.popDue(30)?.name).toBe("o");
    expect(q.popDue(30)?.name).toBe("x");
    expect(q.popDue(30)).toBeUndefined();
  });

  it("rescheduling replaces the pending deadline", () => {
    const q = new TimerQueue<Rec>(1);
    const r = rec("r");
    q.schedule(r, 50, 1);
    q.schedule(r, 5, 0);
    expect(q.size).toBe(1);
    expect(q.popDue(10)?.name).toBe("r");
    expect(q.popDue(100)).toBeUndefined();
  });

  it("matches a sorted reference under random schedules, reschedules, cancels and pops (compaction and growth included)", () => {
    type Op = [kind: number, target: number, at: number, lane: number];
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.integer({ min: 0, max: 9 }), fc.nat(40), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 2 })),
          { maxLength: 600 },
        ),
        (ops: Op[]) => {
          const q = new TimerQueue<Rec>(2);
          const recs = Array.from({ length: 41 }, (_, i) => rec(`r${i}`));
          // Reference: name -> [at, seq] of the pending deadline.
          const pending = new Map<Rec, [number, number]>();
          let seq = 0;
          let now = 0;
          for (const [kind, target, at, lane] of ops) {
            const r = recs[target] as Rec;
            if (kind <= 5) {
              q.schedule(r, now + at, lane);
              pending.set(r, [now + at, seq++]);
            } else if (kind <= 7) {
              q.cancel(r);
              pending.delete(r);
            } else {
              now += at >> 2;
              const due = [...pending].filter(([, [t]]) => t <= now).sort((x, y) => x[1][0] - y[1][0] || x[1][1] - y[1][1]);
              for (const [want] of due) {
                expect(q.popDue(now)).toBe(want);
                pending.delete(want);
              }
              expect(q.popDue(now)).toBeUndefined();
            }
            expect(q.size).toBe(pending.size);
            const earliest = Math.min(...[...pending.values()].map(([t]) => t));
            expect(q.peekAt()).toBe(pending.size === 0 ? undefined : earliest);
          }
        },
      ),
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

// Routing the tests above leave open: deadlines equal to their lane's last one (many requests
// admitted at one clock reading) stay in the FIFO lane and fire in scheduling order; a lane is
// compacted only past 64 cancelled slots it still holds, and then in place, wrapped or not; an attempt
// below 1 backs off as the first.
describe("TimerQueue: equal deadlines in one lane", () => {
  it("records scheduled at the same time as the lane's last deadline are appended to that lane", () => {
    const q = new TimerQueue<Rec>(2);
    const recs = Array.from({ length: 40 }, (_, i) => rec(`r${i}`));
    for (const r of recs) q.schedule(r, 1_000, 2);
    for (const r of recs) expect(r.tLane).toBe(2);
    expect(recs.map((r) => r.tPos)).toEqual(recs.map((_, i) => i));
    for (const r of recs) expect(q.popDue(1_000)).toBe(r);
    expect(q.size).toBe(0);
  });

  it("a deadline equal to the lane's last one after a later one was cancelled still goes to the lane", () => {
    const q = new TimerQueue<Rec>(1);
    const [a, b, c] = [rec("a"), rec("b"), rec("c")];
    q.schedule(a, 10, 1);
    q.schedule(b, 20, 1);
    q.cancel(b);
    q.schedule(c, 20, 1);
    expect(c.tLane).toBe(1);
    expect(q.popDue(20)).toBe(a);
    expect(q.popDue(20)).toBe(c);
    expect(q.popDue(20)).toBeUndefined();
  });
});

describe("TimerQueue: when a lane is compacted", () => {
  it("a few cancels inside a lane leave the other records where they are (no compaction below 64 cancelled slots)", () => {
    const q = new TimerQueue<Rec>(1);
    const recs = Array.from({ length: 10 }, (_, i) => rec(`r${i}`));
    for (const [i, r] of recs.entries()) q.schedule(r, 10 + i, 1);
    for (const i of [2, 5, 8]) q.cancel(recs[i] as Rec);
    for (const i of [0, 1, 3, 4, 6, 7, 9]) expect((recs[i] as Rec).tPos).toBe(i);
    expect(q.size).toBe(7);
    const fired: string[] = [];
    for (let r = q.popDue(100); r !== undefined; r = q.popDue(100)) fired.push(r.name);
    expect(fired).toEqual(["r0", "r1", "r3", "r4", "r6", "r7", "r9"]);
  });

  it("cancelled slots skipped at the head no longer count towards compaction", () => {
    const q = new TimerQueue<Rec>(1);
    const recs = Array.from({ length: 200 }, (_, i) => rec(`r${i}`));
    for (const [i, r] of recs.entries()) q.schedule(r, 10 + i, 1);
    for (let i = 1; i <= 64; i++) q.cancel(recs[i] as Rec); // 64 cancelled behind a live head
    expect(q.popDue(10)).toBe(recs[0]); // the head moves past all 64
    for (let i = 100; i < 105; i++) q.cancel(recs[i] as Rec); // 5 cancelled among 135 queued: no compaction
    expect((recs[199] as Rec).tPos).toBe(199);
    expect((recs[65] as Rec).tPos).toBe(65);
    expect(q.size).toBe(130);
    expect(q.popDue(1_000)).toBe(recs[65]);
  });

  it("a compaction of a lane whose ring wraps keeps the order, every record's own slot and nothing cancelled", () => {
    type Lane = { ring: (Rec | undefined)[]; mask: number; head: number; tail: number };
    const q = new TimerQueue<Rec>(1);
    const lane = () => (q as unknown as { lanes: Lane[] }).lanes[0] as Lane;
    const recs = Array.from({ length: 170 }, (_, i) => rec(`r${i}`));
    for (let i = 0; i < 100; i++) q.schedule(recs[i] as Rec, 10 + i, 1);
    for (let i = 0; i < 60; i++) expect(q.popDue(69)).toBe(recs[i]); // the head moves to 60
    for (let i = 100; i < 160; i++) q.schedule(recs[i] as Rec, 10 + i, 1); // the ring (128 slots) wraps
    expect(lane().mask).toBe(127);
    expect(lane().tail & lane().mask).toBeLessThan(lane().head & lane().mask);
    for (let i = 61; i <= 124; i++) q.cancel(recs[i] as Rec); // the 64th cancel compacts
    const live = [recs[60], ...recs.slice(125, 160)] as Rec[];
    expect(q.size).toBe(live.length);
    const l = lane();
    expect(l.tail - l.head).toBe(live.length);
    expect(l.ring.filter((r) => r !== undefined)).toHaveLength(live.length);
    for (const r of live) expect(l.ring[r.tPos & l.mask]).toBe(r);
    expect(l.tail).toBeLessThanOrEqual(2 * (l.mask + 1)); // positions renumbered, not growing without end
    q.cancel(recs[130] as Rec); // by its new position
    expect(l.ring.includes(recs[130])).toBe(false);
    for (let i = 160; i < 170; i++) q.schedule(recs[i] as Rec, 200 + i, 1);
    const fired: Rec[] = [];
    for (let r = q.popDue(1_000); r !== undefined; r = q.popDue(1_000)) fired.push(r);
    expect(fired).toEqual([...live.filter((r) => r !== recs[130]), ...recs.slice(160, 170)]);
    expect(q.size).toBe(0);
  });
});

describe("backoffDelay: attempts below 1", () => {
  it("attempt 0 (or negative) waits like the first retry, in [initialMs/2, initialMs]", () => {
    for (const attempt of [0, -3]) {
      const a = new SeededRandom(5);
      const b = new SeededRandom(5);
      for (let i = 0; i < 20; i++) {
        const d = backoffDelay(attempt, 100, 1_000, a);
        expect(d).toBe(backoffDelay(1, 100, 1_000, b));
        expect(d).toBeGreaterThanOrEqual(50);
        expect(d).toBeLessThanOrEqual(100);
      }
    }
  });
});

// TimerQueue against a sorted model where the random test above does not go: a lane holding more
// than 64 cancelled slots, so it is compacted (that test's 41 records never get there), with
// deadlines tied in groups and records cancelled or rescheduled at the lane's last deadline in
// between; then random schedules, cancels and pops over the lanes and the heap, and a final drain
// that must leave no record referenced.
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

/**
 * TimerQueue routing the other timer tests leave open: deadlines equal to their lane's last
 * one (many requests admitted at one clock reading) stay in the FIFO lane rather than the heap,
 * and still fire in scheduling order; a lane is compacted only past 64 cancelled slots it still
 * holds; backoffDelay treats an attempt below 1 as the first.
 */
import { describe, expect, it } from "vitest";
import { SeededRandom } from "../random.js";
import { backoffDelay } from "./backoff.js";
import { type Timed, TimerQueue } from "./timer-queue.js";

interface Rec extends Timed {
  name: string;
}

function rec(name: string): Rec {
  return { name, tAt: 0, tSeq: 0, tLane: -1, tPos: 0 };
}

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

/**
 * The timer queue's lanes through growth and compaction and its heap under cancels from the
 * middle (against sorted references), the seeded random source's ranges, independence and
 * pinned sequence, and the backoff's jitter and cap [C4]. Each test fails on a hand mutant that
 * the other tests let pass.
 */
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { SeededRandom } from "../random.js";
import { backoffDelay } from "./backoff.js";
import { type Timed, TimerQueue } from "./timer-queue.js";

interface Rec extends Timed {
  name: string;
}

function rec(name: string): Rec {
  return { name, tAt: 0, tSeq: 0, tLane: -1, tPos: 0 };
}

type LaneView = { ring: (Rec | undefined)[]; head: number; tail: number; dead: number };
const laneOf = (q: TimerQueue<Rec>, i = 0) => (q as unknown as { lanes: LaneView[] }).lanes[i] as LaneView;

describe("TimerQueue", () => {
  it("a lane whose head stays pending while later deadlines are scheduled and cancelled keeps a bounded ring (compaction)", () => {
    const q = new TimerQueue<Rec>(1);
    const head = rec("head");
    q.schedule(head, 1_000_000, 1);
    for (let i = 0; i < 20_000; i++) {
      const r = rec(`r${i}`);
      q.schedule(r, 1_000_000 + i, 1);
      q.cancel(r);
    }
    expect(q.size).toBe(1);
    expect(laneOf(q).ring.length).toBeLessThanOrEqual(256);
    expect(q.popDue(Number.MAX_SAFE_INTEGER)).toBe(head);
  });

  it("after a compaction, records that fired or were cancelled are no longer referenced by the lane", () => {
    const q = new TimerQueue<Rec>(1);
    const recs = Array.from({ length: 200 }, (_, i) => rec(`r${i}`));
    for (const [i, r] of recs.entries()) q.schedule(r, i, 1);
    for (let i = 0; i < 200; i++) if (i % 4 !== 0) q.cancel(recs[i] as Rec); // 150 dead of 200: compacts at 101
    expect(laneOf(q).dead).toBeLessThan(64);
    for (let i = 0; i < 200; i += 4) expect(q.popDue(1_000)).toBe(recs[i]);
    expect(q.popDue(1_000)).toBeUndefined();
    expect(laneOf(q).ring.every((r) => r === undefined)).toBe(true);
  });

  it("one lane through growth and compactions: cancels remove exactly their record, pops come in order, nothing is lost", () => {
    const q = new TimerQueue<Rec>(1);
    const recs = Array.from({ length: 1_000 }, (_, i) => rec(`r${i}`));
    for (const [i, r] of recs.entries()) q.schedule(r, i, 1); // grows 16 -> 1024
    // Cancel two of every three, back to front and then front to back (compactions on the way).
    for (let i = 999; i >= 500; i--) if (i % 3 !== 0) q.cancel(recs[i] as Rec);
    for (let i = 1; i < 500; i++) if (i % 3 !== 0) q.cancel(recs[i] as Rec);
    // After the compactions, cancel some survivors by their (moved) positions.
    for (let i = 0; i < 1_000; i += 30) q.cancel(recs[i] as Rec);
    const want = recs.filter((_, i) => i % 3 === 0 && i % 30 !== 0);
    expect(q.size).toBe(want.length);
    const got: Rec[] = [];
    for (let r = q.popDue(10_000); r !== undefined; r = q.popDue(10_000)) got.push(r);
    expect(got).toEqual(want);
    expect(q.size).toBe(0);
  });

  it("lanes only, many records: matches a sorted reference under schedules in time order, cancels and pops", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.nat(299), fc.nat(3), fc.integer({ min: 1, max: 2 })), { maxLength: 3_000 }),
        (ops) => {
          const q = new TimerQueue<Rec>(2);
          const recs = Array.from({ length: 300 }, (_, i) => rec(`r${i}`));
          const pending = new Map<Rec, [number, number]>();
          let seq = 0;
          let now = 0;
          for (const [kind, target, step, lane] of ops) {
            const r = recs[target] as Rec;
            if (kind <= 6) {
              now += step; // deadlines in time order: they stay in their lane
              q.schedule(r, now, lane);
              pending.set(r, [now, seq++]);
            } else if (kind <= 8) {
              q.cancel(r);
              pending.delete(r);
            } else {
              const due = [...pending].filter(([, [t]]) => t <= now - 50).sort((x, y) => x[1][0] - y[1][0] || x[1][1] - y[1][1]);
              for (const [want] of due) {
                expect(q.popDue(now - 50)).toBe(want);
                pending.delete(want);
              }
            }
            expect(q.size).toBe(pending.size);
          }
          const rest = [...pending].sort((x, y) => x[1][0] - y[1][0] || x[1][1] - y[1][1]).map(([r]) => r);
          const got: Rec[] = [];
          for (let r = q.popDue(Number.MAX_SAFE_INTEGER); r !== undefined; r = q.popDue(Number.MAX_SAFE_INTEGER)) got.push(r);
          expect(got).toEqual(rest);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("heap: cancelling a record from the middle whose replacement is smaller than its new parent sifts it up", () => {
    const q = new TimerQueue<Rec>(0);
    // Scheduled in this order the heap array is exactly this order (each at or after its parent).
    const times = [1, 50, 2, 60, 70, 3, 5, 61, 62, 71, 72, 6, 7, 8, 9];
    const recs = times.map((t) => rec(`t${t}`));
    for (const [i, r] of recs.entries()) q.schedule(r, times[i] as number, 0);
    q.cancel(recs[3] as Rec); // t60 at index 3: the last one (t9) replaces it, under t50
    const got: number[] = [];
    for (let r = q.popDue(1_000); r !== undefined; r = q.popDue(1_000)) got.push(r.tAt);
    expect(got).toEqual(times.filter((t) => t !== 60).sort((a, b) => a - b));
  });

  it("a lane that grows after its head has moved on keeps every record's position (cancel removes exactly it)", () => {
    const q = new TimerQueue<Rec>(1);
    const recs = Array.from({ length: 40 }, (_, i) => rec(`r${i}`));
    for (let i = 0; i < 10; i++) q.schedule(recs[i] as Rec, i, 1);
    for (let i = 0; i < 5; i++) expect(q.popDue(100)).toBe(recs[i]); // head at 5
    for (let i = 10; i < 40; i++) q.schedule(recs[i] as Rec, i, 1); // grows with head 5
    for (const i of [6, 20, 39]) q.cancel(recs[i] as Rec);
    const got: Rec[] = [];
    for (let r = q.popDue(100); r !== undefined; r = q.popDue(100)) got.push(r);
    expect(got).toEqual(recs.slice(5).filter((_, k) => ![6, 20, 39].includes(k + 5)));
  });

  it("heap only: pops in (time, scheduling) order under random schedules and cancels from the middle", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.nat(63), fc.integer({ min: 0, max: 1_000 })), { minLength: 1, maxLength: 400 }),
        (ops) => {
          const q = new TimerQueue<Rec>(0);
          const recs = Array.from({ length: 64 }, (_, i) => rec(`r${i}`));
          const pending = new Map<Rec, [number, number]>();
          let seq = 0;
          for (const [cancel, target, at] of ops) {
            const r = recs[target] as Rec;
            if (cancel) {
              q.cancel(r);
              pending.delete(r);
            } else {
              q.schedule(r, at, 0);
              pending.set(r, [at, seq++]);
            }
          }
          const want = [...pending].sort((x, y) => x[1][0] - y[1][0] || x[1][1] - y[1][1]).map(([r]) => r);
          const got: Rec[] = [];
          for (let r = q.popDue(Number.MAX_SAFE_INTEGER); r !== undefined; r = q.popDue(Number.MAX_SAFE_INTEGER)) got.push(r);
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("SeededRandom", () => {
  it("next() stays below 1 and int(n) below n even at the largest 32-bit output", () => {
    const r = new SeededRandom(1);
    r.nextUint32 = () => 0xffffffff;
    expect(r.next()).toBeLessThan(1);
    expect(r.int(10)).toBe(9);
    r.nextUint32 = () => 0;
    expect(r.next()).toBe(0);
    expect(r.int(10)).toBe(0);
  });

  it("int(n) covers exactly [0, n) and chance(p) is true about p of the time", () => {
    const r = new SeededRandom(42);
    const seen = new Set<number>();
    for (let i = 0; i < 2_000; i++) seen.add(r.int(3));
    expect([...seen].sort()).toEqual([0, 1, 2]);
    let hits = 0;
    for (let i = 0; i < 10_000; i++) if (r.chance(0.1)) hits++;
    expect(hits).toBeGreaterThan(800);
    expect(hits).toBeLessThan(1_200);
    for (let i = 0; i < 1_000; i++) expect(r.chance(0)).toBe(false);
  });

  it("forks are independent of one another and of the parent", () => {
    const parent = new SeededRandom(5);
    const a = parent.fork();
    const b = parent.fork();
    const take = (s: SeededRandom) => Array.from({ length: 8 }, () => s.nextUint32());
    const [xa, xb, xp] = [take(a), take(b), take(parent)];
    expect(xa).not.toEqual(xb);
    expect(xa).not.toEqual(xp);
    // ...and reproducible: the same parent seed gives the same forks.
    const again = new SeededRandom(5);
    expect(take(again.fork())).toEqual(xa);
  });

  it("neighbouring seeds give unrelated first outputs (the warm-up mixes the seed in)", () => {
    const firsts = Array.from({ length: 64 }, (_, s) => new SeededRandom(s).nextUint32());
    expect(new Set(firsts).size).toBe(64);
    // Without mixing, sfc32's first outputs for seeds s and s+1 differ by exactly 1.
    let adjacent = 0;
    for (let s = 0; s + 1 < 64; s++) if (Math.abs((firsts[s + 1] as number) - (firsts[s] as number)) < 1_000) adjacent++;
    expect(adjacent).toBe(0);
  });
});

describe("SeededRandom: the sequence of a seed is pinned", () => {
  it("known outputs (sfc32 with this seeding): a recorded seed replays the same jitter and fault schedule in every version", () => {
    const first4 = (seed: number) => {
      const r = new SeededRandom(seed);
      return Array.from({ length: 4 }, () => r.nextUint32());
    };
    expect(first4(1)).toEqual([4136291496, 1313215899, 343459936, 4033092561]);
    expect(first4(42)).toEqual([2656975315, 3389681514, 2141273246, 2228918308]);
    expect(first4(-7)).toEqual([3340817134, 408482910, 1310013061, 3272239465]);
    expect(first4(2 ** 32 + 5)).toEqual([593016733, 473799586, 638178498, 3780433382]);
    expect(first4(5)).toEqual(first4(2 ** 32 + 5));
    const r = new SeededRandom(1);
    for (let i = 0; i < 99_999; i++) r.nextUint32();
    expect(r.nextUint32()).toBe(776439567);
  });
});

describe("backoffDelay", () => {
  it("[C4] is jittered: one attempt's delays spread over [d/2, d], not one value", () => {
    const r = new SeededRandom(11);
    const ds = Array.from({ length: 400 }, () => backoffDelay(3, 50, 2_000, r)); // d = 200
    expect(Math.min(...ds)).toBeLessThan(110);
    expect(Math.max(...ds)).toBeGreaterThan(190);
    expect(new Set(ds).size).toBeGreaterThan(300);
  });

  it("[C4] the cap applies once the doubling reaches it, and the first retry waits about initialMs", () => {
    const r = new SeededRandom(3);
    for (let k = 0; k < 200; k++) {
      const first = backoffDelay(1, 50, 2_000, r);
      expect(first).toBeGreaterThanOrEqual(25);
      expect(first).toBeLessThanOrEqual(50);
      const capped = backoffDelay(30, 50, 2_000, r);
      expect(capped).toBeGreaterThanOrEqual(1_000);
      expect(capped).toBeLessThanOrEqual(2_000);
    }
  });
});

describe("[C4] a consumer given no seed: the jitter is seeded from its identity, the same in every process", () => {
  /** Retry times of a no-seed consumer C1 (epoch 1) whose attempt is refused NOT_READY five times, built from a fresh module graph. */
  async function retryTimes(): Promise<number[]> {
    vi.resetModules(); // a new copy of every module: the tables' per-process hash seed is drawn again
    const { ConsumerCore } = await import("./consumer.js");
    const { TestPool, FP, remote, env, P, sent } = await import("./test-support.js");
    const core = new ConsumerCore({ id: "C1", epoch: 1, fingerprint: FP, destinations: new TestPool(), config: { heartbeatIntervalMs: 1e6 } });
    core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const times: number[] = [];
    let out = core.poll(0);
    let now = 0;
    for (let k = 0; k < 5; k++) {
      const attemptId = Number(sent(out, "readRequest")[0]?.envelope.readRequest?.attemptId);
      core.handleEnvelope(P, env(P, 1, { readReject: { attemptId, reason: 1 } }), now); // NOT_READY
      core.poll(now);
      now = core.nextDeadline() as number;
      times.push(now);
      out = core.poll(now);
    }
    return times;
  }

  it("two copies of the core (each with its own table hash seed) retry at the same times", async () => {
    const first = await retryTimes();
    const second = await retryTimes();
    expect(new Set(first).size).toBe(5);
    expect(second).toEqual(first);
  });
});

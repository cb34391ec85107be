/**
 * The consumer's deadlines (budgets [C3], grant waits and retries [C4], read deadlines and
 * quarantine caps [C8], heartbeats [P8]), stored in the records that own them.
 *
 * Every record has at most one pending deadline, kept in its own fields ({@link Timed}):
 * scheduling allocates nothing, and cancelling is O(1) in a lane (O(log n) in the heap) and
 * drops the queue's reference to the record at once (a finished request's slot is not kept
 * reachable by its cancelled budget). Most deadlines are `now + a fixed duration` (budget,
 * grant wait, transfer timeout), so they arrive in time order: each such kind goes to a FIFO
 * lane (append and pop in O(1), no comparisons against a big heap that miss the cache). A
 * deadline that would break its lane's order (a clock that went back, a shorter lease) and
 * every other kind go to a binary heap. Cancelled lane slots are skipped at the head and the
 * lane is compacted once they outnumber the live ones and number at least 64. Ties fire in
 * scheduling order across all lanes and the heap (a global sequence number), so the same
 * inputs always fire timers in the same order (determinism).
 * @module
 */

/** The timer fields a record carries. Owned by the queue; callers only read them. */
export interface Timed {
  /** When the pending deadline is due (ms on the injected clock); meaningless when not scheduled. */
  tAt: number;
  /** Scheduling order, to break ties deterministically. */
  tSeq: number;
  /** Where the record is queued: -1 not scheduled, 0 the heap, 1.. a FIFO lane. */
  tLane: number;
  /** Its position there (heap index, or absolute lane position). */
  tPos: number;
}

/** Compaction threshold of a lane: below this many cancelled slots it is never rebuilt. */
const MIN_DEAD_FOR_COMPACTION = 64;

/** A FIFO of records whose deadlines were scheduled in non-decreasing order. */
class Lane<T extends Timed> {
  /** Ring buffer of records; `undefined` marks a cancelled slot. */
  ring: (T | undefined)[] = new Array<T | undefined>(16).fill(undefined);
  mask = 15;
  /** Absolute positions: [head, tail) are queued. */
  head = 0;
  tail = 0;
  dead = 0;
  /** Deadline of the most recently appended record (the lane's order bound). */
  lastAt = Number.NEGATIVE_INFINITY;
}

/** The deadlines of a set of {@link Timed} records, earliest first. */
export class TimerQueue<T extends Timed> {
  private readonly heap: T[] = [];
  private readonly lanes: Lane<T>[] = [];
  private nextSeq = 0;
  private count = 0;

  /** @param laneCount - FIFO lanes (numbered 1..laneCount) for deadlines scheduled in time order. */
  constructor(laneCount: number) {
    for (let i = 0; i < laneCount; i++) this.lanes.push(new Lane<T>());
  }

  /** Scheduled (not cancelled, not fired) deadlines. */
  get size(): number {
    return this.count;
  }

  /**
   * (Re)schedule `rec` at `at`, replacing its pending deadline if any. `lane` (1..) names the
   * FIFO lane of its kind, 0 the heap; a deadline earlier than its lane's last one goes to
   * the heap instead, so every lane stays in time order.
   */
  schedule(rec: T, at: number, lane: number): void {
    if (rec.tLane !== -1) this.cancel(rec);
    rec.tAt = at;
    rec.tSeq = this.nextSeq++;
    this.count++;
    if (lane > 0) {
      const l = this.lanes[lane - 1] as Lane<T>;
      if (at >= l.lastAt) {
        l.lastAt = at;
        if (l.tail - l.head > l.mask) this.grow(l);
        const pos = l.tail++;
        l.ring[pos & l.mask] = rec;
        rec.tLane = lane;
        rec.tPos = pos;
        return;
      }
    }
    const heap = this.heap;
    rec.tLane = 0;
    rec.tPos = heap.length;
    heap.push(rec);
    this.siftUp(heap.length - 1);
  }

  /** Cancel `rec`'s pending deadline (no-op when none). */
  cancel(rec: T): void {
    const lane = rec.tLane;
    if (lane === -1) return;
    rec.tLane = -1;
    this.count--;
    if (lane === 0) {
      this.removeAt(rec.tPos);
      return;
    }
    const l = this.lanes[lane - 1] as Lane<T>;
    const pos = rec.tPos;
    if (pos === l.head) {
      l.ring[pos & l.mask] = undefined;
      l.head++;
      this.skipDead(l);
      return;
    }
    l.ring[pos & l.mask] = undefined;
    l.dead++;
    if (l.dead >= MIN_DEAD_FOR_COMPACTION && l.dead * 2 > l.tail - l.head) this.compact(l);
  }

  /** Whether `rec` has a pending deadline. */
  scheduled(rec: T): boolean {
    return rec.tLane !== -1;
  }

  /** When the earliest deadline is due, or `undefined` when none is scheduled. */
  peekAt(): number | undefined {
    const first = this.first();
    return first === undefined ? undefined : first.tAt;
  }

  /**
   * Remove and return the record with the earliest deadline due at or before `now` (it is
   * then not scheduled), or `undefined` when nothing is due.
   */
  popDue(now: number): T | undefined {
    const rec = this.first();
    if (rec === undefined || rec.tAt > now) return undefined;
    this.cancel(rec);
    return rec;
  }

  /** The record due first, by (time, scheduling order). */
  private first(): T | undefined {
    let best: T | undefined = this.heap[0];
    const lanes = this.lanes;
    for (let i = 0; i < lanes.length; i++) {
      const l = lanes[i] as Lane<T>;
      if (l.head === l.tail) continue;
      const r = l.ring[l.head & l.mask] as T;
      if (best === undefined || r.tAt < best.tAt || (r.tAt === best.tAt && r.tSeq < best.tSeq)) best = r;
    }
    return best;
  }

  /** Advance a lane's head past cancelled slots (keeps the head slot live or the lane empty). */
  private skipDead(l: Lane<T>): void {
    while (l.head !== l.tail && l.ring[l.head & l.mask] === undefined) {
      l.head++;
      l.dead--;
    }
    if (l.head === l.tail) {
      l.head = 0;
      l.tail = 0;
      l.dead = 0;
    }
  }

  private grow(l: Lane<T>): void {
    const size = l.tail - l.head;
    const ring = new Array<T | undefined>((l.mask + 1) * 2).fill(undefined);
    for (let i = 0; i < size; i++) {
      const r = l.ring[(l.head + i) & l.mask];
      ring[i] = r;
      if (r !== undefined) r.tPos = i;
    }
    l.ring = ring;
    l.mask = ring.length - 1;
    l.head = 0;
    l.tail = size;
  }

  /**
   * Drop a lane's cancelled slots, keeping the order, in place: a temporary list of the live
   * records was a large allocation at every compaction (at 10^5 live deadlines, some 1,200 page
   * faults on the development VM each time).
   */
  private compact(l: Lane<T>): void {
    const ring = l.ring;
    const mask = l.mask;
    const size = l.tail - l.head;
    // Positions are renumbered from the head's ring index: the same slots, numbers below 2 * (mask + 1).
    const head = l.head & mask;
    // Live records move towards the head, in order. The write position never passes the read
    // position, and every slot between them is already empty, so nothing is overwritten unread.
    let w = 0;
    for (let i = 0; i < size; i++) {
      const from = (head + i) & mask;
      const r = ring[from];
      if (r === undefined) continue;
      if (w !== i) {
        ring[(head + w) & mask] = r;
        ring[from] = undefined;
      }
      r.tPos = head + w;
      w++;
    }
    l.head = head;
    l.tail = head + w;
    l.dead = 0;
  }

  private removeAt(index: number): void {
    const heap = this.heap;
    const last = heap.pop() as T;
    if (index === heap.length) return;
    heap[index] = last;
    last.tPos = index;
    if (index > 0 && less(last, heap[(index - 1) >> 1] as T)) this.siftUp(index);
    else this.siftDown(index);
  }

  private siftUp(index: number): void {
    const heap = this.heap;
    const rec = heap[index] as T;
    let i = index;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = heap[parentIndex] as T;
      if (!less(rec, parent)) break;
      heap[i] = parent;
      parent.tPos = i;
      i = parentIndex;
    }
    heap[i] = rec;
    rec.tPos = i;
  }

  private siftDown(index: number): void {
    const heap = this.heap;
    const n = heap.length;
    const rec = heap[index] as T;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && less(heap[right] as T, heap[left] as T)) child = right;
      const c = heap[child] as T;
      if (!less(c, rec)) break;
      heap[i] = c;
      c.tPos = i;
      i = child;
    }
    heap[i] = rec;
    rec.tPos = i;
  }
}

function less(a: Timed, b: Timed): boolean {
  return a.tAt < b.tAt || (a.tAt === b.tAt && a.tSeq < b.tSeq);
}

/**
 * A binary min-heap of deadlines with lazy deletion, for the consumer's timers
 * (budgets [C3], grant waits [C4], read deadlines and quarantine caps [C8],
 * heartbeats [P8]).
 *
 * Cancelling only marks an entry dead (O(1)); dead entries are skipped when they
 * reach the top, and the heap is compacted in O(n) once they outnumber the live ones,
 * so a workload that cancels most timers (requests finishing early) keeps the heap
 * proportional to the live timers. Ties fire in insertion order, so the same inputs
 * always fire timers in the same order (determinism).
 * @module
 */

/** One scheduled deadline. Owned by the queue; callers only read it and pass it to `cancel`. */
export interface TimerEntry<T> {
  /** When it is due (ms on the injected clock). */
  readonly at: number;
  /** Insertion order, to break ties deterministically. */
  readonly seq: number;
  /** Caller-defined kind, to dispatch on. */
  readonly kind: number;
  /** Caller-defined target (cleared once cancelled, so a dead entry retains nothing). */
  readonly ref: T;
  /** False once cancelled or fired. */
  live: boolean;
}

/** Compaction threshold: below this many dead entries the heap is never rebuilt. */
const MIN_DEAD_FOR_COMPACTION = 64;

/** A min-heap of {@link TimerEntry} ordered by `(at, seq)`. */
export class TimerQueue<T> {
  private heap: TimerEntry<T>[] = [];
  private nextSeq = 0;
  private dead = 0;

  /** Live (scheduled, not cancelled, not fired) entries. */
  get size(): number {
    return this.heap.length - this.dead;
  }

  /** Schedule `ref` at `at`. Returns the entry, for {@link TimerQueue.cancel}. */
  push(at: number, kind: number, ref: T): TimerEntry<T> {
    const entry: TimerEntry<T> = { at, seq: this.nextSeq++, kind, ref, live: true };
    const heap = this.heap;
    heap.push(entry);
    this.siftUp(heap.length - 1);
    return entry;
  }

  /** Cancel an entry (idempotent). Its slot is reclaimed lazily. */
  cancel(entry: TimerEntry<T> | undefined): void {
    if (entry === undefined || !entry.live) return;
    entry.live = false;
    // A dead entry stays in the heap until it reaches the top or a compaction; it must not keep
    // its target (a finished request's slot, fetch, descriptor...) reachable meanwhile, or every
    // cancelled timer drags its whole object graph through the young generation into old space.
    (entry as { ref: T | undefined }).ref = undefined;
    this.dead++;
    if (this.dead >= MIN_DEAD_FOR_COMPACTION && this.dead * 2 > this.heap.length) this.compact();
  }

  /** When the earliest live entry is due, or `undefined` when none is scheduled. */
  peekAt(): number | undefined {
    this.dropDeadTop();
    const top = this.heap[0];
    return top === undefined ? undefined : top.at;
  }

  /**
   * Remove and return the earliest live entry due at or before `now` (marked not live),
   * or `undefined` when nothing is due. Touches only due entries (and dead ones above them).
   */
  popDue(now: number): TimerEntry<T> | undefined {
    this.dropDeadTop();
    const top = this.heap[0];
    if (top === undefined || top.at > now) return undefined;
    this.removeTop();
    top.live = false;
    return top;
  }

  private dropDeadTop(): void {
    const heap = this.heap;
    while (heap.length > 0 && !(heap[0] as TimerEntry<T>).live) {
      this.removeTop();
      this.dead--;
    }
  }

  private removeTop(): void {
    const heap = this.heap;
    const last = heap.pop() as TimerEntry<T>;
    if (heap.length > 0) {
      heap[0] = last;
      this.siftDown(0);
    }
  }

  private compact(): void {
    const live = this.heap.filter((e) => e.live);
    this.heap = live;
    this.dead = 0;
    for (let i = (live.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private siftUp(index: number): void {
    const heap = this.heap;
    const entry = heap[index] as TimerEntry<T>;
    let i = index;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = heap[parentIndex] as TimerEntry<T>;
      if (!less(entry, parent)) break;
      heap[i] = parent;
      i = parentIndex;
    }
    heap[i] = entry;
  }

  private siftDown(index: number): void {
    const heap = this.heap;
    const n = heap.length;
    const entry = heap[index] as TimerEntry<T>;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && less(heap[right] as TimerEntry<T>, heap[left] as TimerEntry<T>)) child = right;
      const c = heap[child] as TimerEntry<T>;
      if (!less(c, entry)) break;
      heap[i] = c;
      i = child;
    }
    heap[i] = entry;
  }
}

function less<T>(a: TimerEntry<T>, b: TimerEntry<T>): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

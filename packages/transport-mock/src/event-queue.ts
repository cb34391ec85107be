/**
 * A binary min-heap of scheduled virtual-time events, ordered by (time, sequence).
 * The sequence number breaks ties in scheduling order, which is what makes two runs
 * with the same seed and the same calls deliver in exactly the same order.
 * @module
 */

/** One scheduled event: `run(time, arg)`. Internal. */
export interface ScheduledEvent {
  readonly time: number;
  readonly seq: number;
  /** Usually a function made once per fabric, with the per-event state in `arg` (no closure per event). */
  readonly run: (at: number, arg: unknown) => void;
  readonly arg: unknown;
}

/** Min-heap of {@link ScheduledEvent}s. Internal. */
export class EventQueue {
  private readonly heap: ScheduledEvent[] = [];
  private seq = 0;

  /** Schedule `run(time, arg)`: after every event of an earlier time, and of the same time pushed before it. */
  push<A>(time: number, run: (at: number, arg: A) => void, arg: A): void {
    const ev: ScheduledEvent = { time, seq: this.seq++, run: run as (at: number, arg: unknown) => void, arg };
    const h = this.heap;
    // Sift up with a hole: move parents down, write the new event once.
    let i = h.length;
    h.push(ev);
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p]!;
      if (!less(ev, parent)) break;
      h[i] = parent;
      i = p;
    }
    h[i] = ev;
  }

  /** The first event in (time, sequence) order, left in the queue; undefined when it is empty. */
  peek(): ScheduledEvent | undefined {
    return this.heap[0];
  }

  /** Take out and return the first event in (time, sequence) order; undefined when the queue is empty. */
  pop(): ScheduledEvent | undefined {
    const h = this.heap;
    const top = h[0];
    if (top === undefined) return undefined;
    const last = h.pop()!;
    const n = h.length;
    if (n > 0) {
      // Sift down with a hole: move the smaller child up, write `last` once.
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && less(h[r]!, h[l]!) ? r : l;
        const child = h[c]!;
        if (!less(child, last)) break;
        h[i] = child;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

function less(x: ScheduledEvent, y: ScheduledEvent): boolean {
  return x.time < y.time || (x.time === y.time && x.seq < y.seq);
}

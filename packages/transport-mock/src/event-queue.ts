/**
 * A binary min-heap of scheduled virtual-time events, ordered by (time, sequence).
 * The sequence number breaks ties in scheduling order, which is what makes two runs
 * with the same seed and the same calls deliver in exactly the same order.
 * @module
 */

/** One scheduled event. Internal. */
export interface ScheduledEvent {
  readonly time: number;
  readonly seq: number;
  readonly run: (at: number) => void;
}

/** Min-heap of {@link ScheduledEvent}s. Internal. */
export class EventQueue {
  private readonly heap: ScheduledEvent[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(time: number, run: (at: number) => void): void {
    const ev: ScheduledEvent = { time, seq: this.seq++, run };
    const h = this.heap;
    h.push(ev);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  peek(): ScheduledEvent | undefined {
    return this.heap[0];
  }

  pop(): ScheduledEvent | undefined {
    const h = this.heap;
    const top = h[0];
    if (top === undefined) return undefined;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && less(h[l]!, h[m]!)) m = l;
        if (r < h.length && less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}

function less(x: ScheduledEvent, y: ScheduledEvent): boolean {
  return x.time < y.time || (x.time === y.time && x.seq < y.seq);
}

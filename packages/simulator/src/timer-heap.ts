/**
 * The simulator's own timers (encode and service completions, crashes, restarts, cancel storms):
 * a min-heap that gives them back by due time, those due at the same time in the order pushed.
 * @module
 */

/** A timer of the simulator itself: `run(arg)` at `at`. */
export interface Timer {
  /** When it is due (simulated ms). */
  at: number;
  /** The order it was pushed in, which breaks ties between equal due times. */
  seq: number;
  /** Hot timers pass a function made once per run and their state as `arg` (no closure per timer). */
  run: (arg: unknown) => void;
  /** What `run` is called with. */
  arg: unknown;
}

/** Min-heap of timers by (time, insertion order), so equal times run in a fixed order. */
export class TimerHeap {
  private readonly a: Timer[] = [];
  private seq = 0;

  /** Schedule `run(arg)` at `at`. */
  push<A>(at: number, run: (arg: A) => void, arg: A): void {
    const t: Timer = { at, seq: this.seq++, run: run as (arg: unknown) => void, arg };
    const a = this.a;
    a.push(t);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (less(a[p] as Timer, t)) break;
      a[i] = a[p] as Timer;
      i = p;
    }
    a[i] = t;
  }

  /** When the earliest timer is due (`undefined`: none is scheduled). */
  peek(): number | undefined {
    return this.a[0]?.at;
  }

  /** Take the earliest timer (of those due at the same time, the first pushed); `undefined` when none is scheduled. */
  pop(): Timer | undefined {
    const a = this.a;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= a.length) break;
        const r = l + 1;
        const c = r < a.length && less(a[r] as Timer, a[l] as Timer) ? r : l;
        if (less(last, a[c] as Timer)) break;
        a[i] = a[c] as Timer;
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
}

/** Whether `x` runs before `y`: due earlier, or at the same time and pushed earlier. */
function less(x: Timer, y: Timer): boolean {
  return x.at < y.at || (x.at === y.at && x.seq < y.seq);
}

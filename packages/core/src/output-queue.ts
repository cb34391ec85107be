/**
 * The outputs a core queued for its next poll (internal to the cores).
 * @module
 */
import type { CoreOutput } from "./outputs.js";

/**
 * A queue of outputs whose array is reused from poll to poll: `take` hands the caller a
 * right-sized copy (the caller may keep it) and clears the slots, so a core allocates no
 * array per poll beyond the one it returns, and none for an empty poll's queue.
 */
export class OutputQueue {
  private readonly items: (CoreOutput | undefined)[] = [];
  /** Outputs queued: `items[0 .. size)`. */
  size = 0;

  /** Queue an output for the next {@link OutputQueue.take}. */
  push(o: CoreOutput): void {
    const n = this.size;
    if (n < this.items.length) this.items[n] = o;
    else this.items.push(o);
    this.size = n + 1;
  }

  /** Every queued output, in order, in a new array; the queue is empty afterwards. */
  take(): CoreOutput[] {
    const n = this.size;
    if (n === 0) return [];
    // Polled every step, these arrays die young: `new Array(n)` is not pretenured and is
    // cheaper than `slice`.
    const buf = this.items;
    const out = new Array<CoreOutput>(n);
    for (let i = 0; i < n; i++) {
      out[i] = buf[i] as CoreOutput;
      buf[i] = undefined;
    }
    this.size = 0;
    return out;
  }
}

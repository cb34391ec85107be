/**
 * The invariant checker [I1]-[I6] (and the producer rules [P1], [P3] checked on the wire) and the
 * event log it hashes.
 *
 * The simulator reports every event (arrival, admission decision, outcome, fault,
 * core output) here as one short line, or as the parts of one. Events are hashed (the
 * line, or its parts: see {@link InvariantChecker.eventOf}), never stored, so memory does
 * not grow with the run; the hash proves two runs of one seed took identical paths.
 * The event's time is hashed as a number (whole nanoseconds), not formatted: the text
 * `"<time> <line>"` is only built when someone reads it (the sink, a violation).
 * A violation records the first event that showed it, which with the seed is enough
 * to replay the run to that point.
 * @module
 */

/**
 * What a violation breaks: the invariants [I1]-[I6] of spec/SPEC.md, or one of the two producer
 * rules the simulator checks on the wire because no invariant covers them: [P1] (a ReadRequest for
 * an item the store holds answered NOT_FOUND; background failure #2) and [P3] (a grant sent again
 * with a lease that ends later than the one it was granted with; failure #7).
 */
export type InvariantId = "I1" | "I2" | "I3" | "I4" | "I5" | "I6" | "P1" | "P3";

/** One observed violation. */
export interface Violation {
  /** Which invariant (or producer rule). */
  readonly invariant: InvariantId;
  /** What was seen, with ids and numbers. */
  readonly message: string;
  /** Simulated time, ms. */
  readonly timeMs: number;
  /**
   * Index (0-based) of the latest event logged when it was seen: the check that found it runs
   * after that event, so the event is the latest context, not necessarily its cause (a drain of
   * failure reports, for one, logs no event of its own).
   */
  readonly eventIndex: number;
  /** That event's log line. */
  readonly event: string;
}

/** Most violations kept in detail; later ones are only counted. */
export const MAX_KEPT_VIOLATIONS = 20;

/** Hashes the event log and collects invariant violations. */
export class InvariantChecker {
  private h1 = 0x811c9dc5;
  private h2 = 0x01000193;
  private index = -1;
  /** Time and text of the latest event (joined only when a violation needs it). */
  private lastNow = Number.NaN;
  private lastLine = "(start)";
  /**
   * Parts of the latest event when it was logged with {@link InvariantChecker.eventOf}
   * (`lastCount` of them; 0 for {@link InvariantChecker.event}). Plain fields rather than
   * an array: emptying an array with `length = 0` frees its backing store, so refilling
   * it allocated a new one per event.
   */
  private lastCount = 0;
  private lastP0: string | number = "";
  private lastP1: string | number = "";
  private lastP2: string | number = "";
  private lastP3: string | number = "";
  private lastP4: string | number = "";
  private readonly kept: Violation[] = [];
  private total = 0;
  private readonly byInvariant: Record<InvariantId, number> = { I1: 0, I2: 0, I3: 0, I4: 0, I5: 0, I6: 0, P1: 0, P3: 0 };

  /** @param sink - also receives every line (debugging a seed). Default: none. */
  constructor(private readonly sink?: (line: string) => void) {}

  /** Log one event at simulated time `now`. */
  event(now: number, line: string): void {
    this.index++;
    this.lastNow = now;
    this.lastLine = line;
    this.lastCount = 0;
    this.mixTime(now);
    this.mix(line);
    if (this.sink) this.sink(this.eventText());
  }

  /**
   * Log one event at `now` given as parts, whose text is the parts joined by single
   * spaces. Like {@link InvariantChecker.event}, but the line is never built unless the
   * sink or a violation needs it (hot events are logged this way: no string is concatenated
   * or flattened per event). The hash mixes the parts, not their text, integer parts as
   * numbers: an event logged with `event` and the same one logged with `eventOf` hash
   * differently, as do parts `3` and `"3"`.
   */
  eventOf(now: number, p0: string, p1: string | number, p2?: string | number, p3?: string | number, p4?: string | number): void {
    this.index++;
    this.lastNow = now;
    this.lastP0 = p0;
    this.lastP1 = p1;
    let count = 2;
    this.mixTime(now);
    this.mix(p0);
    this.mixPart(p1);
    if (p2 !== undefined) {
      this.lastP2 = p2;
      count++;
      this.mixPart(p2);
      if (p3 !== undefined) {
        this.lastP3 = p3;
        count++;
        this.mixPart(p3);
        if (p4 !== undefined) {
          this.lastP4 = p4;
          count++;
          this.mixPart(p4);
        }
      }
    }
    this.lastCount = count;
    if (this.sink) this.sink(this.eventText());
  }

  /** Report a violation of `invariant`, attributed to the latest event. */
  violate(invariant: InvariantId, now: number, message: string): void {
    this.total++;
    this.byInvariant[invariant]++;
    if (this.kept.length < MAX_KEPT_VIOLATIONS) {
      this.kept.push({ invariant, message, timeMs: now, eventIndex: this.index, event: this.eventText() });
    }
    this.mix(`VIOLATION ${invariant} ${message}`);
  }

  /** Violations seen so far. */
  get count(): number {
    return this.total;
  }

  /** The first {@link MAX_KEPT_VIOLATIONS} violations. */
  violations(): readonly Violation[] {
    return this.kept;
  }

  /** Violations per invariant (and producer rule). */
  counts(): Readonly<Record<InvariantId, number>> {
    return this.byInvariant;
  }

  /** How many events have been logged so far ({@link InvariantChecker.event} and {@link InvariantChecker.eventOf} calls), all hashed. */
  get events(): number {
    return this.index + 1;
  }

  /** 64-bit hash of the event log so far, as 16 hex digits. */
  hash(): string {
    return (this.h1 >>> 0).toString(16).padStart(8, "0") + (this.h2 >>> 0).toString(16).padStart(8, "0");
  }

  /** The latest event as one line: time with microsecond digits, then its text. */
  private eventText(): string {
    if (Number.isNaN(this.lastNow)) return this.lastLine;
    const line = this.lastCount > 0 ? this.partsText() : this.lastLine;
    return `${this.lastNow.toFixed(3)} ${line}`;
  }

  /** The parts of the latest {@link InvariantChecker.eventOf} event joined by single spaces. */
  private partsText(): string {
    const parts = [this.lastP0, this.lastP1, this.lastP2, this.lastP3, this.lastP4];
    parts.length = this.lastCount;
    return parts.join(" ");
  }

  /** Mix one part of an {@link InvariantChecker.eventOf} event (after a separator). */
  private mixPart(v: string | number): void {
    if (typeof v === "string") {
      this.mix(v);
      return;
    }
    if (Number.isSafeInteger(v) && v >= 0) {
      let a = this.h1;
      let b = this.h2;
      const lo = v >>> 0;
      const hi = Math.floor(v / 4294967296) >>> 0;
      a = Math.imul(a ^ lo, 0x01000193);
      b = Math.imul(b ^ lo, 0x5bd1e995);
      b ^= b >>> 15;
      a = Math.imul(a ^ hi ^ 0x80000000, 0x01000193);
      b = Math.imul(b ^ hi, 0x5bd1e995);
      b ^= b >>> 15;
      this.h1 = a;
      this.h2 = b;
      return;
    }
    this.mix(String(v));
  }

  /** Mix a time in ms, as whole nanoseconds (exact for any simulated time below 104 days). */
  private mixTime(now: number): void {
    const ns = Math.round(now * 1e6);
    const lo = ns >>> 0;
    const hi = Math.floor(ns / 4294967296) >>> 0;
    let a = this.h1;
    let b = this.h2;
    a = Math.imul(a ^ lo, 0x01000193);
    b = Math.imul(b ^ lo, 0x5bd1e995);
    b ^= b >>> 15;
    a = Math.imul(a ^ hi, 0x01000193);
    b = Math.imul(b ^ hi, 0x5bd1e995);
    b ^= b >>> 15;
    this.h1 = a;
    this.h2 = b;
  }

  private mix(s: string): void {
    let a = this.h1;
    let b = this.h2;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    a = Math.imul(a ^ 10, 0x01000193);
    this.h1 = a;
    this.h2 = b;
  }
}

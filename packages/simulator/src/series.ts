/**
 * Bounded time series for the HTML report. When a series reaches its cap it halves its
 * resolution, so memory stays constant however long the simulation runs.
 * @module
 */

/**
 * Names of the sampled quantities, in plot order: reads in flight, live pins (grants held at
 * producers), deferred requests, and the running counts of requests that succeeded, fell back to
 * local encoding, failed, were cancelled, or were lost in a crash.
 */
export const SERIES_NAMES = [
  "readsInFlight",
  "livePins",
  "deferredRequests",
  "succeeded",
  "fellBack",
  "failed",
  "cancelled",
  "lostInCrash",
] as const;

/** One of {@link SERIES_NAMES}. */
export type SeriesName = (typeof SERIES_NAMES)[number];

/** Samples over simulated time: `t[i]` (ms) with one value per series at each time. */
export interface TimeSeries {
  /** Sample times, ms of simulated time. */
  readonly t: number[];
  /** Values per series, aligned with `t`. */
  readonly values: Record<SeriesName, number[]>;
}

/** Collects samples every `intervalMs`, coarsening to keep at most `cap` points. */
export class SeriesRecorder {
  private readonly series: TimeSeries = {
    t: [],
    values: Object.fromEntries(SERIES_NAMES.map((n) => [n, [] as number[]])) as Record<SeriesName, number[]>,
  };
  private nextAt = 0;

  /**
   * @param intervalMs - time between samples before coarsening.
   * @param cap - most points kept (default 2,000).
   */
  constructor(
    private intervalMs: number,
    private readonly cap = 2_000,
  ) {}

  /** When the next sample is due. */
  get dueAt(): number {
    return this.nextAt;
  }

  /** Record a sample at `now` if one is due. */
  maybeSample(now: number, sample: () => Record<SeriesName, number>): void {
    if (now < this.nextAt) return;
    const s = sample();
    this.series.t.push(now);
    for (const n of SERIES_NAMES) this.series.values[n].push(s[n]);
    this.nextAt = now + this.intervalMs;
    if (this.series.t.length >= this.cap) this.coarsen();
  }

  /** The samples so far. */
  result(): TimeSeries {
    return this.series;
  }

  private coarsen(): void {
    const keep = (a: number[]) => {
      let j = 0;
      for (let i = 0; i < a.length; i += 2) a[j++] = a[i] as number;
      a.length = j;
    };
    keep(this.series.t);
    for (const n of SERIES_NAMES) keep(this.series.values[n]);
    this.intervalMs *= 2;
  }
}

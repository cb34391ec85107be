/**
 * The metrics sink every core of a run shares ({@link CounterSink}): counters summed over all core
 * instances, for the run's summary.
 * @module
 */
import type { Labels, MetricsSink } from "@ectp/core";

/** Sums counters over every core instance, keyed `name{labels}`. */
export class CounterSink implements MetricsSink {
  /** Every counter's sum so far, by `name{labels}` (`name` for a counter without labels). */
  readonly totals = new Map<string, number>();

  /** Keys of frozen label objects (cores reuse them), so the key is built once per object. */
  private readonly keys = new WeakMap<Labels, Map<string, string>>();

  /** Add `value` to the counter `name` with `labels`. */
  counter(name: string, value = 1, labels?: Labels): void {
    let key = name;
    if (labels) {
      let byName = this.keys.get(labels);
      const cached = byName?.get(name);
      if (cached !== undefined) key = cached;
      else {
        const ks = Object.keys(labels);
        if (ks.length > 0) key += `{${ks.map((k) => `${k}=${labels[k]}`).join(",")}}`;
        // Only a frozen object is sure to keep its labels; a mutable one is keyed every time.
        if (Object.isFrozen(labels)) {
          if (byName === undefined) {
            byName = new Map();
            this.keys.set(labels, byName);
          }
          byName.set(name, key);
        }
      }
    }
    this.totals.set(key, (this.totals.get(key) ?? 0) + value);
  }

  /** Gauges are not kept. */
  gauge(): void {}

  /** Histograms are not kept. */
  histogram(): void {}

  /** The sum of the counters whose key matches `pattern`. */
  sum(pattern: RegExp): number {
    let n = 0;
    for (const [k, v] of this.totals) if (pattern.test(k)) n += v;
    return n;
  }
}

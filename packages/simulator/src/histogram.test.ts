import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MillisHistogram } from "./histogram.js";

/** The definition: the smallest recorded value v with at least q of the observations <= v. */
function naiveQuantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = values.map((v) => Math.max(0, Math.round(v))).sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1] as number;
}

describe("MillisHistogram", () => {
  it("quantiles, max and mean equal those of the sorted observations (across blocks and above the cap)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 3_000 }), fc.double({ min: -5, max: 12_000, noNaN: true })), {
          maxLength: 200,
        }),
        fc.constantFrom(0, 0.01, 0.5, 0.9, 0.99, 1),
        (values, q) => {
          // A small cap so values above it are exercised too (kept exactly in a sparse map).
          const h = new MillisHistogram(10_000);
          for (const v of values) h.record(v);
          const rounded = values.map((v) => Math.max(0, Math.round(v)));
          const expected = naiveQuantile(values, q);
          expect(h.quantile(q)).toBe(expected);
          expect(h.max()).toBe(rounded.length === 0 ? 0 : Math.max(...rounded));
          expect(h.count).toBe(values.length);
          const sum = rounded.reduce((a, b) => a + b, 0);
          expect(h.mean()).toBeCloseTo(values.length === 0 ? 0 : sum / values.length, 9);
        },
      ),
    );
  });

  it("quantiles of waits above the cap are exact (a 5-minute cap and 7- to 13-minute waits)", () => {
    const h = new MillisHistogram(300_000);
    for (const v of [449_950, 449_950, 600_000, 799_950]) h.record(v);
    expect([h.quantile(0.5), h.quantile(0.75), h.quantile(0.99), h.max()]).toEqual([449_950, 600_000, 799_950, 799_950]);
  });

  it("is empty-safe", () => {
    const h = new MillisHistogram();
    expect(h.quantile(0.5)).toBe(0);
    expect(h.max()).toBe(0);
    expect(h.mean()).toBe(0);
  });

  it("counts values at block edges and at the cap exactly", () => {
    const h = new MillisHistogram(300_000);
    for (const v of [1023, 1024, 1025, 300_000, 0]) h.record(v);
    expect(h.quantile(0.2)).toBe(0);
    expect(h.quantile(0.4)).toBe(1023);
    expect(h.quantile(0.6)).toBe(1024);
    expect(h.quantile(0.8)).toBe(1025);
    expect(h.quantile(1)).toBe(300_000);
    expect(h.max()).toBe(300_000);
  });
});

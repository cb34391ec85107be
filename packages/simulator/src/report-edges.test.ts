/**
 * The numbers users read, checked at their edges: histogram quantiles around the exact cap, the
 * time series' sampling and coarsening, the SVG plots' scales, the summary table's rows and
 * percentages, the HTML verdict, the invariant checker's bookkeeping and the workload's sizes and
 * hashes. Each test fails on a small change of histogram.ts, series.ts, report.ts, summary.ts,
 * invariants.ts or workload.ts that the other tests let pass (found by mutation testing).
 * Fabricated summaries and tiny runs only.
 */
import { SeededRandom } from "@ectp/core";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SIMULATION_CONFIG,
  InvariantChecker,
  MAX_KEPT_VIOLATIONS,
  SERIES_NAMES,
  type SeriesName,
  type SimulationSummary,
  type TimeSeries,
  formatSummary,
  formatViolations,
  renderReport,
  reproduceCommand,
  runSimulation,
  scaledSize,
  svgPlot,
} from "./index.js";
import { MillisHistogram } from "./histogram.js";
import { SeriesRecorder } from "./series.js";
import { WorkloadGenerator } from "./workload.js";

const sample = (now: number) => Object.fromEntries(SERIES_NAMES.map((n, i) => [n, now + i])) as Record<SeriesName, number>;

function series(t: number[], v: Partial<Record<SeriesName, number[]>>): TimeSeries {
  return { t, values: Object.fromEntries(SERIES_NAMES.map((n) => [n, v[n] ?? t.map(() => 0)])) as Record<SeriesName, number[]> };
}

/** A real summary of a tiny run, with the fields under test replaced. */
async function summaryWith(change: Partial<SimulationSummary>): Promise<SimulationSummary> {
  const { summary } = await runSimulation({ producers: 1, consumers: 1, concurrency: 4, requests: 8, timeSeries: false });
  return { ...summary, ...change };
}

const row = (table: string, label: string) => table.split("\n").find((l) => l.startsWith(`${label} `))?.slice(label.length).trim();

describe("latency histogram at the cap", () => {
  it("a value exactly at the cap is counted before the values above it", () => {
    const h = new MillisHistogram(10_000);
    for (const v of [10_000, 20_000]) h.record(v);
    expect(h.quantile(0.5)).toBe(10_000);
    expect(h.quantile(1)).toBe(20_000);
  });

  it("values above the cap recorded out of order give ordered quantiles", () => {
    const h = new MillisHistogram(300_000);
    for (const v of [700_000, 400_000, 500_000]) h.record(v);
    expect([h.quantile(0.33), h.quantile(0.66), h.quantile(1)]).toEqual([400_000, 500_000, 700_000]);
  });
});

describe("time series", () => {
  it("samples at the first call, then once per interval from the sample's own time", () => {
    const r = new SeriesRecorder(10);
    for (const now of [0, 15, 22, 25]) r.maybeSample(now, () => sample(now));
    expect(r.result().t).toEqual([0, 15, 25]);
    expect(r.dueAt).toBe(35);
  });

  it("at the cap keeps every other sample, values aligned with times, and doubles the interval", () => {
    const r = new SeriesRecorder(10, 4);
    for (const now of [0, 5, 10, 12, 20, 30, 40, 50, 60, 70, 80]) r.maybeSample(now, () => sample(now));
    const s = r.result();
    expect(s.t).toEqual([0, 40, 80]);
    for (const [i, n] of SERIES_NAMES.entries()) expect(s.values[n]).toEqual(s.t.map((t) => t + i));
    expect(r.dueAt).toBe(120);
  });
});

describe("SVG plots", () => {
  it("scales: 0 on the x axis, the largest value at the top, the last time at the right", () => {
    const svg = svgPlot(series([0, 1000, 2500], { failed: [0, 5, 3] }), ["failed"], "F");
    // One legend row: the plot area runs from y = 42 (the top) to 206 (the x axis).
    expect(svg).toContain('points="56.0,206.0 316.8,42.0 708.0,107.6"');
    expect(svg).toContain('text-anchor="end">5</text>');
    expect(svg).toContain(">2.5 s</text>");
  });

  it("every legend is inside the plot's width, in rows of two, above the plot area, whatever the number of series", () => {
    const svg = svgPlot(series([0, 1000], {}), [...SERIES_NAMES], "all");
    const width = Number(/width="(\d+)"/.exec(svg)?.[1]);
    const top = Number(/<line x1="56" y1="(\d+)"[^>]*x2="56"/.exec(svg)?.[1]);
    const legends = [...svg.matchAll(/<text x="(\d+)" y="(\d+)" font-size="11" fill=/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(legends).toHaveLength(SERIES_NAMES.length);
    // The longest title, "lost with a crashed consumer (cumulative)", takes some 230 px at 11 px.
    for (const [x, y] of legends) expect({ right: (x ?? 0) + 230 <= width, above: (y ?? 0) < top }).toEqual({ right: true, above: true });
    expect(new Set(legends.map(([x, y]) => `${x},${y}`)).size).toBe(SERIES_NAMES.length);
    expect(new Set(legends.map(([x]) => x)).size).toBe(2);
  });

  it("escapes the title", () => {
    const svg = svgPlot(series([0], {}), ["failed"], "a<b&c");
    expect(svg).toContain("a&#60;b&#38;c");
    expect(svg).not.toContain("a<b");
  });
});

describe("HTML report", () => {
  it("one violation is a failure; the outcome plot has all three outcomes; the sample count is exact", async () => {
    const s = await summaryWith({ violations: { count: 1, byInvariant: { I1: 1, I2: 0, I3: 0, I4: 0, I5: 0, I6: 0, P1: 0, P3: 0 }, first: [] } });
    const html = renderReport(s, series([0, 10, 20], {}));
    expect(html).toContain('<p class="bad"><strong>1 invariant violation(s).</strong>');
    for (const color of ["#2ca02c", "#bcbd22", "#d62728"]) expect(html).toContain(`stroke="${color}"`);
    expect(html).toContain("; 3 samples.");
  });
});

describe("summary table", () => {
  const requests = { total: 20, succeededRemote: 10, fellBackLocal: 3, failed: 4, cancelled: 3, lostInCrash: 0, failedByReason: { RARE: 1, COMMON: 3 } };

  it("each outcome row shows its own count and its share of all requests", async () => {
    const t = formatSummary(await summaryWith({ requests }));
    expect(row(t, "succeeded remote")).toBe("10 (50.00%)");
    expect(row(t, "fell back to local encoding")).toBe("3 (15.00%)");
    expect(row(t, "failed")).toBe("4 (20.00%)");
    expect(row(t, "cancelled by client")).toBe("3 (15.00%)");
    expect(t.indexOf("  COMMON")).toBeLessThan(t.indexOf("  RARE")); // most frequent reason first
  });

  it("latencies in order p50 / p99 / max, simulated time to 0.1 s, store events, injected faults only", async () => {
    const t = formatSummary(
      await summaryWith({
        admissionWaitMs: { p50: 3, p99: 40, max: 50, mean: 7 },
        simulatedMs: 2345,
        storeEvents: { evictions: 7, storeFull: 2 },
        faultsInjected: { drop: 2, delay: 0 },
      }),
    );
    expect(row(t, "admission wait p50 / p99 / max")).toBe("3 / 40 / 50 ms");
    expect(row(t, "simulated time")).toBe("2.3 s");
    expect(row(t, "store evictions / store full")).toBe("7 / 2");
    expect(row(t, "faults injected")).toBe("drop 2");
  });

  it("bytes: 1000 is 1.0 KB, below 100 of a unit one decimal", async () => {
    const t = formatSummary(await summaryWith({ bytes: { scale: 1, nominalRead: 1000, actualRead: 12_345 } }));
    expect(row(t, "byte scale")).toBe("1:1 (1.0 KB nominal read as 12.3 KB)");
  });

  it("one violation prints the violation block; the block lists the first five", async () => {
    const first = Array.from({ length: 6 }, (_, i) => ({ invariant: "I4" as const, message: `m${i}`, timeMs: i, eventIndex: i, event: `e${i}` }));
    const s = await summaryWith({ violations: { count: 1, byInvariant: { I1: 0, I2: 0, I3: 0, I4: 1, I5: 0, I6: 0, P1: 0, P3: 0 }, first: first.slice(0, 1) } });
    expect(formatSummary(s)).toContain("INVARIANT VIOLATIONS: 1 ");
    const block = formatViolations({ ...s, violations: { ...s.violations, count: 6, first } });
    expect(block.split("\n").filter((l) => l.startsWith("  [I4]")).length).toBe(5);
  });
});

describe("reproduce command", () => {
  it("a seed of -1 is glued to its flag (`--seed -1` reads as a missing value)", () => {
    expect(reproduceCommand({ ...DEFAULT_SIMULATION_CONFIG, seed: -1 })).toMatch(/^npx @ectp\/cli simulate --seed=-1 /);
  });
});

describe("invariant checker bookkeeping", () => {
  it("[I1] counts every violation, keeps the first MAX_KEPT_VIOLATIONS with their event", () => {
    const c = new InvariantChecker();
    c.event(1.2345, "first");
    c.eventOf(2, "a", 1, 2, 3);
    c.violate("I3", 2, "v0");
    c.event(3, "plain");
    c.violate("I5", 3, "v1");
    for (let i = 0; i < MAX_KEPT_VIOLATIONS + 3; i++) c.violate("I1", 3, `x${i}`);
    expect(c.events).toBe(3);
    expect(c.count).toBe(MAX_KEPT_VIOLATIONS + 5);
    expect(c.counts()).toEqual({ I1: MAX_KEPT_VIOLATIONS + 3, I2: 0, I3: 1, I4: 0, I5: 1, I6: 0, P1: 0, P3: 0 });
    expect(c.violations().length).toBe(MAX_KEPT_VIOLATIONS);
    expect(c.violations()[0]).toMatchObject({ invariant: "I3", eventIndex: 1, event: "2.000 a 1 2 3" });
    expect(c.violations()[1]).toMatchObject({ invariant: "I5", eventIndex: 2, event: "3.000 plain" });
    const d = new InvariantChecker();
    d.event(1.2345, "first");
    d.violate("I2", 1.2345, "m");
    expect(d.violations()[0]).toMatchObject({ eventIndex: 0, event: "1.234 first" });
  });
});

describe("workload", () => {
  const shape = { minItemsPerRequest: 1, maxItemsPerRequest: 1, minItemBytes: 4000, maxItemBytes: 4000, itemReuse: 0, byteScale: 1000 };

  it("real sizes follow the byte scale", () => {
    const [item] = new WorkloadGenerator(new SeededRandom(1), shape).nextItems();
    expect(item?.sizeBytes).toBe(scaledSize(4000, 1000));
    expect(item?.sizeBytes).toBeLessThan(4000);
  });

  it("fresh items have distinct content hashes, every byte varying", () => {
    const g = new WorkloadGenerator(new SeededRandom(2), shape);
    const hashes = Array.from({ length: 500 }, () => (g.nextItems()[0] as { contentHash: Uint8Array }).contentHash);
    expect(new Set(hashes.map((h) => Buffer.from(h).toString("hex"))).size).toBe(500);
    for (let i = 0; i < 16; i++) expect(new Set(hashes.map((h) => h[i])).size).toBeGreaterThan(100);
  });
});

describe("byte sizes in the summary table", () => {
  it("a size that rounds up to 1000 of a unit is printed in the next unit; one that rounds to 100 has no decimal", async () => {
    const { summary } = await runSimulation({ producers: 1, consumers: 1, concurrency: 4, requests: 8, timeSeries: false });
    const t = formatSummary({ ...summary, bytes: { scale: 1, nominalRead: 999_999, actualRead: 99_960 } });
    expect(t).toContain("(1.0 MB nominal read as 100 KB)");
  });
});

/**
 * A self-contained HTML report of one run: the summary table and inline SVG plots of
 * in-flight reads, live pins, deferred requests and outcomes over simulated time.
 * No scripts, no external assets: the file can be attached to a CI run as is.
 * @module
 */
import { EctpError, describeValue } from "@ectp/protocol";
import { SERIES_NAMES, type SeriesName, type TimeSeries } from "./series.js";
import { type SimulationSummary, checkSummary, summaryTable } from "./summary.js";

const COLORS: Record<SeriesName, string> = {
  readsInFlight: "#1f77b4",
  livePins: "#ff7f0e",
  deferredRequests: "#9467bd",
  succeeded: "#2ca02c",
  fellBack: "#bcbd22",
  failed: "#d62728",
  cancelled: "#7f7f7f",
  lostInCrash: "#8c564b",
};

const TITLES: Record<SeriesName, string> = {
  readsInFlight: "reads in flight",
  livePins: "live pins",
  deferredRequests: "deferred requests",
  succeeded: "succeeded remote (cumulative)",
  fellBack: "fell back to local (cumulative)",
  failed: "failed (cumulative)",
  cancelled: "cancelled by client (cumulative)",
  lostInCrash: "lost with a crashed consumer (cumulative)",
};

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** What a series argument must be, as the errors say it. */
const SERIES_EXPECTED = "a TimeSeries (the series of runSimulation or Simulation.run: { t, values })";

/** Throws EctpError(INVALID_ARGUMENT) naming `fn` unless `series` has `t` and an array in `values` for each of `names`. */
function checkSeries(fn: string, series: unknown, names: readonly SeriesName[]): asserts series is TimeSeries {
  let problem: string | undefined;
  if (typeof series !== "object" || series === null || Array.isArray(series)) problem = `got ${describeValue(series)}`;
  else {
    const { t, values } = series as Record<string, unknown>;
    if (!Array.isArray(t)) problem = `its t is ${describeValue(t)}, not an array of sample times`;
    else if (typeof values !== "object" || values === null) problem = `its values is ${describeValue(values)}, not an object of series`;
    else {
      const missing = names.find((n) => !Array.isArray((values as Record<string, unknown>)[n]));
      if (missing !== undefined) problem = `its values.${missing} is ${describeValue((values as Record<string, unknown>)[missing])}, not an array`;
    }
  }
  if (problem !== undefined) throw new EctpError("INVALID_ARGUMENT", `${fn}: the series must be ${SERIES_EXPECTED}; ${problem}`, { details: { problem } });
}

/**
 * One line plot of several series sharing an axis, as an SVG string.
 * @throws EctpError(INVALID_ARGUMENT) when `series` is not a {@link TimeSeries} with each of
 *   `names`, a name is not one of {@link SERIES_NAMES}, or `title` is not a string.
 */
export function svgPlot(series: TimeSeries, names: readonly SeriesName[], title: string): string {
  const given: unknown = names;
  const unknownName = Array.isArray(given) ? given.findIndex((n) => !(SERIES_NAMES as readonly unknown[]).includes(n)) : -1;
  if (!Array.isArray(given) || unknownName >= 0)
    throw new EctpError(
      "INVALID_ARGUMENT",
      `svgPlot: names must be an array of series names (${SERIES_NAMES.join(", ")}); got ${Array.isArray(given) ? `${describeValue(given[unknownName])} among them` : describeValue(given)}`,
    );
  if (typeof title !== "string") throw new EctpError("INVALID_ARGUMENT", `svgPlot: title must be a string; got ${describeValue(title)}`);
  checkSeries("svgPlot", series, names);
  return plot(series, names, title);
}

/** {@link svgPlot} of arguments already checked. */
function plot(series: TimeSeries, names: readonly SeriesName[], title: string): string {
  const W = 720;
  const L = 56;
  const R = 12;
  const B = 32;
  // The legend, in rows of as many columns as fit (the longest title takes some 230 px at 11 px), above
  // the plot area: the plot is as tall whatever the number of series.
  const COLUMN = 240;
  const perRow = Math.max(1, Math.floor((W - L - R) / COLUMN));
  const rows = Math.ceil(names.length / perRow);
  const T = 28 + 14 * rows;
  const H = T + 164 + B;
  const t = series.t;
  const tMax = Math.max(1, t[t.length - 1] ?? 1);
  let yMax = 1;
  for (const n of names) for (const v of series.values[n]) if (v > yMax) yMax = v;
  const x = (ms: number) => L + ((W - L - R) * ms) / tMax;
  const y = (v: number) => H - B - ((H - T - B) * v) / yMax;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(title)}">`,
    `<text x="${L}" y="16" font-size="13" font-weight="bold">${escapeHtml(title)}</text>`,
    `<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#999"/>`,
    `<line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="#999"/>`,
    `<text x="${L - 4}" y="${T + 4}" font-size="11" text-anchor="end">${yMax}</text>`,
    `<text x="${L - 4}" y="${H - B}" font-size="11" text-anchor="end">0</text>`,
    `<text x="${W - R}" y="${H - 8}" font-size="11" text-anchor="end">${(tMax / 1000).toFixed(1)} s</text>`,
    `<text x="${L}" y="${H - 8}" font-size="11">0 s (simulated time)</text>`,
  ];
  names.forEach((n, i) => {
    const vals = series.values[n];
    const pts = t.map((ms, k) => `${x(ms).toFixed(1)},${y(vals[k] ?? 0).toFixed(1)}`).join(" ");
    parts.push(`<polyline fill="none" stroke="${COLORS[n]}" stroke-width="1.5" points="${pts}"/>`);
    parts.push(
      `<text x="${L + 8 + (i % perRow) * COLUMN}" y="${36 + 14 * Math.floor(i / perRow)}" font-size="11" fill="${COLORS[n]}">${escapeHtml(TITLES[n])}</text>`,
    );
  });
  parts.push("</svg>");
  return parts.join("");
}

/**
 * The whole report as one HTML document.
 * @throws EctpError(INVALID_ARGUMENT) when `summary` is not a {@link SimulationSummary} or
 *   `series` not a {@link TimeSeries} (`null`, `{}`, one with parts missing).
 */
export function renderReport(summary: SimulationSummary, series: TimeSeries): string {
  checkSummary("renderReport", summary);
  checkSeries("renderReport", series, SERIES_NAMES);
  const plots = [
    plot(series, ["readsInFlight"], "Reads in flight"),
    plot(series, ["livePins"], "Live pins (producers)"),
    plot(series, ["deferredRequests"], "Deferred requests (waiting for admission)"),
    plot(series, ["succeeded", "fellBack", "failed", "cancelled", "lostInCrash"], "Outcomes (cumulative)"),
  ];
  const ok = summary.violations.count === 0;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ECTP simulation, seed ${escapeHtml(String(summary.seed))}, faults ${escapeHtml(summary.faults)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:780px}pre{background:#f6f6f6;padding:1em;overflow-x:auto}
.ok{color:#2ca02c}.bad{color:#d62728}svg{display:block;margin:1em 0;border:1px solid #eee}</style></head>
<body>
<h1>ECTP simulation</h1>
<p class="${ok ? "ok" : "bad"}"><strong>${ok ? "No invariant violations." : `${escapeHtml(String(summary.violations.count))} invariant violation(s).`}</strong></p>
<pre>${escapeHtml(summaryTable(summary))}</pre>
<h2>Over simulated time</h2>
${plots.join("\n")}
<p>Series: ${SERIES_NAMES.map((n) => escapeHtml(TITLES[n])).join(", ")}; ${series.t.length} samples.</p>
<p>Reproduce: <code>${escapeHtml(summary.reproduce)}</code></p>
</body></html>
`;
}

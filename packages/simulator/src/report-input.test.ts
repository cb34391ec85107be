/**
 * formatSummary, formatViolations, renderReport and svgPlot refuse what is not a summary or a
 * time series (null, {}, one with a part missing) with EctpError(INVALID_ARGUMENT) naming the
 * function and the input expected, instead of a raw TypeError from deep inside the formatting.
 */
import { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { SERIES_NAMES, type SeriesName, type SimulationSummary, type TimeSeries, formatSummary, formatViolations, renderReport, runSimulation, svgPlot } from "./index.js";
import { thrownBy } from "./test-support.js";

function expectInvalid(e: unknown, ...fragments: string[]): void {
  expect(EctpError.is(e), String(e)).toBe(true);
  expect((e as EctpError).code).toBe("INVALID_ARGUMENT");
  for (const f of fragments) expect((e as EctpError).message).toContain(f);
}

const SUMMARY = "must be a SimulationSummary (the summary of runSimulation or Simulation.run)";
const SERIES = "must be a TimeSeries (the series of runSimulation or Simulation.run: { t, values })";

function series(t: number[]): TimeSeries {
  return { t, values: Object.fromEntries(SERIES_NAMES.map((n) => [n, t.map(() => 0)])) as Record<SeriesName, number[]> };
}

async function realSummary(): Promise<SimulationSummary> {
  return (await runSimulation({ producers: 1, consumers: 1, concurrency: 4, requests: 8, timeSeries: false })).summary;
}

describe("printing what is not a summary", () => {
  it.each([
    ["null", null, "got null"],
    ["{}", {}, "its config is nothing, not an object"],
    ["an array", [], "got an array"],
    ["a number", 5, "got 5"],
    ["an object without a prototype", Object.create(null), "its config is nothing, not an object"],
  ])("formatSummary and renderReport refuse %s", (_what, value, why) => {
    expectInvalid(thrownBy(() => formatSummary(value as never)), `formatSummary: the summary ${SUMMARY}; ${why}`);
    expectInvalid(thrownBy(() => renderReport(value as never, series([0]))), `renderReport: the summary ${SUMMARY}; ${why}`);
  });

  it.each([
    ["null", null, "got null"],
    ["{}", {}, "its violations is nothing, not an object"],
    ["one whose violations have no list", { violations: { count: 1 }, reproduce: "x" }, "its violations.first is nothing, not an array"],
    ["one whose reproduce is missing", { violations: { count: 1, first: [] } }, "its reproduce is nothing, not a string"],
  ])("formatViolations refuses %s", (_what, value, why) => {
    expectInvalid(thrownBy(() => formatViolations(value as never)), `formatViolations: the summary ${SUMMARY}; ${why}`);
  });

  it("a summary with one part missing or of the wrong kind is named by that part", async () => {
    const s = await realSummary();
    expectInvalid(thrownBy(() => formatSummary({ ...s, requests: undefined } as never)), "its requests is nothing, not an object");
    expectInvalid(thrownBy(() => formatSummary({ ...s, requests: { ...s.requests, failedByReason: null } } as never)), "its requests.failedByReason is null");
    expectInvalid(thrownBy(() => formatSummary({ ...s, throughputRps: "fast" } as never)), 'its throughputRps is "fast", not a number');
    expectInvalid(thrownBy(() => formatSummary({ ...s, faults: 3 } as never)), "its faults is 3, not a string");
    // What the HTML report prints as it is must be a number: a string there could carry markup.
    expectInvalid(thrownBy(() => renderReport({ ...s, seed: "</title><script>" } as never, series([0]))), 'its seed is "</title><script>", not a number');
    expectInvalid(
      thrownBy(() => renderReport({ ...s, violations: { ...s.violations, count: "<b>" } } as never, series([0]))),
      'its violations.count is "<b>", not a number',
    );
    expectInvalid(thrownBy(() => formatViolations({ ...s, violations: { ...s.violations, count: null } } as never)), "its violations.count is null, not a number");
    expectInvalid(
      thrownBy(() => formatSummary({ ...s, violations: { ...s.violations, count: 1, first: [{ invariant: "I1" }] } } as never)),
      "its violations.first[0] is not a Violation (an object with a number timeMs)",
    );
  });

  it("a real summary still prints", async () => {
    const s = await realSummary();
    expect(formatSummary(s)).toMatch(/invariant violations +0/);
    expect(formatViolations(s)).toMatch(/^INVARIANT VIOLATIONS: 0/);
    expect(renderReport(s, series([0, 10]))).toContain("; 2 samples.");
  });
});

describe("plotting what is not a time series", () => {
  it.each([
    ["null", null, "got null"],
    ["{}", {}, "its t is nothing, not an array of sample times"],
    ["one without values", { t: [0] }, "its values is nothing, not an object of series"],
    ["one without the plotted series", { t: [0], values: {} }, "its values.failed is nothing, not an array"],
  ])("svgPlot and renderReport refuse %s", async (_what, value, why) => {
    expectInvalid(thrownBy(() => svgPlot(value as never, ["failed"], "F")), `svgPlot: the series ${SERIES}; ${why}`);
    const s = await realSummary();
    expectInvalid(thrownBy(() => renderReport(s, value as never)), `renderReport: the series ${SERIES}; ${why.replace("values.failed", "values.readsInFlight")}`);
  });

  it("svgPlot refuses names that are not series names, and a title that is not a string", () => {
    const names = "readsInFlight, livePins, deferredRequests, succeeded, fellBack, failed, cancelled, lostInCrash";
    expectInvalid(thrownBy(() => svgPlot(series([0]), null as never, "F")), `svgPlot: names must be an array of series names (${names}); got null`);
    expectInvalid(thrownBy(() => svgPlot(series([0]), ["failed", "bogus"] as never, "F")), `got "bogus" among them`);
    expectInvalid(thrownBy(() => svgPlot(series([0]), ["failed"], null as never)), "svgPlot: title must be a string; got null");
    expect(svgPlot(series([0, 1]), ["failed"], "F")).toMatch(/^<svg /);
  });
});

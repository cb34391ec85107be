/**
 * The README's example prints what a run of its options prints: the violation count, the event-log
 * hash and the reproduce command in its comment come from a real run (and the sweep's line from a
 * real sweep), so a change that moves the
 * hash (any simulated message) makes the README say so here instead of going stale.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runSimulation, runSweep } from "./index.js";

describe("README", () => {
  it("the example's printed line (violations, event-log hash, reproduce command) is what its options give", async () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    expect(readme).toContain(
      'const options = { producers: 2, consumers: 2, concurrency: 16, requests: 200, faults: "heavy", seed: 7 } as const;',
    );
    const printed = /console\.log\(summary\.violations\.count, summary\.eventLog\.hash, summary\.reproduce\);\n\/\/ (.*)\n/.exec(readme)?.[1];
    const { summary } = await runSimulation({ producers: 2, consumers: 2, concurrency: 16, requests: 200, faults: "heavy", seed: 7 });
    expect(printed).toBe(`${summary.violations.count} ${summary.eventLog.hash} ${summary.reproduce}`);
  });

  it("the API table names every value the package exports", async () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const table = readme.slice(readme.indexOf("## API"), readme.indexOf("Bounds (`SIMULATION_LIMITS`)"));
    const missing = Object.keys(await import("./index.js")).filter((name) => !table.includes(`\`${name}`));
    expect(missing).toEqual([]);
  });

  it("the sweep example's printed line (violations, the runs' hash, failing seeds) is what a sweep of 20 from its options gives", async () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const printed = /console\.log\(sweep\.violations, sweep\.hash, sweep\.failingSeeds\.map\(\(f\) => f\.reproduce\)\);\n\/\/ (\S+ \S+ \S+)/.exec(readme)?.[1];
    const sweep = await runSweep({ producers: 2, consumers: 2, concurrency: 16, requests: 200, faults: "heavy", seed: 7, runs: 20 });
    expect(printed).toBe(`${sweep.violations} ${sweep.hash} ${JSON.stringify(sweep.failingSeeds.map((f) => f.reproduce))}`);
  });
});

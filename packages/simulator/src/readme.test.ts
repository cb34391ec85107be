/**
 * The README's example prints what a run of its options prints: the violation count, the event-log
 * hash and the reproduce command in its comment come from a real run, so a change that moves the
 * hash (any simulated message) makes the README say so here instead of going stale.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runSimulation } from "./index.js";

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
});

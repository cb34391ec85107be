/**
 * A mutant must plant a bug, not break the core: one whose bundle does not build, or that fails
 * every case it runs (a patch naming something undefined, which nothing typechecks), is reported
 * broken by `runMutants`, never caught.
 */
import { describe, expect, it } from "vitest";
import { loadCases } from "./cases/load.js";
import { type MutantSpec, loadMutants } from "./mutants/build.js";
import { judgeMutant, runMutants } from "./mutants/run.js";
import { type CaseResult, summarise } from "./runner/suite.js";

/** The consumer's constructor line that the patches below change. */
const FIND = "    this.config = Object.freeze(config);";
const mutant = (name: string, replace: string): MutantSpec => ({ name, failure: 0, description: name, patches: [{ file: "consumer/consumer.ts", find: FIND, replace }] });
/** Consumer cases: one that a consumer ignoring its configured heartbeat misses fails (x177), two that it passes. */
const CASES = loadCases().filter((c) =>
  [
    "consumer/c1-admission/local-item-is-ready",
    "consumer/p8-liveness/silent-producer-after-grant-is-terminal",
    "consumer/p8-liveness/a-producer-silent-for-the-configured-heartbeat-misses-is-gone-and-the-attempt-retried-after-a-new-hello",
  ].includes(c.fullName),
);

describe("mutants that break the core rather than plant a bug", () => {
  it("a mutant whose core throws on every case (an undefined name), or whose bundle does not build, is broken, not caught; a real mutant is caught", async () => {
    expect(CASES).toHaveLength(3);
    const x177 = loadMutants().find((m) => m.name.startsWith("x177-")) as MutantSpec;
    const [undefinedName, syntax, real] = await runMutants({
      mutants: [mutant("undefined-name", "    this.config = Object.freeze(configuration);"), mutant("syntax-error", "    this.config = Object.freeze(config;"), x177],
      cases: CASES,
    });
    expect(undefinedName).toMatchObject({ caught: false, caughtBy: [] });
    expect(undefinedName?.broken).toMatch(/^it passed none of the 3 cases it ran \(3 failed, e\.g\. consumer\/.*: \[I1\] implementation error on configure .*configuration is not defined/);
    expect(syntax).toMatchObject({ caught: false, caughtBy: [] });
    expect(syntax?.broken).toMatch(/^its bundle does not build or load: /);
    expect(real).toMatchObject({
      caught: true,
      caughtBy: ["consumer/p8-liveness/a-producer-silent-for-the-configured-heartbeat-misses-is-gone-and-the-attempt-retried-after-a-new-hello"],
    });
    expect(real?.broken).toBeUndefined();
  }, 120_000);

  it("a case that only ran past its wall-clock limit does not catch a mutant: it is listed in timedOut, and a mutant only such cases failed is not caught", () => {
    const result = (name: string, status: "passed" | "failed", timedOut = false): CaseResult => ({
      name,
      level: "REQUIRED",
      requirements: [],
      catches: [],
      status,
      ...(timedOut ? { timedOut: true } : {}),
      durationMs: 0,
    });
    const m = mutant("slow-machine", FIND);
    expect(judgeMutant(m, summarise([result("a/b/pass", "passed"), result("a/b/slow", "failed", true)]))).toMatchObject({ caught: false, caughtBy: [], timedOut: ["a/b/slow"] });
    expect(judgeMutant(m, summarise([result("a/b/pass", "passed"), result("a/b/slow", "failed", true), result("a/b/real", "failed")]))).toMatchObject({
      caught: true,
      caughtBy: ["a/b/real"],
      timedOut: ["a/b/slow"],
    });
  });
});

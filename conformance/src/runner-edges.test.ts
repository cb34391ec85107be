/**
 * Edges of the case interpreter and the case loader that the other tests of this package let
 * through: each test gives the runner a case (or a case file) that is wrong in one way, or the
 * matcher a value it must refuse, and expects a failure with the right message. Found by hand
 * mutation testing of script.ts, match.ts and load.ts: each test fails on a version with that
 * check weakened.
 */
import * as core from "@ectp/core";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import type { LoadedCase } from "./cases/format.js";
import { loadCases } from "./cases/load.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import { matches } from "./runner/match.js";
import { runSuite } from "./runner/suite.js";
import { inProcessTestee } from "./testee/in-process.js";

const CASES = loadCases();
const inProcess = () => () => inProcessTestee(new CoreTesteeHandler(core as unknown as CoreModule));
const withSteps = (name: string, edit: (steps: Record<string, unknown>[]) => Record<string, unknown>[]): LoadedCase => {
  const c = CASES.find((x) => x.fullName === name);
  if (!c) throw new Error(`no case ${name}`);
  const copy = structuredClone(c);
  copy.spec.steps = edit(copy.spec.steps as unknown as Record<string, unknown>[]) as unknown as typeof copy.spec.steps;
  return copy;
};
const run = async (c: LoadedCase) => {
  const report = await runSuite({ testee: inProcess(), features: [...TS_TESTEE_FEATURES, "events"], cases: [c], level: "all" });
  return { ...report.results[0], ok: report.ok };
};

describe("runner edges: the matcher", () => {
  const m = (expected: unknown, actual: unknown) => matches(expected, actual, new Map(), new Map());

  it("an absent field equals only its default: an enum name that is not *_UNSPECIFIED, or 0 for \"\", does not match it", () => {
    expect([m({ dtype: "DTYPE_UINT8" }, {}), m({ dtype: "DTYPE_UNSPECIFIED" }, {})]).toEqual([false, true]);
    expect([m("", 0), m(0, ""), m({ a: "" }, { a: 0 })]).toEqual([false, false, false]);
  });

  it("numbers compare by value: 5 and 6 differ, as do 1.5 and 2.5", () => {
    expect([m(5, 6), m(1.5, 2.5), m("1.5", 1.5)]).toEqual([false, false, true]);
    expect([m(String(2n ** 60n), String(2n ** 60n + 1n)), m(String(2n ** 60n), String(2n ** 60n))]).toEqual([false, true]);
  });

  it("an object mixing operators and fields is a pattern of fields: every field must match", () => {
    // `$gte` is not an operator here (not every key is one): it is a field the actual lacks.
    expect(m({ size: 1, $gte: 0 }, { size: 2 })).toBe(false);
    expect(m({ $bind: "x", grantId: "7" }, { grantId: "8" })).toBe(false);
    expect(m({ attemptId: { $bind: "a" }, grantId: "7" }, { attemptId: "1", grantId: "8" })).toBe(false);
  });

  it("order operators fail on values that are not numbers", () => {
    expect([m({ $gte: 0 }, "abc"), m({ $lte: 10 }, { a: 1 }), m({ $between: [0, 10] }, "x")]).toEqual([false, false, false]);
  });

  it("a list pattern does not match a value that is not a list", () => {
    expect([m([], "x"), m([], { a: 1 }), m([1], 1), m({ items: [] }, { items: "x" })]).toEqual([false, false, false, false]);
  });

  it("an object pattern does not match a value that is not an object, even when its fields are defaults", () => {
    expect([m({}, 5), m({ a: 0 }, "x"), m({ a: "" }, true)]).toEqual([false, false, false]);
  });

  it("$bind fails on an absent field and binds nothing", () => {
    const binds = new Map<string, unknown>();
    expect(matches({ a: { $bind: "x" } }, { b: 1 }, new Map(), binds)).toBe(false);
    expect(binds.has("x")).toBe(false);
  });

  it("$in and $len fail outside their sets", () => {
    expect([m({ $in: [1, 2] }, 3), m({ $in: [1, 2] }, undefined), m({ $len: 0 }, [1])]).toEqual([false, false, false]);
  });
});

describe("runner edges: steps", () => {
  const CASE = "consumer/c1-admission/local-item-is-ready";

  it("a step with two actions is a case bug (neither is silently dropped)", async () => {
    const r = await run(withSteps(CASE, (s) => [...s, { flush: true, expectNone: [{ send: { $any: true } }] }]));
    expect(r).toMatchObject({ status: "failed", ok: false, message: expect.stringContaining("step has several actions: flush, expectNone") });
  });

  it("an unknown step action (a misspelled expectation) is a case bug, not a step skipped", async () => {
    const r = await run(withSteps(CASE, (s) => [...s, { expectNoen: [{ send: { $any: true } }] }]));
    expect(r).toMatchObject({ status: "failed", ok: false, message: expect.stringContaining('unknown step action "expectNoen"') });
  });

  it("a step time before the current time is a case bug", async () => {
    const r = await run(withSteps(CASE, (s) => [{ at: 50 }, ...s, { at: 10 }]));
    expect(r).toMatchObject({ status: "failed", message: expect.stringContaining("step time 10 is before the current time 50") });
  });

  it("repeat with no steps is a case bug", async () => {
    const r = await run(withSteps(CASE, (s) => [...s, { repeat: { times: 2, steps: [] } }]));
    expect(r).toMatchObject({ status: "failed", message: expect.stringContaining("repeat.steps must be a non-empty list of steps") });
  });

  it("repeat runs its steps exactly `times` times, counting from 0", async () => {
    // The last repeat sets n to 2; one ReadRequest was sent, so a count of exactly n - 1 passes and n - 2 fails.
    const CASE9 = "consumer/c9-single-flight/two-requests-one-read";
    const rr = { send: { envelope: { readRequest: { $any: true } } } };
    const c = (expr: string) =>
      withSteps(CASE9, (s) => [
        ...s.slice(0, 4),
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a case template ("${var}"), not a JS one
        { repeat: { times: 3, steps: [{ set: { n: "${i}" } }] } },
        { expectCount: { match: rr, min: { $expr: expr }, max: { $expr: expr } } },
        ...s.slice(4),
      ]);
    expect((await run(c("n - 1"))).status).toBe("passed");
    expect((await run(c("n - 2"))).message).toMatch(/^count: 1 outputs by t=100 match .*; expected exactly 0\n/);
  });
});

describe("runner edges: expectations", () => {
  const CASE9 = "consumer/c9-single-flight/two-requests-one-read";
  const rr = { send: { envelope: { readRequest: { $any: true } } } };
  const plus = (...extra: Record<string, unknown>[]) => withSteps(CASE9, (s) => [...s.slice(0, 4), ...extra, ...s.slice(4)]);

  it("expectNone checks every matcher it lists, not only the first", async () => {
    const r = await run(plus({ expectNone: [{ send: { to: "NOBODY" } }, rr] }));
    expect(r.message).toMatch(/^unexpected output produced at t=0: .*readRequest/);
  });

  it("$bindTime binds the time the matched output was produced, not the step's time", async () => {
    // The ReadRequest went out at t=0; the step runs at t=100. Exactly tRr + 1 = 1 ReadRequest was sent.
    const c = plus({ expectSent: [{ ...rr, $bindTime: "tRr" }] }, { expectCount: { match: rr, min: { $expr: "tRr + 1" }, max: { $expr: "tRr + 1" } } });
    expect((await run(c)).status).toBe("passed");
  });

  it("an admit answered with another status than expected fails", async () => {
    const c = withSteps("consumer/c1-admission/local-item-is-ready", (s) => s.map((x) => ("admit" in x ? { ...x, expect: { status: "failed" } } : x)));
    expect((await run(c)).message).toMatch(/^admit r1 at t=0: expected status failed; got/);
  });

  it("an admit expectation lists every decision: fewer listed than the testee gave fails", async () => {
    const c = withSteps("consumer/c1-admission/local-item-is-ready", (s) => s.map((x) => ("admit" in x ? { ...x, expect: { status: "admitted", items: [] } } : x)));
    expect((await run(c)).message).toMatch(/^admit r1 at t=0: expected 0 item decisions; got/);
  });

  it("a rule with `times` fires at most that many times", async () => {
    // Every output sent to P1 would bump the counter; with times 1 it is bumped once.
    const c = withSteps(CASE9, (s) => [
      { rule: { on: { send: { to: "P1" } }, times: 1, do: [{ set: { hits: { $seq: "hits" } } }] } },
      ...s.slice(0, 4),
      { expectCount: { match: rr, min: { $expr: "hits" }, max: { $expr: "hits" } } },
      ...s.slice(4),
    ]);
    expect((await run(c)).status).toBe("passed");
  });
});

describe("runner edges: the case loader", () => {
  const load = (suite: Record<string, unknown>) => {
    const dir = mkdtempSync(join(tmpdir(), "ectp-cases-"));
    mkdirSync(join(dir, "consumer"));
    writeFileSync(join(dir, "consumer", "s.json"), JSON.stringify(suite));
    return () => loadCases(dir);
  };
  const good = { name: "a", requirements: ["C1"], level: "REQUIRED", role: "consumer", steps: [] };

  it("a well-formed case file loads", () => {
    expect(load({ suite: "consumer/c1-x", cases: [good] })().map((c) => c.fullName)).toEqual(["consumer/c1-x/a"]);
  });

  it("a case file without cases, or a case without requirements, a level, a role, steps or a kebab-case name, is refused naming the field", () => {
    expect(load({ suite: "consumer/c1-x", cases: [] })).toThrow(/"cases" must be a non-empty list/);
    expect(load({ suite: "consumer/c1-x", cases: [{ ...good, requirements: [] }] })).toThrow(/"requirements" must list at least one id/);
    expect(load({ suite: "consumer/c1-x", cases: [{ ...good, level: "OPTIONAL" }] })).toThrow(/"level" must be REQUIRED or RECOMMENDED/);
    expect(load({ suite: "consumer/c1-x", cases: [{ ...good, role: "engine" }] })).toThrow(/"role" must be consumer, producer or subscriber/);
    expect(load({ suite: "consumer/c1-x", cases: [{ ...good, steps: { admit: {} } }] })).toThrow(/"steps" must be a list/);
    expect(load({ suite: "consumer/c1-x", cases: [{ ...good, name: "Not_Kebab" }] })).toThrow(/"name" must be kebab-case/);
  });

  it("a duplicate case name, or requirements missing the suite's id, is refused", () => {
    expect(load({ suite: "consumer/c1-x", cases: [good, good] })).toThrow(/duplicate case name consumer\/c1-x\/a/);
    expect(load({ suite: "consumer/c1-x", cases: [{ ...good, requirements: ["C2"] }] })).toThrow(/its suite name carries C1/);
  });
});

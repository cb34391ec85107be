/**
 * Edges of the case interpreter and the case loader that the other tests of this package let
 * through: each test gives the runner a case (or a case file) that is wrong in one way, or the
 * matcher a value it must refuse, and expects a failure with the right message. Found by hand
 * mutation testing of script.ts, match.ts and load.ts: each test fails on a version with that
 * check weakened.
 */
import * as core from "@ectp/core";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import type { LoadedCase } from "./cases/format.js";
import { loadCases } from "./cases/load.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import { evalExpr, matches } from "./runner/match.js";
import { runSuite } from "./runner/suite.js";
import { inProcessTestee } from "./testee/in-process.js";

// This file's scratch folders are made in one folder, removed after its tests, passed or failed.
const work = mkdtempSync(join(tmpdir(), "ectp-runner-edges-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

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

  it("a boolean matches only the same boolean: not its text, nor 0 or 1", () => {
    expect([m(true, "true"), m(true, 1), m(false, 0), m({ $in: [true] }, "true"), m(true, true)]).toEqual([false, false, false, false, true]);
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

  it("$bind on an absent field binds its default (0); inside an absent message it fails and binds nothing", () => {
    const binds = new Map<string, unknown>();
    expect(matches({ a: { $bind: "x" } }, { b: 1 }, new Map(), binds)).toBe(true);
    expect(binds.get("x")).toBe(0);
    const none = new Map<string, unknown>();
    expect(matches({ m: { a: { $bind: "y" } } }, { b: 1 }, new Map(), none)).toBe(false);
    expect(none.has("y")).toBe(false);
  });

  it("$in and $len fail outside their sets", () => {
    expect([m({ $in: [1, 2] }, 3), m({ $in: [1, 2] }, undefined), m({ $len: 0 }, [1])]).toEqual([false, false, false]);
  });
});

describe("runner edges: expressions ($expr)", () => {
  const scope = new Map<string, unknown>([
    ["a", 1],
    ["b", "3"],
    ["p", { q: { r: 5 }, s: "x" }],
  ]);

  it("+ - * / keep their precedence, parentheses group and a leading - negates", () => {
    expect(evalExpr("a + 25 * (b - 1)", scope)).toBe(51);
    expect(evalExpr("2 * 3 - 4 / 2", scope)).toBe(4);
    expect(evalExpr("10 / 4", scope)).toBe(2.5);
    expect(evalExpr("-a + 3", scope)).toBe(2);
    expect(evalExpr("p.q.r * -(b - 5)", scope)).toBe(10);
  });

  it("a malformed expression, or a variable that is not a number, is a case bug naming it", () => {
    const bug = (src: string) => () => evalExpr(src, scope);
    expect(bug("a -")).toThrow('expression "a -" ends early');
    expect(bug("(a + 1")).toThrow('expression "(a + 1": missing )');
    expect(bug("a 2")).toThrow('expression "a 2": unexpected 2');
    expect(bug("p.s + 1")).toThrow('expression "p.s + 1": p.s is not a number');
    expect(bug("p.q.r.t")).toThrow('variable "p.q.r.t": no field t');
    expect(bug("zz")).toThrow('unknown variable "zz"');
  });
});

describe("runner edges: case bugs in steps", () => {
  const CASE = "consumer/c1-admission/local-item-is-ready";
  const bug = async (c: LoadedCase, text: string) =>
    expect(await run(c)).toMatchObject({ status: "failed", ok: false, message: `case bug (fix the case file): ${text}` });

  it("a fixture or scripted peer the case does not define is a case bug naming it", async () => {
    await bug(withSteps(CASE, (s) => [...s, { set: { k: { $key: "NOPE" } } }]), 'no item fixture "NOPE"');
    await bug(withSteps(CASE, (s) => [...s, { greet: "NOPE" }]), 'no scripted peer "NOPE"');
  });

  it("an item fixture whose dtype is a string that is not a Dtype name is a case bug (protobufjs would drop it silently)", async () => {
    const c = structuredClone(CASES.find((x) => x.fullName === CASE) as LoadedCase);
    const entry = Object.entries(c.spec.items ?? {})[0];
    if (!entry) throw new Error(`${CASE} has no item fixture`);
    const [name, first] = entry;
    first.dtype = "DTYPE_NOPE";
    await bug(c, `item ${name}: dtype "DTYPE_NOPE" is not a Dtype name; write an unknown value as a number`);
  });

  it("a readResult for a read the testee never started is a case bug", async () => {
    await bug(withSteps(CASE, (s) => [...s, { readResult: { read: 99, status: "done" } }]), "readResult for read 99, which is not an unsettled read");
  });

  it("an envelope or an admit that does not convert to its message is a case bug", async () => {
    const env = await run(withSteps(CASE, (s) => [...s, { deliver: { from: "P1", envelope: { heartbeat: 5 } } }]));
    expect(env.message).toMatch(/^case bug \(fix the case file\): envelope does not convert: .*heartbeat/);
    const admit = await run(withSteps(CASE, (s) => [...s, { admit: { request: "r9", items: [{ id: "i", announcement: 5 }] } }]));
    expect(admit.message).toMatch(/^case bug \(fix the case file\): admit does not convert: .*announcement/);
  });
});

describe("runner edges: the greet step", () => {
  it("greet delivers a Hello from the scripted peer, which the producer testee answers", async () => {
    const c = withSteps("producer/p1-ready/absent-is-not-found", (s) => [
      ...s,
      { flush: true },
      { greet: "C1" },
      { expectSent: [{ send: { to: "C1", envelope: { hello: { role: "ROLE_PRODUCER" } } } }] },
    ]);
    expect(await run(c)).toMatchObject({ status: "passed" });
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

  it("a stalled step (a jump in time that runs no timers on the way) before the current time is a case bug too", async () => {
    const r = await run(withSteps(CASE, (s) => [{ at: 50 }, ...s, { at: 10, stalled: true }]));
    expect(r).toMatchObject({ status: "failed", message: "case bug (fix the case file): step time 10 is before the current time 50" });
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

  it("a drain expectation names the request, or the item, the testee did not report", async () => {
    const UNAVAILABLE = "consumer/c1-admission/no-announcement-without-model-input-fails-unavailable";
    // (its first drain step expects r1 failed; the second, nothing more)
    const drainOf = (failed: Record<string, unknown>[]) => withSteps(UNAVAILABLE, (s) => s.map((x, i) => (i === 1 ? { drain: failed } : x)));
    expect((await run(drainOf([{ request: "r1", failures: [{ item: "i1", reason: "UNAVAILABLE" }] }]))).status).toBe("passed");
    expect((await run(drainOf([{ request: "r9" }]))).message).toMatch(/^\[C6\] drainFailed at t=0: expected request r9; got \[\{"requestId":"r1"/);
    expect((await run(drainOf([{ request: "r1", failures: [{ item: "i9" }] }]))).message).toMatch(
      /^\[C6\] drainFailed at t=0: expected a failure for item i9; got \[\{"requestId":"r1"/,
    );
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
    const dir = mkdtempSync(join(work, "cases-"));
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
    expect(load({ suite: "consumer/c1-x", cases: [{ ...good, role: "engine" }] })).toThrow(/"role" must be consumer, producer, subscriber or any/);
    expect(load({ suite: "consumer/c1-x", cases: [{ ...good, steps: { admit: {} } }] })).toThrow(/"steps" must be a list/);
    expect(load({ suite: "consumer/c1-x", cases: [{ ...good, name: "Not_Kebab" }] })).toThrow(/"name" must be kebab-case/);
  });

  it("a case file that is not JSON, or whose suite name is not kebab-case segments, is refused naming the file", () => {
    const dir = mkdtempSync(join(work, "cases-"));
    mkdirSync(join(dir, "consumer"));
    writeFileSync(join(dir, "consumer", "s.json"), '{"suite": "consumer/c1-x", "cases": [');
    expect(() => loadCases(dir)).toThrow(`case file ${join("consumer", "s.json")} is not valid JSON; fix its syntax`);
    for (const suite of ["consumer/C1_x", "consumer//c1-x", 7])
      expect(load({ suite, cases: [good] }), String(suite)).toThrow(`case file ${join("consumer", "s.json")}: "suite" must be kebab-case segments joined by "/"`);
  });

  it("a duplicate case name, or requirements missing the suite's id, is refused", () => {
    expect(load({ suite: "consumer/c1-x", cases: [good, good] })).toThrow(/duplicate case name consumer\/c1-x\/a/);
    expect(load({ suite: "consumer/c1-x", cases: [{ ...good, requirements: ["C2"] }] })).toThrow(/its suite name carries C1/);
  });
});

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
import { dirname, join } from "node:path";
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
/** `text` with the characters a regular expression reads specially escaped. */
const regexpText = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
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

  it("an unknown $ operator is a case bug naming it, not a field that never matches", () => {
    expect(() => m({ $bnd: "g1" }, "7")).toThrow(/^unknown operator "\$bnd" in \{"\$bnd":"g1"\}; the operators are \$any, \$absent, \$bind,/);
    expect(() => m({ grantId: { $gtee: 0 } }, { grantId: "7" })).toThrow('unknown operator "$gtee"');
    expect(m({ grantId: { $gte: 0 } }, { grantId: "7" })).toBe(true);
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
  // A case bug found as a step runs starts with `text` and says where, as a failure does: `  at step 7 of 7: {...}`.
  const bug = async (c: LoadedCase, text: string) =>
    expect(await run(c)).toMatchObject({
      status: "failed",
      ok: false,
      message: expect.stringMatching(new RegExp(`^case bug \\(fix the case file\\): ${regexpText(text)}[^\n]*\n {2}at step \\d+ of \\d+: `)),
    });

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
    // (Read as the case starts, before any step.)
    expect(await run(c)).toMatchObject({ status: "failed", message: `case bug (fix the case file): item ${name}: dtype "DTYPE_NOPE" is not a Dtype name; write an unknown value as a number` });
  });

  it("a variable used before it is bound, and a fixture the case lacks, name the step they are in", async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a case template ("${var}"), not a JS one
    await bug(withSteps(CASE, (s) => [...s, { set: { k: "${g1}" } }]), 'unknown variable "g1"');
    const r = await run(withSteps(CASE, (s) => [...s, { set: { k: { $key: "Z" } } }]));
    expect(r.message).toBe('case bug (fix the case file): no item fixture "Z"\n  at step 4 of 4: {"set":{"k":{"$key":"Z"}}}');
  });

  it("what a step resolves as it runs is checked then: an envelope's enum name, a timer that is no whole number, a reversed $window", async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a case template ("${var}"), not a JS one
    const status = { deliver: { from: "P1", envelope: { readComplete: { grantId: "1", status: "${st}" } } } };
    await bug(withSteps(CASE, (s) => [...s, { set: { st: "COMPLETION_OK" } }, status]), 'deliver.envelope.readComplete.status is "COMPLETION_OK", which is not a name of enum ectp.v1.CompletionStatus');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a case template ("${var}"), not a JS one
    const misses = { configure: { config: { heartbeatMisses: "${m}" } } };
    // A case bug, never the implementation's [I1] error on a Configure holding 0.
    await bug(withSteps(CASE, (s) => [{ set: { m: "two" } }, misses, ...s]), 'configure.config.heartbeatMisses is "two": a uint64 is written as a string of decimal digits or as a JSON number holding a safe integer');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a case template ("${var}"), not a JS one
    const reversed = { expectNone: [{ send: { to: "P1" }, $window: ["${lo}", 0] }] };
    await bug(withSteps(CASE, (s) => [...s, { set: { lo: 1 } }, reversed]), "$window [1,0] ends before it starts");
  });

  it("a misspelt action is named as unknown, with the nearest, not as the modifier it leaves without its action", async () => {
    const r = await run(withSteps(CASE, (s) => [...s, { putt: "A", ready: true }]));
    expect(r.message).toMatch(/^case bug \(fix the case file\): unknown step action "putt" \(did you mean "put"\?\)\n {2}at step 4 of 4: /);
  });

  it("a readResult for a read the testee never started is a case bug", async () => {
    await bug(withSteps(CASE, (s) => [...s, { readResult: { read: 99, status: "done" } }]), "readResult for read 99, which is not an unsettled read");
  });

  it("an envelope or an admit that does not convert to its message is a case bug", async () => {
    const env = await run(withSteps(CASE, (s) => [...s, { deliver: { from: "P1", envelope: { heartbeat: 5 } } }]));
    expect(env.message).toMatch(/^case bug \(fix the case file\): deliver\.envelope\.heartbeat is 5: message ectp\.v1\.Heartbeat is written as a JSON object\n {2}at step 4 of 4: /);
    const admit = await run(withSteps(CASE, (s) => [...s, { admit: { request: "r9", items: [{ id: "i", announcement: 5 }] } }]));
    expect(admit.message).toMatch(/^case bug \(fix the case file\): admit\.items\[0\]\.announcement is 5: message ectp\.v1\.Announcement is written as a JSON object\n {2}at step 4 of 4: /);
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
    expect(r).toMatchObject({ status: "failed", message: expect.stringMatching(/^case bug \(fix the case file\): step time 10 is before the current time 50\n {2}at step \d+ of \d+: \{"at":10,"stalled":true\}$/) });
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

/** Loads `suite` from the file its name names (`consumer/c1-x.json`), or `file` (a path under the cases folder), in a new folder. */
const load = (suite: Record<string, unknown>, file = typeof suite.suite === "string" ? `${suite.suite}.json` : "consumer/s.json") => {
  const dir = mkdtempSync(join(work, "cases-"));
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), JSON.stringify(suite));
  return () => loadCases(dir);
};

describe("runner edges: the case loader", () => {
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
      expect(load({ suite, cases: [good] }, "consumer/s.json"), String(suite)).toThrow(`case file ${join("consumer", "s.json")}: "suite" must be kebab-case segments joined by "/"`);
  });

  it("a duplicate case name, or requirements missing the suite's id, is refused", () => {
    expect(load({ suite: "consumer/c1-x", cases: [good, good] })).toThrow(/duplicate case name consumer\/c1-x\/a/);
    expect(load({ suite: "consumer/c1-x", cases: [{ ...good, requirements: ["C2"] }] })).toThrow(/its suite name carries C1/);
  });
});

describe("runner edges: the case loader refuses what protobufjs or the runner would drop or coerce", () => {
  const dir = mkdtempSync(join(work, "strict-"));
  /** Loads one case (`good` with `change`) of suite consumer/c1-x, or of `suite`, from the file its name names. */
  const loadCase = (change: Record<string, unknown>, suite: Record<string, unknown> = {}) => {
    const file = { suite: "consumer/c1-x", cases: [{ ...good, ...change }], ...suite };
    mkdirSync(join(dir, "consumer"), { recursive: true });
    writeFileSync(join(dir, "consumer", "c1-x.json"), JSON.stringify(file));
    return () => loadCases(dir);
  };
  const good = { name: "a", requirements: ["C1"], level: "REQUIRED", role: "consumer", steps: [] };
  const at = 'case file consumer/c1-x.json, case "a": ';
  const deliver = (envelope: Record<string, unknown>) => ({ steps: [{ at: 5 }, { deliver: { from: "P1", envelope } }] });

  it("a misspelt case field, timer, peer option or fixture field, or a timer that is no whole number, is refused naming it", () => {
    expect(loadCase({ confg: { heartbeatMisses: 2 } })).toThrow(`${at}unknown field "confg" (did you mean "config"?); a case takes name, requirements,`);
    expect(loadCase({ peer: { P1: {} } })).toThrow(`${at}unknown field "peer" (did you mean "peers"?)`);
    expect(loadCase({ config: { heartbeatMiss: 2 } })).toThrow(`${at}config has no timer "heartbeatMiss" (did you mean "heartbeatMisses"?); the timers are the fields of testee.proto Timers:`);
    expect(loadCase({ config: { heartbeatMisses: "two" } })).toThrow(`${at}config.heartbeatMisses is "two": a uint64 is written as a string of decimal digits or as a JSON number holding a safe integer`);
    expect(loadCase({ peers: { P1: { heartbeats: false } } })).toThrow(`${at}peers.P1: unknown option "heartbeats" (did you mean "heartbeat"?)`);
    expect(loadCase({ peers: { P1: { hello: "no" } } })).toThrow(`${at}peers.P1.hello is true or false; got "no"`);
    expect(loadCase({ items: { A: { sise: 4 } } })).toThrow(`${at}items.A: unknown field "sise" (did you mean "size"?)`);
    expect(loadCase({ features: ["evcit"] })).toThrow(`${at}"features" names "evcit" (did you mean "evict"?), which is no feature of TESTEE-PROTOCOL.md §7: consumer,`);
    expect(loadCase({}, { defaults: { levle: "REQUIRED" } })).toThrow('case file consumer/c1-x.json: "defaults" has an unknown field "levle" (did you mean "level"?)');
    expect(loadCase({}, { cases: [{ ...good, config: { heartbeatMisses: 2, heartbeatIntervalMs: "500" } }] })()).toHaveLength(1);
  });

  it("a deliver step's envelope with a misspelt field or an enum name its enum lacks is refused naming the step and the field", () => {
    expect(loadCase(deliver({ readRequest: { atemptId: "1" } }))).toThrow(
      `${at}step 2: deliver.envelope.readRequest (ectp.v1.ReadRequest) has a field "atemptId" that the schema does not define (did you mean "attemptId"?)`,
    );
    expect(loadCase(deliver({ readComplete: { grantId: "1", status: "COMPLETION_OK" } }))).toThrow(
      `${at}step 2: deliver.envelope.readComplete.status is "COMPLETION_OK", which is not a name of enum ectp.v1.CompletionStatus;`,
    );
    expect(loadCase(deliver({ readGrant: { attemptId: "one" } }))).toThrow(`${at}step 2: deliver.envelope.readGrant.attemptId is "one": a uint64 is written as a string of decimal digits or as a JSON number holding a safe integer`);
    expect(loadCase(deliver({ hello: { capabilities: "events.v1" } }))).toThrow(`${at}step 2: deliver.envelope.hello.capabilities is "events.v1": a repeated field is written as a JSON list`);
    // Templates are resolved as the step runs, and checked then; an unnamed enum value is a number.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a case template ("${var}"), not a JS one
    const templated = { readRequest: { attemptId: "${a}", key: { $key: "A" }, expectedEpoch: { $expr: "1 + 1" } } };
    const steps = [...deliver(templated).steps, { deliver: { from: "P1", envelope: { hello: { role: 7 } } } }];
    expect(loadCase({ items: { A: { size: 4 } }, steps })()).toHaveLength(1);
  });

  it("an admitted item's explicit announcement with a misspelt field or an enum name its enum lacks is refused naming the step and the field", () => {
    const admit = (announcement: Record<string, unknown>) => ({ steps: [{ admit: { request: "r1", items: [{ id: "i1", announcement }] } }] });
    expect(loadCase(admit({ itme: {} }))).toThrow(`${at}step 1: admit.items[0].announcement (ectp.v1.Announcement) has a field "itme" that the schema does not define (did you mean "item"?)`);
    expect(loadCase(admit({ item: { dtype: "DTYPE_BF16" } }))).toThrow(`${at}step 1: admit.items[0].announcement.item.dtype is "DTYPE_BF16", which is not a name of enum ectp.v1.Dtype`);
    // Values the protocol refuses but of the right kind are what [C2] cases send: they load.
    expect(loadCase(admit({ item: { sizeBytes: "0", dtype: 99 } }))()).toHaveLength(1);
  });

  it("a step's ready or expectError that is not true or false, or a readResult status, is refused; so are a misspelt action and step key, naming the nearest", () => {
    expect(loadCase({ items: { A: { size: 4 } }, steps: [{ put: "A", ready: "yes" }] })).toThrow(`${at}step 1: ready must be true or false; got "yes"`);
    expect(loadCase({ steps: [{ configure: {}, expectError: 1 }] })).toThrow(`${at}step 1: expectError must be true or false; got 1`);
    expect(loadCase({ steps: [{ readResult: { read: 1, status: "fialed" } }] })).toThrow(`${at}step 1: readResult status is done, cancelled, failed; got "fialed"`);
    expect(loadCase({ steps: [{ putt: "A", ready: true }] })).toThrow(`${at}step 1: unknown step action "putt" (did you mean "put"?)`);
    expect(loadCase({ steps: [{ flush: true }, { att: 5, flush: true }] })).toThrow(`${at}step 2: unknown step action "att" (did you mean "at"?)`);
    expect(loadCase({ steps: [{ repeat: { times: 1, steps: [{ flush: true }, { flsh: true }] } }] })).toThrow(
      `${at}step 1 (repeat), its step 2: unknown step action "flsh" (did you mean "flush"?)`,
    );
    expect(loadCase({ rules: [{ on: { send: {} }, do: [{ readResult: { read: 1, stauts: "done" } }] }] })).toThrow(
      `${at}rule 1, its action 1: readResult: unknown key "stauts" (did you mean "status"?); readResult takes read, status, data, peerGone, error`,
    );
    expect(loadCase({ steps: [{ rule: { name: "r", on: { send: {} }, do: { deliverr: {} } } }] })).toThrow(`${at}step 1 (rule "r"), its action 1: unknown step action "deliverr"`);
  });

  it("a key starting with $ that is no operator is refused naming it and the known ones; an object mixing operators with fields is refused", () => {
    const sent = (pattern: Record<string, unknown>) => ({ steps: [{ expectSent: [{ send: { to: "P1", envelope: { readGrant: pattern } } }] }] });
    expect(loadCase(sent({ grantId: { $bnd: "g1" } }))).toThrow(
      `${at}step 1: expectSent[0].send.envelope.readGrant.grantId has an unknown operator "$bnd" (did you mean "$bind"?); the known ones are $any, $absent, $bind,`,
    );
    expect(loadCase(sent({ attemptId: { $gtee: 0 } }))).toThrow(`has an unknown operator "$gtee" (did you mean "$gte"?)`);
    expect(loadCase(sent({ attemptId: "1", $gte: 0 }))).toThrow(`${at}step 1: expectSent[0].send.envelope.readGrant mixes operators ($gte) with fields (attemptId)`);
    expect(loadCase(sent({ atemptId: "1" }))).toThrow(`${at}step 1: expectSent[0].send.envelope.readGrant (ectp.v1.ReadGrant) has a field "atemptId" that the schema does not define (did you mean "attemptId"?)`);
    expect(loadCase({ steps: [{ expectStats: { producer: { pin: 2 } } }] })).toThrow(`${at}step 1: expectStats.producer (ectp.conformance.v1.ProducerStats) has a field "pin" that the schema does not define (did you mean "pins"?)`);
    expect(loadCase({ steps: [{ set: { k: { $keys: "A" } } }] })).toThrow(`${at}step 1: set.k has an unknown operator "$keys" (did you mean "$key"?)`);
    expect(loadCase({ steps: [{ set: { k: { $key: "A", wiht: {} } } }] })).toThrow(`${at}step 1: set.k: $key takes no other key beside it; got "wiht"`);
    // The operators, matcher keys and macros the runner reads load.
    const known = { grantId: { $bind: "g" }, attemptId: { $gte: 1, $lt: 9 }, item: { $descriptor: "A", with: { sizeBytes: "4" } } };
    expect(loadCase({ items: { A: { size: 4 } }, steps: [{ expectSent: [{ send: { envelope: { readGrant: known } }, $window: [0, 5], $bindTime: "t" }] }] })()).toHaveLength(1);
  });

  it("a requirement id that is not in the protocol brief is refused, in a case and in a suite name", () => {
    expect(loadCase({ requirements: ["C1", "P99"] })).toThrow(
      `${at}"requirements" names "P99", which is not a requirement id of the protocol brief (V1, V2, C1-C11, P1-P8, E1, E2, I1-I6)`,
    );
    expect(load({ suite: "consumer/c12-x", cases: [{ ...good, requirements: ["C1"] }] })).toThrow(
      'case file consumer/c12-x.json: "suite" starts its last segment with C12, which is not a requirement id of the protocol brief',
    );
    expect(loadCase({ requirements: ["C1", "C11", "V2", "P8", "E2", "I6"] })()).toHaveLength(1);
  });

  it("a suite name that is not its file's path, an unknown suite file key and a $window whose end comes before its start are refused", () => {
    expect(load({ suite: "consumer/c1-y", cases: [good] }, "consumer/c1-x.json")).toThrow(
      'case file consumer/c1-x.json: "suite" is "consumer/c1-y", but a suite\'s name is its file\'s path under the cases folder without .json: "consumer/c1-x"',
    );
    expect(load({ suite: "consumer/c1-x", cases: [good] }, "producer/c1-x.json")).toThrow(/"suite" is "consumer\/c1-x", but a suite's name is its file's path/);
    expect(load({ suite: "consumer/c1-x", case: [good] })).toThrow('case file consumer/c1-x.json: unknown key "case" (did you mean "cases"?)');
    expect(loadCase({ steps: [{ expectSent: [{ send: { to: "P1" }, $window: [100, 50] }] }] })).toThrow(
      `${at}step 1: expectSent[0].$window: $window [100,50] ends before it starts: write [from, to], from <= to`,
    );
    expect(loadCase({ steps: [{ expectSent: [{ send: { to: "P1" }, $window: [50, 50] }] }] })()).toHaveLength(1);
    // A window with templates is checked as its step runs.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a case template ("${var}"), not a JS one
    for (const $window of ["${w}", [{ $expr: "t + 100" }, 50]]) expect(loadCase({ steps: [{ expectSent: [{ send: { to: "P1" }, $window }] }] })()).toHaveLength(1);
  });
});

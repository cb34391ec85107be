/**
 * A failed scripted case says which step of its `steps` failed (index and the step's JSON), so an
 * implementer need not count the steps of the case file by hand: inside a `repeat` also which
 * repetition, in a rule's action also which rule, and a failure at quiescence says it came after
 * the last step. Each test failed before the runner said so.
 */
import { describe, expect, it } from "vitest";
import type { CaseSpec, LoadedCase } from "./cases/format.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import { toJUnit, toJsonReport, toTerminal } from "./report/report.js";
import { runSuite } from "./runner/suite.js";
import { alteredTsTestee } from "./test-support.js";

const mk = (name: string, spec: Partial<CaseSpec>): LoadedCase => ({
  fullName: `runner-failure-steps/${name}`,
  file: "runner-failure-steps.json",
  spec: { name, requirements: ["C4"], level: "REQUIRED", role: "consumer", items: { A: { size: 4096 } }, steps: [], ...spec } as CaseSpec,
});
const suite = (c: LoadedCase, testee = alteredTsTestee((res) => res)) => runSuite({ testee, features: TS_TESTEE_FEATURES, cases: [c], level: "all" });
const run = async (c: LoadedCase, testee?: ReturnType<typeof alteredTsTestee>) => (await suite(c, testee)).results[0];

/** Admits r1 with item A announced: the consumer sends a Hello and a ReadRequest at t=0. */
const admitA = { admit: { request: "r1", items: [{ id: "i1", announce: "A" }] }, expect: { status: "admitted", items: [{ action: "defer" }] } };
const readRequest = { send: { to: "P1", envelope: { readRequest: { $any: true } } } };
/** An output the consumer never sends. */
const toP7 = { expectSent: [{ send: { to: "P7" } }] };

describe("a failure names the step of the case that failed", () => {
  it("a failure in a middle step: its index and JSON on the second line, before the outputs listed", async () => {
    const r = await run(mk("middle", { steps: [admitA, toP7, { finish: "r1" }] }));
    expect(r?.status).toBe("failed");
    const lines = (r?.message ?? "").split("\n");
    expect(lines[0]).toBe('expected output not seen by t=0 (1 of 1): {"send":{"to":"P7"}}');
    expect(lines[1]).toBe('  at step 2 of 3: {"expectSent":[{"send":{"to":"P7"}}]}');
    expect(lines[2]).toMatch(/^unconsumed outputs \(last \d+ of \d+\):$/);
  });

  it("a step inside a repeat: the repeat's index, the repetition (with its variable) and the step in it, without its comment", async () => {
    // The first repetition consumes the one ReadRequest; the second finds none.
    const repeat = { repeat: { times: 3, as: "k", steps: [{ after: 1 }, { comment: "one ReadRequest each time", expectSent: [readRequest] }] } };
    const r = await run(mk("in-repeat", { steps: [admitA, repeat, { finish: "r1" }] }));
    expect(r?.status).toBe("failed");
    const lines = (r?.message ?? "").split("\n");
    expect(lines[0]).toMatch(/^expected output not seen by t=2 \(1 of 1\): /);
    expect(lines[1]).toBe(
      '  at step 2 of 3 (repeat), in repetition 2 of 3 (k = 1), its step 2 of 2: {"expectSent":[{"send":{"to":"P1","envelope":{"readRequest":{"$any":true}}}}]}',
    );
  });

  it("a rule's action: the step during which it ran, then the rule and its action", async () => {
    // The rule fires on the ReadRequest at t=0; its action runs as the next step moves the clock.
    const rule = { rule: { name: "check", on: readRequest, do: [toP7] } };
    const r = await run(mk("in-rule", { steps: [rule, admitA, { after: 5 }] }));
    expect(r?.status).toBe("failed");
    expect((r?.message ?? "").split("\n")[1]).toBe('  at step 3 of 3: {"after":5}, in action 1 of 1 of rule "check": {"expectSent":[{"send":{"to":"P7"}}]}');
  });

  it("a step's JSON is cut after 200 characters", async () => {
    const long = { comment: "x", expectSent: [{ send: { to: "P7", envelope: { hello: { transportMetadata: "Q".repeat(400) } } } }] };
    const r = await run(mk("long-step", { steps: [admitA, long] }));
    const line = (r?.message ?? "").split("\n")[1] ?? "";
    const json = JSON.stringify({ expectSent: long.expectSent });
    expect(line).toBe(`  at step 2 of 2: ${json.slice(0, 200)}…`);
  });

  it("a failure after the last step (at quiescence) says so and shows the last step", async () => {
    // A consumer whose stats never get back to baseline: [I4] fails at quiescence.
    const leaky = alteredTsTestee((res) => {
      if (res.stats?.consumer) res.stats.consumer.destinations = 1;
      return res;
    });
    const r = await run(mk("after-last", { steps: [admitA, { finish: "r1" }] }), leaky);
    expect(r?.status).toBe("failed");
    expect(r?.message).toBe(
      "[I4] after every request finished and every timer ran out, consumer tables are not back to baseline: destinations=1\n" +
        '  after the last step (2 of 2: {"finish":"r1"}), as the runner finished every request and ran every timer out',
    );
  });

  it("a failure in the Configure the runner sends first says it came before step 1", async () => {
    const refusing = alteredTsTestee((res, req) => (req.configure ? { commandId: res.commandId, error: { message: "no", code: "X" } } : res));
    const r = await run(mk("before-first", { steps: [admitA] }), refusing);
    expect(r?.message).toBe(
      "[I1] implementation error on configure at t=0: no (X)\n" +
        "  before step 1 of 1, in the Configure the runner sends first (the case begins with no configure step)",
    );
  });

  it("a failure on a scripted peer's opening Hello, after the Configure the runner sends first, says so (it was labelled as in the Configure)", async () => {
    // A producer case: the scripted consumer C1 greets the testee once it is configured.
    const refusesHello = alteredTsTestee((res, req) => (req.deliverMessage ? { commandId: res.commandId, error: { message: "no", code: "X" } } : res));
    const producer = { role: "producer" as const, items: {}, requirements: ["P8"] };
    const implicit = await run(mk("hello-after-runners-configure", { ...producer, steps: [{ after: 5 }] }), refusesHello);
    expect(implicit?.message).toBe(
      "[I1] implementation error on deliverMessage at t=0: no (X)\n" +
        "  before step 1 of 1, after the Configure the runner sends first (the case begins with no configure step), in scripted peer C1's opening Hello",
    );
    const stepped = await run(mk("hello-after-configure-step", { ...producer, steps: [{ configure: {} }, { after: 5 }] }), refusesHello);
    expect(stepped?.message).toBe('[I1] implementation error on deliverMessage at t=0: no (X)\n  at step 1 of 2: {"configure":{}}, in scripted peer C1\'s opening Hello');
  });

  it("a testee fault names the step after the command that waited for its answer", async () => {
    const crashing = alteredTsTestee((res, req) => {
      if (req.finishRequest) throw new Error("planted crash");
      return res;
    });
    const r = await run(mk("fault", { steps: [admitA, { finish: "r1" }, { after: 5 }] }), crashing);
    expect(r?.status).toBe("failed");
    const message = r?.message ?? "";
    expect(message).toMatch(/^testee exited: handler threw: Error: planted crash\n/);
    const lines = message.split("\n");
    expect(lines.at(-2)).toMatch(/\(while finishRequest at t=0 waited for its answer\)$/);
    expect(lines.at(-1)).toBe('  at step 2 of 3: {"finish":"r1"}');
  });
});

describe("the reports show the step", () => {
  it("the terminal under the FAIL line, the JUnit failure's text and the JSON report's message", async () => {
    const report = await suite(mk("middle", { steps: [admitA, toP7, { finish: "r1" }] }));
    const step = 'at step 2 of 3: {"expectSent":[{"send":{"to":"P7"}}]}';
    expect(toTerminal(report)).toContain(
      `FAIL runner-failure-steps/middle [C4]\n  expected output not seen by t=0 (1 of 1): {"send":{"to":"P7"}}\n    ${step}\n  unconsumed outputs`,
    );
    // The failure's message attribute is the headline; its text, the whole message, has the step next.
    expect(toJUnit("t", report)).toContain(
      '<failure message="expected output not seen by t=0 (1 of 1): {&quot;send&quot;:{&quot;to&quot;:&quot;P7&quot;}}">' +
        "expected output not seen by t=0 (1 of 1): {&quot;send&quot;:{&quot;to&quot;:&quot;P7&quot;}}\n" +
        "  at step 2 of 3: {&quot;expectSent&quot;:[{&quot;send&quot;:{&quot;to&quot;:&quot;P7&quot;}}]}\n",
    );
    expect(toJsonReport("t", report).results[0]?.message?.split("\n")[1]).toBe(`  ${step}`);
  });
});

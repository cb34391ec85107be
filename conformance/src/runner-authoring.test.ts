// biome-ignore-all lint/suspicious/noTemplateCurlyInString: case templates ("${var}"), not JS ones
/**
 * Case-authoring mistakes that would make a check unable to fail are case bugs: `$ne` of a
 * default against an absent field, `$absent` other than true, a step modifier no action reads, a
 * step time that is not a number, `$times` below 1, an unknown key in a read result's data. Each
 * was once silently accepted. A `together` that is not true, or not on a put, is refused too. Also
 * the `$encodedSize` template, exact to the byte a producer counts.
 */
import * as core from "@ectp/core";
import { describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import type { LoadedCase } from "./cases/format.js";
import { loadCases } from "./cases/load.js";
import { checkCase } from "./runner/case-check.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import type { ectp } from "./proto.js";
import { matches } from "./runner/match.js";
import { runSuite } from "./runner/suite.js";
import { inProcessTestee } from "./testee/in-process.js";

const CASES = loadCases();
const withSteps = (name: string, edit: (steps: Record<string, unknown>[]) => Record<string, unknown>[]): LoadedCase => {
  const c = structuredClone(CASES.find((x) => x.fullName === name) as LoadedCase);
  c.spec.steps = edit(c.spec.steps as unknown as Record<string, unknown>[]) as unknown as typeof c.spec.steps;
  return c;
};
const run = async (c: LoadedCase, Handler: typeof CoreTesteeHandler = CoreTesteeHandler) => {
  const testee = () => inProcessTestee(new Handler(core as unknown as CoreModule));
  const report = await runSuite({ testee, features: [...TS_TESTEE_FEATURES, "events"], cases: [c], level: "all" });
  return report.results[0];
};
const CASE = "consumer/c1-admission/local-item-is-ready";
const CASE9 = "consumer/c9-single-flight/two-requests-one-read";
const rr = { send: { envelope: { readRequest: { $any: true } } } };

describe("case interpreter: checks that could not fail are refused", () => {
  const m = (expected: unknown, actual: unknown) => matches(expected, actual, new Map(), new Map());

  it("$ne of a default value fails on an absent field (absent equals its default)", () => {
    // {"$ne": 0} already fails on an absent field; "", false and *_UNSPECIFIED must too.
    expect([m({ $ne: 0 }, undefined), m({ $ne: "" }, undefined), m({ $ne: false }, undefined), m({ $ne: "FAILURE_REASON_UNSPECIFIED" }, undefined)]).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(m({ senderId: { $ne: "" } }, {})).toBe(false);
  });

  it("an enum value written as a number where the output names it is a case bug (an expectNone or $ne with it would pass whatever came)", () => {
    expect(() => m({ reason: 3 }, { reason: "FAILURE_REASON_NOT_READY" })).toThrow(/write the name/);
    expect(() => m({ reason: { $ne: 3 } }, { reason: "FAILURE_REASON_NOT_READY" })).toThrow(/FAILURE_REASON_NOT_READY/);
    expect(() => m({ reason: { $in: [1, 3] } }, { reason: "FAILURE_REASON_NOT_READY" })).toThrow(/enum value/);
    // Names match names; a value without a name is a number on both sides; other strings are no enum.
    expect(m({ reason: "FAILURE_REASON_NOT_READY" }, { reason: "FAILURE_REASON_NOT_READY" })).toBe(true);
    expect(m({ dtype: 999 }, { dtype: 999 })).toBe(true);
    expect(m({ to: 1 }, { to: "P1" })).toBe(false);
    expect(m({ grantId: 5 }, { grantId: "05" })).toBe(true);
  });

  it("a $window in expectNone or expectCount ending after the step's time is a case bug: those steps do not wait", async () => {
    const none = await run(withSteps(CASE, (s) => [...s, { expectNone: [{ send: { to: "NOBODY" }, $window: [0, 1_000_000] }] }]));
    expect(none).toMatchObject({ status: "failed", message: expect.stringContaining("$window ending at t=1000000") });
    const count = await run(withSteps(CASE, (s) => [...s, { expectCount: { match: { send: { to: "NOBODY" }, $window: [0, 1_000_000] }, max: 0 } }]));
    expect(count).toMatchObject({ status: "failed", message: expect.stringContaining("expectCount") });
    // A window already past is what they check.
    const past = await run(withSteps(CASE, (s) => [...s, { expectNone: [{ send: { to: "NOBODY" }, $window: [0, 0] }] }, { expectCount: { match: { send: { to: "NOBODY" }, $window: [0, 0] }, max: 0 } }]));
    expect(past).toMatchObject({ status: "passed" });
  });

  it("$absent other than true is a case bug, not a matcher that matches anything", () => {
    expect(() => m({ $absent: false }, undefined)).toThrow(/\$absent/);
  });

  it("a step's expect, expectError, bind or ready without an action that reads it is a case bug", async () => {
    // An admit expectation split off onto its own step: never checked.
    const lone = await run(withSteps(CASE, (s) => [...s.slice(0, 1), { expect: { status: "failed" } }, ...s.slice(1)]));
    expect(lone).toMatchObject({ status: "failed", message: expect.stringContaining("expect") });
    // expectError on an action that ignores it: the testee's Ok is never questioned.
    const ignored = await run(withSteps(CASE, (s) => [...s.slice(0, -1), { finish: "r1", expectError: true }]));
    expect(ignored).toMatchObject({ status: "failed", message: expect.stringContaining("expectError") });
  });

  it("expectations that could never fail are case bugs when a case is loaded: an empty or unlisted expectSent/expectNone, expectCount without bounds, expectDeadline without a time, a single object where a list goes, an expectation on a stalled step", () => {
    const refused = (c: LoadedCase) => () => checkCase(c.spec as unknown as Record<string, unknown>);
    expect(refused(withSteps(CASE, (s) => s))).not.toThrow();
    expect(refused(withSteps(CASE, (s) => [...s, { expectSent: [] }]))).toThrow(/expectSent needs a non-empty list of matchers/);
    expect(refused(withSteps(CASE, (s) => [...s, { expectNone: rr }]))).toThrow(/expectNone needs a non-empty list of matchers/);
    expect(refused(withSteps(CASE, (s) => [...s, { expectCount: { match: rr } }]))).toThrow(/expectCount needs min, max or both/);
    expect(refused(withSteps(CASE, (s) => [...s, { expectDeadline: {} }]))).toThrow(/expectDeadline needs \{"by": T\}/);
    expect(refused(withSteps(CASE, (s) => [...s, { expectDeadline: { by: 5, within: 2 } }]))).toThrow(/expectDeadline takes by, why/);
    const firstAdmit = (s: Record<string, unknown>[]) => s.findIndex((st) => st.admit !== undefined);
    expect(
      refused(withSteps(CASE, (s) => s.map((st, i) => (i === firstAdmit(s) ? { ...st, expect: { status: "admitted", items: { action: "defer" } } } : st)))),
    ).toThrow(/expect\.items must be a list/);
    expect(refused(withSteps(CASE9, (s) => [...s, { drain: [{ request: "r1", failures: { item: "a", reason: "NOT_FOUND" } }] }]))).toThrow(
      /drain\[0\]\.failures must be a list/,
    );
    expect(refused(withSteps(CASE, (s) => [...s, { after: 5_000, stalled: true, expectNone: [rr] }]))).toThrow(
      /stalled goes with a command the testee handles; expectNone sends none/,
    );
  });

  it("an expectSent or expectNone given its matchers through a variable checks them; a variable holding no list of matchers is a case bug", async () => {
    const after = (step: Record<string, unknown>, value: unknown = [rr]) =>
      run(withSteps(CASE9, (s) => [{ set: { matchers: value } }, ...s.slice(0, 4), step, ...s.slice(4)]));
    // The ReadRequest is out, and no step consumed it: an expectNone of it fails, an expectSent of it passes.
    expect(await after({ expectNone: "${matchers}" })).toMatchObject({ status: "failed", message: expect.stringMatching(/^unexpected output produced at t=\d+: .*readRequest/) });
    expect(await after({ expectSent: "${matchers}" })).toMatchObject({ status: "passed" });
    for (const [action, value] of [["expectNone", rr], ["expectNone", []], ["expectSent", "text"], ["expectNone", [rr, 5]]] as const)
      expect(await after({ [action]: "${matchers}" }, value)).toMatchObject({
        status: "failed",
        message: expect.stringMatching(new RegExp(`^case bug \\(fix the case file\\): ${action} needs a non-empty list of matchers`)),
      });
  });

  it("expectCount bounds that are not whole numbers, or a min above the max, are case bugs, not a count that passes or fails the testee", async () => {
    const refused = (count: Record<string, unknown>) => () => checkCase(withSteps(CASE9, (s) => [...s, { expectCount: { match: rr, ...count } }]).spec as unknown as Record<string, unknown>);
    expect(refused({ max: "none" })).toThrow(/expectCount\.max must be a whole number >= 0; got "none"/);
    expect(refused({ min: 1.5 })).toThrow(/expectCount\.min must be a whole number >= 0; got 1\.5/);
    expect(refused({ min: 5, max: 1 })).toThrow(/expectCount\.min 5 is above its max 1/);
    expect(refused({ min: 1, max: 1 })).not.toThrow();
    // Through a variable, at run time.
    const bound = async (max: unknown) => run(withSteps(CASE9, (s) => [{ set: { n: max } }, ...s.slice(0, 4), { expectCount: { match: rr, max: "${n}" } }, ...s.slice(4)]));
    expect(await bound("none")).toMatchObject({ status: "failed", message: expect.stringContaining('case bug (fix the case file): expectCount.max must be a whole number >= 0; got "none"') });
    expect(await bound(-1)).toMatchObject({ status: "failed", message: expect.stringContaining("case bug (fix the case file): expectCount.max must be a whole number >= 0; got -1") });
    expect(await bound(1)).toMatchObject({ status: "passed" });
  });

  it("a comparison operator whose operand is not a number, or $absent beside another operator, is a case bug (it never holds, or binds nothing)", () => {
    for (const op of ["$gte", "$lte", "$gt", "$lt"]) expect(() => m({ attemptId: { [op]: "one" } }, { attemptId: "1" })).toThrow(new RegExp(`\\${op} compares numbers; got "one"`));
    expect(() => m({ attemptId: { $between: [1, "ten"] } }, { attemptId: "1" })).toThrow(/\$between compares numbers; got "ten"/);
    expect(() => m({ attemptId: { $between: 5 } }, { attemptId: "1" })).toThrow(/\$between takes \[low, high\]; got 5/);
    // Written out in a case, it is refused as the case loads.
    const none = { expectNone: [{ send: { to: "P1", envelope: { readRequest: { attemptId: { $gte: "one" } } } } }] };
    expect(() => checkCase(withSteps(CASE, (s) => [...s, none]).spec as unknown as Record<string, unknown>)).toThrow(
      /expectNone\[0\]\.send\.envelope\.readRequest\.attemptId: \$gte compares numbers; got "one"/,
    );
    // Nor does $absent take another operator: a $bind beside it would bind nothing.
    expect(() => m({ attemptId: { $absent: true, $bind: "a" } }, {})).toThrow(/\$absent takes no other operator: .*"\$bind":"a"/);
    const absentBind = { expectNone: [{ send: { to: "P1", envelope: { readRequest: { attemptId: { $absent: true, $bind: "a" } } } } }] };
    expect(() => checkCase(withSteps(CASE, (s) => [...s, absentBind]).spec as unknown as Record<string, unknown>)).toThrow(
      /expectNone\[0\]\.send\.envelope\.readRequest\.attemptId: \$absent takes no other operator/,
    );
    expect(m({ attemptId: { $absent: true } }, {})).toBe(true);
    // Numbers, written as numbers or decimal strings, compare as before.
    expect([m({ attemptId: { $gte: 1 } }, { attemptId: "1" }), m({ attemptId: { $lt: "2" } }, { attemptId: "1" }), m({ attemptId: { $between: [2, 3] } }, { attemptId: "1" })]).toEqual([true, true, false]);
  });

  it("together other than true, or on a step other than put, is a case bug (the puts would be polled one by one)", async () => {
    const ELEMENTS = "producer/e1-events/a-drive-beyond-the-element-limit-fills-each-batch-greedily";
    const notTrue = await run(withSteps(ELEMENTS, (s) => s.map((st) => (st.together ? { ...st, together: 1 } : st))));
    expect(notTrue).toMatchObject({ status: "failed", message: expect.stringContaining("together must be true") });
    const onAdmit = await run(withSteps(CASE, (s) => s.map((st, i) => (i === 0 ? { ...st, together: true } : st))));
    expect(onAdmit).toMatchObject({ status: "failed", message: expect.stringContaining("together goes with put") });
    // Without it the same puts are 1,025 drives, one Stored event each: the case's expectation fails.
    const apart = await run(withSteps(ELEMENTS, (s) => s.map(({ together: _t, ...st }) => st)));
    expect(apart).toMatchObject({ status: "failed", message: expect.stringContaining("eventBatch") });
  });

  it("transportMetadata that is not base64 text is a case bug (the testee would be configured without it)", async () => {
    const HELLO = "consumer/p8-liveness/the-consumers-hello-carries-its-transport-metadata";
    const c = structuredClone(CASES.find((x) => x.fullName === HELLO) as LoadedCase);
    (c.spec.self as Record<string, unknown>).transportMetadata = "not base64!";
    expect(await run(c)).toMatchObject({ status: "failed", message: expect.stringContaining("transportMetadata is the testee's transport metadata in base64") });
    expect(await run(withSteps(HELLO, (s) => s))).toMatchObject({ status: "passed" });
  });

  it("unpolled other than true is a case bug (the put would be polled, and the pending change published, after all)", async () => {
    const FLUSH = "producer/e2-replay/a-snapshot-request-is-answered-after-the-pending-changes-are-published";
    const edited = withSteps(FLUSH, (s) => s.map((st) => (st.unpolled === true ? { ...st, unpolled: "yes" } : st)));
    expect(await run(edited)).toMatchObject({ status: "failed", message: expect.stringContaining('unpolled must be true; got "yes"') });
    // A step after it that moves the clock would poll first, publishing the change: refused, unless stalled.
    const moved = withSteps(FLUSH, (s) => s.map((st) => ("deliver" in st ? { ...st, after: 1 } : st)));
    expect(await run(moved)).toMatchObject({ status: "failed", message: expect.stringContaining("the step after an unpolled put must be deliver") });
    const stalled = withSteps(FLUSH, (s) => s.map((st) => ("deliver" in st ? { ...st, after: 1, stalled: true } : st)));
    expect(await run(stalled)).toMatchObject({ status: "passed" });
    const together = withSteps(FLUSH, (s) => s.map((st) => (st.unpolled === true ? { ...st, together: true } : st)));
    expect(await run(together)).toMatchObject({ status: "failed", message: expect.stringContaining("together and unpolled do not go together") });
    expect(await run(withSteps(FLUSH, (s) => s))).toMatchObject({ status: "passed" });
  });

  it("a configure key the runner does not know (a misspelt items) is a case bug, and items outside a producer case too", async () => {
    const WARM = "producer/e1-warm-start/an-item-held-at-start-is-granted";
    const misspelt = withSteps(WARM, (s) => [{ configure: { item: ["A"] } }, ...s.slice(1)]);
    expect(await run(misspelt)).toMatchObject({ status: "failed", message: expect.stringContaining('configure takes config, epoch, capacity, transportMetadata, items; got "item"') });
    const consumer = withSteps(CASE, (s) => [{ configure: { items: ["A"] } }, ...s]);
    expect(await run(consumer)).toMatchObject({ status: "failed", message: expect.stringContaining("configure's items (a store filled first) is for producer cases") });
    const twice = withSteps(WARM, (s) => [{ configure: { items: ["A", "A"] } }, ...s.slice(1)]);
    expect(await run(twice)).toMatchObject({ status: "failed", message: expect.stringContaining("configure's items names A's key twice") });
    const tooBig = withSteps(WARM, (s) => [{ configure: { items: ["A"], capacity: 100 } }, ...s.slice(1)]);
    expect(await run(tooBig)).toMatchObject({ status: "failed", message: expect.stringContaining("more than the store's capacity") });
    const notAList = withSteps(WARM, (s) => [{ configure: { items: "A" } }, ...s.slice(1)]);
    expect(await run(notAList)).toMatchObject({ status: "failed", message: expect.stringContaining("configure's items is a list of item fixture or family names") });
    const oddCapacity = withSteps(WARM, (s) => [{ configure: { items: ["A"], capacity: "lots" } }, ...s.slice(1)]);
    expect(await run(oddCapacity)).toMatchObject({ status: "failed", message: expect.stringContaining('capacity is a number of bytes; got "lots"') });
    const noFeature = structuredClone(CASES.find((x) => x.fullName === WARM) as LoadedCase);
    noFeature.spec.features = ["producer"];
    expect(await run(noFeature)).toMatchObject({ status: "failed", message: expect.stringContaining('needs the feature "warm-start"') });
    expect(await run(withSteps(WARM, (s) => s))).toMatchObject({ status: "passed" });
  });

  it("a warm-start producer that does not hold its initial items, or announces them otherwise than put, fails the case", async () => {
    const WARM = "producer/e1-warm-start/an-item-held-at-start-is-granted";
    /** The TS testee with `edit` applied to each request and `answer` to each response. */
    const altered = (edit: (req: ectp.conformance.v1.TesteeRequest) => void, answer: (res: ectp.conformance.v1.ITesteeResponse) => void) =>
      class extends CoreTesteeHandler {
        override handle(req: ectp.conformance.v1.TesteeRequest) {
          edit(req);
          const res = super.handle(req);
          answer(res);
          return res;
        }
      };
    const runWith = (Handler: typeof CoreTesteeHandler) => run(CASES.find((x) => x.fullName === WARM) as LoadedCase, Handler);
    const ignoresItems = altered(
      (req) => {
        if (req.configure) req.configure.initialItems = [];
      },
      () => {},
    );
    expect(await runWith(ignoresItems)).toMatchObject({ status: "failed", message: expect.stringContaining("Announce after Configure answered no announcement") });
    const item = (res: ectp.conformance.v1.ITesteeResponse) => res.announce?.announcement?.item;
    const olderEpoch = altered(() => {}, (res) => { const d = item(res); if (d) d.epoch = 4; });
    expect(await runWith(olderEpoch)).toMatchObject({ status: "failed", message: expect.stringContaining("its announced descriptor MUST be the full descriptor") });
    const otherDtype = altered(() => {}, (res) => { const d = item(res); if (d) d.dtype = 5; });
    expect(await runWith(otherDtype)).toMatchObject({ status: "failed", message: expect.stringContaining("MUST keep the key, dtype, shape and checksum put") });
    expect(await runWith(CoreTesteeHandler)).toMatchObject({ status: "passed" });
  });

  it("a producer that stores an item under its own id and epoch though the put named others (storedAs) fails the case naming the PutItem rule, and storedAs items cannot be initial items", async () => {
    const OLDER = "producer/p8-liveness/an-item-stored-under-an-older-epoch-is-never-granted-announced-or-published";
    /** The TS testee, except that every PutItem's descriptor loses its producer id and epoch (a testee written before storedAs). */
    class FillsItsOwn extends CoreTesteeHandler {
      override handle(req: ectp.conformance.v1.TesteeRequest) {
        const d = req.putItem?.descriptor;
        if (d) {
          d.producerId = "";
          d.epoch = 0;
        }
        return super.handle(req);
      }
    }
    const older = CASES.find((x) => x.fullName === OLDER) as LoadedCase;
    expect(await run(older, FillsItsOwn)).toMatchObject({
      status: "failed",
      message: expect.stringContaining(
        'putItem X at t=0: PutItemResult.descriptor MUST be the full descriptor (producer_id "P1", epoch 4, size_bytes 4096); got',
      ),
    });
    expect(await run(older, FillsItsOwn)).toMatchObject({
      message: expect.stringContaining("(the PutItem set epoch 4, and the store keeps what a PutItem sets: TESTEE-PROTOCOL.md, PutItem)"),
    });
    expect(await run(older)).toMatchObject({ status: "passed" });
    // A storedAs that names the testee's own id and epoch (its epoch changed by a configure step) is a case bug, not the testee's failure.
    const own = structuredClone(older);
    own.spec.steps = [{ configure: { epoch: 4 } }, ...own.spec.steps] as unknown as typeof own.spec.steps;
    expect(await run(own)).toMatchObject({
      status: "failed",
      message: expect.stringContaining('put X: its storedAs names the testee\'s own producer id "P1" and epoch 4, so it is an item like any other'),
    });
    const initial = structuredClone(older);
    initial.spec.features = ["producer", "warm-start"];
    initial.spec.steps = [{ configure: { items: ["X"] } }, ...initial.spec.steps] as unknown as typeof initial.spec.steps;
    expect(await run(initial)).toMatchObject({ status: "failed", message: expect.stringContaining("configure's items names X, stored as another producer or epoch") });
    // A family is named as the case names it, not by its member.
    const family = structuredClone(initial);
    family.spec.items = { ...family.spec.items, F: { size: 64, count: 2, storedAs: { epoch: 4 } } };
    family.spec.steps = [{ configure: { items: ["A", "F"] } }, ...older.spec.steps] as unknown as typeof family.spec.steps;
    expect(await run(family)).toMatchObject({ status: "failed", message: expect.stringContaining("configure's items names F, stored as another producer or epoch") });
  });

  it("a step time that is not a number (a template, a string) is a case bug, not a step run at the current time", async () => {
    const r = await run(withSteps(CASE9, (s) => [...s.slice(0, 4), { at: { $expr: "100 + 5" } }, { expectSent: [{ send: { envelope: { readComplete: { $any: true } } }, $window: [105, 105] }] }, ...s.slice(4)]));
    expect(r).toMatchObject({ status: "failed", message: expect.stringMatching(/\bat\b/) });
    const str = await run(withSteps(CASE, (s) => [...s, { after: "50" }]));
    expect(str).toMatchObject({ status: "failed", message: expect.stringContaining("after") });
  });

  it("$times of 0 or a non-integer is a case bug (expectSent with $times 0 checks nothing)", async () => {
    const zero = await run(withSteps(CASE9, (s) => [...s.slice(0, 4), { expectSent: [{ ...rr, $times: 0 }, { send: { to: "NOBODY" }, $times: 0 }] }, ...s.slice(4)]));
    expect(zero).toMatchObject({ status: "failed", message: expect.stringContaining("$times") });
    const str = await run(withSteps(CASE9, (s) => [...s.slice(0, 4), { expectSent: [{ ...rr, $times: "2" }] }, ...s.slice(4)]));
    expect(str).toMatchObject({ status: "failed", message: expect.stringContaining("$times") });
  });

  it("a read result's data with an unknown key (a misspelt truncate) is a case bug, not the item's bytes unspoiled", async () => {
    const CASE11 = "consumer/c11-verify/size-checked-without-checksum";
    const r = await run(
      withSteps(CASE11, (s) => s.map((st) => (st.readResult ? { ...st, readResult: { ...(st.readResult as object), data: { item: "N", trunc: 100 } } } : st))),
    );
    expect(r).toMatchObject({ status: "failed", message: expect.stringContaining('unknown key "trunc"') });
    const negative = await run(
      withSteps(CASE11, (s) => s.map((st) => (st.readResult ? { ...st, readResult: { ...(st.readResult as object), data: { item: "N", extend: -100 } } } : st))),
    );
    expect(negative).toMatchObject({ status: "failed", message: expect.stringContaining("data.extend must be a positive whole number") });
    // The same case with the key spelt right passes (the edit itself is sound).
    const ok = await run(withSteps(CASE11, (s) => s));
    expect(ok).toMatchObject({ status: "passed" });
  });
});

describe("$encodedSize (a batch size bound of an exact number of events)", () => {
  const GREEDY = "producer/e1-events/a-drive-beyond-the-bound-fills-each-batch-greedily";
  const sizes = (value: unknown, type: unknown) => (s: Record<string, unknown>[]) => [{ set: { n: { $encodedSize: value, type } } }, ...s];

  it("is the bytes of the Event the producer counts: one byte less in the bound and two events no longer share a batch", async () => {
    // The case as written passes on the reference producer; with the bound one byte short of the
    // two events' sum, the same reference producer cuts after the first, so the size is exact, not a margin.
    expect(await run(withSteps(GREEDY, (s) => s))).toMatchObject({ status: "passed" });
    const short = await run(
      withSteps(GREEDY, (s) => s.map((st) => (st.configure ? { configure: { config: { maxBatchBytes: { $expr: "r0 + r1 - 1" } } } } : st))),
    );
    expect(short).toMatchObject({ status: "failed", message: expect.stringContaining("eventBatch") });
  });

  it("a type other than Event or ItemDescriptor, or a value that is no object, is a case bug", async () => {
    const removed = { removed: { key: { $key: "A" } } };
    expect(await run(withSteps(CASE, sizes(removed, "Removed")))).toMatchObject({ status: "failed", message: expect.stringContaining('"type": "Event" or "ItemDescriptor"') });
    expect(await run(withSteps(CASE, sizes("A", "Event")))).toMatchObject({ status: "failed", message: expect.stringContaining("proto3 JSON object") });
    expect(await run(withSteps(CASE, sizes({ removed: 5 }, "Event")))).toMatchObject({ status: "failed", message: expect.stringContaining("is not an Event") });
    // A misspelt field would be sized as absent: refused, naming it. snake_case is proto3 JSON too.
    const misspelt = { removed: { key: { $key: "A" }, cuase: "REMOVED_CAUSE_EVICTED" } };
    expect(await run(withSteps(CASE, sizes(misspelt, "Event")))).toMatchObject({ status: "failed", message: expect.stringContaining('"cuase"') });
    const snake = { removed: { key: { content_hash: "AQ==" }, cause: "REMOVED_CAUSE_EVICTED" } };
    expect(await run(withSteps(CASE, sizes(snake, "Event")))).toMatchObject({ status: "passed" });
    // An ItemDescriptor is sized too (a snapshot part's items): the case runs on.
    expect(await run(withSteps(CASE, sizes({ $descriptor: "A" }, "ItemDescriptor")))).toMatchObject({ status: "passed" });
  });
});

describe("templates inside the `with` of $descriptor and $announcement", () => {
  // README "Templates": `{"$descriptor": "A", "with": {...}}`; its `with` was spread unresolved.
  const grantWith = (epoch: unknown): LoadedCase => ({
    fullName: "runner-authoring/descriptor-with",
    file: "runner-authoring.json",
    spec: {
      name: "descriptor-with",
      requirements: ["C1"],
      level: "REQUIRED",
      role: "consumer",
      quiesce: false,
      items: { A: { size: 4096 } },
      steps: [
        { admit: { request: "r1", items: [{ id: "i1", announce: "A" }] } },
        { expectSent: [{ send: { to: "P1", envelope: { hello: { role: "ROLE_CONSUMER" } } } }, { send: { to: "P1", envelope: { readRequest: { attemptId: { $bind: "att" }, key: { $key: "A" } } } } }] },
        { set: { e: "5" } },
        { at: 5, deliver: { from: "P1", envelope: { readGrant: { attemptId: "${att}", grantId: "7", item: { $descriptor: "A", with: { epoch } }, leaseMs: 30000 } } } },
        { expectSent: [{ startRead: { readId: { $bind: "rd" }, peerId: "P1" } }] },
      ],
    } as unknown as LoadedCase["spec"],
  });
  it("are resolved in the step's scope, as a literal is taken", async () => {
    for (const epoch of ["5", "${e}", { $expr: "2 + 3" }]) expect(await run(grantWith(epoch)), JSON.stringify(epoch)).toMatchObject({ status: "passed" });
  });
});

/**
 * The runner's checks can fail: each test gives the runner a testee (mostly the TS reference one
 * with an answer altered) or a case that is wrong in one way, and expects the case, the run or the
 * CLI to fail. Found by hand mutation testing of the runner: each test fails on a version of the
 * runner with that check weakened, which the other tests of this package let pass (a conformance
 * suite whose check cannot fail passes a wrong implementation).
 */
import * as core from "@ectp/core";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import type { LoadedCase } from "./cases/format.js";
import { loadCases } from "./cases/load.js";
import { runConformanceCli } from "./cli.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import { ectp } from "./proto.js";
import { matches } from "./runner/match.js";
import { toTerminal } from "./report/report.js";
import { classify, runSuite, summarise } from "./runner/suite.js";
import { fakeTestee, withRawFromEnvelopes } from "./test-support.js";
import { inProcessTestee } from "./testee/in-process.js";

// This file's scratch folders are made in one folder, removed after its tests, passed or failed.
const work = mkdtempSync(join(tmpdir(), "ectp-runner-checks-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CASES = loadCases();
type Res = ectp.conformance.v1.ITesteeResponse;
type Req = ectp.conformance.v1.TesteeRequest;
const inProcess = () => () => inProcessTestee(new CoreTesteeHandler(core as unknown as CoreModule));
/** The TS reference testee with its requests changed by `before` and its answers by `change`. */
const altered =
  (change: (res: Res, req: Req) => Res, before: (req: Req) => Req = (r) => r) =>
  () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    return inProcessTestee({ handle: (req) => withRawFromEnvelopes(change(h.handle(before(req)), req)) });
  };
/**
 * The TS reference testee with every deadline its polls report moved by `ms` (never to or before the
 * poll's own time), or left out (`undefined`): a testee reporting its timers late, early or not at all.
 */
const deadlineMovedBy = (ms: number | undefined) =>
  altered((res, req) => {
    const d = res.poll?.nextDeadlineMs;
    if (res.poll && d !== undefined && d !== null) res.poll.nextDeadlineMs = ms === undefined ? null : Math.max(Number(req.nowMs) + 1, Number(d) + ms);
    return res;
  });
const one = (name: string): LoadedCase => {
  const c = CASES.find((x) => x.fullName === name);
  if (!c) throw new Error(`no case ${name}`);
  return structuredClone(c);
};
const withSteps = (name: string, edit: (steps: Record<string, unknown>[]) => Record<string, unknown>[]): LoadedCase => {
  const c = one(name);
  c.spec.steps = edit(c.spec.steps as unknown as Record<string, unknown>[]) as unknown as typeof c.spec.steps;
  return c;
};
const run = async (c: LoadedCase, testee: () => ReturnType<ReturnType<typeof inProcess>> = inProcess(), caseTimeoutMs?: number) => {
  const report = await runSuite({ testee, features: [...TS_TESTEE_FEATURES, "events"], cases: [c], level: "all", caseTimeoutMs });
  return { ...report.results[0], ok: report.ok };
};

describe("runner review: outcomes and the run's verdict", () => {
  it("a case bug and a runner error fail the case and the run; they are never skipped", async () => {
    const bug = await run(withSteps("consumer/c1-admission/local-item-is-ready", (s) => [...s, { removeRule: "no-such-rule" }]));
    expect(bug).toMatchObject({ status: "failed", ok: false, message: expect.stringContaining("case bug (fix the case file): no rule named") });
    const broken = await run(one("consumer/c1-admission/local-item-is-ready"), () => Promise.reject(new Error("factory broke")));
    expect(broken).toMatchObject({ status: "failed", ok: false, message: expect.stringContaining("runner error: Error: factory broke") });
    const unprintable = await run(one("consumer/c1-admission/local-item-is-ready"), () => Promise.reject(Object.create(null)));
    expect(unprintable).toMatchObject({ status: "failed", ok: false, message: "runner error: a thrown object that cannot be turned into a string" });
  });

  it("the terminal summary groups skips by reason, naming a reason's cases only when they are few", () => {
    const skip = (name: string, message: string) => ({ name, level: "REQUIRED" as const, requirements: [], catches: [], status: "skipped" as const, message, durationMs: 0 });
    const results = [
      ...Array.from({ length: 11 }, (_, i) => skip(`consumer/c${i}`, "role consumer not in the features file")),
      skip("subscriber/x", 'needs optional feature "raw-messages"'),
    ];
    const text = toTerminal(summarise(results));
    expect(text).toContain(
      'skipped: 12 (each case is in the JSON report, --report)\n  11 role consumer not in the features file\n  1 needs optional feature "raw-messages": subscriber/x\n',
    );
    expect(text).not.toContain("consumer/c0");
  });

  it("the terminal summary ends with the mutant table when given one: each mutant caught (naming up to 3 cases), SURVIVED (with the cases that only timed out) or BROKEN (saying why)", () => {
    const text = toTerminal(summarise([]), [
      { name: "m1", failure: 4, description: "", caughtBy: ["a/b/1", "a/b/2", "a/b/3", "a/b/4"], timedOut: [], caught: true },
      { name: "m2", failure: 7, description: "", caughtBy: [], timedOut: ["a/b/5", "a/b/6"], caught: false },
      { name: "m3", failure: 0, description: "", caughtBy: [], timedOut: [], caught: false, broken: "its bundle does not build or load: x is not defined" },
    ]);
    expect(text).toBe(
      "mutants (docs/failures.md failure -> cases that caught it):\n" +
        "  caught   m1 (failure 4): 4 cases, e.g. a/b/1, a/b/2, a/b/3\n" +
        "  SURVIVED m2 (failure 7): 0 cases; 2 more ran past their wall-clock limit (not counted: a slow machine), e.g. a/b/5\n" +
        "  BROKEN   m3 (failure 0): its bundle does not build or load: x is not defined\n" +
        "PASS: 0 passed, 0 failed, 0 skipped, 0 known failing (0 cases)\n",
    );
    expect(toTerminal(summarise([]))).not.toContain("mutants");
  });

  it("summarise counts an unexpected pass as a failure; classify keeps a listed skip skipped", () => {
    const r = (status: "passed" | "failed" | "unexpected-pass" | "known-failing" | "skipped") => ({ name: status, level: "REQUIRED", requirements: [], catches: [], status, durationMs: 0 });
    const s = summarise([r("passed"), r("unexpected-pass"), r("known-failing"), r("skipped")]);
    expect(s).toMatchObject({ passed: 1, failed: 1, skipped: 1, knownFailing: 1, ok: false });
    const listed = new Map([["x", "why"]]);
    expect(classify("x", { status: "skipped", message: "m" }, listed)).toEqual({ status: "skipped", message: "m" });
    expect(classify("x", { status: "passed" }, listed).status).toBe("unexpected-pass");
    expect(classify("y", { status: "passed" }, listed).status).toBe("passed");
  });
});

describe("runner review: the testee's answers", () => {
  it("a Configure the case expects refused but the testee accepts fails the case", async () => {
    // A testee that accepts any transfer timeout: it sees 26000 as if the case had sent no timers.
    const lax = altered(
      (res) => res,
      (req) => {
        if (req.configure?.timers) req.configure.timers = {};
        return req;
      },
    );
    const r = await run(one("consumer/c11-verify/config-rejected-when-timeout-reaches-lease"), lax);
    expect(r).toMatchObject({ status: "failed", message: expect.stringMatching(/^configure at t=0: expected an Error answer, got \{"ok":\{\}\}/) });
  });

  it("[I6] loaded bytes with the right size but another CRC-32C fail the case", async () => {
    const wrongCrc = altered((res) => {
      for (const d of res.admit?.items ?? []) if (d.loaded) d.loaded.crc32c = (Number(d.loaded.crc32c) ^ 1) >>> 0;
      return res;
    });
    const r = await run(one("consumer/c1-admission/remote-load-happy-path"), wrongCrc);
    expect(r).toMatchObject({ status: "failed", message: expect.stringMatching(/^\[I6\] item i1 of r1 was marked loaded with \d+ bytes, crc32c/) });
  });

  it("[C6] drainFailed: a request failed that the case says has not, a wrong reason, an extra failed item, all fail", async () => {
    const CASE = "consumer/c3-budget/survives-retries";
    const drained = (edit: (failed: ectp.conformance.v1.IFailedRequest[]) => ectp.conformance.v1.IFailedRequest[]) =>
      altered((res) => {
        if (res.drainFailed) res.drainFailed.failed = edit(res.drainFailed.failed ?? []);
        return res;
      });
    // A request that never failed reported failed (at t=59999 the case drains and expects nothing).
    const ghost = drained((f) => [...f, { requestId: "ghost", failures: [{ itemId: "x", reason: 2 }] }]);
    expect((await run(one(CASE), ghost)).message).toMatch(/^\[C6\] drainFailed at t=59999: expected 0 failed requests \(none\); got .*ghost/);
    // One missing: the message names the request the case expected.
    const lost = drained(() => []);
    expect((await run(one(CASE), lost)).message).toBe(
      "[C6] drainFailed at t=60000: expected 1 failed requests (r1); got []\n" +
        '  at step 4 of 6: {"at":60000,"drain":[{"request":"r1","failures":[{"item":"i1","reason":"BUDGET_EXHAUSTED"}]}]}',
    );
    // The right request, with another reason than BUDGET_EXHAUSTED.
    const notFound = drained((f) => f.map((r) => ({ ...r, failures: (r.failures ?? []).map((x) => ({ ...x, reason: 2 })) })));
    expect((await run(one(CASE), notFound)).message).toMatch(/^\[C6\] drainFailed at t=60000: item i1: expected reason BUDGET_EXHAUSTED/);
    // The right failure, and a second failed item the request does not have.
    const extraItem = drained((f) => f.map((r) => ({ ...r, failures: [...(r.failures ?? []), { itemId: "i9", reason: 16 }] })));
    expect((await run(one(CASE), extraItem)).message).toMatch(/^\[C6\] drainFailed at t=60000: expected 1 failed items/);
  });
});

describe("runner review: expectations", () => {
  it("expectCount fails above max and below min", async () => {
    const CASE = "consumer/c9-single-flight/two-requests-one-read";
    const readRequests = { send: { envelope: { readRequest: { $any: true } } } };
    const count = (bounds: Record<string, number>) => withSteps(CASE, (s) => [...s.slice(0, -2), { expectCount: { match: readRequests, ...bounds } }, ...s.slice(-2)]);
    expect((await run(count({ min: 1, max: 1 }))).status).toBe("passed");
    // The message lists the matching outputs, so the extra or missing one can be told apart.
    // The second line names the step (the one added, 8th of 10).
    expect((await run(count({ max: 0 }))).message).toMatch(
      /^count: 1 outputs by t=\d+ match .*; expected exactly 0\n {2}at step 8 of 10: \{"expectCount":\{"match":\{"send":\{"envelope":\{"readRequest":\{"\$any":true\}\}\}\},"max":0\}\}\nmatching outputs \(last 1 of 1\):\n {2}t=0 \{"send":.*readRequest/,
    );
    expect((await run(count({ min: 2 }))).message).toMatch(/^count: 1 outputs by t=\d+ match .*; expected at least 2\n/);
    expect((await run(count({ min: 2, max: 3 }))).message).toMatch(/; expected 2 to 3\n/);
  });

  it("expectOrder fails when fewer outputs than `first` lists were produced", async () => {
    const CASE = "subscriber/e2-follow/snapshot-then-batches-in-order";
    const toP1 = { send: { to: "P1" } };
    const c = withSteps(CASE, () => [{ follow: "P1" }, { expectOrder: { among: toP1, first: Array.from({ length: 10 }, () => toP1) } }]);
    expect((await run(c)).message).toMatch(/^outputs missing at t=0: output \d+ among .* should match .*; it is missing/);
  });

  it("expectSnapshot fails an item sent twice", async () => {
    const twice = altered((res) => {
      for (const o of res.poll?.outputs ?? []) {
        const snap = o.send?.envelope?.snapshot;
        if (snap && snap.part === 1 && snap.items?.[0]) snap.items = [...snap.items, snap.items[0]];
      }
      return res;
    });
    const r = await run(one("producer/e2-replay/snapshot-over-element-limit-sent-in-parts"), twice);
    expect(r.message).toMatch(/^\[E2\] snapshot to C1 by t=\d+: 1 of 1009 items are missing or sent more than once/);
  });

  it("expectSnapshot fails a part sent twice, even an empty copy that repeats no item", async () => {
    const partTwice = altered((res) => {
      const outs = res.poll?.outputs ?? [];
      for (const o of [...outs]) {
        const snap = o.send?.envelope?.snapshot;
        if (o.send && snap && snap.part === 1) outs.push({ send: { to: o.send.to, envelope: { ...o.send.envelope, snapshot: { ...snap, items: [] } } } });
      }
      return res;
    });
    const r = await run(one("producer/e2-replay/snapshot-over-element-limit-sent-in-parts"), partTwice);
    expect(r.message).toMatch(/^\[E2\] snapshot to C1 by t=\d+: part 1 of \d+ is out of range or sent twice/);
  });

  it("expectSnapshot fails items naming another producer or epoch than the testee's ([E2][P7])", async () => {
    for (const edit of [{ producerId: "ZZ" }, { epoch: 99 }]) {
      const foreign = altered((res) => {
        for (const o of res.poll?.outputs ?? []) for (const d of o.send?.envelope?.snapshot?.items ?? []) Object.assign(d, edit);
        return res;
      });
      const r = await run(one("producer/e2-replay/a-snapshot-holds-the-ready-items-as-of-the-latest-sequence"), foreign);
      expect(r.status).toBe("failed");
      expect(r.message).toMatch(/MUST name this producer and epoch \(producer_id "P1", epoch \d+\)/);
    }
  });

  it("[C3] a timer that fires at a poll the testee did not ask for fails: no deadline reported, or one reported late; early is fine", async () => {
    const name = "consumer/c8-quarantine/timed-out-read-quarantined-destination-kept";
    const hidden = await run(one(name), deadlineMovedBy(undefined));
    expect(hidden.status).toBe("failed");
    expect(hidden.message).toMatch(/^\[C3\] a timer fired at t=\d+ that the testee never asked to be polled for: its poll at t=\d+ reported no next_deadline_ms/);
    const late = await run(one(name), deadlineMovedBy(1));
    expect(late.status).toBe("failed");
    expect(late.message).toMatch(/reported next_deadline_ms t=\d+, nothing reached it since, and the poll at t=\d+ \(a step's time or a window's end\) returned \d+ outputs?, the first \{"cancelRead"/);
    expect((await run(one(name), deadlineMovedBy(-100))).status).toBe("passed");
    expect((await run(one(name))).status).toBe("passed");
    // A producer's timers too (its heartbeats [P8]), named without the consumer's id.
    const producer = await run(one("producer/p3-lease/each-grant-has-its-own-lease"), deadlineMovedBy(undefined));
    expect(producer.message).toMatch(/^a timer fired at t=\d+ that the testee never asked to be polled for: its poll at t=\d+ reported no next_deadline_ms/);
  });

  it("[C3] expectDeadline fails a testee whose last poll reported no deadline, or one past `by`; early passes", async () => {
    const name = "consumer/c3-budget/the-budget-deadline-is-reported-while-nothing-else-is-due";
    const none = await run(one(name), deadlineMovedBy(undefined));
    expect(none.message).toMatch(/^\[C3\] expected the testee's last poll to report a deadline by t=5000 \(r1's budget ends at 5000; nothing else is due before it\); it reported no next_deadline_ms at t=0/);
    const late = await run(one(name), deadlineMovedBy(1));
    expect(late.message).toMatch(/^\[C3\] expected the testee's last poll to report a deadline by t=5000 .*; it reported next_deadline_ms t=5001: a driver sleeping until then runs the timer late/);
    expect((await run(one(name), deadlineMovedBy(-100))).status).toBe("passed");
    expect((await run(one(name))).status).toBe("passed");
  });

  it("[E1] an EventBatch sent to a peer must be the batch published with its sequence: cut short, a Cleared dropped, or never published, all fail", async () => {
    const sentBatches = (edit: (batch: ectp.v1.IEventBatch) => void) =>
      altered((res) => {
        for (const o of res.poll?.outputs ?? []) if (o.send?.envelope?.eventBatch) edit(o.send.envelope.eventBatch);
        return res;
      });
    const name = "producer/e1-events/the-events-of-one-drive-are-published-in-the-order-of-its-changes";
    const firstOnly = await run(one(name), sentBatches((b) => b.events?.splice(1)));
    expect(firstOnly.message).toMatch(/^\[E1\] the EventBatch of sequence \d+ sent to C1 at t=\d+ differs from the batch published with that sequence \(its event_batch output\): sent \{/);
    const noCleared = await run(one(name), sentBatches((b) => b.events?.splice(0, b.events.length, ...b.events.filter((e) => !e.cleared))));
    expect(noCleared.status).toBe("failed");
    expect(noCleared.message).toMatch(/^\[E1\] the EventBatch of sequence/);
    const renumbered = await run(
      one("producer/e2-replay/a-replay-resends-its-batches-in-order"),
      sentBatches((b) => {
        b.sequence = Number(b.sequence) + 1000;
      }),
    );
    expect(renumbered.message).toMatch(/^\[E1\] an EventBatch of sequence 10\d\d was sent to C1 at t=\d+, but no event_batch output of that sequence was published/);
    expect((await run(one(name))).status).toBe("passed");
  });

  it("a testee that keeps producing outputs at the same time is reported as a livelock", async () => {
    const chatty = altered((res, req) => {
      if (res.poll) res.poll = { outputs: [...(res.poll.outputs ?? []), { connectPeer: { peerId: "X", epoch: 1 } }], nextDeadlineMs: Number(req.nowMs) };
      return res;
    });
    const r = await run(one("consumer/c1-admission/local-item-is-ready"), chatty, 5_000);
    expect(r.message).toMatch(/^\[I1\] testee still has outputs due after 64 polls at t=0 \(livelock\)/);
  });
});

describe("runner review: consumption, windows and read ids", () => {
  const CASE = "consumer/c9-single-flight/two-requests-one-read";
  const rr = { send: { envelope: { readRequest: { $any: true } } } };
  /** The case with `extra` steps after its fourth step (both admits answered READY; one ReadRequest sent at t=0). */
  const plus = (...extra: Record<string, unknown>[]) => withSteps(CASE, (s) => [...s.slice(0, 4), ...extra, ...s.slice(4)]);

  it("expectSent consumes: two matchers need two outputs, $times: 2 needs two", async () => {
    expect((await run(plus({ expectSent: [rr] }))).status).toBe("passed");
    expect((await run(plus({ expectSent: [rr, rr] }))).message).toMatch(/^expected output not seen by t=100 \(1 of 1\)/);
    expect((await run(plus({ expectSent: [{ ...rr, $times: 2 }] }))).message).toMatch(/^expected output not seen by t=100 \(2 of 2\)/);
  });

  it("$window: an output before lo or after hi does not count", async () => {
    expect((await run(plus({ expectSent: [{ ...rr, $window: [0, 0] }] }))).status).toBe("passed");
    // The ReadRequest went out at t=0, before the window, and none came in it: it came early.
    expect((await run(plus({ expectSent: [{ ...rr, $window: [1, 200] }] }))).message).toMatch(
      /^expected output came early, at t=0, before its window opened at t=1, and none came in the window by t=200 \(1 of 1\)/,
    );
    // The ReadComplete went out at t=5: a window ending at 4 does not take it, even when the step runs later.
    const rc = { send: { envelope: { readComplete: { $any: true } } } };
    expect((await run(plus({ expectSent: [{ ...rc, $window: [0, 5] }] }))).status).toBe("passed");
    expect((await run(plus({ expectSent: [{ ...rc, $window: [0, 4] }] }))).message).toMatch(/^expected output not seen by t=100 \(1 of 1\)/);
    const early = withSteps(CASE, (s) => [s[0] as Record<string, unknown>, { expectSent: [{ ...rr, $window: [1, 1] }] }]);
    expect((await run(early)).message).toMatch(/^expected output came early, at t=0, before its window opened at t=1, and none came in the window by t=1 \(1 of 1\)/);
  });

  it("expectSent without a window wants the output by the step's time, not later", async () => {
    // At t=0 no ReadGrant answer has produced a start_read yet at t=0? It has: use an output that only comes later, the
    // readResult's consequence: nothing is sent at t=0 after the flush, so a second ReadRequest is not there.
    const c = withSteps(CASE, (s) => [s[0] as Record<string, unknown>, { flush: true }, { expectSent: [{ send: { to: "P1" } }] }]);
    expect((await run(c)).message).toMatch(/^expected output not seen by t=0 \(1 of 1\)/);
  });

  it("a start_read reusing the id of an unsettled read fails the case", async () => {
    const reuse = altered((res) => {
      const outs = res.poll?.outputs;
      if (outs)
        res.poll = {
          ...res.poll,
          outputs: outs.flatMap((o) =>
            o.startRead ? [o, { startRead: { ...o.startRead, destinationOffset: Number(o.startRead.destinationOffset ?? 0) + 1_000_000_000 } }] : [o],
          ),
        };
      return res;
    });
    expect((await run(one(CASE), reuse)).message).toMatch(/^start_read reuses read_id \d+ while that read is unsettled/);
  });

  it("a start_read with read_id 0 fails the case, naming the rule (in JSON it reads as an absent field)", async () => {
    const zero = altered((res) => {
      for (const o of res.poll?.outputs ?? []) if (o.startRead) o.startRead.readId = 0;
      return res;
    });
    expect((await run(one(CASE), zero)).message).toMatch(/^start_read at t=\d+ has read_id 0: read ids MUST be > 0/);
  });
});

describe("runner review: invariants on the testee's Stats", () => {
  type Stats = ectp.conformance.v1.IStats;
  const stats = (edit: (s: Stats) => void) =>
    altered((res) => {
      if (res.stats) edit(res.stats);
      return res;
    });
  const CONSUMER = "consumer/c9-single-flight/two-requests-one-read";
  const PRODUCER = "producer/p1-ready/grant-carries-full-descriptor";

  it("[I3] pins != grants during a step fails; grants, pins or pinned bytes left after quiescence fail", async () => {
    const extraPin = stats((s) => {
      if (s.producer && Number(s.producer.grants ?? 0) > 0) s.producer.pins = Number(s.producer.grants) + 1;
    });
    expect((await run(one("producer/p2-pins/two-consumers-two-pins"), extraPin)).message).toMatch(/^\[I3\] producer pins \(\d+\) differ from live grants/);
    const leftPinned = stats((s) => {
      if (s.producer) s.producer.pinnedBytes = 7;
    });
    expect((await run(one(PRODUCER), leftPinned)).message).toMatch(/^\[I3\] after quiescence the producer still has grants=0 pins=0 pinnedBytes=7/);
    const leftGrant = stats((s) => {
      if (s.producer) Object.assign(s.producer, { grants: 1, pins: 1 });
    });
    expect((await run(one(PRODUCER), leftGrant)).message).toMatch(/^\[I3\] after quiescence the producer still has grants=1 pins=1/);
  });

  it("[I5] fewer destinations than unsettled reads fails; [I4] a consumer table left non-zero fails, destinations included", async () => {
    const noDest = stats((s) => {
      if (s.consumer && Number(s.consumer.readsInFlight ?? 0) > 0) s.consumer.destinations = 0;
    });
    expect((await run(one(CONSUMER), noDest)).message).toMatch(/^\[I5\] consumer holds 0 destinations but 1 reads are unsettled/);
    const leakDest = stats((s) => {
      if (s.consumer) s.consumer.destinations = Math.max(1, Number(s.consumer.destinations ?? 0));
    });
    expect((await run(one(CONSUMER), leakDest)).message).toMatch(
      /^\[I4\] .* not back to baseline: destinations=1\n {2}after the last step \(9 of 9: \{"finish":"r2"\}\), as the runner finished every request and ran every timer out$/,
    );
    const leakBudget = stats((s) => {
      if (s.consumer) s.consumer.budgets = Math.max(1, Number(s.consumer.budgets ?? 0));
    });
    expect((await run(one(CONSUMER), leakBudget)).message).toMatch(
      /^\[I4\] .* not back to baseline: budgets=1\n {2}after the last step \(9 of 9: \{"finish":"r2"\}\), as the runner finished every request and ran every timer out$/,
    );
  });
});

describe("runner review: more expectations", () => {
  const CASE = "consumer/c9-single-flight/two-requests-one-read";
  const rr = { send: { envelope: { readRequest: { $any: true } } } };
  const plus = (...extra: Record<string, unknown>[]) => withSteps(CASE, (s) => [...s.slice(0, 4), ...extra, ...s.slice(4)]);

  it("expectNone sees every unconsumed output, not only the step's own time", async () => {
    // The ReadRequest went out at t=0 and nothing consumed it; the step runs at t=100.
    expect((await run(plus({ expectNone: [rr] }))).message).toMatch(
      /^unexpected output produced at t=0: .*readRequest.* \(found by an expectNone at t=100, which covers every output not consumed by an earlier step\)\n {2}at step 5 of 10: \{"expectNone":\[\{"send":\{"envelope":\{"readRequest":\{"\$any":true\}\}\}\}\]\}$/,
    );
  });

  it("expectStats fails stats that do not match", async () => {
    expect((await run(plus({ expectStats: { consumer: { requests: 2 } } }))).status).toBe("passed");
    expect((await run(plus({ expectStats: { consumer: { requests: 99 } } }))).message).toMatch(/^stats at t=100: .* do not match/);
    // Zero counters are shown (proto3 leaves them out: {"consumer":{}} read as if the role's stats were missing).
    expect((await run(plus({ expectStats: { consumer: { quarantined: 3 } } }))).message).toMatch(
      /^stats at t=100: \{"consumer":\{"requests":2,.*"quarantined":0,.*\}\} do not match \{"consumer":\{"quarantined":3\}\}\n {2}at step 5 of 10: \{"expectStats":\{"consumer":\{"quarantined":3\}\}\}$/,
    );
  });

  it("expectStats checks every field it lists, not only the first of each role", async () => {
    expect((await run(plus({ expectStats: { consumer: { requests: 2, quarantined: 0 } } }))).status).toBe("passed");
    expect((await run(plus({ expectStats: { consumer: { requests: 2, quarantined: 3 } } }))).message).toMatch(/^stats at t=100: .* do not match/);
    expect((await run(plus({ expectStats: { consumer: { quarantined: 0, requests: 99 } } }))).message).toMatch(/^stats at t=100: .* do not match/);
  });

  it("an admit decision with another reason than expected fails", async () => {
    const otherReason = altered((res) => {
      for (const d of res.admit?.items ?? []) if (d.reason) d.reason = 16;
      return res;
    });
    expect((await run(one("consumer/c5-terminal/not-found-with-model-input-no-further-attempt"), otherReason)).message).toMatch(
      /^admit r1 at t=5: item 0: expected reason NOT_FOUND/,
    );
  });

  it("announce: a missing announcement, one present where none is expected, or one that does not match fail", async () => {
    const CASE_A = "producer/p4-announce/announce-does-not-pin";
    const none = altered((res) => (res.announce ? { commandId: res.commandId, announce: {} } : res));
    expect((await run(one(CASE_A), none)).message).toMatch(/^announce A at t=\d+: expected an announcement, got none/);
    const absent = withSteps(CASE_A, (s) => s.map((x) => ("announce" in x ? { ...x, expect: { present: false } } : x)));
    expect((await run(absent)).message).toMatch(/^announce A at t=\d+: expected no announcement/);
    const otherSize = altered((res) => {
      const item = res.announce?.announcement?.item;
      if (item) item.sizeBytes = 4095;
      return res;
    });
    expect((await run(one(CASE_A), otherSize)).message).toMatch(/^announce A: .* does not match/);
  });

  it("[I5] two unsettled reads into the same destination bytes fail", async () => {
    const twice = altered((res) => {
      const outs = res.poll?.outputs;
      if (outs) res.poll = { ...res.poll, outputs: outs.flatMap((o) => (o.startRead ? [o, { startRead: { ...o.startRead, readId: Number(o.startRead.readId) + 1000 } }] : [o])) };
      return res;
    });
    expect((await run(one(CASE), twice)).message).toMatch(/^\[I5\] read \d+ at t=\d+ targets .* which overlaps unsettled read \d+/);
  });

  it("a send whose envelope carries another sender_epoch fails", async () => {
    const otherEpoch = altered((res) => {
      for (const o of res.poll?.outputs ?? []) if (o.send?.envelope) o.send.envelope.senderEpoch = 2;
      return res;
    });
    expect((await run(one(CASE), otherEpoch)).message).toMatch(/^send to P1 at t=0: the envelope MUST carry .* sender_epoch 1/);
  });

  it("Unsupported{} for a plain Admit counts as the role, even when untrusted-json is not claimed", async () => {
    const refuses = altered((res, req) => (req.admit ? { commandId: res.commandId, unsupported: {} } : res));
    const report = await runSuite({ testee: refuses, features: ["consumer"], cases: [one(CASE)], level: "all" });
    expect(report.results[0]).toMatchObject({ status: "failed", message: expect.stringContaining('but the features file claims "consumer"') });
  });
});

describe("runner review: the matcher", () => {
  const m = (expected: unknown, actual: unknown) => matches(expected, actual, new Map(), new Map());
  it("operators compare", () => {
    expect([m({ $gte: 5 }, 5), m({ $gte: 5 }, "4")]).toEqual([true, false]);
    expect([m({ $lte: 5 }, 5), m({ $lte: 5 }, 6)]).toEqual([true, false]);
    expect([m({ $gt: 5 }, 6), m({ $gt: 5 }, 5)]).toEqual([true, false]);
    expect([m({ $lt: 5 }, 4), m({ $lt: 5 }, 5)]).toEqual([true, false]);
    expect([m({ $between: [2, 4] }, 3), m({ $between: [2, 4] }, 5), m({ $between: [2, 4] }, 1)]).toEqual([true, false, false]);
    expect([m({ $in: ["A", "B"] }, "B"), m({ $in: ["A", "B"] }, "C")]).toEqual([true, false]);
    expect([m({ $ne: 3 }, 4), m({ $ne: 3 }, "3"), m({ $ne: 0 }, undefined)]).toEqual([true, false, false]);
    expect([m({ $len: 2 }, [1, 2]), m({ $len: 2 }, [1]), m({ $len: 1 }, undefined)]).toEqual([true, false, false]);
    expect([m({ $has: ["a"] }, ["b", "a"]), m({ $has: ["a", "b"] }, ["a"]), m({ $has: ["a"] }, undefined), m({ $has: [] }, undefined)]).toEqual([true, false, false, true]);
    expect(() => m({ $has: "a" }, ["a"])).toThrow(/\$has takes a list/);
    expect([m({ $any: true }, {}), m({ $any: true }, undefined)]).toEqual([true, false]);
    expect([m({ $absent: true }, undefined), m({ $absent: true }, 0), m({ $absent: true }, 7), m({ $absent: true }, { a: 1 })]).toEqual([true, true, false, false]);
  });
  it("values compare exactly; absent fields equal only their defaults", () => {
    expect([m([1, 2], [1, 2]), m([1, 2], [1, 2, 3]), m([1], [])]).toEqual([true, false, false]);
    expect([m({ a: 0 }, {}), m({ a: 1 }, {}), m({ a: "FAILURE_REASON_UNSPECIFIED" }, {}), m({ a: "FAILURE_REASON_NOT_FOUND" }, {})]).toEqual([true, false, true, false]);
    expect([m({ a: { b: 0 } }, undefined), m({ a: { b: 1 } }, undefined), m({ a: { b: 1 } }, {})]).toEqual([true, false, false]);
    expect([m(5, "5"), m(5, 6), m("5", 4), m(1000000, "1000001")]).toEqual([true, false, false, false]);
    expect([m("FAILURE_REASON_NOT_FOUND", "FAILURE_REASON_NOT_FOUND"), m("FAILURE_REASON_NOT_FOUND", "FAILURE_REASON_NOT_READY")]).toEqual([true, false]);
    expect([m({ a: 1 }, 1), m({ a: 1 }, [1]), m({ a: 1 }, "x")]).toEqual([false, false, false]);
  });
});

describe("runner review: the CLI's verdict", () => {
  it("a known-failing case that passes makes the run exit 1, transport cases too, and the report says unexpected-pass", async () => {
    const dir = mkdtempSync(join(work, "review-"));
    const name = "transport/mock/close-settles-unsettled-reads";
    writeFileSync(join(dir, "known.json"), JSON.stringify({ [name]: "believed broken" }));
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    let code: number;
    try {
      code = await runConformanceCli(["--transport", "mock", "--filter", name, "--known-failing", join(dir, "known.json"), "--report", join(dir, "r.json")]);
    } finally {
      out.mockRestore();
    }
    const report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8"));
    expect(report.results.map((r: { name: string; status: string }) => `${r.name} ${r.status}`)).toEqual([`${name} unexpected-pass`]);
    expect(report.failed).toBe(1);
    expect(code).toBe(1);
  }, 60_000);
});

describe("runner: integers past 2^53 and Unsupported answers", () => {
  // SPEC 3.8 forbids sending them, but a matcher must not let two such values pass for one.
  it("integers past 2^53 are compared exactly: ids one apart differ ($ne, equality, order)", () => {
    const m = (e: unknown, a: unknown) => matches(e, a, new Map(), new Map());
    expect(m({ $ne: "9007199254740993" }, "9007199254740992")).toBe(true); // differ by 1: $ne must hold
    expect(m("18446744073709551615", "18446744073709551614")).toBe(false); // differ: must not match
    expect(m({ $gt: "9007199254740992" }, "9007199254740993")).toBe(true);
    expect(m({ $lte: "9007199254740992" }, "9007199254740993")).toBe(false);
    expect(m({ $between: ["9007199254740993", "9007199254740995"] }, "9007199254740992")).toBe(false);
  });

  it("an Unsupported answer naming a feature the command does not need fails the case (else a testee could skip any case)", async () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    const refuser = () =>
      inProcessTestee({ handle: (req: Req) => (req.admit ? { commandId: req.commandId, unsupported: { feature: "no-such-feature" } } : h.handle(req)) });
    const cases = CASES.filter((c) => c.spec.role === "consumer" && !(c.spec.features ?? []).length).slice(0, 5);
    const report = await runSuite({ testee: refuser, features: ["consumer"], cases, level: "all" });
    expect(report.results.map((r) => r.status)).toEqual(cases.map(() => "failed"));
    expect(report.results[0]?.message).toContain('Unsupported{feature: "no-such-feature"}, a feature it does not need');
    expect(report.ok).toBe(false);
  });

  it("an Unsupported answer for the optional feature a command needs, not claimed, skips the case naming it (a case that forgot to declare it)", async () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    const noRaw = () =>
      inProcessTestee({
        handle: (req: Req) => (req.deliverMessage?.raw?.length ? { commandId: req.commandId, unsupported: { feature: "" } } : h.handle(req)),
      });
    const c = one("producer/i1-robustness/garbage-bytes-ignored");
    delete c.spec.features; // the slip: it sends raw bytes without declaring raw-messages
    const report = await runSuite({ testee: noRaw, features: ["producer"], cases: [c], level: "all" });
    expect(report.results[0]).toMatchObject({ status: "skipped", message: 'needs optional feature "raw-messages"' });
  });

  it("from the command line: a testee answering every command after Init Unsupported{feature: \"x\"} fails the run", async () => {
    const refuser = fakeTestee(
      "refuser",
      `let buf = ""; process.stdin.on("data", (d) => { buf += d; let i; while ((i = buf.indexOf("\\n")) >= 0) { const req = JSON.parse(buf.slice(0, i)); buf = buf.slice(i + 1);
        process.stdout.write(JSON.stringify(req.init ? { commandId: req.commandId, init: { protocolVersion: 1 } } : { commandId: req.commandId, unsupported: { feature: "x" } }) + "\\n"); } });
       process.stdin.on("end", () => process.exit(0));`,
    );
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    let code: number;
    try {
      code = await runConformanceCli(["--testee", refuser, "--json-lines", "--filter", "consumer/c1-admission/**"]);
    } finally {
      out.mockRestore();
    }
    expect(code).not.toBe(0);
  }, 60_000);
});

describe("the subscriber's new subscription after a gone producer (SPEC.md section 8: it MAY re-subscribe at once)", () => {
  const NAME = "subscriber/e2-follow/a-gone-producer-is-sent-nothing-before-the-new-hello";
  /** The reference subscriber, with `extra` (bodies) sent to P1 in the poll right after PeerUnreachable. */
  const sendingAtOnce = (...extra: Record<string, unknown>[]) => {
    let identity: { id: string; epoch: number } | undefined;
    let unreachable = false;
    return altered((res, req) => {
      if (req.configure) identity = { id: String(req.configure.id), epoch: Number(req.configure.epoch) };
      if (req.peerUnreachable) unreachable = true;
      else if (req.poll && unreachable && res.poll && identity) {
        unreachable = false;
        for (const body of extra)
          res.poll.outputs = [
            ...(res.poll.outputs ?? []),
            { send: { to: "P1", envelope: { version: { major: 1, minor: 0 }, senderId: identity.id, senderEpoch: identity.epoch, ...body } } },
          ];
      }
      return res;
    });
  };
  const hello = { hello: { role: ectp.v1.Role.ROLE_CONSUMER, capabilities: ["events.v1"] } };

  it("a subscriber that sends the new Hello at once (and its SnapshotRequest after it) passes", async () => {
    expect(await run(one(NAME), sendingAtOnce(hello, { snapshotRequest: {} }))).toMatchObject({ status: "passed" });
  });

  it("a ReplayRequest for the late batch, or a SnapshotRequest before the Hello, fails", async () => {
    expect(await run(one(NAME), sendingAtOnce({ replayRequest: { fromSequence: 3 } }))).toMatchObject({
      status: "failed",
      message: expect.stringMatching(/^unexpected output produced at t=0: .*replayRequest/),
    });
    expect(await run(one(NAME), sendingAtOnce({ snapshotRequest: {} }, hello))).toMatchObject({ status: "failed" });
  });
});

describe("runner review: checks a second mutation sweep found unguarded", () => {
  const SNAPSHOT = "producer/e2-replay/snapshot-over-element-limit-sent-in-parts";
  const snapshots = (edit: (snap: ectp.v1.ISnapshot) => void) =>
    altered((res) => {
      for (const o of res.poll?.outputs ?? []) if (o.send?.envelope?.snapshot) edit(o.send.envelope.snapshot);
      return res;
    });

  it("expectSnapshot fails an item whose descriptor is not the one put (same key, another size)", async () => {
    const otherSize = snapshots((snap) => {
      const d = snap.part === 0 ? snap.items?.[0] : undefined;
      if (d) d.sizeBytes = Number(d.sizeBytes ?? 0) + 1;
    });
    expect((await run(one(SNAPSHOT), otherSize)).message).toMatch(/^\[E2\] snapshot to C1 by t=\d+: part 0: the descriptor of [A-Z]\.\d+ is not the one put/);
  });

  it("expectSnapshot fails a snapshot whose parts all say one more part than was sent (the missing part would be empty)", async () => {
    const morePartsThanSent = snapshots((snap) => {
      snap.parts = Math.max(1, Number(snap.parts ?? 0)) + 1;
    });
    expect((await run(one(SNAPSHOT), morePartsThanSent)).message).toMatch(/^\[E2\] snapshot to C1 by t=\d+: (\d+) of \d+ parts sent/);
  });

  it("expectSnapshot with a list of items passes in any order and fails an item left out; a name listed twice is a case bug", async () => {
    const GAP = "producer/e2-replay/gap-beyond-buffer-forces-snapshot";
    const expectItems = (items: unknown) =>
      withSteps(GAP, (steps) => steps.map((s) => (s.expectSnapshot ? { expectSnapshot: { ...(s.expectSnapshot as object), items } } : s)));
    const reversed = snapshots((snap) => {
      snap.items = [...(snap.items ?? [])].reverse();
    });
    expect(await run(expectItems(["A", "B", "C"]), reversed)).toMatchObject({ status: "passed" });
    const withoutB = snapshots((snap) => {
      snap.items = (snap.items ?? []).filter((_d, i) => i !== 1);
    });
    expect((await run(expectItems(["A", "B", "C"]), withoutB)).message).toMatch(/^\[E2\] snapshot to C1 by t=\d+: 1 of 3 items are missing or sent more than once/);
    expect((await run(expectItems(["A", "B", "A"]))).message).toContain("case bug (fix the case file): expectSnapshot.items names an item more than once");
  });

  it("expectSnapshot with a list of items: an item the list leaves out is named against the whole list; a family and one of its members name that member twice", async () => {
    const GAP = "producer/e2-replay/gap-beyond-buffer-forces-snapshot";
    const onlyAB = withSteps(GAP, (steps) => steps.map((s) => (s.expectSnapshot ? { expectSnapshot: { ...(s.expectSnapshot as object), items: ["A", "B"] } } : s)));
    expect((await run(onlyAB)).message).toMatch(/^\[E2\] snapshot to C1 by t=\d+: part 0 holds an item that is not one of A, B: /);
    const familyAndMember = withSteps(SNAPSHOT, (steps) => steps.map((s) => (s.expectSnapshot ? { expectSnapshot: { ...(s.expectSnapshot as object), items: ["F", "F.0"] } } : s)));
    expect(await run(familyAndMember)).toMatchObject({ status: "failed", message: expect.stringContaining("case bug (fix the case file): expectSnapshot.items names an item more than once") });
  });

  it("[I6] loaded bytes with the right CRC-32C but another size fail the case", async () => {
    const wrongSize = altered((res) => {
      for (const d of res.admit?.items ?? []) if (d.loaded) d.loaded.sizeBytes = Number(d.loaded.sizeBytes ?? 0) + 1;
      return res;
    });
    expect((await run(one("consumer/c1-admission/remote-load-happy-path"), wrongSize)).message).toMatch(
      /^\[I6\] item i1 of r1 was marked loaded with 4097 bytes, crc32c [0-9a-f]+; the producer's bytes are 4096 bytes/,
    );
  });

  it("[I6] an item admitted with an explicit announcement (not `announce`) has its loaded bytes checked too", async () => {
    const wrongCrc = altered((res) => {
      for (const d of res.admit?.items ?? []) if (d.loaded) d.loaded.crc32c = (Number(d.loaded.crc32c) ^ 1) >>> 0;
      return res;
    });
    // The same case with every `"announce": "A"` written out as `"announcement": {"$announcement": "A"}`.
    const explicit = withSteps("consumer/c1-admission/remote-load-happy-path", (steps) =>
      steps.map((s) => {
        const admit = s.admit as { items?: Record<string, unknown>[] } | undefined;
        if (!admit?.items) return s;
        const items = admit.items.map(({ announce, ...rest }) => (typeof announce === "string" ? { ...rest, announcement: { $announcement: announce } } : rest));
        return { ...s, admit: { ...admit, items } };
      }),
    );
    expect((await run(explicit)).status).toBe("passed");
    expect((await run(explicit, wrongCrc)).message).toMatch(/^\[I6\] item i1 of r1 was marked loaded with 4096 bytes, crc32c [0-9a-f]+; the producer's bytes are 4096 bytes/);
  });

  it("[I6] a remote READY whose explicit announcement names no case item is a case bug, never passed unchecked", async () => {
    // A key the case holds no bytes for, and a testee answering the admit READY with some loaded bytes.
    const foreign = { $announcement: "A", with: { key: { contentHash: "bm90LWEtY2FzZS1pdGVt" } } };
    const c = withSteps("consumer/c1-admission/remote-load-happy-path", () => [{ admit: { request: "r1", items: [{ id: "i1", announcement: foreign }] } }]);
    const C = ectp.conformance.v1;
    const readyAnswer = altered((res, req) =>
      req.admit
        ? { ...res, admit: { status: C.AdmitStatus.ADMIT_STATUS_ADMITTED, items: [{ itemId: "i1", action: C.ItemAction.ITEM_ACTION_READY, loaded: { sizeBytes: 4096, crc32c: 1 } }] } }
        : res,
    );
    expect((await run(c, readyAnswer)).message).toMatch(/^case bug \(fix the case file\): \[I6\] item i1 of r1 is READY at t=0 from a remote load, but its announcement's key names none of the case's items/);
  });

  it("[I4] a consumer left with reads in flight (and as many destinations) fails, naming readsInFlight", async () => {
    const inFlight = altered((res) => {
      const c = res.stats?.consumer;
      if (c) {
        c.readsInFlight = Math.max(1, Number(c.readsInFlight ?? 0));
        c.destinations = Math.max(Number(c.destinations ?? 0), Number(c.readsInFlight));
      }
      return res;
    });
    expect((await run(one("consumer/c9-single-flight/two-requests-one-read"), inFlight)).message).toMatch(/^\[I4\] .* not back to baseline: .*readsInFlight=1/);
  });

  it("[I5] two unsettled reads sharing one destination byte fail, whichever comes first", async () => {
    /** Each start_read followed (or preceded) by a copy whose first byte is the original's last. */
    const sharingOneByte = (copyFirst: boolean) =>
      altered((res) => {
        const outs = res.poll?.outputs;
        if (outs)
          res.poll = {
            ...res.poll,
            outputs: outs.flatMap((o) => {
              if (!o.startRead) return [o];
              const offset = Number(o.startRead.destinationOffset ?? 0);
              const length = Number(o.startRead.length ?? 0);
              const copy = { startRead: { ...o.startRead, readId: Number(o.startRead.readId) + 1000, destinationOffset: offset + Math.max(1, length) - 1 } };
              return copyFirst ? [copy, o] : [o, copy];
            }),
          };
        return res;
      });
    const CASE = "consumer/c9-single-flight/two-requests-one-read";
    const overlap = /^\[I5\] read \d+ at t=\d+ targets .* which overlaps unsettled read \d+/;
    // The second read starts on the first read's last byte; then the second read ends on the first's first byte.
    expect((await run(one(CASE), sharingOneByte(false))).message).toMatch(overlap);
    expect((await run(one(CASE), sharingOneByte(true))).message).toMatch(overlap);
  });

  it("[C6] drainFailed naming one request twice (and so another not at all) says so", async () => {
    const twice = altered((res) => {
      const f = res.drainFailed?.failed;
      if (f && f.length === 2) res.drainFailed = { failed: [f[0]!, f[0]!] };
      return res;
    });
    expect((await run(one("consumer/c2-validation/untrusted-json-size-above-2-53-fails-request"), twice)).message).toMatch(
      /^\[C6\] drainFailed at t=\d+: a request is reported more than once/,
    );
  });
});

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: case templates ("${var}"), not JS ones
/**
 * Runner semantics a third-party implementer relies on, each pinned by a test that failed before its
 * fix (a review of 2026-12-03): [I6] for an item admitted again without its announcement, the
 * invariants after a time-only step, snapshot descriptors compared with the ones put, JUnit counts,
 * rule matchers, `repeat` variables, request ids reused after FinishRequest, `$in` on absent fields,
 * and an output that comes before its `$window`.
 */
import * as core from "@ectp/core";
import { describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import type { CaseSpec, LoadedCase } from "./cases/format.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import type { ectp } from "./proto.js";
import { loadCases } from "./cases/load.js";
import { toJUnit } from "./report/report.js";
import { matches } from "./runner/match.js";
import { type CaseStatus, runSuite, summarise } from "./runner/suite.js";
import { inProcessTestee } from "./testee/in-process.js";
import { withRawFromEnvelopes } from "./test-support.js";

type Res = ectp.conformance.v1.ITesteeResponse;
type Req = ectp.conformance.v1.TesteeRequest;
const altered =
  (change: (res: Res, req: Req) => Res) =>
  () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    return inProcessTestee({ handle: (req) => withRawFromEnvelopes(change(h.handle(req), req)) });
  };
const honest = altered((res) => res);
const mk = (name: string, spec: Partial<CaseSpec>): LoadedCase => ({
  fullName: `runner-semantics/${name}`,
  file: "runner-semantics.json",
  spec: { name, requirements: ["I6"], level: "REQUIRED", role: "consumer", steps: [], ...spec } as CaseSpec,
});
const run = async (c: LoadedCase, testee = honest) => {
  const report = await runSuite({ testee, features: [...TS_TESTEE_FEATURES, "events"], cases: [c], level: "all" });
  return report.results[0];
};

const grantAndRead = [
  {
    on: { send: { to: "P1", envelope: { readRequest: { attemptId: { $bind: "a" } } } } },
    do: [{ deliver: { from: "P1", envelope: { readGrant: { attemptId: "${a}", grantId: { $seq: "grant" }, item: { $descriptor: "A" }, leaseMs: 30000 } } } }],
  },
  { on: { startRead: { readId: { $bind: "r" } } }, do: [{ readResult: { read: "${r}", status: "done", data: "A" } }], delay: 5 },
];

describe("[I6] for an item re-admitted without its announcement", () => {
  const readmit = mk("readmit", {
    items: { A: { size: 4096 } },
    rules: grantAndRead,
    steps: [
      { admit: { request: "r1", items: [{ id: "i1", announce: "A" }] }, expect: { status: "admitted", items: [{ action: "defer" }] } },
      { at: 100, admit: { request: "r1", items: [{ id: "i1" }] }, expect: { status: "admitted", items: [{ action: "ready" }] } },
    ],
  });
  it("the reference passes it", async () => {
    expect(await run(readmit)).toMatchObject({ status: "passed" });
  });
  // README "Checked on every case": "[I6] (a READY item loaded remotely, i.e. announced and not local,
  // comes with `loaded`, whose size and CRC-32C are the fixture's ...)". i1 was announced (by the
  // request's first Admit) and never local; the TESTEE-PROTOCOL.md table says Admit is "call[ed] again
  // on later steps for deferred items".
  it("loaded bytes with a wrong CRC-32C fail the case when the item is re-admitted without its announcement", async () => {
    const wrongCrc = altered((res) => {
      for (const d of res.admit?.items ?? []) if (d.loaded) d.loaded.crc32c = (Number(d.loaded.crc32c) ^ 1) >>> 0;
      return res;
    });
    expect(await run(readmit, wrongCrc)).toMatchObject({ status: "failed", message: expect.stringContaining("[I6] item i1 of r1") });
  });
  it("a READY without `loaded` fails the case when the item is re-admitted without its announcement", async () => {
    const noLoaded = altered((res) => {
      for (const d of res.admit?.items ?? []) d.loaded = null;
      return res;
    });
    expect(await run(readmit, noLoaded)).toMatchObject({ status: "failed", message: expect.stringContaining("[I6] item i1 of r1") });
  });
});

describe("invariants after a step that only moves the clock", () => {
  // README "Checked on every case": "[I3] (producer pins == grants after every step, both 0 after
  // quiescence)"; TESTEE-PROTOCOL.md 5.3: "`GetStats` is sent after every case step".
  it("[I3] pins differing from grants after a time-only step fail the case", async () => {
    const pinsLeakBetween100And200 = altered((res, req) => {
      const t = Number(req.nowMs) - 1_000_000;
      if (res.stats?.producer && t >= 100 && t < 200) res.stats.producer.pins = Number(res.stats.producer.grants ?? 0) + 1;
      return res;
    });
    const c = mk("time-only", { role: "producer", requirements: ["I3"], steps: [{ at: 150 }, { at: 300, expectNone: [{ startRead: { $any: true } }] }] });
    expect(await run(c)).toMatchObject({ status: "passed" });
    expect(await run(c, pinsLeakBetween100And200)).toMatchObject({ status: "failed", message: expect.stringContaining("[I3] producer pins (1) differ from live grants (0) at t=150") });
  });
});

describe("a testee whose next_deadline_ms keeps moving by 1 ms", () => {
  // TESTEE-PROTOCOL.md §2, item 7: such a testee "makes the runner step through the case a millisecond
  // at a time, and the case then fails saying so" (the clock used to jump to the step's time unpolled).
  it("fails the case saying so once the clock has stepped 100000 times toward one step's time", async () => {
    const plusOne = altered((res, req) => {
      if (res.poll) res.poll.nextDeadlineMs = Number(req.nowMs) + 1;
      return res;
    });
    const c = mk("plus-one", { role: "producer", requirements: ["I3"], steps: [{ at: 150 }, { at: 150_000 }] });
    expect(await run(c)).toMatchObject({ status: "passed" });
    expect(await run(c, plusOne)).toMatchObject({
      status: "failed",
      message: expect.stringMatching(/^the clock stepped a millisecond at a time: 100000 polls on the way from t=150 to t=150000 got only to t=100150 /),
    });
  }, 60_000);

  // TESTEE-PROTOCOL.md §4 names the mistake of a deadline at or before now_ms (0 for "none"): the
  // failure said only "keeps moving by 1 ms, or a very slow testee".
  const deadlineZero = altered((res) => {
    if (res.poll) res.poll.nextDeadlineMs = 0;
    return res;
  });
  const c = mk("deadline-zero", { role: "producer", requirements: ["I3"], steps: [{ at: 150 }, { at: 150_000 }] });
  const reported = "the testee's last poll reported next_deadline_ms 0, at or before its now_ms 1100149; a deadline at or before now_ms after an empty poll is read as now_ms + 1, so the runner steps the case 1 ms at a time: report the time a timer is next due, or no next_deadline_ms when none is, never 0 for none (TESTEE-PROTOCOL.md §4)";
  it("a next_deadline_ms at or before now_ms is named as the cause once the clock has stepped 100000 times", async () => {
    expect(await run(c, deadlineZero)).toMatchObject({
      status: "failed",
      message: `the clock stepped a millisecond at a time: 100000 polls on the way from t=150 to t=150000 got only to t=100149: ${reported}\n  at step 2 of 2: {"at":150000}`,
    });
  }, 60_000);

  it("a next_deadline_ms at or before now_ms is named as the cause when the case runs past its wall-clock limit", async () => {
    const report = await runSuite({ testee: deadlineZero, features: TS_TESTEE_FEATURES, cases: [c], level: "all", caseTimeoutMs: 100 });
    const message = report.results[0]?.message ?? "";
    expect(message).toMatch(
      /^the case ran past its 100 ms of wall-clock time after \d+ commands, at t=\d+ of virtual time: the testee's last poll reported next_deadline_ms 0, at or before its now_ms \d+; a deadline at or before now_ms after an empty poll is read as now_ms \+ 1, .*\(TESTEE-PROTOCOL.md §4\); --case-timeout-ms raises the limit\n/,
    );
    // A cause named is a finding about the testee, not a slow machine: not marked timedOut (a mutant run counts it as a catch).
    expect(report.results[0]?.timedOut).toBeUndefined();
  }, 60_000);
});

describe("expectSnapshot compares each item's descriptor with the one put", () => {
  // README "Writing cases": expectSnapshot "its items exactly those of `items` ..., each once and with
  // the descriptor that was put"; script.ts: "each with the descriptor that was put (key, size, shape,
  // dtype, checksum)". A, B and C are put without dtype or shape.
  const CASES = loadCases();
  const c = structuredClone(CASES.find((x) => x.fullName === "producer/e2-replay/gap-beyond-buffer-forces-snapshot") as LoadedCase);
  const snapshotItems = (change: (d: ectp.v1.IItemDescriptor) => void) =>
    altered((res) => {
      for (const o of res.poll?.outputs ?? []) for (const d of o.send?.envelope?.snapshot?.items ?? []) change(d);
      return res;
    });
  it("the reference passes it", async () => {
    expect(await run(c)).toMatchObject({ status: "passed" });
  });
  it("a snapshot whose items carry a dtype that was not put fails", async () => {
    const r = await run(c, snapshotItems((d) => { d.dtype = 1; }));
    expect(r).toMatchObject({ status: "failed", message: expect.stringContaining("is not the one put") });
  });
  it("a snapshot whose items carry a shape that was not put fails", async () => {
    const r = await run(c, snapshotItems((d) => { d.shape = [4096]; }));
    expect(r).toMatchObject({ status: "failed", message: expect.stringContaining("is not the one put") });
  });
});

describe("the JUnit file agrees with itself", () => {
  // README "Reading the reports": "`--junit out.xml`: ... skipped and known-failing cases are `<skipped>`".
  it("<testsuites skipped> counts every <skipped> testcase, known-failing ones included", () => {
    const r = (name: string, status: CaseStatus) => ({ name, level: "REQUIRED", requirements: ["C1"], catches: [], status, durationMs: 0 });
    const xml = toJUnit("t", summarise([r("a/b/x", "passed"), r("a/b/y", "known-failing"), r("a/c/z", "skipped")]));
    const skippedElements = xml.match(/<skipped /g)?.length ?? 0;
    const suites = [...xml.matchAll(/<testsuite name="[^"]*" tests="\d+" failures="\d+" skipped="(\d+)"/g)].reduce((n, m) => n + Number(m[1]), 0);
    const top = Number(/<testsuites [^>]*skipped="(\d+)"/.exec(xml)?.[1]);
    expect(skippedElements).toBe(2);
    expect(suites).toBe(2);
    expect(top).toBe(2);
  });
});

describe("a rule's `on` is a matcher like expectSent's", () => {
  // format.ts RuleSpec.on: "Output matcher (same language as `expectSent`)"; README: templates
  // "`{"$key": "A"}`" are part of that language.
  it("a rule whose `on` names the item by {$key} fires", async () => {
    const c = mk("rule-key", {
      items: { A: { size: 4096 } },
      rules: [
        {
          on: { send: { to: "P1", envelope: { readRequest: { attemptId: { $bind: "a" }, key: { $key: "A" } } } } },
          do: [{ deliver: { from: "P1", envelope: { readGrant: { attemptId: "${a}", grantId: "7", item: { $descriptor: "A" }, leaseMs: 30000 } } } }],
        },
        grantAndRead[1] as (typeof grantAndRead)[number],
      ],
      steps: [
        { admit: { request: "r1", items: [{ id: "i1", announce: "A" }] }, expect: { status: "admitted", items: [{ action: "defer" }] } },
        { at: 100, admit: { request: "r1", items: [{ id: "i1", announce: "A" }] }, expect: { status: "admitted", items: [{ action: "ready" }] } },
      ],
    });
    expect(await run(c)).toMatchObject({ status: "passed" });
  });
});

describe("repeat's variable reaches every step's templates", () => {
  // README: "`repeat` (`{times, as, steps}`: runs `steps` `times` times, ... with the variable `as`,
  // default `i`, counting 0, 1, ... in their templates".
  it("admit, finish, expectNone, expectCount and expectStats inside a repeat see `i`", async () => {
    const c = mk("repeat-templates", {
      requirements: ["C1"],
      items: { A: { size: 4096 } },
      steps: [
        {
          repeat: {
            times: 2,
            steps: [
              { admit: { request: "r${i}", items: [{ id: "i${i}", announce: "A", local: true }] }, expect: { status: "admitted", items: [{ action: "ready" }] } },
              { expectStats: { consumer: { requests: { $expr: "i + 1" } } } },
              { expectNone: [{ send: { to: "X${i}" } }] },
              { expectCount: { match: { send: { to: "X${i}" } }, max: 0 } },
            ],
          },
        },
        { repeat: { times: 2, steps: [{ finish: "r${i}" }] } },
        { expectStats: { consumer: { requests: 0 } } },
      ],
    });
    const r = await run(c);
    expect(r?.message).toBeUndefined();
    expect(r).toMatchObject({ status: "passed" });
  });
});

describe("quiescence finishes a request admitted again after it was finished", () => {
  // format.ts CaseSpec.quiesce: "At the end, finish everything and check [I3]/[I4]".
  it("a request id reused after its FinishRequest is finished at quiescence", async () => {
    const c = mk("readmit-after-finish", {
      requirements: ["C7"],
      items: { A: { size: 4096 } },
      peers: { P1: { hello: false, heartbeat: false } },
      steps: [
        { admit: { request: "r1", items: [{ id: "i1", announce: "A" }] }, expect: { status: "admitted", items: [{ action: "defer" }] } },
        { finish: "r1" },
        { admit: { request: "r1", items: [{ id: "i1", announce: "A" }] }, expect: { status: "admitted", items: [{ action: "defer" }] } },
      ],
    });
    const r = await run(c);
    expect(r?.message).toBeUndefined();
    expect(r).toMatchObject({ status: "passed" });
  });
});

describe("matcher operators on an absent field", () => {
  // README "Matchers": "absent fields equal their default"; match.ts: "an absent actual field equals its
  // default (0, "", false, *_UNSPECIFIED)".
  const m = (expected: unknown, actual: unknown) => matches(expected, actual, new Map(), new Map());
  it("$in holding the default matches an absent enum, string or bool field", () => {
    expect(m({ reason: "FAILURE_REASON_UNSPECIFIED" }, {})).toBe(true); // (the plain form already does)
    expect(m({ reason: { $in: ["FAILURE_REASON_UNSPECIFIED", "FAILURE_REASON_INTERNAL"] } }, {})).toBe(true);
    expect(m({ to: { $in: ["", "P1"] } }, {})).toBe(true);
    expect(m({ retryable: { $in: [false] } }, {})).toBe(true);
    expect(m({ reason: { $in: ["FAILURE_REASON_INTERNAL"] } }, {})).toBe(false);
  });
  it("$ne or $bind beside a numeric comparison compares the default (0) of an absent field", () => {
    expect(m({ minor: { $ne: 3, $lt: 5 } }, {})).toBe(true);
    expect(m({ minor: { $ne: 0, $lt: 5 } }, {})).toBe(false);
    expect(m({ minor: { $bind: "x", $gte: 1 } }, {})).toBe(false);
    expect(m({ minor: { $bind: "x", $lte: 0 } }, {})).toBe(true);
  });
  it("$bind binds the default of an absent field of a message that is there, and nothing inside a message that is absent", () => {
    const binds = new Map<string, unknown>();
    expect(matches({ version: { major: 1, minor: { $bind: "m" } } }, { version: { major: 1 } }, new Map(), binds)).toBe(true);
    expect(binds.get("m")).toBe(0);
    // A rule on a ReadRequest's attempt id does not fire on a Hello (its readRequest is absent).
    expect(m({ readRequest: { attemptId: { $bind: "a" } } }, { hello: { role: "ROLE_CONSUMER" } })).toBe(false);
  });
});

describe("an expectSent window and a matching output before it", () => {
  // c4-retry/not-ready-backoff-window: "the first retry comes 25-50 ms after the reject"; script.ts
  // expectSent: "so 'a retry between t+25 and t+50' is checked exactly". A consumer that also retries at
  // once (no backoff) still passes: the window skips the early retry and a later step's flush drops it.
  it("a retry sent at once, before the window, fails not-ready-backoff-window", async () => {
    const c = structuredClone(loadCases().find((x) => x.fullName === "consumer/c4-retry/not-ready-backoff-window") as LoadedCase);
    let rejected = false;
    let injected = 0;
    let first: ectp.conformance.v1.IOutput | undefined;
    const eager = altered((res, req) => {
      if (req.deliverMessage?.envelope?.readReject) rejected = true;
      for (const o of res.poll?.outputs ?? []) if (o.send?.envelope?.readRequest && !first) first = structuredClone(o);
      if (req.poll && rejected && first?.send?.envelope?.readRequest) {
        rejected = false;
        injected++;
        const early = structuredClone(first);
        (early.send as { envelope: { readRequest: { attemptId: unknown } } }).envelope.readRequest.attemptId = 999;
        res.poll?.outputs?.push(early);
      }
      return res;
    });
    const r = await run(c, eager);
    expect(injected).toBeGreaterThan(0);
    // The retry in the window came too: the message says the early one is an output too many, not a late one.
    expect(r).toMatchObject({
      status: "failed",
      message: expect.stringMatching(/^expected output came early, at t=100, before its window opened at t=125, besides the one that came in the window at t=1[2-5]\d, so the early one is an output too many: /),
    });
  });
});

describe("settleOnCancel settles a cancelled read the next time the clock moves", () => {
  // README "Case format": settleOnCancel "settles a cancelled read ... delivered the next time the clock moves".
  const c = mk("settle-on-cancel", {
    requirements: ["C7"],
    items: { A: { size: 4096 } },
    steps: [
      { admit: { request: "r1", items: [{ id: "i1", announce: "A" }] }, expect: { status: "admitted", items: [{ action: "defer" }] } },
      { expectSent: [{ send: { to: "P1", envelope: { readRequest: { attemptId: { $bind: "att" }, key: { $key: "A" } } } } }] },
      { at: 5, deliver: { from: "P1", envelope: { readGrant: { attemptId: "${att}", grantId: "7", item: { $descriptor: "A" }, leaseMs: 30000 } } } },
      { expectSent: [{ startRead: { readId: { $bind: "rd" }, peerId: "P1" } }] },
      { at: 10, finish: "r1" },
      { expectSent: [{ cancelRead: { readId: "${rd}" } }] },
      { expectStats: { consumer: { readsInFlight: 1 } } },
      { after: 1, expectStats: { consumer: { readsInFlight: 0 } } },
    ],
  } as unknown as Partial<CaseSpec>);
  it("a check in the step that saw the CancelRead sees it in flight; one after a time step sees it settled", async () => {
    expect(await run(c)).toMatchObject({ status: "passed" });
  });
});

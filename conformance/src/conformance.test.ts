import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as core from "@ectp/core";
import { afterAll, describe, expect, it, vi } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import { REQUIREMENT_IDS, idsOfSuite, loadCases } from "./cases/load.js";
import { runConformanceCli } from "./cli.js";
import { type MutantPatch, type MutantSpec, buildCoreBundle, importCoreBundle, loadMutants } from "./mutants/build.js";
import { TS_TESTEE_FEATURES, runMutants } from "./mutants/run.js";
import { TesteeRequest, TesteeResponse, ectp, responseFromJson } from "./proto.js";
import { RANDOMISED_SUITE, runRandomised } from "./random/randomised.js";
import { toJUnit, toJsonReport } from "./report/report.js";
import { featureWarnings, globMatcher, runSuite } from "./runner/suite.js";
import { inProcessTestee } from "./testee/in-process.js";
import { spawnTestee } from "./testee/subprocess.js";
import { PACKAGE_ROOT, brokenTransportHarness, bundleTsTestee, rewriteReads, withRawFromEnvelopes } from "./test-support.js";
import { mockTransportHarness } from "./transport/mock-harness.js";
import { runTransportConformance } from "./transport/transport-suite.js";

// This file's scratch folders are made in one folder, removed after its tests, passed or failed.
const work = mkdtempSync(join(tmpdir(), "ectp-conformance-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CASES = loadCases();
/**
 * Hang guards (nothing is timed) of the tests that run the whole suite (some 200 cases, each through a
 * fresh testee; for the mutants, once per mutant). On a 2-core CI machine where turbo runs the
 * other packages' suites beside this one they take minutes.
 */
const WHOLE_SUITE_MS = 300_000;
/** A hang guard: on 2026-12-07, 211 mutants took 390-510 s in CI runs and 228 took 526-527 s; it leaves room for more of them and a slower machine. */
const EVERY_MUTANT_MS = 900_000;
const ID_RE = /^(V[12]|C(1[01]|[1-9])|P[1-8]|E[12]|I[1-6])$/;
/** The brief's requirement ids, written out here rather than taken from the loader's list, which these tests check. */
const BRIEF_IDS = ["V1", "V2", ...Array.from({ length: 11 }, (_, i) => `C${i + 1}`), ...Array.from({ length: 8 }, (_, i) => `P${i + 1}`), "E1", "E2", ...Array.from({ length: 6 }, (_, i) => `I${i + 1}`)];
const inProcess = (m: CoreModule = core as unknown as CoreModule) => () => inProcessTestee(new CoreTesteeHandler(m));

describe("cases", () => {
  it("every requirement id of the brief has a REQUIRED case, and every id cited exists", () => {
    expect(REQUIREMENT_IDS).toEqual(BRIEF_IDS); // the ids the loader accepts
    const required = new Set(CASES.filter((c) => c.spec.level === "REQUIRED").flatMap((c) => c.spec.requirements));
    expect(BRIEF_IDS.filter((id) => !required.has(id))).toEqual([]);
    for (const c of CASES) for (const r of c.spec.requirements) expect(r, c.fullName).toMatch(ID_RE);
  });

  it("every requirement id of the brief is in some case's full name (the randomised seeds' included)", () => {
    const names = [...CASES.map((c) => c.fullName), `${RANDOMISED_SUITE}/seed-1`].join(" ");
    expect(BRIEF_IDS.filter((id) => !new RegExp(`[/-]${id.toLowerCase()}-`).test(names))).toEqual([]);
  });

  it("a case must list one of the ids its suite is named with", () => {
    expect(idsOfSuite("consumer/v1-v2-versioning")).toEqual(["V1", "V2"]);
    expect(idsOfSuite("transport/mock")).toEqual([]);
    const dir = mkdtempSync(join(work, "cases-"));
    mkdirSync(join(dir, "consumer"));
    const suite = (requirements: string[]) => ({ suite: "consumer/c3-budget", cases: [{ name: "x", requirements, level: "REQUIRED", role: "consumer", steps: [] }] });
    writeFileSync(join(dir, "consumer", "c3-budget.json"), JSON.stringify(suite(["C4"])));
    expect(() => loadCases(dir)).toThrow(/case "x": its suite name carries C3, so "requirements" must list at least one of them/);
    writeFileSync(join(dir, "consumer", "c3-budget.json"), JSON.stringify(suite(["C4", "C3"])));
    expect(loadCases(dir).map((c) => c.fullName)).toEqual(["consumer/c3-budget/x"]);
  });

  it("a producer case expecting an EventBatch, snapshot or replay answer must need the events feature (TESTEE-PROTOCOL.md section 7)", () => {
    const dir = mkdtempSync(join(work, "cases-"));
    mkdirSync(join(dir, "producer"));
    const send = (body: string) => ({ expectSent: [{ send: { to: "C1", envelope: { [body]: {} } } }] });
    const suite = (steps: object[], features?: string[]) => ({
      suite: "producer/e1-events",
      cases: [{ name: "x", requirements: ["E1"], level: "REQUIRED", role: "producer", ...(features ? { features } : {}), items: { A: { size: 4 } }, steps }],
    });
    for (const body of ["eventBatch", "snapshot", "replayUnavailable"]) {
      writeFileSync(join(dir, "producer", "e1-events.json"), JSON.stringify(suite([{ put: "A" }, send(body)])));
      expect(() => loadCases(dir)).toThrow(`case "x": it expects the producer to send a ${body}, which only a testee claiming "events" does; add "events" to its "features"`);
      writeFileSync(join(dir, "producer", "e1-events.json"), JSON.stringify(suite([send(body)], ["events"])));
      expect(loadCases(dir)).toHaveLength(1);
    }
    // Expecting none, or a grant, needs no feature.
    writeFileSync(join(dir, "producer", "e1-events.json"), JSON.stringify(suite([{ expectNone: [{ send: { to: "C1", envelope: { eventBatch: { $any: true } } } }] }, send("readGrant")])));
    expect(loadCases(dir)).toHaveLength(1);
  });

  it("a case delivering raw bytes must need the raw-messages feature (TESTEE-PROTOCOL.md section 7), in its steps, a repeat or a rule", () => {
    const dir = mkdtempSync(join(work, "cases-"));
    mkdirSync(join(dir, "consumer"));
    const raw = { deliver: { from: "P1", raw: "AAEC" } };
    const suite = (c: object, features?: string[]) => ({
      suite: "consumer/c10-ignored",
      cases: [{ name: "x", requirements: ["C10"], level: "REQUIRED", role: "consumer", steps: [], ...(features ? { features } : {}), ...c }],
    });
    const said = 'case "x": it delivers raw bytes (a "deliver" step with "raw"), which only a testee claiming "raw-messages" decodes; add "raw-messages" to its "features"';
    for (const c of [
      { steps: [raw] },
      { steps: [{ repeat: { times: 2, steps: [{ after: 1, ...raw }] } }] },
      { rules: [{ on: { send: {} }, do: [raw] }] },
      { steps: [{ deliver: { from: "P1", raw: { envelope: { heartbeat: {} }, unknownFields: true } } }] },
    ]) {
      writeFileSync(join(dir, "consumer", "c10-ignored.json"), JSON.stringify(suite(c)));
      expect(() => loadCases(dir)).toThrow(said);
      writeFileSync(join(dir, "consumer", "c10-ignored.json"), JSON.stringify(suite(c, ["raw-messages"])));
      expect(loadCases(dir)).toHaveLength(1);
    }
    // An envelope delivery needs no feature.
    writeFileSync(join(dir, "consumer", "c10-ignored.json"), JSON.stringify(suite({ steps: [{ deliver: { from: "P1", envelope: { heartbeat: {} } } }] })));
    expect(loadCases(dir)).toHaveLength(1);
    // The shipped cases: every one that delivers raw bytes declares the feature (they load).
    const rawCases = loadCases().filter((c) => JSON.stringify([c.spec.steps, c.spec.rules ?? []]).includes('"raw":'));
    expect(rawCases.map((c) => c.fullName)).toContain("consumer/v1-v2-versioning/a-handshake-reject-of-another-major-whose-body-does-not-parse-still-ends-the-fetch");
    for (const c of rawCases) expect(c.spec.features, c.fullName).toContain("raw-messages");
  });

  it("background failures 1-9 each have a case that targets them", () => {
    const caught = new Set(CASES.flatMap((c) => c.spec.catches ?? []));
    for (let f = 1; f <= 9; f++) expect(caught.has(f), `failure ${f}`).toBe(true);
  });
});

describe("the suite against the TS core", () => {
  it("passes every case in-process [I1]-[I6]", async () => {
    const report = await runSuite({ testee: inProcess(), features: TS_TESTEE_FEATURES, level: "all", cases: CASES });
    const failed = report.results.filter((r) => r.status !== "passed" && r.status !== "skipped");
    expect(failed.map((r) => `${r.name}: ${r.message}`)).toEqual([]);
    // The TS testee claims every optional feature: no case is skipped.
    expect(report.results.filter((r) => r.status === "skipped").map((r) => r.name)).toEqual([]);
    // Summed by scripts/ci.mjs.
    mkdirSync(join(PACKAGE_ROOT, ".ectp-out"), { recursive: true });
    writeFileSync(
      join(PACKAGE_ROOT, ".ectp-out", "conformance-ts.ectp-report.json"),
      `${JSON.stringify({ passed: report.passed, failed: report.failed })}\n`,
    );
  }, WHOLE_SUITE_MS);

  it("passes every REQUIRED case as a subprocess in binary mode, and in JSON-lines mode", async () => {
    const command = await bundleTsTestee();
    const bin = await runSuite({ testee: () => spawnTestee({ command }), features: TS_TESTEE_FEATURES, cases: CASES });
    expect(bin.results.filter((r) => r.status === "failed").map((r) => `${r.name}: ${r.message}`)).toEqual([]);
    expect(bin.passed).toBeGreaterThan(80);
    const json = await runSuite({
      testee: () => spawnTestee({ command, jsonLines: true }),
      features: TS_TESTEE_FEATURES,
      cases: CASES,
      filter: "consumer/{c1-admission,c5-terminal}/**".replace(/\{.*\}/, "c*"),
    });
    expect(json.results.filter((r) => r.status === "failed").map((r) => `${r.name}: ${r.message}`)).toEqual([]);
    expect(json.passed).toBeGreaterThan(30);
  }, WHOLE_SUITE_MS);
});

describe("mutants (background failures planted in a copy of the core)", () => {
  it("every mutant is caught by at least one case, and the report lists the cases", async () => {
    const results = await runMutants({ cases: CASES });
    const failures = new Set(results.map((r) => r.failure));
    for (let f = 1; f <= 9; f++) expect(failures.has(f), `a mutant for failure ${f}`).toBe(true);
    for (const r of results) {
      const slow = r.timedOut.length > 0 ? `; cases that only ran past their wall-clock limit: ${r.timedOut.join(", ")}` : "";
      expect(r.caughtBy, `mutant ${r.name} survived${slow}`).not.toEqual([]);
    }
    const json = toJsonReport("ts", { results: [], passed: 0, failed: 0, skipped: 0, knownFailing: 0, ok: true }, results);
    expect(json.mutants?.find((m) => m.name.startsWith("f4-"))?.caughtBy).toContain("consumer/c3-budget/survives-retries");
    // [C2] The mutants planted in the protocol package are caught by the case for the rule each breaks.
    const caughtBy = (prefix: string) => results.find((r) => r.name.startsWith(prefix))?.caughtBy;
    expect(caughtBy("x140-")).toContain("consumer/c2-validation/an-epoch-above-2-53-minus-1-fails-request");
    expect(caughtBy("x141-")).toContain("consumer/c2-validation/content-hash-outside-1-to-64-bytes-is-invalid");
    expect(caughtBy("x142-")).toContain("consumer/c2-validation/every-known-dtype-counts-its-own-element-size");
    // [C2] ... and on a second path each: a grant's descriptor (SPEC.md 4.4 step 2), a producer's
    // lookup of a malformed key ([P7] check 6), a subscriber's view ([E1]: an invalid key is left out).
    expect(caughtBy("x140-")).toContain("consumer/c2-validation/a-grants-descriptor-of-an-epoch-above-2-53-minus-1-ends-invalid-announcement");
    expect(caughtBy("x141-")).toEqual(
      expect.arrayContaining([
        "producer/p7-checks-shutdown/a-request-whose-key-has-a-65-byte-content-hash-is-internal",
        "subscriber/e2-follow/events-and-snapshot-items-whose-content-hash-is-65-bytes-are-left-out",
      ]),
    );
    expect(caughtBy("x142-")).toContain("consumer/c2-validation/a-grants-float64-descriptor-counts-8-bytes-per-element");
    // [C10] An envelope of sender_epoch 0 taken by the protocol and by each role's own check is caught in every role.
    expect(caughtBy("x143-")).toEqual(
      expect.arrayContaining([
        "consumer/c10-ignored/sender-epoch-zero-is-malformed",
        "producer/i1-robustness/a-sender-epoch-of-zero-is-ignored",
        "subscriber/c10-ignored/a-first-message-of-sender-epoch-0-is-malformed-and-counted",
      ]),
    );
    // [C10] A decoder without SPEC.md section 5's element limit is caught in every role.
    expect(caughtBy("x190-")).toEqual(
      expect.arrayContaining([
        "consumer/c10-ignored/a-hello-over-the-repeated-element-limit-is-malformed",
        "producer/i1-robustness/message-over-repeated-element-limit-ignored",
        "subscriber/c10-ignored/a-batch-over-the-repeated-element-limit-is-malformed-and-counted",
      ]),
    );
    // [E2] A MUST whose first case was RECOMMENDED (it also checks the SHOULD-level hold bound) has a REQUIRED one.
    expect(caughtBy("x70-")).toContain("subscriber/e2-follow/batches-not-held-before-the-first-snapshot-are-brought-again-at-once");
    // [P7] An item fixture of another fingerprint shows a producer publishing what it must not.
    expect(caughtBy("x192-")).toContain("producer/p7-checks-shutdown/an-item-of-another-fingerprint-in-the-store-is-never-published-or-announced");
    // [P8] So do fixtures stored under an older epoch or another producer id (storedAs); no case caught these mutants before.
    expect(caughtBy("x195-")).toContain("producer/p8-liveness/an-item-stored-under-an-older-epoch-is-never-granted-announced-or-published");
    expect(caughtBy("x196-")).toContain("producer/p8-liveness/an-item-stored-under-another-producer-is-never-granted-announced-or-published");
    // Mutants that passed every case until the 2026-12-07 audits, each caught by the case written for its rule.
    const audited: [prefix: string, caseName: string][] = [
      // SPEC.md 4.6, one ReadComplete per grant and none under a running read, with a read shared [C7][C9].
      ["x197-", "consumer/c9-single-flight/finishing-one-waiter-of-a-shared-read-sends-no-read-complete-until-the-read-settles"],
      ["x198-", "consumer/c9-single-flight/two-requests-one-read"],
      // [C7] A late grant for an attempt a retry superseded, of the same producer epoch.
      ["x199-", "consumer/c7-release/a-late-grant-for-an-attempt-a-retry-superseded-is-released-unread"],
      // SPEC.md 4.3, staleness per consumer and key [P3]; [P8], a Heartbeat's greater epoch voids grants.
      ["x200-", "producer/p3-lease/a-lower-attempt-for-another-key-arriving-reordered-is-granted"],
      ["x201-", "producer/p8-liveness/a-heartbeat-of-a-greater-consumer-epoch-releases-the-older-epochs-grants"],
      // SPEC.md 4.2, `supported` whatever the reason [P7]: both INTERNAL refusals.
      ["x202-", "producer/p7-checks-shutdown/a-hello-of-an-unknown-role-is-refused"],
      ["x202-", "producer/p7-checks-shutdown/a-hello-of-role-unspecified-is-refused"],
      // [E2][V1] Removed and Cleared of every cause, and unknown fields, in the subscriber.
      ["x203-", "subscriber/e2-follow/removed-and-cleared-apply-whatever-their-cause"],
      ["x204-", "subscriber/e2-follow/a-snapshot-and-a-batch-with-unknown-fields-are-applied"],
      // [C11] The size check in an admission past 32 items too.
      ["x205-", "consumer/c9-single-flight/an-announcement-of-another-size-in-a-large-admission-joins-nothing"],
      // [P8] A restarted peer judged by the receiver's own interval until its new Hello, on each side.
      ["x206-", "consumer/p8-liveness/a-restarted-producer-is-judged-by-the-consumers-own-interval-until-its-new-hello"],
      ["x207-", "producer/p8-liveness/a-restarted-consumer-is-judged-by-the-producers-own-interval-until-its-new-hello"],
      // SPEC.md 4.2, a refusal bans older epochs too [V1].
      ["x208-", "consumer/v1-v2-versioning/a-refusal-bans-read-requests-to-older-epochs-too"],
      // [E2][P8] A restarted producer's new epoch starts with none of the older epoch's subscriber state:
      // its sequences seen, the answer dropped for the view bound, a ReplayUnavailable's latest, its interval.
      ["x209-", "subscriber/e2-follow/a-restarted-producers-sequences-start-anew-and-open-no-gap"],
      ["x210-", "subscriber/e2-view-bound/a-restarted-producers-snapshot-is-taken-whatever-the-older-epoch-dropped"],
      ["x211-", "subscriber/e2-follow/a-restarted-producers-snapshot-answers-whatever-latest-the-older-epoch-reported"],
      ["x212-", "subscriber/e2-follow/a-restarted-producer-is-judged-by-the-subscribers-own-interval-until-its-new-hello"],
      // [E2] A ReplayUnavailable's latest is seen: the view is behind it until a replay or a snapshot reaches it.
      ["x213-", "subscriber/e2-follow/after-a-replay-unavailable-an-older-snapshot-its-retry-takes-leaves-the-gap-to-latest-replayed"],
    ];
    for (const [prefix, caseName] of audited) expect(caughtBy(prefix), prefix).toContain(caseName);
    // SPEC.md 3.8: ids derived from the epoch pass 2^53 - 1 only at a large epoch, which this case runs.
    expect(caughtBy("x194-")).toContain("producer/e2-replay/batches-snapshots-and-replays-at-a-millisecond-epoch-stay-within-2-53");
    // [P7][P1] NOT_READY (check 6) answered after the expected size (check 7): caught by the case for
    // that order alone. A patch that named a variable out of scope made the core throw on every
    // not-ready item and failed the basic NOT_READY cases too (see mutants-names.test.ts).
    expect(caughtBy("x115-")).toEqual(["producer/p7-checks-shutdown/not-ready-answers-before-a-wrong-expected-size"]);
    // [C7] An encoder bug the structured outputs cannot show is caught by the bytes of raw-outputs.
    expect(caughtBy("x191-")).toContain("consumer/c7-release/a-grant-is-acked-exactly-once");
  }, EVERY_MUTANT_MS);

  it("a mutant whose patch no longer matches the core or the protocol fails loudly", async () => {
    await expect(buildCoreBundle([{ file: "config.ts", find: "no such text", replace: "" }], "stale")).rejects.toThrow(
      /occurs 0 times in packages\/core\/src\/config\.ts/,
    );
    await expect(buildCoreBundle([{ package: "protocol", file: "validate.ts", find: "no such text", replace: "" }], "stale")).rejects.toThrow(
      /occurs 0 times in packages\/protocol\/src\/validate\.ts/,
    );
    // A misspelt package is refused, not read as the core.
    const misspelt = { package: "protocl", file: "validate.ts", find: "x", replace: "" } as unknown as MutantPatch;
    await expect(buildCoreBundle([misspelt], "stale")).rejects.toThrow(/patch package "protocl" is not "core" or "protocol"/);
    expect(loadMutants().length).toBeGreaterThanOrEqual(9);
  });

  it("a protocol patch is bundled in place of @ectp/protocol; without one the bundle imports the shipped protocol", async () => {
    const find = "epoch must be an integer in [1, 2^53 - 1]; got";
    const patched = await buildCoreBundle([{ package: "protocol", file: "validate.ts", find, replace: "epoch (patched) must be an integer; got" }], "protocol-patch");
    const plain = await buildCoreBundle([], "no-protocol-patch");
    try {
      const text = readFileSync(patched, "utf8");
      expect(text).toContain("epoch (patched) must be an integer; got");
      expect(text).not.toContain(find);
      expect(text).not.toMatch(/from "@ectp\/protocol"/);
      const plainText = readFileSync(plain, "utf8");
      expect(plainText).toMatch(/from "@ectp\/protocol"/);
      expect(plainText).not.toContain("epoch (patched)");
    } finally {
      rmSync(dirname(patched), { recursive: true, force: true });
      rmSync(dirname(plain), { recursive: true, force: true });
    }
  });

  it("a harmless protocol patch survives every case (the patched, bundled protocol alone fails none)", async () => {
    const harmless: MutantSpec = {
      name: "harmless-protocol-patch",
      failure: 0,
      description: "rewords the epoch error message only",
      patches: [{ package: "protocol", file: "validate.ts", find: "epoch must be an integer in [1, 2^53 - 1]; got", replace: "epoch must be an integer from 1 to 2^53 - 1; got" }],
    };
    const [result] = await runMutants({ mutants: [harmless], cases: CASES });
    expect(result?.caughtBy).toEqual([]);
  }, WHOLE_SUITE_MS);
});

describe("randomised level [I1]-[I6]", () => {
  it("seeded schedules pass against the TS core", async () => {
    // Seed 27 was kept from the schedules before every seed forced a late write: there a read cancelled at
    // its deadline whose bytes came late once made the runner report an [I5] violation of the reference core.
    const results = await runRandomised({ consumer: inProcess(), producer: inProcess(), seeds: [1, 2, 3, 27], features: TS_TESTEE_FEATURES });
    expect(results.map((r) => `${r.name} ${r.status}`)).toEqual(results.map((r) => `${r.name} passed`));
    // Each seed names the faults it exercised; every seed forces a stalled read that lands after its
    // cancel (a late write), a failed and a corrupted read, and a producer restart.
    for (const r of results) {
      const counts = /^exercised: (\d+) items loaded, \d+ intact reads, (\d+) dropped, (\d+) duplicated, (\d+) reads failed, (\d+) corrupted, (\d+) stalled, (\d+) late writes, (\d+) restarts, (\d+) clock jumps$/.exec(r.message ?? "");
      expect(counts, `${r.name}: ${r.message}`).not.toBeNull();
      const count = (i: number) => Number(counts?.[i + 1]);
      expect({ loaded: count(0) >= 1, failed: count(3) >= 1, corrupted: count(4) >= 1, stalled: count(5) >= 1, lateWrites: count(6) >= 1, restarts: count(7) }, r.name).toEqual({
        loaded: true,
        failed: true,
        corrupted: true,
        stalled: true,
        lateWrites: true,
        restarts: 1,
      });
    }
  }, 60_000);

  it("a consumer that encodes locally without model input (failure 1) is caught with its seed and a replay command", async () => {
    const f1 = loadMutants().find((m) => m.failure === 1);
    const bundle = await importCoreBundle<CoreModule>(f1?.patches ?? [], "f1-random");
    const results = await runRandomised({
      consumer: inProcess(bundle),
      producer: inProcess(),
      seeds: [1, 2, 3, 4, 5, 6, 7, 8],
      features: TS_TESTEE_FEATURES,
      replayCommand: (seed) => `ectp conformance --testee X --seed ${seed}`,
    });
    const failed = results.filter((r) => r.status === "failed");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]?.message).toMatch(/^seed \d+: .*\[C1\][\s\S]*\nreplay: ectp conformance --testee X --seed \d+$/);
  }, 60_000);
});

describe("transport level", () => {
  it.each(["virtual", "real"] as const)("the mock transport (%s clock) passes every transport case", async (clock) => {
    const results = await runTransportConformance(mockTransportHarness({ seed: 1, clock }));
    const prefix = clock === "virtual" ? "transport/mock/" : "transport/mock-real-clock/";
    expect(results.map((r) => `${r.name} ${r.status} ${r.message ?? ""}`)).toEqual(results.map((r) => `${r.name} passed `));
    expect(results.map((r) => r.name.slice(prefix.length))).toEqual([
      "byte-exact-reads-at-odd-offsets",
      "reported-crc32c-is-that-of-the-landed-bytes",
      "concurrent-reads-settle-once-each",
      "read-from-gone-peer-fails",
      "cancel-settles-exactly-once",
      "deregistration-during-read-settles-failed",
      "messages-arrive-once-intact-as-copies",
      "reads-stay-within-the-destination-and-the-location",
      "messages-arrive-from-peers-not-connected",
      "malformed-location-fails-read",
      "connect-rejects-unusable-metadata",
      "wait-is-edge-triggered",
      "close-settles-unsettled-reads",
    ]);
  }, 60_000);

  it("a harness with a skip reason reports every case skipped with that reason and calls nothing", async () => {
    const fail = () => Promise.reject(new Error("must not be called"));
    const results = await runTransportConformance({ name: "x", skipReason: "build it first", createPeers: fail, advance: fail, killPeer: fail });
    expect(results).toHaveLength(13);
    expect(results.every((r) => r.status === "skipped" && r.message === "build it first" && r.name.startsWith("transport/x/"))).toBe(true);
  });

  it("a transport that breaks the contract fails the case with a reason (the suite can fail)", async () => {
    // Reports every read twice: exactly-once must catch it.
    const results = await runTransportConformance(brokenTransportHarness({ reader: rewriteReads((r) => [r, r]) }));
    const byName = new Map(results.map((r) => [r.name, r]));
    expect(byName.get("transport/broken/byte-exact-reads-at-odd-offsets")).toMatchObject({ status: "failed", message: "read of 1 bytes settled 2 times; exactly once is required" });
    expect(byName.get("transport/broken/messages-arrive-once-intact-as-copies")?.status).toBe("passed");
  }, 60_000);

  it("a transport that reports a wrong CRC-32C, or one nobody asked for, fails the crc32c case", async () => {
    const run = (change: (r: core.ReadResult) => core.ReadResult) =>
      runTransportConformance(brokenTransportHarness({ reader: rewriteReads((r) => [change(r)]) }), {
        select: (name) => name.endsWith("/reported-crc32c-is-that-of-the-landed-bytes"),
      });
    const [wrong] = await run((r) => (r.crc32c === undefined ? r : { ...r, crc32c: (r.crc32c ^ 1) >>> 0 }));
    expect(wrong).toMatchObject({ status: "failed", message: expect.stringMatching(/^read of 1 bytes reported crc32c \d+; the landed bytes' CRC-32C is \d+$/) });
    const [unasked] = await run((r) => ({ ...r, crc32c: r.crc32c ?? 0 }));
    expect(unasked).toMatchObject({ status: "failed", message: expect.stringMatching(/^read of 1 bytes reported crc32c 0 without being asked$/) });
  }, 60_000);

  it("a transport that reads past the destination, past a short location, or other bytes than a long location's first, fails the bounds case", async () => {
    // The mock fails both reads (a location of another length); each change below turns that failure
    // into what a careless transport would do.
    let source: Uint8Array = new Uint8Array(0); // the owner's registered memory (the case registers one region)
    const run = async (change: (r: core.ReadResult, d: core.ReadDestination) => core.ReadResult) => {
      const owner = (t: core.Transport) => {
        const register = t.registerMemory.bind(t);
        t.registerMemory = (bytes) => {
          source = bytes;
          return register(bytes);
        };
      };
      const reader = rewriteReads((r, dest) => [r.status === "failed" ? change(r, dest.get(r.readId) as core.ReadDestination) : r]);
      const [result] = await runTransportConformance(brokenTransportHarness({ reader, owner }), {
        select: (name) => name.endsWith("/reads-stay-within-the-destination-and-the-location"),
      });
      return result?.message;
    };
    // Copies the whole 4160-byte location: 64 bytes land past the destination.
    const copiesAll = (r: core.ReadResult, d: core.ReadDestination): core.ReadResult => {
      d.region.bytes.fill(1, d.offset, d.offset + d.length + 64);
      return { readId: r.readId, status: "done", bytesRead: d.length };
    };
    expect(await run(copiesAll)).toBe("a read of 4096 bytes from a location of 4160 wrote outside its destination");
    // Reports the long location read without its bytes.
    expect(await run((r, d) => ({ readId: r.readId, status: "done", bytesRead: d.length }))).toBe(
      "a read of 4096 bytes from a location of 4160 ended done but did not read the location's first 4096 bytes (bytesRead 4096)",
    );
    // Reads the long location's prefix correctly (allowed), then the short one as if it were whole.
    const prefix = (r: core.ReadResult, d: core.ReadDestination): core.ReadResult => {
      if (r.readId === 1) d.region.bytes.set(source.subarray(0, d.length), d.offset);
      return { readId: r.readId, status: "done", bytesRead: d.length };
    };
    expect(await run(prefix)).toBe("a read of 4096 bytes from a location of 4095 ended done (error undefined); failed with a reason is required");
    // Fails the reads but writes into the destination first.
    const writesThenFails = (r: core.ReadResult, d: core.ReadDestination): core.ReadResult => {
      d.region.bytes.fill(1, d.offset, d.offset + 1);
      return r;
    };
    expect(await run(writesThenFails)).toBe("a read of 4096 bytes from a location of 4160 failed but wrote into its destination");
  }, 60_000);

  it("a transport that drops messages from peers it is not connected to fails the not-connected case", async () => {
    const connectedOnly = (t: core.Transport) => {
      const gone = new Set<string>();
      const disconnect = t.disconnectPeer.bind(t);
      t.disconnectPeer = (peerId) => {
        gone.add(peerId);
        disconnect(peerId);
      };
      const poll = t.poll.bind(t);
      t.poll = () => {
        const a = poll();
        return { ...a, messages: a.messages.filter((m) => !gone.has(m.from)) };
      };
    };
    const [result] = await runTransportConformance(brokenTransportHarness({ owner: connectedOnly }), {
      select: (name) => name.endsWith("/messages-arrive-from-peers-not-connected"),
    });
    expect(result).toMatchObject({
      status: "failed",
      message: "a message from reader, which owner is not connected to: never happened, and the harness's advance says nothing can happen any more (the transport hung)",
    });
  }, 60_000);
});

describe("runner self-tests", () => {
  it("frames are 4-byte big-endian length prefixed (golden frame of TESTEE-PROTOCOL.md §3.3)", () => {
    const payload = TesteeRequest.encode({ commandId: 1, init: { protocolVersion: 1 } }).finish();
    expect(Buffer.from(payload).toString("hex")).toBe("080152020801");
  });

  it("globs select by case name", () => {
    expect(globMatcher("consumer/c3-*")("consumer/c3-budget/survives-retries")).toBe(true);
    expect(globMatcher("consumer/*/survives-retries")("consumer/c3-budget/survives-retries")).toBe(true);
    expect(globMatcher("producer/**")("consumer/c3-budget/survives-retries")).toBe(false);
    // "?" is one character of a segment, never the "/" between segments.
    expect(globMatcher("consumer/c?-budget/**")("consumer/c3-budget/survives-retries")).toBe(true);
    expect(globMatcher("consumer/c?-budget/**")("consumer/c33-budget/survives-retries")).toBe(false);
    expect(globMatcher("consumer?c3-budget/**")("consumer/c3-budget/survives-retries")).toBe(false);
  });

  it("globs match as the regular expression they describe, on 20,000 random globs and names of a few characters", () => {
    // The oracle: `*` as [^/]*, `**` (any run of stars) as .*, `?` as [^/], and a match of the
    // whole name or of it up to a "/". Small enough to backtrack harmlessly.
    const oracle = (glob: string) => {
      // (The globs below are made of "ab/*?", so "#" marks a run of two or more stars.)
      const body = glob
        .replace(/\*{2,}/g, "#")
        .replace(/\*/g, "[^/]*")
        .replace(/\?/g, "[^/]")
        .replace(/#/g, ".*");
      return new RegExp(`^${body}(?:/.*)?$`);
    };
    let seed = 12345;
    const pick = (alphabet: string, max: number) => {
      let out = "";
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const len = seed % (max + 1);
      for (let i = 0; i < len; i++) {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        out += alphabet[(seed >>> 8) % alphabet.length];
      }
      return out;
    };
    let matched = 0;
    for (let k = 0; k < 20_000; k++) {
      const glob = pick("ab/*?", 7);
      const name = pick("ab/", 9);
      const want = oracle(glob).test(name);
      expect(globMatcher(glob)(name), `${JSON.stringify(glob)} on ${JSON.stringify(name)}`).toBe(want);
      if (want) matched++;
    }
    expect(matched).toBeGreaterThan(1_000); // both answers exercised
  });

  it("a glob of many stars that matches nothing is answered (as a regular expression it backtracked past the test's timeout)", () => {
    expect(globMatcher(`${"**".repeat(40)}Z`)("consumer/c1-admission/remote-load-happy-path")).toBe(false);
    expect(globMatcher(`${"*a".repeat(40)}Z`)("a".repeat(200))).toBe(false);
  });

  it("JUnit output escapes messages and counts failures", () => {
    const xml = toJUnit("x", {
      results: [
        { name: "a/b/c", level: "REQUIRED", requirements: ["C1"], catches: [], status: "failed", message: "<bad> & \u0001 \uffff\ufffe \ud800 \udc00 \u{1F600}", durationMs: 1 },
      ],
      passed: 0,
      failed: 1,
      skipped: 0,
      knownFailing: 0,
      ok: false,
    });
    expect(xml).toContain('failures="1"');
    // Characters XML 1.0 forbids (C0 controls, U+FFFE, U+FFFF, lone surrogates) become "?"; a pair stays.
    expect(xml).toContain("&lt;bad&gt; &amp; ? ?? ? ? \u{1F600}");
  });
});

describe("runner self-tests: broken testees", async () => {
  const { fakeTestee } = await import("./test-support.js");
  const one = CASES.filter((c) => c.fullName === "consumer/c1-admission/local-item-is-ready");
  const two = CASES.filter((c) =>
    ["consumer/c1-admission/local-item-is-ready", "consumer/c1-admission/no-announcement-with-model-input-encodes-locally"].includes(c.fullName),
  );
  // Answers Init, then misbehaves on the first real command.
  const prelude = `
const out = (id, body) => { const p = Buffer.from(body); const f = Buffer.alloc(4 + p.length); f.writeUInt32BE(p.length, 0); p.copy(f, 4); process.stdout.write(f); };
let buf = Buffer.alloc(0); let n = 0;
process.stdin.on("data", (c) => { buf = Buffer.concat([buf, c]); while (buf.length >= 4) { const len = buf.readUInt32BE(0); if (buf.length < 4 + len) break; buf = buf.subarray(4 + len); n++;
  if (n === 1) { out(1, [0x08, 0x01, 0x5a, 0x02, 0x08, 0x01]); continue; } // InitResult{protocol_version:1}
  onCommand(n); } });
process.stdin.on("end", () => process.exit(0));
`;

  it("a crashing testee fails the case with its stderr tail, and the next case gets a fresh testee", async () => {
    const crash = fakeTestee("crash", `${prelude} function onCommand() { process.stderr.write("boom: simulated crash\\n"); process.exit(3); }`);
    const report = await runSuite({ testee: () => spawnTestee({ command: crash }), cases: two, level: "all" });
    expect(report.results.map((r) => r.status)).toEqual(["failed", "failed"]);
    expect(report.results[0]?.message).toMatch(/testee exited: exited with code 3[\s\S]*boom: simulated crash/);
  }, 30_000);

  it("a hanging testee is killed at the command timeout and reported", async () => {
    const hang = fakeTestee("hang", `${prelude} function onCommand() { process.stderr.write("stuck\\n"); }`);
    const t0 = Date.now();
    const report = await runSuite({ testee: () => spawnTestee({ command: hang, commandTimeoutMs: 300 }), cases: one, level: "all" });
    expect(report.results[0]?.message).toMatch(/testee hung: no response within 300 ms[\s\S]*stuck/);
    expect(Date.now() - t0).toBeLessThan(10_000);
  }, 30_000);

  it("a testee writing a malformed frame, or a little-endian length, is reported as malformed", async () => {
    const garbage = fakeTestee("garbage", `${prelude} function onCommand(n) { out(n, [0xff, 0xff, 0xff]); }`);
    const r1 = await runSuite({ testee: () => spawnTestee({ command: garbage }), cases: one, level: "all" });
    expect(r1.results[0]?.message).toMatch(/testee malformed/);
    const le = fakeTestee(
      "little-endian",
      `${prelude} function onCommand() { const f = Buffer.alloc(4); f.writeUInt32LE(6, 0); process.stdout.write(Buffer.concat([f, Buffer.from([8,2,82,0,0,0])])); }`,
    );
    const r2 = await runSuite({ testee: () => spawnTestee({ command: le }), cases: one, level: "all" });
    // After the good answer to Init: the bytes of the bad frame are quoted, not the start of stdout.
    expect(r2.results[0]?.message).toMatch(
      /testee malformed: unreadable output: after 1 good response, the next frame starts with .* \(bytes 06000000\): read as a big-endian length prefix it is 100663296 bytes, over the 67108864 allowed .*; read little-endian they are 6 bytes: the length prefix is big-endian \(network order\) \(while configure/,
    );
  }, 30_000);

  it("a testee writing varint-delimited frames (protobuf's delimited helpers) is told so", async () => {
    // InitResult{protocol_version: 1} answering command 1, framed with a one-byte varint length.
    const delimited = fakeTestee(
      "varint-delimited",
      `process.stdin.once("data", () => process.stdout.write(Buffer.from([6, 0x08, 0x01, 0x5a, 0x02, 0x08, 0x01]))); process.stdin.on("end", () => process.exit(0));`,
    );
    const report = await runSuite({ testee: () => spawnTestee({ command: delimited }), cases: one, level: "all" });
    expect(report.results[0]?.message ?? "").toMatch(/looks like a varint length prefix \(protobuf's delimited helpers/);
  }, 30_000);

  it("known-failing: a listed failing case does not fail the run; a listed passing case does", async () => {
    const crash = fakeTestee("crash2", `${prelude} function onCommand() { process.exit(1); }`);
    const known = new Map([["consumer/c1-admission/local-item-is-ready", "testee not finished"]]);
    const failing = await runSuite({ testee: () => spawnTestee({ command: crash }), cases: one, knownFailing: known, level: "all" });
    expect(failing.ok).toBe(true);
    expect(failing.results[0]?.status).toBe("known-failing");
    const passing = await runSuite({ testee: inProcess(), cases: one, knownFailing: known, level: "all" });
    expect(passing.ok).toBe(false);
    expect(passing.results[0]?.status).toBe("unexpected-pass");
  }, 30_000);
});

describe("runner self-tests: broken in-process testees", () => {
  type Answer = (req: ectp.conformance.v1.TesteeRequest) => ectp.conformance.v1.ITesteeResponse;
  /** An in-process testee answering Init properly, then with `answer`; `asked` counts the commands after Init that reached it. */
  const testee = async (answer: Answer) => {
    const seen = { asked: 0 };
    const conn = await inProcessTestee({
      handle: (req) => {
        if (req.init) return { commandId: req.commandId, init: { protocolVersion: 1 } };
        seen.asked++;
        return answer(req);
      },
    });
    return { conn, seen };
  };

  it("a handler that throws is a crashed testee: the request fails with what it threw, and later ones without reaching it", async () => {
    const { conn, seen } = await testee(() => {
      throw new Error("boom in the handler");
    });
    const first = await conn.request({ poll: {} }).catch((e: unknown) => e);
    expect(first).toMatchObject({ name: "TesteeFault", kind: "exited", message: expect.stringContaining("handler threw: Error: boom in the handler") });
    expect(conn.alive).toBe(false);
    await expect(conn.request({ poll: {} })).rejects.toBe(first);
    expect(seen.asked).toBe(1);
  });

  it("a response that does not encode, or echoes another command_id, is malformed and ends the connection", async () => {
    const bad = await testee((req) => ({ commandId: req.commandId, ok: "yes" as unknown as ectp.conformance.v1.IOk }));
    await expect(bad.conn.request({ poll: {} })).rejects.toMatchObject({ kind: "malformed", message: expect.stringMatching(/handler returned an unencodable response: .*ok/) });
    expect(bad.conn.alive).toBe(false);
    const echo = await testee((req) => ({ commandId: Number(req.commandId) + 5, ok: {} }));
    await expect(echo.conn.request({ poll: {} })).rejects.toMatchObject({ kind: "malformed", message: "testee malformed: response echoes command_id 7; expected 2" });
    await expect(echo.conn.request({ poll: {} })).rejects.toMatchObject({ kind: "malformed" });
    expect(echo.seen.asked).toBe(1);
  });

  it("an Init answered without InitResult, or with another protocol version, does not start the testee", async () => {
    await expect(inProcessTestee({ handle: (req) => ({ commandId: req.commandId, ok: {} }) })).rejects.toMatchObject({
      kind: "malformed",
      message: "testee malformed: in-process testee did not answer Init with InitResult",
    });
    await expect(inProcessTestee({ handle: (req) => ({ commandId: req.commandId, init: { protocolVersion: 2 } }) })).rejects.toMatchObject({
      kind: "malformed",
      message: expect.stringContaining("answered Init with protocol_version 2; it MUST be 1"),
    });
  });
});

describe("runner self-tests: testees that break the process contract", async () => {
  const { fakeTestee } = await import("./test-support.js");
  const one = CASES.filter((c) => c.fullName === "consumer/c1-admission/local-item-is-ready");
  const testee = await bundleTsTestee();
  const scratch = mkdtempSync(join(work, "proxy-"));
  /**
   * The TS testee behind a proxy (binary frames) that answers command DUP twice, command DUP_LATE
   * again 5 ms later, command DUP_NEXT again as the next request comes in, and with DUP_AT_EOF its
   * last answer again on EOF; with STUBBORN set it ignores EOF and SIGTERM. It writes its pid to
   * PID_FILE and the number of responses it forwarded to COUNT_FILE.
   */
  const proxy = fakeTestee(
    "proxy",
    `import { spawn } from "node:child_process"; import { writeFileSync } from "node:fs";
const env = process.env; const dup = Number(env.DUP ?? 0); const late = Number(env.DUP_LATE ?? 0);
const dupNext = Number(env.DUP_NEXT ?? 0); let held; let lastFrame;
writeFileSync(env.PID_FILE, String(process.pid));
const child = spawn("sh", ["-c", ${JSON.stringify(testee)}], { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(child.stdin);
let buf = Buffer.alloc(0); let n = 0;
child.stdout.on("data", (c) => { buf = Buffer.concat([buf, c]); while (buf.length >= 4) { const len = buf.readUInt32BE(0); if (buf.length < 4 + len) break;
  const frame = buf.subarray(0, 4 + len); buf = buf.subarray(4 + len); n++; writeFileSync(env.COUNT_FILE, String(n));
  process.stdout.write(n === dup ? Buffer.concat([frame, frame]) : frame);
  if (n === late) { const again = Buffer.from(frame); setTimeout(() => process.stdout.write(again), 5); }
  if (n === dupNext) held = Buffer.from(frame); lastFrame = Buffer.from(frame); } });
process.stdin.on("data", () => { if (held) { process.stdout.write(held); held = undefined; } });
process.stdin.on("end", () => { if (env.DUP_AT_EOF && lastFrame) process.stdout.write(lastFrame); });
if (env.STUBBORN) { process.on("SIGTERM", () => {}); process.stdin.on("end", () => setInterval(() => {}, 1000)); }
else child.on("exit", () => process.exit(0));`,
  );
  const run = (env: Record<string, string>) =>
    runSuite({
      testee: () => spawnTestee({ command: proxy, env: { PID_FILE: join(scratch, "pid"), COUNT_FILE: join(scratch, "count"), ...env } }),
      cases: one,
      level: "all",
    });

  it("a command answered twice fails the case it belongs to, saying so, even when it is the case's last", async () => {
    const clean = await run({});
    expect(clean.results[0]?.status).toBe("passed");
    const last = Number(readFileSync(join(scratch, "count"), "utf8"));
    for (const dup of [3, last]) {
      const report = await run({ DUP: String(dup) });
      expect(report.results[0]).toMatchObject({
        status: "failed",
        message: expect.stringContaining(`a response arrived with no request outstanding (after the response to command ${dup}): a command answered twice`),
      });
      expect(report.results[0]?.message).not.toContain("; and: "); // said once, not again at close
    }
  }, 60_000);

  it("a command answered twice, the second time late (after the next request went out), is reported as answered twice, or as answered already", async () => {
    const two = CASES.filter((c) =>
      ["consumer/c1-admission/local-item-is-ready", "consumer/c1-admission/no-announcement-with-model-input-encodes-locally"].includes(c.fullName),
    );
    const report = await runSuite({
      testee: () =>
        // Command 2 (the first Configure) is answered again 5 ms later, amid later commands.
        spawnTestee({ command: proxy, env: { PID_FILE: join(scratch, "pid"), COUNT_FILE: join(scratch, "count"), DUP_LATE: "2" } }),
      cases: two,
      level: "all",
    });
    // Where it lands depends on when it arrives: amid output, or where a later command's answer was due.
    const failed = report.results.filter((r) => r.status === "failed");
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed[0]?.message).toMatch(/: a command answered twice|response echoes command_id 2, a command answered already \(a second answer to it, or a stale id\)/);
  }, 60_000);

  it("a second answer to a case's last command fails that case, also when read as the next case began or at close (TESTEE-PROTOCOL.md §2)", async () => {
    const two = CASES.filter((c) =>
      ["consumer/c1-admission/local-item-is-ready", "consumer/c1-admission/no-announcement-with-model-input-encodes-locally"].includes(c.fullName),
    );
    const env = (more: Record<string, string>) => ({ PID_FILE: join(scratch, "pid"), COUNT_FILE: join(scratch, "count"), ...more });
    await run({});
    const last = Number(readFileSync(join(scratch, "count"), "utf8")); // the first case's last command
    const reported: string[] = [];
    const next = await runSuite({
      testee: () => spawnTestee({ command: proxy, env: env({ DUP_NEXT: String(last) }) }),
      cases: two,
      level: "all",
      onResult: (r) => reported.push(`${r.name} ${r.status}`),
    });
    expect(next.results.map((r) => r.status)).toEqual(["failed", "passed"]); // the second case ran again on a fresh testee
    expect(next.results[0]?.message).toContain(`response echoes command_id ${last}, a command answered already (a second answer to it, or a stale id)`);
    expect(next.results[0]?.message).toContain("(read after this case's last answer, once the next case had begun)");
    expect(reported).toEqual(next.results.map((r) => `${r.name} ${r.status}`));
    const atEof = await run({ DUP_AT_EOF: "1" });
    expect(atEof.results[0]).toMatchObject({ status: "failed", message: expect.stringContaining(`output after the response to command ${last}, its last answer, read as the runner closed it`) });
  }, 60_000);

  it("a testee that ignores EOF and SIGTERM is killed with its process group at close, and the run ends", async () => {
    const t0 = Date.now();
    const report = await run({ STUBBORN: "1" });
    expect(report.results[0]?.status).toBe("passed");
    const pid = Number(readFileSync(join(scratch, "pid"), "utf8"));
    // Gone (SIGKILL takes effect at once, give it a moment): no such process, or a zombie (an
    // orphan whose new parent has not reaped it).
    const state = () => {
      try {
        return /State:\s+(\S)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      } catch {
        return undefined;
      }
    };
    for (let i = 0; i < 100 && state() !== undefined && state() !== "Z"; i++) await new Promise((r) => setTimeout(r, 10));
    expect(state() ?? "gone").toMatch(/^(gone|Z)$/);
    expect(Date.now() - t0).toBeLessThan(20_000);
  }, 60_000);

  it("a testee that ignores EOF and SIGTERM is reported through onExitRuleBroken (its case still passes); one that exits on EOF is not", async () => {
    const told: string[] = [];
    const runTold = (env: Record<string, string>) =>
      runSuite({
        testee: () =>
          spawnTestee({
            command: proxy,
            env: { PID_FILE: join(scratch, "pid"), COUNT_FILE: join(scratch, "count"), ...env },
            onExitRuleBroken: (what) => told.push(what),
          }),
        cases: one,
        level: "all",
      });
    expect((await runTold({})).results[0]?.status).toBe("passed");
    expect(told).toEqual([]);
    expect((await runTold({ STUBBORN: "1" })).results[0]?.status).toBe("passed");
    expect(told).toEqual(["it was still running 1000 ms after EOF on its stdin and 1000 ms after SIGTERM, and was killed"]);
  }, 60_000);

  it("a good frame and then bad bytes in one write: the message counts the good one and quotes the bad bytes", async () => {
    const chatty = fakeTestee(
      "init-then-log",
      `process.stdin.once("data", () => process.stdout.write(Buffer.concat([Buffer.from([0, 0, 0, 6, 8, 1, 0x5a, 2, 8, 1]), Buffer.from("log: started\\n")])));
process.stdin.on("end", () => process.exit(0));`,
    );
    await expect(spawnTestee({ command: chatty })).rejects.toThrow(/after 1 good response, the next frame starts with "log:" \(bytes 6c6f673a\)/);
  }, 30_000);

  it("close() does not wait on a zombie: a helper the testee left behind that has exited (unreaped by its new parent)", async (ctx) => {
    const pidFile = join(scratch, "helper-pid");
    const leaves = fakeTestee(
      "leaves-a-helper",
      `import { spawn } from "node:child_process"; import { writeFileSync } from "node:fs";
process.stdin.once("data", () => { const h = spawn("sleep", ["0.2"], { stdio: "ignore" }); h.unref(); writeFileSync(${JSON.stringify(pidFile)}, String(h.pid)); process.stdout.write(Buffer.from([0, 0, 0, 6, 8, 1, 0x5a, 2, 8, 1])); });
process.stdin.on("end", () => process.exit(0));`,
    );
    const conn = await spawnTestee({ command: leaves });
    const t0 = performance.now();
    await conn.close(); // EOF: the testee exits; the helper lives 0.2 s more, then is a zombie at most
    const elapsed = performance.now() - t0;
    const helper = Number(readFileSync(pidFile, "utf8"));
    const state = (() => {
      try {
        return /State:\s+(\S)/.exec(readFileSync(`/proc/${helper}/status`, "utf8"))?.[1];
      } catch {
        return undefined;
      }
    })();
    // Where the helper's new parent reaps it (an init that reaps orphans) there is no zombie to wait on.
    if (state !== "Z") ctx.skip("the helper was reaped by its new parent on this host: no zombie to wait on");
    expect(elapsed).toBeLessThan(900); // not the 1 s EOF grace, SIGTERM and 1 s more
  }, 30_000);

  it("JSON lines: a character split over two writes arrives whole", async () => {
    const split = fakeTestee(
      "utf8-split",
      `const line = Buffer.from('{"commandId":"1","init":{"protocolVersion":1,"features":["café"]}}\\n');
const cut = line.indexOf(0xc3) + 1; // inside "é"
process.stdin.once("data", () => { process.stdout.write(line.subarray(0, cut)); setTimeout(() => process.stdout.write(line.subarray(cut)), 50); });
process.stdin.on("end", () => process.exit(0));`,
    );
    const conn = await spawnTestee({ command: split, jsonLines: true });
    expect(conn.initResult?.features).toEqual(["café"]);
    await conn.close();
  }, 30_000);
});

describe("runner self-tests: the testee contract", () => {
  type Res = ectp.conformance.v1.ITesteeResponse;
  /** The TS reference testee with its answers changed by `change`. */
  const altered = (change: (res: Res, req: ectp.conformance.v1.TesteeRequest) => Res) => () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    return inProcessTestee({ handle: (req) => withRawFromEnvelopes(change(h.handle(req), req)) });
  };
  const byName = (...names: string[]) => CASES.filter((c) => names.includes(c.fullName));
  const EVICT = "producer/p6-evict/evict-command-refuses-pinned";

  it("Unsupported for a feature the features file claims fails the case; for an unclaimed one it skips", async () => {
    // A testee without the optional feature answers Evict with Unsupported{feature: "evict"}.
    const noEvict = altered((res, req) => (req.evict ? { commandId: res.commandId, unsupported: { feature: "evict" } } : res));
    const claimed = await runSuite({ testee: noEvict, features: TS_TESTEE_FEATURES, cases: byName(EVICT), level: "all" });
    expect(claimed.results[0]).toMatchObject({
      status: "failed",
      message: expect.stringMatching(/^evict at t=\d+ was answered Unsupported\{feature: "evict"\}, but the features file claims "evict"/),
    });
    const withoutEvict = TS_TESTEE_FEATURES.filter((f) => f !== "evict");
    const unclaimed = await runSuite({ testee: noEvict, features: withoutEvict, cases: byName(EVICT), level: "all" });
    expect(unclaimed.results[0]).toMatchObject({ status: "skipped", message: 'needs optional feature "evict"' });
  });

  it("a command answered with anything but its success result (Ok for most) fails the case naming both", async () => {
    const report = await runSuite({
      testee: altered((res, req) => (req.configure ? { commandId: res.commandId } : req.admit ? { commandId: res.commandId, ok: {} } : res)),
      features: TS_TESTEE_FEATURES,
      cases: byName("consumer/c1-admission/local-item-is-ready"),
      level: "all",
    });
    expect(report.results[0]?.message).toMatch(
      /^configure at t=0 was answered with no result \(an empty response, or a result field this runner does not know\); expected ok/,
    );
    const admit = await runSuite({
      testee: altered((res, req) => (req.admit ? { commandId: res.commandId, ok: {} } : res)),
      features: TS_TESTEE_FEATURES,
      cases: byName("consumer/c1-admission/local-item-is-ready"),
      level: "all",
    });
    expect(admit.results[0]?.message).toMatch(/^admit at t=\d+ was answered with \{"ok":\{\}\}; expected admit/);
  });

  it("a case past its wall-clock limit fails saying why (a testee whose deadline keeps moving by 1 ms)", async () => {
    const report = await runSuite({
      testee: altered((res, req) => (res.poll ? { ...res, poll: { ...res.poll, nextDeadlineMs: Number(req.nowMs) + 1 } } : res)),
      features: TS_TESTEE_FEATURES,
      cases: byName("consumer/c3-budget/survives-retries"),
      level: "all",
      caseTimeoutMs: 300,
    });
    expect(report.results[0]?.message).toMatch(/^the case ran past its 300 ms of wall-clock time after \d+ commands, at t=\d+ of virtual time/);
    // Within the limit the runner cannot tell this testee from a slow one (one whose deadline is at or
    // before now_ms it names: runner-semantics.test.ts), so the result is marked timedOut.
    expect(report.results[0]?.timedOut).toBe(true);
  });

  it("a case past its wall-clock limit with no cause named (a slow testee) fails marked timedOut; a listed one is known-failing without it", async () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    // Every answer comes at least 10 ms late: the case passes its 50 ms within a few commands.
    const later = (req: ectp.conformance.v1.TesteeRequest) => new Promise<Res>((resolve) => setTimeout(() => resolve(h.handle(req)), 10));
    const slow = () => inProcessTestee({ handle: later });
    const cases = byName("consumer/c3-budget/survives-retries");
    const report = await runSuite({ testee: slow, features: TS_TESTEE_FEATURES, cases, level: "all", caseTimeoutMs: 50 });
    expect(report.results[0]).toMatchObject({ status: "failed", timedOut: true, message: expect.stringContaining("a very slow testee") });
    const listed = await runSuite({
      testee: slow,
      features: TS_TESTEE_FEATURES,
      cases,
      level: "all",
      caseTimeoutMs: 50,
      knownFailing: new Map([["consumer/c3-budget/survives-retries", "slow here"]]),
    });
    expect(listed.results[0]?.status).toBe("known-failing");
    expect(listed.results[0]?.timedOut).toBeUndefined();
  });

  it("Unsupported naming no feature counts as the command's own feature (the role for Admit): the case fails", async () => {
    const report = await runSuite({
      testee: altered((res, req) => (req.admit ? { commandId: res.commandId, unsupported: {} } : res)),
      features: TS_TESTEE_FEATURES,
      cases: byName("consumer/c1-admission/local-item-is-ready"),
      level: "all",
    });
    expect(report.results[0]).toMatchObject({ status: "failed", message: expect.stringContaining('the features file claims "consumer"') });
  });

  it("subscriber steps: expectOrder fails outputs out of order, expectView a wrong item set or descriptor; bad options are case bugs; a core without EventSubscriber answers the role Unsupported", async () => {
    const [base] = byName("subscriber/e2-follow/snapshot-then-batches-in-order");
    const withSteps = (steps: Record<string, unknown>[]) => {
      const c = structuredClone(base) as NonNullable<typeof base>;
      c.spec.steps = steps as typeof c.spec.steps;
      return c;
    };
    const run = async (steps: Record<string, unknown>[], testee = inProcess()) =>
      (await runSuite({ testee, features: TS_TESTEE_FEATURES, cases: [withSteps(steps)], level: "all" })).results[0];
    const snapshot = { deliver: { from: "P1", envelope: { snapshot: { sequence: "1", snapshotId: "1", items: [{ $descriptor: "A" }] } } } };
    const toP1 = { send: { to: "P1" } };
    // The testee sends a Hello, then a SnapshotRequest: the reverse order fails.
    const reversed = { expectOrder: { among: toP1, first: [{ send: { to: "P1", envelope: { snapshotRequest: { $any: true } } } }] } };
    expect((await run([{ follow: "P1" }, reversed]))?.message).toMatch(
      /^outputs out of order at t=0: output 1 among .* should match .*snapshotRequest.*; it is .*hello.* \(output 2 does\)/,
    );
    // The right kind in the right place with one field wrong is not called an order problem.
    const wrongRole = { expectOrder: { among: toP1, first: [{ send: { to: "P1", envelope: { hello: { role: "ROLE_PRODUCER" } } } }] } };
    expect((await run([{ follow: "P1" }, wrongRole]))?.message).toMatch(
      /^outputs not as expected at t=0: output 1 among .* should match .*ROLE_PRODUCER.*; it is .*hello.* \(no output matches it\)/,
    );
    expect((await run([{ follow: "P1" }, snapshot, { expectView: { items: ["A", "B"] } }]))?.message).toContain("[E2] view of P1 at t=0: items: 1, expected 2; missing [B]; unexpected []");
    expect((await run([{ follow: "P1" }, snapshot, { expectView: { items: [{ item: "A", with: { location: "b3RoZXI=" } }] } }]))?.message).toMatch(
      /\[E2\] view of P1 at t=0: item A is .*, expected .*"location":"b3RoZXI="/,
    );
    expect((await run([{ follow: "P1" }, { expectView: { items: [], synced: true } }]))?.message).toContain("synced is false, expected true");
    expect((await run([{ follow: "P1" }, snapshot, { expectView: { items: ["A"] } }]))?.status).toBe("passed");
    for (const [step, bug] of [
      [{ expectOrder: { among: toP1 } }, "expectOrder needs {among: matcher or [matchers], first: [matchers]}"],
      [{ expectView: { items: "A" } }, "expectView.items must be a list of item names or {item, with}"],
      [{ expectView: { items: [], synced: "yes" } }, "expectView.synced must be a boolean"],
      [{ follow: { connection: {} } }, "follow needs a producer id, or {producer, connection}"],
    ] as const)
      expect((await run([{ follow: "P1" }, step]))?.message).toContain(`case bug (fix the case file): ${bug}`);
    const withoutSubscriber = () => inProcessTestee(new CoreTesteeHandler({ ...(core as unknown as CoreModule), EventSubscriber: undefined }));
    expect(await run([{ follow: "P1" }], withoutSubscriber)).toMatchObject({
      status: "failed",
      message: expect.stringContaining('answered Unsupported{feature: "subscriber"}, but the features file claims "subscriber"'),
    });
  });

  it("repeat runs its steps `times` times with a counting variable; expectView takes a family's name; quiescence unfollows and checks the subscriber holds nothing", async () => {
    const [base] = byName("subscriber/e2-follow/snapshot-then-batches-in-order");
    const withSteps = (steps: Record<string, unknown>[]) => {
      const c = structuredClone(base) as NonNullable<typeof base>;
      c.spec.items = { F: { count: 3, size: 64 } };
      c.spec.steps = steps as typeof c.spec.steps;
      return c;
    };
    const run = async (steps: Record<string, unknown>[], testee = inProcess()) =>
      (await runSuite({ testee, features: TS_TESTEE_FEATURES, cases: [withSteps(steps)], level: "all" })).results[0];
    const batches = (times: unknown, as?: string) => ({
      repeat: {
        times,
        ...(as === undefined ? {} : { as }),
        steps: [
          {
            deliver: {
              from: "P1",
              envelope: { eventBatch: { sequence: { $expr: `${as ?? "i"} + 1` }, events: [{ stored: { item: { $descriptor: `F.\${${as ?? "i"}}` } } }] } },
            },
          },
        ],
      },
    });
    const start = [{ follow: "P1" }, { deliver: { from: "P1", envelope: { snapshot: { sequence: "0", snapshotId: "1", items: [] } } } }];
    expect((await run([...start, batches(3), { expectView: { items: ["F"] } }]))?.status).toBe("passed");
    expect((await run([...start, batches({ $expr: "1 + 2" }, "k"), { expectView: { items: ["F"] } }]))?.status).toBe("passed");
    expect((await run([...start, batches(2), { expectView: { items: ["F"] } }]))?.message).toContain("items: 2, expected 3; missing [F.2]; unexpected []");
    for (const [step, bug] of [
      [batches(-1), "repeat.times must be an integer in [0, 100000]"],
      [batches(100_001), "repeat.times must be an integer in [0, 100000]"],
      [batches("3"), "repeat.times must be an integer in [0, 100000]"],
      [batches(1, "1x"), "repeat.as must be a variable name"],
      [{ repeat: { times: 1, steps: [] } }, "repeat.steps must be a non-empty list of steps"],
    ] as const)
      expect((await run([...start, step]))?.message).toContain(`case bug (fix the case file): ${bug}`);
    // A subscriber that keeps a producer (or its held batches) after unfollow fails at quiescence.
    const subscriberWith = (patch: (s: core.EventSubscriber) => void) => {
      class Leaky extends core.EventSubscriber {
        constructor(...args: ConstructorParameters<typeof core.EventSubscriber>) {
          super(...args);
          patch(this);
        }
      }
      return () => inProcessTestee(new CoreTesteeHandler({ ...(core as unknown as CoreModule), EventSubscriber: Leaky }));
    };
    const keepsFollowing = subscriberWith((s) => {
      s.unfollow = () => {};
    });
    expect((await run(start, keepsFollowing))?.message).toContain("[I4][E2] after every producer was unfollowed, the subscriber still holds producers=1");
    const leaksHeld = subscriberWith((s) => {
      const stats = s.stats.bind(s);
      s.stats = () => ({ ...stats(), heldBatches: 1 });
    });
    expect((await run(start, leaksHeld))?.message).toContain("the subscriber still holds heldBatches=1");
  });

  it("$repeat builds a list of `times` copies; a `times` that is not a whole number is a case bug", async () => {
    const [base] = byName("producer/i1-robustness/message-over-repeated-element-limit-ignored");
    const withTimes = (times: unknown) => {
      const c = structuredClone(base) as NonNullable<typeof base>;
      const deliver = (c.spec.steps[0] as { deliver: { raw: { envelope: { hello: { capabilities: { times: unknown } } } } } }).deliver;
      deliver.raw.envelope.hello.capabilities.times = times;
      return c;
    };
    const run = (times: unknown) =>
      runSuite({ testee: inProcess(), features: [...TS_TESTEE_FEATURES, "raw-messages"], cases: [withTimes(times)], level: "all" });
    expect((await run("65537")).results[0]?.status).toBe("passed"); // a decimal string is a count
    expect((await run(3)).results[0]?.message).toMatch(/expected output not seen|unexpected output/); // 3 is within the limit: answered
    for (const bad of [true, "1e1", -1, 1.5])
      expect((await run(bad)).results[0]?.message).toContain('case bug (fix the case file): $repeat needs "times"');
    const template = "$" + "{n}"; // a case template naming a variable nobody set
    expect((await run(template)).results[0]?.message).toMatch(/^case bug \(fix the case file\): .*\bn\b/);
  });

  it("an item family (`count`) puts every member; expectSnapshot waits `within` for paced parts and fails a part over maxElements, a missing or repeated part, an item outside the family or not as put, an id of 0; bad options are case bugs", async () => {
    const [base] = byName("producer/e2-replay/snapshot-over-element-limit-sent-in-parts");
    type Spec = NonNullable<typeof base>["spec"];
    const variant = (change: (spec: Spec) => void) => {
      const c = structuredClone(base) as NonNullable<typeof base>;
      change(c.spec);
      return c;
    };
    const expectStep = (spec: Spec) => (spec.steps[3] as { expectSnapshot: Record<string, unknown> }).expectSnapshot;
    const run = (c: NonNullable<typeof base>, testee = inProcess()) =>
      runSuite({ testee, features: [...TS_TESTEE_FEATURES, "events"], cases: [c], level: "all" }).then((r) => r.results[0]);
    expect((await run(variant(() => {})))?.status).toBe("passed");
    // The reference producer cuts greedily: 1,008 items (65,520 elements), then 1.
    expect((await run(variant((s) => Object.assign(expectStep(s), { maxElements: 65_519 }))))?.message).toContain(
      "part 0 holds 65520 repeated elements (items plus shape dimensions), over 65519",
    );
    // Another family than the one put: its members are missing, and F's are outside it.
    const other = variant((s) => {
      (s.items as Record<string, unknown>).G = { size: 4, count: 2 };
      expectStep(s).items = "G";
    });
    expect((await run(other))?.message).toMatch(/holds an item that is not one of G/);
    // A testee that never sends part 1.
    const dropPart1 = altered((res) => {
      const outputs = res.poll?.outputs;
      if (outputs) res.poll = { ...res.poll, outputs: outputs.filter((o) => !(o.send?.envelope?.snapshot?.part === 1)) };
      return res;
    });
    expect((await run(variant(() => {}), dropPart1))?.message).toMatch(/1 of 2 parts sent/);
    // A testee that sends part 0 twice.
    const repeatPart0 = altered((res) => {
      const outputs = res.poll?.outputs;
      if (outputs) res.poll = { ...res.poll, outputs: outputs.flatMap((o) => (o.send?.envelope?.snapshot && !o.send.envelope.snapshot.part ? [o, o] : [o])) };
      return res;
    });
    expect((await run(variant(() => {}), repeatPart0))?.message).toMatch(/part 0 of 2 is out of range or sent twice/);
    // Parts paced over polls: part 1 comes one poll later. Passes within the step's window only.
    const pacePart1 = () => {
      let held: ectp.conformance.v1.IOutput[] = [];
      return altered((res) => {
        const outputs = res.poll?.outputs;
        if (!outputs) return res;
        const late = held;
        held = outputs.filter((o) => o.send?.envelope?.snapshot?.part === 1);
        res.poll = { ...res.poll, outputs: [...late, ...outputs.filter((o) => !held.includes(o))] };
        return res;
      });
    };
    expect((await run(variant(() => {}), pacePart1()))?.status).toBe("passed");
    expect((await run(variant((s) => Object.assign(expectStep(s), { within: 0 })), pacePart1()))?.message).toMatch(/1 of 2 parts sent/);
    // A testee that sends the items without their shapes (so one whole message fits), or an id of 0.
    const reshape = (change: (snapshot: ectp.v1.ISnapshot) => void) =>
      altered((res) => {
        for (const o of res.poll?.outputs ?? []) if (o.send?.envelope?.snapshot) change(o.send.envelope.snapshot);
        return res;
      });
    const noShapes = reshape((snap) => {
      for (const d of snap.items ?? []) d.shape = [];
    });
    expect((await run(variant(() => {}), noShapes))?.message).toMatch(/the descriptor of F\.\d+ is not the one put/);
    const idZero = reshape((snap) => {
      snap.snapshotId = 0;
    });
    expect((await run(variant(() => {}), idZero))?.message).toMatch(/snapshot_id is 0/);
    const otherSequence = reshape((snap) => {
      if (snap.part === 1) snap.sequence = Number(snap.sequence) + 1;
    });
    expect((await run(variant(() => {}), otherSequence))?.message).toMatch(/disagree on parts or sequence/);
    const dropLastItem = reshape((snap) => {
      if (snap.part === 1) snap.items = snap.items?.slice(0, -1);
    });
    expect((await run(variant(() => {}), dropLastItem))?.message).toMatch(/1 of 1009 items are missing or sent more than once, e\.g\. F\.\d+/);
    for (const [key, value] of [["maxElements", 0], ["maxElements", "many"], ["within", -1]] as const)
      expect((await run(variant((s) => Object.assign(expectStep(s), { [key]: value }))))?.message).toContain(`case bug (fix the case file): expectSnapshot.${key} must be an integer`);
    const clash = variant((s) => {
      (s.items as Record<string, unknown>)["F.0"] = { size: 4 };
    });
    expect((await run(clash))?.message).toContain("case bug (fix the case file): item family F: member F.0 collides with another item fixture");
    const sameHash = variant((s) => {
      (s.items as Record<string, unknown>).X = { size: 4, hash: "item-F.3" };
    });
    expect((await run(sameHash))?.message).toMatch(/case bug \(fix the case file\): items .* have the same content hash/);
    for (const count of [0, 1.5, 65_537, "3"]) {
      const bad = variant((s) => {
        Object.assign((s.items as Record<string, object>).F ?? {}, { count });
      });
      expect((await run(bad))?.message).toContain("case bug (fix the case file): item F: count must be an integer in [1, 65536]");
    }
  }, 60_000);

  it("raw.repeatBody writes the body field twice; without a body, or with unknownFields, it is a case bug", async () => {
    const [base] = byName("producer/i1-robustness/message-with-a-repeated-body-ignored");
    const withRaw = (raw: Record<string, unknown>) => {
      const c = structuredClone(base) as NonNullable<typeof base>;
      (c.spec.steps[0] as { deliver: { raw: Record<string, unknown> } }).deliver.raw = raw;
      return c;
    };
    const run = async (raw: Record<string, unknown>) =>
      (await runSuite({ testee: inProcess(), features: [...TS_TESTEE_FEATURES, "raw-messages"], cases: [withRaw(raw)], level: "all" })).results[0];
    const hello = { hello: { role: "ROLE_CONSUMER" } };
    expect((await run({ envelope: hello, repeatBody: true }))?.status).toBe("passed");
    // The same Hello once is answered, so the case's expectNone for C9 fails: the repeat is what is refused.
    expect((await run({ envelope: hello }))?.message).toMatch(/unexpected output/);
    for (const raw of [{ envelope: {}, repeatBody: true }, { envelope: hello, repeatBody: true, unknownFields: true }])
      expect((await run(raw))?.message).toContain("case bug (fix the case file): raw.repeatBody needs an envelope with a body");
  });

  it("a stalled step reaches the testee before the timers due by its time; stalled without a time, or not true, is a case bug", async () => {
    const [base] = byName("consumer/c3-budget/enforced-at-admission-before-any-poll");
    const withStall = (edit: (step: Record<string, unknown>) => void) => {
      const c = structuredClone(base) as NonNullable<typeof base>;
      edit(c.spec.steps.find((s) => s.stalled === true) as Record<string, unknown>);
      return c;
    };
    const run = async (c: NonNullable<typeof base>) => (await runSuite({ testee: inProcess(), features: TS_TESTEE_FEATURES, cases: [c], level: "all" })).results[0];
    expect((await run(withStall(() => {})))?.status).toBe("passed");
    for (const edit of [(s: Record<string, unknown>) => { s.stalled = "yes"; }, (s: Record<string, unknown>) => { delete s.at; }])
      expect((await run(withStall(edit)))?.message).toContain("case bug (fix the case file): stalled must be true and needs a step time (at or after)");
  });

  it("InitResult.features differing from the features file gives warning lines, not failures", async () => {
    const warnings: string[] = [];
    // The TS testee without `evict` in its InitResult.
    const listsNoEvict = altered((res) => {
      if (res.init) res.init.features = (res.init.features ?? []).filter((f) => f !== "evict");
      return res;
    });
    const report = await runSuite({
      testee: listsNoEvict,
      features: ["consumer", "producer", "evict"],
      cases: byName("consumer/c1-admission/local-item-is-ready"),
      onWarning: (w) => warnings.push(w),
    });
    expect(report.ok).toBe(true);
    expect(warnings).toEqual([
      "the testee's InitResult lists features the features file does not claim: raw-messages, untrusted-json, read-memory, events, subscriber, subscriber-view-bound, warm-start, stream-framing, raw-outputs (the runner follows the features file: cases needing them are skipped)",
      "the features file claims features the testee's InitResult does not list: evict (the runner follows the features file: an Unsupported answer for them fails the case)",
    ]);
    expect(featureWarnings(new Set(TS_TESTEE_FEATURES), [...TS_TESTEE_FEATURES])).toEqual([]);
  });

  it("[I6] a READY decision for a remotely loaded item without ItemDecision.loaded fails, scripted and randomised", async () => {
    const stripLoaded = altered((res) => {
      for (const d of res.admit?.items ?? []) delete (d as { loaded?: unknown }).loaded;
      return res;
    });
    const report = await runSuite({
      testee: stripLoaded,
      features: TS_TESTEE_FEATURES,
      cases: byName("consumer/v1-v2-versioning/unknown-dtype-value-skips-shape-check", "consumer/c1-admission/local-item-is-ready"),
      level: "all",
    });
    expect(report.results.map((r) => `${r.name} ${r.status}`)).toEqual([
      "consumer/c1-admission/local-item-is-ready passed", // local: no loaded bytes to report
      "consumer/v1-v2-versioning/unknown-dtype-value-skips-shape-check failed",
    ]);
    expect(report.results[1]?.message).toMatch(/^\[I6\] item i1 of r1 is READY at t=\d+ from a remote load, but ItemDecision.loaded is absent/);
    // An id finished and admitted again is a new request: its item once presented as local is not exempt.
    const [happy] = byName("consumer/c1-admission/remote-load-happy-path");
    if (happy === undefined) throw new Error("no happy-path case");
    const reused = structuredClone(happy);
    reused.spec.steps.unshift(
      { admit: { request: "r1", items: [{ id: "i1", local: true }] }, expect: { status: "admitted", items: [{ action: "ready" }] } },
      { finish: "r1" },
    );
    const again = await runSuite({ testee: stripLoaded, features: TS_TESTEE_FEATURES, cases: [reused], level: "all" });
    expect(again.results[0]?.message).toMatch(/^\[I6\] item i1 of r1 is READY at t=\d+ from a remote load, but ItemDecision.loaded is absent/);
    const random = await runRandomised({ consumer: stripLoaded, producer: inProcess(), seeds: [1], features: TS_TESTEE_FEATURES });
    expect(random[0]?.message).toMatch(/^seed 1: \[I6\] .* is READY from a remote load without ItemDecision.loaded/);
  }, 30_000);

  it("a testee breaking testee.proto's shape rules fails the case instead of passing unchecked", async () => {
    const KASE = byName("consumer/c1-admission/remote-load-happy-path");
    const PRODUCER_CASE = byName("producer/p2-pins/two-consumers-two-pins");
    const run = async (change: (res: Res, req: ectp.conformance.v1.TesteeRequest) => Res, cases = KASE) =>
      (await runSuite({ testee: altered(change), features: TS_TESTEE_FEATURES, cases, level: "all" })).results[0]?.message ?? "passed";
    // Sends without their envelope headers (a peer would drop them all).
    expect(
      await run((res) => {
        for (const o of res.poll?.outputs ?? []) if (o.send?.envelope) o.send.envelope.senderId = "";
        return res;
      }),
    ).toMatch(/^send to P1 at t=\d+: the envelope MUST carry version 1.x, sender_id "C1" and sender_epoch 1/);
    // Decisions without their item ids (the [I6] checks find items by them).
    expect(
      await run((res) => {
        for (const d of res.admit?.items ?? []) d.itemId = "";
        return res;
      }),
    ).toMatch(/^admit r1 at t=\d+: the decisions name items \[""\]; there MUST be one per item, echoing AdmitItem.item_id in order: \["i1"\]/);
    // Stats without the role's counters (the invariant checks read them).
    expect(
      await run((res) => {
        if (res.stats) delete (res.stats as { consumer?: unknown }).consumer;
        return res;
      }),
    ).toMatch(/^getStats at t=\d+: Stats.consumer MUST be set for a consumer testee/);
    // A put answered with a partial descriptor (announcements built from it would be invalid).
    expect(
      await run((res) => {
        if (res.putItem?.descriptor) res.putItem.descriptor.producerId = "";
        return res;
      }, PRODUCER_CASE),
    ).toMatch(/^putItem A at t=\d+: PutItemResult.descriptor MUST be the full descriptor \(producer_id "P1", epoch 5/);
    // Randomised: sends without headers, and Stats without the role's counters.
    const noSender = altered((res) => {
      for (const o of res.poll?.outputs ?? []) if (o.send?.envelope) o.send.envelope.senderEpoch = 0;
      return res;
    });
    expect((await runRandomised({ consumer: noSender, producer: inProcess(), seeds: [1], features: TS_TESTEE_FEATURES }))[0]?.message).toMatch(
      /^seed 1: C1 sent an envelope without version 1.x, sender_id C1 and sender_epoch 1/,
    );
  }, 60_000);

  it("the randomised level fails a seed that tested nothing, a consumer that reuses a read id in flight, or a testee that never stops talking, instead of passing it", async () => {
    const seed = async (consumer: ReturnType<typeof inProcess>, producer: ReturnType<typeof inProcess> = inProcess()) =>
      (await runRandomised({ consumer, producer, seeds: [1], features: TS_TESTEE_FEATURES }))[0]?.message ?? "passed";
    // A producer that refuses every PutItem: no request gets an announcement.
    const refuses = altered((res, req) => (req.putItem ? TesteeResponse.fromObject({ commandId: res.commandId, error: { message: "store refuses every item" } }) : res));
    expect(await seed(inProcess(), refuses)).toMatch(/^seed 1: \[P1\] the producer did not store item-0 .*: store refuses every item/);
    // A consumer whose ReadRequests never leave it: nothing is read, and nothing fails.
    const mute = altered((res) => {
      if (res.poll) res.poll.outputs = (res.poll.outputs ?? []).filter((o) => !o.send?.envelope?.readRequest);
      return res;
    });
    expect(await seed(mute)).toMatch(/^seed 1: \[C1\] the consumer sent no ReadRequest in the whole schedule/);
    // A consumer with one more heartbeat on every poll: each poll answered at once, the schedule never ends.
    const chatty = altered((res) => {
      res.poll?.outputs?.push(ectp.conformance.v1.Output.fromObject({ send: { to: "P1", envelope: { version: { major: 1 }, senderId: "C1", senderEpoch: "1", heartbeat: {} } } }));
      return res;
    });
    // A consumer that names every read 1: the second read in flight would be settled by the first's landing.
    const sameId = altered((res) => {
      for (const o of res.poll?.outputs ?? []) if (o.startRead) o.startRead.readId = 1;
      return res;
    });
    expect(await seed(sameId)).toMatch(/^seed 1: \[I5\] start_read at t=\d+ reuses read_id 1 while that read is unsettled/);
    expect(await seed(chatty)).toMatch(/^seed 1: \[I1\] the consumer gave outputs on each of 64 polls at t=\d+ with nothing handed to it between them \(a livelock\)/);
  }, 60_000);

  it("the TS testee keeps nothing from one instance to the next: locations restart, and a refused Configure leaves it unconfigured", () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    const ask = (req: Record<string, unknown>) => h.handle(TesteeRequest.fromObject({ commandId: 1, ...req }));
    ask({ init: { protocolVersion: 1 } });
    const fingerprint = { model: "m", dtype: 1, rowBytes: 8, layoutVersion: 1 };
    const descriptor = { key: { contentHash: [1, 2], fingerprint }, sizeBytes: 4 };
    const location = () => {
      expect(ask({ configure: { role: 2, id: "P1", epoch: 5, fingerprint } })).toMatchObject({ ok: {} });
      return Buffer.from(ask({ putItem: { descriptor, data: [1, 2, 3, 4] } }).putItem?.descriptor?.location ?? []).toString();
    };
    expect(location()).toBe("mem:1");
    expect(location()).toBe("mem:1");
    const refused = ask({ configure: { role: 1, id: "C1", epoch: 1, fingerprint, timers: { transferTimeoutMs: 26_000 } } });
    expect(refused.error?.code).toBe("INVALID_CONFIG");
    expect(ask({ poll: {} })).toMatchObject({ error: { code: "NOT_CONFIGURED" } });
  });

  it("an in-process testee answering Init with another protocol version is refused", async () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    await expect(
      inProcessTestee({
        handle: (req) => {
          const res = h.handle(req);
          if (res.init) res.init.protocolVersion = 7;
          return res;
        },
      }),
    ).rejects.toThrow(/answered Init with protocol_version 7; it MUST be 1/);
  });

  it("JSON-lines responses may use the proto's snake_case field names", () => {
    const res = responseFromJson({ command_id: "3", poll: { next_deadline_ms: "5", outputs: [{ send: { to: "P1", envelope: { sender_id: "C1", sender_epoch: 1 } } }] } });
    expect(res.commandId).toBe(3);
    expect(Number(res.poll?.nextDeadlineMs)).toBe(5);
    expect(res.poll?.outputs?.[0]?.send?.envelope?.senderId).toBe("C1");
  });

  it("JSON-lines responses: a field name the schema does not define is refused with its path and the name meant, at any depth", () => {
    const envelope = { senderId: "P1", senderEpoch: 1, readGrant: { atemptId: 4, grantId: 9 } };
    expect(() => responseFromJson({ commandId: "3", poll: { outputs: [{ send: { to: "C1", envelope } }] } })).toThrow(
      'TesteeResponse.poll.outputs[0].send.envelope.readGrant (ectp.v1.ReadGrant) has a field "atemptId" that the schema does not define (did you mean "attemptId"?)',
    );
    // Nothing close: the fields the message has are listed instead.
    expect(() => responseFromJson({ commandId: "3", stats: { consumer: { colour: 1 } } })).toThrow(
      /^TesteeResponse\.stats\.consumer \(ectp\.conformance\.v1\.ConsumerStats\) has a field "colour" that the schema does not define; its fields: requests, budgets, fetches, readsInFlight, quarantined, grantsHeld, loadedItems, destinations, undrainedFailures, ignoredMessages$/,
    );
    // Names of Object.prototype's members are no fields either.
    for (const key of ["constructor", "__proto__", "toString"])
      expect(() => responseFromJson(JSON.parse(`{"commandId": "3", "ok": {}, "${key}": 1}`))).toThrow(
        `TesteeResponse (ectp.conformance.v1.TesteeResponse) has a field "${key}" that the schema does not define`,
      );
    // A snake_case spelling of a defined name is that name, at every depth.
    expect(responseFromJson({ command_id: "3", poll: { outputs: [{ send: { to: "C1", envelope: { read_grant: { attempt_id: 4 } } } }] } }).poll?.outputs?.[0]?.send?.envelope?.readGrant?.attemptId).toBe(4);
  });

  it("JSON-lines responses: an enum name the schema does not define is refused (it would read as the default); numbers are taken as they are", () => {
    const reject = (reason: unknown) => ({ commandId: "3", poll: { outputs: [{ send: { to: "C1", envelope: { readReject: { attemptId: 1, reason } } } }] } });
    expect(() => responseFromJson(reject("FAILURE_REASON_NOT_REDY"))).toThrow(
      'TesteeResponse.poll.outputs[0].send.envelope.readReject.reason is "FAILURE_REASON_NOT_REDY", which is not a name of enum ectp.v1.FailureReason (did you mean "FAILURE_REASON_NOT_READY"?); a value without a name in the schema is written as its number',
    );
    // A number in a string is not a name either: proto3 JSON writes an enum number as a number.
    expect(() => responseFromJson(reject("3"))).toThrow(/readReject\.reason is "3", which is not a name of enum ectp\.v1\.FailureReason; a value/);
    expect(responseFromJson(reject("FAILURE_REASON_NOT_READY")).poll?.outputs?.[0]?.send?.envelope?.readReject?.reason).toBe(1);
    expect(responseFromJson(reject(977)).poll?.outputs?.[0]?.send?.envelope?.readReject?.reason).toBe(977);
  });

  it("JSON-lines responses: a 64-bit integer must be decimal digits or a safe-integer number, in range (protobufjs read \"12abc\" as 12, \"1e2\" as 1)", () => {
    const grants = (v: unknown) => ({ commandId: "3", stats: { producer: { grants: v } } });
    const how = "a uint64 is written as a string of decimal digits or as a JSON number holding a safe integer (TESTEE-PROTOCOL.md section 3.2)";
    for (const bad of ["12abc", " 12", "1e2", "-1", "1.5", "0x10", "", "007"])
      expect(() => responseFromJson(grants(bad)), JSON.stringify(bad)).toThrow(`TesteeResponse.stats.producer.grants is ${JSON.stringify(bad)}: ${how}`);
    expect(() => responseFromJson(grants(1.5))).toThrow(`TesteeResponse.stats.producer.grants is 1.5, not a safe integer: ${how}`);
    expect(() => responseFromJson(grants(2 ** 60))).toThrow(
      `TesteeResponse.stats.producer.grants is ${2 ** 60} (shown rounded), a JSON number above 2^53-1, which the runner cannot hold exactly: ${how}`,
    );
    expect(() => responseFromJson(grants(-3))).toThrow(`TesteeResponse.stats.producer.grants is -3, below 0: ${how}`);
    expect(() => responseFromJson(grants("18446744073709551616"))).toThrow("is 18446744073709551616, out of the range of a uint64");
    // What section 3.2 allows is read as written (the runner holds uint64s as numbers: exact up to 2^53 - 1).
    for (const [ok, value] of [["12", "12"], [12, "12"], ["0", "0"], ["9007199254740991", "9007199254740991"]] as const)
      expect(String(responseFromJson(grants(ok)).stats?.producer?.grants), JSON.stringify(ok)).toBe(value);
    expect(() => responseFromJson(grants("18446744073709551615"))).not.toThrow(); // the top of the range
    // Inside lists too (a ReadRequest's attempt id in a poll's outputs).
    const send = (attemptId: unknown) => ({ commandId: "3", poll: { outputs: [{ send: { to: "P1", envelope: { readRequest: { attemptId } } } }] } });
    expect(() => responseFromJson(send("4x"))).toThrow('TesteeResponse.poll.outputs[0].send.envelope.readRequest.attemptId is "4x"');
  });

  it("[I5] a start_read without destination_region fails the case", async () => {
    const report = await runSuite({
      testee: altered((res) => {
        for (const o of res.poll?.outputs ?? []) if (o.startRead) o.startRead.destinationRegion = "";
        return res;
      }),
      features: TS_TESTEE_FEATURES,
      cases: byName("consumer/v1-v2-versioning/unknown-dtype-value-skips-shape-check"),
      level: "all",
    });
    expect(report.results[0]?.message).toMatch(/^\[I5\] start_read \d+ at t=\d+ has no destination_region/);
  });

  it("a stats counter past 2^53 - 1 (which a binary frame can carry) is blamed on the answer, not reported as an [I3] difference", async () => {
    const run = (grants: number) =>
      runSuite({
        testee: altered((res) => {
          if (res.stats?.producer) res.stats.producer.grants = grants;
          return res;
        }),
        features: TS_TESTEE_FEATURES,
        cases: byName("producer/p8-liveness/unknown-capabilities-in-a-hello-are-ignored"),
        level: "all",
      });
    // (The in-process testee's answers go through the binary encoding, as a process's do.)
    const [headline, where, ...rest] = ((await run(2 ** 60)).results[0]?.message ?? "").split("\n");
    expect(headline).toBe(
      `getStats at t=0: Stats.producer.grants is ${2 ** 60} (shown rounded), above 2^53-1, which the runner cannot hold exactly ` +
        "(it holds every counter as a number: TESTEE-PROTOCOL.md §3.2); no case makes a counter that large",
    );
    expect(where).toMatch(/^ {2}at step 1 of 7: \{"deliver":\{"from":"C1","envelope":\{"hello":.{100,}…$/); // the step that checked the stats
    expect(rest).toEqual([]);
  });

  it("the TS testee answers a request with no command Unsupported{unknown-command}, another protocol version and commands before Configure with Error", () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    const ask = (req: Record<string, unknown>) => h.handle(TesteeRequest.fromObject({ commandId: 1, ...req }));
    expect(ask({})).toMatchObject({ unsupported: { feature: "unknown-command" } });
    expect(ask({ init: { protocolVersion: 2 } })).toMatchObject({ error: { code: "UNSUPPORTED_PROTOCOL" } });
    expect(ask({ init: { protocolVersion: 1 } })).toMatchObject({ init: { protocolVersion: 1 } });
    for (const cmd of ["poll", "advanceClock", "getStats", "drainFailed"]) expect(ask({ [cmd]: {} }), cmd).toMatchObject({ error: { code: "NOT_CONFIGURED" } });
  });
});

describe("runConformanceCli", () => {
  it("runs a filtered suite against a subprocess testee and writes JUnit, JSON and the ectp-report summary", async () => {
    const command = await bundleTsTestee();
    const dir = mkdtempSync(join(work, "cli-"));
    const features = join(dir, "features.json");
    writeFileSync(features, JSON.stringify({ features: ["consumer", "producer", "read-memory"] }));
    const code = await runConformanceCli([
      "--testee", command, "--features", features, "--filter", "consumer/c1-admission/**", "--seeds", "1",
      "--junit", join(dir, "out.xml"), "--report", join(dir, "out.json"),
    ]);
    expect(code).toBe(0);
    expect(readFileSync(join(dir, "out.xml"), "utf8")).toContain("<testsuites");
    const report = JSON.parse(readFileSync(join(dir, "out.json"), "utf8"));
    expect(report.failed).toBe(0);
    expect(report.results.some((r: { name: string }) => r.name === "randomised/i1-i2-i3-i4-i5-i6-c6/seed-1")).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "out.ectp-report.json"), "utf8"))).toEqual({ passed: report.passed, failed: 0 });
  }, 60_000);

  it("--transport mock runs the transport level in both clock modes, filtered, into the JSON report", async () => {
    const dir = mkdtempSync(join(work, "cli-"));
    const code = await runConformanceCli(["--transport", "mock", "--filter", "transport/*/byte-exact-*", "--report", join(dir, "t.json")]);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, "t.json"), "utf8"));
    expect(report.results.map((r: { name: string; status: string }) => `${r.name} ${r.status}`)).toEqual([
      "transport/mock/byte-exact-reads-at-odd-offsets passed",
      "transport/mock-real-clock/byte-exact-reads-at-odd-offsets passed",
    ]);
  }, 60_000);

  it("--transport refuses an unknown name (exit 2)", async () => {
    expect(await runConformanceCli(["--transport", "carrier-pigeon"])).toBe(2);
    expect(await runConformanceCli([])).toBe(2);
  });

  it.each([
    ["--command-timeout-ms", "abc", "from 1 to 2147483647"],
    ["--command-timeout-ms", "0", "from 1 to 2147483647"],
    ["--command-timeout-ms", "2.5", "from 1 to 2147483647"],
    ["--seeds", "abc", "from 0 to 100000"],
    ["--seeds", "-3", "from 0 to 100000"],
    ["--seed", "abc", "from 0 to 9007199254740991 (2^53 - 1)"],
    ["--seed", "1.5", "from 0 to 9007199254740991 (2^53 - 1)"],
  ])("%s %s is a usage error naming the flag (exit 2)", async (flag, value, range) => {
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await runConformanceCli(["--testee", "never-started", `${flag}=${value}`])).toBe(2);
      const text = err.mock.calls.map((c) => String(c[0])).join("");
      expect(text).toContain(`${flag} must be an integer ${range}; got "${value}"`);
      expect(text).toContain("Usage: ectp conformance");
    } finally {
      err.mockRestore();
    }
  });

  it("a failed seed's replay command keeps --features, --known-failing, --command-timeout-ms and --seed-timeout-ms", async () => {
    const { fakeTestee } = await import("./test-support.js");
    // Answers Init, then exits: every seed fails.
    const crash = fakeTestee(
      "crash-seed",
      `process.stdin.once("data", () => { const p = Buffer.from([0x08, 0x01, 0x5a, 0x02, 0x08, 0x01]); const f = Buffer.alloc(4); f.writeUInt32BE(p.length, 0); process.stdout.write(Buffer.concat([f, p]), () => setTimeout(() => process.exit(1), 50)); });`,
    );
    const dir = mkdtempSync(join(work, "cli-"));
    const features = join(dir, "features.json");
    const known = join(dir, "known.json");
    writeFileSync(features, JSON.stringify({ features: ["consumer", "producer", "read-memory"] }));
    writeFileSync(known, JSON.stringify({ "consumer/c1-admission/local-item-is-ready": "not this one" }));
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    let code: number;
    try {
      code = await runConformanceCli([
        "--testee", crash, "--seed", "3", "--features", features, "--known-failing", known, "--command-timeout-ms", "4000", "--seed-timeout-ms", "600000",
        "--level", "all", "--report", join(dir, "r.json"),
      ]);
    } finally {
      out.mockRestore();
    }
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8"));
    const replay = String(report.results[0]?.message).split("\n").find((l: string) => l.startsWith("replay: "));
    expect(replay).toBe(
      `replay: npx @ectp/cli conformance --testee '${crash}' --features ${features} --known-failing ${known} --command-timeout-ms 4000 --seed-timeout-ms 600000 --level all --seed 3`,
    );
  }, 30_000);

  it("usage errors exit 2; a known-failing entry without a reason is refused", async () => {
    expect(await runConformanceCli(["--level", "some"])).toBe(2);
    expect(await runConformanceCli(["--testee", "x", "--level", "some"])).toBe(2);
    const dir = mkdtempSync(join(work, "cli-"));
    writeFileSync(join(dir, "k.json"), JSON.stringify({ "a/b": "" }));
    expect(await runConformanceCli(["--testee", "x", "--known-failing", join(dir, "k.json")])).toBe(2);
  });
});

describe("system level (in-process over MockNetwork)", () => {
  it("a producer killed mid-transfer and restarted, and lossy links, keep [I1]-[I6]", async () => {
    const { runSystemLevel } = await import("./system/system-level.js");
    for (const seed of [1, 2]) {
      const results = await runSystemLevel(seed);
      expect(results.map((r) => `${r.name} ${r.status} ${r.message ?? ""}`)).toEqual(results.map((r) => `${r.name} passed `));
    }
  }, 60_000);
});

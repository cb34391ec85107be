// biome-ignore-all lint/suspicious/noTemplateCurlyInString: case templates ("${var}"), not JS ones
/**
 * What a case refers to is checked as the case file loads, so that a mistake in it is a case bug
 * naming where it is rather than a failure blamed on the implementation: timers the testee must
 * refuse in the case's `config` ([I1]: the Configure would be answered Error), a peer named where
 * the runner plays none or the testee hears of none, an item fixture the case does not have.
 * Templates are left to the step that resolves them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCases } from "./cases/load.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import { makeFixture } from "./runner/fixtures.js";
import { runSuite } from "./runner/suite.js";
import { inProcessTsTestee } from "./test-support.js";

const work = mkdtempSync(join(tmpdir(), "ectp-case-check-references-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ROLE_SUITES = { consumer: "consumer/c1-x", producer: "producer/p1-x", subscriber: "subscriber/e2-x" } as const;
type Role = keyof typeof ROLE_SUITES;
const REQUIREMENT = { consumer: "C1", producer: "P1", subscriber: "E2" } as const;

/** Loads one case of `role` (`change` over a well-formed one), with the suite file's `defaults`, from a folder of its own. */
const loadCase = (change: Record<string, unknown>, role: Role = "consumer", defaults?: Record<string, unknown>) => {
  const dir = mkdtempSync(join(work, "cases-"));
  const suite = ROLE_SUITES[role];
  const c = { name: "a", requirements: [REQUIREMENT[role]], level: "REQUIRED", role, steps: [], ...change };
  mkdirSync(join(dir, role));
  writeFileSync(join(dir, `${suite}.json`), JSON.stringify({ suite, ...(defaults === undefined ? {} : { defaults }), cases: [c] }));
  return () => loadCases(dir);
};
const at = (role: Role = "consumer") => `case file ${ROLE_SUITES[role]}.json, case "a": `;

describe("[I1] timers the testee must refuse are a case bug where the case does not expect the refusal", () => {
  const refused = 'the testee answers that Configure with Error, which fails the case as the implementation\'s [I1]: to check that refusal, set it in a "configure" step with "expectError": true';

  it("[I1][P8] heartbeatMisses 0 in a consumer's or producer's config is refused naming the timer and the rule", () => {
    expect(loadCase({ config: { heartbeatMisses: 0 } })).toThrow(
      `${at()}config is an invalid configuration for a consumer: heartbeatMisses is 0 (SPEC.md [P8]: a peer is gone after heartbeat_misses silent intervals, 1 or more`,
    );
    expect(loadCase({ config: { heartbeatMisses: "0" } }, "producer")).toThrow(`${at("producer")}config is an invalid configuration for a producer: heartbeatMisses is 0`);
    expect(loadCase({ config: { heartbeatMisses: 0 } })).toThrow(refused);
    // A subscriber uses only its interval and view bound (TESTEE-PROTOCOL.md, Configure): it ignores the others.
    expect(loadCase({ config: { heartbeatMisses: 0 } }, "subscriber")()).toHaveLength(1);
  });

  it("[I1][C11] a consumer duration of 0 is refused, in the case or its suite's defaults, and so are the [C11] orderings; 1 ms loads", () => {
    for (const timer of ["heartbeatIntervalMs", "waitBudgetMs", "grantWaitMs", "transferTimeoutMs", "quarantineCapMs", "backoffInitialMs", "backoffMaxMs", "leaseMs", "leaseSafetyMarginMs", "maxItemBytes"])
      expect(loadCase({ config: { [timer]: "0" } }), timer).toThrow(
        `${at()}config is an invalid configuration for a consumer: ${timer} is 0 (SPEC.md [C11]: a consumer configuration is rejected unless every duration and max_item_bytes is a positive integer)`,
      );
    expect(loadCase({}, "consumer", { config: { grantWaitMs: 0 } })).toThrow(`${at()}config is an invalid configuration for a consumer: grantWaitMs is 0`);
    expect(loadCase({ config: { backoffInitialMs: 2001 } })).toThrow(
      `${at()}config is an invalid configuration for a consumer: backoffInitialMs is above backoffMaxMs (backoffInitialMs 2001, backoffMaxMs 2000 (the default); SPEC.md [C11]`,
    );
    expect(loadCase({ config: { transferTimeoutMs: 26000 } })).toThrow(
      "transferTimeoutMs is above leaseMs - leaseSafetyMarginMs (transferTimeoutMs 26000, leaseMs 30000 (the default), leaseSafetyMarginMs 5000 (the default); SPEC.md [C11]",
    );
    const ones = { heartbeatIntervalMs: 1, waitBudgetMs: 1, grantWaitMs: 1, quarantineCapMs: 1, backoffInitialMs: 1, backoffMaxMs: 1, leaseSafetyMarginMs: 1 };
    expect(loadCase({ config: { ...ones, transferTimeoutMs: 25000, leaseMs: "30000", heartbeatMisses: 1 } })()).toHaveLength(1);
    // Another role's timers are ignored by a consumer (TESTEE-PROTOCOL.md, Configure).
    expect(loadCase({ config: { maxViewBytes: 0, maxBatchBytes: 9_000_000, resendIntervalMs: 5000 } })()).toHaveLength(1);
  });

  it("[I1] a producer's lease, heartbeat interval, quotas, replay buffer or batch bound of 0 is refused (SPEC.md section 8)", () => {
    for (const timer of ["heartbeatIntervalMs", "leaseMs", "maxPinnedBytesPerConsumer", "maxGrantsPerConsumer", "replayBufferBatches", "maxBatchBytes"])
      expect(loadCase({ config: { [timer]: 0 } }, "producer"), timer).toThrow(
        `${at("producer")}config is an invalid configuration for a producer: ${timer} is 0 (SPEC.md section 8: a producer configuration is rejected unless its lease, heartbeat interval, quotas, replay buffer and max_batch_bytes are positive integers)`,
      );
  });

  it("[I1][E1][E2] a producer's batch bound above 8 MiB or resend interval above 1 s is refused; a retry hint or resend interval of 0 loads", () => {
    expect(loadCase({ config: { maxBatchBytes: "8388609" } }, "producer")).toThrow(
      `${at("producer")}config is an invalid configuration for a producer: maxBatchBytes is 8388609, above 8388608 (SPEC.md [E1]: a producer refuses a batch size bound above 8 MiB)`,
    );
    expect(loadCase({ config: { resendIntervalMs: 1001 } }, "producer")).toThrow("resendIntervalMs is 1001, above 1000");
    expect(loadCase({ config: { maxBatchBytes: 8388608, resendIntervalMs: 0, retryAfterMs: 0, waitBudgetMs: 0 } }, "producer")()).toHaveLength(1);
  });

  it("[I1][P8][E2] a subscriber's heartbeat interval or view bound of 0 is refused (TESTEE-PROTOCOL.md, Configure)", () => {
    for (const timer of ["heartbeatIntervalMs", "maxViewBytes"])
      expect(loadCase({ config: { [timer]: 0 } }, "subscriber"), timer).toThrow(
        `${at("subscriber")}config is an invalid configuration for a subscriber: ${timer} is 0 (TESTEE-PROTOCOL.md, Configure: a present 0 in a subscriber's heartbeat_interval_ms or max_view_bytes is an invalid configuration)`,
      );
  });

  it("[I1] a configure step may set invalid timers when it expects the refusal; without expectError it is refused naming the step, over the case's config", () => {
    const step = (config: Record<string, unknown>, expectError?: boolean) => ({ steps: [{ after: 5 }, { configure: { config }, ...(expectError === undefined ? {} : { expectError }) }] });
    expect(loadCase(step({ heartbeatMisses: 0 }, true))()).toHaveLength(1);
    expect(loadCase(step({ heartbeatMisses: 0 }))).toThrow(
      `${at()}step 2: configure.config (over the case's "config") is an invalid configuration for a consumer: heartbeatMisses is 0 (SPEC.md [P8]:`,
    );
    expect(loadCase(step({ heartbeatMisses: 0 }, false))).toThrow('add "expectError": true if that refusal is what the step checks');
    // Valid alone, not over the case's config: the step's lease leaves no room for its transfer timeout.
    expect(loadCase({ config: { leaseMs: 60000, transferTimeoutMs: 40000 }, ...step({ leaseMs: 30000 }) })).toThrow(
      "transferTimeoutMs is above leaseMs - leaseSafetyMarginMs (transferTimeoutMs 40000, leaseMs 30000, leaseSafetyMarginMs 5000 (the default)",
    );
    // A template is resolved, and checked, as the step runs.
    expect(loadCase(step({ heartbeatMisses: "${m}" }))()).toHaveLength(1);
  });

  it("[I1] a configure step's templated timers are checked once resolved: a case bug, not an implementation error", async () => {
    const [c] = loadCase({ steps: [{ set: { m: 0 } }, { configure: { config: { heartbeatMisses: "${m}" } } }] })();
    const report = await runSuite({ testee: inProcessTsTestee, features: TS_TESTEE_FEATURES, cases: c === undefined ? [] : [c], level: "all" });
    expect(report.results[0]?.message).toBe(
      'case bug (fix the case file): configure.config (over the case\'s "config") is an invalid configuration for a consumer: heartbeatMisses is 0 ' +
        "(SPEC.md [P8]: a peer is gone after heartbeat_misses silent intervals, 1 or more (the references take 1 to 2^53 - 1, and a testee that keeps it at 3 refuses any other value)); " +
        "the testee answers that Configure with Error, which fails the case as the implementation's [I1]: add \"expectError\": true if that refusal is what the step checks\n" +
        '  at step 2 of 2: {"configure":{"config":{"heartbeatMisses":"${m}"}}}',
    );
  });
});

describe("peers a step names are ones the runner plays or the testee hears of", () => {
  it("greet, peerDown and peerUp naming no scripted peer are refused naming the step and the peers", () => {
    expect(loadCase({ steps: [{ after: 5 }, { greet: "P2" }] })).toThrow(
      `${at()}step 2: greet names "P2", which is no scripted peer of this case (did you mean "P1"?); its peers are P1: the runner plays only those, so add it to "peers" or name one of them`,
    );
    expect(loadCase({ peers: { P1: {}, P2: {} }, steps: [{ peerDown: "P3" }] })).toThrow(`${at()}step 1: peerDown names "P3", which is no scripted peer of this case`);
    expect(loadCase({ steps: [{ repeat: { times: 2, steps: [{ peerUp: { peer: "C1" } }] } }] })).toThrow(
      `${at()}step 1 (repeat), its step 1: peerUp.peer names "C1", which is no scripted peer of this case`,
    );
    // The testee is no scripted peer: a producer case's P1 is the testee itself.
    expect(loadCase({ steps: [{ greet: "P1" }] }, "producer")).toThrow(`${at("producer")}step 1: greet names "P1", which is no scripted peer of this case`);
    expect(loadCase({ peers: { P1: {}, P2: {} }, steps: [{ peerDown: "P2" }, { peerUp: { peer: "P2", greet: true } }, { greet: "${p}" }] })()).toHaveLength(1);
  });

  it("a matcher of outputs to a peer the testee never hears of is refused, in a step or a rule: no output can match it", () => {
    expect(loadCase({ steps: [{ expectSent: [{ send: { to: "P2" } }] }] })).toThrow(
      `${at()}step 1: expectSent[0].send.to names "P2", which the testee never hears of (did you mean "P1"?): it is no scripted peer (P1), not the testee (C1), and no sender or producer the case names, so no output goes to it: name the peer the output goes to`,
    );
    // An expectNone of it would pass whatever the testee does.
    expect(loadCase({ steps: [{ expectNone: [{ send: { to: "P7" } }] }] })).toThrow(`${at()}step 1: expectNone[0].send.to names "P7", which the testee never hears of`);
    expect(loadCase({ rules: [{ on: { send: { to: "C2" } }, do: [{ flush: true }] }] }, "producer")).toThrow(`${at("producer")}rule 1: on.send.to names "C2", which the testee never hears of`);
    for (const kind of ["startRead", "connectPeer", "disconnectPeer"])
      expect(loadCase({ steps: [{ expectCount: { match: { [kind]: { peerId: "P2" } }, min: 1 } }] }), kind).toThrow(
        `${at()}step 1: expectCount.match.${kind}.peerId names "P2", which the testee never hears of`,
      );
    // A snapshot answer goes to C1 unless `to` says otherwise.
    expect(loadCase({ peers: { C2: {} }, steps: [{ expectSnapshot: { items: [] } }] }, "producer")).toThrow(
      `${at("producer")}step 1: expectSnapshot.to (absent, so "C1") names "C1", which the testee never hears of`,
    );
  });

  it("a peer the testee hears of may be matched: a sender the case delivers from, a sender id or producer id it writes, a fixture's producer, the testee itself", () => {
    const to = (id: string) => ({ send: { to: id } });
    const steps = [
      { deliver: { from: "P9", envelope: { heartbeat: {} } } },
      { deliver: { from: "P1", envelope: { heartbeat: {}, senderId: "P8" } } },
      { admit: { request: "r1", items: [{ id: "i1", announcement: { item: { producerId: "P7" } } }] } },
      { expectNone: [to("P9"), to("P8"), to("P7"), to("P6"), to("C1"), to("${p}")] },
    ];
    expect(loadCase({ items: { A: { size: 4, producer: "P6" } }, steps })()).toHaveLength(1);
    // A sender named by a template may be any peer: the matchers are left to run time.
    expect(loadCase({ steps: [{ deliver: { from: "${p}", envelope: { heartbeat: {} } } }, { expectNone: [to("P2")] }] })()).toHaveLength(1);
  });

  it("a delivery from the testee's own id is refused, an absent from included (P1, the testee of a producer case); one from a peer the runner does not play loads", () => {
    expect(loadCase({ steps: [{ deliver: { envelope: { heartbeat: {} } } }] }, "producer")).toThrow(
      `${at("producer")}step 1: deliver.from (absent, so "P1") is "P1", the testee's own id: a message comes from a peer, so name the one that sends it (its peers are C1)`,
    );
    expect(loadCase({ self: { id: "C7" }, steps: [{ deliver: { from: "C7", envelope: { heartbeat: {} } } }] })).toThrow(`${at()}step 1: deliver.from is "C7", the testee's own id`);
    expect(loadCase({ steps: [{ deliver: { from: "C9", envelope: { heartbeat: {} } } }, { deliver: { from: "C1", envelope: { heartbeat: {} } } }] }, "producer")()).toHaveLength(1);
  });
});

describe("item fixtures a step names are ones the case has", () => {
  const items = { A: { size: 4 }, F: { size: 4, count: 3 } };

  it("a fixture name the case's items lack is refused naming the step, the nearest name and the items", () => {
    expect(loadCase({ items, steps: [{ after: 5 }, { put: "B" }] }, "producer")).toThrow(
      `${at("producer")}step 2: put names "B", which is no item fixture of this case (did you mean "A"?); its items are A, F: add it to "items" or name one of them`,
    );
    expect(loadCase({ steps: [{ announce: "A" }] }, "producer")).toThrow(`${at("producer")}step 1: announce names "A", which is no item fixture of this case; it has no items`);
    const refusedAt = (role: Role, step: Record<string, unknown>, where: string) =>
      expect(loadCase({ items, steps: [step] }, role), where).toThrow(`${at(role)}step 1: ${where} names "Z", which is no item fixture of this case`);
    for (const action of ["markReady", "discard", "evict"]) refusedAt("producer", { [action]: "Z" }, action);
    refusedAt("consumer", { readResult: { read: 1, data: "Z" } }, "readResult.data");
    refusedAt("consumer", { readResult: { read: 1, data: { item: "Z", corrupt: true } } }, "readResult.data.item");
    refusedAt("consumer", { admit: { request: "r1", items: [{ id: "i1", announce: "Z" }] } }, "admit.items[0].announce");
    refusedAt("producer", { expectSnapshot: { items: ["A", "Z"] } }, "expectSnapshot.items[1]");
    refusedAt("producer", { expectSnapshot: { items: "Z" } }, "expectSnapshot.items");
    refusedAt("subscriber", { expectView: { items: ["Z"] } }, "expectView.items[0]");
    refusedAt("subscriber", { expectView: { items: [{ item: "Z" }] } }, "expectView.items[0].item");
    refusedAt("producer", { configure: { items: ["Z"] } }, "configure.items[0]");
    // A template macro's fixture, in a step's argument or a matcher.
    refusedAt("consumer", { set: { k: { $key: "Z" } } }, "set.k.$key");
    refusedAt("consumer", { expectNone: [{ send: { envelope: { readRequest: { key: { $key: "Z" } } } } }] }, "expectNone[0].send.envelope.readRequest.key.$key");
    expect(loadCase({ items, rules: [{ on: { send: {} }, do: [{ readResult: { read: 1, data: "Z" } }] }] })).toThrow(
      `${at()}rule 1, its action 1: readResult.data names "Z", which is no item fixture of this case`,
    );
  });

  it("a family's name stands for its members where the runner takes one (put, expectSnapshot, expectView, configure items), elsewhere a member is named", () => {
    const steps = [{ put: "F", ready: true }, { markReady: "F.2" }, { announce: "A" }, { expectSnapshot: { items: ["F", "A"] } }, { configure: { items: ["F"] } }];
    expect(loadCase({ items, steps }, "producer")()).toHaveLength(1);
    expect(loadCase({ items, steps: [{ expectView: { items: ["F", { item: "F.0" }] } }] }, "subscriber")()).toHaveLength(1);
    expect(loadCase({ items, steps: [{ markReady: "F" }] }, "producer")).toThrow(`${at("producer")}step 1: markReady names "F", a family of 3 items: name one of its members, F.0 to F.2`);
    expect(loadCase({ items, steps: [{ set: { k: { $key: "F.3" } } }] })).toThrow(`${at()}step 1: set.k.$key names "F.3", which is no item fixture of this case`);
    expect(loadCase({ items, steps: [{ set: { k: { $key: "F.01" } } }] })).toThrow(`${at()}step 1: set.k.$key names "F.01", which is no item fixture of this case`);
    // Templates are resolved as the step runs.
    expect(loadCase({ items, steps: [{ discard: "${n}" }, { set: { k: { $key: "${n}" } } }] }, "producer")()).toHaveLength(1);
  });
});

describe("an item fixture's fingerprint", () => {
  it("overrides fields of the case fingerprint in the item's key, and a field no Fingerprint has is a case bug", () => {
    const caseFingerprint = { model: "m@1", dtype: "DTYPE_BFLOAT16", rowBytes: 2048, layoutVersion: 1 };
    expect(makeFixture("X", { size: 64, fingerprint: { model: "other/model@2" } }, caseFingerprint).key.fingerprint).toEqual({ ...caseFingerprint, model: "other/model@2" });
    expect(makeFixture("A", { size: 64 }, caseFingerprint).key.fingerprint).toEqual(caseFingerprint);
    expect(loadCase({ items: { X: { size: 64, fingerprint: { model: "other/model@2" } } } }, "producer")()).toHaveLength(1);
    expect(loadCase({ items: { X: { size: 64, fingerprint: { modle: "m" } } } })).toThrow(`${at()}items.X.fingerprint`);
  });
});

describe("an item fixture's storedAs", () => {
  it("is carried by the fixture for a put, in producer cases only, and a storedAs that names nothing or no id or epoch is a case bug", () => {
    expect(makeFixture("X", { size: 64, storedAs: { epoch: 4 } }, {}).storedAs).toEqual({ epoch: 4 });
    expect(makeFixture("A", { size: 64 }, {}).storedAs).toBeUndefined();
    expect(loadCase({ items: { X: { size: 64, storedAs: { producer: "P9", epoch: 4 } } } }, "producer")()).toHaveLength(1);
    expect(loadCase({ items: { X: { size: 64, storedAs: { epoch: 4 } } } }, "consumer")).toThrow(
      `${at()}items.X.storedAs names what a producer testee's store holds an item under; it is for producer cases (this case's role is "consumer")`,
    );
    expect(loadCase({ items: { X: { size: 64, storedAs: {} } } }, "producer")).toThrow('items.X.storedAs needs "producer", "epoch" or both');
    expect(loadCase({ items: { X: { size: 64, storedAs: { epoch: 0 } } } }, "producer")).toThrow("items.X.storedAs.epoch is an epoch, a whole number >= 1");
    expect(loadCase({ items: { X: { size: 64, storedAs: { producer: "" } } } }, "producer")).toThrow("items.X.storedAs.producer is a producer id, a string that is not empty");
    expect(loadCase({ items: { X: { size: 64, storedAs: { epoc: 4 } } } }, "producer")).toThrow('unknown field "epoc" (did you mean "epoch"?)');
    expect(loadCase({ items: { X: { size: 64, storedAs: 4 } } }, "producer")).toThrow("items.X.storedAs is 4; expected a JSON object");
  });
});

describe("the case files of this package", () => {
  it("all load through these checks", () => {
    expect(loadCases().length).toBeGreaterThan(0);
  });
});

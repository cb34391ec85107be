// The randomised subscriber level (random/subscriber-randomised.ts): the reference subscriber passes
// its seeds, and planted subscriber bugs (and producer bugs in replay answers) are caught with their seed.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as core from "@ectp/core";
import { describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import { importCoreBundle, loadMutants } from "./mutants/build.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import { SUBSCRIBER_RANDOMISED_SUITE, runSubscriberRandomised } from "./random/subscriber-randomised.js";
import type { ectp } from "./proto.js";
import { type TesteeConnection, withRequests } from "./testee/connection.js";
import { inProcessTestee } from "./testee/in-process.js";
import { spawnTestee } from "./testee/subprocess.js";
import { PACKAGE_ROOT, withRawFromEnvelopes } from "./test-support.js";

const inProcess = (m: CoreModule = core as unknown as CoreModule) => () => inProcessTestee(new CoreTesteeHandler(m));
/** The TS testee with `edit` applied to each of its responses (a testee that reports or orders things otherwise). */
const editing =
  (edit: (res: ectp.conformance.v1.TesteeResponse) => void) =>
  async (): Promise<TesteeConnection> => {
    const conn = await inProcess()();
    return withRequests(conn, async (req) => {
      const res = await conn.request(req);
      edit(res);
      return withRawFromEnvelopes(res);
    });
  };
const EXERCISED =
  /^exercised: (\d+) batches, (\d+) snapshots \((\d+) in parts\), (\d+) replays unavailable, (\d+) dropped, (\d+) duplicated \((\d+) late\), (\d+) lost to a cut link, (\d+) synced views checked, (\d+) clears, (\d+) restarts$/;

describe("randomised subscriber level [E1][E2][P8][I1][I4]", () => {
  it("seeded schedules pass against the TS core, each exercising batches, snapshots, faults, a cut link and a producer restart; some snapshots in parts, some replays unavailable", async () => {
    // Seeds 1, 2 and 4 draw a small batch bound (see the module), 11 a small batch bound and a small
    // replay buffer; in seed 8 a replay is unavailable (the seeds' schedules change with what the
    // subscriber sends: checked again 2026-12-05, when its subscription retries began with a Hello).
    const seeds = [1, 2, 3, 4, 5, 8, 11];
    const results = await runSubscriberRandomised({ producer: inProcess(), subscriber: inProcess(), seeds, features: TS_TESTEE_FEATURES, level: "all" });
    expect(results.map((r) => `${r.name} ${r.status} ${r.status === "passed" ? "" : r.message}`)).toEqual(
      seeds.map((n) => `${SUBSCRIBER_RANDOMISED_SUITE}/seed-${n} passed `),
    );
    let inParts = 0;
    let unavailable = 0;
    for (const r of results) {
      const m = EXERCISED.exec(r.message ?? "");
      expect(m, `${r.name}: ${r.message}`).not.toBeNull();
      const n = (i: number) => Number(m?.[i]);
      inParts += n(3);
      unavailable += n(4);
      expect({ batches: n(1) > 10, snapshots: n(2) >= 2, cut: n(8) > 0, views: n(9) > 10, restarts: n(11) }, r.name).toEqual({
        batches: true,
        snapshots: true,
        cut: true,
        views: true,
        restarts: 1,
      });
    }
    expect({ inParts: inParts >= 4, unavailable: unavailable > 0 }).toEqual({ inParts: true, unavailable: true });
  }, 180_000);

  it("seeded schedules pass with the Python reference producer, its replay answers checked against the from_sequence asked, followed by the Python and the TS subscriber [E2][E1]", async () => {
    const dir = join(PACKAGE_ROOT, "testees", "python");
    const python = () => spawnTestee({ command: `python3 ${JSON.stringify(join(dir, "ectp_testee.py"))}`, jsonLines: true });
    const features: string[] = JSON.parse(readFileSync(join(dir, "features.json"), "utf8")).features;
    const seeds = [1, 2, 3, 4, 5, 8, 11];
    const withPython = await runSubscriberRandomised({ producer: python, subscriber: python, seeds, features, level: "all" });
    const withTs = await runSubscriberRandomised({ producer: python, subscriber: inProcess(), seeds, features: TS_TESTEE_FEATURES, level: "all" });
    expect([...withPython, ...withTs].map((r) => `${r.name} ${r.status} ${r.status === "passed" ? "" : r.message}`)).toEqual(
      [...seeds, ...seeds].map((n) => `${SUBSCRIBER_RANDOMISED_SUITE}/seed-${n} passed `),
    );
  }, 180_000);

  it("a producer whose snapshot parts disagree on their sequence, number a part past their count, or whose answers' ids do not grow, is caught [E2]", async () => {
    // Seed 1: two snapshots in parts (a small batch bound), more than one answer in an epoch.
    const partsDisagree = editing((res) => {
      for (const o of res.poll?.outputs ?? []) {
        const snap = o.send?.envelope?.snapshot;
        if (snap && (snap.part ?? 0) === 1) snap.sequence = Number(snap.sequence ?? 0) + 1;
      }
    });
    const idsStuck = editing((res) => {
      for (const o of res.poll?.outputs ?? []) {
        const snap = o.send?.envelope?.snapshot;
        if (snap) snap.snapshotId = 1;
      }
    });
    const partOutOfRange = editing((res) => {
      for (const o of res.poll?.outputs ?? []) {
        const snap = o.send?.envelope?.snapshot;
        if (snap && (snap.parts ?? 0) > 1 && snap.part === (snap.parts ?? 0) - 1) snap.part = snap.parts;
      }
    });
    const [disagree] = await runSubscriberRandomised({ producer: partsDisagree, subscriber: inProcess(), seeds: [1], features: TS_TESTEE_FEATURES });
    const [outOfRange] = await runSubscriberRandomised({ producer: partOutOfRange, subscriber: inProcess(), seeds: [1], features: TS_TESTEE_FEATURES });
    const [stuck] = await runSubscriberRandomised({ producer: idsStuck, subscriber: inProcess(), seeds: [1], features: TS_TESTEE_FEATURES });
    expect({ disagree: disagree?.message?.split("\n")[0], outOfRange: outOfRange?.message?.split("\n")[0], stuck: stuck?.message?.split("\n")[0] }).toEqual({
      disagree: expect.stringMatching(/^seed 1: \[E2\] the producer's snapshot \d+ sent a part of \d+ at sequence \d+ at t=\d+ \(epoch \d+\) after one of \d+ at sequence \d+: the parts of one answer share both$/),
      outOfRange: expect.stringMatching(/^seed 1: \[E2\] the producer's snapshot \d+ has part (\d+) of \1 at t=\d+ \(epoch \d+\): parts are numbered 0 to parts - 1$/),
      stuck: expect.stringMatching(/^seed 1: \[E2\] the producer's snapshot answer at t=\d+ \(epoch \d+\) has snapshot_id 1, not greater than an earlier answer's 1$/),
    });
  }, 120_000);

  it("a seed whose producer stores nothing (every PutItem refused) fails instead of passing with nothing to follow [E1]", async () => {
    const refuses = editing((res) => {
      if (!res.putItem) return;
      res.putItem = null;
      res.error = { message: "store refuses every item" } as ectp.conformance.v1.TesteeResponse["error"];
    });
    const [r] = await runSubscriberRandomised({ producer: refuses, subscriber: inProcess(), seeds: [1], features: TS_TESTEE_FEATURES });
    expect(r?.message?.split("\n")[0]).toBe("seed 1: [E1] the producer stored none of the items put in the whole schedule (PutItem always failed): it published nothing to follow");
  }, 60_000);

  it("every seed is skipped, saying why, without the producer, events and subscriber features", async () => {
    const [r] = await runSubscriberRandomised({ producer: inProcess(), subscriber: inProcess(), seeds: [1], features: ["consumer", "producer"] });
    expect({ status: r?.status, message: r?.message }).toEqual({ status: "skipped", message: "needs features producer, events, subscriber" });
  });

  it("the RECOMMENDED checks run at level all only: a subscriber that never counts itself synced fails there and passes at level required", async () => {
    // The TS testee, its SubscriberStats.synced always reported 0 (TESTEE-PROTOCOL.md section 5.3 lets a
    // subscriber without the count report 0; SPEC.md section 9 recommends it).
    const neverSynced = editing((res) => {
      if (res.stats?.subscriber) res.stats.subscriber.synced = 0;
    });
    const run = (level: "required" | "all") => runSubscriberRandomised({ producer: inProcess(), subscriber: neverSynced, seeds: [1], features: TS_TESTEE_FEATURES, level });
    const [all] = await run("all");
    const [required] = await run("required");
    expect({ all: all?.status, message: all?.message, required: required?.status }).toEqual({
      all: "failed",
      message: expect.stringMatching(/^seed 1: \[E2\] 40 s after the link healed \(t=\d+\) SubscriberStats\.synced is 0, not 1/),
      required: "passed",
    });
  });

  it("a subscriber that owes heartbeats only to a producer epoch it knows (SPEC.md section 4), its interval counted from when it heard from it, passes [P8]", async () => {
    // The reference subscriber heartbeats from its follow on; this one starts once the producer's
    // epoch is known, and pauses from declaring the producer gone until it hears from it again.
    const bundle = await importCoreBundle<CoreModule>(
      [
        { file: "subscriber/subscriber.ts", find: "      nextHeartbeat: now + this.heartbeatIntervalMs,", replace: "      nextHeartbeat: Number.POSITIVE_INFINITY," },
        {
          file: "subscriber/subscriber.ts",
          find: "    f.heardHelloEpoch = 0;\n    if (f.connectedEpoch === 0) return;",
          replace: "    f.heardHelloEpoch = 0;\n    f.nextHeartbeat = Number.POSITIVE_INFINITY;\n    if (f.connectedEpoch === 0) return;",
        },
        {
          file: "subscriber/subscriber.ts",
          find: "    f.lastHeard = now;\n    // Set when a new epoch's first",
          replace: "    f.lastHeard = now;\n    if (f.nextHeartbeat === Number.POSITIVE_INFINITY) f.nextHeartbeat = now + this.heartbeatIntervalMs;\n    // Set when a new epoch's first",
        },
      ],
      "heartbeats-once-known",
    );
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8];
    const results = await runSubscriberRandomised({ producer: inProcess(), subscriber: inProcess(bundle), seeds, features: TS_TESTEE_FEATURES, level: "all" });
    expect(results.map((r) => `${r.status} ${r.status === "passed" ? "" : r.message?.split("\n")[0]}`)).toEqual(seeds.map(() => "passed "));
  }, 120_000);

  it("a producer that lists its sends before its event_batch outputs in one poll passes (TESTEE-PROTOCOL.md fixes no order between them)", async () => {
    const batchesLast = editing((res) => {
      const poll = res.poll;
      if (poll?.outputs) poll.outputs = [...poll.outputs.filter((o) => !o.eventBatch), ...poll.outputs.filter((o) => o.eventBatch)];
    });
    // In seed 59 a SnapshotRequest arrives while a change is still unpublished: the producer's poll then
    // holds that change's batch and the snapshot reflecting it (a check made at the send failed it).
    const results = await runSubscriberRandomised({ producer: batchesLast, subscriber: inProcess(), seeds: [1, 2, 59], features: TS_TESTEE_FEATURES, level: "all" });
    expect(results.map((r) => `${r.status} ${r.status === "passed" ? "" : r.message}`)).toEqual(["passed ", "passed ", "passed "]);
  });

  it("a subscriber that takes a restarted epoch as greeted by a subscription sent before the restart is caught (SPEC.md section 4)", async () => {
    // The reference subscriber before it greeted such an epoch again: in seed 57 its subscription after
    // silence goes out before the restart, and its next message to the new epoch was a heartbeat.
    const bundle = await importCoreBundle<CoreModule>([{ file: "subscriber/subscriber.ts", find: "      if (greetAgain) this.hello(f);", replace: "" }], "no-greet-again");
    const [r] = await runSubscriberRandomised({ producer: inProcess(), subscriber: inProcess(bundle), seeds: [57], features: TS_TESTEE_FEATURES });
    expect(r?.message?.split("\n")[0]).toMatch(
      /^seed 57: the subscriber's first message since it heard of the producer's epoch 6, which it had not greeted, is a heartbeat, not a Hello \(SPEC\.md section 4/,
    );
  }, 120_000);

  // Planted producer bugs in the TS reference's replay loop: one starts a batch past the from_sequence
  // asked, the other at 1 (or, where a small replay buffer dropped batch 1, at the batch its ring keeps
  // in that slot). Before the runner checked replay answers, the first passed seeds 1, 2, 5 and 8 of
  // 1 to 8 and failed 3, 4, 6 and 7 blaming the subscriber ("40 s after the link healed ... the
  // subscriber's view is synced, holding [...]; the producer holds [...]"); the second passed 1 to 4.
  it.each([
    ["starts one batch past the from_sequence asked", "from + 1", (asked: number, start: number) => start === asked + 1],
    ["starts at 1 whatever was asked", "1", (asked: number, start: number) => start < asked],
  ] as const)("a producer whose replay answer %s is caught, the failure naming the producer, both sequences, the seed and a replay command [E2][E1]", async (_, first, fits) => {
    const bundle = await importCoreBundle<CoreModule>(
      [{ file: "producer/producer.ts", find: "for (let s = from; s <= latest; s++) {", replace: `for (let s = ${first}; s <= latest; s++) {` }],
      "replay-from-elsewhere",
    );
    const results = await runSubscriberRandomised({
      producer: inProcess(bundle),
      subscriber: inProcess(),
      seeds: [1, 2, 3, 4],
      features: TS_TESTEE_FEATURES,
      replayCommand: (seed) => `ectp conformance --testee X --seed ${seed}`,
    });
    const failed = results.filter((r) => r.status === "failed");
    expect(failed.length, results.map((r) => r.status).join(" ")).toBeGreaterThan(0);
    const m =
      /^seed (\d+): \[E2\] the producer answered the subscriber's ReplayRequest from sequence (\d+) with batches starting at sequence (\d+) at t=\d+ \(epoch \d+; the open ReplayRequests delivered to it asked from [\d, ]+\): a replay resends every buffered batch from the from_sequence asked[^\n]*\nreplay: ectp conformance --testee X --seed (\d+)$/.exec(
        failed[0]?.message ?? "",
      );
    expect(m, failed[0]?.message).not.toBeNull();
    expect({ sameSeed: m?.[1] === m?.[4], fits: fits(Number(m?.[2]), Number(m?.[3])) }).toEqual({ sameSeed: true, fits: true });
  }, 120_000);

  it("a producer that sends a batch again unasked is caught, naming the producer and the batch [E2][E1]", async () => {
    // Every live batch to the subscriber sent twice in the same poll: the second copy answers no ReplayRequest.
    const resending = editing((res) => {
      const outputs = res.poll?.outputs;
      if (!outputs) return;
      for (const o of [...outputs]) if (o.send?.envelope?.eventBatch) outputs.push(o);
    });
    const results = await runSubscriberRandomised({ producer: resending, subscriber: inProcess(), seeds: [1], features: TS_TESTEE_FEATURES });
    expect(results[0]?.status).toBe("failed");
    expect(results[0]?.message).toMatch(
      /^seed 1: \[E2\] the producer resent batches from sequence \d+, with no ReplayRequest of the subscriber open at t=\d+ \(epoch \d+; the open ReplayRequests delivered to it asked from none\)/,
    );
  }, 120_000);

  // What each planted bug breaks; s6 breaks the handshake order, which has no requirement id of its
  // own (SPEC.md section 4). s2 (parts of two snapshot answers mixed) shows in few seeds (see the
  // module): 114, 220 and 267 of the first 300 with the TS testee's features (2026-12-05, once it
  // claimed `evict`, which changes the schedules).
  it.each([
    ["s1-", [1, 2, 3, 4, 5, 6, 7, 8], "\\[E2\\]"],
    ["s2-", [114], "\\[E2\\]"],
    ["s3-", [1, 2, 3, 4, 5, 6, 7, 8], "\\[E2\\]"],
    ["s4-", [1, 2, 3, 4, 5, 6, 7, 8], "\\[P8\\]"],
    ["s6-", [1, 2, 3, 4, 5, 6, 7, 8], "the subscriber's first message to the producer is a snapshotRequest, not a Hello"],
  ] as const)("a subscriber with planted bug %s is caught with its seed and a replay command", async (prefix, seeds, broken) => {
    const mutant = loadMutants().find((m) => m.name.startsWith(prefix));
    const bundle = await importCoreBundle<CoreModule>(mutant?.patches ?? [], `${prefix}random`);
    const results = await runSubscriberRandomised({
      producer: inProcess(),
      subscriber: inProcess(bundle),
      seeds,
      features: TS_TESTEE_FEATURES,
      replayCommand: (seed) => `ectp conformance --testee X --seed ${seed}`,
    });
    const failed = results.filter((r) => r.status === "failed");
    expect(failed.length, `${mutant?.name}: ${results.map((r) => r.status).join(" ")}`).toBeGreaterThan(0);
    expect(failed[0]?.message).toMatch(new RegExp(`^seed \\d+: ${broken}[\\s\\S]*\\nreplay: ectp conformance --testee X --seed \\d+$`));
  }, 120_000);
});

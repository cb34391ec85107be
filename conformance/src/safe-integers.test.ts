/**
 * SPEC.md 3.8: the runner fails a case whose testee sends a 64-bit integer above 2^53 - 1, wherever
 * it is in the envelope (runner/safe-integers.ts).
 */
import { describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import { loadCases } from "./cases/load.js";
import { importCoreBundle, loadMutants } from "./mutants/build.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import { unsafeIntegerIn } from "./runner/safe-integers.js";
import { runSuite } from "./runner/suite.js";
import { alteredTsTestee } from "./test-support.js";
import { inProcessTestee } from "./testee/in-process.js";

describe("[3.8] 64-bit integers a testee sends", () => {
  it("names the first one above 2^53 - 1 by its path, nested and repeated fields included; 2^53 - 1 itself is fine", () => {
    expect(unsafeIntegerIn({ senderEpoch: "9007199254740991", readGrant: { grantId: "9007199254740991", leaseMs: 30000 } })).toBeUndefined();
    expect(unsafeIntegerIn({ senderEpoch: "1", readGrant: { grantId: "9007199254740992" } })).toBe("readGrant.grantId is 9007199254740992");
    const stored = (shape: string[]) => ({ stored: { item: { sizeBytes: "4", shape, epoch: "5" } } });
    expect(unsafeIntegerIn({ eventBatch: { sequence: "3", events: [stored(["2", "2"]), stored(["1", "18446744073709551615"])] } })).toBe(
      "eventBatch.events[1].stored.item.shape[1] is 18446744073709551615",
    );
    // uint32 fields and strings that look like numbers are no 64-bit integers.
    expect(unsafeIntegerIn({ senderId: "99999999999999999999", hello: { heartbeatIntervalMs: 4294967295 } })).toBeUndefined();
  });

  it("a send of an attempt id above 2^53 - 1 fails the case, naming the field", async () => {
    const [c] = loadCases().filter((x) => x.fullName === "consumer/c1-admission/remote-load-happy-path");
    if (c === undefined) throw new Error("no case consumer/c1-admission/remote-load-happy-path");
    const wide = alteredTsTestee((res) => {
      for (const o of res.poll?.outputs ?? []) if (o.send?.envelope?.readRequest) o.send.envelope.readRequest.attemptId = 2 ** 53 + 2;
      return res;
    });
    const report = await runSuite({ testee: wide, features: TS_TESTEE_FEATURES, cases: [c], level: "all" });
    expect(report.results[0]?.message).toMatch(
      /^\[3\.8\] send to P1 at t=0: its envelope's readRequest\.attemptId is 9007199254740994, above 2\^53 - 1 \(shown as the runner holds it: a value past 2\^53 may show rounded\): senders MUST NOT send/,
    );
  });

  it("mutant x194 (snapshot ids epoch << 32 | n in a u64) fails its case at a millisecond epoch by this check, naming the snapshot id", async () => {
    const mutant = loadMutants().find((m) => m.name.startsWith("x194-"));
    if (mutant === undefined) throw new Error("no mutant x194");
    const bundle = await importCoreBundle<CoreModule>(mutant.patches, mutant.name);
    const name = "producer/e2-replay/batches-snapshots-and-replays-at-a-millisecond-epoch-stay-within-2-53";
    const cases = loadCases().filter((x) => x.fullName === name);
    const report = await runSuite({ testee: () => inProcessTestee(new CoreTesteeHandler(bundle)), features: TS_TESTEE_FEATURES, cases, level: "all" });
    expect(report.results[0]?.message).toMatch(/^\[3\.8\] send to C1 at t=0: its envelope's snapshot\.snapshotId is \d{20}, above 2\^53 - 1/);
  }, 60_000);
});

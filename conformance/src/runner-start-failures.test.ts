/**
 * A testee that stops starting mid-run (it crashed in a case and its restarts die or hang before
 * answering Init), from a review run with a testee written from TESTEE-PROTOCOL.md alone: cases the
 * features file skips were failed for the start-up, a restart's failure did not say it was the
 * restart, and every later case waited out another start-up timeout. Each test failed before its fix.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as core from "@ectp/core";
import { describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule, TS_TESTEE_FEATURES } from "../testees/ts/adapter.js";
import type { CaseSpec, LoadedCase } from "./cases/format.js";
import { runRandomised } from "./random/randomised.js";
import { runSubscriberRandomised } from "./random/subscriber-randomised.js";
import { MAX_START_FAILURES_IN_A_ROW, StartFailures, runSuite } from "./index.js";
import { cli, fakeTestee, testFolder } from "./test-support.js";
import { TesteeFault } from "./testee/connection.js";
import { inProcessTestee } from "./testee/in-process.js";
import { spawnTestee } from "./testee/subprocess.js";

const mk = (name: string, spec: Partial<CaseSpec> = {}): LoadedCase => ({
  fullName: `runner-start-failures/${name}`,
  file: "runner-start-failures.json",
  spec: { name, requirements: ["C1"], level: "REQUIRED", role: "consumer", steps: [], ...spec } as CaseSpec,
});

/** A factory whose first testee crashes at its first command, and whose later starts fail with `fault`; `starts` counts its calls. */
function crashThenNoStart(fault: () => TesteeFault): { factory: () => ReturnType<typeof inProcessTestee>; starts: { n: number } } {
  const starts = { n: 0 };
  const factory = () => {
    starts.n++;
    if (starts.n > 1) return Promise.reject(fault());
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    return inProcessTestee({
      handle: (req) => {
        if (req.configure) throw new Error("planted crash");
        return h.handle(req);
      },
    });
  };
  return { factory, starts };
}

const hung = () => new TesteeFault("hung", "no response within 10000 ms", "stuck on restart\n");

/**
 * A fake JSON-lines testee `name` that answers Init on its first start and exits 7 at its next
 * command; every later start writes "cannot start again" to stderr and exits 9 before Init. The
 * file `count` counts its starts.
 */
function startsOnce(name: string, count: string): string {
  writeFileSync(count, "0");
  return fakeTestee(
    name,
    `import fs from "node:fs"; import readline from "node:readline";
const n = Number(fs.readFileSync(${JSON.stringify(count)}, "utf8")); fs.writeFileSync(${JSON.stringify(count)}, String(n + 1));
if (n > 0) { process.stderr.write("cannot start again\\n"); process.exit(9); }
let lines = 0;
readline.createInterface({ input: process.stdin }).on("line", (l) => {
  if (++lines > 1) process.exit(7);
  process.stdout.write(JSON.stringify({ commandId: JSON.parse(l).commandId, init: { protocolVersion: 1 } }) + "\\n");
});`,
  );
}

describe("a case the features file does not cover is skipped, whether or not a testee would start", () => {
  it("a case needing an unclaimed feature is skipped without starting a testee that cannot restart", async () => {
    const { factory, starts } = crashThenNoStart(hung);
    const report = await runSuite({ testee: factory, features: ["consumer"], cases: [mk("crashes"), mk("needs-evict", { features: ["evict"] })], level: "all" });
    expect(report.results.map((r) => [r.name, r.status, r.message?.split("\n")[0]])).toEqual([
      ["runner-start-failures/crashes", "failed", "testee exited: handler threw: Error: planted crash"],
      ["runner-start-failures/needs-evict", "skipped", 'needs optional feature "evict"'],
    ]);
    expect(starts.n).toBe(1);
    expect(report).toMatchObject({ passed: 0, failed: 1, skipped: 1 });
  });
});

describe("a testee that fails to restart", () => {
  it(`says it was the restart (while init waited); after ${MAX_START_FAILURES_IN_A_ROW} failed starts in a row the later cases fail at once, counted, and no start is tried again`, async () => {
    expect(MAX_START_FAILURES_IN_A_ROW).toBe(3);
    const { factory, starts } = crashThenNoStart(hung);
    const cases = Array.from({ length: 7 }, (_, i) => mk(`c${i + 1}`));
    // One needing an unclaimed feature among them is still skipped.
    cases.splice(5, 0, mk("needs-evict", { features: ["evict"] }));
    const report = await runSuite({ testee: factory, features: ["consumer"], cases, level: "all" });
    const restart =
      "testee hung: no response within 10000 ms (while init waited for its answer, as the runner restarted the testee for this case)\n" +
      "--- testee stderr (tail) ---\nstuck on restart\n";
    const notRun = "not run: the testee failed to start 3 times in a row (the cases before say how), so the runner no longer starts it; fix the testee's start-up and rerun";
    expect(report.results.map((r) => [r.name.replace("runner-start-failures/", ""), r.status, r.message])).toEqual([
      ["c1", "failed", expect.stringMatching(/^testee exited: handler threw: Error: planted crash/)],
      ["c2", "failed", restart],
      ["c3", "failed", restart],
      ["c4", "failed", restart],
      ["c5", "failed", notRun],
      ["needs-evict", "skipped", 'needs optional feature "evict"'],
      ["c6", "failed", notRun],
      ["c7", "failed", notRun],
    ]);
    expect(starts.n).toBe(1 + MAX_START_FAILURES_IN_A_ROW);
    expect(report).toMatchObject({ passed: 0, failed: 7, skipped: 1, ok: false });
  });

  it("a start that answers Init resets the count: only failures in a row stop the starts", async () => {
    let starts = 0;
    const factory = () => {
      starts++;
      // Starts 2, 3 fail, 4 answers Init (and crashes in its case), 5, 6 fail, 7 answers.
      if ([2, 3, 5, 6].includes(starts)) return Promise.reject(new TesteeFault("exited", "exited with code 9", ""));
      const h = new CoreTesteeHandler(core as unknown as CoreModule);
      return inProcessTestee({
        handle: (req) => {
          if (req.configure && starts < 7) throw new Error("planted crash");
          return h.handle(req);
        },
      });
    };
    const cases = Array.from({ length: 7 }, (_, i) => mk(`c${i + 1}`));
    const report = await runSuite({ testee: factory, features: ["consumer"], cases, level: "all" });
    const noStart = "testee exited: exited with code 9 before answering Init, as the runner restarted the testee for this case";
    expect(report.results.map((r) => r.message?.split("\n")[0] ?? r.status)).toEqual([
      expect.stringMatching(/planted crash/),
      noStart,
      noStart,
      expect.stringMatching(/planted crash/),
      noStart,
      noStart,
      "passed",
    ]);
    expect(starts).toBe(7);
  });

  it("the first start of a run that fails says it was the start", async () => {
    const report = await runSuite({ testee: () => Promise.reject(new TesteeFault("exited", "exited with code 9", "")), features: ["consumer"], cases: [mk("c1")], level: "all" });
    expect(report.results[0]?.message).toBe("testee exited: exited with code 9 before answering Init, as the runner started the testee for this case");
  });

  it("a subprocess testee whose restarts exit before Init: the restart's exit, before answering Init, with its stderr", async () => {
    const count = join(testFolder("restart-exits"), "starts");
    const command = startsOnce("restart-exits", count);
    const cases = Array.from({ length: 5 }, (_, i) => mk(`c${i + 1}`));
    const report = await runSuite({ testee: () => spawnTestee({ command, jsonLines: true }), features: ["consumer"], cases, level: "all" });
    expect(report.results.map((r) => r.message?.split("\n")[0])).toEqual([
      "testee exited: exited with code 7 (while configure at t=0 waited for its answer)",
      "testee exited: exited with code 9 before answering Init, as the runner restarted the testee for this case",
      "testee exited: exited with code 9 before answering Init, as the runner restarted the testee for this case",
      "testee exited: exited with code 9 before answering Init, as the runner restarted the testee for this case",
      expect.stringMatching(/^not run: the testee failed to start 3 times in a row/),
    ]);
    expect(report.results[1]?.message).toContain("--- testee stderr (tail) ---\ncannot start again\n");
    expect(readFileSync(count, "utf8")).toBe("4");
  }, 30_000);
});

describe("randomised seeds whose testee fails to start (TESTEE-PROTOCOL.md §2, item 7)", () => {
  const noStart = () => Promise.reject(new TesteeFault("exited", "exited with code 9", "cannot start\n"));
  const seeds = [1, 2, 3, 4, 5, 6];
  const notRun = (seed: number) =>
    `seed ${seed}: not run: the testee failed to start 3 times in a row (the seeds before say how), so the runner no longer starts it; fix the testee's start-up and rerun\nreplay: replay ${seed}`;

  it.each(["consumer with producer", "subscriber with producer"])(
    `%s: each failed start fails its seed, saying so; after ${MAX_START_FAILURES_IN_A_ROW} in a row the later seeds fail at once, counted, and no start is tried again`,
    async (level) => {
      let starts = 0;
      const factory = () => {
        starts++;
        return noStart();
      };
      const common = { seeds, replayCommand: (n: number) => `replay ${n}`, features: TS_TESTEE_FEATURES };
      const results =
        level === "consumer with producer"
          ? await runRandomised({ consumer: factory, producer: factory, ...common })
          : await runSubscriberRandomised({ producer: factory, subscriber: factory, ...common });
      const failedStart = (seed: number) =>
        `seed ${seed}: testee exited: exited with code 9 before answering Init, as the runner started the testee for this seed\n--- testee stderr (tail) ---\ncannot start\n\nreplay: replay ${seed}`;
      expect(results.map((r) => [r.name.replace(/^.*\//, ""), r.status, r.message])).toEqual([
        ["seed-1", "failed", failedStart(1)],
        ["seed-2", "failed", failedStart(2)],
        ["seed-3", "failed", failedStart(3)],
        ["seed-4", "failed", notRun(4)],
        ["seed-5", "failed", notRun(5)],
        ["seed-6", "failed", notRun(6)],
      ]);
      expect(starts).toBe(MAX_START_FAILURES_IN_A_ROW);
    },
  );

  it("a start that answers Init ends the row: a seed whose consumer starts and whose producer does not never stops the starts", async () => {
    let producerStarts = 0;
    const producer = () => {
      producerStarts++;
      return noStart();
    };
    const consumer = () => inProcessTestee(new CoreTesteeHandler(core as unknown as CoreModule));
    const results = await runRandomised({ consumer, producer, seeds, features: TS_TESTEE_FEATURES });
    expect(results.map((r) => r.message?.split("\n")[0])).toEqual(
      seeds.map((n) => `seed ${n}: testee exited: exited with code 9 before answering Init, as the runner started the testee for this seed`),
    );
    expect(producerStarts).toBe(seeds.length);
  });

  it("a StartFailures from the package index, shared by runSuite and runRandomised, counts across both: seeds after the scripted cases' third failed start fail at once", async () => {
    const startFailures = new StartFailures();
    let starts = 0;
    const factory = () => {
      starts++;
      return noStart();
    };
    const suite = await runSuite({ testee: factory, features: ["consumer"], cases: [mk("c1"), mk("c2"), mk("c3")], level: "all", startFailures });
    expect(suite.results.map((r) => r.status)).toEqual(["failed", "failed", "failed"]);
    const results = await runRandomised({ consumer: factory, producer: factory, seeds: [1], features: TS_TESTEE_FEATURES, startFailures });
    expect(results[0]?.message).toBe(
      "seed 1: not run: the testee failed to start 3 times in a row (the cases before say how), so the runner no longer starts it; fix the testee's start-up and rerun",
    );
    expect(starts).toBe(MAX_START_FAILURES_IN_A_ROW);
  });

  it("ectp conformance counts failed starts across the run: once the scripted cases stopped starting the testee, no seed starts it, and every seed fails saying why", async () => {
    const dir = testFolder("cli-starts");
    const count = join(dir, "starts");
    const command = startsOnce("cli-starts", count);
    const features = join(dir, "features.json");
    writeFileSync(features, JSON.stringify({ features: ["consumer", "producer", "read-memory"] }));
    const r = await cli("--testee", command, "--json-lines", "--features", features, "--filter", "consumer/c1-admission/**", "--seeds", "2");
    expect(r.code).toBe(1);
    // The first case's testee exits at its first command, the next 3 cases' restarts exit: then nothing starts it.
    expect(readFileSync(count, "utf8")).toBe(String(1 + MAX_START_FAILURES_IN_A_ROW));
    for (const seed of [1, 2])
      expect(r.out).toContain(
        `seed ${seed}: not run: the testee failed to start 3 times in a row (the cases before say how), so the runner no longer starts it; fix the testee's start-up and rerun`,
      );
    expect(r.out).toMatch(/0 passed, \d+ failed/);
  }, 60_000);
});

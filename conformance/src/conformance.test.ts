import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as core from "@ectp/core";
import { describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import { loadCases } from "./cases/load.js";
import { runConformanceCli } from "./cli.js";
import { buildCoreBundle, loadMutants } from "./mutants/build.js";
import { TS_TESTEE_FEATURES, runMutants } from "./mutants/run.js";
import { TesteeRequest } from "./proto.js";
import { runRandomised } from "./random/randomised.js";
import { toJUnit, toJsonReport } from "./report/report.js";
import { globToRegExp, runSuite } from "./runner/suite.js";
import { inProcessTestee } from "./testee/in-process.js";
import { spawnTestee } from "./testee/subprocess.js";
import { PACKAGE_ROOT, bundleTsTestee } from "./test-support.js";
import { mockTransportHarness } from "./transport/mock-harness.js";
import { runTransportConformance } from "./transport/transport-suite.js";

const CASES = loadCases();
const ID_RE = /^(V[12]|C(1[01]|[1-9])|P[1-8]|E[12]|I[1-6])$/;
const inProcess = (m: CoreModule = core as unknown as CoreModule) => () => inProcessTestee(new CoreTesteeHandler(m));

describe("cases", () => {
  it("every requirement id of the brief has a REQUIRED case, and every id cited exists", () => {
    const ids = ["V1", "V2", ...Array.from({ length: 11 }, (_, i) => `C${i + 1}`), ...Array.from({ length: 8 }, (_, i) => `P${i + 1}`), "E1", "E2", ...Array.from({ length: 6 }, (_, i) => `I${i + 1}`)];
    const required = new Set(CASES.filter((c) => c.spec.level === "REQUIRED").flatMap((c) => c.spec.requirements));
    expect(ids.filter((id) => !required.has(id))).toEqual([]);
    for (const c of CASES) for (const r of c.spec.requirements) expect(r, c.fullName).toMatch(ID_RE);
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
    // Only the optional `evict` feature is missing from the TS testee.
    expect(report.results.filter((r) => r.status === "skipped").map((r) => r.name)).toEqual(["producer/p6-evict/evict-command-refuses-pinned"]);
    // Summed by scripts/ci.mjs.
    mkdirSync(join(PACKAGE_ROOT, ".ectp-out"), { recursive: true });
    writeFileSync(
      join(PACKAGE_ROOT, ".ectp-out", "conformance-ts.ectp-report.json"),
      `${JSON.stringify({ passed: report.passed, failed: report.failed })}\n`,
    );
  }, 60_000);

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
  }, 60_000);
});

describe("mutants (background failures planted in a copy of the core)", () => {
  it("every mutant is caught by at least one case, and the report lists the cases", async () => {
    const results = await runMutants({ cases: CASES });
    const failures = new Set(results.map((r) => r.failure));
    for (let f = 1; f <= 9; f++) expect(failures.has(f), `a mutant for failure ${f}`).toBe(true);
    for (const r of results) expect(r.caughtBy, `mutant ${r.name} survived`).not.toEqual([]);
    const json = toJsonReport("ts", { results: [], passed: 0, failed: 0, skipped: 0, knownFailing: 0, ok: true }, results);
    expect(json.mutants?.find((m) => m.name.startsWith("f4-"))?.caughtBy).toContain("consumer/c3-budget/survives-retries");
  }, 120_000);

  it("a mutant whose patch no longer matches the core fails loudly", async () => {
    await expect(buildCoreBundle([{ file: "config.ts", find: "no such text", replace: "" }], "stale")).rejects.toThrow(
      /occurs 0 times in config\.ts/,
    );
    expect(loadMutants().length).toBeGreaterThanOrEqual(9);
  });
});

describe("randomised level [I1]-[I6]", () => {
  it("seeded schedules pass against the TS core", async () => {
    const results = await runRandomised({ consumer: inProcess(), producer: inProcess(), seeds: [1, 2, 3], features: TS_TESTEE_FEATURES });
    expect(results.map((r) => `${r.name} ${r.status} ${r.message ?? ""}`)).toEqual(results.map((r) => `${r.name} passed `));
  }, 60_000);

  it("a consumer that encodes locally without model input (failure 1) is caught with its seed and a replay command", async () => {
    const f1 = loadMutants().find((m) => m.failure === 1);
    const bundle = (await import(await buildCoreBundle(f1?.patches ?? [], "f1-random"))) as CoreModule;
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
      "malformed-location-fails-read",
      "connect-rejects-unusable-metadata",
      "wait-is-edge-triggered",
      "close-settles-unsettled-reads",
    ]);
  }, 60_000);

  it("a harness with a skip reason reports every case skipped with that reason and calls nothing", async () => {
    const fail = () => Promise.reject(new Error("must not be called"));
    const results = await runTransportConformance({ name: "x", skipReason: "build it first", createPeers: fail, advance: fail, killPeer: fail });
    expect(results).toHaveLength(11);
    expect(results.every((r) => r.status === "skipped" && r.message === "build it first" && r.name.startsWith("transport/x/"))).toBe(true);
  });

  it("a transport that breaks the contract fails the case with a reason (the suite can fail)", async () => {
    const inner = mockTransportHarness(1);
    const results = await runTransportConformance({
      ...inner,
      name: "broken",
      async createPeers() {
        const p = await inner.createPeers();
        // Reports every read twice: exactly-once must catch it.
        const poll = p.reader.poll.bind(p.reader);
        p.reader.poll = () => {
          const a = poll();
          return { ...a, reads: a.reads.flatMap((r) => [r, r]) };
        };
        return p;
      },
    });
    const byName = new Map(results.map((r) => [r.name, r]));
    expect(byName.get("transport/broken/byte-exact-reads-at-odd-offsets")).toMatchObject({ status: "failed", message: "read of 1 bytes settled 2 times; exactly once is required" });
    expect(byName.get("transport/broken/messages-arrive-once-intact-as-copies")?.status).toBe("passed");
  }, 60_000);

  it("a transport that reports a wrong CRC-32C, or one nobody asked for, fails the crc32c case", async () => {
    const inner = mockTransportHarness(1);
    const run = (change: (r: core.ReadResult) => core.ReadResult) =>
      runTransportConformance(
        {
          ...inner,
          name: "broken",
          async createPeers() {
            const p = await inner.createPeers();
            const poll = p.reader.poll.bind(p.reader);
            p.reader.poll = () => {
              const a = poll();
              return { ...a, reads: a.reads.map(change) };
            };
            return p;
          },
        },
        { select: (name) => name.endsWith("/reported-crc32c-is-that-of-the-landed-bytes") },
      );
    const [wrong] = await run((r) => (r.crc32c === undefined ? r : { ...r, crc32c: (r.crc32c ^ 1) >>> 0 }));
    expect(wrong).toMatchObject({ status: "failed", message: expect.stringMatching(/^read of 1 bytes reported crc32c \d+; the landed bytes' CRC-32C is \d+$/) });
    const [unasked] = await run((r) => ({ ...r, crc32c: r.crc32c ?? 0 }));
    expect(unasked).toMatchObject({ status: "failed", message: expect.stringMatching(/^read of 1 bytes reported crc32c 0 without being asked$/) });
  }, 60_000);
});

describe("runner self-tests", () => {
  it("frames are 4-byte big-endian length prefixed (golden frame of TESTEE-PROTOCOL.md §3.3)", () => {
    const payload = TesteeRequest.encode({ commandId: 1, init: { protocolVersion: 1 } }).finish();
    expect(Buffer.from(payload).toString("hex")).toBe("080152020801");
  });

  it("globs select by case name", () => {
    expect(globToRegExp("consumer/c3-*").test("consumer/c3-budget/survives-retries")).toBe(true);
    expect(globToRegExp("consumer/*/survives-retries").test("consumer/c3-budget/survives-retries")).toBe(true);
    expect(globToRegExp("producer/**").test("consumer/c3-budget/survives-retries")).toBe(false);
  });

  it("JUnit output escapes messages and counts failures", () => {
    const xml = toJUnit("x", {
      results: [{ name: "a/b/c", level: "REQUIRED", requirements: ["C1"], catches: [], status: "failed", message: "<bad> & \u0001", durationMs: 1 }],
      passed: 0,
      failed: 1,
      skipped: 0,
      knownFailing: 0,
      ok: false,
    });
    expect(xml).toContain('failures="1"');
    expect(xml).toContain("&lt;bad&gt; &amp; ?");
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
    expect(r2.results[0]?.message).toMatch(/testee malformed: unreadable output: \[FRAME_TOO_LARGE\]/);
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

describe("runConformanceCli", () => {
  it("runs a filtered suite against a subprocess testee and writes JUnit, JSON and the ectp-report summary", async () => {
    const command = await bundleTsTestee();
    const dir = mkdtempSync(join(tmpdir(), "ectp-cli-"));
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
    expect(report.results.some((r: { name: string }) => r.name === "randomised/seed-1")).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "out.ectp-report.json"), "utf8"))).toEqual({ passed: report.passed, failed: 0 });
  }, 60_000);

  it("--transport mock runs the transport level in both clock modes, filtered, into the JSON report", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ectp-cli-"));
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

  it("usage errors exit 2; a known-failing entry without a reason is refused", async () => {
    expect(await runConformanceCli(["--level", "some"])).toBe(2);
    expect(await runConformanceCli(["--testee", "x", "--level", "some"])).toBe(2);
    const dir = mkdtempSync(join(tmpdir(), "ectp-cli-"));
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

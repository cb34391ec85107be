/**
 * `ectp conformance` command line: bad flags, bad files and a testee that cannot start are
 * usage errors or one clear error (exit 2), never a stack trace, a crash or a silent pass.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { TS_TESTEE_FEATURES } from "../testees/ts/adapter.js";
import { loadCases } from "./cases/load.js";
import { KNOWN_FEATURES } from "./cli.js";
import { defaultCaseTimeoutMs } from "./runner/script.js";
import { bundleTsTestee, cli, expectUsageError, fakeTestee, procRefusal } from "./test-support.js";

// This file's scratch folders are made in one folder, removed after its tests, passed or failed.
const work = mkdtempSync(join(tmpdir(), "ectp-cli-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function tempDir(): string {
  return mkdtempSync(join(work, "cli-test-"));
}

function file(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("ectp conformance: --seeds bounds (defect 1)", () => {
  it.each(["100001", "1000000000", "5000000000", "99999999999999999999"])("--seeds %s is refused naming the flag, the range and the value", async (n) => {
    expectUsageError(await cli("--testee", "never-started", "--seeds", n), `--seeds must be an integer from 0 to 100000; got "${n}"`);
  });

  it("--seeds 100000 passes the bound (this run is refused only because nothing in it would run)", async () => {
    const r = await cli("--testee", "never-started", "--filter", "subscriber/**", "--seeds", "100000");
    expectUsageError(r, "so nothing would run");
    expect(r.err).not.toContain("must be an integer");
  }, 60_000);

  it("without --case-timeout-ms a case may take a minute, or ten command timeouts when that is longer", () => {
    expect(defaultCaseTimeoutMs(5_000, 2 ** 31 - 1)).toBe(60_000);
    expect(defaultCaseTimeoutMs(30_000, 2 ** 31 - 1)).toBe(300_000);
    expect(defaultCaseTimeoutMs(2 ** 31 - 1, 2 ** 31 - 1)).toBe(2 ** 31 - 1);
  });

  it("--case-timeout-ms must be a whole number of ms from 1 to what a timer can wait", async () => {
    for (const bad of ["0", "1.5", "2147483648"]) {
      const r = await cli("--testee", "true", "--case-timeout-ms", bad);
      expect(r.code).toBe(2);
      expect(r.err).toContain("--case-timeout-ms");
    }
  });

  it("--seed-timeout-ms must be a whole number of ms from 1 to what a timer can wait", async () => {
    for (const bad of ["0", "1.5", "2147483648"])
      expectUsageError(await cli("--testee", "never-started", "--seed-timeout-ms", bad), `--seed-timeout-ms must be an integer from 1 to 2147483647; got "${bad}"`);
  });

  it("--command-timeout-ms above what a timer can wait is refused", async () => {
    expectUsageError(
      await cli("--testee", "never-started", "--command-timeout-ms", "3000000000"),
      '--command-timeout-ms must be an integer from 1 to 2147483647; got "3000000000"',
    );
  });
});

describe("ectp conformance: runs that would run nothing or ignore input (defect 2)", () => {
  it("a --filter matching no case is a usage error naming the filter", async () => {
    expectUsageError(await cli("--transport", "mock", "--filter", "no-such-case/**"), '--filter "no-such-case/**" matches none of');
    expectUsageError(await cli("--testee", "never-started", "--filter", "consumer/no-such-group/**"), '--filter "consumer/no-such-group/**" matches none of the scripted cases');
  });

  it("a --filter matching only RECOMMENDED cases under --level required says to add --level all", async () => {
    const recommended = loadCases().find((c) => c.spec.level === "RECOMMENDED");
    expect(recommended).toBeDefined();
    expectUsageError(await cli("--testee", "never-started", "--filter", recommended?.fullName ?? ""), "add --level all");
  });

  it("a single-valued flag given twice is a usage error", async () => {
    expectUsageError(await cli("--transport=mock", "--transport=nixl"), '--transport is given 2 times ("mock", "nixl"); give it once');
    expectUsageError(await cli("--testee", "a", "--testee", "b"), "--testee is given 2 times");
  });

  it("--seed and --seeds together, or either without --testee, are usage errors", async () => {
    expectUsageError(await cli("--testee", "never-started", "--seed", "3", "--seeds", "2"), "give one of them");
    expectUsageError(await cli("--transport", "mock", "--seeds", "3"), "it needs --testee");
  });

  it("a features file naming an unknown feature is refused, listing the known ones", async () => {
    const dir = tempDir();
    const features = file(dir, "f.json", JSON.stringify({ features: ["consumer", "bogus"] }));
    expectUsageError(await cli("--testee", "never-started", "--features", features), 'unknown feature "bogus"', `the known features are ${KNOWN_FEATURES.join(", ")}`);
    const noRole = file(dir, "n.json", JSON.stringify({ features: ["evict"] }));
    expectUsageError(await cli("--testee", "never-started", "--features", noRole), "claims no role");
  });

  it("the known features are those of TESTEE-PROTOCOL.md §7, the TS testee's and every case's", () => {
    const doc = readFileSync(join(__dirname, "..", "TESTEE-PROTOCOL.md"), "utf8");
    const section = doc.slice(doc.indexOf("## 7."), doc.indexOf("## 8."));
    expect([...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1])).toEqual([...KNOWN_FEATURES]);
    for (const f of TS_TESTEE_FEATURES) expect(KNOWN_FEATURES).toContain(f);
    for (const c of loadCases())
      for (const f of [...(c.spec.role === "any" ? [] : [c.spec.role]), ...(c.spec.features ?? [])]) expect(KNOWN_FEATURES, c.fullName).toContain(f);
  });

  it("a known-failing entry naming no case is refused, naming the entry (with the nearest name)", async () => {
    const dir = tempDir();
    const known = file(
      dir,
      "k.json",
      JSON.stringify({ "no/such/case": "typo", "consumer/c1-admission/local-item-is-redy": "typo", "randomised/i1-i2-i3-i4-i5-i6-c6/seed-4": "ok", "transport/mock/byte-exact-reads-at-odd-offsets": "ok" }),
    );
    const r = await cli("--testee", "never-started", "--known-failing", known);
    expectUsageError(r, '"no/such/case"', "did you mean consumer/c1-admission/local-item-is-ready?");
    expect(r.err).not.toContain('"randomised/i1-i2-i3-i4-i5-i6-c6/seed-4"');
    expect(r.err).not.toContain('"transport/mock/byte-exact-reads-at-odd-offsets"');
  });
  it("a known-failing seed written with a leading zero is refused: no seed's case is named so", async () => {
    const known = file(tempDir(), "k.json", JSON.stringify({ "randomised/i1-i2-i3-i4-i5-i6-c6/seed-04": "flaky" }));
    expectUsageError(await cli("--testee", "never-started", "--known-failing", known), '"randomised/i1-i2-i3-i4-i5-i6-c6/seed-04"');
  });
});

describe("ectp conformance: files and output paths (defect 3)", () => {
  const dir = tempDir();
  const cases: [string, string, string][] = [
    ["not JSON", file(dir, "bad.json", "nope\n"), "is not JSON"],
    ["empty", file(dir, "empty.json", ""), "is empty"],
    ["a directory", dir, "is a directory"],
    ["missing", join(dir, "missing.json"), "cannot be read (no such file)"],
    ["endless (a device that never ends: read up to a bound, not until memory runs out)", "/dev/zero", `is larger than ${16 << 20} bytes (or endless)`],
  ];
  it.each(cases)("a --features file that is %s names the flag, the path and the expected format", async (_, path, why) => {
    expectUsageError(await cli("--testee", "never-started", "--features", path), `--features ${JSON.stringify(path)} ${why}`, '{"features": ["consumer", "producer", ...]}');
  });
  it.each(cases)("a --known-failing file that is %s names the flag, the path and the expected format", async (_, path, why) => {
    expectUsageError(await cli("--testee", "never-started", "--known-failing", path), `--known-failing ${JSON.stringify(path)} ${why}`, '{"<case name>": "<reason>", ...}');
  });

  it("an unwritable --junit or --report is refused before anything runs", async () => {
    const out = tempDir();
    expectUsageError(await cli("--transport", "mock", "--junit", out), `--junit cannot write ${JSON.stringify(out)}: it is a directory`, "nothing was run");
    const notDir = file(out, "plain", "x");
    expectUsageError(await cli("--transport", "mock", "--report", join(notDir, "r.json")), `${notDir} is not a directory`);
    // Two levels below the file: the file is named, not the system's ENOTDIR.
    expectUsageError(await cli("--transport", "mock", "--report", join(notDir, "sub", "r.json")), `${notDir} is not a directory`);
    // "-" is a file name here, not standard output (which carries the terminal report).
    expectUsageError(await cli("--transport", "mock", "--report", "-"), '--report cannot write "-": it would be a file named "-"');
    expectUsageError(await cli("--transport", "mock", "--junit=-"), '--junit cannot write "-": it would be a file named "-"');
    mkdirSync(join(out, "ro"));
    chmodSync(join(out, "ro"), 0o500);
    if (process.getuid?.() !== 0) expectUsageError(await cli("--transport", "mock", "--report", join(out, "ro", "r.json")), "--report cannot write");
    expectUsageError(await cli("--transport", "mock", "--report", join(out, "r.json"), "--junit", join(out, "r.json")), "both write");
  });

  it("--junit and --report naming one file spelt two ways is refused too", async () => {
    const out = tempDir();
    const r = await cli("--transport", "mock", "--report", join(out, "r.json"), "--junit", `${out}/./sub/../r.json`);
    expectUsageError(r, "both write", "give them different file names");
  });

  it("--junit and --report into directories that do not exist yet are fine (they are created)", async () => {
    const out = tempDir();
    const r = await cli("--transport", "mock", "--filter", "transport/mock/byte-exact-*", "--junit", join(out, "a", "b.xml"), "--report", join(out, "c", "d.json"));
    expect(r.code).toBe(0);
    expect(readFileSync(join(out, "a", "b.xml"), "utf8")).toContain("<testsuites");
    expect(JSON.parse(readFileSync(join(out, "c", "d.ectp-report.json"), "utf8"))).toEqual({ passed: 1, failed: 0 });
  }, 60_000);
});

describe("ectp conformance: parser errors (defect 4)", () => {
  it.each([
    [["--testee", "x", "--seeds"], "--seeds needs a value"],
    [["--testee", "x", "--seeds", "-5"], '--seeds needs a value; to pass one that starts with "-", write --seeds=<value>'],
    [["--help=1"], "--help does not take a value"],
    [["--bogus"], "unknown option --bogus"],
    [["--testee", "x", "stray"], 'unexpected argument "stray"'],
    [["--", "--testee", "x"], 'unexpected argument "--testee" after "--", which ends the options; drop the "--"'],
    [["--testee", ""], "--testee is empty; give the command that starts the testee"],
    [["--testee", "x", "--filter", ""], "--filter is empty"],
    [[], "--testee or --transport is required"],
    [["--json-lines", "--level", "all"], "--testee or --transport is required"],
  ])("%j: %s", async (argv, message) => {
    expectUsageError(await cli(...argv), `ectp conformance: ${message}`);
  });
});

describe("ectp conformance: skip reasons (defect 5)", () => {
  afterEach(() => {
    vi.doUnmock("@ectp/transport-nixl");
    vi.resetModules();
  });

  it("without --features a role skip names the default features and --features", async () => {
    const r = await cli("--testee", await bundleTsTestee(), "--filter", "*/c10-*/**"); // consumer cases run, subscriber ones are skipped
    expect(r.code).toBe(0);
    expect(r.out).toContain("role subscriber is not in the default features (consumer, producer); pass --features");
    expect(r.out).not.toContain("not in the features file");
  }, 60_000);

  it.each([["subscriber"], ["producer"]])(
    "[C10] a features file claiming only %s and stream-framing runs the stream-framing cases (role any), rather than refusing the selection",
    async (role) => {
      const dir = tempDir();
      const features = file(dir, "features.json", JSON.stringify({ features: [role, "stream-framing"] }));
      const r = await cli("--testee", await bundleTsTestee(), "--features", features, "--filter", "*/c10-stream-framing/**");
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/\b[1-9]\d* passed, 0 failed, 0 skipped\b/);
    },
    60_000,
  );

  it("--seeds runs the subscriber level when the features claim producer, events and subscriber (and not the consumer level without read-memory); its seeds may be listed known-failing", async () => {
    const dir = tempDir();
    const features = file(dir, "features.json", JSON.stringify({ features: ["producer", "events", "subscriber"] }));
    const known = file(dir, "known.json", JSON.stringify({ "randomised/e1-e2-p8-i1-i4/seed-9": "a name the runner accepts (seed 9 does not run here)" }));
    const report = join(dir, "report.json");
    const r = await cli("--testee", await bundleTsTestee(), "--features", features, "--known-failing", known, "--filter", "subscriber/c10-ignored/**", "--seeds", "2", "--report", report);
    expect({ code: r.code, warned: r.err.includes("randomised schedules need") }).toEqual({ code: 0, warned: false });
    const results = (JSON.parse(readFileSync(report, "utf8")) as { results: { name: string; status: string }[] }).results;
    expect(results.filter((x) => x.name.startsWith("randomised/")).map((x) => `${x.name} ${x.status}`)).toEqual([
      "randomised/e1-e2-p8-i1-i4/seed-1 passed",
      "randomised/e1-e2-p8-i1-i4/seed-2 passed",
    ]);
  }, 60_000);

  it("--seeds-from k --seeds n runs schedules k to k + n - 1, and --seeds-only runs them without the scripted cases", async () => {
    const dir = tempDir();
    const features = file(dir, "features.json", JSON.stringify({ features: ["producer", "events", "subscriber"] }));
    const report = join(dir, "report.json");
    const r = await cli("--testee", await bundleTsTestee(), "--features", features, "--seeds", "2", "--seeds-from", "5001", "--seeds-only", "--report", report);
    expect(r.code).toBe(0);
    const results = (JSON.parse(readFileSync(report, "utf8")) as { results: { name: string; status: string }[] }).results;
    expect(results.map((x) => `${x.name} ${x.status}`)).toEqual(["randomised/e1-e2-p8-i1-i4/seed-5001 passed", "randomised/e1-e2-p8-i1-i4/seed-5002 passed"]);
  }, 60_000);

  it("--seeds-only and --seed compare InitResult.features with the features file too, and warn once per direction (TESTEE-PROTOCOL.md §2, item 3)", async () => {
    const dir = tempDir();
    const features = file(dir, "features.json", JSON.stringify({ features: ["producer", "events", "subscriber", "evict"] }));
    // JSON lines: an InitResult listing consumer but not evict, then an Error for every command.
    const testee = fakeTestee(
      "lists-consumer-not-evict",
      `import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line);
  const body = req.init
    ? { init: { protocolVersion: 1, features: ["consumer", "producer", "events", "subscriber"] } }
    : { error: { message: "not implemented" } };
  process.stdout.write(JSON.stringify({ commandId: req.commandId, ...body }) + "\\n");
});
process.stdin.on("end", () => process.exit(0));`,
    );
    for (const only of [["--seeds", "1", "--seeds-only"], ["--seed", "5001"]]) {
      const r = await cli("--testee", testee, "--json-lines", "--features", features, ...only);
      const warnings = r.err.split("\n").filter((l) => l.startsWith("warning: ") && l.includes("InitResult"));
      expect(warnings, only.join(" ")).toEqual([
        "warning: the testee's InitResult lists features the features file does not claim: consumer (the runner follows the features file: cases needing them are skipped)",
        "warning: the features file claims features the testee's InitResult does not list: evict (the runner follows the features file: an Unsupported answer for them fails the case)",
      ]);
    }
  }, 60_000);

  it.each([
    [["--seeds-from", "3"], "--seeds-from goes with --seeds n (it starts their range); give --seeds too"],
    [["--seeds-only"], "--seeds-only goes with --seeds n (it leaves the scripted cases out); give --seeds too"],
    [["--seeds", "0", "--seeds-only"], "--seeds-only with --seeds 0 would run nothing; give --seeds n with n >= 1"],
    [["--seeds", "2", "--seeds-only", "--filter", "consumer/**"], '--filter selects scripted cases, which --seeds-only leaves out; drop --filter "consumer/**" or --seeds-only'],
    [["--seeds", "2", "--seeds-from", "9007199254740991"], "--seeds-from 9007199254740991 --seeds 2 runs past schedule 9007199254740991 (2^53 - 1); start lower or run fewer"],
    [["--seeds", "2", "--seeds-from=-1"], '--seeds-from must be an integer from 0 to 9007199254740991 (2^53 - 1); got "-1"'],
    // Integers past 2^53 - 1 were told "must be an integer >= 0": the message names the range's top.
    [["--seeds", "2", "--seeds-from", "9007199254740992"], '--seeds-from must be an integer from 0 to 9007199254740991 (2^53 - 1); got "9007199254740992"'],
    [["--seed", "9007199254740993"], '--seed must be an integer from 0 to 9007199254740991 (2^53 - 1); got "9007199254740993"'],
  ])("%j is a usage error (exit 2) saying what to do", async (flags, message) => {
    const r = await cli("--testee", "true", ...flags);
    expect({ code: r.code, err: r.err.split("\n")[0] }).toEqual({ code: 2, err: `ectp conformance: ${message}` });
  });

  it("a run in which every selected case was skipped for an optional feature exits 2 (it would pass having tested nothing)", async () => {
    const dir = mkdtempSync(join(work, "features-"));
    const features = join(dir, "features.json");
    writeFileSync(features, JSON.stringify({ features: ["producer"] })); // no "events": every e2-replay case is skipped
    const r = await cli("--testee", await bundleTsTestee(), "--features", features, "--filter", "producer/e2-replay/**");
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/0 passed, 0 failed, \d+ skipped/);
    expect(r.err.endsWith(
      "ectp conformance: every selected case was skipped (the reasons are above), so nothing was tested; claim the features they need in --features, or select other cases\n",
    )).toBe(true);
  }, 60_000);

  // The run started the testee before any case, though every case (and seed) would be skipped: a
  // testee that could not start made it exit with the start-up error instead of the skips' report.
  it.each([
    ["scripted cases", []],
    ["scripted cases and --seeds", ["--seeds", "2"]],
  ])("a run in which every selected %s would be skipped for a feature never starts the testee", async (_, more) => {
    const dir = tempDir();
    const marker = join(dir, "started");
    const features = file(dir, "features.json", JSON.stringify({ features: ["producer"] })); // no "events", no consumer or read-memory for the seeds
    const r = await cli("--testee", `echo started >> '${marker}'; exit 3`, "--features", features, "--filter", "producer/e2-replay/**", ...more);
    expect(existsSync(marker)).toBe(false);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/NOTHING TESTED: 0 passed, 0 failed, \d+ skipped/);
    if (more.length > 0) expect(r.out).toContain("needs features consumer, producer and read-memory");
    expect(r.err.endsWith("so nothing was tested; claim the features they need in --features, or select other cases\n")).toBe(true);
  });

  // Mutant: a file that cannot be written after the run exits 2 ("nothing was tested"), even when a
  // case failed: a CI script treating 2 as "skip" hid the failure.
  it("a --junit file that cannot be written after the run: 1 when a case failed, else 74, and the run's summary stands", async () => {
    const one = "consumer/c1-admission/remote-load-happy-path";
    const testee = await bundleTsTestee();
    const passed = await cli("--testee", testee, "--filter", one, "--junit", "/dev/full");
    expect(passed.code).toBe(74);
    expect(passed.out).toContain("PASS: 1 passed, 0 failed");
    expect(passed.err).toMatch(/^ectp conformance: --junit could not write "\/dev\/full": ENOSPC/m);
    const known = file(tempDir(), "known.json", JSON.stringify({ [one]: "listed to fail, but it passes: an unexpected pass fails the run" }));
    const failed = await cli("--testee", testee, "--filter", one, "--known-failing", known, "--junit", "/dev/full");
    expect(failed.code).toBe(1);
    expect(failed.out).toContain("0 passed, 1 failed");
    const features = file(tempDir(), "features.json", JSON.stringify({ features: ["producer"] })); // every e2-replay case skipped
    const nothing = await cli("--testee", testee, "--features", features, "--filter", "producer/e2-replay/**", "--junit", "/dev/full");
    expect(nothing.code).toBe(2); // nothing was tested, whatever the file
    expect(nothing.err).toContain("so nothing was tested");
  }, 60_000);

  // Node 20's recursive mkdirSync spun forever (deaf to SIGTERM) under a parent that cannot hold
  // directories; then the run wrote its report only after every case, and exited 74. Now the path
  // is refused before the testee starts.
  it.runIf(process.platform === "linux")("a --report under a directory that cannot be made is a usage error before the run, not a hang or a 74 after it", async () => {
    const r = await cli("--testee", await bundleTsTestee(), "--filter", "consumer/c1-admission/remote-load-happy-path", "--report", "/proc/ectp-none/dir/r.json");
    expectUsageError(
      r,
      `--report cannot write "/proc/ectp-none/dir/r.json": ${procRefusal("directory /proc/ectp-none does not exist and cannot be created: /proc takes no new directories (ENOENT)")}; nothing was run`,
    );
  }, 60_000);

  it("a run in which every selected case or seed would be skipped is refused (it would pass having tested nothing)", async () => {
    expectUsageError(
      await cli("--testee", "never-started", "--filter", "subscriber/**", "--level", "all"),
      "every selected case needs a role the features do not claim (subscriber; claimed: consumer, producer), so nothing would run",
    );
    expectUsageError(await cli("--testee", "never-started", "--seed", "3"), "the randomised schedules need the features", "so nothing would run");
  });

  it("--seed replays one schedule, which --filter does not select: giving both is refused", async () => {
    expectUsageError(await cli("--testee", "never-started", "--seed", "3", "--filter", "zzz"), "--seed 3 replays one randomised schedule, which --filter does not select");
  });

  it("a transport's skip reason is printed once, not once per case (the JSON report keeps it per case); the run exits 2", async () => {
    vi.resetModules();
    vi.doMock("@ectp/transport-nixl", () => ({ nixlTransportHarness: undefined }));
    const fresh = (await import("./cli.js")).runConformanceCli;
    const dir = tempDir();
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    let code: number;
    let text: string;
    try {
      code = await fresh(["--transport", "nixl", "--report", join(dir, "r.json")]);
      text = [...out.mock.calls, ...err.mock.calls].map((c) => String(c[0])).join("");
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    expect(code).toBe(2); // nothing of the transport was tested
    const reason = "does not export nixlTransportHarness()";
    expect(text.split(reason).length - 1).toBe(1); // once, standard output and standard error together
    expect(text).toMatch(/^ {2}\d+ .*does not export nixlTransportHarness\(\)/m); // one line for every case skipped so
    const report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8")); // written, as a testee run that tested nothing writes it
    expect(report.skipped).toBeGreaterThan(1);
    for (const res of report.results) expect(res.message).toContain(reason);
  });
});

describe("ectp conformance: a --transport whose backend cannot be loaded tested nothing (exit 2)", () => {
  /** The load error an addon-less @ectp/transport-nixl gives its harness (the one a GPU box without the built addon sees). */
  const ADDON_MISSING = "[TRANSPORT_UNAVAILABLE] the NIXL native addon is not available here; build it with NIXL_PREFIX=<nixl prefix> npm rebuild @ectp/nixl-native";
  /** Two cases of the testee (consumer, producer: the default features) and transport/<name>/malformed-location-fails-read. */
  const BOTH = "*/*/malformed-*";

  afterEach(() => {
    vi.doUnmock("@ectp/transport-nixl");
    vi.resetModules();
  });

  /** Run the CLI with @ectp/transport-nixl replaced by `mod`, its output collected. */
  async function withNixl(mod: () => object, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    vi.resetModules();
    vi.doMock("@ectp/transport-nixl", mod);
    const fresh = (await import("./cli.js")).runConformanceCli;
    let out = "";
    let err = "";
    const code = await fresh(argv, {
      out: (t) => {
        out += t;
      },
      err: (t) => {
        err += t;
      },
    });
    return { code, out, err };
  }
  /** The package loads, but its harness has no addon: every case carries the load error as its skip reason. */
  const addonMissing = () => ({
    nixlTransportHarness: () => ({
      name: "nixl",
      skipReason: ADDON_MISSING,
      createPeers: () => Promise.reject(new Error("never called")),
      advance: () => Promise.reject(new Error("never called")),
      killPeer: () => Promise.reject(new Error("never called")),
    }),
  });

  it("--transport nixl alone, its addon missing: exit 2, the reason once, and last lines saying nothing of the transport was tested and what to do", async () => {
    const dir = tempDir();
    const r = await withNixl(addonMissing, "--transport", "nixl", "--junit", join(dir, "j.xml"));
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/\nNOTHING TESTED: 0 passed, 0 failed, (\d+) skipped, 0 known failing \(\1 cases\)\n$/);
    expect((r.out + r.err).split(ADDON_MISSING).length - 1).toBe(1);
    expect(r.err.endsWith(
      "ectp conformance: every selected transport/nixl case was skipped, so nothing of the transport was tested: its backend could not be loaded; build or install it as the reason above says, and run again\n",
    )).toBe(true);
    expect(r.err).not.toContain("claim the features"); // no testee was named
    expect(readFileSync(join(dir, "j.xml"), "utf8")).toContain("<testsuites"); // written, as a testee run that tested nothing writes it
  });

  it("--transport nixl alone, the package not loadable at all: exit 2 with the load error", async () => {
    const r = await withNixl(() => {
      throw new Error("Cannot find package '@ectp/transport-nixl'");
    }, "--transport", "nixl");
    expect(r.code).toBe(2);
    expect(r.out).toContain("@ectp/transport-nixl could not be loaded");
    expect(r.out).toMatch(/\nNOTHING TESTED: 0 passed, 0 failed, \d+ skipped/);
    expect(r.err).toContain("so nothing of the transport was tested");
  });

  it("a --testee whose cases pass beside --transport nixl without its addon exits 2: the transport named was not tested", async () => {
    const r = await withNixl(addonMissing, "--testee", await bundleTsTestee(), "--transport", "nixl", "--filter", BOTH);
    expect(r.code, r.err).toBe(2);
    expect(r.out).toMatch(/\nTRANSPORT NOT TESTED: 2 passed, 0 failed, 1 skipped, 0 known failing \(3 cases\)\n$/);
    expect(r.out.split(ADDON_MISSING).length - 1).toBe(1);
    expect(r.err.endsWith(
      "ectp conformance: every selected transport/nixl case was skipped, so nothing of the transport was tested, though --transport nixl named it (the run's other cases ran): its backend could not be loaded; build or install it as the reason above says, and run again\n",
    )).toBe(true);
  }, 60_000);

  it("a failed case beside --transport nixl without its addon exits 1, not 2 (a failure comes first)", async () => {
    const known = file(tempDir(), "known.json", JSON.stringify({ "consumer/c10-ignored/malformed-envelopes-ignored": "listed, but it passes: an unexpected pass fails the run" }));
    const r = await withNixl(addonMissing, "--testee", await bundleTsTestee(), "--transport", "nixl", "--filter", BOTH, "--known-failing", known);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/\nFAIL: 1 passed, 1 failed, 1 skipped/);
    expect(r.err).not.toContain("nothing of the transport was tested");
  }, 60_000);
});

describe("ectp conformance: a testee that cannot start (defect 6)", () => {
  it("a command that does not exist stops the run with one error naming it and its exit status", async () => {
    const r = await cli("--testee", "/nonexistent/binary", "--level", "all");
    expect(r.code).toBe(2);
    expect(r.err).toContain('ectp conformance: the testee did not start, so no case was run: "/nonexistent/binary" exited with code 127 before answering Init');
    expect(r.err).toContain("hint: exit status 127");
    expect(r.err).not.toContain("Usage:");
    expect(r.out).not.toContain("FAIL");
  });

  it("a command that is not executable is told so (exit status 126)", async () => {
    const dir = mkdtempSync(join(work, "cli-noexec-"));
    const file = join(dir, "testee.sh");
    writeFileSync(file, "#!/bin/sh\nexit 0\n");
    chmodSync(file, 0o644);
    const r = await cli("--testee", file, "--level", "all");
    expect(r.code).toBe(2);
    expect(r.err).toContain(`ectp conformance: the testee did not start, so no case was run: ${JSON.stringify(file)} exited with code 126 before answering Init`);
    expect(r.err).toContain("hint: exit status 126: the command is not executable; chmod +x it or run it through its interpreter");
  });

  it("a testee answering Init with something else than InitResult, or another protocol version, is told what it answered", async () => {
    const answering = (name: string, line: string) =>
      fakeTestee(name, `process.stdin.once("data", () => process.stdout.write(${JSON.stringify(`${line}\n`)})); process.stdin.on("end", () => process.exit(0));`);
    const refused = await cli(
      "--testee",
      answering("init-error", '{"commandId":"1","error":{"code":"UNSUPPORTED_PROTOCOL","message":"only 2"}}'),
      "--json-lines",
    );
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('did not answer Init properly: it answered {"commandId":"1","error":{"message":"only 2","code":"UNSUPPORTED_PROTOCOL"}}');
    expect(refused.err).toContain("hint: the testee does not speak testee protocol version 1 (TESTEE-PROTOCOL.md §2)");
    const v2 = await cli("--testee", answering("init-v2", '{"commandId":"1","init":{"protocolVersion":2}}'), "--json-lines");
    expect(v2.code).toBe(2);
    expect(v2.err).toContain("did not answer Init properly: it answered protocol_version 2; it MUST echo the version asked for, 1 (TESTEE-PROTOCOL.md §2, item 3)");
    expect(v2.err).not.toContain("hint:");
  }, 30_000);

  it("a testee writing JSON lines where binary frames were expected is told to pass --json-lines, and the reverse", async () => {
    const json = fakeTestee(
      "json-on-binary",
      `process.stdin.once("data", () => process.stdout.write('{"commandId":"1","init":{"protocolVersion":1}}\\n')); process.stdin.on("end", () => process.exit(0));`,
    );
    const r1 = await cli("--testee", json);
    expect(r1.code).toBe(2);
    expect(r1.err).toContain("looks like JSON text: if it speaks JSON lines, run with --json-lines");
    const binary = fakeTestee(
      "binary-on-json",
      `process.stdin.once("data", () => process.stdout.write(Buffer.from([0, 0, 0, 6, 8, 1, 0x5a, 2, 8, 1]))); process.stdin.on("end", () => process.exit(0));`,
    );
    const r2 = await cli("--testee", binary, "--json-lines");
    expect(r2.code).toBe(2);
    expect(r2.err).toContain("looks like a binary frame: if it speaks binary frames, run without --json-lines");
    expect(r2.err).not.toContain("did not answer Init within"); // told at once, not after the start-up timeout
  }, 30_000);

  it("a JSON-lines testee started without --json-lines (it waits for a newline the binary Init lacks) is told to pass it after the start-up timeout", async () => {
    // Reads lines, answers nothing until one ends: the binary Init frame has no newline.
    const waiting = fakeTestee(
      "waits-for-a-line",
      `let buf = ""; process.stdin.on("data", (d) => { buf += d.toString("latin1"); if (buf.includes("\\n")) process.stdout.write("{}\\n"); }); process.stdin.on("end", () => process.exit(0));`,
    );
    const r = await cli("--testee", waiting);
    expect(r.code).toBe(2);
    expect(r.err).toContain("did not answer Init within 10000 ms");
    expect(r.err).toContain("hint: a testee that speaks JSON lines never sees the end of a binary Init frame: if it does, run with --json-lines");
    const told = await cli("--testee", waiting, "--json-lines");
    expect(told.err).not.toContain("never sees the end of a binary Init frame"); // only where it can be the cause
  }, 60_000);

  it("a binary testee started with --json-lines (it waits for a ~2 GB frame) is told to drop it after the start-up timeout", async () => {
    // Reads a 4-byte big-endian length, then waits for that many bytes: '{"co' announces ~2 GB.
    const waiting = fakeTestee(
      "waits-for-a-frame",
      `let buf = Buffer.alloc(0); process.stdin.on("data", (d) => { buf = Buffer.concat([buf, d]); if (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) process.stdout.write(Buffer.from([0, 0, 0, 0])); }); process.stdin.on("end", () => process.exit(0));`,
    );
    const r = await cli("--testee", waiting, "--json-lines");
    expect(r.code).toBe(2);
    expect(r.err).toContain("did not answer Init within 10000 ms");
    expect(r.err).toContain("hint: a testee that speaks binary frames reads the first four bytes of a JSON line as a frame length and waits for ~2 GB: if it does, run without --json-lines");
    expect(r.err).not.toContain("run with --json-lines");
  }, 60_000);

  it("a testee that logs to stdout is told that stdout must carry only responses (not how to raise the frame limit)", async () => {
    const chatty = fakeTestee("chatty", `process.stdout.write("starting up\\n"); process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`);
    const r = await cli("--testee", chatty);
    expect(r.code).toBe(2);
    expect(r.err).toContain('its stdout starts with "starting up');
    expect(r.err).toContain("stdout must carry only responses framed as TESTEE-PROTOCOL.md §3.1 says; log to stderr");
    expect(r.err).not.toContain("maxFrameBytes");
  }, 30_000);
});

describe("ectp conformance: the exit-rule warning and start-up hints", () => {
  /** The TS testee behind a wrapper process that passes stdin on, with `exitRules` its own handling of EOF and SIGTERM. */
  const wrapped = async (name: string, exitRules: string) =>
    fakeTestee(
      name,
      `import { spawn } from "node:child_process";
const child = spawn("sh", ["-c", ${JSON.stringify(await bundleTsTestee())}], { stdio: ["pipe", "inherit", "inherit"] });
process.stdin.pipe(child.stdin);
${exitRules}`,
    );

  it("a testee that ignores EOF and SIGTERM is warned about once per run, however many times it is started", async () => {
    const stubborn = await wrapped("stubborn", `process.on("SIGTERM", () => {}); process.stdin.on("end", () => setInterval(() => {}, 1000));`);
    // The scripted case, and a seed's producer and consumer: the testee is started and closed more than once.
    const features = join(mkdtempSync(join(work, "exit-")), "features.json");
    writeFileSync(features, JSON.stringify({ features: ["consumer", "producer", "read-memory"] }));
    const r = await cli("--testee", stubborn, "--features", features, "--filter", "consumer/c1-admission/local-item-is-ready", "--level", "all", "--seeds", "1");
    expect(r.code).toBe(0);
    const warnings = r.err.split("\n").filter((l) => l.startsWith("warning: the testee broke TESTEE-PROTOCOL.md §2"));
    expect(warnings).toEqual([
      "warning: the testee broke TESTEE-PROTOCOL.md §2 (a testee MUST exit with status 0 on EOF, and on SIGTERM): it was still running 1000 ms after EOF on its stdin and 1000 ms after SIGTERM, and was killed",
    ]);
  }, 60_000);

  it("a testee that ignores EOF but ends on SIGTERM is warned about too (it broke the EOF rule)", async () => {
    const deaf = await wrapped("ignores-eof", `process.stdin.on("end", () => setInterval(() => {}, 1000));`);
    const r = await cli("--testee", deaf, "--filter", "consumer/c1-admission/local-item-is-ready");
    expect(r.code).toBe(0);
    expect(r.err).toContain(
      "warning: the testee broke TESTEE-PROTOCOL.md §2 (a testee MUST exit with status 0 on EOF, and on SIGTERM): it was still running 1000 ms after EOF on its stdin, and ended on SIGTERM\n",
    );
  }, 60_000);

  it("a testee that exits on EOF with a status other than 0 is warned about (its cases stand)", async () => {
    const fails = await wrapped("exits-3-on-eof", `process.stdin.on("end", () => setTimeout(() => process.exit(3), 50));`);
    const r = await cli("--testee", fails, "--filter", "consumer/c1-admission/local-item-is-ready");
    expect(r.code).toBe(0);
    expect(r.err).toContain(
      "warning: the testee broke TESTEE-PROTOCOL.md §2 (a testee MUST exit with status 0 on EOF, and on SIGTERM): it exited with status 3 on EOF on its stdin, not 0\n",
    );
  }, 60_000);

  it("with --json-lines, a testee that exits at start is not told about binary frames (that hint is for one that hangs)", async () => {
    const exits = fakeTestee("exits-at-once", `process.exit(3);`);
    const r = await cli("--testee", exits, "--json-lines");
    expect(r.code).toBe(2);
    expect(r.err).toContain("the testee did not start");
    expect(r.err).not.toContain("a testee that speaks binary frames");
  }, 60_000);
});

describe("ectp conformance: exit 2 only when every case was skipped", () => {
  const NAME = "consumer/c1-admission/local-item-is-ready";
  /** The TS testee behind a proxy that dies after its third response: Init passes, the case fails. */
  async function dying(): Promise<string> {
    const testee = await bundleTsTestee();
    return fakeTestee(
      "dies-after-three",
      `import { spawn } from "node:child_process";
const child = spawn("sh", ["-c", ${JSON.stringify(testee)}], { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(child.stdin);
let buf = Buffer.alloc(0); let n = 0;
child.stdout.on("data", (c) => { buf = Buffer.concat([buf, c]); while (buf.length >= 4) { const len = buf.readUInt32BE(0); if (buf.length < 4 + len) break;
  const frame = buf.subarray(0, 4 + len); buf = buf.subarray(4 + len); if (++n > 3) { child.kill(); process.exit(1); } process.stdout.write(frame); } });
child.on("exit", () => process.exit(0));`,
    );
  }
  // Features without read-memory: the randomised seed is skipped; the one scripted case fails.
  const args = (testee: string, ...more: string[]) => {
    const dir = mkdtempSync(join(work, "exit-"));
    const features = join(dir, "features.json");
    writeFileSync(features, JSON.stringify({ features: ["consumer", "producer"] }));
    return ["--testee", testee, "--features", features, "--filter", NAME, "--level", "all", "--seeds", "1", ...more];
  };

  it("a run in which the only case not skipped failed exits 1, not 2", async () => {
    const r = await cli(...args(await dying()));
    expect(r.out).toMatch(/0 passed, 1 failed, 1 skipped/);
    expect(r.code).toBe(1);
    expect(r.err).not.toContain("every selected case was skipped");
  }, 60_000);

  it("a run in which the only case not skipped is known failing (and fails) exits 0, not 2", async () => {
    const dir = mkdtempSync(join(work, "exit-"));
    const known = join(dir, "known.json");
    writeFileSync(known, JSON.stringify({ [NAME]: "the proxy dies" }));
    const r = await cli(...args(await dying(), "--known-failing", known));
    expect(r.out).toMatch(/0 passed, 0 failed, 1 skipped, 1 known failing/);
    expect(r.code).toBe(0);
    expect(r.err).not.toContain("every selected case was skipped");
  }, 60_000);
});

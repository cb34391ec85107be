/**
 * `ectp conformance` command line, beyond cli.test.ts: malformed features and known-failing
 * files, refused flag values, where --help goes, the FAIL line and exit status of a known-failing
 * case that passes, --filter over transport cases only, and the seeds --seeds numbers; and the
 * replay commands of failures: a failed scripted case, like a failed seed, ends with a `replay:`
 * command keeping the run's flags, which starts `npx @ectp/cli conformance` (`ectp` alone is not on the
 * PATH of a clone, or of a project that installed @ectp/cli locally, and `npx ectp` would offer to
 * install the unrelated npm package named `ectp`); a usage error is its line and one more, not the
 * whole usage, and a misspelt option is named with the one it is close to.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { CONFORMANCE_USAGE, CONFORMANCE_USAGE_HINT } from "./cli.js";
import { answersErrorTestee, cli, expectUsageError, fakeTestee } from "./test-support.js";

const dir = mkdtempSync(join(tmpdir(), "ectp-cli-flags-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("features and known-failing files of the wrong shape", () => {
  it.each([
    ["an object without a features list", JSON.stringify({ feature: ["consumer"] })],
    ["a features value that is not a list", JSON.stringify({ features: "consumer" })],
    ["a bare list", JSON.stringify(["consumer"])],
    ["null", "null"],
  ])("a features file that is %s is refused as having no features list", async (_, text) => {
    const path = file(`f-${text.length}-${Math.random().toString(36).slice(2)}.json`, text);
    expectUsageError(await cli("--testee", "never-started", "--features", path), `--features ${JSON.stringify(path)} has no "features" list`);
  });

  it("a features file with a key besides \"features\" is refused, naming the key and the one it is close to (it was ignored, its features unclaimed)", async () => {
    const typo = file("f-typo-key.json", JSON.stringify({ features: ["producer"], feature: ["events"] }));
    const r = await cli("--testee", "never-started", "--features", typo);
    expectUsageError(r, `ectp conformance: --features ${JSON.stringify(typo)} has a key "feature" that a features file does not take (did you mean "features"?); expected a JSON file {"features":`);
    expect(r.err.split("\n")[1]).toBe(CONFORMANCE_USAGE_HINT); // one line, then the hint
    const other = file("f-other-key.json", JSON.stringify({ features: ["producer"], comment: "mine" }));
    expectUsageError(await cli("--testee", "never-started", "--features", other), `has a key "comment" that a features file does not take (its only key is "features")`);
  });

  it("a known-failing entry whose reason is only blanks is refused", async () => {
    const path = file("blank-reason.json", JSON.stringify({ "consumer/c1-admission/local-item-is-ready": "   " }));
    expectUsageError(
      await cli("--testee", "never-started", "--known-failing", path),
      `--known-failing ${JSON.stringify(path)}: entry "consumer/c1-admission/local-item-is-ready" needs a reason string`,
    );
  });

  it("a known-failing file that is a JSON list is refused as not an object", async () => {
    const path = file("list.json", JSON.stringify(["consumer/c1-admission/local-item-is-ready"]));
    expectUsageError(await cli("--testee", "never-started", "--known-failing", path), "must be a JSON object", "got an array");
  });

  it("a single known-failing entry naming no case is refused", async () => {
    const path = file("one-unknown.json", JSON.stringify({ "no/such/case": "typo" }));
    expectUsageError(await cli("--testee", "never-started", "--known-failing", path), `lists a name that is no case's: "no/such/case"`);
  });
});

describe("flag values that are refused before anything runs", () => {
  it("--transport other than mock or nixl", async () => {
    expectUsageError(await cli("--transport", "tcp"), '--transport must be one of mock, nixl, got "tcp"');
  });
  it("--level other than required or all", async () => {
    expectUsageError(await cli("--testee", "never-started", "--level", "optional"), '--level must be required or all, got "optional"');
  });
  it("--seed without --testee", async () => {
    expectUsageError(await cli("--transport", "mock", "--seed", "3"), "--seed runs randomised schedules between two testees; it needs --testee");
  });
  it("a blank --features or --report name", async () => {
    expectUsageError(await cli("--testee", "never-started", "--features", "  "), "--features is empty; give a file name");
    expectUsageError(await cli("--transport", "mock", "--report", " "), "--report is empty; give a file name");
  });
});

describe("an output file named with a trailing separator", () => {
  it.each(["--report", "--junit"])("%s names a directory, refused before the run even when none exists", async (flag) => {
    const path = join(dir, "no-such-dir/");
    expectUsageError(
      await cli("--transport", "mock", flag, path),
      `${flag} cannot write ${JSON.stringify(path)}: it ends in a path separator, so it names a directory; name a file; nothing was run`,
    );
  });
});

describe("usage errors", () => {
  // The whole usage (some 50 lines) followed every error and pushed it off the screen.
  it("are the error's line and one line saying where the options are, not the whole usage", async () => {
    const r = await cli("--testee", "never-started", "--level", "optional");
    expect(r).toEqual({
      code: 2,
      out: "",
      err: `ectp conformance: --level must be required or all, got "optional"\n${CONFORMANCE_USAGE_HINT}\n`,
    });
    expect(CONFORMANCE_USAGE_HINT).toContain('run "ectp conformance --help" for the options');
  });

  it.each([
    ["--seed-from", " (did you mean --seeds-from?)"],
    ["--json-line", " (did you mean --json-lines?)"],
    ["--Testee", " (did you mean --testee?)"],
    ["--knownfailing", " (did you mean --known-failing?)"],
    ["--bogus", ""], // more than 2 edits from every option: no suggestion
  ])("an unknown option %s is named with the option within 2 edits of it, if any", async (flag, suggestion) => {
    const r = await cli(flag, "x");
    expectUsageError(r);
    expect(r.err.split("\n")[0]).toBe(`ectp conformance: unknown option ${flag}${suggestion}`);
  });
});

describe("--help", () => {
  it("prints the usage on standard output, nothing on standard error, exit 0", async () => {
    const r = await cli("--help");
    expect(r).toEqual({ code: 0, out: `${CONFORMANCE_USAGE}\n`, err: "" });
  });
  it("states the range of --seed and --seeds-from", () => {
    expect(CONFORMANCE_USAGE).toContain("--seed <n>                 run only randomised schedule n, 0 to 9007199254740991 (2^53 - 1),\n");
    expect(CONFORMANCE_USAGE).toContain("k from 0 to 9007199254740991 (2^53 - 1), and k + n - 1 at most that too");
  });
  it("wins over other flags: the usage, exit 0, and the testee is never started", async () => {
    const r = await cli("--testee", "/nonexistent/never-started", "--level", "all", "--help");
    expect(r).toEqual({ code: 0, out: `${CONFORMANCE_USAGE}\n`, err: "" });
  });
});

describe("a known-failing case that passes", () => {
  it("prints a FAIL line for it and fails the run with exit 1", async () => {
    const name = "transport/mock/byte-exact-reads-at-odd-offsets";
    const known = file("passes.json", JSON.stringify({ [name]: "thought broken" }));
    const r = await cli("--transport", "mock", "--filter", "transport/mock/byte-exact-*", "--known-failing", known);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`FAIL ${name}\n`);
  }, 60_000);
});

describe("--testee with --transport and a --filter matching transport cases only", () => {
  it("is not refused: the transport cases run, the testee is never started", async () => {
    const r = await cli("--testee", "/nonexistent/never-started", "--transport", "mock", "--filter", "transport/mock/byte-exact-*");
    expect(r.err).not.toContain("matches none");
    expect(r.code).toBe(0);
    expect(r.out).not.toContain("FAIL");
  }, 60_000);
});

describe("--seeds 0", () => {
  it("is accepted as no randomised schedules (the run is refused only because nothing in it would run)", async () => {
    const r = await cli("--testee", "never-started", "--filter", "subscriber/**", "--seeds", "0");
    expectUsageError(r, "so nothing would run");
    expect(r.err).not.toContain("must be an integer");
  });
});

describe("the schedules --seeds n runs are numbered 1 to n", () => {
  it("lists seed-1 and seed-2 (skipped without read-memory), never seed-0", async () => {
    const features = file("no-read-memory.json", JSON.stringify({ features: ["consumer"] }));
    const r = await cli(
      "--testee",
      "/nonexistent/never-started",
      "--transport",
      "mock",
      "--filter",
      "transport/mock/byte-exact-*",
      "--features",
      features,
      "--seeds",
      "2",
    );
    expect(r.code).toBe(2); // the testee's part (its two seeds) tested nothing, though the transport cases passed
    expect(r.err).toContain("so the testee was not tested");
    expect(r.out).toMatch(/seed-1\b/);
    expect(r.out).toMatch(/seed-2\b/);
    expect(r.out).not.toMatch(/seed-0\b/);
    expect(r.err).toContain("warning: randomised schedules need the features consumer, producer, read-memory");
  }, 60_000);
});

describe("a failure while setting up that is not bad input", () => {
  afterEach(() => {
    vi.doUnmock("./cases/load.js");
    vi.resetModules();
  });
  it("is reported in one line, without the usage, exit 2", async () => {
    vi.resetModules();
    vi.doMock("./cases/load.js", () => ({
      loadCases: () => {
        throw new Error("cases unreadable");
      },
    }));
    const fresh = (await import("./cli.js")).runConformanceCli;
    let out = "";
    let err = "";
    const code = await fresh(["--testee", "never-started"], {
      out: (t) => {
        out += t;
      },
      err: (t) => {
        err += t;
      },
    });
    expect({ code, out, err }).toEqual({ code: 2, out: "", err: "ectp conformance: cases unreadable\n" });
  });
});

describe("a testee that never answers Init while speaking JSON lines", () => {
  it("is reported after the start-up timeout without the hint to pass --json-lines (it was passed)", async () => {
    const silent = fakeTestee("silent", `process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`);
    const r = await cli("--testee", silent, "--json-lines", "--level", "all");
    expect(r.code).toBe(2);
    expect(r.err).toContain("did not answer Init within 10000 ms");
    expect(r.err).not.toContain("run with --json-lines");
  }, 60_000);
});

describe("exit status of a --testee run that tested nothing, with --transport beside it", () => {
  // --help: "Exit status: ... 2 ... when a part of the run tested nothing, even if the rest
  // passed: every selected case of the testee was skipped, or every selected case of a
  // --transport". README: "So does a run one part of which tested nothing though the rest passed".
  it("a --filter selecting only cases of an unclaimed role, and no transport case, exits 2 even with --transport mock", async () => {
    const r = await cli("--testee", "no-such-testee-command", "--transport", "mock", "--filter", "subscriber/**", "--level", "all");
    expect(r.out).not.toMatch(/PASS: 0 passed, 0 failed, \d+ skipped/);
    expect(r.code).toBe(2);
    expect(r.err).toContain("every selected case needs a role the features do not claim");
  });

  it("a --transport run whose every transport case is selected still exits 0 beside a --testee when no testee case is selected", async () => {
    const r = await cli("--testee", "no-such-testee-command", "--transport", "mock", "--filter", "transport/mock/malformed-*");
    expect(r.code).toBe(0);
    expect(r.out).toContain("PASS: 1 passed");
  });

  it("testee cases selected beside passing --transport mock cases, every one skipped for a role the features do not claim: exit 2, the testee was not tested", async () => {
    const features = file("subscriber-only.json", JSON.stringify({ features: ["subscriber"] }));
    // consumer/c10-ignored/malformed-envelopes-ignored, producer/c10-ignored/malformed-messages-ignored, transport/mock*/malformed-location-fails-read
    const r = await cli("--testee", "no-such-testee-command", "--features", features, "--transport", "mock", "--filter", "*/*/malformed-*");
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/\nTESTEE NOT TESTED: 2 passed, 0 failed, 2 skipped, 0 known failing \(4 cases\)\n$/);
    expect(r.err).toContain('warning: --testee "no-such-testee-command" is not started: every case and seed of it selected would be skipped for the features');
    expect(r.err.endsWith(
      "ectp conformance: every selected testee case was skipped (the reasons are above), so the testee was not tested; claim the features they need in --features, or select other cases\n",
    )).toBe(true);
  });
});

const failing = () => answersErrorTestee("answers-error");

describe("replay commands", () => {
  const CASE = "consumer/c1-admission/local-item-is-ready";

  it("a failed scripted case ends with its description and the command that runs it alone, with the run's flags", async () => {
    const testee = failing();
    const features = file("features.json", JSON.stringify({ features: ["consumer", "producer"] }));
    const known = file("known.json", JSON.stringify({ "consumer/c1-admission/no-announcement-with-model-input-encodes-locally": "not this one" }));
    const r = await cli(
      "--testee", testee, "--json-lines", "--features", features, "--known-failing", known, "--command-timeout-ms", "4000",
      "--case-timeout-ms", "30000", "--level", "all", "--filter", CASE, "--report", join(dir, "report.json"),
    );
    expect(r.code).toBe(1);
    const replay = `replay: npx @ectp/cli conformance --testee '${testee.replace(/'/g, "'\\''")}' --json-lines --features ${features} --known-failing ${known} --command-timeout-ms 4000 --case-timeout-ms 30000 --level all --filter ${CASE}`;
    expect(r.out).toContain(`FAIL ${CASE} [`);
    // The case's description, which says what rule it checks, comes just before the replay command.
    expect(r.out).toContain(`\n  case: An item the engine already holds is READY at once; nothing is sent.\n  ${replay}\n`);
    expect(r.out.split(replay)).toHaveLength(2); // once
  }, 30_000);

  it("a failed seed's replay command starts npx @ectp/cli conformance", async () => {
    const testee = failing();
    const features = file("features-seeds.json", JSON.stringify({ features: ["consumer", "producer", "read-memory"] }));
    const r = await cli("--testee", testee, "--json-lines", "--features", features, "--seed", "3");
    expect(r.code).toBe(1);
    expect(r.out).toContain(`\n  replay: npx @ectp/cli conformance --testee '${testee.replace(/'/g, "'\\''")}' --json-lines --features ${features} --seed 3\n`);
  }, 30_000);
});

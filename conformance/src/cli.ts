/**
 * `ectp conformance`: the command-line runner.
 * @module
 */
import { closeSync, openSync, readSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { EctpError, closestName, makeDirectories, outputPathProblem, thrownMessage } from "@ectp/protocol";
import { KNOWN_FEATURES, type LoadedCase } from "./cases/format.js";
import { loadCases } from "./cases/load.js";
import { RANDOMISED_SUITE, runRandomised } from "./random/randomised.js";
import { DEFAULT_SEED_TIMEOUT_MS } from "./random/seeds.js";
import { SUBSCRIBER_RANDOMISED_FEATURES, SUBSCRIBER_RANDOMISED_SUITE, runSubscriberRandomised } from "./random/subscriber-randomised.js";
import { defaultCaseTimeoutMs, missingFeature, unclaimedRole } from "./runner/script.js";
import { toJUnit, toJsonReport, toTerminal } from "./report/report.js";
import { type CaseResult, StartFailures, classify, featureWarnings, globMatcher, runSuite, selectCases, summarise } from "./runner/suite.js";
import { type TesteeConnection, TesteeFault } from "./testee/connection.js";
import { spawnTestee } from "./testee/subprocess.js";
import { mockTransportHarness } from "./transport/mock-harness.js";
import { type TransportHarness, runTransportConformance } from "./transport/transport-suite.js";

/** Largest `--seeds`: each seed is a simulated schedule of 90 s to 130 s between two testees, per level. */
export const MAX_SEEDS = 100_000;

/** Largest `--seed` and `--seeds-from` (and last schedule): the largest integer a JavaScript number holds exactly. */
const MAX_SEED = Number.MAX_SAFE_INTEGER;

/** {@link MAX_SEED} as the help and the errors write it. */
const MAX_SEED_TEXT = `${MAX_SEED} (2^53 - 1)`;

/** Largest `--command-timeout-ms`: Node's timers cannot wait longer (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;

export { KNOWN_FEATURES };

/** The roles among `KNOWN_FEATURES`: a features file claims at least one, or nothing runs. */
const ROLES: readonly string[] = ["consumer", "producer", "subscriber"];

/** Features assumed without `--features`. */
const DEFAULT_FEATURES: readonly string[] = ["consumer", "producer"];

/** Usage text of `ectp conformance`. */
export const CONFORMANCE_USAGE = `Usage: ectp conformance --testee "<command>" [options]
       ectp conformance --transport mock|nixl [options]

Runs the ECTP conformance suite against an implementation wrapped as a testee
(conformance/TESTEE-PROTOCOL.md), and/or the transport level against a named Transport.

Options (each one that takes a value at most once):
  --testee <command>         shell command starting the testee (required unless --transport is given)
  --transport <name>         run the transport level against "mock" (built in, virtual and real clock)
                             or "nixl" (@ectp/transport-nixl; without it or its addon every case is
                             skipped with the reason, and the run exits 2: nothing of it was tested)
  --json-lines               speak JSON lines instead of binary frames
  --features <file>          JSON {"features": ["consumer", "producer", ...]} naming features of
                             TESTEE-PROTOCOL.md §7: ${KNOWN_FEATURES.join(", ")}
                             (default: ${DEFAULT_FEATURES.join(", ")})
  --known-failing <file>     JSON {"<case name>": "<reason>", ...}; every name must be a case's, and a
                             listed case that passes fails the run
  --level required|all       REQUIRED cases only (default) or RECOMMENDED too (and the subscriber
                             schedules' RECOMMENDED checks)
  --filter <glob>            run cases whose name, or a leading part of it ending at a "/", matches
                             (e.g. "consumer/c3-*" or "consumer/c3-*/**", "transport/nixl"; * stays
                             within one segment, ** crosses them); a glob that matches no case is a
                             usage error
  --seeds <n>                also run n seeded randomised schedules, 0 to ${MAX_SEEDS}, of each level the
                             features allow: consumer with producer (needs consumer, producer and
                             read-memory), subscriber with producer (needs producer, events and
                             subscriber); default 0; not filtered by --filter
  --seeds-from <k>           with --seeds n: run schedules k to k + n - 1 instead of 1 to n (default 1);
                             k from 0 to ${MAX_SEED_TEXT}, and k + n - 1 at most that too
  --seeds-only               with --seeds: run the randomised schedules only, no scripted case
  --seed <n>                 run only randomised schedule n, 0 to ${MAX_SEED_TEXT},
                             of each level the features allow (replay a failure)
  --junit <file>             write JUnit XML (missing directories of a --junit or --report path are created)
  --report <file>            write the JSON report (and <file without .json>.ectp-report.json with {passed, failed})
  --command-timeout-ms <n>   per-command timeout, 1 to ${MAX_TIMEOUT_MS} (default 5000); starting the testee
                             and its answer to Init get the larger of this and 10000
  --case-timeout-ms <n>      wall-clock limit of one scripted case, 1 to ${MAX_TIMEOUT_MS} (default the
                             larger of 60000 and 10 x --command-timeout-ms)
  --seed-timeout-ms <n>      wall-clock limit of one randomised seed, 1 to ${MAX_TIMEOUT_MS} (default
                             ${DEFAULT_SEED_TIMEOUT_MS})
  -h, --help                 show this text

Exit status: 0 when nothing failed, 1 when a case failed, 2 for a usage error, when the
testee could not be started (no answer to Init; nothing was run), or when a part of the run
tested nothing, even if the rest passed: every selected case of the testee was skipped, or
every selected case of a --transport (its backend could not be loaded, e.g. "nixl" without
its addon); 74 when a run that failed nothing and tested every part could not write its
--junit or --report file (a failed case keeps 1, a run with a part untested keeps 2).
Interrupted (SIGINT, SIGTERM): every testee started is ended as on a normal close, no report
is written, and ectp exits by the signal (status 130 or 143).`;

/** Features file: the optional features (TESTEE-PROTOCOL.md §7) an implementation claims. */
export interface FeaturesFile {
  /**
   * The features claimed, each a name of TESTEE-PROTOCOL.md §7 (the runner's `KNOWN_FEATURES`
   * list: `consumer`, `producer`, `subscriber`, `raw-messages`, `raw-outputs`, ...; another name is
   * refused); at least one of the three roles, or the file is refused.
   */
  features: string[];
}

/** The keys a features file takes. */
const FEATURES_FILE_KEYS: readonly string[] = ["features"];

/** The format a features file must have, as the errors write it. */
const FEATURES_FORMAT = `a JSON file {"features": ["consumer", "producer", ...]} naming features of TESTEE-PROTOCOL.md §7`;

/** The format a known-failing file must have, as the errors write it. */
const KNOWN_FAILING_FORMAT = `a JSON object {"<case name>": "<reason>", ...}`;

/**
 * Read a features file: its features, each a name of TESTEE-PROTOCOL.md §7, at least one a role.
 * Throws EctpError(INVALID_ARGUMENT) naming the file (as `label`, e.g. the flag that gave it),
 * what is wrong with it and the format expected, also when it is missing, unreadable or not JSON.
 */
export function readFeaturesFile(path: string, label = "features file"): string[] {
  const data = readJsonFile(path, label, FEATURES_FORMAT) as Partial<FeaturesFile> | null;
  const where = `${label} ${JSON.stringify(path)}`;
  if (data === null || typeof data !== "object" || Array.isArray(data) || !Array.isArray(data.features))
    throw new EctpError("INVALID_ARGUMENT", `${where} has no "features" list; expected ${FEATURES_FORMAT}`);
  // A key the file does not take (a misspelt "feature" beside "features") would be ignored, its features unclaimed.
  for (const key of Object.keys(data))
    if (!FEATURES_FILE_KEYS.includes(key)) {
      const like = closestName(key, FEATURES_FILE_KEYS, Math.max(2, Math.floor(key.length / 3)));
      throw new EctpError(
        "INVALID_ARGUMENT",
        `${where} has a key ${JSON.stringify(key)} that a features file does not take (${like !== undefined ? `did you mean ${JSON.stringify(like)}?` : `its only key is "features"`}); expected ${FEATURES_FORMAT}`,
      );
    }
  for (const f of data.features)
    if (typeof f !== "string" || !KNOWN_FEATURES.includes(f))
      throw new EctpError(
        "INVALID_ARGUMENT",
        `${where} names an unknown feature ${JSON.stringify(f)}; the known features are ${KNOWN_FEATURES.join(", ")} (TESTEE-PROTOCOL.md §7)`,
      );
  if (!data.features.some((f) => ROLES.includes(f)))
    throw new EctpError(
      "INVALID_ARGUMENT",
      `${where} claims no role, so every case would be skipped; claim at least one of ${ROLES.join(", ")}`,
    );
  return data.features;
}

/**
 * Read a known-failing file: a JSON object mapping case names to reasons. Every entry needs
 * a non-empty reason (a list without reasons rots). Throws EctpError(INVALID_ARGUMENT) naming
 * the file (as `label`), also when it is missing, unreadable or not JSON.
 */
export function readKnownFailingFile(path: string, label = "known-failing file"): Map<string, string> {
  const data = readJsonFile(path, label, KNOWN_FAILING_FORMAT);
  const where = `${label} ${JSON.stringify(path)}`;
  if (data === null || typeof data !== "object" || Array.isArray(data))
    throw new EctpError("INVALID_ARGUMENT", `${where} must be ${KNOWN_FAILING_FORMAT}; got ${Array.isArray(data) ? "an array" : JSON.stringify(data)}`);
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
    if (typeof v !== "string" || v.trim() === "")
      throw new EctpError("INVALID_ARGUMENT", `${where}: entry ${JSON.stringify(k)} needs a reason string`);
    out.set(k, v);
  }
  return out;
}

/** Read and parse a JSON file; every failure is an EctpError(INVALID_ARGUMENT) naming `label`, the path and `format`. */
function readJsonFile(path: string, label: string, format: string): unknown {
  const where = `${label} ${JSON.stringify(path)}`;
  let text: string;
  try {
    if (statSync(path).isDirectory()) throw new EctpError("INVALID_ARGUMENT", `${where} is a directory; expected ${format}`);
    text = readCapped(path, where, format);
  } catch (err) {
    if (EctpError.is(err)) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (err as Error).message;
    throw new EctpError("INVALID_ARGUMENT", `${where} cannot be read (${why}); expected ${format}`);
  }
  text = text.replace(/^\uFEFF/, ""); // a byte order mark (Notepad, PowerShell 5's Out-File) is no part of the JSON
  if (text.trim() === "") throw new EctpError("INVALID_ARGUMENT", `${where} is empty; expected ${format}`);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new EctpError("INVALID_ARGUMENT", `${where} is not JSON (${(err as Error).message.replace(/\s*\n\s*/g, " ")}); expected ${format}`);
  }
}

/** The largest features or known-failing file read (far above any real one). */
const MAX_JSON_FILE_BYTES = 16 << 20;

/**
 * The file's text, read through its descriptor up to {@link MAX_JSON_FILE_BYTES}: an endless
 * source (`/dev/zero`) or a huge file is refused instead of read until memory runs out, while a
 * pipe (`--features <(echo ...)`) still works.
 */
function readCapped(path: string, where: string, format: string): string {
  const fd = openSync(path, "r");
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.allocUnsafe(64 << 10);
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      total += n;
      if (total > MAX_JSON_FILE_BYTES)
        throw new EctpError("INVALID_ARGUMENT", `${where} is larger than ${MAX_JSON_FILE_BYTES} bytes (or endless); expected ${format}`);
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
    return Buffer.concat(chunks).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** A usage error: printed with {@link CONFORMANCE_USAGE_HINT}, exit status 2. */
class UsageError extends Error {}

/**
 * What follows a usage error's one line: the command's form and where its options are listed
 * (the whole usage, some 50 lines, pushed the error off the screen).
 */
export const CONFORMANCE_USAGE_HINT = `Usage: ectp conformance --testee "<command>" [options]; run "ectp conformance --help" for the options`;

/** A validated command line. */
interface Config {
  /** Testee command (undefined when only --transport runs). */
  testee: string | undefined;
  transport: string | undefined;
  jsonLines: boolean;
  featuresPath: string | undefined;
  features: readonly string[];
  knownFailingPath: string | undefined;
  knownFailing: ReadonlyMap<string, string>;
  filter: string | undefined;
  /** The command timeout, and whether it was given (the replay command keeps it then). */
  commandTimeoutMs: number;
  commandTimeoutGiven: boolean;
  /** Wall-clock limit of one scripted case, and whether it was given (the replay command keeps it then). */
  caseTimeoutMs: number;
  caseTimeoutGiven: boolean;
  /** Wall-clock limit of one randomised seed, when `--seed-timeout-ms` gave one (else the runners' default). */
  seedTimeoutMs: number | undefined;
  /** Randomised seeds to run (`--seed n`, or `--seeds` of them from `--seeds-from`, default 1). */
  seeds: readonly number[];
  /** `--level`: REQUIRED only, or RECOMMENDED too (the selected cases, and the subscriber schedules' checks). */
  level: "required" | "all";
  /** Whether scripted cases run (not with `--seed` or `--seeds-only`). */
  scripted: boolean;
  /** Scripted cases the run executes. */
  cases: readonly LoadedCase[];
  harnesses: readonly TransportHarness[];
  junit: string | undefined;
  report: string | undefined;
}

/** Where {@link runConformanceCli} writes: the report and FAIL lines to `out`, errors and warnings to `err`. */
export interface ConformanceOutput {
  /** Write to standard output (the report, `FAIL <case>` lines, the usage when asked for). */
  out(text: string): void;
  /** Write to standard error (usage errors, warnings). */
  err(text: string): void;
  /**
   * Call `stop` on the first SIGINT or SIGTERM from now on, instead of the process ending; returns
   * a function that removes the handler (the `ectp` CLI passes its own). Given, an interrupted run
   * ends every testee it started as a normal close does (EOF, then SIGTERM and SIGKILL to the
   * testee's process group, TESTEE-PROTOCOL.md §2), writes no report and returns 130 (SIGINT) or
   * 143 (SIGTERM). Absent: signals are left alone.
   */
  onInterrupt?(stop: (signal: "SIGINT" | "SIGTERM") => void): () => void;
}

/** The process's own streams. */
const PROCESS_OUTPUT: ConformanceOutput = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

/** Exit status when nothing failed but a `--junit` or `--report` file could not be written after the run (sysexits EX_IOERR). */
const EXIT_IO = 74;

/**
 * Entry point of `ectp conformance` (the CLI package calls this). Returns the exit status
 * instead of exiting, and never throws: a usage error prints its line and a one-line usage hint, and returns 2. Writes
 * through `output` (default: the process's stdout and stderr); files named by `--junit` and
 * `--report` are written to disk.
 */
export async function runConformanceCli(argv: readonly string[], output: ConformanceOutput = PROCESS_OUTPUT): Promise<number> {
  let cfg: Config | "help";
  try {
    cfg = await configure(argv);
  } catch (err) {
    const usage = err instanceof UsageError || (EctpError.is(err) && err.code === "INVALID_ARGUMENT");
    const message = EctpError.is(err) ? err.message.replace(/^\[[A-Z_]+\] /, "") : (err as Error).message;
    output.err(`ectp conformance: ${message}\n${usage ? `${CONFORMANCE_USAGE_HINT}\n` : ""}`);
    return 2;
  }
  if (cfg === "help") {
    output.out(`${CONFORMANCE_USAGE}\n`);
    return 0;
  }
  const c = cfg;
  // Ctrl-C, or the SIGTERM of a CI timeout: the testees started so far are ended (a testee runs in
  // its own process group, which the terminal's signal does not reach), and nothing more is written.
  const testees = new Set<TesteeConnection>();
  let stopSignal: "SIGINT" | "SIGTERM" | undefined;
  let onStop: (signal: "SIGINT" | "SIGTERM") => void = () => {};
  const interrupted = new Promise<"SIGINT" | "SIGTERM">((resolve) => {
    onStop = resolve;
  });
  const release = output.onInterrupt?.((signal) => {
    stopSignal = signal;
    onStop(signal);
  });
  const live: RunOutput = {
    out: (text) => void (stopSignal === undefined && output.out(text)),
    err: (text) => void (stopSignal === undefined && output.err(text)),
    stopped: () => stopSignal !== undefined,
    track: (conn) => {
      // Those already closed or dead are let go: a run of many seeds starts two testees per seed.
      for (const t of testees) if (!t.alive) testees.delete(t);
      testees.add(conn);
    },
  };
  try {
    const ended = await Promise.race([runConfigured(c, live), interrupted]);
    if (typeof ended === "number") return ended;
    // Only those still alive: one already closed or dead had its group ended then, and its id may since name another group.
    await Promise.all([...testees].filter((t) => t.alive).map((t) => t.close()));
    output.err(`ectp conformance: interrupted by ${ended}; the run was stopped and every testee it started was ended (no report written)\n`);
    return ended === "SIGINT" ? 130 : 143;
  } finally {
    release?.();
  }
}

/** Output of a configured run: written only until an interrupt, which `stopped` tells; `track` is handed every testee started. */
interface RunOutput extends ConformanceOutput {
  stopped(): boolean;
  track(conn: TesteeConnection): void;
}

/** The run of {@link runConformanceCli} once its command line is read: returns the exit status, never throws. */
async function runConfigured(c: Config, output: RunOutput): Promise<number> {
  const command = c.testee ?? "";
  const testeeRuns = c.testee !== undefined && needsTestee(c);
  // A report names what ran: the transport when --filter left the testee nothing to run.
  const implementation = testeeRuns ? command : `transport ${c.transport}`;
  if (c.testee !== undefined && !testeeRuns)
    output.err(
      `warning: --testee ${JSON.stringify(c.testee)} is not started: ${c.cases.length === 0 && c.seeds.length === 0 ? "every selected case is a transport case" : "every case and seed of it selected would be skipped for the features"}, and the report names the transport\n`,
    );
  // Said once per run: the testee is started more than once (a case that kills it, each seed's
  // consumer and producer), and each start would break the rule alike.
  let exitRuleTold = false;
  const onExitRuleBroken = (what: string): void => {
    if (exitRuleTold) return;
    exitRuleTold = true;
    output.err(`warning: the testee broke TESTEE-PROTOCOL.md §2 (a testee MUST exit with status 0 on EOF, and on SIGTERM): ${what}\n`);
  };
  const spawn = (): Promise<TesteeConnection> =>
    output.stopped()
      ? Promise.reject(new Error("the run was interrupted"))
      : spawnTestee({ command, jsonLines: c.jsonLines, commandTimeoutMs: c.commandTimeoutMs, onExitRuleBroken, onStart: output.track });
  // The testee is started once before anything runs: one that cannot start (a wrong command, a
  // crash on start-up, the wrong encoding) stops the run with one error instead of failing every case.
  // Not when every case and seed would be skipped for the features: nothing would use it.
  let first: TesteeConnection | undefined;
  try {
    if (testeeRuns && startsTestee(c)) {
      try {
        first = await spawn();
      } catch (err) {
        output.err(`ectp conformance: ${startFailure(command, c, err)}\n`);
        return 2;
      }
    }
    // Failed starts are counted across the whole run: after 3 in a row, no case or seed starts the testee again.
    const startFailures = new StartFailures();
    const factory = (): Promise<TesteeConnection> => {
      const conn = first;
      first = undefined;
      return conn?.alive ? Promise.resolve(conn) : spawn();
    };
    const results: CaseResult[] = [];
    const onResult = (r: CaseResult): void => {
      if (r.status === "failed" || r.status === "unexpected-pass") output.out(`FAIL ${r.name}\n`);
    };
    const onWarning = (message: string): void => {
      output.err(`warning: ${message}\n`);
    };
    // TESTEE-PROTOCOL.md §2, item 3: InitResult.features against the features file, on the first
    // connection (runSuite compares them when scripted cases run; a randomised-only run here).
    if (first !== undefined && !c.scripted) for (const w of featureWarnings(new Set(c.features), first.initResult?.features)) onWarning(w);
    if (c.transport !== undefined) {
      const select = c.filter !== undefined ? globMatcher(c.filter) : undefined;
      for (const harness of c.harnesses)
        for (const r of await runTransportConformance(harness, select ? { select } : {})) {
          const raw = { status: r.status as "passed" | "failed" | "skipped", ...(r.message !== undefined ? { message: r.message } : {}) };
          const cr: CaseResult = { ...r, ...classify(r.name, raw, c.knownFailing) };
          results.push(cr);
          onResult(cr);
        }
    }
    // A replay command keeps every flag that changes how a case or seed runs or is judged; `timeout`:
    // the case's or seed's own time limit flag, when given; `which`: the case (--filter) or seed (--seed).
    const replay = (timeout: string[], which: string[]): string =>
      [
        ...REPLAY_PREFIX,
        "--testee", command,
        ...(c.jsonLines ? ["--json-lines"] : []),
        ...(c.featuresPath !== undefined ? ["--features", c.featuresPath] : []),
        ...(c.knownFailingPath !== undefined ? ["--known-failing", c.knownFailingPath] : []),
        ...(c.commandTimeoutGiven ? ["--command-timeout-ms", String(c.commandTimeoutMs)] : []),
        ...timeout,
        ...(c.level === "all" ? ["--level", "all"] : []),
        ...which,
      ]
        .map(shellWord)
        .join(" ");
    if (c.testee !== undefined && c.scripted) {
      const report = await runSuite({
        testee: factory,
        features: c.features,
        knownFailing: c.knownFailing,
        level: "all", // c.cases is already selected by level and filter
        cases: c.cases,
        onResult,
        onWarning,
        caseTimeoutMs: c.caseTimeoutMs,
        startFailures,
      });
      // A failed case says what it checks (its description, which names the rule and where SPEC says
      // it) and how to run it alone (as a failed seed says how to replay it).
      const caseTimeout = c.caseTimeoutGiven ? ["--case-timeout-ms", String(c.caseTimeoutMs)] : [];
      const descriptions = new Map(c.cases.map((k) => [k.fullName, k.spec.description]));
      const about = (name: string) => {
        const description = descriptions.get(name)?.trim();
        return description ? `\ncase: ${description}` : "";
      };
      for (const r of report.results)
        results.push(r.status === "failed" ? { ...r, message: `${r.message ?? ""}${about(r.name)}\nreplay: ${replay(caseTimeout, ["--filter", r.name])}` } : r);
    }
    if (c.seeds.length > 0) {
      const levels = randomisedLevels(c.features);
      if (levels.length === 0)
        onWarning(
          `randomised schedules need the features ${RANDOMISED_FEATURES.join(", ")} (consumer with producer) or ${SUBSCRIBER_RANDOMISED_FEATURES.join(", ")} (subscriber with producer); with neither in --features every seed is skipped`,
        );
      const seedTimeout = c.seedTimeoutMs !== undefined ? ["--seed-timeout-ms", String(c.seedTimeoutMs)] : [];
      const replayCommand = (n: number) => replay(seedTimeout, ["--seed", String(n)]);
      // With neither level's features, the consumer level's seeds are reported skipped (saying what they need).
      if (levels.length === 0 || levels.includes("consumer")) {
        const random = await runRandomised({
          consumer: factory,
          producer: factory,
          seeds: c.seeds,
          features: c.features,
          replayCommand,
          knownFailing: c.knownFailing,
          seedTimeoutMs: c.seedTimeoutMs,
          startFailures,
        });
        results.push(...random);
        for (const r of random) onResult(r);
      }
      if (levels.includes("subscriber")) {
        const random = await runSubscriberRandomised({
          producer: factory,
          subscriber: factory,
          seeds: c.seeds,
          features: c.features,
          level: c.level,
          replayCommand,
          knownFailing: c.knownFailing,
          seedTimeoutMs: c.seedTimeoutMs,
          startFailures,
        });
        results.push(...random);
        for (const r of random) onResult(r);
      }
    }
    const report = summarise(c.featuresPath === undefined ? results.map(defaultFeaturesReason) : results);
    // A part of the run that selected cases and had every one skipped tested nothing, and a green
    // run would hide it: the testee's part (features the testee does not claim), or a transport's
    // (its backend could not be loaded: every case carries the load error). Either exits 2.
    const testedNothing = (part: readonly CaseResult[]): boolean => part.length > 0 && part.every((r) => r.status === "skipped");
    const testeeUntested = testedNothing(results.filter((r) => !r.name.startsWith("transport/")));
    const transportsUntested = c.harnesses.map((h) => h.name).filter((name) => testedNothing(results.filter((r) => r.name.startsWith(`transport/${name}/`))));
    const untested = testeeUntested || transportsUntested.length > 0;
    const nothingAtAll = report.passed === 0 && report.knownFailing === 0;
    const summary = toTerminal(report); // (skips grouped by reason: each reason written once)
    // Its last line says PASS for a run without failures; one with an untested part exits 2 and says so.
    const headline = nothingAtAll ? "NOTHING TESTED" : testeeUntested ? "TESTEE NOT TESTED" : "TRANSPORT NOT TESTED";
    output.out(report.ok && untested ? summary.replace(/^PASS: (?=[^\n]*\n$)/m, `${headline}: `) : summary);
    // Any failed case: 1; else an untested part: 2; else a file not written: 74 (below); else 0.
    const status = !report.ok ? 1 : untested ? 2 : 0;
    if (output.stopped()) return status; // (an interrupted run's report is not written)
    try {
      if (c.junit !== undefined) writeOut("--junit", c.junit, toJUnit(implementation, report));
      if (c.report !== undefined) {
        writeOut("--report", c.report, `${JSON.stringify(toJsonReport(implementation, report), null, 2)}\n`);
        writeOut("--report", summaryPath(c.report), `${JSON.stringify({ passed: report.passed, failed: report.failed })}\n`);
      }
    } catch (err) {
      // The run happened: a failed case is still 1, a run that tested nothing still 2; a clean run
      // whose files are missing is 74 (sysexits EX_IOERR, as `ectp simulate --report`).
      output.err(`ectp conformance: ${(err as Error).message}\n`);
      if (status === 0) return EXIT_IO;
    }
    if (status === 2 && testeeUntested)
      output.err(
        results.some((r) => r.name.startsWith("transport/"))
          ? "ectp conformance: every selected testee case was skipped (the reasons are above), so the testee was not tested; claim the features they need in --features, or select other cases\n"
          : "ectp conformance: every selected case was skipped (the reasons are above), so nothing was tested; claim the features they need in --features, or select other cases\n",
      );
    if (status === 2)
      for (const name of transportsUntested)
        output.err(
          `ectp conformance: every selected transport/${name} case was skipped, so nothing of the transport was tested${nothingAtAll ? "" : `, though --transport ${c.transport} named it (the run's other cases ran)`}: its backend could not be loaded; build or install it as the reason above says, and run again\n`,
        );
    return status;
  } catch (err) {
    output.err(`ectp conformance: ${(err as Error).message}\n`);
    return 2;
  } finally {
    await first?.close();
  }
}

/** Parse and check the command line, read the files it names and check the output paths; throws UsageError or EctpError(INVALID_ARGUMENT). */
async function configure(argv: readonly string[]): Promise<Config | "help"> {
  const v = parse(argv);
  if (v.help) return "help";
  for (const name of ["testee", "features", "known-failing", "filter", "junit", "report"] as const) {
    const value = v[name];
    if (value !== undefined && value.trim() === "")
      throw new UsageError(
        name === "testee"
          ? `--testee is empty; give the command that starts the testee, e.g. --testee "python -m my_ectp.testee"`
          : `--${name} is empty; give a ${name === "filter" ? "glob, e.g. --filter \"consumer/c1-*/**\"" : "file name"}`,
      );
  }
  if (v.testee === undefined && v.transport === undefined) throw new UsageError("--testee or --transport is required");
  if (v.transport !== undefined && !TRANSPORT_NAMES.includes(v.transport))
    throw new UsageError(`--transport must be one of ${TRANSPORT_NAMES.join(", ")}, got ${JSON.stringify(v.transport)}`);
  if (v.level !== undefined && v.level !== "required" && v.level !== "all")
    throw new UsageError(`--level must be required or all, got ${JSON.stringify(v.level)}`);
  const commandTimeoutMs = intFlag("command-timeout-ms", v["command-timeout-ms"], 1, MAX_TIMEOUT_MS) ?? 5000;
  const caseTimeoutMs = intFlag("case-timeout-ms", v["case-timeout-ms"], 1, MAX_TIMEOUT_MS) ?? defaultCaseTimeoutMs(commandTimeoutMs, MAX_TIMEOUT_MS);
  const seedCount = intFlag("seeds", v.seeds, 0, MAX_SEEDS) ?? 0;
  const seed = intFlag("seed", v.seed, 0, MAX_SEED);
  if (seed !== undefined && v.seeds !== undefined)
    throw new UsageError(`--seed ${seed} replays one schedule and --seeds ${seedCount} runs schedules 1 to ${seedCount}; give one of them`);
  if (seed !== undefined && v.filter !== undefined)
    throw new UsageError(`--seed ${seed} replays one randomised schedule, which --filter does not select; drop --filter ${JSON.stringify(v.filter)}`);
  if (v.testee === undefined && (v.seed !== undefined || v.seeds !== undefined))
    throw new UsageError(`--${v.seed !== undefined ? "seed" : "seeds"} runs randomised schedules between two testees; it needs --testee`);
  const seedsFrom = intFlag("seeds-from", v["seeds-from"], 0, MAX_SEED) ?? 1;
  const seedsOnly = v["seeds-only"] === true;
  for (const [flag, given] of [
    ["seeds-from", v["seeds-from"] !== undefined],
    ["seeds-only", seedsOnly],
  ] as const)
    if (given && v.seeds === undefined)
      throw new UsageError(`--${flag} goes with --seeds n (${flag === "seeds-from" ? "it starts their range" : "it leaves the scripted cases out"}); give --seeds too`);
  if (seedCount - 1 > MAX_SEED - seedsFrom)
    throw new UsageError(`--seeds-from ${seedsFrom} --seeds ${seedCount} runs past schedule ${MAX_SEED_TEXT}; start lower or run fewer`);
  if (seedsOnly && seedCount === 0) throw new UsageError("--seeds-only with --seeds 0 would run nothing; give --seeds n with n >= 1");
  if (seedsOnly && v.filter !== undefined)
    throw new UsageError(`--filter selects scripted cases, which --seeds-only leaves out; drop --filter ${JSON.stringify(v.filter)} or --seeds-only`);

  const features = v.features !== undefined ? readFeaturesFile(v.features, "--features") : DEFAULT_FEATURES;
  const knownFailing = v["known-failing"] !== undefined ? readKnownFailingFile(v["known-failing"], "--known-failing") : new Map<string, string>();
  const level = (v.level as "required" | "all" | undefined) ?? "required";
  const allCases = loadCases();
  const harnesses = v.transport !== undefined ? await transportHarnesses(v.transport) : [];
  // Transport case names check known-failing entries and a filter over --transport cases only.
  const transportCases = knownFailing.size > 0 || v.transport !== undefined ? await transportCaseNames() : [];

  if (knownFailing.size > 0) {
    const caseNames = new Set(allCases.map((c) => c.fullName));
    const isCase = (name: string): boolean =>
      caseNames.has(name) ||
      [RANDOMISED_SUITE, SUBSCRIBER_RANDOMISED_SUITE].some((suite) => name.startsWith(`${suite}/seed-`) && /^(?:0|[1-9]\d*)$/.test(name.slice(suite.length + 6))) ||
      (/^transport\/[^/]+\/[^/]+$/.test(name) && transportCases.includes(name.split("/")[2] as string));
    const unknown = [...knownFailing.keys()].filter((k) => !isCase(k));
    if (unknown.length > 0) {
      const described = unknown.map((k) => {
        const like = closestName(k, caseNames, Math.floor(k.length / 3)); // at most a third of its letters wrong
        return `${JSON.stringify(k)}${like ? ` (did you mean ${like}?)` : ""}`;
      });
      throw new UsageError(
        `--known-failing ${JSON.stringify(v["known-failing"])} lists ${unknown.length === 1 ? "a name that is" : "names that are"} no case's: ${described.join(", ")}; ` +
          "use full case names as the report prints them (e.g. consumer/c1-admission/local-item-is-ready, transport/mock/<case>, randomised/i1-i2-i3-i4-i5-i6-c6/seed-<n>, randomised/e1-e2-p8-i1-i4/seed-<n>), or remove the entry",
      );
    }
  }

  const scripted = v.testee !== undefined && seed === undefined && !seedsOnly;
  const cases = scripted ? selectCases(allCases, { level, ...(v.filter !== undefined ? { filter: v.filter } : {}) }) : [];
  // Whether the run has transport cases: a --filter may select none of them (the scripted ones only).
  let transportSelected = v.transport !== undefined;
  if (v.filter !== undefined && (scripted || v.transport !== undefined)) {
    const matches = globMatcher(v.filter);
    const transportMatches = harnesses.some((h) => transportCases.some((n) => matches(`transport/${h.name}/${n}`)));
    transportSelected &&= transportMatches;
    if (cases.length === 0 && !transportMatches) {
      const otherLevel = scripted && level === "required" ? selectCases(allCases, { level: "all", filter: v.filter }).length : 0;
      const runs = [scripted ? "the scripted cases" : "", v.transport !== undefined ? `the transport cases of ${harnesses.map((h) => h.name).join(", ")}` : ""]
        .filter(Boolean)
        .join(" or ");
      throw new UsageError(
        `--filter ${JSON.stringify(v.filter)} matches none of ${runs}, so nothing would run` +
          (otherLevel > 0
            ? `; it matches ${otherLevel} RECOMMENDED case${otherLevel === 1 ? "" : "s"}: add --level all`
            : `; case names look like ${[
                ...(scripted ? [allCases[0]?.fullName ?? "consumer/<group>/<case>"] : []),
                ...harnesses.slice(0, 1).map((h) => `transport/${h.name}/${transportCases[0] ?? "<case>"}`),
              ].join(" or ")}`) +
          (seedCount > 0 ? " (--seeds are not filtered)" : ""),
      );
    }
  }

  const outputs: [string, string][] = [];
  if (v.junit !== undefined) outputs.push(["--junit", v.junit]);
  if (v.report !== undefined) outputs.push(["--report", v.report], ["--report (its summary)", summaryPath(v.report)]);
  for (const [flag, path] of outputs) {
    const problem = outputPathProblem(path, { createsDirectories: true });
    if (problem !== undefined) throw new UsageError(`${flag} cannot write ${JSON.stringify(path)}: ${problem}; nothing was run`);
  }
  for (let i = 0; i < outputs.length; i++)
    for (let j = i + 1; j < outputs.length; j++) {
      const [fa, pa] = outputs[i] as [string, string];
      const [fb, pb] = outputs[j] as [string, string];
      if (resolve(pa) === resolve(pb)) throw new UsageError(`${fa} and ${fb} both write ${JSON.stringify(pa)}; give them different file names`);
    }

  const config: Config = {
    testee: v.testee,
    transport: v.transport,
    jsonLines: v["json-lines"] === true,
    featuresPath: v.features,
    features,
    knownFailingPath: v["known-failing"],
    knownFailing,
    filter: v.filter,
    commandTimeoutMs,
    commandTimeoutGiven: v["command-timeout-ms"] !== undefined,
    caseTimeoutMs,
    caseTimeoutGiven: v["case-timeout-ms"] !== undefined,
    seedTimeoutMs: intFlag("seed-timeout-ms", v["seed-timeout-ms"], 1, MAX_TIMEOUT_MS),
    seeds: v.testee === undefined ? [] : seed !== undefined ? [seed] : Array.from({ length: seedCount }, (_, i) => seedsFrom + i),
    level,
    scripted,
    cases,
    harnesses,
    junit: v.junit,
    report: v.report,
  };
  // Every selected case or seed would be skipped: a green run that tested nothing (and never
  // started the testee, so even a command that does not exist would pass).
  // (Beside --transport too, when --filter selects none of its cases: they would not test anything either.)
  if (config.testee !== undefined && !transportSelected && !needsTestee(config)) {
    const claimed = new Set(features);
    const roles = [...new Set(config.cases.filter((k) => unclaimedRole(k.spec, claimed) !== undefined).map((k) => k.spec.role))];
    throw new UsageError(
      config.seeds.length > 0 && !config.scripted
        ? `the randomised schedules need the features ${RANDOMISED_FEATURES.join(", ")} (consumer with producer) or ${SUBSCRIBER_RANDOMISED_FEATURES.join(", ")} (subscriber with producer); the features claim ${features.join(", ")}, so nothing would run`
        : `every selected case needs a role the features do not claim (${roles.join(", ")}; claimed: ${features.join(", ")}), so nothing would run; pass --features with a file claiming it, or select other cases`,
    );
  }
  return config;
}

/**
 * Whether the run tests the testee at all: some selected case runs under a role the features file
 * claims, or a seed level has the features it needs. A run that does not is refused (or, with --transport,
 * runs the transport level alone).
 */
function needsTestee(c: Config): boolean {
  if (c.seeds.length > 0 && randomisedLevels(c.features).length > 0) return true;
  const features = new Set(c.features);
  return c.scripted && c.cases.some((k) => unclaimedRole(k.spec, features) === undefined);
}

/**
 * Whether anything the run would run starts a testee: a seed level with the features it needs, or
 * a selected case whose role (the one it runs under) and every needed feature the features file claims. When every case
 * is skipped for features, none is started.
 */
function startsTestee(c: Config): boolean {
  if (c.seeds.length > 0 && randomisedLevels(c.features).length > 0) return true;
  const features = new Set(c.features);
  return c.scripted && c.cases.some((k) => unclaimedRole(k.spec, features) === undefined && missingFeature(k.spec, features) === undefined);
}

/** One error for a testee that did not start: the command, what happened and what to try. */
function startFailure(command: string, c: Config, err: unknown): string {
  if (!(err instanceof TesteeFault)) return `the testee ${JSON.stringify(command)} could not be started: ${thrownMessage(err)}`;
  const prefix = `testee ${err.kind}: `;
  let detail = err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
  const cut = detail.indexOf("\n--- testee stderr (tail) ---\n");
  if (cut >= 0) detail = detail.slice(0, cut);
  const startupMs = Math.max(10_000, c.commandTimeoutMs);
  const what =
    err.kind === "exited"
      ? `${detail} before answering Init`
      : err.kind === "hung"
        ? `did not answer Init within ${startupMs} ms (the start-up timeout: the larger of 10000 ms and --command-timeout-ms)`
        : err.kind === "malformed"
          ? `did not answer Init properly: ${detail.replace(/^testee answered Init with /, "it answered ")}`
          : `could not be spawned: ${detail}`;
  const hints: string[] = [];
  const code = /^exited with code (\d+)/.exec(detail)?.[1];
  if (code === "127") hints.push("exit status 127: the shell found no such command; check the path and the quoting of --testee");
  if (code === "126") hints.push("exit status 126: the command is not executable; chmod +x it or run it through its interpreter");
  if (/UNSUPPORTED_PROTOCOL/.test(detail)) hints.push("the testee does not speak testee protocol version 1 (TESTEE-PROTOCOL.md §2)");
  // A JSON-lines testee waits for a newline that the binary Init frame does not contain.
  if (err.kind === "hung" && !c.jsonLines)
    hints.push("a testee that speaks JSON lines never sees the end of a binary Init frame: if it does, run with --json-lines");
  // And the reverse: a binary testee reads the JSON line's first four bytes ('{"co') as a frame length of ~2 GB.
  if (err.kind === "hung" && c.jsonLines)
    hints.push("a testee that speaks binary frames reads the first four bytes of a JSON line as a frame length and waits for ~2 GB: if it does, run without --json-lines");
  const stderr = err.stderrTail.trimEnd();
  return [
    `the testee did not start, so no case was run: ${JSON.stringify(command)} ${what}`,
    ...(stderr ? ["--- testee stderr (tail) ---", stderr, "---"] : []),
    ...hints.map((h) => `hint: ${h}`),
  ].join("\n");
}

/** Without --features, a role skip says the defaults were used and how to claim the role. */
function defaultFeaturesReason(r: CaseResult): CaseResult {
  const role = r.status === "skipped" ? /^role (\S+) not in the features file$/.exec(r.message ?? "")?.[1] : undefined;
  if (role === undefined) return r;
  return {
    ...r,
    message: `role ${role} is not in the default features (${DEFAULT_FEATURES.join(", ")}); pass --features with a file claiming it to run it`,
  };
}

/** The summary file written beside `--report <file>`. */
function summaryPath(report: string): string {
  return join(dirname(report), `${basename(report).replace(/\.json$/, "")}.ectp-report.json`);
}

/** Features the randomised level needs (both roles, and ReadMemory to play the transport between them). */
const RANDOMISED_FEATURES: readonly string[] = ["consumer", "producer", "read-memory"];

/** The randomised levels whose features `features` claims: consumer with producer, subscriber with producer. */
function randomisedLevels(features: readonly string[]): ("consumer" | "subscriber")[] {
  const levels: ("consumer" | "subscriber")[] = [];
  if (RANDOMISED_FEATURES.every((f) => features.includes(f))) levels.push("consumer");
  if (SUBSCRIBER_RANDOMISED_FEATURES.every((f) => features.includes(f))) levels.push("subscriber");
  return levels;
}

/** Transports `--transport` accepts. */
const TRANSPORT_NAMES: readonly string[] = ["mock", "nixl"];

/** The package `--transport nixl` loads (not a dependency: resolved at run time, if installed). */
const NIXL_PACKAGE = "@ectp/transport-nixl";

/**
 * The harnesses of a named transport. `nixl` is imported at run time; when the package cannot
 * be loaded, a harness whose every case is skipped with the reason (the run then exits 2:
 * nothing of the transport was tested).
 */
async function transportHarnesses(name: string): Promise<TransportHarness[]> {
  if (name === "mock") return [mockTransportHarness({ clock: "virtual" }), mockTransportHarness({ clock: "real" })];
  let mod: { nixlTransportHarness?: () => TransportHarness };
  try {
    mod = (await import(NIXL_PACKAGE)) as typeof mod;
  } catch (err) {
    return [unavailable("nixl", `${NIXL_PACKAGE} could not be loaded (${(err as Error).message}); install it (npm install ${NIXL_PACKAGE}) or, in this repository, build it: npx turbo run build --filter=${NIXL_PACKAGE}`)];
  }
  if (typeof mod.nixlTransportHarness !== "function")
    return [unavailable("nixl", `${NIXL_PACKAGE} does not export nixlTransportHarness(); update it to the version matching @ectp/conformance`)];
  return [mod.nixlTransportHarness()];
}

function unavailable(name: string, skipReason: string): TransportHarness {
  const never = (): Promise<never> => Promise.reject(new EctpError("TRANSPORT_UNAVAILABLE", skipReason));
  return { name, skipReason, createPeers: never, advance: never, killPeer: never };
}

/** The transport cases' names (after `transport/<harness>/`), listed without running any. */
async function transportCaseNames(): Promise<string[]> {
  const names: string[] = [];
  const prefix = "transport/list/";
  await runTransportConformance(unavailable("list", "listing"), {
    select: (name) => {
      names.push(name.slice(prefix.length));
      return false;
    },
  });
  return names;
}

/**
 * The value of an integer flag, or `undefined` when it is absent. Throws a UsageError naming
 * the flag, the range it accepts (both ends: a value past 2^53 - 1 is an integer too, just not one
 * a JavaScript number holds) and the value for anything else (`abc`, `1.5`, out of range).
 */
function intFlag(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max === MAX_SEED ? MAX_SEED_TEXT : max}; got ${JSON.stringify(text)}`);
  return n;
}

/**
 * How a replay command starts: `npx @ectp/cli conformance`, which runs the `ectp` of a clone of this
 * repository or of a project that installed `@ectp/cli`, and elsewhere fetches that package (`ectp`
 * alone is on the PATH only when installed globally; `npx ectp` would offer to install the unrelated
 * npm package named `ectp`). Its paths are the run's own, relative to where the run was started.
 */
const REPLAY_PREFIX: readonly string[] = ["npx", "@ectp/cli", "conformance"];

/** A word for a POSIX shell command line: as is when plain, else single-quoted. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

function writeOut(flag: string, path: string, text: string): void {
  try {
    makeDirectories(dirname(path));
    writeFileSync(path, text);
  } catch (err) {
    throw new Error(`${flag} could not write ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
}

const OPTIONS = {
  testee: { type: "string" },
  transport: { type: "string" },
  "json-lines": { type: "boolean" },
  features: { type: "string" },
  "known-failing": { type: "string" },
  level: { type: "string" },
  filter: { type: "string" },
  seeds: { type: "string" },
  "seeds-from": { type: "string" },
  "seeds-only": { type: "boolean" },
  seed: { type: "string" },
  junit: { type: "string" },
  report: { type: "string" },
  "command-timeout-ms": { type: "string" },
  "case-timeout-ms": { type: "string" },
  "seed-timeout-ms": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"];

/** Parse the flags; throws UsageError for an unknown flag, a missing value or a flag given twice with values. */
function parse(argv: readonly string[]) {
  const run = () => parseArgs({ args: [...argv], allowPositionals: false, tokens: true, options: OPTIONS });
  let parsed: ReturnType<typeof run>;
  try {
    parsed = run();
  } catch (err) {
    throw new UsageError(describeParseError(err, argv));
  }
  const given = new Map<string, string[]>();
  for (const t of parsed.tokens)
    if (t.kind === "option" && OPTIONS[t.name as keyof typeof OPTIONS]?.type === "string") {
      const list = given.get(t.name) ?? [];
      given.set(t.name, list);
      list.push(t.value ?? "");
    }
  for (const [name, values] of given)
    if (values.length > 1)
      throw new UsageError(`--${name} is given ${values.length} times (${values.map((x) => JSON.stringify(x)).join(", ")}); give it once`);
  return parsed.values;
}

/** A node:util parseArgs error as one sentence naming the flag. */
function describeParseError(err: unknown, argv: readonly string[]): string {
  const code = (err as { code?: string }).code;
  const msg = thrownMessage(err);
  const flag = /(--[\w-]+)/.exec(msg)?.[1] ?? /'(-[^' ,]+)/.exec(msg)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    // A misspelt long option (`--seed-from`, `--Testee`): the option it is within 2 edits of.
    const like = flag?.startsWith("--") ? closestName(flag.slice(2), Object.keys(OPTIONS), 2) : undefined;
    return `unknown option ${flag ?? msg}${like !== undefined ? ` (did you mean --${like}?)` : ""}`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (flag && /ambiguous/.test(msg)) return `${flag} needs a value; to pass one that starts with "-", write ${flag}=<value>`;
    if (flag && /argument missing/.test(msg)) return `${flag} needs a value`;
    return `${flag ?? "an option"} does not take a value`;
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    const arg = /'([^']*)'/.exec(msg)?.[1];
    // After "--" parseArgs reads everything as an argument, flags included.
    if (argv.includes("--")) return `unexpected argument ${JSON.stringify(arg ?? msg)} after "--", which ends the options; drop the "--"`;
    return `unexpected argument ${JSON.stringify(arg ?? msg)}; every option is a --flag (quote a --testee command that has spaces: --testee "python -m my_ectp.testee")`;
  }
  return msg.split("\n")[0] ?? msg;
}

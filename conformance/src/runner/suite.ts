/**
 * Running many cases against a testee: features, levels, filters, known failures,
 * testee restarts.
 * @module
 */
import { EctpError, describeValue } from "@ectp/protocol";
import { checkFunction, checkLevel, checkOptions, checkRunValues } from "../arguments.js";
import type { LoadedCase } from "../cases/format.js";
import { loadCases } from "../cases/load.js";
import { type TesteeConnection, type TesteeFactory, TesteeFault, withRequests } from "../testee/connection.js";
import { CaseBug } from "./match.js";
import { CaseFailure, CaseSkip, CaseTimeout, missingFeature, runScriptedCase, unclaimedRole } from "./script.js";
import { thrownStack } from "../thrown.js";

/** How one case ended. `known-failing`: failed and listed; `unexpected-pass`: listed but passed (fails the run). */
export type CaseStatus = "passed" | "failed" | "skipped" | "known-failing" | "unexpected-pass";

/** The result of one case. */
export interface CaseResult {
  /**
   * The case's full name, as `--filter` matches it: `<role>/<file stem>/<case>` for a scripted case,
   * `randomised/<ids>/seed-<n>` for a seed, `transport/<implementation>/<case>`, `system/<case>`.
   */
  readonly name: string;
  /** REQUIRED or RECOMMENDED (`RANDOMISED` for seeded runs). */
  readonly level: string;
  /** The SPEC requirement ids the case checks, e.g. `["C3", "C4"]`. */
  readonly requirements: readonly string[];
  /** Failures of docs/failures.md the case targets. */
  readonly catches: readonly number[];
  /** How the case ended: passed, failed, skipped (a feature not claimed), known-failing or unexpected-pass. */
  readonly status: CaseStatus;
  /** Why it failed or was skipped; the known-failing reason for listed cases. */
  readonly message?: string;
  /**
   * True when the case failed only by running past its wall-clock limit with no cause the runner could
   * name (a slow testee or machine: see {@link CaseTimeout}); such a failure says nothing of the rules.
   * Absent otherwise.
   */
  readonly timedOut?: true;
  /** Wall time in ms. */
  readonly durationMs: number;
}

/** What {@link runSuite} runs and how: the testee factory (required), the features claimed, the known-failing list, which cases, the per-case time limit, and progress hooks. */
export interface SuiteOptions {
  /** Makes testee connections (restarted after a crash, hang or malformed output). */
  testee: TesteeFactory;
  /** Features the implementation claims. Default `["consumer", "producer"]`. */
  features?: Iterable<string> | undefined;
  /** Cases expected to fail, with a reason each. A listed case that passes fails the run. Default none. */
  knownFailing?: ReadonlyMap<string, string> | undefined;
  /** `required` runs REQUIRED cases only; `all` runs RECOMMENDED ones too. Default `required`; any other value is refused (see {@link selectCases}). */
  level?: "required" | "all" | undefined;
  /** Glob over full case names (`*` within a segment, `**` across). Default all. */
  filter?: string | undefined;
  /** The cases. Default every case under the package's `cases/`. */
  cases?: readonly LoadedCase[] | undefined;
  /** Called after each case (progress output). */
  onResult?: ((result: CaseResult) => void) | undefined;
  /** Called with each warning line, e.g. InitResult.features differing from the features file. Default: ignored. */
  onWarning?: ((message: string) => void) | undefined;
  /** Wall-clock limit of one case, in ms (see `ScriptOptions.caseTimeoutMs`). Default 60000. */
  caseTimeoutMs?: number | undefined;
  /** The count of failed starts, shared with the randomised seeds of the same run (as `ectp conformance` does). Default: this run's own. */
  startFailures?: StartFailures | undefined;
}

/** The keys of {@link SuiteOptions}. */
const SUITE_OPTIONS: readonly string[] = Object.keys({ testee: true, features: true, knownFailing: true, level: true, filter: true, cases: true, onResult: true, onWarning: true, caseTimeoutMs: true, startFailures: true } satisfies Record<keyof SuiteOptions, true>);

/** Results of a run. */
export interface SuiteReport {
  /** Every case result, in run order. */
  readonly results: CaseResult[];
  /** Cases that passed. */
  readonly passed: number;
  /** Failed plus unexpected passes. */
  readonly failed: number;
  /** Skipped for a missing optional feature. */
  readonly skipped: number;
  /** Listed in the known-failing file and failing. */
  readonly knownFailing: number;
  /** True when nothing failed. */
  readonly ok: boolean;
}

/** One step of a compiled glob: a character, `?`, `*` or `**` (a run of two or more stars). */
type GlobStep = string | typeof ONE | typeof SEGMENT | typeof ANY;
const ONE = 0;
const SEGMENT = 1;
const ANY = 2;

/**
 * A glob over case names as a predicate: `?` is one character and `*` any run of characters
 * within one `/` segment, `**` any run across segments; a name matches when the glob matches it
 * whole or up to one of its `/` (so `consumer/c3-*` selects every case under `consumer/c3-...`).
 * Matched in O(glob length x name length), whatever the glob: a regular expression of it
 * backtracked exponentially (a 13-character `--filter` of stars ran for over a minute).
 */
export function globMatcher(glob: string): (name: string) => boolean {
  const steps: GlobStep[] = [];
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === "*") {
      let run = 1;
      while (glob[i + 1] === "*") {
        run++;
        i++;
      }
      steps.push(run === 1 ? SEGMENT : ANY);
    } else steps.push(ch === "?" ? ONE : ch);
  }
  return (name) => {
    const n = name.length;
    // at[i]: whether the steps so far match name[0, i).
    let at = new Uint8Array(n + 1);
    at[0] = 1;
    for (const step of steps) {
      const next = new Uint8Array(n + 1);
      let reached = false;
      for (let i = 0; i <= n; i++) {
        if (at[i] === 0) continue;
        reached = true;
        if (step === ANY) {
          next.fill(1, i); // any run from here, across segments (and every later i is covered)
          break;
        }
        if (step === SEGMENT) {
          next[i] = 1;
          for (let k = i; k < n && name[k] !== "/"; k++) next[k + 1] = 1;
        } else if (i < n && (step === ONE ? name[i] !== "/" : name[i] === step)) next[i + 1] = 1;
      }
      if (!reached) return false;
      at = next;
    }
    if (at[n] === 1) return true;
    for (let i = 0; i < n; i++) if (at[i] === 1 && name[i] === "/") return true;
    return false;
  };
}

/**
 * Select the cases a run executes: at `level` `required` (the default) the REQUIRED cases, at
 * `all` the RECOMMENDED ones too; with a `filter`, only those whose full name it matches (see
 * {@link globMatcher}). The order of `cases` is kept.
 * @throws EctpError(INVALID_ARGUMENT) for `cases` that is not an array, options that are not an
 *   object, a level other than `required` or `all` (naming it and the allowed ones), or a filter
 *   that is not a string, so that a wrong call never runs another selection than the one asked for.
 */
export function selectCases(cases: readonly LoadedCase[], options: Pick<SuiteOptions, "level" | "filter">): LoadedCase[] {
  if (!Array.isArray(cases)) throw new EctpError("INVALID_ARGUMENT", `selectCases: cases must be an array of loaded cases (see loadCases); got ${describeValue(cases)}`);
  if (options === null || typeof options !== "object")
    throw new EctpError("INVALID_ARGUMENT", `selectCases: options must be an object such as { level: "all" }; got ${describeValue(options)}`);
  const { level, filter } = options;
  checkLevel("selectCases", "level", level);
  if (filter !== undefined && typeof filter !== "string")
    throw new EctpError("INVALID_ARGUMENT", `selectCases: filter must be a glob over case names (a string) such as "consumer/c3-*"; got ${describeValue(filter)}`);
  const matches = filter ? globMatcher(filter) : undefined;
  return cases.filter((c) => (level === "all" || c.spec.level === "REQUIRED") && (!matches || matches(c.fullName)));
}

/** Summarise results into a report. */
export function summarise(results: CaseResult[]): SuiteReport {
  const count = (s: CaseStatus): number => results.filter((r) => r.status === s).length;
  const failed = count("failed") + count("unexpected-pass");
  return {
    results,
    passed: count("passed"),
    failed,
    skipped: count("skipped"),
    knownFailing: count("known-failing"),
    ok: failed === 0,
  };
}

/** A case outcome before the known-failing list is applied. */
export interface RawOutcome {
  /** Passed, failed or skipped. */
  readonly status: "passed" | "failed" | "skipped";
  /** Why it failed or was skipped. */
  readonly message?: string;
  /** A failure only by the wall-clock limit ({@link CaseResult.timedOut}). */
  readonly timedOut?: true;
}

/** A case outcome after the known-failing list is applied. */
export interface ClassifiedOutcome {
  /** The case's {@link CaseStatus} once the known-failing list is applied: a listed failure is `known-failing`, a listed pass `unexpected-pass`. */
  readonly status: CaseStatus;
  /** Message, with the known-failing reason when listed. */
  readonly message?: string;
  /** A failure only by the wall-clock limit, not listed as known-failing ({@link CaseResult.timedOut}). */
  readonly timedOut?: true;
}

/** Apply the known-failing list to a raw pass/fail. */
export function classify(name: string, outcome: RawOutcome, knownFailing: ReadonlyMap<string, string> | undefined): ClassifiedOutcome {
  const reason = knownFailing?.get(name);
  if (reason === undefined || outcome.status === "skipped") return outcome;
  if (outcome.status === "failed") return { status: "known-failing", message: `${reason} (failure: ${outcome.message ?? ""})` };
  return { status: "unexpected-pass", message: `listed as known-failing (${reason}) but passed: remove it from the list` };
}

/**
 * Differences between the features file and the features a testee lists in InitResult, as
 * warning lines (testee.proto InitResult.features: informative, the runner follows the file).
 */
export function featureWarnings(claimed: ReadonlySet<string>, listed: readonly string[] | null | undefined): string[] {
  const init = new Set(listed ?? []);
  const onlyInit = [...init].filter((f) => !claimed.has(f));
  const onlyFile = [...claimed].filter((f) => !init.has(f));
  const out: string[] = [];
  if (onlyInit.length > 0)
    out.push(
      `the testee's InitResult lists features the features file does not claim: ${onlyInit.join(", ")} (the runner follows the features file: cases needing them are skipped)`,
    );
  if (onlyFile.length > 0)
    out.push(
      `the features file claims features the testee's InitResult does not list: ${onlyFile.join(", ")} (the runner follows the features file: an Unsupported answer for them fails the case)`,
    );
  return out;
}

/**
 * How many times in a row the testee may fail to start (no answer to Init) before the runner stops
 * starting it: each later case that needs it fails at once (TESTEE-PROTOCOL.md §2, item 7), rather
 * than after another start-up timeout each.
 */
export const MAX_START_FAILURES_IN_A_ROW = 3;

/**
 * The testee's failed starts in a row, for everything a run starts it for (scripted cases,
 * randomised seeds; share one to count across them): after {@link MAX_START_FAILURES_IN_A_ROW},
 * `stopped` says why nothing starts it again, and what would have started it fails at once.
 */
export class StartFailures {
  private inARow: number;
  /** What the last failed start was for: the results that say how it failed. */
  private failedFor: "case" | "seed";

  /**
   * A count with no failed start yet. Pass the same one as `startFailures` to {@link runSuite},
   * `runRandomised` and `runSubscriberRandomised` to count a run's starts across them, as
   * `ectp conformance` does; each makes its own when given none.
   */
  constructor() {
    this.inARow = 0;
    this.failedFor = "case";
  }

  /** Why the runner no longer starts the testee (the message of a case or seed not run), or undefined while it does. */
  get stopped(): string | undefined {
    if (this.inARow < MAX_START_FAILURES_IN_A_ROW) return undefined;
    return `not run: the testee failed to start ${this.inARow} times in a row (the ${this.failedFor}s before say how), so the runner no longer starts it; fix the testee's start-up and rerun`;
  }

  /**
   * Start a testee with `make`: a start that does not answer Init (a `TesteeFault`) is counted, one
   * that does ends the row.
   * @param make - The testee factory.
   * @param forWhat - What the testee is started for, as its failure and {@link StartFailures.stopped} name it.
   * @param restart - Whether it replaces one that ran before (its failure says "restarted").
   * @returns The started testee. Rejects with the `TesteeFault`, reworded to say it came as the runner
   *   (re)started the testee for this case or seed (TESTEE-PROTOCOL.md §6), or with what else `make` threw.
   */
  async start(make: TesteeFactory, forWhat: "case" | "seed", restart = false): Promise<TesteeConnection> {
    let conn: TesteeConnection;
    try {
      conn = await make();
    } catch (err) {
      if (!(err instanceof TesteeFault)) throw err;
      this.inARow++;
      this.failedFor = forWhat;
      throw startFault(err, restart, forWhat);
    }
    this.inARow = 0;
    return conn;
  }
}

/**
 * Run the scripted cases against a testee. Never throws for anything the testee does: a
 * crash, hang or malformed answer fails that case (with the testee's stderr tail) and the
 * next case gets a fresh testee. A case the features skip is skipped before any testee is
 * started for it. A testee that fails to start fails the case it was started for, saying so;
 * after 3 such failures in a row (`MAX_START_FAILURES_IN_A_ROW`), every later case that needs
 * it fails at once, saying why, and no testee is started again.
 *
 * Output a testee writes after a case's last answer (a second answer, or output unasked) fails
 * that case, as TESTEE-PROTOCOL.md §2 says, even when it is read only once the next case began
 * (before any of that case's commands was answered) or as the testee was closed at the end. So a
 * case that used the testee is reported (`onResult`) once the next one that uses it has run, or at
 * the end; a case that failed only for its predecessor's output runs again on a fresh testee.
 *
 * A wrong call rejects at once, before any case runs, with EctpError(INVALID_ARGUMENT) naming what
 * is wrong: options that are not an object, an option it does not take (a misspelt one), no
 * `testee` factory, `features` that are not strings (a string would be read as its letters),
 * `knownFailing` that is not a Map, a `caseTimeoutMs` that is not a positive number, an `onResult`
 * or `onWarning` that is not a function, or a `level`, `filter` or `cases` that {@link selectCases}
 * refuses.
 */
export async function runSuite(options: SuiteOptions): Promise<SuiteReport> {
  checkOptions("runSuite", options, SUITE_OPTIONS);
  checkFunction("runSuite", "options.testee", options.testee, "makes a testee connection, such as () => spawnTestee({ command })");
  checkRunValues("runSuite", options);
  const features = new Set(options.features ?? ["consumer", "producer"]);
  const cases = selectCases(options.cases ?? loadCases(), options);
  const results: CaseResult[] = [];
  let conn: TesteeConnection | undefined;
  let featuresCompared = false;
  const starts = options.startFailures ?? new StartFailures();
  /** Results not yet reported: the last case that used the testee (first), then those that used none (skipped, or failed to start one). */
  let held: { result: CaseResult; raw: RawOutcome; conn: TesteeConnection | undefined; stderrBefore?: number }[] = [];
  const report = (r: CaseResult): void => {
    results.push(r);
    options.onResult?.(r);
  };
  /**
   * The held case that used `faulty` fails for `fault`, output after its last answer; `when` ends the
   * note saying so, on the reason line (after the testee's stderr it would read as the testee's).
   */
  const blameHeld = (faulty: TesteeConnection, fault: TesteeFault, when = ""): void => {
    const last = held[0];
    if (last === undefined || last.conn !== faulty) return;
    const noted = new TesteeFault(fault.kind, `${fault.detail} (read after this case's last answer${when})`, fault.stderrTail, fault.afterCommand);
    const why = faultMessage(noted, faulty, last.stderrBefore);
    const raw: RawOutcome = last.raw.status === "failed" ? { status: "failed", message: `${last.raw.message ?? ""}; and: ${why}` } : { status: "failed", message: why };
    last.raw = raw;
    last.result = withOutcome(last.result, classify(last.result.name, raw, options.knownFailing));
  };
  /**
   * The testee for the next case: the live one, or one started for it (`fresh`); the case's failed
   * outcome when none starts, or starts have stopped. The first testee's features are compared with
   * the run's once.
   */
  const testeeForCase = async (): Promise<{ testee: TesteeConnection; fresh: boolean } | { failed: RawOutcome }> => {
    const fresh = !conn?.alive;
    if (fresh) {
      const stopped = starts.stopped;
      if (stopped !== undefined) return { failed: { status: "failed", message: stopped } };
      try {
        conn = await starts.start(options.testee, "case", conn !== undefined);
      } catch (err) {
        if (!(err instanceof TesteeFault)) throw err;
        return { failed: { status: "failed", message: err.message } };
      }
    }
    const testee = conn as TesteeConnection;
    if (!featuresCompared) {
      featuresCompared = true;
      for (const w of featureWarnings(features, testee.initResult?.features)) options.onWarning?.(w);
    }
    return { testee, fresh };
  };
  /** Run one case; `used`: the testee it ran on; `rerun`: it failed only for its predecessor's output. */
  const runCase = async (c: LoadedCase): Promise<{ outcome: RawOutcome; used?: TesteeConnection | undefined; rerun?: true; stderrBefore?: number | undefined }> => {
    let answered = 0;
    let used: TesteeConnection | undefined;
    /** How many characters the testee had written to stderr before this case began (undefined for one started for it). */
    let stderrBefore: number | undefined;
    try {
      const got = await testeeForCase();
      if ("failed" in got) return { outcome: got.failed };
      used = got.testee;
      stderrBefore = got.fresh ? undefined : used.stderrWritten?.();
      await runScriptedCase(c, countingAnswers(used, () => answered++), { features, caseTimeoutMs: options.caseTimeoutMs });
      // Output the testee wrote after its last answer (a second answer, a crash on the way out)
      // belongs to this case: let it arrive, then judge.
      await new Promise((resolve) => setImmediate(resolve));
      if (used.fault) throw used.fault;
      return { outcome: { status: "passed" }, used, stderrBefore };
    } catch (err) {
      // TESTEE-PROTOCOL.md §2: output after the previous case's last answer fails that case, not this one.
      if (err instanceof TesteeFault && err.afterCommand !== undefined && answered === 0 && used !== undefined && held[0]?.conn === used) {
        // (A command named as waiting for its answer is then the next case's.)
        blameHeld(used, err, ", once the next case had begun");
        return { outcome: { status: "failed", message: err.message }, rerun: true };
      }
      const outcome = err instanceof TesteeFault ? { status: "failed" as const, message: faultMessage(err, used, stderrBefore) } : caseError(err);
      return { outcome, used, stderrBefore };
    }
  };
  for (const c of cases) {
    const t0 = performance.now();
    let outcome: RawOutcome;
    let used: TesteeConnection | undefined;
    let stderrBefore: number | undefined;
    // Skips are decided before a testee is started: a case the features skip is skipped whether or not one would start.
    const missing = missingFeature(c.spec, features);
    const roleSkip = unclaimedRole(c.spec, features);
    if (roleSkip !== undefined) outcome = { status: "skipped", message: roleSkip };
    else if (missing !== undefined) outcome = caseError(new CaseSkip(missing));
    else {
      let ran = await runCase(c);
      if (ran.rerun) ran = await runCase(c); // on a fresh testee: the predecessor's output is judged
      ({ outcome, used, stderrBefore } = ran);
    }
    const about = { name: c.fullName, level: c.spec.level, requirements: c.spec.requirements, catches: c.spec.catches ?? [], durationMs: Math.round(performance.now() - t0) };
    const result = withOutcome(about, classify(c.fullName, outcome, options.knownFailing));
    if (used === undefined) {
      if (held.length > 0) held.push({ result, raw: outcome, conn: undefined });
      else report(result);
      continue;
    }
    for (const h of held) report(h.result);
    held = [{ result, raw: outcome, conn: used, ...(stderrBefore !== undefined ? { stderrBefore } : {}) }];
  }
  if (conn !== undefined) {
    // Only what a live testee wrote as it was closed: a fault that killed it during the last case failed that case already.
    const wasAlive = conn.alive;
    await conn.close();
    if (wasAlive && conn.fault) blameHeld(conn, conn.fault);
  }
  for (const h of held) report(h.result);
  return summarise(results);
}

/** The result of the case `about` with the outcome `o`: its status, message and `timedOut` (those of a result passed in are replaced). */
function withOutcome(about: Pick<CaseResult, "name" | "level" | "requirements" | "catches" | "durationMs">, o: ClassifiedOutcome): CaseResult {
  const { name, level, requirements, catches, durationMs } = about;
  return {
    name,
    level,
    requirements,
    catches,
    status: o.status,
    ...(o.message !== undefined ? { message: o.message } : {}),
    ...(o.timedOut ? { timedOut: true } : {}),
    durationMs,
  };
}

/** `conn`, calling `onAnswer` after each request it answers. */
function countingAnswers(conn: TesteeConnection, onAnswer: () => void): TesteeConnection {
  return withRequests(conn, async (req) => {
    const res = await conn.request(req);
    onAnswer();
    return res;
  });
}

/**
 * A fault of a testee that did not answer Init, saying that it came as the runner started (`restart`:
 * restarted) the testee for the case or seed, as the first start's error does (TESTEE-PROTOCOL.md §6).
 */
function startFault(fault: TesteeFault, restart: boolean, forWhat: "case" | "seed"): TesteeFault {
  const as = `as the runner ${restart ? "restarted" : "started"} the testee for this ${forWhat}`;
  const detail = fault.kind === "exited" ? `${fault.detail} before answering Init, ${as}` : `${fault.detail} (while init waited for its answer, ${as})`;
  return new TesteeFault(fault.kind, detail, fault.stderrTail, fault.afterCommand);
}

/**
 * A testee fault's message with only the stderr written since its case began: the runner keeps the
 * testee's last 8192 characters across cases, and lines an earlier case caused would read as this one's.
 * `before`: how many characters the testee had written when the case began (undefined: a testee
 * started for the case, or one that does not count; then the fault's own tail is shown). Read from
 * `conn` now, not from the fault: what the testee wrote as it crashed may have come in after the fault
 * was raised.
 */
function faultMessage(fault: TesteeFault, conn: TesteeConnection | undefined, before: number | undefined): string {
  const written = conn?.stderrWritten?.();
  const tail = conn?.stderrTail?.();
  // A testee started for the case: all it wrote is this case's (the fault shows its tail).
  if (before === undefined || written === undefined || tail === undefined) return fault.message;
  const since = written - before;
  if (since <= 0) return `testee ${fault.kind}: ${fault.detail}\n--- the testee wrote nothing to stderr since this case began ---`;
  // The tail is the last characters written: those since the case began are its end, all of it when more came than it keeps.
  const shown = since < tail.length ? tail.slice(tail.length - since) : tail;
  const note =
    since < tail.length ? `; the ${tail.length - since} characters before it left out` : since > tail.length ? `; its first ${since - tail.length} characters not kept` : "";
  return `testee ${fault.kind}: ${fault.detail}\n--- testee stderr since this case began${note} ---\n${shown}`;
}

/** Turn anything a case threw into a pass/fail/skip outcome. */
export function caseError(err: unknown): RawOutcome {
  if (err instanceof CaseSkip) return { status: "skipped", message: err.message };
  if (err instanceof CaseTimeout) return { status: "failed", message: err.message, timedOut: true };
  if (err instanceof CaseFailure || err instanceof TesteeFault) return { status: "failed", message: err.message };
  if (err instanceof CaseBug) return { status: "failed", message: `case bug (fix the case file): ${err.message}` };
  return { status: "failed", message: `runner error: ${thrownStack(err)}` };
}

/**
 * What the randomised levels share: running each seed's schedule between fresh testees and
 * turning its end (passed, a broken rule, a testee fault, a runner error) into one case result,
 * the queue of the runner's scheduled actions, and the command that checks each answer.
 * @internal
 * @module
 */
import { EctpError, describeValue } from "@ectp/protocol";
import { checkFunction, checkOptions, checkRunValues } from "../arguments.js";
import type { ectp } from "../proto.js";
import { CLOCK_ORIGIN_MS, RESULT_OF, kindOf } from "../runner/script.js";
import { type CaseResult, StartFailures, classify } from "../runner/suite.js";
import { type TesteeConnection, type TesteeFactory, TesteeFault, withRequests } from "../testee/connection.js";
import { thrownStack } from "../thrown.js";

/** A rule a schedule found broken: the seed fails with this message (it starts with the requirement id). */
export class Violation extends Error {
  /** Always "Violation". */
  override name = "Violation";

  /** @param message - The rule broken, starting with its requirement id, and how, e.g. `[I2] request r3 reported twice`. */
  constructor(message: string) {
    super(message);
  }
}

/**
 * The checks of a randomised level's options (`runRandomised`, `runSubscriberRandomised`): an object
 * of its `known` options, a testee factory for each of `factories`, `seeds` an array of safe integers,
 * and the shared option values `checkRunValues` checks.
 * @throws EctpError(INVALID_ARGUMENT) naming `owner` and what is wrong.
 */
export function checkSeedRunOptions(owner: string, options: unknown, known: readonly string[], factories: readonly string[]): void {
  checkOptions(owner, options, known);
  checkRunValues(owner, options);
  const given = options as Record<string, unknown>;
  for (const f of factories) checkFunction(owner, `options.${f}`, given[f], `makes the ${f} testee connection, such as () => spawnTestee({ command })`);
  const seeds = given.seeds;
  if (!Array.isArray(seeds) || !seeds.every((s) => Number.isSafeInteger(s)))
    throw new EctpError("INVALID_ARGUMENT", `${owner}: options.seeds must be an array of safe integers, one schedule each, such as [1, 2, 3]; got ${describeValue(seeds)}`);
}

/** How one randomised level runs its seeds. */
export interface SeedRun {
  /** The suite of the seeds' case names (`<suite>/seed-<n>`). */
  suite: string;
  /** Requirement ids the schedules check. */
  requirements: readonly string[];
  /** Failures of docs/failures.md the schedules target. */
  catches: readonly number[];
  seeds: readonly number[];
  /** Why every seed is skipped (a feature not claimed), or undefined when they run. */
  skipped: string | undefined;
  /** Makes the testees of one seed, in the order `schedule` takes them; each is closed after the seed. */
  testees: readonly TesteeFactory[];
  /** Run seed `seed` between `testees`; resolves with the passed seed's message, throws {@link Violation} or {@link TesteeFault} when it fails. */
  schedule(seed: number, testees: TesteeConnection[]): Promise<string>;
  /** The command that replays one seed, printed with a failure. */
  replayCommand?: ((seed: number) => string) | undefined;
  /** Known-failing list. */
  knownFailing?: ReadonlyMap<string, string> | undefined;
  /** Wall-clock limit of one seed, in ms: past it, the seed fails at its next command. Default {@link DEFAULT_SEED_TIMEOUT_MS}. */
  seedTimeoutMs?: number | undefined;
  /** The count of failed starts, shared with the rest of the run (scripted cases, the other level). Default: these seeds' own. */
  startFailures?: StartFailures | undefined;
}

/**
 * Default of {@link SeedRun.seedTimeoutMs}: five minutes. A reference testee's seed takes a few
 * seconds; a testee whose `next_deadline_ms` is always `now + 1` makes the runner poll it every
 * millisecond of a schedule's 2 to 3 minutes of simulated time, and its seed then fails saying so.
 */
export const DEFAULT_SEED_TIMEOUT_MS = 300_000;

/**
 * Run every seed of `run` in turn. One CaseResult per seed. Never throws for testee behaviour. A
 * testee that does not answer Init fails its seed, saying so; after MAX_START_FAILURES_IN_A_ROW
 * such starts in a row, every later seed fails at once, saying why, and no testee is started again
 * (as the scripted cases do, TESTEE-PROTOCOL.md §2, item 7).
 */
export async function runSeeds(run: SeedRun): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  const starts = run.startFailures ?? new StartFailures();
  for (const seed of run.seeds) {
    const name = `${run.suite}/seed-${seed}`;
    const t0 = performance.now();
    let outcome: { status: "passed" | "failed" | "skipped"; message?: string };
    const replay = run.replayCommand?.(seed);
    const failed = (why: string): typeof outcome => ({ status: "failed", message: `seed ${seed}: ${why}${replay ? `\nreplay: ${replay}` : ""}` });
    const stopped = starts.stopped;
    if (run.skipped !== undefined) outcome = { status: "skipped", message: run.skipped };
    else if (stopped !== undefined) outcome = failed(stopped);
    else {
      const testees: TesteeConnection[] = [];
      try {
        const limit = wallClockLimit(run.seedTimeoutMs ?? DEFAULT_SEED_TIMEOUT_MS);
        for (const make of run.testees) testees.push(limit(await starts.start(make, "seed")));
        outcome = { status: "passed", message: await run.schedule(seed, testees) };
      } catch (err) {
        outcome = failed(err instanceof Violation || err instanceof TesteeFault ? err.message : `runner error: ${thrownStack(err)}`);
      } finally {
        for (const t of testees) await t.close();
      }
      // TESTEE-PROTOCOL.md §2: output after a testee's last answer, read as it was closed, fails the seed too.
      const late = testees.find((t) => t.fault !== undefined)?.fault;
      if (outcome.status === "passed" && late !== undefined) outcome = failed(late.message);
    }
    const r = classify(name, outcome, run.knownFailing);
    results.push({
      name,
      level: "RANDOMISED",
      requirements: run.requirements,
      catches: run.catches,
      status: r.status,
      ...(r.message !== undefined ? { message: r.message } : {}),
      durationMs: Math.round(performance.now() - t0),
    });
  }
  return results;
}

/**
 * Wraps a seed's testees so that, once `limitMs` of wall-clock time has passed since this was
 * called, their next command fails the seed instead of going out (as a scripted case's limit does).
 */
function wallClockLimit(limitMs: number): (conn: TesteeConnection) => TesteeConnection {
  const startedAt = performance.now();
  let commands = 0;
  return (conn) =>
    withRequests(conn, async (req) => {
      if (performance.now() - startedAt > limitMs) {
        const t = req.nowMs == null ? "" : `, at t=${Number(req.nowMs) - CLOCK_ORIGIN_MS} of simulated time`;
        throw new Violation(
          `the seed ran past its ${limitMs} ms of wall-clock time after ${commands} commands${t} (a testee whose next_deadline_ms keeps moving by 1 ms, or a very slow testee); --seed-timeout-ms raises the limit`,
        );
      }
      commands++;
      return conn.request(req);
    });
}

/** The runner's scheduled actions of one seed, in time order (ties in the order they were scheduled). */
export class EventQueue {
  private readonly events: { t: number; seq: number; run: () => Promise<void> }[] = [];
  private seq = 0;

  /** Schedule `run` at time `t`. */
  at(t: number, run: () => Promise<void>): void {
    this.events.push({ t, seq: this.seq++, run });
    this.events.sort((a, b) => a.t - b.t || a.seq - b.seq);
  }

  /** When the next action is due (infinity when none is scheduled). */
  get nextAt(): number {
    return this.events[0]?.t ?? Number.POSITIVE_INFINITY;
  }

  /** Run, in order, every action due by `now` (those they schedule for no later than `now` too). */
  async runDue(now: number): Promise<void> {
    for (let next = this.events[0]; next !== undefined && next.t <= now; next = this.events[0]) {
      this.events.shift();
      await next.run();
    }
  }

  /** Run every action left, whatever its time. */
  async runAll(): Promise<void> {
    await this.runDue(Number.POSITIVE_INFINITY);
  }
}

/**
 * Send `req` to testee `who` at schedule time `now` and return its answer: an `Error` answer
 * (unless `allowError`) is an [I1] violation, an `Unsupported` one a testee that lacks what the
 * level needs, and any other answer but the command's own result (`Ok` unless it returns data,
 * TESTEE-PROTOCOL.md §2 and §5) a violation too, as in a scripted case.
 */
export async function command(
  conn: TesteeConnection,
  who: string,
  now: number,
  req: ectp.conformance.v1.ITesteeRequest,
  allowError: boolean,
): Promise<ectp.conformance.v1.TesteeResponse> {
  const res = await conn.request({ ...req, nowMs: CLOCK_ORIGIN_MS + now });
  if (res.error && !allowError) throw new Violation(`[I1] ${who} answered ${Object.keys(req)[0]} at t=${now} with an error: ${res.error.message}`);
  if (res.unsupported) throw new Violation(`${who} does not support ${res.unsupported.feature}`);
  const what = Object.keys(req)[0] ?? "?";
  const want = RESULT_OF[what] ?? "ok";
  if (!res.error && !res[want]) throw new Violation(`[I1] ${who} answered ${what} at t=${now} with ${kindOf(res)}; expected ${want} (TESTEE-PROTOCOL.md §5)`);
  return res;
}

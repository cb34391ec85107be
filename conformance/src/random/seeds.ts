/**
 * What the randomised levels share: running each seed's schedule between fresh testees and
 * turning its end (passed, a broken rule, a testee fault, a runner error) into one case result.
 * @internal
 * @module
 */
import { type CaseResult, classify } from "../runner/suite.js";
import { type TesteeConnection, type TesteeFactory, TesteeFault } from "../testee/connection.js";
import { thrownStack } from "../thrown.js";

/** A rule a schedule found broken: the seed fails with this message (it starts with the requirement id). */
export class Violation extends Error {
  override name = "Violation";
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
}

/** Run every seed of `run` in turn. One CaseResult per seed. Never throws for testee behaviour. */
export async function runSeeds(run: SeedRun): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const seed of run.seeds) {
    const name = `${run.suite}/seed-${seed}`;
    const t0 = performance.now();
    let outcome: { status: "passed" | "failed" | "skipped"; message?: string };
    if (run.skipped !== undefined) outcome = { status: "skipped", message: run.skipped };
    else {
      const testees: TesteeConnection[] = [];
      try {
        for (const make of run.testees) testees.push(await make());
        outcome = { status: "passed", message: await run.schedule(seed, testees) };
      } catch (err) {
        const why = err instanceof Violation || err instanceof TesteeFault ? err.message : `runner error: ${thrownStack(err)}`;
        const replay = run.replayCommand?.(seed);
        outcome = { status: "failed", message: `seed ${seed}: ${why}${replay ? `\nreplay: ${replay}` : ""}` };
      } finally {
        for (const t of testees) await t.close();
      }
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

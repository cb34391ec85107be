/**
 * Seed sweeps: run one configuration for seeds `seed .. seed + runs - 1` and aggregate.
 * A sweep is how CI proves "zero violations under any fault schedule" statistically.
 * @module
 */
import { EctpError, describeValue } from "@ectp/protocol";
import { DEFAULT_SIMULATION_CONFIG, SIMULATION_LIMITS, type SimulationOptions } from "./options.js";
import { runSimulation, validateConfig } from "./simulation.js";
import { SIMULATE_COMMAND, type SimulationSummary } from "./summary.js";

/** Aggregate of a sweep. */
export interface SweepSummary {
  /** Seed of the sweep's first run; run i (from 0) used `seed + i`. */
  readonly seed: number;
  /** Runs made: the runs asked for, or fewer when the sweep was stopped ({@link SweepSummary.interrupted}). */
  readonly runs: number;
  /**
   * Whether the sweep's `signal` stopped it before its last seed: the figures then cover the
   * `runs` made, and `reproduce` still reruns the whole sweep asked for.
   */
  readonly interrupted: boolean;
  /** Fault preset name, or "custom". */
  readonly faults: string;
  /** The configuration every run used (its `seed` the first run's; each run's seed is one more). */
  readonly config: SimulationSummary["config"];
  /** One command that reruns this exact sweep. */
  readonly reproduce: string;
  /** Wall time of the whole sweep, ms. */
  readonly wallTimeMs: number;
  /** Runs per wall-clock second. */
  readonly seedsPerSecond: number;
  /** Violations over all runs. */
  readonly violations: number;
  /** Seeds with at least one violation, with their reproduce command and first violation. */
  readonly failingSeeds: readonly {
    /** The failing run's seed. */
    seed: number;
    /** Invariant violations in that run. */
    violations: number;
    /** The first violation, as printed. */
    first: string;
    /** One command that reproduces the run. */
    reproduce: string;
  }[];
  /** Request outcomes summed over all runs. */
  readonly requests: {
    /** Requests over every run. */
    total: number;
    /** Served from a remote encoding. */
    succeededRemote: number;
    /** At least one item encoded locally after the remote path ended. */
    fellBackLocal: number;
    /** Reported failed through the drain-once call. */
    failed: number;
    /** Cancelled by the simulated client. */
    cancelled: number;
    /** Lost with a crashed consumer. */
    lostInCrash: number;
  };
  /** Faults injected, summed over all runs (see `SimulationSummary.faultsInjected`). */
  readonly faultsInjected: Readonly<Record<string, number>>;
  /** What crashes caused, summed over all runs (see `SimulationSummary.crashEffects`). */
  readonly crashEffects: SimulationSummary["crashEffects"];
  /** Store evictions and full stores, summed over all runs (see `SimulationSummary.storeEvents`). */
  readonly storeEvents: SimulationSummary["storeEvents"];
  /**
   * FNV-1a (64-bit, 16 hex digits) of the runs' event-log hashes in seed order, each followed by a
   * newline: two sweeps of the same seeds and options have the same one when every run took the same
   * path. It shows that a change of code left the behaviour alone over a whole sweep, as
   * `eventLog.hash` does for one run.
   */
  readonly hash: string;
}

/** FNV-1a's 64-bit offset basis and prime. */
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const U64 = (1n << 64n) - 1n;

/** `h` with the characters of `text`, then a newline, mixed in (FNV-1a, 64-bit). */
function mixHash(h: bigint, text: string): bigint {
  let x = h;
  for (let i = 0; i < text.length; i++) x = ((x ^ BigInt(text.charCodeAt(i))) * FNV_PRIME) & U64;
  return ((x ^ 0x0an) * FNV_PRIME) & U64;
}

/** What {@link runSweep} runs: one simulation configuration (its `seed` the first run's), the number of runs, and per-run and abort hooks. */
export interface SweepOptions extends SimulationOptions {
  /** Number of seeds, at least 1; the last seed, `seed + runs - 1`, must be a valid seed too. Default 1. */
  runs?: number | undefined;
  /** Called after each run. Default none. */
  onRun?: ((summary: SimulationSummary, index: number, runs: number) => void) | undefined;
  /** Not called by a sweep (its runs report no progress within a run): follow a sweep with `onRun`. */
  onProgress?: NonNullable<SimulationOptions["onProgress"]> | undefined;
  /**
   * Stops the sweep after the run in progress when aborted (e.g. on SIGINT; a run gives the
   * event loop a turn every 50 ms of wall time, so a handler runs within about that); the
   * summary then covers the runs made and says `interrupted` when runs were left. Checked after
   * each run, so the first always runs. Default none.
   */
  signal?: AbortSignal | undefined;
}

/**
 * Every problem with a sweep's options, as sentences naming the option (empty when
 * valid): `runs`, the configuration (see `validateConfig`), the last seed, which
 * must be in the seed range like the first, and `signal`. Options that are not an object
 * (`null`, a number, an array) are one problem, as `validateConfig` words it; none at all are
 * the defaults (one run).
 */
export function validateSweep(options: SweepOptions = {}): string[] {
  // Not an object: validateConfig's one problem, before anything is read from it.
  if (options === null || typeof options !== "object" || Array.isArray(options)) return validateConfig(options);
  const { runs = 1, onRun, signal, ...rest } = options;
  const first = rest.seed ?? DEFAULT_SIMULATION_CONFIG.seed;
  const problems = validateConfig(rest);
  if (typeof runs !== "number" || !Number.isSafeInteger(runs) || runs < 1 || runs > SIMULATION_LIMITS.maxRuns)
    problems.push(`runs must be an integer from 1 to ${SIMULATION_LIMITS.maxRuns}; got ${describeValue(runs)}`);
  else if (Number.isSafeInteger(first) && first <= SIMULATION_LIMITS.maxSeed && first + runs - 1 > SIMULATION_LIMITS.maxSeed)
    problems.push(
      `the sweep's last seed, seed + runs - 1 = ${first + runs - 1}, must be <= ${SIMULATION_LIMITS.maxSeed} (larger seeds repeat smaller ones)`,
    );
  if (signal !== undefined && !(signal instanceof AbortSignal)) problems.push("signal must be an AbortSignal when given");
  if (onRun !== undefined && typeof onRun !== "function") problems.push(`onRun must be a function when given; got ${typeof onRun}`);
  return problems;
}

/**
 * Run the same configuration over consecutive seeds. Time series are not returned (each run
 * still samples them, as a single run of that seed does, so both count the same violations).
 * @throws EctpError(INVALID_ARGUMENT) before running anything when {@link validateSweep} reports a
 * problem, options that are not an object (`null`, a number, an array) included.
 */
export async function runSweep(options: SweepOptions = {}): Promise<SweepSummary> {
  const problems = validateSweep(options);
  if (problems.length > 0) throw new EctpError("INVALID_ARGUMENT", problems.join("; "), { details: { problems } });
  const { runs = 1, onRun, signal, onProgress: _ignored, ...rest } = options;
  const first = rest.seed ?? DEFAULT_SIMULATION_CONFIG.seed;
  const faults = rest.faults ?? DEFAULT_SIMULATION_CONFIG.faults;
  const start = performance.now();
  const failing: { seed: number; violations: number; first: string; reproduce: string }[] = [];
  const requests = { total: 0, succeededRemote: 0, fellBackLocal: 0, failed: 0, cancelled: 0, lostInCrash: 0 };
  const faultsInjected: Record<string, number> = {};
  const crashEffects = { restarts: 0, consumerRestarts: 0, messagesLost: 0, readsFailed: 0 };
  const storeEvents = { evictions: 0, storeFull: 0 };
  let violations = 0;
  let config: SimulationSummary["config"] | undefined;
  let reproduce = "";
  let made = 0;
  let hash = FNV_OFFSET;
  for (let i = 0; i < runs; i++) {
    const { summary } = await runSimulation({ ...rest, seed: first + i, timeSeries: false });
    hash = mixHash(hash, summary.eventLog.hash);
    if (i === 0) {
      config = summary.config;
      // The first run's command, with the sweep's run count.
      reproduce = summary.reproduce.replace(`${SIMULATE_COMMAND} `, `${SIMULATE_COMMAND} --runs ${runs} `);
    }
    violations += summary.violations.count;
    if (summary.violations.count > 0) {
      const v = summary.violations.first[0];
      failing.push({
        seed: summary.seed,
        violations: summary.violations.count,
        first: v ? `[${v.invariant}] ${v.message}` : "",
        reproduce: summary.reproduce,
      });
    }
    for (const k of Object.keys(requests) as (keyof typeof requests)[]) requests[k] += summary.requests[k];
    for (const [k, n] of Object.entries(summary.faultsInjected)) faultsInjected[k] = (faultsInjected[k] ?? 0) + n;
    for (const k of Object.keys(crashEffects) as (keyof typeof crashEffects)[]) crashEffects[k] += summary.crashEffects[k];
    for (const k of Object.keys(storeEvents) as (keyof typeof storeEvents)[]) storeEvents[k] += summary.storeEvents[k];
    onRun?.(summary, i, runs);
    made = i + 1;
    if (signal !== undefined) {
      // A last turn of the event loop after each run: a signal handler that was waiting runs now.
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) break;
    }
  }
  const wallTimeMs = performance.now() - start;
  return {
    seed: first,
    runs: made,
    interrupted: made < runs,
    faults: typeof faults === "string" ? faults : "custom",
    config: config as SimulationSummary["config"], // (runs >= 1: set by the first run)
    reproduce,
    wallTimeMs,
    seedsPerSecond: wallTimeMs > 0 ? (made * 1000) / wallTimeMs : 0,
    violations,
    failingSeeds: failing,
    requests,
    faultsInjected,
    crashEffects,
    storeEvents,
    hash: hash.toString(16).padStart(16, "0"),
  };
}

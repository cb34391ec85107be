/**
 * Seed sweeps: run one configuration for seeds `seed .. seed + runs - 1` and aggregate.
 * A sweep is how CI proves "zero violations under any fault schedule" statistically.
 * @module
 */
import type { SimulationOptions } from "./options.js";
import { runSimulation } from "./simulation.js";
import type { SimulationSummary } from "./summary.js";

/** Aggregate of a sweep. */
export interface SweepSummary {
  /** First seed. */
  readonly seed: number;
  /** Runs made. */
  readonly runs: number;
  /** Fault preset name, or "custom". */
  readonly faults: string;
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
  };
  /** Faults injected, summed over all runs. */
  readonly faultsInjected: Readonly<Record<string, number>>;
}

/** Options of {@link runSweep}. */
export interface SweepOptions extends SimulationOptions {
  /** Number of seeds. Default 1. */
  runs?: number;
  /** Called after each run. Default none. */
  onRun?: (summary: SimulationSummary, index: number, runs: number) => void;
}

/** Run the same configuration over consecutive seeds. Time series are not recorded. */
export async function runSweep(options: SweepOptions): Promise<SweepSummary> {
  const { runs = 1, onRun, onProgress: _ignored, ...rest } = options;
  const first = rest.seed ?? 1;
  const start = performance.now();
  const failing: { seed: number; violations: number; first: string; reproduce: string }[] = [];
  const requests = { total: 0, succeededRemote: 0, fellBackLocal: 0, failed: 0, cancelled: 0 };
  const faults: Record<string, number> = {};
  let violations = 0;
  let faultName = "none";
  for (let i = 0; i < runs; i++) {
    const { summary } = await runSimulation({ ...rest, seed: first + i, timeSeries: false });
    faultName = summary.faults;
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
    for (const [k, n] of Object.entries(summary.faultsInjected)) faults[k] = (faults[k] ?? 0) + n;
    onRun?.(summary, i, runs);
  }
  const wallTimeMs = performance.now() - start;
  return {
    seed: first,
    runs,
    faults: faultName,
    wallTimeMs,
    seedsPerSecond: wallTimeMs > 0 ? (runs * 1000) / wallTimeMs : 0,
    violations,
    failingSeeds: failing,
    requests,
    faultsInjected: faults,
  };
}

/**
 * What a simulation reports, and how it is printed.
 * @module
 */
import type { CoreFactories } from "./hooks.js";
import type { SimulationConfig } from "./options.js";
import type { InvariantId, Violation } from "./invariants.js";
import type { TimeSeries } from "./series.js";
import { EctpError, describeValue } from "@ectp/protocol";
import { formatDuration, plainDecimal } from "./duration.js";
import { DEFAULT_SIMULATION_CONFIG } from "./options.js";

/** Request outcomes. Each request ends in exactly one of these. */
export interface RequestOutcomes {
  /** Requests that reached an outcome (all of them, unless a run stopped as stuck): the sum of the counts below. */
  readonly total: number;
  /** Every item came from a producer (or was already local). */
  readonly succeededRemote: number;
  /** At least one item was encoded locally from the request's model input. */
  readonly fellBackLocal: number;
  /** Reported failed by the consumer [C6]. */
  readonly failed: number;
  /** Cancelled by the client before admission completed (cancel storms). */
  readonly cancelled: number;
  /** Lost before an outcome because their consumer crashed while they waited there (or, with no consumer up and no restart due, forwarded then). */
  readonly lostInCrash: number;
  /** Failed requests by the reason of their first failed item. */
  readonly failedByReason: Readonly<Record<string, number>>;
}

/** Result of one simulation run. Everything except `wallTimeMs` is a function of the options. */
export interface SimulationSummary {
  /** Seed of every random choice of the run (the workload, the faults, the cores' jitter). */
  readonly seed: number;
  /** Fault preset name, or "custom". */
  readonly faults: string;
  /** The full configuration the run used. */
  readonly config: Omit<SimulationConfig, "faults">;
  /** Request outcomes. */
  readonly requests: RequestOutcomes;
  /** Items by how they became available. */
  readonly items: {
    /** Loaded from a producer and verified by the consumer (a "ready" decision with a destination). */
    readonly remote: number;
    /**
     * Encoded locally (no announcement, or after a remote failure). Items an engine already
     * holds are in neither count; the simulated engines never hold any.
     */
    readonly localEncoded: number;
  };
  /** Simulated time from the first arrival to the last request's end, ms. */
  readonly simulatedMs: number;
  /** Requests ended per second of simulated time. */
  readonly throughputRps: number;
  /** Time from arrival at a consumer to its admission decision, ms. */
  readonly admissionWaitMs: {
    /** Median wait, ms. */
    readonly p50: number;
    /** 99th percentile wait, ms. */
    readonly p99: number;
    /** Longest wait, ms. */
    readonly max: number;
    /** Mean wait, ms. */
    readonly mean: number;
  };
  /** Remote attempts retried [C4] (from the consumers' metrics). */
  readonly retries: number;
  /** Reads quarantined [C8] (from the consumers' metrics). */
  readonly quarantines: number;
  /** Producer pins after the final drain (must be 0 [I3]). */
  readonly pinsAtEnd: number;
  /**
   * Faults injected, by kind, each counted once: the network's message and read faults
   * (`drop`, `delay`, `duplicate`, `reorder`, `failRead`, `stallRead`, `corruptRead`,
   * `partitionMessage`, `partitionRead`) and the simulator's own (`producerCrash`,
   * `producerShutdown` (planned restarts), `consumerCrash`, `cancelStorm`, `invalidAnnouncement`,
   * `earlyAnnouncement`). What they cause
   * is counted elsewhere: {@link SimulationSummary.crashEffects}, cancelled requests in
   * `requests.cancelled`, requests lost with a consumer in `requests.lostInCrash`, and store
   * evictions in {@link SimulationSummary.storeEvents}.
   */
  readonly faultsInjected: Readonly<Record<string, number>>;
  /**
   * What crashes and planned restarts caused, apart from the faults themselves
   * (`faultsInjected.producerCrash`, `faultsInjected.producerShutdown`,
   * `faultsInjected.consumerCrash`; requests lost with a consumer are `requests.lostInCrash`).
   */
  readonly crashEffects: {
    /** Producers that came back with a new epoch [P8], after a crash or the stop ending a planned restart. */
    readonly restarts: number;
    /** Crashed consumers that came back with a new epoch [P8]. */
    readonly consumerRestarts: number;
    /** Control messages lost because their sender or receiver crashed while they were in flight. */
    readonly messagesLost: number;
    /** Reads failed because the producer holding the memory crashed. */
    readonly readsFailed: number;
  };
  /**
   * How the producers' stores kept within capacity: normal operation, not injected faults
   * (the `memoryPressure` of a fault preset shrinks the stores, so there is more of it).
   */
  readonly storeEvents: {
    /** Ready, unpinned items evicted to make room [P6]. */
    readonly evictions: number;
    /** Encodes not stored because the store was full even after eviction (the request kept its model input) [P6]. */
    readonly storeFull: number;
  };
  /** Every counter the cores reported, summed over instances, `name{labels}` keyed. */
  readonly counters: Readonly<Record<string, number>>;
  /** Invariant violations (the producer rules [P1] and [P3] included, see {@link InvariantId}). */
  readonly violations: {
    /** Total. */
    readonly count: number;
    /** Per invariant, and per producer rule checked on the wire (`P1`, `P3`). */
    readonly byInvariant: Readonly<Record<InvariantId, number>>;
    /** The first ones in detail. */
    readonly first: readonly Violation[];
  };
  /** One command that reruns this exact simulation. */
  readonly reproduce: string;
  /** Nominal vs real bytes. */
  readonly bytes: {
    /** Nominal bytes per real byte. */
    readonly scale: number;
    /** Nominal bytes read by consumers. */
    readonly nominalRead: number;
    /** Real bytes read by consumers. */
    readonly actualRead: number;
  };
  /** Events logged and the hash of the event log (identical for identical runs). */
  readonly eventLog: {
    /** How many events the run logged (and hashed into `hash`). */
    readonly events: number;
    /** Hash of the log. */
    readonly hash: string;
    /** Rounds of the event loop (several may fall on one instant of simulated time). */
    readonly loopRounds: number;
    /**
     * Times the loop nudged time forward by 1 µs because a core kept reporting a deadline
     * at the current instant after being polled (a sign of a float comparison bug in a core).
     */
    readonly nudges: number;
    /**
     * Engine steps not re-run against the core because they would provably repeat the
     * previous step (see `readmitEveryStep`); 0 when every step is run.
     */
    readonly quietStepsSkipped: number;
  };
  /** Wall-clock time of the run, ms (not deterministic). */
  readonly wallTimeMs: number;
}

/** A summary plus the time series for the HTML report. */
export interface SimulationResult {
  /** Counts, latencies, invariant violations and the event-log hash of the run. */
  readonly summary: SimulationSummary;
  /** Sampled quantities over simulated time (empty with `timeSeries: false`). */
  readonly series: TimeSeries;
}

/**
 * How a reproduce command starts. `npx @ectp/cli` runs the `ectp` of the project (or clone) it is
 * typed in when that installed `@ectp/cli`, else fetches that package; `npx ectp` would offer to
 * install whatever unscoped npm package is named `ectp`.
 * @internal
 */
export const SIMULATE_COMMAND = "npx @ectp/cli simulate";

/**
 * The command line that reproduces a configuration (only non-default flags). `planted` names the
 * {@link CoreFactories} a run was given (`"consumer"`, `"producer"`, `"store"`): no flag plants a
 * core, so the command names them rather than claim that it reruns that run.
 */
export function reproduceCommand(config: SimulationConfig, planted: readonly (keyof CoreFactories)[] = []): string {
  const d = DEFAULT_SIMULATION_CONFIG;
  // A negative value must be glued to its flag: `--seed -5` reads as a missing value.
  const parts = [SIMULATE_COMMAND, config.seed < 0 ? `--seed=${config.seed}` : `--seed ${config.seed}`];
  parts.push(`--faults ${typeof config.faults === "string" ? config.faults : "<custom profile: use the API>"}`);
  const num: [keyof SimulationConfig, string][] = [
    ["producers", "--producers"],
    ["consumers", "--consumers"],
    ["concurrency", "--concurrency"],
    ["requests", "--requests"],
    ["metadataOnlyFraction", "--metadata-only-fraction"],
    ["byteScale", "--byte-scale"],
  ];
  // Plain decimals: the flags refuse exponent notation (`--metadata-only-fraction 1e-7`).
  for (const [k, flag] of num) if (config[k] !== d[k]) parts.push(`${flag} ${plainDecimal(config[k] as number)}`);
  const dur: [keyof SimulationConfig, string][] = [
    ["stepMs", "--step"],
    ["encodeTimeMs", "--encode-time"],
    ["serviceTimeMs", "--service-time"],
    ["budgetMs", "--budget"],
  ];
  for (const [k, flag] of dur) if (config[k] !== d[k]) parts.push(`${flag} ${formatDuration(config[k] as number)}`);
  // What no flag sets changes the run too: name it rather than print a command that runs another one.
  const apiOnly = API_ONLY_SETTINGS.filter((k) => apiLiteral(config[k]) !== apiLiteral(d[k])).map((k) => `${k}=${apiLiteral(config[k])}`);
  const throughApi = [...apiOnly, ...planted.map((k) => `factories.${k} (planted)`)];
  if (throughApi.length > 0) parts.push(`<and, through the API: ${throughApi.join(", ")}>`);
  return parts.join(" ");
}

/**
 * A setting as a JavaScript literal to pass through the API: JSON, except that numbers JSON
 * cannot hold are written as themselves (`Infinity`, which JSON would print as a refused `null`).
 */
function apiLiteral(value: unknown): string {
  const marked = JSON.stringify(value, (_k, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? `\u0000${v}` : v));
  return marked === undefined ? String(value) : marked.replace(/"\\u0000(-?Infinity|NaN)"/g, "$1");
}

/** Settings that change a run's outcome and have no `ectp simulate` flag. */
const API_ONLY_SETTINGS = [
  "minItemsPerRequest",
  "maxItemsPerRequest",
  "minItemBytes",
  "maxItemBytes",
  "itemReuse",
  "producerCapacityBytes",
  "consumerCapacityBytes",
  "linkBytesPerSecond",
  "linkLatencyMs",
  "consumerConfig",
  "producerConfig",
  "timeResolutionMs",
  "maxDrainMs",
] as const satisfies readonly (keyof SimulationConfig)[];

function fmtBytes(n: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let v = n;
  let i = 0;
  // By the value as printed: 999,999 B is "1.0 MB" (not "1000 KB"), 99,960 B is "100 KB" (not "100.0 KB").
  while (Math.round(v) >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(i === 0 || Math.round(v * 10) / 10 >= 100 ? 0 : 1)} ${units[i]}`;
}

function pct(n: number, total: number): string {
  return total === 0 ? "" : ` (${((100 * n) / total).toFixed(2)}%)`;
}

/** What a summary argument must be, as the errors say it. */
const SUMMARY_EXPECTED = "a SimulationSummary (the summary of runSimulation or Simulation.run)";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * Throws EctpError(INVALID_ARGUMENT) naming `fn` unless `s` has the shape of a
 * {@link SimulationSummary} as far as the printing of it reads: the objects it descends into,
 * the numbers it formats and the strings it escapes, and the first five violations. With
 * `table` false only what {@link formatViolations} reads is checked.
 * @internal
 */
export function checkSummary(fn: string, s: unknown, table = true): asserts s is SimulationSummary {
  const problem = summaryProblem(s, table);
  if (problem !== undefined)
    throw new EctpError("INVALID_ARGUMENT", `${fn}: the summary must be ${SUMMARY_EXPECTED}; ${problem}`, { details: { problem } });
}

/** What is wrong with `s` as a summary to print, or undefined. */
function summaryProblem(s: unknown, table: boolean): string | undefined {
  if (!isObject(s) || Array.isArray(s)) return `got ${describeValue(s)}`;
  const objects = table
    ? (["config", "requests", "items", "admissionWaitMs", "faultsInjected", "crashEffects", "storeEvents", "violations", "bytes", "eventLog"] as const)
    : (["violations"] as const);
  for (const k of objects) if (!isObject(s[k])) return `its ${k} is ${describeValue(s[k])}, not an object`;
  if (table) {
    if (!isObject((s.requests as Record<string, unknown>).failedByReason))
      return `its requests.failedByReason is ${describeValue((s.requests as Record<string, unknown>).failedByReason)}, not an object`;
    for (const k of ["seed", "simulatedMs", "throughputRps", "wallTimeMs"] as const)
      if (typeof s[k] !== "number") return `its ${k} is ${describeValue(s[k])}, not a number`;
  }
  for (const k of table ? (["faults", "reproduce"] as const) : (["reproduce"] as const))
    if (typeof s[k] !== "string") return `its ${k} is ${describeValue(s[k])}, not a string`;
  const count = (s.violations as Record<string, unknown>).count;
  if (typeof count !== "number") return `its violations.count is ${describeValue(count)}, not a number`;
  const first = (s.violations as Record<string, unknown>).first;
  if (!Array.isArray(first)) return `its violations.first is ${describeValue(first)}, not an array`;
  for (const [i, v] of first.slice(0, 5).entries())
    if (!isObject(v) || typeof v.timeMs !== "number") return `its violations.first[${i}] is not a Violation (an object with a number timeMs)`;
  return undefined;
}

/**
 * A human-readable table of one run.
 * @throws EctpError(INVALID_ARGUMENT) when `s` is not a {@link SimulationSummary} (`null`, `{}`, one with parts missing).
 */
export function formatSummary(s: SimulationSummary): string {
  checkSummary("formatSummary", s);
  return summaryTable(s);
}

/** {@link formatSummary} of a summary already checked (by `checkSummary`). @internal */
export function summaryTable(s: SimulationSummary): string {
  const r = s.requests;
  const rows: [string, string][] = [
    ["seed / faults", `${s.seed} / ${s.faults}`],
    [
      "workload",
      `${s.config.producers} producers, ${s.config.consumers} consumers, concurrency ${s.config.concurrency}, ${s.config.requests} requests${r.total === s.config.requests ? "" : ` (${r.total} reached an outcome)`}`,
    ],
    ["succeeded remote", `${r.succeededRemote}${pct(r.succeededRemote, r.total)}`],
    ["fell back to local encoding", `${r.fellBackLocal}${pct(r.fellBackLocal, r.total)}`],
    ["failed", `${r.failed}${pct(r.failed, r.total)}`],
  ];
  for (const [reason, n] of Object.entries(r.failedByReason).sort((a, b) => b[1] - a[1]))
    rows.push([`  ${reason}`, String(n)]);
  rows.push(
    ["cancelled by client", `${r.cancelled}${pct(r.cancelled, r.total)}`],
    ["lost with a crashed consumer", `${r.lostInCrash}${pct(r.lostInCrash, r.total)}`],
    ["items remote / local-encoded", `${s.items.remote} / ${s.items.localEncoded}`],
    ["simulated time", `${(s.simulatedMs / 1000).toFixed(1)} s`],
    ["simulated throughput", `${s.throughputRps.toFixed(1)} req/s`],
    [
      "admission wait p50 / p99 / max",
      `${s.admissionWaitMs.p50} / ${s.admissionWaitMs.p99} / ${s.admissionWaitMs.max} ms`,
    ],
    ["retries", String(s.retries)],
    ["quarantines", String(s.quarantines)],
    ["pins at end", String(s.pinsAtEnd)],
  );
  const faults = Object.entries(s.faultsInjected).filter(([, n]) => n > 0);
  rows.push(["faults injected", faults.length === 0 ? "none" : faults.map(([k, n]) => `${k} ${n}`).join(", ")]);
  const crash = s.crashEffects;
  rows.push([
    "crash effects",
    `${crash.restarts} producer restarts, ${crash.consumerRestarts} consumer restarts, ${crash.messagesLost} messages lost, ${crash.readsFailed} reads failed`,
  ]);
  rows.push(["store evictions / store full", `${s.storeEvents.evictions} / ${s.storeEvents.storeFull}`]);
  rows.push(["invariant violations", String(s.violations.count)]);
  rows.push(["wall time", `${s.wallTimeMs.toFixed(0)} ms`]);
  rows.push([
    "byte scale",
    `1:${s.bytes.scale} (${fmtBytes(s.bytes.nominalRead)} nominal read as ${fmtBytes(s.bytes.actualRead)})`,
  ]);
  rows.push(["event log", `${s.eventLog.events} events in ${s.eventLog.loopRounds} rounds (${s.eventLog.nudges} nudges, ${s.eventLog.quietStepsSkipped} quiet steps skipped), hash ${s.eventLog.hash}`]);
  const w = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`);
  if (s.violations.count > 0) lines.push("", violationBlock(s));
  return lines.join("\n");
}

/**
 * The violation block: seed, first violating event, and the reproduce command.
 * @throws EctpError(INVALID_ARGUMENT) when `s` is not a {@link SimulationSummary} (`null`, `{}`, one without violations).
 */
export function formatViolations(s: SimulationSummary): string {
  checkSummary("formatViolations", s, false);
  return violationBlock(s);
}

/** {@link formatViolations} of a summary already checked. */
function violationBlock(s: SimulationSummary): string {
  const out = [`INVARIANT VIOLATIONS: ${s.violations.count} (seed ${s.seed})`];
  for (const v of s.violations.first.slice(0, 5)) {
    out.push(`  [${v.invariant}] at ${v.timeMs.toFixed(3)} ms: ${v.message}`);
    out.push(`        latest event #${v.eventIndex}: ${v.event}`);
  }
  out.push(`reproduce: ${s.reproduce}`);
  return out.join("\n");
}

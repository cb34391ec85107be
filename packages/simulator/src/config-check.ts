/**
 * The checks of a simulation's options, made before anything is set up: each option's type and
 * range (see {@link SIMULATION_LIMITS}), the hooks' types, and what the options imply together (the
 * real memory of the stores, items against the stores, a drain long enough for what the faults
 * hold). With them, what the run derives from its options the same way (the stall of a read,
 * the smallest byte scale) and the error a refused set of options throws. `validateConfig` (in
 * simulation.ts) adds a trial set-up of the simulation to these checks.
 * @module
 */
import { type ConfigOverrides, DEFAULT_CONSUMER_CONFIG, DEFAULT_PRODUCER_CONFIG } from "@ectp/core";
import { EctpError, describeValue } from "@ectp/protocol";
import { faultPreset, faultsProblems } from "./faults.js";
import { DEFAULT_SIMULATION_CONFIG, SIMULATION_LIMITS, type SimulationConfig, type SimulationOptions } from "./options.js";
import { scaledSize } from "./payload.js";

/** The parts of a run that its `factories` ({@link SimulationOptions}) can replace (a run's reproduce command names those replaced). */
export const PLANTABLE = ["consumer", "producer", "store"] as const;

/** The options that observe or replace parts of a run rather than configure it ({@link hookProblems} checks them). */
const HOOK_OPTIONS = ["onProgress", "eventLog", "timeSeries", "readmitEveryStep", "decodeMessages", "factories"] as const;

/** The options' problems, then (when they have none) the hooks': what is refused before any set-up. */
export function inputProblems(options: SimulationOptions): string[] {
  const problems = optionProblems(options);
  return problems.length > 0 ? problems : hookProblems(options);
}

/** The hooks' types (each optional), as sentences naming the hook. */
function hookProblems(options: SimulationOptions): string[] {
  const out: string[] = [];
  for (const k of ["onProgress", "eventLog"] as const)
    if (options[k] !== undefined && typeof options[k] !== "function") out.push(`${k} must be a function; got ${describeValue(options[k])}`);
  for (const k of ["timeSeries", "readmitEveryStep", "decodeMessages"] as const)
    if (options[k] !== undefined && typeof options[k] !== "boolean") out.push(`${k} must be true or false; got ${describeValue(options[k])}`);
  const f = options.factories;
  if (f !== undefined && (f === null || typeof f !== "object")) out.push(`factories must be an object of core factories; got ${describeValue(f)}`);
  else if (f !== undefined)
    for (const k of PLANTABLE)
      if (f[k] !== undefined && typeof f[k] !== "function") out.push(`factories.${k} must be a function; got ${describeValue(f[k])}`);
  return out;
}

/**
 * Fields of `consumerConfig` that the simulation always sets itself, each with the option that
 * gives it: a value given there would be replaced without a word, so it is refused instead.
 */
const SIMULATION_SET_CONSUMER_FIELDS = {
  waitBudgetMs: "it is always the budgetMs option (the wait budget per (request, item) [C3], ectp simulate --budget); give budgetMs instead",
  maxItemBytes:
    "it is always the maxItemBytes option over byteScale (the largest scaled item, rounded up); give maxItemBytes (and byteScale) instead",
} as const;

/** Type and range of each option, as sentences naming the option. */
function optionProblems(options: ConfigOverrides<SimulationConfig>): string[] {
  if (options === null || typeof options !== "object" || Array.isArray(options))
    return [`options must be an object of SimulationOptions (e.g. { requests: 100 }); got ${describeValue(options)}`];
  const cfg = { ...DEFAULT_SIMULATION_CONFIG, ...stripUndefined(options) };
  const L = SIMULATION_LIMITS;
  // A misspelt option would run silently with its default.
  const out: string[] = Object.keys(options)
    .filter((k) => !Object.hasOwn(DEFAULT_SIMULATION_CONFIG, k) && !(HOOK_OPTIONS as readonly string[]).includes(k))
    .map((k) => `${k} is not an option (the options are listed in SimulationOptions)`);
  const int = (k: keyof SimulationConfig, min: number, max?: number) => {
    const v = cfg[k];
    if (typeof v === "number" && Number.isSafeInteger(v) && v >= min && (max === undefined || v <= max)) return;
    out.push(`${k} must be an integer ${max === undefined ? `>= ${min}` : `from ${min} to ${max}`}; got ${describeValue(v)}`);
  };
  const range = (k: keyof SimulationConfig, min: number, max: number, unit: string) => {
    const v = cfg[k];
    if (typeof v === "number" && v >= min && v <= max) return;
    out.push(`${k} must be a number of ${unit} from ${min} to ${max}; got ${describeValue(v)}`);
  };
  const duration = (k: keyof SimulationConfig) => range(k, L.minDurationMs, L.maxDurationMs, "ms");
  const positive = (k: keyof SimulationConfig) => {
    const v = cfg[k];
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) out.push(`${k} must be a positive number; got ${describeValue(v)}`);
  };
  const fraction = (k: keyof SimulationConfig) => {
    const v = cfg[k];
    if (typeof v !== "number" || !(v >= 0 && v <= 1)) out.push(`${k} must be a number in [0, 1]; got ${describeValue(v)}`);
  };
  const object = (k: keyof SimulationConfig) => {
    const v = cfg[k];
    if (v === null || typeof v !== "object" || Array.isArray(v)) out.push(`${k} must be an object; got ${describeValue(v)}`);
  };
  int("seed", L.minSeed, L.maxSeed);
  int("producers", 1, L.maxInstances);
  int("consumers", 1, L.maxInstances);
  int("concurrency", 1, L.maxConcurrency);
  int("requests", 1, L.maxRequests);
  int("minItemsPerRequest", 1);
  int("maxItemsPerRequest", 1, L.maxItemsPerRequest);
  int("minItemBytes", 1, L.maxItemBytes);
  int("maxItemBytes", 1, L.maxItemBytes);
  int("byteScale", 1, L.maxByteScale);
  duration("stepMs");
  duration("encodeTimeMs");
  duration("serviceTimeMs");
  duration("budgetMs");
  // The consumer's wait budget is a whole number of milliseconds [C11].
  if (Number.isFinite(cfg.budgetMs) && !Number.isInteger(cfg.budgetMs)) out.push(`budgetMs must be a whole number of ms; got ${cfg.budgetMs}`);
  range("linkBytesPerSecond", L.minLinkBytesPerSecond, L.maxLinkBytesPerSecond, "bytes per second");
  // (At least the clock resolution too: checked below.)
  range("sampleIntervalMs", L.minTimeResolutionMs, L.maxSampleIntervalMs, "ms");
  range("maxDrainMs", L.minDurationMs, L.maxDrainMs, "ms");
  const res = cfg.timeResolutionMs;
  if (typeof res !== "number" || !(res >= L.minTimeResolutionMs && res <= L.maxTimeResolutionMs))
    out.push(`timeResolutionMs must be a number of ms from ${L.minTimeResolutionMs} to ${L.maxTimeResolutionMs}; got ${String(res)}`);
  else
    for (const k of ["stepMs", "encodeTimeMs", "serviceTimeMs", "budgetMs"] as const) {
      const v = cfg[k];
      // Every due time is rounded up to the clock resolution: a shorter duration would run as `res`.
      if (typeof v === "number" && v < res)
        out.push(`${k} ${v} ms is shorter than the clock resolution timeResolutionMs = ${res} ms, which it would run as; lengthen it or lower timeResolutionMs`);
    }
  if (typeof cfg.sampleIntervalMs === "number" && typeof res === "number" && cfg.sampleIntervalMs < res)
    out.push(`sampleIntervalMs must be at least timeResolutionMs = ${res} ms; got ${cfg.sampleIntervalMs}`);
  positive("producerCapacityBytes");
  positive("consumerCapacityBytes");
  range("linkLatencyMs", 0, L.maxLinkLatencyMs, "ms");
  fraction("metadataOnlyFraction");
  fraction("itemReuse");
  object("consumerConfig");
  object("producerConfig");
  const consumerConfig: unknown = cfg.consumerConfig;
  if (consumerConfig !== null && typeof consumerConfig === "object")
    for (const [k, why] of Object.entries(SIMULATION_SET_CONSUMER_FIELDS)) {
      const v = (consumerConfig as Record<string, unknown>)[k];
      if (v !== undefined) out.push(`consumerConfig.${k} cannot be given: ${why}; got ${describeValue(v)}`);
    }
  out.push(...faultsProblems(cfg.faults));
  if (cfg.minItemsPerRequest > cfg.maxItemsPerRequest) out.push("minItemsPerRequest must be <= maxItemsPerRequest");
  if (cfg.minItemBytes > cfg.maxItemBytes) out.push("minItemBytes must be <= maxItemBytes");
  if (out.length === 0) {
    const faults = typeof cfg.faults === "string" ? faultPreset(cfg.faults) : cfg.faults;
    // The stores and destination pools hold real bytes: capacity / byteScale each (a producer's
    // capacity scaled by the fault profile's memory pressure, as startProducer sizes it).
    const producerBytes = cfg.producerCapacityBytes * faults.memoryPressure;
    const nominal = nominalStoreBytes(cfg);
    const real = nominal / cfg.byteScale;
    if (real > L.maxRealBytes)
      out.push(
        `the stores would hold up to ${formatBytes(real)} of real memory ((producers x producerCapacityBytes x faults.memoryPressure + consumers x consumerCapacityBytes) / byteScale); at most ${formatBytes(L.maxRealBytes)}: raise byteScale (ectp simulate --byte-scale) to at least ${Math.ceil(nominal / L.maxRealBytes)}, or use fewer instances or smaller capacities`,
      );
    // An item larger than a store or a destination pool can never be stored or loaded. Compared in
    // the real bytes the run moves and holds (items rounded up, stores down, as the run sizes them).
    const realItem = scaledSize(cfg.maxItemBytes, cfg.byteScale);
    const realProducer = Math.max(1, Math.floor(producerBytes / cfg.byteScale));
    const realConsumer = Math.max(1, Math.floor(cfg.consumerCapacityBytes / cfg.byteScale));
    if (realItem > Math.min(realProducer, realConsumer))
      out.push(
        `maxItemBytes ${cfg.maxItemBytes} exceeds the smallest store (producerCapacityBytes x faults.memoryPressure = ${Math.floor(producerBytes)}, consumerCapacityBytes = ${cfg.consumerCapacityBytes}; at byteScale ${cfg.byteScale} an item of ${realItem} real bytes against stores of ${realProducer} and ${realConsumer}): such an item could never be stored or loaded; lower maxItemBytes or raise the capacities`,
      );
    // What a fault leaves held must be let go within the drain, or the final [I4] check counts it
    // as a leak: a stalled read lasts stallMsOf(cfg); a grant whose ReadComplete was dropped, its
    // lease; one whose ReadComplete was delayed, the delay (at most the lease).
    const stall = faults.readStall > 0 ? stallMsOf(cfg) : 0;
    const leaseMs = cfg.producerConfig.leaseMs ?? DEFAULT_PRODUCER_CONFIG.leaseMs;
    const dropped = faults.messageDrop > 0 ? leaseMs : 0;
    const delayed = faults.messageDelay > 0 ? Math.min(leaseMs, faults.messageDelayMaxMs) : 0;
    const settle = Math.max(stall, dropped, delayed);
    const what =
      settle === stall
        ? `a stalled read: transferTimeoutMs + quarantineCapMs / 2 = ${stall} ms`
        : settle === dropped
          ? `a grant whose ReadComplete was dropped: its lease, ${dropped} ms`
          : `a grant whose ReadComplete was delayed: up to messageDelayMaxMs (at most its lease), ${delayed} ms`;
    // Past the longest drain, only a shorter hold can help: name the setting that sets it.
    const shorten =
      settle === stall ? "consumerConfig.transferTimeoutMs or consumerConfig.quarantineCapMs" : settle === dropped ? "producerConfig.leaseMs" : "faults.messageDelayMaxMs";
    const fix = settle <= L.maxDrainMs ? `raise maxDrainMs to at least ${settle}` : `no drain may last that long (maxDrainMs is at most ${L.maxDrainMs}): shorten ${shorten}`;
    if (cfg.maxDrainMs < settle)
      out.push(
        `maxDrainMs ${cfg.maxDrainMs} is shorter than what these faults hold after the last request (${what}), which the final check would count as a leak [I4]; ${fix}`,
      );
  }
  return out;
}

/** The error for refused options: INVALID_ARGUMENT, its message the problems joined by "; ", its details the problems. */
export function invalidOptions(problems: string[], cause?: unknown): EctpError {
  return new EctpError("INVALID_ARGUMENT", problems.join("; "), { cause, details: { problems } });
}

/** The problem of options that the cores, stores or network refused as the simulation was set up (`e` is what they threw). */
export function setupProblem(e: unknown): string {
  return `the simulation cannot be set up with these options: ${e instanceof Error ? e.message : String(e)}`;
}

/** The options that are {@link SimulationConfig} fields (no hooks). */
export function configOnly(options: ConfigOverrides<SimulationConfig>): ConfigOverrides<SimulationConfig> {
  return Object.fromEntries(Object.entries(options).filter(([k]) => k in DEFAULT_SIMULATION_CONFIG));
}

/**
 * What the stores and destination pools of a run hold, in nominal bytes (before `byteScale`): each
 * producer's capacity scaled by the fault profile's memory pressure (as the run sizes it), and each
 * consumer's. Divided by `byteScale`, it is the real memory they may take.
 */
function nominalStoreBytes(cfg: SimulationConfig): number {
  const faults = typeof cfg.faults === "string" ? faultPreset(cfg.faults) : cfg.faults;
  return cfg.producers * cfg.producerCapacityBytes * faults.memoryPressure + cfg.consumers * cfg.consumerCapacityBytes;
}

/**
 * The smallest `byteScale` that keeps the stores of a run of `options` (over the defaults) within
 * {@link SIMULATION_LIMITS}`.maxRealBytes` of real memory: {@link validateConfig} refuses a smaller
 * one. The options are not checked (give them to validateConfig for that).
 */
export function minByteScale(options: SimulationOptions = {}): number {
  const cfg = { ...DEFAULT_SIMULATION_CONFIG, ...stripUndefined(configOnly(options)) } as SimulationConfig;
  return Math.ceil(nominalStoreBytes(cfg) / SIMULATION_LIMITS.maxRealBytes);
}

/**
 * How long an injected read stall lasts: halfway through the quarantine, which begins at the
 * read's transfer timeout and lasts the consumer's cap [C8] (transferTimeoutMs + quarantineCapMs
 * / 2), so the read is quarantined and settles before the cap releases its destination, whatever
 * the cap's length. With the cap disabled (Infinity) the default cap stands in.
 */
export function stallMsOf(cfg: SimulationConfig): number {
  const cap = cfg.consumerConfig.quarantineCapMs ?? DEFAULT_CONSUMER_CONFIG.quarantineCapMs;
  const finiteCap = Number.isFinite(cap) ? cap : DEFAULT_CONSUMER_CONFIG.quarantineCapMs;
  return Math.round((cfg.consumerConfig.transferTimeoutMs ?? DEFAULT_CONSUMER_CONFIG.transferTimeoutMs) + finiteCap / 2);
}

/** `o` without its `undefined` fields (an option given as `undefined` keeps its default). */
function stripUndefined<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** Bytes for a message: GiB or MiB with one decimal. */
function formatBytes(n: number): string {
  return n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GiB` : `${(n / 1024 ** 2).toFixed(1)} MiB`;
}

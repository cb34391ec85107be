/**
 * Fault presets of the simulator. Each preset is a {@link FaultProfile}: message faults
 * and read faults are injected by the mock network's seeded fault injector; crashes,
 * cancel storms, invalid announcements and memory pressure are injected by the
 * simulator itself. Rates are per message, per read, or per minute of simulated time.
 * @module
 */
import { EctpError, describeValue } from "@ectp/protocol";
import { SIMULATION_LIMITS } from "./options.js";

/**
 * Names of the built-in presets, mildest first: `"none"` (no faults: the default of
 * `runSimulation()`), `"light"` (the default of `ectp simulate`: about 0.2% of messages dropped,
 * a crash every 5 simulated minutes), `"heavy"` (message drops and duplicates, read failures,
 * stalls and corruption, and invalid announcements 10x light's; reorders, delays and crashes 5-6x)
 * and `"chaos"` (message drops and read failures 40x light's), both adding producer shutdowns and
 * consumer crashes.
 * {@link faultPreset} gives each one's rates.
 */
export const FAULT_PRESETS = ["none", "light", "heavy", "chaos"] as const;

/** One of {@link FAULT_PRESETS}. */
export type FaultPresetName = (typeof FAULT_PRESETS)[number];

/** Everything that can go wrong in a simulated deployment, as rates. 0 disables a fault. */
export interface FaultProfile {
  /** Probability a control message is dropped. */
  readonly messageDrop: number;
  /** Probability a control message is delivered twice. */
  readonly messageDuplicate: number;
  /** Probability a control message is held back so later messages overtake it. */
  readonly messageReorder: number;
  /** Probability a control message is delayed by up to {@link FaultProfile.messageDelayMaxMs}. */
  readonly messageDelay: number;
  /** Largest extra delay of a delayed message, ms. */
  readonly messageDelayMaxMs: number;
  /** Probability a read fails. */
  readonly readFail: number;
  /** Probability a read stalls past the consumer's transfer timeout (it settles later) [C8]. */
  readonly readStall: number;
  /** Probability a read delivers corrupted bytes [C11]. */
  readonly readCorrupt: number;
  /** Producer crashes per minute of simulated time (each restarts with a new epoch [P8]). */
  readonly crashesPerMinute: number;
  /**
   * Planned producer restarts per minute (a rolling upgrade): the orchestrator stops sending it work
   * and its engine shuts its core down [P7] (later ReadRequests rejected SHUTTING_DOWN, every grant
   * released), keeps its memory until the latest lease deadline `shutdown` returns (reads of released
   * grants still land) and at least two engine steps (its rejects go out), then stops; it restarts
   * after `restartDelayMs` with a new epoch [P8].
   */
  readonly producerShutdownsPerMinute: number;
  /**
   * Consumer (prefill/decode instance) crashes per minute: the requests it holds are lost with it,
   * and it restarts with a new epoch [P8]. Producers must release the grants it held (on its new
   * epoch, its silence or the lease's end) [P2][P3].
   */
  readonly consumerCrashesPerMinute: number;
  /** Down time of a crashed (or, after a planned restart's stop, stopped) producer or consumer before it restarts, ms. */
  readonly restartDelayMs: number;
  /** Consumer cancel storms per minute (clients disconnecting) [C7]. */
  readonly cancelStormsPerMinute: number;
  /** Fraction of a consumer's waiting requests a cancel storm cancels. */
  readonly cancelFraction: number;
  /** Probability the orchestrator attaches a malformed announcement (bad size) [C2]. */
  readonly invalidAnnouncement: number;
  /** Probability the orchestrator forwards before the encoding is ready (NOT_READY) [P1]. */
  readonly earlyAnnouncement: number;
  /** Producer store capacity as a multiple of the configured one (< 1 forces eviction [P6]). */
  readonly memoryPressure: number;
}

const NONE: FaultProfile = Object.freeze({
  messageDrop: 0,
  messageDuplicate: 0,
  messageReorder: 0,
  messageDelay: 0,
  messageDelayMaxMs: 0,
  readFail: 0,
  readStall: 0,
  readCorrupt: 0,
  crashesPerMinute: 0,
  producerShutdownsPerMinute: 0,
  consumerCrashesPerMinute: 0,
  restartDelayMs: 0,
  cancelStormsPerMinute: 0,
  cancelFraction: 0,
  invalidAnnouncement: 0,
  earlyAnnouncement: 0,
  memoryPressure: 1,
});

const PRESETS: Readonly<Record<FaultPresetName, FaultProfile>> = Object.freeze({
  none: NONE,
  light: Object.freeze({
    ...NONE,
    messageDrop: 0.002,
    messageDuplicate: 0.002,
    messageReorder: 0.005,
    messageDelay: 0.01,
    messageDelayMaxMs: 200,
    readFail: 0.002,
    readStall: 0.0005,
    readCorrupt: 0.001,
    crashesPerMinute: 0.2,
    restartDelayMs: 2_000,
    cancelStormsPerMinute: 0.5,
    cancelFraction: 0.1,
    invalidAnnouncement: 0.001,
    earlyAnnouncement: 0.02,
    memoryPressure: 1,
  }),
  heavy: Object.freeze({
    ...NONE,
    messageDrop: 0.02,
    messageDuplicate: 0.02,
    messageReorder: 0.03,
    messageDelay: 0.05,
    messageDelayMaxMs: 1_000,
    readFail: 0.02,
    readStall: 0.005,
    readCorrupt: 0.01,
    crashesPerMinute: 1,
    producerShutdownsPerMinute: 0.5,
    consumerCrashesPerMinute: 0.5,
    restartDelayMs: 3_000,
    cancelStormsPerMinute: 2,
    cancelFraction: 0.3,
    invalidAnnouncement: 0.01,
    earlyAnnouncement: 0.1,
    memoryPressure: 0.25,
  }),
  chaos: Object.freeze({
    ...NONE,
    messageDrop: 0.08,
    messageDuplicate: 0.05,
    messageReorder: 0.08,
    messageDelay: 0.1,
    messageDelayMaxMs: 3_000,
    readFail: 0.08,
    readStall: 0.02,
    readCorrupt: 0.04,
    crashesPerMinute: 4,
    producerShutdownsPerMinute: 2,
    consumerCrashesPerMinute: 2,
    // Instances restarted within the producers' heartbeat interval (2 s): a crashed consumer's new
    // epoch then sometimes reaches a producer before its next heartbeat to the consumer finds it
    // unreachable, so the producer releases the older epoch's grants on the newer epoch [P8] (see
    // the grant ledger's notes); with longer restarts it never does.
    restartDelayMs: 1_000,
    cancelStormsPerMinute: 6,
    cancelFraction: 0.5,
    invalidAnnouncement: 0.05,
    earlyAnnouncement: 0.25,
    memoryPressure: 0.05,
  }),
});

/**
 * The fault rates of preset `name` (see {@link FAULT_PRESETS}): what a run with `faults: name` injects, as a {@link FaultProfile} to start a custom one from.
 * @throws EctpError(INVALID_ARGUMENT) naming the presets when `name` is not one of them (check a
 *   name read from input with {@link isFaultPresetName} first to avoid the throw).
 */
export function faultPreset(name: FaultPresetName): FaultProfile {
  if (!isFaultPresetName(name))
    throw new EctpError("INVALID_ARGUMENT", `faultPreset: ${describeValue(name)} is not a fault preset; use one of ${FAULT_PRESETS.join(", ")}`, {
      details: { presets: [...FAULT_PRESETS] },
    });
  return PRESETS[name];
}

/** Fields of a {@link FaultProfile} that are probabilities or fractions, in [0, 1]. */
const FRACTIONS = [
  "messageDrop",
  "messageDuplicate",
  "messageReorder",
  "messageDelay",
  "readFail",
  "readStall",
  "readCorrupt",
  "cancelFraction",
  "invalidAnnouncement",
  "earlyAnnouncement",
] as const;

/** Fields of a {@link FaultProfile} that are rates or durations, finite and >= 0. */
const RATES = [
  "messageDelayMaxMs",
  "crashesPerMinute",
  "producerShutdownsPerMinute",
  "consumerCrashesPerMinute",
  "restartDelayMs",
  "cancelStormsPerMinute",
] as const;

/**
 * Every problem with the `faults` option (a preset name or a {@link FaultProfile}), as
 * sentences naming the field; empty when valid.
 */
export function faultsProblems(faults: unknown): string[] {
  const expected = `one of ${FAULT_PRESETS.join(", ")} or a FaultProfile object`;
  if (typeof faults === "string")
    return isFaultPresetName(faults) ? [] : [`faults must be ${expected}; got "${faults}"`];
  if (faults === null || typeof faults !== "object") return [`faults must be ${expected}; got ${describeValue(faults)}`];
  const f = faults as Record<string, unknown>;
  // A misspelt fault would silently not be injected.
  const known: readonly string[] = [...FRACTIONS, ...RATES, "memoryPressure"];
  const out: string[] = Object.keys(f)
    .filter((k) => !known.includes(k))
    .map((k) => `faults.${k} is not a field of a FaultProfile (the fields are ${known.join(", ")})`);
  const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
  for (const k of FRACTIONS) {
    const v = f[k];
    if (!finite(v) || v < 0 || v > 1) out.push(`faults.${k} must be a number in [0, 1]; got ${describeValue(v)}`);
  }
  for (const k of RATES) {
    const v = f[k];
    if (!finite(v) || v < 0) out.push(`faults.${k} must be a finite number >= 0; got ${describeValue(v)}`);
    else if (k.endsWith("PerMinute") && v > SIMULATION_LIMITS.maxFaultsPerMinute)
      out.push(`faults.${k} must be at most ${SIMULATION_LIMITS.maxFaultsPerMinute} (one a millisecond); got ${v}`);
    else if (k.endsWith("Ms") && v > SIMULATION_LIMITS.maxDurationMs)
      out.push(`faults.${k} must be at most ${SIMULATION_LIMITS.maxDurationMs} ms; got ${v}`);
  }
  const pressure = f.memoryPressure;
  if (!finite(pressure) || pressure <= 0)
    out.push(`faults.memoryPressure must be a finite number > 0; got ${describeValue(pressure)}`);
  return out;
}

/** Whether `name` is one of {@link FAULT_PRESETS} (false for anything else, a value that is not a string included). */
export function isFaultPresetName(name: string): name is FaultPresetName {
  return (FAULT_PRESETS as readonly string[]).includes(name);
}

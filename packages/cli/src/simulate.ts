/**
 * `ectp simulate`: run the deterministic deployment simulation from the command line.
 * @module
 */
import { closeSync, fstatSync, openSync, realpathSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { closestName, makeDirectories, outputPathProblem, shortText } from "@ectp/protocol";
import {
  DEFAULT_SIMULATION_CONFIG,
  FAULT_PRESETS,
  SIMULATION_LIMITS,
  type FaultPresetName,
  type SimulationOptions,
  type SimulationResult,
  type SimulationSummary,
  type SweepSummary,
  faultPreset,
  formatSummary,
  formatDuration,
  isFaultPresetName,
  minByteScale,
  parseDuration,
  renderReport,
  runSimulation,
  runSweep,
  validateSweep,
} from "@ectp/simulator";
import { EXIT_IO, EXIT_USAGE, EXIT_VIOLATIONS, type CliIO, type InterruptSignal, interruptedStatus, shownArg } from "./io.js";
import { ProgressBar } from "./progress.js";

const D = DEFAULT_SIMULATION_CONFIG;
const L = SIMULATION_LIMITS;
/** `ectp simulate` runs with light faults unless told otherwise: a first run should show retries and fallbacks. */
const CLI_DEFAULT_FAULTS: FaultPresetName = "light";
/** The shortest duration a flag accepts: none runs shorter than the simulation's clock resolution. */
const MIN_DURATION_MS = Math.max(L.minDurationMs, D.timeResolutionMs);
/** The accepted durations, as the help and the errors write them. */
const DURATION_RANGE = `from ${formatDuration(MIN_DURATION_MS)} to ${formatDuration(L.maxDurationMs)}`;

/**
 * The `format` (the first key) of the object `ectp simulate --json` prints for a single run,
 * naming its shape ({@link SimulationJson}) and version: the version changes when a field is
 * removed or changes its meaning, not when one is added.
 */
export const SIMULATION_JSON_FORMAT = "ectp-simulation/1";

/** The `format` of the object `ectp simulate --runs <n> --json` prints for a sweep ({@link SweepJson}); versioned as {@link SIMULATION_JSON_FORMAT}. */
export const SWEEP_JSON_FORMAT = "ectp-simulation-sweep/1";

/** Usage text of `ectp simulate`. */
export const SIMULATE_USAGE = `Usage: ectp simulate [options]

Simulate an ECTP deployment (encoders, orchestrator, prefill/decode engines) on virtual
time with the mock network, checking invariants [I1]-[I6] and the producer rules [P1], [P3]
throughout.

Options:
  --producers <n>               encoder instances, 1..${L.maxInstances} (default ${D.producers})
  --consumers <n>               prefill/decode instances, 1..${L.maxInstances} (default ${D.consumers})
  --concurrency <n>             requests in flight at once, 1..${L.maxConcurrency} (default ${D.concurrency})
  --requests <n>                requests to run, 1..${L.maxRequests} (default ${D.requests})
  --faults <preset>             none | light | heavy | chaos (default ${CLI_DEFAULT_FAULTS})
  --seed <n>                    seed of every random choice, ${L.minSeed}..${L.maxSeed}
                                (default ${D.seed}; write a negative one as --seed=-5)
  --runs <n>                    sweep seeds seed..seed+n-1, 1..${L.maxRuns}, the last at most ${L.maxSeed} (default 1)
  --step <duration>             engine step (default ${formatDuration(D.stepMs)})
  --encode-time <duration>      time to encode one item (default ${formatDuration(D.encodeTimeMs)})
  --service-time <duration>     prefill + decode time per request (default ${formatDuration(D.serviceTimeMs)})
  --budget <duration>           wait budget per (request, item), whole ms (default ${formatDuration(D.budgetMs)})
  --metadata-only-fraction <f>  fraction of fully announced requests sent without model input, 0..1 (default ${D.metadataOnlyFraction})
  --byte-scale <n>              nominal bytes per real byte moved, 1..${L.maxByteScale} (default ${D.byteScale}),
                                and at least what keeps the stores within ${L.maxRealBytes / 1024 ** 3} GiB of real memory
                                (16 with the default 4 producers and 4 consumers of 4 GiB each); it is part
                                of the run: another scale moves other bytes and gives another event-log hash
  --json                        print one JSON object instead of the table (its first key,
                                "format", is ${SIMULATION_JSON_FORMAT}, or ${SWEEP_JSON_FORMAT} with --runs above 1)
  --report <file.html>          write a self-contained HTML report (single run only; missing
                                directories of the path are created, as ectp conformance does)
  --quiet                       no progress bar
  -h, --help                    show this help

Durations take a unit: ms, s or m (e.g. 10ms, 2s, 1m), ${DURATION_RANGE}. Each flag is given once.
Seeds are bounded because the random generator keeps 32 bits of a seed (a larger seed
would repeat a smaller one); the other bounds keep a typo from distorting a run or making
it run for days.
Exit status: 0 no violations, 1 invariant violations, 2 bad arguments, 70 an internal error,
74 the report or standard output could not be written (the report's failure is said after the
summary, which is printed all the same), 141 standard output was closed before the summary was
written (e.g. by a reader that already exited), 130 or 143 interrupted (SIGINT, SIGTERM; the
process ends by that signal, as a shell sees it). A single run stops at once: it prints no
summary, only (on standard error) how far it got. A sweep (--runs) stops after the run in progress
and prints the runs made, marked interrupted when runs were left (exit 1 when they found
violations; one during the last run leaves none, and still ends the process by it); a second
signal ends it at once with nothing printed.
`;

/**
 * What follows a usage error's one line, instead of the whole usage (which pushed the error off
 * the screen): the form of the command line and where the options are.
 */
export const SIMULATE_USAGE_HINT = `Usage: ectp simulate [options]; run "ectp simulate --help" for the options`;

/** What `ectp simulate --json` prints for a single run: `format`, then the run's `SimulationSummary` (`@ectp/simulator`). */
export type SimulationJson = {
  /** {@link SIMULATION_JSON_FORMAT}: the shape and its version. */
  readonly format: typeof SIMULATION_JSON_FORMAT;
} & SimulationSummary;

/** What `ectp simulate --runs <n> --json` prints for a sweep: `format`, then the `SweepSummary` (`@ectp/simulator`). */
export type SweepJson = {
  /** {@link SWEEP_JSON_FORMAT}: the shape and its version. */
  readonly format: typeof SWEEP_JSON_FORMAT;
} & SweepSummary;

/** A usage error: the message names the flag and what it accepts. */
class UsageError extends Error {}

/** An integer flag's value, `fallback` when not given; refused unless a whole number from `min` to `max` (`note` follows the range in the error). */
function intFlag(name: string, text: string | undefined, min: number, max: number, fallback: number, note = ""): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(v) || v < min || v > max) {
    const range = max === Number.POSITIVE_INFINITY ? `>= ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`--${name} must be an integer ${range}${note}; got "${shownArg(text)}"`);
  }
  return v;
}

/** A duration flag's value in ms (`10ms`, `2s`, `1m`), `fallback` when not given; refused outside {@link DURATION_RANGE}. */
function durationFlag(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const d = parseDuration(text);
  if (!d.ok || !(d.ms >= MIN_DURATION_MS && d.ms <= L.maxDurationMs))
    throw new UsageError(
      `--${name} must be a duration ${DURATION_RANGE} with a unit: ms, s or m (e.g. 10ms, 2s, 1m); got "${shownArg(text)}"`,
    );
  return d.ms;
}

/** A duration flag that the simulation takes in whole milliseconds only (the budget). */
function wholeMs(name: string, ms: number): number {
  if (!Number.isInteger(ms))
    throw new UsageError(`--${name} must be a whole number of ms from 1ms to ${formatDuration(L.maxDurationMs)} (e.g. 1500ms, 2s); got ${formatDuration(ms)}`);
  return ms;
}

/** A fraction flag's value (a plain decimal from 0 to 1), `fallback` when not given. */
function fractionFlag(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  // Plain decimals only: Number() would also read "0x1" and "0b1".
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(text.trim()) || v < 0 || v > 1)
    throw new UsageError(`--${name} must be a number from 0 to 1 (e.g. 0.25); got "${shownArg(text)}"`);
  return v;
}

/** The flags of `ectp simulate`, for node:util's parseArgs. */
const OPTIONS = {
  producers: { type: "string" },
  consumers: { type: "string" },
  concurrency: { type: "string" },
  requests: { type: "string" },
  faults: { type: "string" },
  seed: { type: "string" },
  runs: { type: "string" },
  step: { type: "string" },
  "encode-time": { type: "string" },
  "service-time": { type: "string" },
  budget: { type: "string" },
  "metadata-only-fraction": { type: "string" },
  "byte-scale": { type: "string" },
  json: { type: "boolean" },
  report: { type: "string" },
  quiet: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The refusal of a `--byte-scale` below the simulator's `minByteScale`, naming the flags that change it. */
function byteScaleProblem(producers: number, consumers: number, byteScale: number, faults: FaultPresetName): string | undefined {
  const min = minByteScale({ producers, consumers, faults });
  if (byteScale >= min) return undefined;
  const gib = (n: number) => `${Number((n / 1024 ** 3).toFixed(1))} GiB`;
  const pressure = faultPreset(faults).memoryPressure;
  const stores = `${gib(D.producerCapacityBytes)} per producer${pressure < 1 ? `, x ${pressure} under --faults ${faults},` : ""} and ${gib(D.consumerCapacityBytes)} per consumer`;
  const nominal = producers * D.producerCapacityBytes * pressure + consumers * D.consumerCapacityBytes;
  return (
    `--byte-scale ${byteScale} is too small for ${producers} producers and ${consumers} consumers: their stores (${stores}) ` +
    `would take ${(nominal / byteScale / 1024 ** 3).toFixed(1)} GiB of real memory, over the ${gib(L.maxRealBytes)} a run may use; ` +
    `give --byte-scale ${min} or more, or fewer --producers or --consumers`
  );
}

/** What `ectp simulate` was asked to run, every flag checked: one simulation, or a sweep when `runs` is above 1. */
interface RunPlan {
  /** The simulation's settings, from the flags (`--producers` ... `--byte-scale`). */
  options: SimulationOptions;
  /** `--runs`: how many seeds to run, from `options.seed` on (1: a single run). */
  runs: number;
  /** `--json`: one JSON object instead of the table. */
  json: boolean;
  /** `--report`: the HTML report's path (a single run only). */
  report: string | undefined;
  /** `--quiet`: no progress bar. */
  quiet: boolean;
}

/** What `ectp simulate` was asked to do: show its help, or run. */
type SimulatePlan = { readonly help: true } | ({ readonly help: false } & RunPlan);

/**
 * Read the command line into a {@link SimulatePlan}: every flag, and every combination the simulator
 * would refuse, is checked here, before anything runs. Throws a {@link UsageError} naming the flag.
 */
function parsePlan(argv: string[]): SimulatePlan {
  const values = readFlags(argv);
  if (values.help) return { help: true };
  const flag = (name: string) => values[name] as string | undefined;
  const options = simulationOptions(flag);
  const { seed, producers, consumers, faults, byteScale } = options;
  const runs = intFlag("runs", flag("runs"), 1, L.maxRuns, 1);
  const last = seed + runs - 1;
  if (last > L.maxSeed)
    throw new UsageError(
      `--seed ${seed} with --runs ${runs} would end at seed ${last}, past the largest seed ${L.maxSeed} (larger seeds repeat smaller ones); lower --seed or --runs`,
    );
  // A --byte-scale too small for the instances, said in flags (the simulator's own message names
  // settings only its API has); then every combination the simulator refuses, checked here, before
  // the run: what the run itself throws later is not the user's input.
  const tooSmall = byteScaleProblem(producers, consumers, byteScale, faults);
  if (tooSmall !== undefined) throw new UsageError(tooSmall);
  const problems = validateSweep({ ...options, runs });
  if (problems.length > 0) throw new UsageError(problems.join("; "));
  const report = flag("report");
  if (report !== undefined) checkReportPath(report, runs);
  return { help: false, options, runs, json: values.json === true, report, quiet: values.quiet === true };
}

/** Split the command line into its flags' values with node:util's parseArgs, refusing unknown flags, arguments, and a flag given twice. */
function readFlags(argv: string[]): Record<string, string | boolean | undefined> {
  let values: Record<string, string | boolean | undefined>;
  let tokens: { kind: string; name?: string | undefined; value?: string | undefined }[];
  try {
    ({ values, tokens } = parseArgs({ args: argv, tokens: true, strict: true, allowPositionals: false, options: OPTIONS }));
  } catch (e) {
    throw new UsageError(describeParseError(e, argv));
  }
  const given = new Map<string, string[]>();
  for (const t of tokens)
    if (t.kind === "option" && t.name !== undefined) given.set(t.name, [...(given.get(t.name) ?? []), JSON.stringify(t.value === undefined ? true : shownArg(t.value))]);
  for (const [name, texts] of given)
    if (texts.length > 1) throw new UsageError(`--${name} is given ${texts.length} times (${texts.join(", ")}); give it once`);
  return values;
}

/** Turn a node:util parseArgs error into one sentence naming the flag. */
function describeParseError(e: unknown, argv: readonly string[]): string {
  const code = (e as { code?: string }).code;
  const msg = e instanceof Error ? e.message : String(e);
  // The long form when node names both ("Option '-h, --help' does not take an argument").
  const flag = /'(?:-[^-' ,]+, )?(-{1,2}[^' ,]+)/.exec(msg)?.[1];
  // `-h=1`: node reads a short option's `=` as more short options (`-h -= -1`), "unknown option -=".
  const shortWithValue = argv.find((a) => /^-[^-]=/.test(a));
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && shortWithValue !== undefined)
    return `${shortWithValue.slice(0, 2)} does not take a value (got "${shownArg(shortWithValue)}")`;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    // A misspelt long option (`--request`, `--Seed`): the option it is within 2 edits of.
    const like = flag?.startsWith("--") ? closestName(flag.slice(2), Object.keys(OPTIONS), 2) : undefined;
    return `unknown option ${shownArg(flag ?? msg)}${like !== undefined ? ` (did you mean --${like}?)` : ""}`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (flag && /ambiguous/.test(msg))
      return `${flag} needs a value; to pass one that starts with "-", write ${flag}=<value>`;
    return flag && /argument missing/.test(msg) ? `${flag} needs a value` : `${flag ?? "an option"} does not take a value`;
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    const arg = /'([^']*)'/.exec(msg)?.[1];
    // After "--" parseArgs reads everything as an argument, flags included.
    if (argv.includes("--")) return `unexpected argument "${shownArg(arg ?? msg)}" after "--", which ends the options; drop the "--"`;
    return `unexpected argument "${shownArg(arg ?? msg)}"; every option is a --flag`;
  }
  return msg;
}

/** The simulation's settings from the flags' texts (`flag(name)`, undefined when not given), each checked against its bounds; the defaults fill in the rest. */
function simulationOptions(flag: (name: string) => string | undefined) {
  const faults = flag("faults") ?? CLI_DEFAULT_FAULTS;
  if (typeof faults !== "string" || !isFaultPresetName(faults))
    throw new UsageError(`--faults must be one of ${FAULT_PRESETS.join(", ")}; got "${shownArg(String(faults))}"`);
  const seed = intFlag("seed", flag("seed"), L.minSeed, L.maxSeed, D.seed, " (the seeds the random generator tells apart)");
  return {
    producers: intFlag("producers", flag("producers"), 1, L.maxInstances, D.producers),
    consumers: intFlag("consumers", flag("consumers"), 1, L.maxInstances, D.consumers),
    concurrency: intFlag("concurrency", flag("concurrency"), 1, L.maxConcurrency, D.concurrency),
    requests: intFlag("requests", flag("requests"), 1, L.maxRequests, D.requests),
    faults,
    seed,
    stepMs: durationFlag("step", flag("step"), D.stepMs),
    encodeTimeMs: durationFlag("encode-time", flag("encode-time"), D.encodeTimeMs),
    serviceTimeMs: durationFlag("service-time", flag("service-time"), D.serviceTimeMs),
    budgetMs: wholeMs("budget", durationFlag("budget", flag("budget"), D.budgetMs)),
    metadataOnlyFraction: fractionFlag("metadata-only-fraction", flag("metadata-only-fraction"), D.metadataOnlyFraction),
    byteScale: intFlag("byte-scale", flag("byte-scale"), 1, L.maxByteScale, D.byteScale),
  } satisfies SimulationOptions;
}

/** Refuse a `--report` path before the run: blank, given with a sweep, not writable, or the file standard output goes to. */
function checkReportPath(report: string, runs: number): void {
  if (report.trim() === "") throw new UsageError(`--report needs a file name, e.g. --report out.html`);
  if (runs > 1) throw new UsageError(`--report writes the report of one run; drop --runs ${runs} or --report`);
  const unwritable = outputPathProblem(report, { createsDirectories: true });
  if (unwritable !== undefined) throw new UsageError(`--report cannot write "${shownArg(report)}": ${unwritable}`);
  if (isStandardOutput(report))
    throw new UsageError(`--report "${shownArg(report)}" is this command's standard output, where the summary goes: name a file`);
}

/** The table `ectp simulate --runs n` prints for a sweep: seeds, request outcomes, speed, violations, the hash of the runs' event logs, and a reproduce command for each of the first 10 failing seeds. */
export function formatSweep(s: SweepSummary): string {
  const r = s.requests;
  const rows: [string, string][] = [
    ["seeds", `${s.seed}..${s.seed + s.runs - 1} (${s.runs} runs${s.interrupted ? ", interrupted" : ""}), faults ${s.faults}`],
    ["requests", `${r.total}: ${r.succeededRemote} remote, ${r.fellBackLocal} fell back, ${r.failed} failed, ${r.cancelled} cancelled, ${r.lostInCrash} lost with a crashed consumer`],
    ["wall time", `${(s.wallTimeMs / 1000).toFixed(2)} s`],
    ["seeds/s", s.seedsPerSecond.toFixed(2)],
    ["invariant violations", `${s.violations} (in ${s.failingSeeds.length} seeds)`],
    // An interrupted sweep's hash covers the runs made; its reproduce command reruns the whole sweep asked for.
    ["event logs", s.interrupted ? `hash ${s.hash} (the ${s.runs} runs made, in seed order: the command below with --runs ${s.runs} gives it)` : `hash ${s.hash} (every run's, in seed order)`],
    ["reproduce", s.reproduce],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`);
  for (const f of s.failingSeeds.slice(0, 10)) {
    lines.push(`  seed ${f.seed}: ${f.violations} violation(s), first ${f.first}`);
    lines.push(`    reproduce: ${f.reproduce}`);
  }
  return lines.join("\n");
}

/** Run `ectp simulate` with `argv` (the arguments after `simulate`). Returns the exit status. */
export async function simulateCommand(argv: string[], io: CliIO): Promise<number> {
  try {
    return await simulate(argv, io);
  } catch (e) {
    // Every flag, and every combination the simulator refuses, is checked by parsePlan() before the
    // run; anything thrown later (an INVALID_ARGUMENT from a core call included) is a bug, for
    // bin.ts to report as an internal error, not bad arguments.
    if (!(e instanceof UsageError)) throw e;
    io.err(`ectp simulate: ${e.message}\n${SIMULATE_USAGE_HINT}\n`);
    return EXIT_USAGE;
  }
}

/** Parse the command line, then print the help, run one simulation, or run a sweep (`--runs` above 1). Returns the exit status. */
async function simulate(argv: string[], io: CliIO): Promise<number> {
  const plan = parsePlan(argv);
  if (plan.help) {
    io.out(SIMULATE_USAGE);
    return 0;
  }
  const bar = new ProgressBar(io, "simulate", !plan.quiet && !plan.json);
  return plan.runs > 1 ? sweep(plan, bar, io) : singleRun(plan, bar, io);
}

/**
 * Run a sweep of `plan.runs` seeds and print its summary (the table, or `--json`'s object). A SIGINT
 * or SIGTERM stops it after the run in progress: the runs made are printed, marked interrupted.
 * Returns the exit status: 1 for violations, else that of the signal if one came, else 0.
 */
async function sweep(plan: RunPlan, bar: ProgressBar, io: CliIO): Promise<number> {
  const controller = new AbortController();
  let stoppedBy: InterruptSignal | undefined;
  const release = io.onInterrupt?.((signal) => {
    stoppedBy = signal;
    controller.abort();
    bar.interject(`ectp simulate: ${signal}: stopping after the run in progress (send it again to stop at once)\n`);
  });
  let summary: SweepSummary;
  try {
    summary = await runSweep({ ...plan.options, runs: plan.runs, signal: controller.signal, onRun: (_s, i, n) => bar.update(i + 1, n) });
  } finally {
    release?.();
  }
  bar.done();
  const json: SweepJson = { format: SWEEP_JSON_FORMAT, ...summary };
  io.out(plan.json ? `${JSON.stringify(json)}\n` : `${formatSweep(summary)}\n`);
  if (summary.violations > 0) return EXIT_VIOLATIONS;
  // Interrupted even when the signal came during the last run: a shell loop must stop too.
  return stoppedBy !== undefined ? interruptedStatus(stoppedBy) : 0;
}

/**
 * Run one simulation, then write its `--report` and print its summary ({@link finishSingleRun}). A
 * SIGINT or SIGTERM ends it at once: the bar is erased and one line says how far the run got.
 * Returns the exit status.
 */
async function singleRun(plan: RunPlan, bar: ProgressBar, io: CliIO): Promise<number> {
  const outcome = await simulateUntilInterrupted(plan.options, bar, io);
  if ("result" in outcome) return finishSingleRun(plan, outcome.result, bar, io);
  const { signal, ended } = outcome;
  const total = plan.options.requests ?? D.requests;
  bar.clear();
  io.err(
    `ectp simulate: interrupted by ${signal} with at least ${ended} of ${total} requests ended (${Math.floor((100 * ended) / total)}%; counted in steps of 1%); an unfinished run prints no summary${plan.report !== undefined ? " and writes no report" : ""}\n`,
  );
  return interruptedStatus(signal);
}

/**
 * Run one simulation, drawing its progress on `bar`, until it ends or a SIGINT or SIGTERM comes.
 * Returns its result, or the signal with the requests ended by then.
 *
 * A single run cannot stop part-way, but it gives the event loop a turn every 50 ms: a signal heard
 * then ends the command at once, saying how far the run got, as the sweep and `ectp conformance`
 * say they were interrupted. The run itself goes on until the process ends (bin.ts ends it by the
 * signal as soon as that is written), its progress no longer drawn.
 */
async function simulateUntilInterrupted(
  options: SimulationOptions,
  bar: ProgressBar,
  io: CliIO,
): Promise<{ result: SimulationResult } | { signal: InterruptSignal; ended: number }> {
  let stoppedBy: InterruptSignal | undefined;
  let onStop: (signal: InterruptSignal) => void = () => {};
  const interrupted = new Promise<InterruptSignal>((resolve) => {
    onStop = resolve;
  });
  const release = io.onInterrupt?.((signal) => {
    stoppedBy = signal;
    onStop(signal);
  });
  let ended = 0;
  const onProgress = (done: number, of: number) => {
    if (stoppedBy !== undefined) return;
    ended = done;
    bar.update(done, of);
  };
  let result: SimulationResult | InterruptSignal;
  try {
    // The signal first: one heard by the time both have settled wins.
    result = await Promise.race([interrupted, runSimulation({ ...options, onProgress })]);
  } finally {
    release?.();
  }
  return typeof result === "string" ? { signal: result, ended } : { result };
}

/**
 * End a single run that finished: write its `--report`, then print its summary (the table, or
 * `--json`'s object), even when the report could not be written. Returns the exit status: 74 for a
 * report not written, else 1 for violations, else 0.
 */
function finishSingleRun(plan: RunPlan, { summary, series }: SimulationResult, bar: ProgressBar, io: CliIO): number {
  bar.done();
  const report = plan.report;
  let reportError: string | undefined;
  if (report !== undefined) {
    try {
      writeReport(report, renderReport(summary, series));
    } catch (e) {
      reportError = (e as Error).message;
    }
  }
  // The summary is printed even when the report could not be written: the run is not thrown away.
  const json: SimulationJson = { format: SIMULATION_JSON_FORMAT, ...summary };
  io.out(plan.json ? `${JSON.stringify(json)}\n` : `${formatSummary(summary)}\n`);
  if (report !== undefined && reportError !== undefined) {
    io.err(`ectp simulate: --report could not write "${shownArg(report)}": ${shortText(reportError, REPORT_ERROR_CHARS)}\n`);
    return EXIT_IO;
  }
  if (report !== undefined && !plan.json) io.out(`report written to ${report}\n`);
  return summary.violations.count > 0 ? EXIT_VIOLATIONS : 0;
}

/**
 * Whether `path` names the file this process's standard output is (`/dev/stdout`, `/dev/fd/1`, or
 * the file it was redirected to): the report would be written into the summary, or over it.
 */
function isStandardOutput(path: string): boolean {
  try {
    const out = fstatSync(1);
    const file = statSync(path);
    return file.dev === out.dev && file.ino === out.ino;
  } catch {
    return false; // no such file yet, or no standard output: not the same file
  }
}

/** The most characters of the system's message an unwritable report's error echoes (it may hold the whole path). */
const REPORT_ERROR_CHARS = 200;

/**
 * Write the HTML report to `path`, creating its missing directories. A write that fails part-way
 * (a full disk) leaves no cut-off report: the regular file it opened is removed (through a link, the
 * file the link names); a device such as `/dev/full` is left as it is, and so is the path when it
 * could not even be opened. Throws the error of the open or the write.
 */
function writeReport(path: string, html: string): void {
  makeDirectories(dirname(path));
  const fd = openSync(path, "w");
  try {
    writeFileSync(fd, html);
  } catch (e) {
    try {
      if (fstatSync(fd).isFile()) unlinkSync(realpathSync(path));
    } catch {
      // It cannot be removed: the write's own error says enough.
    }
    throw e;
  } finally {
    closeSync(fd);
  }
}

/**
 * `ectp conformance`: the command-line runner.
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { EctpError } from "@ectp/protocol";
import { loadCases } from "./cases/load.js";
import { runRandomised } from "./random/randomised.js";
import { toJUnit, toJsonReport, toTerminal } from "./report/report.js";
import { type CaseResult, classify, globToRegExp, runSuite, summarise } from "./runner/suite.js";
import { spawnTestee } from "./testee/subprocess.js";
import { mockTransportHarness } from "./transport/mock-harness.js";
import { type TransportHarness, runTransportConformance } from "./transport/transport-suite.js";

/** Usage text of `ectp conformance`. */
export const CONFORMANCE_USAGE = `Usage: ectp conformance --testee "<command>" [options]
       ectp conformance --transport mock|nixl [options]

Runs the ECTP conformance suite against an implementation wrapped as a testee
(conformance/TESTEE-PROTOCOL.md), and/or the transport level against a named Transport.

Options:
  --testee <command>         shell command starting the testee (required unless --transport is given)
  --transport <name>         run the transport level against "mock" (built in, virtual and real clock)
                             or "nixl" (@ectp/transport-nixl; skipped with the reason when its addon is missing)
  --json-lines               speak JSON lines instead of binary frames
  --features <file>          JSON {"features": ["consumer", "producer", ...]} (default: consumer, producer)
  --known-failing <file>     JSON {"<case name>": "<reason>", ...}; a listed case that passes fails the run
  --level required|all       REQUIRED cases only (default) or RECOMMENDED too
  --filter <glob>            run cases whose name matches (e.g. "consumer/c3-*/**", "transport/nixl/**")
  --seeds <n>                also run n seeded randomised schedules (needs both roles and read-memory; default 0)
  --seed <n>                 run only randomised schedule n (replay a failure)
  --junit <file>             write JUnit XML
  --report <file>            write the JSON report (and <file>.ectp-report.json with {passed, failed})
  --command-timeout-ms <n>   per-command timeout (default 5000)
  -h, --help                 show this text

Exit status: 0 when nothing failed, 1 when a case failed, 2 for a usage error.`;

/** Features file: the optional features (TESTEE-PROTOCOL.md §7) an implementation claims. */
export interface FeaturesFile {
  /** Feature names. */
  features: string[];
}

/** Read a features file. Throws EctpError(INVALID_ARGUMENT) naming the problem. */
export function readFeaturesFile(path: string): string[] {
  const data = JSON.parse(readFileSync(path, "utf8")) as Partial<FeaturesFile>;
  if (!Array.isArray(data.features) || !data.features.every((f) => typeof f === "string"))
    throw new EctpError("INVALID_ARGUMENT", `features file ${path} must be {"features": ["consumer", ...]}`);
  return data.features;
}

/**
 * Read a known-failing file: a JSON object mapping case names to reasons. Every entry needs
 * a non-empty reason (a list without reasons rots). Throws EctpError(INVALID_ARGUMENT).
 */
export function readKnownFailingFile(path: string): Map<string, string> {
  const data = JSON.parse(readFileSync(path, "utf8")) as unknown;
  if (data === null || typeof data !== "object" || Array.isArray(data))
    throw new EctpError("INVALID_ARGUMENT", `known-failing file ${path} must be a JSON object {"<case name>": "<reason>"}`);
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
    if (typeof v !== "string" || v.trim() === "")
      throw new EctpError("INVALID_ARGUMENT", `known-failing file ${path}: entry ${JSON.stringify(k)} needs a reason string`);
    out.set(k, v);
  }
  return out;
}

/**
 * Entry point of `ectp conformance` (the CLI package calls this). Returns the exit status
 * instead of exiting, and never throws: usage errors print the usage and return 2.
 */
export async function runConformanceCli(argv: readonly string[]): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${CONFORMANCE_USAGE}\n`);
    return 2;
  }
  const v = args.values;
  if (v.help) {
    process.stdout.write(`${CONFORMANCE_USAGE}\n`);
    return 0;
  }
  if (!v.testee && !v.transport) {
    process.stderr.write(`--testee or --transport is required\n\n${CONFORMANCE_USAGE}\n`);
    return 2;
  }
  if (v.transport !== undefined && !TRANSPORT_NAMES.includes(v.transport)) {
    process.stderr.write(`--transport must be one of ${TRANSPORT_NAMES.join(", ")}, got ${JSON.stringify(v.transport)}\n\n${CONFORMANCE_USAGE}\n`);
    return 2;
  }
  if (v.level !== undefined && v.level !== "required" && v.level !== "all") {
    process.stderr.write(`--level must be required or all\n\n${CONFORMANCE_USAGE}\n`);
    return 2;
  }
  let commandTimeoutMs: number;
  let seedCount: number;
  let seed: number | undefined;
  try {
    commandTimeoutMs = intFlag("command-timeout-ms", v["command-timeout-ms"], 1) ?? 5000;
    seedCount = intFlag("seeds", v.seeds, 0) ?? 0;
    seed = intFlag("seed", v.seed, 0);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${CONFORMANCE_USAGE}\n`);
    return 2;
  }
  try {
    const features = v.features ? readFeaturesFile(v.features) : ["consumer", "producer"];
    const knownFailing = v["known-failing"] ? readKnownFailingFile(v["known-failing"]) : new Map<string, string>();
    const command = v.testee ?? "";
    const implementation = v.testee ?? `transport ${v.transport}`;
    const factory = () =>
      spawnTestee({
        command,
        jsonLines: v["json-lines"] === true,
        commandTimeoutMs,
      });
    const results: CaseResult[] = [];
    const onResult = (r: CaseResult): void => {
      if (r.status === "failed" || r.status === "unexpected-pass") process.stdout.write(`FAIL ${r.name}\n`);
    };
    const onWarning = (message: string): void => {
      process.stderr.write(`warning: ${message}\n`);
    };
    if (v.transport !== undefined) {
      const filter = v.filter ? globToRegExp(v.filter) : undefined;
      const select = filter ? (name: string) => filter.test(name) : undefined;
      for (const harness of await transportHarnesses(v.transport))
        for (const r of await runTransportConformance(harness, select ? { select } : {})) {
          const raw = { status: r.status as "passed" | "failed" | "skipped", ...(r.message !== undefined ? { message: r.message } : {}) };
          const c: CaseResult = { ...r, ...classify(r.name, raw, knownFailing) };
          results.push(c);
          onResult(c);
        }
    }
    if (v.testee !== undefined && seed === undefined) {
      const report = await runSuite({
        testee: factory,
        features,
        knownFailing,
        level: (v.level as "required" | "all" | undefined) ?? "required",
        ...(v.filter ? { filter: v.filter } : {}),
        cases: loadCases(),
        onResult,
        onWarning,
      });
      results.push(...report.results);
    }
    const seeds = v.testee === undefined ? [] : seed !== undefined ? [seed] : Array.from({ length: seedCount }, (_, i) => i + 1);
    if (seeds.length > 0) {
      const missing = RANDOMISED_FEATURES.filter((f) => !features.includes(f));
      if (missing.length > 0)
        onWarning(`randomised schedules need the features ${RANDOMISED_FEATURES.join(", ")}; without ${missing.join(", ")} in --features every seed is skipped`);
      // The replay command keeps every flag that changes how a seed runs or is judged.
      const replayFlags = [
        "--testee", command,
        ...(v["json-lines"] ? ["--json-lines"] : []),
        ...(v.features ? ["--features", v.features] : []),
        ...(v["known-failing"] ? ["--known-failing", v["known-failing"]] : []),
        ...(v["command-timeout-ms"] !== undefined ? ["--command-timeout-ms", String(commandTimeoutMs)] : []),
      ];
      const random = await runRandomised({
        consumer: factory,
        producer: factory,
        seeds,
        features,
        replayCommand: (n) => ["ectp", "conformance", ...replayFlags, "--seed", String(n)].map(shellWord).join(" "),
        knownFailing,
      });
      results.push(...random);
      for (const r of random) onResult(r);
    }
    const report = summarise(results);
    process.stdout.write(toTerminal(report));
    if (v.junit) writeOut(v.junit, toJUnit(implementation, report));
    if (v.report) {
      writeOut(v.report, `${JSON.stringify(toJsonReport(implementation, report), null, 2)}\n`);
      const summary = join(dirname(v.report), `${basename(v.report).replace(/\.json$/, "")}.ectp-report.json`);
      writeOut(summary, `${JSON.stringify({ passed: report.passed, failed: report.failed })}\n`);
    }
    return report.ok ? 0 : 1;
  } catch (err) {
    process.stderr.write(`ectp conformance: ${(err as Error).message}\n`);
    return 2;
  }
}

/** Features the randomised level needs (both roles, and ReadMemory to play the transport between them). */
const RANDOMISED_FEATURES: readonly string[] = ["consumer", "producer", "read-memory"];

/** Transports `--transport` accepts. */
const TRANSPORT_NAMES: readonly string[] = ["mock", "nixl"];

/** The package `--transport nixl` loads (not a dependency: resolved at run time, if installed). */
const NIXL_PACKAGE = "@ectp/transport-nixl";

/**
 * The harnesses of a named transport. `nixl` is imported at run time; when the package cannot
 * be loaded, a harness whose every case is skipped with the reason (a missing optional
 * backend is not a conformance failure).
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

/**
 * The value of an integer flag, or `undefined` when it is absent. Throws with a message naming
 * the flag and what it accepts for anything else (`abc`, `1.5`, below `min`).
 */
function intFlag(name: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min)
    throw new Error(`--${name} must be an integer >= ${min}; got ${JSON.stringify(text)}`);
  return n;
}

/** A word for a POSIX shell command line: as is when plain, else single-quoted. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

function writeOut(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: false,
    options: {
      testee: { type: "string" },
      transport: { type: "string" },
      "json-lines": { type: "boolean" },
      features: { type: "string" },
      "known-failing": { type: "string" },
      level: { type: "string" },
      filter: { type: "string" },
      seeds: { type: "string" },
      seed: { type: "string" },
      junit: { type: "string" },
      report: { type: "string" },
      "command-timeout-ms": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

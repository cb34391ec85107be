/**
 * Running the suite against every mutant: each must be caught by at least one case.
 * @module
 */
import { EctpError, thrownMessage } from "@ectp/protocol";
import { CoreTesteeHandler, type CoreModule, TS_TESTEE_FEATURES } from "../../testees/ts/adapter.js";
import type { LoadedCase } from "../cases/format.js";
import { checkOptions, checkRunValues } from "../arguments.js";
import { loadCases } from "../cases/load.js";
import type { CaseResult, SuiteOptions, SuiteReport } from "../runner/suite.js";
import { roleToRun } from "../runner/script.js";
import { runSuite } from "../runner/suite.js";
import { inProcessTestee } from "../testee/in-process.js";
import { type MutantSpec, importCoreBundle, loadMutants } from "./build.js";

/** What the suite did to one mutant. */
export interface MutantResult {
  /** The mutant's kebab-case name, e.g. `f1-fallback-without-model-input`. */
  readonly name: string;
  /** The failure of docs/failures.md it plants. */
  readonly failure: number;
  /** What it plants. */
  readonly description: string;
  /** Cases that failed on it (caught it). Empty: the mutant survived, a gap in the suite, or it is {@link MutantResult.broken}. */
  readonly caughtBy: string[];
  /**
   * Cases that failed on it only by running past their wall-clock limit, with no cause named
   * ({@link CaseResult.timedOut}): a slow machine, which says nothing of the mutant. They are not in
   * `caughtBy`; a mutant that only these failed is not caught (rerun it on a quieter machine, or with a
   * larger {@link MutantRunOptions.caseTimeoutMs}).
   */
  readonly timedOut: string[];
  /** Whether at least one case caught it (never a broken mutant). */
  readonly caught: boolean;
  /**
   * Why the mutant is broken rather than caught, when it is: its bundle does not build or load, or it
   * failed every case it ran (a patch that makes the core throw at once, such as one naming something
   * undefined, which nothing typechecks, plants no bug a case could catch). Absent for a mutant that ran.
   */
  readonly broken?: string;
}

/** Options of {@link runMutants}. */
export interface MutantRunOptions {
  /** Mutants. Default conformance/mutants/*.json. */
  mutants?: readonly MutantSpec[] | undefined;
  /** Cases. Default every case. */
  cases?: readonly LoadedCase[] | undefined;
  /** Features claimed by the TS testee. Default every feature the adapter implements. */
  features?: Iterable<string> | undefined;
  /** Called with each mutant's result once known: its cases run, or its bundle failed to build (progress output). Default none. */
  onMutant?: ((result: MutantResult) => void) | undefined;
  /** Wall-clock limit of one case, in ms, as {@link SuiteOptions.caseTimeoutMs}. Default 60000. */
  caseTimeoutMs?: number | undefined;
}

/** The keys of {@link MutantRunOptions}. */
const MUTANT_RUN_OPTIONS: readonly string[] = Object.keys(
  { mutants: true, cases: true, features: true, onMutant: true, caseTimeoutMs: true } satisfies Record<keyof MutantRunOptions, true>,
);

export { TS_TESTEE_FEATURES };

/**
 * Build each mutant (a patched copy of packages/core/src, or of packages/protocol/src bundled
 * with the core; the shipped packages are untouched),
 * run every case against it in-process, and record which cases caught it. A mutant whose bundle
 * does not build or load, or that fails every case it runs, is reported broken, not caught: a
 * planted bug leaves the cases it does not touch passing (so run a mutant with some of those too).
 * @throws EctpError(INVALID_ARGUMENT) when a patch's text no longer occurs exactly once in the source (update the mutant),
 *   outside a clone of the ECTP repository (mutants patch its `packages/core/src`, which the npm packages do
 *   not ship; see {@link coreSourceDir}), and, before anything is built, for options that are not an object,
 *   have an option it does not take, or a `features` or `caseTimeoutMs` of the wrong kind.
 */
export async function runMutants(options: MutantRunOptions = {}): Promise<MutantResult[]> {
  checkOptions("runMutants", options, MUTANT_RUN_OPTIONS);
  checkRunValues("runMutants", options); // features and caseTimeoutMs, before anything is built
  const mutants = options.mutants ?? loadMutants();
  const features = new Set(options.features ?? TS_TESTEE_FEATURES);
  const out: MutantResult[] = [];
  for (const m of mutants) {
    let core: CoreModule;
    try {
      core = await importCoreBundle<CoreModule>(m.patches, m.name);
    } catch (err) {
      if (err instanceof EctpError) throw err; // a stale patch: the mutant file is what to fix
      const result: MutantResult = { ...about(m), caughtBy: [], timedOut: [], caught: false, broken: `its bundle does not build or load: ${thrownMessage(err)}` };
      out.push(result);
      options.onMutant?.(result);
      continue;
    }
    // Cases run under the roles the patch touches (a consumer mutant cannot change producer cases;
    // the protocol package serves every role; a case of role "any" runs under the first role claimed).
    const roles = new Set(
      m.patches.flatMap((p) =>
        (p.package ?? "core") !== "core"
          ? ["consumer", "producer", "subscriber"]
          : p.file.startsWith("consumer/")
          ? ["consumer"]
          : p.file.startsWith("producer/")
            ? ["producer"]
            : p.file.startsWith("subscriber/")
              ? ["subscriber"]
              : ["consumer", "producer", "subscriber"],
      ),
    );
    const cases = (options.cases ?? loadCases()).filter((c) => {
      const role = roleToRun(c.spec, features);
      return role !== undefined && roles.has(role);
    });
    const report: SuiteReport = await runSuite({
      testee: () => inProcessTestee(new CoreTesteeHandler(core, { name: `mutant:${m.name}` })),
      features,
      level: "all",
      cases,
      caseTimeoutMs: options.caseTimeoutMs,
    });
    const result = judgeMutant(m, report);
    out.push(result);
    options.onMutant?.(result);
  }
  return out;
}

/**
 * What the cases' results in `report` say of the mutant `m`: the cases that failed caught it, except those
 * that only ran past their wall-clock limit; a mutant that passed none of its cases is broken, not caught
 * (passing nothing is a core that does not run, not a bug the cases found).
 */
export function judgeMutant(m: MutantSpec, report: SuiteReport): MutantResult {
  const failed = report.results.filter((r) => r.status === "failed");
  const first = failed[0];
  if (first !== undefined && report.passed === 0) {
    const why = `it passed none of the ${report.results.length} cases it ran (${failed.length} failed, e.g. ${first.name}: ${(first.message ?? "").split("\n")[0]})`;
    return { ...about(m), caughtBy: [], timedOut: [], caught: false, broken: why };
  }
  const caughtBy = failed.filter((r) => r.timedOut !== true).map((r) => r.name);
  const timedOut = failed.filter((r) => r.timedOut === true).map((r) => r.name);
  return { ...about(m), caughtBy, timedOut, caught: caughtBy.length > 0 };
}

/** A mutant's name, failure and description, as its result carries them. */
function about(m: MutantSpec): Pick<MutantResult, "name" | "failure" | "description"> {
  return { name: m.name, failure: m.failure, description: m.description };
}

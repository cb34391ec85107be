/**
 * Running the suite against every mutant: each must be caught by at least one case.
 * @module
 */
import { CoreTesteeHandler, type CoreModule, TS_TESTEE_FEATURES } from "../../testees/ts/adapter.js";
import type { LoadedCase } from "../cases/format.js";
import { loadCases } from "../cases/load.js";
import type { SuiteReport } from "../runner/suite.js";
import { roleToRun } from "../runner/script.js";
import { runSuite } from "../runner/suite.js";
import { inProcessTestee } from "../testee/in-process.js";
import { type MutantSpec, importCoreBundle, loadMutants } from "./build.js";

/** What the suite did to one mutant. */
export interface MutantResult {
  /** Mutant name. */
  readonly name: string;
  /** The failure of docs/failures.md it plants. */
  readonly failure: number;
  /** What it plants. */
  readonly description: string;
  /** Cases that failed on it (caught it). Empty: the mutant survived, a gap in the suite. */
  readonly caughtBy: string[];
  /** Whether at least one case caught it. */
  readonly caught: boolean;
}

/** Options of {@link runMutants}. */
export interface MutantRunOptions {
  /** Mutants. Default conformance/mutants/*.json. */
  mutants?: readonly MutantSpec[];
  /** Cases. Default every case. */
  cases?: readonly LoadedCase[];
  /** Features claimed by the TS testee. Default every feature the adapter implements. */
  features?: Iterable<string>;
  /** Progress callback. */
  onMutant?: (result: MutantResult) => void;
}

export { TS_TESTEE_FEATURES };

/**
 * Build each mutant (a patched copy of packages/core/src, or of packages/protocol/src bundled
 * with the core; the shipped packages are untouched),
 * run every case against it in-process, and record which cases caught it.
 */
export async function runMutants(options: MutantRunOptions = {}): Promise<MutantResult[]> {
  const mutants = options.mutants ?? loadMutants();
  const features = new Set(options.features ?? TS_TESTEE_FEATURES);
  const out: MutantResult[] = [];
  for (const m of mutants) {
    const core = await importCoreBundle<CoreModule>(m.patches, m.name);
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
    });
    const caughtBy = report.results.filter((r) => r.status === "failed").map((r) => r.name);
    const result: MutantResult = { name: m.name, failure: m.failure, description: m.description, caughtBy, caught: caughtBy.length > 0 };
    out.push(result);
    options.onMutant?.(result);
  }
  return out;
}

/**
 * `@ectp/conformance`: the ECTP conformance suite. Language-neutral cases (JSON under
 * `cases/`), a runner that drives any implementation through the testee protocol
 * (TESTEE-PROTOCOL.md) over stdin/stdout or in-process, a randomised level with seeded
 * faults, a transport level, mutants of the reference core, and JUnit/JSON reports.
 * @packageDocumentation
 */
export { runConformanceCli, CONFORMANCE_USAGE, readFeaturesFile, readKnownFailingFile, type ConformanceOutput } from "./cli.js";
export type { FeaturesFile } from "./cli.js";
export { runSuite, selectCases, summarise, classify, caseError, globMatcher, featureWarnings, StartFailures, MAX_START_FAILURES_IN_A_ROW } from "./runner/suite.js";
export type { CaseResult, CaseStatus, ClassifiedOutcome, RawOutcome, SuiteOptions, SuiteReport } from "./runner/suite.js";
export { runScriptedCase, CaseFailure, CaseSkip, CaseTimeout, CLOCK_ORIGIN_MS, DEFAULT_CASE_TIMEOUT_MS } from "./runner/script.js";
export type { ScriptOptions } from "./runner/script.js";
export { CaseBug } from "./runner/match.js";
export { loadCases, defaultCasesDir } from "./cases/load.js";
export { DEFAULT_FINGERPRINT } from "./cases/format.js";
export type { CaseLevel, CaseRole, CaseSpec, ItemFixture, LoadedCase, PeerSpec, RuleSpec, StepSpec, StoredAs, SuiteFile } from "./cases/format.js";
export { spawnTestee } from "./testee/subprocess.js";
export type { SubprocessTesteeOptions } from "./testee/subprocess.js";
export { inProcessTestee } from "./testee/in-process.js";
export type { TesteeHandler } from "./testee/in-process.js";
export { TesteeFault } from "./testee/connection.js";
export type { TesteeConnection, TesteeFactory, TesteeFaultKind } from "./testee/connection.js";
export { CoreTesteeHandler } from "../testees/ts/adapter.js";
export type { CoreConstructor, CoreModule, CoreTesteeOptions } from "../testees/ts/adapter.js";
export { runRandomised } from "./random/randomised.js";
export type { RandomisedOptions } from "./random/randomised.js";
export { SUBSCRIBER_RANDOMISED_SUITE, runSubscriberRandomised } from "./random/subscriber-randomised.js";
export type { SubscriberRandomisedOptions } from "./random/subscriber-randomised.js";
export { runTransportConformance } from "./transport/transport-suite.js";
export type { TransportHarness, TransportSuiteOptions } from "./transport/transport-suite.js";
export { mockTransportHarness } from "./transport/mock-harness.js";
export type { MockTransportHarnessOptions } from "./transport/mock-harness.js";
export { runMutants, TS_TESTEE_FEATURES } from "./mutants/run.js";
export type { MutantResult, MutantRunOptions } from "./mutants/run.js";
export { buildCoreBundle, importCoreBundle, loadMutants, coreSourceDir } from "./mutants/build.js";
export type { MutantPatch, MutantSpec } from "./mutants/build.js";
export { toJUnit, toJsonReport, toTerminal } from "./report/report.js";
export type { JsonReport } from "./report/report.js";
export { TESTEE_PROTOCOL_VERSION } from "./proto.js";
/**
 * The testee protocol's generated message classes (`conformanceProto.conformance.v1.*`),
 * for authors of in-process testees and tools that read runner traffic.
 */
export { ectp as conformanceProto } from "./proto.js";
export { runSystemLevel } from "./system/system-level.js";

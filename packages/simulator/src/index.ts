/**
 * `@ectp/simulator`: a deterministic simulation of an ECTP deployment (encoders,
 * orchestrator, prefill/decode engines, clients) around the real cores, on the mock
 * network's virtual time, with fault presets and an invariant checker [I1]-[I6] (and the producer
 * rules [P1], [P3] on the wire).
 * Any failing seed is reproduced by one command.
 * @packageDocumentation
 */
export { runSimulation, validateConfig, Simulation } from "./simulation.js";
export { minByteScale } from "./config-check.js";
export { runSweep, validateSweep } from "./sweep.js";
export type { SweepOptions, SweepSummary } from "./sweep.js";
export { DEFAULT_SIMULATION_CONFIG, SIMULATION_LIMITS } from "./options.js";
export type { SimulationConfig, SimulationOptions } from "./options.js";
export { FAULT_PRESETS, faultPreset, isFaultPresetName } from "./faults.js";
export type { FaultPresetName, FaultProfile } from "./faults.js";
export { formatSummary, formatViolations, reproduceCommand } from "./summary.js";
export type { RequestOutcomes, SimulationResult, SimulationSummary } from "./summary.js";
export { renderReport, svgPlot } from "./report.js";
export { SERIES_NAMES } from "./series.js";
export type { SeriesName, TimeSeries } from "./series.js";
export { InvariantChecker, MAX_KEPT_VIOLATIONS } from "./invariants.js";
export type { InvariantId, Violation } from "./invariants.js";
export type { ConsumerLike, CoreFactories, ProducerLike } from "./hooks.js";
export { parseDuration, formatDuration } from "./duration.js";
export type { ParsedDuration } from "./duration.js";
export { scaledSize, patternBytes, patternCrc } from "./payload.js";
export { faultPlan } from "./network.js";
export { SIMULATION_NODE_FLAGS } from "./node-flags.js";

/**
 * `@ectp/cli`: the `ectp` command (simulate, conformance). The programmatic entry
 * {@link main} runs the command with injected output streams, for tests and wrappers.
 * @packageDocumentation
 */
export { main, USAGE, USAGE_HINT, VERSION } from "./main.js";
export { SIMULATE_USAGE, SIMULATE_USAGE_HINT, SIMULATION_JSON_FORMAT, SWEEP_JSON_FORMAT, simulateCommand, formatSweep } from "./simulate.js";
export type { SimulationJson, SweepJson } from "./simulate.js";
export { processIO, handleClosedStreams, interruptedStatus, interruptSignalOf, EXIT_USAGE, EXIT_VIOLATIONS, EXIT_INTERNAL, EXIT_IO, EXIT_OUTPUT_CLOSED } from "./io.js";
export type { CliIO, ErrorEmitter, InterruptSignal } from "./io.js";
export { ProgressBar } from "./progress.js";

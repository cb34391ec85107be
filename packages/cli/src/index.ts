/**
 * `@ectp/cli`: the `ectp` command (simulate, conformance). The programmatic entry
 * {@link main} runs the command with injected output streams, for tests and wrappers.
 * @packageDocumentation
 */
export { main, USAGE, VERSION } from "./main.js";
export { SIMULATE_USAGE, simulateCommand, formatSweep } from "./simulate.js";
export { processIO, handleClosedStreams, interruptedStatus, interruptSignalOf, EXIT_USAGE, EXIT_VIOLATIONS, EXIT_INTERNAL, EXIT_IO, EXIT_OUTPUT_CLOSED } from "./io.js";
export type { CliIO, ErrorEmitter, InterruptSignal } from "./io.js";
export { ProgressBar } from "./progress.js";

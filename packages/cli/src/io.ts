/**
 * Where the CLI writes. Injected so tests capture output without spawning a process.
 * @module
 */

/** Output streams of one CLI invocation. */
export interface CliIO {
  /** Write to standard output (results: tables, JSON). */
  out(text: string): void;
  /** Write to standard error (errors, usage after an error, progress). */
  err(text: string): void;
  /** Whether standard error is a terminal (enables the live progress bar). */
  readonly errIsTTY: boolean;
}

/** The process's own streams. */
export function processIO(): CliIO {
  return {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    errIsTTY: process.stderr.isTTY === true,
  };
}

/** Exit status of a usage error (bad flag or value). */
export const EXIT_USAGE = 2;
/** Exit status when a simulation found invariant violations. */
export const EXIT_VIOLATIONS = 1;

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
/** Exit status of a bug in `ectp` itself (sysexits EX_SOFTWARE). */
export const EXIT_INTERNAL = 70;
/** Exit status when a file asked for (`--report`) could not be written after the run (sysexits EX_IOERR). */
export const EXIT_IO = 74;
/**
 * Exit status when standard output was closed by its reader (`ectp ... | head`): what a
 * shell reports for a process ended by SIGPIPE (128 + 13). The run stops there.
 */
export const EXIT_OUTPUT_CLOSED = 141;

/** The part of a stream {@link handleClosedStreams} needs (a Node writable stream). */
export interface ErrorEmitter {
  /** Subscribe to the stream's write errors. */
  on(event: "error", listener: (e: NodeJS.ErrnoException) => void): unknown;
}

/**
 * A reader that goes away (`ectp simulate | head -1`) is not a crash: standard output closed
 * (EPIPE) ends the process with {@link EXIT_OUTPUT_CLOSED} through `exit`; standard error closed
 * only silences the progress and messages. Any other stream error is thrown as before.
 */
export function handleClosedStreams(stdout: ErrorEmitter, stderr: ErrorEmitter, exit: (code: number) => void): void {
  stdout.on("error", (e) => {
    if (e.code !== "EPIPE") throw e;
    exit(EXIT_OUTPUT_CLOSED);
  });
  stderr.on("error", (e) => {
    if (e.code !== "EPIPE") throw e;
  });
}

/**
 * Where the CLI writes. Injected so tests capture output without spawning a process.
 * @module
 */
import { shortText } from "@ectp/protocol";

/** Output streams of one CLI invocation. */
export interface CliIO {
  /** Write to standard output (results: tables, JSON). */
  out(text: string): void;
  /** Write to standard error (errors, usage after an error, progress). */
  err(text: string): void;
  /** Whether standard error is a terminal (enables the live progress bar). */
  readonly errIsTTY: boolean;
  /**
   * Call `stop` on the first SIGINT or SIGTERM from now on, instead of the process ending;
   * returns a function that removes the handler. A second signal, once the first was handled,
   * ends the process as usual. Absent: signals are left alone (the process ends at once).
   */
  onInterrupt?(stop: (signal: InterruptSignal) => void): () => void;
}

/** A signal that {@link CliIO.onInterrupt} hands over. */
export type InterruptSignal = "SIGINT" | "SIGTERM";

/** The exit status of a process ended by `signal`, as a shell reports it (128 + its number). */
export function interruptedStatus(signal: InterruptSignal): number {
  return signal === "SIGINT" ? 130 : 143;
}

/** The signal whose {@link interruptedStatus} `status` is, or undefined for any other status. */
export function interruptSignalOf(status: number): InterruptSignal | undefined {
  return status === 130 ? "SIGINT" : status === 143 ? "SIGTERM" : undefined;
}

/** The process's own streams. */
export function processIO(): CliIO {
  return {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    errIsTTY: process.stderr.isTTY === true,
    onInterrupt: (stop) => {
      // The first signal, of either kind, removes both handlers: a second one, SIGINT or SIGTERM,
      // ends the process (a SIGTERM after a SIGINT must not be taken as another request to stop).
      const release = () => {
        process.off("SIGINT", onInt);
        process.off("SIGTERM", onTerm);
      };
      const handler = (signal: InterruptSignal) => () => {
        release();
        stop(signal);
      };
      const onInt = handler("SIGINT");
      const onTerm = handler("SIGTERM");
      process.on("SIGINT", onInt);
      process.on("SIGTERM", onTerm);
      return release;
    },
  };
}

/** How many characters of a command-line argument an error message shows. */
export const SHOWN_ARG_CHARS = 80;

/**
 * A command-line argument as an error message echoes it: cut after {@link SHOWN_ARG_CHARS}
 * characters, with "..." (`shortText` of @ectp/protocol), so that a huge argument
 * (`ectp --version <3000 characters>`) does not fill the terminal.
 */
export function shownArg(text: string): string {
  return shortText(text, SHOWN_ARG_CHARS);
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
  /** Subscribe to the stream's write errors (Node's system errors carry their `code`, e.g. EPIPE). */
  on(event: "error", listener: (e: Error & { readonly code?: string }) => void): unknown;
}

/**
 * Errors writing the process's own streams are no crash. A reader that goes away (`ectp simulate
 * | head -1`): standard output closed (EPIPE) ends the process with {@link EXIT_OUTPUT_CLOSED}
 * through `exit`. Any other standard output error (a full disk: ENOSPC) is said in one line on
 * standard error (`warn`) and ends the process with {@link EXIT_IO}: the results are lost, and a
 * stack trace and exit 1 (the status of invariant violations) said something else. Standard error
 * failing, for any reason, only silences the progress and messages: the run's result and exit
 * status stand.
 */
export function handleClosedStreams(
  stdout: ErrorEmitter,
  stderr: ErrorEmitter,
  exit: (code: number) => void,
  warn: (text: string) => void = () => {},
): void {
  stdout.on("error", (e) => {
    if (e.code === "EPIPE") {
      exit(EXIT_OUTPUT_CLOSED);
      return;
    }
    try {
      warn(`ectp: cannot write standard output (${e.code ?? e.message}); the results are lost\n`);
    } catch {
      // standard error cannot be written either: the exit status says it
    }
    exit(EXIT_IO);
  });
  stderr.on("error", () => {});
}

/**
 * Executable entry of `ectp`.
 * @module
 */
import { EXIT_INTERNAL, handleClosedStreams, interruptSignalOf } from "./io.js";
import { main } from "./main.js";

handleClosedStreams(
  process.stdout,
  process.stderr,
  (code) => process.exit(code),
  (text) => process.stderr.write(text),
);

/** Say an internal error (a bug in `ectp` or a package it uses) on standard error, with its stack. */
function reportInternal(e: unknown): void {
  process.stderr.write(`ectp: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
}

// An error thrown outside main's promise (in a callback, or a promise rejected with no handler) is
// an internal error too: left to Node, it exits 1, the status of invariant violations.
process.on("uncaughtException", (e) => {
  reportInternal(e);
  process.exit(EXIT_INTERNAL);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // An interrupted command ends by its signal, once its output is written: a shell running it in
    // a loop or script stops there too (an exit status of 130 alone would let the loop go on).
    const signal = interruptSignalOf(code);
    if (signal === undefined) return;
    process.stdout.write("", () =>
      process.stderr.write("", () => {
        process.removeAllListeners(signal);
        process.kill(process.pid, signal);
      }),
    );
  },
  (e: unknown) => {
    reportInternal(e);
    process.exitCode = EXIT_INTERNAL;
  },
);

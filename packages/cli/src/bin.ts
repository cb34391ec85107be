/**
 * Executable entry of `ectp`.
 * @module
 */
import { EXIT_INTERNAL, handleClosedStreams } from "./io.js";
import { main } from "./main.js";

handleClosedStreams(
  process.stdout,
  process.stderr,
  (code) => process.exit(code),
  (text) => process.stderr.write(text),
);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`ectp: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = EXIT_INTERNAL;
  },
);

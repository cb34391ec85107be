/** Shared helpers of this package's tests (not exported from the package). */
import type { CliIO } from "./io.js";

/** A CliIO that keeps what the CLI writes, for tests that call `main` in-process. */
export function capture(errIsTTY = false): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    errIsTTY,
    out(t: string) {
      io.stdout += t;
    },
    err(t: string) {
      io.stderr += t;
    },
  };
  return io;
}

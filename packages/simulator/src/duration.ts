/**
 * Duration strings of the command line (`10ms`, `1.5s`, `2m`).
 * @module
 */
import { EctpError } from "@ectp/protocol";

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000 };

/** Result of {@link parseDuration}. */
export type ParsedDuration =
  | {
      /** Parsed. */
      ok: true;
      /** The duration in milliseconds. */
      ms: number;
    }
  | {
      /** Not a duration. */
      ok: false;
      /** What was wrong and which forms are accepted. */
      error: EctpError;
    };

/**
 * Parse a duration with a unit (`ms`, `s` or `m`) into milliseconds. A bare number is
 * rejected on purpose: `--step 10` is ambiguous, and a wrong unit silently shifts
 * every timer of a simulation by a factor of 1,000.
 * Returns an `EctpError(INVALID_ARGUMENT)` instead of throwing, so callers can name the flag.
 */
export function parseDuration(text: string): ParsedDuration {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text.trim());
  if (!m) {
    return {
      ok: false,
      error: new EctpError(
        "INVALID_ARGUMENT",
        `"${text}" is not a duration; write a number with a unit: ms, s or m (e.g. 10ms, 2s, 1m)`,
      ),
    };
  }
  const ms = Number(m[1]) * (UNITS[m[2] as string] as number);
  return { ok: true, ms };
}

/** Format milliseconds with the largest unit that keeps it readable (for reproduce commands). */
export function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms >= 1_000 && ms % 1_000 === 0) return `${ms / 1_000}s`;
  return `${ms}ms`;
}

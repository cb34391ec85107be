/**
 * Duration strings of the command line (`10ms`, `1.5s`, `2m`).
 * @module
 */
import { EctpError, describeValue } from "@ectp/protocol";

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
 * Returns an `EctpError(INVALID_ARGUMENT)` instead of throwing, so callers can name the flag:
 * for a string that is not a duration, and for anything that is not a string at all
 * (`null`, a number, nothing), which never throws either.
 */
export function parseDuration(text: string): ParsedDuration {
  if (typeof text !== "string")
    return {
      ok: false,
      error: new EctpError(
        "INVALID_ARGUMENT",
        `a duration must be a string with a unit: ms, s or m (e.g. "10ms", "2s", "1m"); got ${describeValue(text)}`,
        { details: { got: describeValue(text) } },
      ),
    };
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
  const unit = UNITS[m[2] as string] as number;
  let ms = Number(m[1]) * unit;
  if (!Number.isFinite(ms))
    return { ok: false, error: new EctpError("INVALID_ARGUMENT", `"${text}" is too long a duration to hold as a number of milliseconds; write a shorter one`) };
  // A decimal fraction scaled by s or m picks up binary error (16.1 x 1000 = 16100.000000000002):
  // what was typed has far fewer than 15 significant digits, so round to 15.
  if (unit !== 1 && (m[1] as string).includes(".")) ms = Number(ms.toPrecision(15));
  return { ok: true, ms };
}

/**
 * Format milliseconds with the largest unit that keeps it exact (for reproduce commands).
 * Always in plain decimal notation, so {@link parseDuration} reads back the same number:
 * `formatDuration(1e-7)` is `0.0000001ms`, not `1e-7ms`.
 */
export function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${plainDecimal(ms / 60_000)}m`;
  if (ms >= 1_000 && ms % 1_000 === 0) return `${plainDecimal(ms / 1_000)}s`;
  return `${plainDecimal(ms)}ms`;
}

/**
 * A non-negative finite number in plain decimal notation, with the digits of its shortest
 * round-trip form: `String(n)` with any exponent (`1e-7`, `6e+27`) written out.
 * @internal
 */
export function plainDecimal(n: number): string {
  const text = String(n);
  const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const digits = `${m[1]}${m[2] ?? ""}`;
  const point = 1 + Number(m[3]); // Digits before the decimal point.
  if (point <= 0) return `0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${digits}${"0".repeat(point - digits.length)}`;
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * Values as the simulator's option problems show them, never throwing (argument errors use
 * `describeValue` of `@ectp/protocol`).
 * @internal
 * @module
 */

/**
 * A value as an option problem shows it: strings quoted (so `"1"` is not read as the number 1),
 * bigints with their `n` (so `1n` is not read as the number 1), anything else as `String(v)`
 * would write it, or its type when it cannot be turned into a string (`Object.create(null)`).
 * Never throws.
 * @internal
 */
export function shownValue(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "bigint") return `${v}n`;
  try {
    return String(v);
  } catch {
    return `${typeof v === "object" ? "an object" : `a ${typeof v}`} that cannot be turned into a string`;
  }
}

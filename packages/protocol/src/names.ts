/**
 * Suggestions for a misspelt name in an error message ("did you mean ...?"), shared by the
 * packages that refuse unknown names: config options, case names.
 * @module
 */
import { EctpError, describeValue as describe, thrownMessage } from "./errors.js";

/**
 * The name among `candidates` closest to `name`: one with the same letters in another case, else
 * the nearest within `maxEdits` edits (Levenshtein: insertions, deletions, substitutions), the
 * first of equals; `undefined` when none is that close. Candidates that are not strings are
 * skipped. A `name` that is not a string, `candidates` that cannot be iterated, or a `maxEdits`
 * that is not a non-negative integer throw `EctpError(INVALID_ARGUMENT)`.
 */
export function closestName(name: string, candidates: Iterable<string>, maxEdits: number): string | undefined {
  if (typeof name !== "string") throw new EctpError("INVALID_ARGUMENT", `closestName: name must be a string; got ${describe(name)}.`);
  if (!Number.isSafeInteger(maxEdits) || maxEdits < 0)
    throw new EctpError("INVALID_ARGUMENT", `closestName: maxEdits must be a non-negative integer; got ${describe(maxEdits)}.`);
  let iterate: unknown;
  try {
    iterate = (candidates as { [Symbol.iterator]?: unknown } | null | undefined)?.[Symbol.iterator];
  } catch (cause) {
    // A throwing getter, a revoked Proxy.
    throw new EctpError("INVALID_ARGUMENT", `closestName: candidates must be an iterable of strings; reading its iterator failed (${thrownMessage(cause)}).`, { cause });
  }
  if (typeof iterate !== "function")
    throw new EctpError("INVALID_ARGUMENT", `closestName: candidates must be an iterable of strings (an array, a Set, a Map's keys); got ${describe(candidates)}.`);
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = maxEdits + 1;
  try {
    for (const c of candidates as Iterable<unknown>) {
      if (typeof c !== "string") continue;
      if (c.toLowerCase() === lower) return c;
      // The length difference alone is at least the distance: skip those that cannot be closer.
      if (Math.abs(c.length - name.length) >= bestDistance) continue;
      const d = editDistance(name, c);
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
  } catch (cause) {
    // Only the iteration can throw here (an iterator method that returns no iterator, or throws).
    throw new EctpError("INVALID_ARGUMENT", `closestName: candidates must be an iterable of strings; iterating them failed (${thrownMessage(cause)}).`, { cause });
  }
  return best;
}

/** Levenshtein distance of two strings. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min((row[j] as number) + 1, (next[j - 1] as number) + 1, (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length] as number;
}

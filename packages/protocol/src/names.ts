/**
 * Suggestions for a misspelt name in an error message ("did you mean ...?"), shared by the
 * packages that refuse unknown names (config options, case names), and the refusal of an options
 * object's unknown keys that the cores, `MemoryItemStore`, `MockNetwork` and `announcementFromJson` use.
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

/**
 * How an option key reads in a message: `options.name` for a key that is an identifier, else
 * `options["na me"]` (quoted, at most 40 characters), so an odd key cannot garble the message.
 */
function optionPath(prefix: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]{0,39}$/.test(key) ? `${prefix}.${key}` : `${prefix}[${describe(key)}]`;
}

/**
 * The own enumerable keys of a constructor's options object that are not among `known`, in
 * order; none when the keys cannot be listed (a Proxy whose `ownKeys` throws: the reads of the
 * options that follow report it).
 */
function unknownOptionKeys(options: object, known: readonly string[]): string[] {
  let keys: string[];
  try {
    keys = Object.keys(options);
  } catch {
    return [];
  }
  return keys.filter((k) => !known.includes(k));
}

/**
 * Refuses a key of a constructor's options object that is not one of its options, so that a
 * misspelt option (`confg`, `transportMetdata`, `retryMS`) does not run silently with its
 * default. Every own enumerable string key counts, even one set to `undefined`.
 * @param owner - The class, for the message (`ConsumerCore`).
 * @param options - The options object (already known to be a non-null object).
 * @param known - Its option names (the keys of its options interface).
 * @param code - The error's code: INVALID_CONFIG for a constructor's options (the default),
 *   INVALID_ARGUMENT for a function's.
 * @param elsewhere - Where an unknown key with no near option name belongs instead, if anywhere
 *   (e.g. a core's timer given at the top level, where `options.config` takes it): a clause for
 *   the message, or undefined.
 * @throws EctpError(`code`) naming the first unknown key, the nearest option (same letters
 *   in another case, or at most 2 edits) when there is one, else where it belongs when
 *   `elsewhere` says, and every option; `details` has `key` and `knownKeys`.
 */
export function refuseUnknownOptions(
  owner: string,
  options: object,
  known: readonly string[],
  code: "INVALID_CONFIG" | "INVALID_ARGUMENT" = "INVALID_CONFIG",
  elsewhere?: (key: string) => string | undefined,
): void {
  const key = unknownOptionKeys(options, known)[0];
  if (key === undefined) return;
  const near = closestName(key, known, 2);
  const belongs = near === undefined ? elsewhere?.(key) : undefined;
  throw new EctpError(
    code,
    `${optionPath("options", key)} is not an option of ${owner}${near === undefined ? "" : ` (did you mean ${near}?)`}${belongs === undefined ? "" : `; ${belongs}`}; its options are ${known.join(", ")}. Check the spelling, or remove it.`,
    { details: { key, knownKeys: [...known] } },
  );
}

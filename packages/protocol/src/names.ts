/**
 * Suggestions for a misspelt name in an error message ("did you mean ...?"), shared by the
 * packages that refuse unknown names: config options, case names.
 * @module
 */

/**
 * The name among `candidates` closest to `name`: one with the same letters in another case, else
 * the nearest within `maxEdits` edits (Levenshtein: insertions, deletions, substitutions), the
 * first of equals; `undefined` when none is that close.
 */
export function closestName(name: string, candidates: Iterable<string>, maxEdits: number): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = maxEdits + 1;
  for (const c of candidates) {
    if (c.toLowerCase() === lower) return c;
    // The length difference alone is at least the distance: skip those that cannot be closer.
    if (Math.abs(c.length - name.length) >= bestDistance) continue;
    const d = editDistance(name, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
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

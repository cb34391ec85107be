/**
 * What a caught value says, for a failure message, never throwing [I1]: the runner reports what
 * a testee, a transport under test or a case threw, and such code may throw anything (a
 * null-prototype object, a Proxy whose traps throw), which `String()` itself would throw on.
 * @internal
 * @module
 */

/** The text of a value `String()` cannot convert. */
const UNPRINTABLE = "a thrown value that cannot be turned into a string";

/** The value's stack when it has one (an Error), else `String(value)`. */
export function thrownStack(err: unknown): string {
  try {
    return (err as Error | null | undefined)?.stack ?? String(err);
  } catch {
    return UNPRINTABLE;
  }
}

/** The value's message when it is an Error, else `String(value)`. */
export function thrownMessage(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return UNPRINTABLE;
  }
}

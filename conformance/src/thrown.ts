/**
 * What a caught value says for a runner failure message, never throwing [I1]: the runner reports
 * what a testee, a transport under test or a case threw, and such code may throw anything.
 * @internal
 * @module
 */
import { thrownText } from "@ectp/protocol";

/** The value's stack when it has one (an Error), else {@link thrownText} of it. */
export function thrownStack(err: unknown): string {
  try {
    const stack = (err as Error | null | undefined)?.stack;
    if (typeof stack === "string") return stack;
  } catch {
    // a Proxy whose traps throw: described below
  }
  return thrownText(err);
}

/** Shared helpers of this package's tests (not exported from the package). */

/** What `f` throws, or undefined when it returns. */
export function thrownBy(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** What `p` rejects with, or undefined when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return e;
  }
}

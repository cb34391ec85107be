/**
 * The checks of the library's entry points on what they were called with: a wrong call throws
 * `EctpError(INVALID_ARGUMENT)` at once, naming the function, the argument and what it takes,
 * rather than failing every case with a runner error.
 * @internal
 * @module
 */
import { EctpError, describeValue, refuseUnknownOptions } from "@ectp/protocol";

/**
 * The option names of an options type, from an object naming each once: the compiler refuses a
 * missing or extra name, so the list cannot drift from the type.
 */
export function optionNames<T>(names: { readonly [K in keyof Required<T>]: true }): readonly string[] {
  return Object.freeze(Object.keys(names));
}

/**
 * Refuses `options` that is not an object, or that has a key not among `known` (a misspelt option
 * would otherwise run silently with its default).
 * @param owner - The function, for the message (`runSuite`).
 * @param options - What it was called with.
 * @param known - Its option names.
 * @throws EctpError(INVALID_ARGUMENT) naming `owner`, what it got, and its options.
 */
export function checkOptions(owner: string, options: unknown, known: readonly string[]): asserts options is object {
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw new EctpError("INVALID_ARGUMENT", `${owner}: options must be an object with some of ${known.join(", ")}; got ${describeValue(options)}`);
  refuseUnknownOptions(owner, options, known, "INVALID_ARGUMENT");
}

/**
 * Refuses a `value` that is not a function.
 * @param owner - The function called, for the message (`runSuite`).
 * @param name - The argument or option, as the message names it (`options.testee`).
 * @param what - What the function does, as the message says it (`makes a testee connection`).
 * @throws EctpError(INVALID_ARGUMENT) naming `owner`, `name`, what it got and what it is for.
 */
export function checkFunction(owner: string, name: string, value: unknown, what: string): void {
  if (typeof value !== "function") throw new EctpError("INVALID_ARGUMENT", `${owner}: ${name} must be a function that ${what}; got ${describeValue(value)}`);
}

/**
 * The checks of the library's entry points on what they were called with: a wrong call throws
 * `EctpError(INVALID_ARGUMENT)` at once, naming the function, the argument and what it takes,
 * rather than failing every case with a runner error.
 * @internal
 * @module
 */
import { EctpError, closestName, describeValue, refuseUnknownOptions, thrownMessage } from "@ectp/protocol";

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

/** The time options of the run functions, each a positive number of ms. */
const POSITIVE_MS = ["caseTimeoutMs", "seedTimeoutMs", "durationMs"];
/** The callback options of the run functions. */
const CALLBACKS = ["onResult", "onWarning", "replayCommand"];

/**
 * Refuses the values of the options run functions share, where given: `features` that is not an
 * iterable of strings (a string would be read as its letters, and every case skipped),
 * `knownFailing` that is not a Map of case names to reasons, a time (`caseTimeoutMs`,
 * `seedTimeoutMs`, `durationMs`) that is not a positive number of ms, and a callback (`onResult`,
 * `onWarning`, `replayCommand`) that is not a function. `undefined` takes the default.
 * @throws EctpError(INVALID_ARGUMENT) naming `owner`, the option and what it got.
 */
export function checkRunValues(owner: string, options: object): void {
  const o = options as Record<string, unknown>;
  const features = o.features;
  if (features !== undefined) {
    const isIterable = features !== null && typeof features === "object" && typeof (features as Iterable<unknown>)[Symbol.iterator] === "function";
    if (!isIterable || ![...(features as Iterable<unknown>)].every((f) => typeof f === "string"))
      throw new EctpError("INVALID_ARGUMENT", `${owner}: options.features must be the feature names claimed (a Set or array of strings), such as ["consumer"]; got ${describeValue(features)}`);
  }
  const known = o.knownFailing;
  if (known !== undefined && !(known instanceof Map))
    throw new EctpError("INVALID_ARGUMENT", `${owner}: options.knownFailing must be a Map of case names to reasons (readKnownFailingFile reads one); got ${describeValue(known)}`);
  for (const key of POSITIVE_MS) {
    const v = o[key];
    if (v !== undefined && !(typeof v === "number" && v > 0 && Number.isFinite(v)))
      throw new EctpError("INVALID_ARGUMENT", `${owner}: options.${key} must be a positive number of ms, or omitted for the default; got ${describeValue(v)}`);
  }
  for (const key of CALLBACKS) if (o[key] !== undefined) checkFunction(owner, `options.${key}`, o[key], "the run calls back");
}

/** The levels the suite and the subscriber's randomised level take. */
const LEVELS: readonly string[] = ["required", "all"];

/**
 * Refuses a `level` other than `required`, `all` or `undefined` (a misspelt level would otherwise run
 * another selection than the one asked for), naming `name`, the value and a near level.
 * @throws EctpError(INVALID_ARGUMENT) naming `owner`, `name` and what it got.
 */
export function checkLevel(owner: string, name: string, level: unknown): void {
  if (level === undefined || LEVELS.includes(level as string)) return;
  const near = typeof level === "string" ? closestName(level, LEVELS, 2) : undefined;
  throw new EctpError(
    "INVALID_ARGUMENT",
    `${owner}: ${name} must be "required" or "all" (or omitted, for "required"); got ${describeValue(level)}${near === undefined ? "" : ` (did you mean "${near}"?)`}`,
  );
}

/**
 * What `read` returns, or, when it throws (a file-system call, a JSON parse), EctpError(INVALID_ARGUMENT)
 * saying `owner: what (the error's message); advice`, with the error as `cause`.
 * @param what - What failed, naming the path (`/x/cases cannot be read`).
 * @param advice - What to do about it.
 */
export function readOrRefuse<T>(owner: string, what: string, advice: string, read: () => T): T {
  try {
    return read();
  } catch (cause) {
    throw new EctpError("INVALID_ARGUMENT", `${owner}: ${what} (${thrownMessage(cause)}); ${advice}`, { cause });
  }
}

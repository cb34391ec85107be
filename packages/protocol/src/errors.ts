/**
 * The one error class of ECTP.
 * @module
 */

/** A failure reason: the name of an `ectp.v1.FailureReason` value without its prefix. */
export type FailureReasonName =
  | "NOT_READY"
  | "NOT_FOUND"
  | "OVERLOADED"
  | "INCOMPATIBLE"
  | "VERSION"
  | "INTERNAL"
  | "SHUTTING_DOWN"
  | "GRANT_TIMEOUT"
  | "PEER_UNREACHABLE"
  | "TRANSFER_FAILED"
  | "TRANSFER_TIMEOUT"
  | "SIZE_MISMATCH"
  | "CHECKSUM_MISMATCH"
  | "EPOCH_CHANGED"
  | "INVALID_ANNOUNCEMENT"
  | "BUDGET_EXHAUSTED"
  | "UNAVAILABLE"
  | "LEASE_EXPIRED";

/**
 * Error codes: every {@link FailureReasonName} (mirroring `ectp.v1.FailureReason`), plus
 * codes for local misuse and malformed input.
 */
export type EctpErrorCode =
  | FailureReasonName
  /** Bytes that are not a valid message: in `decodeEnvelope`'s result (never thrown), and thrown by `FrameDecoder.end` for a stream cut inside a frame. */
  | "MALFORMED_MESSAGE"
  /** A frame longer than `maxFrameBytes`: thrown by `encodeFrame` and `FrameDecoder.push`. */
  | "FRAME_TOO_LARGE"
  /** A descriptor, fingerprint or item key that fails validation: in the result of `validateDescriptor`, `normalizeFingerprint` and `itemKeyId` (never thrown). */
  | "INVALID_DESCRIPTOR"
  /** A call's argument of the wrong type or out of range (local misuse): thrown by the call, e.g. `ConsumerCore.admit`, `MemoryItemStore.markReady`, `encodeFrame`. */
  | "INVALID_ARGUMENT"
  /** Options or a config that cannot be used: thrown by the constructors (`ConsumerCore`, `ProducerCore`, `EventSubscriber`, `Driver`, `MemoryItemStore`, `MockNetwork`, `FrameDecoder`). */
  | "INVALID_CONFIG"
  /** Code a core runs in the middle of one of its calls (a metrics or logger hook, a destination pool, an item store) called a state-changing method of that core: thrown into that code. */
  | "REENTRANT_CALL"
  /** The transport cannot serve the call: `new NixlTransport` without the NIXL native addon, an operation NIXL does not support, or a closed transport. */
  | "TRANSPORT_UNAVAILABLE";

/**
 * The codes retryable by default (SPEC.md section 11, "Retryable and terminal outcomes"); whether
 * a failure is retryable can also depend on when it happened, which an error does not know.
 */
const RETRYABLE: ReadonlySet<EctpErrorCode> = new Set<EctpErrorCode>([
  "NOT_READY",
  "OVERLOADED",
  "GRANT_TIMEOUT",
  "PEER_UNREACHABLE",
]);

const BRAND = Symbol.for("ectp.EctpError");

/** Options of an {@link EctpError}. */
export interface EctpErrorOptions {
  /** The underlying error, kept as `cause`. */
  cause?: unknown;
  /** Structured facts about the failure (offsets, sizes, names). */
  details?: Readonly<Record<string, unknown>>;
}

/**
 * The single error type every ECTP package throws or reports.
 *
 * The message is prefixed with the code (`[FRAME_TOO_LARGE] ...`) and says what was
 * wrong and what to do. `instanceof` works across duplicated copies of this package
 * (a global symbol brand), and {@link EctpError.is} is the recommended check.
 */
export class EctpError extends Error {
  /** What went wrong, as a stable machine-readable code. */
  readonly code: EctpErrorCode;
  /** Structured facts about the failure. */
  readonly details: Readonly<Record<string, unknown>>;

  /**
   * @param code - what went wrong.
   * @param message - what was wrong and what to do, without the code prefix.
   * @param options - cause and structured details; left out (or `undefined`), none. Options that are
   *   not an object (`null` and arrays included) throw `EctpError(INVALID_ARGUMENT)`.
   */
  constructor(code: EctpErrorCode, message: string, options: EctpErrorOptions = {}) {
    if (options === null || typeof options !== "object" || Array.isArray(options))
      throw new EctpError("INVALID_ARGUMENT", `EctpError: options must be an object { cause?, details? }; got ${describeValue(options)}`);
    super(`[${code}] ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "EctpError";
    this.code = code;
    this.details = options.details ?? {};
    Object.defineProperty(this, BRAND, { value: true });
  }

  /**
   * Whether trying again later may succeed, as the default for the code (SPEC.md section 11,
   * "Retryable and terminal outcomes"): true for NOT_READY, OVERLOADED, GRANT_TIMEOUT and
   * PEER_UNREACHABLE. It does not know when the failure happened: PEER_UNREACHABLE after a grant
   * is terminal [C5], and the consumer core decides its retries by SPEC.md section 11 itself, not
   * by this getter.
   */
  get retryable(): boolean {
    return RETRYABLE.has(this.code);
  }

  /**
   * True for any `EctpError`, even one made by another copy of this package; false for anything
   * else, never throwing: a value that cannot be read (a revoked Proxy, a throwing trap) is not one.
   */
  static is(value: unknown): value is EctpError {
    if (typeof value !== "object" || value === null) return false;
    try {
      return (value as Record<symbol, unknown>)[BRAND] === true;
    } catch {
      return false; // [I1] used on caught values, which may be anything
    }
  }

  /** Makes `instanceof` agree with {@link EctpError.is} across package copies. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return EctpError.is(value);
  }
}

/** `%TypedArray%.prototype[Symbol.toStringTag]`: a typed array's constructor name (any realm), undefined for anything else; never throws. */
const typedArrayName = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag)?.get as (this: unknown) => string | undefined;

/** `a Uint8Array`, `an Int8Array`, `a DataView` for an ArrayBuffer view (`view` is one: `ArrayBuffer.isView` said so). */
function viewKind(view: ArrayBufferView): string {
  const name = typedArrayName.call(view) ?? "DataView";
  return `${name.startsWith("Int") ? "an" : "a"} ${name}`; // (an Int8Array, a Uint8Array)
}

/**
 * `text` as an error message or a log line shows a value that may be any length: whole up to
 * `max` characters, else its first `max` followed by "...". Used by {@link describeValue} (40) and
 * by the ECTP packages wherever they echo a caller's string.
 * @param text - The text to show.
 * @param max - How many characters to keep.
 */
export function shortText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/**
 * A short description of a value for an error message: `nothing` (undefined), `null`, a number, a
 * boolean or a symbol as `String` writes it, a quoted string (cut at 40 characters, so `"1"` is not
 * read as the number 1), a bigint with its `n` (`1n`), else what kind of thing it is (`an array`,
 * `a Uint8Array` or whichever typed array or `a DataView` it is, `an ArrayBuffer`, `a function`, `an object`: never
 * the text of an object, which may be long or secret). Never throws, whatever the value (a
 * null-prototype object, a revoked Proxy): the argument and option checks of every ECTP package
 * use it to say what they were given.
 * @param v - Any value.
 * @returns Its description, e.g. `"abc"`, `-1`, `true`, `1n`, `nothing`, `a Uint8Array`, `an object`.
 */
export function describeValue(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  switch (typeof v) {
    case "string":
      return JSON.stringify(shortText(v, 40));
    case "bigint":
      return `${v}n`;
    case "function":
      return "a function";
    case "object":
      try {
        // (ArrayBuffer.isView reads an internal slot: a Proxy of a view is none, and it never throws.)
        if (Array.isArray(v)) return "an array";
        if (ArrayBuffer.isView(v)) return viewKind(v);
        return v instanceof ArrayBuffer ? "an ArrayBuffer" : v instanceof SharedArrayBuffer ? "a SharedArrayBuffer" : "an object";
      } catch {
        return "an object"; // Array.isArray throws for a revoked Proxy
      }
    default:
      return String(v); // a number, a boolean or a symbol: String of a primitive cannot throw
  }
}

/**
 * `String(cause)` for a log field or an error message, never throwing [I1]. A caught value may be
 * one that cannot be turned into a string (a null-prototype object, a revoked Proxy), and the text
 * made for it inside a `catch` must not throw out of the handling it is part of. Such a value reads
 * as "a thrown object that cannot be turned into a string".
 * @param cause - Whatever was thrown.
 */
export function thrownText(cause: unknown): string {
  try {
    return String(cause);
  } catch {
    return `a thrown ${typeof cause} that cannot be turned into a string`;
  }
}

/**
 * An Error's `message` (when it is a string), else {@link thrownText} of the value; never throws [I1].
 * @param cause - Whatever was thrown.
 */
export function thrownMessage(cause: unknown): string {
  try {
    if (cause instanceof Error) {
      const message: unknown = cause.message;
      if (typeof message === "string") return message;
    }
  } catch {
    // a Proxy whose prototype cannot be read: described below
  }
  return thrownText(cause);
}

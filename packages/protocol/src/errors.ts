/**
 * The one error class of ECTP.
 * @module
 */
import { types } from "node:util";

/**
 * A failure reason: the name of an `ectp.v1.FailureReason` value without its prefix. Whether each
 * is retryable or terminal is SPEC.md section 11 ("Retryable and terminal outcomes"). The consumer
 * core retries the retryable ones itself, inside the item's wait budget [C4], and ends the remote
 * path at a terminal one [C5]: it then encodes the item locally when the request has model input,
 * and otherwise fails the request. So an engine meets these names as final outcomes, never thrown:
 * the `reason` of an `ItemFailure` (a failed request, reported once by `drainFailed` [C6]) or of a
 * `local-encode` decision. A few are also the code of an {@link EctpError} in a result or a
 * rejected promise, as said below; and `NixlTransport` throws or rejects with whichever code
 * `NIXL_ERROR_MAP` gives a NIXL status.
 */
export type FailureReasonName =
  /** Retryable [C4]: the producer holds the item but it is not fully written yet [P1]. The consumer retries it; an engine never sees it as an item's outcome (a budget that runs out ends BUDGET_EXHAUSTED). */
  | "NOT_READY"
  /** Terminal [C5]: the producer does not hold the item (never stored, or evicted) [P1]. Many of them can mean the producer's store evicts items before consumers read them (its `capacityBytes`). */
  | "NOT_FOUND"
  /** Retryable [C4]: the consumer is over its quota at the producer [P5], or its destination pool had no room. The consumer retries it. Also the code of a `MemoryItemStore.put` result for an item that does not fit now, even after eviction (never thrown): put it again after grants are released or items become ready. (An item larger than the whole capacity is INVALID_ARGUMENT.) */
  | "OVERLOADED"
  /** Terminal [C5]: the producer's fingerprint differs from the consumer's [P7] (they run different encoders). Also the code of a `validateDescriptor` result whose fingerprint differs from `limits.fingerprint` (never thrown). Check both sides' fingerprint options. */
  | "INCOMPATIBLE"
  /** Terminal [C5]: the peer speaks another spec major version [V1]. Also the code of a `decodeEnvelope` result for an envelope of another major (never thrown). Upgrade one side. */
  | "VERSION"
  /** Terminal [C5]: an unexpected error at the peer, a malformed request, an item of another size than the ReadRequest expected, or one larger than the consumer's byte quota [P5]; also a reject without a reason or with one this version does not know (unless flagged retryable [V1]), a handshake refused for another reason than VERSION or INCOMPATIBLE, and a destination of the wrong length from the consumer's pool. Also the code of a `MemoryItemStore.put` result when `locate` throws or the bytes cannot be allocated (never thrown). */
  | "INTERNAL"
  /** Terminal [C5]: the producer is shutting down [P7]. */
  | "SHUTTING_DOWN"
  /** Retryable [C4]: no grant or reject came within `grantWaitMs`. The consumer retries it. */
  | "GRANT_TIMEOUT"
  /**
   * The producer is unreachable or was declared gone after missed heartbeats [P8]: retryable before
   * a grant [C4], terminal after one [C5] (SPEC.md section 11). The consumer core tells the two apart
   * itself; an item's outcome with this reason is always the terminal case. Also the code a
   * transport rejects `connectPeer` with when it cannot reach the peer (the mock's; NIXL's for the
   * statuses `NIXL_ERROR_MAP` maps to it), where no grant is involved and trying again may succeed:
   * the `Driver` then treats the peer as unreachable.
   */
  | "PEER_UNREACHABLE"
  /** Terminal [C5]: the transport reported the read failed (`ReadResult.status` `failed`). */
  | "TRANSFER_FAILED"
  /** Terminal [C5]: the read was still in flight at `transferTimeoutMs` (quarantined [C8]), or its result was handled at or after that deadline [C11]. */
  | "TRANSFER_TIMEOUT"
  /** Terminal [C5]: the bytes read, the grant, or another announcement of the same key disagree with the announced `size_bytes` [C11]. */
  | "SIZE_MISMATCH"
  /** Terminal [C5]: the bytes read do not match the descriptor's checksum [C11]; nothing was loaded. */
  | "CHECKSUM_MISMATCH"
  /** Terminal [C5]: the producer restarted (a new epoch) under the grant or announcement [P8]. Attach announcements of its new epoch to new requests. */
  | "EPOCH_CHANGED"
  /** Terminal, a request outcome only: the announcement (or a grant's descriptor) failed validation [C2]. Also the code of an `announcementFromJson` result (never thrown). The warning's `detail` says what was wrong. */
  | "INVALID_ANNOUNCEMENT"
  /** Terminal, a request outcome only: the item's wait budget (`waitBudgetMs`) ran out [C3]. The warning's `waitingFor` says what it was waiting for. */
  | "BUDGET_EXHAUSTED"
  /** Terminal, a request outcome only: the item came with no announcement and the request has no model input for it [C1]. Attach an announcement, or model input. */
  | "UNAVAILABLE"
  /** Terminal [C5]: the read completed at or after, or was still in flight at, the grant's lease deadline as the consumer computed it (receipt + lease - `leaseSafetyMarginMs`), or a grant's lease was no longer than that margin [C11][C8]. */
  | "LEASE_EXPIRED";

/**
 * Error codes: every {@link FailureReasonName} (mirroring `ectp.v1.FailureReason`), plus seven
 * codes for local misuse and malformed input. Apart from INVALID_DESCRIPTOR, which is only
 * returned in results, these are what the SDK throws: for the caller's own mistakes
 * (INVALID_ARGUMENT, INVALID_CONFIG, REENTRANT_CALL: fix the calling code or the option the
 * message names), for a transport that cannot serve (TRANSPORT_UNAVAILABLE), and, from the stream
 * framing functions only, for bytes that cannot be framed (FRAME_TOO_LARGE, MALFORMED_MESSAGE). Some
 * are also returned in a result rather than thrown, where the function's doc says so:
 * `decodeEnvelope` returns MALFORMED_MESSAGE, VERSION and INVALID_ARGUMENT, `validateDescriptor`
 * INVALID_ARGUMENT (unusable limits). A failure-reason code is on an `EctpError` only where its own doc says so.
 * The cores never throw for anything a peer sent [I1]: that is counted and ignored [C10], or
 * becomes an item's outcome.
 */
export type EctpErrorCode =
  | FailureReasonName
  /**
   * Bytes that are not a valid message. Returned (never thrown) in `decodeEnvelope`'s result, which
   * the cores count and ignore [C10]; thrown by `FrameDecoder.end` when the stream ended inside a
   * frame. A stream cut mid-frame holds nothing more to read: close that connection.
   */
  | "MALFORMED_MESSAGE"
  /**
   * A frame longer than `maxFrameBytes` (default 16 MiB). Thrown by `encodeFrame`, so nothing is
   * written that the peer must refuse, and by `FrameDecoder.push` for an oversized length prefix,
   * again on every later `push` and by `end` until `reset` (`details.frames` of the first: the
   * frames the chunk completed before it). Send smaller messages, or close the stream that sent it.
   */
  | "FRAME_TOO_LARGE"
  /**
   * A descriptor, fingerprint or item key that fails validation: in the result of
   * `validateDescriptor`, `normalizeFingerprint` and `itemKeyId` (never thrown). The message names
   * the field; fix the descriptor.
   */
  | "INVALID_DESCRIPTOR"
  /**
   * An argument of the wrong type or out of range (local misuse). Thrown by the call, e.g.
   * `ConsumerCore.admit` (an empty request id, duplicate item ids), `MemoryItemStore.markReady` of
   * an absent item, `encodeEnvelope`, `encodeFrame`, `crc32c`, `EventSubscriber.follow`,
   * and `MockNetwork.endpoint`. Returned in the result, never thrown, by `decodeEnvelope` (input
   * that is not bytes) and `validateDescriptor` (unusable limits). The message names the
   * argument and what is wrong with it: fix the calling code. Retrying the same call fails the
   * same way.
   */
  | "INVALID_ARGUMENT"
  /**
   * Options or a config that cannot be used. Thrown by the constructors (`ConsumerCore`,
   * `ProducerCore`, `EventSubscriber`, `Driver`, `MemoryItemStore`, `MockNetwork`, `FrameDecoder`,
   * `NixlTransport`: checked before its addon is loaded)
   * and by `encodeFrame` for a bad `maxFrameBytes`; a misspelt option is named with the nearest
   * one. Nothing was created: fix the option the message names.
   */
  | "INVALID_CONFIG"
  /**
   * Code a core runs in the middle of one of its calls (a metrics or logger hook, a destination
   * pool, an item store) called a state-changing method of that core: thrown into that code, which
   * should let it propagate (a hook's is contained and counted in `stats().hookFailures`). Note
   * what is needed and make the call after the core's call returns.
   */
  | "REENTRANT_CALL"
  /**
   * The transport cannot serve the call: `new NixlTransport` without the NIXL native addon (the
   * message says how to build it), an operation NIXL does not support, or a call on a closed
   * transport (create a new one).
   */
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

/** The optional parts of an {@link EctpError}: the error it wraps and facts for code to read. */
export interface EctpErrorOptions {
  /** The underlying error, kept as `cause`. */
  cause?: unknown | undefined;
  /** Structured facts about the failure (offsets, sizes, names), kept as {@link EctpError.details}. */
  details?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The single error type every ECTP package throws or reports.
 *
 * The message is prefixed with the code (`[FRAME_TOO_LARGE] ...`) and says what was
 * wrong and what to do. `instanceof` works across duplicated copies of this package
 * (a global symbol brand), and {@link EctpError.is} is the recommended check. The reference's
 * ["Errors and failures"](../../../docs/errors.md) page lists what each call throws and how to
 * use {@link EctpError.retryable}.
 */
export class EctpError extends Error {
  /** What went wrong, as a stable machine-readable code. */
  readonly code: EctpErrorCode;
  /**
   * Structured facts about the failure, for code to read instead of parsing the message: the
   * values the message names, such as a misspelt option's `key` and the `knownKeys`, the
   * `sizeBytes` and `capacityBytes` that did not fit, a NIXL status. `{}` when there are none.
   */
  readonly details: Readonly<Record<string, unknown>>;

  /**
   * @param code - the stable code callers branch on; it also prefixes the message.
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
   * Whether trying again later may succeed: true exactly when {@link EctpError.code} is NOT_READY,
   * OVERLOADED, GRANT_TIMEOUT or PEER_UNREACHABLE (the retryable set of SPEC.md section 11, "Retryable
   * and terminal outcomes"), false for every other code, the seven local codes included. It is the
   * code's default and knows nothing of when the failure happened: SPEC.md section 11 makes
   * PEER_UNREACHABLE retryable before a grant and terminal after one [C4][C5]. That distinction is
   * the consumer core's, which decides its retries itself and never reads this getter; it reports an
   * item's outcome as a reason name (`ItemFailure.reason`), not as an `EctpError`. An `EctpError`
   * with PEER_UNREACHABLE comes from a transport (a rejected `connectPeer`; over NIXL, a status
   * `NIXL_ERROR_MAP` maps to it), outside any grant, where true is right. Use it on errors of your
   * own calls (a `MemoryItemStore.put` result of OVERLOADED, a rejected `connectPeer`), not to
   * second-guess the core's outcomes.
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
 * `a Uint8Array` or whichever typed array or `a DataView` it is, `an ArrayBuffer`, each of any realm,
 * `a function`, `an object`: never the text of an object, which may be long or secret). Never throws,
 * whatever the value (a null-prototype object, a revoked Proxy): the argument and option checks of
 * every ECTP package use it to say what they were given.
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
        // A buffer by this realm's constructor, or by its internal slot: another realm's (a node:vm
        // context's) is no `instanceof ArrayBuffer` here, and an error must name it as it names ours.
        if (v instanceof ArrayBuffer || types.isArrayBuffer(v)) return "an ArrayBuffer";
        return v instanceof SharedArrayBuffer || types.isSharedArrayBuffer(v) ? "a SharedArrayBuffer" : "an object";
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

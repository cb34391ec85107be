/**
 * Encoding and decoding of envelopes, with malformed input turned into typed errors.
 * @module
 */
import $protobuf from "protobufjs/minimal.js";
import { ectp } from "./gen/ectp.js";
import { byteView } from "./bytes.js";
import { EctpError, describeValue, thrownMessage, thrownText } from "./errors.js";
import { fastDecodeEnvelope, fastEncodeEnvelope } from "./fast-codec.js";
import { MAX_REPEATED_ELEMENTS } from "./limits.js";
import { skipField } from "./skip-field.js";
import { isMessageObject } from "./validate.js";
import { SPEC_MAJOR } from "./version.js";
import { locateMalformed } from "./wire-diagnosis.js";

/** The members of the Envelope `body` oneof. */
export type EnvelopeBodyName =
  | "hello"
  | "handshakeReject"
  | "readRequest"
  | "readGrant"
  | "readReject"
  | "readComplete"
  | "heartbeat"
  | "eventBatch"
  | "replayRequest"
  | "replayUnavailable"
  | "snapshotRequest"
  | "snapshot"
  | "announcement";

/**
 * Which body an envelope carries: the first member of its `body` oneof that is set, the
 * read-path bodies first; `undefined` when none is. Works alike for decoded envelopes (at most
 * one member set) and plain objects, by direct property reads: the generated `body` getter
 * lists `Object.keys` on every read, and a loop over the names makes every read a
 * megamorphic keyed lookup. Anything but an object throws `EctpError(INVALID_ARGUMENT)`.
 */
export function envelopeBodyName(env: ectp.v1.IEnvelope): EnvelopeBodyName | undefined {
  if (env === null || typeof env !== "object")
    throw new EctpError("INVALID_ARGUMENT", `envelopeBodyName needs an envelope object; got ${env === null ? "null" : typeof env}.`);
  try {
    return bodyName(env);
  } catch (cause) {
    // [I1] An object whose reads throw (a revoked proxy, a throwing getter): local misuse, typed.
    throw new EctpError("INVALID_ARGUMENT", `envelopeBodyName: the envelope's fields could not be read (${thrownText(cause)})`, { cause });
  }
}

/** {@link envelopeBodyName} of an object, by direct property reads. */
function bodyName(env: ectp.v1.IEnvelope): EnvelopeBodyName | undefined {
  if (env.readRequest != null) return "readRequest";
  if (env.readGrant != null) return "readGrant";
  if (env.readReject != null) return "readReject";
  if (env.readComplete != null) return "readComplete";
  if (env.heartbeat != null) return "heartbeat";
  if (env.hello != null) return "hello";
  if (env.handshakeReject != null) return "handshakeReject";
  if (env.eventBatch != null) return "eventBatch";
  if (env.replayRequest != null) return "replayRequest";
  if (env.replayUnavailable != null) return "replayUnavailable";
  if (env.snapshotRequest != null) return "snapshotRequest";
  if (env.snapshot != null) return "snapshot";
  if (env.announcement != null) return "announcement";
  return undefined;
}

/**
 * Encode an envelope to bytes. Throws `EctpError(INVALID_ARGUMENT)` if it cannot be encoded,
 * or would be refused by every receiver, naming the problem: no version (or major 0, or a
 * version that is no message object, such as bytes or an array, named by what it is), no
 * sender id, no sender epoch (or 0), more than one body set (or more than one kind in an
 * event), a field of the wrong type, or an integer its field cannot carry (a uint64 outside
 * [0, 2^53), a uint32 outside [0, 2^32), a negative enum value, a fraction);
 * such a value is never wrapped into another one; or more than {@link MAX_REPEATED_ELEMENTS}
 * repeated elements, which every receiver refuses (SPEC.md section 5).
 * The read-path bodies take a hand-written encoder whose bytes equal the generated one's
 * (see fast-codec.ts); everything else goes to the generated protobufjs code.
 */
export function encodeEnvelope(envelope: ectp.v1.IEnvelope): Uint8Array {
  try {
    // SPEC section 5: one body per envelope (the generated encoder would write every member
    // set, and receivers refuse the second). Inside the try: a throwing getter is reported too.
    if (envelope === null || typeof envelope !== "object" || Array.isArray(envelope) || ArrayBuffer.isView(envelope))
      throw new TypeError(`an envelope is an object (ectp.v1.IEnvelope); got ${describeValue(envelope)}`);
    if (bodiesSet(envelope) > 1) throw new Error(`it sets more than one body (${bodyNames(envelope).join(", ")}); set exactly one`);
    // [V1] SPEC section 4: every envelope carries the sender's spec version, id and epoch; a
    // receiver answers one without a version with VERSION and drops one without a sender.
    const header = headerProblem(envelope);
    if (header !== undefined) throw new Error(header);
    // SPEC section 5: one kind per event, as one body per envelope (receivers refuse the second).
    const twoKinds = eventWithKinds(envelope);
    if (twoKinds >= 0)
      throw new Error(`eventBatch.events[${twoKinds}] sets more than one kind (stored, removed, cleared); set exactly one`);
    // [I1] SPEC section 5: a sender MUST NOT send more repeated elements than every receiver accepts.
    const elements = repeatedElements(envelope);
    if (elements > MAX_REPEATED_ELEMENTS)
      throw new Error(
        `it holds ${elements} repeated elements (events, items, capabilities and shape values together); SPEC.md section 5 allows at most ${MAX_REPEATED_ELEMENTS} in one message, so send them in several (ProducerCore cuts its batches and snapshot parts there)`,
      );
    return fastEncodeEnvelope(envelope) ?? ectp.v1.Envelope.encode(envelope).finish();
  } catch (cause) {
    // [I1] Also a value its field cannot carry (refused by the generated encoder, never wrapped).
    const why = thrownMessage(cause);
    throw new EctpError("INVALID_ARGUMENT", `envelope could not be encoded: ${why}`, { cause });
  }
}

/**
 * Which of `env`'s version, sender id and sender epoch is missing (or 0), or which version is no
 * message object (bytes, an array: named as such [C11]): every receiver refuses such an envelope;
 * undefined when all are there. Another value of the wrong type or range is left to the encoder,
 * which refuses it naming the field and its range.
 */
function headerProblem(env: ectp.v1.IEnvelope): string | undefined {
  const version = env.version;
  if (version == null)
    return "it has no version; set version: SPEC_VERSION (a receiver answers an envelope without one with VERSION) [V1]";
  // [C11] Bytes or an array where the message belongs: named, not read as a version without a major.
  if (!isMessageObject(version))
    return `version must be an object (ectp.v1.ISpecVersion: major and minor); got ${describeValue(version)}; set version: SPEC_VERSION [V1]`;
  if (version.major == null || version.major === 0)
    return `version.major is ${String(version.major)}: no spec has major 0; set version: SPEC_VERSION (major ${SPEC_MAJOR}) [V1]`;
  // [V1] Every announcement carries the sender's spec version too: a consumer refuses one without it [C2].
  // (An announcement that is no message object is left to the encoder, which names what it is.)
  const announcement = env.announcement;
  if (isMessageObject(announcement)) {
    const announced = announcement.version;
    if (announced != null && !isMessageObject(announced))
      return `announcement.version must be an object (ectp.v1.ISpecVersion: major and minor); got ${describeValue(announced)}; set announcement.version: SPEC_VERSION [V1]`;
    if (announced == null || announced.major == null || announced.major === 0)
      return `announcement.version${announced == null ? " is missing" : `.major is ${String(announced.major)}`}; set announcement.version: SPEC_VERSION (a consumer refuses an announcement without one) [V1]`;
  }
  if (env.senderId == null || env.senderId === "")
    return "it has no senderId; set the sender's id (a receiver drops an envelope without one)";
  if (env.senderEpoch == null || env.senderEpoch === 0)
    return "it has no senderEpoch; set the sender's epoch, 1 or more (a receiver drops an envelope without one) [P8]";
  return undefined;
}

/** How many members of the `body` oneof `env` sets (direct reads, see {@link envelopeBodyName}). */
function bodiesSet(env: ectp.v1.IEnvelope): number {
  return (
    (env.readRequest != null ? 1 : 0) + (env.readGrant != null ? 1 : 0) + (env.readReject != null ? 1 : 0) +
    (env.readComplete != null ? 1 : 0) + (env.heartbeat != null ? 1 : 0) + (env.hello != null ? 1 : 0) +
    (env.handshakeReject != null ? 1 : 0) + (env.eventBatch != null ? 1 : 0) + (env.replayRequest != null ? 1 : 0) +
    (env.replayUnavailable != null ? 1 : 0) + (env.snapshotRequest != null ? 1 : 0) + (env.snapshot != null ? 1 : 0) +
    (env.announcement != null ? 1 : 0)
  );
}

/**
 * The repeated elements `env` would carry, counted as receivers count them (SPEC.md section 5):
 * Hello capabilities, EventBatch events, Snapshot items, and every shape value of the
 * descriptors inside (a packed field counts each value). The other bodies repeat nothing.
 */
function repeatedElements(env: ectp.v1.IEnvelope): number {
  if (env.readGrant != null) return shapeValues(env.readGrant.item);
  if (env.announcement != null) return shapeValues(env.announcement.item);
  if (env.hello != null) return listLength(env.hello.capabilities);
  if (env.eventBatch != null) {
    const events = env.eventBatch.events;
    if (!Array.isArray(events)) return 0;
    let n = events.length;
    for (const e of events) n += shapeValues((e as ectp.v1.IEvent | null | undefined)?.stored?.item);
    return n;
  }
  if (env.snapshot != null) {
    const items = env.snapshot.items;
    if (!Array.isArray(items)) return 0;
    let n = items.length;
    for (const item of items) n += shapeValues(item);
    return n;
  }
  return 0;
}

/** The shape values of a descriptor, or 0 (whatever it is: the encoder reports a wrong type itself). */
function shapeValues(item: ectp.v1.IItemDescriptor | null | undefined): number {
  return listLength(item?.shape);
}

function listLength(list: unknown): number {
  return Array.isArray(list) ? list.length : 0;
}

/**
 * The index of the first EventBatch event that sets more than one member of the `kind` oneof
 * (read as {@link bodiesSet} reads bodies), or -1. Anything not an event list is left to the encoder.
 */
function eventWithKinds(env: ectp.v1.IEnvelope): number {
  const events = env.eventBatch?.events;
  if (!Array.isArray(events)) return -1;
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as ectp.v1.IEvent | null | undefined;
    if (e == null || typeof e !== "object") continue;
    if ((e.stored != null ? 1 : 0) + (e.removed != null ? 1 : 0) + (e.cleared != null ? 1 : 0) > 1) return i;
  }
  return -1;
}

/** The names of the body members `env` sets, for an error message. */
function bodyNames(env: ectp.v1.IEnvelope): string[] {
  return BODY_NAMES.filter((k) => env[k] != null);
}

const BODY_NAMES: readonly EnvelopeBodyName[] = ["hello", "handshakeReject", "readRequest", "readGrant", "readReject", "readComplete",
  "heartbeat", "eventBatch", "replayRequest", "replayUnavailable", "snapshotRequest", "snapshot", "announcement"];

/** Result of {@link decodeEnvelope}. */
export type DecodedEnvelope =
  | {
      /** True: the envelope decoded and passed the version and sender checks. */
      readonly ok: true;
      /** The decoded envelope. */
      readonly value: ectp.v1.Envelope;
    }
  | {
      /** False: the bytes were malformed or failed a check. */
      readonly ok: false;
      /** What was wrong. */
      readonly error: EctpError;
      /**
       * The decoded envelope when the bytes parsed but failed a check (e.g. VERSION), so a
       * producer can still answer the sender with a typed reject [V1][P7]. Also given for another
       * major's bytes whose body does not parse as ours (VERSION): then it holds only the frozen
       * header fields (`version`, `senderId`, `senderEpoch`) and the body those allow an answer to:
       * an empty placeholder `hello` for a body in field 10, the frozen fields of a `handshakeReject`,
       * or a `readRequest` that decodes as ours.
       */
      readonly envelope?: ectp.v1.Envelope;
    };

/** What {@link withoutStackTraces} returns when it could not set the limit. */
const NOT_SET = Symbol("stackTraceLimit not set");

/**
 * Set `Error.stackTraceLimit` to 0 and return what it was, or {@link NOT_SET} where it cannot be
 * set: [I1] a runtime that froze Error (`node --frozen-intrinsics`, a lockdown) decodes with stacks.
 */
function withoutStackTraces(): unknown {
  try {
    const limit: unknown = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    return limit;
  } catch {
    return NOT_SET;
  }
}

/** Put back the limit {@link withoutStackTraces} replaced. */
function restoreStackTraces(limit: unknown): void {
  try {
    Error.stackTraceLimit = limit as number;
  } catch {
    // frozen meanwhile: nothing to put back that could be put back
  }
}

/**
 * Decode an envelope. Never throws: malformed bytes give `MALFORMED_MESSAGE`, a missing
 * or other-major version gives `VERSION` [V1], a missing sender gives `MALFORMED_MESSAGE`.
 * Takes a Uint8Array, or any other view of bytes or an ArrayBuffer (as the framing functions
 * do); anything else, or bytes that cannot be read (a hostile proxy), gives `INVALID_ARGUMENT`:
 * local misuse, not a peer's fault.
 */
export function decodeEnvelope(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): DecodedEnvelope {
  let view: Uint8Array;
  try {
    view = byteView(bytes, "an envelope");
  } catch (cause) {
    // [I1] Local misuse too comes back as a result, not a throw.
    return { ok: false, error: cause instanceof EctpError ? cause : new EctpError("INVALID_ARGUMENT", "an envelope could not be read", { cause }) };
  }
  // [C10] Bytes from a peer: the errors a malformed envelope raises inside the decoder (the
  // generated decoder's, the frozen-field re-parse's, the EctpError returned) carry no stack
  // trace, which would name only the decoder's frames and cost far more than the decode itself
  // (a 1-byte envelope took 16 us against 0.13 us for a valid heartbeat: a peer sending garbage
  // bought a hundred times the receiver's CPU of one sending messages).
  const stackTraceLimit = withoutStackTraces();
  let thrown: unknown;
  try {
    return decodeView(view);
  } catch (cause) {
    thrown = cause;
  } finally {
    if (stackTraceLimit !== NOT_SET) restoreStackTraces(stackTraceLimit);
  }
  // [I1] A view whose reads throw (a proxy): only local code can hand one over.
  return { ok: false, error: new EctpError("INVALID_ARGUMENT", `envelope bytes could not be read (${thrownText(thrown)})`, { cause: thrown }) };
}

function decodeView(bytes: Uint8Array): DecodedEnvelope {
  // The usual read-path encodings decode by hand (the same object the generated code
  // builds, see fast-codec.ts); anything else, malformed bytes included, by the generated code.
  let env: ectp.v1.Envelope | undefined = fastDecodeEnvelope(bytes);
  // The generated decoder's reader, made here (decode makes the same one) so that a refusal can
  // say where the decoder stopped.
  let reader: $protobuf.Reader | undefined;
  try {
    if (env === undefined) {
      reader = $protobuf.Reader.create(bytes);
      env = ectp.v1.Envelope.decode(reader);
    }
  } catch (cause) {
    // [V1] The version is compared before anything else: another major's body need not parse
    // as ours, and its sender still gets a VERSION answer from what is frozen across majors.
    const frozen = frozenFields(bytes);
    if (frozen !== undefined && (frozen.version?.major ?? 0) !== SPEC_MAJOR) return versionError(frozen);
    const why = cause instanceof Error ? `: ${cause.message}` : "";
    // The field the bytes go wrong in, when it is their framing (protobufjs' message does not name it):
    // only a break where the decoder stopped, or before, explains its refusal; one after it (or in
    // the value of a field refused at its tag) is another problem, which a refusal for another
    // reason (a field given twice, bad UTF-8, too many elements) must not be given as its place [C10].
    const where = isRefusalAtATag(cause) ? undefined : locateMalformed(bytes, reader?.pos ?? bytes.length);
    const at = where === undefined ? "" : ` (at ${where.field === "" ? "the envelope" : where.field}, byte ${where.offset}: ${where.problem})`;
    return {
      ok: false,
      error: new EctpError(
        "MALFORMED_MESSAGE",
        `envelope of ${bytes.length} bytes is not valid protobuf${why}${at}; ignore it (SPEC.md [C10]), and if a peer keeps sending such bytes, check its encoder and the framing`,
        { cause, details: where === undefined ? {} : { field: where.field, offset: where.offset } },
      ),
    };
  }
  // [V1] Another major is refused before anything else is read. [V2] Any minor of this major is
  // accepted: minors only add fields and values that this reader ignores or maps to a default.
  if ((env.version?.major ?? 0) !== SPEC_MAJOR) return versionError(env);
  if (!env.senderId)
    return { ok: false, error: new EctpError("MALFORMED_MESSAGE", "envelope has no sender_id", {}), envelope: env };
  if (!Number.isSafeInteger(env.senderEpoch) || env.senderEpoch < 1)
    return {
      ok: false,
      error: new EctpError(
        "MALFORMED_MESSAGE",
        `envelope sender_epoch ${senderEpochText(env.senderEpoch)} is not a positive integer below 2^53`,
        { details: { senderId: env.senderId } },
      ),
      envelope: env,
    };
  return { ok: true, value: env };
}

/** The ends of the two refusals {@link isRefusalAtATag} tells: a field given twice, too many elements. */
const REFUSED_AT_A_TAG = /; SPEC\.md section 5 (?:allows a non-repeated field once per message|limits them)$/;

/**
 * Whether `cause`, thrown by the generated decoder, is one of its refusals made at a field's tag,
 * before the field's value is read, for what well-framed bytes hold: a non-repeated field given
 * twice, and a repeated element past the limit (SPEC.md section 5). They name the field themselves;
 * a framing break in the value they did not read is not why they refused [C10]. Told by the words
 * that scripts/lib/pbjs-postprocess.mjs writes into the generated code (`$refuseRepeat`,
 * `$countElement`), not protobufjs' own: wire-diagnosis.test.ts has the generated decoder refuse
 * bytes with each phrase and checks that it is still told here. Not exported from the package.
 * @internal
 */
export function isRefusalAtATag(cause: unknown): boolean {
  return REFUSED_AT_A_TAG.test(thrownMessage(cause));
}

/** A decoded sender_epoch for an error message (a uint64 past 2^53 may be a rounded double). */
function senderEpochText(epoch: unknown): string {
  return typeof epoch === "number" && epoch > Number.MAX_SAFE_INTEGER ? `~${epoch.toExponential(6)}` : String(epoch);
}

/** [V1] The VERSION result for an envelope of another (or no) major version. */
function versionError(env: ectp.v1.Envelope): DecodedEnvelope {
  const major = env.version?.major ?? 0;
  return {
    ok: false,
    error: new EctpError("VERSION", `envelope speaks spec major ${major}; this implementation speaks ${SPEC_MAJOR}`, {
      details: { major },
    }),
    envelope: env,
  };
}

/**
 * [V1] What any major version can read of an envelope whose body does not parse as ours: the
 * frozen fields 1 to 3 (`version`, `sender_id`, `sender_epoch`) and body field 11
 * (`handshake_reject`, its frozen fields), plus whether the body is field 10 (a Hello in
 * major 1: answered with a HandshakeReject, the one reply every major understands). Undefined
 * when even these do not parse.
 */
function frozenFields(bytes: Uint8Array): ectp.v1.Envelope | undefined {
  try {
    const r = $protobuf.Reader.create(bytes);
    const env = new ectp.v1.Envelope();
    let seen = 0;
    let readRequests = 0;
    while (r.pos < r.len) {
      const { field, wire } = frozenTag(r);
      // SPEC section 5: a repeat makes the envelope unreadable here, before it is decoded.
      const bit = frozenFieldBit(field, wire);
      if (seen & bit) return undefined;
      seen |= bit;
      // Nested messages at the depths the generated decoder gives them (the envelope is depth 0),
      // so that groups nested past the limit are malformed here too, not another major's answer.
      if (field === 1 && wire === 2) env.version = specVersionAt(r, 1);
      else if (field === 2 && wire === 2) env.senderId = r.stringVerify();
      else if (field === 3 && wire === 0) {
        const epoch: unknown = r.uint64(); // a Long where protobufjs has one
        env.senderEpoch = typeof epoch === "number" ? epoch : $protobuf.util.LongBits.from(epoch as number).toNumber(true);
      }
      else if (field === 11 && wire === 2) env.handshakeReject = frozenHandshakeReject(r.bytes());
      else if (field === 12 && wire === 2) {
        // [V1] A ReadRequest whose body decodes as ours is answered (ReadReject VERSION naming its
        // attempt), whatever else of the other major does not: kept when it decodes, and only when
        // it comes once (field 12 is not frozen; two of them name no one attempt, and a repeat is
        // skipped undecoded).
        if (++readRequests === 1) env.readRequest = readRequestOrUndefined(r.bytes());
        else {
          env.readRequest = undefined;
          skipField(r, wire, 0, field);
        }
      } else {
        if (field === 10 && wire === 2) env.hello = new ectp.v1.Hello();
        skipField(r, wire, 0, field);
      }
    }
    // [V1] Field 12 is no second body: beside a Hello or a HandshakeReject (the frozen body fields)
    // it is left unanswered, and the Hello gets its refusal.
    if (env.hello != null || env.handshakeReject != null) env.readRequest = undefined;
    return env;
  } catch {
    return undefined;
  }
}

/**
 * The next field's number and wire type, read as the generated decoders read them: a tag of at
 * most 5 bytes (`Reader.tag`) naming a field number of at least 1, so that bytes no protobuf
 * decoder accepts are malformed here too, not an envelope of another version.
 * @throws {Error} for an over-long tag or field number 0.
 */
function frozenTag(r: $protobuf.Reader): { field: number; wire: number } {
  const t = r.tag();
  if (t >>> 3 === 0) throw new RangeError("field number 0");
  return { field: t >>> 3, wire: t & 7 };
}

/**
 * The bit of an envelope field read by {@link frozenFields}, 0 for one it skips unread: a
 * frozen field occurs once (version 1, sender_id 2, sender_epoch 3), and so does a body, the
 * two every major knows (fields 10 and 11) sharing one bit.
 */
function frozenFieldBit(field: number, wire: number): number {
  if (wire === 2 && (field === 10 || field === 11)) return 1;
  if (wire === 2 && (field === 1 || field === 2)) return 1 << field;
  return field === 3 && wire === 0 ? 1 << 3 : 0;
}

/** The generated SpecVersion decoder with its nesting-depth parameter, which its declaration leaves out. */
const SpecVersionAtDepth = ectp.v1.SpecVersion as unknown as {
  decode(reader: $protobuf.Reader, length: number, end: undefined, depth: number): ectp.v1.SpecVersion;
};

/** The length-delimited SpecVersion at the reader, decoded at nesting `depth` (the envelope is 0). */
function specVersionAt(r: $protobuf.Reader, depth: number): ectp.v1.SpecVersion {
  return SpecVersionAtDepth.decode(r, r.size(), undefined, depth);
}

/** The generated ReadRequest decoder with its nesting-depth parameter, which its declaration leaves out. */
const ReadRequestAtDepth = ectp.v1.ReadRequest as unknown as {
  decode(reader: $protobuf.Reader, length: number, end: undefined, depth: number): ectp.v1.ReadRequest;
};

/** Another major's ReadRequest body decoded as ours, at depth 1 (the envelope's body); undefined when it does not decode. */
function readRequestOrUndefined(bytes: Uint8Array): ectp.v1.ReadRequest | undefined {
  try {
    return ReadRequestAtDepth.decode($protobuf.Reader.create(bytes), bytes.length, undefined, 1);
  } catch {
    return undefined;
  }
}

/**
 * HandshakeReject fields 1 to 3 (frozen): another major's may carry more, of other types. Read at
 * depth 1 (the envelope's body), as the generated decoder reads it.
 * @throws {RangeError} when one of them occurs twice (SPEC section 5), and for malformed bytes.
 */
function frozenHandshakeReject(bytes: Uint8Array): ectp.v1.HandshakeReject {
  const r = $protobuf.Reader.create(bytes);
  const reject = new ectp.v1.HandshakeReject();
  let seen = 0;
  while (r.pos < r.len) {
    const { field, wire } = frozenTag(r);
    const bit = (field === 1 && wire === 0) || ((field === 2 || field === 3) && wire === 2) ? 1 << field : 0;
    if (seen & bit) throw new RangeError(`HandshakeReject field ${field} occurs twice`);
    seen |= bit;
    if (field === 1 && wire === 0) reject.reason = r.int32();
    else if (field === 2 && wire === 2) reject.detail = r.stringVerify();
    else if (field === 3 && wire === 2) reject.supported = specVersionAt(r, 2);
    else skipField(r, wire, 1, field);
  }
  return reject;
}

/**
 * Announcements carried as proto3 JSON (an orchestrator's HTTP API, a router's log): read and written.
 * @module
 */
import $protobuf from "protobufjs/minimal.js";
import { EctpError, describeValue, thrownMessage, thrownText } from "./errors.js";
import { ectp } from "./gen/ectp.js";
import { MESSAGE_FIELDS } from "./gen/fields.js";
import { refuseUnknownOptions } from "./names.js";
import { type Validation, isMessageObject } from "./validate.js";

/** The keys a {@link JsonReadOptions} may have. */
const JSON_READ_OPTIONS: readonly string[] = ["ignoreUnknownFields"];

/** Options of {@link announcementFromJson}. */
export interface JsonReadOptions {
  /**
   * Skip fields the schema does not name instead of refusing them (default false, as proto3 JSON
   * parsers do: a misspelt field would otherwise be lost without a word). Set it to read
   * announcements of a newer minor version, whose added fields this version does not know [V1].
   */
  readonly ignoreUnknownFields?: boolean | undefined;
}

/**
 * Read an announcement from proto3 JSON (the canonical JSON mapping of `ectp.v1.Announcement`),
 * given as JSON text or as the value `JSON.parse` made of it, into the object form that
 * `ConsumerCore.admit`, `validateDescriptor` and `encodeEnvelope` take: bytes as `Uint8Array`,
 * 64-bit integers as numbers, enums as numbers.
 *
 * Accepted as proto3 JSON writes or allows them: field names in lowerCamelCase or as in the
 * `.proto` file (snake_case); integers as JSON numbers or as numbers in strings (`"64"`, and
 * integral values such as `"6.4e1"`, decided from the string's digits: `"1.0000000000000001"` and
 * `"1e-400"` are refused, not rounded to 1 and 0); bytes as standard or URL-safe base64, padded or
 * not; enums by value name or number (a JSON number, or one in a string as for integers); `null`
 * for a field's default. Anything else is refused, naming the
 * field's path and what it holds: text that is not JSON, a value of the wrong kind, an integer
 * out of its field's range or above 2^53 - 1 (no JavaScript number holds it exactly), base64
 * with other characters, wrong padding or both alphabets, an enum name the schema does not
 * have, a string with a lone surrogate, and (unless `options.ignoreUnknownFields`) a field the
 * schema does not name, or one given under both of its names.
 *
 * Limits of reading JSON text with `JSON.parse`: a key given twice keeps its last value (proto3
 * parsers that see the text refuse it), and an unquoted number beyond 2^53 - 1 or with more
 * digits than a double holds is rounded before it is checked (`1.0000000000000001` reads as 1).
 * An enum value name of a newer minor version is refused even with `ignoreUnknownFields` (a
 * guessed default would change the item's key): writers that may be newer should write enums as
 * numbers.
 *
 * Only the JSON mapping is checked here: whether the announcement is usable (a positive size,
 * a known checksum algorithm, a matching fingerprint, ...) is for `validateDescriptor` or
 * `ConsumerCore.admit`, which refuse such an announcement as `INVALID_ANNOUNCEMENT` [C2].
 * The generated `ectp.v1.Announcement.fromObject` is no substitute: it coerces rather than
 * refuses (a `sizeBytes` of `"4096abc"` becomes 4096) and drops snake_case names.
 *
 * @param json - JSON text, or an already parsed value.
 * @param options - see {@link JsonReadOptions}; left out (or `undefined`), the defaults.
 * @returns the announcement, or `INVALID_ANNOUNCEMENT` naming what was wrong (never thrown).
 * @throws EctpError(INVALID_ARGUMENT) when `options` is not an object (`null` and arrays included),
 *   has a key other than `ignoreUnknownFields`, or an `ignoreUnknownFields` other than true, false
 *   or undefined: a fault of the calling code, not of the announcement.
 */
export function announcementFromJson(json: unknown, options: JsonReadOptions = {}): Validation<ectp.v1.IAnnouncement> {
  // The caller's own mistakes are its to fix, not the announcement's: thrown, as bad arguments are.
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw new EctpError("INVALID_ARGUMENT", `announcementFromJson: options must be an object { ignoreUnknownFields? }; got ${describeValue(options)}`);
  refuseUnknownOptions("announcementFromJson", options, JSON_READ_OPTIONS, "INVALID_ARGUMENT");
  const ignoreUnknownFields = options.ignoreUnknownFields === undefined ? false : options.ignoreUnknownFields;
  // A "yes" or 1 taken as false would refuse what the caller asked to be skipped, without saying why.
  if (typeof ignoreUnknownFields !== "boolean")
    throw new EctpError("INVALID_ARGUMENT", `announcementFromJson: options.ignoreUnknownFields must be true or false; got ${describeValue(ignoreUnknownFields)}`);
  let value = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json);
    } catch (cause) {
      return refuse(`the announcement is not JSON text (${(cause as Error).message})`, "announcement", cause);
    }
  }
  try {
    return { ok: true, value: readMessage("Announcement", value, "announcement", ignoreUnknownFields) };
  } catch (cause) {
    if (cause instanceof JsonFieldError) return refuse(cause.message, cause.path);
    // A parsed value is plain data; an object whose getters throw (or a Proxy) is refused too.
    return refuse(`the announcement could not be read (${thrownText(cause)})`, "announcement", cause);
  }
}

/**
 * Write an announcement as proto3 JSON text, the form {@link announcementFromJson} reads (and any
 * proto3 JSON parser of `ectp.v1.Announcement`): lowerCamelCase names, bytes as base64, 64-bit
 * integers as strings, enums by name, default values left out. What is written is what the wire
 * would carry: the announcement is encoded and decoded first, so properties the schema does not
 * name are not written.
 *
 * `JSON.stringify` of an announcement is no substitute: it writes a `Uint8Array` as an object of
 * numbered keys, which no proto3 JSON reader takes.
 *
 * @param announcement - an announcement, such as `ProducerCore.announce` returns.
 * @returns its proto3 JSON text.
 * @throws EctpError(INVALID_ARGUMENT) when it does not fit the schema (a field of the wrong type),
 *   naming the field.
 */
export function announcementToJson(announcement: ectp.v1.IAnnouncement): string {
  let problem: string | null;
  let wire: ectp.v1.Announcement | undefined;
  try {
    problem = announcement === null || typeof announcement !== "object" ? `got ${describeValue(announcement)}` : ectp.v1.Announcement.verify(announcement);
    if (problem === null) wire = ectp.v1.Announcement.decode(ectp.v1.Announcement.encode(announcement).finish());
  } catch (cause) {
    problem = thrownMessage(cause); // the encoder's refusal names the field
  }
  if (wire === undefined) throw new EctpError("INVALID_ARGUMENT", `announcementToJson needs an ectp.v1.IAnnouncement: ${problem}`);
  return JSON.stringify(ectp.v1.Announcement.toObject(wire, { longs: String, enums: String, bytes: String }));
}

/** A field that does not fit the JSON mapping; turned into the result's error at the top. */
class JsonFieldError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

function refuse(message: string, path: string, cause?: unknown): Validation<never> {
  return {
    ok: false,
    error: new EctpError(
      "INVALID_ANNOUNCEMENT",
      `${message}. Send the announcement as proto3 JSON of ectp.v1.Announcement (SPEC.md section 3), or as bytes in an Envelope (decodeEnvelope).`,
      { details: { path }, cause },
    ),
  };
}

/** The message `type` (a name of MESSAGE_FIELDS) read from its JSON object at `path`. */
function readMessage(type: string, value: unknown, path: string, ignoreUnknown: boolean): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new JsonFieldError(path, `expected a JSON object (${type}); got ${describe(value)}`);
  // [C11] Bytes (a view or an ArrayBuffer) have no fields to read: refused, not read as an empty message.
  if (!isMessageObject(value)) throw new JsonFieldError(path, `expected a JSON object (${type}); got ${describeValue(value)}`);
  const fields = MESSAGE_FIELDS[type] as Readonly<Record<number, readonly [string, string, boolean]>>;
  const byJsonName = new Map<string, readonly [string, string, boolean]>();
  for (const field of Object.values(fields)) {
    byJsonName.set(field[0], field);
    byJsonName.set(protoName(field[0]), field);
  }
  const out: Record<string, unknown> = {};
  for (const [key, fieldValue] of Object.entries(value as Record<string, unknown>)) {
    const field = byJsonName.get(key);
    const fieldPath = `${path}.${key}`;
    if (field === undefined) {
      if (ignoreUnknown) continue;
      throw new JsonFieldError(fieldPath, `${type} has no field named "${key}" (its fields: ${Object.values(fields).map((f) => f[0]).join(", ")})`);
    }
    const [name, fieldType, repeated] = field;
    if (Object.hasOwn(out, name)) throw new JsonFieldError(fieldPath, `the field ${name} is given twice (as ${name} and as ${protoName(name)})`);
    if (fieldValue === null) {
      out[name] = undefined; // proto3 JSON: null is the field's default
      continue;
    }
    if (repeated) {
      if (!Array.isArray(fieldValue)) throw new JsonFieldError(fieldPath, `expected a JSON array; got ${describe(fieldValue)}`);
      out[name] = fieldValue.map((element, i) => readValue(fieldType, element, `${fieldPath}[${i}]`, ignoreUnknown));
    } else out[name] = readValue(fieldType, fieldValue, fieldPath, ignoreUnknown);
  }
  for (const name of Object.keys(out)) if (out[name] === undefined) delete out[name];
  return out;
}

/** One (non-repeated) value of `type`: a message, an enum or a scalar. */
function readValue(type: string, value: unknown, path: string, ignoreUnknown: boolean): unknown {
  if (Object.hasOwn(MESSAGE_FIELDS, type)) return readMessage(type, value, path, ignoreUnknown);
  switch (type) {
    case "string":
      if (typeof value !== "string") throw new JsonFieldError(path, `expected a JSON string; got ${describe(value)}`);
      if (LONE_SURROGATE.test(value)) throw new JsonFieldError(path, "the string holds a lone surrogate, which UTF-8 cannot carry");
      return value;
    case "bool":
      if (typeof value !== "boolean") throw new JsonFieldError(path, `expected true or false; got ${describe(value)}`);
      return value;
    case "uint32":
      return readInteger(value, path, UINT32_MAX, "uint32");
    case "uint64":
      return readInteger(value, path, Number.MAX_SAFE_INTEGER, "uint64");
    case "bytes":
      return readBase64(value, path);
  }
  const values = (ectp.v1 as unknown as Record<string, Record<string, unknown>>)[type];
  if (values === undefined) throw new Error(`json.ts: no reader for the field type ${type}`);
  return readEnum(type, values, value, path);
}

const UINT32_MAX = 0xffff_ffff;
/** A JSON number, as proto3 JSON also accepts one in a string ("64", "6.4e1"). */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A non-negative integer up to `max`, from a JSON number or one in a string (an integral value: 64, 64.0 or 6.4e1). */
function readInteger(value: unknown, path: string, max: number, type: string): number {
  let n: number;
  if (typeof value === "number") n = value;
  else if (typeof value === "string" && JSON_NUMBER.test(value)) n = wholeNumberOf(value);
  else throw new JsonFieldError(path, `expected a ${type} as a JSON number or a number in a string; got ${describe(value)}`);
  if (!Number.isInteger(n) || n < 0) throw new JsonFieldError(path, `expected a non-negative integer (${type}); got ${describe(value)}`);
  if (n === 0) return 0; // (-0 too)
  if (n > max)
    throw new JsonFieldError(
      path,
      max === UINT32_MAX
        ? `${describe(value)} is out of the uint32 range [0, ${UINT32_MAX}]`
        : `${describe(value)} is above 2^53 - 1, which no JavaScript number holds exactly`,
    );
  return n;
}

/**
 * The value of a number written in a string (`text` matches {@link JSON_NUMBER}), decided from its
 * digits, not from the double `Number(text)` rounds it to: an exact integer when it is a whole
 * number of at most 16 digits (all of 2^53 - 1, 9007199254740991, and more: a caller compares it
 * with its maximum); NaN when it has a non-zero fraction, however small ("1.0000000000000001",
 * "1e-400", which `Number` rounds to 1 and 0); `Number.MAX_VALUE` when it is whole but longer
 * (above any maximum, "1e400" too). A negative sign is kept (-1 for any negative whole number, 0
 * for "-0").
 */
function wholeNumberOf(text: string): number {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text) as RegExpExecArray;
  const [, sign, whole = "", fraction = "", exponent = "0"] = m;
  // The number is `digits` x 10^scale, `digits` without leading or trailing zeros.
  let digits = (whole + fraction).replace(/^0+/, "");
  if (digits === "") return 0; // zero, whatever its exponent or sign
  const trailing = digits.length - digits.replace(/0+$/, "").length;
  digits = digits.slice(0, digits.length - trailing);
  const scale = Number(exponent) - fraction.length + trailing; // (a huge exponent is a huge double: still compared right)
  if (scale < 0) return Number.NaN; // a non-zero fraction
  if (sign === "-") return -1; // a whole negative number
  if (digits.length + scale > 16) return Number.MAX_VALUE; // 10^16 or more: above any maximum
  return Number(digits + "0".repeat(scale)); // at most 16 digits: exact up to 2^53, past it above any maximum
}

/**
 * An enum value by its name in `type`, or by its number: a JSON number or, as the proto3 JSON
 * parser of the Java runtime (JsonFormat) also takes it, a number in a string (`"3"`, read as the
 * integers of other fields are).
 */
function readEnum(type: string, values: Record<string, unknown>, value: unknown, path: string): number {
  if (typeof value === "string" && Object.hasOwn(values, value) && typeof values[value] === "number") return values[value] as number;
  const n = typeof value === "number" ? value : typeof value === "string" && JSON_NUMBER.test(value) ? wholeNumberOf(value) : undefined;
  if (n !== undefined) {
    if (!Number.isInteger(n) || n < 0 || n > 0x7fff_ffff)
      throw new JsonFieldError(path, `expected a ${type} value (a name or a non-negative int32); got ${describe(value)}`);
    return n === 0 ? 0 : n; // (-0 too)
  }
  const names = Object.keys(values).filter((k) => typeof values[k] === "number");
  throw new JsonFieldError(path, `expected a ${type} value name (${names.join(", ")}) or number; got ${describe(value)}`);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of standard or URL-safe base64, padded or not (proto3 JSON accepts all four). */
function readBase64(value: unknown, path: string): Uint8Array {
  if (typeof value !== "string") throw new JsonFieldError(path, `expected base64 bytes in a JSON string; got ${describe(value)}`);
  if (/[-_]/.test(value) && /[+/]/.test(value))
    throw new JsonFieldError(path, `${describe(value)} mixes the standard (+ /) and URL-safe (- _) base64 alphabets`);
  let text = value.replace(/-/g, "+").replace(/_/g, "/");
  if (text.length % 4 === 1) throw new JsonFieldError(path, `${describe(value)} is no base64: its length leaves one character over`);
  if (text.includes("=") && text.length % 4 !== 0) throw new JsonFieldError(path, `${describe(value)} is no base64: padded, but not to a multiple of 4 characters`);
  text += "=".repeat((4 - (text.length % 4)) % 4);
  if (!BASE64.test(text)) throw new JsonFieldError(path, `${describe(value)} is no base64 (standard or URL-safe, padded or not)`);
  // Checked above, so protobufjs's decoder (lenient about what it skips) sees only clean base64.
  const out = new Uint8Array($protobuf.util.base64.length(text));
  $protobuf.util.base64.decode(text, out, 0);
  return out;
}

/** The `.proto` (snake_case) name of a lowerCamelCase JSON name. */
function protoName(jsonName: string): string {
  return jsonName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A JSON value in a message, shortened. A value JSON has no form for (NaN, Infinity, a bigint, a
 * function: only a parsed object handed over, never text, can hold one) is named by what it is.
 */
function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  if (typeof value === "bigint") return `the bigint ${value}`;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) return describeValue(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

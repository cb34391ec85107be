/**
 * The testee protocol's generated code (`ectp.conformance.v1`, see
 * spec/proto/ectp/conformance/v1/testee.proto) and proto3-JSON helpers.
 *
 * Generated inside this package (scripts/generate.mjs) so the runner does not depend on
 * which protos `@ectp/protocol` compiles. The `ectp.v1` classes in it are separate from
 * `@ectp/protocol`'s, so envelopes cross between the two as encoded bytes only.
 * @module
 */
import { closestName } from "@ectp/protocol";
import type { Enum, Field, Type } from "protobufjs";
import protobuf from "protobufjs/light.js";
import { ectp } from "./gen/testee.js";
import schema from "./gen/testee-schema.js";

export { ectp };

/** The testee protocol version this runner speaks (TESTEE-PROTOCOL.md). */
export const TESTEE_PROTOCOL_VERSION = 1;

/** Shorthand for the request message class. */
export const TesteeRequest = ectp.conformance.v1.TesteeRequest;
/** Shorthand for the response message class. */
export const TesteeResponse = ectp.conformance.v1.TesteeResponse;

/** protobufjs conversion options giving the proto3 JSON mapping (strings for uint64, enum names, base64). */
export const JSON_OPTIONS = Object.freeze({ longs: String, enums: String, bytes: String, defaults: false });

/** An envelope as a proto3-JSON object, as the runner compares and checks what a testee sends. */
export function envelopeJson(envelope: ectp.v1.IEnvelope | null | undefined): Record<string, unknown> {
  return ectp.v1.Envelope.toObject(ectp.v1.Envelope.fromObject(envelope ?? {}), JSON_OPTIONS);
}

/** A request as a proto3-JSON object (what JSON-lines mode writes). */
export function requestToJson(req: ectp.conformance.v1.ITesteeRequest): Record<string, unknown> {
  return TesteeRequest.toObject(TesteeRequest.fromObject(req as Record<string, unknown>), JSON_OPTIONS);
}

/**
 * Parse a proto3-JSON request object (what a JSON-lines testee reads): field names may be
 * lowerCamelCase or the proto's own snake_case names (TESTEE-PROTOCOL.md §3.2: testees SHOULD
 * accept both); unknown fields are ignored (§3.2: they MUST be). Throws on a value protobufjs
 * cannot convert.
 */
export function requestFromJson(obj: Record<string, unknown>): ectp.conformance.v1.TesteeRequest {
  return TesteeRequest.fromObject(camelKeys(obj) as Record<string, unknown>);
}

/**
 * Parse a proto3-JSON response object. Field names may be lowerCamelCase or the proto's own
 * snake_case names (proto3 JSON parsers accept both). As proto3 JSON parsers do by default, a
 * field name or an enum name the schema does not define is refused rather than dropped (a
 * misspelt key would otherwise read as absent): the error names it, where it is, and the
 * closest name the schema has. So is a value not of its field's JSON kind (TESTEE-PROTOCOL.md
 * section 3.2): a uint64 or uint32 that is neither a string of decimal digits nor a JSON number
 * holding a safe integer, or is out of range, a bool that is not `true` or `false`, a string or
 * bytes field that is not a string, a message that is not an object: protobufjs would read "12abc"
 * as 12, "1e2" as 1, "" or `{}` as 0 and `true` as 1. Throws on those, and on a value protobufjs
 * cannot convert.
 */
export function responseFromJson(obj: Record<string, unknown>): ectp.conformance.v1.TesteeResponse {
  const problem = jsonProblem(obj, RESPONSE_TYPE, "TesteeResponse");
  if (problem !== undefined) throw new Error(problem);
  return TesteeResponse.fromObject(camelKeys(obj) as Record<string, unknown>);
}

/** A JSON key as a field name: snake_case turned lowerCamelCase (what protobufjs names fields). */
function camelName(key: string): string {
  return key.includes("_") ? key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()) : key;
}

/** `value` with every object key in snake_case turned lowerCamelCase (values are left alone). */
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[camelName(k)] = camelKeys(v);
  return out;
}

/** The schema, reflected (field names, field types, enum names). */
export const ROOT = protobuf.Root.fromJSON(schema).resolveAll();
/** The response message's reflected type. */
const RESPONSE_TYPE: Type = ROOT.lookupType("ectp.conformance.v1.TesteeResponse");

/**
 * The encoded bytes of `value`, a proto3-JSON object of the ECTP message `name` ("Event",
 * "ItemDescriptor") written in a case file, checked as {@link responseFromJson} checks a response:
 * a field or enum name the schema does not define is refused rather than dropped (a misspelt key
 * would otherwise be sized as absent), and so is a value not of its field's JSON kind (a uint64
 * not written as decimal digits or a safe integer, a bool that is not `true` or `false`, ...).
 * Throws an Error naming it, or what `fromObject` refuses.
 */
export function encodeCaseMessage(name: "Event" | "ItemDescriptor", value: Record<string, unknown>): Uint8Array {
  const problem = jsonProblem(value, ROOT.lookupType(`ectp.v1.${name}`), name);
  if (problem !== undefined) throw new Error(problem);
  const T = ectp.v1[name];
  return T.encode(T.fromObject(camelKeys(value) as Record<string, unknown>)).finish();
}

/** Options of {@link jsonProblem}. */
export interface JsonProblemOptions {
  /** Values not to check (a case's templates, resolved as their step runs). Default: none. */
  readonly leaveOut?: ((value: unknown) => boolean) | undefined;
  /** Whether a snake_case field name is taken as its lowerCamelCase one, as proto3 JSON parsers do. Default: true. */
  readonly snakeCase?: boolean | undefined;
}

/**
 * The first field name or enum name in `value` (a JSON object of message `type`, found at
 * `path`) that the schema does not define, or the first value not of its field's JSON kind (see
 * {@link kindProblem}) or a repeated field not given as a list, described for a testee's author
 * (or, from runner/case-check.ts, a case's); undefined when there is none. What is left (bytes that
 * are not base64) is left to `fromObject`, which refuses what it cannot convert.
 */
export function jsonProblem(value: unknown, type: Type, path: string, options: JsonProblemOptions = {}): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const leaveOut = options.leaveOut ?? (() => false);
  for (const [key, v] of Object.entries(value)) {
    if (leaveOut(v)) continue;
    const name = options.snakeCase === false ? key : camelName(key);
    // Own fields only: `fields` is a plain object, so "constructor" or "__proto__" would find its prototype's.
    const field = Object.hasOwn(type.fields, name) ? type.fields[name] : undefined;
    if (field === undefined) {
      const like = nearest(name, Object.keys(type.fields));
      return (
        `${path} (${type.fullName.slice(1)}) has a field ${JSON.stringify(key)} that the schema does not define` +
        `${like === undefined ? `; its fields: ${Object.keys(type.fields).join(", ")}` : ` (did you mean ${JSON.stringify(like)}?)`}`
      );
    }
    const at = `${path}.${key}`;
    if (field.repeated && v !== null && !Array.isArray(v)) return `${at} is ${jsonText(v)}: a repeated field is written as a JSON list`;
    const elements = field.repeated && Array.isArray(v) ? v : [v];
    for (let i = 0; i < elements.length; i++) {
      const where = elements === v ? `${at}[${i}]` : at;
      // null is a field's default, never an element of a list (protobufjs would throw a TypeError naming no field).
      if (elements === v && elements[i] === null) return `${where} is null: an element of a repeated field is a value, never null`;
      if (leaveOut(elements[i])) continue;
      const found = kindProblem(elements[i], field, where) ?? unknownValueName(elements[i], field.resolvedType, where, options);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** {@link jsonProblem} for one field value: a nested message is walked, an enum name looked up. */
function unknownValueName(value: unknown, resolved: Type | Enum | null, path: string, options: JsonProblemOptions): string | undefined {
  if (resolved === null) return undefined; // a scalar
  if ("fields" in resolved) return jsonProblem(value, resolved, path, options);
  if (typeof value !== "string" || Object.hasOwn(resolved.values, value)) return undefined;
  const like = nearest(value, Object.keys(resolved.values));
  return (
    `${path} is ${JSON.stringify(value)}, which is not a name of enum ${resolved.fullName.slice(1)}` +
    `${like === undefined ? "" : ` (did you mean ${JSON.stringify(like)}?)`}; a value without a name in the schema is written as its number`
  );
}

/** The largest uint64 and uint32, as digits (compared by length, then text). */
const UINT64_MAX = "18446744073709551615";
const UINT32_MAX = "4294967295";

/**
 * What is wrong with `value`, one JSON value of `field` at `path`, where proto3 JSON parsers refuse
 * it and protobufjs's `fromObject` would read it quietly as something else (`true` as a uint32's 1,
 * `{}` or `[3]` as a uint64's 0, an array as a message), so a wrong response could pass a check
 * (TESTEE-PROTOCOL.md section 3.2): a message is a JSON object, a bool `true` or `false`, a string
 * or bytes field a string, an enum a name or an int32, a uint32 or uint64 an integer in its range
 * written as decimal digits or as a JSON number holding a safe integer. `null` is any field's
 * default (an element of a list is never null: see {@link jsonProblem}). Undefined when the
 * value is of its field's kind.
 */
function kindProblem(value: unknown, field: Field, path: string): string | undefined {
  if (value === null) return undefined;
  const resolved = field.resolvedType;
  if (resolved !== null) {
    const name = resolved.fullName.slice(1);
    if ("fields" in resolved)
      return typeof value === "object" && !Array.isArray(value) ? undefined : `${path} is ${jsonText(value)}: message ${name} is written as a JSON object`;
    const int32 = typeof value === "number" && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
    return typeof value === "string" || int32 ? undefined : `${path} is ${jsonText(value)}: enum ${name} is written as a value name or an int32`;
  }
  switch (field.type) {
    case "uint64":
      return integerProblem(value, UINT64_MAX, "a uint64", path);
    case "uint32":
      return integerProblem(value, UINT32_MAX, "a uint32", path);
    case "bool":
      return typeof value === "boolean" ? undefined : `${path} is ${jsonText(value)}: a bool is written as true or false`;
    case "string":
      return typeof value === "string" ? undefined : `${path} is ${jsonText(value)}: a string field is written as a JSON string`;
    case "bytes":
      return typeof value === "string" ? undefined : `${path} is ${jsonText(value)}: bytes are written as a base64 string`;
    default:
      return undefined;
  }
}

/**
 * What is wrong with `value` as an unsigned integer of at most `max` (decimal digits), for
 * {@link kindProblem}: a string must be decimal digits without leading zeros, a number a
 * non-negative safe integer (a larger one has already lost digits: write it as a string).
 */
function integerProblem(value: unknown, max: string, kind: string, path: string): string | undefined {
  const how = `${kind} is written as a string of decimal digits or as a JSON number holding a safe integer (TESTEE-PROTOCOL.md section 3.2)`;
  let digits: string;
  if (typeof value === "number") {
    // JSON.parse has rounded a larger one: what the line wrote is gone.
    if (Number.isInteger(value) && value > Number.MAX_SAFE_INTEGER)
      return `${path} is ${value} (shown rounded), a JSON number above 2^53-1, which the runner cannot hold exactly: ${how}`;
    if (!Number.isSafeInteger(value)) return `${path} is ${value}, not a safe integer: ${how}`;
    if (value < 0) return `${path} is ${value}, below 0: ${how}`;
    digits = String(value);
  } else if (typeof value === "string") {
    if (!/^(0|[1-9]\d*)$/.test(value)) return `${path} is ${JSON.stringify(value)}: ${how}`;
    digits = value;
  } else return `${path} is ${jsonText(value)}: ${how}`;
  if (digits.length > max.length || (digits.length === max.length && digits > max)) return `${path} is ${digits}, out of the range of ${kind}: ${how}`;
  return undefined;
}

/** A JSON value as its text, cut to 60 characters, for an error message. */
export function jsonText(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The schema name closest to a misspelt `name`: at most a third of its letters (at least 2) wrong. */
export function nearest(name: string, names: Iterable<string>): string | undefined {
  return closestName(name, names, Math.max(2, Math.floor(name.length / 3)));
}

/**
 * Every enum value name the schema defines (`FAILURE_REASON_NOT_READY`, `DTYPE_FLOAT16`, ...):
 * proto3 JSON writes a named enum value as its name, so a matcher giving one as a number can
 * never match it (see `scalarEq` in runner/match.ts).
 */
export const ENUM_VALUE_NAMES: ReadonlySet<string> = new Set(enumValueNames(schema));

function enumValueNames(node: unknown): string[] {
  if (node === null || typeof node !== "object") return [];
  const { values, nested } = node as { values?: Record<string, number>; nested?: Record<string, unknown> };
  return [...Object.keys(values ?? {}), ...Object.values(nested ?? {}).flatMap(enumValueNames)];
}

/** The members of `TesteeResponse.result` (a oneof: a well-formed response sets exactly one). */
export const RESULT_MEMBERS = ["ok", "init", "admit", "drainFailed", "putItem", "announce", "readMemory", "poll", "stats", "unsupported", "error", "view", "decodeStream"] as const;

/** Names of the results set in a response, in field order (one in a well-formed response). */
export function resultsSet(res: ectp.conformance.v1.ITesteeResponse): string[] {
  return RESULT_MEMBERS.filter((k) => (res as Record<string, unknown>)[k] != null);
}

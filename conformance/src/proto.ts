/**
 * The testee protocol's generated code (`ectp.conformance.v1`, see
 * spec/proto/ectp/conformance/v1/testee.proto) and proto3-JSON helpers.
 *
 * Generated inside this package (scripts/generate.mjs) so the runner does not depend on
 * which protos `@ectp/protocol` compiles. The `ectp.v1` classes in it are separate from
 * `@ectp/protocol`'s, so envelopes cross between the two as encoded bytes only.
 * @module
 */
import { ectp } from "./gen/testee.js";

export { ectp };

/** The testee protocol version this runner speaks (TESTEE-PROTOCOL.md). */
export const TESTEE_PROTOCOL_VERSION = 1;

/** Shorthand for the request message class. */
export const TesteeRequest = ectp.conformance.v1.TesteeRequest;
/** Shorthand for the response message class. */
export const TesteeResponse = ectp.conformance.v1.TesteeResponse;

/** protobufjs conversion options giving the proto3 JSON mapping (strings for uint64, enum names, base64). */
export const JSON_OPTIONS = Object.freeze({ longs: String, enums: String, bytes: String, defaults: false });

/** A request as a proto3-JSON object (what JSON-lines mode writes). */
export function requestToJson(req: ectp.conformance.v1.ITesteeRequest): Record<string, unknown> {
  return TesteeRequest.toObject(TesteeRequest.fromObject(req as Record<string, unknown>), JSON_OPTIONS);
}

/**
 * Parse a proto3-JSON response object. Field names may be lowerCamelCase or the proto's own
 * snake_case names (proto3 JSON parsers accept both). Throws on a value protobufjs cannot convert.
 */
export function responseFromJson(obj: Record<string, unknown>): ectp.conformance.v1.TesteeResponse {
  return TesteeResponse.fromObject(camelKeys(obj) as Record<string, unknown>);
}

/** `value` with every object key in snake_case turned lowerCamelCase (values are left alone). */
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k.includes("_") ? k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()) : k] = camelKeys(v);
  return out;
}

/** The members of `TesteeResponse.result` (a oneof: a well-formed response sets exactly one). */
export const RESULT_MEMBERS = ["ok", "init", "admit", "drainFailed", "putItem", "announce", "readMemory", "poll", "stats", "unsupported", "error", "view"] as const;

/** Names of the results set in a response, in field order (one in a well-formed response). */
export function resultsSet(res: ectp.conformance.v1.ITesteeResponse): string[] {
  return RESULT_MEMBERS.filter((k) => (res as Record<string, unknown>)[k] != null);
}

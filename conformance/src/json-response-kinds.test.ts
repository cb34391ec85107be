import { describe, expect, it } from "vitest";
import { responseFromJson } from "./proto.js";

/**
 * TESTEE-PROTOCOL.md section 3.2: a JSON-lines response value must be of its field's JSON kind.
 * protobufjs's `fromObject` alone reads a wrong kind quietly (`true` or `[3]` as a counter, `{}`
 * as 0, `true` as a uint32's 1), so a testee answering `{"pins": true}` would pass [I3] unchecked.
 */
describe("JSON-lines responses: each value is of its field's JSON kind", () => {
  const stats = (grants: unknown) => ({ commandId: "3", stats: { producer: { grants } } });
  const reject = (fields: Record<string, unknown>) => ({
    commandId: "3",
    poll: { outputs: [{ send: { to: "C1", envelope: { readReject: { attemptId: 1, ...fields } } } }] },
  });
  const at = "TesteeResponse.poll.outputs[0].send.envelope.readReject";

  it("[I3] a uint64 counter that is a boolean, an object or an array is refused, naming the field (it read as 0)", () => {
    const how = "a uint64 is written as a string of decimal digits or as a JSON number holding a safe integer (TESTEE-PROTOCOL.md section 3.2)";
    for (const [bad, text] of [[true, "true"], [{}, "{}"], [[3], "[3]"]] as const)
      expect(() => responseFromJson(stats(bad)), text).toThrow(`TesteeResponse.stats.producer.grants is ${text}: ${how}`);
  });

  it("a uint32 must be an integer in [0, 2^32 - 1], as a number or decimal digits", () => {
    const how = "a uint32 is written as a string of decimal digits or as a JSON number holding a safe integer (TESTEE-PROTOCOL.md section 3.2)";
    expect(() => responseFromJson(reject({ retryAfterMs: true }))).toThrow(`${at}.retryAfterMs is true: ${how}`);
    expect(() => responseFromJson(reject({ retryAfterMs: "50ms" }))).toThrow(`${at}.retryAfterMs is "50ms": ${how}`);
    expect(() => responseFromJson(reject({ retryAfterMs: 2 ** 32 }))).toThrow(`${at}.retryAfterMs is 4294967296, out of the range of a uint32: ${how}`);
    expect(() => responseFromJson(reject({ retryAfterMs: "4294967296" }))).toThrow("out of the range of a uint32");
    const read = (v: unknown) => responseFromJson(reject({ retryAfterMs: v })).poll?.outputs?.[0]?.send?.envelope?.readReject?.retryAfterMs;
    expect(read(50)).toBe(50);
    expect(read("4294967295")).toBe(4294967295);
  });

  it("a bool must be true or false; a string or bytes field a string; an enum a name or an integer; a message an object", () => {
    expect(() => responseFromJson(reject({ retryable: 1 }))).toThrow(`${at}.retryable is 1: a bool is written as true or false`);
    expect(() => responseFromJson(reject({ retryable: "true" }))).toThrow(`${at}.retryable is "true": a bool is written as true or false`);
    expect(() => responseFromJson(reject({ reason: true }))).toThrow(`${at}.reason is true: enum ectp.v1.FailureReason is written as a value name or an int32`);
    expect(() => responseFromJson(reject({ reason: 1.5 }))).toThrow(`${at}.reason is 1.5: enum`);
    expect(() => responseFromJson(reject({ reason: 2 ** 31 }))).toThrow(`${at}.reason is 2147483648: enum ectp.v1.FailureReason is written as a value name or an int32`);
    expect(responseFromJson(reject({ reason: -(2 ** 31) })).poll?.outputs?.[0]?.send?.envelope?.readReject?.reason).toBe(-(2 ** 31));
    const send = (to: unknown) => ({ commandId: "3", poll: { outputs: [{ send: { to, envelope: {} } }] } });
    expect(() => responseFromJson(send(7))).toThrow("TesteeResponse.poll.outputs[0].send.to is 7: a string field is written as a JSON string");
    expect(() => responseFromJson({ commandId: "3", stats: [] })).toThrow(
      "TesteeResponse.stats is []: message ectp.conformance.v1.Stats is written as a JSON object",
    );
    const hash = (contentHash: unknown) => ({ commandId: "3", poll: { outputs: [{ send: { to: "P1", envelope: { readRequest: { key: { contentHash } } } } }] } });
    expect(() => responseFromJson(hash([1, 2]))).toThrow(
      "TesteeResponse.poll.outputs[0].send.envelope.readRequest.key.contentHash is [1,2]: bytes are written as a base64 string",
    );
    // Each of the right kind is read as written; null is a field's default.
    const ok = responseFromJson(reject({ retryable: true, reason: "FAILURE_REASON_NOT_READY", retryAfterMs: null }));
    expect(ok.poll?.outputs?.[0]?.send?.envelope?.readReject).toMatchObject({ retryable: true, reason: 1 });
    expect([...(responseFromJson(hash("AAE=")).poll?.outputs?.[0]?.send?.envelope?.readRequest?.key?.contentHash ?? [])]).toEqual([0, 1]);
  });

  it("an element of a repeated field is never null (protobufjs threw a TypeError naming no field)", () => {
    expect(() => responseFromJson({ commandId: "3", poll: { outputs: [null] } })).toThrow(
      "TesteeResponse.poll.outputs[0] is null: an element of a repeated field is a value, never null",
    );
    expect(() => responseFromJson({ commandId: "3", stats: { subscriber: null } })).not.toThrow(); // a field's default
  });

  it("a long wrong value is cut in the message", () => {
    expect(() => responseFromJson(stats({ note: "x".repeat(200) }))).toThrow(/grants is \{"note":"x{48}\.\.\.: a uint64/);
  });
});

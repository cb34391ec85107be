/**
 * What the producer sends back of a peer's text, and the fingerprint it sends.
 *
 * A refusal's `detail` repeated the peer's fingerprint model whole, JSON-escaped (up to six times
 * longer): a Hello or ReadRequest of 3 MiB was answered with 18 MiB, over a receiver's 16 MiB frame
 * limit (SPEC.md section 5), and logged as long. And the producer kept the caller's `fingerprint`
 * object itself, sending in its Hellos whatever the caller later changed it to, while it checked
 * requests against the copy it took at construction [P7]. Each test failed before its fix.
 */
import { SPEC_VERSION, decodeEnvelope, ectp, encodeEnvelope } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { MemoryItemStore } from "./memory-store.js";
import { ProducerCore } from "./producer.js";
import { FP, PRODUCER, type RecordingLogger, harness, sent, wire } from "./test-helpers.js";

const FR = ectp.v1.FailureReason;
/** 1 MiB of a control character: JSON.stringify writes each as `\u0001`, six characters. */
const HUGE_MODEL = "\u0001".repeat(1 << 20);
/** The most characters of a detail these tests accept: a few hundred, far from the megabytes sent before. */
const SHORT = 2048;

/** The one envelope sent to "c" by `h`'s next poll, checked to encode (a driver drops one that does not). */
function onlyReply(producer: ProducerCore, now: number): { envelope: ectp.v1.IEnvelope; bytes: number } {
  const out = sent(producer.poll(now), "c");
  expect(out).toHaveLength(1);
  const envelope = out[0] as ectp.v1.IEnvelope;
  const bytes = encodeEnvelope(envelope).length;
  return { envelope, bytes };
}

/** Every string a logger was handed, as the length of the longest. */
function longestLogged(logger: RecordingLogger): number {
  let longest = 0;
  for (const w of logger.warnings)
    for (const v of Object.values((w.fields ?? {}) as Record<string, unknown>)) if (typeof v === "string") longest = Math.max(longest, v.length);
  return longest;
}

describe("a refusal's detail stays short, whatever the peer sent (SPEC.md section 5)", () => {
  it("[P7] a Hello of another, 1 MiB model is refused INCOMPATIBLE with a short detail that still names the field and both models' starts", () => {
    const h = harness();
    h.producer.handleMessage("c", wire("c", 1, { hello: { role: ectp.v1.Role.ROLE_CONSUMER, fingerprint: { ...FP, model: HUGE_MODEL } } }), 0);
    const { envelope, bytes } = onlyReply(h.producer, 0);
    const reject = envelope.handshakeReject as ectp.v1.IHandshakeReject;
    expect(reject.reason).toBe(FR.FAILURE_REASON_INCOMPATIBLE);
    expect(reject.detail?.length).toBeLessThan(SHORT);
    expect(reject.detail).toMatch(/^model "(\\u0001){100}\.\.\." \(1048576 characters\) != "m"$/);
    expect(bytes).toBeLessThan(SHORT + 100);
    // The producer's own warning says as much, and no more.
    expect(longestLogged(h.logger)).toBeLessThan(SHORT);
  });

  it("[P7] a ReadRequest for a key of another, 1 MiB model is rejected INCOMPATIBLE (check 3) with a short detail", () => {
    const h = harness();
    const key = { contentHash: new Uint8Array([1]), fingerprint: { ...FP, model: HUGE_MODEL } };
    h.producer.handleMessage("c", wire("c", 1, { readRequest: { attemptId: 1, key } }), 0);
    const { envelope, bytes } = onlyReply(h.producer, 0);
    const reject = envelope.readReject as ectp.v1.IReadReject;
    expect(reject.reason).toBe(FR.FAILURE_REASON_INCOMPATIBLE);
    expect(reject.detail).toMatch(/^model "(\\u0001){100}\.\.\." \(1048576 characters\) != "m"$/);
    expect(bytes).toBeLessThan(SHORT + 100);
  });

  it("a short model is shown whole, as before", () => {
    const h = harness();
    h.producer.handleMessage("c", wire("c", 1, { hello: { role: ectp.v1.Role.ROLE_CONSUMER, fingerprint: { ...FP, model: "other" } } }), 0);
    expect(onlyReply(h.producer, 0).envelope.handshakeReject?.detail).toBe('model "other" != "m"');
  });

  it("[V1][P7] any other peer text in a detail (an envelope's major version or Hello role, as handleEnvelope may be given them) is cut too, and the refusal still encodes", () => {
    const long = `${"9".repeat(1 << 20)}\u{1F600}`;
    const head = { senderId: "c", senderEpoch: 1 };
    const cases: ectp.v1.IEnvelope[] = [
      // [V1] another major: refused VERSION, naming the major it speaks.
      { ...head, version: { major: long as unknown as number, minor: 0 }, hello: { role: ectp.v1.Role.ROLE_CONSUMER, fingerprint: FP } },
      { ...head, version: { major: long as unknown as number, minor: 0 }, readRequest: { attemptId: 1, key: { contentHash: new Uint8Array([1]), fingerprint: FP } } },
      // A Hello of no role a producer serves: refused INTERNAL, naming the role.
      { ...head, version: SPEC_VERSION, hello: { role: long as unknown as ectp.v1.Role, fingerprint: FP } },
    ];
    for (const [i, envelope] of cases.entries()) {
      const h = harness();
      h.producer.handleEnvelope("c", envelope, 0);
      const { envelope: reply, bytes } = onlyReply(h.producer, 0);
      const detail = reply.handshakeReject?.detail ?? reply.readReject?.detail;
      expect(detail?.length, `case ${i}`).toBeLessThan(SHORT);
      expect(detail, `case ${i}`).toMatch(/9\.\.\.( is not CONSUMER or BOTH)?$/);
      expect(bytes, `case ${i}`).toBeLessThan(SHORT + 100);
      expect(longestLogged(h.logger), `case ${i}`).toBeLessThan(SHORT);
    }
  });

  it("a cut never splits a surrogate pair: the refusal still encodes (a lone surrogate would not)", () => {
    // Wherever the cut falls, it falls among the pairs: at the start of one (pad 0) and inside one (pad 1).
    for (let pad = 0; pad < 2; pad++) {
      const role = `${"r".repeat(pad)}${"\u{1F600}".repeat(1 << 16)}`;
      const h = harness();
      h.producer.handleEnvelope("c", { version: SPEC_VERSION, senderId: "c", senderEpoch: 1, hello: { role: role as unknown as ectp.v1.Role, fingerprint: FP } }, 0);
      const { envelope } = onlyReply(h.producer, 0);
      const detail = envelope.handshakeReject?.detail as string;
      expect(detail.length).toBeLessThan(SHORT);
      expect((detail as string & { isWellFormed(): boolean }).isWellFormed()).toBe(true);
    }
  });
});

describe("the fingerprint is taken once, at construction [P7]", () => {
  it("[P7] the Hello answer carries the fingerprint given at construction, frozen, though the caller changes its object later", () => {
    const fingerprint = { ...FP };
    const producer = new ProducerCore({ ...PRODUCER, fingerprint, store: new MemoryItemStore({ capacityBytes: 100 }) });
    fingerprint.model = "other-model";
    producer.handleMessage("c", wire("c", 1, { hello: { role: ectp.v1.Role.ROLE_CONSUMER, fingerprint: FP } }), 0);
    const { envelope } = onlyReply(producer, 0);
    const sentFingerprint = envelope.hello?.fingerprint as ectp.v1.IFingerprint;
    expect(sentFingerprint).toEqual(FP);
    expect(Object.isFrozen(sentFingerprint)).toBe(true);
    expect(decodeEnvelope(encodeEnvelope(envelope)).ok).toBe(true);
    // And it still checks requests against that one: the changed model is another.
    producer.handleMessage("d", wire("d", 1, { hello: { role: ectp.v1.Role.ROLE_CONSUMER, fingerprint: { ...FP, model: "other-model" } } }), 1);
    expect(sent(producer.poll(1), "d")[0]?.handshakeReject?.reason).toBe(FR.FAILURE_REASON_INCOMPATIBLE);
  });

  it("[P7] a fingerprint given with fields left out is sent normalised (its defaults), so later changes to the object reach nothing", () => {
    const fingerprint: ectp.v1.IFingerprint = { model: "m" };
    const producer = new ProducerCore({ ...PRODUCER, fingerprint, store: new MemoryItemStore({ capacityBytes: 100 }) });
    fingerprint.rowBytes = 4096;
    producer.handleMessage("c", wire("c", 1, { hello: { role: ectp.v1.Role.ROLE_CONSUMER, fingerprint: { model: "m" } } }), 0);
    expect(onlyReply(producer, 0).envelope.hello?.fingerprint).toEqual({ model: "m", dtype: 0, rowBytes: 0, layoutVersion: 0 });
  });
});

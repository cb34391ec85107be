/**
 * [C10] A message whose transport-reported sender is not the one its envelope names is ignored and
 * counted by every core; the first one is also logged at warning level, naming both ids, because
 * the usual cause (a transport reporting a socket address as `ReceivedMessage.from`) otherwise
 * fails every request in silence. Later ones are only counted. (Review of 2026-12-06: a TCP
 * transport reporting "127.0.0.1:54321" left a request deferred for its whole budget, no log.)
 * The warning names the other cause too, a peer whose envelopes carry another `sender_id` than its
 * own (review of 2026-12-08: a peer forging `sender_id` read as the transport's fault).
 */
import { SPEC_VERSION, type ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { RecordingLogger, makeConsumer } from "./consumer/test-support.js";
import { harness } from "./producer/test-helpers.js";
import { P, env, following } from "./subscriber/test-support.js";

const ADDRESS = "127.0.0.1:54321";
const heartbeat = (senderId: string): ectp.v1.IEnvelope => ({ version: SPEC_VERSION, senderId, senderEpoch: 1, heartbeat: {} });

/** The warnings logged, as [message, fields] pairs. */
function mismatchWarnings(records: readonly { message: string; fields?: unknown }[]): unknown[] {
  return records.filter((r) => r.message.includes("ReceivedMessage.from")).map((r) => r.fields);
}

describe("[C10] a message from another sender than its envelope names", () => {
  it("consumer: ignored and counted each time, logged once with both ids", () => {
    const h = makeConsumer();
    h.core.handleEnvelope(ADDRESS, heartbeat("e-1"), 0);
    h.core.handleEnvelope(ADDRESS, heartbeat("e-1"), 1);
    expect(h.core.stats().ignoredMessages).toBe(2);
    expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "sender_mismatch"])).toBe(2);
    expect(mismatchWarnings(h.logger.at("warn"))).toEqual([{ from: ADDRESS, senderId: "e-1" }]);
  });

  it("[C10] the warning names both causes: the transport's `from`, and a peer's envelope naming another sender_id (forged)", () => {
    const h = makeConsumer();
    h.core.handleEnvelope("e-2", heartbeat("e-1"), 0); // e-2 claims to be e-1: the transport is right
    const [warning] = h.logger.at("warn");
    expect(warning?.message).toMatch(/ReceivedMessage\.from as something other than the sender's peer id/);
    expect(warning?.message).toMatch(/the peer put another sender_id in its envelope than its own id \(misconfigured, or forging another peer's\)/);
    expect(warning?.fields).toEqual({ from: "e-2", senderId: "e-1" });
  });

  it("producer: ignored and counted each time, logged once with both ids", () => {
    const h = harness();
    h.producer.handleEnvelope(ADDRESS, heartbeat("c"), 0);
    h.producer.handleEnvelope(ADDRESS, heartbeat("c"), 1);
    expect(h.producer.stats().ignoredMessages).toBe(2);
    expect(mismatchWarnings(h.logger.warnings)).toEqual([{ from: ADDRESS, senderId: "c" }]);
  });

  it("subscriber: a followed producer's message reported from an address is logged once; one from an unfollowed peer is not", () => {
    const logger = new RecordingLogger();
    const sub = following({ logger });
    sub.handleEnvelope(ADDRESS, heartbeat("stranger"), 1);
    expect(mismatchWarnings(logger.records)).toEqual([]);
    sub.handleEnvelope(ADDRESS, env(1, { heartbeat: {} }), 2);
    sub.handleEnvelope(ADDRESS, env(1, { heartbeat: {} }), 3);
    expect(sub.stats().ignoredMessages).toBe(3);
    expect(mismatchWarnings(logger.at("warn"))).toEqual([{ from: ADDRESS, senderId: P }]);
    // The reason it names is the one the subscriber counts them under (the address is no producer it follows).
    expect(logger.at("warn")[0]?.message).toMatch(/reason unknown_peer\)$/);
  });

  it("subscriber: a followed producer's `from` with another sender_id is counted sender_mismatch and logged once", () => {
    const logger = new RecordingLogger();
    const sub = following({ logger });
    sub.handleEnvelope(P, heartbeat("someone-else"), 1);
    sub.handleEnvelope(P, heartbeat("someone-else"), 2);
    expect(sub.stats().ignoredMessages).toBe(2);
    expect(mismatchWarnings(logger.at("warn"))).toEqual([{ from: P, senderId: "someone-else" }]);
    expect(logger.at("warn")[0]?.message).toMatch(/reason sender_mismatch\)$/);
  });
});

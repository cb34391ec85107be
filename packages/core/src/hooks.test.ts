/**
 * The engine's hooks (metrics sink, logger) as every public constructor takes them: a hook
 * missing a method is refused with INVALID_CONFIG naming what is missing, and what a working
 * hook throws is contained and counted [I1].
 */
import { EctpError, ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { ConsumerCore } from "./consumer/consumer.js";
import { Driver } from "./driver/driver.js";
import { NOOP_LOGGER, NOOP_METRICS } from "./observability.js";
import { MemoryItemStore } from "./producer/memory-store.js";
import { ProducerCore } from "./producer/producer.js";
import { FP } from "./producer/test-helpers.js";
import { EventSubscriber } from "./subscriber/subscriber.js";
import { P, env } from "./subscriber/test-support.js";

const pool = { allocate: () => undefined, release() {}, view: () => new Uint8Array(0) };
const consumer = (hooks: object) => new ConsumerCore({ id: "PD", epoch: 1, fingerprint: FP, destinations: pool, ...hooks });
const producer = (hooks: object) => new ProducerCore({ id: "E", epoch: 1, fingerprint: FP, store: new MemoryItemStore({ capacityBytes: 100 }), ...hooks });
const subscriber = (hooks: object) => new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP, ...hooks });
const transport = { send() {}, poll: () => [] };
const driver = (hooks: object) => new Driver({ transport: transport as never, consumer: consumer({}), ...hooks });

function refusal(make: () => unknown): EctpError {
  try {
    make();
  } catch (e) {
    expect(e).toBeInstanceOf(EctpError);
    expect((e as EctpError).code).toBe("INVALID_CONFIG");
    return e as EctpError;
  }
  throw new Error("constructed without a refusal");
}

describe("hooks", () => {
  const makers = { consumer, producer, subscriber, driver };
  for (const [name, make] of Object.entries(makers)) {
    it(`${name}: a logger lacking methods is refused, naming them; the no-op default spread with one level is accepted`, () => {
      expect(refusal(() => make({ logger: {} })).message).toContain("options.logger lacks debug, info, warn, error");
      expect(refusal(() => make({ logger: { debug() {}, info() {}, warning() {}, error() {} } })).message).toMatch(
        /options\.logger lacks warn \(each must be a function\).*\{ \.\.\.NOOP_LOGGER, warn: \.\.\. \}/,
      );
      expect(refusal(() => make({ logger: "console" })).message).toContain("options.logger must be an object");
      expect(refusal(() => make({ logger: null })).message).toContain("got null");
      expect(() => make({ logger: { ...NOOP_LOGGER, warn() {} } })).not.toThrow();
      expect(() => make({ logger: console })).not.toThrow();
    });
  }

  for (const [name, make] of Object.entries({ consumer, producer })) {
    it(`${name}: a metrics sink lacking methods is refused, naming them`, () => {
      expect(refusal(() => make({ metrics: { counter() {} } })).message).toMatch(
        /options\.metrics lacks gauge, histogram .*\{ \.\.\.NOOP_METRICS, gauge: \.\.\. \}/,
      );
      expect(refusal(() => make({ metrics: 7 })).message).toContain("options.metrics must be an object with counter, gauge, histogram methods; got number");
      expect(() => make({ metrics: { ...NOOP_METRICS, counter() {} } })).not.toThrow();
    });
  }

  it("a hook whose method is present but not a function is refused, naming it", () => {
    expect(refusal(() => subscriber({ logger: { ...NOOP_LOGGER, warn: "yes" } })).message).toContain("options.logger lacks warn (each must be a function)");
    expect(refusal(() => consumer({ metrics: { ...NOOP_METRICS, gauge: 1 } })).message).toContain("options.metrics lacks gauge (each must be a function)");
  });

  it("[I1] subscriber: a logger that throws is contained and counted; the message is still handled", () => {
    const throwing = { debug() {}, info() {}, warn: () => { throw new Error("exporter down"); }, error() {} };
    const sub = subscriber({ logger: throwing });
    sub.follow(P, 0);
    const reject = env(7, { handshakeReject: { reason: ectp.v1.FailureReason.FAILURE_REASON_INCOMPATIBLE } });
    expect(() => sub.handleEnvelope(P, reject, 1)).not.toThrow();
    expect(sub.stats()).toMatchObject({ ignoredMessages: 1, hookFailures: 1 });
    // A logger whose every method throws, on the path that logs from a catch (an envelope that cannot be read).
    const allThrow = { debug: throwing.warn, info: throwing.warn, warn: throwing.warn, error: throwing.warn };
    const sub2 = subscriber({ logger: allThrow });
    sub2.follow(P, 0);
    const hostile = Object.defineProperty(env(1, {}), "eventBatch", { get: () => { throw new Error("hostile"); }, enumerable: true });
    expect(() => sub2.handleEnvelope(P, hostile, 1)).not.toThrow();
    expect(sub2.stats()).toMatchObject({ ignoredMessages: 1, hookFailures: 1 });
  });
});

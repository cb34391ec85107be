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
import { QUIET, expectIdle, fill, grant, makeConsumer, onlyAttempt, remote, sent, starts } from "./consumer/test-support.js";
import { FP, PRODUCER, ack, desc, harness, kid, ready, request, wire } from "./producer/test-helpers.js";
import { EventSubscriber } from "./subscriber/subscriber.js";
import { P, env } from "./subscriber/test-support.js";

const pool = { allocate: () => undefined, release() {}, view: () => new Uint8Array(0) };
const consumer = (hooks: object) => new ConsumerCore({ id: "PD", epoch: 1, fingerprint: FP, destinations: pool, ...hooks });
const producer = (hooks: object) => new ProducerCore({ id: "E", epoch: 1, fingerprint: FP, store: new MemoryItemStore({ capacityBytes: 100 }), ...hooks });
const subscriber = (hooks: object) => new EventSubscriber({ id: "R", epoch: 1, fingerprint: FP, ...hooks });
/** A stand-in transport with every method, a new one each time (a transport takes one Driver). */
const transport = () =>
  Object.fromEntries(["poll", "send", "startRead", "cancelRead", "connectPeer", "disconnectPeer", "waitForActivity", "close"].map((m) => [m, () => {}]));
const driver = (hooks: object) => new Driver({ transport: transport() as never, consumer: consumer({}), ...hooks });

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
      expect(refusal(() => make({ logger: {} })).message).toContain("options.logger must be a Logger { debug, info, warn, error }, but it has no debug, info, warn, error methods");
      expect(refusal(() => make({ logger: { debug() {}, info() {}, warning() {}, error() {} } })).message).toMatch(
        /options\.logger must be a Logger .*, but it has no warn method; .*\{ \.\.\.NOOP_LOGGER, warn: \.\.\. \}$/,
      );
      expect(refusal(() => make({ logger: "console" })).message).toBe('[INVALID_CONFIG] options.logger must be a Logger { debug, info, warn, error }; got "console"');
      expect(refusal(() => make({ logger: null })).message).toContain("got null");
      expect(() => make({ logger: { ...NOOP_LOGGER, warn() {} } })).not.toThrow();
      expect(() => make({ logger: console })).not.toThrow();
    });
  }

  for (const [name, make] of Object.entries({ consumer, producer })) {
    it(`${name}: a metrics sink lacking methods is refused, naming them`, () => {
      expect(refusal(() => make({ metrics: { counter() {} } })).message).toMatch(
        /options\.metrics must be a MetricsSink .*, but it has no gauge, histogram methods; .*\{ \.\.\.NOOP_METRICS, gauge: \.\.\. \}$/,
      );
      expect(refusal(() => make({ metrics: 7 })).message).toBe("[INVALID_CONFIG] options.metrics must be a MetricsSink { counter, gauge, histogram }; got 7");
      expect(() => make({ metrics: { ...NOOP_METRICS, counter() {} } })).not.toThrow();
    });
  }

  it("a hook whose method is present but not a function is refused, naming it", () => {
    expect(refusal(() => subscriber({ logger: { ...NOOP_LOGGER, warn: "yes" } })).message).toContain("options.logger must be a Logger { debug, info, warn, error }, but it has no warn method;");
    expect(refusal(() => consumer({ metrics: { ...NOOP_METRICS, gauge: 1 } })).message).toContain("options.metrics must be a MetricsSink { counter, gauge, histogram }, but it has no gauge method;");
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

  it("[I1] subscriber: a metrics sink that throws is contained and counted; the ignored message is still counted in stats", () => {
    const counter = (): never => {
      throw new Error("exporter down");
    };
    const sub = subscriber({ metrics: { ...NOOP_METRICS, counter } });
    sub.follow(P, 0);
    expect(() => sub.handleEnvelope(P, env(1, { readRequest: { attemptId: 1 } }), 1)).not.toThrow(); // a body a subscriber does not use
    expect(sub.stats()).toMatchObject({ ignoredMessages: 1, hookFailures: 1 });
  });
});

/** Every state-changing ConsumerCore method, each as one call (`finishRequest` of `requestId`). */
function consumerCalls(requestId: string): Record<string, (c: ConsumerCore) => unknown> {
  return {
    admit: (c) => c.admit({ requestId: "r2", items: [] }, 1),
    finishRequest: (c) => c.finishRequest(requestId, 1),
    drainFailed: (c) => c.drainFailed(),
    handleMessage: (c) => c.handleMessage("E", new Uint8Array(0), 1),
    handleEnvelope: (c) => c.handleEnvelope("E", {}, 1),
    handleReadResult: (c) => c.handleReadResult({ readId: 1, status: "done", bytesRead: 0 }, 1),
    handlePeerUnreachable: (c) => c.handlePeerUnreachable("E", 1),
    poll: (c) => c.poll(1),
  };
}

/** Every state-changing ProducerCore method, each as one call. */
const PRODUCER_CALLS: Record<string, (p: ProducerCore) => unknown> = {
  poll: (p) => p.poll(1),
  handleMessage: (p) => p.handleMessage("PD", new Uint8Array(0), 1),
  handleEnvelope: (p) => p.handleEnvelope("PD", {}, 1),
  handlePeerUnreachable: (p) => p.handlePeerUnreachable("PD", 1),
  shutdown: (p) => p.shutdown(1),
};

/** Runs `call` and returns the code of what it threw (or "no error"), for a hook to record. */
function codeOf(call: () => unknown): string {
  try {
    call();
  } catch (e) {
    return e instanceof EctpError ? e.code : String(e);
  }
  return "no error";
}

describe("hooks calling back into their own core (the cores are not re-entrant)", () => {
  const badItem = { itemId: "img", announcement: { item: {} }, hasModelInput: false }; // fails the request [C6]

  it("consumer: a logger that finishes the failing request from its warning gets REENTRANT_CALL; the failure is still reported once", () => {
    const seen: string[] = [];
    let c: ConsumerCore | undefined;
    c = consumer({ logger: { ...NOOP_LOGGER, warn: (_m: string, f: { requestId: string }) => seen.push(codeOf(() => c?.finishRequest(f.requestId, 1))) } });
    expect(c.admit({ requestId: "r1", items: [badItem] }, 1)).toMatchObject({ status: "failed" });
    expect(seen).toEqual(["REENTRANT_CALL"]);
    expect(c.drainFailed().map((f) => f.requestId)).toEqual(["r1"]);
    // After the call returned, the same call is accepted.
    expect(() => c?.finishRequest("r1", 2)).not.toThrow();
    expect(c.stats()).toMatchObject({ requests: 0, hookFailures: 0 });
  });

  it("consumer: every state-changing method refuses a call from a metrics hook, uncaught it counts as a hook failure; reads are allowed", () => {
    const calls = consumerCalls("r1");
    for (const [name, call] of Object.entries(calls)) {
      const codes: string[] = [];
      // What the reads gave inside the hook, checked after the call: an expect failing inside a
      // hook would be contained and counted as one more hook failure, like the call below.
      const reads: unknown[] = [];
      let c: ConsumerCore | undefined;
      const onCounter = () => {
        const core = c as ConsumerCore;
        codes.push(codeOf(() => call(core)));
        const requests = core.stats().requests;
        core.nextDeadline();
        reads.push(requests); // reached only when both reads went through
        call(core); // uncaught: contained and counted
      };
      c = consumer({ metrics: { ...NOOP_METRICS, counter: onCounter } });
      c.admit({ requestId: "r1", items: [badItem] }, 1); // two counters: requests failed, item failures
      expect(codes, name).toEqual(["REENTRANT_CALL", "REENTRANT_CALL"]);
      expect(reads, name).toEqual([1, 1]);
      expect(c.stats().hookFailures, name).toBe(2);
    }
  });

  it("consumer: a hook that reacts to every counter by calling back no longer recurses; the message it is in is handled once", () => {
    let c: ConsumerCore | undefined;
    let counters = 0;
    const storm = () => {
      counters++;
      c?.handlePeerUnreachable("E", 1); // what once recursed until the stack overflowed
    };
    c = consumer({ metrics: { ...NOOP_METRICS, counter: storm } });
    c.handleEnvelope("E", {}, 1); // malformed: one ignored-message counter
    expect(counters).toBe(1);
    expect(c.stats()).toMatchObject({ ignoredMessages: 1, hookFailures: 1 });
    expect(c.poll(1)).toEqual([]);
  });

  it("producer: poll, handleMessage, handleEnvelope, handlePeerUnreachable and shutdown refuse a call from a hook; announce and stats are reads", () => {
    const calls = PRODUCER_CALLS;
    for (const [name, call] of Object.entries(calls)) {
      const codes: string[] = [];
      const reads: unknown[] = []; // checked after the call (an expect failing inside a hook is contained)
      let p: ProducerCore | undefined;
      const onCounter = () => {
        const core = p as ProducerCore;
        codes.push(codeOf(() => call(core)));
        reads.push(core.announce("absent"), core.stats().grants);
      };
      p = producer({ metrics: { ...NOOP_METRICS, counter: onCounter } });
      p.handleEnvelope("PD", {}, 1); // malformed: one ignored-message counter
      expect(codes, name).toEqual(["REENTRANT_CALL"]);
      expect(reads, name).toEqual([undefined, 0]);
      expect(p.stats().hookFailures, name).toBe(0);
      expect(p.stats().ignoredMessages, name).toBe(1);
      expect(p.shutdown(2), name).toBeUndefined(); // not shut down from inside the hook
    }
  });

  it("a read made by a hook records nothing meanwhile: a logger calling stats() whose store fails logs once, no recursion", () => {
    const store = new MemoryItemStore({ capacityBytes: 100 });
    store.totalPins = () => {
      throw new Error("store down");
    };
    const errors: string[] = [];
    let p: ProducerCore | undefined;
    const error = (message: string) => {
      errors.push(message);
      expect(p?.stats().pins).toBe(-1); // the read works; its own error record is dropped
    };
    p = new ProducerCore({ id: "E", epoch: 1, fingerprint: FP, store, logger: { ...NOOP_LOGGER, error } });
    expect(p.stats().pins).toBe(-1);
    expect(errors).toHaveLength(1); // it was about 1,700 nested records, then a RangeError
    expect(p.stats().hookFailures).toBe(0);
  });

  it("a read made by a metrics hook records nothing meanwhile: announcing an item of another producer from a counter hook takes no sample", () => {
    const store = new MemoryItemStore({ capacityBytes: 100 });
    // Stored under another producer id: its first look-up counts it unpublishable. Not ready, so the
    // producer does not look it up when it starts (it publishes only the ready items it finds).
    const foreign = { ...desc(1), producerId: "other" };
    const put = store.put(foreign);
    if (!put.ok) throw put.error;
    const samples: string[] = [];
    let p: ProducerCore | undefined;
    const counter = (name: string) => {
      samples.push(name);
      expect(p?.announce(kid(1))).toBeUndefined(); // a read, from inside the hook
    };
    p = new ProducerCore({ id: "E", epoch: 7, fingerprint: FP, store, metrics: { ...NOOP_METRICS, counter } });
    p.handleEnvelope("PD", {}, 1); // malformed: one ignored-message counter
    expect(samples).toEqual(["ectp_producer_ignored_messages_total"]);
    expect(p.stats().hookFailures).toBe(0);
  });

  it("subscriber: a logger that polls or unfollows from inside a call gets REENTRANT_CALL; another core's methods are not refused", () => {
    const codes: string[] = [];
    const other = subscriber({});
    let sub: EventSubscriber | undefined;
    const warn = () => {
      const s = sub as EventSubscriber;
      codes.push(codeOf(() => s.poll(1)), codeOf(() => s.unfollow(P)), codeOf(() => other.follow(P, 1)));
    };
    sub = subscriber({ logger: { ...NOOP_LOGGER, warn } });
    sub.follow(P, 0);
    sub.handleEnvelope(P, env(7, { handshakeReject: { reason: ectp.v1.FailureReason.FAILURE_REASON_INCOMPATIBLE } }), 1);
    expect(codes).toEqual(["REENTRANT_CALL", "REENTRANT_CALL", "no error"]);
    expect(sub.isFollowing(P)).toBe(true);
    expect(other.isFollowing(P)).toBe(true);
  });
});

describe("engine callbacks are not a way back in", () => {
  // Like a hook, the destination pool and the item store run in the middle of a core's call.
  it("consumer: a destination pool that calls back into the core (finishRequest from allocate) gets REENTRANT_CALL; the core's tables stay whole", () => {
    const h = makeConsumer(QUIET);
    const codes: string[] = [];
    const allocate = h.pool.allocate.bind(h.pool);
    h.pool.allocate = (keyId, size) => {
      codes.push(codeOf(() => h.core.finishRequest("r", 1)));
      return allocate(keyId, size);
    };
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1);
    expect(codes).toEqual(["REENTRANT_CALL"]);
    expect(h.core.stats()).toMatchObject({ requests: 1, fetches: 1, readsInFlight: 1, destinations: 1 });
  });

  it("producer: an item store that calls back into the core (poll from pin) gets REENTRANT_CALL; the grant is made once", () => {
    const h = harness();
    ready(h.store, 1);
    const codes: string[] = [];
    const pin = h.store.pin.bind(h.store);
    h.store.pin = (keyId) => {
      codes.push(codeOf(() => h.producer.poll(1)));
      pin(keyId);
    };
    expect(request(h, "PD", 1, 1, 1).readGrant).toBeDefined();
    expect(codes).toEqual(["REENTRANT_CALL"]);
    expect(h.producer.stats()).toMatchObject({ grants: 1, pins: 1 });
  });

  it("the REENTRANT_CALL message names the engine code that core runs: the consumer's pool, the producer's store, the subscriber's hooks only", () => {
    const messages: string[] = [];
    const messageOf = (call: () => unknown) => {
      try {
        call();
      } catch (e) {
        messages.push((e as Error).message);
      }
    };
    const c = makeConsumer(QUIET);
    const allocate = c.pool.allocate.bind(c.pool);
    c.pool.allocate = (keyId, size) => {
      messageOf(() => c.core.finishRequest("r", 1));
      return allocate(keyId, size);
    };
    c.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    grant(c, onlyAttempt(c.core.poll(0)), 7, "h1", 1);
    const p = harness();
    ready(p.store, 1);
    const pin = p.store.pin.bind(p.store);
    p.store.pin = (keyId) => {
      messageOf(() => p.producer.poll(1));
      pin(keyId);
    };
    request(p, "PD", 1, 1, 1);
    let sub: EventSubscriber | undefined;
    sub = subscriber({ logger: { ...NOOP_LOGGER, warn: () => messageOf(() => (sub as EventSubscriber).poll(1)) } });
    sub.follow(P, 0);
    sub.handleEnvelope(P, env(7, { handshakeReject: { reason: ectp.v1.FailureReason.FAILURE_REASON_INCOMPATIBLE } }), 1);
    expect(messages.map((m) => /\(([^)]*)\); a core is not re-entrant/.exec(m)?.[1])).toEqual([
      "its metrics or logger hook, or its destination pool",
      "its metrics or logger hook, or its item store",
      "its metrics or logger hook",
    ]);
  });

  /** `f`, calling `probe(callback)` first. */
  const probed =
    <A extends unknown[], R>(probe: (callback: string) => void, callback: string, f: (...args: A) => R) =>
    (...args: A): R => {
      probe(callback);
      return f(...args);
    };

  it("consumer: every state-changing method refuses a call from each pool callback (allocate, view, release); the item still loads and is released once", () => {
    const h = makeConsumer(QUIET);
    const codes: Record<string, string[]> = { allocate: [], view: [], release: [] };
    const probe = (callback: string) => {
      for (const call of Object.values(consumerCalls("r"))) codes[callback]?.push(codeOf(() => call(h.core)));
    };
    h.pool.allocate = probed(probe, "allocate", h.pool.allocate.bind(h.pool));
    h.pool.view = probed(probe, "view", h.pool.view.bind(h.pool));
    h.pool.release = probed(probe, "release", h.pool.release.bind(h.pool));
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { checksum: true })] }, 0);
    const [start] = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1));
    if (start === undefined) throw new Error("no read started");
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: start.destination.length }, 2); // no CRC-32C: the core views the bytes
    expect(h.core.stats()).toMatchObject({ loadedItems: 1, undrainedFailures: 0 });
    h.core.finishRequest("r", 3);
    const refused = Object.keys(consumerCalls("r")).map(() => "REENTRANT_CALL");
    expect(codes).toEqual({ allocate: refused, view: refused, release: refused });
    h.core.poll(4);
    expectIdle(h);
  });

  it("consumer: a pool whose view throws leaves the core callable (the checksum counts as a mismatch)", () => {
    const h = makeConsumer(QUIET);
    h.pool.view = () => {
      throw new Error("region unmapped");
    };
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { checksum: true })] }, 0);
    const [start] = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1));
    if (start === undefined) throw new Error("no read started");
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: start.destination.length }, 2);
    expect(h.core.drainFailed().map((f) => f.failures[0]?.reason)).toEqual(["CHECKSUM_MISMATCH"]);
    h.core.finishRequest("r", 3);
    h.core.poll(4);
    expectIdle(h);
  });

  it("consumer: a pool whose release throws, whatever it throws, is logged; every destination of the finished request is still given back once", () => {
    // A null-prototype object cannot even be turned into a string for the log.
    for (const thrown of [new Error("region busy"), Object.create(null)]) {
      const h = makeConsumer(QUIET);
      const release = h.pool.release.bind(h.pool);
      h.pool.release = (d) => {
        release(d);
        throw thrown;
      };
      h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 0);
      const attempts = sent(h.core.poll(0), "readRequest").map((o) => Number(o.envelope.readRequest?.attemptId));
      attempts.forEach((attempt, i) => {
        const hash = i === 0 ? "h1" : "h2";
        const [start] = starts(grant(h, attempt, 7 + i, hash, 1));
        if (start === undefined) throw new Error("no read started");
        fill(start, hash);
        h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: start.destination.length }, 2);
      });
      expect(h.core.stats()).toMatchObject({ loadedItems: 2, destinations: 2 });
      expect(() => h.core.finishRequest("r", 3)).not.toThrow();
      expect(h.logger.at("error").map((r) => r.message)).toEqual(["DestinationPool.release threw", "DestinationPool.release threw"]);
      expect(h.pool.released).toHaveLength(2);
      h.core.poll(4);
      expectIdle(h);
    }
  });

  it("producer: every state-changing method refuses a call from each store callback (get, pin, unpin, readyItems)", () => {
    const h = harness();
    ready(h.store, 1);
    const calls = PRODUCER_CALLS;
    const codes: Record<string, string[]> = { get: [], pin: [], unpin: [], readyItems: [] };
    const probe = (callback: string) => {
      for (const call of Object.values(calls)) codes[callback]?.push(codeOf(() => call(h.producer)));
    };
    const store = h.store;
    store.get = probed(probe, "get", store.get.bind(store));
    store.pin = probed(probe, "pin", store.pin.bind(store));
    store.unpin = probed(probe, "unpin", store.unpin.bind(store));
    store.unpinEntry = probed(probe, "unpin", store.unpinEntry.bind(store));
    store.readyItems = probed(probe, "readyItems", store.readyItems.bind(store));
    const grantId = Number(request(h, "PD", 1, 1, 1).readGrant?.grantId);
    ack(h, "PD", grantId, 2);
    h.producer.handleMessage("s", wire("s", 1, { snapshotRequest: {} }), 3);
    expect(h.producer.poll(3).some((o) => o.type === "send" && o.envelope.snapshot)).toBe(true);
    const refused = Object.keys(calls).map(() => "REENTRANT_CALL");
    expect(codes).toEqual({ get: refused, pin: refused, unpin: refused, readyItems: refused });
    expect(h.producer.stats()).toMatchObject({ grants: 0, pins: 0, shuttingDown: false });
  });

  it("producer: the store's get under announce(), totalPins under stats() and its unsubscribe under shutdown() refuse calls back too; shutdown's caller still gets the pending Stored event", () => {
    const store = new MemoryItemStore({ capacityBytes: 1000 });
    const codes: Record<string, string[]> = { get: [], totalPins: [], unsubscribe: [] };
    let p: ProducerCore | undefined;
    const probe = (callback: string) => {
      for (const call of Object.values(PRODUCER_CALLS)) codes[callback]?.push(codeOf(() => call(p as ProducerCore)));
    };
    const subscribe = store.subscribe.bind(store);
    store.subscribe = (listener) => probed(probe, "unsubscribe", subscribe(listener));
    p = new ProducerCore({ ...PRODUCER, fingerprint: FP, store });
    ready(store, 1);
    store.get = probed(probe, "get", store.get.bind(store));
    store.totalPins = probed(probe, "totalPins", store.totalPins.bind(store));
    expect(p.announce(kid(1))).toBeDefined();
    expect(p.stats().pins).toBe(0);
    p.shutdown(2);
    const refused = Object.keys(PRODUCER_CALLS).map(() => "REENTRANT_CALL");
    expect(codes).toEqual({ get: refused, totalPins: refused, unsubscribe: refused });
    const batches = p.poll(2).flatMap((o) => (o.type === "event-batch" ? [o.batch] : []));
    expect(batches.flatMap((b) => (b.events ?? []).map((e) => (e.stored ? "stored" : e.cleared ? "cleared" : "other")))).toEqual(["stored", "cleared"]);
  });

  it("producer: a store whose pin throws leaves the core callable; the next request is granted", () => {
    const h = harness();
    ready(h.store, 1);
    const pin = h.store.pin.bind(h.store);
    h.store.pin = () => {
      throw new Error("pin table full");
    };
    expect(request(h, "PD", 1, 1, 1).readReject?.reason).toBe(ectp.v1.FailureReason.FAILURE_REASON_INTERNAL);
    h.store.pin = pin;
    expect(request(h, "PD", 2, 1, 2).readGrant).toBeDefined();
    expect(h.producer.stats()).toMatchObject({ grants: 1, pins: 1 });
  });
});

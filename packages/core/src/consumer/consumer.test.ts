import { EctpError, crc32c, ectp, encodeEnvelope } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { CoreOutput, StartReadOutput } from "../outputs.js";
import type { ReadResult } from "../transport.js";
import { ConsumerCore } from "./consumer.js";
import {
  FP,
  P,
  QUIET,
  TestPool,
  acks,
  announce,
  decision,
  descriptor,
  env,
  expectIdle,
  fill,
  grant,
  itemBytes,
  makeConsumer,
  onlyAttempt,
  remote,
  sent,
  starts,
} from "./test-support.js";
import type { AdmitItem } from "./types.js";

const OK = ectp.v1.CompletionStatus.COMPLETION_STATUS_OK;
const FAILED = ectp.v1.CompletionStatus.COMPLETION_STATUS_FAILED;
const ABANDONED = ectp.v1.CompletionStatus.COMPLETION_STATUS_ABANDONED;
const R = ectp.v1.FailureReason;

type H = ReturnType<typeof makeConsumer>;

function makeQuiet(config: Parameters<typeof makeConsumer>[0] = {}): H {
  return makeConsumer({ ...QUIET, ...config });
}

function reject(h: H, attemptId: number, reason: number, now: number, extra: Partial<ectp.v1.IReadReject> = {}) {
  h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId, reason, ...extra } }), now);
  return h.core.poll(now);
}

/** Admit one remote item, grant it, read it: returns the destination's start output. */
function loadOne(h: H, requestId: string, hash: string, now: number, o: { checksum?: boolean } = {}) {
  const first = h.core.admit({ requestId, items: [remote("i", hash, false, o)] }, now);
  expect(first.status).toBe("admitted");
  const attempt = onlyAttempt(h.core.poll(now));
  const out = grant(h, attempt, 100 + attempt, hash, now + 1, o);
  const start = starts(out)[0];
  if (!start) throw new Error("no start-read");
  fill(start, hash);
  h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: start.destination.length }, now + 2);
  return { start, attempt, out: h.core.poll(now + 2) };
}

describe("[C1] admission classifies every item", () => {
  it("[C1] results and decisions carry exactly the documented fields, in order (plain data to the engine)", () => {
    const h = makeConsumer();
    const deferred = h.core.admit({ requestId: "r", items: [remote("i", "h1")] }, 0);
    expect(Object.keys(deferred)).toEqual(["status", "items"]);
    expect(Object.keys(decision(deferred) as object)).toEqual(["action", "itemId"]);
    expect(JSON.parse(JSON.stringify(deferred))).toEqual({ status: "admitted", items: [{ action: "defer", itemId: "i" }] });
    const { start } = loadOne(h, "r", "h1", 0);
    const ready = decision(h.core.admit({ requestId: "r", items: [remote("i", "h1")] }, 3));
    expect(Object.keys(ready as object)).toEqual(["action", "itemId", "destination"]);
    expect(ready).toEqual({ action: "ready", itemId: "i", destination: start.destination });
    h.core.finishRequest("r", 4);
    h.core.poll(4);
    expectIdle(h);
  });

  it("[C1] local items are ready without a destination and start nothing", () => {
    const h = makeConsumer();
    const r = h.core.admit({ requestId: "r", items: [{ itemId: "a", hasModelInput: false, local: true }] }, 0);
    expect(decision(r)).toEqual({ action: "ready", itemId: "a" });
    expect(h.core.poll(0)).toEqual([]);
  });

  it("[C1] no announcement with model input is local-encode without a reason", () => {
    const h = makeConsumer();
    const r = h.core.admit({ requestId: "r", items: [{ itemId: "a", hasModelInput: true }] }, 0);
    expect(decision(r)).toEqual({ action: "local-encode", itemId: "a" });
  });

  it("[C1] no announcement and no model input fails the request UNAVAILABLE", () => {
    const h = makeConsumer();
    const r = h.core.admit({ requestId: "r", items: [{ itemId: "a", hasModelInput: false, announcement: null }] }, 0);
    expect(r).toEqual({ status: "failed", failures: [{ itemId: "a", reason: "UNAVAILABLE", attempts: 0 }] });
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "UNAVAILABLE", attempts: 0 }] }]);
  });

  it("[C1] a valid announcement defers and sends connect-peer, Hello and a ReadRequest", () => {
    const h = makeConsumer();
    const r = h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { metadata: new Uint8Array([7]) })] }, 0);
    expect(decision(r)).toEqual({ action: "defer", itemId: "a" });
    const out = h.core.poll(0);
    expect(out.map((o) => (o.type === "send" ? Object.keys(o.envelope).find((k) => k !== "version" && !k.startsWith("sender")) : o.type))).toEqual([
      "connect-peer",
      "hello",
      "readRequest",
    ]);
    expect(out[0]).toEqual({ type: "connect-peer", peerId: P, epoch: 1, metadata: new Uint8Array([7]) });
    const hello = sent(out, "hello")[0]?.envelope;
    expect(hello?.hello?.role).toBe(ectp.v1.Role.ROLE_CONSUMER);
    expect(hello?.hello?.capabilities).toEqual([]);
    expect(hello?.hello?.fingerprint).toEqual(FP);
    expect(hello?.hello?.transportMetadata).toEqual(new Uint8Array([9]));
    expect(hello?.senderId).toBe("pd-1");
    const rr = sent(out, "readRequest")[0]?.envelope.readRequest;
    expect(rr?.expectedEpoch).toBe(1);
    expect(rr?.expectedSizeBytes).toBe(16);
    expect(Number(rr?.attemptId)).toBeGreaterThan(0);
    // Encodable as-is by the driver.
    for (const o of out) if (o.type === "send") expect(encodeEnvelope(o.envelope).length).toBeGreaterThan(0);
  });

  it("[C1] an item already loaded is ready with its destination; the request becomes a holder", () => {
    const h = makeConsumer();
    const { start } = loadOne(h, "r1", "h1", 0);
    const r2 = h.core.admit({ requestId: "r2", items: [remote("x", "h1")] }, 10);
    expect(decision(r2)).toEqual({ action: "ready", itemId: "x", destination: start.destination });
    expect(h.core.poll(10)).toEqual([]);
    h.core.finishRequest("r1", 11);
    expect(h.pool.live.size).toBe(1); // r2 still holds it
    h.core.finishRequest("r2", 12);
    expectIdle(h);
  });

  it("[C1] decisions are sticky: re-admitting returns the same decision", () => {
    const h = makeConsumer();
    const items = [remote("a", "h1", true), { itemId: "b", hasModelInput: true }];
    h.core.admit({ requestId: "r", items }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    reject(h, attempt, R.FAILURE_REASON_NOT_FOUND, 1);
    const again = h.core.admit({ requestId: "r", items }, 2);
    expect(again).toEqual({
      status: "admitted",
      items: [
        { action: "local-encode", itemId: "a", reason: "NOT_FOUND" },
        { action: "local-encode", itemId: "b" },
      ],
    });
    expect(h.core.poll(3)).toEqual([]);
  });

  it("[C1] a local-encode decision is not revisited when a later presentation drops the model input (SPEC.md 3.4): the engine may be encoding it", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1", true), { itemId: "b", hasModelInput: true }] }, 0);
    reject(h, onlyAttempt(h.core.poll(0)), R.FAILURE_REASON_NOT_FOUND, 1);
    const dropped = [remote("a", "h1", false), { itemId: "b", hasModelInput: false }];
    expect(h.core.admit({ requestId: "r", items: dropped }, 2)).toEqual({
      status: "admitted",
      items: [
        { action: "local-encode", itemId: "a", reason: "NOT_FOUND" },
        { action: "local-encode", itemId: "b" },
      ],
    });
    expect(h.core.drainFailed()).toEqual([]);
  });

  it("[C1] an item sent to local encode and presented as local is ready (already local is checked on every admission)", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 0);
    reject(h, onlyAttempt(h.core.poll(0)), R.FAILURE_REASON_NOT_FOUND, 1);
    expect(h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 2)).toEqual({
      status: "admitted",
      items: [{ action: "local-encode", itemId: "a", reason: "NOT_FOUND" }],
    });
    const encoded = { itemId: "a", hasModelInput: true, local: true };
    expect(h.core.admit({ requestId: "r", items: [encoded] }, 3)).toEqual({ status: "admitted", items: [{ action: "ready", itemId: "a" }] });
    // Ready from then on, as any decision is sticky; nothing is sent for it.
    expect(h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 4)).toEqual({ status: "admitted", items: [{ action: "ready", itemId: "a" }] });
    expect(h.core.poll(5)).toEqual([]);
    h.core.finishRequest("r", 6);
    expectIdle(h);
  });

  it("[C1] re-admission returns the previous result while nothing changed, a fresh one after a change, in the caller's item order", () => {
    const h = makeConsumer();
    const a = remote("a", "h1");
    const b = { itemId: "b", hasModelInput: true };
    const first = h.core.admit({ requestId: "r", items: [a, b] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    const second = h.core.admit({ requestId: "r", items: [a, b] }, 1);
    expect(second).toBe(first); // nothing changed: no allocation
    // Another order of the same items: decisions follow the caller's order, and that result is not kept.
    const swapped = h.core.admit({ requestId: "r", items: [b, a] }, 1);
    expect(swapped).toEqual({ status: "admitted", items: [{ action: "local-encode", itemId: "b" }, { action: "defer", itemId: "a" }] });
    expect(h.core.admit({ requestId: "r", items: [a, b] }, 1)).toEqual(first);
    const [start] = starts(grant(h, attempt, 7, "h1", 2));
    if (start === undefined) throw new Error("no read started");
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: start.destination.length }, 3);
    const ready = h.core.admit({ requestId: "r", items: [a, b] }, 3);
    expect(ready).not.toBe(first);
    expect(ready).toEqual({
      status: "admitted",
      items: [
        { action: "ready", itemId: "a", destination: start.destination },
        { action: "local-encode", itemId: "b" },
      ],
    });
    expect(first).toEqual({ status: "admitted", items: [{ action: "defer", itemId: "a" }, { action: "local-encode", itemId: "b" }] });
    expect(h.core.admit({ requestId: "r", items: [a, b] }, 4)).toBe(ready);
  });

  it("[C1] programming errors throw EctpError(INVALID_ARGUMENT)", () => {
    const h = makeConsumer();
    expect(() => h.core.admit({ requestId: "", items: [] }, 0)).toThrow(
      "[INVALID_ARGUMENT] admit: requestId must be a non-empty string (the engine's request id).",
    );
    expect(() => h.core.admit({ requestId: "r", items: "x" as unknown as AdmitItem[] }, 0)).toThrow(
      "[INVALID_ARGUMENT] admit(r): items must be an array of AdmitItem.",
    );
    const dup = () =>
      h.core.admit({ requestId: "r", items: [{ itemId: "a", hasModelInput: true }, { itemId: "a", hasModelInput: true }] }, 0);
    expect(dup).toThrow('[INVALID_ARGUMENT] admit(r): duplicate itemId "a"; item ids must be unique per request.');
    try {
      dup();
    } catch (e) {
      expect(EctpError.is(e) && e.code).toBe("INVALID_ARGUMENT");
    }
  });

  it("[C7] finishRequest with an id that is not a non-empty string throws EctpError(INVALID_ARGUMENT) and releases nothing; an unknown id is ignored", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "42", items: [{ itemId: "a", hasModelInput: false, local: true }] }, 0);
    expect(() => h.core.finishRequest(42 as unknown as string, 1)).toThrow(
      "[INVALID_ARGUMENT] finishRequest: requestId must be the non-empty string id the request was admitted with; got 42.",
    );
    expect(() => h.core.finishRequest(undefined as unknown as string, 1)).toThrow(/got nothing\./);
    expect(() => h.core.finishRequest("", 1)).toThrow(/got ""\./);
    expect(h.core.stats().requests).toBe(1);
    h.core.finishRequest("never-admitted", 1);
    h.core.finishRequest("42", 1);
    expect(h.core.stats().requests).toBe(0);
  });

  it("[C1][C5] hasModelInput and local are booleans when given, never coerced; the refused request leaves nothing behind", () => {
    const h = makeConsumer();
    const item = (o: object) => ({ itemId: "a", announcement: announce("h1"), ...o }) as AdmitItem;
    // 1 read as false would fail the request UNAVAILABLE-style where the engine meant to encode locally.
    expect(() => h.core.admit({ requestId: "r", items: [item({ hasModelInput: 1 })] }, 0)).toThrow(
      "[INVALID_ARGUMENT] admit(r): items[0] (a): hasModelInput and local must be booleans when given; got hasModelInput 1, local nothing.",
    );
    expect(() => h.core.admit({ requestId: "r", items: [item({ hasModelInput: false, local: "true" })] }, 0)).toThrow(
      'got hasModelInput false, local "true".',
    );
    expect(() => h.core.admit({ requestId: "r", items: [item({ hasModelInput: null })] }, 0)).toThrow("got hasModelInput null");
    expect(() => h.core.admit({ requestId: "r", items: [item({ hasModelInput: {} })] }, 0)).toThrow("got hasModelInput an object");
    expect(h.core.stats()).toMatchObject({ requests: 0, fetches: 0, budgets: 0 });
    expect(h.core.poll(0)).toEqual([]);
    // A function is named by kind (not by its source text), a long string cut at 40 characters.
    expect(() => h.core.admit({ requestId: "r", items: [item({ local: () => true })] }, 0)).toThrow("got hasModelInput nothing, local a function.");
    expect(() => h.core.admit({ requestId: "r", items: [item({ hasModelInput: "x".repeat(100) })] }, 0)).toThrow(
      `got hasModelInput "${"x".repeat(40)}...", local nothing.`,
    );
    // Absent reads as false (a remote item without model input defers on its fetch).
    expect(h.core.admit({ requestId: "r", items: [item({})] }, 0)).toEqual({ status: "admitted", items: [{ action: "defer", itemId: "a" }] });
  });

  it("[C1] a request that is not an object, or an item that is not an object with a string itemId, is INVALID_ARGUMENT saying so; nothing is left behind", () => {
    const h = makeConsumer();
    for (const request of [null, "r"])
      expect(() => h.core.admit(request as never, 0)).toThrow("[INVALID_ARGUMENT] admit needs a request object { requestId, items }.");
    for (const item of [null, "a", {}, { itemId: 7 }])
      expect(() => h.core.admit({ requestId: "r", items: [remote("a", "h1"), item as unknown as AdmitItem] }, 0)).toThrow(
        "[INVALID_ARGUMENT] admit(r): items[1] must be an object with a string itemId.",
      );
    expect(h.core.poll(0)).toEqual([]); // no fetch started for item "a"
    expectIdle(h);
  });

  it("[C1] a re-admission naming an item the first admission did not is INVALID_ARGUMENT at the call (SPEC.md 3.4: a request's items are the same on every presentation); nothing changes", () => {
    for (const first of [["a"], ["a", "b"]]) {
      const h = makeQuiet();
      const hashes: Record<string, string> = { a: "h1", b: "h2", c: "h3", d: "h4" };
      const items = (ids: string[]) => ids.map((id) => remote(id, hashes[id] as string));
      const deferred = (ids: string[]) => ({ status: "admitted", items: ids.map((itemId) => ({ action: "defer", itemId })) });
      h.core.admit({ requestId: "r", items: items(first) }, 0);
      h.core.poll(0);
      expect(() => h.core.admit({ requestId: "r", items: items(["a", "b", "c", "d"]) }, 1), first.join()).toThrow(
        `[INVALID_ARGUMENT] admit(r): items[${first.length}] ("${first.length === 1 ? "b" : "c"}") was not in the request's first admission`,
      );
      expect(h.core.poll(1), first.join()).toEqual([]); // no fetch started for the added items
      expect(h.core.stats()).toMatchObject({ requests: 1, fetches: first.length, budgets: first.length });
      // The request goes on with its own items (a later admission may still leave some out).
      expect(h.core.admit({ requestId: "r", items: items(first) }, 2), first.join()).toEqual(deferred(first));
      expect(h.core.admit({ requestId: "r", items: items(["a"]) }, 2), first.join()).toEqual(deferred(["a"]));
      h.core.finishRequest("r", 3);
      h.core.poll(3);
      expectIdle(h);
    }
  });
});

describe("[I1] the engine's own objects and hooks cannot break the core", () => {
  it("[I1] an item or request whose fields throw when read is INVALID_ARGUMENT at the call, and leaves nothing behind", () => {
    const h = makeConsumer();
    const boom = (): never => {
      throw new Error("getter broke");
    };
    const badItem = { itemId: "b", announcement: announce("h2") } as AdmitItem;
    Object.defineProperty(badItem, "hasModelInput", { get: boom });
    const items = [remote("a", "h1"), badItem];
    expect(() => h.core.admit({ requestId: "r", items }, 0)).toThrow(
      "[INVALID_ARGUMENT] admit(r): items[1] could not be read (Error: getter broke).",
    );
    const badRequest = { items } as unknown as { requestId: string; items: AdmitItem[] };
    Object.defineProperty(badRequest, "requestId", { get: boom });
    expect(() => h.core.admit(badRequest, 0)).toThrow("[INVALID_ARGUMENT] admit: the request's requestId or items could not be read");
    expect(h.core.poll(0)).toEqual([]); // no fetch started for item "a"
    expectIdle(h);
  });

  it("[I1] an items array whose length throws when read (a Proxy) is INVALID_ARGUMENT at the call, not the engine's own error", () => {
    const h = makeConsumer();
    const items = new Proxy([remote("a", "h1")], {
      get: (target, key) => {
        if (key === "length") throw new Error("length trap");
        return Reflect.get(target, key);
      },
    });
    expect(() => h.core.admit({ requestId: "r", items }, 0)).toThrow("[INVALID_ARGUMENT] admit(r): items.length could not be read (Error: length trap).");
    expectIdle(h);
  });

  it("[I1] a getter throwing a value that cannot be turned into a string is INVALID_ARGUMENT all the same, not a TypeError", () => {
    const h = makeConsumer();
    const badItem = { itemId: "b", announcement: announce("h2") } as AdmitItem;
    Object.defineProperty(badItem, "local", {
      get: () => {
        throw Object.create(null);
      },
    });
    expect(() => h.core.admit({ requestId: "r", items: [badItem] }, 0)).toThrow(
      "[INVALID_ARGUMENT] admit(r): items[0] could not be read (a thrown object that cannot be turned into a string).",
    );
    const badRequest = { items: [] } as unknown as { requestId: string; items: AdmitItem[] };
    Object.defineProperty(badRequest, "items", {
      get: () => {
        throw Object.create(null);
      },
    });
    expect(() => h.core.admit(badRequest, 0)).toThrow(
      "[INVALID_ARGUMENT] admit: the request's requestId or items could not be read (a thrown object that cannot be turned into a string).",
    );
    expectIdle(h);
  });

  it("[I1] each item's fields are read once: a getter answering differently on a second read cannot change the decision", () => {
    const h = makeConsumer();
    let reads = 0;
    const shifty = { announcement: announce("h1") } as AdmitItem;
    Object.defineProperty(shifty, "itemId", { get: () => (reads++ === 0 ? "a" : `other-${reads}`) });
    Object.defineProperty(shifty, "hasModelInput", { get: () => reads > 1 });
    const r = h.core.admit({ requestId: "r", items: [shifty] }, 0);
    expect(r).toEqual({ status: "admitted", items: [{ action: "defer", itemId: "a" }] });
    expect(reads).toBe(1);
    h.core.finishRequest("r", 1);
    h.core.poll(1);
    expectIdle(h);
  });

  it("[I1][C10] an envelope or a read result whose fields throw when read is ignored and counted (internal_error), never thrown, whatever the getter throws", () => {
    // A null-prototype object cannot even be turned into a string for the log.
    for (const thrown of [new Error("hostile getter"), Object.create(null)]) {
      const h = makeQuiet();
      const hostile = {
        get: () => {
          throw thrown;
        },
      };
      const envelope = Object.defineProperty(env(P, 1, {}), "readGrant", hostile);
      expect(() => h.core.handleEnvelope(P, envelope, 1)).not.toThrow();
      const result = Object.defineProperty({ status: "done" }, "readId", hostile) as unknown as ReadResult;
      expect(() => h.core.handleReadResult(result, 1)).not.toThrow();
      expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "internal_error"])).toBe(2);
      expect(h.logger.at("error").map((r) => r.message)).toEqual([
        "consumer failed to handle an envelope; ignored",
        "consumer failed to handle a read result; ignored",
      ]);
      expect(h.core.poll(1)).toEqual([]);
      expectIdle(h);
    }
  });

  it("[I1] metrics and logger hooks that throw are contained and counted: the core decides exactly as with working hooks", () => {
    const throwing = {
      counter: () => {
        throw new Error("exporter down");
      },
      gauge: () => {
        throw new Error("exporter down");
      },
      histogram: () => {
        throw new Error("exporter down");
      },
    };
    const broken = new ConsumerCore({
      id: "pd-1",
      epoch: 1,
      fingerprint: FP,
      destinations: new TestPool(),
      transportMetadata: new Uint8Array([9]),
      config: QUIET,
      metrics: throwing,
      logger: { debug: throwing.counter, info: throwing.counter, warn: throwing.counter, error: throwing.counter },
    });
    const working = makeQuiet();
    const script = (core: ConsumerCore) => {
      const seen: unknown[] = [];
      // A retry (NOT_READY), a terminal failure (no model input) and a local fallback: every hook is called.
      seen.push(core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0));
      const attempt = onlyAttempt(core.poll(0));
      core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: attempt, reason: R.FAILURE_REASON_NOT_READY, retryable: true } }), 1);
      seen.push(core.poll(1));
      seen.push(core.admit({ requestId: "r2", items: [{ itemId: "x", hasModelInput: false }] }, 2));
      seen.push(core.admit({ requestId: "r3", items: [{ itemId: "y", announcement: { item: {} }, hasModelInput: true }] }, 2));
      seen.push(core.poll(10_000), core.drainFailed());
      for (const id of ["r1", "r2", "r3"]) core.finishRequest(id, 10_001);
      seen.push(core.poll(10_001));
      return seen;
    };
    expect(script(broken)).toEqual(script(working.core));
    expect(working.metrics.counters.length).toBeGreaterThan(0);
    expect(broken.stats().hookFailures).toBeGreaterThan(working.metrics.counters.length);
    expect({ ...broken.stats(), hookFailures: 0 }).toEqual(working.core.stats());
  });
});

describe("[C2] announcement validation never throws", () => {
  const good = announce("h1");
  const throwing = {
    version: { major: 1 },
    get item(): never {
      throw new Error("hostile getter");
    },
  };
  const proxy = new Proxy(
    {},
    {
      get() {
        throw new Error("hostile proxy");
      },
    },
  );
  const cases: [string, unknown][] = [
    ["null size", { ...good, item: { ...good.item, sizeBytes: null } }],
    ["NaN size", { ...good, item: { ...good.item, sizeBytes: Number.NaN } }],
    ["string size", { ...good, item: { ...good.item, sizeBytes: "16" } }],
    ["zero size", { ...good, item: { ...good.item, sizeBytes: 0 } }],
    ["size above maxItemBytes", { ...good, item: { ...good.item, sizeBytes: 2 ** 40 } }],
    ["size differing from dtype x shape", { ...good, item: { ...good.item, dtype: 1, shape: [3, 3] } }],
    ["missing key", { ...good, item: { ...good.item, key: undefined } }],
    ["other fingerprint", { ...good, item: { ...good.item, key: { contentHash: new Uint8Array([1]), fingerprint: { model: "x" } } } }],
    ["missing producer", { ...good, item: { ...good.item, producerId: "" } }],
    ["epoch 0", { ...good, item: { ...good.item, epoch: 0 } }],
    ["missing version", { item: good.item }],
    ["version major 2", { ...good, version: { major: 2 } }],
    ["a string", "not an announcement"],
    ["a number", 42],
    ["throwing getter", throwing],
    ["throwing proxy", proxy],
  ];

  it.each(cases)("[C2] %s with model input: local-encode INVALID_ANNOUNCEMENT", (_name, announcement) => {
    const h = makeConsumer();
    const r = h.core.admit({ requestId: "r", items: [{ itemId: "a", hasModelInput: true, announcement: announcement as never }] }, 0);
    expect(r).toEqual({ status: "admitted", items: [{ action: "local-encode", itemId: "a", reason: "INVALID_ANNOUNCEMENT" }] });
    expect(h.core.poll(0)).toEqual([]);
  });

  it.each(cases)("[C2] %s without model input: request fails INVALID_ANNOUNCEMENT", (_name, announcement) => {
    const h = makeConsumer();
    const r = h.core.admit({ requestId: "r", items: [{ itemId: "a", hasModelInput: false, announcement: announcement as never }] }, 0);
    expect(r).toEqual({ status: "failed", failures: [{ itemId: "a", reason: "INVALID_ANNOUNCEMENT", attempts: 0 }] });
    expect(h.core.drainFailed()).toHaveLength(1);
  });

  it("[C2] a throwing announcement getter on the item itself is an invalid announcement", () => {
    const h = makeConsumer();
    const item = {
      itemId: "a",
      hasModelInput: false,
      get announcement(): never {
        throw new Error("boom");
      },
    };
    expect(h.core.admit({ requestId: "r", items: [item] }, 0).status).toBe("failed");
  });

  it("[C2] a failing item starts no fetch for the request's other items", () => {
    const h = makeConsumer();
    const r = h.core.admit({ requestId: "r", items: [remote("a", "h1"), { itemId: "b", hasModelInput: false }] }, 0);
    expect(r.status).toBe("failed");
    expect(h.core.poll(0)).toEqual([]);
    expect(h.core.stats().fetches).toBe(0);
  });
});

describe("[C3] wait budget per (request, item)", () => {
  it("[C3] a read result handled at or after the budget's end (before the poll that would end it) does not revive the item", () => {
    // At exactly the deadline (60 000) too: the budget is over at its deadline.
    for (const [model, at] of [[false, 60_000], [true, 60_000], [false, 60_500], [true, 60_500]] as const) {
      const h = makeConsumer(); // budget 60 s, transfer timeout 20 s
      h.core.admit({ requestId: "r", items: [remote("a", "h1", model)] }, 0);
      reject(h, onlyAttempt(h.core.poll(0)), 1, 1, { retryable: true, retryAfterMs: 50_000 }); // NOT_READY: retry at ~50 s
      h.core.poll(1);
      const start = starts(grant(h, onlyAttempt(h.core.poll(50_001)), 7, "h1", 50_002))[0] as ReturnType<typeof starts>[0];
      fill(start, "h1");
      // Settled inside the read's own deadline (70 002), but handled at or after the budget's end, before a poll.
      h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, at);
      const d = h.core.admit({ requestId: "r", items: [remote("a", "h1", model)] }, at);
      if (model) expect(decision(d)).toEqual({ action: "local-encode", itemId: "a", reason: "BUDGET_EXHAUSTED" });
      else expect(d).toEqual({ status: "failed", failures: [{ itemId: "a", reason: "BUDGET_EXHAUSTED", attempts: 2 }] });
      h.core.drainFailed();
      h.core.finishRequest("r", at + 1);
      expectIdle(h);
    }
  });

  it("[C3] starts at the first wait and fails the request at the deadline (poll)", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 1_000);
    h.core.poll(1_000);
    expect(h.core.nextDeadline()).toBeLessThanOrEqual(61_000);
    h.core.poll(60_999);
    expect(h.core.drainFailed()).toEqual([]);
    h.core.poll(61_000);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "BUDGET_EXHAUSTED", attempts: expect.any(Number) }] }]);
  });

  it("[C3] an item a later admission leaves out stays part of the request: its budget runs and fails the request", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 0);
    // The engine now holds "a" and presents only it: "b" is not released.
    const later = h.core.admit({ requestId: "r", items: [{ itemId: "a", hasModelInput: false, local: true }] }, 10);
    expect(later).toEqual({ status: "admitted", items: [{ action: "ready", itemId: "a" }] });
    expect(h.core.stats()).toMatchObject({ budgets: 2, fetches: 1 }); // budgets are cleared when the request finishes [C3]
    h.core.poll(60_000);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "b", reason: "BUDGET_EXHAUSTED", attempts: expect.any(Number) }] }]);
    h.core.finishRequest("r", 60_000);
    h.core.poll(60_000);
    expectIdle(h);
  });

  it("[C3] is enforced at admission too, without a poll", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const r = h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 60_000);
    expect(r.status).toBe("failed");
    expect(h.core.drainFailed()).toHaveLength(1);
  });

  it("[C3] at admission each slot is checked against its own deadline, whichever timer is due first", () => {
    const h = makeConsumer();
    // Request "early" waits from 0 (deadline 60 000), "late" from 30 000 (deadline 90 000); no poll in between.
    h.core.admit({ requestId: "early", items: [remote("a", "h1")] }, 0);
    h.core.admit({ requestId: "late", items: [remote("b", "h2")] }, 30_000);
    // Before any timer is due nothing is exhausted (the admit skips the per-slot deadlines).
    expect(h.core.admit({ requestId: "early", items: [remote("a", "h1")] }, 59_999).status).toBe("admitted");
    // At 60 000 timers are due: "late" still has budget, "early" has none.
    expect(h.core.admit({ requestId: "late", items: [remote("b", "h2")] }, 60_000).status).toBe("admitted");
    expect(h.core.admit({ requestId: "early", items: [remote("a", "h1")] }, 60_000).status).toBe("failed");
    expect(h.core.admit({ requestId: "late", items: [remote("b", "h2")] }, 89_999).status).toBe("admitted");
    expect(h.core.admit({ requestId: "late", items: [remote("b", "h2")] }, 90_000).status).toBe("failed");
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["early", "late"]);
  });

  it("[C3] with model input the exhausted item becomes local-encode BUDGET_EXHAUSTED", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 0);
    h.core.poll(60_000);
    expect(decision(h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 60_001))).toEqual({
      action: "local-encode",
      itemId: "a",
      reason: "BUDGET_EXHAUSTED",
    });
    expect(h.core.drainFailed()).toEqual([]);
  });

  it("[C3] is not extended by re-admission or by an in-flight read", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    for (let t = 1_000; t < 60_000; t += 7_000) h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, t);
    const out = grant(h, attempt, 5, "h1", 50_000);
    expect(starts(out)).toHaveLength(1);
    h.core.poll(60_000);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("BUDGET_EXHAUSTED");
  });

  it("[C3] budgets are cleared when the request finishes", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 0);
    expect(h.core.stats().budgets).toBe(2);
    h.core.finishRequest("r", 1);
    expect(h.core.stats().budgets).toBe(0);
    h.core.poll(100_000);
    expect(h.core.drainFailed()).toEqual([]);
  });
});

describe("[C4] retryable outcomes are retried with backoff inside the budget", () => {
  it("[C4] NOT_READY is retried after a jittered backoff, counted and logged (at debug level: flow control) with the attempt number", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    reject(h, a1, R.FAILURE_REASON_NOT_READY, 10);
    expect(sent(h.core.poll(34), "readRequest")).toHaveLength(0); // d = 50: at least 25 ms
    let a2 = 0;
    for (let t = 35; t <= 60 && a2 === 0; t++) {
      const out = h.core.poll(t);
      if (sent(out, "readRequest").length > 0) a2 = onlyAttempt(out);
    }
    expect(a2).toBeGreaterThan(a1);
    expect(h.metrics.total("ectp_consumer_retries_total", ["reason", "NOT_READY"])).toBe(1);
    expect(h.logger.at("debug").some((r) => r.fields?.attempt === 2 && r.fields?.reason === "NOT_READY")).toBe(true);
    expect(h.metrics.observed("ectp_consumer_retry_attempt")).toEqual([2]); // the attempt number of each retry, none for the first
  });

  it("[C4] a reject's retry_after_ms lengthens the backoff", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    reject(h, a1, R.FAILURE_REASON_OVERLOADED, 0, { retryAfterMs: 500, retryable: true });
    expect(sent(h.core.poll(499), "readRequest")).toHaveLength(0);
    expect(sent(h.core.poll(500), "readRequest")).toHaveLength(1);
  });

  it("[C4] a reject's retry_after_ms never shortens the backoff", () => {
    const h = makeConsumer({ backoffInitialMs: 1_000, backoffMaxMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    reject(h, a1, R.FAILURE_REASON_NOT_READY, 0, { retryAfterMs: 1 });
    expect(sent(h.core.poll(499), "readRequest")).toHaveLength(0);
    expect(sent(h.core.poll(1_000), "readRequest")).toHaveLength(1);
  });

  it("[C4] backoff doubles up to backoffMaxMs, each delay jittered in [d/2, d]", () => {
    const h = makeConsumer({ waitBudgetMs: 1_000_000, grantWaitMs: 1_000_000, heartbeatIntervalMs: 1_000_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    let attempt = onlyAttempt(h.core.poll(0));
    let t = 0;
    for (let n = 1; n <= 8; n++) {
      reject(h, attempt, R.FAILURE_REASON_NOT_READY, t);
      const at = h.core.nextDeadline() as number;
      const d = Math.min(2_000, 50 * 2 ** (n - 1));
      expect(at - t).toBeGreaterThanOrEqual(d / 2);
      expect(at - t).toBeLessThanOrEqual(d);
      t = at;
      attempt = onlyAttempt(h.core.poll(t));
    }
  });

  it("[C4] a grant wait timeout is retried, not terminal", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    h.core.poll(29_999);
    h.core.poll(30_000);
    const out = h.core.poll(30_100);
    const a2 = onlyAttempt(out);
    expect(a2).toBeGreaterThan(a1);
    expect(h.core.drainFailed()).toEqual([]);
    // A grant for the timed-out attempt is released at once.
    expect(acks(grant(h, a1, 77, "h1", 30_200))).toEqual([[77, ABANDONED]]);
  });

  it("[C4] a full destination pool gives the grant back (ABANDONED) and retries", () => {
    const h = makeConsumer();
    h.pool.full = true;
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    expect(acks(grant(h, a1, 9, "h1", 1))).toEqual([[9, ABANDONED]]);
    h.pool.full = false;
    const a2 = onlyAttempt(h.core.poll(100));
    expect(starts(grant(h, a2, 10, "h1", 101))).toHaveLength(1);
  });

  it("[C4] a pool answering null (no room) is full too: the grant goes back ABANDONED, the fetch retries", () => {
    const h = makeConsumer();
    const allocate = h.pool.allocate.bind(h.pool);
    let room = false;
    h.pool.allocate = (keyId, sizeBytes) => (room ? allocate(keyId, sizeBytes) : (null as unknown as undefined));
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    expect(acks(grant(h, onlyAttempt(h.core.poll(0)), 9, "h1", 1))).toEqual([[9, ABANDONED]]);
    expect(h.core.stats().destinations).toBe(0);
    room = true;
    expect(starts(grant(h, onlyAttempt(h.core.poll(100)), 10, "h1", 101))).toHaveLength(1);
  });

  it("[C4][I1] a pool whose allocate throws is full too, whatever it throws: the grant goes back ABANDONED, the throw is logged, the fetch retries", () => {
    for (const thrown of [new Error("pool locked"), Object.create(null)]) {
      const h = makeConsumer();
      const allocate = h.pool.allocate.bind(h.pool);
      let broken = true;
      h.pool.allocate = (keyId, sizeBytes) => {
        if (broken) throw thrown;
        return allocate(keyId, sizeBytes);
      };
      h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
      expect(acks(grant(h, onlyAttempt(h.core.poll(0)), 9, "h1", 1))).toEqual([[9, ABANDONED]]);
      expect(h.logger.at("error").map((r) => r.message)).toEqual(["DestinationPool.allocate threw; treated as full"]);
      expect(h.core.stats().destinations).toBe(0);
      broken = false;
      expect(starts(grant(h, onlyAttempt(h.core.poll(100)), 10, "h1", 101))).toHaveLength(1);
    }
  });

  it("a destination of another length than the item's is a pool bug: released, the grant FAILED, the item INTERNAL, logged", () => {
    const h = makeConsumer();
    const allocate = h.pool.allocate.bind(h.pool);
    h.pool.allocate = (keyId, sizeBytes) => allocate(keyId, sizeBytes + 64); // a pool rounding up
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const out = grant(h, onlyAttempt(h.core.poll(0)), 9, "h1", 1);
    expect(starts(out)).toEqual([]); // no read of 80 bytes from a 16-byte item
    expect(acks(out)).toEqual([[9, FAILED]]);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "INTERNAL", attempts: 1 }] }]);
    expect(h.pool.live.size).toBe(0);
    expect(h.logger.at("error").at(-1)).toMatchObject({ fields: { sizeBytes: 16, length: 80 } });
    h.core.finishRequest("r", 2);
    expectIdle(h);
  });

  it("[C4] an unknown reject reason follows the reject's retryable flag", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    reject(h, a1, 999, 0, { retryable: true });
    const a2 = onlyAttempt(h.core.poll(100));
    reject(h, a2, 999, 100, { retryable: false });
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("INTERNAL");
  });

  it("[C5] a reject with reason UNSPECIFIED, or a request-outcome-only reason, is INTERNAL and terminal, whatever its retryable flag", () => {
    for (const reason of [R.FAILURE_REASON_UNSPECIFIED, R.FAILURE_REASON_BUDGET_EXHAUSTED, R.FAILURE_REASON_INVALID_ANNOUNCEMENT, R.FAILURE_REASON_UNAVAILABLE]) {
      const h = makeConsumer();
      h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
      const out = reject(h, onlyAttempt(h.core.poll(0)), reason, 0, { retryable: true, retryAfterMs: 1 });
      expect(sent(out, "readRequest")).toEqual([]);
      expect(sent(h.core.poll(100), "readRequest")).toEqual([]);
      expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("INTERNAL");
    }
  });

  it("[I1] a clock reading that is not a finite number is replaced by the last good one (logged): the budget still runs out", () => {
    const h = makeConsumer({ waitBudgetMs: 1_000 });
    h.core.poll(50);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, Number.NaN); // taken as t=50
    expect(h.core.nextDeadline()).toBe(50);
    expect(h.logger.at("error").at(-1)?.message).toBe("the clock reading passed in is not a finite number; the last good one is used");
    h.core.poll(1_050);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("BUDGET_EXHAUSTED");
  });

  it("[C4] no retry is scheduled past every waiter's budget", () => {
    const h = makeConsumer({ waitBudgetMs: 100, backoffInitialMs: 1_000, backoffMaxMs: 1_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    reject(h, a1, R.FAILURE_REASON_NOT_READY, 10);
    const out = h.core.poll(100);
    expect(sent(out, "readRequest")).toHaveLength(0);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("BUDGET_EXHAUSTED");
    expect(h.core.poll(2_000)).toEqual([]);
  });
});

describe("[C5] terminal outcomes end the remote path", () => {
  const terminal: [string, number][] = [
    ["NOT_FOUND", R.FAILURE_REASON_NOT_FOUND],
    ["INCOMPATIBLE", R.FAILURE_REASON_INCOMPATIBLE],
    ["VERSION", R.FAILURE_REASON_VERSION],
    ["INTERNAL", R.FAILURE_REASON_INTERNAL],
    ["SHUTTING_DOWN", R.FAILURE_REASON_SHUTTING_DOWN],
    ["EPOCH_CHANGED", R.FAILURE_REASON_EPOCH_CHANGED],
  ];

  it.each(terminal)("[C5] reject %s without model input fails the request with that reason", (name, value) => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    reject(h, onlyAttempt(h.core.poll(0)), value, 5);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: name, attempts: 1 }] }]);
    const warn = h.logger.at("warn").find((r) => r.fields?.reason === name);
    expect(warn?.fields).toMatchObject({ requestId: "r", itemId: "a", reason: name, attempts: 1 });
  });

  it.each(terminal)("[C5] reject %s with model input is local-encode, with no further remote attempt", (name, value) => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 0);
    reject(h, onlyAttempt(h.core.poll(0)), value, 5);
    const again = h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 10);
    expect(decision(again)).toEqual({ action: "local-encode", itemId: "a", reason: name });
    expect(sent(h.core.poll(10_000), "readRequest")).toHaveLength(0);
    expect(h.core.drainFailed()).toEqual([]);
  });

  it("[C5] a failed transfer is terminal TRANSFER_FAILED: destination released, grant ACKed FAILED", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 3, "h1", 1))[0];
    h.core.handleReadResult({ readId: start?.readId as number, status: "failed", error: "boom" }, 2);
    expect(acks(h.core.poll(2))).toEqual([[3, FAILED]]);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("TRANSFER_FAILED");
    expect(h.pool.live.size).toBe(0);
    h.core.finishRequest("r", 3);
    expectIdle(h);
  });
});

describe("[C6] failed requests are reported exactly once", () => {
  it("[C6] drainFailed reports once; re-admission returns the same failure without queueing again", () => {
    const h = makeConsumer();
    const first = h.core.admit({ requestId: "r", items: [{ itemId: "a", hasModelInput: false }] }, 0);
    const second = h.core.admit({ requestId: "r", items: [{ itemId: "a", hasModelInput: false }] }, 1);
    expect(second).toBe(first);
    expect(h.core.stats().undrainedFailures).toBe(1);
    expect(h.core.drainFailed()).toHaveLength(1);
    expect(h.core.drainFailed()).toEqual([]);
    h.core.admit({ requestId: "r", items: [{ itemId: "a", hasModelInput: false }] }, 2);
    expect(h.core.drainFailed()).toEqual([]);
    h.core.finishRequest("r", 3);
    expectIdle(h);
  });

  // Mutants: failRequest counts item failures without their reason label; a local fallback's counter loses its reason.
  it("[C5][C6] a failed request is counted once and each failed item by its reason; a local fallback is counted by its reason", () => {
    const h = makeQuiet({ waitBudgetMs: 1000 });
    const invalid = { ...announce("h9"), version: { major: 2, minor: 0 } }; // another major: invalid [C2]
    const m = h.metrics;
    const failedItems = (reason: string) => m.total("ectp_consumer_item_failures_total", ["reason", reason]);
    const local = (reason: string) => m.total("ectp_consumer_local_encodes_total", ["reason", reason]);
    const items = [
      { itemId: "a", hasModelInput: false },
      { itemId: "b", hasModelInput: false, announcement: invalid },
    ];
    expect(h.core.admit({ requestId: "f", items }, 0).status).toBe("failed");
    h.core.admit({ requestId: "f", items }, 1); // the same failure: not counted again
    expect(m.total("ectp_consumer_requests_failed_total")).toBe(1);
    expect([failedItems("UNAVAILABLE"), failedItems("INVALID_ANNOUNCEMENT"), m.total("ectp_consumer_item_failures_total")]).toEqual([1, 1, 2]);
    // Local fallbacks: at admission (an invalid announcement; none counted without a reason), when the
    // remote path ends (NOT_FOUND), and when the budget runs out.
    h.core.admit(
      {
        requestId: "l",
        items: [
          { itemId: "c", hasModelInput: true, announcement: invalid },
          { itemId: "d", hasModelInput: true },
          remote("e", "h1", true),
        ],
      },
      2,
    );
    reject(h, onlyAttempt(h.core.poll(2)), R.FAILURE_REASON_NOT_FOUND, 3);
    h.core.admit({ requestId: "g", items: [remote("g", "h2", true)] }, 4);
    h.core.poll(4);
    h.core.poll(1004);
    expect([local("INVALID_ANNOUNCEMENT"), local("NOT_FOUND"), local("BUDGET_EXHAUSTED"), m.total("ectp_consumer_local_encodes_total")]).toEqual([1, 1, 1, 3]);
    expect(m.total("ectp_consumer_requests_failed_total")).toBe(1);
  });

  it("[C6] a failure releases the request's holds and other requests keep going", () => {
    const h = makeConsumer();
    const { start } = loadOne(h, "r1", "h1", 0);
    // r2 holds the loaded item and also waits for h2, which is not found.
    const r2 = h.core.admit({ requestId: "r2", items: [remote("x", "h1"), remote("y", "h2")] }, 10);
    expect(decision(r2, 0)).toMatchObject({ action: "ready" });
    reject(h, onlyAttempt(h.core.poll(10)), R.FAILURE_REASON_NOT_FOUND, 11);
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r2"]);
    expect(h.core.stats().loadedItems).toBe(1);
    expect(decision(h.core.admit({ requestId: "r1", items: [remote("i", "h1")] }, 12))).toEqual({
      action: "ready",
      itemId: "i",
      destination: start.destination,
    });
    h.core.finishRequest("r2", 13); // no-op apart from forgetting the id
    h.core.finishRequest("r1", 14);
    expectIdle(h);
  });
});

describe("[C7] finish releases everything", () => {
  it("[C7] finishing before the grant: the late grant is ACKed ABANDONED at once", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    h.core.finishRequest("r", 1);
    expect(h.core.stats().fetches).toBe(0);
    expect(acks(grant(h, a1, 42, "h1", 2))).toEqual([[42, ABANDONED]]);
    expect(h.core.stats().ignoredMessages).toBe(1);
    expectIdle(h);
  });

  it("[C7][I5] finishing during a read cancels it; ACK ABANDONED and release only when it settles", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 1))[0] as ReturnType<typeof starts>[0];
    h.core.finishRequest("r", 2);
    const out = h.core.poll(2);
    expect(out).toEqual([{ type: "cancel-read", readId: start.readId }]);
    expect(h.pool.live.has(start.destination)).toBe(true);
    expect(h.core.stats().grantsHeld).toBe(1);
    h.core.handleReadResult({ readId: start.readId, status: "cancelled" }, 3);
    expect(acks(h.core.poll(3))).toEqual([[8, ABANDONED]]);
    expectIdle(h);
  });

  it("[C7] an abandoned read that never settles is ACKed at its deadline and released at the quarantine cap", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0))[0] as ReturnType<typeof starts>[0];
    h.core.finishRequest("r", 1);
    h.core.poll(1);
    expect(acks(h.core.poll(20_000))).toEqual([[8, ABANDONED]]);
    expect(h.pool.live.has(start.destination)).toBe(true);
    h.core.poll(80_000);
    expectIdle(h);
  });

  it("[C7] a grant for an already-loaded item or an unknown attempt is ACKed ABANDONED", () => {
    const h = makeConsumer();
    const { attempt } = loadOne(h, "r", "h1", 0);
    expect(acks(grant(h, attempt, 999, "h1", 5))).toEqual([[999, ABANDONED]]);
    expect(acks(grant(h, 12345, 1000, "h1", 6))).toEqual([[1000, ABANDONED]]);
    h.core.finishRequest("r", 7);
    expectIdle(h);
  });

  it("[C6][C7] an id admitted again after it finished is a new request: the finished one's failure is not returned, and it is outstanding again", () => {
    const h = makeConsumer();
    const failed = h.core.admit({ requestId: "r", items: [{ itemId: "i", hasModelInput: false }] }, 0);
    expect(failed.status).toBe("failed");
    h.core.finishRequest("r", 1);
    expect(h.core.stats().requests).toBe(0);
    const again = h.core.admit({ requestId: "r", items: [{ itemId: "i", hasModelInput: false, local: true }] }, 2);
    expect(again.status).toBe("admitted");
    expect(h.core.stats().requests).toBe(1);
    h.core.finishRequest("r", 3);
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r"]);
    expectIdle(h);
  });

  it("[C7] finishing an unknown request is a no-op", () => {
    const h = makeConsumer();
    h.core.finishRequest("nope", 0);
    expect(h.core.poll(0)).toEqual([]);
    expectIdle(h);
  });
});

describe("[C8] quarantine of reads past their timeout", () => {
  const makeConsumer = makeQuiet;
  function startRead(h: H) {
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    return starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0))[0] as ReturnType<typeof starts>[0];
  }

  it("[C8][I5] an unsettled read at its deadline is cancelled, fails TRANSFER_TIMEOUT and keeps its destination until it settles", () => {
    const h = makeConsumer();
    const start = startRead(h);
    expect(h.core.poll(19_999)).toEqual([]);
    const out = h.core.poll(20_000);
    expect(out.filter((o) => o.type === "cancel-read")).toEqual([{ type: "cancel-read", readId: start.readId }]);
    expect(acks(out)).toEqual([[8, FAILED]]);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("TRANSFER_TIMEOUT");
    expect(h.core.stats().quarantined).toBe(1);
    expect(h.pool.live.has(start.destination)).toBe(true);
    expect(h.metrics.total("ectp_consumer_reads_quarantined_total")).toBe(1);
    h.core.finishRequest("r", 20_001);
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 25_000);
    expect(h.core.poll(25_000)).toEqual([]); // already ACKed; never loaded
    expectIdle(h);
    expect(h.metrics.total("ectp_consumer_reads_quarantined_total")).toBe(1); // counted once, when quarantined
  });

  it("[C8] the quarantine cap releases the destination; a later result is ignored", () => {
    const h = makeConsumer();
    const start = startRead(h);
    h.core.poll(20_000);
    h.core.poll(79_999);
    expect(h.pool.live.size).toBe(1);
    h.core.poll(80_000);
    expect(h.pool.live.size).toBe(0);
    expect(h.metrics.total("ectp_consumer_quarantine_cap_releases_total")).toBe(1);
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 90_000);
    expect(h.core.stats().ignoredMessages).toBe(1);
    h.core.finishRequest("r", 90_001);
    h.core.drainFailed();
    expectIdle(h);
  });

  it("[C7][C8] outstanding requests, grants held and quarantined reads are on gauges, set by a poll when one changed", () => {
    const h = makeConsumer();
    const gauges = () => ({
      requests: h.metrics.latest("ectp_consumer_requests"),
      grantsHeld: h.metrics.latest("ectp_consumer_grants_held"),
      quarantined: h.metrics.latest("ectp_consumer_quarantined_reads"),
    });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    expect(gauges()).toEqual({ requests: 1, grantsHeld: 0, quarantined: 0 });
    const before = h.metrics.gauges.length;
    const start = starts(grant(h, attempt, 8, "h1", 0))[0] as ReturnType<typeof starts>[0]; // grant() polls
    expect(gauges()).toEqual({ requests: 1, grantsHeld: 1, quarantined: 0 });
    // Only the gauge that changed was set.
    expect(h.metrics.gauges.slice(before)).toEqual([{ name: "ectp_consumer_grants_held", value: 1 }]);
    const set = h.metrics.gauges.length;
    h.core.poll(2);
    expect(h.metrics.gauges).toHaveLength(set); // nothing changed: nothing set
    h.core.poll(20_000); // the transfer timeout: ACKed FAILED, quarantined
    expect(gauges()).toEqual({ requests: 1, grantsHeld: 0, quarantined: 1 });
    h.core.finishRequest("r", 20_001);
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 20_002);
    h.core.poll(20_002);
    expect(gauges()).toEqual({ requests: 0, grantsHeld: 0, quarantined: 0 });
  });

  it("[C8] with the quarantine cap disabled (Infinity) the destination waits for the read to settle, however long", () => {
    const h = makeConsumer({ quarantineCapMs: Number.POSITIVE_INFINITY });
    const start = startRead(h);
    h.core.poll(20_000);
    expect(h.core.nextDeadline()).not.toBe(Number.POSITIVE_INFINITY);
    h.core.poll(10_000_000);
    expect(h.pool.live.size).toBe(1);
    // Mutant: the disabled cap is scheduled at Infinity instead of no timer: a driver would be asked to wake at Infinity.
    expect(h.core.nextDeadline()).toBeUndefined(); // only the read's settlement ends the quarantine: no timer is pending
    expect(h.metrics.total("ectp_consumer_quarantine_cap_releases_total")).toBe(0);
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 10_000_001);
    expect(h.pool.live.size).toBe(0);
    h.core.finishRequest("r", 10_000_002);
    h.core.drainFailed();
    expectIdle(h);
    // Orphaned before its deadline (the producer went silent at 6 s): its deadline timer must not release it either.
    const h2 = makeConsumer({ quarantineCapMs: Number.POSITIVE_INFINITY, heartbeatIntervalMs: 2_000 });
    startRead(h2);
    expect(h2.core.poll(6_000).filter((o) => o.type === "cancel-read")).toHaveLength(1);
    h2.core.poll(10_000_000);
    expect(h2.pool.live.size).toBe(1);
  });

  it("[C8] with model input the timed-out item becomes local-encode TRANSFER_TIMEOUT", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 0);
    grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0);
    h.core.poll(20_000);
    expect(decision(h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 20_001))).toEqual({
      action: "local-encode",
      itemId: "a",
      reason: "TRANSFER_TIMEOUT",
    });
  });
});

describe("[C9][P3] no ReadRequest for an item while an abandoned read of it from that producer still runs (SPEC 4.6)", () => {
  const ABANDONED = ectp.v1.CompletionStatus.COMPLETION_STATUS_ABANDONED;
  /**
   * Request A's read of h1 (grant 1) is abandoned while it runs; request B then asks for h1. A
   * ReadRequest now would replace grant 1 at the producer [P3]: its pin gone, h1 could be evicted
   * under A's READ once B's grant ended or was refused.
   */
  function askedUnderRead(config: Parameters<typeof makeConsumer>[0] = {}) {
    const h = makeConsumer({ ...QUIET, ...config });
    h.core.admit({ requestId: "A", items: [remote("i", "h1")] }, 0);
    const first = starts(grant(h, onlyAttempt(h.core.poll(0)), 1, "h1", 1))[0] as StartReadOutput;
    h.core.finishRequest("A", 2); // A's read is cancelled, but runs on: its ACK waits for it [C7]
    expect(acks(h.core.poll(2))).toEqual([]);
    expect(decision(h.core.admit({ requestId: "B", items: [remote("i", "h1")] }, 3))).toMatchObject({ action: "defer" });
    return { h, first };
  }

  it("B's ReadRequest waits until A's read settles; then grant 1 is released and B asks at once", () => {
    const { h, first } = askedUnderRead();
    expect(sent(h.core.poll(3), "readRequest")).toEqual([]); // before the fix: a ReadRequest, replacing grant 1
    expect(sent(h.core.poll(5_000), "readRequest")).toEqual([]);
    h.core.handleReadResult({ readId: first.readId, status: "cancelled" }, 5_001);
    const out = h.core.poll(5_001);
    expect(acks(out)).toEqual([[1, ABANDONED]]);
    const second = starts(grant(h, onlyAttempt(out), 2, "h1", 5_002))[0] as StartReadOutput;
    fill(second, "h1");
    h.core.handleReadResult({ readId: second.readId, status: "done", bytesRead: second.destination.length }, 5_003);
    expect(acks(h.core.poll(5_003))).toEqual([[2, ectp.v1.CompletionStatus.COMPLETION_STATUS_OK]]);
    expect(decision(h.core.admit({ requestId: "B", items: [remote("i", "h1")] }, 5_004))).toMatchObject({ action: "ready" });
    h.core.finishRequest("B", 5_005);
    h.core.poll(5_005);
    expectIdle(h);
  });

  it("A's read never settles: B asks once A's read is quarantined at its deadline [C8], its grant released then", () => {
    const { h } = askedUnderRead();
    expect(sent(h.core.poll(20_000), "readRequest")).toEqual([]);
    const atDeadline = h.core.poll(20_001); // the transfer timeout (20 s) of A's read, started at 1
    expect(acks(atDeadline)).toEqual([[1, ABANDONED]]);
    expect(sent(atDeadline, "readRequest")).toHaveLength(1);
  });

  it("the producer declared gone while B waits (falsely, maybe: it may still hold grant 1): B still waits for A's read", () => {
    const { h, first } = askedUnderRead();
    h.core.handlePeerUnreachable(P, 4);
    let asked = sent(h.core.poll(4), "readRequest").length; // before the fix: B asked at once
    asked += sent(h.core.poll(5_000), "readRequest").length;
    expect(asked).toBe(0);
    h.core.handleReadResult({ readId: first.readId, status: "cancelled" }, 5_001);
    expect(sent(h.core.poll(5_001), "readRequest")).toHaveLength(1);
  });

  it("a read let go while its fetch was live (producer declared gone) holds back a new request's ReadRequest until its deadline", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "A", items: [remote("i", "h1")] }, 0);
    starts(grant(h, onlyAttempt(h.core.poll(0)), 1, "h1", 1));
    h.core.handlePeerUnreachable(P, 2); // A's read is cancelled, its grant void, and A fails; the read may run on
    h.core.poll(2);
    h.core.finishRequest("A", 3);
    h.core.admit({ requestId: "B", items: [remote("i", "h1")] }, 4);
    expect(sent(h.core.poll(4), "readRequest")).toEqual([]);
    expect(sent(h.core.poll(20_000), "readRequest")).toEqual([]);
    expect(sent(h.core.poll(20_001), "readRequest")).toHaveLength(1); // A's read's deadline: the transfer timeout from 1
  });

  it("B's budget runs out while A's read still runs: B fails BUDGET_EXHAUSTED, having asked nothing [C3]", () => {
    const { h } = askedUnderRead({ waitBudgetMs: 10_000 });
    let asked = 0;
    for (const t of [5_000, 10_003]) asked += sent(h.core.poll(t), "readRequest").length; // B's budget: 10 s from 3
    expect(asked).toBe(0);
    expect(h.core.drainFailed()).toMatchObject([{ requestId: "B", failures: [{ itemId: "i", reason: "BUDGET_EXHAUSTED" }] }]);
  });
});

describe("[C9] single flight per item key", () => {
  /** A remote item "h1" whose announcement carries the checksum of `hashOf`'s bytes (h1's own: right, others: wrong). */
  function withChecksumOf(itemId: string, hashOf: string): AdmitItem {
    const a = announce("h1");
    const crc = crc32c(itemBytes(hashOf, 16));
    (a.item as ectp.v1.IItemDescriptor).checksum = { algorithm: 1, value: new Uint8Array([crc >>> 24, crc >>> 16, crc >>> 8, crc]) };
    return { itemId, announcement: a, hasModelInput: false };
  }

  it("[C9][C11] a request joining a fetch with another announced checksum is ready only if the bytes match its own", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // no checksum
    h.core.admit({ requestId: "r2", items: [withChecksumOf("b", "zz")] }, 0); // a wrong one
    h.core.admit({ requestId: "r3", items: [withChecksumOf("c", "h1")] }, 0); // the right one
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 1, "h1", 1))[0] as ReturnType<typeof starts>[0];
    expect(start.crc32c).toBe(true); // the joiners' checksums need the bytes' CRC
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2);
    expect(acks(h.core.poll(2))).toEqual([[1, OK]]);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r2", failures: [{ itemId: "b", reason: "CHECKSUM_MISMATCH", attempts: 1 }] }]);
    expect(decision(h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 3))).toMatchObject({ action: "ready" });
    expect(decision(h.core.admit({ requestId: "r3", items: [withChecksumOf("c", "h1")] }, 3))).toMatchObject({ action: "ready" });
    for (const r of ["r1", "r2", "r3"]) h.core.finishRequest(r, 4);
    expectIdle(h);
  });

  it("[C9][C11] a request for an item loaded under another announcement is checked against its own checksum", () => {
    const h = makeConsumer();
    loadOne(h, "r1", "h1", 0); // loaded without a checksum
    const wrong = h.core.admit({ requestId: "r2", items: [withChecksumOf("b", "zz")] }, 5);
    expect(wrong).toEqual({ status: "failed", failures: [{ itemId: "b", reason: "CHECKSUM_MISMATCH", attempts: 0 }] });
    expect(decision(h.core.admit({ requestId: "r3", items: [withChecksumOf("c", "h1")] }, 5))).toMatchObject({ action: "ready" });
    expect(h.core.stats().loadedItems).toBe(1);
  });

  it("[C9][C11] an announcement of another size joins no fetch and uses no loaded item: SIZE_MISMATCH at admission", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // 16 bytes
    const joiner = h.core.admit({ requestId: "r2", items: [remote("b", "h1", false, { size: 32 })] }, 0);
    expect(joiner).toEqual({ status: "failed", failures: [{ itemId: "b", reason: "SIZE_MISMATCH", attempts: 0 }] });
    const local = h.core.admit({ requestId: "r3", items: [remote("c", "h1", true, { size: 32 })] }, 0);
    expect(decision(local)).toEqual({ action: "local-encode", itemId: "c", reason: "SIZE_MISMATCH" });
    expect(h.core.stats()).toMatchObject({ fetches: 1, budgets: 1 });
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 1, "h1", 1))[0] as ReturnType<typeof starts>[0];
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2);
    expect(decision(h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 3))).toMatchObject({ action: "ready" });
    const late = h.core.admit({ requestId: "r4", items: [remote("d", "h1", false, { size: 32 })] }, 3);
    expect(late).toEqual({ status: "failed", failures: [{ itemId: "d", reason: "SIZE_MISMATCH", attempts: 0 }] });
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r2", "r4"]);
    for (const r of ["r1", "r2", "r3", "r4"]) h.core.finishRequest(r, 4);
    expectIdle(h);
  });

  it.each([2, 33, 200])(
    "[C9][C11] a request of %i items (pairwise or hashed checks) finds a duplicate id and a key announced with two sizes, and shares one fetch per key",
    (n) => {
      const h = makeConsumer();
      const ids = Array.from({ length: n }, (_, i) => `i${i}`);
      // Every third item names key h0, the others a key of their own; the last one names h0 with another size.
      const items = ids.map((id, i) => remote(id, i % 3 === 0 ? "h0" : `h${i}`, false, i === n - 1 ? { size: 32 } : {}));
      const dup = [...items.slice(0, n - 1), { ...(items[0] as AdmitItem) }];
      expect(() => h.core.admit({ requestId: "d", items: dup }, 0)).toThrow(`[INVALID_ARGUMENT] admit(d): duplicate itemId "i0"; item ids must be unique per request.`);
      const last = ids[n - 1] as string;
      const mixed = h.core.admit({ requestId: "r1", items: [...items.slice(0, n - 1), remote(last, "h0", false, { size: 32 })] }, 0);
      expect(mixed).toEqual({ status: "failed", failures: [{ itemId: last, reason: "SIZE_MISMATCH", attempts: 0 }] });
      const ok = h.core.admit({ requestId: "r2", items: [...items.slice(0, n - 1), remote(last, "h0")] }, 0);
      expect(ok.status).toBe("admitted");
      const keys = new Set(ids.map((_, i) => (i % 3 === 0 || i === n - 1 ? "h0" : `h${i}`)));
      expect(h.core.stats()).toMatchObject({ fetches: keys.size, budgets: n });
      // The same call again (re-admission) checks nothing new and answers the same.
      expect(h.core.admit({ requestId: "r2", items: [...items.slice(0, n - 1), remote(last, "h0")] }, 1)).toBe(ok);
    },
  );

  it("[C9][C11] two items of one admission naming one key with two sizes: the second is SIZE_MISMATCH, no fetch starts", () => {
    const h = makeConsumer();
    const both = h.core.admit({ requestId: "r1", items: [remote("a", "h1"), remote("b", "h1", false, { size: 32 })] }, 0);
    expect(both).toEqual({ status: "failed", failures: [{ itemId: "b", reason: "SIZE_MISMATCH", attempts: 0 }] });
    expect(sent(h.core.poll(0), "readRequest")).toEqual([]);
    // The same two items of one size share the fetch.
    const same = h.core.admit({ requestId: "r2", items: [remote("a", "h1"), remote("b", "h1")] }, 0);
    expect(same.status).toBe("admitted");
    expect(h.core.stats()).toMatchObject({ fetches: 1, budgets: 2 });
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r1"]);
    h.core.finishRequest("r1", 1);
    h.core.finishRequest("r2", 1);
    expectIdle(h);
  });

  it("[C9] concurrent requests share one ReadRequest and one destination, each with its own budget", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 1_000);
    const out = h.core.poll(1_000);
    const attempt = onlyAttempt(out);
    expect(h.core.stats()).toMatchObject({ fetches: 1, budgets: 2 });
    const start = starts(grant(h, attempt, 1, "h1", 1_001))[0] as ReturnType<typeof starts>[0];
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 1_002);
    expect(acks(h.core.poll(1_002))).toEqual([[1, OK]]);
    const d1 = decision(h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 1_003));
    const d2 = decision(h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 1_003));
    expect(d1).toEqual({ action: "ready", itemId: "a", destination: start.destination });
    expect(d2).toEqual({ action: "ready", itemId: "b", destination: start.destination });
    h.core.finishRequest("r1", 1_004);
    h.core.finishRequest("r2", 1_005);
    expectIdle(h);
  });

  it("[C9] a waiter leaving does not abandon the fetch while another waits", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    h.core.admit({ requestId: "r2", items: [remote("b", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.finishRequest("r1", 1);
    expect(starts(grant(h, attempt, 1, "h1", 2))).toHaveLength(1);
  });
});

describe("[C10] late, duplicate, unknown or malformed messages are ignored and counted", () => {
  it("[C10] garbage bytes and wrong versions never throw", () => {
    const h = makeConsumer();
    h.core.handleMessage(P, new Uint8Array([0xff, 0xff, 0xff, 0xff]), 0);
    h.core.handleMessage(P, encodeEnvelope({ version: { major: 2 }, senderId: P, senderEpoch: 1, heartbeat: {} }), 0);
    h.core.handleEnvelope(P, { senderId: P, senderEpoch: 1, heartbeat: {} }, 0);
    h.core.handleEnvelope(P, null as never, 0);
    h.core.handleEnvelope("other", env(P, 1, { heartbeat: {} }), 0);
    expect(h.core.stats().ignoredMessages).toBe(5);
    expect(h.metrics.total("ectp_consumer_ignored_messages_total")).toBe(5);
  });

  it("[C10][I1] bytes that cannot even be read (a view whose every read throws a value that cannot be turned into a string) are ignored as malformed, never thrown", () => {
    const h = makeConsumer();
    const unreadable = new Proxy(new Uint8Array(8), {
      get() {
        throw Object.create(null);
      },
    });
    expect(() => h.core.handleMessage(P, unreadable, 0)).not.toThrow();
    expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "malformed"])).toBe(1);
    expect(h.core.poll(0)).toEqual([]);
  });

  it("[C10] 64-bit fields given as Long-like { low, high } objects are read as numbers; an object without them is malformed", () => {
    const h = makeQuiet();
    const long = (low: number, high = 0) => ({ low, high }) as unknown as number;
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, { ...env(P, 1, { heartbeat: {} }), senderEpoch: {} as unknown as number }, 1);
    expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "malformed"])).toBe(1);
    const readGrant = { attemptId: long(attempt), grantId: long(5, 1), item: descriptor("h1"), leaseMs: long(30_000) };
    h.core.handleEnvelope(P, { ...env(P, 1, { readGrant }), version: { major: long(1), minor: 0 }, senderEpoch: long(1) }, 1);
    const [start] = starts(h.core.poll(1));
    if (start === undefined) throw new Error("the grant was not read");
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2);
    expect(acks(h.core.poll(2))).toEqual([[2 ** 32 + 5, OK]]);
    expect(h.core.stats().ignoredMessages).toBe(1);
  });

  it("[C10] a duplicate grant is ignored, never ACKed (that would release the live one)", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    expect(starts(grant(h, attempt, 5, "h1", 1))).toHaveLength(1);
    expect(grant(h, attempt, 5, "h1", 2)).toEqual([]);
    expect(h.core.stats()).toMatchObject({ ignoredMessages: 1, grantsHeld: 1, readsInFlight: 1 });
  });

  it("[C10] a second reject, and a reject after a grant, change nothing", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    reject(h, attempt, R.FAILURE_REASON_NOT_READY, 1);
    reject(h, attempt, R.FAILURE_REASON_NOT_FOUND, 2);
    expect(h.core.drainFailed()).toEqual([]);
    const a2 = onlyAttempt(h.core.poll(200));
    grant(h, a2, 5, "h1", 201);
    reject(h, a2, R.FAILURE_REASON_NOT_FOUND, 202);
    expect(h.core.drainFailed()).toEqual([]);
    expect(h.core.stats()).toMatchObject({ ignoredMessages: 2, readsInFlight: 1 });
  });

  it("[C10] messages a consumer does not expect, and unknown read results, are ignored", () => {
    const h = makeConsumer();
    h.core.handleEnvelope(P, env(P, 1, { readComplete: { grantId: 1, status: 1 } }), 0);
    h.core.handleEnvelope(P, env(P, 1, { readRequest: { attemptId: 1 } }), 0);
    h.core.handleEnvelope(P, env(P, 1, {}), 0);
    h.core.handleReadResult({ readId: 777, status: "done", bytesRead: 1 }, 0);
    h.core.handleReadResult(null as never, 0);
    expect(h.core.stats().ignoredMessages).toBe(5);
    expect(h.core.poll(0)).toEqual([]);
  });

  it("[C10] a copy of a grant let go while its read still runs (the producer declared gone) is a duplicate: never released under the read", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("i", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    const start = starts(grant(h, attempt, 7, "h1", 1))[0] as StartReadOutput;
    h.core.handlePeerUnreachable(P, 2); // transiently: the producer lives on and holds grant 7
    h.core.poll(2);
    expect(h.core.stats()).toMatchObject({ grantsHeld: 0, readsInFlight: 1 });
    const ignored = h.core.stats().ignoredMessages;
    expect(acks(grant(h, attempt, 7, "h1", 3))).toEqual([]); // before the fix: [[7, ABANDONED]], unpinning h1 under the read
    expect(h.core.stats().ignoredMessages).toBe(ignored + 1);
    h.core.handleReadResult({ readId: start.readId, status: "cancelled" }, 4);
    h.core.poll(4);
    // Settled: a copy now is a grant nobody wants, released at once [C7].
    expect(acks(grant(h, attempt, 7, "h1", 5))).toEqual([[7, ectp.v1.CompletionStatus.COMPLETION_STATUS_ABANDONED]]);
  });

  it("[C10] a reply to the consumer's run before a restart answers no attempt of the new run (attempt ids are not reused across epochs)", () => {
    const before = makeConsumer(QUIET, 1, 1);
    before.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const old = onlyAttempt(before.core.poll(0));
    // The restart: epoch 2, the same engine request; the old run's ReadReject and ReadGrant arrive late.
    const after = makeConsumer(QUIET, 1, 2);
    after.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 10);
    const fresh = onlyAttempt(after.core.poll(10));
    expect(fresh).not.toBe(old);
    reject(after, old, R.FAILURE_REASON_NOT_FOUND, 11);
    expect(after.core.drainFailed()).toEqual([]);
    // Not read: released at once, as any grant no attempt of this run asked for (SPEC 4.4 step 1).
    const unasked = grant(after, old, 5, "h1", 12);
    expect(starts(unasked)).toEqual([]);
    expect(acks(unasked)).toEqual([[5, ectp.v1.CompletionStatus.COMPLETION_STATUS_ABANDONED]]);
    expect(after.core.stats()).toMatchObject({ readsInFlight: 0 });
    expect(starts(grant(after, fresh, 6, "h1", 13))).toHaveLength(1);
  });

  it("[C10] a settled outcome is never changed by late messages", () => {
    const h = makeConsumer();
    const { attempt, start } = loadOne(h, "r", "h1", 0);
    reject(h, attempt, R.FAILURE_REASON_NOT_FOUND, 10);
    h.core.handleReadResult({ readId: start.readId, status: "failed" }, 11);
    expect(decision(h.core.admit({ requestId: "r", items: [remote("i", "h1")] }, 12))).toMatchObject({ action: "ready" });
    expect(h.core.drainFailed()).toEqual([]);
  });
});

describe("[C11] bytes are verified before they are marked loaded", () => {
  function read(h: H, o: { checksum?: boolean; leaseMs?: number } = {}) {
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, o)] }, 0);
    return starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0, o))[0] as ReturnType<typeof starts>[0];
  }

  it("[C11] a matching checksum loads the item and ACKs OK", () => {
    const h = makeConsumer();
    const s = read(h, { checksum: true });
    fill(s, "h1");
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 5);
    expect(acks(h.core.poll(5))).toEqual([[8, OK]]);
    expect(h.core.stats().loadedItems).toBe(1);
  });

  it("[C11] a checksum mismatch is terminal CHECKSUM_MISMATCH and ACKs FAILED", () => {
    const h = makeConsumer();
    const s = read(h, { checksum: true });
    fill(s, "h1", true);
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 5);
    expect(acks(h.core.poll(5))).toEqual([[8, FAILED]]);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("CHECKSUM_MISMATCH");
    expect(h.pool.live.size).toBe(0);
  });

  it("[C11] unviewable bytes with a checksum count as CHECKSUM_MISMATCH, logged as not verifiable; without one only the size is checked", () => {
    const h = makeConsumer();
    h.pool.viewable = false;
    const s = read(h, { checksum: true });
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 5);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("CHECKSUM_MISMATCH");
    expect(h.logger.records.find((r) => r.message === "request failed")?.fields).toMatchObject({
      detail: expect.stringContaining("checksum not verifiable: the pool gives no view"),
    });
    // A view that is not bytes is no view: the same verdict, not an error thrown half-way [I1].
    const h3 = makeConsumer();
    h3.pool.view = () => 5 as never;
    const s3 = read(h3, { checksum: true });
    h3.core.handleReadResult({ readId: s3.readId, status: "done", bytesRead: 16 }, 5);
    expect(acks(h3.core.poll(5))).toEqual([[8, FAILED]]);
    expect(h3.core.drainFailed()[0]?.failures[0]?.reason).toBe("CHECKSUM_MISMATCH");
    expect(h3.pool.live.size).toBe(0);
    const h2 = makeConsumer();
    h2.pool.viewable = false;
    const s2 = read(h2);
    h2.core.handleReadResult({ readId: s2.readId, status: "done", bytesRead: 16 }, 5);
    expect(h2.core.stats().loadedItems).toBe(1);
  });

  // Mutant: an unviewable read is a mismatch whenever any joiner brought a checksum, the fetch's own announcement having none.
  it("[C9][C11] unviewable bytes of a fetch announced without a checksum load for its request; a joiner with a checksum alone fails", () => {
    const h = makeConsumer();
    h.pool.viewable = false;
    const s = read(h); // r: announced without a checksum
    h.core.admit({ requestId: "j", items: [remote("a", "h1", false, { checksum: true })] }, 1); // joins the fetch
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 5);
    expect(decision(h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 6))?.action).toBe("ready");
    expect(h.core.drainFailed()).toMatchObject([{ requestId: "j", failures: [{ reason: "CHECKSUM_MISMATCH" }] }]);
  });

  it("[C11] a read asks the transport for the landed bytes' CRC-32C exactly when the item has a checksum", () => {
    expect(read(makeConsumer(), { checksum: true }).crc32c).toBe(true);
    expect(read(makeConsumer()).crc32c).toBe(false);
  });

  it("[C11] a CRC-32C reported by the transport is verified instead of the bytes", () => {
    const good = crc32c(itemBytes("h1", 16));
    // The bytes are wrong, but the transport's CRC of what landed is the announced one: loaded.
    const h = makeConsumer();
    const s = read(h, { checksum: true });
    fill(s, "h1", true);
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16, crc32c: good }, 5);
    expect(acks(h.core.poll(5))).toEqual([[8, OK]]);
    expect(h.core.stats().loadedItems).toBe(1);
    // The bytes are right, but the transport says what landed hashes otherwise: a mismatch.
    const h2 = makeConsumer();
    const s2 = read(h2, { checksum: true });
    fill(s2, "h1");
    h2.core.handleReadResult({ readId: s2.readId, status: "done", bytesRead: 16, crc32c: good ^ 1 }, 5);
    expect(acks(h2.core.poll(5))).toEqual([[8, FAILED]]);
    expect(h2.core.drainFailed()[0]?.failures[0]?.reason).toBe("CHECKSUM_MISMATCH");
    // Unviewable bytes need no view when the transport reports the CRC.
    const h3 = makeConsumer();
    h3.pool.viewable = false;
    const s3 = read(h3, { checksum: true });
    h3.core.handleReadResult({ readId: s3.readId, status: "done", bytesRead: 16, crc32c: good }, 5);
    expect(h3.core.stats().loadedItems).toBe(1);
  });

  it("[C11] a reported CRC-32C that is not a 32-bit unsigned integer is ignored: the bytes are checked", () => {
    for (const bogus of [-1, 2 ** 32, 1.5, Number.NaN, "0"]) {
      const h = makeConsumer();
      const s = read(h, { checksum: true });
      fill(s, "h1", true);
      h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16, crc32c: bogus as number }, 5);
      expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("CHECKSUM_MISMATCH");
    }
  });

  it("[C11] a wrong byte count is SIZE_MISMATCH", () => {
    const h = makeConsumer();
    const s = read(h);
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 15 }, 5);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("SIZE_MISMATCH");
  });

  it("[C11] a grant whose size differs from the announcement is ACKed FAILED, SIZE_MISMATCH", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const out = grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0, { size: 32 });
    expect(acks(out)).toEqual([[8, FAILED]]);
    expect(starts(out)).toEqual([]);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("SIZE_MISMATCH");
  });

  it("[C11] a grant naming another item is ACKed FAILED, INVALID_ANNOUNCEMENT; one of another epoch EPOCH_CHANGED", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 0);
    const [a1, a2] = sent(h.core.poll(0), "readRequest").map((o) => Number(o.envelope.readRequest?.attemptId));
    expect(acks(grant(h, a1 as number, 8, "other", 1))).toEqual([[8, FAILED]]);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("INVALID_ANNOUNCEMENT");
    const h2 = makeConsumer();
    h2.core.admit({ requestId: "r", items: [remote("b", "h2")] }, 0);
    const b1 = onlyAttempt(h2.core.poll(0));
    h2.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: b1, grantId: 9, item: descriptor("h2", { epoch: 2 }) } }), 1);
    expect(acks(h2.core.poll(1))).toEqual([[9, FAILED]]);
    expect(h2.core.drainFailed()[0]?.failures[0]?.reason).toBe("EPOCH_CHANGED");
    expect(a2).toBeGreaterThan(0);
  });

  it("[C11] a grant whose key leaves out the fingerprint (the all-default one) or names another one names another item: ACKed FAILED, INVALID_ANNOUNCEMENT", () => {
    const contentHash = new TextEncoder().encode("h1");
    for (const key of [{ contentHash }, { contentHash, fingerprint: { ...FP, model: "other" } }]) {
      const h = makeQuiet();
      h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
      h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: onlyAttempt(h.core.poll(0)), grantId: 8, item: { ...descriptor("h1"), key } } }), 1);
      const out = h.core.poll(1);
      expect(starts(out)).toEqual([]);
      expect(acks(out)).toEqual([[8, FAILED]]);
      expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "INVALID_ANNOUNCEMENT", attempts: 1 }] }]);
    }
  });

  it("[C11] a grant whose checksum names an unknown algorithm is ACKed FAILED, INVALID_ANNOUNCEMENT: its bytes could not be verified", () => {
    const h = makeQuiet();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const item = { ...descriptor("h1"), checksum: { algorithm: 7, value: new Uint8Array(4) } };
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: onlyAttempt(h.core.poll(0)), grantId: 8, item } }), 1);
    const out = h.core.poll(1);
    expect(starts(out)).toEqual([]);
    expect(acks(out)).toEqual([[8, FAILED]]);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("INVALID_ANNOUNCEMENT");
  });

  it("[C11][I1] a grant whose descriptor throws when read is ACKed FAILED, INVALID_ANNOUNCEMENT (its size unknown, not SIZE_MISMATCH), never thrown", () => {
    for (const field of ["sizeBytes", "key"]) {
      const h = makeQuiet();
      h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
      const item = Object.defineProperty(descriptor("h1"), field, {
        get() {
          throw new Error("hostile getter");
        },
      });
      h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: onlyAttempt(h.core.poll(0)), grantId: 8, item } }), 1);
      const out = h.core.poll(1);
      expect(starts(out), field).toEqual([]);
      expect(acks(out), field).toEqual([[8, FAILED]]);
      expect(h.core.drainFailed()[0]?.failures[0]?.reason, field).toBe("INVALID_ANNOUNCEMENT");
      expect(h.core.stats().ignoredMessages, field).toBe(0);
    }
  });

  it("[C11] a grant naming the announced key, size and epoch is read though its other fields differ (a shape): from its own location, verified against its own checksum", () => {
    for (const corrupt of [false, true]) {
      const h = makeQuiet();
      h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0); // announced without a checksum
      const item = { ...descriptor("h1", { checksum: true, location: new Uint8Array([7, 7]) }), shape: [2, 8] };
      h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: onlyAttempt(h.core.poll(0)), grantId: 8, item } }), 1);
      const [start] = starts(h.core.poll(1));
      if (start === undefined) throw new Error("the grant was not read");
      expect(start.source).toEqual(new Uint8Array([7, 7]));
      expect(start.crc32c).toBe(true);
      fill(start, "h1", corrupt);
      h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2);
      expect(acks(h.core.poll(2))).toEqual([[8, corrupt ? FAILED : OK]]);
      expect(h.core.drainFailed().map((f) => f.failures[0]?.reason)).toEqual(corrupt ? ["CHECKSUM_MISMATCH"] : []);
      expect(h.core.stats().loadedItems).toBe(corrupt ? 0 : 1);
    }
  });

  it("[C10][C11] a full read through encoded bytes (handleMessage) loads the item", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { checksum: true })] }, 0);
    const attemptId = onlyAttempt(h.core.poll(0));
    const bytes = encodeEnvelope(
      env(P, 1, { readGrant: { attemptId, grantId: 4, item: descriptor("h1", { checksum: true }), leaseMs: 30_000 } }),
    );
    h.core.handleMessage(P, bytes, 1);
    const s = starts(h.core.poll(1))[0] as ReturnType<typeof starts>[0];
    fill(s, "h1");
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 2);
    const out = h.core.poll(2);
    expect(acks(out)).toEqual([[4, OK]]);
    for (const o of out) if (o.type === "send") expect(encodeEnvelope(o.envelope).length).toBeGreaterThan(0);
    expect(decision(h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { checksum: true })] }, 3))).toEqual({
      action: "ready",
      itemId: "a",
      destination: s.destination,
    });
  });

  it("[C11] a grant's shorter lease shortens the read deadline to lease - margin", () => {
    const h = makeConsumer();
    const s = read(h, { leaseMs: 10_000 });
    fill(s, "h1");
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 5_000); // lease 10 s - margin 5 s
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("LEASE_EXPIRED");
    expect(h.core.stats().loadedItems).toBe(0);
  });

  it("[C11] the lease is the smaller of the grant's lease_ms (0 meaning 30 000) and the consumer's own", () => {
    // lease_ms 0 is 30 s, not the consumer's longer 60 s: the deadline is 30 s - 5 s.
    const h = makeConsumer({ leaseMs: 60_000, transferTimeoutMs: 50_000 });
    const s = read(h, { leaseMs: 0 });
    fill(s, "h1");
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 25_000);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("LEASE_EXPIRED");
    // A grant's 100 s lease is cut to the consumer's 30 s.
    const h2 = makeConsumer({ leaseMs: 30_000, transferTimeoutMs: 25_000 });
    const s2 = read(h2, { leaseMs: 100_000 });
    fill(s2, "h1");
    h2.core.handleReadResult({ readId: s2.readId, status: "done", bytesRead: 16 }, 25_000);
    expect(h2.core.drainFailed()[0]?.failures[0]?.reason).toBe("LEASE_EXPIRED");
    expect(h.core.stats().loadedItems + h2.core.stats().loadedItems).toBe(0);
  });

  it("[C8] a read unsettled at its deadline ends LEASE_EXPIRED when the lease deadline was the earlier, else TRANSFER_TIMEOUT", () => {
    const h = makeConsumer();
    const s = read(h, { leaseMs: 10_000 });
    const out = h.core.poll(5_000); // lease 10 s - margin 5 s, before the 20 s transfer timeout
    expect(out.filter((o) => o.type === "cancel-read")).toEqual([{ type: "cancel-read", readId: s.readId }]);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("LEASE_EXPIRED");
    const h2 = makeConsumer({ heartbeatIntervalMs: 10_000 }); // the silent producer is not declared gone before 30 s
    read(h2);
    h2.core.poll(20_000);
    expect(h2.core.drainFailed()[0]?.failures[0]?.reason).toBe("TRANSFER_TIMEOUT");
  });

  it("[C11] a read reported after its transfer timeout (before the poll) is never loaded", () => {
    const h = makeConsumer();
    const s = read(h);
    fill(s, "h1");
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 20_000);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("TRANSFER_TIMEOUT");
  });

  it("[C11] a grant lease shorter than the safety margin is refused as LEASE_EXPIRED", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const out = grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0, { leaseMs: 4_000 });
    expect(acks(out)).toEqual([[8, FAILED]]);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("LEASE_EXPIRED");
  });

  it("[C11] configuration is rejected unless transferTimeoutMs <= leaseMs - leaseSafetyMarginMs", () => {
    const make = (config: object, extra: object = {}) => () =>
      new ConsumerCore({ id: "c", epoch: 1, fingerprint: FP, destinations: new TestPool(), config, ...extra });
    expect(make({ transferTimeoutMs: 26_000 })).toThrow(
      "[INVALID_CONFIG] config.transferTimeoutMs (26000) must be <= leaseMs - leaseSafetyMarginMs (30000 - 5000 = 25000) so a read ends before the producer may reuse the memory [C11]; lower transferTimeoutMs or raise leaseMs.",
    );
    expect(make({ waitBudgetMs: -1 })).toThrow(
      "[INVALID_CONFIG] config.waitBudgetMs must be a positive integer number of milliseconds; got -1. Omit it to use the default 60000.",
    );
    expect(make({ grantWaitMs: Number.POSITIVE_INFINITY })).toThrow(/grantWaitMs must be a positive integer/);
    expect(make({ waitBudgetMs: 0.5 })).toThrow(/waitBudgetMs must be a positive integer/);
    expect(make({ backoffInitialMs: 5_000, backoffMaxMs: 100 })).toThrow(
      "[INVALID_CONFIG] config.backoffInitialMs (5000) must be <= backoffMaxMs (100) [C11]; lower backoffInitialMs or raise backoffMaxMs.",
    );
    expect(make({ quarantineCapMs: 0 })).toThrow(/quarantineCapMs must be a positive integer number of milliseconds \(or Infinity: no cap\)/);
    expect(make({ quarantineCapMs: Number.POSITIVE_INFINITY })).not.toThrow();
    // [P8] the interval travels in every Hello as a uint32
    expect(make({ heartbeatIntervalMs: 2 ** 32 })).toThrow(/config\.heartbeatIntervalMs must fit in 32 bits/);
    expect(make({ heartbeatIntervalMs: 2 ** 32 - 1 })).not.toThrow();
    expect(make({}, { epoch: 0 })).toThrow(/options\.epoch must be a positive integer/);
    expect(make({}, { id: "" })).toThrow(/options\.id must be a non-empty string/);
    expect(make({ transferTimeoutMs: 25_000 })).not.toThrow();
  });
});

describe("[P8] epochs and heartbeats on the consumer side", () => {
  it("[P8] a newer producer epoch disconnects, and old-epoch attempts end EPOCH_CHANGED", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { metadata: new Uint8Array([5]) })] }, 0);
    h.core.poll(0);
    h.core.handleEnvelope(P, env(P, 2, { hello: { role: 1, transportMetadata: new Uint8Array([6]) } }), 1);
    const out = h.core.poll(1);
    expect(out.filter((o) => o.type === "disconnect-peer")).toEqual([{ type: "disconnect-peer", peerId: P }]);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("EPOCH_CHANGED");
    // A new announcement in the new epoch reconnects with the Hello's metadata, then says Hello again.
    h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { epoch: 2 })] }, 2);
    const again = h.core.poll(2);
    expect(again[0]).toEqual({ type: "connect-peer", peerId: P, epoch: 2, metadata: new Uint8Array([6]) });
    expect(sent(again, "hello")).toHaveLength(1);
  });

  it("[C1][P8] a newer epoch's announcement moves a fetch not yet granted to that epoch: one fetch, every waiter loaded", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", false, { metadata: new Uint8Array([5]), checksum: true })] }, 0);
    const first = h.core.poll(0);
    expect(first[0]).toEqual({ type: "connect-peer", peerId: P, epoch: 1, metadata: new Uint8Array([5]) });
    const old = onlyAttempt(first);
    // The producer restarted before answering: the orchestrator now announces its epoch 2.
    expect(decision(h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { epoch: 2, metadata: new Uint8Array([6]), checksum: true })] }, 10))?.action).toBe("defer");
    const moved = h.core.poll(10);
    expect(moved[0]).toEqual({ type: "connect-peer", peerId: P, epoch: 2, metadata: new Uint8Array([6]) });
    expect(sent(moved, "hello")).toHaveLength(1);
    const attempt = onlyAttempt(moved);
    expect(attempt).not.toBe(old);
    expect(h.core.stats().fetches).toBe(1); // still single flight [C9]
    expect(h.metrics.total("ectp_consumer_retries_total", ["reason", "EPOCH_CHANGED"])).toBe(1);
    // A late grant for the dropped attempt is released at once; the new epoch's grant is read.
    expect(acks(grant(h, old, 3, "h1", 11))).toEqual([[3, ectp.v1.CompletionStatus.COMPLETION_STATUS_ABANDONED]]);
    const s = starts(grant(h, attempt, 4, "h1", 12, { epoch: 2, checksum: true }))[0] as StartReadOutput;
    fill(s, "h1");
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 13);
    for (const id of ["r1", "r2"]) {
      const announced = id === "r1" ? 1 : 2;
      expect(decision(h.core.admit({ requestId: id, items: [remote("a", "h1", false, { epoch: announced, checksum: true })] }, 14))?.action).toBe("ready");
      h.core.finishRequest(id, 15);
    }
    expect(h.core.drainFailed()).toEqual([]);
    h.core.poll(15);
    expectIdle(h);
  });

  it("[C1][C11] a fetch moved to a newer epoch still checks its earlier waiters against their own checksums", () => {
    const h = makeConsumer(QUIET);
    const stale = announce("h1", { checksum: true });
    const value = stale.item?.checksum?.value as Uint8Array;
    (stale.item?.checksum as { value: Uint8Array }).value = value.map((b) => b ^ 0xff); // r1's announcement disagrees with the bytes
    h.core.admit({ requestId: "r1", items: [{ itemId: "a", announcement: stale, hasModelInput: false }] }, 0);
    h.core.poll(0);
    h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { epoch: 2, checksum: true })] }, 1);
    const s = starts(grant(h, onlyAttempt(h.core.poll(1)), 4, "h1", 2, { epoch: 2, checksum: true }))[0] as StartReadOutput;
    fill(s, "h1");
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 3);
    expect(decision(h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { epoch: 2, checksum: true })] }, 4))?.action).toBe("ready");
    expect(h.core.admit({ requestId: "r1", items: [{ itemId: "a", announcement: stale, hasModelInput: false }] }, 4)).toEqual({
      status: "failed",
      failures: [{ itemId: "a", reason: "CHECKSUM_MISMATCH", attempts: 2 }],
    });
  });

  it("[C1][P8] a newer epoch's announcement leaves a fetch whose read is in flight alone", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    const s = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 1))[0] as StartReadOutput;
    h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { epoch: 2 })] }, 2);
    expect(sent(h.core.poll(2), "readRequest")).toEqual([]);
    fill(s, "h1");
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 3);
    expect(decision(h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { epoch: 2 })] }, 4))?.action).toBe("ready");
  });

  describe("[C1][P8] a greater epoch announced while a read of the older one is in flight", () => {
    /** r1 reads "h1" at epoch 1 (read `old`); r2 then brings the announcement of epoch 2. */
    const restartDuringRead = (config = {}) => {
      const h = makeConsumer({ ...QUIET, backoffInitialMs: 10, backoffMaxMs: 10, ...config });
      h.core.admit({ requestId: "r1", items: [remote("a", "h1", false, { checksum: true })] }, 0);
      const old = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 1))[0] as StartReadOutput;
      expect(decision(h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { epoch: 2, metadata: new Uint8Array([6]), checksum: true })] }, 2))?.action).toBe("defer");
      expect(sent(h.core.poll(2), "readRequest")).toEqual([]); // the read in flight goes on
      return { h, old };
    };
    /** The retry at epoch 2 after the backoff: granted, read, both requests ready, nothing failed. */
    const loadsAtEpoch2 = (h: ReturnType<typeof makeConsumer>, at: number) => {
      const out = h.core.poll(at);
      expect(out).toContainEqual({ type: "connect-peer", peerId: P, epoch: 2, metadata: new Uint8Array([6]) });
      const attempt = onlyAttempt(out);
      expect(sent(out, "readRequest")[0]?.envelope.readRequest?.expectedEpoch).toBe(2);
      const s = starts(grant(h, attempt, 4, "h1", at + 1, { epoch: 2, checksum: true }))[0] as StartReadOutput;
      fill(s, "h1");
      h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, at + 2);
      for (const [id, epoch] of [["r1", 1], ["r2", 2]] as const) {
        expect(decision(h.core.admit({ requestId: id, items: [remote("a", "h1", false, { epoch, checksum: true })] }, at + 3))?.action).toBe("ready");
        h.core.finishRequest(id, at + 4);
      }
      expect(h.core.drainFailed()).toEqual([]);
    };

    it("the old read failing because its producer is gone is not the end: the fetch retries at the greater epoch and every waiter loads", () => {
      const { h, old } = restartDuringRead();
      h.core.handleReadResult({ readId: old.readId, status: "failed", peerGone: true }, 3);
      expect(h.metrics.total("ectp_consumer_retries_total", ["reason", "PEER_UNREACHABLE"])).toBe(0); // counted when the retry goes out
      loadsAtEpoch2(h, 20);
      expect(h.metrics.total("ectp_consumer_retries_total", ["reason", "PEER_UNREACHABLE"])).toBe(1);
      h.core.poll(30);
      expectIdle(h);
    });

    it("the old epoch's read ended by the producer's new epoch (EPOCH_CHANGED) goes on at the new epoch; its destination is held until it settles", () => {
      const { h, old } = restartDuringRead();
      h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 3);
      expect(h.core.poll(3)).toContainEqual({ type: "cancel-read", readId: old.readId });
      loadsAtEpoch2(h, 20);
      expect(h.metrics.total("ectp_consumer_retries_total", ["reason", "EPOCH_CHANGED"])).toBe(1);
      expect(h.pool.live.size).toBe(1); // the old read's destination, held until it settles [C8]
      h.core.handleReadResult({ readId: old.readId, status: "cancelled" }, 30);
      h.core.poll(30);
      expectIdle(h);
    });

    it("the older epoch refusing the handshake is not the end either: the greater epoch refused nothing", () => {
      const { h } = restartDuringRead();
      h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE } }), 3);
      expect(h.core.drainFailed()).toEqual([]);
      loadsAtEpoch2(h, 20);
    });

    it("still ends the fetch when the greater epoch is itself outdated by then, no waiter's budget is left, or that epoch refused the handshake", () => {
      const outdated = restartDuringRead();
      outdated.h.core.handleEnvelope(P, env(P, 3, { heartbeat: {} }), 3); // epoch 3: the announced 2 is gone too
      expect(outdated.h.core.drainFailed().map((f) => f.failures[0]?.reason)).toEqual(["EPOCH_CHANGED", "EPOCH_CHANGED"]);
      const late = restartDuringRead({ waitBudgetMs: 100 });
      late.h.core.handleReadResult({ readId: late.old.readId, status: "failed", peerGone: true }, 200);
      expect(late.h.core.drainFailed().map((f) => f.failures[0]?.reason)).toEqual(["BUDGET_EXHAUSTED", "BUDGET_EXHAUSTED"]);
      const refused = restartDuringRead();
      refused.h.core.handleEnvelope(P, env(P, 2, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE } }), 3);
      expect(refused.h.core.drainFailed().map((f) => f.failures[0]?.reason)).toEqual(["INCOMPATIBLE", "INCOMPATIBLE"]);
    });
  });

  it("[C1][P8] a late handshake refusal by the older epoch leaves a fetch already moved to a greater epoch going", () => {
    // SPEC 4.2: the refusal stops reads to the epoch that refused (and older ones); the fetch asks epoch 2 now.
    const h = makeQuiet();
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    h.core.poll(0); // Hello and ReadRequest to epoch 1
    h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { epoch: 2 })] }, 10);
    const moved = h.core.poll(10);
    expect(sent(moved, "hello")).toHaveLength(1); // epoch 2 greeted
    const attempt = onlyAttempt(moved);
    h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE } }), 11);
    expect(h.core.drainFailed()).toEqual([]);
    expect(sent(h.core.poll(11), "hello")).toEqual([]); // epoch 2's Hello stands: not sent again
    // Epoch 1 stays refused: a new announcement of it fails at admission.
    expect(h.core.admit({ requestId: "r3", items: [remote("b", "h2")] }, 12)).toEqual({
      status: "failed",
      failures: [{ itemId: "b", reason: "INCOMPATIBLE", attempts: 0 }],
    });
    const s = starts(grant(h, attempt, 4, "h1", 13, { epoch: 2 }))[0] as StartReadOutput;
    fill(s, "h1");
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 14);
    for (const [id, epoch] of [["r1", 1], ["r2", 2]] as const)
      expect(decision(h.core.admit({ requestId: id, items: [remote("a", "h1", false, { epoch })] }, 15))?.action).toBe("ready");
  });

  it("[C1][P8] transport metadata of a later announcement of the fetch's epoch is kept for the fetch: a retry after the peer was lost reconnects with it", () => {
    const h = makeQuiet({ backoffInitialMs: 10, backoffMaxMs: 10 });
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // announced without metadata
    const old = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 1))[0] as StartReadOutput;
    h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { epoch: 2 })] }, 2); // epoch 2, no metadata yet
    h.core.admit({ requestId: "r3", items: [remote("a", "h1", false, { epoch: 2, metadata: new Uint8Array([6]) })] }, 3);
    h.core.poll(3);
    h.core.handleReadResult({ readId: old.readId, status: "failed", peerGone: true }, 4); // declared gone: its connection (and any Hello's metadata) forgotten
    const out = h.core.poll(20);
    expect(out).toContainEqual({ type: "connect-peer", peerId: P, epoch: 2, metadata: new Uint8Array([6]) });
    expect(sent(out, "readRequest")[0]?.envelope.readRequest?.expectedEpoch).toBe(2);
  });

  it("[C1][P8] transport metadata of a joining announcement is kept for its fetch: the retry after a silent producer was declared gone reconnects with it", () => {
    const h = makeConsumer(); // heartbeats every 2 s, gone after 3 missed
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // announced without metadata
    h.core.poll(0);
    h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { metadata: new Uint8Array([5]) })] }, 1);
    expect(h.core.poll(1).filter((o) => o.type === "connect-peer")).toEqual([]); // nothing to reconnect yet
    const gone = h.core.poll(6_000); // silent: declared gone, its connection and metadata forgotten; the fetch retries
    expect(gone.filter((o) => o.type === "disconnect-peer")).toHaveLength(1);
    const retry = h.core.poll(7_000);
    expect(retry).toContainEqual({ type: "connect-peer", peerId: P, epoch: 1, metadata: new Uint8Array([5]) });
    expect(sent(retry, "readRequest")).toHaveLength(1);
  });

  it("[P8] a read of the old epoch is terminal EPOCH_CHANGED, cancelled, destination held until it settles", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const s = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0))[0] as ReturnType<typeof starts>[0];
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 1);
    const out = h.core.poll(1);
    expect(out).toContainEqual({ type: "cancel-read", readId: s.readId });
    expect(acks(out)).toEqual([]); // the old grant died with the old epoch
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("EPOCH_CHANGED");
    expect(h.pool.live.size).toBe(1);
    h.core.handleReadResult({ readId: s.readId, status: "cancelled" }, 2);
    h.core.finishRequest("r", 3);
    expectIdle(h);
  });

  it("[P8] messages from an older epoch are ignored; a stale announcement is EPOCH_CHANGED at admission", () => {
    const h = makeConsumer();
    h.core.handleEnvelope(P, env(P, 3, { heartbeat: {} }), 0);
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 0);
    expect(h.core.stats().ignoredMessages).toBe(1);
    // [C10] counted under a snake_case reason, as the producer's are (one dashboard query for both roles)
    expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "stale_epoch"])).toBe(1);
    const r = h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { epoch: 2 })] }, 1);
    expect(r).toEqual({ status: "failed", failures: [{ itemId: "a", reason: "EPOCH_CHANGED", attempts: 0 }] });
  });

  it("[P8] heartbeats go out every interval while there is business; a silent producer is gone, pre-grant work retries with a new Hello", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    h.core.poll(0);
    expect(sent(h.core.poll(2_000), "heartbeat")).toHaveLength(1);
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: 999, reason: 1 } }), 2_500); // any message counts
    expect(sent(h.core.poll(4_000), "heartbeat")).toHaveLength(1);
    const gone = h.core.poll(8_500); // 3 x 2000 after 2500
    expect(gone.filter((o) => o.type === "disconnect-peer")).toHaveLength(1);
    expect(h.core.drainFailed()).toEqual([]);
    const retry = h.core.poll(9_000);
    expect(sent(retry, "hello")).toHaveLength(1); // reconnect without restart
    expect(sent(retry, "readRequest")).toHaveLength(1);
  });

  it.each([
    ["polled while idle", true],
    ["not polled while idle (the engine stalled)", false],
  ])("[P8] silence while idle does not count against new business, %s: judged from its start", (_, polledWhileIdle) => {
    const h = makeConsumer(); // heartbeats every 2 s, gone after 3 missed
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    const s = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1))[0];
    if (!s) throw new Error("no read started");
    fill(s, "h1");
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 2);
    h.core.poll(2);
    h.core.finishRequest("r1", 3); // no business left with P, which falls silent
    if (polledWhileIdle) h.core.poll(2_000);
    h.core.admit({ requestId: "r2", items: [remote("b", "h2")] }, 50_000);
    const out = h.core.poll(50_000);
    expect(sent(out, "readRequest")).toHaveLength(1);
    expect(out.filter((o) => o.type === "disconnect-peer")).toEqual([]);
    expect(sent(out, "heartbeat")).toEqual([]); // the ReadRequest just went out
    expect(sent(h.core.poll(52_000), "heartbeat")).toHaveLength(1);
    // Silent from the start of this business on, P is gone 3 intervals later.
    expect(h.core.poll(55_999).filter((o) => o.type === "disconnect-peer")).toEqual([]);
    expect(h.core.poll(56_000).filter((o) => o.type === "disconnect-peer")).toHaveLength(1);
  });

  // Mutant: an idle producer's connection is kept for ever (a consumer that outlived 2,000 encoder
  // instances held 2,000 connections; on NIXL, 2,000 loaded remote agents).
  it("[P8] a producer without business for idlePeerMs is let go, and the next fetch connects and greets it again", () => {
    const h = makeConsumer(); // heartbeats every 2 s; idlePeerMs 300 000
    const meta = { metadata: new Uint8Array([5]) };
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", false, meta)] }, 0);
    const first = h.core.poll(0);
    expect(first.filter((o) => o.type === "connect-peer")).toHaveLength(1);
    const s = starts(grant(h, onlyAttempt(first), 7, "h1", 1))[0];
    if (!s) throw new Error("no read started");
    fill(s, "h1");
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 2);
    h.core.poll(2);
    h.core.finishRequest("r1", 3);
    const types = (out: ReturnType<typeof h.core.poll>) => out.map((o) => (o.type === "send" ? Object.keys(o.envelope).find((k) => !["version", "senderId", "senderEpoch"].includes(k)) : o.type));
    expect(types(h.core.poll(2_000))).toEqual([]); // idle from here: no heartbeat
    expect(types(h.core.poll(301_999))).toEqual([]);
    expect(h.core.poll(302_000)).toEqual([{ type: "disconnect-peer", peerId: P }]);
    expect(h.core.nextDeadline()).toBeUndefined();
    h.core.admit({ requestId: "r2", items: [remote("b", "h2", false, meta)] }, 400_000);
    expect(types(h.core.poll(400_000))).toEqual(["connect-peer", "hello", "readRequest"]);
  });

  it("[P8] business resumed before idlePeerMs keeps the connection: idleness is counted from the end of the latest business", () => {
    const h = makeConsumer();
    const fetchAndFinish = (id: string, hash: string, at: number) => {
      h.core.admit({ requestId: id, items: [remote(id, hash, false, { metadata: new Uint8Array([5]) })] }, at);
      const s = starts(grant(h, onlyAttempt(h.core.poll(at)), 7, hash, at))[0];
      if (!s) throw new Error("no read started");
      fill(s, hash);
      h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, at);
      h.core.poll(at);
      h.core.finishRequest(id, at);
    };
    fetchAndFinish("r1", "h1", 0);
    h.core.poll(2_000); // idle from 2 000
    fetchAndFinish("r2", "h2", 200_000);
    h.core.poll(202_000); // idle again from 202 000
    expect(h.core.poll(302_000).filter((o) => o.type === "disconnect-peer")).toEqual([]);
    expect(h.core.poll(502_000).filter((o) => o.type === "disconnect-peer")).toHaveLength(1);
  });

  it("[P8] a producer silent during a read is terminal PEER_UNREACHABLE; the destination waits for settlement", () => {
    const h = makeConsumer({ transferTimeoutMs: 20_000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const s = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 0))[0] as ReturnType<typeof starts>[0];
    const out = h.core.poll(6_000);
    expect(out).toContainEqual({ type: "cancel-read", readId: s.readId });
    expect(out).toContainEqual({ type: "disconnect-peer", peerId: P });
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("PEER_UNREACHABLE");
    expect(h.pool.live.size).toBe(1);
    h.core.handleReadResult({ readId: s.readId, status: "failed", peerGone: true }, 7_000);
    h.core.finishRequest("r", 7_001);
    expectIdle(h);
    expect(h.core.poll(100_000)).toEqual([]); // no business, no heartbeats
  });

  it("[P8] a read failed with peerGone ends the producer as if reported unreachable: no ReadComplete to it, its other reads end now", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", true)] }, 0);
    h.core.admit({ requestId: "r2", items: [remote("b", "h2", true)] }, 0);
    const attempts = sent(h.core.poll(0), "readRequest").map((o) => Number(o.envelope.readRequest?.attemptId));
    const s1 = starts(grant(h, attempts[0] as number, 11, "h1", 1))[0] as ReturnType<typeof starts>[0];
    const s2 = starts(grant(h, attempts[1] as number, 12, "h2", 1))[0] as ReturnType<typeof starts>[0];
    h.core.handleReadResult({ readId: s1.readId, status: "failed", peerGone: true, error: "REMOTE_DISCONNECT" }, 2);
    const out = h.core.poll(2);
    expect(acks(out)).toEqual([]); // nothing to a gone peer
    expect(out.filter((o) => o.type === "cancel-read").map((o) => (o as { readId: number }).readId)).toEqual([s2.readId]);
    for (const r of ["r1", "r2"]) expect(decision(h.core.admit({ requestId: r, items: [remote(r === "r1" ? "a" : "b", r === "r1" ? "h1" : "h2", true)] }, 2))).toMatchObject({ action: "local-encode", reason: "PEER_UNREACHABLE" });
    h.core.handleReadResult({ readId: s2.readId, status: "cancelled" }, 3);
    for (const r of ["r1", "r2"]) h.core.finishRequest(r, 3);
    expectIdle(h);
  });

  it("[P8][C7] an abandoned read failed with peerGone sends no ABANDONED ReadComplete to the gone producer", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 11, "h1", 1))[0] as ReturnType<typeof starts>[0];
    h.core.finishRequest("r", 2); // abandoned: ACK ABANDONED once it settles
    h.core.poll(2);
    h.core.handleReadResult({ readId: start.readId, status: "failed", peerGone: true }, 3);
    expect(acks(h.core.poll(3))).toEqual([]);
    expectIdle(h);
  });

  it("[P8] handlePeerUnreachable acts at once: pre-grant work retries", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const a1 = onlyAttempt(h.core.poll(0));
    h.core.handlePeerUnreachable(P, 10);
    expect(h.core.poll(10)).toContainEqual({ type: "disconnect-peer", peerId: P });
    const a2 = onlyAttempt(h.core.poll(200));
    expect(a2).toBeGreaterThan(a1);
    h.core.handlePeerUnreachable("never-seen", 300);
    expect(h.core.poll(300)).toEqual([]);
  });

  // Mutant: peerGone labels every departure "silent" (or counts none).
  it("[P8] a producer gone is counted once, by its cause: unreachable or silent", () => {
    const gone = (h: H, cause: string) => h.metrics.total("ectp_consumer_peers_gone_total", ["cause", cause]);
    const u = makeConsumer();
    u.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    u.core.poll(0);
    u.core.handlePeerUnreachable(P, 10);
    u.core.poll(10);
    expect([gone(u, "unreachable"), gone(u, "silent")]).toEqual([1, 0]);
    const s = makeConsumer({ waitBudgetMs: 60_000 });
    s.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    s.core.poll(0);
    let disconnected = false;
    for (let t = 1000; t <= 20_000 && !disconnected; t += 1000) disconnected = s.core.poll(t).some((o) => o.type === "disconnect-peer");
    expect(disconnected).toBe(true);
    expect([gone(s, "unreachable"), gone(s, "silent")]).toEqual([0, 1]);
  });

  it("[P8] a HandshakeReject ends that producer's fetches with its reason", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 0);
    h.core.poll(0);
    h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE } }), 1);
    expect(decision(h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 2))).toEqual({
      action: "local-encode",
      itemId: "a",
      reason: "INCOMPATIBLE",
    });
    // No reads to it in that epoch.
    h.core.admit({ requestId: "r2", items: [remote("b", "h2", true)] }, 3);
    expect(sent(h.core.poll(3), "readRequest")).toHaveLength(0);
  });

  it("[V1][P8] a HandshakeReject of another major version ends reads to that producer epoch, however large the epoch", () => {
    const h = makeConsumer();
    const epoch = 1_700_000_000_000;
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { epoch })] }, 0);
    expect(sent(h.core.poll(0), "readRequest")).toHaveLength(1);
    const reject = { version: { major: 2, minor: 0 }, senderId: P, senderEpoch: epoch, handshakeReject: { reason: R.FAILURE_REASON_VERSION } };
    h.core.handleMessage(P, encodeEnvelope(reject), 1);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("VERSION");
    // SPEC.md 4.2: no Hello and no ReadRequest to it until a greater epoch is seen.
    const again = h.core.admit({ requestId: "r2", items: [remote("b", "h2", false, { epoch })] }, 2);
    expect(again.status).toBe("failed");
    const out = h.core.poll(2);
    expect([...sent(out, "readRequest"), ...sent(out, "hello")]).toEqual([]);
  });

  // Mutant: onHandshakeReject records rejectedEpoch 0 (no refusal at all) when the refusal names no epoch and none is known.
  it("[V1][P8] a VERSION HandshakeReject without a sender epoch, before anything of our version was heard, still ends reads to that producer", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    expect(sent(h.core.poll(0), "readRequest")).toHaveLength(1);
    const reject = { version: { major: 2, minor: 0 }, senderId: P, handshakeReject: { reason: R.FAILURE_REASON_VERSION } };
    h.core.handleMessage(P, ectp.v1.Envelope.encode(reject).finish(), 1);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("VERSION");
    // No Hello and no ReadRequest to it for the same (first) epoch.
    const again = h.core.admit({ requestId: "r2", items: [remote("b", "h2", true)] }, 2);
    expect(again).toEqual({ status: "admitted", items: [{ action: "local-encode", itemId: "b", reason: "VERSION" }] });
    const out = h.core.poll(2);
    expect([...sent(out, "readRequest"), ...sent(out, "hello")]).toEqual([]);
  });

  it("[V1][P8] a VERSION HandshakeReject without a sender epoch, before anything of our version was heard, refuses the epoch the fetches asked of it, not epoch 1 only", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { epoch: 3 })] }, 0);
    expect(sent(h.core.poll(0), "readRequest")).toHaveLength(1);
    const reject = { version: { major: 2, minor: 0 }, senderId: P, handshakeReject: { reason: R.FAILURE_REASON_VERSION } };
    h.core.handleMessage(P, ectp.v1.Envelope.encode(reject).finish(), 1);
    expect(h.core.drainFailed()[0]?.failures[0]?.reason).toBe("VERSION");
    // Epoch 3 was refused: no Hello and no ReadRequest to it again.
    const again = h.core.admit({ requestId: "r2", items: [remote("b", "h2", true, { epoch: 3 })] }, 2);
    expect(again).toEqual({ status: "admitted", items: [{ action: "local-encode", itemId: "b", reason: "VERSION" }] });
    const out = h.core.poll(2);
    expect([...sent(out, "readRequest"), ...sent(out, "hello")]).toEqual([]);
    // A greater epoch refused nothing yet: it is asked.
    h.core.admit({ requestId: "r3", items: [remote("c", "h3", false, { epoch: 4 })] }, 3);
    expect(sent(h.core.poll(3), "readRequest")).toHaveLength(1);
  });

  it("[V1][P8] a VERSION HandshakeReject without a sender epoch, arriving after the fetches ended, refuses the epoch our Hello greeted (SPEC.md 4.2)", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { epoch: 3 })] }, 0);
    const out0 = h.core.poll(0);
    expect([sent(out0, "hello"), sent(out0, "readRequest")].map((m) => m.length)).toEqual([1, 1]);
    h.core.finishRequest("r", 1); // no fetch left; the greeting of epoch 3 still stands
    const reject = { version: { major: 2, minor: 0 }, senderId: P, handshakeReject: { reason: R.FAILURE_REASON_VERSION } };
    h.core.handleMessage(P, ectp.v1.Envelope.encode(reject).finish(), 2);
    // The refusal answered that Hello: epoch 3 (not epoch 1 only) is refused, so no second Hello is spent on it.
    const again = h.core.admit({ requestId: "r2", items: [remote("b", "h2", true, { epoch: 3 })] }, 3);
    expect(again).toEqual({ status: "admitted", items: [{ action: "local-encode", itemId: "b", reason: "VERSION" }] });
    const out = h.core.poll(3);
    expect([...sent(out, "readRequest"), ...sent(out, "hello")]).toEqual([]);
  });

  it("[C10] the peer table does not grow with every sender ever heard from (SPEC.md section 16)", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    for (let i = 0; i < 10_000; i++) h.core.handleEnvelope(`stranger-${i}`, env(`stranger-${i}`, 1, { heartbeat: {} }), 1);
    // (The table is private: read through a cast, there is no public counter of idle records.)
    expect((h.core as unknown as { peers: Map<string, unknown> }).peers.size).toBeLessThanOrEqual(2_048);
    // The producer with business survives every sweep.
    expect(starts(grant(h, attempt, 8, "h1", 2))).toHaveLength(1);
  });

  it("[P8] a producer Hello with metadata connects once per epoch", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const first = h.core.poll(0);
    expect(first.filter((o) => o.type === "connect-peer")).toEqual([]);
    const hello = env(P, 1, { hello: { role: 1, transportMetadata: new Uint8Array([4]) } });
    h.core.handleEnvelope(P, hello, 1);
    h.core.handleEnvelope(P, hello, 2);
    const out: CoreOutput[] = h.core.poll(2);
    expect(out).toEqual([{ type: "connect-peer", peerId: P, epoch: 1, metadata: new Uint8Array([4]) }]);
  });
});

describe("producer epochs, refusals and liveness [P8][V1]", () => {
  const producerHello = (intervalMs?: number) => ({ hello: { role: ectp.v1.Role.ROLE_PRODUCER, heartbeatIntervalMs: intervalMs } });

  it.each([
    ["a HandshakeReject", "INCOMPATIBLE", (h: ReturnType<typeof makeConsumer>) => h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE } }), 2)],
    ["the producer's new epoch", "EPOCH_CHANGED", (h: ReturnType<typeof makeConsumer>) => h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 2)],
    ["the producer reported unreachable", "PEER_UNREACHABLE", (h: ReturnType<typeof makeConsumer>) => h.core.handlePeerUnreachable(P, 2)],
    ["a read failed by its producer's loss", "PEER_UNREACHABLE", (h: ReturnType<typeof makeConsumer>, readId: number) => h.core.handleReadResult({ readId, status: "failed", peerGone: true }, 2)],
  ])("[C6] %s ending two fetches of one request reports both items in its one failure report", (_, reason, end) => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("b", "h2")] }, 0);
    const attempts = sent(h.core.poll(0), "readRequest").map((o) => Number(o.envelope.readRequest?.attemptId));
    // Both granted and reading (a refusal or a new epoch would end them before a grant too).
    const reads = attempts.map((attempt, i) => (starts(grant(h, attempt, 7 + i, i === 0 ? "h1" : "h2", 1))[0] as StartReadOutput).readId);
    end(h, reads[0] as number);
    expect(h.core.drainFailed()).toEqual([
      {
        requestId: "r",
        failures: [
          { itemId: "a", reason, attempts: 1 },
          { itemId: "b", reason, attempts: 1 },
        ],
      },
    ]);
  });

  // Mutant: a refusal outlives the epoch that sent it (the record of every producer that once
  // refused us and restarted is kept for good).
  it("[P8] a producer that refused us and restarted keeps its record for the refusal (SPEC.md 4.2: the refused epoch is never asked again); idle strangers are released", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 0);
    h.core.poll(0);
    h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE } }), 1);
    h.core.finishRequest("r", 1);
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 2); // restarted: the refusal was epoch 1's
    h.core.poll(1_000_000); // every timer of P's has fired
    for (let i = 0; i < 10_000; i++) h.core.handleEnvelope(`stranger-${i}`, env(`stranger-${i}`, 1, { heartbeat: {} }), 1_000_000);
    const peers = (h.core as unknown as { peers: Map<string, unknown> }).peers;
    expect(peers.has(P)).toBe(true);
    expect(peers.size).toBeLessThan(10_000); // (strangers with nothing left to do are swept, SPEC.md 3.7)
  });

  // Mutant: the refusal leaves our Hello outstanding, so a second HandshakeReject is taken as an answer.
  it("[P8][C10] a second HandshakeReject of a refused epoch is ignored: the first refusal's reason stands", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", true)] }, 0);
    h.core.poll(0);
    h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE } }), 1);
    const ignored = h.core.stats().ignoredMessages;
    h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason: R.FAILURE_REASON_INTERNAL } }), 2);
    expect(h.core.stats().ignoredMessages).toBe(ignored + 1);
    expect(decision(h.core.admit({ requestId: "r2", items: [remote("b", "h2", true)] }, 3))).toMatchObject({
      action: "local-encode",
      reason: "INCOMPATIBLE",
    });
  });

  // Mutant: handlePeerUnreachable for a producer we have no business with disconnects it, counts
  // and warns of an outage, and forgets the metadata its Hello carried.
  it("[P8] a producer reported unreachable while we have no business with it: nothing to end, and its Hello's metadata is kept", () => {
    const h = makeConsumer();
    const meta = new Uint8Array([4]);
    h.core.handleEnvelope(P, env(P, 1, { hello: { role: 1, transportMetadata: meta } }), 0);
    expect(h.core.poll(0)).toEqual([]);
    h.core.handlePeerUnreachable(P, 1);
    expect(h.core.poll(1)).toEqual([]);
    expect(h.metrics.total("ectp_consumer_peers_gone_total")).toBe(0);
    expect(h.logger.at("warn")).toEqual([]);
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 2); // an announcement without metadata
    expect(h.core.poll(2).filter((o) => o.type === "connect-peer")).toEqual([{ type: "connect-peer", peerId: P, epoch: 1, metadata: meta }]);
  });

  // Mutant: letting go of an idle producer keeps its Hello as heard, so the Hello answering our
  // next greeting is ignored as a duplicate.
  it("[P8][C10] the Hello answering the greeting after an idle producer was let go is applied, not ignored as a duplicate", () => {
    const h = makeConsumer(); // idlePeerMs 300 000
    const hello = env(P, 1, { hello: { role: 1, transportMetadata: new Uint8Array([5]) } });
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, hello, 1);
    const s = starts(grant(h, attempt, 7, "h1", 1))[0];
    if (!s) throw new Error("no read started");
    fill(s, "h1");
    h.core.handleReadResult({ readId: s.readId, status: "done", bytesRead: 16 }, 2);
    h.core.poll(2);
    h.core.finishRequest("r1", 3);
    h.core.poll(2_000);
    expect(h.core.poll(302_000)).toEqual([{ type: "disconnect-peer", peerId: P }]);
    h.core.admit({ requestId: "r2", items: [remote("b", "h2")] }, 400_000);
    expect(sent(h.core.poll(400_000), "hello")).toHaveLength(1);
    const ignored = h.core.stats().ignoredMessages;
    h.core.handleEnvelope(P, hello, 400_001);
    expect(h.core.stats().ignoredMessages).toBe(ignored);
    expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "duplicate_hello"])).toBe(0);
  });

  it("[P8][C10] a second Hello of the same producer epoch is a duplicate: its interval and metadata change nothing (SPEC 4.1)", () => {
    const h = makeConsumer({ transferTimeoutMs: 300_000, leaseMs: 400_000, waitBudgetMs: 300_000 });
    const hello = (intervalMs: number, meta: number) => env(P, 1, { hello: { role: 1, heartbeatIntervalMs: intervalMs, transportMetadata: new Uint8Array([meta]) } });
    h.core.handleEnvelope(P, hello(10_000, 4), 0);
    h.core.handleEnvelope(P, hello(500, 5), 0);
    expect(h.core.stats().ignoredMessages).toBe(1);
    // The metadata connected with is the first Hello's.
    h.core.admit({ requestId: "r", items: [{ itemId: "a", announcement: announce("h1"), hasModelInput: false }] }, 1000);
    const out = h.core.poll(1000);
    expect(out.filter((o) => o.type === "connect-peer")).toEqual([{ type: "connect-peer", peerId: P, epoch: 1, metadata: new Uint8Array([4]) }]);
    const attemptId = onlyAttempt(out);
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId, grantId: 1, item: descriptor("h1"), leaseMs: 400_000 } }), 1000);
    h.core.poll(1000);
    // Judged by the first Hello's 10 s: gone 3 x 10 s after the last message, not 3 x 2 s.
    let cancelledAt: number | undefined;
    for (let t = 1000; t <= 40_000 && cancelledAt === undefined; t += 1000)
      if (h.core.poll(t).some((o) => o.type === "cancel-read")) cancelledAt = t;
    expect(cancelledAt).toBe(31_000);
    // Gone: the Hello answering our next one is applied afresh, its metadata included.
    h.core.admit({ requestId: "r2", items: [{ itemId: "a", announcement: announce("h2"), hasModelInput: false }] }, 40_000);
    expect(sent(h.core.poll(40_000), "hello")).toHaveLength(1);
    h.core.handleEnvelope(P, hello(10_000, 6), 40_001);
    expect(h.core.poll(40_001).filter((o) => o.type === "connect-peer")).toEqual([
      { type: "connect-peer", peerId: P, epoch: 1, metadata: new Uint8Array([6]) },
    ]);
  });

  it("[P8][C10] a HandshakeReject of another major from an older epoch is stale: the current epoch's read goes on", () => {
    for (const major of [1, 2]) {
      const h = makeConsumer();
      h.core.admit({ requestId: "r", items: [{ itemId: "a", announcement: announce("h1", { epoch: 5 }), hasModelInput: false }] }, 0);
      const attemptId = onlyAttempt(h.core.poll(0));
      h.core.handleEnvelope(P, env(P, 5, { readGrant: { attemptId, grantId: 9, item: descriptor("h1", { epoch: 5 }), leaseMs: 30_000 } }), 1);
      expect(starts(h.core.poll(1))).toHaveLength(1);
      const stale = ectp.v1.Envelope.encode({ version: { major, minor: 0 }, senderId: P, senderEpoch: 3, handshakeReject: { reason: 5 } }).finish();
      h.core.handleMessage(P, stale, 2);
      expect(h.core.poll(2)).toEqual([]);
      expect(h.core.drainFailed()).toEqual([]);
      expect(h.core.stats()).toMatchObject({ fetches: 1, readsInFlight: 1, ignoredMessages: 1 });
    }
  });

  it("[P8] a producer's refusal is remembered however many other peers come and go: no ReadRequest to it in the refused epoch", () => {
    const h = makeConsumer();
    const probe = (requestId: string, now: number) => {
      const r = h.core.admit({ requestId, items: [{ itemId: "a", announcement: announce(`h-${requestId}`, { epoch: 3 }), hasModelInput: true }] }, now);
      const requests = sent(h.core.poll(now), "readRequest").length;
      h.core.finishRequest(requestId, now);
      return { decision: r.status === "admitted" ? r.items[0] : r, requests };
    };
    h.core.admit({ requestId: "r1", items: [{ itemId: "a", announcement: announce("h1", { epoch: 3 }), hasModelInput: true }] }, 0);
    h.core.poll(0);
    h.core.handleEnvelope(P, env(P, 3, { handshakeReject: { reason: ectp.v1.FailureReason.FAILURE_REASON_INCOMPATIBLE } }), 1);
    h.core.finishRequest("r1", 1);
    const refused = { decision: { action: "local-encode", itemId: "a", reason: "INCOMPATIBLE" }, requests: 0 };
    expect(probe("r2", 2)).toEqual(refused);
    h.core.poll(10_000); // the producer's peer timer runs out of business and stops
    // Idle peers are forgotten once there are many: 1,100 others, one heartbeat each.
    for (let i = 0; i < 1_100; i++) h.core.handleEnvelope(`x-${i}`, env(`x-${i}`, 1, { heartbeat: { sequence: 1 } }), 10_001);
    expect(probe("r3", 10_002)).toEqual(refused);
  });

  it("[C10] a HandshakeReject from a peer never greeted nor fetched from is unsolicited: ignored, nothing kept, later fetches go ahead", () => {
    const h = makeConsumer();
    // Refusals from 2,000 senders this consumer never spoke to.
    for (let i = 0; i < 2_000; i++)
      h.core.handleEnvelope(`x-${i}`, env(`x-${i}`, 1, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE } }), 1);
    expect(h.core.stats().ignoredMessages).toBe(2_000);
    // One from P before P was greeted (and a VERSION one from another major, after P was heard from):
    // a later announcement of P still starts its fetch (P would refuse our Hello itself).
    h.core.handleEnvelope(P, env(P, 1, { heartbeat: { sequence: 1 } }), 2);
    const versionReject = { version: { major: 2, minor: 0 }, senderId: P, senderEpoch: 1, handshakeReject: { reason: R.FAILURE_REASON_VERSION } };
    h.core.handleMessage(P, ectp.v1.Envelope.encode(versionReject).finish(), 2);
    h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason: R.FAILURE_REASON_INCOMPATIBLE } }), 2);
    h.core.admit({ requestId: "r", items: [remote("a", "h1", true)] }, 3);
    const out = h.core.poll(3);
    expect(sent(out, "hello")).toHaveLength(1);
    expect(sent(out, "readRequest")).toHaveLength(1);
  });

  it("[C1][P8] a stale announcement never starts a fetch: one added to a request at another item's budget deadline is refused before that budget is enforced", () => {
    const h = makeConsumer({ waitBudgetMs: 1000 });
    const a = { itemId: "a", announcement: announce("h1", { epoch: 2 }), hasModelInput: true };
    h.core.admit({ requestId: "r1", items: [a] }, 0);
    const attemptId = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 2, producerHello()), 1); // the producer is known at epoch 2
    h.core.handleEnvelope(P, env(P, 2, { readReject: { attemptId, reason: R.FAILURE_REASON_NOT_READY, retryable: true, retryAfterMs: 5000 } }), 2);
    h.core.poll(2);
    // At a's budget deadline the engine adds b, the same key announced at the older epoch 1, first.
    // Were b admitted, a's budget would run out first (its fetch abandoned) and b must not fetch from
    // epoch 1; a request's items are fixed (SPEC.md 3.4), so the call is refused before anything changes.
    const b = { itemId: "b", announcement: announce("h1", { epoch: 1 }), hasModelInput: true };
    expect(() => h.core.admit({ requestId: "r1", items: [b, a] }, 1000)).toThrow('items[0] ("b") was not in the request\'s first admission');
    expect(h.core.admit({ requestId: "r1", items: [a] }, 1000)).toEqual({
      status: "admitted",
      items: [{ action: "local-encode", itemId: "a", reason: "BUDGET_EXHAUSTED" }],
    });
    expect(sent(h.core.poll(1000), "readRequest")).toEqual([]);
  });

  // Mutant: classify refuses a stale announcement even when a fetch of its key is already in flight.
  it("[C1][C9][P8] an older-epoch announcement joins a fetch of its key already in flight (starting none) and is ready when it loads", () => {
    const h = makeConsumer({ waitBudgetMs: 10_000 });
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", false, { epoch: 2 })] }, 0);
    const attemptId = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 2, producerHello()), 1); // the producer is known at epoch 2
    h.core.poll(1);
    // The same key announced at the older epoch 1, without model input: it MAY join (SPEC [C1] step 3), and this core does.
    const joined = h.core.admit({ requestId: "r2", items: [remote("b", "h1", false, { epoch: 1 })] }, 2);
    expect(joined).toEqual({ status: "admitted", items: [{ action: "defer", itemId: "b" }] });
    expect(sent(h.core.poll(2), "readRequest")).toEqual([]);
    const start = starts(grant(h, attemptId, 7, "h1", 3, { epoch: 2 }))[0];
    if (!start) throw new Error("no start-read");
    fill(start, "h1");
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: start.destination.length }, 4);
    h.core.poll(4);
    expect(decision(h.core.admit({ requestId: "r2", items: [remote("b", "h1", false, { epoch: 1 })] }, 5))).toEqual({
      action: "ready",
      itemId: "b",
      destination: start.destination,
    });
    expect(h.core.drainFailed()).toEqual([]);
  });

  it("[P8] a producer is judged by the larger of our heartbeat interval and the one its Hello announced", () => {
    for (const [announced, goneAt] of [
      [10_000, 31_000], // 3 x 10 s after the last message
      [500, 7_000], // never below our own 2 s: 3 x 2 s
      [undefined, 7_000], // absent: 2 s
      [4_000_000_000, 181_000], // counted as at most 60 s (MAX_PEER_HEARTBEAT_INTERVAL_MS): 3 x 60 s
    ] as const) {
      const h = makeConsumer({ transferTimeoutMs: 300_000, leaseMs: 400_000, waitBudgetMs: 300_000 }); // no quarantine or budget end before the peer is gone
      h.core.admit({ requestId: "r", items: [{ itemId: "a", announcement: announce("h1"), hasModelInput: false }] }, 0);
      const attemptId = onlyAttempt(h.core.poll(0));
      h.core.handleEnvelope(P, env(P, 1, producerHello(announced)), 1000);
      h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId, grantId: 1, item: descriptor("h1"), leaseMs: 400_000 } }), 1000);
      h.core.poll(1000);
      let cancelledAt: number | undefined;
      for (let t = 1000; t <= 200_000 && cancelledAt === undefined; t += 1000)
        if (h.core.poll(t).some((o) => o.type === "cancel-read")) cancelledAt = t;
      expect(cancelledAt, `Hello interval ${announced}`).toBe(goneAt);
    }
  });
});

describe("grant checks and epochs without a test before (SPEC audit of 2026-12-01)", () => {
  it("[P8] announcements of two epochs of a silent producer neither greet nor connect it alternately, attempt after attempt", () => {
    const h = makeConsumer({ grantWaitMs: 1_000, waitBudgetMs: 60_000, backoffInitialMs: 10, backoffMaxMs: 10 });
    const meta = (epoch: number) => new Uint8Array([epoch]);
    h.core.admit({ requestId: "r1", items: [{ itemId: "a", announcement: announce("h1", { epoch: 1, metadata: meta(1) }), hasModelInput: false }] }, 0);
    h.core.admit({ requestId: "r2", items: [{ itemId: "b", announcement: announce("h2", { epoch: 2, metadata: meta(2) }), hasModelInput: false }] }, 0);
    const kinds = (out: CoreOutput[]) => out.map((o) => (o.type === "send" ? (Object.keys(o.envelope).find((k) => k === "hello" || k === "readRequest") ?? "other") : o.type));
    expect(kinds(h.core.poll(0))).toEqual(["connect-peer", "hello", "readRequest", "connect-peer", "hello", "readRequest"]);
    // Nothing heard from the producer: both attempts time out and are retried, with no new Hello or connect.
    const retries: string[] = [];
    for (let t = 100; t <= 5_000; t += 100) retries.push(...kinds(h.core.poll(t)));
    expect(retries.filter((k) => k === "readRequest").length).toBeGreaterThanOrEqual(4);
    expect(retries.filter((k) => k === "hello" || k === "connect-peer")).toEqual([]);
  });

  it("[P8] after a greater epoch of a producer, the next message to it is a new Hello", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    expect(sent(h.core.poll(0), "hello")).toHaveLength(1);
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 1); // the producer restarted
    h.core.poll(1);
    h.core.drainFailed();
    h.core.admit({ requestId: "r2", items: [remote("b", "h2", false, { epoch: 2 })] }, 2);
    const out = h.core.poll(2);
    expect(sent(out, "hello")).toHaveLength(1);
    expect(out.findIndex((o) => o.type === "send" && o.envelope.hello)).toBeLessThan(out.findIndex((o) => o.type === "send" && o.envelope.readRequest));
  });

  it("[P8] a grant whose envelope comes from another epoch than the announcement's ends EPOCH_CHANGED, its descriptor's epoch notwithstanding", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1", false, { epoch: 5 })] }, 0);
    const attemptId = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 4, { readGrant: { attemptId, grantId: 7, item: descriptor("h1", { epoch: 5 }), leaseMs: 30_000 } }), 1);
    const out = h.core.poll(1);
    expect(starts(out)).toEqual([]);
    expect(acks(out)).toEqual([[7, FAILED]]);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "EPOCH_CHANGED", attempts: 1 }] }]);
  });

  it("[C11] a grant whose lease deadline is not after its receipt is not read: FAILED, LEASE_EXPIRED", () => {
    const h = makeConsumer(); // lease safety margin 5 s
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const out = grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1, { leaseMs: 5_000 });
    expect(starts(out)).toEqual([]);
    expect(acks(out)).toEqual([[7, FAILED]]);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "LEASE_EXPIRED", attempts: 1 }] }]);
    expect(h.pool.live.size).toBe(0);
  });
});

describe("re-admission, late inputs and refusals (review of 2026-12-01)", () => {
  it("[C1] a waiting item re-admitted as local is ready at once, and its fetch is abandoned", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    expect(decision(h.core.admit({ requestId: "r", items: [{ itemId: "a", local: true, hasModelInput: false }] }, 10))).toEqual({ action: "ready", itemId: "a" });
    // Nobody waits for the fetch any more: its grant is released unread, and no failure follows.
    expect(acks(grant(h, attempt, 7, "h1", 20))).toEqual([[7, ABANDONED]]);
    expect(h.core.drainFailed()).toEqual([]);
    expect(decision(h.core.admit({ requestId: "r", items: [{ itemId: "a", local: true, hasModelInput: false }] }, 30))).toEqual({ action: "ready", itemId: "a" });
    h.core.finishRequest("r", 40);
    expectIdle(h);
  });

  it("[C11][I1] a clock reading earlier than the latest is read as the latest: bytes handled after their read's deadline are never loaded", () => {
    const h = makeConsumer(); // transfer timeout 20 s
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1000))[0] as ReturnType<typeof starts>[0];
    fill(start, "h1");
    h.core.admit({ requestId: "other", items: [{ itemId: "x", local: true, hasModelInput: false }] }, 25_000); // the latest reading
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: 16 }, 2000); // a reading from before it
    const out = h.core.poll(2000);
    expect(acks(out)).toEqual([[7, FAILED]]);
    expect(h.core.drainFailed()).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "TRANSFER_TIMEOUT", attempts: 1 }] }]);
  });

  it("[C3][I1] a clock whose readings are negative is taken as it is: the budget runs from the first one", () => {
    const h = makeConsumer({ waitBudgetMs: 1000 });
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, -10_000);
    h.core.poll(-10_000);
    expect(h.core.nextDeadline()).toBe(-9_000);
    expect(h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, -9_000).status).toBe("failed");
  });

  it("[P8] a producer reported gone while nothing of it is held is greeted again before the next ReadRequest", () => {
    for (const how of ["unreachable", "read failed, peer gone"]) {
      const h = makeConsumer();
      h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
      const first = h.core.poll(0);
      expect(sent(first, "hello"), how).toHaveLength(1);
      if (how === "unreachable") {
        reject(h, onlyAttempt(first), R.FAILURE_REASON_NOT_FOUND, 1); // terminal: nothing of e-1 is held now
        h.core.handlePeerUnreachable(P, 2);
      } else {
        const start = starts(grant(h, onlyAttempt(first), 7, "h1", 1))[0] as ReturnType<typeof starts>[0];
        h.core.handleReadResult({ readId: start.readId, status: "failed", peerGone: true }, 2);
      }
      h.core.drainFailed();
      h.core.finishRequest("r1", 3);
      h.core.admit({ requestId: "r2", items: [remote("b", "h2")] }, 4);
      const next = h.core.poll(4);
      expect(sent(next, "hello"), how).toHaveLength(1);
      expect(next.findIndex((o) => o.type === "send" && o.envelope.hello)).toBeLessThan(next.findIndex((o) => o.type === "send" && o.envelope.readRequest));
    }
  });

  it("[C5] a HandshakeReject naming a reason a refusal cannot have (not VERSION, INCOMPATIBLE or INTERNAL) ends the fetch INTERNAL", () => {
    for (const reason of [R.FAILURE_REASON_NOT_READY, R.FAILURE_REASON_BUDGET_EXHAUSTED, R.FAILURE_REASON_PEER_UNREACHABLE, 999]) {
      const h = makeConsumer();
      h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
      h.core.poll(0);
      h.core.handleEnvelope(P, env(P, 1, { handshakeReject: { reason } }), 1);
      h.core.poll(1);
      expect(h.core.drainFailed(), String(reason)).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason: "INTERNAL", attempts: 1 }] }]);
      // The refusal stands for the epoch with that reason too.
      expect(h.core.admit({ requestId: "r2", items: [remote("b", "h2")] }, 2)).toEqual({ status: "failed", failures: [{ itemId: "b", reason: "INTERNAL", attempts: 0 }] });
    }
  });

  it("[C3][C7][C10] a grant arriving after every waiting request's budget ran out (before the poll) is released unread and counted, as every unwanted grant", () => {
    for (const model of [false, true]) {
      const h = makeConsumer(); // budget 60 s
      h.core.admit({ requestId: "r", items: [remote("a", "h1", model)] }, 0);
      const out = grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 60_001);
      expect(starts(out)).toEqual([]);
      expect(acks(out)).toEqual([[7, ABANDONED]]);
      expect(h.pool.live.size).toBe(0);
      expect(h.metrics.total("ectp_consumer_ignored_messages_total", ["reason", "unwanted_grant"])).toBe(1);
      expect(h.core.stats().ignoredMessages).toBe(1);
      const d = h.core.admit({ requestId: "r", items: [remote("a", "h1", model)] }, 60_001);
      if (model) expect(decision(d)).toEqual({ action: "local-encode", itemId: "a", reason: "BUDGET_EXHAUSTED" });
      else expect(d).toEqual({ status: "failed", failures: [{ itemId: "a", reason: "BUDGET_EXHAUSTED", attempts: 1 }] });
      h.core.drainFailed();
      h.core.finishRequest("r", 60_002);
      expectIdle(h);
    }
  });

  it("[C3] a request joining a fetch whose grant was released for lack of budget resumes it", () => {
    const h = makeConsumer();
    h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 1, { readGrant: { attemptId: attempt, grantId: 7, item: descriptor("h1"), leaseMs: 30_000 } }), 60_001);
    h.core.admit({ requestId: "s", items: [remote("b", "h1")] }, 60_001); // joins before the poll that ends "r"
    const out = h.core.poll(60_001);
    expect(acks(out)).toEqual([[7, ABANDONED]]);
    expect(sent(out, "readRequest")).toHaveLength(1);
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["r"]);
  });

  it("[C11] a read result handled after its deadline ends by that deadline, whatever the result says", () => {
    // Grant received at 1: transfer deadline 20 001, lease deadline 1 + 30 000 - 5 000 = 25 001.
    for (const [at, reason] of [
      [21_000, "TRANSFER_TIMEOUT"],
      [30_000, "LEASE_EXPIRED"],
    ] as const)
      for (const result of [{ status: "failed" as const }, { status: "done" as const, bytesRead: 15 }]) {
        const h = makeConsumer();
        h.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
        const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1))[0] as ReturnType<typeof starts>[0];
        h.core.handleReadResult({ readId: start.readId, ...result }, at);
        h.core.poll(at);
        expect(h.core.drainFailed(), `${result.status} at ${at}`).toEqual([{ requestId: "r", failures: [{ itemId: "a", reason, attempts: 1 }] }]);
      }
  });
});

/** Index of the first output of `type` (or of a send with body `body`); -1 when none. */
function outputIndex(out: CoreOutput[], type: string, body?: string): number {
  return out.findIndex((o) => o.type === type && (body === undefined || (o.type === "send" && (o.envelope as Record<string, unknown>)[body] != null)));
}

describe("[P8] greetings, heartbeats and transport metadata across producer restarts and outages", () => {
  it("[P8] a producer declared gone keeps what its announcements carried: a retry of a fetch whose own announcement had no metadata connects with another live fetch's announced metadata before its Hello", () => {
    const h = makeConsumer({ ...QUIET, backoffInitialMs: 10, backoffMaxMs: 10 });
    const M = new Uint8Array([7, 7]);
    // Fetch A (h1) announced with metadata M; fetch B (h2) by an announcement of the same epoch without any.
    h.core.admit({ requestId: "rA", items: [remote("a", "h1", false, { metadata: M })] }, 0);
    h.core.admit({ requestId: "rB", items: [remote("b", "h2")] }, 0);
    const first = h.core.poll(0);
    expect(first[0]).toEqual({ type: "connect-peer", peerId: P, epoch: 1, metadata: M });
    const [aAttempt] = sent(first, "readRequest").map((o) => Number(o.envelope.readRequest?.attemptId));
    // A is told to wait 5 s (NOT_READY with a hint); B's attempt stays in flight.
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: aAttempt, reason: R.FAILURE_REASON_NOT_READY, retryable: true, retryAfterMs: 5_000 } }), 1);
    h.core.poll(1);
    // The transport reports the producer unreachable: B retries (before a grant), with a new handshake.
    h.core.handlePeerUnreachable(P, 2);
    expect(h.core.poll(2)).toContainEqual({ type: "disconnect-peer", peerId: P });
    const retry = h.core.poll(100);
    expect(sent(retry, "readRequest")).toHaveLength(1); // B's retry
    const hello = outputIndex(retry, "send", "hello");
    expect(hello).toBeGreaterThanOrEqual(0);
    // SPEC 4: the metadata of an announcement of that epoch (A's, a fetch still under way) is loaded
    // just before the first message to that epoch.
    const connect = outputIndex(retry, "connect-peer");
    expect(connect, "connect-peer with A's announced metadata before the Hello").toBeGreaterThanOrEqual(0);
    expect(connect).toBeLessThan(hello);
  });

  it("[P8] announced metadata is kept per producer epoch: after the producer is declared gone (the epochs it was greeted in forgotten), a fetch of an older epoch announced without any connects with what an earlier announcement of its epoch carried", () => {
    const h = makeConsumer(QUIET);
    const M1 = new Uint8Array([1]);
    const M2 = new Uint8Array([2]);
    // Epoch 1 announced with M1, then epoch 2 with M2 (another item); both requests end.
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", false, { metadata: M1 })] }, 0);
    h.core.finishRequest("r1", 0);
    h.core.admit({ requestId: "r2", items: [remote("b", "h2", false, { epoch: 2, metadata: M2 })] }, 0);
    h.core.finishRequest("r2", 0);
    expect(h.core.poll(0).filter((o) => o.type === "connect-peer")).toEqual([
      { type: "connect-peer", peerId: P, epoch: 1, metadata: M1 },
      { type: "connect-peer", peerId: P, epoch: 2, metadata: M2 },
    ]);
    // While epoch 2 is greeted, an announcement of epoch 1 is outdated; declared gone, the producer's greetings are forgotten.
    expect(decision(h.core.admit({ requestId: "r0", items: [remote("a", "h1", true)] }, 1))).toMatchObject({ action: "local-encode", reason: "EPOCH_CHANGED" });
    h.core.handlePeerUnreachable(P, 1);
    expect(h.core.poll(1)).toContainEqual({ type: "disconnect-peer", peerId: P });
    // A fetch of epoch 1 announced without metadata connects with epoch 1's (M1), not epoch 2's, before its Hello.
    h.core.admit({ requestId: "r3", items: [remote("a", "h1")] }, 2);
    const out = h.core.poll(2);
    const connect = outputIndex(out, "connect-peer");
    expect(out[connect], "epoch 1's announced metadata (M1), not epoch 2's").toEqual({ type: "connect-peer", peerId: P, epoch: 1, metadata: M1 });
    expect(connect).toBeLessThan(outputIndex(out, "send", "hello"));
    expect(sent(out, "readRequest")[0]?.envelope.readRequest?.expectedEpoch).toBe(1);
  });

  it("[P8] announced metadata is kept for the producer's eight greatest epochs only, and still serves a greater epoch after the producer is heard at a newer one", () => {
    const h = makeConsumer(QUIET);
    // Ten epochs announced with metadata (each request ends at once), then the producer declared gone:
    // the epochs greeted are forgotten, what the announcements carried is kept.
    for (let e = 1; e <= 10; e++) {
      h.core.admit({ requestId: `r${e}`, items: [remote(`i${e}`, `h${e}`, false, { epoch: e, metadata: new Uint8Array([e]) })] }, 0);
      h.core.finishRequest(`r${e}`, 0);
    }
    h.core.poll(0);
    const fetched = (epoch: number, at: number): CoreOutput[] => {
      h.core.handlePeerUnreachable(P, at);
      h.core.poll(at);
      h.core.admit({ requestId: "x", items: [remote("x", "hx", false, { epoch })] }, at);
      const out = h.core.poll(at);
      expect(sent(out, "readRequest").map((o) => o.envelope.readRequest?.expectedEpoch)).toEqual([epoch]);
      h.core.finishRequest("x", at);
      h.core.poll(at);
      return out.filter((o) => o.type === "connect-peer");
    };
    expect(fetched(3, 1_000)).toEqual([{ type: "connect-peer", peerId: P, epoch: 3, metadata: new Uint8Array([3]) }]);
    expect(fetched(2, 2_000), "epoch 2 is past the 8 greatest kept").toEqual([]);
    // The producer is heard at epoch 5 (epochs below it are void; their metadata is dropped): epoch 6's still serves.
    h.core.handleEnvelope(P, env(P, 5, { heartbeat: {} }), 3_000);
    h.core.poll(3_000);
    expect(fetched(6, 4_000)).toEqual([{ type: "connect-peer", peerId: P, epoch: 6, metadata: new Uint8Array([6]) }]);
  });

  it("[P8] after a greater epoch is seen, the next message to the producer is a Hello: no Heartbeat goes to the new epoch while a fetch resumed there waits out its backoff", () => {
    const h = makeConsumer({ heartbeatIntervalMs: 1_000, backoffInitialMs: 500, backoffMaxMs: 500 });
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    const old = starts(grant(h, onlyAttempt(h.core.poll(0)), 8, "h1", 1))[0] as StartReadOutput;
    h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { epoch: 2 })] }, 2);
    h.core.poll(2);
    // Epoch 2 is heard from (any envelope): the epoch-1 read is void; the fetch moves to epoch 2 and retries after its backoff.
    h.core.handleEnvelope(P, env(P, 2, { heartbeat: {} }), 900);
    const after: CoreOutput[] = [...h.core.poll(900), ...h.core.poll(1_000), ...h.core.poll(1_500)];
    const toP = after.filter((o) => o.type === "send" && o.peerId === P);
    const bodies = toP.map((o) => (o.type === "send" ? Object.keys(o.envelope).find((k) => !["version", "senderId", "senderEpoch"].includes(k)) : ""));
    expect(bodies, "first message to epoch 2 must be a Hello").toEqual(["hello", "readRequest"]);
    h.core.handleReadResult({ readId: old.readId, status: "cancelled" }, 1_600);
  });

  it("[P8] a producer idle for idlePeerMs gets a new Hello with the next fetch, also when its metadata was only noted (its Hello came after the business ended)", () => {
    const h = makeConsumer(); // heartbeats every 2 s; idlePeerMs 300 000
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // announcement without metadata
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.handleEnvelope(P, env(P, 1, { readReject: { attemptId: attempt, reason: R.FAILURE_REASON_NOT_FOUND } }), 1);
    h.core.poll(1);
    h.core.finishRequest("r1", 2);
    h.core.drainFailed();
    // The producer's Hello (its NIXL metadata) arrives after the business ended: noted, not loaded.
    h.core.handleEnvelope(P, env(P, 1, { hello: { role: 1, transportMetadata: new Uint8Array([5]) } }), 3);
    h.core.poll(2_000);
    h.core.poll(400_000); // long idle: the producer has long declared us gone and forgotten our metadata
    h.core.admit({ requestId: "r2", items: [remote("b", "h2")] }, 400_000);
    const types = h.core.poll(400_000).map((o) => (o.type === "send" ? Object.keys(o.envelope).find((k) => !["version", "senderId", "senderEpoch"].includes(k)) : o.type));
    expect(types).toEqual(["connect-peer", "hello", "readRequest"]);
  });

  it("[P8] a peer-gone read result left over from an outage already handled does not declare the reconnected producer gone again (a fresh read from it goes on)", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    const s1 = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1))[0] as StartReadOutput;
    h.core.finishRequest("r1", 2); // abandoned: its grant is released when the read settles
    expect(h.core.poll(2)).toContainEqual({ type: "cancel-read", readId: s1.readId });
    h.core.handlePeerUnreachable(P, 3); // the outage: declared gone, grants void
    h.core.poll(3);
    // The producer is back (same epoch): a new fetch greets it again and is granted.
    h.core.admit({ requestId: "r2", items: [remote("b", "h2")] }, 10);
    const s2 = starts(grant(h, onlyAttempt(h.core.poll(10)), 8, "h2", 11))[0] as StartReadOutput;
    // The transport now settles the old read as failed by the (old) outage.
    h.core.handleReadResult({ readId: s1.readId, status: "failed", peerGone: true }, 12);
    const out = h.core.poll(12);
    expect(out).not.toContainEqual({ type: "cancel-read", readId: s2.readId });
    expect(h.core.drainFailed()).toEqual([]);
    fill(s2, "h2");
    h.core.handleReadResult({ readId: s2.readId, status: "done", bytesRead: 16 }, 13);
    expect(decision(h.core.admit({ requestId: "r2", items: [remote("b", "h2")] }, 14))?.action).toBe("ready");
    h.core.finishRequest("r2", 15);
    h.core.poll(100_000);
    expectIdle(h);
  });

  it("[P8] metadata that a joining announcement brought while the attempt was in flight is loaded before the read from that epoch starts", () => {
    const h = makeConsumer(QUIET);
    const M = new Uint8Array([4, 2]);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0); // no metadata: nothing to load yet
    const attempt = onlyAttempt(h.core.poll(0));
    h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { metadata: M })] }, 1); // joins, with metadata
    expect(h.core.poll(1)).toEqual([]);
    // The grant arrives (the producer's Hello not yet, or lost): the read is from epoch 1, whose metadata is known.
    const out = grant(h, attempt, 7, "h1", 2);
    const read = out.findIndex((o) => o.type === "start-read");
    const connect = out.findIndex((o) => o.type === "connect-peer");
    expect(read).toBeGreaterThanOrEqual(0);
    expect(connect, "connect-peer (epoch 1, M) before start-read").toBeGreaterThanOrEqual(0);
    expect(connect).toBeLessThan(read);
  });
});

// The table "Which call throws what" of docs/errors.md against the built packages: for every row,
// small calls (probes) that make each code the row names happen, as a thrown (or, for a call that
// returns a promise, rejected) EctpError or as a reported one (`{ ok: false, error }`, a rejected
// connect), and that feed the rows saying "Nothing" or "Only `REENTRANT_CALL`" odd input without a
// throw. A row without probes, probes without a row, a code no probe produced and a code a probe
// produced that its row does not name all fail. `npm run build` first (CI's build step runs before this).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  loadCases,
  runMutants,
  runRandomised,
  runScriptedCase,
  runSubscriberRandomised,
  runSuite,
  runSystemLevel,
  runTransportConformance,
  selectCases,
} from "@ectp/conformance";
import { ConsumerCore, Driver, EventSubscriber, MemoryItemStore, NOOP_LOGGER, NOOP_METRICS, ProducerCore } from "@ectp/core";
import {
  EctpError,
  FrameDecoder,
  announcementFromJson,
  announcementToJson,
  crc32c,
  crc32cBytes,
  decodeEnvelope,
  ectp,
  encodeEnvelope,
  encodeFrame,
  eventByteLength,
  itemDescriptorByteLength,
  itemKeyId,
  normalizeFingerprint,
  tryItemKeyId,
  validateDescriptor,
} from "@ectp/protocol";
import { MockNetwork, runOnVirtualTime } from "@ectp/transport-mock";
import { NixlTransport } from "@ectp/transport-nixl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const HEADING = "### Which call throws what";

/**
 * The rows of the first table after `### Which call throws what` in `markdown`: each row's Call
 * cell as written, the codes its Throws and Reports cells name (UPPER_SNAKE words in backticks),
 * and whether its Throws cell says "Nothing" or "Only ...".
 */
function tableRows(markdown) {
  const lines = markdown.split("\n");
  const start = lines.indexOf(HEADING);
  if (start < 0) throw new Error(`no "${HEADING}" section`);
  const first = lines.findIndex((line, i) => i > start && line.startsWith("|"));
  const rows = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line.slice(1, -1).split("|").map((cell) => cell.trim());
    if (cells.length !== 3) throw new Error(`a row of ${cells.length} cells, not 3 (Call | Throws | Reports): ${line}`);
    const [call, thrown, reported] = cells;
    rows.push({
      call,
      throws: codesIn(thrown),
      reports: codesIn(reported),
      nothing: thrown.startsWith("Nothing"),
      only: thrown.startsWith("Only"),
    });
  }
  return rows;
}

/** The UPPER_SNAKE words in backticks in a cell (`INVALID_ARGUMENT`), in order. */
function codesIn(cell) {
  return [...cell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]);
}

/**
 * Names in a Throws cell that no probe here can produce. `new NixlTransport` creates a NIXL agent
 * only once the NIXL addon loaded, so the code `NIXL_ERROR_MAP` gives the status of a failed
 * creation needs that addon (and a NIXL install); without it the constructor stops at
 * TRANSPORT_UNAVAILABLE, which is probed.
 */
const NEEDS_NIXL = new Set(["NIXL_ERROR_MAP"]);

// ---- probes --------------------------------------------------------------------------------------

/** A probe: `run` must throw an EctpError with `code` (the row's Throws column). */
const throws = (code, what, run) => ({ expects: "throw", code, what, run });
/** A probe: `run` must return a promise that rejects with an EctpError with `code` (Throws: the call is async). */
const rejects = (code, what, run) => ({ expects: "reject", code, what, run });
/** A probe: `run` must return `{ ok: false, error }` with an EctpError with `code` (the Reports column). */
const reports = (code, what, run) => ({ expects: "result", code, what, run });
/** A probe: `run` must return a promise that rejects with an EctpError with `code`, throwing nothing (Reports). */
const reportsRejection = (code, what, run) => ({ expects: "reported-reject", code, what, run });
/** A probe: `run` throws nothing (a promise it returns resolves), and `check` of its value passes. */
const calm = (what, run, check = () => {}) => ({ expects: "calm", what, run, check });
/**
 * A probe: `run` makes a core's own hook or callback call one of that core's methods, and returns
 * what each such call threw (`codeOf`): they must all be REENTRANT_CALL, and there must be some.
 */
const reentrant = (what, run) => ({ expects: "reentrant", code: "REENTRANT_CALL", what, run });

/** The code of what `call` threw ("no error" when nothing), for a hook to record. */
function codeOf(call) {
  try {
    call();
  } catch (e) {
    return EctpError.is(e) ? e.code : `not an EctpError (${String(e)})`;
  }
  return "no error";
}

/** How a thrown or rejected value reads in a problem: its code, or what it is. */
const described = (e) => (EctpError.is(e) ? e.code : `a non-EctpError (${String(e)})`);

/**
 * Runs one probe and says what it showed: the column and code it produced, or the problem when the
 * call did not do what the probe expects (a problem names the probe).
 */
async function runProbe(probe) {
  const problem = (text) => ({ problem: `probe "${probe.what}": ${text}` });
  let value;
  try {
    value = probe.run();
  } catch (e) {
    if (probe.expects === "throw" && EctpError.is(e) && e.code === probe.code) return { column: "throws", code: probe.code };
    return problem(`threw ${described(e)}`);
  }
  if (probe.expects === "throw") return problem(`threw nothing (returned ${String(value)})`);
  if (typeof value?.then === "function") {
    try {
      value = await value;
    } catch (e) {
      const wanted = EctpError.is(e) && e.code === probe.code;
      if (probe.expects === "reject" && wanted) return { column: "throws", code: probe.code };
      if (probe.expects === "reported-reject" && wanted) return { column: "reports", code: probe.code };
      return problem(`rejected with ${described(e)}`);
    }
    if (probe.expects === "reject" || probe.expects === "reported-reject") return problem("resolved");
  } else if (probe.expects === "reject" || probe.expects === "reported-reject") return problem("returned no promise");
  if (probe.expects === "result") {
    if (value?.ok === false && EctpError.is(value.error) && value.error.code === probe.code) return { column: "reports", code: probe.code };
    return problem(`returned ${value?.ok === false ? `{ ok: false } with ${described(value.error)}` : "no { ok: false, error }"}`);
  }
  if (probe.expects === "reentrant") {
    if (!Array.isArray(value) || value.length === 0) return problem("the hook never called back");
    if (value.every((code) => code === "REENTRANT_CALL")) return { column: "throws", code: "REENTRANT_CALL" };
    return problem(`the hook's calls got ${value.join(", ")}`);
  }
  try {
    probe.check(value);
  } catch (e) {
    return problem(`returned what the row does not say: ${String(e.message ?? e).split("\n")[0]}`);
  }
  return { column: "none" };
}

/** Runs every probe; by row (the Call cell), what each showed. */
async function runProbes(probes) {
  const results = new Map();
  for (const [call, list] of Object.entries(probes)) results.set(call, await Promise.all(list.map(runProbe)));
  return results;
}

/**
 * What the table says that the probes' `results` do not show, one line each: a row without probes,
 * probes naming no row, a probe that did not do what it expects, a code a row names that no probe
 * produced in that column, a code a probe produced that its row does not name, and a row saying
 * "Nothing" or "Only ..." without a probe feeding it odd input (one that throws nothing, or reports).
 */
function checkTable(rows, results) {
  const problems = [];
  const calls = new Set(rows.map((row) => row.call));
  for (const call of results.keys()) if (!calls.has(call)) problems.push(`probes for ${call} name no row of the table (a row removed or reworded?)`);
  for (const row of rows) {
    const shown = results.get(row.call);
    if (shown === undefined || shown.length === 0) {
      problems.push(`row ${row.call} has no probes: add some for it`);
      continue;
    }
    for (const s of shown) if (s.problem !== undefined) problems.push(`row ${row.call}: ${s.problem}`);
    for (const [column, listed] of [
      ["throws", row.throws],
      ["reports", row.reports],
    ]) {
      const produced = new Set(shown.filter((s) => s.column === column).map((s) => s.code));
      for (const code of listed)
        if (!produced.has(code) && !(column === "throws" && NEEDS_NIXL.has(code)))
          problems.push(`row ${row.call} ${column} ${code}, but no probe produced it`);
      for (const code of produced) if (!listed.includes(code)) problems.push(`row ${row.call}: a probe ${column} ${code}, which the row does not name`);
    }
    // A reported code is no throw either.
    if ((row.nothing || row.only) && !shown.some((s) => s.column === "none" || s.column === "reports"))
      problems.push(`row ${row.call} says "${row.nothing ? "Nothing" : "Only"}", but no probe feeds it odd input that it takes without a throw`);
  }
  return problems;
}

// ---- what the probes call --------------------------------------------------------------------------

const FINGERPRINT = { model: "acme/vision-encoder@3", dtype: ectp.v1.Dtype.DTYPE_UINT8, rowBytes: 0, layoutVersion: 1 };
const POOL = {
  allocate: (_keyId, sizeBytes) => ({ region: { id: 1, bytes: new Uint8Array(sizeBytes) }, offset: 0, length: sizeBytes }),
  release: () => {},
  view: (d) => d.region.bytes.subarray(d.offset, d.offset + d.length),
};
const consumer = (options = {}) => new ConsumerCore({ id: "prefill-0", epoch: 1, fingerprint: FINGERPRINT, destinations: POOL, ...options });
const producer = (options = {}) =>
  new ProducerCore({ id: "encoder-0", epoch: 1, fingerprint: FINGERPRINT, store: new MemoryItemStore({ capacityBytes: 1024 }), ...options });
const subscriber = (options = {}) => new EventSubscriber({ id: "router-0", epoch: 1, fingerprint: FINGERPRINT, ...options });
/** The descriptor of item `n` of encoder-0 (epoch 1). */
const descriptor = (n, sizeBytes = 16) => ({ key: { contentHash: new Uint8Array([n]), fingerprint: FINGERPRINT }, sizeBytes, producerId: "encoder-0", epoch: 1 });
const keyOf = (n) => itemKeyId(descriptor(n).key).value;
/** A store of `capacityBytes` holding item 1 (16 bytes), ready when `ready`. */
function storeWithItem(ready, capacityBytes = 64) {
  const store = new MemoryItemStore({ capacityBytes });
  const put = store.put(descriptor(1));
  if (!put.ok) throw put.error;
  if (ready) store.markReady(keyOf(1));
  return store;
}
/** An envelope of another spec major (2), which every v1 receiver refuses [V1]. */
const otherMajor = (body) => encodeEnvelope({ version: { major: 2, minor: 0 }, senderId: "peer-2", senderEpoch: 1, ...body });
/** An admit item whose announcement fails validation [C2]. */
const badlyAnnounced = (hasModelInput) => ({ itemId: "image-0", announcement: { item: {} }, hasModelInput });

/**
 * A core made by `make` whose metrics sink, at its first counter sample, calls `call` on that same
 * core; `trigger` then makes it sample one. Returns what the hook's call threw.
 */
function fromCounter(make, call, trigger) {
  const seen = [];
  let core;
  const counter = () => {
    if (seen.length === 0) seen.push(codeOf(() => call(core)));
  };
  core = make({ metrics: { ...NOOP_METRICS, counter } });
  trigger(core);
  return seen;
}

/** A logger that records its error-level messages in `errors`. */
const recordingLogger = (errors) => ({ ...NOOP_LOGGER, error: (message) => errors.push(message) });

/** A transport each of whose calls throws or rejects (the waits end after 1 ms). */
const brokenTransport = () => ({
  poll() {
    throw new Error("poll broke");
  },
  send() {
    throw new Error("send broke");
  },
  startRead() {
    throw new Error("startRead broke");
  },
  cancelRead() {
    throw new Error("cancelRead broke");
  },
  connectPeer: () => Promise.reject(new Error("connect broke")),
  disconnectPeer() {
    throw new Error("disconnectPeer broke");
  },
  waitForActivity: () => new Promise((resolve) => setTimeout(resolve, 1)),
  close: () => Promise.reject(new Error("close broke")),
});

/** A driver of a consumer over a broken transport, logging its errors into `errors`. */
const brokenDriver = (errors) => new Driver({ transport: brokenTransport(), consumer: consumer(), logger: recordingLogger(errors) });

/** Folders made for loadCases, removed after the tests. */
const folders = [];
const emptyFolder = () => {
  const dir = mkdtempSync(join(tmpdir(), "ectp-errors-table-"));
  folders.push(dir);
  return dir;
};

/** A testee factory the refused calls never reach. */
const noTestee = () => {
  throw new Error("no testee is started for a refused call");
};

// ---- the probes of each row, by its Call cell ----------------------------------------------------

const PROBES = {
  "`new ConsumerCore(options)`, `new ProducerCore(options)`, `new EventSubscriber(options)`": [
    throws("INVALID_CONFIG", "a consumer with a misspelt option", () => consumer({ waitBudget: 5_000 })),
    throws("INVALID_CONFIG", "a consumer without a destination pool", () => consumer({ destinations: undefined })),
    throws("INVALID_CONFIG", "a producer with epoch 0", () => producer({ epoch: 0 })),
    throws("INVALID_CONFIG", "a producer whose logger lacks methods", () => producer({ logger: {} })),
    throws("INVALID_CONFIG", "a subscriber with an empty id", () => subscriber({ id: "" })),
    throws("INVALID_CONFIG", "a subscriber of no options", () => new EventSubscriber()),
  ],
  "`new Driver(options)`": [
    throws("INVALID_CONFIG", "no transport", () => new Driver({ consumer: consumer() })),
    throws("INVALID_CONFIG", "no core", () => new Driver({ transport: brokenTransport() })),
    throws("INVALID_CONFIG", "a subscriber beside a core", () => new Driver({ transport: brokenTransport(), consumer: consumer(), subscriber: subscriber() })),
    throws("INVALID_CONFIG", "a ConsumerCore as producer", () => new Driver({ transport: brokenTransport(), producer: consumer() })),
  ],
  "`new MemoryItemStore(options)`": [
    throws("INVALID_CONFIG", "capacityBytes 0", () => new MemoryItemStore({ capacityBytes: 0 })),
    throws("INVALID_CONFIG", "a misspelt option", () => new MemoryItemStore({ capacityBytes: 64, capacity: 64 })),
  ],
  "`consumer.admit(request, now)`": [
    throws("INVALID_ARGUMENT", "an empty request id", () => consumer().admit({ requestId: "", items: [] }, 0)),
    throws("INVALID_ARGUMENT", "items not an array", () => consumer().admit({ requestId: "r", items: "image-0" }, 0)),
    throws("INVALID_ARGUMENT", "an item with an empty itemId", () => consumer().admit({ requestId: "r", items: [{ itemId: "" }] }, 0)),
    throws("INVALID_ARGUMENT", 'hasModelInput "true"', () => consumer().admit({ requestId: "r", items: [{ itemId: "a", hasModelInput: "true" }] }, 0)),
    throws("INVALID_ARGUMENT", "duplicate item ids", () => consumer().admit({ requestId: "r", items: [{ itemId: "a" }, { itemId: "a" }] }, 0)),
    throws("INVALID_ARGUMENT", "a re-admission naming a new item", () => {
      const c = consumer();
      c.admit({ requestId: "r", items: [{ itemId: "a", hasModelInput: true }] }, 0);
      c.admit({ requestId: "r", items: [{ itemId: "b", hasModelInput: true }] }, 1);
    }),
    reentrant("admit from the logger's warning of a failed request", () => {
      const seen = [];
      let c;
      const warn = () => seen.push(codeOf(() => c.admit({ requestId: "r2", items: [] }, 1)));
      c = consumer({ logger: { ...NOOP_LOGGER, warn } });
      c.admit({ requestId: "r1", items: [badlyAnnounced(false)] }, 0);
      return seen;
    }),
    calm(
      "[C2] a malformed announcement, with model input: local-encode, INVALID_ANNOUNCEMENT",
      () => consumer().admit({ requestId: "r", items: [badlyAnnounced(true)] }, 0),
      (result) => expect(result.items.map((d) => [d.action, d.reason])).toEqual([["local-encode", "INVALID_ANNOUNCEMENT"]]),
    ),
    calm(
      "[C2] a malformed announcement, no model input: the request fails",
      () => consumer().admit({ requestId: "r", items: [badlyAnnounced(false)] }, 0),
      (result) => expect(result).toMatchObject({ status: "failed", failures: [{ itemId: "image-0", reason: "INVALID_ANNOUNCEMENT" }] }),
    ),
    calm(
      "[C1] no announcement, no model input: UNAVAILABLE",
      () => consumer().admit({ requestId: "r", items: [{ itemId: "image-0" }] }, 0),
      (result) => expect(result).toMatchObject({ status: "failed", failures: [{ reason: "UNAVAILABLE", attempts: 0 }] }),
    ),
    calm(
      "[I1] a now of NaN: logged at error level",
      () => {
        const errors = [];
        consumer({ logger: recordingLogger(errors) }).admit({ requestId: "r", items: [{ itemId: "a", local: true }] }, Number.NaN);
        return errors;
      },
      (errors) => expect(errors).toHaveLength(1),
    ),
  ],
  "`consumer.finishRequest(requestId, now)`": [
    calm("an unknown id; known ones at NaN and at a time that is no number", () => {
      const c = consumer();
      c.finishRequest("never-admitted", 1);
      for (const id of ["r1", "r2"]) c.admit({ requestId: id, items: [{ itemId: "a", local: true }] }, 0);
      c.finishRequest("r1", Number.NaN);
      c.finishRequest("r2", "soon");
      return c.stats().requests;
    }, (requests) => expect(requests).toBe(0)),
    throws("INVALID_ARGUMENT", "an id that is a number", () => consumer().finishRequest(42, 1)),
    throws("INVALID_ARGUMENT", "no id", () => consumer().finishRequest(undefined, 1)),
    throws("INVALID_ARGUMENT", "an empty id", () => consumer().finishRequest("", 1)),
    reentrant("finishRequest from a metrics hook", () =>
      fromCounter(consumer, (c) => c.finishRequest("r", 1), (c) => c.handleEnvelope("encoder-0", {}, 1)),
    ),
  ],
  "`consumer.drainFailed()`": [
    calm("[C6] a failed request drained twice", () => {
      const c = consumer();
      c.admit({ requestId: "r", items: [{ itemId: "image-0" }] }, 0);
      return [c.drainFailed().map((f) => f.requestId), c.drainFailed()];
    }, (drains) => expect(drains).toEqual([["r"], []])),
    reentrant("drainFailed from a metrics hook", () => fromCounter(consumer, (c) => c.drainFailed(), (c) => c.handleEnvelope("encoder-0", {}, 1))),
  ],
  "`consumer.handleMessage`, `handleEnvelope`, `handleReadResult`, `handlePeerUnreachable`, `poll`": [
    calm("[C10] garbage bytes, a string, envelopes of another major and of nothing, an unknown read, odd ids and times", () => {
      const c = consumer();
      c.handleMessage("encoder-0", new Uint8Array([0xff, 0xff, 0xff]), 1);
      c.handleMessage(7, "not bytes", Number.NaN);
      c.handleMessage("encoder-0", otherMajor({ heartbeat: {} }), 1);
      c.handleEnvelope("encoder-0", null, 1);
      c.handleEnvelope(undefined, { version: { major: 9 }, senderId: "x", senderEpoch: 1, heartbeat: {} }, 1);
      c.handleReadResult({ readId: 99, status: "done", bytesRead: 16 }, 1);
      c.handleReadResult("done", 1);
      c.handlePeerUnreachable("nobody", Number.POSITIVE_INFINITY);
      c.handlePeerUnreachable(null, 1);
      c.poll(Number.NaN);
      c.poll("later");
      return c.stats().ignoredMessages;
    }, (ignored) => expect(ignored).toBe(7)), // each message and read result once
    ...Object.entries({
      handleMessage: (c) => c.handleMessage("encoder-0", new Uint8Array(0), 1),
      handleEnvelope: (c) => c.handleEnvelope("encoder-0", {}, 1),
      handleReadResult: (c) => c.handleReadResult({ readId: 1, status: "done", bytesRead: 0 }, 1),
      handlePeerUnreachable: (c) => c.handlePeerUnreachable("encoder-0", 1),
      poll: (c) => c.poll(1),
    }).map(([name, call]) => reentrant(`${name} from a metrics hook`, () => fromCounter(consumer, call, (c) => c.handleEnvelope("encoder-0", {}, 1)))),
  ],
  "`producer.handleMessage`, `handleEnvelope`, `handlePeerUnreachable`, `poll`, `shutdown`": [
    calm("[C10] garbage bytes, a string, envelopes of nothing, odd ids and times, two shutdowns", () => {
      const p = producer();
      p.handleMessage("prefill-0", new Uint8Array([0xff, 0xff, 0xff]), 1);
      p.handleMessage(7, "not bytes", Number.NaN);
      p.handleEnvelope("prefill-0", null, 1);
      p.handleEnvelope("prefill-0", {}, 1);
      p.handlePeerUnreachable(undefined, 1);
      p.poll(Number.NaN);
      p.shutdown("now");
      p.shutdown(2);
      return p.stats().ignoredMessages;
    }, (ignored) => expect(ignored).toBe(4)), // each message once
    calm("[V1] a Hello of another major: a VERSION refusal", () => {
      const p = producer();
      p.handleMessage("peer-2", otherMajor({ hello: {} }), 1);
      return p.poll(1).flatMap((o) => (o.type === "send" ? [o.envelope.handshakeReject?.reason] : []));
    }, (reasons) => expect(reasons).toEqual([ectp.v1.FailureReason.FAILURE_REASON_VERSION])),
    ...Object.entries({
      handleMessage: (p) => p.handleMessage("prefill-0", new Uint8Array(0), 1),
      handleEnvelope: (p) => p.handleEnvelope("prefill-0", {}, 1),
      handlePeerUnreachable: (p) => p.handlePeerUnreachable("prefill-0", 1),
      poll: (p) => p.poll(1),
      shutdown: (p) => p.shutdown(1),
    }).map(([name, call]) => reentrant(`${name} from a metrics hook`, () => fromCounter(producer, call, (p) => p.handleEnvelope("prefill-0", {}, 1)))),
  ],
  "`producer.announce(keyId)`": [
    calm("an absent key, a number, nothing", () => {
      const p = producer();
      return [p.announce("absent"), p.announce(42), p.announce(undefined)];
    }, (announced) => expect(announced).toEqual([undefined, undefined, undefined])),
    calm("a store whose get throws (logged)", () => {
      const errors = [];
      const store = storeWithItem(true);
      const p = new ProducerCore({ id: "encoder-0", epoch: 1, fingerprint: FINGERPRINT, store, logger: recordingLogger(errors) });
      store.get = () => {
        throw new Error("store down");
      };
      return [p.announce(keyOf(1)), errors.length];
    }, (seen) => expect(seen).toEqual([undefined, 1])),
    calm("a producer shutting down", () => {
      const p = new ProducerCore({ id: "encoder-0", epoch: 1, fingerprint: FINGERPRINT, store: storeWithItem(true) });
      const before = p.announce(keyOf(1));
      p.shutdown(1);
      return [before !== undefined, p.announce(keyOf(1))];
    }, (seen) => expect(seen).toEqual([true, undefined])),
  ],
  "`subscriber.follow(producerId, now, ...)`": [
    throws("INVALID_ARGUMENT", "an empty producer id", () => subscriber().follow("", 0)),
    throws("INVALID_ARGUMENT", "a connection of epoch 0", () => subscriber().follow("encoder-0", 0, { epoch: 0, metadata: new Uint8Array(0) })),
    throws("INVALID_ARGUMENT", "a connection whose metadata is a string", () => subscriber().follow("encoder-0", 0, { epoch: 1, metadata: "addr" })),
    reentrant("follow from a metrics hook", () => fromCounter(subscriber, (s) => s.follow("encoder-1", 1), (s) => s.handleEnvelope("encoder-0", {}, 1))),
  ],
  "`subscriber.holders(keyId)`": [
    throws("INVALID_ARGUMENT", "a number", () => subscriber().holders(42)),
    calm("an unknown key", () => subscriber().holders("unknown"), (holders) => expect(holders).toEqual([])),
  ],
  "`subscriber.handleMessage`, `handleEnvelope`, `handlePeerUnreachable`, `poll`, `unfollow`": [
    calm("[C10] garbage bytes, a string, envelopes of nothing and of another major, odd ids and times", () => {
      const s = subscriber();
      s.follow("encoder-0", 0);
      s.handleMessage("encoder-0", new Uint8Array([0xff, 0xff, 0xff]), 1);
      s.handleMessage(7, "not bytes", Number.NaN);
      s.handleMessage("encoder-0", otherMajor({ eventBatch: {} }), 1);
      s.handleEnvelope("encoder-0", null, 1);
      s.handleEnvelope("encoder-0", {}, 1);
      s.handlePeerUnreachable("nobody", 1);
      s.handlePeerUnreachable(undefined, Number.NaN);
      s.poll("later");
      s.unfollow("nobody");
      s.unfollow(42);
      return [s.stats().ignoredMessages, s.isFollowing("encoder-0")];
    }, (seen) => expect(seen).toEqual([5, true])), // each message once; still following
    ...Object.entries({
      handleMessage: (s) => s.handleMessage("encoder-0", new Uint8Array(0), 1),
      handleEnvelope: (s) => s.handleEnvelope("encoder-0", {}, 1),
      handlePeerUnreachable: (s) => s.handlePeerUnreachable("encoder-0", 1),
      poll: (s) => s.poll(1),
      unfollow: (s) => s.unfollow("encoder-0"),
    }).map(([name, call]) => reentrant(`${name} from a metrics hook`, () => fromCounter(subscriber, call, (s) => s.handleEnvelope("encoder-0", {}, 1)))),
  ],
  "`driver.step()`, `run()`, `stop()`, `wake()`, `close()`": [
    calm("[I1] a step over a transport whose poll throws: logged", () => {
      const errors = [];
      brokenDriver(errors).step();
      return errors;
    }, (errors) => expect(errors).toContain("transport.poll threw; nothing received this step")),
    calm("wake and stop of a driver not running", () => {
      const d = brokenDriver([]);
      d.wake();
      d.stop();
      return d.isRunning;
    }, (running) => expect(running).toBe(false)),
    calm("[I1] run over a broken transport, stopped: resolves", async () => {
      const d = brokenDriver([]);
      const run = d.run();
      await new Promise((resolve) => setTimeout(resolve, 5));
      d.stop();
      await run;
      return d.isRunning;
    }, (running) => expect(running).toBe(false)),
    calm("[I1] close over a transport whose close rejects: resolves, logged", async () => {
      const errors = [];
      await brokenDriver(errors).close();
      return errors;
    }, (errors) => expect(errors).toContain("transport.close rejected")),
  ],
  "`store.put(descriptor, bytes?)` (`MemoryItemStore`)": [
    reports("INVALID_ARGUMENT", "a descriptor of nothing", () => new MemoryItemStore({ capacityBytes: 64 }).put(null)),
    reports("INVALID_ARGUMENT", "the key already stored", () => storeWithItem(false).put(descriptor(1))),
    reports("INVALID_ARGUMENT", "bytes of the wrong length", () => new MemoryItemStore({ capacityBytes: 64 }).put(descriptor(1), new Uint8Array(3))),
    reports("INVALID_ARGUMENT", "an item larger than the whole capacity", () => new MemoryItemStore({ capacityBytes: 8 }).put(descriptor(1))),
    reports("OVERLOADED", "no room now: the store is full of not-ready items", () => storeWithItem(false, 16).put(descriptor(2))),
    reports("INTERNAL", "locate throws", () =>
      new MemoryItemStore({
        capacityBytes: 64,
        locate: () => {
          throw new Error("register failed");
        },
      }).put(descriptor(1)),
    ),
    calm("a good item", () => new MemoryItemStore({ capacityBytes: 64 }).put(descriptor(1)), (put) => expect(put.ok).toBe(true)),
  ],
  "`store.markReady(keyId, checksum?)`": [
    throws("INVALID_ARGUMENT", "an absent item", () => new MemoryItemStore({ capacityBytes: 64 }).markReady(keyOf(1))),
    throws("INVALID_ARGUMENT", "a checksum of 3 bytes", () =>
      storeWithItem(false).markReady(keyOf(1), { algorithm: ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C, value: new Uint8Array(3) }),
    ),
  ],
  "`store.discard(keyId)`": [
    throws("INVALID_ARGUMENT", "[P6] a ready item", () => storeWithItem(true).discard(keyOf(1))),
    calm("an absent item", () => new MemoryItemStore({ capacityBytes: 64 }).discard(keyOf(1)), (discarded) => expect(discarded).toBe(false)),
  ],
  "`store.evict(keyId)`": [
    calm("absent (a number too), not-ready, pinned, then evicted", () => {
      const store = storeWithItem(false);
      const seen = [store.evict("absent"), store.evict(42), store.evict(keyOf(1))];
      store.markReady(keyOf(1));
      store.pin(keyOf(1));
      seen.push(store.evict(keyOf(1)));
      store.unpin(keyOf(1));
      seen.push(store.evict(keyOf(1)));
      return seen;
    }, (seen) => expect(seen).toEqual(["absent", "absent", "not-ready", "pinned", "evicted"])),
  ],
  "`store.clear(cause)`": [
    throws("INVALID_ARGUMENT", "a cause of evicted", () => storeWithItem(true).clear("evicted")),
    calm("reset", () => {
      const store = storeWithItem(true);
      store.clear("reset");
      return store.usedBytes();
    }, (used) => expect(used).toBe(0)),
  ],
  "`store.pin`, `unpin`, `unpinEntry` (the producer calls these)": [
    throws("INVALID_ARGUMENT", "pinning an absent item", () => new MemoryItemStore({ capacityBytes: 64 }).pin(keyOf(1))),
    throws("INVALID_ARGUMENT", "[P1] pinning a not-ready item", () => storeWithItem(false).pin(keyOf(1))),
    throws("INVALID_ARGUMENT", "[P2] unpinning without a pin", () => storeWithItem(true).unpin(keyOf(1))),
    throws("INVALID_ARGUMENT", "[P2] unpinEntry without a pin", () => {
      const store = storeWithItem(true);
      store.unpinEntry(store.get(keyOf(1)));
    }),
  ],
  "`encodeEnvelope(envelope)`": [
    throws("INVALID_ARGUMENT", "no version", () => encodeEnvelope({ senderId: "a", senderEpoch: 1, heartbeat: {} })),
    throws("INVALID_ARGUMENT", "two bodies", () => encodeEnvelope({ version: { major: 1 }, senderId: "a", senderEpoch: 1, heartbeat: {}, hello: {} })),
    throws("INVALID_ARGUMENT", "a string epoch", () => encodeEnvelope({ version: { major: 1 }, senderId: "a", senderEpoch: "1", heartbeat: {} })),
    throws("INVALID_ARGUMENT", "an epoch of 2^53", () => encodeEnvelope({ version: { major: 1 }, senderId: "a", senderEpoch: 2 ** 53, heartbeat: {} })),
  ],
  "`decodeEnvelope(bytes)`": [
    reports("MALFORMED_MESSAGE", "garbage bytes", () => decodeEnvelope(new Uint8Array([0xff, 0xff, 0xff]))),
    reports("VERSION", "[V1] an envelope of major 2", () => decodeEnvelope(otherMajor({ heartbeat: {} }))),
    reports("INVALID_ARGUMENT", "a string", () => decodeEnvelope("bytes")),
  ],
  "`encodeFrame(payload, options?)`": [
    throws("FRAME_TOO_LARGE", "5 bytes over maxFrameBytes 4", () => encodeFrame(new Uint8Array(5), { maxFrameBytes: 4 })),
    throws("INVALID_CONFIG", "maxFrameBytes -1", () => encodeFrame(new Uint8Array(1), { maxFrameBytes: -1 })),
    throws("INVALID_CONFIG", "options of null", () => encodeFrame(new Uint8Array(1), null)),
    throws("INVALID_ARGUMENT", "a string payload", () => encodeFrame("payload")),
  ],
  "`new FrameDecoder(options?)`": [
    throws("INVALID_CONFIG", "maxFrameBytes NaN", () => new FrameDecoder({ maxFrameBytes: Number.NaN })),
    throws("INVALID_CONFIG", "options of 5", () => new FrameDecoder(5)),
  ],
  "`decoder.push(chunk)`": [
    throws("FRAME_TOO_LARGE", "a length prefix of 4096 over 1024", () => new FrameDecoder({ maxFrameBytes: 1024 }).push(new Uint8Array([0, 0, 0x10, 0]))),
    throws("FRAME_TOO_LARGE", "a good chunk after an oversized prefix, before reset()", () => {
      const decoder = new FrameDecoder({ maxFrameBytes: 1024 });
      codeOf(() => decoder.push(new Uint8Array([0, 0, 0x10, 0])));
      decoder.push(encodeFrame(new Uint8Array([1])));
    }),
    throws("INVALID_ARGUMENT", "a string chunk", () => new FrameDecoder().push("chunk")),
    calm("a good frame after reset()", () => {
      const decoder = new FrameDecoder({ maxFrameBytes: 1024 });
      codeOf(() => decoder.push(new Uint8Array([0, 0, 0x10, 0])));
      decoder.reset();
      return decoder.push(encodeFrame(new Uint8Array([1]))).length;
    }, (frames) => expect(frames).toBe(1)),
  ],
  "`decoder.end()`": [
    throws("MALFORMED_MESSAGE", "a stream cut inside a frame", () => {
      const decoder = new FrameDecoder();
      decoder.push(encodeFrame(new Uint8Array(8)).subarray(0, 6));
      decoder.end();
    }),
    throws("FRAME_TOO_LARGE", "after an oversized prefix", () => {
      const decoder = new FrameDecoder({ maxFrameBytes: 1024 });
      codeOf(() => decoder.push(new Uint8Array([0, 0, 0x10, 0])));
      decoder.end();
    }),
  ],
  "`validateDescriptor`, `normalizeFingerprint`, `itemKeyId`": [
    reports("INVALID_DESCRIPTOR", "validateDescriptor of a descriptor without a key", () => validateDescriptor({ sizeBytes: 1 }, { maxItemBytes: 64 })),
    reports("INVALID_DESCRIPTOR", "normalizeFingerprint of a number", () => normalizeFingerprint(5)),
    reports("INVALID_DESCRIPTOR", "itemKeyId of an empty key", () => itemKeyId({})),
    reports("INCOMPATIBLE", "validateDescriptor against another fingerprint", () =>
      validateDescriptor(descriptor(1), { maxItemBytes: 64, fingerprint: { ...FINGERPRINT, model: "other" } }),
    ),
    reports("INVALID_ARGUMENT", "validateDescriptor with maxItemBytes 0", () => validateDescriptor(descriptor(1), { maxItemBytes: 0 })),
    calm("tryItemKeyId of garbage", () => [tryItemKeyId({}), tryItemKeyId(null)], (ids) => expect(ids).toEqual([undefined, undefined])),
  ],
  "`announcementFromJson(json, options?)`": [
    throws("INVALID_ARGUMENT", "options of a string", () => announcementFromJson("{}", "strict")),
    throws("INVALID_ARGUMENT", "ignoreUnknownFields 1", () => announcementFromJson("{}", { ignoreUnknownFields: 1 })),
    reports("INVALID_ANNOUNCEMENT", "[C2] text that is not JSON", () => announcementFromJson("{not json")),
    reports("INVALID_ANNOUNCEMENT", "[C2] a number", () => announcementFromJson(42)),
  ],
  "`announcementToJson`, `eventByteLength`, `itemDescriptorByteLength`, `crc32c`, `crc32cBytes`": [
    throws("INVALID_ARGUMENT", "announcementToJson of a number", () => announcementToJson(5)),
    throws("INVALID_ARGUMENT", "eventByteLength of null", () => eventByteLength(null)),
    throws("INVALID_ARGUMENT", "itemDescriptorByteLength of a string", () => itemDescriptorByteLength("item")),
    throws("INVALID_ARGUMENT", "crc32c of a string", () => crc32c("bytes")),
    throws("INVALID_ARGUMENT", "crc32cBytes of an array", () => crc32cBytes([1, 2, 3])),
  ],
  "`new MockNetwork(options)`": [
    throws("INVALID_CONFIG", "no seed", () => new MockNetwork({})),
    throws("INVALID_CONFIG", "a misspelt option", () => new MockNetwork({ seed: 1, latency: 1 })),
  ],
  "`network.endpoint(id)`": [
    throws("INVALID_ARGUMENT", "an empty id", () => new MockNetwork({ seed: 1 }).endpoint("")),
    throws("INVALID_ARGUMENT", "a crashed endpoint", () => {
      const network = new MockNetwork({ seed: 1 });
      network.endpoint("encoder-0");
      network.crash("encoder-0");
      network.endpoint("encoder-0");
    }),
  ],
  "`mockTransport.connectPeer(...)`": [
    reportsRejection("PEER_UNREACHABLE", "an unknown peer", () => {
      const network = new MockNetwork({ seed: 1 });
      const other = new MockNetwork({ seed: 1 }).endpoint("encoder-0");
      return network.endpoint("prefill-0").connectPeer("encoder-0", 1, other.localMetadata());
    }),
    reportsRejection("PEER_UNREACHABLE", "malformed metadata", () => new MockNetwork({ seed: 1 }).endpoint("prefill-0").connectPeer("encoder-0", 1, "addr")),
    reportsRejection("PEER_UNREACHABLE", "a crashed peer", () => {
      const network = new MockNetwork({ seed: 1 });
      const metadata = network.endpoint("encoder-0").localMetadata();
      network.crash("encoder-0");
      return network.endpoint("prefill-0").connectPeer("encoder-0", 1, metadata);
    }),
    reportsRejection("PEER_UNREACHABLE", "metadata that throws as it is read", () => {
      const network = new MockNetwork({ seed: 1 });
      const metadata = new Proxy(network.endpoint("encoder-0").localMetadata(), {
        get() {
          throw new Error("trap");
        },
      });
      return network.endpoint("prefill-0").connectPeer("encoder-0", 1, metadata);
    }),
    reportsRejection("INVALID_ARGUMENT", "an epoch that is not a non-negative safe integer", () => {
      const network = new MockNetwork({ seed: 1 });
      return network.endpoint("prefill-0").connectPeer("encoder-0", Number.NaN, network.endpoint("encoder-0").localMetadata());
    }),
    calm("a live peer", () => {
      const network = new MockNetwork({ seed: 1 });
      return network.endpoint("prefill-0").connectPeer("encoder-0", 1, network.endpoint("encoder-0").localMetadata());
    }),
  ],
  "`runOnVirtualTime(net, drivers, until, options?)`": [
    rejects("INVALID_ARGUMENT", "a driver left on real time", () => {
      const network = new MockNetwork({ seed: 1 });
      return runOnVirtualTime(network, [new Driver({ transport: network.endpoint("encoder-0"), producer: producer() })], () => true);
    }),
    rejects("INVALID_ARGUMENT", "a network on an external clock", () => {
      const network = new MockNetwork({ seed: 1, clock: { now: () => 0 } });
      return runOnVirtualTime(network, [new Driver({ transport: network.endpoint("encoder-0"), producer: producer(), clock: network })], () => true);
    }),
    rejects("INVALID_ARGUMENT", "no drivers", () => runOnVirtualTime(new MockNetwork({ seed: 1 }), [], () => true)),
    rejects("INVALID_ARGUMENT", "a misspelt option", () => {
      const network = new MockNetwork({ seed: 1 });
      return runOnVirtualTime(network, [new Driver({ transport: network.endpoint("encoder-0"), producer: producer(), clock: network })], () => true, { maxRound: 5 });
    }),
  ],
  "`new NixlTransport(options)`": [
    throws("INVALID_CONFIG", "a misspelt option", () => new NixlTransport({ localId: "prefill-0", backendParam: {} })),
    throws("INVALID_CONFIG", "no localId", () => new NixlTransport({})),
    throws("INVALID_CONFIG", "backendParams of numbers", () => new NixlTransport({ localId: "prefill-0", backendParams: { threads: 4 } })),
    // An addon path that does not exist, so that no NIXL install can make the addon load.
    throws("TRANSPORT_UNAVAILABLE", "no addon", () => new NixlTransport({ localId: "prefill-0", addonPath: join(tmpdir(), "no-such-dir", "ectp_nixl.node") })),
  ],
  "`new EctpError(code, message, options?)`": [
    throws("INVALID_ARGUMENT", "options of null", () => new EctpError("INTERNAL", "m", null)),
    throws("INVALID_ARGUMENT", "options of an array", () => new EctpError("INTERNAL", "m", [])),
  ],
  "`loadCases(dir?)`": [
    throws("INVALID_ARGUMENT", "a dir of 7", () => loadCases(7)),
    throws("INVALID_ARGUMENT", "a folder that does not exist", () => loadCases(join(emptyFolder(), "no-such-folder"))),
    throws("INVALID_ARGUMENT", "a folder without *.json files", () => loadCases(emptyFolder())),
  ],
  "`selectCases(cases, options)`": [
    throws("INVALID_ARGUMENT", "cases of a string", () => selectCases("consumer", {})),
    throws("INVALID_ARGUMENT", "no options", () => selectCases([])),
    throws("INVALID_ARGUMENT", "level REQUIRED", () => selectCases([], { level: "REQUIRED" })),
    throws("INVALID_ARGUMENT", "a filter of 5", () => selectCases([], { filter: 5 })),
  ],
  "`runSuite(options)`": [
    rejects("INVALID_ARGUMENT", "no testee factory", () => runSuite({ cases: [] })),
    rejects("INVALID_ARGUMENT", "a misspelt option", () => runSuite({ testee: noTestee, cases: [], knownFailng: new Map() })),
    rejects("INVALID_ARGUMENT", "features of a string", () => runSuite({ testee: noTestee, cases: [], features: "consumer" })),
    rejects("INVALID_ARGUMENT", "caseTimeoutMs 0", () => runSuite({ testee: noTestee, cases: [], caseTimeoutMs: 0 })),
    rejects("INVALID_ARGUMENT", "a level selectCases refuses", () => runSuite({ testee: noTestee, cases: [], level: "ALL" })),
  ],
  "`runScriptedCase(c, conn, options)`": [
    rejects("INVALID_ARGUMENT", "a case that is not a loaded one", () => runScriptedCase({}, { request: noTestee }, { features: new Set() })),
    rejects("INVALID_ARGUMENT", "a connection without request", () => runScriptedCase({ spec: {}, fullName: "x" }, {}, { features: new Set() })),
    rejects("INVALID_ARGUMENT", "features of an array", () => runScriptedCase({ spec: {}, fullName: "x" }, { request: noTestee }, { features: ["consumer"] })),
  ],
  "`runRandomised(options)`, `runSubscriberRandomised(options)`": [
    rejects("INVALID_ARGUMENT", "runRandomised without a producer factory", () => runRandomised({ consumer: noTestee, seeds: [1] })),
    rejects("INVALID_ARGUMENT", "runRandomised with a seed of 1.5", () => runRandomised({ consumer: noTestee, producer: noTestee, seeds: [1.5] })),
    rejects("INVALID_ARGUMENT", "runSubscriberRandomised with level REQUIRED", () =>
      runSubscriberRandomised({ producer: noTestee, subscriber: noTestee, seeds: [1], level: "REQUIRED" }),
    ),
  ],
  "`runTransportConformance(h, options?)`": [
    rejects("INVALID_ARGUMENT", "no harness", () => runTransportConformance()),
    rejects("INVALID_ARGUMENT", "a harness without createPeers", () => runTransportConformance({ name: "x", advance: noTestee, killPeer: noTestee })),
    rejects("INVALID_ARGUMENT", "a misspelt option", () => runTransportConformance({ name: "x", skipReason: "none here" }, { waitTimeout: 5 })),
  ],
  "`runMutants(options?)`": [
    rejects("INVALID_ARGUMENT", "options of a string", () => runMutants("all")),
    rejects("INVALID_ARGUMENT", "a misspelt option", () => runMutants({ mutant: [] })),
    rejects("INVALID_ARGUMENT", "a caseTimeoutMs of 0", () => runMutants({ caseTimeoutMs: 0 })),
    rejects("INVALID_ARGUMENT", "a patch whose text is in no source", () =>
      runMutants({ mutants: [{ name: "stale", patches: [{ file: "consumer/consumer.ts", find: "text found in no source file", replace: "" }] }] }),
    ),
  ],
  "`runSystemLevel(seed?)`": [
    rejects("INVALID_ARGUMENT", 'a seed of "x"', () => runSystemLevel("x")),
    rejects("INVALID_ARGUMENT", "a seed of 2^53", () => runSystemLevel(2 ** 53)),
  ],
};

// ---- the tests ------------------------------------------------------------------------------------

const doc = readFileSync(new URL("../docs/errors.md", import.meta.url), "utf8");
const rows = tableRows(doc);
let results;

beforeAll(async () => {
  results = await runProbes(PROBES);
});
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('docs/errors.md "Which call throws what"', () => {
  it("every row's codes are what its probes make happen, and every probe has its row", () => {
    expect(checkTable(rows, results)).toEqual([]);
  });

  it("reads every row of the table, with its codes and its Nothing or Only", () => {
    expect(rows.find((row) => row.call === "`consumer.admit(request, now)`")).toMatchObject({ throws: ["INVALID_ARGUMENT", "REENTRANT_CALL"], reports: [] });
    expect(rows.find((row) => row.call === "`new NixlTransport(options)`")?.throws).toEqual(["INVALID_CONFIG", "TRANSPORT_UNAVAILABLE", "NIXL_ERROR_MAP"]);
    expect(rows.find((row) => row.call === "`decoder.push(chunk)`")).toEqual({
      call: "`decoder.push(chunk)`",
      throws: ["FRAME_TOO_LARGE", "INVALID_ARGUMENT"],
      reports: [],
      nothing: false,
      only: false,
    });
    expect(rows.find((row) => row.call === "`consumer.drainFailed()`")).toMatchObject({ throws: ["REENTRANT_CALL"], only: true });
    expect(rows.find((row) => row.call === "`store.evict(keyId)`")).toMatchObject({ throws: [], nothing: true });
  });
});

describe("the table checker", () => {
  /**
   * What `checkTable` reports for the doc with `from` replaced by `to` in the row whose Call cell is
   * `call`, beyond what it reports for the doc itself.
   */
  const newProblems = (call, from, to) => {
    const line = doc.split("\n").find((l) => l.startsWith(`| ${call} |`));
    if (line === undefined || !line.includes(from)) throw new Error(`no row ${call} with ${from}`);
    const before = checkTable(rows, results);
    return checkTable(tableRows(doc.replace(line, line.replace(from, to))), results).filter((p) => !before.includes(p));
  };

  it("reports a row naming another code than its probes produce", () => {
    const call = "`new MemoryItemStore(options)`";
    expect(newProblems(call, "`INVALID_CONFIG`", "`INVALID_ARGUMENT`")).toEqual([
      `row ${call} throws INVALID_ARGUMENT, but no probe produced it`,
      `row ${call}: a probe throws INVALID_CONFIG, which the row does not name`,
    ]);
  });

  it("reports a reported code no probe produced, and a row saying Nothing whose probes throw", () => {
    const put = "`store.put(descriptor, bytes?)` (`MemoryItemStore`)";
    expect(newProblems(put, "`OVERLOADED`", "`NOT_READY`")).toEqual([
      `row ${put} reports NOT_READY, but no probe produced it`,
      `row ${put}: a probe reports OVERLOADED, which the row does not name`,
    ]);
    const discard = "`store.discard(keyId)`";
    expect(newProblems(discard, "`INVALID_ARGUMENT` for a ready item (ready items leave only by eviction [P6])", "Nothing")).toEqual([
      `row ${discard}: a probe throws INVALID_ARGUMENT, which the row does not name`,
    ]);
  });

  it("reports a row without probes, probes without a row, a probe that fails, and an Only row without odd input", () => {
    const table = [HEADING, "", "| Call | Throws | Reports instead of throwing |", "| --- | --- | --- |", "| `f()` | Only `REENTRANT_CALL` | — |", "| `g()` | Nothing | — |", ""].join("\n");
    const shown = new Map([
      ["`f()`", [{ column: "throws", code: "REENTRANT_CALL" }]],
      ["`h()`", [{ column: "none" }]],
    ]);
    expect(checkTable(tableRows(table), shown)).toEqual([
      "probes for `h()` name no row of the table (a row removed or reworded?)",
      'row `f()` says "Only", but no probe feeds it odd input that it takes without a throw',
      "row `g()` has no probes: add some for it",
    ]);
  });

  it("a probe whose call does not do what it expects is a problem, named", async () => {
    const shown = await runProbes({
      "`f()`": [
        throws("INVALID_CONFIG", "throws another code", () => new MemoryItemStore({ capacityBytes: 64 }).clear("x")),
        throws("INVALID_CONFIG", "throws nothing", () => 1),
        reports("OVERLOADED", "reports nothing", () => ({ ok: true })),
        rejects("INVALID_ARGUMENT", "resolves", async () => 1),
        calm("throws", () => encodeFrame("x")),
        calm("returns what the row does not say", () => 1, (value) => expect(value).toBe(2)),
        reentrant("a hook that never calls back", () => []),
      ],
    });
    expect(shown.get("`f()`").map((s) => s.problem)).toEqual([
      'probe "throws another code": threw INVALID_ARGUMENT',
      'probe "throws nothing": threw nothing (returned 1)',
      'probe "reports nothing": returned no { ok: false, error }',
      'probe "resolves": resolved',
      'probe "throws": threw INVALID_ARGUMENT',
      'probe "returns what the row does not say": returned what the row does not say: expected 1 to be 2 // Object.is equality',
      'probe "a hook that never calls back": the hook never called back',
    ]);
  });
});

/**
 * Property test: random interleavings of engine calls, producer messages (a tiny scripted
 * producer), garbage, read results and clock advances. Checks [I1] (never throws), [I2]
 * (one outcome per item or one failure report, by budget + one step), [I4] (no leaks),
 * [I5] (no destination freed under an unsettled read before the quarantine cap), [I6]
 * (ready bytes are the producer's bytes) and [C11] (bytes handled after their read's deadline,
 * before the poll that would end it, are never loaded).
 */
import { SPEC_VERSION, ectp, encodeEnvelope } from "@ectp/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CoreOutput } from "../outputs.js";
import type { ReadDestination } from "../transport.js";
import { ConsumerCore } from "./consumer.js";
import { FP, RecordingLogger, TestPool, descriptor, expectIdle, itemBytes } from "./test-support.js";
import type { AdmitItem, AdmitResult, FailedRequest } from "./types.js";

const CONFIG = {
  waitBudgetMs: 5_000,
  grantWaitMs: 1_000,
  transferTimeoutMs: 1_000,
  leaseMs: 3_000,
  leaseSafetyMarginMs: 500,
  quarantineCapMs: 2_000,
  heartbeatIntervalMs: 500,
  heartbeatMisses: 3,
  backoffInitialMs: 50,
  backoffMaxMs: 400,
  idlePeerMs: 10_000,
};
const HASHES = ["h0", "h1", "h2", "h3"];
const P = "e-1";
const R = ectp.v1.FailureReason;

type Op =
  | { t: "admit"; items: { hash: number; model: boolean; garbage: boolean; stale: boolean; local: boolean }[] }
  | { t: "readmit"; pick: number }
  | { t: "finish"; pick: number }
  | { t: "respond"; pick: number; kind: "grant" | "dup-grant" | "not-ready" | "not-found" | "overloaded" | "drop" | "bad-grant" }
  | { t: "result"; pick: number; kind: "ok" | "short" | "corrupt" | "failed" | "cancelled" }
  /** Time passes with no poll, then a read's bytes land ([C8][C11]: maybe after its deadline, before the poll that ends it). */
  | { t: "late-result"; pick: number; ms: number }
  | { t: "advance"; ms: number }
  | { t: "garbage"; bytes: number[] }
  | { t: "heartbeat" }
  | { t: "restart" }
  | { t: "unreachable" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant("admit" as const),
      items: fc.array(
        fc.record({
          hash: fc.integer({ min: 0, max: HASHES.length - 1 }),
          model: fc.boolean(),
          garbage: fc.constantFrom(false, false, false, false, true),
          stale: fc.constantFrom(false, false, false, true),
          local: fc.constantFrom(false, false, false, false, true),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("readmit" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("finish" as const), pick: fc.nat() }) },
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant("respond" as const),
      pick: fc.nat(),
      kind: fc.constantFrom("grant", "grant", "grant", "dup-grant", "not-ready", "not-found", "overloaded", "drop", "bad-grant"),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant("result" as const),
      pick: fc.nat(),
      kind: fc.constantFrom("ok", "ok", "ok", "short", "corrupt", "failed", "cancelled"),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("late-result" as const), pick: fc.nat(), ms: fc.integer({ min: 0, max: 2_500 }) }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 2_500 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("garbage" as const), bytes: fc.array(fc.nat(255), { maxLength: 24 }) }) },
  { weight: 2, arbitrary: fc.constant({ t: "heartbeat" as const }) },
  { weight: 1, arbitrary: fc.constant({ t: "restart" as const }) },
  { weight: 1, arbitrary: fc.constant({ t: "unreachable" as const }) },
);

/** What the random runs reached, so the generators cannot silently stop exercising a path. */
const reached = { remoteReady: 0, localEncodeWithReason: 0, failedReports: 0, quarantined: 0, retries: 0, resultsPastDeadline: 0 };

interface TrackedRequest {
  id: string;
  items: AdmitItem[];
  hashes: string[];
  firstDefer: (number | undefined)[];
  final: (string | undefined)[];
  failed: boolean;
}

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

class Harness {
  now = 0;
  producerEpoch = 1;
  readonly pool = new TestPool();
  readonly logger = new RecordingLogger();
  readonly core: ConsumerCore;
  readonly open: TrackedRequest[] = [];
  readonly reported = new Map<string, number>();
  /** ReadRequests not yet answered: attempt id and hash. */
  readonly pendingRequests: { attemptId: number; hash: string }[] = [];
  /** Reads started and not yet settled, with their start time. */
  readonly pendingReads: { readId: number; hash: string; dest: ReadDestination; startedAt: number }[] = [];
  readonly grantsSeen: { attemptId: number; grantId: number; hash: string }[] = [];
  nextGrantId = 1;
  nextRequest = 0;

  constructor(seed: number) {
    const pool = this.pool;
    const release = pool.release.bind(pool);
    // [I5] A destination may only be released once its read settled, or after the quarantine cap.
    pool.release = (d: ReadDestination) => {
      const read = this.pendingReads.find((r) => r.dest === d);
      if (read !== undefined && this.now < read.startedAt + CONFIG.transferTimeoutMs + CONFIG.quarantineCapMs)
        pool.violations.push(`destination of unsettled read ${read.readId} released at ${this.now}`);
      release(d);
    };
    this.core = new ConsumerCore({ id: "pd", epoch: 1, fingerprint: FP, destinations: pool, config: CONFIG, seed, logger: this.logger });
  }

  send(body: ectp.v1.IEnvelope, epoch = this.producerEpoch): void {
    this.core.handleEnvelope(P, { version: SPEC_VERSION, senderId: P, senderEpoch: epoch, ...body }, this.now);
  }

  poll(): void {
    this.collect(this.core.poll(this.now));
    this.drain();
  }

  collect(out: CoreOutput[]): void {
    for (const o of out) {
      if (o.type === "send" && o.envelope.readRequest) {
        const rr = o.envelope.readRequest;
        this.pendingRequests.push({
          attemptId: Number(rr.attemptId),
          hash: new TextDecoder().decode(rr.key?.contentHash ?? new Uint8Array()),
        });
      } else if (o.type === "start-read") {
        this.pendingReads.push({ readId: o.readId, hash: new TextDecoder().decode(o.source), dest: o.destination, startedAt: this.now });
      }
    }
  }

  drain(): void {
    for (const f of this.core.drainFailed()) this.onFailed(f);
  }

  onFailed(f: FailedRequest): void {
    // [I2][C6] Reported exactly once.
    assert(!this.reported.has(f.requestId), `request ${f.requestId} reported failed twice`);
    this.reported.set(f.requestId, this.now);
    reached.failedReports++;
    const tr = this.open.find((r) => r.id === f.requestId);
    assert(tr !== undefined, `failure reported for ${f.requestId}, which is not open`);
    tr.failed = true;
    assert(f.failures.length > 0, "a failure report names at least one item");
  }

  check(tr: TrackedRequest, r: AdmitResult): void {
    if (r.status === "failed") {
      assert(tr.failed, `admit returned failed for ${tr.id} before drainFailed reported it`);
      return;
    }
    assert(!tr.failed, `${tr.id} was reported failed but admit returned admitted`);
    r.items.forEach((d, i) => {
      if (d.action === "defer") {
        assert(tr.final[i] === undefined, `[C1] ${tr.id}/${i} went from ${tr.final[i]} back to defer`);
        tr.firstDefer[i] ??= this.now;
        // [I2] Never still waiting once its budget has passed.
        assert(this.now < (tr.firstDefer[i] as number) + CONFIG.waitBudgetMs, `[I2] ${tr.id}/${i} still deferred after its budget`);
        return;
      }
      const key = d.action === "ready" ? `ready:${d.destination ? "remote" : "local"}` : `local-encode:${d.reason ?? ""}`;
      if (tr.final[i] === undefined && key === "ready:remote") reached.remoteReady++;
      if (tr.final[i] === undefined && d.action === "local-encode" && d.reason !== undefined) reached.localEncodeWithReason++;
      assert(tr.final[i] === undefined || tr.final[i] === key, `[C1] ${tr.id}/${i} changed from ${tr.final[i]} to ${key}`);
      tr.final[i] = key;
      // [C5] Local encode only with model input (background failure 1).
      if (d.action === "local-encode") assert(tr.items[i]?.hasModelInput === true, `[C5] local-encode without model input`);
      if (d.action === "ready" && d.destination) {
        // [I6] Ready bytes are exactly the producer's bytes, in a live destination.
        assert(this.pool.live.has(d.destination), "[I6] ready destination is not live");
        const view = this.pool.view(d.destination) as Uint8Array;
        const want = itemBytes(tr.hashes[i] as string, 16);
        assert(view.length === want.length && view.every((b, k) => b === want[k]), "[I6] ready bytes differ from the producer's");
      }
    });
  }

  run(op: Op): void {
    switch (op.t) {
      case "admit": {
        const id = `r${this.nextRequest++}`;
        const seen = new Set<number>();
        const items: AdmitItem[] = [];
        const hashes: string[] = [];
        op.items.forEach((it) => {
          if (seen.has(it.hash)) return;
          seen.add(it.hash);
          const hash = HASHES[it.hash] as string;
          const epoch = it.stale ? Math.max(1, this.producerEpoch - 1) : this.producerEpoch;
          const item = descriptor(hash, { checksum: true, epoch, location: new TextEncoder().encode(hash) });
          const announcement = it.garbage ? { version: { major: 1 }, item: { ...item, sizeBytes: "x" } } : { version: { major: 1 }, item };
          items.push({ itemId: `i${it.hash}`, hasModelInput: it.model, local: it.local, announcement: announcement as never });
          hashes.push(hash);
        });
        const tr: TrackedRequest = { id, items, hashes, firstDefer: items.map(() => undefined), final: items.map(() => undefined), failed: false };
        this.open.push(tr);
        const r = this.core.admit({ requestId: id, items }, this.now);
        this.drain();
        this.check(tr, r);
        break;
      }
      case "readmit": {
        const tr = this.open[op.pick % Math.max(1, this.open.length)];
        if (!tr) break;
        const r = this.core.admit({ requestId: tr.id, items: tr.items }, this.now);
        this.drain();
        this.check(tr, r);
        break;
      }
      case "finish": {
        const i = op.pick % Math.max(1, this.open.length);
        const tr = this.open[i];
        if (!tr) break;
        this.core.finishRequest(tr.id, this.now);
        this.open.splice(i, 1);
        break;
      }
      case "respond": {
        const i = op.pick % Math.max(1, this.pendingRequests.length);
        const req = this.pendingRequests[i];
        if (!req) break;
        this.pendingRequests.splice(i, 1);
        const item = descriptor(req.hash, { checksum: true, epoch: this.producerEpoch, location: new TextEncoder().encode(req.hash) });
        switch (op.kind) {
          case "grant":
          case "dup-grant": {
            const grantId = this.nextGrantId++;
            this.grantsSeen.push({ attemptId: req.attemptId, grantId, hash: req.hash });
            this.send({ readGrant: { attemptId: req.attemptId, grantId, item, leaseMs: CONFIG.leaseMs } });
            if (op.kind === "dup-grant") this.send({ readGrant: { attemptId: req.attemptId, grantId, item, leaseMs: CONFIG.leaseMs } });
            break;
          }
          case "bad-grant":
            this.send({ readGrant: { attemptId: req.attemptId, grantId: this.nextGrantId++, item: { ...item, sizeBytes: 32 } } });
            break;
          case "not-ready":
            this.send({ readReject: { attemptId: req.attemptId, reason: R.FAILURE_REASON_NOT_READY, retryable: true } });
            break;
          case "overloaded":
            this.send({ readReject: { attemptId: req.attemptId, reason: R.FAILURE_REASON_OVERLOADED, retryable: true, retryAfterMs: 300 } });
            break;
          case "not-found":
            this.send({ readReject: { attemptId: req.attemptId, reason: R.FAILURE_REASON_NOT_FOUND } });
            break;
          case "drop":
            break;
        }
        this.poll();
        break;
      }
      case "result": {
        const i = op.pick % Math.max(1, this.pendingReads.length);
        const read = this.pendingReads[i];
        if (!read) break;
        this.pendingReads.splice(i, 1);
        const d = read.dest;
        const bytes = itemBytes(read.hash, d.length);
        if (op.kind === "corrupt") bytes[3] = ((bytes[3] as number) ^ 0xff) & 0xff;
        if (op.kind === "ok" || op.kind === "corrupt") d.region.bytes.set(bytes, d.offset);
        // A short read lands all but its last byte (whatever was there stays) and says so.
        if (op.kind === "short") d.region.bytes.set(bytes.subarray(0, d.length - 1), d.offset);
        const status = op.kind === "failed" ? "failed" : op.kind === "cancelled" ? "cancelled" : "done";
        const bytesRead = op.kind === "short" ? d.length - 1 : d.length;
        this.core.handleReadResult({ readId: read.readId, status, bytesRead }, this.now);
        this.poll();
        break;
      }
      case "late-result": {
        const i = op.pick % Math.max(1, this.pendingReads.length);
        const read = this.pendingReads[i];
        if (!read) break;
        this.pendingReads.splice(i, 1);
        this.now += op.ms; // no poll: whatever fell due in between is still pending in the core
        // Its deadline: the transfer timeout from the start (the lease, less its margin, ends later).
        const late = this.now >= read.startedAt + CONFIG.transferTimeoutMs;
        if (late) reached.resultsPastDeadline++;
        const d = read.dest;
        d.region.bytes.set(itemBytes(read.hash, d.length), d.offset);
        const loaded = this.core.stats().loadedItems;
        this.core.handleReadResult({ readId: read.readId, status: "done", bytesRead: d.length }, this.now);
        // [C11] Bytes handled at or after their read's deadline are never loaded, whatever the result says.
        // (The count may fall: the read ending TRANSFER_TIMEOUT can fail a request and free what it held.)
        if (late) assert(this.core.stats().loadedItems <= loaded, `[C11] read ${read.readId} loaded after its deadline`);
        this.poll();
        this.checkOverdue();
        break;
      }
      case "advance":
        this.now += op.ms;
        this.poll();
        this.checkOverdue();
        break;
      case "garbage":
        this.core.handleMessage(P, new Uint8Array(op.bytes), this.now);
        this.poll();
        break;
      case "heartbeat":
        this.send({ heartbeat: { sequence: 1 } });
        this.poll();
        break;
      case "restart":
        this.producerEpoch++;
        this.pendingRequests.length = 0; // the restarted producer forgot them
        this.send({ hello: { role: ectp.v1.Role.ROLE_PRODUCER, transportMetadata: new Uint8Array([this.producerEpoch]) } });
        this.poll();
        break;
      case "unreachable":
        this.core.handlePeerUnreachable(P, this.now);
        this.poll();
        break;
    }
  }

  /** [I2] After a poll at or past an item's budget, its request is reported failed or the item resolved. */
  checkOverdue(): void {
    for (const tr of this.open) {
      if (tr.failed) continue;
      const overdue = tr.firstDefer.some((t, i) => t !== undefined && tr.final[i] === undefined && this.now >= t + CONFIG.waitBudgetMs);
      if (!overdue) continue;
      const r = this.core.admit({ requestId: tr.id, items: tr.items }, this.now);
      this.drain();
      this.check(tr, r);
      if (r.status === "admitted") for (const d of r.items) assert(d.action !== "defer", `[I2] ${tr.id} deferred past its budget`);
    }
  }

  /** [I4] Finish everything, settle every read, let every timer run: back to baseline. */
  quiesce(): void {
    if (this.core.stats().quarantined > 0) reached.quarantined++;
    if (this.logger.records.some((r) => r.message === "retrying remote read")) reached.retries++;
    for (const tr of this.open.splice(0)) this.core.finishRequest(tr.id, this.now);
    this.poll();
    for (const read of this.pendingReads.splice(0)) this.core.handleReadResult({ readId: read.readId, status: "cancelled" }, this.now);
    this.poll();
    this.now += CONFIG.waitBudgetMs + CONFIG.quarantineCapMs + CONFIG.transferTimeoutMs + 10_000;
    this.poll();
    // [P8] The producer's connection, idle since its business ended, is let go idlePeerMs later.
    this.now += CONFIG.idlePeerMs;
    this.poll();
    expectIdle(this);
    expect(this.logger.at("error")).toEqual([]); // no internal fault was swallowed
    expect(this.core.nextDeadline()).toBeUndefined();
  }
}

describe("consumer property: random interleavings [I1][I2][I4][I5][I6][C11]", () => {
  it("[I1][I2][I4][I5][I6][C11] never throws, one outcome per item or one failure report, no leaks, nothing loaded past its deadline", () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(opArb, { minLength: 1, maxLength: 120, size: "max" }), (seed, ops) => {
        const h = new Harness(seed);
        for (const op of ops) h.run(op);
        h.quiesce();
      }),
      // ECTP_PROPERTY_SEED and ECTP_PROPERTY_PATH replay a failure fast-check reported.
      {
        numRuns: Number(process.env.ECTP_PROPERTY_RUNS ?? 300),
        ...(process.env.ECTP_PROPERTY_SEED ? { seed: Number(process.env.ECTP_PROPERTY_SEED) } : {}),
        ...(process.env.ECTP_PROPERTY_PATH !== undefined ? { path: process.env.ECTP_PROPERTY_PATH } : {}),
      },
    );
    for (const [path, count] of Object.entries(reached)) expect(count, `random runs never reached ${path}: ${JSON.stringify(reached)}`).toBeGreaterThan(0);
  }, 60_000);

  it("[I1] garbage envelopes and hostile values through handleMessage never throw", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            attemptId: fc.oneof(fc.nat(), fc.constant(-1), fc.constant(2 ** 60)),
            grantId: fc.oneof(fc.nat(), fc.constant(0)),
            size: fc.oneof(fc.nat(), fc.constant(2 ** 53 + 2)),
            reason: fc.integer({ min: -1, max: 40 }),
            epoch: fc.integer({ min: 1, max: 4 }),
          }),
          { maxLength: 30 },
        ),
        (msgs) => {
          const h = new Harness(1);
          h.run({ t: "admit", items: [{ hash: 0, model: false, garbage: false, stale: false, local: false }] });
          for (const m of msgs) {
            const base = { version: SPEC_VERSION, senderId: P, senderEpoch: m.epoch };
            const item = { ...descriptor("h0", { epoch: m.epoch }), sizeBytes: m.size };
            for (const body of [
              { readGrant: { attemptId: m.attemptId, grantId: m.grantId, item } },
              { readReject: { attemptId: m.attemptId, reason: m.reason, retryable: m.reason % 2 === 0 } },
              { handshakeReject: { reason: m.reason } },
            ]) {
              let bytes: Uint8Array;
              try {
                bytes = encodeEnvelope({ ...base, ...body });
              } catch {
                continue;
              }
              h.core.handleMessage(P, bytes, h.now);
              h.poll();
            }
            h.now += 100;
            h.poll();
          }
          h.quiesce();
        },
      ),
      { numRuns: 100 },
    );
  });
});

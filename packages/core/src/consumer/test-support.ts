/**
 * Test fixtures for the consumer's tests (not exported from the package): a recording
 * destination pool that checks [I5], recording metrics and logs, and builders for the
 * messages a producer would send.
 * @module
 */
import { SPEC_VERSION, crc32cBytes, ectp, encodeEnvelope } from "@ectp/protocol";
import type { ConsumerConfig } from "../config.js";
import type { LogFields, Logger, MetricsSink } from "../observability.js";
import type { CoreOutput, SendOutput, StartReadOutput } from "../outputs.js";
import type { ReadDestination } from "../transport.js";
import { expect } from "vitest";
import { ConsumerCore } from "./consumer.js";
import type { AdmitItem, AdmitResult, DestinationPool } from "./types.js";

/** The fingerprint every test item uses. */
export const FP: ectp.v1.IFingerprint = { model: "m", dtype: 1, rowBytes: 8, layoutVersion: 1 };

/** A pool that hands out fresh buffers, counts them, and records any release that breaks [I5]. */
export class TestPool implements DestinationPool {
  live = new Set<ReadDestination>();
  released: ReadDestination[] = [];
  violations: string[] = [];
  full = false;
  viewable = true;
  private nextId = 1;

  allocate(_keyId: string, sizeBytes: number): ReadDestination | undefined {
    if (this.full) return undefined;
    const d: ReadDestination = { region: { id: this.nextId++, bytes: new Uint8Array(sizeBytes) }, offset: 0, length: sizeBytes };
    this.live.add(d);
    return d;
  }
  release(d: ReadDestination): void {
    if (!this.live.delete(d)) this.violations.push("release of a destination not allocated or already released");
    this.released.push(d);
  }
  view(d: ReadDestination): Uint8Array | undefined {
    return this.viewable ? d.region.bytes.subarray(d.offset, d.offset + d.length) : undefined;
  }
}

/** A metrics sink that records counters, every gauge setting and every histogram observation. */
export class RecordingMetrics implements MetricsSink {
  counters: { name: string; value: number; labels: Readonly<Record<string, string>> | undefined }[] = [];
  gauges: { name: string; value: number }[] = [];
  histograms: { name: string; value: number; labels: Readonly<Record<string, string>> | undefined }[] = [];
  counter(name: string, value = 1, labels?: Readonly<Record<string, string>>): void {
    this.counters.push({ name, value, labels });
  }
  gauge(name: string, value: number): void {
    this.gauges.push({ name, value });
  }
  /** A gauge's latest value (undefined: never set). */
  latest(name: string): number | undefined {
    let value: number | undefined;
    for (const g of this.gauges) if (g.name === name) value = g.value;
    return value;
  }
  histogram(name: string, value: number, labels?: Readonly<Record<string, string>>): void {
    this.histograms.push({ name, value, labels });
  }
  /** The values observed on a histogram, in order. */
  observed(name: string): number[] {
    return this.histograms.filter((h) => h.name === name).map((h) => h.value);
  }
  /** Sum of a counter, optionally restricted to one label value. */
  total(name: string, label?: [string, string]): number {
    let t = 0;
    for (const c of this.counters)
      if (c.name === name && (label === undefined || c.labels?.[label[0]] === label[1])) t += c.value;
    return t;
  }
}

/** A logger that records every record. */
export class RecordingLogger implements Logger {
  records: { level: string; message: string; fields: LogFields | undefined }[] = [];
  debug(message: string, fields?: LogFields): void {
    this.records.push({ level: "debug", message, fields });
  }
  info(message: string, fields?: LogFields): void {
    this.records.push({ level: "info", message, fields });
  }
  warn(message: string, fields?: LogFields): void {
    this.records.push({ level: "warn", message, fields });
  }
  error(message: string, fields?: LogFields): void {
    this.records.push({ level: "error", message, fields });
  }
  at(level: string): { level: string; message: string; fields: LogFields | undefined }[] {
    return this.records.filter((r) => r.level === level);
  }
}

/** The producer the test items come from (their descriptors' `producerId`). */
export const P = "e-1";

/** Heartbeats out of the way, for tests about other timers with a silent scripted producer. */
export const QUIET = { heartbeatIntervalMs: 1_000_000 };

/** A consumer with recording hooks, in epoch `epoch` (default 1). */
export function makeConsumer(config: Partial<ConsumerConfig> = {}, seed = 1, epoch = 1) {
  const pool = new TestPool();
  const metrics = new RecordingMetrics();
  const logger = new RecordingLogger();
  const core = new ConsumerCore({
    id: "pd-1",
    epoch,
    fingerprint: FP,
    destinations: pool,
    transportMetadata: new Uint8Array([9]),
    config,
    seed,
    metrics,
    logger,
  });
  return { core, pool, metrics, logger };
}

/**
 * [I4] The consumer is back to its baseline: every table empty, every destination returned to
 * the pool, no pool misuse, no hook failure (`ignoredMessages` aside, which only counts).
 */
export function expectIdle(h: { core: ConsumerCore; pool: TestPool }): void {
  expect({ ...h.core.stats(), ignoredMessages: 0 }).toEqual({
    requests: 0,
    budgets: 0,
    fetches: 0,
    readsInFlight: 0,
    quarantined: 0,
    grantsHeld: 0,
    loadedItems: 0,
    destinations: 0,
    undrainedFailures: 0,
    ignoredMessages: 0,
    hookFailures: 0,
  });
  expect(h.pool.live.size).toBe(0);
  expect(h.pool.violations).toEqual([]);
  expect(tablesLeft(h.core)).toEqual([]);
}

/** The private tables {@link tablesLeft} reads (a test's view of them: not part of the API). */
interface ConsumerTables {
  requests: { size: number };
  keys: { size: number };
  attempts: { size: number };
  reads: { size: number };
  peers: Map<string, { id: string; grants: { size: number }; ackWaiters: Set<unknown>; fetchCount: number; fHead: unknown; tLane: number }>;
  timers: { size: number };
  together: unknown;
  lastReq: unknown;
  planDesc: unknown[];
  planRec: unknown[];
  planMeta: unknown[];
  planDecisions: unknown[];
  planAnnouncement: unknown[];
  planKeyId: unknown[];
}

/**
 * [I4] What a consumer's own tables still hold when it should be idle, each as a line ([] when
 * nothing): the real sizes, not the counters `stats()` reports, so that a record left in a table
 * no counter covers (a peer's grant, an attempt, a timer) is seen too. Peers themselves may stay
 * (they are forgotten when idle for `idlePeerMs`), with their heartbeat timers.
 */
export function tablesLeft(core: ConsumerCore): string[] {
  const t = core as unknown as ConsumerTables;
  const left: string[] = [];
  const sizes = { requests: t.requests.size, keys: t.keys.size, attempts: t.attempts.size, reads: t.reads.size };
  for (const [name, size] of Object.entries(sizes)) if (size !== 0) left.push(`${name}: ${size}`);
  let peerTimers = 0;
  for (const peer of t.peers.values()) {
    if (peer.grants.size !== 0) left.push(`peer ${peer.id} grants: ${peer.grants.size}`);
    if (peer.ackWaiters.size !== 0) left.push(`peer ${peer.id} ackWaiters: ${peer.ackWaiters.size}`);
    if (peer.fetchCount !== 0 || peer.fHead !== undefined) left.push(`peer ${peer.id} fetches: ${peer.fetchCount}`);
    if (peer.tLane !== -1) peerTimers++;
  }
  if (t.timers.size !== peerTimers) left.push(`timers: ${t.timers.size}, of which ${peerTimers} of peers`);
  if (t.together !== undefined) left.push("an event batch still open");
  if (t.lastReq !== undefined) left.push("admit still holds the last request");
  const scratch = {
    planDesc: t.planDesc,
    planRec: t.planRec,
    planMeta: t.planMeta,
    planDecisions: t.planDecisions,
    planAnnouncement: t.planAnnouncement,
    planKeyId: t.planKeyId,
  };
  for (const [name, list] of Object.entries(scratch))
    if (list.some((x) => x !== undefined)) left.push(`${name} holds ${list.filter((x) => x !== undefined).length}`);
  return left;
}

/** The bytes of test item `hash` (deterministic from its name). */
export function itemBytes(hash: string, size: number): Uint8Array {
  const b = new Uint8Array(size);
  for (let i = 0; i < size; i++) b[i] = (hash.charCodeAt(i % hash.length) + i) & 0xff;
  return b;
}

/** Options of {@link descriptor}. */
export interface DescOptions {
  size?: number;
  producer?: string;
  epoch?: number;
  checksum?: boolean;
  location?: Uint8Array;
}

/** A descriptor of test item `hash`. */
export function descriptor(hash: string, o: DescOptions = {}): ectp.v1.IItemDescriptor {
  const size = o.size ?? 16;
  const d: ectp.v1.IItemDescriptor = {
    key: { contentHash: new TextEncoder().encode(hash), fingerprint: FP },
    sizeBytes: size,
    producerId: o.producer ?? P,
    epoch: o.epoch ?? 1,
    location: o.location ?? new Uint8Array([1, 2, 3]),
  };
  if (o.checksum) d.checksum = { algorithm: 1, value: crc32cBytes(itemBytes(hash, size)) };
  return d;
}

/** An announcement of test item `hash`. */
export function announce(hash: string, o: DescOptions & { metadata?: Uint8Array } = {}): ectp.v1.IAnnouncement {
  const a: ectp.v1.IAnnouncement = { version: { major: 1, minor: 0 }, item: descriptor(hash, o) };
  if (o.metadata) a.transportMetadata = o.metadata;
  return a;
}

/** An envelope from producer `from` at `epoch`. */
export function env(from: string, epoch: number, body: ectp.v1.IEnvelope): ectp.v1.IEnvelope {
  return { version: SPEC_VERSION, senderId: from, senderEpoch: epoch, ...body };
}

/** Sent envelopes of a poll result with a given body field, e.g. "readRequest". */
export function sent(outputs: CoreOutput[], body: keyof ectp.v1.IEnvelope): SendOutput[] {
  return outputs.filter((o): o is SendOutput => o.type === "send" && o.envelope[body] != null);
}

/** start-read outputs of a poll result. */
export function starts(outputs: CoreOutput[]): StartReadOutput[] {
  return outputs.filter((o): o is StartReadOutput => o.type === "start-read");
}

/** The attempt id of the only ReadRequest in `outputs`. */
export function onlyAttempt(outputs: CoreOutput[]): number {
  const reqs = sent(outputs, "readRequest");
  if (reqs.length !== 1) throw new Error(`expected one ReadRequest, got ${reqs.length}`);
  return Number(reqs[0]?.envelope.readRequest?.attemptId);
}

/** ReadComplete statuses sent, as [grantId, status] pairs. */
export function acks(outputs: CoreOutput[]): [number, number][] {
  return sent(outputs, "readComplete").map((o) => [
    Number(o.envelope.readComplete?.grantId),
    Number(o.envelope.readComplete?.status),
  ]);
}

/** Write test item bytes into a started read's destination (what a transport would do). */
export function fill(start: StartReadOutput, hash: string, corrupt = false): void {
  const d = start.destination;
  const bytes = itemBytes(hash, d.length);
  if (corrupt) bytes[0] = ((bytes[0] as number) + 1) & 0xff;
  d.region.bytes.set(bytes, d.offset);
}

/** An admitted item announced remotely (test item `hash`). */
export function remote(itemId: string, hash: string, hasModelInput = false, o: Parameters<typeof announce>[1] = {}): AdmitItem {
  return { itemId, announcement: announce(hash, o), hasModelInput };
}

/** Deliver a grant of test item `hash` for `attemptId` (from {@link P} unless `o.from`) and poll. */
export function grant(
  h: ReturnType<typeof makeConsumer>,
  attemptId: number,
  grantId: number,
  hash: string,
  now: number,
  o: DescOptions & { leaseMs?: number; from?: string } = {},
): CoreOutput[] {
  const from = o.from ?? P;
  h.core.handleEnvelope(from, env(from, o.epoch ?? 1, { readGrant: { attemptId, grantId, item: descriptor(hash, o), leaseMs: o.leaseMs ?? 30_000 } }), now);
  return h.core.poll(now);
}

/** Item `i`'s decision of an admitted request (throws when the request failed). */
export function decision(r: AdmitResult, i = 0) {
  if (r.status !== "admitted") throw new Error(`request failed: ${JSON.stringify(r.failures)}`);
  return r.items[i];
}

/**
 * [V1][P8] Producer {@link P}'s epoch 1 known, a fetch of its epoch 5 (request "r1", item "a") is
 * refused VERSION by epoch 5 in major 2: its frozen sender_epoch names 5, and epoch 1 stays the
 * greatest known of our major (SPEC 4.2). The failure is drained.
 */
export function refusedByEpoch5InMajor2(h: ReturnType<typeof makeConsumer>): void {
  h.core.handleEnvelope(P, env(P, 1, { heartbeat: { sequence: 1 } }), 0);
  h.core.admit({ requestId: "r1", items: [remote("a", "h1", false, { epoch: 5 })] }, 0);
  h.core.poll(0);
  const reject = { version: { major: 2, minor: 0 }, senderId: P, senderEpoch: 5, handshakeReject: { reason: ectp.v1.FailureReason.FAILURE_REASON_VERSION } };
  h.core.handleMessage(P, encodeEnvelope(reject), 1);
  h.core.poll(1);
  expect(h.core.drainFailed().map((f) => f.failures[0]?.reason)).toEqual(["VERSION"]);
}

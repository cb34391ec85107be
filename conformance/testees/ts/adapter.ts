/**
 * The reference testee: `@ectp/core`'s ConsumerCore / ProducerCore (+ MemoryItemStore) /
 * EventSubscriber behind the testee protocol (TESTEE-PROTOCOL.md). Used in-process by the runner's own
 * tests and as a subprocess by `testees/ts/main.ts`; mutants plug a patched core module in.
 * @module
 */
import { FrameDecoder, announcementFromJson, crc32c, encodeEnvelope, itemKeyId, ectp as wire } from "@ectp/protocol";
import { TESTEE_PROTOCOL_VERSION, ectp } from "../../src/proto.js";
import type { TesteeHandler } from "../../src/testee/in-process.js";

type Req = ectp.conformance.v1.TesteeRequest;
type Res = ectp.conformance.v1.ITesteeResponse;
const C = ectp.conformance.v1;

/** A region of destination memory, as the core's DestinationPool hands it out. */
interface Region {
  readonly id: number;
  bytes: Uint8Array;
}
interface Destination {
  readonly region: Region;
  readonly offset: number;
  readonly length: number;
}

/**
 * The parts of a core module (`@ectp/core` or a mutant copy of it) the adapter uses.
 * Structural so a patched bundle of the core fits without sharing class identity.
 */
export interface CoreModule {
  /** The consumer state machine class. */
  ConsumerCore: CoreConstructor;
  /** The producer state machine class. */
  ProducerCore: CoreConstructor;
  /** The reference item store. */
  MemoryItemStore: CoreConstructor;
  /** The event subscriber class; without it the testee answers the subscriber role Unsupported. */
  EventSubscriber?: CoreConstructor | undefined;
  /**
   * The byte-stream frame decoder DecodeStream runs (SPEC.md section 5): a mutant bundle's copy,
   * whose framing may be patched. Default `@ectp/protocol`'s (`@ectp/core` exports none).
   */
  FrameDecoder?: CoreConstructor | undefined;
  /**
   * The envelope encoder whose bytes a send reports (feature raw-outputs, testee.proto
   * SendOutput.raw): what the `Driver` puts on the wire. A mutant bundle's copy, whose encoding may
   * be patched. Default `@ectp/protocol`'s (`@ectp/core` exports none).
   */
  encodeEnvelope?: ((envelope: Loose) => Uint8Array) | undefined;
}

/** A class constructor taking one options object; the core's classes fit (structurally, so copies do too). */
export interface CoreConstructor {
  /** Construct an instance from its options object. */
  // biome-ignore lint/suspicious/noExplicitAny: any core build (shipped or mutant) must fit without sharing types
  new (options: any): any;
}

/**
 * A core instance (or a value it returns) as the adapter handles it: untyped, because any
 * core build must fit (shipped or mutant, see {@link CoreConstructor}) and because the
 * runner's requests are passed on exactly as sent, absent fields included, for the core to
 * cope with.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
type Loose = any;

/** Options of {@link CoreTesteeHandler}. */
export interface CoreTesteeOptions {
  /** Implementation name reported in InitResult. Default "ectp-ts". */
  name?: string;
}

const TIMER_KEYS = [
  "heartbeatIntervalMs",
  "heartbeatMisses",
  "waitBudgetMs",
  "grantWaitMs",
  "transferTimeoutMs",
  "quarantineCapMs",
  "backoffInitialMs",
  "backoffMaxMs",
  "leaseSafetyMarginMs",
  "maxItemBytes",
  "leaseMs",
  "maxPinnedBytesPerConsumer",
  "maxGrantsPerConsumer",
  "replayBufferBatches",
  "retryAfterMs",
  "maxBatchBytes",
  "resendIntervalMs",
] as const;

const DEFAULT_CAPACITY = 256 * 1024 * 1024;

/** Features the TS reference testee implements (TESTEE-PROTOCOL.md §7), as it reports them in InitResult. */
export const TS_TESTEE_FEATURES: readonly string[] = Object.freeze([
  "consumer",
  "producer",
  "raw-messages",
  "untrusted-json",
  "evict",
  "read-memory",
  "events",
  "subscriber",
  "subscriber-view-bound",
  "warm-start",
  "stream-framing",
  "raw-outputs",
]);

/**
 * A send's envelope as testee.proto carries it. Through the generated encoder, which checks each
 * field; one it refuses (an id past 2^53 - 1, say) is converted field by field instead, so the
 * runner sees what the core decided and names what is wrong with it (SPEC.md 3.8).
 */
function reportedEnvelope(envelope: Loose): ectp.v1.IEnvelope {
  try {
    return ectp.v1.Envelope.decode(wire.v1.Envelope.encode(envelope).finish());
  } catch {
    return ectp.v1.Envelope.fromObject(envelope);
  }
}

/** First-fit allocator over one region: freed space is reused, so early releases show [I5]. */
class Pool {
  readonly region: Region;
  private free: { offset: number; length: number }[];
  readonly live = new Set<Destination>();
  /** The first release of a destination the pool does not hold, not yet reported (see {@link Pool.takeMisuse}). */
  private misuse: string | undefined;

  constructor(capacity: number) {
    // The backing buffer grows on demand up to `capacity` (a 256 MiB default would cost
    // every Configure a large allocation); destinations hold the region, never the buffer.
    this.region = { id: 1, bytes: new Uint8Array(Math.min(capacity, 64 * 1024)) };
    this.free = [{ offset: 0, length: capacity }];
  }

  private ensure(end: number): void {
    const r = this.region as { bytes: Uint8Array };
    if (end <= r.bytes.length) return;
    const grown = new Uint8Array(Math.max(end, r.bytes.length * 2));
    grown.set(r.bytes);
    r.bytes = grown;
  }

  allocate(_keyId: string, size: number): Destination | undefined {
    const n = Math.max(1, size);
    const idx = this.free.findIndex((f) => f.length >= n);
    if (idx < 0) return undefined;
    const f = this.free[idx] as { offset: number; length: number };
    const d: Destination = { region: this.region, offset: f.offset, length: size };
    if (f.length === n) this.free.splice(idx, 1);
    else this.free[idx] = { offset: f.offset + n, length: f.length - n };
    this.ensure(d.offset + n);
    this.live.add(d);
    return d;
  }

  release(d: Destination): void {
    if (!this.live.delete(d)) {
      // [I5] Released twice, or never handed out: a real pool would free bytes another read may own
      // by now. The core contains a throw from release (logs it), so it is reported by the command.
      this.misuse ??= `[I5] the core released a destination the pool does not hold (region ${d?.region?.id}, offset ${d?.offset}, length ${d?.length}): released twice, or never allocated`;
      return;
    }
    this.free.push({ offset: d.offset, length: Math.max(1, d.length) });
    this.free.sort((a, b) => a.offset - b.offset);
    const merged: { offset: number; length: number }[] = [];
    for (const f of this.free) {
      const last = merged[merged.length - 1];
      if (last && last.offset + last.length === f.offset) last.length += f.length;
      else merged.push({ ...f });
    }
    this.free = merged;
  }

  view(d: Destination): Uint8Array {
    return d.region.bytes.subarray(d.offset, d.offset + d.length);
  }

  /** The misuse of the pool seen since the last call, if any, and forget it. */
  takeMisuse(): string | undefined {
    const m = this.misuse;
    this.misuse = undefined;
    return m;
  }
}

function num(v: unknown): number {
  return typeof v === "number" ? v : Number(v ?? 0);
}

/** Re-encode a message of this package's generated code as `@ectp/protocol`'s plain decoded object. */
function toWire<T>(encode: () => Uint8Array, decode: (b: Uint8Array) => T): T {
  return decode(encode());
}

/**
 * A PutItem's bytes: `data`, or with `fill` that many copies of the byte value as its descriptor's
 * size_bytes says (testee.proto PutItem.fill); a new zeroed array is only touched when the value is not 0.
 */
function itemBytes(put: ectp.conformance.v1.IPutItem): Uint8Array {
  if (put.fill == null) return new Uint8Array(put.data ?? new Uint8Array(0));
  if (put.data && put.data.length > 0) throw Object.assign(new Error("PutItem sets both data and fill; fill comes with empty data"), { code: "INVALID_ARGUMENT" });
  if (put.fill > 255) throw Object.assign(new Error(`PutItem.fill is a byte value, 0 to 255; got ${put.fill}`), { code: "INVALID_ARGUMENT" });
  const bytes = new Uint8Array(num(put.descriptor?.sizeBytes));
  return put.fill === 0 ? bytes : bytes.fill(put.fill);
}

function reasonNumber(name: string | undefined): number {
  if (!name) return 0;
  return (ectp.v1.FailureReason as unknown as Record<string, number>)[`FAILURE_REASON_${name}`] ?? 0;
}

/**
 * Answers testee requests with one instance of a core module. Every `Configure` makes a
 * fresh instance. Exceptions thrown by the core become `Error` responses (the runner
 * counts them as crashes [I1]).
 */
export class CoreTesteeHandler implements TesteeHandler {
  private readonly core: CoreModule;
  private readonly name: string;
  private role = 0;
  private consumer: Loose;
  private producer: Loose;
  private subscriber: Loose;
  private store: Loose;
  private pool: Pool | undefined;
  private readonly reads = new Map<number, Destination>();
  private readonly memory = new Map<string, Uint8Array>();
  /** The location each held item's bytes were registered at (removed with the item). */
  private readonly locationOf = new Map<string, string>();
  private producerId = "";
  private producerEpoch = 0;
  private nextLocation = 1;

  /**
   * @param core - the core module to test (`@ectp/core` or a mutant bundle).
   * @param options - name reported in InitResult.
   */
  constructor(core: CoreModule, options: CoreTesteeOptions = {}) {
    this.core = core;
    this.name = options.name ?? "ectp-ts";
  }

  handle(req: Req): Res {
    const commandId = req.commandId;
    let res: Res;
    try {
      res = this.dispatch(req);
    } catch (err) {
      const e = err as { message?: string; code?: string };
      res = { error: { message: String(e?.message ?? err), code: typeof e?.code === "string" ? e.code : "" } };
    }
    // A breach of the pool's contract during the command fails the command, whatever it answered.
    const misuse = this.pool?.takeMisuse();
    return misuse === undefined ? { commandId, ...res } : { commandId, error: { message: misuse, code: "DESTINATION_POOL" } };
  }

  private dispatch(req: Req): Res {
    const now = num(req.nowMs);
    // testee.proto TesteeRequest.command: a request with none set (or one from a newer
    // protocol this build does not know) is answered Unsupported{"unknown-command"}.
    if (req.command === undefined) return { unsupported: { feature: "unknown-command" } };
    if (req.init && req.init.protocolVersion !== TESTEE_PROTOCOL_VERSION)
      return {
        error: {
          message: `testee protocol version ${req.init.protocolVersion} requested; this testee speaks ${TESTEE_PROTOCOL_VERSION}`,
          code: "UNSUPPORTED_PROTOCOL",
        },
      };
    if (req.init)
      return {
        init: {
          protocolVersion: TESTEE_PROTOCOL_VERSION,
          implementation: this.name,
          implementationVersion: "0.1.0",
          // A core build without EventSubscriber (an older one) has no subscriber role, nor its view bound.
          features: TS_TESTEE_FEATURES.filter((f) => !f.startsWith("subscriber") || this.core.EventSubscriber !== undefined),
        },
      };
    if (req.configure) return this.configure(req.configure);
    if (req.decodeStream) return this.decodeStream(req.decodeStream);
    if (req.poll) return this.poll(now);
    if (req.getStats) return this.stats();
    if (req.advanceClock) {
      this.instance(); // NOT_CONFIGURED before the first Configure, like every command but Init and Configure
      return { ok: {} };
    }
    if (req.deliverMessage) {
      const dm = req.deliverMessage;
      const bytes = dm.raw && dm.raw.length > 0 ? dm.raw : ectp.v1.Envelope.encode(dm.envelope ?? {}).finish();
      this.instance().handleMessage(dm.from, bytes, now);
      return { ok: {} };
    }
    if (req.peerUnreachable) {
      this.instance().handlePeerUnreachable(req.peerUnreachable.peerId, now);
      return { ok: {} };
    }
    if (this.role === C.Role.ROLE_CONSUMER) return this.consumerCommand(req, now);
    if (this.role === C.Role.ROLE_PRODUCER) return this.producerCommand(req, now);
    if (this.role === C.Role.ROLE_SUBSCRIBER) return this.subscriberCommand(req, now);
    return { error: { message: "send Configure first", code: "NOT_CONFIGURED" } };
  }

  /**
   * DecodeStream (feature stream-framing): one new frame decoder of the core module is given every
   * chunk, in order, also after it refused the stream (it must refuse what follows itself), then the
   * stream's end. Its FRAME_TOO_LARGE and MALFORMED_MESSAGE errors are outcomes (the first one counts);
   * anything else it throws before that is an Error answer, a crash [I1]. After the first outcome
   * whatever it throws is ignored (it may refuse later pushes with any error): only the frames it
   * still hands out count.
   */
  private decodeStream(d: ectp.conformance.v1.IDecodeStream): Res {
    const Decoder = this.core.FrameDecoder ?? FrameDecoder;
    const decoder: Loose = new Decoder(d.maxFrameBytes == null ? undefined : { maxFrameBytes: d.maxFrameBytes });
    const chunks = d.chunks ?? [];
    const frames: ectp.conformance.v1.IDecodedFrame[] = [];
    let outcome: ectp.conformance.v1.StreamOutcome | undefined;
    let outcomeChunk = chunks.length;
    /** The frames `err` carries (those its chunk completed before it) when its code is an outcome; none for another error after the outcome. */
    const stoppedBy = (err: unknown, chunk: number): Uint8Array[] => {
      const code = (err as { code?: unknown } | undefined)?.code;
      const o = code === "FRAME_TOO_LARGE" ? C.StreamOutcome.STREAM_OUTCOME_FRAME_TOO_LARGE : code === "MALFORMED_MESSAGE" ? C.StreamOutcome.STREAM_OUTCOME_MALFORMED_MESSAGE : undefined;
      if (o === undefined) {
        if (outcome === undefined) throw err;
        return []; // a later push or the end refused with another error, after the outcome: ignored
      }
      if (outcome === undefined) {
        outcome = o;
        outcomeChunk = chunk;
      }
      return (err as { details?: { frames?: Uint8Array[] } }).details?.frames ?? [];
    };
    for (const [i, chunk] of chunks.entries()) {
      let got: Uint8Array[];
      try {
        got = decoder.push(chunk);
      } catch (err) {
        got = stoppedBy(err, i);
      }
      for (const payload of got) frames.push({ payload, chunk: i });
    }
    try {
      decoder.end();
    } catch (err) {
      stoppedBy(err, chunks.length);
    }
    return { decodeStream: { frames, outcome: outcome ?? C.StreamOutcome.STREAM_OUTCOME_CLEAN_END, outcomeChunk } };
  }

  private instance(): Loose {
    const i = this.role === C.Role.ROLE_CONSUMER ? this.consumer : this.role === C.Role.ROLE_SUBSCRIBER ? this.subscriber : this.producer;
    if (!i) throw Object.assign(new Error("send Configure first"), { code: "NOT_CONFIGURED" });
    return i;
  }

  private configure(c: ectp.conformance.v1.IConfigure): Res {
    this.consumer = undefined;
    this.producer = undefined;
    this.subscriber = undefined;
    this.store = undefined;
    this.pool = undefined;
    this.reads.clear();
    this.memory.clear();
    this.locationOf.clear();
    this.nextLocation = 1; // no state leaks from one instance to the next (TESTEE-PROTOCOL.md §2)
    // The role is kept only once its instance exists: after a refused Configure, commands are NOT_CONFIGURED.
    this.role = 0;
    const role = c.role ?? 0;
    const config: Record<string, number> = {};
    const t = (c.timers ?? {}) as Record<string, unknown>;
    for (const k of TIMER_KEYS) if (Object.hasOwn(t, k) && t[k] != null) config[k] = num(t[k]);
    const fingerprint = toWire(
      () => ectp.v1.Fingerprint.encode(c.fingerprint ?? {}).finish(),
      (b) => wire.v1.Fingerprint.decode(b),
    );
    const base = {
      id: c.id ?? "",
      epoch: num(c.epoch),
      fingerprint,
      transportMetadata: c.transportMetadata && c.transportMetadata.length > 0 ? new Uint8Array(c.transportMetadata) : undefined,
      config,
    };
    if (role === C.Role.ROLE_CONSUMER) {
      const pool = new Pool(num(c.destinationCapacityBytes) || DEFAULT_CAPACITY);
      this.pool = pool;
      this.consumer = new this.core.ConsumerCore({
        ...base,
        // A u64 on the wire (0: the implementation's default); the core takes a safe integer and
        // uses its low 32 bits, which may be 0 for a seed given (2^32, say).
        seed: num(c.seed) === 0 ? undefined : num(c.seed) % 2 ** 32,
        destinations: {
          allocate: (keyId: string, size: number) => pool.allocate(keyId, size),
          release: (d: Destination) => pool.release(d),
          view: (d: Destination) => pool.view(d),
        },
      });
      this.role = role;
      return { ok: {} };
    }
    if (role === C.Role.ROLE_PRODUCER) {
      this.store = new this.core.MemoryItemStore({
        capacityBytes: num(c.storeCapacityBytes) || DEFAULT_CAPACITY,
        locate: (keyId: string, bytes: Uint8Array) => {
          const loc = `mem:${this.nextLocation++}`;
          this.memory.set(loc, bytes);
          this.locationOf.set(keyId, loc);
          return new TextEncoder().encode(loc);
        },
        // An item that left the store (evicted, discarded, cleared) is deregistered: a one-sided
        // read of it fails, as it would over a real transport, rather than seeing bytes a pinned
        // item must still have.
        release: (keyId: string) => {
          const loc = this.locationOf.get(keyId);
          if (loc === undefined) return;
          this.memory.delete(loc);
          this.locationOf.delete(keyId);
        },
      });
      this.producerId = base.id;
      this.producerEpoch = base.epoch;
      // Feature warm-start: a store filled first, before the producer exists [E1].
      const initial: string[] = [];
      for (const item of c.initialItems ?? []) {
        const put = this.putItem(item);
        if (put.error) return { error: { message: `initial item refused: ${put.error.message}`, code: "INVALID_CONFIG" } };
        const keyId = this.keyId(item.descriptor?.key);
        this.store.markReady(keyId);
        initial.push(keyId);
      }
      // A later item that made the store evict an earlier one: the items do not fit together.
      if (initial.some((keyId) => this.store.get(keyId) === undefined))
        return { error: { message: "initial items do not fit in the store together (it evicted some of them)", code: "INVALID_CONFIG" } };
      this.producer = new this.core.ProducerCore({ ...base, store: this.store });
      this.role = role;
      return { ok: {} };
    }
    if (role === C.Role.ROLE_SUBSCRIBER) {
      if (!this.core.EventSubscriber) return { unsupported: { feature: "subscriber" } };
      this.subscriber = new this.core.EventSubscriber({
        id: base.id,
        epoch: base.epoch,
        fingerprint,
        transportMetadata: base.transportMetadata,
        heartbeatIntervalMs: config.heartbeatIntervalMs,
        // Feature subscriber-view-bound: the bound on each producer's view, when the case sets one.
        maxViewBytes: t.maxViewBytes == null ? undefined : num(t.maxViewBytes),
      });
      this.role = role;
      return { ok: {} };
    }
    return { error: { message: `role ${String(c.role)} is not CONSUMER, PRODUCER or SUBSCRIBER`, code: "INVALID_CONFIG" } };
  }

  /**
   * Feature raw-outputs: the bytes a `Driver` would send of `envelope` (SendOutput.raw), or why its
   * encoder refused it (SendOutput.raw_error: the `Driver` then drops that envelope and carries out
   * the rest of the step, so the poll's other outputs stand).
   */
  private wireBytes(envelope: Loose): { raw: Uint8Array } | { rawError: string } {
    try {
      return { raw: (this.core.encodeEnvelope ?? encodeEnvelope)(envelope) };
    } catch (err) {
      return { rawError: String((err as { message?: unknown })?.message ?? err) };
    }
  }

  private poll(now: number): Res {
    const inst = this.instance();
    const outs: ectp.conformance.v1.IOutput[] = [];
    for (const o of inst.poll(now) as Loose[]) {
      switch (o.type) {
        case "send":
          outs.push({
            send: {
              to: o.peerId,
              envelope: reportedEnvelope(o.envelope),
              ...this.wireBytes(o.envelope),
            },
          });
          break;
        case "start-read": {
          const d = o.destination as Destination;
          this.reads.set(o.readId, d);
          outs.push({
            startRead: {
              readId: o.readId,
              peerId: o.peerId,
              source: o.source,
              length: d.length,
              destinationRegion: `region-${d.region.id}`,
              destinationOffset: d.offset,
            },
          });
          break;
        }
        case "cancel-read":
          outs.push({ cancelRead: { readId: o.readId } });
          break;
        case "connect-peer":
          outs.push({ connectPeer: { peerId: o.peerId, epoch: o.epoch, metadata: o.metadata } });
          break;
        case "disconnect-peer":
          outs.push({ disconnectPeer: { peerId: o.peerId } });
          break;
        case "event-batch":
          outs.push({ eventBatch: { batch: ectp.v1.EventBatch.decode(wire.v1.EventBatch.encode(o.batch).finish()) } });
          break;
        default:
          // Dropped, it would read as an output never produced.
          throw new Error(`the core's poll returned an output of type ${JSON.stringify(o?.type)}, which no driver carries out`);
      }
    }
    const next = inst.nextDeadline();
    return { poll: next === undefined ? { outputs: outs } : { outputs: outs, nextDeadlineMs: Math.max(0, Math.ceil(next)) } };
  }

  private stats(): Res {
    const s = this.instance().stats();
    // [I4][I5] The runner trusts `destinations`; the pool knows what is really held. A core whose
    // count disagrees (memory never given back, or counted but not held) must not pass for clean.
    if (this.role === C.Role.ROLE_CONSUMER && this.pool && this.pool.live.size !== s.destinations)
      throw Object.assign(
        new Error(`[I4][I5] the core reports ${s.destinations} destinations, but it holds ${this.pool.live.size} allocated from the pool and not released`),
        { code: "DESTINATION_POOL" },
      );
    if (this.role === C.Role.ROLE_CONSUMER)
      return {
        stats: {
          consumer: {
            requests: s.requests,
            budgets: s.budgets,
            fetches: s.fetches,
            readsInFlight: s.readsInFlight,
            quarantined: s.quarantined,
            grantsHeld: s.grantsHeld,
            loadedItems: s.loadedItems,
            destinations: s.destinations,
            undrainedFailures: s.undrainedFailures,
            ignoredMessages: s.ignoredMessages,
          },
        },
      };
    if (this.role === C.Role.ROLE_SUBSCRIBER)
      return {
        stats: {
          subscriber: {
            producers: s.producers,
            synced: s.synced,
            snapshotsApplied: s.snapshotsApplied,
            snapshotRequests: s.snapshotRequests,
            replayRequests: s.replayRequests,
            ignoredMessages: s.ignoredMessages,
            heldBatches: s.heldBatches,
            snapshotParts: s.snapshotParts,
          },
        },
      };
    return {
      stats: {
        producer: {
          grants: s.grants,
          pins: s.pins,
          pinnedBytes: s.pinnedBytes,
          peers: s.peers,
          replayBuffered: s.replayBuffered,
          eventSequence: s.eventSequence,
          ignoredMessages: s.ignoredMessages,
          shuttingDown: s.shuttingDown,
        },
      },
    };
  }

  private consumerCommand(req: Req, now: number): Res {
    const c = this.consumer;
    if (req.admit) {
      const items = (req.admit.items ?? []).map((it) => {
        let announcement: unknown;
        if (it.announcementJson) {
          // Feature untrusted-json: read by the SDK's own JSON intake (what the core's README tells an
          // engine to use), never by a reader of the adapter's. Text it refuses is handed to admit as
          // is, which refuses it as INVALID_ANNOUNCEMENT [C2] (local encode, or the request fails).
          const read = announcementFromJson(it.announcementJson);
          announcement = read.ok ? read.value : it.announcementJson;
        } else if (it.announcement) {
          announcement = toWire(
            () => ectp.v1.Announcement.encode(it.announcement as ectp.v1.IAnnouncement).finish(),
            (b) => wire.v1.Announcement.decode(b),
          );
        }
        return { itemId: it.itemId, announcement, hasModelInput: it.hasModelInput === true, local: it.local === true };
      });
      const r = c.admit({ requestId: req.admit.requestId, items }, now);
      if (r.status !== "failed" && r.status !== "admitted") throw new Error(`the core answered admit with status ${JSON.stringify(r.status)}`);
      if (r.status === "failed")
        return {
          admit: {
            status: C.AdmitStatus.ADMIT_STATUS_FAILED,
            failures: r.failures.map((f: Loose) => ({ itemId: f.itemId, reason: reasonNumber(f.reason), attempts: f.attempts })),
          },
        };
      return {
        admit: {
          status: C.AdmitStatus.ADMIT_STATUS_ADMITTED,
          items: r.items.map((d: Loose) => {
            if (d.action === "ready") {
              // [I5] Verified bytes stay in their destination until the request is finished: read back
              // from a released one, they could be another read's, or stale bytes that still look right.
              if (d.destination && !this.pool?.live.has(d.destination))
                throw new Error(`[I5] item ${d.itemId} is READY in a destination the core no longer holds (released to the pool, or never allocated)`);
              const loaded = d.destination && this.pool ? this.pool.view(d.destination as Destination) : undefined;
              return {
                itemId: d.itemId,
                action: C.ItemAction.ITEM_ACTION_READY,
                ...(loaded ? { loaded: { sizeBytes: loaded.length, crc32c: crc32c(loaded) } } : {}),
              };
            }
            if (d.action === "defer") return { itemId: d.itemId, action: C.ItemAction.ITEM_ACTION_DEFER };
            if (d.action === "local-encode") return { itemId: d.itemId, action: C.ItemAction.ITEM_ACTION_LOCAL_ENCODE, reason: reasonNumber(d.reason) };
            throw new Error(`the core decided item ${d.itemId} with action ${JSON.stringify(d.action)}, not ready, defer or local-encode`);
          }),
        },
      };
    }
    if (req.finishRequest) {
      c.finishRequest(req.finishRequest.requestId, now);
      return { ok: {} };
    }
    if (req.drainFailed)
      return {
        drainFailed: {
          failed: c.drainFailed().map((f: Loose) => ({
            requestId: f.requestId,
            failures: f.failures.map((x: Loose) => ({ itemId: x.itemId, reason: reasonNumber(x.reason), attempts: x.attempts })),
          })),
        },
      };
    if (req.deliverReadResult) {
      const r = req.deliverReadResult;
      const id = num(r.readId);
      const d = this.reads.get(id);
      const data = r.data ?? new Uint8Array(0);
      if (d) {
        // The transport wrote what it wrote; never past the destination (a real NIC cannot either).
        d.region.bytes.set(data.subarray(0, d.length), d.offset);
        this.reads.delete(id);
      }
      const status = r.status === C.ReadStatus.READ_STATUS_DONE ? "done" : r.status === C.ReadStatus.READ_STATUS_CANCELLED ? "cancelled" : "failed";
      c.handleReadResult(
        {
          readId: id,
          status,
          bytesRead: data.length,
          ...(r.peerGone ? { peerGone: true } : {}),
          ...(r.error ? { error: r.error } : {}),
        },
        now,
      );
      return { ok: {} };
    }
    return { error: { message: "command does not apply to a consumer", code: "WRONG_ROLE" } };
  }

  private subscriberCommand(req: Req, now: number): Res {
    const sub = this.subscriber;
    if (req.follow) {
      const c = req.follow.connection;
      sub.follow(req.follow.producerId, now, c ? { epoch: num(c.epoch), metadata: new Uint8Array(c.metadata ?? new Uint8Array(0)) } : undefined);
      return { ok: {} };
    }
    if (req.unfollow) {
      sub.unfollow(req.unfollow.producerId);
      return { ok: {} };
    }
    if (req.getView) {
      const view = sub.view(req.getView.producerId) as ReadonlyMap<string, unknown> | undefined;
      if (view === undefined) return { view: { synced: false, items: [] } };
      return {
        view: {
          synced: true,
          items: [...view.values()].map((d) => ectp.v1.ItemDescriptor.decode(wire.v1.ItemDescriptor.encode(d as wire.v1.IItemDescriptor).finish())),
        },
      };
    }
    return { error: { message: "command does not apply to a subscriber", code: "WRONG_ROLE" } };
  }

  private keyId(key: ectp.v1.IItemKey | null | undefined): string {
    const k = toWire(() => ectp.v1.ItemKey.encode(key ?? {}).finish(), (b) => wire.v1.ItemKey.decode(b));
    const id = itemKeyId(k);
    if (!id.ok) throw id.error;
    return id.value;
  }

  /**
   * PutItem: write the item into the store, not ready, with this producer's id and epoch filled in
   * where the descriptor leaves them empty (set, they are kept: an item of another producer or of an
   * older epoch, which the producer must keep to itself, SPEC.md 4.4).
   */
  private putItem(put: ectp.conformance.v1.IPutItem): Res {
    const desc = toWire(
      () => ectp.v1.ItemDescriptor.encode(put.descriptor ?? {}).finish(),
      (b) => wire.v1.ItemDescriptor.toObject(wire.v1.ItemDescriptor.decode(b), { defaults: false }),
    ) as Record<string, unknown>;
    if (!desc.producerId) desc.producerId = this.producerId;
    if (!desc.epoch) desc.epoch = this.producerEpoch;
    const r = this.store.put(desc, itemBytes(put));
    if (!r.ok) return { error: { message: r.error.message, code: r.error.code } };
    return {
      putItem: {
        descriptor: ectp.v1.ItemDescriptor.decode(wire.v1.ItemDescriptor.encode(r.value.descriptor).finish()),
      },
    };
  }

  private producerCommand(req: Req, now: number): Res {
    const p = this.producer;
    const s = this.store;
    if (req.putItem) return this.putItem(req.putItem);
    if (req.markReady) {
      s.markReady(this.keyId(req.markReady.key));
      return { ok: {} };
    }
    if (req.discard) {
      const ok = s.discard(this.keyId(req.discard.key));
      return ok === false ? { error: { message: "no such unready item", code: "INVALID_ARGUMENT" } } : { ok: {} };
    }
    if (req.evict) {
      // [P6] only a ready, unpinned item goes; anything else is answered with Error and stays.
      const outcome = s.evict(this.keyId(req.evict.key));
      return outcome === "evicted" ? { ok: {} } : { error: { message: `item not evicted: ${outcome}`, code: "INVALID_ARGUMENT" } };
    }
    if (req.clearStore) {
      s.clear("reset");
      return { ok: {} };
    }
    if (req.announce) {
      const a = p.announce(this.keyId(req.announce.key));
      return {
        announce: a ? { announcement: ectp.v1.Announcement.decode(wire.v1.Announcement.encode(a).finish()) } : {},
      };
    }
    if (req.shutdown) {
      p.shutdown(now);
      return { ok: {} };
    }
    if (req.readMemory) {
      const loc = Buffer.from(req.readMemory.location ?? new Uint8Array(0)).toString("utf8");
      const m = this.memory.get(loc);
      if (!m) return { error: { message: `location ${JSON.stringify(loc)} is not held: never handed out, or its item left the store`, code: "INVALID_ARGUMENT" } };
      return { readMemory: { data: m.slice(0, num(req.readMemory.length)) } };
    }
    return { error: { message: "command does not apply to a producer", code: "WRONG_ROLE" } };
  }
}

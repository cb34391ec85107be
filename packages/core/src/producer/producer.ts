/**
 * The producer (E side) state machine: grants reads of ready items, pins them per
 * grant, releases on ACK / lease / peer loss, and publishes events.
 * @module
 */
import { idBeforeEpoch } from "../epoch-ids.js";
import {
  EctpError,
  MAX_REPEATED_ELEMENTS,
  type NormalizedFingerprint,
  SPEC_MAJOR,
  SPEC_VERSION,
  decodeEnvelope,
  describeValue,
  ectp,
  envelopeBodyName,
  eventByteLength,
  itemDescriptorByteLength,
  itemKeyId,
  normalizeFingerprint,
  refuseUnknownOptions,
  thrownText,
  tryItemKeyId,
  validateDescriptor,
} from "@ectp/protocol";
import { checkedNow } from "../clock.js";
import {
  DEFAULT_PRODUCER_CONFIG,
  type ProducerConfig,
  configSettingHint,
  fingerprintDifference,
  fingerprintOption,
  mergeConfig,
  peerHeartbeatIntervalMs,
  readOptions,
  transportMetadataOption,
} from "../config.js";
import {
  containLogger,
  containMetrics,
  HookGate,
  METRICS_HOOK_THREW,
  type Labels,
  type Logger,
  type MetricsSink,
  PeerLabels,
  peerLabelsOption,
  reentrantCall,
  requireMethods,
  SenderMismatchWarning,
} from "../observability.js";
import { ownBytes } from "../owned.js";
import { OutputQueue } from "../output-queue.js";
import type { CoreOutput } from "../outputs.js";
import { hashBytes } from "../tables/hash.js";
import { IdTable } from "../tables/id-table.js";
import { KeyIndex, keyIndexHash } from "../tables/key-index.js";
import { MemoryItemStore, descriptorSizeProblem } from "./memory-store.js";
import type { ItemStore, ProducerOptions, ProducerStats, StoreChange, StoreEntry } from "./types.js";

const FR = ectp.v1.FailureReason;
type Reason = ectp.v1.FailureReason;

/** The methods an {@link ItemStore} must have (`unpinEntry` is optional). */
const STORE_METHODS = ["get", "pin", "unpin", "readyItems", "totalPins", "subscribe"] as const satisfies readonly (keyof ItemStore)[];

/** Capability a subscriber lists in its Hello to receive event batches [E1] (SPEC.md 4.1). */
export const EVENTS_CAPABILITY = "events.v1";
/** The largest `maxBatchBytes` allowed [E1]: half the 16 MiB frame limit (SPEC.md section 9). */
const MAX_BATCH_BYTES_LIMIT = 8 * 1024 * 1024;
/** Forgotten peers remembered for a reconnect without a new Hello [P8]; bounded [I4]. */
const FORGOTTEN_PEERS_CAP = 1024;
/**
 * Bytes of transport metadata the forgotten peers may hold together [I4]:
 * the entry cap alone let peers announcing megabytes of metadata keep gigabytes after they were gone.
 */
const FORGOTTEN_PEERS_BYTES_CAP = 64 * 1024 * 1024;

/**
 * Why a producer may not publish `descriptor`, or undefined when it may: it must be valid
 * [C2] (at most 64 shape dimensions included) and encode to at most MAX_DESCRIPTOR_BYTES
 * (SPEC.md section 5), or every event, snapshot part, grant and announcement carrying it is
 * refused by its receivers. `MemoryItemStore.put` refuses such items; the producer checks
 * what any other `ItemStore` reports.
 */
function unpublishable(descriptor: ectp.v1.IItemDescriptor): string | undefined {
  const valid = validateDescriptor(descriptor, { maxItemBytes: Number.MAX_SAFE_INTEGER });
  if (!valid.ok) return `the descriptor is not valid: ${valid.error.message}`;
  return descriptorSizeProblem(descriptor);
}

/** The verdict key of a descriptor that is not an object (see `ProducerCore.refusedDescriptor`). */
const NO_DESCRIPTOR = {};

/**
 * What an event or a descriptor adds to a batch or snapshot part [E1][E2]: its encoded size
 * (one the encoder refuses counts 0: its send fails where it would have without the bound)
 * and its repeated elements (itself and its shape's dimensions, SPEC.md section 5).
 */
interface ElementCost<T> {
  bytes(e: T): number;
  elements(e: T): number;
}

/** `size(e)`, or 0 for an element its encoder refuses (see {@link ElementCost}). */
function sizeOrZero<T>(size: (e: T) => number, e: T): number {
  try {
    return size(e);
  } catch {
    return 0;
  }
}

const EVENT_COST: ElementCost<ectp.v1.IEvent> = {
  bytes: (e) => sizeOrZero(eventByteLength, e),
  elements: (e) => 1 + (e.stored?.item?.shape?.length ?? 0),
};

const DESCRIPTOR_COST: ElementCost<ectp.v1.IItemDescriptor> = {
  bytes: (d) => sizeOrZero(itemDescriptorByteLength, d),
  elements: (d) => 1 + (d.shape?.length ?? 0),
};

/**
 * `list` in order, cut into runs whose encoded sizes add up to at most `maxBytes` and whose
 * repeated elements to at most MAX_REPEATED_ELEMENTS; a run holds at least one element, and an
 * empty list gives one empty run. The common case, everything within bounds, returns `[list]`.
 */
function splitBySize<T>(list: T[], cost: ElementCost<T>, maxBytes: number): T[][] {
  if (list.length < 2) return [list]; // nothing to split: no need to size it
  const runs: T[][] = [];
  let start = 0;
  let bytes = 0;
  let elements = 0;
  for (let i = 0; i < list.length; i++) {
    const e = list[i] as T;
    const n = cost.bytes(e);
    const k = cost.elements(e);
    if (i > start && (bytes + n > maxBytes || elements + k > MAX_REPEATED_ELEMENTS)) {
      runs.push(list.slice(start, i));
      start = i;
      bytes = 0;
      elements = 0;
    }
    bytes += n;
    elements += k;
  }
  runs.push(start === 0 ? list : list.slice(start));
  return runs;
}

/** Retryable per the SPEC.md table; every other reason a producer sends is terminal. */
function isRetryable(reason: Reason): boolean {
  return reason === FR.FAILURE_REASON_NOT_READY || reason === FR.FAILURE_REASON_OVERLOADED;
}

/**
 * A uint64 field as a number. protobufjs may hand out `Long` objects (when the `long`
 * package is installed, even for code generated with --force-number, and always for
 * prototype defaults); values above 2^53 - 1 come out unsafe and fail later checks.
 * Absent is 0; anything else is NaN.
 */
function u64(v: unknown): number {
  if (typeof v === "number") return v;
  if (v === undefined || v === null) return 0;
  if (typeof v === "object") {
    const { low, high } = v as { low?: unknown; high?: unknown };
    if (typeof low === "number" && typeof high === "number") return (high >>> 0) * 4294967296 + (low >>> 0);
  }
  return Number.NaN;
}

/**
 * The most characters of a ReadReject's or HandshakeReject's `detail` (and of its log field). A
 * detail may repeat a peer's text (a fingerprint model, a Hello role, a major version) or a
 * store's (a producer id), which may be megabytes long: sent whole, it made a small message's
 * answer larger than a receiver's frame limit (SPEC.md section 5). Receivers keep 200 characters.
 */
const MAX_DETAIL_CHARS = 1024;

/** The first `MAX_DETAIL_CHARS` characters of `detail`, then "..."; `detail` itself when it is no longer. */
function boundedDetail(detail: string): string {
  if (detail.length <= MAX_DETAIL_CHARS) return detail;
  // Not between the halves of a surrogate pair: a lone surrogate would make the refusal unencodable.
  const last = detail.charCodeAt(MAX_DETAIL_CHARS - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_DETAIL_CHARS - 1 : MAX_DETAIL_CHARS;
  // A string of its own (SPEC.md section 16): a slice would keep the whole text alive in a logger that keeps records.
  return JSON.parse(JSON.stringify(`${detail.slice(0, end)}...`)) as string;
}

function isPositiveInt(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v > 0;
}

/**
 * One live grant: one pin of one item for one consumer epoch [P2]. A class so every grant
 * has one fixed shape; it is also its own node in the lease list (see ProducerCore.leaseHead)
 * and in its consumer's list of grants, and a record of ProducerCore.byKey.
 */
class Grant {
  /** Neighbours in the lease list (earlier / later lease). */
  prev: Grant | undefined = undefined;
  next: Grant | undefined = undefined;
  /** Neighbours in the holder's list of grants (older / newer). */
  peerPrev: Grant | undefined = undefined;
  peerNext: Grant | undefined = undefined;
  /** False once released; a grant is released exactly once [P2]. */
  live = true;

  constructor(
    readonly id: number,
    /** The holder's record: the owner in ProducerCore.byKey. */
    readonly owner: Peer,
    readonly consumerId: string,
    readonly consumerEpoch: number,
    readonly keyId: string,
    /** Address of (holder, key) in ProducerCore.byKey. */
    readonly indexHash: number,
    readonly sizeBytes: number,
    /** The ReadRequest attempt this grant answered: an equal one is a duplicate, a lower one stale [P3][C10]. */
    readonly attemptId: number,
    /** The descriptor sent in the grant, so a duplicate request gets the same grant again [P3]. */
    readonly item: ectp.v1.IItemDescriptor,
    /** The store entry pinned, for ItemStore.unpinEntry. */
    readonly entry: StoreEntry,
    /** Own lease deadline, fixed at grant time; nothing extends it [P3]. */
    readonly deadline: number,
  ) {}
}

/** A consumer (or subscriber) the producer has heard from. */
interface Peer {
  readonly id: string;
  epoch: number;
  lastHeard: number;
  nextHeartbeat: number;
  /** Interval this peer is judged by: the larger of ours and the one its Hello declared. */
  intervalMs: number;
  metadata: Uint8Array;
  /** Epoch whose metadata was last handed to connect-peer (0: none). */
  connectedEpoch: number;
  /** Epoch whose Hello was applied (0: none in this record): another Hello of it is a duplicate. */
  helloEpoch: number;
  /** [E1] It sends events to this peer: its Hello listed the events capability. */
  subscribed: boolean;
  /** Mixed into the address of this peer's grants in ProducerCore.byKey. */
  readonly salt: number;
  /** Live grants of this peer, oldest first (at most one per item [P3], found through byKey). */
  grantHead: Grant | undefined;
  grantTail: Grant | undefined;
  liveGrants: number;
  pinnedBytes: number;
  /**
   * [E2] When a replay or snapshot answer last resent something to it (-Infinity: never); with
   * `resendIntervalMs` 0, after a snapshot the store could not list, when that snapshot is tried again.
   */
  answeredAt: number;
  /** [E2] A SnapshotRequest to answer once `resendIntervalMs` has passed since `answeredAt`. */
  owedSnapshot: boolean;
  /** [E2] The lowest `from_sequence` of ReplayRequests to answer likewise (0: none). */
  owedReplayFrom: number;
}

/** [P8] Whether the producer owes `p` a message per heartbeat interval (SPEC.md 4.7). */
function hasBusiness(p: Peer): boolean {
  return p.liveGrants > 0 || p.subscribed || p.owedSnapshot || p.owedReplayFrom !== 0;
}

interface ForgottenPeer {
  readonly epoch: number;
  readonly metadata: Uint8Array;
  readonly intervalMs: number;
  readonly subscribed: boolean;
  /** What it counts against FORGOTTEN_PEERS_BYTES_CAP. */
  readonly bytes: number;
  /** Only the epoch is known: it was seen in a message refused or ignored, no Hello of it was applied. */
  readonly epochOnly: boolean;
}

const IGNORED = "ectp_producer_ignored_messages_total";
const LABELS = {
  malformed: { reason: "malformed" },
  version: { reason: "version" },
  senderMismatch: { reason: "sender_mismatch" },
  staleEpoch: { reason: "stale_epoch" },
  unknownBody: { reason: "unknown_body" },
  unexpectedBody: { reason: "unexpected_body" },
  unknownGrant: { reason: "unknown_grant" },
  notOwner: { reason: "not_owner" },
  role: { reason: "role" },
  staleAttempt: { reason: "stale_attempt" },
  unknownPeer: { reason: "unknown_peer" },
} as const satisfies Record<string, Labels>;
type IgnoreReason = keyof typeof LABELS;

/** Labels of `ectp_producer_releases_total`, one frozen object per cause (no lookup per release). */
const RELEASE = {
  replaced: Object.freeze({ cause: "replaced" }),
  ackOk: Object.freeze({ cause: "ack_ok" }),
  ackAbandoned: Object.freeze({ cause: "ack_abandoned" }),
  ackFailed: Object.freeze({ cause: "ack_failed" }),
  lease: Object.freeze({ cause: "lease" }),
  peerGone: Object.freeze({ cause: "peer_gone" }),
  epoch: Object.freeze({ cause: "epoch" }),
  shutdown: Object.freeze({ cause: "shutdown" }),
  cleared: Object.freeze({ cause: "cleared" }),
} as const satisfies Record<string, Labels>;
type ReleaseLabels = (typeof RELEASE)[keyof typeof RELEASE];

/** Labels of `ectp_producer_peers_gone_total`, by cause and by whether the consumer held grants. */
const PEERS_GONE = {
  silent: { released: Object.freeze({ cause: "silent", grants: "released" }), none: Object.freeze({ cause: "silent", grants: "none" }) },
  unreachable: { released: Object.freeze({ cause: "unreachable", grants: "released" }), none: Object.freeze({ cause: "unreachable", grants: "none" }) },
} as const satisfies Record<string, Record<string, Labels>>;

/** Labels of `ectp_producer_items_removed_total`. */
const REMOVED_EVICTED_LABELS = Object.freeze({ cause: "evicted" });
const REMOVED_DISCARDED_LABELS = Object.freeze({ cause: "discarded" });

/** [E2] The longest resend interval SPEC.md section 9 allows. */
const MAX_RESEND_INTERVAL_MS = 1_000;

const CONFIG_KEYS: readonly (keyof ProducerConfig)[] = [
  "heartbeatIntervalMs",
  "heartbeatMisses",
  "leaseMs",
  "maxPinnedBytesPerConsumer",
  "maxGrantsPerConsumer",
  "replayBufferBatches",
  "retryAfterMs",
  "maxBatchBytes",
  "resendIntervalMs",
];

/** The keys of {@link ProducerOptions}: any other key of the options is refused (a misspelt option would otherwise be ignored). */
const OPTION_KEYS: readonly string[] = Object.keys({
  id: true,
  epoch: true,
  fingerprint: true,
  store: true,
  transportMetadata: true,
  config: true,
  metrics: true,
  peerLabels: true,
  logger: true,
} satisfies Record<keyof ProducerOptions, true>);

/**
 * The producer (E side) of ECTP as a sans-IO state machine.
 *
 * Why sans-IO: it takes the time (`now`, ms) in every call and queues what it wants done
 * (messages to send, peers to connect or forget, event batches) for {@link ProducerCore.poll};
 * it has no timers, sockets or promises, so the same code runs under the real-time
 * `Driver`, the deterministic simulator and the conformance testee.
 *
 * Guarantees: pins are counted per grant and each grant is released exactly once, by
 * its holder's ACK, its own lease, a newer attempt replacing it, its holder's loss or restart,
 * a store reset, or shutdown [P2][P3][P6][P8];
 * `store.totalPins()` equals the number of live grants each time the producer acts (a pin
 * outlasts its lease deadline only until the producer's next call) [I3]; announcing never
 * pins [P4]; nothing a peer sends makes it throw [I1].
 */
export class ProducerCore {
  /** This producer's peer id. */
  readonly id: string;
  /** This producer's epoch [P8]. */
  readonly epoch: number;
  /** [P7] The fingerprint sent in Hello answers: a frozen copy of `fp`. */
  private readonly fingerprint: Readonly<ectp.v1.IFingerprint>;
  /** [P7] The normalised fingerprint, taken once at construction, that every Hello and request is checked against. */
  private readonly fp: NormalizedFingerprint;
  private readonly store: ItemStore;
  /**
   * The verdict of {@link unpublishable} per descriptor object a store reported (stores
   * other than `MemoryItemStore`, whose `put` already refuses them): checked once per object.
   */
  private readonly verdicts: WeakMap<object, string | null> | undefined;
  /** Descriptors naming another producer, epoch or fingerprint already logged (see `refusedDescriptor`): logged once each. */
  private readonly foreignLogged = new WeakSet<object>();
  /** The store offers {@link ItemStore.unpinEntry}. */
  private readonly hasUnpinEntry: boolean;
  private readonly transportMetadata: Uint8Array;
  private readonly cfg: Readonly<ProducerConfig>;
  /** Calls into the metrics and logger hooks that threw (contained). */
  private hookFailures = 0;
  /** Hook calls in progress: the state-changing methods refuse calls from inside a hook (not re-entrant). */
  private readonly gate = new HookGate();
  private readonly metrics: MetricsSink;
  /** The consumer, added to the labels of samples about one when `options.peerLabels` is on. */
  private readonly byConsumer: PeerLabels;
  private readonly logger: Logger;

  private readonly reasonLabelCache = new Map<number, Labels>();
  private readonly peers = new Map<string, Peer>();
  private readonly forgotten = new Map<string, ForgottenPeer>();
  /** Sum of the forgotten peers' `bytes`. */
  private forgottenBytes = 0;
  /** Live grants by id (an open-addressing table: no Map churn per grant). */
  private readonly grants = new IdTable<Grant>("sequential"); // ids from nextGrantId
  /** Live grants by (consumer record, item key): at most one per pair [P3]. */
  private readonly byKey = new KeyIndex<Peer, Grant>();
  private peerSerial = 0;
  /** The record of the last message's sender (always one held in `peers`), or undefined. */
  private lastPeer: Peer | undefined = undefined;
  /**
   * Live grants ordered by (lease deadline, grant id): a doubly linked list through the
   * grants themselves. Every lease is `now + leaseMs`, so a new grant almost always goes
   * at the tail (O(1)); a release unlinks in O(1); expiry pops from the head [P3].
   */
  private leaseHead: Grant | undefined = undefined;
  private leaseTail: Grant | undefined = undefined;
  /**
   * No peer is due (heartbeat or silence) before this time: a lower bound kept by every
   * change that can bring a peer's deadline forward, so poll skips the scan until then.
   */
  private peerCheckAt = Number.POSITIVE_INFINITY;
  /** The next grant's id, in this epoch's window ({@link idBeforeEpoch}). */
  private nextGrantId: number;
  private pinnedBytesTotal = 0;
  /** The live grants and pinned bytes last set on the gauges (-1: never set). */
  private gaugedGrants = -1;
  private gaugedPinnedBytes = -1;

  /** Outputs queued for the next poll. */
  private readonly outputs = new OutputQueue();
  private pendingEvents: ectp.v1.IEvent[] = [];
  private sequence = 0;
  /** Snapshot answers sent in this epoch: the last one's `snapshotId` [E2]. */
  private snapshotAnswers = 0;
  /**
   * [E2] The replay buffer: batch `s` at `s % replayBufferBatches`. It grows as batches are
   * published (never allocated at its configured size, which may be far larger than ever used).
   */
  private readonly ring: (ectp.v1.IEventBatch | undefined)[] = [];
  private heartbeatSequence = 0;
  private ignored = 0;
  /** Logs the first message ignored for a `from` other than its sender. */
  private readonly senderMismatch = new SenderMismatchWarning();
  private shuttingDown = false;
  /** What `shutdown` returns: see {@link ProducerCore.shutdown} [P7]. */
  private reuseAfter: number | undefined = undefined;
  /**
   * [P2] The latest lease deadline of a grant released before its lease ended without its consumer's
   * word (the consumer declared gone or restarted, a replacement, a cleared store, shutdown): that
   * consumer's one-sided read may still be running until then. Undefined until such a release.
   */
  private releasedReadableUntil: number | undefined = undefined;
  /** The latest clock reading accepted (none yet: -Infinity, so any first reading stands, negative ones too). */
  private lastNow = Number.NEGATIVE_INFINITY;
  private unsubscribe: (() => void) | undefined;

  /**
   * @param options - identity, fingerprint, store, timers and hooks.
   * @throws EctpError(INVALID_CONFIG) naming the first invalid option and how to fix it: among
   *   others a fingerprint that is not a plain object or has a key other than `model`, `dtype`,
   *   `rowBytes` and `layoutVersion` [P7], and a key of the options
   *   (or of their `config`) that is not an option, with the nearest option; and a store whose
   *   `subscribe` throws [E1].
   */
  constructor(options: ProducerOptions) {
    if (options === null || typeof options !== "object")
      throw new EctpError("INVALID_CONFIG", "ProducerCore needs an options object { id, epoch, fingerprint, store }");
    // First: a misspelt option (`confg`, `fingerPrint`) is named as such, not ignored (its default
    // used) nor reported as a required option missing.
    refuseUnknownOptions("ProducerCore", options, OPTION_KEYS, "INVALID_CONFIG", (key) => configSettingHint(key, DEFAULT_PRODUCER_CONFIG));
    // Each option read once, here: a getter or Proxy trap that throws is refused naming it [I1].
    options = readOptions("ProducerCore", options, OPTION_KEYS);
    if (typeof options.id !== "string" || options.id.length === 0)
      throw new EctpError("INVALID_CONFIG", "options.id must be a non-empty string (the producer's stable peer id)");
    if (!isPositiveInt(options.epoch))
      throw new EctpError(
        "INVALID_CONFIG",
        `options.epoch must be a positive integer, greater on every restart than on the one before [P8]; got ${describeValue(options.epoch)}`,
      );
    // [P7] Required, though the wire reads an absent fingerprint as all-default: omitted (or misspelt)
    // here, every item of a real model would be refused as INCOMPATIBLE, with only a debug log to say why.
    if (options.fingerprint === undefined || options.fingerprint === null)
      throw new EctpError(
        "INVALID_CONFIG",
        "options.fingerprint is required: the model fingerprint (model, dtype, rowBytes, layoutVersion) this producer serves items of (requests of another are refused).",
      );
    const fp = fingerprintOption(options.fingerprint); // [P7] a misspelt field would refuse every request for the real model
    requireMethods("options.store", options.store, STORE_METHODS, "an ItemStore (e.g. new MemoryItemStore({ capacityBytes }))");
    // An option given as `undefined` takes its default, as in ConsumerCore.
    const cfg = mergeConfig(DEFAULT_PRODUCER_CONFIG, options.config);
    for (const k of CONFIG_KEYS) {
      const v = cfg[k];
      const min = k === "retryAfterMs" || k === "resendIntervalMs" ? 0 : 1;
      if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min)
        throw new EctpError(
          "INVALID_CONFIG",
          `config.${k} must be an integer >= ${min}; got ${describeValue(v)}. Omit it to use the default ${DEFAULT_PRODUCER_CONFIG[k]}`,
          { details: { [k]: v } },
        );
    }
    // [E1] the batch size bound stays far below a receiver's 16 MiB frame limit.
    if (cfg.maxBatchBytes > MAX_BATCH_BYTES_LIMIT)
      throw new EctpError(
        "INVALID_CONFIG",
        `config.maxBatchBytes must be at most ${MAX_BATCH_BYTES_LIMIT} (8 MiB, half the 16 MiB frame limit); got ${cfg.maxBatchBytes}`,
      );
    // [E2] a waiting answer must come before a subscriber's retry (SPEC.md section 9: at most 1 s).
    if (cfg.resendIntervalMs > MAX_RESEND_INTERVAL_MS)
      throw new EctpError("INVALID_CONFIG", `config.resendIntervalMs must be at most ${MAX_RESEND_INTERVAL_MS} ms; got ${cfg.resendIntervalMs}`);
    // lease_ms and retry_after_ms travel as uint32 on the wire.
    for (const k of ["leaseMs", "retryAfterMs", "heartbeatIntervalMs"] as const)
      if (cfg[k] > 0xffffffff)
        throw new EctpError("INVALID_CONFIG", `config.${k} must fit in 32 bits (<= 4294967295 ms); got ${cfg[k]}`);
    this.id = options.id;
    this.epoch = options.epoch;
    this.nextGrantId = idBeforeEpoch(options.epoch) + 1; // [P2] a late ACK from before a restart names no grant of this run
    // [P7] Taken once: a frozen copy of the normalised fingerprint is what every Hello answer sends (the
    // caller's object, kept, sent whatever the caller later changed it to, while requests were checked against `fp`).
    this.fingerprint = Object.freeze({ ...fp });
    this.fp = fp;
    this.store = options.store;
    this.verdicts = options.store instanceof MemoryItemStore ? undefined : new WeakMap();
    this.hasUnpinEntry = typeof options.store.unpinEntry === "function";
    this.transportMetadata = transportMetadataOption(options.transportMetadata);
    this.cfg = Object.freeze(cfg);
    // [I1] Hooks are the engine's code: what they throw is contained and counted (stats().hookFailures).
    const hookThrew = (): void => {
      this.hookFailures++;
    };
    this.metrics = containMetrics(options.metrics, hookThrew, this.gate, (fields) => this.logger.error(METRICS_HOOK_THREW, fields));
    this.byConsumer = new PeerLabels(peerLabelsOption(options.peerLabels, "consumer"));
    this.logger = containLogger(options.logger, hookThrew, this.gate);
    // [E1] every change of the store becomes an event, published in the next poll.
    try {
      this.unsubscribe = this.store.subscribe((change) => this.onStoreChange(change));
    } catch (cause) {
      // The engine's store, once, at construction: a producer that cannot hear its changes could publish none [E1].
      throw new EctpError(
        "INVALID_CONFIG",
        `options.store.subscribe threw (${thrownText(cause)}); the producer subscribes to the store's changes to publish them as events [E1]: fix the store's subscribe`,
        { cause },
      );
    }
    this.publishHeldItems();
  }

  /**
   * [E1][E2] Items the store already holds ready when this core is built (a store filled first,
   * e.g. a warm start) are published as Stored in the first batch, as if they became ready now: a
   * snapshot lists only what the batches up to its sequence account for.
   */
  private publishHeldItems(): void {
    this.gate.callbacks++;
    let published = 0;
    try {
      for (const e of this.store.readyItems())
        if (this.refusedDescriptor(e.descriptor) === undefined) {
          this.pendingEvents.push({ stored: { item: e.descriptor } });
          published++;
        }
    } catch (cause) {
      // [I1][E1] the engine's store could not list its items: those listed so far are published, the
      // others reach subscribers by snapshots only.
      this.logger.error(
        "store failed to list the ready items it held when the producer started; those listed before the failure (`published`) are published as Stored, the others are not",
        { error: thrownText(cause), published },
      );
    } finally {
      this.gate.callbacks--;
    }
  }

  /**
   * An announcement of an item the store holds (ready or not), for the orchestrator to
   * attach to requests. Never pins [P4]: only grants pin. `undefined` when the store does
   * not hold the item, the producer is shutting down, or the item is not this producer's to
   * publish: its descriptor is one no receiver accepts, names another producer id or epoch, or
   * has another fingerprint (put items with this producer's `id`, `epoch` and `fingerprint`; the
   * error log says which). Also
   * `undefined` when the store's `get` throws (logged at error level; never thrown [I1]).
   */
  announce(keyId: string): ectp.v1.IAnnouncement | undefined {
    if (this.shuttingDown) return undefined;
    let entry: StoreEntry | undefined;
    this.gate.callbacks++; // the store must not call the producer back (REENTRANT_CALL)
    try {
      entry = this.store.get(keyId); // [P4] a lookup only; no pin, no lease.
    } catch (cause) {
      // [I1] the engine's store failed: no announcement, and the engine's call goes on.
      this.logger.error("store failed to look up an item to announce", { keyId, error: thrownText(cause) });
      return undefined;
    } finally {
      this.gate.callbacks--;
    }
    if (!entry || this.refusedDescriptor(entry.descriptor) !== undefined) return undefined;
    return { version: { ...SPEC_VERSION }, item: entry.descriptor, transportMetadata: this.transportMetadata };
  }

  /**
   * Handle one encoded envelope received from `from`. Never throws for the bytes: malformed ones
   * are ignored and counted [C10][I1], another major's Hello is answered with a VERSION refusal
   * [V1]. Throws `EctpError(REENTRANT_CALL)` only when called from inside one of this core's own
   * calls (its metrics or logger hook, its item store).
   */
  handleMessage(from: string, bytes: Uint8Array, now: number): void {
    if (this.gate.busy) throw reentrantCall("ProducerCore", "handleMessage");
    now = this.advance(now);
    const decoded = decodeEnvelope(bytes);
    if (decoded.ok) {
      this.guarded(from, decoded.value, now);
      return;
    }
    // [V1][P7] a decodable envelope of another major still gets a typed answer.
    if (decoded.error.code === "VERSION" && decoded.envelope) {
      this.rejectVersion(from, decoded.envelope);
      return;
    }
    this.ignore(decoded.error.code === "VERSION" ? "version" : "malformed");
  }

  /**
   * Handle an already decoded envelope (saves a decode when the caller has one). Never throws for
   * anything in the envelope [C10][I1]; `EctpError(REENTRANT_CALL)` only when called from inside
   * one of this core's own calls.
   */
  handleEnvelope(from: string, envelope: ectp.v1.IEnvelope, now: number): void {
    if (this.gate.busy) throw reentrantCall("ProducerCore", "handleEnvelope");
    now = this.advance(now);
    this.guarded(from, envelope, now);
  }

  /**
   * The transport could not reach `peerId`: treat it as gone at once [P8], exactly as
   * if it had missed its heartbeats (its grants are released).
   */
  handlePeerUnreachable(peerId: string, now: number): void {
    if (this.gate.busy) throw reentrantCall("ProducerCore", "handlePeerUnreachable");
    now = this.advance(now);
    const p = this.peers.get(peerId);
    if (p) this.peerGone(p, "unreachable");
  }

  /**
   * Advance time to `now`: expire leases, send heartbeats, declare silent peers gone, and
   * publish pending store changes as one event batch (more when they exceed the batch
   * bounds). Returns (and clears) every queued output.
   */
  poll(now: number): CoreOutput[] {
    if (this.gate.busy) throw reentrantCall("ProducerCore", "poll");
    now = this.advance(now);
    this.tickPeers(now);
    this.flushEvents();
    this.setGauges();
    return this.outputs.take();
  }

  /** Live grants and pinned bytes [P2][P5] on their gauges, set once per poll and only when changed. */
  private setGauges(): void {
    const grants = this.grants.size;
    if (grants === this.gaugedGrants && this.pinnedBytesTotal === this.gaugedPinnedBytes) return;
    this.gaugedGrants = grants;
    this.gaugedPinnedBytes = this.pinnedBytesTotal;
    this.metrics.gauge("ectp_producer_live_grants", grants);
    this.metrics.gauge("ectp_producer_pinned_bytes", this.pinnedBytesTotal);
  }

  /**
   * When {@link ProducerCore.poll} must be called next (ms on the same clock), or
   * `undefined` when nothing is scheduled. A value at or before the current time means
   * "now" (outputs or store changes are waiting): before the core's first call that took a clock
   * reading, that value is `-Infinity` (a store that held ready items when the core was built
   * queues their Stored events at once [E1]), so a loop that sets a virtual clock from deadlines
   * takes `max(now, deadline)`, not the deadline itself.
   */
  nextDeadline(): number | undefined {
    if (this.outputs.size > 0 || this.pendingEvents.length > 0) return this.lastNow;
    let next: number | undefined = this.leaseHead?.deadline;
    for (const p of this.peers.values()) {
      let t = Math.min(p.nextHeartbeat, p.lastHeard + p.intervalMs * this.cfg.heartbeatMisses);
      if (p.owedSnapshot || p.owedReplayFrom !== 0) t = Math.min(t, p.answeredAt + this.cfg.resendIntervalMs);
      if (next === undefined || t < next) next = t;
    }
    return next;
  }

  /**
   * Stop serving [P7]: release every grant and pin, publish `Cleared(SHUTDOWN)`, and
   * reject every later read with SHUTTING_DOWN. Idempotent.
   *
   * @returns until when (on the injected clock) the memory of the items it held should not be
   *   overwritten or freed, unless it is deregistered first, so that reads still in flight fail
   *   instead of reading reused bytes [P7]: the latest lease deadline of the grants it released,
   *   and of those released earlier without their consumer's word (a consumer declared gone or
   *   restarted: its read may still run [P2]); `undefined` when every such deadline has passed.
   *   The same value on every call.
   */
  shutdown(now: number): number | undefined {
    if (this.gate.busy) throw reentrantCall("ProducerCore", "shutdown");
    now = this.advance(now);
    if (this.shuttingDown) return this.reuseAfter;
    this.shuttingDown = true;
    for (const g of this.grants.values().sort((a, b) => a.id - b.id)) this.release(g, RELEASE.shutdown);
    this.reuseAfter = this.readableUntil(now);
    this.gate.callbacks++; // a poll from inside would take the outputs shutdown's caller polls
    try {
      this.unsubscribe?.();
    } catch (cause) {
      // [I1] the engine's store failed to drop the listener: later changes are ignored (shuttingDown).
      this.logger.error("store failed to unsubscribe the producer", { error: thrownText(cause) });
    } finally {
      this.gate.callbacks--;
    }
    this.unsubscribe = undefined;
    this.pendingEvents.push({ cleared: { cause: ectp.v1.ClearedCause.CLEARED_CAUSE_SHUTDOWN } });
    this.logger.info("producer shutting down", { producerId: this.id, epoch: this.epoch, reuseAfter: this.reuseAfter });
    return this.reuseAfter;
  }

  /**
   * [I1] Take the engine's clock reading (see `checkedNow`; the last one is remembered), and [P3]
   * release every grant whose lease ran out by it, before the call acts on anything: a driver hands
   * messages over before it polls, and a grant past its deadline is no longer live (its lease, not a
   * later ACK, peer loss, consumer restart or shutdown, released it, and it holds no quota).
   */
  private advance(now: number): number {
    this.lastNow = checkedNow(now, this.lastNow, this.logger);
    this.expireLeases(this.lastNow);
    return this.lastNow;
  }

  /** Sizes of the internal tables, for invariant checks [I3][I4] and dashboards. */
  stats(): ProducerStats {
    const cap = this.cfg.replayBufferBatches;
    return {
      grants: this.grants.size,
      pins: this.storePins(),
      pinnedBytes: this.pinnedBytesTotal,
      peers: this.peers.size,
      replayBuffered: Math.min(this.sequence, cap),
      eventSequence: this.sequence,
      ignoredMessages: this.ignored,
      hookFailures: this.hookFailures,
      shuttingDown: this.shuttingDown,
      readableUntil: this.readableUntil(this.lastNow),
    };
  }

  /**
   * [P2] Until when a consumer may still be reading item memory under a grant of this producer: the
   * latest lease deadline of the live grants and of those released without their consumer's word;
   * `undefined` when it is not after `now`.
   */
  private readableUntil(now: number): number | undefined {
    const live = this.leaseTail?.deadline; // (the lease list is in deadline order)
    const until = Math.max(live ?? Number.NEGATIVE_INFINITY, this.releasedReadableUntil ?? Number.NEGATIVE_INFINITY);
    return until > now ? until : undefined;
  }

  /** The store's `totalPins()`, or -1 when it throws (logged at error level; never thrown [I1]). */
  private storePins(): number {
    this.gate.callbacks++;
    try {
      return this.store.totalPins();
    } catch (cause) {
      this.logger.error("store failed to count its pins", { error: thrownText(cause) });
      return -1;
    } finally {
      this.gate.callbacks--;
    }
  }

  // ---------------------------------------------------------------- dispatch

  private guarded(from: string, env: ectp.v1.IEnvelope, now: number): void {
    try {
      this.dispatch(from, env, now);
    } catch (cause) {
      // [I1] unreachable by design; a bug must cost one message, never the producer.
      this.ignore("malformed");
      this.logger.error("producer failed to handle a message", { from, error: thrownText(cause) });
    }
  }

  private dispatch(from: string, env: ectp.v1.IEnvelope, now: number): void {
    if (env === null || typeof env !== "object") { this.ignore("malformed"); return; }
    // [V1][P7] the version check comes before anything else.
    const major = env.version?.major ?? 0;
    if (major !== SPEC_MAJOR) { this.rejectVersion(from, env); return; }
    const sid = env.senderId;
    const sep = u64(env.senderEpoch);
    if (typeof sid !== "string" || sid.length === 0 || !isPositiveInt(sep)) { this.ignore("malformed"); return; }
    // SPEC.md section 4: the transport vouches for `from`; a message claiming another identity is ignored and counted [C10].
    if (sid !== from) {
      this.ignore("senderMismatch");
      this.senderMismatch.note(this.logger, from, sid, "sender_mismatch");
      return;
    }
    // The peer of the previous message, when it is the same one: most traffic comes in runs.
    const last = this.lastPeer;
    const known = last !== undefined && last.id === sid ? last : this.peers.get(sid);
    this.lastPeer = known;
    // [P8] messages of an older epoch than the greatest seen are stale, also from a peer declared gone.
    const forgotten = known === undefined ? this.forgotten.get(sid) : undefined;
    const greatestEpoch = (known ?? forgotten)?.epoch ?? 0;
    if (sep < greatestEpoch) { this.ignore("staleEpoch"); return; }
    // [P8] A forgotten peer's greater epoch is the greatest seen whatever becomes of this message
    // (refused, ignored): the older epoch's late messages are stale from now on.
    if (forgotten !== undefined && sep > forgotten.epoch) this.forgetEpoch(sid, sep);
    // [P8] Likewise a known peer's greater epoch voids its older epoch's grants whatever becomes of this
    // message (a ReadRequest or ReplayRequest ignored as malformed, too); its older epoch is stale from now on.
    else if (known !== undefined && sep > known.epoch) this.newEpoch(known, sep);
    const body = envelopeBodyName(env);
    switch (body) {
      case "hello":
        this.onHello(sid, sep, env.hello as ectp.v1.IHello, now);
        return;
      case "readRequest": {
        const rr = env.readRequest as ectp.v1.IReadRequest;
        const attemptId = u64(rr.attemptId);
        // [P7] check 2 / [C10]: attempt id 0 is malformed, ignored before it can introduce its sender,
        // or bring back one declared gone.
        if (!isPositiveInt(attemptId)) { this.ignore("malformed"); return; }
        this.onReadRequest(this.peerFor(sid, sep, now, known), rr, attemptId, now);
        return;
      }
      case "readComplete":
        this.onReadComplete(this.peerFor(sid, sep, now, known), sep, env.readComplete as ectp.v1.IReadComplete);
        return;
      case "heartbeat": {
        // Liveness only; a heartbeat alone does not introduce a new peer. Any record will do, whatever
        // message made it (a Hello, a ReadRequest, ...), or one declared gone coming back at its epoch.
        if (known || (forgotten !== undefined && forgotten.epoch === sep && !forgotten.epochOnly)) this.peerFor(sid, sep, now);
        else this.ignore("unknownPeer"); // [C10] no record of this peer: nothing to keep alive
        return;
      }
      case "replayRequest": {
        const fromSequence = u64((env.replayRequest as ectp.v1.IReplayRequest).fromSequence);
        // [C10] malformed: ignored before it can subscribe its sender, or bring back one declared gone.
        if (!Number.isSafeInteger(fromSequence) || fromSequence < 0) { this.ignore("malformed"); return; }
        this.onReplay(this.peerFor(sid, sep, now), fromSequence, now);
        return;
      }
      case "snapshotRequest":
        this.onSnapshot(this.peerFor(sid, sep, now), now);
        return;
      case undefined:
        // [C10] a body from a newer minor version.
        if (known) this.peerFor(sid, sep, now);
        this.ignore("unknownBody");
        return;
      default:
        // Messages a producer never receives (grants, rejects, events...) [C10].
        if (known) this.peerFor(sid, sep, now);
        this.ignore("unexpectedBody");
        return;
    }
  }

  /**
   * The peer record for (id, epoch), created when new (restored from the forgotten cache
   * when it comes back at the same epoch) and refreshed: any message counts as life [P8].
   * A newer epoch than recorded releases every grant of the older one [P8].
   */
  private peerFor(id: string, epoch: number, now: number, known: Peer | undefined = this.peers.get(id)): Peer {
    let p = known;
    if (p) {
      if (epoch > p.epoch) this.newEpoch(p, epoch);
      p.lastHeard = now;
      this.peerDue(p.lastHeard + p.intervalMs * this.cfg.heartbeatMisses);
      return p;
    }
    const old = this.takeForgotten(id);
    const restore = old !== undefined && old.epoch === epoch && !old.epochOnly;
    p = {
      id,
      epoch,
      lastHeard: now,
      nextHeartbeat: now + this.cfg.heartbeatIntervalMs,
      intervalMs: restore ? old.intervalMs : this.cfg.heartbeatIntervalMs,
      metadata: restore ? old.metadata : new Uint8Array(0),
      connectedEpoch: 0,
      helloEpoch: 0,
      subscribed: restore ? old.subscribed : false,
      salt: Math.imul(++this.peerSerial, 0x61c88647),
      grantHead: undefined,
      grantTail: undefined,
      liveGrants: 0,
      pinnedBytes: 0,
      answeredAt: Number.NEGATIVE_INFINITY,
      owedSnapshot: false,
      owedReplayFrom: 0,
    };
    this.peers.set(id, p);
    this.peerDue(Math.min(p.nextHeartbeat, p.lastHeard + p.intervalMs * this.cfg.heartbeatMisses));
    // [P8] a peer that comes back needs no restart: hand its known metadata to the transport again.
    if (restore) this.connectIfNeeded(p);
    return p;
  }

  /** [P8] Peer `p` restarted (a greater `epoch`): the grants, subscription and requests of its old epoch are void. */
  private newEpoch(p: Peer, epoch: number): void {
    this.releaseAllOf(p, RELEASE.epoch);
    p.epoch = epoch;
    p.metadata = new Uint8Array(0);
    p.subscribed = false;
    p.intervalMs = this.cfg.heartbeatIntervalMs;
    // The old epoch's requests; the new one asks anew. (`answeredAt` stays: the interval is per
    // peer id, so a peer cannot escape it by announcing new epochs.)
    this.clearOwed(p);
    // (Its silence deadline may come sooner now: judged by our interval until its new Hello.)
    this.peerDue(p.lastHeard + p.intervalMs * this.cfg.heartbeatMisses);
  }

  private connectIfNeeded(p: Peer): void {
    if (p.metadata.length > 0 && p.connectedEpoch !== p.epoch) {
      p.connectedEpoch = p.epoch;
      this.outputs.push({ type: "connect-peer", peerId: p.id, epoch: p.epoch, metadata: p.metadata });
    }
  }

  // ---------------------------------------------------------------- handshake

  private onHello(sid: string, sep: number, hello: ectp.v1.IHello, now: number): void {
    const role = hello.role ?? 0;
    if (role === ectp.v1.Role.ROLE_PRODUCER) {
      // A producer's Hello is for a consumer core; [P8] from a known peer it still counts as life
      // (a newer epoch in it already voided the old one's grants, in dispatch).
      const known = this.peers.get(sid);
      if (known !== undefined) this.peerFor(sid, sep, now, known);
      this.ignore("role");
      return;
    }
    let refusal: [Reason, string] | undefined;
    if (role !== ectp.v1.Role.ROLE_CONSUMER && role !== ectp.v1.Role.ROLE_BOTH) refusal = [FR.FAILURE_REASON_INTERNAL, `Hello role ${String(role)} is not CONSUMER or BOTH`];
    else {
      const diff = this.fingerprintDiff(hello.fingerprint);
      if (diff !== undefined) refusal = [FR.FAILURE_REASON_INCOMPATIBLE, diff];
    }
    if (refusal !== undefined) {
      // [P8] a known consumer's refused Hello still counts as life (a newer epoch in it already voided
      // the old one's grants, in dispatch). [P7] An unknown peer is refused before it is recorded.
      const known = this.peers.get(sid);
      if (known !== undefined) this.peerFor(sid, sep, now, known);
      this.loadBeforeRefusal(sid, sep, hello.transportMetadata);
      this.handshakeReject(sid, refusal[0], refusal[1]);
      return;
    }
    const p = this.peerFor(sid, sep, now);
    // SPEC 4.1: a Hello repeating the epoch whose Hello was applied is a duplicate: answered (its
    // answer may have been lost), and it changes no other state.
    if (p.helloEpoch !== sep) {
      p.helloEpoch = sep;
      const md = hello.transportMetadata;
      p.metadata = md instanceof Uint8Array ? ownBytes(md) : new Uint8Array(0); // (not a view into the frame, SPEC.md 16)
      // [E1] The one capability it acts on; the list itself is not kept (a Hello may carry 65,536 names of any length).
      if (Array.isArray(hello.capabilities) && hello.capabilities.includes(EVENTS_CAPABILITY)) p.subscribed = true;
      // [P8] The larger of the consumer's interval (0: the default, 2000 ms, SPEC.md 4.1; at most 60 s) and ours.
      p.intervalMs = peerHeartbeatIntervalMs(hello.heartbeatIntervalMs, this.cfg.heartbeatIntervalMs);
      this.peerDue(p.lastHeard + p.intervalMs * this.cfg.heartbeatMisses);
      // Once per peer epoch: the transport loads the metadata before our reply goes out.
      this.connectIfNeeded(p);
    }
    this.send(sid, {
      body: "hello",
      hello: {
        role: ectp.v1.Role.ROLE_PRODUCER,
        capabilities: [EVENTS_CAPABILITY],
        fingerprint: this.fingerprint,
        transportMetadata: this.transportMetadata,
        heartbeatIntervalMs: this.cfg.heartbeatIntervalMs,
      },
    });
  }

  /**
   * SPEC.md 4.1, 4.2: a refusal is a message to the Hello's sender like any other, so the
   * sender's transport metadata is loaded first (once per epoch: not for a known peer already
   * connected at it). Without it a transport that reaches only loaded peers (NIXL, the mock)
   * drops the HandshakeReject, and the consumer waits out its whole budget instead of ending its
   * fetches at once [P7]. An unknown sender stays unrecorded (its connection stays with the
   * transport, as one per peer id; the driver ignores a connect for an older epoch than its own).
   */
  private loadBeforeRefusal(peerId: string, epoch: number, metadata: unknown): void {
    if (!(metadata instanceof Uint8Array) || metadata.length === 0 || !isPositiveInt(epoch)) return;
    const known = this.peers.get(peerId);
    if (known !== undefined && known.epoch === epoch) {
      if (known.connectedEpoch === epoch) return;
      known.connectedEpoch = epoch; // (its accepted Hello later connects nothing twice)
    }
    this.outputs.push({ type: "connect-peer", peerId, epoch, metadata });
  }

  private handshakeReject(peerId: string, reason: Reason, text: string): void {
    const detail = boundedDetail(text); // SPEC.md section 5: a peer's text of any length, in a message and a log
    const labels = this.reasonLabels(reason);
    this.metrics.counter("ectp_producer_handshake_rejects_total", 1, this.byConsumer.with(labels, peerId));
    // A refusal is a deployment fault (another model, layout or major): said in the producer's own logs
    // too, not only in the refused consumer's.
    this.logger.warn("consumer's Hello refused; it reads nothing from this producer until it changes", { peerId, reason: labels.reason, detail });
    this.send(peerId, { body: "handshakeReject", handshakeReject: { reason, detail, supported: { ...SPEC_VERSION } } });
  }

  /** [V1][P7] answer a message of another major version with a typed VERSION refusal. */
  private rejectVersion(from: string, env: ectp.v1.IEnvelope): void {
    const major = env.version?.major ?? 0;
    const detail = `peer speaks spec major ${major}; this producer speaks ${SPEC_MAJOR}`;
    const body = envelopeBodyName(env);
    const attemptId = u64(env.readRequest?.attemptId);
    if (body === "readRequest" && isPositiveInt(attemptId)) {
      this.reject(from, attemptId, FR.FAILURE_REASON_VERSION, detail);
      return;
    }
    if (body === "hello") {
      // [V1] Nothing of another major's body is acted on (its metadata field is not frozen): the
      // refusal reaches the sender only if the transport can already (SPEC.md 4.2).
      this.handshakeReject(from, FR.FAILURE_REASON_VERSION, detail);
      return;
    }
    this.ignore("version");
  }

  /** Undefined when `fp` equals ours field by field; else which field differs. */
  private fingerprintDiff(fp: ectp.v1.IFingerprint | null | undefined): string | undefined {
    // Fast path without allocation: every field present and equal.
    const b0 = this.fp;
    if (
      fp &&
      fp.model === b0.model &&
      fp.dtype === b0.dtype &&
      (fp.rowBytes ?? 0) === b0.rowBytes &&
      (fp.layoutVersion ?? 0) === b0.layoutVersion
    )
      return undefined;
    const n = normalizeFingerprint(fp);
    if (!n.ok) return `fingerprint is malformed: ${n.error.message}`;
    return fingerprintDifference(n.value, this.fp);
  }

  // ---------------------------------------------------------------- reads

  private onReadRequest(p: Peer, rr: ectp.v1.IReadRequest, attemptId: number, now: number): void {
    const key = rr.key;
    // [P7] check 3: a request without a key has no fingerprint to compare; it fails at lookup (check 6, INTERNAL).
    const diff = key === undefined || key === null ? undefined : this.fingerprintDiff(key.fingerprint);
    // [P7] check 2 / SPEC.md 4.3: compare with this consumer's live grant for the key. Only a key
    // of our fingerprint can name a granted item, so a foreign fingerprint skips this (no lookup).
    const keyId = diff === undefined ? tryItemKeyId(key) : undefined;
    let indexHash = 0;
    let live: Grant | undefined;
    if (keyId !== undefined) {
      // tryItemKeyId checked that the key holds a 1-64 byte contentHash.
      indexHash = keyIndexHash(hashBytes((key as ectp.v1.IItemKey).contentHash as Uint8Array), p.salt);
      live = this.byKey.get(p, indexHash, keyId);
      // [P3] A grant past its lease deadline is no longer live, even before a poll has released it:
      // a request now is neither its duplicate nor stale against it.
      if (live !== undefined && live.deadline <= now) live = undefined;
    }
    if (live !== undefined) {
      if (attemptId === live.attemptId) {
        // [P3] a duplicated ReadRequest: the same grant again (same id, no new pin), with the lease
        // it has left, never its full lease: the consumer counts a lease from receipt [C11]. A
        // grant with less than 1 ms left is not resent (lease_ms 0 would mean 30 000).
        this.metrics.counter("ectp_producer_duplicate_requests_total", 1, this.byConsumer.with(undefined, p.id));
        const left = Math.floor(live.deadline - now);
        if (left >= 1) this.sendGrant(p.id, live, left);
        return;
      }
      // [P3][C10] a reordered, older attempt: no answer, and the live grant stays.
      if (attemptId < live.attemptId) { this.ignore("staleAttempt"); return; }
    }
    // [P7] fingerprint before any lookup.
    if (diff !== undefined) { this.reject(p.id, attemptId, FR.FAILURE_REASON_INCOMPATIBLE, diff); return; }
    // [P7] a shutting-down producer grants nothing.
    if (this.shuttingDown) { this.reject(p.id, attemptId, FR.FAILURE_REASON_SHUTTING_DOWN, "producer is shutting down"); return; }
    // [P8] the consumer's announcement named another epoch of this producer.
    const expectedEpoch = u64(rr.expectedEpoch);
    if (expectedEpoch !== 0 && expectedEpoch !== this.epoch) {
      this.reject(
        p.id,
        attemptId,
        FR.FAILURE_REASON_EPOCH_CHANGED,
        `announcement named epoch ${expectedEpoch}; producer epoch is ${this.epoch}`,
      );
      return;
    }
    if (keyId === undefined) {
      // diff was undefined, so the key itself is malformed: say how.
      const kid = itemKeyId(key);
      this.reject(p.id, attemptId, FR.FAILURE_REASON_INTERNAL, kid.ok ? "item key is malformed" : kid.error.message);
      return;
    }
    const entry = this.readyEntry(p, keyId, attemptId);
    if (entry === undefined) return; // rejected
    // SPEC section 5 / [C2]: a descriptor no receiver accepts is never granted (terminal).
    const refused = this.refusedDescriptor(entry.descriptor);
    if (refused !== undefined) {
      this.reject(p.id, attemptId, FR.FAILURE_REASON_INTERNAL, `the store holds the item, but ${refused}`);
      return;
    }
    const size = u64(entry.descriptor.sizeBytes);
    if (!isPositiveInt(size)) {
      this.reject(p.id, attemptId, FR.FAILURE_REASON_INTERNAL, "stored descriptor has no valid sizeBytes");
      return;
    }
    const expectedSize = u64(rr.expectedSizeBytes);
    if (expectedSize !== 0 && expectedSize !== size) {
      this.reject(
        p.id,
        attemptId,
        FR.FAILURE_REASON_INTERNAL,
        `announcement named ${expectedSize} bytes; item holds ${size}`,
      );
      return;
    }
    // [P3] a newer attempt of the same consumer for the same item replaces its older grant.
    if (live !== undefined) this.release(live, RELEASE.replaced);
    // [P5] An item above the byte quota itself can never be granted: terminal, not a retry for the whole budget.
    if (size > this.cfg.maxPinnedBytesPerConsumer) {
      this.reject(p.id, attemptId, FR.FAILURE_REASON_INTERNAL, `item of ${size} bytes exceeds the per-consumer quota of ${this.cfg.maxPinnedBytesPerConsumer} bytes`);
      return;
    }
    // [P5] per-consumer quota on pinned bytes and grants.
    if (p.pinnedBytes + size > this.cfg.maxPinnedBytesPerConsumer || p.liveGrants >= this.cfg.maxGrantsPerConsumer) {
      this.reject(
        p.id,
        attemptId,
        FR.FAILURE_REASON_OVERLOADED,
        `consumer quota reached (${p.liveGrants} grants, ${p.pinnedBytes} bytes pinned)`,
        this.cfg.retryAfterMs,
      );
      return;
    }
    this.openGrant(p, keyId, indexHash, size, attemptId, entry, now);
  }

  /**
   * [P1] The store's entry for a requested key when it is ready to grant; otherwise the request is
   * rejected (NOT_FOUND when absent or evicted, NOT_READY while being written, INTERNAL when the
   * store fails) and the result is undefined.
   */
  private readyEntry(p: Peer, keyId: string, attemptId: number): StoreEntry | undefined {
    let entry: StoreEntry | undefined;
    this.gate.callbacks++; // the store is engine code: a call back into this core is refused
    try {
      entry = this.store.get(keyId);
    } catch (cause) {
      // The engine's store failed, not the consumer's message: answer it (INTERNAL, as for a failed pin)
      // rather than drop it as malformed and leave the consumer to its grant wait.
      this.logger.error("store failed to look up a requested item", { keyId, error: thrownText(cause) });
      this.reject(p.id, attemptId, FR.FAILURE_REASON_INTERNAL, "store could not look the item up");
      return undefined;
    } finally {
      this.gate.callbacks--;
    }
    // [P1] absent or evicted is terminal; present but not fully written is retryable.
    if (!entry) { this.reject(p.id, attemptId, FR.FAILURE_REASON_NOT_FOUND, "item not held"); return undefined; }
    if (!entry.ready) {
      this.reject(p.id, attemptId, FR.FAILURE_REASON_NOT_READY, "item not fully written yet", this.cfg.retryAfterMs);
      return undefined;
    }
    return entry;
  }

  /**
   * [P2][P3] Grant a checked request: pin the item once for this grant, record the grant with its own
   * lease deadline in every table and in the consumer's quota [P5], and send the ReadGrant. A store
   * that refuses the pin gets the request rejected (INTERNAL) instead.
   */
  private openGrant(p: Peer, keyId: string, indexHash: number, size: number, attemptId: number, entry: StoreEntry, now: number): void {
    this.gate.callbacks++;
    try {
      this.store.pin(keyId); // [P2] one pin per grant, never per key.
    } catch (cause) {
      this.logger.error("store refused to pin a ready item", { keyId, error: thrownText(cause) });
      this.reject(p.id, attemptId, FR.FAILURE_REASON_INTERNAL, "store could not pin the item");
      return;
    } finally {
      this.gate.callbacks--;
    }
    const grant = new Grant(
      this.nextGrantId++,
      p,
      p.id,
      p.epoch,
      keyId,
      indexHash,
      size,
      attemptId,
      entry.descriptor,
      entry,
      now + this.cfg.leaseMs, // [P3] its own deadline; never extended.
    );
    this.grants.set(grant.id, grant);
    this.byKey.add(grant);
    grant.peerPrev = p.grantTail;
    if (p.grantTail === undefined) p.grantHead = grant;
    else p.grantTail.peerNext = grant;
    p.grantTail = grant;
    p.liveGrants++;
    p.pinnedBytes += size;
    this.pinnedBytesTotal += size;
    this.leaseInsert(grant);
    this.metrics.counter("ectp_producer_grants_total", 1, this.byConsumer.with(undefined, p.id));
    this.sendGrant(p.id, grant, this.cfg.leaseMs);
  }

  /** Send the ReadGrant of `g` with `leaseMs` of lease (its full lease, or what is left of it when resent). */
  private sendGrant(peerId: string, g: Grant, leaseMs: number): void {
    // The whole envelope in one literal (the fields and their order as send() gives them), so
    // the hot path builds it without adding properties afterwards.
    const envelope: ectp.v1.IEnvelope = {
      body: "readGrant",
      readGrant: { attemptId: g.attemptId, grantId: g.id, item: g.item, leaseMs },
      version: SPEC_VERSION,
      senderId: this.id,
      senderEpoch: this.epoch,
    };
    this.outputs.push({ type: "send", peerId, envelope });
  }

  private reject(peerId: string, attemptId: number, reason: Reason, detail: string, retryAfterMs = 0): void {
    this.metrics.counter("ectp_producer_rejects_total", 1, this.byConsumer.with(this.reasonLabels(reason), peerId));
    this.send(peerId, {
      body: "readReject",
      // The retryable flag follows the SPEC.md table. SPEC.md section 5: the detail may hold a peer's or a store's text of any length.
      readReject: { attemptId, reason, retryable: isRetryable(reason), retryAfterMs, detail: boundedDetail(detail) },
    });
  }

  private onReadComplete(p: Peer, epoch: number, rc: ectp.v1.IReadComplete): void {
    // [P2][P3] A grant past its lease deadline was released by its lease on the way in (`advance`):
    // an ACK of it names a grant already released (SPEC.md 4.6).
    const g = this.grants.get(u64(rc.grantId));
    // [P2][C10] unknown grant, or a second ACK of one already released.
    if (!g) { this.ignore("unknownGrant"); return; }
    // [P2] only the holder (id AND epoch) releases a grant.
    if (g.consumerId !== p.id || g.consumerEpoch !== epoch) { this.ignore("notOwner"); return; }
    const status = rc.status ?? 0;
    this.release(
      g,
      status === ectp.v1.CompletionStatus.COMPLETION_STATUS_OK
        ? RELEASE.ackOk
        : status === ectp.v1.CompletionStatus.COMPLETION_STATUS_ABANDONED
          ? RELEASE.ackAbandoned
          : RELEASE.ackFailed,
    );
  }

  /**
   * Release a grant exactly once [P2]: unpin its item and drop it from every table. `unpin` is
   * false when the store itself already dropped the item and its pins (a cleared store).
   */
  private release(g: Grant, labels: ReleaseLabels, unpin = true): void {
    if (!g.live) return; // [P2] exactly once
    g.live = false;
    // [P2] Released without its consumer's word (no ReadComplete, lease not over): its read may still run.
    if (labels !== RELEASE.ackOk && labels !== RELEASE.ackAbandoned && labels !== RELEASE.ackFailed && labels !== RELEASE.lease)
      if (this.releasedReadableUntil === undefined || g.deadline > this.releasedReadableUntil) this.releasedReadableUntil = g.deadline;
    this.grants.delete(g.id);
    this.leaseUnlink(g);
    if (this.byKey.delete(g)) {
      const p = g.owner;
      const { peerPrev, peerNext } = g;
      if (peerPrev === undefined) p.grantHead = peerNext;
      else peerPrev.peerNext = peerNext;
      if (peerNext === undefined) p.grantTail = peerPrev;
      else peerNext.peerPrev = peerPrev;
      g.peerPrev = undefined;
      g.peerNext = undefined;
      p.liveGrants--;
      p.pinnedBytes -= g.sizeBytes;
    }
    this.pinnedBytesTotal -= g.sizeBytes;
    if (unpin) {
      this.gate.callbacks++;
      try {
        if (this.hasUnpinEntry) this.store.unpinEntry?.(g.entry);
        // [I3][P2] By key, unless the store is known to hold this grant's pin no longer (see `holds`):
        // once its entry is gone (a clear, then the item written again from engine code the clear
        // called), the key names another entry, whose pins belong to other grants.
        else if (this.holds(g) !== false) this.store.unpin(g.keyId);
      } catch (cause) {
        // A store bug that leaves a pin behind [I3]: make it visible. (A store that no longer holds the
        // entry, see above, refuses rightly: its pins went with it.)
        if (this.holds(g) !== false) {
          this.metrics.counter("ectp_producer_unpin_errors_total", 1);
          this.logger.warn("store refused to unpin a released grant", { keyId: g.keyId, grantId: g.id, error: thrownText(cause) });
        }
      } finally {
        this.gate.callbacks--;
      }
    }
    this.metrics.counter("ectp_producer_releases_total", 1, this.byConsumer.with(labels, g.consumerId));
  }

  private releaseAllOf(p: Peer, labels: ReleaseLabels): void {
    if (p.grantHead === undefined) return;
    const held: Grant[] = [];
    for (let g: Grant | undefined = p.grantHead; g !== undefined; g = g.peerNext) held.push(g);
    for (const g of held) this.release(g, labels);
  }

  private expireLeases(now: number): void {
    for (let g = this.leaseHead; g !== undefined && g.deadline <= now; g = this.leaseHead) {
      // [P3] this grant's own lease ran out.
      this.release(g, RELEASE.lease);
      this.metrics.counter("ectp_producer_lease_expired_total", 1, this.byConsumer.with(undefined, g.consumerId));
      this.logger.warn("grant lease expired without an ACK; pin released", {
        grantId: g.id,
        consumerId: g.consumerId,
        itemKey: g.keyId,
        leaseMs: this.cfg.leaseMs,
      });
    }
  }

  // ---------------------------------------------------------------- liveness

  private tickPeers(now: number): void {
    // Nothing is due before peerCheckAt (a lower bound of every peer's deadlines).
    if (now < this.peerCheckAt || this.peers.size === 0) return;
    let gone: Peer[] | undefined;
    let due = Number.POSITIVE_INFINITY;
    for (const p of this.peers.values()) {
      // [P8] silent for heartbeatMisses intervals: gone.
      if (now >= p.lastHeard + p.intervalMs * this.cfg.heartbeatMisses) {
        if (gone === undefined) gone = [];
        gone.push(p);
        continue;
      }
      if (now >= p.nextHeartbeat) {
        p.nextHeartbeat = now + this.cfg.heartbeatIntervalMs;
        // [P8] SPEC.md 4.7: only to a peer it has business with (grants, a subscription, an answer
        // owed). One without may fall silent: heartbeats to it would keep an engine that is also a
        // producer sending back, and neither side's record of the other would ever go [I4].
        if (hasBusiness(p)) this.send(p.id, { body: "heartbeat", heartbeat: { sequence: ++this.heartbeatSequence } });
      }
      if (p.owedSnapshot || p.owedReplayFrom !== 0) {
        if (now >= p.answeredAt + this.cfg.resendIntervalMs) this.answerOwed(p, now);
        // Still owed (it had to wait, or the store could not list a snapshot): due a resend interval after the last answer.
        if (p.owedSnapshot || p.owedReplayFrom !== 0) due = Math.min(due, p.answeredAt + this.cfg.resendIntervalMs);
      }
      due = Math.min(due, p.nextHeartbeat, p.lastHeard + p.intervalMs * this.cfg.heartbeatMisses);
    }
    this.peerCheckAt = due;
    if (gone) for (const p of gone) this.peerGone(p, "silent");
  }

  /** A peer's heartbeat or silence deadline may now be as early as `t`: lower the scan bound. */
  private peerDue(t: number): void {
    if (t < this.peerCheckAt) this.peerCheckAt = t;
  }

  /**
   * [P8][I4] Keep what a gone peer's epoch told us (for a reconnect without a new Hello, and to know
   * its older epochs' messages as stale), in a table bounded by entries (the oldest go first) and
   * by bytes: past the byte bound the oldest entries lose their metadata (such a peer reconnects
   * through a new Hello) but keep their epoch. Metadata that views a larger
   * buffer (a decoded frame) is copied, so an entry holds only its own bytes.
   */
  private remember(p: Peer): void {
    this.takeForgotten(p.id);
    const metadata = ownBytes(p.metadata);
    const bytes = metadata.byteLength;
    this.forgotten.set(p.id, { epoch: p.epoch, metadata, intervalMs: p.intervalMs, subscribed: p.subscribed, bytes, epochOnly: false });
    this.forgottenBytes += bytes;
    if (this.forgotten.size > FORGOTTEN_PEERS_CAP) this.takeForgotten(this.forgotten.keys().next().value as string);
    for (const [id, f] of this.forgotten) {
      if (this.forgottenBytes <= FORGOTTEN_PEERS_BYTES_CAP) break;
      if (f.bytes === 0) continue;
      this.forgotten.set(id, { ...f, metadata: new Uint8Array(0), bytes: 0 }); // (keeps its place)
      this.forgottenBytes -= f.bytes;
    }
  }

  /** [P8] A forgotten peer seen at a greater `epoch`: its entry keeps the epoch, nothing of the older one. */
  private forgetEpoch(id: string, epoch: number): void {
    const f = this.forgotten.get(id);
    if (f === undefined) return;
    this.forgottenBytes -= f.bytes;
    // (Set in place: it keeps its age in the table.)
    this.forgotten.set(id, { epoch, metadata: new Uint8Array(0), intervalMs: this.cfg.heartbeatIntervalMs, subscribed: false, bytes: 0, epochOnly: true });
  }

  /** Remove and return a forgotten peer's entry. */
  private takeForgotten(id: string): ForgottenPeer | undefined {
    const f = this.forgotten.get(id);
    if (f !== undefined) {
      this.forgotten.delete(id);
      this.forgottenBytes -= f.bytes;
    }
    return f;
  }

  /** [P8] a consumer is gone: release its grants, forget it, tell the transport. */
  private peerGone(p: Peer, cause: "silent" | "unreachable"): void {
    const held = p.liveGrants;
    this.releaseAllOf(p, RELEASE.peerGone);
    this.peers.delete(p.id);
    if (this.lastPeer === p) this.lastPeer = undefined;
    this.remember(p);
    this.outputs.push({ type: "disconnect-peer", peerId: p.id });
    // A consumer that went quiet holding nothing is how idling looks (it heartbeats only producers
    // it has business with): info, and labelled apart so that a dashboard can alert on the other
    // kind only. One that held grants left reads unfinished: a warning.
    this.metrics.counter("ectp_producer_peers_gone_total", 1, this.byConsumer.with(PEERS_GONE[cause][held > 0 ? "released" : "none"], p.id));
    const fields = { peerId: p.id, epoch: p.epoch, cause, grantsReleased: held };
    if (held > 0) this.logger.warn("consumer is gone; its grants were released", fields);
    else this.logger.info("consumer is gone (it held no grants)", fields);
  }

  // ---------------------------------------------------------------- events

  private onStoreChange(change: StoreChange): void {
    // [E1][P7] Nothing is published after Cleared(SHUTDOWN) (reached only when the store failed to
    // unsubscribe the producer): the snapshot of a shut-down producer lists no item [E2].
    if (this.shuttingDown && change.kind !== "cleared") return;
    switch (change.kind) {
      case "stored":
        // SPEC section 5: one unpublishable descriptor would make every batch carrying it malformed.
        if (this.refusedDescriptor(change.descriptor) === undefined) this.pendingEvents.push({ stored: { item: change.descriptor } });
        return;
      case "removed":
        // SPEC section 5: as for a stored descriptor, one key no receiver accepts would make every batch
        // carrying it malformed, in a replay too [E2] (MemoryItemStore's keys were checked by put).
        if (this.verdicts !== undefined && this.refusedRemovedKey(change.key)) return;
        // [P6][E1] an evicted (or discarded) item is announced Removed, so routers stop naming it;
        // counted by cause, so store pressure (evictions) shows beside the consumers' NOT_FOUNDs.
        this.metrics.counter("ectp_producer_items_removed_total", 1, change.cause === "evicted" ? REMOVED_EVICTED_LABELS : REMOVED_DISCARDED_LABELS);
        this.pendingEvents.push({
          removed: {
            key: change.key,
            cause:
              change.cause === "evicted"
                ? ectp.v1.RemovedCause.REMOVED_CAUSE_EVICTED
                : ectp.v1.RemovedCause.REMOVED_CAUSE_DISCARDED,
          },
        });
        return;
      case "cleared":
        // Every item, pinned ones included, is gone with its pins: their grants are void [I3]. A grant
        // of an entry the store still holds was made after the clear (a release callback or an earlier
        // listener of this change called in): it holds a pin of that entry and stays live [P2][I3].
        for (const g of this.grants.values().sort((a, b) => a.id - b.id)) {
          if (this.holds(g) === true) continue;
          this.release(g, RELEASE.cleared, false);
        }
        if (this.shuttingDown) return; // (its Cleared(SHUTDOWN) is, or was, published)
        this.pendingEvents.push({
          cleared: {
            cause:
              change.cause === "shutdown"
                ? ectp.v1.ClearedCause.CLEARED_CAUSE_SHUTDOWN
                : ectp.v1.ClearedCause.CLEARED_CAUSE_RESET,
          },
        });
        return;
    }
  }

  /**
   * Whether the store still holds the pin `g` took [I3]: true, false, or undefined when a lookup throws
   * (the entry may still be there). Its lookup returning the very entry `g` pinned: true; none: false.
   * Another object is either a store that builds a new entry object per lookup or a clear not yet
   * announced to this core (a release callback or an earlier listener called in) that dropped g's entry
   * with its pin, the key since written again. The pins tell them apart: each pin the store holds is a
   * live grant's, and a clear drops those of every grant made before it, so the store holds more pins
   * than the other live grants only when g's is among them.
   */
  private holds(g: Grant): boolean | undefined {
    this.gate.callbacks++;
    try {
      const current = this.store.get(g.keyId);
      if (current === g.entry) return true;
      if (current === undefined || current === null) return false;
      // [I3] A new object per lookup must not leave every released grant's pin behind.
      return this.store.totalPins() > this.grants.size - (g.live ? 1 : 0);
    } catch {
      return undefined;
    } finally {
      this.gate.callbacks--;
    }
  }

  /**
   * [E1] publish pending changes as one batch with the next sequence number; changes whose
   * events exceed `maxBatchBytes` together go out as consecutive batches.
   */
  private flushEvents(): void {
    if (this.pendingEvents.length === 0) return;
    const runs = splitBySize(this.pendingEvents, EVENT_COST, this.cfg.maxBatchBytes); // [E1] batch size bound
    this.pendingEvents = [];
    for (const events of runs) {
      const batch: ectp.v1.IEventBatch = { sequence: ++this.sequence, events };
      this.ring[this.sequence % this.cfg.replayBufferBatches] = batch; // [E2] bounded replay buffer
      this.outputs.push({ type: "event-batch", batch });
      this.metrics.counter("ectp_producer_event_batches_total");
      for (const p of this.peers.values()) if (p.subscribed) this.send(p.id, { body: "eventBatch", eventBatch: batch });
    }
  }

  /** [E2] A ReplayRequest from `fromSequence` (0 means 1), checked well-formed by `dispatch`: it subscribes `p`. */
  private onReplay(p: Peer, fromSequence: number, now: number): void {
    p.subscribed = true;
    this.answerReplay(p, Math.max(1, fromSequence), now);
  }

  private answerReplay(p: Peer, from: number, now: number): void {
    const latest = this.sequence;
    if (from > latest) return; // nothing newer than what the subscriber has
    const oldest = Math.max(1, latest - this.cfg.replayBufferBatches + 1);
    // [E2] a gap the buffer cannot fill forces a snapshot.
    if (from < oldest) {
      this.send(p.id, { body: "replayUnavailable", replayUnavailable: { oldestAvailable: oldest, latest } });
      return;
    }
    if (this.resendDeferred(p, now)) {
      p.owedReplayFrom = p.owedReplayFrom === 0 ? from : Math.min(p.owedReplayFrom, from);
      return;
    }
    // What the peer was owed goes out with this answer, not an interval after it.
    if (p.owedSnapshot) {
      this.clearOwed(p);
      this.answerSnapshot(p); // it covers this replay too
      return;
    }
    const owed = p.owedReplayFrom;
    p.owedReplayFrom = 0;
    if (owed !== 0 && owed < from) {
      if (owed >= oldest) from = owed;
      else this.send(p.id, { body: "replayUnavailable", replayUnavailable: { oldestAvailable: oldest, latest } });
    }
    for (let s = from; s <= latest; s++) {
      const batch = this.ring[s % this.cfg.replayBufferBatches];
      if (batch) this.send(p.id, { body: "eventBatch", eventBatch: batch });
    }
  }

  private onSnapshot(p: Peer, now: number): void {
    p.subscribed = true;
    if (this.resendDeferred(p, now)) p.owedSnapshot = true;
    else {
      this.clearOwed(p); // the snapshot covers whatever was owed
      this.answerSnapshot(p);
    }
  }

  private clearOwed(p: Peer): void {
    p.owedSnapshot = false;
    p.owedReplayFrom = 0;
  }

  /**
   * [E2] Whether an answer that resends something to `p` must wait: one went out less than
   * `resendIntervalMs` ago. If not, this answer counts as the latest.
   */
  private resendDeferred(p: Peer, now: number): boolean {
    const at = p.answeredAt + this.cfg.resendIntervalMs;
    if (now >= at) {
      p.answeredAt = now;
      return false;
    }
    this.peerDue(at);
    this.metrics.counter("ectp_producer_deferred_resends_total");
    return true;
  }

  /** [E2] The requests `p` made while its answers had to wait, answered together: a snapshot covers a replay too. */
  private answerOwed(p: Peer, now: number): void {
    if (p.owedSnapshot) this.onSnapshot(p, now);
    else {
      const from = p.owedReplayFrom;
      p.owedReplayFrom = 0;
      this.answerReplay(p, from, now);
    }
  }

  private answerSnapshot(p: Peer): void {
    // Publish pending changes first so the snapshot is exactly "as of batch `sequence`" [E2].
    this.flushEvents();
    const items: ectp.v1.IItemDescriptor[] = [];
    this.gate.callbacks++;
    try {
      if (!this.shuttingDown)
        for (const e of this.store.readyItems()) if (this.refusedDescriptor(e.descriptor) === undefined) items.push(e.descriptor);
    } catch (cause) {
      // [I1] the engine's store could not list its items (this may run inside poll): no partial
      // snapshot; the answer stays owed and is tried again a resend interval later [E2].
      this.logger.error("store failed to list its ready items for a snapshot", { peerId: p.id, error: thrownText(cause) });
      p.owedSnapshot = true;
      // [I1] With no resend interval the store would be asked again at every poll, and a driver polling at
      // nextDeadline() would spin while it fails: the retry waits the default interval then.
      if (this.cfg.resendIntervalMs === 0) p.answeredAt += DEFAULT_PRODUCER_CONFIG.resendIntervalMs;
      this.peerDue(p.answeredAt + this.cfg.resendIntervalMs);
      return;
    } finally {
      this.gate.callbacks--;
    }
    // [E2] a snapshot whose items exceed maxBatchBytes goes out in numbered parts.
    const runs = splitBySize(items, DESCRIPTOR_COST, this.cfg.maxBatchBytes);
    const snapshotId = ++this.snapshotAnswers; // [E2] greater than the last answer's; parts of one answer share it
    if (runs.length === 1) {
      this.send(p.id, { body: "snapshot", snapshot: { sequence: this.sequence, items, snapshotId } });
      return;
    }
    for (let part = 0; part < runs.length; part++)
      this.send(p.id, {
        body: "snapshot",
        snapshot: { sequence: this.sequence, items: runs[part], part, parts: runs.length, snapshotId },
      });
  }

  // ---------------------------------------------------------------- plumbing

  /**
   * Why the store's `descriptor` may not be published (see {@link unpublishable}), or
   * undefined. Each refused descriptor object is logged at error level and counted once.
   */
  private refusedDescriptor(descriptor: ectp.v1.IItemDescriptor): string | undefined {
    // [P8] Only items stored under this producer's own id and epoch are its to announce, publish or
    // grant: a consumer would look for another producer (and wait out its budget), or refuse an
    // older epoch's item as stale (a store kept across a ProducerCore of a new epoch, or shared by two).
    if (descriptor !== null && typeof descriptor === "object") {
      if (descriptor.producerId !== this.id || u64(descriptor.epoch) !== this.epoch)
        return this.foreign(
          descriptor,
          `it was stored as producer ${JSON.stringify(descriptor.producerId)} epoch ${String(descriptor.epoch)}, and this producer is ${JSON.stringify(this.id)} epoch ${this.epoch}`,
          "the item store holds an item of another producer or epoch; it is not published, announced or granted (put items with this producer's id and epoch)",
        );
      // [P7] Nor one of another fingerprint: every read of it is refused INCOMPATIBLE, so announcing or
      // publishing it would send consumers to wait for an item they can never read.
      const diff = this.fingerprintDiff((descriptor.key as ectp.v1.IItemKey | null | undefined)?.fingerprint);
      if (diff !== undefined)
        return this.foreign(
          descriptor,
          `its key's fingerprint differs from this producer's: ${diff}`,
          "the item store holds an item of another fingerprint; it is not published, announced or granted (put items of this producer's fingerprint)",
        );
    }
    const verdicts = this.verdicts;
    if (verdicts === undefined) return undefined; // MemoryItemStore: put refused them
    // A store that reports no descriptor object shares one verdict ("descriptor is missing").
    const key = descriptor !== null && typeof descriptor === "object" ? descriptor : NO_DESCRIPTOR;
    const known = verdicts.get(key);
    if (known !== undefined) return known ?? undefined;
    const why = unpublishable(descriptor);
    verdicts.set(key, why ?? null);
    if (why !== undefined) {
      this.metrics.counter("ectp_producer_unpublishable_items_total");
      this.logger.error("the item store reported an item no receiver would accept; it is not published, announced or granted", {
        reason: why,
      });
    }
    return why;
  }

  /**
   * Whether the key of a removal the store reported is one no receiver would accept (SPEC.md section 5):
   * then no Removed event is published (a subscriber's view never held an item of that key, which no
   * Stored event can have carried), and the removal is logged at error level and counted.
   */
  private refusedRemovedKey(key: ectp.v1.IItemKey): boolean {
    const id = itemKeyId(key);
    if (id.ok) return false;
    this.metrics.counter("ectp_producer_unpublishable_items_total");
    this.logger.error("the item store reported the removal of an item whose key no receiver would accept; no Removed event is published", {
      reason: id.error.message,
    });
    return true;
  }

  /** `why` an item that is not this producer's (id, epoch, fingerprint) is refused; logged (`message`) once per descriptor. */
  private foreign(descriptor: ectp.v1.IItemDescriptor, why: string, message: string): string {
    if (!this.foreignLogged.has(descriptor)) {
      this.foreignLogged.add(descriptor);
      this.metrics.counter("ectp_producer_unpublishable_items_total");
      this.logger.error(message, { reason: why });
    }
    return why;
  }


  private send(peerId: string, body: ectp.v1.IEnvelope): void {
    body.version = SPEC_VERSION;
    body.senderId = this.id;
    body.senderEpoch = this.epoch;
    this.outputs.push({ type: "send", peerId, envelope: body });
  }

  private reasonLabels(reason: Reason): Labels {
    let l = this.reasonLabelCache.get(reason);
    if (l === undefined) {
      l = Object.freeze({ reason: (FR[reason] as string | undefined)?.replace("FAILURE_REASON_", "") ?? String(reason) });
      this.reasonLabelCache.set(reason, l);
    }
    return l;
  }

  private ignore(reason: IgnoreReason): void {
    this.ignored++; // [C10]
    this.metrics.counter(IGNORED, 1, LABELS[reason]);
  }

  /** Link a new grant into the lease list after every grant that expires no later [P3]. */
  private leaseInsert(g: Grant): void {
    let after = this.leaseTail;
    // Ids only grow, so (deadline, id) order puts g after every grant of an equal deadline.
    while (after !== undefined && after.deadline > g.deadline) after = after.prev;
    g.prev = after;
    g.next = after === undefined ? this.leaseHead : after.next;
    if (g.next === undefined) this.leaseTail = g;
    else g.next.prev = g;
    if (after === undefined) this.leaseHead = g;
    else after.next = g;
  }

  /** Unlink a released grant from the lease list. */
  private leaseUnlink(g: Grant): void {
    const { prev, next } = g;
    if (prev === undefined) this.leaseHead = next;
    else prev.next = next;
    if (next === undefined) this.leaseTail = prev;
    else next.prev = prev;
    g.prev = undefined;
    g.next = undefined;
  }
}

/**
 * The consumer (PD side) state machine: admission [C1][C2], wait budgets [C3], retries
 * [C4], terminal outcomes [C5], failure reporting [C6], release [C7], quarantine [C8],
 * single flight [C9], robustness to peers [C10], verification [C11] and the consumer's
 * half of epochs and heartbeats [P8].
 *
 * Sans-IO: every call takes `now`; outputs are queued and handed out by `poll(now)`.
 * @module
 */
import { idBeforeEpoch } from "../epoch-ids.js";
import {
  EctpError,
  type NormalizedFingerprint,
  SPEC_MAJOR,
  SPEC_VERSION,
  type ValidDescriptor,
  crc32c,
  decodeEnvelope,
  describeValue,
  ectp,
  normalizeFingerprint,
  refuseUnknownOptions,
  thrownMessage,
  thrownText,
  tryItemKeyId,
  validateDescriptor,
} from "@ectp/protocol";
import { checkedNow } from "../clock.js";
import {
  type ConsumerConfig,
  DEFAULT_CONSUMER_CONFIG,
  configSettingHint,
  fingerprintDifference,
  fingerprintOption,
  grantLeaseMs,
  mergeConfig,
  peerHeartbeatIntervalMs,
  readOptions,
  transportMetadataOption,
} from "../config.js";
import {
  HookGate,
  type Labels,
  SenderMismatchWarning,
  type Logger,
  type MetricsSink,
  PeerLabels,
  containLogger,
  containMetrics,
  METRICS_HOOK_THREW,
  peerLabelsOption,
  reentrantCall,
  requireMethods,
} from "../observability.js";
import { OutputQueue } from "../output-queue.js";
import { ownBytes, ownText } from "../owned.js";
import type { CoreOutput } from "../outputs.js";
import { SeededRandom, identitySeed } from "../random.js";
import { hashBytes, hashString } from "../tables/hash.js";
import { IdTable } from "../tables/id-table.js";
import { OrderedTable } from "../tables/ordered-table.js";
import { StringTable } from "../tables/string-table.js";
import { type ReadDestination, type ReadResult, settlesRead } from "../transport.js";
import { backoffDelay } from "./backoff.js";
import { REQUEST_OUTCOME_ONLY, isRetryableReject, reasonName } from "./reasons.js";
import { type Timed, TimerQueue } from "./timer-queue.js";
import type {
  AdmitItem,
  AdmitRequest,
  AdmitResult,
  ConsumerOptions,
  ConsumerStats,
  DestinationPool,
  FailedRequest,
  FailureReasonName,
  ItemDecision,
  ItemFailure,
} from "./types.js";

// ---------------------------------------------------------------------------------------
// Internal state
// ---------------------------------------------------------------------------------------

/** Fetch states. */
const IDLE = 0; // waiting for a retry (backoff) or for budgets to run out; or parked with no budget left (after a grant that came too late, or a wait that found none), until a request joins it
const REQUESTING = 1; // ReadRequest sent, waiting for a grant or reject
const READING = 2; // grant held, read in flight
/** [C9] Its next attempt waits for an earlier read of its item from its producer epoch (see `sendAttempt`): IDLE otherwise. */
const BLOCKED = 3;

/** Timer kinds (each record type has one). */
const T_BUDGET = 1;
const T_FETCH = 2;
const T_READ = 3;
const T_PEER = 4;

/** Timer lanes: deadlines of these kinds are `now + a fixed duration`, so they arrive in time order. */
const LANE_HEAP = 0;
const LANE_BUDGET = 1;
const LANE_GRANT_WAIT = 2;
const LANE_READ = 3;
const LANE_COUNT = 3;

const EMPTY_BYTES = new Uint8Array(0);
/** Peer records kept before idle ones are first forgotten (see `forgetIdlePeers`). */
const MIN_PEER_SWEEP = 1024;
/** [C5] An invalid announcement's readable producer and key when none could be read. */
const NO_SOURCE: { readonly itemKey?: string; readonly producer?: string } = Object.freeze({});
/** [C8] How many reads released at the quarantine cap are remembered, so that a late result of one is warned of. */
const RELEASED_AT_CAP_KEPT = 1024;
/** Most producer epochs whose announced transport metadata a peer keeps (the greatest; see `Peer.announced`). */
const MAX_ANNOUNCED_EPOCHS = 8;
const ACK_OK = ectp.v1.CompletionStatus.COMPLETION_STATUS_OK;
const ACK_FAILED = ectp.v1.CompletionStatus.COMPLETION_STATUS_FAILED;
const ACK_ABANDONED = ectp.v1.CompletionStatus.COMPLETION_STATUS_ABANDONED;

/** The engine's error for an item id given twice in one admit call. */
function duplicateItem(requestId: string, itemId: string): EctpError {
  return invalidArgument(`admit(${requestId}): duplicate itemId ${JSON.stringify(itemId)}; item ids must be unique per request.`);
}

/** Requests of up to this many items check duplicate ids and shared keys pairwise; larger ones by hashing. */
const PAIRWISE_MAX_ITEMS = 32;

/**
 * [I4] The plan arrays may keep this many entries between calls. They grow to the largest request
 * admitted (one entry per item, in a dozen arrays); after a request of more items than this, the next
 * admission of at most this many lets them go, so that one outsized request (100,000 items: some 10 MB
 * of scratch) does not stay in memory for the life of the core.
 */
const PLAN_KEPT_ITEMS = 4_096;

/** The further-slot list of a request with at most one item (shared, never written). */
const EMPTY_SLOTS: Slot[] = [];

/**
 * One (request, item) pair. A request is itself its first pair ({@link Req} extends this
 * class), so a one-item request is one object: re-admitting it reads one record where it
 * read three (request, slot list, slot), and each outstanding request holds two objects
 * and two pointers fewer (cache misses and GC work per outstanding request, issue #3).
 */
class Slot implements Timed {
  /** Sticky decision once made: ready or local-encode [C1]. */
  decision: ItemDecision | undefined = undefined;
  /** Cached defer decision (avoids an allocation per admit). */
  deferDecision: ItemDecision | undefined = undefined;
  /** The fetch this slot waits on (single flight [C9]). */
  fetch: Fetch | undefined = undefined;
  /** Neighbours in the fetch's waiter list (insertion order). */
  wPrev: Slot | undefined = undefined;
  wNext: Slot | undefined = undefined;
  /** The loaded item this slot holds. */
  loaded: Loaded | undefined = undefined;
  /**
   * Whether its budget [C3] is started and counted. The deadline itself is `tAt`: the
   * budget timer is the slot's only timer and is scheduled at exactly the budget deadline,
   * so a second copy of it (one more boxed double per slot) is not kept.
   */
  budgeted = false;
  // Its budget timer [C3].
  tAt = 0;
  tSeq = 0;
  tLane = -1;
  tPos = 0;
  /** Its timer kind (on the prototype: one per class, no per-record field). */
  declare readonly tKind: number;
  /** The request it belongs to (a {@link Req} is its own first slot). */
  readonly req: Req;
  /** The engine's item id ("" in a request's own slot until its first item is admitted). */
  itemId: string;
  hasModelInput: boolean;
  /**
   * SPEC.md 3.4: the item key its first admission took (a valid announcement's), kept to refuse a
   * later presentation announcing another key; undefined when none was taken (no announcement, an
   * invalid one, or the item presented as local).
   */
  keyId: string | undefined = undefined;
  /**
   * The announcement object last presented for the item (the engine's own): a re-admission passing
   * the same object again is not validated again (see `ConsumerCore.checkSameItems`).
   */
  announcement: unknown = undefined;
  constructor(req: Req | undefined, itemId: string, hasModelInput: boolean) {
    this.req = req ?? (this as unknown as Req);
    this.itemId = itemId;
    this.hasModelInput = hasModelInput;
  }

  /** Budget deadline [C3]; NaN before the first wait and after release (see `budgeted`). */
  get budgetAt(): number {
    return this.budgeted ? this.tAt : Number.NaN;
  }

  set budgetAt(at: number) {
    this.budgeted = !Number.isNaN(at);
    this.tAt = at;
  }
}

/** One engine request, which is also its first (request, item) slot. */
class Req extends Slot {
  /** Slots admitted, the request itself first (0 before its first item). */
  slotCount = 0;
  /** Its slots after the first, in the order first admitted (`slotCount - 1` of them). */
  more: Slot[] = EMPTY_SLOTS;
  /** Set once the request failed [C6]; the same result is returned by later admits. */
  failure: AdmitResult | undefined = undefined;
  /**
   * The last "admitted" result, returned again while no decision changed and the engine
   * passes the same item ids in the same order (no allocation per re-admission).
   */
  view: AdmitResult | undefined = undefined;
  /**
   * Its slots by item id, for a request of more than {@link PAIRWISE_MAX_ITEMS} items: made at the
   * first lookup that did not find an item at its first admission's index (an engine that leaves
   * items out, or presents them in another order). Its slots never change after the first admission.
   */
  byItemId: Map<string, Slot> | undefined = undefined;
  constructor(
    readonly id: string,
    /** `hashString(id)`, for the request table. */
    readonly hash: number,
  ) {
    super(undefined, "", false);
  }
}

// Results and decisions that outlive a call are class instances rather than object literals:
// V8 tracks allocation sites of literals and, once most objects of a site survive (as they do
// while many requests are outstanding), allocates every later object of that site directly in
// the old generation, where the short-lived ones become garbage that only a full (marking)
// collection reclaims. Instances of a class are always allocated young. Own properties and
// their order are those of the literals they replace.

// Fields are `declare`d (no class-field definitions, which cost a define per field per
// object) and assigned in the constructor in the literal's order.

/** An "admitted" {@link AdmitResult}. */
class Admitted {
  declare readonly status: "admitted";
  declare readonly items: ItemDecision[];
  constructor(items: ItemDecision[]) {
    this.status = "admitted";
    this.items = items;
  }
}

/** A "defer" {@link ItemDecision}. */
class Defer {
  declare readonly action: "defer";
  declare readonly itemId: string;
  constructor(itemId: string) {
    this.action = "defer";
    this.itemId = itemId;
  }
}

/** A "ready" {@link ItemDecision} for a loaded item. */
class ReadyAt {
  declare readonly action: "ready";
  declare readonly itemId: string;
  declare readonly destination: ReadDestination;
  constructor(itemId: string, destination: ReadDestination) {
    this.action = "ready";
    this.itemId = itemId;
    this.destination = destination;
  }
}

/**
 * [C10] A HandshakeReject answers our Hello: from a peer we have neither greeted (since its last
 * refusal) nor any fetch for, it is unsolicited and ignored (a refusal kept would keep a record per
 * such sender for good). SPEC 4.2: a greeting counts even after the peer was let go or declared gone.
 */
function solicited(peer: Peer): boolean {
  return peer.greetedEpoch !== 0 || peer.fetchCount !== 0;
}

/** A peer's `detail` text for a log record: a string, at most 200 characters; anything else "". */
function peerDetail(v: unknown): string {
  return ownText(v, 200);
}

/** Slot `i` of a request (the request itself is slot 0), or undefined past its last slot. */
function slotAt(req: Req, i: number): Slot | undefined {
  if (i >= req.slotCount) return undefined;
  return i === 0 ? req : req.more[i - 1];
}

/** [C3][C6] Whether slot `s` still waits for its fetch, has no model input, and its budget ran out by `now`: its request fails. */
function exhaustedWithoutModelInput(s: Slot, now: number): boolean {
  return s.decision === undefined && s.fetch !== undefined && !s.hasModelInput && now >= s.budgetAt;
}

/** [C3] Whether every request waiting for `f` is at or past its budget deadline (timers not yet run). */
function budgetsOver(f: Fetch, now: number): boolean {
  for (let w = f.wHead; w !== undefined; w = w.wNext) if (w.budgetAt > now) return false;
  return true;
}

/** A single-flight remote fetch of one item key [C9]. */
class Fetch implements Timed {
  /** Discriminant in the key map (on the prototype). */
  declare readonly isLoaded: false;
  /** Waiting slots, a list in insertion order (single flight: requests share the fetch [C9]). */
  wHead: Slot | undefined = undefined;
  wTail: Slot | undefined = undefined;
  waiterCount = 0;
  /** Neighbours in the peer's fetch list. */
  pPrev: Fetch | undefined = undefined;
  pNext: Fetch | undefined = undefined;
  state = IDLE;
  attemptId = 0;
  /** ReadRequests sent. */
  attempts = 0;
  /** Retries scheduled (backoff exponent). */
  retries = 0;
  /** Earliest time of the next attempt after a retryable outcome (backoff) [C4]. */
  retryAt = 0;
  /** Why the previous attempt ended without the item, for the retry's metric and log [C4]; undefined until one did. */
  retryReason: FailureReasonName | undefined = undefined;
  /**
   * [C3] Its last grant came when every waiter's budget was over and was released unread: the fetch is
   * parked (IDLE) and its waiters, resolved at the next poll, were waiting for that grant. Cleared
   * when a joining request resumes it (the retry's reason is then BUDGET_EXHAUSTED).
   */
  grantCameLate = false;
  read: Read | undefined = undefined;
  disposed = false;
  /**
   * [C11] Waiters whose announcement's checksum differs from `desc`'s (rare: two announcements of
   * one key that disagree), each with its CRC-32C (-1: its announcement carries none): a waiter
   * is ready only if the loaded bytes match its own announcement's checksum, whichever the
   * fetch was started by. Waiters not in the map announced `desc`'s checksum (or none with it).
   */
  otherChecksums: Map<Slot, number> | undefined = undefined;
  /**
   * [C1][P8] The latest announcement of a greater epoch of its producer that came while a read of
   * the older epoch was in flight (with its transport metadata): should that read end without
   * loading the item, the fetch goes on at this epoch rather than failing its waiters.
   */
  successor: { desc: ValidDescriptor; meta: Uint8Array | undefined } | undefined = undefined;
  // Its grant-wait or retry timer [C4].
  tAt = 0;
  tSeq = 0;
  tLane = -1;
  tPos = 0;
  /** Its timer kind (on the prototype: one per class, no per-record field). */
  declare readonly tKind: number;
  constructor(
    /** The announcement it fetches by; replaced by one of a newer epoch of its producer before a grant [P8]. */
    public desc: ValidDescriptor,
    /** Its key-map hash (`hashBytes` of the content hash). */
    readonly keyHash: number,
    readonly peer: Peer,
    /** Transport metadata from the announcement, if any. */
    public announcedMetadata: Uint8Array | undefined,
  ) {}

  // Read through the descriptor rather than copied: three fields fewer per outstanding fetch.

  /** The item's key id. */
  get keyId(): string {
    return this.desc.keyId;
  }

  /** The producer epoch the item was announced in. */
  get epoch(): number {
    return this.desc.epoch;
  }
}

/** [C11] The CRC-32C waiter `w`'s own announcement carries (-1: none); `fetchChecksum` is that of `f.desc`. */
function ownChecksum(f: Fetch, w: Slot, fetchChecksum: number): number {
  const others = f.otherChecksums;
  return others?.has(w) ? (others.get(w) as number) : fetchChecksum;
}

/**
 * [C5][C11] What a read found when its bytes do not match an announced CRC-32C (`announced`), for the
 * failure's warning: the CRC of the bytes read, or that it could not be computed (`crc` -1).
 */
function checksumDetail(crc: number, announced: number): string {
  return crc === -1
    ? "checksum not verifiable: the pool gives no view of the destination and the transport reported no CRC-32C"
    : `CRC-32C of the bytes read ${crc}, announced ${announced}`;
}

/** A started read (and the grant behind it). */
class Read implements Timed {
  /** The fetch it serves; undefined once abandoned, terminated or quarantined. */
  fetch: Fetch | undefined;
  /** Whether the grant still needs its ReadComplete. */
  grantHeld = true;
  /** Status to ACK with when it settles (ABANDONED: abandoned [C7]; FAILED: its fetch ended terminally [C5]); 0: none. */
  ackOnSettle = 0;
  cancelled = false;
  quarantined = false;
  /**
   * The fetch of the same item from the same producer epoch (single flight: one at a time) whose
   * next ReadRequest waits for this read to settle, or at the latest for its deadline: see
   * `ConsumerCore.sendAttempt` and `ConsumerCore.readEnded`.
   */
  blocked: Fetch | undefined = undefined;
  // Its deadline, then its quarantine cap [C8].
  tAt = 0;
  tSeq = 0;
  tLane = -1;
  tPos = 0;
  /** Its timer kind (on the prototype: one per class, no per-record field). */
  declare readonly tKind: number;
  constructor(
    readonly readId: number,
    readonly peer: Peer,
    readonly grantId: number,
    readonly epoch: number,
    readonly keyId: string,
    readonly sizeBytes: number,
    readonly dest: ReadDestination,
    /** When the read must have settled [C11]: min(transfer timeout, lease - margin). */
    readonly deadline: number,
    /** The lease part of `deadline` [C11]. */
    readonly leaseDeadline: number,
    readonly startedAt: number,
    /**
     * Checksums [C11], -1 when absent: the announcement's the fetch asks by (checked per waiter:
     * see `Fetch.otherChecksums`) and the grant's (checked for every waiter).
     */
    readonly checksumA: number,
    readonly checksumB: number,
    fetch: Fetch,
  ) {
    this.fetch = fetch;
  }
}

/**
 * A read of `f`'s item from `f`'s producer epoch, not `f`'s own, that may still be running under a
 * grant the producer holds: abandoned and awaiting its settlement, or let go (void when the
 * producer was declared gone, which it may not be) before its deadline [C8]. One of an older epoch
 * holds nothing of the newer run. See `ConsumerCore.sendAttempt`.
 */
function readRunningUnder(f: Fetch, now: number): Read | undefined {
  const peer = f.peer;
  if (peer.ackWaiters.size === 0 && peer.runningUngranted === undefined) return undefined; // the usual case
  const blocks = (r: Read) => r.keyId === f.keyId && r.epoch === f.epoch && r.fetch !== f && now < r.deadline;
  for (const r of peer.ackWaiters) if (blocks(r)) return r;
  if (peer.runningUngranted !== undefined) for (const r of peer.runningUngranted.values()) if (blocks(r)) return r;
  return undefined;
}

/** A verified item held for requests. */
class Loaded {
  /** Discriminant in the key map (on the prototype). */
  declare readonly isLoaded: true;
  holders = 0;
  /** CRC-32C of the bytes once computed (at verification, or for a later announcement with a checksum); -1 before. */
  crc = -1;
  constructor(
    readonly keyId: string,
    /** Its key-map hash (`hashBytes` of the content hash). */
    readonly keyHash: number,
    readonly dest: ReadDestination,
    /** The item's size (its destination's length: the pool must allocate exactly that). */
    readonly sizeBytes: number,
  ) {}
}

/** Why a grant naming another descriptor than the announced one cannot be read (see `checkGrantedDescriptor`). */
class GrantProblem {
  constructor(
    readonly reason: FailureReasonName,
    readonly detail: string,
  ) {}
}

/**
 * `Peer.idleSince` of a producer with business (or none to let go). No clock reading the core
 * accepts is -Infinity (they are finite), whereas -1 is one: a clock may start below zero.
 */
const NOT_IDLE = Number.NEGATIVE_INFINITY;
/** `Peer.quietSince` of a producer not found quiet since its last business (-Infinity, as {@link NOT_IDLE}). */
const NOT_QUIET = Number.NEGATIVE_INFINITY;

/** What the consumer knows about one producer. */
class Peer implements Timed {
  /** Newest epoch heard from the producer itself (0: none) [P8]. */
  knownEpoch = 0;
  /** Greatest epoch our Hello was sent for (0: none since the last reset). */
  helloEpoch = 0;
  /**
   * Greatest epoch our Hello was sent for since its last refusal or a newer epoch (0: none). Unlike
   * `helloEpoch` it is kept when the peer is let go or declared gone: a refusal of that Hello arriving
   * afterwards still answers it (SPEC 4.2) [C10].
   */
  greetedEpoch = 0;
  /** Epoch whose Hello we applied (0: none since the last reset): another Hello of it is a duplicate. */
  heardHelloEpoch = 0;
  /** Greatest epoch connect-peer was emitted for (0: none since the last disconnect). */
  connectedEpoch = 0;
  metadata: Uint8Array | undefined = undefined;
  metadataEpoch = 0;
  /**
   * The transport metadata announcements carried, per epoch of the producer (the first of each, for
   * its {@link MAX_ANNOUNCED_EPOCHS} greatest epochs not older than `knownEpoch`): kept when the
   * producer is declared gone, unlike its Hello's (SPEC 4). Created on the first such announcement.
   */
  announced: Map<number, Uint8Array> | undefined = undefined;
  /** A greater epoch was seen and not greeted yet: no Heartbeat before its Hello [P8]. */
  awaitingHello = false;
  /** When the timer found it without business and without a connection ({@link NOT_QUIET}: not since the last business). */
  quietSince = NOT_QUIET;
  /** Last time any message arrived from it. */
  lastHeard = Number.NEGATIVE_INFINITY;
  /** Declared gone, and nothing heard from it since: a further declaration is the same outage (logged at info). */
  goneUnheard = false;
  /** When the current stretch of business began (silence is measured from here at the earliest). */
  businessSince = 0;
  /** When the timer found it without business, its connection held ({@link NOT_IDLE}: not idle, or no idle timer). */
  idleSince = NOT_IDLE;
  /** The heartbeat interval its Hello of the known epoch announced, ms (0: no Hello yet) [P8]. */
  intervalMs = 0;
  nextHeartbeatAt = 0;
  heartbeatSeq = 0;
  /** Fetches targeting it: a list in insertion order. */
  fHead: Fetch | undefined = undefined;
  fTail: Fetch | undefined = undefined;
  fetchCount = 0;
  /** Abandoned reads whose grant is ACKed when they settle. */
  readonly ackWaiters = new Set<Read>();
  /** Live grants by grant id, to recognise duplicates [C10]. */
  readonly grants = new IdTable<Read>("scattered"); // ids the producer chose
  /**
   * Reads still running whose grant was let go (void when the peer was declared gone, or ACKed at
   * quarantine), by grant id: a copy of such a grant is a duplicate too, never released under them [C10].
   */
  runningUngranted: Map<number, Read> | undefined = undefined;
  /** A HandshakeReject for an epoch: no reads to it in that epoch. */
  rejectedEpoch = 0;
  rejectedReason: FailureReasonName = "INTERNAL";
  // Its heartbeat / liveness timer [P8].
  tAt = 0;
  tSeq = 0;
  tLane = -1;
  tPos = 0;
  /** Its timer kind (on the prototype: one per class, no per-record field). */
  declare readonly tKind: number;
  constructor(readonly id: string) {}
}

type TimerRef = Slot | Fetch | Read | Peer;

// Per-class constants live on the prototypes, so records carry no field for them.
Object.defineProperty(Slot.prototype, "tKind", { value: T_BUDGET });
Object.defineProperty(Fetch.prototype, "tKind", { value: T_FETCH });
Object.defineProperty(Read.prototype, "tKind", { value: T_READ });
Object.defineProperty(Peer.prototype, "tKind", { value: T_PEER });
Object.defineProperty(Fetch.prototype, "isLoaded", { value: false });
Object.defineProperty(Loaded.prototype, "isLoaded", { value: true });

/** The fetches of a peer, oldest first (a snapshot: the list may change while it is walked). */
function peerFetches(peer: Peer): Fetch[] {
  const list: Fetch[] = [];
  for (let f = peer.fHead; f !== undefined; f = f.pNext) list.push(f);
  return list;
}

/** Result of classifying a new item in the first admission pass. */
const P_KEEP = 0;
const P_READY_LOCAL = 1;
const P_READY_LOADED = 2;
const P_LOCAL_ENCODE = 3;
const P_FAIL = 4;
const P_FETCH = 5;
/** A new item, classified once every known slot's budget has been enforced. */
const P_NEW = 6;
/**
 * The `path` label of `ectp_consumer_items_admitted_total` by plan kind (items of admitted requests
 * only: a failed request's are counted by reason in `ectp_consumer_item_failures_total`).
 */
const ADMITTED_PATH: readonly (Labels | undefined)[] = [
  undefined, // P_KEEP: admitted before
  Object.freeze({ path: "local" }), // the engine holds the encoding
  Object.freeze({ path: "loaded" }), // bytes this consumer loaded and holds
  Object.freeze({ path: "local_encode" }),
  undefined, // P_FAIL: the request failed
  Object.freeze({ path: "remote" }), // waits for a fetch (started or joined)
];

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/** uint64 fields may decode as numbers or Long-like objects; anything else is NaN. */
function toNum(v: unknown): number {
  if (typeof v === "number") return v;
  if (v !== null && typeof v === "object") {
    const o = v as { low?: unknown; high?: unknown };
    if (typeof o.low === "number" && typeof o.high === "number") return (o.high >>> 0) * 4294967296 + (o.low >>> 0);
    return Number.NaN;
  }
  if (typeof v === "bigint") return Number(v);
  return Number.NaN;
}

function isPositiveId(v: number): boolean {
  return Number.isSafeInteger(v) && v > 0;
}

/**
 * Where an item's failure or fallback came from, for its warning [C5]: the item key and producer
 * when its announcement was valid, and what the producer, the transport or the check said.
 */
type FailureSource = {
  readonly itemKey?: string;
  readonly producer?: string;
  readonly detail?: string;
  /** [C3] Of a budget that ran out: what its fetch was waiting for then. */
  readonly waitingFor?: "retry" | "grant" | "read";
  /** [C3] Of a budget that ran out before a grant: why the fetch's last attempt ended without the item, once one did. */
  readonly lastRetryReason?: FailureReasonName;
};

/**
 * [C3] What an item whose budget ran out waited for: its key, its producer, whether its fetch was
 * waiting for a retry, a grant or a read and, before a grant, why its last attempt ended (a
 * producer that died shows as PEER_UNREACHABLE there, one that never answered as GRANT_TIMEOUT).
 */
function waitedFor(f: Fetch): FailureSource {
  const base = { itemKey: f.keyId, producer: f.peer.id };
  if (f.state === READING) return { ...base, waitingFor: "read" };
  const waitingFor = f.state === REQUESTING || f.grantCameLate ? "grant" : "retry";
  return f.retryReason === undefined ? { ...base, waitingFor } : { ...base, waitingFor, lastRetryReason: f.retryReason };
}

/**
 * [C5] The item key id and producer id of a descriptor that failed validation, where they can be
 * read (a key of a valid form; a producer id of 1 to 256 characters), so that the warning of its
 * item names the producer whose announcement was wrong. Never throws.
 */
function readableSource(item: ectp.v1.IItemDescriptor | null | undefined): { itemKey?: string; producer?: string } {
  const source: { itemKey?: string; producer?: string } = {};
  try {
    const itemKey = tryItemKeyId(item?.key);
    if (itemKey !== undefined) source.itemKey = itemKey;
    const producer: unknown = item?.producerId;
    if (typeof producer === "string" && producer.length > 0 && producer.length <= 256) source.producer = producer;
  } catch {
    // (a getter or Proxy that throws: nothing more is read)
  }
  return source;
}

/**
 * [C2] When `announcement` is no announcement but the result of reading one (`announcementFromJson`'s
 * `{ ok, value }` or `{ ok, error }`, a Validation), what to pass instead; otherwise undefined.
 * Asked only of an announcement already refused (its version is not major 1). Never throws.
 */
function validationResultDetail(announcement: object): string | undefined {
  const r = announcement as { ok?: unknown; value?: unknown; error?: unknown; version?: unknown };
  if (typeof r.ok !== "boolean" || r.version !== undefined) return undefined;
  if (r.ok && "value" in r) return "the announcement is a Validation result ({ ok: true, value }, as announcementFromJson returns): pass its .value";
  if (!r.ok && "error" in r)
    return `the announcement is a refused Validation result ({ ok: false, error }, as announcementFromJson returns): ${ownText(thrownMessage(r.error), 200)}`;
  return undefined;
}

function invalidArgument(message: string, cause?: unknown): EctpError {
  return new EctpError("INVALID_ARGUMENT", message, { cause });
}

/** The methods a {@link DestinationPool} must have. */
const POOL_METHODS = ["allocate", "release", "view"] as const satisfies readonly (keyof DestinationPool)[];

/** `planFlags` bits: the item carries model input [C1]; the engine already holds it locally. */
const F_MODEL = 1;
const F_LOCAL = 2;

/** The keys of {@link ConsumerOptions}: any other key of the options is refused (a misspelt option would otherwise be ignored). */
const OPTION_KEYS: readonly string[] = Object.keys({
  id: true,
  epoch: true,
  fingerprint: true,
  destinations: true,
  transportMetadata: true,
  config: true,
  seed: true,
  metrics: true,
  peerLabels: true,
  logger: true,
} satisfies Record<keyof ConsumerOptions, true>);

/** [C2][C3][C4][C8][C11][P8] Refuses a merged configuration whose timers or limits are unusable, naming the first. */
function validateConfig(c: ConsumerConfig): void {
  const durations: (keyof ConsumerConfig)[] = [
    "waitBudgetMs",
    "grantWaitMs",
    "transferTimeoutMs",
    "quarantineCapMs",
    "backoffInitialMs",
    "backoffMaxMs",
    "leaseSafetyMarginMs",
    "leaseMs",
    "heartbeatIntervalMs",
    "idlePeerMs",
  ];
  // [C11] Every duration is a positive integer; [C8] the quarantine cap may also be Infinity (disabled).
  for (const name of durations) {
    const v = c[name];
    if (name === "quarantineCapMs" && v === Number.POSITIVE_INFINITY) continue;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v <= 0)
      throw new EctpError(
        "INVALID_CONFIG",
        `config.${name} must be a positive integer number of milliseconds${name === "quarantineCapMs" ? " (or Infinity: no cap)" : ""}; got ${describeValue(v)}. Omit it to use the default ${DEFAULT_CONSUMER_CONFIG[name]}.`,
        { details: { [name]: v } },
      );
  }
  // [P8] It travels in every Hello as a uint32 (a larger value could not be encoded: no Hello would go out).
  if (c.heartbeatIntervalMs > 0xffffffff)
    throw new EctpError(
      "INVALID_CONFIG",
      `config.heartbeatIntervalMs must fit in 32 bits (<= 4294967295 ms): it travels in every Hello as a uint32; got ${c.heartbeatIntervalMs}.`,
      { details: { heartbeatIntervalMs: c.heartbeatIntervalMs } },
    );
  if (c.backoffInitialMs > c.backoffMaxMs)
    throw new EctpError(
      "INVALID_CONFIG",
      `config.backoffInitialMs (${c.backoffInitialMs}) must be <= backoffMaxMs (${c.backoffMaxMs}) [C11]; lower backoffInitialMs or raise backoffMaxMs.`,
      { details: { backoffInitialMs: c.backoffInitialMs, backoffMaxMs: c.backoffMaxMs } },
    );
  if (!Number.isSafeInteger(c.heartbeatMisses) || c.heartbeatMisses < 1)
    throw new EctpError(
      "INVALID_CONFIG",
      `config.heartbeatMisses must be a positive integer; got ${describeValue(c.heartbeatMisses)}. Omit it to use the default 3.`,
    );
  if (!Number.isSafeInteger(c.maxItemBytes) || c.maxItemBytes < 1)
    throw new EctpError(
      "INVALID_CONFIG",
      `config.maxItemBytes must be a positive integer; got ${describeValue(c.maxItemBytes)}. Omit it to use the default ${DEFAULT_CONSUMER_CONFIG.maxItemBytes}.`,
    );
  // [C11] A read must be able to finish before the producer may reuse the memory.
  if (c.transferTimeoutMs > c.leaseMs - c.leaseSafetyMarginMs)
    throw new EctpError(
      "INVALID_CONFIG",
      `config.transferTimeoutMs (${c.transferTimeoutMs}) must be <= leaseMs - leaseSafetyMarginMs (${c.leaseMs} - ${c.leaseSafetyMarginMs} = ${c.leaseMs - c.leaseSafetyMarginMs}) so a read ends before the producer may reuse the memory [C11]; lower transferTimeoutMs or raise leaseMs.`,
      {
        details: {
          transferTimeoutMs: c.transferTimeoutMs,
          leaseMs: c.leaseMs,
          leaseSafetyMarginMs: c.leaseSafetyMarginMs,
        },
      },
    );
}

// ---------------------------------------------------------------------------------------
// ConsumerCore
// ---------------------------------------------------------------------------------------

/**
 * The consumer (PD side) of ECTP as a sans-IO state machine.
 *
 * The engine calls {@link ConsumerCore.admit} for each request on every scheduling step
 * until every item is ready or local-encode, then {@link ConsumerCore.finishRequest} when
 * the request ends (failed ones included). A driver feeds peer messages, read results and
 * unreachable peers in, and executes what {@link ConsumerCore.poll} returns. Nothing a peer
 * sends makes any method throw [I1]; only engine programming errors throw:
 * `EctpError(INVALID_ARGUMENT)` for a bad argument, and `EctpError(REENTRANT_CALL)` for a call
 * made from inside one of this core's own calls (its metrics or logger hook, its destination pool).
 *
 * Single flight [C9]: one fetch per item key, whichever request and producer asked first;
 * later requests for the key join it, each with its own budget [C3].
 */
export class ConsumerCore {
  /** This consumer's peer id. */
  readonly id: string;
  /** This consumer's epoch [P8]. */
  readonly epoch: number;
  /** The effective configuration (defaults filled in). */
  readonly config: Readonly<ConsumerConfig>;

  private readonly fingerprint: NormalizedFingerprint;
  private readonly pool: DestinationPool;
  private readonly transportMetadata: Uint8Array;
  /** Calls into the metrics and logger hooks that threw (contained). */
  private hookFailures = 0;
  /** Hook calls in progress: the state-changing methods refuse calls from inside a hook (not re-entrant). */
  private readonly gate = new HookGate();
  private readonly metrics: MetricsSink;
  /** The producer, added to the labels of samples about one when `options.peerLabels` is on. */
  private readonly byProducer: PeerLabels;
  private readonly logger: Logger;
  private readonly random: SeededRandom;
  private readonly limits: { maxItemBytes: number; fingerprint: ectp.v1.IFingerprint };

  /** Unfinished requests by id, in admission order (see {@link OrderedTable}). */
  private readonly requests = new OrderedTable<Req>();
  /**
   * The request admit found or made last, while it is in `requests`: an engine re-admits a
   * request in step after step, and its id is then not hashed or looked up again.
   */
  private lastReq: Req | undefined = undefined;
  /** Per item key: its single-flight fetch [C9] or its loaded copy (never both). */
  private readonly keys = new StringTable<Fetch | Loaded>();
  private readonly attempts = new IdTable<Fetch>("sequential"); // ids from nextAttemptId
  private readonly reads = new IdTable<Read>("sequential"); // ids from nextReadId
  private readonly peers = new Map<string, Peer>();
  /** The peer looked up last (most traffic is with one producer). */
  private lastPeer: Peer | undefined = undefined;
  /** Peer count at which `getPeer` next forgets idle peers. */
  private peerSweepAt = MIN_PEER_SWEEP;
  private readonly timers = new TimerQueue<TimerRef>(LANE_COUNT);
  /** Outputs queued for the next poll. */
  private readonly out = new OutputQueue();
  private failed: FailedRequest[] = [];
  /** Failures of fetches ended by one event, gathered per request while `endTogether` runs [C6]. */
  private together: Map<Req, ItemFailure[]> | undefined = undefined;

  /** The last attempt's id; attempts count up in this epoch's window ({@link idBeforeEpoch}). */
  private nextAttemptId: number;
  private nextReadId = 0;
  /** The latest clock reading accepted (none yet: -Infinity, so any first reading stands, negative ones too). */
  private lastNow = Number.NEGATIVE_INFINITY;
  private budgetCount = 0;
  private fetchCount = 0;
  private loadedCount = 0;
  private quarantinedCount = 0;
  /**
   * [C8] Reads whose destination the quarantine cap released, by read id (the latest
   * {@link RELEASED_AT_CAP_KEPT}): a result of one of them came after its memory went back to the
   * engine's pool, and may have written into memory reused since, so it is warned of, not only counted.
   */
  private readonly releasedAtCap = new Map<number, { itemKey: string; producer: string; releasedAt: number }>();
  private grantsHeldCount = 0;
  private destinationCount = 0;
  private ignoredCount = 0;
  /** Logs the first message ignored for a `from` other than its sender. */
  private readonly senderMismatch = new SenderMismatchWarning();
  /** Whether a grant's lease at most `leaseSafetyMarginMs` was logged (once per core) [C11]. */
  private shortLeaseWarned = false;
  /** Requests, grants held and quarantined reads last set on the gauges (-1: never set). */
  private gaugedRequests = -1;
  private gaugedGrantsHeld = -1;
  private gaugedQuarantined = -1;

  private readonly labelCache = new Map<string, Labels>();
  private readonly localReadyDecisions = new Map<string, ItemDecision>();

  // Scratch space of admit's first pass (reused across calls).
  /**
   * Each item's id and flags (F_MODEL, F_LOCAL), read from the engine's objects once, before
   * anything changes: a getter that throws, or answers differently when read again, cannot
   * leave a request half-admitted [I1]. Unlike the other plan arrays, `clearPlan` leaves the ids
   * (strings the requests' slots hold anyway while admitted): at most the largest request's ids
   * outlive it, until a later admission overwrites them (or lets the arrays go: {@link PLAN_KEPT_ITEMS}).
   */
  private planItemId: string[] = [];
  /**
   * For a request of more than {@link PAIRWISE_MAX_ITEMS} items: its item ids (duplicate check), and
   * per key id the first new item of this call that will fetch it (size check [C11]); both empty between calls.
   * Smaller requests compare pairwise, which is cheaper for them; these keep the big ones linear.
   */
  private readonly planSeenIds = new Set<string>();
  private readonly planFirstFetch = new Map<string, number>();
  /** Whether the request being classified uses `planFirstFetch` (more than {@link PAIRWISE_MAX_ITEMS} items). */
  private planIsBig = false;
  /** The epoch the first new item of this call to fetch names (0: none yet), and whether another such item names another. */
  private planFetchEpoch = 0;
  private planEpochsDiffer = false;
  /**
   * Set by {@link ConsumerCore.outdatedWithinAdmission} only: per item of an older epoch that may start its
   * key's fetch (the first of the key in item order), the item whose greater epoch the fetch is started with.
   */
  private planStartWith: Map<number, number> | undefined;
  private planFlags: number[] = [];
  private planKind: number[] = [];
  private planReason: (FailureReasonName | undefined)[] = [];
  private planDesc: (ValidDescriptor | undefined)[] = [];
  /** What the key map held for the item's key at classification (a fetch to join, or the loaded copy). */
  private planRec: (Fetch | Loaded | undefined)[] = [];
  /** The key-map hash of the item's key (`hashBytes` of its content hash; valid for P_READY_LOADED and P_FETCH). */
  private planHash: number[] = [];
  private planMeta: (Uint8Array | undefined)[] = [];
  /** The item's announcement as presented, and the key id of it when valid (kept on its slot: see `checkSameItems`). */
  private planAnnouncement: unknown[] = [];
  private planKeyId: (string | undefined)[] = [];
  /** Admit's decisions before they are copied into the result (cleared after each call). */
  private planDecisions: (ItemDecision | undefined)[] = [];
  private scratchMeta: Uint8Array | undefined;
  private scratchChecksum = -1;
  /** What the last `verify` computed: the bytes' CRC-32C, or -1 when none was needed. */
  private verifiedCrc = -1;
  /** Why the last `verify` refused a read, for the failure's log record ("" when it did not). */
  private verifyDetail = "";
  /**
   * Where a remote failure came from, for the "request failed" warning: the item key, the producer
   * and what the producer or transport said (kept off the engine's ItemFailure objects).
   */
  private readonly failureSource = new WeakMap<ItemFailure, FailureSource>();
  /**
   * Per new item of the admit call in progress, where an admission-time fallback or failure came
   * from (set only on those paths; cleared with the plan): logged with it [C5].
   */
  private planSource: (FailureSource | undefined)[] = [];
  /** Why the last `validateAnnouncement` refused its announcement ("" when it did not). */
  private invalidDetail = "";
  /** [C2][C5] Of an invalid announcement: its item key id and producer id, where they could be read (for the log record). */
  private invalidSource: { readonly itemKey?: string; readonly producer?: string } = NO_SOURCE;
  private scratchLocation: Uint8Array = EMPTY_BYTES;

  /**
   * @param options - identity, fingerprint, destination pool and optional timers, seed and hooks.
   * @throws EctpError(INVALID_CONFIG) when the id, epoch, fingerprint, pool, seed, a hook or a timer is
   *   unusable (durations are positive whole milliseconds, except `quarantineCapMs`, which may also
   *   be `Infinity` for no cap; `transferTimeoutMs <= leaseMs - leaseSafetyMarginMs` [C11]); when
   *   the fingerprint is not a plain object or has a key other than `model`, `dtype`, `rowBytes`
   *   and `layoutVersion` [C2]; when the options (or their `config`) have a key that is not an
   *   option, naming it and the nearest option; or when an option cannot be read (a getter or a
   *   Proxy trap that throws), naming it.
   */
  constructor(options: ConsumerOptions) {
    if (options === null || typeof options !== "object")
      throw new EctpError("INVALID_CONFIG", "ConsumerCore needs an options object with id, epoch, fingerprint and destinations.");
    // First: a misspelt option (`confg`, `fingerPrint`) is named as such, not ignored (its default
    // used) nor reported as a required option missing.
    refuseUnknownOptions("ConsumerCore", options, OPTION_KEYS, "INVALID_CONFIG", (key) => configSettingHint(key, DEFAULT_CONSUMER_CONFIG));
    // Each option read once, here: a getter or Proxy trap that throws is refused naming it [I1].
    options = readOptions("ConsumerCore", options, OPTION_KEYS);
    if (typeof options.id !== "string" || options.id.length === 0)
      throw new EctpError("INVALID_CONFIG", "options.id must be a non-empty string: the consumer's stable peer id.");
    if (!Number.isSafeInteger(options.epoch) || options.epoch < 1)
      throw new EctpError(
        "INVALID_CONFIG",
        `options.epoch must be a positive integer, greater on every restart than on the one before [P8]; got ${describeValue(options.epoch)}.`,
      );
    // [C2] Required, though the wire reads an absent fingerprint as all-default: omitted (or misspelt)
    // here, every announcement of a real model would fail the fingerprint check (INVALID_ANNOUNCEMENT).
    if (options.fingerprint === undefined || options.fingerprint === null)
      throw new EctpError(
        "INVALID_CONFIG",
        "options.fingerprint is required: the model fingerprint (model, dtype, rowBytes, layoutVersion) this consumer accepts items of (announcements of another are refused).",
      );
    const fp = fingerprintOption(options.fingerprint); // [C2] a misspelt field would refuse every announcement of the real model
    requireMethods("options.destinations", options.destinations, POOL_METHODS, "a DestinationPool { allocate, release, view }");
    // [C4] The jitter source keeps 32 bits of an integer seed; anything else would be coerced (NaN, "7"
    // and {} all to seed 0) or throw a TypeError (a bigint, a symbol).
    if (options.seed !== undefined && !Number.isSafeInteger(options.seed))
      throw new EctpError("INVALID_CONFIG", `options.seed must be an integer (the jitter seed [C4]); got ${describeValue(options.seed)}.`);
    const config = mergeConfig(DEFAULT_CONSUMER_CONFIG, options.config);
    validateConfig(config);
    this.config = Object.freeze(config);
    this.id = options.id;
    this.epoch = options.epoch;
    this.nextAttemptId = idBeforeEpoch(options.epoch); // [C10] a late reply to a run before a restart answers no attempt of this one
    this.fingerprint = {
      model: fp.model,
      dtype: fp.dtype,
      rowBytes: fp.rowBytes,
      layoutVersion: fp.layoutVersion,
    };
    this.pool = options.destinations;
    this.transportMetadata = transportMetadataOption(options.transportMetadata);
    // [I1] Hooks are the engine's code: what they throw is contained and counted (stats().hookFailures).
    const hookThrew = (): void => {
      this.hookFailures++;
    };
    this.metrics = containMetrics(options.metrics, hookThrew, this.gate, (fields) => this.logger.error(METRICS_HOOK_THREW, fields));
    this.byProducer = new PeerLabels(peerLabelsOption(options.peerLabels, "producer"));
    this.logger = containLogger(options.logger, hookThrew, this.gate);
    // [C3][C4] A lost ReadRequest or answer is found only when grantWaitMs runs out: at or past the
    // budget, one lost message costs the item its whole budget. Allowed (the budget still bounds the
    // wait), but said once.
    if (config.grantWaitMs >= config.waitBudgetMs)
      this.logger.warn(
        "config.grantWaitMs is not shorter than waitBudgetMs: one lost ReadRequest, grant or reject costs a waiting item its whole budget (local encode, or the request fails BUDGET_EXHAUSTED); keep grantWaitMs a small fraction of waitBudgetMs",
        { grantWaitMs: config.grantWaitMs, waitBudgetMs: config.waitBudgetMs },
      );
    // [C4] Without a seed, one derived from the identity: consumers of a fleet (and successive runs
    // of one) spread their retries instead of retrying in lockstep, and the same options still give
    // the same schedule, in every process (hashString is seeded per process: never used here).
    this.random = new SeededRandom(options.seed ?? identitySeed(options.id, options.epoch));
    this.limits = { maxItemBytes: config.maxItemBytes, fingerprint: this.fingerprint };
  }

  // -------------------------------------------------------------------------------------
  // Engine API
  // -------------------------------------------------------------------------------------

  /**
   * Admit (or re-admit) a request and decide each item [C1]: ready, defer (call again on
   * a later step) or local-encode; or fail the request [C6]. Decisions are sticky, except
   * that an item presented with `local: true` is ready whatever it was told before [C1]. The
   * first deferral of an item starts its (request, item) budget [C3]. Never throws for
   * anything inside announcements [C2][I1]. The result is read-only and not frozen: while no
   * decision changed and the same item ids come in the same order, the previous result object is
   * returned again (re-admitting a waiting request with the same announcement objects allocates
   * nothing; other objects are validated again), so an engine that sorts or
   * changes it in place changes later results too: copy it first. A `now` that is not a
   * finite number throws nothing either: it is logged at error level and the latest good reading
   * is used [I1], as in every method that takes `now`.
   * @throws EctpError(INVALID_ARGUMENT) for engine programming errors only: an empty
   *   request id, `items` not an array, an item without a non-empty string `itemId`, `hasModelInput`
   *   or `local` given but not a boolean, duplicate item ids, or a request admitted before naming an
   *   item its first admission did not, or announcing another item key for one (SPEC.md 3.4). EctpError(REENTRANT_CALL) when
   *   called from inside one of this core's hooks or its destination pool (as every state-changing method).
   */
  admit(request: AdmitRequest, now: number): AdmitResult {
    if (this.gate.busy) throw reentrantCall("ConsumerCore", "admit");
    if (request === null || typeof request !== "object")
      throw invalidArgument("admit needs a request object { requestId, items }.");
    let requestId: unknown;
    let items: unknown;
    try {
      requestId = request.requestId;
      items = request.items;
    } catch (cause) {
      throw invalidArgument(`admit: the request's requestId or items could not be read (${thrownText(cause)}).`, cause);
    }
    if (typeof requestId !== "string" || requestId.length === 0)
      throw invalidArgument("admit: requestId must be a non-empty string (the engine's request id).");
    if (!Array.isArray(items)) throw invalidArgument(`admit(${requestId}): items must be an array of AdmitItem.`);
    let n: number;
    try {
      n = items.length; // [I1] (a Proxy's length may throw)
    } catch (cause) {
      throw invalidArgument(`admit(${requestId}): items.length could not be read (${thrownText(cause)}).`, cause);
    }
    this.readItems(requestId, items, n);
    const req = this.requestNamed(requestId);
    if (req.failure) {
      this.acceptNow(now);
      return req.failure; // [C6] same failure, not queued again
    }
    // SPEC.md 3.4: a request admitted before presents the items it was first admitted with. Checked
    // before the clock reading is taken, so that a refused call changes nothing.
    if (req.slotCount !== 0) this.checkSameItems(req, items as readonly AdmitItem[], n);
    now = this.acceptNow(now);

    // Pass 1: classify without starting anything, so a failing request starts no fetch.
    const ids = this.planItemId;
    const flags = this.planFlags;
    const kinds = this.planKind;
    const count = req.slotCount;
    // Whether every item is a known slot at its own index (then the last result may still be valid).
    let same = n === count;
    // [C3] A waiting slot's budget timer is pending at exactly its budget deadline until the
    // slot is resolved, so while no timer at all is due no budget has run out, and the
    // per-slot deadline (a boxed double: one more cache miss per re-admit) is not read.
    // Asked once per call, and only when some item is still waiting (-1: not asked yet).
    let timerDue = -1;
    // Known slots whose budget ran out without model input, by index (the request fails).
    let exhausted: Slot[] | undefined;
    for (let i = 0; i < n; i++) {
      const slot = this.findSlot(req, ids[i] as string, i);
      const model = ((flags[i] as number) & F_MODEL) !== 0;
      if (slot !== undefined) {
        if (slot !== slotAt(req, i)) same = false;
        slot.hasModelInput = model;
        kinds[i] = P_KEEP;
        if (((flags[i] as number) & F_LOCAL) !== 0 && (slot.decision === undefined || slot.decision.action === "local-encode")) {
          // [C1] "Already local" comes first on every admission: an item the engine now holds is
          // ready, whether it was waiting (its wait ends) or was sent to local encode before.
          this.detach(slot, now);
          slot.decision = this.localReady(slot.itemId);
          req.view = undefined;
          continue;
        }
        if (slot.decision === undefined && slot.fetch !== undefined) {
          if (timerDue === -1) {
            const dueAt = this.timers.peekAt();
            timerDue = dueAt !== undefined && now >= dueAt ? 1 : 0;
          }
          if (timerDue === 1 && now >= slot.budgetAt) {
            // [C3] Budget enforced at admission too.
            if (model) this.resolveLocal(slot, "BUDGET_EXHAUSTED", now);
            else {
              exhausted ??= [];
              exhausted[i] = slot;
            }
          }
        }
        continue;
      }
      same = false;
      kinds[i] = P_NEW;
    }
    // New items are classified now, after the known slots. Only a request's first admission has new
    // items, and it has no known slots (`checkSameItems` refuses new items later), so the two never
    // meet in one call: no known slot resolved above can have ended a fetch a new item would join.
    const failures = !same || exhausted !== undefined ? this.planFailures(items as readonly AdmitItem[], n, exhausted) : undefined;
    if (failures !== undefined) {
      if (!same) this.clearPlan(n);
      return this.failRequest(req, failures, now) as AdmitResult;
    }
    if (same && req.view !== undefined) return req.view; // nothing changed since the last call
    return this.decide(req, n, same, now); // pass 2: apply
  }

  /**
   * Release everything a request holds [C7]: budgets, waits (a fetch nobody waits for is
   * abandoned), and loaded items (freed with their last holder). Call it for every
   * request admitted, failed ones included: a failed request keeps the verified bytes of its
   * ready items until then [C6], and its id stays failed until then. Unknown ids are ignored.
   * @throws EctpError INVALID_ARGUMENT when `requestId` is not a non-empty string: an engine
   *   mistake (no request could have been admitted under it, so the request meant is never released).
   */
  finishRequest(requestId: string, now: number): void {
    if (this.gate.busy) throw reentrantCall("ConsumerCore", "finishRequest");
    if (typeof requestId !== "string" || requestId === "")
      throw invalidArgument(`finishRequest: requestId must be the non-empty string id the request was admitted with; got ${describeValue(requestId)}.`);
    const req = this.requests.get(requestId);
    if (req === undefined) return;
    now = this.acceptNow(now);
    this.requests.deleteHashed(requestId, req.hash);
    if (this.lastReq === req) this.lastReq = undefined;
    try {
      this.releaseRequest(req, now);
    } catch (cause) {
      this.guardFailed("finishRequest", cause);
    }
  }

  /** Failed requests since the previous call, each reported exactly once [C6]. */
  drainFailed(): FailedRequest[] {
    if (this.gate.busy) throw reentrantCall("ConsumerCore", "drainFailed");
    if (this.failed.length === 0) return [];
    const drained = this.failed;
    this.failed = [];
    return drained;
  }

  // -------------------------------------------------------------------------------------
  // Peer and transport input
  // -------------------------------------------------------------------------------------

  /**
   * Handle an encoded envelope from a peer. Never throws for the bytes: malformed or other-version
   * ones are ignored and counted [C10][V1][I1]. Throws `EctpError(REENTRANT_CALL)` only when called
   * from inside one of this core's own calls (a hook or the destination pool).
   */
  handleMessage(from: string, bytes: Uint8Array, now: number): void {
    if (this.gate.busy) throw reentrantCall("ConsumerCore", "handleMessage");
    now = this.acceptNow(now);
    let decoded: ReturnType<typeof decodeEnvelope>;
    try {
      decoded = decodeEnvelope(bytes);
    } catch {
      this.ignore("malformed");
      return;
    }
    if (decoded.ok) {
      this.handleEnvelope(from, decoded.value, now);
      return;
    }
    // [V1] A producer of another major version refusing our Hello still ends our reads to it.
    const env = decoded.envelope;
    if (decoded.error.code === "VERSION" && env?.handshakeReject && env.senderId === from) {
      this.guard("handleMessage", () => {
        const peer = this.peers.get(from);
        // The frozen sender_epoch names the rejecting epoch (knownEpoch is 0 if nothing of our version was ever heard from it).
        const epoch = toNum(env.senderEpoch);
        // [P8][C10] A refusal from an older epoch than the one known is stale, as any message of it,
        // and one that answers no Hello of ours (no fetch either) is unsolicited.
        if (peer !== undefined && (!isPositiveId(epoch) || epoch >= peer.knownEpoch) && solicited(peer))
          this.onHandshakeReject(peer, "VERSION", isPositiveId(epoch) ? epoch : peer.knownEpoch, now, peerDetail(env.handshakeReject?.detail));
      });
      this.ignore("version");
      return;
    }
    this.ignore(decoded.error.code === "VERSION" ? "version" : "malformed");
  }

  /**
   * Handle a decoded envelope from a peer (the driver routes grants, rejects, handshake
   * messages and heartbeats here). Never throws for anything in the envelope: anything
   * unexpected is ignored and counted [C10][I1]. Throws `EctpError(REENTRANT_CALL)` only when
   * called from inside one of this core's own calls (a hook or the destination pool).
   */
  handleEnvelope(from: string, envelope: ectp.v1.IEnvelope, now: number): void {
    if (this.gate.busy) throw reentrantCall("ConsumerCore", "handleEnvelope");
    now = this.acceptNow(now);
    try {
      this.onEnvelope(from, envelope, now);
    } catch (cause) {
      this.logger.error("consumer failed to handle an envelope; ignored", { from, error: thrownText(cause) });
      this.ignore("internal_error");
    }
  }

  /**
   * Handle a settled read [C8][C11]. Unknown or late read ids are ignored and counted [C10]; so
   * is a result whose status is not `done`, `failed` or `cancelled` (`malformed_read_result`,
   * logged at error), which settles nothing: the read keeps its destination [I5].
   */
  handleReadResult(result: ReadResult, now: number): void {
    if (this.gate.busy) throw reentrantCall("ConsumerCore", "handleReadResult");
    now = this.acceptNow(now);
    try {
      this.onReadResult(result, now);
    } catch (cause) {
      this.logger.error("consumer failed to handle a read result; ignored", { error: thrownText(cause) });
      this.ignore("internal_error");
    }
  }

  /**
   * The transport found a peer unreachable [P8]: like a peer silent past its heartbeats.
   * Pre-grant fetches retry (PEER_UNREACHABLE is retryable before a grant), reads from it
   * fail terminally, and it is forgotten until the next need (a new Hello).
   */
  handlePeerUnreachable(peerId: string, now: number): void {
    if (this.gate.busy) throw reentrantCall("ConsumerCore", "handlePeerUnreachable");
    now = this.acceptNow(now);
    const peer = this.peers.get(peerId);
    if (peer === undefined) return;
    this.guard("handlePeerUnreachable", () => this.peerGone(peer, "unreachable", now));
  }

  /** Run due timers and return the queued outputs, in order. Touches only due timers. */
  poll(now: number): CoreOutput[] {
    if (this.gate.busy) throw reentrantCall("ConsumerCore", "poll");
    now = this.acceptNow(now);
    // Most polls find no timer due: they gather no event (an idle poll cost ~135 ns with it, ~30 without).
    const dueAt = this.timers.peekAt();
    if (dueAt !== undefined && dueAt <= now)
      try {
        // [C6] One drive is one event: items of a request ended by several timers at this poll are reported together.
        this.endTogether(now, () => this.runTimers(now));
      } catch (cause) {
        this.guardFailed("poll", cause);
      }
    if (this.requests.size !== this.gaugedRequests || this.grantsHeldCount !== this.gaugedGrantsHeld || this.quarantinedCount !== this.gaugedQuarantined)
      this.setGauges();
    return this.out.take();
  }

  /**
   * When {@link ConsumerCore.poll} should next be called: the earliest timer, or the
   * latest `now` seen when outputs are already queued; `undefined` when idle.
   */
  nextDeadline(): number | undefined {
    const at = this.timers.peekAt();
    if (this.out.size > 0) return at === undefined ? this.lastNow : Math.min(at, this.lastNow);
    return at;
  }

  /** Table sizes, for dashboards and the no-leak invariant [I4]. */
  stats(): ConsumerStats {
    return {
      requests: this.requests.size,
      budgets: this.budgetCount,
      fetches: this.fetchCount,
      readsInFlight: this.reads.size,
      quarantined: this.quarantinedCount,
      grantsHeld: this.grantsHeldCount,
      loadedItems: this.loadedCount,
      destinations: this.destinationCount,
      undrainedFailures: this.failed.length,
      ignoredMessages: this.ignoredCount,
      hookFailures: this.hookFailures,
    };
  }

  // -------------------------------------------------------------------------------------
  // Admission internals
  // -------------------------------------------------------------------------------------

  /**
   * Read and check the engine's items, once each (a getter or Proxy is read once), into the plan:
   * each item's id in `planItemId`, its `hasModelInput` and `local` in `planFlags`.
   * @throws EctpError(INVALID_ARGUMENT) for an item that is not an object with a non-empty string
   *   `itemId`, flags given but not booleans, an item that cannot be read, or duplicate item ids.
   */
  private readItems(requestId: string, items: readonly unknown[], n: number): void {
    if (this.planFlags.length > PLAN_KEPT_ITEMS && n <= PLAN_KEPT_ITEMS) this.dropPlanArrays(); // [I4]
    const ids = this.planItemId;
    const flags = this.planFlags;
    for (let i = 0; i < n; i++) {
      let item: unknown;
      let itemId: unknown;
      let model: unknown;
      let local: unknown;
      try {
        item = items[i];
        if (item !== null && typeof item === "object") {
          const it = item as AdmitItem;
          itemId = it.itemId;
          model = it.hasModelInput;
          local = it.local;
        }
      } catch (cause) {
        throw invalidArgument(`admit(${requestId}): items[${i}] could not be read (${thrownText(cause)}).`, cause);
      }
      if (item === null || typeof item !== "object" || typeof itemId !== "string")
        throw invalidArgument(`admit(${requestId}): items[${i}] must be an object with a string itemId.`);
      // As an empty request id: an empty item id is a missing one (an unset field), never the engine's name for an item.
      if (itemId.length === 0) throw invalidArgument(`admit(${requestId}): items[${i}].itemId must be a non-empty string (the engine's id for the item).`);
      // [C1][C5] Read as given, never coerced: a 1 or "true" taken as false would fail the request
      // (no model input) where the engine meant local encoding. Absent means false.
      if ((model !== undefined && typeof model !== "boolean") || (local !== undefined && typeof local !== "boolean"))
        throw invalidArgument(
          `admit(${requestId}): items[${i}] (${itemId}): hasModelInput and local must be booleans when given; got hasModelInput ${describeValue(model)}, local ${describeValue(local)}.`,
        );
      flags[i] = (model === true ? F_MODEL : 0) | (local === true ? F_LOCAL : 0);
      if (n <= PAIRWISE_MAX_ITEMS)
        for (let j = 0; j < i; j++) if (ids[j] === itemId) throw duplicateItem(requestId, itemId);
      ids[i] = itemId;
    }
    if (n > PAIRWISE_MAX_ITEMS) {
      const seen = this.planSeenIds;
      let duplicate: string | undefined;
      for (let i = 0; i < n && duplicate === undefined; i++) {
        const itemId = ids[i] as string;
        if (seen.has(itemId)) duplicate = itemId;
        else seen.add(itemId);
      }
      seen.clear(); // (holds no engine strings past the call)
      if (duplicate !== undefined) throw duplicateItem(requestId, duplicate);
    }
  }

  /** The unfinished request named `requestId`, made (and kept) on its first admission. */
  private requestNamed(requestId: string): Req {
    let req = this.lastReq;
    if (req === undefined || req.id !== requestId) {
      const hash = hashString(requestId);
      req = this.requests.getHashed(requestId, hash);
      if (req === undefined) {
        req = new Req(requestId, hash);
        this.requests.setHashed(requestId, hash, req);
      }
      this.lastReq = req;
    }
    return req;
  }

  /**
   * Pass 1's second half: classify the new items (there are some only on a request's first
   * admission) and collect the request's failures, in item order: new items that cannot be served,
   * and known slots whose budget ran out without model input (`exhausted`, by index). Undefined when
   * nothing fails.
   */
  private planFailures(items: readonly AdmitItem[], n: number, exhausted: Slot[] | undefined): ItemFailure[] | undefined {
    const kinds = this.planKind;
    const flags = this.planFlags;
    let failures: ItemFailure[] | undefined;
    this.planIsBig = n > PAIRWISE_MAX_ITEMS;
    this.planFetchEpoch = 0;
    this.planEpochsDiffer = false;
    for (let i = 0; i < n; i++) {
      if (kinds[i] === P_NEW) {
        this.classify(items, flags[i] as number, i);
        if (kinds[i] === P_FAIL) {
          failures ??= [];
          failures.push(this.planFailure(i));
        }
      } else if (exhausted?.[i] !== undefined) {
        failures ??= [];
        failures.push(this.exhaustFailure(exhausted[i] as Slot));
      }
    }
    if (this.planIsBig) this.planFirstFetch.clear(); // (holds no key ids past the call)
    // (Only new items fetch, and a call with new items has no known slots: the failures are rebuilt in item order.)
    if (this.planEpochsDiffer && this.outdatedWithinAdmission(n)) {
      failures = [];
      for (let i = 0; i < n; i++) if (kinds[i] === P_FAIL) failures.push(this.planFailure(i));
    }
    return failures;
  }

  /**
   * Pass 2 of an admission that fails nothing: make the slots of new items and start what their
   * plan says (fetches, local encodes), and gather every item's decision in item order. `n`: the
   * items presented; `same`: whether they are the request's slots, in order. Pass 1 adds and removes
   * no slot, so the request has none yet exactly on its first admission.
   */
  private decide(req: Req, n: number, same: boolean, now: number): AdmitResult {
    const ids = this.planItemId;
    const flags = this.planFlags;
    const kinds = this.planKind;
    // Decisions are gathered in a scratch array and copied out with `slice`: an array made by
    // `new Array(n)` or a literal comes from an allocation site that V8 pretenures once most of
    // its arrays survive (many outstanding requests), and a pretenured array holding young
    // decisions keeps them alive through every scavenge until a full collection.
    const decisions = this.planDecisions;
    // A new request's further slots are allocated at their exact count (a growing array reserves 17) and filled in order.
    if (req.slotCount === 0 && n > 1) req.more = new Array<Slot>(n - 1);
    let inOrder = true;
    for (let i = 0; i < n; i++) {
      let slot: Slot;
      const kind = kinds[i] as number;
      if (kind === P_KEEP) slot = this.findSlot(req, ids[i] as string, i) as Slot;
      else {
        slot = this.addSlot(req, ids[i] as string, ((flags[i] as number) & F_MODEL) !== 0);
        slot.keyId = this.planKeyId[i];
        if (slot.keyId !== undefined) slot.announcement = this.planAnnouncement[i]; // (kept only to compare with)
        this.applyPlan(slot, i, now);
        // [C1] Each item's first decision, by path: with the fallbacks' and failures' reasons, what share the remote path serves.
        this.metrics.counter("ectp_consumer_items_admitted_total", 1, ADMITTED_PATH[kind]);
      }
      if (slot !== slotAt(req, i)) inOrder = false;
      if (slot.decision !== undefined) decisions[i] = slot.decision;
      else {
        slot.deferDecision ??= new Defer(slot.itemId);
        decisions[i] = slot.deferDecision;
      }
    }
    if (!same) this.clearPlan(n);
    const result: AdmitResult = new Admitted(decisions.slice(0, n) as ItemDecision[]);
    for (let i = 0; i < n; i++) decisions[i] = undefined; // (a loop: Array.prototype.fill costs more here)
    // Kept only when the request's slots are exactly these items in this order.
    req.view = inOrder && n === req.slotCount ? result : undefined;
    return result;
  }

  /** The slot of `itemId` in a request admitted before (presented at `index` this time), or undefined when it has none. */
  private findSlot(req: Req, itemId: string, index: number): Slot | undefined {
    const count = req.slotCount;
    if (count === 0) return undefined;
    const guess = slotAt(req, index);
    if (guess !== undefined && guess.itemId === itemId) return guess;
    if (req.itemId === itemId) return req;
    const more = req.more;
    if (count <= PAIRWISE_MAX_ITEMS) {
      for (let i = 0; i < count - 1; i++) if ((more[i] as Slot).itemId === itemId) return more[i];
      return undefined;
    }
    // A scan here made each admission that leaves items out or reorders them cost the square of the
    // request's items (1.8 s per admission of 10,000 of 20,000 items).
    let byItemId = req.byItemId;
    if (byItemId === undefined) {
      byItemId = new Map();
      for (let i = 0; i < count - 1; i++) byItemId.set((more[i] as Slot).itemId, more[i] as Slot);
      req.byItemId = byItemId;
    }
    return byItemId.get(itemId);
  }

  /**
   * SPEC.md 3.4: a request's items are the same on every presentation. Of a request admitted before,
   * an item id its first admission did not name, or an announcement of another item key than the one
   * the item took then, is the engine's error, thrown before anything changes: the core would
   * otherwise answer for the first key (ready with its bytes) while the engine means another. An item
   * may be left out, come without an announcement, or bring one of the same key (another epoch or
   * producer: not read). The announcement is validated only when it is not the object last presented.
   * @throws EctpError(INVALID_ARGUMENT)
   */
  private checkSameItems(req: Req, items: readonly AdmitItem[], n: number): void {
    const ids = this.planItemId;
    for (let i = 0; i < n; i++) {
      const itemId = ids[i] as string;
      const slot = this.findSlot(req, itemId, i);
      if (slot === undefined)
        throw invalidArgument(
          `admit(${req.id}): items[${i}] (${JSON.stringify(itemId)}) was not in the request's first admission; a request's items are the same on every admission (SPEC.md 3.4): admit other items under a new request id.`,
        );
      let announcement: unknown;
      try {
        announcement = (items[i] as AdmitItem).announcement;
      } catch {
        continue; // (not read before either: an announcement that cannot be read names no key)
      }
      if (announcement === slot.announcement) continue; // the usual case: the engine's same object
      const taken = slot.keyId;
      if (taken === undefined || announcement === undefined || announcement === null) continue; // nothing to compare
      const presented = this.validateAnnouncement(announcement);
      if (presented !== undefined && presented.keyId !== taken)
        throw invalidArgument(
          `admit(${req.id}): items[${i}] (${JSON.stringify(itemId)}) announces item key ${presented.keyId}, but the item was first admitted announcing ${taken}; a request's items are the same on every admission (SPEC.md 3.4): admit another item under a new item id in a new request.`,
        );
      slot.announcement = announcement; // the same key (or none readable): compared once
    }
  }

  /** A new slot for `itemId`, appended to the request's slots (the request's own slot first). */
  private addSlot(req: Req, itemId: string, hasModelInput: boolean): Slot {
    const k = req.slotCount;
    let slot: Slot;
    if (k === 0) {
      req.itemId = itemId;
      req.hasModelInput = hasModelInput;
      slot = req;
    } else {
      slot = new Slot(req, itemId, hasModelInput);
      if (req.more === EMPTY_SLOTS) req.more = [slot];
      else if (k - 1 < req.more.length) req.more[k - 1] = slot; // pre-sized for a new request
      else req.more.push(slot);
    }
    req.slotCount = k + 1;
    return slot;
  }

  private clearPlan(n: number): void {
    for (let i = 0; i < n; i++) {
      this.planDesc[i] = undefined;
      this.planMeta[i] = undefined;
      this.planReason[i] = undefined;
      this.planRec[i] = undefined;
      this.planSource[i] = undefined;
      this.planAnnouncement[i] = undefined;
      this.planKeyId[i] = undefined;
    }
    this.planStartWith = undefined;
  }

  /** [I4] New, empty plan arrays in place of ones an outsized request grew (see {@link PLAN_KEPT_ITEMS}). */
  private dropPlanArrays(): void {
    this.planItemId = [];
    this.planFlags = [];
    this.planKind = [];
    this.planReason = [];
    this.planDesc = [];
    this.planRec = [];
    this.planHash = [];
    this.planMeta = [];
    this.planAnnouncement = [];
    this.planKeyId = [];
    this.planDecisions = [];
    this.planSource = [];
  }

  /** The failure of new item `i`, classified P_FAIL, with where it came from for its warning [C5]. */
  private planFailure(i: number): ItemFailure {
    const failure: ItemFailure = { itemId: this.planItemId[i] as string, reason: this.planReason[i] as FailureReasonName, attempts: 0 };
    const source = this.planSource[i];
    if (source !== undefined) this.failureSource.set(failure, source); // [C5] its key and why, in the warning
    return failure;
  }

  /**
   * [P8][C1] The epochs this admission's own announcements rely on. An item whose announcement names an
   * older epoch of its producer than another item of the call that fetches is outdated, as one older than
   * an epoch known before the call: it starts no fetch. It may still join the fetch of its key in flight,
   * or the one an item of the call naming the greater epoch starts: that fetch is then started with the
   * greater epoch's descriptor, whichever of the two items comes first (no Hello and ReadRequest to the
   * older epoch before the greater one's). Otherwise it is EPOCH_CHANGED (local encode, or the request
   * fails, and then nothing starts). Run only when the new items that fetch name different epochs.
   * Returns whether an item became P_FAIL.
   */
  private outdatedWithinAdmission(n: number): boolean {
    const kinds = this.planKind;
    const descs = this.planDesc;
    const greatest = new Map<string, number>(); // producer id -> the greatest epoch the call's fetching items name
    for (let i = 0; i < n; i++) {
      const d = descs[i];
      if (kinds[i] === P_FETCH && d !== undefined && (greatest.get(d.producerId) ?? 0) < d.epoch) greatest.set(d.producerId, d.epoch);
    }
    const current = new Map<string, number>(); // key id -> the first item naming it in its producer's greatest epoch
    for (let i = 0; i < n; i++) {
      const d = descs[i];
      if (kinds[i] === P_FETCH && d !== undefined && d.epoch === greatest.get(d.producerId) && !current.has(d.keyId)) current.set(d.keyId, i);
    }
    let failed = false;
    for (let i = 0; i < n; i++) {
      const d = descs[i];
      if (kinds[i] !== P_FETCH || d === undefined || d.epoch === greatest.get(d.producerId) || this.planRec[i] !== undefined) continue;
      const j = current.get(d.keyId);
      if (j !== undefined) {
        if (i < j) {
          this.planStartWith ??= new Map();
          this.planStartWith.set(i, j);
        }
        continue; // [C1] joins the fetch item j starts
      }
      // [P8] An announcement naming an older epoch than one the consumer knows of starts no fetch.
      const model = ((this.planFlags[i] as number) & F_MODEL) !== 0;
      kinds[i] = model ? P_LOCAL_ENCODE : P_FAIL;
      failed ||= !model;
      this.planReason[i] = "EPOCH_CHANGED";
      this.planSource[i] = {
        itemKey: d.keyId,
        producer: d.producerId,
        detail: `the announcement names epoch ${d.epoch}; another item of this admission names epoch ${greatest.get(d.producerId)} of the producer`,
      };
    }
    return failed;
  }

  /** [C1] Classify new item `i` (its `flags` read by admit) into the plan arrays. Never throws [C2][I1]. */
  private classify(items: readonly AdmitItem[], flags: number, i: number): void {
    const kinds = this.planKind;
    const model = (flags & F_MODEL) !== 0;
    this.planReason[i] = undefined;
    this.planAnnouncement[i] = undefined;
    this.planKeyId[i] = undefined;
    if ((flags & F_LOCAL) !== 0) {
      kinds[i] = P_READY_LOCAL; // [C1] already local
      return;
    }
    let announcement: unknown;
    try {
      announcement = (items[i] as AdmitItem).announcement;
    } catch {
      announcement = false; // a throwing getter is an invalid announcement [C2]
    }
    this.planAnnouncement[i] = announcement;
    if (announcement === undefined || announcement === null) {
      // [C1] No announcement: local encode with model input, else the request fails (background failure 1).
      if (model) kinds[i] = P_LOCAL_ENCODE;
      else {
        kinds[i] = P_FAIL;
        this.planReason[i] = "UNAVAILABLE";
      }
      return;
    }
    const desc = this.validateAnnouncement(announcement);
    if (desc === undefined) {
      // [C2] Invalid announcement: never an exception. [C5] Its log record says what was wrong.
      kinds[i] = model ? P_LOCAL_ENCODE : P_FAIL;
      this.planReason[i] = "INVALID_ANNOUNCEMENT";
      this.planSource[i] = { ...this.invalidSource, detail: this.invalidDetail };
      return;
    }
    this.planKeyId[i] = desc.keyId; // SPEC.md 3.4: the key the item takes
    // Equal key ids have equal content hashes, so the content hash is a valid (and shorter) hash input.
    const keyHash = hashBytes(desc.contentHash);
    this.planHash[i] = keyHash;
    const rec = this.keys.getHashed(desc.keyId, keyHash);
    const boundSize = this.sizeBoundElsewhere(desc, keyHash, rec, i);
    if (boundSize !== -1) {
      // [C11] One key, one size: bytes loaded for the other size could never verify against this one.
      kinds[i] = model ? P_LOCAL_ENCODE : P_FAIL;
      this.planReason[i] = "SIZE_MISMATCH";
      const by = rec === undefined ? "an earlier item of this admission" : rec.isLoaded ? "its loaded bytes" : "its fetch in flight";
      this.planSource[i] = {
        itemKey: desc.keyId,
        producer: desc.producerId,
        detail: `the announcement names ${desc.sizeBytes} bytes, the key is bound to ${boundSize} by ${by}: one of the two announcements is wrong`,
      };
      return;
    }
    if (rec?.isLoaded) {
      // [C11] Loaded and verified, but against another announcement: its checksum must match too.
      const own = desc.checksum?.crc32c;
      if (own !== undefined && this.loadedCrc(rec) !== own) {
        kinds[i] = model ? P_LOCAL_ENCODE : P_FAIL;
        this.planReason[i] = "CHECKSUM_MISMATCH";
        this.planSource[i] = { itemKey: desc.keyId, producer: desc.producerId };
        return;
      }
      kinds[i] = P_READY_LOADED; // [C1] already loaded and verified
      this.planDesc[i] = desc;
      this.planRec[i] = rec;
      return;
    }
    const peer = this.findPeer(desc.producerId);
    let terminal: FailureReasonName | undefined;
    if (peer !== undefined) {
      if (peer.knownEpoch > desc.epoch) terminal = "EPOCH_CHANGED"; // [P8] stale announcement
      else if (peer.rejectedEpoch !== 0 && peer.rejectedEpoch >= desc.epoch) terminal = peer.rejectedReason;
      // [P8] Stale too: older than an epoch the consumer knows of from what its fetches rely on (one
      // greeted or connected, though it never answered), not only from the producer's envelopes.
      else if (peer.helloEpoch > desc.epoch || peer.connectedEpoch > desc.epoch) terminal = "EPOCH_CHANGED";
    }
    if (terminal !== undefined && rec === undefined) {
      kinds[i] = model ? P_LOCAL_ENCODE : P_FAIL;
      this.planReason[i] = terminal;
      this.planSource[i] = { itemKey: desc.keyId, producer: desc.producerId };
      return;
    }
    kinds[i] = P_FETCH;
    this.planDesc[i] = desc;
    this.planMeta[i] = this.scratchMeta;
    this.planRec[i] = rec;
    if (this.planFetchEpoch === 0) this.planFetchEpoch = desc.epoch;
    else if (desc.epoch !== this.planFetchEpoch) this.planEpochsDiffer = true; // see outdatedWithinAdmission
    if (this.planIsBig && !this.planFirstFetch.has(desc.keyId)) this.planFirstFetch.set(desc.keyId, i);
  }

  /**
   * [C11] The size an announcement's key is already bound to when it differs from the announcement's
   * (-1 when it does not, or the key is bound to none): that of the item loaded or being fetched
   * (`rec`), or of an earlier new item of this admit call that will start the key's fetch. Equal keys
   * name equal bytes, so two sizes mean one announcement is wrong; the later one joins nothing.
   * Within one call the first item in order binds the size, whatever epoch it names: which of two
   * sizes is wrong cannot be told from the announcements (a greater epoch is newer, not more right).
   */
  private sizeBoundElsewhere(desc: ValidDescriptor, keyHash: number, rec: Fetch | Loaded | undefined, i: number): number {
    let bound = -1;
    if (rec !== undefined) bound = rec.isLoaded ? rec.sizeBytes : rec.desc.sizeBytes;
    else if (this.planIsBig) {
      const j = this.planFirstFetch.get(desc.keyId);
      if (j !== undefined) bound = (this.planDesc[j] as ValidDescriptor).sizeBytes;
    } else {
      // Earlier items compared by key hash first: a request of many items stays a pass of integer compares.
      for (let j = 0; j < i && bound === -1; j++) {
        if (this.planKind[j] !== P_FETCH || this.planHash[j] !== keyHash) continue;
        const other = this.planDesc[j] as ValidDescriptor;
        if (other.keyId === desc.keyId) bound = other.sizeBytes;
      }
    }
    return bound === desc.sizeBytes ? -1 : bound;
  }

  /** [C2] Validate an untrusted announcement. Returns undefined when invalid. Never throws. */
  private validateAnnouncement(announcement: unknown): ValidDescriptor | undefined {
    this.scratchMeta = undefined;
    this.invalidSource = NO_SOURCE; // (shared: nothing is allocated for a valid announcement)
    try {
      if (typeof announcement !== "object" || announcement === null) {
        const hint = typeof announcement === "string" ? " (proto3 JSON? read it with announcementFromJson first)" : "";
        this.invalidDetail = `the announcement is ${describeValue(announcement)}, not an object${hint}`;
        return undefined;
      }
      if (announcement instanceof Uint8Array) {
        this.invalidDetail = `the announcement is ${announcement.length} bytes, not the object form: decode it first (ectp.v1.Announcement.decode)`;
        return undefined;
      }
      const a = announcement as ectp.v1.IAnnouncement;
      const version = a.version;
      // [C2][V1] An announcement must name spec major 1; an absent version is invalid.
      if (version === null || typeof version !== "object" || toNum(version.major) !== SPEC_MAJOR) {
        this.invalidDetail = validationResultDetail(announcement) ?? `the announcement's spec version is not major ${SPEC_MAJOR}`;
        return undefined;
      }
      const result = validateDescriptor(a.item, this.limits);
      if (!result.ok) {
        this.invalidDetail = result.error.message;
        this.invalidSource = readableSource(a.item);
        // [C2] The detail names the field that differs (the descriptor check says only that one does).
        if (result.error.code === "INCOMPATIBLE") {
          const fp = normalizeFingerprint(a.item?.key?.fingerprint);
          const diff = fp.ok ? fingerprintDifference(fp.value, this.fingerprint) : undefined;
          if (diff !== undefined) this.invalidDetail += `: ${diff} (the announcement's, this consumer's)`;
        }
        return undefined;
      }
      const meta = a.transportMetadata;
      if (meta instanceof Uint8Array && meta.length > 0) this.scratchMeta = meta;
      return result.value;
    } catch (cause) {
      this.invalidDetail = `the announcement could not be read (${thrownText(cause)})`;
      return undefined;
    }
  }

  private applyPlan(slot: Slot, i: number, now: number): void {
    switch (this.planKind[i]) {
      case P_READY_LOCAL: {
        slot.decision = this.localReady(slot.itemId);
        return;
      }
      case P_READY_LOADED: {
        this.hold(slot, this.planRec[i] as Loaded);
        return;
      }
      case P_LOCAL_ENCODE: {
        const reason = this.planReason[i];
        slot.decision =
          reason === undefined
            ? { action: "local-encode", itemId: slot.itemId }
            : { action: "local-encode", itemId: slot.itemId, reason };
        if (reason !== undefined) {
          this.metrics.counter("ectp_consumer_local_encodes_total", 1, this.byProducer.with(this.labels("reason", reason), this.planSource[i]?.producer));
          this.logger.warn("item falls back to local encode", {
            requestId: slot.req.id,
            itemId: slot.itemId,
            reason,
            attempts: 0,
            ...this.planSource[i], // [C5] the item key and producer, or what was wrong with the announcement
          });
        }
        return;
      }
      case P_FETCH: {
        const desc = this.planDesc[i] as ValidDescriptor;
        let rec = this.planRec[i];
        // An earlier item of this call may have created the fetch, or abandoned the one classified.
        const keyHash = this.planHash[i] as number;
        if (rec === undefined || (!rec.isLoaded && rec.disposed)) rec = this.keys.getHashed(desc.keyId, keyHash);
        let f: Fetch;
        if (rec === undefined) {
          const j = this.planStartWith?.get(i) ?? i; // [P8] an item of a greater epoch of this call starts it
          f = this.createFetch(this.planDesc[j] as ValidDescriptor, keyHash, this.planMeta[j], now);
        } else if (rec.isLoaded) {
          this.hold(slot, rec);
          return;
        } else {
          f = rec;
          const meta = this.planMeta[i];
          if (meta !== undefined && f.peer.id === desc.producerId) {
            this.noteMetadata(f.peer, desc.epoch, meta, false);
            // The fetch keeps the first metadata announced for its epoch (and for the epoch it would
            // move to): the peer keeps only its greatest epoch's, and a Hello's replaces it [P8].
            if (desc.epoch === f.epoch) f.announcedMetadata ??= meta;
            else if (f.successor !== undefined && desc.epoch === f.successor.desc.epoch) f.successor.meta ??= meta;
          }
          if (desc.epoch > f.desc.epoch && f.peer.id === desc.producerId) {
            // [C1][P8] The producer restarted: the fetch moves to the greater epoch now, or, with a
            // read of the older one in flight (its bytes still verified [C11]), should that read fail.
            if (f.read === undefined) this.moveToEpoch(f, desc, this.planMeta[i], now);
            else if (f.successor === undefined || desc.epoch > f.successor.desc.epoch) f.successor = { desc, meta: this.planMeta[i] };
          }
        }
        // [C9] single flight: join the fetch of this key.
        const tail = f.wTail;
        slot.wPrev = tail;
        if (tail === undefined) f.wHead = slot;
        else tail.wNext = slot;
        f.wTail = slot;
        f.waiterCount++;
        slot.fetch = f;
        const own = desc.checksum?.crc32c ?? -1;
        if (own !== (f.desc.checksum?.crc32c ?? -1)) {
          f.otherChecksums ??= new Map();
          f.otherChecksums.set(slot, own);
        }
        // A fetch stalled because every earlier waiter's budget ended before its next retry: resume for this one.
        if (f.state === IDLE && f.tLane === -1) this.timers.schedule(f, Math.max(now, f.retryAt), LANE_HEAP);
        // [C3] This (request, item)'s own budget, from its first wait; never extended.
        slot.budgetAt = now + this.config.waitBudgetMs;
        this.budgetCount++;
        this.timers.schedule(slot, slot.budgetAt, LANE_BUDGET);
        return;
      }
      default:
        return;
    }
  }

  /** [C1] The ready decision of an item the engine already holds (shared per item id, up to 4,096 ids). */
  private localReady(itemId: string): ItemDecision {
    let d = this.localReadyDecisions.get(itemId);
    if (d === undefined) {
      d = { action: "ready", itemId };
      if (this.localReadyDecisions.size < 4096) this.localReadyDecisions.set(itemId, d);
    }
    return d;
  }

  private hold(slot: Slot, l: Loaded): void {
    l.holders++;
    slot.loaded = l;
    slot.decision = new ReadyAt(slot.itemId, l.dest);
    slot.req.view = undefined;
  }

  /** [C3] The failure of an item whose budget ran out, with what it waited for kept for its warning. */
  private exhaustFailure(slot: Slot): ItemFailure {
    const failure: ItemFailure = { itemId: slot.itemId, reason: "BUDGET_EXHAUSTED", attempts: slot.fetch?.attempts ?? 0 };
    if (slot.fetch !== undefined) this.failureSource.set(failure, waitedFor(slot.fetch));
    return failure;
  }

  /** Detach a slot from its fetch (abandoning the fetch when nobody is left) [C7]. */
  private detach(slot: Slot, now: number): void {
    const f = slot.fetch;
    this.timers.cancel(slot);
    if (f === undefined) return;
    slot.fetch = undefined;
    this.unlinkWaiter(f, slot);
    if (f.waiterCount === 0 && !f.disposed) this.abandonFetch(f, now);
  }

  /** Take a slot out of its fetch's waiter list. */
  private unlinkWaiter(f: Fetch, slot: Slot): void {
    const prev = slot.wPrev;
    const next = slot.wNext;
    if (prev === undefined) f.wHead = next;
    else prev.wNext = next;
    if (next === undefined) f.wTail = prev;
    else next.wPrev = prev;
    slot.wPrev = undefined;
    slot.wNext = undefined;
    f.waiterCount--;
    f.otherChecksums?.delete(slot);
  }

  /** Resolve a waiting slot to local-encode with a reason (sticky: no further remote attempt) [C5]. */
  private resolveLocal(slot: Slot, reason: FailureReasonName, now: number): void {
    const attempts = slot.fetch?.attempts ?? 0;
    const source = reason === "BUDGET_EXHAUSTED" && slot.fetch !== undefined ? waitedFor(slot.fetch) : undefined;
    const producer = slot.fetch?.peer.id;
    this.detach(slot, now);
    slot.decision = { action: "local-encode", itemId: slot.itemId, reason };
    slot.req.view = undefined;
    this.metrics.counter("ectp_consumer_local_encodes_total", 1, this.byProducer.with(this.labels("reason", reason), producer));
    this.logger.warn("item falls back to local encode", { requestId: slot.req.id, itemId: slot.itemId, reason, attempts, ...source });
  }

  /**
   * [C6] Fail a request once: queue it for drainFailed and end its waits and budgets. The verified
   * bytes it holds stay its until the engine finishes it: an item reported ready may still be in use.
   */
  private failRequest(req: Req, failures: ItemFailure[], now: number): AdmitResult | undefined {
    if (req.failure !== undefined) return req.failure;
    // [C6][C3] An item whose budget ran out by now (without model input) ended in this event too,
    // whatever input failed the request: named as a poll at this instant names it.
    let named: Set<string> | undefined; // (made once needed: a request of many items stays linear)
    for (let i = 0; i < req.slotCount; i++) {
      const s = slotAt(req, i) as Slot;
      if (!exhaustedWithoutModelInput(s, now)) continue;
      named ??= new Set(failures.map((f) => f.itemId));
      if (!named.has(s.itemId)) failures.push(this.exhaustFailure(s));
    }
    const result: AdmitResult = { status: "failed", failures };
    req.failure = result;
    this.failed.push({ requestId: req.id, failures });
    this.metrics.counter("ectp_consumer_requests_failed_total", 1);
    for (const f of failures) {
      const source = this.failureSource.get(f);
      this.metrics.counter("ectp_consumer_item_failures_total", 1, this.byProducer.with(this.labels("reason", f.reason), source?.producer));
      // With the item key, producer and detail of a remote failure, so the cause can be told apart.
      this.logger.warn("request failed", { requestId: req.id, itemId: f.itemId, reason: f.reason, attempts: f.attempts, ...source });
    }
    this.endWaits(req, now);
    return result;
  }

  /** [C3][C7] End a request's budgets and waits (a fetch nobody else waits for is abandoned). */
  private endWaits(req: Req, now: number): void {
    const count = req.slotCount;
    for (let i = 0; i < count; i++) {
      const slot = slotAt(req, i) as Slot; // defined below slotCount
      if (slot.budgeted) {
        slot.budgeted = false;
        this.budgetCount--;
      }
      this.detach(slot, now);
    }
  }

  /** [C7][I4] Release budgets, waits and holds of a request: its per-request state back to baseline. */
  private releaseRequest(req: Req, now: number): void {
    this.endWaits(req, now); // (nothing left to end for a failed request)
    const count = req.slotCount;
    for (let i = 0; i < count; i++) {
      const slot = slotAt(req, i) as Slot; // defined below slotCount
      const l = slot.loaded;
      if (l !== undefined) {
        slot.loaded = undefined;
        if (--l.holders === 0) {
          this.keys.deleteHashed(l.keyId, l.keyHash);
          this.loadedCount--;
          this.releaseDest(l.dest); // last holder finished [C7]
        }
      }
    }
    req.slotCount = 0;
    req.more = EMPTY_SLOTS;
    req.view = undefined;
  }

  // -------------------------------------------------------------------------------------
  // Fetches
  // -------------------------------------------------------------------------------------

  /** The known peer `id`, or undefined. The last one found is cached (until idle peers are forgotten). */
  private findPeer(id: string): Peer | undefined {
    const last = this.lastPeer;
    if (last !== undefined && last.id === id) return last;
    const peer = this.peers.get(id);
    if (peer !== undefined) this.lastPeer = peer;
    return peer;
  }

  private getPeer(id: string): Peer {
    let peer = this.findPeer(id);
    if (peer === undefined) {
      if (this.peers.size >= this.peerSweepAt) this.forgetIdlePeers();
      peer = new Peer(id);
      this.peers.set(id, peer);
      this.lastPeer = peer;
    }
    return peer;
  }

  /**
   * SPEC.md section 16: per-peer state is released once a peer holds nothing, so the table does
   * not grow with every sender ever heard from. Drops the records of peers with no fetch, grant,
   * pending ACK, connection or timer (their epoch knowledge goes too: a later message is judged
   * as from a new peer). Runs when the table doubles past its size after the last sweep:
   * amortised O(1) per new peer.
   */
  private forgetIdlePeers(): void {
    // A peer that refused our Hello is kept: no ReadRequest may go to it until a greater epoch of
    // it is seen, and forgetting the refusal would allow one [P8]. (Each such record is one peer
    // the transport delivered a HandshakeReject from.)
    for (const [id, p] of this.peers)
      if (
        p.fetchCount === 0 &&
        p.grants.size === 0 &&
        p.ackWaiters.size === 0 &&
        p.runningUngranted === undefined &&
        p.connectedEpoch === 0 &&
        p.tLane === -1 &&
        p.rejectedEpoch === 0
      )
        this.peers.delete(id);
    this.lastPeer = undefined;
    this.peerSweepAt = Math.max(MIN_PEER_SWEEP, 2 * this.peers.size);
  }

  private createFetch(desc: ValidDescriptor, keyHash: number, meta: Uint8Array | undefined, now: number): Fetch {
    const peer = this.getPeer(desc.producerId);
    const f = new Fetch(desc, keyHash, peer, meta);
    this.keys.setHashed(desc.keyId, keyHash, f);
    this.fetchCount++;
    if (peer.fetchCount === 0 && peer.ackWaiters.size === 0) {
      // [P8] Idle for idlePeerMs with no connection to let go: greet it again all the same (SPEC 4.1).
      if (peer.quietSince !== NOT_QUIET && now - peer.quietSince >= this.config.idlePeerMs) {
        peer.helloEpoch = 0;
        peer.heardHelloEpoch = 0;
      }
      peer.quietSince = NOT_QUIET;
      this.startBusiness(peer, now);
    }
    // Appended to the peer's fetch list.
    const tail = peer.fTail;
    f.pPrev = tail;
    if (tail === undefined) peer.fHead = f;
    else tail.pNext = f;
    peer.fTail = f;
    peer.fetchCount++;
    if (meta !== undefined) this.noteMetadata(peer, desc.epoch, meta, false);
    this.sendAttempt(f, now);
    return f;
  }

  /**
   * [C1][P8] A valid announcement of a newer epoch of the fetch's producer, before any grant: the
   * producer restarted, so the older epoch the fetch asks is gone (its attempts would go to a dead
   * run, by its stale transport metadata, until every budget ran out). The fetch now asks the newer
   * epoch: the attempt in flight is dropped (a late grant for it is released as unknown) and the next
   * one goes out at once. Waiters keep their own checksums [C11]; the size is the same (checked
   * before joining).
   */
  private moveToEpoch(f: Fetch, desc: ValidDescriptor, meta: Uint8Array | undefined, now: number): void {
    this.switchEpoch(f, desc, meta);
    if (f.state === REQUESTING) this.attempts.delete(f.attemptId);
    f.state = IDLE;
    f.retryReason = "EPOCH_CHANGED"; // the next attempt is counted and logged as a retry for this reason [C4]
    f.grantCameLate = false;
    this.timers.cancel(f);
    this.sendAttempt(f, now);
  }

  /** The fetch asks `desc` (a greater epoch of its producer) from now on; its waiters keep their own checksums [C11]. */
  private switchEpoch(f: Fetch, desc: ValidDescriptor, meta: Uint8Array | undefined): void {
    const before = f.desc.checksum?.crc32c ?? -1;
    if (before !== (desc.checksum?.crc32c ?? -1))
      for (let w = f.wHead; w !== undefined; w = w.wNext) {
        f.otherChecksums ??= new Map();
        if (!f.otherChecksums.has(w)) f.otherChecksums.set(w, before);
      }
    f.desc = desc;
    f.announcedMetadata = meta;
    f.successor = undefined;
    this.logger.info("fetch moves to the producer's newer epoch", { itemKey: f.keyId, producer: f.peer.id, epoch: desc.epoch });
  }

  /**
   * [C1][P8] A read of an older epoch ended without loading the item (`reason`) after a greater
   * epoch of its producer was announced: the fetch goes on there, as a retry [C4] within its
   * waiters' budgets, instead of ending. False (the fetch ends as it would have) when that epoch is
   * itself outdated by now or no waiter's budget remains.
   */
  private resumeAtSuccessor(f: Fetch, reason: FailureReasonName, now: number): boolean {
    const next = f.successor as { desc: ValidDescriptor; meta: Uint8Array | undefined };
    f.successor = undefined;
    if (next.desc.epoch < f.peer.knownEpoch) return false;
    let budgetLeft = false;
    for (let w = f.wHead; w !== undefined && !budgetLeft; w = w.wNext) budgetLeft = now < w.budgetAt;
    if (!budgetLeft) return false;
    const read = f.read;
    f.read = undefined;
    if (read !== undefined && read.fetch === f) this.orphanRead(read, ACK_FAILED, now);
    this.switchEpoch(f, next.desc, next.meta);
    this.retryFetch(f, reason, 0, now);
    return true;
  }

  /** Remember a producer's transport metadata for an epoch (a Hello's wins over an announcement's). */
  private noteMetadata(peer: Peer, epoch: number, received: Uint8Array, fromHello: boolean): void {
    if (epoch < peer.knownEpoch) return;
    const meta = ownBytes(received); // (kept: not a view into the frame it came in, SPEC.md 16)
    if (!fromHello) {
      // SPEC 4: any announcement of an epoch that carried metadata serves that epoch, also after the
      // producer was declared gone; kept per epoch, so a fetch of an older epoch announced without
      // any still finds its epoch's [P8]. Bounded: the greatest epochs only.
      peer.announced ??= new Map();
      const kept = peer.announced;
      if (!kept.has(epoch)) {
        kept.set(epoch, meta);
        if (kept.size > MAX_ANNOUNCED_EPOCHS) kept.delete(Math.min(...kept.keys()));
      }
    }
    if (peer.metadata === undefined || epoch > peer.metadataEpoch || (fromHello && epoch === peer.metadataEpoch)) {
      peer.metadata = meta;
      peer.metadataEpoch = epoch;
    }
  }

  /**
   * Metadata known for the fetch's epoch: connect once per producer epoch, before anything is sent
   * to it or read from it. Never back to an older epoch than the one connected.
   */
  private connectFor(f: Fetch): void {
    const peer = f.peer;
    if (peer.connectedEpoch >= f.epoch) return;
    const meta =
      peer.metadata !== undefined && peer.metadataEpoch === f.epoch ? peer.metadata : (f.announcedMetadata ?? peer.announced?.get(f.epoch));
    if (meta === undefined) return;
    peer.connectedEpoch = f.epoch;
    this.out.push({ type: "connect-peer", peerId: peer.id, epoch: f.epoch, metadata: meta });
  }

  /** Send one ReadRequest (after Hello and connect-peer as needed). */
  private sendAttempt(f: Fetch, now: number): void {
    const peer = f.peer;
    // [C9][P3] An earlier read of this item from this producer epoch may still run: a ReadRequest now
    // would replace its grant (release its pin) at the producer, and once the new grant ended, or if
    // the request were refused, the item would be unpinned under that READ (SPEC 4.6). The fetch
    // waits, its waiters' budgets running, until that read settles or, at the latest, its deadline.
    const running = readRunningUnder(f, now);
    if (running !== undefined) {
      f.state = BLOCKED; // (not IDLE: only a fetch still held back is woken when that read ends [C4])
      running.blocked = f;
      this.timers.schedule(f, running.deadline, LANE_HEAP);
      return;
    }
    this.connectFor(f);
    if (peer.helloEpoch < f.epoch) {
      peer.helloEpoch = f.epoch;
      peer.awaitingHello = false;
      if (peer.greetedEpoch < f.epoch) peer.greetedEpoch = f.epoch;
      this.send(peer.id, {
        hello: {
          role: ectp.v1.Role.ROLE_CONSUMER,
          capabilities: [],
          fingerprint: this.fingerprint,
          transportMetadata: this.transportMetadata,
          heartbeatIntervalMs: this.config.heartbeatIntervalMs,
        },
      });
    }
    this.ensurePeerTimer(peer, now);
    const attemptId = ++this.nextAttemptId;
    f.attemptId = attemptId;
    f.attempts++;
    this.attempts.set(attemptId, f);
    if (f.attempts > 1) {
      // [C4] Every retry is counted by the failed attempt's reason, and logged with that reason and its attempt number.
      // Set by every path that ends an attempt and goes on: retryFetch, moveToEpoch, and a grant released
      // unread because every waiter's budget was over (a request joined the parked fetch since).
      if (f.grantCameLate) {
        f.grantCameLate = false;
        f.retryReason = "BUDGET_EXHAUSTED";
      }
      const retryReason = f.retryReason ?? "INTERNAL";
      this.metrics.counter("ectp_consumer_retries_total", 1, this.byProducer.with(this.labels("reason", retryReason), peer.id));
      this.metrics.histogram("ectp_consumer_retry_attempt", f.attempts);
      const fields = { itemKey: f.keyId, producer: peer.id, attempt: f.attempts, reason: retryReason };
      // Flow control (the producer asked for a wait: OVERLOADED under its quota, NOT_READY while the
      // item is encoded) can retry hundreds of times a second under load: a debug line each, the
      // counter shows the rate. A retry after a fault (a lost answer, a lost peer) is an info line.
      if (retryReason === "OVERLOADED" || retryReason === "NOT_READY") this.logger.debug("retrying remote read", fields);
      else this.logger.info("retrying remote read", fields);
    }
    // A clean copy of the key (never the announcement's own object), built per attempt rather than kept per fetch.
    const desc = f.desc;
    const key = { contentHash: desc.contentHash, fingerprint: desc.fingerprint };
    this.sendReadRequest(peer.id, { attemptId, key, expectedEpoch: desc.epoch, expectedSizeBytes: desc.sizeBytes });
    f.state = REQUESTING;
    this.timers.schedule(f, now + this.config.grantWaitMs, LANE_GRANT_WAIT);
  }

  /** [C4] Retryable outcome: back off and try again (while some waiter's budget remains). */
  private retryFetch(f: Fetch, reason: FailureReasonName, retryAfterMs: number, now: number): void {
    if (f.state === REQUESTING) this.attempts.delete(f.attemptId);
    f.state = IDLE;
    f.retries++;
    f.retryReason = reason;
    f.grantCameLate = false;
    let delay = backoffDelay(f.retries, this.config.backoffInitialMs, this.config.backoffMaxMs, this.random);
    // [C4] A producer's retry hint may lengthen the backoff, never shorten it.
    if (retryAfterMs > delay) delay = retryAfterMs;
    this.timers.cancel(f);
    f.retryAt = now + delay;
    let budgetLeft = false;
    for (let w = f.wHead; w !== undefined; w = w.wNext) if (w.budgetAt > now + delay) budgetLeft = true;
    const fields = { itemKey: f.keyId, producer: f.peer.id, reason, attempt: f.attempts, delayMs: delay };
    if (budgetLeft) this.logger.debug("remote read will be retried", fields);
    else this.logger.debug("remote read not retried: every waiting request's budget ends first", fields);
    // [C4] Retry only inside the budget: when every waiter's budget ends first, the budget timers resolve them.
    if (budgetLeft) this.timers.schedule(f, now + delay, LANE_HEAP);
  }

  /**
   * [C5] End a fetch for every waiter with the terminal `reason`; `detail` (what the producer or
   * transport said) goes into their log records. A fetch whose producer announced a greater epoch
   * during its read goes on there instead [C1][P8], unless a handshake refusal ends it and that
   * epoch is not greater than `refusedEpoch`, the greatest epoch the refusal covers.
   */
  private terminateFetch(f: Fetch, reason: FailureReasonName, now: number, detail = "", refusedEpoch = 0): void {
    if (f.disposed) return;
    if (f.successor !== undefined && f.successor.desc.epoch > refusedEpoch && this.resumeAtSuccessor(f, reason, now)) return;
    const read = f.read;
    this.disposeFetch(f);
    if (read !== undefined && read.fetch === f) this.orphanRead(read, ACK_FAILED, now);
    const attempts = f.attempts;
    let batch = this.together;
    let next = f.wHead;
    f.wHead = undefined;
    f.wTail = undefined;
    f.waiterCount = 0;
    while (next !== undefined) {
      const w = next;
      next = w.wNext;
      w.wPrev = undefined;
      w.wNext = undefined;
      w.fetch = undefined;
      this.timers.cancel(w);
      // [C3] A waiter whose budget ran out no longer waits (SPEC 4.4), even before its timer ran: the
      // fetch's outcome, handled at or after its deadline, is not its outcome.
      if (now >= w.budgetAt) batch = this.endWaiter(w, "BUDGET_EXHAUSTED", attempts, batch, waitedFor(f));
      else batch = this.endWaiter(w, reason, attempts, batch, { itemKey: f.keyId, producer: f.peer.id, detail });
    }
    if (batch !== undefined && this.together === undefined) for (const [req, list] of batch) this.failRequest(req, list, now);
  }

  /**
   * [C6] Run `end`, which ends several fetches at once (a handshake refusal, a producer gone or
   * restarted), so that a request losing items to more than one of them is reported once with
   * every one of them, not only the item of the fetch ended first.
   */
  private endTogether(now: number, end: () => void): void {
    if (this.together !== undefined) {
      end(); // inside another such event: its caller reports them all
      return;
    }
    const batch = new Map<Req, ItemFailure[]>();
    this.together = batch;
    try {
      end();
    } finally {
      this.together = undefined;
      // [I2] Reported even when `end` failed part-way (the caller logs that): the items gathered were
      // detached from their fetches and timers, so no later event would ever end them.
      for (const [req, list] of batch) this.failRequest(req, list, now);
    }
  }

  /**
   * [C5] The remote path of one waiter (already out of its fetch) ended with `reason`: local
   * encode with model input, else its failure is added to `batch` (one failRequest per request
   * once the caller has gone through every waiter). Returns the batch.
   */
  private endWaiter(
    w: Slot,
    reason: FailureReasonName,
    attempts: number,
    batch: Map<Req, ItemFailure[]> | undefined,
    source: FailureSource,
  ): Map<Req, ItemFailure[]> | undefined {
    if (w.hasModelInput) {
      // [C5] Local encode, and never another remote attempt for this (request, item).
      w.decision = { action: "local-encode", itemId: w.itemId, reason };
      w.req.view = undefined;
      this.metrics.counter("ectp_consumer_local_encodes_total", 1, this.byProducer.with(this.labels("reason", reason), source.producer));
      this.logger.warn("remote read failed; item falls back to local encode", { requestId: w.req.id, itemId: w.itemId, reason, attempts, ...source });
      return batch;
    }
    const failures = batch ?? new Map<Req, ItemFailure[]>();
    let list = failures.get(w.req);
    if (list === undefined) {
      list = [];
      failures.set(w.req, list);
    }
    const failure: ItemFailure = { itemId: w.itemId, reason, attempts };
    this.failureSource.set(failure, source);
    list.push(failure);
    return failures;
  }

  /** [C7] Nobody waits for a fetch any more. */
  private abandonFetch(f: Fetch, now: number): void {
    const read = f.read;
    this.disposeFetch(f);
    // Before a grant: the attempt is forgotten, so a late grant for it is ACKed ABANDONED at once [C7].
    if (read !== undefined && read.fetch === f) this.orphanRead(read, ACK_ABANDONED, now);
  }

  /** Retire a fetch: out of the key map (unless `replacement` takes its place), its peer's list and the timers. */
  private disposeFetch(f: Fetch, replacement?: Loaded): void {
    f.disposed = true;
    this.fetchCount--;
    if (replacement !== undefined) this.keys.setHashed(f.keyId, f.keyHash, replacement);
    else this.keys.deleteHashed(f.keyId, f.keyHash);
    const peer = f.peer;
    const prev = f.pPrev;
    const next = f.pNext;
    if (prev === undefined) peer.fHead = next;
    else prev.pNext = next;
    if (next === undefined) peer.fTail = prev;
    else next.pPrev = prev;
    f.pPrev = undefined;
    f.pNext = undefined;
    peer.fetchCount--;
    if (f.state === REQUESTING) this.attempts.delete(f.attemptId);
    this.timers.cancel(f);
  }

  // -------------------------------------------------------------------------------------
  // Reads
  // -------------------------------------------------------------------------------------

  /**
   * A read loses its fetch while unsettled: cancel it and keep its destination until it
   * settles [I5][C8]. A live grant is released with `ackStatus` (ABANDONED: nobody waits any
   * more; FAILED: the fetch ended terminally) only once the read settles, or is quarantined at
   * its deadline: never under a READ still running (SPEC 4.6). A grant already dead (peer gone,
   * epoch changed) gets no ReadComplete: the read is only quarantined.
   */
  private orphanRead(r: Read, ackStatus: number, now: number): void {
    r.fetch = undefined;
    if (!r.cancelled) {
      r.cancelled = true;
      this.out.push({ type: "cancel-read", readId: r.readId });
    }
    if (r.grantHeld) {
      // [C7][C8] SPEC 4.6: no ReadComplete while the read may still be reading the producer's memory.
      r.ackOnSettle = ackStatus;
      r.peer.ackWaiters.add(r);
      return; // keeps its deadline timer: unsettled at the deadline, it is quarantined [C8]
    }
    this.dropGrant(r);
    this.quarantine(r, now);
  }

  /** [C8] Hold the destination until the read settles or the quarantine cap passes. */
  private quarantine(r: Read, now: number): void {
    if (r.quarantined) return;
    r.quarantined = true;
    this.quarantinedCount++;
    this.metrics.counter("ectp_consumer_reads_quarantined_total", 1, this.byProducer.with(undefined, r.peer.id));
    // The cap runs from the read's own deadline at the earliest: a read orphaned early
    // (peer gone, epoch changed) may legitimately still be writing until then [I5]. With the
    // cap disabled (Infinity) the destination waits for the read to settle, however long.
    // (Its deadline timer, still pending for a read orphaned early, is replaced either way.)
    if (this.config.quarantineCapMs === Number.POSITIVE_INFINITY) this.timers.cancel(r);
    else this.timers.schedule(r, Math.max(now, r.deadline) + this.config.quarantineCapMs, LANE_HEAP);
  }

  private ackRead(r: Read, status: number, detail: string): void {
    if (!r.grantHeld) return;
    this.sendReadComplete(r.peer.id, r.grantId, status, detail);
    this.dropGrant(r);
  }

  private dropGrant(r: Read): void {
    if (r.ackOnSettle !== 0) {
      r.ackOnSettle = 0;
      r.peer.ackWaiters.delete(r);
    }
    if (!r.grantHeld) return;
    r.grantHeld = false;
    this.grantsHeldCount--;
    if (r.peer.grants.get(r.grantId) === r) r.peer.grants.delete(r.grantId);
    if (this.reads.get(r.readId) === r) {
      // Let go under a read still running: see `Peer.runningUngranted`.
      if (r.peer.runningUngranted === undefined) r.peer.runningUngranted = new Map();
      r.peer.runningUngranted.set(r.grantId, r);
    }
  }

  /**
   * `r` left the reads table (settled, or released at its quarantine cap): a fetch waiting for it
   * asks now, and its grant id is no longer a running read's.
   */
  private readEnded(r: Read, now: number): void {
    const f = r.blocked;
    if (f !== undefined) {
      r.blocked = undefined;
      // [C4] Only while still held back by a read: a fetch that has asked since (at that read's deadline)
      // and now waits for its backoff, or for budgets that end before its retry time, keeps that wait.
      if (!f.disposed && f.state === BLOCKED) this.timers.schedule(f, now, LANE_HEAP);
    }
    const running = r.peer.runningUngranted;
    if (running === undefined || running.get(r.grantId) !== r) return;
    running.delete(r.grantId);
    if (running.size === 0) r.peer.runningUngranted = undefined;
  }

  private releaseDest(dest: ReadDestination): void {
    this.destinationCount--;
    this.gate.callbacks++; // the pool is engine code: a call back into this core is refused
    try {
      this.pool.release(dest);
    } catch (cause) {
      this.logger.error("DestinationPool.release threw", { error: thrownText(cause) });
    } finally {
      this.gate.callbacks--;
    }
  }

  private onReadResult(given: ReadResult, now: number): void {
    const readId = given === null || typeof given !== "object" ? Number.NaN : given.readId;
    const r = typeof readId === "number" ? this.reads.get(readId) : undefined;
    if (r === undefined) {
      this.unknownReadSettled(readId, now);
      return;
    }
    const result = this.settlingResult(readId, given);
    if (result === undefined) return; // the read stays in flight
    this.reads.delete(readId);
    this.readEnded(r, now);
    this.timers.cancel(r);
    if (r.quarantined) {
      // [C8] Settled: the transport will not write any more, the destination may be freed [I5].
      this.quarantinedCount--;
      this.dropGrant(r);
      this.releaseDest(r.dest);
      return;
    }
    // [P8] A read the transport failed because the producer (its current epoch) is gone: the peer is
    // gone as if reported unreachable: no ReadComplete goes to it, and its other fetches end now.
    if (result.status !== "done" && result.peerGone === true && r.grantHeld && r.epoch === r.peer.knownEpoch) {
      this.readFailedWithPeerGone(r, result, now);
      return;
    }
    const f = r.fetch;
    if (f === undefined) {
      // [C7] Abandoned (or its fetch ended) during the read: ACK now that it settled, and free the destination.
      this.ackRead(r, r.ackOnSettle || ACK_ABANDONED, r.ackOnSettle === ACK_FAILED ? "fetch ended during the read" : "abandoned");
      this.releaseDest(r.dest);
      return;
    }
    f.read = undefined;
    let reason = this.verify(r, result, now);
    if (reason === undefined && !this.someWaiterMatches(f, r.checksumA)) {
      // [C11] Not one waiter's announcement agrees with the bytes: nothing is loaded.
      reason = "CHECKSUM_MISMATCH";
      this.verifyDetail = checksumDetail(this.verifiedCrc, r.checksumA !== -1 ? r.checksumA : ownChecksum(f, f.wHead as Slot, -1));
    }
    if (reason !== undefined) {
      this.releaseDest(r.dest);
      this.ackRead(r, ACK_FAILED, reason);
      this.terminateFetch(f, reason, now, this.verifyDetail);
      return;
    }
    this.load(f, r, now);
  }

  /** [C10] A result for a read not in flight: ignored, with a warning when the quarantine cap had released its destination [C8]. */
  private unknownReadSettled(readId: number, now: number): void {
    const released = this.releasedAtCap.get(readId);
    if (released === undefined) {
      this.ignore("unknown_read"); // [C10] unknown
      return;
    }
    // [C8] Settled after the cap released its destination: the bytes may have landed in memory reused since.
    this.releasedAtCap.delete(readId);
    this.ignore("settled_after_cap");
    this.logger.warn("a read settled after the quarantine cap released its destination; that memory may have been overwritten", {
      readId,
      itemKey: released.itemKey,
      producer: released.producer,
      afterCapMs: now - released.releasedAt,
    });
  }

  /**
   * The result a transport reported for a read in flight, its fields read once; undefined when it
   * does not settle the read (counted and logged: the read stays in flight).
   */
  private settlingResult(readId: number, given: ReadResult): ReadResult | undefined {
    // [I1][I5] Every field is read once, before anything changes: a field that throws when read (a
    // getter, a Proxy) then leaves the read in flight with its grant and destination, as an unknown
    // status does, instead of half released (out of the table, its grant never ACKed).
    let result: ReadResult;
    try {
      result = { readId, status: given.status, bytesRead: given.bytesRead, peerGone: given.peerGone, error: given.error, crc32c: given.crc32c };
    } catch (cause) {
      this.ignore("malformed_read_result");
      this.logger.error("transport reported a read result whose fields cannot be read; the read stays in flight", { readId, error: thrownText(cause) });
      return undefined;
    }
    const status = result.status;
    if (!settlesRead(status)) {
      // [C8][I5] Not one of the statuses that say the read settled: the transport may still write into
      // the destination, so nothing is freed. The read stays in flight, to end at its deadline (and be
      // quarantined) or when a result with a known status comes.
      this.ignore("malformed_read_result");
      this.logger.error("transport reported a read result whose status is not done, failed or cancelled; the read stays in flight", {
        readId,
        status: typeof status === "string" ? ownText(status, 40) : describeValue(status),
      });
      return undefined;
    }
    return result;
  }

  /** [P8] A read failed with its producer gone (reported by the transport): the fetch ends, and the peer is gone. */
  private readFailedWithPeerGone(r: Read, result: ReadResult, now: number): void {
    const f = r.fetch;
    this.dropGrant(r);
    this.releaseDest(r.dest);
    this.endTogether(now, () => {
      if (f !== undefined) {
        f.read = undefined;
        // [C11] Handled at or after its deadline, the outcome names the deadline, whatever the result says.
        const late = now >= r.deadline ? (now >= r.leaseDeadline ? "LEASE_EXPIRED" : "TRANSFER_TIMEOUT") : undefined;
        const error = typeof result.error === "string" ? `: ${ownText(result.error, 200)}` : "";
        this.terminateFetch(f, late ?? "PEER_UNREACHABLE", now, `the read failed with the producer gone${error}`); // [C5] after a grant: terminal
      }
      this.peerGone(r.peer, "unreachable", now, true); // [P8] the read was business with it, whatever is left
    });
  }

  /**
   * [C11] A read verified: the grant is ACKed OK and the fetch becomes a loaded copy, which every
   * waiter holds (ready at its next admission) unless its budget ran out [C3] or its own
   * announcement's checksum disagrees with the bytes; either fails the waiter's request. A copy
   * nobody holds is released at once.
   */
  private load(f: Fetch, r: Read, now: number): void {
    this.ackRead(r, ACK_OK, "");
    const l = new Loaded(f.keyId, f.keyHash, r.dest, r.sizeBytes);
    l.crc = this.verifiedCrc;
    this.disposeFetch(f, l); // the loaded copy takes the fetch's place in the key map
    this.loadedCount++;
    const labels = this.byProducer.with(undefined, r.peer.id);
    this.metrics.counter("ectp_consumer_items_loaded_total", 1, labels);
    this.metrics.histogram("ectp_consumer_read_duration_ms", now - r.startedAt, labels);
    let batch: Map<Req, ItemFailure[]> | undefined;
    let next = f.wHead;
    f.wHead = undefined;
    f.wTail = undefined;
    f.waiterCount = 0;
    while (next !== undefined) {
      const w = next;
      next = w.wNext;
      w.wPrev = undefined;
      w.wNext = undefined;
      w.fetch = undefined;
      this.timers.cancel(w);
      // [C3] Bytes loaded after a waiter's budget ran out do not revive it (its budget timer was due,
      // but a result handled before the poll at `now` comes first).
      if (now >= w.budgetAt) {
        batch = this.endWaiter(w, "BUDGET_EXHAUSTED", f.attempts, batch, waitedFor(f));
        continue;
      }
      // [C11] Each waiter is ready only if the bytes match its own announcement's checksum.
      const own = ownChecksum(f, w, r.checksumA);
      if (own !== -1 && own !== l.crc) batch = this.endWaiter(w, "CHECKSUM_MISMATCH", f.attempts, batch, { itemKey: f.keyId, producer: f.peer.id, detail: checksumDetail(l.crc, own) });
      else this.hold(w, l);
    }
    if (l.holders === 0) {
      this.keys.deleteHashed(l.keyId, l.keyHash);
      this.loadedCount--;
      this.releaseDest(l.dest);
    }
    if (batch !== undefined) for (const [req, list] of batch) this.failRequest(req, list, now);
  }

  /**
   * [C11] Whether some waiter's own announcement agrees with the bytes just verified (`verifiedCrc`,
   * -1 when not computed or not viewable): one without a checksum always does.
   */
  private someWaiterMatches(f: Fetch, checksumA: number): boolean {
    for (let w = f.wHead; w !== undefined; w = w.wNext) {
      const own = ownChecksum(f, w, checksumA);
      if (own === -1 || own === this.verifiedCrc) return true;
    }
    return false;
  }

  /** [C11] The CRC-32C of a loaded item's bytes, computed once (-1: the bytes cannot be viewed). */
  private loadedCrc(l: Loaded): number {
    if (l.crc === -1) {
      const view = this.viewOf(l.dest, l.sizeBytes);
      if (view !== undefined) l.crc = crc32c(view);
    }
    return l.crc;
  }

  /** The first `size` bytes of a destination, or undefined when the pool cannot show them. */
  private viewOf(dest: ReadDestination, size: number): Uint8Array | undefined {
    let view: Uint8Array | undefined;
    this.gate.callbacks++;
    try {
      view = this.pool.view(dest);
    } catch {
      return undefined;
    } finally {
      this.gate.callbacks--;
    }
    // A pool that gives something else than bytes gives no view: its checksum cannot be verified [C11].
    if (!(view instanceof Uint8Array) || view.length < size) return undefined;
    return view.length === size ? view : view.subarray(0, size);
  }

  /**
   * [C11][I6] Check a settled read: status, size, timeliness, checksum. Returns a failure reason
   * or undefined, and leaves the bytes' CRC-32C in `verifiedCrc` when it was needed or the transport
   * reported it (-1 otherwise).
   */
  private verify(r: Read, result: ReadResult, now: number): FailureReasonName | undefined {
    this.verifiedCrc = -1;
    this.verifyDetail = "";
    // [C11] Handled after its deadline, whatever its result: never loaded (after the lease the producer
    // may have reused the memory), and the outcome names the deadline.
    if (now >= r.deadline) return now >= r.leaseDeadline ? "LEASE_EXPIRED" : "TRANSFER_TIMEOUT";
    if (result.status !== "done") {
      // (Read with typeof only: the transport's result may be anything, and String() of it may throw.)
      this.verifyDetail = `read ${typeof result.status === "string" ? ownText(result.status, 20) : "not done"}${typeof result.error === "string" ? `: ${ownText(result.error, 200)}` : ""}`;
      return result.peerGone === true ? "PEER_UNREACHABLE" : "TRANSFER_FAILED";
    }
    if (result.bytesRead !== r.sizeBytes) {
      this.verifyDetail = `${typeof result.bytesRead === "number" ? result.bytesRead : "no count of"} bytes read, ${r.sizeBytes} expected`;
      return "SIZE_MISMATCH";
    }
    if (r.checksumA === -1 && r.checksumB === -1 && r.fetch?.otherChecksums === undefined) {
      // [C11] No checksum to verify now, but one the transport reported (asked for when the pool gives no
      // view) stays with the loaded bytes: a later announcement with a checksum is checked against it.
      const reported = result.crc32c;
      if (typeof reported === "number" && reported >>> 0 === reported) this.verifiedCrc = reported;
    } else {
      let crc = result.crc32c;
      // [C11] The transport's CRC of the landed bytes (ReadResult.crc32c), else computed here.
      if (typeof crc !== "number" || crc >>> 0 !== crc) {
        const view = this.viewOf(r.dest, r.sizeBytes);
        // Bytes that cannot be viewed cannot be verified: a checksum then counts as a mismatch [C11]
        // (the grant's for every waiter here; an announcement's for its own waiters, in load).
        if (view === undefined) {
          if (r.checksumB === -1) return undefined;
          this.verifyDetail = "checksum not verifiable: the pool gives no view of the destination and the transport reported no CRC-32C";
          return "CHECKSUM_MISMATCH";
        }
        crc = crc32c(view);
      }
      this.verifiedCrc = crc;
      // The grant's descriptor names the bytes for every waiter; announcements are checked per waiter.
      if (r.checksumB !== -1 && crc !== r.checksumB) {
        this.verifyDetail = `CRC-32C of the bytes read ${crc}, announced ${r.checksumB}`;
        return "CHECKSUM_MISMATCH";
      }
    }
    return undefined;
  }

  // -------------------------------------------------------------------------------------
  // Envelopes
  // -------------------------------------------------------------------------------------

  private onEnvelope(from: string, envelope: ectp.v1.IEnvelope, now: number): void {
    if (envelope === null || typeof envelope !== "object") {
      this.ignore("malformed");
      return;
    }
    const version = envelope.version;
    if (version === null || typeof version !== "object" || toNum(version.major) !== SPEC_MAJOR) {
      this.ignore("version"); // [V1]
      return;
    }
    const senderEpoch = toNum(envelope.senderEpoch);
    if (typeof envelope.senderId !== "string" || envelope.senderId.length === 0 || !isPositiveId(senderEpoch)) {
      this.ignore("malformed");
      return;
    }
    if (envelope.senderId !== from) {
      this.ignore("sender_mismatch");
      this.senderMismatch.note(this.logger, from, envelope.senderId, "sender_mismatch");
      return;
    }
    const peer = this.getPeer(from);
    // [P8] Epochs: older ones are stale; a newer one means the producer restarted.
    if (senderEpoch < peer.knownEpoch) {
      this.ignore("stale_epoch");
      return;
    }
    if (senderEpoch > peer.knownEpoch) this.onNewEpoch(peer, senderEpoch, now);
    peer.lastHeard = now;
    peer.goneUnheard = false;

    if (envelope.readGrant) this.onGrant(peer, senderEpoch, envelope.readGrant, now);
    else if (envelope.readReject) this.onReject(peer, envelope.readReject, now);
    else if (envelope.heartbeat) return; // liveness only [P8]
    else if (envelope.hello) this.onHello(peer, senderEpoch, envelope.hello);
    else if (envelope.handshakeReject) {
      if (!solicited(peer)) {
        this.ignore("unexpected");
        return;
      }
      // SPEC 4.2: a refusal is VERSION, INCOMPATIBLE or INTERNAL; any other reason reads as INTERNAL (terminal).
      const name = reasonName(toNum(envelope.handshakeReject.reason));
      const detail = peerDetail(envelope.handshakeReject.detail);
      this.onHandshakeReject(peer, name === "VERSION" || name === "INCOMPATIBLE" ? name : "INTERNAL", senderEpoch, now, detail);
    } else this.ignore("unexpected"); // [C10] messages a consumer does not expect
  }

  /** [P8] A producer's newer epoch: drop what belonged to the old one. */
  private onNewEpoch(peer: Peer, epoch: number, now: number): void {
    peer.knownEpoch = epoch;
    if (peer.connectedEpoch !== 0 && peer.connectedEpoch < epoch) {
      peer.connectedEpoch = 0;
      this.out.push({ type: "disconnect-peer", peerId: peer.id });
    }
    if (peer.helloEpoch < epoch) {
      peer.helloEpoch = 0;
      peer.awaitingHello = true;
    }
    if (peer.greetedEpoch < epoch) peer.greetedEpoch = 0; // SPEC 4.2: greeted only an older epoch
    peer.intervalMs = 0; // until the new epoch's Hello
    if (peer.metadataEpoch < epoch) peer.metadata = undefined;
    if (peer.announced !== undefined) for (const e of peer.announced.keys()) if (e < epoch) peer.announced.delete(e);
    // (A refusal of an older epoch stays recorded: it refuses nothing the greater epoch did not, and
    // it keeps the record through forgetIdlePeers, so the refused epoch is never asked again, SPEC 4.2.)
    // Grants of the old epoch died with it.
    for (const r of peer.grants.values()) if (r.epoch < epoch) this.dropGrant(r);
    for (const r of Array.from(peer.ackWaiters)) if (r.epoch < epoch) this.dropGrant(r);
    // [P8][C5] Attempts, grants and reads of the old epoch: terminal EPOCH_CHANGED.
    this.endTogether(now, () => {
      for (const f of peerFetches(peer))
        if (!f.disposed && f.epoch < epoch) this.terminateFetch(f, "EPOCH_CHANGED", now, `the producer restarted as epoch ${epoch}; the item was announced in epoch ${f.epoch}`);
    });
  }

  private onHello(peer: Peer, epoch: number, hello: ectp.v1.IHello): void {
    const role = toNum(hello.role);
    if (role !== ectp.v1.Role.ROLE_PRODUCER && role !== ectp.v1.Role.ROLE_BOTH) {
      this.ignore("unexpected");
      return;
    }
    // SPEC 4.1: a Hello repeating the epoch whose Hello was applied is a duplicate: it changes no state [C10].
    if (peer.heardHelloEpoch === epoch) {
      this.ignore("duplicate_hello");
      return;
    }
    peer.heardHelloEpoch = epoch;
    const hb = toNum(hello.heartbeatIntervalMs);
    peer.intervalMs = peerHeartbeatIntervalMs(hb, this.config.heartbeatIntervalMs); // [P8] 0: 2000 ms; at most 60 s
    const meta = hello.transportMetadata;
    if (meta instanceof Uint8Array && meta.length > 0) {
      this.noteMetadata(peer, epoch, meta, true);
      // Connect once per producer epoch when we have business with it, and never back to an older one.
      if (peer.connectedEpoch < epoch && peer.fetchCount > 0) {
        peer.connectedEpoch = epoch;
        this.out.push({ type: "connect-peer", peerId: peer.id, epoch, metadata: meta });
      }
    }
  }

  /**
   * SPEC 4.2: the rejecting peer gets no reads in `epoch` (0: not known, read as every epoch); the
   * fetches asking that epoch end with its reason [C5]. A greater epoch of the peer refused nothing:
   * a fetch an announcement already moved there goes on (and that epoch's Hello stands), and one
   * whose read a greater epoch's announcement came during moves there [C1].
   */
  private onHandshakeReject(peer: Peer, reason: FailureReasonName, epoch: number, now: number, detail: string): void {
    const refused = epoch > 0 ? epoch : Number.POSITIVE_INFINITY;
    // [V1][P8] Not known (0): every epoch we asked of it is refused (those our fetches ask and the one our
    // Hello greeted, which a refusal arriving after the fetches ended answers); the greatest is recorded
    // (at least 1: one naming no epoch is acted on only when it answers ours, see `solicited`).
    let recorded = epoch;
    if (epoch === 0) {
      recorded = peer.greetedEpoch;
      for (let f = peer.fHead; f !== undefined; f = f.pNext) recorded = Math.max(recorded, f.epoch);
    }
    if (recorded >= peer.rejectedEpoch) {
      // Epochs up to the greatest refused stay refused (an older epoch's later refusal narrows nothing).
      peer.rejectedEpoch = recorded;
      peer.rejectedReason = reason;
    }
    if (peer.helloEpoch <= refused) peer.helloEpoch = 0;
    if (peer.greetedEpoch <= refused) peer.greetedEpoch = 0; // its greeting refused: a second refusal answers none
    this.endTogether(now, () => {
      for (const f of peerFetches(peer)) if (!f.disposed && f.epoch <= refused) this.terminateFetch(f, reason, now, detail, refused);
    });
  }

  private onGrant(peer: Peer, senderEpoch: number, g: ectp.v1.IReadGrant, now: number): void {
    const grantId = toNum(g.grantId);
    const attemptId = toNum(g.attemptId);
    if (!isPositiveId(grantId)) {
      this.ignore("malformed");
      return;
    }
    if (peer.grants.has(grantId) || peer.runningUngranted?.get(grantId)?.epoch === senderEpoch) {
      // [C10] Same grant twice: never ACK it (that would release the live one, or unpin the item under a read still running).
      this.ignore("duplicate_grant");
      return;
    }
    const f = this.attempts.get(attemptId);
    if (f === undefined || f.peer !== peer || f.state !== REQUESTING || f.attemptId !== attemptId) {
      // [C7][C10] Nobody wants this grant (finished, abandoned, timed out, already loaded, unknown): release it at once.
      this.sendReadComplete(peer.id, grantId, ACK_ABANDONED, "no request wants this grant");
      this.ignore("unwanted_grant");
      return;
    }
    this.attempts.delete(attemptId);
    this.timers.cancel(f);
    // [C3] A waiter whose budget ended as the grant arrived was waiting for this grant, and its warning
    // says so (waitingFor "grant", not "retry"): the fetch stays REQUESTING until the grant is read or
    // refused, or is parked with `grantCameLate` below.
    if (budgetsOver(f, now)) {
      f.state = IDLE;
      f.grantCameLate = true;
      // [C3][C7] Every request waiting for it is past its budget (each resolved at the next poll):
      // nobody will use the bytes, so the grant is released unread. A request joining before then resumes the fetch.
      this.sendReadComplete(peer.id, grantId, ACK_ABANDONED, "every waiting request is past its budget");
      this.ignore("unwanted_grant"); // [C10] released and counted, as every grant nobody waits for
      return;
    }
    // The grant's descriptor must name the announced item: same key, size and epoch [C11][P8].
    let item = this.sameItem(f, g.item);
    const grantLocation = this.scratchLocation;
    this.scratchLocation = EMPTY_BYTES; // (holds no frame past the call)
    if (item === undefined) {
      const checked = this.checkGrantedDescriptor(f, g.item);
      if (checked instanceof GrantProblem) {
        this.grantFailed(f, peer, grantId, checked.reason, now, checked.detail);
        return;
      }
      item = checked;
    }
    if (senderEpoch !== f.epoch) {
      this.grantFailed(f, peer, grantId, "EPOCH_CHANGED", now, `the grant came from epoch ${senderEpoch}, the announcement named ${f.epoch}`);
      return;
    }
    const itemChecksum = item === f.desc ? this.scratchChecksum : (item as ValidDescriptor).checksum?.crc32c ?? -1;
    const location = item === f.desc ? grantLocation : (item as ValidDescriptor).location;
    // [C11] Conservative lease: the smaller of the grant's lease_ms (0: 30 000) and our own, from receipt, minus the safety margin.
    const leaseDeadline = now + Math.min(grantLeaseMs(toNum(g.leaseMs)), this.config.leaseMs) - this.config.leaseSafetyMarginMs;
    if (leaseDeadline <= now) {
      this.grantFailed(f, peer, grantId, "LEASE_EXPIRED", now, this.leaseTooShort(peer, grantLeaseMs(toNum(g.leaseMs))));
      return;
    }
    const deadline = Math.min(now + this.config.transferTimeoutMs, leaseDeadline);
    const dest = this.allocateOrGiveBack(f, peer, grantId, now);
    if (dest === undefined) return; // the grant given back (retried) or the fetch ended
    const announcedChecksum = f.desc.checksum?.crc32c ?? -1;
    const readId = ++this.nextReadId;
    const r = new Read(
      readId,
      peer,
      grantId,
      f.epoch,
      f.keyId,
      f.desc.sizeBytes,
      dest,
      deadline,
      leaseDeadline,
      now,
      announcedChecksum,
      itemChecksum,
      f,
    );
    this.grantsHeldCount++;
    peer.grants.set(grantId, r);
    this.reads.set(readId, r);
    f.state = READING;
    f.read = r;
    this.timers.schedule(r, deadline, LANE_READ);
    this.connectFor(f); // metadata learnt since the ReadRequest (a joining announcement) is loaded before the read
    const source = location.length > 0 ? location : f.desc.location;
    // [C11] A transport that can compute the landed bytes' CRC off this thread is asked to whenever some
    // checksum needs it, and whenever the pool gives no view of the destination: an announcement with a
    // checksum may join the read in flight, or ask for the loaded bytes later, and only the transport's
    // CRC can then verify them.
    const crc = r.checksumA !== -1 || r.checksumB !== -1 || f.otherChecksums !== undefined || this.viewOf(dest, f.desc.sizeBytes) === undefined;
    this.out.push({ type: "start-read", readId, peerId: peer.id, source, destination: dest, crc32c: crc });
  }

  /**
   * A destination from the engine's pool for a granted read of `f`, or undefined when there is none:
   * a full pool (or one that throws) gives the grant back and retries the fetch within its budget
   * [C4]; a destination of another length than the item's breaks the pool's contract and ends the
   * fetch (INTERNAL).
   */
  private allocateOrGiveBack(f: Fetch, peer: Peer, grantId: number, now: number): ReadDestination | undefined {
    let dest: ReadDestination | undefined;
    this.gate.callbacks++;
    try {
      dest = this.pool.allocate(f.keyId, f.desc.sizeBytes);
    } catch (cause) {
      this.logger.error("DestinationPool.allocate threw; treated as full", { error: thrownText(cause) });
      dest = undefined;
    } finally {
      this.gate.callbacks--;
    }
    if (dest === undefined || dest === null) {
      // [C4] Local pool full: give the grant back and retry inside the budget.
      this.sendReadComplete(peer.id, grantId, ACK_ABANDONED, "destination pool full");
      this.retryFetch(f, "OVERLOADED", 0, now);
      return undefined;
    }
    this.destinationCount++;
    if (dest.length !== f.desc.sizeBytes) {
      // The pool broke DestinationPool.allocate's contract: a read of another length would take other
      // bytes than the item's from the producer (and end SIZE_MISMATCH after the transfer). Terminal.
      this.logger.error("DestinationPool.allocate returned a destination whose length is not the item's size; return exactly sizeBytes", {
        keyId: f.keyId,
        sizeBytes: f.desc.sizeBytes,
        length: dest.length,
      });
      this.releaseDest(dest);
      this.grantFailed(f, peer, grantId, "INTERNAL", now, `the destination pool returned ${dest.length} bytes for an item of ${f.desc.sizeBytes}`);
      return undefined;
    }
    return dest;
  }

  /**
   * SPEC 4.4 step 2, for a grant whose descriptor is not the announced one as given (`sameItem` said
   * no): the descriptor, when it names the same item (key, epoch and size) in another form; else why the
   * grant cannot be read, on the first difference in SPEC's order [C11][P8]. An absent size, or no
   * descriptor at all, is proto3's 0 (as decoded bytes give it), which differs from the announcement's.
   */
  private checkGrantedDescriptor(f: Fetch, granted: unknown): ValidDescriptor | GrantProblem {
    const checked = validateDescriptor(granted, this.limits);
    if (!checked.ok) {
      let rawSize: number;
      try {
        const size = (granted as ectp.v1.IItemDescriptor | null | undefined)?.sizeBytes;
        rawSize = size === undefined || size === null ? 0 : toNum(size);
      } catch {
        rawSize = Number.NaN;
      }
      if (Number.isFinite(rawSize) && rawSize !== f.desc.sizeBytes)
        return new GrantProblem("SIZE_MISMATCH", `the grant names ${rawSize} bytes, the announcement ${f.desc.sizeBytes}`);
      return new GrantProblem("INVALID_ANNOUNCEMENT", `the grant's descriptor is invalid: ${checked.error.message}`);
    }
    const d = checked.value;
    if (d.keyId !== f.keyId) return new GrantProblem("INVALID_ANNOUNCEMENT", "the grant's descriptor names another item key than the one requested");
    if (d.epoch !== f.epoch) return new GrantProblem("EPOCH_CHANGED", `the grant's descriptor names epoch ${d.epoch}, the announcement ${f.epoch}`);
    if (d.sizeBytes !== f.desc.sizeBytes) return new GrantProblem("SIZE_MISMATCH", `the grant names ${d.sizeBytes} bytes, the announcement ${f.desc.sizeBytes}`);
    return d;
  }

  /**
   * [C11] A grant whose lease (`leaseMs`, its lease_ms with 0 read as 30 000) leaves no time to read
   * after the safety margin: the detail of its LEASE_EXPIRED. Every grant of such a producer ends so,
   * which is said once in a warning (off the path of a usable grant); each item's failure names it too.
   */
  private leaseTooShort(peer: Peer, leaseMs: number): string {
    if (!this.shortLeaseWarned) {
      this.shortLeaseWarned = true;
      this.logger.warn(
        "a producer grants leases no longer than leaseSafetyMarginMs: every read of its grants ends LEASE_EXPIRED before it starts; raise the producer's leaseMs well above this consumer's leaseSafetyMarginMs",
        { producer: peer.id, leaseMs, leaseSafetyMarginMs: this.config.leaseSafetyMarginMs },
      );
    }
    const lease = `the grant's lease of ${leaseMs} ms (at most leaseMs, ${this.config.leaseMs} ms)`;
    return `${lease} is not longer than leaseSafetyMarginMs (${this.config.leaseSafetyMarginMs} ms)`;
  }

  private grantFailed(f: Fetch, peer: Peer, grantId: number, reason: FailureReasonName, now: number, detail: string): void {
    this.sendReadComplete(peer.id, grantId, ACK_FAILED, reason);
    this.terminateFetch(f, reason, now, detail);
  }

  /**
   * Fast path of grant validation: when the grant's descriptor is field for field the
   * announced one (key bytes, fingerprint, size, epoch, producer, dtype and shape) it needs
   * no second full validation. Returns `f.desc` (with the grant's checksum and location in
   * scratch fields) or undefined to fall back to `validateDescriptor`. Never throws.
   */
  private sameItem(f: Fetch, raw: unknown): ValidDescriptor | undefined {
    try {
      if (raw === null || typeof raw !== "object") return undefined;
      const d = raw as ectp.v1.IItemDescriptor;
      const desc = f.desc;
      if (d.sizeBytes !== desc.sizeBytes || d.epoch !== desc.epoch || d.producerId !== desc.producerId) return undefined;
      const key = d.key;
      if (key === null || typeof key !== "object") return undefined;
      const hash = key.contentHash;
      const want = desc.contentHash;
      if (!(hash instanceof Uint8Array) || hash.length !== want.length) return undefined;
      for (let i = 0; i < want.length; i++) if (hash[i] !== want[i]) return undefined;
      const fp = key.fingerprint;
      const nf = desc.fingerprint;
      if (fp === null || fp === undefined) {
        if (nf.model !== "" || nf.dtype !== 0 || nf.rowBytes !== 0 || nf.layoutVersion !== 0) return undefined;
      } else if (
        typeof fp !== "object" ||
        (fp.model ?? "") !== nf.model ||
        (fp.dtype ?? 0) !== nf.dtype ||
        (fp.rowBytes ?? 0) !== nf.rowBytes ||
        (fp.layoutVersion ?? 0) !== nf.layoutVersion
      )
        return undefined;
      if ((d.dtype ?? 0) !== desc.dtype) return undefined;
      const shape = d.shape;
      if (shape !== null && shape !== undefined) {
        if (!Array.isArray(shape) || shape.length !== desc.shape.length) return undefined;
        for (let i = 0; i < shape.length; i++) if (shape[i] !== desc.shape[i]) return undefined;
      } else if (desc.shape.length !== 0) return undefined;
      const location = d.location;
      if (location !== null && location !== undefined && !(location instanceof Uint8Array)) return undefined;
      const cs = d.checksum;
      let crc = -1;
      if (cs !== null && cs !== undefined) {
        if (typeof cs !== "object") return undefined;
        const algorithm = cs.algorithm ?? 0;
        if (algorithm === ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C) {
          const v = cs.value;
          if (!(v instanceof Uint8Array) || v.length !== 4) return undefined;
          crc = (((v[0] as number) << 24) | ((v[1] as number) << 16) | ((v[2] as number) << 8) | (v[3] as number)) >>> 0;
        } else if (algorithm !== 0) return undefined;
      }
      this.scratchChecksum = crc;
      this.scratchLocation = location ?? EMPTY_BYTES;
      return desc;
    } catch {
      return undefined;
    }
  }

  private onReject(peer: Peer, rj: ectp.v1.IReadReject, now: number): void {
    const attemptId = toNum(rj.attemptId);
    const f = this.attempts.get(attemptId);
    if (f === undefined || f.peer !== peer || f.state !== REQUESTING || f.attemptId !== attemptId) {
      this.ignore("unwanted_reject"); // [C10] second reject, reject after grant, unknown attempt
      return;
    }
    const value = toNum(rj.reason);
    let known = reasonName(value);
    // [C5] Request-outcome-only reasons are never sent in a ReadReject: one that is counts as INTERNAL (SPEC.md section 11).
    if (known !== undefined && REQUEST_OUTCOME_ONLY.has(known)) known = "INTERNAL";
    // [C4][C5] Known reasons (UNSPECIFIED: INTERNAL) follow the SPEC.md table; only an unknown value follows the producer's retryable flag.
    const retryable = known !== undefined ? isRetryableReject(known) : value > 0 && rj.retryable === true;
    const reason: FailureReasonName = known ?? "INTERNAL";
    if (retryable) {
      const hint = toNum(rj.retryAfterMs);
      this.retryFetch(f, reason, Number.isFinite(hint) && hint > 0 ? hint : 0, now); // [C4]
    } else this.terminateFetch(f, reason, now, peerDetail(rj.detail)); // [C5]
  }

  // -------------------------------------------------------------------------------------
  // Peers and heartbeats [P8]
  // -------------------------------------------------------------------------------------

  /**
   * [P8] Business with `peer` begins after a stretch with none: a producer with no business MAY
   * have fallen silent (SPEC 4.7), so its silence is measured from now and our next heartbeat is
   * due an interval from now. A liveness timer left pending from the last stretch (it stops only
   * when it fires) keeps its place and reads these when it fires.
   */
  private startBusiness(peer: Peer, now: number): void {
    peer.businessSince = now;
    peer.nextHeartbeatAt = now + this.config.heartbeatIntervalMs;
  }

  private ensurePeerTimer(peer: Peer, now: number): void {
    if (peer.tLane !== -1) {
      if (peer.idleSince === NOT_IDLE) return;
      this.timers.cancel(peer); // its idle timer: business again
    }
    peer.idleSince = NOT_IDLE;
    this.startBusiness(peer, now);
    this.timers.schedule(peer, Math.min(peer.nextHeartbeatAt, this.deadAt(peer)), LANE_HEAP);
  }

  private deadAt(peer: Peer): number {
    const since = Math.max(peer.lastHeard, peer.businessSince);
    // [P8] Judged with the larger of our interval and the one the producer's Hello announced.
    return since + this.config.heartbeatMisses * Math.max(this.config.heartbeatIntervalMs, peer.intervalMs);
  }

  private onPeerTimer(peer: Peer, now: number): void {
    if (peer.fetchCount === 0 && peer.ackWaiters.size === 0) {
      // No business: heartbeats stop [P8]. A connection left idle for idlePeerMs is let go.
      if (peer.connectedEpoch === 0) {
        peer.quietSince = now; // no connection to let go: its greeting is dropped at the next business, if idle long enough
        return;
      }
      if (peer.idleSince === NOT_IDLE) {
        peer.idleSince = now;
        this.timers.schedule(peer, now + this.config.idlePeerMs, LANE_HEAP);
      } else this.letGo(peer);
      return;
    }
    peer.idleSince = NOT_IDLE; // business again (an abandoned read's ACK, say), found by the idle timer
    if (now >= this.deadAt(peer)) {
      this.peerGone(peer, "silent", now);
      return;
    }
    if (now >= peer.nextHeartbeatAt) {
      // [P8] SPEC 4: the first message to a new epoch of the producer is a Hello, not a Heartbeat.
      if (!peer.awaitingHello) this.send(peer.id, { heartbeat: { sequence: ++peer.heartbeatSeq } });
      peer.nextHeartbeatAt = now + this.config.heartbeatIntervalMs;
    }
    this.timers.schedule(peer, Math.min(peer.nextHeartbeatAt, this.deadAt(peer)), LANE_HEAP);
  }

  /**
   * [P8] A producer idle for `idlePeerMs`: its connection is dropped. It may have forgotten us too
   * (we stopped heartbeating it), so the next fetch from it connects and greets it again; its
   * metadata and epoch are kept for that.
   */
  private letGo(peer: Peer): void {
    peer.idleSince = NOT_IDLE;
    if (peer.connectedEpoch === 0) return; // (let go of meanwhile: a newer epoch, say)
    this.logger.debug("producer idle; its connection is let go until the next fetch from it", { peerId: peer.id, epoch: peer.connectedEpoch });
    this.out.push({ type: "disconnect-peer", peerId: peer.id });
    peer.connectedEpoch = 0;
    peer.helloEpoch = 0;
    peer.heardHelloEpoch = 0;
  }

  /**
   * [P8] A producer is gone: retry pre-grant work, fail granted work, forget its connection and its
   * Hello's metadata (an announcement's stays, SPEC 4). `busy`: the caller already ended business
   * with it (a read the transport failed with the producer gone), which counts as business here.
   */
  private peerGone(peer: Peer, why: "silent" | "unreachable", now: number, busy = false): void {
    this.timers.cancel(peer);
    peer.idleSince = NOT_IDLE;
    const hadState = peer.connectedEpoch !== 0 || peer.fetchCount > 0 || peer.ackWaiters.size > 0;
    peer.helloEpoch = 0; // [P8] forgotten, whatever it held: the next message to it is a new Hello
    peer.heardHelloEpoch = 0; // and the Hello answering it is applied afresh
    if (!hadState && !busy) return;
    const fields = { peerId: peer.id, cause: why };
    if (busy || peer.fetchCount > 0 || peer.ackWaiters.size > 0) {
      // [P8] An outage is counted and warned of once, where it ended business with the producer: declared
      // gone again with nothing heard since (each retry's new Hello unanswered) is the same outage, at info.
      if (peer.goneUnheard) this.logger.info("producer still gone (nothing heard since it was declared gone); granted work fails, the rest retries", fields);
      else {
        this.metrics.counter("ectp_consumer_peers_gone_total", 1, this.byProducer.with(this.labels("cause", why), peer.id));
        this.logger.warn("producer is gone; granted work fails, the rest retries", fields);
      }
      peer.goneUnheard = true;
    } else this.logger.info("idle producer reported unreachable; its connection is let go", fields); // [P8] no business: no outage
    this.out.push({ type: "disconnect-peer", peerId: peer.id });
    peer.connectedEpoch = 0;
    // SPEC 4: a producer declared gone takes its Hello's metadata with it, not what its announcements
    // carried (`peer.announced`, which connectFor reads).
    peer.metadata = undefined;
    peer.metadataEpoch = 0;
    for (const r of Array.from(peer.ackWaiters)) this.dropGrant(r);
    const goneDetail =
      why === "silent"
        ? `nothing heard from the producer in ${this.config.heartbeatMisses} heartbeat intervals during the read`
        : "the transport reported the producer unreachable during the read";
    this.endTogether(now, () => {
      for (const f of peerFetches(peer)) {
        if (f.disposed) continue;
        if (f.state === READING) {
          const r = f.read;
          if (r !== undefined) this.dropGrant(r); // the producer releases its grants for us
          this.terminateFetch(f, "PEER_UNREACHABLE", now, goneDetail); // [C5] after a grant: terminal
        } else if (f.state === REQUESTING) this.retryFetch(f, "PEER_UNREACHABLE", 0, now); // [C4] before a grant
      }
    });
    for (const r of peer.grants.values()) this.dropGrant(r);
  }

  // -------------------------------------------------------------------------------------
  // Timers
  // -------------------------------------------------------------------------------------

  private runTimers(now: number): void {
    for (;;) {
      const rec = this.timers.popDue(now);
      if (rec === undefined) return;
      switch (rec.tKind) {
        case T_BUDGET:
          this.onBudgetTimer(rec as Slot, now);
          break;
        case T_FETCH:
          this.onFetchTimer(rec as Fetch, now);
          break;
        case T_READ:
          this.onReadTimer(rec as Read, now);
          break;
        case T_PEER:
          this.onPeerTimer(rec as Peer, now);
          break;
      }
    }
  }

  /** [C3] A (request, item) budget ran out: resolved now, within budget + one step [I2]. */
  private onBudgetTimer(slot: Slot, now: number): void {
    if (slot.decision !== undefined || slot.fetch === undefined || slot.req.failure !== undefined) return;
    if (slot.hasModelInput) this.resolveLocal(slot, "BUDGET_EXHAUSTED", now);
    else {
      // [C6] Every item of the request whose budget ran out by now (without model input) is reported,
      // as an admission at this instant reports them, not only the one whose timer ran first.
      const req = slot.req;
      const ended: Slot[] = [];
      for (let i = 0; i < req.slotCount; i++) {
        const s = slotAt(req, i) as Slot;
        if (s === slot || exhaustedWithoutModelInput(s, now)) ended.push(s);
      }
      const failures = ended.map((s) => this.exhaustFailure(s));
      const batch = this.together;
      if (batch === undefined) this.failRequest(req, failures, now);
      else {
        // Inside a poll: reported with whatever else ends the request at this drive; these slots stop waiting now.
        for (const s of ended) this.detach(s, now);
        const list = batch.get(req);
        if (list === undefined) batch.set(req, failures);
        // [I2] One push per failure: a spread passes one argument per item, past V8's stack for a request of ~125,000 items.
        else for (const f of failures) list.push(f);
      }
    }
  }

  private onFetchTimer(f: Fetch, now: number): void {
    if (f.disposed) return;
    if (f.state === REQUESTING) {
      // [C4] No grant or reject in time: retryable (background failure 3), not terminal.
      this.metrics.counter("ectp_consumer_grant_timeouts_total", 1, this.byProducer.with(undefined, f.peer.id));
      this.logger.info("no grant within the grant wait", { itemKey: f.keyId, producer: f.peer.id, attempt: f.attempts });
      this.retryFetch(f, "GRANT_TIMEOUT", 0, now);
      return;
    }
    if (f.state === IDLE || f.state === BLOCKED) {
      for (let w = f.wHead; w !== undefined; w = w.wNext) {
        if (w.budgetAt > now) {
          this.sendAttempt(f, now);
          return;
        }
      }
      // No budget left: parked without a timer, as IDLE, so that a request joining it resumes it (applyPlan).
      f.state = IDLE;
    }
  }

  private onReadTimer(r: Read, now: number): void {
    if (r.quarantined) {
      // [C8] Quarantine cap: release the handle even though the transport never said it settled.
      this.reads.delete(r.readId);
      this.readEnded(r, now);
      this.quarantinedCount--;
      this.dropGrant(r);
      this.releaseDest(r.dest);
      this.metrics.counter("ectp_consumer_quarantine_cap_releases_total", 1, this.byProducer.with(undefined, r.peer.id));
      this.logger.warn("quarantined read never settled; destination released at the cap", { readId: r.readId, itemKey: r.keyId, producer: r.peer.id });
      if (this.releasedAtCap.size >= RELEASED_AT_CAP_KEPT) this.releasedAtCap.delete(this.releasedAtCap.keys().next().value as number);
      this.releasedAtCap.set(r.readId, { itemKey: r.keyId, producer: r.peer.id, releasedAt: now });
      return;
    }
    // [C8] Unsettled at its deadline: cancel, quarantine, ACK, and fail its waiters with TRANSFER_TIMEOUT
    // (LEASE_EXPIRED when the lease deadline was the earlier).
    const reason = r.deadline >= r.leaseDeadline ? "LEASE_EXPIRED" : "TRANSFER_TIMEOUT";
    if (!r.cancelled) {
      r.cancelled = true;
      this.out.push({ type: "cancel-read", readId: r.readId });
    }
    this.ackRead(r, r.ackOnSettle || ACK_FAILED, reason === "LEASE_EXPIRED" ? "lease expired" : "transfer timeout");
    this.dropGrant(r);
    this.quarantine(r, now);
    const f = r.fetch;
    if (f !== undefined) {
      r.fetch = undefined;
      f.read = undefined;
      const detail =
        reason === "LEASE_EXPIRED"
          ? "the read had not settled when the grant's lease (less the safety margin) ended; it is cancelled and quarantined"
          : `the read had not settled after transferTimeoutMs (${this.config.transferTimeoutMs} ms); it is cancelled and quarantined`;
      this.terminateFetch(f, reason, now, detail);
    }
  }

  // -------------------------------------------------------------------------------------
  // Output and observability helpers
  // -------------------------------------------------------------------------------------

  /** [I1] The engine's clock reading (see `checkedNow`); the latest one is remembered. */
  private acceptNow(now: number): number {
    const t = checkedNow(now, this.lastNow, this.logger);
    if (t > this.lastNow) this.lastNow = t;
    return t;
  }


  // Envelopes are built whole (body, version, sender id and epoch, in that order), not extended after
  // creation: a literal that gains properties later moves them into an extra backing store.

  private sendReadRequest(peerId: string, readRequest: ectp.v1.IReadRequest): void {
    const envelope = { readRequest, version: SPEC_VERSION, senderId: this.id, senderEpoch: this.epoch };
    this.out.push({ type: "send", peerId, envelope });
  }

  private sendReadComplete(peerId: string, grantId: number, status: number, detail: string): void {
    const envelope = {
      readComplete: { grantId, status, detail },
      version: SPEC_VERSION,
      senderId: this.id,
      senderEpoch: this.epoch,
    };
    this.out.push({ type: "send", peerId, envelope });
  }

  private send(peerId: string, body: ectp.v1.IEnvelope): void {
    const envelope = body as { version?: unknown; senderId?: string; senderEpoch?: number };
    envelope.version = SPEC_VERSION;
    envelope.senderId = this.id;
    envelope.senderEpoch = this.epoch;
    this.out.push({ type: "send", peerId, envelope: body });
  }

  /** Outstanding requests, grants held [C7] and quarantined reads [C8] on their gauges: each one that changed since the last poll (called by poll when one did). */
  private setGauges(): void {
    if (this.requests.size !== this.gaugedRequests) {
      this.gaugedRequests = this.requests.size;
      this.metrics.gauge("ectp_consumer_requests", this.gaugedRequests);
    }
    if (this.grantsHeldCount !== this.gaugedGrantsHeld) {
      this.gaugedGrantsHeld = this.grantsHeldCount;
      this.metrics.gauge("ectp_consumer_grants_held", this.gaugedGrantsHeld);
    }
    if (this.quarantinedCount !== this.gaugedQuarantined) {
      this.gaugedQuarantined = this.quarantinedCount;
      this.metrics.gauge("ectp_consumer_quarantined_reads", this.gaugedQuarantined);
    }
  }

  /** [C10] Count an ignored message under `reason` (snake_case, as the producer's reasons). */
  private ignore(reason: string): void {
    this.ignoredCount++;
    this.metrics.counter("ectp_consumer_ignored_messages_total", 1, this.labels("reason", reason));
  }

  private labels(key: string, value: string): Labels {
    const cacheKey = `${key}\u0000${value}`;
    let l = this.labelCache.get(cacheKey);
    if (l === undefined) {
      l = Object.freeze({ [key]: value });
      this.labelCache.set(cacheKey, l);
    }
    return l;
  }

  private guard(where: string, fn: () => void): void {
    try {
      fn();
    } catch (cause) {
      this.guardFailed(where, cause);
    }
  }

  /** The catch half of {@link guard}, for hot paths that inline the try (no closure per call). */
  private guardFailed(where: string, cause: unknown): void {
    // [I1] A fault of our own must not stop the engine; it is logged loudly instead.
    this.logger.error(`consumer ${where} failed`, { error: thrownText(cause) });
  }
}

/**
 * The subscriber side of a producer's events [E1][E2], as a sans-IO state machine: what a
 * router (or a consumer that routes) runs to keep a view of the ready items of each producer
 * it follows, over a network that loses, duplicates and reorders control messages.
 */
import {
  EctpError,
  SPEC_MAJOR,
  SPEC_VERSION,
  decodeEnvelope,
  describeValue,
  ectp,
  fingerprintsEqual,
  itemDescriptorByteLength,
  refuseUnknownOptions,
  thrownText,
  tryItemKeyId,
} from "@ectp/protocol";
import { checkedNow } from "../clock.js";
import { reasonName } from "../consumer/reasons.js";
import { DEFAULT_SUBSCRIBER_CONFIG, DEFAULT_TIMERS, fingerprintOption, peerHeartbeatIntervalMs, readOptions, transportMetadataOption } from "../config.js";
import { HookGate, type Labels, type Logger, type MetricsSink, containLogger, containMetrics, METRICS_HOOK_THREW, reentrantCall, SenderMismatchWarning } from "../observability.js";
import type { ConnectPeerOutput, DisconnectPeerOutput, SendOutput } from "../outputs.js";
import { isPartialView, ownText } from "../owned.js";
import { EVENTS_CAPABILITY } from "../producer/producer.js";

/** A heartbeat interval a peer has not told (SPEC.md 4.1: 0 means the default). */
const DEFAULT_INTERVAL_MS = DEFAULT_TIMERS.heartbeatIntervalMs;

/** Whether `list` is an array of objects (what a batch's events and a snapshot's items must be). */
function allObjects(list: unknown): list is object[] {
  return Array.isArray(list) && list.every((e) => e !== null && typeof e === "object");
}

/**
 * What a part of a snapshot in parts that holds no item the subscriber can use counts as holding,
 * against `maxViewBytes` [E2]: about what keeping the part costs. Producers never send one (each
 * part of theirs holds at least one item: SPEC.md section 9), and were such parts counted as
 * nothing, one answer of endless empty parts would grow its assembly without bound.
 */
const EMPTY_PART_BYTES = 64;

/** The view operation of a `cleared` event. */
const CLEAR = "clear";

/**
 * [E2] ReplayRequests for a gap sent again before it closes (live batches applied meanwhile do
 * not count: they arrive whether or not the batches seen past the gap exist), before those
 * batches are dropped: a producer that replays nothing up to them did not publish them (a buggy
 * sequence), or its answers keep being lost; either way the catch-up requests (every
 * `catchUpMs`) take over, instead of a ReplayRequest every `retryMs` for good.
 */
const MAX_REPLAY_RETRIES = 3;

/** Labels of `ectp_subscriber_producers_lost_total`, one object per cause (none built per call). */
const LOST_SILENT: Labels = { cause: "silent" };
const LOST_UNREACHABLE: Labels = { cause: "unreachable" };

/**
 * One event of a batch, read on receipt: store `item` under `keyId`, remove `keyId` (no
 * `item`), or clear the view (`CLEAR`); `bytes` is what it keeps ({@link entryBytes}).
 */
type ViewOp = { readonly keyId: string; readonly item: ectp.v1.IItemDescriptor | undefined; readonly bytes: number } | typeof CLEAR;

/** A batch as read on receipt: what applying it does, already extracted from the message. */
interface ReadBatch {
  readonly sequence: number;
  readonly ops: readonly ViewOp[];
  /** About the bytes its descriptors hold (their encoded sizes), for the hold's byte bound. */
  readonly bytes: number;
}

/**
 * What the subscriber counts an entry as holding, in the hold's and the view's byte bounds: the
 * length of its key id (a Removed event keeps only that, and a fingerprint model may be as long
 * as a frame allows) plus its descriptor's encoded size (one that cannot be measured counts as the
 * 64 KiB a descriptor may take).
 */
function entryBytes(keyId: string, item: ectp.v1.IItemDescriptor | undefined): number {
  if (item === undefined) return keyId.length;
  try {
    return keyId.length + itemDescriptorByteLength(item);
  } catch {
    return keyId.length + 65_536;
  }
}

/**
 * For each key id, the followed producers whose view holds it ({@link EventSubscriber.holders}),
 * ordered by `Followed.order` (the order they were followed). Kept by the three functions below,
 * the only ones that change a view, so it cannot disagree with {@link EventSubscriber.view} (a view
 * is empty whenever its producer is not synced, where `view()` shows none); a key no view holds has
 * no entry [I4].
 */
type HolderIndex = Map<string, Followed[]>;

/** Where a producer followed as `order` is, or goes, in `list` (ordered by `order`): a binary search. */
function holderPosition(list: readonly Followed[], order: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as Followed).order < order) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Add `f` to the holders of `keyId` (which its view has just come to hold). */
function addHolder(index: HolderIndex, f: Followed, keyId: string): void {
  const list = index.get(keyId);
  if (list === undefined) {
    index.set(keyId, [f]);
    return;
  }
  // Shifted by hand: `splice` allocates an array of what it removes, on every call.
  const at = holderPosition(list, f.order);
  list.push(f);
  for (let j = list.length - 1; j > at; j--) list[j] = list[j - 1] as Followed;
  list[at] = f;
}

/** Take `f` off the holders of `keyId` (which its view no longer holds); the last one takes the entry with it [I4]. */
function removeHolder(index: HolderIndex, f: Followed, keyId: string): void {
  const list = index.get(keyId);
  if (list === undefined) return;
  const i = holderPosition(list, f.order);
  if (list[i] !== f) return;
  if (list.length === 1) index.delete(keyId);
  else {
    for (let j = i; j < list.length - 1; j++) list[j] = list[j + 1] as Followed;
    list.pop();
  }
}

/** Set `keyId` to `item`, counted as holding `n` bytes ({@link entryBytes}, measured once, on receipt), in `f`'s view (and `index`). */
function setEntry(index: HolderIndex, f: Followed, keyId: string, item: ectp.v1.IItemDescriptor, n: number): void {
  f.viewBytes += n - (f.viewSizes.get(keyId) ?? 0);
  if (!f.view.has(keyId)) addHolder(index, f, keyId); // [E1] the holders index follows the view
  f.view.set(keyId, item);
  f.viewSizes.set(keyId, n);
}

/** Remove `keyId` from `f`'s view (and `index`), with what it was counted as holding. */
function deleteEntry(index: HolderIndex, f: Followed, keyId: string): void {
  f.viewBytes -= f.viewSizes.get(keyId) ?? 0;
  if (f.view.delete(keyId)) removeHolder(index, f, keyId); // [E1] the holders index follows the view
  f.viewSizes.delete(keyId);
}

/** Empty `f`'s view (and take it off the holders of each key it held in `index`: linear in the view's size). */
function clearView(index: HolderIndex, f: Followed): void {
  for (const keyId of f.view.keys()) removeHolder(index, f, keyId); // [E2][I4] a dropped view holds nothing
  f.view.clear();
  f.viewSizes.clear();
  f.viewBytes = 0;
}

/**
 * Replace `f`'s view (and its keys in `index`) by a snapshot's `parts`: keys it no longer holds go,
 * the others are set. The index changes only for keys that come or go, so a snapshot much like the
 * view (the usual case: a resync after a gap) costs little more than reading it [E2].
 */
function replaceView(index: HolderIndex, f: Followed, parts: readonly (readonly SnapshotEntry[])[]): void {
  const incoming = new Set<string>();
  for (const part of parts) for (const entry of part) incoming.add(entry[0]);
  // (A Map's iteration goes on correctly past the keys deleted during it.)
  for (const keyId of f.view.keys()) if (!incoming.has(keyId)) deleteEntry(index, f, keyId);
  for (const part of parts) for (const [keyId, d, n] of part) setEntry(index, f, keyId, d, n);
}

/** The bytes the events `ops` keep ({@link entryBytes} of each). */
function opsBytes(ops: readonly ViewOp[]): number {
  let n = 0;
  for (const op of ops) if (op !== CLEAR) n += op.bytes;
  return n;
}

/**
 * Read a batch's events into view operations. Everything is read here, once, before any of it
 * is applied: a hand-built event whose getter throws half-way (caught by `handleEnvelope`)
 * leaves the view as it was, never with the batch's first events applied. Events with an
 * unusable key, or of no kind this version knows (a newer minor version's), are left out [E1].
 */
function readEvents(events: readonly ectp.v1.IEvent[]): ViewOp[] {
  const ops: ViewOp[] = [];
  for (const e of events) {
    const item = e.stored?.item;
    if (item) {
      const keyId = tryItemKeyId(item.key);
      if (keyId !== undefined) {
        const own = ownDescriptor(item);
        ops.push({ keyId, item: own, bytes: entryBytes(keyId, own) });
      }
      continue;
    }
    const removed = e.removed?.key;
    if (removed) {
      const keyId = tryItemKeyId(removed);
      if (keyId !== undefined) ops.push({ keyId, item: undefined, bytes: entryBytes(keyId, undefined) });
    } else if (e.cleared) ops.push(CLEAR);
  }
  return ops;
}

/** A snapshot item as read on receipt: its key id, its descriptor and what it keeps ({@link entryBytes}). */
type SnapshotEntry = [keyId: string, item: ectp.v1.IItemDescriptor, bytes: number];

/** Read a snapshot part's items, for the same reason as {@link readEvents}. */
function readItems(items: readonly ectp.v1.IItemDescriptor[]): SnapshotEntry[] {
  const out: SnapshotEntry[] = [];
  for (const d of items) {
    const keyId = tryItemKeyId(d.key);
    if (keyId === undefined) continue;
    const own = ownDescriptor(d);
    out.push([keyId, own, entryBytes(keyId, own)]);
  }
  return out;
}

/**
 * SPEC.md section 16: a descriptor to keep, whose bytes fields (content hash, location, checksum
 * value) are its own. Decoded ones are views into the frame they came in, and a kept view keeps
 * the whole frame: a 60-byte descriptor sent with 4 MiB of unknown fields held 4 MiB for as long
 * as the subscriber held it. Returned as is when no field views a larger buffer (the common case
 * of a descriptor built in process).
 */
function ownDescriptor(d: ectp.v1.IItemDescriptor): ectp.v1.IItemDescriptor {
  const hash = d.key?.contentHash;
  const location = d.location;
  const value = d.checksum?.value;
  if (!isPartialView(hash) && !isPartialView(location) && !isPartialView(value)) return d;
  const copy = shallowCopy(d);
  if (isPartialView(hash)) copy.key = Object.assign(shallowCopy(d.key as ectp.v1.IItemKey), { contentHash: new Uint8Array(hash) });
  if (isPartialView(location)) copy.location = new Uint8Array(location);
  if (isPartialView(value)) copy.checksum = Object.assign(shallowCopy(d.checksum as ectp.v1.IChecksum), { value: new Uint8Array(value) });
  return copy;
}

/** A shallow copy with the same prototype (a decoded message's defaults live on it). */
function shallowCopy<T extends object>(o: T): T {
  return Object.assign(Object.create(Object.getPrototypeOf(o)) as T, o);
}

/**
 * What {@link EventSubscriber.view} hands out: a read-only window on a view's live map. It reads
 * through to the map (no copy: a view may hold a million items, and it shows later batches as they
 * apply) and has no method that changes it, so a caller cannot take an entry out of a view behind
 * the holders index's back [E1][I4]. One is made per followed producer, and handed out on every call.
 */
class ReadonlyMapView<K, V> implements ReadonlyMap<K, V> {
  readonly #map: ReadonlyMap<K, V>;

  constructor(map: ReadonlyMap<K, V>) {
    this.#map = map;
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  keys(): MapIterator<K> {
    return this.#map.keys();
  }

  values(): MapIterator<V> {
    return this.#map.values();
  }

  entries(): MapIterator<[K, V]> {
    return this.#map.entries();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.#map[Symbol.iterator]();
  }

  /** Calls `callback` with each entry; its third argument is this window, never the map behind it. */
  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.#map) callback.call(thisArg, value, key, this);
  }
}

/** What one peer has in an {@link OutputQueue} since the last poll. */
interface QueuedFor {
  /** Its outputs queued and not dropped. */
  outputs: number;
  /** The sends among them. */
  sends: number;
  /** Its outputs queued at a position below this one are dropped (0: none). */
  dropAllBefore: number;
  /** Its sends queued at a position below this one are dropped (0: none). */
  dropSendsBefore: number;
}

/**
 * The outputs queued for the next {@link EventSubscriber.poll}, in the order they were queued, from
 * which everything queued so far for a peer, or only its sends, can be dropped in O(1): a drop
 * notes the position it reaches, and {@link OutputQueue.take} leaves the dropped outputs out in one
 * pass. (Copying the queue at each drop made a router that swaps thousands of followed producers
 * between two polls take seconds, quadratic in their number.) A drop reaches only what was queued
 * before it, so what a producer followed again after it queues still goes out.
 */
class OutputQueue {
  #outputs: SubscriberOutput[] = [];
  /** Per peer with outputs queued since the last poll: their counts, and how far its drops reach. */
  readonly #peers = new Map<string, QueuedFor>();
  /** Outputs queued and not dropped. */
  #live = 0;
  /** Whether a drop reached any output since the last poll (else `take` copies nothing). */
  #dropped = false;

  /** Whether an output is queued and not dropped. */
  get pending(): boolean {
    return this.#live > 0;
  }

  /** Queue `output`. */
  push(output: SubscriberOutput): void {
    let q = this.#peers.get(output.peerId);
    if (q === undefined) {
      q = { outputs: 0, sends: 0, dropAllBefore: 0, dropSendsBefore: 0 };
      this.#peers.set(output.peerId, q);
    }
    q.outputs++;
    if (output.type === "send") q.sends++;
    this.#live++;
    this.#outputs.push(output);
  }

  /** Drop every output queued so far for `peerId`, or only its sends (`sendsOnly`). */
  drop(peerId: string, sendsOnly: boolean): void {
    const q = this.#peers.get(peerId);
    const dropping = q === undefined ? 0 : sendsOnly ? q.sends : q.outputs;
    if (q === undefined || dropping === 0) return;
    this.#live -= dropping;
    q.outputs -= dropping;
    q.sends = 0;
    if (sendsOnly) q.dropSendsBefore = this.#outputs.length;
    else q.dropAllBefore = this.#outputs.length;
    this.#dropped = true;
  }

  /** The outputs queued and not dropped, in the order they were queued; the queue is empty after. */
  take(): SubscriberOutput[] {
    let out = this.#outputs;
    if (this.#dropped) {
      const peers = this.#peers;
      out = out.filter((o, i) => {
        const q = peers.get(o.peerId) as QueuedFor;
        return i >= q.dropAllBefore && (o.type !== "send" || i >= q.dropSendsBefore);
      });
    }
    this.#outputs = [];
    this.#peers.clear();
    this.#live = 0;
    this.#dropped = false;
    return out;
  }
}

/** Where an {@link EventSubscriber} stands with one followed producer: {@link EventSubscriber.producerStatus}. */
export interface ProducerStatus {
  /** Whether its view is current: {@link EventSubscriber.isSynced}. */
  readonly synced: boolean;
  /**
   * The producer epoch followed [P8]: the greater of the greatest epoch taken from the
   * producer and that of the connection `follow()` gave; messages of lower epochs are ignored.
   * 0 while none is known (followed without a connection, and not heard from yet).
   */
  readonly epoch: number;
  /** The greatest epoch of any message heard from the producer, taken or ignored as stale; 0 until one is heard. */
  readonly heardEpoch: number;
  /**
   * The producer was heard at an epoch greater than that of the connection `follow()` gave: it
   * restarted, that connection is void and was dropped, and over a transport that connects peers
   * (the mock, NIXL) nothing reaches the producer until `follow()` gives a connection of epoch
   * `epoch` (or greater) [P8]. False for a producer followed without a connection.
   */
  readonly awaitingConnection: boolean;
}

/** What {@link EventSubscriber.poll} asks its driver to do: send an envelope, or connect (or forget) a producer's metadata. */
export type SubscriberOutput = SendOutput | ConnectPeerOutput | DisconnectPeerOutput;

/**
 * How to reach a producer over a transport that must load its metadata before anything can be
 * sent to it (NIXL): the producer epoch the metadata belongs to and its `Transport` metadata, as
 * the producer's `localMetadata()` gave it. A consumer learns it from announcements; a router
 * learns it from whatever told it about the producer (its discovery or orchestrator).
 */
export interface ProducerConnection {
  /** The producer's epoch: a positive integer [P8]. */
  readonly epoch: number;
  /** The producer's transport metadata for that epoch. */
  readonly metadata: Uint8Array;
}

/**
 * What an {@link EventSubscriber} is built with: its peer id and epoch (required), the fingerprint
 * and transport metadata of its Hello, its timers and memory bounds (defaults in
 * {@link DEFAULT_SUBSCRIBER_CONFIG}), and its logger and metrics hooks.
 */
export interface SubscriberOptions {
  /** This subscriber's peer id (the `sender_id` of what it sends). */
  id: string;
  /** This subscriber's epoch: a positive integer, greater after every restart [P8]. */
  epoch: number;
  /**
   * The fingerprint of the producers followed, sent in this subscriber's Hello: a producer MUST
   * refuse a Hello with another one (SPEC.md 4.1), so pass theirs. The subscription still works
   * after a refusal (a producer serves requests without a Hello), but each producer counts the
   * refused handshake and this subscriber logs a warning. A router following producers of several
   * models gives each producer's own in {@link EventSubscriber.follow}; this is the fingerprint of
   * those followed without one. Default: the all-default fingerprint. A
   * malformed one (it could not be encoded), one that is not a plain object (or an
   * `ectp.v1.Fingerprint`), and one with a key other than `model`, `dtype`, `rowBytes` and
   * `layoutVersion` (a misspelt field would be sent as its default) are INVALID_CONFIG. Taken
   * once, at construction (a copy is kept, as of one given to `follow`): changing the object afterwards
   * changes no Hello [P7].
   */
  fingerprint?: ectp.v1.IFingerprint | undefined;
  /**
   * Transport metadata sent in the Hello (`transport.localMetadata()`). Required over any
   * transport that connects peers (the mock, NIXL): without it no producer can answer this
   * subscriber, which then never syncs (only the producers log it). Default: empty (only for
   * envelopes carried by hand).
   * Taken once, at construction (a copy is kept): changing the array afterwards changes no Hello [P8].
   */
  transportMetadata?: Uint8Array | undefined;
  /**
   * How long a SnapshotRequest or ReplayRequest may go unanswered before it is sent again, in ms
   * [E2]; for a snapshot in parts, counted from the latest part received. Default 2000. Keep it
   * above the producers' resend interval (500 ms by default, at most 1 s: SPEC.md section 9): a
   * producer may hold an answer that long, and a gap that three ReplayRequest retries do not close
   * is given up (held batches dropped, caught up later).
   */
  retryMs?: number | undefined;
  /** Interval of the heartbeats sent to each followed producer, in ms [P8], at most 2^32 - 1 (a uint32 in the Hello). Default 2000. */
  heartbeatIntervalMs?: number | undefined;
  /**
   * While up to date, how often to ask for batches after the last one applied, in ms: a lost
   * last batch is otherwise only noticed when a later one arrives [E2]. Default 5000.
   */
  catchUpMs?: number | undefined;
  /** Batches kept per producer that arrived ahead of a missing one; more are dropped (and replayed). Default 1024. */
  maxHeldBatches?: number | undefined;
  /**
   * Events those held batches may carry together per producer; a batch that would pass it is
   * dropped (and replayed) too. Default 262,144. (With `maxHeldBytes`, a producer sending large
   * batches past a gap cannot make the subscriber hold gigabytes.)
   */
  maxHeldEvents?: number | undefined;
  /**
   * Bytes of descriptors those held batches may carry together per producer (their encoded sizes:
   * a descriptor may take up to 64 KiB, so 1,024 batches of 1 MiB each would hold a gigabyte), each
   * event's item key id counted too, by its length (a Removed event keeps only its key, whose
   * fingerprint model a frame may make megabytes long); a batch past it is dropped too (and
   * replayed). Default 64 MiB.
   */
  maxHeldBytes?: number | undefined;
  /**
   * Bytes each producer's view may hold, counted as the held batches' are (descriptors' encoded
   * sizes plus key ids' lengths); a snapshot being assembled is counted against it on its own,
   * each part of it that holds no item the subscriber can use as 64 bytes.
   * A snapshot whose parts pass it is dropped as they arrive (its other parts, and those of older
   * answers, are ignored). A batch that takes the view past it drops the view: the producer is no
   * longer synced and {@link EventSubscriber.view} is undefined until a snapshot that fits is
   * applied. After either drop the next SnapshotRequest waits `retryMs`, twice that after a second
   * drop in a row, and so on up to 32 times `retryMs` (each answer costs the producer up to this
   * many bytes). An answer that fits ends the wait; the count of drops in a row starts over once
   * the view has stayed within the bound until a catch-up (`catchUpMs`), or when the producer
   * restarts. Each drop is counted (`view_full`) and logged as a warning.
   * Default 256 MiB: over a million items of typical descriptors (about 240 bytes each, a 103-byte
   * key id among them). The bound counts those bytes, not memory: on Node 20 a view of typical
   * descriptors takes about six times its count in memory (each descriptor's key and bytes fields are
   * objects of their own), one of the smallest valid descriptors up to twenty times, so size it for
   * that. Without it, a producer that
   * published Stored events without end, or a snapshot of endless parts, would grow the router's
   * memory until it failed.
   */
  maxViewBytes?: number | undefined;
  /**
   * Logger; default no-op. What it throws is contained and counted (`stats().hookFailures`); one
   * lacking any of its four methods is refused (INVALID_CONFIG).
   */
  logger?: Logger | undefined;
  /**
   * Metrics sink; default no-op. Counts `ectp_subscriber_ignored_messages_total{reason}` [C10]
   * (reasons, named as the cores name theirs: `malformed`, `version` (another major [V1]),
   * `unknown_peer` (a producer not followed), `sender_mismatch` (a `sender_id` other than the peer
   * it came from), `stale_epoch`, `duplicate`, `unexpected` (a body or Hello role a subscriber does
   * not use), `refused` (a HandshakeReject), `hold_full` (a batch past a gap dropped, replayed
   * later), `gap_given_up` (batches held past a gap that replays did not close, dropped),
   * `view_full` (a snapshot part or batch that took a view past `maxViewBytes`)). What it
   * throws is contained and counted (`stats().hookFailures`); one lacking any of its three
   * methods is refused (INVALID_CONFIG).
   */
  metrics?: MetricsSink | undefined;
}

/** The keys of {@link SubscriberOptions}: any other key of the options is refused (a misspelt option would otherwise be ignored). */
const OPTION_KEYS: readonly string[] = Object.keys({
  id: true,
  epoch: true,
  fingerprint: true,
  transportMetadata: true,
  retryMs: true,
  heartbeatIntervalMs: true,
  catchUpMs: true,
  maxHeldBatches: true,
  maxHeldEvents: true,
  maxHeldBytes: true,
  maxViewBytes: true,
  logger: true,
  metrics: true,
} satisfies Record<keyof SubscriberOptions, true>);

/** Why the subscriber ignored a message: the `reason` label of `ectp_subscriber_ignored_messages_total` [C10]. */
type IgnoreReason =
  | "malformed"
  | "version"
  | "unknown_peer"
  | "sender_mismatch"
  | "stale_epoch"
  | "duplicate"
  | "unexpected"
  | "refused"
  | "hold_full"
  | "gap_given_up"
  | "view_full";

/** Counters of {@link EventSubscriber.stats}. */
export interface SubscriberStats {
  /** Producers followed. */
  producers: number;
  /** Followed producers whose view is current ({@link EventSubscriber.isSynced}). */
  synced: number;
  /** Snapshots applied (whole or assembled from parts). */
  snapshotsApplied: number;
  /** SnapshotRequests sent, first ones and retries, counted as a poll hands them out. */
  snapshotRequests: number;
  /** ReplayRequests sent, for gaps and to catch up, counted as a poll hands them out. */
  replayRequests: number;
  /**
   * Messages ignored [C10], under every reason of `ectp_subscriber_ignored_messages_total`: unknown senders,
   * stale epochs, duplicates, malformed parts, refusals, batches dropped from a full hold (replayed later)
   * or given up past a gap, and snapshot parts and batches dropped for `maxViewBytes`.
   */
  ignoredMessages: number;
  /** Batches held ahead of a missing one, all producers (at most `maxHeldBatches` each) [E2]. */
  heldBatches: number;
  /** Parts of snapshots still being assembled, all producers (at most one assembly each) [E2]. */
  snapshotParts: number;
  /** Bytes the views hold, all producers, as `maxViewBytes` counts them (each view at most that). */
  viewBytes: number;
  /** Calls into the logger or metrics sink that threw (contained: each costs its record, never the subscriber's state) [I1]. */
  hookFailures: number;
}

/** A snapshot answer being assembled from its parts [E2]. */
interface Assembly {
  readonly id: number;
  readonly sequence: number;
  readonly parts: number;
  /** The parts received, each read into its entries. */
  readonly got: Map<number, SnapshotEntry[]>;
  /** What the parts received hold ({@link entryBytes} of each item), against `maxViewBytes`. */
  bytes: number;
}

/** What the subscriber knows of one followed producer. */
interface Followed {
  readonly id: string;
  /** When it was followed, as a count of the subscriber's follows: its place among a key's holders. */
  readonly order: number;
  /** The fingerprint sent in the Hellos to it: the one `follow` gave, else the subscriber's (SPEC.md 4.1). */
  readonly fingerprint: ectp.v1.IFingerprint;
  /** The producer's epoch; 0 until it is first heard. */
  epoch: number;
  /** The greatest epoch of a message from it, taken or ignored as stale (0: none yet) [P8]. */
  heardEpoch: number;
  /**
   * When the epoch followed last grew (a greater epoch heard, or told by `follow()`), or when it
   * was followed: messages of a lower epoch are late ones for `silenceMs` after it, unwarned [P8].
   */
  followedSince: number;
  /** The greatest lower epoch it was heard at and warned of (0: none): each is warned of once [P8]. */
  warnedLowerEpoch: number;
  /**
   * Whether `view` holds a snapshot and every batch after it up to `applied`. The view may still
   * lag the producer (a gap, a request outstanding, the producer gone): `current` says whether it is
   * synced as {@link EventSubscriber.isSynced} reports.
   */
  hasView: boolean;
  /** Sequence of the last batch applied. */
  applied: number;
  /** Greatest batch sequence seen in this epoch (applied, held or dropped). */
  maxSeen: number;
  readonly view: Map<string, ectp.v1.IItemDescriptor>;
  /** The read-only window on `view` that {@link EventSubscriber.view} hands out (made once, with `view`). */
  readonly readOnlyView: ReadonlyMapView<string, ectp.v1.IItemDescriptor>;
  /** What each entry of `view` was counted as holding when it was set ({@link entryBytes}). */
  readonly viewSizes: Map<string, number>;
  /** The sum of `viewSizes`: at most `maxViewBytes`. */
  viewBytes: number;
  /**
   * `snapshot_id` and `sequence` of the latest answer dropped for passing `maxViewBytes` (sequence
   * -1: none): its other parts, and those of older answers, are ignored [E2].
   */
  droppedSnapshotId: number;
  droppedSnapshotSequence: number;
  /**
   * Drops for `maxViewBytes` in a row, of answers and of the view: each doubles the wait before the
   * next SnapshotRequest. 0 again once the view stayed within the bound until a catch-up.
   */
  viewDrops: number;
  /** After such a drop, no SnapshotRequest goes out before this time (0: none). */
  snapshotNotBefore: number;
  /** Batches that arrived ahead of a missing one, by sequence. */
  readonly held: Map<number, ReadBatch>;
  /** Events of the held batches. */
  heldEvents: number;
  /** Descriptor bytes of the held batches. */
  heldBytes: number;
  assembly: Assembly | undefined;
  /**
   * When the latest part of `assembly` was taken: an assembly that gets no part for `retryMs` is
   * dropped [E2][I4] (its missing parts are lost; a retry, if one is wanted, asks for a new answer).
   */
  assemblyAt: number;
  /** `snapshot_id` of the last snapshot applied in this epoch (-1: none yet, so one of any id is taken first [E2]). */
  lastSnapshotId: number;
  /** How to reach it, when {@link EventSubscriber.follow} was told (the newest epoch told). */
  connection: ProducerConnection | undefined;
  /** Epoch of `connection` a connect-peer was emitted for (0: none since it was told or lost). */
  connectedEpoch: number;
  /**
   * A greater epoch was heard than that of the connection given: the connection is void, and
   * `follow()` must give the new epoch's [P8]. Set until `follow()` gives a connection it takes.
   */
  awaitingConnection: boolean;
  /** Reported unreachable: subscribed to anew by the next poll at least `retryMs` after the last request [P8]. */
  gone: boolean;
  /** When it was declared gone (silent or unreachable) and no poll found it synced since; undefined while it is not lost [P8]. */
  lostAt: number | undefined;
  /** A producer epoch already greeted and asked for a snapshot before any of its messages arrived (0: none). */
  askedEpoch: number;
  /**
   * A Hello and SnapshotRequest went out (a new subscription after silence or loss) and neither a
   * snapshot nor a newer producer epoch answered them yet: a newer epoch that shows up is the one
   * they reached, so it is not greeted and asked again (one after it is: cleared by `reset`).
   */
  subscribing: boolean;
  /**
   * A new subscription went out and no snapshot answered it yet, whatever epochs were heard since
   * (`reset` keeps it): its retry goes again whole, Hello first (SPEC.md 4: the epoch the retry
   * reaches may be one never greeted) [E2][P8].
   */
  greetOnRetry: boolean;
  /** The request in flight, and when it was sent. */
  want: "snapshot" | "replay" | undefined;
  wantSentAt: number;
  /**
   * The sequence a snapshot must reflect to answer the SnapshotRequest in flight: the `latest` of the
   * ReplayUnavailable that made it (0: any). A late answer to an older request, complete but older,
   * leaves that request open [E2]; its retry takes any answer.
   */
  snapshotFloor: number;
  /** ReplayRequests sent again since the last gap closed ({@link MAX_REPLAY_RETRIES}). */
  replayRetries: number;
  lastHeard: number;
  /** The producer's heartbeat interval, from its Hello (2000 until then) [P8]. */
  producerIntervalMs: number;
  /** The epoch whose Hello was applied since the producer was last declared gone (silent or unreachable; 0: none): another of that epoch is a duplicate (SPEC.md 4.1). */
  heardHelloEpoch: number;
  nextHeartbeat: number;
  nextCatchUp: number;
}

/**
 * Follows producers' item sets through their event batches, replays and snapshots [E1][E2].
 *
 * Why sans-IO: like the cores, it takes `now` in every call and queues the messages it wants
 * sent for {@link EventSubscriber.poll}; the engine's loop hands received envelopes in and sends
 * what comes out (for example through a `Transport`).
 *
 * Guarantees: {@link EventSubscriber.view} is undefined until a snapshot of the producer's
 * current epoch has been applied, and afterwards is exactly the producer's ready items as of
 * the last batch applied (unless they passed `maxViewBytes`: then it is undefined again until a
 * snapshot that fits is applied); a gap in the batches is replayed (or, when the producer's replay
 * buffer no longer holds it, resolved by a new snapshot; given up after three retries that do not
 * close it, when catching up finds what the producer did publish); parts of a split snapshot are
 * assembled by `snapshot_id`, never mixed across answers; a greater producer epoch discards the
 * view and asks for a snapshot; a producer silent for three times the longest of its heartbeat
 * interval, ours and `retryMs` is subscribed to anew (so a restarted producer, which no longer knows its subscribers, is found); while up
 * to date it asks every `catchUpMs` for batches after the last applied (a lost last batch shows
 * no gap). It greets each producer epoch with a Hello (capability `events.v1`) and sends
 * heartbeats. Nothing a peer sends makes a call throw [I1]; what cannot be used is counted
 * [C10]. Memory per producer is bounded by `maxViewBytes` of descriptors and key ids in its view,
 * as many in one snapshot assembly, and `maxHeldBatches` batches of at most `maxHeldEvents` events
 * and `maxHeldBytes` bytes of descriptors and key ids together.
 *
 * For routing: {@link EventSubscriber.holders} answers "which producers hold this key now?" from
 * an index of key ids kept with the views (never disagreeing with {@link EventSubscriber.view}),
 * in time proportional to the answer, not to the producers followed. It costs an entry per key
 * held by some view (a list of its holders), and each change of a view updates it: a snapshot
 * replacing a view of `n` items costs O(n) updates, each O(holders of that key).
 *
 * Epochs: any message of a followed producer at an epoch greater than the one followed is taken as
 * its restart [P8], trusted as it comes: the view is dropped, the new epoch is asked for a snapshot,
 * a connection given for the older epoch is void (`producerStatus().awaitingConnection`, and a
 * warning), and from then on the producer's messages of lower epochs are ignored (`stale_epoch`;
 * a lower epoch still heard once the producer's silence bound has passed is logged as a warning,
 * at most once per producer and lower epoch). So a single message with a bogus huge epoch (corrupt, forged, or
 * from a misconfigured instance under the same id) drops the view, and the real producer's messages
 * are ignored from then on: neither waiting nor `follow()` with its real epoch's connection (older
 * than the epoch heard) brings it back, only {@link EventSubscriber.unfollow} then
 * {@link EventSubscriber.follow}. A router that sees an `epoch` in
 * {@link EventSubscriber.producerStatus} greater than any its deployment gave the producer (or that
 * warning) should do just that, and find where the message came from.
 *
 * One clock: every `now` passed in must come from the clock the driver uses (a `Driver`'s, where
 * there is one: default `performance.now()`), as for the cores (the core README's "One clock"). A
 * reading earlier than the latest is taken as the latest, so readings of a second clock
 * (`Date.now()` passed to `follow()` beside a driver on `performance.now()`) stop every timer until
 * the readings catch up: no heartbeats, no retries, no catch-ups, and silence is never noticed (a
 * producer silent for minutes stays synced). One reading more than 60 s behind the latest is logged
 * once, as a warning; a reading that is not a finite number is logged as an error and the latest
 * good one used.
 */
export class EventSubscriber {
  /** This subscriber's peer id. */
  readonly id: string;
  /** This subscriber's epoch [P8]. */
  readonly epoch: number;
  private readonly retryMs: number;
  private readonly heartbeatIntervalMs: number;
  private readonly catchUpMs: number;
  private readonly maxHeldBatches: number;
  private readonly maxHeldEvents: number;
  private readonly maxHeldBytes: number;
  private readonly maxViewBytes: number;
  /** [P7] `options.fingerprint`, normalised and frozen at construction (absent: the all-default one). */
  private readonly fingerprint: Readonly<ectp.v1.IFingerprint>;
  private readonly transportMetadata: Uint8Array;
  private readonly logger: Logger;
  private readonly metrics: MetricsSink;
  /** One frozen label set per ignore reason. */
  private readonly ignoreLabels = new Map<IgnoreReason, Labels>();
  /** The value of `ectp_subscriber_synced_producers` last set (-1: none yet). */
  private gaugedSynced = -1;
  /** Hook calls (logger, metrics) in progress: the state-changing methods refuse calls from inside a hook (not re-entrant). */
  private readonly gate = new HookGate();
  private readonly followed = new Map<string, Followed>();
  /**
   * Key id -> the followed producers whose view holds it, in the order they were followed
   * ({@link EventSubscriber.holders}); changed only with the views, so it never outlives them [I4].
   */
  private readonly holderIndex: HolderIndex = new Map();
  /** Follows so far: each new followed producer's `order`. */
  private follows = 0;
  /** Peers whose last connect-peer/disconnect-peer handed out was a connect (the transport holds a connection), followed or not. */
  private readonly transportHolds = new Set<string>();
  /** The outputs queued for the next poll. */
  private readonly outputs = new OutputQueue();
  /** The latest clock reading accepted (none yet: -Infinity, so any first reading stands, negative ones too). */
  private lastNow = Number.NEGATIVE_INFINITY;
  private heartbeatSequence = 0;
  /** Logs the first message ignored for a `from` other than its sender. */
  private readonly senderMismatch = new SenderMismatchWarning();
  private counts = { snapshotsApplied: 0, snapshotRequests: 0, replayRequests: 0, ignoredMessages: 0, hookFailures: 0 };

  /**
   * @throws EctpError(INVALID_CONFIG) naming the first invalid option: among others a key of the
   *   options that is not an option (with the nearest one), and a fingerprint given that is not a
   *   plain object or has a key other than `model`, `dtype`, `rowBytes` and `layoutVersion`.
   */
  constructor(options: SubscriberOptions) {
    // First: a misspelt option (`retryMS`, `maxViewByte`) is named as such, not ignored (its default used).
    if (options !== null && typeof options === "object") {
      refuseUnknownOptions("EventSubscriber", options, OPTION_KEYS);
      // Each option read once, here: a getter or Proxy trap that throws is refused naming it [I1].
      options = readOptions("EventSubscriber", options, OPTION_KEYS);
    }
    if (typeof options?.id !== "string" || options.id.length === 0)
      throw new EctpError("INVALID_CONFIG", "options.id must be a non-empty string (the subscriber's peer id)");
    if (!Number.isSafeInteger(options.epoch) || options.epoch < 1)
      throw new EctpError(
        "INVALID_CONFIG",
        `options.epoch must be a positive integer; got ${describeValue(options.epoch)}`,
      );
    const positive = (name: keyof typeof DEFAULT_SUBSCRIBER_CONFIG): number => {
      const fallback = DEFAULT_SUBSCRIBER_CONFIG[name];
      const v = options[name] ?? fallback;
      if (!Number.isSafeInteger(v) || v < 1)
        throw new EctpError("INVALID_CONFIG", `options.${name} must be a positive integer; got ${describeValue(v)}. Omit it for ${fallback}`);
      return v;
    };
    this.id = options.id;
    this.epoch = options.epoch;
    this.retryMs = positive("retryMs");
    this.heartbeatIntervalMs = positive("heartbeatIntervalMs");
    // [P8] It travels in every Hello as a uint32 (a larger value could not be encoded: no Hello would go out).
    if (this.heartbeatIntervalMs > 0xffffffff)
      throw new EctpError(
        "INVALID_CONFIG",
        `options.heartbeatIntervalMs must fit in 32 bits (<= 4294967295 ms): it travels in every Hello as a uint32; got ${this.heartbeatIntervalMs}`,
      );
    this.catchUpMs = positive("catchUpMs");
    this.maxHeldBatches = positive("maxHeldBatches");
    this.maxHeldEvents = positive("maxHeldEvents");
    this.maxHeldBytes = positive("maxHeldBytes");
    this.maxViewBytes = positive("maxViewBytes");
    // Checked here: a malformed one could not be encoded in the Hello, and a driver drops an envelope
    // that does not encode, so the subscriber would follow nothing, silently.
    // [P7] A misspelt field would be sent as its default, and every producer would refuse the Hello.
    // [P7] Taken once, at construction: a frozen copy of the normalised fingerprint (absent: the
    // all-default one, sent as before), not the caller's object, which it may change later.
    this.fingerprint = Object.freeze({ ...fingerprintOption(options.fingerprint ?? {}) });
    this.transportMetadata = transportMetadataOption(options.transportMetadata);
    // [I1] The logger is the engine's code: what it throws is contained and counted (stats().hookFailures),
    // so a broken logger neither cuts a message's handling short nor escapes into the engine.
    this.logger = containLogger(
      options.logger,
      () => {
        this.counts.hookFailures++;
      },
      this.gate,
    );
    this.metrics = containMetrics(
      options.metrics,
      () => {
        this.counts.hookFailures++;
      },
      this.gate,
      (fields) => this.logger.error(METRICS_HOOK_THREW, fields),
    );
  }

  /** [C10] Count `count` ignored messages, in `stats()` and in the metric, under `reason`. */
  private ignore(reason: IgnoreReason, count = 1): void {
    this.counts.ignoredMessages += count;
    let labels = this.ignoreLabels.get(reason);
    if (labels === undefined) {
      labels = Object.freeze({ reason });
      this.ignoreLabels.set(reason, labels);
    }
    this.metrics.counter("ectp_subscriber_ignored_messages_total", count, labels);
  }

  /**
   * Start following `producerId`: a Hello (capability `events.v1`) and a SnapshotRequest [E2].
   * With `connection` (needed on every transport that connects peers before sending to them: the
   * mock and NIXL) a `connect-peer` output comes first, and again when the producer is subscribed
   * to anew after the transport lost it ({@link EventSubscriber.handlePeerUnreachable}).
   * Calling it again for a followed producer changes nothing, except with a connection of an epoch
   * newer than the connection given before (any epoch, when none was given) and not older than the
   * epoch last heard from the producer (it restarted, or its metadata is given only now): that
   * connection replaces the old one and the producer is subscribed to anew (a Hello and a
   * SnapshotRequest, so {@link EventSubscriber.isSynced} is false until the answer; its silence is
   * judged from then, by the default heartbeat interval when the epoch is new) [P8]; a connection
   * of an epoch newer than the one last heard also drops the view at once (its items are of an epoch
   * that no longer runs), so `view()` and {@link EventSubscriber.holders} no longer list them. From
   * then on, as from the first call with a connection, messages of an epoch older than the
   * connection's are stale and ignored. Any other connection is ignored. A message of the producer
   * at an epoch greater than the one followed is taken as its restart [P8] and voids the connection
   * given ({@link EventSubscriber.producerStatus} then says `awaitingConnection`: call this again
   * with the new epoch's connection); a bogus one (say 2^53 - 1) therefore drops the view until
   * {@link EventSubscriber.unfollow} and `follow()` again (see "Epochs" on {@link EventSubscriber}).
   *
   * `now`: a reading of the clock the driver uses (see "One clock" on {@link EventSubscriber}); a
   * reading of another clock (`Date.now()` beside a driver on `performance.now()`) stops the
   * subscriber's timers for every producer until the driver's readings catch up with it.
   *
   * `fingerprint`: the model this producer serves, sent in the Hellos to it (a producer refuses a
   * Hello of another model [P7]); for a router following producers of several models. Default: the
   * subscriber's `options.fingerprint`. It stays the producer's until it is unfollowed.
   * @throws EctpError(INVALID_ARGUMENT) for an empty producer id, a malformed connection, a malformed
   *   fingerprint (checked as `options.fingerprint` is), or a fingerprint other than the one the
   *   producer is followed with.
   */
  follow(producerId: string, now: number, connection?: ProducerConnection, fingerprint?: ectp.v1.IFingerprint): void {
    if (this.gate.busy) throw reentrantCall("EventSubscriber", "follow");
    if (typeof producerId !== "string" || producerId.length === 0)
      throw new EctpError("INVALID_ARGUMENT", `follow: producerId must be a non-empty string (the producer's peer id); got ${describeValue(producerId)}`);
    // [P7] Checked here, as the option is: a misspelt field would be sent as its default, and the producer would refuse every Hello.
    // [P7] Kept as a frozen copy, as options.fingerprint is: the caller's object may change later.
    const own = fingerprint === undefined ? undefined : Object.freeze({ ...fingerprintOption(fingerprint, `follow(${producerId}): fingerprint`, "INVALID_ARGUMENT") });
    if (connection !== undefined) {
      if (connection === null || typeof connection !== "object")
        throw new EctpError(
          "INVALID_ARGUMENT",
          `follow(${producerId}): connection must be an object { epoch, metadata } (the producer's epoch and its transport metadata for that epoch) or undefined; got ${describeValue(connection)}`,
        );
      if (!Number.isSafeInteger(connection.epoch) || connection.epoch < 1)
        throw new EctpError("INVALID_ARGUMENT", `follow(${producerId}): connection.epoch must be a positive integer (the producer's epoch); got ${describeValue(connection.epoch)}`);
      if (!(connection.metadata instanceof Uint8Array))
        throw new EctpError("INVALID_ARGUMENT", `follow(${producerId}): connection.metadata must be a Uint8Array (the producer's transport metadata); got ${describeValue(connection.metadata)}`);
    }
    const known = this.followed.get(producerId);
    // [P7] Refused before anything changes, the clock included (as every argument above is).
    if (known !== undefined && own !== undefined && !fingerprintsEqual(own, known.fingerprint))
      throw new EctpError(
        "INVALID_ARGUMENT",
        `follow(${producerId}): the producer is followed with another fingerprint; unfollow it first to follow it as a producer of another model`,
      );
    now = this.acceptNow(now);
    if (known !== undefined) {
      // [P8] Only a newer epoch's connection matters: the producer restarted and knows us no more.
      if (connection !== undefined && connection.epoch > (known.connection?.epoch ?? 0) && connection.epoch >= known.epoch) {
        known.connection = { epoch: connection.epoch, metadata: connection.metadata };
        known.awaitingConnection = false;
        known.followedSince = now; // [P8] the older epoch's messages still in flight are late ones for a while
        // [P8] The deployment knows of an epoch newer than the one heard: the view holds the items of an
        // epoch that no longer runs (their grants would be refused), so it goes now, not when the new
        // epoch first speaks (the older epoch's messages are stale from now on: onEnvelope).
        if (connection.epoch > known.epoch && known.epoch !== 0) {
          this.reset(known);
          known.producerIntervalMs = DEFAULT_INTERVAL_MS; // [P8] the dead epoch's Hello said it; the new one's will tell
        }
        // [P8] Its silence is judged from this new subscription, as after a silence or an unreachable
        // report (poll), not from the last message of an epoch that may no longer run.
        known.lastHeard = now;
        this.subscribe(known, now);
        // Its first message is then no news: this epoch was greeted and asked already.
        if (connection.epoch > known.epoch) known.askedEpoch = connection.epoch;
      }
      return;
    }
    const view = new Map<string, ectp.v1.IItemDescriptor>();
    const f: Followed = {
      id: producerId,
      order: ++this.follows,
      fingerprint: own ?? this.fingerprint,
      epoch: 0,
      heardEpoch: 0,
      followedSince: now,
      warnedLowerEpoch: 0,
      hasView: false,
      applied: 0,
      maxSeen: 0,
      view,
      readOnlyView: new ReadonlyMapView(view),
      viewSizes: new Map(),
      viewBytes: 0,
      droppedSnapshotId: 0,
      droppedSnapshotSequence: -1,
      viewDrops: 0,
      snapshotNotBefore: 0,
      held: new Map(),
      heldEvents: 0,
      heldBytes: 0,
      assembly: undefined,
      assemblyAt: 0,
      snapshotFloor: 0,
      lastSnapshotId: -1,
      lostAt: undefined,
      connection: connection === undefined ? undefined : { epoch: connection.epoch, metadata: connection.metadata },
      connectedEpoch: 0,
      awaitingConnection: false,
      gone: false,
      askedEpoch: 0,
      subscribing: false,
      greetOnRetry: false,
      want: undefined,
      wantSentAt: 0,
      replayRetries: 0,
      lastHeard: now,
      producerIntervalMs: DEFAULT_INTERVAL_MS,
      heardHelloEpoch: 0,
      nextHeartbeat: now + this.heartbeatIntervalMs,
      nextCatchUp: now + this.catchUpMs,
    };
    this.followed.set(producerId, f);
    this.subscribe(f, now);
  }

  /**
   * Stop following `producerId` and drop its view. Messages still queued for it are dropped, and
   * a producer connected through a given connection is forgotten (`disconnect-peer`).
   */
  unfollow(producerId: string): void {
    if (this.gate.busy) throw reentrantCall("EventSubscriber", "unfollow");
    const f = this.followed.get(producerId);
    if (f === undefined) return;
    this.followed.delete(producerId);
    clearView(this.holderIndex, f); // [I4] its keys' holders forget it
    this.outputs.drop(producerId, false); // O(1): a router may unfollow thousands between two polls
    // A connection a poll handed to the transport is forgotten, whichever record of the producer
    // made it (a disconnect queued by an earlier unfollow was just dropped); one only queued is just dropped.
    if (this.transportHolds.has(producerId)) this.outputs.push({ type: "disconnect-peer", peerId: producerId });
  }

  /** Whether `producerId` is followed. */
  isFollowing(producerId: string): boolean {
    return this.followed.has(producerId);
  }

  /**
   * Whether the view of `producerId` is current: a snapshot of its current epoch applied, every
   * batch seen since applied, no request to it open, and the producer not found gone or silent.
   * False while it is being subscribed to anew (after a restart, a silence, an unreachable
   * report): its {@link EventSubscriber.view} is then the last one known, possibly of an epoch that
   * no longer runs, until a message of a newer epoch discards it (undefined until that epoch's
   * snapshot is applied) [E2]. A router routing by views should prefer producers for which this holds.
   * (`stats().synced` counts them.) It holds while no gap is known: a lost last batch is found only
   * by the next catch-up (`catchUpMs`), so a synced view can lag that long. So can a view after a gap
   * given up (three replay retries that did not close it: SPEC.md [E2]): the batches held past the gap
   * are dropped and it holds again, though they were seen; the next catch-up asks for them again.
   */
  isSynced(producerId: string): boolean {
    const f = this.followed.get(producerId);
    return f !== undefined && this.current(f);
  }

  /**
   * Where the subscriber stands with `producerId` (undefined when it is not followed), for a router
   * to tell why a producer is not synced. `awaitingConnection` tells a restarted producer that only
   * a new connection brings back (call `follow(producerId, now, { epoch, metadata })` with its new
   * epoch's metadata) from a producer that is silent or unreachable (the subscriber keeps asking it;
   * nothing to do but wait, or unfollow it). An `epoch` greater than any the deployment gave the
   * producer was heard from something else (a corrupt or forged message): unfollow() and follow() it
   * again (see {@link EventSubscriber.follow}).
   */
  producerStatus(producerId: string): ProducerStatus | undefined {
    const f = this.followed.get(producerId);
    if (f === undefined) return undefined;
    return { synced: this.current(f), epoch: this.followedEpoch(f), heardEpoch: f.heardEpoch, awaitingConnection: f.awaitingConnection };
  }

  /**
   * The transport found `producerId` unreachable, or could not connect to it: the producer is
   * gone [P8]. One connected through a given connection is forgotten at once
   * (`disconnect-peer`), and a later poll subscribes to it anew (a Hello, then a
   * SnapshotRequest, preceded by `connect-peer` when a connection was given), no sooner than
   * `retryMs` after the last request to it, so a peer that stays unreachable costs one attempt
   * per `retryMs`. The view stays until an answer replaces it, or until a message of a newer epoch discards it [E2]. Unknown producers are ignored.
   */
  handlePeerUnreachable(producerId: string, now: number): void {
    if (this.gate.busy) throw reentrantCall("EventSubscriber", "handlePeerUnreachable");
    this.acceptNow(now);
    const f = this.followed.get(producerId);
    if (f === undefined) return;
    f.gone = true;
    this.lost(f, "unreachable", now);
    // [P8] Nothing reaches it before the new Hello: what was queued for it before the report is dropped.
    this.outputs.drop(producerId, true); // [P8] O(1), as unfollow's drop
    this.forget(f);
  }

  /**
   * The ready items of `producerId` by item key id (`itemKeyId`), as of the last batch applied;
   * undefined while no snapshot of its current epoch has been applied, after a batch took the view past
   * `maxViewBytes` until a snapshot that fits is applied [E2], or when it is not followed. It is a
   * read-only window on the subscriber's own map, not a copy (the same object on every call while
   * the producer is followed): it has no `set`, `delete` or `clear`, and it changes as later batches
   * are applied: copy it (`new Map(view)`) to keep a state as of now. Its descriptors are the
   * subscriber's too: read them, do not change them.
   */
  view(producerId: string): ReadonlyMap<string, ectp.v1.IItemDescriptor> | undefined {
    const f = this.followed.get(producerId);
    return f?.hasView ? f.readOnlyView : undefined; // [E1][I4] read-only: an entry taken out would outlive its holders entry
  }

  /**
   * The ids of the followed producers whose {@link EventSubscriber.view} holds `keyId` (an item
   * key id: `itemKeyId(key).value`, or `tryItemKeyId(key)`), in the order they were followed (a producer unfollowed and
   * followed again comes after the others): what a router asks to send a request to an instance
   * that already holds its item [E1][E2]. Exactly the producers `p` for which
   * `view(p)?.has(keyId)`: a producer without a view (not synced yet, restarted, its view dropped
   * for `maxViewBytes`, unfollowed) holds nothing, and one being subscribed to anew after a silence
   * or an unreachable report (a crashed producer, until it restarts) keeps its last view's keys, so
   * route to those for which {@link EventSubscriber.isSynced} holds. Costs the
   * number of holders, not of producers: an index kept as the views change. Returns a new array
   * ([] when none holds it).
   * @throws EctpError(INVALID_ARGUMENT) for a `keyId` that is not a string.
   */
  holders(keyId: string): readonly string[] {
    if (typeof keyId !== "string")
      throw new EctpError(
        "INVALID_ARGUMENT",
        `holders(keyId): keyId must be a string, an item key id (itemKeyId(key).value, or tryItemKeyId(key)); got ${describeValue(keyId)}`,
      );
    const list = this.holderIndex.get(keyId);
    return list === undefined ? [] : list.map((f) => f.id);
  }

  /** Counters for dashboards and tests. */
  stats(): SubscriberStats {
    let synced = 0;
    let heldBatches = 0;
    let snapshotParts = 0;
    let viewBytes = 0;
    for (const f of this.followed.values()) {
      if (this.current(f)) synced++;
      heldBatches += f.held.size;
      snapshotParts += f.assembly?.got.size ?? 0;
      viewBytes += f.viewBytes;
    }
    return { producers: this.followed.size, synced, ...this.counts, heldBatches, snapshotParts, viewBytes };
  }

  /** Decode and handle bytes received from `from`; what does not decode is counted and ignored [C10]. */
  handleMessage(from: string, bytes: Uint8Array, now: number): void {
    if (this.gate.busy) throw reentrantCall("EventSubscriber", "handleMessage");
    const decoded = decodeEnvelope(bytes);
    if (!decoded.ok) {
      this.ignore(decoded.error.code === "VERSION" ? "version" : "malformed");
      return;
    }
    this.handleEnvelope(from, decoded.value, now);
  }

  /** Handle an envelope received from `from`: EventBatch, Snapshot, ReplayUnavailable, and Hello, HandshakeReject or Heartbeat (liveness). */
  handleEnvelope(from: string, env: ectp.v1.IEnvelope, now: number): void {
    if (this.gate.busy) throw reentrantCall("EventSubscriber", "handleEnvelope");
    now = this.acceptNow(now);
    try {
      this.onEnvelope(from, env, now);
    } catch (cause) {
      // [I1] a hostile object (a throwing getter) is ignored like any other bad input.
      this.ignore("malformed");
      this.logger.debug("subscriber ignored an envelope it could not read", { from, error: thrownText(cause) });
      // [E2] One that threw after it showed a newer epoch (view reset) must not leave that epoch
      // unasked: nothing else would ever ask it (its heartbeats keep it from falling silent).
      const f = this.followed.get(from);
      if (f !== undefined && f.epoch > 0 && !f.hasView && f.want === undefined) this.subscribe(f, now);
    }
  }

  /**
   * Advance time: re-send unanswered requests, subscribe anew to silent or unreachable
   * producers, catch up while idle, send heartbeats. Returns (and clears) the queued outputs:
   * sends, each first one to a producer epoch preceded by a `connect-peer` when a connection was
   * given, and `disconnect-peer` for producers the transport lost, that fell silent or that were unfollowed.
   */
  poll(now: number): SubscriberOutput[] {
    if (this.gate.busy) throw reentrantCall("EventSubscriber", "poll");
    now = this.acceptNow(now);
    for (const f of this.followed.values()) {
      // [E2][I4] An assembly nobody awaits whose parts stopped coming retryMs ago is abandoned:
      // nothing else would release it (a synced subscriber asks nothing more).
      if (f.assembly !== undefined && f.want !== "snapshot" && now >= f.assemblyAt + this.retryMs) f.assembly = undefined;
      if (f.gone) {
        // [P8] reported unreachable: gone. Nothing but a new subscription (Hello first) goes to it,
        // at most one per retryMs (it may have lost us, or restarted).
        if (now >= f.wantSentAt + this.retryMs) {
          f.gone = false;
          f.lastHeard = now;
          this.subscribe(f, now);
        }
      } else if (now >= f.lastHeard + this.silenceMs(f)) {
        // [P8] Silent past its heartbeats: gone. It may have restarted (a new epoch knows no
        // subscribers and has no batches to replay) or forgotten us. Its transport forgets it (as
        // a consumer's does), and it is subscribed to anew, its connection loaded again first.
        // (Compared as nextDeadline computes it: with fractional times, `now - lastHeard` can fall
        // short of the interval at the very time nextDeadline names.)
        f.lastHeard = now;
        this.lost(f, "silent", now);
        this.forget(f);
        this.subscribe(f, now);
      } else if (f.want !== undefined && now >= this.retryAt(f)) {
        // A new subscription still unanswered goes again whole, Hello first: the epoch the retry
        // reaches may be a restarted one, which must be greeted before it is asked [P8].
        if (f.want === "snapshot") {
          // [E2] The parts still missing retryMs after the latest are lost: the retry's answer replaces
          // the assembly (and one of an absurd snapshot_id, kept, would have every answer ignored for good).
          f.assembly = undefined;
          // Any complete answer now closes it: a producer whose ReplayUnavailable named a `latest` its
          // snapshots never reach is not asked for one every retryMs for good (the gap that is left is
          // then replayed, and given up if nothing comes).
          f.snapshotFloor = 0;
          if (f.greetOnRetry) this.subscribe(f, now);
          else this.requestSnapshot(f, now);
        } else this.requestReplay(f, now);
      } else if (f.want === undefined && f.hasView && now >= f.nextCatchUp) {
        // [E2] a lost last batch shows no gap until a later one: ask for what follows the last
        // applied (the producer sends nothing when there is nothing).
        f.nextCatchUp = now + this.catchUpMs;
        // [P8] A request too: a producer reported unreachable after it is subscribed to anew retryMs after it.
        f.wantSentAt = now;
        f.viewDrops = 0; // the view stayed within maxViewBytes since the last drop: waits start over
        this.send(f.id, { replayRequest: { fromSequence: f.applied + 1 } });
      }
      if (now >= f.nextHeartbeat) {
        f.nextHeartbeat = now + this.heartbeatIntervalMs;
        // [P8] none to a gone producer: the next message it gets is the new Hello.
        if (!f.gone) this.send(f.id, { heartbeat: { sequence: ++this.heartbeatSequence } });
      }
    }
    let synced = 0;
    for (const f of this.followed.values()) {
      if (!this.current(f)) continue;
      synced++;
      if (f.lostAt !== undefined) {
        this.logger.info("producer synced again", { producerId: f.id, epoch: f.epoch, lostForMs: now - f.lostAt });
        f.lostAt = undefined;
      }
    }
    if (synced !== this.gaugedSynced) {
      this.gaugedSynced = synced;
      this.metrics.gauge("ectp_subscriber_synced_producers", synced);
    }
    const out = this.outputs.take();
    for (const o of out)
      if (o.type === "connect-peer") this.transportHolds.add(o.peerId);
      else if (o.type === "disconnect-peer") this.transportHolds.delete(o.peerId);
      // Requests are counted as they go out: one dropped while queued (unfollow, an unreachable report) never does.
      else if (o.envelope.snapshotRequest) this.counts.snapshotRequests++;
      else if (o.envelope.replayRequest) this.counts.replayRequests++;
    return out;
  }

  /** When {@link EventSubscriber.poll} must be called next; undefined when nothing is followed. */
  nextDeadline(): number | undefined {
    if (this.outputs.pending) return this.lastNow;
    let next: number | undefined;
    for (const f of this.followed.values()) {
      let d = f.nextHeartbeat;
      if (f.assembly !== undefined && f.want !== "snapshot") d = Math.min(d, f.assemblyAt + this.retryMs);
      // [P8] A producer reported unreachable is subscribed to anew after retryMs; its silence is not
      // judged meanwhile, so it is no deadline (poll would not act on it, and a driver would spin).
      if (f.gone) d = Math.min(d, f.wantSentAt + this.retryMs);
      else {
        d = Math.min(d, f.lastHeard + this.silenceMs(f));
        if (f.want !== undefined) d = Math.min(d, this.retryAt(f));
        else if (f.hasView) d = Math.min(d, f.nextCatchUp);
      }
      if (next === undefined || d < next) next = d;
    }
    return next;
  }

  // ---------------------------------------------------------------- input

  private onEnvelope(from: string, env: ectp.v1.IEnvelope, now: number): void {
    const f = this.followed.get(from);
    const sep = env.senderEpoch;
    // [V1] another (or no) major version; [C10] unknown senders, spoofed ids, malformed epochs.
    if (
      f === undefined ||
      (env.version?.major ?? 0) !== SPEC_MAJOR ||
      env.senderId !== from ||
      typeof sep !== "number" ||
      !Number.isSafeInteger(sep) ||
      sep < 1
    ) {
      if (f === undefined) {
        this.ignore("unknown_peer");
        // A followed producer's message the transport says came from someone else: its `from` is wrong.
        if (typeof env.senderId === "string" && this.followed.has(env.senderId)) this.senderMismatch.note(this.logger, from, env.senderId, "unknown_peer");
      } else if ((env.version?.major ?? 0) !== SPEC_MAJOR) this.ignore("version");
      else if (env.senderId !== from) {
        this.ignore("sender_mismatch");
        if (typeof env.senderId === "string") this.senderMismatch.note(this.logger, from, env.senderId, "sender_mismatch");
      }
      else this.ignore("malformed");
      return;
    }
    if (sep > f.heardEpoch) f.heardEpoch = sep;
    if (sep < f.epoch) {
      this.ignore("stale_epoch"); // [P8] an older epoch's message
      this.warnLowerEpoch(f, sep, now);
      return;
    }
    if (f.connection !== undefined && sep < f.connection.epoch) {
      // [P8] Older than the connection the deployment gave: that epoch no longer runs, and its
      // answers still in flight must not bring its view back. An answer also shows that a request
      // sent after that follow() may have reached it, not the new epoch: that one is greeted and
      // asked anew when it first speaks (a second Hello changes nothing, SPEC.md 4.1).
      if (env.snapshot || env.replayUnavailable) {
        f.askedEpoch = 0;
        f.subscribing = false;
      }
      this.ignore("stale_epoch");
      this.warnLowerEpoch(f, sep, now);
      return;
    }
    f.lastHeard = now;
    // Set when a new epoch's first message is a Snapshot, taken as the answer to a request not yet sent.
    const unasked = sep > f.epoch ? this.startNewEpoch(f, env, sep, now) : false;
    if (env.eventBatch) this.onBatch(f, env.eventBatch, now);
    else if (env.snapshot) {
      // [E2][C10] One it ignores answers nothing: the new epoch is asked now, as for any other first message.
      if (!this.onSnapshot(f, env.snapshot, now) && unasked) {
        this.requestSnapshot(f, now);
        f.subscribing = true;
        f.greetOnRetry = true;
      }
    } else if (env.replayUnavailable) this.onReplayUnavailable(f, env.replayUnavailable, now);
    else if (env.hello) this.onHello(f, env.hello, sep);
    else if (env.handshakeReject) this.onHandshakeReject(f, env.handshakeReject);
    else if (!env.heartbeat) this.ignore("unexpected"); // [C10] a body a subscriber never receives, or none (SPEC.md 4)
  }

  /**
   * [E2][P8] The first message of a greater epoch `sep` of `f`, before its body is handled: the view
   * is void and sequences restart, and the older epoch's connection is forgotten. Then, when the new
   * epoch was asked already, it is greeted again only when the request may have reached the older
   * epoch; when `env` is a Snapshot, it is greeted and the Snapshot is taken as the answer; when `env`
   * is a ReplayUnavailable, it is greeted (the body's handling asks for the snapshot); otherwise it is
   * greeted and subscribed to.
   * @returns whether `env`, a Snapshot, is taken as the answer to a request not yet sent
   */
  private startNewEpoch(f: Followed, env: ectp.v1.IEnvelope, sep: number, now: number): boolean {
    let unasked = false;
    // [E2] a greater epoch: the view is void and sequences restart; a snapshot is needed.
    // follow() greeted and asked this epoch already (the first one heard, or the one of a newer
    // connection), or a new subscription after silence or loss reached it. (follow()'s subscription
    // is `subscribing` until answered: the first epoch heard is asked unless an older epoch's answer
    // showed [P8] that the request may have reached that one instead.)
    const asked = f.want === "snapshot" && (f.askedEpoch === sep || f.subscribing);
    // [P8] A new subscription (after silence or loss) to an epoch we knew may have gone out before
    // the producer restarted, and so reached the older epoch: this one is greeted for sure below.
    const greetAgain = asked && f.subscribing && f.epoch !== 0 && f.askedEpoch !== sep;
    f.epoch = sep;
    f.followedSince = now;
    this.reset(f);
    f.producerIntervalMs = DEFAULT_INTERVAL_MS; // [P8] the older epoch's Hello said it; the new one's will tell
    // [P8] the older epoch's transport metadata is void: forget the connection made with it
    // (follow() tells the new epoch's).
    if (f.connection !== undefined && f.connection.epoch < sep) {
      // Only the deployment knows the new epoch's metadata: without it a transport that loads
      // metadata before sending (NIXL) reaches this producer no more. Said once per epoch.
      this.logger.warn("producer restarted: the connection given for its older epoch is void; call follow() with the new epoch's metadata", {
        producerId: f.id,
        epoch: sep,
        connectionEpoch: f.connection.epoch,
      });
      f.connection = undefined;
      f.awaitingConnection = true;
      if (f.connectedEpoch !== 0) {
        f.connectedEpoch = 0;
        this.outputs.push({ type: "disconnect-peer", peerId: f.id });
      }
    }
    if (asked) {
      f.want = "snapshot";
      // Its first message from us is then a Hello (SPEC.md 4: a second Hello of an epoch that got one
      // is answered and changes nothing, 4.1); the SnapshotRequest, if it went astray, is retried.
      if (greetAgain) this.hello(f);
    } else if (env.snapshot) {
      // This answer may be whole; if it is a part, the retry asks again when the rest is lost.
      this.hello(f);
      f.want = "snapshot";
      f.wantSentAt = now;
      unasked = true;
    } else if (!env.replayUnavailable) this.subscribe(f, now);
    else this.hello(f);
    return unasked;
  }

  /** A ReplayUnavailable from `f`, the answer to a ReplayRequest whose gap the producer no longer holds. */
  private onReplayUnavailable(f: Followed, ru: ectp.v1.IReplayUnavailable, now: number): void {
    // [E2] the gap cannot be replayed; one reporting less than we applied is stale.
    const latest = ru.latest;
    if (f.hasView && typeof latest === "number" && latest <= f.applied) this.ignore("duplicate");
    else {
      // Batches up to `latest` exist: the view is behind until they (or a snapshot as new) are
      // applied, whatever older answer arrives meanwhile (isSynced stays false, a gap is replayed).
      if (typeof latest === "number" && Number.isSafeInteger(latest) && latest < Number.MAX_SAFE_INTEGER) {
        f.maxSeen = Math.max(f.maxSeen, latest);
        f.snapshotFloor = Math.max(f.snapshotFloor, latest);
      }
      this.requestSnapshot(f, now);
    }
  }

  /** A producer's Hello (SPEC.md 4.1): its heartbeat interval judges its silence [P8]. */
  private onHello(f: Followed, hello: ectp.v1.IHello, sep: number): void {
    const role = hello.role;
    // SPEC.md 4.1 [C10]: a Hello of a role that serves no events (not PRODUCER or BOTH) is counted and
    // not applied, as is a second Hello of the epoch whose Hello was applied (a duplicate).
    if (role !== ectp.v1.Role.ROLE_PRODUCER && role !== ectp.v1.Role.ROLE_BOTH) this.ignore("unexpected");
    else if (f.heardHelloEpoch === sep) this.ignore("duplicate");
    else {
      f.heardHelloEpoch = sep;
      // [P8] judge its silence by its own interval (0: 2000 ms; at most 60 s)
      f.producerIntervalMs = peerHeartbeatIntervalMs(hello.heartbeatIntervalMs, this.heartbeatIntervalMs);
    }
  }

  /** A producer refused this subscriber's Hello: counted (`refused`) and logged at warning level, with the reason by name. */
  private onHandshakeReject(f: Followed, reject: ectp.v1.IHandshakeReject): void {
    this.ignore("refused");
    // The reason by name (INCOMPATIBLE), as metrics label it; a value this version does not know, as its number.
    const reason = reject.reason;
    const named = typeof reason === "number" ? (reasonName(reason) ?? reason) : reason;
    this.logger.warn("producer refused this subscriber's Hello", { producerId: f.id, reason: named, detail: ownText(reject.detail, 200) });
  }

  private onBatch(f: Followed, message: ectp.v1.IEventBatch, now: number): void {
    const seq = message.sequence;
    const events = message.events ?? []; // [E1] proto3: an absent repeated field is empty (the batch still counts)
    // A sequence of 2^53 - 1 is malformed here: the ReplayRequest after it could not be sent (SPEC.md 3.8).
    if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1 || seq >= Number.MAX_SAFE_INTEGER || !allObjects(events)) {
      this.ignore("malformed");
      return;
    }
    if (f.hasView && seq <= f.applied) {
      this.ignore("duplicate"); // [E2] a duplicate: delivery is at least once
      return;
    }
    if (f.held.has(seq)) {
      this.ignore("duplicate"); // [C10][E2] a duplicate of a batch held behind a gap
      return;
    }
    const ops = readEvents(events);
    f.maxSeen = Math.max(f.maxSeen, seq);
    if (f.hasView && seq === f.applied + 1) {
      this.apply(f, { sequence: seq, ops, bytes: 0 });
      if (f.viewBytes > this.maxViewBytes) this.dropView(f, now);
      else this.drainHeld(f, now);
      return;
    }
    // [E2] Ahead of a missing batch, or before the first snapshot: keep it (bounded in batches,
    // events and descriptor bytes; a dropped one is replayed, since maxSeen remembers it) for later.
    const room = f.held.size < this.maxHeldBatches && f.heldEvents + ops.length <= this.maxHeldEvents;
    const bytes = room ? opsBytes(ops) : 0;
    if (room && f.heldBytes + bytes <= this.maxHeldBytes) {
      f.held.set(seq, { sequence: seq, ops, bytes });
      f.heldEvents += ops.length;
      f.heldBytes += bytes;
    } else this.ignore("hold_full"); // the hold is full: dropped now, replayed later, counted as every drop is
    if (f.hasView && f.want === undefined) this.requestReplay(f, now); // [E2] a gap: replay from the first missing
  }

  /** Take a Snapshot (part) [E2]; false when it is ignored [C10]. */
  private onSnapshot(f: Followed, snap: ectp.v1.ISnapshot, now: number): boolean {
    const id = snap.snapshotId ?? 0;
    const sequence = snap.sequence ?? 0;
    const parts = snap.parts || 1;
    const part = snap.part ?? 0;
    const items = snap.items ?? []; // [E2] proto3: an absent repeated field is empty (no item held)
    const ok = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
    // [E2] a part whose number is not below its count, or unreadable fields: ignored.
    if (!ok(id) || !ok(sequence) || sequence >= Number.MAX_SAFE_INTEGER || !ok(parts) || !ok(part) || part >= parts || !allObjects(items)) {
      this.ignore("malformed");
      return false;
    }
    // [E2] an answer older than the one applied (none before the first of the epoch: lastSnapshotId -1)
    // or being assembled is ignored; a newer one starts anew.
    // (One whose id did not grow but whose sequence is newer than the view cannot roll it back: it is
    // taken, or a producer whose ids went wrong once would be asked for snapshots without end.)
    if ((id <= f.lastSnapshotId && sequence <= f.applied) || (f.assembly !== undefined && id < f.assembly.id)) {
      this.ignore("duplicate");
      return false;
    }
    if (id <= f.droppedSnapshotId && sequence <= f.droppedSnapshotSequence) {
      this.ignore("view_full"); // [E2] a part of an answer dropped as too large, or of an older one
      return false;
    }
    let a = f.assembly;
    if (a !== undefined && id === a.id && (a.parts !== parts || a.sequence !== sequence || a.got.has(part))) {
      this.ignore(a.got.has(part) ? "duplicate" : "malformed"); // inconsistent with its answer, or a duplicate part
      return false;
    }
    const entries = readItems(items); // before anything changes: a throwing getter changes nothing
    // [E2][I4] An empty part of a snapshot in parts still costs its keep (a whole empty snapshot is applied at once).
    let bytes = entries.length === 0 && parts > 1 ? EMPTY_PART_BYTES : 0;
    for (const entry of entries) bytes += entry[2];
    if (a === undefined || id > a.id) {
      a = { id, sequence, parts, got: new Map(), bytes: 0 };
      f.assembly = a;
    }
    if (a.bytes + bytes > this.maxViewBytes) {
      // [E2] A subscriber MAY drop an answer larger than it is prepared to hold: the request in
      // flight, if any, is asked again once the wait is over, and the producer's answer then may fit.
      f.assembly = undefined;
      f.droppedSnapshotId = id;
      f.droppedSnapshotSequence = sequence;
      this.viewFull(f, now);
      this.logger.warn("snapshot dropped: it holds more than maxViewBytes; raise maxViewBytes to follow this producer", {
        producerId: f.id,
        snapshotId: id,
        parts,
        bytesSoFar: a.bytes + bytes,
        maxViewBytes: this.maxViewBytes,
      });
      return false;
    }
    a.got.set(part, entries);
    a.bytes += bytes;
    f.assemblyAt = now;
    if (a.got.size < a.parts) {
      // [E2] A part of the answer awaited is progress: ask again only retryMs after the latest one, so a
      // snapshot whose parts take longer than retryMs to arrive is not asked for (and sent) again and again.
      if (f.want === "snapshot") f.wantSentAt = Math.max(f.wantSentAt, now);
      return true;
    }
    // Every part is here: the union of their items is the producer's set as of `sequence`.
    f.assembly = undefined;
    f.lastSnapshotId = id;
    f.subscribing = false;
    f.greetOnRetry = false;
    // [E2] An answer that fits ends the wait after a drop (it held back asking again); a request made
    // later (a ReplayUnavailable, a new subscription) goes out at once. Drops in a row still count.
    f.snapshotNotBefore = 0;
    f.replayRetries = 0;
    // [E2] It answers the SnapshotRequest in flight unless that one asked for more than it reflects
    // (a late answer to an older request: the one in flight is still retried after retryMs).
    if (f.want === "snapshot" && sequence >= f.snapshotFloor) {
      f.want = undefined;
      f.snapshotFloor = 0;
    }
    // A snapshot no newer than the view changes nothing; held batches still apply after it.
    if (!f.hasView || sequence > f.applied) {
      const parts: SnapshotEntry[][] = [];
      for (let p = 0; p < a.parts; p++) parts.push(a.got.get(p) ?? []);
      replaceView(this.holderIndex, f, parts);
      f.applied = sequence;
      f.hasView = true;
      f.maxSeen = Math.max(f.maxSeen, sequence);
      this.counts.snapshotsApplied++;
    }
    f.nextCatchUp = now + this.catchUpMs;
    this.drainHeld(f, now);
    return true;
  }

  /** Apply held batches that now follow on; a gap still open is replayed. */
  private drainHeld(f: Followed, now: number): void {
    for (let next = f.held.get(f.applied + 1); next !== undefined; next = f.held.get(f.applied + 1)) {
      f.held.delete(f.applied + 1);
      f.heldEvents -= next.ops.length;
      f.heldBytes -= next.bytes;
      this.apply(f, next);
      if (f.viewBytes > this.maxViewBytes) {
        this.dropView(f, now); // the rest stay held, for after the snapshot
        return;
      }
    }
    for (const [s, b] of [...f.held]) {
      if (s > f.applied) continue;
      f.held.delete(s);
      f.heldEvents -= b.ops.length;
      f.heldBytes -= b.bytes;
    }
    // Batches seen but not applied (held behind a gap, or dropped when the hold was full).
    if (f.maxSeen > f.applied) this.requestReplay(f, now);
    else {
      // [E2] Retries are counted until the gap closes, not reset by each live batch applied meanwhile:
      // a batch past anything published is given up while the producer keeps publishing too.
      f.replayRetries = 0;
      if (f.want === "replay") f.want = undefined;
    }
  }

  /** [E1] apply one batch's events in order. */
  private apply(f: Followed, batch: ReadBatch): void {
    for (const op of batch.ops) {
      if (op === CLEAR) clearView(this.holderIndex, f);
      else if (op.item !== undefined) setEntry(this.holderIndex, f, op.keyId, op.item, op.bytes);
      else deleteEntry(this.holderIndex, f, op.keyId);
    }
    f.applied = batch.sequence;
  }

  /**
   * [E2] The view passed `maxViewBytes` (a batch just applied grew it): drop it, and ask for a
   * snapshot once the wait is over; it is taken once it fits. Until then the producer is not synced
   * and has no view. Held batches stay: they apply after the snapshot where they follow on.
   */
  private dropView(f: Followed, now: number): void {
    this.logger.warn("view dropped: the producer's items passed maxViewBytes; raise maxViewBytes to follow this producer", {
      producerId: f.id,
      viewBytes: f.viewBytes,
      items: f.view.size,
      maxViewBytes: this.maxViewBytes,
    });
    clearView(this.holderIndex, f);
    f.hasView = false;
    this.viewFull(f, now);
    this.requestSnapshot(f, now);
  }

  /**
   * [E2] Count a drop for `maxViewBytes` and start its wait: the next SnapshotRequest goes out
   * `retryMs` after it, twice that after a second drop in a row, and so on up to 32 times, since
   * each answer costs the producer and the network up to `maxViewBytes`.
   */
  private viewFull(f: Followed, now: number): void {
    this.ignore("view_full");
    f.viewDrops++;
    f.snapshotNotBefore = now + this.retryMs * 2 ** Math.min(f.viewDrops - 1, 5);
  }

  /** When the request in flight is asked again: `retryMs` after it was sent, and for a snapshot not before the wait after a drop. */
  private retryAt(f: Followed): number {
    const at = f.wantSentAt + this.retryMs;
    return f.want === "snapshot" && f.snapshotNotBefore > at ? f.snapshotNotBefore : at;
  }

  /**
   * [E2] A gap that {@link MAX_REPLAY_RETRIES} retries did not close: forget the
   * batches seen past `applied` (held ones are dropped) and go back to catching up every
   * `catchUpMs`, which still finds any batch the producer really published.
   */
  private dropUnreplayed(f: Followed, now: number): void {
    this.logger.warn("replay retries did not close the gap; dropping the batches seen beyond it", {
      producerId: f.id,
      applied: f.applied,
      maxSeen: f.maxSeen,
      held: f.held.size,
    });
    if (f.held.size > 0) this.ignore("gap_given_up", f.held.size);
    f.held.clear();
    f.heldEvents = 0;
    f.heldBytes = 0;
    f.maxSeen = f.applied;
    f.want = undefined;
    f.replayRetries = 0;
    f.nextCatchUp = now + this.catchUpMs;
  }

  // ---------------------------------------------------------------- output

  private reset(f: Followed): void {
    f.hasView = false;
    f.applied = 0;
    f.maxSeen = 0;
    f.want = undefined;
    f.snapshotFloor = 0;
    f.replayRetries = 0;
    clearView(this.holderIndex, f);
    f.held.clear();
    f.heldEvents = 0;
    f.heldBytes = 0;
    f.assembly = undefined;
    f.lastSnapshotId = -1;
    f.droppedSnapshotId = 0;
    f.droppedSnapshotSequence = -1;
    f.viewDrops = 0;
    f.snapshotNotBefore = 0;
    f.subscribing = false;
  }

  /**
   * {@link EventSubscriber.isSynced} of a followed producer: a snapshot applied, nothing seen but
   * not applied, nothing asked, and not reported gone.
   */
  private current(f: Followed): boolean {
    return !f.gone && f.hasView && f.maxSeen <= f.applied && f.want === undefined;
  }

  /** [P8] How long a producer may stay silent: three of the longer heartbeat interval. */
  private silenceMs(f: Followed): number {
    return 3 * Math.max(f.producerIntervalMs, this.heartbeatIntervalMs, this.retryMs);
  }

  /** [P8] The epoch followed: the greater of the one taken from the producer and the connection's (0: none known). */
  private followedEpoch(f: Followed): number {
    return Math.max(f.epoch, f.connection?.epoch ?? 0);
  }

  /**
   * [P8] A message of an epoch lower than the one followed (ignored as `stale_epoch`). For
   * `silenceMs` after the epoch followed grew, it is a late message of the epoch before; heard after
   * that, the lower epoch still runs, a deployment mistake the count alone does not show: warned of
   * at most once per lower epoch (only the greatest warned of is kept, so a peer sending many epochs
   * costs no memory; a lower one than that is not warned of again).
   */
  private warnLowerEpoch(f: Followed, epoch: number, now: number): void {
    if (epoch <= f.warnedLowerEpoch || now < f.followedSince + this.silenceMs(f)) return;
    f.warnedLowerEpoch = epoch;
    this.logger.warn(
      "producer heard at an epoch lower than the one followed; its messages are ignored. Check the deployment: a producer's epoch must grow with every restart, " +
        "and no two instances may share a producer id; if the epoch followed is the wrong one (a bogus greater epoch was heard), unfollow() and follow() the producer again",
      { producerId: f.id, heardEpoch: epoch, followedEpoch: this.followedEpoch(f) },
    );
  }

  /**
   * [P8] A producer declared gone (silent or unreachable): the first time since it was last synced
   * (or followed), counted and logged at warning level, since a router's view of it goes stale from
   * here; again within the same outage, at debug level only (a producer that stays away is declared
   * gone again every retry).
   */
  private lost(f: Followed, cause: "silent" | "unreachable", now: number): void {
    const fields = { producerId: f.id, epoch: f.epoch, cause };
    if (f.lostAt !== undefined) {
      this.logger.debug("producer still lost", fields);
      return;
    }
    f.lostAt = now;
    this.metrics.counter("ectp_subscriber_producers_lost_total", 1, cause === "silent" ? LOST_SILENT : LOST_UNREACHABLE);
    this.logger.warn("producer lost; following it anew (it is not synced, and its view is kept until it answers)", fields);
  }

  /**
   * [P8] A producer declared gone (unreachable or silent) is forgotten: its transport connection
   * (`disconnect-peer`, so the new subscription loads its metadata again) and the Hello applied,
   * so its next Hello is applied afresh (SPEC.md 4.1).
   */
  private forget(f: Followed): void {
    f.heardHelloEpoch = 0;
    if (f.connectedEpoch === 0) return;
    f.connectedEpoch = 0;
    this.outputs.push({ type: "disconnect-peer", peerId: f.id });
  }

  /** A Hello (SPEC.md 4.1: the first message to each epoch of a peer), then a SnapshotRequest. */
  private subscribe(f: Followed, now: number): void {
    this.hello(f);
    this.requestSnapshot(f, now);
    f.subscribing = true;
    f.greetOnRetry = true;
  }

  /** A Hello: the first message to an epoch, so a gone producer may be sent others after it [P8]. */
  private hello(f: Followed): void {
    f.gone = false;
    this.send(f.id, {
      hello: {
        role: ectp.v1.Role.ROLE_CONSUMER,
        capabilities: [EVENTS_CAPABILITY],
        fingerprint: f.fingerprint,
        transportMetadata: this.transportMetadata,
        heartbeatIntervalMs: this.heartbeatIntervalMs,
      },
    });
  }

  private requestSnapshot(f: Followed, now: number): void {
    f.want = "snapshot";
    if (f.gone) return; // [P8] nothing before the new Hello; the new subscription asks for the snapshot
    f.wantSentAt = now;
    if (now < f.snapshotNotBefore) return; // [E2] waiting after a drop for maxViewBytes: poll asks when it is over
    this.send(f.id, { snapshotRequest: {} });
  }

  private requestReplay(f: Followed, now: number): void {
    if (f.want === "snapshot") return; // the snapshot will cover the gap
    if (f.gone) return; // [P8] nothing before the new Hello; the new subscription's snapshot covers it
    if (f.want === "replay") {
      if (now < f.wantSentAt + this.retryMs) return;
      // [E2] Asked again, whether a poll or a batch still behind the gap noticed it: a retry. After
      // MAX_REPLAY_RETRIES that brought no close of the gap, the batches seen beyond it are given up.
      if (++f.replayRetries > MAX_REPLAY_RETRIES) {
        this.dropUnreplayed(f, now);
        return;
      }
    }
    f.want = "replay";
    f.wantSentAt = now;
    this.send(f.id, { replayRequest: { fromSequence: f.applied + 1 } });
  }

  private send(peerId: string, body: ectp.v1.IEnvelope): void {
    const f = this.followed.get(peerId);
    const c = f?.connection;
    if (f !== undefined && c !== undefined && f.connectedEpoch !== c.epoch) {
      // The transport loads the producer's metadata before this message goes out.
      f.connectedEpoch = c.epoch;
      this.outputs.push({ type: "connect-peer", peerId, epoch: c.epoch, metadata: c.metadata });
    }
    this.outputs.push({
      type: "send",
      peerId,
      envelope: { version: SPEC_VERSION, senderId: this.id, senderEpoch: this.epoch, ...body },
    });
  }

  private acceptNow(now: number): number {
    this.lastNow = checkedNow(now, this.lastNow, this.logger);
    return this.lastNow;
  }
}

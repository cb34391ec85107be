/**
 * Types of the producer (E side) and of the item store it serves from.
 * @module
 */
import type { ectp } from "@ectp/protocol";
import type { ConfigOverrides, ProducerConfig } from "../config.js";
import type { Logger, MetricsSink } from "../observability.js";

/** One item as the store holds it. */
export interface StoreEntry {
  /** The item's descriptor, location included, as it would be announced. */
  readonly descriptor: ectp.v1.IItemDescriptor;
  /** Canonical key id (`itemKeyId`). */
  readonly keyId: string;
  /** Fully written [P1]. Only ready items may be granted or evicted. */
  readonly ready: boolean;
  /** Live pins (one per live grant [P2]). */
  readonly pins: number;
}

/** A change in what the store holds, turned into events by the producer [E1]. */
export type StoreChange =
  | {
      /** An item became ready. */
      readonly kind: "stored";
      /** Its descriptor. */
      readonly descriptor: ectp.v1.IItemDescriptor;
    }
  | {
      /** An item was evicted or discarded [P6]. */
      readonly kind: "removed";
      /** Its key. */
      readonly key: ectp.v1.IItemKey;
      /** Why. */
      readonly cause: "evicted" | "discarded";
    }
  | {
      /** Everything was dropped. */
      readonly kind: "cleared";
      /** Why. */
      readonly cause: "reset" | "shutdown";
    };

/**
 * The producer's region, as the core needs it: look up, pin and unpin items, and
 * learn what changed. The engine (or the simulator) writes items into it; the core
 * never writes bytes. Implementations evict only ready, unpinned items [P6].
 *
 * The core calls its methods in the middle of its own calls: a method it calls (and anything that
 * method calls) must not call the producer back; such a call throws `EctpError(REENTRANT_CALL)`.
 * `MemoryItemStore`'s `locate` and `release` callbacks are different: they run inside the
 * engine's own `put`, `evict`, `discard` and `clear`, not inside a producer call (unless the engine
 * makes that store call from a hook), so they may call the producer; a ReadRequest for their item
 * handed over from either is answered NOT_FOUND (`locate` runs before the item is stored,
 * `release` after it left).
 *
 * Descriptors must be publishable: valid [C2] (at most 64 shape dimensions included) and
 * encoding to at most 64 KiB (SPEC.md section 5), as `MemoryItemStore.put` enforces. The
 * producer checks those of any other store, once per descriptor object: one that fails is
 * never published in events or snapshots, announced or granted (a ReadRequest for it is
 * rejected INTERNAL), and is logged at error level and counted
 * (`ectp_producer_unpublishable_items_total`).
 */
export interface ItemStore {
  /** The entry for a key id, or `undefined` if absent or evicted. */
  get(keyId: string): StoreEntry | undefined;
  /** Add one pin to a ready item. Throws `EctpError(INVALID_ARGUMENT)` if absent or not ready. */
  pin(keyId: string): void;
  /** Remove one pin. Throws `EctpError(INVALID_ARGUMENT)` if the item has no pin. */
  unpin(keyId: string): void;
  /**
   * Optional fast path of {@link ItemStore.unpin}: remove one pin of the entry that
   * {@link ItemStore.get} returned, without looking its key up again. Must act exactly as
   * `unpin(entry.keyId)` while that entry is held, and throw `EctpError(INVALID_ARGUMENT)`
   * once it is not (evicted, discarded or cleared). When absent, the producer calls `unpin`.
   */
  unpinEntry?(entry: StoreEntry): void;
  /** Every ready item, for snapshots [E2]. */
  readyItems(): Iterable<StoreEntry>;
  /** Total pins over all items (for [I3]). */
  totalPins(): number;
  /** Subscribe to changes; returns an unsubscribe function. */
  subscribe(listener: (change: StoreChange) => void): () => void;
}

/** Options of a {@link ProducerCore}. */
export interface ProducerOptions {
  /** This producer's stable peer id (descriptors' `producer_id`). */
  id: string;
  /**
   * This producer's epoch [P8]: a positive integer, greater on every restart than on any earlier run of
   * this id (persist a counter, or use e.g. seconds since the Unix epoch when restarts are more than
   * a second apart). A smaller one reads as stale to peers that knew the greater one.
   */
  epoch: number;
  /**
   * Fingerprint of the items served; requests with another are rejected INCOMPATIBLE [P7]. A plain
   * object (or an `ectp.v1.Fingerprint`) of `model`, `dtype`, `rowBytes` and `layoutVersion`; any other key is refused.
   * Taken once, at construction (a copy is kept): changing the object afterwards changes nothing,
   * for a fingerprint MUST NOT change within an epoch [P7].
   */
  fingerprint: ectp.v1.IFingerprint;
  /** The region items are served from. */
  store: ItemStore;
  /**
   * Transport metadata sent in Hello and announcements (`transport.localMetadata()`). Required over
   * any transport that connects peers (the mock, NIXL): without it consumers cannot reach or read
   * from this producer and every item waits out its budget. Default: empty (only for envelopes
   * carried by hand).
   * Taken once, at construction (a copy is kept): changing the array afterwards changes no Hello [P8].
   */
  transportMetadata?: Uint8Array | undefined;
  /**
   * Timers and limits; missing fields take `DEFAULT_PRODUCER_CONFIG`. A consumer-only key is
   * ignored (one object may configure both cores); any other unknown key is INVALID_CONFIG.
   */
  config?: ConfigOverrides<ProducerConfig> | undefined;
  /** Metrics hook. Default: no-op. One lacking counter, gauge or histogram is refused (INVALID_CONFIG). */
  metrics?: MetricsSink | undefined;
  /**
   * Whether the samples about one consumer also name it, in a `consumer` label: grants, duplicate
   * requests, rejects, releases, expired leases, refused Hellos, consumers gone (see the package
   * README's metrics table). It tells which consumer holds the pins or draws the rejects, at one
   * series per consumer and label set (the ids are what peers call themselves: a refused Hello's
   * may be any). Default: false. Anything but a boolean is refused (INVALID_CONFIG).
   */
  peerLabels?: boolean | undefined;
  /** Logger hook. Default: no-op. One lacking debug, info, warn or error is refused (INVALID_CONFIG). */
  logger?: Logger | undefined;
}

/** Sizes of the producer's internal tables, for invariant checks [I3][I4]. */
export interface ProducerStats {
  /**
   * Grants issued and not yet released [P2][P3], each holding one pin: a grant is released by
   * its ReadComplete, its lease's end, its consumer's newer attempt for the same item, that
   * consumer's loss or restart, a cleared store, or shutdown.
   */
  readonly grants: number;
  /** Pins held in the store (equals `grants` at all times [I3]); -1 when the store's `totalPins` threw (logged). */
  readonly pins: number;
  /** Bytes pinned by live grants. */
  readonly pinnedBytes: number;
  /** Peers currently considered alive. */
  readonly peers: number;
  /** Event batches held for replay [E2]. */
  readonly replayBuffered: number;
  /** Sequence of the last published batch in this epoch (0 before the first) [E1]. */
  readonly eventSequence: number;
  /** Peer messages ignored because malformed, late, duplicate or unknown [C10]. */
  readonly ignoredMessages: number;
  /** Calls into the metrics or logger hook that threw: contained, so the engine's call went on [I1]. */
  readonly hookFailures: number;
  /** True after {@link ProducerCore.shutdown}. */
  readonly shuttingDown: boolean;
  /**
   * Until when (on the injected clock, as of the latest call) a consumer may still be reading item
   * memory under a grant of this producer [P2]: the latest lease deadline of the live grants and of
   * grants released without their consumer's word (the consumer declared gone or restarted, a
   * cleared store), whose one-sided reads may still run. `undefined` once that time has passed: a
   * store may then overwrite or free what it held in place (e.g. after a reset, see
   * `MemoryItemStore.clear`).
   */
  readonly readableUntil: number | undefined;
}

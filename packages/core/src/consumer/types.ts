/**
 * Engine-facing types of the consumer (PD side).
 * @module
 */
import type { ectp, FailureReasonName as ProtocolFailureReasonName } from "@ectp/protocol";
import type { ConfigOverrides, ConsumerConfig } from "../config.js";
import type { Logger, MetricsSink } from "../observability.js";
import type { ReadDestination } from "../transport.js";

/** A failure reason, as the name of an `ectp.v1.FailureReason` value without its prefix. */
export type FailureReasonName = ProtocolFailureReasonName;

/**
 * The consumer's memory for received items (the engine's region).
 *
 * The core calls it synchronously, in the middle of one of its own calls: a pool method must not
 * call the core back (such a call throws `EctpError(REENTRANT_CALL)`; note what is needed and act
 * after the core's call returns). The core never releases a destination while a read may still
 * write into it [I5]: quarantined destinations are released only after the read settles or the
 * quarantine cap passes [C8].
 */
export interface DestinationPool {
  /**
   * Reserve memory for `sizeBytes` bytes of item `keyId`: a destination whose `length` is
   * exactly `sizeBytes` (a pool with size classes hands out the first `sizeBytes` of its
   * block). Return `undefined` when there is no room now; the core treats that like
   * OVERLOADED (retryable, inside the budget). A destination of another length is released
   * at once and the item fails INTERNAL, with an error log naming both lengths. A throw is
   * taken as "no room now" too (logged at error each time, the grant given back): a pool that
   * always throws costs each waiting request its whole budget, so watch for that log.
   */
  allocate(keyId: string, sizeBytes: number): ReadDestination | undefined;
  /** Give memory back. Called exactly once per allocated destination. */
  release(destination: ReadDestination): void;
  /**
   * The bytes of a destination, for size and checksum verification [C11]. Asked only when
   * the transport reported no `ReadResult.crc32c` of the landed bytes. Return `undefined` if
   * they cannot be viewed from the host (e.g. GPU memory): then a checksum is verified only
   * against the transport's CRC, and without one only the size is checked and a descriptor
   * with a checksum counts as CHECKSUM_MISMATCH.
   */
  view(destination: ReadDestination): Uint8Array | undefined;
}

/** Options of a {@link ConsumerCore}. */
export interface ConsumerOptions {
  /** This consumer's stable peer id. */
  id: string;
  /**
   * This consumer's epoch [P8]: a positive integer, greater on every restart than on any earlier run of
   * this id (persist a counter, or use e.g. seconds since the Unix epoch when restarts are more than
   * a second apart). A smaller one reads as stale to peers that knew the greater one.
   */
  epoch: number;
  /**
   * Fingerprint this consumer's model expects; announcements must match it [C2]. A plain object (or an
   * `ectp.v1.Fingerprint`) of `model`, `dtype`, `rowBytes` and `layoutVersion`; any other key is refused.
   */
  fingerprint: ectp.v1.IFingerprint;
  /**
   * Where reads land: the core asks this pool for one destination per fetch, the transport reads
   * into it, the core verifies the bytes there [C11], and releases it when no request needs the
   * item and no read can still write into it [I5][C8].
   */
  destinations: DestinationPool;
  /**
   * Transport metadata sent in this consumer's Hello (`transport.localMetadata()`). Required over
   * any transport that connects peers (the mock, NIXL): without it producers cannot reach this
   * consumer and every item waits out its budget. Default: empty (only for envelopes carried by hand).
   * Taken once, at construction (a copy is kept): changing the array afterwards changes no Hello [P8].
   */
  transportMetadata?: Uint8Array | undefined;
  /**
   * Timers and limits; missing fields take `DEFAULT_CONSUMER_CONFIG`. A producer-only key is
   * ignored (one object may configure both cores); any other unknown key is INVALID_CONFIG.
   */
  config?: ConfigOverrides<ConsumerConfig> | undefined;
  /**
   * Seed of the jitter source [C4]: a safe integer (its low 32 bits are used), else INVALID_CONFIG.
   * Default: derived from `id` and `epoch`, so that the consumers of a fleet (and successive runs of
   * one) do not retry in lockstep. Same options and inputs, same outputs.
   */
  seed?: number | undefined;
  /** Metrics hook. Default: no-op. One lacking counter, gauge or histogram is refused (INVALID_CONFIG). */
  metrics?: MetricsSink | undefined;
  /**
   * Whether the samples about one producer also name it, in a `producer` label: item failures, local
   * encodes, retries, grant timeouts, quarantines and their cap releases, loaded items and their read
   * durations, producers gone (see the package README's metrics table). It answers "which encoder is
   * failing my prefill" without a log search, at one series per producer and label set (the ids come
   * from announcements). Default: false. Anything but a boolean is refused (INVALID_CONFIG).
   */
  peerLabels?: boolean | undefined;
  /** Logger hook. Default: no-op. One lacking debug, info, warn or error is refused (INVALID_CONFIG). */
  logger?: Logger | undefined;
}

/** One media item of a request, as the engine sees it at admission. */
export interface AdmitItem {
  /** The engine's id for the item within the request (e.g. its mm_hash or index): non-empty, unique per request. */
  itemId: string;
  /**
   * Where the encoding lives, as the orchestrator attached it. Absent: no remote copy.
   * Taken as untrusted input: anything malformed is an invalid announcement [C2], never an exception.
   * Read at the item's first admission; on a later one, an announcement of another item key is
   * refused (INVALID_ARGUMENT, see {@link AdmitRequest.items}). Pass the same object every time: a
   * re-admission validates it again only when it is another object than the one presented before.
   * `undefined` is allowed explicitly (as `ProducerCore.announce` returns it, also under
   * `exactOptionalPropertyTypes`) and means absent.
   */
  announcement?: ectp.v1.IAnnouncement | null | undefined;
  /**
   * Whether the request carries real model input for the item (pixels, precomputed
   * embeddings, a media handle). Placeholder metadata such as a grid shape is NOT model
   * input [C1][C5]. A boolean (absent reads as false; any other value is refused with
   * INVALID_ARGUMENT, never coerced). Required in the type on purpose: whether an item can fall
   * back to local encode is the engine's decision to state, and reading "absent" as "yes" is the
   * crash the field knows (an engine that encoded placeholder metadata).
   */
  hasModelInput: boolean;
  /** True when the engine already holds the encoding locally [C1]. Default false; a boolean when given. */
  local?: boolean;
}

/** A request as handed to {@link ConsumerCore.admit}. */
export interface AdmitRequest {
  /** The engine's request id. Unique among unfinished requests. */
  requestId: string;
  /**
   * The request's media items, the same on every admission of the request (SPEC.md 3.4). An item left
   * out of a later admission is not released: it stays part of the request (its budget runs, and it
   * can still fail the request) until {@link ConsumerCore.finishRequest}. A later admission naming an
   * item id the first did not, or announcing another item key for an item than its first admission
   * did, is refused with INVALID_ARGUMENT before anything changes; the same key again (a newer
   * epoch's announcement, another producer's) is accepted and not read. Two presentations are not
   * compared: a failed request's later admissions (they return its failure), a first admission with
   * no items, and an item first presented as local or without a valid announcement (it took no key).
   * The core keeps the announcement object it was given and takes it unchanged when it is passed
   * again: never modify an announcement after passing it.
   */
  items: readonly AdmitItem[];
}

/** Per-item decision of one admission call [C1]. */
export type ItemDecision =
  | {
      /** The item is available: already local, or loaded and verified. */
      readonly action: "ready";
      /** The {@link AdmitItem.itemId} this decision is about. */
      readonly itemId: string;
      /**
       * Where the verified bytes are; absent when the engine had the item locally. Shared by every
       * unfinished request holding the same item (one fetch per key [C9]): read-only. It stays
       * valid until the last of those requests is finished ({@link ConsumerCore.finishRequest}),
       * a failed one included [C6].
       */
      readonly destination?: ReadDestination;
    }
  | {
      /** Not yet: call admit again on a later step. */
      readonly action: "defer";
      /** The {@link AdmitItem.itemId} this decision is about. */
      readonly itemId: string;
    }
  | {
      /** Encode locally from the request's model input. */
      readonly action: "local-encode";
      /** The {@link AdmitItem.itemId} this decision is about. */
      readonly itemId: string;
      /** Why the remote path was not (or no longer) used; absent when there was no announcement. */
      readonly reason?: FailureReasonName;
    };

/** One failed item of a failed request. */
export interface ItemFailure {
  /** The {@link AdmitItem.itemId} of the item that failed. */
  readonly itemId: string;
  /**
   * Why the item could not be obtained, with no model input to encode it from: a terminal reason
   * such as `BUDGET_EXHAUSTED` [C3] or `NOT_FOUND` [C5] (SPEC.md section 11 lists each one's meaning).
   */
  readonly reason: FailureReasonName;
  /**
   * Remote attempts of the fetch it waited on (0 when none): a fetch is shared by every request
   * waiting for the same item [C9], so attempts made before this request joined it count too.
   */
  readonly attempts: number;
}

/**
 * Result of {@link ConsumerCore.admit}. Read-only and shared: while no decision of the request
 * changed, `admit` returns the same object again (its `items` array and decisions included), and a
 * decision object serves every admission of its item. It is not frozen (freezing cost 12 to 25 % of
 * a new request's admit), so never sort or change it in place: the next admission would return the
 * change. Sort or annotate a copy (`[...result.items]`).
 */
export type AdmitResult =
  | {
      /** Every item has a decision; the request goes on. */
      readonly status: "admitted";
      /** One decision per item, in the request's order. */
      readonly items: readonly ItemDecision[];
    }
  | {
      /** The request failed; it is also reported once by {@link ConsumerCore.drainFailed} [C6]. */
      readonly status: "failed";
      /** The failed items (at least one). */
      readonly failures: readonly ItemFailure[];
    };

/** A failed request, as reported once by {@link ConsumerCore.drainFailed} [C6]. */
export interface FailedRequest {
  /** The engine's request id. */
  readonly requestId: string;
  /** A reason per failed item. */
  readonly failures: readonly ItemFailure[];
}

/** Sizes of the consumer's internal tables, for invariant checks [I4] and dashboards. */
export interface ConsumerStats {
  /** Requests admitted and not yet finished. */
  readonly requests: number;
  /**
   * (request, item) budgets started [C3]: each from the item's first wait until its request
   * finishes or fails, also once the item is ready or encoded locally (it never waits again).
   */
  readonly budgets: number;
  /** Items with a remote fetch in progress (single flight: one per key). */
  readonly fetches: number;
  /** Reads started and not yet settled, quarantined ones included (one the quarantine cap released counts no more, settled or not [C8]). */
  readonly readsInFlight: number;
  /** Quarantined reads [C8]. */
  readonly quarantined: number;
  /** Grants held (received, not yet ACKed). */
  readonly grantsHeld: number;
  /** Verified items held for unfinished requests. */
  readonly loadedItems: number;
  /** Destinations allocated and not released. */
  readonly destinations: number;
  /** Failed requests not yet drained. */
  readonly undrainedFailures: number;
  /** Peer messages ignored because malformed, late, duplicate or unknown [C10]. */
  readonly ignoredMessages: number;
  /** Calls into the metrics or logger hook that threw: contained, so the engine's call went on [I1]. */
  readonly hookFailures: number;
}

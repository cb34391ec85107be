/**
 * The Transport interface: what the core needs from a data plane.
 *
 * The core owns this interface; `@ectp/transport-mock` and `@ectp/transport-nixl`
 * implement it and depend on the core, never the other way round. The shape follows
 * what NIXL offers (one-sided READ of registered memory, small notification messages
 * between agents, agent metadata exchanged once per peer epoch) so that an
 * in-process mock and NIXL both fit without adapters.
 *
 * The interface is poll-based: the driver calls {@link Transport.poll} to collect
 * received control messages and finished reads, and {@link Transport.waitForActivity}
 * to sleep until something may have happened. Nothing in a Transport calls back into
 * the core, so the core stays sans-IO and single-threaded.
 *
 * @module
 */

/** A block of local memory registered with a transport, readable by peers. */
export interface MemoryRegion {
  /** Transport-assigned id, unique within one transport instance. */
  readonly id: number;
  /** The registered bytes. Peers read these; the owner writes them. */
  readonly bytes: Uint8Array;
}

/** Where a read lands: a slice of a registered local region. */
export interface ReadDestination {
  /** The registered region to write into. */
  readonly region: MemoryRegion;
  /** Byte offset inside the region. */
  readonly offset: number;
  /** Number of bytes to read (the descriptor's `size_bytes`). */
  readonly length: number;
}

/** One one-sided read of a peer's memory into local memory. */
export interface ReadOperation {
  /** Caller-chosen id, unique among this transport's unsettled reads. */
  readonly readId: number;
  /** The peer holding the source bytes (a producer id). */
  readonly peerId: string;
  /** Opaque source location from the grant's descriptor (`ItemDescriptor.location`). */
  readonly source: Uint8Array;
  /**
   * Local destination; `destination.length` bytes are read, never a byte past it. A `source` that
   * covers fewer bytes (a peer's descriptor at odds with its own `size_bytes`) fails the read, with
   * an `error` saying so, and writes nothing: reading on would read the owner's other memory. One
   * that covers more is failed so too, or read from its start (`destination.length` bytes).
   */
  readonly destination: ReadDestination;
  /**
   * Ask for the CRC-32C of the bytes that landed ({@link ReadResult.crc32c}). The consumer
   * sets it when the item carries a checksum to verify [C11], so that a transport with a
   * thread of its own (NIXL's engine) can compute it there, at hardware speed, instead of the
   * consumer reading every byte again on the engine's thread; and when its pool gives no view of
   * the destination (GPU memory), where only the transport's CRC can verify a checksum that
   * comes later (an announcement that joins the read, or asks for the loaded bytes). A
   * transport MAY ignore it.
   */
  readonly crc32c?: boolean;
}

/**
 * How a read ended.
 *
 * - `done`: every byte was written to the destination.
 * - `failed`: the read did not complete; the destination may hold partial data.
 * - `cancelled`: {@link Transport.cancelRead} took effect before completion.
 *
 * Whatever the status, once a read's result has been reported the transport
 * guarantees it will not write into the destination again ([I5]): this is the
 * "settled" signal quarantine waits for ([C8]). A result with any other status settles nothing:
 * the consumer counts it (ignored, reason `malformed_read_result`), logs an error and keeps the
 * read in flight, destination included, until its deadline or a result with one of these.
 */
export type ReadStatus = "done" | "failed" | "cancelled";

/**
 * Whether `status` is a {@link ReadStatus}, the only results that settle a read [I5] (the
 * consumer's rule: a Driver closing waits for the consumer's reads in flight, so for the same results).
 * @internal
 */
export function settlesRead(status: unknown): status is ReadStatus {
  return status === "done" || status === "failed" || status === "cancelled";
}

/** A finished (settled) read. */
export interface ReadResult {
  /** The id given to {@link Transport.startRead}. */
  readonly readId: number;
  /** How the read ended: `"done"` (bytes landed), `"failed"` or `"cancelled"` (see {@link ReadStatus}). */
  readonly status: ReadStatus;
  /**
   * Number of bytes written. Required when `status` is `done`: the consumer checks it against the
   * item's size [C11], and a `done` result without it fails the item SIZE_MISMATCH.
   */
  readonly bytesRead?: number | undefined;
  /**
   * True when the transport knows the peer is gone (e.g. NIXL REMOTE_DISCONNECT): the consumer
   * then treats the producer as reported unreachable [P8] (no ReadComplete to it; its other
   * fetches end at once).
   */
  readonly peerGone?: boolean | undefined;
  /** Human-readable reason for `failed`. */
  readonly error?: string | undefined;
  /**
   * CRC-32C (unsigned) of the destination's `bytesRead` bytes, for a `done` read that asked
   * for it ({@link ReadOperation.crc32c}). A transport that reports it MUST compute it over the
   * destination after the bytes landed (never over the source, never copied from a
   * descriptor): the consumer then verifies the item's checksum against this value instead of
   * computing it [C11]. Absent (or not a 32-bit unsigned integer): the consumer computes it.
   * It is a number, as `crc32c()` of `@ectp/protocol` returns, never the four bytes of
   * `crc32cBytes()`: those count as absent, so a host that cannot view the destination (GPU
   * memory) fails the item CHECKSUM_MISMATCH.
   */
  readonly crc32c?: number | undefined;
}

/** One control message received from a peer. */
export interface ReceivedMessage {
  /**
   * The sender's peer id: the `localId` of the transport that sent it, which its
   * envelope names as `sender_id`. Never a network address: a core ignores a message whose `from`
   * is not its envelope's sender (counted as ignored, reason `sender_mismatch`, or a subscriber's
   * `unknown_peer`; the first one logged).
   */
  readonly from: string;
  /** The encoded `ectp.v1.Envelope`, exactly as sent. */
  readonly bytes: Uint8Array;
}

/**
 * Everything that happened since the previous {@link Transport.poll}. Read-only: a transport
 * may hand out shared, frozen objects and lists (an idle result, empty lists). The driver hands
 * them to the cores reads first, then unreachable peers, then messages [P8]: a report about a
 * peer's last run ends that run, and a Hello of its next run in the same poll starts the next.
 */
export interface TransportActivity {
  /**
   * Control messages received, in arrival order from each peer (the order across peers need not be
   * kept: NIXL hands one drain's notifications over grouped by sender): from any peer, connected or not. A producer
   * connects to a consumer only when that consumer's Hello has arrived, so a transport that
   * delivered only from peers it connected to would never let a handshake start.
   */
  readonly messages: readonly ReceivedMessage[];
  /** Reads that settled, in settlement order. */
  readonly reads: readonly ReadResult[];
  /** Peers the transport found unreachable (e.g. a send or connect failed). */
  readonly unreachable: readonly string[];
}

/**
 * A data plane for ECTP: control messages plus one-sided reads of registered memory.
 *
 * Implementations MUST NOT throw from {@link Transport.send}, {@link Transport.startRead},
 * {@link Transport.cancelRead} or {@link Transport.poll} because of anything a peer did;
 * failures are reported through {@link Transport.poll} instead. They MAY throw an
 * `EctpError` for local programming errors (an unknown region, a destination outside
 * its region).
 */
export interface Transport {
  /** This endpoint's peer id, as used in envelopes' `sender_id`. */
  readonly localId: string;

  /** Metadata a peer needs to reach this endpoint (sent in `Hello.transport_metadata`). */
  localMetadata(): Uint8Array;

  /**
   * Make a peer reachable with the metadata it published for `epoch`. Called once per
   * peer epoch while the peer stays connected, and again for the same epoch after
   * {@link Transport.disconnectPeer} or after a poll listed the peer `unreachable` (load its
   * metadata again then: a transport may have dropped it, as NIXL does); a call with a newer
   * epoch replaces the older metadata. Resolves when
   * reads from and sends to the peer may start; rejects with an `EctpError` if the
   * metadata is unusable. (The `Driver` takes a return value that is not a promise as a
   * connection made at once.) Receiving needs no connection: see {@link TransportActivity.messages}.
   */
  connectPeer(peerId: string, epoch: number, metadata: Uint8Array): Promise<void>;

  /** Forget a peer's metadata (peer gone or restarted). Idempotent; never throws. */
  disconnectPeer(peerId: string): void;

  /** Send one encoded `ectp.v1.Envelope` to a peer. Fire and forget: loss is possible. */
  send(peerId: string, message: Uint8Array): void;

  /** Register local memory so peers can read it. */
  registerMemory(bytes: Uint8Array): MemoryRegion;

  /**
   * Deregister a region. Reads still in flight from or into it settle as `failed`
   * (they never touch the memory afterwards).
   */
  deregisterMemory(region: MemoryRegion): void;

  /** Opaque location bytes for `[offset, offset + length)` of a region, for descriptors. */
  describe(region: MemoryRegion, offset: number, length: number): Uint8Array;

  /**
   * Start a read. Its result arrives through {@link Transport.poll}, exactly once. A call that
   * throws started nothing: no result arrives for that read id, and the destination is not
   * touched (the `Driver` then settles the read as `failed` itself).
   */
  startRead(read: ReadOperation): void;

  /**
   * Ask to cancel a read. Its result (`cancelled`, or `done`/`failed` if too late) still arrives.
   * [C8] A consumer lets a read's destination go once the result arrives, or once its quarantine cap
   * (`quarantineCapMs`, finite by default) has passed since its deadline, result or not: a transport
   * used with a finite cap must make sure that a read cancelled that long ago writes nothing more
   * (cut it off, or report it settled in time), or set no cap (`Infinity`) in the consumer.
   */
  cancelRead(readId: number): void;

  /** Collect what happened since the previous call. Never blocks. Treat the result as read-only. */
  poll(): TransportActivity;

  /**
   * Resolve when {@link Transport.poll} may have something new, or after `timeoutMs`,
   * whichever comes first. Lets a real-time driver sleep instead of spinning.
   *
   * Activity is edge-triggered: it wakes every wait pending when it happens and is
   * remembered for the next wait, which resolves at once and consumes it. A wait repeated
   * without a `poll` in between therefore sleeps until new activity (or the timeout), even
   * if earlier activity is still unpolled. So a loop that waits on several transports
   * (`Promise.race`) but polls only some of them sleeps instead of spinning, and nothing
   * is missed by a loop that polls after every wait.
   *
   * `signal`, when given, ends the wait early: once it aborts, the wait resolves (if it has not)
   * and the transport keeps nothing for it (no timer, no record). The driver aborts every wait it
   * stops awaiting (woken by `wake()`, or stopped), so abandoned waits do not pile up. A transport
   * MAY ignore it; its waits then end at their timeout as before.
   *
   * After {@link Transport.close}, the close is activity like any other (it wakes the waits then
   * pending and is remembered as above); later waits sleep until their timeout. Resolving every
   * wait at once would spin a loop that still waits.
   */
  waitForActivity(timeoutMs: number, signal?: AbortSignal): Promise<void>;

  /** Release every resource. Unsettled reads settle as `cancelled` first. */
  close(): Promise<void>;
}

/**
 * {@link MockTransport}: one endpoint of a {@link MockNetwork}, implementing the core's
 * `Transport` interface over real bytes and virtual time.
 * @module
 */

import type { MemoryRegion, ReadOperation, ReceivedMessage, Transport, TransportActivity } from "@ectp/core";
import type { EndpointState, Fabric } from "./fabric.js";

/**
 * A message as {@link MockTransport.poll} hands it out: the core's `ReceivedMessage` plus
 * what the sender attached to it in {@link MockTransport.send}. The attachment lets an
 * in-process caller that sends an encoded envelope also hand over the envelope object it
 * encoded, so the receiving side can skip decoding bytes it knows are that envelope's
 * encoding (the simulator does this for the real cores); everyone else ignores it.
 */
export interface MockReceivedMessage extends ReceivedMessage {
  /** The sender's `attachment`, the very same object (not a copy); `undefined` when none was given. */
  readonly attachment: unknown;
}

/** What {@link MockTransport.poll} returns: the core's `TransportActivity` with {@link MockReceivedMessage}s (read-only, like it). */
export interface MockActivity extends TransportActivity {
  /** Messages received, in delivery order, each with its sender's attachment. */
  readonly messages: readonly MockReceivedMessage[];
}

/**
 * One endpoint of a {@link MockNetwork}. Get it from {@link MockNetwork.endpoint} (or
 * {@link MockNetwork.restart}); never construct it directly.
 *
 * It behaves like a NIXL agent in one process: memory you register is readable by peers
 * that connected with your {@link MockTransport.localMetadata}, reads copy real bytes
 * from the owner's `Uint8Array` into yours when they complete in virtual time, and
 * control messages arrive as independent copies. Anything a peer does (a malformed
 * location, a crash, a deregistered source) shows up as a failed read or an
 * `unreachable` entry in {@link MockTransport.poll}, never as a throw; only local misuse
 * (an unregistered destination, a duplicate read id) throws an `EctpError`
 * (`INVALID_ARGUMENT`).
 *
 * Once the endpoint is closed or crashed, `send` and `cancelRead` do nothing (messages are
 * lost) and `registerMemory` throws `INVALID_ARGUMENT` (the endpoint has no memory any more).
 * `startRead` on a closed endpoint throws `INVALID_ARGUMENT` (it could never deliver the
 * read's result; a driver settles such a read as failed); on a crashed one it does nothing.
 * After `close`, `poll` returns what was already queued (with the `cancelled` results of
 * unsettled reads) and then nothing; a crash loses what was queued too, as a crashed process
 * loses its memory, so `poll` returns nothing.
 */
export class MockTransport implements Transport {
  /** This endpoint's id (the same for every incarnation). */
  readonly localId: string;
  /**
   * Which incarnation of {@link MockTransport.localId} this is: 1 for the first, +1 per
   * {@link MockNetwork.restart} (or `endpoint()` after a close). A restarted owner should
   * start a new ECTP epoch [P8]; peers must reconnect with its new metadata.
   */
  readonly incarnation: number;
  private readonly fabric: Fabric;
  private readonly state: EndpointState;

  /** @internal Created by {@link MockNetwork}; not part of the public API. */
  constructor(fabric: Fabric, state: EndpointState) {
    this.fabric = fabric;
    this.state = state;
    this.localId = state.id;
    this.incarnation = state.incarnation;
  }

  /** Whether this endpoint is live (not closed, not crashed). */
  get live(): boolean {
    return this.state.status === "live";
  }

  /** `live`, `closed` (after {@link MockTransport.close}) or `crashed` (after {@link MockNetwork.crash}/`restart`). */
  get status(): "live" | "closed" | "crashed" {
    return this.state.status;
  }

  /** Metadata naming this endpoint and incarnation; peers pass it to {@link MockTransport.connectPeer}. */
  localMetadata(): Uint8Array {
    return this.fabric.metadata(this.state);
  }

  /**
   * Make a peer reachable. Resolves at once (connecting costs no virtual time) when the
   * metadata names a live endpoint of this network in its current incarnation; rejects
   * with `EctpError` `PEER_UNREACHABLE` for an unknown, crashed, closed or restarted peer
   * or malformed metadata (`details.reason` says which). A newer `epoch` replaces the
   * stored one, as a new connection: reads started under the old one fail at their due time
   * ("not connected"); so does metadata of a new incarnation of the peer, whatever its epoch. A
   * repeated call with the same epoch, or a late one with an older epoch, for the same incarnation
   * changes nothing. An `epoch` that is not a non-negative safe integer rejects with `EctpError`
   * `INVALID_ARGUMENT` and stores nothing.
   */
  connectPeer(peerId: string, epoch: number, metadata: Uint8Array): Promise<void> {
    return this.fabric.connectPeer(this.state, peerId, epoch, metadata);
  }

  /**
   * Forget a peer. Idempotent. Later sends to it are dropped and reported `unreachable`;
   * reads from it still in flight fail at their due time ("not connected"), also when the peer is
   * connected again before then: a read is judged against the connection it started under. (A read
   * whose owner crashes or closes first fails with `peerGone` one latency after that, as always.)
   */
  disconnectPeer(peerId: string): void {
    this.fabric.disconnectPeer(this.state, peerId);
  }

  /**
   * Send a control message. The bytes are copied now (reuse your buffer freely) and
   * delivered after `latencyMs + length / bandwidthBytesPerMs` of virtual time, subject
   * to the link's faults; messages on one link arrive in send order unless a `delay` or
   * `reorder` fault intervenes. A peer that is not connected, or that crashed, closed or
   * restarted since it was connected, gets nothing and is listed in the next
   * {@link MockTransport.poll}'s `unreachable`; a partitioned link loses the message silently.
   *
   * `attachment` (default none) travels with the message uncopied and comes out as the
   * received message's {@link MockReceivedMessage.attachment} (a duplicated message carries
   * the same object twice). Timing and faults still depend only on the bytes. An in-process
   * sender attaches the envelope object it encoded so the receiver may skip the decode; with
   * an attachment the sender hands over the object and the bytes alike (the bytes are not
   * copied either, every delivery shares them) and must modify neither afterwards.
   */
  send(peerId: string, message: Uint8Array, attachment?: unknown): void {
    this.fabric.send(this.state, peerId, message, attachment);
  }

  /**
   * Register memory peers may read. The region wraps your array (no copy): what you
   * write into it is what readers get, and reads land in it directly. As with the NIXL
   * transport, the buffer is marked untransferable (it cannot be detached under a read), and
   * a view of a resizable `ArrayBuffer` is refused (`INVALID_ARGUMENT`).
   */
  registerMemory(bytes: Uint8Array): MemoryRegion {
    return this.fabric.registerMemory(this.state, bytes);
  }

  /**
   * Deregister a region. Your reads still writing into it settle as `failed` at once and
   * never write afterwards; that is recorded as an {@link UnsafeDeregistration}
   * (`destination` side) because it breaks [I5]. Peers' reads of it fail at their due time
   * (recorded on the `source` side). Throws `INVALID_ARGUMENT` for a region this endpoint
   * does not hold; a no-op after close or crash. A network observer that throws meanwhile fails
   * the call with its first error, once every read has settled and the deregistration is recorded.
   */
  deregisterMemory(region: MemoryRegion): void {
    this.fabric.deregisterMemory(this.state, region);
  }

  /**
   * Location bytes for `[offset, offset + length)` of a region: endpoint id, incarnation,
   * region id, offset and length. Throws `INVALID_ARGUMENT` for a foreign region, an
   * out-of-range slice, or an endpoint that is closed or crashed (its memory is released).
   */
  describe(region: MemoryRegion, offset: number, length: number): Uint8Array {
    return this.fabric.describe(this.state, region, offset, length);
  }

  /**
   * Start a read. It completes `latencyMs` after its bytes have crossed the owner -> reader
   * path at `bandwidthBytesPerMs` (reads on one path queue behind each other); at that
   * moment the source bytes are copied into the destination and the result is queued for
   * {@link MockTransport.poll}, exactly once. A bad source location (malformed, another
   * endpoint's, an older incarnation's, out of range, a length different from the
   * destination's) or a gone owner (`peerGone: true`, over a partitioned link too) makes it `failed`,
   * never a throw. So does a peer not connected when the read started (reads may start once
   * {@link MockTransport.connectPeer} resolved; a connect while it is in flight does not save it), or
   * a connection dropped or replaced before its due time: it fails then, "not connected".
   * Throws `INVALID_ARGUMENT` for a `readId` that is not an integer or is a duplicate unsettled
   * one (also one settled whose result has not been polled yet), a `peerId` that is not a string, or a destination that is not a registered region of this
   * endpoint or lies outside it.
   */
  startRead(read: ReadOperation): void {
    this.fabric.reads.start(this.state, read);
  }

  /**
   * Cancel a read: it settles `cancelled` immediately and never writes. Unknown or settled
   * ids are ignored. A read held by a `stallRead` fault ignores the cancel and settles
   * late, which is the situation quarantine [C8] exists for.
   */
  cancelRead(readId: number): void {
    this.fabric.reads.cancel(this.state, readId);
  }

  /**
   * Run every network event due at the current time, then return and clear this
   * endpoint's received messages, settled reads and unreachable peers (each peer once).
   * Treat the result as read-only: an empty list is one shared frozen array, and a poll
   * with nothing to report returns one shared frozen result (no allocation per idle poll).
   * Throws `EctpError` `INVALID_CONFIG` when the network's external `clock` returns anything but
   * a finite number from `now()`. Also throws what a network observer threw while due events ran:
   * the events this poll runs, or (external clock) those the network's own timer ran since any
   * endpoint's last poll or wait. Such a poll takes nothing: the next one hands over what is queued.
   */
  poll(): MockActivity {
    return this.fabric.poll(this.state);
  }

  /**
   * Whether {@link MockTransport.poll} has something queued for this endpoint already: a
   * received message, a settled read or an unreachable peer, from the network events run
   * so far. Unlike `poll` it runs no due events and takes nothing. A virtual-time loop
   * (the simulator) asks it after {@link MockNetwork.advanceTo} so that it polls only the
   * endpoints with input, instead of observing every delivery and settlement.
   */
  hasActivity(): boolean {
    return this.fabric.hasActivity(this.state);
  }

  /**
   * Resolve when {@link MockTransport.poll} has something new, or after `timeoutMs`.
   * Something queued wakes every pending wait and is remembered for the next wait, which
   * resolves at once and consumes it; a wait repeated without a `poll` in between sleeps
   * until something new arrives (so a loop that waits on several endpoints but polls only
   * some of them does not spin).
   *
   * On virtual time (no `clock` option) this never waits for real time: it resolves at
   * once when something already due or queued for this endpoint has not been reported yet,
   * or `timeoutMs` is 0; otherwise when a later {@link MockNetwork.advanceTo}/`advanceBy` (or another
   * endpoint's poll) delivers something here or moves virtual time past
   * `now + timeoutMs`. So a loop awaiting it needs someone to advance the network; drive
   * virtual-time tests with `Driver.step()` and `network.advanceTo(network.nextEventTime())`.
   *
   * With an external `clock` (real time) it sleeps on a real timer until the next event
   * or the timeout. It also resolves when the endpoint closes or crashes, and when `signal`
   * aborts (the wait is then forgotten: no timer stays armed for it). It rejects with `EctpError`
   * `INVALID_CONFIG` when the clock's `now()` returns anything but a finite number; a clock that
   * does so while waits are pending ends them all, and the next `poll` (or wait) throws that error.
   * Likewise a network observer that throws while the network's timer runs due events ends every
   * pending wait, and the next `poll` of any endpoint throws (or its next wait rejects with) what it
   * threw, once. A wait whose own run of due events meets an observer's throw rejects with it.
   */
  waitForActivity(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return this.fabric.waits.waitForActivity(this.state, timeoutMs, signal);
  }

  /**
   * Close the endpoint: unsettled reads settle `cancelled` (still returned by the next
   * poll), its memory is released (peers' reads of it fail with `peerGone`), and sends to
   * it are dropped. {@link MockNetwork.endpoint} with the same id then creates a new
   * incarnation. An observer ({@link MockNetwork.observe}) that throws meanwhile rejects the
   * promise with its error; the endpoint is closed all the same.
   */
  close(): Promise<void> {
    try {
      this.fabric.close(this.state);
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve();
  }
}

/**
 * What the sans-IO state machines ask their driver to do.
 * @module
 */
import type { ectp } from "@ectp/protocol";
import type { ReadDestination } from "./transport.js";

/** Send an envelope to a peer. The driver encodes it and calls `Transport.send`. */
export interface SendOutput {
  /** Tags this member of {@link CoreOutput} and {@link SubscriberOutput}: always `"send"`; switch on it. */
  readonly type: "send";
  /** Destination peer id. */
  readonly peerId: string;
  /** The message; `version`, `senderId` and `senderEpoch` are already filled in. */
  readonly envelope: ectp.v1.IEnvelope;
}

/** Make a peer's metadata usable (`Transport.connectPeer`) before reads from it start. */
export interface ConnectPeerOutput {
  /** Tags this member of {@link CoreOutput} and {@link SubscriberOutput}: always `"connect-peer"`; switch on it. */
  readonly type: "connect-peer";
  /** Id of the peer to connect to (its transport address is in `metadata`). */
  readonly peerId: string;
  /** The peer's epoch the metadata belongs to. */
  readonly epoch: number;
  /** The peer's transport metadata. */
  readonly metadata: Uint8Array;
}

/** Forget a peer's metadata (`Transport.disconnectPeer`): it is gone or restarted. */
export interface DisconnectPeerOutput {
  /** Tags this member of {@link CoreOutput} and {@link SubscriberOutput}: always `"disconnect-peer"`; switch on it. */
  readonly type: "disconnect-peer";
  /** Id of the peer to forget. */
  readonly peerId: string;
}

/** Start a one-sided read (`Transport.startRead`). */
export interface StartReadOutput {
  /** Tags this member of {@link CoreOutput}: always `"start-read"`; switch on it. */
  readonly type: "start-read";
  /** Id to report the result under. */
  readonly readId: number;
  /** Producer holding the bytes. */
  readonly peerId: string;
  /** Opaque source location from the grant. */
  readonly source: Uint8Array;
  /** Where the bytes land. */
  readonly destination: ReadDestination;
  /** Whether to ask the transport for the landed bytes' CRC-32C (`ReadOperation.crc32c`): the item carries a checksum, or the pool gives no view of the destination. */
  readonly crc32c: boolean;
}

/** Cancel a read (`Transport.cancelRead`); its result still arrives. */
export interface CancelReadOutput {
  /** Tags this member of {@link CoreOutput}: always `"cancel-read"`; switch on it. */
  readonly type: "cancel-read";
  /** Id of the read to cancel (as in its {@link StartReadOutput}). */
  readonly readId: number;
}

/** An event batch published by a producer [E1], for in-process subscribers. */
export interface EventBatchOutput {
  /** Tags this member of {@link CoreOutput}: always `"event-batch"`; switch on it. */
  readonly type: "event-batch";
  /** The batch, as also sent to remote subscribers. */
  readonly batch: ectp.v1.IEventBatch;
}

/** Everything a state machine can ask for. */
export type CoreOutput =
  | SendOutput
  | ConnectPeerOutput
  | DisconnectPeerOutput
  | StartReadOutput
  | CancelReadOutput
  | EventBatchOutput;

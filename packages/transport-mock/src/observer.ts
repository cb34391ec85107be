/**
 * Observer hooks of the mock network: what an invariant checker (for example one
 * asserting [I5], "no destination memory is reused or freed while a transfer may still
 * write into it") or a simulation log sees.
 * @module
 */

import type { ReadStatus } from "@ectp/core";
import type { FaultKind } from "./faults.js";

/** Bytes were written into a read's destination (at the read's completion time). */
export interface WriteEvent {
  /** Virtual time of the write, in ms. */
  readonly at: number;
  /** The reading endpoint (owner of the destination). */
  readonly endpointId: string;
  /** The `readId` the reading endpoint passed to `startRead` (its `ReadOperation.readId`). */
  readonly readId: number;
  /** Destination region id on `endpointId`. */
  readonly regionId: number;
  /** First byte written, relative to the region. */
  readonly offset: number;
  /** Number of bytes written. */
  readonly length: number;
  /** True when this is the partial prefix written by an injected `failRead` fault. */
  readonly partial: boolean;
}

/** A read settled: its result is queued for the reader's `poll()` and it will never write again. */
export interface SettleEvent {
  /** Virtual time of settlement, in ms. */
  readonly at: number;
  /** The reading endpoint. */
  readonly endpointId: string;
  /** The `readId` the reading endpoint passed to `startRead` (its `ReadOperation.readId`). */
  readonly readId: number;
  /** The status `poll()` reports for the read: `"done"` (bytes landed), `"failed"` or `"cancelled"`. */
  readonly status: ReadStatus;
  /** Why it failed, for `failed`. */
  readonly error?: string;
  /** True when the memory owner was gone. */
  readonly peerGone?: boolean;
}

/** A control message was delivered to a receiver's inbox. */
export interface DeliverEvent {
  /** Virtual time of delivery, in ms. */
  readonly at: number;
  /** The sending endpoint's `localId`, as the receiver's `poll()` reports it in `from`. */
  readonly from: string;
  /** The receiving endpoint's `localId`, whose inbox got the message. */
  readonly to: string;
  /** Message size in bytes. */
  readonly length: number;
}

/** A fault was injected (the matching {@link FaultCounts} counter was incremented). */
export interface FaultEvent {
  /** Virtual time, in ms. */
  readonly at: number;
  /** The fault injected: a {@link FaultKind}, named as its {@link FaultCounts} counter (e.g. `"drop"`, `"crash"`). */
  readonly kind: FaultKind;
  /** The initiating endpoint of the affected link (or the crashed endpoint). */
  readonly from: string;
  /** The other endpoint of the link (equal to `from` for `crash`/`restart`). */
  readonly to: string;
  /** The affected read, for read faults. */
  readonly readId?: number;
}

/**
 * A region was deregistered while a read still involved it. On the `destination` side
 * this is exactly what [I5] forbids (memory freed while a transfer may write into it);
 * the mock settles those reads as `failed` and never writes afterwards, so tests stay
 * memory-safe, and records the event so a checker can fail the run. On the `source`
 * side it means a producer freed memory that was still being read (the reads fail).
 */
export interface UnsafeDeregistration {
  /** Virtual time, in ms. */
  readonly at: number;
  /** Which side of the reads the region was on. */
  readonly side: "destination" | "source";
  /** The endpoint that deregistered the region. */
  readonly endpointId: string;
  /** The deregistered region's id. */
  readonly regionId: number;
  /** The affected reads. */
  readonly reads: readonly ReadRef[];
}

/** Names one read: which endpoint issued it and its id there. */
export interface ReadRef {
  /** The reading endpoint. */
  readonly endpointId: string;
  /** The read's id on that endpoint. */
  readonly readId: number;
}

/** Callbacks the network calls synchronously as things happen. Every member is optional. */
export interface NetworkObserver {
  /** Called after bytes land in a destination. */
  onWrite?(event: WriteEvent): void;
  /** Called after a read settles. */
  onSettle?(event: SettleEvent): void;
  /** Called after a control message is delivered. */
  onDeliver?(event: DeliverEvent): void;
  /** Called after a fault is injected. */
  onFault?(event: FaultEvent): void;
  /** Called after a region with reads in flight is deregistered. */
  onUnsafeDeregistration?(event: UnsafeDeregistration): void;
}

/** One read that may still write into its destination (see {@link MockNetwork.unsettledWrites}). */
export interface UnsettledWrite {
  /** The reading endpoint (owner of the destination). */
  readonly endpointId: string;
  /** The `readId` the reading endpoint passed to `startRead` (its `ReadOperation.readId`). */
  readonly readId: number;
  /** The memory owner being read. */
  readonly peerId: string;
  /** Destination region id on `endpointId`. */
  readonly regionId: number;
  /** Destination offset inside the region. */
  readonly offset: number;
  /** Destination length in bytes. */
  readonly length: number;
  /** Virtual time the read started, in ms. */
  readonly startedAt: number;
  /** Virtual time it is due to settle, in ms. */
  readonly dueAt: number;
  /** True when a `stallRead` fault holds it (it ignores cancel). */
  readonly stalled: boolean;
}

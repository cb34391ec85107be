/**
 * Seams for replacing the real cores and stores of a simulation. Tests plant a known
 * failure of docs/failures.md (a store that collapses duplicate pins, a producer that
 * pins on announce, a consumer that "falls back" on metadata-only requests) and assert
 * the invariant checker reports it.
 * @module
 */
import type { ConsumerCore, ConsumerOptions, ItemStore, ProducerCore, ProducerOptions } from "@ectp/core";

/** The part of `ConsumerCore` (from @ectp/core) the simulator drives. */
export type ConsumerLike = Pick<
  ConsumerCore,
  | "admit"
  | "finishRequest"
  | "drainFailed"
  | "handleMessage"
  | "handleEnvelope"
  | "handleReadResult"
  | "handlePeerUnreachable"
  | "poll"
  | "nextDeadline"
  | "stats"
>;

/** The part of `ProducerCore` (from @ectp/core) the simulator drives. */
export type ProducerLike = Pick<
  ProducerCore,
  "announce" | "handleMessage" | "handleEnvelope" | "handlePeerUnreachable" | "poll" | "nextDeadline" | "stats" | "shutdown"
>;

/** Factories of the simulated components; each defaults to the real implementation. */
export interface CoreFactories {
  /** Build a consumer. Default: `new ConsumerCore(options)`. */
  consumer?: ((options: ConsumerOptions) => ConsumerLike) | undefined;
  /** Build a producer. Default: `new ProducerCore(options)`. */
  producer?: ((options: ProducerOptions) => ProducerLike) | undefined;
  /**
   * Wrap the store the producer core sees. The simulator keeps checking the real store,
   * so a wrapper that loses pins is caught by [I3]. Default: the store itself.
   */
  store?: ((store: ItemStore) => ItemStore) | undefined;
}

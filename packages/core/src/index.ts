/**
 * `@ectp/core`: the sans-IO heart of ECTP. Producer and consumer state machines that
 * implement every rule of spec/SPEC.md, the Transport interface they are driven over,
 * and a thin driver binding them to a transport and a clock.
 * @packageDocumentation
 */
export { ConsumerCore } from "./consumer/consumer.js";
export type {
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
} from "./consumer/types.js";
export { ProducerCore } from "./producer/producer.js";
export { MemoryItemStore } from "./producer/memory-store.js";
export type { MemoryItemStoreOptions } from "./producer/memory-store.js";
export type { ItemStore, ProducerOptions, ProducerStats, StoreChange, StoreEntry } from "./producer/types.js";
export { EventSubscriber } from "./subscriber/subscriber.js";
export type { ProducerConnection, ProducerStatus, SubscriberOptions, SubscriberOutput, SubscriberStats } from "./subscriber/subscriber.js";
export { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_MAX_QUEUED_PER_PEER, Driver } from "./driver/driver.js";
export type { Clock, DriverOptions } from "./driver/driver.js";
export {
  DEFAULT_CONSUMER_CONFIG,
  DEFAULT_PRODUCER_CONFIG,
  DEFAULT_SUBSCRIBER_CONFIG,
  DEFAULT_TIMERS,
  MAX_PEER_HEARTBEAT_INTERVAL_MS,
} from "./config.js";
export type { ConfigOverrides, ConsumerConfig, ProducerConfig, TimerConfig } from "./config.js";
export { NOOP_LOGGER, NOOP_METRICS } from "./observability.js";
export type { Labels, LogFields, Logger, MetricsSink } from "./observability.js";
export { SeededRandom } from "./random.js";
export type {
  CancelReadOutput,
  ConnectPeerOutput,
  CoreOutput,
  DisconnectPeerOutput,
  EventBatchOutput,
  SendOutput,
  StartReadOutput,
} from "./outputs.js";
export type {
  MemoryRegion,
  ReadDestination,
  ReadOperation,
  ReadResult,
  ReadStatus,
  ReceivedMessage,
  Transport,
  TransportActivity,
} from "./transport.js";

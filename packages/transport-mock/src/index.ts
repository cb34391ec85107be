/**
 * `@ectp/transport-mock`: an in-process ECTP transport that moves real bytes on virtual
 * time, with a seeded fault injector (drop, delay, duplicate, reorder, failed, stalled
 * and corrupted reads, crashes, restarts, partitions) and hooks for invariant checkers.
 * Use it to test an engine integration, or the cores themselves, deterministically and
 * without NIXL.
 * @packageDocumentation
 */
export { MockNetwork, DEFAULT_BANDWIDTH_BYTES_PER_MS, DEFAULT_LATENCY_MS } from "./network.js";
export type { MockNetworkOptions } from "./network.js";
export { MockTransport } from "./transport.js";
export type { MockActivity, MockReceivedMessage } from "./transport.js";
export type {
  DelayFault,
  FaultConfig,
  FaultCounts,
  FaultKind,
  FaultPlan,
  LinkFaults,
  ReorderFault,
  StallFault,
} from "./faults.js";
export type {
  DeliverEvent,
  FaultEvent,
  NetworkObserver,
  ReadRef,
  SettleEvent,
  UnsafeDeregistration,
  UnsettledWrite,
  WriteEvent,
} from "./observer.js";
export type { ExternalClock } from "./fabric.js";
export { DEFAULT_MAX_ROUNDS, runOnVirtualTime } from "./run-on-virtual-time.js";
export type { SteppedDriver, VirtualRunOptions, VirtualRunResult } from "./run-on-virtual-time.js";

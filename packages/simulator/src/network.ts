/**
 * The simulator's view of the mock network: a {@link MockNetwork} configured from a
 * {@link FaultProfile}.
 * @module
 */
import { type FaultPlan, MockNetwork } from "@ectp/transport-mock";
import type { FaultProfile } from "./faults.js";

/** Parameters of {@link createNetwork}. */
export interface NetworkShape {
  /** Seed of the network's fault streams. */
  readonly seed: number;
  /** The faults to inject. */
  readonly faults: FaultProfile;
  /** Real bytes per ms (nominal bandwidth divided by the byte scale). */
  readonly bytesPerMs: number;
  /** One-way latency, ms. */
  readonly latencyMs: number;
  /** How long a stalled read hangs before settling, ms (past the transfer timeout, before the quarantine cap). */
  readonly stallMs: number;
}

/** The mock network's fault plan for a profile: the same faults on every link. */
export function faultPlan(f: FaultProfile, stallMs: number): FaultPlan {
  return {
    default: {
      drop: f.messageDrop,
      duplicate: f.messageDuplicate,
      ...(f.messageDelay > 0 ? { delay: { probability: f.messageDelay, minMs: 0, maxMs: f.messageDelayMaxMs } } : {}),
      ...(f.messageReorder > 0 ? { reorder: { probability: f.messageReorder, maxHoldMs: 50 } } : {}),
      failRead: f.readFail,
      ...(f.readStall > 0 ? { stallRead: { probability: f.readStall, durationMs: stallMs, settle: "done" } } : {}),
      corruptRead: f.readCorrupt,
    },
  };
}

/** A mock network for one simulation run. */
export function createNetwork(shape: NetworkShape): MockNetwork {
  return new MockNetwork({
    seed: shape.seed,
    latencyMs: shape.latencyMs,
    bandwidthBytesPerMs: shape.bytesPerMs,
    faults: faultPlan(shape.faults, shape.stallMs),
  });
}

/**
 * The transport-level harness for `@ectp/transport-mock`.
 * @module
 */
import type { Transport } from "@ectp/core";
import { MockNetwork, type MockTransport } from "@ectp/transport-mock";
import type { TransportHarness } from "./transport-suite.js";

/** How {@link mockTransportHarness} builds each case's `MockNetwork`: its fault seed and its clock (virtual or real time). */
export interface MockTransportHarnessOptions {
  /** The network's fault seed. Default 1. */
  readonly seed?: number | undefined;
  /**
   * `virtual`: the network's own virtual clock; `advance` jumps to the next scheduled event,
   * so 64 MiB reads and stalls cost no wall time. `real`: the network follows an external
   * real-time clock (`performance.now()`, 1 ms latency) and `advance` sleeps on
   * `waitForActivity`, the way a `Driver.run()` loop uses it. Default `virtual`.
   */
  readonly clock?: "virtual" | "real" | undefined;
}

/**
 * A {@link TransportHarness} over a fresh `MockNetwork` per case. Named `mock` (virtual
 * time) or `mock-real-clock`, so both modes can appear in one report.
 * @param options - seed and clock mode; a number is taken as the seed (compatibility). Default `{ seed: 1, clock: "virtual" }`.
 */
export function mockTransportHarness(options: MockTransportHarnessOptions | number = {}): TransportHarness {
  const { seed = 1, clock = "virtual" } = typeof options === "number" ? { seed: options } : options;
  let net: MockNetwork | undefined;
  let peers: Transport[] = [];
  return {
    name: clock === "virtual" ? "mock" : "mock-real-clock",
    async createPeers() {
      if (clock === "virtual") net = new MockNetwork({ seed });
      else {
        const start = performance.now();
        net = new MockNetwork({ seed, clock: { now: () => performance.now() - start }, latencyMs: 1 });
      }
      const reader = net.endpoint("reader");
      const owner = net.endpoint("owner");
      await reader.connectPeer("owner", 1, owner.localMetadata());
      await owner.connectPeer("reader", 1, reader.localMetadata());
      peers = [reader, owner];
      return { reader, owner };
    },
    async advance() {
      if (net === undefined) return false;
      if (clock === "real") {
        await Promise.race(peers.map((t) => t.waitForActivity(20)));
        return true;
      }
      const t = net.nextEventTime();
      if (t === undefined) return false;
      net.advanceTo(Math.max(t, net.now()));
      return true;
    },
    async killPeer(t: Transport) {
      net?.crash((t as MockTransport).localId);
    },
  };
}

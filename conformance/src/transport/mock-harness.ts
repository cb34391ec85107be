/**
 * The transport-level harness for `@ectp/transport-mock`.
 * @module
 */
import type { Transport } from "@ectp/core";
import { MockNetwork, type MockTransport } from "@ectp/transport-mock";
import type { TransportHarness } from "./transport-suite.js";

/**
 * A {@link TransportHarness} over a fresh `MockNetwork` per case (virtual time: `advance`
 * jumps to the next scheduled event, so 64 MiB reads and stalls cost no wall time).
 * @param seed - the network's fault seed. Default 1.
 */
export function mockTransportHarness(seed = 1): TransportHarness {
  let net: MockNetwork | undefined;
  return {
    name: "mock",
    async createPeers() {
      net = new MockNetwork({ seed });
      const reader = net.endpoint("reader");
      const owner = net.endpoint("owner");
      await reader.connectPeer("owner", 1, owner.localMetadata());
      await owner.connectPeer("reader", 1, reader.localMetadata());
      return { reader, owner };
    },
    async advance() {
      const t = net?.nextEventTime();
      if (net === undefined || t === undefined) return false;
      net.advanceTo(Math.max(t, net.now()));
      return true;
    },
    async killPeer(t: Transport) {
      net?.crash((t as MockTransport).localId);
    },
  };
}

import { describeTransportContract } from "./contract/transport-contract.js";
import { MockNetwork } from "./network.js";

describeTransportContract("MockTransport (virtual time)", async () => {
  const net = new MockNetwork({ seed: 1 });
  const a = net.endpoint("a");
  const b = net.endpoint("b");
  await a.connectPeer("b", 1, b.localMetadata());
  await b.connectPeer("a", 1, a.localMetadata());
  return {
    a,
    b,
    async until(done, what) {
      for (let i = 0; i < 1000; i++) {
        if (done()) return;
        const next = net.nextEventTime();
        if (next === undefined) break;
        net.advanceTo(Math.max(next, net.now()));
      }
      if (!done()) throw new Error(`gave up waiting for ${what}`);
    },
    async dispose() {
      await a.close();
      await b.close();
    },
  };
});

describeTransportContract("MockTransport (external real-time clock)", async () => {
  const start = performance.now();
  const net = new MockNetwork({ seed: 1, clock: { now: () => performance.now() - start }, latencyMs: 1 });
  const a = net.endpoint("a");
  const b = net.endpoint("b");
  await a.connectPeer("b", 1, b.localMetadata());
  await b.connectPeer("a", 1, a.localMetadata());
  return {
    a,
    b,
    async until(done, what) {
      const deadline = performance.now() + 2000;
      while (!done()) {
        if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}`);
        await Promise.race([a.waitForActivity(50), b.waitForActivity(50)]);
      }
    },
    async dispose() {
      await a.close();
      await b.close();
    },
  };
});

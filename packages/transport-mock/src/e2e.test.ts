/**
 * End to end: the real ProducerCore, ConsumerCore and Driver of @ectp/core talking over a
 * MockNetwork, with real bytes, a checksum, and an [I5] check on every destination release.
 */
import { ConsumerCore, Driver, MemoryItemStore, ProducerCore } from "@ectp/core";
import { SPEC_VERSION, type ectp, crc32cBytes, itemKeyId } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { MockNetwork, type MockNetworkOptions } from "./network.js";
import { runOnVirtualTime } from "./run-on-virtual-time.js";
import type { MockTransport } from "./transport.js";
import { pattern } from "./test-helpers.js";

const FP: ectp.v1.IFingerprint = { model: "m", dtype: 1, rowBytes: 0, layoutVersion: 1 };

/**
 * `producerFingerprint`: the producer's own, when it differs from its item's and the consumer's (a
 * misconfigured encoder). `pool`: the consumer registers each destination when it allocates it
 * (`per-read`), or hands out one region registered up front, as an engine's pool does (`registered`:
 * it still works once the transport is closed). `network`: further MockNetwork options.
 */
async function world(
  seed: number,
  itemBytes: Uint8Array,
  producerFingerprint: ectp.v1.IFingerprint = FP,
  pool: "per-read" | "registered" = "per-read",
  network: Partial<MockNetworkOptions> = {},
) {
  const net = new MockNetwork({ seed, ...network });
  const e = net.endpoint("E");
  const p = net.endpoint("P");
  const regions = new Map<string, ReturnType<MockTransport["registerMemory"]>>();
  const store = new MemoryItemStore({
    capacityBytes: 1 << 24,
    locate(keyId, bytes) {
      const region = e.registerMemory(bytes);
      regions.set(keyId, region);
      return e.describe(region, 0, bytes.length);
    },
    release(keyId) {
      const region = regions.get(keyId);
      if (region) e.deregisterMemory(region);
    },
  });
  const producer = new ProducerCore({ id: "E", epoch: 1, fingerprint: producerFingerprint, store, transportMetadata: e.localMetadata() });
  const descriptor: ectp.v1.IItemDescriptor = {
    key: { contentHash: new Uint8Array([1, 2, 3]), fingerprint: FP },
    sizeBytes: itemBytes.length,
    checksum: { algorithm: 1, value: crc32cBytes(itemBytes) },
    producerId: "E",
    epoch: 1,
  };
  const put = store.put(descriptor, itemBytes);
  if (!put.ok) throw put.error;
  const keyId = itemKeyId(descriptor.key);
  if (!keyId.ok) throw keyId.error;
  store.markReady(keyId.value);

  const violations: string[] = [];
  const poolRegion = pool === "registered" ? p.registerMemory(new Uint8Array(Math.max(itemBytes.length, 1))) : undefined;
  const consumer = new ConsumerCore({
    id: "P",
    epoch: 1,
    fingerprint: FP,
    transportMetadata: p.localMetadata(),
    destinations: {
      allocate: (_key, size) => ({ region: poolRegion ?? p.registerMemory(new Uint8Array(size)), offset: 0, length: size }),
      release: (d) => {
        // [I5] the consumer must never free a destination a read may still write into.
        if (net.hasUnsettledWriteInto("P", d.region, d.offset, d.length)) violations.push(`release of region ${d.region.id}`);
        if (poolRegion === undefined) p.deregisterMemory(d.region);
      },
      view: (d) => d.region.bytes.subarray(d.offset, d.offset + d.length),
    },
  });
  const drivers = [
    new Driver({ transport: e, clock: net, producer }),
    new Driver({ transport: p, clock: net, consumer }),
  ];
  // A producer announces only items of its own fingerprint; one of another is announced as an
  // orchestrator holding its descriptor could.
  const announcement =
    producerFingerprint === FP ? producer.announce(keyId.value) : { version: SPEC_VERSION, item: store.get(keyId.value)?.descriptor, transportMetadata: e.localMetadata() };
  expect(announcement).toBeDefined();

  /** Admit the request until it is decided, as an engine does each step, on virtual time. */
  async function admitUntilDecided() {
    const request = { requestId: "r1", items: [{ itemId: "i1", announcement, hasModelInput: true }] };
    let r = consumer.admit(request, net.now());
    const decided = () => r.status === "failed" || r.items[0]?.action !== "defer";
    if (decided()) return r;
    const run = await runOnVirtualTime(net, drivers, () => {
      r = consumer.admit(request, net.now());
      return decided();
    });
    if (run.ended !== "done") throw new Error(`the request was not decided: ${JSON.stringify(run)}`);
    return r;
  }
  /** Admit request r1 and step (1 ms of virtual time per round) until its read is in flight. */
  async function admitUntilReading() {
    consumer.admit({ requestId: "r1", items: [{ itemId: "i1", announcement, hasModelInput: true }] }, net.now());
    for (let i = 0; i < 200 && consumer.stats().readsInFlight === 0; i++) {
      for (const d of drivers) d.step();
      await new Promise((resolve) => setImmediate(resolve));
      net.advanceBy(1);
    }
    expect(consumer.stats().readsInFlight).toBe(1);
  }
  return { net, e, p, consumer, producer, drivers, admitUntilDecided, admitUntilReading, violations };
}

describe("end to end: ProducerCore + ConsumerCore + Driver over MockNetwork", () => {
  it("loads an item byte-exactly over the mock transport [I5][I6]", async () => {
    const bytes = pattern(300_001, 9);
    const w = await world(1, bytes);
    const r = await w.admitUntilDecided();
    expect(r.status).toBe("admitted");
    if (r.status !== "admitted") return;
    const decision = r.items[0]!;
    expect(decision.action).toBe("ready");
    if (decision.action !== "ready" || decision.destination === undefined) throw new Error("no destination");
    const d = decision.destination;
    expect(Buffer.compare(d.region.bytes.subarray(d.offset, d.offset + d.length), bytes)).toBe(0);
    w.consumer.finishRequest("r1", w.net.now());
    expect(w.violations).toEqual([]);
    expect(w.net.unsafeDeregistrations()).toEqual([]);
  });

  it("[P7] a consumer whose Hello the producer refuses hears so at once, not after its budget (the reject follows the metadata's load)", async () => {
    const w = await world(3, pattern(64, 1), { ...FP, model: "another" });
    const r = await w.admitUntilDecided();
    // Without the load the reject was dropped and the item waited out its 60 s budget (BUDGET_EXHAUSTED).
    expect(r).toMatchObject({ status: "admitted", items: [{ action: "local-encode", reason: "INCOMPATIBLE" }] });
  });

  it("never marks a corrupted read loaded: the checksum catches it [C11]", async () => {
    const bytes = pattern(4096, 3);
    const w = await world(2, bytes);
    w.net.setFaults({ links: [{ from: "P", to: "E", corruptRead: 1 }] });
    const r = await w.admitUntilDecided();
    expect(w.net.faultCounts().corruptRead).toBeGreaterThan(0);
    if (r.status === "admitted") {
      expect(r.items[0]).toMatchObject({ action: "local-encode", reason: "CHECKSUM_MISMATCH" });
    } else {
      expect(r.failures[0]?.reason).toBe("CHECKSUM_MISMATCH");
    }
    expect(w.violations).toEqual([]);
  });

  // Before Driver.close(), an engine that finished its request, stopped and closed the transport
  // was left with the read in flight and its destination allocated: the cancelled result that the
  // close settled was never handed to the consumer.
  it("[I5] Driver.close() settles a read in flight: nothing in flight, no destination held, nothing released early", async () => {
    const w = await world(4, pattern(1 << 20, 5));
    w.net.setFaults({ links: [{ from: "P", to: "E", stallRead: { probability: 1, durationMs: 1e9 } }] }); // the read does not complete by itself
    await w.admitUntilReading();
    w.consumer.finishRequest("r1", w.net.now());
    const consumerDriver = w.drivers[1] as Driver;
    await consumerDriver.close();
    expect(w.consumer.stats()).toMatchObject({ readsInFlight: 0, destinations: 0, quarantined: 0 });
    expect(w.violations).toEqual([]);
    expect(w.p.status).toBe("closed");
    consumerDriver.step(); // does nothing now
    await consumerDriver.close(); // returns at once
  });

  it("[P3][C7] Driver.close() acknowledges the grant of a finished request whose read it cancelled, before the transport closes", async () => {
    const w = await world(5, pattern(1 << 20, 6), FP, "per-read", { bandwidthBytesPerMs: 1_000 }); // the read takes about 1 s
    await w.admitUntilReading();
    expect(w.producer.stats().pins).toBe(1);
    w.consumer.finishRequest("r1", w.net.now());
    const [producerDriver, consumerDriver] = w.drivers as [Driver, Driver];
    await consumerDriver.close();
    // The ReadComplete went out on the open transport: the producer unpins as soon as it arrives,
    // not after finding the consumer gone (4 s of virtual time with the defaults).
    const closedAt = w.net.now();
    for (let i = 0; i < 50 && w.producer.stats().pins > 0; i++) {
      w.net.advanceTo(w.net.nextEventTime() ?? w.net.now() + 1);
      producerDriver.step();
    }
    expect(w.producer.stats()).toMatchObject({ pins: 0, grants: 0 });
    expect(w.net.now() - closedAt).toBeLessThan(100);
  });

  // Mutant: close() takes one step after closing the transport (a grant that arrived while the
  // transport closed made the consumer start a read there; its failed result was never handed
  // over, and the read, its destination and its grant stayed for good).
  it("[I5] Driver.close() also settles a read started by a grant that arrived while the transport was closing", async () => {
    const w = await world(7, pattern(4096, 1), FP, "registered");
    const [producerDriver, consumerDriver] = w.drivers as [Driver, Driver];
    const keyId = itemKeyId({ contentHash: new Uint8Array([1, 2, 3]), fingerprint: FP });
    if (!keyId.ok) throw keyId.error;
    w.consumer.admit({ requestId: "r1", items: [{ itemId: "i1", announcement: w.producer.announce(keyId.value), hasModelInput: true }] }, w.net.now());
    consumerDriver.step();
    await new Promise((resolve) => setImmediate(resolve)); // the connect resolves: Hello and ReadRequest go out
    w.net.advanceBy(5);
    // The transport's close is asynchronous (NIXL's joins its engine thread): the producer's grant lands during it.
    const close = w.p.close.bind(w.p);
    w.p.close = async () => {
      for (let i = 0; i < 4; i++) {
        producerDriver.step();
        await new Promise((resolve) => setImmediate(resolve));
        w.net.advanceTo(w.net.nextEventTime() ?? w.net.now());
      }
      await close();
    };
    await consumerDriver.close();
    expect(w.consumer.stats()).toMatchObject({ readsInFlight: 0, destinations: 0, grantsHeld: 0 });
    expect(w.violations).toEqual([]);
  });
});


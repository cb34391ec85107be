// A real ECTP producer in its own process (forked by two-process.nixl.test.ts): ProducerCore +
// MemoryItemStore + Driver over NixlTransport. Argv: <producerId> <epoch> <itemBytes> <salt>.
// Sends { metadata, announcement } to the parent over IPC ("advanced" serialization), then
// serves until it gets "stop", is SIGKILLed by the test, or loses its parent.
import { Driver, MemoryItemStore, ProducerCore } from "@ectp/core";
import { crc32cBytes, itemKeyId } from "@ectp/protocol";
import { NixlTransport } from "../../dist/index.js";

process.env.UCX_TLS ??= "tcp,self,sm";
process.env.UCX_NET_DEVICES ??= "lo";
const [id, epochArg, sizeArg, saltArg] = process.argv.slice(2);
const epoch = Number(epochArg);
const size = Number(sizeArg);
const salt = Number(saltArg);
const FP = { model: "m", dtype: 1, rowBytes: 0, layoutVersion: 1 };

const bytes = new Uint8Array(size);
for (let i = 0; i < size; i++) bytes[i] = (i * 131 + salt * 7 + (i >>> 9)) & 0xff;
const t = new NixlTransport({ localId: id });
const regions = new Map();
const store = new MemoryItemStore({
  capacityBytes: 2 * size + (1 << 20),
  locate(keyId, b) {
    const region = t.registerMemory(b);
    regions.set(keyId, region);
    return t.describe(region, 0, b.length);
  },
  release(keyId) {
    const region = regions.get(keyId);
    if (region) t.deregisterMemory(region);
    regions.delete(keyId);
  },
});
const producer = new ProducerCore({ id, epoch, fingerprint: FP, store, transportMetadata: t.localMetadata() });
const descriptor = {
  key: { contentHash: new Uint8Array([salt, 2, 3]), fingerprint: FP },
  sizeBytes: size,
  checksum: { algorithm: 1, value: crc32cBytes(bytes) },
  producerId: id,
  epoch,
};
const put = store.put(descriptor, bytes);
if (!put.ok) throw put.error;
const keyId = itemKeyId(descriptor.key);
if (!keyId.ok) throw keyId.error;
store.markReady(keyId.value);
const driver = new Driver({ transport: t, producer });
const running = driver.run();
process.send({ announcement: producer.announce(keyId.value), pid: process.pid });
process.on("message", async (m) => {
  if (m === "stop") {
    driver.stop();
    await running;
    await t.close();
    process.exit(0);
  }
});
// The parent (a test worker) is gone, e.g. it crashed: do not serve on forever.
process.on("disconnect", () => process.exit(1));

// The producer side of netns.nixl.test.ts, run inside its own network namespace with
// `ip netns exec`: ProducerCore + MemoryItemStore + Driver over NixlTransport (UCX over TCP on
// the namespace's veth, from UCX_TLS / UCX_NET_DEVICES set by the parent).
// Argv: <producerId> <itemBytes> <salt>. Prints one line `ECTP {"announcement": <base64>}` on
// stdout (UCX may log on stdout too, so the parent reads only lines starting with "ECTP "), then
// serves until a line "stop" arrives on stdin (or stdin closes).
import { Driver, MemoryItemStore, ProducerCore } from "@ectp/core";
import { crc32cBytes, ectp, itemKeyId } from "@ectp/protocol";
import { NixlTransport } from "../../dist/index.js";

const [id, sizeArg, saltArg] = process.argv.slice(2);
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
const producer = new ProducerCore({ id, epoch: 1, fingerprint: FP, store, transportMetadata: t.localMetadata() });
const descriptor = {
  key: { contentHash: new Uint8Array([salt, 2, 3]), fingerprint: FP },
  sizeBytes: size,
  checksum: { algorithm: 1, value: crc32cBytes(bytes) },
  producerId: id,
  epoch: 1,
};
const put = store.put(descriptor, bytes);
if (!put.ok) throw put.error;
const keyId = itemKeyId(descriptor.key);
if (!keyId.ok) throw keyId.error;
store.markReady(keyId.value);
const driver = new Driver({ transport: t, producer });
const running = driver.run();
const announcement = ectp.v1.Announcement.encode(producer.announce(keyId.value)).finish();
process.stdout.write(`ECTP ${JSON.stringify({ announcement: Buffer.from(announcement).toString("base64") })}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  driver.stop();
  await running;
  await t.close();
  process.exit(0);
}
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d) => {
  if (d.includes("stop")) void stop();
});
process.stdin.on("end", () => void stop());

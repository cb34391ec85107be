// Benchmark target (forked by run.mjs): owns the source bytes and serves READs.
import { NixlTransport } from "../dist/index.js";

const size = Number(process.argv[2]);
const t = new NixlTransport({ localId: `bench-target-${process.pid}` });
const src = new Uint8Array(size);
for (let i = 0; i < size; i++) src[i] = (i * 131 + 7) & 0xff;
const region = t.registerMemory(src);
process.send({
  id: t.localId,
  metadata: Buffer.from(t.localMetadata()).toString("base64"),
  location: Buffer.from(t.describe(region, 0, size)).toString("base64"),
});
// The engine thread serves reads; JS only needs to stay alive and drain.
const timer = setInterval(() => t.poll(), 100);
process.on("message", async (m) => {
  if (m === "stop") {
    clearInterval(timer);
    await t.close();
    process.exit(0);
  }
});
// The benchmark process is gone (it failed or was killed): do not serve on forever.
process.on("disconnect", () => process.exit(1));

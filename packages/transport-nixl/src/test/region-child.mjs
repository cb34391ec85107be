// A NIXL agent in its own process that only owns memory (forked by transport.nixl.test.ts):
// registers <bytes> bytes, sends { id, metadata, location } (base64) to the parent over IPC, and
// serves reads until it is killed or loses its parent. Its agent name is [name] if given (a
// restarted peer keeps its name), else region-child-<pid>.
import { NixlTransport } from "../../dist/index.js";

process.env.UCX_TLS ??= "tcp,self,sm";
process.env.UCX_NET_DEVICES ??= "lo";
const size = Number(process.argv[2]);
const t = new NixlTransport({ localId: process.argv[3] ?? `region-child-${process.pid}` });
const bytes = new Uint8Array(size).fill(7);
const region = t.registerMemory(bytes);
process.send({
  id: t.localId,
  metadata: Buffer.from(t.localMetadata()).toString("base64"),
  location: Buffer.from(t.describe(region, 0, size)).toString("base64"),
});
setInterval(() => t.poll(), 100); // stays alive (the engine thread serves the reads)
process.on("disconnect", () => process.exit(1)); // the parent is gone: do not serve on forever

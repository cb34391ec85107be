// An owner that deregisters its source region while a peer's READ of it is in flight,
// drops every reference and lets V8 free the memory (then maps new memory over it).
import { NixlTransport } from "../../dist/index.js";

process.env.UCX_TLS ??= "tcp";
process.env.UCX_NET_DEVICES ??= "lo";
const size = Number(process.argv[2]);
const t = new NixlTransport({ localId: `dereg-child-${process.pid}` });
let bytes = new Uint8Array(size).fill(7);
let region = t.registerMemory(bytes);
process.send({ id: t.localId, metadata: Buffer.from(t.localMetadata()).toString("base64"), location: Buffer.from(t.describe(region, 0, size)).toString("base64") });
const keep = [];
process.on("message", (m) => {
  if (m === "dereg") {
    t.deregisterMemory(region);
    region = undefined;
    bytes = undefined;
    const spin = () => {
      globalThis.gc?.();
      if (t.counters().heldBuffers === 0 && keep.length < 4) keep.push(new Uint8Array(size).fill(0x55)); // memory reused at once
      process.send?.({ held: t.counters().heldBuffers, regs: t.counters().registrations, keep: keep.length, at: Date.now() });
    };
    setInterval(spin, 5);
  }
});
setInterval(() => t.poll(), 1);
process.on("disconnect", () => process.exit(1));

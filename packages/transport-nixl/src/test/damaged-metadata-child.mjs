// Peer bytes NIXL would crash on, handed to a NixlTransport in its own process (forked by
// untrusted-metadata.nixl.test.ts, so a crash shows as this process's exit, not the runner's):
// a location whose section has its memory-type field damaged, and connection metadata that is a
// region's section (no connection, a damaged section). Prints one JSON line of what each got.
import { NixlTransport } from "../../dist/index.js";

process.env.UCX_TLS ??= "tcp,self,sm";
process.env.UCX_NET_DEVICES ??= "lo";

const a = new NixlTransport({ localId: `damaged-a-${process.pid}` });
const b = new NixlTransport({ localId: `damaged-b-${process.pid}` });
await a.connectPeer(b.localId, 1, b.localMetadata());
await b.connectPeer(a.localId, 1, a.localMetadata());
const size = 4096;
const source = b.registerMemory(new Uint8Array(size).fill(9));
const location = Buffer.from(b.describe(source, 0, size));
const region = a.registerMemory(new Uint8Array(2 * size));

/** `bytes` with the u32 after NIXL's "|t" field header (tag, then u64 length 4) set to `value`: a descriptor list's memory type. */
function withMemoryType(bytes, value) {
  const at = bytes.indexOf(Buffer.from("7c740400000000000000", "hex"));
  if (at < 0) throw new Error("no memory-type field found");
  const out = Buffer.from(bytes);
  out.writeUInt32LE(value, at + 10);
  return out;
}

async function read(readId, src, offset) {
  a.startRead({ readId, peerId: b.localId, source: src, destination: { region, offset, length: size } });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const got = a.poll().reads.find((r) => r.readId === readId);
    if (got) return got.status;
    if (Date.now() > deadline) return "no result";
    await a.waitForActivity(20);
  }
}

const out = {};
out.damagedSection = await read(1, withMemoryType(location, 0x6b8db4), 0);
out.intactAfter = await read(2, location, size); // the peer's metadata survived the refusal
const sectionStart = location.indexOf(Buffer.from("nixlSerDes|"));
const sectionAsMetadata = withMemoryType(location.subarray(sectionStart), 0x6b8db4);
out.sectionAsMetadata = await a.connectPeer(`damaged-c-${process.pid}`, 1, sectionAsMetadata).then(
  () => "connected",
  (e) => `${e.code}: ${e.message}`,
);
await a.close();
await b.close();
console.log(JSON.stringify(out));

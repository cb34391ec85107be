// A reader that never closes its transport (spawned by keepalive.nixl.test.ts): connects to a
// region child serving over TCP alone (argv: mode, the peer's pid, id, metadata and location in
// base64, size), reads 4 KiB (which loads the peer's section), stops the peer (SIGSTOP), starts a
// READ of <size> bytes the stopped peer cannot serve and then, by <mode>:
//   orphan   disconnects the peer: NIXL can no longer tell the READ's end, so it is orphaned
//            (never reported before close());
//   dropped  starts a read of the same peer by a damaged section: NIXL refuses to load it and
//            drops the peer's metadata, which orphans the READ too;
//   cancel   cancels the READ: it stays in flight, unreported, until NIXL ends it.
// It waits out cancelGraceMs, prints what poll() and counters() say as one JSON line, and ends its
// main module with the transport still referenced and never closed: whether Node then exits by
// itself is what the test checks.
import { NixlTransport, decodeLocation, encodeLocation } from "../../dist/index.js";

process.env.UCX_TLS ??= "tcp";
process.env.UCX_NET_DEVICES ??= "lo";
const [mode, peerPid, peerId, metadata, location, sizeArg] = process.argv.slice(2);
const size = Number(sizeArg);
const graceMs = 200;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const t = new NixlTransport({ localId: `keepalive-${process.pid}`, cancelGraceMs: graceMs });
globalThis.transport = t; // referenced for good: only the addon decides whether the loop stays alive
const region = t.registerMemory(new Uint8Array(size));
const spare = t.registerMemory(new Uint8Array(4096));
const source = new Uint8Array(Buffer.from(location, "base64"));
await t.connectPeer(peerId, 1, new Uint8Array(Buffer.from(metadata, "base64")));
const reads = [];
const settle = async (n, what) => {
  const deadline = Date.now() + 20_000;
  while (reads.length < n) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await t.waitForActivity(20);
    reads.push(...t.poll().reads);
  }
};
t.startRead({ readId: 1, peerId, source, destination: { region: spare, offset: 0, length: 4096 } });
await settle(1, "the first read");
if (reads[0].status !== "done") throw new Error(`the first read did not land: ${JSON.stringify(reads)}`);
process.kill(Number(peerPid), "SIGSTOP");
t.startRead({ readId: 2, peerId, source, destination: { region, offset: 0, length: size } });
await sleep(50);
if (mode === "orphan") t.disconnectPeer(peerId);
else if (mode === "cancel") t.cancelRead(2);
else {
  const loc = decodeLocation(source);
  const damaged = Uint8Array.from(loc.section);
  damaged[damaged.length - 2] ^= 0xff; // the registration's memory key: NIXL refuses the section
  t.startRead({ readId: 3, peerId, source: encodeLocation({ ...loc, section: damaged }), destination: { region: spare, offset: 0, length: 4096 } });
  await settle(2, "the damaged read's failure");
}
await sleep(graceMs + 300);
reads.push(...t.poll().reads);
const { orphanedTransfers, activeTransfers, unsettledReads } = t.counters();
console.log(JSON.stringify({ reads: reads.map((r) => [r.readId, r.status]), orphanedTransfers, activeTransfers, unsettledReads }));

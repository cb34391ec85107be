// NIXL refusing a call, under native/nixl/build/Release/librefusing_shim.so (LD_PRELOAD; forked by
// refusals.nixl.test.ts, which sets ECTP_NIXL_REFUSE_DIR). Prints one JSON line.
//   release   NIXL refuses to release a finished 32 MiB READ: the transfer is orphaned, JS hears
//             of it, and Node exits by itself with both transports left open (the orphan does not
//             keep the event loop alive). The parent checks the exit.
//   register  registerMemory's getLocalPartialMD fails and NIXL refuses the undoing deregisterMem:
//             the registration NIXL kept is used by the next registration of the range (a section
//             of its own, a read of it lands), and let go with it.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NixlTransport } from "../../dist/index.js";

// Over TCP a 32 MiB READ ends after its post, and the engine releases it then (over shared memory
// it ends inside the post, and that release, of a finished request, is one NIXL cannot refuse).
process.env.UCX_TLS = process.argv[2] === "release" ? "tcp" : (process.env.UCX_TLS ?? "tcp,self,sm");
process.env.UCX_NET_DEVICES ??= "lo";
const refuse = (name, on) => {
  const file = join(process.env.ECTP_NIXL_REFUSE_DIR, name);
  if (on) writeFileSync(file, "");
  else rmSync(file, { force: true });
};
const a = new NixlTransport({ localId: `refusal-a-${process.pid}` });
const b = new NixlTransport({ localId: `refusal-b-${process.pid}`, cancelGraceMs: 100 });
await a.connectPeer(b.localId, 1, b.localMetadata());
await b.connectPeer(a.localId, 1, a.localMetadata());
const size = process.argv[2] === "release" ? 32 << 20 : 1 << 20;
const source = new Uint8Array(size).fill(7);
const destination = { region: a.registerMemory(new Uint8Array(size)), offset: 0, length: size };
/** Wait (polling both) until `done()` or 10 s. */
async function until(done) {
  const deadline = performance.now() + 10_000;
  while (!done() && performance.now() < deadline) await Promise.race([a.waitForActivity(20), b.waitForActivity(20)]);
}

if (process.argv[2] === "release") {
  globalThis.open = [a, b]; // reachable to the end: Node must exit with them open
  refuse("refuse_release", true);
  a.startRead({ readId: 1, peerId: b.localId, source: b.describe(b.registerMemory(source), 0, size), destination });
  const reads = [];
  await until(() => {
    reads.push(...a.poll().reads); // (an orphan is never reported: this stays empty)
    return a.counters().orphanedTransfers > 0;
  });
  refuse("refuse_release", false);
  console.log(JSON.stringify({ orphaned: a.counters().orphanedTransfers, releasesRefused: a.counters().releasesRefused, reported: reads.length }));
} else {
  refuse("fail_partial_md", true);
  refuse("refuse_dereg", true);
  let threw;
  try {
    b.registerMemory(source);
  } catch (e) {
    threw = e.code;
  }
  refuse("fail_partial_md", false);
  refuse("refuse_dereg", false);
  const kept = b.counters().registrations;
  const region = b.registerMemory(source);
  a.startRead({ readId: 1, peerId: b.localId, source: b.describe(region, 0, size), destination });
  const reads = [];
  await until(() => reads.push(...a.poll().reads) > 0);
  b.deregisterMemory(region);
  await until(() => b.counters().registrations === 0);
  const after = b.counters().registrations;
  await a.close();
  await b.close();
  console.log(JSON.stringify({ threw, kept, read: reads[0]?.status, after }));
}

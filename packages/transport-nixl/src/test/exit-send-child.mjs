// Sends one message to the parent's agent and calls process.exit() at once, a registration and the
// connection still open (forked by send-before-close.nixl.test.ts with the parent's agent name and
// metadata, base64, as arguments). Its own `exit` listener runs after the transport's, which stops
// the engine: it prints one JSON line with how long that took and what the agent still held.
import { NixlTransport } from "../../dist/index.js";

process.env.UCX_TLS ??= "tcp,self,sm";
process.env.UCX_NET_DEVICES ??= "lo";
const [peer, metadata] = process.argv.slice(2);
const t = new NixlTransport({ localId: `exit-send-${process.pid}` });
await t.connectPeer(peer, 1, Buffer.from(metadata, "base64"));
t.registerMemory(new Uint8Array(4096));
let exitAt = 0;
process.on("exit", () => {
  const c = t.counters();
  console.log(JSON.stringify({ ms: performance.now() - exitAt, registrations: c.registrations, loadedPeers: c.loadedPeers, liveAgents: c.liveAgents }));
});
t.send(peer, new TextEncoder().encode("last words"));
exitAt = performance.now();
process.exit(0);

// Transports that are never closed (forked by transport.nixl.test.ts):
//   exit-open  Node exits with three open transports (one with a registration): the addon stops
//              their engines during environment teardown; the exit status must stay 0.
//   dropped    three transports dropped without close() are collected (run with --expose-gc):
//              prints the live agent count before and after collection, e.g. "3 0", then what
//              an agent's postRead function kept past its agent's collection does: "ERR_CLOSED"
//              (its link to the agent was nulled; it must neither crash nor touch freed memory).
import { NixlTransport, loadNixlAddon } from "../../dist/index.js";

process.env.UCX_TLS ??= "tcp,self,sm";
process.env.UCX_NET_DEVICES ??= "lo";
const make = (i) => {
  const t = new NixlTransport({ localId: `lifetime-${process.pid}-${i}` });
  if (i === 0) t.registerMemory(new Uint8Array(4096));
  t.poll();
  return t;
};
if (process.argv[2] === "exit-open") {
  globalThis.open = [0, 1, 2].map(make);
} else {
  const addon = loadNixlAddon();
  for (const i of [0, 1, 2]) make(i);
  // A raw agent's own postRead function, kept after the agent itself is dropped.
  const postRead = new addon.Agent(`lifetime-${process.pid}-raw`, {}, () => undefined).postRead;
  const before = addon.liveAgents();
  for (let k = 0; k < 20 && addon.liveAgents() > 0; k++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  let outcome = "returned";
  try {
    postRead(1, "x", 1, 0, 1, new Uint8Array(30));
  } catch (e) {
    outcome = e.code;
  }
  console.log(`${before} ${addon.liveAgents()} ${outcome}`);
}

// Closes a NixlTransport while its connectPeer is still loading, with nothing else keeping the
// event loop alive (forked by transport.nixl.test.ts): prints "closed" once close() resolved.
// An addon that let Node's loop go before its final signal exits with 13 (unsettled await).
import { NixlTransport } from "../../dist/index.js";

process.env.UCX_TLS ??= "tcp,self,sm";
process.env.UCX_NET_DEVICES ??= "lo";
const a = new NixlTransport({ localId: `close-a-${process.pid}` });
const b = new NixlTransport({ localId: `close-b-${process.pid}` });
a.connectPeer(b.localId, 1, b.localMetadata()).catch(() => undefined);
await a.close();
await b.close();
console.log("closed");

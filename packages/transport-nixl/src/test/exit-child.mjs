// Two NixlTransports over the JavaScript stand-in addon (forked by exit-hook.test.ts): one closed,
// one left open, then process.exit(), which skips the addon's environment teardown. The exit hook
// must stop the open one's engine (the stand-in prints "stopEngine <name>") and only that one.
import { fileURLToPath } from "node:url";
import { NixlTransport } from "../../dist/index.js";

const addonPath = fileURLToPath(new URL("./fake-addon.cjs", import.meta.url));
const open = new NixlTransport({ localId: "left-open", addonPath });
const closed = new NixlTransport({ localId: "closed-first", addonPath });
await closed.close();
console.log(`created ${open.localId} and ${closed.localId}`);
process.exit(0);

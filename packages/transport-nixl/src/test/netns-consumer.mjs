// The consumer side of netns.nixl.test.ts, run inside its own network namespace with
// `ip netns exec`: ConsumerCore + Driver over NixlTransport (UCX over TCP on the namespace's
// veth). Argv: <consumerId> <itemBytes> <salt>. Reads one line (the producer's encoded
// Announcement, base64, relayed by the parent) from stdin, admits a request for the item until
// it is decided, checks the loaded bytes against the producer's pattern byte by byte, and prints
// one line `ECTP {...}` with the outcome, then exits.
import { networkInterfaces } from "node:os";
import { ConsumerCore, Driver } from "@ectp/core";
import { ectp } from "@ectp/protocol";
import { NixlTransport } from "../../dist/index.js";

const [id, sizeArg, saltArg] = process.argv.slice(2);
const size = Number(sizeArg);
const salt = Number(saltArg);
const FP = { model: "m", dtype: 1, rowBytes: 0, layoutVersion: 1 };

const line = await new Promise((resolve) => {
  let buf = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (d) => {
    buf += d;
    const nl = buf.indexOf("\n");
    if (nl >= 0) resolve(buf.slice(0, nl));
  });
});
const announcement = ectp.v1.Announcement.decode(Buffer.from(line, "base64"));

const t = new NixlTransport({ localId: id });
const consumer = new ConsumerCore({
  id,
  epoch: 1,
  fingerprint: FP,
  transportMetadata: t.localMetadata(),
  config: { waitBudgetMs: 15_000, grantWaitMs: 5_000, transferTimeoutMs: 10_000, backoffInitialMs: 20, backoffMaxMs: 200 },
  destinations: {
    allocate: (_key, n) => ({ region: t.registerMemory(new Uint8Array(n)), offset: 0, length: n }),
    release: (d) => t.deregisterMemory(d.region),
    view: (d) => d.region.bytes.subarray(d.offset, d.offset + d.length),
  },
});
const driver = new Driver({ transport: t, consumer });
const running = driver.run();
const out = { interfaces: Object.keys(networkInterfaces()).sort() };
try {
  const request = { requestId: "r1", items: [{ itemId: "i1", announcement, hasModelInput: true }] };
  const t0 = performance.now();
  for (;;) {
    const r = consumer.admit(request, performance.now());
    if (r.status === "failed") {
      out.status = "failed";
      out.reason = String(r.failures[0]?.reason);
      break;
    }
    const item = r.items[0];
    if (item?.action !== "defer") {
      out.status = "admitted";
      out.action = item?.action;
      if (item?.action === "ready" && item.destination) {
        const v = item.destination;
        const got = v.region.bytes.subarray(v.offset, v.offset + v.length);
        let mismatches = 0;
        let first = -1;
        for (let i = 0; i < size; i++)
          if (got[i] !== ((i * 131 + salt * 7 + (i >>> 9)) & 0xff)) {
            mismatches++;
            if (first < 0) first = i;
          }
        out.length = got.length;
        out.mismatches = mismatches;
        out.firstMismatch = first;
      }
      consumer.finishRequest("r1", performance.now());
      break;
    }
    if (performance.now() - t0 > 30_000) {
      out.status = "undecided";
      break;
    }
    await new Promise((res) => setTimeout(res, 2));
  }
  out.ms = Math.round(performance.now() - t0);
} catch (e) {
  out.status = "threw";
  out.error = String(e?.stack ?? e);
}
driver.stop();
await running;
await t.close();
out.counters = t.counters();
process.stdout.write(`ECTP ${JSON.stringify(out)}\n`);
process.exit(0);

/**
 * Two processes, real cores: a producer child (ProducerCore + Driver over NixlTransport,
 * src/test/producer-child.mjs) and a consumer in this process (ConsumerCore + Driver over
 * NixlTransport). Reads succeed byte-exactly; the producer SIGKILLed mid-transfer leaves
 * the consumer alive, every request resolved within budget, and the consumer then loads
 * from the restarted producer (new epoch) without restarting itself.
 * Needs this package built (dist/) because the child imports it.
 */
import { type ChildProcess, fork } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConsumerCore, Driver, type AdmitResult, type ReadOperation } from "@ectp/core";
import type { ectp } from "@ectp/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { NixlTransport } from "./transport.js";
import { NIXL_MISSING, NIXL_SKIP_REASON, pattern } from "./test/helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const DIST_MISSING = !existsSync(join(here, "../dist/index.js"));
const FP: ectp.v1.IFingerprint = { model: "m", dtype: 1, rowBytes: 0, layoutVersion: 1 };
const PRODUCER = `E-${process.pid}`;

interface Producer {
  child: ChildProcess;
  announcement: ectp.v1.IAnnouncement;
}

async function startProducer(epoch: number, size: number, salt: number): Promise<Producer> {
  const child = fork(join(here, "test/producer-child.mjs"), [PRODUCER, String(epoch), String(size), String(salt)], {
    serialization: "advanced",
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const msg = await new Promise<{ announcement: ectp.v1.IAnnouncement }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { announcement: ectp.v1.IAnnouncement }));
    child.once("exit", (code, signal) => reject(new Error(`producer exited before announcing (code ${code}, signal ${signal})`)));
  });
  return { child, announcement: msg.announcement };
}

const skip = NIXL_MISSING || DIST_MISSING;
const reason = NIXL_MISSING ? NIXL_SKIP_REASON : DIST_MISSING ? " [skipped: run npx tsup in packages/transport-nixl first]" : "";

describe.skipIf(skip)(`two processes over NIXL with the real cores${reason}`, () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  });

  it("loads byte-exactly, survives the producer's SIGKILL mid-transfer within budget, then reconnects to its new epoch", async () => {
    const t = new NixlTransport({ localId: `P-${process.pid}` });
    let onStartRead: ((op: ReadOperation) => void) | undefined;
    const startRead = t.startRead.bind(t);
    t.startRead = (op) => {
      startRead(op);
      onStartRead?.(op);
    };
    const consumer = new ConsumerCore({
      id: t.localId,
      epoch: 1,
      fingerprint: FP,
      transportMetadata: t.localMetadata(),
      config: { waitBudgetMs: 8_000, grantWaitMs: 3_000, transferTimeoutMs: 4_000, backoffInitialMs: 20, backoffMaxMs: 200 },
      destinations: {
        allocate: (_key, size) => ({ region: t.registerMemory(new Uint8Array(size)), offset: 0, length: size }),
        release: (d) => t.deregisterMemory(d.region),
        view: (d) => d.region.bytes.subarray(d.offset, d.offset + d.length),
      },
    });
    const driver = new Driver({ transport: t, consumer });
    const running = driver.run();
    const admit = async (requestId: string, announcement: ectp.v1.IAnnouncement, budgetMs: number): Promise<{ r: AdmitResult; ms: number }> => {
      const t0 = performance.now();
      const request = { requestId, items: [{ itemId: "i1", announcement, hasModelInput: true }] };
      for (;;) {
        const r = consumer.admit(request, performance.now());
        if (r.status === "failed" || r.items[0]?.action !== "defer") return { r, ms: performance.now() - t0 };
        if (performance.now() - t0 > budgetMs) throw new Error(`request ${requestId} undecided after ${budgetMs} ms`);
        await new Promise((res) => setTimeout(res, 2));
      }
    };
    try {
      // 1. A normal load, byte-exact.
      const size1 = (4 << 20) + 5;
      const p1 = await startProducer(1, size1, 1);
      children.push(p1.child);
      const a1 = await admit("r1", p1.announcement, 15_000);
      expect(a1.r.status).toBe("admitted");
      const d1 = a1.r.status === "admitted" ? a1.r.items[0] : undefined;
      expect(d1?.action).toBe("ready");
      if (d1?.action !== "ready" || !d1.destination) throw new Error("no destination");
      const v = d1.destination;
      expect(Buffer.compare(v.region.bytes.subarray(v.offset, v.offset + v.length), pattern(size1, 1))).toBe(0);
      consumer.finishRequest("r1", performance.now());

      // 2. Kill the producer with SIGKILL as soon as the consumer starts reading a 256 MiB item.
      p1.child.send("stop");
      await new Promise((res) => p1.child.once("exit", res));
      const size2 = 256 << 20;
      const p2 = await startProducer(2, size2, 2);
      children.push(p2.child);
      let killedDuringRead = false;
      onStartRead = () => {
        if (!killedDuringRead) {
          killedDuringRead = true;
          p2.child.kill("SIGKILL");
        }
      };
      const a2 = await admit("r2", p2.announcement, 20_000);
      onStartRead = undefined;
      expect(killedDuringRead).toBe(true);
      // Resolved within the consumer's budget: local encode, or a failure report.
      expect(a2.ms).toBeLessThan(8_000 + 2_000);
      if (a2.r.status === "admitted") expect(a2.r.items[0]?.action).toBe("local-encode");
      else expect(a2.r.failures[0]?.reason).toBeDefined();
      consumer.finishRequest("r2", performance.now());

      // 3. The restarted producer (same id, new epoch) is reachable without restarting the consumer.
      const size3 = (1 << 20) + 3;
      const p3 = await startProducer(3, size3, 3);
      children.push(p3.child);
      const a3 = await admit("r3", p3.announcement, 15_000);
      const d3 = a3.r.status === "admitted" ? a3.r.items[0] : undefined;
      expect(d3?.action).toBe("ready");
      if (d3?.action !== "ready" || !d3.destination) throw new Error("no destination");
      const v3 = d3.destination;
      expect(Buffer.compare(v3.region.bytes.subarray(v3.offset, v3.offset + v3.length), pattern(size3, 3))).toBe(0);
      consumer.finishRequest("r3", performance.now());
      p3.child.send("stop");
      await new Promise((res) => p3.child.once("exit", res));
    } finally {
      driver.stop();
      await running;
      await t.close();
    }
    expect(t.counters()).toMatchObject({ activeTransfers: 0, registrations: 0, heldBuffers: 0 });
  }, 90_000);
});

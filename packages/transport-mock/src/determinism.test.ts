import { createHash } from "node:crypto";
import type { MemoryRegion } from "@ectp/core";
import { describe, expect, it } from "vitest";
import { MockNetwork } from "./network.js";
import { LinkRandom } from "./random.js";
import { pattern } from "./test-helpers.js";

/**
 * A busy three-endpoint workload under every fault at once; returns a hash of the
 * activity log (every poll result, every fault event, final counts).
 * `workloadSeed` drives the calls, `networkSeed` the faults.
 */
async function run(networkSeed: number, workloadSeed: number): Promise<string> {
  const net = new MockNetwork({
    seed: networkSeed,
    faults: {
      default: {
        drop: 0.1,
        delay: { probability: 0.1, minMs: 0, maxMs: 2 },
        duplicate: 0.1,
        reorder: { probability: 0.1 },
        failRead: 0.1,
        stallRead: { probability: 0.05, durationMs: 40 },
        corruptRead: 0.1,
      },
    },
  });
  const log: string[] = [];
  net.observe({ onFault: (e) => log.push(`fault ${e.at} ${e.kind} ${e.from}->${e.to} ${e.readId ?? ""}`) });
  const ids = ["a", "b", "c"];
  const eps = ids.map((id) => net.endpoint(id));
  for (const e of eps) for (const o of eps) if (e !== o) await e.connectPeer(o.localId, 1, o.localMetadata());
  const regions: MemoryRegion[] = eps.map((e, i) => e.registerMemory(pattern(4096, i)));
  const sinks: { bytes: Uint8Array; region: MemoryRegion }[] = eps.map((e) => {
    const bytes = new Uint8Array(64 * 1024);
    return { bytes, region: e.registerMemory(bytes) };
  });
  const w = new LinkRandom(workloadSeed);
  let readId = 0;
  for (let step = 0; step < 300; step++) {
    if (step === 150) {
      // Crash and restart "c" mid-run [P8]: its memory and traffic vanish; peers reconnect.
      const c2 = net.restart("c");
      eps[2] = c2;
      regions[2] = c2.registerMemory(pattern(4096, 2));
      const bytes = new Uint8Array(64 * 1024);
      sinks[2] = { bytes, region: c2.registerMemory(bytes) };
      for (const o of eps) {
        if (o === c2) continue;
        await o.connectPeer("c", 2, c2.localMetadata());
        await c2.connectPeer(o.localId, 1, o.localMetadata());
      }
    }
    const i = w.int(3);
    const j = (i + 1 + w.int(2)) % 3;
    const from = eps[i]!;
    const to = eps[j]!;
    if (w.chance(0.5)) {
      from.send(to.localId, new Uint8Array([step & 0xff, step >> 8, i, j]));
    } else {
      const len = 1 + w.int(1000);
      const off = w.int(4096 - len);
      const id = readId++;
      from.startRead({
        readId: id,
        peerId: to.localId,
        source: to.describe(regions[j]!, off, len),
        destination: { region: sinks[i]!.region, offset: (id * 997) % (64 * 1024 - len), length: len },
      });
      if (w.chance(0.1)) from.cancelRead(id);
    }
    net.advanceBy(w.next() * 0.5);
    for (const e of eps) {
      const act = e.poll();
      for (const m of act.messages) log.push(`${net.now()} ${e.localId} msg ${m.from} ${[...m.bytes].join(",")}`);
      for (const r of act.reads) log.push(`${net.now()} ${e.localId} read ${JSON.stringify(r)}`);
      for (const u of act.unreachable) log.push(`${net.now()} ${e.localId} unreachable ${u}`);
    }
  }
  net.advanceBy(100);
  for (const e of eps) log.push(JSON.stringify(e.poll()));
  log.push(JSON.stringify(net.faultCounts()));
  const h = createHash("sha256");
  h.update(log.join("\n"));
  for (const s of sinks) h.update(s.bytes);
  return h.digest("hex");
}

describe("determinism", () => {
  it("the same seed and calls give an identical activity log and bytes", async () => {
    const first = await run(42, 7);
    expect(await run(42, 7)).toBe(first);
    expect(await run(42, 8)).not.toBe(first); // the hash does depend on what happened
  });

  it("a different network seed gives a different fault schedule for the same calls", async () => {
    expect(await run(43, 7)).not.toBe(await run(42, 7));
  });

  it("changing one link's traffic does not shift another link's faults", async () => {
    const counts = async (extra: boolean) => {
      const net = new MockNetwork({ seed: 5, faults: { default: { drop: 0.5 } } });
      const a = net.endpoint("a");
      const b = net.endpoint("b");
      const c = net.endpoint("c");
      await a.connectPeer("b", 1, b.localMetadata());
      await a.connectPeer("c", 1, c.localMetadata());
      const got: number[] = [];
      for (let i = 0; i < 50; i++) {
        if (extra) a.send("c", new Uint8Array([i]));
        a.send("b", new Uint8Array([i]));
      }
      net.advanceBy(1);
      for (const m of b.poll().messages) got.push(m.bytes[0]!);
      return got;
    };
    expect(await counts(true)).toEqual(await counts(false));
  });
});

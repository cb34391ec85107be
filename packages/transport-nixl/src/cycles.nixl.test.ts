/**
 * 1,000 connect / transfer / disconnect cycles leave nothing behind: no registrations,
 * transfer handles, loaded peers or threads (addon counters, /proc/self/task), and RSS flat.
 */
import { readFileSync, readdirSync } from "node:fs";
import type { ReadResult } from "@ectp/core";
import { describe, expect, it } from "vitest";
import { NIXL_MISSING, NIXL_SKIP_REASON, makeTransport, pattern, until } from "./test/helpers.js";

function threads(): number {
  return readdirSync("/proc/self/task").length;
}
function rssBytes(): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
  return Number(m?.[1] ?? 0) * 1024;
}

describe.skipIf(NIXL_MISSING || process.platform !== "linux")(`NIXL resource cycles${NIXL_SKIP_REASON}`, () => {
  it("1,000 connect/transfer/disconnect cycles leak no handles, registrations, threads or memory", async () => {
    const a = makeTransport("cyc-a");
    const b = makeTransport("cyc-b");
    const src = pattern(64 * 1024, 4);
    const dst = new Uint8Array(64 * 1024);
    let readId = 0;
    const cycle = async (epoch: number) => {
      await a.connectPeer(b.localId, epoch, b.localMetadata());
      const sreg = b.registerMemory(src);
      const dreg = a.registerMemory(dst);
      const id = ++readId;
      const len = 1 + (epoch % src.length);
      a.startRead({ readId: id, peerId: b.localId, source: b.describe(sreg, 0, len), destination: { region: dreg, offset: 0, length: len } });
      const got: ReadResult[] = [];
      await until([a, b], () => got.push(...a.poll().reads) > 0, `read ${id}`);
      if (got[0]?.status !== "done") throw new Error(`cycle ${epoch}: ${JSON.stringify(got)}`);
      b.deregisterMemory(sreg);
      a.deregisterMemory(dreg);
      a.disconnectPeer(b.localId);
      b.poll();
    };
    for (let i = 1; i <= 50; i++) await cycle(i); // warm-up: allocator and UCX caches settle
    await until([a, b], () => a.counters().heldBuffers === 0 && b.counters().heldBuffers === 0, "warm-up deregistrations", 5_000).catch((e) => {
      throw new Error(`${e.message}: ${JSON.stringify([a.counters(), b.counters()])}`);
    });
    const threadsBefore = threads();
    const rssBefore = rssBytes();
    for (let i = 51; i <= 1050; i++) await cycle(i);
    // Deregistrations and the last invalidation run on the engine threads, after the calls return.
    await until(
      [a, b],
      () => a.counters().heldBuffers === 0 && b.counters().heldBuffers === 0 && a.counters().loadedPeers === 0,
      "deregistrations and invalidation",
    );
    const ca = a.counters();
    const cb = b.counters();
    expect(ca).toMatchObject({ registrations: 0, heldBuffers: 0, activeTransfers: 0, loadedPeers: 0, unsettledReads: 0, pendingPromises: 0 });
    expect(cb).toMatchObject({ registrations: 0, heldBuffers: 0, activeTransfers: 0 });
    expect(ca.totalReads).toBe(1050);
    expect(threads()).toBe(threadsBefore);
    const growth = rssBytes() - rssBefore;
    expect(growth).toBeLessThan(32 << 20); // flat: well under 32 KiB per cycle
    await a.close();
    await b.close();
    expect(a.counters().liveAgents).toBe(0);
  }, 120_000);
});

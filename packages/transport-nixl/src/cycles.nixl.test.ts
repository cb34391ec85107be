/**
 * 1,000 connect / transfer / disconnect cycles leave nothing behind: no registrations,
 * transfer handles, loaded peers or threads (addon counters, /proc/self/task), and memory
 * flat (RSS and the JS heap, sampled after a full GC every 100 cycles).
 */
import { readFileSync, readdirSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
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

/** A full V8 collection (the test process is not started with --expose-gc); made on first use. */
let fullGc: (() => void) | undefined;

/** RSS and JS heap in use right after a full collection, so JS garbage is not counted. */
function memory(): { rss: number; heap: number } {
  if (fullGc === undefined) {
    setFlagsFromString("--expose-gc");
    fullGc = runInNewContext("gc") as () => void;
  }
  fullGc();
  return { rss: rssBytes(), heap: process.memoryUsage().heapUsed };
}

/**
 * Growth from the first samples to the last ones, by the smallest of each three: a leak
 * raises every later sample, while a transient (a malloc arena or a GC running late on a
 * busy machine, seen at +20 MB for one sample) raises only some.
 */
function growth(samples: number[]): number {
  return Math.min(...samples.slice(-3)) - Math.min(...samples.slice(0, 3));
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
    // Warm-up: the allocator and UCX's caches settle. RSS rises for the first 400-500 cycles
    // and then stays flat (outside vitest too, with or without spinning waits: +2 to +6 MiB,
    // then within 0.5 MiB for 500 cycles). With 50 warm-up cycles and spinning waits the
    // samples here read 87.6 89.5 93.0 96.4 96.4 96.6 96.9 96.9 96.9 97.1 MiB: a rise that
    // ended inside the first samples and failed the bound below, which is meant for leaks.
    for (let i = 1; i <= 500; i++) await cycle(i);
    await until([a, b], () => a.counters().heldBuffers === 0 && b.counters().heldBuffers === 0, "warm-up deregistrations", 5_000).catch((e) => {
      throw new Error(`${e.message}: ${JSON.stringify([a.counters(), b.counters()])}`);
    });
    const threadsBefore = threads();
    const samples: { rss: number; heap: number }[] = [];
    for (let i = 501; i <= 1500; i++) {
      await cycle(i);
      if (i % 100 === 0) samples.push(memory());
    }
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
    expect(ca.totalReads).toBe(1500);
    expect(threads()).toBe(threadsBefore);
    // Flat: the last three samples (cycles 1300-1500) within 8 MiB of the first three
    // (600-800), i.e. under ~14 KiB per cycle, and the JS heap within 2 MiB.
    expect(growth(samples.map((x) => x.rss))).toBeLessThan(8 << 20);
    expect(growth(samples.map((x) => x.heap))).toBeLessThan(2 << 20);
    await a.close();
    await b.close();
    expect(a.counters().liveAgents).toBe(0);
  }, 120_000);
});

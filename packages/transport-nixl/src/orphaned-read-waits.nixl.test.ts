/**
 * A small READ orphaned by NIXL dropping its peer after a refused section load is never reported
 * before close(): the addon now tells the JS layer (drain()'s orphaned ids), so no later
 * waitForActivity spins waitSpinUs for it. Skipped without the addon.
 */
import type { ReadResult } from "@ectp/core";
import { afterEach, describe, expect, it } from "vitest";
import { decodeLocation, encodeLocation } from "./location.js";
import { DIST_MISSING, NIXL_MISSING, NIXL_SKIP_REASON, connectedTcpChild, makeTransport, open, until } from "./test/helpers.js";

describe.skipIf(NIXL_MISSING || DIST_MISSING)(`NixlTransport orphaned reads and spinning waits${NIXL_SKIP_REASON}`, () => {
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  }, 30_000);

  it("a small READ orphaned by a refused section load makes no later wait spin", async () => {
    const graceMs = 200;
    const size = 1 << 20; // within waitSpinUs' 2 MB: a wait would spin for it while it may still end
    const a = makeTransport("a", { cancelGraceMs: graceMs });
    open.push(a);
    const region = a.registerMemory(new Uint8Array(size));
    const spare = a.registerMemory(new Uint8Array(4096));
    const { child, peerId, source } = await connectedTcpChild(a, region, size, 4096);
    try {
      child.kill("SIGSTOP");
      a.startRead({ readId: 2, peerId, source, destination: { region, offset: 0, length: size } });
      await new Promise((r) => setTimeout(r, 50));
      const loc = decodeLocation(source);
      if (typeof loc === "string") throw new Error(loc);
      const damaged = Uint8Array.from(loc.section);
      damaged[damaged.length - 2] = (damaged[damaged.length - 2] as number) ^ 0xff;
      a.startRead({ readId: 3, peerId, source: encodeLocation({ ...loc, section: damaged }), destination: { region: spare, offset: 0, length: 4096 } });
      const results: ReadResult[] = [];
      await until([a], () => results.push(...a.poll().reads) > 0, "the damaged read's failure");
      await new Promise((r) => setTimeout(r, graceMs + 300));
      results.push(...a.poll().reads);
      expect(results.map((r) => r.readId)).toEqual([3]);
      expect(a.counters()).toMatchObject({ orphanedTransfers: 1, unsettledReads: 1 });
      // Read 2 is orphaned: NIXL will never report it before close(). No wait should spin for it.
      const spins0 = a.counters().spinningWaits;
      for (let i = 0; i < 20; i++) await a.waitForActivity(5);
      expect(a.counters().spinningWaits - spins0).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);
});

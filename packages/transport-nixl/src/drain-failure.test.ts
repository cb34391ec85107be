/**
 * A drain() of the addon that throws (out of memory while it builds its arrays) loses nothing: the
 * addon keeps the batch it took (native/nixl/src/addon.cpp, Agent::Drain), and the transport drains
 * again at its next poll, so every read is still reported exactly once [I5]. Runs over the stand-in
 * addon, whose drain() throws once and then hands the batch over as the addon does. Each test failed
 * before its fix: the transport marked the engine's activity drained before drain() returned (the
 * next poll found nothing to drain: the read was never reported), and reported it before the drain
 * (the engine's signal then woke no wait); a read that landed inside startRead while the drain
 * before it threw made startRead throw, and was reported failed although its bytes had landed.
 */
import { describe, expect, it } from "vitest";
import { standInTransport } from "./test/stand-in.js";

describe("[I5] a drain() that throws", () => {
  it("is retried at the next poll, which reports the read it held", async () => {
    const posted: number[] = [];
    let drains = 0;
    const { t, engineQueued } = standInTransport({
      registerMemory: (b: Uint8Array) => ({ id: 1, address: 0x1000n, length: b.length, section: Buffer.alloc(0) }),
      postRead: (id: number) => {
        posted.push(id);
        return 1; // NIXL_IN_PROG: the engine reports it through drain()
      },
      drain() {
        drains++;
        if (drains === 1) throw new Error("out of memory building the drain arrays");
        const reads = posted.flatMap((id) => [id, 0, 0, 0]);
        posted.length = 0;
        return reads.length === 0 ? undefined : [[], reads, [], []];
      },
    });
    await t.connectPeer("b", 1, new Uint8Array([1]));
    const region = t.registerMemory(new Uint8Array(64));
    t.startRead({ readId: 7, peerId: "b", source: new Uint8Array(40), destination: { region, offset: 0, length: 64 } });
    engineQueued();
    expect(() => t.poll()).toThrow(/out of memory/);
    expect(t.poll().reads).toEqual([{ readId: 7, status: "done", bytesRead: 64 }]);
    expect(t.poll().reads).toEqual([]);
    expect(drains).toBe(2);
    await t.close();
  });

  it("does not swallow the engine's signal: the next wait wakes on it", async () => {
    let drains = 0;
    const { t, engineQueued, engineSignal } = standInTransport({
      drain() {
        drains++;
        if (drains === 1) throw new Error("out of memory building the drain arrays");
        return [["b", Buffer.from([1])], [], [], []];
      },
    });
    engineQueued();
    expect(() => t.poll()).toThrow(/out of memory/);
    setTimeout(engineSignal, 0); // the engine's signal reaches JS after the poll
    const started = performance.now();
    await t.waitForActivity(5_000);
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(t.poll().messages).toHaveLength(1);
    await t.close();
  });

  it("in startRead, keeps the read that landed inside it and reports it after the engine's batch", async () => {
    let drains = 0;
    const nativeIds: number[] = [];
    const { t, engineQueued } = standInTransport({
      registerMemory: (b: Uint8Array) => ({ id: 1, address: 0x1000n, length: b.length, section: Buffer.alloc(0) }),
      postRead: (nativeId: number) => {
        nativeIds.push(nativeId);
        return nativeIds.length === 1 ? 1 : 0; // the first goes to the engine (NIXL_IN_PROG), the second lands inside the call
      },
      drain() {
        drains++;
        if (drains === 1) throw new Error("out of memory building the drain arrays");
        return [[], [nativeIds[0], 0, 0, 0], [], []];
      },
    });
    await t.connectPeer("b", 1, new Uint8Array([1]));
    const region = t.registerMemory(new Uint8Array(64));
    const read = (readId: number) => t.startRead({ readId, peerId: "b", source: new Uint8Array(40), destination: { region, offset: readId === 7 ? 0 : 32, length: 32 } });
    read(7);
    engineQueued(); // the engine settled read 7: startRead of 8 drains first, and that drain throws
    expect(() => read(8)).not.toThrow();
    expect(t.poll().reads).toEqual([
      { readId: 7, status: "done", bytesRead: 32 },
      { readId: 8, status: "done", bytesRead: 32 },
    ]);
    await t.close();
  });
});

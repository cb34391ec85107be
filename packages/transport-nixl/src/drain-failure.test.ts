/**
 * A drain() of the addon that throws (out of memory while it builds its arrays) loses nothing: the
 * addon keeps the batch it took (native/nixl/src/addon.cpp, Agent::Drain), and the transport drains
 * again at its next poll, so every read is still reported exactly once [I5]. Runs over the stand-in
 * addon, whose drain() throws once and then hands the batch over as the addon does. Failed before
 * the fix: the transport marked the engine's activity drained before drain() returned, so the next
 * poll found nothing to drain and the read was never reported.
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
});

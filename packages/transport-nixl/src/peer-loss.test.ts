/**
 * A peer NIXL has dropped by itself is forgotten by the transport too, without NIXL: NixlTransport
 * over the stand-in addon (test/fake-addon.cjs), its agent's methods replaced per test. NIXL drops
 * a peer's metadata on a transfer that ends REMOTE_DISCONNECT, and then answers a notification to it
 * NOT_FOUND. The deregistered-destination and the NOT_FOUND tests failed before their fix (review of
 * 2026-12-06; the plain disconnect is the control): a disconnect seen by a read into
 * a deregistered destination was not reported (no `peerGone`, no unreachable peer), and a send
 * failing NOT_FOUND left the peer "connected", so a connectPeer of the same epoch loaded nothing [P8].
 */
import { describe, expect, it } from "vitest";
import { standInTransport as transport } from "./test/stand-in.js";

describe("[P8] a peer NIXL dropped", () => {
  for (const deregistered of [false, true]) {
    it(`a read ending REMOTE_DISCONNECT reports the peer gone and forgets it${deregistered ? ", also when its destination was deregistered meanwhile" : ""}`, async () => {
      let pending: number | undefined;
      const { t, engineQueued } = transport({
        registerMemory: (b: Uint8Array) => ({ id: 1, address: 0x1000n, length: b.length, section: Buffer.alloc(0) }),
        deregisterMemory: () => true,
        postRead: (id: number) => {
          pending = id;
          return 1;
        },
        cancelRead() {},
        drain() {
          if (pending === undefined) return undefined;
          const out = [[], [pending, -10, deregistered ? 2 : 0, 0], [], []]; // flag 2: released for a deregistered destination
          pending = undefined;
          return out;
        },
      });
      await t.connectPeer("b", 1, new Uint8Array([1]));
      const region = t.registerMemory(new Uint8Array(64));
      t.startRead({ readId: 7, peerId: "b", source: new Uint8Array(40), destination: { region, offset: 0, length: 64 } });
      if (deregistered) t.deregisterMemory(region);
      engineQueued();
      const activity = t.poll();
      expect(activity.reads).toEqual([expect.objectContaining({ readId: 7, status: "failed", peerGone: true })]);
      expect(activity.unreachable).toEqual(["b"]);
      expect(t.counters().peers).toBe(0);
      await t.close();
    });
  }

  it("a send failing NOT_FOUND forgets the peer: a connectPeer of the same epoch loads its metadata again", async () => {
    let failed: unknown[] | undefined;
    const loads: string[] = [];
    const { t, engineQueued } = transport({
      loadRemote: () => {
        loads.push("b");
        return Promise.resolve("b");
      },
      send: (peer: string, _bytes: Uint8Array, tag: number) => {
        failed = [peer, -4, tag]; // NIXL_ERR_NOT_FOUND: NIXL holds no metadata for b any more
      },
      drain() {
        const f = failed;
        failed = undefined;
        return f === undefined ? undefined : [[], [], f, []];
      },
    });
    const metadata = new Uint8Array([1, 2, 3]);
    await t.connectPeer("b", 1, metadata);
    t.send("b", new Uint8Array([9]));
    engineQueued();
    expect(t.poll().unreachable).toEqual(["b"]);
    expect(t.counters().peers).toBe(0);
    await t.connectPeer("b", 1, metadata);
    expect(loads).toEqual(["b", "b"]);
    await t.close();
  });
});


import { afterEach, describe, expect, it } from "vitest";
import { loadNixlAddon, nixlAvailability } from "./addon.js";
import { NIXL_MISSING, NIXL_SKIP_REASON, makeTransport, open, pair, pattern, } from "./test/helpers.js";

const invalidArgument = expect.objectContaining({ code: "INVALID_ARGUMENT" });

describe.skipIf(NIXL_MISSING)(`NixlTransport peers and refused reads over NIXL${NIXL_SKIP_REASON}`, () => {
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  }, 30_000);

  it("connectPeer after close() rejects TRANSPORT_UNAVAILABLE and loads nothing", async () => {
    const a = makeTransport("a");
    const b = makeTransport("b");
    open.push(b);
    await a.close();
    await expect(a.connectPeer(b.localId, 1, b.localMetadata())).rejects.toMatchObject({ code: "TRANSPORT_UNAVAILABLE" });
    expect(a.counters().peers).toBe(0);
  });

  it("a read for a peer reported unreachable fails with peerGone; one for a peer never seen fails without it", async () => {
    const a = makeTransport("a");
    open.push(a);
    const region = a.registerMemory(new Uint8Array(64));
    const source = new Uint8Array(40);
    a.send("gone-peer", new Uint8Array([1]));
    a.startRead({ readId: 1, peerId: "gone-peer", source, destination: { region, offset: 0, length: 16 } });
    a.startRead({ readId: 2, peerId: "never-seen", source, destination: { region, offset: 16, length: 16 } });
    const got = a.poll();
    expect(got.reads).toEqual([
      { readId: 1, status: "failed", error: "peer gone-peer is not connected (no NIXL metadata loaded)", peerGone: true },
      { readId: 2, status: "failed", error: "peer never-seen is not connected (no NIXL metadata loaded)" },
    ]);
  });

  it("startRead refuses an empty destination range with INVALID_ARGUMENT, starting nothing", async () => {
    const { a, b } = await pair();
    const source = b.describe(b.registerMemory(pattern(64, 1)), 0, 16);
    const region = a.registerMemory(new Uint8Array(64));
    expect(() => a.startRead({ readId: 1, peerId: b.localId, source, destination: { region, offset: 0, length: 0 } })).toThrow(invalidArgument);
    expect(a.poll().reads).toEqual([]);
    expect(a.counters().totalReads).toBe(0);
  });

  it("a failed load from an explicit path leaves the default addon loadable", () => {
    expect(() => loadNixlAddon("/nonexistent/again/ectp_nixl.node")).toThrow(/TRANSPORT_UNAVAILABLE|not available/);
    expect(nixlAvailability().available).toBe(true);
  });
});

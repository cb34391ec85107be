/**
 * NixlTransport's peer table over real NIXL agents: which connectPeer calls replace a peer's
 * metadata (a newer epoch) and which change nothing (the same epoch again, an older one, a wrong
 * agent's metadata), and when a peer is reported unreachable (a send it cannot take) and dropped.
 * Skipped, with the reason in the title, when the addon is not built.
 */
import type { ReadResult } from "@ectp/core";
import { EctpError } from "@ectp/protocol";
import { afterEach, describe, expect, it } from "vitest";
import {
  DIST_MISSING,
  NIXL_MISSING,
  NIXL_SKIP_REASON,
  connectedTcpChild,
  makeTransport,
  open,
  pair,
  pattern,
  until,
} from "./test/helpers.js";

describe.skipIf(NIXL_MISSING)(`NixlTransport peers over NIXL${NIXL_SKIP_REASON}`, () => {
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  }, 30_000);

  it.skipIf(DIST_MISSING)("connectPeer repeated with the loaded epoch and metadata leaves a read in flight alone (not orphaned)", async () => {
    const a = makeTransport("a", { cancelGraceMs: 200 });
    open.push(a);
    const size = 16 << 20;
    const region = a.registerMemory(new Uint8Array(size));
    const { child, peerId, source, metadata } = await connectedTcpChild(a, region, size, 4096);
    try {
      child.kill("SIGSTOP"); // the read below cannot finish until SIGCONT
      a.startRead({ readId: 2, peerId, source, destination: { region, offset: 0, length: size } });
      await new Promise((r) => setTimeout(r, 50));
      await a.connectPeer(peerId, 1, metadata); // a repeated Hello of the same incarnation
      await new Promise((r) => setTimeout(r, 100)); // past cancelGraceMs, had the peer been invalidated
      expect(a.counters().orphanedTransfers).toBe(0);
      child.kill("SIGCONT");
      const got: ReadResult[] = [];
      await until([a], () => got.push(...a.poll().reads) > 0, "read 2", 15_000);
      expect(got).toEqual([{ readId: 2, status: "done", bytesRead: size }]);
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);

  it("a late connectPeer of an older epoch resolves and leaves the newer epoch's metadata loaded", async () => {
    const a = makeTransport("a");
    open.push(a);
    const first = makeTransport("b");
    const name = first.localId;
    const firstMetadata = first.localMetadata();
    await a.connectPeer(name, 1, firstMetadata);
    await first.close();
    const restarted = makeTransport("unused", { localId: name });
    open.push(restarted);
    await a.connectPeer(name, 2, restarted.localMetadata());
    await restarted.connectPeer(a.localId, 1, a.localMetadata());
    await a.connectPeer(name, 1, firstMetadata);
    const region = a.registerMemory(new Uint8Array(4096));
    const source = restarted.describe(restarted.registerMemory(pattern(4096, 4)), 0, 4096);
    a.startRead({ readId: 1, peerId: name, source, destination: { region, offset: 0, length: 4096 } });
    const got: ReadResult[] = [];
    await until([a, restarted], () => got.push(...a.poll().reads) > 0, "read 1");
    expect(got).toEqual([{ readId: 1, status: "done", bytesRead: 4096 }]);
  });

  it("connectPeer with a connected peer's metadata under another id rejects INVALID_ARGUMENT and leaves that peer connected", async () => {
    const { a, b } = await pair();
    await expect(a.connectPeer("not-b", 1, b.localMetadata())).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await new Promise((r) => setTimeout(r, 50));
    const size = 64 << 10;
    const region = a.registerMemory(new Uint8Array(size));
    const source = b.describe(b.registerMemory(pattern(size, 2)), 0, size);
    a.startRead({ readId: 1, peerId: b.localId, source, destination: { region, offset: 0, length: size } });
    const got: ReadResult[] = [];
    await until([a, b], () => got.push(...a.poll().reads) > 0, "read 1");
    expect(got).toEqual([{ readId: 1, status: "done", bytesRead: size }]);
    expect(a.counters().loadedPeers).toBe(1);
  });

  it("[I1] a newer epoch's metadata naming the connected peer with a damaged body rejects INVALID_ARGUMENT and leaves the live connection up", async () => {
    const { a, b } = await pair();
    const metadata = b.localMetadata();
    // NIXL's head ("nixlSerDes|Agent", u64 name length, the name, "|") intact, then bytes that are no NIXL fields.
    const head = 16 + 8 + Buffer.byteLength(b.localId) + 1;
    const damaged = new Uint8Array(head + 4);
    damaged.set(metadata.subarray(0, head));
    damaged.set([1, 2, 3, 4], head);
    await expect(a.connectPeer(b.localId, 2, damaged)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    // Before, the epoch-1 connection was invalidated first and only then did the addon refuse the bytes.
    expect(a.counters()).toMatchObject({ peers: 1, loadedPeers: 1 });
    const region = a.registerMemory(new Uint8Array(4096));
    const source = b.describe(b.registerMemory(pattern(4096, 6)), 0, 4096);
    a.startRead({ readId: 1, peerId: b.localId, source, destination: { region, offset: 0, length: 4096 } });
    const got: ReadResult[] = [];
    await until([a, b], () => got.push(...a.poll().reads) > 0, "read 1");
    expect(got).toEqual([{ readId: 1, status: "done", bytesRead: 4096 }]);
  });

  it("connectPeer with the metadata of a closed agent rejects PEER_UNREACHABLE (NIXL_ERR_BACKEND in its details)", async () => {
    const a = makeTransport("a");
    open.push(a);
    const b = makeTransport("b");
    const metadata = b.localMetadata();
    await b.close();
    const err = await a.connectPeer(b.localId, 1, metadata).then(
      () => "resolved",
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EctpError);
    expect(err).toMatchObject({ code: "PEER_UNREACHABLE", details: { nixlCode: "NIXL_ERR_BACKEND" } });
  });

  it("a send to a peer never connected is reported unreachable by the very next poll, once", async () => {
    const a = makeTransport("a");
    open.push(a);
    a.poll();
    a.send("nobody", new Uint8Array([1]));
    expect(a.poll().unreachable).toEqual(["nobody"]);
    expect(a.poll().unreachable).toEqual([]);
  });

  it("connectPeer clears an unreachable report not yet polled: the new connection is not reported down", async () => {
    const a = makeTransport("a");
    const c = makeTransport("c");
    open.push(a, c);
    a.poll();
    a.send(c.localId, new Uint8Array([1])); // not connected yet: unreachable
    await a.connectPeer(c.localId, 1, c.localMetadata());
    expect(a.poll().unreachable).toEqual([]);
  });

  it("sends to a peer that closed are reported unreachable and drop it: a read from it then fails at once, not connected", async () => {
    const a = makeTransport("a");
    open.push(a);
    const b = makeTransport("b");
    const name = b.localId;
    await a.connectPeer(name, 1, b.localMetadata());
    await b.connectPeer(a.localId, 1, a.localMetadata());
    a.send(name, new Uint8Array([1])); // opens the connection
    await until([b], () => b.poll().messages.length > 0, "the first message");
    await b.close();
    const unreachable: string[] = [];
    const reportedDown = () => {
      a.send(name, new Uint8Array([2]));
      unreachable.push(...a.poll().unreachable);
      return unreachable.includes(name);
    };
    await until([a], reportedDown, "the send failures to be reported", 15_000);
    expect(a.counters().staleSendFailures).toBe(0); // failures of the current connection, not an old one
    expect(a.counters().peers).toBe(0);
    const region = a.registerMemory(new Uint8Array(16));
    a.startRead({ readId: 1, peerId: name, source: new Uint8Array(30), destination: { region, offset: 0, length: 16 } });
    expect(a.poll().reads).toMatchObject([{ readId: 1, status: "failed", error: expect.stringContaining("not connected") }]);
  }, 30_000);
});

/**
 * The behavioural contract of `Transport`, as one test body any implementation can run
 * (`describeTransportContract("NixlTransport", makeNixlHarness)`), so the mock cannot
 * drift from the real transports (house style: one suite over every transport).
 *
 * Test-only: imports vitest, is not exported from the package entry and is not built
 * into dist. Every case only uses the `Transport` interface plus a harness that knows how
 * to make progress (advance virtual time, or wait for real time).
 * @module
 */
import type { MemoryRegion, ReadResult, ReceivedMessage, Transport } from "@ectp/core";
import { EctpError } from "@ectp/protocol";
import { afterEach, describe, expect, it } from "vitest";

/** What an implementation provides to run the contract. */
export interface ContractHarness {
  /** Reader side: connected to `b`. */
  readonly a: Transport;
  /** Memory owner side: connected to `a`. */
  readonly b: Transport;
  /** Make progress (advance virtual time, or sleep) until `done()` holds; fail with `what` after a bound. */
  until(done: () => boolean, what: string): Promise<void>;
  /** Release everything. */
  dispose(): Promise<void>;
}

/** Accumulates everything a transport reports across polls. */
class Collector {
  readonly reads: ReadResult[] = [];
  readonly messages: ReceivedMessage[] = [];
  readonly unreachable: string[] = [];
  constructor(private readonly t: Transport) {}
  poll(): this {
    const act = this.t.poll();
    this.reads.push(...act.reads);
    this.messages.push(...act.messages);
    this.unreachable.push(...act.unreachable);
    return this;
  }
  read(readId: number): ReadResult[] {
    return this.reads.filter((r) => r.readId === readId);
  }
}

function bytesOf(n: number, salt: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 131 + salt) & 0xff;
  return b;
}

/** Register the whole contract as a vitest `describe` block named after the implementation. */
export function describeTransportContract(name: string, make: () => Promise<ContractHarness>): void {
  describe(`Transport contract: ${name}`, () => {
    let h: ContractHarness | undefined;
    const harness = async () => {
      h = await make();
      return h;
    };
    afterEach(async () => {
      await h?.dispose();
      h = undefined;
    });

    it("a read copies the owner's bytes exactly and reports done exactly once [I6]", async () => {
      const { a, b, until } = await harness();
      const src = bytesOf(100_003, 1);
      const source = b.describe(b.registerMemory(src), 3, 100_000);
      const dst = new Uint8Array(100_010);
      const region = a.registerMemory(dst);
      a.startRead({ readId: 1, peerId: b.localId, source, destination: { region, offset: 7, length: 100_000 } });
      const c = new Collector(a);
      await until(() => c.poll().read(1).length > 0, "read 1 to settle");
      expect(c.read(1)).toEqual([{ readId: 1, status: "done", bytesRead: 100_000 }]);
      expect(Buffer.compare(dst.subarray(7, 100_007), src.subarray(3, 100_003))).toBe(0);
      await until(() => true, "nothing");
      expect(c.poll().read(1)).toHaveLength(1);
    });

    it("a cancelled read reports exactly one result, and leaves the destination untouched when cancelled", async () => {
      const { a, b, until } = await harness();
      const source = b.describe(b.registerMemory(bytesOf(4096, 2)), 0, 4096);
      const dst = new Uint8Array(4096);
      a.startRead({ readId: 2, peerId: b.localId, source, destination: { region: a.registerMemory(dst), offset: 0, length: 4096 } });
      a.cancelRead(2);
      const c = new Collector(a);
      await until(() => c.poll().read(2).length > 0, "read 2 to settle");
      const [r] = c.read(2);
      expect(["cancelled", "done", "failed"]).toContain(r?.status);
      if (r?.status === "cancelled") expect(dst.every((x) => x === 0)).toBe(true);
      a.cancelRead(2); // after settlement: ignored
      expect(c.poll().read(2)).toHaveLength(1);
    });

    it("a malformed source location fails the read instead of throwing [I1]", async () => {
      const { a, b, until } = await harness();
      const region = a.registerMemory(new Uint8Array(16));
      expect(() =>
        a.startRead({ readId: 3, peerId: b.localId, source: new Uint8Array([0xde, 0xad]), destination: { region, offset: 0, length: 16 } }),
      ).not.toThrow();
      const c = new Collector(a);
      await until(() => c.poll().read(3).length > 0, "read 3 to settle");
      expect(c.read(3)).toMatchObject([{ readId: 3, status: "failed" }]);
      expect(typeof c.read(3)[0]?.error).toBe("string");
    });

    it("a message arrives once, from the sender's id, as an independent copy", async () => {
      const { a, b, until } = await harness();
      const msg = new Uint8Array([9, 8, 7, 6]);
      a.send(b.localId, msg);
      msg[0] = 0;
      const c = new Collector(b);
      await until(() => c.poll().messages.length > 0, "the message to arrive");
      expect(c.messages.map((m) => [m.from, [...m.bytes]])).toEqual([[a.localId, [9, 8, 7, 6]]]);
    });

    it("connectPeer rejects unusable metadata with an EctpError", async () => {
      const { a } = await harness();
      await expect(a.connectPeer("nobody", 1, new Uint8Array([1, 2, 3]))).rejects.toBeInstanceOf(EctpError);
    });

    it("a read into a deregistered destination settles failed and writes nothing afterwards [I5]", async () => {
      const { a, b, until } = await harness();
      const source = b.describe(b.registerMemory(bytesOf(1 << 20, 3)), 0, 1 << 20);
      const dst = new Uint8Array(1 << 20);
      const region: MemoryRegion = a.registerMemory(dst);
      a.startRead({ readId: 4, peerId: b.localId, source, destination: { region, offset: 0, length: 1 << 20 } });
      a.deregisterMemory(region);
      const c = new Collector(a);
      await until(() => c.poll().read(4).length > 0, "read 4 to settle");
      const r = c.read(4)[0];
      expect(r?.status === "failed" || r?.status === "done").toBe(true);
      const snapshot = dst.slice();
      await until(() => true, "nothing");
      expect(Buffer.compare(dst, snapshot)).toBe(0); // (toEqual on 1 MiB is slow)
    });

    it("close settles every unsettled read exactly once", async () => {
      const { a, b, until } = await harness();
      const source = b.describe(b.registerMemory(bytesOf(1 << 20, 4)), 0, 1 << 20);
      const region = a.registerMemory(new Uint8Array(1 << 20));
      a.startRead({ readId: 5, peerId: b.localId, source, destination: { region, offset: 0, length: 1 << 20 } });
      await a.close();
      const c = new Collector(a);
      await until(() => c.poll().read(5).length > 0, "read 5 to settle after close");
      expect(c.read(5)).toHaveLength(1);
    });
  });
}

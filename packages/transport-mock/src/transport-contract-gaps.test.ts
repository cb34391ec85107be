/**
 * Where the mock kept less to the Transport contract (packages/core/src/transport.ts) than the
 * NIXL transport does: waits that leave a real timer armed, a read id reused while its result is
 * unpolled, memory that can shrink or be detached under a read, a startRead that throws after
 * starting its read, a 0-timeout wait that leaves activity for the next, an aborted wait's
 * record, endpoint ids the mock's blobs cannot carry. Each test failed before its fix.
 */
import { describe, expect, it } from "vitest";
import { MockNetwork } from "./network.js";
import { ectpErrorOf, pair, pattern, read } from "./test-helpers.js";

const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

describe("waits keep nothing once they resolved", () => {
  it("on an external clock, a wait woken outside an event (send to an unknown peer, cancelRead) leaves no real timer armed for its deadline", async () => {
    const { p, c } = await pair({ clock: { now: () => performance.now() } });
    const before = timers();
    const w = c.waitForActivity(60_000); // arms the network's timer for the wait's deadline
    c.send("nobody", new Uint8Array([1])); // wakes it at once
    await w;
    expect(timers()).toBe(before); // no 60 s timer left keeping the process alive
    await c.close();
    await p.close();
  });
});

describe("read ids", () => {
  it("a read id whose result is queued but not yet polled is refused (the caller has not seen it settle), so one poll never carries two results for one id", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(64));
    const dst = c.registerMemory(new Uint8Array(64));
    read(c, p, 1, src, 0, dst, 0, 64);
    c.cancelRead(1); // settles cancelled, result queued
    expect(() => read(c, p, 1, src, 0, dst, 0, 64)).toThrow(/read 1/);
    net.advanceBy(1);
    expect(c.poll().reads.filter((r) => r.readId === 1)).toHaveLength(1);
  });
});

describe("memory the NIXL transport refuses", () => {
  it("registerMemory refuses a view of a resizable ArrayBuffer with INVALID_ARGUMENT, as NixlTransport does", () => {
    const net = new MockNetwork({ seed: 1 });
    const c = net.endpoint("c");
    // (ES2024 resizable buffers: typed through a cast, this package's lib predates them)
    const Resizable = ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => ArrayBuffer;
    const buf = new Resizable(64, { maxByteLength: 128 });
    expect(() => c.registerMemory(new Uint8Array(buf))).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });

  it("a registered buffer cannot be detached under a read (marked untransferable, as NixlTransport does): the read lands instead of a RangeError out of poll", async () => {
    const { net, p, c } = await pair();
    const src = p.registerMemory(pattern(64));
    const buf = new ArrayBuffer(64);
    const dst = c.registerMemory(new Uint8Array(buf));
    read(c, p, 1, src, 0, dst, 0, 64);
    structuredClone(buf, { transfer: [buf] }); // copies instead of detaching a buffer marked untransferable
    expect(buf.byteLength).toBe(64);
    net.advanceBy(1);
    let reads: readonly { readId: number; status: string }[] = [];
    expect(() => {
      reads = c.poll().reads;
    }).not.toThrow();
    expect(reads).toMatchObject([{ readId: 1, status: "done", bytesRead: 64 }]);
    expect(new Uint8Array(buf)).toEqual(pattern(64));
  });
});

describe("a startRead that throws started nothing", () => {
  it("an onFault observer that throws at a stall fault's start leaves no read behind: no result ever arrives for it", async () => {
    const { net, p, c } = await pair({ faults: { links: [{ from: "c", to: "p", stallRead: { probability: 1, durationMs: 5 } }] } });
    net.observe({
      onFault: (e) => {
        if (e.kind === "stallRead") throw new Error("checker refused");
      },
    });
    const src = p.registerMemory(pattern(16));
    const dst = c.registerMemory(new Uint8Array(16));
    expect(() => read(c, p, 1, src, 0, dst, 0, 16)).toThrow("checker refused");
    // Transport.startRead: "A call that throws started nothing: no result arrives for that read id,
    // and the destination is not touched" (a Driver settles it as failed itself).
    net.advanceBy(100);
    expect(c.poll().reads).toEqual([]);
    expect(dst.bytes).toEqual(new Uint8Array(16));
    expect(net.unsettledWrites("c")).toEqual([]);
  });
});

describe("edge-triggered waits", () => {
  it("a wait with timeout 0 also consumes unreported activity (as NixlTransport's does): the next wait sleeps until something new", async () => {
    const { net, c } = await pair();
    c.send("nobody", new Uint8Array([1])); // activity: an unreachable peer, unpolled
    await c.waitForActivity(0); // resolves at once, and is the wait told of it
    let resolved = false;
    const w = c.waitForActivity(50).then(() => {
      resolved = true;
    });
    await new Promise<void>((r) => setImmediate(r));
    expect(resolved).toBe(false);
    net.advanceBy(60);
    await w;
  });
});

describe("an aborted wait leaves no record", () => {
  it("an aborted wait on a replaced (closed, then reopened) handle leaves the old incarnation in no list of the network", async () => {
    const net = new MockNetwork({ seed: 1 });
    const a = net.endpoint("a");
    await a.close();
    await a.waitForActivity(5); // takes the news of the close
    const ac = new AbortController();
    const pending = a.waitForActivity(60_000, ac.signal);
    net.endpoint("a"); // the next incarnation: the old handle's wait is kept so that it can time out
    ac.abort(); // Transport.waitForActivity: "the transport keeps nothing for it (no timer, no record)"
    await pending;
    const waits = (net as unknown as { fabric: { waits: { replaced: Set<unknown> } } }).fabric.waits;
    expect(waits.replaced.size).toBe(0);
  });
});

describe("endpoint ids the blobs cannot carry", () => {
  it("an endpoint id longer than a location's u16 id length field is refused at creation, not made unreachable by every peer", async () => {
    const net = new MockNetwork({ seed: 1 });
    const long = "x".repeat(70_000);
    let made: ReturnType<MockNetwork["endpoint"]> | undefined;
    try {
      made = net.endpoint(long);
    } catch (e) {
      expect(e).toMatchObject({ code: "INVALID_ARGUMENT" });
      return;
    }
    // Accepted: then its metadata must be usable by a peer.
    const c = net.endpoint("c");
    const outcome = await c.connectPeer(long, 1, made.localMetadata()).then(
      () => "connected",
      (e: { details?: { reason?: string } }) => `rejected: ${e.details?.reason}`,
    );
    expect(outcome).toBe("connected");
  });

  it("an endpoint id with a lone UTF-16 surrogate is refused at creation with INVALID_ARGUMENT saying where and why, not made unreachable by every peer", async () => {
    const net = new MockNetwork({ seed: 1 });
    for (const [id, shown, unit, index] of [
      ["enc\uD800", '"enc\\ud800"', "D800", 3],
      ["\uDC00x", '"\\udc00x"', "DC00", 0],
    ] as const) {
      const e = ectpErrorOf(() => net.endpoint(id), "INVALID_ARGUMENT");
      expect(e.message).toBe(
        `[INVALID_ARGUMENT] an endpoint id must be well-formed Unicode: ${shown} has a lone surrogate (U+${unit} at index ${index}), which UTF-8 cannot carry, so no peer could connect to it or read from it; use an id without one`,
      );
      expect(e.message).not.toMatch(/\p{Cs}/u); // the message itself has no lone surrogate: it can be printed and encoded
    }
    expect(net.endpointIds()).toEqual([]);
    // A surrogate pair is a character like any other: accepted, and reachable.
    const emoji = net.endpoint("enc-\u{1F600}");
    await net.endpoint("c").connectPeer(emoji.localId, 1, emoji.localMetadata());
  });
});

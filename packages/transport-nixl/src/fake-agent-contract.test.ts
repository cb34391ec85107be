/**
 * The Transport contract where it needs no NIXL: NixlTransport over the JavaScript stand-in addon
 * (test/fake-addon.cjs), its agent's methods replaced per test by a small in-memory model. Each
 * test failed before its fix (reviews of 2026-12-03): a live peer dropped for bad metadata (another
 * agent's, then a damaged body naming the peer), untyped argument errors, a local error reported as the
 * peer unreachable, the exit hook losing a closing agent, abandoned waits kept with their timers.
 */
import { Driver, type ProducerCore } from "@ectp/core";
import { EctpError } from "@ectp/protocol";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { decodeLocation } from "./location.js";
import { NixlTransport } from "./transport.js";

const addonPath = join(dirname(fileURLToPath(import.meta.url)), "test", "fake-addon.cjs");

/** NIXL's serialized agent metadata as far as its head: "nixlSerDes|Agent", u64 (LE) name length, name, "|", then the rest. */
function metadataOf(name: string, rest = "Conns...UCX...MemSection"): Uint8Array {
  const tag = Buffer.from("nixlSerDes|Agent");
  const n = Buffer.from(name);
  const len = Buffer.alloc(8);
  len.writeUInt32LE(n.length, 0);
  return new Uint8Array(Buffer.concat([tag, len, n, Buffer.from("|"), Buffer.from(rest)]));
}

/**
 * The name a stand-in loadRemote finds in metadata (as NIXL would), or undefined when it is not NIXL
 * metadata or its body is damaged (the addon's well-formedness check: here, a body not ending "MemSection").
 */
function nameIn(md: Uint8Array): string | undefined {
  const b = Buffer.from(md.buffer, md.byteOffset, md.byteLength);
  if (b.length < 24 || b.subarray(0, 16).toString() !== "nixlSerDes|Agent") return undefined;
  const n = b.readUInt32LE(16);
  if (b.length < 24 + n + 1 || !b.toString("latin1").endsWith("MemSection")) return undefined;
  return b.subarray(24, 24 + n).toString();
}

interface FakeLog {
  invalidated: string[];
  loaded: string[];
  sent: string[];
  stopped: number;
  closeResolve?: () => void;
}

/** A transport over the stand-in addon, its agent given an in-memory model of the methods the tests use. */
function fakeTransport(localId: string, options: { closeNeverResolves?: boolean } = {}): { t: NixlTransport; log: FakeLog } {
  const t = new NixlTransport({ localId, addonPath, waitSpinUs: 0 });
  const log: FakeLog = { invalidated: [], loaded: [], sent: [], stopped: 0 };
  const agent = (t as unknown as { agent: Record<string, unknown> }).agent;
  let nextRegion = 1;
  Object.assign(agent, {
    invalidateRemote(name: unknown) {
      if (typeof name !== "string") throw Object.assign(new Error("agent name must be a string"), { code: "ERR_INVALID_ARG" });
      log.invalidated.push(name);
    },
    loadRemote(md: Uint8Array) {
      const name = nameIn(md);
      if (name === undefined)
        return Promise.reject(Object.assign(new Error("loadRemoteMD refused"), { code: "NIXL_ERR_MISMATCH", nixlStatus: -5 }));
      log.loaded.push(name);
      return Promise.resolve(name);
    },
    metadataWellFormed(md: Uint8Array) {
      return nameIn(md) !== undefined;
    },
    send(peer: unknown, bytes: unknown) {
      if (typeof peer !== "string") throw Object.assign(new Error("peer must be a string"), { code: "ERR_INVALID_ARG" });
      if (!ArrayBuffer.isView(bytes)) throw Object.assign(new Error("message must be a Buffer"), { code: "ERR_INVALID_ARG" });
      log.sent.push(peer);
    },
    registerMemory(bytes: Uint8Array) {
      return { id: nextRegion++, address: 0x10000n, length: bytes.length, section: Buffer.alloc(0) };
    },
    deregisterMemory() {
      return true;
    },
    postRead() {
      return 1; // in flight
    },
    postReadWithCrc() {
      return 1;
    },
    cancelRead() {},
    drain() {
      return undefined;
    },
    close() {
      if (options.closeNeverResolves) return new Promise<void>((r) => (log.closeResolve = r));
      return Promise.resolve();
    },
    stopEngine() {
      log.stopped++;
    },
  });
  return { t, log };
}

describe("connectPeer and a live connection", () => {
  // README (peers.nixl.test.ts): connectPeer calls "which change nothing (the same epoch again, with a
  // read in flight; an older epoch; another agent's metadata under a live peer's id)".
  // transport.ts: "a call with a newer epoch replaces the older metadata" (only a newer one).
  it("another agent's metadata under a connected peer's id (same epoch) rejects INVALID_ARGUMENT and leaves that peer connected", async () => {
    const { t, log } = fakeTransport("a");
    await t.connectPeer("b", 1, metadataOf("b"));
    await expect(t.connectPeer("b", 1, metadataOf("c"))).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(log.invalidated.filter((n) => n === "b")).toHaveLength(1); // only the first connect's "invalidate first"
    expect(t.counters().peers).toBe(1);
    const region = t.registerMemory(new Uint8Array(16));
    t.startRead({ readId: 1, peerId: "b", source: new Uint8Array(30), destination: { region, offset: 0, length: 16 } });
    expect(t.poll().reads).toEqual([]); // in flight, not "peer b is not connected"
    await t.close();
  });

  it("other metadata naming the connected peer (same epoch, a damaged body) rejects INVALID_ARGUMENT before the live connection is invalidated, and its reads go on", async () => {
    const { t, log } = fakeTransport("a");
    await t.connectPeer("b", 1, metadataOf("b"));
    const region = t.registerMemory(new Uint8Array(16));
    t.startRead({ readId: 1, peerId: "b", source: new Uint8Array(30), destination: { region, offset: 0, length: 16 } });
    await expect(t.connectPeer("b", 1, metadataOf("b", "damaged"))).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(log.invalidated.filter((n) => n === "b")).toHaveLength(1); // only the first connect's "invalidate first"
    expect(t.counters().peers).toBe(1);
    t.startRead({ readId: 2, peerId: "b", source: new Uint8Array(30), destination: { region, offset: 0, length: 16 } });
    expect(t.poll().reads).toEqual([]); // both in flight, not "peer b is not connected"
    // A newer epoch still replaces the connection.
    await t.connectPeer("b", 2, metadataOf("b"));
    expect(log.invalidated.filter((n) => n === "b")).toHaveLength(2);
    await t.close();
  });

  it("garbage metadata for a connected peer (same epoch) rejects and leaves that peer connected", async () => {
    const { t, log } = fakeTransport("a");
    await t.connectPeer("b", 1, metadataOf("b"));
    await expect(t.connectPeer("b", 1, new Uint8Array([1, 2, 3]))).rejects.toBeInstanceOf(EctpError);
    expect(log.invalidated.filter((n) => n === "b")).toHaveLength(1);
    expect(t.counters().peers).toBe(1);
    await t.close();
  });
});

describe("connectPeer with a newer epoch: only the peer's own agent metadata replaces a live connection [I1]", () => {
  // transport.ts: "A live connection is torn down (invalidated below) only for metadata of this very agent".
  /** A transport connected to peer b (epoch 1) with read 1 from it in flight. */
  const readingFromB = async () => {
    const { t, log } = fakeTransport("a");
    await t.connectPeer("b", 1, metadataOf("b"));
    const region = t.registerMemory(new Uint8Array(16));
    const read = (readId: number) => t.startRead({ readId, peerId: "b", source: new Uint8Array(30), destination: { region, offset: 0, length: 16 } });
    read(1);
    /** The live connection still stands: invalidated and loaded once (the first connect's), and a new read goes in flight. */
    const expectUntouched = () => {
      expect(log.invalidated.filter((n) => n === "b")).toHaveLength(1); // only the first connect's "invalidate first"
      expect(log.loaded).toEqual(["b"]);
      read(2);
      expect(t.poll().reads).toEqual([]); // both in flight, not "peer b is not connected"
    };
    return { t, log, expectUntouched };
  };

  it("another agent's metadata, or bytes that are no agent metadata, under a connected peer's id reject INVALID_ARGUMENT naming what they are, and the peer's reads go on", async () => {
    const { t, log, expectUntouched } = await readingFromB();
    await expect(t.connectPeer("b", 2, metadataOf("c"))).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("metadata given for peer b belongs to NIXL agent c") });
    await expect(t.connectPeer("b", 3, new Uint8Array([1, 2, 3]))).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("metadata given for peer b is not NIXL agent metadata") });
    expectUntouched();
    await t.connectPeer("b", 2, metadataOf("b")); // its own newer metadata does replace it
    expect(log.invalidated.filter((n) => n === "b")).toHaveLength(2);
    await t.close();
  });

  // An epoch that is no whole number compared as neither older nor the same: NaN replaced the live
  // connection, and once stored it let a later, older epoch replace it too [P8].
  it.each([Number.NaN, -1, 1.5, "2", undefined, 2 ** 53])("an epoch of %s rejects INVALID_ARGUMENT naming it, and the live connection stands", async (epoch) => {
    const { t, expectUntouched } = await readingFromB();
    await expect(t.connectPeer("b", epoch as number, metadataOf("b"))).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining(`epoch must be a non-negative safe integer; got ${String(epoch)}`),
    });
    expect(t.counters().peers).toBe(1);
    expectUntouched();
    await t.close();
  });

  // The addon refused such a body only after the live connection had been invalidated.
  it("its own name with a damaged body rejects INVALID_ARGUMENT before the live connection is invalidated, and its reads go on", async () => {
    const { t, expectUntouched } = await readingFromB();
    await expect(t.connectPeer("b", 2, metadataOf("b", "damaged"))).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(t.counters().peers).toBe(1);
    expectUntouched();
    await t.close();
  });
});

describe("poll() over the engine's drain (the stand-in's drain, as the addon fills it)", () => {
  type RawDrain = [unknown[], number[], unknown[], number[]?];
  /** `t` with the engine having queued `raw`: its activity counter moved, and its next drain() returns `raw`. */
  const queued = (t: NixlTransport, raw: RawDrain): void => {
    const agent = (t as unknown as { agent: Record<string, unknown> }).agent;
    let once: RawDrain | undefined = raw;
    agent.drain = () => {
      const r = once;
      once = undefined;
      return r;
    };
    Atomics.add((t as unknown as { activitySeq: Uint32Array }).activitySeq, 0, 1);
  };
  const connected = async () => {
    const { t, log } = fakeTransport("a");
    await t.connectPeer("b", 1, metadataOf("b"));
    const region = t.registerMemory(new Uint8Array(64));
    const read = (readId: number, crc32c = false) =>
      t.startRead({ readId, peerId: "b", source: new Uint8Array(30), destination: { region, offset: readId, length: 16 }, crc32c });
    return { t, log, read };
  };

  it("settled transfers map to results: done (with the engine's CRC-32C when asked), failed when deregistered, cancelled when the agent closed; unknown ids are dropped", async () => {
    const { t, read } = await connected();
    for (const id of [10, 11, 12, 13]) read(id, id === 11);
    // The addon's ids are 1, 2, 3, 4 in posting order. Flags: 2 deregistered, 4 closed, 8 a CRC follows.
    queued(t, [[], [1, 0, 0, 0, 2, 0, 8, 0xabcdef, 3, 0, 2, 0, 4, 0, 4, 0, 99, 0, 0, 0], []]);
    expect(t.poll().reads).toEqual([
      { readId: 10, status: "done", bytesRead: 16 },
      { readId: 11, status: "done", bytesRead: 16, crc32c: 0xabcdef },
      { readId: 12, status: "failed", error: "destination deregistered during the read" },
      { readId: 13, status: "cancelled" },
    ]);
    expect(t.counters().unsettledReads).toBe(0);
    await t.close();
  });

  it("a read failing REMOTE_DISCONNECT reports its peer gone once: unreachable and invalidated, and later reads fail at once", async () => {
    const { t, log, read } = await connected();
    read(20);
    queued(t, [[], [1, -10, 0, 0], []]);
    const activity = t.poll();
    expect(activity.reads).toEqual([{ readId: 20, status: "failed", error: "NIXL READ failed: NIXL_ERR_REMOTE_DISCONNECT", peerGone: true }]);
    expect(activity.unreachable).toEqual(["b"]);
    expect(log.invalidated.filter((n) => n === "b")).toHaveLength(2); // connect's, then the drop
    expect(t.counters().peers).toBe(0);
    read(21);
    // Reported gone once, above: a later read fails at once, until connectPeer loads the peer again.
    expect(t.poll().reads).toEqual([{ readId: 21, status: "failed", error: "peer b is not connected (no NIXL metadata loaded)" }]);
    await t.close();
  });

  it("a send failure of an older connection is counted stale and leaves the new one alone; one of the current connection reports the peer unreachable", async () => {
    const { t } = await connected();
    const generation = () => (t as unknown as { peers: Map<string, { generation: number }> }).peers.get("b")?.generation as number;
    const old = generation();
    await t.connectPeer("b", 2, metadataOf("b"));
    queued(t, [[], [], ["b", -3, old]]);
    expect(t.poll().unreachable).toEqual([]);
    expect(t.counters().staleSendFailures).toBe(1);
    queued(t, [[], [], ["b", -3, generation()]]);
    expect(t.poll().unreachable).toEqual(["b"]);
    expect(t.counters().peers).toBe(1); // unreachable, not gone: only REMOTE_DISCONNECT drops the connection
    await t.close();
  });

  it("messages are handed over with their sender; an orphaned transfer reports nothing until close", async () => {
    const { t, read } = await connected();
    read(30);
    queued(t, [["b", Buffer.from([7, 8])], [], [], [1]]);
    const activity = t.poll();
    expect(activity.messages).toEqual([{ from: "b", bytes: new Uint8Array([7, 8]) }]);
    expect(activity.reads).toEqual([]);
    expect(t.counters().unsettledReads).toBe(1); // orphaned: NIXL settles it only when the agent closes
    await t.close();
  });
});

describe("argument errors are typed, and local errors are not peer failures", () => {
  // transport.ts: connectPeer "rejects with an EctpError if the metadata is unusable".
  it("connectPeer with metadata that is not a Uint8Array, or a peer id that is not a string, rejects with an EctpError (no synchronous TypeError)", async () => {
    const { t } = fakeTransport("a");
    for (const [peer, md] of [
      ["b", undefined],
      ["b", "metadata"],
      [7, metadataOf("b")],
    ] as const) {
      let p: Promise<void> | undefined;
      expect(() => {
        p = t.connectPeer(peer as unknown as string, 1, md as unknown as Uint8Array);
      }, `${String(peer)} / ${String(md)}`).not.toThrow();
      await expect(p).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    }
    await t.close();
  });

  // transport.ts: implementations "MAY throw an EctpError for local programming errors"; TransportActivity.unreachable:
  // "Peers the transport found unreachable (e.g. a send or connect failed)". A message that is not bytes is the caller's bug.
  it("a localId longer than a location's agent name may be (1,024 UTF-8 bytes) is refused at construction: every item it described would be unreadable", () => {
    expect(() => new NixlTransport({ localId: "é".repeat(513), addonPath })).toThrow(expect.objectContaining({ code: "INVALID_CONFIG" }));
    const { t } = fakeTransport("é".repeat(512)); // 1,024 bytes: allowed
    const region = t.registerMemory(new Uint8Array(8));
    expect(decodeLocation(t.describe(region, 0, 8))).toMatchObject({ agent: "é".repeat(512) });
    void t.close();
  });

  it("a NixlTransport constructed without options throws INVALID_CONFIG naming localId, not a TypeError", () => {
    const Ctor = NixlTransport as unknown as new (o?: unknown) => NixlTransport;
    for (const options of [undefined, null])
      expect(() => new Ctor(options), String(options)).toThrow(expect.objectContaining({ code: "INVALID_CONFIG", message: expect.stringContaining("localId") }));
  });

  it("send of a message that is not a Uint8Array does not report a connected peer unreachable", async () => {
    const { t } = fakeTransport("a");
    await t.connectPeer("b", 1, metadataOf("b"));
    let thrown: unknown;
    try {
      t.send("b", "not bytes" as unknown as Uint8Array);
    } catch (e) {
      thrown = e;
    }
    if (thrown !== undefined) expect(thrown).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(t.poll().unreachable).toEqual([]);
    expect(t.counters().peers).toBe(1);
    await t.close();
  });

  it("deregisterMemory and describe of a missing region throw an EctpError (or nothing), never a TypeError", async () => {
    const { t } = fakeTransport("a");
    expect(() => t.deregisterMemory(undefined as unknown as never)).not.toThrow();
    expect(() => t.describe(undefined as unknown as never, 0, 1)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    await t.close();
  });
});

describe("process exit while close() is pending", () => {
  // transport.ts (stopAtExit): "`process.exit()` skips the addon's environment teardown, which would stop their
  // engine threads: an `exit` listener stops them instead, so no engine thread calls NIXL while the process's
  // static state is destroyed". A transport whose close() has not finished still has its engine thread.
  it("the exit hook stops the engine of a transport whose close() has not resolved yet", async () => {
    const { t, log } = fakeTransport(`closing-${process.pid}`, { closeNeverResolves: true });
    void t.close();
    const hooks = process.listeners("exit").filter((f) => f.toString().includes("stopEngine"));
    expect(hooks.length).toBeGreaterThan(0);
    for (const h of hooks) (h as (code: number) => void)(0);
    expect(log.stopped).toBe(1);
    log.closeResolve?.();
  });
});

/** Pending waits the transport holds (each with its timer). */
const waitersOf = (t: NixlTransport): number => (t as unknown as { waiters: Set<unknown> }).waiters.size;
const armedTimers = (): number => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

describe("waitForActivity and its AbortSignal (Transport.waitForActivity)", () => {
  it("an aborted wait resolves at once and the transport keeps nothing for it: no waiter, no timer", async () => {
    const { t } = fakeTransport("w1");
    const before = armedTimers();
    const ac = new AbortController();
    let resolved = false;
    const wait = t.waitForActivity(60_000, ac.signal).then(() => (resolved = true));
    expect(waitersOf(t)).toBe(1);
    ac.abort();
    await wait;
    expect(resolved).toBe(true);
    expect(waitersOf(t)).toBe(0);
    expect(armedTimers()).toBeLessThanOrEqual(before); // (other tests' timers may end meanwhile, none may be added)
    await t.close();
  });

  it("a wait given an already aborted signal resolves at once and leaves remembered activity to the next wait", async () => {
    const { t } = fakeTransport("w2");
    const region = t.registerMemory(new Uint8Array(16));
    t.startRead({ readId: 1, peerId: "nobody", source: new Uint8Array(30), destination: { region, offset: 0, length: 16 } }); // fails at once: activity
    const ac = new AbortController();
    ac.abort();
    await t.waitForActivity(60_000, ac.signal);
    expect(waitersOf(t)).toBe(0);
    let resolved = false;
    void t.waitForActivity(60_000).then(() => (resolved = true));
    await Promise.resolve();
    expect(resolved, "the activity was left to the wait that is awaited").toBe(true);
    expect(t.poll().reads).toHaveLength(1);
    await t.close();
  });

  it("a real-time Driver's abandoned waits do not pile up while run() is woken often, and none stays armed after stop()", async () => {
    const { t } = fakeTransport("d1");
    const before = armedTimers();
    const producer = { handleEnvelope() {}, handleMessage() {}, handleReadResult() {}, handlePeerUnreachable() {}, poll: () => [], nextDeadline: () => undefined };
    const driver = new Driver({ transport: t, producer: producer as unknown as ProducerCore, maxWaitMs: 60_000 });
    const loop = driver.run();
    let most = 0;
    for (let i = 0; i < 200; i++) {
      driver.wake();
      await new Promise((r) => setImmediate(r));
      most = Math.max(most, waitersOf(t));
    }
    driver.stop();
    await loop;
    expect(most).toBeLessThanOrEqual(1);
    expect(waitersOf(t)).toBe(0);
    expect(armedTimers()).toBeLessThanOrEqual(before); // (other tests' timers may end meanwhile, none may be added)
    await t.close();
  });
});

/**
 * Test doubles of the driver's tests: an in-memory transport pair, a core that records what it is
 * given, a manual clock, and outputs a core would produce.
 * @module
 */
import { SPEC_VERSION, type ectp, encodeEnvelope } from "@ectp/protocol";
import type { ConsumerCore } from "../consumer/consumer.js";
import type { DestinationPool } from "../consumer/types.js";
import type { CoreOutput } from "../outputs.js";
import type { ProducerCore } from "../producer/producer.js";
import { type MemoryRegion, type ReadDestination, type ReadOperation, type ReadResult, type Transport, type TransportActivity, settlesRead } from "../transport.js";
import { Driver } from "./driver.js";

// ---------------------------------------------------------------------------------------
// A tiny in-memory transport pair (the real mock transport lives in @ectp/transport-mock).
// ---------------------------------------------------------------------------------------

export class FakeNet {
  readonly endpoints = new Map<string, FakeTransport>();
  endpoint(id: string): FakeTransport {
    const t = new FakeTransport(id, this);
    this.endpoints.set(id, t);
    return t;
  }
}

export class FakeTransport implements Transport {
  readonly sentTo: { peerId: string; bytes: Uint8Array }[] = [];
  readonly connects: { peerId: string; epoch: number }[] = [];
  readonly disconnects: string[] = [];
  readonly started: ReadOperation[] = [];
  readonly cancelled: number[] = [];
  /** When set, connectPeer returns this promise instead of resolving at once. */
  connectResult: Promise<void> | undefined;
  private inbox: { from: string; bytes: Uint8Array }[] = [];
  private reads: ReadResult[] = [];
  private unreachableQ: string[] = [];
  private readonly regions = new Map<number, MemoryRegion>();
  private nextRegion = 1;
  private waker: (() => void) | undefined;

  constructor(
    readonly localId: string,
    private readonly net: FakeNet,
  ) {}
  localMetadata(): Uint8Array {
    return new TextEncoder().encode(`meta:${this.localId}`);
  }
  connectPeer(peerId: string, epoch: number): Promise<void> {
    this.connects.push({ peerId, epoch });
    return this.connectResult ?? Promise.resolve();
  }
  disconnectPeer(peerId: string): void {
    this.disconnects.push(peerId);
  }
  send(peerId: string, message: Uint8Array): void {
    this.sentTo.push({ peerId, bytes: message });
    const peer = this.net.endpoints.get(peerId);
    if (peer) peer.deliver(this.localId, message);
    else this.unreachableQ.push(peerId);
  }
  deliver(from: string, bytes: Uint8Array): void {
    this.inbox.push({ from, bytes });
    this.waker?.();
  }
  inject(from: string, bytes: Uint8Array): void {
    this.deliver(from, bytes);
  }
  unreachableFrom(peerId: string): void {
    this.unreachableQ.push(peerId);
  }
  registerMemory(bytes: Uint8Array): MemoryRegion {
    const r = { id: this.nextRegion++, bytes };
    this.regions.set(r.id, r);
    return r;
  }
  deregisterMemory(region: MemoryRegion): void {
    this.regions.delete(region.id);
  }
  describe(region: MemoryRegion, offset: number, length: number): Uint8Array {
    const b = new Uint8Array(12);
    const v = new DataView(b.buffer);
    v.setUint32(0, region.id);
    v.setUint32(4, offset);
    v.setUint32(8, length);
    return b;
  }
  region(id: number): MemoryRegion | undefined {
    return this.regions.get(id);
  }
  startRead(read: ReadOperation): void {
    this.started.push(read);
    const src = this.net.endpoints.get(read.peerId);
    const v = new DataView(read.source.buffer, read.source.byteOffset, read.source.byteLength);
    const region = read.source.length === 12 ? src?.region(v.getUint32(0)) : undefined;
    if (!region) {
      this.reads.push({ readId: read.readId, status: "failed", error: "unknown source" });
      return;
    }
    const off = v.getUint32(4);
    const d = read.destination;
    d.region.bytes.set(region.bytes.subarray(off, off + d.length), d.offset);
    this.reads.push({ readId: read.readId, status: "done", bytesRead: d.length });
  }
  cancelRead(readId: number): void {
    this.cancelled.push(readId);
  }
  poll(): TransportActivity {
    const a = { messages: this.inbox, reads: this.reads, unreachable: this.unreachableQ };
    this.inbox = [];
    this.reads = [];
    this.unreachableQ = [];
    return a;
  }
  waitForActivity(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, timeoutMs);
      const self = this;
      function done(): void {
        clearTimeout(t);
        if (self.waker === done) self.waker = undefined;
        resolve();
      }
      this.waker = done;
      if (this.inbox.length > 0) done();
    });
  }
  async close(): Promise<void> {}
}

/**
 * A stand-in core that records what the driver routes to it and returns scripted outputs. As a
 * consumer, it counts the reads it started and has not heard settle, as a ConsumerCore does.
 */
export class RecordingCore {
  readonly calls: string[] = [];
  /** The read ids of its start-read outputs whose settling result it has not been handed yet. */
  readonly readsInFlight = new Set<number>();
  outputs: CoreOutput[] = [];
  deadline: number | undefined;
  /** Calls of `poll` so far (a driver's steps). */
  polls = 0;
  handleEnvelope(from: string, env: ectp.v1.IEnvelope): void {
    const body = Object.keys(env).find((k) => !["version", "senderId", "senderEpoch", "body"].includes(k));
    this.calls.push(`env:${from}:${body}`);
  }
  handleMessage(from: string): void {
    this.calls.push(`bytes:${from}`);
  }
  handleReadResult(r: ReadResult): void {
    this.calls.push(`read:${r.readId}:${r.status}${r.peerGone ? ":gone" : ""}`);
    if (settlesRead(r.status)) this.readsInFlight.delete(r.readId);
  }
  handlePeerUnreachable(peerId: string): void {
    this.calls.push(`unreachable:${peerId}`);
  }
  poll(): CoreOutput[] {
    this.polls++;
    const o = this.outputs;
    this.outputs = [];
    for (const output of o) if (output.type === "start-read") this.readsInFlight.add(output.readId);
    return o;
  }
  nextDeadline(): number | undefined {
    return this.deadline;
  }
  /** What a driver reads of a consumer's stats (its reads in flight, while closing). */
  stats(): { readsInFlight: number } {
    return { readsInFlight: this.readsInFlight.size };
  }
}

export function manualClock(start = 0) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

export function wire(from: string, body: ectp.v1.IEnvelope): Uint8Array {
  return encodeEnvelope({ version: SPEC_VERSION, senderId: from, senderEpoch: 1, ...body });
}

export const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

export function routingRig(which: { consumer?: boolean; producer?: boolean } = { consumer: true, producer: true }) {
  const net = new FakeNet();
  const t = net.endpoint("me");
  const consumer = which.consumer ? new RecordingCore() : undefined;
  const producer = which.producer ? new RecordingCore() : undefined;
  const driver = new Driver({
    transport: t,
    consumer: consumer as unknown as ConsumerCore,
    producer: producer as unknown as ProducerCore,
    clock: manualClock(),
  });
  return { net, t, consumer, producer, driver };
}

export const dest = (n: number): ReadDestination => ({ region: { id: 1, bytes: new Uint8Array(n) }, offset: 0, length: n });

/** A one-byte start-read output of read `readId` from `peerId`. */
export const startRead = (readId: number, peerId = "p"): CoreOutput => ({
  type: "start-read",
  readId,
  peerId,
  source: new Uint8Array([1]),
  destination: dest(1),
  crc32c: false,
});

/** A heartbeat send output to `peerId`. */
export const heartbeatTo = (peerId: string): CoreOutput => ({
  type: "send",
  peerId,
  envelope: { version: SPEC_VERSION, senderId: "me", senderEpoch: 1, heartbeat: { sequence: 1 } },
});

/** A connect-peer output for `peerId` at `epoch`. */
export const connectTo = (peerId = "p", epoch = 1): CoreOutput => ({ type: "connect-peer", peerId, epoch, metadata: new Uint8Array([epoch]) });

/** A promise with its resolve and reject at hand (its rejection is handled, so an unawaited one is no error). */
export function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((a, b) => {
    resolve = a;
    reject = b;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * A transport "me" on a new network that also holds `peer`, whose connects stay pending until
 * `d.resolve()` (or `d.reject(cause)`): what a core sends or reads meanwhile queues behind the connect.
 */
export function pendingConnect(peer: string): { t: FakeTransport; d: ReturnType<typeof deferred> } {
  const net = new FakeNet();
  const t = net.endpoint("me");
  net.endpoint(peer);
  const d = deferred();
  t.connectResult = d.promise;
  return { t, d };
}

/** Wait (real time) until `done()` holds, at most `limitMs`; the caller then asserts what it waited for. */
export async function waitUntil(done: () => boolean, limitMs = 5_000): Promise<void> {
  const end = performance.now() + limitMs;
  while (!done() && performance.now() < end) await new Promise((r) => setTimeout(r, 2));
}


/** A destination pool of fresh arrays that counts the destinations it has handed out and not had back. */
export class CountingPool implements DestinationPool {
  live = 0;
  allocate(_k: string, size: number): ReadDestination {
    this.live++;
    return { region: { id: 100 + this.live, bytes: new Uint8Array(size) }, offset: 0, length: size };
  }
  release(): void {
    this.live--;
  }
  view(d: ReadDestination): Uint8Array {
    return d.region.bytes.subarray(d.offset, d.offset + d.length);
  }
}

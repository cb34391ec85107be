/**
 * The system level: a real ConsumerCore and ProducerCore, each behind its own `Driver`,
 * talking over `@ectp/transport-mock` with real bytes, under crashes, restarts and lossy
 * links. Limitation: the mock has no cross-process transport, so both sides run in this
 * process (on virtual time); a process-level system test needs a socket transport.
 * @module
 */
import { ConsumerCore, Driver, MemoryItemStore, ProducerCore, type MemoryRegion, type ReadDestination } from "@ectp/core";
import { EctpError, crc32c, crc32cBytes, describeValue, ectp, itemKeyId } from "@ectp/protocol";
import { MockNetwork, type FaultPlan, type MockTransport } from "@ectp/transport-mock";
import type { CaseResult } from "../runner/suite.js";
import { thrownStack } from "../thrown.js";

const FP: ectp.v1.IFingerprint = { model: "conformance/model@1", dtype: ectp.v1.Dtype.DTYPE_BFLOAT16, rowBytes: 2048, layoutVersion: 1 };

class SystemFailure extends Error {}

/** The consumer's quarantine cap [C8] in the system cases. */
const QUARANTINE_CAP_MS = 8_000;

/**
 * First-fit destination pool over one registered region. [I5] Every release is checked with
 * `mayStillWrite` (the network's view of unsettled reads into that range); what it reports is
 * kept in `early` for the case to fail on (a pool hook must not throw into the core).
 */
class RegionPool {
  private free: { offset: number; length: number }[];
  live = 0;
  /** [I5] Destinations released while a read could still write into them, as messages. */
  readonly early: string[] = [];
  constructor(
    readonly region: MemoryRegion,
    private readonly mayStillWrite: (d: ReadDestination) => string | undefined,
  ) {
    this.free = [{ offset: 0, length: region.bytes.length }];
  }
  allocate(_k: string, size: number): ReadDestination | undefined {
    const i = this.free.findIndex((f) => f.length >= size);
    if (i < 0) return undefined;
    const f = this.free[i] as { offset: number; length: number };
    const d = { region: this.region, offset: f.offset, length: size };
    if (f.length === size) this.free.splice(i, 1);
    else this.free[i] = { offset: f.offset + size, length: f.length - size };
    this.live++;
    return d;
  }
  release(d: ReadDestination): void {
    const early = this.mayStillWrite(d);
    if (early !== undefined) this.early.push(early);
    this.live--;
    this.free.push({ offset: d.offset, length: d.length });
    this.free.sort((a, b) => a.offset - b.offset);
  }
  view(d: ReadDestination): Uint8Array {
    return d.region.bytes.subarray(d.offset, d.offset + d.length);
  }
}

interface ProducerSide {
  transport: MockTransport;
  core: ProducerCore;
  store: MemoryItemStore;
  driver: Driver;
}

class World {
  readonly net: MockNetwork;
  readonly cT: MockTransport;
  readonly consumer: ConsumerCore;
  readonly pool: RegionPool;
  readonly cDriver: Driver;
  producer: ProducerSide;
  private epoch = 5;
  /** Requests an admit answered failed, and those drainFailed reported: equal at the end, each reported once [C6]. */
  readonly failedOutcomes = new Set<string>();
  private readonly reportedFailed = new Set<string>();

  constructor(seed: number, faults?: FaultPlan) {
    this.net = new MockNetwork({ seed, ...(faults ? { faults } : {}) });
    this.cT = this.net.endpoint("C1");
    // [I5][C8] A destination may be freed under an unsettled read only once the quarantine cap has
    // passed since the read was cancelled (a transport writes nothing after that); a release
    // sooner than the cap after the read even started is certainly early.
    this.pool = new RegionPool(this.cT.registerMemory(new Uint8Array(4 * 1024 * 1024)), (d) => {
      const now = this.net.now();
      const early = this.net
        .unsettledWrites("C1")
        .find((w) => w.regionId === d.region.id && w.offset < d.offset + d.length && d.offset < w.offset + w.length && now < w.startedAt + QUARANTINE_CAP_MS);
      return early === undefined
        ? undefined
        : `[I5] the destination at offset ${d.offset} (${d.length} bytes) was released at t=${now}, ${now - early.startedAt} ms into a read that could still write into it (quarantine cap ${QUARANTINE_CAP_MS} ms)`;
    });
    this.consumer = new ConsumerCore({
      id: "C1",
      epoch: 1,
      fingerprint: FP,
      destinations: this.pool,
      transportMetadata: this.cT.localMetadata(),
      config: { waitBudgetMs: 20_000, grantWaitMs: 3_000, transferTimeoutMs: 4_000, leaseMs: 10_000, leaseSafetyMarginMs: 2_000, quarantineCapMs: QUARANTINE_CAP_MS },
    });
    this.cDriver = new Driver({ transport: this.cT, consumer: this.consumer, clock: this.net });
    this.producer = this.startProducer(this.net.endpoint("P1"));
  }

  private startProducer(transport: MockTransport): ProducerSide {
    const regions = new Map<string, MemoryRegion>();
    const store = new MemoryItemStore({
      capacityBytes: 4 * 1024 * 1024,
      locate: (keyId, bytes) => {
        const r = transport.registerMemory(bytes);
        regions.set(keyId, r);
        return transport.describe(r, 0, bytes.length);
      },
    });
    const core = new ProducerCore({ id: "P1", epoch: this.epoch, fingerprint: FP, store, transportMetadata: transport.localMetadata(), config: { leaseMs: 10_000 } });
    return { transport, core, store, driver: new Driver({ transport, producer: core, clock: this.net }) };
  }

  restartProducer(): void {
    this.epoch++;
    this.producer = this.startProducer(this.net.restart("P1"));
  }

  /** Store an item (ready) and return its announcement. */
  put(name: string, bytes: Uint8Array): ectp.v1.IAnnouncement {
    const descriptor: ectp.v1.IItemDescriptor = {
      key: { contentHash: new TextEncoder().encode(name), fingerprint: FP },
      sizeBytes: bytes.length,
      checksum: { algorithm: ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C, value: crc32cBytes(bytes) },
      producerId: "P1",
      epoch: this.epoch,
    };
    const r = this.producer.store.put(descriptor, bytes);
    if (!r.ok) throw new SystemFailure(`put ${name}: ${r.error.message}`);
    const held = this.producer.store.bytes(r.value.keyId);
    held?.set(bytes);
    this.producer.store.markReady(r.value.keyId);
    const id = itemKeyId(descriptor.key);
    const a = id.ok ? this.producer.core.announce(id.value) : undefined;
    if (!a) throw new SystemFailure(`announce ${name} gave nothing`);
    return a;
  }

  /** Advance virtual time to `t`, stepping both drivers at every event and core deadline. */
  async runUntil(t: number, each?: () => void): Promise<void> {
    for (let guard = 0; guard < 1_000_000; guard++) {
      const now = this.net.now();
      if (now >= t) break;
      const cands = [this.net.nextEventTime(), this.consumer.nextDeadline(), this.producer.core.nextDeadline(), now + 50, t].filter(
        (x): x is number => x !== undefined,
      );
      this.net.advanceTo(Math.min(t, Math.max(now + 0.001, Math.min(...cands))));
      this.cDriver.step();
      this.producer.driver.step();
      this.cDriver.step();
      each?.();
      // connectPeer resolves asynchronously; let its promise settle before the next step.
      await new Promise<void>((r) => setImmediate(r));
    }
  }

  /** The consumer's drainFailed, checked across every drain of the run: no request reported twice [C6]. */
  drainFailed(): string[] {
    const ids = this.consumer.drainFailed().map((f) => f.requestId);
    for (const id of ids) {
      if (this.reportedFailed.has(id)) throw new SystemFailure(`[C6] ${id} reported failed twice`);
      this.reportedFailed.add(id);
    }
    return ids;
  }

  /** [C6] every request an admit answered failed was reported by a drain. */
  checkFailuresReported(): void {
    const missing = [...this.failedOutcomes].filter((id) => !this.reportedFailed.has(id));
    if (missing.length > 0) throw new SystemFailure(`[C6] ${missing.join(", ")} failed but never reported by drainFailed`);
  }

  /** [I3] pins equal live grants, and [I5] no destination was released under a read. */
  checkPins(): void {
    const s = this.producer.core.stats();
    if (s.pins !== s.grants) throw new SystemFailure(`[I3] producer pins ${s.pins} != grants ${s.grants} at t=${this.net.now()}`);
    if (this.pool.early.length > 0) throw new SystemFailure(this.pool.early[0] as string);
  }
}

function bytesOf(seed: number, n: number): Uint8Array {
  const b = new Uint8Array(n);
  let x = seed || 1;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

/** Admit until every item has an outcome; returns the final AdmitResult, checking [I2] and [I6]. */
async function awaitOutcome(w: World, requestId: string, items: { itemId: string; announcement: ectp.v1.IAnnouncement; model: boolean; bytes: Uint8Array }[], budgetMs: number) {
  const start = w.net.now();
  let result: ReturnType<ConsumerCore["admit"]> | undefined;
  const admit = () => w.consumer.admit({ requestId, items: items.map((i) => ({ itemId: i.itemId, announcement: i.announcement, hasModelInput: i.model })) }, w.net.now());
  for (let k = 0; k < 100_000; k++) {
    result = admit();
    if (result.status === "failed" || result.items.every((d) => d.action !== "defer")) break;
    if (w.net.now() > start + budgetMs + 100) throw new SystemFailure(`[I2] ${requestId} still deferred ${w.net.now() - start} ms after admission (budget ${budgetMs})`);
    await w.runUntil(w.net.now() + 100, () => w.checkPins());
  }
  if (result?.status === "failed") w.failedOutcomes.add(requestId);
  if (result?.status === "admitted")
    for (const d of result.items) {
      const it = items.find((i) => i.itemId === d.itemId);
      // Every item here is announced and none is local: ready means loaded, into a destination to verify.
      if (d.action === "ready" && !d.destination) throw new SystemFailure(`[I6] ${requestId}/${d.itemId} is ready without the destination its bytes were loaded into`);
      if (d.action === "ready" && d.destination && it) {
        const got = w.pool.view(d.destination);
        if (crc32c(got) !== crc32c(it.bytes)) throw new SystemFailure(`[I6] ${requestId}/${d.itemId} loaded bytes differ from the producer's`);
      }
      if (d.action === "local-encode" && it && !it.model) throw new SystemFailure(`[C1] ${requestId}/${d.itemId} local-encode without model input`);
    }
  return result;
}

async function quiesce(w: World, ids: string[]): Promise<void> {
  for (const id of ids) w.consumer.finishRequest(id, w.net.now());
  await w.runUntil(w.net.now() + 60_000);
  w.drainFailed();
  w.checkFailuresReported();
  const c = w.consumer.stats();
  const leaks = Object.entries(c).filter(([k, v]) => k !== "ignoredMessages" && v !== 0);
  if (leaks.length > 0) throw new SystemFailure(`[I4] consumer not back to baseline: ${leaks.map(([k, v]) => `${k}=${v}`).join(", ")}`);
  const p = w.producer.core.stats();
  if (p.pins !== 0 || p.grants !== 0) throw new SystemFailure(`[I3] producer still pins ${p.pins} with ${p.grants} grants`);
  w.checkPins();
  // [I4] Every destination back in the pool (the engine's view, not only the core's own count).
  if (w.pool.live !== 0) throw new SystemFailure(`[I4] ${w.pool.live} destination(s) still allocated after quiescence (a negative count: released twice)`);
}

/**
 * Run the system cases (`system/<name>`, level SYSTEM). Never throws for core behaviour.
 * @param seed - Seeds the simulated network and the items' bytes: a safe integer. Default 1.
 * @throws EctpError(INVALID_ARGUMENT) (a rejection, before any case runs) for a seed that is not a
 *   safe integer, which would fail every case alike.
 */
export async function runSystemLevel(seed = 1): Promise<CaseResult[]> {
  if (!Number.isSafeInteger(seed)) throw new EctpError("INVALID_ARGUMENT", `runSystemLevel: seed must be a safe integer, such as 1; got ${describeValue(seed)}`);
  const cases: [string, string[], () => Promise<void>][] = [
    [
      "producer-killed-mid-transfer-then-restarted",
      ["P8", "C5", "C8", "I2", "I4", "I5"],
      async () => {
        const w = new World(seed, { default: { stallRead: { probability: 1, durationMs: 30_000 } } });
        const bytes = bytesOf(seed, 200_000);
        const a = w.put("A", bytes);
        w.consumer.admit({ requestId: "r1", items: [{ itemId: "i1", announcement: a, hasModelInput: false }] }, w.net.now());
        await w.runUntil(w.net.now() + 200);
        if (w.consumer.stats().readsInFlight !== 1) throw new SystemFailure("setup: the read did not start");
        w.net.crash("P1"); // kill -9 of the producer in the middle of the transfer
        const r1 = await awaitOutcome(w, "r1", [{ itemId: "i1", announcement: a, model: false, bytes }], 20_000);
        // [P8][C5] failed because the producer died (the transport reports its reads gone), not by the
        // stall's transfer timeout, which comes later: the kill is what this case is about.
        const reason = r1?.status === "failed" ? r1.failures[0]?.reason : undefined;
        if (reason !== "PEER_UNREACHABLE") throw new SystemFailure(`r1 should fail PEER_UNREACHABLE after the producer died; got ${JSON.stringify(r1)}`);
        w.net.setFaults({});
        w.restartProducer(); // new epoch; nothing restarts on the consumer side [P8]
        const a2 = w.put("A", bytes);
        const r2 = await awaitOutcome(w, "r2", [{ itemId: "i1", announcement: a2, model: false, bytes }], 20_000);
        if (r2?.status !== "admitted" || r2.items[0]?.action !== "ready") throw new SystemFailure(`r2 should load from the restarted producer; got ${JSON.stringify(r2)}`);
        await quiesce(w, ["r1", "r2"]);
      },
    ],
    [
      "lossy-links-every-request-resolves",
      ["C4", "C6", "I1", "I2", "I3", "I4", "I5", "I6"],
      async () => {
        const w = new World(seed, { default: { drop: 0.2, duplicate: 0.1, reorder: { probability: 0.1, maxHoldMs: 30 }, failRead: 0.05, corruptRead: 0.05 } });
        const items = Array.from({ length: 5 }, (_, i) => {
          const bytes = bytesOf(seed * 31 + i, 10_000 + i * 7_919);
          return { bytes, announcement: w.put(`item-${i}`, bytes) };
        });
        const ids: string[] = [];
        for (let r = 0; r < 12; r++) {
          const id = `r${r}`;
          ids.push(id);
          const picked = [items[r % 5], items[(r * 3 + 1) % 5]].filter((x, i, arr) => arr.indexOf(x) === i) as typeof items;
          await awaitOutcome(w, id, picked.map((p, k) => ({ itemId: `i${k}`, announcement: p.announcement, model: r % 2 === 0, bytes: p.bytes })), 20_000);
          w.consumer.finishRequest(id, w.net.now());
        }
        w.drainFailed();
        await quiesce(w, ids);
      },
    ],
  ];
  const results: CaseResult[] = [];
  for (const [name, requirements, body] of cases) {
    const t0 = performance.now();
    let message: string | undefined;
    try {
      await body();
    } catch (err) {
      message = err instanceof SystemFailure ? err.message : `threw: ${thrownStack(err)}`;
    }
    results.push({
      name: `system/${name}`,
      level: "SYSTEM",
      requirements,
      catches: [11],
      status: message === undefined ? "passed" : "failed",
      ...(message ? { message: `seed ${seed}: ${message}` } : {}),
      durationMs: Math.round(performance.now() - t0),
    });
  }
  return results;
}

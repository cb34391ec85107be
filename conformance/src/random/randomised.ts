/**
 * The randomised consumer level (the subscriber one is subscriber-randomised.ts): a consumer
 * testee and a producer testee wired together by the runner (which plays the network, the
 * one-sided reads, the engine and the clock) under a seeded fault schedule (drops, duplicates,
 * reorders, read failures and corruption, delays, clock jumps, a producer restart), checked
 * against [I1]-[I6] and [C6]. Every failure names its seed and a one-line replay command
 * (FoundationDB/VOPR style).
 * @module
 */
import { SPEC_MAJOR, crc32c } from "@ectp/protocol";
import { JSON_OPTIONS, ectp, envelopeJson } from "../proto.js";
import { CLOCK_ORIGIN_MS } from "../runner/script.js";
import type { CaseResult, StartFailures } from "../runner/suite.js";
import type { TesteeConnection, TesteeFactory } from "../testee/connection.js";
import { crcBytes } from "../runner/fixtures.js";
import { outputProblem } from "../runner/output-shape.js";
import { sendProblem } from "../runner/raw-send.js";
import { Rng } from "./rng.js";
import { EventQueue, Violation, checkSeedRunOptions, command, runSeeds } from "./seeds.js";

/** A CRC-32C as 8 hex digits. */
function hex(crc: number): string {
  return (crc >>> 0).toString(16).padStart(8, "0");
}

const C = ectp.conformance.v1;

/** The suite of the seeds' case names, naming what each seed checks: [I1]-[I6] and [C6]. */
export const RANDOMISED_SUITE = "randomised/i1-i2-i3-i4-i5-i6-c6";

/** Options of {@link runRandomised}. */
export interface RandomisedOptions {
  /** Makes the consumer testee. */
  consumer: TesteeFactory;
  /** Makes the producer testee. */
  producer: TesteeFactory;
  /** Seeds to run (one schedule each). */
  seeds: readonly number[];
  /** Features claimed; the level needs consumer, producer and read-memory (else every seed is skipped). Default: those three. */
  features?: Iterable<string> | undefined;
  /** Simulated engine time per seed, ms. Default 90000. */
  durationMs?: number | undefined;
  /** The command that replays one seed, printed with a failure. */
  replayCommand?: ((seed: number) => string) | undefined;
  /** Known-failing list (names `randomised/i1-i2-i3-i4-i5-i6-c6/seed-<n>`). */
  knownFailing?: ReadonlyMap<string, string> | undefined;
  /** Wall-clock limit of one seed, ms: past it, the seed fails at its next command. Default 300000 (five minutes). */
  seedTimeoutMs?: number | undefined;
  /** Failed starts of the testee, counted across the run when one {@link StartFailures} is shared with the scripted cases and the other level (after 3 in a row, no seed starts one). Default: these seeds' own. */
  startFailures?: StartFailures | undefined;
}

/** The keys of {@link RandomisedOptions}. */
const RANDOMISED_OPTIONS: readonly string[] = Object.keys({ consumer: true, producer: true, seeds: true, features: true, durationMs: true, replayCommand: true, knownFailing: true, seedTimeoutMs: true, startFailures: true } satisfies Record<keyof RandomisedOptions, true>);

/** What a passed seed exercised, e.g. "exercised: 3 dropped, 1 stalled, 0 late writes, ...". */
function exercisedLine(e: Schedule["exercised"]): string {
  return `exercised: ${e.loaded} items loaded, ${e.readsIntact} intact reads, ${e.dropped} dropped, ${e.duplicated} duplicated, ${e.readsFailed} reads failed, ${e.corrupted} corrupted, ${e.stalled} stalled, ${e.lateWrites} late writes, ${e.restarts} restarts, ${e.clockJumps} clock jumps`;
}

interface Item {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly crc: number;
  descriptor?: Record<string, unknown>;
  readyAt: number;
}

/** A read the consumer started, until the runner settles it. */
interface ReadInFlight {
  readonly region: string;
  readonly offset: number;
  readonly length: number;
  /** When the consumer cancelled it, if it did. */
  cancelledAt?: number;
  /** The forced stall's landing: run once the consumer cancels the read (a late write), never before. */
  landAfterCancel?: (() => Promise<void>) | undefined;
}

interface Request {
  readonly id: string;
  readonly items: { itemId: string; item: Item; model: boolean }[];
  readonly firstAdmit: number;
  admittedAt?: number;
  outcome?: "done" | "failed";
  finishAt: number;
}

/**
 * Run the seeds. One CaseResult per seed (`randomised/i1-i2-i3-i4-i5-i6-c6/seed-<n>`). Never throws
 * for testee behaviour. A wrong call rejects at once, before any seed runs, with
 * EctpError(INVALID_ARGUMENT) naming what is wrong: options that are not an object, an option it does
 * not take, a `consumer` or `producer` that is not a testee factory, `seeds` that is not an array of
 * safe integers, or a shared option's value its checks refuse (`features`, `knownFailing`, a time,
 * `replayCommand`; see the options).
 */
export async function runRandomised(options: RandomisedOptions): Promise<CaseResult[]> {
  checkSeedRunOptions("runRandomised", options, RANDOMISED_OPTIONS, ["consumer", "producer"]);
  const features = new Set(options.features ?? ["consumer", "producer", "read-memory"]);
  return runSeeds({
    suite: RANDOMISED_SUITE,
    requirements: ["I1", "I2", "I3", "I4", "I5", "I6", "C6"],
    catches: [11],
    seeds: options.seeds,
    skipped: features.has("consumer") && features.has("producer") && features.has("read-memory") ? undefined : "needs features consumer, producer and read-memory",
    testees: [options.consumer, options.producer],
    async schedule(seed, [consumer, producer]) {
      const schedule = new Schedule(seed, consumer as TesteeConnection, producer as TesteeConnection, options.durationMs ?? 90_000, features);
      await schedule.run();
      return exercisedLine(schedule.exercised);
    },
    replayCommand: options.replayCommand,
    knownFailing: options.knownFailing,
    seedTimeoutMs: options.seedTimeoutMs,
    startFailures: options.startFailures,
  });
}

const FINGERPRINT = { model: "conformance/model@1", dtype: "DTYPE_BFLOAT16", rowBytes: 2048, layoutVersion: 1 };
const STEP_MS = 200;
const BUDGET_MS = 20_000;
/**
 * [I6] A schedule in which this many reads landed the producer's bytes intact, uncancelled, and
 * the consumer loaded nothing, fails: each such read served a fetch some request still waited for.
 */
const MIN_INTACT_READS = 3;
/**
 * The consumer's quarantine cap [C8]. The simulated transport keeps SPEC's promise for it: a read
 * cancelled this long ago can no longer write into its destination (its late result carries no
 * bytes), so the consumer may reuse that destination from then on [I5].
 */
const QUARANTINE_CAP_MS = 8000;

class Schedule {
  private now = 0;
  private readonly rng: Rng;
  private readonly events = new EventQueue();
  private readonly deadline = new Map<TesteeConnection, number | undefined>();
  private producerEpoch = 5;
  private readonly items: Item[] = [];
  private readonly requests: Request[] = [];
  /** Reads in flight, by id: their destination, and when the consumer cancelled them (if it did). */
  private readonly reads = new Map<number, ReadInFlight>();
  private readonly failedSeen = new Set<string>();
  /** Requests whose admit said every item was ready: their outcome, so a failure report later is a second one [I2]. */
  private readonly readySeen = new Set<string>();
  /** Requests an admit answered FAILED: each must be reported by a drain exactly once [C6]. */
  private readonly failedAnswered = new Set<string>();
  private readonly faults: { drop: number; dup: number; maxDelay: number; readFail: number; corrupt: number; stall: number };
  /**
   * Which of the first three reads started gets which forced fault. The rates drawn per seed leave
   * many seeds without a stall, a late write or a corrupted read (seeds 1-20 once had 9 stalls and
   * 3 late writes among them), so every seed also forces each of these once, and restarts the
   * producer once: `--seeds 3` reaches every fault path.
   */
  private readonly forced: { stall: number; fail: number; corrupt: number };
  private readsStarted = 0;
  /** (request, item) pairs seen READY from a remote load. */
  private readonly loadedPairs = new Set<string>();
  /** ReadRequests the consumer sent (dropped ones included). */
  private readRequestsSent = 0;
  /**
   * The item at each location (base64) the running producer instance handed out: in its PutItem
   * answers, or, where those give none, in its grants. Emptied when the producer restarts.
   */
  private readonly heldAt = new Map<string, Item>();
  readonly exercised = { loaded: 0, readsIntact: 0, dropped: 0, duplicated: 0, readsFailed: 0, corrupted: 0, stalled: 0, lateWrites: 0, restarts: 0, clockJumps: 0 };

  constructor(
    seed: number,
    private readonly consumer: TesteeConnection,
    private readonly producer: TesteeConnection,
    private readonly duration: number,
    /** The features both testees claim: `raw-outputs` and `raw-messages` decide what the link carries (see `route`). */
    private readonly features: ReadonlySet<string>,
  ) {
    this.rng = new Rng(seed);
    const r = this.rng;
    this.faults = {
      drop: r.next() * 0.15,
      dup: r.next() * 0.1,
      maxDelay: 1 + r.int(400),
      readFail: r.next() * 0.1,
      corrupt: r.next() * 0.05,
      stall: r.next() * 0.05,
    };
    const order = [0, 1, 2];
    for (let i = 2; i > 0; i--) {
      const j = r.int(i + 1);
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    this.forced = { stall: order[0] as number, fail: order[1] as number, corrupt: order[2] as number };
  }

  private cmd(conn: TesteeConnection, req: ectp.conformance.v1.ITesteeRequest, allowError = false): Promise<ectp.conformance.v1.TesteeResponse> {
    return command(conn, conn === this.consumer ? "consumer" : "producer", this.now, req, allowError);
  }

  private at(t: number, run: () => Promise<void>): void {
    this.events.at(t, run);
  }

  private async configure(conn: TesteeConnection, role: number, id: string, epoch: number): Promise<void> {
    await this.cmd(conn, {
      configure: C.Configure.fromObject({
        role,
        id,
        epoch,
        fingerprint: FINGERPRINT,
        seed: epoch,
        timers: { waitBudgetMs: BUDGET_MS, grantWaitMs: 3000, transferTimeoutMs: 4000, leaseMs: 10_000, leaseSafetyMarginMs: 2000, quarantineCapMs: QUARANTINE_CAP_MS },
        ...(role === C.Role.ROLE_PRODUCER ? { storeCapacityBytes: 2 * 1024 * 1024 } : { destinationCapacityBytes: 4 * 1024 * 1024 }),
      }),
    });
    this.deadline.set(conn, this.now);
  }

  async run(): Promise<void> {
    await this.configure(this.producer, C.Role.ROLE_PRODUCER, "P1", this.producerEpoch);
    await this.configure(this.consumer, C.Role.ROLE_CONSUMER, "C1", 1);
    const r = this.rng;
    const nItems = 4 + r.int(8);
    for (let i = 0; i < nItems; i++) {
      const size = 1 + r.int(48 * 1024);
      const bytes = new Uint8Array(size);
      for (let k = 0; k < size; k++) bytes[k] = r.int(256);
      this.items.push({ name: `item-${i}`, bytes, crc: crc32c(bytes), readyAt: r.int(this.duration / 3) });
    }
    for (const it of this.items) await this.put(it);
    const nReq = 5 + r.int(20);
    for (let i = 0; i < nReq; i++) {
      const t = r.int(this.duration * 0.6);
      const count = 1 + r.int(3);
      const picked = new Set<Item>();
      while (picked.size < count) picked.add(this.items[r.int(this.items.length)] as Item);
      const req: Request = {
        id: `r${i}`,
        items: [...picked].map((item, k) => ({ itemId: `i${k}`, item, model: r.chance(0.5) })),
        firstAdmit: t,
        finishAt: r.chance(0.1) ? t + r.int(5000) : Number.POSITIVE_INFINITY,
      };
      this.requests.push(req);
    }
    for (const it of this.items) this.at(it.readyAt, async () => this.markReady(it));
    // [P8] One producer restart per seed, while requests come and go.
    const restartAt = Math.floor(this.duration / 6) + r.int(this.duration / 3);
    this.at(restartAt, async () => this.restartProducer());
    // The engine: every step, admit every live request.
    for (let t = 0; t <= this.duration + BUDGET_MS; t += STEP_MS) this.at(t, async () => this.engineStep());
    const end = this.duration + BUDGET_MS + 30_000;
    while (this.now <= end) {
      const next = Math.min(this.events.nextAt, ...[...this.deadline.values()].map((d) => d ?? Number.POSITIVE_INFINITY));
      if (!Number.isFinite(next) || next > end) break;
      // Occasional clock jump: the engine was descheduled (a slow step) [C3].
      const jump = r.chance(0.002) ? r.int(5000) : 0;
      if (jump > 0) this.exercised.clockJumps++;
      this.now = Math.max(this.now, next) + jump;
      await this.events.runDue(this.now);
      await this.pollBoth();
    }
    await this.finalChecks();
  }

  private async put(it: Item): Promise<void> {
    const desc: Record<string, unknown> = {
      key: { contentHash: Buffer.from(it.name).toString("base64"), fingerprint: FINGERPRINT },
      sizeBytes: String(it.bytes.length),
      checksum: { algorithm: "CHECKSUM_ALGORITHM_CRC32C", value: Buffer.from(crcBytes(it.bytes)).toString("base64") },
    };
    const res = await this.cmd(this.producer, { putItem: { descriptor: ectp.v1.ItemDescriptor.fromObject(desc), data: it.bytes } }, true);
    // Every item of a schedule fits its store (at most 12 of 48 KiB in 2 MiB): a producer that
    // refuses one leaves requests without announcements, and the seed would pass having tested nothing.
    if (!res.putItem?.descriptor)
      throw new Violation(
        `[P1] the producer did not store ${it.name} (${it.bytes.length} bytes; every item of the schedule fits its 2 MiB store) at t=${this.now}: ${res.error?.message ?? "PutItem answered without a descriptor"}`,
      );
    it.descriptor = ectp.v1.ItemDescriptor.toObject(res.putItem.descriptor as ectp.v1.ItemDescriptor, JSON_OPTIONS) as Record<string, unknown>;
    const location = res.putItem.descriptor.location;
    if (location?.length) this.heldAt.set(Buffer.from(location).toString("base64"), it);
  }

  private async markReady(it: Item): Promise<void> {
    if (!it.descriptor) return;
    await this.cmd(this.producer, { markReady: { key: ectp.v1.ItemKey.fromObject(it.descriptor.key as Record<string, unknown>) } }, true);
  }

  private async restartProducer(): Promise<void> {
    this.exercised.restarts++;
    this.producerEpoch++;
    this.heldAt.clear(); // the new instance hands out locations of its own
    await this.configure(this.producer, C.Role.ROLE_PRODUCER, "P1", this.producerEpoch);
    for (const it of this.items) {
      await this.put(it);
      if (this.now >= it.readyAt) await this.markReady(it);
    }
  }

  private async engineStep(): Promise<void> {
    await this.pollBoth(); // timers due now run before the engine looks
    for (const req of this.requests) {
      if (req.outcome || this.now < req.firstAdmit) continue;
      req.admittedAt ??= this.now;
      if (this.now >= req.finishAt) {
        req.outcome = "done"; // cancelled by the engine
        await this.cmd(this.consumer, { finishRequest: { requestId: req.id } });
        continue;
      }
      const items = req.items.map((x) => ({
        itemId: x.itemId,
        hasModelInput: x.model,
        ...(x.item.descriptor ? { announcement: { version: { major: 1 }, item: x.item.descriptor } } : {}),
      }));
      const res = await this.cmd(this.consumer, { admit: C.Admit.fromObject({ requestId: req.id, items }) });
      const a = res.admit;
      if (!a) throw new Violation(`[I1] admit answered without AdmitResult at t=${this.now}`);
      if (a.status === C.AdmitStatus.ADMIT_STATUS_FAILED) {
        req.outcome = "failed";
        this.failedAnswered.add(req.id);
        await this.cmd(this.consumer, { finishRequest: { requestId: req.id } });
        continue;
      }
      // [C1] one decision per item, naming it: a missing one would end the request unchecked.
      const decided = (a.items ?? []).map((d) => String(d.itemId));
      if (decided.length !== req.items.length || req.items.some((x) => decided.filter((id) => id === x.itemId).length !== 1))
        throw new Violation(`[C1] ${req.id} admitted with decisions for [${decided.join(", ")}], not one for each of its items [${req.items.map((x) => x.itemId).join(", ")}] at t=${this.now}`);
      let pending = false;
      for (const d of a.items ?? []) {
        const x = req.items.find((y) => y.itemId === d.itemId);
        if (d.action === C.ItemAction.ITEM_ACTION_DEFER) pending = true;
        if (d.action === C.ItemAction.ITEM_ACTION_LOCAL_ENCODE && x && !x.model)
          throw new Violation(`[C1] ${req.id}/${d.itemId} told to encode locally without model input at t=${this.now}`);
        // No item here is local: a READY item with an announcement was loaded remotely, and the
        // testee MUST report its bytes in ItemDecision.loaded (absent, [I6] could not be checked).
        if (d.action === C.ItemAction.ITEM_ACTION_READY && x?.item.descriptor && !d.loaded)
          throw new Violation(`[I6] ${req.id}/${d.itemId} is READY from a remote load without ItemDecision.loaded at t=${this.now}`);
        if (d.action === C.ItemAction.ITEM_ACTION_READY && d.loaded && x) {
          // [I6] bytes marked loaded are exactly the producer's bytes.
          const size = Number(d.loaded.sizeBytes);
          const crc = Number(d.loaded.crc32c) >>> 0;
          // Both shown: a testee reporting its size or CRC wrongly is told apart from one loading wrong bytes.
          if (size !== x.item.bytes.length || crc !== x.item.crc)
            throw new Violation(
              `[I6] ${req.id}/${d.itemId} loaded with different bytes than the producer holds at t=${this.now}: ItemDecision.loaded reports ${size} bytes, CRC-32C ${hex(crc)}; the producer holds ${x.item.bytes.length} bytes, CRC-32C ${hex(x.item.crc)}`,
            );
          this.loadedPairs.add(`${req.id}/${d.itemId}`);
          this.exercised.loaded = this.loadedPairs.size;
        }
      }
      // [I2] an outcome no later than the budget plus one engine step (plus fault delays of one grant wait).
      const since = req.admittedAt ?? this.now;
      // Still deferred at budget + one step is already late: the outcome would come a step later.
      if (pending && this.now >= since + BUDGET_MS + STEP_MS)
        throw new Violation(`[I2] ${req.id} still deferred at t=${this.now}, first admitted at t=${since} with a ${BUDGET_MS} ms budget`);
      if (!pending) {
        req.outcome = "done";
        this.readySeen.add(req.id);
        await this.cmd(this.consumer, { finishRequest: { requestId: req.id } });
      }
    }
    await this.drainFailed();
  }

  /** [C6] Each failed request is reported at most once by the drains (and, checked at the end, at least once). */
  private async drainFailed(): Promise<void> {
    const drained = await this.cmd(this.consumer, { drainFailed: {} });
    for (const f of drained.drainFailed?.failed ?? []) {
      const id = String(f.requestId);
      if (this.failedSeen.has(id)) throw new Violation(`[C6] ${id} reported failed twice (t=${this.now})`);
      if (this.readySeen.has(id))
        throw new Violation(`[I2] ${id} reported failed by drainFailed at t=${this.now} after admit said every item was ready: two outcomes`);
      this.failedSeen.add(id);
    }
  }

  private async pollBoth(): Promise<void> {
    for (const conn of [this.producer, this.consumer]) {
      for (let i = 0; i < 64; i++) {
        const res = await this.cmd(conn, { poll: {} });
        const p = res.poll;
        if (!p) throw new Violation("[I1] poll answered without PollResult");
        this.deadline.set(conn, p.nextDeadlineMs == null ? undefined : Math.max(this.now + 1, Number(p.nextDeadlineMs) - CLOCK_ORIGIN_MS));
        for (const o of p.outputs ?? []) await this.route(conn, o);
        if ((p.outputs ?? []).length === 0) break;
        // Polled again at the same instant with nothing handed over, a core has nothing new to say.
        if (i === 63)
          throw new Violation(`[I1] the ${conn === this.consumer ? "consumer" : "producer"} gave outputs on each of 64 polls at t=${this.now} with nothing handed to it between them (a livelock)`);
      }
    }
    const ps = (await this.cmd(this.producer, { getStats: {} })).stats?.producer;
    if (!ps) throw new Violation("[I3] the producer's Stats lack Stats.producer (TESTEE-PROTOCOL.md §5): its pins cannot be checked");
    // [I3] producer pins equal live grants at all times.
    if (Number(ps.pins) !== Number(ps.grants))
      throw new Violation(`[I3] producer pins ${String(ps.pins)} != grants ${String(ps.grants)} at t=${this.now}`);
    // [I5] Every read that can still write holds its own destination (TESTEE-PROTOCOL.md §5.3:
    // destinations >= reads in flight), cancelled ones included: a consumer that frees a cancelled
    // read's destination at once is caught here, whether or not another read reuses it.
    const cs = (await this.cmd(this.consumer, { getStats: {} })).stats?.consumer;
    if (!cs) throw new Violation("[I5] the consumer's Stats lack Stats.consumer (TESTEE-PROTOCOL.md §5): its destinations cannot be checked");
    let canWrite = 0;
    let cancelled = 0;
    for (const read of this.reads.values())
      if (!this.cannotWrite(read)) {
        canWrite++;
        if (read.cancelledAt !== undefined) cancelled++;
      }
    if (Number(cs.destinations) < canWrite)
      throw new Violation(
        `[I5] the consumer holds ${Number(cs.destinations)} destinations at t=${this.now} while ${canWrite} of its reads (${cancelled} of them cancelled) are unsettled and can still write into theirs: a destination was released under a read`,
      );
  }

  private async route(from: TesteeConnection, o: ectp.conformance.v1.IOutput): Promise<void> {
    const f = this.faults;
    const r = this.rng;
    const shape = outputProblem(o, `${from === this.consumer ? "C1" : "P1"}'s poll at t=${this.now}, an output`);
    if (shape !== undefined) throw new Violation(shape);
    if (o.send && !o.send.envelope)
      throw new Violation(`${from === this.consumer ? "C1" : "P1"} reported a send to ${String(o.send.to)} without its envelope at t=${this.now} (TESTEE-PROTOCOL.md §5.2: raw comes beside it)`);
    if (o.send?.envelope) {
      const to = from === this.consumer ? this.producer : this.consumer;
      const sender = from === this.consumer ? "C1" : "P1";
      if (o.send.to !== (from === this.consumer ? "P1" : "C1")) return;
      const envelope = o.send.envelope;
      // testee.proto SendOutput: version, sender_id and sender_epoch filled in (the peer drops an envelope without them).
      const epoch = from === this.consumer ? 1 : this.producerEpoch;
      if (Number(envelope.version?.major ?? 0) !== SPEC_MAJOR || envelope.senderId !== sender || Number(envelope.senderEpoch ?? 0) !== epoch)
        throw new Violation(
          `${sender} sent an envelope without version ${SPEC_MAJOR}.x, sender_id ${sender} and sender_epoch ${epoch} at t=${this.now} (TESTEE-PROTOCOL.md §5.2)`,
        );
      const problem = sendProblem(o.send, envelopeJson(envelope), this.features.has("raw-outputs"), `${sender}'s send to ${String(o.send.to)} at t=${this.now}`);
      if (problem !== undefined) throw new Violation(problem);
      // A location only a grant gives (the PutItem answer gave none) was handed out too.
      const granted = envelope.readGrant?.item;
      if (from === this.producer && granted?.location?.length) {
        const it = this.items.find((x) => x.name === Buffer.from(granted.key?.contentHash ?? new Uint8Array(0)).toString("utf8"));
        const where = Buffer.from(granted.location).toString("base64");
        if (it !== undefined && !this.heldAt.has(where)) this.heldAt.set(where, it);
      }
      // Feature raw-messages: the peer decodes the bytes the sender's own encoder made, so two
      // implementations meet on the wire; otherwise it is handed the reported envelope.
      const message = this.features.has("raw-messages") && o.send.raw?.length ? { from: sender, raw: o.send.raw } : { from: sender, envelope };
      if (from === this.consumer && envelope.readRequest) this.readRequestsSent++;
      const copies = r.chance(f.drop) ? 0 : r.chance(f.dup) ? 2 : 1;
      if (copies === 0) this.exercised.dropped++;
      else if (copies === 2) this.exercised.duplicated++;
      for (let k = 0; k < copies; k++)
        this.at(this.now + r.int(f.maxDelay), async () => {
          await this.cmd(to, { deliverMessage: message });
        });
      return;
    }
    if (o.startRead && from === this.consumer) {
      const sr = o.startRead;
      const id = Number(sr.readId);
      const read: ReadInFlight = {
        region: String(sr.destinationRegion ?? ""),
        offset: Number(sr.destinationOffset ?? 0),
        length: Number(sr.length ?? 0),
      };
      if (read.region === "") throw new Violation(`[I5] start_read ${id} has no destination_region at t=${this.now} (TESTEE-PROTOCOL.md §5.1)`);
      // As the scripted runner checks: a reused id would make the earlier read's landing settle this one with its bytes.
      if (!Number.isSafeInteger(id) || id <= 0)
        throw new Violation(`[I1] start_read at t=${this.now} has read_id ${String(sr.readId ?? 0)}: read ids MUST be > 0 (TESTEE-PROTOCOL.md §5.1)`);
      if (this.reads.has(id)) throw new Violation(`[I5] start_read at t=${this.now} reuses read_id ${id} while that read is unsettled`);
      for (const [oid, other] of this.reads) {
        if (this.cannotWrite(other)) continue; // [C8] cancelled a quarantine cap ago: its destination is free
        if (other.region === read.region && read.offset < other.offset + Math.max(1, other.length) && other.offset < read.offset + Math.max(1, read.length))
          throw new Violation(`[I5] read ${id} reuses the destination of unsettled read ${oid} at t=${this.now}`);
      }
      this.reads.set(id, read);
      const n = this.readsStarted++;
      // The forced stall lands only after the consumer cancels it (past its transfer timeout, or
      // earlier when its request ends or the producer restarts), inside the quarantine cap: its
      // bytes are written into a destination the consumer must still hold [C8][I5].
      const forcedStall = n === this.forced.stall;
      const forcedFail = n === this.forced.fail;
      const forcedCorrupt = n === this.forced.corrupt;
      // The forced faults come one per read and land promptly (but the forced stall).
      const random = !forcedStall && !forcedFail && !forcedCorrupt;
      const stall = forcedStall || (random && r.chance(f.stall));
      const fail = forcedFail || (random && r.chance(f.readFail));
      const corrupt = forcedCorrupt || (random && r.chance(f.corrupt));
      if (stall) this.exercised.stalled++;
      const land = async () => {
        if (!this.reads.has(id)) return;
        // [C8] The transport tore down a read cancelled a quarantine cap ago: it ends without writing.
        if (this.cannotWrite(read)) return this.settleRead(id, C.ReadStatus.READ_STATUS_CANCELLED, new Uint8Array(0));
        const mem = await this.cmd(this.producer, { readMemory: { location: sr.source ?? new Uint8Array(0), length: read.length } }, true);
        this.checkReadMemory(sr.source ?? new Uint8Array(0), read, mem);
        let data = mem.readMemory?.data ? new Uint8Array(mem.readMemory.data) : new Uint8Array(0);
        const ok = !fail && mem.readMemory !== undefined && mem.readMemory !== null;
        if (ok && corrupt && data.length > 0) {
          data[0] = ((data[0] as number) ^ 0x5a) & 0xff;
          this.exercised.corrupted++;
        }
        if (fail) this.exercised.readsFailed++;
        else if (ok && !corrupt && read.cancelledAt === undefined) this.exercised.readsIntact++;
        // [I5] the bytes land in a destination the consumer cancelled (inside the quarantine cap).
        if (ok && read.cancelledAt !== undefined) this.exercised.lateWrites++;
        if (!ok) data = new Uint8Array(0);
        await this.settleRead(id, ok ? C.ReadStatus.READ_STATUS_DONE : C.ReadStatus.READ_STATUS_FAILED, data);
      };
      if (forcedStall) read.landAfterCancel = land;
      else this.at(this.now + (stall ? 5000 + r.int(10_000) : 1 + r.int(50)), land);
      return;
    }
    if (o.cancelRead) {
      const id = Number(o.cancelRead.readId);
      const read = this.reads.get(id);
      if (read === undefined) return;
      read.cancelledAt ??= this.now;
      const land = read.landAfterCancel;
      if (land !== undefined) {
        read.landAfterCancel = undefined;
        this.at(this.now + 1 + this.rng.int(QUARANTINE_CAP_MS - 1000), land);
      } else if (!this.rng.chance(0.3)) this.at(this.now + 1, async () => this.settleRead(id, C.ReadStatus.READ_STATUS_CANCELLED, new Uint8Array(0)));
    }
  }

  /**
   * TESTEE-PROTOCOL.md §5: ReadMemory answers the bytes at a location the producer instance handed
   * out, and `Error` only for a foreign location or one whose item has left the store. This level
   * never evicts, discards or clears, and every item fits the store, so the items leave only with
   * their instance (a restart, which puts each again); but SPEC lets a producer evict a ready,
   * unpinned item at any time [P6], and the level does not see pins. So it checks the reads that
   * keep their item pinned: those the consumer has not cancelled (it holds their grants, whose
   * leases outlast the transfer timeout the level configures), at a location the running instance
   * handed out (a location of an earlier instance, or of none, is foreign). Any answer there but
   * the item's bytes (up to `length`; past the item's end the bytes are not the item's) is the
   * producer's fault.
   */
  private checkReadMemory(location: Uint8Array, read: ReadInFlight, mem: ectp.conformance.v1.TesteeResponse): void {
    const it = this.heldAt.get(Buffer.from(location).toString("base64"));
    if (it === undefined || read.cancelledAt !== undefined) return;
    const want = it.bytes.subarray(0, read.length);
    const data = mem.readMemory?.data ?? new Uint8Array(0);
    const asked = `the producer answered ReadMemory of ${read.length} bytes at t=${this.now} at a location it handed out, which holds ${it.name} (${it.bytes.length} bytes), for a read the consumer had not cancelled`;
    const allowed = "TESTEE-PROTOCOL.md §5 allows Error only for a foreign location or an item that has left the store, and this level removes none";
    if (mem.error) throw new Violation(`${asked}, with Error (${mem.error.message}): ${allowed}`);
    if (data.length < want.length || data.length > read.length || !Buffer.from(data.subarray(0, want.length)).equals(want))
      throw new Violation(`${asked}, with ${data.length} bytes, not the ${want.length} bytes of ${it.name} (CRC-32C ${hex(crc32c(data))}, the item's ${hex(crc32c(want))})`);
  }

  /** [C8] Whether a read was cancelled at least a quarantine cap ago: the transport no longer lets it write. */
  private cannotWrite(read: ReadInFlight): boolean {
    return read.cancelledAt !== undefined && this.now >= read.cancelledAt + QUARANTINE_CAP_MS;
  }

  private async settleRead(id: number, status: number, data: Uint8Array): Promise<void> {
    if (!this.reads.delete(id)) return;
    await this.cmd(this.consumer, { deliverReadResult: { readId: id, status, data } });
  }

  private async finalChecks(): Promise<void> {
    // [C1] Every schedule's requests carry announcements of items the producer holds: a consumer
    // that sends no ReadRequest for any of them would pass every other check vacuously.
    if (this.readRequestsSent === 0)
      throw new Violation(`[C1] the consumer sent no ReadRequest in the whole schedule, though its ${this.requests.length} requests carried announcements of items the producer held`);
    // [I6] checks only what was loaded: a consumer that loads nothing (every read refused, e.g. a
    // verification that rejects good bytes) would pass it, and every other check, vacuously. Every
    // schedule serves most of its items' reads unharmed, so a correct consumer loads some.
    if (this.exercised.loaded === 0 && this.exercised.readsIntact >= MIN_INTACT_READS)
      throw new Violation(
        `[I6] no item was loaded from the producer in the whole schedule, though ${this.exercised.readsIntact} reads landed the producer's bytes intact and uncancelled (${this.requests.length} requests)`,
      );
    for (const req of this.requests) {
      if (!req.outcome) {
        await this.cmd(this.consumer, { finishRequest: { requestId: req.id } });
        if (req.admittedAt !== undefined && this.now > req.admittedAt + BUDGET_MS + STEP_MS) throw new Violation(`[I2] ${req.id} never reached an outcome`);
      }
    }
    for (const id of [...this.reads.keys()]) await this.settleRead(id, C.ReadStatus.READ_STATUS_CANCELLED, new Uint8Array(0));
    this.now += 120_000;
    await this.cmd(this.consumer, { advanceClock: {} });
    await this.cmd(this.producer, { advanceClock: {} });
    for (let i = 0; i < 4; i++) {
      await this.pollBoth();
      await this.events.runAll();
      this.now += 30_000;
    }
    await this.drainFailed();
    const unreported = [...this.failedAnswered].filter((id) => !this.failedSeen.has(id));
    if (unreported.length > 0) throw new Violation(`[C6] ${unreported.join(", ")} answered FAILED by admit but never reported by drainFailed`);
    const cs = (await this.cmd(this.consumer, { getStats: {} })).stats?.consumer;
    const ps = (await this.cmd(this.producer, { getStats: {} })).stats?.producer;
    if (!cs || !ps) throw new Violation("[I4] Stats lack Stats.consumer or Stats.producer (TESTEE-PROTOCOL.md §5): the baseline cannot be checked");
    const j = C.ConsumerStats.toObject(cs as ectp.conformance.v1.ConsumerStats, { longs: Number }) as Record<string, number>;
    const leaks = Object.entries(j).filter(([k, v]) => k !== "ignoredMessages" && v !== 0);
    if (leaks.length > 0) throw new Violation(`[I4] consumer tables not back to baseline: ${leaks.map(([k, v]) => `${k}=${v}`).join(", ")}`);
    if (Number(ps.pins) !== 0 || Number(ps.grants) !== 0)
      throw new Violation(`[I3] after quiescence producer pins=${String(ps.pins)} grants=${String(ps.grants)}`);
  }
}

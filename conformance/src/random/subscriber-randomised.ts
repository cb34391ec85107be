/**
 * The randomised subscriber level: a producer testee and a subscriber testee wired together by
 * the runner, which plays the network and the producer's engine under a seeded schedule: items
 * put, made ready, discarded and cleared at random, one producer restart, and a link that drops,
 * duplicates and delays messages (losing some snapshot parts on top) and is cut for a while. Some
 * seeds configure the producer with a small batch size bound (its snapshots go out in parts,
 * assembled by the runner before they are checked), a small replay buffer (a subscriber cut off
 * for a while is told its replay is unavailable and must fall back to a snapshot), no resend
 * interval, or late copies of the subscriber's requests (answered again, later).
 *
 * Checked against SPEC.md section 4 (the subscriber's first message to the producer is a Hello,
 * and so is its next one once it hears of the restarted producer's epoch, unless a Hello of its
 * went out after the restart), [E1] (each epoch's batches numbered 1, 2, ... in order), [E2] (a
 * producer's snapshot, its parts put together, holds exactly its items as of its sequence, and its
 * answers' ids grow; each replay answer it sends starts at the from_sequence of a ReplayRequest
 * delivered to it and not yet answered, judged on what it sent, before the link's faults; a
 * subscriber's view, whenever it says it is synced, is a set the producer held after some batch;
 * once the link has healed and one more change has been published, it is the producer's current
 * set), [P8] (it heartbeats the producer at least once per interval once it knows the producer's
 * epoch, a pause ending only in a new Hello, and its heartbeats flow once its view is current),
 * [I1] (no Error answer) and [I4] (once unfollowed, the subscriber holds nothing). At level `all`
 * two RECOMMENDED rules are checked too: `SubscriberStats.synced` is 1 once it is current, and a
 * synced subscriber of a quiet producer asks for no snapshot.
 * Every failure names its seed and a replay command.
 *
 * What only the scripted subscriber cases catch (cases/subscriber/): a view that keeps an item's
 * old descriptor when a Stored names an item it holds (a correct producer never sends one: its
 * store refuses a key it holds, so a Removed always comes first), and an unbounded hold of batches
 * past a gap (a seed publishes about a hundred batches, far below any sensible bound). Parts of two
 * snapshot answers assembled as one are caught only by the few seeds in which an answer in parts,
 * one of its parts lost, is overtaken by a newer answer (a late copy's) over a changed set whose
 * parts split the items otherwise (two or three seeds in a hundred): a retry after a lost part
 * drops the incomplete answer first.
 * @module
 */
import { SPEC_MAJOR, envelopeBodyName } from "@ectp/protocol";
import { ectp, envelopeJson } from "../proto.js";
import { CLOCK_ORIGIN_MS } from "../runner/script.js";
import { outputProblem } from "../runner/output-shape.js";
import { sendProblem } from "../runner/raw-send.js";
import type { CaseResult, StartFailures } from "../runner/suite.js";
import type { TesteeConnection, TesteeFactory } from "../testee/connection.js";
import { Rng } from "./rng.js";
import { EventQueue, Violation, checkSeedRunOptions, command, runSeeds } from "./seeds.js";
import { checkLevel } from "../arguments.js";

const C = ectp.conformance.v1;

/** The suite of the subscriber seeds' case names, naming what each seed checks. */
export const SUBSCRIBER_RANDOMISED_SUITE = "randomised/e1-e2-p8-i1-i4";

/** The features a subscriber schedule needs: both testees are made by one command. */
export const SUBSCRIBER_RANDOMISED_FEATURES: readonly string[] = ["producer", "events", "subscriber"];

/** Options of {@link runSubscriberRandomised}. */
export interface SubscriberRandomisedOptions {
  /** Makes the producer testee. */
  producer: TesteeFactory;
  /** Makes the subscriber testee. */
  subscriber: TesteeFactory;
  /** Seeds to run (one schedule each). */
  seeds: readonly number[];
  /** Features claimed; every seed is skipped without producer, events and subscriber. Default: those three. */
  features?: Iterable<string> | undefined;
  /** `all` checks the RECOMMENDED rules too (see the module); `required` only what SPEC.md requires. Default `required`. */
  level?: "required" | "all" | undefined;
  /**
   * Simulated time of store changes and faults per seed, ms. The link then heals for 40 s (with one
   * more change published halfway), and at level `all` a quiet 30 s follows. Default 60000.
   */
  durationMs?: number | undefined;
  /** The command that replays one seed, printed with a failure. */
  replayCommand?: ((seed: number) => string) | undefined;
  /** Known-failing list (names `randomised/e1-e2-p8-i1-i4/seed-<n>`). */
  knownFailing?: ReadonlyMap<string, string> | undefined;
  /** Wall-clock limit of one seed, ms: past it, the seed fails at its next command. Default 300000 (five minutes). */
  seedTimeoutMs?: number | undefined;
  /** Failed starts of the testee, counted across the run when one {@link StartFailures} is shared with the scripted cases and the other level (after 3 in a row, no seed starts one). Default: these seeds' own. */
  startFailures?: StartFailures | undefined;
}

/**
 * Run the seeds. One CaseResult per seed (`randomised/e1-e2-p8-i1-i4/seed-<n>`). Never throws for
 * testee behaviour. A wrong call rejects at once, before any seed runs, with
 * EctpError(INVALID_ARGUMENT) naming what is wrong: options that are not an object, an option it does
 * not take, a `producer` or `subscriber` that is not a testee factory, `seeds` that is not an array
 * of safe integers, a `level` other than `required` or `all`, or a shared option's value its checks
 * refuse (`features`, `knownFailing`, a time, `replayCommand`; see the options).
 */
export async function runSubscriberRandomised(options: SubscriberRandomisedOptions): Promise<CaseResult[]> {
  checkSeedRunOptions("runSubscriberRandomised", options, SUBSCRIBER_RANDOMISED_OPTIONS, ["producer", "subscriber"]);
  checkLevel("runSubscriberRandomised", "options.level", options.level);
  const features = new Set(options.features ?? SUBSCRIBER_RANDOMISED_FEATURES);
  return runSeeds({
    suite: SUBSCRIBER_RANDOMISED_SUITE,
    requirements: ["E1", "E2", "P8", "I1", "I4"],
    catches: [],
    seeds: options.seeds,
    skipped: SUBSCRIBER_RANDOMISED_FEATURES.every((f) => features.has(f)) ? undefined : `needs features ${SUBSCRIBER_RANDOMISED_FEATURES.join(", ")}`,
    testees: [options.producer, options.subscriber],
    async schedule(seed, [producer, subscriber]) {
      const schedule = new SubscriberSchedule(seed, producer as TesteeConnection, subscriber as TesteeConnection, {
        duration: options.durationMs ?? 60_000,
        canEvict: features.has("evict"),
        recommended: options.level === "all",
        features,
      });
      await schedule.run();
      return schedule.exercisedLine();
    },
    replayCommand: options.replayCommand,
    knownFailing: options.knownFailing,
    seedTimeoutMs: options.seedTimeoutMs,
    startFailures: options.startFailures,
  });
}

/** The keys of {@link SubscriberRandomisedOptions}. */
const SUBSCRIBER_RANDOMISED_OPTIONS: readonly string[] = Object.keys({ producer: true, subscriber: true, seeds: true, features: true, level: true, durationMs: true, replayCommand: true, knownFailing: true, seedTimeoutMs: true, startFailures: true } satisfies Record<keyof SubscriberRandomisedOptions, true>);

const FINGERPRINT = { model: "conformance/model@1", dtype: "DTYPE_BFLOAT16", rowBytes: 2048, layoutVersion: 1 };
const PRODUCER = "P1";
const SUBSCRIBER = "S1";
/** Item names the store changes draw from: a name leaves and comes back (Removed, then Stored again). */
const NAMES = 12;
/**
 * How long the healed link runs before the view must be the producer's set: several request
 * retries, silences (6 s) and catch-ups of SPEC.md's defaults. Halfway through, one more change is
 * published, so that a subscriber that lost the last batch before the link healed sees a gap,
 * which it MUST replay [E2] (the periodic catch-up that also finds it is only a SHOULD).
 */
const HEAL_MS = 40_000;
/** The quiet spell after that in which a synced subscriber should ask for no snapshot (level `all`). */
const QUIET_MS = 30_000;
/**
 * The subscriber's heartbeat interval: Configure leaves `Timers.heartbeat_interval_ms` absent, which
 * means 2000 ms (TESTEE-PROTOCOL.md section 4). SPEC.md section 4.7: it sends each producer it
 * follows a Heartbeat at least once per interval [P8].
 */
const SUBSCRIBER_HEARTBEAT_MS = 2_000;
/**
 * How late a Heartbeat may be over that interval: the runner polls the subscriber at its
 * `next_deadline_ms`, a whole number of ms, and at least 1 ms after the instant it last polled.
 */
const HEARTBEAT_GRACE_MS = 100;
/** How long the runner keeps the link up after the unfollow before reading the subscriber's tables [I4]. */
const AFTER_UNFOLLOW_MS = 5_000;

/** The items of a set, in order, as one string (a state of the producer's ready set). */
function stateOf(items: Iterable<string>): string {
  return [...items].sort().join(",");
}

/** An item's name from its key (the runner puts `contentHash` = the name's bytes). */
function nameOf(key: ectp.v1.IItemKey | null | undefined): string {
  return Buffer.from(key?.contentHash ?? new Uint8Array(0)).toString("utf8");
}

/**
 * An item as a state names it: its name with the descriptor fields that differ between two puts
 * of one name (size, epoch, location), so a view holding a stale descriptor differs too.
 */
function itemOf(d: ectp.v1.IItemDescriptor): string {
  return `${nameOf(d.key)}/${Number(d.sizeBytes ?? 0)}/${Number(d.epoch ?? 0)}/${Buffer.from(d.location ?? new Uint8Array(0)).toString("base64")}`;
}

/** One producer epoch as its event batches describe it [E1]. */
interface EpochHistory {
  /** Its ready set now (after the last batch): each item as {@link itemOf} names it, by item name. */
  readonly current: Map<string, string>;
  /** The state after each batch, by sequence (index 0: before the first batch). */
  readonly states: string[];
}

class SubscriberSchedule {
  private now = 0;
  private readonly rng: Rng;
  private readonly events = new EventQueue();
  private readonly deadline = new Map<TesteeConnection, number | undefined>();
  private producerEpoch = 5;
  /** The items the runner's store holds: not ready ("put") or ready. */
  private readonly held = new Map<string, "put" | "ready">();
  /** PutItems the producer took, in the whole schedule. */
  private itemsStored = 0;
  /** Each producer epoch's states, from its event_batch outputs. */
  private readonly epochs = new Map<number, EpochHistory>();
  /** Every state the producer's ready set was in, any epoch (what a synced view may show). */
  private readonly statesSeen = new Set<string>([""]);
  private readonly faults: { drop: number; dup: number; maxDelay: number; cutFrom: number; cutTo: number };
  /** The producer's bounds this seed: a small batch bound splits snapshots into parts, a small replay buffer runs out [E2]. */
  private readonly bounds: { maxBatchBytes?: number | undefined; replayBufferBatches?: number | undefined; resendIntervalMs?: number | undefined };
  /**
   * Late copies: the probability that a SnapshotRequest or ReplayRequest of the subscriber reaches
   * the producer once more, 0.5 to 2.5 s later (a duplicate the network held back), drawn with `late`
   * so that the other faults' draws are as before. A late SnapshotRequest gets a second answer, whose
   * parts may come while the subscriber still assembles the first's [E2].
   */
  private readonly lateCopy: number;
  private readonly late: Rng;
  /**
   * Lost parts: the probability that a part of a snapshot answer in parts is lost on top of the
   * link's drops, drawn with `partLoss` (a stream of its own, as `late`). The subscriber then asks
   * again after its retry time, and the newer answer, often over a changed set whose parts split
   * the items otherwise, must replace the incomplete one, not be mixed into it [E2].
   */
  private readonly lostPart: number;
  private readonly partLoss: Rng;
  /** Snapshot answers in parts still missing some, by snapshot_id, and the greatest id the producer sent in this epoch [E2]. */
  private readonly assembling = new Map<number, { sequence: number; parts: number; items: Map<number, ectp.v1.IItemDescriptor[]> }>();
  private lastSnapshotId = 0;
  /** Whether the subscriber has sent the producer anything (its first message must be a Hello). */
  private greeted = false;
  /** The greatest producer epoch handed to the subscriber; one it heard of without having greeted it (0: none), whose Hello is owed now. */
  private subscriberKnows = 0;
  private helloOwed = 0;
  /** Whether the subscriber sent a Hello since the producer's last restart (which then reached the new epoch). */
  private helloSinceRestart = true;
  /**
   * [P8] When the subscriber's current heartbeat interval to the producer began: its last Heartbeat,
   * or, after a Hello (after which it may take the producer for unknown until it hears from it),
   * the delivery of the first envelope of the producer's current epoch since. Undefined while no
   * Heartbeat is owed: before that delivery, and once it unfollowed.
   */
  private heartbeatsOwedSince: number | undefined;
  /** Whether the subscriber follows the producer (until the final unfollow). */
  private following = true;
  private healed = false;
  /** Whole snapshots of the producer poll being routed: checked once all its outputs are (a batch may come after the send). */
  private snapshotsSent: ectp.v1.ISnapshot[] = [];
  /**
   * [E2] The from_sequences (0 read as 1) of the ReplayRequests delivered to the producer's current
   * epoch that no replay answer has started at yet, each with its count of deliveries (a duplicate
   * is a request of its own, which the producer may answer again).
   */
  private readonly replaysOpen = new Map<number, number>();
  /**
   * [E2] What the producer sent the subscriber and published in its polls at one instant (one
   * {@link SubscriberSchedule.pollUntilQuiet}): its batch sends not yet checked, in order, the
   * sequences it published, those whose live send was seen, and the last batch it resent.
   */
  private resends = { sent: [] as number[], published: new Set<number>(), live: new Set<number>(), last: undefined as number | undefined };
  private readonly duration: number;
  private readonly canEvict: boolean;
  private readonly recommended: boolean;
  /** The features both testees claim: `raw-outputs` and `raw-messages` decide what the link carries (see `route`). */
  private readonly features: ReadonlySet<string>;
  readonly exercised = {
    batches: 0,
    snapshots: 0,
    snapshotsInParts: 0,
    replaysUnavailable: 0,
    dropped: 0,
    duplicated: 0,
    lateCopies: 0,
    cutMessages: 0,
    viewsChecked: 0,
    clears: 0,
    restarts: 0,
  };

  constructor(
    seed: number,
    private readonly producer: TesteeConnection,
    private readonly subscriber: TesteeConnection,
    o: { duration: number; canEvict: boolean; recommended: boolean; features: ReadonlySet<string> },
  ) {
    this.duration = o.duration;
    this.features = o.features;
    this.canEvict = o.canEvict;
    this.recommended = o.recommended;
    this.rng = new Rng(seed);
    const r = this.rng;
    const cutFrom = Math.floor(o.duration / 8) + r.int(Math.floor(o.duration / 2));
    this.faults = { drop: r.next() * 0.25, dup: r.next() * 0.15, maxDelay: 1 + r.int(800), cutFrom, cutTo: cutFrom + 3000 + r.int(9000) };
    // Drawn from a stream of their own, so that adding them left each seed's schedule and faults as they were.
    const b = new Rng(seed ^ 0x5eed_b0d5);
    const SMALL_BATCH_BYTES = 400; // about five of these descriptors: a snapshot of the 12 names needs up to 12 parts
    this.bounds = {
      maxBatchBytes: b.chance(0.5) ? 1 + b.int(SMALL_BATCH_BYTES) : undefined,
      replayBufferBatches: b.chance(0.5) ? 1 + b.int(4) : undefined,
      resendIntervalMs: b.chance(0.5) ? 0 : undefined,
    };
    this.lateCopy = b.chance(0.5) ? 0.3 + b.next() * 0.5 : 0;
    this.late = new Rng(seed ^ 0x1a7e_c0b1);
    this.partLoss = new Rng(seed ^ 0x9a27_105e);
    this.lostPart = 0.1 + this.partLoss.next() * 0.3;
  }

  /** What a passed seed exercised. */
  exercisedLine(): string {
    const e = this.exercised;
    return `exercised: ${e.batches} batches, ${e.snapshots} snapshots (${e.snapshotsInParts} in parts), ${e.replaysUnavailable} replays unavailable, ${e.dropped} dropped, ${e.duplicated} duplicated (${e.lateCopies} late), ${e.cutMessages} lost to a cut link, ${e.viewsChecked} synced views checked, ${e.clears} clears, ${e.restarts} restarts`;
  }

  private cmd(conn: TesteeConnection, req: ectp.conformance.v1.ITesteeRequest, allowError = false): Promise<ectp.conformance.v1.TesteeResponse> {
    return command(conn, conn === this.producer ? "producer" : "subscriber", this.now, req, allowError);
  }

  private at(t: number, run: () => Promise<void>): void {
    this.events.at(t, run);
  }

  private async configureProducer(): Promise<void> {
    await this.cmd(this.producer, {
      configure: C.Configure.fromObject({
        role: C.Role.ROLE_PRODUCER,
        id: PRODUCER,
        epoch: this.producerEpoch,
        fingerprint: FINGERPRINT,
        seed: this.producerEpoch,
        storeCapacityBytes: 1024 * 1024,
        timers: this.bounds,
      }),
    });
    this.held.clear(); // a new instance: its store starts empty
    this.assembling.clear(); // and counts its snapshot answers anew
    this.lastSnapshotId = 0;
    this.replaysOpen.clear(); // and has been asked for no replay
    this.deadline.set(this.producer, this.now);
  }

  async run(): Promise<void> {
    const r = this.rng;
    await this.configureProducer();
    await this.cmd(this.subscriber, {
      configure: C.Configure.fromObject({ role: C.Role.ROLE_SUBSCRIBER, id: SUBSCRIBER, epoch: 1, fingerprint: FINGERPRINT, seed: 1 }),
    });
    this.deadline.set(this.subscriber, this.now);
    // Three changes before the subscriber follows: its first snapshot may hold items.
    for (let i = 0; i < 3; i++) await this.storeChange();
    await this.cmd(this.subscriber, { follow: { producerId: PRODUCER } });
    for (let t = 300 + r.int(1000); t < this.duration; t += 200 + r.int(1500)) this.at(t, async () => this.storeChange());
    // [P8] One producer restart per seed: the subscriber must follow the new epoch from a snapshot.
    this.at(Math.floor(this.duration / 4) + r.int(Math.floor(this.duration / 2)), async () => this.restartProducer());
    this.at(this.duration, async () => {
      this.healed = true;
    });
    this.at(this.duration + HEAL_MS / 2, async () => this.publishOneMore());
    await this.runUntil(this.duration + HEAL_MS);
    await this.finalChecks();
  }

  /** Advance through the scheduled events and both testees' deadlines up to `end`, checking the view after each round. */
  private async runUntil(end: number): Promise<void> {
    for (;;) {
      const next = Math.min(this.events.nextAt, ...[...this.deadline.values()].map((d) => d ?? Number.POSITIVE_INFINITY));
      if (!Number.isFinite(next) || next > end) break;
      this.now = Math.max(this.now, next);
      await this.events.runDue(this.now);
      await this.pollBoth();
      await this.checkView();
    }
    this.now = end;
    await this.pollBoth();
  }

  /** One random change of the producer's store, through the engine's commands. */
  private async storeChange(): Promise<void> {
    const r = this.rng;
    const roll = r.next();
    const notReady = [...this.held].filter(([, s]) => s === "put").map(([n]) => n);
    const ready = [...this.held].filter(([, s]) => s === "ready").map(([n]) => n);
    if (roll < 0.03) {
      this.exercised.clears++;
      await this.cmd(this.producer, { clearStore: {} }); // [E1] Cleared(RESET)
      this.held.clear();
    } else if (roll < 0.15 && notReady.length > 0) {
      const name = notReady[r.int(notReady.length)] as string;
      await this.cmd(this.producer, { discard: { key: this.key(name) } }); // [E1] Removed(DISCARDED); the ready set is unchanged
      this.held.delete(name);
    } else if (roll < 0.25 && this.canEvict && ready.length > 0) {
      const name = ready[r.int(ready.length)] as string;
      const res = await this.cmd(this.producer, { evict: { key: this.key(name) } }, true); // [E1] Removed(EVICTED)
      if (!res.error) this.held.delete(name);
    } else if (roll < 0.55 && notReady.length > 0) {
      const name = notReady[r.int(notReady.length)] as string;
      await this.cmd(this.producer, { markReady: { key: this.key(name) } }); // [E1] Stored
      this.held.set(name, "ready");
    } else {
      const free = this.freeNames();
      if (free.length > 0) await this.put(free[r.int(free.length)] as string, 1 + r.int(2048));
    }
  }

  /** One more Stored, on the healed link: a batch lost before, if any, now shows as a gap [E2]. */
  private async publishOneMore(): Promise<void> {
    let name = [...this.held].find(([, state]) => state === "put")?.[0];
    if (name === undefined) {
      name = this.freeNames()[0];
      if (name === undefined) {
        await this.cmd(this.producer, { clearStore: {} }); // every name ready: a Cleared is the change
        this.held.clear();
        return;
      }
      if (!(await this.put(name, 1))) return;
    }
    await this.cmd(this.producer, { markReady: { key: this.key(name) } });
    this.held.set(name, "ready");
  }

  /** The item names the store does not hold. */
  private freeNames(): string[] {
    return Array.from({ length: NAMES }, (_, i) => `item-${i}`).filter((n) => !this.held.has(n));
  }

  /** Put item `name` of `size` bytes, not ready; whether the store took it. */
  private async put(name: string, size: number): Promise<boolean> {
    const res = await this.cmd(
      this.producer,
      { putItem: { descriptor: ectp.v1.ItemDescriptor.fromObject({ key: this.keyObject(name), sizeBytes: String(size) }), data: new Uint8Array(size) } },
      true, // (a store without room evicts ready items first [P6]; 12 items of 2 KiB fit)
    );
    if (res.error) return false;
    this.held.set(name, "put");
    this.itemsStored++;
    return true;
  }

  private keyObject(name: string): Record<string, unknown> {
    return { contentHash: Buffer.from(name).toString("base64"), fingerprint: FINGERPRINT };
  }

  private key(name: string): ectp.v1.ItemKey {
    return ectp.v1.ItemKey.fromObject(this.keyObject(name));
  }

  private async restartProducer(): Promise<void> {
    this.exercised.restarts++;
    this.helloSinceRestart = false;
    this.producerEpoch++;
    await this.configureProducer();
    for (let i = 0; i < 3; i++) await this.storeChange();
  }

  private async pollBoth(): Promise<void> {
    for (const conn of [this.producer, this.subscriber]) await this.pollUntilQuiet(conn);
  }

  /** Poll one testee until it has no more outputs (at most 64 polls), routing what it sends. */
  private async pollUntilQuiet(conn: TesteeConnection): Promise<void> {
    if (conn === this.producer) this.resends = { sent: [], published: new Set(), live: new Set(), last: undefined };
    for (let i = 0; i < 64; i++) {
      const res = await this.cmd(conn, { poll: {} });
      const p = res.poll;
      if (!p) throw new Violation(`the ${conn === this.producer ? "producer" : "subscriber"} answered poll without a PollResult at t=${this.now} (TESTEE-PROTOCOL.md §6)`);
      this.deadline.set(conn, p.nextDeadlineMs == null ? undefined : Math.max(this.now + 1, Number(p.nextDeadlineMs) - CLOCK_ORIGIN_MS));
      for (const o of p.outputs ?? []) await this.route(conn, o);
      for (const snapshot of this.snapshotsSent) this.checkSnapshot(snapshot);
      this.snapshotsSent = [];
      if (conn === this.producer) this.checkResends();
      if ((p.outputs ?? []).length === 0) break;
      // Polled again at the same instant with nothing handed over, a core has nothing new to say.
      if (i === 63)
        throw new Violation(`[I1] the ${conn === this.producer ? "producer" : "subscriber"} gave outputs on each of 64 polls at t=${this.now} with nothing handed to it between them (a livelock)`);
    }
  }

  /** [E1] A batch the producer published: the next of its epoch, applied to that epoch's history. */
  private published(batch: ectp.v1.IEventBatch): void {
    let h = this.epochs.get(this.producerEpoch);
    if (h === undefined) {
      h = { current: new Map(), states: [""] };
      this.epochs.set(this.producerEpoch, h);
    }
    const sequence = Number(batch.sequence ?? 0);
    if (sequence !== h.states.length)
      throw new Violation(`[E1] the producer published batch ${sequence} of epoch ${this.producerEpoch} after batch ${h.states.length - 1} at t=${this.now}: sequences go 1, 2, ... by one`);
    for (const e of batch.events ?? []) {
      if (e.stored?.item) h.current.set(nameOf(e.stored.item.key), itemOf(e.stored.item));
      else if (e.removed?.key) h.current.delete(nameOf(e.removed.key));
      else if (e.cleared) h.current.clear();
    }
    const state = stateOf(h.current.values());
    h.states.push(state);
    this.statesSeen.add(state);
    this.exercised.batches++;
  }

  /**
   * [E2] The producer's replay answers start at the from_sequence asked. SPEC.md section 9: on a
   * ReplayRequest the producer resends, in order and unchanged, every buffered batch from
   * `from_sequence` (0 means 1) to its latest, or answers ReplayUnavailable, or sends nothing when
   * nothing is newer; answers held back by the resend interval go out together as one replay from
   * the lowest `from_sequence` asked. So among the batches it sends the subscriber at one instant,
   * the first send of each batch it published then is the live one [E1]; every other send is a
   * resend, and a resend that does not follow the one before it by one starts a replay answer,
   * whose first sequence must be the from_sequence of a ReplayRequest delivered to this epoch and
   * not yet answered (one that a coalesced replay from a lower one covered stays open, which can
   * only let more through). Judged on what the producer
   * sent, before the link drops, duplicates or delays anything, and once all of a poll's outputs
   * are routed (they list batches and sends in no fixed order).
   */
  private checkResends(): void {
    const r = this.resends;
    for (const sequence of r.sent) {
      if (r.published.has(sequence) && !r.live.has(sequence)) {
        r.live.add(sequence); // its live send to each subscriber [E1]
        continue;
      }
      if (r.last === undefined || sequence !== r.last + 1) this.replayStarted(sequence); // [E2] a replay answer starts here
      r.last = sequence;
    }
    r.sent = [];
  }

  /** [E2] A replay answer of the producer starts at `sequence`: it answers an open ReplayRequest from there, or fails the seed. */
  private replayStarted(sequence: number): void {
    const count = this.replaysOpen.get(sequence) ?? 0;
    if (count > 1) this.replaysOpen.set(sequence, count - 1);
    else if (count === 1) this.replaysOpen.delete(sequence);
    if (count > 0) return;
    const open = [...this.replaysOpen.keys()].sort((a, b) => a - b);
    // The request it most likely answers: the nearest asked below where it started, else the lowest.
    const asked = open.filter((f) => f < sequence).pop() ?? open[0];
    const what =
      asked === undefined
        ? `resent batches from sequence ${sequence}, with no ReplayRequest of the subscriber open`
        : `answered the subscriber's ReplayRequest from sequence ${asked} with batches starting at sequence ${sequence}`;
    throw new Violation(
      `[E2] the producer ${what} at t=${this.now} (epoch ${this.producerEpoch}; the open ReplayRequests delivered to it asked from ${open.join(", ") || "none"}): a replay resends every buffered batch from the from_sequence asked (0 means 1) to its latest, in order, sequences going 1, 2, ... by one [E1], or is a ReplayUnavailable`,
    );
  }

  /**
   * [E2] A Snapshot message the producer sent: a whole snapshot is checked at once, one in parts
   * once all its parts are in (in any order and over any number of polls; a repeated part is
   * ignored). The parts of one answer share its sequence and count, and each new answer's id is
   * greater than every earlier one's in the epoch. Checked as the producer sends them, before the
   * runner's link can drop or reorder anything.
   */
  private checkSnapshot(snapshot: ectp.v1.ISnapshot): void {
    const id = Number(snapshot.snapshotId ?? 0);
    const parts = Math.max(1, snapshot.parts ?? 0);
    const part = snapshot.part ?? 0;
    const sequence = Number(snapshot.sequence ?? 0);
    const at = `at t=${this.now} (epoch ${this.producerEpoch})`;
    if (part >= parts) throw new Violation(`[E2] the producer's snapshot ${id} has part ${part} of ${parts} ${at}: parts are numbered 0 to parts - 1`);
    let a = this.assembling.get(id);
    if (a === undefined) {
      if (id <= this.lastSnapshotId)
        throw new Violation(`[E2] the producer's snapshot answer ${at} has snapshot_id ${id}, not greater than an earlier answer's ${this.lastSnapshotId}`);
      this.lastSnapshotId = id;
      if (parts === 1) {
        this.checkWholeSnapshot(id, sequence, snapshot.items ?? []);
        return;
      }
      a = { sequence, parts, items: new Map() };
      this.assembling.set(id, a);
    } else if (parts !== a.parts || sequence !== a.sequence)
      throw new Violation(`[E2] the producer's snapshot ${id} sent a part of ${parts} at sequence ${sequence} ${at} after one of ${a.parts} at sequence ${a.sequence}: the parts of one answer share both`);
    if (!a.items.has(part)) a.items.set(part, snapshot.items ?? []);
    if (a.items.size < a.parts) return;
    this.assembling.delete(id);
    this.exercised.snapshotsInParts++;
    const items: ectp.v1.IItemDescriptor[] = [];
    for (let i = 0; i < a.parts; i++) items.push(...(a.items.get(i) ?? []));
    this.checkWholeSnapshot(id, a.sequence, items);
  }

  /** [E2] A snapshot (all its parts) holds exactly the producer's ready set as of its sequence. */
  private checkWholeSnapshot(id: number, sequence: number, items: readonly ectp.v1.IItemDescriptor[]): void {
    this.exercised.snapshots++;
    const states = this.epochs.get(this.producerEpoch)?.states ?? [""];
    const expected = states[sequence];
    const got = stateOf(items.map(itemOf));
    if (expected === undefined)
      throw new Violation(`[E2] the producer sent snapshot ${id} at sequence ${sequence} of epoch ${this.producerEpoch}, past its last batch ${states.length - 1}, at t=${this.now}`);
    if (got !== expected)
      throw new Violation(`[E2] the producer's snapshot ${id} at sequence ${sequence} holds [${got}] at t=${this.now}; its batches up to ${sequence} hold [${expected}]`);
  }

  private async route(from: TesteeConnection, o: ectp.conformance.v1.IOutput): Promise<void> {
    const shape = outputProblem(o, `the ${from === this.producer ? "producer" : "subscriber"}'s poll at t=${this.now}, an output`);
    if (shape !== undefined) throw new Violation(shape);
    if (from === this.producer && o.eventBatch?.batch) {
      this.published(o.eventBatch.batch);
      this.resends.published.add(Number(o.eventBatch.batch.sequence ?? 0));
      return;
    }
    const envelope = o.send?.envelope;
    if (o.send && !envelope)
      throw new Violation(`${from === this.producer ? PRODUCER : SUBSCRIBER} reported a send to ${String(o.send.to)} without its envelope at t=${this.now} (TESTEE-PROTOCOL.md §5.2: raw comes beside it)`);
    if (!envelope) return; // connect/disconnect: the runner's link needs no metadata
    const toSubscriber = from === this.producer;
    if (o.send?.to !== (toSubscriber ? SUBSCRIBER : PRODUCER)) return;
    const sender = toSubscriber ? PRODUCER : SUBSCRIBER;
    // TESTEE-PROTOCOL.md §5.2: version, sender_id and sender_epoch filled in (the peer drops an envelope without them).
    const epoch = toSubscriber ? this.producerEpoch : 1;
    if (Number(envelope.version?.major ?? 0) !== SPEC_MAJOR || envelope.senderId !== sender || Number(envelope.senderEpoch ?? 0) !== epoch)
      throw new Violation(`${sender} sent an envelope without version ${SPEC_MAJOR}.x, sender_id ${sender} and sender_epoch ${epoch} at t=${this.now} (TESTEE-PROTOCOL.md §5.2)`);
    if (toSubscriber && envelope.snapshot) this.snapshotsSent.push(envelope.snapshot);
    // [E2] Noted as the producer sends it, before the link below drops, duplicates or delays it.
    if (toSubscriber && envelope.eventBatch) this.resends.sent.push(Number(envelope.eventBatch.sequence ?? 0));
    if (toSubscriber && envelope.replayUnavailable) this.exercised.replaysUnavailable++;
    if (!toSubscriber) this.checkGreeting(envelope);
    const problem = sendProblem(o.send, envelopeJson(envelope), this.features.has("raw-outputs"), `${sender}'s send to ${String(o.send.to)} at t=${this.now}`);
    if (problem !== undefined) throw new Violation(problem);
    // Feature raw-messages: the peer decodes the bytes the sender's own encoder made (see deliver).
    const raw = this.features.has("raw-messages") && o.send.raw?.length ? o.send.raw : undefined;
    const to = toSubscriber ? this.subscriber : this.producer;
    const r = this.rng;
    const f = this.faults;
    const cut = !this.healed && this.now >= f.cutFrom && this.now < f.cutTo;
    const copies = this.healed ? 1 : cut ? 0 : r.chance(f.drop) ? 0 : r.chance(f.dup) ? 2 : 1;
    const delays: number[] = [];
    for (let k = 0; k < copies; k++) delays.push(this.healed ? 1 : 1 + r.int(f.maxDelay));
    // A snapshot part lost on top, decided after every draw of the link's (those stay as they were).
    const lost = copies > 0 && toSubscriber && (envelope.snapshot?.parts ?? 0) > 1 && !this.healed && this.partLoss.chance(this.lostPart);
    if (cut) this.exercised.cutMessages++;
    else if (copies === 0 || lost) this.exercised.dropped++;
    else if (copies === 2) this.exercised.duplicated++;
    if (!lost) for (const delay of delays) this.at(this.now + delay, async () => this.deliver(to, sender, envelope, raw));
    if (!toSubscriber && (envelope.snapshotRequest || envelope.replayRequest) && !this.healed && !cut && this.late.chance(this.lateCopy)) {
      this.exercised.lateCopies++;
      this.at(this.now + 500 + this.late.int(2000), async () => this.deliver(to, sender, envelope, raw));
    }
  }

  /**
   * Hand an envelope to a testee: as `raw`, the bytes the sender's encoder made of it, when given.
   * Before the subscriber first hears of a newer producer epoch, what it queued until then is
   * polled out: its next message is then the first it sends knowing that epoch (see
   * {@link SubscriberSchedule.checkGreeting}).
   */
  private async deliver(to: TesteeConnection, from: string, envelope: ectp.v1.IEnvelope, raw?: Uint8Array): Promise<void> {
    const epoch = Number(envelope.senderEpoch ?? 0);
    if (to === this.subscriber && epoch > this.subscriberKnows) {
      await this.pollUntilQuiet(this.subscriber);
      // It knew an older epoch and has sent no Hello since this one started: it has not greeted it.
      if (this.subscriberKnows > 0 && !this.helloSinceRestart) this.helloOwed = epoch;
      this.subscriberKnows = epoch;
    }
    if (to === this.producer && envelope.replayRequest) {
      const asked = Math.max(1, Number(envelope.replayRequest.fromSequence ?? 0)); // [E2] 0 means 1
      this.replaysOpen.set(asked, (this.replaysOpen.get(asked) ?? 0) + 1);
    }
    await this.cmd(to, { deliverMessage: raw === undefined ? { from, envelope } : { from, raw } });
    // [P8] It now knows the producer's epoch (SPEC.md section 4): from here a Heartbeat is owed.
    if (to === this.subscriber && epoch === this.producerEpoch && this.following && this.heartbeatsOwedSince === undefined)
      this.heartbeatsOwedSince = this.now;
  }

  /**
   * SPEC.md section 4: a subscriber's first message to each producer epoch is its Hello. Its very
   * first message must be one; after a restart, what it sends before it hears of the new epoch
   * cannot be told apart from messages to the old one, so the rule is checked once it has heard:
   * unless a Hello of its went out after the restart (it reached the new epoch, knowingly or not),
   * its next message must be a Hello.
   */
  private checkGreeting(envelope: ectp.v1.IEnvelope): void {
    const first = !this.greeted;
    if ((first || this.helloOwed !== 0) && !envelope.hello)
      throw new Violation(
        `the subscriber's first message ${first ? "to the producer" : `since it heard of the producer's epoch ${this.helloOwed}, which it had not greeted,`} is a ${envelopeBodyName(envelope) ?? "message without a body"}, not a Hello (SPEC.md section 4: a Hello first to each producer epoch) at t=${this.now}`,
      );
    this.greeted = true;
    this.helloOwed = 0;
    if (envelope.hello) this.helloSinceRestart = true;
    if (envelope.heartbeat) {
      this.checkHeartbeatDue("sent it a Heartbeat");
      if (this.following) this.heartbeatsOwedSince = this.now;
    } else if (envelope.hello) this.heartbeatsOwedSince = undefined;
  }

  /**
   * [P8] SPEC.md section 4.7: a subscriber sends each producer it follows and knows (it heard from
   * its epoch) a Heartbeat at least once per interval, whatever else it sends. The only pause
   * allowed is after it took the producer for gone, and that pause ends with a new Hello (its first
   * message to the producer again), after which it owes none until it hears from the producer. So
   * when it sends a Heartbeat, or once it says its view is current, its interval began at most one
   * interval (and the grace) ago.
   */
  private checkHeartbeatDue(what: string): void {
    const since = this.heartbeatsOwedSince;
    if (since === undefined || this.now - since <= SUBSCRIBER_HEARTBEAT_MS + HEARTBEAT_GRACE_MS) return;
    throw new Violation(
      `[P8] the subscriber ${what} at t=${this.now}, ${this.now - since} ms after its last Heartbeat to the producer, or since it heard from the producer's epoch after its last Hello (t=${since}) (SPEC.md section 4.7: a Heartbeat to each producer it follows and knows at least once per heartbeat interval, ${SUBSCRIBER_HEARTBEAT_MS} ms here, whatever else it sends)`,
    );
  }

  /** The subscriber's view of the producer: whether it says it is synced, and its items as a state. */
  private async view(): Promise<{ synced: boolean; state: string }> {
    const res = await this.cmd(this.subscriber, { getView: { producerId: PRODUCER } });
    if (!res.view) throw new Violation(`the subscriber answered getView without a ViewResult at t=${this.now} (TESTEE-PROTOCOL.md §6)`);
    return { synced: res.view.synced === true, state: stateOf((res.view.items ?? []).map(itemOf)) };
  }

  /** [E2] A view the subscriber says is synced is a set the producer held after some batch (never a mixture). */
  private async checkView(): Promise<void> {
    const v = await this.view();
    if (!v.synced) return;
    this.exercised.viewsChecked++;
    if (!this.statesSeen.has(v.state))
      throw new Violation(
        `[E2] the subscriber's synced view at t=${this.now} is [${v.state}], a set the producer never held after any of its batches (it holds [${stateOf(this.epochs.get(this.producerEpoch)?.current.values() ?? [])}] now, epoch ${this.producerEpoch}; items are name/size/epoch/location)`,
      );
  }

  private async subscriberStats(): Promise<ectp.conformance.v1.ISubscriberStats> {
    const s = (await this.cmd(this.subscriber, { getStats: {} })).stats?.subscriber;
    if (!s) throw new Violation(`the subscriber's Stats lack Stats.subscriber at t=${this.now} (TESTEE-PROTOCOL.md §5.3)`);
    return s;
  }

  private async finalChecks(): Promise<void> {
    // A producer that refuses every PutItem publishes nothing, and every view check would pass vacuously.
    if (this.itemsStored === 0) throw new Violation("[E1] the producer stored none of the items put in the whole schedule (PutItem always failed): it published nothing to follow");
    // [E2] The link healed HEAL_MS ago: the view is the producer's set now.
    const expected = stateOf(this.epochs.get(this.producerEpoch)?.current.values() ?? []);
    const v = await this.view();
    if (!v.synced || v.state !== expected)
      throw new Violation(
        `[E2] ${HEAL_MS / 1000} s after the link healed (t=${this.now}) the subscriber's view is ${v.synced ? "synced" : "not synced"}, holding [${v.state}]; the producer (epoch ${this.producerEpoch}) holds [${expected}]`,
      );
    // [P8] Synced, it takes the producer for alive: its heartbeats must be flowing.
    this.checkHeartbeatDue("says its view is current");
    if (this.recommended) await this.recommendedChecks();
    // [I4] Unfollowed, it holds nothing, however long the link stays up.
    await this.cmd(this.subscriber, { unfollow: { producerId: PRODUCER } });
    this.following = false; // [P8] no business with the producer any more: no Heartbeat is owed
    this.heartbeatsOwedSince = undefined;
    await this.runUntil(this.now + AFTER_UNFOLLOW_MS);
    const last = await this.subscriberStats();
    const left = (["producers", "heldBatches", "snapshotParts"] as const).filter((k) => Number(last[k]) !== 0);
    if (left.length > 0)
      throw new Violation(`[I4] ${AFTER_UNFOLLOW_MS / 1000} s after unfollowing its only producer the subscriber still reports ${left.map((k) => `${k} ${Number(last[k])}`).join(", ")} (t=${this.now})`);
  }

  /** [E2] RECOMMENDED: once current it counts itself synced, and it asks a quiet producer for no snapshot. */
  private async recommendedChecks(): Promise<void> {
    const before = await this.subscriberStats();
    if (Number(before.synced) !== 1)
      throw new Violation(`[E2] ${HEAL_MS / 1000} s after the link healed (t=${this.now}) SubscriberStats.synced is ${Number(before.synced)}, not 1 (a request still open, or the producer taken for gone)`);
    await this.runUntil(this.now + QUIET_MS);
    const after = await this.subscriberStats();
    const asked = Number(after.snapshotRequests) - Number(before.snapshotRequests);
    if (asked > 0) throw new Violation(`[E2] the subscriber, synced with a quiet producer, sent ${asked} SnapshotRequests in ${QUIET_MS / 1000} s (t=${this.now})`);
  }
}

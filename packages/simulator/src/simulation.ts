/**
 * The simulated deployment: encoders (producers) with bounded stores, an orchestrator,
 * prefill/decode engines (consumers) admitting once per engine step, and a closed-loop
 * client at fixed concurrency, all on the virtual time of a {@link MockNetwork}.
 *
 * One event loop jumps to the next due time: the earliest of the network's next event,
 * every core's `nextDeadline()`, the next engine step of a consumer with waiting
 * requests, and the simulator's own timers (encode and service completions, crashes,
 * restarts, cancel storms). Nothing here uses wall-clock time or `Math.random`, so a
 * seed replays exactly.
 *
 * Beside it: the checks of the options (config-check.ts), the ReadRequests a producer's pump
 * must answer (answer-ledger.ts), the grants on the wire (grant-ledger.ts), the timers
 * (timer-heap.ts) and the counters of the cores (counter-sink.ts).
 * @module
 */
import {
  type AdmitItem,
  type AdmitRequest,
  type ConsumerOptions,
  ConsumerCore,
  type CoreOutput,
  type DestinationPool,
  type FailedRequest,
  type ItemDecision,
  type MemoryRegion,
  MemoryItemStore,
  ProducerCore,
  type ReadDestination,
  type ReadResult,
  SeededRandom,
} from "@ectp/core";
import { EctpError, SPEC_MAJOR, crc32c, decodeEnvelope, ectp, encodeEnvelope, envelopeBodyName, itemKeyId, tryItemKeyId } from "@ectp/protocol";
import { AnswerLedger } from "./answer-ledger.js";
import { PLANTABLE, configOnly, inputProblems, invalidOptions, setupProblem, stallMsOf } from "./config-check.js";
import { CounterSink } from "./counter-sink.js";
import { type FaultProfile, faultPreset } from "./faults.js";
import { GrantLedger } from "./grant-ledger.js";
import type { ConsumerLike, CoreFactories, ProducerLike } from "./hooks.js";
import { MillisHistogram } from "./histogram.js";
import { InvariantChecker, type InvariantId } from "./invariants.js";
import { createNetwork } from "./network.js";
import type { MockNetwork, MockReceivedMessage, MockTransport } from "@ectp/transport-mock";
import { DEFAULT_SIMULATION_CONFIG, SIMULATION_LIMITS, type SimulationConfig, type SimulationOptions } from "./options.js";
import { BytePool, ByteSlab, patternEquals, patternInto } from "./payload.js";
import { SeriesRecorder } from "./series.js";
import { type SimulationResult, type SimulationSummary, reproduceCommand } from "./summary.js";
import { type Timer, TimerHeap } from "./timer-heap.js";
import { type WorkloadItem, WorkloadGenerator } from "./workload.js";

/** The model fingerprint every simulated instance shares. */
const FINGERPRINT: ectp.v1.IFingerprint = Object.freeze({
  model: "sim/vision-encoder",
  dtype: ectp.v1.Dtype.DTYPE_BFLOAT16,
  rowBytes: 5120,
  layoutVersion: 1,
});

/** Item ids of a request's first items (shared strings instead of one per request). */
const ITEM_IDS: readonly string[] = Array.from({ length: 16 }, (_, k) => `i${k}`);

/** Most rounds of the loop without a natural advance of time before it counts as a livelock [I1]. */
const MAX_SAME_INSTANT = 100_000;
/** Rounds at one instant before time is nudged forward. */
const SAME_INSTANT_BEFORE_NUDGE = 10;
/** The nudge: one microsecond of simulated time. */
const NUDGE_MS = 0.001;
/** Wall time between the run's turns given to the event loop (signal handlers, timers), ms. */
const YIELD_EVERY_MS = 50;
/** Initial arrivals between two readings of the wall clock for `YIELD_EVERY_MS` (a power of two). */
const ARRIVALS_PER_CLOCK_CHECK = 1024;

/** A request while it is alive. Dropped when it ends: nothing per request survives it. */
interface Req {
  readonly id: string;
  readonly items: WorkloadItem[];
  readonly admit: AdmitItem[];
  /** The consumer it goes to (another one when that one is down at forwarding time). */
  consumer: number;
  readonly arrivedAt: number;
  /** Encodes (or joins) still outstanding before the orchestrator can forward. */
  pending: number;
  forwarded: boolean;
  atConsumer: number;
  firstAdmitAt: number;
  lateReported: boolean;
  /** Decisions of the request's latest (deferred) admission, compared by identity. */
  decided: readonly ItemDecision[] | undefined;
  /** What the engine passes to `admit` at every step (built once: its items never change after forwarding). */
  readonly request: AdmitRequest;
  /** Destinations of its loaded items, which the engine uses until it finishes the request [C6]. */
  loaded: ReadDestination[] | undefined;
  /**
   * Ended by its consumer's crash: waiting there or not yet forwarded (its outcome, `lostInCrash`,
   * counted then), or in service (outcome counted at admission; its service timer then does nothing).
   */
  lost: boolean;
}

/** An encode in progress on a producer. */
interface Encoding {
  readonly p: ProducerNode;
  readonly keyId: string;
  /** The producer's epoch when it started (a crash makes it stale). */
  readonly epoch: number;
  /** Waiting (request, item index) pairs, flat: request, index, request, index, ... */
  readonly waiters: (Req | number)[];
}

/** An encoder instance. */
interface ProducerNode {
  /** Tells it from a {@link ConsumerNode} (the simulator handles the two apart: grants, answers, reads). */
  readonly kind: "producer";
  readonly id: string;
  readonly index: number;
  epoch: number;
  up: boolean;
  /** Shut down for a planned restart [P7]: the orchestrator sends it no work; it stops at its reuse time. */
  shuttingDown: boolean;
  transport: MockTransport;
  store: MemoryItemStore;
  core: ProducerLike;
  /** Its grants as the wire shows them, checked against the store's pins [I3]. */
  readonly grants: GrantLedger;
  regions: Map<string, MemoryRegion>;
  /** Encodes in progress, by key id, with the orchestrator requests waiting for them. */
  encoding: Map<string, Encoding>;
  /** Has input not yet polled. */
  dirty: boolean;
  /** Polled this round ([I3] is checked after). */
  polled: boolean;
  /** The core's `nextDeadline()` as of its last call; valid while `stale` is false. */
  deadline: number | undefined;
  /** Set by every call that may change the core's state (and so its deadline). */
  stale: boolean;
  /** Set with `stale`; a consumer's engine step clears it (see {@link Simulation.engineStep}). */
  changed: boolean;
}

/** A prefill/decode instance. */
interface ConsumerNode {
  /** Tells it from a {@link ProducerNode}. */
  readonly kind: "consumer";
  readonly id: string;
  readonly index: number;
  /** Its epoch: 1, then one more per restart after a crash [P8]. */
  readonly epoch: number;
  /** False from its crash until the instance that replaces it starts. */
  up: boolean;
  readonly transport: MockTransport;
  readonly core: ConsumerLike;
  readonly pool: SimDestinationPool;
  readonly waiting: Map<string, Req>;
  /** Admitted requests in prefill/decode until their service ends, by id. */
  readonly running: Map<string, Req>;
  nextStepAt: number | undefined;
  /** Has input not yet polled. */
  dirty: boolean;
  /** The core's `nextDeadline()` as of its last call; valid while `stale` is false. */
  deadline: number | undefined;
  /** Set by every call that may change the core's state (and so its deadline). */
  stale: boolean;
  /** Set with `stale`; a consumer's engine step clears it (see {@link Simulation.engineStep}). */
  changed: boolean;
  /**
   * The last engine step was a pure re-admission: every waiting request had been admitted
   * before and got back the very same (deferred) decisions, nothing failed or proceeded.
   */
  quiet: boolean;
  /**
   * No unreported waiting request was first admitted before this time (a lower bound;
   * see {@link Simulation.checkLate}). Starts at 0, the start of time.
   */
  lateOldest: number;
}

/**
 * The consumer's destination memory: one registered region per allocation, bounded by
 * a nominal capacity. `release` asserts [I5] against the network's record of reads that
 * may still write: a destination released while such a read exists is a violation.
 */
class SimDestinationPool implements DestinationPool {
  private used = 0;
  private readonly live = new Set<number>();
  /** Regions the engine was told hold a loaded item, with how many running requests use each [C6]. */
  private readonly inUse = new Map<number, number>();
  /** Destination buffers: zeroed arrays from shared slabs, recycled once deregistered. */
  private readonly slab = new BytePool();
  /** Set after construction (the pool is created before its transport's node). */
  transport!: MockTransport;

  constructor(
    private readonly sim: Simulation,
    private readonly endpointId: string,
    private readonly capacity: number,
  ) {}

  allocate(_keyId: string, sizeBytes: number): ReadDestination | undefined {
    if (this.used + sizeBytes > this.capacity) return undefined;
    const region = this.transport.registerMemory(this.slab.take(sizeBytes));
    this.used += sizeBytes;
    this.live.add(region.id);
    return { region, offset: 0, length: sizeBytes };
  }

  release(destination: ReadDestination): void {
    const id = destination.region.id;
    if (!this.live.has(id)) {
      this.sim.violation("I5", `${this.endpointId} released destination region ${id} twice (or one it never allocated)`);
      return;
    }
    // [C6] a loaded item's bytes stay held until the engine finishes the request using them.
    if (this.inUse.has(id))
      this.sim.violation("I6", `${this.endpointId} released destination region ${id} while the engine still uses its loaded bytes [C6]`);
    // [I5] nothing may be freed or reused while a read may still write into it.
    const unsafe = this.sim.net.hasUnsettledWriteInto(this.endpointId, destination.region, destination.offset, destination.length);
    if (unsafe) this.sim.violation("I5", `${this.endpointId} released destination region ${id} while a read may still write into it`);
    this.live.delete(id);
    this.used -= destination.length;
    // The network reports the same deregistration as unsafe: one violation, counted here.
    this.sim.reportedDeregistration = unsafe ? { endpointId: this.endpointId, regionId: id } : undefined;
    try {
      this.transport.deregisterMemory(destination.region);
    } finally {
      this.sim.reportedDeregistration = undefined;
    }
    // Deregistered: the transport never writes into it again [I5], so it can be recycled (zeroed when handed out).
    this.slab.give(destination.region.bytes);
  }

  /** The engine starts using a loaded destination (a running request's item). */
  hold(destination: ReadDestination): void {
    const id = destination.region.id;
    this.inUse.set(id, (this.inUse.get(id) ?? 0) + 1);
  }

  /** The engine stops using it (the request ends, before the core is told). */
  unhold(destination: ReadDestination): void {
    const id = destination.region.id;
    const n = (this.inUse.get(id) ?? 0) - 1;
    if (n > 0) this.inUse.set(id, n);
    else this.inUse.delete(id);
  }

  /** Whether the region is allocated from this pool and not released. */
  isLive(regionId: number): boolean {
    return this.live.has(regionId);
  }

  /** Whether the engine uses the region's bytes now. */
  inUseByEngine(regionId: number): boolean {
    return this.inUse.has(regionId);
  }

  view(destination: ReadDestination): Uint8Array | undefined {
    return destination.region.bytes.subarray(destination.offset, destination.offset + destination.length);
  }

  get allocated(): number {
    return this.live.size;
  }
}

/**
 * One simulation run. Use {@link runSimulation}; the class is exported for tests that
 * need to poke at a run in progress.
 */
export class Simulation {
  /** The configuration in effect. */
  readonly config: SimulationConfig;
  /** The mock network. */
  readonly net: MockNetwork;
  private readonly faults: FaultProfile;
  private readonly checker: InvariantChecker;
  private readonly counters = new CounterSink();
  private readonly timers = new TimerHeap();
  private readonly rngWorkload: SeededRandom;
  private readonly rngOrch: SeededRandom;
  private readonly rngFaults: SeededRandom;
  private readonly workload: WorkloadGenerator;
  private readonly producers: ProducerNode[] = [];
  private readonly consumers: ConsumerNode[] = [];
  private readonly factories: CoreFactories;
  /**
   * Sampled in every run, kept or not: a sample calls each consumer's `stats()`, and a factory
   * core's `stats()` may throw (an [I1] violation) or count its calls, so a run without time
   * series must make the same calls to report the same violations and event-log hash.
   */
  private readonly series: SeriesRecorder;
  /** Whether {@link Simulation.run} returns the samples (`timeSeries`, default true). */
  private readonly keepSeries: boolean;
  private readonly waits = new MillisHistogram();
  private readonly onProgress: ((done: number, total: number) => void) | undefined;
  /** Encoded item bytes held by producers' stores, from shared slabs, recycled once released by a store. */
  private readonly itemSlab = new BytePool();
  /** Small long-lived arrays (checksum values), carved from shared slabs and never recycled. */
  private readonly smallBytes = new ByteSlab(4096, 4096);
  /** Whether a quiet engine step may be skipped (see {@link Simulation.engineStep}). */
  private readonly skipQuietSteps: boolean;
  /** Whether sent envelopes travel with their bytes to be handed to the receiver (see {@link SimulationOptions.decodeMessages}). */
  private readonly handOver: boolean;
  /** [P1][I1] The ReadRequests handed to the producer in the pump in progress, and their answers. */
  private readonly asked = new AnswerLedger();

  private now = 0;
  /** Live nodes by endpoint id (a restarted producer replaces its entry). */
  private readonly nodes = new Map<string, ProducerNode | ConsumerNode>();
  private rounds = 0;
  private nudges = 0;
  private quietStepsSkipped = 0;
  /** `run()` was called: a run's counters and checks start from nothing, so it runs once. */
  private started = false;
  private connects: Promise<void>[] = [];
  private issued = 0;
  /** Whether {@link Simulation.requestArrival} is making an arrival (a nested one is owed). */
  private arriving = false;
  /** Arrivals owed by requests that ended inside an arrival. */
  private owedArrivals = 0;
  /** When a request last arrived or ended. */
  private lastProgressAt = 0;
  private ended = 0;
  private lastEndAt = 0;
  private progressStep: number;
  private outcomes = { succeededRemote: 0, fellBackLocal: 0, failed: 0, cancelled: 0, lostInCrash: 0 };
  private readonly failedByReason = new Map<string, number>();
  private itemsRemote = 0;
  private itemsLocal = 0;
  private nominalRead = 0;
  private actualRead = 0;
  /** Faults the simulator injects itself (the network counts its own). */
  private simFaults = {
    producerCrash: 0,
    producerShutdown: 0,
    consumerCrash: 0,
    cancelStorm: 0,
    invalidAnnouncement: 0,
    earlyAnnouncement: 0,
  };
  private producerRestarts = 0;
  private consumerRestarts = 0;
  /** Consumer restarts scheduled and not made yet. */
  private consumerRestartsDue = 0;
  /** Requests the orchestrator holds while every consumer is down (see `toConsumer`). */
  private heldForRestart: Req[] = [];
  private storeEvents = { evictions: 0, storeFull: 0 };

  /**
   * @param options - what to simulate; see {@link SimulationOptions}.
   * @throws EctpError(INVALID_ARGUMENT) when an option is out of range or a hook is not callable
   *   (the problems {@link validateConfig} reports), or when the cores, stores or network refuse
   *   the configuration.
   */
  constructor(options: SimulationOptions = {}) {
    // Checked here too, not only by runSimulation: a Simulation built directly with `producers: 0`
    // failed later with a TypeError from inside its first step.
    const problems = inputProblems(options);
    if (problems.length > 0) throw invalidOptions(problems);
    const { onProgress, factories, eventLog, timeSeries, readmitEveryStep, decodeMessages, ...rest } = options;
    const cfg: SimulationConfig = { ...DEFAULT_SIMULATION_CONFIG };
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) (cfg as unknown as Record<string, unknown>)[k] = v;
    this.config = cfg;
    this.faults = typeof cfg.faults === "string" ? faultPreset(cfg.faults) : cfg.faults;
    this.factories = factories ?? {};
    this.skipQuietSteps = readmitEveryStep !== true && this.factories.consumer === undefined;
    this.handOver =
      decodeMessages !== true && this.factories.consumer === undefined && this.factories.producer === undefined;
    this.onProgress = onProgress;
    this.progressStep = Math.max(1, Math.floor(cfg.requests / 100));
    this.checker = new InvariantChecker(eventLog);
    this.series = new SeriesRecorder(cfg.sampleIntervalMs);
    this.keepSeries = timeSeries !== false;
    const root = new SeededRandom(cfg.seed);
    this.rngWorkload = root.fork();
    this.rngOrch = root.fork();
    this.rngFaults = root.fork();
    const rngNet = root.fork();
    const rngCores = root.fork();
    this.workload = new WorkloadGenerator(this.rngWorkload, cfg);
    this.net = createNetwork({
      seed: rngNet.nextUint32(),
      faults: this.faults,
      bytesPerMs: cfg.linkBytesPerSecond / 1000 / cfg.byteScale,
      latencyMs: cfg.linkLatencyMs,
      stallMs: stallMsOf(cfg),
    });
    // Deliveries and settled reads are not observed: `due` asks each transport whether it
    // has input queued (MockTransport.hasActivity), which is the same condition without an
    // event object and a lookup per message.
    this.net.observe({
      onUnsafeDeregistration: (e) => {
        const reported = this.reportedDeregistration;
        if (reported !== undefined && reported.endpointId === e.endpointId && reported.regionId === e.regionId) return; // (the pool counted it)
        if (e.side === "destination")
          this.violation("I5", `${e.endpointId} deregistered region ${e.regionId} while ${e.reads.length} read(s) could still write into it`);
      },
    });
    for (let i = 0; i < cfg.producers; i++) this.producers.push(this.startProducer(i, 1));
    for (let i = 0; i < cfg.consumers; i++) this.consumers.push(this.startConsumer(i, rngCores.nextUint32()));
  }

  /**
   * [I5] The destination region the consumer's pool is deregistering after reporting the violation
   * itself, so that the network's report of the same deregistration is not counted again.
   * @internal
   */
  reportedDeregistration: { endpointId: string; regionId: number } | undefined = undefined;

  /** Report a violation of an invariant (or producer rule) at the current time (used by the destination pool). */
  violation(invariant: InvariantId, message: string): void {
    this.checker.violate(invariant, this.now, message);
  }

  // ---------------------------------------------------------------- setup

  private startProducer(index: number, epoch: number, transport?: MockTransport): ProducerNode {
    const id = `p${index}`;
    const t = transport ?? this.net.endpoint(id);
    const regions = new Map<string, MemoryRegion>();
    const capacity = Math.max(
      1,
      Math.floor((this.config.producerCapacityBytes * this.faults.memoryPressure) / this.config.byteScale),
    );
    const store = new MemoryItemStore({
      capacityBytes: capacity,
      locate: (keyId, bytes) => {
        const r = t.registerMemory(bytes);
        regions.set(keyId, r);
        return t.describe(r, 0, bytes.length);
      },
      release: (keyId) => {
        const r = regions.get(keyId);
        if (r) {
          // (A crash's or a stop's clear comes after the node is down: a reset may drop pinned items [P6].)
          if (node.up) this.checkFreed(node, keyId);
          regions.delete(keyId);
          t.deregisterMemory(r);
          // Evicted or cleared: no grant can name it any more and reads of it fail, so its bytes are recycled.
          this.itemSlab.give(r.bytes);
        }
      },
    });
    store.subscribe((c) => {
      if (c.kind === "removed" && c.cause === "evicted") this.storeEvents.evictions++;
    });
    const seen = this.factories.store ? this.factories.store(store) : store;
    const options = {
      id,
      epoch,
      fingerprint: FINGERPRINT,
      store: seen,
      transportMetadata: t.localMetadata(),
      config: this.config.producerConfig,
      metrics: this.counters,
    };
    const core = this.factories.producer ? this.factories.producer(options) : new ProducerCore(options);
    const node: ProducerNode = {
      kind: "producer",
      id,
      index,
      epoch,
      up: true,
      shuttingDown: false,
      transport: t,
      store,
      core,
      grants: new GrantLedger(),
      regions,
      encoding: new Map(),
      dirty: true,
      polled: false,
      deadline: undefined,
      stale: true,
      changed: true,
    };
    this.nodes.set(id, node);
    return node;
  }

  private startConsumer(index: number, seed: number, epoch = 1, restartedTransport?: MockTransport): ConsumerNode {
    const id = `c${index}`;
    const transport = restartedTransport ?? this.net.endpoint(id);
    const pool = new SimDestinationPool(
      this,
      id,
      Math.max(1, Math.floor(this.config.consumerCapacityBytes / this.config.byteScale)),
    );
    pool.transport = transport;
    const options: ConsumerOptions = {
      id,
      epoch,
      fingerprint: FINGERPRINT,
      destinations: pool,
      transportMetadata: transport.localMetadata(),
      config: {
        ...this.config.consumerConfig,
        waitBudgetMs: this.config.budgetMs,
        // Sizes are scaled down; the largest real item is maxItemBytes / byteScale.
        maxItemBytes: Math.max(1, Math.ceil(this.config.maxItemBytes / this.config.byteScale)),
      },
      seed,
      metrics: this.counters,
    };
    const core = this.factories.consumer ? this.factories.consumer(options) : new ConsumerCore(options);
    const node: ConsumerNode = {
      kind: "consumer",
      id,
      index,
      epoch,
      up: true,
      transport,
      core,
      pool,
      waiting: new Map(),
      running: new Map(),
      nextStepAt: undefined,
      quiet: false,
      lateOldest: 0,
      dirty: true,
      deadline: undefined,
      stale: true,
      changed: true,
    };
    this.nodes.set(id, node);
    return node;
  }

  // ---------------------------------------------------------------- main loop

  /**
   * Run to the end and return the summary and time series. Async so that connect promises of
   * the mock settle between loop iterations (at the same simulated time), and so that the
   * process's event loop (a signal handler, say) gets a turn every 50 ms (`YIELD_EVERY_MS`) of
   * wall time; neither changes the run, which reads no real time.
   * @throws EctpError(INVALID_ARGUMENT) when called a second time: a Simulation runs once (its
   *   requests, counters and invariant checks would carry over); make a new one for another run.
   */
  async run(): Promise<SimulationResult> {
    if (this.started)
      throw new EctpError("INVALID_ARGUMENT", "Simulation.run() was called a second time: a Simulation runs once; make a new Simulation (or call runSimulation) for another run");
    this.started = true;
    const wallStart = performance.now();
    let yieldedAt = wallStart;
    const cfg = this.config;
    const first = Math.min(cfg.concurrency, cfg.requests);
    for (let i = 0; i < first; i++) {
      this.requestArrival();
      // (Up to 10^5 first arrivals at a large concurrency: a signal is heard meanwhile too.)
      if ((i & (ARRIVALS_PER_CLOCK_CHECK - 1)) === ARRIVALS_PER_CLOCK_CHECK - 1 && performance.now() - yieldedAt >= YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        yieldedAt = performance.now();
      }
    }
    const upProducers = () => this.producers.filter((p) => p.up);
    const upConsumers = () => this.consumers.filter((c) => c.up);
    this.scheduleRecurring(this.faults.crashesPerMinute, upProducers, (p) => this.crash(p));
    this.scheduleRecurring(
      this.faults.producerShutdownsPerMinute,
      () => this.producers.filter((p) => p.up && !p.shuttingDown),
      (p) => this.shutDown(p),
    );
    this.scheduleRecurring(this.faults.consumerCrashesPerMinute, upConsumers, (c) => this.crashConsumer(c));
    this.scheduleRecurring(this.faults.cancelStormsPerMinute, upConsumers, (c) => this.cancelStorm(c));
    let draining = false;
    let drainUntil = Number.POSITIVE_INFINITY;
    let sameInstant = 0;
    // [I2] A request ends within its wait budget, its encodes (the producer's, and the consumer's
    // local ones), its service time, a producer restart and a few steps of arriving, so in a
    // healthy run some request arrives or ends at least that often. A core that keeps requests
    // waiting for good (holding every slot, so none arrives either) must not keep the loop running
    // for good: past that bound plus the drain the run stops, and finalChecks counts the lost ones.
    const stuckAfterMs =
      cfg.budgetMs + (cfg.maxItemsPerRequest + 1) * cfg.encodeTimeMs + cfg.serviceTimeMs + this.faults.restartDelayMs + 4 * cfg.stepMs + cfg.maxDrainMs;
    for (;;) {
      if (!draining && this.ended >= cfg.requests) {
        draining = true;
        drainUntil = this.now + cfg.maxDrainMs;
        this.checker.event(this.now, "drain");
      }
      if (!draining && this.now >= this.lastProgressAt + stuckAfterMs) {
        draining = true;
        drainUntil = this.now;
        this.checker.event(this.now, "drain");
      }
      if (draining && (this.quiescent() || this.now >= drainUntil)) break;
      const next = this.nextTime();
      if (next === undefined) break;
      let t = Math.max(this.now, Math.min(this.onResolution(next), drainUntil));
      if (t === this.now) {
        // A core may keep reporting a deadline at "now" after being polled at now (e.g. a
        // float comparison that is off by one ulp). Real time would move on by itself;
        // virtual time must be nudged, and the nudges are counted in the summary.
        if (++sameInstant > SAME_INSTANT_BEFORE_NUDGE) {
          t = this.now + NUDGE_MS;
          this.nudges++;
        }
        if (sameInstant > MAX_SAME_INSTANT) {
          this.violation(
            "I1",
            `the loop made no progress after ${MAX_SAME_INSTANT} rounds (livelock; due now: ${this.dueSources().join(", ")})`,
          );
          break;
        }
      } else sameInstant = 0;
      this.now = t;
      this.rounds++;
      // The wall clock every round (a round can take long at a large concurrency; a reading is cheap beside it).
      if (performance.now() - yieldedAt >= YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        yieldedAt = performance.now();
      }
      this.net.advanceTo(t);
      while ((this.timers.peek() ?? Number.POSITIVE_INFINITY) <= t) {
        const timer = this.timers.pop() as Timer;
        timer.run(timer.arg);
      }
      // Only nodes with input (a delivery, a settled read, a possible unreachable notice)
      // or a due deadline are polled: a sans-IO core has nothing to say otherwise.
      // Indexed loops in the hot paths: a for-of over an array allocated an iterator result
      // per element wherever the loop was not optimized (baseline tiers, try/catch bodies).
      const producers = this.producers;
      for (let i = 0; i < producers.length; i++) {
        const p = producers[i] as ProducerNode;
        if (p.up && this.due(p)) this.pumpProducer(p);
      }
      const consumers = this.consumers;
      for (let i = 0; i < consumers.length; i++) {
        const c = consumers[i] as ConsumerNode;
        if (!c.up) continue;
        if (this.due(c)) this.pumpConsumer(c);
        if (c.nextStepAt !== undefined && c.nextStepAt <= t) this.engineStep(c);
      }
      if (this.connects.length > 0) {
        const pending = this.connects;
        this.connects = [];
        await Promise.allSettled(pending);
      }
      this.checkPins();
      this.series.maybeSample(t, this.sampleNow);
    }
    this.finalChecks();
    return { summary: this.summarize(performance.now() - wallStart), series: this.keepSeries ? this.series.result() : emptySeries() };
  }

  private nextTime(): number | undefined {
    let next = this.timers.peek() ?? Number.POSITIVE_INFINITY;
    const n = this.net.nextEventTime();
    if (n !== undefined && n < next) next = n;
    const producers = this.producers;
    for (let i = 0; i < producers.length; i++) {
      const p = producers[i] as ProducerNode;
      if (!p.up) continue;
      const d = this.deadlineOf(p);
      if (d !== undefined && d < next) next = d;
    }
    const consumers = this.consumers;
    for (let i = 0; i < consumers.length; i++) {
      const c = consumers[i] as ConsumerNode;
      if (!c.up) continue;
      const d = this.deadlineOf(c);
      if (d !== undefined && d < next) next = d;
      if (c.nextStepAt !== undefined && c.nextStepAt < next) next = c.nextStepAt;
    }
    return next === Number.POSITIVE_INFINITY ? undefined : next;
  }

  /**
   * A core's `nextDeadline()`. A sans-IO core's deadline changes only when it is called,
   * so the value is cached until the simulator next calls into that core (or its store):
   * every such call marks the node stale. Same answer as asking every round, fewer calls.
   */
  private deadlineOf(n: ProducerNode | ConsumerNode): number | undefined {
    if (!n.stale) return n.deadline;
    n.stale = false;
    try {
      n.deadline = n.core.nextDeadline();
    } catch (e) {
      n.deadline = undefined;
      this.threw(n.id, e);
    }
    return n.deadline;
  }

  /** Whether a node must be polled this round: it has input, or its deadline is due. */
  private due(n: ProducerNode | ConsumerNode): boolean {
    if (n.dirty || n.transport.hasActivity()) return true;
    const d = this.deadlineOf(n);
    return d !== undefined && d <= this.now;
  }

  /** What is due at the current instant (for the livelock diagnostic). */
  private dueSources(): string[] {
    const out: string[] = [];
    if ((this.timers.peek() ?? Number.POSITIVE_INFINITY) <= this.now) out.push("simulator timer");
    const n = this.net.nextEventTime();
    if (n !== undefined && n <= this.now) out.push(`network event at ${n}`);
    for (const p of this.producers) {
      const d = p.up ? this.deadlineOf(p) : undefined;
      if (d !== undefined && d <= this.now) out.push(`${p.id}.nextDeadline() = ${d}`);
    }
    for (const c of this.consumers) {
      if (!c.up) continue;
      const d = this.deadlineOf(c);
      if (d !== undefined && d <= this.now) out.push(`${c.id}.nextDeadline() = ${d}`);
      if (c.nextStepAt !== undefined && c.nextStepAt <= this.now) out.push(`${c.id} engine step`);
    }
    return out;
  }

  /** Run a core call; an exception is an [I1] violation, never a crash of the simulator. */
  private guard<T>(who: string, fn: () => T): T | undefined {
    try {
      return fn();
    } catch (e) {
      this.threw(who, e);
      return undefined;
    }
  }

  /** A core (or transport) call threw: an [I1] violation. Hot paths catch inline and call this. */
  private threw(who: string, e: unknown): void {
    this.violation("I1", `${who} threw: ${e instanceof Error ? e.message : String(e)}`);
  }

  private pumpProducer(p: ProducerNode): void {
    p.dirty = false;
    p.polled = true;
    p.stale = p.changed = true;
    this.asked.reset();
    const act = p.transport.poll();
    const now = this.now;
    this.deliverMessages(p, act.messages, now);
    this.finishPump(p, act.unreachable, now);
  }

  private pumpConsumer(c: ConsumerNode): void {
    c.dirty = false;
    c.stale = c.changed = true;
    const act = c.transport.poll();
    const now = this.now;
    const core = c.core;
    this.deliverMessages(c, act.messages, now);
    const reads = act.reads;
    for (let i = 0; i < reads.length; i++) {
      const r = reads[i] as ReadResult;
      try {
        core.handleReadResult(r, now);
      } catch (e) {
        this.threw(c.id, e);
      }
    }
    this.finishPump(c, act.unreachable, now);
  }

  /**
   * Hand received messages to a core: the envelope attached to the bytes (sent by a real
   * core, see `execute`) when there is one, else the bytes to decode.
   */
  private deliverMessages(node: ProducerNode | ConsumerNode, messages: readonly MockReceivedMessage[], now: number): void {
    const core = node.core;
    const producer = node.kind === "producer" ? node : undefined;
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i] as MockReceivedMessage;
      const asked = this.asked.count;
      if (producer !== undefined) this.noteToProducer(producer, m);
      try {
        const env = m.attachment as ectp.v1.IEnvelope | undefined;
        if (env !== undefined) core.handleEnvelope(m.from, env, now);
        else core.handleMessage(m.from, m.bytes, now);
      } catch (e) {
        // Its ReadRequest, if it was one, is excused from an answer: the throw is the violation.
        if (this.asked.count > asked) this.asked.excuse(asked);
        this.threw(node.id, e);
      }
    }
  }

  /**
   * A message about to be handed to a producer. [I3] A ReadComplete ends the grant it names, if its
   * sender holds it. A ReadRequest of the current major version with a valid attempt id and sender
   * epoch is noted for this pump: [P1] with what the store holds of its item now (ready or not: the
   * producer must not answer it NOT_FOUND, see {@link Simulation.noteReject}), and [I1] to be answered
   * by the pump's poll (see {@link Simulation.checkAnswered}). (An attachment comes only from a real
   * core; a planted core's messages arrive as bytes, decoded here.)
   */
  private noteToProducer(p: ProducerNode, m: MockReceivedMessage): void {
    let env = m.attachment as ectp.v1.IEnvelope | undefined;
    if (env === undefined) {
      const decoded = decodeEnvelope(m.bytes);
      if (!decoded.ok) return;
      env = decoded.value;
    }
    if (env.senderId !== m.from) return; // The producer ignores it [P2].
    // Another major gets a VERSION answer or none [V1]; a sender epoch that is not a positive integer, none [C10].
    const epoch = env.senderEpoch;
    const current = (env.version?.major ?? 0) === SPEC_MAJOR && typeof epoch === "number" && Number.isSafeInteger(epoch) && epoch > 0;
    // [P8] A newer epoch of the consumer voids the grants of its older ones: the producer may release them now.
    if (current) p.grants.newEpoch(m.from, epoch);
    const rc = env.readComplete;
    if (rc != null) {
      const grantId = rc.grantId;
      if (typeof grantId === "number") p.grants.complete(grantId, m.from);
      return;
    }
    const rr = env.readRequest;
    if (rr == null || !current) return;
    const attemptId = rr.attemptId;
    // Attempt id 0 (or none) is malformed and ignored, unanswered (SPEC.md 4.3).
    if (typeof attemptId !== "number" || !(attemptId > 0)) return;
    const keyId = tryItemKeyId(rr.key);
    // The simulator's own store, not the view a planted store wrapper gives the core. Absent (never
    // stored, evicted, discarded, lost in a restart): NOT_FOUND is the right answer. (A malformed key
    // is answered INTERNAL.)
    const entry = keyId === undefined ? undefined : p.store.get(keyId);
    // [I1] SPEC.md 4.3: a duplicate or stale request only against a grant of its epoch live as the
    // producer takes it; one ACKed before, or past its lease, is not (a late copy of its request is
    // owed an answer), nor one of the sender's older epoch [P8].
    const mayGoUnanswered = keyId !== undefined && p.grants.mayLeaveUnanswered(m.from, keyId, attemptId, this.now, epoch as number);
    // [P8] Stale as the producer takes it (SPEC.md 3.7): a newer epoch of its sender handed over
    // later in this pump leaves it owed its answer.
    const staleEpoch = (epoch as number) < p.grants.epochOf(m.from);
    this.asked.note(m.from, attemptId, keyId ?? "(malformed key)", entry, epoch as number, mayGoUnanswered, staleEpoch);
  }

  /**
   * [I1] After a producer's pump: each ReadRequest handed to it that its poll left without a ReadGrant
   * or ReadReject is a violation, unless SPEC.md 4.3 lets it go unanswered: one of a sender epoch older
   * than the greatest handed over before it (stale [P8]), or one that duplicates the attempt of a
   * grant of that consumer's epoch and item that may have been live when the producer took it, or is
   * older (stale; see {@link Simulation.noteToProducer} and {@link Simulation.noteGrant}). A producer that stops answering
   * stops serving; its consumers, left to their grant waits, would only fall back within their budgets.
   */
  private checkAnswered(p: ProducerNode): void {
    const asked = this.asked;
    for (let i = 0; i < asked.count; i++) {
      if (!asked.owed(i)) continue;
      const from = asked.consumerOf(i);
      const attemptId = asked.attemptOf(i);
      const keyId = asked.keyOf(i);
      this.violation(
        "I1",
        `${p.id} left ${from}'s ReadRequest (attempt ${attemptId}, item ${keyId}) unanswered: not malformed, stale or a duplicate, it is owed one ReadGrant or ReadReject (SPEC.md 4.3), and the poll after it was handed over gave none; a producer that stops answering stops serving [I1]`,
      );
    }
  }

  /**
   * [P1] A producer sends a ReadReject: NOT_FOUND answers a ReadRequest handed to it in this pump
   * only when its store did not hold the item then. A held item is granted, or refused with another
   * reason (NOT_READY, retryable, when not fully written: background failure #2).
   * [P3] A refusal that may come after [P7] check 8 tells the ledger the older grant it may replace.
   */
  private noteReject(p: ProducerNode, to: string, reject: ectp.v1.IReadReject): void {
    if (this.asked.count === 0) return;
    let attemptId: unknown;
    let reason: unknown;
    try {
      attemptId = reject.attemptId;
      reason = reject.reason;
    } catch {
      return; // Unreadable: the core's [I1] problem, found when it is encoded.
    }
    const answered = this.asked.answer(to, attemptId);
    // [P3][P7] A newer attempt replaces the consumer's older live grant of the item only once checks 1
    // to 7 passed: refused after that, by check 9 (OVERLOADED, or INTERNAL for an item above the byte
    // quota) or a failed pin (INTERNAL), it has released it; refused by checks 3 to 7 (INCOMPATIBLE,
    // SHUTTING_DOWN, EPOCH_CHANGED, NOT_FOUND, NOT_READY, or INTERNAL for a malformed key or a size
    // other than the announced one), it has not. The wire does not tell check 7's INTERNAL from the
    // later ones, so any INTERNAL lets the ledger excuse it (generous). A ReadRequest of a stale epoch
    // replaces nothing: the producer must ignore it [P8].
    if (
      answered >= 0 &&
      (reason === ectp.v1.FailureReason.FAILURE_REASON_OVERLOADED || reason === ectp.v1.FailureReason.FAILURE_REASON_INTERNAL) &&
      !this.asked.stale(answered)
    )
      p.grants.refused(to, this.asked.keyOf(answered), attemptId as number, this.asked.epochOf(answered));
    if (reason !== ectp.v1.FailureReason.FAILURE_REASON_NOT_FOUND) return;
    // The request it answers; any such request for an item the store did not hold (a consumer that
    // reused an attempt id) may be the one answered. None handed over in this pump: unknown.
    const held = this.asked.heldWhenNotFound(to, attemptId);
    if (held < 0) return;
    const state = this.asked.readyOf(held) ? "ready" : "present but not fully written: NOT_READY, retryable";
    this.violation("P1", `${p.id} answered ${to}'s ReadRequest (attempt ${String(attemptId)}) for item ${this.asked.keyOf(held)} with NOT_FOUND, but its store held the item (${state}) when it handled the request [P1]`);
  }

  /** The end of a pump: unreachable peers to the core, then its outputs carried out. */
  private finishPump(node: ProducerNode | ConsumerNode, unreachable: readonly string[], now: number): void {
    const core = node.core;
    for (let i = 0; i < unreachable.length; i++) {
      const u = unreachable[i] as string;
      if (node.kind === "producer") node.grants.peerGone(u);
      try {
        core.handlePeerUnreachable(u, now);
      } catch (e) {
        this.threw(node.id, e);
      }
    }
    let outs: readonly CoreOutput[] | undefined;
    try {
      outs = core.poll(now);
    } catch (e) {
      this.threw(node.id, e);
      return; // (what it owed is not judged: the throw is the violation)
    }
    if (outs && outs.length > 0) node.dirty = this.execute(node, node.transport, outs);
    if (node.kind === "producer" && this.asked.count > 0) this.checkAnswered(node);
  }

  /**
   * [I3] A producer sends a ReadGrant: the ledger opens it (one it cannot read is the core's [I1]
   * problem, found when it is encoded). [P3] A grant sent again must not end later than it was
   * granted to (background failure #7). [I1] It answers the ReadRequest of its attempt, and makes the
   * requests of that consumer and item handed over after that one, of its attempt or an older one,
   * duplicates or stale (SPEC.md 4.3): they may go unanswered.
   */
  private noteGrant(p: ProducerNode, to: string, grant: ectp.v1.IReadGrant): void {
    let problem: string | undefined;
    try {
      const attemptId = grant.attemptId;
      const answered = this.asked.count > 0 ? this.asked.answer(to, attemptId) : -1;
      const keyId = tryItemKeyId(grant.item?.key);
      // [P3][P8] The grant of a newer attempt replaces the consumer's older grant of the item, unless
      // the attempt was sent under an epoch stale when it was handed over (which the producer must ignore).
      const replaces = answered < 0 || !this.asked.stale(answered);
      // [P8] Of the epoch of the request it answers (none of this pump: the greatest handed over).
      const epoch = answered < 0 ? p.grants.epochOf(to) : this.asked.epochOf(answered);
      // [I1] The requests of that consumer's epoch and item handed over after the one it answers met it live.
      if (replaces && keyId !== undefined && typeof attemptId === "number") this.asked.liveFrom(answered, to, keyId, attemptId, epoch);
      if (typeof grant.grantId === "number" && keyId !== undefined)
        problem = p.grants.grant(grant.grantId, keyId, to, Number(grant.leaseMs ?? 0), this.now, typeof attemptId === "number" ? attemptId : 0, replaces, epoch);
    } catch {
      // (unreadable: see above)
    }
    if (problem !== undefined) this.violation("P3", `${p.id}: ${problem}`);
  }

  /** Carry out a core's outputs. Returns true when a send may have produced an unreachable notice. */
  private execute(node: ProducerNode | ConsumerNode, t: MockTransport, outs: readonly CoreOutput[]): boolean {
    const who = node.id;
    let sent = false;
    for (let i = 0; i < outs.length; i++) {
      const o = outs[i] as CoreOutput;
      switch (o.type) {
        case "send": {
          const body = envelopeBodyName(o.envelope) ?? "empty";
          this.checker.eventOf(this.now, who, ">", o.peerId, body);
          if (node.kind === "producer") {
            if (body === "readGrant") this.noteGrant(node, o.peerId, o.envelope.readGrant as ectp.v1.IReadGrant);
            else if (body === "readReject") this.noteReject(node, o.peerId, o.envelope.readReject as ectp.v1.IReadReject);
          }
          let bytes: Uint8Array;
          try {
            bytes = encodeEnvelope(o.envelope);
          } catch (e) {
            this.violation("I1", `${who} produced an envelope that cannot be encoded: ${String(e)}`);
            break;
          }
          try {
            // Handed over: the receiving real core takes the envelope instead of decoding its bytes.
            t.send(o.peerId, bytes, this.handOver ? o.envelope : undefined);
          } catch (e) {
            this.threw(who, e);
          }
          sent = true;
          break;
        }
        case "connect-peer":
          this.checker.event(this.now, `${who} connect ${o.peerId}@${o.epoch}`);
          this.connects.push(t.connectPeer(o.peerId, o.epoch, o.metadata).catch(() => {
            // The mock settles connects synchronously in virtual time; a rejection means
            // the metadata was unusable, which the core must treat as unreachable. The ledger
            // forgets that peer's grants with it, as in finishPump (else [I3] blamed the producer
            // for pins it rightly dropped).
            if (node.kind === "producer") node.grants.peerGone(o.peerId);
            this.guard(who, () => node.core.handlePeerUnreachable(o.peerId, this.now));
            node.stale = node.changed = true;
            const current = this.nodes.get(who);
            if (current) current.dirty = true;
          }));
          break;
        case "disconnect-peer":
          this.checker.event(this.now, `${who} disconnect ${o.peerId}`);
          // A producer that declares a consumer gone (silent [P8]) has released its grants.
          if (node.kind === "producer") node.grants.peerGone(o.peerId);
          t.disconnectPeer(o.peerId);
          break;
        case "start-read":
          this.checker.eventOf(this.now, who, "read", o.readId, o.peerId, o.destination.length);
          // [I5] destination memory is not reused while a read may still write into it.
          if (this.net.hasUnsettledWriteInto(who, o.destination.region, o.destination.offset, o.destination.length))
            this.violation("I5", `${who} started read#${o.readId} into region ${o.destination.region.id} while another read may still write into those bytes`);
          // [C6] nor while the engine still uses the bytes loaded there.
          if (node.kind === "consumer" && node.pool.inUseByEngine(o.destination.region.id))
            this.violation("I6", `${who} started read#${o.readId} into region ${o.destination.region.id} while the engine still uses its loaded bytes [C6]`);
          // A transport throws only for local misuse (e.g. a destination already freed): that is the core's fault [I1].
          try {
            t.startRead(o); // The output carries the ReadOperation's fields (readId, peerId, source, destination).
          } catch (e) {
            this.threw(who, e);
          }
          break;
        case "cancel-read":
          this.checker.event(this.now, `${who} cancel#${o.readId}`);
          try {
            t.cancelRead(o.readId);
          } catch (e) {
            this.threw(who, e);
          }
          break;
        case "event-batch":
          this.checker.eventOf(this.now, who, "events", o.batch.events?.length ?? 0);
          break;
      }
    }
    return sent;
  }

  // ---------------------------------------------------------------- workload

  /** A new client request arrives at the orchestrator. */
  private arrive(): void {
    const index = this.issued++;
    this.lastProgressAt = this.now;
    const items = this.workload.nextItems();
    const consumer = index % this.config.consumers;
    const id = `r${index}`;
    const admit: AdmitItem[] = items.map((_, k) => ({ itemId: ITEM_IDS[k] ?? `i${k}`, hasModelInput: true }));
    const req: Req = {
      id,
      items,
      admit,
      request: { requestId: id, items: admit },
      consumer,
      arrivedAt: this.now,
      pending: 0,
      forwarded: false,
      atConsumer: 0,
      firstAdmitAt: -1,
      lateReported: false,
      decided: undefined,
      loaded: undefined,
      lost: false,
    };
    this.checker.eventOf(this.now, "arrive", req.id, items.length);
    const early = this.rngOrch.chance(this.faults.earlyAnnouncement);
    let announcedEarly = false;
    for (let k = 0; k < items.length; k++) announcedEarly = this.encodeFor(req, k, items[k] as WorkloadItem, early) || announcedEarly;
    // Counted once per request that really got an announcement ahead of its bytes (a request whose
    // items were all ready, whose encoder was down or whose store was full got none).
    if (announcedEarly) this.simFaults.earlyAnnouncement++;
    if (req.pending === 0 || early) this.forward(req);
  }

  private keyOf(item: WorkloadItem): ectp.v1.IItemKey {
    let key = item.key;
    if (key === undefined) {
      key = { contentHash: item.contentHash, fingerprint: FINGERPRINT };
      item.key = key;
    }
    return key;
  }

  /**
   * Send item k of a request to its encoder (or find it cached there) and attach the announcement.
   * Returns whether it attached one before the item's bytes were ready (the `early` fault).
   */
  private encodeFor(req: Req, k: number, item: WorkloadItem, early: boolean): boolean {
    const p = this.producers[this.producerFor(item)] as ProducerNode;
    // Encoder down, or shutting down (the orchestrator sends it no more work): the request keeps
    // its model input, no announcement.
    if (!p.up || p.shuttingDown) return false;
    const key = this.keyOf(item);
    let keyId = item.keyId;
    if (keyId === undefined) {
      const r = itemKeyId(key);
      if (!r.ok) return false;
      keyId = r.value;
      item.keyId = keyId;
    }
    const entry = p.store.get(keyId);
    if (entry?.ready) {
      this.attach(p, req, k, keyId);
      return false;
    }
    const epoch = p.epoch;
    let encoding = p.encoding.get(keyId);
    if (!entry) {
      const bytes = this.itemSlab.take(item.sizeBytes);
      patternInto(item.seed, bytes);
      const crc = this.crcOf(item, bytes);
      const descriptor: ectp.v1.IItemDescriptor = {
        key,
        sizeBytes: item.sizeBytes,
        checksum: {
          algorithm: ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C,
          value: this.checksumBytes(crc),
        },
        producerId: p.id,
        epoch,
      };
      p.stale = p.changed = true; // The core may watch its store.
      const put = p.store.put(descriptor, bytes);
      if (!put.ok) {
        this.itemSlab.give(bytes);
        this.storeEvents.storeFull++;
        return false; // No room even after eviction [P6]: no announcement, model input kept.
      }
      encoding = { p, keyId, epoch, waiters: [] };
      p.encoding.set(keyId, encoding);
      this.timers.push(this.now + this.config.encodeTimeMs, this.encodeDone, encoding);
    }
    if (early) {
      this.attach(p, req, k, keyId); // Announced before the bytes are ready: the consumer must see NOT_READY [P1].
      return true;
    }
    if (!encoding) return false;
    req.pending++;
    encoding.waiters.push(req, k);
    return false;
  }

  /** Timer: an encode finished. The item becomes ready and its waiting requests get the announcement. */
  private readonly encodeDone = (e: Encoding): void => {
    const p = e.p;
    if (p.epoch !== e.epoch || !p.up) return; // Lost in a crash; waiters were released then.
    p.encoding.delete(e.keyId);
    p.stale = p.changed = true;
    if (p.store.get(e.keyId)) p.store.markReady(e.keyId);
    this.checker.eventOf(this.now, "encoded", p.id, e.keyId);
    this.release(e);
  };

  /**
   * An encode ended (done, or lost in a crash): attach what the producer announces now to each
   * waiting item, and forward the requests that wait for nothing else. A producer that went down
   * announces nothing: its items are forwarded without an announcement.
   */
  private release(e: Encoding): void {
    const w = e.waiters;
    for (let i = 0; i < w.length; i += 2) {
      const req = w[i] as Req;
      if (e.p.up) this.attach(e.p, req, w[i + 1] as number, e.keyId);
      if (--req.pending === 0) this.forward(req);
    }
  }

  /** Attach the producer's announcement of `keyId` (if it makes one) to item k of a request. */
  private attach(p: ProducerNode, req: Req, k: number, keyId: string): void {
    p.stale = p.changed = true;
    let ann: ectp.v1.IAnnouncement | undefined;
    try {
      ann = p.core.announce(keyId);
    } catch (e) {
      this.threw(p.id, e);
    }
    if (ann) (req.admit[k] as AdmitItem).announcement = this.maybeCorrupt(ann);
  }

  private producerFor(item: WorkloadItem): number {
    return item.seed % this.config.producers;
  }

  /** With the invalid-announcement fault, hand the consumer a descriptor with a bad size [C2]. */
  private maybeCorrupt(ann: ectp.v1.IAnnouncement): ectp.v1.IAnnouncement {
    if (!this.rngOrch.chance(this.faults.invalidAnnouncement)) return ann;
    this.simFaults.invalidAnnouncement++;
    const bad: unknown[] = [null, 0, -1, "12", 2 ** 60, 1.5];
    const sizeBytes = bad[this.rngOrch.int(bad.length)];
    return { ...ann, item: { ...ann.item, sizeBytes: sizeBytes as number } };
  }

  /** The orchestrator forwards a request to its consumer. */
  private forward(req: Req): void {
    if (req.forwarded) return;
    req.forwarded = true;
    // Metadata-only rewrite [C1]: only when every item has an announcement to read from.
    if (req.admit.every((a) => a.announcement) && this.rngOrch.chance(this.config.metadataOnlyFraction))
      for (const a of req.admit) a.hasModelInput = false;
    this.toConsumer(req);
  }

  /**
   * The orchestrator hands a request to its consumer or, when that one is down, to the next one up
   * (as a router stops sending to an instance that failed its health check). With none up it holds
   * the request until one restarts, and loses it only when no restart is due (a factory that threw):
   * before, each request sent to a down consumer was lost at once, and the closed-loop client's
   * next one with it, so one consumer's outage lost the rest of the workload in no time at all.
   */
  private toConsumer(req: Req): void {
    let c = this.consumers[req.consumer] as ConsumerNode;
    if (!c.up) {
      const n = this.consumers.length;
      for (let k = 1; k < n && !c.up; k++) c = this.consumers[(req.consumer + k) % n] as ConsumerNode;
      if (!c.up) {
        if (this.consumerRestartsDue > 0) {
          this.heldForRestart.push(req);
          this.checker.eventOf(this.now, "held", req.id);
        } else this.lose(req, c);
        return;
      }
      req.consumer = c.index;
    }
    req.atConsumer = this.now;
    c.waiting.set(req.id, req);
    c.changed = true; // A new request must be admitted at the next step.
    this.checker.eventOf(this.now, "forward", req.id, c.id, req.admit[0]?.hasModelInput ? "mi" : "mo");
    if (c.nextStepAt === undefined) c.nextStepAt = this.nextStepTime();
  }

  /**
   * The first multiple of the clock resolution at or after `at`. Division rounds, so ceil can
   * land one multiple early (an instant just before `at`, at which nothing is due yet).
   */
  private onResolution(at: number): number {
    const res = this.config.timeResolutionMs;
    let k = Math.ceil(at / res);
    if (k * res < at) k++;
    return k * res;
  }

  /**
   * [I2] The longest an engine step lasts: `stepMs`, or one clock resolution more when the step
   * is not a whole number of resolutions (a step time is rounded up onto the clock's grid, so two
   * steps can lie up to `stepMs + timeResolutionMs` apart; judged by `stepMs` alone, requests
   * decided at the next step were reported late).
   */
  private get longestStepMs(): number {
    const { stepMs, timeResolutionMs: res } = this.config;
    const steps = stepMs / res;
    return Math.abs(steps - Math.round(steps)) < 1e-9 ? stepMs : stepMs + res;
  }

  /** The first multiple of the step length strictly after now. */
  private nextStepTime(): number {
    const s = this.config.stepMs;
    // At a step time, now / s may come out just below a whole number (2.001 / 0.001 =
    // 2000.9999999999998), and the next multiple would then be now itself.
    let k = Math.floor(this.now / s) + 1;
    if (k * s <= this.now) k++;
    return k * s;
  }

  /**
   * One engine step of a consumer: admit every waiting request, then drain failures [C6].
   *
   * A step that would provably repeat the previous one is not re-run against the core:
   * when the previous step was quiet (every waiting request re-admitted and handed back
   * the identical deferred decisions, nothing failed or proceeded) and nothing has called
   * into the core since (no message, read result, poll, finish, cancel or new request;
   * every such call sets `changed`), a sans-IO core in the same state answers the same
   * admissions the same way. Time alone changes nothing in between: the core's
   * time-driven transitions (wait budgets [C3], retries, timeouts) are timers behind
   * `nextDeadline()`, and a due deadline makes the consumer be polled earlier in the same
   * round, which sets `changed`. Only the real ConsumerCore is trusted with this (cores
   * from `factories` are admitted every step), `readmitEveryStep` turns it off, and the
   * tests compare whole summaries and event-log hashes of both modes.
   */
  private engineStep(c: ConsumerNode): void {
    const now = this.now;
    // [I2] Before the admissions: a request this step decides or fails past the limit is late
    // too, and leaves `waiting` during the step (as a failure drained between steps does: see drain).
    this.checkLate(c, now);
    if (c.quiet && !c.changed) {
      this.quietStepsSkipped++;
      c.nextStepAt = c.waiting.size > 0 ? this.nextStepTime() : undefined;
      return;
    }
    let quiet = this.skipQuietSteps;
    let failedAtAdmit: Map<string, Req> | undefined;
    const core = c.core;
    c.stale = true;
    for (const req of c.waiting.values()) {
      if (req.firstAdmitAt < 0) req.firstAdmitAt = now;
      let res: ReturnType<ConsumerLike["admit"]> | undefined;
      try {
        res = core.admit(req.request, now);
      } catch (e) {
        quiet = false;
        this.threw(c.id, e);
        continue;
      }
      if (!res) {
        quiet = false;
        continue;
      }
      if (res.status === "failed") {
        quiet = false;
        c.waiting.delete(req.id);
        failedAtAdmit ??= new Map();
        failedAtAdmit.set(req.id, req);
        this.waits.record(now - req.atConsumer);
        continue;
      }
      const items = res.items;
      if (items.length !== req.admit.length) {
        quiet = false;
        this.violation("I2", `${req.id}: admit returned ${items.length} decisions for ${req.admit.length} items`);
        continue;
      }
      let deferred = false;
      for (let k = 0; k < items.length; k++) {
        if ((items[k] as ItemDecision).action === "defer") {
          deferred = true;
          break;
        }
      }
      if (deferred) {
        if (quiet) {
          const prev = req.decided;
          if (prev === undefined || prev.length !== items.length) quiet = false;
          else for (let k = 0; k < items.length; k++) if (prev[k] !== items[k]) quiet = false;
        }
        req.decided = items;
        continue;
      }
      quiet = false;
      this.startPrefill(c, req, items, now); // every item decided
    }
    if (this.drain(c, failedAtAdmit) > 0) quiet = false;
    c.nextStepAt = c.waiting.size > 0 ? this.nextStepTime() : undefined;
    // Calls made during this step are accounted for by `quiet`; later ones set `changed`.
    c.quiet = quiet;
    c.changed = false;
  }

  /**
   * A request whose items are all decided proceeds to prefill: each decision is checked against its
   * item ([I1][I2][I6]), loaded bytes are verified and held until the request is served, and its
   * service ends after the service time plus the local encodes it needs.
   */
  private startPrefill(c: ConsumerNode, req: Req, items: readonly ItemDecision[], now: number): void {
    let local = 0;
    let loaded = 0;
    for (let k = 0; k < items.length; k++) {
      const d = items[k] as ItemDecision;
      const a = req.admit[k] as AdmitItem;
      const item = req.items[k] as WorkloadItem;
      // [I2] one outcome per item: the k-th decision must name the k-th item (the engine applies
      // decisions by item id, so a repeated or foreign id leaves an item without an outcome).
      if (d.itemId !== a.itemId)
        this.violation("I2", `${req.id}: decision ${k} names item ${String(d.itemId)}, the request's item ${k} is ${a.itemId}`);
      if (d.action === "local-encode") {
        local++;
        // docs/failures.md #1: encoding without model input killed the engine [C1][C5].
        if (!a.hasModelInput)
          this.violation("I1", `${req.id}/${a.itemId}: local-encode without model input would crash the engine`);
      } else if (d.action === "ready") {
        if (d.destination) {
          loaded++;
          this.verifyLoaded(c, req, item, d.destination);
          c.pool.hold(d.destination);
          if (req.loaded === undefined) req.loaded = [d.destination];
          else req.loaded.push(d.destination);
        } else if (a.local !== true)
          // Only an item the engine holds itself is ready without a read [C1]; the engine would
          // prefill with an encoding it does not have.
          this.violation("I6", `${req.id}/${a.itemId}: ready without a destination, but the engine does not hold it locally`);
      } else
        // [I2] an item's outcome is loaded or local-encoded: any other action (a JavaScript core
        // breaking its type) leaves the item without one.
        this.violation("I2", `${req.id}/${a.itemId}: decision ${k} has action ${String(d.action)}, which is no outcome (ready or local-encode)`);
    }
    c.waiting.delete(req.id);
    c.running.set(req.id, req);
    this.waits.record(now - req.atConsumer);
    this.itemsLocal += local;
    this.itemsRemote += loaded;
    const kind = local > 0 ? "fellBackLocal" : "succeededRemote";
    this.outcomes[kind]++;
    this.checker.eventOf(now, "admitted", req.id, kind, local);
    this.timers.push(now + this.config.serviceTimeMs + local * this.config.encodeTimeMs, this.serviceDone, req);
  }

  /** Timer: an admitted request finished prefill and decode; the engine finishes it in the core [C5]. */
  private readonly serviceDone = (req: Req): void => {
    if (req.lost) return; // Its consumer crashed while serving it (counted then).
    const c = this.consumers[req.consumer] as ConsumerNode;
    c.running.delete(req.id);
    c.stale = c.changed = true;
    const loaded = req.loaded;
    if (loaded !== undefined) for (let i = 0; i < loaded.length; i++) c.pool.unhold(loaded[i] as ReadDestination);
    try {
      c.core.finishRequest(req.id, this.now);
    } catch (e) {
      this.threw(c.id, e);
    }
    this.checker.eventOf(this.now, "done", req.id);
    this.endRequest();
  };

  /**
   * [I2] an outcome no later than budget + one engine step after the first wait: engine steps
   * fall on multiples of `stepMs`, so the step at or after the budget's end decides. Called
   * before each step's admissions and before each drain of failures, so a request is judged
   * while still waiting, including at the step or drain that gives its outcome too late.
   */
  private checkLate(c: ConsumerNode, now: number): void {
    const limit = this.config.budgetMs + this.longestStepMs;
    // Exact gate: every unreported waiting request was first admitted at or after
    // `lateOldest`, so none can be late while the oldest possible one is not.
    if (now - c.lateOldest <= limit) return;
    let oldest = now; // Requests not admitted yet will be first admitted no earlier than now.
    for (const req of c.waiting.values()) {
      const first = req.firstAdmitAt;
      if (req.lateReported || first < 0) continue;
      if (now - first > limit) {
        req.lateReported = true;
        this.violation("I2", `${req.id} has no outcome ${now - first} ms after its first admission (budget ${this.config.budgetMs} ms + one step)`);
      } else if (first < oldest) oldest = first;
    }
    c.lateOldest = oldest;
  }

  /**
   * Collect failure reports [C6]: each failed request exactly once, never a request that
   * already has an outcome. Returns how many reports and unreported failures it handled.
   */
  private drain(c: ConsumerNode, failedAtAdmit?: Map<string, Req>): number {
    this.checkLate(c, this.now); // [I2] a failure reported now, past the limit, is late (a cancel storm drains between steps)
    c.stale = c.changed = true;
    let reports: readonly FailedRequest[] = [];
    try {
      reports = c.core.drainFailed();
    } catch (e) {
      this.threw(c.id, e);
    }
    for (const f of reports) {
      const req = failedAtAdmit?.get(f.requestId) ?? c.waiting.get(f.requestId);
      if (!req) {
        const what = c.running.has(f.requestId) ? "a request that was already admitted" : "an unknown or already reported request";
        this.violation("I2", `${c.id} reported ${f.requestId} failed, but it is ${what}`);
        continue;
      }
      if (!failedAtAdmit?.delete(f.requestId)) {
        c.waiting.delete(f.requestId);
        this.waits.record(this.now - req.atConsumer);
      }
      // [C6] a reason per failed item: a report naming none would also hide a request failed
      // although it carries model input (checked per named item below).
      if (f.failures.length === 0) this.violation("I2", `${req.id}: the failure report names no failed item [C6]`);
      for (const it of f.failures) {
        const a = req.admit.find((x) => x.itemId === it.itemId);
        if (a === undefined) this.violation("I2", `${req.id}: the failure report names item ${String(it.itemId)}, which the request does not have [C6]`);
        else if (a.hasModelInput)
          this.violation("I2", `${req.id}/${it.itemId} failed (${it.reason}) although the request carries model input`);
      }
      this.fail(c, req, f.failures[0]?.reason ?? "UNKNOWN");
    }
    if (failedAtAdmit === undefined) return reports.length;
    for (const req of failedAtAdmit.values()) {
      this.violation("I2", `${req.id}: admit said failed but drainFailed never reported it [C6]`);
      this.fail(c, req, "UNREPORTED");
    }
    return reports.length + failedAtAdmit.size;
  }

  private fail(c: ConsumerNode, req: Req, reason: string): void {
    this.outcomes.failed++;
    this.failedByReason.set(reason, (this.failedByReason.get(reason) ?? 0) + 1);
    this.checker.event(this.now, `failed ${req.id} ${reason}`);
    c.stale = c.changed = true;
    this.guard(c.id, () => c.core.finishRequest(req.id, this.now));
    this.endRequest();
  }

  /** [I6] bytes marked loaded are exactly the producer's bytes. */
  private verifyLoaded(c: ConsumerNode, req: Req, item: WorkloadItem, dest: ReadDestination): void {
    const bytes = c.pool.view(dest);
    this.nominalRead += item.nominalBytes;
    this.actualRead += item.sizeBytes;
    // [C6] the engine reads a loaded item from its destination until it finishes the request: one
    // already released (or never allocated from this engine's pool) may be recycled under it.
    if (!c.pool.isLive(dest.region.id))
      this.violation("I6", `${req.id}: ready with destination region ${dest.region.id}, which is not allocated (released, or not from this engine's pool) [C6]`);
    if (!bytes || bytes.length !== item.sizeBytes) {
      this.violation("I6", `${req.id}: loaded ${bytes?.length ?? "no"} bytes, producer holds ${item.sizeBytes}`);
      return;
    }
    // [I6] exact comparison with the producer's bytes (regenerated word by word from the item's seed).
    if (!patternEquals(item.seed, bytes)) this.violation("I6", `${req.id}: bytes marked loaded differ from the producer's bytes`);
  }

  /**
   * The 4 big-endian bytes of a CRC-32C, carved from a shared slab: a descriptor lives as
   * long as its item is stored or the producer's replay buffer keeps its event, and a
   * 4-byte array of its own would cost a buffer object more than the bytes.
   */
  private checksumBytes(crc: number): Uint8Array {
    const b = this.smallBytes.take(4);
    b[0] = crc >>> 24;
    b[1] = crc >>> 16;
    b[2] = crc >>> 8;
    b[3] = crc;
    return b;
  }

  /**
   * CRC-32C of an item's true bytes, computed on its first encode and kept on the item
   * (an item is encoded again after eviction or a crash, with the same bytes).
   */
  private crcOf(item: WorkloadItem, bytes: Uint8Array): number {
    let crc = item.crc;
    if (crc === undefined) {
      crc = crc32c(bytes);
      item.crc = crc;
    }
    return crc;
  }

  private endRequest(): void {
    this.ended++;
    this.lastProgressAt = this.now;
    this.lastEndAt = this.now;
    if (this.onProgress && (this.ended % this.progressStep === 0 || this.ended === this.config.requests))
      this.onProgress(this.ended, this.config.requests);
    if (this.issued + this.owedArrivals < this.config.requests) this.requestArrival();
  }

  /**
   * The client's next request arrives (closed loop: one per request ended). A request can end in
   * its own arrival (its consumer is down: lost at once), and then so can the next, and the next:
   * called from inside an arrival, the new one is owed and made by the outermost call once the
   * current one returns, in a loop. The order of everything is the recursion's (each arrival was
   * the last thing its caller did), without a call stack thousands of arrivals deep (a run whose
   * only consumer was down ended in a RangeError).
   */
  private requestArrival(): void {
    if (this.arriving) {
      this.owedArrivals++;
      return;
    }
    this.arriving = true;
    try {
      this.arrive();
      while (this.owedArrivals > 0) {
        this.owedArrivals--;
        this.arrive();
      }
    } finally {
      this.arriving = false;
    }
  }

  // ---------------------------------------------------------------- faults

  private poissonDelay(perMinute: number): number {
    return (-Math.log(1 - this.rngFaults.next()) / perMinute) * 60_000;
  }

  /**
   * A fault that recurs at `perMinute` (Poisson arrivals, from the faults' random stream) until every
   * request has ended: each time it strikes one of `candidates()` chosen at random (none when empty).
   */
  private scheduleRecurring<N>(perMinute: number, candidates: () => N[], strike: (node: N) => void): void {
    if (perMinute <= 0) return;
    this.timers.push(
      this.now + this.poissonDelay(perMinute),
      () => {
        if (this.ended >= this.config.requests) return;
        const list = candidates();
        if (list.length > 0) strike(list[this.rngFaults.int(list.length)] as N);
        this.scheduleRecurring(perMinute, candidates, strike);
      },
      undefined,
    );
  }

  /** Crash a producer: its memory, grants and in-flight encodes are lost; it restarts with a new epoch [P8]. */
  private crash(p: ProducerNode): void {
    this.simFaults.producerCrash++;
    this.checker.event(this.now, `crash ${p.id}@${p.epoch}`);
    this.takeDown(p);
  }

  /**
   * A planned restart, begun: the engine shuts the core down [P7] (it rejects later ReadRequests
   * SHUTTING_DOWN and releases every grant) and stops once the memory of the grants it released may
   * be reused, at the latest lease deadline `shutdown` returns, so reads still in flight under those
   * grants land intact, and no sooner than two engine steps on, so the rejects it owes the
   * consumers that asked meanwhile go out; it then restarts like a crashed producer.
   */
  private shutDown(p: ProducerNode): void {
    this.simFaults.producerShutdown++;
    this.checker.event(this.now, `shutdown ${p.id}@${p.epoch}`);
    p.shuttingDown = true;
    p.stale = p.changed = true;
    const now = this.now;
    const reuseAfter = this.guard(p.id, () => p.core.shutdown(now));
    p.grants.shutDown(); // [P7] every grant released
    const epoch = p.epoch;
    this.timers.push(
      Math.max(now + 2 * this.config.stepMs, typeof reuseAfter === "number" && Number.isFinite(reuseAfter) ? reuseAfter : now),
      () => {
        if (p.epoch !== epoch || !p.up) return; // It crashed meanwhile (and restarts from that).
        this.checker.event(this.now, `stop ${p.id}@${p.epoch}`);
        this.takeDown(p);
      },
      undefined,
    );
  }

  /** A producer goes down (crashed, or stopped after its shutdown): everything it held is lost; it restarts after `restartDelayMs`. */
  private takeDown(p: ProducerNode): void {
    p.up = false;
    p.stale = p.changed = true;
    p.store.clear("reset");
    this.net.crash(p.id);
    const encodings = [...p.encoding.values()];
    p.encoding.clear();
    p.epoch++; // Encode timers of the old epoch see the change and do nothing.
    // The orchestrator hears the encoder failed: forward without those announcements.
    for (const e of encodings) this.release(e);
    this.timers.push(this.now + this.faults.restartDelayMs, this.restart, p);
  }

  /** Timer: a crashed producer comes back with a new epoch [P8]. */
  private readonly restart = (p: ProducerNode): void => {
    const fresh = this.restartNode(p.id, (t) => this.startProducer(p.index, p.epoch, t));
    if (fresh === undefined) return;
    this.producers[p.index] = fresh;
    this.producerRestarts++;
  };

  /**
   * Bring a crashed node's endpoint back and build its new instance with `start`. A core or store
   * from `factories` that throws when built again is an [I1] violation (`undefined` is returned):
   * the endpoint is up but nothing serves it, so peers find it reachable and silent [P8] (and
   * requests forwarded to a consumer stay lost).
   */
  private restartNode<N extends { readonly epoch: number }>(id: string, start: (transport: MockTransport) => N): N | undefined {
    const t = this.net.restart(id);
    let fresh: N;
    try {
      fresh = start(t);
    } catch (e) {
      this.threw(id, e);
      return undefined;
    }
    this.checker.event(this.now, `restart ${id}@${fresh.epoch}`);
    return fresh;
  }

  /**
   * Crash a consumer: its engine, core, destination memory and requests are lost (the orchestrator
   * hands what it forwards meanwhile to another consumer, or holds it for the restart: see
   * `toConsumer`); it restarts with a new epoch [P8]. Its grants
   * stay pinned at the producers until they see the new epoch, find it silent or the lease ends.
   */
  private crashConsumer(c: ConsumerNode): void {
    this.simFaults.consumerCrash++;
    this.checker.event(this.now, `crash ${c.id}@${c.epoch}`);
    c.up = false;
    this.consumerRestartsDue++; // (its restart is scheduled below; what arrives meanwhile is held for it)
    c.nextStepAt = undefined;
    const waiting = [...c.waiting.values()];
    const running = [...c.running.values()];
    c.waiting.clear();
    c.running.clear();
    for (const req of waiting) this.lose(req, c);
    // Admitted ones had their outcome at admission; their service ends here instead of at its timer.
    for (const req of running) {
      req.lost = true;
      this.checker.event(this.now, `done ${req.id} (crash)`);
      this.endRequest();
    }
    this.net.crash(c.id);
    this.timers.push(this.now + this.faults.restartDelayMs, this.restartConsumer, c);
  }

  /** A request without an outcome lost with its crashed consumer: that is its one outcome [I2]. */
  private lose(req: Req, c: ConsumerNode): void {
    req.lost = true;
    this.outcomes.lostInCrash++;
    this.checker.event(this.now, `lost ${req.id} ${c.id}@${c.epoch}`);
    this.endRequest();
  }

  /** Timer: a crashed consumer comes back with a new epoch and no requests [P8]. */
  private readonly restartConsumer = (c: ConsumerNode): void => {
    this.consumerRestartsDue--;
    const fresh = this.restartNode(c.id, (t) => this.startConsumer(c.index, this.rngFaults.nextUint32(), c.epoch + 1, t));
    if (fresh !== undefined) {
      this.consumers[c.index] = fresh;
      this.consumerRestarts++;
    }
    // What the orchestrator held while every consumer was down: handed over now (or held for the
    // next restart, or lost when none is due).
    const held = this.heldForRestart;
    this.heldForRestart = [];
    for (const req of held) this.toConsumer(req);
  };

  /** Clients disconnect: a fraction of a consumer's waiting requests is finished early [C7]. */
  private cancelStorm(c: ConsumerNode): void {
    this.simFaults.cancelStorm++;
    this.drain(c);
    let n = 0;
    for (const req of [...c.waiting.values()]) {
      if (!this.rngFaults.chance(this.faults.cancelFraction)) continue;
      c.waiting.delete(req.id);
      c.stale = c.changed = true;
      this.guard(c.id, () => c.core.finishRequest(req.id, this.now));
      this.outcomes.cancelled++;
      n++;
      this.endRequest();
    }
    this.checker.event(this.now, `cancel-storm ${c.id} ${n}`);
    if (c.waiting.size === 0) c.nextStepAt = undefined;
  }

  // ---------------------------------------------------------------- checks

  /**
   * [I3] producer pins equal live grants at all times: in total, the store's pin count against the
   * producer's live grants; per item, the store's pins against the grants on the wire (see
   * {@link GrantLedger}), which does not take the core's word for its grants.
   */
  private checkPins(): void {
    const producers = this.producers;
    for (let i = 0; i < producers.length; i++) {
      const p = producers[i] as ProducerNode;
      if (!p.up || !p.polled) continue;
      p.polled = false;
      let s: ReturnType<ProducerLike["stats"]>;
      try {
        s = p.core.stats();
      } catch (e) {
        this.threw(p.id, e);
        continue;
      }
      const pins = p.store.totalPins();
      if (pins !== s.grants || s.pins !== s.grants)
        this.violation("I3", `${p.id}: ${pins} pins in the store, ${s.pins} pins reported, ${s.grants} live grants`);
      // Per item, against the grants on the wire rather than the core's own count.
      const store = p.store;
      for (const problem of p.grants.check(this.now, (keyId) => store.get(keyId)?.pins ?? 0)) this.violation("I3", `${p.id}: ${problem}`);
    }
  }

  /**
   * [I3][P2][P6] The store of a producer that is up frees an item's memory (an eviction): no grant of
   * the item may be held then (open on the wire and not ended early by a rule that allows it), or
   * the producer released it before its ACK or lease end and its consumer reads freed memory (here
   * the read fails; on a real fabric it may read whatever reused the memory).
   */
  private checkFreed(p: ProducerNode, keyId: string): void {
    const held = p.grants.heldGrants(keyId, this.now);
    if (held > 0)
      this.violation(
        "I3",
        `${p.id}: item ${keyId} left the store and its memory was freed while ${held} of its grants are live on the wire (not ACKed, lease not over), none of which the producer may end early: released before its ACK or lease end, it may be read after the memory was reused [I3][P2][P6]`,
      );
  }

  private quiescent(): boolean {
    for (const p of this.producers) {
      if (!p.up) return false;
      const s = this.guard(p.id, () => p.core.stats());
      if (!s || s.grants > 0) return false;
    }
    for (const c of this.consumers) {
      if (!c.up) return false;
      const s = this.guard(c.id, () => c.core.stats());
      if (!s || s.readsInFlight > 0 || s.grantsHeld > 0 || s.destinations > 0 || s.requests > 0) return false;
    }
    return true;
  }

  /** After the drain: [I2] every request ended, [I3] zero pins, [I4] every table back to its baseline. */
  private finalChecks(): void {
    this.checker.event(this.now, "final");
    // [I2] A request that never reached an outcome would otherwise only shrink `requests.total`.
    if (this.issued !== this.config.requests || this.ended !== this.config.requests)
      this.violation("I2", `${this.config.requests} requests to run, ${this.issued} arrived and ${this.ended} reached an outcome by the end of the drain`);
    for (const p of this.producers) {
      if (!p.up) continue;
      const s = this.guard(p.id, () => p.core.stats());
      if (!s) continue;
      if (s.grants !== 0 || s.pins !== 0 || p.store.totalPins() !== 0 || s.pinnedBytes !== 0)
        this.violation(
          "I3",
          `${p.id} at quiescence: ${s.grants} grants, ${s.pins} pins (store ${p.store.totalPins()}), ${s.pinnedBytes} pinned bytes`,
        );
    }
    for (const c of this.consumers) {
      if (!c.up) continue;
      const s = this.guard(c.id, () => c.core.stats());
      if (!s) continue;
      const leaks = (
        [
          "requests",
          "budgets",
          "fetches",
          "readsInFlight",
          "quarantined",
          "grantsHeld",
          "loadedItems",
          "destinations",
          "undrainedFailures",
        ] as const
      ).filter((k) => s[k] !== 0);
      if (leaks.length > 0)
        this.violation("I4", `${c.id} after all requests finished: ${leaks.map((k) => `${k}=${s[k]}`).join(", ")}`);
      if (c.pool.allocated !== 0)
        this.violation("I4", `${c.id} still holds ${c.pool.allocated} destinations after all requests finished`);
    }
  }

  /** {@link Simulation.sample} as a function made once (the series asks for it every round). */
  private readonly sampleNow = () => this.sample();

  private sample() {
    let readsInFlight = 0;
    let livePins = 0;
    let deferredRequests = 0;
    for (const c of this.consumers) {
      if (!c.up) continue;
      readsInFlight += this.guard(c.id, () => c.core.stats().readsInFlight) ?? 0;
      deferredRequests += c.waiting.size;
    }
    for (const p of this.producers) if (p.up) livePins += p.store.totalPins();
    return {
      readsInFlight,
      livePins,
      deferredRequests,
      succeeded: this.outcomes.succeededRemote,
      fellBack: this.outcomes.fellBackLocal,
      failed: this.outcomes.failed,
      cancelled: this.outcomes.cancelled,
      lostInCrash: this.outcomes.lostInCrash,
    };
  }

  private summarize(wallTimeMs: number): SimulationSummary {
    const cfg = this.config;
    const { faults, ...rest } = cfg;
    const counters = Object.fromEntries([...this.counters.totals].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
    let pinsAtEnd = 0;
    for (const p of this.producers) if (p.up) pinsAtEnd += p.store.totalPins();
    // The network counts the simulator's crashes and restarts too (`crash`, `restart`; a planned
    // restart's stop is a `crash` there): they are reported once, as `producerCrash`,
    // `producerShutdown`, `consumerCrash` and `crashEffects`.
    const { crash: _crash, restart: _restart, crashMessage, crashRead, ...networkFaults } = this.net.faultCounts();
    const faultsInjected: Record<string, number> = { ...networkFaults, ...this.simFaults };
    return {
      seed: cfg.seed,
      faults: typeof faults === "string" ? faults : "custom",
      config: rest,
      requests: {
        // The sum of the outcomes: an admitted request has its outcome before its service ends, and
        // a run stopped early (a livelock) may stop while some are in service.
        total: this.outcomes.succeededRemote + this.outcomes.fellBackLocal + this.outcomes.failed + this.outcomes.cancelled + this.outcomes.lostInCrash,
        ...this.outcomes,
        failedByReason: Object.fromEntries([...this.failedByReason].sort((a, b) => (a[0] < b[0] ? -1 : 1))),
      },
      items: { remote: this.itemsRemote, localEncoded: this.itemsLocal },
      simulatedMs: this.lastEndAt,
      throughputRps: this.lastEndAt > 0 ? (this.ended * 1000) / this.lastEndAt : 0,
      admissionWaitMs: {
        p50: this.waits.quantile(0.5),
        p99: this.waits.quantile(0.99),
        max: this.waits.max(),
        mean: Math.round(this.waits.mean() * 1000) / 1000,
      },
      retries: this.counters.sum(/^ectp_consumer_retries_total/),
      quarantines: this.counters.sum(/^ectp_consumer_reads_quarantined_total/),
      pinsAtEnd,
      faultsInjected,
      crashEffects: { restarts: this.producerRestarts, consumerRestarts: this.consumerRestarts, messagesLost: crashMessage, readsFailed: crashRead },
      storeEvents: { ...this.storeEvents },
      counters,
      violations: { count: this.checker.count, byInvariant: { ...this.checker.counts() }, first: this.checker.violations() },
      reproduce: reproduceCommand(cfg, PLANTABLE.filter((k) => this.factories[k] !== undefined)),
      bytes: { scale: cfg.byteScale, nominalRead: this.nominalRead, actualRead: this.actualRead },
      eventLog: { events: this.checker.events, hash: this.checker.hash(), loopRounds: this.rounds, nudges: this.nudges, quietStepsSkipped: this.quietStepsSkipped },
      wallTimeMs,
    };
  }
}

function emptySeries() {
  return new SeriesRecorder(1).result();
}

/**
 * Run one simulation to the end. Deterministic: the same options give the same summary
 * (except `wallTimeMs`) and the same event-log hash.
 * @throws EctpError(INVALID_ARGUMENT) when an option is out of range (see
 * {@link SIMULATION_LIMITS}) or the simulation cannot be set up with it: exactly when
 * {@link validateConfig} reports a problem (use it first to avoid the throw), or when a
 * core made by `factories` throws on construction.
 */
export async function runSimulation(options: SimulationOptions = {}): Promise<SimulationResult> {
  const problems = inputProblems(options);
  if (problems.length > 0) throw invalidOptions(problems);
  let simulation: Simulation;
  try {
    simulation = new Simulation(options);
  } catch (e) {
    throw invalidOptions([setupProblem(e)], e);
  }
  return simulation.run();
}

/**
 * Every problem with a set of options, as sentences naming the option (empty when valid):
 * the problems {@link runSimulation} throws for. Each option's type and range is checked
 * (see {@link SIMULATION_LIMITS}); then the simulation is set up without running it, so
 * values that the cores, stores or network reject (`consumerConfig`, `producerConfig`,
 * capacities) are reported too. Hooks (`factories`, `eventLog`, ...) are checked for their
 * types only (a core a factory makes is not built here). Options that are not an object
 * (`null`, a number, an array) are one problem; none at all are the defaults, as for runSimulation.
 * `consumerConfig.waitBudgetMs` and `consumerConfig.maxItemBytes` are refused: the simulation
 * sets both itself, from `budgetMs` and from `maxItemBytes` over `byteScale`.
 */
export function validateConfig(options: SimulationOptions = {}): string[] {
  const problems = inputProblems(options);
  if (problems.length > 0) return problems;
  try {
    new Simulation(configOnly(options));
  } catch (e) {
    return [setupProblem(e)];
  }
  return [];
}

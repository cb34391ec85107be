/**
 * The thin I/O shell around the sans-IO state machines: it moves messages and reads between a
 * {@link Transport} and a consumer and/or producer core, or an event subscriber, on a clock.
 * @module
 */
import { EctpError, decodeEnvelope, describeValue, ectp, encodeEnvelope, refuseUnknownOptions, thrownText } from "@ectp/protocol";
import { checkedNow } from "../clock.js";
import { grantLeaseMs, readOptions } from "../config.js";
import type { ConsumerCore } from "../consumer/consumer.js";
import { type Labels, type MetricsSink, containLogger, containMetrics, type Logger, requireMethods } from "../observability.js";
import type { CoreOutput } from "../outputs.js";
import type { ProducerCore } from "../producer/producer.js";
import type { EventSubscriber } from "../subscriber/subscriber.js";
import type { ReadOperation, ReadResult, ReceivedMessage, Transport, TransportActivity } from "../transport.js";

/**
 * A source of the current time in milliseconds: the one the driver passes to the cores. Every
 * `now` the engine passes a core itself (`admit`, `finishRequest`, `shutdown`, ...) must come from
 * this same clock: a core takes an earlier reading as its latest one, so readings of another clock
 * (`Date.now()` beside the default `performance.now()`) would stop its timers (logged once).
 */
export interface Clock {
  /** Current time in milliseconds. Must never go backwards. */
  now(): number;
}

/**
 * What a {@link Driver} runs and how: the transport, the consumer and/or producer core or the
 * subscriber it drives over it, the clock, its longest sleep, connect timeout and per-peer queue
 * bound, and its hooks. Only `transport` and one role are required.
 */
export interface DriverOptions {
  /** The data plane. Required. */
  transport: Transport;
  /** The consumer core to drive. Default: none (a consumer, a producer, both, or a subscriber is required). */
  consumer?: ConsumerCore | undefined;
  /** The producer core to drive. Default: none (a consumer, a producer, both, or a subscriber is required). */
  producer?: ProducerCore | undefined;
  /**
   * The event subscriber to drive (a router's view of the producers it follows [E1][E2]), alone:
   * beside a core it would speak under the same peer id with its own epoch, and a producer keeps
   * one record (epoch, grants, subscription) per peer id. Default: none.
   */
  subscriber?: EventSubscriber | undefined;
  /** The clock handed to the cores. Default: `performance.now()` (monotonic). */
  clock?: Clock | undefined;
  /**
   * Longest sleep of {@link Driver.run} between steps, in ms (a longer one is slept 2^31 - 1 ms, Node's
   * longest timer, at a time). Default 50. 0 never sleeps: run() steps on every turn of the event loop,
   * a busy loop that keeps one CPU core at 100% (for engines that poll rather than wait).
   */
  maxWaitMs?: number | undefined;
  /**
   * How long a peer's `transport.connectPeer` may stay pending, in ms (on the driver's clock),
   * before the connection counts as failed: what is queued for the peer is dropped (reads settle
   * as failed) and the cores that asked for it are told the peer is unreachable, as when the
   * connect rejects. Default {@link DEFAULT_CONNECT_TIMEOUT_MS}.
   */
  connectTimeoutMs?: number | undefined;
  /**
   * Most messages and reads queued for one peer while its connect is pending (a read cancelled while
   * queued still counts); one more fails the connection as {@link DriverOptions.connectTimeoutMs}
   * does. Default {@link DEFAULT_MAX_QUEUED_PER_PEER}.
   */
  maxQueuedPerPeer?: number | undefined;
  /**
   * Receives every event batch the producer publishes [E1], for in-process subscribers
   * (e.g. a router in the same process). Called during a step: it should not throw; a throw, or the
   * rejection of a promise it returns (an `async` hook; not awaited), is logged. A
   * {@link Driver.step} it calls does nothing (see there); {@link Driver.close} may be called, and
   * runs once the step is over. Batches carry changes only: a view built from them alone lacks the
   * items held before the first batch it saw, and has no way to catch up on a missed one; a router
   * that needs whole views follows the producer with an {@link EventSubscriber} instead, which asks
   * for snapshots and replays [E2]. Default: none.
   */
  onEventBatch?: ((batch: ectp.v1.IEventBatch) => void) | undefined;
  /** Logger for transport faults and connection failures. Default: no-op. One lacking any of its four methods is refused (INVALID_CONFIG). */
  logger?: Logger | undefined;
  /**
   * Metrics of what the driver itself loses: failed connects, messages dropped, reads failed before
   * they started (`ectp_driver_*`: the cores' README lists them). Default: no-op. Give it its own
   * sink or the cores' (the names do not overlap). One lacking any of its three methods is refused
   * (INVALID_CONFIG); what one throws is contained, and its first failure logged.
   */
  metrics?: MetricsSink | undefined;
}

/**
 * Why what was queued behind a pending connect was given up: the connect failed (rejected, timed
 * out, overflowed its queue), the core that asked for it disconnected the peer, or the driver closed.
 */
type QueueLossCause = "connect_failed" | "disconnected" | "closed";
/** Why the driver dropped a message a core sent (`cause` of `ectp_driver_sends_dropped_total`). */
type DropCause = "send_threw" | "not_encodable" | "lease_ran_out" | QueueLossCause;
/** Why a read failed in the driver before the transport ran it (`cause` of `ectp_driver_reads_failed_total`). */
type ReadFailCause = "start_threw" | QueueLossCause;
/** The `cause` label set of each cause, made once. */
const CAUSE_LABELS: Readonly<Record<DropCause | ReadFailCause, Labels>> = Object.freeze({
  send_threw: Object.freeze({ cause: "send_threw" }),
  not_encodable: Object.freeze({ cause: "not_encodable" }),
  lease_ran_out: Object.freeze({ cause: "lease_ran_out" }),
  connect_failed: Object.freeze({ cause: "connect_failed" }),
  disconnected: Object.freeze({ cause: "disconnected" }),
  closed: Object.freeze({ cause: "closed" }),
  start_threw: Object.freeze({ cause: "start_threw" }),
});

/**
 * The driver of each transport: a second driver over one transport would take the first's messages
 * and read results from its polls (each core then ignores what was the other's), so it is refused.
 */
const DRIVER_OF = new WeakMap<Transport, Driver>();

/**
 * Work held back until a peer's `connectPeer` resolves. A grant keeps its envelope and when it
 * was queued, so its lease can be shortened by the wait (see `flushGrant`).
 */
type Pending =
  | { readonly kind: "send"; readonly bytes: Uint8Array }
  | { readonly kind: "grant"; readonly envelope: ectp.v1.IEnvelope; readonly queuedAt: number }
  | { readonly kind: "read"; readonly op: ReadOperation };

interface Connecting {
  readonly epoch: number;
  readonly token: number;
  readonly queue: Pending[];
  /** When this connect started (the driver's clock): it fails `connectTimeoutMs` later. */
  readonly startedAt: number;
  /** The cores holding it (the peer's entry in `holders` while it is current). */
  readonly roles: Set<Role>;
  /**
   * Whether the event loop has run a microtask since this connect started. While it has not, the
   * code calling `step()` has not yielded once, and no `connectPeer` promise can have settled.
   */
  yielded: boolean;
}

/** Default of {@link DriverOptions.connectTimeoutMs}: ms a peer's connect may stay pending. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * How long (ms on the driver's clock) a connect may stay pending, with its caller never having yielded
 * to the event loop since it started, before the driver warns that no connect can complete
 * (`connectTimeoutMs` when that is shorter: the warning comes before the connect fails).
 */
const NEVER_YIELDED_WARN_MS = 1_000;

/** The most steps {@link Driver.close} takes after closing the transport (each settles what the one before started). */
const CLOSE_STEPS_MAX = 16;
/**
 * The most turns of the event loop {@link Driver.close} gives reads still in flight to settle
 * before it closes the transport (a step after each), so that the ACK of a finished request whose
 * read was cancelled goes out on the open transport [P3].
 */
const CLOSE_SETTLE_TURNS = 3;

/** The longest delay a Node timer takes as given (a longer one fires after 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * Real time (ms) {@link Driver.run} lets the clock stand still while a deadline is pending before
 * it warns: long past any pause of a real clock, so a run on a clock that only its caller moves
 * (a virtual one: nothing ever falls due) is named instead of stalling in silence.
 */
const STILL_CLOCK_WARN_MS = 5_000;

/** Default of {@link DriverOptions.maxQueuedPerPeer}: messages and reads queued for a peer still connecting. */
export const DEFAULT_MAX_QUEUED_PER_PEER = 65_536;

type Target = "consumer" | "producer" | "both";

/** The state machine that asked for something (a connection, a disconnection). */
type Role = "consumer" | "producer" | "subscriber";

const EMPTY_ACTIVITY: TransportActivity = Object.freeze({ messages: [], reads: [], unreachable: [] });
/** Turns in a row in which the transport's wait ended early with nothing to poll, before `Driver.run` says it spins. */
const SPIN_WARNING_AFTER = 1000;
/** The lists of a {@link TransportActivity}. */
const LIST_NAMES = ["messages", "reads", "unreachable"] as const;
const isObject = (x: unknown): boolean => x !== null && typeof x === "object";
const isString = (x: unknown): boolean => typeof x === "string";
/** Whether every entry of `list` passes `ok`, holes included (`Array.prototype.every` skips a sparse array's holes, which `for...of` yields as `undefined`). */
const allEntries = (list: readonly unknown[], ok: (x: unknown) => boolean): boolean => {
  for (let i = 0; i < list.length; i++) if (!ok(list[i])) return false;
  return true;
};

/**
 * A plain copy of a transport's list, read by index (a hole is `undefined`); `[]` for what is not an
 * array. The empty list is shared and frozen: most polls return nothing.
 */
function copyOfList<T>(list: readonly T[] | undefined): readonly T[] {
  if (!Array.isArray(list) || list.length === 0) return NO_ENTRIES;
  const n = list.length;
  const copy = new Array<T>(n);
  for (let i = 0; i < n; i++) copy[i] = list[i] as T;
  return copy;
}
const NO_ENTRIES: readonly never[] = Object.freeze([]);

const defaultClock: Clock = { now: () => performance.now() };

/** Peer ids each of a driver's per-peer sets (`askedPeers`, ...) holds at most: the oldest goes first. */
const MAX_REMEMBERED_PEERS = 4_096;

/** Add `peerId` to `set` (as its newest), forgetting its oldest when full: a fleet's churn never grows it without bound. */
function remember(set: Set<string>, peerId: string): void {
  set.delete(peerId);
  if (set.size >= MAX_REMEMBERED_PEERS) set.delete(set.values().next().value as string);
  set.add(peerId);
}

/** The Transport methods a Driver calls (names of the interface: a renamed method fails to compile here). */
const TRANSPORT_METHODS = [
  "poll",
  "send",
  "startRead",
  "cancelRead",
  "connectPeer",
  "disconnectPeer",
  "waitForActivity",
  "close",
] as const satisfies readonly (keyof Transport)[];
/** The methods a Driver calls on a consumer, a producer and a subscriber. */
const CONSUMER_METHODS = [
  "poll",
  "handleMessage",
  "handleEnvelope",
  "handleReadResult",
  "handlePeerUnreachable",
  "nextDeadline",
  "stats",
] as const satisfies readonly (keyof ConsumerCore)[];
const PRODUCER_METHODS = ["poll", "handleMessage", "handleEnvelope", "handlePeerUnreachable", "nextDeadline"] as const satisfies readonly (keyof ProducerCore)[];
const SUBSCRIBER_METHODS = ["poll", "handleMessage", "handlePeerUnreachable", "nextDeadline"] as const satisfies readonly (keyof EventSubscriber)[];

/** The option names of a {@link Driver} (the keys of {@link DriverOptions}: a new option fails to compile until listed). */
const OPTION_KEYS: readonly string[] = Object.keys({
  transport: true,
  consumer: true,
  producer: true,
  subscriber: true,
  clock: true,
  maxWaitMs: true,
  connectTimeoutMs: true,
  maxQueuedPerPeer: true,
  onEventBatch: true,
  logger: true,
  metrics: true,
} satisfies Record<keyof DriverOptions, true>);

/**
 * Each role's option, what it takes, and a method only that kind has: the driver calls none of
 * them, but by them it knows a core given under another role's option. The methods it calls do
 * not tell them apart (a ConsumerCore has every one it calls on a producer or a subscriber).
 */
const ROLE_MARKS: readonly { readonly option: Role; readonly what: string; readonly mark: string }[] = [
  { option: "consumer", what: "a ConsumerCore", mark: "admit" satisfies keyof ConsumerCore },
  { option: "producer", what: "a ProducerCore", mark: "announce" satisfies keyof ProducerCore },
  { option: "subscriber", what: "an EventSubscriber", mark: "follow" satisfies keyof EventSubscriber },
];

/**
 * [P8] Refuses cores that would not speak as the transport's one peer: a core whose id is not
 * `transport.localId` (every peer would drop its envelopes, whose sender_id differs from the sender
 * the transport reports: `sender_mismatch`, logged only on their side), and a consumer and a
 * producer of different epochs (a peer has one epoch, whatever roles it plays: the Heartbeats of
 * either core would read, on the other side, as a restart of the other role's peer, ending its
 * fetches or releasing grants still being read). Checked only where the values are there (a stand-in
 * core may lack them).
 * @throws EctpError(INVALID_CONFIG) naming the options that disagree.
 */
function refuseMismatchedIdentities(transport: Transport, options: DriverOptions): void {
  const localId: unknown = transport.localId;
  for (const option of ["consumer", "producer", "subscriber"] as const) {
    const id: unknown = (options[option] as { id?: unknown } | undefined)?.id;
    if (typeof localId === "string" && typeof id === "string" && id !== localId)
      throw new EctpError(
        "INVALID_CONFIG",
        `options.${option}.id is ${JSON.stringify(id)} but the transport's localId is ${JSON.stringify(localId)}: peers drop envelopes whose sender_id is not the sender their transport reports. Construct the ${option} with id: transport.localId`,
        { details: { option, id, localId } },
      );
  }
  const consumerEpoch: unknown = (options.consumer as { epoch?: unknown } | undefined)?.epoch;
  const producerEpoch: unknown = (options.producer as { epoch?: unknown } | undefined)?.epoch;
  if (typeof consumerEpoch === "number" && typeof producerEpoch === "number" && consumerEpoch !== producerEpoch)
    throw new EctpError(
      "INVALID_CONFIG",
      `options.consumer.epoch (${consumerEpoch}) and options.producer.epoch (${producerEpoch}) differ: a peer has one epoch whatever roles it plays [P8], and each core's Heartbeats would read to the other side as a restart of the other role. Construct both with the same epoch (read the clock once)`,
      { details: { consumerEpoch, producerEpoch } },
    );
}

/**
 * Refuses a core or subscriber given under another role's option (a ConsumerCore as
 * `options.producer`): it has the other kind's mark and not its own. Accepted, it would be driven
 * in the wrong role: a consumer given as the producer starts reads whose results the driver hands
 * to no one, and every item fails TRANSFER_TIMEOUT as if the transport hung.
 */
function refuseRoleSwap(option: Role, value: unknown): void {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return; // (requireMethods names it)
  const has = (method: string) => typeof (value as Record<string, unknown>)[method] === "function";
  const own = ROLE_MARKS.find((r) => r.option === option) as (typeof ROLE_MARKS)[number];
  if (has(own.mark)) return;
  const actual = ROLE_MARKS.find((r) => r.option !== option && has(r.mark));
  if (actual !== undefined)
    throw new EctpError(
      "INVALID_CONFIG",
      `options.${option} must be ${own.what}, but it is ${actual.what} (it has ${actual.mark}(), and no ${own.mark}()): pass it as options.${actual.option}`,
      { details: { option, belongsIn: actual.option } },
    );
}

/**
 * Binds a {@link Transport} and a {@link Clock} to a `ConsumerCore` and/or a `ProducerCore`, or
 * to an `EventSubscriber`.
 *
 * Why it exists: the cores are sans-IO (they take `now` and return outputs), so something
 * must poll the transport, route each received envelope to the core that handles it,
 * feed settled reads and unreachable peers back, and carry out what the cores ask for.
 * This is that something, and nothing more: no protocol rule lives here.
 *
 * Routing: `read_grant`, `read_reject`, `handshake_reject` and a producer's `hello` go to
 * the consumer; `read_request`, `read_complete`, `replay_request`, `snapshot_request` and a
 * consumer's `hello` go to the producer; `heartbeat` (and a `ROLE_BOTH` hello) to both.
 * A message for a role this driver lacks goes to the other core, which ignores and counts it
 * [C10]. A subscriber runs alone in its driver and gets everything (it uses what its followed
 * producers send and ignores and counts the rest).
 *
 * Connections: a `connect-peer` output starts `transport.connectPeer` (asynchronous);
 * until it resolves, sends to and reads from that peer are queued so nothing reaches a
 * peer whose metadata is not loaded yet. If it rejects, stays pending for `connectTimeoutMs`,
 * or more than `maxQueuedPerPeer` messages and reads queue behind it, queued reads settle as
 * `failed`, queued messages are dropped (on a timeout or overflow the transport is also told to
 * forget the peer), and the cores that asked for that connection are told the peer is
 * unreachable. With both
 * cores, a connection belongs to every core that asked for its peer, whatever epoch each asked
 * for: one core's `disconnect-peer` leaves a connection the other still holds, and a
 * `connect-peer` for an older epoch than the peer's current connection starts no connect ([P8]:
 * the newer stands; the core asking holds the newer one).
 *
 * Identity: a driver's cores are one peer, the transport's: each core's id is `transport.localId`,
 * and a consumer and a producer share one epoch [P8] (each core's Heartbeats reach both cores of a
 * peer, so another epoch would read there as a restart of the other role). The constructor refuses
 * anything else.
 *
 * Ownership: a driver owns its transport for the transport's whole life ({@link Driver.close}
 * closes it), and a transport takes one driver (a second is refused: it would take the first's
 * messages and read results). {@link Driver.stop} only pauses {@link Driver.run}: connects still
 * pending complete afterwards and send what was queued behind them.
 */
export class Driver {
  private readonly transport: Transport;
  private readonly consumer: ConsumerCore | undefined;
  private readonly producer: ProducerCore | undefined;
  private readonly subscriber: EventSubscriber | undefined;
  /**
   * The clock this driver and its cores read: `options.clock`, or the default, real time
   * (`performance.now()`). A loop that moves a virtual clock (`@ectp/transport-mock`'s
   * `runOnVirtualTime`) reads it to refuse a driver left on another clock.
   */
  readonly clock: Clock;
  private readonly maxWaitMs: number;
  private readonly connectTimeoutMs: number;
  private readonly maxQueuedPerPeer: number;
  private readonly onEventBatch: ((batch: ectp.v1.IEventBatch) => void) | undefined;
  private readonly logger: Logger;
  private readonly metrics: MetricsSink;

  private readonly connecting = new Map<string, Connecting>();
  private readonly connected = new Map<string, number>();
  /** The cores holding each peer's current connection (connected or connecting): those that asked for its epoch. */
  private readonly holders = new Map<string, Set<Role>>();
  /** The ids of reads queued behind a pending connect and not cancelled since (each leaves it when it starts, fails or is cancelled). */
  private readonly queuedReads = new Set<number>();
  private syntheticResults: ReadResult[] = [];
  /** Ends the wait {@link Driver.run} is in, if any (see `wake()`). */
  private wakeRun: (() => void) | undefined;
  /** Set by `wake()` since the last step: the next wait is skipped. */
  private woken = false;
  /** Peers whose connect failed, with the cores to tell. */
  private failedPeers: { readonly peerId: string; readonly roles: ReadonlySet<Role> }[] = [];
  private nextToken = 1;
  /** The latest good clock reading (see `now()`). */
  private lastNow = Number.NEGATIVE_INFINITY;
  /** `transport.waitForActivity` rejections in a row (the first is logged, then one line when it works again). */
  private waitRejections = 0;
  private running = false;
  private loop: Promise<void> | undefined;
  /** True while {@link Driver.step} runs: a step called from inside it does nothing but wake run(). */
  private stepping = false;
  /** Set by {@link Driver.close}: `closing` while it runs, `closed` after (steps and run() do nothing). */
  private state: "open" | "closing" | "closed" = "open";
  /** The promise of the first {@link Driver.close}, which every later call returns. */
  private closing: Promise<void> | undefined;
  /**
   * Connected peers the transport has since reported unreachable: it may have dropped their
   * metadata (NIXL does), so a connect-peer for the same epoch goes to the transport again [P8].
   */
  private readonly staleConnections = new Set<string>();
  /**
   * Peers a core asked this driver to connect (the latest {@link MAX_REMEMBERED_PEERS}): a peer the
   * transport reports unreachable that is not among them was never connected, because no core knew
   * its transport metadata, which the driver says once per peer (`unconnectedWarned`).
   */
  private readonly askedPeers = new Set<string>();
  private readonly unconnectedWarned = new Set<string>();
  /** Whether the warning that the caller of `step()` never yields was given (once per driver). */
  private neverYieldedWarned = false;
  /** Whether a core's Hello without transport metadata, on a transport that has some, was logged (once per driver). */
  private bareHelloWarned = false;
  /** Whether the last step's poll brought nothing (a wait that woke for it woke for nothing). */
  private polledNothing = false;
  /** Whether a poll without its three lists, and one with malformed entries, was logged (each once per driver: a broken transport breaks every poll). */
  private readonly pollBreachLogged = { lists: false, entries: false };
  /** Peers whose connect failed since one last worked: their further failures are logged at info. */
  private readonly connectFailing = new Set<string>();

  /**
   * @param options - the transport, the core(s) and/or subscriber, and optional clock, wait cap,
   *   connect timeout, per-peer queue cap, event hook and logger.
   * @throws EctpError(INVALID_CONFIG) with a key that is not an option (a misspelt one, naming it
   *   and the nearest option), without a transport, without any core or subscriber, with a
   *   subscriber beside a core, with a core or subscriber under another role's option (a
   *   ConsumerCore as `producer`: naming the option it belongs in), with a transport, core,
   *   subscriber or clock lacking a method the driver calls (named), with a bad `maxWaitMs`,
   *   `connectTimeoutMs`, `maxQueuedPerPeer`, `onEventBatch` or `logger`, with a core whose id is
   *   not `transport.localId` or a consumer and producer of different epochs [P8], or over a
   *   transport that already has a driver.
   */
  constructor(options: DriverOptions) {
    // First: a misspelt option (`connectTimeout`, `maxWait`) is named as such, not run silently
    // with its default (nor reported as the transport missing, for `transprt`).
    if (options !== null && typeof options === "object") {
      refuseUnknownOptions("Driver", options, OPTION_KEYS);
      // Each option read once, here: a getter or Proxy trap that throws is refused naming it [I1].
      options = readOptions("Driver", options, OPTION_KEYS);
    }
    if (!options || typeof options.transport !== "object" || options.transport === null)
      throw new EctpError("INVALID_CONFIG", "Driver needs options.transport (a Transport implementation)");
    if (!options.consumer && !options.producer && !options.subscriber)
      throw new EctpError("INVALID_CONFIG", "Driver needs options.consumer, options.producer, both, or options.subscriber");
    if (options.subscriber && (options.consumer || options.producer))
      throw new EctpError(
        "INVALID_CONFIG",
        "Driver runs a subscriber alone: beside a core it would speak to producers under this transport's one peer id with its own epoch, " +
          "and a producer keeps one record (epoch, grants, subscription) per peer id. Give the subscriber its own transport, peer id and Driver.",
      );
    for (const option of ["consumer", "producer", "subscriber"] as const) refuseRoleSwap(option, options[option]);
    requireMethods("options.transport", options.transport, TRANSPORT_METHODS, "a Transport (see @ectp/core's Transport interface)");
    if (options.consumer) requireMethods("options.consumer", options.consumer, CONSUMER_METHODS, "a ConsumerCore");
    if (options.producer) requireMethods("options.producer", options.producer, PRODUCER_METHODS, "a ProducerCore");
    if (options.subscriber) requireMethods("options.subscriber", options.subscriber, SUBSCRIBER_METHODS, "an EventSubscriber");
    if (options.clock !== undefined) requireMethods("options.clock", options.clock, ["now"], "a Clock ({ now(): number }, in ms)");
    refuseMismatchedIdentities(options.transport, options);
    if (options.onEventBatch !== undefined && typeof options.onEventBatch !== "function")
      throw new EctpError("INVALID_CONFIG", `options.onEventBatch must be a function (batch) => void; got ${describeValue(options.onEventBatch)}`);
    const maxWait = options.maxWaitMs ?? 50;
    if (typeof maxWait !== "number" || !Number.isFinite(maxWait) || maxWait < 0)
      throw new EctpError("INVALID_CONFIG", `options.maxWaitMs must be a non-negative number of ms; got ${describeValue(maxWait)}. Omit it for the default of 50`);
    const connectTimeout = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    if (typeof connectTimeout !== "number" || !Number.isFinite(connectTimeout) || connectTimeout <= 0)
      throw new EctpError("INVALID_CONFIG", `options.connectTimeoutMs must be a positive number of ms; got ${describeValue(connectTimeout)}. Omit it for the default of ${DEFAULT_CONNECT_TIMEOUT_MS}`);
    const maxQueued = options.maxQueuedPerPeer ?? DEFAULT_MAX_QUEUED_PER_PEER;
    if (typeof maxQueued !== "number" || !Number.isSafeInteger(maxQueued) || maxQueued < 1)
      throw new EctpError("INVALID_CONFIG", `options.maxQueuedPerPeer must be a positive integer; got ${describeValue(maxQueued)}. Omit it for the default of ${DEFAULT_MAX_QUEUED_PER_PEER}`);
    if (DRIVER_OF.has(options.transport))
      throw new EctpError(
        "INVALID_CONFIG",
        "options.transport already has a Driver: two drivers over one transport take each other's messages and read results (each core then ignores what was the other's). Run both cores in one Driver ({ consumer, producer }); a transport belongs to one driver for its whole life",
      );
    this.transport = options.transport;
    this.consumer = options.consumer;
    this.producer = options.producer;
    this.subscriber = options.subscriber;
    this.clock = options.clock ?? defaultClock;
    this.maxWaitMs = maxWait;
    this.connectTimeoutMs = connectTimeout;
    this.maxQueuedPerPeer = maxQueued;
    this.onEventBatch = options.onEventBatch;
    // [I1] A logger that throws must not end the loop: contained (the driver keeps no stats).
    this.logger = containLogger(options.logger, () => {});
    // [I1] Contained too; its first failure is logged (the driver keeps no stats to count the rest in).
    this.metrics = containMetrics(options.metrics, () => {}, undefined, (fields) =>
      this.logger.error("the driver's metrics hook threw: its samples are lost while it does (logged once)", fields),
    );
    DRIVER_OF.set(this.transport, this); // last: a constructor that threw leaves the transport free
  }

  /** Count `n` messages a core sent that the driver dropped, by why. */
  private dropped(cause: DropCause, n = 1): void {
    this.metrics.counter("ectp_driver_sends_dropped_total", n, CAUSE_LABELS[cause]);
  }

  /** Count a read that failed in the driver before the transport ran it, by why. */
  private readFailed(cause: ReadFailCause): void {
    this.metrics.counter("ectp_driver_reads_failed_total", 1, CAUSE_LABELS[cause]);
  }

  /** True between {@link Driver.run} and the end of the loop after {@link Driver.stop}. */
  get isRunning(): boolean {
    return this.running || this.loop !== undefined;
  }

  /**
   * One iteration: collect what the transport has, route it to the cores, poll the cores
   * and carry out their outputs. Synchronous and never blocks; drives a simulation or a
   * test step by step. `transport.connectPeer` returns a promise, and what a core sends a peer
   * waits for it: a loop of steps must yield to the event loop between them (`await` a
   * `setImmediate`; under real time, the transport's `waitForActivity`), or no connection ever completes and
   * every peer times out as unreachable after `connectTimeoutMs` (a warning names the loop that never
   * yields, once a connect has been pending 1 s of its clock without a turn of the event loop).
   *
   * Called from inside a step (engine code the step runs: a core's hook, `onEventBatch`) it does
   * nothing but {@link Driver.wake}: what arrived meanwhile waits for the next step. Engine code a
   * core runs inside a call the engine made (`admit`, `finishRequest`, ...) must not call it: that
   * core refuses what the step hands it (REENTRANT_CALL), and that input is lost (logged).
   */
  step(): void {
    if (this.state === "closed") return;
    if (this.stepping) {
      // [I1] A nested step would poll the transport and hand what it took to a core still inside
      // its call, which refuses it (REENTRANT_CALL): that input would be lost.
      this.wake();
      return;
    }
    this.stepping = true;
    try {
      this.stepOnce();
    } finally {
      this.stepping = false;
    }
  }

  /** What {@link Driver.step} does, outside any other step. */
  private stepOnce(): void {
    const now = this.now();
    if (this.connecting.size > 0) this.expireConnects(now); // the cores hear of it below, before they are polled
    // [I1] Each hand-off is contained: a core call that throws (a bug, or a call from engine code
    // inside a core's own call) costs that input alone, never the rest of what the step took.
    if (this.syntheticResults.length > 0) {
      const results = this.syntheticResults;
      this.syntheticResults = [];
      if (this.consumer) for (const r of results) this.handReadResult(r, now);
    }
    if (this.failedPeers.length > 0) {
      const peers = this.failedPeers;
      this.failedPeers = [];
      for (const p of peers) this.unreachable(p.peerId, now, p.roles);
    }
    const activity = this.pollTransport();
    this.polledNothing = activity.messages.length === 0 && activity.reads.length === 0 && activity.unreachable.length === 0;
    // [P8] In this order: reads that settled (their bytes landed while the grant was live), then
    // peers found unreachable (a send or connect before this poll failed), then messages (the
    // newest news of a peer). A report about a consumer's or producer's last run, handed over after
    // the Hello of its new run in the same poll, declared the new run gone (its grants released,
    // its answers dropped: a 6 s stall); before, it ends only the run it was about.
    if (this.consumer) for (const r of activity.reads) this.handReadResult(r, now);
    for (const p of activity.unreachable) {
      if (this.connected.has(p)) this.staleConnections.add(p);
      else if (!this.connecting.has(p) && !this.askedPeers.has(p)) this.neverConnected(p);
      this.unreachable(p, now);
    }
    for (const m of activity.messages) this.handReceived(m, now);
    this.pump(now);
  }

  /**
   * A read result to the consumer, contained as every hand-off of a step is: reading the entry
   * too, as a transport's entry may be an object whose getters throw [I1].
   */
  private handReadResult(r: ReadResult, now: number): void {
    try {
      this.consumer?.handleReadResult(r, now);
    } catch (cause) {
      this.inputLost("handleReadResult", cause);
    }
  }

  /** [I1] A received message to the cores; an entry whose getters throw is lost alone, logged. */
  private handReceived(m: ReceivedMessage, now: number): void {
    let from: string;
    let bytes: Uint8Array;
    try {
      ({ from, bytes } = m);
    } catch (cause) {
      this.inputLost("a received message", cause);
      return;
    }
    this.deliver(from, bytes, now);
  }

  /** [I1] A core threw while the driver handed it `input`: logged; that input is lost, the step goes on. */
  private inputLost(input: string, cause: unknown): void {
    this.logger.error("a core threw while the driver handed it input; that input is lost, the step goes on", { input, error: thrownText(cause) });
  }

  /**
   * What the transport has; a poll that throws, or whose result cannot be read, counts as nothing
   * received, and one that breaks the {@link TransportActivity} shape keeps what it did give
   * well-formed (all logged).
   */
  private pollTransport(): TransportActivity {
    let activity: TransportActivity;
    try {
      activity = this.transport.poll();
    } catch (cause) {
      this.logger.error("transport.poll threw; nothing received this step", { error: thrownText(cause) });
      return EMPTY_ACTIVITY;
    }
    let lists: TransportActivity;
    try {
      lists = this.listsOf(activity);
    } catch (cause) {
      // [I1] Transport results never throw into the engine, not even a result whose list getter, Proxy trap or entries throw.
      this.logger.error("transport.poll returned a result that could not be read; nothing received this step", { error: thrownText(cause) });
      return EMPTY_ACTIVITY;
    }
    return this.wellFormedEntries(lists);
  }

  /**
   * `activity`'s three lists, each read once and copied entry by entry (holes as `undefined`), so
   * that the step iterates plain arrays: a getter that answers differently when read again, or a
   * list whose iterator or entries throw, acts here, inside {@link Driver.pollTransport}'s `try`. A
   * list that is missing or not an array counts as empty (logged once). Throws what reading throws.
   */
  private listsOf(activity: TransportActivity): TransportActivity {
    const a = (activity !== null && typeof activity === "object" ? activity : {}) as Partial<TransportActivity>;
    const lists = { messages: a.messages, reads: a.reads, unreachable: a.unreachable };
    if (!(Array.isArray(lists.messages) && Array.isArray(lists.reads) && Array.isArray(lists.unreachable)) && !this.pollBreachLogged.lists) {
      // [I1] A transport breaking its contract must not throw into the engine: keep the lists it did give.
      this.pollBreachLogged.lists = true;
      const missing = LIST_NAMES.filter((name) => !Array.isArray(lists[name]));
      this.logger.error(
        "transport.poll returned no { messages, reads, unreachable } lists; a missing list counts as empty (logged once: later polls like it are taken the same way)",
        { poll: describeValue(activity), missing },
      );
    }
    return { messages: copyOfList(lists.messages), reads: copyOfList(lists.reads), unreachable: copyOfList(lists.unreachable) };
  }

  /**
   * [I1] `activity` without the entries that are not objects (messages, read results) or strings
   * (unreachable peers), logged: one such entry must not throw into the engine nor cost the rest of
   * the poll. The cores check what the entries hold.
   */
  private wellFormedEntries(activity: TransportActivity): TransportActivity {
    if (allEntries(activity.messages, isObject) && allEntries(activity.reads, isObject) && allEntries(activity.unreachable, isString)) return activity;
    const kept = { messages: activity.messages.filter(isObject), reads: activity.reads.filter(isObject), unreachable: activity.unreachable.filter(isString) };
    if (!this.pollBreachLogged.entries) {
      this.pollBreachLogged.entries = true;
      const leftOut = LIST_NAMES.filter((name) => kept[name].length !== activity[name].length);
      const first = leftOut[0] as (typeof LIST_NAMES)[number];
      const list: readonly unknown[] = activity[first];
      const ok = first === "unreachable" ? isString : isObject;
      this.logger.error(
        "transport.poll returned entries that are not objects (or peer ids); they are left out (logged once: later ones are left out the same way)",
        { lists: leftOut, example: describeValue(Array.from(list).find((x) => !ok(x))) },
      );
    }
    return kept;
  }

  /**
   * Run {@link Driver.step} in real time until {@link Driver.stop}, sleeping on
   * `transport.waitForActivity` until the cores' next deadline (at most `maxWaitMs`); a pending
   * connect's `connectTimeoutMs` also ends the sleep, and {@link Driver.wake} ends it at once.
   * Resolves when the loop has ended. Calling it while running returns the same promise, and
   * so does calling it after {@link Driver.stop} while that loop has not ended yet: the loop
   * then keeps running. It needs a clock that moves by itself (the default, real time): on a
   * virtual clock that only the caller advances (a `MockNetwork`'s own), deadlines never come;
   * there, step with {@link Driver.step} and advance the clock to {@link Driver.nextDeadline}. With
   * a clock other than the default, each wait is also bounded by real time, so that a clock still for
   * 5 s of real time while a deadline is pending is logged (a warning, once per run) even on a
   * transport whose wait never ends by itself (the mock's, on its own virtual time). A transport
   * whose waits keep ending early with nothing to poll (1,000 turns in a row: the loop spins) is
   * logged too, a warning once per run.
   */
  run(): Promise<void> {
    if (this.state !== "open") return this.loop ?? Promise.resolve();
    this.running = true;
    if (this.loop) return this.loop;
    const loop = (async () => {
      try {
        // The first step waits for the caller's code to return: run() called from engine code
        // inside a core's call must not step that core from within it (REENTRANT_CALL, input lost).
        await Promise.resolve();
        let turns = 0;
        const still = { reading: Number.NaN, since: 0, warned: false };
        const spin = { quick: false, inARow: 0, warned: false };
        while (this.running) {
          this.woken = false; // news from here on ends (or skips) the coming wait
          try {
            this.step();
          } catch (cause) {
            this.logger.error("driver step failed; continuing", { error: thrownText(cause) });
          }
          if (!this.running) break;
          this.noteSpin(spin);
          const stillBoundMs = this.noteStillClock(still);
          const wait = this.waitMs(); // (never throws: a core's nextDeadline that does is contained there [I1])
          // Every 64th turn passes through the event loop whatever the transport does: a wait
          // that resolves at once every time must not starve the process's timers and I/O.
          if (wait <= 0 || ++turns % 64 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
          if (wait > 0 && this.running && !this.woken) {
            // Aborted once this wait is no longer awaited: the transport drops it then (see Transport.waitForActivity).
            const abandon = new AbortController();
            let stillTimer: ReturnType<typeof setTimeout> | undefined;
            try {
              // The driver's own news (a connect that failed, stop()) ends the wait too: a
              // transport has no activity to report for it. [I1] Armed before the transport is
              // asked: a wake() or stop() made by engine code the wait itself runs (a mock
              // network's observer) ends this wait instead of being lost until its timeout.
              const woken = new Promise<void>((resolve) => (this.wakeRun = resolve));
              const asked = performance.now(); // (before the call: a transport may block inside it)
              const waiting = this.transport.waitForActivity(wait, abandon.signal);
              // A wait that is no promise would make this loop spin: taken as a rejected one.
              if (typeof (waiting as Promise<void> | undefined)?.then !== "function")
                throw new EctpError("INTERNAL", "transport.waitForActivity returned no promise");
              // On a clock that is not real time the wait is bounded by real time too, until the
              // still-clock warning is due: a transport on that clock's virtual time (a MockNetwork's
              // own) never ends its wait by itself, so the warning would never be reached.
              const stillCheck =
                stillBoundMs === undefined ? [] : [new Promise<void>((resolve) => (stillTimer = setTimeout(resolve, stillBoundMs)))];
              await Promise.race([waiting, woken, ...stillCheck]);
              // Ended well before its timeout (in real time), not by the driver's own news: see noteSpin.
              spin.quick = !this.woken && wait >= 2 && performance.now() - asked < wait / 2;
              if (this.waitRejections > 0) {
                this.logger.warn("transport.waitForActivity works again", { rejections: this.waitRejections });
                this.waitRejections = 0;
              }
            } catch (cause) {
              // Sleep the wait on a timer instead: a transport whose wait keeps failing must not
              // turn the loop into a spin (one step and one log line per turn).
              if (++this.waitRejections === 1)
                this.logger.error("transport.waitForActivity rejected; sleeping on a timer until it works again", { error: thrownText(cause) });
              if (this.running && !this.woken)
                await new Promise<void>((resolve) => {
                  const timer = setTimeout(resolve, Math.min(wait, MAX_TIMER_MS));
                  this.wakeRun = () => {
                    clearTimeout(timer);
                    resolve();
                  };
                });
            } finally {
              clearTimeout(stillTimer);
              this.wakeRun = undefined;
              abandon.abort();
            }
          }
        }
      } finally {
        this.running = false;
        this.loop = undefined;
      }
    })();
    this.loop = loop; // (assigned before the first step, which waits for this call to return)
    return loop;
  }

  /**
   * After a step of {@link Driver.run}: a transport whose `waitForActivity` ends before half its
   * timeout, turn after turn, with nothing to poll breaks its contract (edge-triggered waits) and
   * makes the loop spin, a core of CPU while idle. Logged once per run, at warning level, after
   * `SPIN_WARNING_AFTER` such turns in a row; the loop goes on as before.
   */
  private noteSpin(spin: { quick: boolean; inARow: number; warned: boolean }): void {
    const quick = spin.quick;
    spin.quick = false;
    if (!quick || !this.polledNothing) {
      spin.inARow = 0;
      return;
    }
    if (++spin.inARow < SPIN_WARNING_AFTER || spin.warned) return;
    spin.warned = true;
    this.logger.warn(
      "transport.waitForActivity keeps ending early with nothing to poll, so Driver.run spins; a wait must sleep until new activity or its timeout (edge-triggered: see Transport.waitForActivity)",
      { turns: spin.inARow },
    );
  }

  /**
   * Shut down: end {@link Driver.run} (awaiting the loop), take a step that sends what the cores
   * queued (finish or cancel the engine's requests first with `finishRequest`, so that the grants
   * they held are acknowledged here; a producer that hears nothing releases them at their lease's
   * end [P3]), and while the consumer still has reads in flight or a connect is pending up to three
   * more, each after a turn of the event loop (a finished request's read is cancelled, and its grant
   * acknowledged once the read has settled; what a core queued behind a connect goes out once it
   * completes, and is dropped if it has not by then), close the transport (its unsettled reads settle `cancelled`, so nothing writes into
   * the consumer's destinations any more), and take a last step, in which the consumer hears those
   * results and releases the destinations [I5] (more steps while a result of its own is pending: a
   * grant that arrived meanwhile starts a read the closed transport fails; after 16 such steps, the
   * results the driver still holds reach the consumer without another poll). Afterwards `step()` and `run()` do nothing;
   * a second call, during or after the first, returns the first's promise (the transport is closed
   * once). A transport whose `close` rejects is logged, and the last step is still taken. The cores
   * are not shut down: a producer's `shutdown()` comes before this.
   */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  /** What {@link Driver.close} does, once. */
  private async shutDown(): Promise<void> {
    this.state = "closing";
    this.stop();
    if (this.loop) await this.loop;
    // Called from engine code (a hook) inside a step or a core's call: that step first carries out
    // the rest of the outputs it polled, with the transport still open, and the core's call returns.
    else await Promise.resolve();
    this.closingStep();
    // A finished request's read is cancelled in that step, and its grant is acknowledged only once
    // the read has settled [C7][I5]: a transport that settles a cancel at once (the mock) or soon gets
    // a few turns to do so while it is open, or the ACK would be sent after the close and lost (the
    // producer then kept the pin until it found this consumer gone, 4 s later with the defaults).
    // So does a connect the cores asked for in that step: what they queued behind it (a shutting-down
    // producer's answers, a grant) goes out if it completes within those turns, as a transport
    // that has the peer's metadata at hand completes it at once.
    for (let turn = 0; turn < CLOSE_SETTLE_TURNS && (this.consumerReadsInFlight() > 0 || this.connecting.size > 0); turn++) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.closingStep();
    }
    this.abandonConnects();
    try {
      await this.transport.close();
    } catch (cause) {
      this.logger.error("transport.close rejected", { error: thrownText(cause) });
    }
    // The closed transport has settled every read it held (`cancelled`), but may hand the results
    // over in more than one poll, or throw at the first (the mock and transport-nixl: the next poll
    // hands them over). Messages that arrived meanwhile are still handed over too, and a grant among
    // them makes the consumer start a read on the closed transport, which fails it: at once (a throw,
    // settled by the driver) or through its next poll (transport-nixl). Step until the consumer has
    // heard every read's result [I5], or a read would stay in flight, its destination held, for good.
    try {
      let steps = 0;
      do {
        this.closingStep();
        this.abandonConnects();
      } while ((this.hasWork || this.consumerReadsInFlight() > 0) && ++steps < CLOSE_STEPS_MAX);
      this.handOverHeld();
    } finally {
      this.state = "closed";
    }
  }

  /**
   * [I5] The last of closing, when its steps ran out: results the driver still holds go to the
   * consumer without another step (no poll, so no new read starts), so every read the consumer
   * started has had its result, and {@link Driver.hasWork} is false from then on (a loop on virtual
   * time waits for no driver that will never step again). Failed connects are no longer told.
   */
  private handOverHeld(): void {
    const results = this.syntheticResults;
    this.syntheticResults = [];
    this.failedPeers = [];
    if (this.consumer === undefined || results.length === 0) return;
    const now = this.now();
    for (const r of results) this.handReadResult(r, now);
  }

  /** The consumer's reads not yet settled (0 without a consumer, or when its `stats()` throws: closing goes on). */
  private consumerReadsInFlight(): number {
    try {
      return this.consumer?.stats().readsInFlight ?? 0;
    } catch {
      return 0;
    }
  }

  /** A step of {@link Driver.close}: one that throws is logged, and closing goes on (the transport is closed all the same). */
  private closingStep(): void {
    try {
      this.step();
    } catch (cause) {
      this.logger.error("driver step failed while closing; closing goes on", { error: thrownText(cause) });
    }
  }

  /**
   * [I5] While closing: nothing waiting behind a connect still pending may reach the transport
   * once it is closed (a connect that completes later would start its reads there). Queued reads
   * settle as failed (heard in the next step), queued messages are lost.
   */
  private abandonConnects(): void {
    for (const c of this.connecting.values()) this.failQueue(c, "the driver closed before the peer's connection completed", "closed");
    this.connecting.clear();
  }

  /** Ask {@link Driver.run} to end after the current step (a wait in progress ends at once). */
  stop(): void {
    this.running = false;
    this.wake();
  }

  /**
   * Tell {@link Driver.run} there is work: its current wait ends (or its next is skipped) and it
   * steps at once. Call it after giving a core work between steps (`admit`, `finishRequest` (a
   * cancelled request's too), a store change that publishes events, `follow`); otherwise what that work
   * queued goes out after the wait, up to `maxWaitMs` later. The driver wakes itself for its own
   * news (a failed connect, {@link Driver.stop}). Harmless when not running.
   */
  wake(): void {
    this.woken = true;
    this.wakeRun?.();
  }

  /**
   * When {@link Driver.step} next has work, on the driver's clock: the earliest of the cores'
   * `nextDeadline()` and of the pending connects' timeouts (`connectTimeoutMs`); `undefined` when
   * none is pending. A loop on virtual time advances its clock to it (results the driver itself
   * settles, e.g. after a failed connect, are due at once: see {@link Driver.hasWork}).
   */
  nextDeadline(): number | undefined {
    let next: number | undefined;
    for (const c of this.connecting.values()) {
      const d = c.startedAt + this.connectTimeoutMs;
      if (next === undefined || d < next) next = d;
    }
    for (const core of [this.consumer, this.producer, this.subscriber]) {
      if (core === undefined) continue;
      let d: number | undefined;
      try {
        d = core.nextDeadline();
      } catch (cause) {
        // [I1] A core's bug costs its deadline, never the caller's loop: logged, and read as none
        // (run() then sleeps up to maxWaitMs; a deadline of now would make it spin).
        this.logger.error("a core's nextDeadline threw; taken as no deadline", { error: thrownText(cause) });
        d = undefined;
      }
      // [I1] A deadline that is not a number (a core's bug: NaN, null) is none: it would make run() spin.
      if (typeof d === "number" && !Number.isNaN(d) && (next === undefined || d < next)) next = d;
    }
    return next;
  }

  /** Whether the driver holds results or failed connects of its own that the next {@link Driver.step} hands to the cores (never after {@link Driver.close}). */
  get hasWork(): boolean {
    return this.syntheticResults.length > 0 || this.failedPeers.length > 0;
  }

  /**
   * Milliseconds until a core needs polling, capped at `maxWaitMs` and at the longest delay a Node
   * timer takes (a transport sleeping a longer one on `setTimeout` would wake after 1 ms, every
   * time); 0 when work is waiting.
   */
  private waitMs(): number {
    if (this.hasWork) return 0;
    const next = this.nextDeadline();
    const cap = Math.min(this.maxWaitMs, MAX_TIMER_MS);
    return next === undefined ? cap : Math.min(cap, Math.max(0, next - this.now()));
  }

  /**
   * Warn once per run when the clock has read the same for {@link STILL_CLOCK_WARN_MS} of real time
   * while a core or connect has a deadline: `run()` on a clock only its caller advances. The default
   * clock is real time itself, so with it there is nothing to watch (and no second reading per turn).
   * @returns Real ms until the warning is next due, which bounds the coming wait (the transport's
   *   wait may never end in real time); `undefined` when there is nothing to watch (the default
   *   clock, or the warning given).
   */
  private noteStillClock(still: { reading: number; since: number; warned: boolean }): number | undefined {
    if (still.warned || this.clock === defaultClock) return undefined;
    const realNow = performance.now();
    if (this.lastNow !== still.reading) {
      still.reading = this.lastNow;
      still.since = realNow;
    }
    const left = still.since + STILL_CLOCK_WARN_MS - realNow;
    if (left > 0) return left;
    let pending: number | undefined;
    try {
      pending = this.nextDeadline();
    } catch {
      pending = undefined; // (logged by the wait that follows)
    }
    if (pending === undefined) return STILL_CLOCK_WARN_MS; // nothing due: an idle clock may stand still; looked at again later
    still.warned = true;
    this.logger.warn(
      `run(): the clock has not moved in ${STILL_CLOCK_WARN_MS / 1000} s of real time while a deadline is pending; run() needs a clock that moves by itself (real time). On a virtual clock, call step() and advance the clock to nextDeadline() instead`,
      { clockReading: this.lastNow, nextDeadline: pending },
    );
    return undefined;
  }

  /**
   * [I1] The clock as the cores accept it: a reading that is not a finite number, or that throws,
   * counts as the latest good one (logged), and time never goes back. The cores check their own
   * readings too; this one times the driver's own work (connect timeouts, a queued grant's lease).
   */
  private now(): number {
    let reading: number;
    try {
      reading = this.clock.now();
    } catch (cause) {
      this.logger.error("clock.now() threw; the last good reading is used", { error: thrownText(cause) });
      return Number.isFinite(this.lastNow) ? this.lastNow : 0;
    }
    this.lastNow = checkedNow(reading, this.lastNow, this.logger);
    return this.lastNow;
  }

  // ---------------------------------------------------------------- input

  /** A received message to the core(s) it is for; [I1] each core's hand-off is contained: one that throws loses that core's copy alone. */
  private deliver(from: string, bytes: Uint8Array, now: number): void {
    if (this.subscriber) {
      // Alone in this driver: it uses what its followed producers send, and ignores and counts the rest [C10].
      this.handMessage(this.subscriber, from, bytes, now);
      return;
    }
    let decoded: ReturnType<typeof decodeEnvelope>;
    try {
      decoded = decodeEnvelope(bytes);
    } catch (cause) {
      this.inputLost("a received message", cause);
      return;
    }
    if (decoded.ok) {
      const target = this.pick(route(decoded.value));
      if (target !== "producer" && this.consumer) this.handEnvelope(this.consumer, from, decoded.value, now);
      if (target !== "consumer" && this.producer) this.handEnvelope(this.producer, from, decoded.value, now);
      return;
    }
    // Let one core judge bad bytes: it answers a VERSION mismatch with a typed refusal [V1]
    // or ignores and counts the rest [C10].
    const target = decoded.envelope ? this.pick(route(decoded.envelope)) : this.producer ? "producer" : "consumer";
    const core = target === "consumer" ? this.consumer : (this.producer ?? this.consumer);
    if (core) this.handMessage(core, from, bytes, now);
  }

  /** A decoded envelope to one core, contained [I1]. */
  private handEnvelope(core: ConsumerCore | ProducerCore, from: string, env: ectp.v1.IEnvelope, now: number): void {
    try {
      core.handleEnvelope(from, env, now);
    } catch (cause) {
      this.inputLost("a received message", cause);
    }
  }

  /** Received bytes to one core (or the subscriber), contained [I1]. */
  private handMessage(core: { handleMessage(from: string, bytes: Uint8Array, now: number): void }, from: string, bytes: Uint8Array, now: number): void {
    try {
      core.handleMessage(from, bytes, now);
    } catch (cause) {
      this.inputLost("a received message", cause);
    }
  }

  /** Narrow a routing target to the cores present. */
  private pick(t: Target): Target {
    if (t === "both") return this.consumer && this.producer ? "both" : this.consumer ? "consumer" : "producer";
    if (t === "consumer") return this.consumer ? "consumer" : "producer";
    return this.producer ? "producer" : "consumer";
  }

  /** Tell the cores of `roles` (every core when absent) that `peerId` is unreachable; each call is contained [I1]. */
  private unreachable(peerId: string, now: number, roles?: ReadonlySet<Role>): void {
    if (this.consumer && (roles === undefined || roles.has("consumer"))) this.handUnreachable(this.consumer, peerId, now);
    if (this.producer && (roles === undefined || roles.has("producer"))) this.handUnreachable(this.producer, peerId, now);
    if (this.subscriber && (roles === undefined || roles.has("subscriber"))) this.handUnreachable(this.subscriber, peerId, now);
  }

  /** One core hears that `peerId` is unreachable; a throw loses that hand-off alone. */
  private handUnreachable(core: { handlePeerUnreachable(peerId: string, now: number): void }, peerId: string, now: number): void {
    try {
      core.handlePeerUnreachable(peerId, now);
    } catch (cause) {
      this.inputLost("handlePeerUnreachable", cause);
    }
  }

  // ---------------------------------------------------------------- output

  private pump(now: number): void {
    if (this.producer) this.carryOut(this.producer, "producer", now);
    if (this.consumer) this.carryOut(this.consumer, "consumer", now);
    if (this.subscriber) this.carryOut(this.subscriber, "subscriber", now);
  }

  /** Poll one core and carry out its outputs; [I1] a poll that throws loses that core's outputs of this step alone. */
  private carryOut(core: { poll(now: number): readonly CoreOutput[] }, role: Role, now: number): void {
    let outputs: readonly CoreOutput[];
    try {
      outputs = core.poll(now);
    } catch (cause) {
      this.logger.error("a core's poll threw; its outputs of this step are lost, the step goes on", { core: role, error: thrownText(cause) });
      return;
    }
    for (const o of outputs) this.execute(o, role, now);
  }

  /**
   * [P8] Warn once when a core greets a peer without transport metadata while the transport has
   * some: a transport that reaches only loaded peers (NIXL, the mock) gives the peer no way back
   * here, so its answers are lost and this host's requests only time out (the peer's host logs the
   * other half: an unreachable peer never connected).
   */
  private noteBareHello(peerId: string, hello: ectp.v1.IHello, role: Role): void {
    if (hello.transportMetadata instanceof Uint8Array && hello.transportMetadata.length > 0) return;
    let local: unknown;
    try {
      local = this.transport.localMetadata();
    } catch {
      return; // (nothing to compare with; the connect that needs it reports the fault)
    }
    if (!(local instanceof Uint8Array) || local.length === 0) return;
    this.bareHelloWarned = true;
    this.logger.warn(
      `the ${role}'s Hello carries no transport metadata while the transport has some: the peer cannot reach this host to answer it; construct the ${role} with transportMetadata: transport.localMetadata()`,
      { peerId, core: role },
    );
  }

  /** Carry out one output of `role`'s core, polled at `now`. */
  private execute(o: CoreOutput, role: Role, now: number): void {
    switch (o.type) {
      case "send": {
        if (o.envelope.hello && !this.bareHelloWarned) this.noteBareHello(o.peerId, o.envelope.hello, role);
        let bytes: Uint8Array;
        // Encoded also when a grant is queued behind a connect, which sends it encoded again with
        // the lease it has left (flushGrant): an envelope that does not encode is dropped and
        // counted here, in the step of the core that made it, not later in a connect's callback.
        try {
          bytes = encodeEnvelope(o.envelope);
        } catch (cause) {
          this.logger.error("a core produced an envelope that does not encode; dropped", {
            peerId: o.peerId,
            error: thrownText(cause),
          });
          this.dropped("not_encodable");
          return;
        }
        const c = this.connecting.get(o.peerId);
        if (c !== undefined) {
          // A grant's lease runs from when the producer decided it: the step's `now`.
          if (o.envelope.readGrant) this.enqueue(o.peerId, c, { kind: "grant", envelope: o.envelope, queuedAt: now });
          else this.enqueue(o.peerId, c, { kind: "send", bytes });
        } else if (this.failedPeers.length === 0 || !this.failing(o.peerId)) this.send(o.peerId, bytes);
        else this.dropped("connect_failed"); // lost, as the failed connect's queue was
        return;
      }
      case "connect-peer":
        this.connect(o.peerId, o.epoch, o.metadata, role, now);
        return;
      case "disconnect-peer":
        this.disconnect(o.peerId, role);
        return;
      case "start-read": {
        const op: ReadOperation = { readId: o.readId, peerId: o.peerId, source: o.source, destination: o.destination, crc32c: o.crc32c };
        const c = this.connecting.get(o.peerId);
        if (c) {
          this.queuedReads.add(o.readId);
          this.enqueue(o.peerId, c, { kind: "read", op });
        } else if (this.failedPeers.length > 0 && this.failing(o.peerId)) {
          this.syntheticResults.push({ readId: o.readId, status: "failed", peerGone: true, error: "the peer's connect failed" });
          this.readFailed("connect_failed");
        } else this.startRead(op);
        return;
      }
      case "cancel-read": {
        if (this.queuedReads.delete(o.readId)) {
          // Never started: settled here. It keeps its place in its connect's queue (and in the queue's
          // bound), where the flush and failQueue pass over it: taking it out was a scan per cancel,
          // quadratic when a step cancels thousands.
          this.syntheticResults.push({ readId: o.readId, status: "cancelled" });
          return;
        }
        try {
          this.transport.cancelRead(o.readId);
        } catch (cause) {
          this.logger.error("transport.cancelRead threw", { readId: o.readId, error: thrownText(cause) });
        }
        return;
      }
      case "event-batch":
        if (!this.onEventBatch) return;
        try {
          const settles: unknown = this.onEventBatch(o.batch);
          // [I1] An async hook's rejection is logged as a throw is: unhandled, it would end Node.
          if (settles !== null && typeof settles === "object" && typeof (settles as PromiseLike<void>).then === "function")
            (settles as PromiseLike<void>).then(undefined, (cause: unknown) => this.logger.error("onEventBatch rejected", { error: thrownText(cause) }));
        } catch (cause) {
          this.logger.error("onEventBatch threw", { error: thrownText(cause) });
        }
        return;
    }
  }

  private connect(peerId: string, epoch: number, metadata: Uint8Array, role: Role, now: number): void {
    remember(this.askedPeers, peerId);
    const current = this.connected.get(peerId) ?? this.connecting.get(peerId)?.epoch;
    // The transport keeps one connection per peer id, whatever epoch each core knows the peer by:
    // every core that asked for one holds it (the cores of a peer that runs both roles may
    // announce different epochs), so one core's disconnect-peer never cuts the other's reads.
    let roles = current === undefined ? undefined : this.holders.get(peerId);
    if (roles !== undefined) roles.add(role);
    // Once per peer epoch, even when both cores ask (again after the transport reported the peer unreachable).
    if (current === epoch && !this.staleConnections.has(peerId)) return;
    // [P8] An older epoch's metadata never replaces a newer connection (a core still acting on
    // a stale announcement); its messages go to the peer's current incarnation, which judges them.
    if (current !== undefined && epoch < current) {
      this.logger.debug("connect-peer for an older epoch than the current connection; kept the newer", { peerId, epoch, current });
      return;
    }
    if (roles === undefined) {
      roles = new Set<Role>([role]);
      this.holders.set(peerId, roles);
    }
    this.staleConnections.delete(peerId);
    const previous = this.connecting.get(peerId);
    const entry: Connecting = { epoch, token: this.nextToken++, queue: previous ? previous.queue : [], startedAt: now, roles, yielded: false };
    queueMicrotask(() => {
      entry.yielded = true;
    });
    this.connecting.set(peerId, entry);
    this.connected.delete(peerId);
    let p: Promise<void>;
    try {
      // A transport that returns no promise (against the interface) connected synchronously.
      p = Promise.resolve(this.transport.connectPeer(peerId, epoch, metadata));
    } catch (cause) {
      p = Promise.reject(cause);
    }
    p.then(
      () => {
        if (this.connecting.get(peerId)?.token !== entry.token) {
          // Superseded, disconnected or timed out. A load that completed after its disconnect is
          // undone, unless a newer connection of the peer is up or under way.
          // (Once the driver is closing, the transport's close releases it.)
          if (this.state === "open" && !this.connecting.has(peerId) && !this.connected.has(peerId)) this.disconnectTransport(peerId);
          return;
        }
        this.connecting.delete(peerId);
        this.connected.set(peerId, epoch);
        this.connectFailing.delete(peerId); // a later failure is news again
        for (const item of entry.queue) {
          if (item.kind === "send") this.send(peerId, item.bytes);
          else if (item.kind === "grant") this.flushGrant(peerId, item.envelope, item.queuedAt);
          // [I5] Only a read still queued: one cancelled meanwhile has had its result (a step run from
          // a hook of this flush may cancel one further on), and must not start writing.
          else if (this.queuedReads.delete(item.op.readId)) this.startRead(item.op);
        }
      },
      (cause: unknown) => {
        if (this.connecting.get(peerId)?.token !== entry.token) return;
        this.connectFailed(peerId, entry, thrownText(cause));
      },
    );
  }

  /**
   * A connect that rejected, outlived `connectTimeoutMs` or overflowed its queue: what is queued
   * is dropped (reads settle as failed, peer gone) and the cores that asked for it hear the peer
   * is unreachable in the next step.
   */
  private connectFailed(peerId: string, entry: Connecting, error: string): void {
    this.connecting.delete(peerId);
    // One warning per outage: a core retrying a dead peer asks again every backoff, logged at info.
    const fields = { peerId, epoch: entry.epoch, error };
    this.metrics.counter("ectp_driver_connect_failures_total");
    if (this.connectFailing.has(peerId)) this.logger.info("connectPeer failed again; peer treated as unreachable", fields);
    else {
      remember(this.connectFailing, peerId);
      this.logger.warn("connectPeer failed; peer treated as unreachable", fields);
    }
    this.failQueue(entry, error, "connect_failed");
    if (this.holders.get(peerId) === entry.roles) this.holders.delete(peerId);
    this.failedPeers.push({ peerId, roles: entry.roles });
    this.wake(); // the cores hear of it in the next step, not after a wait
  }

  /**
   * The transport reports a peer unreachable that no core ever asked to connect: what the cores
   * sent it went out with no connection, because none of them knew its transport metadata. Said
   * once per peer, at warning level: the lasting cause is a core constructed
   * without `transportMetadata`, which then waits out every budget with nothing else in the logs;
   * a passing one is its Hello lost, or overtaken by its first request (answered before the Hello
   * brought the metadata).
   */
  private neverConnected(peerId: string): void {
    if (this.unconnectedWarned.has(peerId)) return;
    remember(this.unconnectedWarned, peerId);
    this.logger.warn(
      this.subscriber
        ? "transport reports a producer unreachable that was never connected: the subscriber knows no transport metadata for it; follow it with its metadata (follow(id, now, { epoch, metadata }))"
        : "transport reports a peer unreachable that was never connected: no transport metadata is known for it yet. Either its Hello has not arrived (lost, or overtaken by its first request: this passes once the Hello comes) or it carries none: if it is a core of this deployment, construct it with transportMetadata: transport.localMetadata() (a stranger that sent unasked messages cannot be answered)",
      { peerId },
    );
  }

  /**
   * Whether `peerId`'s connect failed and its cores have not been told yet: until they are, what
   * they still send it is dropped and reads fail, as its queue did (nothing goes to a peer unconnected).
   */
  private failing(peerId: string): boolean {
    for (const p of this.failedPeers) if (p.peerId === peerId) return true;
    return false;
  }

  /** [P8] Connects pending for `connectTimeoutMs` fail (the peer counts as unreachable); the transport is told to forget the peer (ending a load still under way). */
  private expireConnects(now: number): void {
    for (const [peerId, c] of [...this.connecting]) {
      const pendingMs = now - c.startedAt;
      if (this.showsNeverYielded(c, pendingMs)) this.warnNeverYielded(peerId, pendingMs);
      if (now < c.startedAt + this.connectTimeoutMs) continue;
      this.connectFailed(peerId, c, `connectPeer still pending after ${this.connectTimeoutMs} ms`);
      this.disconnectTransport(peerId);
    }
  }

  /**
   * Whether connect `c`, pending for `pendingMs`, shows that the caller of `step()` never yields:
   * the caller has not yielded to the event loop since `c` started, for {@link NEVER_YIELDED_WARN_MS}
   * (or the connect timeout, when shorter), and the warning has not been given yet.
   */
  private showsNeverYielded(c: Connecting, pendingMs: number): boolean {
    if (c.yielded || this.neverYieldedWarned) return false;
    return pendingMs >= Math.min(NEVER_YIELDED_WARN_MS, this.connectTimeoutMs);
  }

  /**
   * A loop on virtual time that steps and moves its clock without ever yielding to the event loop
   * settles no `connectPeer` promise: every peer then goes unreachable, or silent, and the cores'
   * logs say only that. Said once, naming the mistake and the way out.
   */
  private warnNeverYielded(peerId: string, pendingMs: number): void {
    this.neverYieldedWarned = true;
    this.logger.warn(
      "step() is being called, but its caller has not yielded to the event loop since connectPeer started: no connect can complete, and every peer will be unreachable. Yield between steps: await a setImmediate (runOnVirtualTime of @ectp/transport-mock does), or use run() on real time",
      { peerId, pendingMs },
    );
  }

  /** Queue `item` behind `peerId`'s pending connect; one past `maxQueuedPerPeer` fails that connect instead [P8][I4]. */
  private enqueue(peerId: string, c: Connecting, item: Pending): void {
    c.queue.push(item);
    if (c.queue.length <= this.maxQueuedPerPeer) return;
    this.connectFailed(peerId, c, `more than ${this.maxQueuedPerPeer} messages and reads queued while connectPeer was pending`);
    this.disconnectTransport(peerId);
  }

  private disconnect(peerId: string, role: Role): void {
    const roles = this.holders.get(peerId);
    if (roles !== undefined) {
      roles.delete(role);
      if (roles.size > 0) return; // the other core still holds this connection
      this.holders.delete(peerId);
    }
    const c = this.connecting.get(peerId);
    if (c) {
      this.connecting.delete(peerId);
      this.failQueue(c, "peer disconnected before its connection completed", "disconnected");
    }
    this.connected.delete(peerId);
    this.staleConnections.delete(peerId);
    this.disconnectTransport(peerId);
  }

  private disconnectTransport(peerId: string): void {
    try {
      this.transport.disconnectPeer(peerId);
    } catch (cause) {
      this.logger.error("transport.disconnectPeer threw", { peerId, error: thrownText(cause) });
    }
  }

  /** Queued reads settle as failed (each read gets exactly one result); queued sends are lost. Counted under `cause`. */
  private failQueue(c: Connecting, error: string, cause: QueueLossCause): void {
    let messages = 0;
    for (const item of c.queue)
      if (item.kind !== "read") messages++;
      else if (this.queuedReads.delete(item.op.readId)) {
        // (A read cancelled while queued has had its result.)
        this.syntheticResults.push({ readId: item.op.readId, status: "failed", peerGone: true, error });
        this.readFailed(cause);
      }
    if (messages > 0) this.dropped(cause, messages);
    c.queue.length = 0;
  }

  /**
   * [P3][C11] Send a grant held back behind a connect with the lease it has left: the producer's
   * lease runs from when it decided the grant, the consumer's from when it receives it, so the
   * time spent queued comes off `lease_ms` (0 meaning 30 000). A grant whose lease ran out while
   * queued is not sent: the producer releases it at its deadline.
   */
  private flushGrant(peerId: string, envelope: ectp.v1.IEnvelope, queuedAt: number): void {
    let bytes: Uint8Array;
    // [I1] All of it contained: this runs in the connect's callback, where a throw would be an
    // unhandled rejection (ending Node) and would leave the reads queued behind it unstarted.
    try {
      const grant = envelope.readGrant as ectp.v1.IReadGrant;
      // [I1] The checked clock: never earlier than `queuedAt` (a lease longer than the producer's
      // would outlive its pin [P3][C11]), never NaN (an envelope that does not encode).
      const lease = grantLeaseMs(Number(grant.leaseMs));
      const left = Math.floor(lease - Math.max(0, this.now() - queuedAt));
      if (left < 1) {
        this.logger.warn("a grant's lease ran out while its peer was connecting; not sent", { peerId, grantId: Number(grant.grantId) });
        this.dropped("lease_ran_out");
        return;
      }
      bytes = encodeEnvelope({ ...envelope, readGrant: { ...grant, leaseMs: Math.min(left, lease) } });
    } catch (cause) {
      this.logger.error("a queued grant does not encode; dropped", { peerId, error: thrownText(cause) });
      this.dropped("not_encodable");
      return;
    }
    this.send(peerId, bytes);
  }

  private send(peerId: string, bytes: Uint8Array): void {
    try {
      this.transport.send(peerId, bytes);
    } catch (cause) {
      this.logger.error("transport.send threw; message dropped", { peerId, error: thrownText(cause) });
      this.dropped("send_threw");
    }
  }

  private startRead(op: ReadOperation): void {
    try {
      this.transport.startRead(op);
    } catch (cause) {
      this.logger.error("transport.startRead threw; read failed", { readId: op.readId, error: thrownText(cause) });
      this.readFailed("start_threw");
      this.syntheticResults.push({ readId: op.readId, status: "failed", error: thrownText(cause) });
      this.wake(); // (a queued read starts when its connection is up, outside any step)
    }
  }
}

/** Which core handles an envelope, by its body (and a Hello's role). */
function route(env: ectp.v1.IEnvelope): Target {
  if (env.readGrant || env.readReject || env.handshakeReject) return "consumer";
  if (env.readRequest || env.readComplete || env.replayRequest || env.snapshotRequest) return "producer";
  if (env.heartbeat) return "both";
  if (env.hello) {
    const role = env.hello.role ?? 0;
    if (role === ectp.v1.Role.ROLE_PRODUCER) return "consumer"; // a producer greets our consumer
    if (role === ectp.v1.Role.ROLE_BOTH) return "both";
    return "producer"; // ROLE_CONSUMER, or a role the producer will refuse
  }
  return "consumer"; // events, announcements, unknown bodies: ignored and counted there
}

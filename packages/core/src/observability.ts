/**
 * Metrics and logging hooks. Both are no-ops by default and need no metrics library:
 * adapt them to Prometheus, OpenTelemetry or a test recorder in a few lines.
 * @module
 */
import { EctpError, describeValue, thrownText } from "@ectp/protocol";

/** Label set attached to a metric sample. */
export type Labels = Readonly<Record<string, string>>;

/**
 * Receives metric samples. Implementations should not throw; a core contains and counts what
 * one throws (`stats().hookFailures`), and that sample is lost. A sample is taken in the middle
 * of one of the core's calls: a hook may read the core (`stats()`, `nextDeadline()`; what such a
 * read would record meanwhile is dropped), but a call to one of its state-changing methods throws
 * `EctpError(REENTRANT_CALL)` into the hook.
 */
export interface MetricsSink {
  /** Add `value` (default 1) to a monotonically increasing counter. */
  counter(name: string, value?: number, labels?: Labels): void;
  /** Set a gauge to `value`. */
  gauge(name: string, value: number, labels?: Labels): void;
  /** Record one observation (e.g. a wait in milliseconds). */
  histogram(name: string, value: number, labels?: Labels): void;
}

/** Structured fields attached to a log record. */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * Receives log records. Implementations should not throw; a core contains and counts what one
 * throws (`stats().hookFailures`), and that record is lost. As for {@link MetricsSink}, a call
 * from a logger to one of the core's state-changing methods throws `EctpError(REENTRANT_CALL)`.
 */
export interface Logger {
  /** Detail for debugging (a retry the producer asked for: OVERLOADED or NOT_READY). */
  debug(message: string, fields?: LogFields): void;
  /** Normal but notable events (a retry after a fault: no answer in time; an idle peer lost, or one declared gone again). */
  info(message: string, fields?: LogFields): void;
  /**
   * Every terminal outcome of a consumer's (request, item) with a reason [C5] is logged here: as
   * "request failed" when the request fails for it, and as "item falls back to local encode" (or
   * "remote read failed; item falls back to local encode") when the request has model input for
   * it. Each record has `requestId`, `itemId`, `reason` and `attempts`. Added where they apply:
   * `itemKey` and `producer` when the item had an announcement and they could be read (an item
   * with none, UNAVAILABLE, has none to log; one with an invalid announcement, INVALID_ANNOUNCEMENT
   * [C2], names what of them it could read); `detail`, what the
   * producer, the transport or a check said (for INVALID_ANNOUNCEMENT, what was wrong with the
   * announcement); and, for BUDGET_EXHAUSTED [C3], `waitingFor` and, once an attempt had ended
   * without the item, `lastRetryReason`. An item admitted with model input and no announcement is
   * no failure and is not logged. Faults a deployment should see are logged here too: a peer
   * declared gone with work in hand, a lease that expired without an ACK.
   */
  warn(message: string, fields?: LogFields): void;
  /** Faults of the implementation itself. */
  error(message: string, fields?: LogFields): void;
}

const noop = (): void => {};
const METRICS_METHODS = ["counter", "gauge", "histogram"] as const;
const LOGGER_METHODS = ["debug", "info", "warn", "error"] as const;

/** A {@link MetricsSink} that drops everything (the default). */
export const NOOP_METRICS: MetricsSink = Object.freeze({ counter: noop, gauge: noop, histogram: noop });

/** A {@link Logger} that drops everything (the default). */
export const NOOP_LOGGER: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });

/**
 * Refuse an option that is not an object with every one of `methods` as a function, naming the
 * methods it lacks: a logger given as `{}`, or with `warning` for `warn`, would otherwise be accepted
 * and every record lost, and a wrong object given to the Driver found only by its first step.
 * @param name - The option as the message names it (`options.logger`).
 * @param what - What it must be (`a Logger { debug, info, warn, error }`).
 * @param fix - What to do when methods are missing, given their names (appended after "; ").
 * @throws EctpError(INVALID_CONFIG) with `details.missing` when methods are missing.
 * @internal
 */
export function requireMethods(name: string, value: unknown, methods: readonly string[], what: string, fix?: (missing: string[]) => string): void {
  if (value === null || (typeof value !== "object" && typeof value !== "function"))
    throw new EctpError("INVALID_CONFIG", `${name} must be ${what}; got ${describeValue(value)}`);
  const missing = methods.filter((m) => typeof (value as Record<string, unknown>)[m] !== "function");
  if (missing.length > 0)
    throw new EctpError(
      "INVALID_CONFIG",
      `${name} must be ${what}, but it has no ${missing.join(", ")} method${missing.length > 1 ? "s" : ""}${fix === undefined ? "" : `; ${fix(missing)}`}`,
      { details: { missing } },
    );
}

/** The fix {@link requireMethods} suggests for a hook lacking methods: spread the no-op default. */
function spreadDefault(defaultName: string): (missing: string[]) => string {
  return (missing) => `to keep only some of them, spread the no-op default: { ...${defaultName}, ${missing[0]}: ... }`;
}

/** The most label sets naming a peer a core keeps (see {@link PeerLabels}); beyond them, each is made afresh. */
const PEER_LABEL_SETS_KEPT = 4096;

/**
 * The label sets of a core's samples about one peer: with the core's `peerLabels` option on, a
 * sample's own labels plus the peer's id, under `producer` on a consumer's samples and `consumer`
 * on a producer's; with it off, the sample's own labels alone. Each set is made once per (own
 * labels, peer) and frozen, so a sample costs two map lookups and a sink may keep its labels. The own
 * labels are found by identity: pass the core's constant (or cached) objects, never a literal.
 * @internal
 */
export class PeerLabels {
  /** Own labels (undefined: none) -> peer id -> the set naming that peer. */
  private readonly kept = new Map<Labels | undefined, Map<string, Labels>>();
  private keptCount = 0;

  /** @param key - The label naming the peer (`producer`, `consumer`), or undefined when peers are not named. */
  constructor(private readonly key: "producer" | "consumer" | undefined) {}

  /** `own`, naming `peer` too when peers are named and `peer` is known. */
  with(own: Labels | undefined, peer: string | undefined): Labels | undefined {
    if (this.key === undefined || peer === undefined) return own;
    let byPeer = this.kept.get(own);
    if (byPeer === undefined) {
      byPeer = new Map();
      this.kept.set(own, byPeer);
    }
    let labels = byPeer.get(peer);
    if (labels === undefined) {
      labels = Object.freeze({ ...own, [this.key]: peer });
      if (this.keptCount < PEER_LABEL_SETS_KEPT) {
        byPeer.set(peer, labels);
        this.keptCount++;
      }
    }
    return labels;
  }
}

/**
 * Reads a core's `peerLabels` option.
 * @param value - The option as given.
 * @param key - The label a peer is named under on that core's samples.
 * @returns the label key when the option is true, undefined when it is false or absent.
 * @throws EctpError(INVALID_CONFIG) for anything but a boolean or undefined.
 * @internal
 */
export function peerLabelsOption(value: unknown, key: "producer" | "consumer"): "producer" | "consumer" | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return key;
  throw new EctpError("INVALID_CONFIG", `options.peerLabels must be a boolean (whether samples about one peer also carry a ${key} label); got ${describeValue(value)}`);
}

/**
 * A core's warning about the messages it ignores because the transport says one came from `from`
 * while its envelope names `senderId` ([C10]). The first one is logged, at warning level, later ones
 * only counted. It names both causes: a transport reporting something other than the sender's peer
 * id (an address), which otherwise fails every request it carries in silence, and a peer whose
 * envelopes name another `sender_id` than its own (a misconfigured peer id, or a forged one).
 * @internal
 */
export class SenderMismatchWarning {
  private logged = false;

  /**
   * Log this one if it is the first.
   * @param logger - The core's logger.
   * @param from - The sender the transport reported (`ReceivedMessage.from`).
   * @param senderId - The sender the envelope names (`sender_id`).
   * @param reason - The reason the core counts such messages under (`sender_mismatch`, or a
   *   subscriber's `unknown_peer` when `from` is no producer it follows).
   */
  note(logger: Logger, from: string, senderId: string, reason: string): void {
    if (this.logged) return;
    this.logged = true;
    logger.warn(
      `message ignored: its envelope names another sender than the transport reported. Either the transport reports ReceivedMessage.from as something other than the sender's peer id (its Transport.localId; an address, say), or the peer put another sender_id in its envelope than its own id (misconfigured, or forging another peer's). Later ones are only counted (ignored messages, reason ${reason})`,
      { from, senderId },
    );
  }
}

/**
 * The engine code a core is running in the middle of one of its calls: its metrics and logger
 * hooks, and its engine callbacks (a consumer's destination pool, a producer's item store). A core
 * is not re-entrant: that code runs with the core's state half updated, so each public method
 * that changes state first refuses a call made while `busy` (see {@link reentrantCall}).
 * @internal
 */
export class HookGate {
  /** Hook calls in progress: 0 or 1 (what the core would record while one runs is dropped). */
  depth = 0;
  /** Engine callbacks in progress (pool or store calls; what the core records meanwhile is kept). */
  callbacks = 0;
  /** Whether engine code called by the core is running: a state-changing call now is refused. */
  get busy(): boolean {
    return this.depth !== 0 || this.callbacks !== 0;
  }
}

/**
 * The error a core throws when one of its state-changing methods is called from inside engine
 * code it is running: one of its hooks, or its destination pool or item store. It is thrown into
 * that code; unless caught there, a hook's is contained as any hook failure (counted in
 * `stats().hookFailures`), a pool's or store's as that callback's failure, and the outer call goes on.
 * @internal
 */
export function reentrantCall(component: "ConsumerCore" | "ProducerCore" | "EventSubscriber", method: string): EctpError {
  return new EctpError(
    "REENTRANT_CALL",
    `${component}.${method} was called from inside code the ${component} was running in the middle of another of its calls (${ENGINE_CODE_RUN_BY[component]}); a core is not re-entrant: note what is needed and make the call after the current one returns.`,
  );
}

/** The engine code each core runs inside its calls: where a re-entrant call can come from. */
const ENGINE_CODE_RUN_BY = {
  ConsumerCore: "its metrics or logger hook, or its destination pool",
  ProducerCore: "its metrics or logger hook, or its item store",
  EventSubscriber: "its metrics or logger hook",
} as const;

/** The error record a core logs, once, when its metrics hook first throws (see {@link containMetrics}). @internal */
export const METRICS_HOOK_THREW =
  "the metrics hook threw: its samples are lost while it does (logged once; every failure counts in stats().hookFailures)";

/**
 * `sink`, with anything its methods throw contained and reported to `onThrow` [I1]: a metrics
 * exporter that breaks costs its sample, never the core's state or the engine's call. While a
 * method runs, `gate.depth` counts it, and a sample taken meanwhile (a hook read the core, and the
 * read recorded something) is dropped: a hook is never called from inside a hook of its core, so
 * it cannot recurse. The default sink is returned as is (it cannot throw or call back).
 * `logFirstFailure`, when given, is called once, for the first sample the sink threw on (after the
 * sink returned, so the core's logger can say so): a sink that throws for every sample (an exporter
 * refusing a label set it was not told of) would otherwise leave only `stats().hookFailures`.
 * @throws EctpError(INVALID_CONFIG) when `sink` lacks one of the three methods.
 * @internal
 */
export function containMetrics(
  sink: MetricsSink | undefined,
  onThrow: () => void,
  gate: HookGate = new HookGate(),
  logFirstFailure?: (fields: LogFields) => void,
): MetricsSink {
  if (sink === undefined || sink === NOOP_METRICS) return NOOP_METRICS;
  requireMethods("options.metrics", sink, METRICS_METHODS, "a MetricsSink { counter, gauge, histogram }", spreadDefault("NOOP_METRICS"));
  let failureLogged = false;
  const call = (kind: keyof MetricsSink, name: string, value: number | undefined, labels: Labels | undefined): void => {
    if (gate.depth !== 0) return; // a sample taken by a read a hook made: dropped, so no hook ever recurses
    gate.depth++;
    let failure: unknown;
    let threw = false;
    try {
      sink[kind](name, value as number, labels);
    } catch (cause) {
      threw = true;
      failure = cause;
      onThrow();
    } finally {
      gate.depth--;
    }
    if (threw && !failureLogged && logFirstFailure !== undefined) {
      failureLogged = true;
      logFirstFailure({ metric: name, kind, labels: labels ?? {}, error: thrownText(failure) });
    }
  };
  return {
    counter: (name, value, labels) => call("counter", name, value, labels),
    gauge: (name, value, labels) => call("gauge", name, value, labels),
    histogram: (name, value, labels) => call("histogram", name, value, labels),
  };
}

/**
 * `logger`, with anything its methods throw contained and reported to `onThrow` [I1], and its
 * calls counted in `gate.depth` (see {@link containMetrics}). The default logger is returned as is.
 * @throws EctpError(INVALID_CONFIG) when `logger` lacks one of the four methods.
 * @internal
 */
export function containLogger(logger: Logger | undefined, onThrow: () => void, gate: HookGate = new HookGate()): Logger {
  if (logger === undefined || logger === NOOP_LOGGER) return NOOP_LOGGER;
  requireMethods("options.logger", logger, LOGGER_METHODS, "a Logger { debug, info, warn, error }", spreadDefault("NOOP_LOGGER"));
  const call = (level: keyof Logger, message: string, fields: LogFields | undefined): void => {
    if (gate.depth !== 0) return; // a record made by a read a hook made: dropped, so no hook ever recurses
    gate.depth++;
    try {
      logger[level](message, fields);
    } catch {
      onThrow();
    } finally {
      gate.depth--;
    }
  };
  return {
    debug: (message, fields) => call("debug", message, fields),
    info: (message, fields) => call("info", message, fields),
    warn: (message, fields) => call("warn", message, fields),
    error: (message, fields) => call("error", message, fields),
  };
}

/**
 * Timers and limits of the protocol, with the defaults of SPEC.md section 12, "Timers and limits".
 * Every duration is a whole number of milliseconds on the injected clock (the consumer's
 * `quarantineCapMs` may also be `Infinity`: no cap).
 * @module
 */

import { EctpError, type NormalizedFingerprint, closestName, describeValue, normalizeFingerprint, shortText, thrownMessage } from "@ectp/protocol";
import type { SubscriberOptions } from "./subscriber/subscriber.js";

/** The fields of a fingerprint (ectp.v1.IFingerprint). */
const FINGERPRINT_FIELDS: readonly string[] = Object.freeze(["model", "dtype", "rowBytes", "layoutVersion"]);

/**
 * [C2][P7] The `fingerprint` option of a constructor, normalised (given: `null` and `undefined` are
 * the caller's to handle), or INVALID_CONFIG naming what is wrong. First what the wire needs
 * (`normalizeFingerprint`: a value that would not encode). Then more than the wire asks: on the wire
 * an absent field is its proto3 default, but in a constructor, where a misspelt fingerprint is what
 * requiring one is meant to catch, the option must be a plain object (or an `ectp.v1.Fingerprint`)
 * with no key but `model`, `dtype`, `rowBytes` and `layoutVersion`; a misspelt field would leave the
 * fingerprint all-default, and every item of the real model refused. (An empty model stays allowed:
 * SPEC.md 3.1 gives the all-default fingerprint a meaning.) `name` and `code` say whose value it is
 * in the error (a method's argument: INVALID_ARGUMENT).
 * @internal
 */
export function fingerprintOption(
  fp: unknown,
  name = "options.fingerprint",
  code: "INVALID_CONFIG" | "INVALID_ARGUMENT" = "INVALID_CONFIG",
): NormalizedFingerprint {
  // First what is no plain object of fingerprint fields (an array, a Map, bytes, a misspelt field), named as such.
  const problem = fingerprintShapeProblem(fp);
  if (problem !== undefined) throw new EctpError(code, `${name}${problem}`);
  const normalized = normalizeFingerprint(fp);
  if (!normalized.ok) throw new EctpError(code, `${name} is malformed: ${normalized.error.message}`, { cause: normalized.error });
  return normalized.value;
}

/** What {@link fingerprintOption} refuses besides what `normalizeFingerprint` does, as the text after `options.fingerprint`; never throws. */
function fingerprintShapeProblem(fp: unknown): string | undefined {
  try {
    if (fp === null || typeof fp !== "object") return undefined; // normalizeFingerprint refuses it
    const tag = Object.prototype.toString.call(fp).slice(8, -1);
    if (Array.isArray(fp) || tag !== "Object")
      return ` must be a plain object of ${FINGERPRINT_FIELDS.join(", ")} (or an ectp.v1.Fingerprint); got ${Array.isArray(fp) ? "an array" : `a ${tag}`}.`;
    for (const key of Object.keys(fp)) {
      if (FINGERPRINT_FIELDS.includes(key)) continue;
      const near = closestName(key, FINGERPRINT_FIELDS, 2);
      return `${/^[A-Za-z_$][\w$]{0,39}$/.test(key) ? `.${key}` : `[${describeValue(key)}]`} is not a fingerprint field${near === undefined ? "" : ` (did you mean ${near}?)`}; the fields are ${FINGERPRINT_FIELDS.join(", ")}.`;
    }
    return undefined;
  } catch (cause) {
    // A Proxy whose traps throw (normalizeFingerprint read its fields, but not its keys).
    return ` could not be read (${thrownMessage(cause)}); pass a plain object.`;
  }
}

/**
 * How many characters of a fingerprint model {@link fingerprintDifference} shows: a peer's model
 * may be megabytes long, and JSON escaping makes it up to six times longer.
 */
const SHOWN_MODEL_CHARS = 100;

/** `model` as {@link fingerprintDifference} shows it: JSON-quoted, and past {@link SHOWN_MODEL_CHARS} characters cut (`"abc..."`) and followed by its length. */
function shownModel(model: string): string {
  if (model.length <= SHOWN_MODEL_CHARS) return JSON.stringify(model);
  return `${JSON.stringify(shortText(model, SHOWN_MODEL_CHARS))} (${model.length} characters)`;
}

/**
 * [C2][P7] Which field of fingerprint `a` differs from `b` (the first, in the order model, dtype,
 * rowBytes, layoutVersion), as `rowBytes 4096 != 2048`; undefined when they are equal. A model of
 * more than 100 characters is shown cut, with its length (`model "abc..." (5000 characters)`):
 * the text goes into a refusal's `detail` and into logs, and a peer's model may be megabytes long.
 * @internal
 */
export function fingerprintDifference(a: NormalizedFingerprint, b: NormalizedFingerprint): string | undefined {
  // SPEC.md section 5: a peer's model, whole and escaped, made a refusal larger than a frame may be.
  if (a.model !== b.model) return `model ${shownModel(a.model)} != ${shownModel(b.model)}`;
  if (a.dtype !== b.dtype) return `dtype ${a.dtype} != ${b.dtype}`;
  if (a.rowBytes !== b.rowBytes) return `rowBytes ${a.rowBytes} != ${b.rowBytes}`;
  if (a.layoutVersion !== b.layoutVersion) return `layoutVersion ${a.layoutVersion} != ${b.layoutVersion}`;
  return undefined;
}

/**
 * `options.transportMetadata` of a core (sent in its Hello): a copy of the Uint8Array given, or
 * empty when absent. Anything else could not be encoded, and a driver drops an envelope that does
 * not encode, so the core would never greet anyone: refused with INVALID_CONFIG instead.
 * @internal
 */
export function transportMetadataOption(value: unknown): Uint8Array {
  if (value === undefined) return new Uint8Array(0);
  if (!(value instanceof Uint8Array))
    throw new EctpError("INVALID_CONFIG", `options.transportMetadata must be a Uint8Array (e.g. transport.localMetadata()) or left out; got ${describeValue(value)}`);
  // [P8] Taken once, as a copy: peers load a core's metadata once per epoch, so what its Hellos send
  // must not change with the caller's array.
  return Uint8Array.from(value);
}

/**
 * Settings to change from their defaults, as a core's `options.config` takes them: any subset of
 * `T`, where a setting left out or `undefined` keeps its default (so an engine can pass its own
 * optional settings through as they are).
 */
export type ConfigOverrides<T> = { [K in keyof T]?: T[K] | undefined };

/** Timers shared by both roles. */
export interface TimerConfig {
  /**
   * Interval between heartbeats to each live peer [P8], at most 2^32 - 1 ms (a uint32 in the Hello).
   * Default 2000. Peers count at most {@link MAX_PEER_HEARTBEAT_INTERVAL_MS} of the interval a Hello
   * announces (SPEC 4.7), so a core whose interval is longer than that times their
   * `heartbeatMisses` may be declared gone between two of its heartbeats, with its grants: keep it
   * below in production (tests use longer ones to keep heartbeats out of a scripted exchange).
   */
  heartbeatIntervalMs: number;
  /** Missed intervals after which a silent peer is declared gone [P8]. Default 3. */
  heartbeatMisses: number;
}

/** Consumer timers and limits ([C3], [C4], [C8], [C11]). */
export interface ConsumerConfig extends TimerConfig {
  /** Wait budget per (request, item), from the first wait, never extended [C3]. Default 60000. */
  waitBudgetMs: number;
  /**
   * Time to wait for a grant or reject after a ReadRequest, per attempt [C4]. Default 30000. A lost
   * ReadRequest, grant or reject is noticed only when it runs out, so keep it much smaller than
   * `waitBudgetMs` (a producer answers at once: it only needs to cover the round trip). At or above
   * the budget one lost message costs a waiting item its whole budget; a consumer built so logs one
   * warning.
   */
  grantWaitMs: number;
  /** A read in flight longer than this is quarantined [C8]. Default 20000. */
  transferTimeoutMs: number;
  /**
   * A quarantined read's destination is released after this at the latest [C8]. Default 60000.
   * `Infinity` disables the cap (the destination waits for the read to settle): required with a
   * transport that cannot guarantee a long-cancelled read no longer writes (SPEC.md [C8]).
   */
  quarantineCapMs: number;
  /** First retry delay [C4]. Default 50. */
  backoffInitialMs: number;
  /** Largest retry delay [C4]. Default 2000. */
  backoffMaxMs: number;
  /**
   * Safety margin subtracted from a grant's lease: a read finishing after
   * receipt + lease - margin is never loaded [C11]. Default 5000.
   */
  leaseSafetyMarginMs: number;
  /** Largest acceptable `size_bytes` [C2]. Default 256 MiB. */
  maxItemBytes: number;
  /**
   * The grant lease the consumer plans for [C11]. The configuration is rejected unless
   * `transferTimeoutMs <= leaseMs - leaseSafetyMarginMs`. A grant announcing a shorter
   * lease shortens that read's deadline accordingly. Default 30000.
   */
  leaseMs: number;
  /**
   * [P8] A producer the consumer has had no business with for this long is let go: its transport
   * connection is dropped (`disconnect-peer`), and the next fetch from it connects and greets it
   * again. Without it a long-running consumer keeps a connection (on NIXL, a loaded remote agent)
   * to every producer it ever read from, as encoders come and go. Default 300000 (5 minutes).
   */
  idlePeerMs: number;
}

/** Producer timers and limits ([P3], [P5], [E2]). */
export interface ProducerConfig extends TimerConfig {
  /**
   * Lease of each grant [P3]. Default 30000. It must exceed the consumers' `leaseSafetyMarginMs`
   * (default 5000) by more than a read takes: a consumer reads a grant only until its receipt + lease
   * - margin [C11], so under a lease at most the margin every item ends LEASE_EXPIRED (each consumer
   * logs one warning; the producer cannot tell).
   */
  leaseMs: number;
  /** Per-consumer cap on pinned bytes [P5]. Default 1 GiB. */
  maxPinnedBytesPerConsumer: number;
  /** Per-consumer cap on live grants [P5]. Default 256. */
  maxGrantsPerConsumer: number;
  /** Event batches kept for replay [E2]. Default 1024. */
  replayBufferBatches: number;
  /** Retry hint sent with OVERLOADED and NOT_READY rejects. Default 50. */
  retryAfterMs: number;
  /**
   * Largest total encoded size, in bytes, of the events of one EventBatch or the items of one
   * Snapshot part; more are split over consecutive batches or numbered parts [E1][E2], so
   * every message stays far below a receiver's 16 MiB frame limit. At most 8 MiB. Default 1 MiB.
   */
  maxBatchBytes: number;
  /**
   * [E2] Shortest time between two answers to one peer's ReplayRequests and SnapshotRequests that
   * resend anything (a replay of at least one batch, or a snapshot). One asked for sooner is sent
   * once the interval has passed, and those asked for meanwhile go out together (one snapshot, or
   * a replay from the lowest sequence asked), so a peer repeating its requests cannot make the
   * producer resend its replay buffer or its item set over and over. 0: no bound; at most 1000
   * (SPEC.md section 9). Default 500.
   */
  resendIntervalMs: number;
}

/**
 * Default heartbeat settings of both cores (SPEC.md section 12, "Timers and limits"), part of
 * {@link DEFAULT_CONSUMER_CONFIG} and {@link DEFAULT_PRODUCER_CONFIG}:
 *
 * | field | value |
 * | --- | --- |
 * | `heartbeatIntervalMs` | 2000 ms |
 * | `heartbeatMisses` | 3 intervals |
 */
export const DEFAULT_TIMERS: Readonly<TimerConfig> = Object.freeze({
  heartbeatIntervalMs: 2_000,
  heartbeatMisses: 3,
});

/**
 * [P8] The largest peer heartbeat interval a receiver judges a peer by (SPEC.md 4.1): one
 * minute. A Hello announcing more counts as this (or as our own interval when ours is larger),
 * so a misconfigured or hostile Hello announcing days cannot keep a silent peer known for days.
 */
export const MAX_PEER_HEARTBEAT_INTERVAL_MS = 60_000;

/**
 * [P8] The heartbeat interval to judge a peer's silence by: the larger of `ownMs` and the
 * interval its Hello announced (`announced`: 0, absent or not a positive integer means the
 * default, 2000 ms), the announced one counted as at most {@link MAX_PEER_HEARTBEAT_INTERVAL_MS}.
 */
export function peerHeartbeatIntervalMs(announced: unknown, ownMs: number): number {
  const hb =
    typeof announced === "number" && Number.isSafeInteger(announced) && announced > 0 ? announced : DEFAULT_TIMERS.heartbeatIntervalMs;
  return Math.max(ownMs, Math.min(hb, MAX_PEER_HEARTBEAT_INTERVAL_MS));
}

/**
 * Default consumer configuration (SPEC.md section 12, "Timers and limits"): what
 * {@link ConsumerOptions.config} fields left out take. Durations in ms.
 *
 * | field | value |
 * | --- | --- |
 * | `waitBudgetMs` | 60000 (1 min) |
 * | `grantWaitMs` | 30000 |
 * | `transferTimeoutMs` | 20000 |
 * | `quarantineCapMs` | 60000 |
 * | `backoffInitialMs` | 50 |
 * | `backoffMaxMs` | 2000 |
 * | `leaseSafetyMarginMs` | 5000 |
 * | `maxItemBytes` | 268435456 bytes (256 MiB) |
 * | `leaseMs` | 30000 |
 * | `idlePeerMs` | 300000 (5 min) |
 * | `heartbeatIntervalMs` | 2000 |
 * | `heartbeatMisses` | 3 intervals |
 */
export const DEFAULT_CONSUMER_CONFIG: Readonly<ConsumerConfig> = Object.freeze({
  ...DEFAULT_TIMERS,
  waitBudgetMs: 60_000,
  grantWaitMs: 30_000,
  transferTimeoutMs: 20_000,
  quarantineCapMs: 60_000,
  backoffInitialMs: 50,
  backoffMaxMs: 2_000,
  leaseSafetyMarginMs: 5_000,
  maxItemBytes: 256 * 1024 * 1024,
  leaseMs: 30_000,
  idlePeerMs: 300_000,
});

/**
 * Default producer configuration (SPEC.md section 12, "Timers and limits"): what
 * {@link ProducerOptions.config} fields left out take. Durations in ms.
 *
 * | field | value |
 * | --- | --- |
 * | `leaseMs` | 30000 |
 * | `maxPinnedBytesPerConsumer` | 1073741824 bytes (1 GiB) |
 * | `maxGrantsPerConsumer` | 256 grants |
 * | `replayBufferBatches` | 1024 batches |
 * | `retryAfterMs` | 50 |
 * | `maxBatchBytes` | 1048576 bytes (1 MiB) |
 * | `resendIntervalMs` | 500 |
 * | `heartbeatIntervalMs` | 2000 |
 * | `heartbeatMisses` | 3 intervals |
 */
export const DEFAULT_PRODUCER_CONFIG: Readonly<ProducerConfig> = Object.freeze({
  ...DEFAULT_TIMERS,
  leaseMs: 30_000,
  maxPinnedBytesPerConsumer: 1024 * 1024 * 1024,
  maxGrantsPerConsumer: 256,
  replayBufferBatches: 1_024,
  retryAfterMs: 50,
  maxBatchBytes: 1024 * 1024,
  resendIntervalMs: 500,
});

/**
 * Default timers and bounds of an {@link EventSubscriber} (SPEC.md section 12, "Timers and
 * limits") [E2][P8]: what {@link SubscriberOptions} fields left out take. Durations in ms; the
 * bounds are per followed producer.
 *
 * | field | value |
 * | --- | --- |
 * | `retryMs` | 2000 |
 * | `heartbeatIntervalMs` | 2000 |
 * | `catchUpMs` | 5000 |
 * | `maxHeldBatches` | 1024 batches |
 * | `maxHeldEvents` | 262144 events |
 * | `maxHeldBytes` | 67108864 bytes (64 MiB) |
 * | `maxViewBytes` | 268435456 bytes (256 MiB) |
 */
export const DEFAULT_SUBSCRIBER_CONFIG: Readonly<
  Record<"retryMs" | "heartbeatIntervalMs" | "catchUpMs" | "maxHeldBatches" | "maxHeldEvents" | "maxHeldBytes" | "maxViewBytes", number>
> = Object.freeze({
  retryMs: 2_000,
  heartbeatIntervalMs: DEFAULT_TIMERS.heartbeatIntervalMs,
  catchUpMs: 5_000,
  maxHeldBatches: 1_024,
  maxHeldEvents: 262_144,
  maxHeldBytes: 64 * 1024 * 1024,
  maxViewBytes: 256 * 1024 * 1024,
});

/**
 * A plain copy of a constructor's `options` holding its `known` options (those present, read once),
 * so that a getter or a Proxy trap that throws is refused here, typed, naming the option, instead of
 * escaping from wherever the constructor reads it [I1]. The constructors read the copy.
 * @throws EctpError(INVALID_CONFIG) naming the option that could not be read.
 * @internal
 */
export function readOptions<T extends object>(owner: string, options: T, known: readonly string[]): T {
  const copy: Record<string, unknown> = {};
  for (const key of known) {
    try {
      if (key in options) copy[key] = (options as Record<string, unknown>)[key];
    } catch (cause) {
      throw new EctpError("INVALID_CONFIG", `options.${key} of ${owner} could not be read (${thrownMessage(cause)}); pass a plain object.`, { cause });
    }
  }
  return copy as T;
}

/**
 * The `config` option of either core over `defaults` (an `undefined` value takes the default).
 * A key of the other role is ignored, so one object of timers may configure both cores; any
 * other key is refused, so that a misspelt option does not run silently with its default.
 * @throws EctpError(INVALID_CONFIG) naming the unknown key and the nearest known one; or when
 *   `config` is not an object (described by `describeValue`), or cannot be read (a throwing getter).
 * @internal
 */
export function mergeConfig<T extends object>(defaults: Readonly<T>, config: unknown): T {
  const merged: Record<string, unknown> = { ...defaults };
  if (config === undefined || config === null) return merged as T;
  if (typeof config !== "object")
    throw new EctpError("INVALID_CONFIG", `options.config must be an object of timers and limits; got ${describeValue(config)}.`);
  let entries: [string, unknown][];
  try {
    entries = Object.entries(config);
  } catch (cause) {
    // A getter or a Proxy trap that throws: a typed refusal, not the engine's own error.
    throw new EctpError(
      "INVALID_CONFIG",
      `options.config could not be read (${thrownMessage(cause)}); pass a plain object of timers and limits.`,
      { cause },
    );
  }
  for (const [key, value] of entries) {
    if (Object.hasOwn(defaults, key)) {
      if (value !== undefined) merged[key] = value;
    } else if (!Object.hasOwn(DEFAULT_CONSUMER_CONFIG, key) && !Object.hasOwn(DEFAULT_PRODUCER_CONFIG, key)) {
      const near = nearestKey(key);
      throw new EctpError(
        "INVALID_CONFIG",
        `config.${key} is not an option of either core${near === undefined ? "" : ` (did you mean ${near}?)`}; the options are listed in ConsumerConfig and ProducerConfig.`,
        { details: { key } },
      );
    }
  }
  return merged as T;
}

/**
 * For a constructor's unknown top-level option that names (or nearly) a timer or limit of
 * `defaults`: where it goes instead (`options.config`), for the refusal's message.
 * @internal
 */
export function configSettingHint(key: string, defaults: object): string | undefined {
  const near = closestName(key, new Set(Object.keys(defaults)), 2);
  return near === undefined ? undefined : `timers and limits go in options.config (did you mean options.config.${near}?)`;
}

/** The known config key closest to `key` (same letters in another case, or at most 2 edits), if any. */
function nearestKey(key: string): string | undefined {
  return closestName(key, new Set([...Object.keys(DEFAULT_CONSUMER_CONFIG), ...Object.keys(DEFAULT_PRODUCER_CONFIG)]), 2);
}

/** A grant's lease when its `lease_ms` is 0 (SPEC.md section 4.4). */
const DEFAULT_GRANT_LEASE_MS = 30_000;

/**
 * The lease a ReadGrant gives, in ms: its `lease_ms`, where 0 (or anything but a positive
 * finite number) means 30 000 (SPEC.md section 4.4) [C11].
 */
export function grantLeaseMs(leaseMs: number): number {
  return leaseMs > 0 && Number.isFinite(leaseMs) ? leaseMs : DEFAULT_GRANT_LEASE_MS;
}

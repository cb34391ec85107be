/**
 * Fault plan types and counters of the mock network's fault injector.
 *
 * A link is directed and named after the side that *initiates* the operation: link
 * `a -> b` carries the control messages `a` sends to `b` and the reads `a` makes of
 * `b`'s memory. Every probability is drawn from that link's seeded stream, so the same
 * seed and the same calls inject the same faults.
 * @module
 */

import { describeValue } from "@ectp/protocol";

/** Extra delivery delay of control messages. */
export interface DelayFault {
  /** Probability per message in [0, 1]. Default: 0 (never). */
  readonly probability: number;
  /** Smallest extra delay in ms. Default: 0. */
  readonly minMs?: number;
  /** Largest extra delay in ms. Default: 10. */
  readonly maxMs?: number;
}

/**
 * Reordering of control messages: a picked message is held and delivered after the link's next
 * one. Of a message the `duplicate` fault picks too, the copy is not held: it arrives in order, and
 * the held one later, as a late retransmission.
 */
export interface ReorderFault {
  /** Probability per message in [0, 1]. Default: 0 (never). */
  readonly probability: number;
  /**
   * Longest a held message waits for a later message to overtake it, in ms past its own
   * delivery time; when none comes it is delivered anyway (so reordering never turns
   * into loss). Default: 5.
   */
  readonly maxHoldMs?: number;
}

/**
 * A read that hangs past its due time and settles late: the shape of a transfer the
 * consumer must quarantine [C8]. A stalled read ignores `cancelRead`
 * (the cancel "does not reach the NIC"), like a stuck RDMA operation.
 */
export interface StallFault {
  /** Probability per read in [0, 1]. Default: 0 (never). */
  readonly probability: number;
  /** How long after it started the stalled read settles, in ms. Default: 30 000 (past the 20 s transfer timeout). */
  readonly durationMs?: number;
  /** How it settles when the stall ends: `done` (bytes written late) or `failed`. Default: `done`. */
  readonly settle?: "done" | "failed";
}

/**
 * Faults of one directed link (or the default for every link). Every field is
 * optional; an absent field means "no such fault".
 */
export interface FaultConfig {
  /** Probability of silently losing a control message. Default: 0. */
  readonly drop?: number | undefined;
  /** Extra delivery delay of control messages. Default: none. */
  readonly delay?: DelayFault | undefined;
  /** Probability of delivering a control message twice (two independent copies). Default: 0. */
  readonly duplicate?: number | undefined;
  /** Reordering of control messages. Default: none. */
  readonly reorder?: ReorderFault | undefined;
  /**
   * Probability a read fails at its due time, after writing a random prefix of the
   * destination (a failed read may leave partial data). Default: 0.
   */
  readonly failRead?: number | undefined;
  /** Reads that hang and settle late [C8]. Default: none. */
  readonly stallRead?: StallFault | undefined;
  /**
   * Probability a read that succeeds has one destination byte flipped, so the consumer's
   * checksum check [C11] must catch it. Default: 0.
   */
  readonly corruptRead?: number | undefined;
  /**
   * When true the link is cut: messages sent and reads started meanwhile are lost, the reads
   * failing at their due time (what was in flight before goes through; see {@link MockNetwork.partition}).
   * Partition a pair both ways with {@link MockNetwork.partition}. Default: false.
   */
  readonly partitioned?: boolean | undefined;
}

/** Faults of one directed link, overriding the default field by field. */
export interface LinkFaults extends FaultConfig {
  /** The initiating endpoint (message sender, read issuer). */
  readonly from: string;
  /** The other endpoint (message receiver, memory owner). */
  readonly to: string;
}

/** The whole fault plan of a network. Default: no faults anywhere. */
export interface FaultPlan {
  /** Faults of every link without its own entry. Default: none. */
  readonly default?: FaultConfig | undefined;
  /** Per-link overrides, merged field by field over {@link FaultPlan.default}. Default: none. */
  readonly links?: readonly LinkFaults[] | undefined;
}

/**
 * How many times each fault was injected so far. A fault is counted when it takes
 * effect (a read cancelled before its injected failure was due is not counted), except
 * `stallRead`, counted when the stall begins.
 */
export interface FaultCounts {
  /** Control messages lost by the `drop` fault. */
  drop: number;
  /** Control messages delayed by the `delay` fault. */
  delay: number;
  /** Control messages delivered twice by the `duplicate` fault. */
  duplicate: number;
  /** Control messages held back by the `reorder` fault. */
  reorder: number;
  /** Reads failed by the `failRead` fault. */
  failRead: number;
  /** Reads stalled by the `stallRead` fault. */
  stallRead: number;
  /** Reads whose destination got a flipped byte from the `corruptRead` fault. */
  corruptRead: number;
  /** Control messages lost on a partitioned link. */
  partitionMessage: number;
  /** Reads failed because their link was partitioned. */
  partitionRead: number;
  /** Endpoints crashed with {@link MockNetwork.crash} (or by {@link MockNetwork.restart} of a live one). */
  crash: number;
  /** Endpoints restarted with {@link MockNetwork.restart}. */
  restart: number;
  /** Control messages that vanished because their sender or receiver crashed while they were in flight. */
  crashMessage: number;
  /** Reads that failed with `peerGone` because the memory owner crashed (or was restarted, which crashes it first). */
  crashRead: number;
}

/** The kinds of fault, as reported to {@link NetworkObserver.onFault}. */
export type FaultKind = keyof FaultCounts;

/** A fresh all-zero counter set. Internal. */
export function zeroCounts(): FaultCounts {
  return {
    drop: 0,
    delay: 0,
    duplicate: 0,
    reorder: 0,
    failRead: 0,
    stallRead: 0,
    corruptRead: 0,
    partitionMessage: 0,
    partitionRead: 0,
    crash: 0,
    restart: 0,
    crashMessage: 0,
    crashRead: 0,
  };
}

function checkProbability(p: unknown, where: string): string | undefined {
  if (p === undefined) return undefined;
  if (typeof p !== "number" || !(p >= 0 && p <= 1)) return `${where} must be a probability in [0, 1], got ${describeValue(p)}`;
  return undefined;
}

function checkMs(v: unknown, where: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) return `${where} must be a finite number of ms >= 0, got ${describeValue(v)}`;
  return undefined;
}

/** Whether `v` is a plain object (not null, not an array): what every part of a fault plan is. */
function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Problems of keys of `c` outside `known` (a misspelt fault would silently never fire). */
function unknownKeys(c: Record<string, unknown>, known: readonly string[], where: string): string[] {
  return Object.keys(c)
    .filter((k) => !known.includes(k))
    .map((k) => `${where}.${k} is not a fault setting (the settings are ${known.join(", ")})`);
}

const CONFIG_KEYS = ["drop", "delay", "duplicate", "reorder", "failRead", "stallRead", "corruptRead", "partitioned"] as const;

/**
 * Problems of the nested fault `name` of `c`: it is absent, or an object with only the given
 * `fields`, each checked by its checker, and `otherKeys` (checked by the caller).
 */
function checkNested(
  c: Record<string, unknown>,
  name: "delay" | "reorder" | "stallRead",
  fields: readonly (readonly [string, typeof checkMs])[],
  where: string,
  otherKeys: readonly string[] = [],
): string[] {
  const v = c[name];
  if (v === undefined) return [];
  const at = `${where}.${name}`;
  if (!isRecord(v)) return [`${at} must be an object ({ probability, ... }) or absent, got ${describeValue(v)}`];
  // The probability is required: without it the fault would silently never fire.
  const missing = v.probability === undefined ? [`${at}.probability is required (a probability in [0, 1])`] : [];
  const checked = fields.map(([k, check]) => (k === "probability" && v[k] === undefined ? undefined : check(v[k], `${at}.${k}`)));
  return [...unknownKeys(v, [...fields.map(([k]) => k), ...otherKeys], at), ...missing, ...checked.filter((p): p is string => p !== undefined)];
}

/**
 * Every problem of a fault config, as sentences (empty when valid): each field of its type
 * (a wrong type would make the fault silently never fire, or fail a later send or read), and no
 * other keys (`extraKeys`: the `from` and `to` of a link entry).
 */
function validateFaultConfig(config: unknown, where: string, extraKeys: readonly string[] = []): string[] {
  if (!isRecord(config)) return [`${where} must be an object of faults, got ${describeValue(config)}`];
  const c = config;
  const problems = [
    ...unknownKeys(c, [...extraKeys, ...CONFIG_KEYS], where),
    checkProbability(c.drop, `${where}.drop`),
    checkProbability(c.duplicate, `${where}.duplicate`),
    checkProbability(c.failRead, `${where}.failRead`),
    checkProbability(c.corruptRead, `${where}.corruptRead`),
    ...checkNested(c, "delay", [["probability", checkProbability], ["minMs", checkMs], ["maxMs", checkMs]], where),
    ...checkNested(c, "reorder", [["probability", checkProbability], ["maxHoldMs", checkMs]], where),
    ...checkNested(c, "stallRead", [["probability", checkProbability], ["durationMs", checkMs]], where, ["settle"]),
  ].filter((p): p is string => p !== undefined);
  if (c.partitioned !== undefined && typeof c.partitioned !== "boolean")
    problems.push(`${where}.partitioned must be true or false, got ${describeValue(c.partitioned)}`);
  const stall = c.stallRead;
  if (isRecord(stall) && stall.settle !== undefined && stall.settle !== "done" && stall.settle !== "failed") {
    problems.push(`${where}.stallRead.settle must be "done" or "failed", got ${describeValue(stall.settle)}`);
  }
  const delay = c.delay;
  const minMs = isRecord(delay) ? (delay.minMs ?? 0) : 0;
  const maxMs = isRecord(delay) ? (delay.maxMs ?? 10) : 10;
  if (typeof minMs === "number" && typeof maxMs === "number" && minMs > maxMs)
    problems.push(`${where}.delay.minMs (${minMs}) is larger than maxMs (${maxMs})`);
  return problems;
}

/**
 * Every problem of a whole fault plan (empty when valid): an object with at most `default` (a
 * fault config) and `links` (an array of link entries with string `from` and `to`). Internal.
 */
export function validateFaultPlan(plan: unknown): string[] {
  if (!isRecord(plan)) return [`faults must be a fault plan object ({ default?, links? }), got ${describeValue(plan)}`];
  const problems = unknownKeys(plan, ["default", "links"], "faults");
  if (plan.default !== undefined) problems.push(...validateFaultConfig(plan.default, "faults.default"));
  const links = plan.links;
  if (links === undefined) return problems;
  if (!Array.isArray(links)) return [...problems, `faults.links must be an array of link entries, got ${describeValue(links)}`];
  // Indexed, not forEach: a hole in the array is an entry too (undefined), reported as such.
  for (let i = 0; i < links.length; i++) {
    const link: unknown = links[i];
    const at = `faults.links[${i}]`;
    if (isRecord(link) && (typeof link.from !== "string" || typeof link.to !== "string"))
      problems.push(`${at} needs string \`from\` and \`to\` endpoint ids`);
    problems.push(...validateFaultConfig(link, at, ["from", "to"]));
  }
  return problems;
}

/** A deep copy of a valid fault config (its nested faults copied too, so no caller shares them with the network). Internal. */
export function copyFaultConfig<T extends FaultConfig>(c: T): T {
  return {
    ...c,
    ...(c.delay !== undefined && { delay: { ...c.delay } }),
    ...(c.reorder !== undefined && { reorder: { ...c.reorder } }),
    ...(c.stallRead !== undefined && { stallRead: { ...c.stallRead } }),
  };
}

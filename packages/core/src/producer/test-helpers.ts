/**
 * Shared helpers for producer and driver tests. Not exported from the package.
 * @internal
 * @module
 */
import { SPEC_VERSION, ectp, encodeEnvelope, itemKeyId } from "@ectp/protocol";
import type { ConfigOverrides, ProducerConfig } from "../config.js";
import type { Logger, MetricsSink } from "../observability.js";
import type { CoreOutput, SendOutput } from "../outputs.js";
import { MemoryItemStore } from "./memory-store.js";
import { ProducerCore } from "./producer.js";
import type { ItemStore, StoreChange } from "./types.js";

/** The fingerprint every test item uses. */
export const FP: ectp.v1.IFingerprint = { model: "m", dtype: ectp.v1.Dtype.DTYPE_UINT8, rowBytes: 0, layoutVersion: 1 };
/** Producer id and epoch of the producer under test. */
export const PRODUCER = { id: "E", epoch: 7 };

/**
 * A custom store with only the required {@link ItemStore} methods (no `unpinEntry`), each passed
 * to `inner`; `onSubscribe` sees the listener the producer subscribes (to feed it changes).
 */
export function requiredMethodsOf(inner: MemoryItemStore, onSubscribe?: (listener: (c: StoreChange) => void) => void): ItemStore {
  return {
    get: (k) => inner.get(k),
    pin: (k) => inner.pin(k),
    unpin: (k) => inner.unpin(k),
    readyItems: () => inner.readyItems(),
    totalPins: () => inner.totalPins(),
    subscribe: (listener) => {
      onSubscribe?.(listener);
      return inner.subscribe(listener);
    },
  };
}

/** Descriptor of test item `n`. */
export function desc(n: number, size = 10): ectp.v1.IItemDescriptor {
  return {
    key: { contentHash: new Uint8Array([n & 0xff, n >> 8]), fingerprint: FP },
    sizeBytes: size,
    producerId: PRODUCER.id,
    epoch: PRODUCER.epoch,
  };
}

/** Key id of test item `n`. */
export function kid(n: number): string {
  const r = itemKeyId(desc(n).key);
  if (!r.ok) throw r.error;
  return r.value;
}

/** A counting metrics sink. */
export class CountingMetrics implements MetricsSink {
  readonly counts = new Map<string, number>();
  /** Add to a counter keyed by name and labels. */
  counter(name: string, value = 1, labels?: Readonly<Record<string, string>>): void {
    const k = labels ? `${name}${JSON.stringify(labels)}` : name;
    this.counts.set(k, (this.counts.get(k) ?? 0) + value);
  }
  /** Every gauge setting, in order. */
  readonly gauges: { name: string; value: number }[] = [];
  /** Recorded. */
  gauge(name: string, value: number): void {
    this.gauges.push({ name, value });
  }
  /** Ignored. */
  histogram(): void {}
  /** A counter's value. */
  get(name: string, labels?: Readonly<Record<string, string>>): number {
    return this.counts.get(labels ? `${name}${JSON.stringify(labels)}` : name) ?? 0;
  }
}

/** A logger that records warnings. */
export class RecordingLogger implements Logger {
  readonly warnings: { message: string; fields?: unknown }[] = [];
  /** Ignored. */
  debug(): void {}
  /** Ignored. */
  info(): void {}
  /** Recorded. */
  warn(message: string, fields?: unknown): void {
    this.warnings.push({ message, fields });
  }
  /** Recorded as a warning too. */
  error(message: string, fields?: unknown): void {
    this.warnings.push({ message: `ERROR ${message}`, fields });
  }
}

/** A producer, its store and recorders. */
export interface Harness {
  producer: ProducerCore;
  store: MemoryItemStore;
  metrics: CountingMetrics;
  logger: RecordingLogger;
}

/** A producer over a store of `capacityBytes` (default 1000), in `epoch` (default PRODUCER.epoch). */
export function harness(config: ConfigOverrides<ProducerConfig> = {}, capacityBytes = 1000, epoch = PRODUCER.epoch): Harness {
  const store = new MemoryItemStore({ capacityBytes });
  const metrics = new CountingMetrics();
  const logger = new RecordingLogger();
  const producer = new ProducerCore({
    ...PRODUCER,
    epoch,
    fingerprint: FP,
    store,
    transportMetadata: new Uint8Array([0xee]),
    config,
    metrics,
    logger,
  });
  return { producer, store, metrics, logger };
}

/** Put item `n` and mark it ready. */
export function ready(store: MemoryItemStore, n: number, size = 10): string {
  const r = store.put(desc(n, size));
  if (!r.ok) throw r.error;
  store.markReady(kid(n));
  return kid(n);
}

/**
 * A store whose region owner writes item 99 (ready) from the first release callback it gets, as
 * an engine reacting to a deregistration by refilling may; `then` runs right after, still inside
 * the callback (e.g. to hand the producer a ReadRequest for it).
 */
export function refillingStore(then: () => void = () => {}): MemoryItemStore {
  let refill = true;
  const store: MemoryItemStore = new MemoryItemStore({
    capacityBytes: 1000,
    release: () => {
      if (!refill) return;
      refill = false;
      ready(store, 99);
      then();
    },
  });
  return store;
}

/** Encode an envelope from a consumer. */
export function wire(from: string, epoch: number, body: ectp.v1.IEnvelope): Uint8Array {
  return encodeEnvelope({ version: SPEC_VERSION, senderId: from, senderEpoch: epoch, ...body });
}

/** The envelopes sent to `peerId` (or to anyone) among outputs. */
export function sent(outputs: CoreOutput[], peerId?: string): ectp.v1.IEnvelope[] {
  return outputs
    .filter((o): o is SendOutput => o.type === "send" && (peerId === undefined || o.peerId === peerId))
    .map((o) => o.envelope);
}

/** A ReadRequest envelope body for item `n`. */
export function readRequest(attemptId: number, n: number, extra: Partial<ectp.v1.IReadRequest> = {}): ectp.v1.IEnvelope {
  return { readRequest: { attemptId, key: desc(n).key, ...extra } };
}

/** Ask for item `n` as consumer `from` and return the single reply envelope. */
export function request(
  h: Harness,
  from: string,
  attemptId: number,
  n: number,
  now: number,
  epoch = 1,
  extra: Partial<ectp.v1.IReadRequest> = {},
): ectp.v1.IEnvelope {
  h.producer.handleMessage(from, wire(from, epoch, readRequest(attemptId, n, extra)), now);
  const replies = sent(h.producer.poll(now), from).filter((e) => e.readGrant || e.readReject);
  if (replies.length !== 1) throw new Error(`expected one reply, got ${replies.length}`);
  return replies[0] as ectp.v1.IEnvelope;
}

/** ACK a grant as consumer `from`. */
export function ack(
  h: Harness,
  from: string,
  grantId: number,
  now: number,
  epoch = 1,
  status = ectp.v1.CompletionStatus.COMPLETION_STATUS_OK,
): void {
  h.producer.handleMessage(from, wire(from, epoch, { readComplete: { grantId, status } }), now);
}

/**
 * Metrics and logging hooks. Both are no-ops by default and need no metrics library:
 * adapt them to Prometheus, OpenTelemetry or a test recorder in a few lines.
 * @module
 */

/** Label set attached to a metric sample. */
export type Labels = Readonly<Record<string, string>>;

/** Receives metric samples. Implementations must not throw. */
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

/** Receives log records. Implementations must not throw. */
export interface Logger {
  /** Detail for debugging. */
  debug(message: string, fields?: LogFields): void;
  /** Normal but notable events (a retry). */
  info(message: string, fields?: LogFields): void;
  /** Every terminal failure is logged here with request id, item key, reason and attempts. */
  warn(message: string, fields?: LogFields): void;
  /** Faults of the implementation itself. */
  error(message: string, fields?: LogFields): void;
}

const noop = (): void => {};

/** A {@link MetricsSink} that drops everything (the default). */
export const NOOP_METRICS: MetricsSink = Object.freeze({ counter: noop, gauge: noop, histogram: noop });

/** A {@link Logger} that drops everything (the default). */
export const NOOP_LOGGER: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });

/**
 * Metrics and logging hooks. Both are no-ops by default and need no metrics library:
 * adapt them to Prometheus, OpenTelemetry or a test recorder in a few lines.
 * @module
 */

/** Label set attached to a metric sample. */
export type Labels = Readonly<Record<string, string>>;

/**
 * Receives metric samples. Implementations should not throw; a core contains and counts what
 * one throws (`stats().hookFailures`), and that sample is lost.
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
 * throws (`stats().hookFailures`), and that record is lost.
 */
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

/**
 * `sink`, with anything its methods throw contained and reported to `onThrow` [I1]: a metrics
 * exporter that breaks costs its sample, never the core's state or the engine's call. The
 * default sink is returned as is (it cannot throw).
 * @internal
 */
export function containMetrics(sink: MetricsSink | undefined, onThrow: () => void): MetricsSink {
  if (sink === undefined || sink === NOOP_METRICS) return NOOP_METRICS;
  const call = (kind: keyof MetricsSink, name: string, value: number | undefined, labels: Labels | undefined): void => {
    try {
      sink[kind](name, value as number, labels);
    } catch {
      onThrow();
    }
  };
  return {
    counter: (name, value, labels) => call("counter", name, value, labels),
    gauge: (name, value, labels) => call("gauge", name, value, labels),
    histogram: (name, value, labels) => call("histogram", name, value, labels),
  };
}

/**
 * `logger`, with anything its methods throw contained and reported to `onThrow` [I1] (see
 * {@link containMetrics}). The default logger is returned as is.
 * @internal
 */
export function containLogger(logger: Logger | undefined, onThrow: () => void): Logger {
  if (logger === undefined || logger === NOOP_LOGGER) return NOOP_LOGGER;
  const call = (level: keyof Logger, message: string, fields: LogFields | undefined): void => {
    try {
      logger[level](message, fields);
    } catch {
      onThrow();
    }
  };
  return {
    debug: (message, fields) => call("debug", message, fields),
    info: (message, fields) => call("info", message, fields),
    warn: (message, fields) => call("warn", message, fields),
    error: (message, fields) => call("error", message, fields),
  };
}

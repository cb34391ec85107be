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
 * Counts the calls into an engine's hooks that threw. Shared by the two wrappers a core
 * builds around the hooks it was given ({@link containMetrics}, {@link containLogger}).
 * @internal
 */
export class HookFailures {
  /** Hook calls that threw, since the core was created. */
  count = 0;
}

/**
 * `sink`, with anything its methods throw contained and counted in `failures` [I1]: a
 * metrics exporter that breaks costs its sample, never the core's state or the engine's
 * call. The default sink is returned as is (it cannot throw).
 * @internal
 */
export function containMetrics(sink: MetricsSink | undefined, failures: HookFailures): MetricsSink {
  if (sink === undefined || sink === NOOP_METRICS) return NOOP_METRICS;
  return {
    counter(name, value, labels) {
      try {
        sink.counter(name, value, labels);
      } catch {
        failures.count++;
      }
    },
    gauge(name, value, labels) {
      try {
        sink.gauge(name, value, labels);
      } catch {
        failures.count++;
      }
    },
    histogram(name, value, labels) {
      try {
        sink.histogram(name, value, labels);
      } catch {
        failures.count++;
      }
    },
  };
}

/**
 * `logger`, with anything its methods throw contained and counted in `failures` [I1] (see
 * {@link containMetrics}). The default logger is returned as is.
 * @internal
 */
export function containLogger(logger: Logger | undefined, failures: HookFailures): Logger {
  if (logger === undefined || logger === NOOP_LOGGER) return NOOP_LOGGER;
  const call = (level: keyof Logger, message: string, fields: LogFields | undefined): void => {
    try {
      logger[level](message, fields);
    } catch {
      failures.count++;
    }
  };
  return {
    debug: (message, fields) => call("debug", message, fields),
    info: (message, fields) => call("info", message, fields),
    warn: (message, fields) => call("warn", message, fields),
    error: (message, fields) => call("error", message, fields),
  };
}

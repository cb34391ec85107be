/**
 * Options of a simulation, with the defaults of the public field benchmark
 * (4 encoders, 4 prefill/decode instances, concurrency 96, 6,000 requests).
 * @module
 */
import type { ConfigOverrides, ConsumerConfig, ProducerConfig } from "@ectp/core";
import type { FaultPresetName, FaultProfile } from "./faults.js";
import type { CoreFactories } from "./hooks.js";

/** What a simulation models. Every field is optional in {@link SimulationOptions}. */
export interface SimulationConfig {
  /** Seed of every random choice (workload, faults, jitter), from -2^31 to 2^31 - 1. Default 1. */
  seed: number;
  /** Encoder (producer) instances, at most 1,000. Default 4. */
  producers: number;
  /** Prefill/decode (consumer) instances, at most 1,000. Default 4. */
  consumers: number;
  /** Requests in flight at once (at most 100,000); a new one arrives when one ends (closed loop). Default 96. */
  concurrency: number;
  /** Requests to run, at most 10,000,000. Default 6,000. */
  requests: number;
  /** Fewest media items per request. Default 1. */
  minItemsPerRequest: number;
  /** Most media items per request. Default 4. */
  maxItemsPerRequest: number;
  /** Smallest nominal encoding, bytes. Default 1 MB (1,000,000). */
  minItemBytes: number;
  /** Largest nominal encoding, bytes. Default 20 MB (20,000,000). */
  maxItemBytes: number;
  /** Probability an item repeats a recently seen one (shared reads [C9], cache hits). Default 0.1. */
  itemReuse: number;
  /**
   * Engine step: consumers admit waiting requests once per step. Default 10 ms. This and
   * the next three durations are each from 0.001 ms to 1 hour ({@link SIMULATION_LIMITS}).
   */
  stepMs: number;
  /** Time to encode one item, on an encoder or locally on fallback. Default 50 ms. */
  encodeTimeMs: number;
  /** Prefill + decode time of a request once its items are ready. Default 1,500 ms. */
  serviceTimeMs: number;
  /** Consumer wait budget per (request, item) [C3]. Default 60 s. */
  budgetMs: number;
  /**
   * Fraction of requests the orchestrator rewrites to metadata only (no model input) [C1], drawn
   * among the requests whose every item has an announcement (the others keep their model input).
   * Default 0.25.
   */
  metadataOnlyFraction: number;
  /** Fault preset name or a custom profile. Default "none". */
  faults: FaultPresetName | FaultProfile;
  /** Nominal bytes per real byte moved, at most 1,048,576. Default 16,384. */
  byteScale: number;
  /** Nominal store capacity of each producer, bytes, before memory pressure. Default 4 GiB. */
  producerCapacityBytes: number;
  /** Nominal destination memory of each consumer, bytes. Default 4 GiB. */
  consumerCapacityBytes: number;
  /** Nominal link bandwidth, bytes per second, from 1 to 1e16 (10 PB/s). Default 25 GB/s. */
  linkBytesPerSecond: number;
  /** One-way control message latency, ms, from 0 to 1 hour. Default 0.1 ms. */
  linkLatencyMs: number;
  /**
   * Consumer config overrides. Two fields are always set by the simulation instead: the wait
   * budget (from {@link SimulationConfig.budgetMs}) and `maxItemBytes` (maxItemBytes / byteScale,
   * the largest scaled item); giving either here is refused (`validateConfig` names the option to
   * use), since it would be replaced without a word. Default none.
   */
  consumerConfig: ConfigOverrides<ConsumerConfig>;
  /** Producer timer overrides. Default none. */
  producerConfig: ConfigOverrides<ProducerConfig>;
  /**
   * Simulated time between samples of the report's time series, ms, from the clock resolution
   * (`timeResolutionMs`) to 1 hour. Default 1 s (coarsened to keep <= 2,000 points).
   */
  sampleIntervalMs: number;
  /**
   * Granularity of the event loop's clock, ms: due times are rounded up to a multiple of
   * it, so events a few microseconds apart are handled in one round. Default 1 ms (a
   * tenth of the default engine step).
   */
  timeResolutionMs: number;
  /**
   * Longest simulated time spent draining after the last request, ms, from 0.001 ms to 1 hour, and
   * at least what the faults hold after it (a lease, a stalled read). Default 180 s.
   */
  maxDrainMs: number;
}

/** Options of {@link runSimulation}: any subset of {@link SimulationConfig} plus hooks. */
export interface SimulationOptions extends ConfigOverrides<SimulationConfig> {
  /** Called with (requests ended, requests total) at most every 1% of progress. Default none. */
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** Replace cores or stores, e.g. with deliberately broken variants in tests. Default: the real ones. */
  factories?: CoreFactories | undefined;
  /** Receives every event-log line (for debugging a seed). Default: lines are only hashed. */
  eventLog?: ((line: string) => void) | undefined;
  /**
   * Return the time series for the HTML report. Default true. False leaves the samples out of the
   * result but not out of the run: every run samples (a sample calls each consumer core's
   * `stats()`), so a core whose `stats()` throws gives the same [I1] violations and event-log hash
   * either way.
   */
  timeSeries?: boolean | undefined;
  /**
   * Call `admit` for every waiting request at every engine step, even when the previous
   * step was a pure re-admission and nothing has reached the consumer since. Default
   * false: such a step is provably a repeat (same core state, same inputs, no deadline
   * passed) and is skipped, which gives the identical summary (but `eventLog.quietStepsSkipped`,
   * the count of steps skipped) and event-log hash in a fraction of the time. True is for checking that equivalence. Cores from `factories`
   * are always admitted every step.
   */
  readmitEveryStep?: boolean | undefined;
  /**
   * Decode every control message from its bytes at the receiver. Default false: a message
   * between two real cores is still encoded and sent as bytes (its size sets its delivery
   * time, and the network's faults act on it as on any message), but the envelope object
   * that was encoded travels with it (MockTransport attachment) and the receiving core gets
   * it through `handleEnvelope`, which skips a decode that would rebuild the same envelope.
   * Cores from `factories` always receive bytes. True is for checking that equivalence (the
   * tests compare whole summaries and event-log hashes of both modes).
   */
  decodeMessages?: boolean | undefined;
}

/**
 * The defaults of {@link SimulationConfig}, the public field benchmark's workload:
 *
 * | field | value |
 * | --- | --- |
 * | `seed` | 1 |
 * | `producers`, `consumers` | 4 each |
 * | `concurrency` | 96 requests |
 * | `requests` | 6000 |
 * | `minItemsPerRequest`, `maxItemsPerRequest` | 1, 4 |
 * | `minItemBytes`, `maxItemBytes` | 1000000, 20000000 nominal bytes |
 * | `itemReuse` | 0.1 |
 * | `stepMs`, `encodeTimeMs`, `serviceTimeMs` | 10, 50, 1500 ms |
 * | `budgetMs` | 60000 ms |
 * | `metadataOnlyFraction` | 0.25 |
 * | `faults` | `"none"` (`ectp simulate` defaults to `"light"`) |
 * | `byteScale` | 16384 nominal bytes per real byte |
 * | `producerCapacityBytes`, `consumerCapacityBytes` | 4294967296 bytes (4 GiB) each |
 * | `linkBytesPerSecond` | 25e9 (25 GB/s) |
 * | `linkLatencyMs` | 0.1 ms |
 * | `consumerConfig`, `producerConfig` | `{}` (no overrides) |
 * | `sampleIntervalMs` | 1000 ms |
 * | `maxDrainMs` | 180000 ms |
 * | `timeResolutionMs` | 1 ms |
 */
export const DEFAULT_SIMULATION_CONFIG: Readonly<SimulationConfig> = Object.freeze({
  seed: 1,
  producers: 4,
  consumers: 4,
  concurrency: 96,
  requests: 6_000,
  minItemsPerRequest: 1,
  maxItemsPerRequest: 4,
  minItemBytes: 1_000_000,
  maxItemBytes: 20_000_000,
  itemReuse: 0.1,
  stepMs: 10,
  encodeTimeMs: 50,
  serviceTimeMs: 1_500,
  budgetMs: 60_000,
  metadataOnlyFraction: 0.25,
  faults: "none" as FaultPresetName,
  byteScale: 16_384,
  producerCapacityBytes: 4 * 1024 ** 3,
  consumerCapacityBytes: 4 * 1024 ** 3,
  linkBytesPerSecond: 25e9,
  linkLatencyMs: 0.1,
  consumerConfig: {},
  producerConfig: {},
  sampleIntervalMs: 1_000,
  maxDrainMs: 180_000,
  timeResolutionMs: 1,
});

/**
 * Bounds that `validateConfig` (and so `runSimulation`) enforces and `ectp simulate --help`
 * states: wide enough for any deliberate run, narrow enough that a slip of the keyboard is
 * rejected instead of silently distorting a run or making it run for days.
 */
export const SIMULATION_LIMITS = Object.freeze({
  /**
   * Smallest seed. The random source keeps a seed's low 32 bits as a signed integer, so
   * seed 1 and seed 1 + 2^32 would be the same run; only [minSeed, maxSeed] is accepted.
   */
  minSeed: -2_147_483_648,
  /** Largest seed (2^31 - 1); see `minSeed`. */
  maxSeed: 2_147_483_647,
  /** Most producers, and most consumers (setup and every loop round grow with them). */
  maxInstances: 1_000,
  /** Most requests in flight at once. */
  maxConcurrency: 100_000,
  /** Most requests in one run (the default run's 6,000 take about 2 s). */
  maxRequests: 10_000_000,
  /**
   * Largest byte scale (2^20): beyond it the default 1 MB to 20 MB items shrink to a few
   * real bytes each, and rounding them up distorts store occupancy and transfer times.
   */
  maxByteScale: 1_048_576,
  /** Most runs of one sweep (a sweep runs a few to tens of seeds a second). */
  maxRuns: 100_000,
  /** Most items in one request. */
  maxItemsPerRequest: 1_024,
  /** Largest item, nominal bytes (4 GiB). */
  maxItemBytes: 4 * 1024 ** 3,
  /**
   * Most real memory the stores and destination pools may hold together (2 GiB): the producers'
   * and consumers' capacities over the byte scale. A byte scale of 1 with the default 4 GiB
   * capacities would need 32 GiB.
   */
  maxRealBytes: 2 * 1024 ** 3,
  /** Most crashes, and most cancel storms, per minute of a fault profile (one a millisecond). */
  maxFaultsPerMinute: 60_000,
  /** Finest and coarsest clock resolution, ms. */
  minTimeResolutionMs: 0.001,
  /** See `minTimeResolutionMs`. */
  maxTimeResolutionMs: 1_000,
  /**
   * Shortest engine step, encode time, service time and wait budget, ms (1 us); none may be
   * shorter than the clock resolution (`timeResolutionMs`, default 1 ms), which it would run as.
   * Also the shortest drain (`maxDrainMs`).
   */
  minDurationMs: 0.001,
  /** Longest engine step, encode time, service time and wait budget, ms (1 hour). */
  maxDurationMs: 3_600_000,
  /**
   * Longest one-way control message latency (`linkLatencyMs`), ms: 1 hour, the longest wait budget
   * (`maxDurationMs`). A ReadRequest slower than that reaches its producer after every wait budget
   * has run out, so every request waits out its budget and falls back to local encoding (or fails,
   * without model input), as at any longer latency: 1e12 ms ran exactly that way, not as a slow link.
   */
  maxLinkLatencyMs: 3_600_000,
  /**
   * Slowest link (`linkBytesPerSecond`), bytes per second: nothing slower is a link, and far below
   * it (under about 1e-316 at the default byte scale) the mock network's rate, real bytes per ms
   * (linkBytesPerSecond / 1000 / byteScale), underflowed to 0 and was refused under its own name
   * (`bandwidthBytesPerMs`), which names no option.
   */
  minLinkBytesPerSecond: 1,
  /**
   * Fastest link (`linkBytesPerSecond`), bytes per second: 1e16 (10 PB/s, 400,000 times the default
   * 25 GB/s). At it the largest item (`maxItemBytes`, 4 GiB) crosses in 0.43 us, within the finest
   * clock resolution (`minTimeResolutionMs`, 1 us): every transfer is already shorter than a tick of
   * any clock, so a faster link shows nothing new and can only be a slip (1e12 and 1e16 give the same
   * event-log hashes).
   */
  maxLinkBytesPerSecond: 1e16,
  /**
   * Longest interval between samples of the time series (`sampleIntervalMs`), ms (1 hour; the
   * shortest is the clock resolution, `timeResolutionMs`). The series doubles its interval by itself
   * whenever a run outgrows its 2,000 points, so no run needs a longer one to stay small; a longer one
   * leaves most runs a single sample, at time 0 (1e12 ms did: the report's plots were one point).
   */
  maxSampleIntervalMs: 3_600_000,
  /**
   * Longest drain after the last request (`maxDrainMs`), ms: 1 hour, 20 times the default 180 s.
   * What faults hold after the last request is let go within a lease (default 30 s) or a stalled
   * read (default 50 s), and a healthy run stops draining once nothing is held, however long its
   * drain may be. A run whose core never lets go (a request never decided, a grant never released:
   * the bugs the simulator is there to report) steps through the whole drain, or through the
   * lost-request bound that includes it, one loop round per engine step: 1e12 ms is 10^11 rounds,
   * hours of wall time with one request stuck; 1 hour is 360,000 rounds at the default 10 ms step,
   * under a second.
   */
  maxDrainMs: 3_600_000,
});

/**
 * Option validation of both cores and the interval and lease rules of config.ts: every invalid
 * option is refused with EctpError(INVALID_CONFIG) naming it, every boundary value is accepted.
 * Each test fails on a hand mutant that the other tests let pass.
 */
import { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONSUMER_CONFIG, DEFAULT_PRODUCER_CONFIG, grantLeaseMs, peerHeartbeatIntervalMs } from "./config.js";
import { ConsumerCore } from "./consumer/consumer.js";
import { FP as CONSUMER_FP, TestPool } from "./consumer/test-support.js";
import { MemoryItemStore } from "./producer/memory-store.js";
import { ProducerCore } from "./producer/producer.js";
import { FP as PRODUCER_FP } from "./producer/test-helpers.js";

/** The INVALID_CONFIG error `make` throws, asserted to name `name`. */
function refused(make: () => unknown, name: string): void {
  let err: unknown;
  try {
    make();
  } catch (e) {
    err = e;
  }
  expect(err, `${name} accepted`).toBeInstanceOf(EctpError);
  expect((err as EctpError).code).toBe("INVALID_CONFIG");
  expect((err as EctpError).message).toContain(`config.${name}`);
}

const consumer = (config: object) => () =>
  new ConsumerCore({ id: "c", epoch: 1, fingerprint: CONSUMER_FP, destinations: new TestPool(), config });
const producer = (config: object) => () =>
  new ProducerCore({ id: "E", epoch: 1, fingerprint: PRODUCER_FP, store: new MemoryItemStore({ capacityBytes: 10 }), config });

const NOT_POSITIVE_INTEGERS: unknown[] = [0, -1, 1.5, Number.NaN, Number.NEGATIVE_INFINITY, "5", null, 2 ** 53];

describe("ConsumerCore options", () => {
  const durations = [
    "waitBudgetMs",
    "grantWaitMs",
    "transferTimeoutMs",
    "quarantineCapMs",
    "backoffInitialMs",
    "backoffMaxMs",
    "leaseSafetyMarginMs",
    "leaseMs",
    "heartbeatIntervalMs",
  ] as const;

  it.each(durations)("config.%s: every value that is not a positive integer is refused, naming it", (name) => {
    for (const v of NOT_POSITIVE_INTEGERS) refused(consumer({ [name]: v }), name);
    if (name !== "quarantineCapMs") refused(consumer({ [name]: Number.POSITIVE_INFINITY }), name);
  });

  it.each(["heartbeatMisses", "maxItemBytes"] as const)("config.%s: every value that is not a positive integer is refused, naming it", (name) => {
    for (const v of NOT_POSITIVE_INTEGERS) refused(consumer({ [name]: v }), name);
  });

  it("the boundaries themselves are accepted (1 ms, backoffInitialMs = backoffMaxMs, one missed heartbeat, 1-byte items)", () => {
    expect(consumer({ backoffInitialMs: 700, backoffMaxMs: 700 })).not.toThrow();
    expect(consumer({ backoffInitialMs: 1, backoffMaxMs: 1, heartbeatMisses: 1, maxItemBytes: 1, heartbeatIntervalMs: 1, grantWaitMs: 1 })).not.toThrow();
    expect(consumer({ transferTimeoutMs: 1, leaseMs: 2, leaseSafetyMarginMs: 1 })).not.toThrow();
  });

  it("backoffInitialMs above backoffMaxMs is refused, naming both", () => {
    refused(consumer({ backoffInitialMs: 701, backoffMaxMs: 700 }), "backoffInitialMs");
    expect(consumer({ backoffInitialMs: 701, backoffMaxMs: 700 })).toThrow(/backoffMaxMs \(700\)/);
  });

  it("options given as undefined take their defaults", () => {
    const c = consumer({ leaseMs: undefined, heartbeatMisses: undefined })() as ConsumerCore;
    expect(c.config.leaseMs).toBe(DEFAULT_CONSUMER_CONFIG.leaseMs);
    expect(c.config.heartbeatMisses).toBe(DEFAULT_CONSUMER_CONFIG.heartbeatMisses);
  });
});

describe("ConsumerCore options outside config", () => {
  const make = (extra: Record<string, unknown>) => () =>
    new ConsumerCore({ id: "c", epoch: 1, fingerprint: CONSUMER_FP, destinations: new TestPool(), ...extra });
  /** `m` throws INVALID_CONFIG naming `options.<name>`. */
  const refusedOption = (m: () => unknown, name: string) =>
    expect(m).toThrow(expect.objectContaining({ code: "INVALID_CONFIG", message: expect.stringContaining(`options.${name}`) }));

  // As the producer and the subscriber refuse it: a Hello carrying a string could not be encoded,
  // and a driver drops an envelope that does not encode, so no Hello would ever go out.
  it("transportMetadata: anything but a Uint8Array is refused, naming it", () => {
    for (const v of ["abc", [1, 2], new ArrayBuffer(2), 7, null]) refusedOption(make({ transportMetadata: v }), "transportMetadata");
    expect(make({ transportMetadata: new Uint8Array([1]) })).not.toThrow();
    expect(make({ transportMetadata: undefined })).not.toThrow();
  });

  // The jitter source keeps 32 bits of an integer: NaN, "7" and {} were all silently seed 0, and a
  // bigint or a symbol threw a TypeError.
  it("seed: anything but an integer is refused, naming it", () => {
    for (const v of [Number.NaN, 1.5, "7", {}, 10n, Symbol("s"), null, Number.POSITIVE_INFINITY]) refusedOption(make({ seed: v }), "seed");
    for (const v of [0, -5, 2 ** 31, undefined]) expect(make({ seed: v })).not.toThrow();
  });

  it("options that are not an object are refused, saying what the options are", () => {
    for (const options of [undefined, null, "pd-1"])
      expect(() => new ConsumerCore(options as never)).toThrow(
        "[INVALID_CONFIG] ConsumerCore needs an options object with id, epoch, fingerprint and destinations.",
      );
  });

  it("[P7] a malformed fingerprint is refused, saying which field is wrong", () => {
    expect(make({ fingerprint: { ...CONSUMER_FP, dtype: -1 } })).toThrow(/^\[INVALID_CONFIG\] options\.fingerprint is malformed: .*fingerprint\.dtype must be a Dtype enum value/);
    expect(make({ fingerprint: "m" })).toThrow(/^\[INVALID_CONFIG\] options\.fingerprint is malformed: .*fingerprint must be an object/);
  });

  it("destinations: anything but a pool with allocate, release and view is refused", () => {
    const pool = new TestPool();
    const lacking = (method: string) => ({ allocate: pool.allocate, release: pool.release, view: pool.view, [method]: undefined });
    const refusal = "[INVALID_CONFIG] options.destinations must be a DestinationPool { allocate, release, view }";
    for (const [destinations, why] of [
      [undefined, "; got nothing"],
      [null, "; got null"],
      ["pool", '; got "pool"'],
      [lacking("allocate"), ", but it has no allocate method"],
      [lacking("release"), ", but it has no release method"],
      [lacking("view"), ", but it has no view method"],
    ])
      expect(make({ destinations })).toThrow(`${refusal}${why}`);
    expect(make({ destinations: { allocate: pool.allocate, release: pool.release, view: pool.view } })).not.toThrow();
  });
});

describe("ProducerCore options", () => {
  const atLeastOne = ["heartbeatIntervalMs", "heartbeatMisses", "leaseMs", "maxPinnedBytesPerConsumer", "maxGrantsPerConsumer", "replayBufferBatches", "maxBatchBytes"] as const;
  const atLeastZero = ["retryAfterMs", "resendIntervalMs"] as const;

  it.each(atLeastOne)("config.%s: every value that is not a positive integer is refused, naming it", (name) => {
    for (const v of [...NOT_POSITIVE_INTEGERS, Number.POSITIVE_INFINITY]) refused(producer({ [name]: v }), name);
    expect(producer({ [name]: 1 })).not.toThrow();
  });

  it.each(atLeastZero)("config.%s: 0 is accepted, negative or non-integer values are refused, naming it", (name) => {
    expect(producer({ [name]: 0 })).not.toThrow();
    for (const v of [-1, 0.5, Number.NaN, "5", Number.POSITIVE_INFINITY]) refused(producer({ [name]: v }), name);
  });

  it.each(["leaseMs", "retryAfterMs", "heartbeatIntervalMs"] as const)("config.%s travels as uint32: 2^32 - 1 is accepted, 2^32 refused naming it", (name) => {
    expect(producer({ [name]: 0xffffffff })).not.toThrow();
    refused(producer({ [name]: 2 ** 32 }), name);
  });

  it("config.resendIntervalMs: at most 1000", () => {
    expect(producer({ resendIntervalMs: 1_000 })).not.toThrow();
    refused(producer({ resendIntervalMs: 1_001 }), "resendIntervalMs");
  });

  it("defaults are valid", () => {
    expect(producer({ ...DEFAULT_PRODUCER_CONFIG })).not.toThrow();
  });
});

describe("keys of the config option", () => {
  it.each([
    ["waitBudgetMS", "waitBudgetMs"],
    ["waitBudget", "waitBudgetMs"],
    ["leseMs", "leaseMs"],
  ])("a misspelt key (%s) is refused by both cores, naming the nearest option (%s)", (key, near) => {
    for (const make of [consumer, producer]) {
      refused(make({ [key]: 5 }), key);
      expect(make({ [key]: 5 })).toThrow(`(did you mean ${near}?)`);
    }
  });

  it("a key far from every option is refused without a guess", () => {
    refused(consumer({ colour: "blue" }), "colour");
    expect(consumer({ colour: "blue" })).not.toThrow(/did you mean/);
  });

  it("the other role's keys are ignored, so one object of timers configures both cores", () => {
    const both = { waitBudgetMs: 9_000, maxGrantsPerConsumer: 7, heartbeatIntervalMs: 1_000 };
    const c = consumer(both)() as ConsumerCore;
    expect(c.config).toMatchObject({ waitBudgetMs: 9_000, heartbeatIntervalMs: 1_000 });
    expect(c.config).not.toHaveProperty("maxGrantsPerConsumer");
    expect(producer(both)).not.toThrow();
  });

  it("a config that is not an object is refused", () => {
    for (const make of [consumer, producer]) expect(make(5 as unknown as object)).toThrow(/options\.config must be an object/);
  });
});

describe("peerHeartbeatIntervalMs / grantLeaseMs", () => {
  it("[P8] an announced interval that is absent, 0 or not a positive integer counts as the default 2000 ms", () => {
    for (const a of [undefined, null, 0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "3000", 2 ** 53]) expect(peerHeartbeatIntervalMs(a, 1_000)).toBe(2_000);
  });

  it("[P8] the larger of ours and theirs, theirs counted as at most 60 s", () => {
    expect(peerHeartbeatIntervalMs(5_000, 1_000)).toBe(5_000);
    expect(peerHeartbeatIntervalMs(500, 3_000)).toBe(3_000);
    expect(peerHeartbeatIntervalMs(86_400_000, 1_000)).toBe(60_000);
    expect(peerHeartbeatIntervalMs(86_400_000, 90_000)).toBe(90_000);
  });

  it("[C11] a grant's lease_ms of 0 or anything but a positive finite number means 30 000", () => {
    for (const l of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) expect(grantLeaseMs(l)).toBe(30_000);
    expect(grantLeaseMs(1)).toBe(1);
    expect(grantLeaseMs(4_294_967_295)).toBe(4_294_967_295);
  });
});

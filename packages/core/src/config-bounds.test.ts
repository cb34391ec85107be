/**
 * The config option of both cores: null means "no options" (every default), like undefined;
 * inherited Object properties are not options.
 */
import { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONSUMER_CONFIG, DEFAULT_PRODUCER_CONFIG, mergeConfig } from "./config.js";
import { ConsumerCore } from "./consumer/consumer.js";
import { FP as CONSUMER_FP, TestPool } from "./consumer/test-support.js";
import { MemoryItemStore } from "./producer/memory-store.js";
import { ProducerCore } from "./producer/producer.js";
import { FP as PRODUCER_FP } from "./producer/test-helpers.js";

const consumer = (config: unknown) =>
  new ConsumerCore({ id: "c", epoch: 1, fingerprint: CONSUMER_FP, destinations: new TestPool(), config: config as object });
const producer = (config: unknown) =>
  new ProducerCore({ id: "E", epoch: 1, fingerprint: PRODUCER_FP, store: new MemoryItemStore({ capacityBytes: 10 }), config: config as object });

describe("config: null and inherited keys", () => {
  it("config: null takes every default in both cores", () => {
    expect(consumer(null).config).toEqual(DEFAULT_CONSUMER_CONFIG);
    expect(() => producer(null)).not.toThrow();
    expect(mergeConfig(DEFAULT_PRODUCER_CONFIG, null)).toEqual(DEFAULT_PRODUCER_CONFIG);
  });

  it.each(["constructor", "toString", "hasOwnProperty"])("a key inherited from Object (%s) is not an option: refused with INVALID_CONFIG", (key) => {
    let err: unknown;
    try {
      consumer({ [key]: 5 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EctpError);
    expect((err as EctpError).code).toBe("INVALID_CONFIG");
    expect((err as EctpError).message).toContain(`config.${key}`);
  });

  it("a function is not an object of timers: refused", () => {
    expect(() => consumer(() => 0)).toThrow(/options\.config must be an object/);
    expect(() => producer(() => 0)).toThrow(/options\.config must be an object/);
  });
});

describe("options.fingerprint", () => {
  const required = /options\.fingerprint is required: the model fingerprint/;
  it.each([
    ["missing", {}, required],
    // A misspelling is named as one, not as a missing fingerprint.
    ["misspelt", { fingerPrint: CONSUMER_FP }, /options\.fingerPrint is not an option of (ConsumerCore|ProducerCore) \(did you mean fingerprint\?\)/],
    ["null", { fingerprint: null }, required],
  ])("%s is refused by both cores with INVALID_CONFIG (every item would otherwise be INCOMPATIBLE)", (_, fields, message) => {
    const pool = new TestPool();
    const store = new MemoryItemStore({ capacityBytes: 10 });
    const make = [
      () => new ConsumerCore({ id: "c", epoch: 1, destinations: pool, ...fields } as never),
      () => new ProducerCore({ id: "E", epoch: 1, store, ...fields } as never),
    ];
    for (const build of make) {
      let err: unknown;
      try {
        build();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(EctpError);
      expect((err as EctpError).code).toBe("INVALID_CONFIG");
      expect((err as EctpError).message).toMatch(message);
    }
  });
});

/**
 * The options of the three constructors (ConsumerCore, ProducerCore, EventSubscriber), past what
 * config.test.ts checks: a value that cannot be turned into a string is described, never a
 * TypeError; an option that cannot be read is refused naming it (there and in MemoryItemStore and
 * Driver); a key that is not an option is refused with the nearest one; and a fingerprint given
 * to a constructor must be a plain object of its four fields, any of them absent or empty (the
 * all-default fingerprint of SPEC.md 3.1).
 */
import { EctpError, SPEC_VERSION, ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { DEFAULT_SUBSCRIBER_CONFIG } from "./config.js";
import { ConsumerCore } from "./consumer/consumer.js";
import { FP as CONSUMER_FP, QUIET, TestPool, remote } from "./consumer/test-support.js";
import { MemoryItemStore } from "./producer/memory-store.js";
import { ProducerCore } from "./producer/producer.js";
import { PRODUCER, FP as PRODUCER_FP, desc, harness, ready, request } from "./producer/test-helpers.js";
import { EventSubscriber } from "./subscriber/subscriber.js";
import { Driver } from "./driver/driver.js";
import type { Transport } from "./transport.js";

/** The EctpError(INVALID_CONFIG) `make` throws (the test fails on anything else, or nothing). */
function configError(make: () => unknown): EctpError {
  let caught: unknown;
  try {
    make();
  } catch (e) {
    caught = e;
  }
  expect(caught, "accepted, or a raw error").toBeInstanceOf(EctpError);
  expect((caught as EctpError).code).toBe("INVALID_CONFIG");
  return caught as EctpError;
}

const consumer = (extra: Record<string, unknown> = {}) => () =>
  new ConsumerCore({ id: "c", epoch: 1, fingerprint: CONSUMER_FP, destinations: new TestPool(), ...extra } as never);
const producer = (extra: Record<string, unknown> = {}) => () =>
  new ProducerCore({ id: "E", epoch: 1, fingerprint: PRODUCER_FP, store: new MemoryItemStore({ capacityBytes: 10 }), ...extra } as never);
const subscriber = (extra: Record<string, unknown> = {}) => () => new EventSubscriber({ id: "R", epoch: 1, ...extra } as never);

/** Values whose `String()` throws (a null-prototype object, a symbol) or prints nothing useful (`[]`, a bigint). */
const UNPRINTABLE: [string, string, unknown][] = [
  ["a null-prototype object", "an object", Object.create(null)],
  ["an empty array", "an array", []],
  ["a plain object", "an object", { ms: 5 }],
  ["a bigint", "10n", 10n],
  ["a symbol", "Symbol(s)", Symbol("s")],
  ["a Proxy", "an object", new Proxy({}, {})],
];

describe("option values that cannot be turned into a string are described, never a TypeError", () => {
  it.each(UNPRINTABLE)("[P8] an epoch that is %s is refused by all three constructors, described as %s", (_name, shown, epoch) => {
    for (const make of [consumer({ epoch }), producer({ epoch }), subscriber({ epoch })])
      expect(configError(make).message).toMatch(new RegExp(`options\\.epoch must be a positive integer.*; got ${shown.replace(/[()]/g, "\\$&")}(?!\\w)`));
  });

  it.each(UNPRINTABLE)("[C2][C3][C8][P8] a consumer config duration or limit that is %s is refused naming it, described as %s", (_name, shown, v) => {
    for (const name of ["waitBudgetMs", "quarantineCapMs", "heartbeatIntervalMs", "heartbeatMisses", "maxItemBytes"]) {
      const e = configError(consumer({ config: { [name]: v } }));
      expect(e.message).toContain(`config.${name} must be a positive integer`);
      expect(e.message).toContain(`; got ${shown}.`);
    }
  });

  it.each(UNPRINTABLE)("[P3][E1] a producer config value that is %s is refused naming it, described as %s", (_name, shown, v) => {
    for (const name of ["leaseMs", "retryAfterMs", "maxBatchBytes"])
      expect(configError(producer({ config: { [name]: v } })).message).toContain(`config.${name} must be an integer >= ${name === "retryAfterMs" ? 0 : 1}; got ${shown}.`);
  });

  it.each(UNPRINTABLE)("[E2] a subscriber timer or bound that is %s is refused naming it, described as %s", (_name, shown, v) => {
    for (const name of ["retryMs", "heartbeatIntervalMs", "catchUpMs", "maxViewBytes"])
      expect(configError(subscriber({ [name]: v })).message).toContain(`options.${name} must be a positive integer; got ${shown}. Omit it for `);
  });

  it("[C4] a consumer seed that is a bigint is described as one, not printed as the integer it is not", () => {
    expect(configError(consumer({ seed: 10n })).message).toContain("options.seed must be an integer (the jitter seed [C4]); got 10n.");
  });

  it("a config whose fields cannot be read (a throwing getter, a Proxy trap) is INVALID_CONFIG, not the getter's error", () => {
    const throwing = {
      get leaseMs(): number {
        throw new Error("no lease");
      },
    };
    const trap = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no keys");
        },
      },
    );
    expect(configError(consumer({ config: throwing })).message).toBe(
      "[INVALID_CONFIG] options.config could not be read (no lease); pass a plain object of timers and limits.",
    );
    expect(configError(producer({ config: trap })).message).toContain("options.config could not be read (no keys)");
  });

  it("a config that is not an object is described: a string quoted, a number printed", () => {
    expect(configError(consumer({ config: "fast" })).message).toContain('options.config must be an object of timers and limits; got "fast".');
    expect(configError(producer({ config: 5 })).message).toContain("options.config must be an object of timers and limits; got 5.");
  });
});

describe("options that cannot be read", () => {
  /** `options` behind a Proxy whose `get` of `key` throws, as a hostile or broken options object would. */
  const throwingGet = <T extends object>(options: T, key: string): T =>
    new Proxy(options, {
      get(target, k) {
        if (k === key) throw new Error(`no ${key}`);
        return (target as Record<string | symbol, unknown>)[k];
      },
    });

  it("[I1] a getter or Proxy trap that throws on an option is INVALID_CONFIG naming the option, in every constructor, not the getter's own error", () => {
    const pool = new TestPool();
    expect(configError(() => new ConsumerCore(throwingGet({ id: "c", epoch: 1, fingerprint: CONSUMER_FP, destinations: pool }, "epoch"))).message).toBe(
      "[INVALID_CONFIG] options.epoch of ConsumerCore could not be read (no epoch); pass a plain object.",
    );
    const store = new MemoryItemStore({ capacityBytes: 10 });
    expect(configError(() => new ProducerCore(throwingGet({ id: "E", epoch: 1, fingerprint: PRODUCER_FP, store }, "store"))).message).toBe(
      "[INVALID_CONFIG] options.store of ProducerCore could not be read (no store); pass a plain object.",
    );
    expect(configError(() => new EventSubscriber(throwingGet({ id: "R", epoch: 1 }, "id"))).message).toContain("options.id of EventSubscriber could not be read (no id)");
    expect(configError(() => new MemoryItemStore(throwingGet({ capacityBytes: 10 }, "capacityBytes"))).message).toContain(
      "options.capacityBytes of MemoryItemStore could not be read (no capacityBytes)",
    );
    const transport = { localId: "c" } as unknown as Transport;
    expect(configError(() => new Driver(throwingGet({ transport }, "transport"))).message).toContain("options.transport of Driver could not be read (no transport)");
  });

  it("each option is read once, so a getter cannot answer one value to a check and another to the use", () => {
    let reads = 0;
    const options = {
      id: "R",
      get epoch() {
        reads++;
        return reads === 1 ? 1 : -1;
      },
    };
    expect(new EventSubscriber(options).epoch).toBe(1);
    expect(reads).toBe(1);
  });
});

describe("keys of the options that are not options", () => {
  it.each([
    ["ConsumerCore", "confg", "config", consumer],
    ["ConsumerCore", "transportMetdata", "transportMetadata", consumer],
    ["ConsumerCore", "destination", "destinations", consumer],
    ["ProducerCore", "transportMetdata", "transportMetadata", producer],
    ["ProducerCore", "Store", "store", producer],
    ["EventSubscriber", "retryMS", "retryMs", subscriber],
    ["EventSubscriber", "maxViewByte", "maxViewBytes", subscriber],
  ] as const)("%s refuses a misspelt option (%s), naming it and the nearest option (%s)", (owner, key, near, make) => {
    const e = configError(make({ [key]: key === "retryMS" ? -5 : {} }));
    expect(e.message).toContain(`[INVALID_CONFIG] options.${key} is not an option of ${owner} (did you mean ${near}?); its options are `);
    expect(e.message).toContain("Check the spelling, or remove it.");
    expect(e.details).toMatchObject({ key });
  });

  it("the message lists every option of the class (the keys of its options interface)", () => {
    const listed = (make: () => unknown) => (configError(make).details as { knownKeys: string[] }).knownKeys;
    expect(listed(consumer({ colour: 1 }))).toEqual(["id", "epoch", "fingerprint", "destinations", "transportMetadata", "config", "seed", "metrics", "peerLabels", "logger"]);
    expect(listed(producer({ colour: 1 }))).toEqual(["id", "epoch", "fingerprint", "store", "transportMetadata", "config", "metrics", "peerLabels", "logger"]);
    expect(listed(subscriber({ colour: 1 }))).toEqual([
      "id",
      "epoch",
      "fingerprint",
      "transportMetadata",
      "retryMs",
      "heartbeatIntervalMs",
      "catchUpMs",
      "maxHeldBatches",
      "maxHeldEvents",
      "maxHeldBytes",
      "maxViewBytes",
      "logger",
      "metrics",
    ]);
    expect(configError(consumer({ colour: 1 })).message).toContain(
      "its options are id, epoch, fingerprint, destinations, transportMetadata, config, seed, metrics, peerLabels, logger.",
    );
  });

  it("a key far from every option is refused without a guess; an odd key is quoted", () => {
    expect(configError(consumer({ colour: "blue" })).message).toMatch(/^\[INVALID_CONFIG\] options\.colour is not an option of ConsumerCore; its options are /);
    expect(configError(producer({ "max grants": 3 })).message).toMatch(/^\[INVALID_CONFIG\] options\["max grants"\] is not an option of ProducerCore; /);
  });

  it("a timer or limit given at the top level is refused with where it goes (options.config) and its name there", () => {
    expect(configError(consumer({ waitBudget: 5_000 })).message).toMatch(
      /^\[INVALID_CONFIG\] options\.waitBudget is not an option of ConsumerCore; timers and limits go in options\.config \(did you mean options\.config\.waitBudgetMs\?\); its options are /,
    );
    expect(configError(consumer({ waitBudgetMs: 5_000 })).message).toContain("(did you mean options.config.waitBudgetMs?)");
    expect(configError(producer({ leaseMs: 5_000 })).message).toContain("options.leaseMs is not an option of ProducerCore; timers and limits go in options.config (did you mean options.config.leaseMs?)");
    // A near option name is the better guess: no config hint then.
    expect(configError(consumer({ confg: {} })).message).not.toContain("timers and limits");
  });

  it("an unknown key is refused even when set to undefined", () => {
    expect(configError(consumer({ sed: undefined })).message).toContain("options.sed is not an option of ConsumerCore (did you mean seed?)");
    expect(configError(subscriber({ catchupMs: undefined })).message).toContain("options.catchupMs is not an option of EventSubscriber (did you mean catchUpMs?)");
  });

  it("every option is accepted, each also when set to undefined, and a null-prototype options object is read like any other", () => {
    const consumerOptions = { transportMetadata: new Uint8Array([1]), config: {}, seed: 3, metrics: undefined, peerLabels: undefined, logger: undefined };
    expect(consumer(consumerOptions)).not.toThrow();
    expect(producer({ transportMetadata: undefined, config: undefined, metrics: undefined, peerLabels: undefined, logger: undefined })).not.toThrow();
    expect(
      subscriber({
        fingerprint: undefined,
        transportMetadata: undefined,
        retryMs: 10,
        heartbeatIntervalMs: undefined,
        catchUpMs: undefined,
        maxHeldBatches: 1,
        maxHeldEvents: undefined,
        maxHeldBytes: undefined,
        maxViewBytes: undefined,
        logger: undefined,
        metrics: undefined,
      }),
    ).not.toThrow();
    const bare = Object.assign(Object.create(null) as object, { id: "c", epoch: 1, fingerprint: CONSUMER_FP, destinations: new TestPool() });
    expect(() => new ConsumerCore(bare as never)).not.toThrow();
    expect(configError(() => new ConsumerCore(Object.assign(bare, { confg: {} }) as never)).message).toContain("options.confg is not an option");
  });

  it("[P7] a misspelt required option is named as the misspelling, before it is missed", () => {
    for (const make of [consumer, producer])
      expect(configError(make({ fingerprint: undefined, fingerPrint: CONSUMER_FP })).message).toMatch(
        /^\[INVALID_CONFIG\] options\.fingerPrint is not an option of (ConsumerCore|ProducerCore) \(did you mean fingerprint\?\)/,
      );
    expect(configError(consumer({ epoch: undefined, epohc: 1 })).message).toContain("options.epohc is not an option of ConsumerCore (did you mean epoch?)");
    expect(configError(subscriber({ id: undefined, Id: "R" })).message).toContain("options.Id is not an option of EventSubscriber (did you mean id?)");
  });
});

describe("the fingerprint given to a constructor", () => {
  const cores = [
    ["ConsumerCore", "[C2]", (fingerprint: unknown) => consumer({ fingerprint })],
    ["ProducerCore", "[P7]", (fingerprint: unknown) => producer({ fingerprint })],
  ] as const;

  it.each(cores)("%s %s refuses one with a misspelt field, naming it and the field meant", (_owner, _req, make) => {
    expect(configError(make({ modle: "m" })).message).toBe(
      "[INVALID_CONFIG] options.fingerprint.modle is not a fingerprint field (did you mean model?); the fields are model, dtype, rowBytes, layoutVersion.",
    );
    expect(configError(make({ ...CONSUMER_FP, rowbytes: 8 })).message).toContain("options.fingerprint.rowbytes is not a fingerprint field (did you mean rowBytes?)");
    expect(configError(make({ ...CONSUMER_FP, revision: 2 })).message).toMatch(/options\.fingerprint\.revision is not a fingerprint field; the fields are /);
  });

  it.each(cores)("%s %s refuses one that would not encode, in the same words", (_owner, _req, make) => {
    expect(configError(make({ ...CONSUMER_FP, dtype: -1 })).message).toMatch(
      /^\[INVALID_CONFIG\] options\.fingerprint is malformed: .*fingerprint\.dtype must be a Dtype enum value/,
    );
  });

  it.each(cores)("%s %s refuses one that is not a plain object (an array, a Map, a Date, bytes)", (_owner, _req, make) => {
    expect(configError(make([])).message).toBe(
      "[INVALID_CONFIG] options.fingerprint must be a plain object of model, dtype, rowBytes, layoutVersion (or an ectp.v1.Fingerprint); got an array.",
    );
    expect(configError(make(new Map([["model", "m"]]))).message).toContain("got a Map.");
    expect(configError(make(new Date(0))).message).toContain("got a Date.");
    expect(configError(make(new Uint8Array(2))).message).toContain("got a Uint8Array.");
  });

  it.each(cores)("%s %s accepts the all-default fingerprint (SPEC.md 3.1 gives it a meaning): {}, no model, an empty one", (_owner, _req, make) => {
    for (const fingerprint of [{}, { dtype: 1, rowBytes: 8, layoutVersion: 1 }, { ...CONSUMER_FP, model: "" }, Object.create(null)])
      expect(make(fingerprint)).not.toThrow();
  });

  it.each(cores)("%s %s accepts a model alone, a null-prototype or frozen object, and an ectp.v1.Fingerprint (created or decoded)", (_owner, _req, make) => {
    expect(make({ model: "m" })).not.toThrow();
    expect(make(Object.freeze({ ...CONSUMER_FP }))).not.toThrow();
    expect(make(Object.assign(Object.create(null) as object, { model: "m", dtype: 1 }))).not.toThrow();
    expect(make(ectp.v1.Fingerprint.create({ model: "m", dtype: 1 }))).not.toThrow();
    expect(make(ectp.v1.Fingerprint.decode(ectp.v1.Fingerprint.encode({ model: "m", rowBytes: 8 }).finish()))).not.toThrow();
  });

  it.each(cores)("%s %s refuses a Proxy whose keys cannot be listed with INVALID_CONFIG, not the Proxy's error", (_owner, _req, make) => {
    const fp = new Proxy(
      { model: "m" },
      {
        ownKeys() {
          throw new Error("no keys");
        },
      },
    );
    expect(configError(make(fp)).message).toBe("[INVALID_CONFIG] options.fingerprint could not be read (no keys); pass a plain object.");
  });

  it("[P7] an EventSubscriber refuses a fingerprint that is an array, would not encode or has a misspelt field; one without a model is the default, as when omitted", () => {
    const make = (fingerprint: unknown) => subscriber({ fingerprint });
    expect(configError(make([])).message).toContain("options.fingerprint must be a plain object of model, dtype, rowBytes, layoutVersion");
    expect(configError(make({ modle: "m" })).message).toContain("options.fingerprint.modle is not a fingerprint field (did you mean model?)");
    expect(configError(make({ dtype: -1 })).message).toContain("options.fingerprint is malformed: ");
    for (const ok of [{}, { dtype: 3 }, { model: "m" }, undefined, null]) expect(make(ok)).not.toThrow();
  });

  it("[P7] on the wire a key fingerprint without a model stays legal (proto3 defaults): the producer answers it INCOMPATIBLE", () => {
    const h = harness();
    ready(h.store, 1);
    const reply = request(h, "c", 1, 1, 0, 1, { key: { contentHash: desc(1).key?.contentHash, fingerprint: {} } });
    expect(reply.readReject?.reason).toBe(ectp.v1.FailureReason.FAILURE_REASON_INCOMPATIBLE);
  });
});

describe("options.transportMetadata", () => {
  it("that is not a Uint8Array is refused naming what was given and that it may be left out", () => {
    expect(configError(consumer({ transportMetadata: [1, 2] })).message).toBe(
      "[INVALID_CONFIG] options.transportMetadata must be a Uint8Array (e.g. transport.localMetadata()) or left out; got an array",
    );
  });

  it("[P8] is taken once, at construction: the Hellos of each core carry the bytes given, though the caller changes its array later", () => {
    /** The transport metadata of the Hellos among `outputs`. */
    const hellos = (outputs: { type: string; envelope?: ectp.v1.IEnvelope }[]) =>
      outputs.flatMap((o) => (o.type === "send" && o.envelope?.hello ? [[...(o.envelope.hello.transportMetadata ?? [])]] : []));
    const given = () => new Uint8Array([1, 2, 3]);

    const forProducer = given();
    const p = new ProducerCore({ ...PRODUCER, fingerprint: PRODUCER_FP, store: new MemoryItemStore({ capacityBytes: 64 }), transportMetadata: forProducer });
    forProducer[0] = 9;
    p.handleEnvelope("c", { version: SPEC_VERSION, senderId: "c", senderEpoch: 1, hello: { role: ectp.v1.Role.ROLE_CONSUMER, fingerprint: PRODUCER_FP } }, 0);
    expect(hellos(p.poll(0))).toEqual([[1, 2, 3]]);

    const forConsumer = given();
    const c = new ConsumerCore({ id: "PD", epoch: 1, fingerprint: CONSUMER_FP, destinations: new TestPool(), transportMetadata: forConsumer, config: QUIET });
    forConsumer[0] = 9;
    c.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    expect(hellos(c.poll(0))).toEqual([[1, 2, 3]]);

    const forSubscriber = given();
    const sub = new EventSubscriber({ id: "R", epoch: 1, transportMetadata: forSubscriber });
    forSubscriber[0] = 9;
    sub.follow("E", 0);
    expect(hellos(sub.poll(0))).toEqual([[1, 2, 3]]);
  });
});

describe("DEFAULT_SUBSCRIBER_CONFIG", () => {
  it("[E2][P8] holds the subscriber defaults of SPEC.md section 12, frozen", () => {
    expect(DEFAULT_SUBSCRIBER_CONFIG).toEqual({
      retryMs: 2_000,
      heartbeatIntervalMs: 2_000,
      catchUpMs: 5_000,
      maxHeldBatches: 1_024,
      maxHeldEvents: 262_144,
      maxHeldBytes: 64 * 1024 * 1024,
      maxViewBytes: 256 * 1024 * 1024,
    });
    expect(Object.isFrozen(DEFAULT_SUBSCRIBER_CONFIG)).toBe(true);
  });

  it.each(Object.entries(DEFAULT_SUBSCRIBER_CONFIG))("[E2][P8] an EventSubscriber without %s uses its value there (%d), and names it when refusing a bad one", (name, value) => {
    const held = new EventSubscriber({ id: "R", epoch: 1 }) as unknown as Record<string, unknown>;
    expect(held[name]).toBe(value);
    expect(configError(subscriber({ [name]: 0 })).message).toContain(`options.${name} must be a positive integer; got 0. Omit it for ${value}`);
  });
});

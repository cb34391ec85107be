/**
 * Every check and fault of the simulator can fire: each test plants one misbehaviour (a core, a
 * store or a pool wrapped through the factories) or enables one fault, and asserts what the run
 * must show. Found by hand mutation testing of the simulator: each test fails on a version with
 * that check or fault weakened, which the other tests let pass (a check that cannot fire would
 * let a broken core pass the main job).
 */
import { ConsumerCore, type ItemStore, ProducerCore } from "@ectp/core";
import { describe, expect, it } from "vitest";
import {
  type CoreFactories,
  type FaultProfile,
  InvariantChecker,
  type SimulationOptions,
  faultPreset,
  formatSummary,
  renderReport,
  runSimulation,
  runSweep,
} from "./index.js";

const BASE: SimulationOptions = { producers: 2, consumers: 2, concurrency: 16, requests: 60, timeSeries: false, maxDrainMs: 70_000 };

async function run(factories: CoreFactories | undefined, extra: SimulationOptions = {}) {
  return (await runSimulation({ ...BASE, ...extra, ...(factories ? { factories } : {}) })).summary;
}
const messages = (s: { violations: { first: readonly { message: string }[] } }) => s.violations.first.map((v) => v.message);

/** A consumer whose finishRequest frees nothing: an [I4] leak in every run. */
const leaky: CoreFactories = {
  consumer: (options) => {
    const core = new ConsumerCore(options);
    core.finishRequest = () => {};
    return core;
  },
};

describe("the verdict reflects violations", () => {
  it("count, byInvariant, first, the table and the HTML report agree that a planted leak is a failure", async () => {
    const s = await run(leaky);
    const sum = Object.values(s.violations.byInvariant).reduce((a, b) => a + b, 0);
    expect(s.violations.byInvariant.I4).toBeGreaterThan(0);
    expect(s.violations.count).toBe(sum);
    expect(s.violations.first.length).toBe(Math.min(sum, 20));
    const table = formatSummary(s);
    expect(table).toMatch(new RegExp(`invariant violations\\s+${s.violations.count}\\b`));
    expect(table).toContain(`INVARIANT VIOLATIONS: ${s.violations.count}`);
    expect(renderReport(s, (await runSimulation({ ...BASE, factories: leaky })).series)).toContain(`${s.violations.count} invariant violation(s).`);
  });

  it("a sweep sums violations and lists every failing seed", async () => {
    const sweep = await runSweep({ ...BASE, requests: 20, factories: leaky, runs: 2, seed: 3 } as never);
    expect(sweep.violations).toBeGreaterThan(0);
    expect(sweep.failingSeeds.map((f) => f.seed)).toEqual([3, 4]);
  });
});

describe("the event-log hash covers everything logged", () => {
  it("time, every part, the high word of a number and violations change the hash", () => {
    const h = (f: (c: InvariantChecker) => void) => {
      const c = new InvariantChecker();
      f(c);
      return c.hash();
    };
    expect(h((c) => c.event(1, "x"))).not.toBe(h((c) => c.event(2, "x")));
    expect(h((c) => c.eventOf(1, "a", 1, 2, 3, 4))).not.toBe(h((c) => c.eventOf(1, "a", 1, 2, 3, 5)));
    expect(h((c) => c.eventOf(1, "a", 0))).not.toBe(h((c) => c.eventOf(1, "a", 2 ** 32)));
    expect(h((c) => c.violate("I1", 1, "m"))).not.toBe(h((c) => c.violate("I1", 1, "n")));
    expect(h((c) => c.event(1, "x"))).not.toBe(h((c) => { c.event(1, "x"); c.violate("I2", 1, "m"); }));
  });

  it("a number part that is not a safe non-negative integer (negative, fractional, past 2^53) is hashed as its text", () => {
    const h = (f: (c: InvariantChecker) => void) => {
      const c = new InvariantChecker();
      f(c);
      return c.hash();
    };
    for (const v of [-1, 0.5, 2 ** 53]) expect(h((c) => c.eventOf(1, "a", v))).toBe(h((c) => c.eventOf(1, "a", String(v))));
    expect(h((c) => c.eventOf(1, "a", -1))).not.toBe(h((c) => c.eventOf(1, "a", -2)));
    expect(h((c) => c.eventOf(1, "a", 0.5))).not.toBe(h((c) => c.eventOf(1, "a", 1.5)));
  });
});

describe("planted bugs the existing tests do not cover", () => {
  it("[I6] an item marked loaded with a truncated destination (its prefix matches the pattern)", async () => {
    const s = await run({
      consumer: (options) => {
        const core = new ConsumerCore(options);
        const admit = core.admit.bind(core);
        core.admit = (req, now) => {
          const r = admit(req, now);
          if (r.status !== "admitted" || req.requestId !== "r5") return r;
          return { ...r, items: r.items.map((d) => (d.action === "ready" && d.destination ? { ...d, destination: { ...d.destination, length: d.destination.length - 4 } } : d)) };
        };
        return core;
      },
    });
    expect(messages(s)).toContainEqual(expect.stringMatching(/^r5: loaded \d+ bytes, producer holds \d+/));
  });

  it("[I2] a consumer that ignores the model input and fails items the engine could encode", async () => {
    const s = await run(
      {
        consumer: (options) => {
          const core = new ConsumerCore(options);
          const admit = core.admit.bind(core);
          core.admit = (req, now) => admit({ ...req, items: req.items.map((i) => ({ ...i, hasModelInput: false })) }, now);
          return core;
        },
      },
      { faults: "heavy", requests: 120 },
    );
    expect(messages(s)).toContainEqual(expect.stringMatching(/although the request carries model input/));
  });

  it("[I2] a consumer whose drainFailed never reports a request admit failed [C6]", async () => {
    const s = await run(
      {
        consumer: (options) => {
          const core = new ConsumerCore(options);
          core.drainFailed = () => [];
          return core;
        },
      },
      { faults: "heavy", metadataOnlyFraction: 1, requests: 120 },
    );
    expect(messages(s)).toContainEqual(expect.stringMatching(/admit said failed but drainFailed never reported it/));
  });

  it("[I2] a consumer whose admit returns fewer decisions than items", async () => {
    const s = await run({
      consumer: (options) => {
        const core = new ConsumerCore(options);
        const admit = core.admit.bind(core);
        let once = false;
        core.admit = (req, now) => {
          const r = admit(req, now);
          if (once || req.requestId !== "r5" || r.status !== "admitted") return r;
          once = true;
          return { ...r, items: [] };
        };
        return core;
      },
    });
    expect(messages(s)).toContainEqual(expect.stringMatching(/^r5: admit returned 0 decisions for \d+ items/));
  });

  it("[I3] a producer that reports more pins than it grants (the store itself is right)", async () => {
    const s = await run({
      producer: (options) => {
        const core = new ProducerCore(options);
        const stats = core.stats.bind(core);
        core.stats = () => {
          const st = stats();
          return { ...st, pins: st.pins + 1 };
        };
        return core;
      },
    });
    expect(messages(s)).toContainEqual(expect.stringMatching(/pins in the store, \d+ pins reported/));
  });

  it("[I3] a restarted producer is checked too: one that misreports its pins only after a crash is caught while the run goes on", async () => {
    const s = await run(
      {
        producer: (options) => {
          const core = new ProducerCore(options);
          if (options.epoch === 1) return core; // the first epoch is right
          const stats = core.stats.bind(core);
          core.stats = () => {
            const st = stats();
            return { ...st, pins: st.pins + 1 };
          };
          return core;
        },
      },
      { faults: { ...faultPreset("none"), crashesPerMinute: 30, restartDelayMs: 200 } },
    );
    expect(s.crashEffects.restarts).toBeGreaterThan(0);
    // The per-round check's message (the check at quiescence, after the drain, words it otherwise).
    expect(messages(s)).toContainEqual(expect.stringMatching(/^p\d+: \d+ pins in the store, \d+ pins reported/));
  });

  it("[I3] a store wrapper that collapses pins but reports the pins it was asked for (the real store is checked)", async () => {
    const lying = (inner: ItemStore): ItemStore => {
      const pinned = new Set<string>();
      let asked = 0;
      return {
        get: (k) => inner.get(k),
        readyItems: () => inner.readyItems(),
        totalPins: () => asked, // the wrapper's own count: it agrees with the grants
        subscribe: (l) => inner.subscribe(l),
        pin: (k) => {
          asked++;
          if (pinned.has(k)) return; // the bug: a second grant of the same item adds no pin
          pinned.add(k);
          inner.pin(k);
        },
        unpin: (k) => {
          asked--;
          if (!pinned.delete(k)) return;
          inner.unpin(k);
        },
      };
    };
    const s = await run({ store: lying }, { itemReuse: 0.9, concurrency: 32 });
    expect(s.violations.byInvariant.I3).toBeGreaterThan(0);
    expect(messages(s)).toContainEqual(expect.stringMatching(/pins in the store/));
  });

  it("[I3] a producer whose pinned bytes never return to zero is reported at quiescence", async () => {
    const s = await run({
      producer: (options) => {
        const core = new ProducerCore(options);
        const stats = core.stats.bind(core);
        core.stats = () => ({ ...stats(), pinnedBytes: 1 });
        return core;
      },
    });
    expect(s.violations.byInvariant.I3).toBeGreaterThan(0);
    expect(messages(s)).toContainEqual(expect.stringMatching(/at quiescence: .* 1 pinned bytes/));
  });

  it.each(["requests", "budgets", "fetches", "readsInFlight", "quarantined", "grantsHeld", "loadedItems", "destinations", "undrainedFailures"] as const)(
    "[I4] a consumer that keeps one %s after all requests finished",
    async (key) => {
      const s = await run(
        {
          consumer: (options) => {
            const core = new ConsumerCore(options);
            const stats = core.stats.bind(core);
            core.stats = () => {
              const st = stats();
              return { ...st, [key]: st[key] + 1 };
            };
            return core;
          },
        },
        { requests: 20, maxDrainMs: 2_000 },
      );
      expect(messages(s)).toContainEqual(expect.stringMatching(new RegExp(`after all requests finished: (.*, )?${key}=1\\b`)));
    },
  );

  it("[I4] a consumer that never gives one destination back to the engine's pool", async () => {
    const s = await run({
      consumer: (options) => {
        let skipped = false;
        const destinations = {
          allocate: options.destinations.allocate.bind(options.destinations),
          view: options.destinations.view.bind(options.destinations),
          release: (d: Parameters<typeof options.destinations.release>[0]) => {
            if (!skipped) {
              skipped = true;
              return; // the bug: the first destination is never released
            }
            options.destinations.release(d);
          },
        };
        return new ConsumerCore({ ...options, destinations });
      },
    });
    expect(messages(s)).toContainEqual(expect.stringMatching(/still holds 1 destinations after all requests finished/));
  });

  it("[I5] a consumer that releases a destination twice", async () => {
    const s = await run({
      consumer: (options) => {
        let doubled = false;
        const destinations = {
          allocate: options.destinations.allocate.bind(options.destinations),
          view: options.destinations.view.bind(options.destinations),
          release: (d: Parameters<typeof options.destinations.release>[0]) => {
            options.destinations.release(d);
            if (!doubled) {
              doubled = true;
              options.destinations.release(d); // the bug: released again
            }
          },
        };
        return new ConsumerCore({ ...options, destinations });
      },
    });
    expect(s.violations.byInvariant.I5).toBeGreaterThan(0);
    expect(messages(s)).toContainEqual(expect.stringMatching(/^c\d released destination region \S+ twice/));
  });

  it("[I5] a consumer that starts a second read into a destination another read may still write into", async () => {
    let planted = 0;
    const s = await run({
      consumer: (options) => {
        const core = new ConsumerCore(options);
        const poll = core.poll.bind(core);
        core.poll = (now) => {
          const outs = poll(now);
          const again = outs.filter((o) => o.type === "start-read" && planted++ < 5).map((o) => ({ ...o, readId: 1_000_000 + planted }));
          return [...outs, ...again];
        };
        return core;
      },
    });
    expect(planted).toBeGreaterThan(0);
    expect(s.violations.byInvariant.I5).toBeGreaterThanOrEqual(5);
    expect(messages(s).some((m) => m.includes("while another read may still write into those bytes"))).toBe(true);
  });

  it("[I1] a core that throws is reported, not swallowed", async () => {
    const s = await run({
      consumer: (options) => {
        const core = new ConsumerCore(options);
        const poll = core.poll.bind(core);
        let calls = 0;
        core.poll = (now) => {
          if (++calls === 5) throw new Error("planted");
          return poll(now);
        };
        return core;
      },
    });
    expect(messages(s)).toContainEqual(expect.stringMatching(/^c\d threw: planted$/));
  });

  /** Factories whose `role` cores throw `planted <method>` on the third call of `method` (counted over all of them). */
  function throwingOnce(role: "consumer" | "producer", method: string): CoreFactories {
    let calls = 0;
    const plant = <T extends object>(core: T): T => {
      const c = core as unknown as Record<string, (...args: unknown[]) => unknown>;
      const real = (c[method] as (...args: unknown[]) => unknown).bind(core);
      c[method] = (...args) => {
        if (++calls === 3) throw new Error(`planted ${method}`);
        return real(...args);
      };
      return core;
    };
    return role === "consumer" ? { consumer: (o) => plant(new ConsumerCore(o)) } : { producer: (o) => plant(new ProducerCore(o)) };
  }

  it.each([
    ["consumer", "nextDeadline"],
    ["consumer", "handleReadResult"],
    ["consumer", "handleMessage"],
    ["consumer", "admit"],
    ["consumer", "drainFailed"],
    ["consumer", "stats"],
    ["producer", "announce"],
    ["producer", "handlePeerUnreachable"],
    ["producer", "stats"],
  ] as const)("[I1] a %s whose %s throws once is reported once as an [I1] violation naming it, and the run goes on to the end", async (role, method) => {
    const s = await run(throwingOnce(role, method), { faults: "heavy" });
    expect(s.violations.byInvariant).toEqual({ I1: 1, I2: 0, I3: 0, I4: 0, I5: 0, I6: 0, P1: 0, P3: 0 });
    expect(messages(s)).toEqual([expect.stringMatching(new RegExp(`^${role[0]}\\d threw: planted ${method}$`))]);
    expect(s.requests.total).toBe(60);
  });

  it("[I1] a consumer whose stats() throws mid-run is counted alike by a sweep (no time series) and by the single run of its seed (time series on)", async () => {
    // Throws only while the consumer holds requests: never at the drain's checks, only at the
    // calls made during the run (the time series' samples).
    const factories: CoreFactories = {
      consumer: (options) => {
        const core = new ConsumerCore(options);
        const stats = core.stats.bind(core);
        core.stats = () => {
          const st = stats();
          if (st.requests > 0) throw new Error("planted stats");
          return st;
        };
        return core;
      },
    };
    const options: SimulationOptions = { ...BASE, requests: 30, seed: 11, sampleIntervalMs: 100, factories };
    let inSweep: Awaited<ReturnType<typeof run>> | undefined;
    const sweep = await runSweep({ ...options, runs: 1, onRun: (s) => (inSweep = s) });
    // What the failing seed's reproduce command runs: one run, time series on (the default).
    const { summary: single, series } = await runSimulation({ ...options, timeSeries: undefined });
    expect(series.t.length).toBeGreaterThan(0);
    expect(single.violations.byInvariant.I1).toBeGreaterThan(0);
    expect(messages(single)[0]).toMatch(/^c\d threw: planted stats$/);
    expect(sweep.violations).toBe(single.violations.count);
    expect(sweep.failingSeeds).toEqual([expect.objectContaining({ seed: 11, violations: single.violations.count, first: `[I1] ${messages(single)[0]}` })]);
    expect(inSweep?.violations).toEqual(single.violations);
    expect(inSweep?.eventLog.hash).toBe(single.eventLog.hash);
  });

  it("[I1] a consumer whose finishRequest throws once is reported, and the request it did not finish shows as an [I4] leak", async () => {
    // No consumer crash: a restart would drop the unfinished request with everything else it held.
    const s = await run(throwingOnce("consumer", "finishRequest"), { faults: { ...faultPreset("heavy"), consumerCrashesPerMinute: 0 } });
    expect(s.violations.byInvariant.I1).toBe(1);
    expect(messages(s)[0]).toMatch(/^c\d threw: planted finishRequest$/);
    expect(messages(s)).toContainEqual(expect.stringMatching(/^c\d after all requests finished: requests=1, /));
    expect(s.requests.total).toBe(60);
  });

  it("[I1] a consumer whose admit returns nothing (a JavaScript core breaking its type) is asked again at the next step", async () => {
    let skipped = 0;
    const s = await run({
      consumer: (options) => {
        const core = new ConsumerCore(options);
        const admit = core.admit.bind(core);
        core.admit = (req, now) => {
          if (req.requestId === "r5" && skipped < 3) {
            skipped++;
            return undefined as never;
          }
          return admit(req, now);
        };
        return core;
      },
    });
    expect(skipped).toBe(3);
    expect(s.violations.count).toBe(0);
    expect(s.requests.total).toBe(60);
  });

  it("[I1] a producer that outputs an envelope setting two bodies is reported once as unencodable, and the envelope is not handed to the transport", async () => {
    let planted = false;
    const s = await run({
      producer: (options) => {
        const core = new ProducerCore(options);
        const poll = core.poll.bind(core);
        core.poll = (now) => {
          const outs = poll(now);
          const send = outs.find((o) => o.type === "send");
          if (planted || send === undefined) return outs;
          planted = true;
          return [...outs, { ...send, envelope: { heartbeat: {}, hello: {} } }];
        };
        return core;
      },
    });
    expect(planted).toBe(true);
    // Only this violation: had the send gone on, the transport would have thrown on the missing bytes (a second one).
    expect(s.violations.byInvariant).toEqual({ I1: 1, I2: 0, I3: 0, I4: 0, I5: 0, I6: 0, P1: 0, P3: 0 });
    expect(messages(s)).toEqual([
      expect.stringMatching(
        /^p\d produced an envelope that cannot be encoded: EctpError: \[INVALID_ARGUMENT\] envelope could not be encoded: it sets more than one body \(hello, heartbeat\); set exactly one$/,
      ),
    ]);
  });
});

describe("livelock", () => {
  it("[I1] a core whose deadline is always due is reported as a livelock and the run still ends", async () => {
    const s = await run(
      {
        consumer: (options) => {
          const core = new ConsumerCore(options);
          core.nextDeadline = () => 0; // the bug: always due, however often it is polled
          return core;
        },
      },
      { requests: 10 },
    );
    expect(messages(s)).toContainEqual(expect.stringMatching(/^the loop made no progress after 100000 rounds \(livelock/));
  }, 30_000);
});

const NONE = faultPreset("none");
const only = (f: Partial<FaultProfile>): FaultProfile => ({ ...NONE, ...f });
const sumCounters = (c: Record<string, number>, re: RegExp) => Object.entries(c).reduce((a, [k, v]) => (re.test(k) ? a + v : a), 0);
const ONE_FAULT: SimulationOptions = { producers: 2, consumers: 2, concurrency: 16, requests: 200, seed: 5, timeSeries: false };

describe("each fault is injected at its rate and has its effect", () => {
  it("invalid announcements: counted at their own rate and rejected by the consumer [C2]", async () => {
    const { summary: s } = await runSimulation({ ...ONE_FAULT, faults: only({ invalidAnnouncement: 0.3 }) });
    expect(s.faultsInjected.invalidAnnouncement).toBeGreaterThan(0);
    expect(sumCounters(s.counters, /reason=INVALID_ANNOUNCEMENT/)).toBeGreaterThan(0);
    expect(s.violations.count).toBe(0);
  });

  it("early announcements: about their rate of requests, and the producer answers NOT_READY [P1]", async () => {
    const none = (await runSimulation({ ...ONE_FAULT, faults: NONE })).summary;
    const { summary: s } = await runSimulation({ ...ONE_FAULT, faults: only({ earlyAnnouncement: 0.5 }) });
    expect(s.faultsInjected.earlyAnnouncement).toBeGreaterThan(0.3 * 200);
    expect(s.faultsInjected.earlyAnnouncement).toBeLessThan(0.7 * 200);
    expect(sumCounters(none.counters, /rejects_total\{reason=NOT_READY\}/)).toBe(0);
    expect(sumCounters(s.counters, /rejects_total\{reason=NOT_READY\}/)).toBeGreaterThan(0);
    expect(s.violations.count).toBe(0);
  });

  it("early announcements are counted only for requests announced before their bytes were ready", async () => {
    // Every item reused: only the first request's item is encoded, so only the requests that arrive
    // while it is (the first 16, concurrency) are announced early; every later one finds it ready.
    const { summary: s } = await runSimulation({
      ...ONE_FAULT,
      requests: 100,
      itemReuse: 1,
      minItemsPerRequest: 1,
      maxItemsPerRequest: 1,
      faults: only({ earlyAnnouncement: 1 }),
    });
    expect(s.faultsInjected.earlyAnnouncement).toBeGreaterThan(0);
    expect(s.faultsInjected.earlyAnnouncement).toBeLessThanOrEqual(16);
  });

  it("crashes cut the producer off the network and clear its store [P8]", async () => {
    const { summary: s } = await runSimulation({ producers: 3, consumers: 3, concurrency: 32, requests: 250, faults: "chaos", seed: 11, budgetMs: 20_000, timeSeries: false });
    expect(s.crashEffects.messagesLost + s.crashEffects.readsFailed).toBeGreaterThan(0);
    expect(sumCounters(s.counters, /releases_total\{cause=cleared\}/)).toBeGreaterThan(0);
  });

  it("memory pressure shrinks the producers' stores (more evictions than without it) [P6]", async () => {
    const none = (await runSimulation({ ...ONE_FAULT, faults: NONE })).summary;
    const { summary: s } = await runSimulation({ ...ONE_FAULT, faults: only({ memoryPressure: 0.05 }) });
    expect(s.storeEvents.evictions + s.storeEvents.storeFull).toBeGreaterThan(none.storeEvents.evictions + none.storeEvents.storeFull);
  });

  it("failed reads occur at about their rate", async () => {
    const { summary: s } = await runSimulation({ ...ONE_FAULT, faults: only({ readFail: 0.3 }) });
    const loaded = sumCounters(s.counters, /^ectp_consumer_items_loaded_total$/);
    const failed = s.faultsInjected.failRead ?? 0;
    expect(failed / (failed + loaded)).toBeGreaterThan(0.15);
  });

  it("delayed messages are delayed by up to messageDelayMaxMs (the wait grows)", async () => {
    const none = (await runSimulation({ ...ONE_FAULT, faults: NONE })).summary;
    const { summary: s } = await runSimulation({ ...ONE_FAULT, faults: only({ messageDelay: 1, messageDelayMaxMs: 1_000 }) });
    expect(s.faultsInjected.delay).toBeGreaterThan(0);
    expect(s.admissionWaitMs.mean).toBeGreaterThan(none.admissionWaitMs.mean + 200); // about 3,100 ms against 20 ms
  });

  it.each([
    ["the default cap", {}],
    ["a cap shorter than the transfer timeout", { consumerConfig: { quarantineCapMs: 5_000 } }],
    ["a shorter timeout and cap", { consumerConfig: { transferTimeoutMs: 10_000, quarantineCapMs: 2_000 } }],
  ])("stalled reads outlast the transfer timeout and settle within the cap: each one is quarantined [C8] (%s)", async (_what, extra) => {
    const { summary: s } = await runSimulation({ ...ONE_FAULT, ...extra, faults: only({ readStall: 0.3 }) });
    expect(s.faultsInjected.stallRead).toBeGreaterThan(0);
    expect(s.quarantines).toBe(s.faultsInjected.stallRead);
    expect(s.violations.count).toBe(0);
  });

  it("cancel storms cancel their fraction of the waiting requests [C7]", async () => {
    // Early announcements keep every request waiting at its consumer for about one encode (2 s);
    // a storm a second on one of two consumers then reaches most requests once.
    const { summary: s } = await runSimulation({
      ...ONE_FAULT,
      encodeTimeMs: 2_000,
      faults: only({ earlyAnnouncement: 1, cancelStormsPerMinute: 60, cancelFraction: 1 }),
    });
    expect(s.faultsInjected.cancelStorm).toBeGreaterThan(0);
    expect(s.requests.cancelled).toBeGreaterThan(0.5 * 200); // 154 with fraction 1; 32 with fraction 0.1
    expect(s.violations.count).toBe(0);
  });
});

/**
 * The simulator's parts checked one by one rather than through a pinned event-log hash: option
 * and fault-profile validation, the presets, the network's fault plan, the rate, target and effect
 * of each simulator-injected fault, the metadata-only rewrite, memory pressure, summary and sweep
 * arithmetic, reproduce commands, the workload generator and the run's bounds. Each test fails on
 * a small change of faults.ts, network.ts, simulation.ts, config-check.ts, summary.ts, sweep.ts,
 * workload.ts or duration.ts that the other tests let pass (or that only the README's pinned hash caught; found
 * by mutation testing). Small workloads only.
 */
import { describe, expect, it } from "vitest";
import { ProducerCore } from "@ectp/core";
import {
  type CoreFactories,
  DEFAULT_SIMULATION_CONFIG,
  type FaultProfile,
  SIMULATION_LIMITS,
  type SimulationOptions,
  faultPreset,
  parseDuration,
  reproduceCommand,
  runSimulation,
  runSweep,
  Simulation,
  validateConfig,
} from "./index.js";
import { faultPlan } from "./network.js";
import { WorkloadGenerator } from "./workload.js";
import { SeededRandom } from "@ectp/core";

const NONE = faultPreset("none");
const only = (f: Partial<FaultProfile>): FaultProfile => ({ ...NONE, ...f });
const SMALL: SimulationOptions = { producers: 2, consumers: 2, concurrency: 16, requests: 200, seed: 5, timeSeries: false };
const TINY: SimulationOptions = { producers: 1, consumers: 1, concurrency: 4, requests: 8, timeSeries: false };

/** Event-log lines of a run, split into [time, text]. */
async function logged(options: SimulationOptions) {
  const lines: [number, string][] = [];
  const { summary } = await runSimulation({
    ...options,
    eventLog: (l) => {
      const i = l.indexOf(" ");
      lines.push([Number(l.slice(0, i)), l.slice(i + 1)]);
    },
  });
  return { summary, lines };
}

describe("fault profile validation: every field is range-checked", () => {
  const fractions = [
    "messageDrop",
    "messageDuplicate",
    "messageReorder",
    "messageDelay",
    "readFail",
    "readStall",
    "readCorrupt",
    "cancelFraction",
    "invalidAnnouncement",
    "earlyAnnouncement",
  ] as const;
  it.each(fractions)("faults.%s must be in [0, 1]", (k) => {
    for (const bad of [1.01, -0.01, Number.NaN])
      expect(validateConfig({ ...TINY, faults: only({ [k]: bad }) }).join("; "), `${k}=${bad}`).toContain(`faults.${k} must be a number in [0, 1]`);
    for (const ok of [0, 1]) expect(validateConfig({ ...TINY, faults: only({ [k]: ok }) }), `${k}=${ok}`).toEqual([]);
  });

  it.each(["messageDelayMaxMs", "crashesPerMinute", "producerShutdownsPerMinute", "consumerCrashesPerMinute", "restartDelayMs", "cancelStormsPerMinute"] as const)("faults.%s must be finite and >= 0", (k) => {
    for (const bad of [-1, Number.POSITIVE_INFINITY, Number.NaN])
      expect(validateConfig({ ...TINY, faults: only({ [k]: bad }) }).join("; "), `${k}=${bad}`).toContain(`faults.${k} must be a finite number >= 0`);
  });

  it("per-minute rates are capped at exactly maxFaultsPerMinute, durations at maxDurationMs", () => {
    const L = SIMULATION_LIMITS;
    for (const k of ["crashesPerMinute", "producerShutdownsPerMinute", "consumerCrashesPerMinute", "cancelStormsPerMinute"] as const) {
      expect(validateConfig({ ...TINY, faults: only({ [k]: L.maxFaultsPerMinute }) }), k).toEqual([]);
      expect(validateConfig({ ...TINY, faults: only({ [k]: L.maxFaultsPerMinute + 1 }) }).join("; "), k).toContain(`faults.${k} must be at most 60000`);
    }
    for (const k of ["messageDelayMaxMs", "restartDelayMs"] as const) {
      expect(validateConfig({ ...TINY, faults: only({ [k]: L.maxDurationMs }) }), k).toEqual([]);
      expect(validateConfig({ ...TINY, faults: only({ [k]: L.maxDurationMs + 1 }) }).join("; "), k).toContain(`faults.${k} must be at most 3600000 ms`);
    }
  });

  it("memoryPressure must be > 0 (0 would leave every store at its 1-byte floor)", () => {
    expect(validateConfig({ ...TINY, faults: only({ memoryPressure: 0 }) }).join("; ")).toContain("faults.memoryPressure must be a finite number > 0; got 0");
    expect(validateConfig({ ...TINY, faults: only({ memoryPressure: -1 }) }).join("; ")).toContain("faults.memoryPressure must be a finite number > 0");
  });
});

describe("option validation: each option is refused out of range", () => {
  const cases: [Partial<SimulationOptions>, RegExp][] = [
    [{ consumers: 0 }, /consumers must be an integer from 1 to 1000; got 0/],
    [{ producers: 0 }, /producers must be an integer from 1 to 1000; got 0/],
    [{ concurrency: 0 }, /concurrency must be an integer from 1/],
    [{ requests: 0 }, /requests must be an integer from 1/],
    [{ encodeTimeMs: 0 }, /encodeTimeMs must be a number of ms from 0.001 to 3600000; got 0/],
    [{ encodeTimeMs: 3_600_001 }, /encodeTimeMs must be a number of ms/],
    [{ serviceTimeMs: -1 }, /serviceTimeMs must be a number of ms/],
    [{ budgetMs: 0 }, /budgetMs must be a number of ms/],
    [{ budgetMs: 1000.5 }, /budgetMs must be a whole number of ms; got 1000.5/],
    [{ itemReuse: 1.5 }, /itemReuse must be a number in \[0, 1\]; got 1.5/],
    [{ itemReuse: -0.1 }, /itemReuse must be a number in \[0, 1\]/],
    [{ metadataOnlyFraction: 2 }, /metadataOnlyFraction must be a number in \[0, 1\]; got 2/],
    [{ linkBytesPerSecond: 0 }, /linkBytesPerSecond must be a number of bytes per second from 1 to 10000000000000000; got 0/],
    [{ linkBytesPerSecond: Number.POSITIVE_INFINITY }, /linkBytesPerSecond must be a number of bytes per second from 1 to 10000000000000000; got Infinity/],
    [{ sampleIntervalMs: 0 }, /sampleIntervalMs must be a number of ms from 0.001 to 3600000; got 0/],
    [{ maxDrainMs: 0 }, /maxDrainMs must be a number of ms from 0.001 to 3600000; got 0/],
    [{ producerCapacityBytes: 0 }, /producerCapacityBytes must be a positive number/],
    [{ consumerCapacityBytes: -5 }, /consumerCapacityBytes must be a positive number/],
    [{ minItemsPerRequest: 3, maxItemsPerRequest: 2 }, /minItemsPerRequest must be <= maxItemsPerRequest/],
    [{ minItemBytes: 3_000_000, maxItemBytes: 2_000_000 }, /minItemBytes must be <= maxItemBytes/],
    [{ faults: only({ messageDrop: 0.1 }), producerConfig: { leaseMs: 100_000 }, maxDrainMs: 90_000 }, /its lease, 100000 ms.*raise maxDrainMs to at least 100000/],
  ];
  it.each(cases)("%o", (bad, message) => {
    expect(validateConfig({ ...TINY, ...bad }).join("; ")).toMatch(message);
  });

  // Mutant: the constructor checks nothing (new Simulation({ producers: 0 }).run() rejected with
  // "TypeError: Cannot read properties of undefined (reading 'up')").
  it("new Simulation(options) refuses what validateConfig reports, with the same typed error as runSimulation", () => {
    expect(() => new Simulation({ ...TINY, producers: 0 })).toThrow(/\[INVALID_ARGUMENT\].*producers must be an integer from 1 to 1000; got 0/);
  });

  // Mutant: run() runs again on the same state, and reports "5 requests to run, 10 arrived" as [I2].
  it("a Simulation runs once: a second run() is refused, not run on the first one's state", async () => {
    const sim = new Simulation(TINY);
    expect((await sim.run()).summary.violations.count).toBe(0);
    await expect(sim.run()).rejects.toThrow(/^\[INVALID_ARGUMENT\] Simulation\.run\(\) was called a second time: a Simulation runs once; make a new Simulation/);
  });
});

describe("fault presets", () => {
  it("are the documented rates (mildest first)", () => {
    expect(faultPreset("light")).toEqual({
      messageDrop: 0.002, messageDuplicate: 0.002, messageReorder: 0.005, messageDelay: 0.01, messageDelayMaxMs: 200,
      readFail: 0.002, readStall: 0.0005, readCorrupt: 0.001, crashesPerMinute: 0.2, producerShutdownsPerMinute: 0, consumerCrashesPerMinute: 0, restartDelayMs: 2_000,
      cancelStormsPerMinute: 0.5, cancelFraction: 0.1, invalidAnnouncement: 0.001, earlyAnnouncement: 0.02, memoryPressure: 1,
    });
    expect(faultPreset("heavy")).toEqual({
      messageDrop: 0.02, messageDuplicate: 0.02, messageReorder: 0.03, messageDelay: 0.05, messageDelayMaxMs: 1_000,
      readFail: 0.02, readStall: 0.005, readCorrupt: 0.01, crashesPerMinute: 1, producerShutdownsPerMinute: 0.5, consumerCrashesPerMinute: 0.5, restartDelayMs: 3_000,
      cancelStormsPerMinute: 2, cancelFraction: 0.3, invalidAnnouncement: 0.01, earlyAnnouncement: 0.1, memoryPressure: 0.25,
    });
    expect(faultPreset("chaos")).toEqual({
      messageDrop: 0.08, messageDuplicate: 0.05, messageReorder: 0.08, messageDelay: 0.1, messageDelayMaxMs: 3_000,
      readFail: 0.08, readStall: 0.02, readCorrupt: 0.04, crashesPerMinute: 4, producerShutdownsPerMinute: 2, consumerCrashesPerMinute: 2, restartDelayMs: 1_000,
      cancelStormsPerMinute: 6, cancelFraction: 0.5, invalidAnnouncement: 0.05, earlyAnnouncement: 0.25, memoryPressure: 0.05,
    });
    expect(Object.values(faultPreset("none")).every((v, i) => v === (Object.keys(NONE)[i] === "memoryPressure" ? 1 : 0))).toBe(true);
  });
});

describe("the network's fault plan is the profile's rates, field by field", () => {
  it("maps each message and read fault to its own rate", () => {
    const f = only({
      messageDrop: 0.11, messageDuplicate: 0.12, messageReorder: 0.13, messageDelay: 0.14, messageDelayMaxMs: 777,
      readFail: 0.15, readStall: 0.16, readCorrupt: 0.17,
    });
    expect(faultPlan(f, 4321)).toEqual({
      default: {
        drop: 0.11,
        duplicate: 0.12,
        reorder: { probability: 0.13, maxHoldMs: 50 },
        delay: { probability: 0.14, minMs: 0, maxMs: 777 },
        failRead: 0.15,
        stallRead: { probability: 0.16, durationMs: 4321, settle: "done" },
        corruptRead: 0.17,
      },
    });
  });
});

/** Poisson count check: observed within 35% of rate x simulated minutes (tens of events expected). */
function aboutRate(observed: number, perMinute: number, simulatedMs: number): void {
  const expected = (perMinute * simulatedMs) / 60_000;
  expect(expected).toBeGreaterThan(20);
  expect(observed / expected, `${observed} observed, ${expected.toFixed(1)} expected`).toBeGreaterThan(0.65);
  expect(observed / expected, `${observed} observed, ${expected.toFixed(1)} expected`).toBeLessThan(1.35);
}

/**
 * The crash lines of the event log whose endpoint id starts with `prefix` (p: producers, c: consumers),
 * checked to hit `nodes` endpoints, each followed by "restart id@epoch+1" exactly `delayMs` later when it restarted.
 */
function crashesOf(lines: [number, string][], prefix: "p" | "c", nodes: number, delayMs: number): [number, string][] {
  const crashes = lines.filter(([, l]) => l.startsWith(`crash ${prefix}`));
  expect(new Set(crashes.map(([, l]) => l.split(" ")[1]?.split("@")[0])).size).toBe(nodes);
  for (const [t, l] of crashes) {
    const [id, epoch] = (l.split(" ")[1] as string).split("@") as [string, string];
    const restart = lines.find(([, r]) => r === `restart ${id}@${Number(epoch) + 1}`);
    if (restart) expect(restart[0] - t).toBeCloseTo(delayMs, 6);
  }
  return crashes;
}

describe("simulator-injected faults: rate, target and effect", () => {
  it("crashes: about crashesPerMinute over the run, on every producer, each restarting after restartDelayMs", async () => {
    const { summary: s, lines } = await logged({ ...SMALL, producers: 3, faults: only({ crashesPerMinute: 90, restartDelayMs: 250 }) });
    aboutRate(s.faultsInjected.producerCrash as number, 90, s.simulatedMs);
    const crashes = crashesOf(lines, "p", 3, 250);
    expect(crashes.length).toBe(s.faultsInjected.producerCrash);
    expect(s.crashEffects.restarts).toBe(lines.filter(([, l]) => l.startsWith("restart ")).length);
    // No crash once every request has ended (the drain is not disturbed).
    for (const [t] of crashes) expect(t).toBeLessThanOrEqual(s.simulatedMs);
    expect(s.violations.count).toBe(0);
  });

  it("planned restarts [P7]: about producerShutdownsPerMinute; a producer shut down rejects later ReadRequests SHUTTING_DOWN, releases its grants, stops at the latest of their leases and two steps on, and restarts after restartDelayMs with the next epoch", async () => {
    // What each producer's shutdown returned (the latest lease deadline of the grants it released), by "id@epoch".
    const reuseAfter = new Map<string, number | undefined>();
    const factories: CoreFactories = {
      producer: (options) => {
        const producer = new ProducerCore(options);
        const shutdown = producer.shutdown.bind(producer);
        producer.shutdown = (now) => {
          const until = shutdown(now);
          reuseAfter.set(`${options.id}@${options.epoch}`, until);
          return until;
        };
        return producer;
      },
    };
    const planned = only({ producerShutdownsPerMinute: 60, restartDelayMs: 250 });
    const { summary: s, lines } = await logged({ ...SMALL, producers: 3, requests: 1_000, faults: planned, factories });
    aboutRate(s.faultsInjected.producerShutdown as number, 60, s.simulatedMs);
    const shutdowns = lines.filter(([, l]) => l.startsWith("shutdown p"));
    expect(shutdowns.length).toBe(s.faultsInjected.producerShutdown);
    expect(new Set(shutdowns.map(([, l]) => l.split(" ")[1]?.split("@")[0])).size).toBe(3);
    expect(lines.filter(([, l]) => l.startsWith("crash "))).toEqual([]);
    let stopped = 0;
    let restarted = 0;
    let heldForLeases = 0;
    for (const [t, l] of shutdowns) {
      const node = l.split(" ")[1] as string;
      const [id, epoch] = node.split("@") as [string, string];
      const stop = lines.find(([, x]) => x === `stop ${node}`);
      if (stop === undefined) continue; // shut down near the end: the run ended first
      stopped++;
      const until = reuseAfter.get(node);
      // Memory kept to the latest released lease [P7], and two engine steps (10 ms) at least.
      expect(stop[0], node).toBe(Math.max(t + 2 * 10, until ?? t));
      if (until !== undefined && until > t + 2 * 10) heldForLeases++;
      const restart = lines.find(([, x]) => x === `restart ${id}@${Number(epoch) + 1}`);
      if (restart === undefined) continue;
      restarted++;
      expect(restart[0] - stop[0]).toBeCloseTo(250, 6);
    }
    expect({ stopped: stopped > 10, restarted: restarted > 10 }).toEqual({ stopped: true, restarted: true });
    // Reads last long enough here for a shutdown to find grants live, their (shorter) leases ending
    // well before the run does: those producers stop exactly at the latest lease deadline.
    reuseAfter.clear();
    const slow = await logged({ ...SMALL, producers: 3, requests: 1_000, faults: planned, factories, linkBytesPerSecond: 1e9, producerConfig: { leaseMs: 2_000 } });
    for (const [t, l] of slow.lines.filter(([, x]) => x.startsWith("shutdown p"))) {
      const node = l.split(" ")[1] as string;
      const until = reuseAfter.get(node);
      const stop = slow.lines.find(([, x]) => x === `stop ${node}`);
      if (stop === undefined || until === undefined || until <= t + 2 * 10) continue;
      heldForLeases++;
      expect(stop[0], node).toBe(until);
    }
    expect(heldForLeases).toBeGreaterThan(3);
    expect(slow.summary.violations.count).toBe(0);
    // Grants released by the shutdown, ReadRequests rejected after it, and the consumers' fallbacks.
    for (const k of [
      "ectp_producer_releases_total{cause=shutdown}",
      "ectp_producer_rejects_total{reason=SHUTTING_DOWN}",
      "ectp_consumer_local_encodes_total{reason=SHUTTING_DOWN}",
    ])
      expect(s.counters[k] ?? 0, k).toBeGreaterThan(0);
    expect(s.violations.count).toBe(0);
  });

  it("consumer crashes: about consumerCrashesPerMinute, each restarting after restartDelayMs with the next epoch; what it held is lost once; producers release its grants [P8][I2][I3]", async () => {
    const { summary: s, lines } = await logged({ ...SMALL, requests: 1_000, faults: only({ consumerCrashesPerMinute: 90, restartDelayMs: 250 }) });
    aboutRate(s.faultsInjected.consumerCrash as number, 90, s.simulatedMs);
    expect(crashesOf(lines, "c", 2, 250).length).toBe(s.faultsInjected.consumerCrash);
    expect(s.crashEffects.consumerRestarts).toBe(lines.filter(([, l]) => /^restart c\d+@/.test(l)).length);
    expect(s.crashEffects.restarts).toBe(0); // no producer crashed
    // Requests waiting at a crashed consumer are lost: one outcome each [I2].
    const lost = lines.filter(([, l]) => l.startsWith("lost ")).map(([, l]) => l.split(" ")[1]);
    expect(lost.length).toBe(s.requests.lostInCrash);
    expect(new Set(lost).size).toBe(lost.length);
    expect(s.requests.lostInCrash).toBeGreaterThan(0);
    expect(s.requests.total).toBe(1_000);
    // A request forwarded while its consumer is down goes to the other one when that one is up: it is
    // held for a restart only while both are down, and lost only at its consumer's crash.
    const down = new Set<string>();
    let held = 0;
    for (const [t, l] of lines) {
      const [what, id] = l.split(" ");
      const consumer = id?.split("@")[0] ?? "";
      if (what === "crash" && consumer.startsWith("c")) down.add(consumer);
      if (what === "restart" && consumer.startsWith("c")) down.delete(consumer);
      if (what === "held") {
        held++;
        expect(down.size, `${t} ${l}: held while a consumer is up`).toBe(2);
      }
      if (what === "lost") expect(lines.some(([t2, l2]) => t2 === t && l2 === `crash ${l.split(" ")[2]}`), `${t} ${l}`).toBe(true);
    }
    expect(held).toBeGreaterThan(0);
    // Grants the crashed instances held were released by the producers (new epoch, silence or lease):
    // no pin is left, and no invariant broke [I3].
    expect(s.pinsAtEnd).toBe(0);
    expect(s.violations.count).toBe(0);
  });

  it("no crash once every request has ended (a long drain is left alone)", async () => {
    // Stalled reads keep the drain going for about 40 s after the last request.
    const { summary: s, lines } = await logged({
      ...SMALL,
      requests: 60,
      faults: only({ crashesPerMinute: 120, restartDelayMs: 100, readStall: 0.3 }),
    });
    const last = lines[lines.length - 1] as [number, string];
    expect(last[0] - s.simulatedMs).toBeGreaterThan(10_000); // the drain was long
    const late = lines.filter(([t, l]) => t > s.simulatedMs && (l.startsWith("crash ") || l.startsWith("cancel-storm ")));
    expect(late).toEqual([]);
  });

  it("a cancel storm first collects failures: a request the consumer already failed is counted failed, never cancelled [C6][C7]", async () => {
    let finishedWithUndrainedFailure = 0;
    const { summary: s } = await runSimulation({
      ...SMALL,
      requests: 120,
      metadataOnlyFraction: 1,
      budgetMs: 3_000,
      faults: only({ cancelStormsPerMinute: 3_000, cancelFraction: 1, readCorrupt: 0.5, readFail: 0.3 }),
      factories: {
        consumer: (options) => {
          const c = new core.ConsumerCore(options);
          const finish = c.finishRequest.bind(c);
          c.finishRequest = (id, now) => {
            const before = c.stats().undrainedFailures;
            const r = finish(id, now);
            if (c.stats().undrainedFailures < before) finishedWithUndrainedFailure++;
            return r;
          };
          return c;
        },
      },
    });
    expect(s.requests.cancelled).toBeGreaterThan(0);
    expect(s.requests.failed).toBeGreaterThan(0);
    expect(finishedWithUndrainedFailure).toBe(0);
    expect(s.violations.first).toEqual([]);
  });

  it("cancel storms: about cancelStormsPerMinute, on every consumer", async () => {
    const { summary: s, lines } = await logged({ ...SMALL, encodeTimeMs: 2_000, faults: only({ earlyAnnouncement: 1, cancelStormsPerMinute: 120, cancelFraction: 0.5 }) });
    aboutRate(s.faultsInjected.cancelStorm as number, 120, s.simulatedMs);
    const storms = lines.filter(([, l]) => l.startsWith("cancel-storm "));
    expect(storms.length).toBe(s.faultsInjected.cancelStorm);
    expect(new Set(storms.map(([, l]) => l.split(" ")[1])).size).toBe(2);
    expect(s.requests.cancelled).toBe(storms.reduce((a, [, l]) => a + Number(l.split(" ")[2]), 0));
  });

  it("a cancel storm of fraction 1 cancels every waiting request (all requests arrive at once: no arrival during a storm)", async () => {
    const { summary: s, lines } = await logged({
      ...SMALL,
      concurrency: 40,
      requests: 40,
      encodeTimeMs: 2_000,
      faults: only({ earlyAnnouncement: 1, cancelStormsPerMinute: 120, cancelFraction: 1 }),
    });
    // Waiting requests per consumer, from the log: forwarded, not yet admitted, failed or cancelled.
    const waiting = new Map<string, Set<string>>();
    let cancelled = 0;
    let storms = 0;
    for (const [, l] of lines) {
      const w = l.split(" ");
      if (w[0] === "forward") {
        const set = waiting.get(w[2] as string) ?? new Set();
        set.add(w[1] as string);
        waiting.set(w[2] as string, set);
      } else if (w[0] === "admitted" || w[0] === "failed") for (const set of waiting.values()) set.delete(w[1] as string);
      else if (w[0] === "cancel-storm") {
        const set = waiting.get(w[1] as string) ?? new Set();
        expect(Number(w[2]), l).toBe(set.size); // fraction 1: all of them
        if (set.size > 0) storms++;
        cancelled += set.size;
        set.clear();
      }
    }
    expect(storms).toBeGreaterThan(1);
    expect(s.requests.cancelled).toBe(cancelled);
  });

  it("early announcements: about their rate per request", async () => {
    const { summary: s } = await runSimulation({ ...SMALL, faults: only({ earlyAnnouncement: 0.3 }) });
    expect(s.faultsInjected.earlyAnnouncement).toBeGreaterThan(0.2 * 200);
    expect(s.faultsInjected.earlyAnnouncement).toBeLessThan(0.4 * 200);
  });

  it("invalid announcements: about their rate per announcement, each one rejected by the consumer [C2]", async () => {
    const { summary: s } = await runSimulation({ ...SMALL, faults: only({ invalidAnnouncement: 0.3 }) });
    const rejected = Object.entries(s.counters).reduce((a, [k, v]) => (/reason=INVALID_ANNOUNCEMENT/.test(k) ? a + v : a), 0);
    expect(s.faultsInjected.invalidAnnouncement).toBe(rejected);
    const announced = s.faultsInjected.invalidAnnouncement as number;
    // About 0.3 of every announcement (each item of each request gets one without other faults).
    const items = s.items.remote + s.items.localEncoded;
    expect(announced / items).toBeGreaterThan(0.2);
    expect(announced / items).toBeLessThan(0.4);
  });

  it("every malformed size kind is used (null, 0, negative, string, huge, fractional)", async () => {
    const seen = new Set<string>();
    const { summary: s } = await runSimulation({
      ...SMALL,
      faults: only({ invalidAnnouncement: 0.5 }),
      factories: {
        consumer: (options) => {
          // Record what the consumer is handed, then behave as the real core.
          const { ConsumerCore } = core;
          const c = new ConsumerCore(options);
          const admit = c.admit.bind(c);
          c.admit = (req, now) => {
            for (const i of req.items) if (i.announcement) seen.add(JSON.stringify(i.announcement.item?.sizeBytes ?? null));
            return admit(req, now);
          };
          return c;
        },
      },
    });
    expect(s.violations.count).toBe(0);
    for (const v of ["null", "0", "-1", '"12"', String(2 ** 60), "1.5"]) expect([...seen], v).toContain(v);
  });
});

// Imported lazily in a factory above (ConsumerCore is a class of @ectp/core).
import * as core from "@ectp/core";

describe("metadata-only rewrite [C1]", () => {
  it("about metadataOnlyFraction of the fully announced requests, and never one with an item not announced", async () => {
    let announcedAll = 0;
    let rewritten = 0;
    let wrong = 0;
    await runSimulation({
      ...SMALL,
      metadataOnlyFraction: 0.5,
      faults: only({ crashesPerMinute: 20, restartDelayMs: 2_000 }), // some requests lose announcements
      factories: {
        consumer: (options) => {
          const c = new core.ConsumerCore(options);
          const admit = c.admit.bind(c);
          const seen = new Set<string>();
          c.admit = (req, now) => {
            if (!seen.has(req.requestId)) {
              seen.add(req.requestId);
              const all = req.items.every((i) => i.announcement);
              const mo = req.items.every((i) => !i.hasModelInput);
              if (all) announcedAll++;
              if (mo) rewritten++;
              if (mo && !all) wrong++;
            }
            return admit(req, now);
          };
          return c;
        },
      },
    });
    expect(wrong).toBe(0);
    expect(rewritten / announcedAll).toBeGreaterThan(0.4);
    expect(rewritten / announcedAll).toBeLessThan(0.6);
  });
});

describe("memory pressure sizes the producers' stores", () => {
  it("a store of capacity x pressure evicts (pressure 0.5 of a store that holds the workload otherwise)", async () => {
    // 200 requests, at most 4 items of at most 20 MB, 2 producers: under 8 GB all told; 2 GB stores hold
    // what one producer sees without eviction... unless memoryPressure shrinks them.
    const shape = { ...SMALL, producerCapacityBytes: 300_000_000 };
    const full = (await runSimulation({ ...shape, faults: NONE })).summary;
    const pressed = (await runSimulation({ ...shape, faults: only({ memoryPressure: 0.5 }) })).summary;
    expect(pressed.storeEvents.evictions).toBeGreaterThan(full.storeEvents.evictions);
  });
});

describe("summary counts", () => {
  it("outcomes, items and throughput agree with the event log", async () => {
    const { summary: s, lines } = await logged({ ...SMALL, faults: "heavy", budgetMs: 10_000 });
    const admitted = lines.filter(([, l]) => l.startsWith("admitted "));
    const count = (kind: string) => admitted.filter(([, l]) => l.split(" ")[2] === kind).length;
    expect(s.requests.succeededRemote).toBe(count("succeededRemote"));
    expect(s.requests.fellBackLocal).toBe(count("fellBackLocal"));
    // "admitted rX kind local": local encodes summed.
    expect(s.items.localEncoded).toBe(admitted.reduce((a, [, l]) => a + Number(l.split(" ")[3]), 0));
    // A request is fellBackLocal exactly when it encoded at least one item locally.
    for (const [, l] of admitted) expect(l.split(" ")[2] === "fellBackLocal", l).toBe(Number(l.split(" ")[3]) > 0);
    const failed = lines.filter(([, l]) => l.startsWith("failed "));
    expect(s.requests.failed).toBe(failed.length);
    const reasons: Record<string, number> = {};
    for (const [, l] of failed) reasons[l.split(" ")[2] as string] = (reasons[l.split(" ")[2] as string] ?? 0) + 1;
    expect(s.requests.failedByReason).toEqual(reasons);
    expect(Object.keys(reasons).length).toBeGreaterThan(0);
    expect(s.requests.total).toBe(200);
    const lastEnd = Math.max(...lines.filter(([, l]) => l.startsWith("done ") || l.startsWith("failed ")).map(([t]) => t));
    expect(s.simulatedMs).toBeCloseTo(lastEnd, 3);
    expect(s.throughputRps).toBeCloseTo((200 * 1000) / s.simulatedMs, 6);
    // A fallback takes an encode per local item on top of the service time.
    // items.remote: every item of an admitted request that was not encoded locally was loaded (the engines hold none).
    const arrivedItems = new Map(lines.filter(([, l]) => l.startsWith("arrive ")).map(([, l]) => [l.split(" ")[1], Number(l.split(" ")[2])]));
    expect(s.items.remote).toBe(admitted.reduce((a, [, l]) => a + (arrivedItems.get(l.split(" ")[1]) as number) - Number(l.split(" ")[3]), 0));
    // Admission waits: from the forward to the admission or failure, exactly (times are whole ms here).
    const forwardAt = new Map(lines.filter(([, l]) => l.startsWith("forward ")).map(([t, l]) => [l.split(" ")[1], t]));
    const waits = [...admitted, ...failed].map(([t, l]) => Math.round(t - (forwardAt.get(l.split(" ")[1]) as number))).sort((a, b) => a - b);
    const q = (p: number) => waits[Math.max(1, Math.ceil(p * waits.length)) - 1];
    expect(s.admissionWaitMs).toEqual({
      p50: q(0.5),
      p99: q(0.99),
      max: waits[waits.length - 1],
      mean: Math.round((waits.reduce((a, b) => a + b, 0) / waits.length) * 1000) / 1000,
    });
    const done = new Map(lines.filter(([, l]) => l.startsWith("done ")).map(([t, l]) => [l.split(" ")[1], t]));
    expect(done.size).toBe(admitted.length); // every admitted request is served, so each is checked below
    for (const [t, l] of admitted) {
      const [, id, , local] = l.split(" ");
      expect((done.get(id as string) as number) - t, l).toBeCloseTo(1_500 + 50 * Number(local), 3); // NaN, failing, when it has no done line
    }
  });

  it("admission waits include requests whose failure a cancel storm drained", async () => {
    // Storms of fraction 0 only drain: failures they collect are recorded in drain(), not at admission.
    const { summary: s, lines } = await logged({
      ...SMALL,
      requests: 120,
      metadataOnlyFraction: 1,
      budgetMs: 3_000,
      faults: only({ cancelStormsPerMinute: 3_000, cancelFraction: 0, readCorrupt: 0.5, readFail: 0.3 }),
    });
    expect(s.requests.failed).toBeGreaterThan(0);
    const forwardAt = new Map(lines.filter(([, l]) => l.startsWith("forward ")).map(([t, l]) => [l.split(" ")[1], t]));
    const ended = lines.filter(([, l]) => l.startsWith("admitted ") || l.startsWith("failed "));
    const waits = ended.map(([t, l]) => Math.round(t - (forwardAt.get(l.split(" ")[1]) as number)));
    expect(s.admissionWaitMs.mean).toBe(Math.round((waits.reduce((a, b) => a + b, 0) / waits.length) * 1000) / 1000);
  });

  it("failedByReason keys are the consumer's reasons (corrupted reads of metadata-only requests fail CHECKSUM_MISMATCH)", async () => {
    const { summary: s } = await runSimulation({ ...SMALL, requests: 60, metadataOnlyFraction: 1, faults: only({ readCorrupt: 0.5 }) });
    expect(s.requests.failedByReason.CHECKSUM_MISMATCH).toBeGreaterThan(0);
    expect(Object.keys(s.requests.failedByReason)).not.toContain("UNKNOWN");
    expect(Object.values(s.requests.failedByReason).reduce((a, b) => a + b, 0)).toBe(s.requests.failed);
  });

  it("items.remote is the verified loads (one per item of a remote request without faults)", async () => {
    const { summary: s, lines } = await logged({ ...SMALL, faults: NONE });
    const items = lines.filter(([, l]) => l.startsWith("arrive ")).reduce((a, [, l]) => a + Number(l.split(" ")[2]), 0);
    expect(s.requests.succeededRemote).toBe(200);
    expect(s.items.localEncoded).toBe(0);
    expect(s.items.remote).toBe(items);
    expect(s.bytes.nominalRead).toBeGreaterThan(s.items.remote * 1_000_000 - 1);
    expect(s.bytes.nominalRead).toBeLessThanOrEqual(s.items.remote * 20_000_000);
  });

  it("admission wait percentiles are ordered and p99 is near the top of the distribution", async () => {
    const { summary: s } = await runSimulation({ ...SMALL, faults: "heavy", budgetMs: 10_000 });
    const w = s.admissionWaitMs;
    expect(w.p50).toBeLessThanOrEqual(w.p99);
    expect(w.p99).toBeLessThanOrEqual(w.max);
    expect(w.p99).toBeGreaterThan(w.mean);
  });

  it("retries, quarantines and crash effects come from their own counters", async () => {
    const { summary: s } = await runSimulation({ ...SMALL, faults: only({ earlyAnnouncement: 0.5, readStall: 0.1 }) });
    expect(s.retries).toBe(Object.entries(s.counters).reduce((a, [k, v]) => (k.startsWith("ectp_consumer_retries_total") ? a + v : a), 0));
    expect(s.retries).toBeGreaterThan(0);
    expect(s.quarantines).toBe(s.faultsInjected.stallRead);
    expect(s.crashEffects).toEqual({ restarts: 0, consumerRestarts: 0, messagesLost: 0, readsFailed: 0 });
  });

  it("crash effects: messages lost and reads failed are counted apart", async () => {
    const { summary: s } = await runSimulation({ ...SMALL, linkLatencyMs: 20, faults: only({ crashesPerMinute: 60, restartDelayMs: 500 }) });
    expect(s.crashEffects.messagesLost).toBeGreaterThan(0);
    expect(s.crashEffects.readsFailed).not.toBe(s.crashEffects.messagesLost);
  });
});

describe("store events and item sizes", () => {
  it("crashes clear stores without counting evictions", async () => {
    const { summary: s } = await runSimulation({ ...SMALL, faults: only({ crashesPerMinute: 60, restartDelayMs: 500 }) });
    const cleared = Object.entries(s.counters).reduce((a, [k, v]) => (/releases_total\{cause=cleared\}/.test(k) ? a + v : a), 0);
    expect(cleared).toBeGreaterThan(0);
    expect(s.storeEvents).toEqual({ evictions: 0, storeFull: 0 }); // 4 GiB stores never fill
  });

  it("a store that holds one item at a time reports store-full encodes", async () => {
    const { summary: s } = await runSimulation({
      ...TINY,
      requests: 20,
      producerCapacityBytes: 25_000_000,
      minItemBytes: 15_000_000,
      maxItemBytes: 20_000_000,
      minItemsPerRequest: 2,
      itemReuse: 0,
    });
    expect(s.storeEvents.storeFull).toBeGreaterThan(0);
    expect(s.items.localEncoded).toBeGreaterThanOrEqual(s.storeEvents.storeFull > 0 ? 1 : 0);
    expect(s.violations.count).toBe(0);
  });

  it("items of exactly maxItemBytes are accepted by the consumers (the scaled limit rounds up)", async () => {
    const { summary: s } = await runSimulation({ ...SMALL, requests: 40, minItemBytes: 20_000_000, maxItemBytes: 20_000_000, faults: NONE });
    expect(s.requests.succeededRemote).toBe(40);
    expect(Object.keys(s.counters).some((k) => /INVALID_ANNOUNCEMENT/.test(k))).toBe(false);
  });
});

describe("durations", () => {
  it("a bare number or an unknown unit is not a duration", () => {
    for (const text of ["10", "1.5", "10 ms", "10h", "1e3ms", "-5ms", ".5s"]) expect(parseDuration(text).ok, text).toBe(false);
    expect(parseDuration(" 10ms ")).toEqual({ ok: true, ms: 10 });
  });
});

describe("reproduce commands name every setting that changes the run", () => {
  it.each([
    [{ byteScale: 65_536 }, "--byte-scale 65536"],
    [{ budgetMs: 2_000 }, "--budget 2s"],
    [{ stepMs: 2.5 }, "--step 2.5ms"],
    [{ encodeTimeMs: 1_000 }, "--encode-time 1s"],
    [{ serviceTimeMs: 120_000 }, "--service-time 2m"],
    [{ producers: 3 }, "--producers 3"],
    [{ consumers: 5 }, "--consumers 5"],
    [{ concurrency: 7 }, "--concurrency 7"],
    [{ metadataOnlyFraction: 0.5 }, "--metadata-only-fraction 0.5"],
    [{ timeResolutionMs: 0.5 }, "timeResolutionMs=0.5"],
    [{ maxDrainMs: 1_000 }, "maxDrainMs=1000"],
    [{ linkLatencyMs: 1 }, "linkLatencyMs=1"],
    [{ minItemsPerRequest: 2 }, "minItemsPerRequest=2"],
  ] as const)("%o", (change, text) => {
    expect(reproduceCommand({ ...DEFAULT_SIMULATION_CONFIG, ...change })).toContain(text);
  });
});

describe("sweeps", () => {
  it("run consecutive seeds and sum every count", async () => {
    const runs: number[] = [];
    const shape = { ...TINY, requests: 12, faults: "chaos" as const, budgetMs: 10_000, producerCapacityBytes: 1_000_000_000 };
    const sweep = await runSweep({ ...shape, seed: 40, runs: 3, onRun: (s) => runs.push(s.seed) });
    expect(runs).toEqual([40, 41, 42]);
    const singles = await Promise.all([40, 41, 42].map(async (seed) => (await runSimulation({ ...shape, seed })).summary));
    const sum = (f: (s: (typeof singles)[number]) => number) => singles.reduce((a, s) => a + f(s), 0);
    expect(sweep.requests.total).toBe(36);
    expect(sweep.crashEffects.restarts).toBe(sum((s) => s.crashEffects.restarts));
    expect(sweep.crashEffects.messagesLost).toBe(sum((s) => s.crashEffects.messagesLost));
    expect(sweep.storeEvents.evictions).toBe(sum((s) => s.storeEvents.evictions));
    expect(sweep.storeEvents.storeFull).toBe(sum((s) => s.storeEvents.storeFull));
    expect(sweep.faultsInjected.producerCrash).toBe(sum((s) => s.faultsInjected.producerCrash as number));
    expect(sweep.requests.cancelled).toBe(sum((s) => s.requests.cancelled));
    expect(new Set(singles.map((s) => s.eventLog.hash)).size).toBe(3);
    expect(singles.filter((s) => s.storeEvents.evictions + s.storeEvents.storeFull > 0).length).toBeGreaterThan(1);
  });

  // Mutant: a sweep's summary names neither its workload nor how to rerun it (a saved passing sweep
  // could not be tied to what it ran).
  it("say what they ran: the first run's configuration and a command that reruns the whole sweep", async () => {
    const sweep = await runSweep({ ...TINY, requests: 12, seed: 40, runs: 2 });
    const first = (await runSimulation({ ...TINY, requests: 12, seed: 40 })).summary;
    expect(sweep.config).toEqual(first.config);
    expect(sweep.reproduce).toBe(first.reproduce.replace("npx @ectp/cli simulate ", "npx @ectp/cli simulate --runs 2 "));
    expect(sweep.reproduce).toMatch(/^npx @ectp\/cli simulate --runs 2 --seed 40 /);
  });

  // Mutant: the sweep's hash leaves a run out (the first, or the last), or ignores the runs' paths.
  it("hash every run's event log: the same sweep again gives the same hash, a sweep that differs in any run another", async () => {
    const shape = { ...TINY, requests: 12, faults: "chaos" as const };
    const runHashes: string[] = [];
    const sweep = await runSweep({ ...shape, seed: 40, runs: 3, onRun: (s) => runHashes.push(s.eventLog.hash) });
    // FNV-1a, 64-bit, over each run's hash followed by a newline, in seed order (as the summary documents).
    let h = 0xcbf29ce484222325n;
    for (const byte of Buffer.from(runHashes.map((x) => `${x}\n`).join(""))) h = ((h ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
    expect(sweep.hash).toBe(h.toString(16).padStart(16, "0"));
    expect((await runSweep({ ...shape, seed: 40, runs: 3 })).hash).toBe(sweep.hash);
    const others = await Promise.all([
      runSweep({ ...shape, seed: 40, runs: 2 }), // without the last run
      runSweep({ ...shape, seed: 41, runs: 2 }), // without the first
      runSweep({ ...shape, requests: 13, seed: 40, runs: 3 }), // every run on another path
    ]);
    expect(new Set([sweep.hash, ...others.map((o) => o.hash)]).size).toBe(4);
  });

  it("count violations, not failing runs", async () => {
    const factories = {
      consumer: (options: core.ConsumerOptions) => {
        const c = new core.ConsumerCore(options);
        const admit = c.admit.bind(c);
        // Two [I6] violations per run: r1 and r2 "ready" without a read.
        c.admit = (req, now) =>
          req.requestId === "r1" || req.requestId === "r2"
            ? { status: "admitted", items: req.items.map((i) => ({ action: "ready", itemId: i.itemId })) }
            : admit(req, now);
        return c;
      },
    };
    const sweep = await runSweep({ ...TINY, faults: NONE, runs: 2, factories } as never);
    expect(sweep.failingSeeds.length).toBe(2);
    expect(sweep.violations).toBe(sweep.failingSeeds.reduce((a, f) => a + f.violations, 0));
    expect(sweep.violations).toBeGreaterThanOrEqual(4);
  });
});

describe("workload", () => {
  const shape = { minItemsPerRequest: 1, maxItemsPerRequest: 4, minItemBytes: 10, maxItemBytes: 13, itemReuse: 0.5, byteScale: 1 };
  it("draws every count from min to max and every size from min to max, about evenly", () => {
    const g = new WorkloadGenerator(new SeededRandom(3), shape);
    const counts = new Map<number, number>();
    const sizes = new Map<number, number>();
    for (let r = 0; r < 4_000; r++) {
      const items = g.nextItems();
      counts.set(items.length, (counts.get(items.length) ?? 0) + 1);
      for (const i of items) sizes.set(i.nominalBytes, (sizes.get(i.nominalBytes) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([1, 2, 3, 4]);
    expect([...sizes.keys()].sort()).toEqual([10, 11, 12, 13]);
    for (const n of counts.values()) expect(n).toBeGreaterThan(800);
  });

  it("never repeats an item within a request; reuses at about itemReuse across requests, from a moving window", () => {
    const g = new WorkloadGenerator(new SeededRandom(4), { ...shape, itemReuse: 0.5 });
    const seen = new Map<unknown, number>(); // item -> request index of its first use
    let reused = 0;
    let total = 0;
    let lateReuse = 0;
    for (let r = 0; r < 3_000; r++) {
      const items = g.nextItems();
      expect(new Set(items).size).toBe(items.length);
      for (const i of items) {
        total++;
        const first = seen.get(i);
        if (first === undefined) seen.set(i, r);
        else {
          reused++;
          if (first > 1_000) lateReuse++;
        }
      }
    }
    expect(reused / total).toBeGreaterThan(0.35); // 0.5 minus the draws that hit the request's own items
    expect(reused / total).toBeLessThan(0.55);
    expect(lateReuse).toBeGreaterThan(0.5 * reused); // the window moves: late reuses are of late items
  });
});

describe("the lost-request bound", () => {
  it("a request waiting two minutes for its encode (nothing else in flight) is not cut short", async () => {
    const { summary: s } = await runSimulation({ ...TINY, concurrency: 1, requests: 2, encodeTimeMs: 120_000, faults: NONE });
    expect(s.violations.first).toEqual([]);
    expect(s.requests.succeededRemote).toBe(2);
  });
});

describe("the first arrivals", () => {
  it("concurrency above the request count issues exactly the requests", async () => {
    const { summary: s, lines } = await logged({ ...TINY, concurrency: 50, requests: 3 });
    expect(lines.filter(([, l]) => l.startsWith("arrive ")).length).toBe(3);
    expect(s.violations.count).toBe(0);
    expect(s.requests.total).toBe(3);
  });
});

/**
 * Edges of the engine's checks that the other tests leave open: the lateness bound with an engine
 * step shorter than a millisecond, the simulated time a violation is attributed to, and cancel
 * storms during the drain, and the documented defaults.
 */
import { ConsumerCore, ProducerCore } from "@ectp/core";
import { describe, expect, it } from "vitest";
import { type CoreFactories, DEFAULT_SIMULATION_CONFIG, type SimulationOptions, faultPreset, runSimulation } from "./index.js";

const BASE: SimulationOptions = { producers: 1, consumers: 1, concurrency: 1, requests: 8, timeSeries: false, faults: "none", maxDrainMs: 10_000, metadataOnlyFraction: 0 };

/**
 * A consumer that defers request r5 (without showing it to the real core) until `holdMs` after
 * r5's first admission, then decides it at once by encoding its items locally (every request
 * carries model input: no metadata-only rewrite). `firstAt` receives the time of that first admission.
 */
function holdsR5(holdMs: number, firstAt: { ms?: number }): CoreFactories {
  return {
    consumer: (options) => {
      const core = new ConsumerCore(options);
      const admit = core.admit.bind(core);
      core.admit = (req, now) => {
        if (req.requestId !== "r5") return admit(req, now);
        firstAt.ms ??= now;
        if (now - firstAt.ms < holdMs) return { status: "admitted", items: req.items.map((i) => ({ action: "defer", itemId: i.itemId })) };
        return { status: "admitted", items: req.items.map((i) => ({ action: "local-encode", itemId: i.itemId })) };
      };
      return core;
    },
  };
}

describe("the [I2] lateness bound is budget + one step, also for sub-millisecond steps", () => {
  it("with 0.5 ms steps, a request still waiting two steps after its budget ran out is reported late, 2001 ms after its first admission", async () => {
    const budgetMs = 2_000;
    const { summary } = await runSimulation({ ...BASE, budgetMs, stepMs: 0.5, timeResolutionMs: 0.5, factories: holdsR5(budgetMs + 1.5, {}) });
    expect(summary.violations.byInvariant.I2).toBe(1);
    expect(summary.violations.first[0]?.message).toBe(`r5 has no outcome 2001 ms after its first admission (budget ${budgetMs} ms + one step)`);
  });
});

describe("the [I2] lateness bound holds at the step that gives the outcome", () => {
  it("a request decided at the first step past budget + one step is reported late; one decided at budget + one step is not", async () => {
    const budgetMs = 2_000;
    const stepMs = 10;
    for (const [holdMs, late] of [
      [budgetMs + stepMs, 0],
      [budgetMs + 2 * stepMs, 1],
    ] as const) {
      const first: { ms?: number } = {};
      const { summary } = await runSimulation({ ...BASE, budgetMs, stepMs, factories: holdsR5(holdMs, first) });
      expect(first.ms, `hold ${holdMs}`).toBeDefined();
      expect(summary.violations.byInvariant.I2, `hold ${holdMs}`).toBe(late);
      if (late) expect(summary.violations.first[0]?.message).toBe(`r5 has no outcome ${holdMs} ms after its first admission (budget ${budgetMs} ms + one step)`);
    }
  });

  it("a failure drained between steps (by a cancel storm) past budget + one step is reported late", async () => {
    const budgetMs = 2_000;
    const stepMs = 1_000; // long steps, so that cancel storms fall between them
    let first: number | undefined;
    let lastAdmit = -1;
    let itemIds: string[] = [];
    let inStep = false; // an engine step admits every waiting request (r5 among them) before it drains
    let failedBetweenSteps = false;
    const factories: CoreFactories = {
      consumer: (options) => {
        const core = new ConsumerCore(options);
        const admit = core.admit.bind(core);
        const drainFailed = core.drainFailed.bind(core);
        core.admit = (req, now) => {
          if (req.requestId !== "r5") return admit(req, now);
          first ??= now;
          lastAdmit = now;
          itemIds = req.items.map((i) => i.itemId);
          inStep = true;
          return { status: "admitted", items: req.items.map((i) => ({ action: "defer", itemId: i.itemId })) };
        };
        // r5 fails at the first drain between steps after the step at budget + one step.
        core.drainFailed = () => {
          const failed = drainFailed();
          const betweenSteps = !inStep;
          inStep = false;
          if (first === undefined || failedBetweenSteps || !betweenSteps || lastAdmit - first < budgetMs + stepMs) return failed;
          failedBetweenSteps = true;
          return [...failed, { requestId: "r5", failures: itemIds.map((itemId) => ({ itemId, reason: "BUDGET_EXHAUSTED", attempts: 1 })) }];
        };
        return core;
      },
    };
    const { summary } = await runSimulation({
      ...BASE,
      metadataOnlyFraction: 1, // no model input: a failure is an allowed outcome, only its time is judged
      budgetMs,
      stepMs,
      faults: { ...faultPreset("none"), cancelStormsPerMinute: 600, cancelFraction: 0 },
      factories,
    });
    expect(failedBetweenSteps, "no cancel storm drained failures between steps").toBe(true);
    expect(summary.violations.byInvariant.I2).toBe(1);
    expect(summary.violations.first[0]?.message).toMatch(/^r5 has no outcome 30\d\d ms after its first admission/);
  });
});

describe("a violation is attributed to the simulated time it was seen at", () => {
  it("a late request's violation carries the time of the engine step that found it, not of the latest logged event", async () => {
    const budgetMs = 2_000;
    const stepMs = 10;
    const first: { ms?: number } = {};
    const { summary } = await runSimulation({ ...BASE, budgetMs, stepMs, factories: holdsR5(budgetMs + 3 * stepMs, first) });
    expect(summary.violations.byInvariant.I2).toBe(1);
    const v = summary.violations.first[0];
    expect(v?.invariant).toBe("I2");
    expect(first.ms).toBeDefined();
    // Found at the first step more than budget + one step after the first admission.
    expect(v?.timeMs).toBe((first.ms as number) + budgetMs + 2 * stepMs);
    expect(v?.message).toBe(`r5 has no outcome ${budgetMs + 2 * stepMs} ms after its first admission (budget ${budgetMs} ms + one step)`);
  });
});

describe("cancel storms stop with the last request", () => {
  it("no cancel storm happens during a long drain after every request has ended", async () => {
    const lines: [number, string][] = [];
    const { summary } = await runSimulation({
      producers: 2,
      consumers: 2,
      concurrency: 16,
      requests: 60,
      seed: 5,
      timeSeries: false,
      // Stalled reads keep the drain going long after the last request; storms come about every 0.5 s.
      faults: { ...faultPreset("none"), cancelStormsPerMinute: 120, cancelFraction: 0.1, readStall: 0.3 },
      eventLog: (l) => {
        const i = l.indexOf(" ");
        lines.push([Number(l.slice(0, i)), l.slice(i + 1)]);
      },
    });
    const last = lines[lines.length - 1] as [number, string];
    expect(last[0] - summary.simulatedMs).toBeGreaterThan(10_000); // the drain was long
    expect(lines.some(([, l]) => l.startsWith("cancel-storm "))).toBe(true); // storms did happen during the run
    expect(lines.filter(([t, l]) => t > summary.simulatedMs && l.startsWith("cancel-storm "))).toEqual([]);
  });
});

describe("defaults", () => {
  it("are the documented ones (SimulationConfig's field docs)", () => {
    expect(DEFAULT_SIMULATION_CONFIG).toEqual({
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
      faults: "none",
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
  });
});

/** Consumers crashing once a second, back 200 ms later, and no other fault. */
const CONSUMERS_CRASHING = { ...faultPreset("none"), consumerCrashesPerMinute: 60, restartDelayMs: 200 };

/** Consumer factories that build the first `count` consumers and throw on every rebuild after a crash; `built` counts the calls. */
function unrebuildableConsumers(count: number): { readonly built: number; readonly factories: CoreFactories } {
  let built = 0;
  return {
    get built() {
      return built;
    },
    factories: {
      consumer: (options) => {
        if (++built > count) throw new Error("planted: cannot build a consumer after a crash");
        return new ConsumerCore(options);
      },
    },
  };
}

/** A run of the shape the outcome check needs (several requests in flight when it stops). */
const OUTCOMES_BASE: SimulationOptions = { producers: 2, consumers: 2, concurrency: 16, requests: 60, timeSeries: false, maxDrainMs: 70_000 };

describe("request outcomes add up", () => {
  // summary.ts, RequestOutcomes.total: "Requests that reached an outcome (all of them, unless a run
  // stopped as stuck): the sum of the counts below."
  it("a run stopped as a livelock reports a total equal to the sum of its outcome counts", async () => {
    const { summary: s } = await runSimulation({
      ...OUTCOMES_BASE,
      requests: 10,
      factories: {
        consumer: (options) => {
          const core = new ConsumerCore(options);
          core.nextDeadline = () => 0; // always due: the loop stops as a livelock [I1]
          return core;
        },
      },
    });
    expect(s.violations.byInvariant.I1).toBeGreaterThan(0);
    const r = s.requests;
    expect(r.succeededRemote + r.fellBackLocal + r.failed + r.cancelled + r.lostInCrash).toBe(r.total);
  }, 30_000);
});

describe("a core factory that throws", () => {
  it("[I1] when a crashed producer is rebuilt with a new epoch is a violation, not a rejected run: the producer stays silent and the summary comes back", async () => {
    let built = 0;
    const { summary } = await runSimulation({
      requests: 400,
      faults: "chaos",
      timeSeries: false,
      factories: {
        producer: (options) => {
          if (++built > 4) throw new Error("planted: cannot build a producer after a crash");
          return new ProducerCore(options);
        },
      },
    });
    expect(built).toBeGreaterThan(4);
    expect(summary.violations.byInvariant.I1).toBeGreaterThan(0);
  });

  it("[I1] when a crashed consumer is rebuilt with a new epoch is a violation, not a rejected run: what is forwarded to it is lost and every request still ends", async () => {
    const rebuilds = unrebuildableConsumers(2);
    const { summary } = await runSimulation({
      producers: 2,
      consumers: 2,
      concurrency: 16,
      requests: 400,
      faults: CONSUMERS_CRASHING,
      timeSeries: false,
      factories: rebuilds.factories,
    });
    expect(rebuilds.built).toBeGreaterThan(2);
    expect(summary.violations.byInvariant.I1).toBeGreaterThan(0);
    expect(summary.crashEffects.consumerRestarts).toBe(0);
    const r = summary.requests;
    expect(r.lostInCrash).toBeGreaterThan(0);
    expect(r.total).toBe(400);
  });
});

describe("simulator edges found by a review (each failed before its fix)", () => {
  it("[I1] a run whose only consumer cannot be rebuilt loses every later request at once, in a loop (a recursion one arrival deeper per loss overflowed the stack)", async () => {
    // The depth of the call stack at each loss: it grew by one arrival per request lost in a row.
    let deepest = 0;
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 100_000;
    let summary: Awaited<ReturnType<typeof runSimulation>>["summary"];
    try {
      ({ summary } = await runSimulation({
        consumers: 1,
        concurrency: 16,
        requests: 4_000,
        itemReuse: 1, // items already stored: a request is forwarded (and lost) in its own arrival
        faults: CONSUMERS_CRASHING,
        timeSeries: false,
        factories: unrebuildableConsumers(1).factories,
        eventLog: (line) => {
          if (line.includes(" lost ")) deepest = Math.max(deepest, (new Error().stack ?? "").split("\n").length);
        },
      }));
    } finally {
      Error.stackTraceLimit = limit;
    }
    const o = summary.requests;
    expect(o.lostInCrash).toBeGreaterThan(1_000);
    expect(deepest).toBeLessThan(60);
    expect([o.total, o.succeededRemote + o.fellBackLocal + o.failed + o.cancelled + o.lostInCrash]).toEqual([4_000, 4_000]);
  });

  it("[I2] the orchestrator holds what arrives while every consumer is down until one restarts: only the requests waiting at a crashed consumer are lost", async () => {
    const { summary } = await runSimulation({ producers: 1, consumers: 1, faults: "heavy", requests: 6_000, seed: 2, timeSeries: false });
    // Before, each request sent to the down consumer was lost at once, and the client's next one with it: 1,882 of 6,000 in one instant.
    const crashes = summary.faultsInjected.consumerCrash ?? 0;
    expect(crashes).toBeGreaterThan(0);
    expect(summary.requests.lostInCrash).toBeLessThanOrEqual(crashes * DEFAULT_SIMULATION_CONFIG.concurrency);
    expect(summary.violations.count).toBe(0);
  });

  it("[I3] a producer whose connect to a just-crashed consumer is rejected drops that consumer's grants from the ledger too (no false pins violation)", async () => {
    // Seed 94: c0's new epoch sends its Hello and ReadRequests, then crashes before p0 handles them;
    // p0 connects to that dead epoch (rejected) and grants in the same pump, then releases those
    // grants as the rejection tells it c0 is unreachable. Before, the ledger kept them: 8 [I3].
    const crashed = new Set<string>();
    let connectsToCrashed = 0;
    const { summary } = await runSimulation({
      producers: 1,
      consumers: 1,
      concurrency: 4,
      requests: 30,
      seed: 94,
      faults: CONSUMERS_CRASHING,
      timeSeries: false,
      eventLog: (line) => {
        const crash = / crash (c\d+@\d+)$/.exec(line);
        if (crash) crashed.add(crash[1] as string);
        const connect = / p\d+ connect (c\d+@\d+)$/.exec(line);
        if (connect && crashed.has(connect[1] as string)) connectsToCrashed++;
      },
    });
    expect(connectsToCrashed).toBeGreaterThan(0); // the path taken: a connect the mock rejects
    expect(summary.violations.byInvariant.I3).toBe(0);
  });

  it("[I2] a step that is not a whole number of clock resolutions may last one resolution more: requests decided at the next step are not late", async () => {
    const { summary } = await runSimulation({ faults: "heavy", seed: 1, requests: 50, timeResolutionMs: 0.7, budgetMs: 10, timeSeries: false });
    expect(summary.violations.byInvariant.I2).toBe(0);
  });
});

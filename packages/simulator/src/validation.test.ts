import { EctpError } from "@ectp/protocol";
import { ProducerCore } from "@ectp/core";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import {
  FAULT_PRESETS,
  SIMULATION_LIMITS,
  type SimulationOptions,
  faultPreset,
  formatDuration,
  minByteScale,
  parseDuration,
  reproduceCommand,
  DEFAULT_SIMULATION_CONFIG,
  runSimulation,
  runSweep,
  validateConfig,
  validateSweep,
} from "./index.js";
import { rejection } from "./test-support.js";

const TINY: SimulationOptions = { producers: 1, consumers: 1, concurrency: 4, requests: 8, timeSeries: false };

function expectInvalidArgument(e: unknown, message: RegExp): void {
  expect(EctpError.is(e), String(e)).toBe(true);
  expect((e as EctpError).code).toBe("INVALID_ARGUMENT");
  expect((e as EctpError).message).toMatch(message);
}

describe("validateConfig reports every option runSimulation rejects, and runSimulation throws INVALID_ARGUMENT", () => {
  const cases: [string, Partial<SimulationOptions>, RegExp][] = [
    ["an unknown fault preset", { faults: "bogus" as never }, /faults must be one of none, light, heavy, chaos or a FaultProfile object; got "bogus"/],
    ["a fault profile with a rate out of range", { faults: { ...faultPreset("light"), readFail: 2 } }, /faults\.readFail must be a number in \[0, 1\]; got 2/],
    ["a fault profile with a field missing", { faults: { ...faultPreset("light"), memoryPressure: undefined } as never }, /faults\.memoryPressure must be a finite number > 0/],
    ["a negative link latency", { linkLatencyMs: -1 }, /linkLatencyMs must be a number of ms from 0 to 3600000; got -1$/],
    // Ran: every ReadRequest reached its producer after every wait budget, so every request fell back (or failed).
    ["a link latency of ages", { linkLatencyMs: 1e12 }, /linkLatencyMs must be a number of ms from 0 to 3600000; got 1000000000000$/],
    ["a link faster than any item needs", { linkBytesPerSecond: 1e300 }, /linkBytesPerSecond must be a number of bytes per second from 1 to 10000000000000000; got 1e\+300$/],
    // Was refused by the mock network under its own name (bandwidthBytesPerMs ... got 0): the rate per real byte underflowed.
    ["a link slower than a byte a second", { linkBytesPerSecond: 5e-324 }, /linkBytesPerSecond must be a number of bytes per second from 1 to 10000000000000000; got 5e-324$/],
    // Ran with a single sample, at time 0.
    ["a sample interval of ages", { sampleIntervalMs: Number.MAX_VALUE }, /sampleIntervalMs must be a number of ms from 0.001 to 3600000; got 1.7976931348623157e\+308$/],
    // Ran; but a run whose core never lets go steps through the whole drain (and the lost-request bound, which includes it).
    ["a drain of ages", { maxDrainMs: 1e12 }, /maxDrainMs must be a number of ms from 0.001 to 3600000; got 1000000000000$/],
    ["a fractional budget", { budgetMs: 1.5 }, /budgetMs must be a whole number of ms; got 1.5/],
    ["a consumer config the core rejects", { consumerConfig: { transferTimeoutMs: 1e9 } }, /cannot be set up.*transferTimeoutMs/],
    ["a consumer config that is not an object", { consumerConfig: "fast" as never }, /consumerConfig must be an object/],
    [
      "a consumer wait budget, which the simulation always sets from budgetMs (an invalid one too)",
      { consumerConfig: { waitBudgetMs: -1 } },
      /consumerConfig\.waitBudgetMs cannot be given: it is always the budgetMs option \(the wait budget per \(request, item\) \[C3\], ectp simulate --budget\); give budgetMs instead; got -1$/,
    ],
    ["a valid consumer wait budget (it would be replaced without a word)", { consumerConfig: { waitBudgetMs: 5_000 } }, /consumerConfig\.waitBudgetMs cannot be given: .*give budgetMs instead; got 5000$/],
    [
      "a consumer item size limit, which the simulation always sets from maxItemBytes / byteScale",
      { consumerConfig: { maxItemBytes: 1 } },
      /consumerConfig\.maxItemBytes cannot be given: it is always the maxItemBytes option over byteScale \(the largest scaled item, rounded up\); give maxItemBytes \(and byteScale\) instead; got 1$/,
    ],
    ["an option that cannot be turned into a string", { seed: Object.create(null) }, /seed must be an integer .*; got an object$/],
    ["a bigint option (shown as one, not as the number it reads like)", { seed: 1n as never }, /seed must be an integer .*; got 1n$/],
    [
      "a fault profile field that cannot be turned into a string",
      { faults: { ...faultPreset("light"), readFail: Object.create(null) } },
      /faults\.readFail must be a number in \[0, 1\]; got an object/,
    ],
    ["a store capacity too large for the store", { producerCapacityBytes: 1e300 }, /the stores would hold up to .* GiB of real memory/],
    [
      "a byte scale of 1 with the default 4 GiB capacities (one producer and one consumer: 8 GiB of real memory)",
      { byteScale: 1, producers: 1, consumers: 1 },
      /the stores would hold up to 8.0 GiB of real memory .*at most 2.0 GiB: raise byteScale \(ectp simulate --byte-scale\) to at least 4, or use fewer instances or smaller capacities/,
    ],
    [
      "a memory pressure above 1 (a producer's store grows with it)",
      { byteScale: 1, producers: 1, consumers: 1, producerCapacityBytes: 2 ** 29, consumerCapacityBytes: 2 ** 29, faults: { ...faultPreset("none"), memoryPressure: 4 } },
      /the stores would hold up to 2.5 GiB of real memory \(\(producers x producerCapacityBytes x faults.memoryPressure/,
    ],
    [
      "items larger than any store",
      { byteScale: 1, producers: 1, consumers: 1, producerCapacityBytes: 2 ** 29, consumerCapacityBytes: 2 ** 29, minItemBytes: 2 ** 30, maxItemBytes: 2 ** 30 },
      /maxItemBytes 1073741824 exceeds the smallest store .*= 536870912.*could never be stored or loaded/,
    ],
    ["a drain shorter than a stalled read lasts", { faults: "heavy", maxDrainMs: 1_000 }, /maxDrainMs 1000 is shorter .*a stalled read: transferTimeoutMs \+ quarantineCapMs \/ 2 = 50000 ms.*\[I4\]; raise maxDrainMs to at least 50000/],
    [
      "a drain shorter than the lease of a grant whose ReadComplete was dropped",
      { faults: { ...faultPreset("none"), messageDrop: 0.1 }, maxDrainMs: 1_000 },
      /a grant whose ReadComplete was dropped: its lease, 30000 ms/,
    ],
    [
      "a drain shorter than a delayed ReadComplete holds its grant",
      { faults: { ...faultPreset("none"), messageDelay: 0.3, messageDelayMaxMs: 100_000 }, maxDrainMs: 5_000 },
      /a grant whose ReadComplete was delayed: up to messageDelayMaxMs \(at most its lease\), 30000 ms.*raise maxDrainMs to at least 30000/,
    ],
    [
      "a lease longer than any drain may last, with ReadCompletes dropped (raising maxDrainMs cannot help)",
      { faults: { ...faultPreset("none"), messageDrop: 0.1 }, producerConfig: { leaseMs: 4_000_000 }, maxDrainMs: 3_600_000 },
      /maxDrainMs 3600000 is shorter .*its lease, 4000000 ms\), .*\[I4\]; no drain may last that long \(maxDrainMs is at most 3600000\): shorten producerConfig\.leaseMs$/,
    ],
    [
      "a read stall longer than any drain may last",
      { faults: "heavy", consumerConfig: { quarantineCapMs: 10_000_000 } },
      /a stalled read: transferTimeoutMs \+ quarantineCapMs \/ 2 = 5020000 ms\), .*no drain may last that long \(maxDrainMs is at most 3600000\): shorten consumerConfig\.transferTimeoutMs or consumerConfig\.quarantineCapMs$/,
    ],
    [
      "an item as large as the store, which the byte scale's rounding makes larger",
      { producers: 1, consumers: 1, producerCapacityBytes: 100_000, minItemBytes: 100_000, maxItemBytes: 100_000 },
      /maxItemBytes 100000 exceeds the smallest store .*at byteScale 16384 an item of 7 real bytes against stores of 6 and/,
    ],
    ["a misspelt option", { requets: 10 } as Partial<SimulationOptions>, /requets is not an option \(the options are listed in SimulationOptions\)$/],
    ["a misspelt fault", { faults: { ...faultPreset("light"), readFails: 0.9 } as never }, /faults\.readFails is not a field of a FaultProfile \(the fields are messageDrop, /],
    ["items of a terabyte", { minItemBytes: 2 ** 40, maxItemBytes: 2 ** 40 }, /maxItemBytes must be an integer from 1 to 4294967296/],
    ["millions of items per request", { maxItemsPerRequest: 5e6 }, /maxItemsPerRequest must be an integer from 1 to 1024/],
    ["a crash rate that never lets time move", { faults: { ...faultPreset("light"), crashesPerMinute: 1e300 } }, /faults.crashesPerMinute must be at most 60000/],
    ["cancel storms of the same kind", { faults: { ...faultPreset("light"), cancelStormsPerMinute: 1e300 } }, /faults.cancelStormsPerMinute must be at most 60000/],
    ["a clock resolution of ages", { timeResolutionMs: 1e300 }, /timeResolutionMs must be a number of ms from 0.001 to 1000/],
    ["a step shorter than the clock resolution", { stepMs: 0.5 }, /stepMs 0.5 ms is shorter than the clock resolution timeResolutionMs = 1 ms/],
    ["a seed past 2^31 - 1 (it would repeat a smaller seed)", { seed: 2 ** 32 + 1 }, /seed must be an integer from -2147483648 to 2147483647; got 4294967297/],
    ["too many producers", { producers: 100_000 }, /producers must be an integer from 1 to 1000; got 100000/],
    ["a byte scale that shrinks items to nothing", { byteScale: 2 ** 32 }, /byteScale must be an integer from 1 to 1048576/],
    ["a service time of days", { serviceTimeMs: 6e13 }, /serviceTimeMs must be a number of ms from 0.001 to 3600000/],
    ["a step below 1 us", { stepMs: 1e-7 }, /stepMs must be a number of ms from 0.001 to 3600000/],
  ];
  it.each(cases)("%s", async (_what, bad, message) => {
    const problems = validateConfig({ ...TINY, ...bad });
    expect(problems.join("; ")).toMatch(message);
    expectInvalidArgument(await rejection(runSimulation({ ...TINY, ...bad })), message);
  });

  it("options that are not an object, and hooks of the wrong type, are INVALID_ARGUMENT before anything runs", async () => {
    for (const bad of [null, "abc", 5, []]) {
      expect(validateConfig(bad as never).join("; "), String(bad)).toMatch(/^options must be an object of SimulationOptions/);
      expectInvalidArgument(await rejection(runSimulation(bad as never)), /options must be an object of SimulationOptions/);
    }
    const hooks: [Partial<SimulationOptions>, RegExp][] = [
      [{ onProgress: 5 as never }, /onProgress must be a function; got 5/],
      [{ eventLog: "x" as never }, /eventLog must be a function; got "x"/],
      [{ timeSeries: "no" as never }, /timeSeries must be true or false; got "no"/],
      [{ factories: { consumer: 1 } as never }, /factories.consumer must be a function; got 1/],
    ];
    for (const [bad, message] of hooks) {
      expectInvalidArgument(await rejection(runSimulation({ ...TINY, ...bad })), message);
      // validateConfig says so too: [] exactly when runSimulation accepts the options.
      expect(validateConfig({ ...TINY, ...bad }).join("; ")).toMatch(message);
    }
    expect(validateSweep({ ...TINY, runs: 2, onRun: "not a function" as never })).toEqual(["onRun must be a function when given; got string"]);
    // A string where a number belongs is shown quoted, not as the number it reads like.
    expect(validateConfig({ seed: "1" as never }).join("; ")).toMatch(/seed must be an integer .*; got "1"$/);
  });

  it("a consumer config without the fields the simulation sets (or with them left undefined) is accepted", () => {
    expect(validateConfig({ consumerConfig: { transferTimeoutMs: 10_000, waitBudgetMs: undefined, maxItemBytes: undefined } })).toEqual([]);
  });

  it("accepts the bounds themselves and reports nothing for the defaults", async () => {
    const L = SIMULATION_LIMITS;
    expect(validateConfig({})).toEqual([]);
    expect(validateConfig({ seed: L.minSeed })).toEqual([]);
    expect(
      validateConfig({ seed: L.maxSeed, byteScale: L.maxByteScale, stepMs: L.minDurationMs, budgetMs: L.maxDurationMs, timeResolutionMs: L.minTimeResolutionMs }),
    ).toEqual([]);
    expect(validateConfig({ byteScale: 16, maxItemBytes: L.maxItemBytes, maxItemsPerRequest: L.maxItemsPerRequest })).toEqual([]);
    const { summary } = await runSimulation({ ...TINY, seed: L.maxSeed });
    expect(summary.requests.total).toBe(8);
  });

  it("linkLatencyMs, linkBytesPerSecond, sampleIntervalMs and maxDrainMs are accepted at their bounds and refused past them", () => {
    const L = SIMULATION_LIMITS;
    expect([L.maxLinkLatencyMs, L.minLinkBytesPerSecond, L.maxLinkBytesPerSecond, L.maxSampleIntervalMs, L.maxDrainMs]).toEqual([3_600_000, 1, 1e16, 3_600_000, 3_600_000]);
    const inRange: Partial<SimulationOptions>[] = [
      { linkLatencyMs: 0 },
      { linkLatencyMs: L.maxLinkLatencyMs },
      { linkBytesPerSecond: L.minLinkBytesPerSecond },
      { linkBytesPerSecond: L.maxLinkBytesPerSecond },
      { sampleIntervalMs: L.minDurationMs, timeResolutionMs: L.minTimeResolutionMs, stepMs: 1 },
      { sampleIntervalMs: L.maxSampleIntervalMs },
      { maxDrainMs: L.minDurationMs },
      { maxDrainMs: L.maxDrainMs },
    ];
    for (const ok of inRange) expect(validateConfig({ ...TINY, ...ok }), JSON.stringify(ok)).toEqual([]);
    const outOfRange: [Partial<SimulationOptions>, string][] = [
      [{ linkLatencyMs: L.maxLinkLatencyMs + 1 }, "linkLatencyMs must be a number of ms from 0 to 3600000; got 3600001"],
      [{ linkBytesPerSecond: 0.5 }, "linkBytesPerSecond must be a number of bytes per second from 1 to 10000000000000000; got 0.5"],
      [{ linkBytesPerSecond: 2e16 }, "linkBytesPerSecond must be a number of bytes per second from 1 to 10000000000000000; got 20000000000000000"],
      [{ sampleIntervalMs: L.maxSampleIntervalMs + 1 }, "sampleIntervalMs must be a number of ms from 0.001 to 3600000; got 3600001"],
      [{ maxDrainMs: L.maxDrainMs + 1 }, "maxDrainMs must be a number of ms from 0.001 to 3600000; got 3600001"],
      [{ maxDrainMs: 0.0005 }, "maxDrainMs must be a number of ms from 0.001 to 3600000; got 0.0005"],
    ];
    for (const [bad, message] of outOfRange) expect(validateConfig({ ...TINY, ...bad }), JSON.stringify(bad)).toEqual([message]);
  });

  it("read stalls with the quarantine cap disabled (Infinity) or long (with a drain to match) run without false leaks [I4]", async () => {
    const shape: Partial<SimulationOptions> = { requests: 100, faults: "heavy", seed: 1 };
    for (const extra of [{ consumerConfig: { quarantineCapMs: Number.POSITIVE_INFINITY } }, { consumerConfig: { quarantineCapMs: 1e6 }, maxDrainMs: 520_000 }]) {
      const { summary } = await runSimulation({ ...shape, ...extra });
      expect(summary.violations.count, JSON.stringify(extra)).toBe(0);
    }
  });
});

describe("runSweep", () => {
  it("the CI sweep script refuses bad arguments with its usage and exit status 2, before running anything", () => {
    const script = fileURLToPath(new URL("../scripts/sweep.mjs", import.meta.url));
    for (const [args, message] of [
      [["0"], 'runsPerPreset must be an integer from 1 to 100000; got "0"'],
      [["abc"], 'runsPerPreset must be an integer from 1 to 100000; got "abc"'],
      [["5", "1.5"], 'firstSeed must be an integer from -2147483648 to 2147483647; got "1.5"'],
      [["1", "2", "3"], "at most two arguments; got 3"],
      // Each child would throw it with a stack trace (and the parent exited 1, as if violations were found).
      [["2", "2147483647"], "the last seed, firstSeed + runsPerPreset - 1 = 2147483648, must be at most 2147483647; lower firstSeed or runsPerPreset"],
    ] as const) {
      const r = spawnSync(process.execPath, [script, ...args], { encoding: "utf8" });
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr).toBe(`sweep: ${message}\nUsage: node scripts/sweep.mjs [runsPerPreset=250] [firstSeed=1]\n`);
    }
  });

  it.each([
    ["throws", "throw new Error('planted child failure')", /^Error: planted child failure$/m, "exited 1"],
    ["is killed by a signal", "process.kill(process.pid,'SIGKILL')", undefined, "was killed by SIGKILL"],
  ])("the CI sweep script exits with status 70 and says the sweep is incomplete when a preset's child %s", (_what, plant, childError, how) => {
    const script = fileURLToPath(new URL("../scripts/sweep.mjs", import.meta.url));
    // Every child (the script runs itself with --child) fails as it starts; the parent is untouched.
    const preload = `data:text/javascript,if(process.argv[2]==='--child'){${plant}}`.replaceAll(" ", "%20");
    const r = spawnSync(process.execPath, [script, "1", "1"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: `--import=${preload}` } });
    expect(r.status, r.stderr).toBe(70);
    const said = new RegExp(`^sweep: sweep of (none|light) ${how}; the sweep is incomplete$`, "m");
    expect(r.stderr).toMatch(said);
    // The child's own error is printed above the parent's line (the child shares its stderr).
    if (childError) expect(r.stderr.search(childError)).toBeLessThan(r.stderr.search(said));
    expect(r.stdout).not.toMatch(/^sweep: \d+ runs/m); // no verdict: neither 0 nor 1 violations
  });

  it("the CI sweep script stops the preset's child still running when another fails, before it exits 70", () => {
    const script = fileURLToPath(new URL("../scripts/sweep.mjs", import.meta.url));
    // Preset "none" fails as it starts; "light" (started beside it) would run for ever. It shares the
    // script's stderr, so spawnSync returns only once it is gone (after its 60 s limit if left running).
    const plant = "if(process.argv[3]==='none')throw new Error('planted child failure');setInterval(()=>{},1000);await new Promise(()=>{})";
    const preload = `data:text/javascript,if(process.argv[2]==='--child'){${plant}}`.replaceAll(" ", "%20");
    const r = spawnSync(process.execPath, [script, "1", "1"], {
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, NODE_OPTIONS: `--import=${preload}` },
    });
    expect(r.error, "the script or its other child was still running after 60 s").toBeUndefined();
    expect(r.status, r.stderr).toBe(70);
    expect(r.stderr).toMatch(/^sweep: sweep of none exited 1; the sweep is incomplete$/m);
  }, 90_000);

  it.each([0, -2, 1.5, 100_001])("rejects runs %s before running anything", async (runs) => {
    let ran = 0;
    const e = await rejection(runSweep({ ...TINY, runs, onRun: () => ran++ }));
    expectInvalidArgument(e, new RegExp(`runs must be an integer from 1 to 100000; got ${runs}`));
    expect(ran).toBe(0);
  });

  it("rejects a sweep whose last seed is past the seed range, before its first run", async () => {
    let ran = 0;
    const seed = SIMULATION_LIMITS.maxSeed;
    expect(validateSweep({ ...TINY, seed, runs: 1 })).toEqual([]);
    const e = await rejection(runSweep({ ...TINY, seed, runs: 2, onRun: () => ran++ }));
    expectInvalidArgument(e, /last seed, seed \+ runs - 1 = 2147483648, must be <= 2147483647/);
    expect(ran).toBe(0);
  });

  it("reports the fault preset it ran with, and 'custom' for a profile", async () => {
    const heavy = await runSweep({ ...TINY, faults: "heavy", runs: 2 });
    expect(heavy.faults).toBe("heavy");
    expect(heavy.runs).toBe(2);
    const custom = await runSweep({ ...TINY, faults: faultPreset("light"), runs: 1 });
    expect(custom.faults).toBe("custom");
    const unnamed = await runSweep({ ...TINY, runs: 1 });
    expect(unnamed.faults).toBe(DEFAULT_SIMULATION_CONFIG.faults);
  });

  it("stops after the run in progress when its signal is aborted, and says so", async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const sweep = await runSweep({
      ...TINY,
      seed: 7,
      runs: 4,
      signal: controller.signal,
      onRun: (s, i) => {
        seen.push(s.requests.total);
        if (i === 1) controller.abort();
      },
    });
    expect(seen).toHaveLength(2);
    expect(sweep.runs).toBe(2);
    expect(sweep.interrupted).toBe(true);
    expect(sweep.requests.total).toBe((seen[0] as number) + (seen[1] as number));
    expect(sweep.reproduce).toMatch(/--runs 4 /); // reruns the sweep asked for
    expect(sweep.seedsPerSecond).toBeCloseTo((2 * 1000) / sweep.wallTimeMs, 6); // the runs made, not the runs asked for
    const whole = await runSweep({ ...TINY, seed: 7, runs: 2, signal: new AbortController().signal });
    expect(whole.interrupted).toBe(false);
    expect(whole.runs).toBe(2);
    // Aborted during the last run: nothing was left, so nothing was interrupted.
    const late = new AbortController();
    const last = await runSweep({ ...TINY, seed: 7, runs: 2, signal: late.signal, onRun: (_s, i) => i === 1 && late.abort() });
    expect(last).toMatchObject({ runs: 2, interrupted: false });
  });

  it("a signal aborted before the sweep: the first run is made, reported to onRun, and the sweep stops there", async () => {
    const controller = new AbortController();
    controller.abort();
    const seen: number[] = [];
    const sweep = await runSweep({ ...TINY, seed: 7, runs: 3, signal: controller.signal, onRun: (_s, i) => seen.push(i) });
    expect(seen).toEqual([0]);
    expect(sweep).toMatchObject({ runs: 1, interrupted: true });
  });

  it("an abort waiting in the event loop when a run ends (a signal handler not yet run) stops the sweep before the next run", async () => {
    // Runs shorter than 50 ms never give the event loop a turn themselves: the sweep gives it one after each run.
    const controller = new AbortController();
    const seen: number[] = [];
    const sweep = await runSweep({
      ...TINY,
      seed: 7,
      runs: 3,
      signal: controller.signal,
      onRun: (_s, i) => {
        seen.push(i);
        if (i === 0) setImmediate(() => controller.abort());
      },
    });
    expect(seen).toEqual([0]);
    expect(sweep).toMatchObject({ runs: 1, interrupted: true });
  });

  it("a run gives the event loop a turn while it runs (a signal handler need not wait for its end)", async () => {
    // The wall clock read by the run moves 100 ms a reading: every check of it is past the 50 ms
    // between turns, however fast this machine runs the simulation.
    let fake = 0;
    const now = vi.spyOn(performance, "now").mockImplementation(() => (fake += 100));
    try {
      const order: string[] = [];
      setTimeout(() => order.push("timer"), 0);
      await runSimulation({ ...TINY, requests: 200 }).then(() => order.push("run ended"));
      expect(order).toEqual(["timer", "run ended"]);
    } finally {
      now.mockRestore();
    }
  });

  it("rejects a signal that is not an AbortSignal (null included), before running anything", async () => {
    let ran = 0;
    for (const signal of [{}, null, { aborted: false }]) {
      const e = await rejection(runSweep({ ...TINY, runs: 2, signal: signal as AbortSignal, onRun: () => ran++ }));
      expectInvalidArgument(e, /signal must be an AbortSignal/);
      expect(validateSweep({ ...TINY, runs: 2, signal: signal as AbortSignal })).toContain("signal must be an AbortSignal when given");
    }
    expect(ran).toBe(0);
  });
});

describe("durations in reproduce commands", () => {
  it.each([1e-7, 0.001, 0.0015, 1.5, 10, 999.999, 1_500, 60_000, 90_000, 3_600_000, 123_456.789, 6e27, 1e21, 2 ** 60])(
    "formatDuration(%s) is plain decimal and parses back to the same number",
    (ms) => {
      const text = formatDuration(ms);
      expect(text).not.toMatch(/e/);
      const back = parseDuration(text);
      expect(back).toEqual({ ok: true, ms });
    },
  );

  it("reads decimal seconds and minutes as the milliseconds typed (no binary error)", () => {
    for (const [text, ms] of [
      ["16.1s", 16_100],
      ["2.01s", 2_010],
      ["0.017m", 1_020],
      ["0.001s", 1],
      ["1.5m", 90_000],
    ] as const)
      expect(parseDuration(text), text).toEqual({ ok: true, ms });
  });

  it("uses the largest exact unit", () => {
    expect(formatDuration(60_000)).toBe("1m");
    expect(formatDuration(1_500)).toBe("1500ms");
    expect(formatDuration(2_000)).toBe("2s");
    expect(formatDuration(1e-7)).toBe("0.0000001ms");
  });

  it("API-only settings in a reproduce command are JavaScript that validateConfig accepts (Infinity is not printed as null)", () => {
    const cmd = reproduceCommand({ ...DEFAULT_SIMULATION_CONFIG, consumerConfig: { quarantineCapMs: Number.POSITIVE_INFINITY } });
    expect(cmd).toContain('<and, through the API: consumerConfig={"quarantineCapMs":Infinity}>');
    const literal = /consumerConfig=(\{.*\})>/.exec(cmd)?.[1] ?? "";
    expect(validateConfig({ consumerConfig: new Function(`return ${literal}`)() })).toEqual([]);
  });

  it("a negative seed is glued to its flag, so the command parses", () => {
    expect(reproduceCommand({ ...DEFAULT_SIMULATION_CONFIG, seed: -5 })).toMatch(/^npx @ectp\/cli simulate --seed=-5 /);
    expect(reproduceCommand({ ...DEFAULT_SIMULATION_CONFIG, seed: 5 })).toMatch(/^npx @ectp\/cli simulate --seed 5 /);
  });

  it("numbers are written in plain decimals, which the flags accept (not 1e-7)", () => {
    expect(reproduceCommand({ ...DEFAULT_SIMULATION_CONFIG, metadataOnlyFraction: 1e-7 })).toBe(
      "npx @ectp/cli simulate --seed 1 --faults none --metadata-only-fraction 0.0000001",
    );
  });

  it("planted cores are named: the command alone runs the reference cores", async () => {
    expect(reproduceCommand(DEFAULT_SIMULATION_CONFIG, ["consumer", "store"])).toBe(
      "npx @ectp/cli simulate --seed 1 --faults none <and, through the API: factories.consumer (planted), factories.store (planted)>",
    );
    const planted = await runSimulation({ ...TINY, itemReuse: 0.9, factories: { producer: (o) => new ProducerCore(o) } });
    expect(planted.summary.reproduce).toMatch(/ <and, through the API: itemReuse=0\.9, factories\.producer \(planted\)>$/);
    expect((await runSimulation(TINY)).summary.reproduce).not.toContain("<and");
  });

  it("settings no flag sets are named (the command alone would run another simulation)", () => {
    expect(reproduceCommand({ ...DEFAULT_SIMULATION_CONFIG, requests: 200 })).toBe("npx @ectp/cli simulate --seed 1 --faults none --requests 200");
    expect(reproduceCommand({ ...DEFAULT_SIMULATION_CONFIG, itemReuse: 0.9, consumerConfig: { grantWaitMs: 5000 } })).toBe(
      'npx @ectp/cli simulate --seed 1 --faults none <and, through the API: itemReuse=0.9, consumerConfig={"grantWaitMs":5000}>',
    );
  });
});

describe("minByteScale", () => {
  // The CLI words a too small --byte-scale with it: it must be exactly validateConfig's bound.
  it.each(FAULT_PRESETS)("is the smallest byteScale validateConfig accepts for the stores (faults %s)", (faults) => {
    for (const [producers, consumers] of [[4, 4], [1, 1], [1000, 1], [1, 1000], [1000, 1000], [7, 3]] as const) {
      const min = minByteScale({ producers, consumers, faults });
      const refused = (byteScale: number) => validateConfig({ producers, consumers, faults, byteScale }).some((p) => p.includes("of real memory"));
      expect(refused(min), `${producers} + ${consumers}`).toBe(false);
      if (min > 1) expect(refused(min - 1), `${producers} + ${consumers}`).toBe(true);
    }
  });

  it("counts the capacities given, over the defaults", () => {
    const gib = 1024 ** 3;
    expect(minByteScale({ producers: 1, consumers: 1, producerCapacityBytes: 8 * gib, consumerCapacityBytes: 8 * gib, faults: "none" })).toBe(
      Math.ceil((16 * gib) / SIMULATION_LIMITS.maxRealBytes),
    );
  });
});

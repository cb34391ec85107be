import { spawnSync } from "node:child_process";
import { EventEmitter } from "node:events";
import { closeSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  EXIT_IO,
  EXIT_OUTPUT_CLOSED,
  EXIT_USAGE,
  SIMULATE_USAGE,
  SIMULATE_USAGE_HINT,
  SIMULATION_JSON_FORMAT,
  USAGE,
  USAGE_HINT,
  handleClosedStreams,
  main,
} from "./index.js";
import { shownArg } from "./io.js";
import { capture } from "./test-support.js";

const here = dirname(fileURLToPath(import.meta.url));

async function run(...argv: string[]) {
  const io = capture();
  const code = await main(argv, io);
  return { code, out: io.stdout, err: io.stderr, first: io.stderr.split("\n")[0] };
}

describe("ectp", () => {
  it("--help and --version", async () => {
    expect(await run("--help")).toMatchObject({ code: 0, out: USAGE });
    const v = await run("--version");
    expect(v.code).toBe(0);
    expect(v.out).toBe("0.1.0\n");
    expect(await run("simulate", "--help")).toMatchObject({ code: 0, out: SIMULATE_USAGE });
    // Nothing after them is silently ignored.
    expect(await run("--version", "extra")).toMatchObject({ code: EXIT_USAGE, out: "", first: 'ectp: --version takes no arguments; got "extra"' });
    expect(await run("help", "simulate")).toMatchObject({ code: 0, out: SIMULATE_USAGE }); // as `simulate --help`
    expect(await run("--help", "simulate")).toMatchObject({ code: 0, out: SIMULATE_USAGE }); // as `help simulate`
    expect(await run("-h", "simulate")).toMatchObject({ code: 0, out: SIMULATE_USAGE });
    expect(await run("--help", "simulte")).toMatchObject({ code: EXIT_USAGE, first: 'ectp: --help takes at most one command, simulate or conformance; got "simulte"' });
    expect(await run("help", "simulte")).toMatchObject({ code: EXIT_USAGE, first: 'ectp: help takes one command, simulate or conformance; got "simulte"' });
  });

  it("an argument echoed in a usage error is cut after 80 characters, so a huge one does not fill the terminal", async () => {
    const huge = "x".repeat(3000);
    const cut = `${"x".repeat(80)}...`;
    expect(shownArg(huge)).toBe(cut);
    expect(shownArg("x".repeat(80))).toBe("x".repeat(80)); // up to 80 characters: whole
    expect(await run("--version", huge)).toMatchObject({ code: EXIT_USAGE, first: `ectp: --version takes no arguments; got "${cut}"` });
    expect(await run("help", huge)).toMatchObject({ code: EXIT_USAGE, first: `ectp: help takes one command, simulate or conformance; got "${cut}"` });
    expect((await run(huge)).first).toBe(`ectp: unknown command "${cut}"; expected simulate or conformance`);
    expect((await run(`-${huge}`)).first).toMatch(new RegExp(`^ectp: unknown option "-${"x".repeat(79)}\\.\\.\\."; options go after`));
    const simulate = async (...argv: string[]) => (await run("simulate", ...argv)).first;
    expect(await simulate("--requests", huge)).toBe(`ectp simulate: --requests must be an integer from 1 to 10000000; got "${cut}"`);
    expect(await simulate("--step", huge)).toMatch(new RegExp(`; got "${cut.replace(/\./g, "\\.")}"$`));
    expect(await simulate("--metadata-only-fraction", huge)).toMatch(new RegExp(`; got "${cut.replace(/\./g, "\\.")}"$`));
    expect(await simulate("--faults", huge)).toBe(`ectp simulate: --faults must be one of none, light, heavy, chaos; got "${cut}"`);
    expect(await simulate("--seed", huge, "--seed", "1")).toBe(`ectp simulate: --seed is given 2 times ("${cut}", "1"); give it once`);
    expect(await simulate(`--${huge}`)).toBe(`ectp simulate: unknown option --${"x".repeat(78)}...`);
    expect(await simulate(huge)).toBe(`ectp simulate: unexpected argument "${cut}"; every option is a --flag`);
    expect(await simulate("--", huge)).toBe(`ectp simulate: unexpected argument "${cut}" after "--", which ends the options; drop the "--"`);
  });

  it("a missing or unknown command is a usage error (exit 2): its line, then one line pointing at --help", async () => {
    expect(await run()).toMatchObject({ code: EXIT_USAGE, err: `ectp: missing command\n${USAGE_HINT}\n` });
    expect(USAGE_HINT).toBe('Usage: ectp <command> [options]; run "ectp --help" for the commands');
    expect(await run("simulte")).toMatchObject({
      code: EXIT_USAGE,
      err: `ectp: unknown command "simulte"; expected simulate or conformance (did you mean simulate?)\n${USAGE_HINT}\n`,
    });
    expect((await run("bogus")).first).toBe('ectp: unknown command "bogus"; expected simulate or conformance');
    // An option where the command belongs is named as an option, not as a misspelt command.
    for (const opt of ["-x", "--quiet"])
      expect(await run(opt, "simulate")).toMatchObject({
        code: EXIT_USAGE,
        first: `ectp: unknown option "${opt}"; options go after the command (ectp simulate --help lists them), and ectp itself takes only --help and --version`,
      });
  });
});

const DURATION = "must be a duration from 1ms to 60m with a unit: ms, s or m (e.g. 10ms, 2s, 1m);";
const SEED = "--seed must be an integer from -2147483648 to 2147483647 (the seeds the random generator tells apart);";

describe("ectp simulate argument errors: exact message, usage, exit 2", () => {
  const cases: [string[], string][] = [
    [["--faults", "extreme"], '--faults must be one of none, light, heavy, chaos; got "extreme"'],
    [["--step", "10"], `--step ${DURATION} got "10"`],
    [["--budget", "5h"], `--budget ${DURATION} got "5h"`],
    [["--encode-time", "0ms"], `--encode-time ${DURATION} got "0ms"`],
    [["--requests", "0"], '--requests must be an integer from 1 to 10000000; got "0"'],
    [["--producers", "2.5"], '--producers must be an integer from 1 to 1000; got "2.5"'],
    [["--concurrency", "lots"], '--concurrency must be an integer from 1 to 100000; got "lots"'],
    // Seeds the random generator tells apart: it keeps a seed's low 32 bits, signed.
    [["--seed", "4294967297"], `${SEED} got "4294967297"`],
    [["--seed=-2147483649"], `${SEED} got "-2147483649"`],
    [["--seed", "9007199254740991", "--runs", "2", "--requests", "10"], `${SEED} got "9007199254740991"`],
    [
      ["--seed", "2147483647", "--runs", "2", "--requests", "10"],
      "--seed 2147483647 with --runs 2 would end at seed 2147483648, past the largest seed 2147483647 (larger seeds repeat smaller ones); lower --seed or --runs",
    ],
    // Upper bounds: a typo must not distort a run or make it run for days.
    [["--step", "0.0000001ms"], `--step ${DURATION} got "0.0000001ms"`],
    [["--budget", "99999999999999999999999m"], `--budget ${DURATION} got "99999999999999999999999m"`],
    [["--service-time", "1000000000000m"], `--service-time ${DURATION} got "1000000000000m"`],
    [["--byte-scale", "4294967296"], '--byte-scale must be an integer from 1 to 1048576; got "4294967296"'],
    [["--producers", "100000", "--requests", "10"], '--producers must be an integer from 1 to 1000; got "100000"'],
    [["--consumers", "1001"], '--consumers must be an integer from 1 to 1000; got "1001"'],
    // Checked before the run, which would otherwise be thrown away.
    [["--report", "/dev/null/dir/x.html"], '--report cannot write "/dev/null/dir/x.html": /dev/null is not a directory'],
    [["--report", tmpdir()], `--report cannot write "${tmpdir()}": it is a directory; name a file in it`],
    [["--report=-"], '--report cannot write "-": it would be a file named "-", not standard output; name a file'],
    [["--seed", "-1"], '--seed needs a value; to pass one that starts with "-", write --seed=<value>'],
    [["--runs", "0"], '--runs must be an integer from 1 to 100000; got "0"'],
    [["--runs", "4294967296"], '--runs must be an integer from 1 to 100000; got "4294967296"'],
    [["--metadata-only-fraction", "1.5"], '--metadata-only-fraction must be a number from 0 to 1 (e.g. 0.25); got "1.5"'],
    [["--metadata-only-fraction", "0x1"], '--metadata-only-fraction must be a number from 0 to 1 (e.g. 0.25); got "0x1"'],
    [["--step", "0.5ms"], `--step ${DURATION} got "0.5ms"`], // shorter than the simulation's 1 ms clock resolution
    [["--faults", "chaos", "--faults", "none"], '--faults is given 2 times ("chaos", "none"); give it once'],
    [["--quiet", "--quiet"], "--quiet is given 2 times (true, true); give it once"],
    // In flags: the capacities and the presets' memory pressure have none.
    [
      ["--byte-scale", "1"],
      "--byte-scale 1 is too small for 4 producers and 4 consumers: their stores (4 GiB per producer and 4 GiB per consumer) would take 32.0 GiB of real memory, over the 2 GiB a run may use; give --byte-scale 16 or more, or fewer --producers or --consumers",
    ],
    [
      ["--byte-scale", "9", "--faults", "heavy"],
      "--byte-scale 9 is too small for 4 producers and 4 consumers: their stores (4 GiB per producer, x 0.25 under --faults heavy, and 4 GiB per consumer) would take 2.2 GiB of real memory, over the 2 GiB a run may use; give --byte-scale 10 or more, or fewer --producers or --consumers",
    ],
    [["--bogus"], "unknown option --bogus"], // more than 2 edits from every option: no suggestion
    // A misspelt option is named with the one it is within 2 edits of (any case).
    [["--request", "5"], "unknown option --request (did you mean --requests?)"],
    [["--byte_scale=16"], "unknown option --byte_scale (did you mean --byte-scale?)"],
    [["--SEED", "5"], "unknown option --SEED (did you mean --seed?)"],
    [["--fault", "none"], "unknown option --fault (did you mean --faults?)"],
    [["--seed"], "--seed needs a value"],
    [["--json=yes"], "--json does not take a value"],
    [["--help=1"], "--help does not take a value"], // (named "-h," before)
    [["--budget", "1.5ms"], "--budget must be a whole number of ms from 1ms to 60m (e.g. 1500ms, 2s); got 1.5ms"], // (named budgetMs before)
    [["--budget", "16.1s", "--step", "0.5ms"], `--step ${DURATION} got "0.5ms"`], // 16.1 s is 16100 ms exactly: the step is what is wrong
    [["extra"], 'unexpected argument "extra"; every option is a --flag'],
    [["--", "--producers", "2"], 'unexpected argument "--producers" after "--", which ends the options; drop the "--"'],
    [["--report", "r.html", "--runs", "2"], "--report writes the report of one run; drop --runs 2 or --report"],
  ];
  it.each(cases)("%j", async (argv, message) => {
    const r = await run("simulate", ...argv);
    expect(r.code).toBe(EXIT_USAGE);
    // One line, then where the options are: the whole usage pushed the error off the screen.
    expect(r.err).toBe(`ectp simulate: ${message}\n${SIMULATE_USAGE_HINT}\n`);
    expect(r.out).toBe("");
  });

  it("the line after an error says where the options are", () => {
    expect(SIMULATE_USAGE_HINT).toBe('Usage: ectp simulate [options]; run "ectp simulate --help" for the options');
  });

  it("a report directory that cannot be created (under /proc) is refused before the run", async () => {
    const r = await run("simulate", "--report", "/proc/ectp-none/x.html");
    expect(r.code).toBe(EXIT_USAGE);
    expect(r.first).toMatch(
      /^ectp simulate: --report cannot write "\/proc\/ectp-none\/x\.html": (directory \/proc\/ectp-none does not exist and cannot be created: \/proc takes no new directories \(ENOENT\)|.*EACCES.*)$/,
    );
    expect(r.out).toBe("");
  });

  it("a report directory that takes no new files, though access() may call it writable (/proc as root), is refused before the run", async () => {
    const r = await run("simulate", "--report", "/proc/x.html");
    expect(r.code).toBe(EXIT_USAGE);
    // As root, access() lets /proc pass and the probe file finds it takes none; otherwise access() refuses it.
    expect(r.first).toMatch(/^ectp simulate: --report cannot write "\/proc\/x\.html": (\/proc takes no new files \(ENOENT\)|.*EACCES.*)$/);
    expect(r.out).toBe("");
  });

  it("an argument node's parser fails on without a known error code (a non-string from a JavaScript caller) is a usage error carrying node's message, not a throw", async () => {
    const r = await run("simulate", "--quiet", undefined as unknown as string);
    expect(r.code).toBe(EXIT_USAGE);
    // Node's own words (a TypeError about the undefined argument), whichever its version.
    expect(r.first).toMatch(/^ectp simulate: \S.*\bundefined\b/);
    expect(r.err.endsWith(`\n${SIMULATE_USAGE_HINT}\n`)).toBe(true);
    expect(r.out).toBe("");
  });
});

describe("ectp simulate runs", () => {
  it("--json prints one JSON summary; exit 0 without violations", async () => {
    const r = await run("simulate", "--requests", "30", "--producers", "2", "--consumers", "2", "--concurrency", "8", "--json");
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out);
    expect(Object.keys(s)[0]).toBe("format"); // first, naming the shape: a sweep's differs
    expect(s.format).toBe(SIMULATION_JSON_FORMAT);
    expect(SIMULATION_JSON_FORMAT).toBe("ectp-simulation/1");
    expect(s.requests.total).toBe(30);
    expect(s.violations.count).toBe(0);
    expect(s.bytes.scale).toBe(16384);
    expect(r.err).toBe("");
  });

  it("prints the summary table and a sweep table with seeds/s", async () => {
    const one = await run("simulate", "--requests", "20", "--concurrency", "8", "--faults", "light", "--quiet");
    expect(one.code).toBe(0);
    for (const row of ["succeeded remote", "fell back to local encoding", "failed", "simulated throughput", "admission wait p50 / p99", "retries", "quarantines", "pins at end", "faults injected", "crash effects", "store evictions / store full", "invariant violations", "wall time", "byte scale"])
      expect(one.out).toContain(row);
    const sweep = await run("simulate", "--requests", "10", "--concurrency", "4", "--runs", "3", "--seed", "5", "--quiet");
    expect(sweep.code).toBe(0);
    expect(sweep.out).toContain("5..7 (3 runs)");
    expect(sweep.out).toContain("seeds/s");
  });
});

describe("ectp simulate bounds and reproduce commands", () => {
  it("--help states every bound", async () => {
    const { out } = await run("simulate", "--help");
    for (const bound of ["1..1000", "1..100000", "1..10000000", "-2147483648..2147483647", "the last at most 2147483647", "1..1048576", "from 1ms to 60m", "1..100000"])
      expect(out).toContain(bound);
  });

  it("the extreme seeds run, a negative one written --seed=-5", async () => {
    const low = await run("simulate", "--seed=-2147483648", "--runs", "2", "--requests", "5", "--quiet");
    expect(low.code).toBe(0);
    expect(low.out).toContain("-2147483648..-2147483647 (2 runs)");
    const high = await run("simulate", "--seed", "2147483647", "--requests", "5", "--quiet");
    expect(high.code).toBe(0);
  });

  it("the printed reproduce command is accepted and reruns the same simulation", async () => {
    const first = await run("simulate", "--seed=-3", "--step", "1.5ms", "--budget", "60m", "--requests", "10", "--byte-scale", "1048576", "--json");
    expect(first.code).toBe(0);
    const s = JSON.parse(first.out);
    // `npx @ectp/cli`: `npx ectp` outside a project with @ectp/cli offered to install npm's unrelated `ectp`.
    expect(s.reproduce).toBe("npx @ectp/cli simulate --seed=-3 --faults light --requests 10 --byte-scale 1048576 --step 1.5ms --budget 60m");
    const again = await run(...s.reproduce.replace("npx @ectp/cli ", "").split(" "), "--json");
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out).eventLog.hash).toBe(s.eventLog.hash);
  });

  it("--json keeps faults apart from store evictions, crash effects and cancelled requests", async () => {
    const r = await run("simulate", "--faults", "none", "--requests", "30", "--json");
    const s = JSON.parse(r.out);
    expect(Object.values(s.faultsInjected).every((n) => n === 0)).toBe(true);
    expect(s.storeEvents).toEqual({ evictions: expect.any(Number), storeFull: expect.any(Number) });
    expect(s.crashEffects).toEqual({ restarts: 0, consumerRestarts: 0, messagesLost: 0, readsFailed: 0 });
    expect(s.faultsInjected).not.toHaveProperty("eviction");
    expect(s.faultsInjected).not.toHaveProperty("cancelledRequests");
  });
});

describe("output that cannot be written", () => {
  it("a report that cannot be written after the run: the summary is printed all the same, exit 74", async () => {
    const r = await run("simulate", "--requests", "10", "--quiet", "--report", "/dev/full");
    expect(r.code).toBe(EXIT_IO);
    expect(r.out).toContain("invariant violations");
    expect(r.err).toMatch(/^ectp simulate: --report could not write "\/dev\/full": ENOSPC/);
  });

  // Mutant: other stream errors are rethrown (`simulate --json > /dev/full` printed a stack trace and
  // exited 1, the status of invariant violations; `2>/dev/full` turned a clean run's 0 into 1).
  it("standard output closed by its reader ends the process with 141, any other standard output error with 74 and one line; standard error errors are ignored", () => {
    const stdout = new EventEmitter();
    const stderr = new EventEmitter();
    const exits: number[] = [];
    const warned: string[] = [];
    handleClosedStreams(stdout, stderr, (code) => exits.push(code), (t) => warned.push(t));
    const epipe = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    const enospc = Object.assign(new Error("write ENOSPC"), { code: "ENOSPC" });
    stderr.emit("error", epipe);
    stderr.emit("error", enospc);
    expect(exits).toEqual([]);
    stdout.emit("error", epipe);
    expect(exits).toEqual([EXIT_OUTPUT_CLOSED]);
    stdout.emit("error", enospc);
    expect(exits).toEqual([EXIT_OUTPUT_CLOSED, EXIT_IO]);
    expect(warned).toEqual(["ectp: cannot write standard output (ENOSPC); the results are lost\n"]);
  });

  it("a simulation whose output goes to a full disk exits 74 with one line, no stack trace; one whose standard error does keeps its status", () => {
    const bin = join(here, "..", "dist", "bin.js");
    const full = openSync("/dev/full", "w");
    try {
      const out = spawnSync(process.execPath, [bin, "simulate", "--requests", "10", "--json"], { stdio: ["ignore", full, "pipe"], encoding: "utf8" });
      expect(out.status).toBe(EXIT_IO);
      expect(out.stderr).toBe("ectp: cannot write standard output (ENOSPC); the results are lost\n");
      const err = spawnSync(process.execPath, [bin, "simulate", "--requests", "10", "--quiet"], { stdio: ["ignore", "pipe", full], encoding: "utf8" });
      expect(err.status).toBe(0);
      expect(err.stdout).toContain("invariant violations            0");
    } finally {
      closeSync(full);
    }
  });
});

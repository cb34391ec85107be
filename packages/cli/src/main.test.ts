import { describe, expect, it } from "vitest";
import { type CliIO, EXIT_USAGE, SIMULATE_USAGE, USAGE, main } from "./index.js";

function capture(): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    errIsTTY: false,
    out(t: string) {
      io.stdout += t;
    },
    err(t: string) {
      io.stderr += t;
    },
  };
  return io;
}

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
  });

  it("a missing or unknown command is a usage error (exit 2)", async () => {
    expect(await run()).toMatchObject({ code: EXIT_USAGE, first: "ectp: missing command" });
    expect(await run("simulte")).toMatchObject({
      code: EXIT_USAGE,
      first: 'ectp: unknown command "simulte"; expected simulate or conformance',
    });
  });
});

describe("ectp simulate argument errors: exact message, usage, exit 2", () => {
  const cases: [string[], string][] = [
    [["--faults", "extreme"], '--faults must be one of none, light, heavy, chaos; got "extreme"'],
    [["--step", "10"], '--step must be a positive duration with a unit: ms, s or m (e.g. 10ms, 2s, 1m); got "10"'],
    [["--budget", "5h"], '--budget must be a positive duration with a unit: ms, s or m (e.g. 10ms, 2s, 1m); got "5h"'],
    [["--encode-time", "0ms"], '--encode-time must be a positive duration with a unit: ms, s or m (e.g. 10ms, 2s, 1m); got "0ms"'],
    [["--requests", "0"], '--requests must be an integer >= 1; got "0"'],
    [["--producers", "2.5"], '--producers must be an integer >= 1; got "2.5"'],
    [["--concurrency", "lots"], '--concurrency must be an integer >= 1; got "lots"'],
    [["--seed=-1"], '--seed must be an integer >= 0; got "-1"'],
    [["--seed", "-1"], '--seed needs a value; to pass one that starts with "-", write --seed=<value>'],
    [["--runs", "0"], '--runs must be an integer >= 1; got "0"'],
    [["--metadata-only-fraction", "1.5"], '--metadata-only-fraction must be a number from 0 to 1; got "1.5"'],
    [["--bogus"], "unknown option --bogus"],
    [["--seed"], "--seed needs a value"],
    [["--json=yes"], "--json does not take a value"],
    [["extra"], 'unexpected argument "extra"; every option is a --flag'],
    [["--report", "r.html", "--runs", "2"], "--report writes the report of one run; drop --runs 2 or --report"],
  ];
  it.each(cases)("%j", async (argv, message) => {
    const r = await run("simulate", ...argv);
    expect(r.code).toBe(EXIT_USAGE);
    expect(r.first).toBe(`ectp simulate: ${message}`);
    expect(r.err).toContain(SIMULATE_USAGE);
    expect(r.out).toBe("");
  });
});

describe("ectp simulate runs", () => {
  it("--json prints one JSON summary; exit 0 without violations", async () => {
    const r = await run("simulate", "--requests", "30", "--producers", "2", "--consumers", "2", "--concurrency", "8", "--json");
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out);
    expect(s.requests.total).toBe(30);
    expect(s.violations.count).toBe(0);
    expect(s.bytes.scale).toBe(16384);
    expect(r.err).toBe("");
  });

  it("prints the summary table and a sweep table with seeds/s", async () => {
    const one = await run("simulate", "--requests", "20", "--concurrency", "8", "--faults", "light", "--quiet");
    expect(one.code).toBe(0);
    for (const row of ["succeeded remote", "fell back to local encoding", "failed", "simulated throughput", "admission wait p50 / p99", "retries", "quarantines", "pins at end", "invariant violations", "wall time", "byte scale"])
      expect(one.out).toContain(row);
    const sweep = await run("simulate", "--requests", "10", "--concurrency", "4", "--runs", "3", "--seed", "5", "--quiet");
    expect(sweep.code).toBe(0);
    expect(sweep.out).toContain("5..7 (3 runs)");
    expect(sweep.out).toContain("seeds/s");
  });
});

/**
 * `ectp simulate` flag values and output streams, and ProgressBar edge cases, beyond
 * main.test.ts and commands-and-exits.test.ts.
 */
import { describe, expect, it } from "vitest";
import { type CliIO, EXIT_USAGE, ProgressBar, SIMULATE_USAGE, main } from "./index.js";

function capture(errIsTTY = false): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    errIsTTY,
    out(t: string) {
      io.stdout += t;
    },
    err(t: string) {
      io.stderr += t;
    },
  };
  return io;
}

async function run(argv: string[]) {
  const io = capture(false);
  const code = await main(argv, io);
  return { code, out: io.stdout, err: io.stderr, first: io.stderr.split("\n")[0] };
}

describe("ProgressBar with nothing to do", () => {
  it("a total of 0 draws nothing, on a terminal or not", () => {
    for (const tty of [true, false]) {
      const io = capture(tty);
      const bar = new ProgressBar(io, "x");
      bar.update(0, 0);
      bar.update(1, 0);
      bar.done();
      expect(io.stderr, `tty ${tty}`).toBe("");
    }
  });
});

describe("--metadata-only-fraction decimals", () => {
  it.each([".5", "0.5", "1."])("%s is accepted and used", async (v) => {
    const r = await run(["simulate", "--requests", "3", "--json", "--metadata-only-fraction", v]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).config.metadataOnlyFraction).toBe(Number(v));
  });
  it.each(["-0.1", "1.0001", ".", "", "1e-1"])("%j is refused", async (v) => {
    const r = await run(["simulate", `--metadata-only-fraction=${v}`]);
    expect(r.code).toBe(EXIT_USAGE);
    expect(r.first).toBe(`ectp simulate: --metadata-only-fraction must be a number from 0 to 1 (e.g. 0.25); got "${v}"`);
    expect(r.err).toContain(SIMULATE_USAGE);
    expect(r.out).toBe("");
  });
});

describe("--report naming a directory by a trailing separator", () => {
  it("is refused before the run, even when no such directory exists", async () => {
    for (const path of ["no-such-dir/", "./"]) {
      const r = await run(["simulate", "--requests", "3", "--quiet", "--report", path]);
      expect(r.code).toBe(EXIT_USAGE);
      expect(r.first).toBe(`ectp simulate: --report cannot write "${path}": it ends in a path separator, so it names a directory; name a file`);
      expect(r.out).toBe(""); // no summary: nothing ran
    }
  });
});

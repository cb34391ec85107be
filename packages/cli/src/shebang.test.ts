import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SIMULATION_NODE_FLAGS } from "@ectp/simulator";
import { afterAll, describe, expect, it } from "vitest";
import { BIN_SHEBANG } from "./shebang.js";

const dir = mkdtempSync(join(tmpdir(), "ectp-shebang-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let scripts = 0;

/**
 * Run `source` as a script behind BIN_SHEBANG the way the kernel does: the interpreter
 * (/usr/bin/env) gets the rest of the line as one argument, then the script's path.
 */
function runBehindShebang(source: string): string {
  const space = BIN_SHEBANG.indexOf(" ");
  const file = join(dir, `script${++scripts}.cjs`);
  writeFileSync(file, source);
  return execFileSync(BIN_SHEBANG.slice(2, space), [BIN_SHEBANG.slice(space + 1), file], { encoding: "utf8" });
}

/** The young-generation bound the flags set, in MB per semi-space. */
const semiSpaceMb = Number(/^--max-semi-space-size=(\d+)$/.exec(SIMULATION_NODE_FLAGS.find((f) => f.startsWith("--max-semi-space-size=")) ?? "")?.[1]);

describe("the ectp executable's shebang", () => {
  it("is the first line of the committed launcher that package.json names as the bin (bin/ectp.mjs)", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { bin: Record<string, string>; files: string[] };
    expect(pkg.bin).toEqual({ ectp: "./bin/ectp.mjs" });
    expect(pkg.files).toContain("bin");
    const launcher = readFileSync(new URL("../bin/ectp.mjs", import.meta.url), "utf8");
    expect(launcher.split("\n")[0]).toBe(BIN_SHEBANG);
  });

  it("the launcher, before a build (no dist/bin.js beside it), says to build and exits 70 (not 1: violations), without a stack trace", () => {
    const bin = join(dir, "unbuilt", "bin");
    mkdirSync(bin, { recursive: true });
    copyFileSync(new URL("../bin/ectp.mjs", import.meta.url), join(bin, "ectp.mjs"));
    const r = spawnSync(process.execPath, [join(bin, "ectp.mjs"), "--version"], { encoding: "utf8" });
    expect(r.status).toBe(70);
    expect(r.stderr).toBe("ectp: the CLI is not built yet; run `npm run build` (or `npm run simulate`) at the repository root first\n");
  });

  it("the launcher, with the CLI built but a package it imports not, names that package and exits 70, without a stack trace", () => {
    const root = join(dir, "half-built");
    mkdirSync(join(root, "bin"), { recursive: true });
    mkdirSync(join(root, "dist"), { recursive: true });
    copyFileSync(new URL("../bin/ectp.mjs", import.meta.url), join(root, "bin", "ectp.mjs"));
    writeFileSync(join(root, "dist", "bin.js"), 'import "@ectp/not-built-here";\n');
    const r = spawnSync(process.execPath, [join(root, "bin", "ectp.mjs"), "--version"], { encoding: "utf8" });
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(/^ectp: a package the CLI uses is not built yet \(Cannot find package '@ectp\/not-built-here' imported from .*\); run `npm run build`/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    ["a dist/bin.js importing a name its packages' build lacks (a stale build)", 'import { notExportedByThisBuild } from "node:path";\n', /^ectp: the packages are built from different sources \(.*notExportedByThisBuild.*\); run `npm run build`/],
    ["a dist/bin.js that throws as it loads", 'throw new TypeError("boom");\n', /^ectp: the CLI could not be loaded \(boom\); this is a bug: please report it\n$/],
  ])("the launcher, with %s, says so on one line and exits 70 (not 1: violations), without a stack trace", (_what, source, message) => {
    const root = join(dir, `broken-${source.length}`);
    mkdirSync(join(root, "bin"), { recursive: true });
    mkdirSync(join(root, "dist"), { recursive: true });
    copyFileSync(new URL("../bin/ectp.mjs", import.meta.url), join(root, "bin", "ectp.mjs"));
    writeFileSync(join(root, "dist", "bin.js"), source);
    const r = spawnSync(process.execPath, [join(root, "bin", "ectp.mjs"), "--version"], { encoding: "utf8" });
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("starts Node with exactly the simulator's V8 flags, each as its own argument", () => {
    // A flag Node rejects, or two arriving glued together, fails here rather than in a
    // user's `ectp simulate`.
    const got = runBehindShebang("process.stdout.write(JSON.stringify(process.execArgv))");
    expect(JSON.parse(got)).toEqual([...SIMULATION_NODE_FLAGS]);
  });

  it("fits the 127 bytes older Linux kernels (before 5.1) keep of a shebang line", () => {
    // Past them the kernel cuts the line silently, mangling the last flag.
    expect(Buffer.byteLength(BIN_SHEBANG)).toBeLessThanOrEqual(127);
  });

  it("bounds the young generation as --max-semi-space-size says (V8's default lets it grow to 2 x 16 MB)", () => {
    expect(semiSpaceMb).toBeGreaterThan(0);
    expect(semiSpaceMb).toBeLessThan(16); // a bound V8's default would not already keep
    // Enough short-lived garbage that V8 grows the young generation to its maximum.
    const newSpace = runBehindShebang(`
      let keep = [];
      for (let i = 0; i < 3e6; i++) { keep.push({ i }); if (keep.length > 2e5) keep = []; }
      const s = require("node:v8").getHeapSpaceStatistics().find((x) => x.space_name === "new_space");
      process.stdout.write(String(s.space_size));
    `);
    expect(Number(newSpace)).toBeGreaterThan(0);
    expect(Number(newSpace)).toBeLessThanOrEqual(2 * semiSpaceMb * 1024 * 1024);
  });
});

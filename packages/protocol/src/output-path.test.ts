import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EctpError } from "./errors.js";
import { makeDirectories, outputPathProblem } from "./output-path.js";

const work = mkdtempSync(join(tmpdir(), "ectp-output-path-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("outputPathProblem", () => {
  it("passes a new file in an existing directory and an existing writable file, leaving no probe behind", () => {
    const dir = mkdtempSync(join(work, "ok-"));
    expect(outputPathProblem(join(dir, "new.json"))).toBeUndefined();
    writeFileSync(join(dir, "old.json"), "");
    expect(outputPathProblem(join(dir, "old.json"))).toBeUndefined();
    expect(readdirSync(dir)).toEqual(["old.json"]);
  });

  it('refuses "-", a trailing separator and a directory, saying what to name instead', () => {
    expect(outputPathProblem("-")).toBe('it would be a file named "-", not standard output; name a file');
    expect(outputPathProblem(`${work}/sub/`)).toBe("it ends in a path separator, so it names a directory; name a file");
    expect(outputPathProblem(work)).toBe("it is a directory; name a file in it");
  });

  it("refuses an empty or blank path, asking for a file name (it probed the current directory and passed)", () => {
    for (const blank of ["", " ", "\t\n"]) expect(outputPathProblem(blank)).toBe("the path is empty or blank; name a file");
  });

  it("a missing directory is refused unless the write creates it; then the nearest existing one must take a new directory", () => {
    const dir = mkdtempSync(join(work, "missing-"));
    const deep = join(dir, "a", "b", "r.json");
    expect(outputPathProblem(deep)).toBe(`directory ${join(dir, "a", "b")} does not exist`);
    expect(outputPathProblem(deep, { createsDirectories: true })).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses options that are null or no object with INVALID_ARGUMENT (null's TypeError came back as the path's problem; a number meant the default)", () => {
    const deep = join(work, "no-such", "r.json");
    for (const [bad, shown] of [[null, "null"], [[], "an array"], [true, "true"], ["yes", '"yes"']] as const) {
      let thrown: unknown;
      try {
        outputPathProblem(deep, bad as never);
      } catch (e) {
        thrown = e;
      }
      expect(EctpError.is(thrown) && thrown.code).toBe("INVALID_ARGUMENT");
      expect((thrown as EctpError).message).toBe(`[INVALID_ARGUMENT] outputPathProblem: options must be an object { createsDirectories? }; got ${shown}`);
    }
    expect(outputPathProblem(deep, undefined)).toBe(`directory ${join(work, "no-such")} does not exist`);
  });

  it("refuses a path that is not a string with INVALID_ARGUMENT (a number threw a plain TypeError)", () => {
    for (const [bad, shown] of [[5, "5"], [undefined, "nothing"], [null, "null"]] as const)
      expect(() => outputPathProblem(bad as never)).toThrow(`[INVALID_ARGUMENT] outputPathProblem: file must be a path (a string); got ${shown}`);
  });

  it("checks the path as the write opens it: `missing/..` needs `missing` (a lexical resolve would pass it)", () => {
    const through = `${work}/nowhere/../x.json`;
    expect(outputPathProblem(through)).toBe(`directory ${work}/nowhere/.. does not exist`);
    expect(outputPathProblem(through, { createsDirectories: true })).toBeUndefined();
  });

  it("names the file that stands where a directory is needed, however far above", () => {
    const plain = join(work, "plain.txt");
    writeFileSync(plain, "");
    expect(outputPathProblem(join(plain, "r.json"))).toBe(`${plain} is not a directory`);
    expect(outputPathProblem(join(plain, "sub", "r.json"), { createsDirectories: true })).toBe(`${plain} is not a directory`);
  });

  it("checks a dangling symbolic link as its target, whose directory the write never creates", () => {
    const into = join(work, "into-missing.json");
    symlinkSync(join(work, "no-dir", "t.json"), into);
    const why = `it is a symbolic link to ${join(work, "no-dir", "t.json")}, which cannot be written: directory ${join(work, "no-dir")} does not exist`;
    expect(outputPathProblem(into)).toBe(why);
    expect(outputPathProblem(into, { createsDirectories: true })).toBe(why);
    const fine = join(work, "into-work.json");
    symlinkSync(join(work, "target.json"), fine);
    expect(outputPathProblem(fine)).toBeUndefined();
    const loop = join(work, "loop.json");
    symlinkSync(loop, loop);
    expect(outputPathProblem(loop)).toMatch(/ELOOP/);
  });

  it.runIf(process.platform === "linux")("tries a directory that access() may call writable by creating a probe in it (/proc takes none)", () => {
    // As root, access() passes /proc and the probe finds it takes no entries; otherwise access() refuses it.
    expect(outputPathProblem("/proc/ectp-none.json")).toMatch(/^(\/proc takes no new files \(ENOENT\)|.*EACCES.*)$/);
    expect(outputPathProblem("/proc/ectp-none/r.json", { createsDirectories: true })).toMatch(
      /^(directory \/proc\/ectp-none does not exist and cannot be created: \/proc takes no new directories \(ENOENT\)|.*EACCES.*)$/,
    );
  });

  it.runIf(process.getuid?.() !== 0)("refuses a file it may not write (not as root, who may write any)", () => {
    const ro = join(work, "ro.json");
    writeFileSync(ro, "");
    chmodSync(ro, 0o400);
    expect(outputPathProblem(ro)).toMatch(/EACCES/);
  });
});

describe("makeDirectories", () => {
  it("creates every missing directory of a path, also through `..`, which exists once its first part is made", () => {
    const dir = mkdtempSync(join(work, "make-"));
    makeDirectories(join(dir, "a", "b"));
    expect(existsSync(join(dir, "a", "b"))).toBe(true);
    makeDirectories(`${dir}/c/../d`);
    expect(readdirSync(dir).sort()).toEqual(["a", "c", "d"]);
    mkdirSync(join(dir, "e"));
    makeDirectories(join(dir, "e")); // already there: nothing to do
  });

  it("refuses a directory that is not a string with INVALID_ARGUMENT (a number threw a plain TypeError)", () => {
    for (const [bad, shown] of [[42, "42"], [undefined, "nothing"], [null, "null"]] as const) {
      let thrown: unknown;
      try {
        makeDirectories(bad as never);
      } catch (e) {
        thrown = e;
      }
      expect(EctpError.is(thrown) && thrown.code).toBe("INVALID_ARGUMENT");
      expect((thrown as EctpError).message).toBe(`[INVALID_ARGUMENT] makeDirectories: dir must be a path (a string); got ${shown}`);
    }
  });

  it.runIf(process.platform === "linux")("fails with ENOENT, without spinning, where a parent cannot hold directories (/proc)", () => {
    expect(() => makeDirectories("/proc/ectp-none/x")).toThrow(/ENOENT/);
  });
});

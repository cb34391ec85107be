/**
 * `ectp conformance --junit` and `--report` paths that can never be written are refused before
 * any testee is started, as a usage error (exit 2, the message, then the usage), the way
 * `ectp simulate --report` refuses its path: a directory that looks writable but takes no new
 * entries (/proc), and a dangling symbolic link whose target's directory is missing. Before, the
 * whole suite ran and the run then exited 74 with ENOENT. The check leaves nothing behind.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, expectUsageError, fakeTestee, procRefusal } from "./test-support.js";

// This file's scratch folders are made in one folder, removed after its tests, passed or failed.
const work = mkdtempSync(join(tmpdir(), "ectp-cli-output-paths-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A testee that only records that it was started (in `marker`), then waits for EOF. */
function markingTestee(marker: string): string {
  return fakeTestee(
    "marking",
    `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(marker)}, "started"); process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`,
  );
}

function tempDir(): string {
  return mkdtempSync(join(work, "cli-output-"));
}

/** Why a new directory under /proc is refused, as root. */
const NO_DIRECTORY = "directory /proc/ectp-none does not exist and cannot be created: /proc takes no new directories (ENOENT)";

describe.runIf(process.platform === "linux")("output paths under a directory that takes no new entries (/proc)", () => {
  it.each([
    ["--junit", "/proc/ectp-none/x.xml", procRefusal(NO_DIRECTORY)],
    ["--junit", "/proc/ectp-none/deeper/x.xml", procRefusal(NO_DIRECTORY)],
    ["--report", "/proc/ectp-none/r.json", procRefusal(NO_DIRECTORY)],
    ["--junit", "/proc/ectp-none.xml", procRefusal("/proc takes no new files (ENOENT)")],
  ])("%s %s is a usage error, and no testee is started", async (flag, path, why) => {
    const marker = join(tempDir(), "started");
    const r = await cli("--testee", markingTestee(marker), flag, path);
    expectUsageError(r, `ectp conformance: ${flag} cannot write ${JSON.stringify(path)}: ${why}; nothing was run`);
    expect(existsSync(marker)).toBe(false);
  });

  it("a --transport run is refused the same way, before any case", async () => {
    const r = await cli("--transport", "mock", "--junit", "/proc/nope/x.xml");
    expectUsageError(r, `--junit cannot write "/proc/nope/x.xml": ${procRefusal("directory /proc/nope does not exist and cannot be created")}`);
    expect(r.out).not.toContain("PASS");
  });
});

describe("other output paths checked before the run", () => {
  it("a dangling symbolic link whose target's directory is missing (the write would not create it)", async () => {
    const dir = tempDir();
    const link = join(dir, "link.xml");
    symlinkSync(join(dir, "missing", "t.xml"), link);
    const marker = join(dir, "started");
    const r = await cli("--testee", markingTestee(marker), "--junit", link);
    expectUsageError(
      r,
      `--junit cannot write ${JSON.stringify(link)}: it is a symbolic link to ${join(dir, "missing", "t.xml")}, which cannot be written: directory ${join(dir, "missing")} does not exist; nothing was run`,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it("a dangling symbolic link into an existing directory is written through, and the check leaves no probe behind", async () => {
    const dir = tempDir();
    const link = join(dir, "link.xml");
    symlinkSync(join(dir, "t.xml"), link);
    const r = await cli("--transport", "mock", "--filter", "transport/mock/byte-exact-*", "--junit", link, "--report", join(dir, "new", "r.json"));
    expect(r.code, r.err).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["link.xml", "new", "t.xml"]);
    expect(readdirSync(join(dir, "new")).sort()).toEqual(["r.ectp-report.json", "r.json"]);
  }, 60_000);

  it("a path through `..` of a directory the run creates is written as given (it used to fail with EEXIST after the run)", async () => {
    const dir = tempDir();
    const through = `${dir}/made/../j.xml`;
    const r = await cli("--transport", "mock", "--filter", "transport/mock/byte-exact-*", "--junit", through);
    expect(r.code, r.err).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["j.xml", "made"]);
  }, 60_000);
});

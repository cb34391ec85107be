/**
 * `ectp conformance` says how to run a failure again: a failed scripted case, like a failed seed,
 * ends with a `replay:` command keeping the run's flags, and that command starts `npx ectp
 * conformance` (`ectp` alone is not on the PATH of a clone, or of a project that installed
 * @ectp/cli locally). Both failed before their fix (2026-12-05).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, fakeTestee } from "./test-support.js";

const dir = mkdtempSync(join(tmpdir(), "ectp-cli-replay-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** JSON lines: answers Init, then every command with an Error (every case and seed fails). */
const failing = () =>
  fakeTestee(
    "answers-error",
    `import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line);
  const body = req.init ? { init: { protocolVersion: 1 } } : { error: { message: "not implemented" } };
  process.stdout.write(JSON.stringify({ commandId: req.commandId, ...body }) + "\\n");
});
process.stdin.on("end", () => process.exit(0));`,
  );

describe("replay commands", () => {
  const CASE = "consumer/c1-admission/local-item-is-ready";

  it("a failed scripted case ends with the command that runs it alone, with the run's flags", async () => {
    const testee = failing();
    const features = file("features.json", JSON.stringify({ features: ["consumer", "producer"] }));
    const known = file("known.json", JSON.stringify({ "consumer/c1-admission/no-announcement-with-model-input-encodes-locally": "not this one" }));
    const r = await cli(
      "--testee", testee, "--json-lines", "--features", features, "--known-failing", known, "--command-timeout-ms", "4000",
      "--case-timeout-ms", "30000", "--level", "all", "--filter", CASE, "--report", join(dir, "report.json"),
    );
    expect(r.code).toBe(1);
    const replay = `replay: npx ectp conformance --testee '${testee.replace(/'/g, "'\\''")}' --json-lines --features ${features} --known-failing ${known} --command-timeout-ms 4000 --case-timeout-ms 30000 --level all --filter ${CASE}`;
    expect(r.out).toContain(`FAIL ${CASE} [`);
    expect(r.out).toContain(`\n  ${replay}\n`);
    expect(r.out.split(replay)).toHaveLength(2); // once
  }, 30_000);

  it("a failed seed's replay command starts npx ectp conformance", async () => {
    const testee = failing();
    const features = file("features-seeds.json", JSON.stringify({ features: ["consumer", "producer", "read-memory"] }));
    const r = await cli("--testee", testee, "--json-lines", "--features", features, "--seed", "3");
    expect(r.code).toBe(1);
    expect(r.out).toContain(`\n  replay: npx ectp conformance --testee '${testee.replace(/'/g, "'\\''")}' --json-lines --features ${features} --seed 3\n`);
  }, 30_000);
});

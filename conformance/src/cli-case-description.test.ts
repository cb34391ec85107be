/**
 * `ectp conformance`: the line a failed scripted case prints with its description (`case: ...`),
 * for a case whose description is empty or only blanks (the loader takes any text there).
 */
import { describe, expect, it, vi } from "vitest";
import { cli, fakeTestee } from "./test-support.js";

// Two cases of the built-in suites, their descriptions blanked.
vi.mock("./cases/load.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("./cases/load.js")>();
  const blank: Record<string, string> = { "consumer/c1-admission/local-item-is-ready": "", "consumer/c1-admission/no-announcement-with-model-input-encodes-locally": " \n\t " };
  return {
    ...real,
    loadCases: (...args: Parameters<typeof real.loadCases>) =>
      real.loadCases(...args).map((c) => (Object.hasOwn(blank, c.fullName) ? { ...c, spec: { ...c.spec, description: blank[c.fullName] } } : c)),
  };
});

/** JSON lines: answers Init, then every command with an Error (every case fails). */
const failing = () =>
  fakeTestee(
    "answers-error-blank-description",
    `import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line);
  const body = req.init ? { init: { protocolVersion: 1 } } : { error: { message: "not implemented" } };
  process.stdout.write(JSON.stringify({ commandId: req.commandId, ...body }) + "\\n");
});
process.stdin.on("end", () => process.exit(0));`,
  );

describe("a failed case whose description is empty or blank", () => {
  it.each([
    ["empty", "consumer/c1-admission/local-item-is-ready"],
    ["only blanks", "consumer/c1-admission/no-announcement-with-model-input-encodes-locally"],
  ])("prints no case: line when it is %s, its reason followed by its replay command", async (_what, name) => {
    const r = await cli("--testee", failing(), "--json-lines", "--filter", name);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`FAIL ${name} [`);
    expect(r.out).not.toMatch(/case:/);
    expect(r.out).toMatch(/\(the case begins with no configure step\)\n {2}replay: /);
  }, 30_000);
});

/**
 * `ectp conformance`: the line a failed scripted case prints with its description (`case: ...`),
 * for a case whose description is empty or only blanks (the loader takes any text there).
 */
import { describe, expect, it, vi } from "vitest";
import { answersErrorTestee, cli } from "./test-support.js";

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

const failing = () => answersErrorTestee("answers-error-blank-description");

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

/**
 * The library's entry points called wrongly, as an adopter might: each refuses at once with
 * EctpError(INVALID_ARGUMENT) naming what is wrong, rather than running another selection than the
 * one asked for, throwing a raw file-system or TypeError, or failing every case with a runner error.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { EctpError } from "@ectp/protocol";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadCases, packageFolder } from "./cases/load.js";
import { coreSourceDir, loadMutants } from "./mutants/build.js";
import { runMutants } from "./mutants/run.js";
import { runRandomised } from "./random/randomised.js";
import { runSubscriberRandomised } from "./random/subscriber-randomised.js";
import { runScriptedCase } from "./runner/script.js";
import { runSuite, selectCases } from "./runner/suite.js";
import { runSystemLevel } from "./system/system-level.js";
import { inProcessTsTestee } from "./test-support.js";
import { mockTransportHarness } from "./transport/mock-harness.js";
import { type TransportHarness, runTransportConformance } from "./transport/transport-suite.js";

/** The EctpError `run` throws or rejects with (fails the test for anything else, or nothing). */
async function refusal(run: () => unknown): Promise<EctpError> {
  try {
    await run();
  } catch (err) {
    if (EctpError.is(err)) return err;
    throw new Error(`expected an EctpError, got ${String(err)}`);
  }
  throw new Error("expected an EctpError, but the call succeeded");
}

const all = loadCases();
const anyCall = (f: unknown): (() => unknown) => f as () => unknown;

describe("selectCases", () => {
  it("refuses a level it does not know, naming the value and the allowed ones (it ran the REQUIRED cases)", async () => {
    for (const level of ["REQUIRED", "bogus", 1]) {
      const err = await refusal(() => selectCases(all, { level: level as "all" }));
      expect(err.code).toBe("INVALID_ARGUMENT");
      expect(err.message).toContain(`got ${JSON.stringify(level)}`);
      expect(err.message).toContain('level must be "required" or "all"');
    }
    expect((await refusal(() => selectCases(all, { level: "REQUIRED" as "all" }))).message).toContain('(did you mean "required"?)');
  });

  it("keeps selecting by the levels it knows", () => {
    const required = selectCases(all, {});
    expect(selectCases(all, { level: "required" })).toEqual(required);
    expect(required.every((c) => c.spec.level === "REQUIRED")).toBe(true);
    expect(selectCases(all, { level: "all" })).toHaveLength(all.length);
    expect(required.length).toBeLessThan(all.length);
  });

  it("refuses a filter that is not a string (a number selected nothing) and cases or options that are not what it takes", async () => {
    const filter = await refusal(() => selectCases(all, { filter: 5 as unknown as string }));
    expect(filter.message).toBe('[INVALID_ARGUMENT] selectCases: filter must be a glob over case names (a string) such as "consumer/c3-*"; got 5');
    expect((await refusal(anyCall(() => (selectCases as (...a: unknown[]) => unknown)(all)))).message).toContain("selectCases: options must be an object");
    expect((await refusal(() => selectCases("cases" as unknown as [], {}))).message).toContain("selectCases: cases must be an array");
  });
});

/** Temporary folders the tests make, each removed after its test. */
const made: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), "ectp-entry-"));
  made.push(d);
  return d;
};
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("loadCases", () => {
  it("refuses a missing folder, naming it and what to pass, with the file system's error as cause (it threw a raw ENOENT)", async () => {
    const dir = join(tempDir(), "no-such-folder");
    const err = await refusal(() => loadCases(dir));
    expect(err.code).toBe("INVALID_ARGUMENT");
    expect(err.message).toContain(`loadCases: ${dir} cannot be read (`);
    expect(err.message).toContain("pass the folder that holds the case files");
    expect((err.cause as NodeJS.ErrnoException).code).toBe("ENOENT");
  });

  it("refuses a path that is a file, not a folder", async () => {
    const file = join(tempDir(), "suite.json");
    writeFileSync(file, "{}");
    const err = await refusal(() => loadCases(file));
    expect(err.message).toContain(`loadCases: ${file} cannot be read (`);
    expect((err.cause as NodeJS.ErrnoException).code).toBe("ENOTDIR");
  });

  it("refuses an entry or case file under the folder that cannot be read, naming it, with the cause (an unreadable file was said to be no valid JSON)", async () => {
    // A broken link fails to stat; a link to /proc/self/mem stats as a regular file whose read fails (EIO), even for root, who may read any mode.
    for (const [target, code] of [["nowhere.json", "ENOENT"], ["/proc/self/mem", "EIO"]] as const) {
      const dir = tempDir();
      mkdirSync(join(dir, "consumer"));
      const link = join(dir, "consumer", "unreadable.json");
      symlinkSync(target.startsWith("/") ? target : join(dir, target), link);
      const err = await refusal(() => loadCases(dir));
      expect(err.message, code).toContain(`loadCases: ${link} cannot be read (`);
      expect(err.message, code).toContain(`it is under the cases folder ${dir}: fix or remove it`);
      expect((err.cause as NodeJS.ErrnoException).code).toBe(code);
    }
  });

  it("refuses a folder that holds no case file, naming it (it loaded no case, and a run of none passed every testee)", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "consumer"));
    writeFileSync(join(dir, "consumer", "notes.txt"), "not a case file");
    const err = await refusal(() => loadCases(dir));
    expect(err.code).toBe("INVALID_ARGUMENT");
    expect(err.message).toBe(`[INVALID_ARGUMENT] loadCases: ${dir} holds no case files (*.json, in subfolders too); pass the folder that holds them, or omit it for the package's own`);
  });

  it("refuses a dir that is not a path", async () => {
    expect((await refusal(() => loadCases(7 as unknown as string))).message).toContain("loadCases: dir must be the path of a folder of case files");
  });
});

describe("coreSourceDir and loadMutants, which must work alike from a clone and from an installed package", () => {
  const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

  it("finds the repository's @ectp/core source from this package", () => {
    expect(coreSourceDir()).toBe(join(packageRoot, "..", "packages", "core", "src"));
  });

  it("never takes another project's packages/core for @ectp/core's (it took the first packages/core/src above, or the working directory's)", async () => {
    const project = tempDir();
    mkdirSync(join(project, "packages", "core", "src"), { recursive: true });
    writeFileSync(join(project, "packages", "core", "package.json"), JSON.stringify({ name: "my-engine-core" }));
    const from = join(project, "node_modules", "@ectp", "conformance", "dist");
    const err = await refusal(() => coreSourceDir(from));
    expect(err.code).toBe("INVALID_ARGUMENT");
    expect(err.message).toContain(`the npm packages do not ship, and none is in a folder above ${from}; run mutants from a clone of the repository`);
  });

  it("finds a shipped folder beside the package's package.json, and refuses one that is not there rather than taking the working directory's", async () => {
    expect(packageFolder("mutants")).toBe(join(packageRoot, "mutants"));
    const err = await refusal(() => packageFolder("no-such-folder"));
    expect(err.code).toBe("INVALID_ARGUMENT");
    expect(err.message).toContain("the no-such-folder folder of @ectp/conformance is not beside its package.json above");
  });

  it("loads the package's own mutants by default: its mutants folder, not one found from the core's source", () => {
    const own = loadMutants(join(packageRoot, "mutants"));
    expect(own.length).toBeGreaterThan(0);
    expect(loadMutants()).toEqual(own);
  });

  it("refuses a missing mutants folder or a file that is not JSON, naming it, with the cause (a raw ENOENT or SyntaxError)", async () => {
    const missing = join(tempDir(), "none");
    const gone = await refusal(() => loadMutants(missing));
    expect(gone.message).toContain(`loadMutants: ${missing} cannot be read (`);
    expect((gone.cause as NodeJS.ErrnoException).code).toBe("ENOENT");
    const dir = tempDir();
    writeFileSync(join(dir, "x1-broken.json"), "{ not json");
    const bad = await refusal(() => loadMutants(dir));
    expect(bad.message).toContain(`loadMutants: ${dir}${sep}x1-broken.json is not valid JSON (`);
    expect(bad.cause).toBeInstanceOf(SyntaxError);
  });
});

describe("runSuite", () => {
  it("rejects at once without a testee factory, naming it (it resolved with every case failed: make is not a function)", async () => {
    const onResult = vi.fn();
    for (const testee of [undefined, 5]) {
      const err = await refusal(() => runSuite({ testee: testee as unknown as () => never, cases: all.slice(0, 2), onResult }));
      expect(err.code).toBe("INVALID_ARGUMENT");
      expect(err.message).toContain("runSuite: options.testee must be a function that makes a testee connection");
    }
    expect(onResult).not.toHaveBeenCalled();
    expect((await refusal(anyCall(() => (runSuite as (...a: unknown[]) => unknown)()))).message).toContain("runSuite: options must be an object");
  });

  it("rejects a misspelt option and a level it does not know before starting a testee", async () => {
    const testee = vi.fn(inProcessTsTestee);
    const misspelt = await refusal(() => runSuite({ testee, cases: all.slice(0, 1), knownFailng: new Map() } as never));
    expect(misspelt.message).toContain("options.knownFailng is not an option of runSuite (did you mean knownFailing?)");
    expect((await refusal(() => runSuite({ testee, cases: all.slice(0, 1), level: "ALL" as "all" }))).message).toContain('(did you mean "all"?)');
    expect(testee).not.toHaveBeenCalled();
  });
});

describe("the option values the run functions share", () => {
  it("runSuite refuses features given as a string (read as its letters, every case skipped), a knownFailing that is not a Map, a time and a callback of the wrong kind, before starting a testee", async () => {
    const testee = vi.fn(inProcessTsTestee);
    const cases = all.slice(0, 1);
    const bad: [Record<string, unknown>, string][] = [
      [{ features: "consumer" }, 'runSuite: options.features must be the feature names claimed (a Set or array of strings), such as ["consumer"]; got "consumer"'],
      [{ features: [1] }, "runSuite: options.features must be the feature names claimed"],
      [{ knownFailing: { "consumer/x/y": "why" } }, "runSuite: options.knownFailing must be a Map of case names to reasons"],
      [{ caseTimeoutMs: 0 }, "runSuite: options.caseTimeoutMs must be a positive number of ms, or omitted for the default; got 0"],
      [{ caseTimeoutMs: "5000" }, "runSuite: options.caseTimeoutMs must be a positive number of ms"],
      [{ onResult: "log" }, 'runSuite: options.onResult must be a function that the run calls back; got "log"'],
      [{ onWarning: {} }, "runSuite: options.onWarning must be a function"],
    ];
    for (const [options, message] of bad) {
      const err = await refusal(() => runSuite({ testee, cases, ...options } as never));
      expect(err.code, JSON.stringify(options)).toBe("INVALID_ARGUMENT");
      expect(err.message, JSON.stringify(options)).toContain(message);
    }
    expect(testee).not.toHaveBeenCalled();
  });

  it("the randomised levels refuse the same values (a seed time, a duration, replayCommand)", async () => {
    const base = { consumer: inProcessTsTestee, producer: inProcessTsTestee, seeds: [1] };
    expect((await refusal(() => runRandomised({ ...base, seedTimeoutMs: -1 }))).message).toContain("runRandomised: options.seedTimeoutMs must be a positive number of ms");
    expect((await refusal(() => runRandomised({ ...base, durationMs: Number.NaN }))).message).toContain("runRandomised: options.durationMs must be a positive number of ms");
    expect((await refusal(() => runRandomised({ ...base, replayCommand: "ectp" as never }))).message).toContain("runRandomised: options.replayCommand must be a function");
    const sub = { producer: inProcessTsTestee, subscriber: inProcessTsTestee, seeds: [1] };
    expect((await refusal(() => runSubscriberRandomised({ ...sub, features: "producer" as never }))).message).toContain("runSubscriberRandomised: options.features must be the feature names claimed");
  });

  it("accepts every shared option in its documented form (a Set or an array of features)", async () => {
    const report = await runSuite({
      testee: inProcessTsTestee,
      cases: all.slice(0, 1),
      features: ["consumer", "producer"],
      knownFailing: new Map(),
      caseTimeoutMs: 60_000,
      onResult: () => {},
      onWarning: () => {},
    });
    expect(report.results).toHaveLength(1);
  });
});

describe("runScriptedCase", () => {
  const c = all[0] as (typeof all)[number];
  const features = new Set(["consumer", "producer"]);

  it("rejects a missing connection, options or case, naming the argument (it threw a TypeError)", async () => {
    expect((await refusal(() => runScriptedCase(c, undefined as never, { features }))).message).toContain("runScriptedCase: conn.request must be a function");
    const conn = await inProcessTsTestee();
    try {
      expect((await refusal(() => runScriptedCase(c, conn, undefined as never))).message).toContain("runScriptedCase: options must be an object");
      expect((await refusal(() => runScriptedCase(c, conn, {} as never))).message).toContain("runScriptedCase: options.features must be a Set of the features claimed");
      expect((await refusal(() => runScriptedCase({} as never, conn, { features }))).message).toContain("runScriptedCase: c must be a loaded case");
      expect((await refusal(() => runScriptedCase(c, conn, { features, caseTimeoutMs: 0 }))).message).toContain("runScriptedCase: options.caseTimeoutMs must be a positive number of ms");
    } finally {
      await conn.close();
    }
  });
});

describe("the randomised levels", () => {
  it("runRandomised rejects a missing testee factory or seeds list at once (every seed failed: make is not a function)", async () => {
    const err = await refusal(() => runRandomised({ seeds: [1], consumer: inProcessTsTestee } as never));
    expect(err.code).toBe("INVALID_ARGUMENT");
    expect(err.message).toContain("runRandomised: options.producer must be a function that makes the producer testee connection");
    expect((await refusal(() => runRandomised({ consumer: inProcessTsTestee, producer: inProcessTsTestee } as never))).message).toContain(
      "runRandomised: options.seeds must be an array of safe integers",
    );
    expect((await refusal(() => runRandomised({ consumer: inProcessTsTestee, producer: inProcessTsTestee, seeds: [1], seedTimeout: 5 } as never))).message).toContain(
      "options.seedTimeout is not an option of runRandomised (did you mean seedTimeoutMs?)",
    );
  });

  it("runSubscriberRandomised rejects a missing testee factory and a level it does not know", async () => {
    expect((await refusal(() => runSubscriberRandomised({ seeds: [1], producer: inProcessTsTestee } as never))).message).toContain(
      "runSubscriberRandomised: options.subscriber must be a function",
    );
    const level = await refusal(() => runSubscriberRandomised({ seeds: [1], producer: inProcessTsTestee, subscriber: inProcessTsTestee, level: "REQUIRED" as "all" }));
    expect(level.message).toContain('runSubscriberRandomised: options.level must be "required" or "all" (or omitted, for "required"); got "REQUIRED"');
  });
});

describe("runTransportConformance, runMutants and runSystemLevel", () => {
  it("runTransportConformance rejects no harness, a harness without advance, and an option it does not take", async () => {
    expect((await refusal(anyCall(() => (runTransportConformance as (...a: unknown[]) => unknown)()))).message).toContain(
      "runTransportConformance: h must be a TransportHarness object",
    );
    const { advance: _, ...noAdvance } = mockTransportHarness();
    expect((await refusal(() => runTransportConformance(noAdvance as TransportHarness))).message).toContain("runTransportConformance: h.advance must be a function");
    expect((await refusal(() => runTransportConformance(mockTransportHarness(), { waitTimeout: 5 } as never))).message).toContain(
      "options.waitTimeout is not an option of runTransportConformance (did you mean waitTimeoutMs?)",
    );
  });

  it("runMutants rejects an option it does not take, or a features or caseTimeoutMs of the wrong kind, before building anything", async () => {
    expect((await refusal(() => runMutants({ mutant: [] } as never))).message).toContain("options.mutant is not an option of runMutants (did you mean mutants?)");
    expect((await refusal(() => runMutants({ caseTimeoutMs: 0 }))).message).toContain("runMutants: options.caseTimeoutMs must be a positive number of ms");
    expect((await refusal(() => runMutants({ features: "consumer" as never }))).message).toContain("runMutants: options.features must be the feature names claimed");
  });

  it("runSystemLevel rejects a seed that is not a safe integer (every case failed alike)", async () => {
    const err = await refusal(() => runSystemLevel("x" as unknown as number));
    expect(err.message).toBe('[INVALID_ARGUMENT] runSystemLevel: seed must be a safe integer, such as 1; got "x"');
  });
});

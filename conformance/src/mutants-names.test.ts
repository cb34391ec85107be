/**
 * A mutant's patches may name only what is in scope where they land. The bundles are built by esbuild,
 * which checks no types: a patch naming a variable of the function it was written for, after a
 * refactor moved its line into another function, makes the core throw a ReferenceError there. The core
 * contains it [I1], so cases fail and the mutant still counts as caught, though it plants a crash and
 * not its bug (x115 did, after `readyEntry` took its line out of `onReadRequest`). The runner's
 * `broken` check sees only a mutant that fails every case. Here every mutant's patched files are type
 * checked, and names that do not resolve fail the test; other type errors (a narrowing that an
 * `if (false)` upsets) are allowed, since they change nothing at run time.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { coreSourceDir, loadMutants } from "./mutants/build.js";

/** Diagnostics of a name or member that does not exist (a ReferenceError, or `undefined`, at run time). */
const UNRESOLVED = new Set([
  2304, // Cannot find name 'x'.
  2552, // Cannot find name 'x'. Did you mean 'y'?
  2339, // Property 'x' does not exist on type 'T'.
  2551, // Property 'x' does not exist on type 'T'. Did you mean 'y'?
  2305, // Module 'm' has no exported member 'x'.
  2307, // Cannot find module 'm'.
]);

/** A language service over `packages/<pkg>/src` (tests left out) whose file texts can be replaced. */
function serviceFor(pkg: string) {
  const dir = join(dirname(dirname(coreSourceDir())), pkg);
  const config = ts.getParsedCommandLineOfConfigFile(join(dir, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, " "));
    },
  });
  if (config === undefined) throw new Error(`no tsconfig.json in ${dir}`);
  const files = config.fileNames.filter((f) => !f.endsWith(".test.ts"));
  const texts = new Map<string, string>();
  const versions = new Map<string, number>();
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => files,
    getScriptVersion: (f) => String(versions.get(f) ?? 0),
    getScriptSnapshot: (f) => {
      const text = texts.get(f) ?? ts.sys.readFile(f);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => config.options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  /** Unresolved names in `file` (under src) with `text` in its place, as "line: message". */
  const unresolved = (file: string, text: string): string[] => {
    const path = join(dir, "src", file);
    texts.set(path, text);
    versions.set(path, (versions.get(path) ?? 0) + 1);
    try {
      return service
        .getSemanticDiagnostics(path)
        .filter((d) => UNRESOLVED.has(d.code))
        .map((d) => {
          const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
          return `${pkg}/src/${file}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
        });
    } finally {
      texts.delete(path);
      versions.set(path, (versions.get(path) ?? 0) + 1);
    }
  };
  return { dir, unresolved };
}

describe("mutant patches", () => {
  it("name nothing that is not in scope where they land (every mutant's patched TypeScript files)", () => {
    const services = { core: serviceFor("core"), protocol: serviceFor("protocol") };
    const problems: string[] = [];
    let checked = 0;
    for (const m of loadMutants()) {
      const patched = new Map<string, { pkg: "core" | "protocol"; text: string }>();
      for (const p of m.patches) {
        const pkg = p.package ?? "core";
        const key = `${pkg}/${p.file}`;
        const text = patched.get(key)?.text ?? readFileSync(join(services[pkg].dir, "src", p.file), "utf8");
        patched.set(key, { pkg, text: text.replace(p.find, p.replace) });
      }
      for (const [key, { pkg, text }] of patched) {
        if (!key.endsWith(".ts")) continue; // generated JavaScript: nothing to check
        checked++;
        for (const problem of services[pkg].unresolved(key.slice(pkg.length + 1), text)) problems.push(`${m.name}: ${problem}`);
      }
    }
    expect(checked).toBeGreaterThan(200);
    expect(problems).toEqual([]);
  }, 300_000);

  it("a patch naming a variable of another function is found", () => {
    const core = serviceFor("core");
    const text = readFileSync(join(core.dir, "src", "producer", "producer.ts"), "utf8");
    const find = "    if (!entry.ready) {\n";
    expect(text.split(find)).toHaveLength(2);
    const problems = core.unresolved("producer/producer.ts", text.replace(find, "    if (!entry.ready && rr.expectedSizeBytes === 0) {\n"));
    expect(problems).toEqual([expect.stringMatching(/^core\/src\/producer\/producer\.ts:\d+: Cannot find name 'rr'\.$/)]);
    expect(core.unresolved("producer/producer.ts", text)).toEqual([]);
  }, 120_000);
});

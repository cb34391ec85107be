#!/usr/bin/env node
// `npm run pack:check`: the packages as an engine author gets them from npm.
//
// Packs every published workspace package (`npm pack`, which runs its prepack/postpack), installs
// the tarballs into a new project outside the repository (their dependencies from the npm cache
// or registry, as `npm install` would), and checks there, where no module of the checkout resolves:
//   - each package imports as ESM and requires as CJS, with the export names of its build here;
//   - a file importing every package, and handing announce()'s result to AdmitItem, type-checks (tsc --strict
//     --exactOptionalPropertyTypes, module nodenext, library checks on);
//   - the installed `ectp` prints its version, runs a short simulation with no violation (exit 0), runs
//     the transport level against the mock, and runs scripted cases of the installed conformance
//     suite against the Python reference testee of this checkout (the cases ship in
//     @ectp/conformance; the Python testee does not) and against the installed TS testee;
//   - the installed conformance package loads its own mutants, and `runMutants` refuses to run
//     outside a clone of the repository (the core's source does not ship), saying so;
//   - @ectp/protocol carries spec/proto/ectp/v1 under proto/, and @ectp/conformance all of
//     spec/proto/ectp (testee.proto and the files it imports), byte for byte, and buf compiles each.
// Each check prints a line; the last line is `pack check: N passed, M failed` (exit 1 on a failure;
// when packing or installing fails, that is the one check). Needs the packages built
// (`npm run build`). The project is made under the system's temporary folder and removed after.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { shippedProtosProblem } from "./lib/shipped-protos.mjs";
import { readPackage, workspaceDirs } from "./lib/workspaces.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const published = workspaceDirs(root).filter((dir) => readPackage(dir).private !== true);
const requireHere = createRequire(import.meta.url);
const work = mkdtempSync(join(tmpdir(), "ectp-pack-check-"));
const app = join(work, "app");
let passed = 0;
let failed = 0;

/** Runs a command; returns its exit status and its output (stdout then stderr). */
function run(cmd, args, cwd, timeoutMs = 120_000) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status ?? r.signal ?? r.error?.message, output: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

/** Prints one check's outcome and counts it; `problem` is undefined when the check passed. */
function report(name, problem) {
  if (problem === undefined) {
    passed++;
    console.log(`ok    ${name}`);
  } else {
    failed++;
    console.log(`FAIL  ${name}: ${problem}`);
  }
}

/** The check of a command: it must exit 0 and print every `wanted` text. */
function checkCommand(name, cmd, args, wanted = []) {
  const r = run(cmd, args, app);
  const missing = wanted.filter((text) => !r.output.includes(text));
  if (r.status === 0 && missing.length === 0) return report(name);
  const tail = r.output.trim().split("\n").slice(-5).join("\n      ");
  report(name, `exit ${r.status}${missing.length > 0 ? `, did not print ${JSON.stringify(missing)}` : ""}\n      ${tail}`);
}

/** Packs the published packages and installs them into `app`; returns what failed, if anything. */
function install() {
  const tarballs = join(work, "tgz");
  mkdirSync(tarballs);
  for (const dir of published) {
    const r = run("npm", ["pack", "--silent", "--pack-destination", tarballs], dir);
    if (r.status !== 0) return `npm pack in ${dir} exited ${r.status}:\n${r.output}`;
  }
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), `${JSON.stringify({ name: "ectp-pack-check", private: true, type: "module" })}\n`);
  const files = readdirSync(tarballs).map((f) => join(tarballs, f));
  const r = run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--no-package-lock", ...files], app, 600_000);
  if (r.status !== 0) return `npm install of the tarballs exited ${r.status}:\n${r.output}`;
  return undefined;
}

/**
 * Imports (ESM) and requires (CJS) every package inside the project, in a child process, and
 * compares their export names with those of the build in this checkout.
 */
function checkImports() {
  const packageNames = published.map((dir) => readPackage(dir).name);
  const probe = `import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const names = (m) => Object.keys(m).sort().join(",");
const out = {};
for (const name of ${JSON.stringify(packageNames)}) {
  out[name] = {};
  try { out[name].esm = names(await import(name)); } catch (e) { out[name].esm = "(failed: " + e.message + ")"; }
  try { out[name].cjs = names(require(name)); } catch (e) { out[name].cjs = "(failed: " + e.message + ")"; }
}
console.log(JSON.stringify(out));
`;
  writeFileSync(join(app, "exports.mjs"), probe);
  const r = run(process.execPath, ["exports.mjs"], app);
  let found;
  try {
    found = JSON.parse(r.output);
  } catch {
    return report("imports", `the probe exited ${r.status}: ${r.output.trim()}`);
  }
  for (const dir of published) {
    const { name } = readPackage(dir);
    const built = Object.keys(requireHere(join(dir, "dist", "index.cjs"))).sort().join(",");
    for (const [kind, label] of [["esm", "ESM import"], ["cjs", "CJS require"]]) {
      const got = found[name][kind];
      report(`${name}: ${label}`, got === built ? undefined : `exports ${got}; the build in this checkout exports ${built}`);
    }
  }
}

/** Type-checks, in the project, one file importing every package (no `@types/node` installed there). */
function checkTypes() {
  const lines = published.map((dir, i) => `import * as p${i} from "${readPackage(dir).name}";`);
  lines.push(`export const all = [${published.map((_, i) => `p${i}`).join(", ")}];`);
  // One value of the API handed to another, as engines do: what announce() returns is an admitted item's announcement.
  lines.push(
    'import type { AdmitItem, ProducerCore } from "@ectp/core";',
    "declare const producer: ProducerCore;",
    'export const item: AdmitItem = { itemId: "a", announcement: producer.announce("k"), hasModelInput: true };',
  );
  writeFileSync(join(app, "all.ts"), `${lines.join("\n")}\n`);
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const flags = ["--strict", "--exactOptionalPropertyTypes", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022"];
  checkCommand("types: every package under tsc --strict --exactOptionalPropertyTypes, nodenext", process.execPath, [tsc, "--noEmit", ...flags, "all.ts"]);
}

/** Runs the installed `ectp`: its version, a short simulation, and three conformance runs (the mock transport, the Python testee, the installed TS testee). */
function checkCli() {
  const ectp = join(app, "node_modules", ".bin", "ectp");
  const { version } = readPackage(join(root, "packages", "cli"));
  checkCommand("ectp --version", ectp, ["--version"], [version]);
  const simulation = ["simulate", "--requests", "300", "--quiet"];
  checkCommand("ectp simulate (300 requests)", ectp, simulation, ["invariant violations"]);
  checkCommand("ectp conformance --transport mock", ectp, ["conformance", "--transport", "mock"], ["PASS:"]);
  const python = join(root, "conformance", "testees", "python");
  const testee = ["--testee", `python3 '${join(python, "ectp_testee.py")}'`, "--json-lines", "--features", join(python, "features.json")];
  checkCommand("ectp conformance (consumer/c3-*, Python testee)", ectp, ["conformance", ...testee, "--filter", "consumer/c3-*"], ["PASS:"]);
  // The reference TS testee and its features file, as the conformance README says to run them from an installed package.
  const installed = "node_modules/@ectp/conformance";
  const tsTestee = ["--testee", `node ${installed}/dist/testee-ts.js`, "--features", `${installed}/testees/ts/features.json`];
  checkCommand("ectp conformance (consumer/c3-*, the installed TS testee)", ectp, ["conformance", ...tsTestee, "--filter", "consumer/c3-*"], ["PASS:"]);
}

/** The installed conformance package's mutants: its own files load; running them needs a clone and says so. */
function checkMutants() {
  const script = [
    'import { loadMutants, runMutants } from "@ectp/conformance";',
    'console.log("mutants loaded:", loadMutants().length > 0);',
    "await runMutants().then(",
    '  () => console.log("runMutants resolved"),',
    '  (e) => console.log("runMutants refused:", e.code, e.message),',
    ");",
  ].join("\n");
  const wanted = ["mutants loaded: true", "runMutants refused: INVALID_ARGUMENT", "run mutants from a clone of the repository"];
  checkCommand("@ectp/conformance: loadMutants reads the shipped mutants; runMutants refuses outside a clone", process.execPath, ["--input-type=module", "-e", script], wanted);
}

/**
 * The wire schema a package carries (prepack copies it from spec/proto) for implementers in other
 * languages: `proto/<subdir>` of the installed package holds the same files as spec/proto/<subdir>,
 * byte for byte, every import of a carried file is carried too, and buf compiles the tree.
 */
function checkProtos(pkg, subdir) {
  const problem = shippedProtosProblem({
    specProto: join(root, "spec", "proto"),
    subdir,
    shipped: join(app, "node_modules", pkg, "proto"),
    buf: join(root, "node_modules", ".bin", "buf"),
    imageFile: join(work, `${subdir.replace(/\W/g, "-")}.binpb`),
  });
  report(`${pkg}: proto/ carries spec/proto/${subdir} as it is, imports included, and buf builds it`, problem);
}

try {
  const problem = install();
  report("npm pack and npm install of every published package", problem);
  if (problem === undefined) {
    checkImports();
    checkTypes();
    checkCli();
    checkMutants();
    checkProtos("@ectp/protocol", "ectp/v1");
    checkProtos("@ectp/conformance", "ectp");
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`pack check: ${passed} passed, ${failed} failed`);
if (failed > 0) process.exitCode = 1;

#!/usr/bin/env node
// `npm run ci`: exactly what CI runs (.ci/run calls it after `npm ci`).
//
// Steps, in order; every step runs even after a failure so one run shows every
// problem, and the exit status is non-zero when any step failed:
//   1. check:generated   regenerate src/gen and spec/testdata, fail on a diff
//   2. biome lint        lint of the whole tree (src/gen excluded in biome.json)
//   3. buf lint          spec/proto, STANDARD rules
//   4. buf breaking      spec/ against the last spec-v* tag (skipped before one exists)
//   5. build             turbo run build (generate -> build, dependencies first)
//   6. typecheck         turbo run typecheck (tsc --noEmit per package)
//   7. package lint      turbo run lint (publint --strict, attw --pack --profile node16)
//   8. tests             turbo run test; every package's vitest writes a JSON report
//   9. docs              TypeDoc over every package (warnings are errors)
//  10. scripts tests     vitest over scripts/ (the docs build's TypeDoc plugin and checks)
//  11. pack check        the packed packages installed into a new project: imports, types, `ectp`
//  12. python unittest   the Python testee's own unit tests (stdlib unittest)
//  13. conformance (py)  the conformance suite against the Python testee, JSON-lines mode
//  14. sweep             >= 1,000 seeded simulator runs across fault presets, 0 violations
//  15. main job          `npm run simulate`, the README's first command: the default workload
//                        through the `ectp` executable (its shebang and V8 flags), exit 0
//
// Test counts: vitest writes <package>/.ectp-out/vitest-report.json (git-ignored), and
// scripts/.ectp-out/vitest-report.json for the scripts' own tests;
// any other runner (e.g. the conformance runner) may add files named
// `*.ectp-report.json` under <package>/.ectp-out/ holding {"passed": N, "failed": N}.
// All are summed, and the very last line printed is exactly `N passed, N failed`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { workspaceDirs } from "./lib/workspaces.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const env = {
  ...process.env,
  PATH: `${join(root, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}`,
  TURBO_TELEMETRY_DISABLED: "1",
};
const REPORT_DIR = ".ectp-out";
const VITEST_REPORT = `${REPORT_DIR}/vitest-report.json`;
const TURBO = ["turbo", "run", "--continue", "--output-logs=errors-only"];

const steps = [
  ["check:generated", ["node", "scripts/check-generated.mjs"]],
  ["biome lint", ["biome", "lint", "."]],
  ["buf lint", ["buf", "lint", "spec"]],
  ["buf breaking", ["node", "scripts/buf-breaking.mjs"]],
  ["build", [...TURBO, "build"]],
  ["typecheck", [...TURBO, "typecheck"]],
  ["package lint", [...TURBO, "lint"]],
  [
    "tests",
    [
      "turbo", "run", "test", "--continue", "--output-logs=full", "--",
      "--passWithNoTests", "--reporter=default", "--reporter=json", `--outputFile=${VITEST_REPORT}`,
    ],
  ],
  ["docs", ["node", "scripts/docs.mjs"]],
  [
    "scripts tests",
    ["vitest", "run", "--root", "scripts", "--reporter=default", "--reporter=json", `--outputFile=${VITEST_REPORT}`],
  ],
  [
    "pack check",
    ["node", "scripts/pack-check.mjs"],
    { report: "packages/cli/.ectp-out/pack-check.ectp-report.json", parse: parsePackCheck },
  ],
  [
    "python unittest",
    ["python3", "-m", "unittest", "discover", "-s", "conformance/testees/python"],
    { report: "conformance/.ectp-out/python-unittest.ectp-report.json", parse: parseUnittest },
  ],
  [
    "conformance (python testee)",
    [
      "node", "packages/cli/dist/bin.js", "conformance",
      "--testee", "python3 conformance/testees/python/ectp_testee.py", "--json-lines",
      "--features", "conformance/testees/python/features.json",
      "--known-failing", "conformance/testees/python/known-failing.json",
      "--level", "all", "--seeds", "5",
      "--junit", "conformance/.ectp-out/python-conformance.junit.xml",
      // Writes python-conformance.ectp-report.json beside it with {passed, failed}.
      "--report", "conformance/.ectp-out/python-conformance.json",
    ],
  ],
  [
    "simulator sweep",
    ["node", "packages/simulator/scripts/sweep.mjs", "250"],
    { report: "packages/simulator/.ectp-out/sweep.ectp-report.json", parse: parseSweep },
  ],
  ["main job", ["npm", "run", "--silent", "simulate"]],
];

/** `Ran N tests` plus `OK` or `FAILED (failures=a, errors=b)` from unittest's stderr. */
function parseUnittest(text) {
  const ran = Number(/^Ran (\d+) tests?/m.exec(text)?.[1] ?? Number.NaN);
  if (!Number.isInteger(ran)) return undefined;
  const bad = /^FAILED \(([^)]*)\)/m.exec(text)?.[1] ?? "";
  const count = (k) => Number(new RegExp(`${k}=(\\d+)`).exec(bad)?.[1] ?? 0);
  const failed = count("failures") + count("errors");
  return { passed: ran - failed - count("skipped"), failed };
}

/** pack-check.mjs's last line, `pack check: N passed, M failed`: each line before it is one check. */
function parsePackCheck(text) {
  const m = /^pack check: (\d+) passed, (\d+) failed$/m.exec(text);
  return m ? { passed: Number(m[1]), failed: Number(m[2]) } : undefined;
}

/** The sweep's last line, `sweep: N runs, V violations, ...`: each run is one check. */
function parseSweep(text) {
  const m = /^sweep: (\d+) runs, (\d+) violations/m.exec(text);
  if (!m) return undefined;
  const runs = Number(m[1]);
  const failed = Math.min(runs, Number(m[2]));
  return { passed: runs - failed, failed };
}

const packages = workspaceDirs(root);
const scriptsDir = join(root, "scripts");
/** Folders whose .ectp-out holds test reports: every workspace package, and scripts/. */
const reportDirs = [...packages, scriptsDir];
/** Steps whose failures are counted from their vitest reports (by countTests), not as one each. */
const VITEST_STEPS = ["tests", "scripts tests"];

function clearReports() {
  for (const dir of reportDirs) {
    const out = join(dir, REPORT_DIR);
    if (!existsSync(out)) continue;
    for (const f of readdirSync(out))
      if (f === "vitest-report.json" || f.endsWith(".ectp-report.json")) rmSync(join(out, f));
  }
}

/** Whether `dir` has test files: under src/ for a package, anywhere in scripts/. */
function hasTests(dir) {
  const testsIn = dir === scriptsDir ? dir : join(dir, "src");
  const walk = (d) =>
    readdirSync(d, { withFileTypes: true }).some((e) =>
      e.isDirectory()
        ? !["node_modules", "dist", "gen"].includes(e.name) && walk(join(d, e.name))
        : /\.test\.[cm]?[jt]s$/.test(e.name),
    );
  return existsSync(testsIn) && walk(testsIn);
}

/** Sum the reports; returns {passed, failed, notes}. */
function countTests() {
  let passed = 0;
  let failed = 0;
  const notes = [];
  for (const dir of reportDirs) {
    const name = relative(root, dir);
    const vitest = join(dir, VITEST_REPORT);
    if (existsSync(vitest)) {
      try {
        const r = JSON.parse(readFileSync(vitest, "utf8"));
        passed += r.numPassedTests ?? 0;
        failed += r.numFailedTests ?? 0;
        // A test file that failed to load or whose hooks threw has no failing test; count it.
        for (const file of r.testResults ?? [])
          if (file.status === "failed" && !(file.assertionResults ?? []).some((a) => a.status === "failed")) {
            failed += 1;
            notes.push(`${name}: ${relative(dir, file.name)} failed outside any test: ${(file.message ?? "").split("\n")[0]}`);
          }
        notes.push(`${name}: vitest ${r.numPassedTests ?? 0} passed, ${r.numFailedTests ?? 0} failed, ${r.numPendingTests ?? 0} skipped`);
      } catch (e) {
        failed += 1;
        notes.push(`${name}: unreadable vitest report (${e.message})`);
      }
    } else if (hasTests(dir)) {
      failed += 1;
      notes.push(`${name}: has test files but wrote no vitest report (crashed or not run); counted as 1 failure`);
    }
    const out = join(dir, REPORT_DIR);
    for (const f of existsSync(out) ? readdirSync(out).filter((x) => x.endsWith(".ectp-report.json")).sort() : []) {
      try {
        const r = JSON.parse(readFileSync(join(out, f), "utf8"));
        if (!Number.isInteger(r.passed) || !Number.isInteger(r.failed)) throw new Error("needs integer passed and failed");
        passed += r.passed;
        failed += r.failed;
        notes.push(`${name}: ${f} ${r.passed} passed, ${r.failed} failed`);
      } catch (e) {
        failed += 1;
        notes.push(`${name}: bad report ${f} (${e.message}); counted as 1 failure`);
      }
    }
  }
  return { passed, failed, notes };
}

const results = [];
const started = Date.now();
for (const [name, [cmd, ...args], counted] of steps) {
  console.log(`\n::group::ci: ${name}: ${[cmd, ...args].join(" ")}`);
  if (name === "tests") clearReports();
  const t0 = Date.now();
  // A counted step's output is captured (then echoed) so its runner's totals can be read.
  const r = spawnSync(cmd, args, {
    cwd: root,
    env,
    stdio: counted ? ["ignore", "pipe", "pipe"] : "inherit",
    maxBuffer: 256 * 1024 * 1024,
  });
  let ok = r.status === 0;
  if (counted) {
    const text = `${r.stdout ?? ""}${r.stderr ?? ""}`;
    process.stdout.write(text);
    const totals = counted.parse(text) ?? { passed: 0, failed: 1 };
    if (totals.failed > 0 || totals.passed === 0) ok = false;
    mkdirSync(dirname(join(root, counted.report)), { recursive: true });
    writeFileSync(join(root, counted.report), `${JSON.stringify(totals)}\n`);
  }
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  results.push({ name, ok, seconds, detail: r.error ? r.error.message : `exit ${r.status ?? r.signal}` });
  console.log(`::endgroup::\nci: ${name}: ${ok ? "ok" : "FAILED"} (${seconds} s)`);
}

const counts = countTests();
const { passed, notes } = counts;
// A failed step that reports no test counts of its own (lint, build, docs, ...) is one failed
// check, so the closing line never reads "0 failed" for a red run.
const uncounted = results.filter((r) => !r.ok && !VITEST_STEPS.includes(r.name) && !steps.find(([n]) => n === r.name)?.[2]);
for (const r of uncounted) notes.push(`${r.name}: failed; counted as 1 failure`);
const failed = counts.failed + uncounted.length;
console.log("\nci: summary");
for (const r of results) console.log(`  ${r.ok ? "ok    " : "FAILED"} ${r.name} (${r.seconds} s${r.ok ? "" : `, ${r.detail}`})`);
for (const n of notes) console.log(`  ${n}`);
console.log(`  total ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exitCode = results.every((r) => r.ok) && failed === 0 ? 0 : 1;
console.log(`${passed} passed, ${failed} failed`);

/**
 * Report writers: terminal summary, JUnit XML, JSON (with the mutant table when run).
 * @module
 */
import type { MutantResult } from "../mutants/run.js";
import type { CaseResult, SuiteReport } from "../runner/suite.js";

/** The JSON report: every case result, counts, and (when run) which cases caught each mutant. */
export interface JsonReport {
  /** Format version of this report. */
  readonly format: "ectp-conformance-report/1";
  /** Implementation under test (testee command or name). */
  readonly implementation: string;
  /** Cases that passed. */
  readonly passed: number;
  /** Failed plus unexpected passes. */
  readonly failed: number;
  /** Skipped for missing features. */
  readonly skipped: number;
  /** Known failures. */
  readonly knownFailing: number;
  /** One result per case run (skipped ones included), in run order. */
  readonly results: readonly CaseResult[];
  /** Mutants and the cases that caught them, when mutants were run. */
  readonly mutants?: readonly MutantResult[];
}

/** Build the JSON report object. */
export function toJsonReport(implementation: string, report: SuiteReport, mutants?: readonly MutantResult[]): JsonReport {
  return {
    format: "ectp-conformance-report/1",
    implementation,
    passed: report.passed,
    failed: report.failed,
    skipped: report.skipped,
    knownFailing: report.knownFailing,
    results: report.results,
    ...(mutants ? { mutants } : {}),
  };
}

function xml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    // XML 1.0 forbids most control characters, U+FFFE and U+FFFF, and lone surrogates, which
    // testee stderr may contain.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "?");
}

/** JUnit XML: one testsuite per suite file prefix, one testcase per case (skipped and failure elements). */
export function toJUnit(implementation: string, report: SuiteReport): string {
  const groups = new Map<string, CaseResult[]>();
  for (const r of report.results) {
    const suite = r.name.split("/").slice(0, -1).join("/") || "ectp";
    const g = groups.get(suite) ?? [];
    groups.set(suite, g);
    g.push(r);
  }
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`ectp conformance: ${implementation}`)}" tests="${report.results.length}" failures="${report.failed}" skipped="${report.skipped + report.knownFailing}">`,
  ];
  for (const [suite, rs] of groups) {
    const failures = rs.filter((r) => r.status === "failed" || r.status === "unexpected-pass").length;
    const skipped = rs.filter((r) => r.status === "skipped" || r.status === "known-failing").length;
    const time = rs.reduce((n, r) => n + r.durationMs, 0) / 1000;
    lines.push(`  <testsuite name="${xml(suite)}" tests="${rs.length}" failures="${failures}" skipped="${skipped}" time="${time.toFixed(3)}">`);
    for (const r of rs) {
      const name = r.name.slice(suite.length + 1);
      lines.push(`    <testcase classname="${xml(suite)}" name="${xml(`${name} [${r.requirements.join(" ")}]`)}" time="${(r.durationMs / 1000).toFixed(3)}">`);
      if (r.status === "failed" || r.status === "unexpected-pass")
        lines.push(`      <failure message="${xml((r.message ?? "").split("\n")[0] ?? "")}">${xml(r.message ?? "")}</failure>`);
      else if (r.status === "skipped" || r.status === "known-failing")
        lines.push(`      <skipped message="${xml(`${r.status}: ${r.message ?? ""}`)}"/>`);
      lines.push("    </testcase>");
    }
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>");
  return `${lines.join("\n")}\n`;
}

/** A reason's skipped cases are named in the terminal summary up to this many (else only counted). */
const SKIPPED_NAMES_LISTED = 10;

/** A mutant report line's note of the cases that only ran past their wall-clock limit (not catches). */
function timedOutNote(m: MutantResult): string {
  const n = m.timedOut.length;
  return n === 0 ? "" : `; ${n} more ran past their wall-clock limit (not counted: a slow machine), e.g. ${m.timedOut[0]}`;
}

/** Terminal summary: failures in full, then skips by reason, counts, then the mutant table if any. */
export function toTerminal(report: SuiteReport, mutants?: readonly MutantResult[]): string {
  const out: string[] = [];
  for (const r of report.results)
    if (r.status === "failed" || r.status === "unexpected-pass") out.push(`FAIL ${r.name} [${r.requirements.join(" ")}]\n  ${(r.message ?? "").replace(/\n/g, "\n  ")}`);
  const skipped = report.results.filter((r) => r.status === "skipped");
  if (skipped.length > 0) {
    // One line per reason: a testee of one role skips the other roles' two hundred cases for one
    // reason, which as a list of names buried the result. A reason's names are listed when few.
    const byReason = new Map<string, string[]>();
    for (const r of skipped) {
      const names = byReason.get(r.message ?? "") ?? [];
      names.push(r.name);
      byReason.set(r.message ?? "", names);
    }
    out.push(`skipped: ${skipped.length} (each case is in the JSON report, --report)`);
    for (const [reason, names] of byReason)
      out.push(`  ${names.length} ${reason || "(no reason given)"}${names.length <= SKIPPED_NAMES_LISTED ? `: ${names.join(", ")}` : ""}`);
  }
  const known = report.results.filter((r) => r.status === "known-failing");
  if (known.length > 0) out.push(`known failing: ${known.map((r) => r.name).join(", ")}`);
  if (mutants) {
    out.push("mutants (docs/failures.md failure -> cases that caught it):");
    for (const m of mutants)
      out.push(
        m.broken !== undefined
          ? `  BROKEN   ${m.name} (failure ${m.failure}): ${m.broken}` // it plants no bug the cases could catch
          : `  ${m.caught ? "caught  " : "SURVIVED"} ${m.name} (failure ${m.failure}): ${m.caughtBy.length} cases${m.caughtBy.length ? `, e.g. ${m.caughtBy.slice(0, 3).join(", ")}` : ""}${timedOutNote(m)}`,
      );
  }
  out.push(
    `${report.ok ? "PASS" : "FAIL"}: ${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped, ${report.knownFailing} known failing (${report.results.length} cases)`,
  );
  return `${out.join("\n")}\n`;
}

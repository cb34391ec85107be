/**
 * Loading case files from `cases/`.
 * @module
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { EctpError, closestName, describeValue } from "@ectp/protocol";
import { readOrRefuse } from "../arguments.js";
import { CASE_FIELDS, SUITE_FIELDS, checkCase } from "../runner/case-check.js";
import { CaseBug } from "../runner/match.js";
import { streamExpectation, streamInput } from "../runner/stream.js";
import type { CaseSpec, LoadedCase, SuiteFile } from "./format.js";

/** The `cases/` folder shipped with this package. */
export function defaultCasesDir(): string {
  return packageFolder("cases");
}

/**
 * A folder shipped at this package's root (`cases`, `mutants`), found from this file (dist/index.js
 * or src/cases/load.ts): the first folder above it that holds a package.json and `name`. Never one
 * found from the working directory: throws `EctpError(INVALID_ARGUMENT)` when the package is not
 * laid out as shipped.
 * @internal
 */
export function packageFolder(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const c = join(dir, name);
    try {
      if (statSync(c).isDirectory() && statSync(join(dir, "package.json")).isFile()) return c;
    } catch {
      // keep climbing
    }
    dir = dirname(dir);
  }
  throw new EctpError("INVALID_ARGUMENT", `the ${name} folder of @ectp/conformance is not beside its package.json above ${fileURLToPath(import.meta.url)}; reinstall the package`);
}

/** A requirement id at the start of a suite name's last segment, with its dash. */
const SUITE_ID = /^([cpevi]\d+)-/;
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The requirement ids of the protocol brief (docs/protocol-brief.md): the ids a case may cite. */
export const REQUIREMENT_IDS: readonly string[] = [
  "V1",
  "V2",
  ...Array.from({ length: 11 }, (_, i) => `C${i + 1}`),
  ...Array.from({ length: 8 }, (_, i) => `P${i + 1}`),
  "E1",
  "E2",
  ...Array.from({ length: 6 }, (_, i) => `I${i + 1}`),
];

/**
 * Load every `*.json` suite under `dir` (its subfolders included). Throws `EctpError(INVALID_ARGUMENT)`
 * naming the file and field for a malformed suite or a duplicate case name, so a broken case never
 * silently disappears from a run; naming the folder, for a folder that holds no `*.json` file (a run
 * of no case passes every testee); and, naming the folder or entry and keeping the file system's
 * error as `cause`, for a `dir` that is not a string, or a folder, entry or case file under it that
 * cannot be read (missing, not a folder, a broken link, no permission).
 */
export function loadCases(dir: string = defaultCasesDir()): LoadedCase[] {
  if (typeof dir !== "string" || dir === "")
    throw new EctpError("INVALID_ARGUMENT", `loadCases: dir must be the path of a folder of case files (a non-empty string), or omitted for the package's own; got ${describeValue(dir)}`);
  const files: string[] = [];
  /** What `read` of `path` gave, or an EctpError naming it: `what` to do. */
  const fsCall = <T>(path: string, what: string, read: () => T): T => readOrRefuse("loadCases", `${path} cannot be read`, what, read);
  const underDir = `it is under the cases folder ${dir}: fix or remove it`;
  const walk = (d: string): void => {
    const what = d === dir ? "pass the folder that holds the case files (*.json, in subfolders too), or omit it for the package's own" : underDir;
    for (const f of fsCall(d, what, () => readdirSync(d)).sort()) {
      const p = join(d, f);
      if (fsCall(p, underDir, () => statSync(p)).isDirectory()) walk(p);
      else if (f.endsWith(".json")) files.push(p);
    }
  };
  walk(dir);
  // An empty run would pass every testee: a folder without case files is a wrong path, not a suite.
  if (files.length === 0)
    throw new EctpError("INVALID_ARGUMENT", `loadCases: ${dir} holds no case files (*.json, in subfolders too); pass the folder that holds them, or omit it for the package's own`);
  const out: LoadedCase[] = [];
  const seen = new Set<string>();
  for (const path of files) {
    const rel = relative(dir, path);
    const text = fsCall(path, underDir, () => readFileSync(path, "utf8"));
    let suite: SuiteFile;
    try {
      suite = JSON.parse(text) as SuiteFile;
    } catch (cause) {
      throw new EctpError("INVALID_ARGUMENT", `case file ${rel} is not valid JSON; fix its syntax`, { cause });
    }
    const fileBug = suiteFileBug(suite, rel);
    if (fileBug !== undefined) throw new EctpError("INVALID_ARGUMENT", `case file ${rel}: ${fileBug}`);
    const suiteIds = idsOfSuite(suite.suite);
    for (const c of suite.cases) {
      const spec = { ...(suite.defaults ?? {}), ...c } as CaseSpec;
      const where = `case file ${rel}, case ${JSON.stringify(spec.name)}`;
      if (typeof spec.name !== "string" || !NAME.test(spec.name))
        throw new EctpError("INVALID_ARGUMENT", `${where}: "name" must be kebab-case`);
      // Its fields (a misspelt one first), steps, envelopes, matchers and templates, as written out (runner/case-check.ts).
      try {
        checkCase(spec as unknown as Record<string, unknown>);
      } catch (err) {
        if (err instanceof CaseBug) throw new EctpError("INVALID_ARGUMENT", `${where}: ${err.message}`);
        throw err;
      }
      if (!Array.isArray(spec.requirements) || spec.requirements.length === 0)
        throw new EctpError("INVALID_ARGUMENT", `${where}: "requirements" must list at least one id such as "C3"`);
      const unknownId = spec.requirements.find((id) => !REQUIREMENT_IDS.includes(id));
      if (unknownId !== undefined)
        throw new EctpError("INVALID_ARGUMENT", `${where}: "requirements" names ${JSON.stringify(unknownId)}, which is not a requirement id of the protocol brief (${ID_RANGES})`);
      if (suiteIds.length > 0 && !suiteIds.some((id) => spec.requirements.includes(id)))
        throw new EctpError(
          "INVALID_ARGUMENT",
          `${where}: its suite name carries ${suiteIds.join(", ")}, so "requirements" must list at least one of them (or the case belongs in another suite)`,
        );
      if (spec.level !== "REQUIRED" && spec.level !== "RECOMMENDED")
        throw new EctpError("INVALID_ARGUMENT", `${where}: "level" must be REQUIRED or RECOMMENDED`);
      if (spec.role !== "consumer" && spec.role !== "producer" && spec.role !== "subscriber" && spec.role !== "any")
        throw new EctpError("INVALID_ARGUMENT", `${where}: "role" must be consumer, producer, subscriber or any`);
      if (!Array.isArray(spec.steps)) throw new EctpError("INVALID_ARGUMENT", `${where}: "steps" must be a list`);
      // A case of role "any" runs under whichever role the features file claims first (TESTEE-PROTOCOL.md
      // section 7), so it may script nothing a role answers: only decodeStream steps, which touch no instance.
      const anyRoleBug = spec.role === "any" ? roleAnyBug(spec) : undefined;
      if (anyRoleBug !== undefined)
        throw new EctpError("INVALID_ARGUMENT", `${where}: a case of role "any" runs under whichever role the features file claims, so ${anyRoleBug}`);
      // A producer that does not claim "events" sends no EventBatch, snapshot or replay answer
      // (TESTEE-PROTOCOL.md section 7): a case expecting one must need the feature, or it fails such a testee.
      const eventBody = spec.role === "producer" && !(spec.features ?? []).includes("events") ? expectedEventSend(spec.steps) : undefined;
      if (eventBody !== undefined)
        throw new EctpError(
          "INVALID_ARGUMENT",
          `${where}: it expects the producer to send a ${eventBody}, which only a testee claiming "events" does; add "events" to its "features"`,
        );
      // A raw delivery needs the testee's own wire decoder (TESTEE-PROTOCOL.md section 7): a case
      // sending one must need "raw-messages", or a testee without it fails (or, answering
      // Unsupported, merely skips) a case it was never meant to run.
      if (!(spec.features ?? []).includes("raw-messages") && deliversRaw([...spec.steps, ...(spec.rules ?? [])]))
        throw new EctpError(
          "INVALID_ARGUMENT",
          `${where}: it delivers raw bytes (a "deliver" step with "raw"), which only a testee claiming "raw-messages" decodes; add "raw-messages" to its "features"`,
        );
      // A decodeStream step needs the testee's own stream decoder (TESTEE-PROTOCOL.md section 7): without
      // "stream-framing" a testee lacking one would fail (or, answering Unsupported, skip) the case.
      if (!(spec.features ?? []).includes("stream-framing") && takesAction([...spec.steps, ...(spec.rules ?? [])], "decodeStream"))
        throw new EctpError(
          "INVALID_ARGUMENT",
          `${where}: it has a "decodeStream" step, which only a testee claiming "stream-framing" answers; add "stream-framing" to its "features"`,
        );
      // A decodeStream step written out in full is read now, so that one the runner could not send (a
      // stream past its bound, an expect it does not take) is refused before anything runs.
      const streamBug = decodeStreamBug([...spec.steps, ...(spec.rules ?? [])]);
      if (streamBug !== undefined) throw new EctpError("INVALID_ARGUMENT", `${where}: ${streamBug}`);
      const fullName = `${suite.suite}/${spec.name}`;
      if (seen.has(fullName)) throw new EctpError("INVALID_ARGUMENT", `${where}: duplicate case name ${fullName}`);
      seen.add(fullName);
      out.push({ fullName, file: rel, spec });
    }
  }
  return out;
}

/** The requirement ids of {@link REQUIREMENT_IDS}, in short. */
const ID_RANGES = "V1, V2, C1-C11, P1-P8, E1, E2, I1-I6";

/**
 * What is wrong with a suite file as a whole (its keys, its suite name, its `cases` list, its
 * `defaults`' keys), or undefined when nothing is. `rel` is its path under the cases folder: the
 * suite's name is that path without `.json` (`consumer/c3-budget` is `consumer/c3-budget.json`),
 * so that a `--filter` of the suite's name finds the file's cases.
 */
function suiteFileBug(suite: SuiteFile, rel: string): string | undefined {
  if (suite === null || typeof suite !== "object" || Array.isArray(suite)) return "a suite file is a JSON object";
  const key = Object.keys(suite).find((k) => !SUITE_FIELDS.includes(k));
  if (key !== undefined) {
    const near = closestName(key, SUITE_FIELDS, 2);
    return `unknown key ${JSON.stringify(key)}${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}; a suite file takes ${SUITE_FIELDS.join(", ")}`;
  }
  if (typeof suite.suite !== "string" || !suite.suite.split("/").every((s) => NAME.test(s))) return '"suite" must be kebab-case segments joined by "/"';
  const path = rel.split(sep).join("/").replace(/\.json$/, "");
  if (suite.suite !== path) return `"suite" is ${JSON.stringify(suite.suite)}, but a suite's name is its file's path under the cases folder without .json: ${JSON.stringify(path)}`;
  const unknownId = idsOfSuite(suite.suite).find((id) => !REQUIREMENT_IDS.includes(id));
  if (unknownId !== undefined) return `"suite" starts its last segment with ${unknownId}, which is not a requirement id of the protocol brief (${ID_RANGES})`;
  if (!Array.isArray(suite.cases) || suite.cases.length === 0) return '"cases" must be a non-empty list';
  if (suite.defaults !== undefined) {
    if (suite.defaults === null || typeof suite.defaults !== "object" || Array.isArray(suite.defaults)) return '"defaults" is a JSON object of case fields';
    const field = Object.keys(suite.defaults).find((k) => !CASE_FIELDS.includes(k));
    if (field !== undefined) {
      const near = closestName(field, CASE_FIELDS, 2);
      return `"defaults" has an unknown field ${JSON.stringify(field)}${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}; a case takes ${CASE_FIELDS.join(", ")}`;
    }
  }
  return undefined;
}

/** The keys of a step besides its action that a case of role "any" may write (its time, a comment, a decodeStream's expect). */
const ANY_ROLE_STEP_KEYS: readonly string[] = ["at", "after", "stalled", "comment", "expect"];

/** What a case of role "any" has that needs a role (see {@link loadCases}), or undefined when it has nothing of the kind. */
function roleAnyBug(spec: CaseSpec): string | undefined {
  for (const field of ["peers", "items", "rules"] as const) {
    const v = spec[field];
    if (v !== undefined && Object.keys(v).length > 0) return `it has no "${field}" (got ${JSON.stringify(v)})`;
  }
  for (const [i, step] of spec.steps.entries()) {
    const actions = step !== null && typeof step === "object" ? Object.keys(step).filter((k) => !ANY_ROLE_STEP_KEYS.includes(k)) : [];
    if (actions.some((a) => a !== "decodeStream")) return `its steps are decodeStream steps only; step ${i + 1} is ${JSON.stringify(step)}`;
  }
  return undefined;
}

/** Envelope bodies a producer sends only with the "events" feature (TESTEE-PROTOCOL.md section 7). */
const EVENT_BODIES = ["eventBatch", "snapshot", "replayUnavailable"];

/**
 * The first value `visit` gives (not undefined) for an object in `v`, walked depth first: `v` itself,
 * then the elements of arrays and the values of objects (steps, `repeat` bodies, rule actions).
 */
function firstInTree<T>(v: unknown, visit: (o: Record<string, unknown>) => T | undefined): T | undefined {
  if (v === null || typeof v !== "object") return undefined;
  if (!Array.isArray(v)) {
    const here = visit(v as Record<string, unknown>);
    if (here !== undefined) return here;
  }
  for (const x of Object.values(v)) {
    const found = firstInTree(x, visit);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first event body (see {@link EVENT_BODIES}) a `send` expected by `steps` carries (expectNone steps aside), if any. */
function expectedEventSend(steps: readonly unknown[]): string | undefined {
  const expecting = steps.filter((s) => !(s !== null && typeof s === "object" && "expectNone" in s));
  return firstInTree(expecting, (o) => {
    const envelope = (o.send as { envelope?: unknown } | undefined)?.envelope;
    return envelope !== null && typeof envelope === "object" ? EVENT_BODIES.find((b) => b in envelope) : undefined;
  });
}

/** Whether a `deliver` action with `raw` occurs anywhere in `v` (steps, `repeat` bodies, rule actions). */
function deliversRaw(v: unknown): boolean {
  return firstInTree(v, (o) => {
    const deliver = o.deliver;
    return deliver !== null && typeof deliver === "object" && (deliver as Record<string, unknown>).raw !== undefined ? true : undefined;
  }) === true;
}

/** Whether a step whose action is `action` occurs anywhere in `v` (steps, `repeat` bodies, rule actions). */
function takesAction(v: unknown, action: string): boolean {
  return firstInTree(v, (o) => (Object.hasOwn(o, action) ? true : undefined)) === true;
}

/** Whether `v` holds a template the runner resolves as the step runs: a `${...}` in a string, or a key such as `$expr`. */
function hasTemplate(v: unknown): boolean {
  if (typeof v === "string") return v.includes("${");
  if (v === null || typeof v !== "object") return false;
  return Object.entries(v).some(([k, x]) => k.startsWith("$") || hasTemplate(x));
}

/**
 * What is wrong with the first `decodeStream` step in `v` (steps, `repeat` bodies, rule actions)
 * without templates, read as the runner reads it as the step runs (its stream bounded, its
 * `expect` well formed), or undefined when nothing is. Steps with templates are read as they run.
 */
function decodeStreamBug(v: unknown): string | undefined {
  return firstInTree(v, (o) => {
    if (!Object.hasOwn(o, "decodeStream") || hasTemplate(o.decodeStream) || hasTemplate(o.expect)) return undefined;
    try {
      streamExpectation(o.expect, streamInput(o.decodeStream).chunks.length);
      return undefined;
    } catch (err) {
      if (err instanceof CaseBug) return err.message;
      throw err;
    }
  });
}

/**
 * The requirement ids a suite's last segment starts with, upper-cased: `consumer/c3-budget` carries
 * C3, `consumer/v1-v2-versioning` carries V1 and V2, `transport/mock` none.
 */
export function idsOfSuite(suite: string): string[] {
  const ids: string[] = [];
  let rest = suite.slice(suite.lastIndexOf("/") + 1);
  for (let m = SUITE_ID.exec(rest); m !== null; m = SUITE_ID.exec(rest)) {
    ids.push((m[1] as string).toUpperCase());
    rest = rest.slice(m[0].length);
  }
  return ids;
}

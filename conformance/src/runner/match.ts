/**
 * The expectation language of case files: templates (`${x}`, `{"$expr": "t + 25"}`) and
 * partial matching of proto3-JSON values with operators (`$any`, `$absent`, `$bind`,
 * `$gte`, `$lte`, `$gt`, `$lt`, `$between`, `$in`, `$ne`). See README "Writing cases".
 * @module
 */

import { ENUM_VALUE_NAMES } from "../proto.js";

/** Variables visible to templates and bound by matchers. */
export type Scope = Map<string, unknown>;

/** A case-authoring mistake (not an implementation failure): reported as such. */
export class CaseBug extends Error {
  /** Always "CaseBug". */
  override name = "CaseBug";

  /**
   * @param message - What is wrong with the case and where, e.g. `unknown variable "grant.id"`;
   *   the runner reports it as `case bug (fix the case file): <message>`, and `loadCases` as an
   *   EctpError(INVALID_ARGUMENT) naming the case file and case.
   */
  constructor(message: string) {
    super(message);
  }
}

function lookup(path: string, scope: Scope): unknown {
  const [head, ...rest] = path.split(".");
  if (head === undefined || !scope.has(head)) throw new CaseBug(`unknown variable ${JSON.stringify(path)}`);
  let v: unknown = scope.get(head);
  for (const p of rest) {
    if (v === null || typeof v !== "object") throw new CaseBug(`variable ${JSON.stringify(path)}: no field ${p}`);
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

/** Evaluate `a + 25 * (b - 1)` over numbers and variables. */
export function evalExpr(src: string, scope: Scope): number {
  const tokens = src.match(/\d+(?:\.\d+)?|[A-Za-z_][\w.]*|[-+*/()]/g) ?? [];
  let i = 0;
  const peek = (): string | undefined => tokens[i];
  const atom = (): number => {
    const t = tokens[i++];
    if (t === undefined) throw new CaseBug(`expression ${JSON.stringify(src)} ends early`);
    if (t === "(") {
      const v = sum();
      if (tokens[i++] !== ")") throw new CaseBug(`expression ${JSON.stringify(src)}: missing )`);
      return v;
    }
    if (t === "-") return -atom();
    if (/^\d/.test(t)) return Number(t);
    const v = Number(lookup(t, scope));
    if (!Number.isFinite(v)) throw new CaseBug(`expression ${JSON.stringify(src)}: ${t} is not a number`);
    return v;
  };
  const product = (): number => {
    let v = atom();
    while (peek() === "*" || peek() === "/") v = tokens[i++] === "*" ? v * atom() : v / atom();
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (peek() === "+" || peek() === "-") v = tokens[i++] === "+" ? v + product() : v - product();
    return v;
  };
  const v = sum();
  if (i !== tokens.length) throw new CaseBug(`expression ${JSON.stringify(src)}: unexpected ${tokens[i]}`);
  return v;
}

/** Hooks for `$`-macros that need the case's fixtures (`$descriptor`, `$key`, ...). */
export type MacroFn = (arg: unknown, obj: Record<string, unknown>, scope: Scope) => unknown;

/**
 * Resolve templates in a value: `"${x}"` is the variable's value (any type), `"a${x}b"`
 * interpolates, `{"$expr": "..."}` computes a number, registered macros build fixtures.
 */
export function resolve(value: unknown, scope: Scope, macros: Record<string, MacroFn> = {}): unknown {
  if (typeof value === "string") {
    const whole = /^\$\{([^}]+)\}$/.exec(value);
    if (whole) return lookup((whole[1] as string).trim(), scope);
    return value.replace(/\$\{([^}]+)\}/g, (_m, p: string) => String(lookup(p.trim(), scope)));
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, scope, macros));
  if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    if (typeof obj.$expr === "string") return evalExpr(obj.$expr, scope);
    for (const [k, fn] of Object.entries(macros))
      if (Object.hasOwn(obj, k)) return fn(resolve(obj[k], scope, macros), obj, scope);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) out[k] = resolve(v, scope, macros);
    return out;
  }
  return value;
}

function isDefault(v: unknown): boolean {
  return (
    v === 0 ||
    v === "0" ||
    v === "" ||
    v === false ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === "string" && v.endsWith("_UNSPECIFIED"))
  );
}

/**
 * Whether the expected scalar `a` equals the output's `b`. Numbers compare by value, whether
 * written as numbers or decimal strings (proto3 JSON writes 64-bit integers as strings), so "05"
 * equals 5. An enum value written as a number where the output holds its name is a case bug:
 * it could never match, and an `expectNone` or `$ne` with it would pass whatever came.
 */
function scalarEq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "string" && ENUM_VALUE_NAMES.has(b))
    throw new CaseBug(`the enum value ${b} is matched against the number ${a}: outputs name enum values, so write the name (a number only for a value without a name)`);
  if ((typeof a === "number" || typeof a === "string") && (typeof b === "number" || typeof b === "string")) {
    if (String(a) === String(b)) return true;
    if (a === "" || b === "") return false;
    const ia = exactInteger(a);
    const ib = exactInteger(b);
    if (ia !== undefined && ib !== undefined) return ia === ib;
    const na = Number(a);
    const nb = Number(b);
    return Number.isFinite(na) && Number.isFinite(nb) && na === nb;
  }
  return false;
}

function num(v: unknown): number {
  return typeof v === "number" ? v : Number(v);
}

/**
 * An integer as a bigint, or undefined: 64-bit ids arrive in proto3 JSON as decimal strings, and
 * two ids past 2^53 may round to the same double, so integers are compared exactly.
 */
function exactInteger(v: unknown): bigint | undefined {
  if (typeof v === "number") return Number.isSafeInteger(v) ? BigInt(v) : undefined;
  if (typeof v === "string" && /^-?\d+$/.test(v)) return BigInt(v);
  return undefined;
}

/** The sign of `a - b` (integers exactly, see {@link exactInteger}); NaN when either is not a number. */
function order(a: unknown, b: unknown): number {
  const ia = exactInteger(a);
  const ib = exactInteger(b);
  if (ia !== undefined && ib !== undefined) return ia < ib ? -1 : ia > ib ? 1 : 0;
  const na = num(a);
  const nb = num(b);
  return na < nb ? -1 : na > nb ? 1 : na === nb ? 0 : Number.NaN;
}

/**
 * The operand `v` of comparison operator `op` (`$gte`, `$lte`, `$gt`, `$lt`, `$between`), resolved:
 * a number, or a decimal string (as proto3 JSON writes 64-bit integers).
 * @throws CaseBug for anything else: a comparison with it never holds, so an `expectNone` or
 *   `expectCount` `max` with it would pass whatever came.
 */
export function comparisonOperand(op: string, v: unknown): unknown {
  if ((typeof v === "number" || (typeof v === "string" && v.trim() !== "")) && Number.isFinite(Number(v))) return v;
  throw new CaseBug(`${op} compares numbers; got ${JSON.stringify(v)}`);
}

/**
 * `$absent` stands alone: the field is unset (or its default), so there is nothing for another
 * operator to test or bind.
 * @throws CaseBug for `$absent` beside another operator (a `$bind` there would bind nothing, silently).
 */
export function absentAlone(e: Record<string, unknown>): void {
  if ("$absent" in e && Object.keys(e).length > 1)
    throw new CaseBug(`$absent takes no other operator: an absent field has nothing to compare or bind; got ${JSON.stringify(e)}`);
}

/** The matcher operators (README "Writing cases"): an object whose keys are all operators constrains one value. */
export const MATCH_OPERATORS: readonly string[] = ["$any", "$absent", "$bind", "$gte", "$lte", "$gt", "$lt", "$between", "$in", "$ne", "$len", "$has"];
const OPS: ReadonlySet<string> = new Set(MATCH_OPERATORS);

/**
 * Whether `actual` (proto3 JSON) matches the partial `expected`. Objects match when every
 * expected key matches (extra actual keys are fine); an absent actual field equals its
 * default (0, "", false, *_UNSPECIFIED). Bindings made by `$bind` go into `binds` (only
 * kept by the caller when the whole match succeeds).
 */
export function matches(expected: unknown, actual: unknown, scope: Scope, binds: Map<string, unknown>): boolean {
  return matchesIn(expected, actual, scope, binds, false);
}

/**
 * {@link matches}; `inAbsent`: `actual` lies inside a message field that is absent, where `$bind`
 * binds nothing (a rule or expectation binding a field of a message needs that message).
 */
function matchesIn(expected: unknown, actual: unknown, scope: Scope, binds: Map<string, unknown>, inAbsent: boolean): boolean {
  if (expected !== null && typeof expected === "object" && !Array.isArray(expected)) {
    const e = expected as Record<string, unknown>;
    const keys = Object.keys(e);
    // A key starting with $ that is no operator (a misspelt $bnd) would be a field no output has, and never match.
    const unknown = keys.find((k) => k.startsWith("$") && !OPS.has(k));
    if (unknown !== undefined) throw new CaseBug(`unknown operator ${JSON.stringify(unknown)} in ${JSON.stringify(e)}; the operators are ${MATCH_OPERATORS.join(", ")}`);
    if (keys.length > 0 && keys.every((k) => OPS.has(k))) {
      absentAlone(e);
      if (e.$absent === true) return actual === undefined || actual === null || isDefault(actual);
      if ("$absent" in e) throw new CaseBug(`$absent must be true; got ${JSON.stringify(e.$absent)} (write {"$any": true} for a field that must be set)`);
      const absent = actual === undefined || actual === null;
      if ("$any" in e && absent) return false;
      // An absent field equals its default: the numeric operators compare 0, and `$bind` binds it.
      const value = absent ? 0 : actual;
      if ("$gte" in e && !(order(value, comparisonOperand("$gte", resolve(e.$gte, scope))) >= 0)) return false;
      if ("$lte" in e && !(order(value, comparisonOperand("$lte", resolve(e.$lte, scope))) <= 0)) return false;
      if ("$gt" in e && !(order(value, comparisonOperand("$gt", resolve(e.$gt, scope))) > 0)) return false;
      if ("$lt" in e && !(order(value, comparisonOperand("$lt", resolve(e.$lt, scope))) < 0)) return false;
      if ("$between" in e) {
        const bounds = resolve(e.$between, scope);
        if (!Array.isArray(bounds) || bounds.length !== 2) throw new CaseBug(`$between takes [low, high]; got ${JSON.stringify(bounds)}`);
        if (!(order(value, comparisonOperand("$between", bounds[0])) >= 0 && order(value, comparisonOperand("$between", bounds[1])) <= 0)) return false;
      }
      // An absent field equals its default, whichever form the list writes it in (0, "", false, *_UNSPECIFIED).
      if ("$in" in e && !(resolve(e.$in, scope) as unknown[]).some((x) => (absent ? isDefault(x) || x === null : scalarEq(x, actual)))) return false;
      if ("$ne" in e) {
        const ne = resolve(e.$ne, scope);
        // An absent field equals its default: it is "equal" to 0, "", false, *_UNSPECIFIED.
        if (absent ? isDefault(ne) || ne === null : scalarEq(ne, actual)) return false;
      }
      if ("$len" in e && (Array.isArray(actual) ? actual.length : 0) !== num(e.$len)) return false;
      if ("$has" in e) {
        // A list holding these elements, in any order, among any others (a Hello's capabilities);
        // an element given as an object is a pattern that some element matches (events of a batch).
        const wanted = resolve(e.$has, scope);
        if (!Array.isArray(wanted)) throw new CaseBug(`$has takes a list of the elements the actual list must hold; got ${JSON.stringify(e.$has)}`);
        const held = Array.isArray(actual) ? actual : [];
        const found = (x: unknown) =>
          held.some((a) => (x !== null && typeof x === "object" ? matchesIn(x, a, scope, new Map(), false) : scalarEq(x, a)));
        if (!wanted.every(found)) return false;
      }
      if (typeof e.$bind === "string") {
        if (absent && inAbsent) return false;
        binds.set(e.$bind, value);
      }
      return true;
    }
    if (actual === undefined || actual === null) return keys.every((k) => matchesIn(e[k], undefined, scope, binds, true));
    if (typeof actual !== "object" || Array.isArray(actual)) return false;
    const a = actual as Record<string, unknown>;
    return keys.every((k) => matchesIn(e[k], a[k], scope, binds, inAbsent));
  }
  if (Array.isArray(expected)) {
    const a = actual === undefined ? [] : actual;
    if (!Array.isArray(a) || a.length !== expected.length) return false;
    return expected.every((x, i) => matchesIn(x, a[i], scope, binds, inAbsent));
  }
  const ev = resolve(expected, scope);
  if (actual === undefined || actual === null) return isDefault(ev) || ev === null;
  return scalarEq(ev, actual);
}

/**
 * Checks of what a case file writes, so that what the runner reads is what the case says. The
 * runner reads its own keys by name, and protobufjs's `fromObject`, which makes the messages a case
 * sends, drops a field the schema does not name and coerces a value of another kind: a misspelt
 * `confg`, a peer's `heartbeats`, an envelope's `atemptId` (sent as attempt 0) or `"two"` heartbeat
 * misses (sent as 0) would run the case with something it never said, and the case would fail, or
 * pass, as the implementation's doing. Each such mistake is a case bug naming where it is.
 *
 * Run as a case file loads (cases/load.ts), over what the case writes out; a value holding a
 * template (`"${var}"`, `{"$key": ...}`) is checked by the interpreter once its step resolved it
 * (runner/script.ts), with the same checks.
 * @module
 */
import type { Enum, Field, Type } from "protobufjs";
import { KNOWN_FEATURES } from "../cases/format.js";
import { ROOT, jsonProblem, jsonText as text, nearest } from "../proto.js";
import { CaseBug, MATCH_OPERATORS } from "./match.js";

/** The fields of a case (cases/format.ts `CaseSpec`), and so of a suite file's `defaults`. */
export const CASE_FIELDS: readonly string[] = [
  "name",
  "requirements",
  "level",
  "description",
  "catches",
  "features",
  "role",
  "self",
  "config",
  "capacity",
  "fingerprint",
  "peers",
  "items",
  "settleOnCancel",
  "rules",
  "steps",
  "quiesce",
];

/** The fields of a suite file (cases/format.ts `SuiteFile`). */
export const SUITE_FIELDS: readonly string[] = ["suite", "description", "defaults", "cases"];

/** The fields of a case's `self`, of a scripted peer, of an item fixture and of a rule (cases/format.ts). */
const SELF_FIELDS: readonly string[] = ["id", "epoch", "seed", "transportMetadata"];
const PEER_FIELDS: readonly string[] = ["epoch", "hello", "heartbeat", "fingerprint"];
const ITEM_FIELDS: readonly string[] = ["size", "checksum", "dtype", "shape", "producer", "hash", "fill", "count"];
const RULE_FIELDS: readonly string[] = ["name", "on", "do", "delay", "times"];

/** The step actions the interpreter runs (runner/script.ts `step`). */
export const STEP_ACTIONS: readonly string[] = [
  "configure",
  "admit",
  "finish",
  "drain",
  "deliver",
  "readResult",
  "unreachable",
  "peerDown",
  "peerUp",
  "greet",
  "put",
  "markReady",
  "discard",
  "evict",
  "clearStore",
  "shutdown",
  "announce",
  "expectSent",
  "expectNone",
  "expectOrder",
  "expectCount",
  "expectSnapshot",
  "expectStats",
  "follow",
  "unfollow",
  "repeat",
  "expectView",
  "decodeStream",
  "flush",
  "rule",
  "removeRule",
  "set",
];

/** The actions that read each step modifier; on any other step it would be silently ignored. */
export const MODIFIER_USERS: Readonly<Record<string, readonly string[]>> = {
  expect: ["admit", "announce", "decodeStream"],
  expectError: ["configure", "put", "discard", "evict"],
  bind: ["announce"],
  ready: ["put"],
  together: ["put"],
  unpolled: ["put"],
};

/** The keys of a step that are not its action: its time and the modifiers above. */
export const STEP_MODIFIERS: ReadonlySet<string> = new Set(["at", "after", "stalled", "comment", ...Object.keys(MODIFIER_USERS)]);

/** What a `configure` step may set (conformance/README.md, "Writing cases"). */
export const CONFIGURE_KEYS: readonly string[] = ["config", "epoch", "capacity", "transportMetadata", "items"];

/** Keys of a `readResult` step's `data` object: the item whose bytes are read, and how they are spoiled. */
export const READ_DATA_KEYS: readonly string[] = ["item", "corrupt", "truncate", "extend"];

/** A `readResult` step's `status` values (runner/script.ts `readResult`). */
export const READ_STATUSES: readonly string[] = ["done", "cancelled", "failed"];

/** The keys of the object an action takes (besides `configure`'s and `readResult`'s data above), by action. */
const ARGUMENT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  configure: CONFIGURE_KEYS,
  admit: ["request", "items"],
  deliver: ["from", "envelope", "raw"],
  readResult: ["read", "status", "data", "peerGone", "error"],
  peerUp: ["peer", "epoch", "greet"],
  follow: ["producer", "connection"],
  expectOrder: ["among", "first"],
  expectCount: ["match", "min", "max", "why"],
  expectSnapshot: ["to", "items", "maxElements", "within"],
  expectView: ["producer", "items", "synced"],
  repeat: ["times", "as", "steps"],
  rule: RULE_FIELDS,
};

/** The keys of a matcher besides its pattern (runner/script.ts `matchOne`). */
export const MATCHER_KEYS: readonly string[] = ["$window", "$bindTime", "$times"];

/**
 * The template macros (`$expr`, runner/match.ts `resolve`, and those the interpreter registers),
 * each with the other keys its object takes.
 */
export const TEMPLATE_MACROS: Readonly<Record<string, readonly string[]>> = {
  $expr: [],
  $key: [],
  $bytes: [],
  $crc: [],
  $descriptor: ["with"],
  $announcement: ["with"],
  $repeat: ["times"],
  $encodedSize: ["type"],
  $seq: [],
};

/** Every key starting with `$` that a case may write: matcher operators, a matcher's own keys, template macros. */
const DOLLAR_KEYS: readonly string[] = [...MATCH_OPERATORS, ...MATCHER_KEYS, ...Object.keys(TEMPLATE_MACROS)];

const ENVELOPE = ROOT.lookupType("ectp.v1.Envelope");
const FINGERPRINT = ROOT.lookupType("ectp.v1.Fingerprint");
const ITEM_DESCRIPTOR = ROOT.lookupType("ectp.v1.ItemDescriptor");
const ANNOUNCEMENT = ROOT.lookupType("ectp.v1.Announcement");
const TIMERS = ROOT.lookupType("ectp.conformance.v1.Timers");
const OUTPUT = ROOT.lookupType("ectp.conformance.v1.Output");
const STATS = ROOT.lookupType("ectp.conformance.v1.Stats");

/**
 * Checks every part of a case but its `name`, `requirements`, `level`, `role` and whether `steps`
 * is a list (cases/load.ts checks those).
 * @throws CaseBug naming the first mistake and where it is (`step 3: deliver.envelope...`).
 */
export function checkCase(spec: Record<string, unknown>): void {
  checkFields(spec, CASE_FIELDS, "a case", "field");
  if (spec.description !== undefined && typeof spec.description !== "string") throw new CaseBug(`"description" is text; got ${text(spec.description)}`);
  for (const field of ["catches", "features"] as const) {
    const v = spec[field];
    const kind = field === "catches" ? "number" : "string";
    if (v !== undefined && !(Array.isArray(v) && v.every((x) => typeof x === kind)))
      throw new CaseBug(`"${field}" is a list of ${kind === "number" ? "failure numbers" : "feature names"}; got ${text(v)}`);
  }
  // A misspelt feature would skip the case for every testee, whatever its features file claims.
  const unknownFeature = ((spec.features as string[] | undefined) ?? []).find((f) => !KNOWN_FEATURES.includes(f));
  if (unknownFeature !== undefined) {
    const near = nearest(unknownFeature, KNOWN_FEATURES);
    throw new CaseBug(
      `"features" names ${JSON.stringify(unknownFeature)}${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}, which is no feature of TESTEE-PROTOCOL.md §7: ${KNOWN_FEATURES.join(", ")}`,
    );
  }
  for (const field of ["settleOnCancel", "quiesce"] as const)
    if (spec[field] !== undefined && typeof spec[field] !== "boolean") throw new CaseBug(`"${field}" is true or false; got ${text(spec[field])}`);
  if (spec.self !== undefined) {
    const self = objectOf(spec.self, "self");
    checkFields(self, SELF_FIELDS, "self", "field", "self");
    if (self.id !== undefined && typeof self.id !== "string") throw new CaseBug(`self.id is a peer id (text); got ${text(self.id)}`);
    for (const field of ["epoch", "seed"]) wholeNumber(self[field], `self.${field}`);
  }
  if (spec.config !== undefined) checkTimers(spec.config, "config");
  if (spec.fingerprint !== undefined) checkMessage(spec.fingerprint, FINGERPRINT, "fingerprint");
  for (const [id, p] of Object.entries(spec.peers === undefined ? {} : objectOf(spec.peers, "peers"))) {
    const where = `peers.${id}`;
    const peer = objectOf(p, where);
    checkFields(peer, PEER_FIELDS, `a scripted peer (${where})`, "option", where);
    wholeNumber(peer.epoch, `${where}.epoch`);
    for (const field of ["hello", "heartbeat"])
      if (peer[field] !== undefined && typeof peer[field] !== "boolean") throw new CaseBug(`${where}.${field} is true or false; got ${text(peer[field])}`);
    if (peer.fingerprint !== undefined) checkMessage(peer.fingerprint, FINGERPRINT, `${where}.fingerprint`);
  }
  for (const [name, f] of Object.entries(spec.items === undefined ? {} : objectOf(spec.items, "items"))) {
    const where = `items.${name}`;
    const item = objectOf(f, where);
    checkFields(item, ITEM_FIELDS, `an item fixture (${where})`, "field", where);
    if (item.size === undefined) throw new CaseBug(`${where} needs "size", its size in bytes`);
    wholeNumber(item.size, `${where}.size`);
    if (item.checksum !== undefined && typeof item.checksum !== "boolean") throw new CaseBug(`${where}.checksum is true or false; got ${text(item.checksum)}`);
  }
  const rules = spec.rules === undefined ? [] : spec.rules;
  if (!Array.isArray(rules)) throw new CaseBug(`"rules" is a list of rules; got ${text(rules)}`);
  for (const [i, r] of rules.entries()) checkRule(r, `rule ${i + 1}`);
  for (const [i, step] of (Array.isArray(spec.steps) ? spec.steps : []).entries()) checkStep(step, `step ${i + 1}`);
}

/** Checks a rule (of the case's `rules`, `where` "rule 2", or a `rule` step's, "step 3"), then its actions. */
function checkRule(r: unknown, where: string): void {
  const rule = located(where, () => {
    const rule = objectOf(r, "the rule");
    checkFields(rule, RULE_FIELDS, "a rule", "field");
    checkDollarKeys({ ...rule, do: undefined }, "rule");
    checkMatcher(rule.on, "on");
    return rule;
  });
  // A rule step's actions are named after the step: `step 3 (rule "grant"), its action 1`.
  const named = where.startsWith("rule") ? where : `${where} (rule${typeof rule.name === "string" ? ` ${JSON.stringify(rule.name)}` : ""})`;
  const actions = Array.isArray(rule.do) ? rule.do : [rule.do];
  for (const [j, a] of actions.entries()) checkStep(a, `${named}, its action ${j + 1}`);
}

/** Checks one step, then the steps it holds (a `repeat`'s, a `rule`'s actions); `where` says which (`step 3`). */
function checkStep(step: unknown, where: string): void {
  const action = located(where, () => checkStepItself(step));
  const s = step as Record<string, unknown>;
  if (action === "repeat" && isObject(s.repeat) && Array.isArray(s.repeat.steps))
    for (const [j, inner] of s.repeat.steps.entries()) checkStep(inner, `${where} (repeat), its step ${j + 1}`);
  if (action === "rule") checkRule(s.rule, where);
}

/** The message of an unknown step action (or key): its name, the nearest known one. */
export function unknownActionMessage(key: string): string {
  const near = nearest(key, [...STEP_ACTIONS, ...STEP_MODIFIERS]);
  return `unknown step action ${JSON.stringify(key)}${near === undefined ? `; the actions are ${STEP_ACTIONS.join(", ")}` : ` (did you mean ${JSON.stringify(near)}?)`}`;
}

/** Checks a step's keys, time, modifiers and argument (not the steps it holds); returns its action. */
function checkStepItself(v: unknown): string | undefined {
  const step = objectOf(v, "a step");
  const keys = Object.keys(step);
  const unknown = keys.find((k) => !STEP_ACTIONS.includes(k) && !STEP_MODIFIERS.has(k));
  if (unknown !== undefined) throw new CaseBug(unknownActionMessage(unknown));
  const actions = keys.filter((k) => STEP_ACTIONS.includes(k));
  if (actions.length > 1) throw new CaseBug(`step has several actions: ${actions.join(", ")}`);
  const action = actions[0];
  for (const [mod, users] of Object.entries(MODIFIER_USERS))
    if (step[mod] !== undefined && !users.includes(action ?? ""))
      throw new CaseBug(`${mod} goes with ${users.join(", ")}; this step's action is ${action === undefined ? "none" : JSON.stringify(action)}`);
  for (const t of ["at", "after"])
    if (step[t] !== undefined && (typeof step[t] !== "number" || !Number.isFinite(step[t])))
      throw new CaseBug(`step time ${t} must be a number of ms; got ${text(step[t])}`);
  for (const mod of ["stalled", "together", "unpolled"])
    if (step[mod] !== undefined && step[mod] !== true) throw new CaseBug(`${mod} must be true; got ${text(step[mod])}`);
  for (const mod of ["ready", "expectError"])
    if (step[mod] !== undefined && typeof step[mod] !== "boolean") throw new CaseBug(`${mod} must be true or false; got ${text(step[mod])}`);
  for (const mod of ["bind", "comment"])
    if (step[mod] !== undefined && typeof step[mod] !== "string") throw new CaseBug(`${mod} must be text; got ${text(step[mod])}`);
  if (action === undefined) return undefined;
  const arg = step[action];
  // A repeat's steps and a rule's actions are checked as steps of their own (with their own location).
  const own = action === "repeat" && isObject(arg) ? { ...arg, steps: undefined } : action === "rule" ? undefined : arg;
  checkDollarKeys(own, action);
  checkDollarKeys(step.expect, "expect");
  checkArgument(action, arg, step.expect);
  return action;
}

/** Checks the argument of a step's `action` (and its `expect`) where it is written out: its keys, envelopes, timers and matchers. */
function checkArgument(action: string, arg: unknown, expect: unknown): void {
  const fields = ARGUMENT_FIELDS[action];
  const obj = isObject(arg) && !isTemplate(arg) ? arg : undefined;
  if (fields !== undefined && obj !== undefined) checkFields(obj, fields, action, "key", action);
  switch (action) {
    case "configure":
      if (obj?.config !== undefined) checkTimers(obj.config, "configure.config");
      break;
    case "deliver":
      if (obj?.envelope !== undefined) checkEnvelope(obj.envelope, "deliver.envelope");
      if (isObject(obj?.raw) && !isTemplate(obj.raw)) {
        checkFields(obj.raw, ["envelope", "unknownFields", "repeatBody"], "deliver.raw", "key", "deliver.raw");
        if (obj.raw.envelope !== undefined) checkEnvelope(obj.raw.envelope, "deliver.raw.envelope");
      }
      break;
    case "readResult":
      if (typeof obj?.status === "string" && !isTemplate(obj.status)) readStatus(obj.status);
      if (isObject(obj?.data) && !isTemplate(obj.data)) checkFields(obj.data, READ_DATA_KEYS, "readResult data", "key", "readResult.data");
      break;
    case "admit":
      for (const [i, item] of listOf(obj?.items).entries())
        if (isObject(item) && !isTemplate(item)) {
          checkFields(item, ["id", "announce", "announcement", "announcementJson", "local", "modelInput"], "an admitted item", "key", `admit.items[${i}]`);
          if (item.announcement !== undefined) checkAnnouncement(item.announcement, `admit.items[${i}].announcement`);
        }
      if (isObject(expect) && !isTemplate(expect)) {
        checkFields(expect, ["status", "items", "failures"], "admit's expect", "key", "expect");
        for (const [i, d] of listOf(expect.items).entries()) if (isObject(d)) checkFields(d, ["action", "reason"], "an expected decision", "key", `expect.items[${i}]`);
        checkFailures(expect.failures, "expect.failures");
      }
      break;
    case "announce":
      if (isObject(expect) && !isTemplate(expect)) {
        checkFields(expect, ["present", "match"], "announce's expect", "key", "expect");
        if (expect.match !== undefined) checkPattern(expect.match, ANNOUNCEMENT, "expect.match");
      }
      break;
    case "drain":
      for (const [i, w] of listOf(arg).entries())
        if (isObject(w)) {
          checkFields(w, ["request", "failures"], "an expected failed request", "key", `drain[${i}]`);
          checkFailures(w.failures, `drain[${i}].failures`);
        }
      break;
    case "expectSent":
    case "expectNone":
      for (const [i, m] of listOf(arg).entries()) checkMatcher(m, `${action}[${i}]`);
      break;
    case "expectCount":
      if (obj?.match !== undefined) checkMatcher(obj.match, "expectCount.match");
      break;
    case "expectOrder":
      if (obj !== undefined) {
        for (const [i, m] of (Array.isArray(obj.among) ? obj.among : [obj.among]).entries()) checkMatcher(m, `expectOrder.among[${i}]`);
        for (const [i, m] of listOf(obj.first).entries()) checkMatcher(m, `expectOrder.first[${i}]`);
      }
      break;
    case "expectStats":
      checkPattern(arg, STATS, "expectStats");
      break;
    case "expectView":
      for (const [i, w] of listOf(obj?.items).entries())
        if (isObject(w) && !isTemplate(w)) {
          checkFields(w, ["item", "with"], "an expected view item", "key", `expectView.items[${i}]`);
          if (w.with !== undefined) checkMessage(w.with, ITEM_DESCRIPTOR, `expectView.items[${i}].with`);
        }
      break;
  }
}

/** Checks a list of expected failed items (admit's `expect.failures`, a drained request's `failures`). */
function checkFailures(v: unknown, where: string): void {
  for (const [i, f] of listOf(v).entries()) if (isObject(f)) checkFields(f, ["item", "reason", "attempts"], "an expected failed item", "key", `${where}[${i}]`);
}

/**
 * Checks an envelope a case sends (`deliver`'s, proto3 JSON of ectp.v1.Envelope without its version,
 * sender id and epoch, which the runner fills in): every field one the schema names, every value
 * of its field's kind, every enum name one the enum has.
 * @throws CaseBug naming the field (`deliver.envelope.readRequest has no field "atemptId" ...`).
 */
export function checkEnvelope(v: unknown, where: string): void {
  checkMessage(v, ENVELOPE, where);
}

/**
 * Checks an announcement a case hands to `admit` (an item's `announcement`, proto3 JSON of
 * ectp.v1.Announcement) as {@link checkEnvelope} checks an envelope: protobufjs would drop a misspelt
 * field and send a bad enum name as the enum's default, so the implementation would be blamed for
 * what the case never said. Values of the right kind that the protocol refuses (a size of 0, an
 * unknown enum number) pass: they are what [C2] cases send.
 * @throws CaseBug naming the field.
 */
export function checkAnnouncement(v: unknown, where: string): void {
  checkMessage(v, ANNOUNCEMENT, where);
}

/**
 * Checks a case's timers (`config`, a configure step's `config`): each a field of testee.proto
 * `Timers`, camelCase, each a whole number (all are uint64).
 * @throws CaseBug naming the timer (`config has no timer "heartbeatMiss" ...`, `config.heartbeatMisses is "two": ...`).
 */
export function checkTimers(v: unknown, where: string): void {
  if (isTemplate(v)) return;
  const timers = objectOf(v, where);
  for (const key of Object.keys(timers))
    if (!Object.hasOwn(TIMERS.fields, key)) {
      const near = nearest(key, Object.keys(TIMERS.fields));
      throw new CaseBug(
        `${where} has no timer ${JSON.stringify(key)}${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}; the timers are the fields of testee.proto Timers: ${Object.keys(TIMERS.fields).join(", ")}`,
      );
    }
  checkMessage(timers, TIMERS, where);
}

/** The read status of a `readResult` step; anything but done, cancelled or failed is a case bug. */
export function readStatus(status: unknown): string {
  const s = String(status ?? "done");
  if (!READ_STATUSES.includes(s)) throw new CaseBug(`readResult status is ${READ_STATUSES.join(", ")}; got ${text(status)}`);
  return s;
}

/**
 * A `$window` as the numbers `[lo, hi]` once resolved (`lo` <= `hi`).
 * @throws CaseBug for anything else: a window that is not two numbers, or whose end comes before its start.
 */
export function windowBounds(w: unknown): [number, number] {
  if (!Array.isArray(w) || w.length !== 2 || w.some((x) => !Number.isFinite(Number(x))))
    throw new CaseBug(`$window is [from, to], two times in ms; got ${text(w)}`);
  const [lo, hi] = w.map(Number) as [number, number];
  if (lo > hi) throw new CaseBug(`$window ${text(w)} ends before it starts: write [from, to], from <= to`);
  return [lo, hi];
}

/**
 * Refuses a key starting with `$` that is no operator, matcher key or template macro (a misspelt
 * `$bnd` would be matched as a field no output has, and never match), and a macro's object with
 * keys the macro does not take (its `with` is checked as an ItemDescriptor).
 */
function checkDollarKeys(v: unknown, where: string): void {
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) checkDollarKeys(x, `${where}[${i}]`);
    return;
  }
  if (!isObject(v)) return;
  const keys = Object.keys(v);
  for (const k of keys)
    if (k.startsWith("$") && !DOLLAR_KEYS.includes(k)) {
      const near = nearest(k, DOLLAR_KEYS);
      throw new CaseBug(
        `${where} has an unknown operator ${JSON.stringify(k)}${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}; the known ones are ${DOLLAR_KEYS.join(", ")}`,
      );
    }
  const macros = keys.filter((k) => Object.hasOwn(TEMPLATE_MACROS, k));
  if (macros.length > 1) throw new CaseBug(`${where} has several templates in one object: ${macros.join(", ")}`);
  const macro = macros[0];
  if (macro !== undefined) {
    const takes = TEMPLATE_MACROS[macro] as readonly string[];
    const other = keys.find((k) => k !== macro && !takes.includes(k));
    if (other !== undefined)
      throw new CaseBug(`${where}: ${macro} takes ${takes.length === 0 ? "no other key" : takes.join(", ")} beside it; got ${JSON.stringify(other)}`);
    if ((macro === "$descriptor" || macro === "$announcement") && v.with !== undefined) checkMessage(v.with, ITEM_DESCRIPTOR, `${where}.with`);
  }
  for (const k of keys) checkDollarKeys(v[k], `${where}.${k}`);
}

/**
 * Checks a matcher of testee outputs (expectSent, expectNone, expectCount, expectOrder, a rule's
 * `on`): its `$window` (two numbers, in order, where written out) and its pattern of `Output`.
 */
function checkMatcher(m: unknown, where: string): void {
  if (isTemplate(m)) return;
  const matcher = objectOf(m, where);
  const { $window, $bindTime, $times: _, ...pattern } = matcher;
  // A window with a template in it is checked as its step resolves it.
  if ($window !== undefined && !isTemplate($window) && !(Array.isArray($window) && $window.some(isTemplate))) located(`${where}.$window`, () => windowBounds($window));
  if ($bindTime !== undefined && typeof $bindTime !== "string") throw new CaseBug(`${where}.$bindTime names a variable; got ${text($bindTime)}`);
  checkPattern(pattern, OUTPUT, where);
}

/**
 * Checks a pattern of message `type`: its fields are fields of `type`, its enum names names of
 * their enums, and no object mixes operators with fields (read as a pattern of fields, its `$gte`
 * would be a field no output has).
 */
function checkPattern(v: unknown, type: Type, where: string): void {
  if (!isObject(v) || isTemplate(v)) return;
  const keys = Object.keys(v);
  if (keys.length > 0 && keys.every((k) => MATCH_OPERATORS.includes(k))) return;
  const ops = keys.filter((k) => k.startsWith("$"));
  if (ops.length > 0)
    throw new CaseBug(
      `${where} mixes operators (${ops.join(", ")}) with fields (${keys.filter((k) => !k.startsWith("$")).join(", ")}): ` +
        "an object is either operators or a pattern of fields, where an operator would be a field no output has",
    );
  for (const k of keys) checkPatternValue(v[k], fieldOf(type, k, where), `${where}.${k}`);
}

/** Checks a pattern's value of `field`: a list of its elements (repeated), one element, or operators. */
function checkPatternValue(v: unknown, field: Field, where: string): void {
  if (field.repeated && Array.isArray(v)) {
    for (const [i, x] of v.entries()) checkPatternElement(x, field, `${where}[${i}]`);
    return;
  }
  checkPatternElement(v, field, where);
}

/** Checks one value of `field`'s type in a pattern: a nested pattern, an enum name, or operators (their enum names and `$has` elements). */
function checkPatternElement(v: unknown, field: Field, where: string): void {
  if (v === null || isTemplate(v)) return;
  const resolved = field.resolvedType;
  if (isObject(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => MATCH_OPERATORS.includes(k))) {
    if (resolved !== null && !isMessageType(resolved))
      for (const x of [v.$ne, ...(Array.isArray(v.$in) ? v.$in : [])]) if (typeof x === "string" && !isTemplate(x)) enumName(x, resolved, where);
    if (Array.isArray(v.$has)) for (const [i, x] of v.$has.entries()) checkPatternElement(x, field, `${where}.$has[${i}]`);
    return;
  }
  if (resolved === null) return;
  if (isMessageType(resolved)) checkPattern(v, resolved, where);
  else if (typeof v === "string") enumName(v, resolved, where);
}

/**
 * Checks a message a case writes out for the runner to send (an envelope, a fingerprint, timers, a
 * descriptor's `with`) as responses are checked (proto.ts `jsonProblem`): proto3 JSON of `type`,
 * each field named as the schema names it (lowerCamelCase only: the runner hands it to protobufjs
 * as written), each value of its field's kind, each enum name one its enum has; templates are left
 * for the step to resolve.
 */
function checkMessage(v: unknown, type: Type, where: string): void {
  if (isTemplate(v)) return;
  if (!isObject(v)) throw new CaseBug(`${where} is ${text(v)}: message ${typeName(type)} is written as a JSON object`);
  const problem = jsonProblem(v, type, where, { leaveOut: isTemplate, snakeCase: false });
  if (problem !== undefined) throw new CaseBug(problem);
}

/**
 * Checks `name`, in a pattern, is a value name of `e`, or a number in a string (`"77"`): outputs may
 * carry a value without a name.
 */
function enumName(name: string, e: Enum, where: string): void {
  if (Object.hasOwn(e.values, name) || /^\d+$/.test(name)) return;
  const names = Object.keys(e.values);
  const near = nearest(name, names);
  throw new CaseBug(
    `${where} is ${JSON.stringify(name)}, which is not a name of enum ${typeName(e)} (${near === undefined ? `its names: ${names.join(", ")}` : `did you mean ${JSON.stringify(near)}?`}); ` +
      "a value without a name is written as its number",
  );
}

/** The field `key` of `type`, as the schema names it (lowerCamelCase). @throws CaseBug naming the nearest field when it has none. */
function fieldOf(type: Type, key: string, where: string): Field {
  // Own fields only: `fields` is a plain object, so "constructor" would find its prototype's.
  const field = Object.hasOwn(type.fields, key) ? type.fields[key] : undefined;
  if (field !== undefined) return field;
  const names = Object.keys(type.fields);
  const near = nearest(key, names);
  throw new CaseBug(
    `${where} (${typeName(type)}) has a field ${JSON.stringify(key)} that the schema does not define${near === undefined ? `; its fields: ${names.join(", ")}` : ` (did you mean ${JSON.stringify(near)}?)`}`,
  );
}

/**
 * Refuses a key of `obj` not among `known` (a misspelt name would be ignored), naming the nearest.
 * `what` names the object (`a case`), `noun` its keys (`field`), `where` its path in messages.
 */
function checkFields(obj: Record<string, unknown>, known: readonly string[], what: string, noun: string, where?: string): void {
  const key = Object.keys(obj).find((k) => !known.includes(k));
  if (key === undefined) return;
  const near = nearest(key, known);
  throw new CaseBug(
    `${where === undefined ? "" : `${where}: `}unknown ${noun} ${JSON.stringify(key)}${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}; ` +
      `${what} takes ${known.join(", ")}`,
  );
}

/** Refuses a value that is not a whole number >= 0 (left out is fine). */
function wholeNumber(v: unknown, where: string): void {
  if (v !== undefined && !(typeof v === "number" && Number.isSafeInteger(v) && v >= 0)) throw new CaseBug(`${where} is a whole number >= 0; got ${text(v)}`);
}

/** Runs `check`, prefixing the message of a CaseBug it throws with `where` (`step 3: ...`). */
function located<T>(where: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof CaseBug) throw new CaseBug(`${where}: ${err.message}`);
    throw err;
  }
}

function objectOf(v: unknown, where: string): Record<string, unknown> {
  if (!isObject(v)) throw new CaseBug(`${where} is ${text(v)}; expected a JSON object`);
  return v;
}

function listOf(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Whether `v` is resolved as its step runs: a `${...}` in a string, or an object of a template macro (`$key`, `$expr`, ...). */
function isTemplate(v: unknown): boolean {
  if (typeof v === "string") return v.includes("${");
  return isObject(v) && Object.keys(v).some((k) => Object.hasOwn(TEMPLATE_MACROS, k));
}

function isMessageType(t: Type | Enum): t is Type {
  return "fields" in t;
}

function typeName(t: Type | Enum): string {
  return t.fullName.slice(1);
}



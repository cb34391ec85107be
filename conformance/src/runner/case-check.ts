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
import { DEFAULT_CONSUMER_CONFIG } from "@ectp/core";
import type { Enum, Field, Type } from "protobufjs";
import { type CaseRole, KNOWN_FEATURES } from "../cases/format.js";
import { ROOT, jsonProblem, jsonText as text, nearest } from "../proto.js";
import { CaseBug, MATCH_OPERATORS, absentAlone, comparisonOperand } from "./match.js";

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

/** The testee's own id when the case's `self` gives none, by role. */
export const SELF_IDS: Readonly<Record<CaseRole, string>> = { consumer: "C1", producer: "P1", subscriber: "R1" };

/** The one scripted peer of a case that gives no `peers`, by role: a producer for a consumer or a subscriber, a consumer for a producer. */
export const DEFAULT_PEER_IDS: Readonly<Record<CaseRole, string>> = { consumer: "P1", producer: "C1", subscriber: "P1" };

/** The fields of a suite file (cases/format.ts `SuiteFile`). */
export const SUITE_FIELDS: readonly string[] = ["suite", "description", "defaults", "cases"];

/** The fields of a case's `self`, of a scripted peer, of an item fixture and of a rule (cases/format.ts). */
const SELF_FIELDS: readonly string[] = ["id", "epoch", "seed", "transportMetadata"];
const PEER_FIELDS: readonly string[] = ["epoch", "hello", "heartbeat", "fingerprint"];
const ITEM_FIELDS: readonly string[] = ["size", "checksum", "dtype", "shape", "producer", "hash", "fill", "count", "fingerprint", "storedAs"];
const STORED_AS_FIELDS: readonly string[] = ["producer", "epoch"];
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
  "expectDeadline",
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

/** The actions that send the testee no command (the expectations and the runner's own bookkeeping): a `stalled` step (a jump without a poll) may not have one. */
const NOT_COMMANDS: ReadonlySet<string> = new Set(STEP_ACTIONS.filter((a) => a.startsWith("expect") || ["flush", "rule", "removeRule", "set"].includes(a)));

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
  expectDeadline: ["by", "why"],
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
  const roles = spec.role === "any" ? CASE_ROLES : CASE_ROLES.filter((r) => r === spec.role);
  // [I1] Timers the testee refuses would fail the case as the implementation's (a role load.ts refuses has none).
  const configBug = isObject(spec.config) && !isTemplate(spec.config) ? configurationBug(spec.config, roles, false) : undefined;
  if (configBug !== undefined) throw new CaseBug(configBug);
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
    if (item.fingerprint !== undefined) checkMessage(item.fingerprint, FINGERPRINT, `${where}.fingerprint`);
    if (item.storedAs !== undefined) checkStoredAs(item.storedAs, spec.role, `${where}.storedAs`);
  }
  const rules = spec.rules === undefined ? [] : spec.rules;
  if (!Array.isArray(rules)) throw new CaseBug(`"rules" is a list of rules; got ${text(rules)}`);
  const steps = Array.isArray(spec.steps) ? spec.steps : [];
  const ctx = roles.length === 0 ? undefined : caseContext(spec, roles, [...steps, ...rules]);
  for (const [i, r] of rules.entries()) checkRule(r, `rule ${i + 1}`, ctx);
  for (const [i, step] of steps.entries()) checkStep(step, `step ${i + 1}`, ctx);
}

/** The roles a case runs under (role "any": any of them, whichever the features file claims first). */
const CASE_ROLES: readonly CaseRole[] = ["consumer", "producer", "subscriber"];

/**
 * What a case's steps refer to, as the runner resolves it (runner/script.ts): the case's timers,
 * its scripted peers, the testee's own id, the peers the testee can hear of, its item fixtures.
 */
interface CaseContext {
  /** The roles it runs under, each with its own timers. */
  readonly roles: readonly CaseRole[];
  /** Its `config`, under a configure step's. */
  readonly config: Readonly<Record<string, unknown>>;
  /** Its scripted peers: `peers`, or the role's one default peer. */
  readonly peers: readonly string[];
  /** The testee's own id: `self.id`, or the role's default (a case of role "any": each role's). */
  readonly self: readonly string[];
  /**
   * Every peer the testee can hear of, and so send to: the scripted peers, itself, the producers of
   * its item fixtures, and every sender or producer id the steps and rules write out (a `deliver`'s
   * `from`, a `senderId`, a `producerId`, a followed producer). Undefined when one is a template:
   * then any id may be one.
   */
  readonly heard: ReadonlySet<string> | undefined;
  /** Its single item fixtures (those without `count`). */
  readonly fixtures: ReadonlySet<string>;
  /** Its item families (fixtures with `count`), each with its count: members `<name>.0` to `<name>.<count - 1>`. */
  readonly families: ReadonlyMap<string, number>;
  /** The names its `items` declare (fixtures and families), for messages. */
  readonly declared: readonly string[];
}

/** The context of a case whose fields were checked (`roles` not empty), its `steps` and `rules` in `scripts`. */
function caseContext(spec: Record<string, unknown>, roles: readonly CaseRole[], scripts: readonly unknown[]): CaseContext {
  const self = (spec.self as { id?: string } | undefined)?.id;
  const items = (spec.items ?? {}) as Record<string, { count?: unknown; producer?: unknown }>;
  const fixtures = new Set<string>();
  const families = new Map<string, number>();
  for (const [name, item] of Object.entries(items)) {
    if (typeof item.count === "number") families.set(name, item.count);
    else fixtures.add(name);
  }
  const ctx = {
    roles,
    config: isObject(spec.config) ? spec.config : {},
    peers: spec.peers === undefined ? (spec.role === "any" ? [] : roles.map((r) => DEFAULT_PEER_IDS[r])) : Object.keys(spec.peers as object),
    self: self === undefined ? roles.map((r) => SELF_IDS[r]) : [self],
    fixtures,
    families,
    declared: Object.keys(items),
  };
  const heard = new Set([...ctx.peers, ...ctx.self, ...Object.values(items).map((f) => (typeof f.producer === "string" ? f.producer : "P1"))]);
  return { ...ctx, heard: heardNames(scripts, heard) ? heard : undefined };
}

/** The keys whose text, written in a step or rule, names a peer to the testee: a sender, a producer. */
const PEER_NAMING_KEYS: readonly string[] = ["from", "senderId", "producerId", "producer_id", "producer", "follow"];

/**
 * Adds to `heard` every peer id `v` (steps, rules) names to the testee (see {@link PEER_NAMING_KEYS}),
 * the "P1" of a `deliver` without `from`, and those of an `announcementJson`'s text.
 * @returns false when one is a template (any id may be one).
 */
function heardNames(v: unknown, heard: Set<string>): boolean {
  if (Array.isArray(v)) return v.every((x) => heardNames(x, heard));
  if (!isObject(v)) return true;
  let closed = true;
  for (const [k, x] of Object.entries(v)) {
    if (PEER_NAMING_KEYS.includes(k) && (typeof x === "string" || isTemplate(x))) {
      if (isTemplate(x)) closed = false;
      else heard.add(x as string);
    }
    // runner/script.ts `deliver`: a message from no one named comes from P1.
    if (k === "deliver" && isObject(x) && x.from === undefined) heard.add("P1");
    if (k === "announcementJson" && typeof x === "string") closed = heardNames(parsedOrNothing(x), heard) && closed;
    closed = heardNames(x, heard) && closed;
  }
  return closed;
}

/** `json` parsed, or undefined when it is no JSON (an announcementJson may be written broken on purpose). */
function parsedOrNothing(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/**
 * Refuses a fixture name written out that the case's `items` lack (runner/script.ts `fixture`
 * would refuse it only as its step runs): `family` says whether a family's name (all its
 * members) is taken too, as `put`, `expectSnapshot`, `expectView` and `configure`'s `items` take it.
 */
function checkFixture(name: unknown, ctx: CaseContext | undefined, where: string, family = false): void {
  if (ctx === undefined || typeof name !== "string" || isTemplate(name) || ctx.fixtures.has(name) || isFamilyMember(name, ctx.families)) return;
  const count = ctx.families.get(name);
  if (count !== undefined) {
    if (family) return;
    throw new CaseBug(`${where} names ${JSON.stringify(name)}, a family of ${count} items: name one of its members, ${name}.0 to ${name}.${count - 1}`);
  }
  const near = nearest(name, ctx.declared);
  throw new CaseBug(
    `${where} names ${JSON.stringify(name)}, which is no item fixture of this case${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}; ` +
      `${ctx.declared.length === 0 ? "it has no items" : `its items are ${ctx.declared.join(", ")}`}: add it to "items" or name one of them`,
  );
}

/** Whether `name` is `<family>.<i>`, a member of one of `families` (runner/script.ts names them so). */
function isFamilyMember(name: string, families: ReadonlyMap<string, number>): boolean {
  const m = /^(.*)\.(0|[1-9]\d*)$/.exec(name);
  const count = m === null ? undefined : families.get(m[1] as string);
  return count !== undefined && Number(m?.[2]) < count;
}

/** Refuses a peer id written out that is no scripted peer (runner/script.ts `peer`, which `greet`, `peerDown` and `peerUp` resolve by, would refuse it only as its step runs). */
function checkScriptedPeer(id: unknown, ctx: CaseContext | undefined, where: string): void {
  if (ctx === undefined || typeof id !== "string" || isTemplate(id) || ctx.peers.includes(id)) return;
  const near = nearest(id, ctx.peers);
  throw new CaseBug(
    `${where} names ${JSON.stringify(id)}, which is no scripted peer of this case${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}; ` +
      `${ctx.peers.length === 0 ? "it has none" : `its peers are ${ctx.peers.join(", ")}`}: the runner plays only those, so add it to "peers" or name one of them`,
  );
}

/**
 * Refuses a `deliver` from the testee's own id (an absent `from` is P1, the testee of a producer
 * case): a message comes from a peer. A sender the runner does not script is fine: a stranger.
 */
function checkSender(id: unknown, ctx: CaseContext | undefined, where: string): void {
  if (ctx === undefined || typeof id !== "string" || !ctx.self.includes(id)) return;
  throw new CaseBug(
    `${where} is ${JSON.stringify(id)}, the testee's own id: a message comes from a peer, so name the one that sends it` +
      `${ctx.peers.length === 0 ? "" : ` (its peers are ${ctx.peers.join(", ")})`}`,
  );
}

/**
 * Refuses a peer id written out, as the one an output goes to (a matcher's `send.to`, a read's,
 * connection's or disconnection's `peerId`, `expectSnapshot`'s `to`), that the testee never hears
 * of: no output goes to it, so an expectSent of it fails as the implementation's, and an
 * expectNone of it passes whatever the testee does.
 */
function checkAddressee(id: unknown, ctx: CaseContext | undefined, where: string): void {
  if (ctx?.heard === undefined || typeof id !== "string" || isTemplate(id) || ctx.heard.has(id)) return;
  const near = nearest(id, ctx.heard);
  throw new CaseBug(
    `${where} names ${JSON.stringify(id)}, which the testee never hears of${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}: ` +
      `it is no scripted peer (${ctx.peers.join(", ") || "none"}), not the testee (${ctx.self.join(", ")}), and no sender or producer the case names, ` +
      "so no output goes to it: name the peer the output goes to",
  );
}

/** Checks a rule (of the case's `rules`, `where` "rule 2", or a `rule` step's, "step 3"), then its actions. */
function checkRule(r: unknown, where: string, ctx: CaseContext | undefined): void {
  const rule = located(where, () => {
    const rule = objectOf(r, "the rule");
    checkFields(rule, RULE_FIELDS, "a rule", "field");
    checkDollarKeys({ ...rule, do: undefined }, "rule", ctx);
    checkMatcher(rule.on, "on", ctx);
    return rule;
  });
  // A rule step's actions are named after the step: `step 3 (rule "grant"), its action 1`.
  const named = where.startsWith("rule") ? where : `${where} (rule${typeof rule.name === "string" ? ` ${JSON.stringify(rule.name)}` : ""})`;
  const actions = Array.isArray(rule.do) ? rule.do : [rule.do];
  for (const [j, a] of actions.entries()) checkStep(a, `${named}, its action ${j + 1}`, ctx);
}

/** Checks one step, then the steps it holds (a `repeat`'s, a `rule`'s actions); `where` says which (`step 3`). */
function checkStep(step: unknown, where: string, ctx: CaseContext | undefined): void {
  const action = located(where, () => checkStepItself(step, ctx));
  const s = step as Record<string, unknown>;
  if (action === "repeat" && isObject(s.repeat) && Array.isArray(s.repeat.steps))
    for (const [j, inner] of s.repeat.steps.entries()) checkStep(inner, `${where} (repeat), its step ${j + 1}`, ctx);
  if (action === "rule") checkRule(s.rule, where, ctx);
}

/** The message of an unknown step action (or key): its name, the nearest known one. */
export function unknownActionMessage(key: string): string {
  const near = nearest(key, [...STEP_ACTIONS, ...STEP_MODIFIERS]);
  return `unknown step action ${JSON.stringify(key)}${near === undefined ? `; the actions are ${STEP_ACTIONS.join(", ")}` : ` (did you mean ${JSON.stringify(near)}?)`}`;
}

/** Checks a step's keys, time, modifiers and argument (not the steps it holds); returns its action. */
function checkStepItself(v: unknown, ctx: CaseContext | undefined): string | undefined {
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
  // A stalled step jumps the clock without a poll: an expectation there would see only what came before.
  if (step.stalled !== undefined && action !== undefined && NOT_COMMANDS.has(action))
    throw new CaseBug(`stalled goes with a command the testee handles; ${action} sends none, so it would check outputs the testee was never polled for (a false pass)`);
  for (const mod of ["ready", "expectError"])
    if (step[mod] !== undefined && typeof step[mod] !== "boolean") throw new CaseBug(`${mod} must be true or false; got ${text(step[mod])}`);
  for (const mod of ["bind", "comment"])
    if (step[mod] !== undefined && typeof step[mod] !== "string") throw new CaseBug(`${mod} must be text; got ${text(step[mod])}`);
  if (action === undefined) return undefined;
  const arg = step[action];
  // A repeat's steps and a rule's actions are checked as steps of their own (with their own location).
  const own = action === "repeat" && isObject(arg) ? { ...arg, steps: undefined } : action === "rule" ? undefined : arg;
  checkDollarKeys(own, action, ctx);
  checkDollarKeys(step.expect, "expect", ctx);
  checkArgument(action, step, ctx);
  return action;
}

/**
 * Checks the argument of a step's `action` (and its `expect`) where it is written out: its keys,
 * envelopes, timers and matchers, and the peers and item fixtures it names.
 */
function checkArgument(action: string, step: Record<string, unknown>, ctx: CaseContext | undefined): void {
  const arg = step[action];
  const expect = step.expect;
  const fields = ARGUMENT_FIELDS[action];
  const obj = isObject(arg) && !isTemplate(arg) ? arg : undefined;
  if (fields !== undefined && obj !== undefined) checkFields(obj, fields, action, "key", action);
  switch (action) {
    case "configure":
      if (obj?.config !== undefined) checkTimers(obj.config, "configure.config");
      // [I1] Timers the testee refuses, unless the step expects that refusal (the case's config, checked already, under them).
      if (ctx !== undefined && step.expectError !== true && isObject(obj?.config) && !isTemplate(obj.config)) {
        const bug = configurationBug({ ...ctx.config, ...obj.config }, ctx.roles, true);
        if (bug !== undefined) throw new CaseBug(bug);
      }
      for (const [i, name] of listOf(obj?.items).entries()) checkFixture(name, ctx, `configure.items[${i}]`, true);
      break;
    case "put":
      checkFixture(arg, ctx, "put", true);
      break;
    case "markReady":
    case "discard":
    case "evict":
      checkFixture(arg, ctx, action);
      break;
    case "greet":
    case "peerDown":
      checkScriptedPeer(arg, ctx, action);
      break;
    case "peerUp":
      checkScriptedPeer(obj?.peer, ctx, "peerUp.peer");
      break;
    case "expectSnapshot":
      // runner/script.ts `expectSnapshot`: an answer to C1 when `to` is absent.
      if (obj !== undefined) checkAddressee(obj.to ?? "C1", ctx, obj.to === undefined ? 'expectSnapshot.to (absent, so "C1")' : "expectSnapshot.to");
      if (typeof obj?.items === "string") checkFixture(obj.items, ctx, "expectSnapshot.items", true);
      for (const [i, name] of listOf(obj?.items).entries()) checkFixture(name, ctx, `expectSnapshot.items[${i}]`, true);
      break;
    case "deliver":
      // runner/script.ts `deliver`: from P1 when `from` is absent.
      if (obj !== undefined) checkSender(obj.from ?? "P1", ctx, obj.from === undefined ? 'deliver.from (absent, so "P1")' : "deliver.from");
      if (obj?.envelope !== undefined) checkEnvelope(obj.envelope, "deliver.envelope");
      if (isObject(obj?.raw) && !isTemplate(obj.raw)) {
        checkFields(obj.raw, ["envelope", "unknownFields", "repeatBody"], "deliver.raw", "key", "deliver.raw");
        if (obj.raw.envelope !== undefined) checkEnvelope(obj.raw.envelope, "deliver.raw.envelope");
      }
      break;
    case "readResult":
      if (typeof obj?.status === "string" && !isTemplate(obj.status)) readStatus(obj.status);
      if (isObject(obj?.data) && !isTemplate(obj.data)) {
        checkFields(obj.data, READ_DATA_KEYS, "readResult data", "key", "readResult.data");
        checkFixture(obj.data.item, ctx, "readResult.data.item");
      } else checkFixture(obj?.data, ctx, "readResult.data");
      break;
    case "admit":
      for (const [i, item] of listOf(obj?.items).entries())
        if (isObject(item) && !isTemplate(item)) {
          checkFields(item, ["id", "announce", "announcement", "announcementJson", "local", "modelInput"], "an admitted item", "key", `admit.items[${i}]`);
          checkFixture(item.announce, ctx, `admit.items[${i}].announce`);
          if (item.announcement !== undefined) checkAnnouncement(item.announcement, `admit.items[${i}].announcement`);
        }
      if (isObject(expect) && !isTemplate(expect)) {
        checkFields(expect, ["status", "items", "failures"], "admit's expect", "key", "expect");
        requireList(expect.items, "expect.items");
        requireList(expect.failures, "expect.failures");
        for (const [i, d] of listOf(expect.items).entries()) if (isObject(d)) checkFields(d, ["action", "reason"], "an expected decision", "key", `expect.items[${i}]`);
        checkFailures(expect.failures, "expect.failures");
      }
      break;
    case "announce":
      checkFixture(arg, ctx, action);
      if (isObject(expect) && !isTemplate(expect)) {
        checkFields(expect, ["present", "match"], "announce's expect", "key", "expect");
        if (expect.match !== undefined) checkPattern(expect.match, ANNOUNCEMENT, "expect.match");
      }
      break;
    case "drain":
      requireList(arg, "drain");
      for (const [i, w] of listOf(arg).entries())
        if (isObject(w)) {
          checkFields(w, ["request", "failures"], "an expected failed request", "key", `drain[${i}]`);
          requireList(w.failures, `drain[${i}].failures`);
          checkFailures(w.failures, `drain[${i}].failures`);
        }
      break;
    case "expectSent":
    case "expectNone":
      // An empty list (or one matcher not in a list) would check nothing: a false pass.
      if (!isTemplate(arg) && (!Array.isArray(arg) || arg.length === 0))
        throw new CaseBug(`${action} needs a non-empty list of matchers; got ${text(arg)}`);
      for (const [i, m] of listOf(arg).entries()) checkMatcher(m, `${action}[${i}]`, ctx);
      break;
    case "expectCount":
      if (obj?.match !== undefined) checkMatcher(obj.match, "expectCount.match", ctx);
      if (obj !== undefined && obj.min === undefined && obj.max === undefined)
        throw new CaseBug("expectCount needs min, max or both: without them it checks nothing");
      // A bound holding a template is checked as the step resolves it (runner/script.ts `expectCount`).
      if (obj !== undefined) {
        const min = obj.min === undefined || isTemplate(obj.min) ? 0 : countBound("min", obj.min);
        const max = obj.max === undefined || isTemplate(obj.max) ? Number.POSITIVE_INFINITY : countBound("max", obj.max);
        if (min > max) throw new CaseBug(`expectCount.min ${min} is above its max ${max}: no count satisfies both`);
      }
      break;
    case "expectOrder":
      if (obj !== undefined) {
        for (const [i, m] of (Array.isArray(obj.among) ? obj.among : [obj.among]).entries()) checkMatcher(m, `expectOrder.among[${i}]`, ctx);
        for (const [i, m] of listOf(obj.first).entries()) checkMatcher(m, `expectOrder.first[${i}]`, ctx);
      }
      break;
    case "expectStats":
      checkPattern(arg, STATS, "expectStats");
      break;
    case "expectDeadline":
      // Without a time it would check nothing: a false pass.
      if (obj === undefined || typeof obj.by !== "number" || !Number.isFinite(obj.by) || obj.by < 0)
        throw new CaseBug(`expectDeadline needs {"by": T}, T a case time in ms >= 0 the testee's last poll must have reported a deadline at or before; got ${text(arg)}`);
      if (obj.why !== undefined && typeof obj.why !== "string") throw new CaseBug(`expectDeadline.why is text; got ${text(obj.why)}`);
      break;
    case "expectView":
      for (const [i, w] of listOf(obj?.items).entries())
        if (isObject(w) && !isTemplate(w)) {
          checkFields(w, ["item", "with"], "an expected view item", "key", `expectView.items[${i}]`);
          checkFixture(w.item, ctx, `expectView.items[${i}].item`);
          if (w.with !== undefined) checkMessage(w.with, ITEM_DESCRIPTOR, `expectView.items[${i}].with`);
        } else checkFixture(w, ctx, `expectView.items[${i}]`, true);
      break;
  }
}

/**
 * An `expectCount` bound, `min` or `max`, as its step resolved it: a whole number >= 0 (a decimal
 * string too, as a bound 64-bit value is one).
 * @throws CaseBug for anything else: `Number` would make `"none"` NaN, and every count pass.
 */
export function countBound(key: "min" | "max", v: unknown): number {
  const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) throw new CaseBug(`expectCount.${key} must be a whole number >= 0; got ${JSON.stringify(v)}`);
  return n;
}

/** Refuses a value that must be a list (a single object there would be read as no expectation: a false pass). */
function requireList(v: unknown, where: string): void {
  if (v !== undefined && !Array.isArray(v) && !isTemplate(v)) throw new CaseBug(`${where} must be a list; got ${text(v)} (put one entry in [ ])`);
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

/** Why a consumer refuses a 0: SPEC.md [C11]. */
const CONSUMER_ZERO = "SPEC.md [C11]: a consumer configuration is rejected unless every duration and max_item_bytes is a positive integer";

/** Why a producer refuses a 0: SPEC.md section 8. */
const PRODUCER_ZERO =
  "SPEC.md section 8: a producer configuration is rejected unless its lease, heartbeat interval, quotas, replay buffer and max_batch_bytes are positive integers";

/** Why a consumer or producer refuses `heartbeatMisses` 0: SPEC.md [P8]. */
const MISSES =
  "SPEC.md [P8]: a peer is gone after heartbeat_misses silent intervals, 1 or more (the references take 1 to 2^53 - 1, and a testee that keeps it at 3 refuses any other value)";

/** Why a subscriber refuses a 0: TESTEE-PROTOCOL.md, Configure. */
const SUBSCRIBER_ZERO = "TESTEE-PROTOCOL.md, Configure: a present 0 in a subscriber's heartbeat_interval_ms or max_view_bytes is an invalid configuration";

/**
 * The timers whose present 0 SPEC.md or TESTEE-PROTOCOL.md make an invalid configuration, by role,
 * each with the rule that says so. A role ignores another's (TESTEE-PROTOCOL.md, Configure), and a
 * producer's `retryAfterMs` and `resendIntervalMs` take 0 (no hint; answers not spaced).
 */
const ZERO_REFUSED: Readonly<Record<CaseRole, Readonly<Record<string, string>>>> = {
  consumer: {
    ...sameReason(
      ["heartbeatIntervalMs", "waitBudgetMs", "grantWaitMs", "transferTimeoutMs", "quarantineCapMs", "backoffInitialMs", "backoffMaxMs", "leaseSafetyMarginMs", "leaseMs", "maxItemBytes"],
      CONSUMER_ZERO,
    ),
    heartbeatMisses: MISSES,
  },
  producer: {
    ...sameReason(["heartbeatIntervalMs", "leaseMs", "maxPinnedBytesPerConsumer", "maxGrantsPerConsumer", "replayBufferBatches", "maxBatchBytes"], PRODUCER_ZERO),
    heartbeatMisses: MISSES,
  },
  subscriber: sameReason(["heartbeatIntervalMs", "maxViewBytes"], SUBSCRIBER_ZERO),
};

/** Each of `timers` with the one rule `why`. */
function sameReason(timers: readonly string[], why: string): Record<string, string> {
  return Object.fromEntries(timers.map((timer) => [timer, why]));
}

/** The largest values testee.proto `Timers` allows, by producer timer, each with the rule that says so. */
const PRODUCER_MAXIMA: Readonly<Record<string, readonly [number, string]>> = {
  maxBatchBytes: [8_388_608, "SPEC.md [E1]: a producer refuses a batch size bound above 8 MiB"],
  resendIntervalMs: [1_000, "SPEC.md [E2] and testee.proto Timers: a resend interval of at most 1 s"],
};

/**
 * What makes `timers` an invalid configuration for `role` (the timer and the rule), which a testee
 * answers with Error; undefined when nothing does that can be told from what is written out (a
 * template's value is left to the step that resolves it).
 */
export function invalidConfiguration(timers: Record<string, unknown>, role: CaseRole): string | undefined {
  // A number, or the decimal digits proto3 JSON writes a uint64 as; NaN for a template; undefined when absent.
  const value = (key: string): number | undefined => {
    const v = timers[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "number") return v;
    return typeof v === "string" && /^\d+$/.test(v) ? Number(v) : Number.NaN;
  };
  for (const [key, why] of Object.entries(ZERO_REFUSED[role])) if (value(key) === 0) return `${key} is 0 (${why})`;
  if (role === "consumer") {
    // An absent timer is SPEC.md section 12's default (as @ectp/core's defaults are, tested there).
    const written = (key: string) => value(key) ?? (DEFAULT_CONSUMER_CONFIG[key as keyof typeof DEFAULT_CONSUMER_CONFIG] as number);
    // The timers a rule relates, with their values, an absent one's said to be the default.
    const shown = (keys: string[]) => keys.map((k) => `${k} ${written(k)}${value(k) === undefined ? " (the default)" : ""}`).join(", ");
    // [C11] backoff_initial <= backoff_max, and a read ends before the producer may reuse its memory.
    if (written("backoffInitialMs") > written("backoffMaxMs"))
      return `backoffInitialMs is above backoffMaxMs (${shown(["backoffInitialMs", "backoffMaxMs"])}; SPEC.md [C11]: a consumer configuration is rejected unless backoff_initial <= backoff_max)`;
    if (written("transferTimeoutMs") > written("leaseMs") - written("leaseSafetyMarginMs"))
      return (
        `transferTimeoutMs is above leaseMs - leaseSafetyMarginMs (${shown(["transferTimeoutMs", "leaseMs", "leaseSafetyMarginMs"])}; ` +
        "SPEC.md [C11]: a consumer configuration is rejected unless transfer_timeout <= lease - safety_margin)"
      );
  }
  if (role === "producer")
    for (const [key, [max, why]] of Object.entries(PRODUCER_MAXIMA)) {
      const v = value(key);
      if (v !== undefined && v > max) return `${key} is ${v}, above ${max} (${why})`;
    }
  return undefined;
}

/**
 * The case bug of timers the testee would refuse when the case does not say it expects that: the
 * case's `config` (`step` false), which every Configure of the case sends, or a configure step's
 * over it (`step` true). Written there, the refusal would fail the case as the implementation's
 * [I1]; a case checks a refusal with a `configure` step and `"expectError": true`.
 * @returns the message, or undefined when the timers are valid for each of `roles`.
 */
export function configurationBug(timers: Record<string, unknown>, roles: readonly CaseRole[], step: boolean): string | undefined {
  for (const role of roles) {
    const problem = invalidConfiguration(timers, role);
    if (problem === undefined) continue;
    const what = step ? 'configure.config (over the case\'s "config")' : "config";
    const fix = step
      ? 'add "expectError": true if that refusal is what the step checks'
      : 'to check that refusal, set it in a "configure" step with "expectError": true';
    return `${what} is an invalid configuration for a ${role}: ${problem}; the testee answers that Configure with Error, which fails the case as the implementation's [I1]: ${fix}`;
  }
  return undefined;
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
function checkDollarKeys(v: unknown, where: string, ctx: CaseContext | undefined): void {
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) checkDollarKeys(x, `${where}[${i}]`, ctx);
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
    if (FIXTURE_MACROS.includes(macro)) checkFixture(v[macro], ctx, `${where}.${macro}`);
  }
  for (const k of keys) checkDollarKeys(v[k], `${where}.${k}`, ctx);
}

/** The template macros whose argument is an item fixture's name (runner/script.ts's macros). */
const FIXTURE_MACROS: readonly string[] = ["$key", "$bytes", "$crc", "$descriptor", "$announcement"];

/**
 * Checks a matcher of testee outputs (expectSent, expectNone, expectCount, expectOrder, a rule's
 * `on`): its `$window` (two numbers, in order, where written out) and its pattern of `Output`.
 */
function checkMatcher(m: unknown, where: string, ctx: CaseContext | undefined): void {
  if (isTemplate(m)) return;
  const matcher = objectOf(m, where);
  const { $window, $bindTime, $times: _, ...pattern } = matcher;
  // A window with a template in it is checked as its step resolves it.
  if ($window !== undefined && !isTemplate($window) && !(Array.isArray($window) && $window.some(isTemplate))) located(`${where}.$window`, () => windowBounds($window));
  if ($bindTime !== undefined && typeof $bindTime !== "string") throw new CaseBug(`${where}.$bindTime names a variable; got ${text($bindTime)}`);
  checkPattern(pattern, OUTPUT, where);
  // The peer each kind of output goes to (testee.proto Output).
  if (isObject(pattern.send)) checkAddressee(pattern.send.to, ctx, `${where}.send.to`);
  for (const kind of ["startRead", "connectPeer", "disconnectPeer"])
    if (isObject(pattern[kind])) checkAddressee(pattern[kind].peerId, ctx, `${where}.${kind}.peerId`);
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
    located(where, () => absentAlone(v));
    // Operands holding a template are checked as the matcher is matched (runner/match.ts).
    for (const op of ["$gte", "$lte", "$gt", "$lt"]) if (v[op] !== undefined && !isTemplate(v[op])) located(where, () => comparisonOperand(op, v[op]));
    if (Array.isArray(v.$between)) for (const x of v.$between) if (!isTemplate(x)) located(where, () => comparisonOperand("$between", x));
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

/** An item fixture's `storedAs` (format.ts ItemFixture): a producer case's other producer id, epoch or both. */
function checkStoredAs(v: unknown, role: unknown, where: string): void {
  const storedAs = objectOf(v, where);
  checkFields(storedAs, STORED_AS_FIELDS, `storedAs (${where})`, "field", where);
  if (role !== "producer") throw new CaseBug(`${where} names what a producer testee's store holds an item under; it is for producer cases (this case's role is ${text(role)})`);
  if (storedAs.producer === undefined && storedAs.epoch === undefined) throw new CaseBug(`${where} needs "producer", "epoch" or both (without either, leave storedAs out)`);
  if (storedAs.producer !== undefined && !(typeof storedAs.producer === "string" && storedAs.producer !== ""))
    throw new CaseBug(`${where}.producer is a producer id, a string that is not empty; got ${text(storedAs.producer)}`);
  if (storedAs.epoch !== undefined && !(typeof storedAs.epoch === "number" && Number.isSafeInteger(storedAs.epoch) && storedAs.epoch >= 1))
    throw new CaseBug(`${where}.epoch is an epoch, a whole number >= 1 (0 would leave the testee's own); got ${text(storedAs.epoch)}`);
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



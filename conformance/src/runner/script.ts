/**
 * Runs one case file case against one testee: the case interpreter.
 *
 * The runner plays the engine, the clock, the transport and scripted peers. After every
 * command it polls the testee at the same time until nothing more is due (but for a put a case
 * marks `unpolled`, whose change the next command finds pending); moving the clock
 * polls at every deadline the testee reports and runs the runner's own scheduled events
 * (rule actions, peer heartbeats), so timers are exercised exactly; outputs at a poll the testee
 * did not ask for (a step's time, no input since and before the deadline it reported) fail the case
 * [C3]. Invariants checked on every case: [I1] (no Error answer where none is expected), [I3] (producer pins == grants
 * after every step; both 0 after quiescence), [I4] (consumer tables back to 0 after
 * quiescence), [I5] (no two unsettled reads share destination bytes; destinations >=
 * unsettled reads; every read names its destination), [I6] (a remotely loaded READY item reports
 * its loaded bytes, and they have the fixture's size and CRC-32C), [E1] (an EventBatch sent is the
 * batch published with its sequence).
 * @module
 */
import { type CaseRole, DEFAULT_FINGERPRINT, type ItemFixture, type LoadedCase, type StepSpec, type StoredAs } from "../cases/format.js";
import { EctpError, SPEC_MAJOR, describeValue } from "@ectp/protocol";
import { checkFunction, checkOptions, checkRunValues } from "../arguments.js";
import { JSON_OPTIONS, ectp, encodeCaseMessage } from "../proto.js";
import { type TesteeConnection, TesteeFault } from "../testee/connection.js";
import {
  CONFIGURE_KEYS,
  DEFAULT_PEER_IDS,
  MODIFIER_USERS,
  READ_DATA_KEYS,
  SELF_IDS,
  STEP_ACTIONS,
  STEP_MODIFIERS,
  checkAnnouncement,
  checkEnvelope,
  checkTimers,
  configurationBug,
  countBound,
  readStatus,
  unknownActionMessage,
  windowBounds,
} from "./case-check.js";
import { type Fixture, fixtureLocation, makeFixture } from "./fixtures.js";
import { CaseBug, type MacroFn, type Scope, matches, resolve } from "./match.js";
import { outputProblem } from "./output-shape.js";
import { sendProblem } from "./raw-send.js";
import { decodedStreamProblem, malformedStreamAnswer, streamInput } from "./stream.js";

/**
 * A failed expectation or invariant: the case fails with this message. Thrown while a scripted
 * case runs, its message's second line says where in the case's script it failed, e.g.
 * `  at step 7 of 12: {"expectSent":[...]}` (see {@link runScriptedCase}).
 */
export class CaseFailure extends Error {
  /** Always "CaseFailure". */
  override name = "CaseFailure";

  /**
   * @param message - The expectation or invariant that did not hold and what the testee did
   *   instead, starting with the requirement id where there is one, e.g. `[I3] producer pins (2)
   *   differ from live grants (1) at t=400`; {@link runScriptedCase} adds the line saying where in
   *   the case it failed.
   */
  constructor(message: string) {
    super(message);
  }
}

/**
 * A case that ran past its wall-clock limit (`caseTimeoutMs`) with no cause the runner could name: the
 * testee, or the machine it runs on, was too slow. It fails the case as any {@link CaseFailure} does,
 * but it says nothing of the rules, so its result carries `timedOut` and a mutant run does not count
 * it as a catch. (A testee whose last poll reported a deadline at or before its now fails with a plain
 * CaseFailure naming that cause.)
 */
export class CaseTimeout extends CaseFailure {
  /** Always "CaseTimeout". */
  override name = "CaseTimeout";
}

/** The testee lacks an optional feature: the case is skipped. */
export class CaseSkip extends Error {
  /** Always "CaseSkip". */
  override name = "CaseSkip";
  /** The optional feature (TESTEE-PROTOCOL.md §7) the case needs and the features claimed lack, e.g. `"evict"`. */
  readonly feature: string;
  /** @param feature - the missing feature. */
  constructor(feature: string) {
    super(`needs optional feature ${JSON.stringify(feature)}`);
    this.feature = feature;
  }
}

/** The actions that may follow an unpolled put: commands sent before any poll (conformance/README.md, "Writing cases"). */
const AFTER_UNPOLLED: readonly string[] = ["deliver", "put", "markReady", "discard", "evict", "clearStore", "shutdown"];

/** Virtual-clock origin: case time 0 is this testee time, so nothing may assume a clock starting at 0. */
export const CLOCK_ORIGIN_MS = 1_000_000;

interface MailItem {
  readonly t: number;
  readonly out: Record<string, unknown>;
  consumed: boolean;
}

interface ActiveRule {
  readonly name: string | undefined;
  readonly on: Record<string, unknown>;
  readonly actions: StepSpec[];
  readonly delay: number;
  remaining: number;
}

interface PeerState {
  readonly id: string;
  epoch: number;
  up: boolean;
  hello: boolean;
  heartbeat: boolean;
  greeted: boolean;
  hbGeneration: number;
  fingerprint: Record<string, unknown>;
}

interface UnsettledRead {
  readonly readId: number;
  readonly region: string;
  readonly offset: number;
  readonly length: number;
  readonly t: number;
}

interface Scheduled {
  readonly t: number;
  readonly seq: number;
  readonly run: () => Promise<void>;
  /** 1, or one more than the event that scheduled it for the same instant (see {@link MAX_CHAIN_AT_ONE_INSTANT}). */
  readonly chain: number;
}

const C = ectp.conformance.v1;
const SHORT_REASON = (name: unknown): string => String(name ?? "").replace(/^FAILURE_REASON_/, "");

/** What {@link runScriptedCase} runs a case with: the features the testee claims, and a time limit. */
export interface ScriptOptions {
  /** Features the implementation claims (features file). */
  features: ReadonlySet<string>;
  /**
   * Wall-clock time one case may take, in ms; past it the case fails (e.g. a testee whose
   * deadline keeps moving by 1 ms makes the runner step through the case a millisecond at a
   * time). Default {@link DEFAULT_CASE_TIMEOUT_MS}.
   */
  caseTimeoutMs?: number | undefined;
}

/** The keys of {@link ScriptOptions}. */
const SCRIPT_OPTIONS: readonly string[] = Object.keys({ features: true, caseTimeoutMs: true } satisfies Record<keyof ScriptOptions, true>);

/**
 * The most stops (polls at deadlines, scheduled events) the runner makes while moving the clock to
 * one step's time; more fail the case: the testee's deadlines kept the clock stepping 1 ms at a time.
 */
const MAX_STEPS_PER_ADVANCE = 100_000;

/**
 * The most runner events (rule actions, peer answers) in a row of which each was scheduled, for the
 * same instant, by the one before (its action made the testee produce an output a rule answers at
 * once): more are a livelock, the testee and the case's scripted peers answering each other while the
 * clock cannot move (a consumer that retries a NOT_READY reject at once, with no backoff). The
 * shipped cases need at most 7 (the randomised schedules' check allows 64 polls at one instant).
 */
const MAX_CHAIN_AT_ONE_INSTANT = 64;

/** Default of {@link ScriptOptions.caseTimeoutMs}: a minute (the slowest reference case takes about 1 s). */
export const DEFAULT_CASE_TIMEOUT_MS = 60_000;

/**
 * The case limit `ectp conformance` uses when `--case-timeout-ms` is not given: a minute, or ten
 * command timeouts when that is longer (a slow testee given long commands gets a limit to match),
 * at most `max`.
 */
export function defaultCaseTimeoutMs(commandTimeoutMs: number, max: number): number {
  return Math.min(max, Math.max(DEFAULT_CASE_TIMEOUT_MS, 10 * commandTimeoutMs));
}

/**
 * Run a scripted case. Resolves when it passed; rejects with CaseFailure, CaseSkip, CaseBug or
 * TesteeFault. A CaseFailure gets a second line saying where in the case's `steps` it happened (a
 * TesteeFault the same line after its detail, but for output the testee wrote before this case had
 * any answer, which may be the previous case's): `  at step 7 of 12: <the step's JSON, cut after
 * 200 characters>`; inside a `repeat`, `  at step 7 of 12 (repeat), in repetition 3 of 10 (i = 2),
 * its step 2 of 3: <JSON>`; in a rule's action, the step during which it ran, then `, in action 1
 * of 1 of rule "name": <JSON>`; in the Configure the runner sends first when the case begins with
 * none, `  before step 1 of 12, in the Configure ...`, or after it, `  before step 1 of 12, after the
 * Configure ...` (in a scripted consumer's opening Hello, then `, in scripted peer C1's opening
 * Hello`, as after a configure step); at quiescence, `  after the last step (12 of 12: <JSON>), ...`.
 * CaseBug and CaseSkip messages are as thrown.
 *
 * A wrong call rejects before anything is sent with EctpError(INVALID_ARGUMENT) naming the
 * argument: `c` that is not a loaded case (see `loadCases`), `conn` without a `request` method (see
 * `spawnTestee`, `inProcessTestee`), options that are not an object or have an option it does not
 * take, `options.features` that is not a Set of strings, or a `caseTimeoutMs` that is not a positive
 * number of ms.
 */
export async function runScriptedCase(c: LoadedCase, conn: TesteeConnection, options: ScriptOptions): Promise<void> {
  const spec = (c as Partial<LoadedCase> | null | undefined)?.spec;
  if (spec === null || typeof spec !== "object" || typeof c.fullName !== "string")
    throw new EctpError("INVALID_ARGUMENT", `runScriptedCase: c must be a loaded case, one of loadCases()'s; got ${describeValue(c)}`);
  checkFunction("runScriptedCase", "conn.request", (conn as Partial<TesteeConnection> | null | undefined)?.request, "sends a command to the testee (a TesteeConnection)");
  checkOptions("runScriptedCase", options, SCRIPT_OPTIONS);
  checkRunValues("runScriptedCase", options);
  if (typeof (options.features as Partial<ReadonlySet<string>> | null | undefined)?.has !== "function")
    throw new EctpError("INVALID_ARGUMENT", `runScriptedCase: options.features must be a Set of the features claimed, such as new Set(["consumer"]); got ${describeValue(options.features)}`);
  const role = roleToRun(c.spec, options.features);
  if (role === undefined) throw new CaseSkip(unclaimedRole(c.spec, options.features) as string);
  await new Interpreter(c, role, conn, options).run();
}

/** The roles a case of role `"any"` may run under, in the order the runner picks from (the first the features file claims). */
export const ANY_CASE_ROLES: readonly CaseRole[] = ["consumer", "producer", "subscriber"];

/**
 * The role a case runs under: its own `role`, or for a case of role `"any"` the first of
 * {@link ANY_CASE_ROLES} that `features` claims (undefined when it claims none of them).
 */
export function roleToRun(spec: LoadedCase["spec"], features: ReadonlySet<string>): CaseRole | undefined {
  return spec.role === "any" ? ANY_CASE_ROLES.find((r) => features.has(r)) : spec.role;
}

/** Why the case is skipped for its role (the role it runs under is not claimed: TESTEE-PROTOCOL.md §7), or undefined when it is claimed. */
export function unclaimedRole(spec: LoadedCase["spec"], features: ReadonlySet<string>): string | undefined {
  const role = roleToRun(spec, features);
  if (role === undefined) return `role any: it runs under one of ${ANY_CASE_ROLES.join(", ")}, and the features file claims none`;
  return features.has(role) ? undefined : `role ${role} not in the features file`;
}

/** The first optional feature the case needs that `features` does not claim (the case is then skipped), or undefined. */
export function missingFeature(spec: LoadedCase["spec"], features: ReadonlySet<string>): string | undefined {
  return (spec.features ?? []).find((f) => !features.has(f));
}

class Interpreter {
  private readonly spec: LoadedCase["spec"];
  private now = 0;
  private readonly scope: Scope = new Map();
  private readonly mailbox: MailItem[] = [];
  private readonly scheduled: Scheduled[] = [];
  private seq = 0;
  private deadline: number | undefined;
  private readonly rules: ActiveRule[] = [];
  private readonly peers = new Map<string, PeerState>();
  private readonly fixtures = new Map<string, Fixture>();
  /** Whether the step before was a put with `unpolled`: its change is pending until the next command's poll. */
  private unpolledPut = false;
  /** Item families (`items.<name>.count`): the names of their members, in order. */
  private readonly families = new Map<string, string[]>();
  private readonly reads = new Map<number, UnsettledRead>();
  private readonly requests = new Map<string, Map<string, string | undefined>>();
  /** Per request, the items it announced and did not present as local (on its latest Admit naming them). */
  private readonly remoteItems = new Map<string, Set<string>>();
  /**
   * Per request, the items it ever presented as local: those are READY from the engine's own copy
   * from then on ([C1] "already local" decides, and decisions are sticky), never from a remote load.
   */
  private readonly presentedLocal = new Map<string, Set<string>>();
  private readonly finished = new Set<string>();
  /** Subscriber: the producers followed and not unfollowed since (unfollowed at quiescence). */
  private readonly following = new Set<string>();
  /** Producer: the batches this instance published (`event_batch` outputs) by sequence, as proto3 JSON: what it may send [E1]. */
  private readonly published = new Map<string, string>();
  /** The role the case runs under ({@link roleToRun}), and its testee.proto value. */
  private readonly caseRole: CaseRole;
  private readonly role: number;
  private readonly selfId: string;
  private selfEpoch: number;
  private readonly fingerprint: Record<string, unknown>;
  private readonly macros: Record<string, MacroFn>;
  private counters = new Map<string, number>();
  private configured = false;
  /** When the case started (wall clock) and how many commands it sent: see `ScriptOptions.caseTimeoutMs`. */
  private readonly startedAt = performance.now();
  private commands = 0;
  /** The next_deadline_ms the testee's last poll reported and that poll's now_ms (the testee's clock), for the failures that stepped 1 ms at a time. */
  private lastPollDeadline: { readonly nextMs: number; readonly nowMs: number } | undefined;
  /**
   * The testee's last poll, while no input has reached it since: when it ran (virtual time) and the
   * next deadline it reported (undefined: none). A later poll that returns outputs must come at or
   * after that deadline (see {@link Interpreter.settle}); any input clears it.
   */
  private quietSincePoll: { readonly at: number; readonly reported: number | undefined } | undefined;
  /** Commands the testee answered (see {@link Interpreter.locate}). */
  private answers = 0;
  /** Where in the case's script the interpreter is: what runs now, outermost first (for failure messages). */
  private readonly frames: Frame[] = [];
  /** Failures whose message says where they happened already (by the innermost frame). */
  private readonly located = new WeakSet<Error>();

  constructor(
    c: LoadedCase,
    role: CaseRole,
    private readonly conn: TesteeConnection,
    private readonly options: ScriptOptions,
  ) {
    this.spec = c.spec;
    this.caseRole = role;
    this.role = ROLES[role];
    this.selfId = c.spec.self?.id ?? SELF_IDS[role];
    this.selfEpoch = c.spec.self?.epoch ?? (role === "producer" ? 5 : 1);
    this.fingerprint = c.spec.fingerprint ?? { ...DEFAULT_FINGERPRINT };
    this.loadFixtures(c.spec.items ?? {});
    // The runner plays producers for a consumer or a subscriber, consumers for a producer, no peer in a case of role "any".
    const peers = c.spec.peers ?? (c.spec.role === "any" ? {} : { [DEFAULT_PEER_IDS[role]]: {} });
    for (const [id, p] of Object.entries(peers))
      this.peers.set(id, {
        id,
        epoch: p.epoch ?? (role === "producer" ? 3 : 5),
        up: true,
        hello: p.hello ?? true,
        heartbeat: p.heartbeat ?? true,
        greeted: false,
        hbGeneration: 0,
        fingerprint: p.fingerprint ?? this.fingerprint,
      });
    this.macros = {
      $key: (arg) => this.fixture(arg).key,
      $bytes: (arg) => Buffer.from(this.fixture(arg).bytes).toString("base64"),
      $crc: (arg) => this.fixture(arg).crc,
      $descriptor: (arg, obj, scope) => this.descriptorWith(arg, obj.with, scope),
      $announcement: (arg, obj, scope) => ({ version: { major: 1, minor: 0 }, item: this.descriptorWith(arg, obj.with, scope) }),
      $repeat: (arg, obj, scope) => {
        const t = resolve(obj.times, scope, this.macros);
        const times = typeof t === "number" ? t : typeof t === "string" && /^\d+$/.test(t) ? Number(t) : Number.NaN;
        if (!Number.isSafeInteger(times) || times < 0 || times > 1 << 20)
          throw new CaseBug(`$repeat needs "times", an integer in [0, 2^20]; got ${JSON.stringify(obj.times)}`);
        return Array.from({ length: times }, () => arg);
      },
      $encodedSize: (arg, obj) => encodedSize(obj.type, arg),
      $seq: (arg) => {
        const k = String(arg);
        const n = (this.counters.get(k) ?? 0) + 1;
        this.counters.set(k, n);
        return String(n);
      },
    };
    for (const r of c.spec.rules ?? []) this.addRule(r as unknown as Record<string, unknown>);
  }

  /**
   * Resolve the case's item fixtures; a family (`count`) becomes its members `<name>.<i>`.
   * @throws CaseBug for a bad `count`, or a member that collides with another fixture.
   */
  private loadFixtures(items: Record<string, ItemFixture>): void {
    for (const [name, f] of Object.entries(items)) {
      if (f.count === undefined) {
        this.fixtures.set(name, makeFixture(name, f, this.fingerprint));
        continue;
      }
      if (!Number.isSafeInteger(f.count) || f.count < 1 || f.count > 1 << 16)
        throw new CaseBug(`item ${name}: count must be an integer in [1, 65536]; got ${JSON.stringify(f.count)}`);
      const members: string[] = [];
      for (let i = 0; i < f.count; i++) {
        const member = `${name}.${i}`;
        if (Object.hasOwn(items, member)) throw new CaseBug(`item family ${name}: member ${member} collides with another item fixture`);
        this.fixtures.set(member, makeFixture(member, { ...f, hash: `${f.hash ?? `item-${name}`}.${i}` }, this.fingerprint));
        members.push(member);
      }
      this.families.set(name, members);
    }
    // A family member sharing its content hash with another fixture would be the same item.
    const members = new Set([...this.families.values()].flat());
    const hashes = new Map<string, string>();
    for (const f of this.fixtures.values()) {
      const h = String(f.key.contentHash);
      const other = hashes.get(h);
      if (other !== undefined && (members.has(f.name) || members.has(other)))
        throw new CaseBug(`items ${other} and ${f.name} have the same content hash; give the family or the item another hash`);
      hashes.set(h, f.name);
    }
  }

  private fixture(name: unknown): Fixture {
    const f = this.fixtures.get(String(name));
    if (!f) throw new CaseBug(`no item fixture ${JSON.stringify(name)}`);
    return f;
  }

  /** Fixture `name`'s descriptor with the fields of `changes` (resolved like any template, in `scope`: `"${e}"` and `$expr` work there too). */
  private descriptorWith(name: unknown, changes: unknown, scope: Scope): Record<string, unknown> {
    return { ...this.descriptor(name), ...((resolve(changes, scope, this.macros) as Record<string, unknown>) ?? {}) };
  }

  private descriptor(name: unknown): Record<string, unknown> {
    const f = this.fixture(name);
    const bound = this.scope.get(`desc.${f.name}`) as Record<string, unknown> | undefined;
    if (bound) return { ...bound };
    const peer = this.peers.get(f.producer);
    return { ...f.partial, producerId: f.producer, epoch: String(peer?.epoch ?? 5), location: fixtureLocation(f.name) };
  }

  private r(v: unknown, extra?: Map<string, unknown>): unknown {
    const scope = extra ? new Map([...this.scope, ...extra]) : this.scope;
    scope.set("now", this.now);
    return resolve(v, scope, this.macros);
  }

  // ------------------------------------------------------------------ running

  async run(): Promise<void> {
    const missing = missingFeature(this.spec, this.options.features);
    if (missing !== undefined) throw new CaseSkip(missing);
    const steps = this.spec.steps;
    const n = steps.length;
    const firstStep = steps[0] as StepSpec | undefined;
    if (!firstStep || !("configure" in firstStep)) {
      const before = n > 0 ? `before step 1 of ${n}, ` : "";
      const why = `(the case ${n > 0 ? "begins with no configure step" : "has no steps"})`;
      await this.configure({}, false, (at) => `${before}${at} the Configure the runner sends first ${why}`);
    }
    for (const [i, step] of steps.entries()) await this.within({ label: `at step ${i + 1} of ${n}`, step }, () => this.step(step, undefined));
    if (this.spec.quiesce !== false) {
      const last = steps[n - 1];
      const label = `after the last step (${last === undefined ? "the case has none" : `${n} of ${n}: ${shownStep(last)}`}), as the runner finished every request and ran every timer out`;
      await this.within({ label }, () => this.quiesce());
    }
  }

  /** Run `body` as `frame` of the script: a CaseFailure or TesteeFault thrown in it says where it happened (see {@link Interpreter.locate}). */
  private async within<T>(frame: Frame, body: () => Promise<T>): Promise<T> {
    this.frames.push(frame);
    try {
      return await body();
    } catch (err) {
      throw this.locate(err);
    } finally {
      this.frames.pop();
    }
  }

  /**
   * `err` saying where in the script it happened (the frames running now), once: a CaseFailure as
   * its message's second line (before the outputs or other details it lists), a TesteeFault as the
   * last line of its detail (after the command that waited for the answer, before the testee's
   * stderr) unless it is output the testee wrote before this case had an answer (it may fail the
   * previous case, TESTEE-PROTOCOL.md §2). Anything else as it is.
   */
  private locate(err: unknown): unknown {
    if (!(err instanceof Error) || this.located.has(err)) return err;
    const where = whereText(this.frames);
    let out: Error;
    if (err instanceof CaseFailure || err instanceof CaseBug) {
      // A case bug found as a step runs (a variable used before it is bound, a fixture the case lacks) names the step too.
      err.message = withSecondLine(err.message, where);
      out = err;
    } else if (err instanceof TesteeFault && (err.afterCommand === undefined || this.answers > 0))
      out = new TesteeFault(err.kind, `${err.detail}\n  ${where}`, err.stderrTail, err.afterCommand);
    else return err;
    this.located.add(out);
    return out;
  }

  private async step(step: StepSpec, extra: Map<string, unknown> | undefined): Promise<void> {
    for (const t of ["at", "after"] as const)
      if (step[t] !== undefined && (typeof step[t] !== "number" || !Number.isFinite(step[t])))
        throw new CaseBug(`step time ${t} must be a number of ms; got ${JSON.stringify(step[t])}`);
    const target = typeof step.at === "number" ? step.at : typeof step.after === "number" ? this.now + step.after : undefined;
    if (step.stalled !== undefined && (step.stalled !== true || target === undefined))
      throw new CaseBug("stalled must be true and needs a step time (at or after)");
    if (this.unpolledPut) {
      // A step that moved the clock, or waited, would poll first and publish the change `unpolled` kept pending.
      this.unpolledPut = false;
      const next = Object.keys(step).find((k) => !STEP_MODIFIERS.has(k));
      if ((target !== undefined && step.stalled !== true) || next === undefined || !AFTER_UNPOLLED.includes(next))
        throw new CaseBug(`the step after an unpolled put must be ${AFTER_UNPOLLED.join(", ")}, with no step time (or stalled): anything else polls first`);
    }
    if (target !== undefined) {
      if (step.stalled === true) await this.jumpTo(target);
      else await this.advanceTo(target);
    }
    const keys = Object.keys(step).filter((k) => !STEP_MODIFIERS.has(k));
    if (keys.length > 1) throw new CaseBug(`step has several actions: ${keys.join(", ")}`);
    const action = keys[0];
    // A misspelt action is named as such, not as the modifier it leaves without its action.
    if (action !== undefined && !STEP_ACTIONS.includes(action)) throw new CaseBug(unknownActionMessage(action));
    for (const [mod, users] of Object.entries(MODIFIER_USERS))
      if (step[mod] !== undefined && !users.includes(action ?? ""))
        throw new CaseBug(`${mod} goes with ${users.join(", ")}; this step's action is ${action === undefined ? "none" : JSON.stringify(action)}`);
    if (action === undefined) {
      // A step that only moves the clock is a step too: timers ran, so the invariants are checked after it.
      if (this.configured) await this.invariants();
      return;
    }
    await this.runAction(action, step, extra);
    if (this.configured) await this.invariants();
  }

  /** Carry out a step's one action (`action`, a key of `step`), its modifiers taken from `step`. */
  private async runAction(action: string, step: StepSpec, extra: Map<string, unknown> | undefined): Promise<void> {
    const arg = step[action];
    switch (action) {
      case "configure":
        await this.configure((this.r(arg, extra) ?? {}) as Record<string, unknown>, step.expectError === true);
        break;
      case "admit":
        await this.admit(this.r(arg, extra) as Record<string, unknown>, step.expect as Record<string, unknown> | undefined);
        break;
      case "finish": {
        const requestId = String(this.r(arg, extra));
        this.finished.add(requestId);
        // An id admitted again after its finish names a new request: nothing of its items carries over.
        this.remoteItems.delete(requestId);
        this.presentedLocal.delete(requestId);
        await this.cmd({ finishRequest: { requestId } });
        break;
      }
      case "drain":
        await this.drain(this.r(arg, extra) as unknown[]);
        break;
      case "deliver":
        await this.deliver(this.r(arg, extra) as Record<string, unknown>);
        break;
      case "readResult":
        await this.readResult(this.r(arg, extra) as Record<string, unknown>);
        break;
      case "unreachable":
        await this.cmd({ peerUnreachable: { peerId: String(this.r(arg, extra)) } });
        break;
      case "peerDown": {
        const p = this.peer(String(this.r(arg, extra)));
        p.up = false;
        p.greeted = false;
        p.hbGeneration++;
        break;
      }
      case "peerUp": {
        const a = this.r(arg, extra) as Record<string, unknown>;
        const p = this.peer(String(a.peer));
        p.up = true;
        if (typeof a.epoch === "number") p.epoch = a.epoch;
        if (a.greet === true) await this.greet(p);
        break;
      }
      case "greet":
        await this.greet(this.peer(String(this.r(arg, extra))));
        break;
      case "put":
        await this.putStep(String(this.r(arg, extra)), step);
        break;
      case "markReady":
        await this.cmd({ markReady: { key: this.fixture(this.r(arg, extra)).key } });
        break;
      case "discard":
        await this.cmd({ discard: { key: this.fixture(this.r(arg, extra)).key } }, step.expectError === true);
        break;
      case "evict":
        await this.cmd({ evict: { key: this.fixture(this.r(arg, extra)).key } }, step.expectError === true);
        break;
      case "clearStore":
        await this.cmd({ clearStore: {} });
        break;
      case "shutdown":
        await this.cmd({ shutdown: {} });
        break;
      case "announce":
        await this.announce(String(this.r(arg, extra)), step.expect as Record<string, unknown> | undefined, step.bind as string | undefined);
        break;
      case "expectSent":
        await this.expectSent(this.matcherList(action, arg, extra), extra);
        break;
      case "expectNone":
        this.expectNone(this.matcherList(action, arg, extra), extra);
        break;
      case "expectOrder":
        this.expectOrder(arg as Record<string, unknown>, extra);
        break;
      case "expectCount":
        this.expectCount(arg as Record<string, unknown>, extra);
        break;
      case "expectSnapshot":
        await this.expectSnapshot(this.r(arg, extra) as Record<string, unknown>);
        break;
      case "expectStats":
        await this.expectStats(arg as Record<string, unknown>, extra);
        break;
      case "expectDeadline":
        this.expectDeadline(this.r(arg, extra) as { by: number; why?: string });
        break;
      case "follow":
        await this.follow(this.r(arg, extra));
        break;
      case "unfollow": {
        const producerId = String(this.r(arg, extra));
        this.following.delete(producerId);
        await this.cmd({ unfollow: { producerId } });
        break;
      }
      case "repeat":
        await this.repeat(arg, extra);
        break;
      case "expectView":
        await this.expectView(this.r(arg, extra) as Record<string, unknown>);
        break;
      case "decodeStream":
        await this.decodeStream(this.r(arg, extra), this.r(step.expect, extra));
        break;
      case "flush":
        for (const m of this.mailbox) m.consumed = true;
        break;
      case "rule":
        this.addRule(arg as Record<string, unknown>);
        break;
      case "removeRule": {
        const i = this.rules.findIndex((x) => x.name === arg);
        if (i < 0) throw new CaseBug(`no rule named ${JSON.stringify(arg)}`);
        this.rules.splice(i, 1);
        break;
      }
      case "set":
        for (const [k, v] of Object.entries(arg as Record<string, unknown>)) this.scope.set(k, this.r(v, extra));
        break;
      default:
        throw new CaseBug(unknownActionMessage(action));
    }
  }

  /**
   * A `put` step: the fixture `name`, or every member of the family `name`, put into the producer's
   * store (and marked ready with `ready`), each polled after its put unless the step says otherwise.
   */
  private async putStep(name: string, step: StepSpec): Promise<void> {
    // `together`: a family's members are put (and marked ready) with no poll in between, then
    // polled once: one drive's changes, as an engine step filling the store makes them [E1].
    // `unpolled`: not polled at all, so the changes are still pending when the next step's
    // command arrives (a producer publishes them before it answers a snapshot [E2]).
    for (const mod of ["together", "unpolled"] as const)
      if (step[mod] !== undefined && step[mod] !== true) throw new CaseBug(`${mod} must be true; got ${JSON.stringify(step[mod])}`);
    if (step.together === true && step.unpolled === true) throw new CaseBug("together and unpolled do not go together: unpolled puts are never polled");
    const settle = step.together !== true && step.unpolled !== true;
    for (const item of this.families.get(name) ?? [name]) await this.put(item, step.ready === true, step.expectError === true, settle);
    if (step.together === true) await this.settle();
    this.unpolledPut = step.unpolled === true;
  }

  private peer(id: string): PeerState {
    const p = this.peers.get(id);
    if (!p) throw new CaseBug(`no scripted peer ${JSON.stringify(id)}`);
    return p;
  }

  // ------------------------------------------------------------------ commands

  private async cmd(
    req: ectp.conformance.v1.ITesteeRequest,
    expectError = false,
    settle = true,
  ): Promise<ectp.conformance.v1.TesteeResponse> {
    const res = await this.request({ ...req, nowMs: CLOCK_ORIGIN_MS + this.now });
    const what = commandName(req);
    if (res.unsupported) {
      // TESTEE-PROTOCOL.md §6: Unsupported skips the case only for a feature the features file
      // does not claim; for a claimed one it is a failure (else a testee could skip any case).
      const own = this.featureOf(req);
      const feature = res.unsupported.feature || own;
      if (this.options.features.has(feature))
        throw new CaseFailure(
          `${what} at t=${this.now} was answered Unsupported{feature: ${JSON.stringify(res.unsupported.feature)}}, ` +
            `but the features file claims ${JSON.stringify(feature)}: a claimed feature must be supported (TESTEE-PROTOCOL.md §6)`,
        );
      // Only the feature the command needs may be missing (§5); any other name (unknown-command
      // included) would let a testee skip every case it fails. (A feature the case declares and the
      // features file does not claim skipped the case before it ran.)
      if (feature !== own)
        throw new CaseFailure(
          `${what} at t=${this.now} was answered Unsupported{feature: ${JSON.stringify(feature)}}, a feature it does not need ` +
            `(it needs ${JSON.stringify(own)}): only the optional feature a command needs skips a case (TESTEE-PROTOCOL.md §5)`,
        );
      throw new CaseSkip(feature);
    }
    if (expectError) {
      if (!res.error) throw new CaseFailure(`${what} at t=${this.now}: expected an Error answer, got ${kindOf(res)}`);
    } else if (res.error) {
      throw new CaseFailure(
        `[I1] implementation error on ${what} at t=${this.now}: ${res.error.message}${res.error.code ? ` (${res.error.code})` : ""}`,
      );
    } else {
      // TESTEE-PROTOCOL.md: each command has one success answer (Ok unless it returns data).
      const want = RESULT_OF[what] ?? "ok";
      if (!res[want]) throw new CaseFailure(`${what} at t=${this.now} was answered with ${kindOf(res)}; expected ${want}`);
    }
    if (settle && this.configured) await this.settle();
    return res;
  }

  /** Send one command; a case past its wall-clock limit fails instead. */
  private request(req: ectp.conformance.v1.ITesteeRequest): Promise<ectp.conformance.v1.TesteeResponse> {
    const limit = this.options.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_MS;
    if (performance.now() - this.startedAt > limit) {
      const note = this.deadlineNotAhead();
      const ran = `the case ran past its ${limit} ms of wall-clock time after ${this.commands} commands, at t=${this.now} of virtual time`;
      if (note !== undefined) throw new CaseFailure(`${ran}: ${note}; --case-timeout-ms raises the limit`);
      throw new CaseTimeout(`${ran} (a testee whose next_deadline_ms keeps moving by 1 ms, or a very slow testee); --case-timeout-ms raises the limit`);
    }
    this.commands++;
    if (!req.poll && !req.advanceClock && !req.getStats && !req.getView) this.quietSincePoll = undefined;
    // A crash, hang or unreadable answer names the command that waited for it (TESTEE-PROTOCOL.md §6);
    // a connection already dead never sent it, and its fault stays as it was.
    const sent = this.conn.alive;
    return this.conn.request(req).then(
      (res) => {
        this.answers++;
        return res;
      },
      (err: unknown) => {
        throw sent && err instanceof TesteeFault ? err.during(`${commandName(req)} at t=${this.now}`) : err;
      },
    );
  }

  /** The feature a command needs (TESTEE-PROTOCOL.md §7): its optional feature, else the role the case runs under. */
  private featureOf(req: ectp.conformance.v1.ITesteeRequest): string {
    if (req.evict) return "evict";
    if (req.readMemory) return "read-memory";
    if (req.deliverMessage?.raw && req.deliverMessage.raw.length > 0) return "raw-messages";
    if (req.admit?.items?.some((it) => it.announcementJson)) return "untrusted-json";
    if (req.configure?.initialItems && req.configure.initialItems.length > 0) return "warm-start";
    if (req.decodeStream) return "stream-framing";
    return this.caseRole;
  }

  /**
   * Send a Configure, then the scripted consumers' opening Hellos (producer cases) and polls.
   * `runnersOwn`: for the Configure the runner sends when the case begins with none, the label of
   * the frame in (`"in"`) or after (`"after"`) it, so that a failure names the command that waited
   * (a step's configure has the step's frame).
   */
  private async configure(overrides: Record<string, unknown>, expectError: boolean, runnersOwn?: (at: "in" | "after") => string): Promise<void> {
    const inFrame = <T>(label: string | undefined, body: () => Promise<T>): Promise<T> => (label === undefined ? body() : this.within({ label }, body));
    for (const k of Object.keys(overrides))
      if (!CONFIGURE_KEYS.includes(k)) throw new CaseBug(`configure takes ${CONFIGURE_KEYS.join(", ")}; got ${JSON.stringify(k)}`);
    const initial = this.initialItems(overrides.items);
    // Checked as resolved (the case's own config as it loaded): protobufjs would send a misspelt timer as absent and "two" as 0.
    if (overrides.config !== undefined) checkTimers(overrides.config, "configure.config");
    const timers = { ...(this.spec.config ?? {}), ...((overrides.config as Record<string, number>) ?? {}) };
    // [I1] Checked as resolved too (a template in a configure step's config): timers the testee refuses fail only a step expecting that.
    const invalid = expectError ? undefined : configurationBug(timers, [this.caseRole], overrides.config !== undefined);
    if (invalid !== undefined) throw new CaseBug(invalid);
    if (typeof overrides.epoch === "number") this.selfEpoch = overrides.epoch;
    this.configured = false;
    this.reads.clear();
    this.published.clear();
    this.deadline = undefined;
    const capacity = Number(overrides.capacity ?? this.spec.capacity ?? 0);
    if (!Number.isSafeInteger(capacity) || capacity < 0) throw new CaseBug(`capacity is a number of bytes; got ${JSON.stringify(overrides.capacity ?? this.spec.capacity)}`);
    const filled = initial.reduce((sum, f) => sum + f.size, 0);
    if (!expectError && filled > (capacity || 256 * 1024 * 1024))
      throw new CaseBug(`configure's items hold ${filled} bytes, more than the store's capacity: the store would evict some of them (expectError to check that refusal)`);
    // The testee's own transport metadata (SPEC 4.1: its Hellos carry it), base64 as proto3 JSON writes bytes.
    const metadata = overrides.transportMetadata ?? this.spec.self?.transportMetadata;
    if (metadata !== undefined && (typeof metadata !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(metadata)))
      throw new CaseBug(`transportMetadata is the testee's transport metadata in base64; got ${JSON.stringify(metadata)}`);
    const configure = C.Configure.fromObject({
      role: this.role,
      id: this.selfId,
      epoch: this.selfEpoch,
      fingerprint: this.fingerprint,
      seed: this.spec.self?.seed ?? 1,
      ...(metadata === undefined ? {} : { transportMetadata: metadata }),
      timers,
      ...(this.role === C.Role.ROLE_PRODUCER
        ? {
            storeCapacityBytes: capacity,
            initialItems: initial.map(putItemOf),
          }
        : this.role === C.Role.ROLE_CONSUMER
          ? { destinationCapacityBytes: capacity }
          : {}),
    });
    const res = await inFrame(runnersOwn?.("in"), () => this.cmd({ configure }, expectError, false));
    if (res.error) return;
    this.configured = true;
    const after = runnersOwn?.("after");
    // Producer cases: scripted consumers greet the testee first.
    if (this.role === C.Role.ROLE_PRODUCER)
      for (const p of this.peers.values())
        if (p.up && p.hello) await this.within({ label: `${after !== undefined ? `${after}, ` : ""}in scripted peer ${p.id}'s opening Hello` }, () => this.greet(p));
    await inFrame(after, () => this.settle());
    // Feature warm-start: the items' descriptors as the producer will describe them (PutItemResult's, for a put).
    for (const f of initial) {
      const a = (await this.cmd({ announce: { key: ectp.v1.ItemKey.fromObject(f.key) } })).announce?.announcement;
      if (!a?.item)
        throw new CaseFailure(`initial item ${f.name} at t=${this.now}: Announce after Configure answered no announcement; the store must hold it from the start (warm-start)`);
      this.checkStoredDescriptor(`initial item ${f.name}`, "its announced descriptor", f, a.item as ectp.v1.ItemDescriptor);
    }
  }

  /** A configure step's `items` (fixture or family names, feature warm-start): the fixtures the store holds ready from the start. */
  private initialItems(items: unknown): Fixture[] {
    if (items === undefined) return [];
    if (!Array.isArray(items) || items.some((n) => typeof n !== "string"))
      throw new CaseBug(`configure's items is a list of item fixture or family names; got ${JSON.stringify(items)}`);
    if (this.role !== C.Role.ROLE_PRODUCER) throw new CaseBug("configure's items (a store filled first) is for producer cases");
    if (!(this.spec.features ?? []).includes("warm-start")) throw new CaseBug('configure\'s items needs the feature "warm-start" in the case\'s features');
    // Each fixture with the name the case wrote (a family's, for its members), for the messages.
    const named = (items as string[]).flatMap((name) => (this.families.get(name) ?? [name]).map((n) => ({ name, fixture: this.fixture(n) })));
    const foreign = named.find((x) => x.fixture.storedAs !== undefined);
    if (foreign !== undefined)
      throw new CaseBug(`configure's items names ${foreign.name}, stored as another producer or epoch: the producer never announces such an item, and warm-start checks each by its announcement; put it instead`);
    const fixtures = named.map((x) => x.fixture);
    const keys = fixtures.map((f) => JSON.stringify(f.key));
    const twice = fixtures.find((_, i) => keys.indexOf(keys[i] as string) !== i);
    if (twice !== undefined) throw new CaseBug(`configure's items names ${twice.name}'s key twice (a store holds an item once)`);
    return fixtures;
  }

  /**
   * A descriptor the producer gave for an item it stored (PutItemResult, or the announcement of an
   * initial item): the full descriptor, this producer's id and epoch (or those the fixture's
   * `storedAs` put it under), the fixture's size. Bound as `desc.<name>`, the descriptor later
   * steps expect for the item.
   */
  private checkStoredDescriptor(what: string, field: string, f: Fixture, d: ectp.v1.ItemDescriptor): void {
    const json = ectp.v1.ItemDescriptor.toObject(d, JSON_OPTIONS);
    const { producerId, epoch } = this.storedUnder(f);
    if (d.producerId !== producerId || Number(d.epoch ?? 0) !== epoch || Number(d.sizeBytes ?? 0) !== f.size)
      throw new CaseFailure(
        `${what} at t=${this.now}: ${field} MUST be the full descriptor (producer_id ${JSON.stringify(producerId)}, ` +
          `epoch ${epoch}, size_bytes ${f.size}); got ${JSON.stringify(json)}` +
          (f.storedAs === undefined ? "" : ` (the PutItem set ${storedAsText(f.storedAs)}, and the store keeps what a PutItem sets: TESTEE-PROTOCOL.md, PutItem)`),
      );
    if (putFields(f.partial) !== putFields(json))
      throw new CaseFailure(`${what} at t=${this.now}: ${field} MUST keep the key, dtype, shape and checksum put; got ${JSON.stringify(json)}`);
    this.scope.set(`desc.${f.name}`, json);
  }

  /** The producer id and epoch the testee's store holds fixture `f` under: each as its `storedAs` sets it, else the testee's own. */
  private storedUnder(f: Fixture): { producerId: string; epoch: number } {
    return { producerId: f.storedAs?.producer ?? this.selfId, epoch: f.storedAs?.epoch ?? this.selfEpoch };
  }

  /** Send the peer's Hello to the testee and start its heartbeats. */
  private async greet(p: PeerState): Promise<void> {
    await this.deliverEnvelope(p.id, {
      hello: {
        role: this.role === C.Role.ROLE_PRODUCER ? "ROLE_CONSUMER" : "ROLE_PRODUCER",
        fingerprint: p.fingerprint,
        // A scripted consumer asks a producer testee for events (as a subscribing consumer would);
        // a scripted producer greeting a subscriber testee lists them as ProducerCore does.
        capabilities: this.role === C.Role.ROLE_CONSUMER ? [] : ["events.v1"],
      },
    });
    this.startHeartbeats(p);
  }

  private startHeartbeats(p: PeerState): void {
    if (p.greeted || !p.heartbeat) {
      p.greeted = true;
      return;
    }
    p.greeted = true;
    const gen = ++p.hbGeneration;
    const interval = Number(this.spec.config?.heartbeatIntervalMs ?? 2000);
    let n = 0;
    const tick = async (): Promise<void> => {
      if (!p.up || p.hbGeneration !== gen) return;
      await this.deliverEnvelope(p.id, { heartbeat: { sequence: String(++n) } });
      this.schedule(this.now + interval, tick);
    };
    this.schedule(this.now + interval, tick);
  }

  /** The chain of the runner event running now (0 when none is): see {@link MAX_CHAIN_AT_ONE_INSTANT}. */
  private runningChain = 0;

  private schedule(t: number, run: () => Promise<void>): void {
    this.scheduled.push({ t, seq: this.seq++, run, chain: t === this.now ? this.runningChain + 1 : 1 });
    this.scheduled.sort((a, b) => a.t - b.t || a.seq - b.seq);
  }

  /** Poll at the current time until nothing more is due now. */
  private async settle(): Promise<void> {
    for (let i = 0; i < 64; i++) {
      // Checked as every command's answer is (Unsupported, Error, the wrong result: TESTEE-PROTOCOL.md §6).
      const quiet = this.quietSincePoll;
      const poll = (await this.cmd({ poll: {} }, false, false)).poll as ectp.conformance.v1.IPollResult;
      const outs = poll.outputs ?? [];
      const hasDeadline = poll.nextDeadlineMs !== undefined && poll.nextDeadlineMs !== null;
      this.deadline = hasDeadline ? Number(poll.nextDeadlineMs) - CLOCK_ORIGIN_MS : undefined;
      this.lastPollDeadline = hasDeadline ? { nextMs: Number(poll.nextDeadlineMs), nowMs: CLOCK_ORIGIN_MS + this.now } : undefined;
      // [C3] A timer's output must come at a deadline the testee reported: a driver sleeps until the
      // reported deadline, so a timer due earlier than reported (or never reported) runs late there.
      if (outs.length > 0 && quiet !== undefined && this.now > quiet.at && (quiet.reported === undefined || quiet.reported > this.now))
        throw new CaseFailure(this.unreportedTimer(quiet, outs));
      this.quietSincePoll = { at: this.now, reported: this.deadline };
      await this.onOutputs(outs);
      if (outs.length === 0 || this.deadline === undefined || this.deadline > this.now) return;
    }
    throw new CaseFailure(`[I1] testee still has outputs due after 64 polls at t=${this.now} (livelock)`);
  }

  /** The failure of a timer that fired at a poll the testee did not ask for (see {@link Interpreter.settle}). */
  private unreportedTimer(quiet: { readonly at: number; readonly reported: number | undefined }, outs: ectp.conformance.v1.IOutput[]): string {
    const json = JSON.stringify(C.Output.toObject(C.Output.fromObject(outs[0] as Record<string, unknown>), JSON_OPTIONS));
    const reported = quiet.reported === undefined ? "no next_deadline_ms" : `next_deadline_ms t=${quiet.reported}`;
    // [C3] is the consumer's rule; a producer's or subscriber's timers (heartbeats [P8], leases [P3]) have no id of their own for it.
    const id = this.role === C.Role.ROLE_CONSUMER ? "[C3] " : "";
    return (
      `${id}a timer fired at t=${this.now} that the testee never asked to be polled for: its poll at t=${quiet.at} reported ${reported}, ` +
      `nothing reached it since, and the poll at t=${this.now} (a step's time or a window's end) returned ${outs.length} output${outs.length === 1 ? "" : "s"}, the first ${json.length > 200 ? `${json.slice(0, 200)}...` : json}. ` +
      "A driver sleeps until the reported deadline, so this timer would run late or never there: report in next_deadline_ms when each timer is next due (TESTEE-PROTOCOL.md §4)"
    );
  }

  /**
   * When the testee's last poll reported a next_deadline_ms at or before its now_ms, which makes the
   * runner step the case 1 ms at a time (TESTEE-PROTOCOL.md §4 names this mistake), a note saying so
   * for a failure that stepped that way; undefined otherwise.
   */
  private deadlineNotAhead(): string | undefined {
    const d = this.lastPollDeadline;
    if (d === undefined || d.nextMs > d.nowMs) return undefined;
    return (
      `the testee's last poll reported next_deadline_ms ${d.nextMs}, at or before its now_ms ${d.nowMs}; a deadline at or before now_ms ` +
      "after an empty poll is read as now_ms + 1, so the runner steps the case 1 ms at a time: report the time a timer is next due, " +
      "or no next_deadline_ms when none is, never 0 for none (TESTEE-PROTOCOL.md §4)"
    );
  }

  /** Advance to the next testee deadline or runner event at or before `limit`; false when there is none. */
  private async advanceOne(limit: number): Promise<boolean> {
    const t = this.nextStop(limit);
    if (t === undefined) {
      if (this.now < limit) {
        await this.advanceTo(limit);
        return true;
      }
      return false;
    }
    if (t === this.now && this.pollsEmptyNow()) {
      if (this.now >= limit) return false;
      await this.advanceTo(Math.min(limit, this.now + 1));
      return true;
    }
    await this.advanceTo(t);
    return true;
  }

  /**
   * Where the clock stops next on the way to `limit`: the earlier of the testee's deadline and the
   * next scripted event, when one is at or before `limit` (never before now); undefined when neither is.
   */
  private nextStop(limit: number): number | undefined {
    const deadline = this.deadline !== undefined && this.deadline <= limit ? this.deadline : undefined;
    const event = this.scheduled[0]?.t;
    const next = event !== undefined && event <= limit && (deadline === undefined || event < deadline) ? event : deadline;
    return next === undefined ? undefined : Math.max(this.now, next);
  }

  /**
   * Whether the testee asks for a poll at or before now while no scripted event is due now: a poll
   * now has nothing to run, so the clock steps past it by 1 ms (TESTEE-PROTOCOL.md §4).
   */
  private pollsEmptyNow(): boolean {
    return this.deadline !== undefined && this.deadline <= this.now && (this.scheduled[0]?.t ?? Infinity) > this.now;
  }

  /**
   * Move the clock to `target` without polling at the deadlines on the way (a stalled engine
   * step): the step's action is the first thing the testee sees at the new time, so a timer
   * that came due meanwhile has not run yet. Scripted events due by then stay queued and run
   * at the next ordinary time step.
   */
  private async jumpTo(target: number): Promise<void> {
    if (target < this.now) throw new CaseBug(`step time ${target} is before the current time ${this.now}`);
    if (target === this.now) return;
    this.now = target;
    if (this.configured) await this.cmd({ advanceClock: {} }, false, false); // no poll after it
  }

  /**
   * Move the clock to `target`, polling at every deadline and running the scheduled events on the
   * way. After {@link MAX_STEPS_PER_ADVANCE} such stops short of `target` (a testee whose
   * `next_deadline_ms` keeps moving by 1 ms) the case fails saying so (TESTEE-PROTOCOL.md §2, item 7).
   */
  private async advanceTo(target: number): Promise<void> {
    if (target < this.now) throw new CaseBug(`step time ${target} is before the current time ${this.now}`);
    const from = this.now;
    for (let guard = 0; ; guard++) {
      const t = this.nextStop(target);
      if (t === undefined) break;
      if (guard === MAX_STEPS_PER_ADVANCE) {
        const note = this.deadlineNotAhead();
        throw new CaseFailure(
          `the clock stepped a millisecond at a time: ${MAX_STEPS_PER_ADVANCE} polls on the way from t=${from} to t=${target} got only to t=${this.now}` +
            (note !== undefined
              ? `: ${note}`
              : " (a testee whose next_deadline_ms keeps moving by 1 ms, or is at or before now_ms after an empty poll); " +
                "report the time a timer is next due, or no next_deadline_ms when none is (TESTEE-PROTOCOL.md §4)"),
        );
      }
      this.now = t;
      while (this.scheduled.length > 0 && (this.scheduled[0] as Scheduled).t <= this.now) {
        const e = this.scheduled.shift() as Scheduled;
        if (e.chain > MAX_CHAIN_AT_ONE_INSTANT)
          throw new CaseFailure(
            `[I1] livelock at t=${this.now}: ${MAX_CHAIN_AT_ONE_INSTANT} times in a row the case's scripted peers answered an output of the testee ` +
              "at once and the testee answered with another output at the same instant, so the clock cannot move and nothing else can happen " +
              `(a testee that retries at once, with no backoff [C4], does this)${this.describeMailbox()}`,
          );
        const outer = this.runningChain;
        this.runningChain = e.chain;
        try {
          await e.run();
        } finally {
          this.runningChain = outer;
        }
      }
      await this.settle();
      if (this.pollsEmptyNow()) {
        // The testee asks for a poll "now" but had nothing to say; step past it.
        if (t === target) break;
        this.deadline = this.now + 1;
      }
    }
    if (this.now < target) {
      this.now = target;
      if (this.configured) await this.cmd({ advanceClock: {} });
    }
  }

  // ------------------------------------------------------------------ outputs

  private async onOutputs(outs: ectp.conformance.v1.IOutput[]): Promise<void> {
    // Every output's shape first: one that sets no kind would otherwise be kept unread, and the case
    // fail later on an output it never saw.
    for (const [i, o] of outs.entries()) {
      const problem = outputProblem(o, `poll at t=${this.now}, output ${i + 1} of ${outs.length}`);
      if (problem !== undefined) throw new CaseFailure(problem);
    }
    // The mailbox keeps a send's envelope, which cases match, not its bytes (checked from `o` below):
    // a copy without them is converted, rather than writing them as base64 to be dropped. (Not a
    // delete: fromObject returns a decoded message as it is, and `o` must keep its bytes.)
    const all = outs.map((o) => {
      const kept = o.send ? { ...o, send: { ...o.send, raw: undefined } } : o;
      return C.Output.toObject(C.Output.fromObject(kept as Record<string, unknown>), JSON_OPTIONS) as Record<string, unknown>;
    });
    // First what this poll published, so that a send of the same batch may come before its output.
    for (const json of all) {
      const batch = (json.eventBatch as { batch?: { sequence?: string } } | undefined)?.batch;
      if (batch !== undefined) this.published.set(String(batch.sequence ?? "0"), JSON.stringify(batch));
    }
    for (const [i, o] of outs.entries()) {
      const json = all[i] as Record<string, unknown>;
      this.mailbox.push({ t: this.now, out: json, consumed: false });
      if (o.send?.envelope?.eventBatch) this.checkSentBatch(String(o.send.to), (json.send as { envelope: { eventBatch: { sequence?: string } } }).envelope.eventBatch);
      if (o.startRead) this.onStartRead(o.startRead);
      if (o.cancelRead && this.spec.settleOnCancel !== false) {
        const id = Number(o.cancelRead.readId);
        if (this.reads.has(id))
          this.schedule(this.now, async () => {
            if (this.reads.has(id)) await this.readResult({ read: id, status: "cancelled" });
          });
      }
      if (o.send) {
        const env = o.send.envelope;
        if (!env)
          throw new CaseFailure(
            `send to ${String(o.send.to)} at t=${this.now} has no envelope: testee.proto SendOutput.envelope is required (TESTEE-PROTOCOL.md §5.2; raw comes beside it)`,
          );
        // testee.proto SendOutput: the envelope goes out with version, sender_id and sender_epoch filled
        // in; a peer drops an envelope without them, so a testee leaving them out would load nothing.
        if (Number(env?.version?.major ?? 0) !== SPEC_MAJOR || env?.senderId !== this.selfId || Number(env?.senderEpoch ?? 0) !== this.selfEpoch)
          throw new CaseFailure(
            `send to ${String(o.send.to)} at t=${this.now}: the envelope MUST carry version ${SPEC_MAJOR}.x, sender_id ${JSON.stringify(this.selfId)} ` +
              `and sender_epoch ${this.selfEpoch} (TESTEE-PROTOCOL.md §5.2); got version ${JSON.stringify(env?.version ?? null)}, ` +
              `sender_id ${JSON.stringify(env?.senderId ?? "")}, sender_epoch ${String(env?.senderEpoch ?? 0)}`,
          );
        // SPEC.md 3.8 (no 64-bit integer above 2^53 - 1: random or hashed ids, epoch-shifted ones at a
        // large epoch), then feature raw-outputs (the bytes the testee's encoder made carry the envelope).
        const reported = (json.send as Record<string, unknown>).envelope as Record<string, unknown>; // proto3 JSON, made once above
        const problem = sendProblem(o.send, reported, this.options.features.has("raw-outputs"), `send to ${String(o.send.to)} at t=${this.now}`);
        if (problem !== undefined) throw new CaseFailure(problem);
        const to = String(o.send.to);
        const p = this.peers.get(to);
        // Scripted producers answer the testee's Hello (consumer and subscriber cases) and then heartbeat.
        if (p?.up && p.hello && o.send.envelope?.hello && this.role !== C.Role.ROLE_PRODUCER)
          this.schedule(this.now, async () => {
            if (p.up) await this.greet(p);
          });
      }
      for (const rule of [...this.rules]) {
        if (rule.remaining <= 0) continue;
        const binds = new Map<string, unknown>();
        // The same matcher language as expectSent's (templates such as {"$key": "A"} included).
        if (!this.matchOne(rule.on, { t: this.now, out: json, consumed: false }, binds)) continue;
        rule.remaining--;
        binds.set("msg", json);
        const named = rule.name === undefined ? "an unnamed rule" : `rule ${JSON.stringify(rule.name)}`;
        for (const [j, a] of rule.actions.entries()) {
          const frame = { label: `in action ${j + 1} of ${rule.actions.length} of ${named}`, step: a };
          this.schedule(this.now + rule.delay, () => this.within(frame, () => this.step(a, binds)));
        }
      }
    }
  }

  /**
   * [E1] An EventBatch sent to a peer is a batch the instance published: the `event_batch` output of
   * its sequence (testee.proto EventBatchOutput), event for event. Subscribers build their views from
   * what they are sent, and cases mostly check the published batch's events, not each copy sent.
   */
  private checkSentBatch(to: string, sent: { sequence?: string }): void {
    const sequence = String(sent.sequence ?? "0");
    const published = this.published.get(sequence);
    const json = JSON.stringify(sent);
    if (published === json) return;
    const cut = (text: string): string => (text.length > 300 ? `${text.slice(0, 300)}...` : text);
    throw new CaseFailure(
      published === undefined
        ? `[E1] an EventBatch of sequence ${sequence} was sent to ${to} at t=${this.now}, but no event_batch output of that sequence was published: ` +
            `every batch sent is one published (testee.proto EventBatchOutput): sent ${cut(json)}`
        : `[E1] the EventBatch of sequence ${sequence} sent to ${to} at t=${this.now} differs from the batch published with that sequence ` +
            `(its event_batch output): sent ${cut(json)}, published ${cut(published)}`,
    );
  }

  private onStartRead(sr: ectp.conformance.v1.IStartReadOutput): void {
    const read: UnsettledRead = {
      readId: Number(sr.readId),
      region: String(sr.destinationRegion ?? ""),
      offset: Number(sr.destinationOffset ?? 0),
      length: Number(sr.length ?? 0),
      t: this.now,
    };
    if (!(read.readId > 0))
      throw new CaseFailure(
        `start_read at t=${this.now} has read_id ${String(sr.readId ?? 0)}: read ids MUST be > 0 (TESTEE-PROTOCOL.md §5.1; proto3 JSON omits a 0 field)`,
      );
    if (this.reads.has(read.readId))
      throw new CaseFailure(`start_read reuses read_id ${read.readId} while that read is unsettled`);
    // Without its destination a read's overlap with unsettled reads cannot be checked, so a
    // testee leaving it out would pass every [I5] case unchecked.
    if (read.region === "")
      throw new CaseFailure(
        `[I5] start_read ${read.readId} at t=${this.now} has no destination_region: the testee MUST report each read's ` +
          "destination (TESTEE-PROTOCOL.md §5.1)",
      );
    for (const other of this.reads.values())
      if (
        other.region === read.region &&
        read.offset < other.offset + Math.max(1, other.length) &&
        other.offset < read.offset + Math.max(1, read.length)
      )
        throw new CaseFailure(
          `[I5] read ${read.readId} at t=${this.now} targets ${read.region}[${read.offset}, +${read.length}) which overlaps ` +
            `unsettled read ${other.readId} (started t=${other.t}): destination memory reused while a transfer may still write into it`,
        );
    this.reads.set(read.readId, read);
  }

  private addRule(r: Record<string, unknown>): void {
    const actions = Array.isArray(r.do) ? (r.do as StepSpec[]) : [r.do as StepSpec];
    this.rules.push({
      name: r.name as string | undefined,
      on: r.on as Record<string, unknown>,
      actions,
      delay: Number(r.delay ?? 0),
      remaining: typeof r.times === "number" ? r.times : Number.POSITIVE_INFINITY,
    });
  }

  // ------------------------------------------------------------------ stimuli

  private async deliver(arg: Record<string, unknown>): Promise<void> {
    const from = String(arg.from ?? "P1");
    if (arg.raw !== undefined) {
      let raw: Uint8Array;
      if (typeof arg.raw === "string") raw = new Uint8Array(Buffer.from(arg.raw, "base64"));
      else {
        const r = arg.raw as Record<string, unknown>;
        checkEnvelope(r.envelope, "deliver.raw.envelope");
        raw = this.rawEnvelope(from, r.envelope as Record<string, unknown>, r.unknownFields === true, r.repeatBody === true);
      }
      await this.cmd({ deliverMessage: { from, raw } });
      return;
    }
    // Checked as resolved: protobufjs would drop a misspelt field and send a bad enum name as the enum's default.
    checkEnvelope(arg.envelope, "deliver.envelope");
    await this.deliverEnvelope(from, arg.envelope as Record<string, unknown>);
  }

  private envelopeJson(from: string, body: Record<string, unknown>): Record<string, unknown> {
    const p = this.peers.get(from);
    const env: Record<string, unknown> = { version: { major: 1, minor: 0 }, senderId: from, senderEpoch: String(p?.epoch ?? 1), ...body };
    for (const k of Object.keys(env)) if (env[k] === null) delete env[k];
    return env;
  }

  private async deliverEnvelope(from: string, body: Record<string, unknown>): Promise<void> {
    let envelope: ectp.v1.Envelope;
    try {
      envelope = ectp.v1.Envelope.fromObject(this.envelopeJson(from, body));
    } catch (err) {
      throw new CaseBug(`envelope does not convert: ${(err as Error).message}`);
    }
    await this.cmd({ deliverMessage: { from, envelope } });
  }

  /**
   * Encode an envelope, then (`unknown`) add fields no v1 peer knows, at the top level and
   * inside the body [V1][V2], or (`repeatBody`) write its body field a second time, which no
   * encoder does (SPEC.md section 5).
   */
  private rawEnvelope(from: string, body: Record<string, unknown>, unknown: boolean, repeatBody: boolean): Uint8Array {
    const env = ectp.v1.Envelope.fromObject(this.envelopeJson(from, body));
    if (!unknown && !repeatBody) return ectp.v1.Envelope.encode(env).finish();
    const bodyName = Object.keys(body).find((k) => k !== "version" && k !== "senderId" && k !== "senderEpoch");
    if (repeatBody) {
      const field = bodyName ? BODY_FIELDS[bodyName] : undefined;
      if (unknown || !bodyName || !field) throw new CaseBug("raw.repeatBody needs an envelope with a body, and no unknownFields");
      const inner = field.type.encode((env as unknown as Record<string, unknown>)[bodyName]).finish();
      return concat(ectp.v1.Envelope.encode(env).finish(), varint((field.id << 3) | 2), varint(inner.length), inner);
    }
    const extra = new Uint8Array([0xb8, 0x3e, 0x2a, 0xc2, 0x3e, 0x03, 0x61, 0x62, 0x63]); // field 999 varint 42; field 1000 "abc"
    const bodyField = bodyName ? BODY_FIELDS[bodyName] : undefined;
    if (!bodyName || !bodyField) return concat(ectp.v1.Envelope.encode(env).finish(), extra);
    const withoutBody = ectp.v1.Envelope.fromObject({ ...this.envelopeJson(from, {}) });
    const inner = concat(bodyField.type.encode((env as unknown as Record<string, unknown>)[bodyName]).finish(), extra);
    const tag = varint((bodyField.id << 3) | 2);
    return concat(ectp.v1.Envelope.encode(withoutBody).finish(), extra, tag, varint(inner.length), inner);
  }

  private async readResult(arg: Record<string, unknown>): Promise<void> {
    const id = Number(arg.read);
    const read = this.reads.get(id);
    if (!read) throw new CaseBug(`readResult for read ${id}, which is not an unsettled read`);
    this.reads.delete(id);
    const status = readStatus(arg.status);
    let data = new Uint8Array(0);
    const d = arg.data;
    if (typeof d === "string") data = this.fixture(d).bytes.slice();
    else if (d && typeof d === "object") {
      const spec = d as Record<string, unknown>;
      for (const key of Object.keys(spec))
        if (!READ_DATA_KEYS.includes(key)) throw new CaseBug(`readResult data has an unknown key ${JSON.stringify(key)}; it takes ${READ_DATA_KEYS.join(", ")}`);
      data = this.fixture(spec.item).bytes.slice();
      if (spec.corrupt === true && data.length > 0) data[data.length >> 1] = ((data[data.length >> 1] as number) ^ 0xff) & 0xff;
      if (typeof spec.truncate === "number") data = data.slice(0, spec.truncate);
      if (spec.extend !== undefined && !(Number.isInteger(spec.extend) && (spec.extend as number) > 0))
        throw new CaseBug(`readResult data.extend must be a positive whole number of bytes; got ${JSON.stringify(spec.extend)}`);
      if (typeof spec.extend === "number") {
        // More bytes than the item holds: what a transport that wrote past the read would report [C11].
        const longer = new Uint8Array(data.length + spec.extend).fill(0xee);
        longer.set(data);
        data = longer;
      }
    }
    await this.cmd({
      deliverReadResult: {
        readId: id,
        status:
          status === "done"
            ? C.ReadStatus.READ_STATUS_DONE
            : status === "cancelled"
              ? C.ReadStatus.READ_STATUS_CANCELLED
              : C.ReadStatus.READ_STATUS_FAILED,
        data,
        peerGone: arg.peerGone === true,
        error: typeof arg.error === "string" ? arg.error : "",
      },
    });
  }

  private async admit(arg: Record<string, unknown>, expect: Record<string, unknown> | undefined): Promise<void> {
    const requestId = String(arg.request);
    const itemsIn = (arg.items ?? []) as Record<string, unknown>[];
    const mapping = new Map<string, string | undefined>();
    const prev = this.requests.get(requestId);
    const prevRemote = this.remoteItems.get(requestId);
    // Items that can only become READY by a remote load: an announcement and no local copy. An item
    // the request announced on an earlier Admit and presents again without one (a deferred item
    // admitted again) is still announced, and its fixture is still the one announced then.
    const remoteOnly = new Set<string>();
    let local = this.presentedLocal.get(requestId);
    const items = itemsIn.map((it, index) => {
      const itemId = String(it.id);
      const announcedNow = typeof it.announce === "string" || it.announcement !== undefined || typeof it.announcementJson === "string";
      if (it.local === true) {
        local ??= new Set();
        local.add(itemId);
        this.presentedLocal.set(requestId, local);
      } else if (local?.has(itemId) !== true && (announcedNow || prevRemote?.has(itemId) === true)) remoteOnly.add(itemId);
      const out: Record<string, unknown> = { itemId, hasModelInput: it.modelInput === true, local: it.local === true };
      if (typeof it.announce === "string") {
        mapping.set(itemId, it.announce);
        out.announcement = resolve({ $announcement: it.announce }, this.scope, this.macros);
      } else mapping.set(itemId, announcedNow ? undefined : prev?.get(itemId));
      if (it.announcement !== undefined) {
        // Checked as resolved: protobufjs would drop a misspelt field and send a bad enum name as its default.
        checkAnnouncement(it.announcement, `admit.items[${index}].announcement`);
        out.announcement = it.announcement;
      }
      if (typeof it.announcementJson === "string") out.announcementJson = it.announcementJson;
      // An explicit announcement (or its JSON text) names its item by key, not by fixture: find the
      // fixture it announces, so that [I6] checks the bytes loaded for it as for `announce` (a
      // `with` that changes the key leaves it naming no fixture).
      if (it.announcement !== undefined || typeof it.announcementJson === "string")
        mapping.set(itemId, this.fixtureAnnounced(it.announcement !== undefined ? out.announcement : it.announcementJson));
      return out;
    });
    this.requests.set(requestId, prev ? new Map([...prev, ...mapping]) : mapping);
    // An id admitted again after its FinishRequest names a new request, which quiescence finishes too.
    this.finished.delete(requestId);
    const remote = new Set([...(prevRemote ?? [])].filter((id) => !mapping.has(id)));
    for (const id of remoteOnly) remote.add(id);
    this.remoteItems.set(requestId, remote);
    let admitMsg: ectp.conformance.v1.Admit;
    try {
      admitMsg = C.Admit.fromObject({ requestId, items });
    } catch (err) {
      throw new CaseBug(`admit does not convert: ${(err as Error).message}`);
    }
    const res = await this.cmd({ admit: admitMsg });
    // (cmd checked that the answer is an AdmitResult.)
    const json = C.AdmitResult.toObject(res.admit as ectp.conformance.v1.AdmitResult, JSON_OPTIONS) as Record<string, unknown>;
    if (json.status === "ADMIT_STATUS_ADMITTED") {
      // testee.proto ItemDecision.item_id: one decision per item, echoing the item ids in order (the
      // [I6] checks below find each item by it).
      const got = ((json.items ?? []) as Record<string, unknown>[]).map((d) => String(d.itemId ?? ""));
      const sent = (admitMsg.items ?? []).map((i) => String(i.itemId ?? ""));
      if (got.length !== sent.length || got.some((id, i) => id !== sent[i]))
        throw new CaseFailure(
          `admit ${requestId} at t=${this.now}: the decisions name items ${JSON.stringify(got)}; there MUST be one per item, ` +
            `echoing AdmitItem.item_id in order: ${JSON.stringify(sent)} (testee.proto ItemDecision)`,
        );
    }
    // [I6] bytes marked loaded are exactly the producer's bytes.
    const unchecked: string[] = [];
    for (const d of (json.items ?? []) as Record<string, unknown>[]) {
      if (d.action !== "ITEM_ACTION_READY") continue;
      const loaded = d.loaded as Record<string, unknown> | undefined;
      // testee.proto ItemDecision.loaded: MUST be filled for every READY item loaded remotely;
      // without it the loaded bytes cannot be checked, so its absence fails the case.
      if (!loaded && remoteOnly.has(String(d.itemId)))
        throw new CaseFailure(
          `[I6] item ${String(d.itemId)} of ${requestId} is READY at t=${this.now} from a remote load, but ItemDecision.loaded ` +
            "is absent: the testee MUST report the loaded bytes' size and CRC-32C (TESTEE-PROTOCOL.md §5.1)",
        );
      const fx = mapping.get(String(d.itemId)) ?? this.requests.get(requestId)?.get(String(d.itemId));
      // A remote load of an item the case has no bytes for cannot be checked: say so, never pass it unchecked.
      if (loaded && !fx && remoteOnly.has(String(d.itemId))) unchecked.push(String(d.itemId));
      if (loaded && fx) {
        const f = this.fixture(fx);
        if (Number(loaded.sizeBytes ?? 0) !== f.size || Number(loaded.crc32c ?? 0) >>> 0 !== f.crc)
          throw new CaseFailure(
            `[I6] item ${String(d.itemId)} of ${requestId} was marked loaded with ${String(loaded.sizeBytes)} bytes, crc32c ` +
              `${(Number(loaded.crc32c ?? 0) >>> 0).toString(16)}; the producer's bytes are ${f.size} bytes, crc32c ${f.crc.toString(16)}`,
          );
      }
    }
    if (expect) this.checkAdmit(requestId, json, expect);
    // The answer is the one the case expects (or it expects none), so the case is what to fix.
    if (unchecked.length > 0)
      throw new CaseBug(
        `[I6] item ${unchecked.join(", ")} of ${requestId} is READY at t=${this.now} from a remote load, but its announcement's key ` +
          "names none of the case's items, so the loaded bytes cannot be checked: announce the key of one of the case's items",
      );
  }

  /** The fixture an explicit announcement (an object, or its JSON text) names by key; undefined when none does. */
  private fixtureAnnounced(announcement: unknown): string | undefined {
    let a = announcement;
    if (typeof a === "string")
      try {
        a = JSON.parse(a);
      } catch {
        return undefined;
      }
    const key = (a as { item?: { key?: unknown } } | null | undefined)?.item?.key;
    if (key === null || typeof key !== "object") return undefined;
    const keyOf = (k: unknown) => {
      try {
        return JSON.stringify(ectp.v1.ItemKey.toObject(ectp.v1.ItemKey.fromObject(k as Record<string, unknown>), JSON_OPTIONS));
      } catch {
        return undefined;
      }
    };
    const want = keyOf(key);
    if (want === undefined) return undefined;
    return [...this.fixtures.values()].find((f) => keyOf(f.key) === want)?.name;
  }

  private checkAdmit(requestId: string, json: Record<string, unknown>, expect: Record<string, unknown>): void {
    const status = json.status === "ADMIT_STATUS_FAILED" ? "failed" : json.status === "ADMIT_STATUS_ADMITTED" ? "admitted" : String(json.status);
    const fail = (why: string): never => {
      throw new CaseFailure(`admit ${requestId} at t=${this.now}: ${why}; got ${JSON.stringify(json)}`);
    };
    if (expect.status !== undefined) {
      const allowed = Array.isArray(expect.status) ? expect.status : [expect.status];
      if (!allowed.includes(status)) fail(`expected status ${allowed.join(" or ")}`);
    }
    if (Array.isArray(expect.items)) {
      const got = (json.items ?? []) as Record<string, unknown>[];
      if (got.length !== expect.items.length) fail(`expected ${expect.items.length} item decisions`);
      expect.items.forEach((e, i) => {
        const ex = e as Record<string, unknown>;
        const g = got[i] as Record<string, unknown>;
        const action = String(g.action ?? "").replace(/^ITEM_ACTION_/, "").toLowerCase().replace("_", "-");
        const allowed = Array.isArray(ex.action) ? ex.action : [ex.action];
        if (ex.action !== undefined && !allowed.includes(action)) fail(`item ${i}: expected action ${allowed.join(" or ")}`);
        if (ex.reason !== undefined && SHORT_REASON(g.reason) !== ex.reason) fail(`item ${i}: expected reason ${String(ex.reason)}`);
      });
    }
    if (Array.isArray(expect.failures)) {
      const got = (json.failures ?? []) as Record<string, unknown>[];
      this.checkFailures(got, expect.failures as Record<string, unknown>[], fail);
    }
  }

  private checkFailures(got: Record<string, unknown>[], want: Record<string, unknown>[], fail: (why: string) => never): void {
    if (got.length !== want.length) fail(`expected ${want.length} failed items`);
    for (const w of want) {
      const g = got.find((x) => String(x.itemId) === String(w.item));
      if (!g) fail(`expected a failure for item ${String(w.item)}`);
      const reasons = Array.isArray(w.reason) ? w.reason : [w.reason];
      if (w.reason !== undefined && !reasons.includes(SHORT_REASON((g as Record<string, unknown>).reason)))
        fail(`item ${String(w.item)}: expected reason ${reasons.join(" or ")}`);
      // [C6] "the number of remote attempts made": ReadRequests sent for the item (0 when none).
      if (w.attempts !== undefined && Number((g as Record<string, unknown>).attempts ?? 0) !== Number(w.attempts))
        fail(`item ${String(w.item)}: expected ${String(w.attempts)} remote attempts (ReadRequests sent for it)`);
    }
  }

  private async drain(want: unknown[]): Promise<void> {
    const res = await this.cmd({ drainFailed: {} });
    const json = C.DrainFailedResult.toObject(res.drainFailed as ectp.conformance.v1.DrainFailedResult, JSON_OPTIONS) as Record<string, unknown>;
    const got = (json.failed ?? []) as Record<string, unknown>[];
    const fail = (why: string): never => {
      throw new CaseFailure(`[C6] drainFailed at t=${this.now}: ${why}; got ${JSON.stringify(got)}`);
    };
    if (got.length !== want.length)
      fail(`expected ${want.length} failed requests (${(want as Record<string, unknown>[]).map((w) => String(w.request)).join(", ") || "none"})`);
    const ids = new Set(got.map((g) => String(g.requestId)));
    if (ids.size !== got.length) fail("a request is reported more than once");
    for (const w of want as Record<string, unknown>[]) {
      const g = got.find((x) => String(x.requestId) === String(w.request));
      if (!g) fail(`expected request ${String(w.request)}`);
      if (Array.isArray(w.failures)) this.checkFailures(((g as Record<string, unknown>).failures ?? []) as Record<string, unknown>[], w.failures as Record<string, unknown>[], fail);
    }
  }

  /** Put fixture `name` (and mark it ready); `settle`: poll the testee after each command. */
  private async put(name: string, ready: boolean, expectError: boolean, settle: boolean): Promise<void> {
    const f = this.fixture(name);
    // Checked here, not as the case loads: a configure step may have changed the testee's epoch since.
    const under = this.storedUnder(f);
    if (f.storedAs !== undefined && under.producerId === this.selfId && under.epoch === this.selfEpoch)
      throw new CaseBug(
        `put ${name}: its storedAs names the testee's own producer id ${JSON.stringify(this.selfId)} and epoch ${this.selfEpoch}, so it is an item like any other; name another id or epoch, or leave storedAs out`,
      );
    const res = await this.cmd({ putItem: putItemOf(f) }, expectError, settle);
    const d = res.putItem?.descriptor;
    // testee.proto PutItemResult: the stored item's full descriptor, as the producer will announce it
    // (its location may be empty: item.proto lets the grant supply it).
    if (d) this.checkStoredDescriptor(`putItem ${name}`, "PutItemResult.descriptor", f, d as ectp.v1.ItemDescriptor);
    if (ready && !res.error) await this.cmd({ markReady: { key: ectp.v1.ItemKey.fromObject(f.key) } }, false, settle);
  }

  /**
   * Feature stream-framing: the stream of the step's argument, cut into chunks, through the testee's
   * own stream decoder (DecodeStream); the frames it handed out, each at the chunk that completed it,
   * and how it ended must be the step's `expect` (SPEC.md section 5, "Byte streams"). An answer
   * that is malformed (TESTEE-PROTOCOL.md section 5.5: no outcome, a chunk index that is no chunk of
   * the stream or out of order) fails the case as the testee's, not as [C10].
   */
  private async decodeStream(arg: unknown, expect: unknown): Promise<void> {
    const { chunks, maxFrameBytes } = streamInput(arg);
    const res = await this.cmd({ decodeStream: { chunks, ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }) } });
    const result = res.decodeStream as ectp.conformance.v1.IDecodeStreamResult;
    const malformed = malformedStreamAnswer(result, chunks.length);
    if (malformed !== undefined)
      throw new TesteeFault("malformed", `decodeStream at t=${this.now} was answered with a malformed DecodeStreamResult: ${malformed} (TESTEE-PROTOCOL.md §5.5)`);
    const problem = decodedStreamProblem(result, expect, chunks.length);
    if (problem !== undefined) throw new CaseFailure(`[C10] decodeStream at t=${this.now}: ${problem}`);
  }

  private async announce(name: string, expect: Record<string, unknown> | undefined, bind: string | undefined): Promise<void> {
    const res = await this.cmd({ announce: { key: ectp.v1.ItemKey.fromObject(this.fixture(name).key) } });
    const a = res.announce?.announcement;
    const json = a ? ectp.v1.Announcement.toObject(a as ectp.v1.Announcement, JSON_OPTIONS) : undefined;
    if (expect?.present === true && !json) throw new CaseFailure(`announce ${name} at t=${this.now}: expected an announcement, got none`);
    if (expect?.present === false && json) throw new CaseFailure(`announce ${name} at t=${this.now}: expected no announcement`);
    if (expect?.match && !matches(this.r(expect.match), json, this.scope, new Map()))
      throw new CaseFailure(`announce ${name}: ${JSON.stringify(json)} does not match ${JSON.stringify(expect.match)}`);
    if (bind) this.scope.set(bind, json);
  }

  // ------------------------------------------------------------------ expectations

  private matchOne(m: Record<string, unknown>, item: MailItem, binds: Map<string, unknown>, extra?: Map<string, unknown>): boolean {
    const { $window, $bindTime, $times, ...pattern } = m;
    const scope = extra ? new Map([...this.scope, ...extra]) : this.scope;
    if ($window !== undefined) {
      const [lo, hi] = windowBounds(resolve($window, scope, this.macros));
      if (item.t < lo || item.t > hi) return false;
    }
    if (!matches(resolve(pattern, scope, this.macros), item.out, scope, binds)) return false;
    if (typeof $bindTime === "string") binds.set($bindTime, item.t);
    return true;
  }

  private describeMailbox(): string {
    const open = this.mailbox.filter((m) => !m.consumed);
    const lines = open.slice(-12).map((m) => `  t=${m.t} ${shownOutput(m.out)}`);
    return open.length === 0 ? " (no unconsumed outputs)" : `\nunconsumed outputs (last ${lines.length} of ${open.length}):\n${lines.join("\n")}`;
  }

  /**
   * The matchers of an `expectSent` or `expectNone` step: its list, or the list a `"${var}"` holds
   * (a matcher of the list may be a `"${var}"` too). Each matcher's own templates are resolved as it
   * is matched, so that one may use what an earlier one bound.
   * @throws CaseBug unless they are a non-empty list of matchers (objects): a string would be
   *   matched character by character, and check nothing.
   */
  private matcherList(action: string, arg: unknown, extra?: Map<string, unknown>): Record<string, unknown>[] {
    const list = typeof arg === "string" ? this.r(arg, extra) : arg;
    const matchers = Array.isArray(list) ? list.map((m) => (typeof m === "string" ? this.r(m, extra) : m)) : [];
    if (matchers.length === 0 || matchers.some((m) => m === null || typeof m !== "object" || Array.isArray(m)))
      throw new CaseBug(`${action} needs a non-empty list of matchers; got ${JSON.stringify(arg)}${list === arg ? "" : `, which is ${JSON.stringify(list)}`}`);
    return matchers as Record<string, unknown>[];
  }

  /**
   * Consume one matching output per matcher. A matcher with `$window: [lo, hi]` may be
   * satisfied later: the clock then advances (through every deadline) until it is seen or
   * `hi` passes, so "a retry between t+25 and t+50" is checked exactly.
   */
  private async expectSent(matchers: Record<string, unknown>[], extra?: Map<string, unknown>): Promise<void> {
    for (const m of matchers) {
      const times = m.$times === undefined ? 1 : m.$times;
      if (typeof times !== "number" || !Number.isSafeInteger(times) || times < 1)
        throw new CaseBug(`$times must be an integer >= 1 (expectNone checks absence); got ${JSON.stringify(m.$times)}`);
      const hi = m.$window !== undefined ? windowBounds(resolve(m.$window, extra ? new Map([...this.scope, ...extra]) : this.scope, this.macros))[1] : this.now;
      let consumedAt = 0; // the time of the last output this matcher consumed
      for (let k = 0; k < times; k++) {
        let found = false;
        for (;;) {
          for (const item of this.mailbox) {
            if (item.consumed) continue;
            const binds = new Map<string, unknown>();
            if (!this.matchOne(m, item, binds, extra)) continue;
            item.consumed = true;
            for (const [bk, bv] of binds) this.scope.set(bk, bv);
            found = true;
            consumedAt = item.t;
            break;
          }
          if (found || !(await this.advanceOne(hi))) break;
        }
        if (!found) {
          // None in the window: one that matches but came before the window opened came early, not never.
          const early = this.earlyMatch(m, extra);
          if (early !== undefined)
            throw new CaseFailure(
              `expected output came early, at t=${early.item.t}, before its window opened at t=${early.lo}, and none came in the window ` +
                `by t=${this.now} (${k + 1} of ${times}): ${shownOutput(early.item.out)} matches ${JSON.stringify(m)}`,
            );
          throw new CaseFailure(
            `expected output not seen by t=${this.now} (${k + 1} of ${times}): ${JSON.stringify(m)}${this.describeMailbox()}`,
          );
        }
      }
      // A window says when the output comes: one that matches it but came before the window opened
      // (and no earlier step consumed) came too early, even when another came in the window: the
      // message says so, as the early one is then an output too many, not a late one.
      const early = this.earlyMatch(m, extra);
      if (early !== undefined)
        throw new CaseFailure(
          `expected output came early, at t=${early.item.t}, before its window opened at t=${early.lo}, besides the one that came in the window at t=${consumedAt}, ` +
            `so the early one is an output too many: ${shownOutput(early.item.out)} matches ${JSON.stringify(m)}`,
        );
    }
  }

  /** For a matcher with a `$window`: the first unconsumed output that matches it but came before the window opened, and the window's start. */
  private earlyMatch(m: Record<string, unknown>, extra?: Map<string, unknown>): { item: MailItem; lo: number } | undefined {
    if (m.$window === undefined) return undefined;
    const [lo] = windowBounds(resolve(m.$window, extra ? new Map([...this.scope, ...extra]) : this.scope, this.macros));
    const { $window: _w, ...unwindowed } = m;
    const item = this.mailbox.find((it) => !it.consumed && it.t < lo && this.matchOne(unwindowed, it, new Map(), extra));
    return item === undefined ? undefined : { item, lo };
  }

  /**
   * `{among, first}`: of the unconsumed outputs matching `among` (a matcher or a list of them),
   * in the order the testee produced them, the first ones match `first` one by one (each is
   * consumed). Checks order where `expectSent` only checks presence: e.g. that the first message
   * to a producer is a Hello, or that a connect_peer comes before anything sent.
   */
  private expectOrder(arg: Record<string, unknown>, extra?: Map<string, unknown>): void {
    const among = (Array.isArray(arg.among) ? arg.among : [arg.among]) as Record<string, unknown>[];
    const first = arg.first;
    if (among.some((m) => m === null || typeof m !== "object") || !Array.isArray(first) || first.length === 0)
      throw new CaseBug(`expectOrder needs {among: matcher or [matchers], first: [matchers]}; got ${JSON.stringify(arg)}`);
    const items = this.mailbox.filter((it) => !it.consumed && among.some((m) => this.matchOne(m, it, new Map(), extra)));
    for (let k = 0; k < first.length; k++) {
      const it = items[k];
      const binds = new Map<string, unknown>();
      if (it === undefined || !this.matchOne(first[k] as Record<string, unknown>, it, binds, extra)) {
        // Say whether the order is wrong (the expected output came later) or an output itself (none matches).
        const later = items.findIndex((other, j) => j > k && this.matchOne(first[k] as Record<string, unknown>, other, new Map(), extra));
        const what = it === undefined ? "missing" : later < 0 ? "not as expected" : "out of order";
        const where = later < 0 ? "no output matches it" : `output ${later + 1} does`;
        throw new CaseFailure(
          `outputs ${what} at t=${this.now}: output ${k + 1} among ${JSON.stringify(arg.among)} should match ` +
            `${JSON.stringify(first[k])}; it is ${it === undefined ? "missing" : `${shownOutput(it.out)} (${where})`}${this.describeMailbox()}`,
        );
      }
      it.consumed = true;
      for (const [bk, bv] of binds) this.scope.set(bk, bv);
    }
  }

  /**
   * In `expectNone` and `expectCount` a `$window` only selects outputs already produced: the clock
   * does not move. A window ending after the step's time would leave its end unobserved (an
   * `expectNone` passing whatever comes later), so it is a case bug.
   */
  private checkPastWindow(what: string, m: Record<string, unknown>, extra?: Map<string, unknown>): void {
    if (m === null || typeof m !== "object" || m.$window === undefined) return;
    const [, hi] = windowBounds(resolve(m.$window, extra ? new Map([...this.scope, ...extra]) : this.scope, this.macros));
    if (!(hi <= this.now))
      throw new CaseBug(
        `${what} at t=${this.now} has a $window ending at t=${hi}: it checks only outputs already produced, so put the step at or after the window's end (${JSON.stringify(m)})`,
      );
  }

  private expectNone(matchers: Record<string, unknown>[], extra?: Map<string, unknown>): void {
    for (const m of matchers) this.checkPastWindow("expectNone", m, extra);
    for (const m of matchers)
      for (const item of this.mailbox) {
        if (item.consumed) continue;
        if (this.matchOne(m, item, new Map(), extra))
          throw new CaseFailure(
            `unexpected output produced at t=${item.t}: ${shownOutput(item.out)} matches ${JSON.stringify(m)}` +
              (item.t === this.now ? "" : ` (found by an expectNone at t=${this.now}, which covers every output not consumed by an earlier step)`),
          );
      }
  }

  /**
   * [E2] Consume one whole Snapshot answer sent to `to` (default `C1`): the parts of the first
   * unconsumed Snapshot's `snapshot_id` (at least 1), numbered 0 to `parts` - 1 once each, with
   * one `sequence`; each part within `maxElements` repeated elements (one per item plus its shape
   * dimensions; default the SPEC.md section 5 limit, 65,536); their items together exactly
   * `items` (a fixture or a family), each once and each with the descriptor that was put (key,
   * size, shape, dtype, checksum). Parts may arrive until `within` ms after the step (default 0:
   * all of them by the step's time); the clock advances through the testee's deadlines meanwhile.
   */
  private async expectSnapshot(arg: Record<string, unknown>): Promise<void> {
    const to = String(arg.to ?? "C1");
    const whole = (key: string, fallback: number, min: number): number => {
      const v = arg[key] === undefined ? fallback : arg[key];
      if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min)
        throw new CaseBug(`expectSnapshot.${key} must be an integer >= ${min}; got ${JSON.stringify(arg[key])}`);
      return v;
    };
    const maxElements = whole("maxElements", 65_536, 1);
    const hi = this.now + whole("within", 0, 0);
    // `items`: a fixture or family name, or a list of them (the snapshot's items in any order).
    const names = Array.isArray(arg.items) ? arg.items.map(String) : [String(arg.items)];
    const want = names.flatMap((name) => this.families.get(name) ?? [this.fixture(name).name]);
    if (new Set(want).size !== want.length) throw new CaseBug(`expectSnapshot.items names an item more than once: ${JSON.stringify(arg.items)}`);
    const snapshotOf = (m: MailItem) => {
      const send = m.out.send as { to?: string; envelope?: { snapshot?: Record<string, unknown> } } | undefined;
      return !m.consumed && send?.to === to ? send.envelope?.snapshot : undefined;
    };
    /** The outputs holding the parts of the first unconsumed answer, and its id. */
    const answer = () => {
      const first = this.mailbox.map(snapshotOf).find((x) => x !== undefined);
      const id = String(first?.snapshotId ?? "0");
      const mine = this.mailbox.filter((m) => {
        const x = snapshotOf(m);
        return x !== undefined && String(x.snapshotId ?? "0") === id;
      });
      return { first, id, mine };
    };
    let { first, id, mine } = answer();
    // Until every part of the answer is out (each counted once), or `within` has passed.
    while (first === undefined || new Set(mine.map((m) => Number(snapshotOf(m)?.part ?? 0))).size < Math.max(1, Number(first.parts ?? 0))) {
      if (!(await this.advanceOne(hi))) break;
      ({ first, id, mine } = answer());
    }
    // Annotated, so that TypeScript knows the code after a call is unreachable.
    const fail: (why: string) => never = (why) => {
      throw new CaseFailure(`[E2] snapshot to ${to} by t=${this.now}: ${why}`);
    };
    if (!first) fail(`none sent${this.describeMailbox()}`);
    if (id === "0") fail("snapshot_id is 0; every answer's id is at least 1");
    const parts = mine.map((m) => snapshotOf(m) as Record<string, unknown>);
    const count = Math.max(1, Number(first.parts ?? 0));
    const seen = new Set<number>();
    const keyOwner = new Map<string, string>();
    for (const f of want) keyOwner.set(JSON.stringify(this.fixture(f).key.contentHash), f);
    const got = new Map<string, number>();
    for (const p of parts) {
      const part = Number(p.part ?? 0);
      if (Math.max(1, Number(p.parts ?? 0)) !== count || String(p.sequence ?? "0") !== String(first.sequence ?? "0"))
        fail(`the parts of snapshot_id ${id} disagree on parts or sequence: ${JSON.stringify(parts.map((x) => ({ part: x.part, parts: x.parts, sequence: x.sequence })))}`);
      if (part >= count || seen.has(part)) fail(`part ${part} of ${count} is out of range or sent twice`);
      seen.add(part);
      const items = (p.items ?? []) as { key?: { contentHash?: string }; shape?: unknown[] }[];
      const elements = items.reduce((n, d) => n + 1 + (d.shape?.length ?? 0), 0);
      if (elements > maxElements) fail(`part ${part} holds ${elements} repeated elements (items plus shape dimensions), over ${maxElements}`);
      for (const d of items) {
        const owner = keyOwner.get(JSON.stringify(d.key?.contentHash));
        if (owner === undefined) fail(`part ${part} holds an item that is not one of ${names.join(", ")}: ${JSON.stringify(d.key)}`);
        if (putFields(this.fixture(owner).partial) !== putFields(d as Record<string, unknown>))
          fail(`part ${part}: the descriptor of ${owner} is not the one put: ${JSON.stringify(d)}`);
        // [E2][P8] A producer publishes no descriptor naming another producer or epoch than its own (SPEC.md 4.4).
        const named = d as { producerId?: unknown; epoch?: unknown };
        if (named.producerId !== this.selfId || Number(named.epoch ?? 0) !== this.selfEpoch)
          fail(`part ${part}: the descriptor of ${owner} MUST name this producer and epoch (producer_id ${JSON.stringify(this.selfId)}, epoch ${this.selfEpoch}); got ${JSON.stringify(d)}`);
        got.set(owner, (got.get(owner) ?? 0) + 1);
      }
    }
    if (seen.size !== count) fail(`${seen.size} of ${count} parts sent (snapshot_id ${id})`);
    const missing = want.filter((f) => got.get(f) !== 1);
    if (missing.length > 0)
      fail(`${missing.length} of ${want.length} items are missing or sent more than once, e.g. ${missing.slice(0, 3).join(", ")}`);
    for (const m of mine) m.consumed = true;
  }

  private expectCount(arg: Record<string, unknown>, extra?: Map<string, unknown>): void {
    const m = arg.match as Record<string, unknown>;
    this.checkPastWindow("expectCount", m, extra);
    const matching = this.mailbox.filter((item) => this.matchOne(m, item, new Map(), extra));
    const n = matching.length;
    const min = arg.min === undefined ? 0 : countBound("min", this.r(arg.min, extra));
    const max = arg.max === undefined ? Number.POSITIVE_INFINITY : countBound("max", this.r(arg.max, extra));
    if (min > max) throw new CaseBug(`expectCount.min ${min} is above its max ${max}: no count satisfies both`);
    if (n < min || n > max) {
      const wanted = max === Number.POSITIVE_INFINITY ? `at least ${min}` : min === max ? `exactly ${min}` : `${min} to ${max}`;
      // The matching outputs themselves (the last 12), so the extra or missing one can be told apart.
      const shown = matching.slice(-12).map((item) => `  t=${item.t} ${shownOutput(item.out)}`);
      throw new CaseFailure(
        `${String(arg.why ?? "count")}: ${n} outputs by t=${this.now} match ${JSON.stringify(m)}; expected ${wanted}` +
          (shown.length === 0 ? "" : `\nmatching outputs (last ${shown.length} of ${n}):\n${shown.join("\n")}`),
      );
    }
  }

  /** Subscriber: follow a producer (`"P1"`, or `{producer, connection: {epoch, metadata (base64)}}`). */
  private async follow(arg: unknown): Promise<void> {
    if (typeof arg === "string") {
      this.following.add(arg);
      await this.cmd({ follow: { producerId: arg } });
      return;
    }
    const a = (arg ?? {}) as Record<string, unknown>;
    if (typeof a.producer !== "string") throw new CaseBug(`follow needs a producer id, or {producer, connection}; got ${JSON.stringify(arg)}`);
    const c = a.connection as Record<string, unknown> | undefined;
    const connection = c === undefined ? undefined : { epoch: Number(c.epoch), metadata: new Uint8Array(Buffer.from(String(c.metadata ?? ""), "base64")) };
    this.following.add(a.producer);
    await this.cmd({ follow: { producerId: a.producer, connection } });
  }

  /**
   * `{times, as, steps}`: run `steps` `times` times, with the variable `as` (default `i`)
   * counting 0, 1, ... in their templates (e.g. `{"$expr": "i + 2"}`).
   */
  private async repeat(arg: unknown, extra: Map<string, unknown> | undefined): Promise<void> {
    const a = (arg ?? {}) as Record<string, unknown>;
    const times = this.r(a.times, extra);
    if (typeof times !== "number" || !Number.isSafeInteger(times) || times < 0 || times > 100_000)
      throw new CaseBug(`repeat.times must be an integer in [0, 100000]; got ${JSON.stringify(a.times)}`);
    const name = a.as ?? "i";
    if (typeof name !== "string" || !/^[A-Za-z_]\w*$/.test(name)) throw new CaseBug(`repeat.as must be a variable name; got ${JSON.stringify(a.as)}`);
    if (!Array.isArray(a.steps) || a.steps.length === 0) throw new CaseBug("repeat.steps must be a non-empty list of steps");
    const steps = a.steps as StepSpec[];
    for (let k = 0; k < times; k++) {
      const scope = new Map(extra);
      scope.set(name, k);
      for (const [j, s] of steps.entries())
        await this.within({ label: `in repetition ${k + 1} of ${times} (${name} = ${k}), its step ${j + 1} of ${steps.length}`, step: s }, () =>
          this.step(s, scope),
        );
    }
  }

  /**
   * Subscriber: the view of `producer` is `synced` and holds exactly the items listed, each a
   * fixture name or `{item, with}`, each with the descriptor the runner sends for it
   * (`$descriptor` of that fixture with `with` applied: key, size, location, producer id, epoch,
   * checksum...). A view that is not synced must hold no items (TESTEE-PROTOCOL.md, ViewResult).
   */
  private async expectView(arg: Record<string, unknown>): Promise<void> {
    const producer = String(arg.producer ?? "P1");
    const want = arg.items;
    if (!Array.isArray(want)) throw new CaseBug(`expectView.items must be a list of item names or {item, with}; got ${JSON.stringify(want)}`);
    const synced = arg.synced ?? want.length > 0;
    if (typeof synced !== "boolean") throw new CaseBug(`expectView.synced must be a boolean; got ${JSON.stringify(arg.synced)}`);
    const expected = new Map<string, Record<string, unknown>>();
    // A family's name stands for all its members.
    const specs = want.flatMap((w) => (typeof w === "string" ? (this.families.get(w) ?? [w]).map((item) => ({ item })) : [w]));
    for (const spec of specs as Record<string, unknown>[]) {
      const f = this.fixture(spec.item);
      const descriptor = { ...this.descriptor(f.name), ...((spec.with as Record<string, unknown>) ?? {}) };
      expected.set(f.name, ectp.v1.ItemDescriptor.toObject(ectp.v1.ItemDescriptor.fromObject(descriptor), JSON_OPTIONS) as Record<string, unknown>);
    }
    const res = await this.cmd({ getView: { producerId: producer } }, false, false);
    const view = res.view as ectp.conformance.v1.IViewResult; // (checked by cmd)
    const items = (view.items ?? []).map((d) => ectp.v1.ItemDescriptor.toObject(d as ectp.v1.ItemDescriptor, JSON_OPTIONS) as Record<string, unknown>);
    const keyOf = (key: unknown) =>
      key !== null && typeof key === "object"
        ? JSON.stringify(ectp.v1.ItemKey.toObject(ectp.v1.ItemKey.fromObject(key as Record<string, unknown>), JSON_OPTIONS))
        : "(no key)";
    const names = new Map([...this.fixtures.values()].map((f) => [keyOf(f.key), f.name]));
    const nameOf = (d: Record<string, unknown>) => names.get(keyOf(d.key)) ?? `(an item no fixture names: key ${keyOf(d.key)})`;
    const problems: string[] = [];
    if (view.synced !== synced) problems.push(`synced is ${view.synced === true}, expected ${synced}`);
    if (!synced && items.length > 0) problems.push(`a view that is not synced holds ${items.length} items`);
    const gotNames = items.map(nameOf).sort();
    const expectedNames = [...expected.keys()].sort();
    if (JSON.stringify(gotNames) !== JSON.stringify(expectedNames)) {
      const got = new Set(gotNames);
      const missing = expectedNames.filter((n) => !got.has(n));
      const unexpected = gotNames.filter((n) => !expected.has(n));
      // At most 10 names of each (a family may have thousands of members).
      const list = (names: string[]) => `[${names.slice(0, 10).join(", ")}${names.length > 10 ? `, … ${names.length - 10} more` : ""}]`;
      problems.push(`items: ${items.length}, expected ${expected.size}; missing ${list(missing)}; unexpected ${list(unexpected)}`);
    }
    for (const d of items) {
      const wanted = expected.get(nameOf(d));
      if (wanted !== undefined && JSON.stringify(sortKeys(d)) !== JSON.stringify(sortKeys(wanted)))
        problems.push(`item ${nameOf(d)} is ${JSON.stringify(d)}, expected ${JSON.stringify(wanted)}`);
    }
    if (problems.length > 0) throw new CaseFailure(`[E2] view of ${producer} at t=${this.now}: ${problems.join("; ")}`);
  }

  /** The role's counters of the last getStats with every default shown (for messages: `{}` reads as missing). */
  private lastStatsShown: Record<string, unknown> = {};

  private async stats(): Promise<Record<string, unknown>> {
    const res = await this.cmd({ getStats: {} }, false, false);
    const stats = C.Stats.toObject(res.stats as ectp.conformance.v1.Stats, { ...JSON_OPTIONS, longs: Number }) as Record<string, unknown>;
    const shown = C.Stats.toObject(res.stats as ectp.conformance.v1.Stats, { ...JSON_OPTIONS, longs: Number, defaults: true }) as Record<string, unknown>;
    this.lastStatsShown = Object.fromEntries(Object.entries(shown).filter(([k, v]) => v !== null && stats[k] !== undefined));
    // The invariant checks read the role's counters: a Stats without them would pass [I3]-[I5] unchecked.
    const role = this.caseRole;
    if (stats[role] === undefined || stats[role] === null)
      throw new CaseFailure(`getStats at t=${this.now}: Stats.${role} MUST be set for a ${role} testee (TESTEE-PROTOCOL.md §5); got ${JSON.stringify(stats)}`);
    // Every counter is a uint64: a value that did not convert (NaN) or came out negative is the answer's
    // fault, not an invariant's (it would otherwise read as, say, pins differing from grants).
    for (const [group, counters] of Object.entries(stats))
      for (const [name, v] of Object.entries((counters ?? {}) as Record<string, unknown>)) {
        if (typeof v !== "number" || (Number.isSafeInteger(v) && v >= 0)) continue;
        // A uint64 above 2^53 - 1 (a decimal string, or a binary frame's) is a count, but one the runner holds rounded.
        if (Number.isInteger(v) && v > Number.MAX_SAFE_INTEGER)
          throw new CaseFailure(
            `getStats at t=${this.now}: Stats.${group}.${name} is ${v} (shown rounded), above 2^53-1, which the runner cannot hold exactly ` +
              "(it holds every counter as a number: TESTEE-PROTOCOL.md §3.2); no case makes a counter that large",
          );
        throw new CaseFailure(
          `getStats at t=${this.now}: Stats.${group}.${name} is ${v}, not a count: a uint64 is a non-negative integer, as a JSON number or a decimal string (TESTEE-PROTOCOL.md §3.2)`,
        );
      }
    return stats;
  }

  /**
   * [C3] The testee's last poll reported a `next_deadline_ms` at or before `by` (case time): a timer
   * that changes state with no output (the end of a budget) is due by then, and a driver that sleeps
   * until the reported deadline must wake for it. A deadline reported early passes.
   */
  private expectDeadline(want: { by: number; why?: string }): void {
    const d = this.lastPollDeadline;
    const why = want.why === undefined ? "" : ` (${want.why})`;
    if (d === undefined)
      throw new CaseFailure(`[C3] expected the testee's last poll to report a deadline by t=${want.by}${why}; it reported no next_deadline_ms at t=${this.now}`);
    const reported = d.nextMs - CLOCK_ORIGIN_MS;
    if (reported > want.by)
      throw new CaseFailure(
        `[C3] expected the testee's last poll to report a deadline by t=${want.by}${why}; it reported next_deadline_ms t=${reported}: a driver sleeping until then runs the timer late`,
      );
  }

  private async expectStats(want: Record<string, unknown>, extra?: Map<string, unknown>): Promise<void> {
    const s = await this.stats();
    if (!matches(this.r(want, extra), s, this.scope, new Map()))
      throw new CaseFailure(`stats at t=${this.now}: ${JSON.stringify(this.lastStatsShown)} do not match ${JSON.stringify(want)}`);
  }

  private async invariants(): Promise<void> {
    const s = await this.stats();
    const p = s.producer as Record<string, number> | undefined;
    if (p && (p.pins ?? 0) !== (p.grants ?? 0))
      throw new CaseFailure(`[I3] producer pins (${p.pins ?? 0}) differ from live grants (${p.grants ?? 0}) at t=${this.now}`);
    const c = s.consumer as Record<string, number> | undefined;
    if (c && (c.destinations ?? 0) < (c.readsInFlight ?? 0))
      throw new CaseFailure(
        `[I5] consumer holds ${c.destinations ?? 0} destinations but ${c.readsInFlight ?? 0} reads are unsettled at t=${this.now}: a destination was released under a live transfer`,
      );
  }

  /** Subscriber: unfollow every producer still followed; its stats afterwards (undefined for other roles). */
  private async unfollowAll(): Promise<Record<string, unknown> | undefined> {
    if (this.role !== C.Role.ROLE_SUBSCRIBER) return undefined;
    for (const producerId of this.following) await this.cmd({ unfollow: { producerId } });
    this.following.clear();
    return (await this.stats()).subscriber as Record<string, unknown> | undefined;
  }

  /** Finish everything, settle every read, let every timer run out, then check [I3]/[I4]. */
  private async quiesce(): Promise<void> {
    if (!this.configured) return;
    this.rules.length = 0;
    for (const id of this.requests.keys()) if (!this.finished.has(id)) await this.cmd({ finishRequest: { requestId: id } });
    await this.advanceTo(this.now);
    for (const id of [...this.reads.keys()]) await this.readResult({ read: id, status: "cancelled" });
    for (const p of this.peers.values()) {
      p.up = false;
      p.hbGeneration++;
    }
    await this.advanceTo(this.now + 200_000);
    for (const id of [...this.reads.keys()]) await this.readResult({ read: id, status: "cancelled" });
    if (this.role === C.Role.ROLE_CONSUMER) await this.cmd({ drainFailed: {} });
    const s = await this.stats();
    const c = s.consumer as Record<string, number> | undefined;
    if (c) {
      const leaks = Object.entries(c).filter(([k, v]) => k !== "ignoredMessages" && Number(v) !== 0);
      if (leaks.length > 0)
        throw new CaseFailure(
          `[I4] after every request finished and every timer ran out, consumer tables are not back to baseline: ${leaks
            .map(([k, v]) => `${k}=${v}`)
            .join(", ")}`,
        );
    }
    const sub = await this.unfollowAll();
    if (sub) {
      const held = Object.entries(sub).filter(([k, v]) => ["producers", "heldBatches", "snapshotParts"].includes(k) && Number(v) !== 0);
      if (held.length > 0)
        throw new CaseFailure(
          `[I4][E2] after every producer was unfollowed, the subscriber still holds ${held.map(([k, v]) => `${k}=${v}`).join(", ")}`,
        );
    }
    const p = s.producer as Record<string, number> | undefined;
    if (p && ((p.grants ?? 0) !== 0 || (p.pins ?? 0) !== 0 || (p.pinnedBytes ?? 0) !== 0))
      throw new CaseFailure(
        `[I3] after quiescence the producer still has grants=${p.grants ?? 0} pins=${p.pins ?? 0} pinnedBytes=${p.pinnedBytes ?? 0}`,
      );
  }
}

/**
 * `{"$encodedSize": <proto3 JSON>, "type": "Event" | "ItemDescriptor"}`: the bytes of that message
 * encoded, without a field tag or length prefix, which is what the batch size bound sums (SPEC.md
 * [E1] for the events of a batch, [E2] for the items of a snapshot part). Lets a case set the bound
 * to an exact number of events.
 * @throws CaseBug for another type, a field or enum name the schema does not define, or a value
 * the message cannot hold.
 */
function encodedSize(type: unknown, value: unknown): number {
  if (type !== "Event" && type !== "ItemDescriptor")
    throw new CaseBug(`$encodedSize needs "type": "Event" or "ItemDescriptor" (the messages the batch size bound counts); got ${JSON.stringify(type)}`);
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new CaseBug(`$encodedSize needs an ${type} as a proto3 JSON object; got ${JSON.stringify(value)}`);
  try {
    return encodeCaseMessage(type, value as Record<string, unknown>).length;
  } catch (cause) {
    throw new CaseBug(`$encodedSize: ${JSON.stringify(value)} is not an ${type} (${cause instanceof Error ? cause.message : String(cause)})`);
  }
}

/** What a fixture's storedAs sets in a PutItem's descriptor, for messages: `producer_id "P9"`, `epoch 4`, or both. */
function storedAsText(storedAs: Readonly<StoredAs>): string {
  const set = [
    ...(storedAs.producer === undefined ? [] : [`producer_id ${JSON.stringify(storedAs.producer)}`]),
    ...(storedAs.epoch === undefined ? [] : [`epoch ${storedAs.epoch}`]),
  ];
  return set.join(" and ");
}

/** The PutItem of fixture `f`: its bytes, or for a `fill` fixture the byte value they all have (testee.proto PutItem.fill). */
function putItemOf(f: Fixture): ectp.conformance.v1.IPutItem {
  // testee.proto PutItem: a producer_id and epoch set are kept (the fixture's storedAs); left empty, the testee's own.
  const { producer, epoch } = f.storedAs ?? {};
  const descriptor = ectp.v1.ItemDescriptor.fromObject({ ...f.partial, ...(producer === undefined ? {} : { producerId: producer }), ...(epoch === undefined ? {} : { epoch }) });
  return f.fill === undefined ? { descriptor, data: f.bytes } : { descriptor, fill: f.fill };
}

/**
 * The fields a producer's PutItem gives an item (key, size, dtype, shape, checksum) of a proto3-JSON
 * descriptor, as comparable text: absent and default are the same, and a field the put descriptor
 * lacks must be absent too.
 */
function putFields(d: Record<string, unknown>): string {
  const { key, sizeBytes, dtype, shape, checksum } = d;
  const canonical = ectp.v1.ItemDescriptor.toObject(ectp.v1.ItemDescriptor.fromObject({ key, sizeBytes, dtype, shape, checksum }), JSON_OPTIONS);
  return JSON.stringify(sortKeys(canonical));
}

/** `v` with object keys sorted at every level (for comparing proto3 JSON whatever the field order). */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(Object.keys(v as Record<string, unknown>).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
}

/**
 * One level of where the interpreter is in a case's script, for failure messages: a step of the
 * case's `steps`, a step of a `repeat`'s repetition, a rule's action, or a phase outside the steps.
 */
interface Frame {
  /** E.g. `at step 7 of 12`, `in repetition 3 of 10 (i = 2), its step 2 of 3`, `in action 1 of 1 of rule "grant"`. */
  readonly label: string;
  /** The step as the case file writes it; none for a phase outside the steps. */
  readonly step?: StepSpec;
}

/**
 * Frames as one line, outermost first, each step shown as {@link shownStep} does: `at step 7 of 12:
 * {"after":100}, in action 1 of 1 of rule "grant": {"deliver":...}`. A `repeat` step with a
 * repetition below it is shown as `(repeat)` only: its step that ran is shown below it.
 */
function whereText(frames: readonly Frame[]): string {
  return frames
    .map((f, i) => {
      if (f.step === undefined) return f.label;
      if (i < frames.length - 1 && "repeat" in f.step) return `${f.label} (repeat)`;
      return `${f.label}: ${shownStep(f.step)}`;
    })
    .join(", ");
}

/** The most characters of a step's JSON a failure message shows. */
const SHOWN_STEP_CHARS = 200;

/** A step as a failure message shows it: its JSON as the case file writes it, without its `comment`, cut after {@link SHOWN_STEP_CHARS} characters. */
function shownStep(step: StepSpec): string {
  const json = JSON.stringify(Object.fromEntries(Object.entries(step).filter(([k]) => k !== "comment")));
  return json.length <= SHOWN_STEP_CHARS ? json : `${cutText(json, SHOWN_STEP_CHARS)}…`;
}

/**
 * The first `max` characters of `text`, one fewer where the cut would split a surrogate pair (a lone
 * half is no text: the JUnit report, XML, could not carry it).
 */
function cutText(text: string, max: number): string {
  return text.slice(0, /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max);
}

/** `message` with `line`, indented by two spaces, after its first line (the headline; details such as outputs or stderr follow). */
function withSecondLine(message: string, line: string): string {
  const nl = message.indexOf("\n");
  return nl < 0 ? `${message}\n  ${line}` : `${message.slice(0, nl)}\n  ${line}${message.slice(nl)}`;
}

/** The testee role of each case role. */
const ROLES = {
  consumer: C.Role.ROLE_CONSUMER,
  producer: C.Role.ROLE_PRODUCER,
  subscriber: C.Role.ROLE_SUBSCRIBER,
} as const;

/** Envelope body fields (envelope.proto), for hand-built wire forms (unknown fields, a repeated body). */
const BODY_FIELDS: Record<string, { id: number; type: { encode(m: unknown): { finish(): Uint8Array } } }> = {
  hello: { id: 10, type: ectp.v1.Hello },
  handshakeReject: { id: 11, type: ectp.v1.HandshakeReject },
  readRequest: { id: 12, type: ectp.v1.ReadRequest },
  readGrant: { id: 13, type: ectp.v1.ReadGrant },
  readReject: { id: 14, type: ectp.v1.ReadReject },
  readComplete: { id: 15, type: ectp.v1.ReadComplete },
  heartbeat: { id: 16, type: ectp.v1.Heartbeat },
  eventBatch: { id: 17, type: ectp.v1.EventBatch },
  replayRequest: { id: 18, type: ectp.v1.ReplayRequest },
  replayUnavailable: { id: 19, type: ectp.v1.ReplayUnavailable },
  snapshotRequest: { id: 20, type: ectp.v1.SnapshotRequest },
  snapshot: { id: 21, type: ectp.v1.Snapshot },
  announcement: { id: 22, type: ectp.v1.Announcement },
};

/** The success answer of each command that returns data (testee.proto TesteeResponse); every other command's is `ok`. */
export const RESULT_OF: Readonly<
  Record<string, "init" | "admit" | "drainFailed" | "putItem" | "announce" | "readMemory" | "poll" | "stats" | "view" | "decodeStream">
> = {
  init: "init",
  admit: "admit",
  drainFailed: "drainFailed",
  putItem: "putItem",
  announce: "announce",
  readMemory: "readMemory",
  poll: "poll",
  getStats: "stats",
  getView: "view",
  decodeStream: "decodeStream",
};

/** The command a request carries (its one field besides now_ms and command_id). */
function commandName(req: ectp.conformance.v1.ITesteeRequest): string {
  return Object.keys(req).find((k) => k !== "nowMs" && k !== "commandId") ?? "?";
}

/** An answer as the failure messages show it: its JSON without `commandId`, or a note saying it sets no result. */
export function kindOf(res: ectp.conformance.v1.TesteeResponse): string {
  const j = res.toJSON();
  delete j.commandId;
  if (Object.keys(j).length === 0) return "no result (an empty response, or a result field this runner does not know)";
  return JSON.stringify(j);
}

function varint(n: number): Uint8Array {
  const out: number[] = [];
  let v = n >>> 0;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return new Uint8Array(out);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** The most characters of one output's JSON a failure message shows (an [E1] batch may be megabytes). */
const SHOWN_OUTPUT_CHARS = 500;

/**
 * An output as a failure message shows it: its JSON, cut after {@link SHOWN_OUTPUT_CHARS}
 * characters with a note of what it is (e.g. a send of eventBatch to C1) and how much was cut.
 */
function shownOutput(out: Record<string, unknown>): string {
  const json = JSON.stringify(out);
  if (json.length <= SHOWN_OUTPUT_CHARS) return json;
  const [kind = "an empty output"] = Object.keys(out);
  const send = out.send as { to?: unknown; envelope?: Record<string, unknown> } | undefined;
  const body = Object.keys(send?.envelope ?? {}).find((k) => k !== "version" && k !== "senderId" && k !== "senderEpoch");
  const what = kind === "send" ? `send of ${body ?? "an envelope without a body"} to ${String(send?.to)}` : `${kind} output`;
  const shown = cutText(json, SHOWN_OUTPUT_CHARS);
  return `${shown}… [${what}, cut: ${json.length - shown.length} of its ${json.length} characters not shown]`;
}

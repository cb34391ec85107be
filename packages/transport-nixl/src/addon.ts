/**
 * Loading the native addon (`@ectp/nixl-native`) and its TypeScript types.
 *
 * The addon is optional at install time (it builds only where NIXL is installed), so it is
 * resolved at run time from a short list of places, and its absence becomes one
 * actionable `EctpError(TRANSPORT_UNAVAILABLE)` instead of a module-not-found crash.
 * @module
 */
import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { EctpError } from "@ectp/protocol";

/** One NIXL notification as drained from the addon. */
export interface NativeNotif {
  /** Sender's NIXL agent name. */
  readonly from: string;
  /** Payload, byte-exact (NUL bytes included). */
  readonly bytes: Uint8Array;
}

/** One settled transfer as drained from the addon. */
export interface NativeSettled {
  /** The id given to `postRead`. */
  readonly id: number;
  /** NIXL status (0 = success, negative = `nixl_status_t` error). */
  readonly status: number;
  /** `nixl_status_t` name, e.g. `NIXL_ERR_REMOTE_DISCONNECT`. */
  readonly code: string;
  /** Released because its destination region was deregistered. */
  readonly deregistered: boolean;
  /** Released by `close()`. */
  readonly closed: boolean;
  /** CRC-32C of the landed bytes: a successful read posted with `postReadWithCrc`. */
  readonly crc32c?: number;
}

/** A notification that NIXL refused to send. */
export interface NativeSendFailure {
  /** Destination agent name. */
  readonly peer: string;
  /** The `nixl_status_t` value NIXL's `genNotif` returned: anything but 0 (`NIXL_SUCCESS`); `code` names it. */
  readonly status: number;
  /** `nixl_status_t` name. */
  readonly code: string;
  /** The tag the send was given (0 when none). */
  readonly tag: number;
}

/**
 * What the addon's `drain()` returns when something is new: flat arrays (the addon sets
 * elements by index, so no property names are created per item):
 * `[from, bytes, ...]` notifications, `[id, status, flags, crc, ...]` settled reads (flags:
 * 2 deregistered, 4 closed, 8 `crc` is the landed bytes' CRC-32C; 1 is no longer used),
 * `[peer, status, tag, ...]` failed sends and `[id, ...]` transfers orphaned (absent from
 * older addons).
 * {@link decodeNativeDrain} turns it into a {@link NativeDrain}.
 */
export type NativeRawDrain = readonly [
  notifs: ReadonlyArray<string | Uint8Array>,
  reads: readonly number[],
  sendFailures: ReadonlyArray<string | number>,
  /** Ids of transfers orphaned since the last drain (never reported before close()); absent from older addons. */
  orphaned?: readonly number[],
];

/** A decoded `drain()` result (see {@link decodeNativeDrain}). */
export interface NativeDrain {
  /**
   * Notifications received: in arrival order from each sender; of several senders in one drain,
   * grouped by sender (NIXL hands them over in a hash map), which [C10] allows.
   */
  readonly notifs: NativeNotif[];
  /** Transfers that settled, in settlement order. */
  readonly reads: NativeSettled[];
  /** Notifications that could not be sent. */
  readonly sendFailures: NativeSendFailure[];
  /** Transfers orphaned (their peer's metadata dropped while in flight): never reported before close(). */
  readonly orphaned: readonly number[];
}

/** A registration made by `registerMemory`. */
export interface NativeRegistration {
  /** Addon-assigned region id. */
  readonly id: number;
  /** Virtual address of the first byte. */
  readonly address: bigint;
  /** Registered length in bytes. */
  readonly length: number;
  /** NIXL partial metadata of this registration (what a reader needs to address it). */
  readonly section: Uint8Array;
}

/** Counters for leak checks: every one returns to zero after `close()` (except totals). */
export interface NativeCounters {
  /** Live NIXL memory registrations. */
  readonly registrations: number;
  /** JS buffers referenced by the addon (registered, or deregistering). */
  readonly heldBuffers: number;
  /** Transfer handles currently posted. */
  readonly activeTransfers: number;
  /**
   * Transfers still in flight when their peer's metadata was invalidated (`disconnectPeer`, a
   * newer epoch's `connectPeer`, a peer found gone): NIXL can no longer report their end and
   * releasing them would not stop their GET, so they are kept, unreported, until `close()` [I5].
   */
  readonly orphanedTransfers: number;
  /** Remote agents whose metadata is loaded. */
  readonly loadedPeers: number;
  /** Promises not yet settled. */
  readonly pendingPromises: number;
  /** Reads ever posted. */
  readonly totalReads: number;
  /**
   * Times NIXL refused to release a transfer (an active one it "cannot abort"): the transfer is
   * orphaned (see `orphanedTransfers`), its read unreported and its destination registered until
   * `close()`, since it may still write there and NIXL 1.4.0 gives no second chance [I5].
   */
  readonly releasesRefused: number;
  /** Times deregistering memory failed: the buffer stays referenced (and retried) instead of being dropped. */
  readonly deregistrationFailures: number;
  /**
   * Turns of the engine thread's loop so far: it grows by millions a second while the engine
   * spins and by at most one per poll interval while it polls (see "Polling design" in the README).
   */
  readonly engineRounds: number;
  /** Notifications ever received. */
  readonly notifsIn: number;
  /** Notifications ever sent. */
  readonly notifsOut: number;
  /**
   * Empty notifications ever sent (not in `notifsOut`): the progress pings to each peer this agent
   * reads from (every 20 ms while reads to it are in flight, and before a READ too large for the
   * target's plain deregistration hold), and the probes before loading a peer's section.
   */
  readonly pingsOut: number;
  /** Agents (engine threads) alive in this process. */
  readonly liveAgents: number;
}

/** What the addon's native agent is built with: its NIXL backend and parameters, and the engine thread's polling and cancel timings ({@link NixlTransport} fills them from its {@link NixlTransportOptions}). */
export interface NativeAgentOptions {
  /** NIXL backend plugin. Default `"UCX"`. */
  backend?: string | undefined;
  /** Backend parameters overriding NIXL's defaults (e.g. `ucx_error_handling_mode`). Default none. */
  params?: Record<string, string> | undefined;
  /** How long the engine spins after its last activity while nothing is in flight, in µs. Default 1000. */
  busySpinUs?: number | undefined;
  /** Engine poll interval after busySpinUs until busyWindowMs, in µs; 0 spins for the whole window. Default 50. */
  busyPollUs?: number | undefined;
  /** How long the engine stays in busy polling after any activity, in ms. Default 100. */
  busyWindowMs?: number | undefined;
  /** Poll interval while only serving reads (a reader's progress pings, no messages), in µs. Default 50. */
  servePollUs?: number | undefined;
  /** Longest idle poll interval (exponential back-off target), in µs. Default 5000. */
  idlePollMaxUs?: number | undefined;
  /**
   * How long a READ that NIXL reports failed is held before it is released and settled, and how
   * long a cancelled one still in flight keeps being progressed continuously, in ms. Default 1000.
   */
  cancelGraceMs?: number | undefined;
}

/** A NIXL agent wrapped by the addon (see native/nixl/src/addon.cpp). */
export interface NativeAgent {
  /** Connection-only metadata of this agent (no memory sections). */
  localMetadata(): Uint8Array;
  /**
   * Register host memory; the addon keeps a reference so GC cannot free it. Synchronous, on the JS
   * thread under the agent lock: it waits for the NIXL call the engine thread is in, which may be a
   * whole READ (see "calls the JS thread makes under the agent lock" in the package README). Memory
   * over exactly a range NIXL still holds shares that registration (a new region id, the same
   * section); NIXL deregisters the range with the last region over it. Memory overlapping a live
   * region's range without being equal to it is refused (`ERR_INVALID_ARG`).
   */
  registerMemory(bytes: ArrayBufferView | ArrayBuffer): NativeRegistration;
  /** Deregister (asynchronously, after releasing transfers into it). Returns false if unknown. */
  deregisterMemory(id: number): boolean;
  /**
   * Load a remote agent's metadata; resolves with its agent name. Metadata of another shape than
   * an agent's `localMetadata()` (one UCX connection, no memory sections) is rejected
   * NIXL_ERR_MISMATCH without reaching NIXL, which crashes on some damaged ones.
   */
  loadRemote(metadata: Uint8Array): Promise<string>;
  /**
   * Whether `loadRemote` would hand `metadata` to NIXL (the shape of an agent's `localMetadata()`,
   * checked as `loadRemote` checks it), answered synchronously. Absent from addons built before it
   * existed.
   */
  metadataWellFormed?(metadata: Uint8Array): boolean;
  /** Forget a remote agent (NOT_FOUND, i.e. already dropped by NIXL, is not an error). */
  invalidateRemote(name: string): void;
  /** Whether metadata of `name` is loaded. Waits for the engine's NIXL call, as `registerMemory` does. */
  checkRemote(name: string): boolean;
  /**
   * Post one READ of `length` bytes into a registered region from the source that `location`
   * describes (the `ItemDescriptor.location` bytes, see `encodeLocation`; the addon copies the
   * location once and reads it in place: no BigInt, no property lookups). The addon checks the
   * location first (what `parseLocation` checks, that it names the agent `peer`, that it
   * describes at least `length` bytes, and that its section is, field by field, one registration
   * of one DRAM descriptor for UCX covering the bytes read: NIXL crashes on some damaged ones):
   * `101` when it refuses it, posting nothing and reporting nothing through `drain`. `offset`
   * and `length` must be whole numbers, and `id` must not be one posted and not yet reported by
   * `drain` (ERR_INVALID_ARG). Small reads may be posted and completed
   * inside the call: the result is `1` (`NIXL_IN_PROG`) when the read is in flight and its
   * result will come through `drain`, otherwise the read's final NIXL status (`0` = done),
   * which `drain` will NOT report.
   * `notif`, if given, is sent to the target when the READ completes (such reads always go to
   * the engine thread).
   */
  postRead(id: number, peer: string, regionId: number, offset: number, length: number, location: Uint8Array, notif?: Uint8Array): number;
  /**
   * `postRead`, and the CRC-32C of the landed bytes is computed when the read succeeds (by the
   * engine thread, with SSE4.2 where the CPU has it): `drain` reports it as
   * {@link NativeSettled.crc32c}, and for a read that settled inside this call (result `0`) it
   * is word 1 of {@link NativeAgent.activityWord}'s buffer.
   */
  postReadWithCrc(id: number, peer: string, regionId: number, offset: number, length: number, location: Uint8Array, notif?: Uint8Array): number;
  /**
   * Give up on a READ: NIXL cannot abort one in flight, so it still settles only when NIXL
   * reports it ended (its own status), and after `cancelGraceMs` it is progressed every
   * `servePollUs` instead of continuously.
   */
  cancelRead(id: number): void;
  /**
   * Send a notification (binary payload). Failures appear in `drain().sendFailures`, with
   * `tag` (a uint32, default 0: e.g. which connection to the peer the send was made under).
   */
  send(peer: string, bytes: Uint8Array, tag?: number): void;
  /** Take everything received or settled since the previous call; `undefined` when nothing is new. */
  drain(): NativeRawDrain | undefined;
  /** Leak-check counters. */
  counters(): NativeCounters;
  /**
   * A 12-byte buffer, the same for the agent's whole life. Word 0 is a 32-bit counter that the
   * engine thread increments (with release ordering) whenever `drain` may have something new:
   * read it with `Atomics.load` on a `Uint32Array`; an unchanged value means `drain` would
   * return `undefined`, so a poll can skip the call. Word 1 is the CRC-32C of the last read
   * that settled inside `postReadWithCrc` (written on the JS thread, valid right after the call).
   * Word 2 counts the reads the engine has settled (queued for `drain`), incremented as each is
   * queued: a read settled inside `postRead` settled after every one it counts. (8 bytes, without
   * word 2, from addons built before it existed.)
   */
  activityWord(): ArrayBuffer;
  /** Release every transfer, registration, peer and the agent; joins the engine thread. */
  close(): Promise<void>;
  /**
   * Stop and join the engine thread now: for a process that exits without `close()`
   * (`process.exit()` skips the addon's teardown, and the engine thread would otherwise call NIXL
   * while the process's static state is destroyed). The engine shuts down as for `close()`: after
   * a send in the last second it first progresses for 200 ms (so the message still leaves), then
   * releases transfers, registrations and peers and destroys the agent; nothing is reported (no
   * promise settles, `drain` gets nothing). The agent is unusable afterwards. Absent from addons
   * built before it existed.
   */
  stopEngine?(): void;
}

const EMPTY_DRAIN: NativeDrain = Object.freeze({
  notifs: Object.freeze([]) as unknown as NativeNotif[],
  reads: Object.freeze([]) as unknown as NativeSettled[],
  sendFailures: Object.freeze([]) as unknown as NativeSendFailure[],
  orphaned: Object.freeze([]) as readonly number[],
});

/**
 * Decode the addon's flat `drain()` result into objects (cheap in JS, where V8 builds
 * fixed-shape literals quickly; costly through N-API, where each property name is looked up).
 * `undefined` (nothing new) decodes to one shared frozen empty result.
 * @param raw - what `NativeAgent.drain()` returned.
 * @param statusNames - NIXL status value to name, e.g. from {@link statusNamesOf}.
 */
export function decodeNativeDrain(raw: NativeRawDrain | undefined, statusNames: ReadonlyMap<number, string>): NativeDrain {
  if (raw === undefined) return EMPTY_DRAIN;
  const [n, r, f, o] = raw;
  const codeOf = (status: number) => statusNames.get(status) ?? "NIXL_ERR_UNKNOWN";
  const notifs: NativeNotif[] = [];
  for (let i = 0; i + 1 < n.length; i += 2) notifs.push({ from: n[i] as string, bytes: n[i + 1] as Uint8Array });
  const reads: NativeSettled[] = [];
  for (let i = 0; i + 3 < r.length; i += 4) {
    const status = r[i + 1] as number;
    const flags = r[i + 2] as number;
    const settled = {
      id: r[i] as number,
      status,
      code: codeOf(status),
      deregistered: (flags & 2) !== 0,
      closed: (flags & 4) !== 0,
    };
    reads.push((flags & 8) !== 0 ? { ...settled, crc32c: r[i + 3] as number } : settled);
  }
  const sendFailures: NativeSendFailure[] = [];
  for (let i = 0; i + 2 < f.length; i += 3) {
    const status = f[i + 1] as number;
    sendFailures.push({ peer: f[i] as string, status, code: codeOf(status), tag: f[i + 2] as number });
  }
  return { notifs, reads, sendFailures, orphaned: o ?? EMPTY_DRAIN.orphaned };
}

/** NIXL status value to name, from the addon's `statusCodes` (the inverse map). */
export function statusNamesOf(addon: NixlAddon): ReadonlyMap<number, string> {
  return new Map(Object.entries(addon.statusCodes).map(([name, value]) => [value, name]));
}

/** Constructor of the native agent class exported by the addon. */
export interface NativeAgentConstructor {
  /**
   * Create a NIXL agent named `name` with a UCX backend. `onActivity` runs on the JS thread
   * whenever the agent's engine thread has something to drain (messages, settled reads).
   */
  new (name: string, options: NativeAgentOptions, onActivity: () => void): NativeAgent;
}

/** What the compiled addon (`ectp_nixl.node`) exports: the agent class and the NIXL facts it was built with. */
export interface NixlAddon {
  /** The native agent class; see {@link NativeAgentConstructor}. */
  readonly Agent: NativeAgentConstructor;
  /** NIXL version this addon was written and tested against. */
  readonly nixlVersionTested: string;
  /** `nixl_status_t` names to values. */
  readonly statusCodes: Readonly<Record<string, number>>;
  /** Agents alive in this process. */
  liveAgents(): number;
  /**
   * The CRC-32C the engine computes for landed bytes (`postReadWithCrc`); `software` forces the
   * portable path instead of SSE4.2. For tests.
   */
  crc32c(bytes: Uint8Array, software?: boolean): number;
}

/** Environment variable that overrides where the addon is loaded from. */
export const ADDON_ENV = "ECTP_NIXL_ADDON";

/**
 * UCX settings applied to this process's environment before the addon loads, unless already
 * set (UCX reads them when NIXL creates the first agent).
 *
 * `UCX_MEM_EVENTS=no`: UCX's memory events hot-patch `mmap`, `munmap`, `madvise`, `brk` and
 * `sbrk` in the running process to keep a registration cache in step with freed memory. In
 * Node processes that was followed by heap corruption (processes dying with SIGSEGV inside V8
 * on memory past the program break; figures in this package's README), and it sends every
 * V8 `munmap` through UCX. NIXL registers each buffer explicitly and holds the registration,
 * which needs no such cache: without the events UCX registers directly. Set
 * `UCX_MEM_EVENTS=yes` to keep UCX's default.
 */
export const UCX_ENV_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({ UCX_MEM_EVENTS: "no" });

/** Set each of {@link UCX_ENV_DEFAULTS} that the environment does not set already. */
function applyUcxDefaults(): void {
  for (const [name, value] of Object.entries(UCX_ENV_DEFAULTS)) process.env[name] ??= value;
}

function moduleDir(): string {
  // ESM: import.meta.url; CJS (tsup shims it): the same.
  return dirname(fileURLToPath(import.meta.url));
}

/**
 * Every path the addon is looked for at, in order: `$ECTP_NIXL_ADDON`, then
 * `native/nixl/build/Release/ectp_nixl.node` relative to this package (from `src/` or
 * `dist/`, through the real path so the workspace symlink works), then through the
 * `@ectp/nixl-native` package if it resolves from the current directory.
 */
export function addonCandidates(): string[] {
  const out: string[] = [];
  const env = process.env[ADDON_ENV];
  if (env) out.push(resolve(env));
  const dirs = [moduleDir()];
  try {
    dirs.push(realpathSync(moduleDir()));
  } catch {
    // keep the unresolved path only
  }
  for (const d of dirs) out.push(resolve(d, "../../../native/nixl/build/Release/ectp_nixl.node"));
  try {
    const req = createRequire(join(process.cwd(), "noop.js"));
    out.push(join(dirname(req.resolve("@ectp/nixl-native/package.json")), "build/Release/ectp_nixl.node"));
  } catch {
    // not resolvable from here
  }
  return [...new Set(out)];
}

let cached: { addon?: NixlAddon; error?: EctpError } | undefined;

/**
 * Load the addon, or throw ONE `EctpError(TRANSPORT_UNAVAILABLE)` that names the platform,
 * every path tried and the fix. The result is cached per process. Applies
 * {@link UCX_ENV_DEFAULTS} first.
 * @param path - explicit addon path; default: {@link addonCandidates}.
 */
export function loadNixlAddon(path?: string): NixlAddon {
  if (path === undefined && cached?.addon) return cached.addon;
  if (path === undefined && cached?.error) throw cached.error;
  applyUcxDefaults();
  const candidates = path === undefined ? addonCandidates() : [resolve(path)];
  const failures: string[] = [];
  const req = createRequire(import.meta.url);
  for (const c of candidates) {
    if (!existsSync(c)) {
      failures.push(`${c} (not found)`);
      continue;
    }
    try {
      const addon = req(c) as NixlAddon;
      if (path === undefined) cached = { addon };
      return addon;
    } catch (e) {
      failures.push(`${c} (failed to load: ${(e as Error).message.split("\n")[0]})`);
    }
  }
  const error = new EctpError(
    "TRANSPORT_UNAVAILABLE",
    `the NIXL native addon is not available on ${process.platform}-${process.arch} (node ${process.version}); tried: ${failures.join("; ")}. ` +
      "Fix: install NVIDIA NIXL (with its UCX plugin), then build the addon in a checkout of the ECTP repository with NIXL_PREFIX=<nixl prefix> npm rebuild @ectp/nixl-native " +
      "(or NIXL_PREFIX=<nixl prefix> node native/nixl/scripts/build.mjs); outside that checkout (the addon is not published to npm) set ECTP_NIXL_ADDON to the ectp_nixl.node it built.",
    { details: { platform: process.platform, arch: process.arch, tried: candidates, failures } },
  );
  if (path === undefined) cached = { error };
  throw error;
}

/** Result of {@link nixlAvailability}. */
export type NixlAvailability =
  | {
      /** The addon loads. */
      available: true;
    }
  | {
      /** The addon cannot be loaded. */
      available: false;
      /** The actionable error text: platform, paths tried and the fix. */
      reason: string;
    };

/**
 * Whether the addon can be loaded here, with the reason when not. Tests use it to skip
 * NIXL cases with a reason instead of failing.
 */
export function nixlAvailability(): NixlAvailability {
  try {
    loadNixlAddon();
    return { available: true };
  } catch (e) {
    return { available: false, reason: (e as Error).message };
  }
}

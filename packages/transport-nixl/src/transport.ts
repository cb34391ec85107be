/**
 * `NixlTransport`: the ECTP `Transport` (from @ectp/core) over NVIDIA NIXL.
 * @module
 */
import type {
  MemoryRegion,
  ReadOperation,
  ReadResult,
  ReceivedMessage,
  Transport,
  TransportActivity,
} from "@ectp/core";
import { markAsUntransferable } from "node:worker_threads";
import { EctpError, describeValue, refuseUnknownOptions } from "@ectp/protocol";
import {
  type NativeAgent,
  type NativeCounters,
  type NativeSettled,
  decodeNativeDrain,
  loadNixlAddon,
  statusNamesOf,
} from "./addon.js";
import { nixlErrorToEctp } from "./errors.js";
import { MAX_NAME, encodeLocation, locationProblem } from "./location.js";

/**
 * What a {@link NixlTransport} is built with: its peer id (required, also its NIXL agent name), the UCX
 * backend parameters, its polling, spinning and cancel timings, and where to load the addon from.
 * An option left out or set to `undefined` takes its default; each timing given must be a number
 * from 0 to 1e9 (the constructor throws `INVALID_CONFIG` otherwise, as for any other key).
 */
export interface NixlTransportOptions {
  /** This endpoint's peer id; also its NIXL agent name (so notifications name their sender). Required: 1 to 1,024 UTF-8 bytes, well-formed (no lone UTF-16 surrogate). */
  localId: string;
  /** NIXL UCX backend parameters overriding NIXL's defaults. Default: none (NIXL defaults, incl. `ucx_error_handling_mode=peer`). */
  backendParams?: Record<string, string> | undefined;
  /**
   * How long the engine keeps spinning (polling with sched_yield) after its last activity (a
   * command, a message, a settled read) while nothing is in flight, in µs: a stream of reads
   * hands it the next command within this window without a wake-up. Default 1000. After it the
   * engine stops spinning (a spinning engine took a core and the agent lock from the JS thread's
   * inline small reads on 2 cores) and polls every `busyPollUs`.
   */
  busySpinUs?: number | undefined;
  /**
   * Engine poll interval, in µs, from `busySpinUs` until `busyWindowMs` after the last activity
   * (commands wake the engine at once; incoming messages are noticed within this interval);
   * 0 keeps spinning for the whole window. Default 50.
   */
  busyPollUs?: number | undefined;
  /** How long the engine keeps busy-polling after the last activity, in ms. Default 100. */
  busyWindowMs?: number | undefined;
  /**
   * Poll interval, in µs, while this endpoint is only being read (a reader's progress pings, no
   * messages) — over TCP a target must progress to serve a GET; a spin there would take a core
   * from the reader's copy on small machines. Default 50 (what the raw probe's target does).
   * Also the engine's poll interval while the only reads left have failed and wait out
   * `cancelGraceMs`.
   */
  servePollUs?: number | undefined;
  /** Longest idle poll interval the engine backs off to, in µs. Default 5000. */
  idlePollMaxUs?: number | undefined;
  /**
   * How long a READ that NIXL reports failed is held (its destination registered) before it
   * settles, and how long a cancelled or deregistered READ still in flight keeps being
   * progressed continuously, in ms. Default 1000. NIXL cannot abort a READ (a GET released in
   * flight may still land), so a cancelled one settles only when NIXL reports it ended [I5];
   * after this grace the engine progresses it every `servePollUs` (backing off), not spinning a
   * core. One whose peer's metadata is invalidated meanwhile never settles before `close()`
   * (see `NativeCounters.orphanedTransfers`).
   */
  cancelGraceMs?: number | undefined;
  /**
   * How long `waitForActivity` first spins on the engine's activity counter, in µs, when a
   * read that could finish within the spin is in flight, before it sleeps until the engine's
   * signal wakes the event loop. Waking a sleeping event loop costs 20–25 µs per completion
   * on a small VM (1 MiB reads: 1.31–1.37x the raw C++ probe's latency with sleeping waits,
   * 1.14–1.15x spinning). A spin blocks the event loop for at most this long; it runs
   * only while some read in flight is at most 10 KB per µs of spin (2 MB at the default: no
   * copy here ran faster than 10 GB/s), never for larger reads alone, which it would not
   * catch and whose copy it would compete with for the cores. Default 200; 0 never spins.
   */
  waitSpinUs?: number | undefined;
  /** Explicit addon path. Default: `$ECTP_NIXL_ADDON`, then the workspace build (see `addonCandidates`). */
  addonPath?: string | undefined;
}

interface PeerState {
  /** Tags this connection's sends, so a failure of an older connection's send is told apart. */
  generation: number;
  epoch: number;
  metadataKey: string;
  promise: Promise<void>;
  connected: boolean;
}

interface RegionState {
  readonly region: MemoryRegion;
  readonly address: bigint;
  /** `address` modulo 64 (see `misalignedReads`). */
  readonly addressMod64: number;
  readonly section: Uint8Array;
}

interface ReadState {
  /** The caller's read id (the addon's own 32-bit id keys `reads`). */
  readonly readId: number;
  readonly peerId: string;
  /** The peer's connection the read was posted on: a later one (a reconnect) is not this read's to tear down. */
  readonly peer: PeerState | undefined;
  readonly length: number;
  readonly regionId: number;
  /** Its destination was deregistered before the result was reported: it settles failed. */
  deregistered: boolean;
  /** Cancelled by the caller: it may settle late (after the grace), so no wait spins for it. */
  cancelled: boolean;
  /** Orphaned by the addon (its peer's metadata dropped while in flight): reported only at close(), so no wait spins for it. */
  orphaned?: boolean;
}

/** Transport counters for leak checks (native counters plus this layer's maps). */
export interface NixlTransportCounters extends NativeCounters {
  /** Reads started and not yet reported by `poll`. */
  readonly unsettledReads: number;
  /**
   * Reads posted so far whose source and destination lie at different offsets modulo 64:
   * over shared memory (CMA) such a read copies 2 to 5 times slower (see "Item alignment"
   * in the package README). Nonzero means a producer or a destination pool places items
   * at offsets that do not match.
   */
  readonly misalignedReads: number;
  /** Regions registered through this transport and not deregistered. */
  readonly regions: number;
  /** Peers with loaded metadata (or loading). */
  readonly peers: number;
  /** `waitForActivity` calls that spun on the engine's counter (see `waitSpinUs`), whether or not the spin saw activity. */
  readonly spinningWaits: number;
  /**
   * Sends that failed after their peer had been connected anew (a newer epoch's metadata
   * loaded): ignored, since they say nothing about the new connection.
   */
  readonly staleSendFailures: number;
}

/** `postRead`'s answer for a read in flight (NIXL_IN_PROG). */
const IN_PROGRESS = 1;
/** `postRead`'s answer for a source location it refuses (nothing posted); any other value is a final status. */
const BAD_LOCATION = 101;
/** The longest delay `setTimeout` honours (2^31 - 1 ms); a longer timeout waits this long. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** What `poll` returns when nothing happened: shared and frozen, so an idle poll allocates nothing. */
const IDLE: TransportActivity = Object.freeze({
  messages: Object.freeze([]),
  reads: Object.freeze([]),
  unreachable: Object.freeze([]),
});

/** NIXL's serialized agent metadata starts with this tag, then a u64 (little endian) name length, the name and "|". */
const AGENT_TAG = [...new TextEncoder().encode("nixlSerDes|Agent")];
const NAME_DECODER = new TextDecoder("utf-8", { fatal: true });

/** The agent name NIXL agent metadata `md` starts with, or undefined when it does not start like NIXL's. */
function metadataAgent(md: Uint8Array): string | undefined {
  const at = AGENT_TAG.length;
  if (md.length < at + 9) return undefined;
  for (let i = 0; i < at; i++) if (md[i] !== AGENT_TAG[i]) return undefined;
  const v = new DataView(md.buffer, md.byteOffset, md.byteLength);
  const n = v.getUint32(at, true);
  if (v.getUint32(at + 4, true) !== 0 || n === 0 || n > 1024 || md.length < at + 8 + n + 1 || md[at + 8 + n] !== 0x7c) return undefined;
  try {
    return NAME_DECODER.decode(md.subarray(at + 8, at + 8 + n));
  } catch {
    return undefined;
  }
}

function keyOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/** The keys of {@link NixlTransportOptions}: any other key is refused (a misspelt option would otherwise run with its default). */
const OPTION_KEYS: readonly string[] = Object.keys({
  localId: true,
  backendParams: true,
  busySpinUs: true,
  busyPollUs: true,
  busyWindowMs: true,
  servePollUs: true,
  idlePollMaxUs: true,
  cancelGraceMs: true,
  waitSpinUs: true,
  addonPath: true,
} satisfies Record<keyof NixlTransportOptions, true>);

/** The timing options, each a number of µs or ms. */
const TIMING_KEYS = ["busySpinUs", "busyPollUs", "busyWindowMs", "servePollUs", "idlePollMaxUs", "cancelGraceMs", "waitSpinUs"] as const;

/** The largest timing the addon accepts (it refuses a larger one as out of range). */
const MAX_TIMING = 1e9;

function badOption(message: string, option: string): EctpError {
  return new EctpError("INVALID_CONFIG", `NixlTransport: ${message}`, { details: { option } });
}

/**
 * Throws `EctpError(INVALID_CONFIG)` for options the constructor cannot use, naming the option, as
 * the SDK's other constructors do. It needs no addon: run before it is loaded, it reports a bad
 * option where NIXL is not installed too.
 */
function checkOptions(options: unknown): asserts options is NixlTransportOptions {
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw badOption(`needs an options object { localId, ... } (localId is also the NIXL agent name); got ${describeValue(options)}`, "options");
  refuseUnknownOptions("NixlTransport", options, OPTION_KEYS);
  const o = options as Record<string, unknown>;
  const { localId, backendParams, addonPath } = o;
  if (typeof localId !== "string" || localId.length === 0)
    throw badOption(`options.localId must be a non-empty string (it is also the NIXL agent name); got ${describeValue(localId)}`, "localId");
  // Every location names the agent, and readers refuse a name longer than MAX_NAME bytes: with a
  // longer one, each item described would be unreadable (the u16 length field would also wrap).
  // A lone surrogate has no UTF-8 form: the name every location and metadata carry would read
  // back as another name (U+FFFD), and no peer could connect to this agent.
  const lone = /\p{Cs}/u.exec(localId);
  if (lone !== null)
    throw badOption(`options.localId has a lone UTF-16 surrogate at index ${lone.index}, which UTF-8 (the NIXL agent name) cannot carry; use a well-formed name`, "localId");
  const nameBytes = Buffer.byteLength(localId, "utf8");
  if (nameBytes > MAX_NAME)
    throw badOption(`options.localId is ${nameBytes} UTF-8 bytes; at most ${MAX_NAME} are allowed (it is the NIXL agent name every location carries)`, "localId");
  for (const key of TIMING_KEYS) {
    const value = o[key];
    if (value !== undefined && !(typeof value === "number" && value >= 0 && value <= MAX_TIMING))
      throw badOption(`options.${key} must be a number from 0 to ${MAX_TIMING}; got ${describeValue(value)}`, key);
  }
  if (backendParams !== undefined) {
    if (backendParams === null || typeof backendParams !== "object" || Array.isArray(backendParams))
      throw badOption(`options.backendParams must be an object of UCX backend parameters (names to string values); got ${describeValue(backendParams)}`, "backendParams");
    for (const [name, value] of Object.entries(backendParams))
      if (typeof value !== "string")
        throw badOption(`options.backendParams[${describeValue(name)}] must be a string; got ${describeValue(value)}`, "backendParams");
  }
  if (addonPath !== undefined && (typeof addonPath !== "string" || addonPath.length === 0))
    throw badOption(`options.addonPath must be a non-empty path to ectp_nixl.node; got ${describeValue(addonPath)}`, "addonPath");
}

/**
 * The agents of transports not closed yet, held weakly (a transport dropped without `close()`
 * is still collected). `process.exit()` skips the addon's environment teardown, which would stop
 * their engine threads: an `exit` listener stops them instead, so no engine thread calls NIXL
 * while the process's static state is destroyed (a stand-in NIXL under AddressSanitizer showed
 * a use-after-free there). Each stop runs the engine's shutdown (see `NativeAgent.stopEngine`):
 * 200 ms more for an agent that sent in the last second, so its last message still leaves.
 */
const openAgents = new Set<WeakRef<NativeAgent>>();
let exitListener = false;

/** Register `agent` to be stopped if the process exits before its transport is closed; returns its entry. */
function stopAtExit(agent: NativeAgent): WeakRef<NativeAgent> {
  for (const r of openAgents) if (r.deref() === undefined) openAgents.delete(r); // (collected without close())
  const ref = new WeakRef(agent);
  openAgents.add(ref);
  if (!exitListener) {
    exitListener = true;
    process.on("exit", () => {
      for (const r of openAgents) {
        try {
          r.deref()?.stopEngine?.();
        } catch {
          // (exiting: nothing to report to)
        }
      }
      openAgents.clear();
    });
  }
  return ref;
}

/**
 * The ECTP `Transport` (from @ectp/core) over NIXL: control messages are NIXL notifications carrying the
 * encoded envelope bytes, items move by one-sided NIXL READ of registered memory, so
 * NIXL/UCX is the only runtime dependency between machines.
 *
 * - `localMetadata()` is the agent's connection metadata (a few hundred bytes) for
 *   `Hello.transport_metadata`; each registration's own NIXL metadata travels inside the
 *   item's `location` (see `describe`), so items registered after the handshake are readable.
 * - `connectPeer` loads a peer's metadata once per epoch; a newer epoch invalidates and reloads.
 * - `startRead` posts ONE READ for the whole item; its result arrives through `poll`.
 * - A dead peer is recoverable: its reads settle `failed` with `peerGone`, it is reported
 *   unreachable, and a later `connectPeer` with the restarted peer's metadata works.
 *
 * Construction throws `EctpError(INVALID_CONFIG)` for options it cannot use (checked first, without
 * NIXL), `EctpError(TRANSPORT_UNAVAILABLE)` when the addon is not built, and the mapped NIXL error
 * when NIXL cannot create the agent (see the constructor).
 */
export class NixlTransport implements Transport {
  /** This endpoint's peer id (and NIXL agent name). */
  readonly localId: string;
  private readonly agent: NativeAgent;
  private readonly metadata: Uint8Array;
  private readonly peers = new Map<string, PeerState>();
  private readonly regions = new Map<number, RegionState>();
  /** Reads in flight, by the addon's 32-bit transfer id. */
  private readonly reads = new Map<number, ReadState>();
  /** The addon's transfer id of each read in flight, by the caller's read id. */
  private readonly nativeIds = new Map<number, number>();
  private lastNativeId = 0;
  /**
   * Results not yet reported by `poll`, in settlement order: reads settled inside `startRead`
   * (refused, or completed inline), after the engine's reads settled before them, which are
   * drained first for that (see `queueLocal`).
   */
  private pendingReads: ReadResult[] = [];
  /** Messages drained from the engine before `poll` (with reads that settled before a local result). */
  private pendingMessages: ReceivedMessage[] = [];
  private readonly unreachable = new Set<string>();
  /** NIXL status value to its name (from the addon's `statusCodes`). */
  private readonly statusNames: ReadonlyMap<number, string>;
  /** Pending `waitForActivity` calls; each removes itself when it resolves. */
  private readonly waiters = new Set<() => void>();
  /** The addon's activity counter (moves whenever `drain()` may return something). */
  private readonly activitySeq: Uint32Array;
  /** The CRC-32C of the last read settled inside `postReadWithCrc` (JS thread only). */
  private readonly inlineCrc: Uint32Array;
  /**
   * How many reads the engine has settled (queued for `drain()`), counted by the addon (word 2 of
   * its activity buffer); undefined with an addon built before it counted them.
   */
  private readonly engineSettled: Uint32Array | undefined;
  /** `engineSettled` as of the last `drain()`. */
  private drainedSettled = 0;
  /** `activitySeq` as of the last `drain()`. */
  private drainedSeq = 0;
  /**
   * Reads settled inside `startRead` while a `drain()` that had to come first (the engine had
   * settled reads before them) threw: listed after the engine's batch by the next `drain()` that
   * returns, so `poll` keeps settlement order.
   */
  private readsAfterEngineBatch: ReadResult[] = [];
  /**
   * Activity (something for `poll`, or a spurious engine wake-up) not yet reported by a
   * `waitForActivity` that returned at once, nor by a `poll`.
   */
  private activity = false;
  /**
   * The last activity counter value reported to the caller, by a `poll` (which drained up to
   * it) or by a spinning wait: the engine's signal for it wakes nobody (see `onEngineSignal`).
   */
  private reportedSeq = -1;
  private readonly waitSpinMs: number;
  /** Reads larger than this cannot finish within a spin (see `waitSpinUs`). */
  private readonly spinReadMaxBytes: number;
  private misalignedReads = 0;
  /** See `NixlTransportCounters.spinningWaits`. */
  private spinningWaits = 0;
  /** See `NixlTransportCounters.staleSendFailures`. */
  private staleSendFailures = 0;
  /** The next `PeerState.generation` (the tag of that connection's sends). */
  private nextGeneration = 1;
  private closed = false;
  private closing: Promise<void> | undefined;
  /** This transport's entry among the agents stopped at process exit (see `stopAtExit`). */
  private readonly agentRef: WeakRef<NativeAgent>;

  /**
   * Creates the NIXL agent (named `localId`) with its UCX backend and starts its engine thread.
   * The options are checked before the addon is loaded, so a bad one is reported even where
   * NIXL is not installed.
   * @param options - see {@link NixlTransportOptions}.
   * @throws EctpError(INVALID_CONFIG) when `options` is not an object, has a key that is not one of
   *   {@link NixlTransportOptions} (a misspelt option: the message names it and the nearest option),
   *   when `localId` is not a well-formed string of 1 to 1,024 UTF-8 bytes, a timing (`busySpinUs`,
   *   `busyPollUs`, `busyWindowMs`, `servePollUs`, `idlePollMaxUs`, `cancelGraceMs`, `waitSpinUs`)
   *   is not a number from 0 to 1e9, `backendParams` is not an object of strings, or `addonPath`
   *   is not a non-empty string. Nothing was created: fix the option the message names.
   * @throws EctpError(TRANSPORT_UNAVAILABLE) when the addon cannot be loaded (the message names the
   *   platform, every path tried and the fix).
   * @throws EctpError when NIXL fails to create the agent or its backend: the code that
   *   `NIXL_ERROR_MAP` gives NIXL's error (e.g. `NIXL_ERR_BACKEND`, UCX unable to start,
   *   gives PEER_UNREACHABLE), with `details.nixlCode`.
   */
  constructor(options: NixlTransportOptions) {
    checkOptions(options);
    const addon = loadNixlAddon(options.addonPath);
    this.localId = options.localId;
    const waitSpinUs = options.waitSpinUs ?? 200;
    this.waitSpinMs = waitSpinUs / 1000;
    this.spinReadMaxBytes = waitSpinUs * 10_000;
    this.statusNames = statusNamesOf(addon);
    try {
      this.agent = new addon.Agent(
        options.localId,
        {
          params: options.backendParams,
          busySpinUs: options.busySpinUs,
          busyPollUs: options.busyPollUs,
          busyWindowMs: options.busyWindowMs,
          servePollUs: options.servePollUs,
          idlePollMaxUs: options.idlePollMaxUs,
          cancelGraceMs: options.cancelGraceMs,
        },
        // Through a WeakRef: the engine's callback must not keep a transport that was dropped
        // without close() alive (its agent is then destroyed when it is collected).
        NixlTransport.signalTarget(new WeakRef(this)),
      );
    } catch (e) {
      throw nixlErrorToEctp(e, "creating the NIXL agent (check UCX_TLS / UCX_NET_DEVICES and the NIXL plugin directory)");
    }
    this.agentRef = stopAtExit(this.agent);
    this.metadata = new Uint8Array(this.agent.localMetadata());
    const words = this.agent.activityWord();
    this.activitySeq = new Uint32Array(words, 0, 1);
    this.inlineCrc = new Uint32Array(words, 4, 1);
    this.engineSettled = words.byteLength >= 12 ? new Uint32Array(words, 8, 1) : undefined;
    this.drainedSeq = Atomics.load(this.activitySeq, 0);
    this.reportedSeq = this.drainedSeq;
  }

  /** The agent's NIXL connection metadata (for `Hello.transport_metadata`). */
  localMetadata(): Uint8Array {
    return this.metadata.slice();
  }

  /**
   * Load `metadata` for `peerId` once per epoch; a newer epoch replaces (invalidates, reloads) the
   * older one. An epoch that is not a non-negative safe integer rejects INVALID_ARGUMENT.
   */
  connectPeer(peerId: string, epoch: number, metadata: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new EctpError("TRANSPORT_UNAVAILABLE", "connectPeer after close()"));
    if (typeof peerId !== "string" || peerId.length === 0 || !(metadata instanceof Uint8Array))
      return Promise.reject(new EctpError("INVALID_ARGUMENT", "connectPeer takes a non-empty peer id and its metadata as a Uint8Array"));
    // [P8] Epochs are compared to tell a newer one from the one loaded: one that is no whole number
    // (NaN, a string) is neither, and once stored it would let an older epoch replace the connection.
    if (!Number.isSafeInteger(epoch) || epoch < 0)
      return Promise.reject(
        new EctpError("INVALID_ARGUMENT", `connectPeer of peer ${peerId}: epoch must be a non-negative safe integer; got ${String(epoch)}`, {
          details: { peerId },
        }),
      );
    const key = keyOf(metadata);
    const prev = this.peers.get(peerId);
    if (prev && prev.epoch === epoch && prev.metadataKey === key) return prev.promise;
    if (prev && prev.epoch > epoch) return Promise.resolve(); // stale: the newer epoch stays
    // Once per epoch: other metadata for the loaded epoch is not this incarnation's (an agent's
    // metadata never changes), so it is refused before the live connection is invalidated.
    if (prev && prev.epoch === epoch)
      return Promise.reject(
        new EctpError("INVALID_ARGUMENT", `peer ${peerId} already has other metadata for epoch ${epoch} (metadata is loaded once per epoch)`, {
          details: { peerId, epoch },
        }),
      );
    // [I1] A live connection is torn down (invalidated below) only for metadata of this very agent:
    // another agent's metadata, or bytes that are no NIXL agent metadata at all, leave it alone.
    if (prev) {
      const named = metadataAgent(metadata);
      if (named !== peerId)
        return Promise.reject(
          new EctpError(
            "INVALID_ARGUMENT",
            named === undefined
              ? `metadata given for peer ${peerId} is not NIXL agent metadata`
              : `metadata given for peer ${peerId} belongs to NIXL agent ${named}`,
            { details: { peerId, agent: named } },
          ),
        );
    }
    // [I1] Nor do bytes that name the peer but that the addon would refuse to load (a damaged
    // body): checked as loadRemote checks them, before the live connection is invalidated.
    if (this.agent.metadataWellFormed?.(metadata) === false)
      return Promise.reject(
        new EctpError(
          "INVALID_ARGUMENT",
          `loading NIXL metadata of peer ${peerId} (epoch ${epoch}) refused: the metadata is not an ECTP NIXL agent's (UCX connection metadata)`,
          { details: { peerId, epoch } },
        ),
      );
    // Always invalidate first: NIXL may still hold an older incarnation's metadata (it
    // refuses different connection info for a loaded agent with NOT_ALLOWED); NOT_FOUND,
    // i.e. already dropped, is not an error.
    this.agent.invalidateRemote(peerId);
    this.unreachable.delete(peerId);
    const state: PeerState = { generation: this.nextGeneration++ >>> 0, epoch, metadataKey: key, connected: false, promise: Promise.resolve() };
    state.promise = (async () => {
      let name: string;
      try {
        name = await this.agent.loadRemote(metadata);
      } catch (e) {
        if (this.peers.get(peerId) === state) this.peers.delete(peerId);
        throw nixlErrorToEctp(e, `loading NIXL metadata of peer ${peerId} (epoch ${epoch})`);
      }
      if (name !== peerId) {
        if (this.peers.get(peerId) === state) this.peers.delete(peerId);
        try {
          if (!this.peers.has(name) && name !== this.localId) this.agent.invalidateRemote(name);
        } catch {
          // closed meanwhile: close() drops every loaded peer
        }
        throw new EctpError("INVALID_ARGUMENT", `metadata given for peer ${peerId} belongs to NIXL agent ${name}`, {
          details: { peerId, agent: name },
        });
      }
      state.connected = true;
    })();
    this.peers.set(peerId, state);
    // Keep an unobserved rejection from becoming an unhandled one; callers still see it.
    state.promise.catch(() => undefined);
    return state.promise;
  }

  /** Forget a peer's metadata. Idempotent; never throws. */
  disconnectPeer(peerId: string): void {
    if (!this.peers.delete(peerId) || this.closed) return;
    try {
      this.agent.invalidateRemote(peerId);
    } catch {
      // closing: nothing to forget
    }
  }

  /** Send one encoded envelope as a NIXL notification. Unknown peers are reported unreachable. */
  send(peerId: string, message: Uint8Array): void {
    if (this.closed) return;
    // A local programming error, not the peer's failure: thrown, never reported as the peer unreachable.
    if (!(message instanceof Uint8Array)) throw new EctpError("INVALID_ARGUMENT", `send to ${String(peerId)} needs the message as a Uint8Array`);
    const peer = this.peers.get(peerId);
    if (peer === undefined) {
      this.markUnreachable(peerId);
      return;
    }
    try {
      this.agent.send(peerId, message, peer.generation);
    } catch {
      this.markUnreachable(peerId);
    }
  }

  /**
   * Register host memory with NIXL; the addon holds a reference until deregistration completes.
   * The buffer is marked untransferable (`postMessage` or `structuredClone` with it in the transfer
   * list cannot detach it while NIXL reads into or from it); a fixed-length SharedArrayBuffer is
   * taken as it is (it cannot be detached). A resizable ArrayBuffer, which could shrink under NIXL,
   * and a growable SharedArrayBuffer are refused with INVALID_ARGUMENT. Never call `ArrayBuffer.prototype.transfer`
   * on a registered buffer (it detaches the memory whatever the mark says). Synchronous: it waits
   * for the NIXL call the engine thread is in, which may be a whole READ (package README, "calls
   * the JS thread makes under the agent lock").
   */
  registerMemory(bytes: Uint8Array): MemoryRegion {
    this.assertOpen("registerMemory");
    if (!(bytes instanceof Uint8Array)) throw new EctpError("INVALID_ARGUMENT", "registerMemory takes a Uint8Array");
    const buffer = bytes.buffer;
    // A growable SharedArrayBuffer cannot shrink, but a view that tracks its length would outgrow the registration.
    if ((buffer as { resizable?: boolean }).resizable === true || (buffer as { growable?: boolean }).growable === true)
      throw new EctpError(
        "INVALID_ARGUMENT",
        "registerMemory needs memory that cannot shrink or grow: pass a Uint8Array over a fixed-length ArrayBuffer or SharedArrayBuffer, not a resizable or growable one",
      );
    if (!(buffer instanceof SharedArrayBuffer)) markAsUntransferable(buffer); // [I5] NIXL's memory stays where it was registered
    let reg: ReturnType<NativeAgent["registerMemory"]>;
    try {
      reg = this.agent.registerMemory(bytes);
    } catch (e) {
      throw nixlErrorToEctp(e, "registering memory with NIXL");
    }
    const region: MemoryRegion = { id: reg.id, bytes };
    this.regions.set(reg.id, { region, address: reg.address, addressMod64: Number(reg.address & 63n), section: new Uint8Array(reg.section) });
    return region;
  }

  /** Deregister; reads into the region settle `failed` and never touch it afterwards [I5]. */
  deregisterMemory(region: MemoryRegion): void {
    // By identity: region ids restart at 1 in every transport, so another transport's region must not match.
    if (region === undefined || region === null || this.regions.get(region.id)?.region !== region) return;
    this.regions.delete(region.id);
    if (this.closed) return;
    for (const r of this.reads.values()) if (r.regionId === region.id) r.deregistered = true;
    try {
      this.agent.deregisterMemory(region.id);
    } catch {
      // closing: close() releases it
    }
  }

  /** Location bytes for `[offset, offset+length)` of a region: address, length, agent name, registration metadata. */
  describe(region: MemoryRegion, offset: number, length: number): Uint8Array {
    const r = this.regions.get(region?.id);
    if (!r || r.region !== region) throw new EctpError("INVALID_ARGUMENT", `region ${region?.id} is not registered with this transport`);
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length <= 0 || offset + length > region.bytes.length)
      throw new EctpError("INVALID_ARGUMENT", `range [${offset}, ${offset}+${length}) is outside region ${region.id} (${region.bytes.length} bytes)`);
    return encodeLocation({ address: r.address + BigInt(offset), length, agent: this.localId, section: r.section });
  }

  /** Post one READ of the whole item. Malformed sources and unknown peers settle `failed` via `poll` [I1]. */
  startRead(read: ReadOperation): void {
    const { readId, peerId, destination } = read;
    // Any safe integer (the core's ids never wrap); the addon gets its own 32-bit id for the transfer.
    if (!Number.isSafeInteger(readId) || readId < 0)
      throw new EctpError("INVALID_ARGUMENT", `read id must be a non-negative safe integer; got ${String(readId)}`);
    if (this.nativeIds.has(readId) || (this.pendingReads.length > 0 && this.pendingReads.some((x) => x.readId === readId)))
      throw new EctpError("INVALID_ARGUMENT", `read ${readId} is already in flight`);
    if (!destination?.region)
      throw new EctpError("INVALID_ARGUMENT", `read ${readId} has no destination region`);
    const r = this.regions.get(destination.region.id);
    if (!this.closed && (!r || r.region !== destination.region))
      throw new EctpError("INVALID_ARGUMENT", `read ${readId}: destination region ${destination.region.id} is not registered`);
    const { offset, length } = destination;
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length <= 0 || offset + length > destination.region.bytes.length)
      throw new EctpError("INVALID_ARGUMENT", `read ${readId}: destination range is outside its region`);
    if (this.closed) {
      this.failLocally(readId, "transport closed");
      return;
    }
    const peer = this.peers.get(peerId);
    if (!peer?.connected) {
      this.failLocally(readId, `peer ${peerId} is not connected (no NIXL metadata loaded)`, this.unreachable.has(peerId));
      return;
    }
    // The addon checks the source location (it reads it anyway); it is parsed here only to say
    // what is wrong with one it refused.
    const source = read.source;
    const nativeId = this.nextNativeId();
    let status: number;
    try {
      status = read.crc32c === true
        ? this.agent.postReadWithCrc(nativeId, peerId, destination.region.id, offset, length, source)
        : this.agent.postRead(nativeId, peerId, destination.region.id, offset, length, source);
    } catch (e) {
      this.failLocally(readId, nixlErrorToEctp(e, "posting a NIXL READ").message);
      return;
    }
    if (status === BAD_LOCATION) {
      this.failLocally(readId, locationProblem(source, peerId, length));
      return;
    }
    // The address's low byte is the location's fifth byte (little endian).
    if (r && ((source[4] as number) & 63) !== (r.addressMod64 + offset) % 64) this.misalignedReads++;
    if (status === IN_PROGRESS) {
      this.reads.set(nativeId, { readId, peerId, peer, length, regionId: destination.region.id, deregistered: false, cancelled: false });
      this.nativeIds.set(readId, nativeId);
      return;
    }
    // Settled inside the call (small-read path): report it from the next poll, exactly as
    // if the engine had settled it.
    const result = this.result(readId, peerId, length, status);
    this.queueLocal(status === 0 && read.crc32c === true ? { ...result, crc32c: this.inlineCrc[0] as number } : result);
  }

  /** Ask to cancel; the read still reports exactly one result, once it has really settled [C8][I5]. */
  cancelRead(readId: number): void {
    const nativeId = this.nativeIds.get(readId);
    if (nativeId === undefined || this.closed) return;
    (this.reads.get(nativeId) as ReadState).cancelled = true;
    try {
      this.agent.cancelRead(nativeId);
    } catch {
      // closing: close() settles it
    }
  }

  /**
   * Collect messages, settled reads and unreachable peers since the previous call. Never blocks.
   * Treat the result as read-only: a poll with nothing to report returns one shared frozen
   * result (no allocation per idle poll), and an empty list in any result may be a shared
   * frozen array.
   */
  poll(): TransportActivity {
    // Whether the engine queued something is read from its activity counter (not only learnt
    // from the activity callback): it is visible at once, even to a caller that never yields
    // to the event loop, and an idle poll makes no N-API call.
    const seq = Atomics.load(this.activitySeq, 0);
    const engineMoved = seq !== this.drainedSeq;
    if (!engineMoved && this.pendingReads.length === 0 && this.pendingMessages.length === 0 && this.unreachable.size === 0) {
      this.activity = false;
      return IDLE;
    }
    if (engineMoved) this.drainEngine(seq);
    this.reportedSeq = seq; // (after the drain: one that threw reported nothing, and the engine's signal must still wake the next wait)
    // Results settled inside startRead come after the engine's that settled before them (queueLocal drained those first).
    const reads = this.pendingReads;
    this.pendingReads = [];
    const messages = this.pendingMessages.length === 0 ? IDLE.messages : this.pendingMessages;
    if (messages !== IDLE.messages) this.pendingMessages = [];
    let unreachable = IDLE.unreachable;
    if (this.unreachable.size > 0) {
      unreachable = [...this.unreachable];
      this.unreachable.clear();
    }
    // Last: settling above may have marked peers unreachable (and so activity) that this
    // result already reports.
    this.activity = false;
    return { messages, reads, unreachable };
  }

  /**
   * Resolve when `poll` may have something new, or after `timeoutMs`. Activity wakes every
   * pending wait and is remembered for the next one, which returns at once and consumes it:
   * a wait repeated without a `poll` in between sleeps until new activity. So a loop that
   * waits on several transports but polls only some of them sleeps instead of spinning. A wait
   * whose `signal` aborts resolves then and is forgotten (its timer cleared).
   */
  waitForActivity(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    // Already abandoned (see Transport.waitForActivity): nothing kept for it, no timer armed, and
    // the activity stays remembered for a wait that is awaited.
    if (signal?.aborted === true) return Promise.resolve();
    if (this.activity) {
      this.activity = false;
      return Promise.resolve();
    }
    const ms = timeoutMs > 0 ? Math.min(timeoutMs, MAX_TIMER_MS) : 0;
    // Spin first only while a read that could finish within the spin is in flight.
    if (ms > 0 && this.waitSpinMs > 0 && this.spinnableReadInFlight() && this.spin(Math.min(ms, this.waitSpinMs)))
      return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** Release every transfer (settled `cancelled`), registration, peer and the agent. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closed = true;
    // Stays in openAgents until the agent is closed: a process.exit() meanwhile still stops its engine thread.
    this.closing = this.agent.close().then(() => {
      openAgents.delete(this.agentRef);
      this.peers.clear();
      this.regions.clear();
      this.wake();
    });
    return this.closing;
  }

  /** Leak-check counters: native handles and this layer's maps. */
  counters(): NixlTransportCounters {
    return {
      ...this.agent.counters(),
      unsettledReads: this.reads.size,
      misalignedReads: this.misalignedReads,
      regions: this.regions.size,
      peers: this.peers.size,
      spinningWaits: this.spinningWaits,
      staleSendFailures: this.staleSendFailures,
    };
  }

  private failLocally(readId: number, error: string, peerGone = false): void {
    this.queueLocal(peerGone ? { readId, status: "failed", error, peerGone } : { readId, status: "failed", error });
  }

  /**
   * Queue a result decided inside `startRead` for the next `poll`. `poll` lists reads in settlement
   * order, so reads the engine settled before this one (counted by the addon, not yet drained) are
   * drained first and listed before it.
   */
  private queueLocal(result: ReadResult): void {
    const settled = this.engineSettled === undefined ? undefined : Atomics.load(this.engineSettled, 0);
    const seq = Atomics.load(this.activitySeq, 0);
    let behindEngineBatch = this.readsAfterEngineBatch.length > 0;
    if (!behindEngineBatch && (settled === undefined ? seq !== this.drainedSeq : settled !== this.drainedSettled)) {
      try {
        this.drainEngine(seq);
      } catch {
        // The addon keeps the batch a drain() that threw took, and the next poll drains again (and
        // throws what this one did, if it still fails): this read, already settled, waits behind
        // that batch instead of failing startRead, which may throw only when nothing started [I5].
        behindEngineBatch = true;
      }
    }
    (behindEngineBatch ? this.readsAfterEngineBatch : this.pendingReads).push(result);
    this.wake();
  }

  /**
   * Take what the engine queued (`drain()`), as of activity counter `seq`: its messages and settled
   * reads join the pending lists, failed sends and orphaned transfers are handled now.
   */
  private drainEngine(seq: number): void {
    const settled = this.engineSettled === undefined ? undefined : Atomics.load(this.engineSettled, 0);
    // [I5] Marked drained only once drain() returned: one that throws keeps its batch, and the next
    // poll drains again (were the counters moved first, those reads would never be reported).
    const raw = this.agent.drain();
    this.drainedSeq = seq;
    if (settled !== undefined) this.drainedSettled = settled;
    const drained = decodeNativeDrain(raw, this.statusNames);
    for (const n of drained.notifs)
      this.pendingMessages.push({ from: n.from, bytes: new Uint8Array(n.bytes.buffer, n.bytes.byteOffset, n.bytes.byteLength) });
    for (const id of drained.orphaned) {
      const st = this.reads.get(id);
      if (st) st.orphaned = true;
    }
    for (const s of drained.reads) {
      const r = this.settle(s);
      if (r) this.pendingReads.push(r);
    }
    if (this.readsAfterEngineBatch.length > 0) {
      this.pendingReads.push(...this.readsAfterEngineBatch);
      this.readsAfterEngineBatch = [];
    }
    for (const f of drained.sendFailures) {
      // A send made under an older connection, failing after the peer was connected anew (a new
      // epoch's metadata loaded), says nothing about the new connection: it is lost, as any
      // message may be, and the new connection stands.
      const current = this.peers.get(f.peer);
      if (current !== undefined && current.generation !== f.tag) {
        this.staleSendFailures++;
        continue;
      }
      // NIXL holds no metadata for the peer any more (it dropped it on a REMOTE_DISCONNECT, or never
      // had it): forgotten here too, so that a connectPeer of the same epoch loads it again.
      this.markUnreachable(f.peer, f.code === "NIXL_ERR_REMOTE_DISCONNECT" || f.code === "NIXL_ERR_NOT_FOUND");
    }
  }

  /** The result of a read that ended with NIXL `status` (not cancelled, not deregistered). */
  private result(readId: number, peerId: string, length: number, status: number, peer?: PeerState): ReadResult {
    if (status === 0) return { readId, status: "done", bytesRead: length };
    const code = this.statusNames.get(status) ?? "NIXL_ERR_UNKNOWN";
    const peerGone = code === "NIXL_ERR_REMOTE_DISCONNECT";
    if (peerGone) this.disconnected(peerId, peer);
    const error = `NIXL READ failed: ${code}`;
    return peerGone ? { readId, status: "failed", error, peerGone } : { readId, status: "failed", error };
  }

  private settle(s: NativeSettled): ReadResult | undefined {
    const st = this.reads.get(s.id); // s.id: the addon's id
    if (!st) return undefined;
    this.reads.delete(s.id);
    this.nativeIds.delete(st.readId);
    const readId = st.readId;
    // [I5] every result below is reported only once NIXL has let go of the transfer.
    if (s.deregistered || st.deregistered) {
      // [P8] NIXL dropped a peer that disconnected whatever became of the destination: so does this
      // transport, and the consumer hears the peer is gone (as for any read, see `result`).
      const peerGone = s.status !== 0 && this.statusNames.get(s.status) === "NIXL_ERR_REMOTE_DISCONNECT";
      if (peerGone) this.disconnected(st.peerId, st.peer);
      const failed: ReadResult = { readId, status: "failed", error: "destination deregistered during the read" };
      return peerGone ? { ...failed, peerGone } : failed;
    }
    if (s.closed) return { readId, status: "cancelled" }; // the agent is destroyed: nothing can land any more
    if (s.status === 0)
      return s.crc32c === undefined ? { readId, status: "done", bytesRead: st.length } : { readId, status: "done", bytesRead: st.length, crc32c: s.crc32c };
    return this.result(readId, st.peerId, st.length, s.status, st.peer);
  }

  /**
   * [P8] A read of `peer`'s connection ended REMOTE_DISCONNECT: NIXL dropped the peer, so the peer is
   * gone here too. A read of an older connection (its failure held through cancelGraceMs while the
   * peer came back under a new epoch) leaves the new connection alone.
   */
  private disconnected(peerId: string, peer: PeerState | undefined): void {
    if (peer === undefined || this.peers.get(peerId) === peer) this.markUnreachable(peerId, true);
  }

  private markUnreachable(peerId: string, gone = false): void {
    this.unreachable.add(peerId);
    // NIXL dropped (or will drop) the peer's metadata; a later connectPeer reloads it.
    if (gone && this.peers.delete(peerId) && !this.closed) {
      try {
        this.agent.invalidateRemote(peerId);
      } catch {
        // closing
      }
    }
    this.wake();
  }

  /**
   * Whether some read in flight is small enough to finish within a spin. Reads that may end only
   * much later do not count: cancelled ones, ones into a deregistered region, and ones of a
   * connection since replaced or dropped (orphaned until close): each wait would spin for nothing.
   */
  private spinnableReadInFlight(): boolean {
    for (const r of this.reads.values())
      if (r.length <= this.spinReadMaxBytes && !r.cancelled && !r.deregistered && r.orphaned !== true && r.peer === this.peers.get(r.peerId)) return true;
    return false;
  }

  /** A 32-bit id for the addon's next transfer, not in use by one still in flight. */
  private nextNativeId(): number {
    let id = this.lastNativeId;
    do id = (id + 1) >>> 0;
    while (this.reads.has(id));
    this.lastNativeId = id;
    return id;
  }

  /**
   * Spin up to `ms` on the engine's activity counter: true as soon as it moves (new activity,
   * remembered in `reportedSeq` so that the engine's signal for it does not count twice), false
   * when the time is up. Activity that was already there before the spin does not end it.
   * Waits still pending (ones a caller stopped awaiting, such as a driver woken by another
   * source) are resolved too: the engine's signal, which would have woken them, is swallowed.
   */
  private spin(ms: number): boolean {
    this.spinningWaits++;
    const seq = Atomics.load(this.activitySeq, 0);
    const until = performance.now() + ms;
    do {
      const now = Atomics.load(this.activitySeq, 0);
      if (now !== seq) {
        this.reportedSeq = now;
        for (const w of this.waiters) w(); // each deletes itself
        return true;
      }
    } while (performance.now() < until);
    return false;
  }

  /** The engine's activity callback for `ref`'s transport, holding it only weakly. */
  private static signalTarget(ref: WeakRef<NixlTransport>): () => void {
    return () => ref.deref()?.onEngineSignal();
  }

  /**
   * The engine's signal (coalesced): activity, unless all of it was already reported, by a
   * spinning wait or by a `poll` that drained it (the signal can arrive after either; the
   * counter only grows, so the last value reported covers everything before it).
   */
  private onEngineSignal(): void {
    if (Atomics.load(this.activitySeq, 0) === this.reportedSeq) return;
    this.wake();
  }

  private wake(): void {
    this.activity = true;
    if (this.waiters.size > 0) for (const w of this.waiters) w(); // each deletes itself (a Set allows that while iterating)
  }

  private assertOpen(what: string): void {
    if (this.closed) throw new EctpError("TRANSPORT_UNAVAILABLE", `${what} after close(): create a new NixlTransport`);
  }
}

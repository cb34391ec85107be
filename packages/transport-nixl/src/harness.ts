/**
 * `nixlTransportHarness()`: drives NIXL through the conformance suite's transport level
 * (`runTransportConformance` in `@ectp/conformance`), so the mock and NIXL are held to the
 * same cases. This package does not depend on `@ectp/conformance`; the harness matches its
 * `TransportHarness` shape structurally.
 * @module
 */
import type { Transport } from "@ectp/core";
import { loadNixlAddon } from "./addon.js";
import { NixlTransport, type NixlTransportOptions } from "./transport.js";

/** How {@link nixlTransportHarness} builds its agent pairs: the transport options both agents get, their name prefix, and how long each `advance()` waits. */
export interface NixlTransportHarnessOptions {
  /**
   * Options given to both agents of every case (everything but `localId`). Default `{}`
   * (the transport's own defaults; the addon resolved as `NixlTransport` resolves it).
   */
  readonly transport?: Omit<NixlTransportOptions, "localId"> | undefined;
  /** Prefix of the agent names (`<prefix>-<pid>-<n>-reader`/`-owner`). Default `"ectp-conf"`. */
  readonly agentPrefix?: string | undefined;
  /** How long one `advance()` sleeps on `waitForActivity`, in ms. Default 20. */
  readonly waitMs?: number | undefined;
}

/**
 * The shape `runTransportConformance` accepts (`TransportHarness` of `@ectp/conformance`),
 * repeated here so this package needs no dependency on the suite.
 */
export interface NixlTransportHarness {
  /** `"nixl"`: case names are `transport/nixl/<case>`. */
  readonly name: string;
  /** Set when the addon cannot be loaded: the error's text, naming every path tried and the fix. */
  readonly skipReason?: string;
  /** Two fresh agents in this process, connected both ways: `reader` reads `owner`'s memory. */
  createPeers(): Promise<{
    /** The endpoint that reads. */
    reader: Transport;
    /** The endpoint whose memory is read. */
    owner: Transport;
  }>;
  /** Sleep on the current agents' `waitForActivity(waitMs)`; always resolves true (real time). */
  advance(): Promise<boolean>;
  /**
   * Kill the owner: its agent is destroyed (engine thread joined, registrations and UCX
   * endpoints gone) without any ECTP message, so the reader learns of it only from NIXL/UCX.
   * In-process, this is the closest to a crash; the two-process tests SIGKILL a real child.
   */
  killPeer(transport: Transport): Promise<void>;
  /** Close every agent still open. */
  dispose(): Promise<void>;
}

let harnessCounter = 0;

/**
 * A transport-level conformance harness over two NIXL agents in this process (UCX picks the
 * path: set `UCX_TLS` / `UCX_NET_DEVICES` before calling, e.g. `tcp,self,sm` and `lo` on one
 * machine). Usage: `runTransportConformance(nixlTransportHarness())`. When the addon is not
 * built, `skipReason` says why and how to build it, and the suite reports every case skipped.
 * @param options - see {@link NixlTransportHarnessOptions}. Default `{}`.
 */
export function nixlTransportHarness(options: NixlTransportHarnessOptions = {}): NixlTransportHarness {
  const prefix = options.agentPrefix ?? "ectp-conf";
  const waitMs = options.waitMs ?? 20;
  let skipReason: string | undefined;
  try {
    loadNixlAddon(options.transport?.addonPath);
  } catch (e) {
    skipReason = (e as Error).message;
  }
  let current: NixlTransport[] = [];
  const all = new Set<NixlTransport>();
  const make = (role: string): NixlTransport => {
    harnessCounter += 1;
    const t = new NixlTransport({ ...options.transport, localId: `${prefix}-${process.pid}-${harnessCounter}-${role}` });
    all.add(t);
    return t;
  };
  return {
    name: "nixl",
    ...(skipReason !== undefined ? { skipReason } : {}),
    async createPeers() {
      // The previous case's agents are closed by the suite; forget them.
      for (const t of current) all.delete(t);
      const reader = make("reader");
      const owner = make("owner");
      current = [reader, owner];
      await reader.connectPeer(owner.localId, 1, owner.localMetadata());
      await owner.connectPeer(reader.localId, 1, reader.localMetadata());
      return { reader, owner };
    },
    async advance() {
      await Promise.race(current.map((t) => t.waitForActivity(waitMs)));
      return true;
    },
    async killPeer(t: Transport) {
      await t.close();
    },
    async dispose() {
      await Promise.all([...all].map((t) => t.close().catch(() => undefined)));
      all.clear();
      current = [];
    },
  };
}

/** NixlTransport over the stand-in addon (fake-addon.cjs), for tests that run without NIXL. */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { NixlTransport } from "../transport.js";

const addonPath = join(dirname(fileURLToPath(import.meta.url)), "fake-addon.cjs");

/**
 * A transport over the stand-in whose agent behaves as `methods` say (connecting to any peer loads
 * "b" unless they say otherwise); `engineQueued()` bumps its activity counter, as the engine does
 * when it queues something for drain(), and `engineSignal()` calls the transport back as the
 * engine's signal for it does (later, on the event loop).
 */
export function standInTransport(methods: Record<string, unknown>): { t: NixlTransport; engineQueued: () => void; engineSignal: () => void } {
  const t = new NixlTransport({ localId: "a", addonPath, waitSpinUs: 0 });
  const agent = (t as unknown as { agent: Record<string, unknown> & { words: ArrayBuffer; onActivity: () => void } }).agent;
  Object.assign(agent, { invalidateRemote() {}, metadataWellFormed: () => true, loadRemote: () => Promise.resolve("b"), ...methods });
  const words = new Uint32Array(agent.words, 0, 1);
  return { t, engineQueued: () => void Atomics.add(words, 0, 1), engineSignal: () => agent.onActivity() };
}

/** Shared helpers of this package's NIXL tests (not exported from the package). */
import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MemoryRegion, ReadResult } from "@ectp/core";
import { expect } from "vitest";
import { nixlAvailability } from "../addon.js";
import { NixlTransport, type NixlTransportOptions } from "../transport.js";

// UCX reads these when an agent is created; defaults for a single machine over loopback.
process.env.UCX_TLS ??= "tcp,self,sm";
process.env.UCX_NET_DEVICES ??= "lo";

const availability = nixlAvailability();

/** True when the addon is missing: NIXL tests are skipped (with {@link NIXL_SKIP_REASON}). */
export const NIXL_MISSING = !availability.available;

/** Why NIXL tests are skipped, for test titles. */
export const NIXL_SKIP_REASON = availability.available
  ? ""
  : " [skipped: the NIXL addon is not built; set NIXL_PREFIX=<nixl prefix> and run node native/nixl/scripts/build.mjs]";

let counter = 0;

/** A unique agent name per test process and call. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

/** A transport with a unique agent name. */
export function makeTransport(prefix: string, options: Partial<NixlTransportOptions> = {}): NixlTransport {
  return new NixlTransport({ localId: uniqueName(prefix), ...options });
}

/** Two transports connected both ways; `options` go to the first (the reader in most tests). */
export async function connectedPair(options: Partial<NixlTransportOptions> = {}): Promise<{ a: NixlTransport; b: NixlTransport }> {
  const a = makeTransport("a", options);
  const b = makeTransport("b");
  await a.connectPeer(b.localId, 1, b.localMetadata());
  await b.connectPeer(a.localId, 1, a.localMetadata());
  return { a, b };
}

/** Wait (sleeping on waitForActivity) until `done()` holds, or throw after `ms`. */
export async function until(ts: NixlTransport[], done: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await Promise.race(ts.map((t) => t.waitForActivity(20)));
  }
}

/** A recognisable pattern of `n` bytes that differs per salt. */
export function pattern(n: number, salt = 0): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 131 + salt * 7 + (i >>> 9)) & 0xff;
  return b;
}

const here = dirname(fileURLToPath(import.meta.url));

/** True when dist/ is not built: tests whose child processes import it are skipped. */
export const DIST_MISSING = !existsSync(join(here, "../../dist/index.js"));

/**
 * Fork test/region-child.mjs owning `size` bytes (agent `name`, if given; UCX transports `ucxTls`,
 * if given); resolves with it and its announcement.
 */
export async function startRegionChild(size: number, name?: string, ucxTls?: string) {
  const args = name === undefined ? [String(size)] : [String(size), name];
  const env = ucxTls === undefined ? process.env : { ...process.env, UCX_TLS: ucxTls };
  const child = fork(join(here, "region-child.mjs"), args, { stdio: ["ignore", "ignore", "inherit", "ipc"], env });
  const hello = await new Promise<{ id: string; metadata: string; location: string }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { id: string; metadata: string; location: string }));
    child.once("exit", (code, signal) => reject(new Error(`region child exited before announcing (code ${code}, signal ${signal})`)));
  });
  return { child, hello };
}

/**
 * A region child of `size` bytes serving over TCP alone (UCX then serves a GET in the target's
 * progress, so a stopped target holds it), connected to `a`, after one read of `firstLength`
 * bytes into `region` (it loads the peer's section). Returns the child, its id, the source and its
 * metadata.
 */
export async function connectedTcpChild(a: NixlTransport, region: MemoryRegion, size: number, firstLength: number) {
  const { child, hello } = await startRegionChild(size, undefined, "tcp");
  await a.connectPeer(hello.id, 1, Buffer.from(hello.metadata, "base64"));
  const source = new Uint8Array(Buffer.from(hello.location, "base64"));
  a.startRead({ readId: 1, peerId: hello.id, source, destination: { region, offset: 0, length: firstLength } });
  const first: ReadResult[] = [];
  await until([a], () => first.push(...a.poll().reads) > 0, "the first read");
  expect(first).toEqual([{ readId: 1, status: "done", bytesRead: firstLength }]);
  return { child, peerId: hello.id, source, metadata: Buffer.from(hello.metadata, "base64") };
}

/** The next wait on `t` sleeps its 300 ms: a 100 ms timer set at the same time fires first. */
export async function expectNextWaitSleeps(t: NixlTransport): Promise<void> {
  const next = t.waitForActivity(300).then(() => "woken");
  const timer = new Promise((resolve) => setTimeout(resolve, 100, "slept"));
  expect(await Promise.race([next, timer])).toBe("slept");
  await next;
}

/**
 * True when the wait's promise is already resolved: a spin saw the engine's counter move (a
 * sleeping wait can only be resolved by a later macrotask: the engine's signal or its timer).
 */
export async function resolvedAtOnce(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await Promise.resolve();
  return done;
}

/** Transports a test opened: each test file closes them in its `afterEach`. */
export const open: NixlTransport[] = [];
/** {@link connectedPair}, both kept in {@link open}. */
export async function pair(options: Partial<NixlTransportOptions> = {}) {
  const p = await connectedPair(options);
  open.push(p.a, p.b);
  return p;
}

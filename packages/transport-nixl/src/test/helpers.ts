/** Shared helpers of this package's NIXL tests (not exported from the package). */
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

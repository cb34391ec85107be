/** Shared helpers of this package's tests (not exported from the package). */
import type { MemoryRegion, ReadResult } from "@ectp/core";
import { EctpError } from "@ectp/protocol";
import { expect } from "vitest";
import { MockNetwork, type MockNetworkOptions } from "./network.js";
import type { MockTransport } from "./transport.js";

/** Bytes 0..n-1 of a recognisable pattern that differs per `salt`. */
export function pattern(n: number, salt = 0): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + salt * 7 + (i >>> 8)) & 0xff;
  return b;
}

/** A network with a producer "p" and a consumer "c" that has connected to "p" (and back). */
export async function pair(options: Partial<MockNetworkOptions> = {}): Promise<{
  net: MockNetwork;
  p: MockTransport;
  c: MockTransport;
}> {
  const net = new MockNetwork({ seed: 1, ...options });
  const p = net.endpoint("p");
  const c = net.endpoint("c");
  await c.connectPeer("p", 1, p.localMetadata());
  await p.connectPeer("c", 1, c.localMetadata());
  return { net, p, c };
}

/** Start a read of `[srcOffset, srcOffset+length)` of `src` into `[dstOffset, ...)` of `dst`. */
export function read(
  c: MockTransport,
  p: MockTransport,
  readId: number,
  src: MemoryRegion,
  srcOffset: number,
  dst: MemoryRegion,
  dstOffset: number,
  length: number,
): void {
  c.startRead({
    readId,
    peerId: p.localId,
    source: p.describe(src, srcOffset, length),
    destination: { region: dst, offset: dstOffset, length },
  });
}

/** Advance the network to `at` and return the read results `t` has by then. */
export function readsAt(net: MockNetwork, t: MockTransport, at: number): readonly ReadResult[] {
  net.advanceTo(at);
  return t.poll().reads;
}

/** Advance event by event until nothing is scheduled; returns every read result of `t` seen on the way. */
export function drainReads(net: MockNetwork, t: MockTransport): ReadResult[] {
  const out: ReadResult[] = [...t.poll().reads];
  for (let next = net.nextEventTime(); next !== undefined; next = net.nextEventTime()) {
    net.advanceTo(Math.max(next, net.now()));
    out.push(...t.poll().reads);
  }
  return out;
}

/**
 * The EctpError `f` throws, with `code` when given (the test fails if it throws anything else, a
 * TypeError included, or nothing).
 */
export function ectpErrorOf(f: () => unknown, code?: string): EctpError {
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  expect(caught, `threw ${String(caught)}`).toBeInstanceOf(EctpError);
  if (code !== undefined) expect((caught as EctpError).code).toBe(code);
  return caught as EctpError;
}

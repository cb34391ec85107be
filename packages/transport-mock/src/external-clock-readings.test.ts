/**
 * An external `clock` whose `now()` returns something other than a finite number (NaN, Infinity, a
 * string) is refused where the network reads it, with `INVALID_CONFIG`: network time used to
 * become NaN with no error (and a pending wait never ended while its timer re-armed every 1 ms).
 */
import { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { MockNetwork } from "./network.js";
import { ectpErrorOf } from "./test-helpers.js";

const configError = (f: () => unknown): EctpError => ectpErrorOf(f, "INVALID_CONFIG");

describe("an external clock's readings", () => {
  it.each([
    ["NaN", Number.NaN, "NaN"],
    ["Infinity", Number.POSITIVE_INFINITY, "Infinity"],
    ["a string", "5", '"5"'],
    ["undefined", undefined, "nothing"],
    ["Object.create(null)", Object.create(null), "an object"],
    ["a bigint", 5n, "5n"],
  ])("now() returning %s is refused by net.now(), poll, send and startRead", async (_name, reading, shown) => {
    let value: unknown = 0;
    const net = new MockNetwork({ seed: 1, clock: { now: () => value as number } });
    const p = net.endpoint("p");
    const c = net.endpoint("c");
    await c.connectPeer("p", 1, p.localMetadata());
    const source = p.describe(p.registerMemory(new Uint8Array(4)), 0, 4);
    const region = c.registerMemory(new Uint8Array(4));
    value = reading;
    const e = configError(() => net.now());
    expect(e.message).toBe(
      `[INVALID_CONFIG] the \`clock\` of this MockNetwork returned ${shown} from now(); it must return a finite time in ms that never goes backwards (for example performance.now())`,
    );
    configError(() => c.poll());
    configError(() => c.send("p", new Uint8Array(1)));
    configError(() => c.startRead({ readId: 1, peerId: "p", source, destination: { region, offset: 0, length: 4 } }));
    // Nothing was started or sent: once the clock is good again, all is as before.
    value = 1;
    expect(net.now()).toBe(1);
    expect(net.unsettledWrites()).toEqual([]);
    expect(net.nextEventTime()).toBeUndefined();
  });

  it("waitForActivity rejects with the error instead of throwing", async () => {
    const net = new MockNetwork({ seed: 1, clock: { now: () => Number.NaN } });
    const c = net.endpoint("c");
    const wait = c.waitForActivity(10);
    // Before the fix the wait never settled (its wake time was NaN): bounded so that fails fast.
    const outcome = await Promise.race([
      wait.then(
        () => "resolved",
        (e: unknown) => e,
      ),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 1000)),
    ]);
    expect(outcome).toBeInstanceOf(EctpError);
    expect((outcome as EctpError).code).toBe("INVALID_CONFIG");
  });

  it("a clock that turns NaN while a wait is pending ends the wait, and the next poll reports it", async () => {
    let value = 0;
    const net = new MockNetwork({ seed: 1, clock: { now: () => value } });
    const c = net.endpoint("c");
    const wait = c.waitForActivity(30);
    value = Number.NaN;
    // Before the fix the wait never ended (its timer re-armed every 1 ms, comparing against NaN).
    const outcome = await Promise.race([
      wait.then(() => "ended"),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 1000)),
    ]);
    expect(outcome).toBe("ended");
    configError(() => c.poll());
    value = 100;
    expect(c.poll().reads).toEqual([]);
  });

  it("a clock whose now() throws passes its own error through", () => {
    const boom = new Error("clock broke");
    const net = new MockNetwork({ seed: 1, clock: { now: () => { throw boom; } } });
    expect(() => net.now()).toThrow(boom);
  });

  it("a finite clock still drives the network", async () => {
    let value = 10;
    const net = new MockNetwork({ seed: 1, clock: { now: () => value }, latencyMs: 1 });
    const p = net.endpoint("p");
    const c = net.endpoint("c");
    await c.connectPeer("p", 1, p.localMetadata());
    c.send("p", new Uint8Array([7]));
    expect(p.poll().messages).toEqual([]);
    value = 12; // past the 1 ms latency plus the byte's transfer time
    expect(p.poll().messages.map((m) => [...m.bytes])).toEqual([[7]]);
  });
});

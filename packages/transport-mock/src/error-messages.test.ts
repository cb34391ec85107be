/**
 * The mock's argument errors name what was given and what is allowed (the errors audit): each
 * message below said only what was wrong before.
 */
import { describe, expect, it } from "vitest";
import { MockNetwork } from "./network.js";
import { ectpErrorOf, pair, pattern } from "./test-helpers.js";

describe("argument errors name the value given and what is allowed", () => {
  it("advanceTo backwards says the earliest time allowed", () => {
    const net = new MockNetwork({ seed: 1 });
    net.advanceTo(10);
    expect(ectpErrorOf(() => net.advanceTo(5), "INVALID_ARGUMENT").message).toBe(
      "[INVALID_ARGUMENT] advanceTo(5) would move virtual time backwards from 10; pass a time >= 10",
    );
  });

  it("crash of an unknown endpoint says how to create it; hasUnsettledWriteInto shows the region it was given", () => {
    const net = new MockNetwork({ seed: 1 });
    expect(ectpErrorOf(() => net.crash("ghost"), "INVALID_ARGUMENT").message).toBe(
      '[INVALID_ARGUMENT] no endpoint "ghost" exists on this MockNetwork; create it with endpoint("ghost") first',
    );
    net.endpoint("a");
    expect(ectpErrorOf(() => net.hasUnsettledWriteInto("a", null as never), "INVALID_ARGUMENT").message).toBe(
      "[INVALID_ARGUMENT] hasUnsettledWriteInto needs a MemoryRegion or a region id; got null",
    );
  });

  it("registerMemory, describe and startRead show what they were given and the bound a range must keep", async () => {
    const { p, c } = await pair();
    expect(ectpErrorOf(() => p.registerMemory([1, 2] as never), "INVALID_ARGUMENT").message).toBe(
      "[INVALID_ARGUMENT] registerMemory needs a Uint8Array, got an array",
    );
    const src = p.registerMemory(pattern(8));
    expect(ectpErrorOf(() => p.describe(src, 4, 8), "INVALID_ARGUMENT").message).toBe(
      `[INVALID_ARGUMENT] describe: range [4, 12) is outside region ${src.id} of 8 bytes; offset + length must be <= 8`,
    );
    expect(ectpErrorOf(() => c.startRead("op" as never), "INVALID_ARGUMENT").message).toBe(
      '[INVALID_ARGUMENT] startRead needs a ReadOperation { readId, peerId, source, destination }, got "op"',
    );
    const dst = c.registerMemory(new Uint8Array(4));
    const source = p.describe(src, 0, 8);
    expect(ectpErrorOf(() => c.startRead({ readId: 1, peerId: "p", source } as never), "INVALID_ARGUMENT").message).toBe(
      "[INVALID_ARGUMENT] startRead needs a destination { region, offset, length }, got nothing",
    );
    const destination = { region: dst, offset: 0, length: 8 };
    expect(ectpErrorOf(() => c.startRead({ readId: 1, peerId: "p", source, destination }), "INVALID_ARGUMENT").message).toBe(
      `[INVALID_ARGUMENT] startRead destination [0, 8) is outside region ${dst.id} of 4 bytes; offset + length must be <= 4`,
    );
  });
});

/**
 * The native agent's own argument checks, below NixlTransport (which never passes such values):
 * a fractional offset or length, and a read id still in flight, are refused at the call rather
 * than posting a 0-byte READ or replacing the first read's transfer (whose request NIXL would
 * then never release); so is an agent name longer than a location or metadata can carry. Skipped, with the reason in the title, when the addon is not built.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type NativeAgent, loadNixlAddon } from "./addon.js";
import { encodeLocation } from "./location.js";
import { NIXL_MISSING, NIXL_SKIP_REASON } from "./test/helpers.js";

const agents: NativeAgent[] = [];

async function pairOfAgents() {
  const addon = loadNixlAddon();
  const tag = `args-${process.pid}-${agents.length}`;
  const reader = new addon.Agent(`${tag}-reader`, {}, () => {});
  const owner = new addon.Agent(`${tag}-owner`, {}, () => {});
  agents.push(reader, owner);
  const ownerName = await reader.loadRemote(owner.localMetadata());
  await owner.loadRemote(reader.localMetadata());
  return { reader, owner, ownerName };
}

const invalidArg = (message: RegExp) => expect.objectContaining({ code: "ERR_INVALID_ARG", message: expect.stringMatching(message) });

describe.skipIf(NIXL_MISSING)(`native agent arguments${NIXL_SKIP_REASON}`, () => {
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.close()));
  }, 30_000);

  it("an agent name over 1024 bytes is refused at creation (locations and metadata carry at most 1024)", () => {
    const addon = loadNixlAddon();
    expect(() => new addon.Agent("n".repeat(1025), {}, () => {})).toThrow(invalidArg(/agent name must be at most 1024 bytes/));
  });

  it("postRead refuses a fractional offset or length, and a read id still in flight", async () => {
    const { reader, owner, ownerName } = await pairOfAgents();
    const size = 32 << 20;
    const src = owner.registerMemory(new Uint8Array(size).fill(9));
    const location = encodeLocation({ address: src.address, length: size, agent: ownerName, section: src.section });
    const dst = reader.registerMemory(new Uint8Array(2 * size));
    expect(() => reader.postRead(1, ownerName, dst.id, 0, 0.5, location)).toThrow(invalidArg(/whole numbers/));
    expect(() => reader.postRead(1, ownerName, dst.id, 0.5, 16, location)).toThrow(invalidArg(/whole numbers/));
    expect(reader.postRead(7, ownerName, dst.id, 0, size, location)).toBe(1); // a 32 MiB READ: in flight
    expect(() => reader.postRead(7, ownerName, dst.id, size, size, location)).toThrow(invalidArg(/read id 7 is still in flight/));
    const reported: number[] = [];
    for (let i = 0; i < 2000 && reported.length === 0; i++) {
      const d = reader.drain();
      if (d) for (let k = 0; k < d[1].length; k += 4) reported.push(d[1][k] as number, d[1][k + 1] as number);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(reported).toEqual([7, 0]); // one report, done
    // Reported: the id may be used again.
    expect([0, 1]).toContain(reader.postRead(7, ownerName, dst.id, size, 64, location));
  }, 60_000);
});

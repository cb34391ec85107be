/**
 * Always runs (no NIXL needed): the bounds the location decoder enforces on each field, its
 * agent-name cache, the checks of a location's NIXL metadata section, and the drain decoder's
 * fallback status name.
 */
import { describe, expect, it } from "vitest";
import { decodeNativeDrain } from "./addon.js";
import { decodeLocation, encodeLocation, locationProblem } from "./location.js";

const base = { address: 0x1000n, length: 16, agent: "producer-1", section: new Uint8Array(0) };

/** NIXL's serialized agent metadata header: tag, u64 (LE) name length, name. */
function sectionNaming(name: string, highWord = 0): Uint8Array {
  const tag = new TextEncoder().encode("nixlSerDes|Agent");
  const nameBytes = new TextEncoder().encode(name);
  const out = new Uint8Array(tag.length + 8 + nameBytes.length + 4);
  out.set(tag, 0);
  const v = new DataView(out.buffer);
  v.setUint32(tag.length, nameBytes.length, true);
  v.setUint32(tag.length + 4, highWord, true);
  out.set(nameBytes, tag.length + 8);
  return out;
}

describe("decodeLocation field bounds", () => {
  it("refuses a zero length", () => {
    expect(decodeLocation(encodeLocation({ ...base, length: 0 }))).toBe("location length out of range");
  });

  it("accepts 2^53 - 1 bytes and refuses 2^53", () => {
    expect(decodeLocation(encodeLocation({ ...base, length: 2 ** 53 - 1 }))).toMatchObject({ length: 2 ** 53 - 1 });
    expect(decodeLocation(encodeLocation({ ...base, length: 2 ** 53 }))).toBe("location length out of range");
  });

  it("refuses an empty agent name", () => {
    expect(decodeLocation(encodeLocation({ ...base, agent: "" }))).toBe("location agent name malformed");
  });

  it("accepts an agent name of 1024 bytes and refuses 1025", () => {
    expect(decodeLocation(encodeLocation({ ...base, agent: "n".repeat(1024) }))).toMatchObject({ agent: "n".repeat(1024) });
    expect(decodeLocation(encodeLocation({ ...base, agent: "n".repeat(1025) }))).toBe("location agent name malformed");
  });

  it("accepts a section of 1 MiB and refuses one byte more", () => {
    expect(decodeLocation(encodeLocation({ ...base, section: new Uint8Array(1 << 20) }))).toMatchObject({ length: 16 });
    expect(decodeLocation(encodeLocation({ ...base, section: new Uint8Array((1 << 20) + 1) }))).toBe("location section length malformed");
  });

  it("refuses trailing bytes after the section", () => {
    const loc = encodeLocation({ ...base, section: new Uint8Array([1, 2, 3]) });
    const longer = new Uint8Array(loc.length + 1);
    longer.set(loc);
    expect(decodeLocation(longer)).toBe("location section length malformed");
    expect(decodeLocation(loc.subarray(0, loc.length - 1))).toBe("location section length malformed");
  });

  it("checks every byte of the magic", () => {
    for (let i = 0; i < 4; i++) {
      const loc = encodeLocation(base);
      loc[i] = (loc[i] as number) ^ 1;
      expect(decodeLocation(loc)).toBe("location is not a NIXL location (bad magic)");
    }
  });

  it("decodes the address's high word", () => {
    const address = 0x8000_0001_0000_0002n;
    expect(decodeLocation(encodeLocation({ ...base, address }))).toMatchObject({ address });
  });

  it("[I1] accepts a range ending at 2^64 - 1 and refuses one that reaches 2^64 (NIXL's range check wraps there)", () => {
    const top = 2n ** 64n;
    expect(decodeLocation(encodeLocation({ ...base, address: top - 17n }))).toMatchObject({ address: top - 17n });
    expect(decodeLocation(encodeLocation({ ...base, address: top - 16n }))).toBe("location address range wraps past 2^64");
    // The low words' sum carries into the high word.
    expect(decodeLocation(encodeLocation({ ...base, address: top - 0x1_0000_0000n, length: 2 ** 32 }))).toBe("location address range wraps past 2^64");
    expect(decodeLocation(encodeLocation({ ...base, address: top - 0x1_0000_0001n, length: 2 ** 32 }))).toMatchObject({ length: 2 ** 32 });
    expect(locationProblem(encodeLocation({ ...base, address: top - 8n }), "producer-1", 16)).toBe(
      "malformed source location: location address range wraps past 2^64",
    );
  });
});

describe("decodeLocation agent names", () => {
  it("decodes the current bytes of a location rewritten in place, not the previous name", () => {
    const loc = encodeLocation({ ...base, agent: "aaaa" });
    expect(decodeLocation(loc)).toMatchObject({ agent: "aaaa" });
    loc.set(new TextEncoder().encode("bbbb"), 22);
    expect(decodeLocation(loc)).toMatchObject({ agent: "bbbb" });
    loc.set(new TextEncoder().encode("aaaa"), 22);
    expect(decodeLocation(loc)).toMatchObject({ agent: "aaaa" });
  });

  it("decodes a name with byte 0x80 (a lone continuation byte) as UTF-8 does", () => {
    const loc = encodeLocation({ ...base, agent: "x" });
    loc[22] = 0x80;
    expect(decodeLocation(loc)).toMatchObject({ agent: "\uFFFD" });
  });
});

describe("locationProblem and the location's NIXL metadata section", () => {
  const utf8Reason = (peer: string) => `source location's agent name is not the UTF-8 of ${JSON.stringify(peer)}`;
  const notNamed = (agent: string) =>
    `source location's NIXL metadata section does not name its agent ${JSON.stringify(agent)} (it would replace another agent's metadata)`;

  it("an empty section names no agent (the reason left is the name's bytes); one naming the agent but nothing else is not a registration", () => {
    expect(locationProblem(encodeLocation(base), "producer-1", 16)).toBe(utf8Reason("producer-1"));
    expect(locationProblem(encodeLocation({ ...base, section: sectionNaming("producer-1") }), "producer-1", 16)).toBe(
      `source location's NIXL metadata section is not one registration of "producer-1" (one DRAM descriptor for UCX) covering the 16 bytes read`,
    );
  });

  it("a read of exactly the location's length is not too long", () => {
    expect(locationProblem(encodeLocation(base), "producer-1", 16)).not.toMatch(/source holds/);
    expect(locationProblem(encodeLocation(base), "producer-1", 17)).toBe("source holds 16 bytes, destination wants 17");
  });

  it("refuses a section naming another agent of the same name length", () => {
    expect(locationProblem(encodeLocation({ ...base, section: sectionNaming("producer-2") }), "producer-1", 16)).toBe(notNamed("producer-1"));
  });

  it("refuses a section whose name length has a nonzero high word", () => {
    expect(locationProblem(encodeLocation({ ...base, section: sectionNaming("producer-1", 1) }), "producer-1", 16)).toBe(notNamed("producer-1"));
  });

  it("refuses a section too short for the header", () => {
    const full = sectionNaming("producer-1");
    const cut = full.subarray(0, 16 + 8 + 3);
    expect(locationProblem(encodeLocation({ ...base, section: cut }), "producer-1", 16)).toBe(notNamed("producer-1"));
  });
});

describe("decoding the addon's drain: statuses", () => {
  it("names a status that the addon's table lacks NIXL_ERR_UNKNOWN", () => {
    const d = decodeNativeDrain([[], [9, -77, 0, 0], ["q", -78, 0]], new Map([[0, "NIXL_SUCCESS"]]));
    expect(d.reads[0]).toMatchObject({ status: -77, code: "NIXL_ERR_UNKNOWN" });
    expect(d.sendFailures[0]).toMatchObject({ status: -78, code: "NIXL_ERR_UNKNOWN" });
  });
});

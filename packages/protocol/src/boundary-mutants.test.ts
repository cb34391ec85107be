// Boundaries that a boundary-mutation run (each <, <=, >, >= flipped at its edge) found no test
// pinning: each case sits exactly on the edge the documentation draws, and fails if the
// comparison there moves by one.
import { describe, expect, it } from "vitest";
import { decodeEnvelope } from "./envelope.js";
import { fastDecodeEnvelope } from "./fast-codec.js";
import { ectp } from "./gen/ectp.js";
import { announcementFromJson } from "./json.js";
import { refusal } from "./test-helpers.js";
import { locateMalformed } from "./wire-diagnosis.js";

/** An envelope header: version { major: 1 }, senderId "e", senderEpoch 1. */
const HEADER = [0x0a, 0x02, 0x08, 0x01, 0x12, 0x01, 0x65, 0x18, 0x01];

describe("announcementFromJson: enum numbers", () => {
  it("[V1] reads the enum number 0 (the safe default), as a number or in a string, -0 too", () => {
    for (const dtype of [0, -0, "0", "-0", "0.0", "0e5"]) {
      const r = announcementFromJson({ item: { dtype } });
      if (!r.ok) throw new Error(`${JSON.stringify(dtype)}: ${r.error.message}`);
      expect(Object.is(r.value.item?.dtype, 0), JSON.stringify(dtype)).toBe(true);
    }
  });
});

describe("decode errors locate framing breaks, and only those [C10]", () => {
  it("a fixed-size value that ends exactly at the end of its message is no break", () => {
    // Unknown field 99 as a fixed32 (wire type 5, 4 bytes) and as a fixed64 (wire type 1, 8 bytes).
    expect(locateMalformed(Uint8Array.from([...HEADER, 0x9d, 0x06, 1, 2, 3, 4]))).toBeUndefined();
    expect(locateMalformed(Uint8Array.from([...HEADER, 0x99, 0x06, 1, 2, 3, 4, 5, 6, 7, 8]))).toBeUndefined();
    // One byte short is one.
    expect(locateMalformed(Uint8Array.from([...HEADER, 0x9d, 0x06, 1, 2, 3]))).toEqual({
      field: "#99",
      offset: HEADER.length,
      problem: "a 4-byte value runs past the 3 bytes left in its message",
    });
    // Through decodeEnvelope: version { major: 1, #99 fixed32 filling it to its end }, then a sender id
    // that is not UTF-8. The decoder refuses the sender id, which names itself; nothing is located.
    const version = [0x08, 0x01, 0x9d, 0x06, 1, 2, 3, 4];
    const e = refusal(Uint8Array.from([0x0a, version.length, ...version, 0x12, 0x01, 0xff, 0x18, 0x01]));
    expect(e.message.toLowerCase()).toContain("utf-8");
    expect(e.message).not.toMatch(/, byte \d+: /);
    expect(e.details).toEqual({});
  });

  it("groups nested 100 deep (the decoder's limit) are not too deep; 101 are", () => {
    // Field 99 groups (start tag 0x9b 0x06), none closed.
    const groups = (n: number) => Uint8Array.from([...HEADER, ...new Array<number[]>(n).fill([0x9b, 0x06]).flat()]);
    expect(locateMalformed(groups(100))).toEqual({ field: "#99", offset: HEADER.length, problem: "its group has no end tag before the end of its message" });
    expect(refusal(groups(100)).message).toContain("(at #99, byte 9: its group has no end tag before the end of its message)");
    expect(locateMalformed(groups(101))).toEqual({ field: "#99", offset: HEADER.length, problem: "groups nested too deep" });
  });

  it("a varint of 10 bytes is read; one of 11 bytes is longer than protobuf allows", () => {
    const nines = new Array<number>(9).fill(0xff);
    // senderEpoch (field 3) as a varint of 10 bytes: framing intact (the value is another matter).
    expect(locateMalformed(Uint8Array.from([0x18, ...nines, 0x01]))).toBeUndefined();
    const eleven = Uint8Array.from([0x18, ...nines, 0xff, 0x01]);
    expect(locateMalformed(eleven)).toEqual({ field: "senderEpoch", offset: 0, problem: "a varint longer than 10 bytes" });
    expect(refusal(eleven).message).toContain("(at senderEpoch, byte 0: a varint longer than 10 bytes)");
  });
});

describe("decodeEnvelope reads a uint64 as the generated decoder does", () => {
  it("a 9-byte varint (past the fast path's 8) is rounded to a double once, as LongBits.toNumber rounds it", () => {
    // heartbeat { sequence: 2^56 + 2^55 + 11 }: seven-bit groups 11, 0 x 6, 64, 1. Rounded once, the
    // nearest double is 2^56 + 2^55 + 16; rounding the first eight groups and then the ninth gives 2^56 + 2^55.
    const heartbeat = [0x08, 0x8b, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0xc0, 0x01];
    const bytes = Uint8Array.from([...HEADER, 0x82, 0x01, heartbeat.length, ...heartbeat]);
    const r = decodeEnvelope(bytes);
    if (!r.ok) throw r.error;
    expect(r.value.heartbeat?.sequence).toBe(2 ** 56 + 2 ** 55 + 16);
    expect(r.value.heartbeat?.sequence).toBe(ectp.v1.Envelope.decode(bytes).heartbeat?.sequence);
    // (The hand-written decoder takes uint64 varints of at most 8 bytes and declines this one.)
    expect(fastDecodeEnvelope(bytes)).toBeUndefined();
  });
});

// Decode errors name the field malformed bytes go wrong in (wire-diagnosis.ts): protobufjs' own
// message says only what failed ("index out of range: 12 + 5 > 14").
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeEnvelope, encodeEnvelope, isRefusalAtATag } from "./envelope.js";
import { ectp } from "./gen/ectp.js";
import { MAX_REPEATED_ELEMENTS } from "./limits.js";
import { refusal } from "./test-helpers.js";
import { locateMalformed } from "./wire-diagnosis.js";

const HEADER = { version: { major: 1, minor: 0 }, senderId: "e", senderEpoch: 1 };
const KEY = { contentHash: new Uint8Array([0xc1, 0xc2, 0xc3]), fingerprint: { model: "m" } };
const ITEM = { key: KEY, sizeBytes: 6, producerId: "e", epoch: 1, shape: [2, 3] };

function envelope(body: ectp.v1.IEnvelope): Uint8Array {
  return encodeEnvelope({ ...HEADER, ...body });
}

/** `bytes` with the byte just before the first occurrence of `marker` replaced by `value`. */
function withByteBefore(bytes: Uint8Array, marker: number[], value: number): Uint8Array {
  const out = Uint8Array.from(bytes);
  for (let i = 1; i + marker.length <= out.length; i++)
    if (marker.every((b, k) => out[i + k] === b)) {
      out[i - 1] = value;
      return out;
    }
  throw new Error(`marker ${marker} not found`);
}

describe("decode errors name the field [C10]", () => {
  it("a length running past its message, three messages deep: readGrant.item.key.contentHash", () => {
    const bytes = withByteBefore(envelope({ readGrant: { grantId: 3, attemptId: 1, item: ITEM } }), [0xc1, 0xc2, 0xc3], 9);
    const e = refusal(bytes);
    expect(e.details.field).toBe("readGrant.item.key.contentHash");
    expect(e.message).toMatch(/\(at readGrant\.item\.key\.contentHash, byte \d+: a length of 9 runs past the 8 bytes left in its message\)/);
    expect(e.message).toContain("index out of range"); // protobufjs' own words are kept (the key: 3 hash bytes, then its fingerprint)
  });

  it("an element of a repeated field is named with its index: eventBatch.events[1].stored.item.producerId", () => {
    const stored = (producerId: string) => ({ stored: { item: { ...ITEM, producerId } } });
    const ok = envelope({ eventBatch: { sequence: 1, events: [stored("first"), stored("second")] } });
    const e = refusal(withByteBefore(ok, [...new TextEncoder().encode("second")], 40));
    expect(e.details.field).toBe("eventBatch.events[1].stored.item.producerId");
  });

  it("a packed repeated scalar is named without an index (its one record holds every element): readGrant.item.shape", () => {
    const ok = envelope({ readGrant: { grantId: 3, attemptId: 1, item: ITEM } });
    // shape [2, 3] packed: its length 2, then the varints 2 and 3; the 3 made to continue past the record.
    const i = ok.findIndex((b, k) => b === 0x02 && ok[k + 1] === 0x02 && ok[k + 2] === 0x03);
    const bytes = Uint8Array.from(ok);
    bytes[i + 2] = 0x83;
    expect(locateMalformed(bytes)).toMatchObject({ field: "readGrant.item.shape", problem: expect.stringMatching(/^a packed element at byte \d+: a varint runs past/) });
  });

  it("[C10] an element is named by its index in the decoded list: an occurrence of another wire type (an unknown field) is none", () => {
    // eventBatch { events as a varint (wire type 0: skipped by the decoder), then events[0] = { stored: a length of 5 past the end } }
    const body = [0x10, 0x05, 0x12, 0x02, 0x0a, 0x05];
    const bytes = Uint8Array.from([...envelope({}), 0x8a, 0x01, body.length, ...body]);
    expect(refusal(bytes).details.field).toBe("eventBatch.events[0].stored");
    // The varint occurrence itself, cut off, is the field's (no element of it).
    expect(locateMalformed(Uint8Array.from([...envelope({}), 0x8a, 0x01, 0x02, 0x10, 0x85]))).toMatchObject({ field: "eventBatch.events" });
  });

  it("[C10] an unpacked shape value after a packed record is named by its index in the decoded shape, after the packed values", () => {
    // readGrant { item { shape: packed [1, 2, 3], then one unpacked value cut off } }: decoded, it would be shape[3].
    const item = [0x22, 0x03, 0x01, 0x02, 0x03, 0x20, 0x80];
    const grant = [0x1a, item.length, ...item];
    const bytes = Uint8Array.from([...envelope({}), 0x6a, grant.length, ...grant]);
    expect(refusal(bytes).details.field).toBe("readGrant.item.shape[3]");
  });

  it("a wire type protobuf does not have, inside a message", () => {
    const ok = envelope({ heartbeat: { sequence: 5 } });
    // The heartbeat body: tag (field 16, wire type 2) is two bytes, 0x82 0x01, then its length.
    const i = ok.findIndex((b, k) => b === 0x82 && ok[k + 1] === 0x01);
    const bytes = Uint8Array.from(ok);
    bytes[i + 3] = 0x0f; // its first field's tag: field 1, wire type 7
    const e = refusal(bytes);
    expect(e.details.field).toBe("heartbeat.sequence");
    expect(e.message).toContain("wire type 7, which protobuf does not have");
  });

  it("a varint of more than 10 bytes, and field number 0", () => {
    const long = new Uint8Array([0x18, ...new Array(11).fill(0xff), 0x01]); // senderEpoch
    expect(locateMalformed(long)).toEqual({ field: "senderEpoch", offset: 0, problem: "a varint longer than 10 bytes" });
    expect(locateMalformed(new Uint8Array([0x00, 0x01]))).toEqual({ field: "", offset: 0, problem: "a field number 0, which no field has" });
    expect(refusal(new Uint8Array([0x00, 0x01])).message).toContain("(at the envelope, byte 0: a field number 0, which no field has)");
  });

  it("an unknown field is named by its number, and an unclosed group found", () => {
    // Field 99 (unknown), wire type 3 (a group), never closed.
    const bytes = new Uint8Array([0x9b, 0x06, 0x08, 0x01]);
    expect(locateMalformed(bytes)).toEqual({ field: "#99", offset: 0, problem: "its group has no end tag before the end of its message" });
    expect(refusal(bytes).details.field).toBe("#99");
  });

  it("well-framed bytes name nothing, and refusals that are not about framing keep their own words", () => {
    const ok = envelope({ readGrant: { grantId: 3, attemptId: 1, item: ITEM } });
    expect(locateMalformed(ok)).toBeUndefined();
    // senderId twice: refused by the decoder (SPEC.md section 5), framing intact.
    const twice = new Uint8Array([...ok, 0x12, 0x01, 0x65]);
    const e = refusal(twice);
    expect(e.message).toContain("field senderId occurs twice");
    expect(e.message).not.toContain("(at ");
    expect(e.details).toEqual({});
  });

  it("[C10] a refusal that is not about framing is given no later break: a field given twice, bad UTF-8, too many packed values", () => {
    const later = (bytes: Uint8Array, own: string) => {
      const e = refusal(bytes);
      expect(e.message).toContain(own);
      expect(e.message).not.toMatch(/, byte \d+: /); // no "(at <field>, byte <n>: <break>)"
      expect(e.details).toEqual({});
    };
    // The heartbeat body twice (refused at its second tag), then a varint of unknown field 5 cut short.
    later(new Uint8Array([0x0a, 0x02, 0x08, 0x01, 0x12, 0x01, 0x61, 0x18, 0x05, 0x82, 0x01, 0x00, 0x82, 0x01, 0x00, 0x28, 0x80]), "field heartbeat occurs after oneof body");
    // senderId twice, the second one's length running past the end: refused at its tag, before that length is read.
    later(new Uint8Array([0x0a, 0x02, 0x08, 0x01, 0x12, 0x01, 0x61, 0x18, 0x05, 0x12, 0x05, 0x61]), "field senderId occurs twice");
    // A sender id that is not UTF-8, then a tag cut after its first byte.
    later(new Uint8Array([0x0a, 0x02, 0x08, 0x01, 0x12, 0x01, 0xff, 0x18, 0x05, 0x98]), "utf-8");
    // One packed shape value more than the limit (refused by count), then a cut tag.
    const packed = ectp.v1.Envelope.encode({ ...HEADER, readGrant: { grantId: 1, attemptId: 1, item: { shape: new Array(MAX_REPEATED_ELEMENTS + 1).fill(1) } } }).finish();
    const over = new Uint8Array([...packed, 0x98]);
    expect(locateMalformed(over)).toBeUndefined(); // the walk counts packed values as the decoder does
    later(over, `more than ${MAX_REPEATED_ELEMENTS} repeated elements in one message (at field shape)`);
    // At the limit itself the break after the values is still found.
    const atLimit = ectp.v1.Envelope.encode({ ...HEADER, readGrant: { grantId: 1, attemptId: 1, item: { shape: new Array(MAX_REPEATED_ELEMENTS).fill(1) } } }).finish();
    expect(refusal(new Uint8Array([...atLimit, 0x98])).details).toEqual({ field: "", offset: atLimit.length });
  });

  it("[C10] the decoder's refusals at a tag are told by the words scripts/lib/pbjs-postprocess.mjs gives them: each phrase, thrown for real bytes", () => {
    /** What the generated decoder throws for `bytes`, which it must refuse. */
    const thrown = (bytes: Uint8Array): unknown => {
      try {
        ectp.v1.Envelope.decode(bytes);
      } catch (cause) {
        return cause;
      }
      throw new Error("the generated decoder accepted the bytes");
    };
    // One repeated element past the limit ("...; SPEC.md section 5 limits them"), then a tag cut after its first byte.
    const events = Array.from({ length: MAX_REPEATED_ELEMENTS + 1 }, () => ({}));
    const over = new Uint8Array([...ectp.v1.Envelope.encode({ ...HEADER, eventBatch: { sequence: 1, events } }).finish(), 0x98]);
    const tooMany = thrown(over);
    expect(tooMany).toBeInstanceOf(RangeError);
    expect((tooMany as Error).message).toContain(`more than ${MAX_REPEATED_ELEMENTS} repeated elements in one message (at field events)`);
    expect(isRefusalAtATag(tooMany)).toBe(true);
    // (decodeEnvelope's result alone does not show that this phrase is told: locateMalformed counts
    // elements as the decoder does, and past the limit it finds no break of its own either.)
    expect(refusal(over).details).toEqual({});
    // A non-repeated field given twice, and a oneof's second member ("...; SPEC.md section 5 allows a non-repeated field once per message").
    const ok = envelope({ readGrant: { grantId: 3, attemptId: 1, item: ITEM } });
    expect(isRefusalAtATag(thrown(new Uint8Array([...ok, 0x12, 0x01, 0x65])))).toBe(true);
    expect(isRefusalAtATag(thrown(new Uint8Array([0x0a, 0x02, 0x08, 0x01, 0x12, 0x01, 0x61, 0x18, 0x05, 0x82, 0x01, 0x00, 0x82, 0x01, 0x00])))).toBe(true);
    // protobufjs' own refusals are none: a length past the end, a cut tag, bad UTF-8.
    expect(isRefusalAtATag(thrown(ok.slice(0, ok.length - 1)))).toBe(false);
    expect(isRefusalAtATag(thrown(new Uint8Array([...ok, 0x98])))).toBe(false);
    expect(isRefusalAtATag(thrown(new Uint8Array([0x0a, 0x02, 0x08, 0x01, 0x12, 0x01, 0xff, 0x18, 0x05])))).toBe(false);
  });

  it("[C10] locateMalformed seeks no break past the point it is told the decoder stopped at", () => {
    // senderId twice, the second one's length running past the end (the walk does not count fields).
    const bytes = new Uint8Array([0x12, 0x01, 0x61, 0x12, 0x05, 0x61]);
    expect(locateMalformed(bytes)).toEqual({ field: "senderId", offset: 3, problem: "a length of 5 runs past the 1 byte left in its envelope" });
    expect(locateMalformed(bytes, 2)).toBeUndefined();
    expect(locateMalformed(bytes, 3)).toMatchObject({ field: "senderId", offset: 3 });
  });

  it("[C10] past the repeated-element limit the walk stops: the decoder's refusal names the count, and a break after it is not sought", () => {
    // Bytes as large as a frame allows, of elements the decoder refuses by count, once cost a
    // second of CPU here (a path string per element): the walk is bounded as the decoder is.
    const withEvents = (n: number) => {
      const ok = ectp.v1.Envelope.encode({ ...HEADER, eventBatch: { sequence: 1, events: Array.from({ length: n }, () => ({})) } }).finish();
      return new Uint8Array([...ok, 0x98]); // a tag cut after its first byte
    };
    expect(locateMalformed(withEvents(100))).toMatchObject({ field: "", problem: expect.stringContaining("a field's tag") });
    // At the limit itself the decoder reads every element, so the break after them is still found.
    const atLimit = withEvents(MAX_REPEATED_ELEMENTS);
    expect(locateMalformed(atLimit)).toMatchObject({ field: "", problem: expect.stringContaining("a field's tag") });
    expect(refusal(atLimit).details).toMatchObject({ field: "" });
    const over = withEvents(MAX_REPEATED_ELEMENTS + 1);
    expect(locateMalformed(over)).toBeUndefined();
    const e = refusal(over);
    expect(e.message).toContain(`more than ${MAX_REPEATED_ELEMENTS} repeated elements`);
    expect(e.details).toEqual({});
  });

  it("property: every cut of a valid envelope that decodeEnvelope refuses as malformed is located, inside the cut", () => {
    const bodies: ectp.v1.IEnvelope[] = [
      { readGrant: { grantId: 3, attemptId: 1, item: { ...ITEM, checksum: { algorithm: 1, value: new Uint8Array(4) } }, leaseMs: 100 } },
      { eventBatch: { sequence: 9, events: [{ stored: { item: ITEM } }, { removed: { key: KEY, cause: 1 } }] } },
      { hello: { role: 1, capabilities: ["a", "bc"], fingerprint: { model: "m", dtype: 3 }, heartbeatIntervalMs: 5 } },
    ];
    fc.assert(
      fc.property(fc.constantFrom(...bodies), fc.nat(), (body, n) => {
        const ok = envelope(body);
        const cut = ok.slice(0, n % ok.length);
        const r = decodeEnvelope(cut);
        if (r.ok || r.error.code !== "MALFORMED_MESSAGE" || !r.error.message.includes("not valid protobuf")) return;
        const where = locateMalformed(cut);
        expect(where).toBeDefined();
        expect(where?.offset).toBeLessThan(cut.length);
        expect(r.error.details).toEqual({ field: where?.field, offset: where?.offset });
      }),
      { numRuns: 500 },
    );
  });
});

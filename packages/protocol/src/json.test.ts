import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ectp } from "./gen/ectp.js";
import { announcementFromJson, announcementToJson } from "./json.js";
import { validateDescriptor } from "./validate.js";
import { SPEC_VERSION } from "./version.js";

const announcement = (): ectp.v1.IAnnouncement => ({
  version: SPEC_VERSION,
  item: {
    key: { contentHash: new Uint8Array(32).fill(7), fingerprint: { model: "m@1", dtype: ectp.v1.Dtype.DTYPE_BFLOAT16, rowBytes: 4096, layoutVersion: 1 } },
    sizeBytes: 2 * 4 * 8,
    dtype: ectp.v1.Dtype.DTYPE_BFLOAT16,
    shape: [4, 8],
    checksum: { algorithm: ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C, value: new Uint8Array([1, 2, 3, 4]) },
    producerId: "encoder-0",
    epoch: 3,
    location: new Uint8Array([0xfb, 0xff, 0x01]),
  },
  transportMetadata: new Uint8Array([9, 8, 7]),
});

/** The canonical proto3 JSON of an announcement, as protobufjs writes it. */
const canonicalJson = (a: ectp.v1.IAnnouncement) =>
  JSON.stringify(ectp.v1.Announcement.toObject(ectp.v1.Announcement.fromObject(a), { longs: String, enums: String, bytes: String }));

/** The wire bytes of an announcement: what two equal announcements share. */
const bytesOf = (a: ectp.v1.IAnnouncement) => ectp.v1.Announcement.encode(a).finish();

function refused(json: unknown, options?: Parameters<typeof announcementFromJson>[1]): string {
  const r = announcementFromJson(json, options);
  if (r.ok) throw new Error(`expected a refusal, got ${JSON.stringify(r.value)}`);
  expect(r.error.code).toBe("INVALID_ANNOUNCEMENT");
  return r.error.message;
}

describe("announcementFromJson", () => {
  it("reads protobufjs's canonical proto3 JSON back into the announcement it was written from", () => {
    const text = canonicalJson(announcement());
    expect(text).toContain('"sizeBytes":"64"'); // 64-bit integers as strings, enums by name, bytes as base64
    expect(text).toContain('"dtype":"DTYPE_BFLOAT16"');
    const r = announcementFromJson(text);
    if (!r.ok) throw r.error;
    expect(r.value.item).toEqual(announcement().item);
    expect(bytesOf(r.value)).toEqual(bytesOf(announcement()));
    expect(validateDescriptor(r.value.item, { maxItemBytes: 1024 }).ok).toBe(true);
  });

  it("takes the parsed value as well as the text", () => {
    const r = announcementFromJson(JSON.parse(canonicalJson(announcement())));
    expect(r.ok && bytesOf(r.value)).toEqual(bytesOf(announcement()));
  });

  it("takes the .proto names, integers as numbers or strings, enums by number and URL-safe or unpadded base64", () => {
    const r = announcementFromJson({
      version: { major: String(SPEC_VERSION.major), minor: SPEC_VERSION.minor },
      item: {
        key: { content_hash: "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc", fingerprint: { model: "m@1", dtype: ectp.v1.Dtype.DTYPE_BFLOAT16, row_bytes: "4096", layout_version: 1 } },
        size_bytes: 64,
        dtype: "DTYPE_BFLOAT16",
        shape: ["4", 8],
        checksum: { algorithm: 1, value: "AQIDBA" },
        producer_id: "encoder-0",
        epoch: "3",
        location: "-_8B",
      },
      transport_metadata: "CQgH",
    });
    if (!r.ok) throw r.error;
    expect(r.value).toEqual(announcement());
  });

  it("takes an enum number in a string as the Java proto3 JSON parser (JsonFormat) does (read as integers are: \"3\", \"3.0\", \"3e0\")", () => {
    for (const dtype of ["3", "3.0", "3e0", 3, "DTYPE_BFLOAT16"]) {
      const r = announcementFromJson({ item: { dtype, checksum: { algorithm: String(ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C) } } });
      if (!r.ok) throw r.error;
      expect(r.value.item, JSON.stringify(dtype)).toEqual({ dtype: ectp.v1.Dtype.DTYPE_BFLOAT16, checksum: { algorithm: ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C } });
    }
    const r = announcementFromJson({ item: { dtype: "2147483647" } }); // int32's top: an unknown value, kept as its number [V1]
    expect(r.ok && r.value.item?.dtype).toBe(2147483647);
  });

  it("reads null as the field's default and leaves absent fields absent", () => {
    const r = announcementFromJson({ version: { major: 1, minor: null }, item: { producerId: "p", shape: null, checksum: null }, transportMetadata: null });
    expect(r.ok && r.value).toEqual({ version: { major: 1 }, item: { producerId: "p" } });
  });

  it("refuses a field the schema does not name, naming it and the fields there are, unless told to skip them", () => {
    const misspelt = { ...JSON.parse(canonicalJson(announcement())), transportMetdata: "AA" };
    expect(refused(misspelt)).toMatch(/announcement\.transportMetdata: Announcement has no field named "transportMetdata" \(its fields: version, item, transportMetadata\)/);
    const r = announcementFromJson(misspelt, { ignoreUnknownFields: true });
    expect(r.ok && bytesOf(r.value)).toEqual(bytesOf(announcement()));
  });

  it("skips unknown fields in nested messages too when told to, but never an unknown enum name", () => {
    const newer = JSON.parse(canonicalJson(announcement()));
    newer.item.priority = 3;
    newer.item.key.fingerprint.quantization = "Q4";
    expect(refused(newer)).toMatch(/announcement\.item\.key\.fingerprint\.quantization: Fingerprint has no field named "quantization"/);
    delete newer.item.key.fingerprint.quantization;
    expect(refused(newer)).toMatch(/announcement\.item\.priority: ItemDescriptor has no field named "priority"/);
    newer.item.key.fingerprint.quantization = "Q4";
    const r = announcementFromJson(newer, { ignoreUnknownFields: true });
    expect(r.ok && bytesOf(r.value)).toEqual(bytesOf(announcement()));
    newer.item.dtype = "DTYPE_FLOAT4";
    expect(refused(newer, { ignoreUnknownFields: true })).toMatch(/announcement\.item\.dtype: expected a Dtype value name/);
  });

  it("takes integral numbers in any JSON number form, quoted or not, and -0 as 0", () => {
    for (const size of ["6.4e1", "64.0", 64.0, 6.4e1, "640e-1"]) {
      const r = announcementFromJson({ item: { sizeBytes: size, epoch: "-0" } });
      expect(r.ok && r.value.item).toEqual({ sizeBytes: 64, epoch: 0 });
      expect(Object.is(r.ok && r.value.item?.epoch, 0)).toBe(true);
    }
  });

  it("decides a number in a string from its text: a fraction however small is refused, not rounded away, and so is a whole number past 2^53 - 1", () => {
    for (const text of ["1e-400", "1.0000000000000001", "9007199254740990.6", "0.5", "1234.5e-1", "-1e-400"])
      expect(refused({ item: { sizeBytes: text } })).toContain(`item.sizeBytes: expected a non-negative integer (uint64); got ${JSON.stringify(text)}`);
    for (const text of ["1e400", "9007199254740992", "90071992547409920e-1", "1".repeat(30)])
      expect(refused({ item: { epoch: text } })).toContain(`item.epoch: ${JSON.stringify(text)} is above 2^53 - 1`);
    expect(refused({ version: { major: "4294967295.5" } })).toContain('version.major: expected a non-negative integer (uint32); got "4294967295.5"');
    expect(refused({ version: { major: "4.294967296e9" } })).toContain('version.major: "4.294967296e9" is out of the uint32 range');
    // Whole values in any form are taken exactly, up to the largest.
    const r = announcementFromJson({ version: { major: "4.294967295e9" }, item: { sizeBytes: "9.007199254740991e15", epoch: "90071992547409910e-1", shape: ["1.5e1", "0e-999", "2000e-3"] } });
    expect(r.ok && r.value).toEqual({ version: { major: 4294967295 }, item: { sizeBytes: 2 ** 53 - 1, epoch: 2 ** 53 - 1, shape: [15, 0, 2] } });
  });

  it("refuses a field given under both of its names", () => {
    expect(refused({ item: { sizeBytes: 1, size_bytes: 2 } })).toMatch(/announcement\.item\.size_bytes: the field sizeBytes is given twice/);
  });

  it.each([
    ["not JSON text", "{item:", /not JSON text/],
    ["a top level that is no object", "[1]", /^\[INVALID_ANNOUNCEMENT\] announcement: expected a JSON object \(Announcement\); got \[1\]/],
    ["a message field that is no object", { item: { key: "k" } }, /announcement\.item\.key: expected a JSON object \(ItemKey\); got "k"/],
    ["a uint64 with junk after its digits", { item: { sizeBytes: "4096abc" } }, /item\.sizeBytes: expected a uint64 as a JSON number or a number in a string; got "4096abc"/],
    ["a negative size", { item: { sizeBytes: -1 } }, /item\.sizeBytes: expected a non-negative integer \(uint64\); got -1/],
    ["a fraction in a string", { item: { sizeBytes: "6.5" } }, /item\.sizeBytes: expected a non-negative integer \(uint64\); got "6\.5"/],
    ["a number with leading zeros in a string", { item: { sizeBytes: "007" } }, /item\.sizeBytes: expected a uint64 as a JSON number or a number in a string; got "007"/],
    ["a fractional epoch", { item: { epoch: 1.5 } }, /item\.epoch: expected a non-negative integer/],
    ["a uint64 above 2^53 - 1", { item: { epoch: "9007199254740993" } }, /item\.epoch: "9007199254740993" is above 2\^53 - 1/],
    ["a uint32 out of range", { version: { major: 2 ** 32 } }, /version\.major: 4294967296 is out of the uint32 range/],
    ["a boolean for an integer", { item: { sizeBytes: true } }, /got true/],
    ["an enum name of another enum", { item: { dtype: "CHECKSUM_ALGORITHM_CRC32C" } }, /item\.dtype: expected a Dtype value name \(DTYPE_UNSPECIFIED, .*\) or number; got "CHECKSUM_ALGORITHM_CRC32C"/],
    ["a negative enum number", { item: { dtype: -1 } }, /item\.dtype: expected a Dtype value/],
    ["a negative enum number in a string", { item: { dtype: "-1" } }, /item\.dtype: expected a Dtype value \(a name or a non-negative int32\); got "-1"/],
    ["a fractional enum number in a string", { item: { dtype: "1.5" } }, /item\.dtype: expected a Dtype value \(a name or a non-negative int32\); got "1\.5"/],
    ["an enum number in a string above int32", { item: { dtype: "2147483648" } }, /item\.dtype: expected a Dtype value \(a name or a non-negative int32\); got "2147483648"/],
    ["an enum number in a string with leading zeros", { item: { dtype: "03" } }, /item\.dtype: expected a Dtype value name \(DTYPE_UNSPECIFIED, .*\) or number; got "03"/],
    ["bytes with a character base64 has not", { item: { location: "AAAA!" } }, /item\.location: "AAAA!" is no base64/],
    ["bytes one character over", { item: { location: "AAAAA" } }, /item\.location: "AAAAA" is no base64: its length leaves one character over/],
    ["bytes padded short of 4 characters", { item: { location: "QQ=" } }, /item\.location: "QQ=" is no base64: padded, but not to a multiple of 4/],
    ["bytes in both base64 alphabets", { item: { location: "+-/_" } }, /item\.location: "\+-\/_" mixes the standard \(\+ \/\) and URL-safe \(- _\) base64 alphabets/],
    ["bytes as an array of numbers", { transportMetadata: [1, 2] }, /transportMetadata: expected base64 bytes in a JSON string; got \[1,2\]/],
    ["a repeated field that is no array", { item: { shape: 4 } }, /item\.shape: expected a JSON array; got 4/],
    ["a null element of a repeated field", { item: { shape: [4, null] } }, /item\.shape\[1\]: expected a uint64/],
    ["a string with a lone surrogate", '{"item":{"producerId":"p\\ud800"}}', /item\.producerId: the string holds a lone surrogate/],
    ["a number for a string", { item: { producerId: 7 } }, /item\.producerId: expected a JSON string; got 7/],
  ])("refuses %s, naming the field's path", (_what, json, message) => {
    const text = refused(json);
    expect(text).toMatch(message);
    expect(text).toMatch(/Send the announcement as proto3 JSON of ectp\.v1\.Announcement/);
  });

  it("refuses an object whose fields cannot be read, instead of throwing", () => {
    const hostile = { item: Object.defineProperty({}, "sizeBytes", { enumerable: true, get: () => { throw new Error("boom"); } }) };
    expect(refused(hostile)).toMatch(/the announcement could not be read \(.*boom/);
  });

  it("puts the failing field's path in the error's details", () => {
    const r = announcementFromJson({ item: { key: { fingerprint: { rowBytes: "x" } } } });
    expect(!r.ok && r.error.details.path).toBe("announcement.item.key.fingerprint.rowBytes");
  });

  it("never throws, and what it accepts reads back from its canonical JSON with the same wire bytes", () => {
    const integer = fc.oneof(fc.nat(), fc.nat().map(String), fc.constant(-1), fc.constant(2 ** 53), fc.double());
    const anything = fc.oneof(fc.string(), integer, fc.boolean(), fc.constant(null), fc.array(fc.nat(), { maxLength: 3 }));
    const json = fc.record(
      {
        version: fc.oneof(fc.record({ major: integer, minor: integer }, { requiredKeys: [] }), anything),
        item: fc.oneof(
          fc.record(
            {
              sizeBytes: integer,
              size_bytes: integer,
              dtype: fc.oneof(fc.constantFrom("DTYPE_FLOAT16", "DTYPE_X", 2), anything),
              shape: fc.oneof(fc.array(integer, { maxLength: 3 }), anything),
              producerId: anything,
              location: fc.oneof(fc.base64String(), fc.string(), anything),
              extra: anything,
            },
            { requiredKeys: [] },
          ),
          anything,
        ),
        transportMetadata: fc.oneof(fc.base64String(), anything),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(json, fc.boolean(), (value, asText) => {
        const r = announcementFromJson(asText ? JSON.stringify(value) : value);
        if (!r.ok) {
          expect(r.error.code).toBe("INVALID_ANNOUNCEMENT");
          return;
        }
        const again = announcementFromJson(canonicalJson(r.value));
        if (!again.ok) throw again.error;
        expect(bytesOf(again.value)).toEqual(bytesOf(r.value));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("announcementToJson", () => {
  it("writes the canonical proto3 JSON, which announcementFromJson reads back to the same wire bytes", () => {
    const a = announcement();
    const text = announcementToJson(a);
    expect(text).toBe(canonicalJson(a));
    expect(JSON.parse(text)).toMatchObject({ item: { sizeBytes: "64", dtype: "DTYPE_BFLOAT16", location: "+/8B" }, transportMetadata: "CQgH" });
    const back = announcementFromJson(text);
    if (!back.ok) throw back.error;
    expect(bytesOf(back.value)).toEqual(bytesOf(a));
  });

  it("writes only what the wire carries (a property the schema does not name is left out)", () => {
    const a = { ...announcement(), note: "not a field" } as ectp.v1.IAnnouncement;
    expect(JSON.parse(announcementToJson(a))).not.toHaveProperty("note");
  });

  it("refuses what does not fit the schema, naming the field, with a typed error", () => {
    expect(() => announcementToJson(null as never)).toThrow("[INVALID_ARGUMENT] announcementToJson needs an ectp.v1.IAnnouncement: got null");
    const bad = { ...announcement(), transportMetadata: "AA" as never };
    expect(() => announcementToJson(bad)).toThrow(
      "[INVALID_ARGUMENT] announcementToJson needs an ectp.v1.IAnnouncement: transportMetadata must be a Uint8Array (or an array of byte values); got string",
    );
    expect(() => announcementToJson({ ...announcement(), version: 5 as never })).toThrow(/^\[INVALID_ARGUMENT\] announcementToJson needs an ectp\.v1\.IAnnouncement: version\.object expected/);
  });
});

describe("announcementFromJson: the caller's options", () => {
  it("an options value that is not an object, or a misspelt option, is the caller's fault: thrown, typed", () => {
    const text = canonicalJson(announcement());
    expect(() => announcementFromJson(text, null as never)).toThrow("[INVALID_ARGUMENT] announcementFromJson: options must be an object { ignoreUnknownFields? }; got null");
    expect(() => announcementFromJson(text, { ignoreUnknownField: true } as never)).toThrow(
      "[INVALID_ARGUMENT] options.ignoreUnknownField is not an option of announcementFromJson (did you mean ignoreUnknownFields?); its options are ignoreUnknownFields. Check the spelling, or remove it.",
    );
  });

  it("an ignoreUnknownFields other than true, false or undefined is thrown, typed (\"yes\" or 1 read as false refused what was asked to be skipped)", () => {
    const withExtra = JSON.stringify({ ...JSON.parse(canonicalJson(announcement())), extra: 1 });
    for (const [bad, shown] of [["yes", '"yes"'], [1, "1"], [null, "null"]] as const)
      expect(() => announcementFromJson(withExtra, { ignoreUnknownFields: bad } as never)).toThrow(
        `[INVALID_ARGUMENT] announcementFromJson: options.ignoreUnknownFields must be true or false; got ${shown}`,
      );
    expect(announcementFromJson(withExtra, { ignoreUnknownFields: true }).ok).toBe(true);
    expect(announcementFromJson(withExtra, { ignoreUnknownFields: false }).ok).toBe(false);
    expect(announcementFromJson(withExtra, { ignoreUnknownFields: undefined }).ok).toBe(false);
  });

  it("an array as options is refused as null is (it read as no options)", () => {
    expect(() => announcementFromJson(canonicalJson(announcement()), [] as never)).toThrow(
      "[INVALID_ARGUMENT] announcementFromJson: options must be an object { ignoreUnknownFields? }; got an array",
    );
    expect(announcementFromJson(canonicalJson(announcement()), undefined).ok).toBe(true);
  });

  it("a parsed value holding what JSON has no form for is named by what it is", () => {
    const parsed = JSON.parse(canonicalJson(announcement()));
    expect(refused({ ...parsed, item: { ...parsed.item, sizeBytes: Number.NaN } })).toContain("got NaN");
    expect(refused({ ...parsed, item: { ...parsed.item, sizeBytes: 10n } })).toContain("announcement.item.sizeBytes");
    expect(refused({ ...parsed, item: { ...parsed.item, sizeBytes: 10n } })).toContain("the bigint 10");
  });

  it("a version (or another message) given as bytes in a parsed value is refused, naming them (a DataView read as an empty version)", () => {
    const parsed = JSON.parse(canonicalJson(announcement()));
    for (const [bytes, shown] of [[new DataView(new ArrayBuffer(2)), "a DataView"], [new Uint8Array(0), "a Uint8Array"], [new ArrayBuffer(2), "an ArrayBuffer"]] as const) {
      expect(refused({ ...parsed, version: bytes })).toContain(`announcement.version: expected a JSON object (SpecVersion); got ${shown}`);
      expect(refused({ ...parsed, item: { ...parsed.item, checksum: bytes } })).toContain(`announcement.item.checksum: expected a JSON object (Checksum); got ${shown}`);
    }
  });
});

// Golden wire fixtures (spec/testdata/v1, see spec/testdata/README.md): the hex and
// the proto3 JSON of each fixture must describe the same message, in both directions.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeEnvelope } from "./envelope.js";
import { FrameDecoder, encodeFrame } from "./framing.js";
import { ectp } from "./gen/ectp.js";
import { SPEC_DIR, fromHex, loadSchema, toHex } from "./test-helpers.js";

const DIR = join(SPEC_DIR, "testdata", "v1");
const JSON_OPTIONS = { longs: String, enums: String, bytes: String, json: true };
const names = [...new Set(readdirSync(DIR).map((f) => f.replace(/\.(hex|json)$/, "")))].sort();

function read(name: string): { bytes: Uint8Array; json: unknown } {
  return {
    bytes: fromHex(readFileSync(join(DIR, `${name}.hex`), "utf8")),
    json: JSON.parse(readFileSync(join(DIR, `${name}.json`), "utf8")),
  };
}

function kebab(camel: string): string {
  return camel.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

describe("spec/testdata/v1 fixtures", () => {
  it("has a .hex and a .json for every fixture, in lowercase hex", () => {
    const files = readdirSync(DIR);
    for (const name of names) {
      expect(files, name).toContain(`${name}.hex`);
      expect(files, name).toContain(`${name}.json`);
      expect(readFileSync(join(DIR, `${name}.hex`), "utf8")).toMatch(/^[0-9a-f]+\n$/);
    }
  });

  it("has an envelope-<body> fixture for every Envelope body kind, an announcement and a framed stream", () => {
    const body = loadSchema().lookupType("Envelope").oneofs["body"]!;
    for (const field of body.fieldsArray) expect(names).toContain(`envelope-${kebab(field.name)}`);
    expect(names).toContain("announcement");
    expect(names.some((n) => n.startsWith("framed-"))).toBe(true);
  });

  describe.each(names.filter((n) => n.startsWith("envelope-")))("%s", (name) => {
    it("decodes to its JSON and its JSON encodes to its hex", () => {
      const { bytes, json } = read(name);
      const decoded = decodeEnvelope(bytes);
      expect(decoded.ok).toBe(true);
      if (!decoded.ok) return;
      expect(ectp.v1.Envelope.toObject(decoded.value, JSON_OPTIONS)).toEqual(json);
      const body = name.slice("envelope-".length).split("--")[0] as string; // envelope-<body>[--<variant>]
      expect(decoded.value.body).toBe(body.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()));
      const encoded = ectp.v1.Envelope.encode(ectp.v1.Envelope.fromObject(json as Record<string, unknown>)).finish();
      expect(toHex(encoded)).toBe(toHex(bytes));
    });
  });

  it("announcement decodes to its JSON and back", () => {
    const { bytes, json } = read("announcement");
    const decoded = ectp.v1.Announcement.decode(bytes);
    expect(ectp.v1.Announcement.toObject(decoded, JSON_OPTIONS)).toEqual(json);
    const encoded = ectp.v1.Announcement.encode(ectp.v1.Announcement.fromObject(json as Record<string, unknown>)).finish();
    expect(toHex(encoded)).toBe(toHex(bytes));
  });

  describe.each(names.filter((n) => n.startsWith("framed-")))("%s", (name) => {
    it("splits into big-endian length-prefixed envelopes equal to its JSON array, in any chunking", () => {
      const { bytes, json } = read(name);
      expect(Array.isArray(json)).toBe(true);
      const list = json as Record<string, unknown>[];
      for (const step of [1, 3, 7, bytes.length]) {
        const decoder = new FrameDecoder();
        const frames: Uint8Array[] = [];
        for (let i = 0; i < bytes.length; i += step) frames.push(...decoder.push(bytes.subarray(i, i + step)));
        decoder.end();
        expect(frames.map((f) => ectp.v1.Envelope.toObject(ectp.v1.Envelope.decode(f), JSON_OPTIONS))).toEqual(list);
      }
      // The prefix is big-endian: the first frame's length is in the low bytes of the header.
      const first = ectp.v1.Envelope.encode(ectp.v1.Envelope.fromObject(list[0]!)).finish();
      expect(Array.from(bytes.subarray(0, 4))).toEqual([0, 0, first.length >>> 8, first.length & 0xff]);
      const rebuilt = list.flatMap((o) => Array.from(encodeFrame(ectp.v1.Envelope.encode(ectp.v1.Envelope.fromObject(o)).finish())));
      expect(toHex(Uint8Array.from(rebuilt))).toBe(toHex(bytes));
    });
  });
});

// Round trips of EVERY ectp.v1 message, driven by the schema itself (protobufjs
// reflection over spec/proto), so a message added to the spec is tested without
// touching this file, and the committed static code is checked against the .proto.
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import type protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { ectp } from "./gen/ectp.js";
import { enumTypes, loadSchema, messageTypes } from "./test-helpers.js";

const schema = loadSchema();
const types = messageTypes(schema);
const RUNS_PER_TYPE = 300;
const JSON_OPTIONS = { longs: String, enums: String, bytes: String, json: true };
// No `longs` option: 64-bit fields must already be numbers (pbjs --force-number, see generate.mjs).
const PLAIN_OPTIONS = { bytes: Array };

/** A static message class of the generated code. */
interface StaticType {
  encode(message: unknown): { finish(): Uint8Array };
  decode(bytes: Uint8Array): Record<string, unknown> & { toJSON(): Record<string, unknown> };
  fromObject(object: Record<string, unknown>): unknown;
  toObject(message: unknown, options?: Record<string, unknown>): Record<string, unknown>;
  verify(message: unknown): string | null;
}

const generated = ectp.v1 as unknown as Record<string, unknown>;

function staticType(name: string): StaticType {
  const t = generated[name] as StaticType | undefined;
  if (t === undefined) throw new Error(`generated code lacks ectp.v1.${name}; run npm run generate`);
  return t;
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** A value that is not the field's default, so proto3 encodes it and decoding restores it. */
function valueArb(field: protobuf.Field, depth: number): fc.Arbitrary<unknown> {
  const resolved = field.resolvedType;
  if (resolved && "values" in resolved) {
    const values = Object.values((resolved as protobuf.Enum).values).filter((v) => v !== 0);
    return fc.constantFrom(...values);
  }
  if (resolved) return messageArb(resolved as protobuf.Type, depth + 1);
  switch (field.type) {
    case "string":
      return fc.string({ minLength: 1, maxLength: 12, unit: "binary" });
    case "bool":
      return fc.constant(true);
    case "bytes":
      return fc.uint8Array({ minLength: 1, maxLength: 16 });
    case "uint32":
      return fc.integer({ min: 1, max: 0xffff_ffff });
    case "uint64":
      // --force-number: 64-bit fields are JS numbers; safe integers survive exactly.
      return fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
    default:
      throw new Error(`no generator for proto type ${field.type} (${field.fullName}); extend valueArb`);
  }
}

const cache = new Map<string, fc.Arbitrary<Record<string, unknown>>>();

/** Arbitrary plain object of a message: each field absent or non-default; at most one member per oneof. */
function messageArb(type: protobuf.Type, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const cached = cache.get(type.fullName);
  if (cached) return cached;
  if (depth > 4) return fc.constant({});
  const parts: fc.Arbitrary<[string, unknown][]>[] = [];
  for (const field of type.fieldsArray) {
    if (field.partOf) continue;
    const one = valueArb(field, depth);
    const arb = field.repeated ? fc.array(one, { minLength: 1, maxLength: 3 }) : one;
    parts.push(fc.option(arb, { nil: undefined }).map((v) => (v === undefined ? [] : [[field.name, v]])));
  }
  for (const oneof of type.oneofsArray) {
    const members = oneof.fieldsArray.map((f) => valueArb(f, depth).map((v): [string, unknown][] => [[f.name, v]]));
    parts.push(fc.oneof(fc.constant([] as [string, unknown][]), ...members));
  }
  const arb = fc.tuple(...parts).map((entries) => Object.fromEntries(entries.flat()));
  cache.set(type.fullName, arb);
  return arb;
}

/** The plain object toObject(PLAIN_OPTIONS) should give back: bytes as number arrays. */
function plain(value: unknown): unknown {
  if (value instanceof Uint8Array) return Array.from(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

describe("generated code covers the schema", () => {
  it("has a static class for every ectp.v1 message and nothing else", () => {
    const classes = Object.entries(generated)
      .filter(([, v]) => typeof v === "function" && "decode" in (v as object))
      .map(([k]) => k)
      .sort();
    expect(classes).toEqual(types.map((t) => t.name).sort());
    expect(types.length).toBeGreaterThanOrEqual(21);
  });

  it("has every enum with the values of the .proto", () => {
    for (const e of enumTypes(schema)) expect(generated[e.name], e.name).toEqual(e.values);
  });
});

describe.each(types.map((t) => [t.name, t] as const))("ectp.v1.%s round trip", (name, type) => {
  const Static = staticType(name);

  it("encodes like the .proto says, decodes back, and maps to and from proto3 JSON", () => {
    fc.assert(
      fc.property(messageArb(type), (obj) => {
        // Binary: static code and schema reflection produce the same bytes.
        const bytes = Static.encode(obj).finish();
        const reference = type.encode(type.fromObject(obj)).finish();
        check(sameBytes(bytes, reference), "static encoding differs from the .proto (regenerate src/gen)");
        check(Static.verify(obj) === null, `verify rejected a valid ${name}`);
        // Decode restores every field; re-encoding is byte-identical.
        const decoded = Static.decode(bytes);
        check(sameBytes(Static.encode(decoded).finish(), bytes), "re-encoding changed the bytes");
        const got = Static.toObject(decoded, PLAIN_OPTIONS);
        check(isDeepStrictEqual(got, plain(obj)), `decoded ${JSON.stringify(got)} != ${JSON.stringify(plain(obj))}`);
        for (const oneof of type.oneofsArray) {
          const set = oneof.fieldsArray.find((f) => f.name in obj)?.name;
          check(decoded[oneof.name] === set, `oneof ${oneof.name} reports ${String(decoded[oneof.name])}`);
        }
        // JSON: toJSON survives JSON text, comes back through fromObject to the same bytes,
        // and agrees with the reflection's JSON mapping.
        const json = JSON.parse(JSON.stringify(decoded.toJSON())) as Record<string, unknown>;
        check(sameBytes(Static.encode(Static.fromObject(json)).finish(), bytes), "JSON round trip changed the bytes");
        check(
          isDeepStrictEqual(json, type.toObject(type.decode(bytes), JSON_OPTIONS)),
          "static JSON differs from the reflection's",
        );
      }),
      { numRuns: RUNS_PER_TYPE },
    );
  });

  it("decodes the empty encoding to the all-default message", () => {
    const decoded = Static.decode(new Uint8Array(0));
    expect(Static.toObject(decoded, PLAIN_OPTIONS)).toEqual({});
    expect(Static.encode(decoded).finish().length).toBe(0);
  });
});

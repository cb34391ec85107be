// The hand-written read-path codec against the generated protobufjs code: whatever it does
// not decline must be exactly what the generated code produces (bytes for encode; classes,
// own properties in order, values and byte views for decode). See fast-codec.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeEnvelope, encodeEnvelope } from "./envelope.js";
import { EctpError } from "./errors.js";
import { fastDecodeEnvelope, fastEncodeEnvelope, fastEventLength, fastItemDescriptorLength } from "./fast-codec.js";
import { ectp } from "./gen/ectp.js";
import { eventByteLength, itemDescriptorByteLength } from "./sizes.js";
import { SPEC_VERSION } from "./version.js";

const Envelope = ectp.v1.Envelope;

/** Generated encode, or the error it throws. */
function genEncode(env: unknown): Uint8Array | Error {
  try {
    return Envelope.encode(env as ectp.v1.IEnvelope).finish();
  } catch (e) {
    return e as Error;
  }
}

/** Generated decode, or the error it throws. */
function genDecode(bytes: Uint8Array): ectp.v1.Envelope | Error {
  try {
    return Envelope.decode(bytes);
  } catch (e) {
    return e as Error;
  }
}

/**
 * Strict sameness: same prototype, same own keys (symbols and non-enumerable ones included)
 * in the same order with the same attributes, typed arrays viewing the same bytes of the
 * same buffer, everything else recursively or by Object.is. Returns where they differ.
 */
function difference(a: unknown, b: unknown, path = "$"): string | undefined {
  if (typeof a !== typeof b) return `${path}: ${typeof a} vs ${typeof b}`;
  if (a === null || b === null || typeof a !== "object") return Object.is(a, b) ? undefined : `${path}: ${String(a)} vs ${String(b)}`;
  const x = a as object;
  const y = b as object;
  if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return `${path}: prototypes differ`;
  if (ArrayBuffer.isView(x)) {
    const u = x as Uint8Array;
    const v = y as Uint8Array;
    if (u.buffer !== v.buffer || u.byteOffset !== v.byteOffset || u.length !== v.length)
      return `${path}: views differ (${u.byteOffset}+${u.length} vs ${v.byteOffset}+${v.length})`;
  }
  const kx = Reflect.ownKeys(x);
  const ky = Reflect.ownKeys(y);
  if (kx.length !== ky.length || kx.some((k, i) => k !== ky[i])) return `${path}: keys ${String(kx)} vs ${String(ky)}`;
  for (const k of kx) {
    const dx = Object.getOwnPropertyDescriptor(x, k) as PropertyDescriptor;
    const dy = Object.getOwnPropertyDescriptor(y, k) as PropertyDescriptor;
    if (dx.enumerable !== dy.enumerable || dx.writable !== dy.writable || dx.configurable !== dy.configurable)
      return `${path}.${String(k)}: attributes differ`;
    if (ArrayBuffer.isView(x) && typeof k === "string" && /^\d+$/.test(k)) continue; // same view, same bytes
    const d = difference(dx.value, dy.value, `${path}.${String(k)}`);
    if (d) return d;
  }
  return undefined;
}

// ---------------------------------------------------------------- arbitraries

/** Values of the read path as the cores build them: always inside the fast subset. */
const u64 = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1000 }), fc.maxSafeNat());
const u32 = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 0xffffffff }));
const enumValue = fc.integer({ min: 0, max: 0x7fffffff });
const ascii = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 40 });
const bytes = fc.uint8Array({ maxLength: 40 });

const fingerprint = fc.record(
  { model: ascii, dtype: enumValue, rowBytes: u32, layoutVersion: u32 },
  { requiredKeys: [] },
);
const itemKey = fc.record({ contentHash: bytes, fingerprint }, { requiredKeys: [] });
const descriptor = fc.record(
  {
    key: itemKey,
    sizeBytes: u64,
    dtype: enumValue,
    shape: fc.array(u64, { maxLength: 4 }),
    checksum: fc.record({ algorithm: enumValue, value: bytes }, { requiredKeys: [] }),
    producerId: ascii,
    epoch: u64,
    location: fc.uint8Array({ maxLength: 300 }), // past 127: a two-byte length
  },
  { requiredKeys: [] },
);
const bodies = fc.oneof(
  fc.record({
    readRequest: fc.record({ attemptId: u64, key: itemKey, expectedEpoch: u64, expectedSizeBytes: u64 }, { requiredKeys: [] }),
  }),
  fc.record({
    readGrant: fc.record({ attemptId: u64, grantId: u64, item: descriptor, leaseMs: u32 }, { requiredKeys: [] }),
  }),
  fc.record({
    readReject: fc.record(
      { attemptId: u64, reason: enumValue, retryable: fc.boolean(), retryAfterMs: u32, detail: ascii },
      { requiredKeys: [] },
    ),
  }),
  fc.record({ readComplete: fc.record({ grantId: u64, status: enumValue, detail: ascii }, { requiredKeys: [] }) }),
  fc.record({ heartbeat: fc.record({ sequence: u64 }, { requiredKeys: [] }) }),
  fc.constant({}),
);
/** A read-path envelope in the fast subset. */
const fastEnvelope = fc
  .tuple(
    fc.record(
      { version: fc.record({ major: u32, minor: u32 }, { requiredKeys: [] }), senderId: ascii, senderEpoch: u64 },
      { requiredKeys: [] },
    ),
    bodies,
  )
  .map(([head, body]) => ({ ...head, ...body }) as ectp.v1.IEnvelope);

/** Anything a caller might put in a field: odd numbers, Longs, wrong types, unicode, nulls. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    undefined,
    -0,
    -1,
    0.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    2 ** 31,
    2 ** 32,
    2 ** 32 + 1,
    2 ** 53,
    2 ** 64,
    -(2 ** 31),
    true,
    false,
    "",
    "é",
    "\ud800",
    "abc",
    "12",
  ),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.uint8Array({ maxLength: 4 }),
  fc.array(fc.integer({ min: -2, max: 300 }), { maxLength: 3 }),
  fc.record({ low: fc.integer(), high: fc.integer() }),
);

/** Replace one random leaf (or the whole of a sub-object) of `env` with an odd value. */
function mutate(env: ectp.v1.IEnvelope, pathSeed: number, value: unknown): unknown {
  const copy = structuredClone(env) as Record<string, unknown>;
  const objects: Record<string, unknown>[] = [];
  const visit = (o: Record<string, unknown>) => {
    objects.push(o);
    for (const v of Object.values(o)) if (v && typeof v === "object" && !ArrayBuffer.isView(v)) visit(v as Record<string, unknown>);
  };
  visit(copy);
  const target = objects[pathSeed % objects.length] as Record<string, unknown>;
  const names = [
    ...Object.keys(target),
    "version",
    "senderEpoch",
    "attemptId",
    "key",
    "contentHash",
    "fingerprint",
    "model",
    "dtype",
    "shape",
    "checksum",
    "location",
    "leaseMs",
    "retryable",
    "detail",
    "status",
    "hello",
    "eventBatch",
    "$unknowns",
  ];
  target[names[(pathSeed >>> 8) % names.length] as string] = value;
  return copy;
}

describe("fast envelope encoder [V1]", () => {
  it("encodes every read-path envelope (no decline) to the generated bytes, as a Buffer", () => {
    fc.assert(
      fc.property(fastEnvelope, (env) => {
        const fast = fastEncodeEnvelope(env);
        const gen = genEncode(env);
        expect(fast).toBeDefined();
        expect(gen).toBeInstanceOf(Uint8Array);
        expect(Buffer.isBuffer(fast)).toBe(Buffer.isBuffer(gen));
        expect(Buffer.from(fast as Uint8Array).equals(Buffer.from(gen as Uint8Array))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("never differs from the generated encoder on odd values: the same bytes, or a decline", () => {
    fc.assert(
      fc.property(fastEnvelope, fc.nat(), oddValue, (env, seed, value) => {
        const odd = mutate(env, seed, value);
        let fast: Uint8Array | undefined;
        try {
          fast = fastEncodeEnvelope(odd);
        } catch {
          fast = undefined; // a throw reaches encodeEnvelope's catch, as the generated one's would
        }
        if (fast === undefined) return;
        const gen = genEncode(odd);
        expect(gen).toBeInstanceOf(Uint8Array);
        expect(Buffer.from(fast).equals(Buffer.from(gen as Uint8Array))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("declines bodies it has no encoder for, Longs, unsafe numbers, non-ASCII strings and $unknowns", () => {
    const base = { version: SPEC_VERSION, senderId: "c", senderEpoch: 1 };
    expect(fastEncodeEnvelope({ ...base, hello: { role: 2 } })).toBeUndefined();
    expect(fastEncodeEnvelope({ ...base, eventBatch: { sequence: 1 } })).toBeUndefined();
    expect(fastEncodeEnvelope({ ...base, senderEpoch: { low: 1, high: 0 } })).toBeUndefined();
    expect(fastEncodeEnvelope({ ...base, senderEpoch: 2 ** 53 })).toBeUndefined();
    expect(fastEncodeEnvelope({ ...base, senderId: "é" })).toBeUndefined();
    const unknowns = { ...base };
    Object.defineProperty(unknowns, "$unknowns", { value: [new Uint8Array([0xf8, 0x07, 0x01])], enumerable: false });
    expect(fastEncodeEnvelope(unknowns)).toBeUndefined();
    // ...and encodeEnvelope still encodes them through the generated code.
    expect(Buffer.from(encodeEnvelope(unknowns)).equals(Buffer.from(genEncode(unknowns) as Uint8Array))).toBe(true);
  });

  it("skips inherited fields as the generated encoder does (own properties only)", () => {
    const proto = { senderId: "inherited", senderEpoch: 7 };
    const env = Object.assign(Object.create(proto) as object, { version: SPEC_VERSION, heartbeat: { sequence: 1 } });
    const fast = fastEncodeEnvelope(env);
    expect(fast).toBeDefined();
    expect(Buffer.from(fast as Uint8Array).equals(Buffer.from(genEncode(env) as Uint8Array))).toBe(true);
  });

  it("results do not overlap: each is its own view, later encodes leave earlier bytes alone", () => {
    const a = encodeEnvelope({ version: SPEC_VERSION, senderId: "a", senderEpoch: 1, heartbeat: { sequence: 1 } });
    const copy = Uint8Array.from(a);
    for (let i = 0; i < 5000; i++)
      encodeEnvelope({ version: SPEC_VERSION, senderId: "b", senderEpoch: i + 1, readComplete: { grantId: i + 1, status: 1 } });
    expect(Buffer.from(a).equals(Buffer.from(copy))).toBe(true);
  });

  it("transferring one result's buffer (postMessage) leaves the others whole: results share an untransferable slab", () => {
    const acks = [1, 2, 3].map((g) => encodeEnvelope({ version: SPEC_VERSION, senderId: "pd", senderEpoch: 1, readComplete: { grantId: g, status: 1 } }));
    expect(new Set(acks.map((b) => b.buffer)).size).toBe(1); // one slab (the fast path)
    const { port1, port2 } = new MessageChannel();
    try {
      port1.postMessage(acks[0], [acks[0]?.buffer as ArrayBuffer]); // Node 20 ignores the transfer; later Nodes refuse it
    } catch {
      // refused: nothing was detached either
    } finally {
      port1.close();
      port2.close();
    }
    for (const [i, b] of acks.entries()) {
      const d = decodeEnvelope(b as Uint8Array);
      expect(d.ok && d.value.readComplete?.grantId).toBe(i + 1);
    }
  });
});

/** Events of an EventBatch [E1]: one kind each, as a producer makes them, or none. */
const event = fc.oneof(
  fc.record({ stored: fc.record({ item: descriptor }, { requiredKeys: [] }) }),
  fc.record({ removed: fc.record({ key: itemKey, cause: enumValue }, { requiredKeys: [] }) }),
  fc.record({ cleared: fc.record({ cause: enumValue }, { requiredKeys: [] }) }),
  fc.constant({}),
);

describe("encoded sizes of batch and snapshot elements [E1][E2]", () => {
  const genLength = (type: { encode(m: unknown): { finish(): Uint8Array } }, m: unknown): number | Error => {
    try {
      return type.encode(m).finish().length;
    } catch (e) {
      return e as Error;
    }
  };

  it("eventByteLength and itemDescriptorByteLength equal the generated encoding's length, fast path taken", () => {
    fc.assert(
      fc.property(event, descriptor, (e, d) => {
        expect(fastEventLength(e)).toBe(genLength(ectp.v1.Event, e));
        expect(fastItemDescriptorLength(d)).toBe(genLength(ectp.v1.ItemDescriptor, d));
        expect(eventByteLength(e)).toBe(genLength(ectp.v1.Event, e));
        expect(itemDescriptorByteLength(d)).toBe(genLength(ectp.v1.ItemDescriptor, d));
      }),
      { numRuns: 2000 },
    );
  });

  it("with odd values the fast length is the generated one or a decline, and the public functions fall back", () => {
    fc.assert(
      fc.property(event, fc.nat(), oddValue, (e, seed, value) => {
        const odd = mutate(e as ectp.v1.IEnvelope, seed, value);
        let fast: number;
        try {
          fast = fastEventLength(odd);
        } catch {
          fast = -1;
        }
        const gen = genLength(ectp.v1.Event, odd);
        if (fast >= 0) expect(fast).toBe(gen);
        if (typeof gen === "number") expect(eventByteLength(odd as ectp.v1.IEvent)).toBe(gen);
      }),
      { numRuns: 3000 },
    );
  });

  it("declines what it cannot size exactly: non-ASCII strings, $unknowns, more than its 4 KiB scratch", () => {
    const d = { producerId: "p", sizeBytes: 5 };
    expect(fastItemDescriptorLength({ ...d, producerId: "é" })).toBe(-1);
    expect(itemDescriptorByteLength({ ...d, producerId: "é" })).toBe(ectp.v1.ItemDescriptor.encode({ ...d, producerId: "é" }).finish().length);
    const big = { ...d, location: new Uint8Array(5000) };
    expect(fastItemDescriptorLength(big)).toBe(-1);
    // sizeBytes 2 bytes, producerId 3, location 1 + 2 + 5000; Stored and Event add 3 each.
    expect(itemDescriptorByteLength(big)).toBe(5008);
    expect(eventByteLength({ stored: { item: big } })).toBe(5014);
    const unknowns = { cause: 1, $unknowns: [Uint8Array.of(16, 7)] };
    expect(fastEventLength({ cleared: unknowns })).toBe(-1);
    expect(eventByteLength({ cleared: unknowns })).toBe(ectp.v1.Event.encode({ cleared: unknowns }).finish().length);
  });

  it("a value a field cannot carry is a typed INVALID_ARGUMENT naming the field, on the generated encoder's path too", () => {
    // 5,000 location bytes: past the fast path's scratch, so the generated encoder sizes it.
    const bad = { producerId: 5, sizeBytes: 1, location: new Uint8Array(5000) } as unknown as ectp.v1.IItemDescriptor;
    for (const size of [() => itemDescriptorByteLength(bad), () => eventByteLength({ stored: { item: bad } })]) {
      let thrown: unknown;
      try {
        size();
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(EctpError);
      expect(thrown).toMatchObject({ code: "INVALID_ARGUMENT" });
      expect((thrown as Error).message).toMatch(/could not be encoded: producerId must be a string/);
    }
  });
});

describe("fast envelope decoder [V1][I1]", () => {
  it("decodes every read-path encoding (no decline) to the generated decoder's object", () => {
    fc.assert(
      fc.property(fastEnvelope, (env) => {
        const bytes = genEncode(env) as Uint8Array;
        const fast = fastDecodeEnvelope(bytes);
        expect(fast).toBeDefined();
        expect(difference(fast, Envelope.decode(bytes))).toBeUndefined();
        expect(fast?.body).toBe(Envelope.decode(bytes).body);
      }),
      { numRuns: 2000 },
    );
  });

  it("builds the same byte views for a Buffer, a plain Uint8Array at an offset and a subclass", () => {
    class Sub extends Uint8Array {}
    fc.assert(
      fc.property(fastEnvelope, fc.nat({ max: 7 }), (env, offset) => {
        const enc = genEncode(env) as Uint8Array;
        const backing = new ArrayBuffer(enc.length + offset);
        const inputs: Uint8Array[] = [
          Buffer.from(enc),
          new Uint8Array(backing, offset, enc.length),
          new Sub(enc),
        ];
        (inputs[1] as Uint8Array).set(enc);
        for (const input of inputs) {
          const fast = fastDecodeEnvelope(input);
          expect(fast).toBeDefined();
          expect(difference(fast, Envelope.decode(input))).toBeUndefined();
        }
      }),
      { numRuns: 300 },
    );
  });

  it("never differs from the generated decoder on damaged bytes: the same object, or a decline (never a throw)", () => {
    fc.assert(
      fc.property(
        fastEnvelope,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom("set", "insert", "delete")), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.nat(),
        (env, edits, cut) => {
          const bytes = Array.from(genEncode(env) as Uint8Array);
          for (const [at, value, op] of edits) {
            const i = bytes.length === 0 ? 0 : at % (bytes.length + (op === "insert" ? 1 : 0));
            if (op === "set" && bytes.length > 0) bytes[i] = value;
            else if (op === "insert") bytes.splice(i, 0, value);
            else if (bytes.length > 0) bytes.splice(i, 1);
          }
          const damaged = Buffer.from(bytes.slice(0, bytes.length - (cut % 3 === 0 ? cut % 5 : 0)));
          const fast = fastDecodeEnvelope(damaged); // [I1] never throws
          if (fast === undefined) return;
          const gen = genDecode(damaged);
          expect(gen).not.toBeInstanceOf(Error);
          expect(difference(fast, gen)).toBeUndefined();
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("treats explicit zero, empty and false values on the wire as absent, as the generated decoder does", () => {
    const cases = [
      // version {} , senderId "", senderEpoch 0, readComplete { grantId 0, status 0, detail "" }
      [0x0a, 0x00, 0x12, 0x00, 0x18, 0x00, 0x7a, 0x06, 0x08, 0x00, 0x10, 0x00, 0x1a, 0x00],
      // version { major 0, minor 0 }, heartbeat { sequence 0 }
      [0x0a, 0x04, 0x08, 0x00, 0x10, 0x00, 0x82, 0x01, 0x02, 0x08, 0x00],
      // readReject { attemptId 0, reason 0, retryable false, retryAfterMs 0, detail "" }
      [0x72, 0x0a, 0x08, 0x00, 0x10, 0x00, 0x18, 0x00, 0x20, 0x00, 0x2a, 0x00],
      // readRequest { attemptId 0, key { contentHash "", fingerprint { model "", dtype 0, rowBytes 0, layoutVersion 0 } }, 0, 0 }
      [0x62, 0x14, 0x08, 0x00, 0x12, 0x0c, 0x0a, 0x00, 0x12, 0x08, 0x0a, 0x00, 0x10, 0x00, 0x18, 0x00, 0x20, 0x00, 0x18, 0x00, 0x20, 0x00],
      // readGrant { 0, 0, item { key {}, sizeBytes 0, dtype 0, shape [], checksum { 0, "" }, producerId "", epoch 0, location "" }, leaseMs 0 }
      [0x6a, 0x1c, 0x08, 0x00, 0x10, 0x00, 0x1a, 0x14, 0x0a, 0x00, 0x10, 0x00, 0x18, 0x00, 0x22, 0x00, 0x2a, 0x04, 0x08, 0x00, 0x12, 0x00, 0x32, 0x00, 0x38, 0x00, 0x42, 0x00, 0x20, 0x00],
    ];
    for (const c of cases) {
      const bytes = Buffer.from(c);
      const fast = fastDecodeEnvelope(bytes);
      expect(fast).toBeDefined();
      expect(difference(fast, Envelope.decode(bytes))).toBeUndefined();
    }
  });

  it("decodes 5-byte uint32 and 8-byte uint64 varints as Reader does (high bits dropped, one rounding)", () => {
    // senderEpoch 2^56 - 1 (8 bytes: rounds to 2^56), readReject { reason: 5-byte varint with
    // bits above 32 (dropped), retryAfterMs 2^32 - 1 }.
    const bytes = Buffer.from([
      0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
      0x72, 0x0c, 0x10, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x20, 0xff, 0xff, 0xff, 0xff, 0x0f,
    ]);
    const fast = fastDecodeEnvelope(bytes);
    expect(fast).toBeDefined();
    expect(difference(fast, Envelope.decode(bytes))).toBeUndefined();
    expect(fast?.senderEpoch).toBe(2 ** 56);
    expect(fast?.readReject?.reason).toBe(-1);
  });

  it("declines non-canonical input (repeated, reordered or unknown fields, other bodies) for the generated decoder", () => {
    const base = encodeEnvelope({ version: SPEC_VERSION, senderId: "c", senderEpoch: 1, heartbeat: { sequence: 2 } });
    // senderEpoch again at the end (the generated decoder keeps the last value).
    expect(fastDecodeEnvelope(Uint8Array.from([...base, 0x18, 0x05]))).toBeUndefined();
    // An unknown field 30 (kept in $unknowns by the generated decoder).
    expect(fastDecodeEnvelope(Uint8Array.from([...base, 0xf0, 0x01, 0x01]))).toBeUndefined();
    const hello = encodeEnvelope({ version: SPEC_VERSION, senderId: "c", senderEpoch: 1, hello: { role: 2 } });
    expect(fastDecodeEnvelope(hello)).toBeUndefined();
    // decodeEnvelope decodes the others, and refuses the repeated field (SPEC section 5).
    const repeated = decodeEnvelope(Uint8Array.from([...base, 0x18, 0x05]));
    expect(repeated.ok || repeated.error.message).toContain("field senderEpoch occurs twice in one message");
    const unknown = decodeEnvelope(Uint8Array.from([...base, 0xf0, 0x01, 0x01]));
    expect(unknown.ok && difference(unknown.value, Envelope.decode(Uint8Array.from([...base, 0xf0, 0x01, 0x01])))).toBeUndefined();
    expect(decodeEnvelope(hello).ok).toBe(true);
  });

  it("decodeEnvelope still answers malformed bytes with a typed MALFORMED_MESSAGE [I1]", () => {
    const bytes = encodeEnvelope({ version: SPEC_VERSION, senderId: "c", senderEpoch: 1, readComplete: { grantId: 3, status: 1 } });
    const truncated = bytes.subarray(0, bytes.length - 1);
    expect(fastDecodeEnvelope(truncated)).toBeUndefined();
    const decoded = decodeEnvelope(truncated);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error.code).toBe("MALFORMED_MESSAGE");
  });
});

describe("fast codec field coverage", () => {
  // The hand-written codec knows these fields by name. A field added to one of these messages
  // in spec/proto would be silently dropped by fastEncodeEnvelope, so this pins the generated
  // field lists: when it fails, teach fast-codec.ts the new field (encoder, decoder and the
  // arbitraries above), then update the list here.
  const KNOWN: Record<string, string[]> = {
    Envelope: ["version", "senderId", "senderEpoch", "hello", "handshakeReject", "readRequest", "readGrant", "readReject",
      "readComplete", "heartbeat", "eventBatch", "replayRequest", "replayUnavailable", "snapshotRequest", "snapshot", "announcement"],
    SpecVersion: ["major", "minor"],
    ReadRequest: ["attemptId", "key", "expectedEpoch", "expectedSizeBytes"],
    ReadGrant: ["attemptId", "grantId", "item", "leaseMs"],
    ReadReject: ["attemptId", "reason", "retryable", "retryAfterMs", "detail"],
    ReadComplete: ["grantId", "status", "detail"],
    Heartbeat: ["sequence"],
    ItemDescriptor: ["key", "sizeBytes", "dtype", "shape", "checksum", "producerId", "epoch", "location"],
    ItemKey: ["contentHash", "fingerprint"],
    Fingerprint: ["model", "dtype", "rowBytes", "layoutVersion"],
    Checksum: ["algorithm", "value"],
    Event: ["stored", "removed", "cleared"],
    Stored: ["item"],
    Removed: ["key", "cause"],
    Cleared: ["cause"],
  };
  it.each(Object.keys(KNOWN))("the generated %s has exactly the fields the fast codec handles", (name) => {
    const proto = (ectp.v1 as unknown as Record<string, { prototype: object }>)[name]!.prototype;
    const fields = Object.keys(proto).filter((k) => k !== "toJSON");
    expect(fields).toEqual(KNOWN[name]);
  });
});

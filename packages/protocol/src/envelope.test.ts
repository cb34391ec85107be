import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import $protobuf from "protobufjs/minimal.js";
import { describe, expect, it } from "vitest";
import { decodeEnvelope, encodeEnvelope, envelopeBodyName } from "./envelope.js";
import { crc32cBytes } from "./checksum.js";
import { EctpError } from "./errors.js";
import { fastDecodeEnvelope } from "./fast-codec.js";
import { FRAME_HEADER_BYTES, FrameDecoder, encodeFrame } from "./framing.js";
import { ectp } from "./gen/ectp.js";
import { MAX_REPEATED_ELEMENTS } from "./limits.js";
import { SPEC_VERSION } from "./version.js";

const valid: ectp.v1.IEnvelope = {
  version: SPEC_VERSION,
  senderId: "encoder-0",
  senderEpoch: 1_700_000_000_001,
  heartbeat: { sequence: 3 },
};

/** Bytes of an envelope as a faulty peer may send them: the generated encoder checks no header (encodeEnvelope refuses these). */
function generatedBytes(envelope: ectp.v1.IEnvelope): Uint8Array {
  return ectp.v1.Envelope.encode(envelope).finish();
}

/** `encodeEnvelope(env)` throws INVALID_ARGUMENT whose message contains `message`. */
function expectEncodeRefused(env: ectp.v1.IEnvelope, message: string): void {
  let thrown: unknown;
  try {
    encodeEnvelope(env);
  } catch (e) {
    thrown = e;
  }
  expect(EctpError.is(thrown) && thrown.code, message).toBe("INVALID_ARGUMENT");
  expect((thrown as Error).message).toContain(message);
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

describe("encodeEnvelope / decodeEnvelope", () => {
  it("[V1] encodeEnvelope refuses an envelope without a version, sender id or sender epoch, which every receiver refuses", () => {
    const cases: [ectp.v1.IEnvelope, string][] = [
      [{ ...valid, version: undefined }, "it has no version; set version: SPEC_VERSION"],
      [{ ...valid, version: null }, "it has no version; set version: SPEC_VERSION"],
      [{ ...valid, version: {} }, "version.major is undefined: no spec has major 0"],
      [{ ...valid, version: { major: 0, minor: 3 } }, "version.major is 0: no spec has major 0"],
      [{ ...valid, senderId: undefined }, "it has no senderId"],
      [{ ...valid, senderId: "" }, "it has no senderId"],
      [{ ...valid, senderEpoch: undefined }, "it has no senderEpoch; set the sender's epoch, 1 or more"],
      [{ ...valid, senderEpoch: 0 }, "it has no senderEpoch; set the sender's epoch, 1 or more"],
    ];
    for (const [env, message] of cases) {
      expectEncodeRefused(env, message);
      // What a receiver makes of the same envelope from an encoder without the check.
      expect(decodeEnvelope(generatedBytes(env)).ok).toBe(false);
    }
    // Another major is a version: encoded as given (the receiver answers VERSION).
    expect(decodeEnvelope(encodeEnvelope({ ...valid, version: { major: 2 } }))).toMatchObject({ ok: false, error: { code: "VERSION" } });
  });

  it("[V1] encodeEnvelope refuses an announcement without a version, which every consumer refuses [C2]", () => {
    const item = { key: { contentHash: Uint8Array.of(1) }, sizeBytes: 4, producerId: "encoder-0", epoch: 1 };
    const head = { version: SPEC_VERSION, senderId: "encoder-0", senderEpoch: 1 };
    expectEncodeRefused({ ...head, announcement: { item } }, "announcement.version is missing; set announcement.version: SPEC_VERSION");
    expectEncodeRefused({ ...head, announcement: { version: {}, item } }, "announcement.version.major is undefined");
    expectEncodeRefused({ ...head, announcement: { version: { major: 0, minor: 1 }, item } }, "announcement.version.major is 0");
    const sent = decodeEnvelope(encodeEnvelope({ ...head, announcement: { version: SPEC_VERSION, item } }));
    expect(sent.ok && sent.value.announcement?.version?.major).toBe(SPEC_VERSION.major);
  });

  it("[I1] decodes, and keeps its stack-trace saving, only where Error.stackTraceLimit can be set (not under --frozen-intrinsics)", () => {
    const own = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit");
    check(own !== undefined && own.configurable === true, "Error.stackTraceLimit is an own configurable property in V8");
    Object.defineProperty(Error, "stackTraceLimit", { ...own, writable: false });
    try {
      expect(decodeEnvelope(encodeEnvelope(valid))).toMatchObject({ ok: true, value: { heartbeat: { sequence: 3 } } });
      expect(decodeEnvelope(Uint8Array.of(0xff))).toMatchObject({ ok: false, error: { code: "MALFORMED_MESSAGE" } });
    } finally {
      Object.defineProperty(Error, "stackTraceLimit", own);
    }
  });

  it("[I1] still answers when Error.stackTraceLimit is frozen during the decode (it cannot be put back)", () => {
    const own = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit");
    check(own !== undefined && own.configurable === true, "Error.stackTraceLimit is an own configurable property in V8");
    let limit = own.value as number;
    let sets = 0;
    // Settable once (the decode's own 0), frozen from then on: putting the old limit back throws.
    Object.defineProperty(Error, "stackTraceLimit", {
      configurable: true,
      get: () => limit,
      set: (v: number) => {
        if (++sets > 1) throw new TypeError("Cannot assign to read only property 'stackTraceLimit'");
        limit = v;
      },
    });
    try {
      expect(decodeEnvelope(Uint8Array.of(0xff))).toMatchObject({ ok: false, error: { code: "MALFORMED_MESSAGE" } });
      expect(sets).toBe(2);
    } finally {
      Object.defineProperty(Error, "stackTraceLimit", own);
    }
  });

  it("keeps its message classes to itself: a module registering its own namespace in protobufjs' shared roots changes nothing", () => {
    const roots = $protobuf.roots as Record<string, { ectp?: unknown } | undefined>;
    // What a second copy of this package, or any pbjs output generated under the default root, does on load.
    roots.default ??= {};
    const shared = roots.default;
    const saved = shared.ectp;
    shared.ectp = { v1: {} };
    try {
      const hello = { ...valid, heartbeat: undefined, hello: { role: 1, capabilities: ["events.v1"] } };
      const decoded = decodeEnvelope(encodeEnvelope(hello));
      expect(decoded).toMatchObject({ ok: true, value: { hello: { capabilities: ["events.v1"] } } });
      expect(decoded.ok && decoded.value instanceof ectp.v1.Envelope).toBe(true);
    } finally {
      if (saved === undefined) delete shared.ectp;
      else shared.ectp = saved;
    }
  });

  it("round-trips a valid envelope with 64-bit fields as plain numbers", () => {
    const decoded = decodeEnvelope(encodeEnvelope(valid));
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.value.senderEpoch).toBe(1_700_000_000_001);
    expect(typeof decoded.value.heartbeat?.sequence).toBe("number");
    expect(decoded.value.body).toBe("heartbeat");
  });

  it("decodes a uint64 above 2^53 - 1 as an unsafe number, never a Long, so validation rejects it", () => {
    // sender_epoch = 2^64 - 1 (varint of ten bytes).
    const bytes = generatedBytes({ version: SPEC_VERSION, senderId: "p" });
    const big = Uint8Array.from([...bytes, 0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    const decoded = decodeEnvelope(big);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.error.code).toBe("MALFORMED_MESSAGE");
    expect(typeof decoded.envelope?.senderEpoch).toBe("number");
    expect(Number.isSafeInteger(decoded.envelope?.senderEpoch)).toBe(false);
  });

  it("rejects a missing version as VERSION [V1], keeping the envelope for a typed reply", () => {
    const decoded = decodeEnvelope(generatedBytes({ senderId: "c", senderEpoch: 1 }));
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.error.code).toBe("VERSION");
    expect(decoded.error.message).toBe("[VERSION] envelope speaks spec major 0; this implementation speaks 1");
    expect(decoded.envelope?.senderId).toBe("c");
  });

  it("rejects another major version as VERSION [V1] but accepts any minor [V2]", () => {
    const other = decodeEnvelope(encodeEnvelope({ ...valid, version: { major: 2, minor: 0 } }));
    expect(other.ok || other.error.code).toBe("VERSION");
    expect(decodeEnvelope(encodeEnvelope({ ...valid, version: { major: 1, minor: 99 } })).ok).toBe(true);
  });

  it("rejects a missing sender id or epoch, or an epoch past 2^53 - 1, as MALFORMED_MESSAGE naming which", () => {
    // sender_epoch = 2^53 (varint 0x80 x 7, 0x10), which no encoder here writes.
    const big = Uint8Array.from([...generatedBytes({ ...valid, senderEpoch: undefined }), 0x18, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10]);
    for (const [bytes, message] of [
      [generatedBytes({ ...valid, senderId: "" }), "envelope has no sender_id"],
      [generatedBytes({ ...valid, senderEpoch: 0 }), "envelope sender_epoch 0 is not a positive integer below 2^53"],
      [big, "envelope sender_epoch ~9.007199e+15 is not a positive integer below 2^53"],
    ] as const) {
      const decoded = decodeEnvelope(bytes);
      expect(decoded.ok).toBe(false);
      if (decoded.ok) return;
      expect(decoded.error.message).toBe(`[MALFORMED_MESSAGE] ${message}`);
    }
  });

  it("turns bytes that are not protobuf into MALFORMED_MESSAGE with the cause kept", () => {
    const decoded = decodeEnvelope(Uint8Array.of(0x0a, 0x05, 0x01));
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.error.message).toBe(
      "[MALFORMED_MESSAGE] envelope of 3 bytes is not valid protobuf: index out of range (at version, byte 0: a length of 5 runs past the 1 byte left in its envelope); ignore it (SPEC.md [C10]), and if a peer keeps sending such bytes, check its encoder and the framing",
    );
    expect(decoded.error.cause).toBeInstanceOf(Error);
  });

  // Mutant: the decoder's errors capture stack traces (a 1-byte envelope cost 16 us of CPU against
  // 0.13 us for a valid heartbeat; 16 MiB of such frames took 70 s to decode).
  it("[C10] a peer's malformed or other-version bytes cost no stack trace, and the process's stackTraceLimit is kept", () => {
    const limit = Error.stackTraceLimit;
    for (const bytes of [Uint8Array.of(0xff), Uint8Array.of(0x0a, 0x05, 0x01), new Uint8Array(0)]) {
      const decoded = decodeEnvelope(bytes);
      expect(decoded.ok).toBe(false);
      if (decoded.ok) continue;
      expect(stackFrames(decoded.error), `frames of ${bytes.length} bytes' error`).toBe(0);
      expect(stackFrames(decoded.error.cause), `frames of ${bytes.length} bytes' cause`).toBe(0);
      expect(Error.stackTraceLimit).toBe(limit);
    }
    expect(stackFrames(new Error("local"))).toBeGreaterThan(0); // stacks elsewhere are untouched
  });

  it("[V1] another major's envelope whose body does not parse as ours is VERSION, with its frozen fields", () => {
    // version 2.0, sender "v2peer", epoch 7; body field 10 with a length-delimited field 3 (a varint in v1's Hello).
    const v2hello = Buffer.from("0a02080212067632706565721807520608021a02ffff", "hex");
    const d = decodeEnvelope(v2hello);
    expect(d.ok || d.error.code).toBe("VERSION");
    expect(!d.ok && d.envelope).toMatchObject({ version: { major: 2 }, senderId: "v2peer", senderEpoch: 7 });
    expect(!d.ok && d.envelope?.hello).toBeTruthy(); // so a producer answers it with a HandshakeReject [V1]
    // No version at all, and a body that does not parse: VERSION (major 0), not MALFORMED.
    const unversioned = decodeEnvelope(v2hello.subarray(4));
    expect(unversioned.ok || [unversioned.error.code, unversioned.envelope?.senderId]).toEqual(["VERSION", "v2peer"]);
    // Our own major with a body that does not parse stays MALFORMED.
    const v1bad = Buffer.from(v2hello);
    v1bad[3] = 1;
    const m = decodeEnvelope(v1bad);
    expect(m.ok || m.error.code).toBe("MALFORMED_MESSAGE");
  });

  it("[V1] another major's HandshakeReject is read from its frozen fields 1 to 3, whatever else it carries", () => {
    // version 3.0, sender "p", epoch 9, an unknown field 4; body field 11: reason VERSION (5),
    // detail "x", supported 3.0, a field 4 of another type than v1's.
    const reject = Buffer.from("0a020803" + "120170" + "1809" + "2001" + "5a0c" + "08051201781a020803" + "2201ff", "hex");
    const d = decodeEnvelope(reject);
    expect(d.ok || d.error.code).toBe("VERSION");
    expect(!d.ok && d.envelope?.handshakeReject).toMatchObject({ reason: 5, detail: "x", supported: { major: 3 } });
    expect(!d.ok && d.envelope?.hello).toBeFalsy(); // never answered as a Hello
  });

  it("[V1] SPEC section 5: an envelope of another major with two bodies, or a field twice, is malformed, never answered", () => {
    // version 3.0, sender "p", epoch 9; a body field 10, then body field 11; first readable by v1, then not.
    for (const hello of ["52020802", "5206" + "08021a02ffff"]) {
      const twoBodies = Buffer.from(`0a0208031201701809${hello}5a0908051201781a020803`, "hex");
      const d = decodeEnvelope(twoBodies);
      expect(d.ok || d.error.code).toBe("MALFORMED_MESSAGE");
      expect(!d.ok && d.envelope).toBeUndefined();
    }
    const readable = decodeEnvelope(Buffer.from("0a02080312017018095202080252020802", "hex"));
    expect(!readable.ok && readable.error.message).toContain("field hello occurs after oneof body was already set");
    // The version twice; then, inside the HandshakeReject body, its detail twice.
    for (const hex of ["0a020803" + "0a020803" + "120170" + "1809" + "5a00", "0a020803" + "120170" + "1809" + "5a06" + "120178" + "120178"]) {
      const r = decodeEnvelope(Buffer.from(hex, "hex"));
      expect(r.ok || r.error.code, hex).toBe("MALFORMED_MESSAGE");
    }
  });

  it("ignores unknown fields from a newer minor version [V2]", () => {
    const bytes = Uint8Array.from([...encodeEnvelope(valid), 0xf8, 0x3e, 0x01]); // field 999, varint 1
    expect(decodeEnvelope(bytes).ok).toBe(true);
  });

  it("[V1] unknown fields inside a field-less body are skipped like anywhere else: groups too, field number 0 never", () => {
    const head = "0a0208011201611801"; // version 1, sender "a", epoch 1
    const decode = (body: string) => {
      const r = decodeEnvelope(Buffer.from(head + body, "hex"));
      return r.ok ? Object.keys(r.value).filter((k) => k !== "version" && k !== "senderId" && k !== "senderEpoch") : r.error.code;
    };
    expect(decode("a20100")).toEqual(["snapshotRequest"]);
    expect(decode("a201049b069c06")).toEqual(["snapshotRequest"]); // an unknown group, field 99
    expect(decode("a201021b1c")).toEqual(["snapshotRequest"]); // an unknown group, field 3
    expect(decode("a201020200")).toBe("MALFORMED_MESSAGE"); // field number 0, as in any other body
    expect(decode("a201050500000000")).toBe("MALFORMED_MESSAGE");
    expect(decode("8201020200")).toBe("MALFORMED_MESSAGE"); // (a heartbeat with field 0: refused before too)
  });

  it("[I1] an unknown field's varint of more than 10 bytes is malformed, as it is in a known field (and to the Python reference)", () => {
    const head = "0a0208011201611801"; // version 1, sender "a", epoch 1
    const code = (hex: string) => {
      const r = decodeEnvelope(Buffer.from(hex, "hex"));
      return r.ok ? "ok" : r.error.code;
    };
    expect(code(`${head}82010c08${"80".repeat(10)}00`)).toBe("MALFORMED_MESSAGE"); // known: heartbeat.sequence
    expect(code(`${head}20${"80".repeat(9)}01820100`)).toBe("ok"); // unknown field 4, 10 bytes
    expect(code(`${head}20${"80".repeat(10)}00820100`)).toBe("MALFORMED_MESSAGE"); // unknown field 4, 11 bytes
    expect(code(`${head}9b0608${"80".repeat(10)}009c06820100`)).toBe("MALFORMED_MESSAGE"); // inside an unknown group
    expect(code(`${head}720c28${"80".repeat(10)}00`)).toBe("MALFORMED_MESSAGE"); // readReject.detail sent as a varint
    expect(code(`0a0208021201611801${"20"}${"80".repeat(10)}005200`)).toBe("MALFORMED_MESSAGE"); // another major's frozen fields
  });

  it("[I1] groups nest at most 100 deep counting the messages around them, an empty innermost group included", () => {
    const head = "0a0208011201611801";
    const nested = (depth: number, inner = "") => "23".repeat(depth) + inner + "24".repeat(depth);
    const code = (hex: string) => {
      const r = decodeEnvelope(Buffer.from(hex, "hex"));
      return r.ok ? "ok" : r.error.code;
    };
    expect(code(`${head}${nested(100)}820100`)).toBe("ok");
    expect(code(`${head}${nested(101, "0801")}820100`)).toBe("MALFORMED_MESSAGE");
    expect(code(`${head}${nested(101)}820100`)).toBe("MALFORMED_MESSAGE");
    // Inside a heartbeat body (one message deeper): 99 groups fit, 100 do not, empty or not.
    const inHeartbeat = (depth: number) => {
      const body = nested(depth);
      return `${head}8201${Buffer.from([((body.length / 2) & 0x7f) | 0x80, (body.length / 2) >> 7]).toString("hex")}${body}`;
    };
    expect(code(inHeartbeat(99))).toBe("ok");
    expect(code(inHeartbeat(100))).toBe("MALFORMED_MESSAGE");
  });

  it("[V1] bytes of another major that are not protobuf at all are malformed, not VERSION (field 0, over-long tags, invalid UTF-8)", () => {
    const code = (hex: string) => {
      const r = decodeEnvelope(Buffer.from(hex, "hex"));
      return r.ok ? "ok" : r.error.code;
    };
    const major2 = "0a0208021201611801"; // version 2, sender "a", epoch 1
    expect(code(`${major2}5200`)).toBe("VERSION"); // a Hello of major 2: answered
    expect(code(`${major2}9b069c065200`)).toBe("VERSION"); // an unknown group is still protobuf
    expect(code(`${major2}00015200`)).toBe("MALFORMED_MESSAGE"); // field number 0
    expect(code(`${major2}f88180808000015200`)).toBe("MALFORMED_MESSAGE"); // a 6-byte tag
    expect(code("0a0208021202c08018015200")).toBe("MALFORMED_MESSAGE"); // sender_id not UTF-8
    expect(code("120161180100015200")).toBe("MALFORMED_MESSAGE"); // no version, field 0
    expect(code("0a8280808080000802" + "12016118015200")).toBe("MALFORMED_MESSAGE"); // the version's length in 6 bytes
    // (and in the generated decoders: a packed field's length, too)
    expect(() => ectp.v1.ItemDescriptor.decode(Buffer.from("22808080808000", "hex"))).toThrow(/invalid length encoding/);
    // A HandshakeReject of major 2 (reason 5): with detail "x", and with a detail that is not UTF-8.
    expect(code(`${major2}5a050805120178`)).toBe("VERSION");
    expect(code(`${major2}5a0608051202c080`)).toBe("MALFORMED_MESSAGE");
  });

  it("encodeEnvelope's refusal of bytes where a message belongs says what they are (it said `got object`)", () => {
    const head = { version: SPEC_VERSION, senderId: "c", senderEpoch: 1 };
    const refusal = (env: unknown) => {
      try {
        encodeEnvelope(env as ectp.v1.IEnvelope);
      } catch (e) {
        return (e as EctpError).message;
      }
      throw new Error("encoded");
    };
    expect(refusal({ ...head, readGrant: { attemptId: 1, grantId: 1, item: { checksum: crc32cBytes(new Uint8Array(3)) } } })).toBe(
      "[INVALID_ARGUMENT] envelope could not be encoded: checksum must be an object (a message); got a Uint8Array",
    );
    expect(refusal({ ...head, readGrant: { attemptId: 1, grantId: 1, item: { checksum: crc32cBytes(new Uint8Array(3)).buffer } } })).toBe(
      "[INVALID_ARGUMENT] envelope could not be encoded: checksum must be an object (a message); got an ArrayBuffer",
    );
    expect(refusal({ ...head, heartbeat: new DataView(new ArrayBuffer(2)) })).toContain("heartbeat must be an object (a message); got a DataView");
    expect(refusal({ ...head, heartbeat: new Int16Array(1) })).toContain("heartbeat must be an object (a message); got an Int16Array");
    expect(refusal({ ...head, heartbeat: () => 1 })).toContain("heartbeat must be an object (a message); got a function");
  });

  it("[V1][C11] encodeEnvelope names a version (or announcement.version) that is bytes, an array or no object (it said `version.major is undefined`)", () => {
    const head = { senderId: "c", senderEpoch: 1 };
    const item = { key: { contentHash: Uint8Array.of(1) }, sizeBytes: 4, producerId: "c", epoch: 1 };
    const kinds: [unknown, string][] = [
      [new DataView(new ArrayBuffer(2)), "a DataView"],
      [Uint8Array.of(1, 0), "a Uint8Array"],
      [new ArrayBuffer(2), "an ArrayBuffer"],
      [[1, 0], "an array"],
      [1, "1"],
      ["1.0", '"1.0"'],
    ];
    for (const [version, shown] of kinds) {
      expectEncodeRefused({ ...head, version: version as never, heartbeat: {} }, `envelope could not be encoded: version must be an object (ectp.v1.ISpecVersion: major and minor); got ${shown}; set version: SPEC_VERSION [V1]`);
      expectEncodeRefused(
        { ...head, version: SPEC_VERSION, announcement: { version: version as never, item } },
        `envelope could not be encoded: announcement.version must be an object (ectp.v1.ISpecVersion: major and minor); got ${shown}; set announcement.version: SPEC_VERSION [V1]`,
      );
    }
    // An announcement that is itself bytes is named as such (it said `announcement.version is missing`).
    expectEncodeRefused({ ...head, version: SPEC_VERSION, announcement: new DataView(new ArrayBuffer(2)) as never }, "announcement must be an object (a message); got a DataView");
  });

  it("encodeEnvelope refuses a value of the wrong type, naming the field, instead of coercing it into another value", () => {
    const head = { version: SPEC_VERSION, senderId: "c", senderEpoch: 1 };
    const key = { contentHash: new Uint8Array([1]) };
    const cases: [unknown, string][] = [
      [{ ...head, readRequest: { attemptId: 1, key: { contentHash: "abc" } } }, "contentHash must be a Uint8Array (or an array of byte values); got string"], // was base64: another key
      [{ ...head, readRequest: { attemptId: 1, key: { contentHash: [1, 2, 300] } } }, "contentHash must be a Uint8Array (or an array of byte values); got an array"],
      [{ ...head, readRequest: { attemptId: 1, key: { contentHash: 5 } } }, "contentHash must be a Uint8Array (or an array of byte values); got number"], // was skipped: an empty key
      [{ ...head, readRequest: { attemptId: 1, key: { contentHash: new ArrayBuffer(4) } } }, "contentHash must be a Uint8Array (or an array of byte values); got an ArrayBuffer"],
      [{ ...head, readRequest: { attemptId: 1, key: Buffer.from("abc") } }, "key must be an object (a message); got a Uint8Array"],
      [5, "an envelope is an object (ectp.v1.IEnvelope); got 5"], // was empty bytes
      [[], "an envelope is an object (ectp.v1.IEnvelope); got an array"],
      [{ ...head, readReject: { attemptId: 1, retryable: "no" } }, "retryable must be a boolean; got string"], // was true
      [{ ...head, hello: { role: 2, capabilities: "abc" } }, "capabilities must be an array; got string"], // was ["a", "b", "c"]
      [{ ...head, hello: { role: 2, capabilities: [7] } }, "capabilities must be a string; got number"],
      [{ ...head, heartbeat: 5 }, "heartbeat must be an object (a message); got number"], // was an empty heartbeat
      [{ ...head, heartbeat: [] }, "heartbeat must be an object (a message); got an array"],
      [{ ...head, senderId: 42, heartbeat: {} }, "senderId must be a string; got number"], // was an empty sender id
      [{ ...head, senderId: "p\ud800", heartbeat: {} }, "senderId must be well-formed UTF-16 (no lone surrogate)"], // was invalid UTF-8
      [{ ...head, readReject: { attemptId: 1, detail: "x\udc00y" } }, "detail must be well-formed UTF-16 (no lone surrogate)"],
      [{ ...head, readRequest: { attemptId: 1, key: { ...key, fingerprint: { model: 3 } } } }, "model must be a string; got number"],
    ];
    for (const [env, message] of cases) {
      let thrown: unknown;
      try {
        encodeEnvelope(env as ectp.v1.IEnvelope);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, message).toBeInstanceOf(EctpError);
      expect((thrown as EctpError).code).toBe("INVALID_ARGUMENT");
      expect((thrown as EctpError).message).toContain(message);
    }
    // What protobufjs itself produces still encodes: fromObject keeps a bytes array as an array
    // (toObject with bytes: Array round-trips), and a Uint8Array of another realm is one.
    const viaObject = ectp.v1.Envelope.fromObject({ ...head, readRequest: { attemptId: 1, key: { contentHash: [1, 2, 3] } } });
    const round = decodeEnvelope(encodeEnvelope(viaObject));
    expect(round.ok && [...(round.value.readRequest?.key?.contentHash ?? [])]).toEqual([1, 2, 3]);
    const foreign = runInNewContext("new Uint8Array([4, 5])") as Uint8Array;
    const fromRealm = decodeEnvelope(encodeEnvelope({ ...head, readRequest: { attemptId: 1, key: { contentHash: foreign } } }));
    expect(fromRealm.ok && [...(fromRealm.value.readRequest?.key?.contentHash ?? [])]).toEqual([4, 5]);
    // Well-formed non-ASCII text still encodes and decodes.
    const ok = decodeEnvelope(encodeEnvelope({ ...head, senderId: "prod-é-😀", heartbeat: {} }));
    expect(ok.ok && ok.value.senderId).toBe("prod-é-😀");
  });

  it("encodeEnvelope reports a non-encodable value as INVALID_ARGUMENT", () => {
    const bad = {
      ...valid,
      get senderId(): string {
        throw new TypeError("hostile getter");
      },
    } as ectp.v1.IEnvelope;
    let thrown: unknown;
    try {
      encodeEnvelope(bad);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(EctpError);
    expect((thrown as EctpError).message).toBe("[INVALID_ARGUMENT] envelope could not be encoded: hostile getter");
    expect((thrown as EctpError).cause).toBeInstanceOf(TypeError);
  });

  it("[I1] an integer its field cannot carry is refused with INVALID_ARGUMENT naming the field, never wrapped into another value", () => {
    const head = { version: SPEC_VERSION, senderId: "c", senderEpoch: 1 };
    const key = { contentHash: new Uint8Array([1]) };
    const cases: [ectp.v1.IEnvelope, string][] = [
      [{ ...head, readRequest: { attemptId: 2 ** 64 + 2 ** 20, key } }, "attemptId must be an integer in [0, 2^53); got 18446744073710600000"],
      [{ ...head, senderEpoch: 2 ** 64 + 2 ** 13, heartbeat: { sequence: 1 } }, "senderEpoch must be an integer in [0, 2^53)"],
      [{ ...head, readComplete: { grantId: 1.5 } }, "grantId must be an integer in [0, 2^53); got 1.5"],
      [{ ...head, heartbeat: { sequence: -1 } }, "sequence must be an integer in [0, 2^53); got -1"],
      [{ ...head, readGrant: { attemptId: 1, grantId: 1, leaseMs: 2 ** 32 } }, "leaseMs must be an integer in [0, 2^32); got 4294967296"],
      [{ ...head, readReject: { attemptId: 1, reason: 2 ** 31 } }, "reason must be an integer in [0, 2^31); got 2147483648"],
      // [V1] Enum values are never negative (every int32 of ectp.v1 is an enum).
      [{ ...head, readReject: { attemptId: 1, reason: -1 as ectp.v1.FailureReason } }, "reason must be an integer in [0, 2^31); got -1"],
      [{ ...head, readGrant: { attemptId: 1, grantId: 1, item: { key, sizeBytes: 8, dtype: -3 as ectp.v1.Dtype } } }, "dtype must be an integer in [0, 2^31); got -3"],
      [{ ...head, readGrant: { attemptId: 1, grantId: 1, item: { key, sizeBytes: 8, shape: [2, -4] } } }, "shape[1] must be an integer in [0, 2^53); got -4"],
      [{ ...head, hello: { role: 2, heartbeatIntervalMs: 0.5 } }, "heartbeatIntervalMs must be an integer in [0, 2^32); got 0.5"],
      // Objects are no Long here (64-bit fields are numbers): neither left out as "absent" nor put on the wire.
      [{ ...head, senderEpoch: {} as unknown as number, heartbeat: { sequence: 1 } }, "senderEpoch must be an integer in [0, 2^53); got object"],
      [{ ...head, heartbeat: { sequence: { low: -1, high: -1 } as unknown as number } }, "sequence must be an integer in [0, 2^53); got object"],
      [{ ...head, readGrant: { attemptId: 1, grantId: 1, item: { key, sizeBytes: { low: 5, high: 2 ** 22 } as unknown as number } } }, "sizeBytes must be an integer in [0, 2^53); got object"],
      [{ ...head, readGrant: { attemptId: 1, grantId: 1, item: { key, sizeBytes: 8, shape: [{} as unknown as number] } } }, "shape[0] must be an integer in [0, 2^53); got object"],
    ];
    for (const [env, message] of cases) {
      expectEncodeRefused(env, message);
    }
    // The largest values the fields carry still encode, and decode to themselves.
    const edge = { ...head, readGrant: { attemptId: 2 ** 53 - 1, grantId: 1, leaseMs: 2 ** 32 - 1 } };
    const back = decodeEnvelope(encodeEnvelope(edge));
    expect(back.ok && [back.value.readGrant?.attemptId, back.value.readGrant?.leaseMs]).toEqual([2 ** 53 - 1, 2 ** 32 - 1]);
  });
});

// Property tests: numRuns >= 10,000 for the decoder, as the foundation issue asks.
const RUNS = 10_000;
const TIMEOUT_MS = 120_000;

describe("decodeEnvelope properties", () => {
  it("never throws on random bytes: a valid result or an EctpError", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const r = decodeEnvelope(bytes);
        if (r.ok) check(typeof r.value.senderEpoch === "number" && r.value.senderId.length > 0, "bad ok result");
        else check(r.error instanceof EctpError, "not an EctpError");
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it("never throws on something that is not bytes: INVALID_ARGUMENT (local misuse) naming what it got", () => {
    for (const [value, got] of [[null, "null"], [undefined, "nothing"], ["abc", '"abc"'], [[1, 2], "an array"], [{}, "an object"]] as const) {
      const r = decodeEnvelope(value as unknown as Uint8Array);
      expect(r.ok).toBe(false);
      if (!r.ok)
        expect(r.error.message).toBe(`[INVALID_ARGUMENT] an envelope must be bytes (a Uint8Array, an ArrayBuffer or a view of one); got ${got}`);
    }
  });

  it("decodes an envelope handed over as an ArrayBuffer, a DataView or another typed array, as the framing functions take them (and its type says so)", () => {
    const bytes = encodeEnvelope(valid);
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 3);
    const inputs: Parameters<typeof encodeFrame>[0][] = [
      padded.buffer.slice(3),
      new DataView(padded.buffer, 3, bytes.length),
      new Int8Array(padded.buffer, 3, bytes.length),
    ];
    for (const input of inputs) {
      const r = decodeEnvelope(input); // no cast: the parameter takes what encodeFrame's does
      expect(r.ok && r.value.senderId).toBe(valid.senderId);
    }
  });

  it("[I1] never throws on a view whose reads throw, and the fast decoder stays usable after it", () => {
    const bytes = encodeEnvelope(valid);
    const getter = new Uint8Array(bytes);
    Object.defineProperty(getter, "constructor", {
      get() {
        throw new Error("boom");
      },
    });
    const proxy = new Proxy(new Uint8Array(bytes), {
      get() {
        throw new Error("boom");
      },
    });
    expect(decodeEnvelope(getter).ok).toBe(true); // the generated decoder reads it
    const r = decodeEnvelope(proxy);
    // (Refused by byteView: a Proxy is no view, whatever its traps do; see hostile-inputs.test.ts.)
    expect(r.ok || r.error.message).toBe("[INVALID_ARGUMENT] an envelope must be bytes (a Uint8Array, an ArrayBuffer or a view of one); got an object that cannot be read (Error: boom)");
    // The fast decoder was left usable (its re-entrancy flag cleared): it decodes a canonical envelope.
    expect(fastDecodeEnvelope(bytes)).toEqual(ectp.v1.Envelope.decode(bytes));
  });

  it("[I1] bytes whose reads throw a value that cannot be turned into a string are still an INVALID_ARGUMENT result", () => {
    const proxy = new Proxy(new Uint8Array(generatedBytes({ heartbeat: { sequence: 1 } })), {
      get() {
        throw Object.create(null);
      },
    });
    const r = decodeEnvelope(proxy);
    expect(r.ok || r.error.message).toBe(
      "[INVALID_ARGUMENT] an envelope must be bytes (a Uint8Array, an ArrayBuffer or a view of one); got an object that cannot be read (a thrown object that cannot be turned into a string)",
    );
  });

  it("[I1] an envelope whose field throws a value that cannot be turned into a string is refused INVALID_ARGUMENT, not a TypeError", () => {
    const envelope = {
      get heartbeat(): never {
        throw Object.create(null);
      },
    };
    expect(() => encodeEnvelope(envelope)).toThrow("[INVALID_ARGUMENT] envelope could not be encoded: a thrown object that cannot be turned into a string");
  });

  it("never throws on truncated or bit-flipped valid envelopes", () => {
    const base = encodeEnvelope({
      ...valid,
      heartbeat: undefined,
      readGrant: {
        attemptId: 7,
        grantId: 9,
        leaseMs: 30000,
        item: { key: { contentHash: new Uint8Array(32).fill(7) }, sizeBytes: 4096, producerId: "p", epoch: 2, shape: [2, 512] },
      },
    });
    fc.assert(
      fc.property(fc.nat(base.length), fc.nat(base.length * 8), fc.boolean(), (cut, flip, doFlip) => {
        const bytes = base.slice(0, cut);
        if (doFlip && bytes.length > 0) {
          const at = Math.floor(flip / 8) % bytes.length;
          bytes[at] = (bytes[at] as number) ^ (1 << flip % 8);
        }
        const r = decodeEnvelope(bytes);
        check(r.ok || r.error instanceof EctpError, "not an EctpError");
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it("decodes framed streams of random envelopes and garbage in random chunkings without another throw", () => {
    const frameArb = fc.oneof(
      fc.uint8Array({ maxLength: 40 }).map((b) => encodeFrame(b)),
      fc.constantFrom(encodeFrame(encodeEnvelope(valid))),
      fc.uint8Array({ minLength: 4, maxLength: 8 }), // stray bytes, often an oversized prefix
    );
    fc.assert(
      fc.property(fc.array(frameArb, { maxLength: 5 }), fc.array(fc.nat(), { maxLength: 8 }), (parts, cuts) => {
        const stream = Uint8Array.from(parts.flatMap((p) => Array.from(p)));
        const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
        const d = new FrameDecoder({ maxFrameBytes: 64 });
        let prev = 0;
        for (const p of [...points, stream.length]) {
          try {
            for (const f of d.push(stream.subarray(prev, p))) {
              const r = decodeEnvelope(f);
              check(r.ok || r.error instanceof EctpError, "decode threw");
            }
          } catch (e) {
            check(e instanceof EctpError, `push threw ${String(e)}`);
          }
          check(d.bufferedBytes <= 64 + FRAME_HEADER_BYTES, "unbounded buffer");
          prev = p;
        }
        try {
          d.end();
        } catch (e) {
          check(e instanceof EctpError, `end threw ${String(e)}`);
        }
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);
});

describe("envelopeBodyName", () => {
  const members = Object.keys(ectp.v1.Envelope.prototype).filter(
    (k) => !["version", "senderId", "senderEpoch", "toJSON", "body"].includes(k),
  );
  it.each(members)("names the %s body of a plain object and of its decoded bytes", (name) => {
    // An announcement carries a version of its own [V1].
    const body = name === "announcement" ? { version: SPEC_VERSION } : {};
    const env = { version: { ...SPEC_VERSION }, senderId: "p", senderEpoch: 1, [name]: body } as ectp.v1.IEnvelope;
    expect(envelopeBodyName(env)).toBe(name);
    const decoded = decodeEnvelope(encodeEnvelope(env));
    expect(decoded.ok && envelopeBodyName(decoded.value)).toBe(name);
  });
  it.each(members)("encodeEnvelope refuses %s set together with any other body", (name) => {
    for (const other of members.filter((m) => m !== name))
      expect(() => encodeEnvelope({ version: { ...SPEC_VERSION }, senderId: "p", senderEpoch: 1, [name]: {}, [other]: {} })).toThrow(
        /sets more than one body \(\w+, \w+\); set exactly one/,
      );
  });
  it("covers every member of the oneof, and an envelope without a body has none", () => {
    expect(members).toHaveLength(13);
    expect(envelopeBodyName({ version: { ...SPEC_VERSION }, senderId: "p", senderEpoch: 1 })).toBeUndefined();
  });
  it("refuses what is not an object with INVALID_ARGUMENT naming what it got (it was a TypeError)", () => {
    for (const [bad, got] of [[null, "null"], [undefined, "undefined"], ["readGrant", "string"]] as const)
      expect(() => envelopeBodyName(bad as unknown as ectp.v1.IEnvelope)).toThrow(
        new EctpError("INVALID_ARGUMENT", `envelopeBodyName needs an envelope object; got ${got}.`),
      );
  });
  it("[I1] refuses an object whose fields cannot be read (a revoked proxy) with INVALID_ARGUMENT, not a TypeError", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    let err: unknown;
    try {
      envelopeBodyName(proxy as ectp.v1.IEnvelope);
    } catch (e) {
      err = e;
    }
    expect(EctpError.is(err) && err.code).toBe("INVALID_ARGUMENT");
    expect((err as Error).message).toMatch(/^\[INVALID_ARGUMENT\] envelopeBodyName: the envelope's fields could not be read \(.*revoked/);
  });
});

describe("[I1] repeated elements per message (SPEC.md section 5)", () => {
  const head = { version: SPEC_VERSION, senderId: "e", senderEpoch: 1 };
  const emptyItems = (n: number) => Array.from({ length: n }, () => ({}));
  /** What encodeEnvelope refuses to send (see below), written by the generated encoder, as a hostile sender could. */
  const oversized = (env: ectp.v1.IEnvelope) => ectp.v1.Envelope.encode(env).finish();
  const malformed = (bytes: Uint8Array, field: string) => {
    const r = decodeEnvelope(bytes);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("MALFORMED_MESSAGE");
    expect(r.error.message).toContain(`more than ${MAX_REPEATED_ELEMENTS} repeated elements`);
    expect(r.error.message).toContain(`(at field ${field})`);
  };

  it("decodes a message of exactly MAX_REPEATED_ELEMENTS elements; one more is MALFORMED naming the field", () => {
    const ok = decodeEnvelope(encodeEnvelope({ ...head, snapshot: { sequence: 1, items: emptyItems(MAX_REPEATED_ELEMENTS) } }));
    expect(ok.ok && ok.value.snapshot?.items?.length).toBe(MAX_REPEATED_ELEMENTS);
    malformed(oversized({ ...head, snapshot: { sequence: 1, items: emptyItems(MAX_REPEATED_ELEMENTS + 1) } }), "items");
    malformed(oversized({ ...head, eventBatch: { sequence: 1, events: emptyItems(MAX_REPEATED_ELEMENTS + 1) } }), "events");
    const caps = Array.from({ length: MAX_REPEATED_ELEMENTS + 1 }, () => "a");
    malformed(oversized({ ...head, hello: { role: ectp.v1.Role.ROLE_CONSUMER, capabilities: caps } }), "capabilities");
  });

  it("counts nested fields and packed shapes element by element, on the fast read path too", () => {
    const half = Array.from({ length: MAX_REPEATED_ELEMENTS / 2 }, () => 1);
    // Two items of 32,768 dims each, plus the two items: 65,538 elements.
    malformed(oversized({ ...head, snapshot: { items: [{ shape: half }, { shape: half }] } }), "shape");
    const long = Array.from({ length: MAX_REPEATED_ELEMENTS + 1 }, () => 1);
    // A ReadGrant is a read-path envelope: the fast decoder declines the long shape, the generated one refuses it.
    malformed(oversized({ ...head, readGrant: { attemptId: 1, grantId: 1, item: { sizeBytes: 1, shape: long } } }), "shape");
    const within = decodeEnvelope(encodeEnvelope({ ...head, readGrant: { attemptId: 1, grantId: 1, item: { sizeBytes: 1, shape: half } } }));
    expect(within.ok && within.value.readGrant?.item?.shape?.length).toBe(half.length);
  });

  it("encodeEnvelope refuses to send more than MAX_REPEATED_ELEMENTS elements, counted as a receiver counts them", () => {
    const refused = (env: ectp.v1.IEnvelope) => {
      expect(() => encodeEnvelope(env)).toThrow(
        new RegExp(`^\\[INVALID_ARGUMENT\\] envelope could not be encoded: it holds ${MAX_REPEATED_ELEMENTS + 1} repeated elements`),
      );
    };
    const one = [1];
    const cleared = { cleared: { cause: 1 } };
    refused({ ...head, eventBatch: { sequence: 1, events: Array.from({ length: MAX_REPEATED_ELEMENTS + 1 }, () => cleared) } });
    // Events and the shapes of their stored descriptors: 32,768 events of one dimension, plus one.
    const stored = { stored: { item: { sizeBytes: 1, shape: one } } };
    refused({ ...head, eventBatch: { sequence: 1, events: [...Array.from({ length: MAX_REPEATED_ELEMENTS / 2 }, () => stored), cleared] } });
    refused({ ...head, snapshot: { sequence: 1, items: [...Array.from({ length: MAX_REPEATED_ELEMENTS / 2 }, () => ({ shape: one })), {}] } });
    refused({ ...head, hello: { role: ectp.v1.Role.ROLE_CONSUMER, capabilities: Array.from({ length: MAX_REPEATED_ELEMENTS + 1 }, () => "a") } });
    const long = Array.from({ length: MAX_REPEATED_ELEMENTS + 1 }, () => 1);
    refused({ ...head, readGrant: { attemptId: 1, grantId: 1, item: { sizeBytes: 1, shape: long } } });
    refused({ ...head, announcement: { version: SPEC_VERSION, item: { sizeBytes: 1, shape: long } } });
    // At the limit it is sent, and received.
    const atLimit = encodeEnvelope({ ...head, eventBatch: { sequence: 1, events: Array.from({ length: MAX_REPEATED_ELEMENTS }, () => cleared) } });
    expect(decodeEnvelope(atLimit).ok).toBe(true);
  });

  it("stops at the limit: a 16 MiB frame of two-byte empty items is refused without decoding them all", () => {
    // Built by hand (encoding 8 million items would take seconds): the envelope's head, then
    // body field 21 (Snapshot) whose payload is field 2 (items), length 0, over and over.
    const headBytes = encodeEnvelope(head);
    const payload = 16 * 1024 * 1024 - 64;
    const bytes = new Uint8Array(headBytes.length + 2 + 4 + payload);
    bytes.set(headBytes);
    let i = headBytes.length;
    bytes[i++] = 0xaa; // field 21, wire type 2
    bytes[i++] = 0x01;
    let v = payload;
    for (; v > 0x7f; v >>>= 7) bytes[i++] = (v & 0x7f) | 0x80;
    bytes[i++] = v;
    for (let k = 0; k < payload; k += 2) bytes[i + k] = 0x12; // field 2, wire type 2, length 0
    malformed(bytes.subarray(0, i + payload), "items");
  });

  it("each top-level decode from one Reader starts its own count", () => {
    const w = ectp.v1.Snapshot.encodeDelimited({ items: emptyItems(MAX_REPEATED_ELEMENTS) });
    ectp.v1.Snapshot.encodeDelimited({ items: emptyItems(MAX_REPEATED_ELEMENTS) }, w);
    const reader = $protobuf.Reader.create(w.finish());
    expect(ectp.v1.Snapshot.decodeDelimited(reader).items.length).toBe(MAX_REPEATED_ELEMENTS);
    expect(ectp.v1.Snapshot.decodeDelimited(reader).items.length).toBe(MAX_REPEATED_ELEMENTS);
  });

  it("the generated decoders enforce the exported MAX_REPEATED_ELEMENTS", () => {
    const source = readFileSync(new URL("./gen/ectp.js", import.meta.url), "utf8");
    expect(source).toContain(`const $MAX_ELEMENTS = ${MAX_REPEATED_ELEMENTS};`);
  });
});

describe("[I1][C10] a non-repeated field occurs once per message (SPEC.md section 5)", () => {
  const head = { version: SPEC_VERSION, senderId: "e", senderEpoch: 1 };
  const headBytes = encodeEnvelope(head);
  const varint = (v: number) => {
    const out: number[] = [];
    for (; v > 0x7f; v >>>= 7) out.push((v & 0x7f) | 0x80);
    out.push(v);
    return out;
  };
  /** The envelope head, then body field `field` holding `payload` (any bytes, repeats included). */
  const withBody = (field: number, payload: Uint8Array) =>
    Uint8Array.from([...headBytes, ...varint((field << 3) | 2), ...varint(payload.length), ...payload]);
  const twice = (bytes: Uint8Array) => Uint8Array.from([...bytes, ...bytes]);
  const refused = (bytes: Uint8Array, text: string) => {
    const r = decodeEnvelope(bytes);
    expect(r.ok || r.error.code).toBe("MALFORMED_MESSAGE");
    expect(!r.ok && r.error.message).toContain(text);
  };
  const grant = ectp.v1.ReadGrant.encode({ attemptId: 1, grantId: 2, item: { sizeBytes: 4, key: { contentHash: new Uint8Array([1]) } } }).finish();

  it("a repeated field is MALFORMED naming it: in the envelope, in its body, and nested", () => {
    const body = ectp.v1.Heartbeat.encode({ sequence: 1 }).finish();
    refused(Uint8Array.from([...headBytes, ...headBytes]), "field version occurs twice in one message");
    refused(Uint8Array.from([...headBytes, 0x18, 0x02]), "field senderEpoch occurs twice in one message");
    refused(withBody(16, twice(body)), "field sequence occurs twice in one message");
    refused(withBody(13, twice(grant)), "field attemptId occurs twice in one message");
    const item = ectp.v1.ItemDescriptor.encode({ sizeBytes: 4, key: { contentHash: new Uint8Array([1]) } }).finish();
    const keyTwice = ectp.v1.ItemDescriptor.encode({ key: { contentHash: new Uint8Array([1]) } }).finish();
    refused(withBody(13, Uint8Array.from([...varint((3 << 3) | 2), ...varint(item.length + keyTwice.length), ...item, ...keyTwice])), "field key occurs twice");
    const stored = ectp.v1.Event.encode({ stored: { item: {} } }).finish();
    const batch = Uint8Array.from([0x08, 0x01, ...varint((2 << 3) | 2), ...varint(stored.length * 2), ...stored, ...stored]);
    refused(withBody(17, batch), "field stored occurs after oneof kind was already set");
  });

  it("a second body, of the same kind or another, is MALFORMED; one body decodes", () => {
    refused(Uint8Array.from([...withBody(13, grant), 0x82, 0x01, 0x00]), "field heartbeat occurs after oneof body was already set");
    refused(Uint8Array.from([...withBody(13, grant), 0x6a, 0x00]), "field readGrant occurs after oneof body was already set");
    const one = decodeEnvelope(withBody(13, grant));
    expect(one.ok && one.value.readGrant?.grantId).toBe(2);
  });

  it("repeated fields still take many elements, and an occurrence of the wrong wire type is skipped as unknown", () => {
    const hello = decodeEnvelope(encodeEnvelope({ ...head, hello: { role: 2, capabilities: ["a", "b", "c"] } }));
    expect(hello.ok && hello.value.hello?.capabilities).toEqual(["a", "b", "c"]);
    // shape unpacked (wire type 0, element by element), then packed: one repeated field.
    const item = Uint8Array.from([0x08, 0x04, 0x20, 0x02, 0x20, 0x03, 0x22, 0x01, 0x05]);
    const g = decodeEnvelope(withBody(13, Uint8Array.from([0x1a, item.length, ...item])));
    expect(g.ok && g.value.readGrant?.item?.shape).toEqual([2, 3, 5]);
    // sender_epoch (a varint) again as a length-delimited field: not v1's field, so unknown.
    const skipped = decodeEnvelope(Uint8Array.from([...withBody(13, grant), 0x1a, 0x01, 0x00]));
    expect(skipped.ok && skipped.value.senderEpoch).toBe(1);
  });

  it("encodeEnvelope refuses an envelope that sets two bodies, naming them; a body getter that throws stays INVALID_ARGUMENT", () => {
    expect(() => encodeEnvelope({ ...head, readComplete: { grantId: 1 }, heartbeat: { sequence: 1 } })).toThrow(
      "sets more than one body (readComplete, heartbeat); set exactly one",
    );
    const hostile = Object.defineProperty({ ...head }, "readGrant", {
      get() {
        throw new TypeError("hostile body getter");
      },
    }) as ectp.v1.IEnvelope;
    expect(() => encodeEnvelope(hostile)).toThrow("[INVALID_ARGUMENT] envelope could not be encoded: hostile body getter");
  });

  it("[V1] another major's frozen read: a field 12 or 30 beside the Hello body, whatever its wire type, is skipped, not a second body", () => {
    // version 2.0, sender "v2peer", epoch 7; a Hello body v1 cannot read (field 3 of the wrong shape); plus field 12 as a varint or field 30.
    const hello = "0a020802" + "1206" + Buffer.from("v2peer").toString("hex") + "1807" + "5206" + "08021a02ffff";
    for (const extra of ["6001", "f20100"]) {
      for (const hex of [hello + extra, extra + hello]) {
        const d = decodeEnvelope(Buffer.from(hex, "hex"));
        expect(d.ok || d.error.code, hex).toBe("VERSION");
        expect(!d.ok && d.envelope?.hello, hex).toBeTruthy();
      }
    }
  });

  it("stops at the second occurrence: a 16 MiB frame of empty hello bodies is refused at once", () => {
    // Built by hand: the head, then field 10 (hello), length 0, over and over. Before the rule,
    // the generated decoder decoded and dropped every one (over five seconds here).
    const payload = 16 * 1024 * 1024 - 64;
    const bytes = new Uint8Array(headBytes.length + payload);
    bytes.set(headBytes);
    for (let k = headBytes.length; k < bytes.length; k += 2) bytes[k] = 0x52;
    refused(bytes, "field hello occurs after oneof body was already set");
  });
});

/** Stack frames of an error (its "at ..." lines); 0 for anything else. */
function stackFrames(e: unknown): number {
  return e instanceof Error ? (e.stack ?? "").split("\n").filter((l) => l.trim().startsWith("at ")).length : 0;
}

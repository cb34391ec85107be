/**
 * Boundaries of the codec, framing and descriptor validation that hand mutation testing showed no
 * other test pinned down: varint widths and wrapping, UTF-8 checks, wire types, sub-message and
 * packed-field bounds, one- vs two- vs three-byte lengths, values a field cannot carry, another
 * major's frozen fields [V1], shared byte inputs, descriptor limits [C2]. Each test fails on a
 * mutant of the source that the rest of the suite let pass. Hex fixtures are written by hand from
 * spec/proto.
 */
import { describe, expect, it } from "vitest";
import { decodeEnvelope, encodeEnvelope } from "./envelope.js";
import { EctpError } from "./errors.js";
import { fastDecodeEnvelope, fastEncodeEnvelope } from "./fast-codec.js";
import { ectp } from "./gen/ectp.js";
import { crc32c } from "./checksum.js";
import { FrameDecoder, encodeFrame } from "./framing.js";
import { itemKeyId, tryItemKeyId, validateDescriptor } from "./validate.js";
import { SPEC_VERSION } from "./version.js";
import { fromHex, toHex } from "./test-helpers.js";

/** version 1.0 (0a 02 08 01), sender_id "p" (12 01 70), sender_epoch 1 (18 01). */
const HEAD = "0a020801" + "120170" + "1801";

/** Envelope bytes: the head, then body `tag` (hex) holding `body` (hex; length < 128). */
function env(tagHex: string, bodyHex: string): Uint8Array {
  const body = fromHex(bodyHex);
  return fromHex(HEAD + tagHex + body.length.toString(16).padStart(2, "0") + bodyHex);
}

/** The generated decoder's envelope, or the error it throws. */
function generated(bytes: Uint8Array): ectp.v1.Envelope | Error {
  try {
    return ectp.v1.Envelope.decode(bytes);
  } catch (e) {
    return e as Error;
  }
}

/** The fast decoder either declines or returns exactly what the generated decoder returns. */
function expectFastAgrees(bytes: Uint8Array): void {
  const fast = fastDecodeEnvelope(bytes);
  if (fast === undefined) return;
  const gen = generated(bytes);
  expect(gen, toHex(bytes)).not.toBeInstanceOf(Error);
  expect(fast, toHex(bytes)).toStrictEqual(gen);
}

function decodedOk(bytes: Uint8Array): ectp.v1.Envelope {
  const r = decodeEnvelope(bytes);
  if (!r.ok) throw new Error(`expected ok, got ${r.error.message}`);
  return r.value;
}

function decodeError(bytes: Uint8Array): EctpError {
  const r = decodeEnvelope(bytes);
  if (r.ok) throw new Error("expected an error, got ok");
  expect(r.error).toBeInstanceOf(EctpError);
  return r.error;
}

describe("fast decoder: uint32 / int32 varints as Reader.uint32 reads them", () => {
  it("a five-byte uint32 keeps only the low four bits of its fifth byte (leaseMs ff ff ff ff 1f = 2^32 - 1)", () => {
    const bytes = env("6a", "20ffffffff1f");
    expectFastAgrees(bytes);
    expect(decodedOk(bytes).readGrant?.leaseMs).toBe(0xffffffff);
    // the fifth byte's bits 4..6 never make a value >= 2^32
    const bytes2 = env("6a", "2080808080 7f".replace(/ /g, ""));
    expectFastAgrees(bytes2);
    expect(decodedOk(bytes2).readGrant?.leaseMs).toBe(0xf0000000);
  });
});

describe("fast decoder: uint64 varints of nine or ten bytes", () => {
  it("a ten-byte sizeBytes keeps only bit 63 from its tenth byte, as LongBits does (80x9 7f = 2^63)", () => {
    const item = "10" + "80".repeat(9) + "7f";
    const bytes = env("6a", "1a0b" + item);
    expectFastAgrees(bytes);
    expect(decodedOk(bytes).readGrant?.item?.sizeBytes).toBe(2 ** 63);
    const epoch = "38" + "ff".repeat(9) + "01"; // 2^64 - 1 as epoch
    const bytes2 = env("6a", "1a0b" + epoch);
    expectFastAgrees(bytes2);
  });
});

describe("fast decoder: strings are UTF-8, checked", () => {
  it("a lone continuation byte (0x80) in sender_id or a detail is MALFORMED_MESSAGE, never the character U+0080", () => {
    const sender = fromHex("0a020801" + "120180" + "1801" + "820100");
    expect(fastDecodeEnvelope(sender)).toBeUndefined();
    expect(decodeError(sender).code).toBe("MALFORMED_MESSAGE");
    const detail = env("72", "08012a0180"); // ReadReject attempt 1, detail = 80
    expect(fastDecodeEnvelope(detail)).toBeUndefined();
    expect(decodeError(detail).code).toBe("MALFORMED_MESSAGE");
    // valid two-byte UTF-8 (c3 a9, "é") decodes to the character
    const ok = fromHex("0a020801" + "1202c3a9" + "1801" + "820100");
    expect(decodedOk(ok).senderId).toBe("\u00e9");
  });
});

describe("fast decoder: bool", () => {
  it("retryable encoded as varint 2 is true (Reader.bool: any non-zero varint), never silently false", () => {
    const bytes = env("72", "08011802");
    expectFastAgrees(bytes);
    expect(decodedOk(bytes).readReject?.retryable).toBe(true);
  });
});

describe("fast decoder: int32 and enum fields wrap a five-byte varint as Reader.int32 does", () => {
  it("fingerprint.dtype ff ff ff ff 0f is -1 (then refused by validateDescriptor), not 4294967295", () => {
    // ReadGrant { item { key { fingerprint { dtype: ff ff ff ff 0f } } } }
    const bytes = env("6a", "1a0a" + "0a08" + "1206" + "10ffffffff0f");
    expectFastAgrees(bytes);
    expect(decodedOk(bytes).readGrant?.item?.key?.fingerprint?.dtype).toBe(-1);
  });
  it("checksum.algorithm ff ff ff ff 0f is -1, not 4294967295", () => {
    const bytes = env("6a", "1a08" + "2a06" + "08ffffffff0f");
    expectFastAgrees(bytes);
    expect(decodedOk(bytes).readGrant?.item?.checksum?.algorithm).toBe(-1);
  });
  it("ReadReject.reason ff ff ff ff 0f is -1, not 4294967295", () => {
    const bytes = env("72", "0801" + "10ffffffff0f");
    expectFastAgrees(bytes);
    expect(decodedOk(bytes).readReject?.reason).toBe(-1);
  });
});

describe("fast decoder: wire types, presence and body fields", () => {
  it("Heartbeat field 1 with wire type 1 or 5 is an unknown field (skipped), never read as a varint", () => {
    for (const body of ["098181818181818101", "0d81818101"]) {
      const bytes = env("8201", body);
      expectFastAgrees(bytes);
      const hb = decodedOk(bytes).heartbeat;
      expect(hb, body).toBeDefined();
      expect(hb?.sequence, body).toBe(0);
    }
  });
  it("an empty sender_id or a zero sender_epoch on the wire is absent (no own property), and MALFORMED_MESSAGE", () => {
    const noSender = fromHex("0a020801" + "1200" + "1801" + "820100");
    expectFastAgrees(noSender);
    const e1 = decodeEnvelope(noSender);
    expect(!e1.ok && e1.error.message).toContain("sender_id");
    expect(!e1.ok && e1.envelope && Object.hasOwn(e1.envelope, "senderId")).toBe(false);
    const zeroEpoch = fromHex("0a020801" + "120170" + "1800" + "820100");
    expectFastAgrees(zeroEpoch);
    const e2 = decodeEnvelope(zeroEpoch);
    expect(!e2.ok && e2.error.code).toBe("MALFORMED_MESSAGE");
    expect(!e2.ok && e2.envelope && Object.hasOwn(e2.envelope, "senderEpoch")).toBe(false);
  });
  it("an EventBatch body (field 17) is an EventBatch, never read as a Heartbeat", () => {
    const bytes = env("8a01", "0805");
    expectFastAgrees(bytes);
    const v = decodedOk(bytes);
    expect(v.heartbeat ?? undefined).toBeUndefined();
    expect(v.eventBatch?.sequence).toBe(5);
  });
});

/** The generated encoder's bytes (hex), or its error message. */
function generatedHex(e: ectp.v1.IEnvelope): string {
  try {
    return toHex(ectp.v1.Envelope.encode(e).finish());
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

const head = { version: SPEC_VERSION, senderId: "p", senderEpoch: 1 };

describe("fast encoder: the same bytes as the generated encoder, or a typed refusal", () => {
  it("a non-ASCII sender_id or detail is UTF-8 (é = c3 a9, ÿ = c3 bf), not one Latin-1 byte", () => {
    for (const e of [
      { ...head, senderId: "\u00e9", heartbeat: { sequence: 1 } },
      { ...head, readReject: { attemptId: 1, detail: "\u00ff\u0080" } },
    ]) {
      expect(toHex(encodeEnvelope(e))).toBe(generatedHex(e));
    }
    expect(toHex(encodeEnvelope({ ...head, senderId: "\u00e9", heartbeat: { sequence: 1 } }))).toContain("1202c3a9");
  });
  it("sub-messages of 127, 128 and 129 bytes get a one- or two-byte length as protobuf writes it", () => {
    for (let n = 120; n <= 135; n++) {
      const e = { ...head, readReject: { attemptId: 1, detail: "x".repeat(n) } };
      const bytes = encodeEnvelope(e);
      expect(toHex(bytes), String(n)).toBe(generatedHex(e));
      expect(decodedOk(bytes).readReject?.detail).toBe("x".repeat(n));
    }
  });
  it("a descriptor of exactly 16383, 16384 and 16385 bytes inside a ReadGrant (two- vs three-byte length)", () => {
    const base = { sizeBytes: 4, producerId: "p", epoch: 1, key: { contentHash: new Uint8Array([1]) } };
    const fixed = ectp.v1.ItemDescriptor.encode(base).finish().length; // then location: tag 42, 2-3 byte length, bytes
    let hits = 0;
    for (const target of [16382, 16383, 16384, 16385, 16386]) {
      for (let loc = target - fixed - 4; loc <= target - fixed - 2; loc++) {
        const item = { ...base, location: new Uint8Array(loc).fill(7) };
        if (ectp.v1.ItemDescriptor.encode(item).finish().length !== target) continue;
        hits++;
        const e = { ...head, readGrant: { attemptId: 1, grantId: 2, item, leaseMs: 5 } };
        // Start a fresh slab so that the fast encoder has room for it (else it declines).
        const small = { ...head, readReject: { attemptId: 1, detail: "y".repeat(1000) } };
        for (let k = 0; k < 100 && fastEncodeEnvelope(small)?.byteOffset !== 0; k++);
        const fast = fastEncodeEnvelope(e);
        expect(fast, "the fast encoder takes it").toBeDefined();
        expect(toHex(fast as Uint8Array) === generatedHex(e), String(target)).toBe(true);
        const bytes = encodeEnvelope(e);
        expect(toHex(bytes) === generatedHex(e), String(target)).toBe(true);
        const d = decodedOk(bytes);
        expect(d.readGrant?.item?.location?.length, String(target)).toBe(loc);
        expect(d.readGrant?.leaseMs, String(target)).toBe(5);
      }
    }
    expect(hits).toBe(5);
  });
  it("uint64 values across 2^31, 2^32, 2^35, 2^36 and 2^53 - 1 encode as the generated encoder does", () => {
    for (const v of [2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 33 + 5, 2 ** 35, 2 ** 36 - 1, 2 ** 36, 2 ** 36 + 1, 2 ** 53 - 1]) {
      const e = { ...head, heartbeat: { sequence: v } };
      expect(toHex(encodeEnvelope(e)), String(v)).toBe(generatedHex(e));
      expect(decodedOk(encodeEnvelope(e)).heartbeat?.sequence).toBe(v);
    }
  });
  it("a HandshakeReject body is encoded (the generated path), never dropped", () => {
    const e = { ...head, handshakeReject: { reason: 5, detail: "v" } };
    const bytes = encodeEnvelope(e);
    expect(toHex(bytes)).toBe(generatedHex(e));
    expect(decodedOk(bytes).handshakeReject?.reason).toBe(5);
  });
  it("an empty shape and retryable false are not written (proto3 defaults)", () => {
    const e1 = { ...head, readGrant: { attemptId: 1, item: { sizeBytes: 1, shape: [] } } };
    expect(toHex(encodeEnvelope(e1))).toBe(generatedHex(e1));
    const e2 = { ...head, readReject: { attemptId: 1, retryable: false, reason: 2 } };
    expect(toHex(encodeEnvelope(e2))).toBe(generatedHex(e2));
  });
});

describe("fast encoder: values a field cannot carry are INVALID_ARGUMENT, never wrapped", () => {
  const refused = (e: ectp.v1.IEnvelope, field: string) => {
    expect(fastEncodeEnvelope(e)).toBeUndefined();
    let error: unknown;
    try {
      encodeEnvelope(e);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(EctpError);
    expect((error as EctpError).code).toBe("INVALID_ARGUMENT");
    expect((error as EctpError).message).toContain(field);
  };
  it("a negative uint64 (heartbeat.sequence -5, grantId -1)", () => {
    refused({ ...head, heartbeat: { sequence: -5 } }, "sequence");
    refused({ ...head, readComplete: { grantId: -1 } }, "grantId");
  });
  it("a uint32 of 2^32 (leaseMs)", () => {
    refused({ ...head, readGrant: { attemptId: 1, leaseMs: 2 ** 32 } }, "leaseMs");
  });
  it("an int32 / enum of 2^31 (dtype, reason)", () => {
    refused({ ...head, readGrant: { attemptId: 1, item: { sizeBytes: 1, dtype: 2 ** 31 } } }, "dtype");
    refused({ ...head, readReject: { attemptId: 1, reason: 2 ** 31 } }, "reason");
  });
  it("a negative shape dimension", () => {
    refused({ ...head, readGrant: { attemptId: 1, item: { sizeBytes: 1, shape: [2, -1] } } }, "shape");
  });
});

describe("[V1] another major's frozen fields", () => {
  // version 2.0, sender "p", epoch 7, then a Hello v1 cannot parse (field 3 of the wrong shape).
  const badHello = "5206" + "08021a02ffff";
  it("sender_epoch again with another wire type is an unknown field (skipped), not a repeat: still VERSION", () => {
    for (const extra of ["1a0100", "1d00000000", "190000000000000000"]) {
      const bytes = fromHex("0a020802" + "120170" + "1807" + extra + badHello);
      const e = decodeError(bytes);
      expect(e.code, extra).toBe("VERSION");
      const d = decodeEnvelope(bytes);
      expect(!d.ok && d.envelope?.senderEpoch, extra).toBe(7);
    }
    // the same field 3 twice as a varint is a repeat: malformed, never answered
    expect(decodeError(fromHex("0a020802" + "120170" + "1807" + "1808" + badHello)).code).toBe("MALFORMED_MESSAGE");
  });
  it("a field 1 of wire type 0 after the version is unknown (skipped): the version read stays, MALFORMED for our major, VERSION 2 for major 2", () => {
    const ours = fromHex("0a020801" + "120170" + "1807" + "0800" + badHello);
    expect(decodeError(ours).code).toBe("MALFORMED_MESSAGE");
    const theirs = fromHex("0a020802" + "120170" + "1807" + "0800" + badHello);
    const e = decodeError(theirs);
    expect(e.code).toBe("VERSION");
    expect(e.details.major).toBe(2);
  });
  it("the version is compared first: another major without a sender_id is still VERSION, not MALFORMED", () => {
    const e = decodeError(fromHex("0a020802" + "1807" + badHello));
    expect(e.code).toBe("VERSION");
    expect(e.details.major).toBe(2);
  });
});


describe("fast decoder: bounds of sub-messages and packed fields", () => {
  it("a packed shape value that runs past the packed length is MALFORMED_MESSAGE (not read from the next bytes)", () => {
    const bytes = env("6a", "1a04" + "22018000"); // shape: length 1, holding 80 (continues into the 00 after it)
    expect(fastDecodeEnvelope(bytes)).toBeUndefined();
    expect(decodeError(bytes).code).toBe("MALFORMED_MESSAGE");
  });
  it("a bool field cut off at the end of its message is MALFORMED_MESSAGE", () => {
    const bytes = env("72", "080118");
    expect(fastDecodeEnvelope(bytes)).toBeUndefined();
    expect(decodeError(bytes).code).toBe("MALFORMED_MESSAGE");
  });
  it("a varint cut off at the end of a sub-message is MALFORMED_MESSAGE (never completed from the parent's bytes)", () => {
    const bytes = env("6a", "1a01" + "10" + "01" + "2005"); // item { size_bytes: <cut> }, then 01 20 05 in the grant
    expect(fastDecodeEnvelope(bytes)).toBeUndefined();
    expect(decodeError(bytes).code).toBe("MALFORMED_MESSAGE");
  });
  it("strings of one length and first character decode to themselves (the string cache compares every byte)", () => {
    for (let round = 0; round < 2; round++) {
      for (let k = 0; k < 300; k++) {
        const s = `x${String(k).padStart(3, "0")}`;
        const v = decodedOk(encodeEnvelope({ ...head, senderId: s, heartbeat: { sequence: 1 } }));
        expect(v.senderId).toBe(s);
      }
    }
  });
});

describe("byte inputs", () => {
  // The signatures name ArrayBuffer; JavaScript callers may hand a SharedArrayBuffer, taken whole (bytes.ts).
  const shared = (bytes: ArrayLike<number>): ArrayBuffer => {
    const sab = new SharedArrayBuffer(bytes.length);
    new Uint8Array(sab).set(bytes);
    return sab as unknown as ArrayBuffer;
  };
  it("a SharedArrayBuffer is bytes for framing, CRC-32C and decodeEnvelope", () => {
    const digits = shared(new TextEncoder().encode("123456789"));
    expect(crc32c(digits)).toBe(0xe3069283);
    expect(toHex(encodeFrame(digits))).toBe("00000009313233343536373839");
    expect(new FrameDecoder().push(shared([0, 0, 0, 1, 0x41])).map(toHex)).toEqual(["41"]);
    const e = encodeEnvelope({ ...head, heartbeat: { sequence: 9 } });
    expect(decodedOk(shared(e) as unknown as Uint8Array).heartbeat?.sequence).toBe(9);
  });
});

describe("validateDescriptor limits [C2]", () => {
  const base = () => ({ key: { contentHash: new Uint8Array([1, 2]) }, producerId: "p", epoch: 1 });
  it("sizeBytes equal to maxItemBytes is valid; one more is not", () => {
    expect(validateDescriptor({ ...base(), sizeBytes: 1024 }, { maxItemBytes: 1024 }).ok).toBe(true);
    const r = validateDescriptor({ ...base(), sizeBytes: 1025 }, { maxItemBytes: 1024 });
    expect(!r.ok && r.error.code).toBe("INVALID_DESCRIPTOR");
    expect(validateDescriptor({ ...base(), sizeBytes: 1 }, { maxItemBytes: 1 }).ok).toBe(true);
  });
  it("a CRC32C checksum value of 5 bytes is invalid (exactly 4)", () => {
    for (const n of [3, 5, 8]) {
      const r = validateDescriptor({ ...base(), sizeBytes: 4, checksum: { algorithm: 1, value: new Uint8Array(n) } }, { maxItemBytes: 64 });
      expect(!r.ok && r.error.code, String(n)).toBe("INVALID_DESCRIPTOR");
    }
  });
  it("the CRC32C value is big-endian (01 02 03 04 = 0x01020304)", () => {
    const r = validateDescriptor({ ...base(), sizeBytes: 4, checksum: { algorithm: 1, value: Uint8Array.of(1, 2, 3, 4) } }, { maxItemBytes: 64 });
    expect(r.ok && r.value.checksum?.crc32c).toBe(0x01020304);
  });
  it("tryItemKeyId agrees with itemKeyId on a 64- and a 65-byte content hash", () => {
    expect(tryItemKeyId({ contentHash: new Uint8Array(64).fill(3) })).toBe((itemKeyId({ contentHash: new Uint8Array(64).fill(3) }) as { value: string }).value);
    expect(itemKeyId({ contentHash: new Uint8Array(65) }).ok).toBe(false);
    expect(tryItemKeyId({ contentHash: new Uint8Array(65) })).toBeUndefined();
  });
  it("limits.fingerprint that differs only in layoutVersion (or only rowBytes) is INCOMPATIBLE", () => {
    const fp = { model: "m", dtype: 1, rowBytes: 8, layoutVersion: 2 };
    const d = { ...base(), key: { contentHash: new Uint8Array([1]), fingerprint: fp }, sizeBytes: 4 };
    expect(validateDescriptor(d, { maxItemBytes: 64, fingerprint: fp }).ok).toBe(true);
    for (const other of [{ ...fp, layoutVersion: 3 }, { ...fp, rowBytes: 9 }]) {
      const r = validateDescriptor(d, { maxItemBytes: 64, fingerprint: other });
      expect(!r.ok && r.error.code).toBe("INCOMPATIBLE");
    }
  });
  it("a zero dimension is a valid shape value (then dtype x shape = 0 differs from any size)", () => {
    expect(validateDescriptor({ ...base(), sizeBytes: 4, dtype: 0, shape: [0, 3] }, { maxItemBytes: 64 }).ok).toBe(true);
    const r = validateDescriptor({ ...base(), sizeBytes: 4, dtype: 1, shape: [0] }, { maxItemBytes: 64 });
    expect(!r.ok && r.error.message).toContain("differs from dtype x shape = 0");
  });
  it("consecutive descriptors differing only in the fingerprint's layoutVersion get their own fingerprints", () => {
    const fp = (layoutVersion: number) => ({ model: "m", dtype: 1, rowBytes: 8, layoutVersion });
    const a = validateDescriptor({ ...base(), key: { contentHash: new Uint8Array([1]), fingerprint: fp(1) }, sizeBytes: 4 }, { maxItemBytes: 64 });
    const b = validateDescriptor({ ...base(), key: { contentHash: new Uint8Array([1]), fingerprint: fp(2) }, sizeBytes: 4 }, { maxItemBytes: 64 });
    expect(a.ok && a.value.fingerprint.layoutVersion).toBe(1);
    expect(b.ok && b.value.fingerprint.layoutVersion).toBe(2);
    expect(a.ok && b.ok && a.value.keyId !== b.value.keyId).toBe(true);
  });
  it("with a known dtype a one-dimensional shape is checked too (FLOAT32 [3] = 12 bytes)", () => {
    expect(validateDescriptor({ ...base(), sizeBytes: 12, dtype: 1, shape: [3] }, { maxItemBytes: 64 }).ok).toBe(true);
    const r = validateDescriptor({ ...base(), sizeBytes: 13, dtype: 1, shape: [3] }, { maxItemBytes: 64 });
    expect(!r.ok && r.error.message).toContain("sizeBytes 13 differs from dtype x shape = 12");
  });
});

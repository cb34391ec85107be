import { describe, expect, it } from "vitest";
import { decodeEnvelope, encodeEnvelope } from "./envelope.js";
import { EctpError } from "./errors.js";
import { ectp } from "./gen/ectp.js";

const fromHex = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, "hex"));

/** The error code of a decode, or "ok". */
function code(hex: string): string {
  const r = decodeEnvelope(fromHex(hex));
  return r.ok ? "ok" : r.error.code;
}

// version 1.0, sender "a", epoch 1
const head = "0a0208011201611801";
// An empty heartbeat body, so that an envelope is complete.
const heartbeat = "820100";

describe("[V1] another major's frozen fields, read when its body does not parse as ours", () => {
  // A body field 12 whose content is a cut-off tag: not protobuf for v1's ReadRequest, skipped unread by the frozen reader.
  const unreadable = "6201ff";

  it("reads HandshakeReject fields 1 to 3 as the generated decoder does: reason as int32 (-1 from ten bytes), detail, supported", () => {
    const reject = `08${"ff".repeat(9)}01` + "120178" + "1a0408031002";
    const rejectLength = (reject.length / 2).toString(16).padStart(2, "0");
    const bytes = fromHex("0a020803" + "120170" + "1809" + `5a${rejectLength}${reject}` + unreadable);
    expect(() => ectp.v1.Envelope.decode(bytes)).toThrow();
    const d = decodeEnvelope(bytes);
    expect(d.ok || d.error.code).toBe("VERSION");
    const generated = ectp.v1.HandshakeReject.decode(fromHex(reject));
    expect(generated.reason).toBe(-1);
    const frozen = !d.ok ? d.envelope?.handshakeReject : undefined;
    expect(frozen?.reason).toBe(-1);
    expect(frozen?.detail).toBe("x");
    expect(frozen?.supported).toMatchObject({ major: 3, minor: 2 });
  });

  it("a ReadRequest whose body decodes as ours keeps its attempt id when another field of the other major does not (its sender gets ReadReject VERSION at once)", () => {
    const readRequest = "0807" + "12030a0101"; // attempt_id 7, key { content_hash 01 }
    const envelope = "0a020802" + "120163" + "1805" + `62${(readRequest.length / 2).toString(16).padStart(2, "0")}${readRequest}`;
    const field21 = "aa0103616263"; // field 21 "abc": not v1's body there, so the generated decoder throws
    for (const [name, hex] of [
      ["alone", envelope],
      ["with a field v1 cannot read", envelope + field21],
    ] as const) {
      const d = decodeEnvelope(fromHex(hex));
      expect(d.ok || d.error.code, name).toBe("VERSION");
      expect(Number(!d.ok && d.envelope?.readRequest?.attemptId), name).toBe(7);
    }
    expect(() => ectp.v1.Envelope.decode(fromHex(envelope + field21))).toThrow();
    // A body 12 that does not decode as ours, or that comes twice, names no attempt.
    for (const hex of [envelope + unreadable + field21, envelope + envelope.slice(envelope.indexOf("62")) + field21]) {
      const d = decodeEnvelope(fromHex(hex));
      expect(d.ok || d.error.code).toBe("VERSION");
      expect(!d.ok && d.envelope?.readRequest).toBeFalsy();
    }
  });

  it("a sender_epoch of ten bytes (2^64 - 1) reads as the unsigned number the generated decoder gives, never negative", () => {
    const epoch = `18${"ff".repeat(9)}01`;
    const generated = ectp.v1.Envelope.decode(fromHex(epoch)).senderEpoch;
    expect(generated).toBe(2 ** 64);
    const d = decodeEnvelope(fromHex("0a020802" + "120170" + epoch + "5206" + "08021a02ffff"));
    expect(d.ok || d.error.code).toBe("VERSION");
    expect(!d.ok && d.envelope?.senderEpoch).toBe(generated);
    expect(!d.ok && d.envelope?.hello).toBeTruthy();
  });
});

describe("[V1] SPEC section 5: each frozen field occurs once, also in another major's envelope", () => {
  // version 3.0, sender "p", epoch 9, then a HandshakeReject body holding `reject`.
  const envelopeWithReject = (reject: string) =>
    "0a020803" + "120170" + "1809" + `5a${(reject.length / 2).toString(16).padStart(2, "0")}${reject}`;

  it("a HandshakeReject with its reason or its supported version twice is malformed, never answered", () => {
    expect(code(envelopeWithReject("0805" + "120178" + "1a020803"))).toBe("VERSION");
    for (const reject of ["0805" + "0805", "0805" + "1a020803" + "1a020803", "1a020803" + "120178" + "1a020803"]) {
      const d = decodeEnvelope(fromHex(envelopeWithReject(reject)));
      expect(d.ok || d.error.code, reject).toBe("MALFORMED_MESSAGE");
      expect(!d.ok && d.envelope, reject).toBeUndefined();
    }
  });

  it("an envelope of another major with its sender_id twice is malformed, never answered", () => {
    const d = decodeEnvelope(fromHex("0a020802" + "120170" + "120171" + "1807" + "5206" + "08021a02ffff"));
    expect(d.ok || d.error.code).toBe("MALFORMED_MESSAGE");
    expect(!d.ok && d.envelope).toBeUndefined();
  });
});

describe("the sender_epoch error names the sender", () => {
  it("an epoch past 2^53 - 1 is MALFORMED_MESSAGE with the sender id in its details", () => {
    const bytes = fromHex(`${head.slice(0, -4)}18${"ff".repeat(9)}01${heartbeat}`);
    const d = decodeEnvelope(bytes);
    expect(d.ok || d.error.code).toBe("MALFORMED_MESSAGE");
    expect(!d.ok && d.error.details).toEqual({ senderId: "a" });
    expect(!d.ok && d.envelope?.senderId).toBe("a");
  });
});

describe("encodeEnvelope refuses bytes in place of an envelope", () => {
  it("a Uint8Array or a DataView is INVALID_ARGUMENT, never encoded as an empty envelope", () => {
    for (const value of [new Uint8Array([1, 2, 3]), new DataView(new ArrayBuffer(4))]) {
      let thrown: unknown;
      try {
        encodeEnvelope(value as unknown as ectp.v1.IEnvelope);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(EctpError);
      expect((thrown as EctpError).code).toBe("INVALID_ARGUMENT");
      expect((thrown as EctpError).message).toContain("an envelope is an object");
    }
  });
});

describe("[I1] unknown fields are skipped strictly (SPEC.md section 5)", () => {
  const nested = (depth: number, inner = "") => "23".repeat(depth) + inner + "24".repeat(depth);

  it("a field inside the 100th nested group is still read: the limit counts groups, not the fields they hold", () => {
    expect(code(`${head}${nested(100, "0801")}${heartbeat}`)).toBe("ok");
    expect(code(`${head}${nested(100, "0d00000000")}${heartbeat}`)).toBe("ok");
    expect(code(`${head}${nested(101, "0801")}${heartbeat}`)).toBe("MALFORMED_MESSAGE");
  });

  it("an unknown varint cut off at the end of the envelope is MALFORMED_MESSAGE", () => {
    expect(code(`${heartbeat}${head}20`)).toBe("MALFORMED_MESSAGE");
    expect(code(`${heartbeat}${head}2080`)).toBe("MALFORMED_MESSAGE");
    expect(code(`${heartbeat}${head}20ffff`)).toBe("MALFORMED_MESSAGE");
    expect(code(`${heartbeat}${head}2001`)).toBe("ok");
  });

  it("a group closed by the end tag of another field is MALFORMED_MESSAGE, at the top and inside a body", () => {
    expect(code(`${head}1b1c${heartbeat}`)).toBe("ok");
    expect(code(`${head}1b24${heartbeat}`)).toBe("MALFORMED_MESSAGE");
    expect(code(`${head}a201021b1c`)).toBe("ok");
    expect(code(`${head}a201021b24`)).toBe("MALFORMED_MESSAGE");
  });

  it("wire types 6 and 7 are MALFORMED_MESSAGE, in our major and in another's frozen read", () => {
    for (const tag of ["26", "27"]) {
      expect(code(`${head}${tag}${heartbeat}`), tag).toBe("MALFORMED_MESSAGE");
      expect(code(`${head}a20101${tag}`), tag).toBe("MALFORMED_MESSAGE");
      expect(code(`0a0208021201611801${tag}5200`), tag).toBe("MALFORMED_MESSAGE");
    }
    expect(code("0a02080212016118015200")).toBe("VERSION");
  });

  it("an end-group tag with no group open is MALFORMED_MESSAGE", () => {
    expect(code(`${head}24${heartbeat}`)).toBe("MALFORMED_MESSAGE");
    expect(code(`${head}a2010124`)).toBe("MALFORMED_MESSAGE");
    expect(code("0a0208021201611801245200")).toBe("MALFORMED_MESSAGE");
  });
});

describe("[V1] the frozen reader counts nesting depth as the generated decoder does", () => {
  /** A length-delimited field: tag, varint length, payload (hex). */
  const field = (tag: string, payload: string): string => {
    let n = payload.length / 2;
    let length = "";
    while (n >= 0x80) {
      length += ((n & 0x7f) | 0x80).toString(16).padStart(2, "0");
      n >>>= 7;
    }
    return tag + length + n.toString(16).padStart(2, "0") + payload;
  };
  /** Sender "p", epoch 1, major `major`, and a HandshakeReject whose `supported` (or an unknown field of it) holds `groups` nested empty groups of field 7. */
  const envelope = (major: number, groups: number, inSupported: boolean): string => {
    const nested = "3b".repeat(groups) + "3c".repeat(groups);
    const reject = inSupported ? `0805${field("1a", `0801${nested}`)}` : `0805${nested}`;
    return `0a0208${major.toString(16).padStart(2, "0")}120170180${1}${field("5a", reject)}`;
  };

  for (const inSupported of [true, false])
    it(`another major's HandshakeReject is read to the same depth as ours: groups nested in ${inSupported ? "its supported version" : "it"}`, () => {
      const verdicts: string[] = [];
      for (let groups = 95; groups <= 102; groups++) {
        const ours = code(envelope(1, groups, inSupported)); // the generated decoder: "ok" or MALFORMED_MESSAGE
        const theirs = code(envelope(2, groups, inSupported)); // frozen fields once the full parse fails
        verdicts.push(`${groups}: ${ours} / ${theirs}`);
        expect(theirs, `${groups} nested groups`).toBe(ours === "ok" ? "VERSION" : "MALFORMED_MESSAGE");
      }
      expect(verdicts.some((v) => v.includes("ok")) && verdicts.some((v) => v.includes("MALFORMED")), verdicts.join("; ")).toBe(true);
    });

  it("another major's version field is read to the same depth as ours", () => {
    const verdicts = new Set<string>();
    for (let groups = 95; groups <= 102; groups++) {
      const version = (major: number) => field("0a", `08${major.toString(16).padStart(2, "0")}${"3b".repeat(groups)}${"3c".repeat(groups)}`);
      const ours = code(`${version(1)}120170${"1801"}${heartbeat}`);
      const theirs = code(`${version(2)}120170${"1801"}${heartbeat}`);
      verdicts.add(ours);
      expect(theirs, `${groups} nested groups`).toBe(ours === "ok" ? "VERSION" : "MALFORMED_MESSAGE");
    }
    expect([...verdicts].sort(), "the range crosses the depth limit").toEqual(["MALFORMED_MESSAGE", "ok"]);
  });
});

describe("[V1] field 12 of another major is no second body beside a Hello or HandshakeReject", () => {
  // version 2.0, sender "c", epoch 1; field 12 holds a v1 ReadRequest with attempt_id 5.
  const head2 = "0a020802" + "120163" + "1801";
  const readRequest12 = "62020805";
  it.each([
    ["a Hello, then field 12", `${head2}5200${readRequest12}`, "hello"],
    ["field 12, then a Hello", `${head2}${readRequest12}5200`, "hello"],
    ["a HandshakeReject, then field 12", `${head2}5a00${readRequest12}`, "handshakeReject"],
  ])("%s: the frozen body stands and field 12 is not read as a ReadRequest", (_name, hex, body) => {
    const d = decodeEnvelope(fromHex(hex));
    expect(d.ok || d.error.code).toBe("VERSION");
    const env = d.ok ? undefined : d.envelope;
    expect(env?.[body as "hello" | "handshakeReject"]).toBeDefined();
    expect(env?.readRequest).toBeUndefined();
  });

  it("field 12 alone is still read (its sender gets ReadReject VERSION), and a repeat of it names no attempt", () => {
    const alone = decodeEnvelope(fromHex(`${head2}${readRequest12}`));
    expect(alone.ok ? undefined : alone.envelope?.readRequest?.attemptId).toBe(5);
    const twice = decodeEnvelope(fromHex(`${head2}${readRequest12}${readRequest12}`));
    expect(twice.ok ? "decoded" : twice.envelope?.readRequest).toBeUndefined();
  });
});

// Inputs that only look like what they should be (objects posing as buffers, Proxies, errors whose
// message is no string, broken iterators) and an event with two kinds: each test quotes the sentence
// it holds the code to, and failed before the fix (a review of 2026-12-03).
import { describe, expect, it } from "vitest";
import { crc32c, crc32cBytes } from "./checksum.js";
import { decodeEnvelope, encodeEnvelope } from "./envelope.js";
import { EctpError, thrownMessage } from "./errors.js";
import { FrameDecoder, encodeFrame } from "./framing.js";
import { eventByteLength, itemDescriptorByteLength } from "./sizes.js";
import { validateDescriptor } from "./validate.js";
import { closestName } from "./names.js";

/** The code of the EctpError `call` throws; fails when it throws anything else or nothing. */
function thrownCode(call: () => unknown): string {
  let thrown: unknown;
  try {
    call();
  } catch (e) {
    thrown = e;
  }
  if (thrown === undefined) throw new Error("nothing was thrown");
  if (!(thrown instanceof Error) || (thrown as { name?: unknown }).name !== "EctpError")
    throw new Error(`not an EctpError: ${thrown instanceof Error ? `${thrown.constructor.name}: ${thrown.message}` : typeof thrown}`);
  return (thrown as EctpError).code;
}

describe("encodeEnvelope and the Event.kind oneof", () => {
  // SPEC.md section 5: "A sender MUST NOT encode a field twice, nor set two members of a oneof (a
  // protobuf encoder writes every member a plain object sets; the reference `encodeEnvelope`
  // refuses that)." ... "at most one member of a oneof (one body per envelope, one kind per event)".
  it("[I1] an EventBatch event with two kinds set is refused (INVALID_ARGUMENT), not encoded into bytes every receiver refuses", () => {
    const key = { contentHash: new Uint8Array([1]) };
    const envelope = {
      version: { major: 1 },
      senderId: "p",
      senderEpoch: 1,
      eventBatch: { sequence: 1, events: [{ stored: { item: { key, sizeBytes: 1, producerId: "p", epoch: 1 } }, removed: { key } }] },
    };
    let bytes: Uint8Array | undefined;
    let error: unknown;
    try {
      bytes = encodeEnvelope(envelope);
    } catch (e) {
      error = e;
    }
    // What the encoder let through, the reference decoder refuses:
    if (bytes !== undefined) {
      const decoded = decodeEnvelope(bytes);
      expect(decoded.ok ? "decoded" : decoded.error.message).toContain("occurs after oneof kind was already set");
    }
    expect(bytes).toBeUndefined();
    expect(EctpError.is(error) && error.code).toBe("INVALID_ARGUMENT");
    expect((error as Error).message).toContain("events[0]");
    // One kind per event still encodes and decodes.
    const one = encodeEnvelope({ ...envelope, eventBatch: { sequence: 1, events: [{ removed: { key } }, { cleared: {} }] } });
    expect(decodeEnvelope(one).ok).toBe(true);
  });
});

describe("byte inputs that are not bytes", () => {
  // bytes.ts (byteView, behind encodeFrame, FrameDecoder.push, crc32c, decodeEnvelope): "Anything
  // else is local misuse: `EctpError(INVALID_ARGUMENT)` naming `what`, never a silent empty or
  // reinterpreted input." README: "Both take a Uint8Array, an ArrayBuffer or any view of one (as
  // its bytes), as do `crc32c` and `crc32cBytes`; anything else throws `INVALID_ARGUMENT`."
  it("an object that only claims to be an ArrayBuffer (Symbol.toStringTag) is refused, not read as empty or as an array-like", () => {
    const empty = { [Symbol.toStringTag]: "ArrayBuffer" };
    const arrayLike = { [Symbol.toStringTag]: "ArrayBuffer", length: 2, 0: 1, 1: 2 };
    expect(thrownCode(() => encodeFrame(empty as never))).toBe("INVALID_ARGUMENT"); // was: a zero-length frame
    expect(thrownCode(() => crc32c(arrayLike as never))).toBe("INVALID_ARGUMENT"); // was: the CRC of [1, 2]
    expect(thrownCode(() => new FrameDecoder().push(arrayLike as never))).toBe("INVALID_ARGUMENT");
    const decoded = decodeEnvelope(empty as never);
    expect(!decoded.ok && decoded.error.code).toBe("INVALID_ARGUMENT"); // was: VERSION, for an empty envelope
  });

  it("a Proxy of an ArrayBuffer is refused, not read as empty", () => {
    const proxied = new Proxy(new ArrayBuffer(4), {});
    expect(thrownCode(() => encodeFrame(proxied))).toBe("INVALID_ARGUMENT");
    expect(thrownCode(() => crc32c(proxied))).toBe("INVALID_ARGUMENT");
  });

  // bytes.ts: "[I1] A value that cannot even be looked at (a Proxy whose traps throw) is not bytes either."
  it("a Proxy of a Uint8Array (whose typed-array getters cannot be read through it) is INVALID_ARGUMENT, not a TypeError", () => {
    const proxied = new Proxy(new Uint8Array(4), {});
    expect(thrownCode(() => crc32c(proxied))).toBe("INVALID_ARGUMENT");
    expect(thrownCode(() => encodeFrame(proxied))).toBe("INVALID_ARGUMENT");
    expect(thrownCode(() => new FrameDecoder().push(proxied))).toBe("INVALID_ARGUMENT");
    const trapped = new Proxy(new Uint8Array(4), {
      getPrototypeOf() {
        throw new Error("trap");
      },
    });
    expect(thrownCode(() => crc32c(trapped))).toBe("INVALID_ARGUMENT"); // encodeFrame already said so
    expect(thrownCode(() => encodeFrame(trapped))).toBe("INVALID_ARGUMENT");
  });

  it("a Uint8Array whose own length throws, or says other than its bytes, is INVALID_ARGUMENT, not the getter's error or a wrong frame", () => {
    const withLength = (get: () => number) => Object.defineProperty(Uint8Array.of(1, 2, 3, 4), "length", { get });
    const throwing = withLength(() => {
      throw new Error("length unreadable");
    });
    const lying = withLength(() => 1_000);
    for (const view of [throwing, lying]) {
      expect(thrownCode(() => encodeFrame(view))).toBe("INVALID_ARGUMENT");
      expect(thrownCode(() => new FrameDecoder().push(view))).toBe("INVALID_ARGUMENT");
      expect(thrownCode(() => crc32c(view))).toBe("INVALID_ARGUMENT");
      expect(thrownCode(() => crc32cBytes(view))).toBe("INVALID_ARGUMENT");
      const decoded = decodeEnvelope(view);
      expect(decoded.ok ? "ok" : decoded.error.code).toBe("INVALID_ARGUMENT");
    }
  });
});

describe("EctpError.is never throws", () => {
  // errors.ts: "True for any `EctpError`, even one made by another copy of this package." A type
  // guard used on caught values (bytes.ts: `if (cause instanceof EctpError) throw cause;`); a
  // value it cannot read is not an EctpError.
  it("a revoked Proxy, or one whose get trap throws, is not an EctpError (is, instanceof)", () => {
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const trapping = new Proxy({}, {
      get() {
        throw new Error("trap");
      },
    });
    expect(() => EctpError.is(revoked)).not.toThrow();
    expect(EctpError.is(revoked)).toBe(false);
    expect(EctpError.is(trapping)).toBe(false);
    expect(() => revoked instanceof EctpError).not.toThrow();
    expect(EctpError.is(new EctpError("INTERNAL", "x"))).toBe(true);
  });

  it("so a byte input whose trap throws a revoked Proxy is still INVALID_ARGUMENT from encodeFrame and FrameDecoder.push", () => {
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const hostile = new Proxy(new Uint8Array(4), {
      getPrototypeOf() {
        throw revoked;
      },
    });
    expect(thrownCode(() => encodeFrame(hostile))).toBe("INVALID_ARGUMENT");
    expect(thrownCode(() => new FrameDecoder().push(hostile))).toBe("INVALID_ARGUMENT");
  });
});

describe("thrownMessage is text", () => {
  // errors.ts: thrownMessage: "An Error's `message`, else thrownText of the value; never throws
  // [I1]" (typed `string`); README: "the text of a caught value for a log field or an error
  // message". encodeEnvelope: "Throws `EctpError(INVALID_ARGUMENT)` if it cannot be encoded".
  it("an Error whose message is not a string gives text (thrownText), so encodeEnvelope still throws its typed error", () => {
    const symbolMessage = new Error("x");
    Object.defineProperty(symbolMessage, "message", { value: Symbol("s") });
    const objectMessage = new Error("x");
    Object.defineProperty(objectMessage, "message", { value: Object.create(null) });
    for (const e of [symbolMessage, objectMessage]) {
      expect(typeof thrownMessage(e)).toBe("string");
      const envelope = {
        version: { major: 1 },
        senderId: "a",
        senderEpoch: 1,
        get heartbeat(): object {
          throw e;
        },
      };
      expect(thrownCode(() => encodeEnvelope(envelope))).toBe("INVALID_ARGUMENT");
    }
    expect(thrownMessage(new Error("boom"))).toBe("boom");
  });
});

describe("closestName and candidates that cannot be iterated", () => {
  // names.ts: "A `name` that is not a string, `candidates` that cannot be iterated, or a
  // `maxEdits` that is not a non-negative integer throw `EctpError(INVALID_ARGUMENT)`."
  it("candidates whose Symbol.iterator gives no iterator (they cannot be iterated) are INVALID_ARGUMENT, not a TypeError", () => {
    expect(thrownCode(() => closestName("a", { [Symbol.iterator]: () => 5 } as never, 1))).toBe("INVALID_ARGUMENT");
    expect(
      thrownCode(() =>
        closestName("a", { [Symbol.iterator]: () => ({ next: () => { throw new Error("broken iterator"); } }) } as never, 1),
      ),
    ).toBe("INVALID_ARGUMENT");
  });

  it("candidates whose Symbol.iterator cannot even be read (a throwing getter, a revoked Proxy) are INVALID_ARGUMENT, not the getter's error", () => {
    const revocable = Proxy.revocable<string[]>([], {});
    revocable.revoke();
    const getter = {
      get [Symbol.iterator](): never {
        throw new Error("boom");
      },
    };
    for (const candidates of [revocable.proxy, getter]) expect(thrownCode(() => closestName("a", candidates as never, 1))).toBe("INVALID_ARGUMENT");
  });
});

describe("sizes.ts: eventByteLength / itemDescriptorByteLength on unreadable input", () => {
  // sizes.ts: "@throws EctpError(INVALID_ARGUMENT) for a value a field cannot carry (as `encodeEnvelope`)";
  // encodeEnvelope turns a throwing getter / Proxy trap into EctpError(INVALID_ARGUMENT).
  const hostile = new Proxy({}, { get() { throw new Error("trap"); } });
  const getter = { get key() { throw new Error("getter"); }, sizeBytes: 1, producerId: "p", epoch: 1 };
  it("a Proxy whose traps throw gives EctpError(INVALID_ARGUMENT), not the trap's Error", () => {
    expect(thrownCode(() => eventByteLength(hostile as never))).toBe("INVALID_ARGUMENT");
    expect(thrownCode(() => itemDescriptorByteLength(hostile as never))).toBe("INVALID_ARGUMENT");
  });
  it("a throwing getter gives EctpError(INVALID_ARGUMENT)", () => {
    expect(thrownCode(() => itemDescriptorByteLength(getter as never))).toBe("INVALID_ARGUMENT");
    expect(thrownCode(() => eventByteLength({ stored: { item: getter } } as never))).toBe("INVALID_ARGUMENT");
  });
  it("a string is not an event (encodeEnvelope refuses a string envelope)", () => {
    expect(thrownCode(() => eventByteLength("x" as never))).toBe("INVALID_ARGUMENT");
  });
});

describe("bytes.ts byteView: a view out of bounds of a shrunk resizable ArrayBuffer", () => {
  // bytes.ts byteView: "Anything else is local misuse: `EctpError(INVALID_ARGUMENT)` naming `what`,
  // never a silent empty or reinterpreted input"; isGoneView: a view whose bytes are gone "would
  // otherwise be framed or checksummed as no bytes".
  // (Resizable buffers are ES2024; this package's lib is older, so their shape is spelt out.)
  type Resizable = ArrayBuffer & { resize(bytes: number): void };
  const ResizableBuffer = ArrayBuffer as unknown as new (bytes: number, options: { maxByteLength: number }) => Resizable;
  function outOfBounds(): Uint8Array {
    const buffer = new ResizableBuffer(8, { maxByteLength: 16 });
    const view = new Uint8Array(buffer, 4, 4);
    buffer.resize(2); // the view's 4 bytes are gone: it now reads as length 0
    return view;
  }
  it("encodeFrame refuses it instead of framing an empty payload", () => {
    expect(thrownCode(() => encodeFrame(outOfBounds()))).toBe("INVALID_ARGUMENT");
  });
  it("crc32c refuses it instead of checksumming no bytes", () => {
    expect(thrownCode(() => crc32c(outOfBounds()))).toBe("INVALID_ARGUMENT");
  });
  it("FrameDecoder.push refuses it instead of reading no bytes", () => {
    expect(thrownCode(() => new FrameDecoder().push(outOfBounds()))).toBe("INVALID_ARGUMENT");
  });
  it("decodeEnvelope gives INVALID_ARGUMENT (local misuse), not VERSION for an empty envelope", () => {
    const r = decodeEnvelope(outOfBounds());
    expect(r.ok ? "ok" : r.error.code).toBe("INVALID_ARGUMENT");
  });
  it("a DataView out of bounds is named as bytes that are gone, as a Uint8Array is (it was `an object that cannot be read`)", () => {
    const dataView = () => {
      const buffer = new ResizableBuffer(8, { maxByteLength: 16 });
      const view = new DataView(buffer, 4, 4);
      buffer.resize(2);
      return view;
    };
    const gone = "is over a detached ArrayBuffer (transferred away, e.g. by postMessage or structuredClone) or out of bounds of a resizable one that shrank: its bytes are gone";
    for (const use of [() => encodeFrame(dataView()), () => crc32c(dataView()), () => new FrameDecoder().push(dataView())])
      expect(use).toThrow(gone);
    const r = decodeEnvelope(dataView() as unknown as Uint8Array); // (any view of bytes, as documented)
    expect(r.ok || r.error.message).toBe(`[INVALID_ARGUMENT] an envelope ${gone}; pass bytes the caller still owns`);
    // In bounds again (the buffer grown back), it is its bytes; an empty DataView is no bytes, not gone ones.
    const buffer = new ResizableBuffer(8, { maxByteLength: 16 });
    const view = new DataView(buffer, 4, 4);
    buffer.resize(2);
    buffer.resize(8);
    expect(encodeFrame(view)).toEqual(new Uint8Array([0, 0, 0, 4, 0, 0, 0, 0]));
    expect(encodeFrame(new DataView(new ArrayBuffer(4), 4))).toEqual(new Uint8Array([0, 0, 0, 0]));
  });
});

describe("validateDescriptor: a limits.fingerprint that cannot be read is the caller's mistake", () => {
  // validateDescriptor: "limits without a `maxItemBytes` number >= 1, or that cannot be read (the
  // caller's mistake), give `INVALID_ARGUMENT`" (a malformed but readable one matches nothing: INCOMPATIBLE).
  const descriptor = { key: { contentHash: new Uint8Array([1]) }, sizeBytes: 1, producerId: "p", epoch: 1 };
  it("an expected fingerprint that cannot be read gives INVALID_ARGUMENT, not INVALID_DESCRIPTOR blaming the peer's descriptor", () => {
    const hostile = new Proxy({}, { get() { throw new Error("trap"); } });
    const r = validateDescriptor(descriptor, { maxItemBytes: 5, fingerprint: hostile });
    expect(r.ok ? "ok" : r.error.code).toBe("INVALID_ARGUMENT");
  });
});

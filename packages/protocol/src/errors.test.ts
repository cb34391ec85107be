import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { crc32c, crc32cBytes } from "./checksum.js";
import { EctpError, describeValue, shortText, thrownMessage, thrownText } from "./errors.js";
import type { EctpErrorCode } from "./errors.js";
import { ectp } from "./gen/ectp.js";

describe("EctpError", () => {
  it("prefixes the message with the code and keeps cause and details", () => {
    const cause = new Error("socket closed");
    const e = new EctpError("PEER_UNREACHABLE", "peer p1 did not answer; check its address", {
      cause,
      details: { peer: "p1" },
    });
    expect(e.message).toBe("[PEER_UNREACHABLE] peer p1 did not answer; check its address");
    expect(e.name).toBe("EctpError");
    expect(e.code).toBe("PEER_UNREACHABLE");
    expect(e.cause).toBe(cause);
    expect(e.details).toEqual({ peer: "p1" });
    expect(e).toBeInstanceOf(Error);
    expect(new EctpError("INTERNAL", "x").details).toEqual({});
    expect("cause" in new EctpError("INTERNAL", "x")).toBe(false);
  });

  it("refuses options that are null or no object with INVALID_ARGUMENT (null threw a TypeError); undefined is no cause and no details", () => {
    for (const [bad, shown] of [[null, "null"], [[], "an array"], ["cause", '"cause"'], [5, "5"]] as const) {
      let thrown: unknown;
      try {
        new EctpError("INTERNAL", "x", bad as never);
      } catch (e) {
        thrown = e;
      }
      expect(EctpError.is(thrown) && thrown.code).toBe("INVALID_ARGUMENT");
      expect((thrown as EctpError).message).toBe(`[INVALID_ARGUMENT] EctpError: options must be an object { cause?, details? }; got ${shown}`);
    }
    expect(new EctpError("INTERNAL", "x", undefined).details).toEqual({});
  });

  it("derives retryable from the spec table: exactly NOT_READY, OVERLOADED, GRANT_TIMEOUT, PEER_UNREACHABLE", () => {
    const codes = Object.keys(ectp.v1.FailureReason)
      .filter((k) => k !== "FAILURE_REASON_UNSPECIFIED")
      .map((k) => k.slice("FAILURE_REASON_".length) as EctpErrorCode);
    const retryable = codes.filter((c) => new EctpError(c, "").retryable).sort();
    expect(retryable).toEqual(["GRANT_TIMEOUT", "NOT_READY", "OVERLOADED", "PEER_UNREACHABLE"]);
    for (const local of ["MALFORMED_MESSAGE", "FRAME_TOO_LARGE", "INVALID_DESCRIPTOR"] as const)
      expect(new EctpError(local, "").retryable).toBe(false);
  });

  it("is recognised across duplicated package copies through the Symbol.for brand", () => {
    // A second copy of the package has its own class but the same global symbol.
    const foreign = Object.assign(new Error("[NOT_FOUND] x"), { code: "NOT_FOUND" });
    Object.defineProperty(foreign, Symbol.for("ectp.EctpError"), { value: true });
    expect(foreign).toBeInstanceOf(EctpError);
    expect(EctpError.is(foreign)).toBe(true);
    expect(new Error("plain")).not.toBeInstanceOf(EctpError);
    expect(EctpError.is({ code: "NOT_FOUND" })).toBe(false);
    expect(EctpError.is(null)).toBe(false);
  });
});

describe("crc32c [C11]", () => {
  const ascii = (s: string) => new TextEncoder().encode(s);

  it("matches the published CRC-32C check values", () => {
    expect(crc32c(ascii("123456789"))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(0))).toBe(0);
    // RFC 3720 (iSCSI) appendix B.4 vectors.
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(0x46dd794e);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => 31 - i))).toBe(0x113fdb5c);
  });

  it("refuses a previous value that no crc32c call returns (it was folded into another checksum)", () => {
    const data = ascii("123456789");
    for (const [bad, got] of [[-(2 ** 31) - 1, "-2147483649"], [2 ** 32, "4294967296"], [1.5, "1.5"], [Number.NaN, "NaN"], ["7", "string"], [7n, "bigint"]] as const) {
      let caught: unknown;
      try {
        crc32c(data, bad as unknown as number);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(EctpError);
      expect((caught as EctpError).code).toBe("INVALID_ARGUMENT");
      expect((caught as EctpError).message).toContain(`previous must be the 32-bit value an earlier crc32c call returned, unsigned or signed (0 to start); got ${got}.`);
    }
    // The same 32 bits signed (as `crc | 0` gives) continue alike.
    const first = crc32c(data.subarray(0, 4));
    expect(first).toBeGreaterThan(2 ** 31); // (its signed form is negative)
    expect(crc32c(data.subarray(4), first | 0)).toBe(crc32c(data));
    expect(crc32c(data.subarray(4), first)).toBe(crc32c(data));
  });

  it("continues from a previous value, for any split (slicing-by-8 and byte tail agree)", () => {
    const data = Uint8Array.from({ length: 100 }, (_, i) => (i * 131 + 7) & 0xff);
    const whole = crc32c(data);
    for (let cut = 0; cut <= data.length; cut++)
      expect(crc32c(data.subarray(cut), crc32c(data.subarray(0, cut)))).toBe(whole);
  });

  it("agrees with the bytewise definition at every length 0..300 and on views at odd offsets", () => {
    const bitwise = (b: Uint8Array): number => {
      let c = ~0;
      for (const x of b) {
        c ^= x;
        for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
      }
      return ~c >>> 0;
    };
    const data = Uint8Array.from({ length: 310 }, (_, i) => (i * 2654435761) >>> 24);
    for (let n = 0; n <= 300; n++) {
      const view = data.subarray(n % 7, (n % 7) + n);
      expect(crc32c(view)).toBe(bitwise(view));
    }
  });

  it("crc32cBytes is the big-endian 4-byte form", () => {
    expect(Array.from(crc32cBytes(ascii("123456789")))).toEqual([0xe3, 0x06, 0x92, 0x83]);
  });
});

describe("thrownText and thrownMessage (what a caught value says, never throwing [I1])", () => {
  it("say what String and an Error's message say, and describe a value that cannot be turned into a string", () => {
    expect(thrownText(new Error("boom"))).toBe("Error: boom");
    expect(thrownMessage(new Error("boom"))).toBe("boom");
    expect(thrownMessage(7)).toBe("7");
    expect(thrownText(Object.create(null))).toBe("a thrown object that cannot be turned into a string");
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke(); // instanceof and String both throw on a revoked proxy
    expect(thrownMessage(proxy)).toBe("a thrown object that cannot be turned into a string");
  });
});

describe("shortText (a caller's string as a message shows it)", () => {
  it("keeps up to max characters whole and cuts a longer one after max, with ...", () => {
    expect(shortText("abc", 3)).toBe("abc");
    expect(shortText("abcd", 3)).toBe("abc...");
    expect(shortText("", 0)).toBe("");
    expect(describeValue("x".repeat(41))).toBe(JSON.stringify(`${"x".repeat(40)}...`)); // describeValue cuts at 40 with it
  });
});

describe("describeValue (what a bad argument was, for every package's error messages)", () => {
  it.each([
    [undefined, "nothing"],
    [null, "null"],
    [-1.5, "-1.5"],
    [Number.NaN, "NaN"],
    [true, "true"],
    ["1", '"1"'],
    ["x".repeat(50), `"${"x".repeat(40)}..."`],
    [10n, "10n"],
    [Symbol("s"), "Symbol(s)"],
    [[1, 2], "an array"],
    [() => 1, "a function"],
    [{ toString: () => "secret" }, "an object"],
    [new Map(), "an object"],
  ])("describes %s as %s", (value, shown) => {
    expect(describeValue(value)).toBe(shown);
  });

  it("names bytes by their kind, of any realm: a Uint8Array (a Buffer is one), any other typed array, a DataView, an ArrayBuffer (they read as `an object`)", () => {
    expect(describeValue(new Uint8Array(2))).toBe("a Uint8Array");
    expect(describeValue(Buffer.from("ab"))).toBe("a Uint8Array");
    expect(describeValue(new Int16Array(1))).toBe("an Int16Array");
    expect(describeValue(new BigUint64Array(1))).toBe("a BigUint64Array");
    expect(describeValue(new DataView(new ArrayBuffer(1)))).toBe("a DataView");
    expect(describeValue(runInNewContext("new Uint8Array(1)"))).toBe("a Uint8Array"); // another realm's
    expect(describeValue(new ArrayBuffer(1))).toBe("an ArrayBuffer");
    expect(describeValue(new SharedArrayBuffer(1))).toBe("a SharedArrayBuffer");
    // Another realm's buffers, which are no `instanceof ArrayBuffer` here (they read as `an object`).
    expect(describeValue(runInNewContext("new ArrayBuffer(1)"))).toBe("an ArrayBuffer");
    expect(describeValue(runInNewContext("new SharedArrayBuffer(1)"))).toBe("a SharedArrayBuffer");
    // Only real views: a Proxy of a view or an object claiming the tag is an object.
    expect(describeValue({ [Symbol.toStringTag]: "ArrayBuffer" })).toBe("an object");
    expect(describeValue(new Proxy(new Uint8Array(1), {}))).toBe("an object");
    expect(describeValue({ [Symbol.toStringTag]: "Uint8Array" })).toBe("an object");
  });

  it("never throws for a value that cannot be printed or inspected: a null-prototype object, a revoked Proxy", () => {
    expect(describeValue(Object.create(null))).toBe("an object");
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    expect(() => Array.isArray(proxy)).toThrow(TypeError);
    expect(describeValue(proxy)).toBe("an object");
  });
});

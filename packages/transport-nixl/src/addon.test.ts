/**
 * Always runs (no NIXL needed): the actionable TRANSPORT_UNAVAILABLE error, the UCX
 * environment defaults, the location codec, decoding the addon's drain and the NIXL error mapping.
 */
import { EctpError } from "@ectp/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UCX_ENV_DEFAULTS, addonCandidates, decodeNativeDrain, loadNixlAddon } from "./addon.js";
import { nixlErrorToEctp } from "./errors.js";
import { decodeLocation, encodeLocation, locationProblem } from "./location.js";
import { NixlTransport } from "./transport.js";

describe("loading the addon", () => {
  it("a missing addon is ONE actionable TRANSPORT_UNAVAILABLE error naming platform, paths and fix", () => {
    const path = "/nonexistent/dir/ectp_nixl.node";
    let err: unknown;
    try {
      new NixlTransport({ localId: "x", addonPath: path });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EctpError);
    const e = err as EctpError;
    expect(e.code).toBe("TRANSPORT_UNAVAILABLE");
    expect(e.message).toContain(`${process.platform}-${process.arch}`);
    expect(e.message).toContain(`${path} (not found)`);
    expect(e.message).toContain("NIXL_PREFIX=");
    expect(e.message).toContain("npm rebuild @ectp/nixl-native");
    expect(e.message).toContain("node native/nixl/scripts/build.mjs");
    expect(e.message).toContain("ECTP_NIXL_ADDON");
    expect(() => loadNixlAddon(path)).toThrow(/TRANSPORT_UNAVAILABLE/);
  });

  it("sets UCX_MEM_EVENTS=no before loading unless the environment sets it", () => {
    const saved = process.env.UCX_MEM_EVENTS;
    try {
      delete process.env.UCX_MEM_EVENTS;
      expect(() => loadNixlAddon("/nonexistent/ectp_nixl.node")).toThrow(EctpError);
      expect(process.env.UCX_MEM_EVENTS).toBe("no");
      expect(UCX_ENV_DEFAULTS).toEqual({ UCX_MEM_EVENTS: "no" });
      process.env.UCX_MEM_EVENTS = "yes";
      expect(() => loadNixlAddon("/nonexistent/ectp_nixl.node")).toThrow(EctpError);
      expect(process.env.UCX_MEM_EVENTS).toBe("yes"); // an explicit choice stands
    } finally {
      if (saved === undefined) delete process.env.UCX_MEM_EVENTS;
      else process.env.UCX_MEM_EVENTS = saved;
    }
  });

  it("looks in $ECTP_NIXL_ADDON first, then the workspace build relative to the package", () => {
    const before = process.env.ECTP_NIXL_ADDON;
    process.env.ECTP_NIXL_ADDON = "/tmp/override/ectp_nixl.node";
    try {
      const c = addonCandidates();
      expect(c[0]).toBe("/tmp/override/ectp_nixl.node");
      expect(c.some((p) => p.endsWith("native/nixl/build/Release/ectp_nixl.node"))).toBe(true);
    } finally {
      if (before === undefined) delete process.env.ECTP_NIXL_ADDON;
      else process.env.ECTP_NIXL_ADDON = before;
    }
  });
});

describe("location codec", () => {
  it("round-trips every field of a range that ends below 2^64, and refuses one that does not", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.uint8Array({ maxLength: 300 }),
        (address, length, agent, section) => {
          const d = decodeLocation(encodeLocation({ address, length, agent, section }));
          if (address + BigInt(length) >= 1n << 64n) expect(d).toBe("location address range wraps past 2^64");
          else expect(d).toEqual({ address, length, agent, section });
        },
      ),
    );
  });

  it("never throws on arbitrary bytes, returning a reason instead [I1]", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const d = decodeLocation(bytes);
        expect(typeof d === "string" || typeof d === "object").toBe(true);
      }),
    );
    expect(decodeLocation(new Uint8Array([0xde, 0xad]))).toMatch(/too short/);
  });
});

describe("locationProblem (why the addon refused a source location)", () => {
  const loc = encodeLocation({ address: 4096n, length: 16, agent: "producer-1", section: new Uint8Array(3) });
  it("names a malformed location, another agent's, and one shorter than the read", () => {
    expect(locationProblem(new Uint8Array([1, 2]), "producer-1", 16)).toBe("malformed source location: location too short (2 bytes)");
    expect(locationProblem(loc, "producer-2", 16)).toBe("source location belongs to producer-1, not producer-2");
    expect(locationProblem(loc, "producer-1", 17)).toBe("source holds 16 bytes, destination wants 17");
  });
  it("names a location whose agent name decodes to the peer id but is other bytes (invalid UTF-8)", () => {
    const bad = encodeLocation({ address: 4096n, length: 16, agent: "\uFFFD", section: new Uint8Array(0) });
    bad.set([0xff], 22); // one invalid byte where U+FFFD's three bytes were
    const fixed = new Uint8Array(bad.length - 2);
    fixed.set(bad.subarray(0, 23));
    fixed.set(bad.subarray(25), 23);
    new DataView(fixed.buffer).setUint16(20, 1, true);
    expect(decodeLocation(fixed)).toMatchObject({ agent: "\uFFFD" });
    expect(locationProblem(fixed, "\uFFFD", 16)).toBe("source location's agent name is not the UTF-8 of \"\uFFFD\"");
  });
});

describe("decoding the addon's drain", () => {
  it("reads settled reads as [id, status, flags, crc] quadruples (crc only where flag 8 says so) and failed sends as [peer, status, tag] triples", () => {
    const names = new Map([
      [0, "NIXL_SUCCESS"],
      [-10, "NIXL_ERR_REMOTE_DISCONNECT"],
    ]);
    const raw = [["agent-p", Buffer.from([0, 1])], [1, 0, 8, 0xfedcba98, 2, 0, 0, 0, 3, -10, 2 | 4, 0], ["agent-q", -10, 7]] as const;
    const d = decodeNativeDrain(raw, names);
    expect(d.notifs).toEqual([{ from: "agent-p", bytes: Buffer.from([0, 1]) }]);
    expect(d.reads).toEqual([
      { id: 1, status: 0, code: "NIXL_SUCCESS", deregistered: false, closed: false, crc32c: 0xfedcba98 },
      { id: 2, status: 0, code: "NIXL_SUCCESS", deregistered: false, closed: false },
      { id: 3, status: -10, code: "NIXL_ERR_REMOTE_DISCONNECT", deregistered: true, closed: true },
    ]);
    expect(d.sendFailures).toEqual([{ peer: "agent-q", status: -10, code: "NIXL_ERR_REMOTE_DISCONNECT", tag: 7 }]);
    expect(decodeNativeDrain(undefined, names).reads).toEqual([]);
  });
});

describe("NIXL error mapping", () => {
  it("maps REMOTE_DISCONNECT to PEER_UNREACHABLE and keeps the NIXL code in details", () => {
    const e = nixlErrorToEctp(Object.assign(new Error("x"), { code: "NIXL_ERR_REMOTE_DISCONNECT", nixlStatus: -10 }), "reading");
    expect(e.code).toBe("PEER_UNREACHABLE");
    expect(e.details).toMatchObject({ nixlCode: "NIXL_ERR_REMOTE_DISCONNECT", nixlStatus: -10 });
    expect(nixlErrorToEctp(Object.assign(new Error("y"), { code: "NIXL_ERR_MISMATCH" }), "loading").code).toBe("INVALID_ARGUMENT");
    expect(nixlErrorToEctp("weird", "x").code).toBe("INTERNAL");
  });
});

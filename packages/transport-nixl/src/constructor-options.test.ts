/**
 * Always runs (no NIXL needed): `new NixlTransport(options)` refuses options it cannot use with
 * EctpError(INVALID_CONFIG), as the SDK's other constructors do, and does so before the addon is
 * loaded. A misspelt option ran silently with its default before (review of 2026-12, section 4).
 */
import { EctpError } from "@ectp/protocol";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { NixlTransport, type NixlTransportOptions } from "./transport.js";

/** The JavaScript stand-in addon: construction succeeds over it, so what the checks let through is built. */
const fakeAddon = join(dirname(fileURLToPath(import.meta.url)), "test", "fake-addon.cjs");
/** An addon path that cannot load: a check that ran after loading would report TRANSPORT_UNAVAILABLE instead. */
const missingAddon = "/nonexistent/dir/ectp_nixl.node";

const KNOWN = "localId, backendParams, busySpinUs, busyPollUs, busyWindowMs, servePollUs, idlePollMaxUs, cancelGraceMs, waitSpinUs, addonPath";

/** What `new NixlTransport(options)` throws (failing the test when it throws nothing or no EctpError). */
function thrownBy(options: unknown): EctpError {
  const Ctor = NixlTransport as unknown as new (o: unknown) => NixlTransport;
  try {
    new Ctor(options);
  } catch (e) {
    expect(e).toBeInstanceOf(EctpError);
    return e as EctpError;
  }
  throw new Error(`new NixlTransport(${JSON.stringify(options)}) did not throw`);
}

describe("new NixlTransport(options) refuses options it cannot use, before loading the addon", () => {
  it("a misspelt option is INVALID_CONFIG naming it, the nearest option and every option, not run with its default", () => {
    const e = thrownBy({ localId: "a", addonPath: fakeAddon, waitSpinMs: 0 });
    expect(e.code).toBe("INVALID_CONFIG");
    expect(e.message).toBe(
      `[INVALID_CONFIG] options.waitSpinMs is not an option of NixlTransport (did you mean waitSpinUs?); its options are ${KNOWN}. Check the spelling, or remove it.`,
    );
    expect(e.details).toEqual({ key: "waitSpinMs", knownKeys: KNOWN.split(", ") });
    expect(thrownBy({ localId: "a", addonPath: fakeAddon, cancelGraceMS: 10 }).message).toContain("options.cancelGraceMS is not an option of NixlTransport (did you mean cancelGraceMs?)");
    expect(thrownBy({ localId: "a", addonPath: fakeAddon, backendParam: {} }).message).toContain("(did you mean backendParams?)");
    expect(thrownBy({ localID: "a", addonPath: fakeAddon }).message).toContain("options.localID is not an option of NixlTransport (did you mean localId?)");
    // Set to undefined still counts; one near no option is named without a suggestion.
    expect(thrownBy({ localId: "a", addonPath: fakeAddon, busySpinMs: undefined }).message).toContain("options.busySpinMs is not an option of NixlTransport (did you mean busySpinUs?)");
    expect(thrownBy({ localId: "a", addonPath: fakeAddon, colour: "blue" }).message).toMatch(/^\[INVALID_CONFIG\] options\.colour is not an option of NixlTransport; its options are /);
  });

  it("an unknown option is refused even where the addon cannot load: the typo is reported, not TRANSPORT_UNAVAILABLE", () => {
    expect(thrownBy({ localId: "a", addonPath: missingAddon, adonPath: "x" })).toMatchObject({
      code: "INVALID_CONFIG",
      message: expect.stringContaining("options.adonPath is not an option of NixlTransport (did you mean addonPath?)"),
    });
    // With the default addon resolution too (no NIXL here: loading would throw TRANSPORT_UNAVAILABLE).
    expect(thrownBy({ localId: "a", waitSpinUS: 0 }).code).toBe("INVALID_CONFIG");
  });

  it("options that are not an object, and a localId that is not 1 to 1,024 UTF-8 bytes, are INVALID_CONFIG naming localId", () => {
    for (const options of [undefined, null, "a", 7, []]) {
      const e = thrownBy(options);
      expect(e.code, String(options)).toBe("INVALID_CONFIG");
      expect(e.message, String(options)).toContain("localId");
    }
    for (const localId of [undefined, "", 42, null, "é".repeat(513)]) {
      const e = thrownBy({ localId, addonPath: missingAddon });
      expect(e.code, String(localId)).toBe("INVALID_CONFIG");
      expect(e.message, String(localId)).toContain("options.localId");
      expect(e.details).toEqual({ option: "localId" });
    }
    expect(thrownBy({ localId: "é".repeat(513) }).message).toContain("options.localId is 1026 UTF-8 bytes; at most 1024 are allowed");
    // A lone surrogate (UTF-8 would carry U+FFFD instead, another name), as MockNetwork refuses it; a pair is fine.
    expect(thrownBy({ localId: "a\ud800b", addonPath: missingAddon })).toMatchObject({
      code: "INVALID_CONFIG",
      message: expect.stringContaining("options.localId has a lone UTF-16 surrogate at index 1"),
      details: { option: "localId" },
    });
    void new NixlTransport({ localId: "a\u{1F600}b", addonPath: fakeAddon }).close();
  });

  it.each(["busySpinUs", "busyPollUs", "busyWindowMs", "servePollUs", "idlePollMaxUs", "cancelGraceMs", "waitSpinUs"])(
    "%s that is not a number from 0 to 1e9 is INVALID_CONFIG naming it (the addon would refuse it, or spin on NaN)",
    (key) => {
      for (const value of [-1, Number.NaN, Number.POSITIVE_INFINITY, 1e9 + 1, "50", null]) {
        const e = thrownBy({ localId: "a", addonPath: missingAddon, [key]: value });
        expect(e.code, String(value)).toBe("INVALID_CONFIG");
        expect(e.message, String(value)).toContain(`options.${key} must be a number from 0 to 1000000000`);
        expect(e.details).toEqual({ option: key });
      }
      for (const value of [0, 1e9, undefined]) void new NixlTransport({ localId: "a", addonPath: fakeAddon, [key]: value }).close();
    },
  );

  it("backendParams that is not an object of strings, and an addonPath that is not a non-empty string, are INVALID_CONFIG naming them", () => {
    for (const backendParams of [null, "ucx_error_handling_mode=peer", ["peer"], { ucx_error_handling_mode: 1 }]) {
      const e = thrownBy({ localId: "a", addonPath: missingAddon, backendParams });
      expect(e.code, JSON.stringify(backendParams)).toBe("INVALID_CONFIG");
      expect(e.message).toContain("options.backendParams");
    }
    expect(thrownBy({ localId: "a", backendParams: { ucx_error_handling_mode: 1 } }).message).toContain('options.backendParams["ucx_error_handling_mode"] must be a string; got 1');
    for (const addonPath of ["", 5, null]) {
      const e = thrownBy({ localId: "a", addonPath });
      expect(e.code, String(addonPath)).toBe("INVALID_CONFIG");
      expect(e.message).toContain("options.addonPath must be a non-empty path");
    }
  });

  it("every option, each valid, is accepted and the transport built", async () => {
    const options: Required<NixlTransportOptions> = {
      localId: "é".repeat(512),
      backendParams: { ucx_error_handling_mode: "peer" },
      busySpinUs: 1000,
      busyPollUs: 0,
      busyWindowMs: 100,
      servePollUs: 50,
      idlePollMaxUs: 5000,
      cancelGraceMs: 1000,
      waitSpinUs: 0.5,
      addonPath: fakeAddon,
    };
    const t = new NixlTransport(options);
    expect(t.localId).toBe(options.localId);
    await t.close();
  });
});

/**
 * `new MockNetwork(options)` refuses a key that is not one of its options (a misspelt `latncyMs`
 * used to be ignored, so the network silently ran with the default latency), and options that are
 * not an object, with `INVALID_CONFIG` naming the key and listing the known options.
 */
import type { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { DEFAULT_LATENCY_MS, MockNetwork, type MockNetworkOptions } from "./index.js";
import { ectpErrorOf } from "./test-helpers.js";

const KNOWN = "seed, clock, startTimeMs, latencyMs, bandwidthBytesPerMs, faults";

const configError = (f: () => unknown): EctpError => ectpErrorOf(f, "INVALID_CONFIG");

describe("unknown MockNetwork options", () => {
  it("a misspelt option is refused, naming it and listing the known options", () => {
    const e = configError(() => new MockNetwork({ seed: 1, latncyMs: 5 } as MockNetworkOptions));
    expect(e.message).toBe(
      `[INVALID_CONFIG] options.latncyMs is not an option of MockNetwork (did you mean latencyMs?); its options are ${KNOWN}. Check the spelling, or remove it.`,
    );
    expect(e.details).toEqual({ key: "latncyMs", knownKeys: KNOWN.split(", ") });
  });

  it("an unknown key is refused even when set to undefined, and before any other problem", () => {
    const e = configError(() => new MockNetwork({ seed: 1, fault: undefined, latencyMs: -1 } as unknown as MockNetworkOptions));
    expect(e.message).toMatch(/^\[INVALID_CONFIG\] options\.fault is not an option of MockNetwork \(did you mean faults\?\); its options are /);
  });

  it.each([
    ["nothing", undefined, "nothing"],
    ["null", null, "null"],
    ["a number", 5, "5"],
    ["an array", [], "an array"],
  ])("options given as %s are refused", (_name, options, shown) => {
    expect(configError(() => new MockNetwork(options as never)).message).toBe(
      `[INVALID_CONFIG] MockNetwork needs an options object ({ seed, ... }), got ${shown}`,
    );
  });

  it("every known option is still accepted, also when set to undefined", () => {
    const net = new MockNetwork({
      seed: 1,
      clock: undefined,
      startTimeMs: 3,
      latencyMs: undefined,
      bandwidthBytesPerMs: 1000,
      faults: { default: { drop: 0 } },
    });
    expect(net.now()).toBe(3);
    const withClock = new MockNetwork({ seed: 2, clock: { now: () => 7 }, latencyMs: DEFAULT_LATENCY_MS, startTimeMs: undefined, faults: undefined });
    expect(withClock.now()).toBe(7);
  });

  it("an options object with a null prototype is read like any other", () => {
    const options = Object.assign(Object.create(null) as object, { seed: 1, startTimeMs: 4 });
    expect(new MockNetwork(options as MockNetworkOptions).now()).toBe(4);
    const misspelt = Object.assign(Object.create(null) as object, { seed: 1, startTimems: 4 });
    expect(configError(() => new MockNetwork(misspelt as MockNetworkOptions)).message).toMatch(/options\.startTimems is not an option of MockNetwork \(did you mean startTimeMs\?\)/);
  });
});

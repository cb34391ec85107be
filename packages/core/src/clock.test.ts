/**
 * checkedNow [I1]: the clock reading a core accepts.
 */
import { describe, expect, it } from "vitest";
import { CLOCK_BEHIND_WARN_MS, checkedNow } from "./clock.js";
import type { Logger } from "./observability.js";

function recordingLogger(): { logger: Logger; errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const noop = () => {};
  return { logger: { debug: noop, info: noop, warn: (m: string) => warnings.push(m), error: (m: string) => errors.push(m) }, errors, warnings };
}

describe("checkedNow [I1]", () => {
  it("a finite reading is taken unless it is earlier than the last good one, and nothing is logged", () => {
    const { logger, errors } = recordingLogger();
    expect(checkedNow(5, 3, logger)).toBe(5);
    expect(checkedNow(2, 3, logger)).toBe(3);
    expect(checkedNow(7, Number.NEGATIVE_INFINITY, logger)).toBe(7);
    expect(checkedNow(-0, 0, logger)).toBe(0); // -0 equals the last good +0, which stands (toBe tells -0 from +0)
    expect(errors).toEqual([]);
  });

  it("a reading that is not finite gives the last good one, logged at error level", () => {
    const { logger, errors } = recordingLogger();
    expect(checkedNow(Number.NaN, 40, logger)).toBe(40);
    expect(checkedNow(Number.POSITIVE_INFINITY, 40, logger)).toBe(40);
    expect(errors.length).toBe(2);
  });

  it("with no good reading yet (the cores start from -Infinity), a reading that is not finite gives 0, not -Infinity or NaN", () => {
    const { logger, errors } = recordingLogger();
    for (const now of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(checkedNow(now, Number.NEGATIVE_INFINITY, logger)).toBe(0);
      expect(checkedNow(now, Number.NaN, logger)).toBe(0);
    }
    expect(errors.length).toBe(6);
  });

  it("a reading that cannot even be turned into a string (a detached typed array, a Proxy) is logged too, never thrown", () => {
    const { logger, errors } = recordingLogger();
    const buffer = new ArrayBuffer(8);
    const view = new Uint8Array(buffer);
    structuredClone(buffer, { transfer: [buffer] });
    const proxy = new Proxy({}, { get: () => { throw new Error("trap"); } });
    for (const now of [view, proxy]) expect(checkedNow(now as unknown as number, 40, logger)).toBe(40);
    expect(errors.length).toBe(2);
  });

  it("a reading that is not a number is named in the log by its kind (null, an array, an object), never thrown", () => {
    const fields: unknown[] = [];
    const noop = () => {};
    const logger: Logger = { debug: noop, info: noop, warn: noop, error: (_m: string, f?: unknown) => fields.push(f) };
    for (const now of [null, [5], {}, "5", undefined]) expect(checkedNow(now as unknown as number, 40, logger)).toBe(40);
    expect(fields).toEqual([{ now: "null" }, { now: "an array" }, { now: "an object" }, { now: '"5"' }, { now: "nothing" }]);
  });

  it("a reading more than CLOCK_BEHIND_WARN_MS behind the latest (another clock) is taken as the latest and warned of once per logger", () => {
    const { logger, warnings } = recordingLogger();
    const latest = 1.7e12; // Date.now()
    expect(checkedNow(latest - CLOCK_BEHIND_WARN_MS, latest, logger)).toBe(latest); // exactly the bound: not warned
    expect(warnings).toEqual([]);
    expect(checkedNow(5_000, latest, logger)).toBe(latest); // performance.now()
    expect(checkedNow(5_001, latest, logger)).toBe(latest);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("are two clocks in use");
    const other = recordingLogger();
    expect(checkedNow(5_000, latest, other.logger)).toBe(latest);
    expect(other.warnings).toHaveLength(1);
  });

  it("a reading a few seconds behind is not warned of; the warning gives how far behind the reading is", () => {
    const fields: unknown[] = [];
    const noop = () => {};
    const logger: Logger = { debug: noop, info: noop, warn: (_m: string, f?: unknown) => fields.push(f), error: noop };
    expect(CLOCK_BEHIND_WARN_MS).toBe(60_000);
    expect(checkedNow(90_000, 100_000, logger)).toBe(100_000); // 10 s behind: a late reading of the same clock
    expect(fields).toEqual([]);
    expect(checkedNow(5_000, 100_000, logger)).toBe(100_000);
    expect(fields).toEqual([{ now: 5_000, latest: 100_000, behindMs: 95_000 }]);
  });
});

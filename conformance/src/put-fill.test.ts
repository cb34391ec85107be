/**
 * PutItem.fill (testee.proto): an item of one repeated byte value, put without its bytes, so that a
 * case can fill a store with the gigabyte of [P5]'s default byte quota. The runner sends the value
 * for an `items.<name>.fill` fixture, and the TS testee makes the bytes.
 */
import * as core from "@ectp/core";
import { crc32c } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import type { LoadedCase } from "./cases/format.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import { TesteeRequest, type ectp } from "./proto.js";
import { crcBytes, makeFixture } from "./runner/fixtures.js";
import { CaseBug } from "./runner/match.js";
import { runSuite } from "./runner/suite.js";
import { inProcessTestee } from "./testee/in-process.js";

const FINGERPRINT = { model: "m", dtype: 1, rowBytes: 8, layoutVersion: 1 };

describe("fill fixtures", () => {
  it("[P5] a fill fixture's bytes and CRC-32C are its value repeated (over several of the blocks the CRC is computed in)", () => {
    const size = 3 * (1 << 20) + 5;
    const f = makeFixture("Q", { size, fill: 7 }, FINGERPRINT);
    expect([f.size, f.fill]).toEqual([size, 7]);
    const bytes = new Uint8Array(size).fill(7);
    expect(f.crc).toBe(crc32c(bytes));
    expect(f.partial.checksum).toEqual({ algorithm: "CHECKSUM_ALGORITHM_CRC32C", value: Buffer.from(crcBytes(bytes)).toString("base64") });
    expect(Buffer.compare(f.bytes, bytes)).toBe(0);
  });

  it("[P5] a fill fixture's bytes are made only when asked for: a fixture of 1 TiB, more than an array can hold, is made with its size, and only reading its bytes fails", () => {
    const big = makeFixture("G", { size: 2 ** 40, fill: 0, checksum: false }, FINGERPRINT);
    expect([big.size, big.fill, big.partial.sizeBytes]).toEqual([2 ** 40, 0, String(2 ** 40)]);
    expect(() => big.bytes).toThrow(RangeError);
  });

  it("a fill that is not a byte value is a case bug", () => {
    for (const fill of [256, -1, 1.5, "7"])
      expect(() => makeFixture("Q", { size: 4, fill: fill as number }, FINGERPRINT)).toThrow(CaseBug);
    expect(() => makeFixture("Q", { size: 4, fill: 256 }, FINGERPRINT)).toThrow(/fill is the byte value every byte of the item has, an integer in \[0, 255\]; got 256/);
  });

  it("[P5] a put of a fill fixture sends PutItem.fill and no data; of any other, its bytes", async () => {
    const puts: ectp.conformance.v1.IPutItem[] = [];
    class Recording extends CoreTesteeHandler {
      override handle(req: ectp.conformance.v1.TesteeRequest) {
        if (req.putItem) puts.push(req.putItem);
        return super.handle(req);
      }
    }
    const c: LoadedCase = {
      fullName: "producer/p5-quota/fill",
      file: "-",
      spec: {
        name: "fill",
        role: "producer",
        level: "REQUIRED",
        requirements: ["P5"],
        items: { F: { size: 5, fill: 9 }, R: { size: 3 } },
        steps: [{ put: "F", ready: true }, { put: "R" }, { announce: "F", expect: { present: true } }],
      },
    };
    const report = await runSuite({ testee: () => inProcessTestee(new Recording(core as unknown as CoreModule)), features: TS_TESTEE_FEATURES, cases: [c] });
    expect(report.results[0]).toMatchObject({ status: "passed" });
    expect(puts.map((p) => [p.fill ?? null, p.data?.length ?? 0])).toEqual([
      [9, 0],
      [null, 3],
    ]);
  });
});

describe("TS testee: PutItem.fill", () => {
  const testee = () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    let id = 0;
    const ask = (req: Record<string, unknown>) => h.handle(TesteeRequest.fromObject({ commandId: ++id, nowMs: 1000, ...req }));
    ask({ init: { protocolVersion: 1 } });
    expect(ask({ configure: { role: 2, id: "P1", epoch: 1, fingerprint: FINGERPRINT } })).toMatchObject({ ok: {} });
    return ask;
  };
  const put = (n: number, extra: Record<string, unknown>) => ({ putItem: { descriptor: { key: { contentHash: [n], fingerprint: FINGERPRINT }, sizeBytes: 5 }, ...extra } });

  it("[P5] stores size_bytes copies of the fill value (0 too), which a read of the item's location sees", () => {
    const ask = testee();
    for (const [n, fill] of [
      [1, 9],
      [2, 0],
    ] as const) {
      const location = ask(put(n, { fill })).putItem?.descriptor?.location;
      expect(ask({ readMemory: { location, length: 5 } }).readMemory?.data).toEqual(new Uint8Array(5).fill(fill));
    }
  });

  it("answers a fill with data, or above 255, with Error (the runner never sends either)", () => {
    const ask = testee();
    expect(ask(put(1, { fill: 1, data: [1, 1, 1, 1, 1] })).error).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("both data and fill") });
    expect(ask(put(2, { fill: 256 })).error).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("0 to 255; got 256") });
  });
});

/**
 * Feature raw-outputs (testee.proto SendOutput.raw): the runner decodes the bytes a testee's own
 * encoder made of each send with the reference decoder, and fails the case when they are missing
 * (feature claimed), refused by SPEC.md section 5's rules, or carry another envelope than the one
 * the testee reported. Each test alters the TS reference testee's answers in one way.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as core from "@ectp/core";
import { ectp as wire } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import { loadCases } from "./cases/load.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import type { ectp } from "./proto.js";
import { runRandomised } from "./random/randomised.js";
import { runSuite } from "./runner/suite.js";
import { PACKAGE_ROOT } from "./test-support.js";
import { inProcessTestee } from "./testee/in-process.js";
import { spawnTestee } from "./testee/subprocess.js";

type Res = ectp.conformance.v1.ITesteeResponse;

/** A case whose consumer sends a Hello, a ReadRequest and a ReadComplete. */
const CASE = "consumer/c7-release/a-grant-is-acked-exactly-once";
const c = loadCases().find((x) => x.fullName === CASE);
if (!c) throw new Error(`no case ${CASE}`);

/** Run the case on the TS reference testee with each send's raw bytes changed by `change`. */
async function runWithRaw(change: (raw: Uint8Array) => Uint8Array | null, features: readonly string[] = TS_TESTEE_FEATURES) {
  const sends: Uint8Array[] = [];
  const testee = () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    return inProcessTestee({
      handle: (req) => {
        const res: Res = h.handle(req);
        for (const o of res.poll?.outputs ?? []) {
          if (!o.send?.raw) continue;
          sends.push(o.send.raw);
          o.send.raw = change(o.send.raw);
        }
        return res;
      },
    });
  };
  const report = await runSuite({ testee, features, cases: [structuredClone(c as NonNullable<typeof c>)], level: "all" });
  return { result: report.results[0], sends };
}

/** `raw` with its body field written a second time, which SPEC.md section 5 forbids. */
function bodyTwice(raw: Uint8Array): Uint8Array {
  const env = wire.v1.Envelope.decode(raw);
  const body = wire.v1.Envelope.encode(wire.v1.Envelope.create({ readRequest: env.readRequest ?? { attemptId: 1 } })).finish();
  const out = new Uint8Array(raw.length + body.length);
  out.set(raw);
  out.set(body, raw.length);
  return out;
}

describe("raw-outputs: the bytes a testee's encoder makes of each send", () => {
  it("the reference testee gives them on every send, and they pass", async () => {
    const { result, sends } = await runWithRaw((raw) => raw);
    expect(result?.status).toBe("passed");
    expect(sends.length).toBeGreaterThanOrEqual(3);
    expect(sends.map((b) => Object.keys(wire.v1.Envelope.toObject(wire.v1.Envelope.decode(b))).find((k) => !["version", "senderId", "senderEpoch"].includes(k)))).toEqual(
      expect.arrayContaining(["hello", "readRequest", "readComplete"]),
    );
  });

  it("a send without them fails the case when the feature is claimed, and passes when it is not", async () => {
    const claimed = await runWithRaw(() => null);
    expect(claimed.result).toMatchObject({ status: "failed", message: expect.stringContaining('has no raw bytes, but the features file claims "raw-outputs"') });
    const unclaimed = await runWithRaw(() => null, TS_TESTEE_FEATURES.filter((f) => f !== "raw-outputs"));
    expect(unclaimed.result?.status).toBe("passed");
  });

  it("bytes a receiver refuses fail the case, also when the feature is not claimed", async () => {
    const { result } = await runWithRaw(bodyTwice, TS_TESTEE_FEATURES.filter((f) => f !== "raw-outputs"));
    expect(result).toMatchObject({ status: "failed", message: expect.stringMatching(/send to P1 at t=\d+: the raw bytes .* are no envelope a receiver accepts: .*\[C10\]/) });
  });

  it("bytes of another envelope fail the case, naming both", async () => {
    const otherEpoch = (raw: Uint8Array) => {
      const env = wire.v1.Envelope.decode(raw);
      env.senderEpoch = 2;
      return wire.v1.Envelope.encode(env).finish();
    };
    const { result } = await runWithRaw(otherEpoch);
    expect(result).toMatchObject({ status: "failed", message: expect.stringContaining('decode to {"version":{"major":1},"senderId":"C1","senderEpoch":"2"') });
    expect(result?.message).toContain('not to the envelope it reported, {"version":{"major":1},"senderId":"C1","senderEpoch":"1"');
  });
});

describe("raw-outputs with raw-messages: the randomised level's link carries the sender's own bytes", () => {
  it("the Python consumer and the TS producer, and the other way round, each decode what the other's encoder made", async () => {
    const dir = join(PACKAGE_ROOT, "testees", "python");
    const python = () => spawnTestee({ command: `python3 ${JSON.stringify(join(dir, "ectp_testee.py"))}`, jsonLines: true });
    const features: string[] = JSON.parse(readFileSync(join(dir, "features.json"), "utf8")).features;
    expect(features).toEqual(expect.arrayContaining(["raw-outputs", "raw-messages"]));
    let raw = 0;
    let structured = 0;
    /** The TS reference testee, counting the deliveries it is handed as bytes and as envelopes. */
    const ts = () => {
      const h = new CoreTesteeHandler(core as unknown as CoreModule);
      return inProcessTestee({
        handle: (req) => {
          if (req.deliverMessage?.raw?.length) raw++;
          else if (req.deliverMessage) structured++;
          return h.handle(req);
        },
      });
    };
    const seeds = [1, 2, 3];
    const results = [
      ...(await runRandomised({ consumer: python, producer: ts, seeds, features })),
      ...(await runRandomised({ consumer: ts, producer: python, seeds, features })),
    ];
    expect(results.map((r) => `${r.status} ${r.status === "passed" ? "" : r.message}`)).toEqual(results.map(() => "passed "));
    expect(raw).toBeGreaterThan(50);
    expect(structured).toBe(0);
  }, 180_000);
});

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
import { TesteeRequest, type ectp } from "./proto.js";
import { runRandomised } from "./random/randomised.js";
import { runSubscriberRandomised } from "./random/subscriber-randomised.js";
import { runSuite } from "./runner/suite.js";
import { PACKAGE_ROOT } from "./test-support.js";
import { inProcessTestee } from "./testee/in-process.js";
import { spawnTestee } from "./testee/subprocess.js";

type Res = ectp.conformance.v1.ITesteeResponse;

/** A case whose consumer sends a Hello, a ReadRequest and a ReadComplete. */
const CASE = "consumer/c7-release/a-grant-is-acked-exactly-once";
const c = loadCases().find((x) => x.fullName === CASE);
if (!c) throw new Error(`no case ${CASE}`);

/** Run the case on the TS reference testee with each of its sends changed by `edit`; its result, and each send's raw bytes as made. */
async function runEditingSends(edit: (send: ectp.conformance.v1.ISendOutput) => void, features: readonly string[] = TS_TESTEE_FEATURES) {
  const sends: Uint8Array[] = [];
  const testee = () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    return inProcessTestee({
      handle: (req) => {
        const res: Res = h.handle(req);
        for (const o of res.poll?.outputs ?? []) {
          if (!o.send) continue;
          if (o.send.raw) sends.push(o.send.raw);
          edit(o.send);
        }
        return res;
      },
    });
  };
  const report = await runSuite({ testee, features, cases: [structuredClone(c as NonNullable<typeof c>)], level: "all" });
  return { result: report.results[0], sends };
}

/** Run the case with each send's raw bytes changed by `change` (null: none). */
function runWithRaw(change: (raw: Uint8Array) => Uint8Array | null, features: readonly string[] = TS_TESTEE_FEATURES) {
  return runEditingSends((send) => {
    if (send.raw) send.raw = change(send.raw);
  }, features);
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

  it("a send without its envelope fails the case naming it (raw comes beside the envelope, never instead)", async () => {
    const { result } = await runEditingSends((send) => {
      send.envelope = null;
    });
    expect(result?.message).toMatch(/^send to P1 at t=\d+ has no envelope: testee\.proto SendOutput\.envelope is required/);
  });

  it("a send without them fails the case when the feature is claimed, and passes when it is not", async () => {
    const claimed = await runWithRaw(() => null);
    expect(claimed.result).toMatchObject({ status: "failed", message: expect.stringContaining('has no raw bytes, but the features file claims "raw-outputs"') });
    const unclaimed = await runWithRaw(() => null, TS_TESTEE_FEATURES.filter((f) => f !== "raw-outputs"));
    expect(unclaimed.result?.status).toBe("passed");
  });

  it("bytes SPEC.md section 5 forbids a sender fail the case, also when the feature is not claimed; a length prefix is named", async () => {
    const { result } = await runWithRaw(bodyTwice, TS_TESTEE_FEATURES.filter((f) => f !== "raw-outputs"));
    expect(result).toMatchObject({ status: "failed", message: expect.stringMatching(/^send to P1 at t=\d+: the raw bytes the testee's encoder made \(SendOutput\.raw, [0-9a-f]+(\.\.\. \(\d+ bytes\))?\) are bytes SPEC\.md section 5 forbids a sender to send: /) });
    // The decoder's advice to a receiver ("ignore it") is no advice to a sender.
    expect(result?.message).not.toContain("ignore it");
    const framed = (raw: Uint8Array) => Buffer.concat([Buffer.from([0, 0, raw.length >> 8, raw.length & 0xff]), raw]);
    expect((await runWithRaw(framed)).result?.message).toContain(
      "begin with a 4-byte big-endian length giving the length of the rest: raw is one Envelope, without a length prefix",
    );
    const delimited = (raw: Uint8Array) => (raw.length < 128 ? Buffer.concat([Buffer.from([raw.length]), raw]) : raw);
    expect((await runWithRaw(delimited)).result?.message).toContain("begin with a varint length (a delimited protobuf writer's) giving the length of the rest");
    const versionless = (raw: Uint8Array) => {
      const env = wire.v1.Envelope.decode(raw);
      env.version = null;
      return wire.v1.Envelope.encode(env).finish();
    };
    expect((await runWithRaw(versionless)).result?.message).toMatch(
      /^send to P1 at t=\d+: the raw bytes the testee's encoder made \(SendOutput\.raw, [0-9a-f]+\) carry no version: every envelope carries the sender's version, 1\.x here \(SPEC\.md \[V1\]\)/,
    );
  });

  it("bytes of another envelope fail the case, naming the first field that differs and both values", async () => {
    const otherEpoch = (raw: Uint8Array) => {
      const env = wire.v1.Envelope.decode(raw);
      env.senderEpoch = 2;
      return wire.v1.Envelope.encode(env).finish();
    };
    const { result } = await runWithRaw(otherEpoch);
    expect(result).toMatchObject({
      status: "failed",
      message: expect.stringMatching(/^send to P1 at t=\d+: the raw bytes the testee's encoder made \(SendOutput\.raw, [0-9a-f]+(\.\.\. \(\d+ bytes\))?\) do not carry the envelope it reported: senderEpoch: the bytes carry "2", the envelope "1"; /),
    });
    // A field the bytes lose (a status written under another field number) is named too.
    const noStatus = (raw: Uint8Array) => {
      const env = wire.v1.Envelope.decode(raw);
      if (env.readComplete) env.readComplete.status = 0;
      return wire.v1.Envelope.encode(env).finish();
    };
    expect((await runWithRaw(noStatus)).result?.message).toContain('readComplete.status: the bytes carry nothing, the envelope "COMPLETION_STATUS_OK"');
  });

  it("a send whose encoder refused its envelope fails the case with the encoder's words (SendOutput.raw_error)", async () => {
    const { result } = await runEditingSends((send) => {
      Object.assign(send, { raw: null, rawError: "it sets more than one body" });
    });
    expect(result?.message).toMatch(
      /^send to P1 at t=\d+: the testee's encoder refused its envelope \(SendOutput\.raw_error\): it sets more than one body; no peer ever receives a message/,
    );
  });

  it("the TS reference testee reports an envelope its encoder refuses with raw_error, and the poll's other outputs stand", () => {
    const refusing: CoreModule = {
      ...(core as unknown as CoreModule),
      encodeEnvelope: () => {
        throw new Error("refused here");
      },
    };
    const h = new CoreTesteeHandler(refusing);
    let id = 0;
    const ask = (req: Record<string, unknown>) => h.handle(TesteeRequest.fromObject({ commandId: ++id, ...req }));
    ask({ init: { protocolVersion: 1 } });
    const fingerprint = { model: "m", dtype: 1, rowBytes: 8, layoutVersion: 1 };
    expect(ask({ configure: { role: 3, id: "S1", epoch: 1, fingerprint } })).toMatchObject({ ok: {} });
    const connection = { epoch: 5, metadata: [1] };
    expect(ask({ follow: { producerId: "P1", connection } })).toMatchObject({ ok: {} });
    const outputs = ask({ poll: {} }).poll?.outputs ?? [];
    // The connect the subscription waits for, then its Hello and SnapshotRequest: reported, with the encoder's words instead of bytes.
    expect(outputs.filter((o) => o.connectPeer)).toHaveLength(1);
    const sends = outputs.filter((o) => o.send).map((o) => o.send);
    expect(sends.map((x) => (x?.envelope?.hello ? "hello" : x?.envelope?.snapshotRequest ? "snapshotRequest" : "other"))).toEqual(["hello", "snapshotRequest"]);
    for (const x of sends) expect(x).toMatchObject({ to: "P1", rawError: "refused here" });
    for (const x of sends) expect(x?.raw?.length ?? 0).toBe(0);
  });
});

describe("raw-outputs with raw-messages: the randomised level's link carries the sender's own bytes", () => {
  const dir = join(PACKAGE_ROOT, "testees", "python");
  const python = () => spawnTestee({ command: `python3 ${JSON.stringify(join(dir, "ectp_testee.py"))}`, jsonLines: true });
  const features: string[] = JSON.parse(readFileSync(join(dir, "features.json"), "utf8")).features;

  /** The TS reference testee, counting the deliveries it is handed as bytes and as envelopes. */
  function countingTsTestee() {
    const handed = { raw: 0, structured: 0 };
    const factory = () => {
      const h = new CoreTesteeHandler(core as unknown as CoreModule);
      return inProcessTestee({
        handle: (req) => {
          if (req.deliverMessage?.raw?.length) handed.raw++;
          else if (req.deliverMessage) handed.structured++;
          return h.handle(req);
        },
      });
    };
    return { factory, handed };
  }
  const statuses = (results: { status: string; message?: string }[]) => results.map((r) => `${r.status} ${r.status === "passed" ? "" : r.message}`);

  it("the Python consumer and the TS producer, and the other way round, each decode what the other's encoder made", async () => {
    expect(features).toEqual(expect.arrayContaining(["raw-outputs", "raw-messages"]));
    const { factory: ts, handed } = countingTsTestee();
    const seeds = [1, 2, 3];
    const results = [
      ...(await runRandomised({ consumer: python, producer: ts, seeds, features })),
      ...(await runRandomised({ consumer: ts, producer: python, seeds, features })),
    ];
    expect(statuses(results)).toEqual(results.map(() => "passed "));
    expect(handed.raw).toBeGreaterThan(50);
    expect(handed.structured).toBe(0);
  }, 180_000);

  it("the TS producer and the Python subscriber, at the subscriber level, too", async () => {
    const { factory: ts, handed } = countingTsTestee();
    const results = await runSubscriberRandomised({ producer: ts, subscriber: python, seeds: [1, 2], features, level: "all" });
    expect(statuses(results)).toEqual(results.map(() => "passed "));
    // What the Python subscriber sends reaches the TS producer as its bytes.
    expect(handed.raw).toBeGreaterThan(10);
    expect(handed.structured).toBe(0);
  }, 180_000);
});

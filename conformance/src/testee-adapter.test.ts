import * as core from "@ectp/core";
import { describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import { TesteeRequest, ectp, requestFromJson, requestToJson } from "./proto.js";

const FINGERPRINT = { model: "m", dtype: 1, rowBytes: 8, layoutVersion: 1 };

/** A fresh TS reference testee, initialised, and a function sending it one request. */
function testee() {
  const h = new CoreTesteeHandler(core as unknown as CoreModule);
  let id = 0;
  const ask = (req: Record<string, unknown>) => h.handle(TesteeRequest.fromObject({ commandId: ++id, ...req }));
  expect(ask({ init: { protocolVersion: 1 } })).toMatchObject({ init: { protocolVersion: 1 } });
  return ask;
}

function descriptor(n: number, sizeBytes = 4) {
  return { key: { contentHash: [n, 1], fingerprint: FINGERPRINT }, sizeBytes };
}

describe("TS reference testee: answers TESTEE-PROTOCOL.md fixes", () => {
  it("answers a command of another role WRONG_ROLE, for every role", () => {
    const ask = testee();
    expect(ask({ configure: { role: 1, id: "C1", epoch: 1, fingerprint: FINGERPRINT } })).toMatchObject({ ok: {} });
    expect(ask({ markReady: { key: descriptor(1).key } })).toMatchObject({ error: { code: "WRONG_ROLE" } });
    expect(ask({ getView: { producerId: "P1" } })).toMatchObject({ error: { code: "WRONG_ROLE" } });
    expect(ask({ configure: { role: 2, id: "P1", epoch: 1, fingerprint: FINGERPRINT } })).toMatchObject({ ok: {} });
    expect(ask({ drainFailed: {} })).toMatchObject({ error: { code: "WRONG_ROLE" } });
    expect(ask({ follow: { producerId: "P2" } })).toMatchObject({ error: { code: "WRONG_ROLE" } });
    expect(ask({ configure: { role: 3, id: "S1", epoch: 1, fingerprint: FINGERPRINT, timers: { heartbeatIntervalMs: 1000 } } })).toMatchObject({
      ok: {},
    });
    expect(ask({ drainFailed: {} })).toMatchObject({ error: { code: "WRONG_ROLE" } });
    expect(ask({ clearStore: {} })).toMatchObject({ error: { code: "WRONG_ROLE" } });
  });

  it("refuses a Configure with an unknown role as an invalid configuration, leaving it unconfigured", () => {
    const ask = testee();
    const refused = ask({ configure: { role: 0, id: "X", epoch: 1, fingerprint: FINGERPRINT } });
    expect(refused.error?.code).toBe("INVALID_CONFIG");
    expect(ask({ drainFailed: {} })).toMatchObject({ error: { code: "NOT_CONFIGURED" } });
    // A refused Configure after a working one leaves no role behind either.
    expect(ask({ configure: { role: 1, id: "C1", epoch: 1, fingerprint: FINGERPRINT } })).toMatchObject({ ok: {} });
    expect(ask({ configure: { role: 0, id: "X", epoch: 1, fingerprint: FINGERPRINT } }).error?.code).toBe("INVALID_CONFIG");
    expect(ask({ drainFailed: {} })).toMatchObject({ error: { code: "NOT_CONFIGURED" } });
    expect(ask({ admit: { requestId: "r", items: [] } })).toMatchObject({ error: { code: "NOT_CONFIGURED" } });
  });

  it("a subscriber's present heartbeat_interval_ms of 0 is an invalid configuration; an absent one takes the default", () => {
    const ask = testee();
    expect(ask({ configure: { role: 3, id: "S1", epoch: 1, fingerprint: FINGERPRINT, timers: { heartbeatIntervalMs: 0 } } }).error).toBeTruthy();
    expect(ask({ configure: { role: 3, id: "S1", epoch: 1, fingerprint: FINGERPRINT } })).toMatchObject({ ok: {} });
  });

  it("passes timers.maxViewBytes to the subscriber (feature subscriber-view-bound); 0 is an invalid configuration", () => {
    const ask = testee();
    expect(ask({ configure: { role: 3, id: "S1", epoch: 1, fingerprint: FINGERPRINT, timers: { maxViewBytes: 0 } } }).error).toMatchObject({
      code: "INVALID_CONFIG",
    });
    expect(ask({ configure: { role: 3, id: "S1", epoch: 1, fingerprint: FINGERPRINT, timers: { maxViewBytes: 4096 } } })).toMatchObject({ ok: {} });
  });

  it("fills the store with Configure.initial_items before the producer starts (feature warm-start); one the store refuses is an invalid configuration", () => {
    const ask = testee();
    const item = (name: string, size: number) => ({
      descriptor: { key: { contentHash: new TextEncoder().encode(name), fingerprint: FINGERPRINT }, sizeBytes: size },
      data: new Uint8Array(size),
    });
    const producer = { role: 2, id: "P1", epoch: 5, fingerprint: FINGERPRINT, storeCapacityBytes: 100 };
    expect(ask({ configure: { ...producer, initialItems: [item("a", 60), item("big", 120)] } }).error).toMatchObject({ code: "INVALID_CONFIG" });
    expect(ask({ poll: {} }).error).toMatchObject({ code: "NOT_CONFIGURED" });
    // Two that the store takes one at a time but not together (the second evicts the first): invalid too.
    expect(ask({ configure: { ...producer, initialItems: [item("a", 60), item("b", 60)] } }).error).toMatchObject({
      code: "INVALID_CONFIG",
      message: expect.stringContaining("do not fit in the store together"),
    });
    expect(ask({ configure: { ...producer, initialItems: [item("a", 60)] } })).toMatchObject({ ok: {} });
    const polled = ask({ poll: {} }).poll?.outputs ?? [];
    expect(polled.map((o) => o.eventBatch?.batch?.events?.map((e) => e.stored?.item?.sizeBytes?.toString()))).toEqual([["60"]]);
  });

  it("answers the subscriber role Unsupported{subscriber} for a core without EventSubscriber", () => {
    const h = new CoreTesteeHandler({ ...(core as unknown as CoreModule), EventSubscriber: undefined });
    const ask = (req: Record<string, unknown>) => h.handle(TesteeRequest.fromObject({ commandId: 1, ...req }));
    const features = ask({ init: { protocolVersion: 1 } }).init?.features;
    expect(features).not.toContain("subscriber");
    expect(features).not.toContain("subscriber-view-bound");
    expect(features).toContain("consumer");
    expect(ask({ configure: { role: 3, id: "S1", epoch: 1, fingerprint: FINGERPRINT } })).toMatchObject({ unsupported: { feature: "subscriber" } });
  });
});

describe("TS reference testee: PutItem", () => {
  it("fills in the producer's own id and epoch where the descriptor leaves them empty, and keeps those it sets (SPEC.md 4.4: a shared store, or one kept from an older epoch)", () => {
    const ask = testee();
    expect(ask({ configure: { role: 2, id: "P1", epoch: 3, fingerprint: FINGERPRINT } })).toMatchObject({ ok: {} });
    const stored = (n: number, fields: Record<string, unknown>) => {
      const d = ask({ putItem: { descriptor: { ...descriptor(n), ...fields }, data: [1, 2, 3, 4] } }).putItem?.descriptor;
      return [d?.producerId, Number(d?.epoch)];
    };
    expect(stored(1, {})).toEqual(["P1", 3]);
    expect(stored(2, { epoch: 2 })).toEqual(["P1", 2]);
    expect(stored(3, { producerId: "P9" })).toEqual(["P9", 3]);
  });
});

describe("TS reference testee: ReadMemory sees only memory still registered", () => {
  const location = (res: ReturnType<ReturnType<typeof testee>>) => res.putItem?.descriptor?.location ?? new Uint8Array(0);

  it("an item that left the store (discarded or cleared) has its location deregistered", () => {
    const ask = testee();
    expect(ask({ configure: { role: 2, id: "P1", epoch: 1, fingerprint: FINGERPRINT } })).toMatchObject({ ok: {} });
    const first = location(ask({ putItem: { descriptor: descriptor(1), data: [1, 2, 3, 4] } }));
    expect(ask({ readMemory: { location: first, length: 4 } }).readMemory?.data).toEqual(new Uint8Array([1, 2, 3, 4]));
    expect(ask({ discard: { key: descriptor(1).key } })).toMatchObject({ ok: {} });
    expect(ask({ readMemory: { location: first, length: 4 } }).error?.code).toBe("INVALID_ARGUMENT");
    const second = location(ask({ putItem: { descriptor: descriptor(2), data: [5, 6, 7, 8] } }));
    expect(ask({ markReady: { key: descriptor(2).key } })).toMatchObject({ ok: {} });
    expect(ask({ clearStore: {} })).toMatchObject({ ok: {} });
    expect(ask({ readMemory: { location: second, length: 4 } }).error?.code).toBe("INVALID_ARGUMENT");
  });

  it("ReadMemory returns the requested length from the location's start; Discard of an unknown item is an Error", () => {
    const ask = testee();
    expect(ask({ configure: { role: 2, id: "P1", epoch: 1, fingerprint: FINGERPRINT } })).toMatchObject({ ok: {} });
    const loc = location(ask({ putItem: { descriptor: descriptor(1), data: [1, 2, 3, 4] } }));
    expect(ask({ readMemory: { location: loc, length: 2 } }).readMemory?.data).toEqual(new Uint8Array([1, 2]));
    expect(ask({ discard: { key: descriptor(9).key } }).error?.code).toBe("INVALID_ARGUMENT");
  });

  it("a new Configure forgets every location of the instance before it", () => {
    const ask = testee();
    expect(ask({ configure: { role: 2, id: "P1", epoch: 1, fingerprint: FINGERPRINT } })).toMatchObject({ ok: {} });
    const loc = location(ask({ putItem: { descriptor: descriptor(1), data: [1, 2, 3, 4] } }));
    expect(ask({ configure: { role: 2, id: "P1", epoch: 2, fingerprint: FINGERPRINT } })).toMatchObject({ ok: {} });
    expect(ask({ readMemory: { location: loc, length: 4 } }).error?.code).toBe("INVALID_ARGUMENT");
  });
});

describe("uint64 values near 2^64 cross the runner and the TS testee (scripts/lib/pbjs-postprocess.mjs saturateUint64OnEncode)", () => {
  const varint = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");
  it("a proto3-JSON uint64 of 2^64 - 1 (read as the double 2^64) is written as 2^64 - 1, not wrapped to 0", () => {
    const request = requestFromJson({ deliverMessage: { from: "C1", envelope: { replayRequest: { fromSequence: "18446744073709551615" } } } });
    const replay = request.deliverMessage?.envelope?.replayRequest as ectp.v1.IReplayRequest;
    expect(varint(ectp.v1.ReplayRequest.encode(replay).finish())).toBe("08ffffffffffffffffff01");
  });
  it("the same value is written back to proto3 JSON (JSON lines) as 2^64 - 1, a valid uint64, not as 18446744073709552000", () => {
    const request = requestFromJson({ deliverMessage: { from: "C1", envelope: { replayRequest: { fromSequence: "18446744073709551615" } } } });
    expect(requestToJson(request)).toMatchObject({ deliverMessage: { envelope: { replayRequest: { fromSequence: "18446744073709551615" } } } });
  });
  it("other values past 2^53 - 1 go on the wire as given, and negative ones wrapped, as a faulty peer would send them", () => {
    expect(varint(ectp.v1.ReplayRequest.encode({ fromSequence: -1 }).finish())).toBe("08ffffffffffffffffff01");
    expect(varint(ectp.v1.ReplayRequest.encode({ fromSequence: 2 ** 53 + 2 }).finish())).toBe("0882808080808080" + "10");
  });
});

describe("TS reference testee: Configure's seed", () => {
  /** When a consumer configured with `seed` retries an attempt refused NOT_READY (its jittered backoff [C4]). */
  function retryAt(seed: string): number | undefined {
    const ask = testee();
    expect(ask({ configure: { role: 1, id: "C1", epoch: 1, fingerprint: FINGERPRINT, seed, timers: { heartbeatIntervalMs: 1_000_000 } } })).toMatchObject({ ok: {} });
    const item = { ...descriptor(1, 16), producerId: "P1", epoch: 1 };
    ask({ admit: { requestId: "r", items: [{ itemId: "i", announcement: { version: { major: 1 }, item } }] } });
    const out = ask({ poll: {} }).poll?.outputs ?? [];
    const attemptId = out.map((o) => o.send?.envelope?.readRequest?.attemptId).find((a) => a !== undefined && a !== null);
    const reject = { version: { major: 1 }, senderId: "P1", senderEpoch: 1, readReject: { attemptId, reason: 1 } };
    ask({ deliverMessage: { from: "P1", envelope: reject } });
    return ask({ poll: {} }).poll?.nextDeadlineMs ?? undefined;
  }

  it("only 0 means the implementation's default: a seed whose low 32 bits are 0 (2^32) is a seed given", () => {
    const low0 = retryAt("4294967296");
    expect(retryAt("8589934592")).toBe(low0); // the same low 32 bits, the same schedule
    expect(retryAt("0")).not.toBe(low0); // the default: derived from the identity
    expect(retryAt("1")).not.toBe(low0);
  });
});

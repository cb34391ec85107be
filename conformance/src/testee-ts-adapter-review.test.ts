import * as core from "@ectp/core";
import type { AdmitRequest, AdmitResult, ConsumerOptions, CoreOutput, DestinationPool } from "@ectp/core";
import { describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import { TesteeRequest } from "./proto.js";

const FINGERPRINT = { model: "m", dtype: 1, rowBytes: 8, layoutVersion: 1 };
const ITEM = { key: { contentHash: [7, 1], fingerprint: FINGERPRINT }, sizeBytes: 4, producerId: "P1", epoch: 1, location: [9] };
const ADMIT = { admit: { requestId: "r", items: [{ itemId: "i", announcement: { version: { major: 1 }, item: ITEM } }] } };
const REAL = core as unknown as CoreModule;

/** A TS reference testee over `module`, initialised, and a function sending it one request as the runner does (binary). */
function testee(module: CoreModule = REAL) {
  const h = new CoreTesteeHandler(module);
  let id = 0;
  const ask = (req: Record<string, unknown>) =>
    h.handle(TesteeRequest.decode(TesteeRequest.encode(TesteeRequest.fromObject({ commandId: ++id, nowMs: 1000, ...req })).finish()));
  expect(ask({ init: { protocolVersion: 1 } })).toMatchObject({ init: { protocolVersion: 1 } });
  return ask;
}

/** Configure a consumer, load item i of request r remotely (Admit, grant, read done) and admit r again: its answer. */
function loadOne(ask: ReturnType<typeof testee>) {
  expect(ask({ configure: { role: 1, id: "C1", epoch: 1, fingerprint: FINGERPRINT, seed: 1 } })).toMatchObject({ ok: {} });
  expect(ask(ADMIT).admit?.items?.[0]?.action).toBe(2); // DEFER
  const attemptId = (ask({ poll: {} }).poll?.outputs ?? []).map((o) => o.send?.envelope?.readRequest?.attemptId).find((a) => a != null);
  const grant = { version: { major: 1 }, senderId: "P1", senderEpoch: 1, readGrant: { attemptId, grantId: 1, item: ITEM, leaseMs: 30000 } };
  expect(ask({ deliverMessage: { from: "P1", envelope: grant } })).toMatchObject({ ok: {} });
  const readId = (ask({ poll: {} }).poll?.outputs ?? []).map((o) => o.startRead?.readId).find((r) => r != null);
  expect(ask({ deliverReadResult: { readId, status: 1, data: [1, 2, 3, 4] } })).toMatchObject({ ok: {} });
  return ask(ADMIT);
}

/** The core with its consumer's destination pool changed by `change` (a core that misuses the pool it is given). */
function poolChanged(change: (pool: DestinationPool) => Partial<DestinationPool>): CoreModule {
  class Changed extends core.ConsumerCore {
    constructor(options: ConsumerOptions) {
      super({ ...options, destinations: { ...options.destinations, ...change(options.destinations) } });
    }
  }
  return { ...REAL, ConsumerCore: Changed };
}

describe("TS reference testee review: the destination pool reports what the core does with it", () => {
  it("[I5] a destination the core releases twice fails the command that released it", () => {
    const ask = testee();
    expect(loadOne(ask).admit?.items?.[0]).toMatchObject({ action: 1, loaded: { sizeBytes: 4 } });
    expect(ask({ finishRequest: { requestId: "r" } })).toMatchObject({ ok: {} }); // the core releases it once

    const releaseTwice = (pool: DestinationPool) => ({
      release: (d: Parameters<DestinationPool["release"]>[0]) => {
        pool.release(d);
        pool.release(d);
      },
    });
    const twice = testee(poolChanged(releaseTwice));
    expect(loadOne(twice).admit?.items?.[0]).toMatchObject({ action: 1 });
    expect(twice({ finishRequest: { requestId: "r" } }).error).toMatchObject({ code: "DESTINATION_POOL", message: expect.stringContaining("released twice") });
    expect(twice({ getStats: {} }).stats?.consumer).toBeTruthy(); // reported once, with the command that did it
  });

  it("[I4] a core that counts its destinations released but never gives the memory back fails GetStats", () => {
    const ask = testee();
    loadOne(ask);
    ask({ finishRequest: { requestId: "r" } });
    expect(ask({ getStats: {} }).stats?.consumer?.destinations ?? 0).toBe(0);

    const kept = testee(poolChanged(() => ({ release: () => undefined })));
    loadOne(kept);
    kept({ finishRequest: { requestId: "r" } });
    expect(kept({ getStats: {} }).error).toMatchObject({
      code: "DESTINATION_POOL",
      message: expect.stringContaining("reports 0 destinations, but it holds 1"),
    });
  });

  it("[I5][I6] a READY item whose destination the core already released is an Error, not bytes read back from freed memory", () => {
    class ReleasesEarly extends core.ConsumerCore {
      private readonly given: DestinationPool;
      constructor(options: ConsumerOptions) {
        super(options);
        this.given = options.destinations;
      }
      override admit(request: AdmitRequest, now: number): AdmitResult {
        const r = super.admit(request, now);
        if (r.status === "admitted") for (const d of r.items) if (d.action === "ready" && d.destination) this.given.release(d.destination);
        return r;
      }
    }
    const early = testee({ ...REAL, ConsumerCore: ReleasesEarly });
    expect(loadOne(early).error?.message).toContain("[I5] item i is READY in a destination the core no longer holds");
  });
});

describe("TS reference testee review: what the core returns is passed on or refused, never reinterpreted", () => {
  it("an output of a type the adapter does not know fails the Poll instead of being dropped", () => {
    class ExtraOutput extends core.ProducerCore {
      override poll(now: number): CoreOutput[] {
        return [...super.poll(now), { type: "send-later", peerId: "C1" } as unknown as CoreOutput];
      }
    }
    const ask = testee({ ...REAL, ProducerCore: ExtraOutput });
    expect(ask({ configure: { role: 2, id: "P1", epoch: 1, fingerprint: FINGERPRINT } })).toMatchObject({ ok: {} });
    expect(ask({ poll: {} }).error?.message).toContain('an output of type "send-later"');
  });

  it("an admit decision that is neither ready, defer nor local-encode is an Error, not LOCAL_ENCODE", () => {
    class OtherAction extends core.ConsumerCore {
      override admit(request: AdmitRequest, now: number): AdmitResult {
        const r = super.admit(request, now);
        return r.status === "admitted" ? ({ ...r, items: r.items.map((d) => ({ ...d, action: "wait" })) } as unknown as AdmitResult) : r;
      }
    }
    const ask = testee({ ...REAL, ConsumerCore: OtherAction });
    expect(ask({ configure: { role: 1, id: "C1", epoch: 1, fingerprint: FINGERPRINT } })).toMatchObject({ ok: {} });
    expect(ask(ADMIT).error?.message).toContain('item i with action "wait"');
  });

  it("an admit status that is neither admitted nor failed is an Error, not ADMITTED", () => {
    class OtherStatus extends core.ConsumerCore {
      override admit(request: AdmitRequest, now: number): AdmitResult {
        return { ...super.admit(request, now), status: "pending" } as unknown as AdmitResult;
      }
    }
    const ask = testee({ ...REAL, ConsumerCore: OtherStatus });
    expect(ask({ configure: { role: 1, id: "C1", epoch: 1, fingerprint: FINGERPRINT } })).toMatchObject({ ok: {} });
    expect(ask(ADMIT).error?.message).toContain('the core answered admit with status "pending"');
  });
});

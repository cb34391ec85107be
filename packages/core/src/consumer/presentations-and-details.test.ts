/**
 * An engine author's review (2026-12-08, outside in): what admit refuses at the call, what the
 * warnings say, and the two misconfigurations the consumer now names once.
 *
 * - SPEC.md 3.4: a request's items are the same on every presentation. Re-admitting a request whose
 *   item now announces another item key returned `ready` with the first key's bytes, silently; an
 *   empty item id was taken as an id. Both are INVALID_ARGUMENT at the call now.
 * - [C2] The detail of an invalid announcement names what to fix: `.value` of a Validation result
 *   passed whole, the fingerprint field that differs.
 * - [C11] A SIZE_MISMATCH at admission (a key already bound to another size) names both sizes.
 * - [C3][C4] grantWaitMs at or past waitBudgetMs, and [C11] a grant lease no longer than
 *   leaseSafetyMarginMs, each get one warning.
 */
import { announcementFromJson, announcementToJson } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import {
  FP,
  P,
  QUIET,
  announce,
  decision,
  descriptor,
  expectIdle,
  fill,
  grant,
  makeConsumer,
  onlyAttempt,
  remote,
  starts,
} from "./test-support.js";
import type { AdmitItem } from "./types.js";

/** A consumer whose item "a" of request "r" (test item `hash`) was loaded and admitted ready. */
function loaded(hash: string) {
  const h = makeConsumer(QUIET);
  const item = remote("a", hash);
  h.core.admit({ requestId: "r", items: [item] }, 0);
  const start = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, hash, 1))[0];
  if (start === undefined) throw new Error("no start-read");
  fill(start, hash);
  h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: start.destination.length }, 2);
  h.core.poll(2);
  const ready = h.core.admit({ requestId: "r", items: [item] }, 3);
  expect(decision(ready)).toMatchObject({ action: "ready", itemId: "a" });
  return { h, item, ready };
}

/** The `detail` of the last warning about request `requestId`. */
function detailOf(h: ReturnType<typeof makeConsumer>, requestId: string): unknown {
  return h.logger
    .at("warn")
    .filter((r) => r.fields?.requestId === requestId)
    .at(-1)?.fields?.detail;
}

describe("SPEC.md 3.4: a request's items are the same on every presentation", () => {
  it("[C1] re-admitting a ready item announcing another item key is INVALID_ARGUMENT at the call, not the first key's bytes; nothing changes", () => {
    const { h, item, ready } = loaded("cat");
    expect(() => h.core.admit({ requestId: "r", items: [remote("a", "dog")] }, 4)).toThrow(
      /^\[INVALID_ARGUMENT\] admit\(r\): items\[0\] \("a"\) announces item key 646f67\|.*, but the item was first admitted announcing 636174\|/,
    );
    expect(h.core.poll(4)).toEqual([]); // no fetch of "dog"
    expect(h.core.admit({ requestId: "r", items: [item] }, 5)).toBe(ready); // the request goes on as it was
    h.core.finishRequest("r", 6);
    h.core.poll(6);
    expectIdle(h);
  });

  it("[C3] a refused re-admission does not take its clock reading: a later admission's budget starts at its own time", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 1_000, grantWaitMs: 500 });
    h.core.admit({ requestId: "w", items: [remote("a", "h1")] }, 0);
    expect(() => h.core.admit({ requestId: "w", items: [remote("a", "h2")] }, 5_000)).toThrow("announces item key");
    // Had the refused call moved the clock to 5000, this budget would run until 6000, not 1010.
    h.core.admit({ requestId: "n", items: [remote("b", "h3")] }, 10);
    h.core.poll(1_010);
    expect(h.core.drainFailed().map((f) => f.requestId)).toEqual(["w", "n"]);
  });

  it("[C1] a waiting item announcing another key is refused too, and so is one sent to local encode", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "w", items: [remote("a", "h1")] }, 0);
    expect(() => h.core.admit({ requestId: "w", items: [remote("a", "h2")] }, 1)).toThrow("announces item key");
    // A valid announcement whose size disagrees with the key's (SIZE_MISMATCH), with model input: local encode, but its key was taken all the same.
    const wrongSize = { itemId: "x", announcement: announce("h3", { size: 16 }), hasModelInput: true };
    h.core.admit({ requestId: "w2", items: [remote("y", "h3", false, { size: 32 }), wrongSize] }, 1);
    expect(() => h.core.admit({ requestId: "w2", items: [remote("y", "h3", false, { size: 32 }), remote("x", "h4", true)] }, 2)).toThrow(
      'items[1] ("x") announces item key',
    );
  });

  it("[C1][P8] allowed: the same key from a newer epoch or another producer, no announcement, or one for an item first presented without one", () => {
    const { h, ready } = loaded("cat");
    for (const later of [
      remote("a", "cat", false, { epoch: 2 }),
      remote("a", "cat", false, { producer: "e-2" }),
      { itemId: "a", hasModelInput: false },
      { itemId: "a", announcement: null, hasModelInput: false },
      { itemId: "a", announcement: { version: { major: 2 } }, hasModelInput: false }, // invalid: names no key
    ])
      expect(h.core.admit({ requestId: "r", items: [later as AdmitItem] }, 4)).toBe(ready);
    expect(h.core.poll(4)).toEqual([]);
    // First presented without an announcement (local encode): no key was taken, any announcement later is not read.
    h.core.admit({ requestId: "l", items: [{ itemId: "a", hasModelInput: true }] }, 4);
    expect(decision(h.core.admit({ requestId: "l", items: [remote("a", "dog", true)] }, 5))).toEqual({ action: "local-encode", itemId: "a" });
  });

  it("[C1] the same announcement object presented again is not validated again (the re-admission path stays cheap)", () => {
    const h = makeConsumer(QUIET);
    const announcement = announce("h1");
    let reads = 0;
    const counted = new Proxy(announcement, {
      get(target, key, receiver) {
        if (key === "item") reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const item = { itemId: "a", announcement: counted, hasModelInput: false };
    h.core.admit({ requestId: "r", items: [item] }, 0);
    const first = reads;
    expect(first).toBeGreaterThan(0);
    h.core.admit({ requestId: "r", items: [item] }, 1);
    h.core.admit({ requestId: "r", items: [{ ...item }] }, 2); // a new item object, the same announcement
    expect(reads).toBe(first);
    // Another object of the same key is read once, then held in its place.
    const again = { itemId: "a", announcement: announce("h1"), hasModelInput: false };
    h.core.admit({ requestId: "r", items: [again] }, 3);
    const held = (h.core as unknown as { lastReq: { announcement: unknown } }).lastReq.announcement;
    expect(held).toBe(again.announcement);
  });

  it("[C1] an empty itemId is INVALID_ARGUMENT at the call, as an empty requestId is; nothing is left behind", () => {
    const h = makeConsumer(QUIET);
    expect(() => h.core.admit({ requestId: "r", items: [remote("a", "h1"), remote("", "h2")] }, 0)).toThrow(
      "[INVALID_ARGUMENT] admit(r): items[1].itemId must be a non-empty string (the engine's id for the item).",
    );
    expect(h.core.poll(0)).toEqual([]);
    expectIdle(h);
  });
});

describe("[C2] an invalid announcement's detail says what to fix", () => {
  it("[C2] announcementFromJson's result passed whole (not its .value): the detail says to pass .value", () => {
    const h = makeConsumer(QUIET);
    const json = announcementToJson(announce("h1"));
    const result = announcementFromJson(json);
    const r = h.core.admit({ requestId: "q1", items: [{ itemId: "a", announcement: result as never, hasModelInput: false }] }, 0);
    expect(r).toEqual({ status: "failed", failures: [{ itemId: "a", reason: "INVALID_ANNOUNCEMENT", attempts: 0 }] });
    expect(detailOf(h, "q1")).toBe("the announcement is a Validation result ({ ok: true, value }, as announcementFromJson returns): pass its .value");
    const refused = announcementFromJson("{not json");
    h.core.admit({ requestId: "q2", items: [{ itemId: "a", announcement: refused as never, hasModelInput: true }] }, 0);
    expect(detailOf(h, "q2")).toMatch(/^the announcement is a refused Validation result \(\{ ok: false, error \}, as announcementFromJson returns\): .*not JSON text/);
    // Its .value is admitted.
    if (!result.ok) throw result.error;
    expect(decision(h.core.admit({ requestId: "q3", items: [{ itemId: "a", announcement: result.value, hasModelInput: false }] }, 0))).toEqual({
      action: "defer",
      itemId: "a",
    });
  });

  it("[C2] another fingerprint: the detail names the field that differs, with both values", () => {
    const h = makeConsumer(QUIET);
    const other = announce("h1");
    other.item = { ...descriptor("h1"), key: { contentHash: new TextEncoder().encode("h1"), fingerprint: { ...FP, rowBytes: 4096 } } };
    h.core.admit({ requestId: "q", items: [{ itemId: "a", announcement: other, hasModelInput: false }] }, 0);
    expect(detailOf(h, "q")).toBe(
      "[INCOMPATIBLE] item fingerprint differs from the expected fingerprint: rowBytes 4096 != 8 (the announcement's, this consumer's)",
    );
    other.item.key = { contentHash: new TextEncoder().encode("h1"), fingerprint: { ...FP, model: "other" } };
    h.core.admit({ requestId: "q2", items: [{ itemId: "a", announcement: other, hasModelInput: false }] }, 0);
    expect(detailOf(h, "q2")).toMatch(/: model "other" != "m" \(the announcement's, this consumer's\)$/);
  });
});

describe("[C11] one key, one size: an announcement of another size than the key is bound to", () => {
  it("[C11] SIZE_MISMATCH at admission names both sizes and what binds the key: its fetch in flight, its loaded bytes, an earlier item", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "wrong", items: [remote("a", "h1", false, { size: 32 })] }, 0);
    h.core.admit({ requestId: "right", items: [remote("a", "h1", false, { size: 16 })] }, 0);
    expect(detailOf(h, "right")).toBe("the announcement names 16 bytes, the key is bound to 32 by its fetch in flight: one of the two announcements is wrong");
    h.core.admit({ requestId: "both", items: [remote("a", "h2", false, { size: 16 }), remote("b", "h2", false, { size: 24 })] }, 0);
    expect(detailOf(h, "both")).toBe("the announcement names 24 bytes, the key is bound to 16 by an earlier item of this admission: one of the two announcements is wrong");
    const { h: h2 } = loaded("h3");
    h2.core.admit({ requestId: "later", items: [remote("a", "h3", false, { size: 40 })] }, 4);
    expect(detailOf(h2, "later")).toBe("the announcement names 40 bytes, the key is bound to 16 by its loaded bytes: one of the two announcements is wrong");
  });
});

describe("misconfigurations named once", () => {
  it("[C3][C4] grantWaitMs at or past waitBudgetMs: one warning at construction (one lost message costs the whole budget); none otherwise", () => {
    const warnings = (config: Parameters<typeof makeConsumer>[0]) =>
      makeConsumer(config)
        .logger.at("warn")
        .map((r) => [r.message.split(":")[0], r.fields]);
    expect(warnings({ waitBudgetMs: 10_000 })).toEqual([["config.grantWaitMs is not shorter than waitBudgetMs", { grantWaitMs: 30_000, waitBudgetMs: 10_000 }]]);
    expect(warnings({ waitBudgetMs: 5_000, grantWaitMs: 5_000 })).toHaveLength(1);
    expect(warnings({ waitBudgetMs: 10_000, grantWaitMs: 1_000 })).toEqual([]);
    expect(warnings({})).toEqual([]);
  });

  it("[C11] a grant whose lease is at most leaseSafetyMarginMs: LEASE_EXPIRED for each item, one warning naming the producer and both figures", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    h.core.admit({ requestId: "r2", items: [remote("b", "h2")] }, 0);
    const attempts = h.core
      .poll(0)
      .filter((o) => o.type === "send" && o.envelope.readRequest != null)
      .map((o) => (o.type === "send" ? Number(o.envelope.readRequest?.attemptId) : 0));
    expect(attempts).toHaveLength(2);
    grant(h, attempts[0] as number, 1, "h1", 1, { leaseMs: 5_000 });
    grant(h, attempts[1] as number, 2, "h2", 1, { leaseMs: 4_000 });
    expect(h.core.drainFailed().map((f) => f.failures[0]?.reason)).toEqual(["LEASE_EXPIRED", "LEASE_EXPIRED"]);
    const leaseWarnings = h.logger.at("warn").filter((r) => r.message.startsWith("a producer grants leases"));
    expect(leaseWarnings).toEqual([
      {
        level: "warn",
        message:
          "a producer grants leases no longer than leaseSafetyMarginMs: every read of its grants ends LEASE_EXPIRED before it starts; raise the producer's leaseMs well above this consumer's leaseSafetyMarginMs",
        fields: { producer: P, leaseMs: 5_000, leaseSafetyMarginMs: 5_000 },
      },
    ]);
    // A usable lease logs nothing of the kind.
    const ok = makeConsumer(QUIET);
    ok.core.admit({ requestId: "r", items: [remote("a", "h1")] }, 0);
    grant(ok, onlyAttempt(ok.core.poll(0)), 1, "h1", 1, { leaseMs: 5_001 });
    expect(ok.logger.at("warn")).toEqual([]);
  });
});

/**
 * [C1] The values an engine hands admit are shown in its INVALID_ARGUMENT message by the consumer's
 * own describer, which never throws: a null-prototype object, a symbol or a Proxy is named by kind,
 * and a bigint keeps its `n`, so `1n` does not read as the number 1 the check would have taken.
 */
import { EctpError } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { AdmitItem } from "./types.js";
import { announce, makeConsumer } from "./test-support.js";

describe("admit's message for a hasModelInput or local that is not a boolean", () => {
  it.each([
    ["a bigint", "1n", () => 1n],
    ["a null-prototype object", "an object", () => Object.create(null)],
    [
      "a revoked Proxy",
      "an object",
      () => {
        const r = Proxy.revocable({}, {});
        r.revoke();
        return r.proxy;
      },
    ],
    ["a symbol", "Symbol(yes)", () => Symbol("yes")],
  ])("[C1] %s is described as %s, never a TypeError", (_name, shown, make) => {
    const value: unknown = make();
    const h = makeConsumer();
    const item = { itemId: "a", announcement: announce("h1"), hasModelInput: value } as unknown as AdmitItem;
    let caught: unknown;
    try {
      h.core.admit({ requestId: "r", items: [item] }, 0);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(EctpError);
    expect((caught as EctpError).message).toBe(
      `[INVALID_ARGUMENT] admit(r): items[0] (a): hasModelInput and local must be booleans when given; got hasModelInput ${shown}, local nothing.`,
    );
  });
});

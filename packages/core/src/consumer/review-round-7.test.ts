/**
 * Findings of a seventh review of the consumer (a code read against SPEC.md, with reproductions run
 * against the built core): a request of very many items whose budgets ran out in the same poll as
 * another failure lost every outcome of that poll [I2]; a checksum that joins a read in flight, on a
 * destination pool with no host view, ended CHECKSUM_MISMATCH though the transport reported the
 * right CRC [C11]. Each test failed on the code before its fix.
 */
import { crc32c } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import type { StartReadOutput } from "../outputs.js";
import type { AdmitItem } from "./types.js";
import { QUIET, announce, decision, fill, grant, makeConsumer, onlyAttempt, remote, sent, starts } from "./test-support.js";

describe("[I2] a request of 130,000 items whose budgets run out in the poll that times its read out", () => {
  it("[I2][C3] both requests waiting on the read are reported failed at that poll, none left deferred", () => {
    const h = makeConsumer({ ...QUIET, waitBudgetMs: 5_000, grantWaitMs: 4_500, transferTimeoutMs: 1_000, quarantineCapMs: 1_000 });
    const shared = announce("k1");
    const items: AdmitItem[] = [remote("i0", "k0")];
    for (let i = 1; i <= 130_000; i++) items.push({ itemId: `i${i}`, announcement: shared, hasModelInput: false });
    expect(h.core.admit({ requestId: "big", items }, 0).status).toBe("admitted");
    h.core.admit({ requestId: "small", items: [remote("s0", "k0")] }, 0);
    const attempts = sent(h.core.poll(0), "readRequest").map((s) => s.envelope.readRequest);
    const k0 = attempts.find((r) => new TextDecoder().decode(r?.key?.contentHash ?? new Uint8Array()) === "k0");
    // The read's deadline is 3,999 + 1,000 = 4,999, one ms before the budgets; the next poll is at 5,000.
    grant(h, Number(k0?.attemptId), 11, "k0", 3_999);
    h.core.poll(5_000);
    expect(h.logger.at("error")).toEqual([]);
    expect(
      h.core
        .drainFailed()
        .map((f) => f.requestId)
        .sort(),
    ).toEqual(["big", "small"]);
  });
});

describe("[C11] a pool with no host view and a transport that reports the landed bytes' CRC-32C", () => {
  /** A consumer whose pool gives no view; the read of `h1` (granted without a checksum) started. */
  function readingWithoutView() {
    const h = makeConsumer(QUIET);
    h.pool.viewable = false;
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    const [start] = starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1));
    if (start === undefined) throw new Error("no read started");
    return { h, start };
  }
  /** The read's bytes land (the producer's), and the transport reports their CRC when it was asked to. */
  function land(h: ReturnType<typeof makeConsumer>, start: StartReadOutput, now: number): void {
    fill(start, "h1");
    const bytes = start.destination.region.bytes;
    h.core.handleReadResult({ readId: start.readId, status: "done", bytesRead: bytes.length, ...(start.crc32c ? { crc32c: crc32c(bytes) } : {}) }, now);
    h.core.poll(now);
  }

  it("[C11] the transport is asked for the CRC, though no checksum is known yet, and an announcement with the right checksum that joins the read is ready", () => {
    const { h, start } = readingWithoutView();
    expect(start.crc32c).toBe(true);
    expect(decision(h.core.admit({ requestId: "r2", items: [remote("b", "h1", false, { checksum: true })] }, 2))?.action).toBe("defer");
    land(h, start, 3);
    expect(decision(h.core.admit({ requestId: "r2", items: [remote("b", "h1", false, { checksum: true })] }, 4))?.action).toBe("ready");
    expect(h.core.drainFailed()).toEqual([]);
  });

  it("[C11][C1] bytes loaded without a checksum serve a later announcement with the right one, checked against the transport's CRC; a wrong one is refused", () => {
    const { h, start } = readingWithoutView();
    land(h, start, 2);
    expect(decision(h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 3))?.action).toBe("ready");
    expect(decision(h.core.admit({ requestId: "r3", items: [remote("c", "h1", false, { checksum: true })] }, 4))?.action).toBe("ready");
    const other = announce("h1", { checksum: true });
    if (other.item?.checksum) other.item.checksum.value = new Uint8Array([1, 2, 3, 4]);
    const wrong = h.core.admit({ requestId: "r4", items: [{ itemId: "d", announcement: other, hasModelInput: false }] }, 5);
    expect(wrong.status === "failed" ? wrong.failures.map((f) => f.reason) : wrong).toEqual(["CHECKSUM_MISMATCH"]);
  });

  it("[C11] with a pool that gives a view, a read whose item carries no checksum does not ask the transport for one", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1")] }, 0);
    expect(starts(grant(h, onlyAttempt(h.core.poll(0)), 7, "h1", 1)).map((s) => s.crc32c)).toEqual([false]);
  });
});

describe("SPEC.md 3.4 a request of more than 32 items presented again in another order, or with items left out", () => {
  it("each item presented gets its own decision, found by its id (an index, not a scan: 1.6 s per admission of 10,000 of 20,000 items before)", () => {
    const h = makeConsumer(QUIET);
    const items: AdmitItem[] = [];
    for (let i = 0; i < 100; i++) items.push(i % 2 === 0 ? { itemId: `i${i}`, hasModelInput: true, local: true } : remote(`i${i}`, `h${i}`));
    h.core.admit({ requestId: "r", items }, 0);
    const reversed = [...items].reverse();
    const again = h.core.admit({ requestId: "r", items: reversed }, 1);
    expect(again.status === "admitted" ? again.items.map((d) => `${d.itemId} ${d.action}`) : again).toEqual(
      reversed.map((it) => `${it.itemId} ${it.local ? "ready" : "defer"}`),
    );
    const waiting = items.filter((it) => !it.local).slice(10, 40);
    const some = h.core.admit({ requestId: "r", items: waiting }, 2);
    expect(some.status === "admitted" ? some.items.map((d) => `${d.itemId} ${d.action}`) : some).toEqual(waiting.map((it) => `${it.itemId} defer`));
    // An item the first admission did not name is still refused (SPEC.md 3.4).
    expect(() => h.core.admit({ requestId: "r", items: [remote("new", "h1000")] }, 3)).toThrow(/not name|first admission|admitted with/);
  });
});

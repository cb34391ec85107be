/**
 * [P8] The epochs of a producer a consumer knows of come from its envelopes and from what its fetches
 * rely on: an epoch an announcement named (this admission's own included), greeted or connected, though
 * that epoch never answered. An announcement naming an older epoch is outdated: it starts no fetch
 * (it may join one of its key in flight [C1]), so no ReadRequest goes to an epoch never greeted
 * (SPEC 4: a Hello comes first to each epoch). Found by a review of the consumer: before, an older
 * epoch's announcement of another key sent a ReadRequest to that epoch without a Hello, and one
 * admission announcing two epochs of one key greeted and asked the older first.
 */
import { describe, expect, it } from "vitest";
import type { SendOutput } from "../outputs.js";
import { P, QUIET, makeConsumer, remote, sent } from "./test-support.js";

/** The epochs the Hellos and ReadRequests of a poll went to, in order ("hello@2", "readRequest@2"). */
function toEpochs(outputs: ReturnType<ReturnType<typeof makeConsumer>["core"]["poll"]>): string[] {
  return outputs
    .filter((o): o is SendOutput => o.type === "send" && (o.envelope.hello != null || o.envelope.readRequest != null))
    .map((o) => (o.envelope.hello != null ? "hello" : `readRequest@${String(o.envelope.readRequest?.expectedEpoch)}`));
}

describe("[P8] an announcement of an epoch older than one a fetch relies on", () => {
  it("[P8] after a fetch greeted epoch 2, another key's epoch-1 announcement starts no fetch: local encode for EPOCH_CHANGED, or the request fails", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", false, { epoch: 2 })] }, 0);
    expect(toEpochs(h.core.poll(0))).toEqual(["hello", "readRequest@2"]);
    const withModel = h.core.admit({ requestId: "r2", items: [remote("a", "h2", true, { epoch: 1 })] }, 1);
    expect(withModel.status === "admitted" && withModel.items[0]).toMatchObject({ action: "local-encode", reason: "EPOCH_CHANGED" });
    const without = h.core.admit({ requestId: "r3", items: [remote("a", "h3", false, { epoch: 1 })] }, 1);
    expect(without.status === "failed" && without.failures[0]).toMatchObject({ itemId: "a", reason: "EPOCH_CHANGED" });
    expect(toEpochs(h.core.poll(1))).toEqual([]);
  });

  it("[C1] it still joins the fetch of its own key in flight, which stays with epoch 2", () => {
    const h = makeConsumer(QUIET);
    h.core.admit({ requestId: "r1", items: [remote("a", "h1", false, { epoch: 2 })] }, 0);
    h.core.poll(0);
    const joined = h.core.admit({ requestId: "r2", items: [remote("a", "h1", false, { epoch: 1 })] }, 1);
    expect(joined.status === "admitted" && joined.items[0]?.action).toBe("defer");
    expect(toEpochs(h.core.poll(1))).toEqual([]);
  });

  it("[P8] one admission announcing epochs 1 and 2 of one key greets and asks only epoch 2, whatever the items' order", () => {
    for (const epochs of [
      [1, 2],
      [2, 1],
    ]) {
      const h = makeConsumer(QUIET);
      const r = h.core.admit({ requestId: "r1", items: epochs.map((epoch, i) => remote(`i${i}`, "h1", false, { epoch })) }, 0);
      expect(r.status === "admitted" && r.items.map((d) => d.action)).toEqual(["defer", "defer"]);
      expect(toEpochs(h.core.poll(0))).toEqual(["hello", "readRequest@2"]);
    }
  });

  it("[P8] one admission announcing another key in epoch 1 beside epoch 2 sends that key to local encode, whatever the items' order", () => {
    for (const first of ["old", "new"]) {
      const h = makeConsumer(QUIET);
      const old = remote("old", "h2", true, { epoch: 1 });
      const cur = remote("new", "h1", false, { epoch: 2 });
      const r = h.core.admit({ requestId: "r1", items: first === "old" ? [old, cur] : [cur, old] }, 0);
      expect(r.status).toBe("admitted");
      const decisions = r.status === "admitted" ? r.items : [];
      expect(decisions.find((d) => d.itemId === "old")).toMatchObject({ action: "local-encode", reason: "EPOCH_CHANGED" });
      expect(decisions.find((d) => d.itemId === "new")?.action).toBe("defer");
      expect(toEpochs(h.core.poll(0))).toEqual(["hello", "readRequest@2"]);
    }
  });

  it("[C1] without model input that item fails the request, which then starts nothing", () => {
    const h = makeConsumer(QUIET);
    const r = h.core.admit({ requestId: "r1", items: [remote("new", "h1", false, { epoch: 2 }), remote("old", "h2", false, { epoch: 1 })] }, 0);
    expect(r.status === "failed" && r.failures).toEqual([{ itemId: "old", reason: "EPOCH_CHANGED", attempts: 0 }]);
    expect(h.core.poll(0)).toEqual([]);
  });

  it("[P8] another producer's epochs are its own: an epoch-1 announcement of producer Q beside P's epoch 2 is fetched", () => {
    const h = makeConsumer(QUIET);
    const r = h.core.admit(
      { requestId: "r1", items: [remote("p", "h1", false, { epoch: 2 }), remote("q", "h2", false, { epoch: 1, producer: "e-2" })] },
      0,
    );
    expect(r.status === "admitted" && r.items.map((d) => d.action)).toEqual(["defer", "defer"]);
    const out = h.core.poll(0);
    expect(sent(out, "readRequest").map((o) => `${o.peerId}@${String(o.envelope.readRequest?.expectedEpoch)}`)).toEqual([`${P}@2`, "e-2@1"]);
  });
});

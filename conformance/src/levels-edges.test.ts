/**
 * Edges of the randomised, system and transport levels that the other suite checks leave open:
 * each test shows a check firing on an implementation broken in one more way, or a schedule
 * property (seed use, injected faults) that a weakened level would lose.
 */
import * as core from "@ectp/core";
import { crc32c } from "@ectp/protocol";
import { MockNetwork } from "@ectp/transport-mock";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CoreTesteeHandler, TS_TESTEE_FEATURES } from "../testees/ts/adapter.js";
import { runRandomised } from "./random/randomised.js";
import { runSubscriberRandomised } from "./random/subscriber-randomised.js";
import { CLOCK_ORIGIN_MS } from "./runner/script.js";
import { runSystemLevel } from "./system/system-level.js";
import { TS_CORE, alteredTsTestee, brokenTransportHarness, inProcessTsTestee, rewriteReads } from "./test-support.js";
import { inProcessTestee } from "./testee/in-process.js";
import { mockTransportHarness } from "./transport/mock-harness.js";
import { type TransportHarness, type TransportSuiteOptions, runTransportConformance } from "./transport/transport-suite.js";

/** A command id, as an answer echoes it. */
type Id = number | null | undefined;

const random = async (consumer: () => ReturnType<typeof inProcessTsTestee>, seeds = [1, 2, 3], producer = inProcessTsTestee, durationMs?: number) =>
  (await runRandomised({ consumer, producer, seeds, features: TS_TESTEE_FEATURES, ...(durationMs ? { durationMs } : {}) })).map(
    (r) => `${r.status} ${r.message ?? ""}`,
  );

/** The sizes of the items a seed's schedule puts on its producer, in order: a fingerprint of the schedule. */
async function scheduleOf(seed: number): Promise<string> {
  const sizes: number[] = [];
  const producer = alteredTsTestee((res, req) => {
    if (req.putItem?.data) sizes.push(req.putItem.data.length);
    return res;
  });
  const [r] = await runRandomised({ consumer: inProcessTsTestee, producer, seeds: [seed], features: TS_TESTEE_FEATURES, durationMs: 3000 });
  expect(r?.status, r?.message).toBe("passed");
  return sizes.join(",");
}

describe("randomised level: seeds and schedules", () => {
  it("a seed replays the same schedule; seeds differing only above bit 32 give different schedules", async () => {
    const one = await scheduleOf(1);
    expect(await scheduleOf(1)).toBe(one);
    expect(await scheduleOf(2 ** 32 + 1)).not.toBe(one);
    expect(await scheduleOf(2 ** 41)).not.toBe(await scheduleOf(2 ** 40));
  }, 60_000);

  it("besides the forced stall, some seed stalls a read at random: two reads settling 5 s or more after they started (seeds 1-20)", async () => {
    const slowPerSeed: number[] = [];
    // Seeds 1-20: one of them (16 since producers heartbeat only peers they have business with; which
    // one moves with the cores' message counts) stalls a second read at random.
    for (const seed of Array.from({ length: 20 }, (_, i) => i + 1)) {
      const started = new Map<number, number>();
      let slow = 0;
      const consumer = alteredTsTestee((res, req) => {
        const t = Number(req.nowMs) - CLOCK_ORIGIN_MS;
        for (const o of res.poll?.outputs ?? []) if (o.startRead) started.set(Number(o.startRead.readId), t);
        const r = req.deliverReadResult;
        if (r && t - (started.get(Number(r.readId)) ?? t) >= 5000) slow++;
        return res;
      });
      const [m] = await random(consumer, [seed]);
      expect(m).toMatch(/^passed /);
      slowPerSeed.push(slow);
    }
    expect(slowPerSeed.some((n) => n >= 2), slowPerSeed.join(",")).toBe(true);
  }, 120_000);
});

describe("randomised levels: the wall-clock limit of a seed", () => {
  it("a seed past its seedTimeoutMs fails at its next command, saying how to raise the limit (both levels)", async () => {
    const [consumerSeed] = await runRandomised({ consumer: inProcessTsTestee, producer: inProcessTsTestee, seeds: [1], features: TS_TESTEE_FEATURES, seedTimeoutMs: 1 });
    const [subscriberSeed] = await runSubscriberRandomised({
      producer: inProcessTsTestee,
      subscriber: inProcessTsTestee,
      seeds: [1],
      features: TS_TESTEE_FEATURES,
      seedTimeoutMs: 1,
    });
    for (const r of [consumerSeed, subscriberSeed]) {
      expect(r?.status).toBe("failed");
      expect(r?.message).toMatch(/^seed 1: the seed ran past its 1 ms of wall-clock time after \d+ commands, at t=\d+ of simulated time .*--seed-timeout-ms raises the limit/);
    }
    // The default leaves a reference testee's seed alone.
    expect((await runRandomised({ consumer: inProcessTsTestee, producer: inProcessTsTestee, seeds: [1], features: TS_TESTEE_FEATURES }))[0]?.status).toBe("passed");
  }, 60_000);
});

describe("randomised level: checks that must fire", () => {
  it("[C1] an admit naming an item that is not the request's (one decision per item, but one renamed) is caught", async () => {
    const consumer = alteredTsTestee((res) => {
      const items = res.admit?.items ?? [];
      const last = items[items.length - 1];
      if (last) last.itemId = "not-an-item";
      return res;
    });
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/^failed seed 1: \[C1\] r\d+ admitted with decisions for \[.*not-an-item\], not one for each of its items/);
  }, 60_000);

  it("[I6] a consumer that loads nothing (every read's bytes refused, as by a verification that rejects good bytes) fails the seed", async () => {
    const refusing = () => {
      const h = new CoreTesteeHandler(TS_CORE);
      return inProcessTestee({
        handle: (req) => {
          const result = req.deliverReadResult;
          if (result?.data && result.data.length > 0) result.data = result.data.map((b, i) => (i === 0 ? b ^ 0xff : b));
          return h.handle(req);
        },
      });
    };
    const [m] = await random(refusing, [1]);
    expect(m).toMatch(/^failed seed 1: \[I6\] no item was loaded from the producer in the whole schedule, though [1-9]\d* reads landed the producer's bytes intact and uncancelled \(\d+ requests\)/);
  }, 60_000);

  it("[I6] a loaded item reported with another CRC than the producer's names both, so a reporting bug is told from a data bug", async () => {
    const consumer = alteredTsTestee((res) => {
      for (const d of res.admit?.items ?? []) if (d.loaded) d.loaded.crc32c = (Number(d.loaded.crc32c) ^ 1) >>> 0;
      return res;
    });
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/\[I6\] r\d+\/i\d loaded with different bytes than the producer holds at t=\d+: ItemDecision\.loaded reports (\d+) bytes, CRC-32C ([0-9a-f]{8}); the producer holds \1 bytes, CRC-32C (?!\2)[0-9a-f]{8}/);
  }, 60_000);

  it("[I3] a producer whose Stats lack Stats.producer fails the seed naming it (its pins cannot be checked)", async () => {
    const producer = alteredTsTestee((res) => {
      if (res.stats) res.stats.producer = null;
      return res;
    });
    const [m] = await random(inProcessTsTestee, [1], producer);
    expect(m).toMatch(/^failed seed 1: \[I3\] the producer's Stats lack Stats\.producer \(TESTEE-PROTOCOL\.md §5\): its pins cannot be checked/);
  }, 60_000);

  it("[I1] a poll or an admit answered with Ok instead of its result fails the seed naming the command", async () => {
    const okFor = (name: "poll" | "admit") => alteredTsTestee((res) => (res[name] ? { commandId: res.commandId, ok: {} } : res));
    expect((await random(okFor("poll"), [1]))[0]).toMatch(/^failed seed 1: \[I1\] consumer answered poll at t=0 with \{"ok":\{\}\}; expected poll \(TESTEE-PROTOCOL\.md §5\)/);
    expect((await random(okFor("admit"), [1]))[0]).toMatch(/^failed seed 1: \[I1\] consumer answered admit at t=\d+ with \{"ok":\{\}\}; expected admit /);
  }, 60_000);

  it("[I5] a consumer whose Stats lack Stats.consumer fails the seed naming it (its destinations cannot be checked)", async () => {
    const consumer = alteredTsTestee((res) => {
      if (res.stats) res.stats.consumer = null;
      return res;
    });
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/^failed seed 1: \[I5\] the consumer's Stats lack Stats\.consumer \(TESTEE-PROTOCOL\.md §5\)/);
  }, 60_000);

  it("[I5] a consumer holding too few destinations for reads it did not cancel is told none of them was cancelled", async () => {
    const consumer = alteredTsTestee((res) => {
      if (res.stats?.consumer) res.stats.consumer.destinations = 0;
      return res;
    });
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/^failed seed 1: \[I5\] the consumer holds 0 destinations at t=\d+ while [1-9]\d* of its reads \(0 of them cancelled\) are unsettled/);
  }, 60_000);

  it("[I6] 'items loaded' counts distinct (request, item) pairs; 'intact reads' only reads that landed the producer's bytes unaltered and uncancelled", async () => {
    for (const seed of [1, 2, 3]) {
      const crcs = new Set<number>();
      const cancelled = new Set<string>();
      let intact = 0;
      const loaded = new Set<string>();
      const producer = alteredTsTestee((res, req) => {
        if (req.putItem?.data) crcs.add(crc32c(req.putItem.data));
        return res;
      });
      const consumer = alteredTsTestee((res, req) => {
        for (const o of res.poll?.outputs ?? []) if (o.cancelRead) cancelled.add(String(o.cancelRead.readId));
        const r = req.deliverReadResult;
        if (req.admit) for (const d of res.admit?.items ?? []) if (d.loaded && d.action === 1) loaded.add(`${String(req.admit.requestId)}/${String(d.itemId)}`);
        if (r && r.status === 1 && r.data && r.data.length > 0 && crcs.has(crc32c(r.data)) && !cancelled.has(String(r.readId))) intact++;
        return res;
      });
      const [m] = await random(consumer, [seed], producer);
      const got = /^passed exercised: (\d+) items loaded, (\d+) intact reads,/.exec(m ?? "");
      expect(got, m).not.toBeNull();
      expect(Number(got?.[2]), `seed ${seed}: ${m}`).toBe(intact);
      // Once per (request, item) pair, however often a loaded item is re-admitted.
      expect(Number(got?.[1]), `seed ${seed}: ${m}`).toBe(loaded.size);
    }
  }, 120_000);

  it("[C1] an admit answered ADMITTED with no decisions fails naming [C1]", async () => {
    const consumer = alteredTsTestee((res) => {
      if (res.admit?.items) res.admit.items = [];
      return res;
    });
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/^failed seed 1: \[C1\] r\d+ admitted with decisions for \[\], not one for each of its items/);
  }, 60_000);

  it("an Unsupported answer to a command the level needs (here FinishRequest) fails the seed", async () => {
    const consumer = alteredTsTestee((res, req) => (req.finishRequest ? { commandId: res.commandId, unsupported: { feature: "consumer" } } : res));
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/^failed seed 1: consumer does not support consumer/);
  }, 60_000);

  it("a send whose envelope names another sender fails the seed (TESTEE-PROTOCOL.md §5.2)", async () => {
    const consumer = alteredTsTestee((res) => {
      for (const o of res.poll?.outputs ?? []) if (o.send?.envelope) o.send.envelope.senderId = "C9";
      return res;
    });
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/^failed seed 1: C1 sent an envelope without version 1.x, sender_id C1 and sender_epoch 1/);
  }, 60_000);

  it("[I3] a producer holding fewer pins than live grants is caught", async () => {
    const producer = alteredTsTestee((res) => {
      const p = res.stats?.producer;
      if (p && Number(p.grants) > 0) p.pins = Number(p.grants) - 1;
      return res;
    });
    const out = await random(inProcessTsTestee, [1, 2, 3], producer);
    expect(out.some((m) => /^failed seed \d+: \[I3\] producer pins \d+ != grants \d+ at t=\d+/.test(m)), out.join("\n")).toBe(true);
  }, 60_000);

  it.each([
    ["Error", (id: Id) => ({ commandId: id, error: { message: "gone", code: "INVALID_ARGUMENT" } }), /the producer answered ReadMemory of \d+ bytes at t=\d+ at a location it handed out, which holds item-\d+ \(\d+ bytes\), for a read the consumer had not cancelled, with Error \(gone\)/],
    ["Ok, no bytes", (id: Id) => ({ commandId: id, ok: {} }), /\[I1\] producer answered readMemory at t=\d+ with \{"ok":\{\}\}; expected readMemory/],
    ["other bytes", (id: Id) => ({ commandId: id, readMemory: { data: new Uint8Array([1, 2, 3]) } }), /the producer answered ReadMemory of \d+ bytes .*, with 3 bytes, not the \d+ bytes of item-\d+/],
  ])("a producer whose ReadMemory answers %s for an item it holds fails the seed, naming ReadMemory", async (_what, answer, message) => {
    const producer = alteredTsTestee((res, req) => (req.readMemory ? answer(res.commandId) : res));
    const [m] = await random(inProcessTsTestee, [1], producer);
    expect(m).toMatch(/^failed seed 1: /);
    expect(m).toMatch(message);
  }, 60_000);

  it("a read of a location the producer never handed out (ReadMemory answered with an error) settles FAILED, never DONE", async () => {
    const statuses: number[] = [];
    const consumer = alteredTsTestee((res, req) => {
      if (req.deliverReadResult) statuses.push(Number(req.deliverReadResult.status));
      for (const o of res.poll?.outputs ?? []) if (o.startRead) o.startRead.source = new TextEncoder().encode("elsewhere");
      return res;
    });
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/^passed /);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 1)).toEqual([]);
  }, 60_000);

  it("[I5] concurrent reads whose destinations overlap without starting at the same offset are caught", async () => {
    // Every read claims the destination starting at its own id in one region: distinct starts, overlapping ranges.
    const consumer = alteredTsTestee((res) => {
      for (const o of res.poll?.outputs ?? [])
        if (o.startRead) {
          o.startRead.destinationRegion = "one-region";
          o.startRead.destinationOffset = Number(o.startRead.readId);
        }
      return res;
    });
    const out = await random(consumer, [1, 2, 3]);
    expect(out.some((m) => /^failed seed \d+: \[I5\] read \d+ reuses the destination of unsettled read \d+/.test(m)), out.join("\n")).toBe(true);
  }, 60_000);

  it("[I1] a consumer answering a command with an error fails the seed, even one whose result nothing else reads (here FinishRequest)", async () => {
    const consumer = alteredTsTestee((res, req) => (req.finishRequest ? { commandId: res.commandId, error: { message: "boom", code: "INTERNAL" } } : res));
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/^failed seed 1: \[I1\] consumer answered finishRequest at t=\d+ with an error: boom/);
  }, 60_000);

  it("[I2] a consumer that keeps a request deferred past its budget is caught within one engine step of the budget", async () => {
    // Every decision the consumer makes is reported as defer: no request ever reaches an outcome.
    const consumer = alteredTsTestee((res) => {
      for (const d of res.admit?.items ?? []) d.action = 2; // ITEM_ACTION_DEFER
      return res;
    });
    const [m] = await random(consumer, [1]);
    const got = /^failed seed 1: \[I2\] r\d+ still deferred at t=(\d+), first admitted at t=(\d+) with a 20000 ms budget/.exec(m ?? "");
    expect(got, m).not.toBeNull();
    expect(Number(got?.[1]) - Number(got?.[2]), m).toBeGreaterThanOrEqual(20_000);
    expect(Number(got?.[1]) - Number(got?.[2]), m).toBeLessThan(20_000 + 2 * 200);
  }, 60_000);

  it("[I4] a consumer whose tables are not back to baseline at quiescence fails the seed naming the table", async () => {
    // One budget that never goes away: below the checks during the run, caught at the end.
    const consumer = alteredTsTestee((res) => {
      if (res.stats?.consumer) res.stats.consumer.budgets = Number(res.stats.consumer.budgets ?? 0) + 1;
      return res;
    });
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/^failed seed 1: \[I4\] consumer tables not back to baseline: budgets=1(\n|$)/);
  }, 60_000);

  it("[I2] a consumer that reports failed a request whose admit said every item was ready fails the seed (two outcomes)", async () => {
    let ready: string | undefined;
    let reported = false;
    const consumer = alteredTsTestee((res, req) => {
      const items = res.admit?.items ?? [];
      if (ready === undefined && items.length > 0 && items.every((d) => d.action === 1)) ready = String(req.admit?.requestId); // ITEM_ACTION_READY
      if (res.drainFailed && ready !== undefined && !reported) {
        reported = true;
        res.drainFailed.failed = [...(res.drainFailed.failed ?? []), { requestId: ready, failures: [{ itemId: "x", reason: 5 }] }];
      }
      return res;
    });
    const [m] = await random(consumer, [1]);
    expect(ready, m).toBeDefined();
    expect(m).toMatch(/^failed seed 1: \[I2\] r\d+ reported failed by drainFailed at t=\d+ after admit said every item was ready: two outcomes/);
  }, 60_000);

  it("[C6] a consumer whose drainFailed never reports the requests its admit answered FAILED fails the seed at the end", async () => {
    const consumer = alteredTsTestee((res) => {
      if (res.drainFailed) res.drainFailed.failed = [];
      return res;
    });
    const out = await random(consumer, [1, 2, 3]);
    expect(out.some((m) => /^failed seed \d+: \[C6\] r\d+(, r\d+)* answered FAILED by admit but never reported by drainFailed/.test(m)), out.join("\n")).toBe(true);
  }, 60_000);
});

describe("system level: seeds and injected faults", () => {
  afterEach(() => vi.restoreAllMocks());
  /** The fault counts of every network each system case built, in order. */
  const faultCountsOf = async (seed: number) => {
    const nets: MockNetwork[] = [];
    const endpoint = MockNetwork.prototype.endpoint;
    vi.spyOn(MockNetwork.prototype, "endpoint").mockImplementation(function (this: MockNetwork, ...args: Parameters<MockNetwork["endpoint"]>) {
      if (!nets.includes(this)) nets.push(this);
      return endpoint.apply(this, args);
    });
    const results = await runSystemLevel(seed);
    expect(results.map((r) => `${r.name} ${r.status} ${r.message ?? ""}`)).toEqual(results.map((r) => `${r.name} passed `));
    vi.restoreAllMocks();
    return nets.map((n) => n.faultCounts());
  };

  it("the lossy-links case drops, duplicates, reorders, fails and corrupts; its schedule follows the seed", async () => {
    const one = await faultCountsOf(1);
    expect(one).toHaveLength(2);
    const lossy = one[1];
    expect(lossy).toMatchObject({ drop: expect.any(Number), duplicate: expect.any(Number), reorder: expect.any(Number) });
    for (const k of ["drop", "duplicate", "reorder", "failRead", "corruptRead"] as const) expect(lossy?.[k], `${k}: ${JSON.stringify(lossy)}`).toBeGreaterThan(0);
    expect(one[0]?.stallRead).toBeGreaterThan(0);
    expect(JSON.stringify((await faultCountsOf(2))[1])).not.toBe(JSON.stringify(lossy));
  }, 60_000);

  it("the restarted producer announces under a new epoch: r2 loads from a later incarnation than r1 [P8]", async () => {
    const epochs = new Map<string, number>();
    const orig = core.ConsumerCore.prototype.admit;
    vi.spyOn(core.ConsumerCore.prototype, "admit").mockImplementation(function (this: core.ConsumerCore, req, now) {
      const e = req.items[0]?.announcement?.item?.epoch;
      if (e !== undefined && e !== null && !epochs.has(req.requestId)) epochs.set(req.requestId, Number(e));
      return orig.call(this, req, now);
    });
    const [first] = await runSystemLevel(1);
    expect(first?.status, first?.message).toBe("passed");
    expect(Number(epochs.get("r2"))).toBeGreaterThan(Number(epochs.get("r1")));
  }, 60_000);

  it("[I2] a request deferred past its budget is caught within one 100 ms admit step of the budget", async () => {
    const orig = core.ConsumerCore.prototype.admit;
    vi.spyOn(core.ConsumerCore.prototype, "admit").mockImplementation(function (this: core.ConsumerCore, req, now) {
      const r = orig.call(this, req, now);
      return (r.status === "admitted" ? { ...r, items: r.items.map((d) => ({ itemId: d.itemId, action: "defer" })) } : r) as never;
    });
    const results = await runSystemLevel(1);
    const late = results.map((r) => /\[I2\] r\d+ still deferred (\d+(?:\.\d+)?) ms after admission \(budget 20000\)/.exec(r.message ?? "")?.[1]);
    expect(late.every((x) => x !== undefined), results.map((r) => r.message).join("\n")).toBe(true);
    for (const x of late) expect(Number(x)).toBeLessThanOrEqual(20_200);
  }, 60_000);
});

describe("transport suite: checks that must fire", () => {
  const one = async (h: TransportHarness, name: string, options: TransportSuiteOptions = {}) => {
    const [r] = await runTransportConformance(h, { ...options, select: (n) => n.endsWith(`/${name}`) });
    return `${r?.status} ${r?.message ?? ""}`;
  };

  it("a close() that throws at once, or rejects, as the suite closes a case's peers fails that case, and the run goes on", async () => {
    const closing = (fail: () => Promise<void>) =>
      brokenTransportHarness({
        reader: (t) => {
          const close = t.close.bind(t);
          t.close = () => close().then(fail);
        },
      });
    const sync = brokenTransportHarness({
      reader: (t) => {
        const close = t.close.bind(t);
        t.close = () => {
          void close();
          throw new Error("close blew up at once");
        };
      },
    });
    expect(await one(sync, "messages-arrive-once-intact-as-copies")).toMatch(/^failed transport threw closing the case's peers: Error: close blew up at once/);
    const rejecting = closing(() => Promise.reject(new Error("close rejected")));
    expect(await one(rejecting, "messages-arrive-once-intact-as-copies")).toMatch(/^failed transport threw closing the case's peers: Error: close rejected/);
    const results = await runTransportConformance(sync, { select: (n) => /\/(messages-arrive-once-intact-as-copies|connect-rejects-unusable-metadata)$/.test(n) });
    expect(results.map((r) => r.status)).toEqual(["failed", "failed"]);
  }, 60_000);

  it("a byte written just before the destination fails the byte-exact case", async () => {
    const h = brokenTransportHarness({
      reader: rewriteReads((r, dest) => {
        const d = dest.get(r.readId);
        if (r.status === "done" && d) d.region.bytes[d.offset - 1] = 1;
        return [r];
      }),
    });
    expect(await one(h, "byte-exact-reads-at-odd-offsets")).toMatch(/^failed read of 1 bytes wrote outside its destination/);
  }, 60_000);

  it("a transport that corrupts only reads larger than 1 MB fails the byte-exact case", async () => {
    const h = brokenTransportHarness({
      reader: rewriteReads((r, dest) => {
        const d = dest.get(r.readId);
        if (r.status === "done" && d && d.length > 1_000_000) d.region.bytes[d.offset + d.length - 1] = (d.region.bytes[d.offset + d.length - 1] ?? 0) ^ 0xff;
        return [r];
      }),
    });
    expect(await one(h, "byte-exact-reads-at-odd-offsets")).toMatch(/^failed read of 1000003 bytes at offsets 3 -> 7 is not byte-exact/);
  }, 60_000);

  it("a cancelled read settling with a status outside done, failed and cancelled fails the cancel case", async () => {
    const h = brokenTransportHarness({ reader: rewriteReads((r) => [r.status === "cancelled" ? ({ ...r, status: "aborted" } as unknown as core.ReadResult) : r]) });
    expect(await one(h, "cancel-settles-exactly-once")).toMatch(/^failed a cancelled read of \d+ bytes ended with unknown status aborted/);
  }, 60_000);

  it("a cancel after settlement that makes the transport report the read again fails the cancel case", async () => {
    const h = brokenTransportHarness({
      reader: (t) => {
        const settled = new Set<number>();
        const queued: core.ReadResult[] = [];
        const cancel = t.cancelRead.bind(t);
        t.cancelRead = (id) => {
          if (settled.has(id)) queued.push({ readId: id, status: "cancelled" });
          else cancel(id);
        };
        const poll = t.poll.bind(t);
        t.poll = () => {
          const a = poll();
          for (const r of a.reads) settled.add(r.readId);
          return { ...a, reads: [...a.reads, ...queued.splice(0)] };
        };
      },
    });
    expect(await one(h, "cancel-settles-exactly-once")).toMatch(/^failed a cancelled read of \d+ bytes \(after a late cancel\) settled 2 times/);
  }, 60_000);

  it("a read of a malformed location that fails without a reason fails the malformed-location case", async () => {
    const h = brokenTransportHarness({ reader: rewriteReads((r) => [r.status === "failed" ? { readId: r.readId, status: "failed" } : r]) });
    expect(await one(h, "malformed-location-fails-read")).toMatch(/^failed a read of a malformed location ended failed \(error undefined\)/);
  }, 60_000);

  it("close() settling an unsettled read `failed` fails the close case", async () => {
    const h = brokenTransportHarness({ reader: rewriteReads((r) => [{ ...r, status: "failed" as const, error: "closed" }]) });
    expect(await one(h, "close-settles-unsettled-reads")).toMatch(/^failed a read left unsettled by close\(\) ended failed; cancelled is required/);
  }, 60_000);

  it("a message delivered twice to the reader (owner to reader) fails the messages case", async () => {
    const h = brokenTransportHarness({
      reader: (t) => {
        const poll = t.poll.bind(t);
        t.poll = () => {
          const a = poll();
          return { ...a, messages: a.messages.flatMap((m) => [m, m]) };
        };
      },
    });
    expect(await one(h, "messages-arrive-once-intact-as-copies")).toMatch(/^failed one message sent, 2 arrived/);
  }, 60_000);

  it("a transport that ignores a cancel only for a large read in flight, yet reports it cancelled, fails the cancel case", async () => {
    const h = brokenTransportHarness({
      reader: (t) => {
        const large = new Set<number>();
        const ignored = new Set<number>();
        const start = t.startRead.bind(t);
        t.startRead = (op) => {
          if (op.destination.length > 1024 * 1024) large.add(op.readId);
          start(op);
        };
        const cancel = t.cancelRead.bind(t);
        t.cancelRead = (id) => {
          if (large.has(id)) ignored.add(id);
          else cancel(id);
        };
        const poll = t.poll.bind(t);
        t.poll = () => {
          const a = poll();
          return { ...a, reads: a.reads.map((r) => (ignored.has(r.readId) ? { readId: r.readId, status: "cancelled" as const } : r)) };
        };
      },
    });
    expect(await one(h, "cancel-settles-exactly-once")).toMatch(/^failed a read of 8388608 bytes reported cancelled but wrote into its destination/);
  }, 60_000);

  /** A harness whose reads never settle and whose `advance` always says more may happen; `calls` counts advances. */
  const hanging = () => {
    const calls = { n: 0 };
    const h = brokenTransportHarness({
      reader: (t) => {
        t.startRead = () => undefined;
      },
      advance: async () => {
        calls.n++;
        await new Promise<void>((r) => setImmediate(r));
        return true;
      },
    });
    return { h, calls };
  };

  it("a read that never settles is reported hung after maxSteps advances", async () => {
    const { h, calls } = hanging();
    expect(await one(h, "byte-exact-reads-at-odd-offsets", { maxSteps: 5 })).toBe(
      "failed read of 1 bytes: never happened in 5 advance steps (maxSteps; a transport whose waitForActivity resolves at once uses them up fast) (the transport hung)",
    );
    expect(calls.n).toBe(5);
  }, 20_000);

  it("a read that never settles is reported hung once waitTimeoutMs has passed, however many steps are allowed", async () => {
    const { h } = hanging();
    expect(await one(h, "byte-exact-reads-at-odd-offsets", { maxSteps: Number.MAX_SAFE_INTEGER, waitTimeoutMs: 50 })).toBe(
      "failed read of 1 bytes: never happened in 50 ms (waitTimeoutMs) (the transport hung)",
    );
  }, 20_000);

  it("a read that never settles, on a harness whose advance says nothing can happen any more, is reported hung at once, saying so", async () => {
    const { h } = hanging();
    const stuck = { ...h, advance: async () => false };
    expect(await one(stuck, "byte-exact-reads-at-odd-offsets")).toBe(
      "failed read of 1 bytes: never happened, and the harness's advance says nothing can happen any more (the transport hung)",
    );
  }, 20_000);

  it("every case's peers are closed when it ends, and dispose runs once after the last case", async () => {
    const inner = mockTransportHarness(1);
    let created = 0;
    let closed = 0;
    let disposed = 0;
    const h: TransportHarness = {
      ...inner,
      async createPeers() {
        const p = await inner.createPeers();
        for (const t of [p.reader, p.owner]) {
          created++;
          const close = t.close.bind(t);
          t.close = () => {
            closed++;
            return close();
          };
        }
        return p;
      },
      async dispose() {
        disposed++;
      },
    };
    const results = await runTransportConformance(h, { select: (n) => /\/(messages-arrive-once|connect-rejects)/.test(n) });
    expect(results.map((r) => r.status)).toEqual(["passed", "passed"]);
    expect({ created, closed, disposed }).toEqual({ created: 4, closed: 4, disposed: 1 });
  }, 60_000);
});

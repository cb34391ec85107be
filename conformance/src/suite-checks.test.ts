/**
 * The conformance suite's own checks, shown to fire: the randomised level ([C1], [C6], [I2]-[I6]
 * on planted or wrapped cores, and the faults its schedules claim), the transport suite (each case
 * against a mock endpoint broken one way), the TS testee adapter's commands, and the system level.
 * Each test fails on a weakening of the suite (or the adapter) that the other tests let pass: a
 * check that cannot fail would let a broken implementation pass (found by mutation testing).
 */
import * as core from "@ectp/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CoreTesteeHandler, type CoreModule, TS_TESTEE_FEATURES } from "../testees/ts/adapter.js";
import { importCoreBundle, loadMutants } from "./mutants/build.js";
import { TesteeRequest, ectp } from "./proto.js";
import { runRandomised } from "./random/randomised.js";
import { CLOCK_ORIGIN_MS } from "./runner/script.js";
import { crc32c } from "@ectp/protocol";
import { runSystemLevel } from "./system/system-level.js";
import { TS_CORE, alteredTsTestee, brokenTransportHarness, inProcessTsTestee, rewriteReads } from "./test-support.js";
import { inProcessTestee } from "./testee/in-process.js";
import { type TransportHarness, runTransportConformance } from "./transport/transport-suite.js";

type Res = ectp.conformance.v1.ITesteeResponse;
const random = async (consumer: () => ReturnType<typeof inProcessTsTestee>, seeds = [1, 2, 3], producer = inProcessTsTestee) =>
  (await runRandomised({ consumer, producer, seeds, features: TS_TESTEE_FEATURES })).map((r) => `${r.status} ${r.message ?? ""}`);

describe("randomised level checks", () => {
  it("[I5] a start_read without destination_region fails the seed", async () => {
    const consumer = alteredTsTestee((res) => {
      for (const o of res.poll?.outputs ?? []) if (o.startRead) o.startRead.destinationRegion = "";
      return res;
    });
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/^failed seed 1: \[I5\] start_read \d+ has no destination_region/);
  }, 60_000);

  it("a send whose envelope carries another major version fails the seed (TESTEE-PROTOCOL.md §5.2)", async () => {
    const consumer = alteredTsTestee((res) => {
      for (const o of res.poll?.outputs ?? []) if (o.send?.envelope) o.send.envelope.version = { major: 2, minor: 0 };
      return res;
    });
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/^failed seed 1: C1 sent an envelope without version 1.x/);
  }, 60_000);

  it("[I1] an Error answer to any command (here FinishRequest) fails the seed", async () => {
    const consumer = alteredTsTestee((res, req) => (req.finishRequest ? { commandId: res.commandId, error: { message: "boom", code: "INTERNAL" } } : res));
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/^failed seed 1: \[I1\] consumer answered finishRequest at t=\d+ with an error: boom/);
  }, 60_000);

  it("the schedules exercise every fault they claim (seeds 1-6): drops, delays, failed, corrupted, stalled and late reads, cancels, clock jumps, a restart (the forced ones in every seed)", async () => {
    const seen = { sent: new Map<string, number>(), delivered: new Set<string>(), maxDelay: 0, failedReads: 0, corrupt: 0, stalled: 0, lateAfterCancel: 0, offGrid: 0, restarts: 0, engineCancels: 0, remoteLoads: 0 };
    const crcs = new Set<number>();
    const readStart = new Map<string, number>();
    const cancelled = new Set<string>();
    const lastDefer = new Set<string>();
    let run = 0;
    const recording = (seed: () => number) => () => {
      const h = new CoreTesteeHandler(TS_CORE);
      const tag = run++;
      return inProcessTestee({
        handle: (req) => {
          const res = h.handle(req);
          const t = Number(req.nowMs) - CLOCK_ORIGIN_MS;
          const k = (id: unknown) => `${seed()}:${String(id)}`;
          if (req.configure && Number(req.configure.epoch) > 5) seen.restarts++;
          if (req.putItem?.data) crcs.add(crc32c(req.putItem.data));
          for (const o of res.poll?.outputs ?? []) {
            if (o.send?.envelope) {
              const key = `${seed()}:${tag}:${JSON.stringify(o.send.envelope)}`;
              if (!seen.sent.has(key)) seen.sent.set(key, t);
            }
            if (o.startRead) readStart.set(k(o.startRead.readId), t);
            if (o.cancelRead) cancelled.add(k(o.cancelRead.readId));
          }
          // The link hands over the bytes the sender's encoder made (features raw-outputs and raw-messages).
          const raw = req.deliverMessage?.raw;
          const delivered = raw?.length ? ectp.v1.Envelope.decode(raw) : req.deliverMessage?.envelope;
          if (delivered) {
            const key = `${seed()}:${tag - 1}:${JSON.stringify(delivered)}`;
            const alt = `${seed()}:${tag + 1}:${JSON.stringify(delivered)}`;
            for (const x of [key, alt]) {
              const at = seen.sent.get(x);
              if (at !== undefined) {
                seen.delivered.add(x);
                seen.maxDelay = Math.max(seen.maxDelay, t - at);
              }
            }
          }
          if (req.deliverReadResult) {
            const r = req.deliverReadResult;
            const id = k(r.readId);
            if (r.status === 2) seen.failedReads++;
            if (r.status === 1 && r.data && r.data.length > 0 && !crcs.has(crc32c(r.data))) seen.corrupt++;
            // A stall: slow (5 s or more), or still running when the consumer gave up on it and
            // landing after (the forced stall, whose cancel may come sooner than 5 s).
            if (t - (readStart.get(id) ?? t) >= 5000 || (r.status === 1 && cancelled.has(id))) seen.stalled++;
            if (r.status === 1 && cancelled.has(id)) seen.lateAfterCancel++;
          }
          if (req.admit) {
            seen.remoteLoads += (res.admit?.items ?? []).filter((d) => d.loaded).length;
            if (t % 200 !== 0) seen.offGrid++;
            const id = String(req.admit.requestId);
            if (res.admit?.items?.some((d) => d.action === 2)) lastDefer.add(id);
            else lastDefer.delete(id);
          }
          if (req.finishRequest && lastDefer.has(String(req.finishRequest.requestId))) seen.engineCancels++;
          return res;
        },
      });
    };
    let current = 0;
    const seeds = [1, 2, 3, 4, 5, 6];
    // Forced in every seed: a failed read, a corrupted one, a stalled one landing after its cancel, a restart.
    const forced = () => ({ failedReads: seen.failedReads, corrupt: seen.corrupt, stalled: seen.stalled, lateAfterCancel: seen.lateAfterCancel, restarts: seen.restarts });
    for (const s of seeds) {
      current = s;
      run = 0;
      const before = forced();
      const [r] = await runRandomised({ consumer: recording(() => current), producer: recording(() => current), seeds: [s], features: TS_TESTEE_FEATURES });
      expect(r?.status, r?.message).toBe("passed");
      const after = forced();
      const missing = Object.keys(after).filter((k) => after[k as keyof typeof after] === before[k as keyof typeof before]);
      expect(missing, `seed ${s} exercised none of: ${missing.join(", ")}`).toEqual([]);
    }
    const dropped = [...seen.sent.keys()].filter((x) => !seen.delivered.has(x)).length;
    expect({ ...seen, sent: seen.sent.size, delivered: seen.delivered.size, dropped }).toMatchObject({
      dropped: expect.any(Number),
    });
    const counts = { dropped, maxDelayOver1: seen.maxDelay > 1, failedReads: seen.failedReads, corrupt: seen.corrupt, stalled: seen.stalled, lateAfterCancel: seen.lateAfterCancel, offGrid: seen.offGrid, restarts: seen.restarts, engineCancels: seen.engineCancels, remoteLoads: seen.remoteLoads };
    for (const [name, v] of Object.entries(counts)) expect(Number(v) > 0, `${name}: ${JSON.stringify(counts)}`).toBe(true);
  }, 120_000);

  it("[I3] producer pins and grants left after quiescence are caught", async () => {
    const producer = alteredTsTestee((res) => {
      const p = res.stats?.producer;
      if (p) {
        p.pins = Number(p.pins) + 1;
        p.grants = Number(p.grants) + 1;
      }
      return res;
    });
    const [m] = await random(inProcessTsTestee, [1], producer);
    expect(m).toMatch(/^failed seed 1: \[I3\] after quiescence producer pins=\d+ grants=\d+/);
  }, 60_000);

  it("[I5] a consumer that reuses a quarantined read's destination at once (mutant x1) is caught", async () => {
    const x1 = loadMutants().find((m) => m.name.startsWith("x1-"));
    const bundle = await importCoreBundle<CoreModule>(x1?.patches ?? [], "review-x1-random");
    const out = await random(() => inProcessTestee(new CoreTesteeHandler(bundle)), [1, 2, 3, 4, 5, 6, 7, 8]);
    // The adapter's own pool check usually sees it first (the mutant gives the destination back while
    // it still counts it); the runner's reuse check alone is tested in levels-edges.test.ts.
    const caught = /^failed seed \d+: (\[I5\] read \d+ reuses the destination of unsettled read \d+|\[I1\] consumer answered getStats at t=\d+ with an error: \[I4\]\[I5\] the core reports \d+ destinations, but it holds \d+ allocated from the pool)/;
    expect(out.some((m) => caught.test(m)), out.join("\n")).toBe(true);
  }, 120_000);

  it("[I6] loaded bytes of another size, or another CRC-32C, than the producer's are caught", async () => {
    const change = (f: (l: { sizeBytes?: number | null; crc32c?: number | null }) => void) =>
      alteredTsTestee((res) => {
        for (const d of res.admit?.items ?? []) if (d.loaded) f(d.loaded as { sizeBytes?: number; crc32c?: number });
        return res;
      });
    const size = await random(change((l) => { l.sizeBytes = Number(l.sizeBytes) + 1; }), [1]);
    expect(size[0]).toMatch(/^failed seed 1: \[I6\] .* loaded with different bytes than the producer holds/);
    const crc = await random(change((l) => { l.crc32c = (Number(l.crc32c) ^ 1) >>> 0; }), [1]);
    expect(crc[0]).toMatch(/^failed seed 1: \[I6\] .* loaded with different bytes than the producer holds/);
  }, 60_000);

  it("[I6] a consumer core that skips checksum verification loads corrupted bytes and is caught (the schedule corrupts reads)", async () => {
    const bundle = await importCoreBundle<CoreModule>(
      // Every checksum check: the grant's (every waiter), "some waiter's announcement agrees", each waiter's own.
      [
        { file: "consumer/consumer.ts", find: "if (r.checksumB !== -1 && crc !== r.checksumB) {", replace: "if (false) {" },
        { file: "consumer/consumer.ts", find: "if (reason === undefined && !this.someWaiterMatches(f, r.checksumA)) {", replace: "if (false) {" },
        { file: "consumer/consumer.ts", find: "if (own !== -1 && own !== l.crc) batch", replace: "if (false) batch" },
      ],
      "review-no-checksum",
    );
    const out = await random(() => inProcessTestee(new CoreTesteeHandler(bundle)), [1, 2, 3, 4, 5, 6, 7, 8]);
    expect(out.some((m) => /^failed seed \d+: \[I6\] .* loaded with different bytes/.test(m))).toBe(true);
  }, 120_000);

  it("[I5] a consumer core that frees a cancelled read's destination at once (no quarantine) is caught by the forced late write", async () => {
    const bundle = await importCoreBundle<CoreModule>(
      [
        {
          file: "consumer/consumer.ts",
          find: "else this.timers.schedule(r, Math.max(now, r.deadline) + this.config.quarantineCapMs, LANE_HEAP);",
          replace: "else this.timers.schedule(r, now + 1, LANE_HEAP);",
        },
      ],
      "review-no-quarantine",
    );
    const out = await random(() => inProcessTestee(new CoreTesteeHandler(bundle)), [1, 2, 3, 4, 5]);
    // Caught by the destination count while the cancelled read is unsettled (or, failing that, by a
    // second read reusing the destination); seed 1's forced stall is abandoned, not quarantined.
    const caught = out.filter((m) =>
      /^failed seed \d+: \[I5\] (the consumer holds 0 destinations at t=\d+ while 1 of its reads \(1 of them cancelled\)|read \d+ reuses the destination of unsettled read \d+)/.test(m),
    );
    expect(caught.length, out.join("\n")).toBeGreaterThanOrEqual(4);
  }, 120_000);

  it("[I2] a request still deferred past its budget plus one engine step is caught at that time", async () => {
    // Every decision turned into DEFER: the request never reaches an outcome.
    const consumer = alteredTsTestee((res) => {
      // (An admit answered FAILED stays as it is: turned ADMITTED without decisions it is a [C1] violation.)
      if (res.admit && res.admit.status === 1) {
        res.admit = { status: 1, items: (res.admit.items ?? []).map((d) => ({ itemId: d.itemId, action: 2 })) };
      }
      return res;
    });
    const [m] = await random(consumer, [1]);
    const g = /\[I2\] r\d+ still deferred at t=(\d+), first admitted at t=(\d+) with a 20000 ms budget/.exec(m ?? "");
    expect(g, m).not.toBeNull();
    // [I2] Flagged at budget + one engine step: still deferred then, its outcome would come a step late.
    expect(Number(g?.[1]) - Number(g?.[2])).toBeLessThanOrEqual(20_000 + 200);
  }, 60_000);

  it("[I4] a consumer table left non-zero after quiescence is caught", async () => {
    const consumer = alteredTsTestee((res) => {
      if (res.stats?.consumer) res.stats.consumer.budgets = 1;
      return res;
    });
    const [m] = await random(consumer, [1]);
    expect(m).toMatch(/^failed seed 1: \[I4\] consumer tables not back to baseline: budgets=1/);
  }, 60_000);

  it("[I3] a producer whose pins differ from its grants while grants are live is caught", async () => {
    const producer = alteredTsTestee((res) => {
      const p = res.stats?.producer;
      if (p && Number(p.grants) > 0) p.pins = Number(p.grants) + 1;
      return res;
    });
    const out = await random(inProcessTsTestee, [1, 2, 3], producer);
    expect(out.some((m) => /^failed seed \d+: \[I3\] producer pins \d+ != grants \d+ at t=\d+/.test(m))).toBe(true);
  }, 60_000);

  it("[C6] a failed request reported again in a later drainFailed is caught", async () => {
    const consumer = alteredTsTestee(
      (() => {
        let last: ectp.conformance.v1.IFailedRequest[] = [];
        return (res: Res) => {
          if (res.drainFailed) {
            const now = res.drainFailed.failed ?? [];
            res.drainFailed.failed = [...now, ...last];
            last = now;
          }
          return res;
        };
      })(),
    );
    const out = await random(consumer);
    expect(out.some((m) => /^failed seed \d+: \[C6\] r\d+ reported failed twice/.test(m))).toBe(true);
  }, 60_000);

  it("[C6] a consumer that never reports its failed requests (drainFailed always empty) is caught", async () => {
    const consumer = alteredTsTestee((res) => {
      if (res.drainFailed) res.drainFailed.failed = [];
      return res;
    });
    const out = await random(consumer);
    expect(out.some((m) => /^failed .*\[C6\]/.test(m))).toBe(true);
  }, 60_000);

  it("[I2] an admit answered ADMITTED with no decisions for its items is caught", async () => {
    const consumer = alteredTsTestee((res) => {
      if (res.admit?.items) res.admit.items = [];
      return res;
    });
    const out = await random(consumer, [1]);
    expect(out[0]).toMatch(/^failed /);
  }, 60_000);
});

describe("transport suite checks", () => {
  const status = async (h: TransportHarness, ...names: string[]) =>
    Object.fromEntries(
      (await runTransportConformance(h, { select: (n) => names.some((x) => n.endsWith(`/${x}`)) })).map((r) => [r.name.split("/")[2], `${r.status} ${r.message ?? ""}`]),
    );

  it("a done read whose bytes differ from the source fails the byte-exact and concurrent cases", async () => {
    const h = brokenTransportHarness({ reader: rewriteReads((r, dest) => {
      const d = dest.get(r.readId);
      if (r.status === "done" && d) {
        const i = d.offset + d.length - 1;
        d.region.bytes[i] = (d.region.bytes[i] ?? 0) ^ 0xff;
      }
      return [r];
    }) });
    const got = await status(h, "byte-exact-reads-at-odd-offsets", "concurrent-reads-settle-once-each");
    expect(got["byte-exact-reads-at-odd-offsets"]).toMatch(/^failed read of 1 bytes at offsets 3 -> 7 is not byte-exact/);
    expect(got["concurrent-reads-settle-once-each"]).toMatch(/^failed read 1 is not byte-exact/);
  }, 60_000);

  it("a wrong bytesRead, or a byte written just outside the destination, fails the byte-exact case", async () => {
    const short = brokenTransportHarness({ reader: rewriteReads((r) => [r.status === "done" ? { ...r, bytesRead: (r.bytesRead ?? 0) + 1 } : r]) });
    expect((await status(short, "byte-exact-reads-at-odd-offsets"))["byte-exact-reads-at-odd-offsets"]).toMatch(/^failed read of 1 bytes reported bytesRead 2/);
    const outside = brokenTransportHarness({ reader: rewriteReads((r, dest) => {
      const d = dest.get(r.readId);
      if (r.status === "done" && d) d.region.bytes[d.offset + d.length] = 1;
      return [r];
    }) });
    expect((await status(outside, "byte-exact-reads-at-odd-offsets"))["byte-exact-reads-at-odd-offsets"]).toMatch(/^failed read of 1 bytes wrote outside its destination/);
  }, 60_000);

  /** A harness whose reader reports every read result a second time two `advance` calls later. */
  const lateDuplicates = () => {
    let steps = 0;
    const later: { due: number; r: core.ReadResult }[] = [];
    return brokenTransportHarness({
      advance: async (inner) => {
        steps++;
        const more = await inner();
        return more || later.length > 0;
      },
      reader: (t) => {
        const poll = t.poll.bind(t);
        t.poll = () => {
          const a = poll();
          const due = later.filter((x) => x.due <= steps);
          for (const x of due) later.splice(later.indexOf(x), 1);
          for (const r of a.reads) later.push({ due: steps + 2, r });
          return { ...a, reads: [...a.reads, ...due.map((x) => x.r)] };
        };
      },
    });
  };

  it("a result reported again two advances later fails the byte-exact and cancel cases", async () => {
    const got = await status(lateDuplicates(), "byte-exact-reads-at-odd-offsets", "cancel-settles-exactly-once");
    expect(got["byte-exact-reads-at-odd-offsets"]).toMatch(/^failed read \d+ settled 2 times/);
    expect(got["cancel-settles-exactly-once"]).toMatch(/^failed a cancelled read of \d+ bytes \(after a late cancel\) settled 2 times/);
  }, 60_000);

  it("close(): a read's result reported again later fails the close case", async () => {
    expect((await status(lateDuplicates(), "close-settles-unsettled-reads"))["close-settles-unsettled-reads"]).toMatch(/^failed .*settled 2 times/);
  }, 60_000);

  it("a read reported failed although its bytes landed fails the concurrent case", async () => {
    const h = brokenTransportHarness({ reader: rewriteReads((r) => [r.readId === 5 ? { ...r, status: "failed" as const } : r]) });
    expect((await status(h, "concurrent-reads-settle-once-each"))["concurrent-reads-settle-once-each"]).toMatch(/^failed read 5 ended failed/);
  }, 60_000);

  it("a read from a peer that killPeer did not kill (it succeeds) fails the gone-peer case", async () => {
    const h = brokenTransportHarness({ killPeer: false });
    expect((await status(h, "read-from-gone-peer-fails"))["read-from-gone-peer-fails"]).toMatch(/^failed a read from a killed peer ended done; failed is required/);
  }, 60_000);

  it("a read that wrote its bytes and is reported cancelled fails the cancel case", async () => {
    const h = brokenTransportHarness({ reader: (t) => {
      const cancelled = new Set<number>();
      t.cancelRead = (id) => void cancelled.add(id); // ignored: the read runs to completion
      const poll = t.poll.bind(t);
      t.poll = () => {
        const a = poll();
        return { ...a, reads: a.reads.map((r) => (cancelled.has(r.readId) ? { readId: r.readId, status: "cancelled" as const } : r)) };
      };
    } });
    expect((await status(h, "cancel-settles-exactly-once"))["cancel-settles-exactly-once"]).toMatch(/reported cancelled but wrote into its destination/);
  }, 60_000);

  it("`cancelled` where `failed` is required fails the deregistration and malformed-location cases", async () => {
    const h = brokenTransportHarness({ reader: rewriteReads((r) => [r.status === "failed" ? { ...r, status: "cancelled" as const } : r]) });
    const got = await status(h, "deregistration-during-read-settles-failed", "malformed-location-fails-read");
    expect(got["deregistration-during-read-settles-failed"]).toMatch(/^failed a read into a region deregistered mid-flight ended cancelled/);
    expect(got["malformed-location-fails-read"]).toMatch(/^failed a read of a malformed location ended cancelled/);
  }, 60_000);

  it("a read settled failed on deregistration that still writes afterwards fails the deregistration case", async () => {
    const h = brokenTransportHarness({ reader: (t) => {
      const dest = new Map<number, core.ReadDestination>();
      const fake = new Set<number>();
      const queued: core.ReadResult[] = [];
      const start = t.startRead.bind(t);
      t.startRead = (op) => {
        dest.set(op.readId, op.destination);
        start(op);
      };
      t.deregisterMemory = (region) => {
        for (const [id, d] of dest) if (d.region === region && !fake.has(id)) {
          fake.add(id);
          queued.push({ readId: id, status: "failed", error: "deregistered" });
        }
      };
      const poll = t.poll.bind(t);
      t.poll = () => {
        const a = poll();
        return { ...a, reads: [...a.reads.filter((r) => !fake.has(r.readId)), ...queued.splice(0)] };
      };
    } });
    expect((await status(h, "deregistration-during-read-settles-failed"))["deregistration-during-read-settles-failed"]).toMatch(/\[I5\] bytes changed in a deregistered destination after its read settled/);
  }, 60_000);

  it("a message delivered twice, under another sender, or sharing the sender's buffer fails the messages case", async () => {
    const twice = brokenTransportHarness({ owner: (t) => {
      const poll = t.poll.bind(t);
      t.poll = () => {
        const a = poll();
        return { ...a, messages: a.messages.flatMap((m) => [m, m]) };
      };
    } });
    expect((await status(twice, "messages-arrive-once-intact-as-copies"))["messages-arrive-once-intact-as-copies"]).toMatch(/^failed one message sent, 2 arrived/);
    const renamed = brokenTransportHarness({ owner: (t) => {
      const poll = t.poll.bind(t);
      t.poll = () => {
        const a = poll();
        return { ...a, messages: a.messages.map((m) => ({ ...m, from: "someone" })) };
      };
    } });
    expect((await status(renamed, "messages-arrive-once-intact-as-copies"))["messages-arrive-once-intact-as-copies"]).toMatch(/arrived as from someone/);
    // send() keeps a reference and puts the bytes on the wire only at the next advance.
    const queue: (() => void)[] = [];
    const lazy = brokenTransportHarness({
      advance: async (inner) => {
        for (const f of queue.splice(0)) f();
        return inner();
      },
      owner: (t) => {
        const send = t.send.bind(t);
        t.send = (peer, bytes) => void queue.push(() => send(peer, bytes));
      },
    });
    expect((await status(lazy, "messages-arrive-once-intact-as-copies"))["messages-arrive-once-intact-as-copies"]).toMatch(/arrived altered/);
  }, 60_000);

  it("connectPeer rejecting with a plain Error (not an EctpError) fails the connect case", async () => {
    const h = brokenTransportHarness({ reader: (t) => {
      t.connectPeer = async () => {
        throw new Error("nope");
      };
    } });
    expect((await status(h, "connect-rejects-unusable-metadata"))["connect-rejects-unusable-metadata"]).toMatch(/^failed connectPeer with unusable metadata must reject with an EctpError; it rejected with Error: nope/);
  }, 60_000);

  it("a level-triggered waitForActivity, or a lost message, fails the wait case", async () => {
    const level = brokenTransportHarness({ owner: (t) => {
      t.waitForActivity = async () => undefined;
    } });
    expect((await status(level, "wait-is-edge-triggered"))["wait-is-edge-triggered"]).toMatch(/^failed \[I1\] 10 of 10 consecutive waitForActivity calls/);
    const lost = brokenTransportHarness({ owner: (t) => {
      const poll = t.poll.bind(t);
      t.poll = () => ({ ...poll(), messages: [] });
    } });
    expect((await status(lost, "wait-is-edge-triggered"))["wait-is-edge-triggered"]).toMatch(/^failed one message sent to the owner, 0 arrived/);
  }, 60_000);

  it("a transport that throws something other than a TransportFailure fails the case", async () => {
    const h = brokenTransportHarness({ reader: (t) => {
      t.startRead = () => {
        throw new TypeError("boom");
      };
    } });
    expect((await status(h, "byte-exact-reads-at-odd-offsets"))["byte-exact-reads-at-odd-offsets"]).toMatch(/^failed transport threw: TypeError: boom/);
  }, 60_000);

  it("[I1] a transport that throws a value that cannot be turned into a string fails the case saying so (the suite goes on)", async () => {
    const h = brokenTransportHarness({ reader: (t) => {
      t.startRead = () => {
        throw Object.create(null);
      };
    } });
    expect((await status(h, "byte-exact-reads-at-odd-offsets"))["byte-exact-reads-at-odd-offsets"]).toBe(
      "failed transport threw: a thrown object that cannot be turned into a string",
    );
  }, 60_000);

  it("close(): a result reported twice at once fails the close case", async () => {
    const h = brokenTransportHarness({ reader: rewriteReads((r) => [r, r]) });
    expect((await status(h, "close-settles-unsettled-reads"))["close-settles-unsettled-reads"]).toMatch(/^failed a read left unsettled by close\(\) settled 2 times/);
  }, 60_000);

  const only = async (h: TransportHarness, name: string) =>
    (await runTransportConformance(h, { select: (n) => n.endsWith(`/${name}`) }))[0];

  it("[I5] a read reported cancelled that then writes into its destination fails the cancel case", async () => {
    const h = brokenTransportHarness({ reader: (reader) => {
      // cancelRead reports `cancelled` at once but leaves the read running: its bytes land later.
      const fake = new Set<number>();
      const queued: core.ReadResult[] = [];
      reader.cancelRead = (id: number) => {
        if (fake.has(id)) return;
        fake.add(id);
        queued.push({ readId: id, status: "cancelled" });
      };
      const poll = reader.poll.bind(reader);
      reader.poll = () => {
        const a = poll();
        return { ...a, reads: [...a.reads.filter((r) => !fake.has(r.readId)), ...queued.splice(0)] };
      };
    } });
    expect(await only(h, "cancel-settles-exactly-once")).toMatchObject({ status: "failed" });
  }, 60_000);

  it("a read from a killed peer that was never cancelled must not report `cancelled`", async () => {
    const h = brokenTransportHarness({ reader: rewriteReads((r) => [r.status === "failed" ? { ...r, status: "cancelled" as const } : r]) });
    expect(await only(h, "read-from-gone-peer-fails")).toMatchObject({ status: "failed" });
  }, 60_000);

  it("close(): a read reported `done` whose bytes never landed fails the close case", async () => {
    const h = brokenTransportHarness({ reader: rewriteReads((r) => [{ ...r, status: "done" as const, bytesRead: 1024 * 1024 }]) });
    expect(await only(h, "close-settles-unsettled-reads")).toMatchObject({ status: "failed" });
  }, 60_000);
});

describe("TS testee adapter", () => {
  const handler = () => {
    const h = new CoreTesteeHandler(TS_CORE);
    const ask = (req: Record<string, unknown>) => h.handle(TesteeRequest.fromObject({ commandId: 1, ...req }));
    ask({ init: { protocolVersion: 1 } });
    return ask;
  };
  const FP = { model: "m", dtype: 1, rowBytes: 8, layoutVersion: 1 };

  it("Stats pass every counter of the core through unchanged (consumer and producer)", () => {
    // destinations 0: the pool holds none, and a count it disagrees with is an Error (testee-ts-adapter-review.test.ts).
    const cStats = { requests: 1, budgets: 2, fetches: 3, readsInFlight: 4, quarantined: 5, grantsHeld: 6, loadedItems: 7, destinations: 0, undrainedFailures: 9, ignoredMessages: 10 };
    const pStats = { grants: 11, pins: 12, pinnedBytes: 13, peers: 14, replayBuffered: 15, eventSequence: 16, ignoredMessages: 17, shuttingDown: true };
    const fake = {
      ...TS_CORE,
      ConsumerCore: class extends core.ConsumerCore {
        override stats() {
          return { ...super.stats(), ...cStats };
        }
      },
      ProducerCore: class extends core.ProducerCore {
        override stats() {
          return { ...super.stats(), ...pStats };
        }
      },
    } as unknown as CoreModule;
    const h = new CoreTesteeHandler(fake);
    const ask = (req: Record<string, unknown>) => h.handle(TesteeRequest.fromObject({ commandId: 1, ...req }));
    ask({ init: { protocolVersion: 1 } });
    ask({ configure: { role: 1, id: "C1", epoch: 1, fingerprint: FP } });
    expect(ask({ getStats: {} }).stats?.consumer).toEqual(cStats);
    ask({ configure: { role: 2, id: "P1", epoch: 5, fingerprint: FP } });
    expect(ask({ getStats: {} }).stats?.producer).toEqual(pStats);
  });

  it("DeliverReadResult hands the core the status, size and peer_gone the runner sent", () => {
    const seen: unknown[] = [];
    const fake = {
      ...TS_CORE,
      ConsumerCore: class extends core.ConsumerCore {
        override handleReadResult(r: core.ReadResult, now: number) {
          seen.push({ ...r });
          return super.handleReadResult(r, now);
        }
      },
    } as unknown as CoreModule;
    const h = new CoreTesteeHandler(fake);
    const ask = (req: Record<string, unknown>) => h.handle(TesteeRequest.fromObject({ commandId: 1, ...req }));
    ask({ init: { protocolVersion: 1 } });
    ask({ configure: { role: 1, id: "C1", epoch: 1, fingerprint: FP } });
    ask({ deliverReadResult: { readId: 1, status: 1, data: [1, 2, 3] } });
    ask({ deliverReadResult: { readId: 2, status: 2, peerGone: true, error: "x" } });
    ask({ deliverReadResult: { readId: 3, status: 3 } });
    expect(seen).toEqual([
      { readId: 1, status: "done", bytesRead: 3 },
      { readId: 2, status: "failed", bytesRead: 0, peerGone: true, error: "x" },
      { readId: 3, status: "cancelled", bytesRead: 0 },
    ]);
  });

  it("Configure passes every timer of the request to the core (consumer and producer), and MarkReady or Discard of an unknown key is an Error", () => {
    const names = ["heartbeatIntervalMs", "heartbeatMisses", "waitBudgetMs", "grantWaitMs", "transferTimeoutMs", "quarantineCapMs", "backoffInitialMs", "backoffMaxMs", "leaseSafetyMarginMs", "maxItemBytes", "leaseMs", "maxPinnedBytesPerConsumer", "maxGrantsPerConsumer", "replayBufferBatches", "retryAfterMs", "maxBatchBytes", "resendIntervalMs"];
    const timers = Object.fromEntries(names.map((n, i) => [n, 1000 + i]));
    const captured: Record<string, unknown>[] = [];
    class Capture {
      constructor(options: Record<string, unknown>) {
        captured.push(options);
      }
    }
    const h = new CoreTesteeHandler({ ...TS_CORE, ConsumerCore: Capture, ProducerCore: Capture } as unknown as CoreModule);
    const ask = (req: Record<string, unknown>) => h.handle(TesteeRequest.fromObject({ commandId: 1, ...req }));
    ask({ init: { protocolVersion: 1 } });
    expect(ask({ configure: { role: 1, id: "C1", epoch: 1, fingerprint: FP, timers } })).toMatchObject({ ok: {} });
    expect(ask({ configure: { role: 2, id: "P1", epoch: 5, fingerprint: FP, timers } })).toMatchObject({ ok: {} });
    expect(captured.map((o) => o.config)).toEqual([timers, timers]);
    const real = handler();
    real({ configure: { role: 2, id: "P1", epoch: 5, fingerprint: FP } });
    expect(real({ markReady: { key: { contentHash: [9], fingerprint: FP } } }).error?.code).toBe("INVALID_ARGUMENT");
    expect(real({ discard: { key: { contentHash: [9], fingerprint: FP } } }).error?.code).toBe("INVALID_ARGUMENT");
  });

  it("ReadMemory returns the bytes put at a location, cut to the length asked; an unknown location is INVALID_ARGUMENT", () => {
    const ask = handler();
    expect(ask({ configure: { role: 2, id: "P1", epoch: 5, fingerprint: FP } })).toMatchObject({ ok: {} });
    const put = ask({ putItem: { descriptor: { key: { contentHash: [1, 2], fingerprint: FP }, sizeBytes: 4 }, data: [1, 2, 3, 4] } });
    const location = put.putItem?.descriptor?.location ?? new Uint8Array(0);
    expect(ask({ readMemory: { location, length: 4 } }).readMemory?.data).toEqual(new Uint8Array([1, 2, 3, 4]));
    expect(ask({ readMemory: { location, length: 2 } }).readMemory?.data).toEqual(new Uint8Array([1, 2]));
    expect(ask({ readMemory: { location: new TextEncoder().encode("mem:99"), length: 4 } }).error?.code).toBe("INVALID_ARGUMENT");
  });

  it("a new Configure forgets the previous instance's memory: its locations are no longer readable", () => {
    const ask = handler();
    ask({ configure: { role: 2, id: "P1", epoch: 5, fingerprint: FP } });
    const put = ask({ putItem: { descriptor: { key: { contentHash: [1, 2], fingerprint: FP }, sizeBytes: 4 }, data: [1, 2, 3, 4] } });
    const location = put.putItem?.descriptor?.location ?? new Uint8Array(0);
    ask({ configure: { role: 2, id: "P1", epoch: 6, fingerprint: FP } });
    expect(ask({ readMemory: { location, length: 4 } }).error?.code).toBe("INVALID_ARGUMENT");
  });

  it("ReadMemory of a location whose item left the store (ClearStore) is refused, as a deregistered region would be", () => {
    const h = new CoreTesteeHandler(TS_CORE);
    const ask = (req: Record<string, unknown>) => h.handle(TesteeRequest.fromObject({ commandId: 1, ...req }));
    ask({ init: { protocolVersion: 1 } });
    const fingerprint = { model: "m", dtype: 1, rowBytes: 8, layoutVersion: 1 };
    expect(ask({ configure: { role: 2, id: "P1", epoch: 5, fingerprint } })).toMatchObject({ ok: {} });
    const put = ask({ putItem: { descriptor: { key: { contentHash: [1, 2], fingerprint }, sizeBytes: 4 }, data: [1, 2, 3, 4] } });
    const location = put.putItem?.descriptor?.location ?? new Uint8Array(0);
    expect(ask({ readMemory: { location, length: 4 } }).readMemory?.data).toEqual(new Uint8Array([1, 2, 3, 4]));
    expect(ask({ clearStore: {} })).toMatchObject({ ok: {} });
    expect(ask({ readMemory: { location, length: 4 } }).error?.code).toBe("INVALID_ARGUMENT");
  });
});

describe("system level checks (a core changed through its prototype)", () => {
  afterEach(() => vi.restoreAllMocks());
  type Admit = ReturnType<core.ConsumerCore["admit"]>;
  /** Wrap ConsumerCore.admit's answers. */
  const onAdmit = (f: (r: Admit, req: Parameters<core.ConsumerCore["admit"]>[0]) => Admit) => {
    const orig = core.ConsumerCore.prototype.admit;
    vi.spyOn(core.ConsumerCore.prototype, "admit").mockImplementation(function (this: core.ConsumerCore, req, now) {
      return f(orig.call(this, req, now), req);
    });
  };
  const messages = async () => (await runSystemLevel(1)).map((r) => `${r.name} ${r.status} ${r.message ?? ""}`);

  it("[I6] loaded bytes that differ from the producer's are caught", async () => {
    onAdmit((r) => {
      if (r.status === "admitted")
        for (const d of r.items)
          if (d.action === "ready" && d.destination) {
            const b = d.destination.region.bytes;
            b[d.destination.offset] = (b[d.destination.offset] ?? 0) ^ 0xff;
          }
      return r;
    });
    expect((await messages()).some((m) => /failed seed 1: \[I6\]/.test(m))).toBe(true);
  }, 60_000);

  it("[C1] local-encode for an item without model input is caught", async () => {
    onAdmit((r) => (r.status === "admitted" ? { ...r, items: r.items.map((d) => ({ itemId: d.itemId, action: "local-encode", reason: "NOT_FOUND" }) as never) } : r));
    expect((await messages()).some((m) => /failed seed 1: \[C1\]/.test(m))).toBe(true);
  }, 60_000);

  it("[I2] a request deferred past its budget is caught", async () => {
    onAdmit((r) => (r.status === "admitted" ? { ...r, items: r.items.map((d) => ({ itemId: d.itemId, action: "defer" }) as never) } : r));
    expect((await messages()).some((m) => /failed seed 1: \[I2\] r\d+ still deferred/.test(m))).toBe(true);
  }, 60_000);

  it("[I6] a remote item ready without the destination its bytes were loaded into is caught", async () => {
    onAdmit((_r, req) => ({ status: "admitted", items: req.items.map((i) => ({ itemId: i.itemId, action: "ready" })) }) as never);
    const m = await messages();
    expect(m[0]).toMatch(/^system\/producer-killed-mid-transfer-then-restarted failed seed 1: \[I6\] r1\/i1 is ready without the destination/);
  }, 60_000);

  it("[P8] a request that fails after its producer died, but not because it died, is caught", async () => {
    // The failure the kill causes (PEER_UNREACHABLE) turned into the stall's TRANSFER_TIMEOUT: the kill made no difference.
    onAdmit((r, req) =>
      req.requestId === "r1" && r.status === "failed"
        ? ({ status: "failed", failures: r.failures.map((f) => ({ ...f, reason: "TRANSFER_TIMEOUT" })) } as never)
        : r,
    );
    const m = await messages();
    expect(m[0]).toMatch(/^system\/producer-killed-mid-transfer-then-restarted failed seed 1: r1 should fail PEER_UNREACHABLE after the producer died/);
  }, 60_000);

  it("a request that should load from the restarted producer but fails is caught", async () => {
    onAdmit((r, req) => (req.requestId === "r2" ? ({ status: "failed", failures: req.items.map((i) => ({ itemId: i.itemId, reason: "NOT_FOUND", attempts: 1 })) } as never) : r));
    const m = await messages();
    expect(m[0]).toMatch(/^system\/producer-killed-mid-transfer-then-restarted failed seed 1: r2 should load from the restarted producer/);
  }, 60_000);

  it("[I4] consumer state left after quiescence, and [I3] producer pins (during and after), are caught", async () => {
    const cs = core.ConsumerCore.prototype.stats;
    vi.spyOn(core.ConsumerCore.prototype, "stats").mockImplementation(function (this: core.ConsumerCore) {
      return { ...cs.call(this), budgets: 1 };
    });
    expect((await messages()).every((m) => /failed seed 1: \[I4\] consumer not back to baseline: budgets=1/.test(m))).toBe(true);
    vi.restoreAllMocks();
    const ps = core.ProducerCore.prototype.stats;
    const spy = vi.spyOn(core.ProducerCore.prototype, "stats");
    spy.mockImplementation(function (this: core.ProducerCore) {
      const s = ps.call(this);
      return { ...s, pins: s.pins + 1, grants: s.grants + 1 };
    });
    expect((await messages()).some((m) => /failed seed 1: \[I3\] producer still pins \d+ with \d+ grants/.test(m))).toBe(true);
    spy.mockImplementation(function (this: core.ProducerCore) {
      const s = ps.call(this);
      return s.grants > 0 ? { ...s, pins: s.pins + 1 } : s;
    });
    expect((await messages()).some((m) => /failed seed 1: \[I3\] producer pins \d+ != grants \d+ at t=/.test(m))).toBe(true);
  }, 60_000);

  it("[I5] a destination released while its read may still write, and one never released, are caught", async () => {
    // The first case's read stalls for 30 s: a core that hands its destination back to the pool
    // 100 ms into it (and again when the read settles) frees memory a transfer may still write.
    type WithPool = { pool: { release(d: core.ReadDestination): void } };
    const poll = core.ConsumerCore.prototype.poll;
    let started: { destination: core.ReadDestination; at: number } | undefined;
    let freed = false;
    vi.spyOn(core.ConsumerCore.prototype, "poll").mockImplementation(function (this: core.ConsumerCore, now) {
      const out = poll.call(this, now);
      for (const o of out) if (o.type === "start-read" && started === undefined) started = { destination: o.destination, at: now };
      if (started !== undefined && !freed && now >= started.at + 100) {
        freed = true;
        (this as unknown as WithPool).pool.release(started.destination);
      }
      return out;
    });
    const m = await messages();
    expect(m[0]).toMatch(/^system\/producer-killed-mid-transfer-then-restarted failed seed 1: \[I5\] the destination at offset 0 \(200000 bytes\) was released at t=\d+(\.\d+)?, \d+(\.\d+)? ms into a read that could still write into it \(quarantine cap 8000 ms\)/);
    vi.restoreAllMocks();
    // A core that never gives loaded destinations back (its own counts say it did).
    type Counted = { destinationCount: number; releaseDest(d: core.ReadDestination): void };
    vi.spyOn(core.ConsumerCore.prototype as unknown as Counted, "releaseDest").mockImplementation(function (this: Counted) {
      this.destinationCount--;
    });
    const leak = await messages();
    expect(leak.some((x) => /failed seed 1: \[I4\] \d+ destination\(s\) still allocated after quiescence/.test(x))).toBe(true);
  }, 60_000);

  it("[C6] a request reported failed twice is caught", async () => {
    const orig = core.ConsumerCore.prototype.drainFailed;
    vi.spyOn(core.ConsumerCore.prototype, "drainFailed").mockImplementation(function (this: core.ConsumerCore) {
      const r = orig.call(this);
      return [...r, ...r, { requestId: "r0", failures: [] }, { requestId: "r0", failures: [] }];
    });
    expect((await messages()).some((m) => /failed seed 1: \[C6\] r\d+ reported failed twice/.test(m))).toBe(true);
  }, 60_000);

  it("[C6] a request reported failed again in a later drain, or never, is caught", async () => {
    const orig = core.ConsumerCore.prototype.drainFailed;
    const seen: core.FailedRequest[] = [];
    const spy = vi.spyOn(core.ConsumerCore.prototype, "drainFailed").mockImplementation(function (this: core.ConsumerCore) {
      const r = orig.call(this);
      seen.push(...r);
      return [...r, ...seen.slice(0, seen.length - r.length)]; // every earlier report again
    });
    expect((await messages()).some((m) => /failed seed 1: \[C6\] r\d+ reported failed twice/.test(m))).toBe(true);
    spy.mockImplementation(() => []);
    expect((await messages()).some((m) => /failed seed 1: \[C6\] r\d+ failed but never reported by drainFailed/.test(m))).toBe(true);
  }, 60_000);
});

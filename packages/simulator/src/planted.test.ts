/**
 * The invariant checker must catch the failures of docs/failures.md when a core has them.
 * Each test plants one bug through the simulator's factories and asserts the violation.
 */
import { ConsumerCore, type CoreOutput, type ItemStore, ProducerCore, type ReadDestination } from "@ectp/core";
import { SPEC_VERSION, decodeEnvelope, ectp, tryItemKeyId } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { type CoreFactories, type InvariantId, type SimulationOptions, faultPreset, formatSummary, runSimulation } from "./index.js";

const BASE: SimulationOptions = {
  producers: 2,
  consumers: 2,
  concurrency: 16,
  requests: 60,
  timeSeries: false,
  maxDrainMs: 70_000,
};

async function violations(factories: CoreFactories, extra: SimulationOptions = {}) {
  const { summary } = await runSimulation({ ...BASE, ...extra, factories });
  return summary;
}

/** `inner` with its pin and unpin replaced (a planted store bug); everything else passes through. */
function withPins(inner: ItemStore, pins: Pick<ItemStore, "pin" | "unpin">): ItemStore {
  return {
    get: (k) => inner.get(k),
    readyItems: () => inner.readyItems(),
    totalPins: () => inner.totalPins(),
    subscribe: (l) => inner.subscribe(l),
    ...pins,
  };
}

function has(s: { violations: { byInvariant: Record<InvariantId, number> } }, id: InvariantId): boolean {
  return s.violations.byInvariant[id] > 0;
}

/** A consumer and an item, as one map key. */
const keyOf = (keyId: string, consumer: string) => `${consumer}\u0000${keyId}`;

/** Added to a copied ReadRequest's attempt id by {@link staleTakenAsCurrent}'s consumers (and some of {@link olderEpochFirst}'s): newer than any they use. */
const STALE_ATTEMPT_OFFSET = 2 ** 20;

describe("planted bugs are reported", () => {
  it("[I6] a consumer that calls an item ready without reading it (no destination, not local)", async () => {
    const s = await violations({
      consumer: (options) => {
        const core = new ConsumerCore(options);
        const admit = core.admit.bind(core);
        core.admit = (req, now) =>
          req.requestId === "r5" ? { status: "admitted", items: req.items.map((i) => ({ action: "ready", itemId: i.itemId })) } : admit(req, now);
        return core;
      },
    });
    expect(s.violations.byInvariant.I6).toBeGreaterThan(0);
    expect(s.violations.first.map((v) => v.message)).toContainEqual(expect.stringMatching(/^r5\/.*: ready without a destination/));
  });

  it("[I2] a request that never reaches an outcome is counted as lost at the end of the drain, not only left out of the total", async () => {
    // r5 is deferred for good; every other request runs as usual.
    const neverDecidesR5: CoreFactories = {
      consumer: (options) => {
        const core = new ConsumerCore(options);
        const admit = core.admit.bind(core);
        core.admit = (req, now) => (req.requestId === "r5" ? { status: "admitted", items: req.items.map((i) => ({ action: "defer", itemId: i.itemId })) } : admit(req, now));
        return core;
      },
    };
    const s = await violations(neverDecidesR5, { maxDrainMs: 5_000, budgetMs: 2_000 });
    expect(s.violations.first.map((v) => v.message)).toContainEqual("60 requests to run, 60 arrived and 59 reached an outcome by the end of the drain");
    expect(s.requests.total).toBe(59);
    // The table names the workload asked for, and how much of it reached an outcome.
    expect(formatSummary(s)).toMatch(/workload +\d+ producers, \d+ consumers, concurrency \d+, 60 requests \(59 reached an outcome\)\n/);
    // One slot only: the stuck request keeps every later one from arriving, and the run still ends.
    const single = await violations(neverDecidesR5, { maxDrainMs: 5_000, budgetMs: 2_000, concurrency: 1 });
    expect(single.violations.first.map((v) => v.message)).toContainEqual("60 requests to run, 6 arrived and 5 reached an outcome by the end of the drain");
  });

  it("a legitimately slow run (2-minute encodes under heavy faults) is not cut short by the lost-request bound", async () => {
    const { summary } = await runSimulation({ requests: 100, faults: "heavy", encodeTimeMs: 120_000, seed: 1, timeSeries: false });
    expect(summary.violations.count).toBe(0);
    expect(summary.requests.total).toBe(100);
  }, 120_000);

  it("[I2] the lost-request bound covers the local encodes of each of a request's items and a consumer's restart: runs slow for those reasons are not cut short", async () => {
    const one = { producers: 1, consumers: 1, concurrency: 1, timeSeries: false } as const;
    // Every read fails: each request of 4 items waits for the producer's encodes, then encodes all 4 itself, 2 minutes each.
    const local = (
      await runSimulation({
        ...one,
        requests: 3,
        minItemsPerRequest: 4,
        maxItemsPerRequest: 4,
        itemReuse: 0,
        metadataOnlyFraction: 0,
        encodeTimeMs: 120_000,
        faults: { ...faultPreset("none"), readFail: 1 },
      })
    ).summary;
    expect(local.faultsInjected.failRead).toBeGreaterThan(0);
    expect(local.violations.count).toBe(0);
    expect(local.requests.fellBackLocal).toBe(3); // each request ended by encoding its items itself
    // The only consumer restarts 5 minutes after a crash: a request that arrives meanwhile is held for
    // the restart, and none arrives or ends until then.
    let held = 0;
    const restart = (
      await runSimulation({
        ...one,
        requests: 20,
        faults: { ...faultPreset("none"), consumerCrashesPerMinute: 30, restartDelayMs: 300_000 },
        eventLog: (line) => {
          if (/ held r\d+$/.test(line)) held++;
        },
      })
    ).summary;
    expect(held).toBeGreaterThan(0); // the path: a request held for the restart
    expect(restart.violations.count).toBe(0);
    expect(restart.crashEffects.consumerRestarts).toBeGreaterThan(0);
    expect(restart.requests.total).toBe(20);
  });

  it("[I2] a request decided one and a half engine steps after its budget ran out is late (the limit is budget + one step)", async () => {
    const budgetMs = 2000;
    const stepMs = 10;
    const late = (steps: number) =>
      violations(
        {
          consumer: (options) => {
            const core = new ConsumerCore(options);
            const admit = core.admit.bind(core);
            let first: number | undefined;
            core.admit = (req, now) => {
              if (req.requestId !== "r5") return admit(req, now);
              first ??= now;
              if (now - first < budgetMs + steps * stepMs) return { status: "admitted", items: req.items.map((i) => ({ action: "defer", itemId: i.itemId })) };
              // Decided at once (every request carries model input here): the outcome's time is the hold's.
              return { status: "admitted", items: req.items.map((i) => ({ action: "local-encode", itemId: i.itemId })) };
            };
            return core;
          },
        },
        { budgetMs, stepMs, faults: "none", metadataOnlyFraction: 0 },
      );
    expect((await late(1)).violations.byInvariant.I2).toBe(0);
    expect((await late(1.5)).violations.byInvariant.I2).toBe(1);
  });

  it("[I3] background #6: a store whose pins collapse per item (a set, not a count)", async () => {
    const collapsing = (inner: ItemStore): ItemStore => {
      const pinned = new Set<string>();
      return withPins(inner, {
        pin: (k) => {
          if (pinned.has(k)) return; // the bug: a second grant of the same item adds no pin
          pinned.add(k);
          inner.pin(k);
        },
        unpin: (k) => {
          if (!pinned.delete(k)) return;
          inner.unpin(k);
        },
      });
    };
    // Many requests for the same few items so grants of one item overlap.
    const s = await violations({ store: collapsing }, { itemReuse: 0.9, concurrency: 32 });
    expect(has(s, "I3")).toBe(true);
    expect(s.violations.first[0]?.message).toMatch(/pins in the store/);
  });

  it("[I3] background #8: a producer whose announcements pin", async () => {
    const s = await violations({
      producer: (options) => {
        const core = new ProducerCore(options);
        const announce = core.announce.bind(core);
        core.announce = (keyId: string) => {
          const entry = options.store.get(keyId);
          if (entry?.ready) options.store.pin(keyId); // the bug: announcing pins
          return announce(keyId);
        };
        return core;
      },
    });
    expect(has(s, "I3")).toBe(true);
  });

  it("[I3][P2] a producer that ignores ACKs (its grants end by their leases; its own count of grants agrees with its pins)", async () => {
    const s = await violations({
      producer: (options) => {
        const core = new ProducerCore(options);
        const handleMessage = core.handleMessage.bind(core);
        core.handleMessage = (from, bytes, now) => {
          const d = decodeEnvelope(bytes);
          if (d.ok && d.value.readComplete) return; // the bug: the ACK releases nothing
          handleMessage(from, bytes, now);
        };
        return core;
      },
    });
    expect(has(s, "I3")).toBe(true);
    expect(s.violations.first[0]?.message).toMatch(/holds \d+ pins, but only \d+ of its grants are live on the wire/);
  });

  it("[I1] a producer sending a grant whose fields cannot be read is reported, and the run goes on (the grant ledger reads it first)", async () => {
    const s = await violations({
      producer: (options) => {
        const core = new ProducerCore(options);
        const poll = core.poll.bind(core);
        core.poll = (now) =>
          poll(now).map((o) => {
            if (o.type !== "send" || !o.envelope.readGrant) return o;
            // The bug: a hostile object where the grant should be.
            const readGrant = Object.defineProperty({}, "item", { get: () => { throw new Error("unreadable"); } });
            return { ...o, envelope: { ...o.envelope, readGrant } };
          });
        return core;
      },
    });
    expect(has(s, "I1")).toBe(true);
    expect(s.violations.first[0]?.message).toMatch(/produced an envelope that cannot be encoded/);
  });

  it("[I3][P2] a store that pins another item than the one granted (the totals still agree)", async () => {
    const misplacing = (inner: ItemStore): ItemStore => {
      let previous: string | undefined;
      const placed = new Map<string, string[]>(); // granted key -> the keys actually pinned for it
      return withPins(inner, {
        pin: (k) => {
          // The bug: the pin lands on the previously granted item (still held in the store).
          const target = previous !== undefined && inner.get(previous) !== undefined ? previous : k;
          previous = k;
          inner.pin(target);
          placed.set(k, [...(placed.get(k) ?? []), target]);
        },
        unpin: (k) => {
          const targets = placed.get(k) ?? [];
          const target = targets.shift() ?? k;
          if (targets.length === 0) placed.delete(k);
          inner.unpin(target);
        },
      });
    };
    const s = await violations({ store: misplacing });
    expect(has(s, "I3")).toBe(true);
    expect(s.violations.first[0]?.message).toMatch(/was just granted to 1 consumer\(s\) \(c\d\), but holds 0 pins/);
  });

  it("[I1] background #1: a consumer that 'falls back' on metadata-only requests instead of failing them", async () => {
    const s = await violations(
      {
        consumer: (options) => {
          const core = new ConsumerCore(options);
          const admit = core.admit.bind(core);
          core.admit = (req, now) => {
            const r = admit(req, now);
            if (r.status !== "failed") return r;
            // the bug: every failure becomes a local encode, model input or not
            return { status: "admitted", items: req.items.map((i) => ({ action: "local-encode", itemId: i.itemId })) };
          };
          core.drainFailed = () => [];
          return core;
        },
      },
      { faults: "heavy", metadataOnlyFraction: 1 },
    );
    expect(has(s, "I1")).toBe(true);
    expect(s.violations.first.find((v) => v.invariant === "I1")?.message).toMatch(/without model input/);
    expect(s.reproduce).toContain("--metadata-only-fraction 1");
  });

  it("[I2] a consumer that reports a failed request twice [C6]", async () => {
    const s = await violations(
      {
        consumer: (options) => {
          const core = new ConsumerCore(options);
          const drain = core.drainFailed.bind(core);
          core.drainFailed = () => {
            const out = drain();
            return [...out, ...out]; // the bug: not drain-once
          };
          return core;
        },
      },
      { faults: "heavy", metadataOnlyFraction: 1 },
    );
    expect(has(s, "I2")).toBe(true);
  });

  it("[I2] a consumer that keeps a request waiting far past its wait budget [C3]", async () => {
    const budgetMs = 2_000;
    const s = await violations(
      {
        consumer: (options) => {
          const core = new ConsumerCore(options);
          const admit = core.admit.bind(core);
          let firstSeen: number | undefined;
          core.admit = (req, now) => {
            // the bug: request r5 is deferred for three budgets before the core gets to decide
            if (req.requestId === "r5") {
              firstSeen ??= now;
              if (now - firstSeen < 3 * budgetMs)
                return { status: "admitted", items: req.items.map((i) => ({ action: "defer", itemId: i.itemId })) };
            }
            return admit(req, now);
          };
          return core;
        },
      },
      { budgetMs },
    );
    expect(s.violations.byInvariant).toMatchObject({ I1: 0, I2: 1, I3: 0, I4: 0, I5: 0, I6: 0, P1: 0, P3: 0 });
    expect(s.violations.first[0]?.message).toMatch(/^r5 has no outcome \d+ ms after its first admission/);
  });

  it("[I4] a consumer whose finishRequest frees nothing leaks per-request state", async () => {
    const s = await violations({
      consumer: (options) => {
        const core = new ConsumerCore(options);
        core.finishRequest = () => {};
        return core;
      },
    });
    expect(has(s, "I4")).toBe(true);
  });

  it("[I5] one destination freed while its read is in flight is one violation (the pool's), not two with the network's report of it", async () => {
    let frees = 0;
    const s = await violations(
      {
        consumer: (options) => {
          const core = new ConsumerCore(options);
          const poll = core.poll.bind(core);
          let started: import("@ectp/core").ReadDestination[] = [];
          core.poll = (now) => {
            const first = started[0];
            if (frees === 0 && first !== undefined) {
              frees++;
              options.destinations.release(first); // the bug, once
            }
            const outs = poll(now);
            const reads = outs.flatMap((o) => (o.type === "start-read" ? [o.destination] : []));
            if (reads.length > 0) started = reads;
            return outs;
          };
          return core;
        },
      },
      { producers: 2, consumers: 1, concurrency: 4, requests: 10, timeSeries: false, maxDrainMs: 70_000, linkBytesPerSecond: 1e6 },
    );
    expect(frees).toBe(1);
    const early = s.violations.first.filter((v) => v.invariant === "I5" && !v.message.includes("twice"));
    expect(early.map((v) => v.message)).toEqual([expect.stringMatching(/released destination region \d+ while a read may still write into it/)]);
  });

  it("[I5] a consumer that frees a destination while its read is in flight", async () => {
    const s = await violations({
      consumer: (options) => {
        const core = new ConsumerCore(options);
        const poll = core.poll.bind(core);
        let started: import("@ectp/core").ReadDestination[] = [];
        core.poll = (now) => {
          // the bug: destinations of reads started in the previous poll are freed while in flight
          for (const d of started) options.destinations.release(d);
          const outs = poll(now);
          started = outs.flatMap((o) => (o.type === "start-read" ? [o.destination] : []));
          return outs;
        };
        return core;
      },
    });
    expect(has(s, "I5")).toBe(true);
    expect(s.violations.first.find((v) => v.invariant === "I5")?.message).toMatch(/may still write/);
  });

  it("[I6] a consumer whose loaded bytes differ from the producer's (destination scribbled after the check)", async () => {
    const s = await violations({
      consumer: (options) => {
        const core = new ConsumerCore(options);
        const admit = core.admit.bind(core);
        core.admit = (req, now) => {
          const r = admit(req, now);
          if (r.status === "admitted")
            for (const d of r.items)
              if (d.action === "ready" && d.destination) {
                const view = options.destinations.view(d.destination);
                if (view && view.length > 0) view[0] = (view[0] as number) ^ 0xff; // the bug
              }
          return r;
        };
        return core;
      },
    });
    expect(has(s, "I6")).toBe(true);
  });

  it("[I2] a consumer whose decisions name the same item twice (one item gets two outcomes, another none)", async () => {
    // The bytes of each decision stay right, so the [I6] byte check alone sees nothing: only the ids are wrong.
    let planted: string | undefined;
    const s = await violations({
      consumer: (options) => {
        const core = new ConsumerCore(options);
        const admit = core.admit.bind(core);
        core.admit = (req, now) => {
          const r = admit(req, now);
          if (planted !== undefined && planted !== req.requestId) return r;
          if (r.status !== "admitted" || r.items.length < 2 || r.items.some((d) => d.action === "defer")) return r;
          planted = req.requestId;
          const first = r.items[0]?.itemId as string;
          return { ...r, items: r.items.map((d) => ({ ...d, itemId: first })) }; // the bug
        };
        return core;
      },
    });
    expect(planted).toBeDefined();
    expect(s.violations.count).toBeGreaterThan(0);
    expect(s.violations.first[0]?.invariant).toBe("I2");
    expect(s.violations.first[0]?.message).toMatch(new RegExp(`^${planted}: decision 1 names item i0`));
  });

  it("[I2][C6] a failure report naming an item the request does not have", async () => {
    let planted: string | undefined;
    const s = await violations({
      consumer: (options) => {
        const core = new ConsumerCore(options);
        const drain = core.drainFailed.bind(core);
        core.drainFailed = () =>
          drain().map((f) => {
            if (planted !== undefined || f.failures.length === 0) return f;
            planted = f.requestId;
            return { ...f, failures: f.failures.map((it) => ({ ...it, itemId: "not-an-item" })) }; // the bug
          });
        return core;
      },
    }, { faults: "heavy", metadataOnlyFraction: 1 }); // requests without model input: some fail
    expect(planted).toBeDefined();
    expect(s.violations.first.some((v) => v.invariant === "I2" && v.message.startsWith(`${planted}: the failure report names item not-an-item`))).toBe(true);
  });
});

describe("planted consumers that break [I2] through their own outputs", () => {
  // SPEC [C6]: "A failed request is reported exactly once, through a drain-once call that returns every
  // failed request not returned before, each with a reason per failed item"; [C5]: "each such item is
  // encoded locally if its request has model input for it ... otherwise its request fails"; the drain's
  // own [I2] check: "<request>/<item> failed (<reason>) although the request carries model input".
  it("[I2][C6] a consumer that fails requests carrying model input and reports the failures with no failed item", async () => {
    let emptied = 0;
    const { summary: s } = await runSimulation({
      ...BASE,
      faults: "heavy",
      requests: 120,
      factories: {
        consumer: (options) => {
          const core = new ConsumerCore(options);
          const admit = core.admit.bind(core);
          const drain = core.drainFailed.bind(core);
          // The bug: the model input is ignored (the request fails instead of falling back) ...
          core.admit = (req, now) => admit({ ...req, items: req.items.map((i) => ({ ...i, hasModelInput: false })) }, now);
          // ... and the failure report names no item.
          core.drainFailed = () =>
            drain().map((f) => {
              emptied++;
              return { ...f, failures: [] };
            });
          return core;
        },
      },
    });
    expect(emptied).toBeGreaterThan(0);
    expect(s.requests.failed).toBeGreaterThan(0);
    expect(s.violations.byInvariant.I2).toBeGreaterThan(0);
  });

  // SPEC [I2]: "Every admitted request reaches exactly one outcome per item (loaded, or local-encoded)
  // or is reported failed exactly once".
  it("[I2] a consumer whose admission decides an item with an action that is neither ready nor local-encode", async () => {
    let planted: string | undefined;
    const { summary: s } = await runSimulation({
      ...BASE,
      factories: {
        consumer: (options) => {
          const core = new ConsumerCore(options);
          const admit = core.admit.bind(core);
          core.admit = (req, now) => {
            const r = admit(req, now);
            if (planted !== undefined || r.status !== "admitted" || r.items.some((d) => d.action === "defer")) return r;
            planted = req.requestId;
            // The bug (a JavaScript core breaking its type): the item gets no outcome at all.
            return { ...r, items: r.items.map((d) => ({ ...d, action: "skip" as "ready" })) };
          };
          return core;
        },
      },
    });
    expect(planted).toBeDefined();
    expect(s.violations.byInvariant.I2).toBeGreaterThan(0);
  });
});

describe("planted consumers that give a loaded item's destination back while the engine still uses it [C6][I6]", () => {
  // SPEC [C6]: a loaded item's destination stays held until the engine finishes the request: the
  // engine prefills from those bytes, and a released destination may be recycled under it.

  /** A consumer whose pool releases each destination handed to `freeEarly` at once, and ignores the core's own later release of it. */
  function earlyFreeing(options: ConstructorParameters<typeof ConsumerCore>[0]) {
    const pool = options.destinations;
    const early = new Set<object>();
    const core = new ConsumerCore({
      ...options,
      destinations: {
        allocate: (keyId, size) => pool.allocate(keyId, size),
        view: (d) => pool.view(d),
        release: (d: ReadDestination) => {
          if (!early.delete(d.region)) pool.release(d);
        },
      },
    });
    const freeEarly = (d: ReadDestination): boolean => {
      if (early.has(d.region)) return false;
      early.add(d.region);
      pool.release(d);
      return true;
    };
    return { core, freeEarly };
  }

  it("[I6] one that frees a loaded destination inside admit, as it tells the engine the item is ready", async () => {
    let freed = 0;
    const s = await violations({
      consumer: (options) => {
        const { core, freeEarly } = earlyFreeing(options);
        const admit = core.admit.bind(core);
        core.admit = (req, now) => {
          const r = admit(req, now);
          if (r.status === "admitted" && r.items.every((d) => d.action !== "defer"))
            for (const d of r.items) if (d.action === "ready" && d.destination !== undefined && freeEarly(d.destination)) freed++;
          return r;
        };
        return core;
      },
    });
    expect(freed).toBeGreaterThan(0);
    expect(s.violations.first.map((v) => v.message)).toContainEqual(expect.stringMatching(/ready with destination region \d+, which is not allocated/));
  });

  it("[I6] one that frees a loaded destination at its next poll, while the request is in service", async () => {
    let freed = 0;
    const s = await violations({
      consumer: (options) => {
        const { core, freeEarly } = earlyFreeing(options);
        let due: ReadDestination[] = [];
        const admit = core.admit.bind(core);
        core.admit = (req, now) => {
          const r = admit(req, now);
          if (r.status === "admitted" && r.items.every((d) => d.action !== "defer"))
            for (const d of r.items) if (d.action === "ready" && d.destination !== undefined) due.push(d.destination);
          return r;
        };
        const finish = core.finishRequest.bind(core);
        core.finishRequest = (id, now) => {
          due = []; // finished before the next poll: nothing to free early
          finish(id, now);
        };
        const poll = core.poll.bind(core);
        core.poll = (now) => {
          for (const d of due) if (freeEarly(d)) freed++;
          due = [];
          return poll(now);
        };
        return core;
      },
    });
    expect(freed).toBeGreaterThan(0);
    expect(s.violations.byInvariant).toMatchObject({ I1: 0, I2: 0, I3: 0, I4: 0, I5: 0 });
    expect(s.violations.first[0]?.message).toMatch(/released destination region \d+ while the engine still uses its loaded bytes/);
  });
});

describe("planted producers that stop answering ReadRequests [I1]", () => {
  /** Producers that drop (never answer) the ReadRequests `drop` picks, counting them. */
  function dropping(drop: (env: ectp.v1.IEnvelope, now: number) => boolean): { factories: CoreFactories; dropped: () => number } {
    let dropped = 0;
    const factories: CoreFactories = {
      producer: (options) => {
        const core = new ProducerCore(options);
        const handleEnvelope = core.handleEnvelope.bind(core);
        const handleMessage = core.handleMessage.bind(core);
        const drops = (env: ectp.v1.IEnvelope, now: number) => env.readRequest != null && drop(env, now) && ++dropped > 0;
        core.handleEnvelope = (from, env, now) => {
          if (!drops(env, now)) handleEnvelope(from, env, now);
        };
        core.handleMessage = (from, bytes, now) => {
          const d = decodeEnvelope(bytes);
          if (!(d.ok && drops(d.value, now))) handleMessage(from, bytes, now);
        };
        return core;
      },
    };
    return { factories, dropped: () => dropped };
  }

  it("[I1] a producer that stops serving (every ReadRequest after 2 s goes unanswered; consumers fall back within their budgets)", async () => {
    const { factories, dropped } = dropping((_env, now) => now > 2_000);
    const s = await violations(factories, { faults: "none" });
    expect(dropped()).toBeGreaterThan(0);
    expect(s.violations.byInvariant).toEqual({ I1: dropped(), I2: 0, I3: 0, I4: 0, I5: 0, I6: 0, P1: 0, P3: 0 });
    expect(s.violations.first[0]?.message).toMatch(
      /^p\d left c\d's ReadRequest \(attempt \d+, item \S+\) unanswered: .*\[I1\]$/,
    );
  });

  it("[I1] one ReadRequest in ten dropped, under duplicated and reordered messages (duplicates and stale attempts owe no answer)", async () => {
    let n = 0;
    const { factories, dropped } = dropping(() => ++n % 10 === 0);
    const faults = { ...faultPreset("none"), messageDuplicate: 0.3, messageReorder: 0.3 };
    const s = await violations(factories, { faults });
    expect(dropped()).toBeGreaterThan(0);
    expect(s.violations.byInvariant.I1).toBeGreaterThan(0);
    expect(s.violations.byInvariant.I1).toBeLessThanOrEqual(dropped());
    // The same faults with a producer that answers every ReadRequest it owes an answer: no violation.
    expect((await violations({}, { faults })).violations.count).toBe(0);
  });

  it("[I1] a producer that holds its NOT_FOUND answers back to its next poll leaves the ReadRequests unanswered when they are handed over", async () => {
    let held = 0;
    const s = await violations(
      {
        producer: (options) => {
          const core = new ProducerCore(options);
          const poll = core.poll.bind(core);
          const nextDeadline = core.nextDeadline.bind(core);
          let later: ReturnType<typeof poll> = [];
          core.poll = (now) => {
            const out = later;
            later = [];
            for (const o of poll(now)) {
              const r = o.type === "send" ? o.envelope.readReject : undefined;
              if (o.type === "send" && r != null && r.reason === ectp.v1.FailureReason.FAILURE_REASON_NOT_READY) {
                held++; // the bug: "not ready" answered as "missing", one poll late
                later.push({ ...o, envelope: { ...o.envelope, readReject: { ...r, reason: ectp.v1.FailureReason.FAILURE_REASON_NOT_FOUND, retryable: false, retryAfterMs: 0 } } });
              } else out.push(o);
            }
            return out;
          };
          core.nextDeadline = () => (later.length > 0 ? 0 : nextDeadline());
          return core;
        },
      },
      { faults: { ...faultPreset("none"), earlyAnnouncement: 0.5 } },
    );
    expect(held).toBeGreaterThan(0);
    expect(s.violations.byInvariant.I1).toBe(held);
  });

  it("[I1][P3] a producer that takes a ReadRequest as a duplicate or stale against a grant already ACKed leaves it unanswered, and is caught", async () => {
    // SPEC 4.3: a ReadRequest is a duplicate or stale only against a *live* grant of that consumer
    // and item; once the grant's ReadComplete has reached the producer it is no longer live [P2], and
    // a late copy of its request (duplicated, held back by the network) is owed a ReadGrant or ReadReject.
    let dropped = 0;
    const factories: CoreFactories = {
      producer: (options) => {
        const core = new ProducerCore(options);
        /** Grants sent, by id: their holder, the attempt they answer, whether the holder's ACK came. */
        const grants = new Map<number, { holder: string; attemptId: number; acked: boolean }>();
        /** Per consumer and item, the id of the last grant sent to them. */
        const last = new Map<string, number>();
        const handleEnvelope = core.handleEnvelope.bind(core);
        const handleMessage = core.handleMessage.bind(core);
        const poll = core.poll.bind(core);
        const drops = (from: string, env: ectp.v1.IEnvelope): boolean => {
          const rc = env.readComplete;
          const acked = rc == null ? undefined : grants.get(Number(rc.grantId));
          if (acked !== undefined && acked.holder === from) acked.acked = true;
          const rr = env.readRequest;
          if (rr == null) return false;
          const g = grants.get(last.get(`${from}\u0000${tryItemKeyId(rr.key)}`) ?? 0);
          // The bug: an ACKed grant still makes its attempt, and older ones, go unanswered.
          if (g === undefined || !g.acked || Number(rr.attemptId) > g.attemptId) return false;
          dropped++;
          return true;
        };
        core.handleEnvelope = (from, env, now) => {
          if (!drops(from, env)) handleEnvelope(from, env, now);
        };
        core.handleMessage = (from, bytes, now) => {
          const d = decodeEnvelope(bytes);
          if (!(d.ok && drops(from, d.value))) handleMessage(from, bytes, now);
        };
        core.poll = (now) => {
          const outs = poll(now);
          for (const o of outs) {
            const g = o.type === "send" ? o.envelope.readGrant : undefined;
            if (o.type !== "send" || g == null || grants.has(Number(g.grantId))) continue;
            grants.set(Number(g.grantId), { holder: o.peerId, attemptId: Number(g.attemptId), acked: false });
            last.set(`${o.peerId}\u0000${tryItemKeyId(g.item?.key)}`, Number(g.grantId));
          }
          return outs;
        };
        return core;
      },
    };
    // Copies of a ReadRequest held back by the network (up to 50 ms) reach the producer after the
    // ACK: a few in 300 requests.
    const shape = { faults: { ...faultPreset("none"), messageDuplicate: 0.3, messageReorder: 0.3 }, requests: 300 };
    const s = await violations(factories, shape);
    expect(dropped).toBeGreaterThan(0);
    expect(s.violations.byInvariant).toEqual({ I1: dropped, I2: 0, I3: 0, I4: 0, I5: 0, I6: 0, P1: 0, P3: 0 });
    expect(s.violations.first[0]?.message).toMatch(/^p\d left c\d's ReadRequest \(attempt \d+, item \S+\) unanswered: .*\[I1\]$/);
    // The same run with a producer that answers them: no violation (a copy handed over before the
    // ACK, in the same pump, is still a duplicate).
    expect((await violations({}, shape)).violations.count).toBe(0);
  });

  /**
   * Producers that never send a grant again (SPEC 4.3: a duplicate of a live grant's attempt gets no
   * new answer; the producer MAY resend the grant): each resend the core makes is left out, and
   * counted: a duplicate left unanswered.
   */
  function neverResending(): { producer: CoreFactories["producer"]; withheld: () => number } {
    let withheld = 0;
    const producer: CoreFactories["producer"] = (options) => {
      const core = new ProducerCore(options);
      const sent = new Set<number>();
      const poll = core.poll.bind(core);
      core.poll = (now) =>
        poll(now).filter((o) => {
          const g = o.type === "send" ? o.envelope.readGrant : undefined;
          if (g == null) return true;
          const id = Number(g.grantId);
          if (!sent.has(id)) {
            sent.add(id);
            return true;
          }
          withheld++;
          return false;
        });
      return core;
    };
    return { producer, withheld: () => withheld };
  }

  it("[I1][P3] a producer that never resends a grant is not reported for duplicates handed over in the pump that granted their attempt", async () => {
    // A duplicate is delivered when its original is: the second copy meets the grant the first got.
    const { producer, withheld } = neverResending();
    const s = await violations({ producer }, { faults: { ...faultPreset("none"), messageDuplicate: 0.3 } });
    expect(withheld()).toBeGreaterThan(0);
    expect(s.violations.count).toBe(0);
  });

  it("[I1][P3] nor for a duplicate handed over just before the grant's ACK, in the same pump", async () => {
    // Each consumer sends a copy of a request right before the ACK of its grant: the producer takes
    // the copy while the grant is live, then the ACK ends it.
    const { producer, withheld } = neverResending();
    const consumer: CoreFactories["consumer"] = (options) => {
      const core = new ConsumerCore(options);
      const requests = new Map<string, ectp.v1.IEnvelope>(); // producer / attempt id -> the ReadRequest sent
      const attempts = new Map<string, number>(); // producer / grant id -> the attempt it answers
      const handleEnvelope = core.handleEnvelope.bind(core);
      const poll = core.poll.bind(core);
      core.handleEnvelope = (from, env, now) => {
        const g = env.readGrant;
        if (g != null) attempts.set(`${from}/${g.grantId}`, Number(g.attemptId));
        handleEnvelope(from, env, now);
      };
      core.poll = (now) => {
        const outs: CoreOutput[] = [];
        for (const o of poll(now)) {
          if (o.type === "send") {
            const { readRequest, readComplete } = o.envelope;
            if (readRequest != null) requests.set(`${o.peerId}/${readRequest.attemptId}`, o.envelope);
            const request = readComplete == null ? undefined : requests.get(`${o.peerId}/${attempts.get(`${o.peerId}/${readComplete.grantId}`)}`);
            if (request !== undefined) outs.push({ type: "send", peerId: o.peerId, envelope: request });
          }
          outs.push(o);
        }
        return outs;
      };
      return core;
    };
    const s = await violations({ consumer, producer }, { faults: "none" });
    expect(withheld()).toBeGreaterThan(0);
    expect(s.violations.count).toBe(0);
  });

  /**
   * A wrapped producer core whose ReadRequests go through `drops` first (true: never handed to the
   * core, counted by the caller), and whose sent grants `onGrant` sees.
   */
  function filtering(
    core: ProducerCore,
    drops: (from: string, env: ectp.v1.IEnvelope, now: number) => boolean,
    onGrant: (to: string, g: ectp.v1.IReadGrant, now: number) => void,
  ): ProducerCore {
    const handleEnvelope = core.handleEnvelope.bind(core);
    const handleMessage = core.handleMessage.bind(core);
    const poll = core.poll.bind(core);
    core.handleEnvelope = (from, env, now) => {
      if (!drops(from, env, now)) handleEnvelope(from, env, now);
    };
    core.handleMessage = (from, bytes, now) => {
      const d = decodeEnvelope(bytes);
      if (!(d.ok && drops(from, d.value, now))) handleMessage(from, bytes, now);
    };
    core.poll = (now) => {
      const outs = poll(now);
      for (const o of outs) if (o.type === "send" && o.envelope.readGrant != null) onGrant(o.peerId, o.envelope.readGrant, now);
      return outs;
    };
    return core;
  }

  it("[I1][P8] a producer that takes a restarted consumer's ReadRequest as a duplicate or stale against a grant of its older epoch leaves it unanswered, and is caught", async () => {
    // SPEC 3.7 and [P8]: a producer that sees a greater epoch of a consumer releases every grant of
    // its older epochs, so none of them is live for the new epoch's ReadRequests (SPEC 4.3: a
    // duplicate or stale request is one against a live grant). Consumers whose epochs are 2^20
    // apart count their attempt ids from the same window in every run (SPEC 3.5 asks them not to
    // reuse ids; the reference consumers' windows repeat every 2^20 epochs), so after a crash the
    // new run asks again with ids its previous run's unACKed grants still carry.
    const consumer: CoreFactories["consumer"] = (options) => new ConsumerCore({ ...options, epoch: 1 + (options.epoch - 1) * 2 ** 20 });
    let dropped = 0;
    const producer: CoreFactories["producer"] = (options) => {
      /** The greatest sender epoch of each consumer. */
      const epochs = new Map<string, number>();
      /** Grants sent, by id; and per consumer and item, the last one. */
      const grants = new Map<number, { holder: string; epoch: number; attemptId: number; leaseEnd: number; acked: boolean }>();
      const last = new Map<string, number>();
      return filtering(
        new ProducerCore(options),
        (from, env, now) => {
          const epoch = Number(env.senderEpoch);
          if (epoch > (epochs.get(from) ?? 0)) epochs.set(from, epoch);
          const acked = env.readComplete == null ? undefined : grants.get(Number(env.readComplete.grantId));
          if (acked !== undefined && acked.holder === from) acked.acked = true;
          const rr = env.readRequest;
          const g = rr == null ? undefined : grants.get(last.get(keyOf(tryItemKeyId(rr.key) ?? "", from)) ?? 0);
          // The bug: a grant of the consumer's older epoch still makes the new epoch's attempt of its id, or an older one, go unanswered.
          if (rr == null || g === undefined || g.acked || now >= g.leaseEnd || g.epoch >= epoch || Number(rr.attemptId) > g.attemptId) return false;
          dropped++;
          return true;
        },
        (to, g, now) => {
          if (grants.has(Number(g.grantId))) return;
          grants.set(Number(g.grantId), { holder: to, epoch: epochs.get(to) ?? 0, attemptId: Number(g.attemptId), leaseEnd: now + (Number(g.leaseMs) || 30_000), acked: false });
          last.set(keyOf(tryItemKeyId(g.item?.key) ?? "", to), Number(g.grantId));
        },
      );
    };
    // One consumer crashing every 6 s or so with reads under way (a 100 MB/s link), back 200 ms
    // later, asking again for the items it read.
    const shape: SimulationOptions = {
      producers: 1,
      consumers: 1,
      requests: 300,
      itemReuse: 0.9,
      linkBytesPerSecond: 1e8,
      seed: 3,
      faults: { ...faultPreset("none"), consumerCrashesPerMinute: 10, restartDelayMs: 200 },
    };
    const s = await violations({ consumer, producer }, shape);
    expect(s.crashEffects.consumerRestarts).toBeGreaterThan(0);
    expect(dropped).toBeGreaterThan(0);
    expect(s.violations.byInvariant).toEqual({ I1: dropped, I2: 0, I3: 0, I4: 0, I5: 0, I6: 0, P1: 0, P3: 0 });
    expect(s.violations.first[0]?.message).toMatch(/^p\d left c\d's ReadRequest \(attempt \d+, item \S+\) unanswered: .*\[I1\]$/);
    // The same consumers with a producer that answers them: no violation.
    expect((await violations({ consumer }, shape)).violations.count).toBe(0);
  });

  /**
   * Consumers that run as epoch 2 and put, before their first message to each producer, a copy of
   * their first ReadRequest to it under epoch 1 with `offset` added to its attempt id (as a late
   * message of a run before a restart would be, were the network to deliver one): the producer
   * takes it in the pump that brings epoch 2 after it.
   */
  function olderEpochFirst(offset: number): { consumer: CoreFactories["consumer"]; copies: Set<number> } {
    /** The attempt ids of the copies sent. */
    const copies = new Set<number>();
    const consumer: CoreFactories["consumer"] = (options) => {
      const core = new ConsumerCore({ ...options, epoch: options.epoch + 1 });
      const poll = core.poll.bind(core);
      const greeted = new Set<string>();
      core.poll = (now) => {
        const outs: CoreOutput[] = [];
        const batch = poll(now);
        for (const o of batch) {
          if (o.type === "send" && !greeted.has(o.peerId)) {
            greeted.add(o.peerId);
            const first = batch.find((r) => r.type === "send" && r.peerId === o.peerId && r.envelope.readRequest != null);
            const rr = first?.type === "send" ? first.envelope.readRequest : undefined;
            if (first?.type === "send" && rr != null) {
              const readRequest = { ...rr, attemptId: Number(rr.attemptId) + offset };
              outs.push({ type: "send", peerId: o.peerId, envelope: { ...first.envelope, senderEpoch: options.epoch, readRequest } });
              copies.add(readRequest.attemptId);
            }
          }
          outs.push(o);
        }
        return outs;
      };
      return core;
    };
    return { consumer, copies };
  }

  it("[I1][P8] a producer that judges a ReadRequest's epoch by the greatest of its whole pump leaves one of a then current epoch unanswered, and is caught", async () => {
    // SPEC 3.7: a message is stale when its sender epoch is lower than the greatest seen from its
    // sender *before* it; a ReadRequest current when the producer takes it is owed its answer
    // (SPEC 4.3), even when a newer epoch of its sender arrives later in the same pump (which then
    // releases the grant it got [P8]). Epoch 1's attempt ids are the window below epoch 2's (SPEC 3.5).
    const { consumer, copies } = olderEpochFirst(-(2 ** 32));
    // The bug: producers that take in a pump's messages all at once, judging each sender's
    // messages by the greatest epoch among them, and so drop a ReadRequest current when it came.
    let dropped = 0;
    const producer: CoreFactories["producer"] = (options) => {
      const core = new ProducerCore(options);
      /** The greatest sender epoch of each consumer, as of the last poll. */
      const epochs = new Map<string, number>();
      let inbox: { from: string; env: ectp.v1.IEnvelope }[] = [];
      const handleEnvelope = core.handleEnvelope.bind(core);
      const poll = core.poll.bind(core);
      core.handleEnvelope = (from, env) => {
        inbox.push({ from, env });
      };
      core.handleMessage = (from, bytes) => {
        const d = decodeEnvelope(bytes);
        if (d.ok) inbox.push({ from, env: d.value });
      };
      core.poll = (now) => {
        const before = new Map(epochs);
        for (const { from, env } of inbox) epochs.set(from, Math.max(epochs.get(from) ?? 0, Number(env.senderEpoch)));
        for (const { from, env } of inbox) {
          const epoch = Number(env.senderEpoch);
          if (env.readRequest == null || epoch >= (epochs.get(from) ?? 0)) handleEnvelope(from, env, now);
          else if (epoch >= (before.get(from) ?? 0)) dropped++; // current when it came
        }
        inbox = [];
        return poll(now);
      };
      return core;
    };
    const shape: SimulationOptions = { faults: "none" };
    const s = await violations({ consumer, producer }, shape);
    expect(copies.size).toBeGreaterThan(0);
    expect(dropped).toBeGreaterThan(0);
    expect(s.violations.byInvariant).toEqual({ I1: dropped, I2: 0, I3: 0, I4: 0, I5: 0, I6: 0, P1: 0, P3: 0 });
    expect(s.violations.first[0]?.message).toMatch(/^p\d left c\d's ReadRequest \(attempt \d+, item \S+\) unanswered: .*\[I1\]$/);
    // The same consumers with a producer that answers the copies (and releases their grants when
    // the newer epoch comes, in the same pump [P8]): no violation.
    expect((await violations({ consumer }, shape)).violations.count).toBe(0);
  });

  it("[I1][P8] a producer that takes a consumer's ReadRequest as a duplicate or stale against a grant of its older epoch made earlier in the same pump leaves it unanswered, and is caught", async () => {
    // The grant the copy of epoch 1 gets is released when epoch 2 comes, right after it in the same
    // pump [P8], so epoch 2's ReadRequests, whose attempt ids are lower than the copy's, meet no live
    // grant (SPEC 4.3) then or later.
    const { consumer, copies } = olderEpochFirst(STALE_ATTEMPT_OFFSET);
    let dropped = 0;
    let copiesGranted = 0;
    const producer: CoreFactories["producer"] = (options) => {
      /** Per consumer and item, the epoch and attempt id of the last ReadRequest taken. */
      const taken = new Map<string, { epoch: number; attemptId: number }>();
      return filtering(
        new ProducerCore(options),
        (from, env) => {
          const rr = env.readRequest;
          if (rr == null) return false;
          const k = keyOf(tryItemKeyId(rr.key) ?? "", from);
          const epoch = Number(env.senderEpoch);
          const before = taken.get(k);
          // The bug: the attempt ids of the consumer's older epoch still count as its newer epoch's.
          if (before !== undefined && before.epoch < epoch && Number(rr.attemptId) <= before.attemptId) {
            dropped++;
            return true;
          }
          taken.set(k, { epoch, attemptId: Number(rr.attemptId) });
          return false;
        },
        (_to, g) => {
          if (copies.has(Number(g.attemptId))) copiesGranted++;
        },
      );
    };
    const shape: SimulationOptions = { faults: "none" };
    const s = await violations({ consumer, producer }, shape);
    expect(copiesGranted).toBeGreaterThan(0); // the path: a copy granted, then epoch 2 in the same pump
    expect(dropped).toBeGreaterThan(0);
    expect(s.violations.byInvariant).toEqual({ I1: dropped, I2: 0, I3: 0, I4: 0, I5: 0, I6: 0, P1: 0, P3: 0 });
    // The same consumers with a producer that answers them (and releases the copies' grants when
    // epoch 2 comes, in the pump that sent them [P8]): no violation.
    expect((await violations({ consumer }, shape)).violations.count).toBe(0);
  });

  /** How long {@link fallingSilent}'s consumers send a producer nothing: past its 3 missed heartbeats of 2 s [P8]. */
  const SILENCE_MS = 7_000;

  /**
   * Consumers that, right after their first ReadRequest to each producer, send it nothing for
   * {@link SILENCE_MS} (no Heartbeat, ACK or request: what they send it meanwhile is held back), so
   * that it declares them gone [P8] while it holds the grant answering that request; then they send
   * it a copy of that ReadRequest (the same epoch and attempt id, as a copy the network held back
   * would be) before what they held back.
   */
  function fallingSilent(): { consumer: CoreFactories["consumer"]; copies: () => number } {
    let copies = 0;
    const consumer: CoreFactories["consumer"] = (options) => {
      const core = new ConsumerCore(options);
      const poll = core.poll.bind(core);
      const nextDeadline = core.nextDeadline.bind(core);
      /** Per producer it is silent to: until when, the ReadRequest to copy, and what it held back. */
      const silent = new Map<string, { until: number; request: ectp.v1.IEnvelope; held: CoreOutput[] }>();
      const asked = new Set<string>();
      core.poll = (now) => {
        const outs: CoreOutput[] = [];
        for (const [peerId, s] of silent) {
          if (now < s.until) continue;
          silent.delete(peerId);
          outs.push({ type: "send", peerId, envelope: s.request }, ...s.held);
          copies++;
        }
        for (const o of poll(now)) {
          const s = o.type === "send" ? silent.get(o.peerId) : undefined;
          if (s !== undefined) s.held.push(o);
          else outs.push(o);
          if (o.type === "send" && s === undefined && o.envelope.readRequest != null && !asked.has(o.peerId)) {
            asked.add(o.peerId);
            silent.set(o.peerId, { until: now + SILENCE_MS, request: o.envelope, held: [] });
          }
        }
        return outs;
      };
      core.nextDeadline = () => {
        let next = nextDeadline();
        for (const s of silent.values()) next = next === undefined ? s.until : Math.min(next, s.until);
        return next;
      };
      return core;
    };
    return { consumer, copies: () => copies };
  }

  it("[I1][P8] a producer that takes a ReadRequest of a consumer it declared gone as a duplicate or stale against a grant it released then leaves it unanswered, and is caught", async () => {
    // SPEC 8 [P8]: "When a consumer is gone, the producer releases every grant of that consumer";
    // "the grants released because of it stay released"; and SPEC 4: a producer MUST serve the
    // ReadRequests of a sender "it declared gone included". So a later ReadRequest of the same
    // epoch meets no live grant (SPEC 4.3), even one repeating the released grant's attempt id.
    const { consumer, copies } = fallingSilent();
    let dropped = 0;
    const producer: CoreFactories["producer"] = (options) => {
      /** Grants sent, by id: their holder, attempt, lease end, and whether ACKed or released with their holder gone. */
      const grants = new Map<number, { holder: string; attemptId: number; leaseEnd: number; acked: boolean; holderGone: boolean }>();
      /** Per consumer and item, the id of the last grant sent. */
      const last = new Map<string, number>();
      const core = filtering(
        new ProducerCore(options),
        (from, env, now) => {
          const acked = env.readComplete == null ? undefined : grants.get(Number(env.readComplete.grantId));
          if (acked !== undefined && acked.holder === from) acked.acked = true;
          const rr = env.readRequest;
          const g = rr == null ? undefined : grants.get(last.get(keyOf(tryItemKeyId(rr.key) ?? "", from)) ?? 0);
          // The bug: a grant released when its holder was declared gone still makes its attempt, or an older one, go unanswered.
          if (rr == null || g === undefined || !g.holderGone || g.acked || now >= g.leaseEnd || Number(rr.attemptId) > g.attemptId) return false;
          dropped++;
          return true;
        },
        (to, g, now) => {
          if (grants.has(Number(g.grantId))) return;
          grants.set(Number(g.grantId), { holder: to, attemptId: Number(g.attemptId), leaseEnd: now + (Number(g.leaseMs) || 30_000), acked: false, holderGone: false });
          last.set(keyOf(tryItemKeyId(g.item?.key) ?? "", to), Number(g.grantId));
        },
      );
      const poll = core.poll.bind(core);
      core.poll = (now) => {
        const outs = poll(now);
        // Declared gone (silent or unreachable): the core released its grants [P8].
        for (const o of outs) if (o.type === "disconnect-peer") for (const g of grants.values()) if (g.holder === o.peerId) g.holderGone = true;
        return outs;
      };
      return core;
    };
    const shape: SimulationOptions = { faults: "none" };
    const s = await violations({ consumer, producer }, shape);
    expect(copies()).toBeGreaterThan(0);
    expect(dropped).toBeGreaterThan(0);
    expect(s.violations.byInvariant).toEqual({ I1: dropped, I2: 0, I3: 0, I4: 0, I5: 0, I6: 0, P1: 0, P3: 0 });
    expect(s.violations.first[0]?.message).toMatch(/^p\d left c\d's ReadRequest \(attempt \d+, item \S+\) unanswered: .*\[I1\]$/);
    // The same consumers with a producer that answers the copies (it holds no grant of theirs then): no violation.
    expect((await violations({ consumer }, shape)).violations.count).toBe(0);
  });
});

describe("planted producers that break the producer rules no invariant covers [P1][P3]", () => {
  const NOT_FOUND = ectp.v1.FailureReason.FAILURE_REASON_NOT_FOUND;
  const NOT_READY = ectp.v1.FailureReason.FAILURE_REASON_NOT_READY;

  it("[P1] background #2: a producer that answers NOT_FOUND (terminal) for an item announced before its bytes are written", async () => {
    let conflated = 0;
    const s = await violations(
      {
        producer: (options) => {
          const core = new ProducerCore(options);
          const poll = core.poll.bind(core);
          core.poll = (now) =>
            poll(now).map((o) => {
              const r = o.type === "send" ? o.envelope.readReject : undefined;
              if (o.type !== "send" || r == null || r.reason !== NOT_READY) return o;
              conflated++; // the bug: "not ready" reported as "missing"
              return { ...o, envelope: { ...o.envelope, readReject: { ...r, reason: NOT_FOUND, retryable: false, retryAfterMs: 0 } } };
            });
          return core;
        },
      },
      { faults: { ...faultPreset("none"), earlyAnnouncement: 0.5 } },
    );
    expect(conflated).toBeGreaterThan(0);
    expect(s.violations.byInvariant.P1).toBe(conflated);
    expect(s.violations.first[0]?.invariant).toBe("P1");
    expect(s.violations.first[0]?.message).toMatch(
      /^p\d answered c\d's ReadRequest \(attempt \d+\) for item \S+ with NOT_FOUND, but its store held the item \(present but not fully written: NOT_READY, retryable\) when it handled the request \[P1\]$/,
    );
  });

  it("[P1] a producer whose store lookup misses items it holds (ready) answers NOT_FOUND for them", async () => {
    let missed = 0;
    const s = await violations({
      store: (inner) => ({
        ...withPins(inner, { pin: (k) => inner.pin(k), unpin: (k) => inner.unpin(k) }),
        get: (k) => {
          const e = inner.get(k);
          // The bug: every third lookup of a ready, unpinned item finds nothing.
          if (e?.ready && e.pins === 0 && ++missed % 3 === 0) return undefined;
          return e;
        },
      }),
    });
    expect(missed).toBeGreaterThan(0);
    expect(s.violations.byInvariant.P1).toBeGreaterThan(0);
    expect(s.violations.first.map((v) => v.message)).toContainEqual(expect.stringMatching(/with NOT_FOUND, but its store held the item \(ready\)/));
  });

  it("[P3] background #7: a producer whose grant, sent again for a duplicated ReadRequest, carries the full lease again", async () => {
    let extended = 0;
    const s = await violations(
      {
        producer: (options) => {
          const core = new ProducerCore(options);
          const leases = new Map<number, number>(); // grant id -> the lease it was first sent with
          const poll = core.poll.bind(core);
          core.poll = (now) =>
            poll(now).map((o) => {
              const g = o.type === "send" ? o.envelope.readGrant : undefined;
              if (o.type !== "send" || g == null) return o;
              const id = Number(g.grantId);
              const first = leases.get(id);
              if (first === undefined) {
                leases.set(id, Number(g.leaseMs));
                return o;
              }
              if (Number(g.leaseMs) !== first) extended++;
              // The bug: a resent grant names its whole lease again, not what is left of it.
              return { ...o, envelope: { ...o.envelope, readGrant: { ...g, leaseMs: first } } };
            });
          return core;
        },
      },
      // A duplicate is delivered when its original is due, so the producer sends the grant again at
      // once, with its whole lease left; a reordered (held) original then arrives later, and the grant
      // goes out again with less left.
      { faults: { ...faultPreset("none"), messageDuplicate: 0.3, messageReorder: 0.3 } },
    );
    expect(extended).toBeGreaterThan(0);
    expect(s.violations.byInvariant.P3).toBe(extended);
    expect(s.violations.first[0]?.invariant).toBe("P3");
    expect(s.violations.first[0]?.message).toMatch(
      /^p\d: grant \d+ \(item \S+\) sent again to c\d with lease_ms \d+, which would end its lease at [\d.]+ ms; it was granted to end at [\d.]+ ms \(at most \d+ ms left\) \[P3\]$/,
    );
  });
});

describe("planted producers that release a grant early, their own counts still agreeing [I3][P2]", () => {
  // SPEC [P2]: a grant is released "by its ReadComplete or by its lease expiring, whichever comes first
  // (or by the release rules of [P3], [P7] and [P8] ...)"; [I3]: "Each time a producer acts, its pin count
  // equals its number of live grants (per item and in total)". A grant released sooner unpins an item a
  // consumer may still be reading: the store may evict it and reuse its memory under the read.

  /**
   * Producers that release every grant at their next poll after the one that sent it, by handing
   * themselves its holder's ReadComplete: the core's grants and the store's pins fall together, so
   * every count agrees; only the wire shows the grant still live (not ACKed, lease not over).
   */
  function earlyReleasing(): { factories: CoreFactories; released: () => number } {
    let released = 0;
    const factories: CoreFactories = {
      producer: (options) => {
        const core = new ProducerCore(options);
        const epochs = new Map<string, number>(); // each consumer's epoch, from its messages
        let due: { holder: string; grantId: number }[] = [];
        const seen = new Set<number>();
        const handleMessage = core.handleMessage.bind(core);
        const handleEnvelope = core.handleEnvelope.bind(core);
        const poll = core.poll.bind(core);
        core.handleMessage = (from, bytes, now) => {
          const d = decodeEnvelope(bytes);
          if (d.ok && typeof d.value.senderEpoch === "number") epochs.set(from, d.value.senderEpoch);
          handleMessage(from, bytes, now);
        };
        core.poll = (now) => {
          // The bug: the grants sent at earlier polls are released now, ACKed or not.
          for (const { holder, grantId } of due) {
            const readComplete = { grantId, status: ectp.v1.CompletionStatus.COMPLETION_STATUS_OK };
            handleEnvelope(holder, { version: SPEC_VERSION, senderId: holder, senderEpoch: epochs.get(holder), readComplete }, now);
            released++;
          }
          due = [];
          const outs = poll(now);
          for (const o of outs) {
            const g = o.type === "send" ? o.envelope.readGrant : undefined;
            if (o.type !== "send" || g == null || seen.has(Number(g.grantId))) continue;
            seen.add(Number(g.grantId));
            due.push({ holder: o.peerId, grantId: Number(g.grantId) });
          }
          return outs;
        };
        return core;
      },
    };
    return { factories, released: () => released };
  }

  it("[I3][P2] a producer that releases each grant at its next poll, before the consumer's ACK, is caught by its pins", async () => {
    const { factories, released } = earlyReleasing();
    const s = await violations(factories, { faults: "none" });
    expect(released()).toBeGreaterThan(0);
    expect(s.violations.byInvariant).toMatchObject({ I1: 0, I2: 0, I4: 0, I5: 0, I6: 0, P1: 0, P3: 0 });
    expect(s.violations.byInvariant.I3).toBeGreaterThan(0);
    expect(s.violations.first[0]?.message).toMatch(
      /^p\d: item \S+ holds 0 pins, but [12] of its grants are live on the wire \(not ACKed, lease not over\), none of which the producer may end early .*\[I3\]\[P2\]$/,
    );
  });

  it("[I3][P2][P6] the same producer under memory pressure: its store evicts items under live grants, reported when the memory is freed", async () => {
    const { factories, released } = earlyReleasing();
    // Slower reads keep grants live longer; a store of a few items evicts soon after an unpin.
    const s = await violations(factories, { linkBytesPerSecond: 1e9, faults: { ...faultPreset("none"), memoryPressure: 0.01 } });
    expect(released()).toBeGreaterThan(0);
    expect(s.storeEvents.evictions).toBeGreaterThan(0);
    expect(s.violations.byInvariant).toMatchObject({ I1: 0, I2: 0, I4: 0, I5: 0, I6: 0, P1: 0, P3: 0 });
    expect(s.violations.first.map((v) => v.message)).toContainEqual(
      expect.stringMatching(
        /^p\d: item \S+ left the store and its memory was freed while 1 of its grants are live on the wire \(not ACKed, lease not over\), none of which the producer may end early: .*\[I3\]\[P2\]\[P6\]$/,
      ),
    );
  });

  it("[I3][P3][P7][P8] correct producers are not reported: grants released early by a rule that allows it, items evicted under memory pressure", async () => {
    const released = (s: { counters: Record<string, number> }, cause: string) => s.counters[`ectp_producer_releases_total{cause=${cause}}`] ?? 0;
    const pressure = await violations({}, { linkBytesPerSecond: 1e9, faults: { ...faultPreset("none"), memoryPressure: 0.01 } });
    expect(pressure.storeEvents.evictions).toBeGreaterThan(0);
    // Consumers that crash (their grants released as they go unreachable or silent [P8]) and planned restarts [P7].
    const churn = await violations({}, { requests: 200, faults: { ...faultPreset("heavy"), consumerCrashesPerMinute: 20, producerShutdownsPerMinute: 10, crashesPerMinute: 0 } });
    expect(released(churn, "peer_gone")).toBeGreaterThan(0);
    expect(released(churn, "shutdown")).toBeGreaterThan(0);
    // A consumer that asks again with a newer attempt while its grant is live (the ACK lost): the grant is replaced [P3].
    const retry = await violations({}, { requests: 40, budgetMs: 10_000, faults: "heavy", seed: 33 });
    expect(released(retry, "replaced")).toBeGreaterThan(0);
    for (const s of [pressure, churn, retry]) expect(s.violations.count).toBe(0);
  });
});

describe("a producer that releases an unreachable consumer's grants without forgetting it on its transport [I3][P8]", () => {
  // SPEC [P8]: "A peer the transport reports unreachable is gone at once"; "When a consumer is gone, the
  // producer releases every grant of that consumer and forgets it as a subscriber." Telling the
  // transport to forget the consumer (a disconnect-peer) is the consumer side's rule, not the
  // producer's: the simulator learns of the release from the unreachable notice itself.
  it("[I3][P8] is not reported: the notice the simulator hands it excuses the grants it releases", async () => {
    let released = 0;
    const s = await violations(
      {
        producer: (options) => {
          const core = new ProducerCore(options);
          const unreachable = new Set<string>();
          const handlePeerUnreachable = core.handlePeerUnreachable.bind(core);
          const poll = core.poll.bind(core);
          core.handlePeerUnreachable = (peerId, now) => {
            const before = core.stats().grants;
            handlePeerUnreachable(peerId, now);
            released += before - core.stats().grants;
            unreachable.add(peerId);
          };
          // Its disconnect-peer for a consumer reported unreachable is left out (one for a silent
          // consumer, the only word of that release on the wire, goes out).
          core.poll = (now) => {
            const outs = poll(now).filter((o) => o.type !== "disconnect-peer" || !unreachable.has(o.peerId));
            unreachable.clear();
            return outs;
          };
          return core;
        },
      },
      // Consumers that crash holding grants: the producer's next send to one is refused (unreachable).
      { requests: 200, faults: { ...faultPreset("light"), consumerCrashesPerMinute: 20, restartDelayMs: 1_000 } },
    );
    expect(released).toBeGreaterThan(0); // grants released on an unreachable notice, no disconnect-peer
    expect(s.violations.count).toBe(0);
  });
});

/**
 * Consumers that send stale copies of their ReadRequests, and producers that take them as current
 * (the bug: a ReadRequest's sender epoch is not compared with the greatest seen from its sender [P8]).
 */
function staleTakenAsCurrent(): { factories: CoreFactories; staleSent: () => number; takenAsCurrent: () => number } {
  let staleSent = 0;
  let takenAsCurrent = 0;
  const factories: CoreFactories = {
    // Consumers that run as epoch 2 and, one poll after their first ReadRequest for an item to a
    // producer, send a copy of it under their epoch 1 with a newer attempt id than any they use (as
    // a late message of a run before a restart would be, were the network to deliver one). Once per
    // item and producer: the grant answering the copy stays the ledger's latest of the item.
    consumer: (options) => {
      const core = new ConsumerCore({ ...options, epoch: options.epoch + 1 });
      const poll = core.poll.bind(core);
      const copied = new Set<string>();
      let copies: CoreOutput[] = [];
      core.poll = (now) => {
        const outs = [...copies, ...poll(now)];
        staleSent += copies.length;
        copies = [];
        for (const o of outs) {
          const rr = o.type === "send" ? o.envelope.readRequest : undefined;
          if (o.type !== "send" || rr == null || o.envelope.senderEpoch !== options.epoch + 1) continue;
          const once = keyOf(tryItemKeyId(rr.key) ?? "", o.peerId);
          if (copied.has(once)) continue;
          copied.add(once);
          const readRequest = { ...rr, attemptId: Number(rr.attemptId) + STALE_ATTEMPT_OFFSET };
          copies.push({ type: "send", peerId: o.peerId, envelope: { ...o.envelope, senderEpoch: options.epoch, readRequest } });
        }
        return outs;
      };
      return core;
    },
    // The bug: a ReadRequest's sender epoch is not compared with the greatest seen from its sender.
    producer: (options) => {
      const core = new ProducerCore(options);
      const epochs = new Map<string, number>();
      const handleMessage = core.handleMessage.bind(core);
      const handleEnvelope = core.handleEnvelope.bind(core);
      core.handleMessage = (from, bytes, now) => {
        const d = decodeEnvelope(bytes);
        const epoch = d.ok ? d.value.senderEpoch : undefined;
        if (!d.ok || typeof epoch !== "number") return handleMessage(from, bytes, now);
        const greatest = epochs.get(from) ?? 0;
        if (epoch >= greatest) {
          epochs.set(from, epoch);
          return handleMessage(from, bytes, now);
        }
        if (d.value.readRequest != null) takenAsCurrent++;
        handleEnvelope(from, { ...d.value, senderEpoch: greatest }, now);
      };
      return core;
    },
  };
  return { factories, staleSent: () => staleSent, takenAsCurrent: () => takenAsCurrent };
}

/** A store that refuses a pin right after an unpin of the same item (a replacement's release, then its new grant's pin); `refused` counts them. */
function pinFailsAfterUnpin(): { store: (inner: ItemStore) => ItemStore; refused: () => number } {
  let refused = 0;
  const store = (inner: ItemStore): ItemStore => {
    let unpinned: string | undefined;
    return withPins(inner, {
      unpin: (k) => {
        inner.unpin(k);
        unpinned = k;
      },
      pin: (k) => {
        const fail = unpinned === k;
        unpinned = undefined;
        if (!fail) return inner.pin(k);
        refused++;
        throw new Error("planted: the store cannot pin the item now");
      },
    });
  };
  return { store, refused: () => refused };
}

describe("planted producers that release a grant for a newer attempt SPEC does not let replace it [I3][P3][P7][P8]", () => {
  // SPEC [P3]: a newer attempt "replaces that grant once it has passed checks 1 to 7 of [P7] ... a
  // request ... refused by checks 3 to 7 leaves it live". Section 3.7: a message of an epoch older
  // than the greatest seen from its sender is stale and ignored, so it replaces nothing either.
  const retries = { requests: 40, budgetMs: 10_000, faults: "heavy", seed: 33 } as const;
  const EARLY = /^p\d: item \S+ holds \d+ pins, but \d+ of its grants are live on the wire \(not ACKed, lease not over\), none of which the producer may end early .*\[I3\]\[P2\]$/;

  it("[I3][P3][P7] a producer that releases the older grant before checking a newer attempt, which it then refuses NOT_READY, is caught", async () => {
    let released = 0;
    const factories: CoreFactories = {
      producer: (options) => {
        const core = new ProducerCore(options);
        /** Per consumer and item, the last grant sent, until its holder's ReadComplete for it. */
        const live = new Map<string, { grantId: number; attemptId: number }>();
        let refusals: { to: string; attemptId: number }[] = [];
        const handleMessage = core.handleMessage.bind(core);
        const handleEnvelope = core.handleEnvelope.bind(core);
        const poll = core.poll.bind(core);
        core.handleMessage = (from, bytes, now) => {
          const d = decodeEnvelope(bytes);
          const env = d.ok ? d.value : undefined;
          const rc = env?.readComplete;
          if (rc != null) for (const [k, g] of live) if (g.grantId === rc.grantId && k.startsWith(`${from}\u0000`)) live.delete(k);
          const rr = env?.readRequest;
          const key = rr == null ? undefined : tryItemKeyId(rr.key);
          const held = key === undefined ? undefined : live.get(keyOf(key, from));
          if (env !== undefined && rr != null && key !== undefined && held !== undefined && Number(rr.attemptId) > held.attemptId) {
            // The bug: the older grant is released before checks 3 to 7, which then refuse the attempt.
            const readComplete = { grantId: held.grantId, status: ectp.v1.CompletionStatus.COMPLETION_STATUS_OK };
            handleEnvelope(from, { version: SPEC_VERSION, senderId: from, senderEpoch: env.senderEpoch, readComplete }, now);
            live.delete(keyOf(key, from));
            refusals.push({ to: from, attemptId: Number(rr.attemptId) });
            released++;
            return;
          }
          handleMessage(from, bytes, now);
        };
        core.poll = (now) => {
          const outs = [...poll(now)];
          for (const o of outs) {
            const g = o.type === "send" ? o.envelope.readGrant : undefined;
            const key = g == null ? undefined : tryItemKeyId(g.item?.key);
            if (o.type === "send" && g != null && key !== undefined) live.set(keyOf(key, o.peerId), { grantId: Number(g.grantId), attemptId: Number(g.attemptId) });
          }
          for (const { to, attemptId } of refusals) {
            const readReject = { attemptId, reason: ectp.v1.FailureReason.FAILURE_REASON_NOT_READY, retryable: true, retryAfterMs: 50, detail: "item not fully written yet" };
            outs.push({ type: "send", peerId: to, envelope: { version: SPEC_VERSION, senderId: options.id, senderEpoch: options.epoch, readReject } });
          }
          refusals = [];
          return outs;
        };
        return core;
      },
    };
    const s = await violations(factories, retries);
    expect(released).toBeGreaterThan(0);
    expect(s.violations.byInvariant.I3).toBeGreaterThan(0);
    expect(s.violations.first.map((v) => v.message)).toContainEqual(expect.stringMatching(EARLY));
  });

  it("[I3][P3][P7] a correct producer whose pin fails after a newer attempt replaced the older grant (refused INTERNAL, the older grant released) is not reported", async () => {
    // SPEC [P3]: the older grant is released "before the quota check and the new grant (check 8)",
    // so a refusal after it has released it too. The store refuses the pin right after an unpin of the
    // same item: the replacement's release, then its new grant's pin.
    const pins = pinFailsAfterUnpin();
    const s = await violations({ store: pins.store }, retries);
    expect(pins.refused()).toBeGreaterThan(0);
    expect(s.counters["ectp_producer_releases_total{cause=replaced}"]).toBeGreaterThan(0);
    expect(s.violations.count).toBe(0);
  });

  it("[I3][P3] a correct producer is not reported when a newer attempt replaces a grant of an older attempt sent after the newer attempt's grant was ACKed", async () => {
    // SPEC 4.3: a ReadRequest is stale only against a live grant. Consumers that, after each ACK
    // (once per item and producer), send a ReadRequest for the item with an older attempt id (a
    // reordered retry) and then a late copy of the ACKed grant's own: the producer grants the older
    // attempt (the newer grant is released, nothing is live), then the copy replaces that grant [P3].
    let copied = 0;
    const factories: CoreFactories = {
      consumer: (options) => {
        const core = new ConsumerCore(options);
        /** Per producer and attempt id, the ReadRequest sent. */
        const asked = new Map<string, ectp.v1.IReadRequest>();
        /** Per producer and grant id, the attempt and item granted. */
        const granted = new Map<string, { attemptId: number; keyId: string | undefined }>();
        const once = new Set<string>();
        const handleEnvelope = core.handleEnvelope.bind(core);
        const poll = core.poll.bind(core);
        core.handleEnvelope = (from, env, now) => {
          const g = env.readGrant;
          if (g != null) granted.set(`${from}\u0000${g.grantId}`, { attemptId: Number(g.attemptId), keyId: tryItemKeyId(g.item?.key) });
          handleEnvelope(from, env, now);
        };
        core.poll = (now) => {
          const outs = poll(now);
          const copies: CoreOutput[] = [];
          for (const o of outs) {
            if (o.type !== "send") continue;
            const { readRequest: rr, readComplete: rc } = o.envelope;
            if (rr != null) asked.set(`${o.peerId}\u0000${rr.attemptId}`, rr);
            const g = rc == null ? undefined : granted.get(`${o.peerId}\u0000${rc.grantId}`);
            const request = g === undefined ? undefined : asked.get(`${o.peerId}\u0000${g.attemptId}`);
            if (g === undefined || request === undefined || g.keyId === undefined || tryItemKeyId(request.key) !== g.keyId || g.attemptId < 2) continue;
            if (once.has(keyOf(g.keyId, o.peerId))) continue;
            once.add(keyOf(g.keyId, o.peerId));
            const { version, senderId, senderEpoch } = o.envelope;
            for (const attemptId of [g.attemptId - 1, g.attemptId])
              copies.push({ type: "send", peerId: o.peerId, envelope: { version, senderId, senderEpoch, readRequest: { ...request, attemptId } } });
            copied++;
          }
          return copies.length === 0 ? outs : [...outs, ...copies];
        };
        return core;
      },
    };
    const s = await violations(factories, { faults: "none" });
    expect(copied).toBeGreaterThan(0);
    expect(s.counters["ectp_producer_releases_total{cause=replaced}"]).toBeGreaterThan(0);
    expect(s.violations.count).toBe(0);
  });

  it("[I3][P3][P8] a producer that takes a ReadRequest of a consumer's stale epoch as current (and so replaces the current epoch's grant) is caught", async () => {
    const stale = staleTakenAsCurrent();
    const s = await violations(stale.factories, { faults: "none" });
    expect(stale.staleSent()).toBeGreaterThan(0);
    expect(stale.takenAsCurrent()).toBeGreaterThan(0);
    expect(s.counters["ectp_producer_releases_total{cause=replaced}"]).toBeGreaterThan(0);
    expect(s.violations.byInvariant.I3).toBeGreaterThan(0);
    expect(s.violations.first.map((v) => v.message)).toContainEqual(expect.stringMatching(EARLY));
  });

  it("[I3][P3][P7][P8] the same producer, refusing the stale ReadRequest INTERNAL after the replacement (its pin failed), is caught: a stale epoch's refusal excuses nothing", async () => {
    const stale = staleTakenAsCurrent();
    const pins = pinFailsAfterUnpin();
    let staleRefusedInternal = 0;
    const factories: CoreFactories = {
      ...stale.factories,
      store: pins.store,
      producer: (options) => {
        const core = (stale.factories.producer as NonNullable<CoreFactories["producer"]>)(options);
        const poll = core.poll.bind(core);
        core.poll = (now) => {
          const outs = poll(now);
          for (const o of outs) {
            const r = o.type === "send" ? o.envelope.readReject : undefined;
            if (r != null && r.reason === ectp.v1.FailureReason.FAILURE_REASON_INTERNAL && Number(r.attemptId) >= STALE_ATTEMPT_OFFSET) staleRefusedInternal++;
          }
          return outs;
        };
        return core;
      },
    };
    const s = await violations(factories, { faults: "none" });
    expect(stale.takenAsCurrent()).toBeGreaterThan(0);
    expect(pins.refused()).toBeGreaterThan(0);
    expect(staleRefusedInternal).toBeGreaterThan(0); // the path: a stale copy refused INTERNAL after replacing the current grant
    expect(s.violations.byInvariant.I3).toBeGreaterThan(0);
    expect(s.violations.first.map((v) => v.message)).toContainEqual(expect.stringMatching(EARLY));
  });
});

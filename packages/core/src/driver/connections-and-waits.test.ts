// The driver's connections and waits: who hears of a failed connect, what a transport's partial poll
// keeps, a queued read's id once it has settled, a newer epoch's connect timeout, what a connection
// that failed or was let go leaves behind, and run()'s sleeps after a wake().
import { SPEC_VERSION, ectp } from "@ectp/protocol";
import { describe, expect, it, vi } from "vitest";
import type { ConsumerCore } from "../consumer/consumer.js";
import { RecordingLogger } from "../consumer/test-support.js";
import type { ProducerCore } from "../producer/producer.js";
import type { EventSubscriber } from "../subscriber/subscriber.js";
import type { CoreOutput } from "../outputs.js";
import type { Transport, TransportActivity } from "../transport.js";
import { Driver, type DriverOptions } from "./driver.js";
import { FakeNet, type FakeTransport, RecordingCore, connectTo, deferred, flush, heartbeatTo, manualClock, pendingConnect, routingRig, startRead, wire } from "./test-support.js";

describe("Driver: a failed connect is told to the cores that asked for it", () => {
  it("[P8] a producer's rejected connect: the producer hears the peer is unreachable, the consumer (holding nothing) does not", async () => {
    const { t, consumer, producer, driver } = routingRig();
    const d = deferred();
    t.connectResult = d.promise;
    (producer as RecordingCore).outputs = [connectTo("c", 1)];
    driver.step();
    d.reject(new Error("bad metadata"));
    await flush();
    expect(driver.hasWork).toBe(true); // due at once: a loop on virtual time steps without advancing its clock
    driver.step();
    expect(driver.hasWork).toBe(false);
    expect(producer?.calls).toEqual(["unreachable:c"]);
    expect(consumer?.calls).toEqual([]);
  });

  it("[P8][E2] a subscriber's connect that times out: the subscriber hears the producer is unreachable", async () => {
    const t = new FakeNet().endpoint("router");
    t.connectResult = new Promise<void>(() => {});
    const subscriber = new RecordingCore();
    const clock = manualClock();
    const warned: unknown[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string, f: unknown) => warned.push([m, f]), error() {} };
    const driver = new Driver({ transport: t, subscriber: subscriber as unknown as EventSubscriber, clock, connectTimeoutMs: 100, logger });
    subscriber.outputs = [connectTo("E", 7)];
    driver.step();
    await flush(); // the loop yields: the connect could have completed, and did not
    clock.advance(100);
    driver.step();
    expect(subscriber.calls).toEqual(["unreachable:E"]);
    expect(warned).toEqual([
      ["connectPeer failed; peer treated as unreachable", { peerId: "E", epoch: 7, error: "connectPeer still pending after 100 ms" }],
    ]);
    expect(t.disconnects).toEqual(["E"]);
  });

  it("a loop that never yields between steps: one warning names it and how to yield, before its connects time out", () => {
    const t = new FakeNet().endpoint("me"); // its connectPeer resolves at once, for a loop that lets it
    const consumer = new RecordingCore();
    const logger = new RecordingLogger();
    const clock = manualClock();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock, logger });
    consumer.outputs = [connectTo("p", 1), connectTo("q", 1)];
    for (let i = 0; i < 40; i++) {
      driver.step();
      clock.advance(300); // a virtual clock moved on at once, with no await
    }
    const never =
      "step() is being called, but its caller has not yielded to the event loop since connectPeer started: no connect can complete, and every peer will be unreachable. Yield between steps: await a setImmediate (runOnVirtualTime of @ectp/transport-mock does), or use run() on real time";
    const failed = (peerId: string) => ["connectPeer failed; peer treated as unreachable", { peerId, epoch: 1, error: "connectPeer still pending after 10000 ms" }];
    expect(logger.records.map((r) => [r.message, r.fields])).toEqual([[never, { peerId: "p", pendingMs: 1200 }], failed("p"), failed("q")]);
    expect(consumer.calls).toEqual(["unreachable:p", "unreachable:q"]);
  });

  it("with a connectTimeoutMs under 1 s, the warning comes at the timeout, before the connect's failure", () => {
    const t = new FakeNet().endpoint("me");
    const consumer = new RecordingCore();
    const logger = new RecordingLogger();
    const clock = manualClock();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock, connectTimeoutMs: 100, logger });
    consumer.outputs = [connectTo("p", 1)];
    driver.step();
    clock.advance(100);
    driver.step();
    expect(logger.records.map((r) => `${r.level}: ${r.message.slice(0, 40)} ${JSON.stringify(r.fields)}`)).toEqual([
      'warn: step() is being called, but its caller h {"peerId":"p","pendingMs":100}',
      'warn: connectPeer failed; peer treated as unre {"peerId":"p","epoch":1,"error":"connectPeer still pending after 100 ms"}',
    ]);
  });

  it("[P8] a connect failing again and again (a core retrying a dead peer) is one warning, then info, until a connect works", async () => {
    const t = new FakeNet().endpoint("me");
    const consumer = new RecordingCore();
    const logger = new RecordingLogger();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock(), logger });
    const attempt = async (result: Promise<void>) => {
      t.connectResult = result;
      consumer.outputs = [connectTo("p", 1)];
      driver.step();
      await flush();
      driver.step();
      consumer.outputs = [{ type: "disconnect-peer", peerId: "p" }];
      driver.step();
    };
    const refused = () => Promise.reject(new Error("refused"));
    for (let i = 0; i < 3; i++) await attempt(refused());
    await attempt(Promise.resolve());
    await attempt(refused());
    expect(logger.records.map((r) => `${r.level}: ${r.message}`)).toEqual([
      "warn: connectPeer failed; peer treated as unreachable",
      "info: connectPeer failed again; peer treated as unreachable",
      "info: connectPeer failed again; peer treated as unreachable",
      "warn: connectPeer failed; peer treated as unreachable",
    ]);
    expect(consumer.calls).toEqual(Array(4).fill("unreachable:p"));
  });

  it("a peer reported unreachable that no core ever asked to connect: one warning naming the missing transport metadata", async () => {
    const t = new FakeNet().endpoint("me"); // no endpoint "p": sends to it come back unreachable
    const consumer = new RecordingCore();
    const warned: [string, unknown][] = [];
    const logger = { debug() {}, info() {}, warn: (m: string, f: unknown) => warned.push([m, f]), error() {} };
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock(), logger });
    for (let i = 0; i < 3; i++) {
      consumer.outputs = [heartbeatTo("p")];
      driver.step(); // sent with no connection
      driver.step(); // the transport reports p unreachable
    }
    expect(consumer.calls).toEqual(Array(3).fill("unreachable:p"));
    expect(warned).toEqual([
      [
        "transport reports a peer unreachable that was never connected: no transport metadata is known for it yet. Either its Hello has not arrived (lost, or overtaken by its first request: this passes once the Hello comes) or it carries none: if it is a core of this deployment, construct it with transportMetadata: transport.localMetadata() (a stranger that sent unasked messages cannot be answered)",
        { peerId: "p" },
      ],
    ]);
    // A peer a core did ask to connect is not said to lack metadata when it becomes unreachable.
    consumer.outputs = [connectTo("q", 1), heartbeatTo("q")];
    driver.step(); // the heartbeat waits for the connect
    await flush(); // connected: the heartbeat goes out, to no endpoint
    driver.step();
    expect(consumer.calls.at(-1)).toBe("unreachable:q");
    expect(warned).toHaveLength(1);
  });

  it("[P8] a core greeting a peer without transport metadata on a transport that has some: one warning on this host, naming the fix", () => {
    const net = new FakeNet();
    const t = net.endpoint("me"); // its localMetadata() is not empty
    for (const peer of ["p", "q", "r"]) net.endpoint(peer);
    const consumer = new RecordingCore();
    const logger = new RecordingLogger();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock(), logger });
    const hello = (peerId: string, transportMetadata?: Uint8Array): CoreOutput => ({
      type: "send",
      peerId,
      envelope: { version: SPEC_VERSION, senderId: "me", senderEpoch: 1, hello: { role: ectp.v1.Role.ROLE_CONSUMER, transportMetadata } },
    });
    // A Hello carrying the transport's metadata: nothing to say.
    consumer.outputs = [hello("p", t.localMetadata())];
    driver.step();
    expect(logger.records).toEqual([]);
    consumer.outputs = [hello("p"), hello("q", new Uint8Array(0))];
    driver.step();
    consumer.outputs = [hello("r")];
    driver.step();
    expect(logger.records.map((r) => [r.level, r.message, r.fields])).toEqual([
      [
        "warn",
        "the consumer's Hello carries no transport metadata while the transport has some: the peer cannot reach this host to answer it; construct the consumer with transportMetadata: transport.localMetadata()",
        { peerId: "p", core: "consumer" },
      ],
    ]);
    expect(t.sentTo.map((m) => m.peerId)).toEqual(["p", "p", "q", "r"]); // (sent all the same)
  });

  it("a never-connected peer's warning does not silence the warning of its first real connect failure", async () => {
    const t = new FakeNet().endpoint("me");
    const consumer = new RecordingCore();
    const logger = new RecordingLogger();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock(), logger });
    consumer.outputs = [heartbeatTo("p")];
    driver.step();
    driver.step(); // p unreachable, never connected
    t.connectResult = Promise.reject(new Error("refused"));
    consumer.outputs = [connectTo("p", 1)]; // the core learnt p's metadata
    driver.step();
    await flush();
    driver.step();
    expect(logger.records.map((r) => `${r.level}: ${r.message.split(":")[0]}`)).toEqual([
      "warn: transport reports a peer unreachable that was never connected",
      "warn: connectPeer failed; peer treated as unreachable",
    ]);
  });

  it("for a subscriber, the never-connected warning says to follow the producer with its metadata", () => {
    const t = new FakeNet().endpoint("router");
    const subscriber = new RecordingCore();
    const warned: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => warned.push(m), error() {} };
    const driver = new Driver({ transport: t, subscriber: subscriber as unknown as EventSubscriber, clock: manualClock(), logger });
    subscriber.outputs = [heartbeatTo("E")];
    driver.step();
    driver.step();
    expect(warned).toEqual([
      "transport reports a producer unreachable that was never connected: the subscriber knows no transport metadata for it; follow it with its metadata (follow(id, now, { epoch, metadata }))",
    ]);
  });

  it("a peer once connected is still known after 4,096 others were asked for: only the oldest is forgotten", async () => {
    const t = new FakeNet().endpoint("me");
    const consumer = new RecordingCore();
    const warned: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => warned.push(m), error() {} };
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock(), logger });
    consumer.outputs = [connectTo("first", 1)];
    driver.step();
    consumer.outputs = [connectTo("p", 1)];
    driver.step();
    for (let i = 0; i < 4_095; i++) consumer.outputs.push(connectTo(`q${i}`, 1));
    driver.step(); // 4,097 peers asked for: "first" is forgotten, "p" is not
    await flush();
    consumer.outputs = [heartbeatTo("p"), heartbeatTo("first")]; // no such endpoints: both come back unreachable
    driver.step();
    driver.step();
    expect(warned).toHaveLength(0); // both were connected: reported unreachable as connected peers are
    consumer.outputs = [{ type: "disconnect-peer", peerId: "first" }, { type: "disconnect-peer", peerId: "p" }, heartbeatTo("p"), heartbeatTo("first")];
    driver.step();
    driver.step();
    expect(warned).toEqual([expect.stringMatching(/never connected/)]); // "first" alone
  });

  it("run() on a clock nobody advances, with a deadline pending: one warning after 5 s of real time, none while nothing is due", async () => {
    let real = 0;
    const spy = vi.spyOn(performance, "now").mockImplementation(() => (real += 1_000)); // each reading 1 s later
    try {
      const t = new FakeNet().endpoint("me");
      const consumer = new RecordingCore();
      const warned: [string, unknown][] = [];
      const logger = { debug() {}, info() {}, warn: (m: string, f: unknown) => warned.push([m, f]), error() {} };
      const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock(100), logger, maxWaitMs: 1 });
      // (waitUntil reads performance.now, mocked here: this waits on turns of the event loop instead.)
      const turnsUntil = async (done: () => boolean) => {
        for (let i = 0; i < 2_000 && !done(); i++) await new Promise((r) => setTimeout(r, 1));
        expect(done()).toBe(true);
      };
      driver.run();
      await turnsUntil(() => consumer.polls >= 20); // nothing due: a still clock is an idle one
      expect(warned).toEqual([]);
      consumer.deadline = 200; // due at 200 on a clock that stays at 100
      await turnsUntil(() => warned.length > 0);
      const polls = consumer.polls;
      await turnsUntil(() => consumer.polls >= polls + 20);
      await driver.close();
      expect(warned).toEqual([[expect.stringMatching(/^run\(\): the clock has not moved in 5 s of real time while a deadline is pending; run\(\) needs a clock that moves by itself/), { clockReading: 100, nextDeadline: 200 }]]);
    } finally {
      spy.mockRestore();
    }
  });

  /**
   * Run `body` with setTimeout, clearTimeout and performance faked (real ones back after, passed or
   * failed), on a driver of a recording consumer whose next deadline is `deadline`, with `options`,
   * and the warnings it logs.
   */
  async function onFakeTimers(
    deadline: number,
    options: Pick<DriverOptions, "clock" | "maxWaitMs">,
    body: (rig: { t: FakeTransport; consumer: RecordingCore; driver: Driver; warned: [string, unknown][] }) => Promise<void>,
  ): Promise<void> {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      const t = new FakeNet().endpoint("me");
      const consumer = new RecordingCore();
      consumer.deadline = deadline;
      const warned: [string, unknown][] = [];
      const logger = { debug() {}, info() {}, warn: (m: string, f: unknown) => warned.push([m, f]), error() {} };
      const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, logger, ...options });
      await body({ t, consumer, driver, warned });
    } finally {
      vi.useRealTimers();
    }
  }

  it("run() on a virtual clock over a transport whose wait never ends by itself (a MockNetwork's, on its own time): the warning still comes after 5 s of real time", () =>
    // (A fake of the mock: @ectp/transport-mock depends on this package, so its tests cannot import it.)
    // Due at 200 on a clock that stays at 100.
    onFakeTimers(200, { clock: manualClock(100) }, async ({ t, consumer, driver, warned }) => {
      let waits = 0;
      // Only an advance of the network's own clock would end it; the driver's abort drops it.
      t.waitForActivity = () => {
        waits++;
        return new Promise<void>(() => {});
      };
      const loop = driver.run();
      await vi.advanceTimersByTimeAsync(4_999);
      expect([waits, warned]).toEqual([1, []]); // one step, then the wait
      // Before, the loop stayed in that wait for good: no further step, and no warning.
      await vi.advanceTimersByTimeAsync(1);
      expect(warned).toEqual([[expect.stringMatching(/^run\(\): the clock has not moved in 5 s of real time while a deadline is pending/), { clockReading: 100, nextDeadline: 200 }]]);
      expect(consumer.polls).toBe(2);
      // Once warned, nothing more to watch: the next wait is the transport's alone (no step every 5 s).
      await vi.advanceTimersByTimeAsync(60_000);
      expect([consumer.polls, waits, warned.length]).toEqual([2, 2, 1]);
      driver.stop();
      await loop;
    }));

  it("with a clock of its own that moves (real time read another way), run()'s real-time bound on its waits adds no step while the transport's wait goes on", () =>
    // A deadline pending, far off.
    onFakeTimers(1e12, { clock: { now: () => performance.now() }, maxWaitMs: 1_000 }, async ({ consumer, driver, warned }) => {
      const loop = driver.run();
      await vi.advanceTimersByTimeAsync(20_000);
      // One step per transport wait of maxWaitMs (the first at 0): the bound (5 s ahead each turn) never ends one.
      expect([consumer.polls, warned]).toEqual([21, []]);
      driver.stop();
      await loop;
    }));

  it("[P8] a newer epoch's connect has its own connectTimeoutMs, counted from when it started", () => {
    const t = new FakeNet().endpoint("me");
    t.connectResult = new Promise<void>(() => {});
    const consumer = new RecordingCore();
    const clock = manualClock();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock, connectTimeoutMs: 1_000 });
    consumer.outputs = [connectTo("p", 1)];
    driver.step();
    clock.advance(900);
    consumer.outputs = [connectTo("p", 2)]; // the peer restarted while its old metadata was loading
    driver.step();
    clock.advance(100); // 1 000 ms after the first connect, 100 ms after the second
    driver.step();
    expect(consumer.calls).toEqual([]);
    expect(t.disconnects).toEqual([]);
    clock.advance(900); // 1 000 ms after the second
    driver.step();
    expect(consumer.calls).toEqual(["unreachable:p"]);
    expect(t.disconnects).toEqual(["p"]);
  });
});

describe("Driver: a transport breaking its contract [I1]", () => {
  it("[I1] a poll without its unreachable list keeps the messages and reads it did give, and does not throw", () => {
    const net = new FakeNet();
    const t = net.endpoint("me");
    const consumer = new RecordingCore();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock() });
    const poll = t.poll.bind(t);
    t.poll = () => {
      const a = poll();
      return { messages: a.messages, reads: a.reads } as unknown as TransportActivity;
    };
    t.inject("p", wire("p", { readGrant: { attemptId: 1, grantId: 1 } }));
    t.startRead({ readId: 4, peerId: "ghost", source: new Uint8Array(0), destination: { region: { id: 1, bytes: new Uint8Array(1) }, offset: 0, length: 1 } });
    expect(() => driver.step()).not.toThrow();
    expect(consumer.calls).toEqual(["read:4:failed", "env:p:readGrant"]);
  });
});

describe("Driver: a transport's poll entries [I1]", () => {
  const good = {
    messages: [{ from: "p", bytes: wire("p", { readGrant: { grantId: 1 } }) }],
    reads: [{ readId: 2, status: "done" }],
    unreachable: ["q"],
  };
  /** `list` after a hole (an index never set: `every` skips it, `for...of` yields undefined). */
  const afterHole = (list: readonly unknown[]): unknown[] => {
    const holed: unknown[] = [];
    holed.length = 1;
    holed.push(...list);
    return holed;
  };
  // Bad entries in every list at once, and in each list alone (the other lists well formed); holes too.
  const polls: [string, Record<string, unknown[]>][] = [
    ["every list", { messages: [null, ...good.messages], reads: [null, 7, ...good.reads], unreachable: [null, ...good.unreachable] }],
    ...(["messages", "reads", "unreachable"] as const).map((list): [string, Record<string, unknown[]>] => [`${list} alone`, { ...good, [list]: [null, ...good[list]] }]),
    ...(["messages", "reads", "unreachable"] as const).map((list): [string, Record<string, unknown[]>] => [`${list} with a hole`, { ...good, [list]: afterHole(good[list]) }]),
  ];
  it.each(polls)("[I1] entries that are not objects (or peer ids) in %s do not throw into the engine; the good ones are kept, the bad logged", (_, activity) => {
    const t = new FakeNet().endpoint("me");
    const consumer = new RecordingCore();
    const logged: [string, unknown][] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (m: string, fields?: unknown) => logged.push([m, fields]) };
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock(), logger });
    t.poll = () => activity as unknown as TransportActivity;
    expect(() => driver.step()).not.toThrow();
    expect(consumer.calls).toEqual(["read:2:done", "unreachable:q", "env:p:readGrant"]);
    const lists = (["messages", "reads", "unreachable"] as const).filter((l) => activity[l] !== (good as Record<string, unknown[]>)[l]);
    // The first bad entry of the first list with one: null, or (a hole) nothing.
    const example = (activity[lists[0] as string] as unknown[])[0] === null ? "null" : "nothing";
    expect(logged).toEqual([
      ["transport.poll returned entries that are not objects (or peer ids); they are left out (logged once: later ones are left out the same way)", { lists, example }],
    ]);
    // A broken transport breaks every poll: logged once per driver, left out the same way each time.
    expect(() => driver.step()).not.toThrow();
    expect(consumer.calls).toEqual(["read:2:done", "unreachable:q", "env:p:readGrant", "read:2:done", "unreachable:q", "env:p:readGrant"]);
    expect(logged).toHaveLength(1);
  });
});

describe("Driver: reads queued behind a connect", () => {
  it("[I5][C8] once a queued read was cancelled, its id used again for a read started on the connection is cancelled through the transport", async () => {
    const { t, d } = pendingConnect("p");
    const consumer = new RecordingCore();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock() });
    consumer.outputs = [connectTo(), startRead(1), { type: "cancel-read", readId: 1 }];
    driver.step();
    driver.step();
    expect(consumer.calls).toEqual(["read:1:cancelled"]); // settled: its id may be used again
    d.resolve();
    await flush();
    // The id again, now for a read the transport runs: a made-up "cancelled" would free a
    // destination the transport may still write into.
    t.startRead = (op) => void t.started.push(op); // a read that stays in flight
    consumer.outputs = [startRead(1)];
    driver.step();
    consumer.outputs = [{ type: "cancel-read", readId: 1 }];
    driver.step();
    driver.step();
    expect(t.started.map((r) => r.readId)).toEqual([1]);
    expect(t.cancelled).toEqual([1]);
    expect(consumer.calls).toEqual(["read:1:cancelled"]); // no second, made-up result
  });
});

describe("Driver: what a connection leaves behind", () => {
  it("[P8] a connect that timed out leaves no connection: the older epoch's load that completes late is undone", async () => {
    const net = new FakeNet();
    const t = net.endpoint("me");
    net.endpoint("x");
    const consumer = new RecordingCore();
    const clock = manualClock();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock, connectTimeoutMs: 1_000 });
    consumer.outputs = [connectTo("x", 1)];
    driver.step();
    await flush(); // connected at epoch 1
    const late = deferred();
    t.connectResult = late.promise;
    consumer.outputs = [connectTo("x", 2)]; // the peer restarted
    driver.step();
    clock.advance(1_000);
    driver.step(); // epoch 2's load timed out
    expect(consumer.calls).toEqual(["unreachable:x"]);
    expect(t.disconnects).toEqual(["x"]);
    late.resolve(); // the load completes after all: nothing of x is up or under way, so it is undone
    await flush();
    expect(t.disconnects).toEqual(["x", "x"]);
  });

  it("[P8] after disconnect-peer of a connected peer, a connect-peer for the same epoch connects again", async () => {
    const net = new FakeNet();
    const t = net.endpoint("me");
    net.endpoint("p");
    const consumer = new RecordingCore();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock() });
    consumer.outputs = [connectTo("p", 1)];
    driver.step();
    await flush(); // connected
    consumer.outputs = [{ type: "disconnect-peer", peerId: "p" }];
    driver.step();
    expect(t.disconnects).toEqual(["p"]);
    consumer.outputs = [connectTo("p", 1), heartbeatTo("p")];
    driver.step();
    expect(t.connects).toEqual([
      { peerId: "p", epoch: 1 },
      { peerId: "p", epoch: 1 },
    ]);
    await flush();
    expect(t.sentTo.map((m) => m.peerId)).toEqual(["p"]);
  });

  it("[P8] a connect that failed is held by no core: the other core's disconnect-peer reaches the transport", async () => {
    const { t, consumer, producer, driver } = routingRig();
    const d = deferred();
    t.connectResult = d.promise;
    (consumer as RecordingCore).outputs = [connectTo("x", 1)];
    driver.step();
    d.reject(new Error("bad metadata"));
    await flush();
    driver.step();
    expect(consumer?.calls).toEqual(["unreachable:x"]);
    (producer as RecordingCore).outputs = [{ type: "disconnect-peer", peerId: "x" }];
    driver.step();
    expect(t.disconnects).toEqual(["x"]);
  });
});

describe("Driver: event batches [E1]", () => {
  it("[E1] without an onEventBatch hook an event batch is dropped quietly: nothing is logged as a fault", () => {
    const t = new FakeNet().endpoint("me");
    const producer = new RecordingCore();
    const logged: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) };
    const driver = new Driver({ transport: t, producer: producer as unknown as ProducerCore, clock: manualClock(), logger });
    producer.outputs = [{ type: "event-batch", batch: { sequence: 1, events: [] } }];
    expect(() => driver.step()).not.toThrow();
    expect(logged).toEqual([]);
  });
});

describe("Driver: run()'s waits", () => {
  it("run() sleeps again after a wake(): one wake ends one wait, it does not turn the loop into a spin", async () => {
    const t = new FakeNet().endpoint("me");
    let waits = 0;
    t.waitForActivity = () => {
      waits++;
      return new Promise<void>(() => {}); // only the driver can end a wait
    };
    const producer = new RecordingCore();
    producer.deadline = undefined;
    const driver = new Driver({ transport: t, producer: producer as unknown as ProducerCore, maxWaitMs: 3_600_000 });
    const done = driver.run();
    await new Promise((r) => setTimeout(r, 5)); // the loop is in its hour-long wait
    expect([producer.polls, waits]).toEqual([1, 1]);
    driver.wake();
    await new Promise((r) => setTimeout(r, 20));
    expect([producer.polls, waits]).toEqual([2, 2]); // one step, then asleep again
    driver.stop();
    await done;
  });
});

describe("Driver: options", () => {
  it("rejects a transport of null and a maxWaitMs that is not a finite number with INVALID_CONFIG", () => {
    const transport = new FakeNet().endpoint("me");
    const producer = new RecordingCore() as unknown as ProducerCore;
    expect(() => new Driver({ transport: null as unknown as Transport, producer })).toThrow(
      "[INVALID_CONFIG] Driver needs options.transport (a Transport implementation)",
    );
    for (const maxWaitMs of [Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => new Driver({ transport, producer, maxWaitMs }), String(maxWaitMs)).toThrow(/\[INVALID_CONFIG\] options\.maxWaitMs/);
  });
});

describe("Driver.nextDeadline", () => {
  it("is the earliest of the cores' deadlines and the pending connects' timeouts, undefined when none is pending", async () => {
    const clock = manualClock(1_000);
    const t = new FakeNet().endpoint("me");
    const consumer = new RecordingCore();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock, connectTimeoutMs: 100 });
    expect(driver.nextDeadline()).toBeUndefined();
    consumer.deadline = 1_500;
    expect(driver.nextDeadline()).toBe(1_500);
    const d = deferred();
    t.connectResult = d.promise;
    consumer.outputs = [connectTo("p")];
    driver.step();
    expect(driver.nextDeadline()).toBe(1_100); // the connect fails then unless it resolves
    d.resolve();
    await flush();
    expect(driver.nextDeadline()).toBe(1_500);
    expect(driver.hasWork).toBe(false);
  });
});

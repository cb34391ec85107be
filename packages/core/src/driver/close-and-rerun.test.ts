// Driver.close(): what it sends before the transport closes, what it settles after, that it runs
// once however often it is called, and that nothing steps afterwards; and run() started again.
import { describe, expect, it } from "vitest";
import type { ConsumerCore } from "../consumer/consumer.js";
import type { CoreOutput } from "../outputs.js";
import type { ProducerCore } from "../producer/producer.js";
import type { ReadResult, ReadStatus } from "../transport.js";
import { Driver } from "./driver.js";
import { FakeNet, RecordingCore, connectTo, deferred, flush, heartbeatTo, manualClock, startRead, waitUntil, wire } from "./test-support.js";

/** Transport `me` (peer `q` exists) whose sends, polls and close are recorded in `order`, in order. */
function recordingTransport() {
  const net = new FakeNet();
  const t = net.endpoint("me");
  net.endpoint("q");
  const order: string[] = [];
  const send = t.send.bind(t);
  t.send = (peerId, bytes) => {
    order.push(`send:${peerId}`);
    send(peerId, bytes);
  };
  const poll = t.poll.bind(t);
  t.poll = () => {
    order.push("poll");
    return poll();
  };
  t.close = async () => {
    order.push("close");
  };
  return { t, order };
}

/** A consumer-only driver over a {@link recordingTransport}. */
function rig(maxWaitMs?: number) {
  const { t, order } = recordingTransport();
  const consumer = new RecordingCore();
  const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock(), maxWaitMs });
  return { t, consumer, driver, order };
}

/** Settle `p` and report whether it settled within a few turns of the event loop. */
async function settlesSoon(p: Promise<unknown>): Promise<boolean> {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 5; i++) await flush();
  return settled;
}

describe("Driver.close()", () => {
  it("[I5] sends what the cores queued before it closes the transport, then steps no more: step() and run() do nothing", async () => {
    const { t, consumer, driver, order } = rig();
    consumer.outputs = [heartbeatTo("q")]; // e.g. the ReadComplete of a request finished just before
    await driver.close();
    expect(order).toEqual(["poll", "send:q", "close", "poll"]);
    consumer.outputs = [heartbeatTo("q")];
    t.inject("q", wire("q", { heartbeat: { sequence: 1 } }));
    driver.step();
    await driver.run();
    expect(driver.isRunning).toBe(false);
    expect(order).toEqual(["poll", "send:q", "close", "poll"]); // nothing polled, nothing sent
    expect(consumer.calls).toEqual([]);
  });

  it("[I5] a read started after the transport closed (a grant that arrived meanwhile) is failed and its result reaches the consumer", async () => {
    const { t, consumer, driver } = rig();
    t.close = async () => {
      // What the last step's poll brings makes the core start a read; the closed transport refuses it.
      consumer.outputs = [startRead(5, "q")];
      t.startRead = () => {
        throw new Error("transport closed");
      };
    };
    await driver.close();
    expect(consumer.calls).toEqual(["read:5:failed"]);
    expect(driver.hasWork).toBe(false);
  });

  it("[I5] a read result with a status that settles nothing does not end close()'s wait for that read; the settling one does", async () => {
    const { t, consumer, driver } = rig();
    const results: ReadResult[][] = [];
    t.close = async () => {
      consumer.outputs = [startRead(5, "q")]; // started by the last step, on a transport that takes it
      t.startRead = () => {
        results.push([{ readId: 5, status: "stalled" as ReadStatus }], [], [], [{ readId: 5, status: "done", bytesRead: 1 }]);
      };
    };
    t.poll = () => ({ messages: [], reads: results.shift() ?? [], unreachable: [] });
    await driver.close();
    expect(consumer.calls).toEqual(["read:5:stalled", "read:5:done"]);
  });

  it("[I1] stops stepping after 16 steps past the transport's close while reads keep failing: close() always ends", async () => {
    const { t, consumer, driver } = rig();
    let polls = 0;
    let closed = false;
    t.close = async () => {
      closed = true;
      t.startRead = () => {
        throw new Error("transport closed");
      };
    };
    consumer.poll = (): CoreOutput[] => {
      if (!closed) return [];
      return ++polls < 100 ? [startRead(polls, "q")] : []; // a core that would start a read every step
    };
    await driver.close();
    expect(polls).toBe(16);
  });

  it("[I5] when its steps run out, the results the driver still holds reach the consumer, and hasWork ends", async () => {
    const { t, consumer, driver } = rig();
    let closed = false;
    t.close = async () => {
      closed = true;
    };
    const started: number[] = [];
    t.startRead = (op) => {
      started.push(op.readId);
      throw new Error("transport closed");
    };
    let next = 0;
    consumer.poll = (): CoreOutput[] => (closed && next < 100 ? [startRead(++next, "q")] : []); // a core that starts a read every step
    await driver.close();
    // Before, the read started in the last step had its result held by the driver for good, and
    // hasWork stayed true (a loop on virtual time stepping this driver never moved time again).
    const heard = consumer.calls.filter((c) => c.startsWith("read:")).map((c) => Number(c.split(":")[1]));
    expect(heard).toEqual(started);
    expect(driver.hasWork).toBe(false);
  });

  it("[I5] what a core queues behind a connect asked for in close()'s step is sent when that connect completes in its turns", async () => {
    const { consumer, driver, order } = rig();
    consumer.outputs = [connectTo("q", 1), heartbeatTo("q")]; // (a shutting-down producer's Hello and reject go out this way)
    await driver.close();
    // Before, the connect was abandoned without a turn of the event loop: nothing was sent.
    expect(order.filter((o) => o !== "poll")).toEqual(["send:q", "close"]);
  });

  it("called again while it runs or after it ended, returns the first call's promise: the transport is closed once", async () => {
    const { t, driver } = rig();
    const transportClosed = deferred();
    let closes = 0;
    t.close = () => {
      closes++;
      return transportClosed.promise;
    };
    const first = driver.close();
    const second = driver.close();
    expect(second).toBe(first);
    expect(await settlesSoon(second)).toBe(false); // not before the transport has closed
    transportClosed.resolve();
    await first;
    expect(driver.close()).toBe(first);
    expect(closes).toBe(1);
  });

  it("a transport whose close rejects is logged; the last step is still taken and close() resolves", async () => {
    const logged: string[] = [];
    const t = new FakeNet().endpoint("me");
    let closed = false;
    t.close = () => {
      closed = true;
      return Promise.reject(new Error("device lost"));
    };
    const consumer = new RecordingCore();
    const poll = consumer.poll.bind(consumer);
    consumer.poll = () => {
      if (closed) consumer.calls.push("polled after close");
      return poll();
    };
    const logger = { debug() {}, info() {}, warn() {}, error: (m: string) => logged.push(m) };
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock(), logger });
    await driver.close();
    expect(logged).toEqual(["transport.close rejected"]);
    expect(consumer.calls).toEqual(["polled after close"]);
  });

  it("during run() ends the loop (whose wait would last an hour) and resolves after run()'s promise", async () => {
    const { driver, order } = rig(3_600_000);
    let runEnded = false;
    const running = driver.run().then(() => (runEnded = true));
    await new Promise((r) => setTimeout(r, 5)); // the loop is in its hour-long wait
    await driver.close();
    expect(runEnded).toBe(true);
    expect(order).toEqual(["poll", "poll", "close", "poll"]); // the loop's one step, then close()'s two
    await running;
  });

  it("run() while close() waits for the transport starts no loop and takes no step", async () => {
    const { t, driver, order } = rig();
    const transportClosed = deferred();
    t.close = () => transportClosed.promise;
    const closing = driver.close();
    await flush();
    const polls = order.length;
    const running = driver.run();
    expect(driver.isRunning).toBe(false);
    await running;
    transportClosed.resolve();
    await closing;
    expect(order.length).toBe(polls + 1); // close()'s last step only
  });
});

describe("Driver.close() with a connect still pending, and from inside a step", () => {
  /** A consumer-only driver whose connect to `p` stays pending until `connect` settles; what reaches the transport once closed is recorded. */
  function pendingConnectRig() {
    const net = new FakeNet();
    const t = net.endpoint("me");
    net.endpoint("p");
    const connect = deferred();
    t.connectResult = connect.promise; // a slow connect (e.g. NIXL loading a peer's metadata)
    let closed = false;
    const close = t.close.bind(t);
    t.close = async () => {
      closed = true;
      await close();
    };
    const afterClose: string[] = [];
    const start = t.startRead.bind(t);
    t.startRead = (op) => {
      if (closed) afterClose.push(`read:${op.readId}`);
      start(op);
    };
    const send = t.send.bind(t);
    t.send = (peerId, bytes) => {
      if (closed) afterClose.push(`send:${peerId}`);
      send(peerId, bytes);
    };
    const consumer = new RecordingCore();
    const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock() });
    return { connect, consumer, driver, afterClose };
  }

  it("[I5][I4] a read queued behind a pending connect has its one result by the time close() resolves", async () => {
    const { consumer, driver } = pendingConnectRig();
    consumer.outputs = [connectTo("p", 1), startRead(1, "p")];
    driver.step();
    await driver.close();
    expect(consumer.calls.filter((c) => c.startsWith("read:1:"))).toEqual(["read:1:failed:gone"]); // as when the connect fails
  });

  it("[I5] a connect that completes after close() starts no queued read and sends nothing on the closed transport", async () => {
    const { connect, consumer, driver, afterClose } = pendingConnectRig();
    consumer.outputs = [connectTo("p", 1), startRead(1, "p"), heartbeatTo("p")];
    driver.step();
    await driver.close();
    connect.resolve();
    await flush();
    expect(afterClose).toEqual([]);
  });

  it("close() from a hook inside step() (onEventBatch): the rest of what the step polled is sent before the transport closes", async () => {
    const { t, order } = recordingTransport();
    const core = new RecordingCore();
    let closing: Promise<void> | undefined;
    const driver: Driver = new Driver({
      transport: t,
      producer: core as unknown as ProducerCore,
      clock: manualClock(),
      onEventBatch: () => {
        closing = driver.close();
      },
    });
    core.outputs = [{ type: "event-batch", batch: { sequence: 1 } }, heartbeatTo("q")];
    driver.step();
    await closing;
    expect(order.filter((o) => o !== "poll")).toEqual(["send:q", "close"]);
  });
});

describe("Driver.run() again", () => {
  it("run() after its loop ended (stop(), awaited) starts a new loop that steps", async () => {
    const { t, consumer, driver } = rig(5);
    const first = driver.run();
    driver.stop();
    await first;
    t.inject("q", wire("q", { readGrant: { grantId: 1 } }));
    const second = driver.run();
    expect(second).not.toBe(first);
    expect(driver.isRunning).toBe(true);
    await waitUntil(() => consumer.calls.length > 0);
    expect(consumer.calls).toEqual(["env:q:readGrant"]);
    driver.stop();
    await second;
  });

  it("wake() made while a waitForActivity rejects skips the sleep that would follow: the loop steps again at once", async () => {
    const { t, driver, order } = rig(3_600_000);
    t.waitForActivity = () => {
      driver.wake(); // news (e.g. an admit) lands between the wait's start and its rejection
      return Promise.reject(new Error("interrupted"));
    };
    const done = driver.run();
    await waitUntil(() => order.filter((o) => o === "poll").length >= 5, 1_000);
    driver.stop();
    await done;
    expect(order.filter((o) => o === "poll").length).toBeGreaterThanOrEqual(5);
  });

  it("while work is due at once (a deadline now), passes through the event loop after every step", async () => {
    const { consumer, driver, order } = rig(3_600_000);
    consumer.deadline = 0; // the clock reads 0: always due
    const stepsPerTurn: number[] = [];
    let seen = 0;
    const done = driver.run();
    for (let turn = 0; turn < 20; turn++) {
      await new Promise((r) => setImmediate(r));
      const polls = order.length;
      stepsPerTurn.push(polls - seen);
      seen = polls;
    }
    driver.stop();
    await done;
    expect(Math.max(...stepsPerTurn)).toBeLessThanOrEqual(2);
    expect(seen).toBeGreaterThan(5);
  });
});

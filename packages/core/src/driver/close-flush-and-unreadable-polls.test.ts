// Findings of a review of the Driver (reproduced against the built core before each fix): close()
// gave the reads in flight at close one poll to report their results; a step run from a hook during a
// connect's flush started a read it had just settled as cancelled; a poll result whose lists could
// not be read threw into the engine; and cancelling reads queued behind a connect was a scan each.
import { describe, expect, it } from "vitest";
import type { ConsumerCore } from "../consumer/consumer.js";
import { NOOP_LOGGER } from "../observability.js";
import type { ReadResult, TransportActivity } from "../transport.js";
import { Driver } from "./driver.js";
import { FakeNet, RecordingCore, connectTo, deferred, flush, heartbeatTo, manualClock, startRead } from "./test-support.js";

/** A consumer-only driver over transport `me` (peer `p` exists) whose errors are kept. */
function rig(options: { logger?: { error: (message: string) => void } } = {}) {
  const net = new FakeNet();
  const t = net.endpoint("me");
  net.endpoint("p");
  const consumer = new RecordingCore();
  const errors: string[] = [];
  const logger = { ...NOOP_LOGGER, error: options.logger?.error ?? ((message: string) => errors.push(message)) };
  const driver = new Driver({ transport: t, consumer: consumer as unknown as ConsumerCore, clock: manualClock(), logger });
  return { t, consumer, driver, errors };
}

describe("[I5] Driver.close() hears every read that was in flight when it closed the transport", () => {
  /**
   * Reads 1 and 2 in flight on a transport that settles nothing until its close, which settles both
   * `cancelled`; after the close, `afterClose` answers each poll with what it is given of the results.
   */
  async function closeWithTwoReads(afterClose: (pollsSinceClose: number, results: ReadResult[]) => TransportActivity) {
    const { t, consumer, driver, errors } = rig();
    const running: number[] = [];
    t.startRead = (op) => {
      t.started.push(op);
      running.push(op.readId);
    };
    const results: ReadResult[] = [];
    let closed = false;
    let polls = 0;
    const openPoll = t.poll.bind(t);
    t.poll = () => (closed ? afterClose(++polls, results) : openPoll());
    t.close = async () => {
      closed = true;
      for (const readId of running.splice(0)) results.push({ readId, status: "cancelled" });
    };
    consumer.outputs = [startRead(1), startRead(2)];
    driver.step();
    expect(consumer.readsInFlight.size).toBe(2);
    await driver.close();
    return { consumer, errors };
  }

  it("[I5] when the first poll after the close throws (the next one hands the results over)", async () => {
    const { consumer, errors } = await closeWithTwoReads((polls, results) => {
      if (polls === 1) throw new Error("drain failed; the next poll drains again");
      return { messages: [], reads: results.splice(0), unreachable: [] };
    });
    expect(consumer.calls).toEqual(["read:1:cancelled", "read:2:cancelled"]);
    expect(consumer.readsInFlight.size).toBe(0);
    expect(errors).toEqual(["transport.poll threw; nothing received this step"]);
  });

  it("[I5] when the transport hands the results over one per poll", async () => {
    const { consumer } = await closeWithTwoReads((_polls, results) => ({ messages: [], reads: results.splice(0, 1), unreachable: [] }));
    expect(consumer.calls).toEqual(["read:1:cancelled", "read:2:cancelled"]);
    expect(consumer.readsInFlight.size).toBe(0);
  });
});

describe("[I5] a read queued behind a connect, cancelled by a step run from a hook during the connect's flush", () => {
  it("[I5][C7] is settled once, cancelled, and never started on the transport", async () => {
    let driver: Driver | undefined;
    let kicked = false;
    const { t, consumer, driver: d } = rig({
      // Engine code that steps its loop when an error is logged (here: the queued heartbeat's send
      // failing in the flush), and whose core cancels read 7, still queued behind the heartbeat.
      logger: {
        error: (message) => {
          if (kicked || !message.startsWith("transport.send threw")) return;
          kicked = true;
          consumer.outputs = [{ type: "cancel-read", readId: 7 }];
          driver?.step();
        },
      },
    });
    driver = d;
    const connect = deferred();
    t.connectResult = connect.promise;
    t.send = () => {
      throw new Error("link down");
    };
    consumer.outputs = [connectTo(), heartbeatTo("p"), startRead(7)];
    d.step();
    connect.resolve();
    await flush();
    d.step();
    expect(kicked).toBe(true);
    expect(t.started).toEqual([]);
    expect(consumer.calls).toEqual(["read:7:cancelled"]);
  });

  it("[I5] reads cancelled while queued are passed over when the connect completes, and when it fails: each read gets one result", async () => {
    for (const outcome of ["resolves", "rejects"] as const) {
      const { t, consumer, driver } = rig();
      const connect = deferred();
      t.connectResult = connect.promise;
      t.startRead = (op) => void t.started.push(op); // (runs: no result yet)
      consumer.outputs = [connectTo(), startRead(1), startRead(2), startRead(3), startRead(4)];
      driver.step();
      consumer.outputs = [
        { type: "cancel-read", readId: 3 },
        { type: "cancel-read", readId: 1 },
      ];
      driver.step();
      if (outcome === "resolves") connect.resolve();
      else connect.reject(new Error("no route"));
      await flush();
      driver.step();
      expect(t.started.map((op) => op.readId)).toEqual(outcome === "resolves" ? [2, 4] : []);
      expect(consumer.calls.filter((c) => c.startsWith("read:")).sort()).toEqual(
        outcome === "resolves" ? ["read:1:cancelled", "read:3:cancelled"] : ["read:1:cancelled", "read:2:failed:gone", "read:3:cancelled", "read:4:failed:gone"],
      );
    }
  });
});

describe("[I1] a poll result that cannot be read does not throw into the engine", () => {
  const read: ReadResult = { readId: 9, status: "done", bytesRead: 1 };
  const unreadable: [string, () => TransportActivity][] = [
    [
      "a list getter that throws",
      () =>
        ({
          get messages(): never {
            throw new Error("transport bug");
          },
          reads: [],
          unreachable: [],
        }) as TransportActivity,
    ],
    [
      "a revoked Proxy",
      () => {
        const { proxy, revoke } = Proxy.revocable({ messages: [], reads: [], unreachable: [] }, {});
        revoke();
        return proxy;
      },
    ],
    [
      "a list whose entries throw when read",
      () =>
        ({
          messages: [],
          reads: new Proxy([read], {
            get(target, key, receiver) {
              if (key === "0") throw new Error("entry gone");
              return Reflect.get(target, key, receiver);
            },
          }),
          unreachable: [],
        }) as TransportActivity,
    ],
  ];
  for (const [what, activity] of unreadable)
    it(`[I1] ${what}: the step counts nothing received, logged, and the next poll is taken`, () => {
      const { t, consumer, driver, errors } = rig();
      let polls = 0;
      t.poll = () => (++polls === 1 ? activity() : { messages: [], reads: [read], unreachable: [] });
      expect(() => driver.step()).not.toThrow();
      expect(errors).toEqual(["transport.poll returned a result that could not be read; nothing received this step"]);
      driver.step();
      expect(consumer.calls).toEqual(["read:9:done"]);
    });

  it("[I1] a list getter that empties its list as it is read hands its results over once, read once", () => {
    const { t, consumer, driver } = rig();
    let pending: ReadResult[] = [read];
    let reads = 0;
    t.poll = () =>
      ({
        messages: [],
        get reads(): ReadResult[] {
          reads++;
          const list = pending;
          pending = [];
          return list;
        },
        unreachable: [],
      }) as unknown as TransportActivity;
    driver.step();
    expect(consumer.calls).toEqual(["read:9:done"]);
    expect(reads).toBe(1);
  });
});

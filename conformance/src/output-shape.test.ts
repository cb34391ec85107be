/**
 * The shape of each `PollResult` output is checked before anything acts on it (runner/output-shape.ts),
 * at the scripted level and at both randomised levels. Found by a review with fake testees: an output
 * that set no kind (what a binary frame decodes to when the testee's testee.proto numbers a kind the
 * runner does not know) was kept unread, so a case failed later naming an output it never saw, or
 * passed; a cancel_read of read 0 and a connect_peer, disconnect_peer or event_batch with nothing in
 * it passed unchecked. Each test fails without the check.
 */
import * as core from "@ectp/core";
import { describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import { loadCases } from "./cases/load.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import type { ectp } from "./proto.js";
import { runRandomised } from "./random/randomised.js";
import { runSubscriberRandomised } from "./random/subscriber-randomised.js";
import { runSuite } from "./runner/suite.js";
import { inProcessTestee } from "./testee/in-process.js";

type Output = ectp.conformance.v1.IOutput;

/** The TS reference testee with `extra` added to the end of its first poll that has outputs. */
function withExtraOutput(extra: Output) {
  return () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    let added = false;
    return inProcessTestee({
      handle: (req) => {
        const res = h.handle(req);
        const outs = res.poll?.outputs;
        if (!added && res.poll && outs && outs.length > 0) {
          added = true;
          res.poll = { ...res.poll, outputs: [...outs, extra] };
        }
        return res;
      },
    });
  };
}

const CASE = "consumer/c1-admission/remote-load-happy-path";

/** The message the case fails with when the TS reference testee adds `extra` to its first poll with outputs. */
async function scriptedFailure(extra: Output): Promise<string | undefined> {
  const c = loadCases().find((x) => x.fullName === CASE);
  if (!c) throw new Error(`no case ${CASE}`);
  const report = await runSuite({ testee: withExtraOutput(extra), features: TS_TESTEE_FEATURES, cases: [structuredClone(c)], level: "all" });
  const [result] = report.results;
  expect(result?.status).toBe("failed");
  return result?.message;
}

describe("TESTEE-PROTOCOL.md §5.2: the shape of each output", () => {
  it("an output that sets no kind fails the case there, saying what to check", async () => {
    expect(await scriptedFailure({})).toMatch(
      /^poll at t=\d+, output \d+ of \d+ sets no kind: an Output sets exactly one of send, start_read, cancel_read, connect_peer, disconnect_peer, event_batch \(TESTEE-PROTOCOL\.md §5\.2\); binary frames drop a field number this runner does not know when decoding: is the testee's testee\.proto current\?\n/,
    );
  });

  it("a cancel_read of read 0, and a connect_peer, disconnect_peer or event_batch with nothing in it, fail the case naming what is missing", async () => {
    expect(await scriptedFailure({ cancelRead: {} })).toMatch(/: cancel_read has read_id 0; it names the read_id of a start_read, and read ids are > 0/);
    expect(await scriptedFailure({ connectPeer: {} })).toMatch(/: connect_peer has no peer_id; it names the peer to connect to/);
    expect(await scriptedFailure({ disconnectPeer: {} })).toMatch(/: disconnect_peer has no peer_id; it names the peer to forget/);
    expect(await scriptedFailure({ eventBatch: {} })).toMatch(/: event_batch has no batch; it carries the batch published \[E1\]/);
  });

  it("at the randomised levels, an output that sets no kind fails the seed", async () => {
    const ts = () => inProcessTestee(new CoreTesteeHandler(core as unknown as CoreModule));
    const [pair] = await runRandomised({ consumer: withExtraOutput({}), producer: ts, seeds: [1], features: TS_TESTEE_FEATURES });
    expect(pair?.status).toBe("failed");
    expect(pair?.message).toMatch(/C1's poll at t=\d+, an output sets no kind: an Output sets exactly one of/);
    const [follow] = await runSubscriberRandomised({ producer: withExtraOutput({}), subscriber: ts, seeds: [1], features: [...TS_TESTEE_FEATURES, "events"], level: "all" });
    expect(follow?.status).toBe("failed");
    expect(follow?.message).toMatch(/the producer's poll at t=\d+, an output sets no kind: an Output sets exactly one of/);
  }, 120_000);
});

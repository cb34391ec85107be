/**
 * The `decodeStream` step and the TS testee's DecodeStream (feature stream-framing): SPEC.md
 * section 5's byte-stream framing run through a testee's own stream decoder. The runner builds the
 * chunks a case writes and checks the frames (each at the chunk that completed it) and the outcome;
 * the TS testee feeds `@ectp/protocol`'s FrameDecoder, or a mutant bundle's copy of it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as core from "@ectp/core";
import { afterAll, describe, expect, it } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import type { LoadedCase } from "./cases/format.js";
import { loadCases } from "./cases/load.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import { TesteeRequest, ectp } from "./proto.js";
import { CaseBug } from "./runner/match.js";
import { MAX_EXPECTED_FRAMES, MAX_STREAM_BYTES, MAX_STREAM_CHUNKS, decodedStreamProblem, malformedStreamAnswer, streamExpectation, streamInput } from "./runner/stream.js";
import { runSuite } from "./runner/suite.js";
import { inProcessTestee } from "./testee/in-process.js";

const work = mkdtempSync(join(tmpdir(), "ectp-stream-framing-test-"));
/** Writes a suite file where its name says (`stream/c10-x.json` under `dir`), as the case loader wants it. */
const writeSuite = (dir: string, suite: { suite: string }) => {
  mkdirSync(join(dir, dirname(suite.suite)), { recursive: true });
  writeFileSync(join(dir, `${suite.suite}.json`), JSON.stringify(suite));
};
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SUITE = "stream/c10-stream-framing";
const CASES = loadCases().filter((c) => c.fullName.startsWith(`${SUITE}/`));
const O = ectp.conformance.v1.StreamOutcome;
const hex = (chunks: Uint8Array[]) => chunks.map((c) => Buffer.from(c).toString("hex"));

/** Runs `cases` against the TS testee, its answers to DecodeStream changed by `edit`. */
async function run(cases: LoadedCase[], edit: (r: ectp.conformance.v1.IDecodeStreamResult) => void = () => {}, features: readonly string[] = TS_TESTEE_FEATURES) {
  class Edited extends CoreTesteeHandler {
    override handle(req: ectp.conformance.v1.TesteeRequest) {
      const res = super.handle(req);
      if (res.decodeStream) edit(res.decodeStream);
      return res;
    }
  }
  return (await runSuite({ testee: () => inProcessTestee(new Edited(core as unknown as CoreModule)), features, cases })).results;
}

describe("decodeStream step: the chunks a case writes", () => {
  it("joins the pieces (a frame, a prefix alone, bytes as text, hex or one value repeated) and cuts them before each offset", () => {
    const s = streamInput({ stream: [{ frame: "hi" }, { prefix: 258 }, { bytes: { hex: "00 ff" } }, { bytes: { byte: 7, size: 3 } }], cutAt: [3, 9], maxFrameBytes: 5 });
    expect(hex(s.chunks)).toEqual(["000000", "026869000001", "0200ff070707"]);
    expect(s.maxFrameBytes).toBe(5);
    expect(hex(streamInput({ stream: [{ frame: "" }, { bytes: "a" }], cutAt: "every-byte" }).chunks)).toEqual(["00", "00", "00", "00", "61"]);
    expect(streamInput({ stream: [{ frame: "a" }] })).toEqual({ chunks: [new Uint8Array([0, 0, 0, 1, 0x61])], maxFrameBytes: undefined });
    expect(streamInput({ stream: [] }).chunks).toEqual([]);
  });

  it("a key it does not take, a piece or payload it cannot read, a cut outside the stream or out of order, a maximum past 2^32 - 1 are case bugs", () => {
    const bug = (arg: unknown, message: RegExp) => expect(() => streamInput(arg)).toThrow(message);
    bug({ stream: [], cut: [1] }, /decodeStream takes stream, cutAt, maxFrameBytes; got "cut"/);
    bug({ stream: [{ frame: "a", prefix: 1 }] }, /stream\[0\] is \{"frame": payload\}/);
    bug({ stream: [{ prefix: 2 ** 32 }] }, /stream\[0\] is/);
    bug({ stream: [{ frame: { hex: "0" } }] }, /stream\[0\]\.frame is a payload/);
    bug({ stream: [{ bytes: { byte: 256, size: 1 } }] }, /stream\[0\]\.bytes is a payload/);
    bug({ stream: [{ frame: "abc" }], cutAt: [3, 2] }, /increasing offsets inside the stream's 7 bytes \(1 to 6\); got \[3,2\]/);
    bug({ stream: [{ frame: "abc" }], cutAt: [7] }, /increasing offsets/);
    bug({ stream: [{ frame: "abc" }], cutAt: [0] }, /increasing offsets/);
    bug({ stream: [], maxFrameBytes: 2 ** 32 }, /maxFrameBytes is the receiver's maximum/);
    expect(() => streamInput({ stream: [{ bytes: 5 }] })).toThrow(CaseBug);
  });

  it("a stream is at most 32 MiB, all pieces together, in at most 65,536 chunks: more is a case bug", () => {
    expect(MAX_STREAM_BYTES).toBe(32 * 1024 * 1024);
    const fill = (size: number) => ({ bytes: { byte: 0, size } });
    expect(streamInput({ stream: [fill(MAX_STREAM_BYTES - 4), { prefix: 0 }] }).chunks[0]?.length).toBe(MAX_STREAM_BYTES);
    expect(() => streamInput({ stream: [fill(MAX_STREAM_BYTES - 3), { prefix: 0 }] })).toThrow(
      /decodeStream\.stream holds at most 33554432 bytes \(32 MiB\), all pieces together; its pieces up to \[1\] hold 33554433/,
    );
    expect(() => streamInput({ stream: [fill(MAX_STREAM_BYTES + 1)] })).toThrow(/stream\[0\]\.bytes is a payload: .*"size": 0-33554432/);
    expect(streamInput({ stream: [fill(MAX_STREAM_CHUNKS)], cutAt: "every-byte" }).chunks).toHaveLength(MAX_STREAM_CHUNKS);
    expect(() => streamInput({ stream: [fill(MAX_STREAM_CHUNKS + 1)], cutAt: "every-byte" })).toThrow(/into at most 65536 chunks; "every-byte" of 65537 bytes makes 65537/);
    const cuts = Array.from({ length: MAX_STREAM_CHUNKS }, (_, i) => i + 1);
    expect(() => streamInput({ stream: [fill(MAX_STREAM_CHUNKS + 1)], cutAt: cuts })).toThrow(/into at most 65536 chunks; 65536 offsets make 65537/);
  });

  it("a case file whose decodeStream step is written out is read as it is loaded: a stream past the bound is refused then; one with templates waits for its step", () => {
    const dir = mkdtempSync(join(work, "bound-"));
    const suite = (step: Record<string, unknown>) => ({
      suite: "consumer/c10-x",
      cases: [{ name: "x", requirements: ["C10"], level: "REQUIRED", role: "consumer", features: ["stream-framing"], steps: [{ repeat: { times: 1, steps: [step] } }] }],
    });
    const big = { stream: [{ bytes: { byte: 0, size: MAX_STREAM_BYTES } }, { prefix: 0 }] };
    writeSuite(dir, suite({ decodeStream: big, expect: { frames: [], outcome: "clean-end" } }));
    expect(() => loadCases(dir)).toThrow(/case "x": decodeStream\.stream holds at most 33554432 bytes/);
    writeSuite(dir, suite({ decodeStream: { stream: [] }, expect: { frames: [], outcome: "ended" } }));
    expect(() => loadCases(dir)).toThrow(/case "x": decodeStream's expect\.outcome is clean-end/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a case template ("${var}"), not a JS one
    writeSuite(dir, suite({ decodeStream: { stream: [{ frame: "${i}" }] }, expect: { frames: [], outcome: "ended" } }));
    expect(loadCases(dir)).toHaveLength(1);
  });
});

describe("decodeStream step: the check of the testee's answer", () => {
  const frame = (payload: string, chunk: number) => ({ payload: new TextEncoder().encode(payload), chunk });
  const answer = { frames: [frame("hi", 1)], outcome: O.STREAM_OUTCOME_MALFORMED_MESSAGE, outcomeChunk: 2 };
  const expected = { frames: [{ chunk: 1, payload: "hi" }], outcome: "malformed-message" };

  it("passes the expected frames at their chunks and the outcome at the stream's end", () => {
    expect(decodedStreamProblem(answer, expected, 2)).toBeUndefined();
    expect(decodedStreamProblem({ frames: [], outcome: O.STREAM_OUTCOME_FRAME_TOO_LARGE, outcomeChunk: 0 }, { frames: [], outcome: "frame-too-large", outcomeChunk: 0 }, 1)).toBeUndefined();
  });

  it("[C10] fails a frame handed out at a later chunk than the one that completed it, another payload, a missing frame, another outcome or its chunk", () => {
    expect(decodedStreamProblem({ ...answer, frames: [frame("hi", 2)] }, expected, 2)).toMatch(/expected the frames \["hi" at chunk 1\]; got \["hi" at chunk 2\]/);
    expect(decodedStreamProblem({ ...answer, frames: [frame("ho", 1)] }, expected, 2)).toMatch(/got \["ho" at chunk 1\]/);
    expect(decodedStreamProblem({ ...answer, frames: [] }, expected, 2)).toMatch(/got \[\]/);
    expect(decodedStreamProblem({ ...answer, outcome: O.STREAM_OUTCOME_CLEAN_END }, expected, 2)).toMatch(
      /expected the outcome STREAM_OUTCOME_MALFORMED_MESSAGE at chunk 2 \(the stream's end\); got STREAM_OUTCOME_CLEAN_END at chunk 2/,
    );
    expect(decodedStreamProblem({ ...answer, outcomeChunk: 1 }, expected, 2)).toMatch(/got STREAM_OUTCOME_MALFORMED_MESSAGE at chunk 1/);
    expect(decodedStreamProblem({ frames: [frame("\u0000\u0001", 0)] }, { frames: [], outcome: "clean-end" }, 1)).toMatch(/got \[<2 bytes: 0001> at chunk 0\]; expected the outcome/);
  });

  it("an expectation that could not be checked is a case bug: none, an unknown outcome or key, frame-too-large without its chunk, a frame without its chunk", () => {
    const bug = (expect_: unknown, message: RegExp) => expect(() => decodedStreamProblem(answer, expect_, 2)).toThrow(message);
    bug(undefined, /decodeStream needs "expect"/);
    bug({ frames: [], outcome: "too-large" }, /expect\.outcome is clean-end, frame-too-large, malformed-message; got "too-large"/);
    bug({ frames: [], outcome: "toString" }, /expect\.outcome is/);
    bug({ frames: [], outcome: "clean-end", chunk: 1 }, /expect takes frames, outcome, outcomeChunk; got "chunk"/);
    bug({ frames: [], outcome: "frame-too-large" }, /outcomeChunk is needed with "frame-too-large"/);
    bug({ frames: [], outcome: "clean-end", outcomeChunk: 3 }, /outcomeChunk is a chunk index, 0 to 2/);
    bug({ frames: ["hi"], outcome: "clean-end" }, /expect\.frames\[0\] is \{chunk: 0-1, payload\}/);
    bug({ frames: [{ chunk: 2, payload: "hi" }], outcome: "clean-end" }, /expect\.frames\[0\] is \{chunk: 0-1, payload\}/);
    const frames = Array.from({ length: MAX_EXPECTED_FRAMES + 1 }, () => ({ chunk: 0, payload: "" }));
    expect(() => streamExpectation({ frames, outcome: "clean-end" }, 1)).toThrow(/expect\.frames lists at most 65536 frames; got 65537/);
    expect(streamExpectation({ frames: frames.slice(1), outcome: "clean-end" }, 1).frames).toHaveLength(MAX_EXPECTED_FRAMES);
  });

  it("an answer without an outcome, with a frame's chunk that is no chunk of the stream or out of order, or an outcome_chunk past the end is malformed", () => {
    expect(malformedStreamAnswer(answer, 2)).toBeUndefined();
    expect(malformedStreamAnswer({ frames: [], outcome: O.STREAM_OUTCOME_CLEAN_END, outcomeChunk: 0 }, 0)).toBeUndefined();
    expect(malformedStreamAnswer({ ...answer, outcome: O.STREAM_OUTCOME_UNSPECIFIED }, 2)).toBe(
      "outcome is STREAM_OUTCOME_UNSPECIFIED; a DecodeStreamResult gives STREAM_OUTCOME_CLEAN_END, STREAM_OUTCOME_FRAME_TOO_LARGE, STREAM_OUTCOME_MALFORMED_MESSAGE",
    );
    expect(malformedStreamAnswer({ ...answer, outcome: undefined }, 2)).toMatch(/^outcome is STREAM_OUTCOME_UNSPECIFIED/);
    expect(malformedStreamAnswer({ ...answer, outcome: 9 as ectp.conformance.v1.StreamOutcome }, 2)).toMatch(/^outcome is 9;/);
    expect(malformedStreamAnswer({ ...answer, outcomeChunk: 3 }, 2)).toBe("outcome_chunk is 3, past the stream's end: the stream had 2 chunks, so it is 0 to 2");
    expect(malformedStreamAnswer({ ...answer, frames: [frame("hi", 2)] }, 2)).toBe("frames[0].chunk is 2, no chunk of the stream: it had 2 chunks, 0 to 1");
    expect(malformedStreamAnswer({ ...answer, frames: [frame("", 0)], outcomeChunk: 0 }, 0)).toBe("frames[0].chunk is 0, no chunk of the stream: it had 0 chunks");
    expect(malformedStreamAnswer({ ...answer, frames: [frame("a", 1), frame("b", 0)] }, 2)).toBe("frames[1].chunk is 0, before frames[0].chunk 1: frames are listed in stream order");
    expect(malformedStreamAnswer({ ...answer, frames: [frame("a", 1), frame("b", 1)] }, 2)).toBeUndefined();
  });
});

describe("the stream-framing cases against the TS testee", () => {
  it("[C10] pass as shipped; fail a testee that hands every frame out with the last chunk, or ends a cut stream cleanly", async () => {
    expect(CASES.length).toBeGreaterThanOrEqual(10);
    expect((await run(CASES)).filter((r) => r.status !== "passed")).toEqual([]);
    const split = CASES.filter((c) => c.fullName.endsWith("/frames-split-across-chunks-are-decoded-whole"));
    const late = await run(split, (r) => {
      for (const f of r.frames ?? []) f.chunk = Number(r.outcomeChunk) - 1;
    });
    expect(late[0]).toMatchObject({ status: "failed", message: expect.stringContaining('[C10] decodeStream at t=0: expected the frames ["hello" at chunk 3') });
    const cut = CASES.filter((c) => c.fullName.endsWith("/a-stream-ending-inside-a-payload-ends-malformed"));
    const clean = await run(cut, (r) => {
      r.outcome = O.STREAM_OUTCOME_CLEAN_END;
    });
    expect(clean[0]).toMatchObject({ status: "failed", message: expect.stringContaining("expected the outcome STREAM_OUTCOME_MALFORMED_MESSAGE") });
  });

  it("a malformed answer (no outcome, a frame at a chunk past the stream, frames out of order, an outcome_chunk past the end) fails as the testee's, not as [C10]", async () => {
    const split = CASES.filter((c) => c.fullName.endsWith("/frames-split-across-chunks-are-decoded-whole"));
    const edits: [(r: ectp.conformance.v1.IDecodeStreamResult) => void, string][] = [
      [
        (r) => {
          r.outcome = O.STREAM_OUTCOME_UNSPECIFIED;
        },
        "outcome is STREAM_OUTCOME_UNSPECIFIED",
      ],
      [
        (r) => {
          for (const f of r.frames ?? []) f.chunk = Number(r.outcomeChunk);
        },
        "frames[0].chunk is 6, no chunk of the stream: it had 6 chunks, 0 to 5",
      ],
      [(r) => r.frames?.reverse(), "frames[1].chunk is 3, before frames[0].chunk 5"],
      [
        (r) => {
          r.outcomeChunk = Number(r.outcomeChunk) + 1;
        },
        "outcome_chunk is 7, past the stream's end",
      ],
    ];
    for (const [edit, why] of edits) {
      const [result] = await run(split, edit);
      expect(result?.status).toBe("failed");
      expect(result?.message).toMatch(/^testee malformed: decodeStream at t=0 was answered with a malformed DecodeStreamResult: /);
      expect(result?.message).toContain(`${why}`);
      expect(result?.message).toContain("(TESTEE-PROTOCOL.md §5.5)\n  at step 1 of 2");
      expect(result?.message).not.toContain("[C10]");
    }
  });

  it("a case needing stream-framing is skipped when the features do not claim it; Unsupported{} for DecodeStream is that feature's, so claimed it fails", async () => {
    const one = CASES.slice(0, 1);
    const skipped = await run(one, () => {}, ["consumer"]);
    expect(skipped[0]).toMatchObject({ status: "skipped", message: 'needs optional feature "stream-framing"' });
    class Unsupported extends CoreTesteeHandler {
      override handle(req: ectp.conformance.v1.TesteeRequest) {
        return req.decodeStream ? { commandId: req.commandId, unsupported: {} } : super.handle(req);
      }
    }
    const [claimed] = (await runSuite({ testee: () => inProcessTestee(new Unsupported(core as unknown as CoreModule)), features: TS_TESTEE_FEATURES, cases: one })).results;
    expect(claimed).toMatchObject({ status: "failed", message: expect.stringContaining('but the features file claims "stream-framing"') });
  });

  /** Runs `cases` against the TS testee claiming `features`; the results, and the roles of the Configures it was sent. */
  async function runRecordingRoles(cases: LoadedCase[], features: string[]) {
    const roles: string[] = [];
    class Recording extends CoreTesteeHandler {
      override handle(req: ectp.conformance.v1.TesteeRequest) {
        if (req.configure) roles.push(ectp.conformance.v1.Role[Number(req.configure.role ?? 0)] as string);
        return super.handle(req);
      }
    }
    const { results } = await runSuite({ testee: () => inProcessTestee(new Recording(core as unknown as CoreModule)), features, cases });
    return { results, roles: [...new Set(roles)] };
  }

  it.each([
    [["subscriber", "stream-framing"], "ROLE_SUBSCRIBER"],
    [["producer", "stream-framing"], "ROLE_PRODUCER"],
    [["producer", "subscriber", "stream-framing"], "ROLE_PRODUCER"],
    [["subscriber", "consumer", "producer", "stream-framing"], "ROLE_CONSUMER"],
  ])("[C10] the cases have role any: a testee claiming %j runs every one, under %s (consumer first, then producer, then subscriber)", async (features, role) => {
    expect(CASES.every((c) => c.spec.role === "any")).toBe(true);
    const { results, roles } = await runRecordingRoles(CASES, features);
    expect(results.map((r) => `${r.name} ${r.status}`)).toEqual(CASES.map((c) => `${c.fullName} passed`));
    expect(roles).toEqual([role]);
  });

  it("a case of role any is skipped, saying why, when the features claim no role; and for stream-framing when they claim a role without it", async () => {
    const one = CASES.slice(0, 1);
    expect((await runRecordingRoles(one, ["stream-framing"])).results[0]).toMatchObject({
      status: "skipped",
      message: "role any: it runs under one of consumer, producer, subscriber, and the features file claims none",
    });
    expect((await runRecordingRoles(one, ["subscriber"])).results[0]).toMatchObject({ status: "skipped", message: 'needs optional feature "stream-framing"' });
  });

  it("a case of role any is refused when loaded if it has anything a role answers: a step other than decodeStream, peers, items or rules", () => {
    const dir = mkdtempSync(join(work, "any-"));
    const decode = { decodeStream: { stream: [] }, expect: { frames: [], outcome: "clean-end" } };
    const suite = (more: Record<string, unknown>, steps: unknown[] = [decode]) => ({
      suite: "stream/c10-x",
      cases: [{ name: "x", requirements: ["C10"], level: "REQUIRED", role: "any", features: ["stream-framing"], steps, ...more }],
    });
    const load = (more: Record<string, unknown>, steps?: unknown[]) => {
      writeSuite(dir, suite(more, steps));
      return () => loadCases(dir);
    };
    expect(load({}, [{ at: 5 }, { comment: "c", ...decode }])()).toHaveLength(1);
    expect(load({ peers: {}, items: {}, rules: [] })()).toHaveLength(1);
    expect(load({}, [decode, { admit: { request: "r1", items: [] } }])).toThrow(
      /case "x": a case of role "any" runs under whichever role the features file claims, so its steps are decodeStream steps only; step 2 is \{"admit"/,
    );
    expect(load({}, [{ repeat: { times: 1, steps: [decode] } }])).toThrow(/its steps are decodeStream steps only; step 1 is \{"repeat"/);
    expect(load({ peers: { P1: {} } })).toThrow(/so it has no "peers" \(got \{"P1":\{\}\}\)/);
    expect(load({ items: { A: { size: 1 } } })).toThrow(/so it has no "items"/);
    expect(load({ rules: [{ on: {}, do: [] }] })).toThrow(/so it has no "rules"/);
    expect(load({ role: "router" })).toThrow(/"role" must be consumer, producer, subscriber or any/);
  });

  it("a case file with a decodeStream step that does not need stream-framing is refused when loaded", () => {
    const dir = mkdtempSync(join(work, "cases-"));
    const step = { decodeStream: { stream: [] }, expect: { frames: [], outcome: "clean-end" } };
    const suite = (features: string[]) => ({ suite: "consumer/c10-x", cases: [{ name: "x", requirements: ["C10"], level: "REQUIRED", role: "consumer", features, steps: [{ repeat: { times: 1, steps: [step] } }] }] });
    writeSuite(dir, suite([]));
    expect(() => loadCases(dir)).toThrow(/it has a "decodeStream" step, which only a testee claiming "stream-framing" answers; add "stream-framing" to its "features"/);
    writeSuite(dir, suite(["stream-framing"]));
    expect(loadCases(dir)).toHaveLength(1);
  });
});

describe("TS testee: DecodeStream", () => {
  const ask = (h: CoreTesteeHandler, decodeStream: Record<string, unknown>) => h.handle(TesteeRequest.fromObject({ commandId: 1, nowMs: 0, decodeStream }));
  const bytes = (...b: number[]) => new Uint8Array(b);

  it("decodes with @ectp/protocol's FrameDecoder when the core module has none, with no instance configured", () => {
    const h = new CoreTesteeHandler(core as unknown as CoreModule);
    expect(ask(h, { chunks: [bytes(0, 0), bytes(0, 1, 0x61, 0, 0)], maxFrameBytes: 1 })).toMatchObject({
      decodeStream: { frames: [{ payload: bytes(0x61), chunk: 1 }], outcome: O.STREAM_OUTCOME_MALFORMED_MESSAGE, outcomeChunk: 2 },
    });
    // The default maximum is the decoder's own (16 MiB): a prefix of 16 MiB + 1 is refused at its header.
    expect(ask(h, { chunks: [bytes(1, 0, 0, 1)] })).toMatchObject({ decodeStream: { frames: [], outcome: O.STREAM_OUTCOME_FRAME_TOO_LARGE, outcomeChunk: 0 } });
  });

  it("gives the core module's decoder every chunk, after its first error too, then the end; the first error is the outcome; any other throw is an Error answer", () => {
    const calls: string[] = [];
    class Stub {
      constructor(readonly options: unknown) {
        calls.push(`new ${JSON.stringify(options)}`);
      }
      push(chunk: Uint8Array): Uint8Array[] {
        calls.push(`push ${chunk.length}`);
        if (chunk.length === 2) throw Object.assign(new Error("too large"), { code: "FRAME_TOO_LARGE", details: { frames: [bytes(9)] } });
        if (chunk.length === 3) throw new TypeError("decoder bug");
        return [chunk];
      }
      end(): void {
        calls.push("end");
        throw Object.assign(new Error("cut"), { code: "MALFORMED_MESSAGE" });
      }
    }
    const h = new CoreTesteeHandler({ ...(core as unknown as CoreModule), FrameDecoder: Stub });
    expect(ask(h, { chunks: [bytes(1), bytes(2, 2), bytes(4)], maxFrameBytes: 7 })).toMatchObject({
      decodeStream: {
        frames: [
          { payload: bytes(1), chunk: 0 },
          { payload: bytes(9), chunk: 1 },
          { payload: bytes(4), chunk: 2 },
        ],
        outcome: O.STREAM_OUTCOME_FRAME_TOO_LARGE,
        outcomeChunk: 1,
      },
    });
    expect(calls).toEqual(['new {"maxFrameBytes":7}', "push 1", "push 2", "push 1", "end"]);
    expect(ask(h, { chunks: [bytes(3, 3, 3)] })).toMatchObject({ error: { message: "decoder bug" } });
  });

  it("[C10] after the first outcome the decoder's other errors, at a push or the end, are ignored: the first outcome stands and only its frames count", () => {
    class RefusesAfterItsError {
      private failed = false;
      push(chunk: Uint8Array): Uint8Array[] {
        if (this.failed) throw new TypeError("stream closed");
        if (chunk.length === 2) {
          this.failed = true;
          throw Object.assign(new Error("too large"), { code: "FRAME_TOO_LARGE", details: { frames: [bytes(9)] } });
        }
        return [chunk];
      }
      end(): void {
        if (this.failed) throw new RangeError("stream closed");
      }
    }
    const h = new CoreTesteeHandler({ ...(core as unknown as CoreModule), FrameDecoder: RefusesAfterItsError });
    expect(ask(h, { chunks: [bytes(1), bytes(2, 2), bytes(4)] })).toMatchObject({
      decodeStream: { frames: [{ payload: bytes(1), chunk: 0 }, { payload: bytes(9), chunk: 1 }], outcome: O.STREAM_OUTCOME_FRAME_TOO_LARGE, outcomeChunk: 1 },
    });
  });
});

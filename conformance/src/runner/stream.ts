/**
 * The `decodeStream` step (feature `stream-framing`): the byte stream a case writes, cut into the
 * chunks the testee's stream decoder is given, and the check of what the decoder made of them
 * (SPEC.md section 5, "Byte streams"; testee.proto DecodeStream).
 * @module
 */
import { ectp } from "../proto.js";
import { CaseBug } from "./match.js";

/**
 * The most bytes a step's stream may hold, all its pieces together (so also the largest payload a
 * case may write). A DecodeStream request carries the stream once, and a correct testee's answer
 * its payloads once more: each, with the framing of its chunks or frames and as base64 in JSON
 * lines (4 characters per 3 bytes), stays well within the 64 MiB that one frame or line of the
 * testee protocol may be (TESTEE-PROTOCOL.md section 3).
 */
export const MAX_STREAM_BYTES = 32 * 1024 * 1024;

/** The most chunks a stream may be cut into (`"every-byte"`: a stream of at most 64 KiB); each costs a few bytes of framing in the request. */
export const MAX_STREAM_CHUNKS = 65_536;

/** The most frames a step's `expect` may list: a correct testee's answer holds as many, each with a few bytes of framing. */
export const MAX_EXPECTED_FRAMES = 65_536;

/** The largest length a 4-byte prefix holds. */
const MAX_PREFIX = 0xffff_ffff;

/** What a `decodeStream` step sends: the chunks, and the receiver's maximum when the case gives one. */
export interface StreamInput {
  /** The stream's bytes, in the chunks the decoder is given. */
  readonly chunks: Uint8Array[];
  /** `DecodeStream.max_frame_bytes`; undefined: the testee's default (SPEC.md: 16 MiB). */
  readonly maxFrameBytes: number | undefined;
}

/** The outcomes a case names, and the testee.proto `StreamOutcome` name of each. */
const OUTCOMES: Readonly<Record<string, string>> = {
  "clean-end": "STREAM_OUTCOME_CLEAN_END",
  "frame-too-large": "STREAM_OUTCOME_FRAME_TOO_LARGE",
  "malformed-message": "STREAM_OUTCOME_MALFORMED_MESSAGE",
};

/** Keys of a `decodeStream` step's argument, and of its `expect`. */
const STEP_KEYS: readonly string[] = ["stream", "cutAt", "maxFrameBytes"];
const EXPECT_KEYS: readonly string[] = ["frames", "outcome", "outcomeChunk"];

/** `n` as the 4 big-endian bytes of a frame header (SPEC.md section 5). */
function prefix(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n, false);
  return out;
}

function whole(v: unknown, min: number, max: number): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
}

/**
 * A payload as a case writes it: a string (its UTF-8 bytes), `{"hex": "00 ff"}` (whitespace
 * ignored), or `{"byte": b, "size": n}` (n copies of byte value b).
 * @throws CaseBug for anything else.
 */
export function payloadBytes(p: unknown, where: string): Uint8Array {
  if (typeof p === "string") return new TextEncoder().encode(p);
  const o = (p ?? {}) as Record<string, unknown>;
  const keys = p !== null && typeof p === "object" && !Array.isArray(p) ? Object.keys(o).sort().join(",") : "";
  if (keys === "hex" && typeof o.hex === "string") {
    const hex = o.hex.replace(/\s+/g, "");
    if (/^(?:[0-9a-fA-F]{2})*$/.test(hex)) return new Uint8Array(Buffer.from(hex, "hex"));
  }
  if (keys === "byte,size" && whole(o.byte, 0, 255) && whole(o.size, 0, MAX_STREAM_BYTES)) return new Uint8Array(o.size).fill(o.byte);
  throw new CaseBug(
    `${where} is a payload: a string (its UTF-8 bytes), {"hex": "..."} (pairs of hex digits) or {"byte": 0-255, "size": 0-${MAX_STREAM_BYTES}}; got ${JSON.stringify(p)}`,
  );
}

/** One piece of a stream: `{"frame": payload}` (a length prefix and the payload), `{"prefix": n}` (a length prefix alone) or `{"bytes": payload}`. */
function pieceBytes(piece: unknown, where: string): Uint8Array {
  const o = (piece ?? {}) as Record<string, unknown>;
  const [kind, ...more] = piece !== null && typeof piece === "object" && !Array.isArray(piece) ? Object.keys(o) : [];
  if (more.length === 0 && kind === "frame") {
    const payload = payloadBytes(o.frame, `${where}.frame`);
    return concat([prefix(payload.length), payload]);
  }
  if (more.length === 0 && kind === "prefix" && whole(o.prefix, 0, MAX_PREFIX)) return prefix(o.prefix);
  if (more.length === 0 && kind === "bytes") return payloadBytes(o.bytes, `${where}.bytes`);
  throw new CaseBug(`${where} is {"frame": payload}, {"prefix": 0-${MAX_PREFIX}} or {"bytes": payload}; got ${JSON.stringify(piece)}`);
}

/** The parts joined, as a plain Uint8Array (what the testee client's coding expects). */
function concat(parts: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * A `decodeStream` step's argument, `{stream, cutAt, maxFrameBytes}`, as the chunks to send: the
 * stream's pieces joined, then cut before each offset of `cutAt` (increasing, inside the stream),
 * or into one chunk per byte with `"every-byte"`; without `cutAt`, one chunk (none for an empty stream).
 * @throws CaseBug for an argument the step does not take, a stream of more than
 *   {@link MAX_STREAM_BYTES} bytes, or one cut into more than {@link MAX_STREAM_CHUNKS} chunks.
 */
export function streamInput(arg: unknown): StreamInput {
  const a = (arg ?? {}) as Record<string, unknown>;
  if (arg === null || typeof arg !== "object" || Array.isArray(arg)) throw new CaseBug(`decodeStream takes {${STEP_KEYS.join(", ")}}; got ${JSON.stringify(arg)}`);
  for (const k of Object.keys(a)) if (!STEP_KEYS.includes(k)) throw new CaseBug(`decodeStream takes ${STEP_KEYS.join(", ")}; got ${JSON.stringify(k)}`);
  if (!Array.isArray(a.stream)) throw new CaseBug(`decodeStream.stream is a list of pieces; got ${JSON.stringify(a.stream)}`);
  const pieces: Uint8Array[] = [];
  let size = 0;
  for (const [i, p] of a.stream.entries()) {
    const piece = pieceBytes(p, `decodeStream.stream[${i}]`);
    pieces.push(piece);
    size += piece.length;
    // The whole stream is bounded, so that the request and the frames echoed back fit the testee protocol's frames and lines.
    if (size > MAX_STREAM_BYTES)
      throw new CaseBug(`decodeStream.stream holds at most ${MAX_STREAM_BYTES} bytes (32 MiB), all pieces together; its pieces up to [${i}] hold ${size}`);
  }
  const bytes = concat(pieces);
  if (a.maxFrameBytes !== undefined && !whole(a.maxFrameBytes, 0, MAX_PREFIX))
    throw new CaseBug(`decodeStream.maxFrameBytes is the receiver's maximum, an integer in [0, ${MAX_PREFIX}]; got ${JSON.stringify(a.maxFrameBytes)}`);
  const maxFrameBytes = a.maxFrameBytes as number | undefined;
  if (a.cutAt === undefined) return { chunks: bytes.length === 0 ? [] : [bytes], maxFrameBytes };
  const cuts = a.cutAt;
  const count = cuts === "every-byte" ? bytes.length : Array.isArray(cuts) ? cuts.length + 1 : 0;
  if (count > MAX_STREAM_CHUNKS)
    throw new CaseBug(
      `decodeStream.cutAt cuts the stream into at most ${MAX_STREAM_CHUNKS} chunks; ${cuts === "every-byte" ? `"every-byte" of ${bytes.length} bytes makes` : `${count - 1} offsets make`} ${count}`,
    );
  if (cuts === "every-byte") return { chunks: Array.from(bytes, (_, i) => bytes.slice(i, i + 1)), maxFrameBytes };
  if (!Array.isArray(cuts) || cuts.some((c, i) => !whole(c, 1, bytes.length - 1) || (i > 0 && c <= (cuts[i - 1] as number))))
    throw new CaseBug(
      `decodeStream.cutAt is "every-byte" or a list of increasing offsets inside the stream's ${bytes.length} bytes (1 to ${bytes.length - 1}); got ${JSON.stringify(cuts)}`,
    );
  const ends = [...(cuts as number[]), bytes.length];
  return { chunks: ends.map((end, i) => bytes.slice(i === 0 ? 0 : (ends[i - 1] as number), end)), maxFrameBytes };
}

/** A payload as a failure message shows it: text when it is short printable ASCII, else its size and first bytes in hex. */
function shownPayload(p: Uint8Array): string {
  if (p.length <= 40 && p.every((b) => b >= 0x20 && b < 0x7f)) return JSON.stringify(Buffer.from(p).toString("latin1"));
  const head = Buffer.from(p.subarray(0, 8)).toString("hex");
  return `<${p.length} bytes${p.length > 0 ? `: ${head}${p.length > 8 ? "..." : ""}` : ""}>`;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A frame a step expects: the chunk that completed it, and its payload. */
interface ExpectedFrame {
  readonly chunk: number;
  readonly payload: Uint8Array;
}

/** A step's `expect`, read: the frames in order, the outcome's testee.proto name, and the chunk that gives it. */
export interface StreamExpectation {
  readonly frames: readonly ExpectedFrame[];
  readonly outcome: string;
  readonly outcomeChunk: number;
}

/**
 * A `decodeStream` step's `expect` (`{frames: [{chunk, payload}], outcome, outcomeChunk}`) for a
 * stream of `chunks` chunks: the frames, each with the chunk that completed it, in order; the
 * outcome; and the chunk that gave it (for `clean-end` and `malformed-message` the end of the
 * stream, `chunks`, unless the case says otherwise; for `frame-too-large` the case must say which).
 * @throws CaseBug for an `expect` the step does not take, or one listing more than
 *   {@link MAX_EXPECTED_FRAMES} frames.
 */
export function streamExpectation(expect: unknown, chunks: number): StreamExpectation {
  const e = (expect ?? {}) as Record<string, unknown>;
  if (expect === null || typeof expect !== "object" || Array.isArray(expect))
    throw new CaseBug(`decodeStream needs "expect": {${EXPECT_KEYS.join(", ")}}; got ${JSON.stringify(expect)}`);
  for (const k of Object.keys(e)) if (!EXPECT_KEYS.includes(k)) throw new CaseBug(`decodeStream's expect takes ${EXPECT_KEYS.join(", ")}; got ${JSON.stringify(k)}`);
  if (!Object.hasOwn(OUTCOMES, String(e.outcome)))
    throw new CaseBug(`decodeStream's expect.outcome is ${Object.keys(OUTCOMES).join(", ")}; got ${JSON.stringify(e.outcome)}`);
  if (e.outcome === "frame-too-large" && e.outcomeChunk === undefined)
    throw new CaseBug('decodeStream\'s expect.outcomeChunk is needed with "frame-too-large": the chunk that completed the oversized prefix');
  if (e.outcomeChunk !== undefined && !whole(e.outcomeChunk, 0, chunks))
    throw new CaseBug(`decodeStream's expect.outcomeChunk is a chunk index, 0 to ${chunks} (the stream's end); got ${JSON.stringify(e.outcomeChunk)}`);
  if (!Array.isArray(e.frames)) throw new CaseBug(`decodeStream's expect.frames is a list of {chunk, payload}; got ${JSON.stringify(e.frames)}`);
  if (e.frames.length > MAX_EXPECTED_FRAMES) throw new CaseBug(`decodeStream's expect.frames lists at most ${MAX_EXPECTED_FRAMES} frames; got ${e.frames.length}`);
  const frames = e.frames.map((f, i) => {
    const o = (f ?? {}) as Record<string, unknown>;
    if (f === null || typeof f !== "object" || Object.keys(o).sort().join(",") !== "chunk,payload" || !whole(o.chunk, 0, chunks - 1))
      throw new CaseBug(`decodeStream's expect.frames[${i}] is {chunk: 0-${chunks - 1}, payload}; got ${JSON.stringify(f)}`);
    return { chunk: o.chunk as number, payload: payloadBytes(o.payload, `decodeStream's expect.frames[${i}].payload`) };
  });
  return { frames, outcome: OUTCOMES[String(e.outcome)] as string, outcomeChunk: (e.outcomeChunk as number | undefined) ?? chunks };
}

/** The outcome a DecodeStreamResult gave, as its testee.proto name (a number without one as it is). */
function outcomeName(result: ectp.conformance.v1.IDecodeStreamResult): string {
  return ectp.conformance.v1.StreamOutcome[Number(result.outcome ?? 0)] ?? String(result.outcome);
}

/**
 * What makes a DecodeStreamResult for a stream of `chunks` chunks malformed, or undefined when
 * nothing does: an outcome that is none of the three (UNSPECIFIED included), a frame's chunk that
 * is no chunk of the stream or comes before the frame before it (frames are listed in stream order),
 * or an outcome_chunk past the stream's end. These are the testee's bookkeeping, not its decoder's
 * (TESTEE-PROTOCOL.md section 5.5), so the runner reports them as a malformed answer, not as [C10].
 */
export function malformedStreamAnswer(result: ectp.conformance.v1.IDecodeStreamResult, chunks: number): string | undefined {
  if (!Object.values(OUTCOMES).includes(outcomeName(result)))
    return `outcome is ${outcomeName(result)}; a DecodeStreamResult gives ${Object.values(OUTCOMES).join(", ")}`;
  const outcomeChunk = Number(result.outcomeChunk ?? 0);
  if (outcomeChunk > chunks) return `outcome_chunk is ${outcomeChunk}, past the stream's end: the stream had ${chunks} chunks, so it is 0 to ${chunks}`;
  let before = 0;
  for (const [i, f] of (result.frames ?? []).entries()) {
    const chunk = Number(f.chunk ?? 0);
    if (chunk >= chunks) return `frames[${i}].chunk is ${chunk}, no chunk of the stream: it had ${chunks} chunks${chunks > 0 ? `, 0 to ${chunks - 1}` : ""}`;
    if (chunk < before) return `frames[${i}].chunk is ${chunk}, before frames[${i - 1}].chunk ${before}: frames are listed in stream order`;
    before = chunk;
  }
  return undefined;
}

/**
 * What is wrong with a DecodeStreamResult given the step's `expect` (read by
 * {@link streamExpectation}), or undefined when nothing is: the frames the decoder handed out,
 * each at the chunk that completed it, in order, and the outcome at its chunk must be the
 * expected ones. Check {@link malformedStreamAnswer} first: this reads the answer as well formed.
 * @throws CaseBug for an `expect` the step does not take.
 */
export function decodedStreamProblem(result: ectp.conformance.v1.IDecodeStreamResult, expect: unknown, chunks: number): string | undefined {
  const { frames: want, outcome, outcomeChunk: wantChunk } = streamExpectation(expect, chunks);
  const got = (result.frames ?? []).map((f) => ({ chunk: Number(f.chunk ?? 0), payload: f.payload ?? new Uint8Array(0) }));
  const gotOutcome = outcomeName(result);
  const gotChunk = Number(result.outcomeChunk ?? 0);
  const shown = (fs: readonly ExpectedFrame[]) => `[${fs.map((f) => `${shownPayload(f.payload)} at chunk ${f.chunk}`).join(", ")}]`;
  const problems: string[] = [];
  if (got.length !== want.length || got.some((f, i) => f.chunk !== want[i]?.chunk || !sameBytes(f.payload, want[i]?.payload as Uint8Array)))
    problems.push(`expected the frames ${shown(want)}; got ${shown(got)}`);
  if (gotOutcome !== outcome || gotChunk !== wantChunk)
    problems.push(`expected the outcome ${outcome} at chunk ${wantChunk}${wantChunk === chunks ? " (the stream's end)" : ""}; got ${gotOutcome} at chunk ${gotChunk}`);
  return problems.length === 0 ? undefined : `${problems.join("; ")} (${chunks} chunks)`;
}

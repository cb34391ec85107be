/**
 * Size-delimited framing of byte streams (SPEC.md "Framing").
 *
 * On a byte stream (a socket, a pipe, the conformance runner's stdin/stdout) each
 * message travels as one frame: a 4-byte unsigned **big-endian** length, then that
 * many bytes of one protobuf message. Big-endian is the network order and the order
 * Connect uses; protobuf's own conformance runner uses little-endian, so the order is
 * written down here and in the spec and pinned by golden fixtures.
 * @module
 */
import { markAsUntransferable } from "node:worker_threads";
import { byteView } from "./bytes.js";
import { EctpError, describeValue, thrownText } from "./errors.js";
import { closestName } from "./names.js";

/** Bytes in a frame header (the length prefix). */
export const FRAME_HEADER_BYTES = 4;

/**
 * Default largest frame payload: 16 MiB (16 777 216 bytes), the least a receiver of a peer-to-peer
 * stream MUST accept (SPEC.md section 5). Control-plane messages are small (item bytes
 * never travel in frames), so anything larger is a corrupt or hostile length prefix.
 */
export const DEFAULT_MAX_FRAME_BYTES: number = 16 * 1024 * 1024;

/** The largest length a 4-byte unsigned prefix can express. */
const MAX_UINT32 = 0xffff_ffff;

/** Options of {@link encodeFrame} and {@link FrameDecoder}. */
export interface FrameOptions {
  /**
   * Largest payload in bytes a frame may carry; a longer one is `FRAME_TOO_LARGE`.
   * An integer in [0, 2^32 - 1] (anything else, `null` included, is `INVALID_CONFIG`). Default,
   * when absent or undefined, {@link DEFAULT_MAX_FRAME_BYTES} (16 MiB). The options themselves may be
   * left out (or `undefined`) for the default; `null`, an array or another non-object is `INVALID_CONFIG`.
   */
  readonly maxFrameBytes?: number | undefined;
}

/** `String(v)`, or its type where that throws (a null-prototype object, a throwing `toString`). */
function shown(v: unknown): string {
  try {
    return String(v);
  } catch {
    return typeof v;
  }
}

function resolveMax(options: FrameOptions | undefined): number {
  let max: number;
  try {
    // Only absent (undefined) options are the default: null, an array or a number is refused.
    if (options !== undefined && (options === null || typeof options !== "object" || Array.isArray(options)))
      throw new EctpError("INVALID_CONFIG", `frame options must be an object such as { maxFrameBytes: 1048576 }; got ${describeValue(options)}`);
    // Only an absent (undefined) maxFrameBytes is the default: null is no integer, and is refused below.
    const given = options?.maxFrameBytes;
    max = given === undefined ? DEFAULT_MAX_FRAME_BYTES : given;
    // Any other key is a mistake (a misspelt name), beside maxFrameBytes or instead of it.
    if (options !== undefined) refuseOtherOptions(options);
  } catch (cause) {
    if (EctpError.is(cause)) throw cause;
    // [I1] A throwing getter (or a revoked proxy) as options: local misuse, typed.
    throw new EctpError("INVALID_CONFIG", `maxFrameBytes could not be read (${thrownText(cause)}); pass a plain options object`, { cause });
  }
  if (!Number.isSafeInteger(max) || max < 0 || max > MAX_UINT32)
    throw new EctpError(
      "INVALID_CONFIG",
      `maxFrameBytes must be an integer in [0, ${MAX_UINT32}]; got ${shown(max)}. Omit it for the default of ${DEFAULT_MAX_FRAME_BYTES}`,
      { details: { maxFrameBytes: max } },
    );
  return max;
}

/** Refuses options (an object) that name anything but `maxFrameBytes` (local misuse, typed). */
function refuseOtherOptions(options: object): void {
  for (const name of Object.keys(options)) {
    if (name === "maxFrameBytes") continue; // given as undefined: the default
    const meant = closestName(name, ["maxFrameBytes"], 3);
    throw new EctpError(
      "INVALID_CONFIG",
      `unknown frame option ${JSON.stringify(name)}${meant ? ` (did you mean ${JSON.stringify(meant)}?)` : ""}; the only one is maxFrameBytes`,
    );
  }
}

/** A received length prefix above the limit: the peer's stream is at fault. */
function tooLarge(length: number, max: number, frames: Uint8Array[]): EctpError {
  return new EctpError(
    "FRAME_TOO_LARGE",
    `frame length prefix ${length} exceeds maxFrameBytes ${max}; the stream is corrupt or the peer sends ` +
      `oversized messages. Close the stream, or raise maxFrameBytes if such frames are legitimate`,
    { details: { length, maxFrameBytes: max, frames } },
  );
}

/**
 * Frame one payload: a 4-byte big-endian length, then the payload (SPEC.md "Framing").
 * Throws `EctpError(FRAME_TOO_LARGE)` when the payload exceeds `maxFrameBytes`, so a
 * sender never writes a frame its peer must refuse, `EctpError(INVALID_CONFIG)` for a bad
 * `maxFrameBytes`, an unknown option, or options that are not an object (`null` included; leave
 * them out for the default), and `EctpError(INVALID_ARGUMENT)` for a payload that is not bytes
 * (an ArrayBuffer or any view of one is framed as its bytes).
 */
export function encodeFrame(payload: Uint8Array | ArrayBuffer | ArrayBufferView, options?: FrameOptions): Uint8Array {
  const bytes = byteView(payload, "encodeFrame payload");
  const max = resolveMax(options);
  if (bytes.length > max)
    throw new EctpError(
      "FRAME_TOO_LARGE",
      `encodeFrame: a payload of ${bytes.length} bytes exceeds maxFrameBytes ${max}, so the peer would refuse the frame ` +
        "and close the stream. Send a smaller message, or raise maxFrameBytes on both ends if such messages are legitimate",
      { details: { length: bytes.length, maxFrameBytes: max, frames: [] } },
    );
  const out = new Uint8Array(FRAME_HEADER_BYTES + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length, false); // big-endian, SPEC.md "Framing"
  out.set(bytes, FRAME_HEADER_BYTES);
  return out;
}

const EMPTY = new Uint8Array(0);
/**
 * Every zero-length frame's payload: one shared, frozen empty array. A fresh one per frame cost
 * about 200 bytes each, 50 times the 4 bytes of its header (a 16 MiB chunk of them held 770 MiB).
 */
const EMPTY_FRAME: Uint8Array = Object.freeze(new Uint8Array(0));
// Shared by every decoder in the process: a caller transferring one frame's buffer (postMessage,
// structuredClone) must not detach every later empty frame.
markAsUntransferable(EMPTY_FRAME.buffer);
/** First size of a split frame's buffer (or the frame's size, when smaller). */
const MIN_PARTIAL_BYTES = 64 * 1024;

/**
 * A copy of `length` bytes of `chunk` from `start`, never a view: `slice` of a Node `Buffer`
 * returns a view that shares (and pins) the caller's memory.
 */
function copyOf(chunk: Uint8Array, start: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  out.set(chunk.subarray(start, start + length));
  return out;
}

/**
 * Incremental decoder of a size-delimited byte stream.
 *
 * Feed it chunks as they arrive, in any sizes: a chunk may hold part of a header, several
 * frames, or the tail of one frame and the start of the next. Memory stays bounded: between
 * calls it holds at most `maxFrameBytes + 4` bytes (the partial header, and the partial
 * payload in one buffer that grows by doubling up to the frame's size, however small the
 * chunks), copied out of the caller's chunks: a chunk is never retained or aliased, so a
 * reused receive buffer is safe.
 *
 * A length prefix above `maxFrameBytes` makes {@link FrameDecoder.push} throw
 * `EctpError(FRAME_TOO_LARGE)`. The stream cannot be resynchronised after that (the
 * position of the next header is unknown), so the decoder then refuses all input with
 * an error of that code (whose `details.frames` is empty) until {@link FrameDecoder.reset}.
 * Frames completed earlier in the same chunk are not lost: they are in the first error's
 * `details.frames`, handed out once.
 *
 * Both errors are the peer's doing, so catch them where the chunks arrive and close that one
 * stream: a handler that lets them escape takes down a process serving other peers [I1].
 *
 * @example
 * ```ts
 * const decoder = new FrameDecoder();
 * socket.on("data", (chunk) => {
 *   let frames: Uint8Array[];
 *   try {
 *     frames = decoder.push(chunk);
 *   } catch (err) {
 *     // FRAME_TOO_LARGE: the frames completed before the bad prefix, then close this stream.
 *     frames = err instanceof EctpError ? ((err.details.frames as Uint8Array[] | undefined) ?? []) : [];
 *     socket.destroy();
 *   }
 *   for (const frame of frames) handle(decodeEnvelope(frame)); // decodeEnvelope never throws
 * });
 * socket.on("end", () => {
 *   try {
 *     decoder.end();
 *   } catch {
 *     // MALFORMED_MESSAGE: the peer closed mid-frame; nothing more to read from it.
 *   }
 * });
 * ```
 */
export class FrameDecoder {
  /** Largest accepted payload in bytes (the resolved `maxFrameBytes` option). */
  readonly maxFrameBytes: number;

  private readonly header = new Uint8Array(FRAME_HEADER_BYTES);
  private headerFilled = 0;
  /** Payload length of the frame in progress; -1 while its header is incomplete. */
  private expected = -1;
  /** The payload of the frame in progress: its first `payloadFilled` bytes are received. */
  private partial: Uint8Array = EMPTY;
  private payloadFilled = 0;
  private failure: EctpError | undefined;

  /**
   * @param options - `maxFrameBytes` (default 16 MiB); leave them out (or `undefined`) for the
   *   default. Throws `EctpError(INVALID_CONFIG)` when `maxFrameBytes` is not an integer in
   *   [0, 2^32 - 1], when the options are not an object (`null`, an array, a number), or when
   *   they name another option (a misspelling, named with the nearest), beside `maxFrameBytes` too.
   */
  constructor(options?: FrameOptions) {
    this.maxFrameBytes = resolveMax(options);
  }

  /** Bytes currently held for an incomplete frame (header and payload); at most `maxFrameBytes + 4`. */
  get bufferedBytes(): number {
    return this.headerFilled + this.payloadFilled;
  }

  /** The error that stopped the decoder, or `undefined` while it accepts input. */
  get error(): EctpError | undefined {
    return this.failure;
  }

  /**
   * Consume a chunk and return every frame payload it completes, in stream order. Each
   * returned array is a fresh copy the caller may keep (a zero-length payload is one shared,
   * frozen empty array). Each costs an object, so the returned list of a chunk of tiny frames is
   * many times the chunk's size: push chunks of a bounded size (a socket read's, e.g. 64 KiB).
   * Throws `EctpError(FRAME_TOO_LARGE)` on an oversized length prefix (its `details.frames`: the
   * frames this chunk completed before it), and again on every later call until {@link reset}
   * (with no frames: they were handed out with the first error). A
   * chunk may be a Uint8Array, an ArrayBuffer (as a WebSocket with `binaryType
   * "arraybuffer"` delivers) or any view of one, read as its bytes; anything else throws
   * `EctpError(INVALID_ARGUMENT)` and changes nothing.
   */
  push(input: Uint8Array | ArrayBuffer | ArrayBufferView): Uint8Array[] {
    if (this.failure) throw this.failure;
    const chunk = byteView(input, "FrameDecoder.push chunk");
    const frames: Uint8Array[] = [];
    let pos = 0;
    const n = chunk.length;
    while (pos < n) {
      if (this.expected < 0) {
        const take = Math.min(FRAME_HEADER_BYTES - this.headerFilled, n - pos);
        this.header.set(chunk.subarray(pos, pos + take), this.headerFilled);
        this.headerFilled += take;
        pos += take;
        if (this.headerFilled < FRAME_HEADER_BYTES) break;
        const h = this.header;
        // Big-endian unsigned 32-bit length (SPEC.md "Framing").
        const length =
          (((h[0] as number) << 24) | ((h[1] as number) << 16) | ((h[2] as number) << 8) | (h[3] as number)) >>> 0;
        if (length > this.maxFrameBytes) {
          this.headerFilled = 0;
          // Later calls rethrow an error without this chunk's frames: they are handed out once.
          this.failure = tooLarge(length, this.maxFrameBytes, []);
          throw tooLarge(length, this.maxFrameBytes, frames);
        }
        this.expected = length;
        if (length === 0) {
          frames.push(EMPTY_FRAME);
          this.finishFrame();
          continue;
        }
      }
      const take = Math.min(this.expected - this.payloadFilled, n - pos);
      if (this.payloadFilled === 0 && take === this.expected) {
        // Whole payload inside this chunk: one copy.
        frames.push(copyOf(chunk, pos, take));
        pos += take;
        this.finishFrame();
        continue;
      }
      const filled = this.payloadFilled + take;
      if (filled > this.partial.length) {
        // Doubling, capped at the frame's size (so a finished buffer is exactly the payload).
        const grown = new Uint8Array(Math.min(this.expected, Math.max(filled, 2 * this.partial.length, MIN_PARTIAL_BYTES)));
        grown.set(this.partial.subarray(0, this.payloadFilled));
        this.partial = grown;
      }
      this.partial.set(chunk.subarray(pos, pos + take), this.payloadFilled);
      this.payloadFilled = filled;
      pos += take;
      if (filled === this.expected) {
        frames.push(this.partial);
        this.finishFrame();
      }
    }
    return frames;
  }

  /**
   * Declare the end of the stream. Throws `EctpError(MALFORMED_MESSAGE)` when a frame was
   * cut off (a partial header or payload is buffered) and rethrows an earlier
   * `FRAME_TOO_LARGE`; returns normally on a clean end. The decoder is reset either way.
   */
  end(): void {
    const failure = this.failure;
    const buffered = this.bufferedBytes;
    const header = this.headerFilled;
    const expected = this.expected;
    this.reset();
    if (failure) throw failure;
    if (buffered > 0)
      throw new EctpError(
        "MALFORMED_MESSAGE",
        expected < 0
          ? `stream ended inside a frame header (${header} of ${FRAME_HEADER_BYTES} bytes); the peer closed mid-message`
          : `stream ended inside a frame: ${buffered - FRAME_HEADER_BYTES} of ${expected} payload bytes received; the peer closed mid-message`,
        { details: { bufferedBytes: buffered, expectedPayloadBytes: expected < 0 ? undefined : expected } },
      );
  }

  /** Drop any partial frame and a stored failure, so the decoder can read a new stream. */
  reset(): void {
    this.failure = undefined;
    this.headerFilled = 0;
    this.finishFrame();
  }

  private finishFrame(): void {
    this.expected = -1;
    this.headerFilled = 0;
    this.partial = EMPTY;
    this.payloadFilled = 0;
  }
}

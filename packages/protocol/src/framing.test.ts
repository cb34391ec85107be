import { transformSync } from "esbuild";
import fc from "fast-check";
import { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { crc32c } from "./checksum.js";
import { decodeEnvelope } from "./envelope.js";
import { EctpError } from "./errors.js";
import { DEFAULT_MAX_FRAME_BYTES, FRAME_HEADER_BYTES, FrameDecoder, encodeFrame } from "./framing.js";

const bytes = (...v: number[]) => new Uint8Array(v);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Split `data` at the given cut points (positions, any order, may repeat). */
function chunk(data: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, data.length]) {
    out.push(data.subarray(prev, p));
    prev = p;
  }
  return out;
}

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

describe("encodeFrame", () => {
  it("writes a 4-byte big-endian length before the payload (SPEC.md Framing)", () => {
    expect(encodeFrame(bytes(0xaa, 0xbb, 0xcc))).toEqual(bytes(0, 0, 0, 3, 0xaa, 0xbb, 0xcc));
    const big = new Uint8Array(0x010203);
    expect(encodeFrame(big).subarray(0, 4)).toEqual(bytes(0x00, 0x01, 0x02, 0x03));
  });

  it("encodes an empty payload as a bare zero header", () => {
    expect(encodeFrame(new Uint8Array(0))).toEqual(bytes(0, 0, 0, 0));
  });

  it("refuses a payload above maxFrameBytes with FRAME_TOO_LARGE", () => {
    const err = catchError(() => encodeFrame(new Uint8Array(9), { maxFrameBytes: 8 }));
    expect(err).toBeInstanceOf(EctpError);
    expect((err as EctpError).code).toBe("FRAME_TOO_LARGE");
    // The sender's own payload: no talk of a corrupt stream or a peer.
    expect((err as EctpError).message).toBe(
      "[FRAME_TOO_LARGE] encodeFrame: a payload of 9 bytes exceeds maxFrameBytes 8, so the peer would refuse the frame " +
        "and close the stream. Send a smaller message, or raise maxFrameBytes on both ends if such messages are legitimate",
    );
  });

  it("rejects an invalid maxFrameBytes with INVALID_CONFIG", () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 32]) {
      const err = catchError(() => encodeFrame(new Uint8Array(0), { maxFrameBytes: bad }));
      expect((err as EctpError).code).toBe("INVALID_CONFIG");
    }
    expect((catchError(() => new FrameDecoder({ maxFrameBytes: -1 })) as EctpError).message).toBe(
      "[INVALID_CONFIG] maxFrameBytes must be an integer in [0, 4294967295]; got -1. Omit it for the default of 16777216",
    );
    // [I1] Options whose read throws: typed too (it was the getter's own Error).
    const throwing = Object.defineProperty({}, "maxFrameBytes", { get: () => { throw new Error("no"); } }) as { maxFrameBytes: number };
    for (const make of [() => new FrameDecoder(throwing), () => encodeFrame(new Uint8Array(0), throwing)])
      expect((catchError(make) as EctpError).message).toBe("[INVALID_CONFIG] maxFrameBytes could not be read (Error: no); pass a plain options object");
  });

  it("refuses a maxFrameBytes of null with INVALID_CONFIG: no integer, it silently meant the 16 MiB default", () => {
    const nulled = { maxFrameBytes: null } as unknown as { maxFrameBytes: number };
    for (const make of [() => new FrameDecoder(nulled), () => encodeFrame(new Uint8Array(0), nulled)])
      expect((catchError(make) as EctpError).message).toBe(
        "[INVALID_CONFIG] maxFrameBytes must be an integer in [0, 4294967295]; got null. Omit it for the default of 16777216",
      );
  });

  it("refuses options that set no maxFrameBytes because they name something else, or are no object (they fell back to 16 MiB)", () => {
    const misspelt = { maxFrameByte: 1024 } as unknown as { maxFrameBytes: number };
    for (const make of [() => new FrameDecoder(misspelt), () => encodeFrame(new Uint8Array(0), misspelt)])
      expect((catchError(make) as EctpError).message).toBe('[INVALID_CONFIG] unknown frame option "maxFrameByte" (did you mean "maxFrameBytes"?); the only one is maxFrameBytes');
    expect((catchError(() => new FrameDecoder(1024 as never)) as EctpError).message).toBe(
      "[INVALID_CONFIG] frame options must be an object such as { maxFrameBytes: 1048576 }; got 1024",
    );
    // An empty object, or maxFrameBytes given as undefined, is the default.
    expect(new FrameDecoder({}).maxFrameBytes).toBe(16 * 1024 * 1024);
    expect(new FrameDecoder({ maxFrameBytes: undefined as never }).maxFrameBytes).toBe(16 * 1024 * 1024);
  });

  it("refuses an unknown option beside a valid maxFrameBytes, naming the nearest (it was checked only when maxFrameBytes was absent)", () => {
    const extra = { maxFrameBytes: 10, maxFrameByte: 5 } as unknown as { maxFrameBytes: number };
    for (const make of [() => new FrameDecoder(extra), () => encodeFrame(new Uint8Array(0), extra)])
      expect((catchError(make) as EctpError).message).toBe('[INVALID_CONFIG] unknown frame option "maxFrameByte" (did you mean "maxFrameBytes"?); the only one is maxFrameBytes');
    expect(new FrameDecoder({ maxFrameBytes: 10 }).maxFrameBytes).toBe(10);
  });

  it("refuses null, an array or a function as options with INVALID_CONFIG (null and [] silently meant the 16 MiB default); undefined is the default", () => {
    for (const [bad, shown] of [[null, "null"], [[], "an array"], [() => 1, "a function"], ["abc", '"abc"']] as const) {
      for (const make of [() => new FrameDecoder(bad as never), () => encodeFrame(new Uint8Array(0), bad as never)]) {
        const err = catchError(make);
        expect(EctpError.is(err) && err.code).toBe("INVALID_CONFIG");
        expect((err as EctpError).message).toBe(`[INVALID_CONFIG] frame options must be an object such as { maxFrameBytes: 1048576 }; got ${shown}`);
      }
    }
    expect(new FrameDecoder(undefined).maxFrameBytes).toBe(DEFAULT_MAX_FRAME_BYTES);
    expect(encodeFrame(bytes(1), undefined)).toEqual(bytes(0, 0, 0, 1, 1));
  });
});

describe("FrameDecoder", () => {
  it("defaults maxFrameBytes to 16 MiB", () => {
    expect(new FrameDecoder().maxFrameBytes).toBe(16 * 1024 * 1024);
    expect(DEFAULT_MAX_FRAME_BYTES).toBe(16 * 1024 * 1024);
    expect(FRAME_HEADER_BYTES).toBe(4);
  });

  it("returns several frames from one chunk, including zero-length ones", () => {
    const d = new FrameDecoder();
    const stream = concat([encodeFrame(bytes(1, 2)), encodeFrame(bytes()), encodeFrame(bytes(3))]);
    expect(d.push(stream)).toEqual([bytes(1, 2), bytes(), bytes(3)]);
    expect(d.bufferedBytes).toBe(0);
    expect(() => d.end()).not.toThrow();
  });

  // Mutant: each zero-length frame gets a fresh array (about 200 bytes each for 4 bytes of input).
  it("[C10] zero-length frames share one frozen empty payload: a peer's stream of them allocates no array per frame", () => {
    const frames = new FrameDecoder().push(new Uint8Array(4 * 1000));
    expect(frames).toHaveLength(1000);
    expect(new Set(frames).size).toBe(1);
    expect(Object.isFrozen(frames[0])).toBe(true);
    expect(frames[0]).toEqual(new Uint8Array(0));
  });

  it("reassembles a frame split byte by byte", () => {
    const d = new FrameDecoder();
    const stream = encodeFrame(bytes(9, 8, 7, 6, 5));
    const out: Uint8Array[] = [];
    for (let i = 0; i < stream.length; i++) {
      out.push(...d.push(stream.subarray(i, i + 1)));
      if (i < stream.length - 1) expect(d.bufferedBytes).toBe(i + 1);
    }
    expect(out).toEqual([bytes(9, 8, 7, 6, 5)]);
  });

  it("returns copies, never views of the caller's chunk", () => {
    const d = new FrameDecoder();
    const chunkBytes = encodeFrame(bytes(1, 2, 3));
    const [frame] = d.push(chunkBytes);
    chunkBytes.fill(0);
    expect(frame).toEqual(bytes(1, 2, 3));
    expect(frame!.buffer).not.toBe(chunkBytes.buffer);
  });

  it("returns copies for Node Buffers too (Buffer.slice is a view): a reused receive buffer never changes a frame", () => {
    const d = new FrameDecoder();
    const recv = Buffer.alloc(64 * 1024); // one receive buffer for every read, as net.Socket's onread allows
    const read = (data: Uint8Array) => {
      recv.set(data);
      return d.push(recv.subarray(0, data.length));
    };
    const [whole] = read(encodeFrame(bytes(0xaa, 0xbb, 0xcc)));
    const stream = encodeFrame(bytes(1, 2, 3, 4));
    expect(read(stream.subarray(0, 6))).toEqual([]); // header and two payload bytes
    const [split] = read(stream.subarray(6));
    read(encodeFrame(bytes(7, 7, 7, 7, 7, 7))); // the next reads overwrite recv
    expect(whole).toEqual(bytes(0xaa, 0xbb, 0xcc));
    expect(split).toEqual(bytes(1, 2, 3, 4));
    expect(whole!.buffer).not.toBe(recv.buffer);
    expect(whole!.buffer.byteLength).toBe(3); // not the receive buffer's 64 KiB kept alive
  });

  it("a frame arriving a byte at a time is held in one buffer no larger than its payload (no per-chunk pieces)", () => {
    const size = 200_000;
    const payload = new Uint8Array(size).map((_, i) => (i * 7) & 0xff);
    const stream = encodeFrame(payload);
    const d = new FrameDecoder();
    const held = new Set<ArrayBufferLike>();
    let largest = 0;
    let frames: Uint8Array[] = [];
    for (let i = 0; i < stream.length; i++) {
      frames = d.push(stream.subarray(i, i + 1));
      const partial = (d as unknown as { partial: Uint8Array }).partial;
      if (partial.length > 0) held.add(partial.buffer);
      largest = Math.max(largest, partial.length);
    }
    expect(largest).toBe(size);
    expect(frames).toHaveLength(1);
    expect(frames[0]).toEqual(payload);
    expect(frames[0]!.buffer.byteLength).toBe(size);
    // Doubling from 64 KiB: 64 Ki, 128 Ki, then the payload's 200,000 bytes: three buffers in all.
    expect(held.size).toBe(3);
  });

  it("a split frame whose chunks jump past the doubled buffer (more than 64 KiB at once) still grows to hold them", () => {
    const size = 300_000;
    const payload = new Uint8Array(size).map((_, i) => (i * 13 + 5) & 0xff);
    const stream = encodeFrame(payload);
    // First chunk: the header and 100,000 payload bytes (past the first 64 KiB buffer);
    // then one byte; then 150,000 bytes at once (past twice the buffer held); then the rest.
    for (const cuts of [[4 + 100_000, 4 + 100_001, 4 + 250_001], [5, 4 + 200_000]]) {
      const d = new FrameDecoder();
      const frames = chunk(stream, cuts).flatMap((c) => d.push(c));
      expect(frames).toHaveLength(1);
      expect(frames[0]).toEqual(payload);
      expect(d.bufferedBytes).toBe(0);
    }
  });

  it("accepts a frame of exactly maxFrameBytes", () => {
    const d = new FrameDecoder({ maxFrameBytes: 3 });
    expect(d.push(encodeFrame(bytes(1, 2, 3)))).toEqual([bytes(1, 2, 3)]);
  });

  it("throws FRAME_TOO_LARGE at push, keeps earlier frames in details, and refuses input until reset", () => {
    const d = new FrameDecoder({ maxFrameBytes: 4 });
    const stream = concat([encodeFrame(bytes(1)), bytes(0, 0, 0, 5), bytes(1, 2, 3, 4, 5)]);
    const err = catchError(() => d.push(stream)) as EctpError;
    expect(err).toBeInstanceOf(EctpError);
    expect(err.code).toBe("FRAME_TOO_LARGE");
    expect(err.details).toMatchObject({ length: 5, maxFrameBytes: 4, frames: [bytes(1)] });
    expect(d.bufferedBytes).toBe(0);
    // Refuses further input with that error, its frames handed out once: a caller reading
    // details.frames at every throw must not handle bytes(1) again.
    const stored = d.error as EctpError;
    expect(stored.message).toBe(err.message);
    expect(stored.details).toMatchObject({ length: 5, maxFrameBytes: 4, frames: [] });
    expect(catchError(() => d.push(encodeFrame(bytes(1))))).toBe(stored);
    expect(catchError(() => d.end())).toBe(stored);
    // end() reset it; so does reset().
    expect(d.push(encodeFrame(bytes(2)))).toEqual([bytes(2)]);
    d.reset();
    expect(d.error).toBeUndefined();
  });

  it("keeps every decoder's empty frames readable after a caller transfers one's buffer away", () => {
    const first = new FrameDecoder().push(bytes(0, 0, 0, 0))[0] as Uint8Array;
    try {
      structuredClone(first.buffer, { transfer: [first.buffer as ArrayBuffer] }); // Node 20 copies an untransferable buffer
    } catch {
      // (later Node versions refuse to transfer it)
    }
    const later = new FrameDecoder().push(bytes(0, 0, 0, 0))[0] as Uint8Array;
    expect(() => new Uint8Array(later.buffer)).not.toThrow(); // a detached buffer cannot be viewed
    expect(encodeFrame(later)).toEqual(bytes(0, 0, 0, 0));
    const decoded = decodeEnvelope(later);
    expect(decoded.ok ? "ok" : decoded.error.code).toBe("VERSION"); // an empty envelope, not gone bytes
  });

  it("treats the full unsigned 32-bit range as lengths (0xffffffff is too large, not negative)", () => {
    const d = new FrameDecoder();
    const err = catchError(() => d.push(bytes(0xff, 0xff, 0xff, 0xff))) as EctpError;
    expect(err.code).toBe("FRAME_TOO_LARGE");
    expect(err.details["length"]).toBe(0xffffffff);
  });

  it("end() reports a stream cut inside a header as MALFORMED_MESSAGE", () => {
    const d = new FrameDecoder();
    d.push(bytes(0, 0));
    const err = catchError(() => d.end()) as EctpError;
    expect(err.code).toBe("MALFORMED_MESSAGE");
    expect(err.message).toBe(
      "[MALFORMED_MESSAGE] stream ended inside a frame header (2 of 4 bytes); the peer closed mid-message",
    );
    expect(d.bufferedBytes).toBe(0);
  });

  it("end() reports a stream cut inside a payload as MALFORMED_MESSAGE", () => {
    const d = new FrameDecoder();
    d.push(bytes(0, 0, 0, 10, 1, 2, 3));
    const err = catchError(() => d.end()) as EctpError;
    expect(err.code).toBe("MALFORMED_MESSAGE");
    expect(err.message).toBe(
      "[MALFORMED_MESSAGE] stream ended inside a frame: 3 of 10 payload bytes received; the peer closed mid-message",
    );
    expect(err.details).toEqual({ bufferedBytes: 7, expectedPayloadBytes: 10 });
  });

  it("reset() drops a partial frame", () => {
    const d = new FrameDecoder();
    d.push(bytes(0, 0, 0, 2, 1));
    d.reset();
    expect(d.bufferedBytes).toBe(0);
    expect(d.push(encodeFrame(bytes(7)))).toEqual([bytes(7)]);
  });
});

// Property tests. numRuns >= 10,000 for the framer, as the foundation issue asks.
const RUNS = 10_000;
// Property bodies use plain checks: expect() per run costs more than the decoder itself.
const PROPERTY_TIMEOUT_MS = 120_000;

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function sameFrames(a: Uint8Array[], b: Uint8Array[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.length !== y.length) return false;
    for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return false;
  }
  return true;
}

describe("FrameDecoder properties", () => {
  it("decodes any frame sequence identically under any chunking", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (payloads, cuts) => {
          const d = new FrameDecoder({ maxFrameBytes: 64 });
          const out: Uint8Array[] = [];
          for (const c of chunk(concat(payloads.map((p) => encodeFrame(p))), cuts)) out.push(...d.push(c));
          check(sameFrames(out, payloads), "frames differ");
          check(d.bufferedBytes === 0, "bytes left buffered");
          d.end();
        },
      ),
      { numRuns: RUNS },
    );
  }, PROPERTY_TIMEOUT_MS);

  it("on random bytes in random chunks only returns frames or throws EctpError, with bounded buffering", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 256 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.integer({ min: 0, max: 64 }),
        (data, cuts, max) => {
          const d = new FrameDecoder({ maxFrameBytes: max });
          let stopped = false;
          for (const c of chunk(data, cuts)) {
            try {
              for (const f of d.push(c)) check(f.length <= max, "frame above max");
            } catch (e) {
              check(e instanceof EctpError && e.code === "FRAME_TOO_LARGE", `unexpected throw ${String(e)}`);
              stopped = true;
            }
            check(d.bufferedBytes <= max + FRAME_HEADER_BYTES, "buffered more than max + 4");
          }
          try {
            d.end();
          } catch (e) {
            check(
              e instanceof EctpError && (e.code === "FRAME_TOO_LARGE" || e.code === "MALFORMED_MESSAGE"),
              `unexpected throw at end ${String(e)}`,
            );
          }
          if (stopped) check(d.error === undefined, "end() did not reset"); // end() resets
        },
      ),
      { numRuns: RUNS },
    );
  }, PROPERTY_TIMEOUT_MS);

  it("reports every strict prefix of a valid stream that cuts a frame as MALFORMED_MESSAGE at end()", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 32 }), { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 6 }),
        (payloads, cutAt, cuts) => {
          const frames = payloads.map((p) => encodeFrame(p));
          const stream = concat(frames);
          const cut = cutAt % (stream.length + 1);
          const boundaries = new Set<number>([0]);
          let at = 0;
          for (const f of frames) {
            at += f.length;
            boundaries.add(at);
          }
          const d = new FrameDecoder({ maxFrameBytes: 32 });
          const out: Uint8Array[] = [];
          for (const c of chunk(stream.subarray(0, cut), cuts)) out.push(...d.push(c));
          if (boundaries.has(cut)) {
            d.end();
          } else {
            const err = catchError(() => d.end());
            check(err instanceof EctpError && err.code === "MALFORMED_MESSAGE", `unexpected ${String(err)}`);
          }
          // Frames completed before the cut are all delivered, in order.
          check(sameFrames(out, payloads.slice(0, out.length)), "frames differ");
          check(out.length === [...boundaries].filter((b) => b > 0 && b <= cut).length, "frame count");
        },
      ),
      { numRuns: RUNS },
    );
  }, PROPERTY_TIMEOUT_MS);

  it("refuses oversized length prefixes in any chunking without buffering their payload", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1024 }),
        fc.integer({ min: 1, max: 0xffffffff }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (max, excess, cuts) => {
          const length = Math.min(0xffffffff, max + excess);
          const header = new Uint8Array(4);
          new DataView(header.buffer).setUint32(0, length, false);
          const stream = concat([header, new Uint8Array(Math.min(length, 2048))]);
          const d = new FrameDecoder({ maxFrameBytes: max });
          let thrown: unknown;
          for (const c of chunk(stream, cuts)) {
            try {
              check(d.push(c).length === 0, "returned a frame");
            } catch (e) {
              thrown ??= e;
            }
            check(d.bufferedBytes <= FRAME_HEADER_BYTES, "buffered an oversized payload");
          }
          check(thrown instanceof EctpError && thrown.code === "FRAME_TOO_LARGE", `unexpected ${String(thrown)}`);
        },
      ),
      { numRuns: RUNS },
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe("byte input of encodeFrame, FrameDecoder.push and crc32c", () => {
  const code = (f: () => unknown): string | undefined => {
    try {
      f();
    } catch (e) {
      return EctpError.is(e) ? e.code : "untyped";
    }
    return undefined;
  };

  it("an ArrayBuffer (a WebSocket's binaryType \"arraybuffer\") or any view of one is read as its bytes", () => {
    const frame = encodeFrame(new Uint8Array([7, 8, 9, 10])); // 8 bytes: whole 16-bit elements too
    for (const input of [frame.buffer, new DataView(frame.buffer), new Uint16Array(frame.buffer)]) {
      const d = new FrameDecoder();
      expect(d.push(input as ArrayBuffer).map((f) => [...f])).toEqual([[7, 8, 9, 10]]);
    }
    expect([...encodeFrame(new Uint16Array([0x0201]) as unknown as Uint8Array)]).toEqual([0, 0, 0, 2, 1, 2]);
    expect([...encodeFrame(new Uint8Array([5, 6]).buffer as unknown as Uint8Array)]).toEqual([0, 0, 0, 2, 5, 6]);
    const zeros = new Uint8Array(8);
    for (const input of [zeros.buffer, new DataView(zeros.buffer), new Float64Array(1)]) expect(crc32c(input as unknown as Uint8Array)).toBe(crc32c(zeros));
    // A view is read by its own offset and length, not as its whole buffer.
    const padded = new Uint8Array([0xee, 0xee, ...frame, 0xee]);
    const window = new DataView(padded.buffer, 2, frame.length);
    expect(new FrameDecoder().push(window).map((f) => [...f])).toEqual([[7, 8, 9, 10]]);
    expect(crc32c(window)).toBe(crc32c(frame));
    expect([...encodeFrame(new DataView(padded.buffer, 6, 2))]).toEqual([0, 0, 0, 2, 7, 8]);
  });

  it("anything else is INVALID_ARGUMENT naming the input, and the decoder keeps its state", () => {
    const d = new FrameDecoder();
    expect(d.push(new Uint8Array([0, 0, 0, 2, 1]))).toEqual([]);
    for (const bad of ["abcd", 42, null, undefined, [1, 2], {}]) {
      expect(code(() => d.push(bad as unknown as Uint8Array))).toBe("INVALID_ARGUMENT");
      expect(code(() => encodeFrame(bad as unknown as Uint8Array))).toBe("INVALID_ARGUMENT");
      expect(code(() => crc32c(bad as unknown as Uint8Array))).toBe("INVALID_ARGUMENT");
    }
    expect(() => d.push("abcd" as unknown as Uint8Array)).toThrow("FrameDecoder.push chunk must be bytes (a Uint8Array, an ArrayBuffer or a view of one); got \"abcd\"");
    expect(d.push(new Uint8Array([2])).map((f) => [...f])).toEqual([[1, 2]]);
  });
});

describe("detached buffers", () => {
  const detachedBuffer = () => {
    const b = new ArrayBuffer(8);
    structuredClone(b, { transfer: [b] });
    return b;
  };
  const detachedView = <T,>(make: (b: ArrayBuffer) => T) => {
    const b = new ArrayBuffer(8);
    const v = make(b);
    structuredClone(b, { transfer: [b] });
    return v;
  };
  const error = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e;
    }
    return undefined;
  };

  // They threw a raw TypeError ("Cannot perform Construct on a detached ArrayBuffer"), or, for
  // crc32c of a detached Uint8Array, silently checksummed no bytes.
  it("are INVALID_ARGUMENT naming the detachment, never a TypeError or an empty input", () => {
    for (const input of [detachedBuffer(), detachedView((b) => new Uint8Array(b)), detachedView((b) => new DataView(b))]) {
      for (const f of [() => encodeFrame(input), () => new FrameDecoder().push(input), () => crc32c(input)]) {
        const e = error(f);
        expect(e).toBeInstanceOf(EctpError);
        expect((e as EctpError).code).toBe("INVALID_ARGUMENT");
        expect((e as EctpError).message).toContain("detached");
      }
    }
  });

  it("empty inputs that are not detached are still their (no) bytes", () => {
    expect(crc32c(new Uint8Array(0))).toBe(0);
    expect(crc32c(new ArrayBuffer(0))).toBe(0);
    expect(encodeFrame(new Uint8Array(0))).toEqual(new Uint8Array(FRAME_HEADER_BYTES));
    expect(new FrameDecoder().push(new DataView(new ArrayBuffer(0)))).toEqual([]);
  });
});

describe("FrameDecoder's documented usage", () => {
  /** The `@example` of FrameDecoder's TSDoc, as JavaScript (types stripped by esbuild). */
  function documentedExample(): string {
    const source = readFileSync(fileURLToPath(new URL("./framing.ts", import.meta.url)), "utf8");
    const doc = source.slice(0, source.indexOf("export class FrameDecoder"));
    const block = /@example\n \* ```ts\n([\s\S]*?) \* ```/.exec(doc.slice(doc.lastIndexOf("/**")));
    if (block === null) throw new Error("FrameDecoder's TSDoc has no ```ts @example");
    const ts = (block[1] as string).replace(/^ \* ?/gm, "");
    return transformSync(ts, { loader: "ts" }).code;
  }

  /** A socket stand-in: `on` registers handlers, `destroy` marks it closed. */
  class FakeSocket extends EventEmitter {
    destroyed = false;
    destroy(): void {
      this.destroyed = true;
    }
  }

  it("[I1] costs a hostile or cut-off peer its own stream, never the process", () => {
    const run = new Function("FrameDecoder", "EctpError", "decodeEnvelope", "socket", "handle", documentedExample());
    const handled: unknown[] = [];
    const handle = (r: unknown): void => {
      handled.push(r);
    };
    // A good frame, then a length prefix of 2^32 - 1 in the same chunk.
    const hostile = new FakeSocket();
    run(FrameDecoder, EctpError, decodeEnvelope, hostile, handle);
    expect(() => hostile.emit("data", concat([encodeFrame(bytes(8, 1)), bytes(0xff, 0xff, 0xff, 0xff)]))).not.toThrow();
    expect(hostile.destroyed).toBe(true);
    expect(handled).toHaveLength(1); // the frame before the bad prefix was handled, once
    expect(() => hostile.emit("data", encodeFrame(bytes(8, 1)))).not.toThrow();
    expect(() => hostile.emit("end")).not.toThrow();
    expect(handled).toHaveLength(1);
    // A peer that closes mid-header.
    const cut = new FakeSocket();
    run(FrameDecoder, EctpError, decodeEnvelope, cut, handle);
    cut.emit("data", bytes(0, 0));
    expect(() => cut.emit("end")).not.toThrow();
  });
});

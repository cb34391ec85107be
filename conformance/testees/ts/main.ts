/**
 * The reference testee as a process: `node dist/testee-ts.js` speaks the testee protocol
 * on stdin/stdout (binary frames, or JSON lines when ECTP_TESTEE_FORMAT=json-lines) over
 * `@ectp/core`, or over the core module named by ECTP_CORE_MODULE (a mutant bundle).
 * A request that cannot be read (a line that is not UTF-8, not JSON or not a TesteeRequest
 * object; a frame that does not decode, is over 64 MiB or is cut off by EOF) is malformed by
 * TESTEE-PROTOCOL.md §3 and never sent by the runner: the process names it on stderr and exits
 * with status 2, as there is no command id to answer and a binary stream cannot be resynchronised.
 * @module
 */
import { FrameDecoder, encodeFrame } from "@ectp/protocol";
import { JSON_OPTIONS, TesteeRequest, TesteeResponse, requestFromJson } from "../../src/proto.js";
import { CoreTesteeHandler, type CoreModule } from "./adapter.js";

/** TESTEE-PROTOCOL.md §3.1: frames over 64 MiB are malformed. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** Names an unreadable request (`why`, and the error behind it if any) on stderr and ends the process (status 2). */
function unreadable(why: string, err?: unknown): never {
  const cause = err === undefined ? "" : `: ${err instanceof Error ? err.message : String(err)}`;
  process.stderr.write(`ectp-ts testee: unreadable request on stdin (${why}${cause}); exiting\n`);
  process.exit(2);
}

/** `read()`'s value, or the process ends naming `what` and the error. */
function readable<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    return unreadable(what, err);
  }
}

async function main(): Promise<void> {
  const modulePath = process.env.ECTP_CORE_MODULE;
  const core = (modulePath ? await import(modulePath) : await import("@ectp/core")) as CoreModule;
  const handler = new CoreTesteeHandler(core, { name: modulePath ? `ectp-ts(${modulePath})` : "ectp-ts" });
  const json = process.env.ECTP_TESTEE_FORMAT === "json-lines";
  const decoder = new FrameDecoder({ maxFrameBytes: MAX_FRAME_BYTES });
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  // JSON lines are split as bytes and decoded one whole line at a time: a character split
  // across chunks stays whole, and the lines before one that is not UTF-8 are answered.
  const lineParts: Buffer[] = [];
  const answer = (req: unknown): void => {
    const res = TesteeResponse.fromObject(handler.handle(req as never) as Record<string, unknown>);
    if (json) process.stdout.write(`${JSON.stringify(TesteeResponse.toObject(res, JSON_OPTIONS))}\n`);
    else process.stdout.write(encodeFrame(TesteeResponse.encode(res).finish(), { maxFrameBytes: MAX_FRAME_BYTES }));
  };
  const answerLine = (bytes: Buffer): void => {
    const line = readable("a line is not UTF-8", () => utf8.decode(bytes)).trim();
    if (!line) return;
    const obj = readable("a line is not JSON", () => JSON.parse(line) as unknown);
    if (obj === null || typeof obj !== "object" || Array.isArray(obj))
      unreadable(`a line holds ${Array.isArray(obj) ? "a JSON array" : `JSON ${JSON.stringify(obj)}`}, not a TesteeRequest object`);
    answer(readable("a line is not a TesteeRequest", () => requestFromJson(obj as Record<string, unknown>)));
  };
  process.stdin.on("data", (chunk: Buffer) => {
    if (json) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
        lineParts.push(chunk.subarray(start, nl));
        answerLine(Buffer.concat(lineParts));
        lineParts.length = 0;
        start = nl + 1;
      }
      if (start < chunk.length) lineParts.push(chunk.subarray(start));
    } else {
      let frames: Uint8Array[];
      let oversized: unknown;
      try {
        frames = decoder.push(chunk);
      } catch (err) {
        // FRAME_TOO_LARGE: the frames completed before it in this chunk are in its details.
        frames = ((err as { details?: { frames?: Uint8Array[] } }).details?.frames ?? []) as Uint8Array[];
        oversized = err;
      }
      for (const frame of frames) answer(readable(`a frame of ${frame.length} bytes is not a TesteeRequest`, () => TesteeRequest.decode(frame)));
      if (oversized !== undefined) unreadable("a frame is not readable", oversized);
    }
  });
  // TESTEE-PROTOCOL.md §2: EOF or SIGTERM means exit promptly.
  process.stdin.on("end", () => {
    if (json) answerLine(Buffer.concat(lineParts)); // a last line without its newline
    else readable("stdin ended inside a frame", () => decoder.end());
    process.exit(0);
  });
  process.on("SIGTERM", () => process.exit(0));
}

main().catch((err) => {
  process.stderr.write(`ectp-ts testee failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(2);
});

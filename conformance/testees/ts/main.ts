/**
 * The reference testee as a process: `node dist/testee-ts.js` speaks the testee protocol
 * on stdin/stdout (binary frames, or JSON lines when ECTP_TESTEE_FORMAT=json-lines) over
 * `@ectp/core`, or over the core module named by ECTP_CORE_MODULE (a mutant bundle).
 * @module
 */
import { FrameDecoder, encodeFrame } from "@ectp/protocol";
import { JSON_OPTIONS, TesteeRequest, TesteeResponse } from "../../src/proto.js";
import { CoreTesteeHandler, type CoreModule } from "./adapter.js";

async function main(): Promise<void> {
  const modulePath = process.env.ECTP_CORE_MODULE;
  const core = (modulePath ? await import(modulePath) : await import("@ectp/core")) as CoreModule;
  const handler = new CoreTesteeHandler(core, { name: modulePath ? `ectp-ts(${modulePath})` : "ectp-ts" });
  const json = process.env.ECTP_TESTEE_FORMAT === "json-lines";
  const decoder = new FrameDecoder({ maxFrameBytes: 64 * 1024 * 1024 });
  let lineBuf = "";
  const answer = (req: unknown): void => {
    const res = TesteeResponse.fromObject(handler.handle(req as never) as Record<string, unknown>);
    if (json) process.stdout.write(`${JSON.stringify(TesteeResponse.toObject(res, JSON_OPTIONS))}\n`);
    else process.stdout.write(encodeFrame(TesteeResponse.encode(res).finish(), { maxFrameBytes: 64 * 1024 * 1024 }));
  };
  process.stdin.on("data", (chunk: Buffer) => {
    if (json) {
      lineBuf += chunk.toString("utf8");
      let nl = lineBuf.indexOf("\n");
      while (nl >= 0) {
        const line = lineBuf.slice(0, nl).trim();
        lineBuf = lineBuf.slice(nl + 1);
        if (line) answer(TesteeRequest.fromObject(JSON.parse(line) as Record<string, unknown>));
        nl = lineBuf.indexOf("\n");
      }
    } else {
      for (const frame of decoder.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)))
        answer(TesteeRequest.decode(frame));
    }
  });
  // TESTEE-PROTOCOL.md §2: EOF or SIGTERM means exit promptly.
  process.stdin.on("end", () => process.exit(0));
  process.on("SIGTERM", () => process.exit(0));
}

main().catch((err) => {
  process.stderr.write(`ectp-ts testee failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(2);
});

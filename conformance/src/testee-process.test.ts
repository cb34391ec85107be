// The TS reference testee as a process (testees/ts/main.ts): what it does with input that is
// not a TesteeRequest (TESTEE-PROTOCOL.md §3 calls it malformed; the runner never sends it).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { TS_TESTEE_FEATURES } from "../testees/ts/adapter.js";
import { bundleTsTestee } from "./test-support.js";

let command = "";
beforeAll(async () => {
  command = await bundleTsTestee();
}, 60_000);

/** Runs the testee on `stdin` (JSON lines when `jsonLines`) until it exits. */
function run(stdin: Buffer, jsonLines: boolean) {
  const env = { ...process.env, ECTP_TESTEE_FORMAT: jsonLines ? "json-lines" : "binary" };
  const r = spawnSync("sh", ["-c", command], { input: stdin, env, timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString("utf8") };
}

const INIT_LINE = `${JSON.stringify({ commandId: "1", nowMs: "0", init: { protocolVersion: 1 } })}\n`;
const INIT_FRAME = Buffer.from("00000006080152020801", "hex"); // TESTEE-PROTOCOL.md §3.3

describe("the TS reference testee process", () => {
  it("ships a features file (testees/ts/features.json, the one README.md's quickstart passes) claiming what its InitResult lists", () => {
    const file = JSON.parse(readFileSync(new URL("../testees/ts/features.json", import.meta.url), "utf8")) as { features: string[] };
    expect(file.features).toEqual([...TS_TESTEE_FEATURES]);
  });

  it.each([
    ["a line that is not JSON", Buffer.from(`${INIT_LINE}{not json\n`), true, "a line is not JSON"],
    ["a JSON array", Buffer.from(`${INIT_LINE}[1, 2]\n`), true, "a line holds a JSON array"],
    ["a JSON string", Buffer.from(`${INIT_LINE}"init"\n`), true, 'a line holds JSON "init"'],
    ["bytes that are not UTF-8", Buffer.concat([Buffer.from(INIT_LINE), Buffer.from([0xff, 0xfe, 0x0a])]), true, "a line is not UTF-8"],
    ["a field of the wrong type", Buffer.from(`${INIT_LINE}{"commandId":"2","init":"x"}\n`), true, "a line is not a TesteeRequest"],
    ["a frame that does not decode", Buffer.concat([INIT_FRAME, Buffer.from("0000000108", "hex")]), false, "a frame of 1 bytes is not a TesteeRequest"],
    ["a frame over 64 MiB", Buffer.concat([INIT_FRAME, Buffer.from("0400000108", "hex")]), false, "a frame is not readable"],
    ["a frame cut off by EOF", Buffer.concat([INIT_FRAME, Buffer.from("000000090801", "hex")]), false, "stdin ended inside a frame: [MALFORMED_MESSAGE] stream ended inside a frame: 2 of 9 payload bytes received"],
  ])("answers what came before %s, then names it on stderr and exits with status 2", (_what, stdin, jsonLines, why) => {
    const r = run(stdin, jsonLines);
    expect(r.stderr).toContain("unreadable request on stdin");
    expect(r.stderr).toContain(why);
    expect(r.stderr).not.toMatch(/\n\s+at /); // one line, no stack trace
    expect(r.status).toBe(2);
    expect(r.stdout.length).toBeGreaterThan(0); // the Init before it was answered
  });

  it("reads a JSON line whose multi-byte characters arrive split across writes, and a last line without its newline", () => {
    // The item id's "é" is split between two chunks by writing the input in 1-byte pieces.
    const lines = [
      INIT_LINE,
      `${JSON.stringify({ commandId: "2", nowMs: "0", configure: { role: "ROLE_CONSUMER", id: "C1", epoch: "1", fingerprint: { model: "m" } } })}\n`,
      JSON.stringify({ commandId: "3", nowMs: "0", admit: { requestId: "r", items: [{ itemId: "é", hasModelInput: true }] } }),
    ].join("");
    const feeder = `const s=${JSON.stringify(lines)};const b=Buffer.from(s);let i=0;const t=setInterval(()=>{if(i>=b.length){clearInterval(t);return;}process.stdout.write(b.subarray(i,i+1));i++;},0);`;
    const env = { ...process.env, ECTP_TESTEE_FORMAT: "json-lines" };
    const r = spawnSync("sh", ["-c", `${JSON.stringify(process.execPath)} -e ${JSON.stringify(feeder)} | ${command}`], { env, timeout: 60_000 });
    expect(r.stderr.toString("utf8")).toBe("");
    expect(r.status).toBe(0);
    const out = r.stdout
      .toString("utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out.map((o) => o.commandId)).toEqual(["1", "2", "3"]);
    expect(out[2]).toMatchObject({ admit: { status: "ADMIT_STATUS_ADMITTED", items: [{ itemId: "é" }] } });
  });
});

describe("the TS reference testee reads snake_case requests", () => {
  // TESTEE-PROTOCOL.md §3.2: "Field names are lowerCamelCase (`commandId`, `nowMs`, `readRequest`).
  // Testees SHOULD also accept the original snake_case names; the runner accepts either in responses."
  // (The Python reference testee does; the TS one read snake_case keys as absent.)
  it("accepts the original snake_case field names in requests", async () => {
    const command = await bundleTsTestee();
    const [node, script] = JSON.parse(`[${command.replace('" "', '", "')}]`) as [string, string];
    const lines = [
      { command_id: "7", now_ms: "0", init: { protocol_version: 1 } },
      { command_id: "8", now_ms: "1000", configure: { role: "ROLE_CONSUMER", id: "C1", epoch: "1", fingerprint: { model: "m" }, destination_capacity_bytes: "4096" } },
      { command_id: "9", now_ms: "1000", get_stats: {} },
    ];
    const run = spawnSync(node, [script], {
      input: `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
      env: { ...process.env, ECTP_TESTEE_FORMAT: "json-lines", ECTP_TESTEE_PROTOCOL: "1" },
      encoding: "utf8",
      timeout: 20_000,
    });
    const answers = run.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(answers).toHaveLength(3);
    expect(answers[0]).toMatchObject({ commandId: "7", init: { protocolVersion: 1 } });
    expect(answers[1]).toMatchObject({ commandId: "8", ok: {} });
    expect(answers[2]).toMatchObject({ commandId: "9", stats: { consumer: {} } });
  }, 60_000);
});

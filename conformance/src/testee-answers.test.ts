/**
 * What the runner says when a JSON-lines testee answers a command wrongly mid-case
 * (TESTEE-PROTOCOL.md §6): the TS testee behind a proxy that spoils the first answer to one
 * command (or dies, or goes silent, when that command arrives). Each message names the command and
 * the case time, and blames the answer, not an invariant of the implementation.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TS_TESTEE_FEATURES } from "../testees/ts/adapter.js";
import { loadCases } from "./cases/load.js";
import { runSuite } from "./runner/suite.js";
import { spawnTestee } from "./testee/subprocess.js";
import { bundleTsTestee, fakeTestee } from "./test-support.js";

/** A producer case that puts an item, polls and reads the stats after every step. */
const CASE = loadCases().filter((c) => c.fullName === "producer/p8-liveness/unknown-capabilities-in-a-hello-are-ignored");

/**
 * The proxy: forwards lines both ways; for the first request whose command is `COMMAND` it applies
 * `MODE` (env): rewrite the answer, misspell its result or a field inside it, leave the result out, write two
 * results, a line that is not JSON, exit, or never answer
 * ("done": change nothing); `blank-at-eof` and `json-at-eof` write white space or a JSON line as
 * the runner closes it.
 */
function proxy(testee: string): string {
  return fakeTestee(
    "spoiling-proxy",
    `import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
const { MODE, COMMAND } = process.env;
const child = spawn("sh", ["-c", ${JSON.stringify(testee)}], { stdio: ["pipe", "pipe", "inherit"] });
let target; // the command id of the request to spoil
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line);
  if (target === undefined && req[COMMAND] !== undefined) {
    target = req.commandId;
    if (MODE === "exit") process.exit(1);
    if (MODE === "hang") return;
  }
  child.stdin.write(line + "\\n");
});
process.stdin.on("end", () => {
  // Written as the runner closes the testee, after its last answer.
  if (MODE === "blank-at-eof") process.stdout.write("\\n  \\n\\t\\r\\n");
  if (MODE === "json-at-eof") process.stdout.write(JSON.stringify({ commandId: 0, ok: {} }) + "\\n");
  child.stdin.end();
});
createInterface({ input: child.stdout }).on("line", (line) => {
  const res = JSON.parse(line);
  if (res.commandId !== target || MODE === "done") return void process.stdout.write(line + "\\n");
  if (MODE === "ok") return void process.stdout.write(JSON.stringify({ commandId: res.commandId, ok: {} }) + "\\n");
  if (MODE === "unsupported") return void process.stdout.write(JSON.stringify({ commandId: res.commandId, unsupported: {} }) + "\\n");
  if (MODE === "misspelt") return void process.stdout.write(JSON.stringify({ commandId: res.commandId, pollResult: res.poll }) + "\\n");
  if (MODE === "none") return void process.stdout.write(JSON.stringify({ commandId: res.commandId }) + "\\n");
  if (MODE === "nested") {
    const { pinnedBytes, ...rest } = res.stats.producer;
    return void process.stdout.write(JSON.stringify({ commandId: res.commandId, stats: { producer: { ...rest, pinned_byte: pinnedBytes ?? 0 } } }) + "\\n");
  }
  if (MODE === "two") return void process.stdout.write(JSON.stringify({ ...res, ok: {} }) + "\\n");
  if (MODE === "truncated") return void process.stdout.write(JSON.stringify(res).slice(0, 40) + "\\n");
  if (MODE === "huge") return void process.stdout.write(JSON.stringify({ commandId: res.commandId, stats: { producer: { ...res.stats.producer, ignoredMessages: "18446744073709551615" } } }) + "\\n");
  if (MODE === "lots") return void process.stdout.write(JSON.stringify({ commandId: res.commandId, stats: { producer: { ...res.stats.producer, grants: "lots" } } }) + "\\n");
});
child.on("exit", () => process.exit(0));`,
  );
}

let command: string;
beforeAll(async () => {
  command = proxy(await bundleTsTestee());
}, 60_000);

/** The one case's failure message with the proxy in `mode` on the first `cmd`. */
async function failure(mode: string, cmd: string): Promise<string> {
  const report = await runSuite({
    testee: () => spawnTestee({ command, jsonLines: true, commandTimeoutMs: 1000, env: { MODE: mode, COMMAND: cmd } }),
    features: TS_TESTEE_FEATURES,
    level: "all",
    cases: CASE,
  });
  const [r] = report.results;
  expect(r?.status, r?.message).toBe("failed");
  return r?.message ?? "";
}

describe("a testee's wrong answer mid-case (JSON lines)", () => {
  it("the case is the one meant (it passes through the proxy unspoilt)", async () => {
    expect(CASE).toHaveLength(1);
    const report = await runSuite({
      testee: () => spawnTestee({ command, jsonLines: true, env: { MODE: "done", COMMAND: "poll" } }),
      features: TS_TESTEE_FEATURES,
      level: "all",
      cases: CASE,
    });
    expect(report.results.map((r) => r.status)).toEqual(["passed"]);
  }, 60_000);

  it("white space written as the runner closes a JSON-lines testee is no output; a JSON line then fails the case (TESTEE-PROTOCOL.md §2)", async () => {
    const run = (mode: string) =>
      runSuite({ testee: () => spawnTestee({ command, jsonLines: true, env: { MODE: mode, COMMAND: "none" } }), features: TS_TESTEE_FEATURES, level: "all", cases: CASE });
    const blank = await run("blank-at-eof");
    const json = await run("json-at-eof");
    expect(blank.results.map((r) => r.status)).toEqual(["passed"]);
    expect(json.results[0]).toMatchObject({ status: "failed", message: expect.stringContaining('its last answer, read as the runner closed it (24 bytes, starting "{\\"commandId\\":0,\\"ok\\":{}}') });
  }, 60_000);

  it("a Poll answered Ok names the command, the case time and the result wanted", async () => {
    expect(await failure("ok", "poll")).toBe(
      'poll at t=0 was answered with {"ok":{}}; expected poll\n' +
        "  before step 1 of 7, after the Configure the runner sends first (the case begins with no configure step)",
    );
  }, 60_000);

  it("a Poll answered Unsupported for the claimed role fails as §6 says (it was 'poll answered with ...')", async () => {
    expect(await failure("unsupported", "poll")).toBe(
      'poll at t=0 was answered Unsupported{feature: ""}, but the features file claims "producer": a claimed feature must be supported (TESTEE-PROTOCOL.md §6)\n' +
        "  before step 1 of 7, after the Configure the runner sends first (the case begins with no configure step)",
    );
  }, 60_000);

  it("a stats counter that does not convert is blamed on the answer, not reported as an [I3] difference", async () => {
    // Refused as it is read (it used to convert to NaN, and was then refused as no count).
    expect(await failure("lots", "getStats")).toBe(
      'testee malformed: response is not a TesteeResponse: TesteeResponse.stats.producer.grants is "lots": a uint64 is written as a string of decimal digits or as a JSON number holding a safe integer (TESTEE-PROTOCOL.md section 3.2) (while getStats at t=0 waited for its answer)\n' +
        '  at step 1 of 7: {"deliver":{"from":"C1","envelope":{"hello":{"role":"ROLE_CONSUMER","fingerprint":{"model":"conformance/model@1","dtype":"DTYPE_BFLOAT16","rowBytes":2048,"layoutVersion":1},"capabilities":["x.future.v…',
    );
  }, 60_000);

  it("a stats counter above 2^53-1 written as a decimal string is said to be past what the runner holds exactly, not 'not a count'", async () => {
    // It was shown as 18446744073709552000 and called "not a count", though it is a uint64 as §3.2 allows.
    expect((await failure("huge", "getStats")).split("\n")[0]).toBe(
      "getStats at t=0: Stats.producer.ignoredMessages is 18446744073709552000 (shown rounded), above 2^53-1, which the runner cannot hold exactly " +
        "(it holds every counter as a number: TESTEE-PROTOCOL.md §3.2); no case makes a counter that large",
    );
  }, 60_000);

  it("an answer setting two results is malformed (the second was ignored)", async () => {
    expect(await failure("two", "putItem")).toMatch(
      /^testee malformed: the response to command \d+ sets 2 results \(ok, putItem\); TesteeResponse\.result is a oneof: set exactly one \(while putItem at t=0 waited for its answer\)/,
    );
  }, 60_000);

  it("an answer with a result name the schema does not define is malformed and lists the names it has", async () => {
    expect(await failure("misspelt", "poll")).toMatch(
      /^testee malformed: response is not a TesteeResponse: TesteeResponse \(ectp\.conformance\.v1\.TesteeResponse\) has a field "pollResult" that the schema does not define; its fields: commandId, ok, init, admit, drainFailed, putItem, announce, readMemory, poll, stats, unsupported, error, view, decodeStream \(while poll at t=0 waited for its answer\)/,
    );
  }, 60_000);

  it("an answer setting no result is malformed and names the fields it did write", async () => {
    expect(await failure("none", "poll")).toMatch(
      /^testee malformed: the response to command \d+ sets no result \(its fields: "commandId"\); a TesteeResponse sets exactly one of ok, init, admit, drainFailed, putItem, announce, readMemory, poll, stats, unsupported, error, view, decodeStream \(while poll at t=0 waited for its answer\)/,
    );
  }, 60_000);

  it("a field name misspelt inside a result is malformed, named with where it is and the name meant (it would read as absent)", async () => {
    expect(await failure("nested", "getStats")).toMatch(
      /^testee malformed: response is not a TesteeResponse: TesteeResponse\.stats\.producer \(ectp\.conformance\.v1\.ProducerStats\) has a field "pinned_byte" that the schema does not define \(did you mean "pinnedBytes"\?\) \(while getStats at t=0 waited for its answer\)/,
    );
  }, 60_000);

  it("a line that is not JSON is unreadable output, quoted", async () => {
    expect(await failure("truncated", "putItem")).toMatch(
      /^testee malformed: unreadable output: a line that is not JSON \(.+\): "\{\\"commandId\\":\\"\d+\\",\\"putItem\\".*" \(while putItem at t=0 waited for its answer\)/,
    );
  }, 60_000);

  it("a testee that exits or goes silent on a command is reported with that command and the case time", async () => {
    expect(await failure("exit", "putItem")).toMatch(/^testee exited: exited with code 1 \(while putItem at t=0 waited for its answer\)/);
    expect(await failure("hang", "putItem")).toMatch(/^testee hung: no response within 1000 ms \(while putItem at t=0 waited for its answer\)/);
  }, 60_000);
});

/**
 * The TS testee behind a proxy (either encoding) that writes `STRAY` (text) or `STRAY_HEX` (bytes) once
 * per run (`FLAG` names a file made then) with its `STRAY_AT`-th answer, or, with `STRAY_WHEN=next`, as
 * the next request arrives (so after the runner sent it), before passing that request on. It writes the
 * number of answers it forwarded to `COUNT_FILE`.
 */
function strayProxy(testee: string): string {
  return fakeTestee(
    "stray-proxy",
    `import { spawn } from "node:child_process"; import { existsSync, writeFileSync } from "node:fs";
const env = process.env; const json = env.ECTP_TESTEE_FORMAT === "json-lines";
const child = spawn("sh", ["-c", ${JSON.stringify(testee)}], { stdio: ["pipe", "pipe", "inherit"] });
const stray = () => { if (env.FLAG && existsSync(env.FLAG)) return Buffer.alloc(0); if (env.FLAG) writeFileSync(env.FLAG, "x");
  return env.STRAY_HEX ? Buffer.from(env.STRAY_HEX, "hex") : Buffer.from(env.STRAY ?? ""); };
let buf = Buffer.alloc(0); let n = 0; let due = false;
process.stdin.on("data", (c) => { if (due) { due = false; process.stdout.write(stray()); } child.stdin.write(c); });
process.stdin.on("end", () => child.stdin.end());
child.stdout.on("data", (c) => { buf = Buffer.concat([buf, c]); for (;;) { let len;
  if (json) { const nl = buf.indexOf(10); if (nl < 0) break; len = nl + 1; } else { if (buf.length < 4 || buf.length < 4 + buf.readUInt32BE(0)) break; len = 4 + buf.readUInt32BE(0); }
  let out = buf.subarray(0, len); buf = buf.subarray(len); n++; if (env.COUNT_FILE) writeFileSync(env.COUNT_FILE, String(n));
  if (n === Number(env.STRAY_AT)) { if (env.STRAY_WHEN === "next") due = true; else out = Buffer.concat([out, stray()]); }
  process.stdout.write(out); } });
child.on("exit", () => process.exit(0));`,
  );
}

describe("part of a line or frame after a case's last answer (TESTEE-PROTOCOL.md §2)", () => {
  const TWO = loadCases().filter((c) =>
    ["consumer/c1-admission/local-item-is-ready", "consumer/c1-admission/no-announcement-with-model-input-encodes-locally"].includes(c.fullName),
  );
  let stray = "";
  let scratch = "";
  beforeAll(async () => {
    stray = strayProxy(await bundleTsTestee());
    scratch = mkdtempSync(join(tmpdir(), "ectp-stray-"));
  }, 60_000);
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
  const run = (jsonLines: boolean, env: Record<string, string>, cases = TWO) =>
    runSuite({
      testee: () => spawnTestee({ command: stray, jsonLines, commandTimeoutMs: 2000, env: { COUNT_FILE: join(scratch, "count"), ...env } }),
      features: TS_TESTEE_FEATURES,
      level: "all",
      cases,
    });

  it.each([
    ["JSON lines", true, { STRAY: '{"commandId":' }, "part of a line with no line end"],
    ["binary frames", false, { STRAY_HEX: "000000" }, "part of a frame (3 bytes, no whole frame)"],
  ])("%s: fails the case of the command answered last, not the next case, also when it is the run's last", async (_what, jsonLines, env, said) => {
    expect(TWO).toHaveLength(2);
    await run(jsonLines, {}, TWO.slice(0, 1));
    const last = Number(readFileSync(join(scratch, "count"), "utf8")); // the first case's last answer
    const report = await run(jsonLines, { ...env, STRAY_AT: String(last), FLAG: join(scratch, `flag-${String(jsonLines)}`) });
    expect(report.results.map((r) => r.status), report.results[1]?.message).toEqual(["failed", "passed"]);
    expect(report.results[0]?.message).toContain(`output after the response to command ${last}: ${said}`);
    // The last case of a run: its answer with part of a line or frame after it.
    const alone = await run(jsonLines, { ...env, STRAY_AT: String(last) }, TWO.slice(0, 1));
    expect(alone.results[0]).toMatchObject({ status: "failed", message: expect.stringContaining(said) });
  }, 60_000);

  it.each([
    ["JSON lines", true, { STRAY: '{"commandId":' }, 'part of a line with no line end (13 characters: "{\\"commandId\\":")'],
    ["binary frames", false, { STRAY_HEX: "000000" }, 'part of a frame (3 bytes: 000000 in hex)'],
    ["binary frames, a length prefix with no frame", false, { STRAY_HEX: "00000005" }, 'part of a frame (4 bytes: 00000005 in hex)'],
    ["binary frames, a frame cut short", false, { STRAY_HEX: "0000002008" }, 'part of a frame (5 bytes: 0000002008 in hex)'],
  ])("%s: written after the next command went out, it is not read as the start of that command's answer", async (what, jsonLines, env, said) => {
    await run(jsonLines, {}, TWO.slice(0, 1));
    const last = Number(readFileSync(join(scratch, "count"), "utf8"));
    const next = { ...env, STRAY_WHEN: "next" };
    // Between cases: it fails the case of the command answered last; the next case runs again, on a fresh testee, and passes.
    const report = await run(jsonLines, { ...next, STRAY_AT: String(last), FLAG: join(scratch, `flag-next-${what}`) });
    expect(report.results.map((r) => r.status), report.results[1]?.message).toEqual(["failed", "passed"]);
    expect(report.results[0]?.message).toContain(
      `output after the response to command ${last}, read once command ${last + 1} had gone out and before its answer: ${said}: a command answered twice, or output written unasked`,
    );
    // Mid-case: it fails that case, naming the same.
    const mid = await run(jsonLines, { ...next, STRAY_AT: "3" }, TWO.slice(0, 1));
    expect(mid.results[0]).toMatchObject({
      status: "failed",
      message: expect.stringContaining(`output after the response to command 3, read once command 4 had gone out and before its answer: ${said}`),
    });
  }, 60_000);

  it.each([
    ["JSON lines", true, { STRAY: "oops\n" }, 'unreadable output: a JSON line must start with "{"; the testee wrote "oops"'],
    ["binary frames", false, { STRAY: "oops\n" }, "unreadable output: after "],
  ])("%s: output that cannot be read, right after a case's last answer, fails that case and names the answer it followed", async (_what, jsonLines, env, said) => {
    await run(jsonLines, {}, TWO.slice(0, 1));
    const last = Number(readFileSync(join(scratch, "count"), "utf8"));
    const report = await run(jsonLines, { ...env, STRAY_AT: String(last), FLAG: join(scratch, `flag-oops-${String(jsonLines)}`) });
    expect(report.results.map((r) => r.status), report.results[1]?.message).toEqual(["failed", "passed"]);
    expect(report.results[0]?.message).toContain(`output after the response to command ${last}: ${said}`);
    expect(report.results[0]?.message).not.toContain("waited for its answer"); // its answer was taken: no command is blamed for it
  }, 60_000);
});

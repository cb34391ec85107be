// biome-ignore-all lint/suspicious/noTemplateCurlyInString: case templates ("${var}"), not JS ones
/**
 * What a failed case says, from a review that planted bugs in a copy of the Python testee
 * (2026-12-05): outputs of megabytes listed whole, a retry that came before its window reported as
 * never seen, stderr of earlier cases shown as this case's, and a testee retrying at once (no
 * backoff) that made each case run into its one-minute timeout. Each test failed before its fix.
 */
import { describe, expect, it } from "vitest";
import type { CaseSpec, LoadedCase } from "./cases/format.js";
import { TS_TESTEE_FEATURES } from "./mutants/run.js";
import { ectp } from "./proto.js";
import { runSuite } from "./runner/suite.js";
import { alteredTsTestee, fakeTestee, withRawFromEnvelopes } from "./test-support.js";
import { inProcessTestee } from "./testee/in-process.js";
import { spawnTestee } from "./testee/subprocess.js";

const C = ectp.conformance.v1;
const mk = (name: string, spec: Partial<CaseSpec>): LoadedCase => ({
  fullName: `runner-failure-reports/${name}`,
  file: "runner-failure-reports.json",
  spec: { name, requirements: ["C4"], level: "REQUIRED", role: "consumer", steps: [], ...spec } as CaseSpec,
});
const run = async (c: LoadedCase, testee: Parameters<typeof runSuite>[0]["testee"], caseTimeoutMs?: number) =>
  (await runSuite({ testee, features: TS_TESTEE_FEATURES, cases: [c], level: "all", caseTimeoutMs })).results[0];

/** Admits r1 with item A announced: the consumer sends a Hello and a ReadRequest at t=0. */
const admitA = { admit: { request: "r1", items: [{ id: "i1", announce: "A" }] }, expect: { status: "admitted", items: [{ action: "defer" }] } };
const readRequest = { send: { to: "P1", envelope: { readRequest: { $any: true } } } };

describe("a failure message lists each output shortened, however large", () => {
  it("twenty outputs of 200 000 characters each: the message shows the start of the last 12, each with its kind and how much was cut", async () => {
    let added = false;
    // The first poll with outputs gets 20 more of them, each 200 000 characters of JSON.
    const huge = alteredTsTestee((res) => {
      if (!added && (res.poll?.outputs?.length ?? 0) > 0) {
        added = true;
        for (let i = 0; i < 20; i++) res.poll?.outputs?.push({ connectPeer: { peerId: `peer-${i}-${"x".repeat(200_000)}`, epoch: 1 } });
        res.poll?.outputs?.push({
          send: { to: "P9", envelope: { version: { major: 1 }, senderId: "C1", senderEpoch: 1, hello: { transportMetadata: new Uint8Array(300_000) } } },
        });
      }
      return res;
    });
    const r = await run(mk("huge-outputs", { items: { A: { size: 4096 } }, steps: [admitA, { expectSent: [{ send: { to: "P7" } }] }] }), huge);
    expect(added).toBe(true);
    expect(r?.status).toBe("failed");
    const message = r?.message ?? "";
    expect(message).toMatch(/^expected output not seen by t=0 \(1 of 1\)/);
    expect(message).toContain("unconsumed outputs (last 12 of 23):");
    expect(message).toContain(`  t=0 {"connectPeer":{"peerId":"peer-19-xxx`);
    expect(message).toMatch(/… \[connectPeer output, cut: \d+ of its \d+ characters not shown\]/);
    expect(message).toMatch(/\{"send":\{"to":"P9".*… \[send of hello to P9, cut: \d+ of its \d+ characters not shown\]/);
    expect(message.length).toBeLessThan(12 * 700);
  });

  it("a send is listed by its envelope, without the bytes the testee encoded (raw-outputs checks those)", async () => {
    let raws = 0;
    const counting = alteredTsTestee((res) => {
      raws += (res.poll?.outputs ?? []).filter((o) => (o.send?.raw?.length ?? 0) > 0).length;
      return res;
    });
    const r = await run(mk("send-without-raw", { items: { A: { size: 4096 } }, steps: [admitA, { expectSent: [{ send: { to: "P7" } }] }] }), counting);
    expect(raws).toBeGreaterThan(0);
    expect(r?.status).toBe("failed");
    expect(r?.message).toMatch(/t=0 \{"send":\{"to":"P1","envelope":\{[^\n]*"readRequest"/);
    expect(r?.message).not.toContain('"raw"');
  });

  it("an output is never cut between the two halves of a character outside the BMP (the JUnit report could not carry a lone one)", async () => {
    // {"connectPeer":{"peerId":" is 26 characters: 473 x's more, and the first emoji takes characters 500 and 501.
    const peerId = `${"x".repeat(473)}${"\u{1F600}".repeat(300)}`;
    let added = false;
    const emoji = alteredTsTestee((res) => {
      if (!added && (res.poll?.outputs?.length ?? 0) > 0) {
        added = true;
        res.poll?.outputs?.push({ connectPeer: { peerId, epoch: 1 } });
      }
      return res;
    });
    const r = await run(mk("emoji-output", { items: { A: { size: 4096 } }, steps: [admitA, { expectSent: [{ send: { to: "P7" } }] }] }), emoji);
    const message = r?.message ?? "";
    // 499 characters shown: the emoji whose first half is character 500 goes whole into the part cut.
    const cut = /\{"connectPeer":\{"peerId":"x{473}… \[connectPeer output, cut: (\d+) of its (\d+) characters not shown\]/.exec(message);
    expect(cut === null ? undefined : Number(cut[2]) - Number(cut[1])).toBe(499);
    expect(message).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe("an expectSent output that came before its window, and none in it", () => {
  it("is reported as early, at its time, not as never seen", async () => {
    // The ReadRequest goes out at t=0; the window asks for one between t=10 and t=20.
    const c = mk("early-only", { items: { A: { size: 4096 } }, steps: [admitA, { expectSent: [{ ...readRequest, $window: [10, 20] }] }] });
    const r = await run(c, alteredTsTestee((res) => res));
    expect(r?.status).toBe("failed");
    expect(r?.message).toMatch(
      /^expected output came early, at t=0, before its window opened at t=10, and none came in the window by t=20 \(1 of 1\): \{"send":\{"to":"P1".*"readRequest"/,
    );
  });

  it("an output in the window passes; one after it is still not seen", async () => {
    const inWindow = mk("in-window", { items: { A: { size: 4096 } }, steps: [admitA, { expectSent: [{ ...readRequest, $window: [0, 20] }] }] });
    expect((await run(inWindow, alteredTsTestee((res) => res)))?.status).toBe("passed");
    // A Heartbeat goes out at t=2000, after a window ending at t=1000.
    const late = mk("late", { items: { A: { size: 4096 } }, steps: [admitA, { expectSent: [{ send: { envelope: { heartbeat: { $any: true } } }, $window: [500, 1000] }] }] });
    expect((await run(late, alteredTsTestee((res) => res)))?.message).toMatch(/^expected output not seen by t=1000 \(1 of 1\)/);
  });
});

describe("the stderr shown with a testee fault", () => {
  // JSON lines: the first Configure writes a warning and is answered; the second writes a line and exits.
  const source = `
import { createInterface } from "node:readline";
let configures = 0;
const answer = (id, body) => process.stdout.write(JSON.stringify({ commandId: id, ...body }) + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line);
  const id = req.commandId;
  if (req.init) return answer(id, { init: { protocolVersion: 1 } });
  if (req.configure && ++configures === 2) return process.stderr.write("crash in the second case\\n", () => process.exit(3));
  if (req.configure) return process.stderr.write("warning from the first case\\n", () => answer(id, { ok: {} }));
  if (req.poll) return answer(id, { poll: {} });
  if (req.getStats) return answer(id, { stats: { consumer: {} } });
  if (req.drainFailed) return answer(id, { drainFailed: {} });
  answer(id, { ok: {} });
});
process.stdin.on("end", () => process.exit(0));
`;

  it("is what the testee wrote since the case began, not an earlier case's lines", async () => {
    const command = fakeTestee("stderr-per-case", source);
    const report = await runSuite({
      testee: () => spawnTestee({ command, jsonLines: true }),
      features: ["consumer"],
      cases: [mk("first", {}), mk("second", {})],
    });
    expect(report.results.map((r) => r.status)).toEqual(["passed", "failed"]);
    const message = report.results[1]?.message ?? "";
    expect(message).toMatch(/^testee exited: exited with code 3 \(while configure at t=0 waited for its answer\)\n {2}in the Configure the runner sends first \(the case has no steps\)\n--- testee stderr since this case began; the \d+ characters before it left out ---\ncrash in the second case\n$/);
    expect(message).not.toContain("warning from the first case");
  }, 30_000);

  // Found by counting, not by matching the kept tail: a testee writing one line over and over keeps
  // a tail that looks the same before and after, which read as "nothing written since".
  it("is exact when the testee writes the same line in every case, and says what was not kept", async () => {
    /** The messages of two cases run on one testee whose second Configure writes `crashLines` lines and exits. */
    const messages = async (name: string, crashLines: number) => {
      const repeating = source
        .replace('process.stderr.write("crash in the second case\\n"', `process.stderr.write("same line\\n".repeat(${crashLines})`)
        .replace('process.stderr.write("warning from the first case\\n"', 'process.stderr.write("same line\\n".repeat(2000)');
      expect(repeating).not.toBe(source);
      const command = fakeTestee(name, repeating);
      const report = await runSuite({ testee: () => spawnTestee({ command, jsonLines: true }), features: ["consumer"], cases: [mk("first", {}), mk("second", {})] });
      return report.results.map((r) => r.message ?? "");
    };
    // 20,000 characters, then 30: the 8 KiB kept end with the 30.
    expect((await messages("stderr-repeated-line", 3))[1]).toMatch(/\n--- testee stderr since this case began; the 8162 characters before it left out ---\n(same line\n){3}$/);
    // A case whose own 10,000 characters are more than the runner keeps: all it keeps, and how much fell off.
    expect((await messages("stderr-long-case", 1000))[1]).toMatch(/\n--- testee stderr since this case began; its first 1808 characters not kept ---\ne\n(same line\n){819}$/);
  }, 60_000);

  /** The two cases' messages with `source` changed by `replacements` (each must apply). */
  const twoCases = async (name: string, replacements: [string, string][]) => {
    let changed = source;
    for (const [from, to] of replacements) {
      expect(changed).toContain(from);
      changed = changed.replace(from, to);
    }
    const command = fakeTestee(name, changed);
    const report = await runSuite({ testee: () => spawnTestee({ command, jsonLines: true }), features: ["consumer"], cases: [mk("first", {}), mk("second", {})] });
    return report.results.map((r) => `${r.status}: ${r.message ?? ""}`);
  };

  it("from a testee that ran an earlier case writing nothing is still only this case's, under the line that says so", async () => {
    // It used to be shown as a started testee's tail: the count at the case's start, 0, read as "started for the case".
    const [first, second] = await twoCases("stderr-none-before", [['process.stderr.write("warning from the first case\\n", () => answer(id, { ok: {} }))', "answer(id, { ok: {} })"]]);
    expect(first).toBe("passed: ");
    expect(second).toMatch(/\n--- testee stderr since this case began ---\ncrash in the second case\n$/);
  }, 30_000);

  it("is never cut between the two halves of a character outside the BMP where the runner's 8192 characters begin", async () => {
    // 28 characters in the first case, 10,001 in the second: the last 8192 of all 10,029 began with the second half of an emoji.
    const [, second] = await twoCases("stderr-emoji", [['"crash in the second case\\n"', '"\\u{1F600}".repeat(5000) + "\\n"']]);
    expect(second).toMatch(/\n--- testee stderr since this case began; its first 1810 characters not kept ---\n(\u{1F600}){4095}\n$/u);
    expect(second).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  }, 30_000);
});

describe("output a testee wrote after a case's last answer, read once the next case began", () => {
  // JSON lines: the first case's Configure writes a line to stderr; the first GetStats (its case's last
  // command) is answered again in front of the next command's answer.
  const source = `
import { createInterface } from "node:readline";
let stats = 0;
let again;
const answer = (id, body) => process.stdout.write(JSON.stringify({ commandId: id, ...body }) + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line);
  const id = req.commandId;
  if (again) process.stdout.write(again);
  again = undefined;
  if (req.init) return answer(id, { init: { protocolVersion: 1 } });
  if (req.configure && stats === 0) return process.stderr.write("log of the first case\\n", () => answer(id, { ok: {} }));
  if (req.poll) return answer(id, { poll: {} });
  if (req.getStats && ++stats === 1) again = JSON.stringify({ commandId: id, stats: { consumer: {} } }) + "\\n";
  if (req.getStats) return answer(id, { stats: { consumer: {} } });
  if (req.drainFailed) return answer(id, { drainFailed: {} });
  answer(id, { ok: {} });
});
process.stdin.on("end", () => process.exit(0));
`;

  it("fails that case with the note on its reason line, before the testee's stderr, saying the command waiting was the next case's", async () => {
    const command = fakeTestee("answered-twice-across", source);
    const report = await runSuite({ testee: () => spawnTestee({ command, jsonLines: true }), features: ["consumer"], cases: [mk("first", {}), mk("second", {})] });
    expect(report.results.map((r) => r.status)).toEqual(["failed", "passed"]);
    // The note used to follow the stderr, as if the testee had written it.
    expect(report.results[0]?.message).toMatch(
      /^testee malformed: response echoes command_id (\d+), a command answered already \(a second answer to it, or a stale id\); expected \d+ \(while configure at t=0 waited for its answer\) \(read after this case's last answer, once the next case had begun\)\n--- testee stderr \(tail\) ---\nlog of the first case\n$/,
    );
  }, 30_000);
});

describe("an answer echoing the id of a command answered already", () => {
  it("is named as a second answer or a stale id, not only as a second answer (here Configure's one answer echoes Init's id)", async () => {
    const command = fakeTestee(
      "stale-id",
      `import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line);
  const id = req.configure ? Number(req.commandId) - 1 : req.commandId;
  process.stdout.write(JSON.stringify({ commandId: id, ...(req.init ? { init: { protocolVersion: 1 } } : { ok: {} }) }) + "\\n");
});
process.stdin.on("end", () => process.exit(0));
`,
    );
    const r = await run(mk("stale", {}), () => spawnTestee({ command, jsonLines: true }));
    expect(r?.message).toMatch(
      /^testee malformed: response echoes command_id 1, a command answered already \(a second answer to it, or a stale id\); expected 2 \(while configure at t=0 waited for its answer\)/,
    );
  }, 30_000);
});

describe("a testee and the case's peers answering each other at one instant", () => {
  /**
   * A consumer that retries a NOT_READY reject at once: each reject (delivered at once by the case's
   * rule) brings another ReadRequest at the same instant.
   */
  const noBackoff = () => {
    let attempt = 0;
    let due = false;
    return inProcessTestee({
      handle: (req) => {
        const commandId = req.commandId;
        if (req.init) return { commandId, init: { protocolVersion: 1 } };
        if (req.admit) {
          due = true;
          return { commandId, admit: { status: C.AdmitStatus.ADMIT_STATUS_ADMITTED, items: [{ itemId: "i1", action: C.ItemAction.ITEM_ACTION_DEFER }] } };
        }
        if (req.deliverMessage?.envelope?.readReject) due = true;
        if (req.poll) {
          const outputs = due ? [{ send: { to: "P1", envelope: { version: { major: 1 }, senderId: "C1", senderEpoch: 1, readRequest: { attemptId: ++attempt } } } }] : [];
          due = false;
          return withRawFromEnvelopes({ commandId, poll: { outputs } });
        }
        if (req.getStats) return { commandId, stats: { consumer: {} } };
        if (req.drainFailed) return { commandId, drainFailed: {} };
        return { commandId, ok: {} };
      },
    });
  };
  const reject = {
    on: { send: { to: "P1", envelope: { readRequest: { attemptId: { $bind: "a" } } } } },
    do: [{ deliver: { from: "P1", envelope: { readReject: { attemptId: "${a}", reason: "FAILURE_REASON_NOT_READY", retryable: true } } } }],
  };

  it("fails the case at once as a livelock, not at the case's wall-clock limit", async () => {
    const c = mk("no-backoff", { items: { A: { size: 4096 } }, rules: [reject], steps: [admitA, { at: 1000 }] });
    const r = await run(c, noBackoff, 20_000);
    expect(r?.status).toBe("failed");
    expect(r?.message).toMatch(
      /^\[I1\] livelock at t=0: 64 times in a row the case's scripted peers answered an output of the testee at once and the testee answered with another output at the same instant/,
    );
  });
});

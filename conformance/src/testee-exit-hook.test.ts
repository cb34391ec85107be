// TESTEE-PROTOCOL.md §2: neither a testee nor a helper in its process group outlives the run, also
// when the runner's process ends without closing it (standard output closed under `| head`: exit
// 141 through process.exit; SIGHUP). A runner script, bundled from src, starts a testee that starts
// a helper, then ends that way; the helper must be gone.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnTestee } from "./testee/subprocess.js";
import { PACKAGE_ROOT, bundleTsTestee, fakeTestee, testFolder } from "./test-support.js";

/** Pids of live processes whose command line contains `marker` (none: []), read from /proc. */
function processesWith(marker: string): string[] {
  const pids: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d)))
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      if (cmdline.includes(marker) && state !== "Z") pids.push(pid);
    } catch {
      // gone meanwhile
    }
  return pids;
}

async function runnerScript(ending: "exit-141" | "sighup", marker: string): Promise<string> {
  const esbuild = await import("esbuild");
  const dir = testFolder("exit-hook");
  const entry = join(dir, "runner.ts");
  const testee = await bundleTsTestee();
  // The helper: a sleep of a unique length in the testee's group, as a testee's launcher may leave.
  const command = `sleep ${marker} & exec ${testee}`;
  writeFileSync(
    entry,
    `import { spawnTestee } from ${JSON.stringify(join(PACKAGE_ROOT, "src", "testee", "subprocess.ts"))};
const conn = await spawnTestee({ command: ${JSON.stringify(command)} });
void conn;
${ending === "exit-141" ? "process.exit(141);" : "process.kill(process.pid, 'SIGHUP'); setTimeout(() => {}, 60_000);"}
`,
  );
  const out = join(dir, "runner.mjs");
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outfile: out,
    external: ["@ectp/*", "protobufjs", "protobufjs/*"],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: "silent",
  });
  return out;
}

describe("testee process groups end with the runner's process", () => {
  it.each([
    ["exit-141", 141],
    ["sighup", 129],
  ] as const)("a runner that ends by %s takes its testee's group with it", async (ending, status) => {
    const marker = String(30_000 + Math.floor(Math.random() * 9_000));
    const script = await runnerScript(ending, marker);
    const r = spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 30_000 });
    // SIGKILL is delivered at once; give the kernel a moment to reap the helper.
    for (let i = 0; i < 50 && processesWith(`sleep ${marker}`).length > 0; i++) execFileSync("sleep", ["0.1"]);
    const left = processesWith(`sleep ${marker}`);
    for (const pid of left) spawnSync("kill", ["-9", pid]); // (a failing run cleans up after itself)
    expect(r.status, r.stderr).toBe(status);
    expect(left).toEqual([]);
  }, 60_000);
});

describe("a testee's exit on EOF (TESTEE-PROTOCOL.md §2, item 5)", () => {
  it("one ended by a signal on EOF breaks the rule and is reported, naming the signal; one exiting with status 0 is not", async () => {
    const init = "process.stdin.once(\"data\", () => process.stdout.write(Buffer.from([0, 0, 0, 6, 8, 1, 0x5a, 2, 8, 1])));";
    const aborts = fakeTestee("aborts-on-eof", `${init}\nprocess.stdin.on("end", () => process.kill(process.pid, "SIGABRT"));`);
    const exits = fakeTestee("exits-on-eof", `${init}\nprocess.stdin.on("end", () => process.exit(0));`);
    const told: string[] = [];
    for (const command of [`exec ${aborts}`, `exec ${exits}`]) {
      const conn = await spawnTestee({ command, onExitRuleBroken: (what) => told.push(what) });
      await conn.close();
    }
    expect(told).toEqual(["it ended by SIGABRT on EOF on its stdin, not with status 0"]);
  }, 30_000);
});

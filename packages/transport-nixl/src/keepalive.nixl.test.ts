/**
 * What keeps Node's event loop alive (README, Polling design: "While reads or promises are
 * outstanding the TSFN is ref'd (the process stays alive); an idle agent does not keep the process
 * alive"): a reader process that never closes its transport (test/keepalive-child.mjs), its peer
 * stopped under a READ. A READ that will still be reported (cancelled, in flight) keeps the process
 * alive; an orphaned one, which is never reported before close(), must not. Skipped, with the reason
 * in the title, when the addon or dist/ is not built.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DIST_MISSING, NIXL_MISSING, NIXL_SKIP_REASON, startRegionChild } from "./test/helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const DIST_REASON = DIST_MISSING ? " [skipped: run npx tsup in packages/transport-nixl first]" : "";

/** Run the keepalive child in `mode`; its JSON line, and whether it exited within `exitMs` of printing it. */
async function runReader(mode: "orphan" | "dropped" | "cancel", exitMs: number) {
  const size = 16 << 20;
  const env = { ...process.env, UCX_TLS: "tcp", UCX_NET_DEVICES: "lo" };
  const { child: peer, hello } = await startRegionChild(size, undefined, "tcp");
  let reader: ChildProcess | undefined;
  try {
    const args = [join(here, "test/keepalive-child.mjs"), mode, String(peer.pid), hello.id, hello.metadata, hello.location, String(size)];
    const r = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    reader = r;
    let out = "";
    let err = "";
    r.stdout.on("data", (d) => {
      out += String(d);
    });
    r.stderr.on("data", (d) => {
      err += String(d);
    });
    const exited = new Promise<number | null>((resolve) => r.once("exit", (code) => resolve(code)));
    const printed = new Promise<void>((resolve, reject) => {
      r.stdout.on("data", () => out.includes("\n") && resolve());
      void exited.then(() => reject(new Error(`the reader exited before its report: ${err}`)));
    });
    await Promise.race([printed, new Promise((_, reject) => setTimeout(() => reject(new Error(`no report within 30 s: ${err}`)), 30_000))]);
    const report = JSON.parse(out.split("\n")[0] as string) as { reads: [number, string][]; orphanedTransfers: number; activeTransfers: number; unsettledReads: number };
    const code = await Promise.race([exited, new Promise<"alive">((resolve) => setTimeout(resolve, exitMs, "alive"))]);
    return { report, code, stderr: err };
  } finally {
    reader?.kill("SIGKILL");
    peer.kill("SIGKILL");
  }
}

describe.skipIf(NIXL_MISSING)(`NixlTransport and the event loop over NIXL${NIXL_SKIP_REASON}`, () => {
  // Before the fix, each orphaned READ kept its +1 on the agent's keep-alive count until close():
  // a process whose transport was still referenced never exited by itself.
  it.skipIf(DIST_MISSING).each(["orphan", "dropped"] as const)(
    `an orphaned READ (%s) does not keep the process alive: Node exits with the transport unclosed${DIST_REASON}`,
    async (mode) => {
      const { report, code, stderr } = await runReader(mode, 8_000);
      expect(report).toMatchObject({ orphanedTransfers: 1, activeTransfers: 1, unsettledReads: 1 });
      expect(report.reads.map(([id]) => id)).toEqual(mode === "orphan" ? [1] : [1, 3]); // read 2: never reported
      expect(code, stderr).toBe(0);
    },
    60_000,
  );

  it.skipIf(DIST_MISSING)(
    `a cancelled READ still in flight keeps the process alive (it will still be reported)${DIST_REASON}`,
    async () => {
      const { report, code } = await runReader("cancel", 2_000);
      expect(report).toMatchObject({ orphanedTransfers: 0, activeTransfers: 1, unsettledReads: 1, reads: [[1, "done"]] });
      expect(code).toBe("alive");
    },
    60_000,
  );
});

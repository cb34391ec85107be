/**
 * Helpers for this package's own tests (not exported from the package).
 * @module
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ReadDestination, ReadResult, Transport } from "@ectp/core";
import * as core from "@ectp/core";
import { expect } from "vitest";
import { CoreTesteeHandler, type CoreModule } from "../testees/ts/adapter.js";
import { ectp } from "./proto.js";
import { inProcessTestee } from "./testee/in-process.js";
import { runConformanceCli } from "./cli.js";
import { mockTransportHarness } from "./transport/mock-harness.js";
import type { TransportHarness } from "./transport/transport-suite.js";

const here = dirname(fileURLToPath(import.meta.url));
/** The package root. */
export const PACKAGE_ROOT = join(here, "..");

/** Whether process `pid` is running (signal 0 checks without signalling; EPERM: running, not ours). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A new folder for this test process's scripts under the repository's node_modules/.cache (where
 * imports of @ectp/* resolve), named `ectp-test-<pid>-<label>-*`. A vitest worker is stopped
 * without running its exit handlers, so no process removes its own: the folders of processes that
 * have ended are removed here instead.
 */
export function testFolder(label: string): string {
  const dir = join(PACKAGE_ROOT, "..", "node_modules", ".cache", "ectp-conformance");
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    const pid = /^ectp-test-(\d+)-/.exec(name)?.[1];
    if (pid !== undefined && !running(Number(pid))) rmSync(join(dir, name), { recursive: true, force: true });
  }
  return mkdtempSync(join(dir, `ectp-test-${process.pid}-${label}-`));
}

/**
 * Bundle the reference testee (testees/ts/main.ts) into one script in a {@link testFolder} and
 * return a command line for it.
 */
export async function bundleTsTestee(): Promise<string> {
  const esbuild = await import("esbuild");
  const out = join(testFolder("testee"), "testee-ts.mjs");
  await esbuild.build({
    entryPoints: [join(PACKAGE_ROOT, "testees", "ts", "main.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outfile: out,
    external: ["@ectp/*"],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: "silent",
  });
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(out)}`;
}

/** Write a small fake testee script (for runner self-tests) in a {@link testFolder} and return its command line. */
export function fakeTestee(name: string, source: string): string {
  const file = join(testFolder(`fake-${name}`), `${name}.mjs`);
  writeFileSync(file, source);
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`;
}

/** A {@link fakeTestee} named `name` speaking JSON lines that answers Init, then every command with an Error: every case and seed fails. */
export function answersErrorTestee(name: string): string {
  return fakeTestee(
    name,
    `import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line);
  const body = req.init ? { init: { protocolVersion: 1 } } : { error: { message: "not implemented" } };
  process.stdout.write(JSON.stringify({ commandId: req.commandId, ...body }) + "\\n");
});
process.stdin.on("end", () => process.exit(0));`,
  );
}

/** How {@link brokenTransportHarness} changes the mock harness. */
export interface HarnessChange {
  /** Change the reader endpoint (the one whose reads the cases check). */
  reader?: (t: Transport) => void;
  /** Change the memory owner's endpoint. */
  owner?: (t: Transport) => void;
  /** Wrap the harness's `advance`. */
  advance?: (inner: () => Promise<boolean>) => Promise<boolean>;
  /** `false`: `killPeer` kills nothing. */
  killPeer?: boolean;
}

/** The mock transport harness, named "broken", with its endpoints, `advance` or `killPeer` changed: a transport the suite must fail. */
export function brokenTransportHarness(change: HarnessChange): TransportHarness {
  const inner = mockTransportHarness(1);
  const advance = change.advance;
  return {
    ...inner,
    name: "broken",
    async createPeers() {
      const p = await inner.createPeers();
      change.reader?.(p.reader);
      change.owner?.(p.owner);
      return p;
    },
    advance: advance ? () => advance(() => inner.advance()) : () => inner.advance(),
    killPeer: change.killPeer === false ? async () => undefined : (t) => inner.killPeer(t),
  };
}

/** An endpoint change that rewrites each read its poll reports through `f` (`dest`: the destination of each read id). */
export function rewriteReads(f: (r: ReadResult, dest: Map<number, ReadDestination>) => ReadResult[]): (t: Transport) => void {
  return (t) => {
    const dest = new Map<number, ReadDestination>();
    const start = t.startRead.bind(t);
    t.startRead = (op) => {
      dest.set(op.readId, op.destination);
      start(op);
    };
    const poll = t.poll.bind(t);
    t.poll = () => {
      const a = poll();
      return { ...a, reads: a.reads.flatMap((r) => f(r, dest)) };
    };
  };
}

/** Run `ectp conformance` in-process (as the command would, with these arguments), its output captured. */
export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runConformanceCli(argv, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  });
  return { code, out, err };
}

/** A usage error: exit 2, one prefixed line naming the problem, then the usage; no stack trace, nothing on stdout. */
export function expectUsageError(r: { code: number; out: string; err: string }, ...fragments: string[]): void {
  expect(r.code).toBe(2);
  expect(r.err.startsWith("ectp conformance: ")).toBe(true);
  for (const f of fragments) expect(r.err).toContain(f);
  expect(r.err).toContain("Usage: ectp conformance");
  expect(r.err).not.toMatch(/\n\s+at /);
  expect(r.out).toBe("");
}

/**
 * Why a path under `/proc` cannot be written, as the output-path check says it: as root, `access()`
 * passes `/proc` and the probe finds it takes no new entries (`asRoot`); as anyone else `access()`
 * refuses it.
 */
export function procRefusal(asRoot: string): string {
  return process.getuid?.() === 0 ? asRoot : "EACCES: permission denied, access '/proc'";
}

/** `@ectp/core` as the TS reference testee's core module. */
export const TS_CORE = core as unknown as CoreModule;

/** The TS reference testee (over `@ectp/core`), in process. */
export function inProcessTsTestee(): ReturnType<typeof inProcessTestee> {
  return inProcessTestee(new CoreTesteeHandler(TS_CORE));
}

/**
 * `res` with the wire bytes of each of its sends (feature raw-outputs, `SendOutput.raw`) made again
 * from the send's envelope: a test that changes what a testee sends changes what it puts on the
 * wire too, so the runner judges the changed envelope rather than failing the case on bytes that
 * no longer carry it. A send without an envelope is left as it is.
 */
export function withRawFromEnvelopes<T extends ectp.conformance.v1.ITesteeResponse>(res: T): T {
  for (const o of res.poll?.outputs ?? [])
    if (o.send?.envelope) o.send.raw = ectp.v1.Envelope.encode(ectp.v1.Envelope.fromObject(o.send.envelope)).finish();
  return res;
}

/**
 * A factory of the TS reference testee whose every answer `change` may rewrite (an implementation
 * broken one way); the bytes of its sends follow their envelopes ({@link withRawFromEnvelopes}).
 */
export function alteredTsTestee(
  change: (res: ectp.conformance.v1.ITesteeResponse, req: ectp.conformance.v1.TesteeRequest) => ectp.conformance.v1.ITesteeResponse,
): () => ReturnType<typeof inProcessTestee> {
  return () => {
    const h = new CoreTesteeHandler(TS_CORE);
    return inProcessTestee({ handle: (req) => withRawFromEnvelopes(change(h.handle(req), req)) });
  };
}

/**
 * System case across network namespaces: a producer process and a consumer process, each in its
 * own network namespace (`ectp-a-<pid>`, `ectp-b-<pid>`) joined only by a veth pair
 * (10.200.<n>.1/30 <-> 10.200.<n>.2/30), UCX over TCP on that veth (`UCX_TLS=tcp`,
 * `UCX_NET_DEVICES=<the veth>`). The real ProducerCore/ConsumerCore/Driver over NixlTransport
 * move one item, checked byte by byte. The parent creates the namespaces, relays the producer's
 * announcement (which carries its NIXL metadata) to the consumer over stdio, and removes the
 * namespaces in afterAll, even on failure. Nothing outside the two namespaces is contacted.
 *
 * Skipped, with the reason in the title, when not root, without `ip`, when network namespaces
 * cannot be created, without the addon, or without this package's dist/ (the children import it).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NIXL_MISSING, NIXL_SKIP_REASON } from "./test/helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const pid = process.pid;
const NS_A = `ectp-a-${pid}`;
const NS_B = `ectp-b-${pid}`;
const VETH_A = `ectpa${pid}`.slice(0, 15);
const VETH_B = `ectpb${pid}`.slice(0, 15);
const SUBNET = (pid % 250) + 1;
const ADDR_A = `10.200.${SUBNET}.1`;
const ADDR_B = `10.200.${SUBNET}.2`;
const SIZE = (4 << 20) + 5;
const SALT = 5;

function ip(...args: string[]): { ok: boolean; out: string } {
  const r = spawnSync("ip", args, { encoding: "utf8", timeout: 10_000 });
  return { ok: r.status === 0, out: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}`.trim() };
}

function skipReason(): string | undefined {
  if (NIXL_MISSING) return NIXL_SKIP_REASON;
  if (!existsSync(join(here, "../dist/index.js"))) return " [skipped: run npx tsup in packages/transport-nixl first (the children import dist/)]";
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return " [skipped: needs root to create network namespaces]";
  const v = spawnSync("ip", ["-V"], { encoding: "utf8" });
  if (v.error || v.status !== 0) return " [skipped: the `ip` command (iproute2) is not available]";
  const probe = `ectp-probe-${pid}`;
  const made = ip("netns", "add", probe);
  ip("netns", "del", probe);
  if (!made.ok) return ` [skipped: cannot create network namespaces here: ${made.out}]`;
  return undefined;
}

const reason = skipReason();

/** Run a child inside a namespace; resolve its `ECTP {...}` lines one by one. */
class NsChild {
  readonly proc: ChildProcess;
  private readonly lines: unknown[] = [];
  private waiting: ((v: unknown) => void) | undefined;
  private output = "";
  constructor(ns: string, veth: string, script: string, args: string[]) {
    this.proc = spawn("ip", ["netns", "exec", ns, process.execPath, join(here, "test", script), ...args], {
      env: { ...process.env, UCX_TLS: "tcp", UCX_NET_DEVICES: veth },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let buf = "";
    this.proc.stdout?.setEncoding("utf8").on("data", (d: string) => {
      buf += d;
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith("ECTP ")) this.push(JSON.parse(line.slice(5)));
        else this.output += `${line}\n`;
      }
    });
    this.proc.stderr?.setEncoding("utf8").on("data", (d: string) => {
      this.output += d;
    });
  }
  private push(v: unknown): void {
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w(v);
    } else this.lines.push(v);
  }
  /** The next `ECTP` line, or a rejection with the child's output when it exits first or `ms` pass. */
  next<T>(ms: number): Promise<T> {
    if (this.lines.length > 0) return Promise.resolve(this.lines.shift() as T);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms; output:\n${this.output}`)), ms);
      const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
        reject(new Error(`child exited (code ${code}, signal ${signal}) before answering; output:\n${this.output}`));
      this.proc.once("exit", onExit);
      this.waiting = (v) => {
        clearTimeout(timer);
        this.proc.off("exit", onExit);
        resolve(v as T);
      };
    });
  }
  send(line: string): void {
    this.proc.stdin?.write(`${line}\n`);
  }
}

function vethBytes(ns: string, dev: string): { rx: number; tx: number } {
  const r = ip("-n", ns, "-s", "-j", "link", "show", dev);
  const [link] = JSON.parse(r.out) as { stats64: { rx: { bytes: number }; tx: { bytes: number } } }[];
  return { rx: link?.stats64.rx.bytes ?? 0, tx: link?.stats64.tx.bytes ?? 0 };
}

describe.skipIf(reason !== undefined)(`producer and consumer in two network namespaces over a veth pair, UCX over TCP${reason ?? ""}`, () => {
  const children: ChildProcess[] = [];

  beforeAll(() => {
    const steps: string[][] = [
      ["netns", "add", NS_A],
      ["netns", "add", NS_B],
      ["link", "add", VETH_A, "netns", NS_A, "type", "veth", "peer", "name", VETH_B, "netns", NS_B],
      ["-n", NS_A, "addr", "add", `${ADDR_A}/30`, "dev", VETH_A],
      ["-n", NS_B, "addr", "add", `${ADDR_B}/30`, "dev", VETH_B],
      ["-n", NS_A, "link", "set", "lo", "up"],
      ["-n", NS_B, "link", "set", "lo", "up"],
      ["-n", NS_A, "link", "set", VETH_A, "up"],
      ["-n", NS_B, "link", "set", VETH_B, "up"],
    ];
    for (const s of steps) {
      const r = ip(...s);
      if (!r.ok) throw new Error(`ip ${s.join(" ")} failed: ${r.out}`);
    }
  });

  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    // Deleting a namespace removes the veth end inside it (and so the pair).
    ip("netns", "del", NS_A);
    ip("netns", "del", NS_B);
    ip("link", "del", VETH_A); // only if it was left in the root namespace by a half-done setup
  });

  it("one item is read byte-exactly through the real cores and drivers over NixlTransport across the veth", async () => {
    const before = vethBytes(NS_B, VETH_B);

    const producer = new NsChild(NS_A, VETH_A, "netns-producer.mjs", [`E-${pid}`, String(SIZE), String(SALT)]);
    children.push(producer.proc);
    const { announcement } = await producer.next<{ announcement: string }>(20_000);

    const consumer = new NsChild(NS_B, VETH_B, "netns-consumer.mjs", [`P-${pid}`, String(SIZE), String(SALT)]);
    children.push(consumer.proc);
    consumer.send(announcement);
    const out = await consumer.next<{
      status: string;
      action?: string;
      reason?: string;
      error?: string;
      length?: number;
      mismatches?: number;
      interfaces: string[];
      counters: { activeTransfers: number; registrations: number };
    }>(45_000);
    producer.send("stop");

    // The consumer saw only its namespace's interfaces.
    expect(out.interfaces).toEqual([VETH_B, "lo"].sort());
    expect(out).toMatchObject({ status: "admitted", action: "ready", length: SIZE, mismatches: 0 });
    expect(out.counters).toMatchObject({ activeTransfers: 0, registrations: 0 });
    // The item's bytes crossed the veth (received by the consumer's end).
    const after = vethBytes(NS_B, VETH_B);
    expect(after.rx - before.rx).toBeGreaterThanOrEqual(SIZE);
    await new Promise((res) => (producer.proc.exitCode !== null ? res(undefined) : producer.proc.once("exit", res)));
    expect(producer.proc.exitCode).toBe(0);
  }, 90_000);
});

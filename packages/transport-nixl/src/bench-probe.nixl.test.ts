/**
 * The benchmark's raw C++ probe (native/nixl/probe/raw_read.cpp) in `--remote` mode: it reads
 * a NixlTransport owner's registered region, the same bytes the transport reader reads in
 * bench/run.mjs, checks them, and rejects a malformed or too small region description.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MemoryRegion } from "@ectp/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NixlTransport } from "./transport.js";
import { NIXL_MISSING, NIXL_SKIP_REASON } from "./test/helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const PROBE = join(here, "../../../native/nixl/build/Release/raw_read");
const PROBE_MISSING = !existsSync(PROBE);
const reason = NIXL_MISSING
  ? NIXL_SKIP_REASON
  : PROBE_MISSING
    ? " [skipped: the probe is not built; NIXL_PREFIX=<prefix> node native/nixl/scripts/build.mjs]"
    : "";

/** The probe's byte pattern: byte i = (i * 131 + 7) mod 256. */
function probePattern(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 131 + 7) & 0xff;
  return out;
}

/** The `--remote` file: u32 LE metadata length | metadata | location. */
function remoteFile(metadata: Uint8Array, location: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + metadata.length + location.length);
  new DataView(out.buffer).setUint32(0, metadata.length, true);
  out.set(metadata, 4);
  out.set(location, 4 + metadata.length);
  return out;
}

function runProbe(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(PROBE, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d) => {
      stdout += d;
    });
    p.stderr.on("data", (d) => {
      stderr += d;
    });
    p.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(NIXL_MISSING || PROBE_MISSING)(`raw_read --remote (the benchmark's baseline)${reason}`, () => {
  // Made in beforeAll: a skipped describe still runs its body (to collect the tests).
  const size = 1 << 20;
  const source = probePattern(size);
  let dir = "";
  let file = "";
  let owner: NixlTransport;
  let region: MemoryRegion;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "ectp-probe-"));
    file = join(dir, "remote");
    owner = new NixlTransport({ localId: `probe-owner-${process.pid}` });
    region = owner.registerMemory(source);
    writeFileSync(file, remoteFile(owner.localMetadata(), owner.describe(region, 0, size)));
  });
  afterAll(async () => {
    await owner?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("reads the owner's region at each size and checks its bytes", async () => {
    const ok = await runProbe(["--remote", file, "4096", String(size)]);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    const lines = ok.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.size)).toEqual([4096, size]);
    for (const l of lines) expect(l.readSeconds).toBeGreaterThan(0);

    const last = size - 1;
    source.fill(0, last); // the probe checks every byte it read (the pattern's last byte is not 0)
    const bad = await runProbe(["--remote", file, String(size)]);
    source.set(probePattern(size).subarray(last), last);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(`data mismatch at ${last}`);
  });

  it("rejects a region smaller than the largest size, a malformed file and mismatched metadata, naming the problem", async () => {
    const big = await runProbe(["--remote", file, String(size * 2)]);
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(`region holds ${size} bytes, less than the largest size ${size * 2}`);

    const broken = join(dir, "broken");
    const bytes = remoteFile(owner.localMetadata(), owner.describe(region, 0, size));
    bytes[4 + owner.localMetadata().length] = 0x58; // "XNX1"
    writeFileSync(broken, bytes);
    const magic = await runProbe(["--remote", broken, "4096"]);
    expect(magic.code).toBe(2);
    expect(magic.stderr).toMatch("does not start with ENX1");

    writeFileSync(broken, bytes.subarray(0, 10));
    const short = await runProbe(["--remote", broken, "4096"]);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch("too short");

    // Metadata of one agent with a location of another: refused before any read.
    const other = new NixlTransport({ localId: `probe-other-${process.pid}` });
    writeFileSync(broken, remoteFile(other.localMetadata(), owner.describe(region, 0, size)));
    const mixed = await runProbe(["--remote", broken, "4096"]);
    await other.close();
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(`the metadata is agent probe-other-${process.pid}'s, the location probe-owner-${process.pid}'s`);
  });
});

#!/usr/bin/env node
/**
 * Build the @ectp/nixl-native addon (and the raw C++ benchmark probe) when NIXL is installed.
 *
 * This is the workspace's `install` script, so it must never fail `npm ci` on a machine
 * without NIXL. NIXL is looked up, in order, at:
 *   1. $NIXL_PREFIX (include/nixl.h + lib/libnixl.so, lib64 or lib/x86_64-linux-gnu),
 *   2. /opt/nvidia/nvda_nixl (NVIDIA's package prefix),
 *   3. `pkg-config nixl`.
 * It deliberately does NOT probe /opt/nixl or other ad-hoc prefixes: set NIXL_PREFIX to use one.
 * If nothing is found it prints exactly one line saying why the build is skipped and exits 0.
 * If found, it runs node-gyp with the include/lib dirs and an absolute rpath to NIXL's lib
 * dir (so no LD_LIBRARY_PATH is needed at run time), then builds probe/raw_read.cpp with g++, and
 * probe/refusing_shim.cpp (a test-only LD_PRELOAD library making chosen NIXL calls refuse).
 *
 * Options: --no-probe (skip the probe and the shim), --verbose (show node-gyp output).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkgDir = join(here, "..");
const args = new Set(process.argv.slice(2));
const verbose = args.has("--verbose");

/** A prefix holds NIXL when include/nixl.h and a libnixl.so in a known lib dir exist. */
function fromPrefix(prefix) {
  const include = join(prefix, "include");
  if (!existsSync(join(include, "nixl.h"))) return undefined;
  for (const lib of ["lib", "lib64", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu"]) {
    const libDir = join(prefix, lib);
    if (existsSync(join(libDir, "libnixl.so"))) return { include, libDir, how: prefix };
  }
  return undefined;
}

function fromPkgConfig() {
  try {
    const opts = { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] };
    const include = execFileSync("pkg-config", ["--variable=includedir", "nixl"], opts).trim();
    const libDir = execFileSync("pkg-config", ["--variable=libdir", "nixl"], opts).trim();
    if (include && libDir && existsSync(join(include, "nixl.h"))) return { include, libDir, how: "pkg-config nixl" };
  } catch {
    // pkg-config missing or no nixl.pc: not found.
  }
  return undefined;
}

function locate() {
  const tried = [];
  if (process.env.NIXL_PREFIX) {
    const found = fromPrefix(process.env.NIXL_PREFIX);
    if (found) return { found, tried };
    tried.push(`NIXL_PREFIX=${process.env.NIXL_PREFIX} (no include/nixl.h + lib/libnixl.so)`);
  } else {
    tried.push("NIXL_PREFIX (unset)");
  }
  const nv = fromPrefix("/opt/nvidia/nvda_nixl");
  if (nv) return { found: nv, tried };
  tried.push("/opt/nvidia/nvda_nixl");
  const pc = fromPkgConfig();
  if (pc) return { found: pc, tried };
  tried.push("pkg-config nixl");
  return { found: undefined, tried };
}

const { found, tried } = locate();
if (!found) {
  console.log(
    `@ectp/nixl-native: NIXL not found (tried ${tried.join(", ")}); skipping the addon build - set NIXL_PREFIX and run \`npm rebuild @ectp/nixl-native\` to build it.`,
  );
  process.exit(0);
}

const env = { ...process.env, ECTP_NIXL_INCLUDE_DIR: found.include, ECTP_NIXL_LIB_DIR: found.libDir };
const nodeGyp = (() => {
  for (const p of [join(pkgDir, "node_modules/node-gyp/bin/node-gyp.js"), join(pkgDir, "../../node_modules/node-gyp/bin/node-gyp.js")]) {
    if (existsSync(p)) return p;
  }
  return undefined;
})();
if (!nodeGyp) {
  console.error("@ectp/nixl-native: node-gyp is not installed; run npm ci first.");
  process.exit(1);
}
// Use the running node's headers when they are installed (no download needed offline).
const nodeDir = dirname(dirname(process.execPath));
const gypArgs = [nodeGyp, "rebuild", "--release"];
if (existsSync(join(nodeDir, "include/node/node_api.h"))) gypArgs.push(`--nodedir=${nodeDir}`);
console.log(`@ectp/nixl-native: building against NIXL from ${found.how} (${found.libDir})`);
const gyp = spawnSync(process.execPath, gypArgs, { cwd: pkgDir, env, stdio: verbose ? "inherit" : "pipe", encoding: "utf8" });
if (gyp.status !== 0) {
  if (!verbose) process.stderr.write(`${gyp.stdout ?? ""}${gyp.stderr ?? ""}`);
  console.error(`@ectp/nixl-native: node-gyp failed (exit ${gyp.status}); NIXL was found at ${found.how}.`);
  process.exit(1);
}
console.log(`@ectp/nixl-native: built ${join(pkgDir, "build/Release/ectp_nixl.node")}`);

if (!args.has("--no-probe")) {
  const out = join(pkgDir, "build/Release/raw_read");
  const probe = spawnSync(
    process.env.CXX ?? "g++",
    [
      "-std=c++20",
      "-O2",
      "-Wall",
      join(pkgDir, "probe/raw_read.cpp"),
      "-o",
      out,
      `-I${found.include}`,
      `-L${found.libDir}`,
      "-lnixl",
      "-lnixl_build",
      `-Wl,-rpath,${found.libDir}`,
    ],
    { stdio: "inherit" },
  );
  if (probe.status !== 0) {
    console.error("@ectp/nixl-native: the raw_read probe did not build (the addon did); the benchmark needs it.");
    process.exit(1);
  }
  console.log(`@ectp/nixl-native: built ${out}`);
  // A test-only LD_PRELOAD interposer that makes chosen NIXL calls refuse (probe/refusing_shim.cpp).
  const shim = join(pkgDir, "build/Release/librefusing_shim.so");
  const built = spawnSync(
    process.env.CXX ?? "g++",
    ["-std=c++20", "-O2", "-Wall", "-shared", "-fPIC", join(pkgDir, "probe/refusing_shim.cpp"), "-o", shim, `-I${found.include}`, "-ldl"],
    { stdio: "inherit" },
  );
  if (built.status !== 0) {
    console.error("@ectp/nixl-native: the refusing shim did not build (the addon did); the tests of NIXL's refusals skip without it.");
    process.exit(1);
  }
  console.log(`@ectp/nixl-native: built ${shim}`);
}

/**
 * Builds core modules for the testee adapter from `packages/core/src`: the unmodified
 * source, or a copy with one textual patch applied (a mutant). A patch may instead edit
 * `packages/protocol/src`; the patched copy of `@ectp/protocol` is then bundled in. The
 * shipped packages are never touched: the copies live in a temporary folder and are bundled
 * with esbuild.
 * @module
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { EctpError } from "@ectp/protocol";
import { readOrRefuse } from "../arguments.js";
import { packageFolder } from "../cases/load.js";

/** One textual replacement in a source file of the core or of the protocol package. */
export interface MutantPatch {
  /**
   * The package whose source the patch edits: `"core"` (packages/core/src, the default when
   * absent) or `"protocol"` (packages/protocol/src: envelope decoding, descriptor validation,
   * framing, EctpError). When any patch of a mutant edits the protocol, the bundle carries that
   * patched copy of `@ectp/protocol` in place of the shipped one (which it otherwise imports), so
   * the core's validation, the FrameDecoder the bundle exports for DecodeStream and the
   * encodeEnvelope it exports for SendOutput.raw run the planted bug; the testee adapter keeps the
   * shipped protocol for the rest of its own coding. Any other value is refused.
   */
  package?: "core" | "protocol";
  /** File relative to that package's `src`, e.g. `consumer/consumer.ts` (core) or `validate.ts` (protocol). */
  file: string;
  /** Exact text to find (must occur exactly once, so a drifting source makes the mutant fail loudly). */
  find: string;
  /** Replacement text. */
  replace: string;
}

/** A mutant: our core with one failure of docs/failures.md planted. */
export interface MutantSpec {
  /** Kebab-case name, e.g. `f1-fallback-without-model-input`. */
  name: string;
  /** The docs/failures.md failure number it plants (1-11), or 0 for other planted bugs. */
  failure: number;
  /** What the planted bug does. */
  description: string;
  /** The edits to the core's (or the protocol's) source that plant the bug, applied in order. */
  patches: MutantPatch[];
}

/**
 * The ECTP repository's `packages/core/src`, found in the folders above `from` (by default this
 * file's): the first `packages/core` whose package.json names `@ectp/core` and that has a `src`
 * folder. Mutants patch copies of that source, which the npm packages do not ship: outside a
 * clone of the repository this throws `EctpError(INVALID_ARGUMENT)` saying so (another project's
 * `packages/core` is never taken for it).
 */
export function coreSourceDir(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const core = join(dir, "packages", "core");
    if (isEctpCore(core)) return join(core, "src");
    if (dirname(dir) === dir) break;
  }
  throw new EctpError(
    "INVALID_ARGUMENT",
    `mutants need the source of @ectp/core (packages/core/src of the ECTP repository), which the npm packages do not ship, and none is in a folder above ${from}; run mutants from a clone of the repository, with its packages built`,
  );
}

/** Whether `dir` is the ECTP repository's core package, with its source. */
function isEctpCore(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown }).name === "@ectp/core" && statSync(join(dir, "src")).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The mutants in `dir`'s `*.json` files, by file name; by default this package's own (its
 * `mutants/` folder, shipped with it). Throws `EctpError(INVALID_ARGUMENT)` naming the folder or
 * file, with the file system's or JSON's error as `cause`, for a folder or file that cannot be
 * read or a file that is not JSON.
 */
export function loadMutants(dir: string = packageFolder("mutants")): MutantSpec[] {
  const advice = "pass the folder of mutant files (*.json), or omit it for the package's own";
  const read = <T>(what: string, call: () => T): T => readOrRefuse("loadMutants", what, advice, call);
  const files = read(`${dir} cannot be read`, () => readdirSync(dir)).filter((f) => f.endsWith(".json"));
  return files.sort().map((f) => {
    const path = join(dir, f);
    const text = read(`${path} cannot be read`, () => readFileSync(path, "utf8"));
    return read(`${path} is not valid JSON`, () => JSON.parse(text) as MutantSpec);
  });
}

const ENTRY = `export { ConsumerCore } from "./consumer/consumer.js";
export { ProducerCore } from "./producer/producer.js";
export { MemoryItemStore } from "./producer/memory-store.js";
export { EventSubscriber } from "./subscriber/subscriber.js";
export { FrameDecoder, encodeEnvelope } from "@ectp/protocol";
`;

/**
 * Copy the core source to a temporary folder, apply the patches, and bundle the four
 * classes the adapter needs, and the protocol's FrameDecoder (for DecodeStream) and
 * encodeEnvelope (for SendOutput.raw), into one ESM file. `@ectp/protocol` stays external,
 * unless a patch edits it: then a patched copy of packages/protocol/src is bundled in its
 * place (protobufjs still external). Returns the
 * bundle's path: a file alone in a new folder under the repository's
 * `node_modules/.cache/ectp-conformance`, which the caller owns (remove that folder once the
 * bundle is imported or its process ended; {@link importCoreBundle} does both).
 * The patched copies of the sources are removed before this returns, built or not. Throws
 * `EctpError(INVALID_ARGUMENT)` when a patch's text is not found exactly once (the source
 * changed: update the mutant) or its `package` is neither `"core"` nor `"protocol"`.
 */
export async function buildCoreBundle(patches: readonly MutantPatch[] = [], label = "core"): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), `ectp-${label}-`));
  try {
    return await bundlePatchedCopy(work, patches, label);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * {@link buildCoreBundle}, imported: the module of its classes, with the bundle's folder
 * removed once it is loaded, so that running every mutant leaves no file behind.
 */
export async function importCoreBundle<T = unknown>(patches: readonly MutantPatch[] = [], label = "core"): Promise<T> {
  const path = await buildCoreBundle(patches, label);
  try {
    return (await import(path)) as T;
  } finally {
    rmSync(dirname(path), { recursive: true, force: true });
  }
}

/** The packages a patch can edit (each its `packages/<name>/src`). */
const PATCHABLE_PACKAGES = ["core", "protocol"] as const;

/** The package a patch edits (core when it names none); refuses any other name. */
function packageOf(p: MutantPatch, label: string): (typeof PATCHABLE_PACKAGES)[number] {
  const pkg = p.package ?? "core";
  if (!PATCHABLE_PACKAGES.includes(pkg))
    throw new EctpError("INVALID_ARGUMENT", `mutant ${label}: patch package ${JSON.stringify(pkg)} is not "core" or "protocol"`, {
      details: { file: p.file },
    });
  return pkg;
}

/** Copy `packages/<pkg>/src`, without its tests, to `<work>/<pkg>/src`; returns the copy. */
function copySource(work: string, pkg: string): string {
  const copy = join(work, pkg, "src");
  mkdirSync(copy, { recursive: true });
  cpSync(join(dirname(dirname(coreSourceDir())), pkg, "src"), copy, { recursive: true, filter: (p) => !p.endsWith(".test.ts") });
  return copy;
}

async function bundlePatchedCopy(work: string, patches: readonly MutantPatch[], label: string): Promise<string> {
  const src = coreSourceDir();
  const copies = new Map<string, string>([["core", copySource(work, "core")]]);
  for (const p of patches) {
    const pkg = packageOf(p, label);
    let copy = copies.get(pkg);
    if (copy === undefined) {
      copy = copySource(work, pkg);
      copies.set(pkg, copy);
    }
    const file = join(copy, p.file);
    const text = readFileSync(file, "utf8");
    const n = text.split(p.find).length - 1;
    if (n !== 1)
      throw new EctpError(
        "INVALID_ARGUMENT",
        `mutant ${label}: patch text occurs ${n} times in packages/${pkg}/src/${p.file} (must be exactly once); update the mutant to the current source`,
        { details: { find: p.find } },
      );
    writeFileSync(file, text.replace(p.find, p.replace));
  }
  const coreCopy = copies.get("core") as string;
  const protocolCopy = copies.get("protocol");
  writeFileSync(join(coreCopy, "conformance-entry.ts"), ENTRY);
  const esbuild = (await import("esbuild")) as typeof import("esbuild");
  // The bundle must live under the repository's node_modules so its bare imports (@ectp/protocol,
  // or protobufjs for a patched protocol) resolve; the patched sources stay in the temporary folder.
  const cacheDir = join(dirname(dirname(dirname(src))), "node_modules", ".cache", "ectp-conformance");
  mkdirSync(cacheDir, { recursive: true });
  const out = join(mkdtempSync(join(cacheDir, `${label}-`)), `${label}.mjs`);
  // A patched protocol: the core's imports of @ectp/protocol resolve to the patched copy, bundled in.
  const patchedProtocol: import("esbuild").Plugin[] =
    protocolCopy === undefined
      ? []
      : [
          {
            name: "patched-protocol",
            setup(build) {
              build.onResolve({ filter: /^@ectp\/protocol$/ }, () => ({ path: join(protocolCopy, "index.ts") }));
            },
          },
        ];
  try {
    await esbuild.build({
      entryPoints: [join(coreCopy, "conformance-entry.ts")],
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      outfile: out,
      external: protocolCopy === undefined ? ["@ectp/protocol"] : ["protobufjs", "protobufjs/*"],
      plugins: patchedProtocol,
      logLevel: "silent",
    });
  } catch (cause) {
    rmSync(dirname(out), { recursive: true, force: true });
    throw cause;
  }
  return out;
}

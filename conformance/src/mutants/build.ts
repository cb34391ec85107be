/**
 * Builds core modules for the testee adapter from `packages/core/src`: the unmodified
 * source, or a copy with one textual patch applied (a mutant). The shipped core is never
 * touched: the copy lives in a temporary folder and is bundled with esbuild.
 * @module
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { EctpError } from "@ectp/protocol";

/** One textual replacement in a core source file. */
export interface MutantPatch {
  /** File relative to packages/core/src, e.g. `consumer/consumer.ts`. */
  file: string;
  /** Exact text to find (must occur exactly once, so a drifting core makes the mutant fail loudly). */
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
  /** The edits to the core's source that plant the bug, applied in order. */
  patches: MutantPatch[];
}

/** The repository's packages/core/src, found from this file. */
export function coreSourceDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const c = join(dir, "packages", "core", "src");
    try {
      readdirSync(c);
      return c;
    } catch {
      dir = dirname(dir);
    }
  }
  return resolve("packages/core/src");
}

/** The mutants shipped in conformance/mutants/*.json. */
export function loadMutants(dir?: string): MutantSpec[] {
  const d = dir ?? join(dirname(coreSourceDir()), "..", "..", "conformance", "mutants");
  return readdirSync(d)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(d, f), "utf8")) as MutantSpec);
}

const ENTRY = `export { ConsumerCore } from "./consumer/consumer.js";
export { ProducerCore } from "./producer/producer.js";
export { MemoryItemStore } from "./producer/memory-store.js";
export { EventSubscriber } from "./subscriber/subscriber.js";
`;

/**
 * Copy the core source to a temporary folder, apply the patches, and bundle the four
 * classes the adapter needs into one ESM file (`@ectp/protocol` stays external). Returns
 * the bundle's path: a file alone in a new folder under the repository's
 * `node_modules/.cache/ectp-conformance`, which the caller owns (remove that folder once the
 * bundle is imported or its process ended; {@link importCoreBundle} does both). The patched
 * copy of the source is removed before this returns, built or not. Throws
 * `EctpError(INVALID_ARGUMENT)` when a patch's text is not found exactly once (the core
 * changed: update the mutant).
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
 * {@link buildCoreBundle}, imported: the module of the four classes, with the bundle's folder
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

async function bundlePatchedCopy(work: string, patches: readonly MutantPatch[], label: string): Promise<string> {
  const src = coreSourceDir();
  const copy = join(work, "src");
  mkdirSync(copy);
  cpSync(src, copy, { recursive: true, filter: (p) => !p.endsWith(".test.ts") });
  for (const p of patches) {
    const file = join(copy, p.file);
    const text = readFileSync(file, "utf8");
    const n = text.split(p.find).length - 1;
    if (n !== 1)
      throw new EctpError(
        "INVALID_ARGUMENT",
        `mutant ${label}: patch text occurs ${n} times in ${p.file} (must be exactly once); update the mutant to the current core`,
        { details: { find: p.find } },
      );
    writeFileSync(file, text.replace(p.find, p.replace));
  }
  writeFileSync(join(copy, "conformance-entry.ts"), ENTRY);
  const esbuild = (await import("esbuild")) as typeof import("esbuild");
  // The bundle must live under the repository's node_modules so its bare import of
  // @ectp/protocol resolves; the patched sources stay in the temporary folder.
  const cacheDir = join(dirname(dirname(dirname(src))), "node_modules", ".cache", "ectp-conformance");
  mkdirSync(cacheDir, { recursive: true });
  const out = join(mkdtempSync(join(cacheDir, `${label}-`)), `${label}.mjs`);
  try {
    await esbuild.build({
      entryPoints: [join(copy, "conformance-entry.ts")],
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      outfile: out,
      external: ["@ectp/protocol"],
      logLevel: "silent",
    });
  } catch (cause) {
    rmSync(dirname(out), { recursive: true, force: true });
    throw cause;
  }
  return out;
}

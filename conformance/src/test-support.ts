/**
 * Helpers for this package's own tests (not exported from the package).
 * @module
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** The package root. */
export const PACKAGE_ROOT = join(here, "..");

/**
 * Bundle the reference testee (testees/ts/main.ts) into one script under the repository's
 * node_modules/.cache (so its imports of @ectp/* resolve) and return a command line for it.
 */
export async function bundleTsTestee(): Promise<string> {
  const esbuild = await import("esbuild");
  const dir = join(PACKAGE_ROOT, "..", "node_modules", ".cache", "ectp-conformance");
  mkdirSync(dir, { recursive: true });
  const out = join(mkdtempSync(join(dir, "testee-")), "testee-ts.mjs");
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

/** Write a small fake testee script (for runner self-tests) and return its command line. */
export function fakeTestee(name: string, source: string): string {
  const dir = mkdtempSync(join(PACKAGE_ROOT, "..", "node_modules", ".cache", `fake-${name}-`));
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, source);
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`;
}

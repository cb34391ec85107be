/** Shared helpers of this package's tests (not exported from the package). */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliIO } from "./io.js";

const here = dirname(fileURLToPath(import.meta.url));

/** A CliIO that keeps what the CLI writes, for tests that call `main` in-process. */
export function capture(errIsTTY = false): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    errIsTTY,
    out(t: string) {
      io.stdout += t;
    },
    err(t: string) {
      io.stderr += t;
    },
  };
  return io;
}

/**
 * Bundle `bin.ts` from source with esbuild into `outDir/<name>.mjs` (made next to the package, so
 * node resolves @ectp/* from the workspace) and return its path; `stubMain` replaces `./main.js`.
 */
export async function bundleBin(outDir: string, name: string, stubMain?: string): Promise<string> {
  const { build } = await import("esbuild");
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${name}.mjs`);
  await build({
    entryPoints: [join(here, "bin.ts")],
    outfile: file,
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    define: { __ECTP_CLI_VERSION__: '"0.1.0"' },
    logLevel: "silent",
    plugins: stubMain
      ? [
          {
            name: "stub-main",
            setup(b) {
              b.onResolve({ filter: /^\.\/main\.js$/ }, () => ({ path: "stub-main", namespace: "stub" }));
              b.onLoad({ filter: /.*/, namespace: "stub" }, () => ({ contents: stubMain, loader: "js" }));
            },
          },
        ]
      : [],
  });
  return file;
}

// The one build shape every @ectp package shares: ESM + CJS + .d.ts for Node 20, with
// source maps. Each package's tsup.config.ts passes only what differs (extra entries, shims).
import { defineConfig, type Options } from "tsup";

/** tsup options for an @ectp library package; `overrides` replace the defaults field by field. */
export function libraryConfig(overrides: Options = {}) {
  return defineConfig({
    entry: ["src/index.ts"],
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
    ...overrides,
  });
}

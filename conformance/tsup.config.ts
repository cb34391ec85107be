import { defineConfig } from "tsup";

export default defineConfig({
  // The library, and the reference TS testee as a runnable script (node dist/testee-ts.js).
  entry: { index: "src/index.ts", "testee-ts": "testees/ts/main.ts" },
  format: ["esm", "cjs"],
  dts: { entry: { index: "src/index.ts" } },
  sourcemap: true,
  clean: true,
  // import.meta.url (cases/ and mutant paths) also works in the CJS build.
  shims: true,
  target: "node20",
  // esbuild is loaded only to build mutants (tests, `runMutants`).
  external: ["esbuild"],
});

import { libraryConfig } from "../tsup.base";

export default libraryConfig({
  // The library, and the reference TS testee as a runnable script (node dist/testee-ts.js).
  entry: { index: "src/index.ts", "testee-ts": "testees/ts/main.ts" },
  dts: { entry: { index: "src/index.ts" } },
  // import.meta.url (cases/ and mutant paths) also works in the CJS build.
  shims: true,
  // esbuild is loaded only to build mutants (tests, `runMutants`).
  external: ["esbuild"],
});

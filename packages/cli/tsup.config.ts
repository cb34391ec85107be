import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default defineConfig({
  // bin.ts is the `ectp` executable; the shebang is harmless in the library entry.
  entry: ["src/index.ts", "src/bin.ts"],
  format: ["esm", "cjs"],
  dts: { entry: "src/index.ts" },
  sourcemap: true,
  clean: true,
  target: "node20",
  banner: { js: "#!/usr/bin/env node" },
  define: { __ECTP_CLI_VERSION__: JSON.stringify(version) },
});

import { readFileSync } from "node:fs";
import { libraryConfig } from "../../tsup.base";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default libraryConfig({
  // bin.ts is the `ectp` executable; the shebang is harmless in the library entry.
  entry: ["src/index.ts", "src/bin.ts"],
  dts: { entry: "src/index.ts" },
  banner: { js: "#!/usr/bin/env node" },
  define: { __ECTP_CLI_VERSION__: JSON.stringify(version) },
});

import { readFileSync } from "node:fs";
import { libraryConfig } from "../../tsup.base";
import { BIN_SHEBANG } from "./src/shebang";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default libraryConfig({
  // bin.ts is the `ectp` executable; the shebang (Node with the simulator's V8 flags) is
  // harmless in the library entry.
  entry: ["src/index.ts", "src/bin.ts"],
  dts: { entry: "src/index.ts" },
  banner: { js: BIN_SHEBANG },
  define: { __ECTP_CLI_VERSION__: JSON.stringify(version) },
});

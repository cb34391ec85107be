#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=50 --max-inlined-bytecode-size-cumulative=300
// The `ectp` executable. Committed (not built) so that `npm ci` on a fresh clone links
// `node_modules/.bin/ectp` to it: npm links a workspace's bin only if the file exists at
// install time, which dist/bin.js does not yet. Its first line is BIN_SHEBANG (src/shebang.ts;
// a test keeps the two equal). It runs the built CLI, dist/bin.js.
try {
  await import("../dist/bin.js");
} catch (e) {
  if (e?.code !== "ERR_MODULE_NOT_FOUND" || !String(e.message).includes("dist/bin.js")) throw e;
  process.stderr.write("ectp: the CLI is not built yet; run `npm run build` (or `npm run simulate`) at the repository root first\n");
  process.exitCode = 1;
}

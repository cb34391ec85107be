#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=50 --max-inlined-bytecode-size-cumulative=300
// The `ectp` executable. Committed (not built) so that `npm ci` on a fresh clone links
// `node_modules/.bin/ectp` to it: npm links a workspace's bin only if the file exists at
// install time, which dist/bin.js does not yet. Its first line is BIN_SHEBANG (src/shebang.ts;
// a test keeps the two equal). It runs the built CLI, dist/bin.js.
try {
  await import("../dist/bin.js");
} catch (e) {
  // The CLI's own build, or a workspace package it imports (e.g. @ectp/simulator), not built yet.
  const missing = String(e?.message ?? "").split("\n")[0];
  if (e?.code !== "ERR_MODULE_NOT_FOUND" || !/dist[/\\]|@ectp\//.test(missing)) throw e;
  const what = /dist[/\\]bin\.js'/.test(missing) ? "the CLI is not built yet" : `a package the CLI uses is not built yet (${missing})`;
  process.stderr.write(`ectp: ${what}; run \`npm run build\` (or \`npm run simulate\`) at the repository root first\n`);
  process.exitCode = 70; // EXIT_INTERNAL (src/io.ts): 1 means invariant violations
}

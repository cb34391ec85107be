#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=50 --max-inlined-bytecode-size-cumulative=300
// The `ectp` executable. Committed (not built) so that `npm ci` on a fresh clone links
// `node_modules/.bin/ectp` to it: npm links a workspace's bin only if the file exists at
// install time, which dist/bin.js does not yet. Its first line is BIN_SHEBANG (src/shebang.ts;
// a test keeps the two equal). It runs the built CLI, dist/bin.js.
try {
  await import("../dist/bin.js");
} catch (e) {
  // Loading failed before the CLI could install its own handlers: one line and EXIT_INTERNAL (src/io.ts:
  // 1 means invariant violations), never a stack. The usual causes: the CLI's own build, or a workspace
  // package it imports (e.g. @ectp/simulator), not built yet, or built from older sources than the CLI.
  const first = String(e?.message ?? e).split("\n")[0];
  const notBuilt = e?.code === "ERR_MODULE_NOT_FOUND" && /dist[/\\]|@ectp\//.test(first);
  const stale = e instanceof SyntaxError && /does not provide an export named/.test(first);
  const what = notBuilt
    ? /dist[/\\]bin\.js'/.test(first)
      ? "the CLI is not built yet"
      : `a package the CLI uses is not built yet (${first})`
    : stale
      ? `the packages are built from different sources (${first})`
      : `the CLI could not be loaded (${first})`;
  const advice = notBuilt || stale ? "run `npm run build` (or `npm run simulate`) at the repository root first" : "this is a bug: please report it";
  process.stderr.write(`ectp: ${what}; ${advice}\n`);
  process.exitCode = 70;
}

#!/usr/bin/env node
// `npm run check:generated`: regenerate everything that is generated and committed,
// then fail when the working tree differs from what is committed.
//
// - Every workspace package with a `generate` script or a scripts/generate.mjs
//   (protobufjs static code under src/gen, from spec/proto).
// - The golden wire fixtures in spec/testdata/v1 (scripts/gen-fixtures.mjs --check).
//
// A failure means someone edited a .proto (or a generator) without regenerating, or
// hand-edited generated output. The fix is printed.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { workspaceDirs } from "./lib/workspaces.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" });

const generated = [];
for (const dir of workspaceDirs(root)) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const script = join(dir, "scripts", "generate.mjs");
  if (!pkg.scripts?.generate && !existsSync(script)) continue;
  const rel = relative(root, dir);
  console.log(`check:generated: regenerating ${rel}`);
  if (pkg.scripts?.generate)
    execFileSync("npm", ["run", "--silent", "generate"], { cwd: dir, stdio: "inherit" });
  else execFileSync(process.execPath, [script], { cwd: dir, stdio: "inherit" });
  generated.push(join(rel, "src", "gen"));
}

const paths = generated.filter((p) => existsSync(join(root, p)));
// Tracked changes and new untracked files both count.
const changed = paths.length === 0 ? "" : git("status", "--porcelain", "--", ...paths).trim();
let failed = false;
if (changed !== "") {
  failed = true;
  console.error(
    `check:generated: generated code is out of date:\n${changed}\n\n${git("diff", "--stat", "--", ...paths)}\n` +
      "Run `npm run generate` (or `node scripts/generate.mjs` in the package), review and commit src/gen. " +
      "Never hand-edit generated files.",
  );
}

try {
  execFileSync(process.execPath, [join(root, "scripts", "gen-fixtures.mjs"), "--check"], { cwd: root, stdio: "inherit" });
} catch {
  failed = true;
}

if (failed) process.exit(1);
console.log(`check:generated: ${paths.join(", ")} and spec/testdata/v1 match their generators`);

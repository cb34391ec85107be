#!/usr/bin/env node
// Builds the API reference with TypeDoc into docs/site (git-ignored).
//
// Every workspace package with a src/index.ts (packages/*, conformance) is one
// TypeDoc "package" (entryPointStrategy "packages", see typedoc.json); spec/SPEC.md
// is included as a project document. Warnings are errors and
// validation.notDocumented is on, so an undocumented export fails this script.
// `npm run docs` builds the packages first (TypeDoc resolves cross-package types
// through their dist/ declarations).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { workspaceDirs } from "./lib/workspaces.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Workspace package folders (relative to the root) that have src/index.ts. */
export function documentedPackages() {
  return workspaceDirs(root)
    .filter((d) => existsSync(join(d, "src", "index.ts")))
    .map((d) => relative(root, d));
}

function hasOriginRemote() {
  try {
    execFileSync("git", ["remote", "get-url", "origin"], { cwd: root, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const only = process.argv.slice(2);
  const packages = only.length > 0 ? only : documentedPackages();
  if (!existsSync(join(root, "spec", "SPEC.md"))) {
    console.error("docs: spec/SPEC.md is missing; it is included as a page of the reference");
    process.exit(1);
  }
  let options = join(root, "typedoc.json");
  // Source links need a git remote; a clone without "origin" would only warn, and
  // warnings are errors here, so leave the links out there. Per-package options do
  // not inherit CLI flags in "packages" mode and `packageOptions` is config-file
  // only, so write a config that extends typedoc.json (its paths stay relative to it).
  if (!hasOriginRemote()) {
    const config = JSON.parse(readFileSync(options, "utf8"));
    const dir = join(root, "node_modules", ".cache", "ectp-docs");
    mkdirSync(dir, { recursive: true });
    options = join(dir, "typedoc.json");
    writeFileSync(
      options,
      JSON.stringify({ extends: [join(root, "typedoc.json")], packageOptions: { ...config.packageOptions, disableSources: true } }),
    );
  }
  const args = ["--options", options, ...packages];
  const typedoc = join(root, "node_modules", ".bin", process.platform === "win32" ? "typedoc.cmd" : "typedoc");
  console.log(`docs: typedoc over ${packages.join(", ")}`);
  try {
    execFileSync(typedoc, args, { cwd: root, stdio: "inherit" });
  } catch {
    console.error("docs: TypeDoc failed (warnings count as errors; every export needs a doc comment)");
    process.exit(1);
  }
  console.log("docs: wrote docs/site");
}

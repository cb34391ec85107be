#!/usr/bin/env node
// Builds the API reference with TypeDoc into docs/site (git-ignored).
//
// Every workspace package with a src/index.ts (packages/*, conformance) is one
// TypeDoc "package" (entryPointStrategy "packages", see typedoc.json); spec/SPEC.md
// and the documents the READMEs link to are project documents (typedoc.json), and
// this script adds a "Wire schema (.proto)" page it generates from spec/proto.
// Warnings are errors and validation.notDocumented is on, so an undocumented export
// fails this script. The local plugin scripts/typedoc-ectp.mjs (typedoc.json "plugin")
// links requirement ids and "SPEC.md section N" to the SPEC page, titles the documents
// and folds protobufjs' empty namespaces; after the build this script checks that every
// link into the SPEC page names an anchor the page has. `npm run docs` builds the packages first (TypeDoc resolves
// cross-package types through their dist/ declarations).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { OptionDefaults } from "typedoc";
import { protoFilesUnder } from "./lib/proto-files.mjs";
import { workspaceDirs } from "./lib/workspaces.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Workspace package folders (relative to the root) that have src/index.ts. */
export function documentedPackages() {
  return workspaceDirs(root)
    .filter((d) => existsSync(join(d, "src", "index.ts")))
    .map((d) => relative(root, d));
}

/** The .proto files under spec/proto, relative to the root with "/" separators, sorted. */
export function protoFiles() {
  return protoFilesUnder(join(root, "spec", "proto")).map((f) => `spec/proto/${f}`);
}

/** Markdown of the "Wire schema (.proto)" page: each .proto file verbatim under a heading with its path. */
export function wireSchemaPage() {
  const lines = [
    "---",
    "title: Wire schema (.proto)",
    "---",
    "",
    "# Wire schema (.proto)",
    "",
    "The protobuf files of `spec/proto`, verbatim: the wire messages (`ectp.v1`) and the testee",
    "protocol (`ectp.conformance.v1`). Golden fixtures, each message as hex bytes and proto3 JSON, are in",
    "`spec/testdata/` of the repository.",
  ];
  for (const file of protoFiles()) {
    const text = readFileSync(join(root, file), "utf8");
    lines.push("", `## ${file}`, "", "```proto", text.trimEnd(), "```");
  }
  return `${lines.join("\n")}\n`;
}

/** The HTML files under `dir`, as paths relative to it with "/" separators. */
function htmlPages(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => f.split("\\").join("/"))
    .filter((f) => f.endsWith(".html"));
}

/**
 * Links into `specPage` (a page of the built site in `siteDir`, e.g. "documents/spec_SPEC.html")
 * whose #anchor that page lacks, as "page: href" lines; and how many such links were checked. These
 * are the links the TypeDoc plugin (scripts/typedoc-ectp.mjs) makes from requirement ids and
 * "SPEC.md section N".
 */
export function missingSpecAnchors(siteDir, specPage) {
  const specHtml = readFileSync(join(siteDir, specPage), "utf8");
  const anchors = new Set([...specHtml.matchAll(/\s(?:id|name)="([^"]+)"/g)].map((m) => m[1]));
  const missing = [];
  let checked = 0;
  for (const page of htmlPages(siteDir)) {
    const html = readFileSync(join(siteDir, page), "utf8");
    for (const m of html.matchAll(/\shref="([^"#:]*)#([^"]+)"/g)) {
      const target = m[1] === "" ? page : posix.normalize(posix.join(posix.dirname(page), decodeURI(m[1])));
      if (target !== specPage) continue;
      checked++;
      const anchor = decodeURIComponent(m[2].replaceAll("&amp;", "&"));
      if (!anchors.has(anchor)) missing.push(`${page}: ${m[0].trim()}`);
    }
  }
  return { checked, missing };
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
  // This build's config extends typedoc.json (whose paths stay relative to it) and
  // lives, with the generated wire schema page, in a git-ignored folder.
  const config = JSON.parse(readFileSync(join(root, "typedoc.json"), "utf8"));
  const dir = join(root, "node_modules", ".cache", "ectp-docs");
  mkdirSync(dir, { recursive: true });
  const wireSchema = join(dir, "wire-schema.md");
  writeFileSync(wireSchema, wireSchemaPage());
  const derived = {
    extends: [join(root, "typedoc.json")],
    // Arrays replace the extended ones, so list typedoc.json's documents again.
    projectDocuments: [...config.projectDocuments.map((d) => join(root, d)), wireSchema],
    highlightLanguages: [...OptionDefaults.highlightLanguages, "proto"],
    // Links to a .proto file go to its section of this page (scripts/typedoc-ectp.mjs).
    wireSchemaDocument: "wire-schema.md",
  };
  // Source links need a git remote; a clone without "origin" would only warn, and
  // warnings are errors here, so leave the links out there. Per-package options do
  // not inherit CLI flags in "packages" mode and `packageOptions` is config-file
  // only, hence this config.
  if (!hasOriginRemote()) derived.packageOptions = { ...config.packageOptions, disableSources: true };
  const options = join(dir, "typedoc.json");
  writeFileSync(options, JSON.stringify(derived));
  const args = ["--options", options, ...packages];
  const typedoc = join(root, "node_modules", ".bin", process.platform === "win32" ? "typedoc.cmd" : "typedoc");
  console.log(`docs: typedoc over ${packages.join(", ")}`);
  try {
    execFileSync(typedoc, args, { cwd: root, stdio: "inherit" });
  } catch {
    console.error("docs: TypeDoc failed (warnings count as errors; every export needs a doc comment)");
    process.exit(1);
  }
  // The plugin links requirement ids and "SPEC.md section N" to the SPEC page's anchors and
  // warns about an id it has no anchor for; this proves the written links against the output.
  const specPage = "documents/spec_SPEC.html";
  const { checked, missing } = missingSpecAnchors(join(root, "docs", "site"), specPage);
  if (checked === 0 || missing.length > 0) {
    console.error(`docs: ${missing.length} of ${checked} links into ${specPage} name an anchor it lacks:`);
    for (const line of missing) console.error(`  ${line}`);
    process.exit(1);
  }
  console.log(`docs: wrote docs/site (${checked} links into ${specPage}, every anchor present)`);
}

#!/usr/bin/env node
// `npm run buf:breaking`: compare spec/ with the spec as of the last release tag.
//
// Release tags of the spec are named `spec-v<major>.<minor>.<patch>` (see
// scripts/README.md). The newest one by version order is the baseline;
// `buf breaking` then applies the rules of spec/buf.yaml (WIRE_JSON: no change
// that breaks the wire or JSON encoding). Before the first release there is
// nothing to compare with, and the check is skipped (exit 0).
import { execFileSync, spawnSync } from "node:child_process";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Tags matching spec-v*, newest version first. */
export function specTags() {
  const out = execFileSync("git", ["tag", "--list", "spec-v*", "--sort=-version:refname"], {
    cwd: root,
    encoding: "utf8",
  });
  return out.split("\n").map((t) => t.trim()).filter(Boolean);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [tag] = specTags();
  if (tag === undefined) {
    console.log("buf:breaking: no release tag yet; skipping");
    process.exit(0);
  }
  const against = `.git#tag=${tag},subdir=spec`;
  console.log(`buf:breaking: buf breaking spec --against '${against}'`);
  const r = spawnSync("buf", ["breaking", "spec", "--against", against], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PATH: `${join(root, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}` },
  });
  if (r.status !== 0) {
    console.error(
      `buf:breaking: spec/ breaks compatibility with ${tag}. Within a major version only ` +
        "backward-compatible additions are allowed [V2]; see .changeset/README.md for the bump policy.",
    );
    process.exit(r.status ?? 1);
  }
  console.log(`buf:breaking: spec/ is wire- and JSON-compatible with ${tag}`);
}

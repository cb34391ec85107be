// Workspace package folders, from the root package.json "workspaces" globs
// (only the `dir/*` and plain `dir` forms are used in this repository).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Absolute folders of every workspace package, sorted. */
export function workspaceDirs(root) {
  const { workspaces = [] } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const dirs = [];
  for (const pattern of workspaces) {
    if (pattern.endsWith("/*")) {
      const base = join(root, pattern.slice(0, -2));
      if (!existsSync(base)) continue;
      for (const name of readdirSync(base).sort()) dirs.push(join(base, name));
    } else dirs.push(join(root, pattern));
  }
  return dirs.filter((d) => existsSync(join(d, "package.json")));
}

/** The package.json of a workspace folder. */
export function readPackage(dir) {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
}

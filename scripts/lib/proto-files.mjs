// The .proto files of a folder: spec/proto for the docs site, a package's proto/ for the pack check.
import { readdirSync } from "node:fs";

/** The .proto files under `dir`, as paths relative to it with "/" separators, sorted. */
export function protoFilesUnder(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => f.split("\\").join("/"))
    .filter((f) => f.endsWith(".proto"))
    .sort();
}

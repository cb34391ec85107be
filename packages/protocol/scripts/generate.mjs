// Regenerates src/gen/ectp.{js,d.ts} from spec/proto with protobufjs-cli.
// The output is committed; CI runs this and fails if `git diff` shows a change.
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const protoRoot = join(here, "../../../spec/proto");
const out = join(here, "../src/gen/ectp.js");
// Every proto under spec/proto (ectp.v1 and ectp.conformance.v1), in a stable order.
const walk = (dir) =>
  readdirSync(dir)
    .sort()
    .flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : f.endsWith(".proto") ? [join(dir, f)] : []));
const protos = walk(protoRoot);

const run = (bin, args) => execFileSync(bin, args, { stdio: "inherit" });
// --force-number: 64-bit fields decode as JS numbers; values above 2^53 - 1
// are then not safe integers and validation rejects them (SPEC.md "Sizes").
// --alt-comment keeps the proto comments, so TypeDoc documents every field.
run("pbjs", [
  "-t", "static-module", "-w", "esm", "--force-number", "--no-service", "--alt-comment",
  "-p", protoRoot, "-o", out, ...protos,
]);
run("pbts", ["-o", out.replace(/\.js$/, ".d.ts"), out]);

// Regenerates src/gen/ectp.{js,d.ts} from spec/proto with protobufjs-cli.
// The output is committed; CI (`npm run check:generated`) runs this and fails if
// `git diff` shows a change. Never hand-edit src/gen.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkIntegersOnEncode,
  checkTypesOnEncode,
  cleanDeclarations,
  forceNumbersAtRuntime,
  limitRepeatedElements,
  refuseRepeatedSingularFields,
  skipUnknownByFieldNumber,
  strictSkipField,
} from "../../../scripts/lib/pbjs-postprocess.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const pkgRoot = join(here, "..");
const protoRoot = join(here, "../../../spec/proto");
const protoDir = join(protoRoot, "ectp/v1");
const out = join(here, "../src/gen/ectp.js");
const dts = out.replace(/\.js$/, ".d.ts");
const protos = readdirSync(protoDir)
  .filter((f) => f.endsWith(".proto"))
  .sort()
  .map((f) => join(protoDir, f));

// Resolve the CLIs from node_modules/.bin (this package's, then the workspace root's),
// so the script also works when run as `node scripts/generate.mjs` outside npm.
function bin(name) {
  for (let dir = pkgRoot; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", ".bin", name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return name; // fall back to PATH
  }
}

const run = (name, args) => execFileSync(bin(name), args, { stdio: "inherit" });
// --force-number: 64-bit fields decode as JS numbers; values above 2^53 - 1
// are then not safe integers and validation rejects them (SPEC.md "Sizes").
// --alt-comment keeps the proto comments, so TypeDoc documents every field.
run("pbjs", [
  "-t", "static-module", "-w", "esm", "--force-number", "--no-service", "--alt-comment",
  "-p", protoRoot, "-o", out, ...protos,
]);
run("pbts", ["-o", dts, out]);

// Post-processing shared with other generators: see scripts/lib/pbjs-postprocess.mjs.
// MAX_REPEATED_ELEMENTS of src/limits.ts (a test checks that the two agree).
const MAX_REPEATED_ELEMENTS = 65_536;
const js = strictSkipField(skipUnknownByFieldNumber(forceNumbersAtRuntime(readFileSync(out, "utf8"))), "../skip-field.js");
writeFileSync(out, refuseRepeatedSingularFields(limitRepeatedElements(checkTypesOnEncode(checkIntegersOnEncode(js)), MAX_REPEATED_ELEMENTS)));
writeFileSync(dts, cleanDeclarations(readFileSync(dts, "utf8")));

// Regenerates src/gen/testee.{js,d.ts} (the testee protocol, ectp.conformance.v1, plus the
// ectp.v1 messages it embeds) from spec/proto with protobufjs-cli. Committed output; never
// hand-edit src/gen. Kept inside this package so the runner does not depend on which
// protos @ectp/protocol's generator includes.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cleanDeclarations, forceNumbersAtRuntime, skipUnknownByFieldNumber } from "../../scripts/lib/pbjs-postprocess.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const pkgRoot = join(here, "..");
const protoRoot = join(pkgRoot, "../spec/proto");
const out = join(pkgRoot, "src/gen/testee.js");
const dts = out.replace(/\.js$/, ".d.ts");

function bin(name) {
  for (let dir = pkgRoot; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", ".bin", name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return name;
  }
}
const run = (name, args) => execFileSync(bin(name), args, { stdio: "inherit" });
run("pbjs", [
  "-t", "static-module", "-w", "esm", "--force-number", "--no-service", "--alt-comment",
  // A named root: the default root is shared with @ectp/protocol's generated code, whose
  // `ectp` namespace would otherwise replace ours at load time.
  "-r", "ectp_conformance", "-p", protoRoot, "-o", out, join(protoRoot, "ectp/conformance/v1/testee.proto"),
]);
run("pbts", ["-o", dts, out]);
// Shared post-processing (scripts/lib/pbjs-postprocess.mjs): 64-bit fields are numbers at
// run time too, unknown fields of field-less messages are skipped by field number, the unused
// Long import goes, and pbts's $Shape members get doc comments.
writeFileSync(out, skipUnknownByFieldNumber(forceNumbersAtRuntime(readFileSync(out, "utf8"))));
writeFileSync(dts, cleanDeclarations(readFileSync(dts, "utf8")));

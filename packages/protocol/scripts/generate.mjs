// Regenerates src/gen/ectp.{js,d.ts} from spec/proto with protobufjs-cli.
// The output is committed; CI (`npm run check:generated`) runs this and fails if
// `git diff` shows a change. Never hand-edit src/gen.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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

// Post-process the JavaScript: make --force-number true at run time.
// pbjs --force-number only changes the declared types. The generated code still
// asks `$util.Long`, and protobufjs 8 depends on `long`, so without this every
// 64-bit field would decode (and fromObject) to a Long object while the d.ts says
// `number`, and e.g. Number.isSafeInteger(envelope.senderEpoch) would be false.
// A module-local view of protobufjs' util with `Long` hidden sends the generated
// code down its number branches (global protobufjs state stays untouched), and
// reader.uint64(), which consults the global Long, is converted to a number
// (values >= 2^53 stay >= 2^53, so validation still rejects them as unsafe).
const js = readFileSync(out, "utf8");
const utilAlias = "$util = $protobuf.util;";
if (!js.includes(utilAlias) || !js.includes("reader.uint64()"))
  throw new Error("generate: unexpected pbjs output; update the Long post-processing in scripts/generate.mjs");
const patched = js
  .replaceAll("reader.uint64()", "$uint64(reader)")
  .replace(/reader\.uint64s\(([^()]+)\);/g, "$uint64s(reader, $1);")
  .replace(
    utilAlias,
    "$util = Object.create($protobuf.util, { Long: { value: null } });\n" +
      "// 64-bit fields are plain numbers (pbjs --force-number; see scripts/generate.mjs).\n" +
      'const $toNumber = (v) => (typeof v === "number" ? v : $util.LongBits.from(v).toNumber(true));\n' +
      "const $uint64 = (reader) => $toNumber(reader.uint64());\n" +
      "const $uint64s = (reader, into) => { const start = into.length; reader.uint64s(into); for (let i = start; i < into.length; i++) into[i] = $toNumber(into[i]); };",
  );
// Only uint64 is used by the schema today; another 64-bit type needs the same treatment.
const leftover = /reader\.(?:u?int64s?|sint64s?|s?fixed64s?)\(/.exec(
  patched.replace(/const \$uint64s? = .*\n/g, ""),
);
if (leftover) throw new Error(`generate: ${leftover[0]} would decode to Long; extend the post-processing`);
writeFileSync(out, patched);

// Post-process the declarations for consumers:
// - pbts always emits `import Long = require("long")`. With --force-number nothing
//   refers to Long, the `long` package is not a dependency, and tsup warns that the
//   import is unused; an `import x = require()` is also invalid in an ESM d.ts.
const text = readFileSync(dts, "utf8");
const cleaned = text.replace(/^import Long = require\("long"\);\r?\n/m, "");
if (/\bLong\b/.test(cleaned.replace(/\/\*[\s\S]*?\*\//g, "")))
  throw new Error("generate: ectp.d.ts still refers to Long; check the pbjs --force-number flag");
writeFileSync(dts, documentShapes(cleaned));

// - pbts writes the narrowed `$Shape` types (messages with a oneof, and messages
//   containing those) as type literals whose members carry no doc comments. TypeDoc
//   runs with validation.notDocumented and warnings as errors, so give every member
//   a short comment pointing at the documented `$Properties` interface. This changes
//   no type, only comments.
// The same text for a member in the base literal and in every oneof case: TypeScript
// merges them into one property, and TypeDoc drops comments that differ.
function shapeComment(name) {
  return `/** \`${name}\`, as documented on this message's \`$Properties\`. */`;
}

function documentShapes(source) {
  const lines = source.split("\n");
  let inShape = false;
  const out = [];
  for (const line of lines) {
    if (/^\s*type \$Shape = \{$/.test(line)) {
      inShape = true;
      out.push(line);
      continue;
    }
    if (inShape) {
      const member = /^(\s+)(\$?\w+)\??: /.exec(line);
      if (member) {
        const [, indent, name] = member;
        out.push(`${indent}${shapeComment(name)}`);
      } else if (/^\s*\(\{/.test(line)) {
        // One line of oneof cases: `({ kind?: undefined; a?: null }|{ kind?: "a"; a: T }|...)`.
        // TypeDoc ignores a doc comment sharing its line with code, so each member
        // goes on its own line after its comment.
        const indent = /^\s*/.exec(line)[0];
        out.push(
          line.replace(/([{;]) (\$?\w+)(\??: )/g, (_, before, name, after) =>
            `${before}\n${indent}  ${shapeComment(name)}\n${indent}  ${name}${after}`,
          ),
        );
        continue;
      } else if (/^\s*\)?;$/.test(line) || /^\s*\};$/.test(line)) {
        inShape = false;
      }
    }
    out.push(line);
  }
  return out.join("\n");
}

// Post-processing of protobufjs-cli (pbjs/pbts) static output, shared by the
// generators of every package that commits generated protobuf code
// (packages/protocol/scripts/generate.mjs; conformance should use it too).
//
//   forceNumbersAtRuntime(js)  make `pbjs --force-number` true at run time
//   cleanDeclarations(dts)     drop the unused Long import, document $Shape members
//
// Both are pure string transforms that throw when pbjs output no longer looks as
// expected, so a protobufjs upgrade cannot silently skip them.

/**
 * `pbjs --force-number` only changes the declared types. The generated code still
 * asks `$util.Long`, and protobufjs 8 depends on `long`, so without this every
 * 64-bit field would decode (and fromObject) to a Long object while the d.ts says
 * `number`, and e.g. Number.isSafeInteger(envelope.senderEpoch) would be false.
 * A module-local view of protobufjs' util with `Long` hidden sends the generated
 * code down its number branches (global protobufjs state stays untouched), and
 * reader.uint64()/uint64s(), which consult the global Long, are converted to
 * numbers (values >= 2^53 stay >= 2^53, so validation still rejects them as unsafe).
 */
export function forceNumbersAtRuntime(js) {
  const utilAlias = "$util = $protobuf.util;";
  if (!js.includes(utilAlias))
    throw new Error("pbjs-postprocess: unexpected pbjs output (no $util alias); update scripts/lib/pbjs-postprocess.mjs");
  const patched = js
    .replaceAll("reader.uint64()", "$uint64(reader)")
    .replace(/reader\.uint64s\(([^()]+)\);/g, "$uint64s(reader, $1);")
    .replace(
      utilAlias,
      "$util = Object.create($protobuf.util, { Long: { value: null } });\n" +
        "// 64-bit fields are plain numbers (pbjs --force-number; see scripts/lib/pbjs-postprocess.mjs).\n" +
        'const $toNumber = (v) => (typeof v === "number" ? v : $util.LongBits.from(v).toNumber(true));\n' +
        "const $uint64 = (reader) => $toNumber(reader.uint64());\n" +
        "const $uint64s = (reader, into) => { const start = into.length; reader.uint64s(into); for (let i = start; i < into.length; i++) into[i] = $toNumber(into[i]); };",
    );
  // Only uint64 is handled; another 64-bit type needs the same treatment.
  const leftover = /reader\.(?:u?int64s?|sint64s?|s?fixed64s?)\(/.exec(patched.replace(/const \$uint64s? = .*\n/g, ""));
  if (leftover) throw new Error(`pbjs-postprocess: ${leftover[0]} would decode to Long; extend forceNumbersAtRuntime`);
  return patched;
}

/**
 * Declarations for consumers:
 * - pbts always emits `import Long = require("long")`. With --force-number nothing
 *   refers to Long, `long` is not a dependency of ours, tsup warns that the import is
 *   unused, and `import x = require()` is invalid in an ESM d.ts.
 * - pbts writes the narrowed `$Shape` types (messages with a oneof, and messages
 *   containing those) as type literals whose members carry no doc comments. TypeDoc
 *   runs with validation.notDocumented and warnings as errors, so every member gets a
 *   short comment pointing at the documented `$Properties` interface. No type changes.
 */
export function cleanDeclarations(dts) {
  const cleaned = dts.replace(/^import Long = require\("long"\);\r?\n/m, "");
  if (/\bLong\b/.test(cleaned.replace(/\/\*[\s\S]*?\*\//g, "")))
    throw new Error("pbjs-postprocess: the d.ts still refers to Long; generate with pbjs --force-number");
  return documentShapes(cleaned);
}

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

// Post-processing of protobufjs-cli (pbjs/pbts) static output, shared by the
// generators of every package that commits generated protobuf code
// (packages/protocol/scripts/generate.mjs; conformance should use it too).
//
//   forceNumbersAtRuntime(js)  make `pbjs --force-number` true at run time
//   checkIntegersOnEncode(js)  refuse, instead of wrapping, integers a field cannot carry
//   limitRepeatedElements(js, max)  refuse, while decoding, a message with more repeated elements
//   refuseRepeatedSingularFields(js)  refuse, while decoding, a non-repeated field that occurs twice
//   strictSkipField(js, path)  skip unknown fields with a hand-written skipper as strict as known fields
//   saturateUint64OnEncode(js) write a uint64 of 2^64 or more as 2^64 - 1 (conformance runner only)
//   moduleLocalRoot(js)        keep the generated namespace out of protobufjs' process-wide roots
//   cleanDeclarations(dts)     drop the unused Long import, document $Shape members
//
// All are pure string transforms that throw when pbjs output no longer looks as
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
/**
 * Skip unknown fields of field-less messages by their field number. For a message without
 * fields, pbjs emits `reader.skipType(tag & 7, _depth, tag)`, passing the whole tag where
 * protobufjs expects the field number: an unknown group (wire type 3) then never finds its
 * end-group tag ("invalid end group tag") and field number 0 goes unchecked, while every
 * other message refuses field 0 and skips groups. Unknown fields MUST be ignored [V1].
 */
export function skipUnknownByFieldNumber(js) {
  const wrong = "reader.skipType(tag & 7, _depth, tag);";
  return js.split(wrong).join("reader.skipType(tag & 7, _depth, tag >>> 3);");
}

/**
 * Hold unknown fields to the rules known ones follow: every `reader.skipType(...)` of the
 * generated decoders becomes `skipField(reader, ...)` of a hand-written module (`importPath`,
 * relative to the generated file), which refuses an unknown varint of more than 10 bytes and an
 * empty group past the nesting limit; protobufjs' `skipType` lets both pass, so the same bytes
 * were malformed in a known field and accepted in an unknown one (and by upb and the Python
 * reference, malformed in both). Run after {@link skipUnknownByFieldNumber}.
 */
export function strictSkipField(js, importPath) {
  const call = "reader.skipType(";
  if (!js.includes(call)) throw new Error("pbjs-postprocess: unexpected pbjs output (no reader.skipType); update strictSkipField");
  const imported = 'import $protobuf from "protobufjs/minimal.js";';
  if (!js.includes(imported)) throw new Error("pbjs-postprocess: unexpected pbjs output (no protobufjs import); update strictSkipField");
  return js
    .split(call)
    .join("$skipField(reader, ")
    .replace(imported, `${imported}\n// Unknown fields are skipped as strictly as known ones are read (see scripts/lib/pbjs-postprocess.mjs).\nimport { skipField as $skipField } from ${JSON.stringify(importPath)};`);
}

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
 * protobufjs' writer wraps what an integer field cannot carry: uint64 modulo 2^64 (2^64 +
 * 2^20 is sent as 2^20, -1 as 2^64 - 1), uint32 modulo 2^32 (a `lease_ms` of 2^32 arrives as
 * 0, which means the default), fractions truncated. The receiver then sees another, valid
 * value. Every `.uint64(message.x)`, `.uint64s(...)`, `.uint32(message.x)` and
 * `.int32(message.x)` of the generated encoders goes through a check that throws a
 * RangeError naming the field instead (encodeEnvelope reports it as INVALID_ARGUMENT).
 * Every int32 of ectp.v1 is an enum, and enum values are never negative in any version [V1]:
 * int32 accepts [0, 2^31) (a negative one would go out as a ten-byte varint every receiver maps
 * to its default). uint64 accepts safe integers only (SPEC.md: senders never send values above 2^53 - 1), also
 * in its presence test, which would read an object as a Long (`{}` silently left out, `{low,
 * high}` put on the wire as any 64-bit value).
 * For implementations' encoders; the conformance runner's generated code leaves it out, so
 * it can still put on the wire the out-of-range values a faulty peer would send.
 */
export function checkIntegersOnEncode(js) {
  const anchor = "// 64-bit fields are plain numbers";
  if (!js.includes(anchor)) throw new Error("pbjs-postprocess: run forceNumbersAtRuntime before checkIntegersOnEncode");
  let count = 0;
  let presence = 0;
  const patched = js
    .replace(/\.(uint64s?|uint32|int32)\(message\.(\w+)\)/g, (_, kind, field) => {
      count++;
      return `.${kind}($check_${kind}(message.${field}, "${field}"))`;
    })
    // A uint64 field's presence test reads an object as a Long (`{}` is "absent" and skipped):
    // check the value there, so an object (no Long exists with --force-number) is refused.
    .replace(/\(typeof message\.(\w+) === "object" \? message\.\1\.low \|\| message\.\1\.high : message\.\1 !== 0\)/g, (_, field) => {
      presence++;
      return `$check_uint64(message.${field}, "${field}") !== 0`;
    })
    .replace(
      anchor,
      "// Integers a field cannot carry are refused, not wrapped (see scripts/lib/pbjs-postprocess.mjs).\n" +
        'const $refuse = (field, range, v) => { throw new RangeError(field + " must be an integer in " + range + "; got " + (typeof v === "number" ? v : typeof v)); };\n' +
        'const $check_uint64 = (v, f) => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : $refuse(f, "[0, 2^53)", v));\n' +
        'const $check_uint64s = (a, f) => { for (let i = 0; i < a.length; i++) $check_uint64(a[i], f + "[" + i + "]"); return a; };\n' +
        'const $check_uint32 = (v, f) => (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 0xffffffff ? v : $refuse(f, "[0, 2^32)", v));\n' +
        'const $check_int32 = (v, f) => (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 0x7fffffff ? v : $refuse(f, "[0, 2^31)", v));\n' +
        anchor,
    );
  if (count === 0) throw new Error("pbjs-postprocess: no integer field writes found; update checkIntegersOnEncode");
  if (presence === 0) throw new Error("pbjs-postprocess: no uint64 presence tests found; update checkIntegersOnEncode");
  // Anything else that writes a message field as an integer would still wrap.
  const leftover = /\.(?:u?int64|sint(?:32|64)|s?fixed(?:32|64))s?\(message\./.exec(patched);
  if (leftover) throw new Error(`pbjs-postprocess: ${leftover[0]} is not checked; extend checkIntegersOnEncode`);
  return patched;
}

/**
 * For the conformance runner's generated code, which keeps protobufjs' wrapping (to put on the
 * wire what a faulty peer would send): a uint64 of 2^64 or more is written as 2^64 - 1, on the
 * wire and in proto3 JSON, instead of being wrapped. With 64-bit fields as numbers, a proto3-JSON
 * uint64 near the top of its range ("18446744073709551615", from a case or a JSON-lines testee)
 * is read as the double 2^64: the writer wrapped it to 0 (which means "absent"), and `toObject`
 * with `longs: String` wrote "18446744073709552000", outside the uint64 range, which a strict JSON
 * reader refuses. Saturated, it stays above 2^53 - 1, a value every receiver must refuse (and
 * 2^64 - 1 itself arrives exactly).
 */
export function saturateUint64OnEncode(js) {
  const anchor = "// 64-bit fields are plain numbers";
  if (!js.includes(anchor)) throw new Error("pbjs-postprocess: run forceNumbersAtRuntime before saturateUint64OnEncode");
  let count = 0;
  let json = 0;
  const patched = js
    .replace(/\.uint64\(message\.(\w+)\)/g, (_, field) => {
      count++;
      return `.uint64($saturate64(message.${field}))`;
    })
    .replace(/options\.longs === \$String \? \$String\(message\.(\w+)\) : message\.\1/g, (_, field) => {
      json++;
      return `options.longs === $String ? $saturatedString64(message.${field}) : message.${field}`;
    })
    .replace(
      anchor,
      "// A uint64 of 2^64 or more is written as 2^64 - 1, not wrapped (see scripts/lib/pbjs-postprocess.mjs).\n" +
        'const $saturate64 = (v) => (typeof v === "number" && v >= 18446744073709551616 ? { low: -1, high: -1 } : v);\n' +
        'const $saturatedString64 = (v) => (typeof v === "number" && v >= 18446744073709551616 ? "18446744073709551615" : String(v));\n' +
        anchor,
    );
  if (count === 0) throw new Error("pbjs-postprocess: no uint64 field writes found; update saturateUint64OnEncode");
  if (json === 0) throw new Error("pbjs-postprocess: no uint64 toObject conversions found; update saturateUint64OnEncode");
  // A repeated uint64 would be written element-wise by another call; extend this if one appears.
  if (/\.uint64s?\(message\.\w+\[/.test(patched)) throw new Error("pbjs-postprocess: a repeated uint64 write is not saturated; extend saturateUint64OnEncode");
  return patched;
}

/**
 * protobufjs' encoders coerce what has the wrong type: a string where bytes belong is read as
 * base64 (another item key), a bytes value without a `length` (a number, an ArrayBuffer) is
 * skipped as if empty, a number where a string belongs becomes an empty string, a string where
 * a list belongs becomes a list of its characters, a number (or a byte array) where a message
 * belongs an empty message, and a string with a lone surrogate is written as invalid UTF-8
 * that every decoder refuses. Every string, bytes, bool, message and repeated field of the
 * generated encoders goes through a check that throws a TypeError naming the field instead
 * (encodeEnvelope reports it as INVALID_ARGUMENT); a bytes field is checked before its
 * emptiness test. Bytes are a Uint8Array (from any realm; a Buffer is one) or, as protobufjs'
 * own `fromObject` leaves them, an array of byte values. The error says what was given: a
 * primitive by its type (`got number`), an object by its kind, as the package's `describeValue`
 * does (`got an array`, `got a Uint8Array`, `got a DataView`, `got an object`; the generated code
 * cannot import that TypeScript, as plain Node scripts load it). Run after checkIntegersOnEncode;
 * like it, for implementations' encoders only.
 */
export function checkTypesOnEncode(js) {
  const anchor = "// Integers a field cannot carry are refused";
  if (!js.includes(anchor)) throw new Error("pbjs-postprocess: run checkIntegersOnEncode before checkTypesOnEncode");
  const counts = { guard: 0, scalar: 0, message: 0, list: 0 };
  const patched = js
    // A bytes field's emptiness test (`message.x.length`) comes first: check the value there.
    .replace(/&& message\.(\w+)\.length\)(\n\s*writer\.uint32\([^)]*\)\.bytes\(message\.\1)\)/g, (_, field, write) => {
      counts.guard++;
      return `&& $check_bytes(message.${field}, "${field}").length)${write} /* checked above */)`;
    })
    .replace(/\.(string|bytes|bool)\(message\.(\w+)(\[i\])?\)/g, (_, kind, field, index = "") => {
      counts.scalar++;
      return `.${kind}($check_${kind}(message.${field}${index}, "${field}"))`;
    })
    .replace(/(\.encode\()message\.(\w+)(\[i\])?, writer/g, (_, call, field, index = "") => {
      counts.message++;
      return `${call}$check_message(message.${field}${index}, "${field}"), writer`;
    })
    .replace(/if \(message\.(\w+) != null && message\.\1\.length\)/g, (_, field) => {
      counts.list++;
      return `if (message.${field} != null && $check_list(message.${field}, "${field}").length)`;
    })
    .replace(
      anchor,
      "// Values of the wrong type are refused, not coerced (see scripts/lib/pbjs-postprocess.mjs).\n" +
        "// What a refused value is: a primitive by its type, an object by its kind, as describeValue of src/errors.ts says it.\n" +
        "const $typedArrayName = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;\n" +
        'const $kindOf = (v) => { if (v === null) return "null"; if (typeof v === "function") return "a function"; if (typeof v !== "object") return typeof v; if (Array.isArray(v)) return "an array"; if (v instanceof ArrayBuffer) return "an ArrayBuffer"; if (!ArrayBuffer.isView(v)) return "an object"; const name = $typedArrayName.call(v) ?? "DataView"; return (name.startsWith("Int") ? "an " : "a ") + name; };\n' +
        'const $wrongType = (field, want, v) => { throw new TypeError(field + " must be " + want + "; got " + $kindOf(v)); };\n' +
        'const $check_string = (v, f) => (typeof v === "string" ? (v.isWellFormed() ? v : $wrongType(f, "well-formed UTF-16 (no lone surrogate)", v)) : $wrongType(f, "a string", v));\n' +
        'const $isBytes = (v) => $Object.prototype.toString.call(v) === "[object Uint8Array]" || ($Array.isArray(v) && v.every((b) => typeof b === "number" && b >= 0 && b <= 255 && b === (b | 0)));\n' +
        'const $check_bytes = (v, f) => ($isBytes(v) ? v : $wrongType(f, "a Uint8Array (or an array of byte values)", v));\n' +
        'const $check_bool = (v, f) => (typeof v === "boolean" ? v : $wrongType(f, "a boolean", v));\n' +
        'const $check_message = (v, f) => (typeof v === "object" && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer) ? v : $wrongType(f, "an object (a message)", v));\n' +
        'const $check_list = (v, f) => (Array.isArray(v) ? v : $wrongType(f, "an array", v));\n' +
        anchor,
    );
  if (counts.guard === 0 || counts.scalar === 0 || counts.message === 0 || counts.list === 0)
    throw new Error(`pbjs-postprocess: found ${JSON.stringify(counts)} field writes; update checkTypesOnEncode`);
  // Anything else that writes a field from the message unchecked would still coerce.
  const leftover = /\.(?:string|bytes|bool)\(message\.\w+(?:\[i\])?\)|\.encode\(message\.\w+(?:\[i\])?, writer/.exec(patched);
  if (leftover) throw new Error(`pbjs-postprocess: ${leftover[0]} is not checked; extend checkTypesOnEncode`);
  return patched;
}

/**
 * A repeated field costs a decoder an object per element, however small the element is on
 * the wire: a 16 MiB frame of two-byte empty descriptors decodes to 8 million objects
 * (~670 MB, seconds of CPU). SPEC.md section 5 limits the elements of all repeated fields of
 * one message, nested ones included, to `max`. Every decoder counts on its Reader (a
 * top-level decode starts at 0; nested messages share their parent's count) and throws a
 * RangeError naming the field once the count passes `max`, before the element is decoded;
 * packed fields count element by element.
 * For implementations' decoders; the conformance runner's generated code leaves it out, so
 * it can decode whatever a testee sends.
 */
export function limitRepeatedElements(js, max) {
  const anchor = "// 64-bit fields are plain numbers";
  if (!js.includes(anchor)) throw new Error("pbjs-postprocess: run forceNumbersAtRuntime before limitRepeatedElements");
  let count = 0;
  let resets = 0;
  const patched = js
    // A top-level decode (no _depth) starts the count; nested ones add to their parent's.
    .replace(/(reader = \$Reader\.create\(reader\);\n)(\s*)if \(_depth === \$undefined\)\n\s*_depth = 0;$/gm, (_, head, indent) => {
      resets++;
      return `${head}${indent}if (_depth === $undefined) {\n${indent}    _depth = 0;\n${indent}    reader.$elements = 0;\n${indent}}`;
    })
    .replace(/^(\s*)(message\.(\w+)\.push\()/gm, (_, indent, call, field) => {
      count++;
      return `${indent}$countElement(reader, "${field}");\n${indent}${call}`;
    })
    .replace(/\$uint64s\(reader, message\.(\w+)\);/g, (_, field) => {
      count++;
      return `$uint64sCounted(reader, message.${field}, "${field}");`;
    })
    .replace(
      anchor,
      `// Repeated elements per message are limited (SPEC.md section 5; see scripts/lib/pbjs-postprocess.mjs).\n` +
        `const $MAX_ELEMENTS = ${max};\n` +
        'const $countElement = (reader, field) => { if ((reader.$elements = (reader.$elements | 0) + 1) > $MAX_ELEMENTS) throw new RangeError("more than " + $MAX_ELEMENTS + " repeated elements in one message (at field " + field + "); SPEC.md section 5 limits them"); };\n' +
        'const $uint64sCounted = (reader, into, field) => { const end = reader.size() + reader.pos; while (reader.pos < end) { $countElement(reader, field); into.push($uint64(reader)); } if (reader.pos !== end) throw new RangeError("packed field " + field + " overruns its length"); };\n' +
        anchor,
    );
  if (count === 0 || resets === 0) throw new Error("pbjs-postprocess: no repeated field decodes found; update limitRepeatedElements");
  const leftover = /reader\.\w+s\(message\./.exec(patched);
  if (leftover) throw new Error(`pbjs-postprocess: ${leftover[0]} decodes a packed field uncounted; extend limitRepeatedElements`);
  return patched;
}

/**
 * protobuf keeps the last of a non-repeated field that occurs twice (merging a message field,
 * and for a oneof, dropping the other members), so every repeat is decoded in full and
 * dropped: 16 MiB of empty `hello` bodies took the generated decoder over five seconds (each
 * repeat's oneof setter deletes every other member), and of `sender_epoch` varints half a
 * second. A conforming sender never writes a field twice; SPEC.md section 5 has receivers
 * refuse it.
 * Every decode keeps a bit per field number (bit 0 for the members of its oneof) and throws a
 * RangeError naming the field at the second occurrence, before it is decoded. Repeated fields
 * are left alone (limitRepeatedElements bounds them); so is an occurrence of the wrong wire
 * type, which is skipped as unknown. The merge target of a message field is dropped: the
 * field is always unset at its decode now.
 * For implementations' decoders; the conformance runner's generated code leaves it out, so
 * it can decode whatever a testee sends.
 */
export function refuseRepeatedSingularFields(js) {
  const anchor = "// 64-bit fields are plain numbers";
  if (!js.includes(anchor)) throw new Error("pbjs-postprocess: run forceNumbersAtRuntime before refuseRepeatedSingularFields");
  let decoders = 0;
  let fields = 0;
  const patched = js
    .replace(/^(\s*)(let end, message(?:, value)?;\n)([\s\S]*?\n\s*return message;\n)/gm, (_, indent, decl, body) => {
      decoders++;
      const oneofs = new Set();
      const checked = body.replace(
        /^(\s*)case (\d+): \{\n(\s*if \(wireType !== \d\)\n\s*break;\n)([\s\S]*?\n\s*continue;\n)/gm,
        (block, caseIndent, number, wireCheck, rest) => {
          if (/\.push\(|Counted\(/.test(rest)) return block; // repeated
          const field = /message\.(\w+) =|delete message\.(\w+);/.exec(rest);
          if (!field || Number(number) > 30) throw new Error(`pbjs-postprocess: cannot read field ${number}'s decode; update refuseRepeatedSingularFields`);
          const name = field[1] ?? field[2];
          const oneof = new RegExp(`message\\.(\\w+) = "${name}";`).exec(rest)?.[1];
          if (oneof) oneofs.add(oneof);
          if (oneofs.size > 1) throw new Error("pbjs-postprocess: a message with two oneofs; give each its own bit in refuseRepeatedSingularFields");
          const bit = oneof ? 1 : 2 ** Number(number);
          const pad = /^\s*/.exec(rest)[0];
          const refuse = oneof ? `$refuseRepeat("${name}", "${oneof}")` : `$refuseRepeat("${name}")`;
          fields++;
          return (
            `${caseIndent}case ${number}: {\n${wireCheck}` +
            `${pad}if ($seen & ${bit})\n${pad}    ${refuse};\n${pad}$seen |= ${bit};\n` +
            rest.replace(/(, _depth \+ 1), message\.\w+\);/, "$1);")
          );
        },
      );
      return `${indent}${decl}${indent}let $seen = 0;\n${checked}`;
    })
    .replace(
      anchor,
      "// A non-repeated field occurs once per message (SPEC.md section 5; see scripts/lib/pbjs-postprocess.mjs).\n" +
        'const $refuseRepeat = (field, oneof) => { throw new RangeError("field " + field + (oneof === $undefined ? " occurs twice in one message" : " occurs after oneof " + oneof + " was already set") + "; SPEC.md section 5 allows a non-repeated field once per message"); };\n' +
        anchor,
    );
  const expected = js.split(".decode = function (reader, length, _end, _depth, _target) {").length - 1;
  if (decoders !== expected || fields === 0)
    throw new Error(`pbjs-postprocess: ${decoders} of ${expected} decoders matched (${fields} fields); update refuseRepeatedSingularFields`);
  // A merge into an existing sub-message left unchecked would decode every repeat again.
  const leftover = /_depth \+ 1, message\.\w+\)/.exec(patched);
  if (leftover) throw new Error(`pbjs-postprocess: ${leftover[0]} still merges a repeated field; extend refuseRepeatedSingularFields`);
  return patched;
}

/**
 * pbjs puts the generated namespace on protobufjs' process-wide `$protobuf.roots[name]` and looks
 * every message class up through it at call time (`new $root.ectp.v1.Envelope()`). Another module
 * generated under the same root name (pbjs' default is "default"), or a second copy of the
 * package (its ESM and CJS builds, two versions), then replaces our classes for every decoder and
 * encoder of this one: Hellos decoded as MALFORMED_MESSAGE, encoders throwing. A module-local
 * root gives each copy its own classes, shared with nobody.
 */
export function moduleLocalRoot(js) {
  const pattern = /^const \$root = \$protobuf\.roots\[("[^"]+")\] \|\| \(\$protobuf\.roots\[\1\] = \{\}\);$/m;
  if (!pattern.test(js)) throw new Error("moduleLocalRoot: pbjs output no longer declares $root from $protobuf.roots");
  return js.replace(pattern, "// Module-local, not in $protobuf.roots: see moduleLocalRoot in scripts/lib/pbjs-postprocess.mjs.\nconst $root = {};");
}

/**
 * Declarations for consumers:
 * - pbts always emits `import Long = require("long")`. With --force-number nothing
 *   refers to Long, `long` is not a dependency of ours, tsup warns that the import is
 *   unused, and `import x = require()` is invalid in an ESM d.ts.
 * - pbts writes the narrowed `$Shape` types (messages with a oneof, and messages
 *   containing those) as type literals whose members carry no doc comments. TypeDoc
 *   runs with validation.notDocumented and warnings as errors, so every member gets a
 *   short comment pointing at the documented `$Properties` interface.
 * - pbts types an optional field `f?: (T|null)`. protobufjs reads a field set to `undefined`
 *   as absent, as it reads `null`, but under `exactOptionalPropertyTypes` that type refuses
 *   `{ f: other.f }` for an `other.f` that may be absent: every such field also takes
 *   `undefined` (`f?: (T|null|undefined)`).
 */
export function cleanDeclarations(dts) {
  const cleaned = dts.replace(/^import Long = require\("long"\);\r?\n/m, "");
  if (/\bLong\b/.test(cleaned.replace(/\/\*[\s\S]*?\*\//g, "")))
    throw new Error("pbjs-postprocess: the d.ts still refers to Long; generate with pbjs --force-number");
  return documentShapes(optionalFieldsTakeUndefined(cleaned));
}

/** `f?: (T|null);` as `f?: (T|null|undefined);` (see cleanDeclarations). */
export function optionalFieldsTakeUndefined(dts) {
  const pattern = /^(\s+\$?\w+\?: \([^()]*\|null)\);$/gm;
  if (!pattern.test(dts)) throw new Error("optionalFieldsTakeUndefined: pbts output no longer types optional fields as `f?: (T|null)`");
  return dts.replace(pattern, "$1|undefined);");
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

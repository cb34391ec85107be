// The one skipper of unknown fields, used by the generated decoders (src/gen, wired in by
// scripts/lib/pbjs-postprocess.mjs) and by the frozen-field reader of envelope.ts. Plain
// JavaScript (typed by skip-field.d.ts) because the generated code imports it and plain Node
// scripts import the generated code (scripts/gen-fixtures.mjs).
//
// protobufjs' `Reader.skipType` skips an unknown varint of any length and checks the nesting of
// groups only for what a group holds, so an empty group one level past the limit passes. A known
// field refuses both (a varint of more than 10 bytes is "invalid varint encoding"), and so do upb
// and the Python reference decoder; here unknown fields are held to the same rules, so that the
// same bytes are malformed whichever field they sit in (SPEC.md section 5, [I1]).
import $protobuf from "protobufjs/minimal.js";

/** Longest varint protobuf allows: 10 bytes (64 bits, 7 per byte). */
const MAX_VARINT_BYTES = 10;

/**
 * Skip the value of unknown field `field` of wire type `wireType` at nesting `depth`.
 * @param {$protobuf.Reader} reader
 * @param {number} wireType
 * @param {number} depth
 * @param {number} field
 */
export function skipField(reader, wireType, depth, field) {
  if (depth > $protobuf.Reader.recursionLimit) throw new Error("max depth exceeded");
  if (field === 0) throw new Error("illegal tag: field number 0");
  switch (wireType) {
    case 0:
      for (let i = 1; ; i++) {
        if (reader.pos >= reader.len) throw new RangeError("index out of range");
        if (i > MAX_VARINT_BYTES) throw new Error("invalid varint encoding");
        if ((reader.buf[reader.pos++] & 0x80) === 0) return;
      }
    case 1:
      reader.skip(8);
      return;
    case 2:
      reader.skip(reader.size());
      return;
    case 3:
      // The group itself is one level deeper, empty or not.
      if (depth + 1 > $protobuf.Reader.recursionLimit) throw new Error("max depth exceeded");
      for (;;) {
        const tag = reader.tag();
        const nested = tag >>> 3;
        const wt = tag & 7;
        if (nested === 0) throw new Error("illegal tag: field number 0");
        if (wt === 4) {
          if (nested !== field) throw new Error("invalid end group tag");
          return;
        }
        skipField(reader, wt, depth + 1, nested);
      }
    case 5:
      reader.skip(4);
      return;
    default:
      throw new Error(`invalid wire type ${wireType} at offset ${reader.pos}`);
  }
}

import type $protobuf from "protobufjs/minimal.js";

/**
 * Skip the value of unknown field `field` of wire type `wireType` at nesting `depth` (the
 * messages and groups around it), as protobufjs' `Reader.skipType` does, except that an unknown
 * varint of more than 10 bytes is malformed and an empty group counts against the nesting limit
 * (as in a known field, upb and the Python reference). See skip-field.js.
 * @throws {Error} for malformed bytes: a varint of more than 10 bytes, bytes past the end, field
 * number 0, an end-group tag of another field, wire type 4, 6 or 7, or groups nested deeper than
 * `Reader.recursionLimit`.
 * @internal
 */
export declare function skipField(reader: $protobuf.Reader, wireType: number, depth: number, field: number): void;

/**
 * Where malformed envelope bytes go wrong, by field name, for decode errors (internal).
 *
 * protobufjs says what failed ("index out of range: 12 + 5 > 14") but not in which field. When
 * its decoder refuses bytes, {@link locateMalformed} walks them again by the wire format alone,
 * naming each field from the generated table of the .proto files (./gen/fields.ts), and reports
 * the first place the framing breaks: a varint or a length running past the end of its
 * message, a varint longer than 10 bytes, field number 0, an invalid wire type, a group not
 * closed. Only framing is checked: what the decoder refuses for other reasons (a field given
 * twice, bad UTF-8, too many elements, nesting too deep) already names itself, and there it finds
 * nothing. Given where the decoder stopped, it looks no further: a break after that point did
 * not make the decoder fail, and attached to another refusal it would only mislead.
 * @internal
 * @module
 */
import { MESSAGE_FIELDS } from "./gen/fields.js";
import { MAX_REPEATED_ELEMENTS } from "./limits.js";

/** Nesting beyond which the walk stops looking (protobufjs' default recursion limit). */
const MAX_DEPTH = 100;
/** Longest varint protobuf allows. */
const MAX_VARINT_BYTES = 10;

/** The first framing problem in malformed bytes, and where it is. */
export interface MalformedAt {
  /** Field path from the envelope, e.g. `readGrant.item.key.contentHash` ("" for the envelope itself). */
  field: string;
  /**
   * Offset in the bytes of the tag the problem is at: the field's own tag, or, when that tag is
   * itself broken or names field 0, the broken tag (`field` then names the message it is in).
   */
  offset: number;
  /** What is wrong, e.g. `a length of 5 runs past the 3 bytes left in its message`. */
  problem: string;
}

/**
 * The first framing problem in envelope `bytes`, or undefined when the framing holds. Never throws.
 * Its work is bounded like the decoder's: past {@link MAX_REPEATED_ELEMENTS} repeated elements
 * (packed values counted one by one, as the decoder counts them) it stops (the decoder refuses
 * those bytes for their count, which names itself), and it builds no text for the fields it
 * passes, so that bytes a peer made as large as a frame allows cost no more here than to decode.
 * @param stoppedAt - where the decoder stopped (its reader's position when it threw): a problem
 *   at a tag after it is not sought, as it cannot be what the decoder refused (a field given
 *   twice, bad UTF-8, before a later break). Default: the end of the bytes.
 */
export function locateMalformed(bytes: Uint8Array, stoppedAt: number = bytes.length): MalformedAt | undefined {
  try {
    return walk(bytes, "Envelope", 0, bytes.length, "", 0, { elements: 0, stoppedAt });
  } catch {
    return undefined; // (a view whose reads throw: the caller reports that)
  }
}

/** The path of a field: `path`, then its name (`#number` when unknown) and, for an element, `[index]` (-1: none). */
function fieldPath(path: string, field: readonly [string, string, boolean] | undefined, number: number, index: number): string {
  const name = (field === undefined ? `#${number}` : field[0]) + (index < 0 ? "" : `[${index}]`);
  return path === "" ? name : `${path}.${name}`;
}

/** What one walk carries through its nested messages: repeated elements so far, and where the decoder stopped. */
interface WalkState {
  /** Repeated elements so far, counted as the decoder counts them. */
  elements: number;
  /** Offset past which no problem is sought (see {@link locateMalformed}). */
  readonly stoppedAt: number;
}

/** Walk the fields of message `type` in `bytes[start, end)`; the first problem, or undefined. */
function walk(
  bytes: Uint8Array,
  type: string | undefined,
  start: number,
  end: number,
  path: string,
  depth: number,
  count: WalkState,
): MalformedAt | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const fields = type === undefined ? undefined : MESSAGE_FIELDS[type];
  let seen: Map<number, number> | undefined; // elements so far of each repeated field
  let pos = start;
  while (pos < end) {
    const tagAt = pos;
    // The decoder stopped before this field: whatever is wrong here did not make it fail.
    if (tagAt > count.stoppedAt) return undefined;
    const tag = varint(bytes, pos, end);
    if (typeof tag === "string") return { field: path, offset: tagAt, problem: `a field's tag: ${tag}` };
    pos = tag.next;
    const number = Math.floor(tag.value / 8);
    const wireType = tag.value % 8;
    const field = fields?.[number];
    // An element's index: not for packed scalars, whose one record holds any number of them.
    const packed = wireType === 2 && field?.[2] === true && MESSAGE_FIELDS[field[1]] === undefined && field[1] !== "string" && field[1] !== "bytes";
    let index = -1;
    if (field?.[2] === true && !packed && wireType === elementWireType(field[1])) {
      // SPEC section 5: the decoder refuses more elements than this, and says so itself. It counts
      // an element of the field's own wire type only: another is skipped as an unknown field, and
      // is no element, so it is named without an index and shifts no later element's [C10].
      if (++count.elements > MAX_REPEATED_ELEMENTS) return undefined;
      seen ??= new Map();
      index = seen.get(number) ?? 0;
      seen.set(number, index + 1);
    }
    const at = (problem: string): MalformedAt => ({ field: fieldPath(path, field, number, index), offset: tagAt, problem });
    if (number === 0) return { field: path, offset: tagAt, problem: "a field number 0, which no field has" };
    switch (wireType) {
      case 0: {
        const v = varint(bytes, pos, end);
        if (typeof v === "string") return at(v);
        pos = v.next;
        break;
      }
      case 1:
      case 5: {
        const size = wireType === 1 ? 8 : 4;
        if (pos + size > end) return at(`a ${size}-byte value runs past the ${bytesLeft(end - pos)} left in its message`);
        pos += size;
        break;
      }
      case 2: {
        const length = varint(bytes, pos, end);
        if (typeof length === "string") return at(`its length: ${length}`);
        pos = length.next;
        const overrun = pos + length.value > end;
        const tooLong = () => at(`a length of ${length.value} runs past the ${bytesLeft(end - pos)} left in its ${path === "" ? "envelope" : "message"}`);
        if (packed && field !== undefined && isVarintScalar(field[1])) {
          // A packed repeated scalar: varints back to back. SPEC section 5: the decoder counts each
          // value before it reads it, and so refuses the one past the limit (naming itself) before
          // it finds a value, or the record, running past the end.
          const last = pos + length.value;
          let values = 0;
          for (let p = pos; p < last; values++) {
            if (++count.elements > MAX_REPEATED_ELEMENTS) return undefined;
            const v = varint(bytes, p, Math.min(last, end));
            if (typeof v === "string") return overrun ? tooLong() : at(`a packed element at byte ${p}: ${v}`);
            p = v.next;
          }
          // [C10] The decoder appends these values to the field's list: an unpacked element after
          // them has its index past them.
          seen ??= new Map();
          seen.set(number, (seen.get(number) ?? 0) + values);
        } else if (overrun) return tooLong();
        const inner = field !== undefined && MESSAGE_FIELDS[field[1]] !== undefined;
        if (inner) {
          const problem = walk(bytes, field[1], pos, pos + length.value, fieldPath(path, field, number, index), depth + 1, count);
          if (problem !== undefined || count.elements > MAX_REPEATED_ELEMENTS) return problem;
        }
        pos += length.value;
        break;
      }
      case 3: {
        // A group (no ectp.v1 field is one; an unknown field may be): fields up to its end tag.
        const closed = group(bytes, pos, end, number, depth + 1);
        if (typeof closed !== "number") return at(closed);
        pos = closed;
        break;
      }
      case 4:
        return at("an end-group tag without a group");
      default:
        return at(`wire type ${wireType}, which protobuf does not have`);
    }
  }
  return undefined;
}

/** Skip group `number` from `pos`: the offset after its end tag, or what is wrong. */
function group(bytes: Uint8Array, pos: number, end: number, number: number, depth: number): number | string {
  if (depth > MAX_DEPTH) return "groups nested too deep";
  while (pos < end) {
    const tag = varint(bytes, pos, end);
    if (typeof tag === "string") return `a tag inside its group: ${tag}`;
    pos = tag.next;
    const inner = Math.floor(tag.value / 8);
    const wireType = tag.value % 8;
    if (inner === 0) return "a field number 0 inside its group";
    if (wireType === 4) return inner === number ? pos : `its group ends with the end tag of field ${inner}`;
    if (wireType === 0) {
      const v = varint(bytes, pos, end);
      if (typeof v === "string") return `inside its group: ${v}`;
      pos = v.next;
    } else if (wireType === 1 || wireType === 5) pos += wireType === 1 ? 8 : 4;
    else if (wireType === 2) {
      const length = varint(bytes, pos, end);
      if (typeof length === "string") return `inside its group: ${length}`;
      pos = length.next + length.value;
    } else if (wireType === 3) {
      const closed = group(bytes, pos, end, inner, depth + 1);
      if (typeof closed !== "number") return closed;
      pos = closed;
    } else return `wire type ${wireType} inside its group`;
  }
  return pos === end ? "its group has no end tag before the end of its message" : "a value inside its group runs past the end of its message";
}

/** The varint at `pos` (before `end`) and the offset after it, or what is wrong with it. */
function varint(bytes: Uint8Array, pos: number, end: number): { value: number; next: number } | string {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    if (pos + i >= end) return `a varint runs past the end of its message (${bytesLeft(end - pos)} left)`;
    const b = bytes[pos + i] as number;
    value += (b & 0x7f) * scale;
    scale *= 128;
    if ((b & 0x80) === 0) return { value, next: pos + i + 1 };
  }
  return `a varint longer than ${MAX_VARINT_BYTES} bytes`;
}

/** The wire type of one element of a repeated field of type `type`: 2 for a message, a string or bytes, else 0 (ectp.v1 repeats no fixed-size scalar). */
function elementWireType(type: string): number {
  return MESSAGE_FIELDS[type] !== undefined || type === "string" || type === "bytes" ? 2 : 0;
}

/** Whether a repeated field of scalar type `type` is packed as varints (the integer and enum types ectp.v1 uses). */
function isVarintScalar(type: string): boolean {
  return MESSAGE_FIELDS[type] === undefined && type !== "string" && type !== "bytes" && type !== "double" && type !== "float" && !type.startsWith("fixed") && !type.startsWith("sfixed");
}

/** "1 byte", "3 bytes". */
function bytesLeft(n: number): string {
  return n === 1 ? "1 byte" : `${n} bytes`;
}

/**
 * Encoded sizes of the elements of the repeated fields a producer must keep bounded: the events
 * of an EventBatch [E1] and the items of a Snapshot part [E2] (SPEC.md "batch size bound").
 */
import { EctpError, thrownMessage } from "./errors.js";
import { fastEventLength, fastItemDescriptorLength } from "./fast-codec.js";
import { ectp } from "./gen/ectp.js";

/**
 * The encoded size of `event` as an element of an EventBatch: the bytes of its `Event`
 * message, without the field tag and length prefix (what `ectp.v1.Event.encode(event)` writes).
 * A producer sums these to keep each batch within its batch size bound [E1].
 *
 * @throws EctpError(INVALID_ARGUMENT) for a value a field cannot carry (an integer out of range, a
 *   wrong type). It checks only what encoding needs, not the envelope rules `encodeEnvelope` adds:
 *   an event that sets two kinds is measured (both are written), though `encodeEnvelope` refuses it.
 */
export function eventByteLength(event: ectp.v1.IEvent): number {
  return encodedLength("event", event, fastEventLength, () => ectp.v1.Event.encode(event).finish());
}

/**
 * The encoded size of `descriptor` as an element of a Snapshot's `items` (see
 * {@link eventByteLength}) [E2].
 *
 * @throws EctpError(INVALID_ARGUMENT) for a value a field cannot carry (an integer out of range, a
 *   wrong type); like {@link eventByteLength}, it does not check what `encodeEnvelope` adds.
 */
export function itemDescriptorByteLength(descriptor: ectp.v1.IItemDescriptor): number {
  return encodedLength("item descriptor", descriptor, fastItemDescriptorLength, () => ectp.v1.ItemDescriptor.encode(descriptor).finish());
}

/**
 * The length of `value` by the fast path, else the one the generated encoder writes. A value that
 * is no object, or that throws when read (a getter, a Proxy) or cannot be encoded, is a typed error.
 */
function encodedLength<T>(what: string, value: T, fast: (v: T) => number, encode: () => Uint8Array): number {
  if (value === null || typeof value !== "object")
    throw new EctpError("INVALID_ARGUMENT", `${what} must be an object; got ${value === null ? "null" : typeof value}`);
  try {
    const n = fast(value);
    return n >= 0 ? n : encode().length;
  } catch (cause) {
    const why = thrownMessage(cause);
    throw new EctpError("INVALID_ARGUMENT", `${what} could not be encoded: ${why}`, { cause });
  }
}

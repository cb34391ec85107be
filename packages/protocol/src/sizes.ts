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
 * @throws EctpError(INVALID_ARGUMENT) for a value a field cannot carry (as `encodeEnvelope`).
 */
export function eventByteLength(event: ectp.v1.IEvent): number {
  const n = fastEventLength(event);
  return n >= 0 ? n : generatedLength("event", () => ectp.v1.Event.encode(event).finish());
}

/**
 * The encoded size of `descriptor` as an element of a Snapshot's `items` (see
 * {@link eventByteLength}) [E2].
 *
 * @throws EctpError(INVALID_ARGUMENT) for a value a field cannot carry (as `encodeEnvelope`).
 */
export function itemDescriptorByteLength(descriptor: ectp.v1.IItemDescriptor): number {
  const n = fastItemDescriptorLength(descriptor);
  return n >= 0 ? n : generatedLength("item descriptor", () => ectp.v1.ItemDescriptor.encode(descriptor).finish());
}

/** The length the generated encoder writes; what it throws (a value a field cannot carry) becomes a typed error. */
function generatedLength(what: string, encode: () => Uint8Array): number {
  try {
    return encode().length;
  } catch (cause) {
    const why = thrownMessage(cause);
    throw new EctpError("INVALID_ARGUMENT", `${what} could not be encoded: ${why}`, { cause });
  }
}

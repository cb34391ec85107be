/**
 * Protocol limits that bound what a peer can make a receiver build: repeated elements per
 * message and the size of a descriptor (SPEC.md section 5), shape dimensions ([C2]).
 */

/**
 * The most elements all repeated fields of one message may hold together, nested messages
 * included (an EventBatch's events and their descriptors' shapes, a Snapshot's items and
 * theirs, a Hello's capabilities) [I1]. `decodeEnvelope` answers a message with more
 * `MALFORMED_MESSAGE` and stops decoding it at the first element over the limit, so a hostile
 * frame of tiny elements cannot make the receiver build millions of objects; producers cut
 * event batches and snapshot parts at this count [E1][E2].
 */
export const MAX_REPEATED_ELEMENTS = 65_536;

/**
 * The most dimensions a descriptor's shape may have [C2]: a descriptor with more is invalid,
 * so every descriptor fits a message's {@link MAX_REPEATED_ELEMENTS} with room to spare.
 */
export const MAX_SHAPE_DIMS = 64;

/**
 * The largest encoded descriptor a producer may store and publish: 64 KiB (65 536 bytes; SPEC.md
 * section 5), so that every event, snapshot item, grant and announcement carrying it fits a frame,
 * whatever its `location` or strings hold. `MemoryItemStore.put` refuses larger ones.
 */
export const MAX_DESCRIPTOR_BYTES = 64 * 1024;

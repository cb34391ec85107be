/**
 * How far the core's hand-written tables (`IdTable`, `StringTable`, `OrderedTable`, `KeyIndex`) shrink.
 * @internal
 * @module
 */

/**
 * A table never shrinks below 2^SHRINK_FLOOR_BITS slots: an engine's bursts of up to ~512 keys (a
 * step's requests, their attempts and reads) coming and going then cost no rebuild. Shrinking each
 * burst back down to 8 slots rebuilt a table six times each way; with a floor of 256 slots, steps
 * of 200 requests still rebuilt it twice a step (about 8% of admit-and-finish time in batches of
 * 200). A table that once grew keeps at most 16 KiB more.
 */
export const SHRINK_FLOOR_BITS = 10;

/** {@link SHRINK_FLOOR_BITS} as a slot count. */
export const SHRINK_FLOOR_SLOTS = 1 << SHRINK_FLOOR_BITS;

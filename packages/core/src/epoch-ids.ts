/**
 * Where a run's own ids start: the producer's grant ids and the consumer's attempt ids.
 * @module
 * @internal
 */

/** Ids in one epoch's window: 2^32. */
const WINDOW = 4_294_967_296;
/** Windows before they repeat: 2^20 (the last window ends below 2^53, so every id stays a safe integer). */
const WINDOWS = 1_048_576;

/**
 * The id before the first of epoch `epoch`'s run (ids count up from it): 0 for epoch 1, and each
 * epoch its own window of 2^32 ids. SPEC 3.5 and 3.6 ask ids to be unique within an epoch only, but
 * a ReadComplete names its grant by id alone and a ReadGrant or ReadReject its attempt by id alone:
 * with every run counting from 1, a ReadComplete sent before a producer restarted released the new
 * run's grant of the same id (its item then unpinned under a read), and a reply to a consumer's run
 * before a restart answered the new run's attempt. Windows repeat for epochs equal mod 2^20
 * (a restart's epoch shares its predecessor's window with odds of about one in a million, whatever
 * the epochs are: counters or millisecond timestamps), and a run issuing more than 2^32 ids spills
 * into the next epoch's window.
 */
export function idBeforeEpoch(epoch: number): number {
  return ((epoch - 1) % WINDOWS) * WINDOW;
}

/**
 * The error the mock throws when a caller passes a bad argument. Internal.
 * @module
 */

import { EctpError } from "@ectp/protocol";

/** An EctpError(INVALID_ARGUMENT) with `details` (the mock's refusal of a caller's bad argument). Internal. */
export function invalid(message: string, details: Record<string, unknown> = {}): EctpError {
  return new EctpError("INVALID_ARGUMENT", message, { details });
}

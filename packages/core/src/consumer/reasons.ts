/**
 * Failure reasons as the consumer classifies them: the SPEC.md "Retryable and
 * terminal outcomes" table [C4][C5].
 * @module
 */
import type { FailureReasonName } from "./types.js";

/** `ectp.v1.FailureReason` numbers to names (index = enum value; 0 = UNSPECIFIED = unknown). */
const REASON_BY_NUMBER: readonly (FailureReasonName | undefined)[] = [
  undefined,
  "NOT_READY",
  "NOT_FOUND",
  "OVERLOADED",
  "INCOMPATIBLE",
  "VERSION",
  "INTERNAL",
  "SHUTTING_DOWN",
  "GRANT_TIMEOUT",
  "PEER_UNREACHABLE",
  "TRANSFER_FAILED",
  "TRANSFER_TIMEOUT",
  "SIZE_MISMATCH",
  "CHECKSUM_MISMATCH",
  "EPOCH_CHANGED",
  "INVALID_ANNOUNCEMENT",
  "BUDGET_EXHAUSTED",
  "UNAVAILABLE",
  "LEASE_EXPIRED",
];

/** The reason name of a wire value, or `undefined` for UNSPECIFIED and values this version does not know. */
export function reasonName(value: number): FailureReasonName | undefined {
  return Number.isInteger(value) && value >= 0 ? REASON_BY_NUMBER[value] : undefined;
}

/** Reasons a reject may carry that the consumer retries inside the budget [C4]. */
const RETRYABLE_REJECTS: ReadonlySet<FailureReasonName> = new Set<FailureReasonName>([
  "NOT_READY",
  "OVERLOADED",
  "GRANT_TIMEOUT",
  "PEER_UNREACHABLE",
]);

/** Reasons that only end a (request, item), never sent in a ReadReject (SPEC.md section 11). */
export const REQUEST_OUTCOME_ONLY: ReadonlySet<FailureReasonName> = new Set<FailureReasonName>([
  "INVALID_ANNOUNCEMENT",
  "BUDGET_EXHAUSTED",
  "UNAVAILABLE",
]);

/** Whether a reject with this known reason is retried [C4] rather than terminal [C5]. */
export function isRetryableReject(reason: FailureReasonName): boolean {
  return RETRYABLE_REJECTS.has(reason);
}

/**
 * Mapping of the addon's typed errors (`err.code` = a `nixl_status_t` name or a local
 * `ERR_*` code, `err.nixlStatus` = the number) to `EctpError`.
 * @module
 */
import { EctpError, type EctpErrorCode } from "@ectp/protocol";

/** `nixl_status_t` name (or addon code) to the ECTP error code it becomes. */
export const NIXL_ERROR_MAP: Readonly<Record<string, EctpErrorCode>> = Object.freeze({
  NIXL_ERR_REMOTE_DISCONNECT: "PEER_UNREACHABLE", // the peer is gone
  NIXL_ERR_BACKEND: "PEER_UNREACHABLE", // UCX could not reach the peer (e.g. endpoint creation failed)
  NIXL_ERR_NOT_FOUND: "PEER_UNREACHABLE", // no metadata loaded for that agent
  NIXL_ERR_MISMATCH: "INVALID_ARGUMENT", // metadata blob does not deserialize
  NIXL_ERR_INVALID_PARAM: "INVALID_ARGUMENT",
  NIXL_ERR_NOT_ALLOWED: "INVALID_ARGUMENT", // e.g. different connection info for a loaded agent
  NIXL_ERR_NOT_SUPPORTED: "TRANSPORT_UNAVAILABLE",
  NIXL_ERR_CANCELED: "TRANSFER_FAILED",
  NIXL_ERR_NOT_POSTED: "TRANSFER_FAILED",
  NIXL_ERR_REPOST_ACTIVE: "TRANSFER_FAILED",
  NIXL_ERR_NO_TELEMETRY: "INTERNAL",
  NIXL_ERR_UNKNOWN: "INTERNAL",
  ERR_INVALID_ARG: "INVALID_ARGUMENT",
  ERR_CLOSED: "TRANSPORT_UNAVAILABLE",
});

/**
 * Turn whatever the addon threw or rejected with into an `EctpError` whose
 * `details` keep the NIXL code and status, so callers never see a raw native error.
 * @param e - the caught value.
 * @param context - what was being done, for the message.
 */
export function nixlErrorToEctp(e: unknown, context: string): EctpError {
  if (e instanceof EctpError) return e;
  const err = e as { code?: unknown; nixlStatus?: unknown; message?: unknown };
  const nixlCode = typeof err?.code === "string" ? err.code : "NIXL_ERR_UNKNOWN";
  const code = NIXL_ERROR_MAP[nixlCode] ?? "INTERNAL";
  const message = typeof err?.message === "string" ? err.message : String(e);
  return new EctpError(code, `${context} failed: ${message} (${nixlCode})`, {
    cause: e,
    details: { nixlCode, nixlStatus: typeof err?.nixlStatus === "number" ? err.nixlStatus : undefined },
  });
}

/**
 * `@ectp/transport-nixl`: the ECTP Transport over NVIDIA NIXL (one-sided READ over UCX),
 * through the `@ectp/nixl-native` node-addon-api binding. Control messages travel as NIXL
 * notifications, so NIXL/UCX is the only runtime dependency between machines.
 * @packageDocumentation
 */
export { NixlTransport } from "./transport.js";
export type { NixlTransportCounters, NixlTransportOptions } from "./transport.js";
export { nixlTransportHarness } from "./harness.js";
export type { NixlTransportHarness, NixlTransportHarnessOptions } from "./harness.js";
export { ADDON_ENV, UCX_ENV_DEFAULTS, addonCandidates, decodeNativeDrain, loadNixlAddon, nixlAvailability, statusNamesOf } from "./addon.js";
export type {
  NativeAgent,
  NativeAgentConstructor,
  NativeAgentOptions,
  NativeCounters,
  NativeDrain,
  NativeRawDrain,
  NativeNotif,
  NativeRegistration,
  NativeSendFailure,
  NativeSettled,
  NixlAddon,
  NixlAvailability,
} from "./addon.js";
export { NIXL_ERROR_MAP, nixlErrorToEctp } from "./errors.js";
export { decodeLocation, encodeLocation } from "./location.js";
export type { NixlLocation } from "./location.js";

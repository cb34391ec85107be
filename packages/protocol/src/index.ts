/**
 * `@ectp/protocol`: ECTP v1 wire types, envelope coding, stream framing and
 * descriptor validation. See spec/SPEC.md for the normative text.
 * @packageDocumentation
 */
export { ectp } from "./gen/ectp.js";
export { EctpError, describeValue, shortText, thrownMessage, thrownText } from "./errors.js";
export type { EctpErrorCode, EctpErrorOptions, FailureReasonName } from "./errors.js";
export { SPEC_MAJOR, SPEC_MINOR, SPEC_VERSION } from "./version.js";
export { crc32c, crc32cBytes } from "./checksum.js";
export { encodeEnvelope, decodeEnvelope, envelopeBodyName } from "./envelope.js";
export { eventByteLength, itemDescriptorByteLength } from "./sizes.js";
export { MAX_DESCRIPTOR_BYTES, MAX_REPEATED_ELEMENTS, MAX_SHAPE_DIMS } from "./limits.js";
export type { DecodedEnvelope, EnvelopeBodyName } from "./envelope.js";
export { DEFAULT_MAX_FRAME_BYTES, FRAME_HEADER_BYTES, FrameDecoder, encodeFrame } from "./framing.js";
export type { FrameOptions } from "./framing.js";
export {
  dtypeSize,
  fingerprintsEqual,
  itemKeyId,
  normalizeFingerprint,
  tryItemKeyId,
  validateDescriptor,
} from "./validate.js";
export type {
  DescriptorLimits,
  NormalizedChecksum,
  NormalizedFingerprint,
  ValidDescriptor,
  Validation,
} from "./validate.js";
export { closestName, refuseUnknownOptions } from "./names.js";
export { makeDirectories, outputPathProblem } from "./output-path.js";
export type { OutputPathOptions } from "./output-path.js";
export { announcementFromJson, announcementToJson } from "./json.js";
export type { JsonReadOptions } from "./json.js";

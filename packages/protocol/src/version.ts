/**
 * The spec version this package implements [V1].
 * @module
 */

/** Major version of the ECTP spec implemented here. Peers of another major are rejected [V1]. */
export const SPEC_MAJOR = 1;
/** Minor version of the ECTP spec implemented here (informative) [V2]. */
export const SPEC_MINOR = 0;
/** `{ major, minor }` as carried in `Envelope.version` and `Announcement.version`. */
export const SPEC_VERSION: Readonly<{
  /** {@link SPEC_MAJOR}. */
  major: number;
  /** {@link SPEC_MINOR}. */
  minor: number;
}> = Object.freeze({
  major: SPEC_MAJOR,
  minor: SPEC_MINOR,
});

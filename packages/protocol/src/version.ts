/**
 * The spec version this package implements [V1].
 * @module
 */

/** Major version of the ECTP spec implemented here. Peers of another major are rejected [V1]. */
export const SPEC_MAJOR = 1;
/** Minor version of the ECTP spec implemented here (informative) [V2]. */
export const SPEC_MINOR = 0;
/** The version this package speaks, `{ major: 1, minor: 0 }` ({@link SPEC_MAJOR}, {@link SPEC_MINOR}), as carried in `Envelope.version` and `Announcement.version` [V1]. */
export const SPEC_VERSION: Readonly<{
  /** {@link SPEC_MAJOR}. */
  major: number;
  /** {@link SPEC_MINOR}. */
  minor: number;
}> = Object.freeze({
  major: SPEC_MAJOR,
  minor: SPEC_MINOR,
});

/**
 * The opaque `ItemDescriptor.location` of a NIXL transport: where an item lives in the
 * producer's memory, plus what a reader needs to address that registration.
 *
 * Layout (little endian): `"ENX1"` | address u64 | length u64 | agent-name length u16 |
 * agent name (UTF-8) | section length u32 | NIXL partial metadata of the registration.
 * @module
 */

const MAGIC = [0x45, 0x4e, 0x58, 0x31]; // "ENX1"
const MAX_NAME = 1024;
const MAX_SECTION = 1 << 20;

/** A decoded location. */
export interface NixlLocation {
  /** Virtual address of the first byte in the owner's process. */
  readonly address: bigint;
  /** Number of bytes described. */
  readonly length: number;
  /** The owner's NIXL agent name (its peer id). */
  readonly agent: string;
  /**
   * NIXL partial metadata of the owner's registration holding these bytes. From
   * {@link decodeLocation} it is a view into the decoded bytes (no copy: the addon copies it
   * when posting a read), so it changes if they do.
   */
  readonly section: Uint8Array;
}

/** Encode a location. */
export function encodeLocation(loc: NixlLocation): Uint8Array {
  const name = new TextEncoder().encode(loc.agent);
  const out = new Uint8Array(4 + 8 + 8 + 2 + name.length + 4 + loc.section.length);
  const v = new DataView(out.buffer);
  out.set(MAGIC, 0);
  v.setBigUint64(4, loc.address, true);
  v.setBigUint64(12, BigInt(loc.length), true);
  v.setUint16(20, name.length, true);
  out.set(name, 22);
  v.setUint32(22 + name.length, loc.section.length, true);
  out.set(loc.section, 26 + name.length);
  return out;
}

// One decoder for every location (constructing one per read cost microseconds on the small-read path).
const NAME_DECODER = new TextDecoder("utf-8", { fatal: false });

/** The agent name: ASCII names (the usual case) without TextDecoder's per-call overhead. */
function decodeName(bytes: Uint8Array, start: number, end: number): string {
  let s = "";
  for (let i = start; i < end; i++) {
    const b = bytes[i] as number;
    if (b >= 0x80) return NAME_DECODER.decode(bytes.subarray(start, end));
    s += String.fromCharCode(b);
  }
  return s;
}

/** Decode a location; returns a reason string instead of throwing on malformed input [I1]. */
export function decodeLocation(bytes: Uint8Array): NixlLocation | string {
  if (bytes.length < 26) return `location too short (${bytes.length} bytes)`;
  for (let i = 0; i < 4; i++) if (bytes[i] !== MAGIC[i]) return "location is not a NIXL location (bad magic)";
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const address = v.getBigUint64(4, true);
  // The length as two 32-bit halves (no BigInt on the small-read path).
  const lenHi = v.getUint32(16, true);
  const length = lenHi * 2 ** 32 + v.getUint32(12, true);
  if (length === 0 || lenHi >= 2 ** 21) return "location length out of range";
  const nameLen = v.getUint16(20, true);
  if (nameLen === 0 || nameLen > MAX_NAME || 26 + nameLen > bytes.length) return "location agent name malformed";
  const agent = decodeName(bytes, 22, 22 + nameLen);
  const secLen = v.getUint32(22 + nameLen, true);
  if (secLen > MAX_SECTION || 26 + nameLen + secLen !== bytes.length) return "location section length malformed";
  return { address, length, agent, section: bytes.subarray(26 + nameLen) };
}

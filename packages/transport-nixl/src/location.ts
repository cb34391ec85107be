/**
 * The opaque `ItemDescriptor.location` of a NIXL transport: where an item lives in the
 * producer's memory, plus what a reader needs to address that registration.
 *
 * Layout (little endian): `"ENX1"` | address u64 | length u64 | agent-name length u16 |
 * agent name (UTF-8) | section length u32 | NIXL partial metadata of the registration.
 * @module
 */

const MAGIC = [0x45, 0x4e, 0x58, 0x31]; // "ENX1"
/** Longest agent name a location carries, in UTF-8 bytes (a reader refuses longer ones); a {@link NixlTransport}'s `localId` is checked against it. @internal */
export const MAX_NAME = 1024;
const MAX_SECTION = 1 << 20;

/** The fields of a NIXL location (module doc: the byte layout), as {@link decodeLocation} returns them and {@link encodeLocation} takes them. */
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

/**
 * Encode `loc` as the bytes of an `ItemDescriptor.location` (the layout in the module doc); the
 * inverse of {@link decodeLocation}.
 */
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

// The last decoded agent name and its bytes: a reader sees the same few producers over and
// over, so comparing ~20 bytes is cheaper than building the string again on every read.
let lastNameBytes: Uint8Array = new Uint8Array(0);
let lastName = "";

/** The agent name: ASCII names (the usual case) without TextDecoder's per-call overhead. */
function decodeName(bytes: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n === lastNameBytes.length) {
    let same = true;
    for (let i = 0; i < n; i++)
      if (bytes[start + i] !== lastNameBytes[i]) {
        same = false;
        break;
      }
    if (same) return lastName;
  }
  let s = "";
  for (let i = start; i < end; i++) {
    const b = bytes[i] as number;
    if (b >= 0x80) {
      s = NAME_DECODER.decode(bytes.subarray(start, end));
      break;
    }
    s += String.fromCharCode(b);
  }
  lastNameBytes = bytes.slice(start, end);
  lastName = s;
  return s;
}

/**
 * A location parsed for posting a READ: the address as two 32-bit halves (what the addon
 * takes; no BigInt per read) and where the section metadata starts in the location bytes
 * (the addon views it there; no subarray per read).
 * @internal
 */
export interface ParsedLocation {
  /** Low 32 bits of the address. */
  readonly addrLo: number;
  /** High 32 bits of the address. */
  readonly addrHi: number;
  /** Number of bytes described. */
  readonly length: number;
  /** The owner's NIXL agent name. */
  readonly agent: string;
  /** Offset of the section metadata in the location bytes (it runs to their end). */
  readonly sectionStart: number;
}

const u32 = (b: Uint8Array, o: number): number =>
  ((b[o] as number) | ((b[o + 1] as number) << 8) | ((b[o + 2] as number) << 16)) + (b[o + 3] as number) * 0x1000000;

/**
 * Parse a location without allocating more than the result; returns a reason string instead
 * of throwing on malformed input [I1]. {@link decodeLocation} is built on it.
 * @internal
 */
export function parseLocation(bytes: Uint8Array): ParsedLocation | string {
  if (bytes.length < 26) return `location too short (${bytes.length} bytes)`;
  for (let i = 0; i < 4; i++) if (bytes[i] !== MAGIC[i]) return "location is not a NIXL location (bad magic)";
  const addrLo = u32(bytes, 4);
  const addrHi = u32(bytes, 8);
  const lenHi = u32(bytes, 16);
  const length = lenHi * 2 ** 32 + u32(bytes, 12);
  if (length === 0 || lenHi >= 2 ** 21) return "location length out of range";
  // [I1] The range must end below 2^64: NIXL checks a remote range against the peer's sections as
  // address + length, which wraps (the addon refuses such a location too). Exact in doubles.
  const lowSum = addrLo + u32(bytes, 12);
  if (addrHi + lenHi + (lowSum >= 2 ** 32 ? 1 : 0) >= 2 ** 32) return "location address range wraps past 2^64";
  const nameLen = (bytes[20] as number) | ((bytes[21] as number) << 8);
  if (nameLen === 0 || nameLen > MAX_NAME || 26 + nameLen > bytes.length) return "location agent name malformed";
  const agent = decodeName(bytes, 22, 22 + nameLen);
  const secLen = u32(bytes, 22 + nameLen);
  if (secLen > MAX_SECTION || 26 + nameLen + secLen !== bytes.length) return "location section length malformed";
  return { addrLo, addrHi, length, agent, sectionStart: 26 + nameLen };
}

/** NIXL's serialized metadata starts with this tag, then a u64 (little endian) length and the agent's name. */
const AGENT_TAG = [...new TextEncoder().encode("nixlSerDes|Agent")];

/**
 * [I1] Whether the section of location `bytes` (from `sectionStart` to the end) is empty or names
 * the location's own agent first, as the addon requires: NIXL loads a section under the name in
 * it, so one naming another agent would replace (or make NIXL drop) that agent's metadata.
 */
function sectionNamesAgent(bytes: Uint8Array, sectionStart: number): boolean {
  const n = bytes.length - sectionStart;
  if (n === 0) return true;
  const nameLen = (bytes[20] as number) | ((bytes[21] as number) << 8);
  const at = sectionStart + AGENT_TAG.length;
  if (n < AGENT_TAG.length + 8 + nameLen) return false;
  for (let i = 0; i < AGENT_TAG.length; i++) if (bytes[sectionStart + i] !== AGENT_TAG[i]) return false;
  if (u32(bytes, at) !== nameLen || u32(bytes, at + 4) !== 0) return false;
  for (let i = 0; i < nameLen; i++) if (bytes[at + 8 + i] !== bytes[22 + i]) return false;
  return true;
}

/**
 * Why a read of `length` bytes from peer `peerId` cannot use the source location `bytes`, as
 * the read's error text: the addon refuses such a location without saying why, and only then
 * is it parsed here.
 * @internal
 */
export function locationProblem(bytes: Uint8Array, peerId: string, length: number): string {
  const loc = parseLocation(bytes);
  if (typeof loc === "string") return `malformed source location: ${loc}`;
  if (loc.agent !== peerId) return `source location belongs to ${loc.agent}, not ${peerId}`;
  if (loc.length < length) return `source holds ${loc.length} bytes, destination wants ${length}`;
  if (!sectionNamesAgent(bytes, loc.sectionStart))
    return `source location's NIXL metadata section does not name its agent ${JSON.stringify(loc.agent)} (it would replace another agent's metadata)`;
  // The decoded name equals peerId but its bytes do not (invalid UTF-8 decodes to U+FFFD).
  const utf8 = new TextEncoder().encode(peerId);
  if (utf8.length !== loc.sectionStart - 26 || utf8.some((b, i) => b !== bytes[22 + i]) || bytes.length === loc.sectionStart)
    return `source location's agent name is not the UTF-8 of ${JSON.stringify(peerId)}`;
  // What else the addon checks field by field (NIXL crashes on some damaged sections).
  return `source location's NIXL metadata section is not one registration of ${JSON.stringify(loc.agent)} (one DRAM descriptor for UCX) covering the ${length} bytes read`;
}

/** Decode a location; returns a reason string instead of throwing on malformed input [I1]. */
export function decodeLocation(bytes: Uint8Array): NixlLocation | string {
  const p = parseLocation(bytes);
  if (typeof p === "string") return p;
  const address = (BigInt(p.addrHi) << 32n) | BigInt(p.addrLo);
  return { address, length: p.length, agent: p.agent, section: bytes.subarray(p.sectionStart) };
}

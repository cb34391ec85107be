/**
 * Item fixtures: deterministic bytes and descriptors for case files.
 * @module
 */
import { crc32c } from "@ectp/protocol";
import type { ItemFixture, StoredAs } from "../cases/format.js";
import { ectp } from "../proto.js";
import { CaseBug } from "./match.js";

/** Deterministic pseudo-random bytes for a name (xorshift32 seeded by FNV-1a of the name). */
export function fixtureBytes(name: string, size: number): Uint8Array {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  let x = h || 1;
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** Big-endian 4-byte CRC-32C, as `Checksum.value` carries it. */
export function crcBytes(bytes: Uint8Array): Uint8Array {
  return crcValueBytes(crc32c(bytes));
}

/** A CRC-32C value as the 4 big-endian bytes `Checksum.value` carries. */
function crcValueBytes(v: number): Uint8Array {
  return new Uint8Array([v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]);
}

function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

/** A resolved fixture: its bytes and its proto3-JSON key and descriptor parts. */
export interface Fixture {
  /** Fixture name. */
  readonly name: string;
  /** Size of the item in bytes. */
  readonly size: number;
  /** The byte value every byte of the item has (`ItemFixture.fill`), or undefined for pseudo-random bytes. */
  readonly fill: number | undefined;
  /** The item's bytes (of a `fill` fixture, made on first use: a put sends the byte value instead). */
  readonly bytes: Uint8Array;
  /** CRC-32C of the bytes. */
  readonly crc: number;
  /** proto3-JSON ItemKey. */
  readonly key: Record<string, unknown>;
  /** Scripted producer (consumer cases). */
  readonly producer: string;
  /** proto3-JSON descriptor without producer, epoch and location. */
  readonly partial: Record<string, unknown>;
  /** Producer cases: the producer id and epoch a put asks the testee's store to keep the item under (`ItemFixture.storedAs`), or undefined for its own. */
  readonly storedAs: Readonly<StoredAs> | undefined;
}

/** The CRC-32C of `size` copies of byte value `fill`, computed a block at a time (a gigabyte is never allocated). */
function filledCrc(fill: number, size: number): number {
  const block = new Uint8Array(Math.min(size, 1 << 20)).fill(fill);
  let crc = 0;
  for (let done = 0; done < size; done += block.length) crc = crc32c(block.subarray(0, Math.min(block.length, size - done)), crc);
  return crc;
}

/** Build a fixture from its spec and the case fingerprint (which the spec's `fingerprint` fields override). */
export function makeFixture(name: string, spec: ItemFixture, fingerprint: Record<string, unknown>): Fixture {
  const fill = spec.fill;
  if (fill !== undefined && !(Number.isInteger(fill) && fill >= 0 && fill <= 255))
    throw new CaseBug(`item ${name}: fill is the byte value every byte of the item has, an integer in [0, 255]; got ${JSON.stringify(fill)}`);
  // A fill fixture's bytes and CRC are made only when a step needs them: putting one sends the byte value.
  let bytes: Uint8Array | undefined = fill === undefined ? fixtureBytes(name, spec.size) : undefined;
  let crc: number | undefined;
  const bytesOf = (): Uint8Array => (bytes ??= new Uint8Array(spec.size).fill(fill ?? 0));
  const crcOf = (): number => (crc ??= fill === undefined ? crc32c(bytesOf()) : filledCrc(fill, spec.size));
  const key = {
    contentHash: b64(new TextEncoder().encode(spec.hash ?? `item-${name}`)),
    fingerprint: spec.fingerprint === undefined ? fingerprint : { ...fingerprint, ...spec.fingerprint },
  };
  const partial: Record<string, unknown> = { key, sizeBytes: String(spec.size) };
  // protobufjs keeps an enum number as is but silently drops a string that is not a name.
  if (typeof spec.dtype === "string" && !Object.hasOwn(ectp.v1.Dtype, spec.dtype))
    throw new CaseBug(`item ${name}: dtype ${JSON.stringify(spec.dtype)} is not a Dtype name; write an unknown value as a number`);
  if (spec.dtype !== undefined) partial.dtype = spec.dtype;
  if (spec.shape) partial.shape = spec.shape.map(String);
  if (spec.checksum !== false) partial.checksum = { algorithm: "CHECKSUM_ALGORITHM_CRC32C", value: b64(crcValueBytes(crcOf())) };
  return {
    name,
    size: spec.size,
    fill,
    get bytes() {
      return bytesOf();
    },
    get crc() {
      return crcOf();
    },
    key,
    producer: spec.producer ?? "P1",
    partial,
    storedAs: spec.storedAs,
  };
}

/** Location bytes the runner uses for a fixture held by a scripted producer. */
export function fixtureLocation(name: string): string {
  return b64(new TextEncoder().encode(`loc-${name}`));
}

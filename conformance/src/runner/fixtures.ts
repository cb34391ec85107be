/**
 * Item fixtures: deterministic bytes and descriptors for case files.
 * @module
 */
import { crc32c } from "@ectp/protocol";
import type { ItemFixture } from "../cases/format.js";
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
  const v = crc32c(bytes);
  return new Uint8Array([v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]);
}

function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

/** A resolved fixture: its bytes and its proto3-JSON key and descriptor parts. */
export interface Fixture {
  /** Fixture name. */
  readonly name: string;
  /** The item's bytes. */
  readonly bytes: Uint8Array;
  /** CRC-32C of the bytes. */
  readonly crc: number;
  /** proto3-JSON ItemKey. */
  readonly key: Record<string, unknown>;
  /** Scripted producer (consumer cases). */
  readonly producer: string;
  /** proto3-JSON descriptor without producer, epoch and location. */
  readonly partial: Record<string, unknown>;
}

/** Build a fixture from its spec and the case fingerprint. */
export function makeFixture(name: string, spec: ItemFixture, fingerprint: Record<string, unknown>): Fixture {
  const bytes = fixtureBytes(name, spec.size);
  const key = { contentHash: b64(new TextEncoder().encode(spec.hash ?? `item-${name}`)), fingerprint };
  const partial: Record<string, unknown> = { key, sizeBytes: String(spec.size) };
  // protobufjs keeps an enum number as is but silently drops a string that is not a name.
  if (typeof spec.dtype === "string" && !Object.hasOwn(ectp.v1.Dtype, spec.dtype))
    throw new CaseBug(`item ${name}: dtype ${JSON.stringify(spec.dtype)} is not a Dtype name; write an unknown value as a number`);
  if (spec.dtype !== undefined) partial.dtype = spec.dtype;
  if (spec.shape) partial.shape = spec.shape.map(String);
  if (spec.checksum !== false) partial.checksum = { algorithm: "CHECKSUM_ALGORITHM_CRC32C", value: b64(crcBytes(bytes)) };
  return { name, bytes, crc: crc32c(bytes), key, producer: spec.producer ?? "P1", partial };
}

/** Location bytes the runner uses for a fixture held by a scripted producer. */
export function fixtureLocation(name: string): string {
  return b64(new TextEncoder().encode(`loc-${name}`));
}

/**
 * The checks of a send beyond its envelope's header, shared by the scripted runner and the
 * randomised levels: SPEC.md 3.8's bound on 64-bit integers, and feature `raw-outputs`
 * (testee.proto SendOutput.raw), the bytes a testee's own encoder made of the send.
 * @module
 */
import { decodeEnvelope, ectp as wire } from "@ectp/protocol";
import { JSON_OPTIONS, type ectp } from "../proto.js";
import { unsafeIntegerProblem } from "./safe-integers.js";

/**
 * What is wrong with a send beyond its envelope's header, as a whole message starting with `where`
 * (e.g. "C1's send to P1 at t=12"), or undefined: a 64-bit integer above 2^53 - 1 first (SPEC.md 3.8,
 * the message tagged "[3.8]"), then its raw bytes ({@link rawSendProblem}; `rawClaimed`: the features
 * claim raw-outputs). `reported` is the send's envelope as proto3 JSON.
 */
export function sendProblem(
  send: ectp.conformance.v1.ISendOutput,
  reported: Record<string, unknown>,
  rawClaimed: boolean,
  where: string,
): string | undefined {
  const unsafe = unsafeIntegerProblem(reported);
  if (unsafe !== undefined) return `[3.8] ${where}${unsafe}`;
  const raw = rawSendProblem(send, reported, rawClaimed);
  return raw === undefined ? undefined : `${where}${raw}`;
}

/**
 * What is wrong with `send.raw`, or undefined when nothing is: given, the bytes must be one
 * envelope that SPEC.md section 5 lets a sender send (each non-repeated field once, at most 65,536
 * repeated elements, at most 100 levels deep, the version and sender set) and carry the envelope
 * the testee reported (`reported`: `send.envelope` as proto3 JSON), field for field (decoded, so
 * field order, packing and explicit defaults do not matter). A send whose encoder refused its envelope (`raw_error`) fails with the encoder's words;
 * one with neither fails when the feature is `claimed`. The text starts after the caller's
 * "send to <peer> at t=<ms>".
 */
export function rawSendProblem(send: ectp.conformance.v1.ISendOutput, reported: Record<string, unknown>, claimed: boolean): string | undefined {
  const raw = send.raw;
  if (send.rawError)
    return `: the testee's encoder refused its envelope (SendOutput.raw_error): ${send.rawError}; no peer ever receives a message its implementation decided to send (testee.proto SendOutput.raw_error)`;
  if (!raw || raw.length === 0)
    return claimed
      ? ` has no raw bytes, but the features file claims "raw-outputs": every SendOutput then carries, in raw, the bytes its encoder puts on the wire, or in raw_error why the encoder refused the envelope (testee.proto SendOutput.raw)`
      : undefined;
  const decoded = decodeEnvelope(raw);
  if (!decoded.ok) {
    const made = `: the raw bytes the testee's encoder made (SendOutput.raw, ${hex(raw)})`;
    const framing = lengthPrefix(raw);
    if (framing !== undefined) return `${made} begin with ${framing} giving the length of the rest: raw is one Envelope, without a length prefix`;
    if (decoded.error.code === "VERSION") {
      const major = Number(decoded.envelope?.version?.major ?? 0);
      return `${made} carry ${major === 0 ? "no version" : `spec major ${major}`}: every envelope carries the sender's version, 1.x here (SPEC.md [V1])`;
    }
    // The decoder's message ends with what a receiver does about such bytes (from "; ignore it");
    // here a sender made them, so only the why is kept.
    const message = decoded.error.message;
    const advice = message.indexOf("; ignore it");
    return `${made} are bytes SPEC.md section 5 forbids a sender to send: ${advice < 0 ? message : message.slice(0, advice)}`;
  }
  const got = wire.v1.Envelope.toObject(decoded.value, JSON_OPTIONS);
  const difference = firstDifference(got, reported, "");
  if (difference === undefined) return undefined;
  return (
    `: the raw bytes the testee's encoder made (SendOutput.raw, ${hex(raw)}) do not carry the envelope it reported: ${difference}; ` +
    "a peer would receive what the bytes say (testee.proto SendOutput.raw)"
  );
}

/**
 * Where two proto3-JSON values first differ, as `<path>: the bytes carry <x>, the envelope <y>`
 * (`nothing` for a field or list element one of them lacks), or undefined when they are equal.
 */
function firstDifference(bytes: unknown, envelope: unknown, path: string): string | undefined {
  const at = path === "" ? "the envelope" : path;
  if (isObject(bytes) && isObject(envelope)) {
    for (const key of new Set([...Object.keys(bytes), ...Object.keys(envelope)])) {
      const found = firstDifference(bytes[key], envelope[key], path === "" ? key : `${path}.${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (Array.isArray(bytes) && Array.isArray(envelope)) {
    for (let i = 0; i < Math.max(bytes.length, envelope.length); i++) {
      const found = firstDifference(bytes[i], envelope[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (JSON.stringify(bytes) === JSON.stringify(envelope)) return undefined;
  return `${at}: the bytes carry ${shown(bytes)}, the envelope ${shown(envelope)}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function shown(v: unknown): string {
  if (v === undefined) return "nothing";
  const text = JSON.stringify(v);
  return text.length > 200 ? `${text.slice(0, 200)}... (${text.length} characters)` : text;
}

/**
 * The length prefix `bytes` begin with, described, when what follows it is exactly that long: a
 * byte stream's 4-byte big-endian one (SPEC.md section 5), or the varint of protobuf's delimited
 * writers (`writeDelimitedTo`, `encodeDelimited`); undefined otherwise.
 */
function lengthPrefix(bytes: Uint8Array): string | undefined {
  if (bytes.length >= 4 && (bytes[0] as number) * 2 ** 24 + ((bytes[1] as number) << 16) + ((bytes[2] as number) << 8) + (bytes[3] as number) === bytes.length - 4)
    return "a 4-byte big-endian length";
  let length = 0;
  for (let i = 0; i < Math.min(bytes.length, 5); i++) {
    const b = bytes[i] as number;
    length += (b & 0x7f) * 2 ** (7 * i);
    if (b < 0x80) return length === bytes.length - i - 1 ? "a varint length (a delimited protobuf writer's)" : undefined;
  }
  return undefined;
}

function hex(bytes: Uint8Array): string {
  return bytes.length > 48 ? `${Buffer.from(bytes.subarray(0, 48)).toString("hex")}... (${bytes.length} bytes)` : Buffer.from(bytes).toString("hex");
}

/**
 * Feature `raw-outputs` (testee.proto SendOutput.raw): the check of the bytes a testee's own
 * encoder made of a send, shared by the scripted runner and the randomised levels.
 * @module
 */
import { decodeEnvelope, ectp as wire } from "@ectp/protocol";
import { JSON_OPTIONS, ectp } from "../proto.js";

/**
 * What is wrong with `send.raw`, or undefined when nothing is: the bytes are required when the
 * feature is `claimed` (and not checked when absent otherwise); given, they must be one envelope
 * every receiver accepts under SPEC.md section 5's rules (each field once, at most 65,536 repeated
 * elements, version and sender set) and carry `send.envelope`, field for field. The text starts
 * after the caller's "send to <peer> at t=<ms>".
 */
export function rawSendProblem(send: ectp.conformance.v1.ISendOutput, claimed: boolean): string | undefined {
  const raw = send.raw;
  if (!raw || raw.length === 0)
    return claimed
      ? ` has no raw bytes, but the features file claims "raw-outputs": every SendOutput then carries, in raw, the bytes its encoder puts on the wire (testee.proto SendOutput.raw)`
      : undefined;
  const decoded = decodeEnvelope(raw);
  if (!decoded.ok)
    return (
      `: the raw bytes the testee's encoder made (SendOutput.raw, ${hex(raw)}) are no envelope a receiver accepts: ${decoded.error.message}; ` +
      "SPEC.md section 5 says how an envelope is encoded, and receivers drop anything else [C10]"
    );
  const got = JSON.stringify(wire.v1.Envelope.toObject(decoded.value, JSON_OPTIONS));
  const reported = JSON.stringify(ectp.v1.Envelope.toObject(ectp.v1.Envelope.fromObject(send.envelope ?? {}), JSON_OPTIONS));
  if (got === reported) return undefined;
  return `: the raw bytes the testee's encoder made (SendOutput.raw) decode to ${cut(got)}, not to the envelope it reported, ${cut(reported)}: a peer would receive the first (testee.proto SendOutput.raw)`;
}

function hex(bytes: Uint8Array): string {
  return bytes.length > 48 ? `${Buffer.from(bytes.subarray(0, 48)).toString("hex")}... (${bytes.length} bytes)` : Buffer.from(bytes).toString("hex");
}

function cut(text: string): string {
  return text.length > 400 ? `${text.slice(0, 400)}...` : text;
}

/**
 * SPEC.md 3.8: senders never send a 64-bit integer (a size, id, epoch or sequence number) above
 * 2^53 - 1, so that every implementation, JavaScript's included, holds each one exactly. The runner
 * checks every envelope a testee sends against it.
 * @module
 */
import type { Type } from "protobufjs";
import { ROOT } from "../proto.js";

const ENVELOPE: Type = ROOT.lookupType("ectp.v1.Envelope");
const WIDE_INTEGERS: ReadonlySet<string> = new Set(["uint64", "int64", "fixed64", "sfixed64", "sint64"]);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The first 64-bit integer field of `envelope` (proto3 JSON, as the runner holds a send's envelope)
 * whose value is above 2^53 - 1, as `<path> is <value>` (e.g. `readGrant.grantId is
 * 9007199254740993`), or undefined when every such value is within it.
 */
export function unsafeIntegerIn(envelope: unknown): string | undefined {
  return firstUnsafe(ENVELOPE, envelope, "");
}

/**
 * What is wrong with a sent envelope's 64-bit integers (`envelope`: its proto3 JSON), or
 * undefined: the text after the caller's "send to <peer> at t=<ms>", naming the first one above
 * 2^53 - 1 (see {@link unsafeIntegerIn}).
 */
export function unsafeIntegerProblem(envelope: Record<string, unknown>): string | undefined {
  const unsafe = unsafeIntegerIn(envelope);
  if (unsafe === undefined) return undefined;
  return (
    `: its envelope's ${unsafe}, above 2^53 - 1 (shown as the runner holds it: a value past 2^53 may show rounded): ` +
    "senders MUST NOT send a size, id, epoch or sequence number above it (SPEC.md 3.8), which a JavaScript peer cannot hold exactly"
  );
}

function firstUnsafe(type: Type, message: unknown, path: string): string | undefined {
  if (message === null || typeof message !== "object") return undefined;
  for (const [name, value] of Object.entries(message)) {
    const field = type.fields[name];
    if (field === undefined) continue;
    const values: unknown[] = field.repeated && Array.isArray(value) ? value : [value];
    for (const [i, v] of values.entries()) {
      const at = `${path}${path === "" ? "" : "."}${name}${field.repeated ? `[${i}]` : ""}`;
      const nested = field.resolvedType;
      if (nested !== null && "fields" in nested) {
        const found = firstUnsafe(nested as Type, v, at);
        if (found !== undefined) return found;
      } else if (WIDE_INTEGERS.has(field.type) && above(v)) return `${at} is ${String(v)}`;
    }
  }
  return undefined;
}

/**
 * Whether a 64-bit value as proto3 JSON holds it is above 2^53 - 1: a decimal string, a number, or
 * the exponent form (`7.3e+21`) a value held as a number past what 64 bits hold prints as.
 */
function above(v: unknown): boolean {
  if (typeof v === "number") return v > Number.MAX_SAFE_INTEGER;
  if (typeof v !== "string") return false;
  if (/^-?\d+$/.test(v)) return BigInt(v) > MAX_SAFE;
  return Number(v) > Number.MAX_SAFE_INTEGER;
}

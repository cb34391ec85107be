// Test-only helpers (not exported from index.ts): the ectp.v1 schema loaded by
// reflection straight from spec/proto, independent of the generated static code.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { decodeEnvelope } from "./envelope.js";

const here = dirname(fileURLToPath(import.meta.url));
/** spec/ at the repository root. */
export const SPEC_DIR = join(here, "..", "..", "..", "spec");
const PROTO_ROOT = join(SPEC_DIR, "proto");

/** Load ectp/v1/*.proto with protobufjs reflection (field names in camelCase). */
export function loadSchema(): protobuf.Namespace {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_ROOT, target);
  const files = readdirSync(join(PROTO_ROOT, "ectp", "v1"))
    .filter((f) => f.endsWith(".proto"))
    .sort()
    .map((f) => `ectp/v1/${f}`);
  root.loadSync(files);
  root.resolveAll();
  return root.lookup("ectp.v1") as protobuf.Namespace;
}

/** Every message type of ectp.v1, by name (nested types included, none exist today). */
export function messageTypes(ns: protobuf.Namespace): protobuf.Type[] {
  const out: protobuf.Type[] = [];
  const visit = (n: protobuf.NamespaceBase) => {
    for (const child of n.nestedArray) {
      if (child instanceof protobuf.Type) out.push(child);
      if (child instanceof protobuf.Namespace || child instanceof protobuf.Type) visit(child);
    }
  };
  visit(ns);
  return out.sort((a, b) => a.fullName.localeCompare(b.fullName));
}

/** Every enum of ectp.v1. */
export function enumTypes(ns: protobuf.Namespace): protobuf.Enum[] {
  return ns.nestedArray.filter((n): n is protobuf.Enum => n instanceof protobuf.Enum);
}

/** Hex string (whitespace ignored) to bytes. */
export function fromHex(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, "");
  if (!/^(?:[0-9a-f]{2})*$/.test(clean)) throw new Error("fixture hex must be lowercase hex digit pairs");
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Bytes to lowercase hex. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** decodeEnvelope's error for bytes it must refuse. */
export function refusal(bytes: Uint8Array): { message: string; details: Record<string, unknown> } {
  const r = decodeEnvelope(bytes);
  if (r.ok) throw new Error("the bytes decoded");
  return { message: r.error.message, details: r.error.details as Record<string, unknown> };
}

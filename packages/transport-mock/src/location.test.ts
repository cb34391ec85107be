import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeLocation, decodeMetadata, encodeLocation, encodeMetadata } from "./location.js";

/** The documented layout written with a DataView: the format the byte-by-byte code must keep. */
function referenceLocation(id: string, incarnation: number, regionId: number, offset: number, length: number): Uint8Array {
  const idBytes = new TextEncoder().encode(id);
  const bytes = new Uint8Array(30 + idBytes.length);
  const view = new DataView(bytes.buffer);
  bytes.set([0x45, 0x4d, 1, 1]);
  view.setUint32(4, incarnation);
  view.setUint32(8, regionId);
  view.setBigUint64(12, BigInt(offset));
  view.setBigUint64(20, BigInt(length));
  view.setUint16(28, idBytes.length);
  bytes.set(idBytes, 30);
  return bytes;
}

const u32 = fc.integer({ min: 0, max: 0xffffffff });
const u53 = fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.maxSafeNat());

describe("mock location and metadata blobs", () => {
  it("encode to the documented big-endian layout and decode back (u32 fields, u64 up to 2^53 - 1, any id)", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), u32, u32, u53, u53, (id, incarnation, regionId, offset, length) => {
        const loc = { endpointId: id, incarnation, regionId, offset, length };
        const bytes = encodeLocation(loc);
        expect(bytes).toEqual(referenceLocation(id, incarnation, regionId, offset, length));
        expect(decodeLocation(bytes)).toEqual({ ok: true, value: loc });
        // Written into caller-provided memory (a view into a shared slab), the bytes are the same.
        const slab = new Uint8Array(bytes.length + 16);
        expect(encodeLocation(loc, undefined, (n) => slab.subarray(8, 8 + n))).toEqual(bytes);
        // Decoding reads through the view's offset, not the start of its buffer.
        const shifted = new Uint8Array(bytes.length + 5);
        shifted.set(bytes, 5);
        expect(decodeLocation(shifted.subarray(5))).toEqual({ ok: true, value: loc });
        const meta = encodeMetadata({ endpointId: id, incarnation });
        expect(decodeMetadata(meta)).toEqual({ ok: true, value: { endpointId: id, incarnation } });
      }),
    );
  });

  it("reports an offset or length beyond 2^53 instead of rounding it", () => {
    const bytes = referenceLocation("p", 1, 1, 0, 0);
    new DataView(bytes.buffer).setBigUint64(20, 2n ** 53n);
    expect(decodeLocation(bytes)).toEqual({ ok: false, error: "source location has an offset or length beyond 2^53" });
  });
});

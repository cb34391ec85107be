import { describe, expect, it } from "vitest";
import { isPartialView, ownBytes, ownText } from "./owned.js";

describe("owned: what a core keeps does not refer to the message it came in (SPEC.md 16)", () => {
  it("ownBytes copies a view of part of a buffer and returns bytes of their own as they are", () => {
    const frame = new Uint8Array([9, 1, 2, 3, 9]);
    const view = frame.subarray(1, 4);
    expect(isPartialView(view)).toBe(true);
    const kept = ownBytes(view);
    expect([Array.from(kept), kept.buffer.byteLength, isPartialView(kept)]).toEqual([[1, 2, 3], 3, false]);
    frame[1] = 0; // a copy, not the frame
    expect(kept[0]).toBe(1);
    const own = new Uint8Array([4, 5]);
    expect(ownBytes(own)).toBe(own);
    expect(isPartialView("bytes")).toBe(false);
  });

  it("ownText keeps at most max characters of a string, and nothing of anything else", () => {
    expect(ownText("short", 200)).toBe("short");
    const long = `${"ab".repeat(300)}z`;
    expect(ownText(long, 200)).toBe("ab".repeat(100));
    expect(ownText("\u{1F600}x", 1)).toBe("\uD83D"); // cut by UTF-16 code units, as String.prototype.slice
    for (const v of [undefined, null, 5, {}, ["a"]]) expect(ownText(v, 200)).toBe("");
  });
});

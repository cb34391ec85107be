import { describe, expect, it } from "vitest";
import { OutputQueue } from "./output-queue.js";
import type { CoreOutput } from "./outputs.js";

const out = (peerId: string): CoreOutput => ({ type: "disconnect-peer", peerId });

describe("OutputQueue", () => {
  it("hands out what was queued, in order, in an array the caller keeps; the queue is then empty", () => {
    const q = new OutputQueue();
    expect(q.take()).toEqual([]);
    q.push(out("a"));
    q.push(out("b"));
    expect(q.size).toBe(2);
    const first = q.take();
    expect(first).toEqual([out("a"), out("b")]);
    expect(q.size).toBe(0);
    q.push(out("c"));
    expect(first).toEqual([out("a"), out("b")]); // a later push does not reach an array handed out
    expect(q.take()).toEqual([out("c")]);
    expect(q.take()).toEqual([]);
  });

  it("keeps no output once it is taken (the reused array's slots are cleared)", () => {
    const q = new OutputQueue();
    for (const id of ["a", "b", "c"]) q.push(out(id));
    q.take();
    const slots = (q as unknown as { items: unknown[] }).items;
    expect(slots.every((s) => s === undefined)).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { GrantLedger } from "./grant-ledger.js";

describe("GrantLedger [I3]", () => {
  const pins = (m: Record<string, number>) => (k: string) => m[k] ?? 0;

  it("finds pins left after an ACK or a lease, and a grant without its pin", () => {
    const l = new GrantLedger();
    l.grant(1, "a", "c0", 1000, 0);
    expect(l.check(0, pins({ a: 0 }))).toEqual(["item a was just granted to 1 consumer(s) (c0), but holds 0 pins [P2]"]);
    l.grant(2, "a", "c1", 1000, 0);
    expect(l.check(0, pins({ a: 2 }))).toEqual([]);
    l.complete(2, "c0"); // not its holder: nothing ends
    expect(l.check(10, pins({ a: 2 }))).toEqual([]);
    l.complete(2, "c1");
    expect(l.check(10, pins({ a: 2 }))).toEqual(["item a holds 2 pins, but only 1 of its grants are live on the wire (not ACKed, lease not over) [P2][P3]"]);
    l.grant(3, "b", "c0", 1000, 10);
    expect(l.check(10, pins({ b: 1 }))).toEqual([]);
    expect(l.check(1009, pins({ b: 1 }))).toEqual([]);
    expect(l.check(1010, pins({ b: 1 }))).toEqual([
      "item b holds 1 pins, but only 0 of its grants are live on the wire (not ACKed, lease not over) [P2][P3]",
    ]);
  });

  it("takes a grant sent again, even after its ACK, as the same grant, and owes no pin for a peer reported gone", () => {
    const l = new GrantLedger();
    l.grant(1, "a", "c0", 1000, 0);
    l.check(0, pins({ a: 1 }));
    // A duplicated ReadRequest handled before the ACK in one pump: the grant goes out again, released.
    l.complete(1, "c0");
    l.grant(1, "a", "c0", 990, 10);
    expect(l.check(10, pins({ a: 0 }))).toEqual([]);
    // Granted, then the holder reported unreachable in the same pump: released before it went out.
    l.grant(2, "b", "c1", 1000, 20);
    l.peerGone("c1");
    expect(l.check(20, pins({ b: 0 }))).toEqual([]);
  });

  it("forgets a grant once its lease is over (a correct producer never sends it again), so the ledger stays bounded", () => {
    const l = new GrantLedger();
    l.grant(1, "a", "c0", 100, 0);
    l.complete(1, "c0");
    l.check(0, pins({}));
    l.grant(1, "a", "c0", 100, 50); // before the lease end: the same grant, no pin owed
    expect(l.check(50, pins({}))).toEqual([]);
    l.check(100, pins({})); // lease over: forgotten
    l.grant(1, "a", "c0", 100, 150); // sent after its lease: taken as a new grant, which owes its pin
    expect(l.check(150, pins({ a: 0 }))).toEqual(["item a was just granted to 1 consumer(s) (c0), but holds 0 pins [P2]"]);
  });

  it("still owes a fresh grant's pin when an older grant of the item to the same consumer ends in the same check", () => {
    const l = new GrantLedger();
    l.grant(1, "a", "c0", 100, 0);
    l.check(0, pins({ a: 1 }));
    l.grant(2, "a", "c0", 100, 100);
    expect(l.check(100, pins({ a: 0 }))).toEqual(["item a was just granted to 1 consumer(s) (c0), but holds 0 pins [P2]"]);
  });
});

import { describe, expect, it } from "vitest";
import { GrantLedger } from "./grant-ledger.js";

describe("GrantLedger [I3][P3]", () => {
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
    expect(l.check(10, pins({ a: 1, b: 1 }))).toEqual([]);
    expect(l.check(1009, pins({ b: 1 }))).toEqual([]); // grant 1's lease ended at 1000
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

  it("[P3][P8] a grant or refusal answering an older epoch's attempt replaces none of the newer epoch's grants: their pins stay owed", () => {
    for (const older of ["grant", "refusal"] as const) {
      const l = new GrantLedger();
      l.newEpoch("c0", 2);
      l.grant(1, "a", "c0", 1000, 0, 1, true, 2);
      expect(l.check(0, pins({ a: 1 }))).toEqual([]);
      // Epoch 1's attempt 5, current when the producer took it (epoch 2 came later in that pump).
      if (older === "grant") l.grant(2, "a", "c0", 1000, 0, 5, true, 1);
      else l.refused("c0", "a", 5, 1);
      // Grant 1 (epoch 2) is held still: a producer that dropped its pin is caught.
      expect(l.check(0, pins({ a: 0 }))).toEqual([
        "item a holds 0 pins, but 1 of its grants are live on the wire (not ACKed, lease not over), none of which the producer may end early (holder gone or of a newer epoch, a newer attempt, shutdown): a grant was released before its ACK or lease end [I3][P2]",
      ]);
    }
  });

  it("forgets a grant one lease length after its lease is over (a correct producer never sends it again), so the ledger stays bounded", () => {
    const l = new GrantLedger();
    expect(l.grant(1, "a", "c0", 100, 0)).toBeUndefined();
    l.complete(1, "c0");
    l.check(0, pins({}));
    expect(l.grant(1, "a", "c0", 50, 50)).toBeUndefined(); // before the lease end, with the lease left: the same grant, no pin owed
    expect(l.check(50, pins({}))).toEqual([]);
    l.check(100, pins({})); // lease over: remembered as expired for one more lease
    expect(l.grant(1, "a", "c0", 100, 150)).toBe("grant 1 (item a) sent again to c0 with lease_ms 100 after its lease ended at 100.000 ms [P3]");
    expect(l.check(150, pins({}))).toEqual([]); // reported, not taken as a new grant owing a pin
    l.check(200, pins({})); // forgotten
    expect(l.grant(1, "a", "c0", 100, 250)).toBeUndefined(); // taken as a new grant, which owes its pin
    expect(l.check(250, pins({ a: 0 }))).toEqual(["item a was just granted to 1 consumer(s) (c0), but holds 0 pins [P2]"]);
  });

  it("[P3] reports a grant sent again with a lease that would end later than it was granted to; the whole milliseconds left are fine", () => {
    const l = new GrantLedger();
    expect(l.grant(1, "a", "c0", 1000, 0.4)).toBeUndefined();
    expect(l.check(0.4, pins({ a: 1 }))).toEqual([]);
    // A duplicate handled in the pump that granted it: the whole lease is left.
    expect(l.grant(1, "a", "c0", 1000, 0.4)).toBeUndefined();
    // Later: floor(1000.4 - now), as the producer computes it, or less.
    expect(l.grant(1, "a", "c0", 999, 1.2)).toBeUndefined();
    expect(l.grant(1, "a", "c0", 1, 999.1)).toBeUndefined();
    expect(l.grant(1, "a", "c0", 10, 500)).toBeUndefined();
    // The lease pushed later: the full lease again (background failure #7), or lease_ms 0 (which reads as 30 000).
    expect(l.grant(1, "a", "c0", 1000, 10)).toBe(
      "grant 1 (item a) sent again to c0 with lease_ms 1000, which would end its lease at 1010.000 ms; it was granted to end at 1000.400 ms (at most 990 ms left) [P3]",
    );
    expect(l.grant(1, "a", "c0", 0, 999.9)).toMatch(/^grant 1 \(item a\) sent again to c0 with lease_ms 0, which would end its lease at 30999\.900 ms/);
    expect(l.grant(1, "a", "c0", 1, 999.5)).toMatch(/would end its lease at 1000\.500 ms/);
    // None of them is a new grant: no pin owed, the lease still ends at 1000.4.
    expect(l.check(999, pins({ a: 1 }))).toEqual([]);
    expect(l.check(1000.4, pins({ a: 1 }))).toEqual(["item a holds 1 pins, but only 0 of its grants are live on the wire (not ACKed, lease not over) [P2][P3]"]);
  });

  it("[P3] reports a grant id sent again for another holder, item or attempt: a resent grant is the same grant (SPEC.md 4.3)", () => {
    const l = new GrantLedger();
    expect(l.grant(5, "a", "c0", 1000, 0, 3)).toBeUndefined();
    const granted = "but it was granted to c0 for item a (attempt 3): a grant id sent again must be that same grant [P3]";
    expect(l.grant(5, "a", "c1", 900, 100, 3)).toBe(`grant 5 sent to c1 for item a (attempt 3), ${granted}`);
    expect(l.grant(5, "b", "c0", 900, 100, 3)).toBe(`grant 5 sent to c0 for item b (attempt 3), ${granted}`);
    expect(l.grant(5, "a", "c0", 900, 100, 4)).toBe(`grant 5 sent to c0 for item a (attempt 4), ${granted}`);
    // The same grant again, or with its attempt unknown (0), is a resend: no problem, no pin owed.
    expect(l.grant(5, "a", "c0", 900, 100, 3)).toBeUndefined();
    expect(l.grant(5, "a", "c0", 900, 100, 0)).toBeUndefined();
    expect(l.check(100, pins({ a: 1 }))).toEqual([]);
  });

  it("still owes a fresh grant's pin when an older grant of the item to the same consumer ends in the same check", () => {
    const l = new GrantLedger();
    l.grant(1, "a", "c0", 100, 0);
    l.check(0, pins({ a: 1 }));
    l.grant(2, "a", "c0", 100, 100);
    expect(l.check(100, pins({ a: 0 }))).toEqual(["item a was just granted to 1 consumer(s) (c0), but holds 0 pins [P2]"]);
  });

  const EARLY = /^item a holds \d+ pins, but \d+ of its grants are live on the wire \(not ACKed, lease not over\), none of which the producer may end early .*\[I3\]\[P2\]$/;

  it("[I3][P2] finds a grant released before its ACK or lease end in a later check, once per shortfall, though no count disagrees", () => {
    const l = new GrantLedger();
    l.grant(1, "a", "c0", 1000, 0);
    l.grant(2, "a", "c1", 1000, 0);
    expect(l.check(0, pins({ a: 2 }))).toEqual([]);
    // The producer let one go early: its counts agree, the wire still has both live.
    const short = l.check(10, pins({ a: 1 }));
    expect(short).toEqual([
      "item a holds 1 pins, but 2 of its grants are live on the wire (not ACKed, lease not over), none of which the producer may end early (holder gone or of a newer epoch, a newer attempt, shutdown): a grant was released before its ACK or lease end [I3][P2]",
    ]);
    expect(l.check(20, pins({ a: 1 }))).toEqual([]); // the same shortfall: not reported again
    expect(l.check(30, pins({ a: 0 }))[0]).toMatch(EARLY); // it grows: reported
    expect(l.heldGrants("a", 30)).toBe(2);
    l.complete(1, "c0");
    l.complete(2, "c1");
    expect(l.check(40, pins({ a: 0 }))).toEqual([]);
    expect(l.heldGrants("a", 40)).toBe(0);
  });

  it("[I3][P2][P3][P7][P8] owes no pin for a grant the producer may end early: holder gone or of a newer epoch, a newer attempt, shutdown, lease over", () => {
    const l = new GrantLedger();
    l.grant(3, "a", "c2", 100, 0, 1);
    l.grant(1, "a", "c0", 100, 5, 1);
    l.grant(2, "a", "c1", 100, 5, 1);
    l.grant(4, "a", "c3", 100, 5, 1);
    expect(l.check(5, pins({ a: 4 }))).toEqual([]);
    expect(l.check(10, pins({ a: 3 }))[0]).toMatch(EARLY);
    l.refused("c0", "a", 1); // a duplicate attempt replaces nothing
    expect(l.heldGrants("a", 10)).toBe(4);
    l.refused("c0", "a", 2); // a newer attempt refused after the replacement (OVERLOADED) released c0's grant [P3][P7]
    expect(l.heldGrants("a", 10)).toBe(3);
    l.peerGone("c1"); // unreachable, or declared gone [P8]
    expect(l.heldGrants("a", 10)).toBe(2);
    l.newEpoch("c3", 2); // a newer epoch of the holder [P8]
    expect(l.heldGrants("a", 10)).toBe(1);
    expect(l.heldGrants("a", 99)).toBe(1);
    expect(l.heldGrants("a", 100)).toBe(0); // c2's lease is over [P3]
    expect(l.check(100, pins({ a: 0 }))).toEqual([]);
    // A newer attempt's grant replaces the older one, whatever the ledger saw of the request.
    l.grant(5, "b", "c0", 100, 100, 1);
    l.grant(6, "b", "c0", 100, 100, 2);
    expect(l.heldGrants("b", 100)).toBe(1);
    expect(l.check(100, pins({ b: 1 }))).toEqual([]);
    // A shutdown releases every grant, and a grant sent after it (none should be) is owed no pin [P7].
    l.shutDown();
    l.grant(7, "c", "c1", 100, 100, 1);
    expect([l.heldGrants("b", 100), l.heldGrants("c", 100)]).toEqual([0, 0]);
    expect(l.check(110, pins({ b: 0, c: 0 }))).toEqual(["item c was just granted to 1 consumer(s) (c1), but holds 0 pins [P2]"]);
  });

  it("[P3][P8] a grant answering a stale epoch's ReadRequest replaces nothing; a newer attempt's grant of the current epoch does", () => {
    const l = new GrantLedger();
    l.grant(1, "a", "c0", 100, 0, 5);
    l.grant(2, "a", "c0", 100, 10, 9, false); // stale epoch: the producer had to ignore it
    expect(l.heldGrants("a", 10)).toBe(2);
    expect(l.check(10, pins({ a: 1 }))[0]).toMatch(EARLY);
    l.grant(3, "a", "c0", 100, 20, 6); // the current epoch's newer attempt: grant 1 is replaced
    expect(l.heldGrants("a", 20)).toBe(2);
  });

  it("[I3][P3] a newer attempt replaces the holder's held grant of the item, not one its ACK released or a refusal let go: a grant of an older attempt sent after that is the one replaced", () => {
    const l = new GrantLedger();
    // Grant 1 (attempt 5) released by its ACK; then a reordered attempt 4 arrives: no grant is live,
    // so it is not stale and is granted (grant 2); then a late copy of attempt 5 replaces grant 2.
    l.grant(1, "a", "c0", 1000, 0, 5);
    expect(l.check(0, pins({ a: 1 }))).toEqual([]);
    l.complete(1, "c0");
    l.grant(2, "a", "c0", 1000, 10, 4);
    expect(l.check(10, pins({ a: 1 }))).toEqual([]);
    l.grant(3, "a", "c0", 1000, 20, 5);
    expect(l.heldGrants("a", 20)).toBe(1);
    expect(l.check(20, pins({ a: 1 }))).toEqual([]);
    // The same, the newer attempt refused OVERLOADED after the replacement: nothing held.
    l.grant(4, "b", "c0", 1000, 30, 5);
    l.complete(4, "c0");
    l.grant(5, "b", "c0", 1000, 30, 4);
    expect(l.check(30, pins({ a: 1, b: 1 }))).toEqual([]);
    l.refused("c0", "b", 6);
    expect(l.heldGrants("b", 40)).toBe(0);
    expect(l.check(40, pins({ a: 1, b: 0 }))).toEqual([]);
    // Grant 6 let go by a refusal after its replacement (attempt 6), a reordered attempt 4 granted
    // (grant 7), then attempt 8 granted: grant 7 is the one replaced.
    l.grant(6, "c", "c0", 1000, 50, 5);
    l.refused("c0", "c", 6);
    l.grant(7, "c", "c0", 1000, 50, 4);
    expect(l.check(50, pins({ a: 1, c: 1 }))).toEqual([]);
    l.grant(8, "c", "c0", 1000, 60, 8);
    expect(l.heldGrants("c", 60)).toBe(1);
    expect(l.check(60, pins({ a: 1, c: 1 }))).toEqual([]);
    // An attempt no newer than the held grant's replaces nothing: releasing it is still caught.
    l.refused("c0", "c", 8);
    l.grant(9, "c", "c0", 1000, 70, 7);
    expect(l.heldGrants("c", 70)).toBe(2);
    expect(l.check(70, pins({ a: 1, c: 1 }))[0]).toMatch(/^item c holds 1 pins, but 2 of its grants are live on the wire .*\[I3\]\[P2\]$/);
  });

  it("[P3][P8] a grant answering a ReadRequest current when the producer took it, its holder's newer epoch handed over later in that pump, is void as it is sent: no pin owed; one answering a request already stale is owed its pin", () => {
    const l = new GrantLedger();
    l.newEpoch("c0", 1);
    l.newEpoch("c0", 2); // after epoch 1's ReadRequests, in the same pump
    l.grant(1, "a", "c0", 1000, 0, 5, true, 1); // current when taken: released with epoch 1's grants [P8]
    expect(l.heldGrants("a", 0)).toBe(0);
    expect(l.check(0, pins({ a: 0 }))).toEqual([]);
    l.grant(2, "b", "c0", 1000, 10, 5, false, 1); // stale when taken (the producer had to ignore it), granted all the same
    expect(l.heldGrants("b", 10)).toBe(1);
    expect(l.check(10, pins({ b: 0 }))).toEqual(["item b was just granted to 1 consumer(s) (c0), but holds 0 pins [P2]"]);
  });

  it("[P3] ends each grant at its own lease: a short lease sent after a long one ends first, and is forgotten one of its own leases later", () => {
    const l = new GrantLedger();
    l.grant(1, "a", "c0", 1000, 0, 1);
    l.grant(2, "b", "c1", 100, 10, 1);
    expect(l.check(10, pins({ a: 1, b: 1 }))).toEqual([]);
    // Grant 2's lease ended at 110, grant 1's runs to 1000.
    expect([l.heldGrants("a", 110), l.heldGrants("b", 110)]).toEqual([1, 0]);
    expect(l.mayLeaveUnanswered("c1", "b", 1, 110)).toBe(false);
    expect(l.check(110, pins({ a: 1, b: 0 }))).toEqual([]);
    // A pin kept past the short lease is found; the long one's pin is owed still.
    l.grant(3, "b", "c1", 50, 120, 2);
    expect(l.check(120, pins({ a: 1, b: 1 }))).toEqual([]);
    expect(l.check(170, pins({ a: 0, b: 1 }))).toEqual([
      "item b holds 1 pins, but only 0 of its grants are live on the wire (not ACKed, lease not over) [P2][P3]",
      "item a holds 0 pins, but 1 of its grants are live on the wire (not ACKed, lease not over), none of which the producer may end early (holder gone or of a newer epoch, a newer attempt, shutdown): a grant was released before its ACK or lease end [I3][P2]",
    ]);
    // Sent again after its lease: reported until one lease of its own (100 ms) after its end.
    expect(l.grant(2, "b", "c1", 10, 200)).toBe("grant 2 (item b) sent again to c1 with lease_ms 10 after its lease ended at 110.000 ms [P3]");
    l.check(210, pins({ a: 1 }));
    expect(l.grant(2, "b", "c1", 10, 210)).toBeUndefined();
  });

  it("[I1] lets a ReadRequest go unanswered only for the attempt of a grant of that consumer and item that may still be live, or an older one", () => {
    const l = new GrantLedger();
    expect(l.mayLeaveUnanswered("c0", "a", 1, 0)).toBe(false); // nothing granted: owed an answer
    l.grant(1, "a", "c0", 100, 0, 5);
    expect(l.mayLeaveUnanswered("c0", "a", 5, 0)).toBe(true); // a duplicate: the grant MAY be resent
    expect(l.mayLeaveUnanswered("c0", "a", 4, 0)).toBe(true); // stale
    expect(l.mayLeaveUnanswered("c0", "a", 6, 0)).toBe(false); // a newer attempt: granted or refused
    expect(l.mayLeaveUnanswered("c1", "a", 5, 0)).toBe(false); // another consumer
    expect(l.mayLeaveUnanswered("c0", "b", 5, 0)).toBe(false); // another item
    l.grant(2, "a", "c0", 100, 10, 7); // the newer attempt's grant replaces it
    expect(l.mayLeaveUnanswered("c0", "a", 6, 10)).toBe(true);
    expect(l.mayLeaveUnanswered("c0", "a", 7, 100)).toBe(true); // the first lease is over; the second's is not
    // Both over (no check needed to see it): no grant is live, every request is owed an answer [P3].
    expect(l.mayLeaveUnanswered("c0", "a", 7, 110)).toBe(false);
    expect(l.mayLeaveUnanswered("c0", "a", 1, 110)).toBe(false);
  });

  it("[I1][P2] an ACKed grant no longer makes a ReadRequest a duplicate or stale; one the producer may have let go early still does", () => {
    const l = new GrantLedger();
    l.grant(1, "a", "c0", 1000, 0, 5);
    l.grant(2, "b", "c0", 1000, 0, 5);
    l.check(0, pins({ a: 1, b: 1 }));
    expect(l.mayLeaveUnanswered("c0", "a", 5, 10)).toBe(true); // handed over before the ACK: a duplicate then
    l.complete(1, "c0");
    // Handed over after the ACK, its lease not over: the grant is no longer live (SPEC.md 4.3).
    expect(l.mayLeaveUnanswered("c0", "a", 5, 10)).toBe(false);
    expect(l.mayLeaveUnanswered("c0", "a", 4, 10)).toBe(false);
    l.complete(1, "c0"); // the same ACK again (duplicated) ends nothing more
    expect(l.mayLeaveUnanswered("c0", "a", 5, 20)).toBe(false);
    // A grant of b excused (an OVERLOADED refusal of a newer attempt [P3][P5]) may still be live: generous.
    l.refused("c0", "b", 6);
    expect(l.heldGrants("b", 20)).toBe(0);
    expect(l.mayLeaveUnanswered("c0", "b", 5, 20)).toBe(true);
    // The attempt answered again after the ACK: live again, until this grant's ACK.
    l.grant(3, "a", "c0", 1000, 30, 5);
    expect(l.mayLeaveUnanswered("c0", "a", 5, 30)).toBe(true);
    l.complete(3, "c0");
    expect(l.mayLeaveUnanswered("c0", "a", 5, 30)).toBe(false);
  });

  it("[I1][P8] only a grant of the ReadRequest's own epoch makes it a duplicate or stale: one of the consumer's older epoch, void once a newer epoch reached the producer, never does", () => {
    const l = new GrantLedger();
    l.newEpoch("c0", 1);
    l.grant(1, "a", "c0", 1000, 0, 5); // epoch 1's (the greatest so far)
    expect(l.mayLeaveUnanswered("c0", "a", 5, 0)).toBe(true); // a duplicate of epoch 1
    expect(l.mayLeaveUnanswered("c0", "a", 5, 0, 1)).toBe(true);
    // The consumer restarted: its epoch 2 reaches the producer, which releases epoch 1's grants.
    l.newEpoch("c0", 2);
    expect(l.heldGrants("a", 10)).toBe(0);
    // Epoch 2's attempt ids may repeat epoch 1's (SPEC.md 3.5 asks only that they should not): owed answers.
    expect(l.mayLeaveUnanswered("c0", "a", 5, 10)).toBe(false);
    expect(l.mayLeaveUnanswered("c0", "a", 3, 10, 2)).toBe(false);
    // Epoch 2's own grant does make them duplicates or stale.
    l.grant(2, "a", "c0", 1000, 10, 4);
    expect(l.mayLeaveUnanswered("c0", "a", 4, 10)).toBe(true);
    expect(l.mayLeaveUnanswered("c0", "a", 3, 10, 2)).toBe(true);
    expect(l.mayLeaveUnanswered("c0", "a", 5, 10, 2)).toBe(false);
    // An older epoch seen again changes nothing.
    l.newEpoch("c0", 1);
    expect([l.epochOf("c0"), l.heldGrants("a", 10)]).toEqual([2, 1]);
  });

  it("[I1][P8] a grant released when its holder was declared gone or reported unreachable makes none of the holder's later ReadRequests, of the same epoch too, a duplicate or stale; one sent after the notice, in its pump, still may", () => {
    const l = new GrantLedger();
    l.newEpoch("c0", 1);
    l.grant(1, "a", "c0", 1000, 0, 5);
    l.grant(2, "a", "c1", 1000, 0, 5);
    l.check(0, pins({ a: 2 }));
    expect(l.mayLeaveUnanswered("c0", "a", 5, 10)).toBe(true);
    // The producer declares c0 gone: it releases c0's grants, and they stay released (SPEC.md 8).
    l.peerGone("c0");
    expect(l.heldGrants("a", 10)).toBe(1);
    // c0's epoch 1 again (a gone consumer is served anew, SPEC.md 4): no live grant, owed answers.
    l.newEpoch("c0", 1);
    expect(l.mayLeaveUnanswered("c0", "a", 5, 10)).toBe(false);
    expect(l.mayLeaveUnanswered("c0", "a", 4, 10, 1)).toBe(false);
    expect(l.mayLeaveUnanswered("c1", "a", 5, 10)).toBe(true); // another consumer's grant is live still
    // Granted in the pump of the notice, after it or queued before it (the wire cannot tell): generous.
    l.grant(3, "a", "c0", 1000, 10, 6);
    expect(l.heldGrants("a", 10)).toBe(1);
    expect(l.mayLeaveUnanswered("c0", "a", 6, 10)).toBe(true);
    // Its notice again (a disconnect-peer after the grant queued before it, or a later silence) releases it.
    l.peerGone("c0");
    expect(l.mayLeaveUnanswered("c0", "a", 6, 10)).toBe(false);
    expect(l.check(10, pins({ a: 1 }))).toEqual([]);
  });
});

/**
 * `follow()` with a newer epoch's connection treats that epoch as seen [P8][E2] (SPEC.md section 9,
 * the MAY sentence on a greater epoch told by the deployment): cases a review of 2026-12-05 found
 * handled unlike a newer epoch heard on the wire.
 */
import { ectp } from "@ectp/protocol";
import { describe, expect, it } from "vitest";
import { desc } from "../producer/test-helpers.js";
import { EventSubscriber } from "./subscriber.js";
import { P, bodies, env } from "./test-support.js";

/** A connection of producer epoch `epoch`. */
const conn = (epoch: number) => ({ epoch, metadata: new Uint8Array([epoch]) });

/** The Hellos and SnapshotRequests among what a poll at `now` hands out. */
const subscriptions = (sub: EventSubscriber, now: number) => bodies(sub.poll(now)).filter((b) => b === "hello" || b === "snapshotRequest");

describe("EventSubscriber.follow with a newer epoch's connection [P8][E2]", () => {
  // The older epoch's answer cleared the marks of the request made for the new epoch, but an epoch
  // not yet heard (0) still counted as greeted and asked, so the new epoch was neither.
  it("[P8][E2] an older epoch's answer, before any epoch was heard, has the new epoch greeted and asked again when it first speaks", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow(P, 0, conn(7));
    sub.poll(0);
    sub.follow(P, 1, conn(8));
    expect(bodies(sub.poll(1))).toEqual(["connect-peer", "hello", "snapshotRequest"]);
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [desc(1)] } }), 2); // stale: may be the answer meant for 8
    expect(sub.view(P)).toBeUndefined();
    sub.handleEnvelope(P, env(8, { hello: { role: ectp.v1.Role.ROLE_PRODUCER } }), 3);
    expect(subscriptions(sub, 3)).toEqual(["hello", "snapshotRequest"]);
  });

  it("[P8][E2] with no older epoch's answer, the new epoch greeted through the connection is not greeted again when it first speaks", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow(P, 0, conn(7));
    sub.poll(0);
    sub.follow(P, 1, conn(8));
    sub.poll(1);
    sub.handleEnvelope(P, env(7, { heartbeat: { sequence: 1 } }), 2); // stale, but no answer
    sub.handleEnvelope(P, env(8, { hello: { role: ectp.v1.Role.ROLE_PRODUCER } }), 3);
    expect(subscriptions(sub, 3)).toEqual([]);
  });

  // The new subscription was judged silent by the dead epoch's last message: subscribed to (and
  // declared lost) again right after, with a second Hello and SnapshotRequest.
  it("[P8] silence is judged from the new subscription, not from the dead epoch's last message", () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
    const sub = new EventSubscriber({ id: "R", epoch: 1, logger }); // silence: 3 x 2 000 ms
    sub.follow(P, 0, conn(7));
    sub.poll(0);
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.poll(1);
    // Epoch 7 crashes; at 5 000 the deployment tells of epoch 8.
    sub.follow(P, 5_000, conn(8));
    expect(subscriptions(sub, 5_000)).toEqual(["hello", "snapshotRequest"]);
    // 6 001: 6 s after epoch 7's last message, 1 s after the new subscription: nothing yet.
    expect(bodies(sub.poll(6_001)).filter((b) => b !== "heartbeat")).toEqual([]);
    expect(warnings.filter((w) => w.startsWith("producer lost"))).toEqual([]);
    // The request's own retry (5 000 + retry_ms) asks again.
    expect(subscriptions(sub, 7_000)).toEqual(["hello", "snapshotRequest"]);
  });

  it("[P8] the dead epoch's heartbeat interval no longer stretches the silence bound of the new epoch", () => {
    const sub = new EventSubscriber({ id: "R", epoch: 1 });
    sub.follow(P, 0, conn(7));
    sub.poll(0);
    sub.handleEnvelope(P, env(7, { hello: { role: ectp.v1.Role.ROLE_PRODUCER, heartbeatIntervalMs: 60_000 } }), 1);
    sub.handleEnvelope(P, env(7, { snapshot: { sequence: 0, snapshotId: 1, items: [] } }), 1);
    sub.poll(1);
    sub.follow(P, 2, conn(8));
    sub.poll(2);
    // Epoch 8 says nothing: gone 3 x 2 000 ms after it was asked (epoch 7's 60 s said nothing of it).
    expect(bodies(sub.poll(6_001))).not.toContain("disconnect-peer");
    expect(bodies(sub.poll(6_002))).toContain("disconnect-peer");
  });
});

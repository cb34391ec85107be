"""EventSubscriber, from a review (as the TypeScript subscriber's
counts-first-snapshot-and-unreachable-waits.test.ts): requests dropped before a poll handed them out
were counted as sent; a first snapshot whose snapshotId is 0 was ignored as a late duplicate of a
snapshot never applied; a producer reported unreachable just after a catch-up ReplayRequest was
subscribed to anew at once; and a HandshakeReject was not logged."""

from __future__ import annotations

import unittest

from ectp_py.subscriber import EventSubscriber

from .helpers import FP
from .test_subscriber import P, batch, bodies, env, kid, snapshot, stored


def requests(outs: list) -> list[str]:
    return [b for b in bodies(outs) if b != "heartbeat"]


class SubscriberCountsFirstSnapshotAndUnreachableWaitsTest(unittest.TestCase):
    # [E2][P8] a SnapshotRequest or ReplayRequest dropped before a poll (by handle_peer_unreachable or
    # unfollow) is not counted as sent
    def test_e2_p8_requests_dropped_before_a_poll_are_not_counted_as_sent(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0)
        sub.handle_peer_unreachable(P, 0)  # the Hello and SnapshotRequest never go out
        self.assertEqual(bodies(sub.poll(0)), [])
        self.assertEqual(sub.stats()["snapshotRequests"], 0)
        self.assertEqual(requests(sub.poll(2000)), ["hello", "snapshotRequest"])  # subscribed to anew retry_ms later
        self.assertEqual(sub.stats()["snapshotRequests"], 1)
        sub.handle_envelope(P, snapshot(1, 1, []), 2001)
        sub.handle_envelope(P, batch(3, stored("C")), 2002)  # a gap: a ReplayRequest is queued
        sub.unfollow(P)
        self.assertEqual(bodies(sub.poll(2002)), [])
        self.assertEqual((sub.stats()["snapshotRequests"], sub.stats()["replayRequests"]), (1, 0))

    # [E2] the first snapshot of an epoch is taken whatever its snapshotId: one of id 0 at sequence 0 (a producer
    # that breaks the id rule) is no late duplicate, since none was applied; once applied, a copy of it is one
    def test_e2_a_first_snapshot_of_id_0_is_taken(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(0, 0, ["a"]), 1)
        self.assertEqual((sub.view(P) and sorted(sub.view(P)), sub.stats()["snapshotsApplied"]), ([kid("a")], 1))
        ignored = sub.stats()["ignoredMessages"]
        sub.handle_envelope(P, snapshot(0, 0, []), 2)
        self.assertEqual((sorted(sub.view(P)), sub.stats()["ignoredMessages"] - ignored), ([kid("a")], 1))
        # [P8] ids start over with a restarted producer's epoch: its first snapshot of id 0 is taken too
        sub.handle_envelope(P, snapshot(0, 0, ["b"], epoch=6), 3)
        self.assertEqual(sorted(sub.view(P)), [kid("b")])

    # [P8] a producer reported unreachable just after a catch-up ReplayRequest is subscribed to anew retry_ms after
    # that request, not at once ("It MAY wait up to its request timeout after its last request to that producer")
    def test_p8_unreachable_after_a_catch_up_waits_retry_ms_after_it(self):
        sub = EventSubscriber("R1", 1, FP)  # retry_ms 2000, catch_up_ms 5000
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(0, 1, []), 1)
        sub.poll(1)
        for t in range(1000, 5001, 1000):
            sub.handle_envelope(P, env({"heartbeat": {"sequence": t}}), t)
        self.assertIn("replayRequest", bodies(sub.poll(5001)))  # the catch-up
        sub.handle_peer_unreachable(P, 5002)
        self.assertNotIn("hello", bodies(sub.poll(5002)))
        self.assertEqual(sub.next_deadline(), 7001)
        self.assertNotIn("hello", bodies(sub.poll(7000)))
        self.assertEqual(requests(sub.poll(7001)), ["hello", "snapshotRequest"])

    # [E2] a HandshakeReject is counted and logged at warning level for the operator (SPEC.md section 9)
    def test_e2_a_handshake_reject_is_logged_at_warning_level(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0)
        sub.poll(0)
        with self.assertLogs("ectp.subscriber", "WARNING") as logs:
            sub.handle_envelope(P, env({"handshakeReject": {"reason": 4, "detail": "fingerprint differs"}}), 1)
        self.assertIn("fingerprint differs", logs.output[0])
        self.assertEqual(sub.metrics['ectp_subscriber_ignored_messages_total{reason="refused"}'], 1)


if __name__ == "__main__":
    unittest.main()

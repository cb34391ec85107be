"""EventSubscriber sequences: rules of [E2] and [P8], and the counters and deadlines the testee
reports, each pinned by a short sequence of messages and polls (as the TypeScript EventSubscriber
behaves). Each test fails on a plausible slip in subscriber.py that the other tests let pass."""

from __future__ import annotations

import unittest

from ectp_py.outputs import DisconnectPeer
from ectp_py.subscriber import EventSubscriber

from .helpers import FP
from .test_subscriber import P, SyncedSubscriber, batch, bodies, env, kid, snapshot, stored


class SubscriberSequencesTest(SyncedSubscriber, unittest.TestCase):
    # [P8][E2] a newer epoch's connection greets and asks that epoch at once; its first message is
    # then no news: no second Hello, no second SnapshotRequest (test_subscriber_newer_connection has
    # the older epoch's late answers, which make it news)
    def test_p8_e2_an_epoch_asked_through_a_newer_connection_is_not_greeted_again_by_its_first_message(self):
        sub = EventSubscriber("R1", 1, FP, retry_ms=1000, catch_up_ms=100_000)
        sub.follow(P, 0, (5, b"m5"))
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, []), 1)
        sub.follow(P, 10, (7, b"m7"))  # the producer restarted: greeted and asked at once
        self.assertEqual(bodies(sub.poll(10)), ["ConnectPeer", "hello", "snapshotRequest"])
        sub.handle_envelope(P, env({"heartbeat": {"sequence": 1}}, epoch=7), 13)  # epoch 7's first message
        self.assertEqual(sub.poll(13), [])
        sub.handle_envelope(P, snapshot(1, 1, ["A"], epoch=7), 14)
        self.assertEqual(sorted(sub.view(P)), [kid("A")])

    # [P8] a producer found silent is subscribed to anew once, and judged silent again from then on
    def test_p8_a_silent_producer_is_subscribed_to_anew_once_per_silence(self):
        sub = self.synced("A", catch_up_ms=100_000)
        self.assertEqual(bodies(sub.poll(6001)), ["hello", "snapshotRequest", "heartbeat"])  # 3 x 2000 ms after 1
        self.assertEqual(sub.poll(6002), [])
        self.assertGreater(sub.next_deadline(), 6002)

    # stats: every SnapshotRequest and ReplayRequest sent is counted (catch-up requests too) [E2]
    def test_e2_stats_count_every_snapshot_and_replay_request_sent(self):
        sub = self.synced("A", catch_up_ms=5000)
        self.assertEqual((sub.stats()["snapshotRequests"], sub.stats()["replayRequests"]), (1, 0))
        self.assertEqual(bodies(sub.poll(5001)).count("replayRequest"), 1)  # catch-up, 5000 ms after the snapshot
        self.assertEqual(sub.stats()["replayRequests"], 1)
        sub.handle_envelope(P, batch(5, stored("C")), 5002)  # a gap at 3
        self.assertEqual(bodies(sub.poll(5002)).count("replayRequest"), 1)
        self.assertEqual(sub.stats()["replayRequests"], 2)
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 4, "latest": 5}}), 5003)
        self.assertEqual(bodies(sub.poll(5003)), ["snapshotRequest"])
        self.assertEqual((sub.stats()["snapshotRequests"], sub.stats()["replayRequests"]), (2, 2))

    # [P8] a connection the transport was already told to forget (peer unreachable) is not forgotten again on unfollow
    def test_p8_unfollow_after_a_handed_disconnect_disconnects_nothing(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0, (5, b"meta"))
        self.assertEqual(bodies(sub.poll(0)), ["ConnectPeer", "hello", "snapshotRequest"])
        sub.handle_peer_unreachable(P, 1)
        self.assertEqual(sub.poll(1), [DisconnectPeer(P)])
        sub.unfollow(P)
        self.assertEqual(sub.poll(2), [])

    # next_deadline is "now" while outputs wait for a poll (a ReplayRequest queued by a batch past a gap)
    def test_e2_next_deadline_is_now_while_a_request_is_queued(self):
        sub = self.synced("A")
        sub.handle_envelope(P, batch(4, stored("C")), 2)
        self.assertEqual(sub.next_deadline(), 2)
        self.assertEqual(bodies(sub.poll(2)), ["replayRequest"])

    # stats: a producer whose snapshot was asked for again (ReplayUnavailable) is not counted synced
    def test_e2_stats_a_producer_awaiting_a_snapshot_is_not_synced(self):
        sub = self.synced("A")
        self.assertEqual(sub.stats()["synced"], 1)
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 6, "latest": 9}}), 2)
        self.assertEqual(sub.stats()["synced"], 0)

    # [E2][P8][C10] a new epoch whose first message is a snapshot part that cannot be used (ignored: it
    # answers nothing): greeted and asked at once, and asked again retry_ms after that request (not
    # measured from the older epoch's request)
    def test_e2_p8_a_new_epochs_unusable_snapshot_is_asked_for_at_once_and_again_retry_ms_after_it(self):
        sub = self.synced("A", catch_up_ms=100_000)  # asked at 0
        sub.poll(1)
        sub.handle_envelope(P, snapshot(0, 1, ["b"], part=2, parts=2, epoch=6), 3000)  # part not below parts
        self.assertEqual(bodies(sub.poll(3000)), ["hello", "snapshotRequest", "heartbeat"])
        self.assertNotIn("snapshotRequest", bodies(sub.poll(4999)))
        self.assertIn("snapshotRequest", bodies(sub.poll(5000)))

    # [E2] ReplayUnavailable with latest 0 (nothing published) to a subscriber with no snapshot of the
    # epoch: nothing was applied, so it MUST ask for a snapshot
    def test_e2_p8_a_new_epochs_replay_unavailable_of_nothing_published_asks_for_a_snapshot(self):
        sub = self.synced("A")
        sub.poll(1)
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 0, "latest": 0}}, epoch=6), 2)
        self.assertEqual(bodies(sub.poll(2)), ["hello", "snapshotRequest"])
        sub.handle_envelope(P, snapshot(0, 1, ["b"], epoch=6), 3)
        self.assertEqual(self.view(sub), [kid("b")])

    # [E2] a snapshot of the sequence already applied changes nothing (not applied, not counted)
    def test_e2_a_snapshot_of_the_applied_sequence_is_not_applied(self):
        sub = self.synced("A")
        sub.handle_envelope(P, batch(3, stored("C")), 2)
        sub.handle_envelope(P, snapshot(3, 2, ["Z"]), 3)
        self.assertEqual(self.view(sub), sorted([kid("A"), kid("C")]))
        self.assertEqual(sub.stats()["snapshotsApplied"], 1)


if __name__ == "__main__":
    unittest.main()

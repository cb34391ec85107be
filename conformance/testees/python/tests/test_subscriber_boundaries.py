"""EventSubscriber boundaries: rules of [E2], [P8] and [C10] that hand mutants of subscriber.py
showed no other test (nor the conformance suite) pinned down; each test fails on its mutant."""

from __future__ import annotations

import unittest

from ectp_py.outputs import DisconnectPeer
from ectp_py.subscriber import EventSubscriber

from .helpers import FP
from .test_subscriber import P, SyncedSubscriber, batch, bodies, env, item, kid, removed, snapshot, stored


def replays(outs: list) -> int:
    return bodies(outs).count("replayRequest")


class SubscriberBoundariesTest(SyncedSubscriber, unittest.TestCase):
    # [P8] unfollow, follow again, unfollow again before a poll: the connection the transport holds is still forgotten
    def test_p8_refollow_then_unfollow_keeps_the_queued_disconnect(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0, (5, b"\x05"))
        self.assertEqual(bodies(sub.poll(0)), ["ConnectPeer", "hello", "snapshotRequest"])
        sub.unfollow(P)
        sub.follow(P, 1)
        sub.unfollow(P)
        self.assertEqual(sub.poll(2), [DisconnectPeer(P)])

    # [P8] a producer reported unreachable is sent nothing before the new Hello
    def test_p8_a_request_queued_before_an_unreachable_report_does_not_go_out(self):
        sub = self.synced(retry_ms=1000, heartbeat_interval_ms=100_000, catch_up_ms=100_000)
        sub.poll(1)
        sub.handle_envelope(P, batch(4, stored("C")), 2)  # a gap: a ReplayRequest is queued
        sub.handle_peer_unreachable(P, 3)
        self.assertNotIn("replayRequest", bodies(sub.poll(3)))

    # [E1][C2] a Stored event with an invalid item key is left out of the view; the rest of a
    # descriptor is not validated (a consumer validates the announcement at admission)
    def test_e1_c2_an_invalid_key_is_left_out_and_the_rest_of_a_descriptor_not_validated(self):
        sub = self.synced()
        no_hash = {**item("B"), "key": {"fingerprint": item("B")["key"]["fingerprint"]}}
        size_zero = {**item("C"), "sizeBytes": 0}
        sub.handle_envelope(P, batch(3, stored("A"), {"stored": {"item": no_hash}}, {"stored": {"item": size_zero}}), 2)
        self.assertEqual(self.view(sub), sorted([kid("A"), kid("C")]))
        self.assertEqual(sub.stats()["ignoredMessages"], 0)

    # [E2] a duplicate of the LAST applied batch (seq == applied) is ignored and counted, asks nothing
    def test_e2_a_duplicate_of_the_last_applied_batch_is_ignored(self):
        sub = self.synced("A")
        sub.handle_envelope(P, batch(3, stored("C")), 2)
        sub.poll(2)
        ignored = sub.stats()["ignoredMessages"]
        sub.handle_envelope(P, batch(3, removed("A")), 3)
        self.assertEqual(self.view(sub), sorted([kid("A"), kid("C")]))
        self.assertEqual(sub.stats()["ignoredMessages"], ignored + 1)
        self.assertEqual((sub.stats()["heldBatches"], replays(sub.poll(3))), (0, 0))

    # [E2] catch-up: first catch_up_ms after the snapshot, then every catch_up_ms, not on every poll
    def test_e2_catch_up_requests_are_spaced_by_catch_up_ms_from_the_snapshot(self):
        sub = EventSubscriber("R1", 1, FP, catch_up_ms=5000)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, ["A"]), 10)
        sent = []
        for t in (10, 5009, 5010, 5011, 10009, 10010):
            sub.handle_envelope(P, env({"heartbeat": {"sequence": 1}}), t)  # alive: no silence
            sent.append(replays(sub.poll(t)))
        self.assertEqual(sent, [0, 0, 1, 0, 0, 1])

    # [E2] a Snapshot whose id equals the last applied one is a late duplicate, ignored, unless it is newer
    # in sequence (a producer whose ids stopped growing is not asked for snapshots without end)
    def test_e2_a_snapshot_repeating_the_applied_id_is_ignored_unless_newer_in_sequence(self):
        sub = self.synced("A")  # snapshot id 1 at sequence 2
        ignored = sub.stats()["ignoredMessages"]
        sub.handle_envelope(P, snapshot(2, 1, ["B"]), 2)
        self.assertEqual(self.view(sub), [kid("A")])
        self.assertEqual(sub.stats()["ignoredMessages"], ignored + 1)
        sub.handle_envelope(P, snapshot(9, 1, ["B"]), 3)
        self.assertEqual(self.view(sub), [kid("B")])

    # [E2] a part whose parts or sequence differs from its assembly's is ignored
    def test_e2_a_part_inconsistent_with_its_assembly_is_ignored(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0)
        sub.handle_envelope(P, snapshot(4, 2, ["A"], part=0, parts=3), 1)
        sub.handle_envelope(P, snapshot(4, 2, ["X"], part=1, parts=2), 2)  # parts differ
        sub.handle_envelope(P, snapshot(5, 2, ["Y"], part=1, parts=3), 3)  # sequence differs
        self.assertEqual((sub.stats()["snapshotParts"], sub.stats()["ignoredMessages"]), (1, 2))
        sub.handle_envelope(P, snapshot(4, 2, ["B"], part=1, parts=3), 4)
        sub.handle_envelope(P, snapshot(4, 2, ["C"], part=2, parts=3), 5)
        self.assertEqual(self.view(sub), sorted([kid("A"), kid("B"), kid("C")]))

    # [E2] batches held before the first snapshot are applied as soon as it is
    def test_e2_batches_held_before_the_snapshot_are_applied_with_it(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, batch(3, stored("C")), 1)
        sub.handle_envelope(P, snapshot(2, 1, ["A"]), 2)
        self.assertEqual(self.view(sub), sorted([kid("A"), kid("C")]))
        self.assertEqual(sub.stats()["heldBatches"], 0)

    # [E2] a held batch the snapshot already reflects (its sequence) is dropped, not kept
    def test_e2_a_held_batch_of_the_snapshots_sequence_is_dropped(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, batch(2, stored("C")), 1)
        sub.handle_envelope(P, snapshot(2, 1, ["A", "C"]), 2)
        self.assertEqual(sub.stats()["heldBatches"], 0)

    # [P8] SPEC 4: a message of the epoch ends the subscription's "unanswered" state, so a
    # still newer epoch gets its own Hello
    def test_p8_a_newer_epoch_after_the_first_message_is_greeted(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, env({"heartbeat": {"sequence": 1}}), 10)
        sub.handle_envelope(P, batch(1, stored("C"), epoch=6), 20)
        self.assertEqual(bodies(sub.poll(20)), ["hello", "snapshotRequest"])

    # [P8] SPEC 4: once a subscription is answered by a snapshot, a later epoch is greeted anew
    def test_p8_an_answered_subscription_does_not_spare_the_next_epoch_its_hello(self):
        sub = self.synced("A")
        sub.poll(1)
        sub.handle_envelope(P, batch(1, stored("C"), epoch=6), 2)  # subscribes to epoch 6
        self.assertEqual(bodies(sub.poll(2)), ["hello", "snapshotRequest"])
        sub.handle_envelope(P, snapshot(1, 1, ["C"], epoch=6), 3)
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 5, "latest": 9}}, epoch=6), 4)
        self.assertEqual(bodies(sub.poll(4)), ["snapshotRequest"])
        sub.handle_envelope(P, batch(1, stored("D"), epoch=7), 5)
        self.assertEqual(bodies(sub.poll(5)), ["hello", "snapshotRequest"])

    # [E2] a greater epoch discards the held batches of the older one: they never reach the new view
    def test_e2_a_greater_epoch_discards_the_held_batches(self):
        sub = self.synced("A")
        sub.handle_envelope(P, batch(4, stored("C")), 2)  # held past the gap at 3
        self.assertEqual(sub.stats()["heldBatches"], 1)
        sub.handle_envelope(P, env({"heartbeat": {"sequence": 1}}, epoch=6), 3)
        self.assertEqual(sub.stats()["heldBatches"], 0)
        sub.handle_envelope(P, snapshot(0, 1, [], epoch=6), 4)
        for seq in (1, 2, 3):
            sub.handle_envelope(P, batch(seq, stored(f"X{seq}"), epoch=6), 5)
        self.assertEqual(self.view(sub), sorted(kid(f"X{s}") for s in (1, 2, 3)))

    # [E2] a new epoch's first message is a part whose rest is lost: the snapshot is asked for again
    def test_e2_a_new_epochs_snapshot_part_whose_rest_is_lost_is_asked_for_again(self):
        sub = self.synced("a")
        sub.poll(1)
        sub.handle_envelope(P, snapshot(0, 1, ["b"], part=0, parts=2, epoch=6), 2)
        self.assertEqual(bodies(sub.poll(2)), ["hello"])
        sub.handle_envelope(P, env({"heartbeat": {"sequence": 1}}, epoch=6), 2001)
        self.assertNotIn("snapshotRequest", bodies(sub.poll(2001)))
        self.assertIn("snapshotRequest", bodies(sub.poll(2002)))

    # [E2] ReplayUnavailable whose latest is not greater than the last applied: ignored, counted
    def test_e2_a_replay_unavailable_not_past_the_last_applied_is_stale(self):
        sub = self.synced("A")  # applied 2
        sub.poll(1)
        ignored = sub.stats()["ignoredMessages"]
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 1, "latest": 2}}), 2)
        self.assertNotIn("snapshotRequest", bodies(sub.poll(2)))
        self.assertEqual(sub.stats()["ignoredMessages"], ignored + 1)

    # [E2][P8] a new epoch whose first message is ReplayUnavailable: one Hello, one SnapshotRequest
    def test_e2_p8_a_new_epochs_replay_unavailable_asks_once(self):
        sub = self.synced("A")
        sub.poll(1)
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 1, "latest": 4}}, epoch=6), 2)
        self.assertEqual(bodies(sub.poll(2)), ["hello", "snapshotRequest"])

    # [C10] a Heartbeat is not counted; a HandshakeReject and a body that cannot be read are
    def test_c10_heartbeats_are_not_counted_rejects_and_unreadable_bodies_are(self):
        sub = self.synced()
        before = sub.stats()["ignoredMessages"]
        sub.handle_envelope(P, env({"heartbeat": {"sequence": 1}}), 2)
        self.assertEqual(sub.stats()["ignoredMessages"], before)
        sub.handle_envelope(P, env({"handshakeReject": {"reason": 2}}), 3)
        self.assertEqual(sub.stats()["ignoredMessages"], before + 1)
        sub.handle_envelope(P, env({"hello": "junk"}), 4)  # raises inside: [I1] one message, counted
        sub.handle_envelope(P, env({"eventBatch": "junk"}), 5)
        self.assertEqual(sub.stats()["ignoredMessages"], before + 3)

    # [E2] held batches may carry exactly max_held_events events
    def test_e2_held_batches_may_reach_max_held_events_exactly(self):
        sub = EventSubscriber("R1", 1, FP, max_held_events=3)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(0, 1, []), 1)
        sub.handle_envelope(P, batch(2, stored("d"), stored("e"), stored("f")), 2)
        self.assertEqual(sub.stats()["heldBatches"], 1)
        # one more event does not fit: that batch is dropped (replayed later) and counted ignored
        sub.handle_envelope(P, batch(3, stored("g")), 3)
        self.assertEqual((sub.stats()["heldBatches"], sub.stats()["ignoredMessages"]), (1, 1))

    # [P8] a connection for the epoch already heard, given to a producer followed without one, connects and greets
    def test_p8_a_connection_for_the_current_epoch_given_later_is_connected(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, []), 1)
        sub.follow(P, 2, (5, b"meta"))
        self.assertEqual(bodies(sub.poll(2)), ["ConnectPeer", "hello", "snapshotRequest"])

    # [P8] a gone producer subscribed to anew is judged silent from that new subscription, not from before
    def test_p8_a_resubscribed_gone_producer_is_not_subscribed_to_again_at_once(self):
        sub = EventSubscriber("R1", 1, FP, catch_up_ms=100_000)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, []), 1)
        sub.handle_peer_unreachable(P, 5000)
        self.assertEqual(bodies(sub.poll(5000))[:2], ["hello", "snapshotRequest"])
        self.assertNotIn("hello", bodies(sub.poll(6001)))

    # next_deadline covers the new subscription of a gone producer
    def test_p8_next_deadline_of_a_gone_producer_is_its_resubscription(self):
        sub = EventSubscriber("R1", 1, FP, heartbeat_interval_ms=10_000, retry_ms=2000, catch_up_ms=100_000)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, []), 1)
        sub.handle_peer_unreachable(P, 10)
        self.assertEqual(sub.poll(10), [])
        self.assertEqual(sub.next_deadline(), 2000)

    # next_deadline covers the silence deadline [P8]
    def test_p8_next_deadline_covers_the_silence_deadline(self):
        sub = EventSubscriber("R1", 1, FP, catch_up_ms=100_000)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, []), 1)
        self.assertEqual(bodies(sub.poll(5000)), ["heartbeat"])
        self.assertEqual(sub.next_deadline(), 6001)  # 1 + 3 x 2000, before the next heartbeat at 7000

    # stats: a producer behind a gap is not synced, even while gone (no replay asked)
    def test_stats_a_gone_producer_behind_a_gap_is_not_synced(self):
        sub = self.synced("A")
        sub.handle_peer_unreachable(P, 2)
        sub.handle_envelope(P, batch(5, stored("B")), 3)
        self.assertEqual(sub.stats()["synced"], 0)

    # [E2] a snapshot closes the count of replay retries: the gap after it gets its own three
    def test_e2_a_snapshot_resets_the_replay_retries(self):
        sub = self.synced(retry_ms=50, catch_up_ms=100_000)
        sub.handle_envelope(P, batch(10, stored("Z")), 10)
        self.assertEqual([replays(sub.poll(t)) for t in (10, 60, 110)], [1, 1, 1])  # request, 2 retries
        # (a producer whose latest is 5, though batch 10 was seen: a gap is left behind the snapshot)
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 1, "latest": 5}}), 115)
        sub.handle_envelope(P, snapshot(5, 2, ["A"]), 120)  # a replay from 6 is asked at once
        self.assertEqual([replays(sub.poll(t)) for t in (120, 170, 220, 270, 320)], [1, 1, 1, 1, 0])

    # [C10] the batches given up after the retries are counted as ignored
    def test_c10_batches_given_up_are_counted(self):
        sub = self.synced(retry_ms=50, catch_up_ms=100_000)
        sub.handle_envelope(P, batch(1000, stored("Z")), 20)
        before = sub.stats()["ignoredMessages"]
        for t in (20, 70, 120, 170, 220):
            sub.poll(t)
        self.assertEqual((sub.stats()["heldBatches"], sub.stats()["ignoredMessages"]), (0, before + 1))

    # [E2] catching up after a give-up starts catch_up_ms after it
    def test_e2_catching_up_after_a_give_up_waits_catch_up_ms(self):
        sub = self.synced(retry_ms=50, catch_up_ms=100)
        sub.handle_envelope(P, batch(1000, stored("Z")), 20)
        self.assertEqual([replays(sub.poll(t)) for t in (20, 70, 120, 170, 220)], [1, 1, 1, 1, 0])
        self.assertEqual([replays(sub.poll(t)) for t in (221, 319, 320)], [0, 0, 1])

    # [E2] a newer answer reflecting an older sequence than the one applied does not roll the view back
    def test_e2_a_snapshot_older_in_sequence_than_applied_keeps_the_view(self):
        sub = self.synced("A")
        sub.handle_envelope(P, batch(3, stored("B")), 2)
        sub.handle_envelope(P, batch(4, stored("C")), 3)
        sub.handle_envelope(P, snapshot(3, 2, ["A", "B"]), 4)
        self.assertEqual(self.view(sub), sorted([kid("A"), kid("B"), kid("C")]))
        self.assertEqual(sub.stats()["snapshotsApplied"], 1)

    # [P8] silence is judged over three times the largest of the intervals and retry_ms
    def test_p8_silence_counts_retry_ms_too(self):
        sub = EventSubscriber("R1", 1, FP, heartbeat_interval_ms=100, retry_ms=5000, catch_up_ms=100_000)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, []), 1)
        self.assertNotIn("hello", bodies(sub.poll(6001)))
        self.assertIn("hello", bodies(sub.poll(15_001)))

    # [P8] a gone producer's new epoch, greeted through its snapshot, is no longer gone
    def test_p8_a_gone_producers_new_epoch_greeted_through_its_snapshot_is_not_subscribed_to_again(self):
        sub = self.synced("A", retry_ms=1000)
        sub.poll(1)
        sub.handle_peer_unreachable(P, 10)
        sub.handle_envelope(P, snapshot(0, 1, ["b"], epoch=6), 20)
        self.assertEqual(bodies(sub.poll(20)), ["hello"])
        self.assertEqual(self.view(sub), [kid("b")])
        self.assertNotIn("hello", bodies(sub.poll(1020)))


    # [C10] a followed producer's envelope with a sender epoch that is not an id is malformed
    # (not a version or sender problem), counted under that reason
    def test_c10_a_followed_producers_envelope_without_a_valid_epoch_is_malformed(self):
        sub = self.synced("a")
        for epoch in (0, None, -5, 2**53, "5"):
            sub.handle_envelope(P, env({"eventBatch": {"sequence": 3, "events": [stored("b")]}}, epoch=epoch), 2)
        self.assertEqual(sub.metrics['ectp_subscriber_ignored_messages_total{reason="malformed"}'], 5)
        self.assertEqual(sorted(sub.view(P)), [kid("a")])  # nothing applied

    # [P8] the transport losing a producer that is not followed changes nothing
    def test_p8_an_unreachable_producer_that_is_not_followed_changes_nothing(self):
        sub = self.synced("a")
        sub.handle_peer_unreachable("P9", 2)
        self.assertEqual(sub.poll(2), [])
        self.assertEqual(sorted(sub.view(P)), [kid("a")])
        self.assertEqual(sub.stats()["producers"], 1)

    def test_a_subscriber_id_must_be_a_non_empty_string(self):
        for ident in ("", None, 7):
            with self.subTest(ident=ident), self.assertRaisesRegex(ValueError, "subscriber id must be a non-empty string"):
                EventSubscriber(ident, 1, FP)

    def _stuck_polls(self, sub: EventSubscriber, now: float, rounds: int) -> list:
        """Poll at next_deadline() from ``now``: the times after which it named a deadline already passed."""
        stuck = []
        for _ in range(rounds):
            nxt = sub.next_deadline()
            if nxt <= now:
                stuck.append(now)
            now = max(nxt, now)
            sub.poll(now)
        return stuck[:5]

    def test_p8_next_deadline_after_a_poll_is_never_due_at_fractional_times_too(self):
        """[P8] a silent producer's deadline is when poll judges it silent (29510.0500661 + 6000 -
        29510.0500661 falls short of 6000)."""
        sub = EventSubscriber("R1", 1, FP)
        now = 29510.0500661
        sub.follow(P, now)
        sub.poll(now)
        self.assertEqual(self._stuck_polls(sub, now, 100), [])

    def test_p8_next_deadline_of_a_producer_reported_unreachable_is_its_resubscription(self):
        """[P8] not the silence poll no longer judges (a driver would spin until the retry)."""
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0, (1, b"\x01"))
        for t in (0, 2000, 4000):
            sub.poll(t)  # never answers
        sub.follow(P, 4500, (2, b"\x01"))  # replaced 4.5 s after last heard
        sub.poll(4500)
        sub.handle_peer_unreachable(P, 4600)  # its new endpoint is not up yet
        sub.poll(4600)
        self.assertGreater(sub.next_deadline(), 4600)
        self.assertEqual(self._stuck_polls(sub, 4600, 50), [])


if __name__ == "__main__":
    unittest.main()

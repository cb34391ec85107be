"""EventSubscriber [E1][E2]: the view of a producer's ready items, against hand-built messages
and against this package's ProducerCore over a lossy, duplicating, reordering link."""

from __future__ import annotations

import random
import unittest

from ectp_py import codec
from ectp_py.config import ProducerConfig
from ectp_py.outputs import ConnectPeer, DisconnectPeer, Send
from ectp_py.producer import ProducerCore
from ectp_py.store import MemoryItemStore
from ectp_py.subscriber import EventSubscriber
from ectp_py.testee import ROLE_SUBSCRIBER, TesteeAdapter
from ectp_py.wire import item_key_id

from .helpers import FP, descriptor, item_bytes

P = "P1"


def env(body: dict, epoch: int = 5, sender: str = P) -> dict:
    return {"version": {"major": 1, "minor": 0}, "senderId": sender, "senderEpoch": epoch, **body}


def item(name: str, epoch: int = 5) -> dict:
    return descriptor(name, item_bytes(16), epoch=epoch)


def kid(name: str) -> str:
    return item_key_id(item(name)["key"])


def batch(seq: int, *events: dict, epoch: int = 5) -> dict:
    return env({"eventBatch": {"sequence": seq, "events": list(events)}}, epoch)


def stored(name: str) -> dict:
    return {"stored": {"item": item(name)}}


def removed(name: str) -> dict:
    return {"removed": {"key": item(name)["key"]}}


def snapshot(seq: int, sid: int, names: list[str], part: int = 0, parts: int = 0, epoch: int = 5) -> dict:
    return env({"snapshot": {"sequence": seq, "snapshotId": sid, "part": part, "parts": parts,
                             "items": [item(n, epoch) for n in names]}}, epoch)


def bodies(outs: list) -> list[str]:
    names = []
    for o in outs:
        if isinstance(o, Send):
            names.append(next(k for k in o.envelope if k not in ("version", "senderId", "senderEpoch")))
        else:
            names.append(type(o).__name__)
    return names


class SyncedSubscriber:
    """Test helpers: a subscriber following P and synced to a snapshot of ``names`` at sequence 2."""

    def synced(self, *names: str, **options) -> EventSubscriber:
        sub = EventSubscriber("R1", 1, FP, **options)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(2, 1, list(names)), 1)
        return sub

    def view(self, sub: EventSubscriber) -> list[str] | None:
        v = sub.view(P)
        return None if v is None else sorted(v)


class SubscriberTest(SyncedSubscriber, unittest.TestCase):

    def test_e2_follow_sends_hello_then_snapshot_request_and_is_not_synced_before_a_snapshot(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0)
        out = sub.poll(0)
        self.assertEqual(bodies(out), ["hello", "snapshotRequest"])
        self.assertEqual(out[0].envelope["hello"]["capabilities"], ["events.v1"])
        sub.handle_envelope(P, batch(1, stored("A")), 1)
        self.assertIsNone(sub.view(P))

    def test_e1_e2_snapshot_then_batches_in_order(self):
        sub = self.synced("A", "B")
        self.assertEqual(self.view(sub), sorted([kid("A"), kid("B")]))
        sub.handle_envelope(P, batch(3, stored("C"), removed("A")), 2)
        self.assertEqual(self.view(sub), sorted([kid("B"), kid("C")]))
        sub.handle_envelope(P, batch(4, {"cleared": {}}, stored("D")), 3)
        self.assertEqual(self.view(sub), [kid("D")])

    def test_e2_gap_is_replayed_from_the_first_missing_and_duplicates_are_ignored(self):
        sub = self.synced("A")
        sub.handle_envelope(P, batch(4, stored("C")), 2)
        out = sub.poll(2)
        self.assertEqual([o.envelope["replayRequest"]["fromSequence"] for o in out if "replayRequest" in o.envelope], [3])
        self.assertEqual(self.view(sub), [kid("A")])
        sub.handle_envelope(P, batch(3, stored("B")), 3)
        self.assertEqual(self.view(sub), sorted([kid("A"), kid("B"), kid("C")]))
        ignored = sub.stats()["ignoredMessages"]
        sub.handle_envelope(P, batch(3, removed("A")), 4)  # already applied
        self.assertEqual(self.view(sub), sorted([kid("A"), kid("B"), kid("C")]))
        self.assertEqual(sub.stats()["ignoredMessages"], ignored + 1)

    def test_p8_a_lost_producer_is_counted_and_warned_of_once_per_outage_and_logged_when_synced_again(self):
        sub = self.synced("A")
        sub.poll(2)
        self.assertEqual(sub.metrics["ectp_subscriber_synced_producers"], 1)
        with self.assertLogs("ectp.subscriber", "DEBUG") as logs:
            sub.poll(6_002)  # silent past 3 x 2 s: lost, subscribed anew
            self.assertEqual(sub.metrics["ectp_subscriber_synced_producers"], 0)
            sub.poll(12_003)  # silent again, still the same outage
            sub.handle_peer_unreachable(P, 12_004)  # so is this
            sub.poll(14_005)  # gone for retry_ms: subscribed anew
            sub.handle_envelope(P, snapshot(2, 7, ["A"]), 14_006)
            sub.poll(14_007)  # finds it synced: the outage ends
            self.assertEqual(sub.metrics["ectp_subscriber_synced_producers"], 1)
            sub.handle_peer_unreachable(P, 14_008)  # a new outage
            sub.poll(14_009)
        lines = [f"{r.levelname}: {r.getMessage()}" for r in logs.records]
        self.assertEqual([line for line in lines if line.startswith("WARNING")], [
            f"WARNING: producer {P} lost (silent, epoch 5); following it anew (it is not synced, and its view is kept until it answers)",
            f"WARNING: producer {P} lost (unreachable, epoch 5); following it anew (it is not synced, and its view is kept until it answers)",
        ])
        self.assertEqual([line for line in lines if line.startswith("INFO")], [f"INFO: producer {P} synced again (epoch 5) after 8005 ms"])
        self.assertEqual(len([line for line in lines if "still lost" in line]), 2)
        self.assertEqual(sub.metrics['ectp_subscriber_producers_lost_total{cause="silent"}'], 1)
        self.assertEqual(sub.metrics['ectp_subscriber_producers_lost_total{cause="unreachable"}'], 1)
        self.assertEqual(sub.metrics["ectp_subscriber_synced_producers"], 0)

    def test_c10_ignored_messages_are_counted_in_the_metric_by_reason(self):
        sub = self.synced("A")
        sub.handle_message(P, b"\xff", 2)  # malformed
        sub.handle_envelope("X", env({"eventBatch": batch(3, stored("B"))["eventBatch"]}, sender="X"), 2)  # not followed
        sub.handle_envelope(P, {**batch(3, stored("B")), "senderId": "Y"}, 2)
        sub.handle_envelope(P, {**batch(3, stored("B")), "version": {"major": 2}}, 2)
        sub.handle_envelope(P, batch(2, stored("B")), 2)  # applied already
        sub.handle_envelope(P, env({"readRequest": {"attemptId": 1}}), 2)
        sub.handle_envelope(P, env({"handshakeReject": {"reason": 4}}), 2)
        reasons = ["malformed", "unknown_peer", "sender_mismatch", "version", "duplicate", "unexpected", "refused"]
        self.assertEqual([sub.metrics[f'ectp_subscriber_ignored_messages_total{{reason="{r}"}}'] for r in reasons], [1] * 7)
        self.assertEqual(sub.stats()["ignoredMessages"], 7)

    def test_e2_c10_a_held_batch_keeps_its_first_copy_and_another_is_ignored_and_counted(self):
        sub = self.synced("A")
        sub.handle_envelope(P, batch(4, stored("C")), 2)  # held ahead of the gap at 3
        ignored = sub.stats()["ignoredMessages"]
        sub.handle_envelope(P, batch(4, stored("C")), 3)  # delivered again (at least once)
        sub.handle_envelope(P, batch(4, removed("A")), 3)  # the same sequence again, changed
        self.assertEqual(sub.stats()["ignoredMessages"], ignored + 2)
        self.assertEqual(sub.stats()["heldBatches"], 1)
        sub.handle_envelope(P, batch(3, stored("B")), 4)
        self.assertEqual(self.view(sub), sorted([kid("A"), kid("B"), kid("C")]))

    def test_e2_a_snapshot_id_past_2_53_is_malformed_and_freezes_nothing(self):
        sub = self.synced("A")
        ignored = sub.stats()["ignoredMessages"]
        sub.handle_envelope(P, snapshot(3, 2**53, ["B"]), 2)
        self.assertEqual(sub.stats()["ignoredMessages"], ignored + 1)
        sub.handle_envelope(P, snapshot(3, 7, ["C"]), 3)
        self.assertEqual(self.view(sub), [kid("C")])

    def test_e2_replay_unavailable_asks_for_a_snapshot(self):
        sub = self.synced("A")
        sub.handle_envelope(P, batch(9, stored("D")), 2)
        sub.poll(2)
        sub.handle_envelope(P, env({"replayUnavailable": {"latest": 9, "oldestAvailable": 6}}), 3)
        self.assertEqual(bodies(sub.poll(3)), ["snapshotRequest"])
        sub.handle_envelope(P, snapshot(9, 2, ["B", "D"]), 4)
        self.assertEqual(self.view(sub), sorted([kid("B"), kid("D")]))

    def test_e2_snapshot_parts_are_assembled_by_id_never_mixed(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0)
        sub.handle_envelope(P, snapshot(4, 2, ["A"], part=0, parts=2), 1)
        sub.handle_envelope(P, snapshot(5, 3, ["B"], part=0, parts=2), 2)  # a newer answer: starts anew
        sub.handle_envelope(P, snapshot(4, 2, ["D"], part=1, parts=2), 3)  # late part of the old one
        sub.handle_envelope(P, snapshot(5, 3, ["A"], part=0, parts=2), 4)  # duplicate part
        sub.handle_envelope(P, snapshot(5, 3, ["C"], part=2, parts=2), 5)  # part not below parts
        self.assertIsNone(sub.view(P))
        self.assertEqual(sub.stats()["snapshotParts"], 1)
        sub.handle_envelope(P, snapshot(5, 3, ["C"], part=1, parts=2), 6)
        self.assertEqual(self.view(sub), sorted([kid("B"), kid("C")]))
        self.assertEqual(sub.stats()["snapshotParts"], 0)
        sub.handle_envelope(P, snapshot(4, 1, ["A"]), 7)  # an older answer: never rolls back
        self.assertEqual(self.view(sub), sorted([kid("B"), kid("C")]))

    def test_e2_p8_a_greater_epoch_voids_the_view_and_greets_the_new_epoch(self):
        sub = self.synced("A", "B")
        sub.poll(1)
        sub.handle_envelope(P, batch(1, stored("C"), epoch=6), 2)
        self.assertIsNone(sub.view(P))
        self.assertEqual(bodies(sub.poll(2)), ["hello", "snapshotRequest"])
        sub.handle_envelope(P, snapshot(1, 1, ["C"], epoch=6), 3)
        self.assertEqual(self.view(sub), [kid("C")])
        sub.handle_envelope(P, batch(2, stored("D"), epoch=5), 4)  # the old epoch
        self.assertEqual(self.view(sub), [kid("C")])

    def test_c10_i1_strangers_spoofs_other_majors_and_garbage_change_nothing(self):
        sub = self.synced("A")
        sub.handle_envelope("P2", batch(3, stored("B")), 2)
        sub.handle_envelope(P, {**batch(3, stored("B")), "senderId": "P2"}, 2)
        sub.handle_envelope(P, {**batch(3, stored("B")), "version": {"major": 2}}, 2)
        sub.handle_envelope(P, "not an envelope", 2)
        sub.handle_envelope(P, batch(3, {"stored": {"item": {"key": "junk"}}}, "junk"), 2)
        sub.handle_message(P, b"\xff\xff", 2)
        self.assertEqual(self.view(sub), [kid("A")])
        self.assertGreaterEqual(sub.stats()["ignoredMessages"], 5)
        sub.unfollow(P)
        self.assertIsNone(sub.view(P))

    def test_p8_a_connection_is_connected_first_and_a_lost_producer_is_subscribed_to_anew_after_retry_ms(self):
        sub = EventSubscriber("R1", 1, FP, heartbeat_interval_ms=100, retry_ms=1000)
        sub.follow(P, 0, (5, b"meta"))
        out = sub.poll(0)
        self.assertEqual(bodies(out), ["ConnectPeer", "hello", "snapshotRequest"])
        self.assertEqual(out[0], ConnectPeer(P, 5, b"meta"))
        sub.handle_envelope(P, snapshot(0, 1, []), 1)
        sub.handle_peer_unreachable(P, 1)
        self.assertEqual(sub.poll(1), [DisconnectPeer(P)])
        self.assertEqual(sub.poll(500), [])  # gone: not even a heartbeat before the new Hello
        self.assertEqual(bodies(sub.poll(1000)), ["ConnectPeer", "hello", "snapshotRequest", "heartbeat"])
        self.assertEqual(sub.view(P), {})  # the view stays until an answer replaces it
        sub.follow(P, 1001, (5, b"other"))  # same epoch: nothing
        self.assertEqual(sub.poll(1001), [])
        sub.follow(P, 1002, (6, b"new"))  # a restarted producer's connection
        self.assertEqual(bodies(sub.poll(1002)), ["ConnectPeer", "hello", "snapshotRequest"])
        sub.handle_envelope(P, env({"hello": {"role": 1}}, epoch=6), 1003)  # its first message: already greeted
        self.assertEqual(sub.poll(1003), [])

    def test_p8_a_gone_producer_is_sent_nothing_before_the_new_hello(self):
        sub = EventSubscriber("R1", 1, FP, retry_ms=1000)
        sub.follow(P, 0, (5, b"meta"))
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, []), 1)
        sub.poll(1)
        self.assertEqual(sub.stats()["synced"], 1)
        sub.handle_peer_unreachable(P, 500)
        self.assertEqual(sub.stats()["synced"], 0)  # [P8] gone: not current until the new subscription is answered
        self.assertEqual(sub.poll(500), [DisconnectPeer(P)])
        sub.handle_envelope(P, batch(5, stored("a")), 600)  # late, past a gap: no ReplayRequest, no reconnect
        self.assertEqual(sub.poll(600), [])
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 5, "latest": 9}}), 700)
        self.assertEqual(sub.poll(700), [])
        self.assertEqual(bodies(sub.poll(1001)), ["ConnectPeer", "hello", "snapshotRequest"])

    def test_p8_a_producer_gone_through_silence_is_forgotten_as_an_unreachable_one_is(self):
        sub = EventSubscriber("R1", 1, FP, retry_ms=1000, heartbeat_interval_ms=1000, catch_up_ms=1_000_000)
        sub.follow(P, 0, (5, b"meta"))
        self.assertEqual(bodies(sub.poll(0)), ["ConnectPeer", "hello", "snapshotRequest"])
        sub.handle_envelope(P, snapshot(3, 1, []), 1)
        # silent from 1 on: gone at 1 + 3 x 2 s (the default interval: its Hello never came)
        self.assertEqual(bodies(sub.poll(6000)), ["heartbeat"])
        self.assertEqual(bodies(sub.poll(6001)), ["DisconnectPeer", "ConnectPeer", "hello", "snapshotRequest"])

    def test_p8_a_newer_epoch_voids_the_older_epochs_connection(self):
        sub = EventSubscriber("R1", 1, FP, retry_ms=1000)
        sub.follow(P, 0, (5, b"meta"))
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, []), 1)
        sub.handle_envelope(P, env({"hello": {"role": 1}}, epoch=6), 10)
        self.assertEqual(bodies(sub.poll(10)), ["DisconnectPeer", "hello", "snapshotRequest"])
        sub.handle_peer_unreachable(P, 20)
        self.assertEqual(bodies(sub.poll(2000)), ["hello", "snapshotRequest", "heartbeat"])  # no ConnectPeer(5)
        sub.follow(P, 2001, (5, b"meta"))  # older than the epoch seen: ignored
        self.assertEqual(sub.poll(2001), [])

    def test_p8_e2_a_restart_found_through_silence_is_subscribed_to_once(self):
        sub = EventSubscriber("R1", 1, FP, heartbeat_interval_ms=100, retry_ms=50, catch_up_ms=100_000)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, ["a"]), 1)
        self.assertEqual(bodies(sub.poll(6001)), ["hello", "snapshotRequest", "heartbeat"])  # silent 3 x 2000 ms
        sub.handle_envelope(P, env({"hello": {"role": 1}}, epoch=6), 6010)  # the restarted epoch answers it
        # not asked again; greeted once more, as the subscription may have gone out before the restart
        # (SPEC.md 4: a Hello first to each epoch; a second Hello of an epoch changes nothing)
        self.assertEqual(bodies(sub.poll(6010)), ["hello"])
        sub.handle_envelope(P, snapshot(0, 1, ["b"], epoch=6), 6020)
        self.assertEqual(self.view(sub), [kid("b")])

    def test_e2_a_snapshot_whose_parts_arrive_slower_than_retry_ms_is_not_asked_for_again(self):
        sub = EventSubscriber("R1", 1, FP, retry_ms=2000)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, ["a"], part=0, parts=2), 1500)
        self.assertNotIn("snapshotRequest", bodies(sub.poll(3499)))  # 2 s after the latest part, not the request
        self.assertIn("snapshotRequest", bodies(sub.poll(3500)))

    def test_e2_held_batches_are_bounded_by_their_events_too(self):
        sub = EventSubscriber("R1", 1, FP, max_held_events=5)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(0, 1, []), 1)
        sub.handle_envelope(P, batch(2, stored("d"), stored("e"), stored("f")), 2)  # held: 3 events
        sub.handle_envelope(P, batch(3, stored("g"), stored("h"), stored("i")), 3)  # 3 + 3 > 5: dropped
        self.assertEqual(sub.stats()["heldBatches"], 1)
        sub.handle_envelope(P, batch(1, stored("a"), stored("b"), stored("c")), 4)
        self.assertIn("replayRequest", bodies(sub.poll(4)))  # 3 was seen, not held: replayed
        sub.handle_envelope(P, batch(3, stored("g"), stored("h"), stored("i")), 5)
        self.assertEqual(len(sub.view(P)), 9)

    def test_e2_i4_held_batches_are_bounded_by_their_descriptor_bytes_too(self):
        # A descriptor may take 64 KiB: 1,024 batches of 16 such (1 MiB each, a conforming batch) past a
        # gap held about a gigabyte before max_held_bytes (default 64 MiB).
        big = bytes(65_000)
        def large(n: int) -> dict:
            return {"stored": {"item": {**item(f"big{n}"), "location": big}}}
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(0, 1, []), 1)
        per = len(codec.encode("ectp.v1.ItemDescriptor", large(0)["stored"]["item"]))
        for seq in range(2, 200):  # batch 1 is lost
            sub.handle_envelope(P, batch(seq, *(large(seq * 16 + i) for i in range(16))), 2)
        self.assertLessEqual(sub.stats()["heldBatches"] * 16 * per, 64 << 20)
        self.assertGreater(sub.stats()["heldBatches"], 0)

    def test_i1_e2_a_newer_epochs_unreadable_replay_unavailable_still_gets_a_snapshot_request(self):
        # handle_envelope takes hand-built dicts; one that raises after the epoch reset must not
        # leave the new epoch unasked for good (its heartbeats keep it from falling silent).
        sub = self.synced("a")
        sub.poll(1)
        sub.handle_envelope(P, env({"replayUnavailable": None}, epoch=6), 20)
        out = list(sub.poll(20))
        for t in range(1_000, 60_001, 1_000):
            sub.handle_envelope(P, env({"heartbeat": {"sequence": t}}, epoch=6), t)
            out.extend(sub.poll(t))
        self.assertIn("snapshotRequest", bodies(out))

    def test_e2_a_snapshot_whose_id_did_not_grow_but_whose_sequence_is_newer_is_taken(self):
        # After one absurd id (2^53 - 2) every later answer of the epoch was "not newer": the subscriber
        # asked for a whole snapshot every retry_ms for good and never became synced again.
        sub = EventSubscriber("R1", 1, FP, retry_ms=2000)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(0, 1, []), 10)
        sub.handle_envelope(P, snapshot(0, 2**53 - 2, []), 20)  # a buggy or hostile id
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 5, "latest": 9}}), 30)
        requests, sid = 0, 2
        for t in range(30, 60_031, 100):
            for name in bodies(sub.poll(t)):
                if name == "snapshotRequest":
                    requests += 1
                    sub.handle_envelope(P, snapshot(9, sid, ["a"]), t)  # the producer's ids count 2, 3, ...
                    sid += 1
            sub.handle_envelope(P, env({"heartbeat": {"sequence": t}}), t)
        self.assertEqual(self.view(sub), [kid("a")])  # synced on the producer's answer
        self.assertLessEqual(requests, 5)

    def test_e2_p8_a_newer_epoch_whose_first_message_is_a_snapshot_gets_a_hello_but_no_request(self):
        sub = self.synced("a")
        sub.poll(1)
        sub.handle_envelope(P, snapshot(0, 1, ["b"], part=0, parts=2, epoch=6), 2)
        self.assertEqual(bodies(sub.poll(2)), ["hello"])  # the answer may be whole: no SnapshotRequest yet
        sub.handle_envelope(P, batch(1, stored("c"), epoch=7), 3)  # a still newer epoch: greeted and asked
        self.assertEqual(bodies(sub.poll(3)), ["hello", "snapshotRequest"])

    def test_e2_p8_c10_a_newer_epoch_whose_first_message_is_a_snapshot_it_ignores_is_greeted_and_asked_at_once(self):
        # an ignored answer answers nothing: a part numbered past its parts, and one of sequence 2^53 - 1 (malformed:
        # the ReplayRequest after it could not be sent). (One without a snapshotId, the first of its epoch, is taken.)
        for ignored in (snapshot(0, 1, [], part=2, parts=2, epoch=6), snapshot(2**53 - 1, 1, [], epoch=6)):
            sub = self.synced("a", retry_ms=1000)
            sub.poll(1)
            sub.handle_envelope(P, ignored, 2)
            self.assertEqual(sub.stats()["ignoredMessages"], 1)
            self.assertEqual(bodies(sub.poll(2)), ["hello", "snapshotRequest"])  # not only retry_ms later
            self.assertEqual(sub.stats()["snapshotRequests"], 2)
            sub.handle_envelope(P, snapshot(0, 1, ["b"], epoch=6), 3)
            self.assertEqual(self.view(sub), [kid("b")])

    def test_p8_e2_an_unanswered_new_subscription_is_sent_again_whole(self):
        sub = EventSubscriber("R1", 1, FP, retry_ms=1000, heartbeat_interval_ms=10_000)
        sub.follow(P, 0)
        self.assertEqual(bodies(sub.poll(0)), ["hello", "snapshotRequest"])
        self.assertEqual(bodies(sub.poll(1000)), ["hello", "snapshotRequest"])  # Hello first: it may reach a restart
        sub.handle_envelope(P, snapshot(3, 1, []), 1500)
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 9, "latest": 12}}), 1600)
        self.assertEqual(bodies(sub.poll(1600)), ["snapshotRequest"])
        self.assertEqual(bodies(sub.poll(2600)), ["snapshotRequest"])  # greeted: asked again only

    def test_p8_e2_a_subscription_unanswered_after_the_producers_first_message_is_sent_again_whole(self):
        sub = EventSubscriber("R1", 1, FP, retry_ms=1000, heartbeat_interval_ms=10_000)
        sub.follow(P, 0)
        self.assertEqual(bodies(sub.poll(0)), ["hello", "snapshotRequest"])
        sub.handle_envelope(P, env({"hello": {"role": 1}}), 10)  # PRODUCER
        # the SnapshotRequest was lost (or reached an epoch that restarted since): the retry may reach one never greeted
        self.assertEqual(bodies(sub.poll(1000)), ["hello", "snapshotRequest"])
        sub.handle_envelope(P, snapshot(0, 1, []), 1100)
        self.assertEqual(sub.stats()["synced"], 1)

    def test_i1_a_sequence_of_2_53_minus_1_is_malformed(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0)
        sub.poll(0)
        top = 2**53 - 1
        sub.handle_envelope(P, snapshot(top, 1, []), 1)
        sub.handle_envelope(P, snapshot(3, 2, []), 2)
        sub.handle_envelope(P, batch(top, stored("a")), 3)
        self.assertEqual(sub.stats()["ignoredMessages"], 2)
        for o in sub.poll(10_000):
            if isinstance(o, Send):
                codec.encode("ectp.v1.Envelope", o.envelope)  # every request stays encodable

    def test_unfollow_drops_queued_messages_and_forgets_a_made_connection(self):
        sub = EventSubscriber("R1", 1, FP)
        sub.follow(P, 0, (5, b"meta"))
        sub.unfollow(P)  # never sent: nothing to forget
        self.assertEqual(sub.poll(0), [])
        sub.follow(P, 1, (5, b"meta"))
        sub.poll(1)
        sub.unfollow(P)
        sub.unfollow("P9")
        self.assertEqual(sub.poll(2), [DisconnectPeer(P)])
        # a newer epoch's connect still queued does not stand for the connection already made
        sub.follow(P, 3, (5, b"meta"))
        sub.poll(3)
        sub.follow(P, 4, (6, b"meta6"))
        sub.unfollow(P)
        self.assertEqual(sub.poll(5), [DisconnectPeer(P)])

    def test_e2_held_batches_are_bounded_and_a_dropped_one_is_replayed(self):
        sub = EventSubscriber("R1", 1, FP, max_held=4)
        sub.follow(P, 0)
        sub.handle_envelope(P, snapshot(1, 1, ["A"]), 1)
        for seq in range(3, 100):  # 2 is missing
            sub.handle_envelope(P, batch(seq, stored(f"B{seq}")), 2)
        self.assertEqual(sub.stats()["heldBatches"], 4)
        sub.handle_envelope(P, batch(2, stored("C")), 3)  # applies 2..6; 7.. were dropped
        self.assertEqual(sub._followed[P].applied, 6)
        replays = lambda outs: [o.envelope["replayRequest"]["fromSequence"] for o in outs if "replayRequest" in o.envelope]  # noqa: E731
        self.assertEqual(replays(sub.poll(3)), [2])  # the request for the gap, sent at 2
        self.assertEqual(replays(sub.poll(2002)), [7])  # unanswered for retry_ms: from the first still missing

    def test_e2_an_up_to_date_subscriber_asks_for_batches_after_its_last_every_catch_up_ms(self):
        sub = EventSubscriber("R1", 1, FP, catch_up_ms=5000)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, ["A"]), 10)
        self.assertEqual(sub.next_deadline() <= 5010, True)
        replays = [o.envelope["replayRequest"]["fromSequence"] for o in sub.poll(5010) if "replayRequest" in o.envelope]
        self.assertEqual(replays, [4])

    def test_e2_a_batch_past_anything_replayed_is_dropped_after_three_unanswered_replays(self):
        sub = EventSubscriber("R1", 1, FP, retry_ms=50, catch_up_ms=5000)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, ["A"]), 10)
        sub.handle_envelope(P, batch(1000, stored("Z")), 20)  # a buggy producer: nothing between was published
        sent = [bodies(sub.poll(t)).count("replayRequest") for t in (20, 70, 120, 170, 220)]
        self.assertEqual(sent, [1, 1, 1, 1, 0])  # the request, three retries, then it is given up
        self.assertEqual(sub.stats()["synced"], 1)
        self.assertEqual(sub.stats()["heldBatches"], 0)
        self.assertEqual(self.view(sub), [kid("A")])
        self.assertEqual(bodies(sub.poll(5220)).count("replayRequest"), 1)  # catching up goes on
        sub.handle_envelope(P, batch(4, stored("B")), 5230)
        self.assertEqual(self.view(sub), sorted([kid("A"), kid("B")]))

    def test_e2_a_batch_past_anything_published_is_given_up_while_the_producer_keeps_publishing(self):
        sub = EventSubscriber("R1", 1, FP, retry_ms=50, catch_up_ms=5000)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(3, 1, []), 10)
        sub.handle_envelope(P, batch(20, stored("Z")), 10)  # a buggy producer's batch, 17 ahead
        replays = 0
        for seq in range(4, 30):  # a real batch every 30 ms, more often than the retries (retry_ms 50)
            t = 10 + 30 * (seq - 3)
            sub.handle_envelope(P, batch(seq, stored(f"I{seq}")), t)
            replays += bodies(sub.poll(t)).count("replayRequest")
            self.assertNotIn(kid("Z"), self.view(sub))
        self.assertLessEqual(replays, 4)  # the request and three retries, then it is given up
        self.assertEqual((sub.stats()["synced"], sub.stats()["heldBatches"]), (1, 0))
        self.assertIn(kid("I20"), self.view(sub))  # the real batch 20 applied

    def test_c10_an_envelope_without_a_body_or_with_one_a_subscriber_never_receives_is_counted(self):
        sub = self.synced()
        sub.handle_envelope(P, env({"heartbeat": {"sequence": 1}}), 2)  # liveness only: not counted
        before = sub.stats()["ignoredMessages"]
        for body in ({}, {"readRequest": {"attemptId": 1}}, {"readGrant": {"grantId": 1}}, {"snapshotRequest": {}}, {"announcement": {}}):
            sub.handle_envelope(P, env(body), 3)
        self.assertEqual(sub.stats()["ignoredMessages"] - before, 5)

    def test_e2_the_retries_of_a_gap_that_closed_are_not_carried_over_to_the_next_gap(self):
        sub = EventSubscriber("R1", 1, FP, retry_ms=50, catch_up_ms=5000)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, snapshot(2, 1, []), 1)
        sub.handle_envelope(P, batch(4, stored("A")), 10)  # 3 is missing: asked for, then twice again
        for t in (10, 60, 110):
            sub.poll(t)
        sub.handle_envelope(P, batch(3, stored("B")), 120)  # the gap closes
        sub.handle_envelope(P, batch(6, stored("C")), 200)  # a new gap: 5 is missing
        for t in (200, 250, 300):
            sub.poll(t)  # two retries for this gap: not given up
        sub.handle_envelope(P, batch(5, stored("D")), 320)
        self.assertEqual(self.view(sub), sorted(kid(n) for n in "ABCD"))
        self.assertEqual((sub.stats()["synced"], sub.stats()["heldBatches"]), (1, 0))

    def test_c10_a_hello_of_a_role_that_serves_no_events_is_counted_and_not_applied(self):
        for role in (2, None):  # CONSUMER, or none
            sub = EventSubscriber("R1", 1, FP)
            sub.follow(P, 0)
            sub.poll(0)
            hello = {"heartbeatIntervalMs": 10_000} if role is None else {"role": role, "heartbeatIntervalMs": 10_000}
            sub.handle_envelope(P, env({"hello": hello}), 1000)
            sub.handle_envelope(P, snapshot(0, 1, []), 1000)  # answered: no retry
            self.assertEqual(sub.stats()["ignoredMessages"], 1)
            self.assertNotIn("hello", bodies(sub.poll(6999)))
            self.assertIn("hello", bodies(sub.poll(7000)))  # 3 x its own 2 s after the last message, not 3 x 10 s

    def test_p8_c10_a_second_hello_of_the_same_producer_epoch_is_a_duplicate(self):
        sub = EventSubscriber("R1", 1, FP, heartbeat_interval_ms=100, retry_ms=50)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, env({"hello": {"role": 1, "heartbeatIntervalMs": 10_000}}), 1)
        sub.handle_envelope(P, snapshot(0, 1, []), 1)
        sub.handle_envelope(P, env({"hello": {"role": 1, "heartbeatIntervalMs": 500}}), 2)
        self.assertEqual((sub.stats()["synced"], sub.stats()["ignoredMessages"]), (1, 1))
        sub.poll(2)
        self.assertNotIn("hello", bodies(sub.poll(30_001)))  # 3 x the first Hello's 10 s, not 3 x 2 s
        self.assertIn("hello", bodies(sub.poll(30_002)))
        sub.handle_envelope(P, env({"hello": {"role": 1, "heartbeatIntervalMs": 20_000}}), 30_003)
        self.assertEqual(sub.stats()["ignoredMessages"], 1)  # the answer to the new subscription is applied
        # its snapshot does not come: the subscription goes again whole, but nobody was declared gone
        # since that Hello, so the producer's answering Hello is a duplicate again [C10]
        self.assertEqual(bodies(sub.poll(30_052)), ["hello", "snapshotRequest"])
        sub.handle_envelope(P, env({"hello": {"role": 1, "heartbeatIntervalMs": 500}}), 30_053)
        self.assertEqual(sub.stats()["ignoredMessages"], 2)

    def test_p8_a_new_producer_epoch_is_judged_by_the_default_interval_until_its_own_hello(self):
        sub = EventSubscriber("R1", 1, FP, heartbeat_interval_ms=100, retry_ms=50)
        sub.follow(P, 0)
        sub.poll(0)
        sub.handle_envelope(P, env({"hello": {"role": 2, "heartbeatIntervalMs": 60_000}}), 1)
        sub.handle_envelope(P, snapshot(0, 1, [], epoch=6), 2)  # restarted; its Hello is lost
        sub.poll(2)
        self.assertEqual(sub.stats()["synced"], 1)
        self.assertNotIn("hello", bodies(sub.poll(6_001)))  # silent from t=2: 3 x 2 s, not 3 x 60 s
        self.assertIn("hello", bodies(sub.poll(6_002)))

    def test_i1_a_clock_reading_too_large_for_a_float_is_not_finite(self):
        sub = self.synced()
        with self.assertLogs(level="ERROR"):
            sub.poll(10**400)
            sub.handle_envelope(P, env({"heartbeat": {"sequence": 1}}), 10**400)

    def test_the_testee_answers_a_bad_subscriber_configuration_or_follow_with_typed_errors(self):
        adapter = TesteeAdapter()
        bad = adapter.handle({"commandId": 1, "configure": {"role": ROLE_SUBSCRIBER, "id": "R1", "epoch": 1,
                                                             "timers": {"heartbeatIntervalMs": 0}}})
        self.assertEqual(bad["error"]["code"], "INVALID_CONFIG")
        ok = adapter.handle({"commandId": 2, "configure": {"role": ROLE_SUBSCRIBER, "id": "R1", "epoch": 1}})
        self.assertEqual(ok, {"commandId": 2, "ok": {}})
        follow = adapter.handle({"commandId": 3, "follow": {"producerId": P, "connection": {"epoch": 0, "metadata": b"m"}}})
        self.assertEqual(follow["error"]["code"], "INVALID_ARGUMENT")
        self.assertEqual(adapter.handle({"commandId": 4, "getView": {"producerId": P}}), {"commandId": 4, "view": {"synced": False, "items": []}})
        self.assertEqual(adapter.handle({"commandId": 5, "admit": {"requestId": "r"}})["error"]["code"], "WRONG_ROLE")

    def test_local_misuse_raises_value_error(self):
        with self.assertRaises(ValueError):
            EventSubscriber("R1", 1, heartbeat_interval_ms=0)
        with self.assertRaisesRegex(ValueError, "heartbeat_interval_ms must fit in 32 bits"):
            EventSubscriber("R1", 1, heartbeat_interval_ms=2**32)  # [P8] a uint32 in the Hello
        EventSubscriber("R1", 1, heartbeat_interval_ms=2**32 - 1)
        sub = EventSubscriber("R1", 1)
        with self.assertRaises(ValueError):
            sub.follow("", 0)
        with self.assertRaises(ValueError):
            sub.follow(P, 0, (0, b"m"))

    def test_e1_e2_converges_to_the_producers_ready_items_over_a_lossy_duplicating_reordering_link(self):
        for seed in range(100):
            rnd = random.Random(seed)
            store = MemoryItemStore(12 * 16)  # a 13th item evicts the oldest ready one [P6]
            # Timers scaled down alike (retry 50 ms for 2 s): the producer's resend interval 10 ms for 500.
            producer = ProducerCore(P, 5, FP, store, config=ProducerConfig(resend_interval_ms=10))
            sub = EventSubscriber("R1", 1, FP, heartbeat_interval_ms=100, retry_ms=50, catch_up_ms=200)
            link = LossyLink(rnd, producer, sub)
            now = 0
            sub.follow(P, now)
            for step in range(800):
                now += 10
                if step < 300 and rnd.random() < 0.3:
                    put_ready(store, f"item-{seed}-{step}")
                link.step(now)
            ready = sorted(item_key_id(e.descriptor["key"]) for e in store.ready_items())
            self.assertEqual(self.view(sub), ready, f"seed {seed}")


def put_ready(store: MemoryItemStore, name: str) -> None:
    """Put a 16-byte item named ``name`` into ``store`` and make it ready."""
    entry = store.put(descriptor(name, item_bytes(16)), item_bytes(16))
    store.mark_ready(item_key_id(entry.descriptor["key"]))


class LossyLink:
    """The link between producer P and subscriber R1 in the convergence tests: each step polls both and
    delivers what they sent, of which 20% is lost, 20% duplicated and 30% reordered."""

    def __init__(self, rnd: random.Random, producer: ProducerCore, sub: EventSubscriber):
        self.rnd, self.producer, self.sub = rnd, producer, sub
        self.wire: list[tuple[str, bytes]] = []

    def post(self, to: str, envelope: dict) -> None:
        if self.rnd.random() < 0.2:
            return  # lost
        data = codec.encode("ectp.v1.Envelope", envelope)
        for _ in range(2 if self.rnd.random() < 0.2 else 1):
            at = self.rnd.randrange(len(self.wire) + 1) if self.rnd.random() < 0.3 else len(self.wire)
            self.wire.insert(at, (to, data))

    def step(self, now: float) -> None:
        for o in self.producer.poll(now):
            if isinstance(o, Send) and o.peer_id == "R1":
                self.post("R1", o.envelope)
        for o in self.sub.poll(now):
            if isinstance(o, Send):
                self.post(P, o.envelope)
        batch_, self.wire = self.wire, []
        for to, data in batch_:
            if to == P:
                self.producer.handle_message("R1", data, now)
            else:
                self.sub.handle_message(P, data, now)


if __name__ == "__main__":
    unittest.main()

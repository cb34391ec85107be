"""EventSubscriber.follow() with a newer epoch's connection treats that epoch as seen [P8][E2] (SPEC.md
section 9, the MAY sentence on a greater epoch told by the deployment), and follow() with a producer's
own fingerprint [P7], as the TypeScript EventSubscriber does (newer-connection.test.ts,
fingerprints.test.ts and the holders tests of the same cases)."""

from __future__ import annotations

import unittest

from ectp_py.config import ProducerConfig
from ectp_py.outputs import DisconnectPeer, Send
from ectp_py.producer import ProducerCore
from ectp_py.store import MemoryItemStore
from ectp_py.subscriber import EventSubscriber
from ectp_py.wire import Role

from .helpers import FP, descriptor, item_bytes
from .test_subscriber import P, batch, bodies, env, kid, snapshot, stored

OTHER = {"model": "another-model", "dtype": FP["dtype"], "rowBytes": 0, "layoutVersion": 1}


def conn(epoch: int) -> tuple[int, bytes]:
    """A connection of producer epoch ``epoch``."""
    return (epoch, bytes([epoch]))


def subscriptions(sub: EventSubscriber, now: float) -> list[str]:
    """The Hellos and SnapshotRequests among what a poll at ``now`` hands out."""
    return [b for b in bodies(sub.poll(now)) if b in ("hello", "snapshotRequest")]


def producer_hello(epoch: int, **fields) -> dict:
    return env({"hello": {"role": Role.PRODUCER, **fields}}, epoch)


def keys(sub: EventSubscriber, producer: str = P) -> list[str] | None:
    v = sub.view(producer)
    return None if v is None else sorted(v)


class NewerConnectionTest(unittest.TestCase):
    # A router told of a restart by its deployment went on routing to the dead epoch's items until
    # the new epoch first spoke.
    def test_p8_e2_follow_with_a_newer_epochs_connection_drops_the_dead_epochs_view_at_once(self):
        sub = EventSubscriber("R", 1, FP)
        sub.follow(P, 0, conn(7))
        sub.poll(0)
        sub.handle_envelope(P, snapshot(1, 1, ["A"], epoch=7), 1)
        sub.follow(P, 2, conn(7))  # the same epoch again: nothing changes
        self.assertEqual(keys(sub), [kid("A")])
        sub.follow(P, 3, conn(8))
        self.assertEqual((sub.view(P), sub.stats()["synced"], sub.stats()["viewBytes"]), (None, 0, 0))
        sub.handle_envelope(P, snapshot(1, 1, ["A", "B"], epoch=8), 4)
        self.assertEqual(keys(sub), sorted([kid("A"), kid("B")]))

    # The older epoch's answers still in flight used to sync the dropped view again.
    def test_p8_e2_after_a_newer_connection_the_older_epochs_messages_are_stale_and_the_new_epoch_is_asked_when_it_speaks(self):
        sub = EventSubscriber("R", 1, FP)
        sub.follow(P, 0, conn(7))
        sub.poll(0)
        sub.handle_envelope(P, snapshot(0, 1, [], epoch=7), 1)
        sub.follow(P, 2, conn(8))
        self.assertEqual(bodies(sub.poll(2)), ["ConnectPeer", "hello", "snapshotRequest"])
        ignored = sub.stats()["ignoredMessages"]
        sub.handle_envelope(P, snapshot(1, 2, ["A"], epoch=7), 3)
        sub.handle_envelope(P, batch(2, stored("B"), epoch=7), 3)
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 5, "latest": 6}}, 7), 4)
        self.assertEqual((bodies(sub.poll(4)), sub.view(P), sub.stats()["ignoredMessages"] - ignored), ([], None, 3))
        self.assertEqual(sub.metrics['ectp_subscriber_ignored_messages_total{reason="stale_epoch"}'], 3)
        # the older epoch's answer may have been the one meant for epoch 8: greeted and asked when it speaks
        sub.handle_envelope(P, producer_hello(8), 5)
        self.assertEqual(bodies(sub.poll(5)), ["hello", "snapshotRequest"])
        sub.handle_envelope(P, snapshot(1, 1, ["C"], epoch=8), 6)
        self.assertEqual(keys(sub), [kid("C")])

    # The older epoch's answer cleared the marks of the request made for the new epoch, but an epoch
    # not yet heard (0) still counted as greeted and asked, so the new epoch was neither.
    def test_p8_e2_an_older_epochs_answer_before_any_epoch_was_heard_has_the_new_epoch_greeted_and_asked_again(self):
        sub = EventSubscriber("R", 1, FP)
        sub.follow(P, 0, conn(7))
        sub.poll(0)
        sub.follow(P, 1, conn(8))
        self.assertEqual(bodies(sub.poll(1)), ["ConnectPeer", "hello", "snapshotRequest"])
        sub.handle_envelope(P, snapshot(0, 1, ["A"], epoch=7), 2)  # stale: may be the answer meant for 8
        self.assertIsNone(sub.view(P))
        sub.handle_envelope(P, producer_hello(8), 3)
        self.assertEqual(subscriptions(sub, 3), ["hello", "snapshotRequest"])

    def test_p8_e2_with_no_older_epochs_answer_the_new_epoch_greeted_through_the_connection_is_not_greeted_again(self):
        sub = EventSubscriber("R", 1, FP)
        sub.follow(P, 0, conn(7))
        sub.poll(0)
        sub.follow(P, 1, conn(8))
        sub.poll(1)
        sub.handle_envelope(P, env({"heartbeat": {"sequence": 1}}, 7), 2)  # stale, but no answer
        sub.handle_envelope(P, producer_hello(8), 3)
        self.assertEqual(subscriptions(sub, 3), [])

    # The new subscription was judged silent by the dead epoch's last message: subscribed to (and
    # declared lost) again right after, with a second Hello and SnapshotRequest.
    def test_p8_silence_is_judged_from_the_new_subscription_not_from_the_dead_epochs_last_message(self):
        sub = EventSubscriber("R", 1, FP)  # silence: 3 x 2000 ms
        sub.follow(P, 0, conn(7))
        sub.poll(0)
        sub.handle_envelope(P, snapshot(0, 1, [], epoch=7), 1)
        sub.poll(1)
        sub.follow(P, 5000, conn(8))  # epoch 7 crashed; at 5000 the deployment tells of epoch 8
        self.assertEqual(subscriptions(sub, 5000), ["hello", "snapshotRequest"])
        # 6001: 6 s after epoch 7's last message, 1 s after the new subscription: nothing yet
        with self.assertNoLogs("ectp.subscriber", "WARNING"):
            self.assertEqual([b for b in bodies(sub.poll(6001)) if b != "heartbeat"], [])
        self.assertEqual(sub.metrics['ectp_subscriber_producers_lost_total{cause="silent"}'], 0)
        self.assertEqual(subscriptions(sub, 7000), ["hello", "snapshotRequest"])  # the request's own retry

    def test_p8_the_dead_epochs_heartbeat_interval_no_longer_stretches_the_silence_bound_of_the_new_epoch(self):
        sub = EventSubscriber("R", 1, FP)
        sub.follow(P, 0, conn(7))
        sub.poll(0)
        sub.handle_envelope(P, producer_hello(7, heartbeatIntervalMs=60_000), 1)
        sub.handle_envelope(P, snapshot(0, 1, [], epoch=7), 1)
        sub.poll(1)
        sub.follow(P, 2, conn(8))
        sub.poll(2)
        # epoch 8 says nothing: gone 3 x 2000 ms after it was asked (epoch 7's 60 s said nothing of it)
        self.assertNotIn(DisconnectPeer(P), sub.poll(6001))
        self.assertIn(DisconnectPeer(P), sub.poll(6002))


class FollowFingerprintTest(unittest.TestCase):
    @staticmethod
    def hellos(outs: list) -> list[tuple[str, str]]:
        return [(o.peer_id, o.envelope["hello"]["fingerprint"].get("model"))
                for o in outs if isinstance(o, Send) and "hello" in o.envelope]

    @staticmethod
    def producer_of(pid: str, fingerprint: dict) -> ProducerCore:
        store = MemoryItemStore(1 << 20)
        d = descriptor(pid, item_bytes(10), producer=pid, epoch=1)
        d["key"]["fingerprint"] = dict(fingerprint)
        store.mark_ready(store.put(d).key_id)
        return ProducerCore(pid, 1, fingerprint, store, config=ProducerConfig(resend_interval_ms=10))

    # [P7] a router following producers of several models greets each with its model's: none refuses the Hello
    def test_p7_e2_follow_greets_each_producer_with_its_own_fingerprint_and_neither_refuses(self):
        a, b = self.producer_of("E-a", FP), self.producer_of("E-b", OTHER)
        sub = EventSubscriber("R", 1, FP)
        sub.follow("E-a", 0)  # the subscriber's own fingerprint
        sub.follow("E-b", 0, fingerprint=OTHER)
        pending = sub.poll(0)
        self.assertEqual(self.hellos(pending), [("E-a", FP["model"]), ("E-b", OTHER["model"])])
        producers = {"E-a": a, "E-b": b}
        for now in range(1, 20):
            for o in pending:
                if isinstance(o, Send):
                    producers[o.peer_id].handle_envelope("R", o.envelope, now)
            for pid, p in producers.items():
                for o in p.poll(now):
                    if isinstance(o, Send) and o.peer_id == "R":
                        sub.handle_envelope(pid, o.envelope, now)
            pending = sub.poll(now)
        self.assertEqual([sub.stats()["synced"], len(sub.view("E-a")), len(sub.view("E-b"))], [2, 1, 1])
        for p in (a, b):
            self.assertEqual([k for k, v in p.metrics.items() if "handshake_rejects" in k and v], [])

    def test_p7_a_malformed_fingerprint_or_another_one_for_a_producer_followed_is_refused_the_same_one_is_fine(self):
        sub = EventSubscriber("R", 1, FP)
        with self.assertRaisesRegex(ValueError, r"follow\(E-b\): fingerprint .*modle"):
            sub.follow("E-b", 0, fingerprint={"modle": "m"})
        with self.assertRaisesRegex(ValueError, r"follow\(E-b\): fingerprint is malformed"):
            sub.follow("E-b", 0, fingerprint={"model": 5})
        self.assertEqual(sub.stats()["producers"], 0)
        sub.follow("E-b", 0, fingerprint=OTHER)
        sub.follow("E-b", 0, fingerprint={**OTHER, "rowBytes": 0})  # equal: nothing changes
        sub.follow("E-b", 0)  # none given: nothing changes
        with self.assertRaisesRegex(ValueError, "followed with another fingerprint; unfollow it first"):
            sub.follow("E-b", 0, fingerprint=FP)
        sub.unfollow("E-b")
        sub.follow("E-b", 0, fingerprint=FP)
        self.assertEqual(self.hellos(sub.poll(0)), [("E-b", FP["model"])])

    # [P7][I1] the refusal came after the call's time was taken as the subscriber's clock
    def test_p7_i1_a_follow_refused_for_another_fingerprint_changes_nothing_the_clock_included(self):
        sub = EventSubscriber("R", 1, FP)
        sub.follow("E-b", 0, fingerprint=OTHER)
        sub.poll(0)
        with self.assertRaises(ValueError):
            sub.follow("E-b", 60_000, fingerprint=FP)
        self.assertEqual((sub.poll(1), sub.next_deadline()), ([], 2000))

    # [P7] the refusal's warning names its reason as the metrics label it, not by its wire number
    def test_p7_a_refused_hellos_warning_names_the_reason(self):
        b = self.producer_of("E-b", OTHER)
        sub = EventSubscriber("R", 1, FP)
        sub.follow("E-b", 0)
        with self.assertLogs("ectp.subscriber", "WARNING") as logs:
            for o in sub.poll(0):
                if isinstance(o, Send):
                    b.handle_envelope("R", o.envelope, 0)
            for o in b.poll(0):
                if isinstance(o, Send) and o.peer_id == "R":
                    sub.handle_envelope("E-b", o.envelope, 0)
        refused = [m for m in logs.output if "refused this subscriber's Hello" in m]
        self.assertEqual(len(refused), 1, logs.output)
        self.assertIn("(reason INCOMPATIBLE)", refused[0])
        self.assertIn("another-model", refused[0])


if __name__ == "__main__":
    unittest.main()

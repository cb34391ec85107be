"""Exact boundaries and orders of the producer's rules, mirroring the TypeScript
``producer/boundaries.test.ts`` (each case there kills a hand mutant no other test caught):
quota limits [P5], the order of the ReadRequest checks [P7], subscriptions [E1], replay [E2],
shutdown and heartbeat intervals [P8], the store's put contract."""

import unittest

from ectp_py.config import ProducerConfig
from ectp_py.outputs import ConnectPeer, EventBatchOut
from ectp_py.producer import ProducerCore
from ectp_py.store import MemoryItemStore
from ectp_py.wire import EctpError, Reason, Role

from .helpers import FP, descriptor, envelope, item_bytes, sends
from .test_producer import make, put

HELLO = {"role": Role.CONSUMER, "fingerprint": dict(FP), "capabilities": []}


def ask(p: ProducerCore, desc: dict, attempt: int, now: float = 0, epoch: int = 1, **fields) -> dict:
    """One ReadRequest from C1; its answer (a ReadGrant or ReadReject envelope), or {}."""
    p.handle_envelope("C1", envelope("C1", epoch, readRequest={"attemptId": attempt, "key": desc["key"], **fields}), now)
    outs = p.poll(now)
    replies = sends(outs, "readGrant") + sends(outs, "readReject")
    return replies[0] if replies else {}


def reason(reply: dict) -> int | None:
    return reply.get("readReject", {}).get("reason")


class ProducerBoundariesTest(unittest.TestCase):
    def test_p7_an_expected_size_smaller_than_the_item_is_internal(self):
        p, store = make()
        desc = put(store, "a", 10)
        self.assertEqual(reason(ask(p, desc, 1, expectedSizeBytes=9)), Reason.INTERNAL)

    def test_p5_an_item_exactly_the_byte_quota_is_granted(self):
        p, store = make(ProducerConfig(max_pinned_bytes_per_consumer=25))
        self.assertIn("readGrant", ask(p, put(store, "a", 25), 1))

    def test_p5_a_grant_bringing_pinned_bytes_exactly_to_the_quota_is_granted(self):
        p, store = make(ProducerConfig(max_pinned_bytes_per_consumer=25))
        self.assertIn("readGrant", ask(p, put(store, "a", 15), 1))
        self.assertIn("readGrant", ask(p, put(store, "b", 10), 2))

    def test_p5_exactly_max_grants_are_granted_and_the_next_is_overloaded(self):
        p, store = make(ProducerConfig(max_grants_per_consumer=2))
        descs = [put(store, n, 10) for n in ("a", "b", "c")]
        self.assertIn("readGrant", ask(p, descs[0], 1))
        self.assertIn("readGrant", ask(p, descs[1], 2))
        self.assertEqual(reason(ask(p, descs[2], 3)), Reason.OVERLOADED)

    def test_p7_a_newer_attempt_with_a_wrong_expected_size_is_internal_and_leaves_the_live_grant(self):
        p, store = make()
        desc = put(store, "a", 10)
        self.assertIn("readGrant", ask(p, desc, 1))
        self.assertEqual(reason(ask(p, desc, 2, expectedSizeBytes=11)), Reason.INTERNAL)
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (1, 1))

    def test_p7_shutting_down_answers_before_a_wrong_expected_epoch(self):
        p, store = make()
        desc = put(store, "a")
        p.shutdown(0)
        self.assertEqual(reason(ask(p, desc, 1, expectedEpoch=6)), Reason.SHUTTING_DOWN)

    def test_p7_a_read_request_with_attempt_id_0_is_ignored(self):
        p, store = make()
        desc = put(store, "a")
        self.assertEqual(ask(p, desc, 0), {})
        self.assertEqual((p.stats()["pins"], p.stats()["ignoredMessages"]), (0, 1))

    def test_v1_an_envelope_without_a_version_is_refused_and_never_acted_on(self):
        p, store = make()
        desc = put(store, "a")
        env = envelope("C1", 1, readRequest={"attemptId": 1, "key": desc["key"]})
        del env["version"]
        p.handle_envelope("C1", env, 0)
        outs = p.poll(0)
        self.assertEqual([e["readReject"]["reason"] for e in sends(outs, "readReject")], [Reason.VERSION])
        self.assertEqual(sends(outs, "readGrant"), [])
        self.assertEqual(p.stats()["pins"], 0)

    def test_e1_a_subscriber_showing_a_new_epoch_without_events_v1_stops_receiving_batches(self):
        p, store = make()
        p.handle_envelope("S1", envelope("S1", 1, hello={**HELLO, "capabilities": ["events.v1"]}), 0)
        p.handle_envelope("S1", envelope("S1", 2, hello=HELLO), 1)
        p.poll(1)
        put(store, "a")
        self.assertEqual(sends(p.poll(2), "eventBatch"), [])

    def test_e1_a_peer_that_sent_a_snapshot_request_is_a_subscriber(self):
        p, store = make()
        p.handle_envelope("S1", envelope("S1", 1, hello=HELLO), 0)
        p.handle_envelope("S1", envelope("S1", 1, snapshotRequest={}), 0)
        p.poll(0)
        put(store, "a")
        self.assertEqual(len(sends(p.poll(1), "eventBatch")), 1)

    def test_e2_a_replay_from_sequence_0_means_1(self):
        p, store = make()
        p.handle_envelope("S1", envelope("S1", 1, hello={**HELLO, "capabilities": ["events.v1"]}), 0)
        put(store, "a")
        p.poll(0)
        put(store, "b")
        p.poll(0)
        p.handle_envelope("S1", envelope("S1", 1, replayRequest={"fromSequence": 0}), 1)
        outs = p.poll(1)
        self.assertEqual([e["eventBatch"]["sequence"] for e in sends(outs, "eventBatch")], [1, 2])
        self.assertEqual(sends(outs, "replayUnavailable"), [])

    def test_e2_a_snapshot_after_shutdown_lists_no_items(self):
        p, store = make()
        put(store, "a")
        p.poll(0)
        p.shutdown(1)
        p.handle_envelope("S1", envelope("S1", 1, snapshotRequest={}), 2)
        snaps = sends(p.poll(2), "snapshot")
        self.assertEqual(len(snaps), 1)
        self.assertEqual((snaps[0]["snapshot"].get("items", []), snaps[0]["snapshot"]["sequence"]), ([], 2))

    def test_e1_nothing_is_published_after_cleared_shutdown(self):
        p, store = make()
        entry = store.put(descriptor("a", item_bytes(8)), item_bytes(8))
        p.shutdown(0)
        self.assertEqual(len([o for o in p.poll(0) if isinstance(o, EventBatchOut)]), 1)
        store.mark_ready(entry.key_id)
        self.assertEqual([o for o in p.poll(1) if isinstance(o, EventBatchOut)], [])

    def test_p8_a_consumers_new_epoch_is_judged_by_our_interval_until_its_new_hello(self):
        p, store = make(ProducerConfig(heartbeat_interval_ms=2000, heartbeat_misses=3))
        desc = put(store, "a")
        p.handle_envelope("C1", envelope("C1", 1, hello={**HELLO, "heartbeatIntervalMs": 60_000}), 0)
        self.assertIn("readGrant", ask(p, desc, 1, now=10, epoch=2))  # epoch 2, no Hello
        for t in range(1000, 7001, 1000):
            p.poll(t)
        self.assertEqual((p.stats()["peers"], p.stats()["pins"]), (0, 0))

    def test_i6_put_refuses_bytes_longer_than_size_bytes_storing_nothing(self):
        store = MemoryItemStore(100)
        desc = descriptor("a", item_bytes(10))
        with self.assertRaises(EctpError):
            store.put(desc, item_bytes(11))
        self.assertEqual(store.used_bytes(), 0)

    def test_p8_a_forgotten_consumers_greater_epoch_counts_though_its_message_is_refused_or_ignored(self):
        for body in ({"hello": {**HELLO, "fingerprint": {**FP, "model": "other"}}},  # refused: INCOMPATIBLE
                     {"hello": {**HELLO, "role": Role.PRODUCER}},  # ignored: another role
                     {"heartbeat": {"sequence": 1}}):  # ignored: no Hello of this epoch
            p, store = make(ProducerConfig(heartbeat_interval_ms=2000, heartbeat_misses=3))
            desc = put(store, "a")
            p.handle_envelope("C1", envelope("C1", 3, hello={**HELLO, "transportMetadata": b"\x03"}), 0)
            self.assertIn("readGrant", ask(p, desc, 1, epoch=3))
            for t in range(1000, 7001, 1000):
                p.poll(t)  # silent: gone, remembered at epoch 3
            self.assertEqual((p.stats()["peers"], p.stats()["pins"]), (0, 0))
            p.handle_envelope("C1", envelope("C1", 4, **body), 7001)
            p.poll(7001)
            self.assertEqual(ask(p, desc, 2, now=7002, epoch=3), {})  # a late request of the dead epoch: stale
            self.assertEqual((p.stats()["peers"], p.stats()["pins"]), (0, 0))

    def test_p8_a_known_consumers_greater_epoch_in_a_malformed_request_voids_its_old_grants(self):
        # A ReadRequest or ReplayRequest ignored as malformed still shows the greater epoch: the old
        # epoch's grants are released and its late request is stale (as ProducerCore in TypeScript).
        for malformed in ("readRequest", "replayRequest"):
            p, store = make()
            desc = put(store, "a")
            body = {"readRequest": {"attemptId": 0, "key": desc["key"]}} if malformed == "readRequest" else {"replayRequest": {"fromSequence": 2 ** 53}}
            self.assertIn("readGrant", ask(p, desc, 1, epoch=3))
            p.handle_envelope("C1", envelope("C1", 4, **body), 1)  # malformed: ignored, but epoch 4 is seen
            self.assertEqual((p.stats()["grants"], p.stats()["pins"], p.stats()["ignoredMessages"]), (0, 0, 1))
            self.assertEqual(ask(p, desc, 2, now=2, epoch=3), {})  # a late request of the dead epoch: stale
            self.assertEqual((p.stats()["grants"], p.stats()["pins"], p.stats()["ignoredMessages"]), (0, 0, 2))

    def test_p8_c10_heartbeats_of_a_forgotten_consumers_greater_epoch_with_no_hello_make_no_record(self):
        p, _ = make(ProducerConfig(heartbeat_interval_ms=2000, heartbeat_misses=3))
        p.handle_envelope("C1", envelope("C1", 1, hello=HELLO), 0)
        p.poll(0)
        p.poll(7000)  # silent: gone, remembered at epoch 1
        for t in (7100, 7200):
            p.handle_envelope("C1", envelope("C1", 2, heartbeat={"sequence": 1}), t)
            p.poll(t)
        self.assertEqual(p.stats()["peers"], 0)
        self.assertEqual(sends(p.poll(9300), "heartbeat"), [])

    def test_p8_a_second_hello_of_the_same_consumer_epoch_is_answered_and_changes_nothing(self):
        p, store = make(ProducerConfig(heartbeat_interval_ms=2000, heartbeat_misses=3))
        desc = put(store, "a")
        p.handle_envelope("C1", envelope("C1", 1, hello={**HELLO, "transportMetadata": b"\x01"}), 0)
        self.assertEqual(len(sends(p.poll(0), "hello")), 1)
        dup = {**HELLO, "heartbeatIntervalMs": 60_000, "capabilities": ["events.v1"], "transportMetadata": b"\x02"}
        p.handle_envelope("C1", envelope("C1", 1, hello=dup), 0)
        self.assertEqual(len(sends(p.poll(0), "hello")), 1)  # answered: its answer may have been lost
        self.assertIn("readGrant", ask(p, desc, 1))
        put(store, "b")
        self.assertEqual(sends(p.poll(1), "eventBatch"), [])  # not subscribed by the duplicate
        for t in range(1000, 7001, 1000):
            p.poll(t)  # judged by the first Hello's interval: gone after 6 s
        self.assertEqual((p.stats()["peers"], p.stats()["pins"]), (0, 0))

    def test_v1_a_hello_of_an_unknown_role_value_is_refused_internal(self):
        p, _ = make()
        p.handle_envelope("C1", envelope("C1", 1, hello={**HELLO, "role": 9}), 0)
        self.assertEqual([e["handshakeReject"]["reason"] for e in sends(p.poll(0), "handshakeReject")], [Reason.INTERNAL])
        self.assertEqual(p.stats()["peers"], 0)

    def test_p7_an_absent_item_asked_for_at_another_epoch_is_epoch_changed(self):
        p, _ = make()
        self.assertEqual(reason(ask(p, descriptor("zz", b"x"), 1, expectedEpoch=6)), Reason.EPOCH_CHANGED)

    def test_p7_a_newer_attempt_naming_another_epoch_changes_no_grant(self):
        p, store = make()
        desc = put(store, "a")
        self.assertIn("readGrant", ask(p, desc, 1))
        self.assertEqual(reason(ask(p, desc, 2, expectedEpoch=6)), Reason.EPOCH_CHANGED)
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (1, 1))

    def test_v1_a_read_complete_of_an_absent_or_unknown_status_releases_the_grant(self):
        for status in (0, 9):
            p, store = make()
            grant = ask(p, put(store, "a"), 1)["readGrant"]
            p.handle_envelope("C1", envelope("C1", 1, readComplete={"grantId": grant["grantId"], "status": status}), 1)
            self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (0, 0))


    # SPEC.md 4.1, 4.2 [P7]: a refused Hello's metadata is loaded before the refusal, once per epoch of
    # a known consumer: a second refusal, and the accepted Hello after them, connect nothing again
    def test_p7_a_known_consumers_refused_hellos_connect_it_once_per_epoch(self):
        p, store = make()
        desc = put(store, "a")
        ask(p, desc, 1)  # C1 is known at epoch 1, never greeted, never connected
        wrong = {**HELLO, "fingerprint": {**FP, "model": "another"}, "transportMetadata": b"\x07"}

        def hello(body: dict, now: int) -> list:
            p.handle_envelope("C1", envelope("C1", 1, hello=body), now)
            return p.poll(now)

        with self.assertLogs("ectp.producer", level="WARNING") as logged:
            out = hello(wrong, 1)
        self.assertEqual(len(logged.output), 1)  # the refusal in the producer's own log, with whom and why
        self.assertIn("consumer's Hello refused", logged.output[0])
        self.assertIn("peer=C1 reason=INCOMPATIBLE", logged.output[0])
        self.assertEqual([o for o in out if isinstance(o, ConnectPeer)], [ConnectPeer("C1", 1, b"\x07")])
        self.assertEqual(sends(out, "handshakeReject")[0]["handshakeReject"]["reason"], Reason.INCOMPATIBLE)
        self.assertEqual([o for o in hello(wrong, 2) if isinstance(o, ConnectPeer)], [])
        accepted = hello({**HELLO, "transportMetadata": b"\x07"}, 3)
        self.assertEqual([o for o in accepted if isinstance(o, ConnectPeer)], [])
        self.assertEqual(len(sends(accepted, "hello")), 1)


if __name__ == "__main__":
    unittest.main()

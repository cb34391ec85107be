"""ProducerCore and MemoryItemStore rules, one test per requirement id (SPEC.md section 8-9)."""

import unittest
from unittest import mock

from ectp_py import codec
from ectp_py.config import ProducerConfig
from ectp_py.outputs import ConnectPeer, EventBatchOut
from ectp_py.producer import ProducerCore
from ectp_py.store import MemoryItemStore
from ectp_py.wire import MAX_SHAPE_DIMS, Completion, EctpError, Reason, Role, item_key_id

from .helpers import FP, descriptor, envelope, item_bytes, sends


def make(config: ProducerConfig | None = None, capacity: int = 1 << 20):
    store = MemoryItemStore(capacity)
    return ProducerCore("P1", 5, dict(FP), store, config=config), store


def put(store: MemoryItemStore, name: str, size: int = 32, ready: bool = True) -> dict:
    entry = store.put(descriptor(name, item_bytes(size)), item_bytes(size))
    if ready:
        store.mark_ready(entry.key_id)
    return entry.descriptor


def request(p: ProducerCore, desc: dict, attempt: int, now: float, consumer: str = "C1", epoch: int = 1) -> dict:
    p.handle_envelope(consumer, envelope(consumer, epoch, readRequest={"attemptId": attempt, "key": desc["key"]}), now)
    outs = p.poll(now)
    replies = sends(outs, "readGrant") + sends(outs, "readReject")
    return replies[0] if replies else {}


class ProducerTest(unittest.TestCase):
    # [P1][I1] the engine's store failed, not the consumer's message: the request gets its one answer
    def test_p1_i1_a_store_lookup_that_raises_answers_the_read_request_internal(self):
        p, store = make()
        desc = put(store, "a")
        with mock.patch.object(store, "get", side_effect=RuntimeError("disk gone")), \
                self.assertLogs("ectp.producer", "ERROR") as logs:
            r = request(p, desc, 1, 0)["readReject"]
        self.assertEqual((r["reason"], r["detail"]), (Reason.INTERNAL, "store could not look the item up"))
        self.assertNotIn('ectp_producer_ignored_messages_total{reason="malformed"}', +p.metrics)
        self.assertTrue(any("store failed to look up a requested item" in m and "disk gone" in m for m in logs.output), logs.output)

    def test_p1_not_ready_and_not_found_are_not_conflated(self):
        p, store = make()
        pending = put(store, "a", ready=False)
        r = request(p, pending, 1, 0)["readReject"]
        self.assertEqual((r["reason"], r["retryable"], r["retryAfterMs"]), (Reason.NOT_READY, True, 50))
        r = request(p, descriptor("zz", b"x"), 2, 0)["readReject"]
        self.assertEqual((r["reason"], r["retryable"]), (Reason.NOT_FOUND, False))

    def test_p2_i3_one_pin_per_grant_released_once_by_its_holder(self):
        p, store = make()
        desc = put(store, "a")
        g1 = request(p, desc, 1, 0, consumer="C1")["readGrant"]
        request(p, desc, 1, 0, consumer="C2")
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (2, 2))
        p.handle_envelope("C2", envelope("C2", 1, readComplete={"grantId": g1["grantId"], "status": Completion.OK}), 1)
        self.assertEqual(p.stats()["pins"], 2)  # another consumer's ACK is ignored
        for _ in range(2):
            p.handle_envelope("C1", envelope("C1", 1, readComplete={"grantId": g1["grantId"], "status": Completion.OK}), 1)
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (1, 1))

    def test_p2_p8_an_ack_from_before_a_restart_releases_no_grant_of_the_new_epoch(self):
        before, store = make()
        old = request(before, put(store, "a"), 1, 0)["readGrant"]
        # The restart: epoch 6, a fresh store; the same consumer asks it for b, then its late ACK of grant `old` comes.
        store = MemoryItemStore(1 << 20)
        after = ProducerCore("P1", 6, dict(FP), store)
        data = item_bytes(32)
        entry = store.put(descriptor("b", data, epoch=6), data)
        store.mark_ready(entry.key_id)
        fresh = request(after, entry.descriptor, 2, 10)["readGrant"]
        self.assertNotEqual(fresh["grantId"], old["grantId"])
        after.handle_envelope("C1", envelope("C1", 1, readComplete={"grantId": old["grantId"], "status": Completion.OK}), 20)
        self.assertEqual((after.stats()["grants"], after.stats()["pins"]), (1, 1))

    def test_p3_lease_expires_and_duplicate_attempt_gets_no_new_grant(self):
        p, store = make(ProducerConfig(lease_ms=1000))
        desc = put(store, "a")
        first = request(p, desc, 4, 0)["readGrant"]
        # SPEC.md 4.3: a duplicate gets the same grant again with the lease it has left; no new pin.
        again = request(p, desc, 4, 10)["readGrant"]
        self.assertEqual(again, {**first, "leaseMs": 990})
        self.assertEqual(p.metrics["ectp_producer_duplicate_requests_total"], 1)
        self.assertEqual(request(p, desc, 3, 10), {})  # stale: ignored and counted
        self.assertEqual(request(p, desc, 4, 999.5), {})  # a duplicate with under 1 ms left: nothing
        self.assertEqual((p.stats()["grants"], p.stats()["pins"], p.stats()["ignoredMessages"]), (1, 1, 1))
        p.poll(999)
        self.assertEqual(p.stats()["pins"], 1)
        p.poll(1000)
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (0, 0))

    def test_p4_announce_never_pins(self):
        p, store = make()
        desc = put(store, "a")
        a = p.announce(item_key_id(desc["key"]))
        self.assertEqual(a["version"]["major"], 1)
        self.assertEqual(store.total_pins(), 0)

    def test_p5_quota_rejects_overloaded(self):
        p, store = make(ProducerConfig(max_grants_per_consumer=1))
        a, b = put(store, "a"), put(store, "b")
        request(p, a, 1, 0)
        r = request(p, b, 2, 0)["readReject"]
        self.assertEqual((r["reason"], r["retryable"]), (Reason.OVERLOADED, True))

    def test_p5_releasing_a_grant_gives_its_bytes_back_to_the_quota(self):
        p, store = make(ProducerConfig(max_pinned_bytes_per_consumer=32))
        a, b = put(store, "a"), put(store, "b")
        g = request(p, a, 1, 0)["readGrant"]
        self.assertEqual(request(p, b, 2, 0)["readReject"]["reason"], Reason.OVERLOADED)
        p.handle_envelope("C1", envelope("C1", 1, readComplete={"grantId": g["grantId"], "status": Completion.OK}), 1)
        self.assertIn("readGrant", request(p, b, 3, 1))

    def test_p3_p5_a_grant_past_its_lease_deadline_is_not_live_even_before_a_poll(self):
        p, store = make(ProducerConfig(lease_ms=1000, max_grants_per_consumer=1))
        a, b = put(store, "a"), put(store, "b")
        request(p, a, 1, 0)
        # Handed over at the deadline, before any poll (a driver hands messages over first): granted.
        g2 = request(p, b, 2, 1000)["readGrant"]
        self.assertEqual((p.stats()["grants"], store.total_pins()), (1, 1))
        # The attempt of an expired grant again is no duplicate: granted afresh under a new id.
        g3 = request(p, b, 2, 2000.5)["readGrant"]
        self.assertNotEqual(g3["grantId"], g2["grantId"])
        self.assertEqual((p.stats()["grants"], store.total_pins()), (1, 1))

    def test_i3_a_store_reset_releases_every_grant_without_a_store_bug_alarm(self):
        p, store = make()
        a, b = put(store, "a"), put(store, "b")
        request(p, a, 1, 0)
        request(p, b, 1, 0, consumer="C2")
        with self.assertNoLogs("ectp.producer", level="WARNING"):
            store.clear("reset")
        self.assertEqual((p.stats()["grants"], store.total_pins()), (0, 0))
        # The store dropped the items with their pins: nothing to unpin, so no [I3] store-bug count.
        self.assertEqual(p.metrics["ectp_producer_unpin_errors_total"], 0)
        self.assertEqual(p.metrics['ectp_producer_releases_total{cause="cleared"}'], 2)

    def test_p7_a_store_that_refuses_to_pin_gets_the_request_an_internal_reject_not_silence(self):
        p, store = make()
        a = put(store, "a")

        def refuse(key_id):
            raise RuntimeError("store bug")

        store.pin = refuse
        with self.assertLogs("ectp.producer", level="ERROR"):
            r = request(p, a, 1, 0)
        self.assertEqual(r["readReject"]["reason"], Reason.INTERNAL)
        self.assertEqual(p.stats()["grants"], 0)

    def test_p5_an_item_larger_than_the_byte_quota_is_rejected_internal_not_overloaded(self):
        p, store = make(ProducerConfig(max_pinned_bytes_per_consumer=100))
        big = put(store, "big", size=200)
        r = request(p, big, 1, 0)["readReject"]
        self.assertEqual((r["reason"], r.get("retryable", False)), (Reason.INTERNAL, False))

    def test_p3_replaced_grants_do_not_pile_up_in_the_lease_timers_behind_an_older_live_one(self):
        p, store = make()
        a, b = put(store, "a"), put(store, "b")
        request(p, a, 1, 0)  # an older grant that stays live
        for attempt in range(2, 20_002):  # each newer attempt for b replaces its older grant [P3]
            request(p, b, attempt, 1)
        self.assertEqual(p.stats()["grants"], 2)
        self.assertLess(len(p._leases._heap), 1_000)  # (20,001 before: every replaced lease kept)

    def test_p7_shutdown_says_until_when_the_memory_it_held_must_not_be_reused(self):
        p, store = make()
        a, b = put(store, "a"), put(store, "b")
        request(p, a, 1, 0)  # a grant whose lease ends at 30000
        request(p, b, 2, 5)  # one whose lease ends at 30005: the latest (the clock never goes back, so issued later)
        self.assertEqual(p.shutdown(10), 30_005)
        self.assertEqual(p.shutdown(20), 30_005)  # the same on every call
        idle, _ = make()
        self.assertIsNone(idle.shutdown(0))

    def test_p2_p7_a_grant_released_because_its_consumer_was_declared_gone_still_counts_for_shutdown(self):
        p, store = make()
        a = put(store, "a")
        request(p, a, 1, 0)  # its lease ends at 30000
        p.handle_peer_unreachable("C1", 100)  # released at once: its one-sided read may still run [P2]
        self.assertEqual(p.stats()["grants"], 0)
        self.assertEqual(p.shutdown(200), 30_000)

    def test_i3_an_unpin_the_store_refuses_is_counted_and_logged(self):
        p, store = make()
        a = put(store, "a")
        grant = request(p, a, 1, 0)["readGrant"]

        def refuse(key_id):
            raise EctpError("INTERNAL", "store lost the pin")

        store.unpin = refuse
        with self.assertLogs("ectp.producer", level="WARNING") as logged:
            p.handle_envelope("C1", envelope("C1", 1, readComplete={"grantId": grant["grantId"], "status": Completion.OK}), 1)
            p.poll(1)
        self.assertEqual(p.metrics["ectp_producer_unpin_errors_total"], 1)
        self.assertIn("store refused to unpin", logged.output[0])
        self.assertEqual(p.stats()["grants"], 0)  # the grant is released all the same

    def test_i1_a_store_listener_that_raises_does_not_undo_the_change_or_stop_the_producer(self):
        p, store = make()

        def broken(change):
            raise RuntimeError("listener bug")

        store.subscribe(broken)
        with self.assertLogs("ectp.store", level="ERROR") as logged:
            a = put(store, "a")  # put and mark_ready go through
        self.assertIn("a store listener raised; the change stands", logged.output[0])
        self.assertEqual(request(p, a, 1, 0)["readGrant"]["attemptId"], 1)

    def test_p6_only_ready_unpinned_items_are_evicted(self):
        p, store = make(capacity=64)
        a = put(store, "a")
        request(p, a, 1, 0)  # pinned
        put(store, "b", ready=False)
        with self.assertRaises(Exception):
            put(store, "c")
        self.assertIsNotNone(store.get(item_key_id(a["key"])))

    def test_p6_a_listener_acting_on_the_store_while_a_put_evicts_cannot_push_it_past_capacity(self):
        for act in ("pin the next victim", "put another item"):
            store = MemoryItemStore(96)
            a, b = put(store, "a"), put(store, "b")
            put(store, "c", ready=False)
            answers: list[bool] = []

            def on_change(change, act=act, b=b):
                if change[0] != "removed" or answers:
                    return
                try:
                    if act == "pin the next victim":
                        store.pin(item_key_id(b["key"]))
                    else:
                        put(store, "x", ready=False)
                    answers.append(True)
                except EctpError:
                    answers.append(False)  # gone by then / no room left

            store.subscribe(on_change)
            put(store, "big", size=64, ready=False)  # evicts a and b
            self.assertEqual(answers, [False], act)
            self.assertEqual(store.used_bytes(), 96, act)
            self.assertIsNone(store.get(item_key_id(a["key"])), act)

    def test_p6_e1_an_item_a_listener_puts_again_during_its_eviction_is_announced_removed_then_stored(self):
        store = MemoryItemStore(100)
        a, b = put(store, "a"), put(store, "b")
        put(store, "c", ready=False)
        events: list[str] = []
        names = {item_key_id(a["key"]): "a", item_key_id(b["key"]): "b"}

        def on_change(change):
            key = change[1]["key"] if change[0] == "stored" else change[1]
            events.append(f"{change[0]} {names.get(item_key_id(key), '?')}")
            if change[0] == "removed" and len(events) == 1:
                put(store, "b", size=2)  # the key whose eviction is announced next

        store.subscribe(on_change)
        put(store, "big", size=66, ready=False)  # evicts a and b
        self.assertEqual(events, ["removed a", "removed b", "stored b"])
        self.assertIsNotNone(store.get(item_key_id(b["key"])))

    def test_p7_a_read_request_without_a_key_is_rejected_internal_not_incompatible(self):
        p, _store = make()
        p.handle_envelope("C1", envelope("C1", 1, readRequest={"attemptId": 1}), 0)
        rejects = sends(p.poll(0), "readReject")
        self.assertEqual(rejects[0]["readReject"]["reason"], Reason.INTERNAL)

    def test_e2_a_replay_from_past_2_53_is_malformed(self):
        p, _store = make()
        p.handle_envelope("C1", envelope("C1", 1, replayRequest={"fromSequence": 2**53}), 0)
        self.assertEqual(sends(p.poll(0), "replayUnavailable") + sends(p.poll(0), "eventBatch"), [])
        self.assertEqual(p.stats()["ignoredMessages"], 1)
        # [C10] ignored means no subscription either: the next batch does not go to C1
        put(_store, "a")
        self.assertEqual(sends(p.poll(1), "eventBatch"), [])

    def test_p8_c10_a_malformed_request_from_a_subscriber_declared_gone_does_not_bring_it_back(self):
        for body in ({"replayRequest": {"fromSequence": -1}}, {"readRequest": {"attemptId": 0, "key": {}}}):
            with self.subTest(body=body):
                p, store = make()
                p.handle_envelope("S1", envelope("S1", 1, hello={"role": Role.CONSUMER, "fingerprint": dict(FP)}), 0)
                p.handle_envelope("S1", envelope("S1", 1, snapshotRequest={}), 0)
                p.poll(0)
                p.handle_peer_unreachable("S1", 1)
                p.poll(1)
                p.handle_envelope("S1", envelope("S1", 1, **body), 2)
                self.assertEqual((p.stats()["peers"], p.stats()["ignoredMessages"]), (0, 1))
                put(store, "a")  # neither reconnected nor subscribed again
                self.assertEqual(sends(p.poll(3), "eventBatch"), [])
                # a well-formed message of the same epoch still brings it back, subscription included [P8]
                p.handle_envelope("S1", envelope("S1", 1, heartbeat={}), 4)
                put(store, "b")
                self.assertEqual([e["eventBatch"]["sequence"] for e in sends(p.poll(4), "eventBatch")], [2])

    def test_i1_p3_a_clock_reading_earlier_than_the_latest_is_read_as_the_latest(self):
        p, store = make(ProducerConfig(lease_ms=1000))
        desc = put(store, "a")
        p.poll(10_000)
        self.assertIn("readGrant", request(p, desc, 1, 5_000))  # a reading from before the latest
        p.poll(10_500)
        self.assertEqual(p.stats()["grants"], 1)  # the lease runs from 10 000, not 5 000
        p.poll(11_000)
        self.assertEqual(p.stats()["grants"], 0)

    def test_p6_a_locate_callback_that_fills_the_store_or_puts_the_same_item_makes_the_put_fail(self):
        for what, expected in (("fills", "OVERLOADED"), ("same", "INVALID_ARGUMENT")):
            inner = [True]
            holder: list[MemoryItemStore] = []

            def locate(_key, _data, what=what, inner=inner, holder=holder):
                if inner[0]:
                    inner[0] = False
                    put(holder[0], "a" if what == "same" else "b", size=32 if what == "same" else 48, ready=False)
                return b"loc"

            store = MemoryItemStore(64, locate=locate)
            holder.append(store)
            with self.assertRaises(EctpError) as ctx:
                put(store, "a", size=32, ready=False)
            self.assertEqual(ctx.exception.code, expected, what)
            self.assertEqual(store.used_bytes(), 32 if what == "same" else 48, what)

    def test_p7_fingerprint_checked_before_lookup_and_shutdown_rejects(self):
        p, store = make()
        desc = put(store, "a")
        other = {**desc, "key": {**desc["key"], "fingerprint": {**FP, "model": "other"}}}
        self.assertEqual(request(p, other, 1, 0)["readReject"]["reason"], Reason.INCOMPATIBLE)
        request(p, desc, 2, 0)
        p.shutdown(1)
        self.assertEqual(p.stats()["pins"], 0)
        self.assertEqual(request(p, desc, 3, 2)["readReject"]["reason"], Reason.SHUTTING_DOWN)

    def test_p8_silent_consumer_is_gone_and_its_grants_released(self):
        p, store = make()
        request(p, put(store, "a"), 1, 0)
        p.poll(5999)
        self.assertEqual(p.stats()["grants"], 1)
        p.poll(6000)  # 3 x 2000 ms without a message
        self.assertEqual((p.stats()["grants"], p.stats()["peers"]), (0, 0))
        self.assertEqual(p.metrics['ectp_producer_peers_gone_total{cause="silent",grants="released"}'], 1)

    def test_p8_an_idle_consumer_going_quiet_is_counted_apart(self):
        p, _ = make()
        hello = {"role": Role.CONSUMER, "fingerprint": dict(FP), "heartbeatIntervalMs": 2000}
        p.handle_envelope("R", envelope("R", 1, hello=hello), 0)
        p.poll(6000)  # idle: it heartbeats only producers it has business with
        self.assertEqual(p.stats()["peers"], 0)
        self.assertEqual(p.metrics['ectp_producer_peers_gone_total{cause="silent",grants="none"}'], 1)
        self.assertEqual(p.metrics['ectp_producer_peers_gone_total{cause="silent",grants="released"}'], 0)

    def test_p8_c10_a_message_from_an_older_epoch_of_a_peer_declared_gone_is_stale(self):
        p, store = make()
        hello = {"role": Role.CONSUMER, "capabilities": ["events.v1"], "fingerprint": dict(FP), "heartbeatIntervalMs": 2000}
        p.handle_envelope("R", envelope("R", 2, hello=hello), 0)
        p.poll(6000)  # silent for 3 intervals: gone (remembered at epoch 2)
        self.assertEqual(p.stats()["peers"], 0)
        p.handle_envelope("R", envelope("R", 1, snapshotRequest={}), 6001)  # a late one of epoch 1
        self.assertEqual(sends(p.poll(6001), "snapshot"), [])
        self.assertEqual(p.stats()["ignoredMessages"], 1)
        p.handle_envelope("R", envelope("R", 2, heartbeat={"sequence": 1}), 6002)  # epoch 2 is back: still subscribed
        put(store, "a")
        self.assertEqual(len(sends(p.poll(6003), "eventBatch")), 1)

    def test_p8_e1_a_refused_hello_of_a_newer_epoch_still_ends_the_old_epoch(self):
        p, store = make()
        hello = {"role": Role.CONSUMER, "capabilities": ["events.v1"], "fingerprint": dict(FP), "heartbeatIntervalMs": 2000}
        p.handle_envelope("R", envelope("R", 1, hello=hello), 0)
        request(p, put(store, "a"), 1, 1, consumer="R")
        self.assertEqual(p.stats()["grants"], 1)
        p.handle_envelope("R", envelope("R", 2, hello={**hello, "fingerprint": {**FP, "model": "other"}}), 2)
        self.assertEqual(len(sends(p.poll(2), "handshakeReject")), 1)
        self.assertEqual(p.stats()["grants"], 0)  # the old epoch's grant is void [P8]
        put(store, "b")
        self.assertEqual(sends(p.poll(3), "eventBatch"), [])  # and its subscription [E1]

    def test_p8_a_producer_role_hello_of_a_newer_epoch_is_ignored_but_ends_the_old_epoch(self):
        p, store = make()
        request(p, put(store, "a"), 1, 0)
        self.assertEqual(p.stats()["grants"], 1)
        p.handle_envelope("C1", envelope("C1", 2, hello={"role": Role.PRODUCER, "fingerprint": dict(FP)}), 1)
        self.assertEqual((p.stats()["grants"], p.stats()["pins"], p.stats()["ignoredMessages"]), (0, 0, 1))

    def test_c10_p8_a_heartbeat_from_an_unknown_peer_is_counted(self):
        p, _ = make()
        p.handle_envelope("X", envelope("X", 1, heartbeat={"sequence": 1}), 0)
        self.assertEqual((p.stats()["peers"], p.stats()["ignoredMessages"]), (0, 1))

    def test_p8_i4_gone_peers_are_bounded_by_bytes_too(self):
        p, _ = make()
        big = bytes(4 << 20)
        for i in range(20):
            hello = {"role": Role.CONSUMER, "fingerprint": dict(FP), "transportMetadata": big}
            p.handle_envelope(f"c{i}", envelope(f"c{i}", 1, hello=hello), 0)
            p.handle_peer_unreachable(f"c{i}", 1)
        p.poll(1)
        p.handle_envelope("c0", envelope("c0", 1, heartbeat={"sequence": 1}), 2)  # its metadata was dropped
        self.assertEqual([o for o in p.poll(2) if isinstance(o, ConnectPeer)], [])
        p.handle_envelope("c19", envelope("c19", 1, heartbeat={"sequence": 1}), 3)  # still whole
        self.assertEqual([o.peer_id for o in p.poll(3) if isinstance(o, ConnectPeer)], ["c19"])

    def test_p8_a_hello_interval_of_0_means_2000_ms(self):
        p, _ = make(ProducerConfig(heartbeat_interval_ms=500))
        hello = {"role": Role.CONSUMER, "capabilities": ["events.v1"], "fingerprint": dict(FP)}  # heartbeatIntervalMs 0
        p.handle_envelope("R", envelope("R", 1, hello=hello), 0)
        p.poll(5999)
        self.assertEqual(p.stats()["peers"], 1)  # judged by 3 x 2000 ms, not 3 x 500 ms
        p.poll(6000)
        self.assertEqual(p.stats()["peers"], 0)

    def test_p8_a_hello_interval_counts_as_at_most_60_s(self):
        p, _ = make(ProducerConfig(heartbeat_interval_ms=500))
        hello = {"role": Role.CONSUMER, "fingerprint": dict(FP), "heartbeatIntervalMs": 4_000_000_000}
        p.handle_envelope("R", envelope("R", 1, hello=hello), 0)
        p.poll(179_999)
        self.assertEqual(p.stats()["peers"], 1)
        p.poll(180_000)  # 3 x 60 s, not 3 x 46 days
        self.assertEqual(p.stats()["peers"], 0)

    def test_e1_e2_events_are_sequenced_and_replayed(self):
        p, store = make()
        put(store, "a")
        put(store, "b")
        batches = [o.batch for o in p.poll(0) if isinstance(o, EventBatchOut)]
        self.assertEqual([b["sequence"] for b in batches], [1])
        self.assertEqual(len(batches[0]["events"]), 2)
        p.handle_envelope("S1", envelope("S1", 1, replayRequest={"fromSequence": 1}), 1)
        self.assertEqual(sends(p.poll(1), "eventBatch")[0]["eventBatch"]["sequence"], 1)
        p.handle_envelope("S1", envelope("S1", 1, snapshotRequest={}), 2)
        self.assertEqual(sends(p.poll(2), "snapshot"), [])  # [E2] within resend_interval_ms of the replay: it waits
        snap = sends(p.poll(501), "snapshot")[0]["snapshot"]
        self.assertEqual((snap["sequence"], len(snap["items"])), (1, 2))

    def test_e1_e2_items_held_ready_before_the_producer_was_built_are_published_in_its_first_batch(self):
        store = MemoryItemStore(1 << 20)
        a = put(store, "a")  # a warm start: the store was filled first
        put(store, "b", ready=False)  # not ready: not published
        p = ProducerCore("P1", 5, dict(FP), store)
        batches = [o.batch for o in p.poll(0) if isinstance(o, EventBatchOut)]
        self.assertEqual([(b["sequence"], [e["stored"]["item"] for e in b["events"]]) for b in batches], [(1, [a])])
        p.handle_envelope("S1", envelope("S1", 1, snapshotRequest={}), 1)
        snap = sends(p.poll(1), "snapshot")[0]["snapshot"]
        self.assertEqual((snap["sequence"], snap["items"]), (1, [a]))

    def test_e2_one_peers_replays_and_snapshots_resend_at_most_once_per_resend_interval(self):
        p, store = make()
        for n in ("a", "b", "c"):
            put(store, n)
            p.poll(0)
        ask = lambda at, **body: p.handle_envelope("S1", envelope("S1", 1, **body), at)  # noqa: E731
        def seqs(at: float) -> list:
            out = p.poll(at)
            return [s["eventBatch"]["sequence"] for s in sends(out, "eventBatch")] + ["snapshot" for _ in sends(out, "snapshot")]

        ask(10, replayRequest={"fromSequence": 1})
        self.assertEqual(seqs(10), [1, 2, 3])
        ask(11, replayRequest={"fromSequence": 3})
        ask(12, replayRequest={"fromSequence": 2})
        self.assertEqual(seqs(509), [])
        self.assertEqual(p.next_deadline(), 510)
        self.assertEqual(seqs(510), [2, 3])  # together, from the lowest sequence asked
        self.assertEqual(p.metrics["ectp_producer_deferred_resends_total"], 2)
        for at in (600, 601, 602):
            ask(at, snapshotRequest={})
        ask(603, replayRequest={"fromSequence": 1})
        self.assertEqual(seqs(1009), [])
        self.assertEqual(seqs(1010), ["snapshot"])  # one snapshot covers them all
        # a request handled once the interval has passed takes what is owed with it
        ask(1100, replayRequest={"fromSequence": 1})  # owed
        ask(1510, replayRequest={"fromSequence": 3})
        self.assertEqual(seqs(1510), [1, 2, 3])
        ask(1600, snapshotRequest={})  # owed
        ask(2010, replayRequest={"fromSequence": 2})
        self.assertEqual(seqs(2010), ["snapshot"])
        self.assertEqual(seqs(2600), [])
        unbounded, store = make(ProducerConfig(resend_interval_ms=0))
        unbounded.handle_envelope("S1", envelope("S1", 1, snapshotRequest={}), 1)
        unbounded.handle_envelope("S1", envelope("S1", 1, snapshotRequest={}), 1)
        self.assertEqual(len(sends(unbounded.poll(1), "snapshot")), 2)
        with self.assertRaises(EctpError) as e:
            ProducerConfig(resend_interval_ms=1001).validate()
        self.assertEqual(e.exception.code, "INVALID_CONFIG")

    def test_e1_e2_batches_and_snapshots_respect_the_batch_size_bound(self):
        probe = put(make()[1], "a")
        size = len(codec.encode("ectp.v1.ItemDescriptor", probe))
        event = len(codec.encode("ectp.v1.Event", {"stored": {"item": probe}}))
        p, store = make(ProducerConfig(max_batch_bytes=2 * event))
        descs = [put(store, n) for n in ("a", "b", "c")]
        batches = [o.batch for o in p.poll(0) if isinstance(o, EventBatchOut)]
        self.assertEqual([(b["sequence"], len(b["events"])) for b in batches], [(1, 2), (2, 1)])
        p, store = make(ProducerConfig(max_batch_bytes=2 * size))
        descs = [put(store, n) for n in ("a", "b", "c")]
        p.poll(0)
        p.handle_envelope("S1", envelope("S1", 1, snapshotRequest={}), 1)
        parts = [s["snapshot"] for s in sends(p.poll(1), "snapshot")]
        seq = p.stats()["eventSequence"]
        self.assertEqual(
            parts,
            [
                {"sequence": seq, "items": descs[:2], "part": 0, "parts": 2, "snapshotId": 1},
                {"sequence": seq, "items": descs[2:], "part": 1, "parts": 2, "snapshotId": 1},
            ],
        )

    def test_e1_e2_batches_and_parts_are_cut_at_the_repeated_element_limit(self):
        p, store = make(capacity=1 << 24)
        shape = [1] * MAX_SHAPE_DIMS
        count = 1_100
        for n in range(count):
            d = dict(descriptor(f"i{n}", item_bytes(32)), shape=shape)
            store.mark_ready(store.put(d, item_bytes(32)).key_id)
        fit = codec.MAX_REPEATED_ELEMENTS // (1 + MAX_SHAPE_DIMS)  # 1 + 64 elements per item
        batches = [o.batch for o in p.poll(0) if isinstance(o, EventBatchOut)]
        self.assertEqual([len(b["events"]) for b in batches], [fit, count - fit])
        p.handle_envelope("S1", envelope("S1", 1, snapshotRequest={}), 1)
        parts = [s["snapshot"] for s in sends(p.poll(1), "snapshot")]
        self.assertEqual([(len(x["items"]), x["part"], x["parts"]) for x in parts], [(fit, 0, 2), (count - fit, 1, 2)])
        for x in parts:
            codec.decode("ectp.v1.Snapshot", codec.encode("ectp.v1.Snapshot", x))  # within the limit


class GrantsDuringClearTest(unittest.TestCase):
    # [P2][I3] an engine listener that reacts to a reset (subscribed before the producer) by writing an
    # item and handing the producer a ReadRequest for it: the grant made then keeps its pin and stays
    # live when the producer hears the Cleared (it was released without its pin: pins 1, grants 0)
    def test_p2_i3_a_grant_made_while_a_clear_is_announced_keeps_its_pin(self):
        store = MemoryItemStore(1 << 20)
        holder: dict = {}

        def refill(change) -> None:
            if change[0] == "cleared":
                holder["desc"] = put(store, "late")
                holder["grant"] = request(holder["p"], holder["desc"], 1, 1)

        store.subscribe(refill)
        holder["p"] = p = ProducerCore("P1", 5, dict(FP), store)
        store.clear("reset")
        self.assertIn("readGrant", holder["grant"])
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (1, 1))
        grant_id = holder["grant"]["readGrant"]["grantId"]
        p.handle_envelope("C1", envelope("C1", 1, readComplete={"grantId": grant_id, "status": Completion.OK}), 2)
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (0, 0))


class LimitsTest(unittest.TestCase):
    def test_c2_at_most_64_shape_dimensions(self):
        from ectp_py.wire import validate_descriptor

        d = descriptor("a", item_bytes(32))
        ok, _ = validate_descriptor(dict(d, shape=[1] * MAX_SHAPE_DIMS), 1 << 20)
        self.assertIsNotNone(ok)
        bad, why = validate_descriptor(dict(d, shape=[1] * (MAX_SHAPE_DIMS + 1)), 1 << 20)
        self.assertIsNone(bad)
        self.assertEqual(why, "shape has 65 dimensions; at most 64 are allowed")

    def test_descriptor_over_64_kib_refused_by_the_store(self):
        from ectp_py.store import MAX_DESCRIPTOR_BYTES

        store = MemoryItemStore(1 << 20)
        d = descriptor("a", item_bytes(32))
        with self.assertRaisesRegex(Exception, "over the 65536 a producer may publish"):
            store.put(dict(d, location=b"x" * MAX_DESCRIPTOR_BYTES), item_bytes(32))
        store.put(dict(d, location=b"x" * 1000), item_bytes(32))

    def test_e1_max_batch_bytes_at_most_8_mib(self):
        ProducerConfig(max_batch_bytes=8 << 20).validate()
        with self.assertRaisesRegex(Exception, "max_batch_bytes must be at most 8388608"):
            ProducerConfig(max_batch_bytes=(8 << 20) + 1).validate()

    def test_p8_an_item_of_another_producer_or_epoch_is_not_announced_published_or_granted(self):
        p, store = make()
        p.poll(0)
        keys = {}
        for name, other in (("old", {"epoch": 4}), ("new", {"epoch": 6}), ("theirs", {"producerId": "B"})):
            d = {**descriptor(name, item_bytes(32)), **other}
            entry = store.put(d, item_bytes(32))
            store.mark_ready(entry.key_id)
            keys[name] = (entry.key_id, entry.descriptor)
        for key_id, _ in keys.values():
            self.assertIsNone(p.announce(key_id))
        self.assertEqual([o for o in p.poll(1) if isinstance(o, EventBatchOut)], [])  # not published
        reply = request(p, keys["theirs"][1], 1, 2)
        self.assertEqual(reply["readReject"]["reason"], Reason.INTERNAL)
        self.assertEqual(reply["readReject"]["detail"], 'the store holds the item, but it was stored as producer "B" epoch 5, and this producer is "P1" epoch 5')
        self.assertEqual(p.metrics["ectp_producer_unpublishable_items_total"], 3)

    def test_p7_an_item_of_another_fingerprint_is_not_announced_or_published(self):
        # every read of it would be refused INCOMPATIBLE: announcing it sends consumers to wait for nothing
        p, store = make()
        p.poll(0)
        d = descriptor("other", item_bytes(32))
        d = {**d, "key": {**d["key"], "fingerprint": {**FP, "model": "another"}}}
        entry = store.put(d, item_bytes(32))
        store.mark_ready(entry.key_id)
        self.assertIsNone(p.announce(entry.key_id))
        self.assertEqual([o for o in p.poll(1) if isinstance(o, EventBatchOut)], [])  # not published
        self.assertEqual(p.metrics["ectp_producer_unpublishable_items_total"], 1)
        own = put(store, "A")
        self.assertIsNotNone(p.announce(item_key_id(own["key"])))

    def test_e2_a_snapshot_request_publishes_pending_changes_first(self):
        # [E2] "the producer first publishes any changes not yet in a batch": a change made since the
        # last poll goes out as batch 1 before the snapshot, whose sequence is then 1 (not 0 with A in it)
        p, store = make()
        put(store, "A")
        p.handle_envelope("S1", envelope("S1", 1, snapshotRequest={}), 1)
        outs = p.poll(1)
        batches = [o.batch["sequence"] for o in outs if isinstance(o, EventBatchOut)]
        self.assertEqual(batches, [1])
        snaps = sends(outs, "snapshot")
        self.assertEqual(len(snaps), 1)
        self.assertEqual(snaps[0]["snapshot"]["sequence"], 1)
        self.assertEqual(len(snaps[0]["snapshot"]["items"]), 1)


    def test_p8_constructor_refuses_an_unusable_id_epoch_or_fingerprint(self):
        for ident, epoch, fp, pattern in (("", 5, FP, "id must be a non-empty string"),
                                          (None, 5, FP, "id must be a non-empty string"),
                                          ("P1", 0, FP, "epoch must be a positive integer"),
                                          ("P1", 5.0, FP, "epoch must be a positive integer"),
                                          ("P1", 5, {"dtype": -1}, "fingerprint is malformed"),
                                          ("P1", 5, [FP], "fingerprint is malformed")):
            with self.subTest(ident=ident, epoch=epoch, fp=fp), self.assertRaisesRegex(EctpError, pattern) as ctx:
                ProducerCore(ident, epoch, fp, MemoryItemStore(1024))
            self.assertEqual(ctx.exception.code, "INVALID_CONFIG")

    def test_p3_p5_config_fields_are_integers_at_least_their_floor_and_the_wire_ones_fit_32_bits(self):
        for field, value in (("lease_ms", 0), ("heartbeat_misses", 0), ("max_grants_per_consumer", 1.5),
                             ("max_pinned_bytes_per_consumer", True), ("retry_after_ms", -1), ("resend_interval_ms", "5")):
            with self.subTest(field=field, value=value), self.assertRaisesRegex(EctpError, f"config.{field} must be an integer >= ") as ctx:
                ProducerConfig(**{field: value}).validate()
            self.assertEqual(ctx.exception.code, "INVALID_CONFIG")
        ProducerConfig(retry_after_ms=0, resend_interval_ms=0).validate()  # 0 is allowed for these two
        for field in ("lease_ms", "retry_after_ms", "heartbeat_interval_ms"):
            with self.subTest(field=field), self.assertRaisesRegex(EctpError, f"config.{field} must fit in 32 bits"):
                ProducerConfig(**{field: 2**32}).validate()
            ProducerConfig(**{field: 2**32 - 1}).validate()

    def test_i1_a_fault_while_handling_a_message_costs_that_message_only(self):
        p, store = make()
        desc = put(store, "a")
        with mock.patch.object(p, "_dispatch", side_effect=RuntimeError("planted bug")), \
                self.assertLogs("ectp.producer", level="ERROR") as logged:
            p.handle_envelope("C1", envelope("C1", 1, readRequest={"attemptId": 1, "key": desc["key"]}), 0)
        self.assertIn("planted bug", logged.output[0])
        self.assertEqual(p.stats()["ignoredMessages"], 1)
        self.assertIn("readGrant", request(p, desc, 2, 1))  # the next message is handled as usual


    def test_p7_an_expected_epoch_or_size_that_is_not_a_uint64_is_refused(self):
        p, store = make()
        desc = put(store, "a")

        def answer(attempt: int, **fields) -> dict:
            p.handle_envelope("C1", envelope("C1", 1, readRequest={"attemptId": attempt, "key": desc["key"], **fields}), 0)
            return sends(p.poll(0), "readReject")[0]["readReject"]

        for attempt, value in enumerate((-1, "5", True, 5.0), start=1):
            with self.subTest(expectedEpoch=value):
                self.assertEqual(answer(attempt, expectedEpoch=value)["reason"], Reason.EPOCH_CHANGED)
        for attempt, value in enumerate((-32, "32", True), start=10):
            with self.subTest(expectedSizeBytes=value):
                self.assertEqual(answer(attempt, expectedSizeBytes=value)["reason"], Reason.INTERNAL)
        self.assertIn("readGrant", request(p, desc, 20, 0))  # absent (0): no check


    def test_p8_foreign_items_are_counted_once_each_in_a_memory_of_1024_keys(self):
        # The set of keys already logged is bounded: past 1024 it starts afresh, so a key counted long
        # ago is counted again (and its log line written again) rather than the set growing without end.
        p, store = make(capacity=1 << 22)
        p.poll(0)
        keys = []
        for i in range(1025):
            entry = store.put(descriptor(f"f{i}", item_bytes(1), producer="B"), item_bytes(1))
            keys.append(entry.key_id)
        with self.assertLogs("ectp.producer", level="ERROR"):
            for key_id in keys[:1024]:
                self.assertIsNone(p.announce(key_id))
            self.assertIsNone(p.announce(keys[0]))  # already logged: not counted again
            self.assertEqual(p.metrics["ectp_producer_unpublishable_items_total"], 1024)
            self.assertIsNone(p.announce(keys[1024]))  # the 1025th: the memory starts afresh with it
            self.assertIsNone(p.announce(keys[0]))  # so the first is counted again
        self.assertEqual(p.metrics["ectp_producer_unpublishable_items_total"], 1026)


if __name__ == "__main__":
    unittest.main()

"""ProducerCore over an engine's item store that raises, as the TypeScript core contains it
(producer/boundaries.test.ts "a store that throws", store-callbacks.test.ts, grants-during-clear.test.ts):
logged, never raised into the engine's call [I1]; a snapshot the store cannot list stays owed [E2]; a
store whose ``subscribe`` raises is refused INVALID_CONFIG [E1]; a grant's pin is released by key only
while the store holds the entry it pinned [P2][I3]."""

import dataclasses
import unittest
from unittest import mock

from ectp_py.config import ProducerConfig
from ectp_py.outputs import EventBatchOut
from ectp_py.producer import ProducerCore
from ectp_py.store import MemoryItemStore
from ectp_py.wire import CLEARED_RESET, CLEARED_SHUTDOWN, Completion, EctpError, item_key_id

from .helpers import FP, descriptor, envelope, item_bytes, sends
from .test_producer import make, put, request

DOWN = RuntimeError("backend timeout")


def snapshots(outs) -> list[int]:
    """The item count of each Snapshot in ``outs``."""
    return [len(s["snapshot"].get("items", [])) for s in sends(outs, "snapshot")]


def ask_snapshot(p: ProducerCore, now: float) -> None:
    p.handle_envelope("S1", envelope("S1", 1, snapshotRequest={}), now)


class UnsubscribeRaisesStore(MemoryItemStore):
    """A store whose unsubscribe function raises."""

    def subscribe(self, listener):
        super().subscribe(listener)

        def unsubscribe() -> None:
            raise RuntimeError("listener table locked")

        return unsubscribe


class CopyingStore(MemoryItemStore):
    """A store whose lookups build a new entry, descriptor included, each time."""

    def get(self, key_id):
        e = super().get(key_id)
        return None if e is None else dataclasses.replace(e, descriptor=dict(e.descriptor))


def events(outs) -> list[dict]:
    """The events of the EventBatch outputs in ``outs``."""
    return [e for o in outs if isinstance(o, EventBatchOut) for e in o.batch["events"]]


class StoreRaisesTest(unittest.TestCase):
    # [I1][P4] announce() over a store whose get raises: None, logged, and the engine's call goes on
    def test_i1_announce_over_a_store_whose_get_raises_returns_none_and_logs_it(self):
        p, store = make()
        key_id = item_key_id(put(store, "a")["key"])
        self.assertIsNotNone(p.announce(key_id))
        with mock.patch.object(store, "get", side_effect=DOWN), self.assertLogs("ectp.producer", "ERROR") as logs:
            self.assertIsNone(p.announce(key_id))
        self.assertTrue(any("store failed to look up an item to announce" in m and "backend timeout" in m
                            for m in logs.output), logs.output)

    # [I1][I3] stats() over a store whose total_pins raises: pins reads -1, logged
    def test_i1_stats_over_a_store_whose_total_pins_raises_reads_pins_minus_one(self):
        p, store = make()
        with mock.patch.object(store, "total_pins", side_effect=RuntimeError("backend gone")), \
                self.assertLogs("ectp.producer", "ERROR") as logs:
            stats = p.stats()
        self.assertEqual((stats["grants"], stats["pins"]), (0, -1))
        self.assertTrue(any("store failed to count its pins" in m and "backend gone" in m for m in logs.output), logs.output)

    # [I1][P7] shutdown() over a store whose unsubscribe raises: logged, and the shutdown completes
    def test_i1_p7_shutdown_over_a_store_whose_unsubscribe_raises_logs_it_and_completes(self):
        store = UnsubscribeRaisesStore(1 << 20)
        p = ProducerCore("P1", 5, dict(FP), store)
        with self.assertLogs("ectp.producer", "ERROR") as logs:
            self.assertIsNone(p.shutdown(1))
        self.assertTrue(any("store failed to unsubscribe the producer" in m and "listener table locked" in m
                            for m in logs.output), logs.output)
        self.assertTrue(p.stats()["shuttingDown"])
        put(store, "late")  # still heard (the listener stayed), never published [E1]
        self.assertEqual(events(p.poll(2)), [{"cleared": {"cause": CLEARED_SHUTDOWN}}])

    # [E1] a store whose subscribe raises is refused INVALID_CONFIG naming it, not with the store's own error
    def test_e1_a_store_whose_subscribe_raises_is_refused_invalid_config_naming_it(self):
        store = MemoryItemStore(1 << 20)
        cause = RuntimeError("listener table locked")
        with mock.patch.object(store, "subscribe", side_effect=cause), self.assertRaises(EctpError) as raised:
            ProducerCore("P1", 5, dict(FP), store)
        self.assertEqual(raised.exception.code, "INVALID_CONFIG")
        self.assertIn("store.subscribe raised", raised.exception.message)
        self.assertIn("listener table locked", raised.exception.message)
        self.assertIs(raised.exception.__cause__, cause)

    # [E1][I1] items the store listed at start before its listing raised are published, and the log says how many
    def test_e1_i1_items_listed_at_start_before_the_listing_raised_are_published_and_the_log_counts_them(self):
        store = MemoryItemStore(1 << 20)
        held = put(store, "a")

        def listing():
            yield store.get(item_key_id(held["key"]))
            raise DOWN

        with mock.patch.object(store, "ready_items", listing), self.assertLogs("ectp.producer", "ERROR") as logs:
            p = ProducerCore("P1", 5, dict(FP), store)
        self.assertEqual([e["stored"]["item"]["key"] for e in events(p.poll(0))], [held["key"]])
        self.assertTrue(any("the 1 listed before the failure are published as Stored" in m and "backend timeout" in m
                            for m in logs.output), logs.output)

    # [I3] an unpin that raises something other than EctpError is contained and counted like a refusal
    def test_i3_an_unpin_that_raises_any_error_is_counted_and_the_release_completes(self):
        p, store = make()
        g = request(p, put(store, "a"), 1, 0)["readGrant"]
        with mock.patch.object(store, "unpin", side_effect=RuntimeError("driver error")), \
                self.assertLogs("ectp.producer", "WARNING"):
            p.handle_envelope("C1", envelope("C1", 1, readComplete={"grantId": g["grantId"], "status": Completion.OK}), 1)
        self.assertEqual(p.stats()["grants"], 0)
        self.assertEqual(p.metrics["ectp_producer_unpin_errors_total"], 1)
        self.assertNotIn('ectp_producer_ignored_messages_total{reason="malformed"}', +p.metrics)


class SnapshotListingRaisesTest(unittest.TestCase):
    # [I1][E2] no snapshot, nothing raised from poll, the answer owed (not counted malformed) until the store lists
    def test_i1_e2_a_snapshot_the_store_cannot_list_stays_owed_and_is_answered_once_it_can(self):
        p, store = make(ProducerConfig(resend_interval_ms=100))
        put(store, "a")
        p.poll(0)
        with mock.patch.object(store, "ready_items", side_effect=DOWN), self.assertLogs("ectp.producer", "ERROR") as logs:
            ask_snapshot(p, 0)  # answered at once: the listing fails
            self.assertEqual(snapshots(p.poll(0)), [])
            ask_snapshot(p, 10)  # deferred: answered by a poll, whose listing fails too
            self.assertEqual(snapshots(p.poll(100)), [])
        self.assertEqual(p.stats()["ignoredMessages"], 0)  # the store failed, not the message
        self.assertTrue(any("store failed to list its ready items for a snapshot" in m and "backend timeout" in m
                            for m in logs.output), logs.output)
        self.assertEqual(snapshots(p.poll(199)), [])  # a resend interval after the last try
        self.assertEqual(snapshots(p.poll(200)), [1])
        self.assertEqual(snapshots(p.poll(400)), [])  # answered: no longer owed

    # [E2][I1] with resend_interval_ms 0, a failed listing is tried again 500 ms later, not at every poll
    # (a driver polling at next_deadline() would spin)
    def test_e2_i1_with_resend_interval_0_a_failed_listing_is_retried_500_ms_later_not_at_every_poll(self):
        p, store = make(ProducerConfig(resend_interval_ms=0, heartbeat_interval_ms=10_000))
        put(store, "a")
        p.poll(0)
        with mock.patch.object(store, "ready_items", side_effect=DOWN) as listing, self.assertLogs("ectp.producer", "ERROR"):
            ask_snapshot(p, 0)
            self.assertEqual(snapshots(p.poll(0)), [])
            self.assertEqual(p.next_deadline(), 500)
            for t in (0, 1, 250, 499):
                p.poll(t)
            self.assertEqual(listing.call_count, 1)  # not asked again before the retry is due
        self.assertEqual(snapshots(p.poll(499)), [])
        self.assertEqual(snapshots(p.poll(500)), [1])
        ask_snapshot(p, 501)  # answered, later requests go out at once again (no resend interval)
        self.assertEqual(snapshots(p.poll(501)), [1])


class ReleaseDuringClearTest(unittest.TestCase):
    """[P2][I3] A store reset announced to an engine listener subscribed before the producer, which writes
    the item again under the same key and hands the producer a ReadRequest for it (a grant on the new entry)
    and then the end of a grant made before the reset: that release must not take the new grant's pin."""

    LEASE_END = 1 + ProducerConfig().lease_ms

    def check(self, release, at: float) -> None:
        store = MemoryItemStore(32)  # room for one item
        holder: dict = {}

        def refill(change) -> None:
            if change[0] == "cleared":
                desc = put(store, "a")
                holder["p"].handle_envelope("C2", envelope("C2", 1, readRequest={"attemptId": 1, "key": desc["key"]}), 2)
                release(holder["p"], holder["first"])

        store.subscribe(refill)
        holder["p"] = p = ProducerCore("P1", 5, dict(FP), store)
        desc = put(store, "a")
        holder["first"] = request(p, desc, 1, 1, consumer="C1")["readGrant"]["grantId"]
        store.clear("reset")
        self.assertTrue(sends(p.poll(at), "readGrant"))
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (1, 1))  # [I3]
        self.assertEqual(store.get(item_key_id(desc["key"])).pins, 1)
        with self.assertRaises(EctpError) as raised:  # it needs item a's room: refused, a not evicted [P6]
            store.put(descriptor("b", item_bytes(32)), item_bytes(32))
        self.assertEqual(raised.exception.code, "OVERLOADED")

    def test_p2_i3_a_grant_of_an_entry_a_clear_removed_released_by_its_late_ack_leaves_the_new_entrys_pin(self):
        self.check(lambda p, grant_id: p.handle_envelope(
            "C1", envelope("C1", 1, readComplete={"grantId": grant_id, "status": Completion.OK}), 2), 2)

    def test_p2_i3_a_grant_of_an_entry_a_clear_removed_released_by_its_lease_leaves_the_new_entrys_pin(self):
        self.check(lambda p, _: p.handle_envelope("C2", envelope("C2", 1, heartbeat={}), self.LEASE_END), self.LEASE_END)


class StoreEntryCheckTest(unittest.TestCase):
    """How the producer tells whether the store still holds a grant's pin [I3]."""

    # [I1][I3] a lookup that raises while a clear is announced: every grant is released (the store dropped
    # their pins with the items) and the Cleared event is published
    def test_i1_i3_a_lookup_that_raises_while_a_clear_is_announced_releases_every_grant_and_publishes_cleared(self):
        p, store = make()
        request(p, put(store, "a"), 1, 0)
        p.poll(0)
        with mock.patch.object(store, "get", side_effect=DOWN):
            store.clear("reset")
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (0, 0))
        self.assertEqual(events(p.poll(1)), [{"cleared": {"cause": CLEARED_RESET}}])

    # [P2][I3] a store that builds a new entry per lookup still has each released grant's pin removed
    def test_p2_i3_a_store_building_a_new_entry_per_lookup_is_unpinned_on_release(self):
        store = CopyingStore(1 << 20)
        p = ProducerCore("P1", 5, dict(FP), store)
        desc = put(store, "a")
        g1 = request(p, desc, 1, 0, consumer="C1")["readGrant"]
        request(p, desc, 1, 0, consumer="C2")
        p.handle_envelope("C1", envelope("C1", 1, readComplete={"grantId": g1["grantId"], "status": Completion.OK}), 1)
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (1, 1))

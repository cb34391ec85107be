"""Producer sequences the other tests left open: liveness and heartbeat timing [P8], the lease
boundary [P3], check order and shutdown [P7][V1], owed replays and snapshots and batch bounds
[E1][E2], counting what is ignored [C10]. Each test fails on a small change of the producer that
the other unit tests and the producer conformance cases let pass (found by mutation testing)."""

import unittest

from ectp_py.config import ProducerConfig
from ectp_py.outputs import ConnectPeer, DisconnectPeer, EventBatchOut
from ectp_py.producer import EVENTS_CAPABILITY, ProducerCore
from ectp_py.wire import Completion, Reason, Role, item_key_id

from .helpers import FP, descriptor, envelope, item_bytes, sends
from .test_producer import make, put, request

HELLO = {"role": Role.CONSUMER, "fingerprint": dict(FP), "capabilities": []}


def hello(p: ProducerCore, now: float, consumer: str = "C1", epoch: int = 1, **fields) -> list:
    p.handle_envelope(consumer, envelope(consumer, epoch, hello={**HELLO, **fields}), now)
    return p.poll(now)


def gone(outs) -> list:
    return [o for o in outs if isinstance(o, DisconnectPeer)]


class ProducerSequencesTest(unittest.TestCase):
    def test_p8_any_envelope_of_a_known_peer_counts_as_life_an_unexpected_body_too(self):
        """SPEC.md 4.7 - receipt of any valid envelope of a peer's current epoch is a sign of
        life, also one whose body a producer never receives (it is still ignored and counted)."""
        p, store = make()
        desc = put(store, "a")
        hello(p, 0)
        self.assertIn("readGrant", request(p, desc, 1, 0))
        p.handle_envelope("C1", envelope("C1", 1, readReject={"attemptId": 9, "reason": Reason.INTERNAL}), 4000)
        self.assertEqual(p.stats()["ignoredMessages"], 1)
        outs = p.poll(8000)  # silent since 0 would be gone at 6000; heard at 4000: alive until 10000
        self.assertEqual(gone(outs), [])
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (1, 1))
        self.assertEqual(len(gone(p.poll(10000))), 1)

    def test_e2_p8_what_an_old_epoch_asked_for_is_not_sent_to_the_new_epoch(self):
        """a peer's new epoch asks anew - a snapshot its old epoch was owed (deferred by the
        resend interval) is not sent to the new epoch, which never asked and is no subscriber [E1]."""
        p, store = make(ProducerConfig(resend_interval_ms=500))
        put(store, "a")
        hello(p, 0)
        p.handle_envelope("C1", envelope("C1", 1, snapshotRequest={}), 0)
        self.assertEqual(len(sends(p.poll(0), "snapshot")), 1)
        p.handle_envelope("C1", envelope("C1", 1, snapshotRequest={}), 100)  # deferred: owed at 500
        self.assertEqual(sends(p.poll(100), "snapshot"), [])
        p.handle_envelope("C1", envelope("C1", 2, heartbeat={"sequence": 1}), 200)  # C1 restarted
        self.assertEqual(sends(p.poll(600), "snapshot"), [])

    def test_p8_a_restored_peer_is_connected_once_though_its_hello_comes_again(self):
        """SPEC.md 4.1 - the transport loads a peer's metadata once per sender epoch: a peer
        restored from the gone table is connected again once, and a Hello of that same epoch
        arriving afterwards (applied afresh to the new record) connects nothing more."""
        p, store = make()
        outs = hello(p, 0, transportMetadata=b"md")
        self.assertEqual([o.peer_id for o in outs if isinstance(o, ConnectPeer)], ["C1"])
        self.assertEqual(len(gone(p.poll(6000))), 1)
        p.handle_envelope("C1", envelope("C1", 1, heartbeat={"sequence": 5}), 7000)  # back, same epoch
        self.assertEqual(len([o for o in p.poll(7000) if isinstance(o, ConnectPeer)]), 1)
        outs = hello(p, 7001, transportMetadata=b"md")
        self.assertEqual(len(sends(outs, "hello")), 1)
        self.assertEqual([o for o in outs if isinstance(o, ConnectPeer)], [])

    def test_v1_a_hello_of_role_unspecified_or_without_a_role_is_refused_internal(self):
        """SPEC.md 4.1 - ROLE_UNSPECIFIED (0, also an absent role) MUST be refused with a
        HandshakeReject of reason INTERNAL, and the unknown peer is not recorded [P7]."""
        p, _ = make()
        for h in ({**HELLO, "role": Role.UNSPECIFIED}, {"fingerprint": dict(FP)}):
            p.handle_envelope("C1", envelope("C1", 1, hello=h), 0)
            outs = p.poll(0)
            self.assertEqual([e["handshakeReject"]["reason"] for e in sends(outs, "handshakeReject")], [Reason.INTERNAL])
            self.assertEqual(sends(outs, "hello"), [])
            self.assertEqual(p.stats()["peers"], 0)

    def test_p3_a_grant_is_no_longer_live_exactly_at_its_lease_deadline(self):
        """[P3] a ReadRequest handled AT the deadline (before any poll) is neither a duplicate
        of the expired grant nor stale against it: the same attempt is granted afresh, and a lower
        attempt is answered too."""
        p, store = make(ProducerConfig(lease_ms=1000))
        a, b = put(store, "a"), put(store, "b")
        g1 = request(p, a, 5, 0)["readGrant"]
        g2 = request(p, a, 5, 1000)["readGrant"]  # same attempt, exactly at the deadline
        self.assertNotEqual(g1["grantId"], g2["grantId"])
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (1, 1))
        request(p, b, 7, 1000)
        self.assertIn("readGrant", request(p, b, 6, 2000))  # lower attempt, at b's deadline
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (1, 1))

    def test_p2_p3_c10_a_read_complete_at_the_lease_deadline_names_a_grant_already_released(self):
        """[P2][P3][C10] a ReadComplete handled AT the deadline (before any poll): the lease released
        the grant first, so the ACK names a grant no longer live and is ignored and counted."""
        p, store = make(ProducerConfig(lease_ms=1000))
        g = request(p, put(store, "a"), 1, 0)["readGrant"]
        p.handle_envelope("C1", envelope("C1", 1, readComplete={"grantId": g["grantId"], "status": Completion.OK}), 1000)
        self.assertEqual((p.stats()["grants"], p.stats()["pins"], p.stats()["ignoredMessages"]), (0, 0, 1))
        self.assertEqual(p.metrics["ectp_producer_lease_expired_total"], 1)

    def test_p3_a_grant_past_its_lease_deadline_is_released_by_its_lease_whatever_else_releases_the_rest(self):
        """[P3] peer loss, a consumer restart or shutdown handled at or after a grant's lease
        deadline, before any poll: that grant is released (and counted) by its lease, the live one
        for the other cause; shutdown's reuse time counts only the grant still live."""
        actions = {
            "peer_gone": lambda p: p.handle_peer_unreachable("C1", 1000),
            "epoch": lambda p: p.handle_envelope("C1", envelope("C1", 2, heartbeat={}), 1000),
            "shutdown": lambda p: self.assertEqual(p.shutdown(1000), 1500),
        }
        for cause, act in actions.items():
            with self.subTest(cause=cause):
                p, store = make(ProducerConfig(lease_ms=1000))
                request(p, put(store, "a"), 1, 0)
                request(p, put(store, "b"), 2, 500)
                act(p)
                self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (0, 0))
                self.assertEqual(p.metrics['ectp_producer_releases_total{cause="lease"}'], 1)
                self.assertEqual(p.metrics["ectp_producer_lease_expired_total"], 1)
                self.assertEqual(p.metrics[f'ectp_producer_releases_total{{cause="{cause}"}}'], 1)

    def test_p8_a_heartbeat_goes_out_exactly_one_interval_after_the_last(self):
        """[P8] section 4.7 - each peer hears from the producer at least once per interval: the
        heartbeat is due AT next_heartbeat, not after it."""
        p, store = make(ProducerConfig(lease_ms=100_000))
        hello(p, 0)
        self.assertIn("readGrant", request(p, put(store, "a"), 1, 0))  # business: a grant (SPEC.md 4.7)
        self.assertEqual(sends(p.poll(1999), "heartbeat"), [])
        self.assertEqual([e["heartbeat"]["sequence"] for e in sends(p.poll(2000), "heartbeat")], [1])
        self.assertEqual(sends(p.poll(3999), "heartbeat"), [])
        self.assertEqual(len(sends(p.poll(4000), "heartbeat")), 1)

    def test_p8_i4_a_peer_with_no_business_gets_no_heartbeat_and_goes_once_silent(self):
        """[P8][I4] SPEC.md 4.7 - heartbeats go only to peers the producer keeps grants, a
        subscription or an owed answer for; another engine that is also a producer (role BOTH)
        and holds nothing here is not kept talking, so both sides' records of each other go."""
        p, _ = make()
        hello(p, 0, consumer="X", role=Role.BOTH)
        beats = []
        for t in range(100, 10_001, 100):
            if t < 2000:
                p.handle_envelope("X", envelope("X", 1, heartbeat={"sequence": t}), t)  # its own, then silence
            beats += sends(p.poll(t), "heartbeat")
        self.assertEqual(beats, [])
        self.assertEqual(p.stats()["peers"], 0)

    def test_p8_a_subscriber_without_grants_is_heartbeated(self):
        """[P8] SPEC.md 4.7: a subscription is business; a subscriber that holds no grant still
        hears a heartbeat every interval (else it declares the producer silent and resubscribes)."""
        p, _ = make()
        hello(p, 0, consumer="S", capabilities=[EVENTS_CAPABILITY])
        p.poll(0)
        beats = []
        for t in range(100, 6001, 100):
            p.handle_envelope("S", envelope("S", 1, heartbeat={"sequence": t}), t)
            beats += sends(p.poll(t), "heartbeat")
        self.assertGreaterEqual(len(beats), 2)

    def test_p8_a_snapshot_leaves_out_items_of_another_producer_or_epoch(self):
        p, store = make()
        put(store, "mine")
        for name, other in (("old", {"epoch": 4}), ("theirs", {"producerId": "B"})):
            entry = store.put({**descriptor(name, item_bytes(32)), **other}, item_bytes(32))
            store.mark_ready(entry.key_id)
        p.poll(0)
        p.handle_envelope("S", envelope("S", 1, snapshotRequest={}), 1000)
        snap = sends(p.poll(1000), "snapshot")[0]["snapshot"]
        self.assertEqual([(d.get("producerId"), d.get("epoch")) for d in snap["items"]], [(p.id, p.epoch)])

    def test_p8_i4_the_gone_peers_table_keeps_at_most_1024_entries_dropping_the_oldest(self):
        """[I4] the table of gone peers is bounded (FORGOTTEN_PEERS_CAP = 1024, oldest dropped
        first): a heartbeat of the oldest of 1025 gone peers' epoch is from an unknown peer, one of
        the second oldest restores that peer."""
        from ectp_py.producer import FORGOTTEN_PEERS_CAP

        p, _ = make()
        n = FORGOTTEN_PEERS_CAP + 1
        for i in range(n):
            hello(p, 0, consumer=f"C{i}")
        self.assertEqual(len(gone(p.poll(6000))), n)
        self.assertEqual(p.stats()["peers"], 0)
        p.handle_envelope("C0", envelope("C0", 1, heartbeat={"sequence": 1}), 6001)
        self.assertEqual((p.stats()["peers"], p.stats()["ignoredMessages"]), (0, 1))
        p.handle_envelope("C1", envelope("C1", 1, heartbeat={"sequence": 1}), 6001)
        self.assertEqual((p.stats()["peers"], p.stats()["ignoredMessages"]), (1, 1))

    def test_e1_a_store_cleared_for_shutdown_publishes_cleared_shutdown_and_a_reset_cleared_reset(self):
        """[E1] the Cleared event carries the store's cause: SHUTDOWN for a region cleared
        for shutdown, RESET for a reset; each releases every grant without unpinning [I3]."""
        from ectp_py.wire import CLEARED_RESET, CLEARED_SHUTDOWN

        for cause, want in (("shutdown", CLEARED_SHUTDOWN), ("reset", CLEARED_RESET)):
            p, store = make()
            a = put(store, "a")
            request(p, a, 1, 0)
            store.clear(cause)
            batches = [o.batch for o in p.poll(1) if isinstance(o, EventBatchOut)]
            self.assertEqual([e["cleared"]["cause"] for b in batches for e in b["events"]], [want])
            self.assertEqual((p.stats()["grants"], p.stats()["pins"], p.stats()["pinnedBytes"]), (0, 0, 0))

    def test_e1_a_peer_that_sent_a_replay_request_is_a_subscriber(self):
        """[E1] subscribers are the peers whose Hello listed events.v1 AND the peers that
        sent a ReplayRequest (even one with nothing to replay)."""
        p, store = make()
        hello(p, 0)  # no events.v1
        p.handle_envelope("C1", envelope("C1", 1, replayRequest={"fromSequence": 1}), 1)
        self.assertEqual(sends(p.poll(1), "eventBatch"), [])  # nothing published yet
        put(store, "a")
        self.assertEqual([e["eventBatch"]["sequence"] for e in sends(p.poll(2), "eventBatch")], [1])

    def test_e1_e2_a_batch_or_part_of_exactly_65536_elements_is_not_cut(self):
        """[E1][E2] events (items) go into one batch (part) while their elements sum to AT MOST
        65,536: 1,024 items of 1 + 63 elements fill a batch exactly; the 1,025th starts the next."""
        from ectp_py import codec

        p, store = make(capacity=1 << 24)
        per = codec.MAX_REPEATED_ELEMENTS // 64  # 1024 items of 64 elements each
        for n in range(per + 1):
            d = dict(descriptor(f"i{n}", item_bytes(32)), shape=[1] * 63)
            store.mark_ready(store.put(d, item_bytes(32)).key_id)
        batches = [o.batch for o in p.poll(0) if isinstance(o, EventBatchOut)]
        self.assertEqual([len(b["events"]) for b in batches], [per, 1])
        p.handle_envelope("S1", envelope("S1", 1, snapshotRequest={}), 1)
        parts = [s["snapshot"] for s in sends(p.poll(1), "snapshot")]
        self.assertEqual([len(x["items"]) for x in parts], [per, 1])

    def test_p7_shutdown_keeps_memory_until_the_latest_lease_of_the_released_grants(self):
        """[P7] memory of the items held is not reused before the LAST released grant's lease
        would have ended, whatever order the grants were issued or released in."""
        p, store = make(ProducerConfig(lease_ms=1000))
        a, b = put(store, "a"), put(store, "b")
        request(p, a, 1, 0)
        request(p, b, 2, 500)     # later deadline: 1500
        request(p, a, 3, 700)     # replaces grant 1 (deadline 1700), issued last
        request(p, b, 4, 200 + 600, consumer="C2")  # deadline 1800, another consumer
        self.assertEqual(p.shutdown(900), 1800)
        self.assertEqual(p.shutdown(950), 1800)
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (0, 0))

    def test_p7_e1_a_second_shutdown_publishes_no_second_cleared(self):
        """shutdown() is idempotent [P7]: one Cleared(SHUTDOWN) event in all [E1]."""
        from ectp_py.wire import CLEARED_SHUTDOWN

        p, store = make()
        put(store, "a")
        p.poll(0)
        p.shutdown(1)
        p.shutdown(2)
        events = [e for o in p.poll(3) if isinstance(o, EventBatchOut) for e in o.batch["events"]]
        self.assertEqual(events, [{"cleared": {"cause": CLEARED_SHUTDOWN}}])

    def test_p7_p4_a_shutting_down_producer_announces_nothing(self):
        """a shutting-down producer grants nothing [P7], so it announces nothing either."""
        p, store = make()
        a = put(store, "a")
        kid = item_key_id(a["key"])
        self.assertIsNotNone(p.announce(kid))
        p.shutdown(0)
        self.assertIsNone(p.announce(kid))

    def test_p8_next_deadline_names_a_silent_peers_gone_time_before_its_next_heartbeat(self):
        """next_deadline() is the earliest of the lease, heartbeat AND silence deadlines: a
        peer heard at 0 is gone at 6000 even when its next heartbeat (after a late poll) is later."""
        p, _ = make()
        hello(p, 0)
        p.poll(5500)  # a late poll: heartbeat sent, next one due at 7500
        self.assertEqual(p.next_deadline(), 6000)
        self.assertEqual(len(gone(p.poll(6000))), 1)

    def test_c10_an_envelope_with_sender_epoch_0_or_past_2_53_is_malformed_and_ignored(self):
        """SPEC.md 3.7/3.8 - an epoch is a positive integer of at most 2^53 - 1: an envelope
        with sender epoch 0 (absent) or above is ignored and counted, and records no peer."""
        p, store = make()
        a = put(store, "a")
        for epoch in (0, 2**53, -1):
            p.handle_envelope("C1", envelope("C1", epoch, readRequest={"attemptId": 1, "key": a["key"]}), 0)
            self.assertEqual([o for o in p.poll(0) if hasattr(o, "envelope")], [])
        self.assertEqual((p.stats()["ignoredMessages"], p.stats()["peers"], p.stats()["grants"]), (3, 0, 0))

    def test_p8_the_producer_heartbeats_at_its_own_interval_whatever_the_peer_announced(self):
        """SPEC.md 4.7 - a peer sends at least one message in every heartbeat interval OF
        ITS OWN; the larger interval a consumer's Hello announced only judges that consumer's
        silence [P8]."""
        p, store = make(ProducerConfig(lease_ms=100_000))
        hello(p, 0, heartbeatIntervalMs=10_000)
        self.assertIn("readGrant", request(p, put(store, "a"), 1, 0))  # business: a grant (SPEC.md 4.7)
        seqs = []
        for t in range(1000, 12_001, 1000):
            p.handle_envelope("C1", envelope("C1", 1, heartbeat={"sequence": t}), t)  # C1 stays alive
            seqs += [(t, e["heartbeat"]["sequence"]) for e in sends(p.poll(t), "heartbeat")]
        self.assertEqual([t for t, _ in seqs], [2000, 4000, 6000, 8000, 10000, 12000])

    def test_e2_an_owed_replay_that_became_unavailable_is_answered_once(self):
        """[E2] a deferred ReplayRequest whose batches left the buffer meanwhile is answered
        with ONE ReplayUnavailable once the resend interval has passed, and is then settled: later
        polls resend nothing."""
        p, store = make(ProducerConfig(resend_interval_ms=500, replay_buffer_batches=2))
        for i, n in enumerate("abc"):
            put(store, n)
            p.poll(i)  # batches 1, 2, 3 (buffer: 2, 3)
        p.handle_envelope("S1", envelope("S1", 1, replayRequest={"fromSequence": 2}), 10)
        self.assertEqual([e["eventBatch"]["sequence"] for e in sends(p.poll(10), "eventBatch")], [2, 3])
        p.handle_envelope("S1", envelope("S1", 1, replayRequest={"fromSequence": 2}), 100)  # deferred
        for i, n in enumerate("de"):
            put(store, n)
            p.poll(200 + i)  # batches 4, 5 (buffer: 4, 5): 2 is gone
        outs = p.poll(510)
        self.assertEqual([e["replayUnavailable"] for e in sends(outs, "replayUnavailable")], [{"oldestAvailable": 4, "latest": 5}])
        for t in (600, 1100, 1700):
            self.assertEqual(sends(p.poll(t), "replayUnavailable") + sends(p.poll(t), "eventBatch"), [])

    def test_e2_a_snapshot_answer_settles_a_replay_owed_before_it(self):
        """[E2] a snapshot covers any replay: a ReplayRequest deferred by the resend interval
        and then covered by a SnapshotRequest answered at once is not replayed afterwards."""
        p, store = make(ProducerConfig(resend_interval_ms=500))
        put(store, "a")
        p.poll(0)
        p.handle_envelope("S1", envelope("S1", 1, replayRequest={"fromSequence": 1}), 1)
        self.assertEqual(len(sends(p.poll(1), "eventBatch")), 1)
        p.handle_envelope("S1", envelope("S1", 1, replayRequest={"fromSequence": 1}), 100)  # owed at 501
        p.handle_envelope("S1", envelope("S1", 1, snapshotRequest={}), 600)  # answered at once
        outs = p.poll(600)
        self.assertEqual(len(sends(outs, "snapshot")), 1)
        self.assertEqual(sends(outs, "eventBatch"), [])
        for t in (1100, 1600):
            self.assertEqual(sends(p.poll(t), "eventBatch"), [])

    def test_p8_a_consumers_restart_drops_its_old_epochs_transport_metadata(self):
        """[P8] state tied to a peer's older epoch (its transport metadata) is invalid once a
        greater epoch is seen: restored after going silent at the new epoch, which sent no Hello,
        the peer is not connected with the old epoch's metadata."""
        p, _ = make()
        self.assertEqual(len([o for o in hello(p, 0, transportMetadata=b"old") if isinstance(o, ConnectPeer)]), 1)
        p.handle_envelope("C1", envelope("C1", 2, heartbeat={"sequence": 1}), 1000)  # restarted
        self.assertEqual(len(gone(p.poll(7000))), 1)
        p.handle_envelope("C1", envelope("C1", 2, heartbeat={"sequence": 2}), 7001)  # back, same epoch 2
        self.assertEqual(p.stats()["peers"], 1)
        self.assertEqual([o for o in p.poll(7001) if isinstance(o, ConnectPeer)], [])

    def test_v1_p7_a_read_request_of_another_major_with_attempt_0_is_ignored_not_rejected(self):
        """[V1] another major's ReadRequest gets a VERSION reject only when its attempt id is
        valid (> 0); with attempt id 0 there is no attempt to answer: ignored and counted."""
        p, store = make()
        a = put(store, "a")
        for attempt, replies in ((0, []), (3, [Reason.VERSION])):
            env = dict(envelope("C1", 1, readRequest={"attemptId": attempt, "key": a["key"]}), version={"major": 2, "minor": 0})
            p.handle_envelope("C1", env, 0)
            self.assertEqual([e["readReject"]["reason"] for e in sends(p.poll(0), "readReject")], replies)
        self.assertEqual((p.stats()["ignoredMessages"], p.stats()["peers"]), (1, 0))

    def test_v1_a_read_request_of_another_major_is_rejected_even_when_another_of_its_fields_does_not_parse_as_ours(self):
        """[V1] "its body decodes as this major's ReadRequest": its sender is answered ReadReject
        VERSION at once, also when a field the other major uses differently (here field 21, a
        string where major 1 has a Snapshot) makes the whole envelope unreadable as ours."""
        p, _ = make()
        read_request = bytes.fromhex("0807" "12030a0101")  # attempt_id 7, key { content_hash 01 }
        env = bytes.fromhex("0a020802" "120143" "1805") + bytes([0x62, len(read_request)]) + read_request
        field21 = bytes.fromhex("aa0103616263")
        for data in (env, env + field21):
            p.handle_message("C", data, 0)
            self.assertEqual([(e["readReject"]["attemptId"], e["readReject"]["reason"]) for e in sends(p.poll(0), "readReject")], [(7, Reason.VERSION)])
        # Two ReadRequest bodies name no one attempt: ignored and counted.
        p.handle_message("C", env + env[9:] + field21, 0)
        self.assertEqual(sends(p.poll(0), "readReject"), [])

    def test_p7_a_malformed_fingerprint_is_incompatible_in_a_hello_and_in_a_read_request(self):
        """[P7] check 3 / SPEC.md 4.1 - a fingerprint that is malformed (a field past 2^53 - 1)
        differs from the producer's: a Hello carrying it is refused INCOMPATIBLE, and a ReadRequest
        whose key carries it is rejected INCOMPATIBLE (not INTERNAL)."""
        p, store = make()
        a = put(store, "a")
        bad = dict(FP, rowBytes=2**53)
        p.handle_envelope("C1", envelope("C1", 1, hello={**HELLO, "fingerprint": bad}), 0)
        self.assertEqual([e["handshakeReject"]["reason"] for e in sends(p.poll(0), "handshakeReject")], [Reason.INCOMPATIBLE])
        key = dict(a["key"], fingerprint=bad)
        p.handle_envelope("C1", envelope("C1", 1, readRequest={"attemptId": 1, "key": key}), 0)
        self.assertEqual([e["readReject"]["reason"] for e in sends(p.poll(0), "readReject")], [Reason.INCOMPATIBLE])

    def test_p8_i4_gone_peers_holding_exactly_the_byte_bound_keep_their_metadata(self):
        """[I4] the gone-peers table strips metadata only PAST its byte bound (64 MiB): 16 gone
        peers of 4 MiB each are exactly at it, so the oldest still reconnects with its metadata."""
        from ectp_py.producer import FORGOTTEN_PEERS_BYTES_CAP

        p, _ = make()
        big = bytes(4 << 20)
        n = FORGOTTEN_PEERS_BYTES_CAP // len(big)
        for i in range(n):
            p.handle_envelope(f"c{i}", envelope(f"c{i}", 1, hello={**HELLO, "transportMetadata": big}), 0)
            p.handle_peer_unreachable(f"c{i}", 1)
        p.poll(1)
        p.handle_envelope("c0", envelope("c0", 1, heartbeat={"sequence": 1}), 2)
        self.assertEqual([o.peer_id for o in p.poll(2) if isinstance(o, ConnectPeer)], ["c0"])

    def test_p8_i4_a_peer_gone_and_back_many_times_keeps_its_metadata(self):
        """[I4] the byte bound counts what the gone-peers table HOLDS: a peer restored from it
        takes its bytes out, so one 4 MiB peer gone and back 20 times never reaches the 64 MiB
        bound and reconnects with its metadata every time."""
        p, _ = make()
        big = bytes(4 << 20)
        p.handle_envelope("c0", envelope("c0", 1, hello={**HELLO, "transportMetadata": big}), 0)
        p.poll(0)
        for i in range(1, 21):
            p.handle_peer_unreachable("c0", 10 * i)
            p.handle_envelope("c0", envelope("c0", 1, heartbeat={"sequence": i}), 10 * i + 1)
            self.assertEqual([o.peer_id for o in p.poll(10 * i + 1) if isinstance(o, ConnectPeer)], ["c0"], i)

    def test_p8_i4_a_gone_peers_newer_epoch_frees_its_old_metadata_bytes(self):
        """[I4] when a gone peer shows a greater epoch its entry keeps only the epoch: the old
        epoch's metadata bytes leave the byte count, so 17 such peers of 4 MiB do not push a later
        gone peer's metadata out."""
        p, _ = make()
        big = bytes(4 << 20)
        for i in range(17):
            p.handle_envelope(f"c{i}", envelope(f"c{i}", 1, hello={**HELLO, "transportMetadata": big}), 0)
            p.handle_peer_unreachable(f"c{i}", 1)
            p.handle_envelope(f"c{i}", envelope(f"c{i}", 2, heartbeat={"sequence": 1}), 2)  # restarted, no Hello yet
        p.handle_envelope("z", envelope("z", 1, hello={**HELLO, "transportMetadata": big}), 3)
        p.handle_peer_unreachable("z", 4)
        p.poll(4)
        p.handle_envelope("z", envelope("z", 1, heartbeat={"sequence": 1}), 5)
        self.assertEqual([o.peer_id for o in p.poll(5) if isinstance(o, ConnectPeer)], ["z"])

    def test_e2_a_replay_merged_with_an_owed_one_past_the_buffer_says_what_is_available(self):
        """[E2] a ReplayRequest answered together with an owed one whose batches left the
        buffer sends ReplayUnavailable with the real oldest buffered sequence (never 0 while the
        buffer holds batches), then the batches it can replay."""
        p, store = make(ProducerConfig(resend_interval_ms=500, replay_buffer_batches=2))
        for i, n in enumerate("abc"):
            put(store, n)
            p.poll(i)  # batches 1, 2, 3 (buffer: 2, 3)
        p.handle_envelope("S1", envelope("S1", 1, replayRequest={"fromSequence": 3}), 10)
        self.assertEqual([e["eventBatch"]["sequence"] for e in sends(p.poll(10), "eventBatch")], [3])
        p.handle_envelope("S1", envelope("S1", 1, replayRequest={"fromSequence": 2}), 100)  # deferred: owed 2
        for i, n in enumerate("de"):
            put(store, n)
            p.poll(200 + i)  # batches 4, 5 (buffer: 4, 5)
        p.handle_envelope("S1", envelope("S1", 1, replayRequest={"fromSequence": 5}), 400)
        self.assertEqual(sends(p.poll(400), "replayUnavailable"), [])  # still within the interval
        p.handle_envelope("S1", envelope("S1", 1, replayRequest={"fromSequence": 5}), 600)
        outs = p.poll(600)
        self.assertEqual([e["replayUnavailable"] for e in sends(outs, "replayUnavailable")], [{"oldestAvailable": 4, "latest": 5}])
        self.assertEqual([e["eventBatch"]["sequence"] for e in sends(outs, "eventBatch")], [5])

    def test_next_deadline_is_now_while_store_changes_wait_to_be_published(self):
        """next_deadline() says "now" (the latest clock reading) while a store change waits
        to be published [E1] or an output waits to be taken, not the next heartbeat or lease."""
        p, store = make()
        hello(p, 0)
        p.poll(100)
        self.assertEqual(p.next_deadline(), 2000)
        put(store, "a")
        self.assertEqual(p.next_deadline(), 100)
        p.poll(100)
        self.assertEqual(p.next_deadline(), 2000)
        p.handle_envelope("C1", envelope("C1", 1, snapshotRequest={}), 150)  # a reply waits
        self.assertEqual(p.next_deadline(), 150)

    def test_p8_the_producers_hello_announces_its_configured_heartbeat_interval(self):
        """SPEC.md 4.1 - a Hello's heartbeat_interval_ms is the interval its sender heartbeats
        at (0 would mean 2000): a producer configured for 500 ms says 500."""
        p, _ = make(ProducerConfig(heartbeat_interval_ms=500))
        self.assertEqual([e["hello"]["heartbeatIntervalMs"] for e in sends(hello(p, 0), "hello")], [500])

    def test_e1_the_producers_hello_lists_events_v1(self):
        """SPEC.md 4.1 - in a producer's Hello, events.v1 says it publishes events [E1] (the
        reference producers do, as the TypeScript one)."""
        p, _ = make()
        self.assertEqual([e["hello"]["capabilities"] for e in sends(hello(p, 0), "hello")], [["events.v1"]])

    def test_e1_an_unknown_capability_does_not_subscribe(self):
        """SPEC.md 4.1 - unknown capability names MUST be ignored: only events.v1 in a Hello
        makes its sender a subscriber [E1]."""
        p, store = make()
        hello(p, 0, capabilities=["events.v2", "x.y"])
        put(store, "a")
        self.assertEqual(sends(p.poll(1), "eventBatch"), [])
        hello(p, 2, consumer="C2", capabilities=["x.y", "events.v1"])
        put(store, "b")
        self.assertEqual([o.peer_id for o in p.poll(3) if hasattr(o, "envelope") and "eventBatch" in o.envelope], ["C2"])

    def test_c10_i1_an_envelope_or_a_read_request_that_is_not_a_message_is_ignored_and_counted(self):
        """[C10][I1] handle_envelope() with something that is not an envelope dict, or an
        envelope whose ReadRequest is not a message, is ignored AND counted; nothing is answered."""
        p, _ = make()
        for bad in (None, [], "x", 7):
            p.handle_envelope("C1", bad, 0)
        self.assertEqual(p.stats()["ignoredMessages"], 4)
        for rr in ([1], "x", 3):
            p.handle_envelope("C1", envelope("C1", 1, readRequest=rr), 0)
        self.assertEqual([o for o in p.poll(0) if hasattr(o, "envelope")], [])
        self.assertEqual(p.stats()["ignoredMessages"], 7)

    def test_c10_a_hello_that_is_not_a_message_is_ignored_and_counted(self):
        """[C10] a Hello body that is not a message is ignored and counted, and not answered."""
        p, _ = make()
        p.handle_envelope("C1", envelope("C1", 1, hello="x"), 0)
        self.assertEqual([o for o in p.poll(0) if hasattr(o, "envelope")], [])
        self.assertEqual((p.stats()["ignoredMessages"], p.stats()["peers"]), (1, 0))

    def test_e2_replays_asked_while_deferred_are_answered_from_the_lowest_sequence(self):
        """[E2] what a peer asked meanwhile goes out together once the interval has passed:
        a replay from the LOWEST from_sequence asked, whatever order the requests came in."""
        p, store = make(ProducerConfig(resend_interval_ms=500))
        for i, n in enumerate("abc"):
            put(store, n)
            p.poll(i)  # batches 1, 2, 3
        p.handle_envelope("S1", envelope("S1", 1, replayRequest={"fromSequence": 3}), 10)
        self.assertEqual([e["eventBatch"]["sequence"] for e in sends(p.poll(10), "eventBatch")], [3])
        p.handle_envelope("S1", envelope("S1", 1, replayRequest={"fromSequence": 1}), 100)
        p.handle_envelope("S1", envelope("S1", 1, replayRequest={"fromSequence": 2}), 200)
        self.assertEqual(sends(p.poll(200), "eventBatch"), [])
        self.assertEqual([e["eventBatch"]["sequence"] for e in sends(p.poll(510), "eventBatch")], [1, 2, 3])

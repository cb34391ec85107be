"""ConsumerCore boundaries: peer liveness, handshake refusals, metadata and connections, the
quarantine cap. Rules that hand mutants of consumer.py showed no other unit test pinned down
(some only the conformance suite); each test fails on its mutant."""

import unittest
from unittest import mock

from ectp_py import codec
from ectp_py.consumer import AdmitItem, ReadResult
from ectp_py.outputs import CancelRead, ConnectPeer, DisconnectPeer, StartRead
from ectp_py.wire import Reason

from .helpers import announcement, descriptor, envelope, item_bytes, sends
from .test_consumer import admit, grant_for, make


def hb(epoch: int) -> dict:
    return envelope("P1", epoch, heartbeat={"sequence": 1})


def ann_meta(name: str, epoch: int, meta: bytes | None) -> dict:
    a = announcement(descriptor(name, item_bytes(8), epoch=epoch))
    if meta is not None:
        a["transportMetadata"] = meta
    return a


def other_major_reject(epoch: int) -> bytes:
    return codec.encode("ectp.v1.Envelope", {"version": {"major": 2, "minor": 0}, "senderId": "P1",
                                             "senderEpoch": epoch, "handshakeReject": {"reason": Reason.VERSION}})


def connects(outs) -> list:
    return [o for o in outs if isinstance(o, ConnectPeer)]


def disconnects(outs) -> list:
    return [o for o in outs if isinstance(o, DisconnectPeer)]


class ConsumerBoundariesTest(unittest.TestCase):
    # SPEC 4.6 / [P8]: grants of an older epoch are void: no ReadComplete reaches the restarted producer
    def test_p8_no_read_complete_for_an_older_epochs_grant_after_a_restart(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 0)
        c.handle_envelope("P1", hb(6), 10)
        out = c.poll(10)
        self.assertEqual(sends(out, "readComplete"), [])
        self.assertEqual([o.read_id for o in out if isinstance(o, CancelRead)], [start.read_id])
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.EPOCH_CHANGED)

    # SPEC 4.2: no ReadRequests to a refusing peer "until it sees a greater epoch of it"; a later refusal
    # by an older epoch (solicited: a greater epoch's fetch greeted it) narrows nothing
    def test_v1_p8_a_refusal_by_an_older_epoch_after_a_greater_ones_keeps_the_greater_refused(self):
        c = make()
        c.handle_envelope("P1", hb(1), 0)  # epoch 1 known
        admit(c, ann_meta("a", 5, None), 0)
        c.poll(0)
        c.handle_message("P1", other_major_reject(5), 1)  # epoch 5 refuses in major 2
        c.poll(1)
        self.assertEqual([r.failures[0].reason for r in c.drain_failed()], [Reason.VERSION])
        c.admit("r2", [AdmitItem("b", ann_meta("b", 6, None))], 2)  # epoch 6 greeted: solicited
        c.poll(2)
        c.handle_envelope("P1", envelope("P1", 1, handshakeReject={"reason": Reason.INCOMPATIBLE}), 3)
        r3 = c.admit("r3", [AdmitItem("c", ann_meta("c", 3, None))], 4)
        self.assertEqual((r3.status, r3.failures[0].reason), ("failed", Reason.VERSION))  # 3 <= 5: still refused
        self.assertEqual(sends(c.poll(4), "readRequest"), [])

    # SPEC 4.2: a refusal whose epoch is not known is read as every epoch; recorded as the greatest the
    # fetches asked of it (epoch 3 here), not as epoch 1 only
    def test_v1_p8_a_refusal_naming_no_epoch_refuses_the_epoch_the_fetches_asked(self):
        c = make()
        admit(c, ann_meta("a", 3, None), 0)
        self.assertEqual(len(sends(c.poll(0), "readRequest")), 1)
        no_epoch = codec.encode("ectp.v1.Envelope", {"version": {"major": 2, "minor": 0}, "senderId": "P1",
                                                     "handshakeReject": {"reason": Reason.VERSION}})
        c.handle_message("P1", no_epoch, 1)
        self.assertEqual([r.failures[0].reason for r in c.drain_failed()], [Reason.VERSION])
        r2 = c.admit("r2", [AdmitItem("b", ann_meta("b", 3, None))], 2)
        self.assertEqual((r2.status, r2.failures[0].reason), ("failed", Reason.VERSION))
        out = c.poll(2)
        self.assertEqual(sends(out, "readRequest") + sends(out, "hello"), [])
        c.admit("r3", [AdmitItem("c", ann_meta("c", 4, None))], 3)  # a greater epoch refused nothing yet
        self.assertEqual(len(sends(c.poll(3), "readRequest")), 1)

    # [P8] a newer epoch voids the connection made for the older one
    def test_p8_a_newer_epoch_disconnects_the_older_epochs_connection(self):
        c = make()
        admit(c, ann_meta("a", 5, b"\x05"), 0)
        self.assertEqual(connects(c.poll(0)), [ConnectPeer("P1", 5, b"\x05")])
        c.handle_envelope("P1", hb(6), 1)
        self.assertEqual(disconnects(c.poll(1)), [DisconnectPeer("P1")])

    # [P8] a new epoch is judged by the default interval until its own Hello (not the older epoch's)
    def test_p8_a_new_producer_epoch_is_judged_by_the_default_interval_until_its_own_hello(self):
        c = make()
        c.handle_envelope("P1", envelope("P1", 5, hello={"role": 1, "heartbeatIntervalMs": 10_000}), 0)
        c.handle_envelope("P1", hb(6), 0)  # restarted; its Hello is lost
        desc = descriptor("a", item_bytes(8), epoch=6)
        admit(c, announcement(desc), 1000)
        rr = sends(c.poll(1000), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 6, readGrant={"attemptId": rr["attemptId"], "grantId": 1, "item": desc}), 1000)
        c.poll(1000)
        for t in range(2000, 7000, 1000):
            c.poll(t)
        self.assertEqual(c.drain_failed(), [])
        c.poll(7000)  # 1000 + 3 x 2000
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.PEER_UNREACHABLE)

    # [C10] after a restart, a HandshakeReject from the new epoch we never greeted is unsolicited
    def test_c10_a_reject_from_a_new_epoch_not_greeted_is_unsolicited(self):
        c = make()
        admit(c, announcement(descriptor("a", item_bytes(8), epoch=5)), 0)
        c.poll(0)  # greets epoch 5
        c.finish_request("r1", 1)
        c.handle_envelope("P1", hb(6), 2)
        before = c.stats()["ignoredMessages"]
        c.handle_envelope("P1", envelope("P1", 6, handshakeReject={"reason": Reason.INCOMPATIBLE}), 3)
        self.assertEqual(c.stats()["ignoredMessages"], before + 1)
        admit(c, announcement(descriptor("b", item_bytes(8, seed=9), epoch=6)), 4, request="r2")
        self.assertEqual(len(sends(c.poll(4), "readRequest")), 1)

    # SPEC 4.2: a VERSION refusal of an epoch not yet known still holds once that epoch's messages arrive
    def test_c5_a_version_refusal_holds_after_the_refusing_epochs_first_message(self):
        c = make()
        admit(c, announcement(descriptor("a", item_bytes(8), epoch=6)), 0)
        c.poll(0)
        c.handle_message("P1", other_major_reject(6), 1)
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.VERSION)
        c.handle_envelope("P1", hb(6), 2)
        r = admit(c, announcement(descriptor("b", item_bytes(8, seed=9), epoch=6)), 3, request="r2")
        self.assertEqual((r.status, r.failures[0].reason), ("failed", Reason.VERSION))
        self.assertEqual(sends(c.poll(3), "readRequest"), [])

    # SPEC 4.2 / [V1]: another major's VERSION refusal naming the known epoch ends the fetch
    def test_v1_an_other_major_refusal_of_the_known_epoch_ends_the_fetch(self):
        c = make()
        c.handle_envelope("P1", hb(5), 0)
        admit(c, announcement(descriptor("a", item_bytes(8))), 0)
        c.poll(0)
        c.handle_message("P1", other_major_reject(5), 1)
        c.poll(1)
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.VERSION)

    # SPEC 4.1: metadata is loaded once per sender epoch: the Hello of the connected epoch connects nothing
    def test_p8_a_hello_of_the_connected_epoch_does_not_connect_again(self):
        c = make()
        admit(c, ann_meta("a", 5, b"\x05"), 0)
        self.assertEqual(connects(c.poll(0)), [ConnectPeer("P1", 5, b"\x05")])
        c.handle_envelope("P1", envelope("P1", 5, hello={"role": 1, "transportMetadata": b"\x06"}), 1)
        self.assertEqual(connects(c.poll(1)), [])

    # [P8] an older epoch's metadata never connects a newer epoch
    def test_p8_an_older_epochs_metadata_is_not_used_for_a_newer_epoch(self):
        c = make()
        admit(c, ann_meta("a", 5, b"\x05"), 0)
        c.poll(0)
        admit(c, ann_meta("b", 6, None), 1, request="r2")
        out = c.poll(1)
        self.assertEqual(connects(out), [])
        self.assertEqual(len(sends(out, "readRequest")), 1)

    # [C8][I5] an early-orphaned read's destination is held until its own deadline plus the cap
    def test_c8_the_quarantine_cap_runs_from_the_reads_deadline(self):
        c = make()  # transfer timeout 20 s, cap 60 s
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        grant_for(c, desc, 0)  # read deadline 20 000
        c.handle_envelope("P1", hb(6), 10)  # orphaned and quarantined at 10
        c.poll(10)
        c.poll(79_999)
        self.assertEqual((c.stats()["quarantined"], c.stats()["destinations"]), (1, 1))
        c.poll(80_000)
        self.assertEqual((c.stats()["quarantined"], c.stats()["destinations"]), (0, 0))

    # [C8] at the cap the quarantined destination is released and counted out; a late result is unknown
    def test_c8_the_quarantine_cap_releases_the_destination(self):
        from ectp_py.config import ConsumerConfig
        c = make(ConsumerConfig(transfer_timeout_ms=100))
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 0)
        for t in range(100, 60_101, 1000):
            c.handle_envelope("P1", hb(5), t)
            c.poll(t)
        c.poll(60_100)
        self.assertEqual((c.stats()["quarantined"], c.stats()["destinations"]), (0, 0))
        before = c.stats()["ignoredMessages"]
        c.handle_read_result(ReadResult(start.read_id, "cancelled"), 60_200)
        self.assertEqual(c.stats()["ignoredMessages"], before + 1)

    # [P8] a read of an older epoch reporting peer-gone does not end the producer's newer epoch
    def test_p8_an_older_epochs_read_reporting_peer_gone_spares_the_new_epoch(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 0)
        c.finish_request("r1", 1)  # abandoned during the read: ACK deferred to its settlement
        c.handle_envelope("P1", hb(6), 2)
        admit(c, ann_meta("b", 6, b"\x06"), 3, request="r2")
        c.poll(3)
        c.handle_read_result(ReadResult(start.read_id, "failed", peer_gone=True), 4)
        out = c.poll(4)
        self.assertEqual(disconnects(out), [])
        self.assertEqual(sends(out, "hello"), [])
        self.assertEqual(c.drain_failed(), [])

    # SPEC 4.1: a consumer ignores (counts) a Hello of a role other than PRODUCER or BOTH
    def test_c10_a_hello_of_role_consumer_is_ignored(self):
        c = make()
        c.handle_envelope("P1", envelope("P1", 5, hello={"role": 2}), 0)
        self.assertEqual(c.stats()["ignoredMessages"], 1)

    # [P8] a producer reported unreachable is forgotten: DisconnectPeer
    def test_p8_an_unreachable_connected_producer_is_disconnected(self):
        c = make()
        admit(c, ann_meta("a", 5, b"\x05"), 0)
        c.poll(0)
        c.handle_peer_unreachable("P1", 1)
        self.assertEqual(disconnects(c.poll(1)), [DisconnectPeer("P1")])

    # [P8] a connection alone is state: a connected producer with nothing in flight is disconnected when gone
    def test_p8_a_connected_producer_without_fetches_is_disconnected_when_gone(self):
        c = make()
        data = item_bytes(8)
        a = announcement(descriptor("a", data))
        a["transportMetadata"] = b"\x05"
        admit(c, a, 0)
        start = grant_for(c, descriptor("a", data), 0)
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 8), 1)
        c.poll(1)
        self.assertEqual(c.stats()["fetches"], 0)
        c.handle_peer_unreachable("P1", 2)
        self.assertEqual(disconnects(c.poll(2)), [DisconnectPeer("P1")])

    # [P8] a producer with no state reported gone costs nothing: no DisconnectPeer
    def test_p8_a_stateless_producer_reported_gone_emits_nothing(self):
        c = make()
        c.handle_envelope("P1", hb(5), 0)
        c.handle_peer_unreachable("P1", 1)
        self.assertEqual(c.poll(1), [])

    # SPEC 4.2 / section 16: the peer sweep keeps refusals (forgetting one would allow a ReadRequest)
    def test_c5_a_refusal_survives_the_peer_sweep(self):
        c = make()
        admit(c, announcement(descriptor("a", item_bytes(8))), 0)
        c.poll(0)
        c.handle_envelope("P1", envelope("P1", 5, handshakeReject={"reason": Reason.INCOMPATIBLE}), 1)
        c.poll(10_000)  # the peer timer fires and stops: nothing holds P1 but its refusal
        c.drain_failed()
        for i in range(3000):
            c.handle_envelope(f"s-{i}", envelope(f"s-{i}", 1, heartbeat={"sequence": 1}), 10_000)
        r = admit(c, announcement(descriptor("b", item_bytes(8, seed=9))), 10_001, request="r2")
        self.assertEqual((r.status, r.failures[0].reason), ("failed", Reason.INCOMPATIBLE))
        self.assertEqual(sends(c.poll(10_001), "readRequest"), [])

    # [C9] an announcement of an older epoch joins the live fetch of its key (same key, same bytes)
    def test_c9_a_stale_epoch_announcement_joins_the_live_fetch_of_its_key(self):
        c = make()
        c.handle_envelope("P1", hb(6), 0)
        admit(c, announcement(descriptor("a", item_bytes(8), epoch=6)), 0)
        c.poll(0)
        r = admit(c, announcement(descriptor("a", item_bytes(8), epoch=5)), 1, request="r2")
        self.assertEqual((r.status, r.items[0].action), ("admitted", "defer"))

    # SPEC 4.7: a grant still held (an abandoned read awaiting settlement) is business: heartbeats go on
    def test_p8_heartbeats_go_on_while_an_abandoned_read_holds_a_grant(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        grant_for(c, desc, 0)
        c.finish_request("r1", 1)
        c.handle_envelope("P1", hb(5), 1000)
        self.assertEqual(len(sends(c.poll(2000), "heartbeat")), 1)

    # [P8] (SPEC 4.7): a producer MAY fall silent while the consumer has no business with it; new
    # business judges its silence from its own start, whether or not the consumer polled while idle
    def test_p8_silence_while_idle_does_not_count_against_new_business(self):
        for polled_while_idle in (True, False):
            with self.subTest(polled_while_idle=polled_while_idle):
                c = make()
                data = item_bytes(8)
                desc = descriptor("a", data)
                admit(c, announcement(desc), 0)
                start = grant_for(c, desc, 0)
                start.destination.buffer[:] = data
                c.handle_read_result(ReadResult(start.read_id, "done", len(data)), 2)
                c.poll(2)
                c.finish_request("r1", 3)
                if polled_while_idle:
                    c.poll(2000)
                admit(c, announcement(descriptor("b", item_bytes(8))), 50_000, request="r2")
                out = c.poll(50_000)
                self.assertEqual(len(sends(out, "readRequest")), 1)
                self.assertEqual(disconnects(out), [])
                self.assertEqual(sends(out, "heartbeat"), [])
                self.assertEqual(len(sends(c.poll(52_000), "heartbeat")), 1)
                self.assertEqual(disconnects(c.poll(55_999)), [])
                self.assertEqual(disconnects(c.poll(56_000)), [DisconnectPeer("P1")])


    # [V1] another major's HandshakeReject whose body does not parse as major 1's (here a second body)
    # is still answered from its frozen fields: the VERSION refusal ends the fetch
    def test_v1_an_other_major_refusal_that_does_not_parse_as_ours_still_ends_the_fetch(self):
        c = make()
        admit(c, announcement(descriptor("a", item_bytes(8), epoch=6)), 0)
        c.poll(0)
        c.handle_message("P1", other_major_reject(6) + bytes.fromhex("820100"), 1)  # + a heartbeat body
        c.poll(1)
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.VERSION)
        self.assertEqual(c.metrics['ectp_consumer_ignored_messages_total{reason="malformed"}'], 0)

    # [V1] another major's refusal without a sender epoch refuses the epoch known (frozen fields)
    def test_v1_an_other_major_refusal_without_an_epoch_refuses_the_known_one(self):
        c = make()
        c.handle_envelope("P1", hb(5), 0)
        admit(c, announcement(descriptor("a", item_bytes(8))), 0)
        c.poll(0)
        c.handle_envelope("P1", {"version": {"major": 2}, "senderId": "P1", "handshakeReject": {"reason": Reason.VERSION}}, 1)
        c.poll(1)
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.VERSION)

    # [V1][P8] SPEC 4.2: another major's refusal without a sender epoch, arriving after the fetches ended,
    # refuses the epoch our Hello greeted (not epoch 1 only): no second Hello is spent on it
    def test_v1_an_other_major_refusal_without_an_epoch_after_the_fetches_ended_refuses_the_greeted_one(self):
        c = make()
        admit(c, announcement(descriptor("a", item_bytes(8), epoch=3)), 0)
        out = c.poll(0)
        self.assertEqual([len(sends(out, "hello")), len(sends(out, "readRequest"))], [1, 1])
        c.finish_request("r1", 1)  # no fetch left; the greeting of epoch 3 still stands
        c.handle_message("P1", codec.encode("ectp.v1.Envelope", {
            "version": {"major": 2, "minor": 0}, "senderId": "P1", "handshakeReject": {"reason": Reason.VERSION}}), 2)
        d = admit(c, announcement(descriptor("b", item_bytes(8), epoch=3)), 3, model=True, request="r2").items[0]
        self.assertEqual((d.action, d.reason), ("local-encode", Reason.VERSION))
        out = c.poll(3)
        self.assertEqual(sends(out, "hello") + sends(out, "readRequest"), [])

    # [C10][I1] an envelope, grant or reject that is not a message is ignored as malformed, never raised
    def test_c10_an_envelope_or_body_that_is_not_a_message_is_ignored_as_malformed(self):
        c = make()
        admit(c, announcement(descriptor("a", item_bytes(8))), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        for env in (42, None, [envelope("P1", 5, heartbeat={})], envelope("P1", 5, readGrant=7), envelope("P1", 5, readReject="no")):
            c.handle_envelope("P1", env, 1)
        self.assertEqual(c.metrics['ectp_consumer_ignored_messages_total{reason="malformed"}'], 5)
        self.assertEqual(c.metrics['ectp_consumer_ignored_messages_total{reason="internal_error"}'], 0)
        # the fetch still waits for its answer
        c.handle_envelope("P1", envelope("P1", 5, readReject={"attemptId": rr["attemptId"], "reason": Reason.NOT_FOUND}), 2)
        c.poll(2)
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.NOT_FOUND)

    # [I1] a fault of the core's own while handling a message or a read result costs that input only
    def test_i1_a_fault_while_handling_an_input_is_counted_and_logged_never_raised(self):
        c = make()
        with mock.patch.object(c, "_on_envelope", side_effect=RuntimeError("planted bug")), \
                self.assertLogs("ectp.consumer", level="ERROR") as logged:
            c.handle_envelope("P1", hb(5), 0)
        self.assertIn("planted bug", logged.output[0])
        self.assertEqual(c.metrics['ectp_consumer_ignored_messages_total{reason="internal_error"}'], 1)
        self.assertEqual(c.stats()["ignoredMessages"], 1)
        with mock.patch.object(c, "_on_read_result", side_effect=RuntimeError("planted read bug")), \
                self.assertLogs("ectp.consumer", level="ERROR") as logged:
            c.handle_read_result(ReadResult(1, "done", 8), 1)
        self.assertIn("planted read bug", "\n".join(logged.output))
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 2)  # and the core goes on
        self.assertEqual(len(sends(c.poll(2), "readRequest")), 1)

    # [C11] an item loaded without a checksum is checked against a later announcement's checksum
    # (its CRC computed then, once): the right one finds it ready, a wrong one is CHECKSUM_MISMATCH
    def test_c11_a_checksum_announced_after_a_load_without_one_is_checked_against_the_loaded_bytes(self):
        c = make()
        data = item_bytes(8)
        plain = descriptor("a", data, checksum=False)
        admit(c, announcement(plain), 0)
        start = grant_for(c, plain, 0)
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 8), 1)
        right = descriptor("a", data)
        self.assertEqual(admit(c, announcement(right), 2, request="r2").items[0].action, "ready")
        wrong = dict(right, checksum={"algorithm": 1, "value": bytes(4)})
        r3 = admit(c, announcement(wrong), 3, request="r3")
        self.assertEqual((r3.status, r3.failures[0].reason), ("failed", Reason.CHECKSUM_MISMATCH))


    # [P8][C5][C6][C8] a producer gone while two reads of one request are in flight: the request fails
    # once, with both items PEER_UNREACHABLE, both reads are cancelled, their destinations kept until
    # they settle, and no ReadComplete goes to it
    def test_p8_a_producer_gone_during_two_reads_of_one_request_releases_both_grants_silently(self):
        c = make()
        da, db = descriptor("a", item_bytes(8)), descriptor("b", item_bytes(8, seed=9))
        c.admit("r1", [AdmitItem("i1", announcement(da)), AdmitItem("i2", announcement(db))], 0)
        rrs = [m["readRequest"] for m in sends(c.poll(0), "readRequest")]
        for gid, rr, d in ((11, rrs[0], da), (12, rrs[1], db)):
            c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": gid, "item": d}), 1)
        starts = [o for o in c.poll(1) if isinstance(o, StartRead)]
        self.assertEqual(c.stats()["grantsHeld"], 2)
        c.handle_peer_unreachable("P1", 2)
        out = c.poll(2)
        self.assertEqual(sorted(o.read_id for o in out if isinstance(o, CancelRead)), sorted(s.read_id for s in starts))
        self.assertEqual(sends(out, "readComplete"), [])
        failed = c.drain_failed()
        self.assertEqual([(f.request_id, [x.reason for x in f.failures]) for f in failed], [("r1", [Reason.PEER_UNREACHABLE] * 2)])
        self.assertEqual((c.stats()["grantsHeld"], c.stats()["destinations"]), (0, 2))
        for s in starts:
            c.handle_read_result(ReadResult(s.read_id, "cancelled"), 3)
        self.assertEqual(sends(c.poll(3), "readComplete"), [])
        self.assertEqual((c.stats()["quarantined"], c.stats()["destinations"]), (0, 0))


if __name__ == "__main__":
    unittest.main()

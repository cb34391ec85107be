"""ConsumerCore sequences the other tests left open: handling exactly at the budget, transfer and
lease deadlines, model input across admissions, a joiner resuming a stalled fetch, attempts in
failure reports, refusals during a read, the grant's checksum and location, backoff jitter,
counting unwanted grants and repeated refusals, and the ACK of an abandoned read. Each test fails
on a small change of consumer.py that the other unit tests and the consumer conformance cases let
pass (found by mutation testing)."""

import unittest

from ectp_py import codec
from ectp_py.config import ConsumerConfig
from ectp_py.consumer import AdmitItem, ConsumerCore, ReadResult
from ectp_py.outputs import CancelRead, ConnectPeer, DisconnectPeer, StartRead
from ectp_py.testee import FirstFitPool
from ectp_py.wire import Completion, EctpError, Reason

from .helpers import FP, announcement, descriptor, envelope, item_bytes, sends
from .test_consumer import admit, grant_for, make


class BlindPool(FirstFitPool):
    """A pool whose destinations are not host-visible: ``view`` gives None."""

    @staticmethod
    def view(d):
        return None


class FaultyPool(FirstFitPool):
    """A pool whose methods named in ``faults`` raise."""

    def __init__(self, capacity: int, faults: set[str]):
        super().__init__(capacity)
        self.faults = faults

    def allocate(self, key_id, size):
        if "allocate" in self.faults:
            raise MemoryError("planted allocate fault")
        return super().allocate(key_id, size)

    def release(self, d):
        if "release" in self.faults:
            raise RuntimeError("planted release fault")
        super().release(d)

    def view(self, d):
        if "view" in self.faults:
            raise RuntimeError("planted view fault")
        return super().view(d)


class ConsumerSequencesTest(unittest.TestCase):
    # [C3][C1] a model-input item re-admitted past its budget before any poll is
    # local-encoded BUDGET_EXHAUSTED at that admission; the request does not fail
    def test_c3_budget_enforced_at_admission_encodes_a_model_input_item_locally(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        self.assertEqual(admit(c, announcement(desc), 0, model=True).items[0].action, "defer")
        c.poll(0)
        r = admit(c, announcement(desc), 60_500, model=True)  # no poll since t=0: no timer ran
        self.assertEqual(r.status, "admitted")
        self.assertEqual((r.items[0].action, r.items[0].reason), ("local-encode", Reason.BUDGET_EXHAUSTED))
        self.assertEqual(c.drain_failed(), [])

    # [C1][C3] whether a waiting item holds model input is what the latest admission
    # says: gained model input means local encode when the budget runs out, lost means failure
    def test_c1_model_input_is_taken_from_the_latest_admission(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0, model=False)
        admit(c, announcement(desc), 10, model=True)
        c.poll(60_000)
        self.assertEqual(c.drain_failed(), [])
        d = admit(c, announcement(desc), 60_001, model=True).items[0]
        self.assertEqual((d.action, d.reason), ("local-encode", Reason.BUDGET_EXHAUSTED))
        c2 = make()
        admit(c2, announcement(desc), 0, model=True)
        admit(c2, announcement(desc), 10, model=False)
        c2.poll(60_000)
        self.assertEqual([f.reason for f in c2.drain_failed()[0].failures], [Reason.BUDGET_EXHAUSTED])

    # [C2][V1] an announcement naming another spec major is invalid
    def test_c2_an_announcement_of_another_major_is_invalid(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        r = admit(c, {"version": {"major": 2, "minor": 0}, "item": desc}, 0)
        self.assertEqual(r.status, "failed")
        self.assertEqual(r.failures[0].reason, Reason.INVALID_ANNOUNCEMENT)
        self.assertEqual(sends(c.poll(0), "readRequest"), [])
        d = admit(c, {"version": {"major": 0}, "item": desc}, 0, model=True, request="r2").items[0]
        self.assertEqual((d.action, d.reason), ("local-encode", Reason.INVALID_ANNOUNCEMENT))

    # SPEC 4.1 an announcement's empty transport metadata is no metadata: nothing to connect with
    def test_p8_empty_transport_metadata_in_an_announcement_connects_nothing(self):
        c = make()
        a = announcement(descriptor("a", item_bytes(8)))
        a["transportMetadata"] = b""
        admit(c, a, 0)
        out = c.poll(0)
        self.assertEqual([o for o in out if isinstance(o, ConnectPeer)], [])
        self.assertEqual(len(sends(out, "readRequest")), 1)
        a2 = announcement(descriptor("b", item_bytes(8)))
        a2["transportMetadata"] = b"\x01"
        admit(c, a2, 1, request="r2")
        self.assertEqual([o for o in c.poll(1) if isinstance(o, ConnectPeer)], [ConnectPeer("P1", 5, b"\x01")])

    # [C4][C9] a fetch stalled because its waiters' budgets end before its next retry
    # resumes when a request with budget left joins it, at the retry time (not earlier)
    def test_c4_c9_a_joiner_resumes_a_fetch_stalled_past_the_earlier_budgets(self):
        c = make(ConsumerConfig(wait_budget_ms=3000))
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readReject={"attemptId": rr["attemptId"], "reason": Reason.NOT_READY,
                                                               "retryable": True, "retryAfterMs": 5000}), 1)
        self.assertEqual(sends(c.poll(1), "readRequest"), [])  # retry at 5001, after r1's budget (3000): stalled
        admit(c, announcement(desc), 2500, request="r2")  # r2's budget runs to 5500
        self.assertEqual(sends(c.poll(2500), "readRequest"), [])
        self.assertEqual(sends(c.poll(5000), "readRequest"), [])  # not before the backoff ends
        self.assertEqual([f.request_id for f in c.drain_failed()], ["r1"])
        again = sends(c.poll(5001), "readRequest")
        self.assertEqual(len(again), 1)
        self.assertGreater(again[0]["readRequest"]["attemptId"], rr["attemptId"])

    # [C6][C4] a budget failure reports the remote attempts made for the item
    def test_c6_a_budget_failure_reports_the_attempts_made(self):
        c = make(ConsumerConfig(wait_budget_ms=3000))
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readReject={"attemptId": rr["attemptId"], "reason": Reason.NOT_READY,
                                                               "retryable": True, "retryAfterMs": 1000}), 1)
        c.poll(1001)  # the second attempt, then no answer
        c.poll(3000)
        f = c.drain_failed()[0].failures[0]
        self.assertEqual((f.reason, f.attempts), (Reason.BUDGET_EXHAUSTED, 2))
        # the same through the admission that finds the budget spent before any poll
        c2 = make(ConsumerConfig(wait_budget_ms=3000))
        admit(c2, announcement(desc), 0)
        c2.poll(0)
        r = admit(c2, announcement(desc), 3500)
        self.assertEqual((r.failures[0].reason, r.failures[0].attempts), (Reason.BUDGET_EXHAUSTED, 1))

    # SPEC 4.1 a producer's Hello metadata replaces what an announcement of the same
    # epoch said, and is what a later connection of that epoch uses
    def test_p8_a_hellos_metadata_wins_over_an_announcements_of_the_same_epoch(self):
        c = make()
        admit(c, announcement(descriptor("a", item_bytes(8))), 0)  # no metadata: no connection
        a = announcement(descriptor("a", item_bytes(8)))
        a["transportMetadata"] = b"\x0a"
        admit(c, a, 1, request="r2")  # joins, and its metadata is noted (no connection yet)
        self.assertEqual([o for o in c.poll(1) if isinstance(o, ConnectPeer)], [])
        c.finish_request("r1", 2)
        c.finish_request("r2", 2)  # the fetch is abandoned: no business with P1
        c.handle_envelope("P1", envelope("P1", 5, hello={"role": 1, "transportMetadata": b"\x0b"}), 3)
        self.assertEqual([o for o in c.poll(3) if isinstance(o, ConnectPeer)], [])
        admit(c, announcement(descriptor("b", item_bytes(8))), 4, request="r3")
        self.assertEqual([o for o in c.poll(4) if isinstance(o, ConnectPeer)], [ConnectPeer("P1", 5, b"\x0b")])

    # [C6][C5] a terminal failure reports the remote attempts made, retries included
    def test_c6_a_terminal_failure_reports_the_attempts_made(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readReject={"attemptId": rr["attemptId"], "reason": Reason.NOT_READY,
                                                               "retryable": True, "retryAfterMs": 100}), 1)
        rr2 = sends(c.poll(101), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readReject={"attemptId": rr2["attemptId"], "reason": Reason.NOT_FOUND}), 102)
        f = c.drain_failed()[0].failures[0]
        self.assertEqual((f.reason, f.attempts), (Reason.NOT_FOUND, 2))

    # [C5][C7] a terminal outcome during a read (a HandshakeReject) fails the request at once
    # and cancels the read, but releases its grant FAILED only once the read has settled
    # (SPEC 4.6: never under a READ that may still be running)
    def test_c5_a_refusal_during_a_read_acks_its_grant_failed_once_the_read_settles(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 0)
        c.handle_envelope("P1", envelope("P1", 5, handshakeReject={"reason": Reason.VERSION}), 10)
        out = c.poll(10)
        self.assertEqual([o.read_id for o in out if isinstance(o, CancelRead)], [start.read_id])
        self.assertEqual(sends(out, "readComplete"), [])
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.VERSION)
        self.assertEqual((c.stats()["grantsHeld"], c.stats()["destinations"]), (1, 1))
        c.handle_read_result(ReadResult(start.read_id, "cancelled"), 11)
        self.assertEqual([(a["readComplete"]["grantId"], a["readComplete"]["status"]) for a in sends(c.poll(11), "readComplete")],
                         [(7, Completion.FAILED)])
        self.assertEqual((c.stats()["grantsHeld"], c.stats()["destinations"], c.stats()["quarantined"]), (0, 0, 0))

    # [C5][C8] a read whose fetch ended terminally and that is still unsettled at its deadline
    # is quarantined then, and its grant released FAILED at that point (once)
    def test_c8_a_read_of_an_ended_fetch_unsettled_at_its_deadline_is_quarantined_and_acked(self):
        c = make(ConsumerConfig(transfer_timeout_ms=1000))  # due before P1's silence (3 x 2 s) makes it gone
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 0)
        c.handle_envelope("P1", envelope("P1", 5, handshakeReject={"reason": Reason.VERSION}), 10)
        c.poll(10)
        deadline = 1000  # the read's deadline: its start (0) plus the transfer timeout
        self.assertEqual(sends(c.poll(deadline - 1), "readComplete"), [])
        self.assertEqual([a["readComplete"]["status"] for a in sends(c.poll(deadline), "readComplete")], [Completion.FAILED])
        self.assertEqual((c.stats()["quarantined"], c.stats()["grantsHeld"]), (1, 0))
        c.handle_read_result(ReadResult(start.read_id, "cancelled"), deadline + 1)
        self.assertEqual(sends(c.poll(deadline + 1), "readComplete"), [])  # one ReadComplete per grant
        self.assertEqual((c.stats()["quarantined"], c.stats()["destinations"]), (0, 0))

    # [C6][C7] a request that fails keeps the bytes of an item it reported ready until it is
    # finished (the engine may still be copying them); they serve other requests meanwhile
    def test_c6_a_failed_request_keeps_its_ready_items_bytes_until_finished(self):
        c = make(ConsumerConfig(wait_budget_ms=1000, heartbeat_interval_ms=1_000_000))
        data = item_bytes(16)
        a, b = descriptor("a", data), descriptor("b", item_bytes(8))
        items = [AdmitItem("i1", announcement(a)), AdmitItem("i2", announcement(b))]
        c.admit("r", items, 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 7, "item": a, "leaseMs": 30000}), 1)
        start = [o for o in c.poll(1) if isinstance(o, StartRead)][0]
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", len(data)), 2)
        self.assertEqual(c.admit("r", items, 3).items[0].action, "ready")
        c.poll(1000)  # i2's budget runs out between the engine's calls: r fails (no model input)
        self.assertEqual([f.request_id for f in c.drain_failed()], ["r"])
        self.assertEqual(c.stats()["destinations"], 1)
        self.assertEqual(c.admit("s", [AdmitItem("i1", announcement(a))], 1001).items[0].action, "ready")
        c.finish_request("r", 1002)
        self.assertEqual(c.stats()["destinations"], 1)  # s still holds it
        c.finish_request("s", 1003)
        self.assertEqual(c.stats()["destinations"], 0)

    # [C6][C7] a request that fails ends its other waits at once, before it is finished: their
    # budgets are released, a fetch nobody else waits for is abandoned, and a late grant for it
    # is released ABANDONED at once
    def test_c6_a_failed_request_ends_its_other_waits_before_it_is_finished(self):
        c = make(ConsumerConfig(heartbeat_interval_ms=1_000_000))
        data = item_bytes(16)
        a, b = descriptor("a", data), descriptor("b", item_bytes(8))
        c.admit("r", [AdmitItem("i1", announcement(a)), AdmitItem("i2", announcement(b))], 0)
        attempts = {rr["readRequest"]["key"]["contentHash"]: rr["readRequest"]["attemptId"] for rr in sends(c.poll(0), "readRequest")}
        self.assertEqual(len(attempts), 2)
        attempt_a, attempt_b = attempts[a["key"]["contentHash"]], attempts[b["key"]["contentHash"]]
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": attempt_a, "grantId": 7, "item": a, "leaseMs": 30000}), 1)
        start = [o for o in c.poll(1) if isinstance(o, StartRead)][0]
        start.destination.buffer[:] = bytes(16)  # not a's bytes: CHECKSUM_MISMATCH, terminal
        c.handle_read_result(ReadResult(start.read_id, "done", 16), 2)
        self.assertEqual([x["readComplete"]["status"] for x in sends(c.poll(2), "readComplete")], [Completion.FAILED])
        self.assertEqual([f.request_id for f in c.drain_failed()], ["r"])
        self.assertEqual((c.stats()["budgets"], c.stats()["fetches"]), (0, 0))  # r not finished yet
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": attempt_b, "grantId": 8, "item": b, "leaseMs": 30000}), 3)
        out = c.poll(3)
        self.assertEqual([(x["readComplete"]["grantId"], x["readComplete"]["status"]) for x in sends(out, "readComplete")],
                         [(8, Completion.ABANDONED)])
        self.assertEqual([o for o in out if isinstance(o, StartRead)], [])
        c.finish_request("r", 4)
        self.assertEqual({k: v for k, v in c.stats().items() if k != "ignoredMessages"},
                         {"requests": 0, "budgets": 0, "fetches": 0, "readsInFlight": 0, "quarantined": 0,
                          "grantsHeld": 0, "loadedItems": 0, "destinations": 0, "undrainedFailures": 0})

    # [C3] bytes whose read result is handled exactly at the budget deadline (before
    # the poll at that time) do not revive the item: the budget ends at its deadline, inclusive
    def test_c3_bytes_handled_exactly_at_the_budget_deadline_do_not_revive_the_item(self):
        c = make(ConsumerConfig(wait_budget_ms=3000))
        data = item_bytes(16)
        desc = descriptor("a", data)
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 1000)
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 16), 3000)
        r = admit(c, announcement(desc), 3000)
        self.assertEqual(r.status, "failed")
        self.assertEqual(r.failures[0].reason, Reason.BUDGET_EXHAUSTED)
        self.assertEqual(c.stats()["loadedItems"], 0)

    # [C11] a read result handled exactly at its deadline (before the poll at that
    # time) is never loaded: the deadline is inclusive, and the lease deadline names the outcome
    # when it is the one reached
    def test_c11_a_read_result_handled_exactly_at_its_deadline_is_not_loaded(self):
        data = item_bytes(16)
        desc = descriptor("a", data)
        c = make(ConsumerConfig(transfer_timeout_ms=100))
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 0)
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 16), 100)
        self.assertEqual(sends(c.poll(100), "readComplete")[0]["readComplete"]["status"], Completion.FAILED)
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.TRANSFER_TIMEOUT)
        # a 10 s lease less the 5 s margin: the lease deadline (5000) comes before the transfer's (20 s)
        c2 = make()
        admit(c2, announcement(desc), 0)
        start = grant_for(c2, desc, 0, leaseMs=10_000)
        start.destination.buffer[:] = data
        c2.handle_read_result(ReadResult(start.read_id, "done", 16), 5000)
        self.assertEqual(c2.drain_failed()[0].failures[0].reason, Reason.LEASE_EXPIRED)

    # [C11] more bytes than the item's size is a SIZE_MISMATCH too, never loaded
    def test_c11_a_read_of_more_bytes_than_the_size_is_a_size_mismatch(self):
        c = make()
        data = item_bytes(16)
        desc = descriptor("a", data)
        admit(c, announcement(desc), 0, model=True)
        start = grant_for(c, desc, 0)
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 17), 1)
        self.assertEqual(sends(c.poll(1), "readComplete")[0]["readComplete"]["status"], Completion.FAILED)
        d = admit(c, announcement(desc), 2, model=True).items[0]
        self.assertEqual((d.action, d.reason), ("local-encode", Reason.SIZE_MISMATCH))

    # [C11] bytes that cannot be viewed cannot be verified: with a checksum announced
    # they count as CHECKSUM_MISMATCH; without one they load (size checked only)
    def test_c11_bytes_that_cannot_be_viewed_mismatch_a_checksum(self):
        data = item_bytes(16)
        c = ConsumerCore("C1", 1, dict(FP), BlindPool(1 << 20))
        desc = descriptor("a", data)
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 0)
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 16), 1)
        self.assertEqual(sends(c.poll(1), "readComplete")[0]["readComplete"]["status"], Completion.FAILED)
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.CHECKSUM_MISMATCH)
        plain = descriptor("b", data, checksum=False)
        admit(c, announcement(plain), 2, request="r2")
        start = grant_for(c, plain, 2)
        c.handle_read_result(ReadResult(start.read_id, "done", 16), 3)
        self.assertEqual(admit(c, announcement(plain), 3, request="r2").items[0].action, "ready")

    # [C11] every checksum present must match: bytes matching the announcement's
    # checksum but not the grant's are not loaded
    def test_c11_bytes_must_match_the_grants_checksum_as_well_as_the_announcements(self):
        c = make()
        data = item_bytes(16)
        desc = descriptor("a", data)
        admit(c, announcement(desc), 0)
        granted = dict(desc, checksum={"algorithm": 1, "value": b"\x00\x00\x00\x01"})
        start = grant_for(c, desc, 0, item=granted)
        start.destination.buffer[:] = data  # the announcement's bytes
        c.handle_read_result(ReadResult(start.read_id, "done", 16), 1)
        self.assertEqual(sends(c.poll(1), "readComplete")[0]["readComplete"]["status"], Completion.FAILED)
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.CHECKSUM_MISMATCH)

    # [V1][C10] another major's HandshakeReject counts only when its frozen sender id
    # is the peer that delivered it: one naming another sender is ignored, the fetch goes on
    def test_v1_an_other_major_refusal_naming_another_sender_is_ignored(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        raw = codec.encode("ectp.v1.Envelope", {"version": {"major": 2, "minor": 0}, "senderId": "P9",
                                                "senderEpoch": 5, "handshakeReject": {"reason": Reason.VERSION}})
        c.handle_message("P1", raw, 1)
        c.poll(1)
        self.assertEqual(c.drain_failed(), [])
        self.assertEqual(c.stats()["fetches"], 1)
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 7, "item": desc}), 2)
        self.assertEqual(len([o for o in c.poll(2) if isinstance(o, StartRead)]), 1)  # the attempt is still answered

    # [C11] a grant without lease_ms has the 30 s default lease, whatever longer lease
    # the consumer is configured with: its lease deadline is receipt + 30 s - margin
    def test_c11_a_grant_without_a_lease_counts_the_30_s_default(self):
        c = make(ConsumerConfig(lease_ms=60_000, transfer_timeout_ms=40_000))
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[-1]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 7, "item": desc}), 0)
        c.poll(0)
        for t in range(1000, 25_000, 1000):
            c.handle_envelope("P1", envelope("P1", 5, heartbeat={"sequence": t}), t)
            c.poll(t)
        self.assertEqual(c.drain_failed(), [])
        c.poll(25_000)  # 0 + 30 000 - 5 000
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.LEASE_EXPIRED)

    # SPEC 4.2 [C10] a refusal ends the handshake: a second HandshakeReject of the same
    # epoch answers no Hello of ours (nothing greeted, nothing fetched) and is ignored and counted
    def test_c10_a_second_handshake_reject_after_a_refusal_is_unsolicited(self):
        c = make()
        admit(c, announcement(descriptor("a", item_bytes(8))), 0)
        c.poll(0)
        c.handle_envelope("P1", envelope("P1", 5, handshakeReject={"reason": Reason.INCOMPATIBLE}), 1)
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.INCOMPATIBLE)
        before = c.stats()["ignoredMessages"]
        c.handle_envelope("P1", envelope("P1", 5, handshakeReject={"reason": Reason.INCOMPATIBLE}), 2)
        self.assertEqual(c.stats()["ignoredMessages"], before + 1)
        self.assertEqual(c.metrics['ectp_consumer_ignored_messages_total{reason="unexpected"}'], 1)

    # [C3][C9] a grant is released unread only when every waiting request is past its
    # budget: one waiter with budget left (r2) is enough to read it, though r1's budget has ended
    def test_c3_c9_a_grant_is_read_while_any_waiter_has_budget_left(self):
        c = make(ConsumerConfig(wait_budget_ms=3000))
        data = item_bytes(8)
        desc = descriptor("a", data)
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        admit(c, announcement(desc), 1000, request="r2")
        c.poll(1000)
        # at r1's budget deadline, before the poll at that time
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 7, "item": desc}), 3000)
        out = c.poll(3000)
        self.assertEqual(sends(out, "readComplete"), [])
        start = [o for o in out if isinstance(o, StartRead)][0]
        self.assertEqual([f.request_id for f in c.drain_failed()], ["r1"])
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 8), 3001)
        self.assertEqual(admit(c, announcement(desc), 3001, request="r2").items[0].action, "ready")

    # [C11] a grant whose lease deadline falls exactly at its receipt (lease == margin)
    # is not read: released FAILED, LEASE_EXPIRED, no read started
    def test_c11_a_grant_whose_lease_ends_exactly_at_receipt_is_not_read(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[-1]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 7, "item": desc,
                                                              "leaseMs": 5000}), 10)  # 10 + 5000 - 5000 = 10
        out = c.poll(10)
        self.assertEqual([o for o in out if isinstance(o, (StartRead, CancelRead))], [])
        self.assertEqual(sends(out, "readComplete")[0]["readComplete"]["status"], Completion.FAILED)
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.LEASE_EXPIRED)
        self.assertEqual(c.stats()["destinations"], 0)

    # SPEC 4.4 step 3 [C4] no destination memory now: the grant goes back ABANDONED and
    # the attempt is retried as OVERLOADED (retryable), and the item loads once memory is free
    def test_c4_a_full_destination_pool_gives_the_grant_back_and_retries(self):
        data = item_bytes(64)
        c = ConsumerCore("C1", 1, dict(FP), FirstFitPool(32))
        desc = descriptor("a", data)
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 7, "item": desc}), 1)
        out = c.poll(1)
        self.assertEqual([a["readComplete"]["status"] for a in sends(out, "readComplete")], [Completion.ABANDONED])
        self.assertEqual([o for o in out if isinstance(o, StartRead)], [])
        self.assertEqual(c.drain_failed(), [])
        again = sends(c.poll(c.next_deadline()), "readRequest")
        self.assertEqual(len(again), 1)
        self.assertEqual(c.metrics['ectp_consumer_retries_total{reason="OVERLOADED"}'], 1)

    # SPEC 4.4 the read's source is the grant's location, or the announcement's when
    # the grant's is empty
    def test_c11_a_grant_without_a_location_reads_from_the_announced_one(self):
        c = make()
        desc = descriptor("a", item_bytes(8), location=b"announced")
        admit(c, announcement(desc), 0)
        start = grant_for(c, dict(desc, location=b""), 0)
        self.assertEqual(start.source, b"announced")
        desc_b = descriptor("b", item_bytes(8), location=b"announced-b")
        admit(c, announcement(desc_b), 1, request="r2")
        start_b = grant_for(c, dict(desc_b, location=b"granted-b"), 1, grant_id=8)
        self.assertEqual(start_b.source, b"granted-b")

    # [C7][C8] an abandoned read still unsettled at its deadline is quarantined and its
    # grant released with the ABANDONED its abandonment deferred (not FAILED)
    def test_c7_an_abandoned_read_unsettled_at_its_deadline_is_acked_abandoned(self):
        c = make(ConsumerConfig(transfer_timeout_ms=1000))
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 0)
        c.finish_request("r1", 10)
        out = c.poll(10)
        self.assertEqual([o.read_id for o in out if isinstance(o, CancelRead)], [start.read_id])
        self.assertEqual(sends(out, "readComplete"), [])  # deferred to settlement
        out = c.poll(1000)
        self.assertEqual([a["readComplete"]["status"] for a in sends(out, "readComplete")], [Completion.ABANDONED])
        self.assertEqual((c.stats()["quarantined"], c.stats()["grantsHeld"]), (1, 0))

    # [C4] the backoff is jittered uniformly in [d/2, d]: first retries of differently
    # seeded consumers fall inside the window and are not all the same
    def test_c4_backoff_is_jittered_within_half_to_full_delay(self):
        delays = set()
        for seed in range(1, 21):
            c = ConsumerCore("C1", 1, dict(FP), FirstFitPool(1 << 20), seed=seed)
            admit(c, announcement(descriptor("a", item_bytes(8))), 0)
            rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
            c.handle_envelope("P1", envelope("P1", 5, readReject={"attemptId": rr["attemptId"], "reason": Reason.NOT_READY}), 0)
            c.poll(0)
            at = c.next_deadline()
            self.assertTrue(25 <= at <= 50, at)
            delays.add(at)
        self.assertGreater(len(delays), 5)

    # outputs queued by a message ask for a poll now, before any later timer: a grant
    # nobody wants is released at once [C7], not when the next timer comes
    def test_c7_queued_outputs_make_the_next_deadline_now(self):
        c = make()
        admit(c, announcement(descriptor("a", item_bytes(8))), 0)
        c.poll(0)
        self.assertGreater(c.next_deadline(), 10)
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": 999, "grantId": 3,
                                                              "item": descriptor("a", item_bytes(8))}), 10)
        self.assertEqual(c.next_deadline(), 10)
        self.assertEqual([a["readComplete"]["status"] for a in sends(c.poll(10), "readComplete")], [Completion.ABANDONED])

    # [C11] only a read the transport reports "done" can load: one it reports cancelled
    # (not asked by the consumer) fails TRANSFER_FAILED, whatever bytes landed
    def test_c11_a_read_reported_cancelled_is_never_loaded(self):
        c = make()
        data = item_bytes(16)
        desc = descriptor("a", data)
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 0)
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "cancelled", 16), 1)
        self.assertEqual(sends(c.poll(1), "readComplete")[0]["readComplete"]["status"], Completion.FAILED)
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.TRANSFER_FAILED)

    # SPEC 4 [C10] an envelope with an empty sender id is malformed: ignored and
    # counted, even when the carrier names the same (empty) sender
    def test_c10_an_envelope_with_an_empty_sender_id_is_malformed(self):
        c = make()
        c.handle_envelope("", envelope("", 5, hello={"role": 1, "transportMetadata": b"x"}), 0)
        self.assertEqual(c.stats()["ignoredMessages"], 1)
        self.assertEqual(c.metrics['ectp_consumer_ignored_messages_total{reason="malformed"}'], 1)
        self.assertNotIn("", c._peers)

    def test_i1_c8_a_read_result_missing_its_status_is_not_a_settled_read(self):
        # [I1][C8][I5] as any status other than done, failed or cancelled: counted and logged, never an
        # exception; nothing is freed (the transport may still write into the destination) until a
        # result with a settled status comes, or the read's deadline.
        c = make()
        d = descriptor("a", item_bytes(8))
        admit(c, announcement(d), 0)
        start = grant_for(c, d, 0)

        class NoStatus:
            read_id = start.read_id

        with self.assertLogs("ectp.consumer", "ERROR"):
            c.handle_read_result(NoStatus(), 1)
        self.assertEqual(sends(c.poll(1), "readComplete"), [])
        self.assertEqual(c.metrics['ectp_consumer_ignored_messages_total{reason="malformed_read_result"}'], 1)
        stats = c.stats()
        self.assertEqual((stats["readsInFlight"], stats["grantsHeld"], stats["destinations"]), (1, 1, 1))
        c.handle_read_result(ReadResult(start.read_id, "failed"), 2)
        completes = sends(c.poll(2), "readComplete")
        self.assertEqual([m["readComplete"]["status"] for m in completes], [Completion.FAILED])
        stats = c.stats()
        self.assertEqual((stats["readsInFlight"], stats["grantsHeld"], stats["destinations"]), (0, 0, 0))

    def test_admit_items_that_are_not_a_list_is_invalid_argument(self):
        c = make()
        for items in (None, 5, "ab"):
            with self.assertRaises(EctpError) as raised:
                c.admit("r", items, 0)
            self.assertEqual(raised.exception.code, "INVALID_ARGUMENT")

    def test_model_input_and_local_flags_are_bools_never_coerced(self):
        # [C1][C5] a 1 read as False would fail the request where the engine meant local encoding.
        c = make()
        ann = announcement(descriptor("a", item_bytes(8)))
        for flags in ({"has_model_input": 1}, {"local": "yes"}, {"has_model_input": None}):
            with self.assertRaises(EctpError) as raised:
                c.admit("r", [AdmitItem("i1", ann, **flags)], 0)
            self.assertEqual(raised.exception.code, "INVALID_ARGUMENT")
            self.assertIn("has_model_input and local must be booleans", str(raised.exception))
        stats = c.stats()
        self.assertEqual((stats["requests"], stats["fetches"]), (0, 0))
        self.assertEqual(c.poll(0), [])


    # SPEC.md 4.4 step 3 [I1]: a pool whose allocate raises counts as full: the grant is given back
    # ABANDONED and the fetch retried as OVERLOADED, never an exception to the caller
    def test_c4_i1_a_pool_whose_allocate_raises_is_treated_as_full(self):
        pool = FaultyPool(1 << 20, {"allocate"})
        c = ConsumerCore("C1", 1, dict(FP), pool)
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        with self.assertLogs("ectp.consumer", level="ERROR"):
            c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 3, "item": desc}), 1)
        out = c.poll(1)
        self.assertEqual([o for o in out if isinstance(o, StartRead)], [])
        self.assertEqual([(m["readComplete"]["grantId"], m["readComplete"]["status"]) for m in sends(out, "readComplete")],
                         [(3, Completion.ABANDONED)])
        self.assertEqual(c.metrics['ectp_consumer_ignored_messages_total{reason="internal_error"}'], 0)
        self.assertEqual((c.stats()["destinations"], c.stats()["grantsHeld"]), (0, 0))
        pool.faults.clear()
        self.assertEqual(len(sends(c.poll(10_000), "readRequest")), 1)  # retried (OVERLOADED, backed off)
        self.assertEqual(c.metrics['ectp_consumer_retries_total{reason="OVERLOADED"}'], 1)

    # [I4][I1] a pool whose release raises still has its destination counted as given back (logged)
    def test_i4_a_pool_whose_release_raises_does_not_leak_the_count_or_raise(self):
        pool = FaultyPool(1 << 20, set())
        c = ConsumerCore("C1", 1, dict(FP), pool)
        data = item_bytes(8)
        desc = descriptor("a", data)
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 0)
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 8), 1)
        self.assertEqual(c.stats()["destinations"], 1)
        pool.faults.add("release")
        with self.assertLogs("ectp.consumer", level="ERROR") as logged:
            c.finish_request("r1", 2)
        self.assertIn("DestinationPool.release raised", logged.output[0])
        self.assertEqual((c.stats()["destinations"], c.stats()["loadedItems"]), (0, 0))

    # [C11][I1] a pool whose view raises cannot show the bytes: like a blind pool, a checksum mismatches
    def test_c11_a_pool_whose_view_raises_mismatches_a_checksum(self):
        c = ConsumerCore("C1", 1, dict(FP), FaultyPool(1 << 20, {"view"}))
        data = item_bytes(8)
        desc = descriptor("a", data)
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 0)
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 8), 1)
        self.assertEqual(sends(c.poll(1), "readComplete")[0]["readComplete"]["status"], Completion.FAILED)
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.CHECKSUM_MISMATCH)
        self.assertEqual(c.metrics['ectp_consumer_ignored_messages_total{reason="internal_error"}'], 0)


if __name__ == "__main__":
    unittest.main()

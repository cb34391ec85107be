"""ConsumerCore rules, one test per requirement id (SPEC.md section 7)."""

import math
import unittest

from ectp_py import codec
from ectp_py.config import ConsumerConfig
from ectp_py.consumer import AdmitItem, ConsumerCore, ReadResult
from ectp_py.crc32c import crc32c
from ectp_py.outputs import CancelRead, ConnectPeer, StartRead
from ectp_py.wire import Completion, EctpError, Reason, validate_descriptor

from .helpers import FP, announcement, descriptor, envelope, item_bytes, pool, sends


def make(config: ConsumerConfig | None = None) -> ConsumerCore:
    return ConsumerCore("C1", 1, dict(FP), pool(), config=config)


def admit(c: ConsumerCore, ann, now: float, model: bool = False, request: str = "r1"):
    return c.admit(request, [AdmitItem("i1", ann, has_model_input=model)], now)


def grant_for(c: ConsumerCore, desc: dict, now: float, grant_id: int = 7, **fields) -> StartRead:
    """Answer the pending ReadRequest with a grant (``fields`` override its lease or item); return the StartRead output."""
    rr = sends(c.poll(now), "readRequest")[-1]["readRequest"]
    c.handle_envelope("P1", envelope("P1", 5, readGrant={
        "attemptId": rr["attemptId"], "grantId": grant_id, "item": desc, "leaseMs": 30000, **fields}), now)
    return [o for o in c.poll(now) if isinstance(o, StartRead)][0]


class ConsumerTest(unittest.TestCase):
    def test_c1_c11_remote_load_verifies_acks_ok_and_is_ready(self):
        data = item_bytes(64)
        desc = descriptor("a", data)
        c = make()
        self.assertEqual(admit(c, announcement(desc), 0).items[0].action, "defer")
        start = grant_for(c, desc, 10)
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", len(data)), 20)
        acks = sends(c.poll(20), "readComplete")
        self.assertEqual(acks[0]["readComplete"]["status"], Completion.OK)
        d = admit(c, announcement(desc), 21).items[0]
        self.assertEqual(d.action, "ready")
        self.assertEqual(bytes(d.destination.buffer), data)
        c.finish_request("r1", 22)
        self.assertEqual(c.stats()["destinations"], 0)  # [I4]

    def test_c1_no_announcement_without_model_input_fails_unavailable_once(self):
        c = make()
        r = admit(c, None, 0)
        self.assertEqual((r.status, r.failures[0].reason), ("failed", Reason.UNAVAILABLE))
        self.assertEqual(len(c.drain_failed()), 1)
        self.assertEqual(c.drain_failed(), [])  # [C6] drain-once

    def test_c2_junk_announcements_never_raise(self):
        c = make()
        junk = [42, "x", {"version": {"major": 1}, "item": {"sizeBytes": "big"}},
                announcement({**descriptor("a", b"xy"), "sizeBytes": None}), {"version": None},
                announcement({**descriptor("a", b"xy"), "checksum": {"algorithm": 9, "value": b"1234"}})]
        for i, ann in enumerate(junk):
            r = c.admit(f"r{i}", [AdmitItem("i1", ann, has_model_input=True)], 0)
            self.assertEqual(r.items[0].action, "local-encode")
            self.assertEqual(r.items[0].reason, Reason.INVALID_ANNOUNCEMENT)

    def test_c2_i1_an_announcement_that_raises_when_read_is_invalid_not_an_exception(self):
        class Hostile(dict):
            def get(self, *_):
                raise RuntimeError("hostile announcement")

        c = make()
        r = admit(c, Hostile(announcement(descriptor("a", item_bytes(8)))), 0)
        self.assertEqual((r.status, r.failures[0].reason), ("failed", Reason.INVALID_ANNOUNCEMENT))
        d = admit(c, Hostile(announcement(descriptor("a", item_bytes(8)))), 0, model=True, request="r2").items[0]
        self.assertEqual((d.action, d.reason), ("local-encode", Reason.INVALID_ANNOUNCEMENT))

    def test_c3_budget_runs_out_without_extension(self):
        c = make(ConsumerConfig(wait_budget_ms=1000))
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        c.poll(0)
        self.assertEqual(c.next_deadline(), 1000)
        c.poll(1000)
        failed = c.drain_failed()
        self.assertEqual(failed[0].failures[0].reason, Reason.BUDGET_EXHAUSTED)

    def test_c3_a_budget_that_ran_out_before_a_grant_is_warned_with_its_key_producer_and_last_retry_reason(self):
        c = make(ConsumerConfig(wait_budget_ms=1000))
        admit(c, announcement(descriptor("a", item_bytes(8))), 0)
        admit(c, announcement(descriptor("b", item_bytes(8))), 0, model=True, request="s")
        c.poll(0)
        c.handle_peer_unreachable("P1", 10)  # the producer is gone: the attempts retry until the budgets end
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            for t in range(10, 1001, 10):
                c.poll(t)
        failed = [m for m in logs.output if "request failed: request=r1 " in m]
        local = [m for m in logs.output if "item falls back to local encode: request=s " in m]
        for lines in (failed, local):
            self.assertEqual(len(lines), 1)
            self.assertRegex(lines[0], r"reason=BUDGET_EXHAUSTED attempts=\d+ item_key=\S+\|\S+ producer=P1 "
                                       r"waiting_for=(grant|retry) last_retry_reason=PEER_UNREACHABLE$")

    def test_c3_a_budget_that_ran_out_on_the_first_attempt_names_no_last_reason_and_one_in_a_read_the_read(self):
        c = make(ConsumerConfig(wait_budget_ms=1000))
        admit(c, announcement(descriptor("a", item_bytes(8))), 0)
        c.poll(0)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.poll(1000)
        self.assertRegex(logs.output[-1], r"reason=BUDGET_EXHAUSTED attempts=1 item_key=\S+ producer=P1 waiting_for=grant$")
        d = make(ConsumerConfig(wait_budget_ms=5000, transfer_timeout_ms=20_000))
        desc = descriptor("a", item_bytes(8))
        admit(d, announcement(desc), 0)
        grant_for(d, desc, 10)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            d.poll(5000)
        self.assertRegex(logs.output[-1], r"reason=BUDGET_EXHAUSTED attempts=1 item_key=\S+ producer=P1 waiting_for=read$")

    def test_c5_a_stale_announcements_failure_or_fallback_warning_names_its_item_key_and_producer(self):
        c = make()
        c.handle_envelope("P1", envelope("P1", 6, heartbeat={}), 0)  # the producer is known at epoch 6
        stale = announcement(descriptor("a", item_bytes(8), epoch=5))
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            admit(c, stale, 1)
            admit(c, stale, 1, model=True, request="s")
        self.assertRegex(logs.output[0], r"request failed: request=r1 item=i1 reason=EPOCH_CHANGED attempts=0 "
                                         r"item_key=\S+\|\S+ producer=P1$")
        self.assertRegex(logs.output[1], r"item falls back to local encode: request=s item=i1 reason=EPOCH_CHANGED "
                                         r"attempts=0 item_key=\S+\|\S+ producer=P1$")

    def test_c3_a_read_result_after_the_budget_ran_out_does_not_revive_the_item(self):
        c = make()  # budget 60 s
        data = item_bytes(16)
        desc = descriptor("a", data)
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readReject={"attemptId": rr["attemptId"], "reason": Reason.NOT_READY,
                                                               "retryable": True, "retryAfterMs": 50_000}), 1)
        c.poll(1)
        start = grant_for(c, desc, 50_002)
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 16), 60_500)  # before the poll at 60 500
        r = admit(c, announcement(desc), 60_500)
        self.assertEqual((r.status, r.failures[0].reason), ("failed", Reason.BUDGET_EXHAUSTED))

    def test_c4_retryable_reject_backs_off_then_retries(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readReject={"attemptId": rr["attemptId"], "reason": Reason.NOT_READY}), 5)
        self.assertEqual(sends(c.poll(5), "readRequest"), [])
        retry_at = c.next_deadline()
        self.assertTrue(5 + 25 <= retry_at <= 5 + 50, retry_at)  # jitter in [d/2, d], d = 50
        with self.assertLogs("ectp.consumer", level="DEBUG") as logged:
            again = sends(c.poll(retry_at), "readRequest")[0]["readRequest"]
        # a retry the producer asked for is logged at debug level (flow control can be frequent)
        self.assertEqual([r.levelname for r in logged.records if "retrying" in r.getMessage()], ["DEBUG"])
        self.assertGreater(again["attemptId"], rr["attemptId"])
        # counted by its reason, as SPEC [C4] names the metric
        self.assertEqual(c.metrics['ectp_consumer_retries_total{reason="NOT_READY"}'], 1)

    def test_c7_c10_grant_for_a_finished_request_is_released_abandoned_and_counted(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.finish_request("r1", 1)
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 3, "item": desc}), 2)
        acks = sends(c.poll(2), "readComplete")
        self.assertEqual([a["readComplete"]["status"] for a in acks], [Completion.ABANDONED])
        # [C10] a grant nobody wants is also ignored and counted, by its reason
        self.assertEqual(c.stats()["ignoredMessages"], 1)
        self.assertEqual(c.metrics['ectp_consumer_ignored_messages_total{reason="unwanted_grant"}'], 1)

    def test_c8_overdue_read_is_quarantined_and_destination_kept_until_settled(self):
        c = make(ConsumerConfig(transfer_timeout_ms=100))
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 0)
        outs = c.poll(100)
        self.assertTrue(any(isinstance(o, CancelRead) for o in outs))
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.TRANSFER_TIMEOUT)
        self.assertEqual((c.stats()["quarantined"], c.stats()["destinations"]), (1, 1))  # [I5]
        c.handle_read_result(ReadResult(start.read_id, "cancelled"), 150)
        self.assertEqual((c.stats()["quarantined"], c.stats()["destinations"]), (0, 0))

    def test_c8_an_overdue_read_is_named_by_whichever_deadline_came_first_whenever_it_is_noticed(self):
        c = make(ConsumerConfig(transfer_timeout_ms=20_000))
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[-1]["readRequest"]
        # a lease of 10 s: shorter than the transfer timeout (less the 5 s margin: 5 s)
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 7, "item": desc, "leaseMs": 10_000}), 0)
        c.poll(0)
        c.poll(5_000)  # receipt + lease - margin: the lease deadline comes before the transfer's
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.LEASE_EXPIRED)
        c2 = make(ConsumerConfig(transfer_timeout_ms=2_000))
        admit(c2, announcement(desc), 0)
        grant_for(c2, desc, 0)
        for t in range(1000, 26_001, 1000):  # the producer stays alive meanwhile
            c2.handle_envelope("P1", envelope("P1", 5, heartbeat={"sequence": t}), t)
        c2.poll(26_000)  # first noticed long after both deadlines: the transfer deadline (2 s) came first
        self.assertEqual(c2.drain_failed()[0].failures[0].reason, Reason.TRANSFER_TIMEOUT)

    def test_c4_a_reject_of_reason_unspecified_or_negative_is_terminal_internal_whatever_its_flag(self):
        for reason in (0, -3, None):
            c = make()
            desc = descriptor("a", item_bytes(8))
            admit(c, announcement(desc), 0)
            rr = sends(c.poll(0), "readRequest")[-1]["readRequest"]
            rj = {"attemptId": rr["attemptId"], "retryable": True}
            if reason is not None:
                rj["reason"] = reason
            c.handle_envelope("P1", envelope("P1", 5, readReject=rj), 1)
            self.assertEqual(sends(c.poll(1000), "readRequest"), [], reason)
            self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.INTERNAL, reason)

    def test_i1_a_clock_reading_that_is_not_a_finite_number_is_replaced_by_the_last_good_one(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        c.poll(0)
        with self.assertLogs("ectp.consumer", level="ERROR") as logged:
            admit(c, announcement(desc), float("nan"))  # counts as t=0, the last good reading
        self.assertIn("not a finite number", logged.output[0])
        c.poll(1)
        self.assertEqual(c.drain_failed(), [])  # a NaN budget deadline failed the request at once
        c.poll(60_000)  # the wait budget (60 s) runs from t=0: it ends then, as from any good reading
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.BUDGET_EXHAUSTED)

    def test_p8_idle_peer_records_are_swept_when_the_table_doubles(self):
        c = make()
        for i in range(5000):
            hello = {"role": 1, "capabilities": [], "transportMetadata": b"m" * 64, "heartbeatIntervalMs": 2000}
            c.handle_envelope(f"s-{i}", envelope(f"s-{i}", 1, hello=hello), 0)
        self.assertLess(len(c._peers), 2048)

    def test_c8_with_the_quarantine_cap_disabled_a_destination_is_held_until_its_read_settles(self):
        c = make(ConsumerConfig(transfer_timeout_ms=100, quarantine_cap_ms=math.inf))
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 0)
        c.poll(100)
        c.poll(10**9)  # no cap: a day later it is still held
        self.assertEqual((c.stats()["quarantined"], c.stats()["destinations"]), (1, 1))
        c.handle_read_result(ReadResult(start.read_id, "cancelled"), 10**9 + 1)
        self.assertEqual((c.stats()["quarantined"], c.stats()["destinations"]), (0, 0))
        with self.assertRaises(EctpError):
            ConsumerConfig(quarantine_cap_ms=-math.inf).validate()

    def test_c8_i5_a_read_result_of_unknown_status_frees_nothing_and_the_read_settles_later(self):
        c = make()
        data = item_bytes(16)
        desc = descriptor("a", data)
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 1)
        with self.assertLogs("ectp.consumer", "ERROR") as logs:
            for status in ("in-progress", None, 1, "DONE"):
                c.handle_read_result(ReadResult(start.read_id, status, 16), 2)
                self.assertEqual(sends(c.poll(2), "readComplete"), [])
        self.assertEqual(len(logs.records), 4)
        self.assertEqual(c.metrics['ectp_consumer_ignored_messages_total{reason="malformed_read_result"}'], 4)
        self.assertEqual((c.stats()["readsInFlight"], c.stats()["destinations"]), (1, 1))  # still the transport's
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 16), 3)
        self.assertEqual(sends(c.poll(3), "readComplete")[0]["readComplete"]["status"], Completion.OK)
        self.assertEqual(admit(c, announcement(desc), 4).items[0].action, "ready")

    def test_c11_checksum_mismatch_is_never_loaded(self):
        c = make()
        data = item_bytes(16)
        desc = descriptor("a", data)
        admit(c, announcement(desc), 0, model=True)
        start = grant_for(c, desc, 1)
        start.destination.buffer[:] = bytes(16)  # wrong bytes, right size
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.handle_read_result(ReadResult(start.read_id, "done", 16), 2)
        # [C5] the fallback's warning names the item (not its key), then its key and producer, then what the read found
        self.assertRegex(logs.output[-1], r"item falls back to local encode: request=r1 item=i1 reason=CHECKSUM_MISMATCH "
                                          r"attempts=1 item_key=\S+\|\S+ producer=P1 "
                                          rf"detail=CRC-32C of the bytes read {crc32c(bytes(16))}, announced {crc32c(data)}$")
        self.assertEqual(sends(c.poll(2), "readComplete")[0]["readComplete"]["status"], Completion.FAILED)
        d = admit(c, announcement(desc), 3, model=True).items[0]
        self.assertEqual((d.action, d.reason), ("local-encode", Reason.CHECKSUM_MISMATCH))

    def test_c9_c11_a_fetch_started_by_a_wrong_checksum_fails_that_item_alone(self):
        c = make()
        data = item_bytes(16)
        right = descriptor("a", data)
        wrong = {**right, "checksum": {"algorithm": 1, "value": bytes(4)}}
        admit(c, announcement(wrong), 0)  # starts the fetch
        admit(c, announcement(right), 0, request="r2")  # joins it
        admit(c, announcement(descriptor("a", data, checksum=False)), 0, request="r3")  # joins, no checksum
        start = grant_for(c, right, 1)
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 16), 2)
        self.assertEqual(sends(c.poll(2), "readComplete")[0]["readComplete"]["status"], Completion.OK)
        self.assertEqual([(f.request_id, f.failures[0].reason) for f in c.drain_failed()], [("r1", Reason.CHECKSUM_MISMATCH)])
        self.assertEqual(admit(c, announcement(right), 3, request="r2").items[0].action, "ready")

    def test_c9_c11_announcement_of_another_size_joins_nothing(self):
        c = make()
        data = item_bytes(16)
        desc = descriptor("a", data, checksum=False)
        other = {**desc, "sizeBytes": 32}
        admit(c, announcement(desc), 0)
        r2 = admit(c, announcement(other), 0, request="r2")
        self.assertEqual((r2.status, r2.failures[0].reason), ("failed", Reason.SIZE_MISMATCH))
        d3 = admit(c, announcement(other), 0, model=True, request="r3").items[0]
        self.assertEqual((d3.action, d3.reason), ("local-encode", Reason.SIZE_MISMATCH))
        start = grant_for(c, desc, 1)
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 16), 2)
        self.assertEqual(admit(c, announcement(desc), 3).items[0].action, "ready")
        r4 = admit(c, announcement(other), 3, request="r4")
        self.assertEqual((r4.status, r4.failures[0].reason), ("failed", Reason.SIZE_MISMATCH))
        # Two items of one admission naming one key with two sizes: the second fails, no fetch starts.
        b = descriptor("b", data, checksum=False)
        r5 = c.admit("r5", [AdmitItem("i1", announcement(b)), AdmitItem("i2", announcement({**b, "sizeBytes": 32}))], 4)
        self.assertEqual((r5.status, r5.failures[0].item_id, r5.failures[0].reason), ("failed", "i2", Reason.SIZE_MISMATCH))
        self.assertEqual(sends(c.poll(4), "readRequest"), [])

    def test_p8_a_read_failed_with_peer_gone_ends_the_producer(self):
        c = make()
        da, db = descriptor("a", item_bytes(8)), descriptor("b", item_bytes(8, seed=9))
        c.admit("r1", [AdmitItem("i1", announcement(da), has_model_input=True)], 0)
        c.admit("r2", [AdmitItem("i1", announcement(db), has_model_input=True)], 0)
        rrs = [m["readRequest"] for m in sends(c.poll(0), "readRequest")]
        for gid, rr, d in ((11, rrs[0], da), (12, rrs[1], db)):
            c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": gid, "item": d}), 1)
        starts = [o for o in c.poll(1) if isinstance(o, StartRead)]
        c.handle_read_result(ReadResult(starts[0].read_id, "failed", peer_gone=True), 2)
        outs = c.poll(2)
        self.assertEqual(sends(outs, "readComplete"), [])  # nothing to a gone peer
        self.assertEqual([o.read_id for o in outs if isinstance(o, CancelRead)], [starts[1].read_id])
        d = c.admit("r2", [AdmitItem("i1", announcement(db), has_model_input=True)], 2).items[0]
        self.assertEqual((d.action, d.reason), ("local-encode", Reason.PEER_UNREACHABLE))

    def test_c11_config_rejected_when_transfer_timeout_exceeds_lease_minus_margin(self):
        with self.assertRaises(EctpError) as ctx:
            make(ConsumerConfig(transfer_timeout_ms=26_000))
        self.assertEqual(ctx.exception.code, "INVALID_CONFIG")

    def test_config_durations_past_2_53_minus_1_are_rejected_as_the_ts_reference_rejects_them(self):
        for value in (2**53, 2**64 - 1):
            with self.subTest(value=value), self.assertRaisesRegex(EctpError, "wait_budget_ms must be a positive integer of at most 2"):
                make(ConsumerConfig(wait_budget_ms=value))
        make(ConsumerConfig(wait_budget_ms=2**53 - 1))

    def test_p8_config_rejected_when_the_heartbeat_interval_does_not_fit_the_hellos_uint32(self):
        with self.assertRaisesRegex(EctpError, "heartbeat_interval_ms must fit in 32 bits"):
            make(ConsumerConfig(heartbeat_interval_ms=2**32))
        make(ConsumerConfig(heartbeat_interval_ms=2**32 - 1))

    def test_c10_i1_malformed_bytes_and_stale_messages_are_counted_not_raised(self):
        c = make()
        for raw in (b"\xff\xff", b"", b"\x0a\x01"):
            c.handle_message("P1", raw, 0)
        c.handle_envelope("P1", {"senderId": 3}, 0)
        c.handle_envelope("P1", envelope("P1", 5, readReject={"attemptId": 99}), 0)
        self.assertEqual(c.stats()["ignoredMessages"], 5)

    def test_c10_an_unsolicited_handshake_reject_is_ignored_and_later_fetches_go_ahead(self):
        c = make()
        for i in range(2000):
            c.handle_envelope(f"x-{i}", envelope(f"x-{i}", 1, handshakeReject={"reason": Reason.INCOMPATIBLE}), 1)
        self.assertEqual(c.stats()["ignoredMessages"], 2000)
        # a VERSION refusal from another major, after P1 was heard from, is unsolicited too
        c.handle_envelope("P1", envelope("P1", 5, heartbeat={"sequence": 1}), 2)
        c.handle_message("P1", codec.encode("ectp.v1.Envelope", {"version": {"major": 2, "minor": 0}, "senderId": "P1",
                                                             "senderEpoch": 5, "handshakeReject": {"reason": Reason.VERSION}}), 2)
        c.handle_envelope("P1", envelope("P1", 5, handshakeReject={"reason": Reason.INCOMPATIBLE}), 2)
        desc = descriptor("a", item_bytes(64))
        admit(c, announcement(desc), 3)
        out = c.poll(3)
        self.assertEqual(len(sends(out, "hello")), 1)
        self.assertEqual(len(sends(out, "readRequest")), 1)


    def test_c1_a_waiting_item_readmitted_as_local_is_ready_and_its_fetch_abandoned(self):
        c = make()
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        d = c.admit("r1", [AdmitItem("i1", None, local=True)], 10).items[0]
        self.assertEqual(d.action, "ready")
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 3, "item": desc}), 20)
        acks = sends(c.poll(20), "readComplete")
        self.assertEqual([a["readComplete"]["status"] for a in acks], [Completion.ABANDONED])
        self.assertEqual(c.drain_failed(), [])

    def test_c1_an_item_sent_to_local_encode_and_presented_as_local_is_ready(self):
        c = make()
        ann = announcement(descriptor("a", item_bytes(8)))
        c.admit("r1", [AdmitItem("i1", ann, has_model_input=True)], 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readReject={"attemptId": rr["attemptId"], "reason": Reason.NOT_FOUND}), 1)
        c.poll(1)
        d = c.admit("r1", [AdmitItem("i1", ann, has_model_input=True)], 2).items[0]
        self.assertEqual((d.action, d.reason), ("local-encode", Reason.NOT_FOUND))
        d = c.admit("r1", [AdmitItem("i1", ann, has_model_input=True, local=True)], 3).items[0]
        self.assertEqual((d.action, d.reason), ("ready", None))
        # Ready from then on, as any decision is sticky; nothing is sent for it.
        self.assertEqual(c.admit("r1", [AdmitItem("i1", ann, has_model_input=True)], 4).items[0].action, "ready")
        self.assertEqual(c.poll(5), [])
        self.assertEqual(c.drain_failed(), [])

    def test_c11_i1_a_clock_reading_earlier_than_the_latest_is_read_as_the_latest(self):
        c = make()  # transfer timeout 20 s
        data = item_bytes(16)
        desc = descriptor("a", data)
        admit(c, announcement(desc), 0)
        start = grant_for(c, desc, 1000)
        start.destination.buffer[:] = data
        c.admit("other", [AdmitItem("x", None, local=True)], 25_000)  # the latest reading
        c.handle_read_result(ReadResult(start.read_id, "done", 16), 2000)  # a reading from before it
        acks = sends(c.poll(2000), "readComplete")
        self.assertEqual([a["readComplete"]["status"] for a in acks], [Completion.FAILED])
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.TRANSFER_TIMEOUT)

    def test_c11_a_grant_without_size_bytes_is_a_size_mismatch(self):
        for item in ({k: v for k, v in descriptor("a", item_bytes(8)).items() if k != "sizeBytes"}, {}):
            c = make()
            desc = descriptor("a", item_bytes(8))
            admit(c, announcement(desc), 0)
            rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
            c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 3, "item": item}), 1)
            acks = sends(c.poll(1), "readComplete")
            self.assertEqual([a["readComplete"]["status"] for a in acks], [Completion.FAILED])
            self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.SIZE_MISMATCH, item)

    def test_c3_i1_a_clock_whose_readings_are_negative_is_taken_as_it_is(self):
        c = make(ConsumerConfig(wait_budget_ms=1000))
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), -10_000)
        c.poll(-10_000)
        self.assertEqual(c.next_deadline(), -9_000)
        self.assertEqual(admit(c, announcement(desc), -9_000).status, "failed")

    def test_p8_a_producer_reported_gone_while_nothing_is_held_is_greeted_again(self):
        for how in ("unreachable", "read failed, peer gone"):
            c = make()
            da, db = descriptor("a", item_bytes(8)), descriptor("b", item_bytes(8, seed=9))
            admit(c, announcement(da), 0)
            first = c.poll(0)
            self.assertEqual(len(sends(first, "hello")), 1, how)
            rr = sends(first, "readRequest")[0]["readRequest"]
            if how == "unreachable":
                c.handle_envelope("P1", envelope("P1", 5, readReject={"attemptId": rr["attemptId"], "reason": Reason.NOT_FOUND}), 1)
                c.poll(1)
                c.handle_peer_unreachable("P1", 2)
            else:
                c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 3, "item": da}), 1)
                start = [o for o in c.poll(1) if isinstance(o, StartRead)][0]
                c.handle_read_result(ReadResult(start.read_id, "failed", peer_gone=True), 2)
            c.drain_failed()
            c.finish_request("r1", 3)
            admit(c, announcement(db), 4, request="r2")
            self.assertEqual(len(sends(c.poll(4), "hello")), 1, how)

    def test_p8_c10_a_second_hello_of_the_same_producer_epoch_changes_nothing(self):
        """SPEC 4.1: a duplicate Hello (same epoch) changes no state: not the interval, not the metadata."""
        c = make(ConsumerConfig(transfer_timeout_ms=300_000, lease_ms=400_000, wait_budget_ms=300_000))

        def hello(interval_ms: int, meta: bytes) -> dict:
            return envelope("P1", 5, hello={"role": 1, "heartbeatIntervalMs": interval_ms, "transportMetadata": meta})

        c.handle_envelope("P1", hello(10_000, b"\x04"), 0)
        c.handle_envelope("P1", hello(500, b"\x05"), 0)
        self.assertEqual(c.stats()["ignoredMessages"], 1)
        da = descriptor("a", item_bytes(8))
        admit(c, announcement(da), 1000)
        out = c.poll(1000)
        self.assertEqual([o for o in out if isinstance(o, ConnectPeer)], [ConnectPeer("P1", 5, b"\x04")])
        rr = sends(out, "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 1, "item": da, "leaseMs": 400_000}), 1000)
        c.poll(1000)
        cancelled_at = None
        t = 1000
        while t <= 40_000 and cancelled_at is None:
            if any(isinstance(o, CancelRead) for o in c.poll(t)):
                cancelled_at = t
            t += 1000
        self.assertEqual(cancelled_at, 31_000)  # 3 x the first Hello's 10 s, not 3 x 2 s
        # Gone: the Hello answering our next one is applied afresh, its metadata included.
        admit(c, announcement(descriptor("b", item_bytes(8, seed=9))), 40_000, request="r2")
        self.assertEqual(len(sends(c.poll(40_000), "hello")), 1)
        c.handle_envelope("P1", hello(10_000, b"\x06"), 40_001)
        self.assertEqual([o for o in c.poll(40_001) if isinstance(o, ConnectPeer)], [ConnectPeer("P1", 5, b"\x06")])

    def test_p8_announcements_of_two_epochs_of_a_silent_producer_neither_greet_nor_connect_it_alternately(self):
        c = make(ConsumerConfig(grant_wait_ms=1000, wait_budget_ms=60_000, backoff_initial_ms=10, backoff_max_ms=10))
        for request, name, epoch in (("r1", "a", 4), ("r2", "b", 5)):
            ann = announcement(descriptor(name, item_bytes(8), epoch=epoch))
            ann["transportMetadata"] = bytes([epoch])
            c.admit(request, [AdmitItem("i1", ann)], 0)

        def kinds(outs) -> list[str]:
            return [next((k for k in ("hello", "readRequest") if k in o.envelope), "other") if hasattr(o, "envelope")
                    else type(o).__name__ for o in outs]

        self.assertEqual(kinds(c.poll(0)), ["ConnectPeer", "hello", "readRequest", "ConnectPeer", "hello", "readRequest"])
        retries = [k for t in range(100, 5001, 100) for k in kinds(c.poll(t))]
        self.assertGreaterEqual(retries.count("readRequest"), 4)
        self.assertEqual([k for k in retries if k in ("hello", "ConnectPeer")], [])

    def test_c11_a_grant_without_any_descriptor_reads_as_size_0_size_mismatch(self):
        c = make()
        admit(c, announcement(descriptor("a", item_bytes(8))), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 3}), 1)
        c.poll(1)
        self.assertEqual([(f.item_id, f.reason) for r in c.drain_failed() for f in r.failures], [("i1", Reason.SIZE_MISMATCH)])

    def test_c1_p8_a_greater_epoch_announced_during_a_read_takes_the_fetch_over_when_that_read_fails(self):
        """[C1][P8] r1 reads at epoch 5; r2 joins with epoch 6's announcement; the old read fails
        (producer gone, its new epoch heard, or epoch 5 refused a Hello): the fetch retries at epoch 6
        and both load. Not when epoch 6 is itself outdated by then, nor after epoch 6 refused one."""
        data = item_bytes(64)
        old_desc, new_desc = descriptor("a", data), descriptor("a", data, epoch=6, location=b"new")

        def restart_during_read():
            c = make(ConsumerConfig(heartbeat_interval_ms=1_000_000, backoff_initial_ms=10, backoff_max_ms=10))
            admit(c, announcement(old_desc), 0)
            old = grant_for(c, old_desc, 1)
            self.assertEqual(admit(c, announcement(new_desc), 2, request="r2").items[0].action, "defer")
            self.assertEqual(sends(c.poll(2), "readRequest"), [])  # the read in flight goes on
            return c, old

        for end in ("peer gone", "new epoch", "old epoch refused"):
            with self.subTest(end=end):
                c, old = restart_during_read()
                if end == "peer gone":
                    c.handle_read_result(ReadResult(old.read_id, "failed", 0, peer_gone=True), 3)
                elif end == "new epoch":
                    c.handle_envelope("P1", envelope("P1", 6, heartbeat={}), 3)
                else:
                    c.handle_envelope("P1", envelope("P1", 5, handshakeReject={"reason": Reason.INCOMPATIBLE}), 3)
                    self.assertEqual(c.drain_failed(), [])
                rr = sends(c.poll(20), "readRequest")
                self.assertEqual([r["readRequest"]["expectedEpoch"] for r in rr], [6])
                c.handle_envelope("P1", envelope("P1", 6, readGrant={
                    "attemptId": rr[0]["readRequest"]["attemptId"], "grantId": 9, "item": new_desc, "leaseMs": 30000}), 21)
                start = [o for o in c.poll(21) if isinstance(o, StartRead)][0]
                start.destination.buffer[:] = data
                c.handle_read_result(ReadResult(start.read_id, "done", len(data)), 22)
                self.assertEqual(admit(c, announcement(old_desc), 23).items[0].action, "ready")
                self.assertEqual(admit(c, announcement(new_desc), 23, request="r2").items[0].action, "ready")
                self.assertEqual(c.drain_failed(), [])

        c, _ = restart_during_read()
        c.handle_envelope("P1", envelope("P1", 7, heartbeat={}), 3)  # epoch 7: the announced 6 is gone too
        self.assertEqual([f.failures[0].reason for f in c.drain_failed()], [Reason.EPOCH_CHANGED] * 2)
        c, _ = restart_during_read()
        c.handle_envelope("P1", envelope("P1", 6, handshakeReject={"reason": Reason.INCOMPATIBLE}), 3)
        self.assertEqual([f.failures[0].reason for f in c.drain_failed()], [Reason.INCOMPATIBLE] * 2)

    def test_c1_p8_a_late_refusal_by_the_older_epoch_leaves_a_fetch_moved_to_a_greater_epoch_going(self):
        """SPEC.md 4.2: the refusal stops reads to the epoch that refused; the fetch asks epoch 6 now."""
        data = item_bytes(64)
        old_desc, new_desc = descriptor("a", data), descriptor("a", data, epoch=6)
        c = make(ConsumerConfig(heartbeat_interval_ms=1_000_000))
        admit(c, announcement(old_desc), 0)
        c.poll(0)  # Hello and ReadRequest to epoch 5
        admit(c, announcement(new_desc), 10, request="r2")
        moved = c.poll(10)
        self.assertEqual(len(sends(moved, "hello")), 1)  # epoch 6 greeted
        rr = sends(moved, "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, handshakeReject={"reason": Reason.INCOMPATIBLE}), 11)
        self.assertEqual(c.drain_failed(), [])
        self.assertEqual(sends(c.poll(11), "hello"), [])  # epoch 6's Hello stands
        r3 = c.admit("r3", [AdmitItem("i2", announcement(descriptor("b", data)), has_model_input=False)], 12)
        self.assertEqual((r3.status, r3.failures[0].reason), ("failed", Reason.INCOMPATIBLE))  # epoch 5 stays refused
        c.handle_envelope("P1", envelope("P1", 6, readGrant={
            "attemptId": rr["attemptId"], "grantId": 9, "item": new_desc, "leaseMs": 30000}), 13)
        start = [o for o in c.poll(13) if isinstance(o, StartRead)][0]
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", len(data)), 14)
        self.assertEqual(admit(c, announcement(old_desc), 15).items[0].action, "ready")
        self.assertEqual(admit(c, announcement(new_desc), 15, request="r2").items[0].action, "ready")

    def test_c1_p8_metadata_of_a_later_announcement_of_the_fetchs_epoch_is_kept_for_the_fetch(self):
        """A retry after the producer was lost (its metadata forgotten) reconnects with the metadata a
        joining announcement carried: of the epoch the fetch moves to, or of the fetch's own epoch."""
        data = item_bytes(64)
        old_desc, new_desc = descriptor("a", data), descriptor("a", data, epoch=6)
        with_meta = {**announcement(new_desc), "transportMetadata": b"\x06"}
        c = make(ConsumerConfig(heartbeat_interval_ms=1_000_000, backoff_initial_ms=10, backoff_max_ms=10))
        admit(c, announcement(old_desc), 0)
        old = grant_for(c, old_desc, 1)
        admit(c, announcement(new_desc), 2, request="r2")  # epoch 6, no metadata yet
        admit(c, with_meta, 3, request="r3")
        c.poll(3)
        c.handle_read_result(ReadResult(old.read_id, "failed", 0, peer_gone=True), 4)
        out = c.poll(20)
        self.assertIn(ConnectPeer("P1", 6, b"\x06"), out)
        self.assertEqual([r["readRequest"]["expectedEpoch"] for r in sends(out, "readRequest")], [6])

        c = make()  # heartbeats every 2 s, gone after 3 missed
        admit(c, announcement(old_desc), 0)
        c.poll(0)
        admit(c, {**announcement(old_desc), "transportMetadata": b"\x05"}, 1, request="r2")
        self.assertEqual([o for o in c.poll(1) if isinstance(o, ConnectPeer)], [])
        c.poll(6_000)  # silent: declared gone, its connection and metadata forgotten; the fetch retries
        retry = c.poll(7_000)
        self.assertIn(ConnectPeer("P1", 5, b"\x05"), retry)
        self.assertEqual(len(sends(retry, "readRequest")), 1)

    def test_c11_grant_checks_in_spec_order_size_before_the_envelopes_sender_epoch(self):
        # SPEC.md 4.4 step 2: the descriptor's epoch, its size, then the envelope's sender epoch.
        c = make()
        admit(c, announcement(descriptor("a", item_bytes(20), producer="P2", epoch=4)), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        item = descriptor("a", item_bytes(30), producer="P2", epoch=4)
        c.handle_envelope("P2", envelope("P2", 3, readGrant={"attemptId": rr["attemptId"], "grantId": 8, "item": item}), 1)
        c.poll(1)
        self.assertEqual([(f.item_id, f.reason) for r in c.drain_failed() for f in r.failures], [("i1", Reason.SIZE_MISMATCH)])

    def test_c1_p8_3_4_a_new_item_added_at_readmission_is_refused_before_the_known_ones_resolve_so_a_refused_epoch_starts_no_fetch(self):
        c = make()
        # P1 epoch 3 is greeted and refuses the handshake.
        c.admit("A", [AdmitItem("x", announcement(descriptor("k0", item_bytes(8), producer="P1", epoch=3)), has_model_input=True)], 0)
        c.poll(0)
        c.handle_envelope("P1", envelope("P1", 3, handshakeReject={"reason": Reason.INCOMPATIBLE}), 0)
        c.poll(0)
        # R waits for key k1 from P2.
        i1 = announcement(descriptor("k1", item_bytes(8), producer="P2", epoch=1))
        c.admit("R", [AdmitItem("i1", i1)], 0)
        c.poll(0)
        # Re-admit: a new item n8 names k1 from the refused P1 epoch 3 and comes first; i1 is now local,
        # which would abandon k1's fetch, and n8 must not start one from the refused epoch. A request's
        # items are fixed (SPEC.md 3.4), so the call is refused before anything changes.
        with self.assertRaisesRegex(EctpError, r"items\[0\] \('n8'\) was not in the request's first admission"):
            c.admit("R", [AdmitItem("n8", announcement(descriptor("k1", item_bytes(8), producer="P1", epoch=3)), has_model_input=True),
                          AdmitItem("i1", i1, local=True)], 1)
        r = c.admit("R", [AdmitItem("i1", i1, local=True)], 1)
        self.assertEqual([(d.item_id, d.action) for d in r.items], [("i1", "ready")])
        self.assertEqual(sends(c.poll(1), "readRequest"), [])

    def test_p8_a_hello_of_an_older_epoch_than_the_one_connected_does_not_connect_back_to_it(self):
        c = make()
        ann = announcement(descriptor("a", item_bytes(8), epoch=5))
        ann["transportMetadata"] = b"\x05"
        admit(c, ann, 0)
        self.assertEqual([o for o in c.poll(0) if isinstance(o, ConnectPeer)], [ConnectPeer("P1", 5, b"\x05")])
        c.handle_envelope("P1", envelope("P1", 3, hello={"role": 1, "transportMetadata": b"\x03"}), 1)  # not stale: nothing heard yet
        self.assertEqual([o for o in c.poll(1) if isinstance(o, ConnectPeer)], [])

    def test_c5_a_handshake_reject_of_a_reason_a_refusal_cannot_have_ends_the_fetch_internal(self):
        for reason in (Reason.NOT_READY, Reason.BUDGET_EXHAUSTED, Reason.PEER_UNREACHABLE, 999):
            c = make()
            admit(c, announcement(descriptor("a", item_bytes(8))), 0)
            c.poll(0)
            c.handle_envelope("P1", envelope("P1", 5, handshakeReject={"reason": reason}), 1)
            c.poll(1)
            self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.INTERNAL, reason)

    def test_c3_c7_c10_a_grant_after_every_waiters_budget_ran_out_is_released_unread_and_counted(self):
        c = make()  # budget 60 s
        desc = descriptor("a", item_bytes(8))
        admit(c, announcement(desc), 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 3, "item": desc}), 60_001)
        out = c.poll(60_001)
        self.assertEqual([o for o in out if isinstance(o, StartRead)], [])
        self.assertEqual([a["readComplete"]["status"] for a in sends(out, "readComplete")], [Completion.ABANDONED])
        # [C10] as every grant nobody waits for: released and counted
        self.assertEqual(c.stats()["ignoredMessages"], 1)
        self.assertEqual(c.metrics['ectp_consumer_ignored_messages_total{reason="unwanted_grant"}'], 1)
        self.assertEqual(c.drain_failed()[0].failures[0].reason, Reason.BUDGET_EXHAUSTED)
        c.finish_request("r1", 60_002)
        self.assertEqual(c.stats()["destinations"], 0)

    def test_c11_a_read_result_handled_after_its_deadline_ends_by_that_deadline(self):
        # grant received at 1: transfer deadline 20 001, lease deadline 1 + 30 000 - 5 000 = 25 001
        for at, reason in ((21_000, Reason.TRANSFER_TIMEOUT), (30_000, Reason.LEASE_EXPIRED)):
            for status, size in (("failed", 0), ("done", 15)):
                c = make()
                desc = descriptor("a", item_bytes(16))
                admit(c, announcement(desc), 0)
                start = grant_for(c, desc, 1)
                c.handle_read_result(ReadResult(start.read_id, status, size), at)
                c.poll(at)
                self.assertEqual(c.drain_failed()[0].failures[0].reason, reason, (at, status))

    def test_c11_constructor_refuses_an_unusable_id_epoch_or_fingerprint(self):
        for ident, epoch, fp, pattern in (("", 1, FP, "id must be a non-empty string"),
                                          (7, 1, FP, "id must be a non-empty string"),
                                          ("C1", 0, FP, "epoch must be a positive integer"),
                                          ("C1", True, FP, "epoch must be a positive integer"),
                                          ("C1", 2**53, FP, "epoch must be a positive integer"),
                                          ("C1", 1, {"model": 3}, "fingerprint is malformed"),
                                          # as the wire carries them: dtype an enum value, the others uint32
                                          ("C1", 1, {**FP, "dtype": 2**31}, "fingerprint is malformed"),
                                          ("C1", 1, {**FP, "rowBytes": 2**32}, "fingerprint is malformed"),
                                          ("C1", 1, {**FP, "layoutVersion": 2**32}, "fingerprint is malformed"),
                                          ("C1", 1, "test/model@1", "fingerprint is malformed")):
            with self.subTest(ident=ident, epoch=epoch, fp=fp), self.assertRaisesRegex(EctpError, pattern) as ctx:
                ConsumerCore(ident, epoch, fp, pool())
            self.assertEqual(ctx.exception.code, "INVALID_CONFIG")
        self.assertEqual(ConsumerCore("C1", 2**53 - 1, None, pool()).fingerprint.model, "")  # absent: all-default
        top = ConsumerCore("C1", 1, {"model": "m", "dtype": 2**31 - 1, "rowBytes": 2**32 - 1, "layoutVersion": 2**32 - 1}, pool())
        self.assertEqual((top.fingerprint.dtype, top.fingerprint.row_bytes), (2**31 - 1, 2**32 - 1))

    def test_c1_admit_refuses_a_bad_request_id_item_or_duplicate_item_id_before_acting(self):
        c = make()
        ann = announcement(descriptor("a", item_bytes(8)))
        for rid, items, pattern in (("", [AdmitItem("i1", ann)], "request_id must be a non-empty string"),
                                    (None, [AdmitItem("i1", ann)], "request_id must be a non-empty string"),
                                    ("r1", [{"item_id": "i1"}], r"items\[0\] must be an AdmitItem with a string item_id"),
                                    ("r1", [AdmitItem("i1", ann), AdmitItem(2, ann)], r"items\[1\] must be an AdmitItem"),
                                    ("r1", [AdmitItem("i1", ann), AdmitItem("i1", None, has_model_input=True)],
                                     "duplicate item id 'i1'")):
            with self.subTest(rid=rid, items=items), self.assertRaisesRegex(EctpError, pattern) as ctx:
                c.admit(rid, items, 0)
            self.assertEqual(ctx.exception.code, "INVALID_ARGUMENT")
        self.assertEqual(sends(c.poll(0), "readRequest"), [])  # nothing was started
        self.assertEqual(c.stats()["requests"], 0)

    def test_c4_config_rejected_when_the_first_backoff_exceeds_the_largest(self):
        with self.assertRaisesRegex(EctpError, r"backoff_initial_ms \(2001\) must be <= backoff_max_ms \(2000\)") as ctx:
            make(ConsumerConfig(backoff_initial_ms=2001))
        self.assertEqual(ctx.exception.code, "INVALID_CONFIG")
        make(ConsumerConfig(backoff_initial_ms=2000))  # equal is fine

    def test_c1_finishing_a_request_never_admitted_or_already_finished_changes_nothing(self):
        c = make()
        admit(c, announcement(descriptor("a", item_bytes(8))), 0)
        c.finish_request("r1", 1)
        before = (c.stats(), dict(c.metrics))
        with self.assertNoLogs("ectp", level="ERROR"):
            c.finish_request("r1", 2)
            c.finish_request("never", 2)
        self.assertEqual((c.stats(), dict(c.metrics)), before)

    def test_c7_finishing_a_request_by_an_id_that_is_not_a_non_empty_string_is_invalid_argument_and_releases_nothing(self):
        c = make()
        admit(c, announcement(descriptor("a", item_bytes(8))), 0)
        before = c.stats()
        for bad in (1, None, ["r1"], ""):
            with self.assertRaisesRegex(EctpError, "finish_request: request_id must be the non-empty string id the request was admitted with") as ctx:
                c.finish_request(bad, 1)
            self.assertEqual(ctx.exception.code, "INVALID_ARGUMENT")
        self.assertEqual(c.stats(), before)


class DescriptorValidationTest(unittest.TestCase):
    """[C2] validate_descriptor: every field of an untrusted ItemDescriptor is checked, the reason
    names the field, and nothing it is given makes it raise [I1]."""

    def test_c2_each_malformed_field_is_refused_naming_it(self):
        good = descriptor("a", item_bytes(8))
        cases = (
            ({**good, "key": {**good["key"], "contentHash": b""}}, "contentHash"),
            ({**good, "key": {**good["key"], "contentHash": b"x" * 65}}, "contentHash"),
            ({**good, "key": {**good["key"], "contentHash": "abc"}}, "contentHash"),
            ({**good, "key": {**good["key"], "fingerprint": "model"}}, "fingerprint is malformed"),
            ({**good, "key": {**good["key"], "fingerprint": {**FP, "model": 5}}}, "fingerprint is malformed"),
            ({**good, "key": {**good["key"], "fingerprint": {**FP, "rowBytes": -1}}}, "fingerprint is malformed"),
            ({**good, "dtype": -1}, "dtype must be an enum value"),
            ({**good, "dtype": 2**31}, "dtype must be an enum value"),  # past int32: the wire cannot carry it
            ({**good, "dtype": "DTYPE_UINT8"}, "dtype must be an enum value"),
            ({**good, "shape": [8, -1]}, "shape must be a list of non-negative integers"),
            ({**good, "shape": 8}, "shape must be a list of non-negative integers"),
            ({**good, "location": "loc"}, "location must be bytes"),
            ({**good, "checksum": b"1234"}, "checksum must be a message"),
            ({**good, "checksum": {"algorithm": 1, "value": b"123"}}, "exactly 4 bytes"),
            ({**good, "checksum": {"algorithm": 1}}, "exactly 4 bytes"),
        )
        for d, why in cases:
            with self.subTest(why=why, d=d):
                valid, reason = validate_descriptor(d, 1 << 20)
                self.assertIsNone(valid)
                self.assertIn(why, reason)
        ok, reason = validate_descriptor({**good, "key": {**good["key"], "fingerprint": {**FP, "model": None}}}, 1 << 20)
        self.assertEqual((ok.fingerprint.model, reason), ("", ""))  # a null model is the default ""
        ok, _ = validate_descriptor({**good, "dtype": 0, "shape": [2, 4], "checksum": {"algorithm": 0}}, 1 << 20)
        self.assertEqual((ok.size_bytes, ok.crc32c), (8, None))  # no checksum algorithm: nothing to verify

    def test_i1_a_descriptor_that_raises_when_read_is_refused_not_raised(self):
        class Hostile(dict):
            def get(self, *_):
                raise RuntimeError("hostile mapping")

        valid, reason = validate_descriptor(Hostile(descriptor("a", item_bytes(8))), 1 << 20)
        self.assertIsNone(valid)
        self.assertEqual(reason, "descriptor could not be read: hostile mapping")


if __name__ == "__main__":
    unittest.main()

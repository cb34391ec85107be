"""ConsumerCore's log records as the TypeScript core writes them: one warning per producer outage [P8]
(consumer/sequences.test.ts "one warning per outage"), and a terminal failure's warning saying what the
producer or the transport said [C5] (sequences.test.ts "a failure's warning says where it came from",
failure-details.test.ts)."""

import re
import unittest

from ectp_py.config import ConsumerConfig
from ectp_py.consumer import AdmitItem, ConsumerCore, ReadResult
from ectp_py.outputs import StartRead
from ectp_py.wire import Reason

from .helpers import FP, announcement, descriptor, envelope, item_bytes, pool, sends
from .test_consumer_review_findings import failed_line

GONE_SILENT = 'ectp_consumer_peers_gone_total{cause="silent"}'
FALLBACK = "item falls back to local encode: "


def make(config: ConsumerConfig | None = None) -> ConsumerCore:
    return ConsumerCore("C1", 1, dict(FP), pool(), config=config)


def fallback_line(lines: list[str], request: str) -> str:
    """The one local-encode warning of ``request`` among captured log lines."""
    found = [m for m in lines if f"{FALLBACK}request={request} " in m]
    if len(found) != 1:
        raise AssertionError(f"expected one fallback warning for {request}: {lines}")
    return found[0]


def requested(c: ConsumerCore, *, model: bool = False, **desc_fields) -> tuple[dict, dict]:
    """Request r waits for item "a" (16 bytes; ``desc_fields`` change its descriptor); the descriptor and
    the ReadRequest sent for it."""
    desc = {**descriptor("a", item_bytes(16)), **desc_fields}
    c.admit("r", [AdmitItem("i", announcement(desc), has_model_input=model)], 0)
    return desc, sends(c.poll(0), "readRequest")[0]["readRequest"]


def reading(c: ConsumerCore, *, model: bool = False, **grant_fields) -> tuple[dict, StartRead]:
    """Request r's item is granted and its read started; its descriptor and the StartRead."""
    desc, rr = requested(c, model=model)
    c.handle_envelope("P1", envelope("P1", 5, readGrant={
        "attemptId": rr["attemptId"], "grantId": 7, "item": desc, "leaseMs": 30_000, **grant_fields}), 1)
    return desc, [o for o in c.poll(1) if isinstance(o, StartRead)][0]


class OneWarningPerOutageTest(unittest.TestCase):
    @staticmethod
    def gone_levels(lines: list[str]) -> list[str]:
        """The level of each record that declared P1 gone, in order."""
        return [m.split(":", 1)[0] for m in lines
                if "producer P1 unreachable" in m or "producer P1 still unreachable" in m]

    @classmethod
    def poll_until_declared(cls, c: ConsumerCore, lines: list[str], start: int, end: int, count: int) -> int:
        """Poll every 10 ms from ``start`` to at most ``end`` until P1 was declared gone ``count`` times in
        ``lines``; the time of the next poll."""
        t = start
        while t <= end and len(cls.gone_levels(lines)) < count:
            c.poll(t)
            t += 10
        return t

    # [P8] each retry's new Hello unanswered: one outage, warned of once, every declaration counted
    def test_p8_a_producer_declared_gone_again_with_nothing_heard_since_is_logged_at_info_and_heard_from_warns_again(self):
        c = make(ConsumerConfig(heartbeat_interval_ms=100, grant_wait_ms=100_000, wait_budget_ms=100_000))
        c.admit("r", [AdmitItem("i", announcement(descriptor("a", item_bytes(16))))], 0)
        with self.assertLogs("ectp.consumer", "INFO") as logs:
            self.poll_until_declared(c, logs.output, 0, 3_000, 3)
            self.assertEqual(self.gone_levels(logs.output), ["WARNING", "INFO", "INFO"])
            # heard from again (a heartbeat): a later outage is a new one
            c.handle_envelope("P1", envelope("P1", 5, heartbeat={}), 3_001)
            self.poll_until_declared(c, logs.output, 3_010, 6_000, 4)
        self.assertEqual(self.gone_levels(logs.output), ["WARNING", "INFO", "INFO", "WARNING"])
        self.assertEqual(c.metrics[GONE_SILENT], 2)  # counted per outage, as warned

    # [P8] a message of another major is not hearing from the producer: the outage goes on
    def test_p8_a_message_of_another_major_does_not_end_the_outage(self):
        c = make(ConsumerConfig(heartbeat_interval_ms=100, grant_wait_ms=100_000, wait_budget_ms=100_000))
        c.admit("r", [AdmitItem("i", announcement(descriptor("a", item_bytes(16))))], 0)
        with self.assertLogs("ectp.consumer", "INFO") as logs:
            t = self.poll_until_declared(c, logs.output, 0, 3_000, 1)
            c.handle_envelope("P1", {**envelope("P1", 5, heartbeat={}), "version": {"major": 2, "minor": 0}}, t)
            self.poll_until_declared(c, logs.output, t, 6_000, 2)
        self.assertEqual(self.gone_levels(logs.output), ["WARNING", "INFO"])


class FailureDetailTest(unittest.TestCase):
    # [C5] a terminal ReadReject: the producer's detail in the request's warning
    def test_c5_a_terminal_read_reject_names_its_detail_in_the_request_failed_warning(self):
        c = make()
        _, rr = requested(c)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.handle_envelope("P1", envelope("P1", 5, readReject={
                "attemptId": rr["attemptId"], "reason": Reason.NOT_FOUND, "detail": "item not held"}), 1)
        self.assertRegex(failed_line(logs.output, "r"),
                         r"reason=NOT_FOUND attempts=1 item_key=\S+ producer=P1 detail=item not held$")

    # [C5] a peer's detail is kept to 200 characters; one that is not text is none
    def test_c5_a_producers_detail_is_cut_at_200_characters_and_one_that_is_not_text_is_left_out(self):
        for detail, shown in (("x" * 300, " detail=" + "x" * 200), (12, "")):
            c = make()
            _, rr = requested(c)
            with self.assertLogs("ectp.consumer", "WARNING") as logs:
                c.handle_envelope("P1", envelope("P1", 5, readReject={
                    "attemptId": rr["attemptId"], "reason": Reason.NOT_FOUND, "detail": detail}), 1)
            self.assertTrue(failed_line(logs.output, "r").endswith(f"producer=P1{shown}"), logs.output)

    # [C5] a HandshakeReject's detail (what differed) reaches the warning of each item it ends
    def test_c5_a_handshake_rejects_detail_reaches_the_fallback_warning(self):
        c = make()
        requested(c, model=True)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.handle_envelope("P1", envelope("P1", 5, handshakeReject={
                "reason": Reason.INCOMPATIBLE, "detail": 'model "x" != "m"'}), 1)
        self.assertRegex(fallback_line(logs.output, "r"),
                         r"reason=INCOMPATIBLE attempts=1 item_key=\S+ producer=P1 detail=model \"x\" != \"m\"$")

    # [V1][C5] another major's VERSION refusal carries its detail too (its fields are frozen)
    def test_v1_c5_another_majors_version_refusal_names_its_detail(self):
        c = make()
        requested(c)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.handle_envelope("P1", {**envelope("P1", 5, handshakeReject={
                "reason": Reason.VERSION, "detail": "speaks major 2 only"}), "version": {"major": 2, "minor": 0}}, 1)
        self.assertRegex(failed_line(logs.output, "r"),
                         r"reason=VERSION attempts=1 item_key=\S+ producer=P1 detail=speaks major 2 only$")

    # [C5][C11] a failed read: the transport's error; short bytes: both sizes
    def test_c5_c11_a_failed_read_names_the_transports_error_and_a_short_read_both_sizes(self):
        for make_result, reason, detail in (
            (lambda s: ReadResult(s.read_id, "failed", 0, error="NIC reset"), "TRANSFER_FAILED", "read failed: NIC reset"),
            (lambda s: ReadResult(s.read_id, "cancelled", 0), "TRANSFER_FAILED", "read cancelled"),
            (lambda s: ReadResult(s.read_id, "done", 8), "SIZE_MISMATCH", "8 bytes read, 16 expected"),
        ):
            with self.subTest(reason=reason, detail=detail):
                c = make()
                _, start = reading(c, model=True)
                with self.assertLogs("ectp.consumer", "WARNING") as logs:
                    c.handle_read_result(make_result(start), 2)
                self.assertRegex(fallback_line(logs.output, "r"),
                                 rf"reason={reason} attempts=1 item_key=\S+ producer=P1 detail={re.escape(detail)}$")


def failure(lines: list[str]) -> str:
    """What request r's failure warning says after its item key and producer: its reason and detail."""
    line = failed_line(lines, "r")
    return re.sub(r" attempts=1 item_key=\S+", "", line[line.index(" reason="):])


class FailureDetailOfEachCauseTest(unittest.TestCase):
    """[C5] Each terminal failure of the remote path says why (failure-details.test.ts)."""

    def test_c5_p8_a_read_failed_with_the_producer_gone_names_the_transports_error(self):
        c = make()
        _, start = reading(c)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.handle_read_result(ReadResult(start.read_id, "failed", 0, peer_gone=True, error="remote disconnect (UCX)"), 5)
            c.poll(5)
        self.assertEqual(failure(logs.output),
                         " reason=PEER_UNREACHABLE producer=P1 detail=the read failed with the producer gone: remote disconnect (UCX)")

    def test_c5_p8_the_producer_reported_unreachable_during_the_read(self):
        c = make()
        reading(c)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.handle_peer_unreachable("P1", 5)
            c.poll(5)
        self.assertEqual(failure(logs.output),
                         " reason=PEER_UNREACHABLE producer=P1 detail=the transport reported the producer unreachable during the read")

    def test_c5_p8_the_producer_silent_during_the_read_names_how_many_heartbeat_intervals(self):
        c = make(ConsumerConfig(heartbeat_interval_ms=1_000, heartbeat_misses=3))
        reading(c)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            for t in range(0, 4_001, 500):
                c.poll(t)
        self.assertEqual(failure(logs.output), " reason=PEER_UNREACHABLE producer=P1 "
                         "detail=nothing heard from the producer in 3 heartbeat intervals during the read")

    def test_c5_c8_a_read_unsettled_at_its_transfer_deadline_names_the_timeout_and_the_quarantine(self):
        c = make(ConsumerConfig(transfer_timeout_ms=2_000))
        reading(c)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.poll(2_001)
        self.assertEqual(failure(logs.output), " reason=TRANSFER_TIMEOUT producer=P1 "
                         "detail=the read had not settled after transfer_timeout_ms (2000 ms); it is cancelled and quarantined")

    def test_c5_c8_a_read_unsettled_when_its_lease_ends(self):
        c = make()  # transfer timeout 20 s, lease safety margin 5 s
        reading(c, leaseMs=10_000)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.poll(5_001)
        self.assertEqual(failure(logs.output), " reason=LEASE_EXPIRED producer=P1 detail=the read had not settled when "
                         "the grant's lease (less the safety margin) ended; it is cancelled and quarantined")

    def test_c5_p8_the_producer_restarted_during_the_read_names_both_epochs(self):
        c = make()
        reading(c)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.handle_envelope("P1", envelope("P1", 6, heartbeat={"sequence": 1}), 5)
            c.poll(5)
        self.assertEqual(failure(logs.output), " reason=EPOCH_CHANGED producer=P1 "
                         "detail=the producer restarted as epoch 6; the item was announced in epoch 5")

    def grant_failure(self, item_fields: dict | None = None, *, sender_epoch: int = 5, announced_epoch: int = 5,
                      **grant_fields) -> str:
        """Request r's grant (from ``sender_epoch``, its descriptor changed by ``item_fields``, its other
        fields by ``grant_fields``) fails a check: what the failure's warning says."""
        c = make()
        desc, rr = requested(c, epoch=announced_epoch)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.handle_envelope("P1", envelope("P1", sender_epoch, readGrant={
                "attemptId": rr["attemptId"], "grantId": 7, "item": {**desc, **(item_fields or {})},
                "leaseMs": 30_000, **grant_fields}), 1)
            c.poll(1)
        return failure(logs.output)

    def test_c5_c11_a_grant_that_fails_its_checks_says_which_and_what_it_named(self):
        other = descriptor("b", item_bytes(16))
        self.assertEqual(self.grant_failure({"sizeBytes": 32}),
                         " reason=SIZE_MISMATCH producer=P1 detail=the grant names 32 bytes, the announcement 16")
        self.assertEqual(self.grant_failure({"key": other["key"]}), " reason=INVALID_ANNOUNCEMENT producer=P1 "
                         "detail=the grant's descriptor names another item key than the one requested")
        self.assertEqual(self.grant_failure({"epoch": 6}), " reason=EPOCH_CHANGED producer=P1 "
                         "detail=the grant's descriptor names epoch 6, the announcement 5")
        self.assertEqual(self.grant_failure({"producerId": ""}), " reason=INVALID_ANNOUNCEMENT producer=P1 "
                         "detail=the grant's descriptor is invalid: producerId must be a non-empty string")
        # an invalid descriptor naming another size: the sizes (proto3's 0 for an absent one)
        self.assertEqual(self.grant_failure({"producerId": "", "sizeBytes": 8}),
                         " reason=SIZE_MISMATCH producer=P1 detail=the grant names 8 bytes, the announcement 16")

    def test_c5_p8_a_grant_from_an_older_epoch_than_the_one_announced_names_both(self):
        # the item announced in epoch 6 before the producer's epoch 6 was heard; granted by epoch 5
        self.assertEqual(self.grant_failure({"epoch": 6}, sender_epoch=5, announced_epoch=6),
                         " reason=EPOCH_CHANGED producer=P1 detail=the grant came from epoch 5, the announcement named 6")

    def test_c5_c11_a_grant_whose_lease_leaves_nothing_past_the_safety_margin_names_the_lease_and_the_margin(self):
        self.assertEqual(self.grant_failure(leaseMs=4_000), " reason=LEASE_EXPIRED producer=P1 detail=the grant's lease of "
                         "4000 ms (at most lease_ms, 30000 ms) is not longer than lease_safety_margin_ms (5000 ms)")


class AdmissionDetailTest(unittest.TestCase):
    """[C2][C5] Decided at admission: an invalid announcement's warning says what was wrong with it
    (sequences.test.ts "an invalid announcement: the warning says what was wrong with it")."""

    def admitted(self, request: str, ann, model: bool = False) -> str:
        c = make()
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.admit(request, [AdmitItem("i", ann, has_model_input=model)], 0)
        return (fallback_line if model else failed_line)(logs.output, request)

    def test_c2_c5_an_invalid_announcements_warning_says_what_was_wrong_with_it(self):
        self.assertRegex(self.admitted("r", announcement({**descriptor("a", item_bytes(16)), "sizeBytes": 0})),
                         r"reason=INVALID_ANNOUNCEMENT attempts=0 detail=.*sizeBytes")
        other_major = {**announcement(descriptor("a", item_bytes(16))), "version": {"major": 2, "minor": 0}}
        self.assertTrue(self.admitted("s", other_major, model=True).endswith(
            "reason=INVALID_ANNOUNCEMENT attempts=0 detail=the announcement's spec version is not major 1"))
        self.assertTrue(self.admitted("t", "not one").endswith(
            "reason=INVALID_ANNOUNCEMENT attempts=0 detail=the announcement is of type str, not a dict"))

    def test_c2_c5_an_announcement_that_cannot_be_read_says_what_was_raised(self):
        class Unreadable(dict):
            def get(self, name, default=None):
                raise RuntimeError("boom")

        self.assertRegex(self.admitted("r", Unreadable()),
                         r"reason=INVALID_ANNOUNCEMENT attempts=0 detail=the announcement could not be read \(RuntimeError: boom\)$")


if __name__ == "__main__":
    unittest.main()

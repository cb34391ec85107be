"""ConsumerCore, as the TypeScript core's third review round left it (consumer/review-findings.test.ts):
what a warning says of a budget that ended as a grant arrived [C3], what a read found for one waiter
whose own announced checksum differs [C5][C11], and which producer losses count as outages [P8]."""

import re
import unittest

from ectp_py.config import ConsumerConfig
from ectp_py.consumer import AdmitItem, ConsumerCore, ReadResult
from ectp_py.crc32c import crc32c
from ectp_py.outputs import DisconnectPeer, StartRead
from ectp_py.wire import Reason

from .helpers import FP, announcement, descriptor, envelope, item_bytes, pool, sends
from .test_consumer import make
from .test_consumer_sequences import BlindPool

GONE = 'ectp_consumer_peers_gone_total{cause="unreachable"}'


def failed_line(lines: list[str], request: str) -> str:
    """The one "request failed" warning of ``request`` among captured log lines."""
    found = [m for m in lines if f"request failed: request={request} " in m]
    if len(found) != 1:
        raise AssertionError(f"expected one failure warning for {request}: {lines}")
    return found[0]


def grant_and_read(c: ConsumerCore, desc: dict, data: bytes) -> None:
    """Grant the one ReadRequest ``c`` sends for ``desc`` and settle its read with ``data`` landed."""
    rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
    c.handle_envelope("P1", envelope("P1", 5, readGrant={
        "attemptId": rr["attemptId"], "grantId": 1, "item": desc, "leaseMs": 30_000}), 1)
    start = [o for o in c.poll(1) if isinstance(o, StartRead)][0]
    start.destination.buffer[:] = data
    c.handle_read_result(ReadResult(start.read_id, "done", len(data)), 2)


class ConsumerReviewFindingsTest(unittest.TestCase):
    # [C3] the fetch still waited for the grant when its waiter's budget ended: not for a retry
    def test_c3_a_grant_refused_exactly_at_one_waiters_budget_deadline_says_it_waited_for_the_grant(self):
        c = make(ConsumerConfig(wait_budget_ms=1000))
        desc = descriptor("a", item_bytes(16))
        c.admit("r", [AdmitItem("i", announcement(desc))], 0)  # budget ends at 1000
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.admit("s", [AdmitItem("j", announcement(desc))], 500)  # joins; budget ends at 1500
        c.poll(500)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            # the grant names another size, handled at r's deadline before any poll
            c.handle_envelope("P1", envelope("P1", 5, readGrant={
                "attemptId": rr["attemptId"], "grantId": 3, "item": {**desc, "sizeBytes": 32}, "leaseMs": 30_000}), 1000)
        self.assertRegex(failed_line(logs.output, "r"),
                         r"reason=BUDGET_EXHAUSTED attempts=1 item_key=\S+ producer=P1 waiting_for=grant$")
        self.assertIn("reason=SIZE_MISMATCH", failed_line(logs.output, "s"))

    def shared_read(self, c: ConsumerCore, value: bytes) -> tuple[bytes, list[str]]:
        """Requests r1 (announced without a checksum) and r2 (announced with ``value``) share one fetch; its
        read lands the item's bytes. The item's bytes, and the warnings logged."""
        data = item_bytes(16)
        plain = descriptor("a", data, checksum=False)
        own = {**plain, "checksum": {"algorithm": 1, "value": value}}
        c.admit("r1", [AdmitItem("a", announcement(plain))], 0)
        c.admit("r2", [AdmitItem("b", announcement(own))], 0)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            grant_and_read(c, plain, data)
        c.poll(2)
        failed = c.drain_failed()
        self.assertEqual([(f.request_id, [(x.item_id, x.reason, x.attempts) for x in f.failures]) for f in failed],
                         [("r2", [("b", Reason.CHECKSUM_MISMATCH, 1)])])
        return data, logs.output

    # [C5][C11] one waiter's own announced checksum differs: its warning says what the read found
    def test_c5_c11_a_waiters_own_checksum_mismatch_names_the_crc_of_the_bytes_read_and_its_announced_one(self):
        data, lines = self.shared_read(make(), b"\x01\x02\x03\x04")
        self.assertTrue(failed_line(lines, "r2").endswith(
            f"producer=P1 detail=CRC-32C of the bytes read {crc32c(data)}, announced {0x01020304}"), lines)

    def test_c5_c11_a_waiters_own_checksum_not_verifiable_says_so(self):
        _, lines = self.shared_read(ConsumerCore("C1", 1, dict(FP), BlindPool(1 << 20)), b"\x01\x02\x03\x04")
        self.assertTrue(failed_line(lines, "r2").endswith(
            "detail=checksum not verifiable: the pool gives no view of the destination"), lines)

    # [C5][C11] the same detail when no waiter's announcement agrees with the bytes (nothing loaded)
    def test_c5_c11_a_checksum_mismatch_for_every_waiter_names_the_crc_of_the_bytes_read(self):
        c = make()
        data = item_bytes(16)
        plain = descriptor("a", data, checksum=False)
        c.admit("r1", [AdmitItem("a", announcement({**plain, "checksum": {"algorithm": 1, "value": b"\x00\x00\x00\x09"}}))], 0)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            grant_and_read(c, plain, data)
        self.assertRegex(failed_line(logs.output, "r1"), r"reason=CHECKSUM_MISMATCH attempts=1 item_key=\S+ producer=P1 "
                         + re.escape(f"detail=CRC-32C of the bytes read {crc32c(data)}, announced 9") + "$")

    # [P8] an idle producer whose connection is still held, reported unreachable, is no outage
    def test_p8_an_idle_producer_reported_unreachable_is_disconnected_not_counted_and_logged_at_info(self):
        c = make()
        data = item_bytes(16)
        desc = descriptor("a", data)
        c.admit("r", [AdmitItem("a", {**announcement(desc), "transportMetadata": b"\x05"})], 0)
        grant_and_read(c, desc, data)
        c.finish_request("r", 3)
        c.poll(3)  # no business left; the connection is kept until idle_peer_ms
        with self.assertLogs("ectp.consumer", "INFO") as logs:
            c.handle_peer_unreachable("P1", 10)
        self.assertEqual(c.poll(10), [DisconnectPeer("P1")])
        self.assertEqual(c.metrics[GONE], 0)
        self.assertEqual([m for m in logs.output if m.startswith("WARNING")], [])
        self.assertTrue(any(m.startswith("INFO") and "idle producer P1 reported unreachable" in m for m in logs.output), logs.output)
        # business again, and the producer lost during it: an outage, counted and warned of
        c.admit("s", [AdmitItem("b", announcement(descriptor("b", item_bytes(16, 2))))], 20)
        c.poll(20)
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.handle_peer_unreachable("P1", 30)
        c.poll(30)
        self.assertEqual(c.metrics[GONE], 1)
        self.assertEqual(len([m for m in logs.output if "producer P1 unreachable" in m]), 1)

    # [P8] a read the transport failed with the producer gone ended business with it, connected or not
    def test_p8_a_producer_found_gone_by_a_peer_gone_read_is_an_outage_also_with_no_connection_to_drop(self):
        c = ConsumerCore("C1", 1, dict(FP), pool())  # announcements without metadata: nothing is connected
        desc = descriptor("a", item_bytes(16))
        c.admit("r", [AdmitItem("a", announcement(desc))], 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readGrant={
            "attemptId": rr["attemptId"], "grantId": 7, "item": desc, "leaseMs": 30_000}), 1)
        start = [o for o in c.poll(1) if isinstance(o, StartRead)][0]
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.handle_read_result(ReadResult(start.read_id, "failed", 0, peer_gone=True), 5)
        c.poll(5)
        self.assertEqual(c.metrics[GONE], 1)
        self.assertEqual(len([m for m in logs.output if "producer P1 unreachable" in m]), 1)
        self.assertIn("reason=PEER_UNREACHABLE", failed_line(logs.output, "r"))

    # [C1] each admitted item's first decision is counted by path (as the TS core's review-round-6.test.ts)
    def test_c1_items_admitted_are_counted_by_the_path_of_their_first_decision(self):
        c = make()
        data = item_bytes(16)
        desc = descriptor("a", data)

        def paths() -> dict:
            return {p: c.metrics[f'ectp_consumer_items_admitted_total{{path="{p}"}}'] for p in ("local", "loaded", "remote", "local_encode")}

        c.admit("r1", [AdmitItem("own", None, has_model_input=True, local=True), AdmitItem("a", announcement(desc)),
                       AdmitItem("none", None, has_model_input=True)], 0)
        self.assertEqual(paths(), {"local": 1, "loaded": 0, "remote": 1, "local_encode": 1})
        grant_and_read(c, desc, data)
        c.admit("r2", [AdmitItem("b", announcement(desc))], 3)  # served by the bytes held
        c.admit("r2", [AdmitItem("b", announcement(desc))], 4)  # a re-admission counts nothing
        self.assertEqual(c.admit("r3", [AdmitItem("x", None)], 4).status, "failed")  # counted by its failure only
        self.assertEqual(paths(), {"local": 1, "loaded": 1, "remote": 1, "local_encode": 1})


if __name__ == "__main__":
    unittest.main()

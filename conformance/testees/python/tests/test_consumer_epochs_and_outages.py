"""[P8] Greetings, heartbeats and transport metadata across producer restarts and outages (as in the
TS core's consumer.test.ts describe of the same name)."""

import unittest

from ectp_py.config import ConsumerConfig
from ectp_py.consumer import AdmitItem, ConsumerCore, ReadResult
from ectp_py.outputs import ConnectPeer, DisconnectPeer, StartRead
from ectp_py.wire import Reason

from .helpers import FP, announcement, descriptor, envelope, item_bytes, pool, sends


def make(config: ConsumerConfig | None = None) -> ConsumerCore:
    return ConsumerCore("C1", 1, dict(FP), pool(), config=config)


class ConsumerEpochsAndOutagesTest(unittest.TestCase):
    def test_p8_a_producer_declared_gone_keeps_the_metadata_its_announcements_carried(self):
        a, b = item_bytes(64, 1), item_bytes(64, 2)
        c = make(ConsumerConfig(heartbeat_interval_ms=1_000_000, backoff_initial_ms=10, backoff_max_ms=10))
        c.admit("rA", [AdmitItem("a", {**announcement(descriptor("a", a)), "transportMetadata": b"\x07"})], 0)
        c.admit("rB", [AdmitItem("b", announcement(descriptor("b", b)))], 0)
        first = c.poll(0)
        self.assertIsInstance(first[0], ConnectPeer)
        a_attempt = sends(first, "readRequest")[0]["readRequest"]["attemptId"]
        c.handle_envelope("P1", envelope("P1", 5, readReject={"attemptId": a_attempt, "reason": Reason.NOT_READY,
                                                               "retryable": True, "retryAfterMs": 5000}), 1)
        c.poll(1)
        c.handle_peer_unreachable("P1", 2)
        self.assertTrue(any(isinstance(o, DisconnectPeer) for o in c.poll(2)))
        retry = c.poll(100)
        self.assertEqual(len(sends(retry, "readRequest")), 1)
        kinds = [type(o).__name__ if not hasattr(o, "envelope") else next(k for k in ("hello", "readRequest", "heartbeat") if k in o.envelope) for o in retry]
        self.assertIn("ConnectPeer", kinds, f"outputs {kinds}")
        self.assertLess(kinds.index("ConnectPeer"), kinds.index("hello"))

    def test_p8_announced_metadata_is_kept_per_epoch_for_a_fetch_of_an_older_epoch_announced_without_any(self):
        a, b = item_bytes(64, 1), item_bytes(64, 2)
        c = make(ConsumerConfig(heartbeat_interval_ms=1_000_000))
        c.admit("r1", [AdmitItem("a", {**announcement(descriptor("a", a)), "transportMetadata": b"\x05"})], 0)
        c.finish_request("r1", 0)
        c.admit("r2", [AdmitItem("b", {**announcement(descriptor("b", b, epoch=6)), "transportMetadata": b"\x06"})], 0)
        c.finish_request("r2", 0)
        self.assertEqual([o for o in c.poll(0) if isinstance(o, ConnectPeer)],
                         [ConnectPeer("P1", 5, b"\x05"), ConnectPeer("P1", 6, b"\x06")])
        # While epoch 6 is greeted, an announcement of epoch 5 is outdated; declared gone, the producer's greetings are forgotten.
        outdated = c.admit("r0", [AdmitItem("a", announcement(descriptor("a", a)), has_model_input=True)], 1)
        self.assertEqual((outdated.items[0].action, outdated.items[0].reason), ("local-encode", Reason.EPOCH_CHANGED))
        c.handle_peer_unreachable("P1", 1)
        self.assertTrue(any(isinstance(o, DisconnectPeer) for o in c.poll(1)))
        c.admit("r3", [AdmitItem("a", announcement(descriptor("a", a)))], 2)
        out = c.poll(2)
        self.assertEqual([o for o in out if isinstance(o, ConnectPeer)], [ConnectPeer("P1", 5, b"\x05")])
        kinds = self._kinds(out)
        self.assertLess(kinds.index("ConnectPeer"), kinds.index("hello"))
        self.assertEqual(sends(out, "readRequest")[0]["readRequest"]["expectedEpoch"], 5)

    def test_p8_announced_metadata_is_kept_for_the_eight_greatest_epochs_and_serves_a_greater_one_after_a_newer_epoch_is_heard(self):
        c = make(ConsumerConfig(heartbeat_interval_ms=1_000_000))
        # Ten epochs announced with metadata (each request ends at once), then the producer declared gone before
        # each fetch below: the epochs greeted are forgotten, what the announcements carried is kept.
        for e in range(1, 11):
            data = item_bytes(64, e)
            c.admit(f"r{e}", [AdmitItem(f"i{e}", {**announcement(descriptor(f"h{e}", data, epoch=e)), "transportMetadata": bytes([e])})], 0)
            c.finish_request(f"r{e}", 0)
        c.poll(0)
        x = item_bytes(64, 99)

        def fetched(epoch: int, at: float) -> list:
            c.handle_peer_unreachable("P1", at)
            c.poll(at)
            c.admit("x", [AdmitItem("x", announcement(descriptor("hx", x, epoch=epoch)))], at)
            out = c.poll(at)
            self.assertEqual([s["readRequest"]["expectedEpoch"] for s in sends(out, "readRequest")], [epoch])
            c.finish_request("x", at)
            c.poll(at)
            return [o for o in out if isinstance(o, ConnectPeer)]

        self.assertEqual(fetched(3, 1000), [ConnectPeer("P1", 3, b"\x03")])
        self.assertEqual(fetched(2, 2000), [], "epoch 2 is past the 8 greatest kept")
        c.handle_envelope("P1", envelope("P1", 5, heartbeat={}), 3000)
        c.poll(3000)
        self.assertEqual(fetched(6, 4000), [ConnectPeer("P1", 6, b"\x06")])

    @staticmethod
    def _kinds(out):
        return [type(o).__name__ if not hasattr(o, "envelope") else next(k for k in ("hello", "readRequest", "heartbeat", "readComplete") if k in o.envelope) for o in out]

    def test_p8_no_heartbeat_to_a_new_epoch_before_its_hello(self):
        data = item_bytes(64)
        old_desc, new_desc = descriptor("a", data), descriptor("a", data, epoch=6)
        c = make(ConsumerConfig(heartbeat_interval_ms=1000, backoff_initial_ms=500, backoff_max_ms=500))
        c.admit("r1", [AdmitItem("i1", announcement(old_desc))], 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 3, "item": old_desc, "leaseMs": 30000}), 1)
        c.poll(1)
        c.admit("r2", [AdmitItem("i1", announcement(new_desc))], 2)
        c.poll(2)
        c.handle_envelope("P1", envelope("P1", 6, heartbeat={}), 900)
        out = c.poll(900) + c.poll(1000) + c.poll(1500)
        kinds = [k for k in self._kinds(out) if k in ("hello", "readRequest", "heartbeat", "readComplete")]
        self.assertEqual(kinds, ["hello", "readRequest"])

    def test_p8_a_producer_idle_for_idle_peer_ms_is_greeted_again_also_without_a_connection(self):
        a, b = item_bytes(64, 1), item_bytes(64, 2)
        c = make()
        c.admit("r1", [AdmitItem("a", announcement(descriptor("a", a)))], 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readReject={"attemptId": rr["attemptId"], "reason": Reason.NOT_FOUND}), 1)
        c.poll(1)
        c.finish_request("r1", 2)
        c.drain_failed()
        c.handle_envelope("P1", envelope("P1", 5, hello={"role": 1, "transportMetadata": b"\x05"}), 3)
        c.poll(2000)
        c.poll(400_000)
        c.admit("r2", [AdmitItem("b", announcement(descriptor("b", b)))], 400_000)
        self.assertEqual(self._kinds(c.poll(400_000)), ["ConnectPeer", "hello", "readRequest"])

    def test_p8_a_leftover_peer_gone_read_result_does_not_end_fresh_business(self):
        a, b = item_bytes(64, 1), item_bytes(64, 2)
        da, db = descriptor("a", a), descriptor("b", b)
        c = make(ConsumerConfig(heartbeat_interval_ms=1_000_000))
        c.admit("r1", [AdmitItem("a", announcement(da))], 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 7, "item": da, "leaseMs": 30000}), 1)
        s1 = [o for o in c.poll(1) if isinstance(o, StartRead)][0]
        c.finish_request("r1", 2)
        c.poll(2)
        c.handle_peer_unreachable("P1", 3)
        c.poll(3)
        c.admit("r2", [AdmitItem("b", announcement(db))], 10)
        rr = sends(c.poll(10), "readRequest")[0]["readRequest"]
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 8, "item": db, "leaseMs": 30000}), 11)
        s2 = [o for o in c.poll(11) if isinstance(o, StartRead)][0]
        c.handle_read_result(ReadResult(s1.read_id, "failed", 0, peer_gone=True), 12)
        c.poll(12)
        self.assertEqual(c.drain_failed(), [])
        s2.destination.buffer[:] = b
        c.handle_read_result(ReadResult(s2.read_id, "done", len(b)), 13)
        self.assertEqual(c.admit("r2", [AdmitItem("b", announcement(db))], 14).items[0].action, "ready")

    def test_p8_metadata_of_a_joining_announcement_is_loaded_before_the_read(self):
        a = item_bytes(64, 1)
        da = descriptor("a", a)
        c = make(ConsumerConfig(heartbeat_interval_ms=1_000_000))
        c.admit("r1", [AdmitItem("a", announcement(da))], 0)
        rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
        c.admit("r2", [AdmitItem("a", {**announcement(da), "transportMetadata": b"\x04\x02"})], 1)
        self.assertEqual(c.poll(1), [])
        c.handle_envelope("P1", envelope("P1", 5, readGrant={"attemptId": rr["attemptId"], "grantId": 7, "item": da, "leaseMs": 30000}), 2)
        kinds = self._kinds(c.poll(2))
        self.assertIn("ConnectPeer", kinds, kinds)
        self.assertLess(kinds.index("ConnectPeer"), kinds.index("StartRead"))


if __name__ == "__main__":
    unittest.main()

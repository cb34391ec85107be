"""ConsumerCore and a destination pool that breaks its contract, as the TypeScript core handles one
(consumer/failure-details.test.ts "a destination of another length", hooks.test.ts "engine callbacks
are not a way back in"): a destination of another length than the item is never read into, and a
pool calling back into the core gets REENTRANT_CALL."""

import unittest

from ectp_py.consumer import AdmitItem, ConsumerCore, ReadResult
from ectp_py.outputs import StartRead
from ectp_py.testee import Destination, FirstFitPool
from ectp_py.wire import Completion, EctpError, Reason

from .helpers import FP, announcement, descriptor, envelope, item_bytes, sends
from .test_consumer_outages_and_failure_details import failure


class RecordingPool(FirstFitPool):
    """The testee's pool, recording each destination released; with ``length_of``, a pool breaking
    allocate's contract: the destinations it hands out name ``length_of(size)`` as their length."""

    def __init__(self, capacity: int, length_of=None):
        super().__init__(capacity)
        self.length_of = length_of
        self.released = []
        self._reserved = {}  # destination handed out -> the one reserved for it

    def allocate(self, key_id, size):
        d = super().allocate(key_id, size)
        if d is None or self.length_of is None:
            return d
        handed = Destination(d.offset, self.length_of(size), d.buffer)
        self._reserved[handed] = d
        return handed

    def release(self, d):
        self.released.append(d)
        super().release(self._reserved.pop(d, d))


def granted(c: ConsumerCore, data: bytes) -> list:
    """Request r waits for item "a" (``data``, with a checksum); its one ReadRequest is granted (grant 7)
    at t=1. The outputs of the poll after the grant."""
    desc = descriptor("a", data)
    c.admit("r", [AdmitItem("i", announcement(desc))], 0)
    rr = sends(c.poll(0), "readRequest")[0]["readRequest"]
    c.handle_envelope("P1", envelope("P1", 5, readGrant={
        "attemptId": rr["attemptId"], "grantId": 7, "item": desc, "leaseMs": 30_000}), 1)
    return c.poll(1)


def code_of(call) -> str:
    """The code of the EctpError ``call()`` raises, "no error", or the type of anything else it raises."""
    try:
        call()
    except EctpError as e:
        return e.code
    except Exception as e:  # noqa: BLE001 - named in the result
        return type(e).__name__
    return "no error"


#: Every state-changing ConsumerCore method, each as one call (request ``r``'s id where one is named).
CONSUMER_CALLS = {
    "admit": lambda c: c.admit("r2", [], 1),
    "finish_request": lambda c: c.finish_request("r", 1),
    "drain_failed": lambda c: c.drain_failed(),
    "handle_message": lambda c: c.handle_message("P1", b"", 1),
    "handle_envelope": lambda c: c.handle_envelope("P1", {}, 1),
    "handle_read_result": lambda c: c.handle_read_result(ReadResult(1, "done", 0), 1),
    "handle_peer_unreachable": lambda c: c.handle_peer_unreachable("P1", 1),
    "poll": lambda c: c.poll(1),
}


class DestinationOfAnotherLengthTest(unittest.TestCase):
    # SPEC.md 4.4 step 3 [C5][I6]: a read lands in a destination of exactly size_bytes; one of another
    # length (or none) from a pool breaking allocate's contract is released unread and the item fails
    # INTERNAL, its warning naming both lengths, the grant released FAILED
    def test_c5_i6_a_destination_of_another_length_is_released_unread_and_the_item_fails_internal(self):
        for length_of, named in ((lambda n: n // 2, "8"), (lambda n: n * 2, "32"), (lambda n: None, "None")):
            with self.subTest(length=named):
                pool = RecordingPool(1 << 20, length_of)
                c = ConsumerCore("C1", 1, dict(FP), pool)
                with self.assertLogs("ectp.consumer", "WARNING") as logs:
                    out = granted(c, item_bytes(16))
                self.assertEqual([o for o in out if isinstance(o, StartRead)], [])
                self.assertEqual([m["readComplete"] for m in sends(out, "readComplete")],
                                 [{"grantId": 7, "status": Completion.FAILED, "detail": "INTERNAL"}])
                self.assertEqual(failure(logs.output), " reason=INTERNAL producer=P1 "
                                 f"detail=the destination pool returned {named} bytes for an item of 16")
                errors = [m for m in logs.output if m.startswith("ERROR:")]
                self.assertEqual(len(errors), 1)
                self.assertIn("DestinationPool.allocate returned a destination whose length is not the item's size", errors[0])
                self.assertIn(f"size_bytes=16 length={named}", errors[0])
                self.assertEqual([(f.request_id, [x.reason for x in f.failures]) for f in c.drain_failed()],
                                 [("r", [Reason.INTERNAL])])
                self.assertEqual(len(pool.released), 1)  # given back once, at once
                self.assertIsNotNone(FirstFitPool.allocate(pool, "x", 1 << 20))  # all its memory free again
                stats = c.stats()
                self.assertEqual((stats["destinations"], stats["grantsHeld"], stats["readsInFlight"], stats["fetches"]),
                                 (0, 0, 0, 0))
                c.finish_request("r", 2)
                self.assertEqual((c.stats()["requests"], len(pool.released)), (0, 1))

    # the same pool handing out exact lengths: the read starts (the check above refuses only another length)
    def test_c5_i6_a_destination_of_the_items_length_is_read_into(self):
        pool = RecordingPool(1 << 20, lambda n: n)
        c = ConsumerCore("C1", 1, dict(FP), pool)
        starts = [o for o in granted(c, item_bytes(16)) if isinstance(o, StartRead)]
        self.assertEqual([s.destination.length for s in starts], [16])
        self.assertEqual((c.stats()["destinations"], pool.released), (1, []))


class ViewThatIsNotBytesTest(unittest.TestCase):
    # [C11][I1] a pool whose view gives something other than bytes gives no view: the checksum cannot be
    # verified (CHECKSUM_MISMATCH, the grant released FAILED, the destination given back), never an error
    # raised half-way through the read result that would leave the grant and the destination held
    def test_c11_i1_a_view_that_is_not_bytes_is_no_view(self):
        pool = RecordingPool(1 << 20)
        pool.view = lambda d: 5
        c = ConsumerCore("C1", 1, dict(FP), pool)
        [start] = [o for o in granted(c, item_bytes(16)) if isinstance(o, StartRead)]
        with self.assertLogs("ectp.consumer", "WARNING") as logs:
            c.handle_read_result(ReadResult(start.read_id, "done", 16), 2)
            out = c.poll(2)
        self.assertEqual([(m["readComplete"]["grantId"], m["readComplete"]["status"]) for m in sends(out, "readComplete")],
                         [(7, Completion.FAILED)])
        self.assertIn("checksum not verifiable: the pool gives no view", failure(logs.output))
        self.assertEqual([[x.reason for x in f.failures] for f in c.drain_failed()], [[Reason.CHECKSUM_MISMATCH]])
        self.assertEqual((c.stats()["grantsHeld"], c.stats()["destinations"], len(pool.released)), (0, 0, 1))


class PoolCallingBackTest(unittest.TestCase):
    # [I1] the pool runs in the middle of a core's call: finish_request from allocate would release the
    # request under the grant being read; it is refused (REENTRANT_CALL) and the tables stay whole
    def test_i1_a_pool_calling_finish_request_from_allocate_gets_reentrant_call_and_the_tables_stay_whole(self):
        pool = RecordingPool(1 << 20)
        c = ConsumerCore("C1", 1, dict(FP), pool)
        codes = []
        allocate = pool.allocate

        def calling_back(key_id, size):
            codes.append(code_of(lambda: c.finish_request("r", 1)))
            return allocate(key_id, size)

        pool.allocate = calling_back
        starts = [o for o in granted(c, item_bytes(16)) if isinstance(o, StartRead)]
        self.assertEqual(codes, ["REENTRANT_CALL"])
        self.assertEqual(len(starts), 1)
        stats = c.stats()
        self.assertEqual((stats["requests"], stats["fetches"], stats["readsInFlight"], stats["destinations"]), (1, 1, 1, 1))

    # [I1] every state-changing method refuses a call from each pool callback (allocate, view, release);
    # the item still loads, and its destination is released once
    def test_i1_every_state_changing_method_refuses_a_call_from_each_pool_callback(self):
        pool = RecordingPool(1 << 20)
        c = ConsumerCore("C1", 1, dict(FP), pool)
        codes = {"allocate": [], "view": [], "release": []}

        def probed(callback, f):
            def call(*args):
                codes[callback].extend(code_of(lambda: calls(c)) for calls in CONSUMER_CALLS.values())
                return f(*args)
            return call

        for callback in codes:
            setattr(pool, callback, probed(callback, getattr(pool, callback)))
        data = item_bytes(16)
        [start] = [o for o in granted(c, data) if isinstance(o, StartRead)]
        start.destination.buffer[:] = data
        c.handle_read_result(ReadResult(start.read_id, "done", 16), 2)  # the checksum: the core views the bytes
        self.assertEqual((c.stats()["loadedItems"], c.stats()["undrainedFailures"]), (1, 0))
        c.finish_request("r", 3)
        refused = ["REENTRANT_CALL"] * len(CONSUMER_CALLS)
        self.assertEqual(codes, {"allocate": refused, "view": refused, "release": refused})
        self.assertEqual(len(pool.released), 1)
        c.poll(4)
        stats = c.stats()
        self.assertEqual((stats["requests"], stats["fetches"], stats["loadedItems"], stats["destinations"]), (0, 0, 0, 0))

    # [I1] a refusal raised into the pool and not caught there is that callback's failure, as any it
    # raises: an allocate's is "no room now" (the grant given back ABANDONED, retried OVERLOADED)
    def test_i1_a_reentrant_call_the_pool_lets_through_is_contained_as_its_failure(self):
        pool = RecordingPool(1 << 20)
        c = ConsumerCore("C1", 1, dict(FP), pool)
        calls = []

        def calling_back(key_id, size):
            calls.append(key_id)
            c.poll(1)  # raises REENTRANT_CALL through the pool
            return None

        pool.allocate = calling_back
        with self.assertLogs("ectp.consumer", "ERROR") as logs:
            out = granted(c, item_bytes(16))
        self.assertEqual(len(calls), 1)
        self.assertEqual([(r.getMessage(), getattr(r.exc_info[1], "code", None)) for r in logs.records],
                         [("DestinationPool.allocate raised; treated as full", "REENTRANT_CALL")])
        self.assertEqual([o for o in out if isinstance(o, StartRead)], [])
        self.assertEqual([(m["readComplete"]["grantId"], m["readComplete"]["status"]) for m in sends(out, "readComplete")],
                         [(7, Completion.ABANDONED)])
        self.assertEqual((c.stats()["fetches"], c.stats()["destinations"]), (1, 0))
        self.assertEqual(len(sends(c.poll(10_000), "readRequest")), 1)  # retried (OVERLOADED, backed off)
        self.assertEqual(c.metrics['ectp_consumer_retries_total{reason="OVERLOADED"}'], 1)


if __name__ == "__main__":
    unittest.main()

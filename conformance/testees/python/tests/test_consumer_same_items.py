"""SPEC.md 3.4: a request's items are the same on every presentation. A re-admission naming an item
its first admission did not, or announcing another item key for an item than the one it took then,
is INVALID_ARGUMENT at the call, before anything changes; leaving an item out, no announcement, the
same key from another epoch or producer, and an invalid announcement are accepted."""

import unittest

from ectp_py.config import ConsumerConfig
from ectp_py.consumer import AdmitItem, ConsumerCore, ReadResult
from ectp_py.wire import EctpError, Reason

from .helpers import FP, announcement, descriptor, item_bytes, sends
from .test_consumer import grant_for, make


def key_of(name: str) -> str:
    """The item key id of test item ``name`` (its content hash, then the fingerprint fields)."""
    return f'{name.encode().hex()}|"{FP["model"]}"|{FP["dtype"]}|{FP["rowBytes"]}|{FP["layoutVersion"]}'


def remote(item_id: str, name: str, *, model: bool = False, **fields) -> AdmitItem:
    """An item announcing test item ``name`` (``fields``: the descriptor's producer, epoch)."""
    return AdmitItem(item_id, announcement(descriptor(name, item_bytes(8), **fields)), has_model_input=model)


def loaded(name: str) -> tuple[ConsumerCore, AdmitItem, object]:
    """A consumer whose item "a" of request "r" (test item ``name``) was loaded and admitted ready."""
    c = make()
    item = remote("a", name)
    c.admit("r", [item], 0)
    start = grant_for(c, descriptor(name, item_bytes(8)), 1)
    start.destination.buffer[:] = item_bytes(8)
    c.handle_read_result(ReadResult(start.read_id, "done", 8), 2)
    c.poll(2)
    ready = c.admit("r", [item], 3).items[0]
    assert ready.action == "ready", ready
    return c, item, ready


def items(ids: list[str]) -> list[AdmitItem]:
    """Items ``ids``, each announcing its own test item."""
    return [remote(i, f"k{i}") for i in ids]


class SameItemsTest(unittest.TestCase):
    def test_c1_3_4_a_readmission_naming_an_item_the_first_did_not_is_invalid_argument_and_changes_nothing(self):
        for first in (["a"], ["a", "b"]):
            with self.subTest(first=first):
                c = make()
                c.admit("r", items(first), 0)
                c.poll(0)
                before = (c.stats(), dict(c.metrics))
                added = "b" if first == ["a"] else "c"
                with self.assertRaises(EctpError) as ctx:
                    c.admit("r", items(["a", "b", "c", "d"]), 1)
                self.assertEqual(ctx.exception.code, "INVALID_ARGUMENT")
                self.assertIn(f"admit(r): items[{len(first)}] ('{added}') was not in the request's first admission", str(ctx.exception))
                self.assertIn("admit other items under a new request id", str(ctx.exception))
                self.assertEqual(c.poll(1), [])  # no fetch started for the added items, nothing queued
                self.assertEqual((c.stats(), dict(c.metrics)), before)
                # The request goes on with its own items, and a later admission may still leave some out.
                self.assertEqual([(d.item_id, d.action) for d in c.admit("r", items(first), 2).items], [(i, "defer") for i in first])
                self.assertEqual([(d.item_id, d.action) for d in c.admit("r", items(["a"]), 2).items], [("a", "defer")])

    def test_c1_3_4_readmitting_a_ready_item_announcing_another_key_is_invalid_argument_not_the_first_keys_bytes(self):
        c, item, ready = loaded("cat")
        before = (c.stats(), dict(c.metrics))
        with self.assertRaises(EctpError) as ctx:
            c.admit("r", [remote("a", "dog")], 4)
        self.assertEqual(ctx.exception.code, "INVALID_ARGUMENT")
        self.assertIn(f"admit(r): items[0] ('a') announces item key {key_of('dog')}, but the item was first admitted "
                      f"announcing {key_of('cat')}", str(ctx.exception))
        self.assertIn("admit another item under a new item id in a new request", str(ctx.exception))
        self.assertEqual(c.poll(4), [])  # no fetch of "dog"
        self.assertEqual((c.stats(), dict(c.metrics)), before)
        self.assertEqual(c.admit("r", [item], 5).items, (ready,))  # the request goes on as it was
        c.finish_request("r", 6)
        self.assertEqual(c.stats()["destinations"], 0)

    def test_c1_3_4_a_waiting_item_or_one_sent_to_local_encode_announcing_another_key_is_refused_too(self):
        c = make()
        c.admit("w", [remote("a", "h1")], 0)
        with self.assertRaisesRegex(EctpError, r"items\[0\] \('a'\) announces item key"):
            c.admit("w", [remote("a", "h2")], 1)
        # A valid announcement whose size disagrees with its key's (SIZE_MISMATCH), with model input: local
        # encode, but the item took its key all the same.
        y = AdmitItem("y", announcement(descriptor("h3", item_bytes(32))))
        wrong_size = AdmitItem("x", announcement(descriptor("h3", item_bytes(16))), has_model_input=True)
        d = c.admit("w2", [y, wrong_size], 1).items[1]
        self.assertEqual((d.action, d.reason), ("local-encode", Reason.SIZE_MISMATCH))
        with self.assertRaisesRegex(EctpError, r"items\[1\] \('x'\) announces item key"):
            c.admit("w2", [y, remote("x", "h4", model=True)], 2)
        # Presented local, an item is still compared.
        with self.assertRaisesRegex(EctpError, r"items\[0\] \('a'\) announces item key"):
            c.admit("w", [AdmitItem("a", announcement(descriptor("h2", item_bytes(8))), local=True)], 2)
        self.assertEqual(c.admit("w", [AdmitItem("a", None, local=True)], 2).items[0].action, "ready")

    def test_c3_3_4_a_refused_readmission_takes_no_clock_reading(self):
        c = make(ConsumerConfig(wait_budget_ms=1000, grant_wait_ms=500))
        c.admit("w", [remote("a", "h1")], 0)
        with self.assertRaisesRegex(EctpError, "announces item key"):
            c.admit("w", [remote("a", "h2")], 5000)
        with self.assertRaisesRegex(EctpError, "was not in the request's first admission"):
            c.admit("w", [remote("a", "h1"), remote("b", "h3")], 5000)
        # Had a refused call moved the clock to 5000, this budget would run until 6000, not 1010.
        c.admit("n", [remote("b", "h3")], 10)
        c.poll(1010)
        self.assertEqual([f.request_id for f in c.drain_failed()], ["w", "n"])

    def test_c1_p8_3_4_allowed_the_same_key_from_another_epoch_or_producer_no_announcement_or_an_invalid_one(self):
        c, _, ready = loaded("cat")
        for later in (remote("a", "cat", epoch=6),
                      remote("a", "cat", producer="P2"),
                      AdmitItem("a", None),
                      AdmitItem("a", {"version": {"major": 2}}),  # invalid: names no key
                      AdmitItem("a", "not an announcement")):
            with self.subTest(later=later):
                self.assertEqual(c.admit("r", [later], 4).items, (ready,))
        self.assertEqual(sends(c.poll(4), "readRequest"), [])
        # First presented without an announcement (local encode): no key was taken, any announcement later is not compared.
        c.admit("l", [AdmitItem("a", None, has_model_input=True)], 4)
        d = c.admit("l", [remote("a", "dog", model=True)], 5).items[0]
        self.assertEqual((d.item_id, d.action), ("a", "local-encode"))

    def test_c6_3_4_a_failed_requests_readmission_returns_its_failure_before_its_items_are_compared(self):
        c = make(ConsumerConfig(wait_budget_ms=1000, grant_wait_ms=500))
        c.admit("f", [remote("a", "h1")], 0)
        c.poll(1000)  # [C3] the budget runs out without model input: the request fails, its item kept until finished
        failed = c.drain_failed()
        self.assertEqual([(r.request_id, r.failures[0].reason) for r in failed], [("f", Reason.BUDGET_EXHAUSTED)])
        for later in ([remote("a", "h2")], [remote("a", "h1"), remote("b", "h3")]):
            with self.subTest(later=later):
                r = c.admit("f", later, 1001)
                self.assertEqual((r.status, [(f.item_id, f.reason) for f in r.failures]), ("failed", [("a", Reason.BUDGET_EXHAUSTED)]))
        self.assertEqual(c.drain_failed(), [])  # [C6] reported once, not queued again
        self.assertEqual(sends(c.poll(1001), "readRequest"), [])

    def test_c1_3_4_the_same_announcement_object_presented_again_is_not_read_again(self):
        reads = []

        class Counted(dict):
            def get(self, key, default=None):
                if key == "item":
                    reads.append(key)
                return super().get(key, default)

        c = make()
        ann = Counted(announcement(descriptor("h1", item_bytes(8))))
        c.admit("r", [AdmitItem("a", ann)], 0)
        first = len(reads)
        self.assertGreater(first, 0)
        c.admit("r", [AdmitItem("a", ann)], 1)
        self.assertEqual(len(reads), first)
        again = Counted(announcement(descriptor("h1", item_bytes(8), epoch=6)))
        c.admit("r", [AdmitItem("a", again)], 2)
        c.admit("r", [AdmitItem("a", again)], 3)
        self.assertEqual(len(reads), first + 1)  # another object of the same key: read once, then held in its place


if __name__ == "__main__":
    unittest.main()

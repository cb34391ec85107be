"""[P8] The epochs of a producer a consumer knows of come from its envelopes and from what its fetches
rely on: an epoch an announcement named (this admission's own included), greeted or connected. An
announcement naming an older epoch starts no fetch (it may join one of its key [C1]), so no
ReadRequest goes to an epoch never greeted (as the TS core's epochs-a-fetch-relies-on.test.ts)."""

import unittest

from ectp_py.config import ConsumerConfig
from ectp_py.consumer import AdmitItem, ConsumerCore
from ectp_py.wire import Reason

from .helpers import FP, announcement, descriptor, item_bytes, pool

A, B = item_bytes(64, 1), item_bytes(64, 2)


def make() -> ConsumerCore:
    return ConsumerCore("C1", 1, dict(FP), pool(), config=ConsumerConfig(heartbeat_interval_ms=1_000_000))


def item(item_id: str, name: str, data: bytes, epoch: int, model: bool = False, producer: str = "P1") -> AdmitItem:
    return AdmitItem(item_id, announcement(descriptor(name, data, epoch=epoch, producer=producer)), has_model_input=model)


def to_epochs(outputs) -> list[str]:
    """The Hellos and ReadRequests of a poll, in order ("hello", "readRequest@6")."""
    out = []
    for o in outputs:
        env = getattr(o, "envelope", None) or {}
        if "hello" in env:
            out.append("hello")
        elif "readRequest" in env:
            out.append(f"{o.peer_id}:readRequest@{env['readRequest']['expectedEpoch']}")
    return out


class EpochsAFetchReliesOnTest(unittest.TestCase):
    def test_p8_after_a_fetch_greeted_epoch_6_another_keys_epoch_5_announcement_starts_no_fetch(self):
        c = make()
        c.admit("r1", [item("a", "h1", A, 6)], 0)
        self.assertEqual(to_epochs(c.poll(0)), ["hello", "P1:readRequest@6"])
        local = c.admit("r2", [item("a", "h2", B, 5, model=True)], 1)
        self.assertEqual((local.items[0].action, local.items[0].reason), ("local-encode", Reason.EPOCH_CHANGED))
        failed = c.admit("r3", [item("a", "h2", B, 5)], 1)
        self.assertEqual((failed.status, failed.failures[0].reason), ("failed", Reason.EPOCH_CHANGED))
        self.assertEqual(to_epochs(c.poll(1)), [])

    def test_c1_it_still_joins_the_fetch_of_its_own_key_in_flight(self):
        c = make()
        c.admit("r1", [item("a", "h1", A, 6)], 0)
        c.poll(0)
        self.assertEqual(c.admit("r2", [item("a", "h1", A, 5)], 1).items[0].action, "defer")
        self.assertEqual(to_epochs(c.poll(1)), [])

    def test_p8_one_admission_naming_epochs_5_and_6_of_one_key_asks_only_epoch_6_whatever_the_order(self):
        for epochs in ((5, 6), (6, 5)):
            c = make()
            r = c.admit("r1", [item(f"i{k}", "h1", A, e) for k, e in enumerate(epochs)], 0)
            self.assertEqual([d.action for d in r.items], ["defer", "defer"])
            self.assertEqual(to_epochs(c.poll(0)), ["hello", "P1:readRequest@6"])

    def test_p8_one_admission_naming_another_key_in_epoch_5_beside_epoch_6_sends_it_to_local_encode(self):
        for old_first in (True, False):
            c = make()
            old, cur = item("old", "h2", B, 5, model=True), item("new", "h1", A, 6)
            r = c.admit("r1", [old, cur] if old_first else [cur, old], 0)
            by_id = {d.item_id: d for d in r.items}
            self.assertEqual((by_id["old"].action, by_id["old"].reason), ("local-encode", Reason.EPOCH_CHANGED))
            self.assertEqual(by_id["new"].action, "defer")
            self.assertEqual(to_epochs(c.poll(0)), ["hello", "P1:readRequest@6"])

    def test_c1_without_model_input_that_item_fails_the_request_which_starts_nothing(self):
        c = make()
        r = c.admit("r1", [item("new", "h1", A, 6), item("old", "h2", B, 5)], 0)
        self.assertEqual([(f.item_id, f.reason) for f in r.failures], [("old", Reason.EPOCH_CHANGED)])
        self.assertEqual(c.poll(0), [])

    def test_p8_another_producers_epochs_are_its_own(self):
        c = make()
        r = c.admit("r1", [item("p", "h1", A, 6), item("q", "h2", B, 1, producer="P2")], 0)
        self.assertEqual([d.action for d in r.items], ["defer", "defer"])
        self.assertEqual([e for e in to_epochs(c.poll(0)) if e != "hello"], ["P1:readRequest@6", "P2:readRequest@1"])


if __name__ == "__main__":
    unittest.main()

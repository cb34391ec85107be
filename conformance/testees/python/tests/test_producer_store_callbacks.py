"""ProducerCore and the engine code it calls, as the TypeScript core treats them (hooks.test.ts
"hooks calling back into their own core", producer.ts ``refusedDescriptor``): a store callback, or a
store listener the store calls from inside one, that calls back into the producer gets
``EctpError(REENTRANT_CALL)`` [I1]; a store reporting a malformed descriptor has that item refused
(never announced, published or granted; a read of it answered INTERNAL), never raised [I1]."""

import unittest

from ectp_py.outputs import EventBatchOut
from ectp_py.producer import ProducerCore
from ectp_py.store import MemoryItemStore, StoreEntry
from ectp_py.wire import Completion, EctpError, Reason, item_key_id

from .helpers import FP, descriptor, envelope, item_bytes, sends
from .test_producer import put, request

#: The producer's state-changing calls (hooks.test.ts PRODUCER_CALLS).
PRODUCER_CALLS = {
    "poll": lambda p: p.poll(1),
    "handle_message": lambda p: p.handle_message("PD", b"", 1),
    "handle_envelope": lambda p: p.handle_envelope("PD", {}, 1),
    "handle_peer_unreachable": lambda p: p.handle_peer_unreachable("PD", 1),
    "shutdown": lambda p: p.shutdown(1),
}
REFUSED = ["REENTRANT_CALL"] * len(PRODUCER_CALLS)


def code_of(call) -> str:
    """The code of what ``call`` raised, or "no error"."""
    try:
        call()
    except EctpError as e:
        return e.code
    return "no error"


def probed(probe, callback: str, f):
    """``f``, calling ``probe(callback)`` first."""

    def call(*args):
        probe(callback)
        return f(*args)

    return call


class ReentrantCallTest(unittest.TestCase):
    def test_i1_every_state_changing_call_is_refused_reentrant_call_from_each_store_callback(self):
        store = MemoryItemStore(1 << 20)
        holder: dict = {}
        codes: dict[str, list[str]] = {"get": [], "pin": [], "unpin": [], "ready_items": []}

        def probe(callback: str) -> None:
            codes[callback].extend(code_of(lambda c=c: c(holder["p"])) for c in PRODUCER_CALLS.values())

        holder["p"] = p = ProducerCore("P1", 5, dict(FP), store)
        desc = put(store, "a")
        for name in codes:
            setattr(store, name, probed(probe, name, getattr(store, name)))
        grant = request(p, desc, 1, 1, consumer="PD")["readGrant"]
        p.handle_envelope("PD", envelope("PD", 1, readComplete={"grantId": grant["grantId"], "status": Completion.OK}), 2)
        p.handle_envelope("S", envelope("S", 1, snapshotRequest={}), 3)
        self.assertEqual(len(sends(p.poll(3), "snapshot")), 1)
        # each callback probed every call at least once (get more: a release looks its entry up too), all refused
        self.assertEqual({name: set(c) for name, c in codes.items()}, dict.fromkeys(codes, {"REENTRANT_CALL"}))
        self.assertTrue(all(len(c) % len(REFUSED) == 0 for c in codes.values()), codes)
        self.assertEqual((p.stats()["grants"], p.stats()["pins"], p.stats()["shuttingDown"]), (0, 0, False))

    def test_i1_the_stores_get_under_announce_total_pins_under_stats_and_unsubscribe_under_shutdown_refuse_calls_back(self):
        store = MemoryItemStore(1 << 20)
        holder: dict = {}
        codes: dict[str, list[str]] = {"get": [], "total_pins": [], "unsubscribe": []}

        def probe(callback: str) -> None:
            codes[callback].extend(code_of(lambda c=c: c(holder["p"])) for c in PRODUCER_CALLS.values())

        subscribe = store.subscribe
        store.subscribe = lambda listener: probed(probe, "unsubscribe", subscribe(listener))
        holder["p"] = p = ProducerCore("P1", 5, dict(FP), store)
        desc = put(store, "a")
        store.get = probed(probe, "get", store.get)
        store.total_pins = probed(probe, "total_pins", store.total_pins)
        self.assertIsNotNone(p.announce(item_key_id(desc["key"])))
        self.assertEqual(p.stats()["pins"], 0)
        p.shutdown(2)
        self.assertEqual(codes, {"get": REFUSED, "total_pins": REFUSED, "unsubscribe": REFUSED})
        batches = [o.batch for o in p.poll(2) if isinstance(o, EventBatchOut)]
        self.assertEqual([next(iter(e)) for b in batches for e in b["events"]], ["stored", "cleared"])

    def test_i1_an_engine_listener_called_from_inside_a_producer_call_is_refused_and_the_release_is_whole(self):
        # A store that resets itself on an unpin (its memory region failed): the engine's listener hears the
        # Cleared from inside the producer's ACK handling, and its poll is refused, not run half way [I1][I3].
        class ResettingStore(MemoryItemStore):
            def unpin(self, key_id):
                super().unpin(key_id)
                self.clear("reset")

        store = ResettingStore(1 << 20)
        holder: dict = {}
        codes: list[str] = []
        store.subscribe(lambda change: codes.append(code_of(lambda: holder["p"].poll(2))) if change[0] == "cleared" else None)
        holder["p"] = p = ProducerCore("P1", 5, dict(FP), store)
        grant = request(p, put(store, "a"), 1, 1)["readGrant"]
        p.handle_envelope("C1", envelope("C1", 1, readComplete={"grantId": grant["grantId"], "status": Completion.OK}), 2)
        self.assertEqual(codes, ["REENTRANT_CALL"])
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (0, 0))


GOOD = descriptor("a", item_bytes(32))
KEY_ID = item_key_id(GOOD["key"])
MALFORMED = {
    "none": None,
    "a string": "junk",
    "a list": [GOOD],
    "bytes for the producer id": dict(GOOD, producerId=b"P1"),
    "no sizeBytes": {k: v for k, v in GOOD.items() if k != "sizeBytes"},
    "no key": {k: v for k, v in GOOD.items() if k != "key"},
}


class OneEntryStore:
    """An engine's own item store (no MemoryItemStore) holding one ready item, whose descriptor it
    reports as given."""

    def __init__(self, desc) -> None:
        self.entry = StoreEntry(desc, KEY_ID, 32, bytearray(item_bytes(32)), ready=True)
        self.listeners: list = []

    def subscribe(self, listener):
        self.listeners.append(listener)
        return lambda: None

    def get(self, key_id):
        return self.entry if key_id == KEY_ID else None

    def pin(self, key_id) -> None:
        self.entry.pins += 1

    def unpin(self, key_id) -> None:
        self.entry.pins -= 1

    def ready_items(self):
        return [self.entry]

    def total_pins(self) -> int:
        return self.entry.pins


class MalformedDescriptorTest(unittest.TestCase):
    def test_i1_a_malformed_descriptor_from_the_store_is_never_announced_published_or_granted_and_never_raised(self):
        for name, desc in MALFORMED.items():
            with self.subTest(name):
                store = OneEntryStore(desc)
                with self.assertLogs("ectp.producer", "ERROR") as logs:
                    p = ProducerCore("P1", 5, dict(FP), store)  # the item it holds at the start is not published
                    self.assertIsNone(p.announce(KEY_ID))
                    for listener in store.listeners:
                        listener(("stored", desc))  # its Stored change is not published either
                    reply = request(p, GOOD, 1, 1)
                    p.handle_envelope("S", envelope("S", 1, snapshotRequest={}), 2)
                    outs = p.poll(2)
                self.assertEqual(reply["readReject"]["reason"], Reason.INTERNAL)
                self.assertTrue(reply["readReject"]["detail"].startswith("the store holds the item, but "), reply)
                self.assertEqual([s["snapshot"].get("items", []) for s in sends(outs, "snapshot")], [[]])
                self.assertFalse([o for o in outs if isinstance(o, EventBatchOut)])
                self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (0, 0))
                self.assertEqual(p.metrics["ectp_producer_unpublishable_items_total"], 1)  # logged once
                self.assertEqual(len(logs.output), 1, logs.output)

    def test_i1_a_well_formed_descriptor_from_an_engines_store_is_still_granted(self):
        store = OneEntryStore(dict(GOOD))
        p = ProducerCore("P1", 5, dict(FP), store)
        self.assertIsNotNone(p.announce(KEY_ID))
        self.assertIn("readGrant", request(p, GOOD, 1, 1))
        self.assertEqual((p.stats()["grants"], p.stats()["pins"]), (1, 1))


if __name__ == "__main__":
    unittest.main()

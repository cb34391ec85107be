"""MemoryItemStore on its own: bounded bytes, FIFO eviction of ready unpinned items, pins and
changes [P1][P2][P6][E1]. The producer tests cover the store through ProducerCore; these pin down
the store's own accounting, which a producer only sees much later (a store over capacity, a pin
on the wrong item, an eviction of a cleared entry)."""

import mmap
import unittest

from ectp_py.store import ZEROED_MAP_MIN_BYTES, MemoryItemStore
from ectp_py.wire import EctpError, item_key_id

from .helpers import descriptor, item_bytes


def put(store: MemoryItemStore, name: str, size: int = 10, ready: bool = True) -> str:
    entry = store.put(descriptor(name, item_bytes(size)), item_bytes(size))
    if ready:
        store.mark_ready(entry.key_id)
    return entry.key_id


def recorder(store: MemoryItemStore) -> list:
    """The changes the store emits from now on, as ``(kind, key id or cause, cause)`` tuples."""
    seen: list = []

    def note(change):
        kind = change[0]
        if kind == "removed":
            seen.append((kind, item_key_id(change[1]), change[2]))
        elif kind == "stored":
            seen.append((kind, item_key_id(change[1]["key"])))
        else:
            seen.append(change)

    store.subscribe(note)
    return seen


class MemoryItemStoreTest(unittest.TestCase):
    def test_p6_a_put_of_a_key_already_stored_is_refused_and_changes_nothing(self):
        s = MemoryItemStore(100)
        put(s, "a")
        with self.assertRaises(EctpError) as c:
            put(s, "a")
        self.assertEqual((c.exception.code, s.used_bytes()), ("INVALID_ARGUMENT", 10))

    def test_p6_a_refused_put_advises_what_works_for_the_held_item(self):
        # A ready item cannot be discarded (discard raises for it), so its advice is evict.
        s = MemoryItemStore(100)
        put(s, "a", ready=False)
        with self.assertRaises(EctpError) as c:
            put(s, "a")
        self.assertIn("finish it with mark_ready(), or drop it first with discard()", str(c.exception))
        put(s, "b")
        with self.assertRaises(EctpError) as c:
            put(s, "b")
        self.assertIn("use that copy, or remove it first with evict() (once no read pins it)", str(c.exception))

    def test_p6_an_exact_fit_evicts_only_the_oldest_ready_item(self):
        s = MemoryItemStore(30)
        a = put(s, "a")
        put(s, "b")
        put(s, "c")
        seen = recorder(s)
        put(s, "d", ready=False)
        self.assertEqual(seen, [("removed", a, "evicted")])
        self.assertEqual(s.used_bytes(), 30)

    def test_e1_mark_ready_twice_emits_one_stored_and_counts_the_bytes_once(self):
        s = MemoryItemStore(20)
        a = put(s, "a")
        seen = recorder(s)
        s.mark_ready(a)
        self.assertEqual(seen, [])
        put(s, "b", ready=False)
        put(s, "c", ready=False)  # evicts a: the only ready item
        with self.assertRaises(EctpError) as c:  # nothing ready is left to evict
            put(s, "d", ready=False)
        self.assertEqual((c.exception.code, s.used_bytes()), ("OVERLOADED", 20))

    def test_p1_p2_a_not_ready_item_cannot_be_pinned_and_an_unpinned_one_cannot_be_unpinned(self):
        s = MemoryItemStore(20)
        a = put(s, "a", ready=False)
        with self.assertRaises(EctpError):
            s.pin(a)
        s.mark_ready(a)
        with self.assertRaises(EctpError):
            s.unpin(a)
        self.assertEqual(s.total_pins(), 0)

    def test_p6_an_item_is_evictable_again_only_when_its_last_pin_goes(self):
        s = MemoryItemStore(20)
        a = put(s, "a")
        put(s, "b", ready=False)
        s.pin(a)
        s.pin(a)
        s.unpin(a)  # one pin left: still not evictable
        with self.assertRaises(EctpError) as c:
            put(s, "c", ready=False)
        self.assertEqual(c.exception.code, "OVERLOADED")
        s.unpin(a)
        seen = recorder(s)
        put(s, "c", ready=False)
        self.assertEqual(seen, [("removed", a, "evicted")])

    def test_e2_ready_items_lists_the_ready_ones_only(self):
        s = MemoryItemStore(30)
        a = put(s, "a")
        put(s, "b", ready=False)
        self.assertEqual([e.key_id for e in s.ready_items()], [a])

    def test_p6_only_a_not_ready_item_can_be_discarded_and_its_removal_says_discarded(self):
        s = MemoryItemStore(20)
        a = put(s, "a")
        with self.assertRaises(EctpError):  # a ready item leaves by eviction only
            s.discard(a)
        self.assertIsNotNone(s.get(a))
        b = put(s, "b", ready=False)
        seen = recorder(s)
        s.discard(b)
        self.assertEqual(seen, [("removed", b, "discarded")])
        self.assertEqual(s.used_bytes(), 10)

    def test_p6_evict_refuses_a_not_ready_or_pinned_item_and_publishes_removed_evicted(self):
        s = MemoryItemStore(30)
        a = put(s, "a", ready=False)
        with self.assertRaises(EctpError):
            s.evict(a)
        s.mark_ready(a)
        s.pin(a)
        with self.assertRaises(EctpError):
            s.evict(a)
        s.unpin(a)
        seen = recorder(s)
        s.evict(a)
        self.assertEqual(seen, [("removed", a, "evicted")])
        self.assertEqual(s.used_bytes(), 0)

    def test_e1_clear_starts_the_accounting_afresh(self):
        s = MemoryItemStore(30)
        for name in "abc":
            put(s, name)
        s.clear("reset")
        self.assertEqual((s.used_bytes(), s.total_pins()), (0, 0))
        d = put(s, "d")
        put(s, "e")
        put(s, "f")
        seen = recorder(s)
        put(s, "g", ready=False)  # evicts d: not a cleared entry still on the eviction list
        self.assertEqual(seen, [("removed", d, "evicted")])
        self.assertEqual(s.used_bytes(), 30)


    def test_p6_a_capacity_that_is_not_a_positive_integer_is_refused(self):
        for capacity in (0, -1, 1.5, True, "100", None):
            with self.subTest(capacity=capacity), self.assertRaisesRegex(EctpError, "capacity_bytes must be a positive integer") as ctx:
                MemoryItemStore(capacity)
            self.assertEqual(ctx.exception.code, "INVALID_CONFIG")
        self.assertEqual(MemoryItemStore(1).capacity_bytes, 1)

    def test_p1_a_put_of_an_invalid_descriptor_is_refused_naming_what_is_wrong_and_stores_nothing(self):
        s = MemoryItemStore(100)
        seen = recorder(s)
        for bad, why in ((dict(descriptor("a", item_bytes(10)), sizeBytes=0), "sizeBytes"),
                         (dict(descriptor("a", item_bytes(10)), producerId=""), "producerId"),
                         ({"sizeBytes": 10}, "key")):
            with self.subTest(why=why), self.assertRaisesRegex(EctpError, f"put: descriptor is not valid \\(.*{why}") as ctx:
                s.put(bad, item_bytes(10))
            self.assertEqual(ctx.exception.code, "INVALID_ARGUMENT")
        self.assertEqual((s.used_bytes(), seen), (0, []))

    def test_p1_an_entry_is_found_by_its_item_key(self):
        s = MemoryItemStore(100)
        kid = put(s, "a")
        key = descriptor("a", item_bytes(10))["key"]
        self.assertIs(s.get_key(key), s.get(kid))
        self.assertIsNone(s.get_key(descriptor("b", item_bytes(10))["key"]))  # another item
        self.assertIsNone(s.get_key({"contentHash": b""}))  # not a key
        self.assertIsNone(s.get_key(None))

    def test_p1_an_item_put_without_bytes_is_zeros_written_in_place_a_large_one_zeroed_lazily_by_the_os(self):
        located = {}

        def locate(key_id, data):
            located[key_id] = data
            return b"loc"

        s = MemoryItemStore(4 * ZEROED_MAP_MIN_BYTES, locate=locate)
        for size, kind in ((ZEROED_MAP_MIN_BYTES - 1, bytearray), (ZEROED_MAP_MIN_BYTES, mmap.mmap), (2 * ZEROED_MAP_MIN_BYTES, mmap.mmap)):
            with self.subTest(size=size):
                entry = s.put(descriptor(f"z{size}", bytes(size), checksum=False))
                # A bytearray(n) writes its n zeros at once: a map of 128 MiB costs nothing until read.
                self.assertIsInstance(entry.data, kind)
                self.assertIs(located[entry.key_id], entry.data)  # the memory a read of its location sees
                self.assertEqual(len(entry.data), size)
                self.assertEqual((bytes(entry.data[:8]), bytes(entry.data[size - 8:])), (bytes(8), bytes(8)))
                entry.data[size - 3:] = b"end"  # the engine writes it in place
                self.assertEqual(bytes(entry.data[size - 4:]), b"\x00end")
        self.assertEqual(s.used_bytes(), 4 * ZEROED_MAP_MIN_BYTES - 1)


if __name__ == "__main__":
    unittest.main()

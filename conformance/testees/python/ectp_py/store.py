"""A bounded in-memory item store with FIFO eviction of ready, unpinned items [P6].

The producer core never writes bytes: an engine puts items here, writes them, marks them
ready, and the core grants reads of them. The store keeps the rules that belong to the
region itself: capacity counted in ``size_bytes`` (ready or not), only ready unpinned
items evicted [P6], oldest evictable first, and every change reported to listeners so
the producer can publish events [E1].
"""

from __future__ import annotations

import logging
import mmap
from dataclasses import dataclass
from typing import Callable

from . import codec
from .wire import MAX_SAFE_INTEGER, EctpError, item_key_id, validate_descriptor

#: From this size on, an item put without bytes is held in an anonymous memory map, which the OS
#: hands out zeroed a page at a time as it is first touched: ``bytearray(n)`` writes all ``n`` zeros
#: up front (a 128 MiB item put with ``PutItem.fill`` 0 cost its whole size in memory and time). Smaller
#: items stay bytearrays, so that a store of many small items holds no map per item.
ZEROED_MAP_MIN_BYTES = 1 << 20

#: The item's bytes as the store holds them: both kinds are writable buffers of exactly ``size_bytes``.
ItemBytes = bytearray | mmap.mmap


def zeroed_bytes(size: int) -> ItemBytes:
    """``size`` zero bytes, writable: an anonymous map (zeroed lazily by the OS) from
    :data:`ZEROED_MAP_MIN_BYTES` on, else a bytearray."""
    return mmap.mmap(-1, size) if size >= ZEROED_MAP_MIN_BYTES else bytearray(size)


#: The largest encoded descriptor a producer may store and publish (SPEC.md section 5).
MAX_DESCRIPTOR_BYTES = 64 * 1024


log = logging.getLogger("ectp.store")


@dataclass(eq=False)
class StoreEntry:
    """One item as the store holds it."""

    #: The item's descriptor (``ectp.v1.ItemDescriptor`` dict), location included.
    descriptor: dict
    #: Canonical key id (:func:`ectp_py.wire.item_key_id`).
    key_id: str
    size_bytes: int
    #: The item's bytes (what a one-sided read of its location sees): a bytearray, or for a large item
    #: put without bytes an anonymous map (see :data:`ZEROED_MAP_MIN_BYTES`).
    data: ItemBytes
    #: Fully written [P1]; only ready items may be granted or evicted.
    ready: bool = False
    #: Live pins, one per live grant [P2].
    pins: int = 0


#: A store change: ``("stored", descriptor)``, ``("removed", key, "evicted"|"discarded")``
#: or ``("cleared", "reset"|"shutdown")``.
StoreChange = tuple


class MemoryItemStore:
    """The reference item store (see module docstring)."""

    def __init__(self, capacity_bytes: int, locate: Callable[[str, ItemBytes], bytes] | None = None):
        """:param capacity_bytes: region size in bytes (positive integer).
        :param locate: called by :meth:`put` with the item's bytes; its result becomes the
            descriptor's ``location`` (how a transport would register the memory). Default:
            the descriptor's own location is kept.
        :raises EctpError: ``INVALID_CONFIG`` for a capacity that is not a positive integer."""
        if not isinstance(capacity_bytes, int) or isinstance(capacity_bytes, bool) or capacity_bytes < 1:
            raise EctpError("INVALID_CONFIG", f"capacity_bytes must be a positive integer; got {capacity_bytes!r}")
        self.capacity_bytes = capacity_bytes
        self._locate = locate
        self._entries: dict[str, StoreEntry] = {}
        self._evictable: dict[str, StoreEntry] = {}  # insertion order = order they became evictable [P6]
        self._listeners: list[Callable[[StoreChange], None]] = []
        self._pending: list[StoreChange] = []  # changes not yet delivered (see _flush)
        self._emitting = False
        self._used = 0
        self._evictable_bytes = 0
        self._pins = 0

    def put(self, descriptor: dict, data: bytes | None = None) -> StoreEntry:
        """Add a new, not-ready item, evicting ready unpinned items (oldest first) if needed.

        The store keeps (a shallow copy of) ``descriptor`` and publishes it: do not change it
        (or its ``shape`` list) after ``put``. ``data`` is copied; without it the item is
        ``size_bytes`` zero bytes (:func:`zeroed_bytes`), to be written in place.

        :raises EctpError: ``INVALID_ARGUMENT`` for a malformed descriptor, one encoding to more
            than ``MAX_DESCRIPTOR_BYTES``, wrong-length bytes or a key already stored; ``OVERLOADED`` when it cannot fit even after evicting
            every evictable item (then nothing is evicted) [P6].
        """
        valid, why = validate_descriptor(descriptor, MAX_SAFE_INTEGER)
        if valid is None:
            raise EctpError("INVALID_ARGUMENT", f"put: descriptor is not valid ({why}); fix the descriptor")
        if valid.key_id in self._entries:
            held = self._entries[valid.key_id]
            advice = ("use that copy, or remove it first with evict() (once no read pins it)" if held.ready
                      else "finish it with mark_ready(), or drop it first with discard()")
            raise EctpError("INVALID_ARGUMENT", f"put: item {valid.key_id} is already stored; {advice}")
        size = valid.size_bytes
        if data is not None and len(data) != size:
            raise EctpError("INVALID_ARGUMENT", f"put: data must be exactly size_bytes = {size} bytes; got {len(data)}")
        need = self._used + size - self.capacity_bytes
        if need > self._evictable_bytes:
            # [P6] pinned and not-ready items are never evicted: refuse instead of evicting part.
            raise EctpError(
                "OVERLOADED",
                f"put: {size} bytes do not fit (used {self._used} of {self.capacity_bytes}, only "
                f"{self._evictable_bytes} evictable); retry after grants are released",
            )
        # Located before anything is evicted: a refused descriptor leaves the store as it was.
        held = bytearray(data) if data is not None else zeroed_bytes(size)
        desc = dict(descriptor)
        if self._locate is not None:
            desc["location"] = self._locate(valid.key_id, held)
            if valid.key_id in self._entries:
                raise EctpError("INVALID_ARGUMENT", f"put: item {valid.key_id} was stored by locate itself; a locate callback must not put")
            if self._used + size - self.capacity_bytes > self._evictable_bytes:
                raise EctpError("OVERLOADED", f"put: {size} bytes no longer fit after locate changed the store; retry")
        encoded = len(codec.encode("ectp.v1.ItemDescriptor", desc))
        if encoded > MAX_DESCRIPTOR_BYTES:  # SPEC section 5: every message carrying it fits a frame
            raise EctpError(
                "INVALID_ARGUMENT",
                f"put: the descriptor encodes to {encoded} bytes, over the {MAX_DESCRIPTOR_BYTES} a producer may publish; "
                "shorten its location or strings",
            )
        # [P6] Evicted and stored first, announced only then, in one batch: a listener acting on the store
        # (a pin, a put) sees it whole, and cannot stop the eviction halfway or slip an item into the freed room.
        need = self._used + size - self.capacity_bytes
        evicted = self._evict_for(need) if need > 0 else []
        entry = StoreEntry(desc, valid.key_id, size, held)
        self._entries[valid.key_id] = entry
        self._used += size
        if evicted:
            self._pending.extend(("removed", e.descriptor.get("key"), "evicted") for e in evicted)
            self._flush()
        return entry

    def mark_ready(self, key_id: str) -> None:
        """Mark an item fully written [P1]; emits ``stored``. Idempotent.
        :raises EctpError: ``INVALID_ARGUMENT`` when the item is absent."""
        e = self._must_get(key_id, "mark_ready")
        if e.ready:
            return
        e.ready = True
        self._add_evictable(e)
        self._emit(("stored", e.descriptor))

    def discard(self, key_id: str) -> None:
        """Drop a not-ready item (a failed write); emits ``removed(discarded)`` [P6].
        :raises EctpError: ``INVALID_ARGUMENT`` when absent or ready (ready items leave by eviction)."""
        e = self._must_get(key_id, "discard")
        if e.ready:
            raise EctpError("INVALID_ARGUMENT", f"discard: item {key_id} is ready; only not-ready items can be discarded")
        self._remove(e)
        self._emit(("removed", e.descriptor.get("key"), "discarded"))

    def evict(self, key_id: str) -> None:
        """Evict one ready, unpinned item now, as memory pressure would [P6]; emits ``removed(evicted)``.
        :raises EctpError: ``INVALID_ARGUMENT`` when it is absent, not ready or pinned (it stays)."""
        e = self._must_get(key_id, "evict")
        if not e.ready or e.pins > 0:
            raise EctpError("INVALID_ARGUMENT", f"evict: item {key_id} is {'pinned' if e.pins else 'not ready'}; only ready, unpinned items may be evicted [P6]")
        self._remove(e)
        self._emit(("removed", e.descriptor.get("key"), "evicted"))

    def clear(self, cause: str) -> None:
        """Drop every item, pinned or not, and emit one ``cleared`` change (``"reset"`` or
        ``"shutdown"``). The producer releases every grant when it sees it [I3]."""
        self._entries.clear()
        self._evictable.clear()
        self._used = self._evictable_bytes = self._pins = 0
        self._emit(("cleared", cause))

    def get(self, key_id: str) -> StoreEntry | None:
        """The entry for a key id, or ``None`` when absent."""
        return self._entries.get(key_id)

    def get_key(self, key: dict) -> StoreEntry | None:
        """The entry for an ``ItemKey`` dict, or ``None``."""
        kid = item_key_id(key)
        return None if kid is None else self._entries.get(kid)

    def pin(self, key_id: str) -> None:
        """Add one pin (one per grant [P2]) to a ready item.
        :raises EctpError: ``INVALID_ARGUMENT`` when absent or not ready [P1]."""
        e = self._must_get(key_id, "pin")
        if not e.ready:
            raise EctpError("INVALID_ARGUMENT", f"pin: item {key_id} is not ready [P1]")
        if e.pins == 0:
            self._remove_evictable(e)
        e.pins += 1
        self._pins += 1

    def unpin(self, key_id: str) -> None:
        """Remove one pin; the item becomes evictable again with its last pin [P6].
        :raises EctpError: ``INVALID_ARGUMENT`` when the item has no pin."""
        e = self._entries.get(key_id)
        if e is None or e.pins == 0:
            raise EctpError("INVALID_ARGUMENT", f"unpin: item {key_id} has no pin [P2]")
        e.pins -= 1
        self._pins -= 1
        if e.pins == 0:
            self._add_evictable(e)

    def ready_items(self) -> list[StoreEntry]:
        """Every ready item, for snapshots [E2]."""
        return [e for e in self._entries.values() if e.ready]

    def total_pins(self) -> int:
        """Total pins over all items [I3]."""
        return self._pins

    def used_bytes(self) -> int:
        """Bytes held, ready or not."""
        return self._used

    def subscribe(self, listener: Callable[[StoreChange], None]) -> Callable[[], None]:
        """Call ``listener`` on every change; returns an unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _evict_for(self, need: int) -> list[StoreEntry]:
        """Remove the oldest evictable items until ``need`` bytes are free (checked possible by the
        caller); returns them, not yet announced."""
        evicted: list[StoreEntry] = []
        freed = 0
        for e in list(self._evictable.values()):  # [P6] only ready, unpinned; oldest first
            if freed >= need:
                break
            freed += e.size_bytes
            self._remove(e)
            evicted.append(e)
        return evicted

    def _remove(self, e: StoreEntry) -> None:
        del self._entries[e.key_id]
        if e.ready and e.pins == 0:
            self._remove_evictable(e)
        self._used -= e.size_bytes

    def _add_evictable(self, e: StoreEntry) -> None:
        self._evictable[e.key_id] = e
        self._evictable_bytes += e.size_bytes

    def _remove_evictable(self, e: StoreEntry) -> None:
        if self._evictable.pop(e.key_id, None) is not None:
            self._evictable_bytes -= e.size_bytes

    def _must_get(self, key_id: str, op: str) -> StoreEntry:
        e = self._entries.get(key_id)
        if e is None:
            raise EctpError("INVALID_ARGUMENT", f"{op}: item {key_id} is not in the store")
        return e

    def _emit(self, change: StoreChange) -> None:
        """Announce a change to every listener (after the changes already being announced)."""
        self._pending.append(change)
        self._flush()

    def _flush(self) -> None:
        """Deliver the pending changes in order. A change made by a listener waits behind the ones
        being delivered, so an item evicted and put again by a listener is ``removed``, then ``stored``."""
        if self._emitting:
            return
        self._emitting = True
        try:
            i = 0
            while i < len(self._pending):
                change = self._pending[i]
                i += 1
                for listener in list(self._listeners):
                    try:
                        listener(change)
                    except Exception:  # noqa: BLE001 - [I1] a listener's fault must not undo the store's change
                        log.exception("a store listener raised; the change stands")
        finally:
            self._pending.clear()
            self._emitting = False

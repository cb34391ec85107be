"""A min-heap of deadlines with lazy cancellation, for the cores' timers (budgets [C3],
grant waits [C4], read deadlines and quarantine caps [C8], heartbeats [P8], leases [P3]).

Cancelling marks an entry dead in O(1) and lets go of what it refers to; dead entries are dropped
when they reach the top, and the heap is rebuilt without them whenever it has doubled since the
last rebuild, so entries cancelled behind a long-lived one (a lease replaced 200,000 times while an
older grant stays) cannot pile up. Ties fire in insertion order, so the same inputs fire timers in
the same order.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Any


class TimerEntry:
    """One scheduled deadline. ``live`` is False once cancelled or fired."""

    __slots__ = ("at", "seq", "kind", "ref", "live")

    def __init__(self, at: float, seq: int, kind: str, ref: Any):
        self.at = at
        self.seq = seq
        self.kind = kind
        self.ref = ref
        self.live = True

    def __lt__(self, other: TimerEntry) -> bool:
        return (self.at, self.seq) < (other.at, other.seq)


class TimerQueue:
    """Deadlines ordered by ``(at, insertion order)``."""

    #: Heap size below which no rebuild happens.
    MIN_COMPACT = 64

    def __init__(self) -> None:
        self._heap: list[TimerEntry] = []
        self._seq = itertools.count()
        self._compact_at = self.MIN_COMPACT

    def push(self, at: float, kind: str, ref: Any) -> TimerEntry:
        """Schedule ``ref`` of ``kind`` at ``at``; returns the entry for :meth:`cancel`."""
        entry = TimerEntry(at, next(self._seq), kind, ref)
        heapq.heappush(self._heap, entry)
        if len(self._heap) >= self._compact_at:
            self._heap = [e for e in self._heap if e.live]
            heapq.heapify(self._heap)
            self._compact_at = max(self.MIN_COMPACT, 2 * len(self._heap))
        return entry

    @staticmethod
    def cancel(entry: TimerEntry | None) -> None:
        """Cancel an entry (idempotent; ``None`` is ignored)."""
        if entry is not None:
            entry.live = False
            entry.ref = None

    def peek_at(self) -> float | None:
        """When the earliest live entry is due, or ``None`` when nothing is scheduled."""
        heap = self._heap
        while heap and not heap[0].live:
            heapq.heappop(heap)
        return heap[0].at if heap else None

    def pop_due(self, now: float) -> TimerEntry | None:
        """Remove and return the earliest live entry due at or before ``now``, or ``None``."""
        at = self.peek_at()
        if at is None or at > now:
            return None
        entry = heapq.heappop(self._heap)
        entry.live = False
        return entry

"""The injected clock's readings as the cores accept them [I1] (as ``packages/core/src/clock.ts``)."""

from __future__ import annotations

import logging
import math


_FLOAT_MAX = 1.7976931348623157e308


def checked_now(now: object, latest: float, log: logging.Logger) -> float:
    """The later of ``now`` and ``latest`` (the latest reading accepted, ``-inf`` before any) when
    ``now`` is a finite number, else ``latest`` (logged; 0 before any good reading). A deadline
    computed from NaN would fire at once or never, and a reading earlier than the latest would undo
    deadlines already passed (bytes handled after their read's deadline loaded [C11]): inside a core
    time never goes back. The error goes to ``log``, the calling core's logger."""
    # An int too large for a float (10**400) is not finite either: math.isfinite would raise on it [I1].
    if isinstance(now, bool) or not isinstance(now, (int, float)) or (isinstance(now, int) and abs(now) > _FLOAT_MAX) \
            or not math.isfinite(now):
        log.error("the clock reading passed in is not a finite number (%r); the last good one is used", now)
        return latest if math.isfinite(latest) else 0.0
    return max(now, latest)

"""What the sans-IO cores ask their driver to do, returned in order by ``poll(now)``.

A driver (here: the conformance testee; in an engine: its event loop) executes them:
sends envelopes, starts and cancels one-sided reads, connects and forgets peers, and
hands event batches to in-process subscribers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union


@dataclass(frozen=True)
class Send:
    """Send ``envelope`` (``ectp.v1.Envelope`` dict; version, sender id and epoch filled) to ``peer_id``."""

    peer_id: str
    envelope: dict


@dataclass(frozen=True)
class ConnectPeer:
    """Make ``peer_id`` reachable with the transport ``metadata`` it published for ``epoch``."""

    peer_id: str
    epoch: int
    metadata: bytes


@dataclass(frozen=True)
class DisconnectPeer:
    """Forget ``peer_id``'s metadata: it is gone or restarted [P8]."""

    peer_id: str


@dataclass(frozen=True)
class StartRead:
    """Start a one-sided read of ``destination.length`` bytes at ``source`` on ``peer_id``
    into ``destination``; its result comes back through ``handle_read_result`` exactly once."""

    read_id: int
    peer_id: str
    source: bytes
    destination: Any


@dataclass(frozen=True)
class CancelRead:
    """Cancel read ``read_id``; its result still arrives [C8]."""

    read_id: int


@dataclass(frozen=True)
class EventBatchOut:
    """An event batch (``ectp.v1.EventBatch`` dict) published by a producer [E1]."""

    batch: dict


#: Any output of a core.
Output = Union[Send, ConnectPeer, DisconnectPeer, StartRead, CancelRead, EventBatchOut]

"""Shared fixtures for the unit tests: a fingerprint, items, announcements, a memory pool."""

from __future__ import annotations

from ectp_py.crc32c import crc32c_bytes
from ectp_py.testee import FirstFitPool

FP = {"model": "test/model@1", "dtype": 3, "rowBytes": 2048, "layoutVersion": 1}


def item_bytes(size: int, seed: int = 7) -> bytes:
    """Deterministic item content."""
    return bytes((seed + i * 31) & 0xFF for i in range(size))


def descriptor(name: str, data: bytes, *, producer: str = "P1", epoch: int = 5, checksum: bool = True,
               location: bytes = b"loc") -> dict:
    """An ``ItemDescriptor`` dict for ``data``."""
    d = {"key": {"contentHash": name.encode(), "fingerprint": dict(FP)}, "sizeBytes": len(data),
         "producerId": producer, "epoch": epoch, "location": location}
    if checksum:
        d["checksum"] = {"algorithm": 1, "value": crc32c_bytes(data)}
    return d


def announcement(desc: dict) -> dict:
    """An ``Announcement`` dict of spec version 1."""
    return {"version": {"major": 1, "minor": 0}, "item": desc}


def envelope(sender: str, epoch: int, **body) -> dict:
    """An ``Envelope`` dict from ``sender``."""
    return {"version": {"major": 1, "minor": 0}, "senderId": sender, "senderEpoch": epoch, **body}


def pool(capacity: int = 1 << 20) -> FirstFitPool:
    """The testee's first-fit destination pool."""
    return FirstFitPool(capacity)


def sends(outputs, body: str) -> list[dict]:
    """The envelopes of ``Send`` outputs carrying ``body``."""
    return [o.envelope for o in outputs if hasattr(o, "envelope") and body in o.envelope]

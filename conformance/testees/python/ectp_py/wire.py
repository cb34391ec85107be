"""Wire-level helpers shared by both roles: spec version, enum numbers, the reason table,
typed errors, item keys and descriptor validation [V1][C2].

Everything that takes peer input here is total: it returns a result and never raises,
whatever types and values it is given (missing, ``None``, negative, strings, floats,
huge numbers) [C2][I1].
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from . import codec

#: Major version of the ECTP spec implemented here [V1].
SPEC_MAJOR = 1

#: A Hello's ``heartbeat_interval_ms`` of 0 (absent) means 2 000 ms (SPEC.md 4.1).
DEFAULT_HEARTBEAT_MS = 2_000
#: [P8] A Hello's ``heartbeat_interval_ms`` above this counts as this (SPEC.md 4.1).
MAX_PEER_HEARTBEAT_MS = 60_000

#: Minor version (informative) [V2].
SPEC_MINOR = 0
#: Largest integer every implementation can represent exactly (SPEC.md 3.8).
MAX_SAFE_INTEGER = 2**53 - 1
#: Most dimensions of a descriptor's shape [C2] (SPEC.md: fits a message's element limit).
MAX_SHAPE_DIMS = 64


def spec_version() -> dict:
    """A fresh ``SpecVersion`` dict for envelopes and announcements [V1]."""
    return {"major": SPEC_MAJOR, "minor": SPEC_MINOR}


class Reason:
    """``ectp.v1.FailureReason`` numbers and the SPEC.md section 11 classification."""

    UNSPECIFIED = 0
    NOT_READY = 1
    NOT_FOUND = 2
    OVERLOADED = 3
    INCOMPATIBLE = 4
    VERSION = 5
    INTERNAL = 6
    SHUTTING_DOWN = 7
    GRANT_TIMEOUT = 8
    PEER_UNREACHABLE = 9
    TRANSFER_FAILED = 10
    TRANSFER_TIMEOUT = 11
    SIZE_MISMATCH = 12
    CHECKSUM_MISMATCH = 13
    EPOCH_CHANGED = 14
    INVALID_ANNOUNCEMENT = 15
    BUDGET_EXHAUSTED = 16
    UNAVAILABLE = 17
    LEASE_EXPIRED = 18

    #: Reasons a consumer retries inside the budget when a ReadReject carries them [C4].
    #: PEER_UNREACHABLE here means "before a grant" (SPEC.md section 11).
    RETRYABLE_REJECTS = frozenset({NOT_READY, OVERLOADED, GRANT_TIMEOUT, PEER_UNREACHABLE})
    #: Reasons a producer marks retryable in its rejects (the table, producer side).
    PRODUCER_RETRYABLE = frozenset({NOT_READY, OVERLOADED})

    @staticmethod
    def known(value: Any) -> int | None:
        """The reason if this version knows it (1..18), else ``None`` (UNSPECIFIED and
        values from a newer minor version, handled as INTERNAL [V1])."""
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 18:
            return value
        return None

    @staticmethod
    def name(value: int) -> str:
        """Short name of a reason, for logs (``"NOT_READY"``)."""
        full = codec.enum_name("ectp.v1.FailureReason", value)
        return full[len("FAILURE_REASON_") :] if full else str(value)


class Role:
    """``ectp.v1.Role`` numbers (peer roles in Hello)."""

    UNSPECIFIED = 0
    PRODUCER = 1
    CONSUMER = 2
    BOTH = 3


class Completion:
    """``ectp.v1.CompletionStatus`` numbers (ReadComplete.status)."""

    UNSPECIFIED = 0
    OK = 1
    FAILED = 2
    ABANDONED = 3


#: ``ectp.v1.ChecksumAlgorithm.CHECKSUM_ALGORITHM_CRC32C``.
CHECKSUM_CRC32C = 1
#: ``ectp.v1.RemovedCause`` numbers.
REMOVED_EVICTED, REMOVED_DISCARDED = 1, 2
#: ``ectp.v1.ClearedCause`` numbers.
CLEARED_RESET, CLEARED_SHUTDOWN = 1, 2

#: Bytes per element of each known dtype (``ectp.v1.Dtype``); absent: UNSPECIFIED/unknown.
DTYPE_SIZES = {1: 4, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1, 8: 4, 9: 8}


class EctpError(Exception):
    """The one error type of this package: a machine-readable ``code`` (e.g.
    ``INVALID_CONFIG``, ``INVALID_ARGUMENT``, ``OVERLOADED``) and a message saying what was
    wrong and what to do. Raised only for local misuse; nothing a peer sends raises [I1]."""

    def __init__(self, code: str, message: str, details: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}


# ----------------------------------------------------------------------------- integers


def is_int(v: Any) -> bool:
    """True for a real ``int`` (``bool`` excluded)."""
    return isinstance(v, int) and not isinstance(v, bool)


def u64(v: Any) -> int | None:
    """A uint64 field as an int: absent is 0; a non-integer or negative value is ``None``."""
    if v is None:
        return 0
    if is_int(v) and v >= 0:
        return v
    return None


def is_positive_id(v: Any) -> bool:
    """An id, epoch or sequence: an integer in [1, 2^53 - 1] (SPEC.md 3.8)."""
    return is_int(v) and 1 <= v <= MAX_SAFE_INTEGER


def peer_heartbeat_interval_ms(announced, own_ms: int) -> int:
    """[P8] The interval to judge a peer's silence by: the larger of ``own_ms`` and the one its Hello
    announced (0 or not a positive integer: 2000 ms), the announced one counted as at most 60 s."""
    hb = announced if is_positive_id(announced) else DEFAULT_HEARTBEAT_MS
    return max(own_ms, min(hb, MAX_PEER_HEARTBEAT_MS))


# ----------------------------------------------------------------------------- keys and descriptors


@dataclass(frozen=True)
class Fingerprint:
    """A fingerprint with every field present, compared field by field (SPEC.md 3.1)."""

    model: str = ""
    dtype: int = 0
    row_bytes: int = 0
    layout_version: int = 0

    def to_msg(self) -> dict:
        """The ``ectp.v1.Fingerprint`` dict form."""
        return {"model": self.model, "dtype": self.dtype, "rowBytes": self.row_bytes, "layoutVersion": self.layout_version}


def normalize_fingerprint(fp: Any) -> Fingerprint | None:
    """A possibly absent fingerprint as a :class:`Fingerprint`; ``None`` when malformed.
    Absent means the all-default fingerprint (SPEC.md 3.1)."""
    if fp is None:
        return Fingerprint()
    if not isinstance(fp, dict):
        return None
    model = fp.get("model", "")
    dtype = fp.get("dtype", 0)
    row = fp.get("rowBytes", 0)
    layout = fp.get("layoutVersion", 0)
    if model is None:
        model = ""
    if not isinstance(model, str):
        return None
    # SPEC.md 3.1 [P7]: as the wire carries them (and the TypeScript validator checks): dtype an enum value in
    # [0, 2^31), row_bytes and layout_version uint32. A larger value would reach peers truncated.
    if not (is_int(dtype) and 0 <= dtype < 2**31):
        return None
    for v in (row, layout):
        if not (is_int(v) and 0 <= v < 2**32):
            return None
    return Fingerprint(model, dtype, row, layout)


def item_key_id(key: Any) -> str | None:
    """Canonical string id of an item key (hex content hash, then the fingerprint
    fields): equal exactly when two keys name the same item. ``None`` for a key without a
    1-64 byte content hash or with a malformed fingerprint [C2]."""
    if not isinstance(key, dict):
        return None
    h = key.get("contentHash", b"")
    if not isinstance(h, (bytes, bytearray)) or not 1 <= len(h) <= 64:
        return None
    fp = normalize_fingerprint(key.get("fingerprint"))
    if fp is None:
        return None
    return f"{bytes(h).hex()}|{json.dumps(fp.model)}|{fp.dtype}|{fp.row_bytes}|{fp.layout_version}"


@dataclass(frozen=True)
class ValidDescriptor:
    """A descriptor that passed :func:`validate_descriptor` [C2]."""

    key_id: str
    content_hash: bytes
    fingerprint: Fingerprint
    size_bytes: int
    producer_id: str
    epoch: int
    location: bytes
    #: Expected CRC-32C, when the descriptor carries one.
    crc32c: int | None = None
    raw: dict = field(default_factory=dict, compare=False)


def validate_descriptor(d: Any, max_item_bytes: int, fingerprint: Fingerprint | None = None) -> tuple[ValidDescriptor | None, str]:
    """Validate an untrusted ``ItemDescriptor`` [C2]. Returns ``(value, "")`` or
    ``(None, what was wrong)``. Never raises, whatever ``d`` holds.

    Checks: key with a 1-64 byte content hash; fingerprint equal to ``fingerprint`` when
    given; ``size_bytes`` an integer in [1, max_item_bytes] and <= 2^53 - 1; at most 64 shape
    dimensions; size equal to the dtype element size x product of shape when both are given; non-empty producer id;
    epoch in [1, 2^53 - 1]; checksum of a known algorithm and length.
    """
    try:
        return _validate(d, max_item_bytes, fingerprint)
    except Exception as err:  # noqa: BLE001 - hostile input must never escape [I1]
        return None, f"descriptor could not be read: {err}"


def _validate(d: Any, max_item_bytes: int, expected_fp: Fingerprint | None) -> tuple[ValidDescriptor | None, str]:
    if not isinstance(d, dict):
        return None, "descriptor is missing"
    key = d.get("key")
    key_id = item_key_id(key)
    if key_id is None:
        return None, "key is missing, its contentHash is not 1 to 64 bytes, or its fingerprint is malformed"
    fp = normalize_fingerprint(key.get("fingerprint"))
    if expected_fp is not None and fp != expected_fp:
        return None, f"item fingerprint {fp} differs from the expected {expected_fp}"  # [C2] fingerprint case
    size = d.get("sizeBytes", 0)
    if not (is_int(size) and 1 <= size <= min(max_item_bytes, MAX_SAFE_INTEGER)):
        return None, f"sizeBytes must be an integer in [1, {max_item_bytes}]; got {size!r}"
    dtype = d.get("dtype", 0)
    if not (is_int(dtype) and 0 <= dtype < 2**31):  # an enum value the wire can carry (int32), as the fingerprint's
        return None, f"dtype must be an enum value; got {dtype!r}"
    shape = d.get("shape", [])
    if not isinstance(shape, list) or not all(is_int(x) and 0 <= x <= MAX_SAFE_INTEGER for x in shape):
        return None, "shape must be a list of non-negative integers"
    if len(shape) > MAX_SHAPE_DIMS:  # [C2] fits a message's repeated-element limit
        return None, f"shape has {len(shape)} dimensions; at most {MAX_SHAPE_DIMS} are allowed"
    elem = DTYPE_SIZES.get(dtype)  # unknown dtype: UNSPECIFIED, check skipped [V1]
    if elem is not None and shape:
        expected = elem
        for dim in shape:
            expected *= dim
        if expected != size:
            return None, f"sizeBytes {size} differs from dtype x shape = {expected}"
    producer_id = d.get("producerId", "")
    if not isinstance(producer_id, str) or not producer_id:
        return None, "producerId must be a non-empty string"
    epoch = d.get("epoch", 0)
    if not is_positive_id(epoch):
        return None, f"epoch must be an integer in [1, 2^53 - 1]; got {epoch!r}"
    location = d.get("location", b"")
    if not isinstance(location, (bytes, bytearray)):
        return None, "location must be bytes"
    crc = None
    cs = d.get("checksum")
    if cs is not None:
        if not isinstance(cs, dict):
            return None, "checksum must be a message"
        algorithm = cs.get("algorithm", 0)
        if algorithm == CHECKSUM_CRC32C:
            value = cs.get("value", b"")
            if not isinstance(value, (bytes, bytearray)) or len(value) != 4:
                return None, "a CRC32C checksum value must be exactly 4 bytes"
            crc = int.from_bytes(value, "big")
        elif algorithm != 0:
            # [C2][V1] an unknown algorithm: unverifiable bytes are never loaded.
            return None, f"checksum algorithm {algorithm!r} is not supported"
    return (
        ValidDescriptor(key_id, bytes(key["contentHash"]), fp, size, producer_id, epoch, bytes(location), crc, d),
        "",
    )

"""CRC-32C (Castagnoli) in pure Python, the algorithm of ``CHECKSUM_ALGORITHM_CRC32C`` [C11].

Reflected polynomial 0x82F63B78, initial value and final xor 0xFFFFFFFF. Table driven,
one byte at a time: fast enough for conformance items (kilobytes); an engine verifying
large items should use a native implementation (e.g. the ``crc32c`` package) instead.
"""

from __future__ import annotations


def _make_table() -> tuple[int, ...]:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return tuple(table)


_TABLE = _make_table()


def crc32c(data: bytes | bytearray | memoryview, previous: int = 0) -> int:
    """CRC-32C of ``data`` as an unsigned 32-bit int, continuing from ``previous`` (0 to start).

    ``crc32c(b"123456789") == 0xE3069283`` (the standard check value).
    """
    table = _TABLE
    crc = previous ^ 0xFFFFFFFF
    for b in bytes(data):
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def crc32c_bytes(data: bytes | bytearray | memoryview) -> bytes:
    """The 4-byte big-endian form of the CRC-32C of ``data``, as carried in ``Checksum.value``."""
    return crc32c(data).to_bytes(4, "big")

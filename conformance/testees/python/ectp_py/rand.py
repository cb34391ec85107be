"""A small seeded pseudo-random source (sfc32), so backoff jitter [C4] is reproducible.

It yields the same sequence as ``SeededRandom`` of the TypeScript SDK
(packages/core/src/random.ts) for the same seed, so both implementations jitter alike.
Not for cryptography.
"""

from __future__ import annotations

_M32 = 0xFFFFFFFF


class SeededRandom:
    """Deterministic pseudo-random numbers from an integer seed (same seed, same sequence)."""

    def __init__(self, seed: int):
        self._a = 0x9E3779B9
        self._b = 0x243F6A88
        self._c = 0xB7E15162
        self._d = (seed & _M32) ^ 0xDEADBEEF
        for _ in range(15):
            self.next_uint32()

    def next_uint32(self) -> int:
        """The next unsigned 32-bit integer."""
        a, b, c, d = self._a, self._b, self._c, self._d
        t = (a + b + d) & _M32
        self._d = (d + 1) & _M32
        self._a = b ^ (b >> 9)
        b = (c + (c << 3)) & _M32
        self._b = b
        c = ((c << 21) | (c >> 11)) & _M32
        self._c = (c + t) & _M32
        return t

    def next(self) -> float:
        """A float in [0, 1)."""
        return self.next_uint32() / 4294967296

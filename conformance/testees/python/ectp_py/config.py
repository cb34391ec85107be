"""Timers and limits with the defaults of SPEC.md section 12, and their validation.

Durations are milliseconds on the injected clock. Every field has the SPEC.md default,
so ``ConsumerConfig()`` and ``ProducerConfig()`` are the standard configurations.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from .wire import EctpError, is_int

#: The largest integer every implementation represents exactly (SPEC.md section 3.8): a setting
#: above it is refused, as the TS reference refuses it (its settings are safe integers).
MAX_SAFE_INTEGER = 2**53 - 1

#: The largest ``max_batch_bytes`` allowed [E1]: half the 16 MiB frame limit (SPEC.md section 9).
MAX_BATCH_BYTES_LIMIT = 8 * 1024 * 1024
#: [E2] the longest resend interval SPEC.md section 9 allows.
MAX_RESEND_INTERVAL_MS = 1_000


@dataclass(frozen=True)
class ConsumerConfig:
    """Consumer timers and limits ([C2] [C3] [C4] [C8] [C11] [P8])."""

    #: Heartbeat interval to each producer with business [P8]. Default 2000.
    heartbeat_interval_ms: int = 2_000
    #: Missed intervals after which a silent producer is gone [P8]. Default 3.
    heartbeat_misses: int = 3
    #: Wait budget per (request, item), from the first defer, never extended [C3]. Default 60000.
    wait_budget_ms: int = 60_000
    #: Wait for a grant or reject per attempt [C4]. Default 30000.
    grant_wait_ms: int = 30_000
    #: A read in flight longer than this is quarantined [C8]. Default 20000.
    transfer_timeout_ms: int = 20_000
    #: A quarantined destination is released after this at the latest [C8]. Default 60000.
    #: ``math.inf``: no cap (a transport that cannot guarantee a read ends MUST run so [C8]).
    quarantine_cap_ms: float = 60_000
    #: First retry delay [C4]. Default 50.
    backoff_initial_ms: int = 50
    #: Largest retry delay [C4]. Default 2000.
    backoff_max_ms: int = 2_000
    #: Subtracted from a grant's lease to get the read's lease deadline [C11]. Default 5000.
    lease_safety_margin_ms: int = 5_000
    #: Largest acceptable ``size_bytes`` [C2]. Default 256 MiB.
    max_item_bytes: int = 256 * 1024 * 1024
    #: The lease the consumer plans for [C11]. Default 30000.
    lease_ms: int = 30_000
    #: A producer without business for this long is let go (disconnect, a new Hello with the next
    #: fetch) [P8]. Default 300000.
    idle_peer_ms: int = 300_000

    def validate(self) -> None:
        """Raise ``EctpError("INVALID_CONFIG")`` unless every duration is a positive integer (at most 2^53 - 1),
        ``heartbeat_interval_ms`` fits in 32 bits (the Hello's uint32), ``backoff_initial_ms <=
        backoff_max_ms`` and ``transfer_timeout_ms <= lease_ms - lease_safety_margin_ms`` [C11]."""
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "quarantine_cap_ms" and v == math.inf:
                continue  # [C8] the cap disabled
            if not is_int(v) or v < 1 or v > MAX_SAFE_INTEGER:
                raise EctpError(
                    "INVALID_CONFIG",
                    f"config.{f.name} must be a positive integer of at most 2^53 - 1"
                    f"{' (or math.inf: no cap)' if f.name == 'quarantine_cap_ms' else ''}; got {v!r}. Omit it to use the default {f.default}.",
                )
        # [P8] it travels in every Hello as a uint32
        if self.heartbeat_interval_ms > 0xFFFFFFFF:
            raise EctpError("INVALID_CONFIG", "config.heartbeat_interval_ms must fit in 32 bits (travels as uint32)")
        if self.backoff_initial_ms > self.backoff_max_ms:
            raise EctpError(
                "INVALID_CONFIG",
                f"config.backoff_initial_ms ({self.backoff_initial_ms}) must be <= backoff_max_ms ({self.backoff_max_ms}) [C4].",
            )
        # [C11] a read must be able to finish before the producer may reuse the memory.
        if self.transfer_timeout_ms > self.lease_ms - self.lease_safety_margin_ms:
            raise EctpError(
                "INVALID_CONFIG",
                f"config.transfer_timeout_ms ({self.transfer_timeout_ms}) must be <= lease_ms - lease_safety_margin_ms "
                f"({self.lease_ms} - {self.lease_safety_margin_ms}) so a read ends before the producer may reuse the "
                "memory [C11]; lower transfer_timeout_ms or raise lease_ms.",
            )


@dataclass(frozen=True)
class ProducerConfig:
    """Producer timers and limits ([P3] [P5] [P8] [E2])."""

    #: Heartbeat interval to each known consumer [P8]. Default 2000.
    heartbeat_interval_ms: int = 2_000
    #: Missed intervals after which a silent consumer is gone [P8]. Default 3.
    heartbeat_misses: int = 3
    #: Lease of each grant [P3]. Default 30000.
    lease_ms: int = 30_000
    #: Per-consumer cap on pinned bytes [P5]. Default 1 GiB.
    max_pinned_bytes_per_consumer: int = 1024 * 1024 * 1024
    #: Per-consumer cap on live grants [P5]. Default 256.
    max_grants_per_consumer: int = 256
    #: Event batches kept for replay [E2]. Default 1024.
    replay_buffer_batches: int = 1_024
    #: Retry hint in OVERLOADED and NOT_READY rejects. Default 50.
    retry_after_ms: int = 50
    #: Largest total encoded size of the events of one batch or the items of one snapshot
    #: part; more are split [E1][E2]. At most 8 MiB. Default 1 MiB.
    max_batch_bytes: int = 1024 * 1024
    #: Shortest time between two replay or snapshot answers to one peer that resend anything;
    #: those asked for sooner go out together afterwards [E2]. 0: no bound. Default 500.
    resend_interval_ms: int = 500

    def validate(self) -> None:
        """Raise ``EctpError("INVALID_CONFIG")`` unless every field is an integer >= 1 (at most 2^53 - 1)
        (``retry_after_ms`` and ``resend_interval_ms`` >= 0), the uint32 wire fields fit in 32 bits and
        ``max_batch_bytes`` is at most 8 MiB."""
        for f in fields(self):
            v = getattr(self, f.name)
            low = 0 if f.name in ("retry_after_ms", "resend_interval_ms") else 1
            if not is_int(v) or v < low or v > MAX_SAFE_INTEGER:
                raise EctpError(
                    "INVALID_CONFIG",
                    f"config.{f.name} must be an integer >= {low} and at most 2^53 - 1; got {v!r}. Omit it to use the default {f.default}.",
                )
        for name in ("lease_ms", "retry_after_ms", "heartbeat_interval_ms"):
            if getattr(self, name) > 0xFFFFFFFF:
                raise EctpError("INVALID_CONFIG", f"config.{name} must fit in 32 bits (travels as uint32)")
        if self.resend_interval_ms > MAX_RESEND_INTERVAL_MS:  # [E2] SPEC.md section 9: at most 1 s
            raise EctpError("INVALID_CONFIG", f"config.resend_interval_ms must be at most {MAX_RESEND_INTERVAL_MS} ms")
        if self.max_batch_bytes > MAX_BATCH_BYTES_LIMIT:  # [E1] far below the 16 MiB frame limit
            raise EctpError(
                "INVALID_CONFIG",
                f"config.max_batch_bytes must be at most {MAX_BATCH_BYTES_LIMIT} (8 MiB, half the 16 MiB frame limit)",
            )

"""ECTP in pure Python: sans-IO consumer and producer cores and the conformance testee adapter.

Modules:

- :mod:`ectp_py.consumer` -- :class:`ConsumerCore`, the prefill/decode side [C1]-[C11].
- :mod:`ectp_py.producer` -- :class:`ProducerCore`, the encoder side [P1]-[P8] [E1] [E2].
- :mod:`ectp_py.store` -- :class:`MemoryItemStore`, the producer's bounded region [P6].
- :mod:`ectp_py.wire` -- spec version, enums, reason table, descriptor validation [V1] [C2].
- :mod:`ectp_py.codec` / :mod:`ectp_py.schema` -- proto3 JSON and protobuf codec, no dependencies.
- :mod:`ectp_py.crc32c` -- CRC-32C [C11].
- :mod:`ectp_py.testee` -- the conformance testee protocol over the cores.
"""

from .config import ConsumerConfig, ProducerConfig
from .consumer import AdmitItem, AdmitResult, ConsumerCore, FailedRequest, ItemDecision, ItemFailure, ReadResult
from .crc32c import crc32c
from .producer import ProducerCore
from .store import MemoryItemStore
from .wire import EctpError

__all__ = [
    "AdmitItem", "AdmitResult", "ConsumerConfig", "ConsumerCore", "EctpError", "FailedRequest", "ItemDecision",
    "ItemFailure", "MemoryItemStore", "ProducerConfig", "ProducerCore", "ReadResult", "crc32c",
]

import logging as _logging

# A library logs, the application decides where: silent unless the host configures logging.
_logging.getLogger("ectp").addHandler(_logging.NullHandler())

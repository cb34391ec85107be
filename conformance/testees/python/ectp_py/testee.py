"""The testee adapter: one consumer, producer or subscriber instance behind the conformance testee
protocol (conformance/TESTEE-PROTOCOL.md, schema spec/proto/ectp/conformance/v1/testee.proto).

:class:`TesteeAdapter` answers ``TesteeRequest`` dicts (codec dict form, lowerCamelCase
keys) with ``TesteeResponse`` dicts. It is pure: no I/O, no clock (``nowMs`` is passed to
the cores as ``now``), so the stdio main (``ectp_testee.py``) is a thin loop around it and
unit tests can drive it directly.

The adapter also plays the engine's memory: a first-fit destination allocator for the
consumer (freed space is reused, so a destination released too early shows up as an
overlap [I5]) and the producer's registered memory (``ReadMemory``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from . import codec
from .config import ConsumerConfig, ProducerConfig
from .consumer import AdmitItem, ConsumerCore, ReadResult
from .crc32c import crc32c
from .framing import FrameDecoder
from .outputs import CancelRead, ConnectPeer, DisconnectPeer, EventBatchOut, Send, StartRead
from .producer import ProducerCore
from .store import ItemBytes, MemoryItemStore
from .subscriber import EventSubscriber
from .wire import EctpError, item_key_id

#: Version of the testee protocol spoken here.
TESTEE_PROTOCOL_VERSION = 1
#: Optional features implemented (TESTEE-PROTOCOL.md section 7).
FEATURES = ("consumer", "producer", "raw-messages", "untrusted-json", "evict", "read-memory", "events", "subscriber",
            "subscriber-view-bound", "warm-start", "stream-framing", "raw-outputs")
#: Default store / destination capacity when Configure gives 0.
DEFAULT_CAPACITY = 256 * 1024 * 1024

ROLE_CONSUMER = 1  # ectp.conformance.v1.Role
ROLE_PRODUCER = 2
ROLE_SUBSCRIBER = 3
ADMIT_ADMITTED, ADMIT_FAILED = 1, 2  # ectp.conformance.v1.AdmitStatus
ACTIONS = {"ready": 1, "defer": 2, "local-encode": 3}  # ectp.conformance.v1.ItemAction
READ_DONE, READ_CANCELLED = 1, 3  # ectp.conformance.v1.ReadStatus
#: ectp.conformance.v1.StreamOutcome, and the decoder errors that end a stream with one.
STREAM_CLEAN_END = 1
STREAM_OUTCOMES = {"FRAME_TOO_LARGE": 2, "MALFORMED_MESSAGE": 3}

#: Timers field (camelCase) -> config attribute, per role.
_CONSUMER_TIMERS = {
    "heartbeatIntervalMs": "heartbeat_interval_ms", "heartbeatMisses": "heartbeat_misses",
    "waitBudgetMs": "wait_budget_ms", "grantWaitMs": "grant_wait_ms", "transferTimeoutMs": "transfer_timeout_ms",
    "quarantineCapMs": "quarantine_cap_ms", "backoffInitialMs": "backoff_initial_ms", "backoffMaxMs": "backoff_max_ms",
    "leaseSafetyMarginMs": "lease_safety_margin_ms", "maxItemBytes": "max_item_bytes", "leaseMs": "lease_ms",
}
_PRODUCER_TIMERS = {
    "heartbeatIntervalMs": "heartbeat_interval_ms", "heartbeatMisses": "heartbeat_misses", "leaseMs": "lease_ms",
    "maxPinnedBytesPerConsumer": "max_pinned_bytes_per_consumer", "maxGrantsPerConsumer": "max_grants_per_consumer",
    "replayBufferBatches": "replay_buffer_batches", "retryAfterMs": "retry_after_ms",
    "maxBatchBytes": "max_batch_bytes", "resendIntervalMs": "resend_interval_ms",
}


class CommandError(Exception):
    """A command answered with ``Error{message, code}``."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(eq=False)
class Destination:
    """Where a read lands: ``length`` bytes at ``offset`` of the one destination region.
    Each destination keeps its own buffer, so the region is not allocated up front: the offsets
    model one shared region (the runner checks that unsettled reads never overlap [I5]), but
    bytes a transport writes late into a released destination do not reach the one reusing its
    space (the TS testee's single region shows them through the [I6] check)."""

    offset: int
    length: int
    buffer: bytearray


class FirstFitPool:
    """First-fit allocator over ``capacity`` bytes; freed space is reused at once."""

    region = "region-1"

    def __init__(self, capacity: int):
        self._free = [(0, capacity)]  # sorted (offset, length)
        self._live: set[int] = set()

    def allocate(self, key_id: str, size: int) -> Destination | None:
        """A destination of ``size`` bytes, or ``None`` when no free run is large enough."""
        n = max(1, size)
        for i, (off, length) in enumerate(self._free):
            if length >= n:
                if length == n:
                    del self._free[i]
                else:
                    self._free[i] = (off + n, length - n)
                d = Destination(off, size, bytearray(size))
                self._live.add(id(d))
                return d
        return None

    def release(self, d: Destination) -> None:
        """Free a destination (once; a second release is ignored)."""
        if id(d) not in self._live:
            return
        self._live.discard(id(d))
        runs = sorted(self._free + [(d.offset, max(1, d.length))])
        merged: list[tuple[int, int]] = []
        for off, length in runs:
            if merged and merged[-1][0] + merged[-1][1] == off:
                merged[-1] = (merged[-1][0], merged[-1][1] + length)
            else:
                merged.append((off, length))
        self._free = merged

    @staticmethod
    def view(d: Destination) -> bytes:
        """The destination's current bytes."""
        return bytes(d.buffer)


def _int(v: Any, default: int = 0) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) else default


def _wire_bytes(envelope: dict) -> dict:
    """Feature raw-outputs: the bytes this implementation's encoder puts on the wire for ``envelope``
    (``SendOutput.raw``), or why the encoder refused it (``raw_error``: such an envelope is never
    sent, and the poll's other outputs stand)."""
    try:
        return {"raw": codec.encode("ectp.v1.Envelope", envelope)}
    except (TypeError, ValueError) as e:
        return {"rawError": str(e)}


class TesteeAdapter:
    """Answers testee requests with one implementation instance (see module docstring).
    ``Configure`` makes a fresh instance and forgets everything before it."""

    def __init__(self, name: str = "ectp-python", version: str = "0.1.0"):
        """:param name: implementation name reported in ``InitResult``. Default ``ectp-python``.
        :param version: implementation version reported in ``InitResult``. Default ``0.1.0``."""
        self.name = name
        self.version = version
        self._reset()

    def _reset(self) -> None:
        self.role = 0
        self.consumer: ConsumerCore | None = None
        self.producer: ProducerCore | None = None
        self.subscriber: EventSubscriber | None = None
        self.store: MemoryItemStore | None = None
        self.pool: FirstFitPool | None = None
        self._reads: dict[int, Destination] = {}
        self._memory: dict[bytes, tuple[str, ItemBytes]] = {}  # location -> (key id, bytes)
        self._next_location = 1
        self._producer_id = ""
        self._producer_epoch = 0

    # ------------------------------------------------------------------------- entry point

    def handle(self, request: dict) -> dict:
        """Answer one ``TesteeRequest`` dict with one ``TesteeResponse`` dict (same commandId).
        Exceptions become ``Error`` answers (the runner counts those as crashes [I1])."""
        command_id = request.get("commandId", 0)
        try:
            result = self._dispatch(request)
        except CommandError as err:
            result = {"error": {"message": str(err), "code": err.code}}
        except EctpError as err:
            result = {"error": {"message": err.message, "code": err.code}}
        except Exception as err:  # noqa: BLE001 - reported to the runner, never fatal
            result = {"error": {"message": f"{type(err).__name__}: {err}", "code": "INTERNAL"}}
        return {"commandId": command_id, **result}

    def _dispatch(self, req: dict) -> dict:
        now = _int(req.get("nowMs"))
        if "init" in req:
            version = _int(req["init"].get("protocolVersion")) if isinstance(req["init"], dict) else 0
            if version != TESTEE_PROTOCOL_VERSION:
                raise CommandError("UNSUPPORTED_PROTOCOL", f"testee protocol {version} requested; this testee speaks 1")
            return {"init": {"protocolVersion": TESTEE_PROTOCOL_VERSION, "implementation": self.name,
                             "implementationVersion": self.version, "features": list(FEATURES)}}
        if "configure" in req:
            return self._configure(req["configure"])
        if "decodeStream" in req:
            return self._decode_stream(req["decodeStream"])
        if "poll" in req:
            return self._poll(now)
        if "getStats" in req:
            return self._stats()
        if "advanceClock" in req:
            self._instance()
            return {"ok": {}}
        if "deliverMessage" in req:
            dm = req["deliverMessage"]
            inst = self._instance()
            raw = dm.get("raw", b"")
            sender = dm.get("from", "")
            if isinstance(raw, (bytes, bytearray)) and raw:
                inst.handle_message(sender, bytes(raw), now)
            else:
                inst.handle_envelope(sender, dm.get("envelope", {}), now)
            return {"ok": {}}
        if "peerUnreachable" in req:
            self._instance().handle_peer_unreachable(req["peerUnreachable"].get("peerId", ""), now)
            return {"ok": {}}
        consumer_cmds = ("admit", "finishRequest", "drainFailed", "deliverReadResult")
        producer_cmds = ("putItem", "markReady", "discard", "evict", "clearStore", "announce", "shutdown", "readMemory")
        subscriber_cmds = ("follow", "unfollow", "getView")
        for name in subscriber_cmds:
            if name in req:
                self._require(ROLE_SUBSCRIBER)
                return getattr(self, f"_cmd_{name}")(req[name], now)
        for name in consumer_cmds:
            if name in req:
                self._require(ROLE_CONSUMER)
                return getattr(self, f"_cmd_{name}")(req[name], now)
        for name in producer_cmds:
            if name in req:
                self._require(ROLE_PRODUCER)
                return getattr(self, f"_cmd_{name}")(req[name], now)
        return {"unsupported": {"feature": "unknown-command"}}

    def _instance(self) -> ConsumerCore | ProducerCore | EventSubscriber:
        inst = {ROLE_CONSUMER: self.consumer, ROLE_PRODUCER: self.producer, ROLE_SUBSCRIBER: self.subscriber}.get(self.role)
        if inst is None:
            raise CommandError("NOT_CONFIGURED", "send Configure first")
        return inst

    def _require(self, role: int) -> None:
        self._instance()
        if self.role != role:
            raise CommandError("WRONG_ROLE", "command does not apply to the configured role")

    # ------------------------------------------------------------------------- lifecycle

    def _configure(self, c: dict) -> dict:
        self._reset()
        role = c.get("role", 0)
        timers = c.get("timers") or {}
        ident = c.get("id", "")
        epoch = c.get("epoch", 0)
        fingerprint = c.get("fingerprint")
        metadata = c.get("transportMetadata", b"")
        if role == ROLE_CONSUMER:
            config = ConsumerConfig(**{attr: timers[k] for k, attr in _CONSUMER_TIMERS.items() if k in timers})
            self.pool = FirstFitPool(_int(c.get("destinationCapacityBytes")) or DEFAULT_CAPACITY)
            self.consumer = ConsumerCore(ident, epoch, fingerprint, self.pool, transport_metadata=metadata,
                                         config=config, seed=_int(c.get("seed")) or 1)
        elif role == ROLE_PRODUCER:
            config = ProducerConfig(**{attr: timers[k] for k, attr in _PRODUCER_TIMERS.items() if k in timers})
            self.store = MemoryItemStore(_int(c.get("storeCapacityBytes")) or DEFAULT_CAPACITY, locate=self._locate)
            self._producer_id, self._producer_epoch = ident, epoch
            initial = []
            for put in c.get("initialItems") or []:  # feature warm-start: a store filled first [E1]
                try:
                    stored = self._cmd_putItem(put, 0)["putItem"]["descriptor"]
                except EctpError as err:
                    raise CommandError("INVALID_CONFIG", f"initial item refused: {err}") from err
                key_id = item_key_id(stored["key"])
                self.store.mark_ready(key_id)
                initial.append(key_id)
            if any(self.store.get(key_id) is None for key_id in initial):  # a later item made the store evict it
                raise CommandError("INVALID_CONFIG", "initial items do not fit in the store together (it evicted some of them)")
            self.producer = ProducerCore(ident, epoch, fingerprint, self.store, transport_metadata=metadata, config=config)
        elif role == ROLE_SUBSCRIBER:
            hb = timers.get("heartbeatIntervalMs")
            bound = {"max_view_bytes": timers["maxViewBytes"]} if "maxViewBytes" in timers else {}
            try:
                self.subscriber = EventSubscriber(ident, epoch, fingerprint, transport_metadata=metadata,
                                                  heartbeat_interval_ms=2000 if hb is None else hb, **bound)
            except ValueError as err:
                raise CommandError("INVALID_CONFIG", str(err)) from err
        else:
            raise CommandError("INVALID_CONFIG", f"role {role!r} is not ROLE_CONSUMER, ROLE_PRODUCER or ROLE_SUBSCRIBER")
        self.role = role
        return {"ok": {}}

    def _locate(self, key_id: str, data: ItemBytes) -> bytes:
        """Register an item's memory: its location is an opaque ``mem:<n>`` token."""
        location = f"mem:{self._next_location}".encode()
        self._next_location += 1
        self._memory[location] = (key_id, data)
        return location

    # ------------------------------------------------------------------------- any role

    @staticmethod
    def _decode_stream(d: dict) -> dict:
        """DecodeStream (feature stream-framing): one new :class:`FrameDecoder` is given every chunk,
        in order, also after it refused the stream (it must refuse what follows itself), then the
        stream's end. Its FRAME_TOO_LARGE and MALFORMED_MESSAGE errors are outcomes (the first one
        counts); anything else it raises before that is an Error answer, a crash [I1]. After the
        first outcome whatever it raises is ignored (it may refuse later pushes with any error):
        only the frames it still hands out count. A chunk that is not bytes is an Error answer."""
        maximum = d.get("maxFrameBytes")
        decoder = FrameDecoder() if maximum is None else FrameDecoder(maximum)
        chunks = d.get("chunks", [])
        for i, chunk in enumerate(chunks):
            if not isinstance(chunk, (bytes, bytearray)):  # dropping it would shift the later chunks' indexes
                raise CommandError("INVALID_ARGUMENT", f"DecodeStream.chunks[{i}] is not bytes: {type(chunk).__name__}")
        frames: list[dict] = []
        outcome: tuple[int, int] | None = None  # (StreamOutcome, the chunk that gave it)
        for i, chunk in enumerate(chunks):
            try:
                got = decoder.push(bytes(chunk))
            except Exception as err:  # noqa: BLE001 - after the outcome any error is ignored
                if not (isinstance(err, EctpError) and err.code in STREAM_OUTCOMES):
                    if outcome is None:
                        raise
                    continue
                outcome = outcome or (STREAM_OUTCOMES[err.code], i)
                got = err.details.get("frames", [])
            frames.extend({"payload": payload, "chunk": i} for payload in got)
        try:
            decoder.end()
        except Exception as err:  # noqa: BLE001 - after the outcome any error is ignored
            if isinstance(err, EctpError) and err.code in STREAM_OUTCOMES:
                outcome = outcome or (STREAM_OUTCOMES[err.code], len(chunks))
            elif outcome is None:
                raise
        kind, at = outcome or (STREAM_CLEAN_END, len(chunks))
        return {"decodeStream": {"frames": frames, "outcome": kind, "outcomeChunk": at}}

    # ------------------------------------------------------------------------- both roles

    def _poll(self, now: int) -> dict:
        inst = self._instance()
        outputs = []
        for o in inst.poll(now):
            if isinstance(o, Send):
                outputs.append({"send": {"to": o.peer_id, "envelope": o.envelope, **_wire_bytes(o.envelope)}})
            elif isinstance(o, StartRead):
                d: Destination = o.destination
                self._reads[o.read_id] = d
                outputs.append({"startRead": {"readId": o.read_id, "peerId": o.peer_id, "source": o.source,
                                              "length": d.length, "destinationRegion": FirstFitPool.region,
                                              "destinationOffset": d.offset}})
            elif isinstance(o, CancelRead):
                outputs.append({"cancelRead": {"readId": o.read_id}})
            elif isinstance(o, ConnectPeer):
                outputs.append({"connectPeer": {"peerId": o.peer_id, "epoch": o.epoch, "metadata": o.metadata}})
            elif isinstance(o, DisconnectPeer):
                outputs.append({"disconnectPeer": {"peerId": o.peer_id}})
            elif isinstance(o, EventBatchOut):
                outputs.append({"eventBatch": {"batch": o.batch}})
        result: dict[str, Any] = {"outputs": outputs}
        deadline = inst.next_deadline()
        if deadline is not None:
            result["nextDeadlineMs"] = max(0, math.ceil(deadline))
        return {"poll": result}

    def _stats(self) -> dict:
        inst = self._instance()
        key = {ROLE_CONSUMER: "consumer", ROLE_PRODUCER: "producer", ROLE_SUBSCRIBER: "subscriber"}[self.role]
        stats = inst.stats()
        if self.role == ROLE_SUBSCRIBER:
            stats.pop("viewBytes", None)  # not a SubscriberStats field (TESTEE-PROTOCOL.md 5.3; the codecs would drop it too)
        return {"stats": {key: stats}}

    # ------------------------------------------------------------------------- consumer commands

    def _cmd_admit(self, a: dict, now: int) -> dict:
        items = []
        for it in a.get("items", []):
            announcement = it.get("announcement")
            text = it.get("announcementJson", "")
            if text:
                try:
                    parsed = json.loads(text)
                    if codec.field_named_twice("ectp.v1.Announcement", parsed) is not None:
                        announcement = text  # a field under both names: malformed, the core's to refuse [C2]
                    else:
                        announcement = codec.from_json("ectp.v1.Announcement", parsed)
                except (ValueError, RecursionError):  # nested past the recursion limit: unparseable too
                    announcement = text  # unparseable: still an invalid announcement, never an exception [C2]
            items.append(AdmitItem(it.get("itemId", ""), announcement, it.get("hasModelInput") is True, it.get("local") is True))
        r = self.consumer.admit(a.get("requestId", ""), items, now)
        if r.status == "failed":
            return {"admit": {"status": ADMIT_FAILED, "failures": [self._failure(f) for f in r.failures]}}
        decisions = []
        for d in r.items:
            out: dict[str, Any] = {"itemId": d.item_id, "action": ACTIONS[d.action]}
            if d.reason is not None:
                out["reason"] = d.reason
            if d.action == "ready" and d.destination is not None:
                data = self.pool.view(d.destination)  # read back from destination memory, for the runner's [I6] check
                out["loaded"] = {"sizeBytes": len(data), "crc32c": crc32c(data)}
            decisions.append(out)
        return {"admit": {"status": ADMIT_ADMITTED, "items": decisions}}

    @staticmethod
    def _failure(f) -> dict:
        return {"itemId": f.item_id, "reason": f.reason, "attempts": f.attempts}

    def _cmd_finishRequest(self, f: dict, now: int) -> dict:
        self.consumer.finish_request(f.get("requestId", ""), now)
        return {"ok": {}}

    def _cmd_drainFailed(self, _d: dict, now: int) -> dict:
        return {"drainFailed": {"failed": [
            {"requestId": f.request_id, "failures": [self._failure(x) for x in f.failures]}
            for f in self.consumer.drain_failed()
        ]}}

    def _cmd_deliverReadResult(self, r: dict, now: int) -> dict:
        read_id = _int(r.get("readId"))
        data = r.get("data", b"")
        data = bytes(data) if isinstance(data, (bytes, bytearray)) else b""
        d = self._reads.pop(read_id, None)
        if d is not None:
            chunk = data[: d.length]  # the transport never writes past the destination
            d.buffer[: len(chunk)] = chunk
        status = r.get("status", 0)
        status = "done" if status == READ_DONE else "cancelled" if status == READ_CANCELLED else "failed"
        self.consumer.handle_read_result(ReadResult(read_id, status, len(data), r.get("peerGone") is True), now)
        return {"ok": {}}

    # ------------------------------------------------------------------------- subscriber commands

    def _cmd_follow(self, f: dict, now: int) -> dict:
        c = f.get("connection")
        connection = (_int(c.get("epoch")), bytes(c.get("metadata", b""))) if isinstance(c, dict) else None
        try:
            self.subscriber.follow(f.get("producerId", ""), now, connection)
        except ValueError as err:
            raise CommandError("INVALID_ARGUMENT", str(err)) from err
        return {"ok": {}}

    def _cmd_unfollow(self, f: dict, now: int) -> dict:
        self.subscriber.unfollow(f.get("producerId", ""))
        return {"ok": {}}

    def _cmd_getView(self, g: dict, now: int) -> dict:
        view = self.subscriber.view(g.get("producerId", ""))
        if view is None:
            return {"view": {"synced": False, "items": []}}
        return {"view": {"synced": True, "items": list(view.values())}}

    # ------------------------------------------------------------------------- producer commands

    def _key_id(self, cmd: dict) -> str:
        kid = item_key_id(cmd.get("key"))
        if kid is None:
            raise CommandError("INVALID_ARGUMENT", "key is missing or malformed")
        return kid

    def _cmd_putItem(self, p: dict, now: int) -> dict:
        """Store the item, not ready, under this producer's id and epoch where the descriptor leaves
        them empty; set, they are kept (an item of another producer or of an older epoch, which the
        producer must keep to itself, SPEC.md 4.4)."""
        desc = dict(p.get("descriptor") or {})
        if not desc.get("producerId"):
            desc["producerId"] = self._producer_id
        # Unset is absent or 0 (proto3 JSON may write a u64 as text); any other value goes to the store,
        # which refuses one that is no epoch (INVALID_ARGUMENT), rather than int() raising here.
        if desc.get("epoch") in (None, 0, "0", ""):
            desc["epoch"] = self._producer_epoch
        entry = self.store.put(desc, self._item_bytes(p, desc))
        return {"putItem": {"descriptor": entry.descriptor}}

    @staticmethod
    def _item_bytes(p: dict, desc: dict) -> bytes | None:
        """A PutItem's bytes: ``data``, or with ``fill`` as many copies of the byte value as the
        descriptor's ``sizeBytes`` says (testee.proto ``PutItem.fill``: no bytes travel). ``None``
        for a fill of 0: the store's own zeroed bytes, made once instead of made and copied, and for
        a large item zeroed by the OS only as its pages are read (:func:`ectp_py.store.zeroed_bytes`)."""
        data = p.get("data", b"")
        data = bytes(data) if isinstance(data, (bytes, bytearray)) else b""
        fill = p.get("fill")
        if fill is None:
            return data
        if data:
            raise CommandError("INVALID_ARGUMENT", "PutItem sets both data and fill; fill comes with empty data")
        if not (_int(fill, -1) >= 0 and fill <= 255):
            raise CommandError("INVALID_ARGUMENT", f"PutItem.fill is a byte value, 0 to 255; got {fill!r}")
        return None if fill == 0 else bytes((fill,)) * _int(desc.get("sizeBytes"))

    def _cmd_markReady(self, m: dict, now: int) -> dict:
        self.store.mark_ready(self._key_id(m))
        return {"ok": {}}

    def _cmd_discard(self, m: dict, now: int) -> dict:
        self.store.discard(self._key_id(m))
        return {"ok": {}}

    def _cmd_evict(self, m: dict, now: int) -> dict:
        self.store.evict(self._key_id(m))
        return {"ok": {}}

    def _cmd_clearStore(self, _m: dict, now: int) -> dict:
        self.store.clear("reset")
        return {"ok": {}}

    def _cmd_announce(self, m: dict, now: int) -> dict:
        a = self.producer.announce(self._key_id(m))
        return {"announce": {"announcement": a} if a is not None else {}}

    def _cmd_shutdown(self, _m: dict, now: int) -> dict:
        self.producer.shutdown(now)
        return {"ok": {}}

    def _cmd_readMemory(self, m: dict, now: int) -> dict:
        location = m.get("location", b"")
        held = self._memory.get(bytes(location)) if isinstance(location, (bytes, bytearray)) else None
        # An item that left the store (evicted, discarded, cleared) is deregistered memory: a
        # one-sided read of it fails, as over a real transport.
        entry = self.store.get(held[0]) if held is not None and self.store is not None else None
        if held is None or entry is None or entry.data is not held[1]:
            raise CommandError("INVALID_ARGUMENT", f"location {location!r} is not held: never handed out by this instance, or its item left the store")
        return {"readMemory": {"data": bytes(held[1][: _int(m.get("length"))])}}

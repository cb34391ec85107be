"""The consumer (prefill/decode side) of ECTP as a sans-IO state machine.

It implements admission [C1] with announcement validation [C2], wait budgets [C3],
retries with backoff [C4], terminal outcomes [C5], drain-once failure reports [C6],
release on finish [C7], quarantine of overdue reads [C8], single flight per item [C9],
robustness to late/duplicate/unknown messages [C10], verification before loading [C11]
and the consumer's half of epochs and heartbeats [P8].

Sans-IO: every method takes ``now`` (ms, from the caller's clock); nothing here reads a
clock, sleeps, opens sockets or starts threads. Outputs (messages, reads, peer changes)
are queued and returned by :meth:`ConsumerCore.poll`; :meth:`ConsumerCore.next_deadline`
says when to poll next. Same inputs and seed, same outputs.

Semantics mirror the TypeScript reference (packages/core/src/consumer/consumer.ts).
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import codec
from .config import ConsumerConfig
from .clock import checked_now
from .crc32c import crc32c
from .ids import id_before_epoch
from .reentry import EngineCalls
from .outputs import CancelRead, ConnectPeer, DisconnectPeer, Output, Send, StartRead
from .rand import SeededRandom
from .timers import TimerEntry, TimerQueue
from .wire import (
    SPEC_MAJOR,
    Completion,
    EctpError,
    Fingerprint,
    Reason,
    Role,
    ValidDescriptor,
    is_int,
    is_positive_id,
    normalize_fingerprint,
    peer_heartbeat_interval_ms,
    spec_version,
    validate_descriptor,
)

log = logging.getLogger("ectp.consumer")

#: The read result statuses that say a read has settled: the transport writes no more into its destination.
SETTLED_STATUSES = ("done", "failed", "cancelled")

# Fetch states.
IDLE = "idle"  # waiting for a retry (backoff) or for budgets to run out
REQUESTING = "requesting"  # ReadRequest sent, waiting for a grant or reject
READING = "reading"  # grant held, read in flight
BLOCKED = "blocked"  # [C9] its next attempt waits for an earlier read of its item from its producer epoch

#: Peer records are swept for idle ones when the table reaches this many, then twice what is left.
MIN_PEER_SWEEP = 1024
MAX_ANNOUNCED_EPOCHS = 8  # most producer epochs whose announced transport metadata a peer keeps

READY = "ready"
DEFER = "defer"
LOCAL_ENCODE = "local-encode"


class DestinationPool(Protocol):
    """The memory reads land in (the engine's region). Called synchronously by the core.

    The core never releases a destination while a read may still write into it [I5]. The pool is
    engine code run in the middle of a core's call: calling a state-changing method of the core from
    it raises ``EctpError("REENTRANT_CALL")`` [I1].
    """

    def allocate(self, key_id: str, size_bytes: int) -> Any | None:
        """Reserve ``size_bytes`` for item ``key_id``: a destination whose ``length`` is exactly
        ``size_bytes``; ``None`` when there is no room now (the core then treats the attempt as
        OVERLOADED, retryable). A destination of another length (or none) is released at once and
        the item fails INTERNAL, with an error log naming both lengths."""

    def release(self, destination: Any) -> None:
        """Give a destination back. Called exactly once per allocated destination."""

    def view(self, destination: Any) -> bytes | None:
        """The destination's bytes for verification [C11]; ``None`` if not host-visible
        (then a descriptor with a checksum counts as CHECKSUM_MISMATCH)."""


@dataclass
class AdmitItem:
    """One media item of a request, as the engine sees it at admission [C1]."""

    #: The engine's id for the item, unique within the request.
    item_id: str
    #: The orchestrator's announcement (``ectp.v1.Announcement`` dict), untrusted [C2]. None: no remote copy.
    announcement: Any = None
    #: Whether the request carries real model input for the item (SPEC.md section 13).
    has_model_input: bool = False
    #: Whether the engine already holds the encoding.
    local: bool = False


@dataclass(frozen=True)
class ItemDecision:
    """Per-item decision of an admission [C1]."""

    item_id: str
    #: ``"ready"``, ``"defer"`` or ``"local-encode"``.
    action: str
    #: LOCAL_ENCODE: why the remote path was not (or no longer) used; None when there was no announcement.
    reason: int | None = None
    #: READY from a remote load: where the verified bytes are.
    destination: Any = None


@dataclass(frozen=True)
class ItemFailure:
    """One failed item of a failed request [C6]."""

    item_id: str
    #: ``ectp.v1.FailureReason`` number.
    reason: int
    #: Remote attempts made for it.
    attempts: int
    #: For the warning only: the item's key and producer [C5] and, for a budget, what its fetch waited for [C3].
    source: str = field(default="", compare=False, repr=False)


@dataclass(frozen=True)
class AdmitResult:
    """Result of :meth:`ConsumerCore.admit`: ``status`` ``"admitted"`` with one decision per
    item, or ``"failed"`` with the failed items."""

    status: str
    items: tuple[ItemDecision, ...] = ()
    failures: tuple[ItemFailure, ...] = ()


@dataclass(frozen=True)
class FailedRequest:
    """A failed request, reported once by :meth:`ConsumerCore.drain_failed` [C6]."""

    request_id: str
    failures: tuple[ItemFailure, ...]


@dataclass(frozen=True)
class ReadResult:
    """A settled read, as the transport reports it."""

    read_id: int
    #: ``"done"``, ``"failed"`` or ``"cancelled"``.
    status: str
    #: Bytes written (meaningful for ``"done"``).
    bytes_read: int = 0
    #: The transport knows the peer is gone.
    peer_gone: bool = False
    #: What the transport says went wrong (a failed read), for the failure's warning [C5].
    error: str | None = None


# ----------------------------------------------------------------------------- internal state


@dataclass(eq=False)
class _Req:
    id: str
    slots: list[_Slot] = field(default_factory=list)
    failure: AdmitResult | None = None


@dataclass(eq=False)
class _Slot:
    """One (request, item) pair."""

    req: _Req
    item_id: str
    has_model_input: bool
    decision: ItemDecision | None = None
    fetch: _Fetch | None = None
    loaded: _Loaded | None = None
    budget_at: float | None = None  # [C3] None before the first wait
    budget_timer: TimerEntry | None = None
    #: SPEC.md 3.4: the item key the item took from a valid announcement at its first admission; None: it took none.
    key_id: str | None = None
    #: The announcement last presented for ``key_id`` (kept only to compare with: the same object is not read again).
    announcement: Any = None


def item_source(key_id: str, producer: str) -> str:
    """[C5] For a warning about an item whose announcement was valid: its key and its producer."""
    return f" item_key={key_id} producer={producer}"


def plan_source(desc: "ValidDescriptor") -> str:
    """:func:`item_source` of an admission plan's descriptor."""
    return item_source(desc.key_id, desc.producer_id)


def destination_length(dest: Any) -> Any:
    """A destination's ``length`` (what it was allocated for), or None when it has none or reading it raises [I1]."""
    try:
        return getattr(dest, "length", None)
    except Exception:  # noqa: BLE001 - the engine's object
        return None


def peer_detail(value: Any) -> str:
    """[C5] A peer's or the transport's ``detail`` text for a warning: a string, at most 200 characters;
    anything else ""."""
    return value[:200] if isinstance(value, str) else ""


def checksum_detail(crc: int | None, announced: int) -> str:
    """[C5][C11] What a read found when its bytes do not match an announced CRC-32C (``announced``), for the
    failure's warning: the CRC-32C of the bytes read, or that it could not be computed (``crc`` None)."""
    if crc is None:
        return "checksum not verifiable: the pool gives no view of the destination"
    return f"CRC-32C of the bytes read {crc}, announced {announced}"


def fetch_source(fetch: "_Fetch | None", reason: int) -> str:
    """What a warning says of the fetch an item's remote path ended in: :func:`budget_source` when its
    budget ran out, else :func:`item_source`; "" without a fetch."""
    if fetch is None:
        return ""
    return budget_source(fetch) if reason == Reason.BUDGET_EXHAUSTED else item_source(fetch.key_id, fetch.peer.id)


def budget_source(fetch: "_Fetch | None") -> str:
    """[C3] For a warning about an item whose budget ran out: its key, its producer, whether its fetch
    was waiting for a retry, a grant or a read and, before a grant, why its last attempt ended (once
    one did), as `` item_key=... producer=... waiting_for=... last_retry_reason=...``; "" without a fetch."""
    if fetch is None:
        return ""
    text = item_source(fetch.key_id, fetch.peer.id)
    if fetch.state == READING:
        return f"{text} waiting_for=read"
    text += f" waiting_for={'grant' if fetch.state == REQUESTING or fetch.grant_came_late else 'retry'}"
    return text if fetch.retry_reason is None else f"{text} last_retry_reason={Reason.name(fetch.retry_reason)}"


@dataclass(eq=False)
class _Fetch:
    """A single-flight remote fetch of one item key [C9]."""

    key_id: str
    desc: ValidDescriptor
    key: dict
    peer: _Peer
    epoch: int
    announced_metadata: bytes | None
    # Ordered set of waiting _Slot, each mapped to its own announced CRC-32C when that differs from
    # desc's (two announcements of one key that disagree), else None [C9][C11].
    waiters: dict = field(default_factory=dict)
    state: str = IDLE
    attempt_id: int = 0
    attempts: int = 0
    retry_reason: int | None = None  # [C4] why the next attempt is a retry (its metric label and log); None until an attempt ended
    # [C3] its last grant came when every waiter's budget was over and was released unread: parked (IDLE), its
    # waiters were waiting for that grant; cleared when a joining request resumes it (a BUDGET_EXHAUSTED retry)
    grant_came_late: bool = False
    retries: int = 0
    retry_at: float = 0
    timer: TimerEntry | None = None
    read: _Read | None = None
    disposed: bool = False
    # [C1][P8] the latest announcement (descriptor, transport metadata) of a greater epoch of its
    # producer that came while a read of the older epoch was in flight: should that read end
    # without loading the item, the fetch goes on at this epoch rather than failing its waiters
    successor: tuple | None = None


@dataclass(eq=False)
class _Read:
    read_id: int
    peer: _Peer
    grant_id: int
    epoch: int
    key_id: str
    size_bytes: int
    dest: Any
    deadline: float  # [C11] min(start + transfer timeout, lease deadline)
    lease_deadline: float
    started_at: float
    checksums: tuple[int, ...]
    fetch: _Fetch | None
    grant_held: bool = True
    ack_on_settle: int = 0
    cancelled: bool = False
    quarantined: bool = False
    timer: TimerEntry | None = None
    # the fetch of the same item from the same producer epoch (single flight: one at a time) whose
    # next ReadRequest waits for this read to settle [C9][P3]: see _send_attempt
    blocked: Any = None


@dataclass(eq=False)
class _Loaded:
    key_id: str
    dest: Any
    holders: int = 0
    size_bytes: int = 0
    crc: int | None = None  # CRC-32C of the bytes once computed [C11]


@dataclass(eq=False)
class _Peer:
    """What the consumer knows about one producer."""

    id: str
    known_epoch: int = 0  # [P8] newest epoch heard from it
    hello_epoch: int = 0
    # greatest epoch greeted since its last refusal or a newer epoch; unlike hello_epoch kept when the
    # peer is let go or declared gone: a refusal of that Hello arriving afterwards still answers it [C10]
    greeted_epoch: int = 0
    heard_hello_epoch: int = 0  # the epoch whose Hello was applied: another Hello of it is a duplicate
    connected_epoch: int = 0
    metadata: bytes | None = None
    metadata_epoch: int = 0
    # what announcements carried, per epoch (the first of each; the MAX_ANNOUNCED_EPOCHS greatest):
    # kept when the peer is declared gone, unlike its Hello's (SPEC 4)
    announced: dict[int, bytes] = field(default_factory=dict)
    awaiting_hello: bool = False  # [P8] a greater epoch seen and not greeted yet: no Heartbeat before the Hello
    quiet_since: float | None = None  # found without business nor connection (idle let-go without one)
    last_heard: float = -math.inf
    # [P8] declared gone, and nothing heard from it since: a further declaration is the same outage (logged at info)
    gone_unheard: bool = False
    business_since: float = 0
    idle_since: float | None = None  # when the timer found it without business, its connection held
    next_heartbeat_at: float = 0
    heartbeat_seq: int = 0
    fetches: dict = field(default_factory=dict)  # ordered set of _Fetch
    ack_waiters: dict = field(default_factory=dict)  # ordered set of _Read
    grants: dict = field(default_factory=dict)  # grant id -> _Read
    # reads still running whose grant was let go (void when the peer was declared gone, or ACKed at
    # quarantine), by grant id: a copy of such a grant is a duplicate too, never released under them [C10]
    running_ungranted: dict = field(default_factory=dict)
    rejected_epoch: int = 0
    rejected_reason: int = Reason.INTERNAL
    timer: TimerEntry | None = None
    interval_ms: int = 0  # [P8] the heartbeat interval its Hello of the known epoch announced (0: none yet)


def backoff_delay(retry: int, initial_ms: int, max_ms: int, random: SeededRandom) -> float:
    """Delay before retry number ``retry`` (1-based) [C4]: ``d = min(max, initial * 2^(retry-1))``,
    jittered uniformly in ``[d/2, d]``."""
    d = min(max_ms, initial_ms * 2 ** min(max(0, retry - 1), 64))
    return d / 2 + random.next() * (d / 2)


class ConsumerCore:
    """The consumer of ECTP (see module docstring).

    The engine calls :meth:`admit` for a request on every scheduling step until every item
    is ready or local-encode, then :meth:`finish_request` when the request ends (failed
    ones included). A driver feeds peer messages (:meth:`handle_message` /
    :meth:`handle_envelope`), read results and unreachable peers in, and executes what
    :meth:`poll` returns. Nothing a peer sends makes a method raise [I1]; only engine
    programming errors raise ``EctpError("INVALID_ARGUMENT")``.
    """

    def __init__(
        self,
        id: str,
        epoch: int,
        fingerprint: dict | None,
        destinations: DestinationPool,
        *,
        transport_metadata: bytes = b"",
        config: ConsumerConfig | None = None,
        seed: int = 1,
    ):
        """Create a consumer.

        :param id: this consumer's stable, non-empty peer id.
        :param epoch: positive integer, greater after every restart [P8].
        :param fingerprint: ``ectp.v1.Fingerprint`` dict this consumer's model expects [C2]; None: all-default.
        :param destinations: the memory reads land in.
        :param transport_metadata: sent in this consumer's Hello. Default empty.
        :param config: timers and limits. Default ``ConsumerConfig()`` (SPEC.md defaults).
        :param seed: seed of the backoff jitter [C4]. Default 1.
        :raises EctpError: ``INVALID_CONFIG`` for an unusable id, epoch, fingerprint or config [C11].
        """
        if not isinstance(id, str) or not id:
            raise EctpError("INVALID_CONFIG", "id must be a non-empty string: the consumer's stable peer id.")
        if not is_positive_id(epoch):
            raise EctpError("INVALID_CONFIG", f"epoch must be a positive integer that grows on every restart [P8]; got {epoch!r}.")
        fp = normalize_fingerprint(fingerprint)
        if fp is None:
            raise EctpError("INVALID_CONFIG", "fingerprint is malformed: model must be a string, the rest non-negative integers.")
        self.config = config or ConsumerConfig()
        self.config.validate()
        self.id = id
        self.epoch = epoch
        self.fingerprint: Fingerprint = fp
        self.metrics: Counter = Counter()
        self._pool = destinations
        self._pool_calls = EngineCalls()  # [I1] calls into the destination pool in progress: the core is not re-entrant
        self._verified_crc: int | None = None  # what the last _verify computed [C11]
        self._verify_detail = ""  # [C5][C11] what the last _verify found, for the failure's warning
        self._transport_metadata = bytes(transport_metadata)
        self._random = SeededRandom(seed)
        self._requests: dict[str, _Req] = {}
        self._fetches: dict[str, _Fetch] = {}
        self._attempts: dict[int, _Fetch] = {}
        self._reads: dict[int, _Read] = {}
        self._loaded: dict[str, _Loaded] = {}
        self._peers: dict[str, _Peer] = {}
        self._peer_sweep_at = MIN_PEER_SWEEP
        self._timers = TimerQueue()
        self._out: list[Output] = []
        self._failed: list[FailedRequest] = []
        # failures of fetches ended by one event, gathered per request while _end_together runs [C6]
        self._together: dict | None = None
        self._next_attempt_id = id_before_epoch(epoch)  # [C10] a late reply to a run before a restart answers no attempt of this one
        self._next_read_id = 0
        self._last_now: float = -math.inf  # the latest clock reading accepted (none yet: any first one stands)
        self._budgets = 0
        self._quarantined = 0
        self._grants_held = 0
        self._destinations = 0
        self._ignored = 0

    # ------------------------------------------------------------------------- engine API

    def admit(self, request_id: str, items: list[AdmitItem], now: float) -> AdmitResult:
        """Admit (or re-admit) a request and decide each item [C1]: ready, defer (call again
        on a later step) or local-encode; or fail the whole request [C6]. Decisions are
        sticky, except that an item presented with ``local=True`` is ready whatever it was
        told before [C1]; the first defer of an item starts its (request, item) budget [C3]. Never
        raises for anything inside announcements [C2][I1]. ``items`` are the same on every
        admission of the request (SPEC.md 3.4): one a later admission leaves out stays part of the
        request (its budget runs, it can still fail the request) until :meth:`finish_request`; an
        item id the first admission did not name, or an announcement of another item key than the
        one an item took then, is refused before anything changes (the clock reading included). The
        same key again (a newer epoch's announcement, another producer's), no announcement, or an
        invalid one is accepted (the item keeps what it was first admitted with). Not compared: a
        failed request's later admissions (they return its failure), a first admission with no
        items, and an item first presented as local or without a valid announcement (it took no key).

        :raises EctpError: ``INVALID_ARGUMENT`` for engine programming errors only (empty
            request id, items without a string id, ``has_model_input`` or ``local`` not a bool,
            duplicate item ids, a re-admission naming a new item or another item key for one).
        """
        self._refuse_reentrant("admit")
        if not isinstance(request_id, str) or not request_id:
            raise EctpError("INVALID_ARGUMENT", "admit: request_id must be a non-empty string (the engine's request id).")
        if not isinstance(items, (list, tuple)):
            raise EctpError("INVALID_ARGUMENT", f"admit({request_id}): items must be a list of AdmitItem.")
        seen = set()
        for i, item in enumerate(items):
            if not isinstance(item, AdmitItem) or not isinstance(item.item_id, str):
                raise EctpError("INVALID_ARGUMENT", f"admit({request_id}): items[{i}] must be an AdmitItem with a string item_id.")
            # [C1][C5] read as given, never coerced: a 1 or "true" taken as false would fail the request
            # (no model input) where the engine meant local encoding.
            if not isinstance(item.has_model_input, bool) or not isinstance(item.local, bool):
                raise EctpError(
                    "INVALID_ARGUMENT",
                    f"admit({request_id}): items[{i}] ({item.item_id}): has_model_input and local must be booleans; "
                    f"got has_model_input {item.has_model_input!r}, local {item.local!r}.",
                )
            if item.item_id in seen:
                raise EctpError("INVALID_ARGUMENT", f"admit({request_id}): duplicate item id {item.item_id!r}; ids must be unique per request.")
            seen.add(item.item_id)
        req = self._requests.get(request_id)
        if req is not None and req.failure is not None:
            self._touch(now)
            return req.failure  # [C6] the same failure, not queued again
        if req is not None and req.slots:
            # SPEC.md 3.4: a request admitted before presents the items it was first admitted with.
            # Checked before the clock reading is taken, so that a refused call changes nothing.
            self._check_same_items(req, items)
        now = self._touch(now)
        if req is None:
            req = _Req(request_id)
            self._requests[request_id] = req

        # Pass 1: resolve the known items, then classify the new ones without starting anything, so a
        # failing request starts no fetch. Only a request's first admission has new items, and it has
        # no known items (:meth:`_check_same_items` refuses new ones later), so the two never meet in
        # one call: no known item resolved here can have ended a fetch a new one would join [C1][P8].
        failures: list[ItemFailure] = []
        plans: list[tuple | None] = [None] * len(items)
        exhausted: dict[int, ItemFailure] = {}
        new: list[int] = []
        for i, item in enumerate(items):
            slot = self._find_slot(req, item.item_id)
            model = item.has_model_input is True
            if slot is None:
                new.append(i)
                continue
            slot.has_model_input = model
            if item.local is True and (slot.decision is None or slot.decision.action == LOCAL_ENCODE):
                # [C1] "already local" comes first on every admission: an item the engine now holds is
                # ready, whether it was waiting (its wait ends) or was sent to local encode before.
                self._detach(slot, now)
                slot.decision = ItemDecision(slot.item_id, READY)
                continue
            if slot.decision is None and slot.fetch is not None and now >= slot.budget_at:
                # [C3] the budget is enforced at admission too.
                if model:
                    self._resolve_local(slot, Reason.BUDGET_EXHAUSTED, now)
                else:
                    exhausted[i] = self._exhaust_failure(slot)
        for i in new:
            plans[i] = self._classify(items[i], items[i].has_model_input is True, plans[:i])
        start_with = self._outdated_within_admission(items, plans)
        for i, item in enumerate(items):  # failures in item order
            plan = plans[i]
            if plan is not None and plan[0] == "fail":
                failures.append(ItemFailure(item.item_id, plan[1], 0, plan[2]))
            elif i in exhausted:
                failures.append(exhausted[i])
        if failures:
            return self._fail_request(req, failures, now)

        # Pass 2: apply.
        decisions = []
        for i, (item, plan) in enumerate(zip(items, plans)):
            if plan is None:
                slot = self._find_slot(req, item.item_id)
            else:
                slot = _Slot(req, item.item_id, item.has_model_input is True)
                req.slots.append(slot)
                slot.key_id = plan[4]
                if slot.key_id is not None:
                    slot.announcement = item.announcement  # (kept only to compare with)
                self._apply_plan(slot, plan, now, start_with.get(i))
            decisions.append(slot.decision if slot.decision is not None else ItemDecision(slot.item_id, DEFER))
        return AdmitResult("admitted", items=tuple(decisions))

    def finish_request(self, request_id: str, now: float) -> None:
        """Release everything a request holds [C7]: budgets, waits (a fetch nobody waits
        for is abandoned) and loaded items. Call it for every admitted request, failed ones
        included. Unknown ids are a no-op.

        :raises EctpError: ``INVALID_ARGUMENT`` when ``request_id`` is not a non-empty string: an
            engine mistake (no request could have been admitted under it, so the one meant is never released).
        """
        self._refuse_reentrant("finish_request")
        if not isinstance(request_id, str) or not request_id:
            raise EctpError(
                "INVALID_ARGUMENT", f"finish_request: request_id must be the non-empty string id the request was admitted with; got {request_id!r}."
            )
        req = self._requests.pop(request_id, None)
        if req is None:
            return
        now = self._touch(now)
        self._guard("finish_request", self._release_request, req, now)

    def drain_failed(self) -> list[FailedRequest]:
        """Failed requests since the previous call, each reported exactly once [C6]."""
        self._refuse_reentrant("drain_failed")
        drained, self._failed = self._failed, []
        return drained

    # ------------------------------------------------------------------------- peer and transport input

    def handle_message(self, sender: str, data: bytes, now: float) -> None:
        """Handle an encoded ``ectp.v1.Envelope`` from peer ``sender``. Malformed bytes are
        ignored and counted [C10]. Never raises [I1], but for a call from inside the core's own call into
        its destination pool (``REENTRANT_CALL``)."""
        self._refuse_reentrant("handle_message")
        now = self._touch(now)
        try:
            envelope = codec.decode("ectp.v1.Envelope", data)
        except Exception:  # noqa: BLE001 - any malformed input is one ignored message
            # [V1] another major's body need not parse as ours: answer from its frozen fields.
            frozen = codec.decode_frozen_envelope(data)
            if frozen is not None and (frozen.get("version") or {}).get("major", 0) != SPEC_MAJOR:
                self.handle_envelope(sender, frozen, now)
                return
            self._ignore("malformed")
            return
        self.handle_envelope(sender, envelope, now)

    def handle_envelope(self, sender: str, envelope: Any, now: float) -> None:
        """Handle a decoded envelope (dict form) from peer ``sender``. Anything unexpected is
        ignored and counted [C10]. Never raises [I1], but for a call from inside the core's own call into
        its destination pool (``REENTRANT_CALL``)."""
        self._refuse_reentrant("handle_envelope")
        now = self._touch(now)
        try:
            self._on_envelope(sender, envelope, now)
        except Exception:  # noqa: BLE001 - [I1] a bug costs one message, never the engine
            log.exception("consumer failed to handle an envelope from %s; ignored", sender)
            self._ignore("internal_error")

    def handle_read_result(self, result: ReadResult, now: float) -> None:
        """Handle a settled read [C8][C11]. Unknown or late read ids are ignored and counted [C10]."""
        self._refuse_reentrant("handle_read_result")
        now = self._touch(now)
        self._guard("handle_read_result", self._on_read_result, result, now)

    def handle_peer_unreachable(self, peer_id: str, now: float) -> None:
        """The transport found ``peer_id`` unreachable [P8]: pre-grant fetches retry, reads
        from it fail terminally, and it is forgotten until the next need (a new Hello)."""
        self._refuse_reentrant("handle_peer_unreachable")
        now = self._touch(now)
        peer = self._peers.get(peer_id)
        if peer is not None:
            self._guard("handle_peer_unreachable", self._peer_gone, peer, "unreachable", now)

    def poll(self, now: float) -> list[Output]:
        """Run due timers and return the queued outputs, in order."""
        self._refuse_reentrant("poll")
        now = self._touch(now)
        # [C6] one drive is one event: items of a request ended by several timers at this poll are reported together
        self._guard("poll", lambda n: self._end_together(n, lambda: self._run_timers(n)), now)
        # gauges [C7][C8], in the same dict as the counters
        self.metrics["ectp_consumer_requests"] = len(self._requests)
        self.metrics["ectp_consumer_grants_held"] = self._grants_held
        self.metrics["ectp_consumer_quarantined_reads"] = self._quarantined
        out, self._out = self._out, []
        return out

    def next_deadline(self) -> float | None:
        """When :meth:`poll` should next be called: the earliest timer (or the latest ``now``
        seen when outputs are already queued); ``None`` when idle."""
        at = self._timers.peek_at()
        if self._out:
            return self._last_now if at is None else min(at, self._last_now)
        return at

    def stats(self) -> dict[str, int]:
        """Table sizes, for dashboards and for checking the no-leak invariant [I4] from outside."""
        return {
            "requests": len(self._requests),
            "budgets": self._budgets,
            "fetches": len(self._fetches),
            "readsInFlight": len(self._reads),
            "quarantined": self._quarantined,
            "grantsHeld": self._grants_held,
            "loadedItems": len(self._loaded),
            "destinations": self._destinations,
            "undrainedFailures": len(self._failed),
            "ignoredMessages": self._ignored,
        }

    def _refuse_reentrant(self, method: str) -> None:
        """[I1] A state-changing call made from inside the core's own call into its destination pool would run
        on half-updated state: refused, raised into the pool's code (where, unless caught, it is that call's failure)."""
        self._pool_calls.refuse("ConsumerCore", method, "its destination pool")

    # ------------------------------------------------------------------------- admission internals

    def _check_same_items(self, req: _Req, items: list[AdmitItem]) -> None:
        """SPEC.md 3.4: a request's items are the same on every presentation. Of a request admitted
        before, an item id its first admission did not name, or an announcement of another item key
        than the one the item took then, is the engine's error, raised before anything changes: the
        core would otherwise answer for the first key (ready with its bytes) while the engine means
        another. An item may be left out, come without an announcement, or bring one of the same key
        (another epoch or producer: not read) or an invalid one (it names no key). The announcement
        is validated only when it is not the object last presented.

        :raises EctpError: ``INVALID_ARGUMENT``
        """
        for i, item in enumerate(items):
            slot = self._find_slot(req, item.item_id)
            if slot is None:
                # SPEC.md 3.4: no item the first admission did not name
                raise EctpError(
                    "INVALID_ARGUMENT",
                    f"admit({req.id}): items[{i}] ({item.item_id!r}) was not in the request's first admission; a request's "
                    "items are the same on every admission (SPEC.md 3.4): admit other items under a new request id.",
                )
            announcement = item.announcement
            taken = slot.key_id
            if announcement is slot.announcement or taken is None or announcement is None:
                continue  # the engine's same object, or nothing to compare
            desc, _, _ = self._validate_announcement(announcement)
            if desc is not None and desc.key_id != taken:
                # SPEC.md 3.4: no other item key than the one the item took
                raise EctpError(
                    "INVALID_ARGUMENT",
                    f"admit({req.id}): items[{i}] ({item.item_id!r}) announces item key {desc.key_id}, but the item was first "
                    f"admitted announcing {taken}; a request's items are the same on every admission (SPEC.md 3.4): "
                    "admit another item under a new item id in a new request.",
                )
            slot.announcement = announcement  # the same key (or none readable): compared once

    @staticmethod
    def _find_slot(req: _Req, item_id: str) -> _Slot | None:
        for slot in req.slots:
            if slot.item_id == item_id:
                return slot
        return None

    def _classify(self, item: AdmitItem, model: bool, earlier: list) -> tuple:
        """[C1] Classify a new item: ``(kind, reason, desc, metadata, key_id)``; ``earlier`` holds the
        plans of this call's previous items. A "local" or "fail" plan carries its warning's text [C5] in
        place of ``desc``: the item's key and producer, what was wrong with an invalid announcement,
        or "" without one. ``key_id`` is the item key the item takes (SPEC.md 3.4): its valid
        announcement's, whatever the plan; None without one. Never raises [C2][I1]."""
        if item.local is True:
            return ("ready-local", None, None, None, None)  # [C1] already local
        if item.announcement is None:
            # [C1] no announcement: local encode with model input, else the request fails UNAVAILABLE.
            return ("local", None, "", None, None) if model else ("fail", Reason.UNAVAILABLE, "", None, None)
        desc, meta, why = self._validate_announcement(item.announcement)
        if desc is None:
            # [C2] an invalid announcement is a classification, never an exception; [C5] its warning says what was wrong
            return ("local" if model else "fail", Reason.INVALID_ANNOUNCEMENT, f" detail={why}", None, None)
        if self._size_disagrees(desc, earlier):
            # [C11] one key, one size: bytes loaded for the other size could never verify against this one.
            return ("local" if model else "fail", Reason.SIZE_MISMATCH, plan_source(desc), None, desc.key_id)
        if desc.key_id in self._loaded:
            # [C11] loaded and verified, but against another announcement: its checksum must match too.
            if desc.crc32c is not None and self._loaded_crc(self._loaded[desc.key_id]) != desc.crc32c:
                return ("local" if model else "fail", Reason.CHECKSUM_MISMATCH, plan_source(desc), None, desc.key_id)
            return ("ready-loaded", None, desc, None, desc.key_id)  # [C1] already loaded and verified
        peer = self._peers.get(desc.producer_id)
        terminal = None
        if peer is not None:
            if peer.known_epoch > desc.epoch:
                terminal = Reason.EPOCH_CHANGED  # [P8] announcement of an older epoch
            elif peer.rejected_epoch and peer.rejected_epoch >= desc.epoch:
                terminal = peer.rejected_reason  # handshake refused for this epoch [C5]
            elif peer.hello_epoch > desc.epoch or peer.connected_epoch > desc.epoch:
                # [P8] older than an epoch known from what the fetches rely on (greeted or connected, though it never answered)
                terminal = Reason.EPOCH_CHANGED
        if terminal is not None and desc.key_id not in self._fetches:
            return ("local" if model else "fail", terminal, plan_source(desc), None, desc.key_id)
        return ("fetch", None, desc, meta, desc.key_id)

    def _outdated_within_admission(self, items: list[AdmitItem], plans: list) -> dict[int, tuple]:
        """[P8][C1] The epochs this admission's own announcements rely on. A new item whose announcement
        names an older epoch of its producer than another new item that fetches is outdated, as one older
        than an epoch known before the call: it starts no fetch. It may still join the fetch of its key in
        flight, or the one an item naming the greater epoch starts: that fetch is then started with the
        greater epoch's descriptor and metadata, whichever item comes first (returned by the index of the
        older item that may start it). Otherwise its plan becomes EPOCH_CHANGED (local, or fail)."""
        fetching = [i for i, plan in enumerate(plans) if plan is not None and plan[0] == "fetch"]
        greatest: dict[str, int] = {}
        for i in fetching:
            desc = plans[i][2]
            greatest[desc.producer_id] = max(greatest.get(desc.producer_id, 0), desc.epoch)
        current: dict[str, int] = {}  # key id -> the first item naming it in its producer's greatest epoch
        for i in fetching:
            desc = plans[i][2]
            if desc.epoch == greatest[desc.producer_id]:
                current.setdefault(desc.key_id, i)
        start_with: dict[int, tuple] = {}
        for i in fetching:
            desc = plans[i][2]
            if desc.epoch == greatest[desc.producer_id] or desc.key_id in self._fetches:
                continue
            j = current.get(desc.key_id)
            if j is not None:
                if i < j:
                    start_with[i] = (plans[j][2], plans[j][3])
                continue  # [C1] joins the fetch item j starts
            # [P8] an announcement naming an older epoch than one the consumer knows of starts no fetch
            why = (f"{plan_source(desc)} detail=the announcement names epoch {desc.epoch}; another item of this "
                   f"admission names epoch {greatest[desc.producer_id]} of the producer")
            plans[i] = ("local" if items[i].has_model_input is True else "fail", Reason.EPOCH_CHANGED, why, None, desc.key_id)
        return start_with

    def _size_disagrees(self, desc: ValidDescriptor, earlier: list) -> bool:
        """[C11] Whether an announcement's size differs from the size its key is already bound to:
        the item loaded or being fetched, or an earlier new item of this admit call that will start
        the key's fetch. Equal keys name equal bytes, so the later announcement joins nothing."""
        loaded = self._loaded.get(desc.key_id)
        if loaded is not None:
            return loaded.size_bytes != desc.size_bytes
        f = self._fetches.get(desc.key_id)
        if f is not None:
            return f.desc.size_bytes != desc.size_bytes
        for plan in earlier:
            if plan is not None and plan[0] == "fetch" and plan[2].key_id == desc.key_id:
                return plan[2].size_bytes != desc.size_bytes
        return False

    def _validate_announcement(self, a: Any) -> tuple[ValidDescriptor | None, bytes | None, str]:
        """[C2] Validate an untrusted announcement: its descriptor and transport metadata, or None and
        what was wrong with it (for its warning [C5]). Never raises."""
        try:
            if not isinstance(a, dict):
                return None, None, f"the announcement is of type {type(a).__name__}, not a dict"
            version = a.get("version")
            # [C2][V1] the announcement must name spec major 1; an absent version is invalid.
            if not isinstance(version, dict) or version.get("major") != SPEC_MAJOR:
                return None, None, f"the announcement's spec version is not major {SPEC_MAJOR}"
            desc, why = validate_descriptor(a.get("item"), self.config.max_item_bytes, self.fingerprint)
            if desc is None:
                return None, None, why
            meta = a.get("transportMetadata")
            return desc, (bytes(meta) if isinstance(meta, (bytes, bytearray)) and meta else None), ""
        except Exception as e:  # noqa: BLE001
            return None, None, f"the announcement could not be read ({type(e).__name__}: {e})"

    def _apply_plan(self, slot: _Slot, plan: tuple, now: float, start_with: tuple | None = None) -> None:
        """Carry out a new item's plan. ``start_with``: the descriptor and metadata its key's fetch is
        started with if this item starts it (see :meth:`_outdated_within_admission`), else its own."""
        kind, reason, desc, meta, _ = plan
        # [C1] each item's first decision, by path (items of admitted requests only)
        path = {"ready-local": "local", "ready-loaded": "loaded", "local": "local_encode", "fetch": "remote"}[kind]
        self.metrics[f'ectp_consumer_items_admitted_total{{path="{path}"}}'] += 1
        if kind == "ready-local":
            slot.decision = ItemDecision(slot.item_id, READY)
        elif kind == "ready-loaded":
            self._hold(slot, self._loaded[desc.key_id])
        elif kind == "local":
            slot.decision = ItemDecision(slot.item_id, LOCAL_ENCODE, reason)
            if reason is not None:
                self.metrics[f'ectp_consumer_local_encodes_total{{reason="{Reason.name(reason)}"}}'] += 1
                log.warning("item falls back to local encode: request=%s item=%s reason=%s attempts=0%s",
                            slot.req.id, slot.item_id, Reason.name(reason), desc)  # desc: the plan's warning text [C5]
        elif kind == "fetch":
            f = self._fetches.get(desc.key_id)
            if f is None:
                f = self._create_fetch(*(start_with or (desc, meta)), now)
            elif f.peer.id == desc.producer_id:
                if meta is not None:
                    self._note_metadata(f.peer, desc.epoch, meta, from_hello=False)
                    # The fetch keeps the first metadata announced for its epoch (and for the epoch it
                    # would move to): the peer keeps only its greatest epoch's, and a Hello's replaces it [P8].
                    if desc.epoch == f.epoch:
                        if f.announced_metadata is None:
                            f.announced_metadata = meta
                    elif f.successor is not None and desc.epoch == f.successor[0].epoch and f.successor[1] is None:
                        f.successor = (f.successor[0], meta)
                if desc.epoch > f.epoch:
                    # [C1][P8] the producer restarted: move now, or, with a read of the older epoch
                    # in flight (its bytes still verified [C11]), should that read fail
                    if f.read is None:
                        self._move_to_epoch(f, desc, meta, now)
                    elif f.successor is None or desc.epoch > f.successor[0].epoch:
                        f.successor = (desc, meta)
            # [C9] single flight: join the fetch of this key.
            f.waiters[slot] = desc.crc32c  # [C11] its own announcement's checksum (None: none), checked per waiter
            slot.fetch = f
            if f.state == IDLE and f.timer is None:
                # A fetch stalled because earlier waiters' budgets ended before its retry: resume for this one.
                f.timer = self._timers.push(max(now, f.retry_at), "fetch", f)
            # [C3] This (request, item)'s own budget, from its first wait; never extended.
            slot.budget_at = now + self.config.wait_budget_ms
            self._budgets += 1
            slot.budget_timer = self._timers.push(slot.budget_at, "budget", slot)

    def _move_to_epoch(self, f: _Fetch, desc: ValidDescriptor, meta: bytes | None, now: float) -> None:
        """[C1][P8] A valid announcement of a newer epoch of the fetch's producer, before any grant:
        the producer restarted and the epoch the fetch asks is gone. The fetch asks the newer epoch
        now: its attempt in flight is dropped (a late grant for it is released as unknown) and the
        next one goes out at once. Waiters keep their own checksums [C11]."""
        self._switch_epoch(f, desc, meta)
        if f.state == REQUESTING:
            self._attempts.pop(f.attempt_id, None)
        f.state = IDLE
        f.retry_reason = Reason.EPOCH_CHANGED  # the next attempt is counted and logged as a retry for this reason [C4]
        f.grant_came_late = False
        self._timers.cancel(f.timer)
        f.timer = None
        self._send_attempt(f, now)

    @staticmethod
    def _switch_epoch(f: _Fetch, desc: ValidDescriptor, meta: bytes | None) -> None:
        """The fetch asks ``desc`` (a greater epoch of its producer) from now on; its waiters keep
        their own checksums [C11]."""
        f.desc = desc
        f.epoch = desc.epoch
        f.announced_metadata = meta
        f.successor = None
        log.info("fetch moves to the producer's newer epoch: item=%s producer=%s epoch=%d", f.key_id, f.peer.id, desc.epoch)

    def _resume_at_successor(self, f: _Fetch, reason: int, now: float) -> bool:
        """[C1][P8] A read of an older epoch ended without loading the item after a greater epoch of
        its producer was announced: the fetch goes on there, as a retry [C4] within its waiters'
        budgets. False (the fetch ends as it would have) when that epoch is itself outdated by now
        or no waiter's budget remains."""
        desc, meta = f.successor
        f.successor = None
        if desc.epoch < f.peer.known_epoch:
            return False
        if not any(w.budget_at is not None and now < w.budget_at for w in f.waiters):
            return False
        read, f.read = f.read, None
        if read is not None and read.fetch is f:
            self._orphan_read(read, Completion.FAILED, now)
        self._switch_epoch(f, desc, meta)
        self._retry_fetch(f, reason, 0, now)
        return True

    def _hold(self, slot: _Slot, loaded: _Loaded) -> None:
        loaded.holders += 1
        slot.loaded = loaded
        slot.decision = ItemDecision(slot.item_id, READY, destination=loaded.dest)

    @staticmethod
    def _exhaust_failure(slot: _Slot) -> ItemFailure:
        f = slot.fetch
        return ItemFailure(slot.item_id, Reason.BUDGET_EXHAUSTED, f.attempts if f else 0, budget_source(f))

    def _detach(self, slot: _Slot, now: float) -> None:
        """Detach a slot from its fetch, abandoning the fetch when nobody is left [C7][C9]."""
        self._timers.cancel(slot.budget_timer)
        slot.budget_timer = None
        f = slot.fetch
        if f is None:
            return
        slot.fetch = None
        f.waiters.pop(slot, None)
        if not f.waiters and not f.disposed:
            self._abandon_fetch(f, now)

    def _resolve_local(self, slot: _Slot, reason: int, now: float) -> None:
        """A waiting slot ends its remote path: local encode, no further attempt [C5]."""
        fetch = slot.fetch
        attempts = fetch.attempts if fetch else 0
        self._detach(slot, now)
        slot.decision = ItemDecision(slot.item_id, LOCAL_ENCODE, reason)
        self.metrics[f'ectp_consumer_local_encodes_total{{reason="{Reason.name(reason)}"}}'] += 1
        log.warning("item falls back to local encode: request=%s item=%s reason=%s attempts=%d%s",
                    slot.req.id, slot.item_id, Reason.name(reason), attempts, fetch_source(fetch, reason))

    def _fail_request(self, req: _Req, failures: list[ItemFailure], now: float) -> AdmitResult:
        """[C6] Fail a request once: queue it for drain_failed and end its waits and budgets. The
        verified bytes it holds stay its until the engine finishes it: an item reported ready may
        still be in use."""
        if req.failure is not None:
            return req.failure
        # [C6][C3] an item whose budget ran out by now (without model input) ended in this event too,
        # whatever input failed the request: named as a poll at this instant names it
        named = {f.item_id for f in failures}
        failures = list(failures) + [self._exhaust_failure(s) for s in req.slots
                                     if s.decision is None and s.fetch is not None and not s.has_model_input
                                     and s.budget_at is not None and now >= s.budget_at and s.item_id not in named]
        result = AdmitResult("failed", failures=tuple(failures))
        req.failure = result
        self._failed.append(FailedRequest(req.id, tuple(failures)))
        self.metrics["ectp_consumer_requests_failed_total"] += 1
        for f in failures:
            self.metrics[f'ectp_consumer_item_failures_total{{reason="{Reason.name(f.reason)}"}}'] += 1
            log.warning("request failed: request=%s item=%s reason=%s attempts=%d%s",
                        req.id, f.item_id, Reason.name(f.reason), f.attempts, f.source)
        self._end_waits(req, now)
        return result

    def _end_waits(self, req: _Req, now: float) -> None:
        """[C3][C7] End a request's budgets and waits (a fetch nobody else waits for is abandoned)."""
        for slot in req.slots:
            if slot.budget_at is not None:
                slot.budget_at = None
                self._budgets -= 1
            self._detach(slot, now)

    def _release_request(self, req: _Req, now: float) -> None:
        """[C7][I4] Release budgets, waits and holds of a request: its per-request state back to baseline."""
        self._end_waits(req, now)  # (nothing left to end for a failed request)
        for slot in req.slots:
            loaded = slot.loaded
            if loaded is not None:
                slot.loaded = None
                loaded.holders -= 1
                if loaded.holders == 0:
                    del self._loaded[loaded.key_id]
                    self._release_dest(loaded.dest)  # last holder finished [C7]
        req.slots.clear()

    # ------------------------------------------------------------------------- fetches

    def _get_peer(self, peer_id: str) -> _Peer:
        peer = self._peers.get(peer_id)
        if peer is None:
            if len(self._peers) >= self._peer_sweep_at:
                self._forget_idle_peers()
            peer = self._peers[peer_id] = _Peer(peer_id)
        return peer

    def _forget_idle_peers(self) -> None:
        """SPEC.md section 16: per-peer state is released once a peer holds nothing, so the table
        does not grow with every sender ever heard from. Drops peers with no fetch, grant, pending
        ACK, connection, timer or refusal (a refusal is kept: forgetting it would allow a
        ReadRequest [P8]). Runs when the table doubles past its size after the last sweep."""
        for pid, p in list(self._peers.items()):
            if (not p.fetches and not p.grants and not p.ack_waiters and not p.running_ungranted and not p.connected_epoch
                    and (p.timer is None or not p.timer.live) and not p.rejected_epoch):
                del self._peers[pid]
        self._peer_sweep_at = max(MIN_PEER_SWEEP, 2 * len(self._peers))

    def _create_fetch(self, desc: ValidDescriptor, meta: bytes | None, now: float) -> _Fetch:
        peer = self._get_peer(desc.producer_id)
        key = {"contentHash": desc.content_hash, "fingerprint": desc.fingerprint.to_msg()}
        f = _Fetch(desc.key_id, desc, key, peer, desc.epoch, meta)
        self._fetches[desc.key_id] = f
        if not peer.fetches and not peer.ack_waiters:
            if peer.quiet_since is not None and now - peer.quiet_since >= self.config.idle_peer_ms:
                peer.hello_epoch = 0  # [P8] idle long enough: greet it again, connection or not
                peer.heard_hello_epoch = 0
            peer.quiet_since = None
            self._start_business(peer, now)
        peer.fetches[f] = None
        if meta is not None:
            self._note_metadata(peer, desc.epoch, meta, from_hello=False)
        self._send_attempt(f, now)
        return f

    @staticmethod
    def _note_metadata(peer: _Peer, epoch: int, meta: bytes, from_hello: bool) -> None:
        """Remember a producer's transport metadata for an epoch (a Hello's wins)."""
        if epoch < peer.known_epoch:
            return
        if not from_hello and epoch not in peer.announced:
            # SPEC 4: any announcement of an epoch that carried metadata serves that epoch [P8]
            peer.announced[epoch] = meta
            if len(peer.announced) > MAX_ANNOUNCED_EPOCHS:
                del peer.announced[min(peer.announced)]
        if peer.metadata is None or epoch > peer.metadata_epoch or (from_hello and epoch == peer.metadata_epoch):
            peer.metadata = meta
            peer.metadata_epoch = epoch

    def _connect_for(self, f: _Fetch) -> None:
        """Load the metadata known for the fetch's epoch (connect-peer), once per producer epoch and never
        back to an older one, before anything is sent to it or read from it (SPEC.md 4.1)."""
        peer = f.peer
        if peer.connected_epoch < f.epoch:
            if peer.metadata is not None and peer.metadata_epoch == f.epoch:
                meta = peer.metadata
            else:
                meta = f.announced_metadata if f.announced_metadata is not None else peer.announced.get(f.epoch)
            if meta is not None:
                peer.connected_epoch = f.epoch  # connect once per producer epoch
                self._out.append(ConnectPeer(peer.id, f.epoch, meta))

    def _send_attempt(self, f: _Fetch, now: float) -> None:
        """Send one ReadRequest, after connect-peer and Hello as needed (SPEC.md 4.1)."""
        peer = f.peer
        # [C9][P3] an earlier read of this item from this producer epoch may still run (abandoned, or
        # let go when the producer was declared gone, which it may not be): a ReadRequest now would
        # replace its grant (release its pin) at the producer, and the item could end up unpinned
        # under that READ (SPEC 4.6). Wait, the waiters' budgets running, until it settles or, at the
        # latest, its deadline [C8].
        running = next((r for r in (*peer.ack_waiters, *peer.running_ungranted.values())
                        if r.key_id == f.key_id and r.epoch == f.epoch and r.fetch is not f and now < r.deadline), None)
        if running is not None:
            f.state = BLOCKED  # not IDLE: only a fetch still held back is woken when that read ends [C4]
            running.blocked = f
            self._timers.cancel(f.timer)
            f.timer = self._timers.push(running.deadline, "fetch", f)
            return
        self._connect_for(f)
        if peer.hello_epoch < f.epoch:  # never back to an older epoch (two epochs' announcements would alternate)
            peer.hello_epoch = f.epoch  # a Hello before the first ReadRequest to each epoch
            peer.greeted_epoch = max(peer.greeted_epoch, f.epoch)
            peer.awaiting_hello = False
            self._send(peer.id, {"hello": {
                "role": Role.CONSUMER,
                "capabilities": [],
                "fingerprint": self.fingerprint.to_msg(),
                "transportMetadata": self._transport_metadata,
                "heartbeatIntervalMs": self.config.heartbeat_interval_ms,
            }})
        self._ensure_peer_timer(peer, now)
        self._next_attempt_id += 1  # [C4] strictly increasing attempt ids in this epoch
        attempt_id = self._next_attempt_id
        f.attempt_id = attempt_id
        f.attempts += 1
        self._attempts[attempt_id] = f
        if f.attempts > 1:
            # [C4] every retry counted by its reason and logged with the attempt number and the reason
            # set by every path that ends an attempt and goes on: _retry_fetch, _move_to_epoch, and a grant
            # released unread because every waiter's budget was over (a request joined the parked fetch since)
            if f.grant_came_late:
                f.grant_came_late = False
                f.retry_reason = Reason.BUDGET_EXHAUSTED
            reason = Reason.name(f.retry_reason if f.retry_reason is not None else Reason.INTERNAL)
            self.metrics[f'ectp_consumer_retries_total{{reason="{reason}"}}'] += 1
            # flow control the producer asked for (OVERLOADED, NOT_READY) can be hundreds a second: debug
            level = logging.DEBUG if f.retry_reason in (Reason.OVERLOADED, Reason.NOT_READY) else logging.INFO
            log.log(level, "retrying remote read: item=%s producer=%s attempt=%d reason=%s", f.key_id, peer.id, f.attempts, reason)
        self._send(peer.id, {"readRequest": {
            "attemptId": attempt_id,
            "key": f.key,
            "expectedEpoch": f.epoch,
            "expectedSizeBytes": f.desc.size_bytes,
        }})
        f.state = REQUESTING
        self._timers.cancel(f.timer)
        f.timer = self._timers.push(now + self.config.grant_wait_ms, "fetch", f)  # [C4] grant wait

    def _retry_fetch(self, f: _Fetch, reason: int, retry_after_ms: float, now: float) -> None:
        """[C4] Retryable outcome: back off and try again, only inside some waiter's budget."""
        if f.state == REQUESTING:
            self._attempts.pop(f.attempt_id, None)
        f.state = IDLE
        f.retries += 1
        f.retry_reason = reason
        f.grant_came_late = False
        delay = backoff_delay(f.retries, self.config.backoff_initial_ms, self.config.backoff_max_ms, self._random)
        if retry_after_ms > delay:
            delay = retry_after_ms  # [C4] a retry hint lengthens the backoff, never shortens it
        self._timers.cancel(f.timer)
        f.timer = None
        f.retry_at = now + delay
        log.debug("remote read will be retried: item=%s reason=%s delay=%.1f", f.key_id, Reason.name(reason), delay)
        # [C4] retry only inside the budget; otherwise the budget timers resolve the waiters [C3].
        if any(w.budget_at > now + delay for w in f.waiters):
            f.timer = self._timers.push(now + delay, "fetch", f)

    def _terminate_fetch(self, f: _Fetch, reason: int, now: float, refused_epoch: float = 0, detail: str = "") -> None:
        """[C5] Terminal outcome for every waiter of a fetch; ``detail`` (what the read found) goes into
        their warnings. A fetch whose producer announced a greater epoch during its read goes on there
        instead [C1][P8], unless a handshake refusal ends it and that epoch is not greater than
        ``refused_epoch``, the greatest the refusal covers."""
        if f.disposed:
            return
        if (f.successor is not None and f.successor[0].epoch > refused_epoch
                and self._resume_at_successor(f, reason, now)):
            return
        read = f.read
        self._dispose_fetch(f)
        if read is not None and read.fetch is f:
            self._orphan_read(read, Completion.FAILED, now)
        attempts = f.attempts
        failed: dict[_Req, list[ItemFailure]] = self._together if self._together is not None else {}
        waiters = list(f.waiters)
        f.waiters.clear()
        for w in waiters:
            w.fetch = None
            self._timers.cancel(w.budget_timer)
            w.budget_timer = None
            # [C3] a waiter whose budget ran out no longer waits (SPEC 4.4), even before its timer ran:
            # the fetch's outcome, handled at or after its deadline, is not its outcome
            ended = Reason.BUDGET_EXHAUSTED if w.budget_at is not None and now >= w.budget_at else reason
            self._end_waiter(w, f, ended, attempts, failed, detail)
        if self._together is None:
            for req, items in failed.items():
                self._fail_request(req, items, now)

    def _end_together(self, now: float, end) -> None:
        """[C6] Run ``end``, which ends several fetches at once (a handshake refusal, a producer
        gone or restarted), so that a request losing items to more than one of them is reported
        once with every one of them, not only the item of the fetch ended first."""
        if self._together is not None:
            end()  # inside another such event: its caller reports them all
            return
        self._together = {}
        try:
            end()
        finally:
            batch, self._together = self._together, None
        for req, items in batch.items():
            self._fail_request(req, items, now)

    def _end_waiter(self, w: _Slot, f: _Fetch, reason: int, attempts: int, failed: dict, detail: str = "") -> None:
        """[C5] The remote path of one waiter (out of its fetch ``f``) ended: local encode with model
        input, else its failure joins ``failed`` (one _fail_request per request afterwards). Its
        warning names the item's key and producer [C5] and ``detail`` (what the read found), and for a
        budget what ``f`` waited for [C3] instead."""
        source = fetch_source(f, reason)
        if detail and reason != Reason.BUDGET_EXHAUSTED:
            source += f" detail={detail}"
        if w.has_model_input:
            # [C5] local encode, and never another remote attempt for this (request, item).
            w.decision = ItemDecision(w.item_id, LOCAL_ENCODE, reason)
            self.metrics[f'ectp_consumer_local_encodes_total{{reason="{Reason.name(reason)}"}}'] += 1
            log.warning("item falls back to local encode: request=%s item=%s reason=%s attempts=%d%s",
                        w.req.id, w.item_id, Reason.name(reason), attempts, source)
        else:
            failed.setdefault(w.req, []).append(ItemFailure(w.item_id, reason, attempts, source))

    def _abandon_fetch(self, f: _Fetch, now: float) -> None:
        """[C7] Nobody waits for a fetch any more: forget its attempt, cancel its read."""
        read = f.read
        self._dispose_fetch(f)
        if read is not None and read.fetch is f:
            self._orphan_read(read, Completion.ABANDONED, now)

    def _dispose_fetch(self, f: _Fetch) -> None:
        f.disposed = True
        if self._fetches.get(f.key_id) is f:
            del self._fetches[f.key_id]
        f.peer.fetches.pop(f, None)
        if f.state == REQUESTING:
            self._attempts.pop(f.attempt_id, None)  # a late grant for it is released at once [C7]
        self._timers.cancel(f.timer)
        f.timer = None

    # ------------------------------------------------------------------------- reads

    def _orphan_read(self, r: _Read, ack_status: int, now: float) -> None:
        """A read loses its fetch while unsettled: cancel it and keep its destination until it
        settles [I5][C8]. A live grant is released with ack_status (ABANDONED: nobody waits any
        more; FAILED: the fetch ended terminally) only once the read settles, or is quarantined
        at its deadline: never under a READ still running (SPEC 4.6). A grant already void (peer
        gone, epoch changed) gets no ReadComplete: the read is only quarantined."""
        r.fetch = None
        if not r.cancelled:
            r.cancelled = True
            self._out.append(CancelRead(r.read_id))
        if r.grant_held:
            # [C7][C8] SPEC 4.6: no ReadComplete while the read may still be reading the producer's memory.
            r.ack_on_settle = ack_status
            r.peer.ack_waiters[r] = None
            return  # keeps its deadline timer: unsettled at the deadline, it is quarantined [C8]
        self._drop_grant(r)
        self._quarantine(r, now)

    def _quarantine(self, r: _Read, now: float) -> None:
        """[C8] Hold the destination until the read settles or the quarantine cap passes [I5]."""
        if r.quarantined:
            return
        r.quarantined = True
        self._quarantined += 1
        self.metrics["ectp_consumer_reads_quarantined_total"] += 1
        self._timers.cancel(r.timer)
        # The cap runs from the read's own deadline at the earliest: a read orphaned early
        # (peer gone, epoch changed) may legitimately still be writing until then [I5].
        cap = self.config.quarantine_cap_ms
        # With no cap (math.inf) the destination is held until the read settles, however long [C8].
        r.timer = None if cap == math.inf else self._timers.push(max(now, r.deadline) + cap, "read", r)

    def _ack_read(self, r: _Read, status: int, detail: str) -> None:
        """Send the grant's one ReadComplete [C7], if it is still held."""
        if not r.grant_held:
            return
        self._send(r.peer.id, {"readComplete": {"grantId": r.grant_id, "status": status, "detail": detail}})
        self._drop_grant(r)

    def _drop_grant(self, r: _Read) -> None:
        if r.ack_on_settle:
            r.ack_on_settle = 0
            r.peer.ack_waiters.pop(r, None)
        if not r.grant_held:
            return
        r.grant_held = False
        self._grants_held -= 1
        if r.peer.grants.get(r.grant_id) is r:
            del r.peer.grants[r.grant_id]
        if self._reads.get(r.read_id) is r:
            r.peer.running_ungranted[r.grant_id] = r  # let go under a read still running

    def _read_ended(self, r: _Read, now: float) -> None:
        """r left the reads table (settled, or released at its quarantine cap): a fetch waiting for it asks now."""
        f, r.blocked = r.blocked, None
        # [C4] only while still held back by a read: a fetch that has asked since (at that read's deadline)
        # and now waits for its backoff, or for budgets that end before its retry time, keeps that wait
        if f is not None and not f.disposed and f.state == BLOCKED:
            self._timers.cancel(f.timer)
            f.timer = self._timers.push(now, "fetch", f)
        if r.peer.running_ungranted.get(r.grant_id) is r:
            del r.peer.running_ungranted[r.grant_id]

    def _release_dest(self, dest: Any) -> None:
        self._destinations -= 1
        try:
            with self._pool_calls:  # [I1] the pool is engine code: a call back into this core is refused
                self._pool.release(dest)
        except Exception:  # noqa: BLE001
            log.exception("DestinationPool.release raised")

    def _on_read_result(self, result: ReadResult, now: float) -> None:
        read_id = getattr(result, "read_id", None)
        # [I1] Read before anything changes: a result object missing a field is taken as one without it
        # (no status: not a settled read, below), never an exception that leaves the read half released.
        result = ReadResult(
            read_id,
            getattr(result, "status", None),
            getattr(result, "bytes_read", 0),
            getattr(result, "peer_gone", False),
            getattr(result, "error", None),
        )
        r = self._reads.get(read_id) if is_int(read_id) else None
        if r is None:
            self._ignore("unknown_read")  # [C10] unknown, or already released at its quarantine cap
            return
        if result.status not in SETTLED_STATUSES:
            # [C8][I5] Not a status that says the read settled: the transport may still write into the
            # destination, so nothing is freed. The read stays in flight, to end at its deadline (and be
            # quarantined) or when a result with a known status comes.
            self._ignore("malformed_read_result")
            log.error("transport reported a read result whose status is not done, failed or cancelled; "
                      "the read stays in flight (read %s, status %.40r)", read_id, result.status)
            return
        del self._reads[read_id]
        self._read_ended(r, now)
        self._timers.cancel(r.timer)
        r.timer = None
        if r.quarantined:
            # [C8] settled: the transport writes no more, so the destination may be freed [I5].
            self._quarantined -= 1
            self._drop_grant(r)
            self._release_dest(r.dest)
            return
        f = r.fetch
        # [P8] a read the transport failed because the producer (its current epoch) is gone: the peer
        # is gone as if reported unreachable: no ReadComplete goes to it, and its other fetches end now
        if result.status != "done" and result.peer_gone is True and r.grant_held and r.epoch == r.peer.known_epoch:
            self._drop_grant(r)
            self._release_dest(r.dest)

            def end() -> None:
                if f is not None:
                    f.read = None
                    # [C11] handled at or after its deadline, the outcome names the deadline, whatever the result says
                    late = (Reason.LEASE_EXPIRED if now >= r.lease_deadline else Reason.TRANSFER_TIMEOUT) if now >= r.deadline else None
                    error = peer_detail(result.error)
                    # [C5] after a grant: terminal; its warning says what the transport said
                    self._terminate_fetch(f, late or Reason.PEER_UNREACHABLE, now,
                                          detail=f"the read failed with the producer gone{': ' + error if error else ''}")
                self._peer_gone(r.peer, "unreachable", now, busy=True)  # [P8] the read was business with it

            self._end_together(now, end)
            return
        if f is None:
            # [C7] abandoned (or its fetch ended) during the read: ACK now it settled, and free the destination.
            status = r.ack_on_settle or Completion.ABANDONED
            self._ack_read(r, status, "fetch ended during the read" if status == Completion.FAILED else "abandoned")
            self._release_dest(r.dest)
            return
        f.read = None
        reason = self._verify(r, result, now)
        detail = self._verify_detail  # [C5] what the read found ("" when it was handled past its deadline)
        if reason is None and not any(own is None or own == self._verified_crc for own in f.waiters.values()):
            reason = Reason.CHECKSUM_MISMATCH  # [C11] not one waiter's announcement agrees with the bytes: nothing is loaded
            first = next(iter(f.waiters.values()), None)
            detail = "" if first is None else checksum_detail(self._verified_crc, first)  # [C5] the first waiter's
        if reason is not None:
            self._release_dest(r.dest)
            self._ack_read(r, Completion.FAILED, Reason.name(reason))
            self._terminate_fetch(f, reason, now, detail=detail)
            return
        # [C11] verified: mark loaded, ACK OK, every waiter becomes ready.
        self._ack_read(r, Completion.OK, "")
        self._dispose_fetch(f)
        loaded = _Loaded(f.key_id, r.dest, size_bytes=r.size_bytes, crc=self._verified_crc)
        self._loaded[f.key_id] = loaded
        self.metrics["ectp_consumer_items_loaded_total"] += 1
        failed: dict[_Req, list[ItemFailure]] = {}
        for w, own in f.waiters.items():
            w.fetch = None
            self._timers.cancel(w.budget_timer)
            w.budget_timer = None
            # [C3] bytes loaded after a waiter's budget ran out do not revive it (a result handled
            # before the poll at `now` comes before the budget timer due then)
            if now >= w.budget_at:
                self._end_waiter(w, f, Reason.BUDGET_EXHAUSTED, f.attempts, failed)
            # [C11] each waiter is ready only if the bytes match its own announcement's checksum.
            elif own is not None and own != loaded.crc:
                # [C5] its warning says what the read found
                self._end_waiter(w, f, Reason.CHECKSUM_MISMATCH, f.attempts, failed, checksum_detail(loaded.crc, own))
            else:
                self._hold(w, loaded)
        f.waiters.clear()
        if loaded.holders == 0:
            del self._loaded[loaded.key_id]
            self._release_dest(loaded.dest)
        for req, items in failed.items():
            self._fail_request(req, items, now)

    def _view(self, dest: Any, size: int) -> Any:
        """The first ``size`` bytes of a destination, or None when the pool cannot show them."""
        try:
            with self._pool_calls:  # [I1] the pool is engine code: a call back into this core is refused
                view = self._pool.view(dest)
        except Exception:  # noqa: BLE001
            return None
        # [C11][I1] something other than bytes is no view: its checksum cannot be verified (never a raise half-way)
        if not isinstance(view, (bytes, bytearray, memoryview)) or len(view) < size:
            return None
        return view[:size]

    def _loaded_crc(self, loaded: _Loaded) -> int | None:
        """[C11] The CRC-32C of a loaded item's bytes, computed once (None: they cannot be viewed)."""
        if loaded.crc is None:
            view = self._view(loaded.dest, loaded.size_bytes)
            if view is not None:
                loaded.crc = crc32c(view)
        return loaded.crc

    def _verify(self, r: _Read, result: ReadResult, now: float) -> int | None:
        """[C11][I6] Check a settled read: status, size, timeliness, checksum. A reason, or None:
        only bytes of the announced size whose every checksum matches are loaded. Why it refused them
        is left in ``_verify_detail`` for the failure's warning [C5]."""
        self._verified_crc = None
        self._verify_detail = ""
        if now >= r.deadline:
            # [C11] handled after its deadline, whatever its result: never loaded (the memory may have
            # been reused), and the outcome names the deadline.
            return Reason.LEASE_EXPIRED if now >= r.lease_deadline else Reason.TRANSFER_TIMEOUT
        if result.status != "done":
            error = peer_detail(result.error)
            self._verify_detail = f"read {result.status[:20]}{': ' + error if error else ''}"  # [C5] what the transport said
            return Reason.PEER_UNREACHABLE if result.peer_gone else Reason.TRANSFER_FAILED
        if result.bytes_read != r.size_bytes:
            count = result.bytes_read if is_int(result.bytes_read) else "no count of"
            self._verify_detail = f"{count} bytes read, {r.size_bytes} expected"  # [C5] both sizes
            return Reason.SIZE_MISMATCH  # [C11] size always
        announced = r.fetch is not None and any(own is not None for own in r.fetch.waiters.values())
        if r.checksums or announced:
            view = self._view(r.dest, r.size_bytes)
            # [C11] bytes that cannot be viewed cannot be verified: a checksum then mismatches (the
            # grant's for every waiter here; an announcement's for its own waiters, in _on_read_result).
            if view is None:
                if not r.checksums:
                    return None
                self._verify_detail = checksum_detail(None, r.checksums[0])
                return Reason.CHECKSUM_MISMATCH
            crc = crc32c(view)
            self._verified_crc = crc  # what the loaded copy keeps, for each waiter's own checksum
            for expected in r.checksums:
                if crc != expected:
                    self._verify_detail = checksum_detail(crc, expected)
                    return Reason.CHECKSUM_MISMATCH  # [C11] the grant's descriptor names the bytes for every waiter
        return None

    # ------------------------------------------------------------------------- envelopes

    def _on_envelope(self, sender: str, env: Any, now: float) -> None:
        if not isinstance(env, dict):
            self._ignore("malformed")
            return
        version = env.get("version")
        if not isinstance(version, dict) or version.get("major", 0) != SPEC_MAJOR:
            # [V1] another major: the body is not acted on, except that a VERSION refusal of
            # our Hello (HandshakeReject fields are frozen) still ends our reads to that peer.
            if isinstance(env.get("handshakeReject"), dict) and env.get("senderId") == sender:
                peer = self._peers.get(sender)
                rejecting = env.get("senderEpoch")  # frozen: names the rejecting epoch
                if not is_positive_id(rejecting):
                    rejecting = peer.known_epoch if peer is not None else 0
                # [P8][C10] a refusal from an older epoch than the one known is stale, and one that
                # answers no Hello of ours (no fetch either) is unsolicited.
                if peer is not None and rejecting >= peer.known_epoch and self._solicited(peer):
                    detail = peer_detail(env["handshakeReject"].get("detail"))  # [C5] for the warnings of what it ends
                    self._on_handshake_reject(peer, Reason.VERSION, rejecting, now, detail)
            self._ignore("version")
            return
        sender_id = env.get("senderId")
        epoch = env.get("senderEpoch")
        if not isinstance(sender_id, str) or not sender_id or not is_positive_id(epoch):
            self._ignore("malformed")  # SPEC.md 4: empty sender or epoch 0
            return
        if sender_id != sender:
            self._ignore("sender_mismatch")  # SPEC.md 4: the carrier vouches for the sender
            return
        peer = self._get_peer(sender)
        # [P8] older epochs are stale; a newer one means the producer restarted.
        if epoch < peer.known_epoch:
            self._ignore("stale_epoch")
            return
        if epoch > peer.known_epoch:
            self._on_new_epoch(peer, epoch, now)
        peer.last_heard = now  # any valid envelope is a sign of life [P8]
        peer.gone_unheard = False  # [P8] heard from: a later declaration is a new outage
        if env.get("readGrant") is not None:
            self._on_grant(peer, epoch, env["readGrant"], now)
        elif env.get("readReject") is not None:
            self._on_reject(peer, env["readReject"], now)
        elif env.get("heartbeat") is not None:
            return  # liveness only [P8]
        elif env.get("hello") is not None:
            self._on_hello(peer, epoch, env["hello"])
        elif env.get("handshakeReject") is not None:
            if not self._solicited(peer):
                self._ignore("unexpected")
                return
            hr = env["handshakeReject"]
            reason = Reason.known(hr.get("reason") if isinstance(hr, dict) else None)
            # SPEC 4.2: a refusal is VERSION, INCOMPATIBLE or INTERNAL; any other reason reads as INTERNAL (terminal).
            if reason not in (Reason.VERSION, Reason.INCOMPATIBLE):
                reason = Reason.INTERNAL
            # [C5] its detail (what differed, say) goes into the warnings of the items it ends
            self._on_handshake_reject(peer, reason, epoch, now, peer_detail(hr.get("detail") if isinstance(hr, dict) else None))
        else:
            self._ignore("unexpected")  # [C10] a body a consumer never receives, or none (newer minor)

    def _on_new_epoch(self, peer: _Peer, epoch: int, now: float) -> None:
        """[P8] A producer's newer epoch: drop what belonged to the old one."""
        peer.known_epoch = epoch
        peer.interval_ms = 0  # until the new epoch's Hello
        if peer.connected_epoch and peer.connected_epoch < epoch:
            peer.connected_epoch = 0
            self._out.append(DisconnectPeer(peer.id))
        if peer.hello_epoch < epoch:
            peer.hello_epoch = 0
            peer.awaiting_hello = True
        if peer.greeted_epoch < epoch:
            peer.greeted_epoch = 0  # SPEC 4.2: greeted only an older epoch
        if peer.metadata_epoch < epoch:
            peer.metadata = None
        for e in [e for e in peer.announced if e < epoch]:
            del peer.announced[e]
        # (a refusal of an older epoch stays recorded: it refuses nothing the greater epoch did not, and it keeps
        # the record through the idle-peer sweep, so the refused epoch is never asked again, SPEC 4.2)
        for r in list(peer.grants.values()):
            if r.epoch < epoch:
                self._drop_grant(r)  # grants of the old epoch died with it: no ReadComplete
        for r in list(peer.ack_waiters):
            if r.epoch < epoch:
                self._drop_grant(r)

        def end() -> None:
            for f in list(peer.fetches):
                if not f.disposed and f.epoch < epoch:
                    self._terminate_fetch(f, Reason.EPOCH_CHANGED, now,  # [P8][C5] terminal, naming both epochs
                                          detail=f"the producer restarted as epoch {epoch}; the item was announced in epoch {f.epoch}")

        self._end_together(now, end)

    def _on_hello(self, peer: _Peer, epoch: int, hello: Any) -> None:
        if not isinstance(hello, dict) or hello.get("role") not in (Role.PRODUCER, Role.BOTH):
            self._ignore("unexpected")
            return
        # SPEC 4.1: a Hello repeating the epoch whose Hello was applied is a duplicate: it changes no state [C10].
        if peer.heard_hello_epoch == epoch:
            self._ignore("duplicate_hello")
            return
        peer.heard_hello_epoch = epoch
        # [P8] 0: 2000 ms; counted as at most 60 s
        peer.interval_ms = peer_heartbeat_interval_ms(hello.get("heartbeatIntervalMs"), self.config.heartbeat_interval_ms)
        meta = hello.get("transportMetadata")
        if isinstance(meta, (bytes, bytearray)) and meta:
            meta = bytes(meta)
            self._note_metadata(peer, epoch, meta, from_hello=True)
            if peer.connected_epoch < epoch and peer.fetches:  # never back to an older epoch
                peer.connected_epoch = epoch  # load the metadata once per producer epoch
                self._out.append(ConnectPeer(peer.id, epoch, meta))

    @staticmethod
    def _solicited(peer: _Peer) -> bool:
        """[C10] A HandshakeReject answers our Hello: from a peer neither greeted (since its last refusal)
        nor fetched from it is unsolicited (a refusal kept would keep a record per such sender for good).
        SPEC 4.2: a greeting counts even after the peer was let go or declared gone."""
        return peer.greeted_epoch != 0 or bool(peer.fetches)

    def _on_handshake_reject(self, peer: _Peer, reason: int, epoch: int, now: float, detail: str) -> None:
        """SPEC.md 4.2: no reads to the rejecting peer in `epoch` (0: not known, read as every epoch);
        the fetches asking that epoch end [C5], with ``detail`` (what the producer said) in their warnings.
        A greater epoch refused nothing: a fetch already moved there by an announcement [C1] goes on (and
        that epoch's Hello stands), and one whose read a greater epoch's announcement came during moves there."""
        refused = epoch if epoch > 0 else math.inf
        # [V1][P8] not known: every epoch we asked of it is refused (those our fetches ask and the one our Hello
        # greeted, which a refusal arriving after the fetches ended answers); the greatest is recorded
        recorded = max([peer.greeted_epoch, *(f.epoch for f in peer.fetches)]) if epoch == 0 else epoch
        if recorded >= peer.rejected_epoch:  # epochs up to the greatest refused stay refused
            peer.rejected_epoch = recorded  # at least 1: one naming no epoch answers ours (_solicited)
            peer.rejected_reason = reason
        if peer.hello_epoch <= refused:
            peer.hello_epoch = 0
        if peer.greeted_epoch <= refused:
            peer.greeted_epoch = 0  # its greeting refused: a second refusal answers none

        def end() -> None:
            for f in list(peer.fetches):
                if not f.disposed and f.epoch <= refused:
                    self._terminate_fetch(f, reason, now, refused_epoch=refused, detail=detail)

        self._end_together(now, end)

    def _on_grant(self, peer: _Peer, sender_epoch: int, g: Any, now: float) -> None:
        if not isinstance(g, dict):
            self._ignore("malformed")
            return
        grant_id = g.get("grantId", 0)
        attempt_id = g.get("attemptId", 0)
        if not is_positive_id(grant_id):
            self._ignore("malformed")
            return
        running = peer.running_ungranted.get(grant_id)
        if grant_id in peer.grants or (running is not None and running.epoch == sender_epoch):
            # [C10] the same grant twice: never ACK it again (that would release the live one, or
            # unpin the item under a read still running).
            self._ignore("duplicate_grant")
            return
        f = self._attempts.get(attempt_id) if is_int(attempt_id) else None
        if f is None or f.peer is not peer or f.state != REQUESTING or f.attempt_id != attempt_id:
            # [C7][C10] nobody wants this grant (finished, superseded, timed out, loaded): release it now.
            self._send(peer.id, {"readComplete": {
                "grantId": grant_id, "status": Completion.ABANDONED, "detail": "no request wants this grant"}})
            self._ignore("unwanted_grant")
            return
        del self._attempts[attempt_id]
        self._timers.cancel(f.timer)
        f.timer = None
        # [C3] A waiter whose budget ended as the grant arrived was waiting for this grant, and its warning says
        # so (waiting_for=grant, not retry): the fetch stays REQUESTING until the grant is read or refused, or is
        # parked with grant_came_late below.
        if all(now >= w.budget_at for w in f.waiters):
            f.state = IDLE
            f.grant_came_late = True
            # [C3][C7] every request waiting for it is past its budget (each resolved at the next poll):
            # nobody will use the bytes, so the grant is released unread. A request joining before then resumes the fetch.
            self._send(peer.id, {"readComplete": {
                "grantId": grant_id, "status": Completion.ABANDONED, "detail": "every waiting request is past its budget"}})
            self._ignore("unwanted_grant")  # [C10] released and counted, as every grant nobody waits for
            return

        def ack_failed(reason: int, detail: str) -> None:
            self._send(peer.id, {"readComplete": {"grantId": grant_id, "status": Completion.FAILED, "detail": Reason.name(reason)}})
            self._terminate_fetch(f, reason, now, detail=detail)  # [C5] its warning says what the grant named

        # SPEC.md 4.4 step 2: the grant's descriptor is validated like an announcement [C2].
        item, why = validate_descriptor(g.get("item"), self.config.max_item_bytes, self.fingerprint)
        if item is None:
            raw = g.get("item")
            # absent (the size, or the whole descriptor): proto3's 0, which differs from any announced size
            raw_size = raw.get("sizeBytes", 0) if isinstance(raw, dict) else 0 if raw is None else None
            if is_int(raw_size) and raw_size != f.desc.size_bytes:
                ack_failed(Reason.SIZE_MISMATCH, f"the grant names {raw_size} bytes, the announcement {f.desc.size_bytes}")
            else:
                ack_failed(Reason.INVALID_ANNOUNCEMENT, f"the grant's descriptor is invalid: {why}")
            return
        if item.key_id != f.key_id:
            ack_failed(Reason.INVALID_ANNOUNCEMENT, "the grant's descriptor names another item key than the one requested")
            return
        # SPEC.md 4.4 step 2, in its order: the descriptor's epoch, its size, then the envelope's sender epoch.
        if item.epoch != f.epoch:
            ack_failed(Reason.EPOCH_CHANGED, f"the grant's descriptor names epoch {item.epoch}, the announcement {f.epoch}")
            return
        if item.size_bytes != f.desc.size_bytes:
            # [C11] grant size differs from the announcement
            ack_failed(Reason.SIZE_MISMATCH, f"the grant names {item.size_bytes} bytes, the announcement {f.desc.size_bytes}")
            return
        if sender_epoch != f.epoch:
            ack_failed(Reason.EPOCH_CHANGED, f"the grant came from epoch {sender_epoch}, the announcement named {f.epoch}")
            return
        # [C11] conservative lease deadline: receipt + min(grant lease, own lease) - margin.
        granted = g.get("leaseMs", 0)
        granted = granted if is_int(granted) and granted > 0 else 30_000
        lease = min(granted, self.config.lease_ms)
        lease_deadline = now + lease - self.config.lease_safety_margin_ms
        if lease_deadline <= now:
            # [C11] a lease that ends before it starts is not read
            ack_failed(Reason.LEASE_EXPIRED, f"the grant's lease of {granted} ms (at most lease_ms, {self.config.lease_ms} ms) "
                                             f"is not longer than lease_safety_margin_ms ({self.config.lease_safety_margin_ms} ms)")
            return
        deadline = min(now + self.config.transfer_timeout_ms, lease_deadline)
        try:
            with self._pool_calls:  # [I1] the pool is engine code: a call back into this core is refused
                dest = self._pool.allocate(f.key_id, item.size_bytes)
        except Exception:  # noqa: BLE001
            log.exception("DestinationPool.allocate raised; treated as full")
            dest = None
        if dest is None:
            # SPEC.md 4.4 step 3: no local memory now: give the grant back, retry as OVERLOADED [C4].
            self._send(peer.id, {"readComplete": {"grantId": grant_id, "status": Completion.ABANDONED, "detail": "destination pool full"}})
            self._retry_fetch(f, Reason.OVERLOADED, 0, now)
            return
        self._destinations += 1
        length = destination_length(dest)
        if not is_int(length) or length != item.size_bytes:
            # [C5][I6] SPEC.md 4.4 step 3: the read lands in a destination of size_bytes. The pool broke
            # allocate's contract: a read of another length would take other bytes than the item's. Terminal.
            log.error("DestinationPool.allocate returned a destination whose length is not the item's size; "
                      "return exactly size_bytes (key_id=%s size_bytes=%d length=%.40r)", f.key_id, item.size_bytes, length)
            self._release_dest(dest)
            ack_failed(Reason.INTERNAL, f"the destination pool returned {length!r:.40} bytes for an item of {item.size_bytes}")
            return
        # [C11] the grant's checksum, checked for every waiter; announcements' are checked per waiter
        checksums = [] if item.crc32c is None else [item.crc32c]
        self._next_read_id += 1
        r = _Read(self._next_read_id, peer, grant_id, f.epoch, f.key_id, item.size_bytes, dest,
                  deadline, lease_deadline, now, tuple(checksums), f)
        self._grants_held += 1
        peer.grants[grant_id] = r
        self._reads[r.read_id] = r
        f.state = READING
        f.read = r
        r.timer = self._timers.push(deadline, "read", r)  # [C8] transfer deadline
        self._connect_for(f)  # metadata learnt since the ReadRequest is loaded before the read
        source = item.location if item.location else f.desc.location  # SPEC.md 4.4: location fallback
        self._out.append(StartRead(r.read_id, peer.id, source, dest))

    def _on_reject(self, peer: _Peer, rj: Any, now: float) -> None:
        if not isinstance(rj, dict):
            self._ignore("malformed")
            return
        attempt_id = rj.get("attemptId", 0)
        f = self._attempts.get(attempt_id) if is_int(attempt_id) else None
        if f is None or f.peer is not peer or f.state != REQUESTING or f.attempt_id != attempt_id:
            self._ignore("unwanted_reject")  # [C10] second reply, reply after grant, unknown attempt
            return
        raw_reason = rj.get("reason", 0)
        known = Reason.known(raw_reason)
        # Known reasons follow the SPEC.md table; unknown ones of a newer minor version (above the
        # known range) the reject's retryable flag [V1]. UNSPECIFIED (0) and negative values are
        # never retryable: INTERNAL, terminal (SPEC.md section 6).
        newer = is_int(raw_reason) and raw_reason > 0 and known is None
        retryable = known in Reason.RETRYABLE_REJECTS if known is not None else newer and rj.get("retryable") is True
        reason = known if known is not None else Reason.INTERNAL
        if known in (Reason.INVALID_ANNOUNCEMENT, Reason.BUDGET_EXHAUSTED, Reason.UNAVAILABLE):
            reason = Reason.INTERNAL  # request-outcome-only reasons in a reject are INTERNAL (SPEC.md 11)
        if retryable:
            hint = rj.get("retryAfterMs", 0)
            self._retry_fetch(f, reason, hint if is_int(hint) and hint > 0 else 0, now)  # [C4]
        else:
            self._terminate_fetch(f, reason, now, detail=peer_detail(rj.get("detail")))  # [C5] with what the producer said

    # ------------------------------------------------------------------------- peers and heartbeats [P8]

    def _start_business(self, peer: _Peer, now: float) -> None:
        """[P8] Business after none: a producer with no business MAY have fallen silent (SPEC.md 4.7),
        so silence is measured from now; a timer left pending from the last stretch reads this when it fires."""
        peer.business_since = now
        peer.next_heartbeat_at = now + self.config.heartbeat_interval_ms

    def _ensure_peer_timer(self, peer: _Peer, now: float) -> None:
        if peer.timer is not None and peer.timer.live:
            if peer.idle_since is None:
                return
            self._timers.cancel(peer.timer)  # its idle timer: business again
        peer.idle_since = None
        self._start_business(peer, now)
        peer.timer = self._timers.push(min(peer.next_heartbeat_at, self._dead_at(peer)), "peer", peer)

    def _dead_at(self, peer: _Peer) -> float:
        since = max(peer.last_heard, peer.business_since)
        # [P8] judged with the larger of our interval and the one the producer's Hello announced
        return since + self.config.heartbeat_misses * max(self.config.heartbeat_interval_ms, peer.interval_ms)

    def _on_peer_timer(self, peer: _Peer, now: float) -> None:
        peer.timer = None
        if not peer.fetches and not peer.ack_waiters:
            # no business: fall silent (SPEC.md 4.7); a connection idle for idle_peer_ms is let go [P8]
            if not peer.connected_epoch:
                peer.quiet_since = now
                return
            if peer.idle_since is None:
                peer.idle_since = now
                peer.timer = self._timers.push(now + self.config.idle_peer_ms, "peer", peer)
            else:
                self._let_go(peer)
            return
        peer.idle_since = None  # business again, found by the idle timer
        if now >= self._dead_at(peer):
            self._peer_gone(peer, "silent", now)  # [P8] silent for heartbeat_misses intervals
            return
        if now >= peer.next_heartbeat_at:
            if not peer.awaiting_hello:  # [P8] a new epoch's first message is its Hello
                peer.heartbeat_seq += 1
                self._send(peer.id, {"heartbeat": {"sequence": peer.heartbeat_seq}})
            peer.next_heartbeat_at = now + self.config.heartbeat_interval_ms
        peer.timer = self._timers.push(min(peer.next_heartbeat_at, self._dead_at(peer)), "peer", peer)

    def _let_go(self, peer: _Peer) -> None:
        """[P8] A producer idle for idle_peer_ms: drop its connection; the next fetch connects and greets it again."""
        peer.idle_since = None
        if not peer.connected_epoch:
            return
        log.debug("producer %s idle; its connection is let go until the next fetch from it", peer.id)
        self._out.append(DisconnectPeer(peer.id))
        peer.connected_epoch = 0
        peer.hello_epoch = 0
        peer.heard_hello_epoch = 0

    def _peer_gone(self, peer: _Peer, why: str, now: float, busy: bool = False) -> None:
        """[P8] A producer is gone: retry pre-grant work, fail granted work, forget the peer. ``busy``: the
        caller already ended business with it (a read the transport failed with the producer gone)."""
        self._timers.cancel(peer.timer)
        peer.timer = None
        peer.idle_since = None
        had_state = peer.connected_epoch or peer.fetches or peer.ack_waiters
        peer.hello_epoch = 0  # [P8] forgotten, whatever it held: the next message to it is a new Hello
        peer.heard_hello_epoch = 0  # and the Hello answering it is applied afresh
        if not had_state and not busy:
            return
        if busy or peer.fetches or peer.ack_waiters:
            # [P8] an outage is counted and warned of once, where it ended business with the producer:
            # declared gone again with nothing heard since (each retry's new Hello unanswered) is the same
            # outage, at info
            if peer.gone_unheard:
                log.info("producer %s still unreachable (%s; nothing heard since it was declared gone)", peer.id, why)
            else:
                self.metrics[f'ectp_consumer_peers_gone_total{{cause="{why}"}}'] += 1
                log.warning("producer %s unreachable (%s)", peer.id, why)
            peer.gone_unheard = True
        else:
            log.info("idle producer %s reported unreachable; its connection is let go", peer.id)  # [P8] no business: no outage
        self._out.append(DisconnectPeer(peer.id))
        peer.connected_epoch = 0
        peer.metadata, peer.metadata_epoch = None, 0  # SPEC 4: its Hello's goes; what announcements carried stays (peer.announced)
        for r in list(peer.ack_waiters):
            self._drop_grant(r)  # no ReadComplete to a gone peer
        if why == "silent":
            gone = f"nothing heard from the producer in {self.config.heartbeat_misses} heartbeat intervals during the read"
        else:
            gone = "the transport reported the producer unreachable during the read"

        def end() -> None:
            for f in list(peer.fetches):
                if f.disposed:
                    continue
                if f.state == READING:
                    if f.read is not None:
                        self._drop_grant(f.read)
                    self._terminate_fetch(f, Reason.PEER_UNREACHABLE, now, detail=gone)  # [C5] after a grant: terminal
                elif f.state == REQUESTING:
                    self._retry_fetch(f, Reason.PEER_UNREACHABLE, 0, now)  # [C4] before a grant: retryable

        self._end_together(now, end)
        for r in list(peer.grants.values()):
            self._drop_grant(r)

    # ------------------------------------------------------------------------- timers

    def _run_timers(self, now: float) -> None:
        while True:
            e = self._timers.pop_due(now)
            if e is None:
                return
            if e.kind == "budget":
                self._on_budget_timer(e.ref, e, now)
            elif e.kind == "fetch":
                self._on_fetch_timer(e.ref, e, now)
            elif e.kind == "read":
                self._on_read_timer(e.ref, e, now)
            elif e.kind == "peer":
                self._on_peer_timer(e.ref, now)

    def _on_budget_timer(self, slot: _Slot, e: TimerEntry, now: float) -> None:
        """[C3] A (request, item) budget ran out: local encode, or the request fails, within budget + one step [I2]."""
        if slot.budget_timer is not e:
            return
        slot.budget_timer = None
        if slot.decision is not None or slot.fetch is None or slot.req.failure is not None:
            return
        if slot.has_model_input:
            self._resolve_local(slot, Reason.BUDGET_EXHAUSTED, now)
        else:
            # [C6] every item of the request whose budget ran out by now (without model input) is
            # reported, as an admission at this instant reports them, not only the one whose timer ran first
            ended = [s for s in slot.req.slots
                     if s is slot or (s.decision is None and s.fetch is not None and not s.has_model_input
                                      and s.budget_at is not None and now >= s.budget_at)]
            failures = [self._exhaust_failure(s) for s in ended]
            if self._together is None:
                self._fail_request(slot.req, failures, now)
            else:
                # inside a poll: reported with whatever else ends the request at this drive; these stop waiting now
                for s in ended:
                    self._detach(s, now)
                self._together.setdefault(slot.req, []).extend(failures)

    def _on_fetch_timer(self, f: _Fetch, e: TimerEntry, now: float) -> None:
        if f.timer is not e or f.disposed:
            return
        f.timer = None
        if f.state == REQUESTING:
            # [C4] no grant or reject in time: GRANT_TIMEOUT is retryable, not terminal.
            self.metrics["ectp_consumer_grant_timeouts_total"] += 1
            log.info("no grant within the grant wait for %s from %s (attempt %d)", f.key_id, f.peer.id, f.attempts)
            self._retry_fetch(f, Reason.GRANT_TIMEOUT, 0, now)
        elif f.state in (IDLE, BLOCKED):
            if any(w.budget_at > now for w in f.waiters):
                self._send_attempt(f, now)  # backoff over, some budget left [C4]
            else:
                f.state = IDLE  # no budget left: parked without a timer, so that a request joining it resumes it

    def _on_read_timer(self, r: _Read, e: TimerEntry, now: float) -> None:
        if r.timer is not e:
            return
        r.timer = None
        if r.quarantined:
            # [C8] quarantine cap: release the destination though the read never settled.
            self._reads.pop(r.read_id, None)
            self._read_ended(r, now)
            self._quarantined -= 1
            self._drop_grant(r)
            self._release_dest(r.dest)
            self.metrics["ectp_consumer_quarantine_cap_releases_total"] += 1
            log.warning("quarantined read %d never settled; destination released at the cap", r.read_id)
            return
        # [C8] unsettled at its deadline: cancel, quarantine, ACK, fail its waiters.
        if not r.cancelled:
            r.cancelled = True
            self._out.append(CancelRead(r.read_id))
        self._ack_read(r, r.ack_on_settle or Completion.FAILED, "transfer timeout")
        self._drop_grant(r)
        self._quarantine(r, now)
        f = r.fetch
        if f is not None:
            r.fetch = None
            f.read = None
            # [C8] TRANSFER_TIMEOUT, or LEASE_EXPIRED when the lease deadline was the earlier
            # (whenever the poll that notices it comes)
            reason = Reason.LEASE_EXPIRED if r.deadline >= r.lease_deadline else Reason.TRANSFER_TIMEOUT
            if reason == Reason.LEASE_EXPIRED:
                detail = "the read had not settled when the grant's lease (less the safety margin) ended; it is cancelled and quarantined"
            else:
                detail = (f"the read had not settled after transfer_timeout_ms ({self.config.transfer_timeout_ms} ms); "
                          "it is cancelled and quarantined")
            self._terminate_fetch(f, reason, now, detail=detail)  # [C5] which deadline ended it

    # ------------------------------------------------------------------------- plumbing

    def _send(self, peer_id: str, body: dict) -> None:
        body["version"] = spec_version()
        body["senderId"] = self.id
        body["senderEpoch"] = self.epoch
        self._out.append(Send(peer_id, body))

    def _ignore(self, reason: str) -> None:
        self._ignored += 1  # [C10] ignored and counted
        self.metrics[f'ectp_consumer_ignored_messages_total{{reason="{reason}"}}'] += 1

    def _touch(self, now: float) -> float:
        """[I1] The later of ``now`` and the latest reading when ``now`` is a finite number, else the
        last good reading (logged): a deadline computed from NaN would fire at once or never, and a
        reading earlier than the latest would undo deadlines already passed (bytes handled after
        their read's deadline loaded [C11]). Inside the core time never goes back."""
        self._last_now = checked_now(now, self._last_now, log)
        return self._last_now

    def _guard(self, where: str, fn, *args) -> None:
        try:
            fn(*args)
        except Exception:  # noqa: BLE001 - [I1] a fault of our own must not stop the engine
            log.exception("consumer %s failed", where)

"""The producer (encoder side) of ECTP as a sans-IO state machine.

It grants reads of ready items only [P1], pins once per grant and releases each grant
exactly once [P2], by its ACK, its own lease [P3], its holder's loss or restart [P8] or
shutdown [P7]; never pins on announce [P4]; enforces per-consumer quotas [P5]; checks
ReadRequests in the SPEC.md order [P7]; and publishes Stored/Removed/Cleared events in
sequenced batches with replay and snapshots [E1][E2].

Sans-IO like :mod:`ectp_py.consumer`: every call takes ``now``; outputs are returned by
:meth:`ProducerCore.poll`. Semantics mirror packages/core/src/producer/producer.ts.
"""

from __future__ import annotations

import json
import logging
import math
from collections import Counter, OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from . import codec
from .clock import checked_now
from .reentry import EngineCalls
from .config import ProducerConfig
from .ids import id_before_epoch
from .outputs import ConnectPeer, DisconnectPeer, EventBatchOut, Output, Send
from .store import MAX_DESCRIPTOR_BYTES, MemoryItemStore, StoreChange
from .timers import TimerEntry, TimerQueue
from .wire import (
    CLEARED_RESET,
    CLEARED_SHUTDOWN,
    MAX_SAFE_INTEGER,
    REMOVED_DISCARDED,
    REMOVED_EVICTED,
    SPEC_MAJOR,
    Completion,
    EctpError,
    Fingerprint,
    Reason,
    Role,
    is_int,
    is_positive_id,
    item_key_id,
    normalize_fingerprint,
    peer_heartbeat_interval_ms,
    spec_version,
    u64,
    validate_descriptor,
)

log = logging.getLogger("ectp.producer")

#: Capability a subscriber lists in its Hello to receive event batches [E1].
EVENTS_CAPABILITY = "events.v1"
#: Gone peers remembered for a reconnect in the same epoch [P8]; bounded [I4].
FORGOTTEN_PEERS_CAP = 1024
#: Bytes (transport metadata and capability names) the gone peers may hold together [I4].
FORGOTTEN_PEERS_BYTES_CAP = 64 * 1024 * 1024


def _unpublishable(descriptor: Any) -> str | None:
    """Why a producer may not publish ``descriptor``, or None when it may: it must be valid [C2] and
    encode to at most ``MAX_DESCRIPTOR_BYTES`` (SPEC.md section 5), or every event, snapshot, grant and
    announcement carrying it is refused by its receivers. ``MemoryItemStore.put`` refuses such items;
    the producer checks what any other store reports. Never raises [I1]."""
    valid, why = validate_descriptor(descriptor, MAX_SAFE_INTEGER)
    if valid is None:
        return f"the descriptor is not valid: {why}"
    try:
        encoded = len(codec.encode("ectp.v1.ItemDescriptor", descriptor))
    except Exception as e:  # noqa: BLE001 - [I1] whatever the engine's store reported
        return f"the descriptor cannot be encoded ({e})"
    if encoded > MAX_DESCRIPTOR_BYTES:
        return f"the descriptor encodes to {encoded} bytes, over the {MAX_DESCRIPTOR_BYTES} a producer may publish"
    return None


def _elements(type_name: str, e: dict) -> int:
    """Repeated elements an event or descriptor adds to a message: itself and its shape's
    dimensions (SPEC.md section 5)."""
    if type_name == "ectp.v1.Event":
        e = (e.get("stored") or {}).get("item") or {}  # only a Stored event carries a shape
    return 1 + len(e.get("shape") or ())


def _split_by_size(elements: list[dict], type_name: str, limit: int) -> list[list[dict]]:
    """``elements`` in order, cut into runs whose encoded sizes (each element's message bytes,
    without field tag and length prefix) add up to at most ``limit`` and whose repeated
    elements to at most ``codec.MAX_REPEATED_ELEMENTS``; a run holds at least one element, and
    no elements give one empty run [E1][E2]."""
    if len(elements) < 2:
        return [elements]  # nothing to split: no need to encode it
    runs: list[list[dict]] = []
    run: list[dict] = []
    size = count = 0
    for e in elements:
        n = len(codec.encode(type_name, e))
        k = _elements(type_name, e)
        if run and (size + n > limit or count + k > codec.MAX_REPEATED_ELEMENTS):
            runs.append(run)
            run, size, count = [], 0, 0
        run.append(e)
        size += n
        count += k
    runs.append(run)
    return runs


@dataclass(eq=False)
class _Grant:
    """One live grant: one pin of one item for one consumer epoch [P2]."""

    id: int
    consumer_id: str
    consumer_epoch: int
    key_id: str
    size_bytes: int
    deadline: float  # [P3] own lease deadline, fixed at grant time
    attempt_id: int  # the ReadRequest it answered (SPEC.md 4.3: duplicates and stale attempts)
    descriptor: Any = None  # the item as granted, resent with a duplicated ReadRequest's answer
    timer: TimerEntry | None = None
    live: bool = True


@dataclass(eq=False)
class _Peer:
    """A consumer (or subscriber) the producer has heard from."""

    id: str
    epoch: int
    last_heard: float
    next_heartbeat: float
    interval_ms: int  # judged by the larger of ours and the one its Hello announced [P8]
    metadata: bytes = b""
    connected_epoch: int = 0
    hello_epoch: int = 0  # the epoch whose Hello was applied: another Hello of it is a duplicate
    capabilities: tuple = ()
    subscribed: bool = False
    grants: dict = field(default_factory=dict)  # key id -> _Grant: at most one per item [P3]
    pinned_bytes: int = 0
    answered_at: float = float("-inf")  # [E2] when a replay or snapshot answer last resent something
    owed_snapshot: bool = False  # [E2] a SnapshotRequest to answer once resend_interval_ms has passed
    owed_replay_from: int = 0  # [E2] the lowest fromSequence owed likewise (0: none)
    epoch_only: bool = False  # a forgotten entry of an epoch seen in a refused or ignored message: no Hello of it applied


class ProducerCore:
    """The producer of ECTP (see module docstring). Nothing a peer sends makes a method
    raise [I1]; the store's pin count equals the number of live grants each time the producer acts
    (a pin outlasts its lease deadline only until the producer's next call) [I3]."""

    def __init__(
        self,
        id: str,
        epoch: int,
        fingerprint: dict | None,
        store: MemoryItemStore,
        *,
        transport_metadata: bytes = b"",
        config: ProducerConfig | None = None,
    ):
        """Create a producer.

        :param id: this producer's stable, non-empty peer id (descriptors' ``producer_id``).
        :param epoch: positive integer, greater after every restart [P8].
        :param fingerprint: ``ectp.v1.Fingerprint`` dict of the items served [P7]; None: all-default.
        :param store: the region items are served from.
        :param transport_metadata: sent in Hello and announcements. Default empty.
        :param config: timers and limits. Default ``ProducerConfig()`` (SPEC.md defaults).
        :raises EctpError: ``INVALID_CONFIG`` naming the first invalid option, or a store whose
            ``subscribe`` raises [E1].
        """
        if not isinstance(id, str) or not id:
            raise EctpError("INVALID_CONFIG", "id must be a non-empty string (the producer's stable peer id)")
        if not is_positive_id(epoch):
            raise EctpError("INVALID_CONFIG", f"epoch must be a positive integer that grows on every restart [P8]; got {epoch!r}")
        fp = normalize_fingerprint(fingerprint)
        if fp is None:
            raise EctpError("INVALID_CONFIG", "fingerprint is malformed")
        self.config = config or ProducerConfig()
        self.config.validate()
        self.id = id
        self.epoch = epoch
        self.fingerprint: Fingerprint = fp
        self.store = store
        self.metrics: Counter = Counter()
        self._transport_metadata = bytes(transport_metadata)
        self._peers: dict[str, _Peer] = {}
        self._forgotten: OrderedDict[str, _Peer] = OrderedDict()
        self._forgotten_bytes = 0
        self._grants: dict[int, _Grant] = {}
        self._leases = TimerQueue()
        self._reuse_after: float | None = None  # [P7] see shutdown()
        # [P2] the latest lease deadline of a grant released without its consumer's word (declared gone or
        # restarted, replaced, cleared, shutdown): that consumer's one-sided read may still run until then
        self._released_readable_until: float | None = None
        self._next_grant_id = id_before_epoch(epoch) + 1  # [P2] a late ACK from before a restart names no grant of this run
        self._pinned_bytes = 0
        self._out: list[Output] = []
        self._pending_events: list[dict] = []
        self._sequence = 0
        self._snapshot_answers = 0  # [E2] the last Snapshot answer's snapshotId
        self._ring: deque = deque(maxlen=self.config.replay_buffer_batches)  # [E2] bounded
        self._heartbeat_seq = 0
        self._foreign_logged: set = set()  # key ids of foreign items already logged (see _foreign), bounded
        # [C2] what _unpublishable said of each descriptor object another store reported (MemoryItemStore.put
        # refuses them; a subclass may report others): id -> (the object, kept so its id stays its own; why)
        self._store_checks_descriptors = type(store) is MemoryItemStore
        self._verdicts: dict[int, tuple[Any, str | None]] = {}
        self._store_calls = EngineCalls()  # [I1] calls into the store in progress: the producer is not re-entrant
        self._ignored = 0
        self._shutting_down = False
        self._last_now: float = -math.inf  # the latest clock reading accepted (none yet: any first one stands)
        try:
            self._unsubscribe = store.subscribe(self._on_store_change)  # [E1] every change becomes an event
        except Exception as e:  # noqa: BLE001
            # [E1] the engine's store, once, at construction: a producer that cannot hear its changes could publish none
            raise EctpError(
                "INVALID_CONFIG",
                f"store.subscribe raised ({e}); the producer subscribes to the store's changes to publish them "
                "as events [E1]: fix the store's subscribe",
            ) from e
        # [E1][E2] items the store already holds ready (filled before this core: a warm start) are
        # published as Stored in the first batch, so the batches account for what a snapshot lists.
        published = 0
        try:
            with self._store_calls:
                for e in store.ready_items():
                    if self._refused(e.descriptor) is None:
                        self._pending_events.append({"stored": {"item": e.descriptor}})
                        published += 1
        except Exception as e:  # noqa: BLE001
            # [I1][E1] the engine's store: the items listed so far are published, the others reach subscribers by snapshots only
            log.error("store failed to list the ready items it held when the producer started; the %d listed before "
                      "the failure are published as Stored, the others are not: %s", published, e)

    # ------------------------------------------------------------------------- API

    def announce(self, key_id: str) -> dict | None:
        """An ``ectp.v1.Announcement`` for an item the store holds (ready or not), for the
        orchestrator. Never pins [P4]. ``None`` when not held or shutting down, and when the store's
        ``get`` raises (logged at error level; never raised [I1])."""
        if self._shutting_down:
            return None
        try:
            with self._store_calls:  # [I1] the store must not call the producer back (REENTRANT_CALL)
                entry = self.store.get(key_id)  # [P4] a lookup only: no pin, no lease
        except Exception as e:  # noqa: BLE001
            # [I1] the engine's store failed: no announcement, and the engine's call goes on
            log.error("store failed to look up an item to announce %s: %s", key_id, e)
            return None
        if entry is None or self._refused(entry.descriptor) is not None:
            return None
        return {"version": spec_version(), "item": entry.descriptor, "transportMetadata": self._transport_metadata}

    def _refused(self, descriptor: Any) -> str | None:
        """Why the store's ``descriptor`` is not this producer's to announce, publish or grant (another
        producer's, epoch's or fingerprint's; or, from a store other than MemoryItemStore, one no receiver
        accepts: not a dict, fields missing or invalid), or None. Never raises [I1]; logged once each."""
        if isinstance(descriptor, dict):
            foreign = self._foreign(descriptor)
            if foreign is not None:
                return foreign
        if self._store_checks_descriptors:
            return None  # MemoryItemStore.put refused them
        known = self._verdicts.get(id(descriptor))
        if known is not None and known[0] is descriptor:
            return known[1]
        why = _unpublishable(descriptor)  # [C2] SPEC.md section 5: one such item would make every message carrying it malformed
        if len(self._verdicts) >= 1024:
            self._verdicts.clear()  # bounded: a descriptor checked long ago may be checked (and logged) again
        self._verdicts[id(descriptor)] = (descriptor, why)
        if why is not None:
            self.metrics["ectp_producer_unpublishable_items_total"] += 1
            log.error("the item store reported an item no receiver would accept; it is not published, announced or granted: %s", why)
        return why

    def _foreign(self, descriptor: dict) -> str | None:
        """[P8] Why an item stored under another producer id or epoch, or [P7] of another fingerprint
        (every read of it is refused INCOMPATIBLE), is not this producer's to announce, publish or
        grant (a consumer would look for another producer, refuse an older epoch's item as stale, or
        wait for an item it can never read); None for its own. Logged once per key id."""
        if descriptor.get("producerId") != self.id or u64(descriptor.get("epoch")) != self.epoch:
            why = (f"it was stored as producer {json.dumps(descriptor.get('producerId'), default=repr)} epoch {descriptor.get('epoch')}, "
                   f"and this producer is {json.dumps(self.id)} epoch {self.epoch}")
        else:
            key = descriptor.get("key")
            diff = self._fingerprint_diff(key.get("fingerprint") if isinstance(key, dict) else None)
            if diff is None:
                return None
            why = f"its key's fingerprint differs from this producer's: {diff}"
        key_id = item_key_id(descriptor.get("key"))
        if key_id not in self._foreign_logged:
            if len(self._foreign_logged) >= 1024:
                self._foreign_logged.clear()  # bounded: an item logged long ago may be logged again
            self._foreign_logged.add(key_id)
            self.metrics["ectp_producer_unpublishable_items_total"] += 1
            log.error("the item store holds an item of another producer, epoch or fingerprint; it is not published, announced or granted: %s", why)
        return why

    def handle_message(self, sender: str, data: bytes, now: float) -> None:
        """Handle an encoded ``ectp.v1.Envelope`` from ``sender``. Never raises [I1], but for a call
        from inside the producer's own call into the store (``REENTRANT_CALL``)."""
        self._refuse_reentrant("handle_message")
        now = self._advance(now)
        try:
            envelope = codec.decode("ectp.v1.Envelope", data)
        except Exception:  # noqa: BLE001
            # [V1] another major's body need not parse as ours: answer from its frozen fields.
            frozen = codec.decode_frozen_envelope(data)
            if frozen is not None and (frozen.get("version") or {}).get("major", 0) != SPEC_MAJOR:
                self.handle_envelope(sender, frozen, now)
                return
            self._ignore("malformed")  # [C10]
            return
        self.handle_envelope(sender, envelope, now)

    def handle_envelope(self, sender: str, envelope: Any, now: float) -> None:
        """Handle a decoded envelope (dict form) from ``sender``. Never raises [I1], but for a call from
        inside the producer's own call into the store (``REENTRANT_CALL``)."""
        self._refuse_reentrant("handle_envelope")
        now = self._advance(now)
        try:
            self._dispatch(sender, envelope, now)
        except Exception:  # noqa: BLE001 - [I1] a bug must cost one message, never the producer
            log.exception("producer failed to handle a message from %s", sender)
            self._ignore("malformed")

    def handle_peer_unreachable(self, peer_id: str, now: float) -> None:
        """The transport cannot reach ``peer_id``: it is gone at once [P8] (grants released)."""
        self._refuse_reentrant("handle_peer_unreachable")
        now = self._advance(now)
        p = self._peers.get(peer_id)
        if p is not None:
            self._peer_gone(p, "unreachable")

    def poll(self, now: float) -> list[Output]:
        """Expire leases [P3], send heartbeats and declare silent peers gone [P8], publish
        pending store changes as one batch (more past the batch bounds) [E1]; return (and clear)
        the queued outputs."""
        self._refuse_reentrant("poll")
        now = self._advance(now)
        self._tick_peers(now)
        self._flush_events()
        # gauges [P2][P5], in the same dict as the counters
        self.metrics["ectp_producer_live_grants"] = len(self._grants)
        self.metrics["ectp_producer_pinned_bytes"] = self._pinned_bytes
        out, self._out = self._out, []
        return out

    def next_deadline(self) -> float | None:
        """When :meth:`poll` must be called next, or ``None`` when nothing is scheduled."""
        if self._out or self._pending_events:
            return self._last_now
        candidates = [self._leases.peek_at()]
        for p in self._peers.values():
            candidates.append(min(p.next_heartbeat, p.last_heard + p.interval_ms * self.config.heartbeat_misses))
            if p.owed_snapshot or p.owed_replay_from:
                candidates.append(p.answered_at + self.config.resend_interval_ms)
        candidates = [c for c in candidates if c is not None]
        return min(candidates) if candidates else None

    def shutdown(self, now: float) -> float | None:
        """Stop serving [P7]: release every grant and pin, publish ``Cleared(SHUTDOWN)``,
        reject later reads with SHUTTING_DOWN. Idempotent. Returns until when the memory of the
        items it held should not be overwritten or freed (the latest lease deadline of the grants
        it released, and of those released earlier without their consumer's word, a consumer
        declared gone or restarted, so reads still in flight fail instead of reading reused
        bytes), or ``None`` when every such deadline has passed; the same value on every call."""
        self._refuse_reentrant("shutdown")
        now = self._advance(now)
        if self._shutting_down:
            return self._reuse_after
        self._shutting_down = True
        for g in list(self._grants.values()):
            self._release(g, "shutdown")
        until = self._released_readable_until
        self._reuse_after = until if until is not None and until > now else None
        try:
            with self._store_calls:  # a poll from inside would take the outputs shutdown's caller polls
                self._unsubscribe()
        except Exception as e:  # noqa: BLE001
            # [I1] the engine's store failed to drop the listener: later changes are ignored (shutting down)
            log.error("store failed to unsubscribe the producer: %s", e)
        self._pending_events.append({"cleared": {"cause": CLEARED_SHUTDOWN}})
        log.info("producer %s shutting down (memory reusable after %s)", self.id, self._reuse_after)
        return self._reuse_after

    def stats(self) -> dict[str, Any]:
        """Table sizes, for the invariant checks [I3][I4] and dashboards. ``pins`` is -1 when the
        store's ``total_pins`` raises (logged at error level; never raised [I1])."""
        return {
            "grants": len(self._grants),
            "pins": self._store_pins(),
            "pinnedBytes": self._pinned_bytes,
            "peers": len(self._peers),
            "replayBuffered": len(self._ring),
            "eventSequence": self._sequence,
            "ignoredMessages": self._ignored,
            "shuttingDown": self._shutting_down,
        }

    def _refuse_reentrant(self, method: str) -> None:
        """[I1] A state-changing call made from inside the producer's own call into the store (the store,
        or a store listener it called meanwhile) would run on half-updated state: refused, raised into that code."""
        self._store_calls.refuse("ProducerCore", method, "its item store, or a store listener the store called")

    def _store_pins(self) -> int:
        """The store's ``total_pins()``, or -1 when it raises (logged)."""
        try:
            with self._store_calls:
                return self.store.total_pins()
        except Exception as e:  # noqa: BLE001 - [I1] the engine's store
            log.error("store failed to count its pins: %s", e)
            return -1

    # ------------------------------------------------------------------------- dispatch

    def _dispatch(self, sender: str, env: Any, now: float) -> None:
        if not isinstance(env, dict):
            self._ignore("malformed")
            return
        # [V1][P7] the version check comes before anything else.
        version = env.get("version")
        major = version.get("major", 0) if isinstance(version, dict) else 0
        if major != SPEC_MAJOR:
            self._reject_version(sender, env, major)
            return
        sid = env.get("senderId")
        sep = env.get("senderEpoch")
        if not isinstance(sid, str) or not sid or not is_positive_id(sep):
            self._ignore("malformed")
            return
        if sid != sender:
            self._ignore("sender_mismatch")  # the carrier vouches for the sender [P2]
            return
        known = self._peers.get(sid)
        # [P8] messages of an older epoch than the greatest seen are stale, also from a peer declared gone
        greatest = known if known is not None else self._forgotten.get(sid)
        if greatest is not None and sep < greatest.epoch:
            self._ignore("stale_epoch")
            return
        forgotten = greatest if known is None else None
        if forgotten is not None and sep > forgotten.epoch:
            # [P8] a forgotten peer's greater epoch is the greatest seen whatever becomes of this message
            # (refused, ignored): the older epoch's late messages are stale from now on
            self._forget_epoch(sid, sep)
        elif known is not None and sep > known.epoch:
            # [P8] likewise a known peer's greater epoch voids its older epoch's grants whatever becomes of
            # this message (a ReadRequest or ReplayRequest ignored as malformed, too): the older one is stale now
            self._new_epoch(known, sep)
        if env.get("hello") is not None:
            self._on_hello(sid, sep, env["hello"], now)
        elif env.get("readRequest") is not None:
            rr = env["readRequest"]
            attempt_id = rr.get("attemptId", 0) if isinstance(rr, dict) else 0
            if not is_positive_id(attempt_id):
                # [C10][P7] check 2: malformed (attempt id 0 included), ignored before it can
                # introduce its sender or bring back one declared gone
                self._ignore("malformed")
                return
            self._on_read_request(self._peer_for(sid, sep, now), rr, attempt_id, now)
        elif env.get("readComplete") is not None:
            self._on_read_complete(self._peer_for(sid, sep, now), sep, env["readComplete"])
        elif env.get("heartbeat") is not None:
            # liveness only; a heartbeat alone does not introduce a new peer
            if known is not None or (forgotten is not None and forgotten.epoch == sep and not forgotten.epoch_only):
                self._peer_for(sid, sep, now)
            else:
                self._ignore("unknown_peer")  # [C10] no Hello of this epoch: nothing to keep alive
        elif env.get("replayRequest") is not None:
            req = env["replayRequest"]
            raw = u64(req.get("fromSequence") if isinstance(req, dict) else None)
            if raw is None or raw > MAX_SAFE_INTEGER:  # SPEC.md 3.8: past 2^53 - 1 is malformed
                # [C10] ignored before it can subscribe its sender or bring back one declared gone
                self._ignore("malformed")
                return
            self._on_replay(self._peer_for(sid, sep, now), raw, now)
        elif env.get("snapshotRequest") is not None:
            self._on_snapshot(self._peer_for(sid, sep, now), now)
        else:
            # [C10] no body (a newer minor version) or one a producer never receives
            if known is not None:
                self._peer_for(sid, sep, now)
            self._ignore("unexpected_body")

    def _peer_for(self, pid: str, epoch: int, now: float) -> _Peer:
        """The peer record for (id, epoch), created when new (restored from the forgotten
        table when it returns at the same epoch) and refreshed: any message is life [P8]."""
        p = self._peers.get(pid)
        if p is not None:
            if epoch > p.epoch:
                self._new_epoch(p, epoch)
            p.last_heard = now
            return p
        old = self._take_forgotten(pid)
        restore = old is not None and old.epoch == epoch and not old.epoch_only
        p = _Peer(pid, epoch, now, now + self.config.heartbeat_interval_ms,
                  old.interval_ms if restore else self.config.heartbeat_interval_ms)
        if restore:
            p.metadata, p.capabilities, p.subscribed = old.metadata, old.capabilities, old.subscribed
        self._peers[pid] = p
        if restore:
            self._connect_if_needed(p)  # [P8] reconnection needs no restart
        return p

    def _new_epoch(self, p: _Peer, epoch: int) -> None:
        """[P8] peer ``p`` restarted (a greater ``epoch``): the grants, subscription and requests of its old epoch are void."""
        self._release_all_of(p, "epoch")
        p.epoch = epoch
        p.metadata = b""
        p.capabilities = ()
        p.subscribed = False
        p.interval_ms = self.config.heartbeat_interval_ms
        # the new epoch asks anew (answered_at stays: the interval is per peer id, so a peer
        # cannot escape it by announcing new epochs)
        p.owed_snapshot, p.owed_replay_from = False, 0

    def _connect_if_needed(self, p: _Peer) -> None:
        if p.metadata and p.connected_epoch != p.epoch:
            p.connected_epoch = p.epoch
            self._out.append(ConnectPeer(p.id, p.epoch, p.metadata))

    # ------------------------------------------------------------------------- handshake

    def _on_hello(self, sid: str, sep: int, hello: Any, now: float) -> None:
        if not isinstance(hello, dict):
            self._ignore("malformed")
            return
        role = hello.get("role", 0)
        if role == Role.PRODUCER:
            # a producer's Hello is for a consumer; [P8] before anything else: from a known peer it
            # still counts as life, and a newer epoch in it voids the old one's grants
            if sid in self._peers:
                self._peer_for(sid, sep, now)
            self._ignore("role")
            return
        refusal = None
        if role not in (Role.CONSUMER, Role.BOTH):
            # SPEC.md 4.1: unspecified or unknown role is refused with INTERNAL [V1]
            refusal = (Reason.INTERNAL, f"Hello role {role!r} is not CONSUMER or BOTH")
        else:
            diff = self._fingerprint_diff(hello.get("fingerprint"))
            if diff is not None:
                refusal = (Reason.INCOMPATIBLE, diff)
        if refusal is not None:
            # [P8] before anything else: a known consumer's refused Hello still counts as life, and a
            # newer epoch in it voids the old one's grants and subscription. [P7] An unknown peer is
            # refused before it is recorded.
            if sid in self._peers:
                self._peer_for(sid, sep, now)
            self._load_before_refusal(sid, sep, hello.get("transportMetadata"))
            self._handshake_reject(sid, *refusal)
            return
        p = self._peer_for(sid, sep, now)
        # SPEC.md 4.1: a Hello repeating the epoch whose Hello was applied is a duplicate: answered (its
        # answer may have been lost), and it changes no other state
        if p.hello_epoch != sep:
            p.hello_epoch = sep
            md = hello.get("transportMetadata", b"")
            p.metadata = bytes(md) if isinstance(md, (bytes, bytearray)) else b""
            caps = hello.get("capabilities", [])
            p.capabilities = tuple(c for c in caps if isinstance(c, str)) if isinstance(caps, list) else ()
            if EVENTS_CAPABILITY in p.capabilities:
                p.subscribed = True  # [E1]; unknown capability names are ignored
            # [P8] the larger of the consumer's interval (0: 2000 ms, SPEC.md 4.1; at most 60 s) and ours
            p.interval_ms = peer_heartbeat_interval_ms(hello.get("heartbeatIntervalMs", 0), self.config.heartbeat_interval_ms)
            self._connect_if_needed(p)  # once per peer epoch, before our reply goes out
        self._send(sid, {"hello": {
            "role": Role.PRODUCER,
            "capabilities": [EVENTS_CAPABILITY],
            "fingerprint": self.fingerprint.to_msg(),
            "transportMetadata": self._transport_metadata,
            "heartbeatIntervalMs": self.config.heartbeat_interval_ms,
        }})

    def _load_before_refusal(self, peer_id: str, epoch: Any, metadata: Any) -> None:
        """SPEC.md 4.1, 4.2: a refusal is a message to the Hello's sender like any other, so the
        sender's transport metadata is loaded first (once per epoch: not for a known peer already
        connected at it); else a transport that reaches only loaded peers drops the HandshakeReject
        and the consumer waits out its budget [P7]. An unknown sender stays unrecorded."""
        if not isinstance(metadata, (bytes, bytearray)) or not metadata or not is_positive_id(epoch):
            return
        known = self._peers.get(peer_id)
        if known is not None and known.epoch == epoch:
            if known.connected_epoch == epoch:
                return
            known.connected_epoch = epoch  # (its accepted Hello later connects nothing twice)
        self._out.append(ConnectPeer(peer_id, epoch, bytes(metadata)))

    def _handshake_reject(self, peer_id: str, reason: int, detail: str) -> None:
        self.metrics[f'ectp_producer_handshake_rejects_total{{reason="{Reason.name(reason)}"}}'] += 1
        # a deployment fault: said in the producer's own log too, not only in the refused consumer's
        log.warning("consumer's Hello refused; it reads nothing from this producer until it changes: peer=%s reason=%s detail=%s",
                    peer_id, Reason.name(reason), detail)
        self._send(peer_id, {"handshakeReject": {"reason": reason, "detail": detail, "supported": spec_version()}})

    def _reject_version(self, sender: str, env: dict, major: Any) -> None:
        """[V1][P7] answer a message of another major version with a typed VERSION refusal."""
        detail = f"peer speaks spec major {major!r}; this producer speaks {SPEC_MAJOR}"
        rr = env.get("readRequest")
        attempt_id = rr.get("attemptId", 0) if isinstance(rr, dict) else 0
        if rr is not None and is_positive_id(attempt_id):
            self._reject(sender, attempt_id, Reason.VERSION, detail)
        elif env.get("hello") is not None:
            # [V1] nothing of another major's body is acted on (its metadata field is not frozen)
            self._handshake_reject(sender, Reason.VERSION, detail)
        else:
            self._ignore("version")

    def _fingerprint_diff(self, fp: Any) -> str | None:
        """None when ``fp`` equals ours field by field; else what differs."""
        n = normalize_fingerprint(fp)
        if n is None:
            return "fingerprint is malformed"
        if n != self.fingerprint:
            return f"fingerprint {n} != {self.fingerprint}"
        return None

    # ------------------------------------------------------------------------- reads

    def _on_read_request(self, p: _Peer, rr: dict, attempt_id: int, now: float) -> None:
        """The checks of [P7] after the attempt id's (``_dispatch``), in order; the first that fails gives the answer."""
        key = rr.get("key")
        key_id = item_key_id(key)
        old = p.grants.get(key_id) if key_id is not None else None
        if old is not None and old.deadline <= now:
            old = None  # [P3] past its lease deadline: no longer live, even before a poll released it
        if old is not None and attempt_id == old.attempt_id:
            # [P3] SPEC.md 4.3: a duplicated ReadRequest gets the same grant again (same id, no new pin)
            # with the whole ms left of its lease, never its full lease (the consumer counts a lease from
            # receipt [C11]); with less than 1 ms left nothing (lease_ms 0 would mean 30 000).
            self.metrics["ectp_producer_duplicate_requests_total"] += 1
            left = math.floor(old.deadline - now)
            if left >= 1:
                self._send(p.id, {"readGrant": {"attemptId": old.attempt_id, "grantId": old.id, "item": old.descriptor, "leaseMs": left}})
            return
        if old is not None and attempt_id < old.attempt_id:
            self._ignore("stale_attempt")  # [P7] check 2 / SPEC.md 4.3: a reordered, older attempt; the live grant stays
            return
        # [P7] check 3: a request without a key has no fingerprint to compare and goes on (check 6 answers it INTERNAL).
        diff = self._fingerprint_diff(key.get("fingerprint")) if isinstance(key, dict) else None
        if diff is not None:
            self._reject(p.id, attempt_id, Reason.INCOMPATIBLE, diff)  # [P7] check 3
            return
        if self._shutting_down:
            self._reject(p.id, attempt_id, Reason.SHUTTING_DOWN, "producer is shutting down")  # [P7] check 4
            return
        expected_epoch = u64(rr.get("expectedEpoch"))
        if expected_epoch is None or (expected_epoch != 0 and expected_epoch != self.epoch):
            # [P7] check 5 / [P8]: the announcement named another epoch of this producer
            self._reject(p.id, attempt_id, Reason.EPOCH_CHANGED, f"announcement named epoch {expected_epoch}; producer epoch is {self.epoch}")
            return
        if key_id is None:
            self._reject(p.id, attempt_id, Reason.INTERNAL, "malformed item key")  # [P7] check 6
            return
        try:
            with self._store_calls:  # [I1] the store is engine code: a call back into the producer is refused
                entry = self.store.get(key_id)
        except Exception as e:  # noqa: BLE001
            # [I1] the engine's store failed, not the consumer's message: answer it (INTERNAL, as for a failed
            # pin) rather than drop it as malformed and leave the consumer to its grant wait (SPEC.md 4.3)
            log.error("store failed to look up a requested item %s: %s", key_id, e)
            self._reject(p.id, attempt_id, Reason.INTERNAL, "store could not look the item up")
            return
        if entry is None:
            self._reject(p.id, attempt_id, Reason.NOT_FOUND, "item not held")  # [P1] terminal
            return
        if not entry.ready:
            # [P1] present but not fully written: retryable, never conflated with NOT_FOUND
            self._reject(p.id, attempt_id, Reason.NOT_READY, "item not fully written yet", self.config.retry_after_ms)
            return
        refused = self._refused(entry.descriptor)
        if refused is not None:
            # [P8][C2] terminal: another producer's (epoch's, fingerprint's) item, or one no receiver accepts
            self._reject(p.id, attempt_id, Reason.INTERNAL, f"the store holds the item, but {refused}")
            return
        size = entry.size_bytes
        expected_size = u64(rr.get("expectedSizeBytes"))
        if expected_size is None or (expected_size != 0 and expected_size != size):
            self._reject(p.id, attempt_id, Reason.INTERNAL, f"announcement named {expected_size} bytes; item holds {size}")  # [P7] check 7
            return
        if old is not None:
            self._release(old, "replaced")  # [P3] a newer attempt replaces the older grant
        # [P5] an item above the byte quota itself can never be granted: terminal, not a retry for the whole budget
        if size > self.config.max_pinned_bytes_per_consumer:
            self._reject(p.id, attempt_id, Reason.INTERNAL,
                         f"item of {size} bytes exceeds the per-consumer quota of {self.config.max_pinned_bytes_per_consumer} bytes")
            return
        # [P5] per-consumer quota on pinned bytes and grants
        if p.pinned_bytes + size > self.config.max_pinned_bytes_per_consumer or len(p.grants) >= self.config.max_grants_per_consumer:
            self._reject(p.id, attempt_id, Reason.OVERLOADED,
                         f"consumer quota reached ({len(p.grants)} grants, {p.pinned_bytes} bytes pinned)", self.config.retry_after_ms)
            return
        try:
            with self._store_calls:
                self.store.pin(key_id)  # [P2] one pin per grant, never per key
        except Exception as e:  # a custom store's bug: the request still gets its one answer (SPEC.md 4.3)
            log.error("store refused to pin a ready item %s: %s", key_id, e)
            self._reject(p.id, attempt_id, Reason.INTERNAL, "store could not pin the item")
            return
        g = _Grant(self._next_grant_id, p.id, p.epoch, key_id, size, now + self.config.lease_ms, attempt_id, entry.descriptor)  # [P3] never extended
        self._next_grant_id += 1
        g.timer = self._leases.push(g.deadline, "lease", g)
        self._grants[g.id] = g
        p.grants[key_id] = g
        p.pinned_bytes += size
        self._pinned_bytes += size
        self.metrics["ectp_producer_grants_total"] += 1
        self._send(p.id, {"readGrant": {"attemptId": attempt_id, "grantId": g.id, "item": entry.descriptor, "leaseMs": self.config.lease_ms}})

    def _reject(self, peer_id: str, attempt_id: int, reason: int, detail: str, retry_after_ms: int = 0) -> None:
        self.metrics[f'ectp_producer_rejects_total{{reason="{Reason.name(reason)}"}}'] += 1
        self._send(peer_id, {"readReject": {
            "attemptId": attempt_id,
            "reason": reason,
            "retryable": reason in Reason.PRODUCER_RETRYABLE,  # SPEC.md 11: the flag follows the table
            "retryAfterMs": retry_after_ms,
            "detail": detail,
        }})

    def _on_read_complete(self, p: _Peer, epoch: int, rc: Any) -> None:
        # [P2][P3] a grant past its lease deadline was released by its lease on the way in (_advance):
        # an ACK of it names a grant already released (SPEC 4.6)
        grant_id = rc.get("grantId", 0) if isinstance(rc, dict) else None
        g = self._grants.get(grant_id) if is_int(grant_id) else None
        if g is None:
            self._ignore("unknown_grant")  # [P2][C10] unknown, or already released
            return
        if g.consumer_id != p.id or g.consumer_epoch != epoch:
            self._ignore("not_owner")  # [P2] only the holder (id and epoch) releases a grant
            return
        status = rc.get("status", 0)
        # Unknown or absent status counts as FAILED; the pin is released all the same [V1].
        cause = {Completion.OK: "ack_ok", Completion.ABANDONED: "ack_abandoned"}.get(status, "ack_failed")
        self._release(g, cause)

    def _release(self, g: _Grant, cause: str, unpin: bool = True) -> None:
        """Release a grant exactly once [P2]: unpin its item and drop it everywhere, so pins equal live grants [I3].
        ``unpin`` is false when the store itself already dropped the item and its pins (a cleared store)."""
        if not g.live:
            return
        g.live = False
        if cause not in ("ack_ok", "ack_abandoned", "ack_failed", "lease"):
            # [P2] released without its consumer's word: its read may still run until the lease ends
            if self._released_readable_until is None or g.deadline > self._released_readable_until:
                self._released_readable_until = g.deadline
        self._leases.cancel(g.timer)
        del self._grants[g.id]
        p = self._peers.get(g.consumer_id)
        if p is not None and p.grants.get(g.key_id) is g:
            del p.grants[g.key_id]
            p.pinned_bytes -= g.size_bytes
        self._pinned_bytes -= g.size_bytes
        if unpin:
            try:
                # [I3][P2] by key only while the store may hold the entry this grant pinned: once that entry
                # is gone (a clear, then the item written again from engine code the clear called), the key
                # names another entry, whose pins belong to other grants
                if self._holds(g) is not False:
                    with self._store_calls:
                        self.store.unpin(g.key_id)
            except Exception as e:  # noqa: BLE001
                # the store refused: an [I3] store bug that leaves a pin behind, counted and logged (one that
                # no longer holds the entry refuses rightly: its pins went with it)
                if self._holds(g) is not False:
                    self.metrics["ectp_producer_unpin_errors_total"] += 1
                    log.warning("store refused to unpin %s: %s", g.key_id, e)
        self.metrics[f'ectp_producer_releases_total{{cause="{cause}"}}'] += 1

    def _holds(self, g: _Grant) -> bool | None:
        """Whether the store still holds the pin ``g`` took [I3]: True, False, or None when a lookup
        raises (the entry may still be there). Its lookup returning the entry ``g`` pinned (the same
        descriptor object): True; none: False. Another entry is either a store that builds new objects
        per lookup or a clear not yet announced to this core (an earlier listener of it called in) that
        dropped g's entry with its pin, the key since written again. The pins tell them apart: each pin
        the store holds is a live grant's, and a clear drops those of every grant made before it, so the
        store holds more pins than the other live grants only when g's is among them."""
        try:
            with self._store_calls:
                held = self.store.get(g.key_id)
                if held is None:
                    return False
                if held.descriptor is g.descriptor:
                    return True
                return self.store.total_pins() > len(self._grants) - (1 if g.live else 0)
        except Exception:  # noqa: BLE001 - [I1] the engine's store
            return None

    def _release_all_of(self, p: _Peer, cause: str) -> None:
        for g in list(p.grants.values()):
            self._release(g, cause)

    def _advance(self, now: float) -> float:
        """[I1] Take the engine's clock reading (time never goes back), and [P3] release every grant
        whose lease ran out by it, before the call acts on anything: a driver hands messages over
        before it polls, and a grant past its deadline is no longer live (its lease released it)."""
        now = self._last_now = checked_now(now, self._last_now, log)
        self._expire_leases(now)
        return now

    def _expire_leases(self, now: float) -> None:
        while True:
            e = self._leases.pop_due(now)
            if e is None:
                return
            g = e.ref
            g.timer = None
            self._release(g, "lease")  # [P3] this grant's own lease ran out
            self.metrics["ectp_producer_lease_expired_total"] += 1
            log.warning("grant %d lease expired without an ACK; pin released (consumer=%s item=%s)", g.id, g.consumer_id, g.key_id)

    # ------------------------------------------------------------------------- liveness [P8]

    def _tick_peers(self, now: float) -> None:
        gone = []
        for p in self._peers.values():
            if now - p.last_heard >= p.interval_ms * self.config.heartbeat_misses:
                gone.append(p)  # [P8] silent for heartbeat_misses intervals: gone
                continue
            if now >= p.next_heartbeat:
                p.next_heartbeat = now + self.config.heartbeat_interval_ms
                # [P8] SPEC.md 4.7: only to a peer it has business with (grants, a subscription, an answer
                # owed); heartbeats to one without would keep an engine that is also a producer sending
                # back, and neither side's record of the other would ever go [I4].
                if p.grants or p.subscribed or p.owed_snapshot or p.owed_replay_from:
                    self._heartbeat_seq += 1
                    self._send(p.id, {"heartbeat": {"sequence": self._heartbeat_seq}})
            if (p.owed_snapshot or p.owed_replay_from) and now >= p.answered_at + self.config.resend_interval_ms:
                # [E2] what it asked for while its answers had to wait, together: a snapshot covers a replay
                if p.owed_snapshot:
                    self._on_snapshot(p, now)
                else:
                    start, p.owed_replay_from = p.owed_replay_from, 0
                    self._answer_replay(p, start, now)
        for p in gone:
            self._peer_gone(p, "silent")

    @staticmethod
    def _forgotten_cost(p: _Peer) -> int:
        return len(p.metadata) + sum(len(c) for c in p.capabilities)

    def _remember(self, p: _Peer) -> None:
        """[P8][I4] keep a gone peer's epoch (for a reconnect without a new Hello, and to know its
        older epochs' messages as stale) in a table bounded by entries (the oldest dropped first) and
        by bytes: past the byte bound the oldest entries lose their metadata and capability names but
        keep their epoch."""
        self._take_forgotten(p.id)
        self._forgotten[p.id] = p
        self._forgotten_bytes += self._forgotten_cost(p)
        if len(self._forgotten) > FORGOTTEN_PEERS_CAP:
            self._take_forgotten(next(iter(self._forgotten)))
        for old in self._forgotten.values():
            if self._forgotten_bytes <= FORGOTTEN_PEERS_BYTES_CAP:
                break
            self._forgotten_bytes -= self._forgotten_cost(old)
            old.metadata, old.capabilities = b"", ()

    def _forget_epoch(self, pid: str, epoch: int) -> None:
        """[P8] a forgotten peer seen at a greater ``epoch``: its entry keeps the epoch, nothing of the older one."""
        old = self._forgotten[pid]
        self._forgotten_bytes -= self._forgotten_cost(old)
        # (replaced in place: it keeps its age in the table)
        self._forgotten[pid] = _Peer(pid, epoch, old.last_heard, old.next_heartbeat, self.config.heartbeat_interval_ms,
                                     epoch_only=True)

    def _take_forgotten(self, pid: str) -> _Peer | None:
        old = self._forgotten.pop(pid, None)
        if old is not None:
            self._forgotten_bytes -= self._forgotten_cost(old)
        return old

    def _peer_gone(self, p: _Peer, cause: str) -> None:
        """[P8] a consumer is gone: release its grants, forget it, tell the transport."""
        held = len(p.grants)
        self._release_all_of(p, "peer_gone")
        del self._peers[p.id]
        self._remember(p)
        self._out.append(DisconnectPeer(p.id))
        grants = "released" if held else "none"  # labelled apart: an idle consumer going quiet is no alert
        self.metrics[f'ectp_producer_peers_gone_total{{cause="{cause}",grants="{grants}"}}'] += 1
        # idling (quiet, holding nothing) is no warning; leaving grants unfinished is
        (log.warning if held else log.info)("consumer %s is gone (%s); %d grants released", p.id, cause, held)

    # ------------------------------------------------------------------------- events [E1][E2]

    def _on_store_change(self, change: StoreChange) -> None:
        kind = change[0]
        # [E1][P7] Nothing is published after Cleared(SHUTDOWN) (reached only when the store failed to
        # unsubscribe the producer): the snapshot of a shut-down producer lists no item [E2].
        if self._shutting_down and kind != "cleared":
            return
        if kind == "stored":
            if self._refused(change[1]) is None:  # [C2] SPEC.md section 5: an unpublishable one would spoil its batch
                self._pending_events.append({"stored": {"item": change[1]}})
        elif kind == "removed":
            cause = REMOVED_EVICTED if change[2] == "evicted" else REMOVED_DISCARDED
            # counted by cause, so store pressure (evictions) shows beside the consumers' NOT_FOUNDs
            self.metrics[f'ectp_producer_items_removed_total{{cause="{"evicted" if change[2] == "evicted" else "discarded"}"}}'] += 1
            self._pending_events.append({"removed": {"key": change[1], "cause": cause}})
        elif kind == "cleared":
            for g in list(self._grants.values()):
                # A grant of an entry the store still holds was made after the clear (an earlier
                # listener of this change called in): it holds that entry's pin and stays live [I3].
                if self._holds(g) is True:
                    continue
                self._release(g, "cleared", unpin=False)  # every item is gone with its pins: their grants are void [I3]
            if self._shutting_down:
                return  # its Cleared(SHUTDOWN) is, or was, published
            cause = CLEARED_SHUTDOWN if change[1] == "shutdown" else CLEARED_RESET
            self._pending_events.append({"cleared": {"cause": cause}})

    def _flush_events(self) -> None:
        """[E1] publish pending changes as one batch with the next sequence number; events
        that exceed ``max_batch_bytes`` together go out as consecutive batches."""
        if not self._pending_events:
            return
        runs = _split_by_size(self._pending_events, "ectp.v1.Event", self.config.max_batch_bytes)  # [E1] size bound
        self._pending_events = []
        for events in runs:
            self._sequence += 1
            batch = {"sequence": self._sequence, "events": events}
            self._ring.append(batch)  # [E2] bounded replay buffer, oldest dropped first
            self._out.append(EventBatchOut(batch))
            self.metrics["ectp_producer_event_batches_total"] += 1
            for p in self._peers.values():
                if p.subscribed:
                    self._send(p.id, {"eventBatch": batch})

    def _on_replay(self, p: _Peer, from_sequence: int, now: float) -> None:
        """[E2] a ReplayRequest, checked well-formed by ``_dispatch``: it subscribes ``p``."""
        p.subscribed = True
        self._answer_replay(p, max(1, from_sequence), now)  # 0 means 1

    def _resend_deferred(self, p: _Peer, now: float) -> bool:
        """[E2] whether an answer resending something to ``p`` must wait (one went out less than
        ``resend_interval_ms`` ago); if not, it counts as the latest."""
        if now >= p.answered_at + self.config.resend_interval_ms:
            p.answered_at = now
            return False
        self.metrics["ectp_producer_deferred_resends_total"] += 1
        return True

    def _answer_replay(self, p: _Peer, start: int, now: float) -> None:
        latest = self._sequence
        if start > latest:
            return  # the subscriber is up to date
        oldest = latest - len(self._ring) + 1
        if start < oldest:
            # [E2] a gap the buffer cannot fill: the subscriber must ask for a snapshot
            self._send(p.id, {"replayUnavailable": {"oldestAvailable": oldest if self._ring else 0, "latest": latest}})
            return
        if self._resend_deferred(p, now):
            p.owed_replay_from = start if not p.owed_replay_from else min(p.owed_replay_from, start)
            return
        # what the peer was owed goes out with this answer, not an interval after it
        if p.owed_snapshot:
            p.owed_snapshot, p.owed_replay_from = False, 0
            self._answer_snapshot(p)  # it covers this replay too
            return
        owed, p.owed_replay_from = p.owed_replay_from, 0
        if owed and owed < start:
            if owed >= oldest:
                start = owed
            else:
                self._send(p.id, {"replayUnavailable": {"oldestAvailable": oldest if self._ring else 0, "latest": latest}})
        for batch in list(self._ring)[start - oldest :]:
            self._send(p.id, {"eventBatch": batch})

    def _on_snapshot(self, p: _Peer, now: float) -> None:
        p.subscribed = True
        if self._resend_deferred(p, now):
            p.owed_snapshot = True
            return
        p.owed_snapshot, p.owed_replay_from = False, 0  # the snapshot covers whatever was owed
        self._answer_snapshot(p)

    def _answer_snapshot(self, p: _Peer) -> None:
        self._flush_events()  # so the snapshot is exactly "as of batch sequence" [E2]
        try:
            with self._store_calls:
                items = [] if self._shutting_down else [e.descriptor for e in self.store.ready_items() if self._refused(e.descriptor) is None]
        except Exception as e:  # noqa: BLE001
            # [I1] the engine's store could not list its items (this may run inside poll): no partial
            # snapshot; the answer stays owed and is tried again a resend interval later [E2]
            log.error("store failed to list its ready items for a snapshot for %s: %s", p.id, e)
            p.owed_snapshot = True
            if self.config.resend_interval_ms == 0:
                # [I1] else the store would be asked at every poll, and a driver polling at
                # next_deadline() would spin while it fails: the retry waits the default interval
                p.answered_at += ProducerConfig.resend_interval_ms
            return
        # [E2] a snapshot whose items exceed max_batch_bytes goes out in numbered parts.
        runs = _split_by_size(items, "ectp.v1.ItemDescriptor", self.config.max_batch_bytes)
        self._snapshot_answers += 1  # [E2] parts of one answer share its id
        sid = self._snapshot_answers
        if len(runs) == 1:
            self._send(p.id, {"snapshot": {"sequence": self._sequence, "items": items, "snapshotId": sid}})
            return
        for part, run in enumerate(runs):
            snap = {"sequence": self._sequence, "items": run, "part": part, "parts": len(runs), "snapshotId": sid}
            self._send(p.id, {"snapshot": snap})

    # ------------------------------------------------------------------------- plumbing

    def _send(self, peer_id: str, body: dict) -> None:
        body["version"] = spec_version()
        body["senderId"] = self.id
        body["senderEpoch"] = self.epoch
        self._out.append(Send(peer_id, body))

    def _ignore(self, reason: str) -> None:
        self._ignored += 1  # [C10]
        self.metrics[f'ectp_producer_ignored_messages_total{{reason="{reason}"}}'] += 1

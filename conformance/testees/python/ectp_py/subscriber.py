"""The subscriber side of a producer's events [E1][E2], sans-IO: what a router runs to keep,
per followed producer, the set of items it holds ready, over a network that loses, duplicates
and reorders control messages.

Written from SPEC.md section 9 ([E1], [E2]) independently of the TypeScript ``EventSubscriber``:
a snapshot first, then batches in sequence order; a batch ahead of the next expected one is held
and the gap replayed from the first missing sequence; a duplicate (already applied) is ignored;
ReplayUnavailable is answered with a SnapshotRequest; snapshot parts are assembled by
``snapshotId`` (at most one incomplete answer; a part of a greater id starts anew; older ids,
duplicate parts and inconsistent parts are ignored; one nobody awaits is dropped ``retry_ms`` after
its latest part, and a snapshot retry drops the one it replaces); a greater producer epoch voids the view and
asks for a snapshot. Requests unanswered for ``retry_ms`` are sent again; while up to date it asks
every ``catch_up_ms`` for the batches after the last applied (a lost last batch shows no gap); a
producer silent for three heartbeat intervals, or reported unreachable, is subscribed to anew (a
restarted one knows no subscribers) [P8]. A gap whose replay brings nothing for ``MAX_REPLAY_RETRIES``
retries is given up: the batches seen past it are dropped and catching up goes on [E2]. Memory per producer is bounded by
``max_view_bytes`` of descriptors and key ids in its view, as many in one snapshot assembly, and ``max_held``
batches of at most ``max_held_events`` events and ``max_held_bytes`` descriptor and key id bytes together: a
snapshot whose parts pass ``max_view_bytes`` is dropped as they arrive, a batch that takes the view past it
drops the view, and after either the next SnapshotRequest waits, longer after each drop in a row [E2].
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from . import codec
from .clock import checked_now
from .outputs import ConnectPeer, DisconnectPeer, Output, Send
from .producer import EVENTS_CAPABILITY
from .wire import (
    DEFAULT_HEARTBEAT_MS,
    MAX_SAFE_INTEGER,
    SPEC_MAJOR,
    Reason,
    Role,
    is_positive_id,
    item_key_id,
    normalize_fingerprint,
    peer_heartbeat_interval_ms,
    spec_version,
)

log = logging.getLogger("ectp.subscriber")

# [E2] replay retries before a gap closes (live batches applied meanwhile do not count) before the batches seen past
# it are dropped (a producer that replays nothing up to them did not publish them, or its answers keep being lost).
MAX_REPLAY_RETRIES = 3
# the fields of an ``ectp.v1.Fingerprint`` dict: another key is a misspelt field, which would be sent as its default [P7]
FINGERPRINT_FIELDS = ("model", "dtype", "rowBytes", "layoutVersion")
# [E2] what a part of a snapshot in parts that holds no usable item counts as holding against max_view_bytes:
# producers never send one (SPEC.md 9), and counted as nothing, endless empty parts would grow an assembly
EMPTY_PART_BYTES = 64


def _positive(name: str, value: Any) -> int:
    if not is_positive_id(value):
        raise ValueError(f"{name} must be a positive integer; got {value!r}")
    return value


@dataclass
class _Followed:
    """What the subscriber knows of one producer."""

    id: str
    connection: tuple[int, bytes] | None  # (epoch, metadata) to connect before sending
    fingerprint: Any  # sent in the Hellos to it: the one follow() gave, else the subscriber's (SPEC.md 4.1) [P7]
    connected_epoch: int = 0
    gone: bool = False  # reported unreachable: subscribe anew, nothing else before the Hello [P8]
    lost_at: float | None = None  # declared gone (silent or unreachable) and no poll found it synced since [P8]
    asked_epoch: int = 0  # an epoch greeted and asked through a newer connection before its first message
    subscribing: bool = False  # a new subscription's Hello and SnapshotRequest not yet answered by a snapshot
    # the same, whatever epochs were heard since (reset keeps it): the retry goes again whole, Hello first,
    # since the epoch it reaches may be one never greeted (SPEC.md 4) [E2][P8]
    greet_on_retry: bool = False
    epoch: int = 0  # the producer's epoch as heard; 0 until then
    synced: bool = False
    applied: int = 0  # sequence of the last batch applied
    max_seen: int = 0
    view: dict[str, dict] = field(default_factory=dict)
    view_sizes: dict[str, int] = field(default_factory=dict)  # what each entry of ``view`` was counted as holding when set
    view_bytes: int = 0  # the sum of ``view_sizes``: at most ``max_view_bytes``
    # snapshot_id and sequence of the latest answer dropped for passing max_view_bytes (sequence -1: none):
    # its other parts, and those of older answers, are ignored [E2]
    dropped_snapshot_id: int = 0
    dropped_snapshot_sequence: int = -1
    # drops for max_view_bytes in a row, of answers and of the view: each doubles the wait before the next
    # SnapshotRequest; 0 again once the view stayed within the bound until a catch-up
    view_drops: int = 0
    snapshot_not_before: float = 0  # after such a drop, no SnapshotRequest goes out before this time (0: none)
    held: dict[int, list] = field(default_factory=dict)  # sequence -> operations, ahead of a gap
    held_bytes: dict[int, int] = field(default_factory=dict)  # sequence -> descriptor bytes of a held batch
    # {"id", "sequence", "parts", "got": {part: [(key id, item, bytes)]}, "bytes": what the parts hold, against max_view_bytes}
    assembly: dict | None = None
    # when the latest part of ``assembly`` was taken: one that gets no part for ``retry_ms`` while no snapshot
    # is awaited is dropped [E2][I4] (its missing parts are lost; a retry, if one is wanted, asks for a new answer)
    assembly_at: float = 0
    last_snapshot_id: int = -1  # snapshot_id of the last snapshot applied in this epoch (-1: none, so any id is taken first)
    want: str | None = None  # "snapshot" | "replay"
    # the sequence a snapshot must reflect to answer the SnapshotRequest in flight: the ``latest`` of the
    # ReplayUnavailable that made it (0: any); a late answer to an older request leaves it open, its retry takes any [E2]
    snapshot_floor: int = 0
    want_sent_at: float = 0
    replay_retries: int = 0  # replays sent again since the last gap closed
    last_heard: float = 0
    producer_interval_ms: int = DEFAULT_HEARTBEAT_MS
    heard_hello_epoch: int = 0  # the epoch whose Hello was applied since the producer was last declared gone: another is a duplicate
    next_heartbeat: float = 0
    next_catch_up: float = 0


class EventSubscriber:
    """Follows producers through their event batches, replays and snapshots [E1][E2].

    :param sub_id: this subscriber's peer id (the ``senderId`` of what it sends).
    :param epoch: this subscriber's epoch.
    :param fingerprint: sent in the Hello (a producer may refuse another one); that of the producers followed
        without one of their own (:meth:`follow`'s ``fingerprint``, for a router following several models).
    :param transport_metadata: sent in the Hello, so the producer can reach this subscriber.
    :param heartbeat_interval_ms: heartbeat interval to each followed producer.
    :param retry_ms: how long a request may go unanswered before it is sent again.
    :param catch_up_ms: while up to date, how often to ask for batches after the last applied.
    :param max_held: batches kept per producer ahead of a missing one; more are dropped (and replayed).
    :param max_held_events: events those held batches may carry together; a batch past it is dropped too.
    :param max_held_bytes: descriptor bytes (encoded) those held batches may carry together, each event's item key
        id counted too, by its length (an ASCII string: non-ASCII model characters are escaped), since a Removed
        event keeps only its key, whose fingerprint model a frame may make megabytes long; a batch past it is
        dropped too (a descriptor may take 64 KiB: 1,024 batches of 1 MiB would hold a gigabyte).
    :param max_view_bytes: bytes each producer's view may hold, counted as the held batches' are (descriptors'
        encoded sizes plus key ids' lengths); a snapshot being assembled is counted against it on its own. A
        snapshot whose parts pass it is dropped as they arrive (its other parts, and those of older answers, are
        ignored). A batch that takes the view past it drops the view: the producer is no longer synced and
        :meth:`view` is ``None`` until a snapshot that fits is applied. After either drop the next
        SnapshotRequest waits ``retry_ms``, twice that after a second drop in a row, and so on up to 32 times
        ``retry_ms``. An answer that fits ends the wait; the count of drops in a row starts over once the view
        has stayed within the bound until a catch-up (``catch_up_ms``), or when the producer restarts. Each drop
        is counted (``view_full``) and logged as a warning. Default 256 MiB, as the TypeScript subscriber's
        ``maxViewBytes``.
    :raises ValueError: for an empty id, a value that is not a positive integer, or a heartbeat
        interval past 32 bits (it travels in every Hello as a uint32).
    """

    def __init__(self, sub_id: str, epoch: int, fingerprint: Any = None, transport_metadata: bytes = b"",
                 heartbeat_interval_ms: int = DEFAULT_HEARTBEAT_MS, retry_ms: int = 2000, catch_up_ms: int = 5000,
                 max_held: int = 1024, max_held_events: int = 262_144, max_held_bytes: int = 64 << 20,
                 max_view_bytes: int = 256 << 20):
        if not isinstance(sub_id, str) or not sub_id:
            raise ValueError("subscriber id must be a non-empty string")
        self.id = sub_id
        self.epoch = _positive("epoch", epoch)
        self.fingerprint = fingerprint or {}
        self.transport_metadata = transport_metadata
        self.heartbeat_interval_ms = _positive("heartbeat_interval_ms", heartbeat_interval_ms)
        if self.heartbeat_interval_ms > 0xFFFFFFFF:  # [P8] it travels in every Hello as a uint32
            raise ValueError(f"heartbeat_interval_ms must fit in 32 bits; got {heartbeat_interval_ms!r}")
        self.retry_ms = _positive("retry_ms", retry_ms)
        self.catch_up_ms = _positive("catch_up_ms", catch_up_ms)
        self.max_held = _positive("max_held", max_held)
        self.max_held_events = _positive("max_held_events", max_held_events)
        self.max_held_bytes = _positive("max_held_bytes", max_held_bytes)
        self.max_view_bytes = _positive("max_view_bytes", max_view_bytes)
        self._followed: dict[str, _Followed] = {}
        self._out: list[Output] = []
        # producers whose last connect/disconnect a poll handed out was a connect: the transport holds one
        self._transport_holds: set[str] = set()
        self._last_now = -math.inf  # the latest clock reading accepted (none yet: any first one stands)
        self._heartbeat_sequence = 0
        self._counts = {"snapshotsApplied": 0, "snapshotRequests": 0, "replayRequests": 0, "ignoredMessages": 0}
        #: Counters under the metric names of SPEC.md [C10] (``ectp_subscriber_ignored_messages_total{reason}``).
        self.metrics: Counter = Counter()

    # ------------------------------------------------------------------------- engine API

    def follow(self, producer_id: str, now: float, connection: tuple[int, bytes] | None = None,
               fingerprint: dict | None = None) -> None:
        """Follow ``producer_id``: a Hello (``events.v1``), then a SnapshotRequest [E2]. With
        ``connection`` (epoch, metadata) a ConnectPeer comes first. Following again changes
        nothing, except with a connection of an epoch newer than the connection given before (any
        epoch, when none was given) and not older than the epoch last heard (the producer restarted,
        or its metadata is given only now): it replaces the old one and the producer is subscribed
        to anew, its silence judged from then (by the default heartbeat interval when the epoch is
        new) [P8]. A connection of an epoch newer than the one last heard also drops the view at once
        (its items are of an epoch that no longer runs). From then on, as from the first call with a
        connection, messages of an epoch older than the connection's are stale and ignored.

        ``fingerprint``: the model this producer serves, sent in the Hellos to it (a producer refuses a
        Hello of another model [P7]); for a router following producers of several models. Default: the
        subscriber's own. It stays the producer's until it is unfollowed.
        :raises ValueError: for an empty producer id, a connection epoch that is not positive, a malformed
            fingerprint (one with a key other than the four fields included), or a fingerprint other than
            the one the producer is followed with; nothing changes then, the clock included."""
        if not isinstance(producer_id, str) or not producer_id:
            raise ValueError("producer id must be a non-empty string")
        own = None if fingerprint is None else _fingerprint_argument(producer_id, fingerprint)
        if connection is not None:
            _positive("connection epoch", connection[0])
        known = self._followed.get(producer_id)
        # [P7] refused before anything changes, the clock included (as every argument above is)
        if known is not None and own is not None and normalize_fingerprint(own) != normalize_fingerprint(known.fingerprint):
            raise ValueError(f"follow({producer_id}): the producer is followed with another fingerprint; "
                             "unfollow it first to follow it as a producer of another model")
        now = self._last_now = checked_now(now, self._last_now, log)  # [I1] time never goes back
        if known is not None:
            if connection is not None and connection[0] > (known.connection[0] if known.connection else 0) \
                    and connection[0] >= known.epoch:
                known.connection = connection
                if connection[0] > known.epoch and known.epoch != 0:
                    # [P8] the deployment knows of an epoch newer than the one heard: the view holds the items of
                    # an epoch that no longer runs, so it goes now, not when the new epoch first speaks (the older
                    # epoch's messages are stale from now on: _dispatch)
                    self._reset(known)
                    known.producer_interval_ms = DEFAULT_HEARTBEAT_MS  # [P8] the dead epoch's Hello said it; the new one's will tell
                # [P8] its silence is judged from this new subscription, as after a silence or an unreachable
                # report (poll), not from the last message of an epoch that may no longer run
                known.last_heard = now
                self._subscribe(known, now)
                if connection[0] > known.epoch:
                    known.asked_epoch = connection[0]  # its first message is then no news
            return
        f = _Followed(producer_id, connection, self.fingerprint if own is None else own, last_heard=now,
                      next_heartbeat=now + self.heartbeat_interval_ms)
        self._followed[producer_id] = f
        self._subscribe(f, now)

    def unfollow(self, producer_id: str) -> None:
        """Stop following ``producer_id`` and drop its view; what is still queued for it is dropped,
        and a connection the transport made is forgotten."""
        f = self._followed.pop(producer_id, None)
        if f is None:
            return
        self._out = [o for o in self._out if o.peer_id != producer_id]
        # a connection a poll handed to the transport is forgotten, whichever record of the producer
        # made it (a disconnect queued by an earlier unfollow was just dropped); one only queued is just dropped
        if producer_id in self._transport_holds:
            self._out.append(DisconnectPeer(producer_id))

    def view(self, producer_id: str) -> dict[str, dict] | None:
        """The producer's ready items by item key id, or ``None`` before a snapshot of its
        current epoch has been applied (or when it is not followed)."""
        f = self._followed.get(producer_id)
        return f.view if f is not None and f.synced else None

    def handle_peer_unreachable(self, producer_id: str, now: float) -> None:
        """The transport lost ``producer_id``: it is gone [P8]. A connection is forgotten at once;
        a later poll subscribes anew (Hello first), no sooner than ``retry_ms`` after the last request."""
        now = self._last_now = checked_now(now, self._last_now, log)  # [I1] time never goes back
        f = self._followed.get(producer_id)
        if f is None:
            return
        f.gone = True
        self._lost(f, "unreachable", now)
        # [P8] nothing reaches it before the new Hello: what was queued for it before the report is dropped
        self._out = [o for o in self._out if o.peer_id != producer_id or not isinstance(o, Send)]
        self._forget(f)

    def handle_message(self, sender: str, data: bytes, now: float) -> None:
        """Handle encoded envelope bytes; what does not decode is ignored [C10]."""
        try:
            envelope = codec.decode("ectp.v1.Envelope", data)
        except Exception:  # noqa: BLE001 - malformed input is ignored, never raised [I1]
            self._ignore("malformed")
            return
        self.handle_envelope(sender, envelope, now)

    def handle_envelope(self, sender: str, envelope: Any, now: float) -> None:
        """Handle a decoded envelope (dict form) from ``sender``. Never raises [I1]."""
        now = self._last_now = checked_now(now, self._last_now, log)  # [I1] time never goes back
        try:
            self._dispatch(sender, envelope, now)
        except Exception:  # noqa: BLE001 - [I1] a bug costs one message, never the subscriber
            self._ignore("malformed")
            # [E2] One that raised after it showed a newer epoch (view reset) must not leave that epoch
            # unasked: nothing else would ever ask it (its heartbeats keep it from falling silent).
            f = self._followed.get(sender)
            if f is not None and f.epoch > 0 and not f.synced and f.want is None:
                self._subscribe(f, now)

    def poll(self, now: float) -> list[Output]:
        """Re-send unanswered requests, subscribe anew to silent or unreachable producers, catch
        up while idle, send heartbeats; return (and clear) the queued outputs."""
        now = self._last_now = checked_now(now, self._last_now, log)  # [I1] time never goes back
        for f in list(self._followed.values()):
            # [E2][I4] an assembly nobody awaits whose parts stopped coming retry_ms ago is abandoned:
            # nothing else would release it (a synced subscriber asks nothing more).
            if f.assembly is not None and f.want != "snapshot" and now >= f.assembly_at + self.retry_ms:
                f.assembly = None
            if f.gone:
                if now >= f.want_sent_at + self.retry_ms:  # [P8] nothing but a new subscription
                    f.gone = False
                    f.last_heard = now
                    self._subscribe(f, now)
            elif now >= f.last_heard + self._silence_ms(f):  # (as next_deadline computes it)
                # [P8] silent past its heartbeats: gone (it may have restarted and forgotten us). Its
                # transport forgets it, and it is subscribed to anew, its connection loaded again first.
                f.last_heard = now
                self._lost(f, "silent", now)
                self._forget(f)
                self._subscribe(f, now)
            elif f.want is not None and now >= self._retry_at(f):
                if f.want == "snapshot":
                    # [E2] the parts still missing retry_ms after the latest are lost: the retry's answer replaces
                    # the assembly (and one of an absurd snapshot_id, kept, would have every answer ignored for good).
                    f.assembly = None
                    # any complete answer now closes it: a producer whose ReplayUnavailable named a ``latest`` its
                    # snapshots never reach is not asked for one every retry_ms for good (the gap left is replayed, or given up)
                    f.snapshot_floor = 0
                if f.want == "snapshot" and f.greet_on_retry:
                    self._subscribe(f, now)  # still unanswered: again whole, Hello first (it may reach a restarted epoch)
                elif f.want == "snapshot":
                    self._request_snapshot(f, now)
                else:
                    self._request_replay(f, now)
            elif f.want is None and f.synced and now >= f.next_catch_up:
                # [E2] a lost last batch shows no gap: ask for what follows the last applied.
                f.next_catch_up = now + self.catch_up_ms
                f.want_sent_at = now  # [P8] a request too: one reported unreachable after it is subscribed to anew retry_ms after it
                f.view_drops = 0  # the view stayed within max_view_bytes since the last drop: waits start over
                self._send(f, {"replayRequest": {"fromSequence": f.applied + 1}})
            if now >= f.next_heartbeat:
                f.next_heartbeat = now + self.heartbeat_interval_ms
                if not f.gone:  # a gone producer's next message is the new Hello
                    self._heartbeat_sequence += 1
                    self._send(f, {"heartbeat": {"sequence": self._heartbeat_sequence}})
        synced = 0
        for f in self._followed.values():
            if not self._current(f):
                continue
            synced += 1
            if f.lost_at is not None:
                log.info("producer %s synced again (epoch %d) after %s ms", f.id, f.epoch, now - f.lost_at)
                f.lost_at = None
        self.metrics["ectp_subscriber_synced_producers"] = synced  # a gauge, in the same dict as the counters
        out, self._out = self._out, []
        for o in out:
            if isinstance(o, ConnectPeer):
                self._transport_holds.add(o.peer_id)
            elif isinstance(o, DisconnectPeer):
                self._transport_holds.discard(o.peer_id)
            # requests are counted as they go out: one dropped while queued (unfollow, an unreachable report) never does
            elif "snapshotRequest" in o.envelope:
                self._counts["snapshotRequests"] += 1
            elif "replayRequest" in o.envelope:
                self._counts["replayRequests"] += 1
        return out

    def next_deadline(self) -> float | None:
        """When :meth:`poll` must be called next; ``None`` when nothing is followed."""
        if self._out:
            return self._last_now
        deadlines = []
        for f in self._followed.values():
            d = f.next_heartbeat
            if f.assembly is not None and f.want != "snapshot":
                d = min(d, f.assembly_at + self.retry_ms)  # [E2][I4] when poll drops an assembly nobody awaits
            if f.gone:
                # [P8] subscribed to anew after retry_ms; its silence is not judged meanwhile
                d = min(d, f.want_sent_at + self.retry_ms)
            else:
                d = min(d, f.last_heard + self._silence_ms(f))
                if f.want is not None:
                    d = min(d, self._retry_at(f))
                elif f.synced:
                    d = min(d, f.next_catch_up)
            deadlines.append(d)
        return min(deadlines) if deadlines else None

    def stats(self) -> dict[str, int]:
        """Counters, as the testee protocol's SubscriberStats, and ``viewBytes`` (what the views hold)."""
        followed = self._followed.values()
        synced = sum(1 for f in followed if self._current(f))
        return {"producers": len(self._followed), "synced": synced, **self._counts,
                "heldBatches": sum(len(f.held) for f in followed),
                "snapshotParts": sum(len(f.assembly["got"]) if f.assembly else 0 for f in followed),
                # bytes the views hold, as max_view_bytes counts them (not a SubscriberStats field: GetStats leaves it out)
                "viewBytes": sum(f.view_bytes for f in followed)}

    # ------------------------------------------------------------------------- input

    def _dispatch(self, sender: str, env: Any, now: float) -> None:
        f = self._followed.get(sender)
        version = env.get("version") if isinstance(env, dict) else None
        sep = env.get("senderEpoch") if isinstance(env, dict) else None
        # [V1] another major; [C10] unknown senders, spoofed ids, malformed epochs.
        if (f is None or not isinstance(version, dict) or version.get("major", 0) != SPEC_MAJOR
                or env.get("senderId") != sender or not is_positive_id(sep)):
            if f is None:
                self._ignore("unknown_peer")
            elif not isinstance(version, dict) or version.get("major", 0) != SPEC_MAJOR:
                self._ignore("version")
            elif env.get("senderId") != sender:
                self._ignore("sender_mismatch")
            else:
                self._ignore("malformed")
            return
        if sep < f.epoch:
            self._ignore("stale_epoch")  # [P8] an older epoch's message
            return
        if f.connection is not None and sep < f.connection[0]:
            # [P8] older than the connection the deployment gave: that epoch no longer runs, and its answers
            # still in flight must not bring its view back. An answer also shows that a request sent after
            # that follow() may have reached it, not the new epoch: that one is greeted and asked anew when
            # it first speaks (a second Hello changes nothing, SPEC.md 4.1).
            if "snapshot" in env or "replayUnavailable" in env:
                f.asked_epoch = 0
                f.subscribing = False
            self._ignore("stale_epoch")
            return
        f.last_heard = now
        unasked = False  # set when a new epoch's first message is a snapshot, taken as the answer to a request not yet sent
        if sep > f.epoch:
            # [E2] a greater epoch: the view is void and sequences restart.
            # follow() already greeted and asked this epoch (the first heard, or a newer connection's).
            # Or a new subscription after silence or loss reached it. (follow()'s subscription is
            # ``subscribing`` until answered: the first epoch heard is asked unless an older epoch's
            # answer showed [P8] that the request may have reached that one instead.)
            first = f.want == "snapshot" and (f.asked_epoch == sep or f.subscribing)
            # [P8] a new subscription (after silence or loss) to an epoch we knew may have gone out before
            # the producer restarted, and so reached the older epoch: this one is greeted for sure below
            greet_again = first and f.subscribing and f.epoch != 0 and f.asked_epoch != sep
            f.epoch = sep
            self._reset(f)
            f.producer_interval_ms = DEFAULT_HEARTBEAT_MS  # [P8] the older epoch's Hello said it; the new one's will tell
            if f.connection is not None and f.connection[0] < sep:
                # [P8] the older epoch's transport metadata is void: forget its connection (only the
                # deployment knows the new epoch's: said once per epoch)
                log.warning("producer %s restarted (epoch %d): the connection given for epoch %d is void; "
                            "call follow() with the new epoch's metadata", f.id, sep, f.connection[0])
                f.connection = None
                if f.connected_epoch != 0:
                    f.connected_epoch = 0
                    self._out.append(DisconnectPeer(f.id))
            if first:
                f.want = "snapshot"
                if greet_again:
                    # its first message from us is then a Hello (SPEC.md 4; a second Hello of an epoch that got
                    # one is answered and changes nothing, 4.1); the SnapshotRequest, if it went astray, is retried
                    self._hello(f)
            elif "snapshot" in env:
                # this answer may be whole; if it is a part, the retry asks again when the rest is lost
                self._hello(f)
                f.want, f.want_sent_at = "snapshot", now
                unasked = True
            elif "replayUnavailable" in env:
                self._hello(f)  # the first message to an epoch is a Hello; the handler below asks
            else:
                self._subscribe(f, now)
        if "eventBatch" in env:
            self._on_batch(f, env["eventBatch"], now)
        elif "snapshot" in env:
            if not self._on_snapshot(f, env["snapshot"], now) and unasked:
                # [E2][C10] one it ignores answers nothing: the new epoch is asked now, as for any other first message
                self._request_snapshot(f, now)
                f.subscribing = f.greet_on_retry = True
        elif "replayUnavailable" in env:
            latest = env["replayUnavailable"].get("latest", 0)
            if f.synced and isinstance(latest, int) and latest <= f.applied:
                self._ignore("duplicate")  # stale: we applied more than it reports
            else:
                # [E2] the gap cannot be replayed. Batches up to ``latest`` exist: the view is behind until they
                # (or a snapshot as new) are applied, whatever older answer arrives meanwhile (not synced, a gap replayed).
                if isinstance(latest, int) and not isinstance(latest, bool) and -MAX_SAFE_INTEGER <= latest < MAX_SAFE_INTEGER:
                    f.max_seen = max(f.max_seen, latest)
                    f.snapshot_floor = max(f.snapshot_floor, latest)
                self._request_snapshot(f, now)
        elif "hello" in env:
            role = env["hello"].get("role", Role.UNSPECIFIED)
            if role not in (Role.PRODUCER, Role.BOTH) or f.heard_hello_epoch == sep:
                # SPEC.md 4.1 [C10]: a Hello of a role that serves no events, or a duplicate, is counted and changes nothing
                self._ignore("unexpected" if role not in (Role.PRODUCER, Role.BOTH) else "duplicate")
            else:
                f.heard_hello_epoch = sep
                # [P8] judged by its own interval (0: 2000 ms; counted as at most 60 s)
                f.producer_interval_ms = peer_heartbeat_interval_ms(env["hello"].get("heartbeatIntervalMs", 0), self.heartbeat_interval_ms)
        elif "handshakeReject" in env:
            self._ignore("refused")  # the producer refused our Hello
            # [E2] logged at warning level for the operator (e.g. a fingerprint that differs); it keeps following
            reject = env["handshakeReject"] if isinstance(env["handshakeReject"], dict) else {}
            reason = reject.get("reason")
            # the reason by name (INCOMPATIBLE), as metrics label it; a value this version does not know, as its number
            named = Reason.name(reason) if isinstance(reason, int) and not isinstance(reason, bool) else reason
            log.warning("producer %s refused this subscriber's Hello (reason %s): %s", f.id, named,
                        str(reject.get("detail", ""))[:200])
        elif "heartbeat" not in env:
            self._ignore("unexpected")  # [C10] a body a subscriber never receives, or none (SPEC.md 4)

    def _on_batch(self, f: _Followed, batch: dict, now: float) -> None:
        seq = batch.get("sequence", 0)
        events = batch.get("events", [])
        # 2^53 - 1 is malformed here: the ReplayRequest after it could not be sent (SPEC.md 3.8)
        if not is_positive_id(seq) or seq >= MAX_SAFE_INTEGER or not isinstance(events, list):
            self._ignore("malformed")
            return
        if f.synced and seq <= f.applied:
            self._ignore("duplicate")  # [E2] a duplicate: delivery is at least once
            return
        if seq in f.held:
            self._ignore("duplicate")  # [C10][E2] a duplicate of a batch held behind a gap
            return
        ops = _read_events(events)
        f.max_seen = max(f.max_seen, seq)
        if f.synced and seq == f.applied + 1:
            self._apply(f, seq, ops)
            if f.view_bytes > self.max_view_bytes:
                self._drop_view(f, now)
            else:
                self._drain_held(f, now)
            return
        room = len(f.held) < self.max_held and self._held_events(f) + len(ops) <= self.max_held_events
        size = _ops_bytes(ops) if room else 0
        if room and sum(f.held_bytes.values()) + size <= self.max_held_bytes:
            # Ahead of a gap, or before the first snapshot; a dropped one is replayed (max_seen).
            f.held[seq] = ops
            f.held_bytes[seq] = size
        else:
            self._ignore("hold_full")  # the hold is full: dropped now, replayed later, counted as every drop is
        if f.synced and f.want is None:
            self._request_replay(f, now)  # [E2] from the first missing sequence

    def _on_snapshot(self, f: _Followed, snap: dict, now: float) -> bool:
        """Take a Snapshot (part) [E2]; False when it is ignored [C10]."""
        sid = snap.get("snapshotId", 0)
        sequence = snap.get("sequence", 0)
        parts = snap.get("parts", 0) or 1
        part = snap.get("part", 0)
        items = snap.get("items", [])
        # SPEC.md 3.8: values past 2^53 - 1 are malformed (one such id would make every later snapshot "not newer").
        if not all(isinstance(v, int) and 0 <= v <= MAX_SAFE_INTEGER for v in (sid, sequence, parts, part)) or part >= parts \
                or sequence >= MAX_SAFE_INTEGER or not isinstance(items, list):
            self._ignore("malformed")
            return False
        a = f.assembly
        # [E2] an answer not newer than the one applied (none before the first of the epoch: last_snapshot_id -1),
        # or older than the one being assembled: ignored
        # (one whose id did not grow but whose sequence is newer than the view is taken: a producer whose
        # ids went wrong once would otherwise be asked for snapshots without end).
        if (sid <= f.last_snapshot_id and sequence <= f.applied) or (a is not None and sid < a["id"]):
            self._ignore("duplicate")
            return False
        if sid <= f.dropped_snapshot_id and sequence <= f.dropped_snapshot_sequence:
            self._ignore("view_full")  # [E2] a part of an answer dropped as too large, or of an older one
            return False
        if a is not None and sid == a["id"] and (a["parts"] != parts or a["sequence"] != sequence or part in a["got"]):
            self._ignore("duplicate" if part in a["got"] else "malformed")  # inconsistent with its answer, or a duplicate part
            return False
        entries = [(kid, d, _entry_bytes(kid, d)) for d in items if isinstance(d, dict) for kid in [item_key_id(d.get("key"))] if kid]
        size = sum(n for _, _, n in entries)
        if not entries and parts > 1:
            size = EMPTY_PART_BYTES  # [E2][I4] an empty part still costs its keep (a whole empty snapshot is applied at once)
        if a is None or sid > a["id"]:
            a = {"id": sid, "sequence": sequence, "parts": parts, "got": {}, "bytes": 0}
            f.assembly = a
        if a["bytes"] + size > self.max_view_bytes:
            # [E2] a subscriber MAY drop an answer larger than it is prepared to hold: the request in flight,
            # if any, is asked again once the wait is over, and the producer's answer then may fit
            f.assembly = None
            f.dropped_snapshot_id, f.dropped_snapshot_sequence = sid, sequence
            self._view_full(f, now)
            log.warning("snapshot dropped: it holds more than max_view_bytes; raise max_view_bytes to follow this producer "
                        "(producer %s, snapshot_id %d, %d parts, %d bytes so far, max_view_bytes %d)",
                        f.id, sid, parts, a["bytes"] + size, self.max_view_bytes)
            return False
        a["got"][part] = entries
        a["bytes"] += size
        f.assembly_at = now
        if len(a["got"]) < a["parts"]:
            if f.want == "snapshot":
                # a part of the answer awaited is progress: ask again only retry_ms after the latest one
                f.want_sent_at = max(f.want_sent_at, now)
            return True
        f.assembly = None
        f.last_snapshot_id = sid
        f.subscribing = f.greet_on_retry = False
        # [E2] an answer that fits ends the wait after a drop (it held back asking again): a request made later
        # (a ReplayUnavailable, a new subscription) goes out at once. Drops in a row still count.
        f.snapshot_not_before = 0
        f.replay_retries = 0
        # [E2] it answers the SnapshotRequest in flight unless that one asked for more than it reflects
        # (a late answer to an older request: the one in flight is still retried after retry_ms)
        if f.want == "snapshot" and sequence >= f.snapshot_floor:
            f.want, f.snapshot_floor = None, 0
        f.next_catch_up = now + self.catch_up_ms
        if not f.synced or sequence > f.applied:
            f.view, f.view_sizes, f.view_bytes = {}, {}, 0
            for p in range(a["parts"]):
                for kid, d, n in a["got"][p]:
                    _set_entry(f, kid, d, n)
            f.applied = sequence
            f.synced = True
            f.max_seen = max(f.max_seen, sequence)
            self._counts["snapshotsApplied"] += 1
        self._drain_held(f, now)
        return True

    @staticmethod
    def _held_events(f: _Followed) -> int:
        return sum(len(ops) for ops in f.held.values())

    def _drain_held(self, f: _Followed, now: float) -> None:
        while f.applied + 1 in f.held:
            seq = f.applied + 1
            f.held_bytes.pop(seq, None)
            self._apply(f, seq, f.held.pop(seq))
            if f.view_bytes > self.max_view_bytes:
                self._drop_view(f, now)  # the rest stay held, for after the snapshot
                return
        for s in [s for s in f.held if s <= f.applied]:
            del f.held[s]
            f.held_bytes.pop(s, None)
        if f.max_seen > f.applied:
            self._request_replay(f, now)
        else:
            # [E2] retries are counted until the gap closes, not reset by each live batch applied meanwhile:
            # a batch past anything published is given up while the producer keeps publishing too.
            f.replay_retries = 0
            if f.want == "replay":
                f.want = None

    @staticmethod
    def _apply(f: _Followed, seq: int, ops: list) -> None:
        """[E1] apply one batch's events in order."""
        for op in ops:
            if op is None:
                _clear_view(f)
            elif op[1] is None:
                _delete_entry(f, op[0])
            else:
                _set_entry(f, op[0], op[1], op[2])
        f.applied = seq

    def _drop_view(self, f: _Followed, now: float) -> None:
        """[E2] The view passed ``max_view_bytes`` (a batch just applied grew it): drop it, and ask for a snapshot
        once the wait is over; it is taken once it fits. Until then the producer is not synced and has no view.
        Held batches stay: they apply after the snapshot where they follow on."""
        log.warning("view dropped: the producer's items passed max_view_bytes; raise max_view_bytes to follow this producer "
                    "(producer %s, %d bytes, %d items, max_view_bytes %d)", f.id, f.view_bytes, len(f.view), self.max_view_bytes)
        _clear_view(f)
        f.synced = False
        self._view_full(f, now)
        self._request_snapshot(f, now)

    def _view_full(self, f: _Followed, now: float) -> None:
        """[E2] Count a drop for ``max_view_bytes`` and start its wait: the next SnapshotRequest goes out ``retry_ms``
        after it, twice that after a second drop in a row, and so on up to 32 times, since each answer costs the
        producer and the network up to ``max_view_bytes``."""
        self._ignore("view_full")
        f.view_drops += 1
        f.snapshot_not_before = now + self.retry_ms * 2 ** min(f.view_drops - 1, 5)

    def _retry_at(self, f: _Followed) -> float:
        """When the request in flight is asked again: ``retry_ms`` after it was sent, and for a snapshot not before
        the wait after a drop."""
        at = f.want_sent_at + self.retry_ms
        return f.snapshot_not_before if f.want == "snapshot" and f.snapshot_not_before > at else at

    def _ignore(self, reason: str, count: int = 1) -> None:
        """[C10] count ``count`` ignored messages, in ``stats()`` and in the metric, under ``reason``."""
        self._counts["ignoredMessages"] += count
        self.metrics[f'ectp_subscriber_ignored_messages_total{{reason="{reason}"}}'] += count

    def _drop_unreplayed(self, f: _Followed, now: float) -> None:
        """[E2] a gap the retries did not close: forget the batches seen past ``applied`` and catch up."""
        if f.held:
            self._ignore("gap_given_up", len(f.held))
        f.held, f.held_bytes, f.max_seen, f.want, f.replay_retries = {}, {}, f.applied, None, 0
        f.next_catch_up = now + self.catch_up_ms

    # ------------------------------------------------------------------------- output

    def _reset(self, f: _Followed) -> None:
        f.synced, f.applied, f.max_seen, f.want, f.replay_retries = False, 0, 0, None, 0
        f.snapshot_floor = 0
        f.view, f.held, f.held_bytes, f.assembly, f.last_snapshot_id = {}, {}, {}, None, -1
        f.view_sizes, f.view_bytes = {}, 0
        f.dropped_snapshot_id, f.dropped_snapshot_sequence, f.view_drops, f.snapshot_not_before = 0, -1, 0, 0
        f.subscribing = False

    def _silence_ms(self, f: _Followed) -> float:
        return 3 * max(f.producer_interval_ms, self.heartbeat_interval_ms, self.retry_ms)

    @staticmethod
    def _current(f: _Followed) -> bool:
        """Synced: a snapshot applied, nothing seen but not applied, nothing asked, and not declared gone [P8]."""
        return not f.gone and f.synced and f.max_seen <= f.applied and f.want is None

    def _lost(self, f: _Followed, cause: str, now: float) -> None:
        """[P8] a producer declared gone (silent or unreachable): the first time since a poll last found it
        synced (or since it was followed), counted and logged at warning level; within the same outage, at
        debug level only (a producer that stays away is declared gone again every retry)."""
        if f.lost_at is not None:
            log.debug("producer %s still lost (%s)", f.id, cause)
            return
        f.lost_at = now
        self.metrics[f'ectp_subscriber_producers_lost_total{{cause="{cause}"}}'] += 1
        log.warning("producer %s lost (%s, epoch %d); following it anew (it is not synced, and its view is kept "
                    "until it answers)", f.id, cause, f.epoch)

    def _forget(self, f: _Followed) -> None:
        """[P8] a producer declared gone (unreachable or silent) is forgotten: its transport connection
        (so the new subscription loads its metadata again) and the Hello applied (SPEC.md 4.1)."""
        f.heard_hello_epoch = 0
        if f.connected_epoch != 0:
            f.connected_epoch = 0
            self._out.append(DisconnectPeer(f.id))

    def _subscribe(self, f: _Followed, now: float) -> None:
        self._hello(f)
        self._request_snapshot(f, now)
        f.subscribing = f.greet_on_retry = True

    def _hello(self, f: _Followed) -> None:
        """SPEC.md 4.1: the first message to each epoch of a peer; ``events.v1`` subscribes [E1]. A gone
        producer may be sent others after it [P8]."""
        f.gone = False
        self._send(f, {"hello": {"role": Role.CONSUMER, "capabilities": [EVENTS_CAPABILITY], "fingerprint": f.fingerprint,
                                 "transportMetadata": self.transport_metadata,
                                 "heartbeatIntervalMs": self.heartbeat_interval_ms}})

    def _request_snapshot(self, f: _Followed, now: float) -> None:
        if f.gone:
            f.want = "snapshot"  # [P8] nothing before the new Hello: the new subscription asks for it
            return
        f.want, f.want_sent_at = "snapshot", now
        if now < f.snapshot_not_before:
            return  # [E2] waiting after a drop for max_view_bytes: poll asks when it is over
        self._send(f, {"snapshotRequest": {}})

    def _request_replay(self, f: _Followed, now: float) -> None:
        if f.want == "snapshot" or (f.want == "replay" and now < f.want_sent_at + self.retry_ms):
            return
        if f.gone:
            return  # [P8] nothing before the new Hello; the new subscription's snapshot covers the gap
        if f.want == "replay":
            # [E2] asked again, whether a poll or a batch still behind the gap noticed it: a retry; after
            # MAX_REPLAY_RETRIES that did not close the gap, the batches seen beyond it are given up
            f.replay_retries += 1
            if f.replay_retries > MAX_REPLAY_RETRIES:
                self._drop_unreplayed(f, now)
                return
        f.want, f.want_sent_at = "replay", now
        self._send(f, {"replayRequest": {"fromSequence": f.applied + 1}})

    def _send(self, f: _Followed, body: dict) -> None:
        if f.connection is not None and f.connected_epoch != f.connection[0]:
            f.connected_epoch = f.connection[0]  # the transport loads the metadata first
            self._out.append(ConnectPeer(f.id, f.connection[0], f.connection[1]))
        body["version"] = spec_version()
        body["senderId"] = self.id
        body["senderEpoch"] = self.epoch
        self._out.append(Send(f.id, body))


def _fingerprint_argument(producer_id: str, fingerprint: Any) -> dict:
    """[P7] ``follow``'s fingerprint as the ``ectp.v1.Fingerprint`` dict its Hellos carry.
    :raises ValueError: for one that is not a dict of the four fields with values the wire carries."""
    where = f"follow({producer_id}): fingerprint"
    if isinstance(fingerprint, dict):
        for key in fingerprint:
            if key not in FINGERPRINT_FIELDS:
                raise ValueError(f"{where} has {key!r}, not a fingerprint field; the fields are {', '.join(FINGERPRINT_FIELDS)}")
    fp = normalize_fingerprint(fingerprint)
    if fp is None:
        raise ValueError(f"{where} is malformed (a dict of {', '.join(FINGERPRINT_FIELDS)}); got {fingerprint!r:.200}")
    return fp.to_msg()


def _entry_bytes(key_id: str, item: dict | None) -> int:
    """What the subscriber counts an entry as holding, in the hold's and the view's byte bounds: the length of its key
    id (a Removed event keeps only that, and a fingerprint model may be as long as a frame allows) plus its descriptor's
    encoded size (one that cannot be encoded counts as the 64 KiB a descriptor may take)."""
    if item is None:
        return len(key_id)
    try:
        return len(key_id) + len(codec.encode("ectp.v1.ItemDescriptor", item))
    except Exception:  # noqa: BLE001 - any value the encoder refuses
        return len(key_id) + 65_536


def _set_entry(f: _Followed, key_id: str, item: dict, n: int) -> None:
    """Set ``key_id`` to ``item``, counted as holding ``n`` bytes (:func:`_entry_bytes`, measured once, on receipt),
    in ``f``'s view."""
    f.view_bytes += n - f.view_sizes.get(key_id, 0)
    f.view[key_id] = item
    f.view_sizes[key_id] = n


def _delete_entry(f: _Followed, key_id: str) -> None:
    """Remove ``key_id`` from ``f``'s view, with what it was counted as holding."""
    f.view_bytes -= f.view_sizes.pop(key_id, 0)
    f.view.pop(key_id, None)


def _clear_view(f: _Followed) -> None:
    """Empty ``f``'s view."""
    f.view.clear()
    f.view_sizes.clear()
    f.view_bytes = 0


def _ops_bytes(ops: list) -> int:
    """The bytes the events ``ops`` keep (:func:`_entry_bytes` of each)."""
    return sum(op[2] for op in ops if op is not None)


def _read_events(events: list) -> list:
    """A batch's events as operations: (key id, item, bytes) stores, (key id, None, bytes) removes, None clears,
    ``bytes`` being what each keeps (:func:`_entry_bytes`). Events with an unusable key or of a kind this version does
    not know are left out [E1]."""
    ops: list = []
    for e in events:
        if not isinstance(e, dict):
            continue
        stored = e.get("stored")
        removed = e.get("removed")
        if isinstance(stored, dict) and isinstance(stored.get("item"), dict):
            kid = item_key_id(stored["item"].get("key"))
            if kid:
                ops.append((kid, stored["item"], _entry_bytes(kid, stored["item"])))
        elif isinstance(removed, dict):
            kid = item_key_id(removed.get("key"))
            if kid:
                ops.append((kid, None, _entry_bytes(kid, None)))
        elif "cleared" in e:
            ops.append(None)
    return ops

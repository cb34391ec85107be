"""Snapshot assemblies nobody completes, a late answer to an older SnapshotRequest, and the held
batches' byte bound against key ids: the Python side of the TypeScript subscriber's review of
2026-12-04 (packages/core/src/subscriber/assemblies-late-answers-and-key-bytes.test.ts). Each
test failed before its fix in subscriber.py."""

from __future__ import annotations

import unittest

from ectp_py import codec
from ectp_py.subscriber import EventSubscriber, _ops_bytes, _read_events
from ectp_py.wire import MAX_SAFE_INTEGER

from .helpers import FP
from .test_subscriber import P, batch, bodies, env, item, kid, snapshot, stored


def following(**options) -> EventSubscriber:
    """A subscriber following P (its Hello and SnapshotRequest taken at t=0), nothing answered yet."""
    sub = EventSubscriber("R1", 1, FP, **options)
    sub.follow(P, 0)
    sub.poll(0)
    return sub


def requests(sub: EventSubscriber, now: int) -> list[str]:
    """The bodies ``poll(now)`` sends, heartbeats left out."""
    return [b for b in bodies(sub.poll(now)) if b != "heartbeat"]


def answer_snapshot_requests(sub: EventSubscriber, start: int, stop: int, sequence: int, item: str) -> int:
    """Drive ``sub`` from ``start`` to ``stop`` ms, every 100 ms, as a live producer (a heartbeat each time) that
    answers each SnapshotRequest at once with a whole snapshot of ``item`` at ``sequence``, its ids counting
    2, 3, ...; return how many SnapshotRequests it got."""
    requests, sid = 0, 2
    for t in range(start, stop + 1, 100):
        for body in bodies(sub.poll(t)):
            if body == "snapshotRequest":
                requests += 1
                sub.handle_envelope(P, snapshot(sequence, sid, [item]), t)
                sid += 1
        sub.handle_envelope(P, env({"heartbeat": {"sequence": t}}), t)
    return requests


def synced_count(sub: EventSubscriber) -> int:
    """``stats()['synced']``: a snapshot applied, nothing seen but not applied, nothing asked, not gone."""
    return sub.stats()["synced"]


def tables_left(sub: EventSubscriber) -> list[str]:
    """[I4] What the subscriber's private tables hold beyond its views, each as a line ([] when nothing)."""
    left = []
    for f in sub._followed.values():  # noqa: SLF001 - the test reads the real tables, not only the counters
        if f.held or f.held_bytes:
            left.append(f"{f.id} held: {len(f.held)} ({sum(f.held_bytes.values())} bytes)")
        if f.assembly is not None:
            left.append(f"{f.id} assembly: {len(f.assembly['got'])} parts")
    return left


class SnapshotAssembliesNobodyCompletesTest(unittest.TestCase):
    # [I4][E2] a part of a second answer (the retry's) whose other parts are lost is not kept for good by a
    # synced subscriber: nobody awaits it, so it goes retry_ms after its latest part
    def test_i4_e2_an_assembly_nobody_awaits_is_dropped_retry_ms_after_its_latest_part(self):
        sub = following(retry_ms=2000)
        sub.poll(2000)  # the retry SnapshotRequest
        # The first answer arrives late (after the retry went out): whole, applied.
        sub.handle_envelope(P, snapshot(3, 1, ["A"]), 2100)
        # The answer to the retry is split; its part 1 is lost.
        sub.handle_envelope(P, snapshot(3, 2, ["A"], part=0, parts=2), 2200)
        self.assertEqual(synced_count(sub), 1)
        # An hour of an idle, live producer.
        for t in range(2300, 3_600_001, 1000):
            sub.handle_envelope(P, env({"heartbeat": {"sequence": t}}), t)
            sub.poll(t)
        self.assertEqual(synced_count(sub), 1)
        self.assertEqual((sub.stats()["snapshotParts"], tables_left(sub)), (0, []))

    # [I4][E2] next_deadline names the time such an assembly goes: a driver that sleeps until then drops it on time
    def test_i4_e2_next_deadline_names_when_an_assembly_nobody_awaits_goes(self):
        sub = following(retry_ms=2000, heartbeat_interval_ms=60_000, catch_up_ms=60_000)
        sub.handle_envelope(P, snapshot(3, 1, ["A"]), 100)
        sub.handle_envelope(P, snapshot(3, 2, ["A"], part=0, parts=2), 200)
        self.assertEqual(sub.next_deadline(), 2200)
        sub.poll(2199)
        self.assertEqual(sub.stats()["snapshotParts"], 1)
        sub.poll(2200)
        self.assertEqual((sub.stats()["snapshotParts"], synced_count(sub)), (0, 1))

    # [E2] one stray part with an absurd snapshot_id does not make every later snapshot answer ignored
    # (the subscriber asked for snapshots without end): a snapshot retry drops the assembly it replaces
    def test_e2_a_stray_part_of_an_absurd_id_does_not_have_every_later_answer_ignored(self):
        sub = following(retry_ms=2000)
        sub.handle_envelope(P, snapshot(0, 1, []), 10)
        # A buggy or hostile part: parts 2, the other never sent.
        sub.handle_envelope(P, snapshot(0, MAX_SAFE_INTEGER - 1, ["B"], part=0, parts=2), 20)
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 5, "latest": 9}}), 30)  # a gap the buffer cannot fill
        requests = answer_snapshot_requests(sub, 30, 60_030, 9, "A")
        self.assertEqual((synced_count(sub), requests <= 5, sorted(sub.view(P) or {})), (1, True, [kid("A")]))


class ALateAnswerToAnOlderSnapshotRequestTest(unittest.TestCase):
    # [E2] it does not close the SnapshotRequest a ReplayUnavailable made: the subscriber stays behind (not
    # counted synced) until batches up to the ReplayUnavailable's latest, or a snapshot as new, are applied
    def test_e2_a_late_older_answer_after_replay_unavailable_leaves_the_subscriber_behind(self):
        sub = following(retry_ms=2000, catch_up_ms=5000)
        sub.poll(2000)  # the first answer is slow: the SnapshotRequest goes again
        sub.handle_envelope(P, snapshot(3, 1, ["A"]), 2100)  # answer to the first
        for s in range(4, 11):
            sub.handle_envelope(P, batch(s, stored(f"S{s}")), 2100 + s)
        self.assertEqual(synced_count(sub), 1)
        # The producer published 11..20, all lost, and its buffer no longer holds 11: the catch-up is refused.
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 15, "latest": 20}}), 2500)
        self.assertIn("snapshotRequest", bodies(sub.poll(2500)))
        self.assertEqual(synced_count(sub), 0)
        # The answer to the retry of t=2000 arrives now, late: it reflects sequence 3, older than the view.
        sub.handle_envelope(P, snapshot(3, 2, ["A"]), 2600)
        # The view is still at 10 of the producer's 20: the SnapshotRequest of t=2500 is still unanswered.
        self.assertEqual(synced_count(sub), 0)
        self.assertEqual(requests(sub, 2600), [])  # not a replay from 11: the buffer starts at 15
        self.assertEqual(requests(sub, 4600), ["snapshotRequest"])  # the request of t=2500, retried
        # The answer as new as latest brings it back.
        sub.handle_envelope(P, snapshot(20, 3, ["B"]), 4700)
        self.assertEqual((synced_count(sub), sorted(sub.view(P) or {})), (1, [kid("B")]))

    # [E2] a producer whose ReplayUnavailable names a latest its snapshots never reach is not asked for snapshots
    # without end: the request's one retry takes any answer, and the gap left is given up
    def test_e2_a_latest_no_snapshot_reaches_costs_one_retry(self):
        sub = following(retry_ms=2000, catch_up_ms=5000)
        sub.handle_envelope(P, snapshot(10, 1, ["A"]), 10)
        sub.handle_envelope(P, env({"replayUnavailable": {"oldestAvailable": 1, "latest": 100}}), 20)  # it published 10
        snapshot_requests = answer_snapshot_requests(sub, 20, 120_000, 10, "A")
        self.assertEqual((synced_count(sub), snapshot_requests), (1, 2))


class HeldBatchesByteBoundTest(unittest.TestCase):
    # [E2][I4] Removed events whose keys carry a large fingerprint model count against max_held_bytes: they
    # cannot make the hold grow past it (SPEC.md section 9: "a producer or a network that sends thousands of
    # batches past a gap cannot grow the subscriber's memory")
    def test_e2_i4_removed_events_with_a_large_fingerprint_model_count_against_max_held_bytes(self):
        max_held_bytes = 1 << 20
        sub = following(max_held_bytes=max_held_bytes)
        sub.handle_envelope(P, snapshot(0, 1, []), 10)
        # One Removed event per batch whose key's model is 512 KiB (a frame may carry 16 MiB): batch 1 is lost, 2..17 arrive.
        model = "m" * (512 << 10)
        for s in range(2, 18):
            key = {"contentHash": bytes([s]), "fingerprint": {**FP, "model": model}}
            # Over the wire, as a driver hands it.
            data = codec.encode("ectp.v1.Envelope", batch(s, {"removed": {"key": key}}))
            sub.handle_message(P, data, 20)
        f = sub._followed[P]  # noqa: SLF001 - the key ids the hold keeps, not only the counters
        kept_chars = sum(len(op[0]) for ops in f.held.values() for op in ops if op is not None)
        self.assertGreaterEqual(sub.stats()["ignoredMessages"], 14)  # the batches past the bound are dropped (replayed later)
        self.assertEqual((sub.stats()["heldBatches"] <= 2, kept_chars <= max_held_bytes), (True, True))

    # [E2] a Stored event's key id counts too, beside its descriptor's encoded size
    def test_e2_a_stored_events_key_id_counts_beside_its_descriptor(self):
        d = item("A")
        descriptor_bytes = len(codec.encode("ectp.v1.ItemDescriptor", d))
        ops = _read_events([{"stored": {"item": d}}, {"removed": {"key": d["key"]}}, {"cleared": {}}])
        self.assertEqual(_ops_bytes(ops), descriptor_bytes + 2 * len(kid("A")))


if __name__ == "__main__":
    unittest.main()

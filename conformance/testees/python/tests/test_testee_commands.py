"""The adapter command by command against TESTEE-PROTOCOL.md: answer kinds, error codes,
defaults, outputs and their fields, and the first-fit destination memory (section 5.1)."""

import json
import os
import unittest

from ectp_py import codec
from ectp_py.testee import ROLE_CONSUMER, ROLE_PRODUCER, ROLE_SUBSCRIBER, FirstFitPool, TesteeAdapter

from .helpers import FP, announcement, descriptor, envelope, item_bytes

FEATURES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "features.json")


def configured(role: int, **extra) -> TesteeAdapter:
    t = TesteeAdapter()
    r = t.handle({"commandId": 1, "nowMs": 0, "configure": {"role": role, "id": "X1", "epoch": 3, "fingerprint": FP, **extra}})
    assert "ok" in r, r
    return t


class HandshakeAndMisuseTest(unittest.TestCase):
    def test_init_speaks_version_1_only_and_reports_the_features_file(self):
        """Section 2 item 3: InitResult for version 1 (features as claimed in features.json),
        Error{UNSUPPORTED_PROTOCOL} for any other version, 0 (absent) included."""
        t = TesteeAdapter()
        r = t.handle({"commandId": 1, "nowMs": 0, "init": {"protocolVersion": 1}})
        self.assertEqual(r["init"]["protocolVersion"], 1)
        with open(FEATURES_FILE) as f:
            self.assertEqual(sorted(r["init"]["features"]), sorted(json.load(f)["features"]))
        for version in (0, 2):
            r = t.handle({"commandId": 2, "nowMs": 0, "init": {"protocolVersion": version}})
            self.assertEqual(r["error"]["code"], "UNSUPPORTED_PROTOCOL", version)
        self.assertEqual(t.handle({"commandId": 3, "nowMs": 0, "init": {}})["error"]["code"], "UNSUPPORTED_PROTOCOL")

    def test_every_command_but_init_and_configure_is_not_configured_before_configure(self):
        """Section 5 error codes: NOT_CONFIGURED before the first Configure; a request with no
        command is Unsupported{unknown-command} whatever the state."""
        key = {"contentHash": b"a", "fingerprint": FP}
        commands = {"poll": {}, "getStats": {}, "advanceClock": {}, "deliverMessage": {"from": "C1"},
                    "peerUnreachable": {"peerId": "C1"}, "admit": {"requestId": "r"}, "finishRequest": {},
                    "drainFailed": {}, "deliverReadResult": {"readId": 1}, "putItem": {}, "markReady": {"key": key},
                    "discard": {"key": key}, "evict": {"key": key}, "clearStore": {}, "announce": {"key": key},
                    "shutdown": {}, "readMemory": {}, "follow": {"producerId": "P1"}, "unfollow": {}, "getView": {}}
        t = TesteeAdapter()
        for name, body in commands.items():
            r = t.handle({"commandId": 7, "nowMs": 0, name: body})
            self.assertEqual(r, {"commandId": 7, "error": {"message": r["error"]["message"], "code": "NOT_CONFIGURED"}}, name)
        self.assertEqual(t.handle({"commandId": 8, "nowMs": 0}), {"commandId": 8, "unsupported": {"feature": "unknown-command"}})
        configured(ROLE_PRODUCER)  # and after Configure too:
        self.assertEqual(configured(ROLE_PRODUCER).handle({"commandId": 9, "nowMs": 0}),
                         {"commandId": 9, "unsupported": {"feature": "unknown-command"}})


    def test_an_unexpected_fault_in_a_command_is_an_internal_error_answer_and_the_testee_goes_on(self):
        """Section 5 error codes: an exception the adapter did not expect (here a PeerUnreachable
        body that is not a message) is Error{INTERNAL} naming it, never a crash of the process."""
        t = configured(ROLE_CONSUMER)
        r = t.handle({"commandId": 4, "nowMs": 0, "peerUnreachable": 5})
        self.assertEqual(r["commandId"], 4)
        self.assertEqual(r["error"]["code"], "INTERNAL")
        self.assertRegex(r["error"]["message"], r"^AttributeError: ")
        self.assertEqual(t.handle({"commandId": 5, "nowMs": 0, "getStats": {}})["commandId"], 5)
        self.assertIn("stats", t.handle({"commandId": 6, "nowMs": 0, "getStats": {}}))


class DeliverMessageTest(unittest.TestCase):
    HELLO = {"role": 2, "capabilities": ["events.v1"], "fingerprint": FP, "heartbeatIntervalMs": 2000}  # ectp.v1 Role CONSUMER

    def test_envelope_and_raw_reach_the_instance_from_the_named_peer(self):
        """Section 5: DeliverMessage hands `envelope` (or non-empty `raw`) from peer `from` to
        the instance and answers Ok; an empty `raw` means the envelope."""
        t = configured(ROLE_PRODUCER)
        r = t.handle({"commandId": 2, "nowMs": 10, "deliverMessage": {"from": "C1", "envelope": envelope("C1", 1, hello=self.HELLO), "raw": b""}})
        self.assertEqual(r, {"commandId": 2, "ok": {}})
        outs = t.handle({"commandId": 3, "nowMs": 10, "poll": {}})["poll"]["outputs"]
        self.assertEqual([(o["send"]["to"], o["send"]["envelope"]["senderId"], o["send"]["envelope"]["senderEpoch"]) for o in outs],
                         [("C1", "X1", 3)])
        raw = codec.encode("ectp.v1.Envelope", envelope("C2", 1, hello=self.HELLO))
        self.assertIn("ok", t.handle({"commandId": 4, "nowMs": 11, "deliverMessage": {"from": "C2", "raw": raw}}))
        outs = t.handle({"commandId": 5, "nowMs": 11, "poll": {}})["poll"]["outputs"]
        self.assertEqual([o["send"]["to"] for o in outs], ["C2"])
        self.assertIn("ok", t.handle({"commandId": 6, "nowMs": 12, "deliverMessage": {"from": "C3", "raw": b"\x0a"}}))
        stats = t.handle({"commandId": 7, "nowMs": 12, "getStats": {}})["stats"]["producer"]
        self.assertEqual((stats["peers"], stats["ignoredMessages"]), (2, 1))


class TimeTest(unittest.TestCase):
    def test_peer_unreachable_happens_at_now_ms_not_at_the_last_poll(self):
        """Section 4: every command passes its now_ms to the instance; AdvanceClock only moves time.
        A peer lost at t=1000 is retried after a backoff counted from 1000."""
        t = configured(ROLE_CONSUMER)
        desc = descriptor("a", item_bytes(8), producer="P1", epoch=5)
        item = {"itemId": "i", "announcement": announcement(desc), "hasModelInput": True}
        t.handle({"commandId": 2, "nowMs": 0, "admit": {"requestId": "r", "items": [item]}})
        t.handle({"commandId": 3, "nowMs": 0, "poll": {}})
        self.assertEqual(t.handle({"commandId": 4, "nowMs": 1000, "advanceClock": {}}), {"commandId": 4, "ok": {}})
        self.assertIn("ok", t.handle({"commandId": 5, "nowMs": 1000, "peerUnreachable": {"peerId": "P1"}}))
        poll = t.handle({"commandId": 6, "nowMs": 1000, "poll": {}})["poll"]
        self.assertEqual(poll["outputs"], [{"disconnectPeer": {"peerId": "P1"}}])
        self.assertGreater(poll["nextDeadlineMs"], 1000)


class ConfigureTest(unittest.TestCase):
    def test_capacities_default_to_256_mib_when_0(self):
        """Section 5 Configure: destination_capacity_bytes / store_capacity_bytes 0 = 256 MiB."""
        mib256 = 256 * 1024 * 1024
        t = configured(ROLE_CONSUMER, destinationCapacityBytes=0)
        self.assertIsNotNone(t.pool.allocate("k", mib256))
        self.assertIsNone(t.pool.allocate("k2", 1))
        t = configured(ROLE_CONSUMER, destinationCapacityBytes=64)
        self.assertIsNone(t.pool.allocate("k", 65))
        p = configured(ROLE_PRODUCER)
        desc = {"key": {"contentHash": b"a", "fingerprint": FP}, "sizeBytes": 4096}
        self.assertIn("putItem", p.handle({"commandId": 2, "nowMs": 0, "putItem": {"descriptor": desc, "data": bytes(4096)}}))
        p = configured(ROLE_PRODUCER, storeCapacityBytes=1024)
        self.assertIn("error", p.handle({"commandId": 2, "nowMs": 0, "putItem": {"descriptor": desc, "data": bytes(4096)}}))

    def test_initial_items_fill_the_store_before_the_producer_starts_and_one_refused_is_invalid(self):
        """Feature warm-start: Configure.initial_items are put and made ready before the producer is built, so
        its first batch stores them [E1]; one the store refuses makes the configuration invalid."""
        def item(name: bytes, size: int) -> dict:
            return {"descriptor": {"key": {"contentHash": name, "fingerprint": FP}, "sizeBytes": size}, "data": bytes(size)}
        t = TesteeAdapter()
        producer = {"role": ROLE_PRODUCER, "id": "X1", "epoch": 3, "fingerprint": FP, "storeCapacityBytes": 100}
        refused = t.handle({"commandId": 1, "nowMs": 0, "configure": {**producer, "initialItems": [item(b"a", 60), item(b"big", 120)]}})
        self.assertEqual(refused["error"]["code"], "INVALID_CONFIG")
        self.assertEqual(t.handle({"commandId": 2, "nowMs": 0, "poll": {}})["error"]["code"], "NOT_CONFIGURED")
        # two that the store takes one at a time but not together (the second evicts the first): invalid too
        apart = t.handle({"commandId": 5, "nowMs": 0, "configure": {**producer, "initialItems": [item(b"a", 60), item(b"b", 60)]}})
        self.assertIn("do not fit in the store together", apart["error"]["message"])
        self.assertIn("ok", t.handle({"commandId": 3, "nowMs": 0, "configure": {**producer, "initialItems": [item(b"a", 60)]}}))
        batches = [o["eventBatch"]["batch"] for o in t.handle({"commandId": 4, "nowMs": 0, "poll": {}})["poll"]["outputs"]]
        self.assertEqual([[e["stored"]["item"]["sizeBytes"] for e in b["events"]] for b in batches], [[60]])

    def test_configure_discards_the_previous_instance_entirely(self):
        """Section 2 item 4: no state leaks from one instance to the next, and an invalid
        Configure leaves no instance (Error, then NOT_CONFIGURED)."""
        t = configured(ROLE_PRODUCER)
        desc = {"key": {"contentHash": b"a", "fingerprint": FP}, "sizeBytes": 4}
        put = {"commandId": 2, "nowMs": 0, "putItem": {"descriptor": desc, "data": b"abcd"}}
        first = t.handle(put)["putItem"]["descriptor"]["location"]
        self.assertIn("ok", t.handle({"commandId": 3, "nowMs": 0, "configure": {"role": ROLE_PRODUCER, "id": "X1", "epoch": 4, "fingerprint": FP}}))
        again = t.handle(put)["putItem"]["descriptor"]
        self.assertEqual((again["location"], again["epoch"]), (first, 4))
        bad = {"role": ROLE_CONSUMER, "id": "X1", "epoch": 5, "fingerprint": FP, "timers": {"transferTimeoutMs": 26000}}
        self.assertEqual(t.handle({"commandId": 4, "nowMs": 0, "configure": bad})["error"]["code"], "INVALID_CONFIG")  # [C11]
        self.assertEqual(t.handle({"commandId": 5, "nowMs": 0, "getStats": {}})["error"]["code"], "NOT_CONFIGURED")

    def test_an_unknown_role_is_invalid_config_naming_it_and_leaves_no_instance(self):
        """Section 5 Configure: role must be one of the three; anything else is Error{INVALID_CONFIG}."""
        t = configured(ROLE_PRODUCER)
        for role in (0, 4, "ROLE_PRODUCER"):
            r = t.handle({"commandId": 2, "nowMs": 0, "configure": {"role": role, "id": "X1", "epoch": 3}})
            self.assertEqual(r["error"]["code"], "INVALID_CONFIG", role)
            self.assertIn(f"role {role!r} is not ROLE_CONSUMER, ROLE_PRODUCER or ROLE_SUBSCRIBER", r["error"]["message"])
            self.assertEqual(t.handle({"commandId": 3, "nowMs": 0, "getStats": {}})["error"]["code"], "NOT_CONFIGURED")

    def test_seed_reaches_the_consumer(self):
        """Section 5 Configure: `seed` seeds the instance (backoff jitter [C4]); 0 = the default."""
        from ectp_py.rand import SeededRandom

        for seed, expected in ((7, 7), (123456, 123456), (0, 1)):
            t = configured(ROLE_CONSUMER, seed=seed)
            self.assertEqual(t.consumer._random.next_uint32(), SeededRandom(expected).next_uint32(), seed)


class PollTest(unittest.TestCase):
    def test_next_deadline_is_rounded_up_and_present_exactly_when_set(self):
        """Section 4 / PollResult: next_deadline_ms is optional (absent: no timer; 0 is a deadline);
        a fractional deadline (jittered backoff) rounds up, never to a time when nothing is due."""
        t = configured(ROLE_CONSUMER)
        for deadline, expected in ((1000.25, 1001), (1000, 1000), (0, 0), (0.5, 1)):
            t.consumer.next_deadline = lambda d=deadline: d
            self.assertEqual(t.handle({"commandId": 2, "nowMs": 0, "poll": {}})["poll"], {"outputs": [], "nextDeadlineMs": expected})
        t.consumer.next_deadline = lambda: None
        self.assertEqual(t.handle({"commandId": 3, "nowMs": 0, "poll": {}})["poll"], {"outputs": []})


class OutputsAndReadsTest(unittest.TestCase):
    def test_every_output_kind_is_encoded_with_all_its_fields(self):
        """Section 5.2 / 5.1: outputs in order, send with the bytes its encoder makes of the envelope
        (raw-outputs), start_read with a non-empty destination_region and the destination's offset
        and length, connect_peer with epoch and metadata."""
        from ectp_py import codec
        from ectp_py.outputs import CancelRead, ConnectPeer, DisconnectPeer, EventBatchOut, Send, StartRead

        t = configured(ROLE_CONSUMER)
        t.pool.allocate("pad", 16)
        d = t.pool.allocate("k", 4)
        env = envelope("X1", 3, heartbeat={"sequence": 1})
        outs = [ConnectPeer("P1", 5, b"meta"), Send("P1", env), StartRead(7, "P1", b"src", d), CancelRead(7),
                DisconnectPeer("P1"), EventBatchOut({"sequence": 1})]
        t.consumer.poll = lambda now: list(outs)
        r = t.handle({"commandId": 2, "nowMs": 0, "poll": {}})["poll"]["outputs"]
        self.assertEqual(r, [
            {"connectPeer": {"peerId": "P1", "epoch": 5, "metadata": b"meta"}},
            {"send": {"to": "P1", "envelope": env, "raw": codec.encode("ectp.v1.Envelope", env)}},
            {"startRead": {"readId": 7, "peerId": "P1", "source": b"src", "length": 4,
                           "destinationRegion": "region-1", "destinationOffset": 16}},
            {"cancelRead": {"readId": 7}},
            {"disconnectPeer": {"peerId": "P1"}},
            {"eventBatch": {"batch": {"sequence": 1}}},
        ])
        # The bytes carry the envelope (proto3 leaves the default minor 0 out).
        self.assertEqual(codec.decode("ectp.v1.Envelope", r[1]["send"]["raw"]), {**env, "version": {"major": 1}})

    def test_a_send_its_encoder_refuses_carries_raw_error_and_the_other_outputs_stand(self):
        """raw-outputs (TESTEE-PROTOCOL.md 5.2): an envelope the encoder refuses (here two bodies,
        SPEC.md section 5) is reported with raw_error instead of raw; the poll is not failed."""
        from ectp_py import codec
        from ectp_py.outputs import CancelRead, Send

        t = configured(ROLE_CONSUMER)
        two_bodies = envelope("X1", 3, heartbeat={"sequence": 1}, readComplete={"grantId": 1})
        t.consumer.poll = lambda now: [Send("P1", two_bodies), CancelRead(7)]
        r = t.handle({"commandId": 2, "nowMs": 0, "poll": {}})["poll"]["outputs"]
        self.assertEqual(len(r), 2)
        self.assertNotIn("raw", r[0]["send"])
        self.assertIn("more than one member of a oneof", r[0]["send"]["rawError"])
        self.assertEqual(r[1], {"cancelRead": {"readId": 7}})
        # Binary mode writes the answer as a TesteeResponse frame: the envelope goes as decided.
        frame = codec.encode("ectp.conformance.v1.TesteeResponse", {"commandId": 2, "poll": {"outputs": r}}, limit_elements=False)
        self.assertGreater(len(frame), 0)

    def test_deliver_read_result_fills_the_destination_and_reports_the_true_length(self):
        """Section 5 DeliverReadResult: copy `data` into the read's destination from its start, at
        most its length, report len(data) as bytes read; status and peer_gone passed on; Ok."""
        from ectp_py.outputs import StartRead

        t = configured(ROLE_CONSUMER)
        got = []
        t.consumer.handle_read_result = lambda result, now: got.append((result, now))
        reads = {n: t.pool.allocate(f"k{n}", 4) for n in (1, 2, 3, 4)}
        t.consumer.poll = lambda now: [StartRead(n, "P1", b"s", d) for n, d in reads.items()]
        t.handle({"commandId": 2, "nowMs": 0, "poll": {}})
        cases = [(1, 1, b"abcdef", True), (2, 2, b"", False), (3, 3, b"xy", False), (4, 0, b"zz", False)]
        for read_id, status, data, gone in cases:
            r = t.handle({"commandId": 3, "nowMs": 50, "deliverReadResult": {"readId": read_id, "status": status, "data": data, "peerGone": gone}})
            self.assertEqual(r, {"commandId": 3, "ok": {}})
        self.assertEqual([(x.read_id, x.status, x.bytes_read, x.peer_gone, now) for x, now in got], [
            (1, "done", 6, True, 50), (2, "failed", 0, False, 50), (3, "cancelled", 2, False, 50), (4, "failed", 2, False, 50)])
        self.assertEqual(bytes(reads[1].buffer), b"abcd")
        self.assertEqual(len(reads[1].buffer), 4)
        self.assertEqual(bytes(reads[3].buffer), b"xy\x00\x00")
        # One result per read: a second one for the same id writes nothing more.
        t.handle({"commandId": 4, "nowMs": 60, "deliverReadResult": {"readId": 1, "status": 1, "data": b"ZZZZ"}})
        self.assertEqual(bytes(reads[1].buffer), b"abcd")


class AdmitTest(unittest.TestCase):
    def test_admit_items_and_decisions_are_translated_field_by_field(self):
        """Section 5 Admit / 5.1: items passed in order (has_model_input, local, announcement; the
        JSON text parsed as proto3 JSON), one decision per item echoing item_id, READY from a
        destination with `loaded` = size and CRC-32C of the bytes read back."""
        from ectp_py.consumer import AdmitResult, ItemDecision
        from ectp_py.crc32c import crc32c

        t = configured(ROLE_CONSUMER)
        d = t.pool.allocate("k", 5)
        d.buffer[:] = b"hello"
        seen = []

        def admit(request_id, items, now):
            seen.append((request_id, items, now))
            return AdmitResult("admitted", (ItemDecision("a", "ready", None, d), ItemDecision("b", "ready"),
                                            ItemDecision("c", "defer"), ItemDecision("d", "local-encode", 4)))

        t.consumer.admit = admit
        ann = {"version": {"major": 1}, "item": {"sizeBytes": 5}}
        items = [{"itemId": "a", "announcement": ann, "hasModelInput": True},
                 {"itemId": "b", "local": True},
                 {"itemId": "c", "announcementJson": '{"version": {"major": 1}, "item": {"size_bytes": "5"}}'},
                 {"itemId": "d", "announcementJson": "not json"}]
        r = t.handle({"commandId": 2, "nowMs": 40, "admit": {"requestId": "r1", "items": items}})
        self.assertEqual(r["admit"], {"status": 1, "items": [
            {"itemId": "a", "action": 1, "loaded": {"sizeBytes": 5, "crc32c": crc32c(b"hello")}},
            {"itemId": "b", "action": 1},
            {"itemId": "c", "action": 2},
            {"itemId": "d", "action": 3, "reason": 4}]})
        request_id, passed, now = seen[0]
        self.assertEqual((request_id, now), ("r1", 40))
        self.assertEqual([(i.item_id, i.has_model_input, i.local) for i in passed],
                         [("a", True, False), ("b", False, True), ("c", False, False), ("d", False, False)])
        self.assertEqual(passed[0].announcement, ann)
        self.assertEqual(passed[2].announcement, {"version": {"major": 1}, "item": {"sizeBytes": 5}})
        self.assertEqual(passed[3].announcement, "not json")  # still the core's to refuse [C2]

    def test_failures_carry_item_reason_and_attempts(self):
        """AdmitResult FAILED and DrainFailed: ItemFailure{item_id, reason, attempts}."""
        from ectp_py.consumer import AdmitResult, FailedRequest, ItemFailure

        t = configured(ROLE_CONSUMER)
        f = ItemFailure("a", 9, 3)
        t.consumer.admit = lambda request_id, items, now: AdmitResult("failed", failures=(f,))
        t.consumer.drain_failed = lambda: [FailedRequest("r0", (f,))]
        r = t.handle({"commandId": 2, "nowMs": 0, "admit": {"requestId": "r1", "items": [{"itemId": "a"}]}})
        self.assertEqual(r["admit"], {"status": 2, "failures": [{"itemId": "a", "reason": 9, "attempts": 3}]})
        r = t.handle({"commandId": 3, "nowMs": 0, "drainFailed": {}})
        self.assertEqual(r["drainFailed"], {"failed": [{"requestId": "r0", "failures": [{"itemId": "a", "reason": 9, "attempts": 3}]}]})


class ProducerCommandsTest(unittest.TestCase):
    KEY = {"contentHash": b"a", "fingerprint": FP}

    def put(self, t, data=b"abcd"):
        desc = {"key": self.KEY, "sizeBytes": len(data)}
        return t.handle({"commandId": 2, "nowMs": 0, "putItem": {"descriptor": desc, "data": data}})

    def test_put_item_fills_producer_id_epoch_and_location(self):
        """Section 5 PutItem: the full descriptor, producer_id = id and epoch of Configure."""
        d = self.put(configured(ROLE_PRODUCER))["putItem"]["descriptor"]
        self.assertEqual((d["producerId"], d["epoch"], d["sizeBytes"], d["key"]), ("X1", 3, 4, self.KEY))
        self.assertTrue(d["location"])

    def test_a_put_keeps_a_producer_id_and_epoch_it_sets_and_fills_in_its_own_otherwise(self):
        """testee.proto PutItem: producer_id and epoch left empty are the producer's own; set, the store
        keeps the item under them (a shared store, or one kept from an older epoch; SPEC.md 4.4)."""
        t = TesteeAdapter()
        self.assertIn("ok", t.handle({"commandId": 1, "nowMs": 0, "configure": {"role": ROLE_PRODUCER, "id": "X1", "epoch": 3, "fingerprint": FP}}))
        def put(name: bytes, **fields) -> dict:
            desc = {"key": {"contentHash": name, "fingerprint": FP}, "sizeBytes": 4, **fields}
            return t.handle({"commandId": 2, "nowMs": 0, "putItem": {"descriptor": desc, "data": b"abcd"}})["putItem"]["descriptor"]
        own = put(b"a")
        self.assertEqual((own["producerId"], own["epoch"]), ("X1", 3))
        older = put(b"b", epoch=2)
        self.assertEqual((older["producerId"], older["epoch"]), ("X1", 2))
        shared = put(b"c", producerId="P9")
        self.assertEqual((shared["producerId"], shared["epoch"]), ("P9", 3))
        self.assertEqual(put(b"d", epoch="0")["epoch"], 3)  # proto3 JSON's text form of 0 is unset too
        bad = t.handle({"commandId": 3, "nowMs": 0, "putItem": {"descriptor": {"key": {"contentHash": b"e", "fingerprint": FP}, "sizeBytes": 4, "epoch": "soon"}, "data": b"abcd"}})
        self.assertEqual(bad["error"]["code"], "INVALID_ARGUMENT")

    def test_read_memory_reads_length_bytes_of_the_item_still_at_that_location(self):
        """Section 5 ReadMemory: `length` bytes at a location handed out; a location whose item left
        the store is refused even after an item of the same key was stored again elsewhere."""
        t = configured(ROLE_PRODUCER)
        loc = self.put(t)["putItem"]["descriptor"]["location"]
        read = lambda location, n: t.handle({"commandId": 3, "nowMs": 0, "readMemory": {"location": location, "length": n}})
        self.assertEqual(read(loc, 2), {"commandId": 3, "readMemory": {"data": b"ab"}})
        self.assertEqual(read(loc, 4)["readMemory"]["data"], b"abcd")
        self.assertIn("ok", t.handle({"commandId": 4, "nowMs": 0, "discard": {"key": self.KEY}}))
        loc2 = self.put(t, b"wxyz")["putItem"]["descriptor"]["location"]
        self.assertNotEqual(loc, loc2)
        self.assertEqual(read(loc, 4)["error"]["code"], "INVALID_ARGUMENT")
        self.assertEqual(read(loc2, 4)["readMemory"]["data"], b"wxyz")

    def test_a_command_naming_an_item_by_a_missing_or_malformed_key_is_invalid_argument(self):
        """Section 5: MarkReady, Discard, Evict and Announce name the item by key; without a usable
        one they answer Error{INVALID_ARGUMENT} (not NOT_FOUND, not a crash)."""
        t = configured(ROLE_PRODUCER)
        for name in ("markReady", "discard", "evict", "announce"):
            for body in ({}, {"key": {"contentHash": b""}}, {"key": {"contentHash": b"a", "fingerprint": {"model": 1}}}):
                with self.subTest(name=name, body=body):
                    r = t.handle({"commandId": 2, "nowMs": 0, name: body})
                    self.assertEqual(r["error"], {"message": "key is missing or malformed", "code": "INVALID_ARGUMENT"})

    def test_producer_timers_are_used_and_other_roles_timers_ignored(self):
        """Section 5 Configure: absent timer = default; fields of another role MUST be ignored."""
        timers = {"leaseMs": 40000, "retryAfterMs": 70, "heartbeatIntervalMs": 1500, "waitBudgetMs": 5, "transferTimeoutMs": 1}
        t = configured(ROLE_PRODUCER, timers=timers)
        c = t.producer.config
        self.assertEqual((c.lease_ms, c.retry_after_ms, c.heartbeat_interval_ms, c.max_grants_per_consumer), (40000, 70, 1500, 256))
        t = configured(ROLE_CONSUMER, timers={"waitBudgetMs": 1234, "maxGrantsPerConsumer": 1})
        self.assertEqual((t.consumer.config.wait_budget_ms, t.consumer.config.transfer_timeout_ms), (1234, 20000))


class SubscriberCommandsTest(unittest.TestCase):
    def test_follow_with_a_connection_connects_at_that_epoch_first(self):
        """Section 5 Follow: with `connection`, a connect_peer (its epoch and metadata) precedes the Hello."""
        t = configured(ROLE_SUBSCRIBER)
        r = t.handle({"commandId": 2, "nowMs": 10, "follow": {"producerId": "P1", "connection": {"epoch": 7, "metadata": b"m"}}})
        self.assertEqual(r, {"commandId": 2, "ok": {}})
        outs = t.handle({"commandId": 3, "nowMs": 10, "poll": {}})["poll"]["outputs"]
        self.assertEqual(outs[0], {"connectPeer": {"peerId": "P1", "epoch": 7, "metadata": b"m"}})
        self.assertIn("hello", outs[1]["send"]["envelope"])

    def test_get_view_is_synced_exactly_when_the_core_has_a_view(self):
        """Section 5 GetView: synced once a snapshot was applied (even with no items); none otherwise."""
        t = configured(ROLE_SUBSCRIBER)
        views = {"P1": {}, "P2": {"k": {"sizeBytes": 1}}}
        t.subscriber.view = views.get
        get = lambda p: t.handle({"commandId": 2, "nowMs": 0, "getView": {"producerId": p}})["view"]
        self.assertEqual(get("P1"), {"synced": True, "items": []})
        self.assertEqual(get("P2"), {"synced": True, "items": [{"sizeBytes": 1}]})
        self.assertEqual(get("P3"), {"synced": False, "items": []})


class TransportMetadataTest(unittest.TestCase):
    def test_consumer_hello_carries_the_configured_transport_metadata(self):
        t = configured(ROLE_CONSUMER, transportMetadata=b"nic0")
        desc = descriptor("a", item_bytes(8), producer="P1", epoch=5)
        t.handle({"commandId": 2, "nowMs": 0, "admit": {"requestId": "r", "items": [{"itemId": "i", "announcement": announcement(desc)}]}})
        outs = t.handle({"commandId": 3, "nowMs": 0, "poll": {}})["poll"]["outputs"]
        hellos = [o["send"]["envelope"]["hello"] for o in outs if "send" in o and "hello" in o["send"]["envelope"]]
        self.assertEqual([h["transportMetadata"] for h in hellos], [b"nic0"])


class AdmitUntrustedJsonTest(unittest.TestCase):
    def test_deeply_nested_announcement_json_is_an_invalid_announcement_not_an_error(self):
        """Section 5: Admit answers AdmitResult; an Error there is a crash [I1]. Orchestrator JSON
        nested past Python's recursion limit is unparseable text like any other ("untrusted-json")."""
        t = configured(ROLE_CONSUMER)
        item = {"itemId": "i1", "announcementJson": "[" * 100_000}
        r = t.handle({"commandId": 2, "nowMs": 5, "admit": {"requestId": "r1", "items": [item]}})
        self.assertNotIn("error", r)
        self.assertEqual(r["admit"]["status"], 2)  # ADMIT_STATUS_FAILED, like any unparseable text
        self.assertEqual([f["itemId"] for f in r["admit"]["failures"]], ["i1"])


    def test_c2_announcement_json_with_a_field_under_both_names_is_an_invalid_announcement(self):
        """TESTEE-PROTOCOL 5.4: a field named twice (sizeBytes and size_bytes) is malformed JSON for
        every proto3 parser: the request fails INVALID_ANNOUNCEMENT, whichever value a lenient reader kept."""
        t = configured(ROLE_CONSUMER)
        key = {"contentHash": "aXRlbS1B", "fingerprint": FP}
        item = {"key": key, "sizeBytes": "64", "producerId": "P1", "epoch": "5"}

        def admit(request_id: str, item: dict) -> dict:
            text = json.dumps({"version": {"major": 1}, "item": item})
            items = [{"itemId": "i1", "announcementJson": text}]
            return t.handle({"commandId": 2, "nowMs": 5, "admit": {"requestId": request_id, "items": items}})["admit"]

        self.assertEqual(admit("r0", item)["status"], 1)  # the announcement alone is valid: ADMIT_STATUS_ADMITTED
        r = admit("r1", {**item, "size_bytes": "64"})
        self.assertEqual(r["status"], 2)  # ADMIT_STATUS_FAILED
        self.assertEqual([(f["itemId"], f["reason"]) for f in r["failures"]], [("i1", 15)])  # FAILURE_REASON_INVALID_ANNOUNCEMENT

class FirstFitPoolTest(unittest.TestCase):
    """Section 5.1: live destinations never overlap, freed space is reused at once."""

    def test_exact_fit_uses_the_whole_run(self):
        p = FirstFitPool(4)
        d = p.allocate("k", 4)
        self.assertIsNotNone(d)
        self.assertEqual((d.offset, d.length), (0, 4))
        self.assertIsNone(p.allocate("k2", 1))

    def test_zero_byte_destination_takes_one_byte_and_gives_it_back(self):
        p = FirstFitPool(1)
        a = p.allocate("a", 0)
        self.assertEqual((a.offset, a.length), (0, 0))
        self.assertIsNone(p.allocate("b", 1))  # the byte is taken: distinct offsets for live reads
        p.release(a)
        self.assertIsNotNone(p.allocate("c", 1))  # and freed again

    def test_zero_byte_destination_never_shares_an_offset(self):
        p = FirstFitPool(16)
        a = p.allocate("a", 0)
        b = p.allocate("b", 4)
        self.assertNotEqual(a.offset, b.offset)
        p.release(a)
        c = p.allocate("c", 1)
        self.assertFalse(b.offset <= c.offset < b.offset + b.length, "reused space overlaps a live destination")

    def test_allocations_do_not_overlap_and_adjacent_frees_merge(self):
        p = FirstFitPool(8)
        a, b = p.allocate("a", 4), p.allocate("b", 4)
        self.assertEqual((a.offset, b.offset), (0, 4))
        p.release(a)
        p.release(b)
        whole = p.allocate("c", 8)
        self.assertIsNotNone(whole)
        self.assertEqual(whole.offset, 0)

    def test_a_second_release_is_ignored(self):
        p = FirstFitPool(8)
        a, _b = p.allocate("a", 4), p.allocate("b", 4)
        p.release(a)
        p.release(a)
        self.assertIsNotNone(p.allocate("c", 4))
        self.assertIsNone(p.allocate("d", 4), "a double release freed the same bytes twice")


if __name__ == "__main__":
    unittest.main()

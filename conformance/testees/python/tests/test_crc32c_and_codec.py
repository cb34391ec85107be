"""Wire helpers: CRC-32C [C11], the proto3 JSON mapping and the protobuf codec [V1]."""

import unittest

from ectp_py import codec
from ectp_py.crc32c import crc32c, crc32c_bytes
from ectp_py.rand import SeededRandom


class Crc32cTest(unittest.TestCase):
    def test_c11_standard_check_value(self):
        self.assertEqual(crc32c(b"123456789"), 0xE3069283)
        self.assertEqual(crc32c(b""), 0)
        self.assertEqual(crc32c_bytes(b"123456789"), bytes.fromhex("e3069283"))

    def test_c11_incremental_equals_one_shot(self):
        data = bytes(range(256)) * 3
        self.assertEqual(crc32c(data[100:], crc32c(data[:100])), crc32c(data))


class SeededRandomTest(unittest.TestCase):
    def test_c4_same_sequence_as_the_typescript_sdk(self):
        # Values printed by packages/core SeededRandom(1) / SeededRandom(42).
        r = SeededRandom(1)
        self.assertEqual([r.next_uint32() for _ in range(3)], [4136291496, 1313215899, 343459936])
        self.assertAlmostEqual(SeededRandom(42).next(), 0.618625272763893)


class JsonMappingTest(unittest.TestCase):
    def test_uint64_strings_and_numbers_enum_names_and_numbers_base64_variants(self):
        env = codec.from_json("ectp.v1.Envelope", {
            "version": {"major": 1}, "sender_id": "P1", "senderEpoch": "5",
            "readReject": {"attemptId": 3, "reason": "FAILURE_REASON_NOT_READY", "retryAfterMs": 50.0},
            "unknownField": {"x": 1},
        })
        self.assertEqual(env["senderId"], "P1")
        self.assertEqual(env["senderEpoch"], 5)
        self.assertEqual(env["readReject"], {"attemptId": 3, "reason": 1, "retryAfterMs": 50})
        self.assertNotIn("unknownField", env)
        for text in ("+/8=", "+/8", "-_8=", "-_8"):
            key = codec.from_json("ectp.v1.ItemKey", {"contentHash": text})
            self.assertEqual(key["contentHash"], b"\xfb\xff")
        self.assertEqual(codec.from_json("ectp.v1.ReadReject", {"reason": 99})["reason"], 99)

    def test_c2_junk_is_kept_for_the_validators_never_raises(self):
        d = codec.from_json("ectp.v1.ItemDescriptor", {"sizeBytes": "lots", "epoch": None, "dtype": "DTYPE_NOPE"})
        self.assertEqual(d, {"sizeBytes": "lots", "dtype": "DTYPE_NOPE"})

    def test_to_json_writes_uint64_as_strings_enums_as_names(self):
        out = codec.to_json("ectp.v1.ReadReject", {"attemptId": 7, "reason": 2, "retryAfterMs": 5})
        self.assertEqual(out, {"attemptId": "7", "reason": "FAILURE_REASON_NOT_FOUND", "retryAfterMs": 5})
        self.assertEqual(codec.to_json("ectp.v1.ReadReject", {"reason": 77})["reason"], 77)


class ProtobufTest(unittest.TestCase):
    def test_golden_init_frame(self):
        # TESTEE-PROTOCOL.md 3.3: TesteeRequest{command_id 1, now_ms 0, init{protocol_version 1}}.
        data = codec.encode("ectp.conformance.v1.TesteeRequest", {"commandId": 1, "nowMs": 0, "init": {"protocolVersion": 1}})
        self.assertEqual(data, bytes.fromhex("080152020801"))
        self.assertEqual(codec.decode("ectp.conformance.v1.TesteeRequest", data),
                         {"commandId": 1, "init": {"protocolVersion": 1}})

    def test_round_trip_envelope_with_packed_shape(self):
        env = {"version": {"major": 1, "minor": 0}, "senderId": "P1", "senderEpoch": 2**53 - 1,
               "readGrant": {"attemptId": 1, "grantId": 9, "leaseMs": 30000,
                             "item": {"sizeBytes": 24, "dtype": 1, "shape": [2, 3], "location": b"\x00\x01"}}}
        data = codec.encode("ectp.v1.Envelope", env)
        back = codec.decode("ectp.v1.Envelope", data)
        self.assertEqual(back["readGrant"]["item"]["shape"], [2, 3])
        self.assertEqual(back["senderEpoch"], 2**53 - 1)
        self.assertEqual(back["version"], {"major": 1})  # minor 0 is the proto3 default

    def test_v1_unknown_fields_skipped_malformed_bytes_raise(self):
        data = codec.encode("ectp.v1.Envelope", {"senderId": "P1"}) + bytes([0xF8, 0x07, 0x01])  # field 127 varint
        self.assertEqual(codec.decode("ectp.v1.Envelope", data), {"senderId": "P1"})
        # Truncated: a length, a tag alone, a varint value or a length cut at the end of the bytes.
        for bad in (b"\x0a\x05ab", b"\x80", b"\x12\x02\xff\xfe", b"\x07", b"\x08", b"\x0a", b"\x08\x80", b"\x0a\x80"):
            with self.assertRaises(codec.DecodeError):
                codec.decode("ectp.v1.Envelope", bad)



class GroupsAndTagsTest(unittest.TestCase):
    """[V1] Unknown fields are skipped, groups (wire types 3 and 4) included; tags and lengths are
    read as protobuf reads them (upb, protobufjs): anything else is malformed."""

    HEADER = "0a0208011201611801"  # version 1, sender "a", epoch 1

    def envelope(self, hex_tail: str) -> dict:
        return codec.decode("ectp.v1.Envelope", bytes.fromhex(self.HEADER + hex_tail))

    def assert_malformed(self, hex_tail: str, pattern: str = "") -> None:
        with self.subTest(tail=hex_tail), self.assertRaisesRegex(codec.DecodeError, pattern):
            self.envelope(hex_tail)

    def test_v1_an_unknown_group_is_skipped_at_top_level_and_in_a_body(self):
        expected = self.envelope("820100")
        self.assertEqual(expected, {"version": {"major": 1}, "senderId": "a", "senderEpoch": 1, "heartbeat": {}})
        self.assertEqual(self.envelope("9b069c06" "820100"), expected)  # group 99, then a heartbeat
        self.assertEqual(self.envelope("820100" "9b069c06"), expected)  # and after it
        self.assertEqual(
            codec.decode("ectp.v1.Envelope", bytes.fromhex("0a020801120161180182010608019b069c06")),
            codec.decode("ectp.v1.Envelope", bytes.fromhex("0a0208011201611801820102" "0801")),
        )
        # A group holding every wire type, a nested group and a known field number (1, skipped).
        group = "9b06" "0801" "1202ffff" "1d01020304" "190102030405060708" "a306" "0802" "a406" "9c06"
        self.assertEqual(self.envelope(group + "820100"), expected)
        # Its end-group tag inside a length-delimited field is payload, not the end.
        self.assertEqual(self.envelope("9b06" "8201029c06" "9c06" "820100"), expected)
        # A group with a known field's number is of the wrong wire type: skipped as unknown.
        self.assertEqual(self.envelope("8b018c01" "820100"), expected)
        # One-byte tags (field 4): empty, holding a field, nested, several in a row.
        for tail in ("2324", "23080124", "232b2c24", "23242324", "2324" "232b08012c24"):
            with self.subTest(tail=tail):
                self.assertEqual(self.envelope(tail + "820100"), expected)

    def test_v1_the_frozen_fields_read_past_a_group(self):
        data = bytes.fromhex(self.HEADER + "9b069c06" "5a00")
        self.assertEqual(codec.decode_frozen_envelope(data),
                         {"version": {"major": 1}, "senderId": "a", "senderEpoch": 1, "handshakeReject": {}})
        self.assertIsNone(codec.decode_frozen_envelope(bytes.fromhex(self.HEADER + "9b069c07" "5a00")))

    def test_v1_the_frozen_fields_are_read_to_the_depth_the_full_decode_reads_them(self):
        def field(tag: str, payload: str) -> str:
            n, length = len(payload) // 2, ""
            while n >= 0x80:
                length += f"{(n & 0x7F) | 0x80:02x}"
                n >>= 7
            return tag + length + f"{n:02x}" + payload

        def nested(groups: int) -> str:
            return "3b" * groups + "3c" * groups

        shapes = {
            "in supported": lambda g: "0a020801" + "120170" + "1801" + field("5a", "0805" + field("1a", "0801" + nested(g))),
            "in the reject": lambda g: "0a020801" + "120170" + "1801" + field("5a", "0805" + nested(g)),
            "in the version": lambda g: field("0a", "0801" + nested(g)) + "120170" + "1801" + "5a020805",
        }
        for name, shape in shapes.items():
            verdicts = set()
            for groups in range(95, 103):
                with self.subTest(shape=name, groups=groups):
                    data = bytes.fromhex(shape(groups))
                    try:
                        codec.decode("ectp.v1.Envelope", data)
                        full = True
                    except codec.DecodeError:
                        full = False
                    verdicts.add(full)
                    self.assertEqual(codec.decode_frozen_envelope(data) is not None, full)
            self.assertEqual(verdicts, {True, False}, f"{name}: the range crosses the depth limit")

    def test_v1_a_stray_mismatched_or_missing_end_group_is_malformed(self):
        self.assert_malformed("9c06" "820100", "end-group")  # stray, top level
        self.assert_malformed("8201029c06", "end-group")  # stray, in the heartbeat
        self.assert_malformed("9b069c07" "820100", "end-group")  # closes field 100, not 99
        self.assert_malformed("9b06a306a4069c07", "end-group")  # inner group fine, outer mismatched
        self.assert_malformed("9b06a3069c06a406", "end-group")  # closed out of order
        self.assert_malformed("9b06" "0801")  # never closed
        self.assert_malformed("9b06")
        self.assert_malformed("8201029b06" "9c06")  # opened in the heartbeat, closed after it
        self.assert_malformed("9b06" "0001" "9c06", "field number 0")  # field 0 inside a group
        self.assert_malformed("9b06" "0e" "9c06", "wire type 6")
        self.assert_malformed("9b06" "1205ff" "9c06")  # a length past the end
        for tail in ("24", "232c", "2b24", "23", "232b24", "2b34"):  # one-byte tags (fields 4-6)
            self.assert_malformed(tail + "820100")

    def test_v1_inside_a_group_multi_byte_varints_are_skipped_and_truncated_fields_are_malformed(self):
        expected = self.envelope("820100")
        self.assertEqual(self.envelope("9b06" "08ac02" "9c06" "820100"), expected)  # varint 300 (2 bytes)
        self.assertEqual(self.envelope("9b06" "08" + "ff" * 9 + "01" "9c06" "820100"), expected)  # 10 bytes
        self.assert_malformed("9b06" "0880", "truncated varint")
        self.assert_malformed("9b06" "19" + "00" * 7, "truncated fixed64")  # 7 of 8 bytes left
        self.assert_malformed("9b06" "1d" + "00" * 3, "truncated fixed32")  # 3 of 4 bytes left

    def test_i1_group_nesting_is_bounded_at_100(self):
        def nested(depth: int) -> str:
            return "9b06" * depth + "0801" + "9c06" * depth

        limit = codec.MAX_NESTING_DEPTH
        self.assertEqual(limit, 100)
        self.assertEqual(self.envelope(nested(limit) + "820100")["heartbeat"], {})
        self.assert_malformed(nested(limit + 1) + "820100", "nest")
        self.assert_malformed(nested(100_000) + "820100", "nest")  # no recursion without limit
        # A body is one level already (as in upb and protobufjs): 99 more in a heartbeat.
        for depth, ok in ((limit - 1, True), (limit, False)):
            body = bytes.fromhex(nested(depth))
            data = bytes.fromhex(self.HEADER + "8201") + bytes([len(body) & 0x7F | 0x80, len(body) >> 7]) + body
            with self.subTest(depth=depth):
                if ok:
                    self.assertEqual(codec.decode("ectp.v1.Envelope", data)["heartbeat"], {})
                else:
                    with self.assertRaisesRegex(codec.DecodeError, "nest"):
                        codec.decode("ectp.v1.Envelope", data)

    def test_v1_tags_are_at_most_5_bytes_fit_32_bits_and_name_fields_1_to_2_pow_29_minus_1(self):
        self.assert_malformed("82818080800000", "invalid tag encoding")  # field 16, in 6 bytes
        self.assert_malformed("808080801001" "820100", "invalid tag encoding")  # field 2^29
        self.assert_malformed("80808080800101" "820100", "invalid tag encoding")  # field 2^32
        self.assert_malformed("f8ffffff1f01" "820100", "invalid tag encoding")  # 2^32 - 8 + 2^32
        self.assert_malformed("0001" "820100", "field number 0")
        self.assert_malformed("8000" "01" "820100", "field number 0")  # 0 in two bytes
        self.assert_malformed("808080808000" "01" "820100", "invalid tag encoding")
        expected = self.envelope("820100")
        self.assertEqual(self.envelope("f8ffffff0f01" "820100"), expected)  # field 2^29 - 1: unknown
        self.assertEqual(self.envelope("8281808000" "00"), expected)  # field 16 in 5 bytes
        self.assertIsNone(codec.decode_frozen_envelope(bytes.fromhex(self.HEADER + "82818080800000")))

    def test_v1_lengths_are_at_most_5_bytes_and_below_2_pow_31(self):
        self.assert_malformed("8201" "808080808000", "invalid length encoding")  # 0, in 6 bytes
        self.assert_malformed("8201" "80808080808080808000", "invalid length encoding")  # in 10 bytes
        self.assert_malformed("8201" "8080808008", "invalid length encoding")  # 2^31
        self.assert_malformed("8201" "ffffffff0f", "invalid length encoding")  # 2^32 - 1
        self.assert_malformed("8201" "ffffffff07")  # 2^31 - 1: past the end
        self.assert_malformed("9b06" "12808080808000" "9c06", "invalid length encoding")  # in a group
        expected = self.envelope("820100")
        self.assertEqual(self.envelope("8201" "8080808000"), expected)  # 0 in 5 bytes
        self.assertEqual(self.envelope("8201" "8280808000" "0801"), self.envelope("8201020801"))
        self.assertIsNone(codec.decode_frozen_envelope(bytes.fromhex(self.HEADER + "5a808080808000")))
    def test_c4_a_bool_is_true_when_any_bit_of_its_varint_is_set_past_bit_63_too(self):
        # ReadReject{attempt 5, reason 99, retryable = a 10-byte varint whose only set bit is bit 64}: protobufjs
        # (the TypeScript SDK) reads it true, and an unknown reason is terminal unless retryable is true [C4].
        body = bytes([0x08, 5, 0x10, 99, 0x18]) + bytes([0x80] * 9 + [0x02])
        self.assertEqual(codec.decode("ectp.v1.ReadReject", body), {"attemptId": 5, "reason": 99, "retryable": True})
        # Other varints keep their low 64 bits: attempt id 2^64 + 5 reads as 5.
        wide = bytes([0x08]) + bytes([0x85] + [0x80] * 8 + [0x02])
        self.assertEqual(codec.decode("ectp.v1.ReadReject", wide), {"attemptId": 5})


class RepeatedElementsTest(unittest.TestCase):
    """SPEC.md section 5: at most MAX_REPEATED_ELEMENTS repeated elements per message [I1]."""

    def test_i1_limit_counts_nested_and_packed_elements(self):
        limit = codec.MAX_REPEATED_ELEMENTS
        ok = codec.decode("ectp.v1.Snapshot", codec.encode("ectp.v1.Snapshot", {"items": [{}] * limit}))
        self.assertEqual(len(ok["items"]), limit)
        with self.assertRaisesRegex(codec.DecodeError, r"more than 65536 repeated elements .*\(at field items\)"):
            codec.decode("ectp.v1.Snapshot", codec.encode("ectp.v1.Snapshot", {"items": [{}] * (limit + 1)}, limit_elements=False))
        half = [1] * (limit // 2)
        with self.assertRaisesRegex(codec.DecodeError, r"\(at field shape\)"):
            codec.decode("ectp.v1.Snapshot", codec.encode("ectp.v1.Snapshot", {"items": [{"shape": half}, {"shape": half}]}, limit_elements=False))

    def test_i1_the_encoder_refuses_more_elements_than_a_receiver_takes_nested_ones_included(self):
        limit = codec.MAX_REPEATED_ELEMENTS
        self.assertTrue(codec.encode("ectp.v1.Snapshot", {"items": [{}] * limit}))
        half = [1] * (limit // 2)
        for msg in ({"items": [{}] * (limit + 1)}, {"items": [{"shape": half}, {"shape": half}]}):
            with self.assertRaisesRegex(ValueError, r"more than 65536 repeated elements"):
                codec.encode("ectp.v1.Snapshot", msg)


class EncoderRangesTest(unittest.TestCase):
    """Values a field cannot carry are a local bug: refused, never wrapped into another valid value
    (SPEC.md section 3.8: no uint64 above 2^53 - 1 is sent)."""

    def test_out_of_range_values_are_refused_naming_the_field(self):
        for name, body in (
            ("leaseMs", {"readGrant": {"attemptId": 1, "grantId": 1, "leaseMs": 2**32 + 5}}),
            ("reason", {"readReject": {"attemptId": 1, "reason": 2**31}}),
            ("attemptId", {"readRequest": {"attemptId": -1}}),
            ("attemptId", {"readRequest": {"attemptId": 2**64 + 7}}),
            ("attemptId", {"readRequest": {"attemptId": 2**53}}),
            ("retryable", {"readReject": {"attemptId": 1, "retryable": 2}}),
            ("shape", {"readGrant": {"attemptId": 1, "item": {"shape": [1, -2]}}}),
        ):
            with self.subTest(name=name, body=body), self.assertRaisesRegex(ValueError, name):
                codec.encode("ectp.v1.Envelope", {"version": {"major": 1}, "senderId": "p", "senderEpoch": 1, **body})

    def test_testee_frames_carry_uint64_values_past_2_53(self):
        response = {"commandId": 1, "poll": {"nextDeadlineMs": 2**53 + 1000}}
        data = codec.encode("ectp.conformance.v1.TesteeResponse", response, limit_elements=False)
        self.assertEqual(codec.decode("ectp.conformance.v1.TesteeResponse", data, limit_elements=False)["poll"]["nextDeadlineMs"], 2**53 + 1000)
        with self.assertRaisesRegex(ValueError, "nextDeadlineMs"):
            codec.encode("ectp.conformance.v1.TesteeResponse", response)

    def test_the_edges_of_each_range_are_encoded(self):
        env = {"version": {"major": 1}, "senderId": "p", "senderEpoch": 2**53 - 1,
               "readReject": {"attemptId": 2**53 - 1, "reason": -(2**31), "retryable": True, "retryAfterMs": 2**32 - 1}}
        self.assertEqual(codec.decode("ectp.v1.Envelope", codec.encode("ectp.v1.Envelope", env))["readReject"]["reason"], -(2**31))


class NonRepeatedFieldsTest(unittest.TestCase):
    """SPEC.md section 5: a non-repeated field occurs once per message, one member of a oneof [I1]."""

    def test_i1_a_repeated_field_or_second_oneof_member_is_refused_naming_it(self):
        env = codec.encode("ectp.v1.Envelope", {"version": {"major": 1}, "senderId": "c", "senderEpoch": "1"})
        body = codec.encode("ectp.v1.Heartbeat", {"sequence": "1"})
        heartbeat = bytes([0x82, 0x01, len(body)]) + body
        self.assertEqual(codec.decode("ectp.v1.Envelope", env + heartbeat)["heartbeat"], {"sequence": 1})
        cases = [
            (env + env, r"Envelope\.version: it occurs twice"),
            (env + bytes([0x18, 0x02]) + heartbeat, r"Envelope\.senderEpoch: it occurs twice"),
            (env + heartbeat + heartbeat, r"Envelope\.heartbeat: oneof body was already set"),
            (env + bytes([0x6a, 0x00]) + heartbeat, r"Envelope\.heartbeat: oneof body was already set"),
            (env + bytes([0x82, 0x01, 2 * len(body)]) + body + body, r"Heartbeat\.sequence: it occurs twice"),
        ]
        for data, pattern in cases:
            with self.subTest(pattern=pattern), self.assertRaisesRegex(codec.DecodeError, pattern):
                codec.decode("ectp.v1.Envelope", data)
        stored = codec.encode("ectp.v1.Event", {"stored": {"item": {}}})
        batch = bytes([0x08, 0x01, 0x12, 2 * len(stored)]) + stored + stored
        with self.assertRaisesRegex(codec.DecodeError, r"Event\.stored: oneof kind was already set"):
            codec.decode("ectp.v1.EventBatch", batch)

    def test_i1_an_occurrence_of_the_wrong_wire_type_is_skipped_as_unknown_not_a_repeat(self):
        env = codec.encode("ectp.v1.Envelope", {"version": {"major": 1}, "senderId": "c", "senderEpoch": "1"})
        # sender_epoch (a varint) again as a length-delimited field; a body field 12 as a varint.
        decoded = codec.decode("ectp.v1.Envelope", env + bytes([0x1A, 0x00, 0x60, 0x01]))
        self.assertEqual(decoded["senderEpoch"], 1)
        self.assertNotIn("readRequest", decoded)
        self.assertEqual(codec.decode("ectp.v1.Heartbeat", bytes([0x0A, 0x00])), {})

    def test_i1_encode_refuses_two_members_of_a_oneof(self):
        with self.assertRaisesRegex(ValueError, r"more than one member of a oneof set \(readComplete, heartbeat\)"):
            codec.encode("ectp.v1.Envelope", {"readComplete": {}, "heartbeat": {}})

    def test_i1_repeated_fields_keep_taking_elements(self):
        hello = codec.encode("ectp.v1.Hello", {"role": 2, "capabilities": ["a", "b"]})
        self.assertEqual(codec.decode("ectp.v1.Hello", hello + bytes([0x12, 0x01, 0x63]))["capabilities"], ["a", "b", "c"])


class FrozenFieldsTest(unittest.TestCase):
    def test_v1_another_majors_body_need_not_parse(self):
        # version 2.0, sender "C1", epoch 7; a Hello (field 10) whose field 3 v1 cannot read.
        data = bytes.fromhex("0a020802120243311807520608021a02ffff")
        with self.assertRaises(codec.DecodeError):
            codec.decode("ectp.v1.Envelope", data)
        self.assertEqual(
            codec.decode_frozen_envelope(data),
            {"version": {"major": 2}, "senderId": "C1", "senderEpoch": 7, "hello": {}},
        )

    def test_v1_a_handshake_reject_keeps_its_frozen_fields(self):
        # version 3.0, sender "p", epoch 9, an unknown field 4; a HandshakeReject (reason 5,
        # detail "x", supported 3.0, and a field 4 v1 does not know).
        data = bytes.fromhex("0a020803120170180920015a0b08051201781a0208032001")
        self.assertEqual(
            codec.decode_frozen_envelope(data),
            {
                "version": {"major": 3},
                "senderId": "p",
                "senderEpoch": 9,
                "handshakeReject": {"reason": 5, "detail": "x", "supported": {"major": 3}},
            },
        )

    def test_v1_a_frozen_sender_epoch_keeps_the_low_64_bits_of_its_varint(self):
        # Another major's HandshakeReject whose sender_epoch is 2^64 + 2 in ten bytes: read as 2, as protobufjs reads it.
        data = bytes([0x0a, 0x02, 0x08, 0x02, 0x12, 0x02]) + b"P1" + bytes([0x18, 0x82] + [0x80] * 8 + [0x02, 0x5a, 0x00])
        self.assertEqual(codec.decode_frozen_envelope(data)["senderEpoch"], 2)

    def test_v1_two_bodies_or_a_frozen_field_twice_are_none(self):
        # SPEC.md section 5: an unreadable field 10, then a HandshakeReject: two bodies.
        self.assertIsNone(codec.decode_frozen_envelope(bytes.fromhex("0a02080312017018095206" "08021a02ffff" "5a00")))
        self.assertIsNone(codec.decode_frozen_envelope(bytes.fromhex("0a020803" "0a020803" "120170" "1809" "5a00")))
        self.assertIsNone(codec.decode_frozen_envelope(bytes.fromhex("0a020803" "120170" "1809" "1809" "5a00")))
        # A field 12 (a varint here) beside the body is skipped, before or after it.
        for data in ("0a020803" "120170" "1809" "6001" "5a00", "0a020803" "120170" "1809" "5a00" "6001"):
            self.assertEqual(codec.decode_frozen_envelope(bytes.fromhex(data))["handshakeReject"], {})
        # sender_epoch again with another wire type is not the frozen field: skipped.
        self.assertEqual(
            codec.decode_frozen_envelope(bytes.fromhex("0a020803" "120170" "1809" "1a00" "5a00")),
            {"version": {"major": 3}, "senderId": "p", "senderEpoch": 9, "handshakeReject": {}},
        )

    def test_v1_bytes_that_do_not_even_frame_are_none(self):
        self.assertIsNone(codec.decode_frozen_envelope(b"\x0a\x05\x01"))


if __name__ == "__main__":
    unittest.main()

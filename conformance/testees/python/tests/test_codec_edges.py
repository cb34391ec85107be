"""Edges of the protobuf codec [V1] [I1]: encoder bytes (packed, defaults, negative enums), integer
widths on decode, fields that run one byte past the end, wire types 6 and 7, and the element limit
for unpacked repeated varints (SPEC.md section 5). Expected values are what the TypeScript SDK
(packages/protocol: encodeEnvelope / decodeEnvelope) writes and reads for the same bytes."""

import unittest

from ectp_py import codec

HEADER = bytes.fromhex("0a0208011201611801")  # version 1, sender "a", epoch 1


def envelope(tail: bytes) -> dict:
    return codec.decode("ectp.v1.Envelope", HEADER + tail)


def body(field: int, payload: bytes) -> bytes:
    """A length-delimited field (payloads under 2^14 bytes, fields under 16 or 16-2047)."""
    tag = codec._varint(field << 3 | 2)
    return tag + codec._varint(len(payload)) + payload


class EncodeEdgesTest(unittest.TestCase):
    def test_v1_negative_enum_is_a_ten_byte_varint_and_reads_back(self):
        data = codec.encode("ectp.v1.ReadReject", {"reason": -1})
        self.assertEqual(data, bytes.fromhex("10" + "ff" * 9 + "01"))
        self.assertEqual(codec.decode("ectp.v1.ReadReject", data), {"reason": -1})

    def test_v1_varint_byte_boundaries(self):
        for value, hex_ in ((1, "0801"), (127, "087f"), (128, "088001"), (16383, "08ff7f"), (16384, "08808001"),
                            (2**53 - 1, "08ffffffffffffff0f")):
            with self.subTest(value=value):
                data = codec.encode("ectp.v1.Heartbeat", {"sequence": value})
                self.assertEqual(data, bytes.fromhex(hex_))
                self.assertEqual(codec.decode("ectp.v1.Heartbeat", data), {"sequence": value})

    def test_v1_proto3_defaults_are_omitted(self):
        self.assertEqual(codec.encode("ectp.v1.ReadReject", {"attemptId": 0, "reason": 0, "retryable": False, "detail": ""}), b"")
        self.assertEqual(codec.encode("ectp.v1.Checksum", {"algorithm": 0, "value": b""}), b"")
        self.assertEqual(codec.encode("ectp.v1.ReadReject", {"retryable": True, "detail": "x"}), bytes.fromhex("18012a0178"))
        # A message field is written even when empty (its presence is the information).
        self.assertEqual(codec.encode("ectp.v1.Envelope", {"heartbeat": {}}), bytes.fromhex("820100"))

    def test_v1_an_optional_scalar_is_written_even_when_zero(self):
        self.assertEqual(codec.encode("ectp.conformance.v1.PollResult", {"nextDeadlineMs": 0}), bytes.fromhex("1000"))
        self.assertEqual(codec.decode("ectp.conformance.v1.PollResult", bytes.fromhex("1000")), {"nextDeadlineMs": 0})

    def test_v1_repeated_varints_are_packed_and_an_empty_list_is_omitted(self):
        self.assertEqual(codec.encode("ectp.v1.ItemDescriptor", {"shape": [2, 3]}), bytes.fromhex("22020203"))
        self.assertEqual(codec.encode("ectp.v1.ItemDescriptor", {"shape": [0, 300]}), bytes.fromhex("220300ac02"))
        self.assertEqual(codec.encode("ectp.v1.ItemDescriptor", {"shape": []}), b"")
        # Repeated strings are not packed: one field each.
        self.assertEqual(codec.encode("ectp.v1.Hello", {"capabilities": ["a", ""]}), bytes.fromhex("1201611200"))


class DecodeEdgesTest(unittest.TestCase):
    def test_v1_a_uint32_keeps_the_low_32_bits_of_its_varint(self):
        # ReadReject.retry_after_ms = 2^32 + 5: protobufjs reads 5.
        self.assertEqual(codec.decode("ectp.v1.ReadReject", bytes.fromhex("208580808010")), {"retryAfterMs": 5})

    def test_v1_an_enum_is_a_signed_int32(self):
        self.assertEqual(codec.decode("ectp.v1.ReadReject", bytes.fromhex("10" + "ff" * 9 + "01")), {"reason": -1})
        self.assertEqual(codec.decode("ectp.v1.ReadReject", bytes.fromhex("1080808080f8ffffffff01")), {"reason": -(2**31)})
        self.assertEqual(codec.decode("ectp.v1.ReadReject", bytes.fromhex("10ffffffff07")), {"reason": 2**31 - 1})
        # Only the low 32 bits count: 2^32 + 7 reads as 7.
        self.assertEqual(codec.decode("ectp.v1.ReadReject", bytes.fromhex("108780808010")), {"reason": 7})

    def test_v1_a_varint_of_more_than_10_bytes_in_a_known_field_is_malformed(self):
        for tail in (body(16, bytes.fromhex("08" + "80" * 10 + "00")),  # heartbeat.sequence
                     body(13, body(3, body(4, bytes.fromhex("80" * 10 + "00"))))):  # a packed shape value
            with self.subTest(tail=tail.hex()), self.assertRaisesRegex(codec.DecodeError, "longer than 10 bytes"):
                envelope(tail)
        self.assertEqual(envelope(body(16, bytes.fromhex("08" + "81" + "80" * 8 + "00")))["heartbeat"], {"sequence": 1})

    def test_v1_a_field_one_byte_past_the_end_is_malformed(self):
        for tail in ("820101",  # a heartbeat of length 1, no byte left
                     "82010208",  # length 2, one byte left
                     "21" + "00" * 7,  # unknown fixed64 (field 4), 7 bytes left
                     "25" + "00" * 3):  # unknown fixed32, 3 bytes left
            with self.subTest(tail=tail), self.assertRaises(codec.DecodeError):
                envelope(bytes.fromhex(tail))
        # Exactly at the end is fine.
        self.assertEqual(envelope(bytes.fromhex("21" + "00" * 8 + "820100"))["heartbeat"], {})
        self.assertEqual(envelope(bytes.fromhex("25" + "00" * 4 + "820100"))["heartbeat"], {})

    def test_v1_wire_types_6_and_7_are_malformed_outside_a_group_too(self):
        for tail in ("26", "27", "2601820100", "8201010e", "8201010f"):
            with self.subTest(tail=tail), self.assertRaisesRegex(codec.DecodeError, "wire type"):
                envelope(bytes.fromhex(tail))

    def test_i1_unpacked_varint_elements_count_toward_the_limit(self):
        limit = codec.MAX_REPEATED_ELEMENTS
        ok = envelope(body(13, body(3, b"\x20\x01" * limit)))
        self.assertEqual(len(ok["readGrant"]["item"]["shape"]), limit)
        with self.assertRaisesRegex(codec.DecodeError, r"\(at field shape\)"):
            envelope(body(13, body(3, b"\x20\x01" * (limit + 1))))

    def test_v1_frozen_fields_with_an_invalid_utf8_sender_are_none_not_an_exception(self):
        self.assertIsNone(codec.decode_frozen_envelope(bytes.fromhex("0a020803" "1201ff" "1809" "5a00")))
        self.assertIsNone(codec.decode_frozen_envelope(bytes.fromhex("0a020803" "120170" "1809" "5a021201ff")))


class JsonLeniencyTest(unittest.TestCase):
    """The proto3 JSON reader (the untrusted-json feature) never raises: what it cannot convert is
    kept as received, so the validators see the wrong type and refuse it [C2] [I1]."""

    def test_v1_json_values_that_cannot_be_converted_are_kept_as_received(self):
        self.assertEqual(codec.decode_base64("AQ"), b"\x01")  # unpadded
        self.assertEqual(codec.decode_base64("-_8"), b"\xfb\xff")  # URL-safe
        self.assertIsNone(codec.decode_base64("@@@@"))
        cases = (
            ("ectp.v1.Checksum", {"value": "@@@@"}, {"value": "@@@@"}),  # invalid base64
            ("ectp.v1.Checksum", {"value": 7}, {"value": 7}),  # bytes not a string
            ("ectp.v1.Heartbeat", {"sequence": True}, {"sequence": True}),  # a bool is not the integer 1
            ("ectp.v1.ReadReject", {"reason": False}, {"reason": False}),  # nor an enum value 0
            ("ectp.v1.ItemDescriptor", {"shape": 3}, {"shape": 3}),  # a repeated field that is not a list
        )
        for type_name, obj, expected in cases:
            with self.subTest(obj=obj):
                out = codec.from_json(type_name, obj)
                self.assertEqual(out, expected)
                self.assertEqual({k: type(v) for k, v in out.items()}, {k: type(v) for k, v in expected.items()})  # True is not 1
        for obj in ([1], "x", None):
            self.assertIs(codec.from_json("ectp.v1.Heartbeat", obj), obj)
        self.assertEqual(codec.from_json("ectp.v1.Checksum", {"value": "AQID"}), {"value": b"\x01\x02\x03"})

    def test_v1_json_enum_by_name_number_or_decimal_string(self):
        internal = codec.enum_value("ectp.v1.FailureReason", "FAILURE_REASON_INTERNAL")
        self.assertEqual(internal, 6)
        for value in ("FAILURE_REASON_INTERNAL", 6, 6.0, "6"):
            with self.subTest(value=value):
                self.assertEqual(codec.from_json("ectp.v1.ReadReject", {"reason": value}), {"reason": internal})
        # Not a name nor a bare decimal: kept as it came, for the validators to refuse (as proto3 JSON parsers do).
        for junk in ("NO_SUCH_REASON", " 6 ", "6\n", "\u0666"):
            with self.subTest(junk=junk):
                self.assertEqual(codec.from_json("ectp.v1.ReadReject", {"reason": junk}), {"reason": junk})

    def test_c2_a_field_under_both_of_its_names_is_found_at_any_depth(self):
        # proto3 JSON parsers refuse a field given as lowerCamelCase and as in the .proto file, even with one value.
        item = {"sizeBytes": "64", "producerId": "P1", "shape": ["1"]}
        self.assertIsNone(codec.field_named_twice("ectp.v1.ItemDescriptor", item))
        self.assertIsNone(codec.field_named_twice("ectp.v1.ItemDescriptor", {"size_bytes": "64", "producer_id": "P1"}))
        self.assertEqual(codec.field_named_twice("ectp.v1.ItemDescriptor", {**item, "size_bytes": "64"}), "sizeBytes")
        nested = {"item": {"key": {"contentHash": "AQ", "content_hash": "AQ"}}}
        self.assertEqual(codec.field_named_twice("ectp.v1.Announcement", nested), "item.key.contentHash")
        repeated = {"items": [{"sizeBytes": "1"}, {"sizeBytes": "1", "size_bytes": "2"}]}
        self.assertEqual(codec.field_named_twice("ectp.v1.Snapshot", repeated), "items.sizeBytes")
        for obj in ([1], "x", None, {"unknownField": 1, "unknown_field": 2}):
            with self.subTest(obj=obj):
                self.assertIsNone(codec.field_named_twice("ectp.v1.Announcement", obj))

    def test_json_integers_and_bytes_are_read_strictly(self):
        # proto3 JSON: a 64-bit integer string is its digits alone; bytes are base64 with nothing around them.
        for junk in (" 16", "16 ", "16\n", "\u0661\u0666"):
            with self.subTest(junk=junk):
                self.assertEqual(codec.from_json("ectp.v1.ItemDescriptor", {"sizeBytes": junk}), {"sizeBytes": junk})
        self.assertEqual(codec.from_json("ectp.v1.ItemDescriptor", {"sizeBytes": "16"}), {"sizeBytes": 16})
        for junk in (" AQID", "AQID ", "AQ ID", "AQID!", "AQID=", "AQID==", "aXRlbS1B===="):
            with self.subTest(junk=junk):
                self.assertEqual(codec.from_json("ectp.v1.Checksum", {"value": junk}), {"value": junk})
        for good in ("AQID", "AQI", "AQI=", "-_8", "-_8="):
            with self.subTest(good=good):
                self.assertIsInstance(codec.from_json("ectp.v1.Checksum", {"value": good})["value"], bytes)

    def test_v1_to_json_drops_absent_and_unknown_keys(self):
        self.assertEqual(codec.to_json("ectp.v1.ReadReject", {"attemptId": 5, "detail": None, "bogus": 1}), {"attemptId": "5"})


if __name__ == "__main__":
    unittest.main()

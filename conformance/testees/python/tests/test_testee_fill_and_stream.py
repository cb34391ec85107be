"""Two testee commands: PutItem.fill, an item of one repeated byte value put without its bytes
(the gigabyte of [P5]'s default quota), and DecodeStream (feature stream-framing), the frame
decoder of SPEC.md section 5 over the runner's chunks [C10]."""

import mmap
import unittest
from unittest import mock

from ectp_py import codec
from ectp_py.framing import encode_frame
from ectp_py.testee import ROLE_PRODUCER, TesteeAdapter
from ectp_py.wire import EctpError, item_key_id

from .helpers import FP

CLEAN_END, FRAME_TOO_LARGE, MALFORMED_MESSAGE = 1, 2, 3  # ectp.conformance.v1.StreamOutcome


def producer() -> TesteeAdapter:
    t = TesteeAdapter()
    assert "ok" in t.handle({"commandId": 1, "nowMs": 0, "configure": {"role": ROLE_PRODUCER, "id": "P1", "epoch": 5, "fingerprint": FP}})
    return t


def put(n: int, **extra) -> dict:
    return {"commandId": 2, "nowMs": 0, "putItem": {"descriptor": {"key": {"contentHash": bytes([n]), "fingerprint": FP}, "sizeBytes": 5}, **extra}}


class PutItemFillTest(unittest.TestCase):
    def test_p5_fill_stores_size_bytes_copies_of_the_value_which_a_read_sees(self):
        t = producer()
        for n, fill in ((1, 9), (2, 0)):
            location = t.handle(put(n, fill=fill))["putItem"]["descriptor"]["location"]
            r = t.handle({"commandId": 3, "nowMs": 0, "readMemory": {"location": location, "length": 5}})
            self.assertEqual(r["readMemory"]["data"], bytes([fill]) * 5)

    def test_p5_a_128_mib_fill_of_0_is_held_without_its_zeros_written_and_reads_as_zeros(self):
        t = producer()
        request = put(3, fill=0)
        request["putItem"]["descriptor"]["sizeBytes"] = 128 << 20
        location = t.handle(request)["putItem"]["descriptor"]["location"]
        entry = t.store.get(item_key_id(request["putItem"]["descriptor"]["key"]))
        self.assertIsInstance(entry.data, mmap.mmap)  # zeroed by the OS page by page as it is read, not up front
        self.assertEqual(len(entry.data), 128 << 20)
        r = t.handle({"commandId": 3, "nowMs": 0, "readMemory": {"location": location, "length": 16}})
        self.assertEqual(r["readMemory"]["data"], bytes(16))

    def test_fill_arrives_from_json_and_binary_with_0_present(self):
        """PutItem.fill is `optional`: a fill of 0 is present (all bytes 0), not absent."""
        req = put(1, fill=0)
        self.assertEqual(codec.decode("ectp.conformance.v1.TesteeRequest", codec.encode("ectp.conformance.v1.TesteeRequest", req))["putItem"]["fill"], 0)
        self.assertEqual(codec.from_json("ectp.conformance.v1.TesteeRequest", codec.to_json("ectp.conformance.v1.TesteeRequest", req))["putItem"]["fill"], 0)

    def test_fill_with_data_or_above_255_is_an_error(self):
        t = producer()
        self.assertIn("both data and fill", t.handle(put(1, fill=1, data=b"\x01" * 5))["error"]["message"])
        self.assertIn("0 to 255; got 256", t.handle(put(2, fill=256))["error"]["message"])


class DecodeStreamTest(unittest.TestCase):
    def ask(self, chunks, **extra) -> dict:
        r = TesteeAdapter().handle({"commandId": 1, "nowMs": 0, "decodeStream": {"chunks": chunks, **extra}})
        return r["decodeStream"]

    def test_c10_frames_come_with_the_chunk_that_completed_them_and_a_clean_end_with_the_chunk_count(self):
        """Answered with no instance configured: it touches none."""
        stream = encode_frame(b"hello") + encode_frame(b"")
        self.assertEqual(self.ask([stream[:2], stream[2:7], stream[7:]]), {
            "frames": [{"payload": b"hello", "chunk": 2}, {"payload": b"", "chunk": 2}], "outcome": CLEAN_END, "outcomeChunk": 3})
        self.assertEqual(self.ask([]), {"frames": [], "outcome": CLEAN_END, "outcomeChunk": 0})

    def test_c10_frame_too_large_is_the_outcome_at_its_chunk_and_nothing_after_it_is_decoded(self):
        r = self.ask([encode_frame(b"a") + (6).to_bytes(4, "big"), encode_frame(b"ok")], maxFrameBytes=5)
        self.assertEqual(r, {"frames": [{"payload": b"a", "chunk": 0}], "outcome": FRAME_TOO_LARGE, "outcomeChunk": 0})
        self.assertEqual(self.ask([(16 * 1024 * 1024 + 1).to_bytes(4, "big")])["outcome"], FRAME_TOO_LARGE)

    def test_c10_a_stream_cut_inside_a_frame_is_malformed_at_its_end(self):
        r = self.ask([encode_frame(b"ab"), b"\x00\x00\x00\x05hel"])
        self.assertEqual(r, {"frames": [{"payload": b"ab", "chunk": 0}], "outcome": MALFORMED_MESSAGE, "outcomeChunk": 2})

    def test_c10_after_the_first_outcome_the_decoders_other_errors_are_ignored_and_only_its_frames_count(self):
        """TESTEE-PROTOCOL.md section 5.5: a decoder may refuse the pushes after its error with any
        error, and the end too; the answer keeps the first outcome. An error before any outcome that
        is none is still an Error answer [I1]."""
        class Stub:
            def __init__(self, *args):
                pass

            def push(self, chunk: bytes) -> list[bytes]:
                if chunk == b"big":
                    raise EctpError("FRAME_TOO_LARGE", "too large", {"frames": [b"a"]})
                if chunk == b"bug":
                    raise TypeError("decoder bug")
                return [chunk]

            def end(self) -> None:
                raise ValueError("no end after an error")

        with mock.patch("ectp_py.testee.FrameDecoder", Stub):
            r = TesteeAdapter().handle({"commandId": 1, "nowMs": 0, "decodeStream": {"chunks": [b"big", b"bug", b"x"]}})
            self.assertEqual(r["decodeStream"], {"frames": [{"payload": b"a", "chunk": 0}, {"payload": b"x", "chunk": 2}],
                                                 "outcome": FRAME_TOO_LARGE, "outcomeChunk": 0})
            r = TesteeAdapter().handle({"commandId": 1, "nowMs": 0, "decodeStream": {"chunks": [b"bug", b"big"]}})
            self.assertEqual(r["error"]["message"], "TypeError: decoder bug")

    def test_a_chunk_that_is_not_bytes_is_an_error_answer_not_dropped(self):
        """Dropping it would give every later chunk the index of the one before it."""
        r = TesteeAdapter().handle({"commandId": 1, "nowMs": 0, "decodeStream": {"chunks": [encode_frame(b"a"), "AAAAAWI=", encode_frame(b"c")]}})
        self.assertEqual(r["error"]["code"], "INVALID_ARGUMENT")
        self.assertIn("DecodeStream.chunks[1] is not bytes", r["error"]["message"])

    def test_an_invalid_maximum_is_an_error_answer(self):
        r = TesteeAdapter().handle({"commandId": 1, "nowMs": 0, "decodeStream": {"chunks": [], "maxFrameBytes": 2**32}})
        self.assertEqual(r["error"]["code"], "INVALID_CONFIG")


if __name__ == "__main__":
    unittest.main()

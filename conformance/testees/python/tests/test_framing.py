"""The byte-stream frame decoder of SPEC.md section 5: 4-byte big-endian length prefixes, frames
split or joined by the chunks, zero-length frames, the receiver maximum and FRAME_TOO_LARGE at the
prefix that passes it, and a stream cut inside a frame [C10]."""

import unittest

from ectp_py.framing import DEFAULT_MAX_FRAME_BYTES, FrameDecoder, encode_frame
from ectp_py.wire import EctpError


def prefix(n: int) -> bytes:
    return n.to_bytes(4, "big")


class FrameDecoderTest(unittest.TestCase):
    def test_c10_frame_boundaries_do_not_depend_on_the_chunks(self):
        """Each payload comes out whole with the chunk holding its last byte, however the stream is
        split (byte by byte too) or joined."""
        stream = encode_frame(b"hello") + encode_frame(b"ECTP framing") + encode_frame(b"x" * 300)
        whole = FrameDecoder().push(stream)
        self.assertEqual(whole, [b"hello", b"ECTP framing", b"x" * 300])
        d = FrameDecoder()
        per_byte = [(i, f) for i in range(len(stream)) for f in d.push(stream[i:i + 1])]
        self.assertEqual(per_byte, [(8, b"hello"), (24, b"ECTP framing"), (len(stream) - 1, b"x" * 300)])
        d.end()
        d = FrameDecoder()
        self.assertEqual(d.push(stream[:2]) + d.push(stream[2:12]), [b"hello"])
        self.assertEqual(d.push(stream[12:]), [b"ECTP framing", b"x" * 300])

    def test_c10_the_length_prefix_is_big_endian_and_unsigned(self):
        """0x00000102 is 258 bytes (not 0x02010000); 0x80000000 and up are lengths, not negative."""
        d = FrameDecoder(max_frame_bytes=2**32 - 1)
        self.assertEqual(d.push(prefix(258) + b"a" * 258), [b"a" * 258])
        self.assertEqual(d.push(b"\xff\xff\xff\xff" + b"abc"), [])
        with self.assertRaises(EctpError) as cut:
            d.end()
        self.assertEqual(cut.exception.code, "MALFORMED_MESSAGE")
        self.assertIn("3 of 4294967295 payload bytes", cut.exception.message)

    def test_c10_a_zero_length_frame_is_an_empty_message(self):
        """Handed out at its header, alone or between others, with a header cut in two."""
        d = FrameDecoder()
        self.assertEqual(d.push(prefix(0)), [b""])
        self.assertEqual(d.push(b"\x00\x00"), [])
        self.assertEqual(d.push(b"\x00\x00" + encode_frame(b"x") + prefix(0)), [b"", b"x", b""])
        d.end()

    def test_c10_a_prefix_equal_to_the_maximum_is_accepted_one_over_is_frame_too_large_at_its_header(self):
        """Refused as soon as the prefix is complete, without its payload; the frames before it in
        the same chunk are in the error's details; nothing after it is decoded, and the end repeats it."""
        self.assertEqual(FrameDecoder(max_frame_bytes=5).push(encode_frame(b"hello")), [b"hello"])
        self.assertEqual(FrameDecoder(max_frame_bytes=0).push(encode_frame(b"")), [b""])
        with self.assertRaises(EctpError) as zero:  # a maximum of 0 is a maximum, not the default
            FrameDecoder(max_frame_bytes=0).push(prefix(1))
        self.assertEqual(zero.exception.code, "FRAME_TOO_LARGE")
        with self.assertRaises(EctpError) as same_chunk:  # the rest of the chunk is not decoded either
            FrameDecoder(max_frame_bytes=5).push(encode_frame(b"a") + prefix(6) + encode_frame(b"ok"))
        self.assertEqual(same_chunk.exception.details["frames"], [b"a"])
        d = FrameDecoder(max_frame_bytes=5)
        with self.assertRaises(EctpError) as too_large:
            d.push(encode_frame(b"a") + prefix(6))
        self.assertEqual((too_large.exception.code, too_large.exception.details["frames"]), ("FRAME_TOO_LARGE", [b"a"]))
        for later in (encode_frame(b"ok"), b""):
            with self.assertRaises(EctpError) as again:
                d.push(later)
            self.assertEqual((again.exception.code, again.exception.details["frames"]), ("FRAME_TOO_LARGE", []))
        with self.assertRaises(EctpError) as end:
            d.end()
        self.assertEqual(end.exception.code, "FRAME_TOO_LARGE")
        self.assertEqual(d.push(encode_frame(b"new")), [b"new"])  # end() reset it: a new stream

    def test_c10_i1_the_default_maximum_is_16_mib_and_a_huge_prefix_is_refused_unallocated(self):
        self.assertEqual(DEFAULT_MAX_FRAME_BYTES, 16 * 1024 * 1024)
        self.assertEqual(FrameDecoder().push(prefix(DEFAULT_MAX_FRAME_BYTES) + b"abc"), [])
        for length in (DEFAULT_MAX_FRAME_BYTES + 1, 2**32 - 1):
            with self.assertRaises(EctpError) as too_large:
                FrameDecoder().push(prefix(length))
            self.assertEqual(too_large.exception.code, "FRAME_TOO_LARGE")
            self.assertEqual(too_large.exception.details["length"], length)

    def test_c10_a_stream_cut_inside_a_frame_ends_malformed_and_a_clean_one_does_not(self):
        for tail, where in ((b"\x00\x00", "frame header (2 of 4 bytes)"), (prefix(5) + b"hel", "3 of 5 payload bytes"), (prefix(1), "0 of 1 payload bytes")):
            d = FrameDecoder()
            self.assertEqual(d.push(encode_frame(b"ab") + tail), [b"ab"])
            with self.assertRaises(EctpError) as cut:
                d.end()
            self.assertEqual(cut.exception.code, "MALFORMED_MESSAGE")
            self.assertIn(where, cut.exception.message)
        d = FrameDecoder()
        d.push(encode_frame(b"one"))
        d.end()
        FrameDecoder().end()

    def test_a_maximum_outside_0_to_2_32_minus_1_is_an_invalid_configuration(self):
        for bad in (-1, 2**32, 1.5, True, None):
            with self.assertRaises(EctpError) as e:
                FrameDecoder(bad)
            self.assertEqual(e.exception.code, "INVALID_CONFIG")


if __name__ == "__main__":
    unittest.main()

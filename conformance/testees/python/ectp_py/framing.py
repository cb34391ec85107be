"""Size-delimited framing of byte streams (SPEC.md section 5, "Byte streams").

On a byte stream (a socket, a pipe) each message travels as one frame: a 4-byte unsigned
big-endian length, then exactly that many bytes of one protobuf message. A frame of length 0 is
valid. :class:`FrameDecoder` takes the stream in chunks of any size and hands out each payload as
soon as its last byte arrives, whatever the chunks split or join.

A length prefix above the receiver's maximum (16 MiB by default) is ``FRAME_TOO_LARGE``, raised
as soon as the prefix is complete, without buffering the payload; the position of the next frame
is then unknown, so the decoder refuses everything after it. A stream that ends inside a frame (a
partial header or payload) ends with ``MALFORMED_MESSAGE``; the frames completed before it stand.
Both errors are the peer's doing: catch them where the chunks arrive and close that stream [I1].
"""

from __future__ import annotations

from .wire import EctpError

#: Bytes in a frame header (the length prefix).
FRAME_HEADER_BYTES = 4
#: Default largest frame payload, 16 MiB (SPEC.md section 12).
DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024
#: The largest length a 4-byte prefix holds.
MAX_PREFIX = 2**32 - 1


def encode_frame(payload: bytes) -> bytes:
    """``payload`` as one frame: its length in 4 big-endian bytes, then the payload."""
    return len(payload).to_bytes(FRAME_HEADER_BYTES, "big") + payload


class FrameDecoder:
    """Incremental decoder of one size-delimited byte stream (see module docstring). It holds at
    most a partial header and the part of one payload received so far: a payload buffer grows
    with the bytes that arrive, never to the length a prefix announces."""

    def __init__(self, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES):
        """:param max_frame_bytes: largest payload accepted, an integer in [0, 2^32 - 1]; default 16 MiB.
        :raises EctpError: ``INVALID_CONFIG`` for anything else."""
        if not isinstance(max_frame_bytes, int) or isinstance(max_frame_bytes, bool) or not 0 <= max_frame_bytes <= MAX_PREFIX:
            raise EctpError("INVALID_CONFIG", f"max_frame_bytes must be an integer in [0, {MAX_PREFIX}]; got {max_frame_bytes!r}")
        self.max_frame_bytes = max_frame_bytes
        self._header = bytearray()
        self._expected = -1  # payload length of the frame in progress; -1 while its header is incomplete
        self._payload = bytearray()
        self._failure: EctpError | None = None

    def push(self, chunk: bytes) -> list[bytes]:
        """Consume ``chunk`` and return the payloads it completes, in stream order.

        :raises EctpError: ``FRAME_TOO_LARGE`` for a length prefix above the maximum, with the
            payloads this chunk completed before it in ``details["frames"]``; the same error
            (with no frames) on every later call, until :meth:`reset`."""
        if self._failure is not None:
            raise self._failure
        frames: list[bytes] = []
        data = memoryview(chunk)
        pos, n = 0, len(data)
        while pos < n:
            if self._expected < 0:
                take = min(FRAME_HEADER_BYTES - len(self._header), n - pos)
                self._header += data[pos:pos + take]
                pos += take
                if len(self._header) < FRAME_HEADER_BYTES:
                    break
                length = int.from_bytes(self._header, "big")  # unsigned big-endian (SPEC.md section 5)
                self._header.clear()
                if length > self.max_frame_bytes:
                    # SPEC.md section 5: refused at its prefix, without buffering the payload; nothing after it is decoded.
                    self._failure = self._too_large(length, [])
                    raise self._too_large(length, frames)
                self._expected = length
            take = min(self._expected - len(self._payload), n - pos)
            self._payload += data[pos:pos + take]
            pos += take
            if len(self._payload) == self._expected:  # a frame of length 0 is complete at its header
                frames.append(bytes(self._payload))
                self._payload.clear()
                self._expected = -1
        return frames

    def end(self) -> None:
        """Declare the end of the stream; the decoder is reset either way.

        :raises EctpError: ``MALFORMED_MESSAGE`` when it ended inside a frame (a partial header
            or payload is buffered); an earlier ``FRAME_TOO_LARGE`` again."""
        failure, header, expected, received = self._failure, len(self._header), self._expected, len(self._payload)
        self.reset()
        if failure is not None:
            raise failure
        if expected >= 0:
            raise EctpError("MALFORMED_MESSAGE", f"stream ended inside a frame: {received} of {expected} payload bytes received; the peer closed mid-message")
        if header > 0:
            raise EctpError("MALFORMED_MESSAGE", f"stream ended inside a frame header ({header} of {FRAME_HEADER_BYTES} bytes); the peer closed mid-message")

    def reset(self) -> None:
        """Drop a partial frame and a stored failure, so the decoder can read a new stream."""
        self._header.clear()
        self._payload = bytearray()
        self._expected = -1
        self._failure = None

    def _too_large(self, length: int, frames: list[bytes]) -> EctpError:
        return EctpError(
            "FRAME_TOO_LARGE",
            f"frame length prefix {length} exceeds max_frame_bytes {self.max_frame_bytes}; the stream is corrupt or the peer "
            "sends oversized messages: close the stream",
            {"length": length, "max_frame_bytes": self.max_frame_bytes, "frames": frames},
        )

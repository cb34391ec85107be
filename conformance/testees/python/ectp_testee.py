#!/usr/bin/env python3
"""ECTP conformance testee in pure Python: the stdio loop around :class:`ectp_py.testee.TesteeAdapter`.

Run by the conformance runner, e.g.::

    ectp conformance --testee "python3 conformance/testees/python/ectp_testee.py" --json-lines

It reads ``TesteeRequest`` messages on stdin and writes exactly one ``TesteeResponse`` per
request on stdout (conformance/TESTEE-PROTOCOL.md section 2). Encoding: JSON lines when
``ECTP_TESTEE_FORMAT=json-lines``, else size-delimited protobuf frames (4-byte big-endian
length, section 3.1). stdout carries responses only; logs go to stderr. EOF ends the
process with status 0; SIGTERM ends it at once (Python's default action). A request that
cannot be read (a line that is not JSON or not a ``TesteeRequest``, a frame that does not
decode, is over 64 MiB or is cut off by EOF) is malformed by TESTEE-PROTOCOL.md section 3 and
never sent by the runner: the process names it on stderr and exits with status 2, as there is
no command id to answer and a binary stream cannot be resynchronised.
"""

from __future__ import annotations

import json
import logging
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ectp_py import codec  # noqa: E402
from ectp_py.testee import TesteeAdapter  # noqa: E402

REQUEST = "ectp.conformance.v1.TesteeRequest"
RESPONSE = "ectp.conformance.v1.TesteeResponse"
MAX_FRAME = 64 * 1024 * 1024  # TESTEE-PROTOCOL.md 3.1


class UnreadableRequest(Exception):
    """Input on stdin that is not a TesteeRequest in the expected encoding (TESTEE-PROTOCOL.md 3)."""


def _read_exact(stream, n: int) -> bytes | None:
    """Exactly ``n`` bytes, or ``None`` at a clean EOF before the first byte."""
    buf = bytearray()
    while len(buf) < n:
        chunk = stream.read(n - len(buf))
        if not chunk:
            if buf:
                raise UnreadableRequest(f"stdin ended inside a frame ({len(buf)} of {n} bytes)")
            return None
        buf += chunk
    return bytes(buf)


def serve_binary(adapter: TesteeAdapter, stdin, stdout) -> None:
    """Serve size-delimited protobuf frames until EOF."""
    while True:
        header = _read_exact(stdin, 4)
        if header is None:
            return
        length = int.from_bytes(header, "big")  # big-endian, like every ECTP frame (SPEC.md 5)
        if length > MAX_FRAME:
            raise UnreadableRequest(f"a frame of {length} bytes exceeds the {MAX_FRAME}-byte limit")
        payload = _read_exact(stdin, length) if length else b""
        if payload is None:
            raise UnreadableRequest(f"stdin ended inside a frame (0 of {length} bytes)")
        try:
            # The runner's own frames are not ECTP messages: the element limit does not apply.
            request = codec.decode(REQUEST, payload, limit_elements=False)
        except codec.DecodeError as e:
            raise UnreadableRequest(f"a frame of {length} bytes is not a TesteeRequest: {e}") from e
        response = adapter.handle(request)
        data = codec.encode(RESPONSE, response, limit_elements=False)
        stdout.write(len(data).to_bytes(4, "big") + data)
        stdout.flush()


def serve_json_lines(adapter: TesteeAdapter, stdin, stdout) -> None:
    """Serve proto3 JSON objects, one per line, until EOF (``stdin`` binary: each line is decoded
    on its own, so the requests before one that is not UTF-8 are answered)."""
    for raw in stdin:
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError as e:
            raise UnreadableRequest(f"a line is not UTF-8: {e}") from e
        if not line:
            continue
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError) as e:
            raise UnreadableRequest(f"a line is not JSON: {e}") from e
        if not isinstance(obj, dict):
            raise UnreadableRequest(f"a line holds a JSON {type(obj).__name__}, not a TesteeRequest object")
        response = adapter.handle(codec.from_json(REQUEST, obj))
        stdout.write(json.dumps(codec.to_json(RESPONSE, response), separators=(",", ":")) + "\n")
        stdout.flush()


def main() -> int:
    logging.basicConfig(stream=sys.stderr, level=os.environ.get("ECTP_LOG_LEVEL", "WARNING"),
                        format="%(name)s %(levelname)s %(message)s")
    adapter = TesteeAdapter()
    fmt = os.environ.get("ECTP_TESTEE_FORMAT", "binary")
    try:
        if fmt == "json-lines":
            serve_json_lines(adapter, sys.stdin.buffer, sys.stdout)
        else:
            serve_binary(adapter, sys.stdin.buffer, sys.stdout.buffer)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    except UnreadableRequest as e:
        print(f"ectp_testee.py: unreadable request on stdin ({e}); exiting", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

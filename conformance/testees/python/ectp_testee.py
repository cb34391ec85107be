#!/usr/bin/env python3
"""ECTP conformance testee in pure Python: the stdio loop around :class:`ectp_py.testee.TesteeAdapter`.

Run by the conformance runner, e.g.::

    ectp conformance --testee "python3 conformance/testees/python/ectp_testee.py" --json-lines

It reads ``TesteeRequest`` messages on stdin and writes exactly one ``TesteeResponse`` per
request on stdout (conformance/TESTEE-PROTOCOL.md section 2). Encoding: JSON lines when
``ECTP_TESTEE_FORMAT=json-lines``, else size-delimited protobuf frames (4-byte big-endian
length, section 3.1). stdout carries responses only; logs go to stderr. EOF ends the
process with status 0; SIGTERM ends it at once (Python's default action).
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


def _read_exact(stream, n: int) -> bytes | None:
    """Exactly ``n`` bytes, or ``None`` at a clean EOF before the first byte."""
    buf = bytearray()
    while len(buf) < n:
        chunk = stream.read(n - len(buf))
        if not chunk:
            if buf:
                raise EOFError(f"stream ended inside a frame ({len(buf)} of {n} bytes)")
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
            raise ValueError(f"frame of {length} bytes exceeds {MAX_FRAME}")
        payload = _read_exact(stdin, length) if length else b""
        if payload is None:
            raise EOFError("stream ended inside a frame")
        # The runner's own frames are not ECTP messages: the element limit does not apply.
        response = adapter.handle(codec.decode(REQUEST, payload, limit_elements=False))
        data = codec.encode(RESPONSE, response)
        stdout.write(len(data).to_bytes(4, "big") + data)
        stdout.flush()


def serve_json_lines(adapter: TesteeAdapter, stdin, stdout) -> None:
    """Serve proto3 JSON objects, one per line, until EOF."""
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        request = codec.from_json(REQUEST, json.loads(line))
        response = adapter.handle(request)
        stdout.write(json.dumps(codec.to_json(RESPONSE, response), separators=(",", ":")) + "\n")
        stdout.flush()


def main() -> int:
    logging.basicConfig(stream=sys.stderr, level=os.environ.get("ECTP_LOG_LEVEL", "WARNING"),
                        format="%(name)s %(levelname)s %(message)s")
    adapter = TesteeAdapter()
    fmt = os.environ.get("ECTP_TESTEE_FORMAT", "binary")
    try:
        if fmt == "json-lines":
            stdin = open(sys.stdin.fileno(), encoding="utf-8", closefd=False)
            serve_json_lines(adapter, stdin, sys.stdout)
        else:
            serve_binary(adapter, sys.stdin.buffer, sys.stdout.buffer)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

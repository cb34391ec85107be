"""The stdio main end to end: JSON lines and binary frames, EOF exits with status 0."""

import json
import os
import subprocess
import sys
import unittest

MAIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ectp_testee.py")


def run(stdin: bytes, fmt: str | None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("ECTP_TESTEE_FORMAT", None)
    if fmt:
        env["ECTP_TESTEE_FORMAT"] = fmt
    return subprocess.run([sys.executable, MAIN], input=stdin, capture_output=True, env=env, timeout=20)


class TesteeProcessTest(unittest.TestCase):
    def test_json_lines_init_configure_wrong_role_and_eof(self):
        lines = [
            {"commandId": "1", "nowMs": "0", "init": {"protocolVersion": 1}},
            {"commandId": "2", "nowMs": "0", "configure": {"role": "ROLE_PRODUCER", "id": "P1", "epoch": "5"}},
            {"commandId": "3", "nowMs": "0", "admit": {"requestId": "r1"}},
            {"commandId": "4", "nowMs": "0", "configure": {"role": "ROLE_CONSUMER", "id": "C1", "epoch": "1",
                                                           "timers": {"transferTimeoutMs": "26000"}}},
            {"commandId": "5", "nowMs": "0"},
        ]
        r = run("".join(json.dumps(x) + "\n" for x in lines).encode(), "json-lines")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = [json.loads(x) for x in r.stdout.decode().splitlines()]
        self.assertEqual([o["commandId"] for o in out], ["1", "2", "3", "4", "5"])
        self.assertIn("producer", out[0]["init"]["features"])
        self.assertIn("ok", out[1])
        self.assertEqual(out[2]["error"]["code"], "WRONG_ROLE")
        self.assertEqual(out[3]["error"]["code"], "INVALID_CONFIG")  # [C11]
        self.assertEqual(out[4], {"commandId": "5", "unsupported": {"feature": "unknown-command"}})

    def test_binary_golden_frame_is_big_endian(self):
        r = run(bytes.fromhex("00000006080152020801"), None)
        self.assertEqual(r.returncode, 0, r.stderr)
        length = int.from_bytes(r.stdout[:4], "big")
        self.assertEqual(length, len(r.stdout) - 4)
        self.assertEqual(r.stdout[4:6], b"\x08\x01")  # command_id 1 echoed

    def test_binary_frames_are_not_held_to_the_ectp_element_limit(self):
        # A DeliverMessage whose envelope carries more repeated elements than an ECTP message
        # may: the runner decoded it already, so the testee answers it (no crash, one answer each).
        sys.path.insert(0, os.path.dirname(MAIN))
        from ectp_py import codec

        hello = {"role": 1, "capabilities": ["x"] * (codec.MAX_REPEATED_ELEMENTS + 1)}
        envelope = {"version": {"major": 1}, "senderId": "C1", "senderEpoch": 3, "hello": hello}
        requests = [
            {"commandId": 1, "nowMs": 0, "init": {"protocolVersion": 1}},
            {"commandId": 2, "nowMs": 0, "configure": {"role": 2, "id": "P1", "epoch": 5}},
            {"commandId": 3, "nowMs": 0, "deliverMessage": {"from": "C1", "envelope": envelope}},
        ]
        frames = [codec.encode("ectp.conformance.v1.TesteeRequest", q, limit_elements=False) for q in requests]
        r = run(b"".join(len(f).to_bytes(4, "big") + f for f in frames), None)
        self.assertEqual(r.returncode, 0, r.stderr)
        out, ids = r.stdout, []
        while out:
            n = int.from_bytes(out[:4], "big")
            ids.append(codec.decode("ectp.conformance.v1.TesteeResponse", out[4 : 4 + n])["commandId"])
            out = out[4 + n :]
        self.assertEqual(ids, [1, 2, 3])

    def test_an_unreadable_request_ends_the_process_with_one_line_and_status_2(self):
        init = json.dumps({"commandId": "1", "nowMs": "0", "init": {"protocolVersion": 1}}) + "\n"
        cases = [
            ((init + "{not json\n").encode(), "json-lines", "a line is not JSON"),
            ((init + "[1, 2]\n").encode(), "json-lines", "a line holds a JSON list"),
            (init.encode() + b"\xff\xfe\n", "json-lines", "a line is not UTF-8"),
            ((init + "[" * 100_000 + "\n").encode(), "json-lines", "a line is not JSON"),
            (bytes.fromhex("00000006080152020801") + bytes.fromhex("0000000108"), None, "a frame of 1 bytes is not a TesteeRequest"),
            (bytes.fromhex("00000006080152020801") + bytes.fromhex("0400000108"), None, "exceeds the 67108864-byte limit"),
            (bytes.fromhex("00000006080152020801") + bytes.fromhex("000000090801"), None, "ended inside a frame (2 of 9 bytes)"),
            (bytes.fromhex("00000006080152020801") + bytes.fromhex("0000"), None, "ended inside a frame (2 of 4 bytes)"),
        ]
        for stdin, fmt, why in cases:
            with self.subTest(why=why, fmt=fmt):
                r = run(stdin, fmt)
                self.assertEqual(r.returncode, 2, r.stderr)
                err = r.stderr.decode()
                self.assertIn("unreadable request on stdin", err)
                self.assertIn(why, err)
                self.assertNotIn("Traceback", err)
                # The request before it was answered.
                self.assertTrue(r.stdout, "the Init before the unreadable request had no answer")


class TesteeReadMemoryTest(unittest.TestCase):
    def test_read_memory_serves_held_items_only(self):
        """ReadMemory plays a one-sided read: an item that left the store (discarded, cleared) is
        deregistered memory, refused like a location never handed out."""
        from ectp_py.testee import ROLE_PRODUCER, TesteeAdapter

        t = TesteeAdapter()
        fp = {"model": "m"}
        ok = t.handle({"commandId": 1, "configure": {"role": ROLE_PRODUCER, "id": "P1", "epoch": 1, "fingerprint": fp}})
        self.assertIn("ok", ok)

        def put(name: bytes) -> bytes:
            desc = {"key": {"contentHash": name, "fingerprint": fp}, "sizeBytes": 4}
            return t.handle({"commandId": 2, "putItem": {"descriptor": desc, "data": name[:1] * 4}})["putItem"]["descriptor"]["location"]

        def read(location: bytes) -> dict:
            return t.handle({"commandId": 3, "readMemory": {"location": location, "length": 4}})

        a, b = put(b"a"), put(b"b")
        self.assertEqual(read(a), {"commandId": 3, "readMemory": {"data": b"aaaa"}})
        t.handle({"commandId": 4, "discard": {"key": {"contentHash": b"a", "fingerprint": fp}}})
        self.assertEqual(read(a)["error"]["code"], "INVALID_ARGUMENT")
        self.assertEqual(read(b)["readMemory"]["data"], b"bbbb")
        t.handle({"commandId": 5, "clearStore": {}})
        self.assertEqual(read(b)["error"]["code"], "INVALID_ARGUMENT")
        self.assertEqual(read(b"mem:99")["error"]["code"], "INVALID_ARGUMENT")


if __name__ == "__main__":
    unittest.main()

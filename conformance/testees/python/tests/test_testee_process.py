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


if __name__ == "__main__":
    unittest.main()

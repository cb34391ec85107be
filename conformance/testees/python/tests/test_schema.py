"""schema.py is generated from the protos; this fails when it is stale."""

import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "tools", "gen_schema.py")
PROTOS = os.path.join(HERE, "..", "..", "..", "..", "spec", "proto", "ectp", "v1", "envelope.proto")


class SchemaTest(unittest.TestCase):
    @unittest.skipUnless(os.path.exists(PROTOS), "the .proto files are not next to this copy of the testee")
    def test_v2_schema_matches_the_protos(self):
        r = subprocess.run([sys.executable, GEN, "--check"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)


if __name__ == "__main__":
    unittest.main()

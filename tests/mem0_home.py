"""mem0's home for the tests that import mem0: telemetry off (read when mem0 is imported: nothing may
leave the machine) and MEM0_DIR a temporary folder of this test process, removed when it exits — not the
user's ~/.mem0, and nothing left behind in the temporary directory. Import it before mem0."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ["MEM0_TELEMETRY"] = "False"
if "MEM0_DIR" not in os.environ:
    HOME = tempfile.mkdtemp(prefix="memql-mem0-home-")
    os.environ["MEM0_DIR"] = HOME
    atexit.register(shutil.rmtree, HOME, True)

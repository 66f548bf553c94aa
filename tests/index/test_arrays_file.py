"""Snapshot files (memql.index.arrays_file): written atomically beside the target, read back mapped; the
temporaries a killed writer left are removed by the next write into the folder, a live writer's never."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

from memql.index import arrays_file

MAGIC = b"memql-test-1"


def test_the_arrays_and_header_written_are_read_back(tmp_path):
    target = tmp_path / "snap" / "a.1.postings"
    arrays = {"docs": np.arange(10, dtype=np.int32), "freqs": np.linspace(0, 1, 7, dtype=np.float32)}
    arrays_file.write(target, MAGIC, {"seq": 3}, arrays)
    header, array = arrays_file.read(target, MAGIC, "test snapshot")
    assert header["seq"] == 3
    for name, values in arrays.items():
        assert np.array_equal(array(name), values) and array(name).dtype == values.dtype
    assert [p.name for p in target.parent.iterdir()] == ["a.1.postings"]  # no temporary left


@pytest.mark.skipif(os.name != "posix", reason="a process is asked whether it runs by signal 0 (POSIX)")
def test_a_write_removes_the_temporaries_of_writers_that_died_and_keeps_a_running_ones(tmp_path):
    code = "import os; print(os.getpid())"
    gone = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    dead = int(gone.stdout)  # (exited: no process has that number now, short of the system reusing it)
    orphan = tmp_path / f".a.1.postings.{dead}.7.tmp"
    running = tmp_path / f".a.2.postings.{os.getpid()}.{threading.get_ident() + 1}.tmp"  # this process
    other = tmp_path / ".notes.tmp"  # not a temporary `replacing` named: never ours to remove
    for path in (orphan, running, other):
        path.write_bytes(b"half a snapshot")
    arrays_file.write(tmp_path / "a.3.postings", MAGIC, {}, {"docs": np.arange(3)})
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["a.3.postings", running.name, other.name])

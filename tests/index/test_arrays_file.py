"""Snapshot files (memql.index.arrays_file): written atomically beside the target, read back mapped; a
failed write leaves no temporary; the temporaries a killed writer left are removed by the next write into
the folder once stale, a live writer's never."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

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
    # a process this one cannot see (another PID namespace) may still be writing one: kept while fresh
    recent = tmp_path / f".a.4.postings.{dead}.8.tmp"
    running = tmp_path / f".a.2.postings.{os.getpid()}.{threading.get_ident() + 1}.tmp"  # this process
    other = tmp_path / ".notes.tmp"  # not a temporary `replacing` named: never ours to remove
    for path in (orphan, recent, running, other):
        path.write_bytes(b"half a snapshot")
    stale = time.time() - arrays_file.ORPHAN_AGE_S - 60
    for path in (orphan, running, other):
        os.utime(path, (stale, stale))
    arrays_file.write(tmp_path / "a.3.postings", MAGIC, {}, {"docs": np.arange(3)})
    left = ["a.3.postings", recent.name, running.name, other.name]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(left)


def test_a_write_that_fails_leaves_no_temporary_and_the_old_file_whole(tmp_path, monkeypatch):
    target = tmp_path / "a.1.postings"
    arrays_file.write(target, MAGIC, {"seq": 1}, {"docs": np.arange(3)})

    def full_disk(*args, **kwargs):  # the arrays' bytes meet a full disk
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(np, "ascontiguousarray", full_disk)
    with pytest.raises(OSError, match="No space left"):
        arrays_file.write(target, MAGIC, {"seq": 2}, {"docs": np.arange(5)})
    assert [p.name for p in tmp_path.iterdir()] == ["a.1.postings"]  # the temporary went with the write
    monkeypatch.undo()
    header, array = arrays_file.read(target, MAGIC, "test snapshot")
    assert header["seq"] == 1 and np.array_equal(array("docs"), np.arange(3))

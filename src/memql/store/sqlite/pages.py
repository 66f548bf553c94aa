"""Mapping a snapshot's pages in before the first search reads them (Linux; elsewhere pages map as read).

A reopened store maps its snapshots -- the HNSW graph, the exact vector layer, the lexical index -- and a
first search that touched their pages one by one stopped at a page fault per 4 KiB page it read (at
100,000 records a first hybrid Retrieve took 3-8 ms more than the next ones). madvise(MADV_POPULATE_READ)
maps a whole range in one call, from a thread (ctypes releases the GIL); the opener waits for it a
bounded time (`Populating.wait`), so that the first search finds the pages mapped.
"""

from __future__ import annotations

import contextlib
import ctypes
import mmap
import os
import sys
import threading
import time
from pathlib import Path

import numpy as np

MADV_POPULATE_READ = 22  # Linux 5.14 on; older kernels answer EINVAL, which changes nothing
OPENER_WAIT_S = 0.25  # the most an opener waits for a snapshot's pages (larger ones go on mapping after)


class Populating:
    """The threads mapping one cache's or index's snapshot pages in."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []

    def array(self, array: np.ndarray) -> None:
        """Map a memory-mapped array's pages in (its whole range)."""
        if array.nbytes:
            self._start([(array.ctypes.data, array.nbytes)])

    def file(self, path: Path) -> None:
        """Map in every range of this process's address space mapped from `path` (a library's own
        mapping, as the graph's: found in /proc/self/maps)."""
        if sys.platform.startswith("linux"):
            self._start(_mapped_ranges(path))

    def wait(self, seconds: float) -> None:
        """Wait for the threads, at most `seconds` in all (they go on in the background after that)."""
        deadline = time.monotonic() + seconds
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        self.threads = [t for t in self.threads if t.is_alive()]

    def _start(self, ranges: list[tuple[int, int]]) -> None:
        if not ranges or not sys.platform.startswith("linux"):
            return
        thread = threading.Thread(target=_populate, args=(ranges,), name="memql-map-pages", daemon=True)
        thread.start()
        self.threads.append(thread)


def _populate(ranges: list[tuple[int, int]]) -> None:
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        for address, size in ranges:
            start = address & ~(mmap.PAGESIZE - 1)  # madvise takes whole pages
            libc.madvise(start, address + size - start, MADV_POPULATE_READ)


def _mapped_ranges(path: Path) -> list[tuple[int, int]]:
    """(start, size) of each mapping of `path` in this process."""
    target = os.path.realpath(path)
    found = []
    with contextlib.suppress(OSError), open("/proc/self/maps") as maps:
        for line in maps:
            parts = line.split(maxsplit=5)
            if len(parts) == 6 and parts[5].rstrip("\n") == target:
                start, end = (int(x, 16) for x in parts[0].split("-"))
                found.append((start, end - start))
    return found

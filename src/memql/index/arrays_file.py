"""A file of named numpy arrays with a JSON header, written atomically and mapped rather than read: what
the lexical index's snapshots are made of (memql.index.postings).

The file is a magic string, the header's length and the header (JSON: the caller's fields and where each
array lies), then the arrays' raw bytes, each aligned. Opening one costs little more than its header,
whatever its size: the arrays are mapped copy-on-write, so the pages a search reads come from the file and
a change stays in the process that made it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import mmap
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

_ALIGN = 64
# a dead process's temporary is removed once untouched this long: a writer whose process this one cannot see
# (another PID namespace -- a container sharing the folder -- says "no such process") is still writing
ORPHAN_AGE_S = 3600.0


def write(path: Path, magic: bytes, header: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    """Write `header` (JSON-able, without an "arrays" field) and `arrays` to `path` (`replacing` it)."""
    layout, offset = {}, 0
    for name, array in arrays.items():
        layout[name] = [array.dtype.str, len(array), offset]
        offset += _aligned(array.nbytes)
    head = json.dumps(header | {"arrays": layout}, ensure_ascii=False).encode()
    start = _aligned(len(magic) + 8 + len(head))
    with replacing(path) as tmp, open(tmp, "wb") as out:
        out.write(magic + len(head).to_bytes(8, "little") + head)
        for name, array in arrays.items():
            out.seek(start + layout[name][2])
            out.write(np.ascontiguousarray(array).data)
        out.truncate(start + offset)


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary name beside `path` to write to (this process and thread's own), renamed over `path`
    once written: a reader sees the old file or the new one, never half of one. A write that fails removes
    its temporary (a full disk is not left fuller); the temporaries a killed process left in the folder are
    removed first (`remove_orphans`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_orphans(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise


@contextmanager
def optional_write(what: str) -> Iterator[None]:
    """A snapshot's write that cannot fail its caller: a snapshot only spares the next opener a rebuild,
    so a full disk or an unwritable folder costs a warning (`what` could not be written), never the search
    or the close that wrote it."""
    try:
        yield
    except OSError as exc:
        logging.getLogger("memql").warning("could not write %s, going on without it: %s", what, exc)


def remove_orphans(folder: Path) -> None:
    """Remove the temporaries `replacing` named in `folder` for processes that no longer run, once untouched
    for ORPHAN_AGE_S: a process killed while it wrote a snapshot left one as large as the snapshot, and each
    later kill another. A running process's are left alone; so is any whose process cannot be told (not
    POSIX)."""
    if os.name != "posix":
        return
    stale = time.time() - ORPHAN_AGE_S
    for tmp in folder.glob(".*.tmp"):
        parts = tmp.name.split(".")
        if len(parts) >= 5 and parts[-3].isdigit() and not _running(int(parts[-3])):
            with contextlib.suppress(OSError):  # (removed meanwhile, or not ours to remove)
                if tmp.stat().st_mtime < stale:
                    tmp.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # (signal 0: only asks whether the process exists)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process, or an answer that proves nothing: kept
    return True


def read(path: Path, magic: bytes, kind: str) -> tuple[dict[str, Any], Callable[[str], np.ndarray]]:
    """The header of a file `write` wrote and a function giving each array by name, mapped; ValueError for
    a file that is not one (`kind` names what it should be) or is cut short."""
    with open(path, "rb") as file:
        if file.read(len(magic)) != magic:
            raise ValueError(f"{path} is not a {kind}")
        size = int.from_bytes(file.read(8), "little")
        header = json.loads(file.read(size).decode())
        start = _aligned(len(magic) + 8 + size)
        mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_COPY)

    def array(name: str) -> np.ndarray:
        dtype, count, offset = header["arrays"][name]
        if start + offset + count * np.dtype(dtype).itemsize > len(mapped):
            raise ValueError(f"{path} is cut short")
        return np.frombuffer(mapped, dtype, count, start + offset)  # type: ignore[call-overload]

    return header, array


def _aligned(size: int) -> int:
    return -(-size // _ALIGN) * _ALIGN

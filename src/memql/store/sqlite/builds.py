"""The index builds a process runs in the background (the vector graphs, the lexical index), and the
connections they read the store through.

A build runs numpy and the graph library, which release the GIL. A daemon thread still inside such a call
when the interpreter finalises is ended by pthread_exit as it takes the GIL back, and that unwinding
through their C++ frames aborts the process ("terminate called without an active exception", exit status
134) after the command's own work was done: `memql search` on a store of 60,000 records without a lexical
snapshot exited so in 5 runs of 8. So every build is started by `launch`, none starts once the interpreter
exits, and those running are told to stop (`EXITING`, which each checks at its next slice of work) and
waited for before it finalises.
"""

from __future__ import annotations

import atexit
import os
import sqlite3
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

EXITING = threading.Event()  # the interpreter exits: a running build stops at its next slice
_RUNNING: weakref.WeakSet[threading.Thread] = weakref.WeakSet()
_LAUNCHING = threading.Lock()  # a build starts, or the process is told to exit: one at a time


def launch(
    target: Callable[..., Any], *args: Any, name: str, publish: Callable[[threading.Thread | None], Any]
) -> None:
    """Run `target(*args)` in a daemon thread of its own, handed to `publish` before it starts (whoever
    looks for it never finds it missing while it runs); once the interpreter exits, nothing starts and
    `publish` gets None."""
    with _LAUNCHING:
        if EXITING.is_set():
            publish(None)
            return
        thread = threading.Thread(target=_run, args=(target, args), name=name, daemon=True)
        publish(thread)
        _RUNNING.add(thread)
        thread.start()


def _run(target: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        target(*args)
    finally:
        _RUNNING.discard(threading.current_thread())


@atexit.register
def _stop_builds() -> None:
    with _LAUNCHING:
        EXITING.set()
    for thread in list(_RUNNING):
        thread.join()


def connect_existing(database: Path) -> sqlite3.Connection:
    """A connection of a background thread's own to the store's file, which must exist (a store deleted
    meanwhile is not created again, empty)."""
    from urllib.request import pathname2url

    uri = f"file:{pathname2url(os.fspath(database))}?mode=rw"
    return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=30)

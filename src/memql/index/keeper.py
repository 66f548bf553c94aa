"""A thread that keeps an index current as it is asked to (both backends' lexical indexes use one).

Passes run one at a time on a connection the thread opens itself; a wake while a pass runs asks for one
more. A pass waits GATHER seconds after the wake that asks for it, so that the commits of a process
writing one record per transaction are absorbed several at a time: a pass per commit cost a writer as
much CPU as its Encodes (the pass's statements, the thread's wake-up and its turn at the GIL, each
record put alone), and a search catches up by itself with whatever no pass has absorbed yet. `wait`
(tests, the bench) hurries the pass. `stop` ends the thread: after one last pass when `final_pass`
(SQLite's index absorbs what its process committed before saving its snapshot), else at once. The
thread ends too when its store goes away (an error of `gone`): searches then catch up by themselves.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

GATHER = 0.02  # seconds a pass waits after its wake for more commits to absorb with it


class Keeper:
    def __init__(
        self,
        name: str,
        connect: Callable[[], Any],
        run_pass: Callable[[Any], None],
        gone: tuple[type[BaseException], ...],
        final_pass: bool,
    ) -> None:
        self.name, self.connect, self.run_pass, self.gone, self.final_pass = (
            name, connect, run_pass, gone, final_pass
        )  # fmt: skip
        self.condition = threading.Condition()
        self.thread: threading.Thread | None = None
        self.pending = False  # a pass asked for since the last one began
        self.working = False  # a pass runs
        self.stopping = False
        self.hurry = False  # the next pass starts at once (`wait`)

    def wake(self) -> None:
        """Ask for a pass (the thread starts at the first)."""
        with self.condition:
            if self.stopping or self.pending:  # (a pass asked for already: gathering, or queued)
                return
            self.pending = True
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self.thread.start()
            self.condition.notify_all()

    def wait(self) -> None:
        """Until every pass asked for so far is done (tests, the bench)."""
        with self.condition:
            self.hurry = True
            self.condition.notify_all()
            self.condition.wait_for(lambda: self.thread is None or not (self.pending or self.working))
            self.hurry = False

    def stop(self) -> None:
        """End the thread (after a last pass, with `final_pass`) and wait for it."""
        with self.condition:
            self.stopping = True
            thread = self.thread
            self.condition.notify_all()
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        conn = None
        try:
            conn = self.connect()
            while True:
                with self.condition:
                    self.condition.wait_for(lambda: self.pending or self.stopping)
                    self.condition.wait_for(lambda: self.stopping or self.hurry, timeout=GATHER)
                    last = self.stopping
                    if last and not self.final_pass:
                        return
                    self.pending, self.working = False, True
                try:
                    self.run_pass(conn)
                finally:
                    with self.condition:
                        self.working = False
                        self.condition.notify_all()
                if last:
                    return
        except self.gone:
            pass
        finally:
            if conn is not None:
                conn.close()
            with self.condition:
                self.thread = None
                self.pending = self.working = False
                self.condition.notify_all()


class Kept:
    """An index kept by a `Keeper` (its `keeping`): its thread, while one runs, and whether it stops."""

    keeping: Keeper

    @property
    def keeper(self) -> threading.Thread | None:
        return self.keeping.thread

    @property
    def stopping(self) -> bool:
        return self.keeping.stopping

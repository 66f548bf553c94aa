"""A thread of the process's that runs one part of a search while the calling thread runs another.

A hybrid search on a large store that has just been reopened or loaded scores its exact vector layer (a
matrix product over every vector not yet in the HNSW graph: tens of thousands of rows, memory-bound)
and searches the graph; both release the GIL, so on two cores the product runs here while the caller
searches the graph. A job nobody has started when the caller wants its result is run by the caller
itself: a side thread waiting for a core never makes a search slower than doing both in turn.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class _Job(Generic[T]):
    __slots__ = ("done", "error", "fn", "result", "taken")

    def __init__(self, fn: Callable[[], T]) -> None:
        self.fn = fn
        self.taken = threading.Lock()  # whoever takes it first runs it: the side thread or the caller
        self.done = threading.Event()
        self.result: T | None = None
        self.error: BaseException | None = None

    def run(self, side: SideThread | None = None) -> None:
        began = time.thread_time()
        try:
            self.result = self.fn()
        except BaseException as exc:  # handed to the caller
            self.error = exc
        finally:
            if side is not None:  # counted before the caller can read the result
                side.cpu_s += time.thread_time() - began
            self.done.set()

    def wait(self) -> T:
        if self.taken.acquire(blocking=False):  # not started yet: run it here
            self.run()
        self.done.wait()
        if self.error is not None:
            raise self.error
        return self.result  # type: ignore[return-value]


class SideThread:
    """One daemon thread, started at its first job; one job at a time (a caller that finds it busy runs
    its part itself). `cpu_s`: the thread CPU time its jobs took, which a caller's own thread CPU time
    does not count (the bench adds it back)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.jobs: queue.SimpleQueue[_Job[Any]] = queue.SimpleQueue()
        self.busy = threading.Lock()
        self.thread: threading.Thread | None = None
        self.cpu_s = 0.0

    def start(self, fn: Callable[[], T]) -> Callable[[], T]:
        """Start `fn` here if this thread is idle; returns the function that gives its result (waiting
        for it, or running it on the calling thread when this one had not started it)."""
        if not self.busy.acquire(blocking=False):
            return fn
        job = _Job(fn)
        if self.thread is None:
            self.thread = threading.Thread(target=self._serve, name=self.name, daemon=True)
            self.thread.start()
        self.jobs.put(job)
        return job.wait

    def _serve(self) -> None:
        while True:
            job = self.jobs.get()
            try:
                if job.taken.acquire(blocking=False):
                    job.run(self)
            finally:
                self.busy.release()

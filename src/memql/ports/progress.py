"""The Progress port: how long-running library work (bench runs, copies, embedding backfills) says how far
it has come, without knowing who listens. The CLI draws bars from it (memql.interfaces.cli.progress); a
library caller may pass any callable of this shape, or nothing.

A call names the current task in `message`. Repeating the same message with a growing `done` advances that
task (out of `total` when it is known); a new message starts a new task, which ends the previous one.
"""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def __call__(self, message: str, done: int | None = None, total: int | None = None) -> None: ...


def silent(message: str, done: int | None = None, total: int | None = None) -> None:
    """A Progress that reports nowhere (the default of every function that takes one)."""

"""Progress bars for long CLI work (bench runs, import, embedding backfill, copy).

Bars go to standard error, and only when it is a terminal and `memql --quiet` was not given: standard
output (tables, or JSON with --json or in a pipe) never sees them, and scripts and tests stay silent.
The library reports through the Progress port (memql.ports.progress); this is its one drawing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

import click

from memql.ports.progress import Progress, silent


def quiet_requested() -> bool:
    """Whether the running command's `memql --quiet` (or $MEMQL_QUIET) asked for no progress output."""
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    return bool(obj.get("quiet")) if isinstance(obj, dict) else False


def shows_progress(quiet: bool | None = None, stream: IO[str] | None = None) -> bool:
    stream = stream if stream is not None else sys.stderr
    quiet = quiet_requested() if quiet is None else quiet
    return not quiet and hasattr(stream, "isatty") and stream.isatty()


@contextmanager
def progress_bars(
    quiet: bool | None = None, stream: IO[str] | None = None, *, lines: bool = False
) -> Iterator[Progress]:
    """A Progress that draws rich bars on `stream` (default standard error) while the block runs, or a
    silent one when `stream` is not a terminal or quiet (default: `memql --quiet`) is set. With `lines`
    (the long benches), a stream that is not a terminal gets plain progress lines instead of silence: a
    CI log or `2> log` shows how far a run of many minutes is."""
    if not shows_progress(quiet, stream):
        quiet = quiet_requested() if quiet is None else quiet
        yield _Lines(stream if stream is not None else sys.stderr) if lines and not quiet else silent
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )
    from rich.progress import Progress as RichProgress
    from rich.table import Column

    console = Console(file=stream if stream is not None else sys.stderr)
    columns = (
        SpinnerColumn(finished_text="[green]✓[/green]"),
        # a long description gives way before the counts do on a narrow terminal
        TextColumn("{task.description}", table_column=Column(ratio=3, no_wrap=True, overflow="ellipsis")),
        BarColumn(bar_width=None, table_column=Column(ratio=1, min_width=8)),
        MofNCompleteColumn(table_column=Column(no_wrap=True, min_width=9)),
        TimeElapsedColumn(table_column=Column(no_wrap=True, min_width=7)),
    )
    with RichProgress(*columns, console=console, expand=True) as bars:
        drawing = _Bars(bars)
        yield drawing
        drawing.finish()


class _Bars:
    """Adapts Progress calls to rich tasks: one task per distinct message, in order."""

    def __init__(self, bars: Any) -> None:
        self._bars = bars
        self._task: Any = None
        self._message: str | None = None

    def __call__(self, message: str, done: int | None = None, total: int | None = None) -> None:
        if message != self._message:
            self.finish()
            self._task = self._bars.add_task(message, total=total, completed=done or 0)
            self._message = message
            return
        self._bars.update(self._task, completed=done, total=total)

    def finish(self) -> None:
        """End the current task: one without a total shows its count as done (N/N); one with a total is
        left as reported, so work cut short by an error does not look complete."""
        if self._task is None:
            return
        task = next((t for t in self._bars.tasks if t.id == self._task), None)
        if task is not None and task.total is None:
            self._bars.update(self._task, total=max(task.completed, 1), completed=max(task.completed, 1))
        self._task, self._message = None, None


class _Lines:
    """Progress as plain lines: a task's first report, then at most one line per `every` seconds, and its
    last (done == total)."""

    def __init__(self, stream: IO[str], every: float = 15.0) -> None:
        self._stream, self._every = stream, every
        self._message: str | None = None
        self._last = 0.0
        self._started = time.monotonic()

    def __call__(self, message: str, done: int | None = None, total: int | None = None) -> None:
        now = time.monotonic()
        first = message != self._message
        if first:
            self._message, self._started = message, now
        finished = total is not None and done is not None and done >= total
        if not (first or finished or now - self._last >= self._every):
            return
        self._last = now
        count = f"{done or 0}/{total}" if total is not None else str(done or 0)
        self._stream.write(f"memql: {message}: {count} ({now - self._started:.0f} s)\n")
        self._stream.flush()

"""Progress bars for long CLI work (bench runs, import, embedding backfill, copy).

Bars go to standard error, and only when it is a terminal and `memql --quiet` was not given: standard
output (tables, or JSON with --json or in a pipe) never sees them, and scripts and tests stay silent.
The library reports through the Progress port (memql.ports.progress); this is its one drawing.
"""

from __future__ import annotations

import sys
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
def progress_bars(quiet: bool | None = None, stream: IO[str] | None = None) -> Iterator[Progress]:
    """A Progress that draws rich bars on `stream` (default standard error) while the block runs, or a
    silent one when `stream` is not a terminal or quiet (default: `memql --quiet`) is set."""
    if not shows_progress(quiet, stream):
        yield silent
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

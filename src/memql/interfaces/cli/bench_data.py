"""The `--data` argument of the bench commands: a JSONL file, or the short name of a set memql ships."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click


class BenchData(click.ParamType):
    """A path to an existing file, or a shipped set's name (`memql-v1`) resolved to its file."""

    name = "FILE|SET"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        if isinstance(value, Path):
            return value
        candidate = Path(value)
        if candidate.is_file():
            return candidate
        from memql.bench import sets

        try:
            return sets.path(str(value))
        except KeyError:
            shipped = ", ".join(sets.names()) or "none"
            self.fail(f"{value!r} is neither a file nor a shipped bench set (shipped: {shipped})", param, ctx)


BENCH_DATA = BenchData()

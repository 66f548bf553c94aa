"""The `--data` argument of the bench commands: a JSONL file, or the short name of a set memql ships."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click


class BenchData(click.ParamType):
    """A path to an existing file, or the name of a shipped set of the bench's family (`memql-v1` for
    text2mem, `state-v1` for state) resolved to its file."""

    name = "FILE|SET"

    def __init__(self, family: str) -> None:
        self.family = family

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        if isinstance(value, Path):
            return value
        candidate = Path(value)
        if candidate.is_file():
            return candidate
        from memql.bench import sets

        try:
            return sets.path(str(value), self.family)
        except KeyError:
            shipped = ", ".join(sets.names(self.family)) or "none"
            self.fail(f"{value!r} is neither a file nor a shipped bench set (shipped: {shipped})", param, ctx)


TEXT2MEM_DATA = BenchData("text2mem")
STATE_DATA = BenchData("state")
INSTRUCTIONS_DATA = BenchData("instructions")

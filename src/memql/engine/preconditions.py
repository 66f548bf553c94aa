"""Preconditions: what a program's own transaction checks before its first step, so that memql's callers
write only if what they read before is still so (a read and a write of two transactions cannot be made
one otherwise: the language has no compare-and-set). `Executor.execute(..., precondition=...)` runs one
with the writers of the tenant held off (SQLite's write lock, PostgreSQL's tenant lock); a Refusal it
raises refuses the program with nothing written."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from memql.engine.context import Context
from memql.engine.targets import query_from_filter
from memql.errors import Refusal
from memql.lang.target import Filter

Precondition = Callable[[Context], None]


def none_written_after(
    where: Mapping[str, Any],
    after: str | None,
    *,
    owner: str | None,
    rule: str,
    message: str,
    path: str = "",
) -> Precondition:
    """No record that matches `where` (the language's target filter), that the session may read and that
    is `owner`'s (None: anyone's) was written after record `after` (None: none at all); else the refusal
    (rule, message) at `path`. Only the records written since are read (the record numbers' range)."""
    wanted = Filter.model_validate(dict(where))

    def check(ctx: Context) -> None:
        query = replace(query_from_filter(wanted, ctx, write=True), written_after=after or "0")
        if any(owner is None or r.owner == owner for r, _ in ctx.session.find(ctx.tenant, query)):
            raise Refusal(rule, message, path)

    return check

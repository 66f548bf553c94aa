"""Preconditions: what a program's own transaction checks before its first step, so that memql's callers
write only if what they read before is still so (a read and a write of two transactions cannot be made
one otherwise: the language has no compare-and-set). `Executor.execute(..., precondition=...)` runs one
with the writers of the tenant held off (SQLite's write lock, PostgreSQL's tenant lock); a Refusal it
raises refuses the program with nothing written."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from memql.engine.context import Context
from memql.engine.targets import query_from_filter
from memql.lang.target import Filter

Precondition = Callable[[Context], None]


def none_found(
    where: Mapping[str, Any], *, owner: str | None, rule: str, message: str, path: str = ""
) -> Precondition:
    """No record the session may read matches `where` (the language's target filter: tags, facets,
    facets_where ...) and is `owner`'s (None: anyone's); else the refusal (rule, message) at `path`."""
    wanted = Filter.model_validate(dict(where))

    def check(ctx: Context) -> None:
        query = query_from_filter(wanted, ctx, write=True)
        if any(owner is None or record.owner == owner for record, _ in ctx.session.find(ctx.tenant, query)):
            raise ctx.refuse(rule, message, *[part for part in path.split("/") if part])

    return check

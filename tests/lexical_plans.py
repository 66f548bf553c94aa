"""What both backends' lexical index tests share: a ranked query, the comparison of two answers, and the
runner of a generated plan of writes and searches (`apply_plan`). Each test file generates its own steps
(its own words, conditions and step kinds) and brings its own oracle and search check."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memql.ports.record import Record
from memql.ports.store import RecordQuery

Oracle = Callable[[Any, str, RecordQuery], list[tuple[str, float]]]
NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)


def record(tenant, text, context, status="active", tag="x", level="standard", weight=0.5, expired=False):
    """A generated record: its words, its payload context, its conditions (expired: an hour ago)."""
    return Record(
        tenant=tenant,
        text=" ".join(text),
        payload_meta={"context": " ".join(context)} if context else {},
        tags=[tag],
        sensitivity=level,
        status=status,
        weight=weight,
        expire_at=NOW - timedelta(hours=1) if expired else None,
        created_at=NOW,
        updated_at=NOW,
    )


def oracle_of(build: Callable[[str, RecordQuery], tuple[str, Any]]) -> Oracle:
    """The exact path's answer: the backend's one query (`build`: its query.build) over every match, the
    conditions and the order in SQL, as (id, score)."""

    def answer(session, tenant: str, q: RecordQuery) -> list[tuple[str, float]]:
        statement, params = build(tenant, q)
        return [(str(row["num"]), row["score"]) for row in session.conn.execute(statement, params)]

    return answer


def ranked(text, limit=10, **conditions) -> RecordQuery:
    return RecordQuery(text_query=text, order="relevance", limit=limit, **conditions)


def assert_same(got: list[tuple[str, float]], want: list[tuple[str, float]]) -> None:
    """The same records in the same order, with the same scores (to float rounding)."""
    assert [rid for rid, _ in got] == [rid for rid, _ in want]
    assert [score for _, score in got] == pytest.approx([score for _, score in want], rel=1e-12)


def apply_plan(store, other, plan, oracle: Oracle, search: Callable[[str], None]) -> list[tuple[str, str]]:
    """Apply the generated steps -- an insert (its tuple after the kind is `record`'s arguments), a text,
    tags, weight or status change, a hard delete, a rolled-back transaction (its search answered as the
    `oracle` answers inside it), a write through `other`, a search (`search` checks it) -- and return the
    (tenant, id) of the records that were created."""
    made: list[tuple[str, str]] = []

    def pick(i):
        return made[i % len(made)] if made else None

    def insert(session, step):
        made.append((step[1], session.insert(record(*step[1:]))))

    for step in plan:
        kind = step[0]
        if kind == "insert":
            with store.transaction() as s:
                insert(s, step)
        elif kind in ("text", "tags", "weight", "status", "hard_delete") and pick(step[1]):
            tenant, rid = pick(step[1])
            with store.transaction() as s:
                if kind == "hard_delete":
                    s.hard_delete(tenant, [rid])
                    made.remove((tenant, rid))
                else:
                    s.update(tenant, rid, {kind: " ".join(step[2]) if kind == "text" else step[2]})
        elif kind == "rolled_back":
            with store.dry_run() as s:
                insert(s, step[1])
                tenant, _ = made.pop()
                if pick(step[2]):
                    s.update(*pick(step[2]), {"text": " ".join(step[3])})
                q = ranked(" ".join(step[3]) or "river", statuses=None)
                # inside, the exact path ranks: it sees the transaction's own rows, the index never does
                assert_same([(r.id, sc) for r, sc in s.find(tenant, q)], oracle(s, tenant, q))
        elif kind == "elsewhere":
            with other.transaction() as s:
                insert(s, step[1])
                if pick(step[2]):
                    s.update(*pick(step[2]), {"text": "written elsewhere river"})
        elif kind == "search":
            search(" ".join(step[1]))
    return made

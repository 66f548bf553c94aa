"""Fixtures for the engine semantics suite (DESIGN §5): a `memory` factory over every backend, a pinned
clock, and `db`, a read-only window on the store for the state the API does not show.

Every test runs once per backend in BACKENDS. Adding PostgreSQL means adding "postgres" to BACKENDS, a
location for it in `_location`, and its SQL in `Inspector.operations` — no test changes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from memql import Memory
from memql.engine.result import ExecutionResult
from memql.ports.clock import FixedClock
from memql.ports.record import Record
from memql.ports.store import RecordQuery

BACKENDS = ["sqlite", "postgres"]
T0 = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)  # a Wednesday, 10:00 UTC


def _location(backend: str) -> Any:
    if backend == "sqlite":
        return ":memory:"
    if backend == "postgres":
        from pgtest import fresh_location  # one server per test session, a new schema per store

        return fresh_location()
    pytest.skip(f"no test location for backend {backend}")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def t0() -> datetime:
    """The instant the clock is pinned to when a test starts."""
    return T0


@pytest.fixture
def clock() -> FixedClock:
    """The pinned clock every Memory of a test shares; tests move it with .advance / .set."""
    return FixedClock(T0)


MemoryFactory = Callable[..., Memory]


@pytest.fixture
def memory(backend: str, clock: FixedClock) -> Iterator[MemoryFactory]:
    """memory(tenant="t", actor="alice", admin=False, share=None, **Memory kwargs) -> Memory.

    `share=m` opens another session (another tenant, actor or admin flag) on m's store.
    """
    opened: list[Memory] = []

    def make(
        *,
        tenant: str = "t",
        actor: str | None = "alice",
        admin: bool = False,
        share: Memory | None = None,
        **kwargs: Any,
    ) -> Memory:
        location = share.store if share is not None else _location(backend)
        m = Memory(location, tenant=tenant, actor=actor, admin=admin, clock=clock, **kwargs)
        opened.append(m)
        return m

    yield make
    for m in reversed(opened):
        m.close()


@pytest.fixture
def m(memory: MemoryFactory) -> Memory:
    """Tenant "t", actor "alice", not an admin, on a fresh store."""
    return memory()


class Inspector:
    """Reads a store's state through the Store port (and, for the audit log's operations, its SQL)."""

    def __init__(self, backend: str) -> None:
        self.backend = backend

    def record(self, m: Memory, record_id: str) -> Record | None:
        """The record as stored, whatever its status (None once it is gone)."""
        with m.store.dry_run() as session:
            return session.get(m.tenant, [record_id]).get(record_id)

    def records(self, m: Memory) -> dict[str, Record]:
        """Every record of m's tenant, whatever its status."""
        with m.store.dry_run() as session:
            found = session.find(m.tenant, RecordQuery(statuses=None, order="created_asc"))
        return {r.id: r for r, _ in found}  # type: ignore[misc]

    def ids(self, m: Memory) -> list[str]:
        return list(self.records(m))

    def search(self, m: Memory, text: str) -> list[str]:
        """Ids whose lexical index entry matches `text`, whatever their status or expiry."""
        with m.store.dry_run() as session:
            found = session.find(m.tenant, RecordQuery(statuses=None, text_query=text))
        return sorted(r.id for r, _ in found)  # type: ignore[misc]

    def links(self, m: Memory, *ids: str) -> set[tuple[str, str, str]]:
        """(src, dst, relation) of every link touching `ids` (default: every record of the tenant)."""
        wanted = list(ids) or self.ids(m)
        with m.store.dry_run() as session:
            found = session.links(m.tenant, wanted)
        return {(link.src, link.dst, link.relation) for link in found}

    def operations(self, m: Memory) -> list[dict[str, Any]]:
        """The audit log's operations for m's tenant, in order."""
        sql = (
            "SELECT seq, actor, op, ir, affected_ids, trace_id, workflow_id, step FROM operations "
            "WHERE tenant = ? ORDER BY seq"
        )
        if self.backend == "postgres":
            sql = sql.replace("ir, affected_ids", "ir::text AS ir, affected_ids::text AS affected_ids")
            sql = sql.replace("?", "%s")
        elif self.backend != "sqlite":
            raise NotImplementedError(self.backend)
        rows = m.store.execute_sql(sql, (m.tenant,))  # type: ignore[attr-defined]
        return [
            {**dict(r), "ir": json.loads(r["ir"]), "affected_ids": json.loads(r["affected_ids"])}
            for r in rows
        ]


@pytest.fixture
def db(backend: str) -> Inspector:
    return Inspector(backend)


# --- small assertion helpers, shared as fixtures (tests import nothing from conftest) ---------------


def _rules(result: ExecutionResult) -> list[str]:
    return [d.rule for d in result.diagnostics]


def _warnings(result: ExecutionResult) -> list[str]:
    return [d.rule for d in result.warnings]


def _visible(m: Memory, query: str | None = None, **kwargs: Any) -> list[str]:
    """Ids a default read returns (a filter retrieve, or a search when `query` is given)."""
    result = m.retrieve(query, include=["id"], **kwargs)
    assert result.success, result.diagnostics
    return [row["id"] for row in result.data["rows"]]


@pytest.fixture
def rules() -> Callable[[ExecutionResult], list[str]]:
    """The rule ids of a result's errors."""
    return _rules


@pytest.fixture
def warned() -> Callable[[ExecutionResult], list[str]]:
    """The rule ids of a result's warnings."""
    return _warnings


@pytest.fixture
def visible() -> Callable[..., list[str]]:
    return _visible

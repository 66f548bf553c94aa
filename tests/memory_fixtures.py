"""Fixtures of the engine semantics suite (DESIGN §5), shared by the engine, cognition and interface tests
(the root conftest loads this module as a plugin): a `memory` factory over every backend, a pinned clock,
and `db`, a read-only window on the store, through the Store port, for the state the API does not show.

Every test that asks for `memory` runs once per backend of tests/backends.py's registry; nothing here
names a backend.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

import pytest

from memql.engine.result import ExecutionResult
from memql.ports.clock import FixedClock
from memql.ports.record import Record
from memql.ports.store import PortableSession, RecordQuery

# imported by the `memory` fixture: pytest-xdist's main process loads this plugin too, before it starts the
# workers, and runs no test (the engine's import is ~0.9 s of CPU on the way to the first worker)
if TYPE_CHECKING:
    from memql import Memory

T0 = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)  # a Wednesday, 10:00 UTC


@pytest.fixture
def t0() -> datetime:
    """The instant the clock is pinned to when a test starts."""
    return T0


@pytest.fixture
def clock() -> FixedClock:
    """The pinned clock every Memory of a test shares; tests move it with .advance / .set."""
    return FixedClock(T0)


MemoryFactory = Callable[..., "Memory"]


@pytest.fixture
def memory(new_location: Callable[..., str], clock: FixedClock) -> Iterator[MemoryFactory]:
    """memory(tenant="t", actor="alice", admin=False, share=None, **Memory kwargs) -> Memory.

    `share=m` opens another session (another tenant, actor or admin flag) on m's store.
    """
    from memql import Memory

    opened: list[Memory] = []

    def make(
        *,
        tenant: str = "t",
        actor: str | None = "alice",
        admin: bool = False,
        share: Memory | None = None,
        **kwargs: Any,
    ) -> Memory:
        location = share.store if share is not None else new_location(in_memory=True)
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


# what `db.operations` shows of each audited operation
OPERATION_FIELDS = ("seq", "actor", "op", "ir", "affected_ids", "trace_id", "workflow_id", "step")


class Inspector:
    """Reads a store's state through the Store port, whatever the backend."""

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
        """The audit log's operations for m's tenant, in order (read as `memql copy` exports it)."""
        operations: list[dict[str, Any]] = []
        after = 0
        with m.store.dry_run() as store_session:
            session = cast(PortableSession, store_session)  # every backend's session is also portable
            while page := session.export_log(after, 500):
                operations += [
                    {name: getattr(op, name) for name in OPERATION_FIELDS}
                    for op, _events in page
                    if op.tenant == m.tenant
                ]
                after = page[-1][0].seq or 0
                assert after, "operations carry their sequence numbers"
        return operations


@pytest.fixture
def db() -> Inspector:
    return Inspector()


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

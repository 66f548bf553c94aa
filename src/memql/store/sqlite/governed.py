"""Which candidates of a search satisfy its query's conditions: in SQL, or from an in-process copy.

A search (dense or lexical) ranks candidates in an index, then checks the query's conditions -- tenant,
status, expiry, clearance, read permissions, filters -- on the best of them, a window at a time. In SQL
that is one statement per window, which at small stores costs more than the ranking. The governance copy
holds, per query shape, the records that pass its conditions, so the check becomes a dict lookup.

Exact by construction: the copy of a query shape is the answer of the very SQL the check would run
(`query.build`, over every record instead of a window), with one exception, expiry, which depends on
the instant of the query and is compared at query time (``expire_at`` is kept, never a boolean). The
shape -- the SQL and its parameters without the expiry instant -- is the copy's key.

Never stale: a copy is used only at the database version it is current at. The version is read at the
start of each read transaction (SQLiteStore.read): ``PRAGMA data_version`` (it changes with every commit of
another connection, in any process: other writers, visit flushes), the connection's ``total_changes`` (its
own INSERT / UPDATE / DELETE statements, committed or not) and the store's count of its own write
transactions (whatever they changed). A write transaction never uses the copy (it sees its own uncommitted
rows). At a new version the copy catches up from the file's log of changed records (``record_changes``,
kept by triggers for every writer -- another process, plain SQL -- schema migration 11): each shape
sets the records changed since aside (they are no longer in its rows) and keeps the rest. A shape re-checks
records it set aside by the same SQL restricted to them: those among a check's candidates, every one when
its rows are wanted whole, and all at once when RECHECK_AT wait. A reader beside a writer sees a commit or
two per read; re-checking each in SQL at once cost a statement per shape per commit, while few of those
records are among a read's candidates, and a record whose heat changes at every visit flush is re-checked
once when it is asked for rather than at each flush. A read whose snapshot is older than the copy's
checks in SQL; a copy further behind than the log reaches, or with more than CATCH_UP_MAX records changed,
starts over.

Not loaded in vain: a copy costs one scan of the tenant's records, so a shape is loaded only once its SQL
checks have looked at as many candidates as the store has records (at most twice their cost overall),
and only for stores of up to MAX_RECORDS records (it holds a row per passing record). Once loaded it
lives on through writes, each costing a re-check of the records it changed.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from typing import Any

from memql.ports.store import RecordQuery, amended
from memql.services.tokenize import fts_match_expression
from memql.store.sqlite import query
from memql.store.sqlite.codec import to_us

MAX_RECORDS = 100_000  # larger stores check in SQL: a copy would hold a row per record
CATCH_UP_MAX = 5_000  # changed records a copy re-checks to catch up; more, and it starts over
MAX_CHECKED = 1_000  # query shapes whose SQL checks are counted towards loading them
MAX_SHAPES = 8  # query shapes kept at one version (readers, clearances, filters)
RECHECK_AT = 256  # records a shape sets aside before re-checking them unasked (one statement for them all)
_COLUMNS = f"{query.CANDIDATE_COLUMNS}, r.expire_at"  # what a check returns, and the expiry it compares

Version = tuple[int, int, int]  # data_version, total_changes, the store's own write transactions
Row = Sequence[Any]  # query.CANDIDATE_COLUMNS of a record
_UNUSABLE: dict[int, tuple[Any, ...]] = {}  # a shape whose expiry the copy cannot compare as SQL does
# the log's last and first entries (apart: SQLite reads max() or min() off the key alone, both in one
# SELECT by scanning the whole log), tagged 0, then the records changed after a given entry, tagged 1: one
# statement, as a catch-up's first statement after another connection's commit reads its pages afresh
_LOG = (
    "SELECT 0, (SELECT max(seq) FROM record_changes), (SELECT min(seq) FROM record_changes) UNION ALL "
    "SELECT 1, num, NULL FROM (SELECT DISTINCT num FROM record_changes WHERE seq > ? LIMIT ?)"
)
_NONE_AFTER = 1 << 62  # (an entry no log reaches: no changed records read)


class GovernanceCopy:
    """The records passing each query shape at one database version (one per store: its connection's)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.version: Version | None = None
        self.seq: int | None = None  # the last entry of record_changes the copy is current at
        self.shapes: dict[tuple[Any, ...], dict[int, tuple[Any, ...]]] = {}
        self.aside: dict[tuple[Any, ...], set[int]] = {}  # per shape: records changed, not re-checked yet
        self.queries: dict[tuple[Any, ...], tuple[str, RecordQuery]] = {}  # each shape's tenant and query
        self.checked: dict[tuple[Any, ...], int] = {}  # candidates checked in SQL per shape, ever
        self.records: int | None = None  # the store's record count at this version (read when needed)

    def rows(
        self,
        conn: sqlite3.Connection,
        version: Version,
        tenant: str,
        q: RecordQuery,
        candidates: Sequence[int] | None,
        count: int,
    ) -> tuple[dict[int, tuple[Any, ...]], int | None] | None:
        """The passing rows of q's shape -- current for `candidates`, or for every record when None --
        and the expiry instant to compare (None: the caller checks `count` candidates in SQL)."""
        static = amended(q, not_expired_at=None)
        sql, params = query.build(tenant, static, columns=_COLUMNS)
        key = (sql, *((type(p), p) for p in params))  # (1 and 1.0 hash alike)
        with self.lock:
            if version != self.version and not self._caught_up(conn, version):
                return None  # (a read from before the copy's last catch-up)
            found = self.shapes.get(key)
            if found is None:
                checked = self.checked[key] = self.checked.get(key, 0) + count
                if self.records is None:
                    self.records = _records(conn)
                if checked < self.records or self.records > MAX_RECORDS or len(self.shapes) >= MAX_SHAPES:
                    return None
                found = self.shapes[key] = _load(conn, sql, params)
                self.queries[key] = (tenant, static)
                self.aside[key] = set()
            aside = self.aside.get(key)
            if aside and found is not _UNUSABLE:  # re-check those asked for (every one, for the whole rows)
                wanted = set(aside) if candidates is None else aside.intersection(candidates)
                if wanted:
                    found = self._rechecked(conn, key, wanted)
        if found is _UNUSABLE:
            return None
        return found, None if q.not_expired_at is None else to_us(q.not_expired_at)

    def _rechecked(
        self, conn: sqlite3.Connection, key: tuple[Any, ...], nums: set[int]
    ) -> dict[int, tuple[Any, ...]]:
        """The shape's rows with these records it set aside re-checked (under the lock)."""
        rows = self.shapes[key]
        tenant, static = self.queries[key]
        sql, params = query.build(tenant, static, columns=_COLUMNS, nums=sorted(nums))
        fresh = _load(conn, sql, params)
        self.aside[key] -= nums
        if fresh is _UNUSABLE:
            self.shapes[key], self.aside[key] = _UNUSABLE, set()
            return _UNUSABLE
        rows.update(fresh)
        return rows

    def _caught_up(self, conn: sqlite3.Connection, version: Version) -> bool:
        """Bring the copy to this read's version (under the lock): each shape sets the records changed since
        it was current aside (record_changes). False, changing nothing, for a read whose snapshot is older
        than the copy's."""
        after = self.seq if self.seq is not None and self.shapes else _NONE_AFTER
        last, first, changed_since = 0, None, []
        for tag, value, least in conn.execute(_LOG, (after, CATCH_UP_MAX + 1)):
            if tag:
                changed_since.append(value)
            else:
                last, first = value or 0, least
        if self.seq is not None and last < self.seq:
            return False
        self.version = version
        if last == self.seq:
            return True  # (no record changed: another table did, or this connection rolled back)
        changed = None
        if after != _NONE_AFTER and first is not None and first <= after + 1:
            changed = changed_since
        self.seq, self.records = last, None
        if changed is None or len(changed) > CATCH_UP_MAX:
            self.shapes.clear()
            self.queries.clear()
            self.aside.clear()
            if len(self.checked) > MAX_CHECKED:  # (what was asked is kept: a copy now outlives writes)
                self.checked.clear()
            return True
        for key, rows in list(self.shapes.items()):
            if rows is _UNUSABLE:
                continue
            aside = self.aside[key]
            for num in changed:  # set aside until a check asks for one of them (see the module's docstring)
                rows.pop(num, None)
            aside.update(changed)
            if len(aside) >= RECHECK_AT:
                self._rechecked(conn, key, set(aside))
        return True


def _load(conn: sqlite3.Connection, sql: str, params: list[Any]) -> dict[int, tuple[Any, ...]]:
    """Each passing record's expiry and its row as the check's SQL gives it (candidate columns, score)."""
    rows = {row[0]: (row[5], (*row[:5], row[6])) for row in conn.execute(sql, params)}
    if any(expiry is not None and type(expiry) is not int for expiry, _ in rows.values()):
        return _UNUSABLE  # (memql writes instants as integers; SQL orders other types apart)
    return rows


def _records(conn: sqlite3.Connection) -> int:
    """How many records the store has numbered (an upper bound of a tenant's: what a copy scans)."""
    row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'records'").fetchone()
    return 0 if row is None else int(row[0])


class Checker:
    """Checks a query's conditions on candidates for one session: from the governance copy in a read
    transaction (`version` given), else -- and whenever the copy does not hold the shape -- in SQL."""

    def __init__(
        self, conn: sqlite3.Connection, copy: GovernanceCopy | None = None, version: Version | None = None
    ) -> None:
        self.conn, self.copy, self.version = conn, copy, version

    def held(
        self, tenant: str, q: RecordQuery, count: int
    ) -> tuple[dict[int, tuple[Any, ...]], int | None] | None:
        """The copy's rows of q's shape (without ids) for this read and the expiry instant to compare
        (GovernanceCopy.rows), `count` candidates to check counting towards loading it; None: the copy
        does not hold the shape."""
        if self.version is None or self.copy is None or q.ids is not None:
            return None
        return self.copy.rows(self.conn, self.version, tenant, _checked(q), None, count)

    def __call__(self, tenant: str, q: RecordQuery, nums: list[int] | None) -> dict[int, Row]:
        """The candidates (every record, when None) that satisfy q, each with its candidate columns
        (query.CANDIDATE_COLUMNS: what ranking needs), in record-number order; nothing is decoded."""
        if nums is not None and not nums:
            return {}
        ids = None
        if q.ids is not None:  # the query's own ids narrow the candidates
            if nums is None:
                ids = list(q.ids)
            else:
                wanted = set(q.ids)
                nums = [n for n in nums if str(n) in wanted]
        checked = amended(q, ids=ids, text_query=None, limit=None, order="created_asc")
        if self.version is not None and self.copy is not None and nums is not None and ids is None:
            held = self.copy.rows(self.conn, self.version, tenant, checked, nums, len(nums))
            if held is not None:
                rows, now = held
                out = {}
                for n in sorted(nums):
                    found = rows.get(n)
                    if found is not None and (now is None or found[0] is None or found[0] > now):
                        out[n] = found[1]
                return out
        sql, params = query.build(tenant, checked, columns=query.CANDIDATE_COLUMNS, nums=nums)
        return {row[0]: row for row in self.conn.execute(sql, params)}


def _checked(q: RecordQuery) -> RecordQuery:
    """q's conditions alone: what a check of candidates applies."""
    return amended(q, ids=None, text_query=None, limit=None, order="created_asc")


def fts5_candidates(check: Checker, tenant: str, q: RecordQuery, first: int, widest: int) -> list[Any] | None:
    """FTS5's best q.limit matches as (record number, score, candidate columns), checked by the copy: the
    answer of SQLiteSession._fts5_ranked's windows -- FTS5 ranks a window of its best matches, the
    conditions are checked on it, the window widens (x8) while a wider one could change the answer --
    with FTS5 ranking alone (it ranks far faster than joined to the records and their conditions). None:
    the copy does not hold q's shape, or no window answers (the caller's SQL does)."""
    match = fts_match_expression(q.text_query or "")
    if match is None or q.limit is None or q.offset or q.ids is not None:
        return None
    limit: int = q.limit
    window = max(limit + limit // 4, first)
    held = check.held(tenant, q, window)
    if held is None:
        return None  # (counted as the SQL's check of a window: the copy is loaded once worth it)
    passing, now = held
    while window <= widest:
        hits = check.conn.execute(query.FTS5_WINDOW, (match, window)).fetchall()
        rows = []
        for n, score in hits:  # the copy's check (Checker.__call__'s), on the window's matches
            found = passing.get(n)
            if found is not None and (now is None or found[0] is None or found[0] > now):
                rows.append((n, score, found[1]))
        if not rows:
            return None  # (the matches that pass lie further down, if anywhere: the full query)
        rows.sort(key=lambda r: (-r[1], -r[2][1], -r[0]))  # the query's order: score, weight, newest
        rows = rows[:limit]
        floor = min(score for _, score in hits)
        if len(hits) < window or (len(rows) == limit and rows[-1][1] > floor):
            return rows
        window *= 8
    return None

"""The embedded SQLite backend: one file (or :memory:), WAL, a busy timeout, versioned migrations.

A write transaction is `BEGIN IMMEDIATE` (it takes the file's write lock at once, so that its reads and
writes see one state); a read transaction is a deferred `BEGIN` that only reads, so in WAL mode readers in
any number of processes run beside each other and beside one writer. What a read leaves behind (visits,
its audit entry) waits in the store's VisitBuffer (memql.store.visits) for one batched write.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from memql.index.text import context_text, lexical_text
from memql.ports.record import Event, Link, Operation, Record
from memql.ports.store import Candidate, RecordQuery
from memql.services.tokenize import index_text
from memql.store.sqlite import codec, query
from memql.store.sqlite.as_of import EVENTS_SELECT, SQLiteAsOf
from memql.store.sqlite.bulk import SQLiteBulk
from memql.store.sqlite.governed import Checker, GovernanceCopy, fts5_candidates
from memql.store.sqlite.keys import SQLiteKeys
from memql.store.sqlite.lexical import LexicalIndex, LexicalMode
from memql.store.sqlite.reads import VisitFlushes, begin_write, refusing
from memql.store.sqlite.schema import copy_latest, enable_wal, migrate
from memql.store.sqlite.transfer import SQLiteTransfer, operation_from_row, operation_values
from memql.store.sqlite.vectors import Ahead, VectorIndex, VectorMode
from memql.store.visits import ReadMixin, VisitBuffer, refuse_writes

BUSY_TIMEOUT_MS = 30_000
# FTS5 lexical search ranks this many of the index's best matches before checking the query's conditions
LEXICAL_FIRST_WINDOW = 64
LEXICAL_MAX_WINDOW = 12_800
_LEXICAL_FIELDS = frozenset({"text", "url", "tags", "facets", "structured", "payload_meta", "index_paths"})


def _scored(rows: list[sqlite3.Row]) -> list[tuple[Record, float | None]]:
    """Rows of r.* with their `score`, decoded."""
    return list(zip(codec.decode_all(rows), [row["score"] for row in rows], strict=True))


class SQLiteSession(SQLiteKeys, SQLiteTransfer, SQLiteBulk, SQLiteAsOf):
    """One transaction on a SQLite store (see memql.ports.store.StoreSession)."""

    def __init__(self, conn: sqlite3.Connection, vectors: VectorIndex, lexical: LexicalIndex) -> None:
        self.conn = conn
        self.vectors = vectors
        self.lexical = lexical
        # the embedding sequence before this transaction's first vector write (None: it wrote none); dense
        # search scores this transaction's own vectors apart from the shared, committed-only index
        self.committed_seq: int | None = None
        # whether this transaction changed the lexical index: then FTS5, which sees the uncommitted rows,
        # ranks its searches (the shared postings index only holds committed ones)
        self.lexical_written = False
        # how searches check their conditions on candidates: in SQL here; a read session's may use the
        # store's governance copy (memql.store.sqlite.governed)
        self.check = Checker(conn)
        self.ahead: Ahead | None = None  # a dense search's first graph window, started by `dense_ahead`

    # --- records ---------------------------------------------------------------------------------

    def insert(self, record: Record) -> str:
        row = codec.encode(record)
        names = ", ".join(row)
        cur = self.conn.execute(
            f"INSERT INTO records ({names}) VALUES ({', '.join('?' * len(row))})", list(row.values())
        )
        num = cur.lastrowid
        self.conn.execute(
            "INSERT INTO records_fts (rowid, body, context) VALUES (?, ?, ?)",
            (num, index_text(lexical_text(record)), index_text(context_text(record))),
        )
        self._lexical_changed([num])
        return str(num)

    def _lexical_changed(self, nums: Sequence[int]) -> None:
        """Note changed FTS5 rows: every process's postings index catches up by this log."""
        if isinstance(nums, range) and nums.step == 1 and len(nums) > 1:  # a bulk insert's: one statement
            self.conn.execute(
                "WITH RECURSIVE n(num) AS (SELECT ? UNION ALL SELECT num + 1 FROM n WHERE num < ?) "
                "INSERT INTO lexical_changes (num) SELECT num FROM n",
                (nums.start, nums.stop - 1),
            )
        else:
            self.conn.executemany("INSERT INTO lexical_changes (num) VALUES (?)", [(n,) for n in nums])
        self.lexical_written = True

    def get(self, tenant: str, ids: Sequence[str]) -> dict[str, Record]:
        sql, params = query.build(tenant, RecordQuery(ids=list(ids), statuses=None))
        return {record.id: record for record in codec.decode_all(self.conn.execute(sql, params))}  # type: ignore[misc]

    def get_fields(self, tenant: str, ids: Sequence[str], fields: frozenset[str]) -> dict[str, Record]:
        columns = codec.narrow_columns(fields)  # (memql.ports.store.PartialReads)
        sql, params = query.build(tenant, RecordQuery(ids=list(ids), statuses=None), columns=columns)
        return {record.id: record for record in codec.decode_all(self.conn.execute(sql, params))}  # type: ignore[misc]

    def find(self, tenant: str, q: RecordQuery) -> list[tuple[Record, float | None]]:
        if q.as_of is not None:
            return self._find_as_of(tenant, q)
        if q.text_query is not None and q.limit is not None and q.order == "relevance":
            return self._find_ranked(tenant, q)
        sql, params = query.build(tenant, q)
        return _scored(self.conn.execute(sql, params).fetchall())

    def namespaces(self, tenant: str, q: RecordQuery) -> list[str]:
        bare = replace(q, text_query=None, limit=None, offset=0, order="created_asc")
        sql, params = query.build(tenant, bare)
        inner = sql.replace("SELECT r.*, NULL AS score FROM", "SELECT r.namespace FROM", 1)
        statement = f"SELECT DISTINCT namespace FROM ({inner}) WHERE namespace IS NOT NULL ORDER BY namespace"
        return [row[0] for row in self.conn.execute(statement, params)]

    def find_candidates(self, tenant: str, q: RecordQuery) -> list[Candidate]:
        if q.as_of is not None or q.text_query is None or q.limit is None or q.order != "relevance":
            # this class's find, not a read session's: that one adds pending visits, which its
            # find_candidates adds too
            return [Candidate.of(record, score) for record, score in SQLiteSession.find(self, tenant, q)]
        if not self.lexical_written:
            found = self.lexical.candidates(self.conn, tenant, q, self.check)
            if found is not None:
                return found
        checked = fts5_candidates(self.check, tenant, q, LEXICAL_FIRST_WINDOW, LEXICAL_MAX_WINDOW)
        if checked is not None:
            return codec.candidates(checked)
        rows = self._fts5_ranked(tenant, q, query.CANDIDATE_COLUMNS)
        return [codec.candidate(row, row["score"]) for row in rows]

    def _find_ranked(self, tenant: str, q: RecordQuery) -> list[tuple[Record, float | None]]:
        """The best q.limit lexical matches, from the postings index (see memql.store.sqlite.lexical) or
        from FTS5 (`_fts5_ranked`)."""
        if not self.lexical_written:
            found = self.lexical.search(self.conn, tenant, q, self.check)
            if found is not None:
                return found  # type: ignore[return-value]
        return _scored(self._fts5_ranked(tenant, q, "r.*"))

    def _fts5_ranked(self, tenant: str, q: RecordQuery, columns: str) -> list[sqlite3.Row]:
        """FTS5's best q.limit matches, `columns` of each with its score: the query's conditions checked
        on the index's best matches first, the window widening while a wider one could change the answer
        (too few rows passed, or the last one ties with the window's floor); past LEXICAL_MAX_WINDOW, one
        query over every match."""
        limit: int = q.limit  # type: ignore[assignment]
        window = max(limit + limit // 4, LEXICAL_FIRST_WINDOW)
        while window <= LEXICAL_MAX_WINDOW:
            sql, params = query.build(tenant, q, window=window, columns=columns)
            rows = self.conn.execute(sql, params).fetchall()
            if not rows:
                break  # nothing in the window passed: the matches that do lie further down, if anywhere
            complete = rows[0]["window_hits"] < window  # the window held every match
            if complete or (len(rows) == limit and rows[-1]["score"] > rows[0]["window_floor"]):
                return rows
            window *= 8
        sql, params = query.build(tenant, q, columns=columns)
        return self.conn.execute(sql, params).fetchall()

    def update(self, tenant: str, record_id: str, changes: dict[str, Any]) -> None:
        if not changes:
            return
        sets = ", ".join(f"{name} = ?" for name in changes)
        values = [codec.encode_field(name, value) for name, value in changes.items()]
        if "embedding" in changes or "path_embeddings" in changes:
            # a stored or cleared vector: vector caches catch up by this sequence
            sets += ", embedding_seq = ?"
            values.append(self._next_embedding_seq())
        self.conn.execute(
            f"UPDATE records SET {sets} WHERE tenant = ? AND num = ?", [*values, tenant, int(record_id)]
        )
        if _LEXICAL_FIELDS & changes.keys():
            (record,) = self.get(tenant, [record_id]).values()
            self.conn.execute(
                "UPDATE records_fts SET body = ?, context = ? WHERE rowid = ?",
                (index_text(lexical_text(record)), index_text(context_text(record)), int(record_id)),
            )
            self._lexical_changed([int(record_id)])

    def _next_embedding_seq(self) -> int:
        if self.committed_seq is None:  # this transaction's first vector: all before it is committed
            row = self.conn.execute("SELECT value FROM counters WHERE name = 'embedding_seq'").fetchone()
            self.committed_seq = row[0]
        self.conn.execute("UPDATE counters SET value = value + 1 WHERE name = 'embedding_seq'")
        return self.conn.execute("SELECT value FROM counters WHERE name = 'embedding_seq'").fetchone()[0]

    def pending_embeddings(self, tenant: str, limit: int) -> list[Record]:
        sql, params = query.build(tenant, RecordQuery(statuses=("active", "archived"), order="created_asc"))
        sql = sql.replace(" ORDER BY", " AND r.embedding_status = 'pending' AND r.text IS NOT NULL ORDER BY")
        return codec.decode_all(self.conn.execute(sql + " LIMIT ?", [*params, limit]))

    def embedding_for_hash(self, tenant: str, content_hash: str, model: str) -> bytes | None:
        row = self.conn.execute(
            "SELECT embedding FROM records WHERE tenant = ? AND content_hash = ? AND embedding_model = ? "
            "AND embedding IS NOT NULL LIMIT 1",
            (tenant, content_hash, model),
        ).fetchone()
        return None if row is None else row[0]

    def dense(
        self, tenant: str, vector: Sequence[float], q: RecordQuery, k: int, model: str, signed: bool = False
    ):
        return self.vectors.search(
            self.conn, tenant, model, vector, q, k, self.committed_seq, signed, self.check
        )

    def dense_candidates(
        self, tenant: str, vector: Sequence[float], q: RecordQuery, k: int, model: str, signed: bool = False
    ) -> list[Candidate]:
        ahead, self.ahead = self.ahead, None
        return self.vectors.candidates(
            self.conn, tenant, model, vector, q, k, self.committed_seq, signed, self.check, ahead
        )

    def dense_ahead(self, tenant: str, vector: Sequence[float], k: int, model: str) -> None:
        # (memql.ports.store.SearchAhead) the graph's part on the side thread; SQL stays on this one
        self.ahead = self.vectors.ahead(tenant, model, vector, k)

    def touch(self, tenant: str, ids: Sequence[str], now: datetime) -> None:
        nums = [int(i) for i in ids]
        if nums:
            self.conn.execute(
                # `+tenant`: look records up by rowid; a plain `tenant = ?` lets SQLite scan the tenant index
                f"UPDATE records SET visits = visits + 1, last_access_at = ? "
                f"WHERE num IN ({','.join('?' * len(nums))}) AND +tenant = ?",
                [codec.to_us(now), *nums, tenant],
            )

    def hard_delete(self, tenant: str, ids: Sequence[str]) -> None:
        nums = [int(i) for i in ids]
        if not nums:
            return
        marks = ",".join("?" * len(nums))
        # only this tenant's rows: the FTS rows go by the nums that the tenant-scoped select finds
        owned = [
            r[0]
            for r in self.conn.execute(
                f"SELECT num FROM records WHERE num IN ({marks}) AND +tenant = ?", [*nums, tenant]
            )
        ]
        if not owned:
            return
        marks = ",".join("?" * len(owned))
        self.conn.execute(f"DELETE FROM records WHERE num IN ({marks})", owned)
        self.conn.execute(f"DELETE FROM records_fts WHERE rowid IN ({marks})", owned)
        self._lexical_changed(owned)
        texts = [str(n) for n in owned]
        self.conn.execute(
            f"DELETE FROM links WHERE tenant = ? AND (src IN ({marks}) OR dst IN ({marks}))",
            [tenant, *texts, *texts],
        )

    def find_duplicate(self, tenant: str, content_hash: str, now: datetime, limit: int) -> list[str]:
        rows = self.conn.execute(
            "SELECT num FROM records WHERE tenant = ? AND content_hash = ? "
            "AND status IN ('active', 'pending') AND (expire_at IS NULL OR expire_at > ?) "
            "ORDER BY num LIMIT ?",
            (tenant, content_hash, codec.to_us(now), limit),
        ).fetchall()
        return [str(row[0]) for row in rows]

    def redact(
        self,
        tenant: str,
        record_ids: Sequence[str],
        blank_image: Callable[[dict[str, Any]], dict[str, Any]],
        blank_ir: Callable[[dict[str, Any]], dict[str, Any]],
    ) -> None:
        ids = [str(i) for i in record_ids]
        if not ids:
            return
        marks = ",".join("?" * len(ids))
        events = self.conn.execute(
            f"SELECT seq, before, after FROM events WHERE tenant = ? AND record_id IN ({marks})",
            [tenant, *ids],
        ).fetchall()
        for row in events:
            before, after = json.loads(row["before"]), json.loads(row["after"])
            blanked = blank_image(before), blank_image(after)
            if blanked != (before, after):
                self.conn.execute(
                    "UPDATE events SET before = ?, after = ? WHERE seq = ?",
                    (codec.dumps(blanked[0]), codec.dumps(blanked[1]), row["seq"]),
                )
        operations = self.conn.execute(
            f"SELECT seq, ir FROM operations o WHERE tenant = ? AND ("
            f"EXISTS (SELECT 1 FROM json_each(o.affected_ids) WHERE value IN ({marks})) "
            f"OR seq IN (SELECT op_seq FROM events WHERE tenant = ? AND record_id IN ({marks})))",
            [tenant, *ids, tenant, *ids],
        ).fetchall()
        for row in operations:
            ir = json.loads(row["ir"])
            if (blanked_ir := blank_ir(ir)) != ir:
                self.conn.execute(
                    "UPDATE operations SET ir = ? WHERE seq = ?", (codec.dumps(blanked_ir), row["seq"])
                )

    # --- lineage ---------------------------------------------------------------------------------

    def add_link(self, tenant: str, link: Link) -> None:
        self.conn.execute(
            "INSERT OR IGNORE INTO links (tenant, src, dst, relation, created_at) VALUES (?, ?, ?, ?, ?)",
            (tenant, link.src, link.dst, link.relation, codec.to_us(link.created_at)),
        )

    def remove_link(self, tenant: str, link: Link) -> None:
        self.conn.execute(
            "DELETE FROM links WHERE tenant = ? AND src = ? AND dst = ? AND relation = ?",
            (tenant, link.src, link.dst, link.relation),
        )

    def links(self, tenant: str, ids: Sequence[str]) -> list[Link]:
        ids = list(ids)
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        rows = self.conn.execute(
            f"SELECT src, dst, relation, created_at FROM links WHERE tenant = ? "
            f"AND (src IN ({marks}) OR dst IN ({marks})) ORDER BY created_at, src, dst",
            [tenant, *ids, *ids],
        )
        return [Link(r[0], r[1], r[2], codec.from_us(r[3])) for r in rows]

    # --- audit log -------------------------------------------------------------------------------

    def log(self, operation: Operation, events: Sequence[Event]) -> int:
        cur = self.conn.execute(
            "INSERT INTO operations (time, tenant, actor, op, ir, affected_ids, trace_id, workflow_id, step) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            operation_values(operation),
        )
        seq = cur.lastrowid
        self.conn.executemany(
            "INSERT INTO events (op_seq, tenant, record_id, kind, before, after) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (seq, operation.tenant, e.record_id, e.kind, codec.dumps(e.before), codec.dumps(e.after))
                for e in events
            ],
        )
        return seq

    def history(self, tenant: str, record_id: str) -> list[Event]:
        rows = self.conn.execute(
            EVENTS_SELECT + " WHERE e.tenant = ? AND e.record_id = ? ORDER BY e.seq",
            (tenant, str(record_id)),
        )
        return [self._event(tenant, row) for row in rows]

    @staticmethod
    def _event(tenant: str, row: sqlite3.Row) -> Event:
        op = operation_from_row(row, tenant, row["op_seq"])
        return Event(
            record_id=row["record_id"],
            kind=row["kind"],
            before=json.loads(row["before"]),
            after=json.loads(row["after"]),
            seq=row["seq"],
            operation=op,
        )

    @contextmanager
    def scratch(self) -> Iterator[None]:
        self.conn.execute("SAVEPOINT scratch")
        try:
            yield
        finally:
            self.conn.execute("ROLLBACK TO scratch")
            self.conn.execute("RELEASE scratch")


@refuse_writes
class SQLiteReadSession(ReadMixin, SQLiteSession):
    """A read transaction's session: it reads as SQLiteSession does, refuses every write, and leaves its
    visits and audit entries in the store's buffer."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        vectors: VectorIndex,
        lexical: LexicalIndex,
        buffer: VisitBuffer,
        check: Checker | None = None,
    ) -> None:
        super().__init__(conn, vectors, lexical)
        self.buffer = buffer
        if check is not None:
            self.check = check


class SQLiteStore(VisitFlushes):
    """A memql store in one SQLite file. Safe to share between threads; one writer at a time."""

    reads_at_once = 1  # (memql.ports.store.Store) one connection, one lock: a process's transactions queue
    busy_timeout_ms = BUSY_TIMEOUT_MS  # how long a write waits for another's write lock (then store.busy)

    def __init__(
        self, path: str, vector_index: VectorMode = "auto", lexical_index: LexicalMode = "auto"
    ) -> None:
        """`vector_index`: "exact" (vectorised brute force), "hnsw" (an HNSW graph, saved beside the file
        in ``<path>.vectors/``) or "auto" (exact below ANN_MIN_VECTORS vectors, HNSW from there on).
        `lexical_index`: "fts5" (SQLite's full-text index ranks every search), "postings" (an in-process
        BM25 index with FTS5's scores, saved in ``<path>.lexical/``) or "auto" (FTS5 below
        POSTINGS_MIN_RECORDS records, the postings index from there on)."""
        self.path = path
        if path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(
            path, isolation_level=None, check_same_thread=False, timeout=self.busy_timeout_ms / 1000
        )
        self.conn.row_factory = sqlite3.Row
        self.conn.execute(f"PRAGMA busy_timeout = {self.busy_timeout_ms}")
        if path != ":memory:":
            enable_wal(self.conn, self.busy_timeout_ms)
            self.conn.execute("PRAGMA synchronous = NORMAL")  # durable across process crashes in WAL mode
        self.conn.execute("PRAGMA foreign_keys = ON")
        self._lock = threading.RLock()
        self._closed = False
        self._flushing = threading.Lock()  # one flush at a time: read audit entries keep their order
        self._flush_conn: sqlite3.Connection | None = None  # flushes that wait for another's write lock
        self.visits = VisitBuffer(self.flush_visits)
        # the records passing each query shape, at one database version (see memql.store.sqlite.governed);
        # `writes` counts this connection's write transactions, a part of that version
        self.governed = GovernanceCopy()
        self.writes = 0
        database = None if path == ":memory:" else Path(path).expanduser()  # beside it: the indexes' files
        self.vectors = VectorIndex(vector_index, database and Path(f"{database}.vectors"), database)
        self.lexical = LexicalIndex(lexical_index, database and Path(f"{database}.lexical"), database)
        if path == ":memory:":
            copy_latest(self.conn)  # a copy of a migrated store; `migrate` below then finds nothing to do
        migrate(self.conn)
        self._ensure_store_id()
        self._rebuild_lexical_index()

    def _rebuild_lexical_index(self) -> None:
        """Refill the lexical index from the records when it was written by another analyzer than this
        process's (``ANALYZER_VERSION``; the counter ``lexical_analyzer`` holds the index's, 0 when a
        migration changed its columns); once, under the write lock, whichever process gets there first."""
        from memql.services.tokenize import ANALYZER_VERSION

        def current() -> bool:
            row = self.conn.execute("SELECT value FROM counters WHERE name = 'lexical_analyzer'").fetchone()
            return row is not None and row[0] == ANALYZER_VERSION

        if current():
            return
        with self.transaction():
            if current():
                return  # another process rebuilt it while this one waited for the lock
            self.conn.execute("DELETE FROM records_fts")
            last = 0
            while rows := self.conn.execute(  # in slices: a large store never sits in memory at once
                "SELECT * FROM records WHERE num > ? ORDER BY num LIMIT 5000", (last,)
            ).fetchall():
                for row in rows:
                    record = codec.decode(row)
                    self.conn.execute(
                        "INSERT INTO records_fts (rowid, body, context) VALUES (?, ?, ?)",
                        (row["num"], index_text(lexical_text(record)), index_text(context_text(record))),
                    )
                last = rows[-1]["num"]
            self.conn.execute(
                "INSERT OR REPLACE INTO counters (name, value) VALUES ('lexical_analyzer', ?)",
                (ANALYZER_VERSION,),
            )
            # every process's postings index starts over from the refilled table; its change log is moot
            self.conn.execute("DELETE FROM lexical_changes")
            self.conn.execute(
                "INSERT INTO counters (name, value) VALUES ('lexical_generation', 1) "
                "ON CONFLICT (name) DO UPDATE SET value = value + 1"
            )

    def _ensure_store_id(self) -> None:
        """A random number naming this store's side files (vector and lexical snapshots), set once."""
        if self.conn.execute("SELECT 1 FROM counters WHERE name = 'store_id'").fetchone():
            return
        with self.transaction():
            self.conn.execute(
                "INSERT OR IGNORE INTO counters (name, value) VALUES ('store_id', ?)",
                (secrets.randbits(62),),
            )

    def _take_write_lock(self) -> None:
        """Record the process's earlier reads, then take the write lock (BEGIN IMMEDIATE); a wait for it
        that runs out is the refusal `store.busy` (the callers' `refusing`)."""
        self.flush_visits()  # the process's earlier reads are recorded before its next write
        begin_write(self.conn, self.busy_timeout_ms)

    def _rollback(self) -> None:
        """End a failed transaction; SQLite has already rolled back after some errors (a full disk, I/O)."""
        self.writes += 1
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")
        self.vectors.start_builds()

    @contextmanager
    def transaction(self) -> Iterator[SQLiteSession]:
        # SQLite's errors that are no defect (busy, full, a failed file) leave as refusals: `refusing`
        with self._lock, refusing(self.busy_timeout_ms):
            self._take_write_lock()
            session = SQLiteSession(self.conn, self.vectors, self.lexical)
            try:
                yield session
            except BaseException:
                self._rollback()
                raise
            self.writes += 1  # (before the commit: a failing COMMIT may still have changed the file)
            try:
                self.conn.execute("COMMIT")
            except BaseException:
                self._rollback()  # (a COMMIT that failed leaves the transaction open)
                raise
            self.vectors.start_builds()  # those its searches found due
            if session.committed_seq is not None:  # it stored vectors: absorbed in the background
                self.vectors.committed()
            if session.lexical_written:
                self.lexical.committed(self.conn)

    def prepare(self, tenant: str, model: str | None) -> None:
        """Open what a search of `tenant` (with vectors of `model`, if any) reads from the files beside
        the store -- the vector snapshots and the lexical snapshot, mapped, not read -- so that its first
        search costs what the next ones do. Called by the opener (Memory); no index is built here."""
        if self.path == ":memory:":
            return
        with self._lock, contextlib.suppress(sqlite3.Error):  # (best effort: a search opens what it needs)
            if self._closed or self.conn.in_transaction:
                return  # (inside a transaction: its first search opens them)
            self.conn.execute("BEGIN")  # one state of the counters the snapshots are checked against
            try:
                if model:
                    self.vectors.prepare(self.conn, tenant, model)
                self.lexical.prepare(self.conn)
            finally:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")

    @contextmanager
    def read(self) -> Iterator[SQLiteReadSession]:
        with self._lock, refusing(self.busy_timeout_ms):
            self.conn.execute("BEGIN")  # deferred: a shared read lock (a WAL snapshot), never the write lock
            try:
                # the database version this read sees: the pragma is its first statement, so it takes the
                # snapshot the read's queries see; another connection's commit changes data_version, this
                # one's own writes total_changes and `writes` (memql.store.sqlite.governed)
                version = (self.conn.execute("PRAGMA data_version").fetchone()[0], self.conn.total_changes)
                check = Checker(self.conn, self.governed, (*version, self.writes))
                yield SQLiteReadSession(self.conn, self.vectors, self.lexical, self.visits, check)
            finally:
                if self.conn.in_transaction:  # it wrote nothing: ending it releases the snapshot
                    self.conn.execute("ROLLBACK")
                self.vectors.start_builds()  # those its searches found due, once it has answered

    def _audit_log(self, conn: sqlite3.Connection) -> Any:
        return SQLiteSession(conn, self.vectors, self.lexical).log

    @contextmanager
    def dry_run(self) -> Iterator[SQLiteSession]:
        with self._lock, refusing(self.busy_timeout_ms):
            self._take_write_lock()  # (what it reads includes the process's own earlier reads)
            try:
                yield SQLiteSession(self.conn, self.vectors, self.lexical)
            finally:
                self._rollback()

    def execute_sql(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        """Read-only SQL for tools such as the bench's assertions (run against the `memory` view)."""
        with self._lock:
            self.flush_visits()
            self.writes += 1  # whatever the SQL does
            return list(self.conn.execute(sql, params))

    def close(self) -> None:
        """Record what the reads buffered (nothing is lost on a clean close), then close."""
        with self._lock:
            if self._closed:
                return
            self.visits.close()
            try:
                self.flush_visits()
            finally:
                self._closed = True
                if self._flush_conn is not None:
                    self._flush_conn.close()
                self.vectors.close()
                self.lexical.close()
                self.conn.close()

"""The PostgreSQL backend (psycopg 3, a connection pool, server-side transactions, pgvector).

Select it with a URL: ``Memory("postgresql://user@host/db")``, ``memql --db postgresql://…`` or
``MEMQL_DB``. The optional URL parameter ``schema`` names the PostgreSQL schema that holds the store
(default ``memql``), ``pool_max`` the connections one store may open at once (default 10); every
other parameter goes to libpq.

Concurrency. A write transaction takes a transaction-scoped advisory lock on its tenant before its first
read, so the engine's read-modify-write steps (a Promote reading a weight, a Label reading the tags, a
Merge reading its children, Encode's de-duplication) never interleave with another writer of the same
tenant: no lost update, no broken lineage, and -- as a transaction only ever holds its own tenant's lock
and rows plus, when it inserts, the record counter -- no deadlock. Writers of different tenants run in
parallel. Reads of a write transaction by id also lock the rows (SELECT … FOR UPDATE), which guards them
against writers outside memql. Dry runs take no lock: they are always rolled back. A read transaction
(Store.read) is REPEATABLE READ, refuses writes and takes no lock at all; its visits and audit entries are
buffered (memql.store.visits) and written by a flush that takes its tenants' advisory locks in order.

Record numbers are gapless as in SQLite ("1", "2", … on a fresh store; a rolled-back transaction or a
dry run takes none): the counter row stays locked by an inserting transaction until it ends, which
orders inserting transactions store-wide. Audit sequence numbers come from PostgreSQL sequences.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import dict_row
from psycopg.types.json import set_json_loads
from psycopg_pool import ConnectionPool

from memql.errors import Refusal
from memql.ports.record import Link, Record
from memql.ports.store import Candidate, RecordQuery
from memql.store.postgres import codec, lexical, query, reads, vectors
from memql.store.postgres.audit import PostgresAudit
from memql.store.postgres.bulk import PostgresBulk
from memql.store.postgres.codec import escape
from memql.store.postgres.connector import Connector, live_connection
from memql.store.postgres.inserts import INSERT_GIVEN, INSERT_NUMBERED
from memql.store.postgres.keys import PostgresKeys
from memql.store.postgres.lexical_index import LexicalMode, PostgresLexicalIndex
from memql.store.postgres.portable import PortableSession
from memql.store.postgres.reads import READS, reset_to_writes, tenants_of, write_batch
from memql.store.postgres.schema import (
    MAX_INDEXED_DIMENSION,
    extension_version,
    migrate,
    refresh_statistics,
    vector_index_sql,
    vector_schema,
)
from memql.store.postgres.urls import StoreUnavailable, parts_for_message, pool_max, split_url
from memql.store.visits import ReadMixin, VisitBuffer, refuse_writes

ANALYZE_FIRST = 100  # records inserted by this process before the first statistics refresh
PREPARE_EVERY_S = 10.0  # how often opening a Memory looks whether the store grew large enough for its index
_LEXICAL_FIELDS = frozenset({"text", "url", "tags", "facets", "structured", "payload_meta", "index_paths"})
_VECTOR_FIELDS = frozenset({"embedding", "path_embeddings", "embedding_dim"})  # what vec and path_vecs read
_COLUMN_PARAMS = tuple(f"c_{name}" for name in codec.COLUMNS)  # the insert's parameter of each column
_CANDIDATE_COLUMNS = "r.num, r.weight, r.time, r.created_at, r.visits, r.last_access_at"  # codec.candidate


class PostgresSession(PortableSession, PostgresKeys, PostgresBulk, PostgresAudit):
    """One transaction on a PostgreSQL store (see memql.ports.store.StoreSession)."""

    def __init__(self, store: PostgresStore, conn: psycopg.Connection, write: bool) -> None:
        self.store = store
        self.conn = conn
        self.write = write
        self.locked: set[str] = set()
        self.inserted = 0  # records this transaction added (statistics are refreshed as the store grows)
        self.newest = 0  # the highest record number this transaction gave
        # whether this transaction changed postings: then SQL, which sees them, ranks its searches
        self.lexical_written = False
        self.changes_locked = False  # holds the record counter's row (lexical.CHANGE_LOG)

    def _enter(self, tenant: str) -> None:
        """Serialise this tenant's writers: the lock is held until the transaction ends."""
        if self.write and tenant not in self.locked:
            self.conn.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"{self.store.schema}/{tenant}",)
            )
            self.locked.add(tenant)

    def _rows(self, statement: str, params: Any = None) -> list[dict[str, Any]]:
        if statement is query.NOTHING[0]:
            return []  # no row can match: no round trip
        return self.conn.execute(statement, params).fetchall()  # type: ignore[arg-type]

    # --- records ---------------------------------------------------------------------------------

    def insert(self, record: Record) -> str:
        self._enter(record.tenant)
        num = self._insert_row(None, record)
        self.inserted += 1
        self.newest = max(self.newest, num)
        return str(num)

    def _lock_changes(self) -> None:
        """Hold the record counter's row before logging a change (inserts lock it themselves)."""
        if not self.changes_locked:
            self.conn.execute(lexical.LOCK_CHANGES_SQL)
            self.changes_locked = True

    def _insert_row(self, num: int | None, record: Record) -> int:
        """Store the record and its index entries in one statement; numbered by the counter unless given."""
        postings, length = lexical.document(record)
        params = {
            **dict(zip(_COLUMN_PARAMS, codec.encode(record), strict=True)),
            "vec": vectors.searchable(record.embedding, record.path_embeddings),
            "path_vecs": vectors.path_values(record.path_embeddings, record.embedding_dim),
            **lexical.add_params(record.tenant, postings, length),
        }
        statement, names = INSERT_NUMBERED if num is None else INSERT_GIVEN
        if num is not None:
            params["num"] = num
        cursor = psycopg.RawCursor(self.conn)
        inserted = cursor.execute(statement, [params[name] for name in names]).fetchone()["num"]
        self.lexical_written = self.changes_locked = True
        return inserted

    def get(self, tenant: str, ids: Sequence[str]) -> dict[str, Record]:
        self._enter(tenant)
        statement, params = query.build(
            tenant, RecordQuery(ids=list(ids), statuses=None, order="created_asc"), lock=self.write
        )
        return {str(row["num"]): codec.decode(row) for row in self._rows(statement, params)}

    def find(self, tenant: str, q: RecordQuery) -> list[tuple[Record, float | None]]:
        self._enter(tenant)
        if q.as_of is not None:
            from memql.store.postgres.history import find_as_of

            return find_as_of(self, tenant, q)
        ranked = self._indexed(tenant, q, "r.num, r.weight")
        if ranked is not None:  # the chosen records only are read whole (conditions checked again)
            checked = replace(q, ids=[str(n) for n, _, _ in ranked], text_query=None, limit=None, offset=0)
            statement, params = query.build(tenant, replace(checked, order="created_asc"))
            rows = {row["num"]: row for row in self._rows(statement, params)}
            return [(codec.decode(rows[n]), score) for n, score, _ in ranked if n in rows]
        statement, params = query.build(tenant, q)
        return [(codec.decode(row), row["score"]) for row in self._rows(statement, params)]

    def find_candidates(self, tenant: str, q: RecordQuery) -> list[Candidate]:
        if q.as_of is not None or q.text_query is None:
            # this class's find, not a read session's: that one adds pending visits, which its
            # find_candidates adds too
            return [Candidate.of(record, score) for record, score in PostgresSession.find(self, tenant, q)]
        self._enter(tenant)
        ranked = self._indexed(tenant, q, _CANDIDATE_COLUMNS)
        if ranked is not None:
            return [codec.candidate({**row, "score": score}) for _, score, row in ranked]
        statement, params = query.build(tenant, q)
        return [codec.candidate(row) for row in self._rows(statement, params)]

    def _indexed(self, tenant: str, q: RecordQuery, columns: str) -> list[tuple[int, float, Any]] | None:
        """A lexical search ranked by the in-process index (memql.store.postgres.lexical_index), or None
        when the SQL query answers (always, once this transaction has changed postings)."""
        if self.lexical_written:
            return None
        return self.store.lexical.hits(self.conn, tenant, q, columns)

    def namespaces(self, tenant: str, q: RecordQuery) -> list[str]:
        self._enter(tenant)
        conditions = query.where(tenant, q)
        if conditions is None:
            return []
        conds, params = conditions
        statement = (
            'SELECT DISTINCT r.namespace COLLATE "C" AS namespace FROM records r '
            f"WHERE {' AND '.join(conds)} AND r.namespace IS NOT NULL ORDER BY 1"
        )
        return [codec.unescape(row["namespace"]) for row in self._rows(statement, params)]

    def update(self, tenant: str, record_id: str, changes: dict[str, Any]) -> None:
        self._enter(tenant)
        (num,) = query.record_nums([record_id]) or (None,)
        if not changes or num is None:
            return
        if _VECTOR_FIELDS & changes.keys() and not changes.keys() >= _VECTOR_FIELDS:
            # vec and path_vecs derive from all three (the engine changes them together): the rest as stored
            row = self.conn.execute(
                "SELECT embedding, path_embeddings, embedding_dim FROM records "
                "WHERE tenant = %s AND num = %s",
                (tenant, num),
            ).fetchone()
            if row is not None:
                stored = {
                    k: bytes(row[k]) if isinstance(row[k], memoryview) else row[k] for k in _VECTOR_FIELDS
                }
                changes = {**stored, **changes}
        sets = [sql.SQL("{} = %s").format(sql.Identifier(name)) for name in changes]
        values = [codec.encode_field(name, value) for name, value in changes.items()]
        if "embedding" in changes:  # a record with path vectors has no searchable vector of its own
            sets.append(sql.SQL("vec = %s::vector"))
            values.append(vectors.searchable(changes["embedding"], changes.get("path_embeddings")))
        if "path_embeddings" in changes:
            sets.append(sql.SQL("path_vecs = %s::vector[]"))
            dim = changes.get("embedding_dim")
            values.append(vectors.path_values(changes["path_embeddings"], dim))
        self.conn.execute(
            sql.SQL("UPDATE records SET {} WHERE tenant = %s AND num = %s").format(sql.SQL(", ").join(sets)),
            [*values, tenant, num],
        )
        if _LEXICAL_FIELDS & changes.keys():
            record = self.get(tenant, [str(num)]).get(str(num))
            if record is not None:
                self._lock_changes()
                self.lexical_written = True
                self.conn.execute(*lexical.remove_sql(tenant, [num]))
                postings, length = lexical.document(record)
                self.conn.execute(*lexical.add_sql(tenant, num, postings, length))

    def pending_embeddings(self, tenant: str, limit: int) -> list[Record]:
        self._enter(tenant)
        statement, params = query.build(
            tenant, RecordQuery(statuses=("active", "archived"), order="created_asc")
        )
        statement = statement.replace(
            " ORDER BY", " AND r.embedding_status = 'pending' AND r.text IS NOT NULL ORDER BY"
        )
        return [codec.decode(row) for row in self._rows(statement + " LIMIT %(n)s", {**params, "n": limit})]

    def embedding_for_hash(self, tenant: str, content_hash: str, model: str) -> bytes | None:
        return self.embeddings_for_hashes(tenant, [content_hash], model).get(content_hash)

    def dense(
        self, tenant: str, vector: Sequence[float], q: RecordQuery, k: int, model: str, signed: bool = False
    ):
        rows = self._dense(tenant, vector, q, k, model, signed)
        return [(codec.decode(row), float(row["score"])) for row in rows]

    def dense_candidates(
        self, tenant: str, vector: Sequence[float], q: RecordQuery, k: int, model: str, signed: bool = False
    ):
        rows = self._dense(tenant, vector, q, k, model, signed, _CANDIDATE_COLUMNS)
        return [codec.candidate(row) for row in rows]

    def _dense(
        self,
        tenant: str,
        vector: Sequence[float],
        q: RecordQuery,
        k: int,
        model: str,
        signed: bool,
        columns: str = vectors.RECORD_COLUMNS,
    ):
        self._enter(tenant)
        indexed, iterative = len(vector) in self.store.indexed_dimensions, self.store.iterative_scans
        conn = self.conn
        return vectors.ranked_rows(conn, tenant, vector, q, k, model, indexed, iterative, signed, columns)

    def touch(self, tenant: str, ids: Sequence[str], now: datetime) -> None:
        self._enter(tenant)
        nums = query.record_nums(ids)
        if nums:
            self.conn.execute(
                "UPDATE records SET visits = visits + 1, last_access_at = %s "
                "WHERE tenant = %s AND num = ANY(%s::bigint[])",
                (codec.to_utc(now), tenant, nums),
            )

    def hard_delete(self, tenant: str, ids: Sequence[str]) -> None:
        self._enter(tenant)
        nums = query.record_nums(ids)
        if not nums:
            return
        owned = [
            r["num"]
            for r in self._rows(
                "DELETE FROM records WHERE tenant = %s AND num = ANY(%s::bigint[]) RETURNING num",
                (tenant, nums),
            )
        ]
        if not owned:
            return
        self._lock_changes()
        self.lexical_written = True
        self.conn.execute(*lexical.remove_sql(tenant, owned))
        texts = [str(n) for n in owned]
        self.conn.execute(
            "DELETE FROM links WHERE tenant = %s AND (src = ANY(%s::text[]) OR dst = ANY(%s::text[]))",
            (tenant, texts, texts),
        )

    def find_duplicate(self, tenant: str, content_hash: str, now: datetime, limit: int) -> list[str]:
        self._enter(tenant)
        rows = self._rows(
            "SELECT num FROM records WHERE tenant = %s AND content_hash = %s "
            "AND status IN ('active', 'pending') AND (expire_at IS NULL OR expire_at > %s) "
            "ORDER BY num LIMIT %s",
            (tenant, escape(content_hash), codec.to_utc(now), limit),
        )
        return [str(row["num"]) for row in rows]

    # --- lineage ---------------------------------------------------------------------------------

    def add_link(self, tenant: str, link: Link) -> None:
        self._enter(tenant)
        self.conn.execute(
            "INSERT INTO links (tenant, src, dst, relation, created_at) VALUES (%s, %s, %s, %s, %s) "
            "ON CONFLICT DO NOTHING",
            (
                tenant,
                escape(link.src),
                escape(link.dst),
                escape(link.relation),
                codec.to_utc(link.created_at),
            ),
        )

    def remove_link(self, tenant: str, link: Link) -> None:
        self._enter(tenant)
        self.conn.execute(
            "DELETE FROM links WHERE tenant = %s AND src = %s AND dst = %s AND relation = %s",
            (tenant, escape(link.src), escape(link.dst), escape(link.relation)),
        )

    def links(self, tenant: str, ids: Sequence[str]) -> list[Link]:
        self._enter(tenant)
        ids = [escape(i) for i in ids]
        if not ids:
            return []
        rows = self._rows(
            "SELECT src, dst, relation, created_at FROM links WHERE tenant = %s "
            "AND (src = ANY(%s::text[]) OR dst = ANY(%s::text[])) "
            'ORDER BY created_at, src COLLATE "C", dst COLLATE "C"',
            (tenant, ids, ids),
        )
        return [codec.link_from_row(r) for r in rows]

    @contextmanager
    def scratch(self) -> Iterator[None]:
        self.conn.execute("SAVEPOINT scratch")
        try:
            yield
        finally:
            self.conn.execute("ROLLBACK TO SAVEPOINT scratch")
            self.conn.execute("RELEASE SAVEPOINT scratch")


@refuse_writes
class PostgresReadSession(ReadMixin, PostgresSession):
    """A read transaction's session: no advisory or row locks, every write refused,
    visits and audit entries to the store's buffer."""

    def __init__(self, store: PostgresStore, conn: psycopg.Connection) -> None:
        super().__init__(store, conn, write=False)
        self.buffer = store.visits


class PostgresStore:
    """A memql store in a PostgreSQL schema. Safe to share between threads (a connection pool)."""

    lock_timeout_ms = reads.LOCK_TIMEOUT_MS  # how long a statement waits for another's lock (then store.busy)
    pool_wait_s = 30.0  # how long a transaction waits for a pooled connection (then store.busy/unavailable)

    def __init__(
        self,
        url: str,
        *,
        min_connections: int = 1,
        max_connections: int = 10,
        lexical_index: LexicalMode = "auto",
    ) -> None:
        """`lexical_index`: "sql" (PostgreSQL's BM25 query ranks every search), "postings" (an in-process
        BM25 index with the same scores, kept current from the store) or "auto" (SQL below
        lexical_index.POSTINGS_MIN_RECORDS records, the index from there on)."""
        self.url = url
        self.dsn, self.schema = split_url(url)
        connections = max(min_connections, pool_max(url, max_connections))
        self.reads_at_once = connections  # (memql.ports.store.Store) a transaction per pooled connection
        try:
            conn = psycopg.connect(self.dsn, autocommit=True)
            try:
                self.extension_schema, version = vector_schema(conn)
                self.iterative_scans = extension_version(version) >= (0, 8)
                migrate(conn, self.schema, self.extension_schema)
            except BaseException:
                conn.close()
                raise
        except psycopg.Error as exc:  # unreachable server, bad URL, missing rights: a message, not a trace
            raise StoreUnavailable(f"PostgreSQL at {parts_for_message(url)}: {exc}") from exc
        # the pool's first connection is this one (the schema's catalog already read): one, not two
        self._connector = Connector(conn)
        self.pool = ConnectionPool(
            self.dsn,
            min_size=min_connections,
            max_size=connections,
            timeout=self.pool_wait_s,
            configure=self._configure,
            reset=reset_to_writes,  # a read's connection goes back to the pool as a write's
            kwargs={"row_factory": dict_row},
            connection_class=self._connector,  # type: ignore[arg-type]
            open=True,
        )
        self._lock = threading.Lock()
        self._flushing = threading.Lock()  # one flush at a time: read audit entries keep their order
        self.visits = VisitBuffer(self.flush_visits)
        self._inserted, self._analyze_at = 0, ANALYZE_FIRST
        self._prepare_after = 0.0  # (monotonic) when prepare() looks at the store's size again
        self._newest = 0  # the highest record number this process has given
        self.indexed_dimensions = self._indexed_dimensions()
        self._rebuild_lexical_index()
        self.lexical = PostgresLexicalIndex(self._own_connection, lexical_index)

    def _own_connection(self) -> psycopg.Connection:
        """A connection outside the pool (the lexical index's keeper holds one for as long as it runs)."""
        conn = psycopg.connect(self.dsn, autocommit=True, row_factory=dict_row)
        try:
            self._configure(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def prepare(self, tenant: str, model: str | None) -> None:
        """Called by the opener (Memory): a large store's lexical index is built now, in a thread, so
        that searches do not wait for it (SQL answers until it is ready). Looked at once every
        PREPARE_EVERY_S (a server opens a Memory per request); best effort: a search needs none of it."""
        if time.monotonic() < self._prepare_after:
            return
        try:
            with live_connection(self.pool) as conn:
                records = conn.execute("SELECT value FROM counters WHERE name = 'record_num'").fetchone()
        except psycopg.Error:
            return  # (the server is out of reach: the request that opened this Memory will say so)
        self._prepare_after = time.monotonic() + PREPARE_EVERY_S
        self.lexical.prepare(records["value"] if records else 0)

    def _configure(self, conn: psycopg.Connection) -> None:
        # one round trip for the three settings (a statement each cost one more per connection opened);
        # lock_timeout: a lock wait past it is store.busy (reads.refusing)
        conn.execute(
            sql.SQL("SET search_path = {}, {}; SET TimeZone = 'UTC'; SET lock_timeout = {}").format(
                sql.Identifier(self.schema), sql.Identifier(self.extension_schema), int(self.lock_timeout_ms)
            )
        )
        set_json_loads(codec.loads, conn)
        conn.commit()

    def _indexed_dimensions(self) -> set[int]:
        with live_connection(self.pool) as conn:
            # pg_class by the schema's oid, not the pg_indexes view: a database of many schemas (a test
            # run's hundreds) makes the view scan and join them all (~10 ms of server CPU at 300 schemas)
            rows = conn.execute(
                "SELECT relname FROM pg_class WHERE relkind = 'i' AND relname LIKE 'records_vec_%%' "
                "AND relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = %s)",
                (self.schema,),
            ).fetchall()
        return {int(r["relname"].rsplit("_", 1)[1]) for r in rows}

    def ensure_vector_index(self, dim: int) -> None:
        """An HNSW index for vectors of this dimension (built now, for the vectors already stored)."""
        if not 0 < dim <= MAX_INDEXED_DIMENSION:
            raise ValueError(f"pgvector indexes 1 to {MAX_INDEXED_DIMENSION} dimensions, not {dim}")
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute(vector_index_sql(self.schema, dim))
        self.indexed_dimensions.add(dim)

    def drop_vector_index(self, dim: int) -> None:
        """Drop the HNSW index of this dimension; its vectors are ranked exactly until ensure_vector_index
        builds it again. For a large load: pgvector builds a graph in one pass several times faster than it
        inserts the vectors one by one (the bench's million records)."""
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP INDEX IF EXISTS {}").format(
                    sql.Identifier(self.schema, f"records_vec_{int(dim)}")
                )
            )
        self.indexed_dimensions.discard(dim)

    def _rebuild_lexical_index(self) -> None:
        """Refill the lexical index when another analyzer wrote it (see the SQLite backend)."""
        with live_connection(self.pool) as conn:
            lexical.rebuild(conn)

    @contextmanager
    def transaction(self) -> Iterator[PostgresSession]:
        attempt = reads.Attempt()
        with reads.refusing(self.lock_timeout_ms, self.dsn, attempt):
            self.flush_visits()  # the process's earlier reads are recorded before its next write
            with live_connection(self.pool) as conn:  # commits on normal exit, rolls back on an exception
                session = PostgresSession(self, conn, write=True)
                yield session
                attempt.committing = True
        if session.inserted:
            self._grown(session.inserted)
        if session.lexical_written:
            self._newest = max(self._newest, session.newest)
            self.lexical.committed(self._newest)

    def _grown(self, inserted: int) -> None:
        """Refresh the planner's statistics each time the store has doubled since this process last did.
        A fresh table has none, and without them PostgreSQL may walk a whole tenant to find one record;
        autovacuum catches up only a minute later (and only after 10% growth)."""
        with self._lock:
            self._inserted += inserted
            if self._inserted < self._analyze_at:
                return
            self._analyze_at = max(2 * self._analyze_at, self._inserted)
        refresh_statistics(self.dsn, self.schema)

    @contextmanager
    def read(self) -> Iterator[PostgresReadSession]:
        with reads.refusing(self.lock_timeout_ms, self.dsn), live_connection(self.pool) as conn:
            conn.isolation_level = READS  # its BEGIN names the level: one round trip, not BEGIN and a SET
            try:
                yield PostgresReadSession(self, conn)
            finally:
                conn.rollback()

    def flush_visits(self, attempt: reads.Attempt | None = None) -> None:
        """Write the buffered visits and read audit entries in one transaction (memql.store.visits); on a
        failure the batch goes back to the buffer and the error is raised as its refusal."""
        attempt = attempt or reads.Attempt()
        with self._flushing, reads.refusing(self.lock_timeout_ms, self.dsn, attempt):
            if not self.visits.pending:
                return
            batch = self.visits.drain()
            try:
                with live_connection(self.pool) as conn:
                    session = PostgresSession(self, conn, write=True)
                    for tenant in tenants_of(batch):
                        session._enter(tenant)
                    write_batch(conn, batch, session._log)
                    attempt.committing = True
            except BaseException:
                self.visits.restore(batch)
                raise

    @contextmanager
    def dry_run(self) -> Iterator[PostgresSession]:
        with reads.refusing(self.lock_timeout_ms, self.dsn):
            self.flush_visits()
            with live_connection(self.pool) as conn:
                try:
                    yield PostgresSession(self, conn, write=False)
                finally:
                    conn.rollback()

    def execute_sql(self, statement: str, params: Any = ()) -> list[dict[str, Any]]:
        """Read-only SQL for tools and tests (rows as dicts)."""
        self.flush_visits()
        with live_connection(self.pool) as conn:
            try:
                return conn.execute(statement, params or None).fetchall()
            finally:
                conn.rollback()

    def drop(self) -> None:
        """Remove the whole store (its schema) from the database — for throwaway stores such as a
        benchmark's. The store cannot be used afterwards."""
        self.visits.drain()  # nothing left to record
        self.lexical.close()  # its keeper's connection reads the schema
        with live_connection(self.pool) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(self.schema)))
            conn.commit()

    def close(self) -> None:
        """Flush the buffer (a clean close loses no visit; a connection lost before that flush committed is
        replaced and the flush tried once more: nothing else would), then close the pool."""
        self.lexical.close()
        self.visits.close()
        try:
            attempt = reads.Attempt()
            try:
                self.flush_visits(attempt)
            except Refusal:
                if not attempt.lost or attempt.committing:
                    raise  # (out of reach, busy or full: a second try would wait and fail the same)
                self.flush_visits()
        finally:
            self.pool.close()
            self._connector.discard()


__all__ = ["PostgresSession", "PostgresStore", "StoreUnavailable", "split_url"]

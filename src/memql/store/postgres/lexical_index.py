"""The in-process BM25 index of a PostgreSQL store: the SQLite backend's postings index (memql.index.postings)
kept current from the postings PostgreSQL keeps, with PostgreSQL's own BM25 query as the exact fallback.

Why. PostgreSQL ranks a search by scoring every matching posting in SQL and joining each match to its
record to check the query's conditions (memql.store.postgres.lexical): with a small vocabulary a two-word
query matches most of a large store, 16,000 postings at 100,000 records (100 ms) and hundreds of
thousands at a million. The index scores the same postings in numpy with the same statistics and formula
(the terms' parts added in the query's order in both, so the sums are equal to the bit) and PostgreSQL
checks the conditions on a window of the best matches only (memql.index.window), as on SQLite.

Catching up. Every transaction that changes postings logs the records it changed in `lexical_changes`,
numbered from a sequence while it holds the record counter's row lock (lexical.CHANGE_LOG): numbers are
handed out in commit order, so a snapshot sees a prefix of the log and the index, which holds the changes
up to `seq`, catches up by re-reading the records logged after it, in the searching transaction's own
snapshot. A refill of the postings (a new analyzer) bumps the counter `lexical_generation` and every
process's index starts over. A search reads the log's state with its first window's conditions and scores
again when the snapshot holds changes its index did not; once a search has found such changes (another
process writes), the next ones read the state and the changes first, in one query, and score once.

Who answers. A transaction that has itself changed postings, a snapshot older than the index, a phrase,
an order other than relevance, an offset, a point-in-time read and, in mode "auto", a store of fewer
than POSTINGS_MIN_RECORDS records are answered by the SQL query. No search waits for a build: the first
search of a large store (or the opener, `prepare`) wakes the keeper, a thread with a connection of its
own that builds the index from the postings tables (bulk binary COPY) and then absorbs the commits of
every process as this process's writes and searches signal them; SQL answers until it is ready.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

import numpy as np
import psycopg
from psycopg.rows import tuple_row

from memql.index.keeper import Keeper, Kept
from memql.index.postings import BM25Postings
from memql.index.window import filtered_top
from memql.ports.store import RecordQuery
from memql.services.tokenize import query_terms
from memql.store.postgres import query
from memql.store.postgres.reads import READS

LexicalMode = Literal["auto", "sql", "postings"]
LEXICAL_MODES: tuple[str, ...] = ("auto", "sql", "postings")
POSTINGS_MIN_RECORDS = 10_000  # "auto" builds the index from here on; below, the SQL query is as fast
FIRST_WINDOW = 64  # at least this many best matches are checked against the query's conditions first
MAX_WINDOW = 12_800  # wider than this, the SQL query over every match answers instead
ABSORB_AT_SEARCH = 20_000  # a search catches up this many changes itself; more, and the keeper does
ABSORB_BATCH = 20_000  # changes the keeper absorbs at a time (a search waits at most for one batch)
BUILD_BATCH = 250_000  # record numbers read at a time by a build

# the log's last change, the generation and the records numbered, in the caller's snapshot
STATE_SQL = (
    "SELECT (SELECT COALESCE(max(seq), 0) FROM lexical_changes) AS last, "
    "(SELECT value FROM counters WHERE name = 'lexical_generation') AS generation, "
    "(SELECT value FROM counters WHERE name = 'record_num') AS records"
)
# each changed record's document and postings now (no document: the record's postings are gone): the
# columns and joins from `c`, the changed record numbers
_CHANGED_COLUMNS = "c.num, d.tenant, d.len, p.term, p.body * 2 + p.context AS halves"
_CHANGED_JOINS = "LEFT JOIN lexical_docs d ON d.num = c.num LEFT JOIN lexical_postings p ON p.num = d.num"
CHANGED_SQL = (
    f"SELECT {_CHANGED_COLUMNS} "
    "FROM (SELECT DISTINCT num FROM lexical_changes WHERE seq > %s AND seq <= %s) c "
    f"{_CHANGED_JOINS}"
)
# STATE_SQL's row with CHANGED_SQL's after it (the changes after %s up to the state's last, unless more
# than %s); one row of NULLs after the state when nothing changed
STATE_CHANGED_SQL = (
    f"WITH s AS ({STATE_SQL}) SELECT s.last, s.generation, s.records, {_CHANGED_COLUMNS} "
    "FROM s LEFT JOIN LATERAL (SELECT DISTINCT num FROM lexical_changes "
    "WHERE seq > %s AND seq <= s.last AND s.last - %s <= %s) c ON true "
    f"{_CHANGED_JOINS}"
)
# a build numbers terms and tenants in the server, so that documents and postings travel as fixed-size
# binary rows parsed by numpy (12 million postings at a million records)
_BUILD_SETUP = (
    "CREATE TEMP TABLE build_terms ON COMMIT DROP AS SELECT term, "
    "(row_number() OVER (ORDER BY term) - 1)::int4 AS id FROM (SELECT DISTINCT term FROM lexical_df) t",
    "CREATE TEMP TABLE build_tenants ON COMMIT DROP AS SELECT tenant, "
    "(row_number() OVER (ORDER BY tenant) - 1)::int4 AS id FROM (SELECT DISTINCT tenant FROM lexical_docs) t",
    "ANALYZE build_terms, build_tenants",
)
_BUILD_DOCS = (
    "COPY (SELECT d.num, t.id, d.len FROM lexical_docs d JOIN build_tenants t ON t.tenant = d.tenant "
    "WHERE d.num > {lo} AND d.num <= {hi} ORDER BY d.num) TO STDOUT (FORMAT binary)"
)
_BUILD_POSTINGS = (
    "COPY (SELECT p.num, v.id, p.body * 2 + p.context FROM lexical_postings p "
    "JOIN build_terms v ON v.term = p.term WHERE p.num > {lo} AND p.num <= {hi}) TO STDOUT (FORMAT binary)"
)

Hit = tuple[int, float, dict[str, Any]]  # a record number, its BM25 score and its row (checked columns)


class PostgresLexicalIndex(Kept):
    """The in-process BM25 index of one PostgreSQL store (every tenant: the statistics span them all)."""

    def __init__(self, connect: Callable[[], psycopg.Connection], mode: LexicalMode = "auto") -> None:
        """`connect`: a new connection to the store's schema (the keeper's own)."""
        if mode not in LEXICAL_MODES:
            raise ValueError(f"lexical_index must be one of {', '.join(LEXICAL_MODES)}, not {mode!r}")
        self.mode: LexicalMode = mode
        self.connect = connect
        self.postings: BM25Postings | None = None
        self.seq = 0  # the last change absorbed
        self.generation: int | None = None
        self.others_write = False  # the last search found changes its index did not hold yet
        self.lock = threading.RLock()
        # the keeper: builds the index, then absorbs committed changes (see `wake`)
        self.keeping = Keeper("memql-pg-lexical", connect, self._keep_pass, (psycopg.Error, OSError), False)

    @property
    def answering(self) -> str:
        """Which index ranks this store's searches now: "postings" (in-process, once built) or "sql"."""
        return "postings" if self.postings is not None else "sql"

    def large(self, records: int) -> bool:
        return self.mode == "postings" or (self.mode == "auto" and records >= POSTINGS_MIN_RECORDS)

    # --- searching ------------------------------------------------------------------------------------

    def hits(self, conn: psycopg.Connection, tenant: str, q: RecordQuery, columns: str) -> list[Hit] | None:
        """The best q.limit records matching q by BM25 (best first; ties by weight, then the newest), each
        with `columns` of its row, or None when the SQL query should answer."""
        if self.mode == "sql" or q.text_query is None or q.limit is None:
            return None
        if q.order != "relevance" or q.offset or q.as_of is not None:
            return None
        if q.limit <= 0:
            return []
        # the state of the log is read with the first window's conditions (one round trip less): the
        # index scores as it stands, and scores again if the snapshot turns out to hold other changes --
        # unless the last search found some: then the changes are read (and absorbed) first
        if self.postings is None:
            state: tuple[int, int, int] | None = _state(conn)
        elif self.others_write:
            before = self.seq
            state = self._state_absorbed(conn)
            self.others_write = state[0] != before  # (none this time: back to reading the state afterwards)
        else:
            state = None
        while True:
            with self.lock:
                if state is not None and not self._caught_up(conn, *state):
                    return None
                if self.postings is None:
                    state = _state(conn)
                    continue
                terms = query_terms(q.text_query)
                if not terms:
                    return []  # no terms: the SQL query has nothing to match either
                phrases = self.postings.phrases(terms)
                if any(len(p) != 1 for p in phrases):
                    return None  # the SQL query ORs a phrase's tokens: it answers
                nums, scores = self.postings.scores([p[0] for p in phrases], tenant)
                scored = (self.seq, self.generation)
            seen: list[tuple[int, int, int]] = []

            def passing(
                candidates: list[int], into: list | None = seen if state is None else None
            ) -> dict[int, tuple[float, dict[str, Any]]]:
                rows = _passing(conn, tenant, q, candidates, columns, into)
                return {row["num"]: (row["weight"], row) for row in rows}

            found = filtered_top(q.limit, nums, scores, passing, FIRST_WINDOW, MAX_WINDOW)
            if found is None or state is not None:
                return found  # (state given: scored after catching up to it)
            state = seen[0] if seen else _state(conn)
            if state[:2] == scored:
                return found
            self.others_write = True

    def _caught_up(self, conn: psycopg.Connection, last: int, generation: int, records: int) -> bool:
        """Bring the index to the caller's snapshot (`last`: its newest change); False when SQL answers."""
        if self.postings is not None and generation != self.generation:
            self.postings = None  # the postings were refilled: start over
        if self.postings is None:
            if self.large(records):
                self.wake()  # the keeper builds it; SQL answers meanwhile
            return False
        if last < self.seq:
            return False  # a snapshot older than the index: SQL sees what it sees
        if last - self.seq > ABSORB_AT_SEARCH:
            self.wake()
            return False
        if last > self.seq:
            self._absorb(conn, last)
        return True

    def _absorb(self, conn: psycopg.Connection, last: int) -> None:
        """Re-read the records changed after self.seq (up to `last`): indexed again, or gone."""
        with conn.cursor(row_factory=tuple_row) as cursor:  # (a dict per posting cost more than the rest)
            self._absorb_rows(cursor.execute(CHANGED_SQL, (self.seq, last)).fetchall(), last)

    def _absorb_rows(self, rows: list[tuple[Any, ...]], last: int) -> None:
        """CHANGED_SQL's rows (num, tenant, len, term, halves) of the changes up to `last`, absorbed."""
        assert self.postings is not None
        gone = [num for num, tenant, *_ in rows if tenant is None]
        if gone:
            self.postings.remove(gone)
        docs: dict[int, int] = {}  # record number -> its document's index
        nums, tenant_of, lengths = [], [], []
        tenants: dict[str, int] = {}
        vocab: dict[str, int] = {}
        owners, terms, halves = [], [], []
        for num, tenant, length, term, half in rows:
            if tenant is None:
                continue
            at = docs.get(num)
            if at is None:
                at = docs[num] = len(nums)
                nums.append(num)
                tenant_of.append(tenants.setdefault(tenant, len(tenants)))
                lengths.append(length)
            if term is not None:
                owners.append(at)
                terms.append(vocab.setdefault(term, len(vocab)))
                halves.append(half)
        self.postings.put_counted(nums, list(tenants), tenant_of, lengths, list(vocab), owners, terms, halves)
        self.seq = last

    def _state_absorbed(self, conn: psycopg.Connection) -> tuple[int, int, int]:
        """`_state`, and the changes after self.seq up to it absorbed, in one round trip (when the index
        stands and they are few): a search that expects other processes' changes reads them first rather
        than scoring, finding them and scoring again."""
        seq = self.seq  # (read without the lock: no other search waits for this round trip)
        with conn.cursor(row_factory=tuple_row) as cursor:
            rows = cursor.execute(STATE_CHANGED_SQL, (seq, seq, ABSORB_AT_SEARCH)).fetchall()
        last, generation, records = rows[0][:3]
        with self.lock:  # absorbed only onto the index they were read for (else `_caught_up` catches up)
            fresh = self.postings is not None and generation == self.generation and self.seq == seq
            if fresh and seq < last <= seq + ABSORB_AT_SEARCH:  # (more: the keeper's, `_caught_up`)
                self._absorb_rows([row[3:] for row in rows if row[3] is not None], last)
        return last, generation, records

    # --- keeping the index current in the background -----------------------------------------------

    def prepare(self, records: int) -> None:
        """The opener of a store of `records` records: a large one gets its index built now, off the query
        path (the first searches are answered by SQL until it is ready)."""
        if self.postings is None and self.large(records):
            self.wake()

    def committed(self, newest: int) -> None:
        """A write transaction of this process changed postings and committed (`newest`: the highest
        record number this process has seen): the keeper absorbs it, or builds the index if the store
        has grown large enough."""
        if self.postings is not None or self.keeper is not None or self.large(newest):
            self.wake()

    def wake(self) -> None:
        self.keeping.wake()

    def wait(self) -> None:
        """Until the keeper has done every pass asked of it so far (tests, the bench)."""
        self.keeping.wait()

    def close(self) -> None:
        self.keeping.stop()

    def _keep_pass(self, conn: psycopg.Connection) -> None:
        """Build the index if there is none, then absorb what was committed since, a batch at a time."""
        conn.isolation_level = READS  # every transaction of the keeper's own connection reads one snapshot
        if self.postings is None:
            state = conn.execute(STATE_SQL).fetchone()
            if not self.large(state["records"]):
                return
            built = self._build(conn)
            with self.lock:
                if self.postings is None and not self.stopping:
                    self.postings, self.seq, self.generation = built
        while not self.stopping:
            with conn.transaction():  # one snapshot of the log and the postings it names
                state = conn.execute(STATE_SQL).fetchone()
                with self.lock:
                    if self.postings is None or state["generation"] != self.generation:
                        self.postings = None
                        self.wake()  # built again by the next pass
                        return
                    if state["last"] <= self.seq:
                        return
                    self._absorb(conn, min(state["last"], self.seq + ABSORB_BATCH))

    def _build(self, conn: psycopg.Connection) -> tuple[BM25Postings, int, int]:
        """The index as of the newest change, read in one snapshot: its postings, that change and the
        generation."""
        postings = BM25Postings()
        with conn.transaction():  # (at the keeper's level: one snapshot)
            state = conn.execute(STATE_SQL).fetchone()
            for statement in _BUILD_SETUP:
                conn.execute(statement)
            vocab = [r["term"] for r in conn.execute("SELECT term FROM build_terms ORDER BY id")]
            tenants = [r["tenant"] for r in conn.execute("SELECT tenant FROM build_tenants ORDER BY id")]
            top = conn.execute("SELECT COALESCE(max(num), 0) AS top FROM lexical_docs").fetchone()["top"]
            for lo in range(0, top, BUILD_BATCH):
                if self.stopping:
                    break
                bounds = {"lo": lo, "hi": lo + BUILD_BATCH}
                docs = _copied(conn, _BUILD_DOCS.format(**bounds), (">i8", ">i4", ">i4"))
                posts = _copied(conn, _BUILD_POSTINGS.format(**bounds), (">i8", ">i4", ">i4"))
                owners = np.searchsorted(docs[0], posts[0])
                postings.put_counted(
                    docs[0], tenants, docs[1], docs[2].astype(np.float64), vocab, owners, posts[1], posts[2]
                )
        return postings, state["last"], state["generation"]


def _copied(conn: psycopg.Connection, statement: str, fields: tuple[str, ...]) -> list[np.ndarray]:
    """The columns of a binary COPY of fixed-size, never-null fields (numpy dtypes, big-endian)."""
    data = bytearray()
    with conn.cursor().copy(statement) as copy:
        for chunk in copy:
            data += chunk
    start = 19 + int.from_bytes(data[15:19], "big")  # signature, flags, header extension
    layout = [("count", ">i2")]
    for i, dtype in enumerate(fields):
        layout += [(f"size{i}", ">i4"), (f"f{i}", dtype)]
    row = np.dtype(layout)
    rows = np.frombuffer(data, row, (len(data) - start - 2) // row.itemsize, start)
    return [rows[f"f{i}"].astype(np.int64) for i in range(len(fields))]


def _state(conn: psycopg.Connection) -> tuple[int, int, int]:
    """The log's last change, the generation and the records numbered, in the caller's snapshot."""
    row = conn.execute(STATE_SQL).fetchone()
    return row["last"], row["generation"], row["records"]


def _passing(
    conn: psycopg.Connection,
    tenant: str,
    q: RecordQuery,
    nums: list[int],
    columns: str,
    state: list[tuple[int, int, int]] | None = None,
) -> list[dict[str, Any]]:
    """The candidates that satisfy the query's conditions: `columns` of their rows (with num and weight,
    the order's tie-breaks). `state`: a list the log's state (`_state`) is read into by the same
    statement, when it is empty."""
    ids = [str(n) for n in nums]
    if q.ids is not None:  # the query's own ids narrow the candidates
        wanted = set(q.ids)
        ids = [i for i in ids if i in wanted]
    if not ids:
        return []
    checked = replace(q, ids=ids, text_query=None, limit=None, offset=0, order="created_asc")
    conditions = query.where(tenant, checked)
    if conditions is None:
        return []
    conds, params = conditions
    statement = f"SELECT {columns} FROM records r WHERE {' AND '.join(conds)}"
    if state is None or state:
        return conn.execute(statement, params).fetchall()
    rows = conn.execute(
        f"WITH s AS ({STATE_SQL}) SELECT s.last AS state_last, s.generation AS state_generation, "
        f"s.records AS state_records, x.* FROM s LEFT JOIN LATERAL ({statement}) x ON true",
        params,
    ).fetchall()
    state.append((rows[0]["state_last"], rows[0]["state_generation"], rows[0]["state_records"]))
    return [row for row in rows if row["num"] is not None]

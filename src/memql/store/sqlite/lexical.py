"""Lexical retrieval for the SQLite backend: an in-process BM25 index beside FTS5, filtered in SQL.

FTS5 ranks by scoring every match (``ORDER BY bm25(...)``): with a small vocabulary a two-word query
matches most of a large store, which costs FTS5 50-200 ms at a million records. The postings index
(memql.index.postings) scores the same matches in numpy in a few ms, with FTS5's statistics and formula,
so its scores are FTS5's and FTS5 stays the oracle (and the fallback).

Catching up. Every change of a record's FTS5 row (insert, text change, hard delete, import) appends the
record number to ``lexical_changes`` in the same transaction, so a process's index catches up by reading
the changes above the last sequence number it absorbed -- whichever process wrote them -- and re-reading
those records' FTS5 rows. A refill of the FTS5 table (a new analyzer) bumps the counter
``lexical_generation``, and every process's index starts over.

Transactions. The shared index only ever absorbs committed rows: a transaction that has itself changed
the lexical index searches with FTS5, which sees its own uncommitted rows, so a rollback never reaches
the shared index.

Filters, tenant, status, expiry and clearance are checked in SQL on a window of the index's best matches,
as on the dense path: the window widens (x8) while a wider one could change the answer, and past
MAX_WINDOW the full FTS5 query runs instead -- a matching record is never lost to a top-k cut. FTS5 also
answers queries with a phrase (a query term FTS5 cuts into several tokens), point-in-time reads and, in
mode "auto", stores with fewer than POSTINGS_MIN_RECORDS records.

Snapshots. The index is saved beside the database (``<file>.lexical/``, named by the store's random id,
the generation and the change it holds) when a tenth of it changed and when the store closes; a process
opening a large store maps it (memql.index.postings: nothing is read whole) and reads only the newer
changes. A process that writes to a large file store keeps the index current as it commits (the
keeper: a thread absorbing each commit on a connection of its own), so a loader that never searches
still leaves a snapshot at close.

No search waits for the index to be built: a snapshot is opened at once (by SQLiteStore.prepare or the
first search); without one, a thread builds the index from the FTS5 table on a connection of its own,
and FTS5 answers until it is ready.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

import numpy as np

from memql.errors import MemqlError
from memql.index.arrays_file import optional_write
from memql.index.keeper import Keeper, Kept
from memql.index.postings import BM25Postings
from memql.index.window import filtered_top
from memql.ports.record import Record
from memql.ports.store import Candidate, RecordQuery
from memql.services.tokenize import query_terms
from memql.store.sqlite import codec, query
from memql.store.sqlite.builds import EXITING, connect_existing, launch
from memql.store.sqlite.governed import Checker, Row, Version
from memql.store.sqlite.pages import OPENER_WAIT_S, Populating

LexicalMode = Literal["auto", "fts5", "postings"]
LEXICAL_MODES: tuple[str, ...] = ("auto", "fts5", "postings")
POSTINGS_MIN_RECORDS = 10_000  # "auto" builds the index from here on; below, FTS5 is as fast
FIRST_WINDOW = 64  # at least this many best matches are checked against the query's conditions first
MAX_WINDOW = 12_800  # wider than this, the full FTS5 query over every match answers instead
_BATCH = 50_000  # documents read and indexed at a time
SUFFIX = ".postings"  # a snapshot's file (memql.index.postings: mapped when opened)
IN_BACKGROUND = True  # a file store's index is prepared by a thread while FTS5 answers (False: by a search)
PREPARE_HOOK: Callable[[], None] | None = None  # tests: runs first in the preparing thread
FTS5_TOKENIZER = "unicode61 remove_diacritics 2"  # records_fts's (see schema.py)

Hit = tuple[int, float, Row]  # a record number, its BM25 score and its candidate columns
# an index ready to publish: store id, generation, postings, last change, its record number, unsaved changes
Prepared = tuple[int, int, "BM25Postings", int, int, int]


class FTS5Tokenizer:
    """FTS5's own tokens of index terms, from a private in-memory FTS5 table: exact by construction,
    whatever Unicode tables this SQLite was built with (memql.index.lexical.term_tokens reproduces them in
    Python, but a character whose properties changed since can tokenise differently)."""

    def __init__(self) -> None:
        self.conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self.conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize = '{FTS5_TOKENIZER}')")
        self.conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
        self.lock = threading.Lock()

    def __call__(self, terms: Sequence[str]) -> list[tuple[str, ...]]:
        with self.lock:
            self.conn.execute("BEGIN")
            try:
                self.conn.executemany("INSERT INTO t (rowid, x) VALUES (?, ?)", enumerate(terms, 1))
                found: list[list[str]] = [[] for _ in terms]
                for doc, token in self.conn.execute("SELECT doc, term FROM v ORDER BY doc, offset"):
                    found[doc - 1].append(token)
            finally:
                self.conn.execute("ROLLBACK")  # the table stays empty
        return [tuple(tokens) for tokens in found]


class LexicalIndex(Kept):
    """The in-process BM25 index of one SQLite store (every tenant: FTS5's statistics span them all)."""

    def __init__(
        self, mode: LexicalMode = "auto", snapshots: Path | None = None, database: Path | None = None
    ) -> None:
        """`database`: the store's file, from which a thread prepares the index while FTS5 answers (None:
        a :memory: store, prepared by its first search)."""
        if mode not in LEXICAL_MODES:
            raise ValueError(f"lexical_index must be one of {', '.join(LEXICAL_MODES)}, not {mode!r}")
        self.mode: LexicalMode = mode
        self.snapshots = snapshots  # where snapshots go (None: in memory only)
        self.postings: BM25Postings | None = None
        self.seq = 0  # the last change absorbed
        self.seq_num = -1  # the record number of that change: it tells this file's history from another's
        self.generation = 0
        self.store_id: int | None = None
        self.unsaved = 0
        self.current: tuple[Version, BM25Postings, int] | None = None  # what the last read caught up at
        self.tokenizer = FTS5Tokenizer()
        self.populating = Populating()  # the snapshot's pages being mapped in (see store/sqlite/pages.py)
        self.lock = threading.RLock()
        self.database = database
        self.preparing: threading.Thread | None = None
        self.closed = False
        # the keeper: a thread that absorbs this process's committed changes (see `committed`); closing,
        # it absorbs what was committed before the close, so that it goes into the snapshot
        self.keeping = Keeper(
            "memql-lexical-keeper",
            lambda: connect_existing(self.database),  # type: ignore[arg-type]
            self._keep_pass,
            (sqlite3.Error, OSError),
            final_pass=True,
        )

    @property
    def answering(self) -> str:
        """Which index ranks this store's searches now: "postings" (in-process, once built) or "fts5"."""
        return "postings" if self.postings is not None else "fts5"

    def search(
        self, conn: sqlite3.Connection, tenant: str, q: RecordQuery, check: Checker | None = None
    ) -> list[tuple[Record, float]] | None:
        """The best q.limit records matching q, by BM25 (best first; ties by weight, then newest), or None
        when FTS5 should answer (mode, store size, a phrase, or a window that grew too wide). `check`:
        how the query's conditions are checked on the index's matches (memql.store.sqlite.governed)."""
        hits = self._hits(conn, tenant, q, check)
        return None if hits is None else _decoded(conn, tenant, [(num, score) for num, score, _ in hits])

    def candidates(
        self, conn: sqlite3.Connection, tenant: str, q: RecordQuery, check: Checker | None = None
    ) -> list[Candidate] | None:
        """`search`'s answer as candidates (no record decoded), or None when FTS5 should answer."""
        hits = self._hits(conn, tenant, q, check)
        return None if hits is None else codec.candidates(hits)

    def _hits(
        self, conn: sqlite3.Connection, tenant: str, q: RecordQuery, check: Checker | None
    ) -> list[Hit] | None:
        if self.mode == "fts5" or q.text_query is None or q.limit is None:
            return None
        if q.limit <= 0:
            return []
        with self.lock:
            if not self._caught_up(conn, None if check is None else check.version):
                return None  # before the query is analysed: FTS5 analyses it again
            terms = query_terms(q.text_query)
            if not terms:
                return []  # no terms: FTS5 has nothing to match either
            assert self.postings is not None
            phrases = self.postings.phrases(terms)
            if any(len(p) != 1 for p in phrases):
                return None  # a phrase needs token positions: FTS5 matches it
            nums, scores = self.postings.scores([p[0] for p in phrases], tenant)
        return _filtered_top(check or Checker(conn), tenant, q, q.limit, nums, scores)

    # --- catching up --------------------------------------------------------------------------------

    def _caught_up(self, conn: sqlite3.Connection, version: Version | None = None) -> bool:
        """Absorb the committed changes (opening or building the index first); False when FTS5 answers.
        `version`: the read's database version (memql.store.sqlite.governed), if it is a read's: a read at
        the version the index last caught up at, with nothing absorbed since, has nothing to read."""
        if version is not None and self.current == (version, self.postings, self.seq):
            return True
        if self.postings is None and self.mode == "auto" and _records_created(conn) < POSTINGS_MIN_RECORDS:
            return False  # a small store: one query says so, not three
        generation, last, last_num = conn.execute(_LOG_END).fetchone()
        generation, last, last_num = generation or 0, last or 0, -1 if last_num is None else last_num
        if self.postings is not None and (generation != self.generation or last < self.seq):
            # the FTS5 table was refilled (or the file replaced): start over
            self.postings = self.current = None
        if self.postings is None:
            if self.mode == "auto" and _records_created(conn) < POSTINGS_MIN_RECORDS:
                return False  # (a file replaced by a smaller one)
            if self.preparing is not None:
                return False  # a thread builds it: FTS5 answers until it is ready
            # a snapshot is mapped, not read: opening it here costs less than FTS5 answering instead
            opened = self._snapshot(conn) if self.snapshots is not None else None
            if opened is not None:
                self._publish(opened)
            elif self.database is not None and IN_BACKGROUND:
                self._prepare_in_background()
                return False  # FTS5 answers until the index is ready
            else:
                self._publish(self._prepared(conn))
        if last > self.seq:
            self._absorb(conn, last, last_num)
        assert self.postings is not None
        if self.unsaved >= max(10_000, len(self.postings) // 10):
            self.save()
        self.current = (version, self.postings, self.seq) if version is not None else None
        return True

    def prepare(self, conn: sqlite3.Connection) -> None:
        """Open the index's snapshot now, if there is one (mapped, as the first search would open it)."""
        if self.postings is not None or self.mode == "fts5" or self.snapshots is None:
            return
        with self.lock:
            if self.postings is None and self.preparing is None and not self.closed:
                opened = self._snapshot(conn)
                if opened is not None:
                    self._publish(opened)  # the first search absorbs the changes since
        self.populating.wait(OPENER_WAIT_S)

    def _snapshot(self, conn: sqlite3.Connection) -> Prepared | None:
        """The newest usable snapshot, opened (None: none), read in one snapshot of the database."""
        return self._opened(conn, build=False)

    def _prepared(self, conn: sqlite3.Connection) -> Prepared:
        """The index as of the store's last change, from a snapshot or built from the FTS5 table; read in
        one snapshot of the database."""
        return self._opened(conn, build=True)  # type: ignore[return-value]

    def _opened(self, conn: sqlite3.Connection, build: bool) -> Prepared | None:
        began = not conn.in_transaction
        if began:
            conn.execute("BEGIN")
        try:
            store_id, generation = _counter(conn, "store_id"), _counter(conn, "lexical_generation")
            last = conn.execute("SELECT COALESCE(max(seq), 0) FROM lexical_changes").fetchone()[0]
            loaded = self._load_snapshot(conn, last, store_id, generation)
            if loaded is None and not build:
                return None
            return (store_id, generation, *(loaded or self._build(conn, last)))
        finally:
            if began:
                conn.execute("COMMIT")

    def _publish(self, prepared: Prepared) -> None:
        self.store_id, self.generation, self.postings, self.seq, self.seq_num, self.unsaved = prepared
        self.current = None  # (nor does it keep the index it replaces alive)

    def _prepare_in_background(self) -> None:
        if self.preparing is None and not self.closed and not self.stopping:
            launch(self._prepare, name="memql-lexical-index", publish=lambda t: setattr(self, "preparing", t))

    def _prepare(self) -> None:
        try:
            if PREPARE_HOOK is not None:
                PREPARE_HOOK()
            conn = connect_existing(self.database)
            try:
                prepared = self._prepared(conn)
            finally:
                conn.close()
            with self.lock:
                if not self.closed and self.postings is None:
                    self._publish(prepared)  # searches catch up from its change on
        except (sqlite3.Error, OSError, ValueError, _Stopped):
            pass  # FTS5 keeps answering; the next search tries again
        finally:
            with self.lock:
                self.preparing = None

    def wait(self) -> None:
        """Until no preparation runs and the keeper has absorbed every commit so far (tests, the bench)."""
        while True:
            self.keeping.wait()  # a keeper's pass may start a preparation: that one is waited for too
            thread = self.preparing
            if thread is None:
                return
            thread.join()

    def _build(self, conn: sqlite3.Connection, last: int) -> tuple[BM25Postings, int, int, int]:
        """Index every FTS5 row (LEFT JOIN: a row without its record still counts in FTS5's statistics)."""
        postings = BM25Postings(self.tokenizer)
        cursor = conn.execute(
            "SELECT f.rowid, r.tenant, f.body, f.context FROM records_fts f "
            "LEFT JOIN records r ON r.num = f.rowid"
        )
        while rows := cursor.fetchmany(_BATCH):
            if self.stopping or EXITING.is_set():
                raise _Stopped  # the store closes, or the process exits: the build would be dropped anyway
            postings.put(rows)
        return postings, last, _change_num(conn, last), len(postings)

    def _absorb(self, conn: sqlite3.Connection, last: int, last_num: int) -> None:
        """Re-read the records changed after self.seq (up to `last`, a change of record `last_num`):
        indexed again, or gone."""
        assert self.postings is not None
        cursor = conn.execute(
            "SELECT c.num, r.tenant, f.body, f.context, f.rowid IS NOT NULL FROM "
            "(SELECT DISTINCT num FROM lexical_changes WHERE seq > ? AND seq <= ?) c "
            "LEFT JOIN records_fts f ON f.rowid = c.num LEFT JOIN records r ON r.num = c.num",
            (self.seq, last),
        )
        while rows := cursor.fetchmany(_BATCH):
            self.postings.remove(row[0] for row in rows if not row[4])
            self.postings.put([row[:4] for row in rows if row[4]])
            self.unsaved += len(rows)
        self.seq, self.seq_num = last, last_num

    # --- snapshots ----------------------------------------------------------------------------------

    def _prefix(self) -> str:
        return f"{self.store_id:x}.{self.generation}."

    def _load_snapshot(
        self, conn: sqlite3.Connection, last: int, store_id: int, generation: int
    ) -> tuple[BM25Postings, int, int, int] | None:
        """The newest snapshot of this store and generation that is not ahead of the store and whose last
        change is this file's (not one of a backup's other history)."""
        if self.snapshots is None or not self.snapshots.is_dir():
            return None
        newest: tuple[int, Path] | None = None
        for path in self.snapshots.glob(f"{store_id:x}.{generation}.*{SUFFIX}"):
            seq = path.name.rsplit(".", 2)[-2]
            if seq.isdigit() and int(seq) <= last and (newest is None or int(seq) > newest[0]):
                newest = (int(seq), path)
        if newest is None:
            return None  # none, or written for a different history of this file (restored from a backup)
        try:
            postings, meta = BM25Postings.load(newest[1], self.tokenizer)
            self.populating.file(newest[1])  # a search reads the postings of its terms, anywhere in it
        except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
            return None  # unreadable (or replaced by a newer one meanwhile): rebuilt from the FTS5 table
        seq, seq_num = newest[0], _change_num(conn, newest[0])
        if (meta.get("seq"), meta.get("seq_num"), meta.get("generation")) != (seq, seq_num, generation):
            return None
        return postings, seq, seq_num, 0

    def save(self) -> None:
        """Write the index as of self.seq beside the database, replacing older snapshots."""
        with self.lock:
            if self.postings is None or self.snapshots is None or self.store_id is None:
                return
            target = self.snapshots / f"{self._prefix()}{self.seq}{SUFFIX}"
            meta = {"seq": self.seq, "seq_num": self.seq_num, "generation": self.generation}
            with optional_write("the lexical index's snapshot"):  # (tried again after as many changes)
                self.postings.save(target, meta)
                for old in self.snapshots.glob(f"{self.store_id:x}.*"):  # older ones, the old .npz format
                    if old != target and old.suffix in (SUFFIX, ".npz"):
                        old.unlink(missing_ok=True)
            self.unsaved = 0

    def close(self) -> None:
        """Absorb what this process committed, then save the index if it changed since its last snapshot
        (a preparation still running is dropped)."""
        self.keeping.stop()
        with self.lock:
            self.closed = True
            if self.unsaved:
                self.save()

    # --- keeping the index current in the background -----------------------------------------------

    def committed(self, conn: sqlite3.Connection) -> None:
        """A write transaction of this process changed FTS5 rows and committed (`conn`: its connection).
        In a file store large enough for the index, a thread of its own absorbs the changes as they come
        (preparing the index first), so that a process loading a store keeps the index current and saves
        it when it closes: the next process opens that snapshot instead of building the index."""
        if self.database is None or self.mode == "fts5" or self.stopping:
            return
        try:
            if self.mode == "auto" and self.keeper is None and _records_created(conn) < POSTINGS_MIN_RECORDS:
                return
        except sqlite3.Error:  # (after the commit: the write is done; the next search catches up itself)
            return
        self.keeping.wake()

    def _keep_pass(self, conn: sqlite3.Connection) -> None:
        """Absorb the committed changes, or start preparing the index (in a thread of its own, as a search
        would: a close meanwhile drops it)."""
        with contextlib.suppress(sqlite3.Error, OSError, ValueError):  # searches catch up themselves
            conn.execute("BEGIN")  # one snapshot of the changes and the rows they name
            try:
                with self.lock:
                    if not self.closed and (self.postings is not None or not self.stopping):
                        self._caught_up(conn)
            finally:
                conn.execute("COMMIT")


class _Stopped(MemqlError):
    """A build given up because the store closes (never leaves the preparing thread)."""


# --- ranking within the query's conditions --------------------------------------------------------------


def _filtered_top(
    check: Checker, tenant: str, q: RecordQuery, limit: int, nums: np.ndarray, scores: np.ndarray
) -> list[Hit] | None:
    """The `limit` best matches that satisfy q, ordered as FTS5's query orders them (score, then weight,
    then the newest record), or None when the window would grow past MAX_WINDOW (memql.index.window)."""

    def passing(candidates: list[int]) -> dict[int, tuple[float, Row]]:
        # (the weight, second of the candidate columns, is the order's tie-break)
        return {n: (row[1], row) for n, row in check(tenant, q, candidates).items()}

    return filtered_top(limit, nums, scores, passing, FIRST_WINDOW, MAX_WINDOW)


def _decoded(
    conn: sqlite3.Connection, tenant: str, hits: list[tuple[int, float]]
) -> list[tuple[Record, float]]:
    """The records of the final hits, in order: only these are decoded."""
    if not hits:
        return []
    sql, params = query.build(tenant, RecordQuery(ids=[str(n) for n, _ in hits], statuses=None))
    records = {int(r.id): r for r in codec.decode_all(conn.execute(sql, params))}  # type: ignore[arg-type]
    return [(records[n], s) for n, s in hits if n in records]


# the index's generation and the log's last change with its record, in one statement: a catch-up's first
# statement after another connection's commit reads its pages afresh (SQLite drops its page cache)
_LOG_END = (
    "SELECT (SELECT value FROM counters WHERE name = 'lexical_generation'), "
    "(SELECT seq FROM lexical_changes ORDER BY seq DESC LIMIT 1), "
    "(SELECT num FROM lexical_changes ORDER BY seq DESC LIMIT 1)"
)


def _counter(conn: sqlite3.Connection, name: str) -> int:
    row = conn.execute("SELECT value FROM counters WHERE name = ?", (name,)).fetchone()
    return 0 if row is None else int(row[0])


def _change_num(conn: sqlite3.Connection, seq: int) -> int:
    """The record number of change `seq` (-1: none, as before the first change)."""
    row = conn.execute("SELECT num FROM lexical_changes WHERE seq = ?", (seq,)).fetchone()
    return -1 if row is None else int(row[0])


def _records_created(conn: sqlite3.Connection) -> int:
    """How many records the store has numbered (a cheap upper bound of its size)."""
    row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'records'").fetchone()
    return 0 if row is None else int(row[0])

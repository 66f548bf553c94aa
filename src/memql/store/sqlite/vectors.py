"""Dense retrieval for the SQLite backend: an in-process index per (tenant, model), filtered in SQL.

Every stored or cleared embedding takes the next value of a store-wide sequence (records.embedding_seq),
so an index catches up by reading only newer rows — whichever process wrote them. Small sets are ranked
exactly (memql.index.vectors.ExactVectors); from ANN_MIN_VECTORS on ("auto") an HNSW graph takes over,
built in a thread of its own while exact search answers, and saved beside the database file so that
reopening a large store does not rebuild it (memql.store.sqlite.vector_cache: the layers of a cache).

No query waits for an index build, nor (after a write of this process) for a large catch-up: after each
write transaction that stored vectors, a thread of the store's (CatchUp, on a connection of its own)
absorbs the committed rows into the caches, creating the caches of tenants and models not searched yet,
so that the graph is built while the store is loaded and saved at close.

Filters, tenant, status and expiry are never applied after a top-k cut. The index ranks candidates; SQL
checks the query's conditions on them, and the window widens until k records match. When an HNSW window
grows past ANN_MAX_WINDOW (a filter that few neighbours satisfy) the records matching the filter are
selected in SQL and ranked exactly instead — a matching record is never lost to the cut.

Inside a write transaction, rows written by that transaction are not yet committed: the shared index only
catches up to the sequence value the transaction started from, and the transaction's own rows are read
and scored as an overlay. A rollback (or a rolled-back savepoint) therefore never leaves the shared index
holding vectors that were never committed.

A record with several index paths has one vector per text at its paths (records.path_embeddings) and no
searchable vector of its own: those live in a second, always exact index of the cache, keyed by
(record number, text) as num * MAX_PATH_VECTORS + i, and a record's score is its best text's. Stores
without such records never score it (it is empty).

A signed search (Store.dense(..., signed=True)) returns every vector's cosine, negative ones too; by
default only vectors pointing the query's way (cosine > 0) count as evidence.
"""

from __future__ import annotations

import _thread
import contextlib
import sqlite3
import threading
from pathlib import Path

import numpy as np

from memql.index.keeper import Keeper, Kept
from memql.index.vectors import HNSWVectors
from memql.ports.record import Record
from memql.ports.store import Candidate, RecordQuery
from memql.store.sqlite import codec, query
from memql.store.sqlite.builds import connect_existing
from memql.store.sqlite.governed import Checker
from memql.store.sqlite.pages import OPENER_WAIT_S
from memql.store.sqlite.side_thread import SideThread
from memql.store.sqlite.vector_cache import ANN_MIN_VECTORS, Overlay, VectorCache, VectorMode

__all__ = ["ANN_MIN_VECTORS", "VECTOR_MODES", "VectorCache", "VectorIndex", "VectorMode"]

VECTOR_MODES: tuple[str, ...] = ("auto", "exact", "hnsw")
FIRST_WINDOW = 64
ANN_MAX_WINDOW = 4_096  # wider than this, a selective filter is better served by exact ranking
# exact layers this large (beside a graph) are scored by the side thread while the graph is searched
SIDE_THREAD_MIN_ROWS = 20_000
# it also searches a graph's first window while the caller does a hybrid search's lexical side (`ahead`)
SEARCH_SIDE = SideThread("memql-search-side")

Hit = tuple[int, float, sqlite3.Row]  # a record number, its cosine and its candidate columns


class VectorIndex:
    """The per-process vector caches of one SQLite store."""

    def __init__(
        self, mode: VectorMode = "auto", snapshots: Path | None = None, database: Path | None = None
    ) -> None:
        """`database`: the store's file, which CatchUp reads after this process's writes (None: a
        :memory: store, whose caches catch up at their first search)."""
        if mode not in VECTOR_MODES:
            raise ValueError(f"vector_index must be one of {', '.join(VECTOR_MODES)}, not {mode!r}")
        self.mode: VectorMode = mode
        self.snapshots = snapshots
        self.caches: dict[tuple[str, str], VectorCache] = {}
        self.lock = threading.Lock()
        self.catch_up = None if database is None else CatchUp(self, database)
        self.due: set[VectorCache] = set()  # caches searched since the last `start_builds`
        self.launches = threading.Condition()
        self.launching = 0  # threads starting builds (see `start_builds`)

    def start_builds(self, wait_for_start: bool = False) -> None:
        """Start the builds the searches since the last call found due (see `_scored`), from a thread of
        their own unless `wait_for_start`: starting a thread waits until it runs, which on busy cores took
        up to 30 ms of the wall time of the search that found the build due."""
        with self.lock:
            due, self.due = self.due, set()
        due = {cache for cache in due if cache.build_due()}  # most searches find none
        if wait_for_start:
            _start(due)
        elif due:
            with self.launches:
                self.launching += 1
            _thread.start_new_thread(self._launch, (due,))

    def _launch(self, due: set[VectorCache]) -> None:
        try:
            _start(due)
        finally:
            with self.launches:
                self.launching -= 1
                self.launches.notify_all()

    def cache(self, conn: sqlite3.Connection, tenant: str, model: str) -> VectorCache:
        with self.lock:
            key = (tenant, model)
            if key not in self.caches:
                cache = VectorCache(tenant, model, self.mode, self.snapshots)
                cache.store_id = _store_id(conn)
                self.caches[key] = cache
            return self.caches[key]

    def ahead(self, tenant: str, model: str, vector: list[float] | np.ndarray, k: int) -> Ahead | None:
        """Start the first graph window of a search for k candidates on the side thread, for the search
        that follows (`candidates(..., ahead=)`); None where there is no graph to search yet. It reads no
        row: what it finds is only used if the same graph is asked the same, and is checked as usual."""
        with self.lock:
            cache = self.caches.get((tenant, model))
        graph = cache.graph if cache is not None else None  # (published in one assignment: see VectorCache)
        window = _first_window(k)
        if graph is None or not _graph_fills(graph, window):  # (exact ranking instead)
            return None
        return Ahead(graph, np.asarray(vector, dtype=np.float32), window)

    def prepare(self, conn: sqlite3.Connection, tenant: str, model: str) -> None:
        """Open the saved snapshots of (tenant, model)'s vectors now (mapped: nothing is read whole, and
        no build starts), so that its first search finds them open, and their pages mapped in (waited for
        at most OPENER_WAIT_S)."""
        if self.mode != "exact" and self.snapshots is not None:
            cache = self.cache(conn, tenant, model)
            cache.open(conn)
            cache.populating.wait(OPENER_WAIT_S)

    def committed(self) -> None:
        """A write transaction that stored or cleared vectors committed: absorb them in the background."""
        if self.catch_up is not None:
            self.catch_up.notify()

    def wait(self) -> None:
        """Until the background catch-up and every build have finished (tests, the bench)."""
        self.start_builds(wait_for_start=True)
        with self.launches:
            self.launches.wait_for(lambda: self.launching == 0)
        if self.catch_up is not None:
            self.catch_up.idle()
        with self.lock:
            caches = list(self.caches.values())
        for cache in caches:
            cache.wait()

    def close(self) -> None:
        """Stop catching up and building; save each cache's graph and exact layers (see VectorCache)."""
        with self.lock:
            caches = list(self.caches.values())
        for cache in caches:
            with cache.lock:
                cache.closed = True  # a catch-up stops at its next batch, a build is not published
        if self.catch_up is not None:
            self.catch_up.stop()
        with self.lock:
            caches = list(self.caches.values())  # and those the catch-up created meanwhile
        for cache in caches:
            cache.close()

    def search(
        self,
        conn: sqlite3.Connection,
        tenant: str,
        model: str,
        vector: list[float] | np.ndarray,
        q: RecordQuery,
        k: int,
        upto: int | None = None,
        signed: bool = False,
        check: Checker | None = None,
    ) -> list[tuple[Record, float]]:
        """The k records matching q whose embeddings are closest to `vector` (cosine, best first; only
        positive cosines unless `signed`).

        `upto`: inside a transaction that wrote embeddings, the sequence value it started from; its own
        rows (above it) are scored from the database, not absorbed into the shared cache. `check`: how the
        query's conditions are checked on candidates (memql.store.sqlite.governed; default: in SQL)."""
        scored = self._scored(conn, tenant, model, vector, q, k, upto, signed, check or Checker(conn))
        return _decoded(conn, tenant, [(num, score) for num, score, _ in scored])

    def candidates(
        self,
        conn: sqlite3.Connection,
        tenant: str,
        model: str,
        vector: list[float] | np.ndarray,
        q: RecordQuery,
        k: int,
        upto: int | None = None,
        signed: bool = False,
        check: Checker | None = None,
        ahead: Ahead | None = None,
    ) -> list[Candidate]:
        """`search`'s answer as candidates: no record is decoded. `ahead`: this search's first graph
        window, if `ahead` started it."""
        scored = self._scored(conn, tenant, model, vector, q, k, upto, signed, check or Checker(conn), ahead)
        return codec.candidates(scored)

    def _scored(
        self,
        conn: sqlite3.Connection,
        tenant: str,
        model: str,
        vector: list[float] | np.ndarray,
        q: RecordQuery,
        k: int,
        upto: int | None,
        signed: bool,
        check: Checker,
        ahead: Ahead | None = None,
    ) -> list[Hit]:
        cache = self.cache(conn, tenant, model)
        # a build that is due starts when the read (or write) this search is part of has ended (the store
        # calls `start_builds`): a build's first steps, copying the graph, compete for the memory a first
        # search maps in (after a reopen at 100,000 records they added 100-150 ms to its wall time)
        cache.catch_up(conn, upto, build=False, version=check.version)
        with self.lock:
            self.due.add(cache)
        return self._ranked(check, tenant, vector, q, k, upto, signed, cache, ahead)

    def _ranked(
        self,
        check: Checker,
        tenant: str,
        vector: list[float] | np.ndarray,
        q: RecordQuery,
        k: int,
        upto: int | None,
        signed: bool,
        cache: VectorCache,
        ahead: Ahead | None,
    ) -> list[Hit]:
        query_vector = np.asarray(vector, dtype=np.float32)
        overlay = _overlay(check.conn, cache, upto)
        floor = -np.inf if signed else 0.0
        with cache.lock:  # the layers as they are now: a build swapping its graph in waits (briefly)
            # exactly scored on the side: path vectors, best per record (empty in most stores)
            side = cache.path_best(query_vector, overlay, signed)
            if cache.graph is not None:
                return _search_graph(check, tenant, q, k, cache, query_vector, overlay, side, floor, ahead)
            nums, scores = cache.exact_scores(query_vector, live_only=signed)  # a cleared row scores 0
            nums, scores = _with_overlay(nums, scores, overlay, query_vector)
            if len(side[0]):
                nums, scores = np.concatenate([nums, side[0]]), np.concatenate([scores, side[1]])
            return _filtered_top(check, tenant, q, k, nums, scores, floor)


def _start(caches: set[VectorCache]) -> None:
    for cache in caches:
        cache.maybe_build()


class CatchUp(Kept):
    """A thread of the store's that absorbs committed vectors into the caches after this process's
    writes, on a connection of its own: the write returns at once, and a later search finds its cache
    current (and the graph built, or being built) instead of reading every new row itself. Its thread is a
    `Keeper`'s (one pass at a time, a notification during a pass asks for one more, no last pass on stop)."""

    def __init__(self, index: VectorIndex, database: Path) -> None:
        self.index = index
        self.seen: dict[str, int] = {}  # per tenant: the embedding sequence its models were listed up to
        self.keeping = Keeper(
            "memql-vector-catch-up",
            lambda: connect_existing(database),
            self._safe_pass,
            (sqlite3.Error, OSError),
            final_pass=False,
        )

    def notify(self) -> None:
        self.keeping.wake()

    def idle(self) -> None:
        """Wait until every notification so far has been handled."""
        self.keeping.wait()

    def stop(self) -> None:
        self.keeping.stop()

    def _safe_pass(self, conn: sqlite3.Connection) -> None:
        with contextlib.suppress(sqlite3.Error, OSError, ValueError):  # searches catch up themselves
            self._pass(conn)

    def _pass(self, conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN")  # one snapshot: the tenants, their new models and the sequence they reach
        try:
            current = conn.execute("SELECT value FROM counters WHERE name = 'embedding_seq'").fetchone()[0]
            work = []
            for (tenant,) in conn.execute(_TENANTS).fetchall():
                since = self.seen.get(tenant, 0)
                if since >= current:
                    continue
                models = conn.execute(
                    "SELECT DISTINCT embedding_model FROM records WHERE tenant = ? AND embedding_seq > ? "
                    "AND embedding_model IS NOT NULL",
                    (tenant, since),
                ).fetchall()
                work.append((tenant, [m for (m,) in models]))
        finally:
            conn.execute("COMMIT")
        for tenant, models in work:
            for model in models:
                self.index.cache(conn, tenant, model)
            with self.index.lock:
                caches = [c for (t, _), c in self.index.caches.items() if t == tenant]
            for cache in caches:  # a cleared vector has no model: every cache of the tenant looks
                if self.stopping:
                    return
                cache.catch_up(conn, None)
            self.seen[tenant] = current


# the tenants that have rows with an embedding sequence, one index probe each (a skip scan)
_TENANTS = """
WITH RECURSIVE t(tenant) AS (
  SELECT min(tenant) FROM records WHERE embedding_seq IS NOT NULL
  UNION ALL
  SELECT (SELECT min(tenant) FROM records WHERE embedding_seq IS NOT NULL AND tenant > t.tenant)
  FROM t WHERE t.tenant IS NOT NULL
)
SELECT tenant FROM t WHERE tenant IS NOT NULL
"""


def _search_graph(
    check: Checker,
    tenant: str,
    q: RecordQuery,
    k: int,
    cache: VectorCache,
    query_vector: np.ndarray,
    overlay: Overlay,
    side: tuple[np.ndarray, np.ndarray],
    floor: float,
    ahead: Ahead | None,
) -> list[Hit]:
    """The graph's neighbours (except records an exact layer or the overlay decides) beside the exact
    side -- the exact layers, the transaction's own vectors, the path vectors -- ranked exactly; both
    widen until k records match, and every exact-side record scoring above the k-th hit is checked."""
    graph = cache.graph
    assert graph is not None
    window = _first_window(k)
    rows = len(cache.tail) + (len(cache.frozen) if cache.frozen is not None else 0)
    # the graph's first window: searched ahead, or beside the exact layers' product
    first_found = ahead.found(graph, query_vector, window) if ahead is not None else None
    if first_found is None and rows >= SIDE_THREAD_MIN_ROWS and _graph_fills(graph, window):
        scored = SEARCH_SIDE.start(lambda: cache.exact_scores(query_vector, live_only=True))
        first_found = graph.nearest(query_vector, window)  # (the loop's first step: window < total)
        nums, scores = scored()
    else:
        nums, scores = cache.exact_scores(query_vector, live_only=True)
    nums, scores = _with_overlay(nums, scores, overlay, query_vector)
    nums, scores = np.concatenate([nums, side[0]]), np.concatenate([scores, side[1]])
    above = scores > floor
    exact_side = _Ranking(nums[above], scores[above])
    total = len(graph) + len(exact_side.nums)
    seen: set[int] = set()
    hits: list[Hit] = []
    first = True
    while True:
        if window >= total or window > ANN_MAX_WINDOW:
            # as many candidates as vectors (a small set or a deep search), or few neighbours pass the
            # filter: rank every record that matches, exactly
            subset = check(tenant, q, None)
            own_nums = set(exact_side.nums.tolist())
            keys, matrix = cache.lookup([n for n in subset if n not in overlay and n not in own_nums])
            shared = zip(keys.tolist(), (matrix @ query_vector).tolist() if len(keys) else [], strict=True)
            own = zip(exact_side.nums.tolist(), exact_side.scores.tolist(), strict=True)
            hits = [(n, s, subset[n]) for n, s in [*shared, *own] if s > floor and n in subset]
            break
        found, found_scores = first_found or graph.nearest(query_vector, window)
        first_found = None
        fresh = [
            (n, s)
            for n, s in zip(found.tolist(), found_scores.tolist(), strict=True)
            if n not in seen and n not in overlay and s > floor and not cache.shadows(n)
        ] + exact_side.next(window)
        seen.update(n for n, _ in fresh)
        if not first:
            matched = check(tenant, q, [n for n, _ in fresh])
            hits += [(n, s, matched[n]) for n, s in fresh if n in matched]
        else:  # the first window: best first, until k pass (it ends as if all of it were checked)
            hits, first = _best_passing(check, tenant, q, k, fresh), False
        if len(hits) >= k:
            kth = sorted((s for _, s, _ in hits), reverse=True)[k - 1]
            rest = exact_side.at_least(kth)  # exact, so none of them may be lost to the cut
            matched = check(tenant, q, [n for n, _ in rest])
            hits += [(n, s, matched[n]) for n, s in rest if n in matched]
            break
        window *= 4
    hits.sort(key=lambda h: (-h[1], h[0]))
    return hits[:k]


def _best_passing(
    check: Checker, tenant: str, q: RecordQuery, k: int, fresh: list[tuple[int, float]]
) -> list[Hit]:
    """The candidates of `fresh` that satisfy q, checked in SQL a slice at a time in their final order
    (score, then record number) until k have passed: the k-th best score among them, and so the answer,
    is that of checking them all (those left unchecked rank below k that pass), for a fraction of the
    rows (a first window holds about 4k candidates a side, and most pass)."""
    order = sorted(fresh, key=lambda h: (-h[1], h[0]))
    step = max(FIRST_WINDOW, k + k // 4)
    hits: list[Hit] = []
    for start in range(0, len(order), step):
        chunk = order[start : start + step]
        matched = check(tenant, q, [n for n, _ in chunk])
        hits += [(n, s, matched[n]) for n, s in chunk if n in matched]
        if len(hits) >= k:
            break
    return hits


def _first_window(k: int) -> int:
    """How many neighbours a search for k candidates asks the graph for first."""
    return max(FIRST_WINDOW, 4 * k)


def _graph_fills(graph: HNSWVectors, window: int) -> bool:
    """Whether the graph answers a first window this wide: it holds more vectors than that, and the window
    is within ANN_MAX_WINDOW (`ahead` looks up only what `_search_graph` would search first)."""
    return window < len(graph) and window <= ANN_MAX_WINDOW


class Ahead:
    """A graph's first window for a query, searched on the side thread while the caller does something
    else (a hybrid search's lexical side); the caller runs it itself if the side thread was busy."""

    __slots__ = ("graph", "result", "vector", "window")

    def __init__(self, graph: HNSWVectors, vector: np.ndarray, window: int) -> None:
        self.graph, self.vector, self.window = graph, vector, window
        self.result = SEARCH_SIDE.start(lambda: graph.nearest(vector, window))

    def found(
        self, graph: HNSWVectors, vector: np.ndarray, window: int
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """The window's neighbours and scores if this is what was searched ahead (a graph never changes
        once published; a build publishes a new one), else None."""
        if graph is not self.graph or window != self.window or not np.array_equal(vector, self.vector):
            return None
        return self.result()


class _Ranking:
    """Exactly scored candidates handed out best first, a window at a time."""

    def __init__(self, nums: np.ndarray, scores: np.ndarray) -> None:
        self.nums, self.scores = nums, scores
        self.given = np.zeros(len(nums), dtype=bool)

    def next(self, count: int) -> list[tuple[int, float]]:
        left = np.flatnonzero(~self.given)
        if len(left) > count:
            left = left[np.argpartition(-self.scores[left], count - 1)[:count]]
        return self._give(left)

    def at_least(self, floor: float) -> list[tuple[int, float]]:
        return self._give(np.flatnonzero(~self.given & (self.scores >= floor)))

    def _give(self, chosen: np.ndarray) -> list[tuple[int, float]]:
        self.given[chosen] = True
        return list(zip(self.nums[chosen].tolist(), self.scores[chosen].tolist(), strict=True))


def _filtered_top(
    check: Checker,
    tenant: str,
    q: RecordQuery,
    k: int,
    nums: np.ndarray,
    scores: np.ndarray,
    floor: float,
) -> list[Hit]:
    """The k best-scoring nums that satisfy q, widening the window of candidates checked in SQL: it starts
    a little above k (most searches have no filter that rejects many records: checking a candidate costs
    more than scoring every vector)."""
    if not len(nums):
        return []
    window = max(FIRST_WINDOW, k + k // 4)
    order = _ranked(scores, min(len(scores), window))
    seen = np.zeros(len(scores), dtype=bool)
    hits: list[Hit] = []
    while len(hits) < k:
        fresh = order[~seen[order]][:window]
        if not len(fresh):
            if len(order) == len(scores):
                break  # every vector has been considered
            order = np.argsort(-scores, kind="stable")  # the first window was not enough: rank them all
            continue
        seen[fresh] = True
        fresh = fresh[scores[fresh] > floor]  # unless signed: opposite directions are no evidence
        if len(fresh):
            fresh_nums, fresh_scores = nums[fresh].tolist(), scores[fresh].tolist()
            matched = check(tenant, q, fresh_nums)
            fresh_hits = zip(fresh_nums, fresh_scores, strict=True)
            hits += [(n, s, matched[n]) for n, s in fresh_hits if n in matched]
        window *= 4
    return hits[:k]


def _with_overlay(
    nums: np.ndarray, scores: np.ndarray, overlay: Overlay, query_vector: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Scores with the transaction's own rows taking the place of (or added to) the shared ones."""
    if not overlay:
        return nums, scores
    keep = ~np.isin(nums, np.fromiter(overlay, dtype=np.int64, count=len(overlay)))
    own = [(n, v) for n, (v, _) in overlay.items() if v is not None and v.shape[0] == query_vector.shape[0]]
    own_nums = np.array([n for n, _ in own], dtype=np.int64)
    own_scores = np.array([float(v @ query_vector) for _, v in own], dtype=np.float32)
    return np.concatenate([nums[keep], own_nums]), np.concatenate([scores[keep], own_scores])


def _overlay(conn: sqlite3.Connection, cache: VectorCache, upto: int | None) -> Overlay:
    """The vectors this transaction stored or cleared (rows above `upto`), by record number."""
    if upto is None:
        return {}
    rows = conn.execute(
        "SELECT num, embedding, embedding_model, path_embeddings FROM records "
        "WHERE tenant = ? AND embedding_seq > ?",
        (cache.tenant, upto),
    ).fetchall()
    return {num: cache.vectors(blob, model, paths) for num, blob, model, paths in rows}


def _ranked(scores: np.ndarray, top: int) -> np.ndarray:
    """Indices of the `top` best scores, best first (argpartition, then sort only those)."""
    if top >= len(scores):
        return np.argsort(-scores, kind="stable")
    best = np.argpartition(-scores, top - 1)[:top]
    return best[np.argsort(-scores[best], kind="stable")]


def _decoded(
    conn: sqlite3.Connection, tenant: str, scored: list[tuple[int, float]]
) -> list[tuple[Record, float]]:
    """The records of the final hits, in score order: only these are decoded."""
    if not scored:
        return []
    sql, params = query.build(tenant, RecordQuery(ids=[str(n) for n, _ in scored], statuses=None))
    records = {int(r.id): r for r in codec.decode_all(conn.execute(sql, params))}  # type: ignore[arg-type]
    return [(records[n], s) for n, s in scored if n in records]


def _store_id(conn: sqlite3.Connection) -> int | None:
    row = conn.execute("SELECT value FROM counters WHERE name = 'store_id'").fetchone()
    return None if row is None else int(row[0])

"""Dense retrieval for the SQLite backend: an in-process index per (tenant, model), filtered in SQL.

Every stored or cleared embedding takes the next value of a store-wide sequence (records.embedding_seq),
so an index catches up by reading only newer rows — whichever process wrote them. Small sets are ranked
exactly (memql.index.vectors.ExactVectors); from ANN_MIN_VECTORS on ("auto") an HNSW graph takes over,
saved beside the database file so that reopening a large store does not rebuild it.

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

import hashlib
import sqlite3
import threading
from dataclasses import replace
from pathlib import Path
from typing import Literal

import numpy as np

from memql.index.text import MAX_PATH_VECTORS
from memql.index.vectors import ExactVectors, HNSWVectors
from memql.ports.record import Record
from memql.ports.store import Candidate, RecordQuery
from memql.store.sqlite import codec, query

VectorMode = Literal["auto", "exact", "hnsw"]
VECTOR_MODES: tuple[str, ...] = ("auto", "exact", "hnsw")
ANN_MIN_VECTORS = 20_000  # "auto" switches to HNSW here: exact search over 20k vectors takes ~1 ms
FIRST_WINDOW = 64
ANN_MAX_WINDOW = 4_096  # wider than this, a selective filter is better served by exact ranking
_CATCH_UP_BATCH = 10_000

Hit = tuple[int, float, sqlite3.Row]  # a record number, its cosine and its candidate columns
# a transaction's own vectors by record number: its vector (None: none searchable) and its path vectors
Overlay = dict[int, tuple[np.ndarray | None, np.ndarray | None]]


class VectorCache:
    """The vectors of one (tenant, model): exact until large (mode "auto"), then an HNSW graph."""

    def __init__(self, tenant: str, model: str, mode: VectorMode, snapshots: Path | None) -> None:
        self.tenant, self.model, self.mode = tenant, model, mode
        self.exact: ExactVectors | None = ExactVectors()
        self.hnsw: HNSWVectors | None = None
        self.paths = ExactVectors()  # path vectors, keyed num * MAX_PATH_VECTORS + i
        self.path_counts: dict[int, int] = {}  # how many path vectors each record has in `paths`
        self.seq = 0
        self.unsaved = 0
        self.snapshots = snapshots  # where HNSW snapshots go (None: in memory only)
        self.store_id: int | None = None  # names the snapshots, so a recreated file never reads old ones
        self.lock = threading.RLock()

    def __len__(self) -> int:
        return len(self.hnsw) if self.hnsw is not None else len(self.exact or ())

    def catch_up(self, conn: sqlite3.Connection, upto: int | None) -> None:
        """Absorb rows whose embedding changed since the last catch-up (up to `upto`, when given)."""
        with self.lock:
            if self.seq == 0 and self.mode != "exact":
                self._load_snapshot(conn)
            sql = (
                "SELECT num, embedding, embedding_model, path_embeddings, embedding_seq FROM records "
                "WHERE tenant = ? AND embedding_seq > ?"
            )
            params: list[object] = [self.tenant, self.seq]
            if upto is not None:
                sql += " AND embedding_seq <= ?"
                params.append(upto)
            cursor = conn.execute(sql + " ORDER BY embedding_seq", params)
            while rows := cursor.fetchmany(_CATCH_UP_BATCH):
                vectors = [self.vectors(blob, model, paths) for _, blob, model, paths, _ in rows]
                self._absorb([(row[0], vector) for row, (vector, _) in zip(rows, vectors, strict=True)])
                for row, (_, paths) in zip(rows, vectors, strict=True):
                    self._put_paths(row[0], paths)
                self.seq = max(self.seq, rows[-1][4])
            if self.hnsw is not None and self.unsaved >= max(1_000, len(self.hnsw) // 10):
                self.save()

    def vectors(
        self, blob: bytes | None, model: str | None, paths: bytes | None
    ) -> tuple[np.ndarray | None, np.ndarray | None]:
        """A row's searchable vector and path vectors in this cache's model (None: none)."""
        if blob is None or model != self.model:
            return None, None
        vector = np.frombuffer(blob, dtype="<f4")
        if paths is None:
            return vector, None
        return None, np.frombuffer(paths, dtype="<f4").reshape(-1, vector.shape[0])

    def _put_paths(self, num: int, matrix: np.ndarray | None) -> None:
        """Replace a record's path vectors (None: it has none)."""
        had, has = self.path_counts.get(num, 0), 0 if matrix is None else min(len(matrix), MAX_PATH_VECTORS)
        base = num * MAX_PATH_VECTORS
        for i in range(has):
            self.paths.put(base + i, matrix[i])  # type: ignore[index]
        for i in range(has, had):
            self.paths.put(base + i, None)
        if has:
            self.path_counts[num] = has
        else:
            self.path_counts.pop(num, None)

    def _load_paths(self, conn: sqlite3.Connection, upto: int) -> None:
        """The path vectors of rows a loaded graph already covers (the graph holds no path vectors)."""
        rows = conn.execute(
            "SELECT num, embedding, embedding_model, path_embeddings FROM records "
            "WHERE tenant = ? AND path_embeddings IS NOT NULL AND embedding_seq <= ?",
            (self.tenant, upto),
        ).fetchall()
        for num, blob, model, paths in rows:
            self._put_paths(num, self.vectors(blob, model, paths)[1])

    def path_best(self, query: np.ndarray, overlay: Overlay, signed: bool) -> tuple[np.ndarray, np.ndarray]:
        """Each record's best path-vector score (records of the overlay scored by the overlay's)."""
        nums, scores = np.zeros(0, np.int64), np.zeros(0, np.float32)
        if not self.path_counts and not any(m is not None for _, m in overlay.values()):
            return nums, scores  # most stores: no record has path vectors
        if self.path_counts:
            keys, scores = self.paths.scores(query, live_only=True)
            nums = keys // MAX_PATH_VECTORS
            if overlay:
                keep = ~np.isin(nums, np.fromiter(overlay, dtype=np.int64, count=len(overlay)))
                nums, scores = nums[keep], scores[keep]
        own = [(n, m) for n, (_, m) in overlay.items() if m is not None and m.shape[1] == query.shape[0]]
        if own:
            nums = np.concatenate([nums, *[np.full(len(m), n, np.int64) for n, m in own]])
            scores = np.concatenate([scores, *[(m @ query).astype(np.float32) for _, m in own]])
        if not signed:
            positive = scores > 0.0
            nums, scores = nums[positive], scores[positive]
        if not len(nums):
            return nums, scores
        order = np.argsort(-scores, kind="stable")
        nums, scores = nums[order], scores[order]
        _, first = np.unique(nums, return_index=True)  # the best of each record's vectors
        first.sort()
        return nums[first], scores[first]

    def _absorb(self, rows: list[tuple[int, np.ndarray | None]]) -> None:
        if self.hnsw is None and self.exact is not None:
            for num, vector in rows:
                self.exact.put(num, vector)
            wanted = self.mode == "hnsw" or (self.mode == "auto" and len(self.exact) >= ANN_MIN_VECTORS)
            if wanted and len(self.exact):
                self._to_hnsw()
            return
        if self.hnsw is None:
            return
        keep = [(n, v) for n, v in rows if v is not None and v.shape[0] == self.hnsw.dimension]
        kept = {n for n, _ in keep}
        self.hnsw.clear([n for n, _ in rows if n not in kept])
        if keep:
            self.hnsw.put_many([n for n, _ in keep], np.stack([v for _, v in keep]))
        self.unsaved += len(rows)

    def _to_hnsw(self) -> None:
        assert self.exact is not None
        live = list(self.exact.items())
        self.hnsw = HNSWVectors(self.exact.dimension)
        self.hnsw.put_many([k for k, _ in live], np.stack([v for _, v in live]))
        self.exact = None  # one copy of the vectors: the graph keeps them (and gives them back)
        self.unsaved = len(live)

    # --- snapshots ----------------------------------------------------------------------------------

    def _snapshot_name(self, store_id: int) -> str:
        digest = hashlib.sha256(f"{self.tenant}\0{self.model}".encode()).hexdigest()[:16]
        return f"{store_id:x}-{digest}"

    def _load_snapshot(self, conn: sqlite3.Connection) -> None:
        """Start from the newest saved graph of this store, if it is not ahead of the store itself."""
        if self.snapshots is None or self.store_id is None or not self.snapshots.is_dir():
            return
        newest: tuple[int, Path] | None = None
        for path in self.snapshots.glob(f"{self._snapshot_name(self.store_id)}.*.usearch"):
            seq = path.name.rsplit(".", 2)[-2]
            if seq.isdigit() and (newest is None or int(seq) > newest[0]):
                newest = (int(seq), path)
        current = conn.execute("SELECT value FROM counters WHERE name = 'embedding_seq'").fetchone()
        if newest is None or current is None or newest[0] > current[0]:
            return  # none, or written for a different history of this file (restored from a backup)
        try:
            self.hnsw = HNSWVectors.load(newest[1])
        except (OSError, RuntimeError, ValueError):
            return  # unreadable: rebuilt from the records
        self.exact, self.seq, self.unsaved = None, newest[0], 0
        self._load_paths(conn, newest[0])

    def save(self) -> None:
        """Write the graph as of self.seq beside the database, replacing older snapshots."""
        if self.hnsw is None or self.snapshots is None or self.store_id is None:
            return
        name = self._snapshot_name(self.store_id)
        target = self.snapshots / f"{name}.{self.seq}.usearch"
        self.hnsw.save(target)
        for old in self.snapshots.glob(f"{name}.*.usearch"):
            if old != target:
                old.unlink(missing_ok=True)
        self.unsaved = 0


class VectorIndex:
    """The per-process vector caches of one SQLite store."""

    def __init__(self, mode: VectorMode = "auto", snapshots: Path | None = None) -> None:
        if mode not in VECTOR_MODES:
            raise ValueError(f"vector_index must be one of {', '.join(VECTOR_MODES)}, not {mode!r}")
        self.mode: VectorMode = mode
        self.snapshots = snapshots
        self.caches: dict[tuple[str, str], VectorCache] = {}
        self.lock = threading.Lock()

    def cache(self, conn: sqlite3.Connection, tenant: str, model: str) -> VectorCache:
        with self.lock:
            key = (tenant, model)
            if key not in self.caches:
                cache = VectorCache(tenant, model, self.mode, self.snapshots)
                cache.store_id = _store_id(conn)
                self.caches[key] = cache
            return self.caches[key]

    def close(self) -> None:
        """Save the graphs that changed since their last snapshot."""
        for cache in self.caches.values():
            with cache.lock:
                if cache.unsaved:
                    cache.save()

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
    ) -> list[tuple[Record, float]]:
        """The k records matching q whose embeddings are closest to `vector` (cosine, best first; only
        positive cosines unless `signed`).

        `upto`: inside a transaction that wrote embeddings, the sequence value it started from; its own
        rows (above it) are scored from the database, not absorbed into the shared cache."""
        scored = self._scored(conn, tenant, model, vector, q, k, upto, signed)
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
    ) -> list[Candidate]:
        """`search`'s answer as candidates: no record is decoded."""
        scored = self._scored(conn, tenant, model, vector, q, k, upto, signed)
        return [codec.candidate(row, score) for _, score, row in scored]

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
    ) -> list[Hit]:
        cache = self.cache(conn, tenant, model)
        cache.catch_up(conn, upto)
        query_vector = np.asarray(vector, dtype=np.float32)
        overlay = _overlay(conn, cache, upto)
        floor = -np.inf if signed else 0.0
        with cache.lock:
            # exactly scored on the side: path vectors, best per record (empty in most stores)
            side = cache.path_best(query_vector, overlay, signed)
            if cache.hnsw is not None:
                return _search_hnsw(conn, tenant, q, k, cache.hnsw, query_vector, overlay, side, floor)
            exact = cache.exact or ExactVectors()
            nums, scores = exact.scores(query_vector, live_only=signed)  # a cleared row scores 0
            nums, scores = _with_overlay(nums, scores, overlay, query_vector)
            if len(side[0]):
                nums, scores = np.concatenate([nums, side[0]]), np.concatenate([scores, side[1]])
            return _filtered_top(conn, tenant, q, k, nums, scores, floor)


def _search_hnsw(
    conn: sqlite3.Connection,
    tenant: str,
    q: RecordQuery,
    k: int,
    hnsw: HNSWVectors,
    query_vector: np.ndarray,
    overlay: Overlay,
    side: tuple[np.ndarray, np.ndarray],
    floor: float,
) -> list[Hit]:
    window = max(FIRST_WINDOW, 4 * k)
    seen: set[int] = set()
    hits: list[Hit] = []
    over_nums, over_scores = _with_overlay(
        np.zeros(0, np.int64), np.zeros(0, np.float32), overlay, query_vector
    )
    # the transaction's own vectors and the path vectors (scored exactly) are checked with the first window
    over_nums, over_scores = np.concatenate([over_nums, side[0]]), np.concatenate([over_scores, side[1]])
    pending = [(n, s) for n, s in zip(over_nums.tolist(), over_scores.tolist(), strict=True) if s > floor]
    while True:
        if window >= len(hnsw) or window > ANN_MAX_WINDOW:
            # as many candidates as vectors (a small set or a deep search), or few neighbours pass the
            # filter: rank every record that matches, exactly
            subset = _matching(conn, tenant, q, None)
            keys, matrix = hnsw.vectors([n for n in subset if n not in overlay])
            exact_scores = matrix @ query_vector if len(keys) else np.zeros(0, np.float32)
            shared = zip(keys.tolist(), exact_scores.tolist(), strict=True)
            own = zip(over_nums.tolist(), over_scores.tolist(), strict=True)
            hits = [(n, s, subset[n]) for n, s in [*shared, *own] if s > floor and n in subset]
            break
        nums, scores = hnsw.nearest(query_vector, window)
        fresh = [
            (n, s)
            for n, s in zip(nums.tolist(), scores.tolist(), strict=True)
            if n not in seen and n not in overlay and s > floor
        ] + pending
        pending = []
        seen.update(n for n, _ in fresh)
        matched = _matching(conn, tenant, q, [n for n, _ in fresh])
        hits += [(n, s, matched[n]) for n, s in fresh if n in matched]
        if len(hits) >= k:
            break
        window *= 4
    hits.sort(key=lambda h: (-h[1], h[0]))
    return hits[:k]


def _filtered_top(
    conn: sqlite3.Connection,
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
            matched = _matching(conn, tenant, q, fresh_nums)
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


def _matching(
    conn: sqlite3.Connection, tenant: str, q: RecordQuery, nums: list[int] | None
) -> dict[int, sqlite3.Row]:
    """Which candidates (every record, when None) satisfy the query's conditions, each with its candidate
    columns (query.CANDIDATE_COLUMNS: what ranking needs); nothing is decoded."""
    if nums is not None and not nums:
        return {}
    ids = None if nums is None else [str(n) for n in nums]
    if q.ids is not None:  # the query's own ids narrow the candidates
        wanted = set(q.ids)
        ids = list(q.ids) if ids is None else [i for i in ids if i in wanted]
    checked = replace(q, ids=ids, text_query=None, limit=None, order="created_asc")
    sql, params = query.build(tenant, checked, columns=query.CANDIDATE_COLUMNS)
    return {row[0]: row for row in conn.execute(sql, params)}


def _decoded(
    conn: sqlite3.Connection, tenant: str, scored: list[tuple[int, float]]
) -> list[tuple[Record, float]]:
    """The records of the final hits, in score order: only these are decoded."""
    if not scored:
        return []
    sql, params = query.build(tenant, RecordQuery(ids=[str(n) for n, _ in scored], statuses=None))
    records = {row["num"]: codec.decode(row) for row in conn.execute(sql, params)}
    return [(records[n], s) for n, s in scored if n in records]


def _store_id(conn: sqlite3.Connection) -> int | None:
    row = conn.execute("SELECT value FROM counters WHERE name = 'store_id'").fetchone()
    return None if row is None else int(row[0])

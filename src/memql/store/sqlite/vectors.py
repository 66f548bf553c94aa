"""Dense retrieval for the SQLite backend: exact, vectorised search over an in-process cache.

The cache holds one tenant's embeddings of one model as a float32 matrix. Every stored or cleared
embedding takes the next value of a store-wide sequence (records.embedding_seq), so the cache catches up
by reading only newer rows — whichever process wrote them. Ranking is exact (one matrix-vector product);
the query's filters, tenant, status and expiry are then checked in SQL on the best candidates, widening
the window until k records match or every vector has been considered, so a matching record is never lost
to a top-k cut made before filtering.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import replace

import numpy as np

from memql.ports.store import Record, RecordQuery
from memql.store.sqlite import codec, query

FIRST_WINDOW = 64


class VectorCache:
    """One (tenant, model) matrix of unit vectors, rows addressed by record number."""

    def __init__(self, tenant: str, model: str) -> None:
        self.tenant, self.model = tenant, model
        self.nums = np.zeros(0, dtype=np.int64)
        self.matrix = np.zeros((0, 0), dtype=np.float32)
        self.size = 0
        self.pos: dict[int, int] = {}
        self.seq = 0
        self.lock = threading.Lock()

    def catch_up(self, conn: sqlite3.Connection) -> None:
        rows = conn.execute(
            "SELECT num, embedding, embedding_model, embedding_seq FROM records "
            "WHERE tenant = ? AND embedding_seq > ? ORDER BY embedding_seq",
            (self.tenant, self.seq),
        ).fetchall()
        if not rows:
            return
        with self.lock:
            for num, blob, model, seq in rows:
                vector = (
                    np.frombuffer(blob, dtype="<f4") if blob is not None and model == self.model else None
                )
                self._put(num, vector)
                self.seq = max(self.seq, seq)

    def _put(self, num: int, vector: np.ndarray | None) -> None:
        index = self.pos.get(num)
        if vector is None:  # cleared (re-embedding pending, or another model): the row scores nothing
            if index is not None:
                self.matrix[index] = 0.0
            return
        if self.matrix.shape[1] != vector.shape[0]:
            if self.size:  # a different dimension replaces the old vectors
                self.pos.clear()
                self.size = 0
            self.matrix = np.zeros((max(1024, self.size), vector.shape[0]), dtype=np.float32)
            self.nums = np.zeros(self.matrix.shape[0], dtype=np.int64)
        if index is None:
            if self.size == self.matrix.shape[0]:
                grow = max(1024, self.size)
                self.matrix = np.vstack([self.matrix, np.zeros((grow, self.matrix.shape[1]), np.float32)])
                self.nums = np.concatenate([self.nums, np.zeros(grow, np.int64)])
            index = self.size
            self.size += 1
            self.pos[num] = index
            self.nums[index] = num
        self.matrix[index] = vector

    def scores(self, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with self.lock:
            if self.size == 0 or self.matrix.shape[1] != vector.shape[0]:
                return np.zeros(0, np.int64), np.zeros(0, np.float32)  # nothing embedded (in this dimension)
            return self.nums[: self.size].copy(), self.matrix[: self.size] @ vector


class VectorIndex:
    """The per-process caches of one SQLite store."""

    def __init__(self) -> None:
        self.caches: dict[tuple[str, str], VectorCache] = {}
        self.lock = threading.Lock()

    def cache(self, tenant: str, model: str) -> VectorCache:
        with self.lock:
            key = (tenant, model)
            if key not in self.caches:
                self.caches[key] = VectorCache(tenant, model)
            return self.caches[key]

    def search(
        self,
        conn: sqlite3.Connection,
        tenant: str,
        model: str,
        vector: list[float] | np.ndarray,
        q: RecordQuery,
        k: int,
    ) -> list[tuple[Record, float]]:
        """The k records matching q whose embeddings are closest to `vector` (cosine, best first)."""
        cache = self.cache(tenant, model)
        cache.catch_up(conn)
        nums, scores = cache.scores(np.asarray(vector, dtype=np.float32))
        if not len(nums):
            return []
        window = max(FIRST_WINDOW, 4 * k)
        order = _ranked(scores, min(len(scores), window))
        seen = np.zeros(len(scores), dtype=bool)
        hits: list[tuple[Record, float]] = []
        while len(hits) < k:
            fresh = order[~seen[order]][:window]
            if not len(fresh):
                if len(order) == len(scores):
                    break  # every vector has been considered
                order = np.argsort(-scores, kind="stable")  # the first window was not enough: rank them all
                continue
            seen[fresh] = True
            fresh = fresh[scores[fresh] > 0.0]  # cleared rows and opposite directions are no evidence
            if len(fresh):
                matched = _matching(conn, tenant, q, [int(n) for n in nums[fresh]])
                hits += [(matched[int(nums[i])], float(scores[i])) for i in fresh if int(nums[i]) in matched]
            window *= 4
        return hits[:k]


def _ranked(scores: np.ndarray, top: int) -> np.ndarray:
    """Indices of the `top` best scores, best first (argpartition, then sort only those)."""
    if top >= len(scores):
        return np.argsort(-scores, kind="stable")
    best = np.argpartition(-scores, top - 1)[:top]
    return best[np.argsort(-scores[best], kind="stable")]


def _matching(conn: sqlite3.Connection, tenant: str, q: RecordQuery, nums: list[int]) -> dict[int, Record]:
    """Which candidates satisfy the query's conditions (its own ranking, text match and limit aside)."""
    checked = replace(q, ids=[str(n) for n in nums], text_query=None, limit=None, order="created_asc")
    sql, params = query.build(tenant, checked)
    return {row["num"]: codec.decode(row) for row in conn.execute(sql, params)}

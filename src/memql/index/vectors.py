"""In-process vector indexes over unit vectors keyed by record number: exact and HNSW.

Both score by inner product (cosine, as every stored vector is unit length) and hold one (tenant, model)
set of vectors. Neither knows about records: which candidates may be returned is decided by the store,
which checks its filters on the candidates these indexes rank (see memql.store.sqlite.vectors).

- ExactVectors: a growable float32 matrix; a query is one matrix-vector product over every row, so its
  ranking is exact. Right for small and medium sets (~20k vectors: well under a millisecond). It also
  remembers keys cleared while absent (`cleared`), so that as a layer over a graph it can hide them.
- HNSWVectors: a hierarchical navigable small world graph (the `usearch` library), approximate and
  sub-linear; right for large sets. It can also give back stored vectors, so a filtered subset can still
  be ranked exactly without a second copy of the matrix.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from memql.index.arrays_file import replacing

# HNSW construction and search breadth. Measured on 100k-1M synthetic sentence-like vectors (see
# `memql bench perf`): connectivity 16 with expansion 64 at build time builds ~4k vectors/s on two cores;
# a wide search buys the recall back: at 1M, recall@10 against exact search was 0.86 at breadth 256,
# 0.91 at 512, 0.95 at 1024 (7 ms a query; 0.9495 on another build of the graph), 0.97-0.98 at 2048 (13 ms):
# 2048 keeps recall clear of 0.95 whatever the build. A smaller graph needs less breadth for the same
# recall: recall@10 at breadth 1024 / 2048 was 0.977 / 0.988 at 100k (dense search 6.4 / 10.4 ms a query)
# and 0.960 / 0.979 at 300k, so breadth 1024 serves graphs below SMALL_GRAPH and 2048 the rest (recall
# stays above 0.97 at each size measured).
CONNECTIVITY = 16
EXPANSION_ADD = 64
EXPANSION_SEARCH = 2048
SMALL_GRAPH = 200_000
SMALL_GRAPH_EXPANSION_SEARCH = 1024
PARALLEL_BUILD_MIN = 10_000  # batches this large are inserted on every core


def search_breadth(size: int) -> int:
    """The HNSW search breadth (usearch's expansion_search) for a graph of `size` vectors."""
    return SMALL_GRAPH_EXPANSION_SEARCH if size < SMALL_GRAPH else EXPANSION_SEARCH


BLAS_MAX_ROWS = 4_096  # larger matrix-vector products are numpy's own loop (see `product`)


def product(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """matrix @ query. Past BLAS_MAX_ROWS rows, numpy's own single-threaded loop (einsum) instead of
    BLAS: OpenBLAS splits a large product over its threads, which on busy cores wait for one another
    (a product over 80,000 mapped rows took 140 ms beside a graph build, 8 ms alone), and this loop is
    as fast or faster from ~10,000 rows on (measured at 100,000 rows: 8-12 ms against 11-17 ms)."""
    if len(matrix) <= BLAS_MAX_ROWS:
        return matrix @ query
    return np.einsum("ij,j->i", matrix, query)


class ExactVectors:
    """Unit vectors in a float32 matrix, rows addressed by key; exact ranking."""

    kind = "exact"

    def __init__(self) -> None:
        self.keys = np.zeros(0, dtype=np.int64)
        self.matrix = np.zeros((0, 0), dtype=np.float32)
        self.size = 0
        self.pos: dict[int, int] = {}
        self.live = np.zeros(0, dtype=bool)  # rows holding a vector (a cleared row is zeros, not live)
        self.cleared: set[int] = set()  # keys cleared without ever holding a row here

    @classmethod
    def from_arrays(cls, keys: np.ndarray, matrix: np.ndarray, cleared: Iterable[int] = ()) -> ExactVectors:
        """Live vectors given as arrays (the matrix may be a read-only memory map: never `put` into it)."""
        made = cls()
        made.keys, made.matrix, made.size = keys.astype(np.int64), matrix, len(keys)
        made.pos = dict(zip(made.keys.tolist(), range(len(keys)), strict=True))
        made.live = np.ones(len(keys), dtype=bool)
        made.cleared = set(cleared)
        return made

    def export(self) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """(live keys, their vectors, every other key this holds: cleared) -- what `from_arrays` takes."""
        live = self.live[: self.size]
        if live.all():  # the common case: the vectors as they are, no copy
            return self.keys[: self.size].copy(), self.matrix[: self.size], list(self.cleared)
        dead = self.keys[: self.size][~live].tolist()
        return self.keys[: self.size][live], self.matrix[: self.size][live], [*dead, *self.cleared]

    def holds(self, key: int) -> bool:
        """Whether this says anything about the key: a vector, or that it was cleared."""
        return key in self.pos or key in self.cleared

    def held(self) -> np.ndarray:
        """Every key `holds` is true of."""
        keys = self.keys[: self.size]
        return np.concatenate([keys, np.fromiter(self.cleared, np.int64, len(self.cleared))])

    def __len__(self) -> int:
        return self.size

    @property
    def dimension(self) -> int:
        return self.matrix.shape[1]

    def put(self, key: int, vector: np.ndarray | None) -> None:
        """Store (or replace) a key's vector; None clears it (the row then scores nothing)."""
        index = self.pos.get(key)
        if vector is None:
            if index is None:
                self.cleared.add(key)
            else:
                self.matrix[index] = 0.0
                self.live[index] = False
            return
        if self.matrix.shape[1] != vector.shape[0]:
            if self.size:  # a different dimension replaces the old vectors
                self.pos.clear()
                self.size = 0
            self.matrix = np.zeros((1024, vector.shape[0]), dtype=np.float32)
            self.keys = np.zeros(1024, dtype=np.int64)
            self.live = np.zeros(1024, dtype=bool)
            index = None
        self.cleared.discard(key)
        if index is None:
            if self.size == self.matrix.shape[0]:
                grow = max(1024, self.size)
                self.matrix = np.vstack([self.matrix, np.zeros((grow, self.matrix.shape[1]), np.float32)])
                self.keys = np.concatenate([self.keys, np.zeros(grow, np.int64)])
                self.live = np.concatenate([self.live, np.zeros(grow, bool)])
            index = self.size
            self.size += 1
            self.pos[key] = index
            self.keys[index] = key
        self.matrix[index] = vector
        self.live[index] = True

    def put_many(self, keys: Sequence[int], vectors: Sequence[np.ndarray | None]) -> None:
        """`put` each in order; runs of new keys are appended as one block (a catch-up's common case)."""
        run: list[tuple[int, np.ndarray]] = []
        in_run: set[int] = set()
        for key, vector in zip(keys, vectors, strict=True):
            new = vector is not None and key not in self.pos and vector.shape[0] == self.matrix.shape[1]
            if new and key not in in_run:
                run.append((key, vector))  # type: ignore[arg-type]
                in_run.add(key)
                continue
            self._append(run)
            run, in_run = [], set()
            self.put(key, vector)
        self._append(run)

    def _append(self, rows: list[tuple[int, np.ndarray]]) -> None:
        """New keys, none held yet, of this matrix's dimension."""
        if not rows:
            return
        count = len(rows)
        if self.size + count > self.matrix.shape[0]:
            grow = max(1024, self.size, self.size + count - self.matrix.shape[0])
            self.matrix = np.vstack([self.matrix, np.zeros((grow, self.matrix.shape[1]), np.float32)])
            self.keys = np.concatenate([self.keys, np.zeros(grow, np.int64)])
            self.live = np.concatenate([self.live, np.zeros(grow, bool)])
        start, keys = self.size, [k for k, _ in rows]
        self.matrix[start : start + count] = np.stack([v for _, v in rows])
        self.keys[start : start + count] = keys
        self.live[start : start + count] = True
        self.pos.update(zip(keys, range(start, start + count), strict=True))
        if self.cleared:
            self.cleared.difference_update(keys)
        self.size += count

    def scores(self, query: np.ndarray, live_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Every key and its score (cleared rows score 0; `live_only` leaves them out)."""
        if self.size == 0 or self.dimension != query.shape[0]:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        keys, scores = self.keys[: self.size].copy(), product(self.matrix[: self.size], query)
        if live_only:
            live = self.live[: self.size]
            return keys[live], scores[live]
        return keys, scores

    def items(self) -> Iterable[tuple[int, np.ndarray]]:
        """The live (key, vector) pairs: what an HNSW index is built from."""
        live = np.flatnonzero(self.live[: self.size])
        return ((int(self.keys[i]), self.matrix[i]) for i in live)

    def vectors(self, keys: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """The stored vectors of those keys that have one: (keys, matrix)."""
        rows = [(k, self.pos[k]) for k in keys if k in self.pos and self.live[self.pos[k]]]
        found = np.array([k for k, _ in rows], dtype=np.int64)
        return found, self.matrix[[i for _, i in rows]] if rows else np.zeros((0, self.dimension), np.float32)


class HNSWVectors:
    """An HNSW graph (usearch) over unit vectors; approximate nearest neighbours by inner product."""

    kind = "hnsw"

    def __init__(self, dimension: int) -> None:
        from usearch.index import Index

        self.index = Index(
            ndim=dimension,
            metric="ip",
            dtype="f32",  # full precision: scores equal the exact ones, only the candidate set is approximate
            connectivity=CONNECTIVITY,
            expansion_add=EXPANSION_ADD,
            expansion_search=EXPANSION_SEARCH,
        )
        self.lock = threading.Lock()  # usearch does not promise safe concurrent insert and search

    @classmethod
    def load(cls, path: Path, view: bool = False) -> HNSWVectors:
        """A graph written by `save`. `view`: memory-mapped, opened at once and read-only (`copy` gives
        a graph that can change)."""
        from usearch.index import Index

        index = Index.restore(os.fspath(path), view=view)
        if index is None:
            raise ValueError(f"{path} is not an HNSW index")
        return cls._wrapping(index)

    @classmethod
    def _wrapping(cls, index) -> HNSWVectors:
        made = cls.__new__(cls)
        made.index, made.lock = index, threading.Lock()
        index.expansion_add, index.expansion_search = EXPANSION_ADD, EXPANSION_SEARCH
        return made

    def copy(self) -> HNSWVectors:
        """A graph of its own with the same vectors and links (of a memory-mapped one too). It only reads
        this graph, so it takes no lock: searches of a graph no one adds to go on meanwhile."""
        return self._wrapping(self.index.copy())

    def __len__(self) -> int:
        return len(self.index)

    @property
    def dimension(self) -> int:
        return self.index.ndim

    def put_many(
        self, keys: Sequence[int], vectors: np.ndarray, keep_going: Callable[[], bool] | None = None
    ) -> bool:
        """Add or replace vectors. Large batches are inserted on every core; small ones on one thread,
        because concurrent insertion into a small graph leaves it poorly linked (measured on 300 vectors:
        13% of queries missed one of their 40 nearest with two threads, none with one).

        `keep_going`: asked before each slice of PARALLEL_BUILD_MIN vectors; False stops (and this
        returns False, the graph holding part of them) -- a build stops within seconds when told."""
        if keep_going is not None:
            for start in range(0, len(keys), PARALLEL_BUILD_MIN):
                if not keep_going():
                    return False
                end = start + PARALLEL_BUILD_MIN
                self.put_many(keys[start:end], vectors[start:end])
            return True
        if not len(keys):
            return True
        threads = 0 if len(keys) >= PARALLEL_BUILD_MIN else 1
        ids = np.asarray(keys, dtype=np.uint64)
        with self.lock:
            present = self.index.contains(ids)
            if np.any(present):
                self.index.remove(ids[present])
            self.index.add(ids, np.ascontiguousarray(vectors, dtype=np.float32), threads=threads)
        return True

    def contains(self, keys: np.ndarray) -> np.ndarray:
        """Which of these keys hold a vector here."""
        with self.lock:
            return np.asarray(self.index.contains(np.asarray(keys, dtype=np.uint64)), dtype=bool)

    def clear(self, keys: Sequence[int]) -> None:
        ids = np.asarray(keys, dtype=np.uint64)
        with self.lock:
            present = self.index.contains(ids)
            if np.any(present):
                self.index.remove(ids[present])

    def nearest(self, query: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
        """About the `count` nearest keys and their exact scores, best first."""
        with self.lock:
            if not len(self.index):
                return np.zeros(0, np.int64), np.zeros(0, np.float32)
            # a search wider than the default breadth keeps its recall when many candidates are asked for
            self.index.expansion_search = max(search_breadth(len(self.index)), count)
            found = self.index.search(query.astype(np.float32), count, threads=1)
        return found.keys.astype(np.int64), (1.0 - found.distances).astype(np.float32)

    def vectors(self, keys: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """The stored vectors of those keys that have one: (keys, matrix)."""
        ids = np.asarray(keys, dtype=np.uint64)
        with self.lock:
            present = self.index.contains(ids) if len(ids) else np.zeros(0, bool)
            ids = ids[present]
            rows = self.index.get(ids) if len(ids) else ()
        if not len(ids):
            return np.zeros(0, np.int64), np.zeros((0, self.dimension), np.float32)
        return ids.astype(np.int64), np.stack([np.asarray(r, dtype=np.float32) for r in rows])

    def save(self, path: Path) -> None:
        """Write atomically (memql.index.arrays_file.replacing)."""
        with replacing(path) as tmp, self.lock:
            try:
                self.index.save(os.fspath(tmp))
            except RuntimeError as exc:  # (how the graph library reports a write that failed)
                raise OSError(f"{tmp}: {exc}") from exc

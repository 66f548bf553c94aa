"""The vectors of one (tenant, model) in this process, in layers, and the threads that keep them current.

Layers, newest first -- a record's vector is the one in the newest layer that holds its number:

* ``tail``: an exact index (ExactVectors) of every change absorbed since the last build began. Writes
  land here; it is small unless a graph is not wanted (mode "exact", or "auto" below ANN_MIN_VECTORS).
* ``frozen``: the tail a builder thread is merging into a new graph; read-only from then on.
* ``graph``: an HNSW graph (HNSWVectors) of every vector up to ``graph_seq``; never changed once
  published (a snapshot is opened memory-mapped), so a search never waits for a write to it.

No search waits for an index build. A builder thread merges ``frozen`` into a copy of the graph (or a
new graph) holding no lock the searches need, and swaps it in under the cache lock in one assignment;
until then the exact layers answer for what the graph lacks. A build starts when the tail reaches
ANN_MIN_VECTORS (no graph yet, mode "auto"), or a tenth of the graph (MERGE_MIN at least), or when an
exact layer opened from a snapshot is to be merged; one a search finds due starts after the search's
read has ended (memql.store.sqlite.vectors.VectorIndex.start_builds).

Catching up reads rows whose embedding_seq is above ``seq`` (whichever process wrote them) a batch at a
time, each batch absorbed under the lock only for the rows still newer than ``seq`` -- so a search's
own catch-up and the store's background catch-up (memql.store.sqlite.vectors.CatchUp) may overlap, and a
row's older version never replaces a newer one.

Snapshots go beside the database file: the graph (``<id>.<seq>.usearch``) after each build, and at
close the exact layers not yet in a graph (``<id>.<graph seq>.<seq>.exact.npy`` and its ``-keys``), so a
process reopening a large store opens both memory-mapped and answers its first search at once, while
the exact part is merged into the graph in the background.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import numpy as np

from memql.index.arrays_file import optional_write, replacing
from memql.index.text import MAX_PATH_VECTORS
from memql.index.vectors import ExactVectors, HNSWVectors
from memql.store.sqlite import builds
from memql.store.sqlite.pages import Populating

VectorMode = Literal["auto", "exact", "hnsw"]
ANN_MIN_VECTORS = 20_000  # "auto" builds a graph from here on: exact search over 20k vectors takes ~1 ms
MERGE_MIN = 1_000  # a tail smaller than this is not worth a new graph
EXACT_SNAPSHOT_MIN = 1_000  # exact layers this large are saved at close (fewer are quicker to re-read)
CATCH_UP_BATCH = 2_000  # rows read, then absorbed under the lock, at a time
BUILD_NICENESS = 10  # a build thread's niceness: below searches (and the process's other threads)
BUILD_HOOK: Callable[[VectorCache], None] | None = None  # tests: runs in each builder thread first

# a transaction's own vectors by record number: its vector (None: none searchable) and its path vectors
Overlay = dict[int, tuple[np.ndarray | None, np.ndarray | None]]


class VectorCache:
    """The layered vectors of one (tenant, model) (see the module docstring)."""

    def __init__(self, tenant: str, model: str, mode: VectorMode, snapshots: Path | None) -> None:
        self.tenant, self.model, self.mode = tenant, model, mode
        self.graph: HNSWVectors | None = None
        self.graph_seq = 0
        self.saved_seq = 0  # the graph snapshot on disk (0: none written by this process)
        self.frozen: ExactVectors | None = None
        self.frozen_seq = 0
        self.tail = ExactVectors()
        self.paths = ExactVectors()  # path vectors, keyed num * MAX_PATH_VECTORS + i
        self.path_counts: dict[int, int] = {}  # how many path vectors each record has in `paths`
        self.seq = 0
        self.caught_version: object = None  # the store connection's version at its last full catch-up
        self.opened = False  # snapshots looked for
        self.snapshots = snapshots  # where snapshots go (None: in memory only)
        self.store_id: int | None = None  # names the snapshots, so a recreated file never reads old ones
        self.lock = threading.RLock()  # held only for short steps: never for a read of many rows or a build
        self.persist = threading.Lock()  # one writer of snapshots at a time (a builder, close)
        self.builder: threading.Thread | None = None
        self.build_error: BaseException | None = None  # a failed build is not retried (the layers answer)
        self.closed = False
        self.populating = Populating()  # the snapshots' pages being mapped in (see store/sqlite/pages.py)

    # --- what the layers hold ----------------------------------------------------------------------

    def __len__(self) -> int:
        """Searchable vectors."""
        with self.lock:
            exact = self._exact_nums()
            hidden = self._hidden_keys()
            count = len(exact)
            if self.graph is not None:
                count += len(self.graph)
                if len(hidden):
                    count -= int(np.count_nonzero(self.graph.contains(hidden)))
            return count

    @property
    def hnsw(self) -> HNSWVectors | None:
        return self.graph

    def _hidden_keys(self) -> np.ndarray:
        held = [self.tail.held()] + ([self.frozen.held()] if self.frozen is not None else [])
        return np.unique(np.concatenate(held))

    def _exact_nums(self) -> np.ndarray:
        return self.exact_scores(None, live_only=True)[0]

    def shadows(self, num: int) -> bool:
        """Whether an exact layer decides this record's vector (so the graph's is out of date)."""
        return self.tail.holds(num) or (self.frozen is not None and self.frozen.holds(num))

    def exact_scores(self, query: np.ndarray | None, live_only: bool) -> tuple[np.ndarray, np.ndarray]:
        """Every record of the exact layers and its score (the tail's vector over the frozen one's);
        `query` None: the records alone, with zero scores."""

        def scored(layer: ExactVectors) -> tuple[np.ndarray, np.ndarray]:
            if query is not None:
                return layer.scores(query, live_only)
            keys = layer.keys[: layer.size]
            if live_only:
                keys = keys[layer.live[: layer.size]]
            return keys.copy(), np.zeros(len(keys), np.float32)

        nums, scores = scored(self.tail)
        if self.frozen is None or not (len(self.frozen) or self.frozen.cleared):
            return nums, scores
        older_nums, older_scores = scored(self.frozen)
        if len(self.tail) or self.tail.cleared:
            keep = ~np.isin(older_nums, self.tail.held())
            older_nums, older_scores = older_nums[keep], older_scores[keep]
        return np.concatenate([older_nums, nums]), np.concatenate([older_scores, scores])

    def lookup(self, nums: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The current vectors of those records that have one: (nums, matrix), from the newest layer."""
        parts: list[tuple[np.ndarray, np.ndarray]] = []
        rest = nums
        for layer in (self.tail, self.frozen):
            if layer is None:
                continue
            parts.append(layer.vectors([n for n in rest if layer.pos.get(n) is not None]))
            rest = [n for n in rest if not layer.holds(n)]
        if self.graph is not None and rest:
            parts.append(self.graph.vectors(rest))
        parts = [(k, m) for k, m in parts if len(k)]
        if not parts:
            return np.zeros(0, np.int64), np.zeros((0, 0), np.float32)
        dimension = parts[-1][1].shape[1]
        parts = [(k, m) for k, m in parts if m.shape[1] == dimension]
        return np.concatenate([k for k, _ in parts]), np.concatenate([m for _, m in parts])

    # --- catching up -------------------------------------------------------------------------------

    def catch_up(
        self, conn: sqlite3.Connection, upto: int | None, build: bool = True, version: object = None
    ) -> None:
        """Absorb rows whose embedding changed since the last catch-up (up to `upto`, when given), then
        start a build if one is due (`build`; a search starts it after it has answered: `maybe_build`).
        `version`: the store connection's database version in a read transaction (see
        memql.store.sqlite.governed); a catch-up at the version of the last one has nothing to read."""
        if version is not None and upto is None and version == self.caught_version:
            if build:
                self.maybe_build()
            return
        self.open(conn)
        sql = (
            "SELECT num, embedding, embedding_model, path_embeddings, embedding_seq FROM records "
            "WHERE tenant = ? AND embedding_seq > ?"
        )
        params: list[object] = [self.tenant, self.seq]
        if upto is not None:
            if upto <= self.seq:
                return
            sql += " AND embedding_seq <= ?"
            params.append(upto)
        cursor = conn.execute(sql + " ORDER BY embedding_seq", params)
        while not self.closed and (rows := cursor.fetchmany(CATCH_UP_BATCH)):
            decoded = [(row[0], row[4], *self.vectors(row[1], row[2], row[3])) for row in rows]
            with self.lock:
                fresh = [d for d in decoded if d[1] > self.seq]  # another catch-up may have been first
                self.tail.put_many([d[0] for d in fresh], [d[2] for d in fresh])
                for num, _, _, paths in fresh:
                    if paths is not None or num in self.path_counts:
                        self._put_paths(num, paths)
                self.seq = max(self.seq, rows[-1][4])
        if upto is None and not self.closed:
            self.caught_version = version
        if build:
            self.maybe_build()

    def maybe_build(self) -> None:
        with self.lock:
            self._maybe_build()

    def open(self, conn: sqlite3.Connection) -> None:
        """Start from the saved snapshots, once (see `_open_snapshots`): the store's opener does it
        (SQLiteStore.prepare), else the first catch-up."""
        if not self.opened:
            with self.lock:
                if not self.opened:
                    self.opened = True
                    if self.mode != "exact":
                        self._open_snapshots(conn)

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

    # --- building (in a thread of its own) ---------------------------------------------------------

    def build_due(self) -> bool:
        """Whether the exact layers are worth merging into a graph now (and no build runs)."""
        with self.lock:
            if self.builder is not None or self.closed or self.build_error is not None:
                return False
            if self.mode == "exact":
                return False
            size = len(self.tail)
            if self.frozen is not None:  # opened from a snapshot: merged, unless "auto" wants no graph yet
                wants_graph = self.graph is not None or self.mode == "hnsw"
                return wants_graph or len(self.frozen) + size >= ANN_MIN_VECTORS
            if self.graph is None:
                return size > 0 if self.mode == "hnsw" else size >= ANN_MIN_VECTORS
            return size >= max(MERGE_MIN, len(self.graph) // 10)

    def _maybe_build(self) -> None:
        """Start merging the exact layers into a graph when they are worth it (call with the lock)."""
        if not self.build_due():
            return
        if self.frozen is None:
            self.frozen, self.frozen_seq, self.tail = self.tail, self.seq, ExactVectors()
        # a process may exit during a build: the build stops and is lost (or, once it exits, none starts)
        builds.launch(
            self._build,
            self.graph,
            self.frozen,
            self.frozen_seq,
            name=f"memql-hnsw-build-{self.tenant}",
            publish=lambda thread: setattr(self, "builder", thread),
        )

    def _build(self, base: HNSWVectors | None, frozen: ExactVectors, upto: int) -> None:
        _yield_to_searches()
        try:
            if BUILD_HOOK is not None:
                BUILD_HOOK(self)
            keys, matrix, cleared = frozen.export()
            if base is not None and (not len(keys) or base.dimension == matrix.shape[1]):
                graph = base.copy()
                graph.clear(cleared)  # replaced vectors are replaced by put_many
            elif len(keys):
                graph = HNSWVectors(matrix.shape[1])  # the first graph (or vectors of a new dimension)
            else:
                graph = None
            if graph is not None and len(keys):
                graph.put_many(keys.tolist(), matrix, lambda: not self.closed and not builds.EXITING.is_set())
        except BaseException as exc:
            with self.lock:
                self.build_error, self.builder = exc, None
            return
        with self.lock:
            if self.closed or self.frozen is not frozen or builds.EXITING.is_set():  # stopped, or unwanted
                self.builder = None
                return
            self.graph, self.graph_seq, self.frozen = graph, upto, None
        with self.persist:
            if not self.closed:
                self._save_graph()
        with self.lock:
            self.builder = None
            self._maybe_build()  # the tail may have grown meanwhile

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no build is running (tests, the bench); False when `timeout` ran out first."""
        while True:
            with self.lock:
                builder = self.builder
            if builder is None:
                return True
            builder.join(timeout)
            if builder.is_alive():
                return False

    def close(self) -> None:
        """No build is published or saved from now on; the graph and the exact layers are saved."""
        with self.lock:
            self.closed = True
        with self.persist, self.lock:
            self._save_graph()
            self._save_exact()

    # --- snapshots ----------------------------------------------------------------------------------

    def _name(self) -> str:
        digest = hashlib.sha256(f"{self.tenant}\0{self.model}".encode()).hexdigest()[:16]
        return f"{self.store_id:x}-{digest}"

    def _saving(self) -> bool:
        return self.snapshots is not None and self.store_id is not None

    def _save_graph(self) -> None:
        """Write the graph as of graph_seq, removing older graphs and the exact layers saved over them."""
        graph, seq = self.graph, self.graph_seq
        if graph is None or not self._saving() or seq == self.saved_seq:
            return
        assert self.snapshots is not None
        with optional_write("a vector graph's snapshot"):
            graph.save(self.snapshots / f"{self._name()}.{seq}.usearch")
            self.saved_seq = seq
            for old in self.snapshots.glob(f"{self._name()}.*"):
                over = old.name[len(self._name()) + 1 :].split(".", 1)[0]  # the graph it is (or lies over)
                if over.isdigit() and int(over) < seq:
                    old.unlink(missing_ok=True)

    def _save_exact(self) -> None:
        """Write the exact layers (the vectors since the graph) when re-reading them would cost."""
        if not self._saving() or self.mode == "exact":
            return
        keys, matrix, _ = self.tail.export()
        if self.frozen is not None:
            older_keys, older, _ = self.frozen.export()
            kept = ~np.isin(older_keys, self.tail.held())  # the tail's vector wins over the frozen one's
            if not len(keys):
                keys, matrix = older_keys[kept], older[kept]
            elif len(older_keys) and older.shape[1] == matrix.shape[1]:
                keys, matrix = np.concatenate([older_keys[kept], keys]), np.concatenate([older[kept], matrix])
        if len(keys) < EXACT_SNAPSHOT_MIN:
            return
        assert self.snapshots is not None
        stem = f"{self._name()}.{self.graph_seq}.{self.seq}"
        if (self.snapshots / f"{stem}.exact-keys.npy").exists():
            return  # written already (by this process, or one that saw the same rows)
        gone = np.setdiff1d(self._hidden_keys(), keys)  # cleared since the graph: it must not answer
        with optional_write("a vector cache's exact layer"):
            self.snapshots.mkdir(parents=True, exist_ok=True)
            # the keys last: a pair is whole
            for suffix, array in ((".exact.npy", matrix), (".exact-keys.npy", np.concatenate([keys, -gone]))):
                with replacing(self.snapshots / f"{stem}{suffix}") as tmp, open(tmp, "wb") as out:
                    np.save(out, np.ascontiguousarray(array, dtype=array.dtype))
            for old in self.snapshots.glob(f"{self._name()}.*.exact*.npy"):
                if not old.name.startswith(f"{stem}.exact"):
                    old.unlink(missing_ok=True)

    def _open_snapshots(self, conn: sqlite3.Connection) -> None:
        """Start from the newest saved graph and exact layers of this store, if they are not ahead of the
        store itself (a file restored from a backup), both memory-mapped."""
        if not self._saving() or not self.snapshots.is_dir():  # type: ignore[union-attr]
            return
        current = conn.execute("SELECT value FROM counters WHERE name = 'embedding_seq'").fetchone()
        if current is None:
            return
        graphs = self._numbered("usearch", current[0])
        graph, graph_seq = None, 0
        if graphs:
            graph_seq, path = max(graphs)
            try:
                graph = HNSWVectors.load(path, view=True)
                self.populating.file(path)  # a search walks pages all over it
            except (OSError, RuntimeError, ValueError):
                graph, graph_seq = None, 0  # unreadable: rebuilt from the records
        frozen, frozen_seq = None, graph_seq
        exact = [(seq, path) for seq, path in self._numbered("exact.npy", current[0]) if seq >= graph_seq]
        if exact:
            frozen_seq, path = max(exact)
            if path.name.startswith(f"{self._name()}.{graph_seq}."):  # laid over this very graph
                try:
                    keys = np.load(path.with_name(path.name.replace(".exact.npy", ".exact-keys.npy")))
                    matrix = np.load(path, mmap_mode="r")
                    self.populating.array(matrix)  # every exact search reads all of it
                    live = keys[keys > 0]
                    frozen = ExactVectors.from_arrays(live, matrix, (-keys[keys < 0]).tolist())
                except (OSError, ValueError):
                    frozen, frozen_seq = None, graph_seq
            else:
                frozen_seq = graph_seq
        self.graph, self.graph_seq, self.saved_seq = graph, graph_seq, graph_seq
        self.frozen, self.frozen_seq, self.seq = frozen, frozen_seq, max(graph_seq, frozen_seq)
        if self.seq:
            # no condition on embedding_seq: with one, SQLite walks every row of the tenant by that index
            # (reading each row) instead of the few rows of records_with_path_vectors
            rows = conn.execute(
                "SELECT num, embedding, embedding_model, path_embeddings, embedding_seq FROM records "
                "WHERE tenant = ? AND path_embeddings IS NOT NULL",
                (self.tenant,),
            )
            for num, blob, model, paths, seq in rows:  # the snapshots hold no path vectors
                if seq is not None and seq <= self.seq:
                    self._put_paths(num, self.vectors(blob, model, paths)[1])

    def _numbered(self, suffix: str, current: int) -> list[tuple[int, Path]]:
        """Snapshots with this suffix and their sequence values, none ahead of the store's `current`."""
        found = []
        for path in self.snapshots.glob(f"{self._name()}.*.{suffix}"):  # type: ignore[union-attr]
            seq = path.name[: -len(suffix) - 1].rsplit(".", 1)[-1]
            if seq.isdigit() and int(seq) <= current:
                found.append((int(seq), path))
        return found


def _yield_to_searches() -> None:
    """Lower this thread's scheduling priority (Linux: per thread; the graph's insertion threads started
    from it inherit it), so that on a busy machine searches get the cores before a build does."""
    if not sys.platform.startswith("linux"):  # elsewhere a thread id is no process id: left alone
        return
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), BUILD_NICENESS)

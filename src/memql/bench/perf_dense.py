"""`memql bench perf`, dense part: hybrid Retrieve latency with the HNSW vector index beside exact search in
the same run, the index's recall against exact search, and what a real query embedding adds.

The corpus and queries are perf's (same seed, same notes). Records are embedded by ``WordMeanEmbedder``:
all-MiniLM-L6-v2 runs ~240 sentences/s here, days for a million notes, so each distinct word is embedded
once by MiniLM and a note's vector is built from its words' vectors (see the class).

One file is loaded incrementally to each size; at each size two fresh stores are opened on it, one with
``vector_index="exact"`` (brute force) and one with ``vector_index="hnsw"``, and their queries alternate
so that the machine's load drifts alike for both. Per query, in milliseconds, p50/p95 over the queries:

* ``hnsw`` / ``exact``: ``Memory.retrieve(query=q, k=10)``, hybrid (BM25 + dense, default alpha). The
  query's vector is computed before the timed region (``PrecomputedQueries``), so this excludes query
  embedding; everything else (validation, both searches, fusion, row decoding, the visit update) is in.
* ``embed``: ``MiniLMEmbedder.shared().embed([q])`` alone, what a real query embedding costs here.
* ``*_with_embed``: per query, its retrieve time plus its embedding time; percentiles of those sums.
* ``*_dense``: the store's dense search alone for the top 10 (no Retrieve, no lexical side).
* ``lexical``: Retrieve with alpha = 0 (BM25 only), the lexical side of hybrid, on the HNSW store (its
  lexical index in the default mode, "auto": ``lexical_index`` says which one answered).
* ``lexical_fts5``: the same Retrieves on a third store opened with ``lexical_index="fts5"`` (SQLite's
  FTS5 ranks every match), alternating with ``lexical``; ``lexical_ratio_*`` = lexical / lexical_fts5.
  ``lexical_same_top``: the share of queries for which the two stores' own lexical searches (top 10, no
  Retrieve: each Retrieve heats what it returns, which reorders near-ties for the next one) return the
  same records with the same scores.
* ``*_cpu``: the same calls' CPU time in the calling thread (``time.thread_time``), for ``hnsw``,
  ``exact``, ``lexical`` and ``lexical_fts5``: what a query costs, without the time it waited for a core
  on a shared machine (exact dense search's matrix product also runs on BLAS threads, not counted).
* ``recall_at_10``: the HNSW store's dense top 10 against the exact store's, averaged over the queries.
  A hit counts when exact search also returned it, or when its cosine ties the exact 10th's (within
  1e-6). Taken from the store's dense search with k = 10, which is stricter than Retrieve (it asks each
  side for 50 candidates) and independent of the score shaping applied after fusion.
* ``*_warmup_s``: the first query on a freshly opened store, which catches up its process-local index
  from the SQLite rows; it is not part of p50/p95. HNSW starts from the graph the previous size's store
  saved beside the file and reads the newer rows; exact search reads every vector. The graph is then
  built in the background (the first queries answer exactly meanwhile): ``hnsw_build_wait_s`` is how
  long the bench then waited for it before measuring (the first-query part, memql.bench.perf_first,
  measures a store reopened after a load).
* ``hnsw_reopen_s``: the same once the graph is saved at this size (a process restarting on the store).
* ``lexical_warmup_s`` / ``lexical_reopen_s``: the same for the lexical index alone (its first lexical
  Retrieve; it is built before the hybrid warm-up, which therefore no longer includes it).
"""

from __future__ import annotations

import gc
import hashlib
import inspect
import os
import resource
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memql import Memory
from memql.bench.perf import (
    NOW,
    TENANT,
    corpus,
    in_folder,
    machine,
    memql_load,
    percentile,
    search_queries,
)
from memql.bench.perf_baseline import BASELINE_MAX, HybridBaseline, alternating, measure
from memql.ports.models import Embedder
from memql.ports.progress import Progress, silent
from memql.ports.store import RecordQuery
from memql.services.tokenize import tokens
from memql.store.sqlite.vectors import ANN_MIN_VECTORS

DIMENSION = 384  # all-MiniLM-L6-v2's; the random fallback uses the same
NOISE = 0.2  # per-text random part, relative to the unit word mean: cosine ~0.98 to the noiseless vector
NOISE_ROWS = 4096  # noise vectors to combine; 4 of them per text (4096^4 combinations)
RECALL_TOLERANCE = 1e-6
K = 10


# --- the bench embedder ----------------------------------------------------------------------------


class WordMeanEmbedder:
    """Unit vectors for the bench corpus: the normalised sum of the text's word vectors plus a small
    per-text random part.

    Words are memql's tokens (``memql.services.tokenize.tokens``: English words, Chinese as overlapping
    character bigrams, since the corpus writes Chinese without spaces). Each distinct token is embedded
    once, by all-MiniLM-L6-v2 (``word_vectors="minilm"``) or as a seeded random unit vector ("random",
    for tests and machines without the weights). The random part is a fixed combination of four rows of
    a seeded table, picked by a hash of the text: real embeddings of distinct texts are distinct, but
    notes with the same words in another order would otherwise get identical vectors, which no real
    model produces and which would make ties the norm at a million records. A pure function of the text,
    so the store's content-hash cache and repeated runs agree.
    """

    dimension: int = DIMENSION

    def __init__(self, word_vectors: str = "minilm", *, noise: float = NOISE, seed: int = 0) -> None:
        if word_vectors == "minilm":
            from memql.services.embedding import MiniLMEmbedder

            self._words: Callable[[list[str]], np.ndarray] = MiniLMEmbedder.shared().embed_array
        elif word_vectors == "random":
            self._words = _random_word_vectors
        else:
            raise ValueError(f"word_vectors must be 'minilm' or 'random', not {word_vectors!r}")
        self.word_vectors = word_vectors
        # the vector cache is keyed by model name: never mistake these vectors for MiniLM's own
        self.model = f"bench-word-mean/{'all-MiniLM-L6-v2' if word_vectors == 'minilm' else 'random'}"
        self.noise = noise
        table = np.random.default_rng(seed).standard_normal((NOISE_ROWS, DIMENSION)).astype(np.float32)
        self._noise_table = table / np.linalg.norm(table, axis=1, keepdims=True)
        self._index: dict[str, int] = {}
        self._vectors = np.zeros((0, DIMENSION), dtype=np.float32)
        self.seconds = 0.0  # time spent embedding (words included), reported beside the load time

    @property
    def vocabulary(self) -> int:
        return len(self._index)

    def learn(self, texts: Sequence[str]) -> None:
        """Embed every new word of `texts` at once: MiniLM spends ~10 ms a call whatever its size, so
        words met a few at a time while loading would cost minutes over a large corpus."""
        self._learn([tokens(t) for t in texts])

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        started = time.perf_counter()
        toks = [tokens(t) for t in texts]
        self._learn(toks)
        lengths = np.fromiter((len(t) for t in toks), dtype=np.int64, count=len(toks))
        index = self._index
        ids = np.fromiter((index[w] for t in toks for w in t), dtype=np.int64, count=int(lengths.sum()))
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        filled = lengths > 0
        if ids.size:  # one segment sum per text that has words (a text without any keeps only noise)
            starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
            out[filled] = np.add.reduceat(self._vectors[ids], starts[filled], axis=0)
        _normalise(out)
        out += self.noise * self._noise_for(texts)
        _normalise(out)
        self.seconds += time.perf_counter() - started
        return out

    def _learn(self, toks: list[list[str]]) -> None:
        new = sorted({w for t in toks for w in t if w not in self._index})
        if not new:
            return
        vectors = np.asarray(self._words(new), dtype=np.float32)
        for word in new:
            self._index[word] = len(self._index)
        self._vectors = np.vstack([self._vectors, vectors])

    def _noise_for(self, texts: Sequence[str]) -> np.ndarray:
        keys = np.fromiter(
            (int.from_bytes(hashlib.blake2b(t.encode(), digest_size=6).digest(), "little") for t in texts),
            dtype=np.uint64,
            count=len(texts),
        )
        rows = (keys[:, None] >> np.array([0, 12, 24, 36], dtype=np.uint64)) & np.uint64(NOISE_ROWS - 1)
        return self._noise_table[rows.astype(np.int64)].sum(axis=1) * np.float32(0.5)  # ~unit length


def _normalise(matrix: np.ndarray) -> None:
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)


def _random_word_vectors(words: list[str]) -> np.ndarray:
    """Seeded by the word itself, so a word has the same vector in every run and process."""
    out = np.empty((len(words), DIMENSION), dtype=np.float32)
    for i, word in enumerate(words):
        seed = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
        out[i] = np.random.default_rng(seed).standard_normal(DIMENSION)
    _normalise(out)
    return out


class PrecomputedQueries:
    """The bench embedder, answering the known query texts from vectors computed before timing: a timed
    hybrid Retrieve then runs unchanged but pays nothing for embedding its query."""

    def __init__(self, inner: WordMeanEmbedder, queries: Sequence[str]) -> None:
        self.inner, self.model, self.dimension = inner, inner.model, inner.dimension
        self.vectors = dict(zip(queries, inner.embed(list(queries)), strict=True))

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if all(t in self.vectors for t in texts):
            return [self.vectors[t] for t in texts]
        return self.inner.embed(texts)


def bench_embedder(word_vectors: str = "minilm") -> tuple[WordMeanEmbedder, str | None]:
    """The embedder and, when MiniLM's weights are missing, why random word vectors stand in."""
    if word_vectors == "minilm":
        from memql.services.embedding import EmbedderUnavailable

        try:
            return WordMeanEmbedder("minilm"), None
        except EmbedderUnavailable as exc:
            return WordMeanEmbedder("random"), f"random word vectors: {exc}"
    return WordMeanEmbedder(word_vectors), None


# --- stores --------------------------------------------------------------------------------------


def open_memory(path: Path, index: str, embedder: Embedder, lexical: str = "auto") -> Memory:
    from memql.store.sqlite import SQLiteStore

    options = inspect.signature(SQLiteStore).parameters
    kwargs: dict[str, str] = {}
    if "vector_index" in options:
        kwargs["vector_index"] = index
    elif index != "exact":  # a memql from before the ANN index: exact search was the only kind
        raise RuntimeError(f"this memql's SQLiteStore has no vector_index option (asked for {index!r})")
    if "lexical_index" in options:
        kwargs["lexical_index"] = lexical
    elif lexical not in ("auto", "fts5"):  # before the postings index: FTS5 was the only kind
        raise RuntimeError(f"this memql's SQLiteStore has no lexical_index option (asked for {lexical!r})")
    store = SQLiteStore(str(path), **kwargs)  # type: ignore[arg-type]
    return Memory(store, tenant=TENANT, actor=TENANT, clock=NOW, embedder=embedder)


def _close(*memories: Memory) -> None:
    for m in memories:
        m.store.close()
    gc.collect()  # the vector indexes are large: free them before the next size's stores open


# --- measuring -----------------------------------------------------------------------------------


def _hybrid(m: Memory, query: str) -> list[str]:
    return [r["id"] for r in m.retrieve(query=query, k=K).data["rows"]]


def _lexical(m: Memory, query: str) -> list[str]:
    search = {"intent": {"query": query}, "overrides": {"k": K, "alpha": 0.0}}
    result = m.execute({"op": "Retrieve", "target": {"search": search}, "args": {}})
    return [r["id"] for r in result.data["rows"]]


def _lexical_top(m: Memory, query: str) -> list[tuple[str, float]]:
    """The store's own lexical search for the top 10 (what Retrieve asks of it; nothing is written)."""
    q = RecordQuery(statuses=("active",), not_expired_at=NOW, text_query=query, order="relevance", limit=K)
    with m.store.dry_run() as session:
        return [(str(r.id), float(score)) for r, score in session.find(TENANT, q)]  # type: ignore[arg-type]


def _dense(m: Memory, vector: list[float]) -> list[tuple[str, float]]:
    q = RecordQuery(statuses=("active",), not_expired_at=NOW)  # what a Retrieve asks of the store
    with m.store.transaction() as session:
        hits = session.dense(TENANT, vector, q, K, m.executor.embedder.model)  # type: ignore[union-attr]
    return [(str(r.id), float(score)) for r, score in hits]


def recall(ann: Sequence[tuple[str, float]], exact: Sequence[tuple[str, float]]) -> float:
    """|ann ∩ exact| / |exact|, an ANN hit with a cosine tying exact search's last one counting as found."""
    if not exact:
        return 1.0
    found, floor = {rid for rid, _ in exact}, exact[-1][1] - RECALL_TOLERANCE
    return min(len(exact), sum(rid in found or cos >= floor for rid, cos in ann)) / len(exact)


def _timed_ms(fn: Callable[[Any], Any], inputs: Sequence[Any]) -> list[float]:
    out = []
    for item in inputs:
        started = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - started) * 1000)
    return out


def query_embedding_ms(queries: Sequence[str]) -> list[float] | None:
    """A real query embedding per query (MiniLM, one text per call as a search does); None without it."""
    from memql.services.embedding import EmbedderUnavailable, MiniLMEmbedder

    try:
        model = MiniLMEmbedder.shared()
    except EmbedderUnavailable:
        return None
    model.embed([queries[0]])  # warm-up
    return _timed_ms(lambda q: model.embed([q]), queries)


def _p(values: Sequence[float], prefix: str) -> dict[str, float]:
    return {f"{prefix}_p50_ms": percentile(values, 50), f"{prefix}_p95_ms": percentile(values, 95)}


def _measure(
    exact_m: Memory,
    ann_m: Memory,
    fts5_m: Memory,
    queries: list[str],
    vectors: list[list[float]],
    embed_ms: list[float] | None,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    began = time.perf_counter()
    _lexical(ann_m, queries[0])  # builds the lexical index (or loads its snapshot, or leaves FTS5 alone)
    out["lexical_warmup_s"] = time.perf_counter() - began
    for m in (exact_m, ann_m, fts5_m):
        for q in queries[1:4]:
            _lexical(m, q)
    for name, m in (("exact", exact_m), ("hnsw", ann_m)):
        out[f"{name}_warmup_s"] = time.perf_counter()
        _hybrid(m, queries[0])  # catches up the store's index (a graph is built in the background)
        out[f"{name}_warmup_s"] = time.perf_counter() - out[f"{name}_warmup_s"]
        for q in queries[1:4]:
            _hybrid(m, q)
    began = time.perf_counter()
    _settled(ann_m)  # what follows measures the built index, not exact search during its build
    out["hnsw_build_wait_s"] = time.perf_counter() - began
    hybrid_cpu: tuple[list[float], list[float]] = ([], [])
    exact_ms, ann_ms, _, _ = alternating(
        (lambda q: _hybrid(exact_m, q), lambda q: _hybrid(ann_m, q)), queries, hybrid_cpu
    )
    out |= _p(ann_ms, "hnsw") | _p(exact_ms, "exact")
    out |= _p(hybrid_cpu[1], "hnsw_cpu") | _p(hybrid_cpu[0], "exact_cpu")
    out["ratio_p50"] = out["hnsw_p50_ms"] / out["exact_p50_ms"]
    out["ratio_p95"] = out["hnsw_p95_ms"] / out["exact_p95_ms"]
    exact_dense_ms, ann_dense_ms, exact_top, ann_top = alternating(
        (lambda v: _dense(exact_m, v), lambda v: _dense(ann_m, v)), vectors
    )
    out["recall_at_10"] = sum(map(recall, ann_top, exact_top)) / len(queries)
    out["min_recall_at_10"] = min(map(recall, ann_top, exact_top))
    out |= _p(ann_dense_ms, "hnsw_dense") | _p(exact_dense_ms, "exact_dense")
    lexical_cpu: tuple[list[float], list[float]] = ([], [])
    lexical_ms, fts5_ms, _, _ = alternating(
        (lambda q: _lexical(ann_m, q), lambda q: _lexical(fts5_m, q)), queries, lexical_cpu
    )
    out |= _p(lexical_ms, "lexical") | _p(fts5_ms, "lexical_fts5")
    out |= _p(lexical_cpu[0], "lexical_cpu") | _p(lexical_cpu[1], "lexical_fts5_cpu")
    out["lexical_ratio_p50"] = out["lexical_p50_ms"] / out["lexical_fts5_p50_ms"]
    out["lexical_ratio_p95"] = out["lexical_p95_ms"] / out["lexical_fts5_p95_ms"]
    same = [_lexical_top(ann_m, q) == _lexical_top(fts5_m, q) for q in queries]
    out["lexical_same_top"] = sum(same) / len(queries)
    if embed_ms is not None:
        out |= _p(embed_ms, "embed")
        out |= _p([a + e for a, e in zip(ann_ms, embed_ms, strict=True)], "hnsw_with_embed")
        out |= _p([a + e for a, e in zip(exact_ms, embed_ms, strict=True)], "exact_with_embed")
    return {k: round(v, 4) for k, v in out.items()}


def _settled(m: Memory) -> None:
    """Wait for the store's background index builds (a memql that has them)."""
    wait = getattr(getattr(m.store, "vectors", None), "wait", None)
    if wait is not None:
        wait()


def _reopen_lexical(path: Path, index: str, embedder: Embedder, query: str) -> float:
    """A process restarting on the store: its first lexical search (from the index's snapshot, if any)."""
    m = open_memory(path, index, embedder)
    try:
        began = time.perf_counter()
        _lexical(m, query)
        return time.perf_counter() - began
    finally:
        _close(m)


def _lexical_index(m: Memory) -> str:
    """Which lexical index answered this store's searches: its in-process postings, or FTS5."""
    lexical = getattr(m.store, "lexical", None)  # a memql from before the postings index has none
    return lexical.answering if lexical is not None else "fts5"


def _reopen(path: Path, index: str, embedder: Embedder, vector: list[float]) -> float:
    """A process restarting on the store: its first search, from the snapshot the index saved (if any)."""
    m = open_memory(path, index, embedder)
    try:
        began = time.perf_counter()
        _dense(m, vector)
        return time.perf_counter() - began
    finally:
        _close(m)


def _rss_mib() -> float:
    """Peak resident memory of this process so far (Linux reports KiB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def run(
    sizes: Sequence[int] = (10_000, 100_000, 1_000_000),
    *,
    queries: int = 200,
    seed: int = 7,
    directory: str | os.PathLike[str] | None = None,
    batch: int = 100,
    word_vectors: str = "minilm",
    ann_index: str = "hnsw",
    embed_queries: bool = True,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Run the dense part; its store goes in `directory` (kept) or a temporary directory (removed).
    `ann_index` is the vector index compared with exact search ("exact" checks the bench itself);
    `embed_queries` False leaves out the MiniLM query-embedding columns."""
    sizes = sorted(set(sizes))
    if not sizes or sizes[0] <= 0 or queries <= 0 or batch <= 0:
        raise ValueError("sizes, queries and batch must be positive")
    say = progress or silent
    started = time.perf_counter()
    report = in_folder(
        directory,
        "memql-perf-dense-",
        lambda f: _run(f, sizes, queries, seed, batch, word_vectors, ann_index, embed_queries, say),
    )
    report["elapsed_s"] = round(time.perf_counter() - started, 2)
    return report


def _run(
    folder: Path,
    sizes: list[int],
    queries: int,
    seed: int,
    batch: int,
    word_vectors: str,
    ann_index: str,
    embed_queries: bool,
    say: Progress,
) -> dict[str, Any]:
    path, raw_path = folder / "dense.db", folder / "hybrid-raw.db"
    if path.exists() or raw_path.exists():
        raise FileExistsError(f"{folder} already holds dense.db or hybrid-raw.db; use an empty directory")
    embedder, fallback = bench_embedder(word_vectors)
    if fallback:
        say(fallback)
    notes = corpus(sizes[-1], seed)
    texts = search_queries(queries, seed)
    say(f"dense corpus: {len(notes)} notes (seed {seed}); embedding their words ({embedder.model})")
    began = time.perf_counter()
    embedder.learn([n.text for n in notes] + texts)
    vocabulary_s = time.perf_counter() - began
    embed_ms = query_embedding_ms(texts) if embed_queries else None
    timed_embedder = PrecomputedQueries(embedder, texts)
    vectors = [timed_embedder.vectors[q] for q in texts]
    loader = open_memory(path, "exact", embedder)  # never searches, so it never builds an index
    baseline = HybridBaseline(raw_path, embedder.embed_array)  # plain sqlite3 + numpy, same texts and vectors
    blocks: dict[str, Any] = {}
    loaded, load_s = 0, 0.0
    try:
        for size in sizes:
            task = f"dense: load {loaded} -> {size} records with embeddings, batches of {batch}"
            say(task, 0, size - loaded)
            began = time.perf_counter()
            memql_load(
                loader, notes[loaded:size], batch, lambda done, t=task, n=size - loaded: say(t, done, n)
            )
            load_s = load_s + time.perf_counter() - began
            if size <= BASELINE_MAX:
                baseline.load(notes[loaded:size])
            loaded = size
            say(f"dense: {queries} hybrid Retrieves at {size} records, {ann_index} vs exact")
            exact_m = open_memory(path, "exact", timed_embedder)
            ann_m = open_memory(path, ann_index, timed_embedder)
            fts5_m = open_memory(path, "exact", timed_embedder, lexical="fts5")  # never searches densely
            try:
                measured = _measure(exact_m, ann_m, fts5_m, texts, vectors, embed_ms)
                measured["lexical_index"] = _lexical_index(ann_m)
                if size <= BASELINE_MAX:  # against the store a default configuration uses at this size
                    default_m = exact_m if size < ANN_MIN_VECTORS else ann_m
                    compared = measure(
                        lambda q, m=default_m: _hybrid(m, q), baseline.search(), texts, vectors
                    )
                    measured["baseline"] = {
                        **compared,
                        "memql_vector_index": "exact" if size < ANN_MIN_VECTORS else ann_index,
                    }
            finally:
                _close(exact_m, ann_m, fts5_m)
            measured["hnsw_reopen_s"] = round(_reopen(path, ann_index, timed_embedder, vectors[0]), 4)
            reopened = _reopen_lexical(path, ann_index, timed_embedder, texts[0])
            measured["lexical_reopen_s"] = round(reopened, 4)
            blocks[str(size)] = {
                "records": size,
                "load_s": round(load_s, 3),
                "embed_s": round(embedder.seconds, 3),
                **measured,
                "rss_peak_mib": _rss_mib(),
            }
    finally:
        _close(loader)
        baseline.close()
    return {
        "retrieve_hybrid": blocks,
        "embedder": {
            "model": embedder.model,
            "word_vectors": embedder.word_vectors,
            "fallback": fallback,
            "vocabulary": embedder.vocabulary,
            "vocabulary_s": round(vocabulary_s, 3),
            "noise": embedder.noise,
        },
        "settings": {
            "seed": seed,
            "queries": queries,
            "batch": batch,
            "k": K,
            "ann_index": ann_index,
            "query_embedder": None if embed_ms is None else "all-MiniLM-L6-v2",
        },
        "machine": machine(),
    }

"""`memql bench perf`, hybrid part, at a tiny size: the bench embedder, recall, the report's shape."""

from __future__ import annotations

import json
import tempfile

import numpy as np
import pytest
from click.testing import CliRunner

from memql.bench import perf_dense
from memql.interfaces.cli import main


def test_word_mean_vectors_are_unit_deterministic_and_distinct():
    first, again = perf_dense.WordMeanEmbedder("random"), perf_dense.WordMeanEmbedder("random")
    texts = ["Budget review meeting.", "Meeting review budget.", "会议项目预算。", ""]
    vectors = first.embed_array(texts)
    assert vectors.shape == (4, perf_dense.DIMENSION) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # a pure function of the text: another instance, another batch, the same vector
    assert np.array_equal(again.embed_array(texts[1:2])[0], vectors[1])
    # the same words in another order: close, but not the same vector
    assert 0.9 < float(vectors[0] @ vectors[1]) < 0.9999
    assert float(vectors[0] @ vectors[2]) < 0.5
    assert first.model == "bench-word-mean/random" and first.vocabulary > 0


def test_precomputed_queries_answer_known_texts_without_embedding():
    inner = perf_dense.WordMeanEmbedder("random")
    wrapper = perf_dense.PrecomputedQueries(inner, ["budget review"])
    spent = inner.seconds
    assert wrapper.embed(["budget review"]) == [wrapper.vectors["budget review"]]
    assert inner.seconds == spent
    assert len(wrapper.embed(["something else"])[0]) == perf_dense.DIMENSION


def test_recall_counts_ties_with_the_last_exact_hit():
    exact = [("1", 0.9), ("2", 0.8), ("3", 0.7)]
    assert perf_dense.recall(exact, exact) == 1.0
    assert perf_dense.recall([("1", 0.9), ("2", 0.8), ("9", 0.7)], exact) == 1.0  # a tie is as good
    assert perf_dense.recall([("1", 0.9), ("9", 0.6)], exact) == 1 / 3
    assert perf_dense.recall([], []) == 1.0


def _ann() -> str:
    """HNSW when this memql's store has it; else the bench compares exact search with itself."""
    import inspect

    from memql.store.sqlite import SQLiteStore

    return "hnsw" if "vector_index" in inspect.signature(SQLiteStore).parameters else "exact"


def test_run_reports_sane_numbers(tmp_path, monkeypatch):
    from memql.store.sqlite import lexical

    monkeypatch.setattr(lexical, "POSTINGS_MIN_RECORDS", 0)  # the lexical index answers at these sizes too
    ann = _ann()
    report = perf_dense.run(
        [300, 600],
        queries=6,
        seed=1,
        directory=tmp_path,
        word_vectors="random",
        ann_index=ann,
        embed_queries=False,  # MiniLM's query embedding is timed by the CLI test
    )
    assert set(report["retrieve_hybrid"]) == {"300", "600"}
    for size, block in report["retrieve_hybrid"].items():
        assert block["records"] == int(size)
        assert block["load_s"] > 0 and block["embed_s"] > 0
        assert block["hnsw_warmup_s"] > 0 and block["exact_warmup_s"] > 0 and block["hnsw_reopen_s"] > 0
        for prefix in ("hnsw", "exact", "hnsw_dense", "exact_dense", "lexical", "lexical_fts5"):
            assert 0 < block[f"{prefix}_p50_ms"] <= block[f"{prefix}_p95_ms"], prefix
        for prefix in ("hnsw_cpu", "exact_cpu", "lexical_cpu", "lexical_fts5_cpu"):
            assert 0 <= block[f"{prefix}_p50_ms"] <= block[f"{prefix}_p95_ms"], prefix
        assert block["lexical_index"] == "postings"
        assert block["lexical_ratio_p50"] > 0 and block["lexical_ratio_p95"] > 0
        assert block["lexical_warmup_s"] > 0 and block["lexical_reopen_s"] > 0
        assert block["lexical_same_top"] == 1.0  # the index's answers are FTS5's
        assert block["ratio_p50"] > 0 and block["ratio_p95"] > 0
        if ann == "exact":
            assert block["recall_at_10"] == block["min_recall_at_10"] == 1.0
        else:
            assert block["recall_at_10"] >= 0.9
        assert "embed_p50_ms" not in block
        baseline = block["baseline"]  # the hand-written sqlite3 + numpy hybrid search, same data
        for prefix in ("memql", "raw", "memql_cpu", "raw_cpu"):
            assert 0 <= baseline[f"{prefix}_p50_ms"] <= baseline[f"{prefix}_p95_ms"], prefix
        assert baseline["ratio_p50"] == pytest.approx(
            baseline["memql_p50_ms"] / baseline["raw_p50_ms"], rel=0.01
        )
        assert 0.3 <= baseline["overlap_at_10"] <= 1.0  # both search the same records
        assert baseline["memql_vector_index"] == "exact"  # below ANN_MIN_VECTORS, as a default store
    assert report["embedder"]["model"] == "bench-word-mean/random"
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".db") == ["dense.db", "hybrid-raw.db"]
    assert report["settings"]["ann_index"] == ann


def test_cli_json_has_the_hybrid_table(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    args = ["bench", "perf", "--sizes", "100", "--queries", "3", "--encode-ops", "10"]
    result = CliRunner().invoke(main, [*args, "--dense-sizes", "150", "--word-vectors", "random", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert list(out["retrieve_hybrid"]) == ["150"]
    assert out["retrieve_hybrid"]["150"]["exact_p50_ms"] > 0
    assert out["dense"]["settings"]["queries"] == 3
    first = out["first_query"]["100"]  # the first-query part, at the largest of --sizes by default
    assert first["records"] == 100 and first["first_ms"] > 0 and first["after_p50_ms"] > 0
    block = out["retrieve_hybrid"]["150"]
    if out["dense"]["settings"]["query_embedder"]:  # the sums are of pairs, so above either part
        assert block["hnsw_with_embed_p50_ms"] > max(block["hnsw_p50_ms"], block["embed_p50_ms"]) * 0.99
        assert block["embed_p50_ms"] <= block["embed_p95_ms"]
    assert list(tmp_path.iterdir()) == []
